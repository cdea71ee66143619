import { useMemo, useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Tag, Typography } from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import { fenToYuan, toFen, type MonthlyCarItem } from '@wuye/contract';
import { CARPARK_ROLES } from '@wuye/contract/carpark/roles';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList, type ListFilters } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { SmallSelect, useCanWrite } from '../../components/resource';
import { usePayType } from '../fees/usePayType';

type Filters = ListFilters<'moncarlist'>;

/** The days left as a tag: expired in red, within a week in orange. */
function DaysLeft({ days }: { days: number | null }) {
  if (days === null) return <>-</>;
  if (days < 0) return <Tag color="error">已过期 {-days} 天</Tag>;
  if (days === 0) return <Tag color="warning">今天到期</Tag>;
  if (days <= 7) return <Tag color="warning">{days} 天</Tag>;
  return <Tag color="success">{days} 天</Tag>;
}

/**
 * 续费: months at the lot's monthly price of the car's kind; the new end is max(old end, today) +
 * months. Paid by the group's enabled ways in its order, its own among them, with the reference a
 * way asks for (docs/product.md#paytypelist).
 */
function RenewDialog({ row, onDone }: { row: MonthlyCarItem; onDone: (renewed: boolean) => void }) {
  const [form] = Form.useForm<{ months: number }>();
  const months = (Form.useWatch('months', form) as number | undefined) ?? 1;
  const [saving, setSaving] = useState(false);
  // the owner's balance is the cashier's to take (a parking bill), not the parking desk's
  const pay = usePayType('moncar-renew-paytype', { exclude: ['balance'] });
  const amount = fenToYuan(toFen(row.month_price) * BigInt(Math.max(1, Math.floor(months || 1))));
  const base = row.days_left !== null && row.days_left >= 0 ? row.end_date : '今天';
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('moncarrenew', {
        id: row.id,
        months: v.months,
        pay_type: pay.payType as never,
        pay_method_id: pay.payMethodId ?? null,
        pay_ref: pay.payRef,
        amount,
      });
      noticeSuccess(answer.return_msg);
      onDone(true);
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`月租续费：${row.carlicense}`}
      onCancel={() => onDone(false)}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText="确认收款并续费"
      okButtonProps={{ disabled: !!pay.problem, 'data-testid': 'moncar-renew-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ months: 1 }}>
        <Typography.Paragraph>
          {row.lot_title} {row.space_title}，当前到期日 {row.end_date || '无'}；月租 {row.month_price} 元/月（{row.car_type_ch}）
        </Typography.Paragraph>
        <Form.Item name="months" label="续费月数" rules={[{ required: true, message: '请输入月数' }]}>
          <InputNumber min={1} max={36} precision={0} data-testid="moncar-renew-months" />
        </Form.Item>
        {pay.fields()}
        <Typography.Paragraph data-testid="moncar-renew-amount">
          应收 <Typography.Text strong>{amount}</Typography.Text> 元，自 {base} 起延长 {months || 1} 个月；收款方式：{pay.label}
        </Typography.Paragraph>
        {pay.problem && (
          <Typography.Paragraph type="warning" data-testid="moncar-renew-problem">
            {pay.problem}
          </Typography.Paragraph>
        )}
      </Form>
    </Modal>
  );
}

/**
 * /carpark/moncarlist (月租车管理; docs/product.md#carpark): the monthly cars with their days left,
 * filters for those ending within N days and the expired, and the renewal from the row.
 */
export default function MonthlyCars() {
  const [form] = Form.useForm<Filters>();
  const initial = useMemo<Filters>(() => {
    // a to-do's link names the plate; 车位占用's counts name their filter and lot
    const q = new URLSearchParams(window.location.search);
    const f: Filters = {};
    if (q.get('carlicense')) f.carlicense = q.get('carlicense')!;
    const expiring = Number(q.get('expiring'));
    if ([7, 15, 30].includes(expiring)) f.expiring = expiring;
    if (q.get('expired') === 'Y') f.expired = 'Y';
    if (Number(q.get('lot_id')) > 0) f.lot_id = Number(q.get('lot_id'));
    return f;
  }, []);
  const list = useList('moncarlist', initial);
  const canWrite = useCanWrite(CARPARK_ROLES.staff);
  const [renewing, setRenewing] = useState<MonthlyCarItem | null>(null);
  const columns: TableColumnsType<MonthlyCarItem> = [
    { key: 'carlicense', title: '车牌号', dataIndex: 'carlicense', width: 110, fixed: 'left' },
    { key: 'lot_title', title: '停车场', dataIndex: 'lot_title', width: 120 },
    { key: 'space_title', title: '车位', dataIndex: 'space_title', width: 80 },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'realname', title: '车主', dataIndex: 'realname', width: 90 },
    { key: 'car_type_ch', title: '车型', dataIndex: 'car_type_ch', width: 90 },
    { key: 'end_date', title: '到期日', dataIndex: 'end_date', width: 110 },
    { key: 'days_left', title: '剩余', dataIndex: 'days_left', width: 120, render: (d: number | null) => <DaysLeft days={d} /> },
    { key: 'month_price', title: '月租(元)', dataIndex: 'month_price', width: 90, align: 'right' },
    ...(canWrite
      ? [
          {
            key: 'op',
            title: '操作',
            width: 90,
            render: (_: unknown, row: MonthlyCarItem) => (
              <Button size="small" type="link" onClick={() => setRenewing(row)} data-testid={`moncar-renew-${row.id}`}>
                续费
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <TablePage<MonthlyCarItem, Filters>
        title="月租车管理"
        testId="moncar-page"
        list={list}
        columns={columns}
        rowKey="id"
        form={form}
        initialFilters={initial}
        onSearch={(v) =>
          list.setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== '')) as Filters)
        }
        filters={
          <>
            <Form.Item name="lot_id" label="停车场">
              <SmallSelect
                widget={{ small: 'carpark_small_list' }}
                values={{}}
                allowClear
                style={{ width: 150 }}
                testId="moncar-filter-lot"
              />
            </Form.Item>
            <Form.Item name="carlicense" label="车牌号">
              <Input allowClear maxLength={12} style={{ width: 130 }} data-testid="moncar-filter-carlicense" />
            </Form.Item>
            <Form.Item name="expiring" label="到期">
              <Select
                allowClear
                style={{ width: 130 }}
                placeholder="全部"
                data-testid="moncar-filter-expiring"
                options={[
                  { value: 7, label: '7 天内到期' },
                  { value: 15, label: '15 天内到期' },
                  { value: 30, label: '30 天内到期' },
                ]}
              />
            </Form.Item>
            <Form.Item name="expired" label="状态">
              <Select
                allowClear
                style={{ width: 110 }}
                placeholder="全部"
                data-testid="moncar-filter-expired"
                options={[
                  { value: 'Y', label: '已过期' },
                  { value: 'N', label: '未过期' },
                ]}
              />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1000 }, size: 'middle' }}
      />
      {renewing && (
        <RenewDialog
          row={renewing}
          onDone={(renewed) => {
            setRenewing(null);
            if (renewed) list.reload();
          }}
        />
      )}
    </>
  );
}
