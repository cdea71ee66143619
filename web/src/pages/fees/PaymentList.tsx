import { useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { PAY_TYPE_CH, PAY_TYPES, type PaymentRow, type PayTypeName } from '@wuye/contract/fees';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import RefundApply from './RefundApply';
import PaymentVoid, { useMayVoid } from './PaymentVoid';
import { REFUND_APPLY_ROLES } from '@wuye/contract/fees/refund';
import { hasAnyRole } from '@wuye/contract/roles';
import { useUser } from '../../stores/user';
import { useActionFixed } from './shared';
import { runExport } from '../../api/exportJob';
import { moneyColumn } from '../../components/Money';

interface Filters {
  dates?: [Dayjs, Dayjs] | null;
  pay_type?: PayTypeName | '';
  cashier?: string;
  receipt_no?: string;
  keyword?: string;
}

const toFilters = (v: Filters) =>
  ({
    start_date: v.dates?.[0]?.format('YYYY-MM-DD') ?? '',
    end_date: v.dates?.[1]?.format('YYYY-MM-DD') ?? '',
    pay_type: v.pay_type ?? '',
    cashier: v.cashier,
    receipt_no: v.receipt_no,
    keyword: v.keyword,
  }) as const;

const STATUS_COLOR: Record<string, string> = { Y: 'success', P: 'warning', R: 'default', V: 'error' };

/** Payments (/fees/payment): receipts with filters and reprint. */
export default function PaymentList() {
  const navigate = useNavigate();
  const list = useList('paymentlist', { sort: 'desc' });
  const [refunding, setRefunding] = useState<number | null>(null);
  const [voiding, setVoiding] = useState<PaymentRow | null>(null);
  const mayVoid = useMayVoid();
  // admin holds every code (docs/product.md#roles)
  const mayRefund = hasAnyRole(
    useUser((s) => s.roles),
    REFUND_APPLY_ROLES,
  );

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<PaymentRow> = [
    { title: '收据号', dataIndex: 'receipt_no', width: 110 },
    { title: '房屋', dataIndex: 'address', width: 160 },
    { title: '缴费人', dataIndex: 'payer_name', width: 90 },
    // amount, pay type and status early, so they stay in view beside the fixed action column
    moneyColumn('实收', 'paid_amount', { width: 110 }),
    { title: '支付方式', dataIndex: 'pay_type_ch', width: 130 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      // a refund waiting for approval says so (退款中) until it is decided
      render: (s: string, p) => {
        const tag = (
          <Tag color={p.refunding ? 'processing' : STATUS_COLOR[s]} data-testid={`payment-status-${p.id}`}>
            {p.status_ch}
          </Tag>
        );
        // a voided receipt tells why, who and when
        return s === 'V' ? <Tooltip title={`${p.void_reason}（${p.voided_by} ${p.void_time}）`}>{tag}</Tooltip> : tag;
      },
    },
    { title: '账单数', dataIndex: 'bill_count', width: 80 },
    moneyColumn('应收', 'receivable', { width: 110 }),
    moneyColumn('滞纳金', 'late_fee', { width: 110 }),
    moneyColumn('优惠', 'discount', { width: 100 }),
    moneyColumn('余额抵扣', 'balance_used', { width: 120 }),
    moneyColumn('转入余额', 'to_balance', { width: 120 }),
    { title: '收银员', dataIndex: 'cashier_name', width: 90 },
    { title: '收款时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 200,
      fixed: actionFixed,
      render: (_, p) => (
        <Space size={4}>
          <Button
            size="small"
            type="link"
            onClick={() => void navigate(`/fees/print/receipt/${p.id}`)}
            data-testid={`payment-print-${p.id}`}
          >
            补打收据
          </Button>
          {/* a temporary stay's receipt (no room) is neither voided nor refunded here */}
          {p.hid !== null && mayVoid(p) && (
            <Button size="small" type="link" danger onClick={() => setVoiding(p)} data-testid={`payment-void-${p.id}`}>
              作废
            </Button>
          )}
          {mayRefund && p.hid !== null && p.status !== 'R' && p.status !== 'V' && !p.refunding && (
            <Button size="small" type="link" danger onClick={() => setRefunding(p.id)} data-testid={`payment-refund-${p.id}`}>
              申请退款
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<PaymentRow, Filters>
        testId="payment-page"
        list={list}
        columns={columns}
        rowKey="id"
        title="收费记录"
        onSearch={(v) => list.setFilters({ sort: 'desc', ...toFilters(v) })}
        onExport={(v) => runExport('paymentexport', { sort: 'desc', ...toFilters(v) })}
        filters={
          <>
            <Form.Item name="dates" label="收款日期">
              <DatePicker.RangePicker inputReadOnly style={{ maxWidth: 240 }} />
            </Form.Item>
            <Form.Item name="pay_type" label="支付方式">
              <Select allowClear style={{ width: 110 }} options={PAY_TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))} />
            </Form.Item>
            <Form.Item name="cashier" label="收银员">
              <Input allowClear style={{ width: 100 }} />
            </Form.Item>
            <Form.Item name="receipt_no" label="收据号">
              <Input allowClear style={{ width: 120 }} data-testid="payment-receipt-no" />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear style={{ width: 140 }} placeholder="房号/业主/收据号" data-testid="payment-keyword" />
            </Form.Item>
          </>
        }
      />
      <PaymentVoid
        payment={voiding}
        onClose={(voided) => {
          setVoiding(null);
          if (voided) list.reload();
        }}
      />
      <RefundApply
        paymentId={refunding}
        onClose={() => {
          setRefunding(null);
          list.reload();
        }}
      />
    </>
  );
}
