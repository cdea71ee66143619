import { useState } from 'react';
import { App, Button, Card, DatePicker, Descriptions, Empty, Form, Input, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { hasAnyRole } from '@wuye/contract/roles';
import { SHIFT_ALL_ROLES, SHIFT_HANDOVER_ROLES } from '@wuye/contract/fees/refund';
import type { PaymentRow, ShiftMethodRow, ShiftRow } from '@wuye/contract/fees';
import { call } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import { formatMoney, moneyColumn } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { useUser } from '../../stores/user';
import { useIdempotentSubmit } from './useIdempotentSubmit';

const money = (v: string) => formatMoney(v);
const yuan = (v: string) => formatMoney(v, { unit: '元' });

/** What a shift took by pay method, with the totals under it. */
export function ShiftMethods({ methods, testId }: { methods: ShiftMethodRow[]; testId?: string }) {
  return (
    <Table<ShiftMethodRow>
      size="small"
      rowKey="pay_type"
      pagination={false}
      dataSource={methods}
      data-testid={testId}
      locale={{ emptyText: '本班次暂无收款' }}
      columns={[
        { title: '支付方式', dataIndex: 'pay_type_ch' },
        { title: '笔数', dataIndex: 'count', align: 'right' },
        moneyColumn<ShiftMethodRow>('实收', 'amount'),
        moneyColumn<ShiftMethodRow>('余额抵扣', 'balance_used'),
      ]}
    />
  );
}

const receiptColumns: TableColumnsType<PaymentRow> = [
  { title: '收据号', dataIndex: 'receipt_no', width: 110 },
  { title: '房屋', dataIndex: 'address', width: 160 },
  { title: '支付方式', dataIndex: 'pay_type_ch', width: 90 },
  moneyColumn('实收', 'paid_amount', { width: 110 }),
  {
    title: '状态',
    dataIndex: 'status_ch',
    width: 90,
    render: (s: string, p) => <Tag color={p.status === 'V' ? 'error' : p.status === 'Y' ? 'success' : 'default'}>{s}</Tag>,
  },
  { title: '收款时间', dataIndex: 'create_time', width: 170 },
];

/** The signed-in cashier's shift so far, and the 交班 that closes it. */
function CurrentShift({ onHandedOver }: { onHandedOver: () => void }) {
  const current = useQuery({ queryKey: ['shiftcurrent'], queryFn: () => call('shiftcurrent', {}), retry: false });
  const [remark, setRemark] = useState('');
  const { submitting, submit } = useIdempotentSubmit();
  const { modal } = App.useApp();
  const s = current.data;
  const handOver = async () => {
    const done = await submit((key) => call('shifthandover', { remark, idempotency_key: key }));
    if (!done) return;
    noticeSuccess(`已交班：收款 ${done.receipts} 笔，合计 ${yuan(done.receipts_amount)}`);
    setRemark('');
    void current.refetch();
    onHandedOver();
  };
  return (
    <Card title="当前班次" loading={current.isLoading} data-testid="shift-current" style={{ marginBottom: 16 }}>
      {s && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 2, md: 4 }} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="收银员">{s.cashier_name}</Descriptions.Item>
            <Descriptions.Item label="开始">{s.start_time}</Descriptions.Item>
            <Descriptions.Item label="收款">
              <span data-testid="shift-receipts">
                {s.receipts} 笔，{yuan(s.receipts_amount)}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label="退款">
              {s.refunds} 笔，{yuan(s.refunds_amount)}
            </Descriptions.Item>
            <Descriptions.Item label="作废">
              <span data-testid="shift-voided">
                {s.voided} 笔，{yuan(s.voided_amount)}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label="余额抵扣">{yuan(s.balance_used)}</Descriptions.Item>
          </Descriptions>
          <ShiftMethods methods={s.methods} testId="shift-methods" />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            本班次收据
          </Typography.Title>
          <Table<PaymentRow>
            size="small"
            rowKey="id"
            dataSource={s.items}
            columns={receiptColumns}
            scroll={{ x: 720 }}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            data-testid="shift-items"
          />
          <Space wrap style={{ marginTop: 12 }}>
            <Input
              placeholder="交班备注（选填）"
              maxLength={200}
              value={remark}
              onChange={(e) => setRemark(e.target.value)}
              style={{ width: 260 }}
              data-testid="shift-remark"
            />
            <Button
              type="primary"
              disabled={s.empty}
              loading={submitting}
              data-testid="shift-handover"
              onClick={() =>
                void modal.confirm({
                  title: '确定交班？',
                  content: `交班后本班次收款 ${s.receipts} 笔、合计 ${yuan(s.receipts_amount)}将结算，新的班次从此刻开始。`,
                  okText: '交班',
                  okButtonProps: { 'data-testid': 'shift-handover-confirm' } as never,
                  onOk: () => handOver(),
                })
              }
            >
              交班
            </Button>
            {s.empty && <Typography.Text type="secondary">本班次没有收款、退款或作废，无需交班</Typography.Text>}
          </Space>
        </>
      )}
      {!s && !current.isLoading && <Empty />}
    </Card>
  );
}

interface Filters {
  dates?: [Dayjs, Dayjs] | null;
  cashier?: string;
}

const toFilters = (v: Filters) => ({
  start_date: v.dates?.[0]?.format('YYYY-MM-DD') ?? '',
  end_date: v.dates?.[1]?.format('YYYY-MM-DD') ?? '',
  cashier: v.cashier,
});

/** 交班 (/fees/shift): the cashier's current shift and hand-over; the hand-overs (finance: every cashier's). */
export default function ShiftPage() {
  const navigate = useNavigate();
  const roles = useUser((s) => s.roles);
  const handsOver = hasAnyRole(roles, SHIFT_HANDOVER_ROLES);
  const readsAll = hasAnyRole(roles, SHIFT_ALL_ROLES);
  const list = useList('shiftlist', { sort: 'desc' });
  const columns: TableColumnsType<ShiftRow> = [
    { title: '收银员', dataIndex: 'cashier_name', width: 90 },
    { title: '开始', dataIndex: 'start_time', width: 170 },
    { title: '交班时间', dataIndex: 'end_time', width: 170 },
    { title: '收款笔数', dataIndex: 'receipts', width: 90, align: 'right' },
    moneyColumn('收款合计', 'receipts_amount', { width: 130 }),
    {
      title: '按支付方式（元）',
      key: 'methods',
      width: 240,
      render: (_, s) => s.methods.map((m) => `${m.pay_type_ch} ${money(m.amount)}`).join('；') || '—',
    },
    { title: '退款（笔 / 元）', key: 'refunds', width: 130, align: 'right', render: (_, s) => `${s.refunds} / ${money(s.refunds_amount)}` },
    { title: '作废（笔 / 元）', key: 'voided', width: 130, align: 'right', render: (_, s) => `${s.voided} / ${money(s.voided_amount)}` },
    { title: '备注', dataIndex: 'remark', width: 140 },
    {
      title: '操作',
      key: 'op',
      width: 90,
      render: (_, s) => (
        <Button size="small" type="link" onClick={() => void navigate(`/fees/print/shift/${s.id}`)} data-testid={`shift-print-${s.id}`}>
          打印交班单
        </Button>
      ),
    },
  ];
  return (
    <>
      {handsOver && <CurrentShift onHandedOver={() => list.reload()} />}
      <TablePage<ShiftRow, Filters>
        testId="shift-list"
        list={list}
        columns={columns}
        rowKey="id"
        title="交班记录"
        onSearch={(v) => list.setFilters({ sort: 'desc', ...toFilters(v) })}
        onExport={readsAll ? (v) => runExport('shiftlistexport', { sort: 'desc', ...toFilters(v) }) : undefined}
        filters={
          <>
            <Form.Item name="dates" label="交班日期">
              <DatePicker.RangePicker inputReadOnly style={{ maxWidth: 240 }} />
            </Form.Item>
            {readsAll && (
              <Form.Item name="cashier" label="收银员">
                <Input allowClear style={{ width: 100 }} data-testid="shift-filter-cashier" />
              </Form.Item>
            )}
          </>
        }
      />
    </>
  );
}
