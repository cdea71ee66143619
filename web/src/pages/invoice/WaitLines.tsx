import { useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { FileAddOutlined, FileTextOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { PAY_TYPE } from '@wuye/contract/fees';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { INVOICE_RATE, WAIT_LINE_STATUS, type InvoiceWaitRow } from '@wuye/contract/invoice/invoices';
import { INVOICE_ROLES } from '@wuye/contract/invoice/roles';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { EnumTag, useCanWrite, useSmallList } from '../../components/resource';
import { RoomSelects, type RoomPick } from '../fees/shared';
import IssueDialog, { type IssueMode } from './IssueDialog';
import { useDayPresets, wireRange } from './shared';
import './invoice.css';

interface Filters {
  keyword?: string;
  place?: RoomPick;
  item_id?: number;
  pay_type?: string;
  cashier_name?: string;
  rate?: string;
  paid?: [Dayjs, Dayjs] | null;
  receipt_no?: string;
}

/** The list's filters as the wire takes them. */
function toWire(v: Filters) {
  return {
    sort: 'desc' as const,
    keyword: v.keyword?.trim() || undefined,
    bid: v.place?.bid,
    hid: v.place?.hid,
    item_id: v.item_id,
    pay_type: v.pay_type || undefined,
    cashier_name: v.cashier_name?.trim() || undefined,
    rate: (v.rate ?? '') as '',
    paid: wireRange(v.paid),
    receipt_no: v.receipt_no?.trim() || undefined,
  };
}

/** 待开票费用: paid receipt lines with something left to invoice; chosen lines are issued (or applied for) at once. */
export default function WaitLines() {
  const list = useList('invoicewaitlist', { sort: 'desc' });
  const [form] = Form.useForm<Filters>();
  const presets = useDayPresets();
  const canIssue = useCanWrite(INVOICE_ROLES.staff);
  const canApply = useCanWrite(FEE_ROLES.cashier);
  const readsFees = useCanWrite(FEE_ROLES.read);
  // the fee items to filter by: the fees' list, or for the invoicing staff without it their mapping table's
  const feeItems = useSmallList('feethinglist', readsFees ? {} : null).items;
  const mapped = useQuery({
    queryKey: ['invoiceitemmaplist', 'filter'],
    queryFn: () => call('invoiceitemmaplist', { page: 1, limit: 200 }),
    enabled: !readsFees && canIssue,
  });
  const itemOptions = readsFees
    ? feeItems.map((i) => ({ value: i.id, label: i.title }))
    : (mapped.data?.items ?? []).map((i) => ({ value: i.item_id, label: i.item_title }));
  const [selected, setSelected] = useState<InvoiceWaitRow[]>([]);
  const [dialog, setDialog] = useState<{ mode: IssueMode; lines: InvoiceWaitRow[] } | null>(null);
  const sums = list.answer?.sums;
  // the room stays in view on a wide screen; on a phone nothing sticks
  const sticky = useActionFixed() ? ('left' as const) : undefined;

  const columns: TableColumnsType<InvoiceWaitRow> = [
    { title: '房屋', dataIndex: 'address', width: 150, fixed: sticky },
    { title: '业主', dataIndex: 'owner_name', width: 90 },
    { title: '收费项目', dataIndex: 'item_title', width: 120 },
    { title: '账期', dataIndex: 'period', width: 150, render: (v: string, r) => v || r.daterange },
    moneyColumn('实收', 'received', { width: 110 }),
    moneyColumn('已开票', 'invoiced', { width: 110 }),
    moneyColumn('可开票', 'left', { width: 110 }),
    { title: '缴费时间', dataIndex: 'paid_at', width: 170 },
    { title: '支付方式', dataIndex: 'pay_type', width: 100, render: (v: string) => <EnumTag enum={PAY_TYPE} value={v} /> },
    { title: '收银员', dataIndex: 'cashier_name', width: 90 },
    { title: '收据号', dataIndex: 'receipt_no', width: 110 },
    {
      title: '税率',
      dataIndex: 'rate',
      width: 100,
      render: (v: string, r) =>
        v === '' ? (
          <Tooltip title="请在开票设置中为该收费项目设置开票映射">
            <Tag color="error" data-testid={`invoice-wait-unmapped-${r.id}`}>
              未设置映射
            </Tag>
          </Tooltip>
        ) : (
          r.rate_ch
        ),
    },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => <EnumTag enum={WAIT_LINE_STATUS} value={v} /> },
  ];

  const done = () => {
    setSelected([]);
    list.reload();
  };
  const selectedLeft = selected.filter((r) => r.rate !== '').length;

  return (
    <>
      <TablePage<InvoiceWaitRow, Filters>
        testId="invoice-wait"
        list={list}
        form={form}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters(toWire(v))}
        onExport={(v) => runExport('invoicewaitexport', (({ sort: _s, ...rest }) => rest)(toWire(v)))}
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={30} placeholder="房号、业主、收据号" style={{ width: 170 }} data-testid="invoice-wait-keyword" />
            </Form.Item>
            <Form.Item name="place" label="房屋">
              <PlaceInput />
            </Form.Item>
            {(readsFees || canIssue) && (
              <Form.Item name="item_id" label="收费项目">
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  style={{ width: 150 }}
                  options={itemOptions}
                  data-testid="invoice-wait-item"
                />
              </Form.Item>
            )}
            <Form.Item name="pay_type" label="支付方式">
              <Select allowClear style={{ width: 120 }} options={enumOptions(PAY_TYPE)} data-testid="invoice-wait-pay_type" />
            </Form.Item>
            <Form.Item name="cashier_name" label="收银员">
              <Input allowClear maxLength={30} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name="rate" label="税率">
              <Select allowClear style={{ width: 110 }} options={enumOptions(INVOICE_RATE)} data-testid="invoice-wait-rate" />
            </Form.Item>
            <Form.Item name="paid" label="缴费日期">
              <DatePicker.RangePicker presets={presets} inputReadOnly style={{ maxWidth: 260 }} data-testid="invoice-wait-paid" />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            {selected.length > 0 && (
              <Typography.Text data-testid="invoice-wait-selected">
                已选 {selected.length} 条
                <Button size="small" type="link" onClick={() => setSelected([])}>
                  取消选择
                </Button>
              </Typography.Text>
            )}
            {canIssue && (
              <Button
                type="primary"
                icon={<FileAddOutlined />}
                disabled={selectedLeft === 0}
                onClick={() => setDialog({ mode: 'issue', lines: selected })}
                data-testid="invoice-issue"
              >
                开票
              </Button>
            )}
            {canApply && (
              <Button
                icon={<FileTextOutlined />}
                disabled={selectedLeft === 0}
                onClick={() => setDialog({ mode: 'apply', lines: selected })}
                data-testid="invoice-apply"
              >
                申请开票
              </Button>
            )}
          </>
        }
        tableProps={{
          rowSelection: {
            selectedRowKeys: selected.map((r) => r.id),
            onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
            preserveSelectedRowKeys: true,
            getCheckboxProps: (r) => ({ disabled: r.rate === '', 'data-testid': `invoice-wait-pick-${r.id}` }) as never,
          },
          title: () =>
            sums ? (
              <Space size="large" wrap className="invoice-sums" data-testid="invoice-wait-sums">
                <MoneyStatistic title="实收合计" value={sums.received} />
                <MoneyStatistic title="已开票合计" value={sums.invoiced} />
                <MoneyStatistic title="可开票合计" value={sums.left} contentStyle={{ color: '#1677ff' }} />
              </Space>
            ) : null,
        }}
      />
      <IssueDialog lines={dialog?.lines ?? null} mode={dialog?.mode ?? 'issue'} onClose={() => setDialog(null)} onDone={done} />
    </>
  );
}

/** Building and room, as one filter value. */
function PlaceInput({ value, onChange }: { value?: RoomPick; onChange?: (v: RoomPick) => void }) {
  return <RoomSelects value={value ?? {}} onChange={(v) => onChange?.(v)} testId="invoice-wait-place" />;
}
