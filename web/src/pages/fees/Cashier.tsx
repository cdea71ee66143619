import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Checkbox, Col, Descriptions, Empty, Form, Input, Radio, Row, Space, Statistic, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { DISCOUNT_MANAGER_ROLES, PAY_TYPE_CH, PAY_TYPES, type CashierBill, type PayTypeName } from '@wuye/contract/fees';
import { hasAnyRole } from '@wuye/contract/roles';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import SafeButton from '../../components/SafeButton';
import { fenOf, settlePayment, sumFen, yuan } from './money';
import { useIdempotentSubmit } from './useIdempotentSubmit';
import { RoomSelects, STATUS_COLOR, type RoomPick } from './shared';
import TopUp from './TopUp';
import { useUser } from '../../stores/user';

const num = (v: string | null) => (v ? Number(v) || undefined : undefined);

/** The cashier desk (/desktop/cashier?rid&bid&tid&hid): pick a room, select bills, take the money once. */
export default function Cashier() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [place, setPlace] = useState<RoomPick>({ bid: num(params.get('bid')), tid: num(params.get('tid')), hid: num(params.get('hid')) });
  const hid = place.hid;
  const bills = useQuery({
    queryKey: ['cashierbills', hid],
    queryFn: () => call('cashierbills', { hid: hid! }),
    enabled: !!hid,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const items = useMemo(() => bills.data?.items ?? [], [bills.data]);
  const [selected, setSelected] = useState<number[]>([]);
  const [discount, setDiscount] = useState('');
  const [useBalance, setUseBalance] = useState(false);
  const [payType, setPayType] = useState<PayTypeName>('cash');
  const [paid, setPaid] = useState('');
  const [remark, setRemark] = useState('');
  const [topUp, setTopUp] = useState(false);
  const settings = useQuery({
    queryKey: ['fees', 'settings'],
    queryFn: () => call('feesettinginfo', {}),
    retry: false,
    refetchOnWindowFocus: false,
  }).data;
  const discountAllowed = settings?.allow_discount !== 'N';
  // above the cap only a manager may discount (the server checks the same)
  const manager = useUser((s) => hasAnyRole(s.roles, DISCOUNT_MANAGER_ROLES));
  const { submitting, submit, newAttempt } = useIdempotentSubmit();

  useEffect(() => setSelected(items.map((b) => b.id)), [items]);
  useEffect(() => newAttempt(), [newAttempt, selected, discount, useBalance, payType, paid, hid]);

  const chosen = items.filter((b) => selected.includes(b.id));
  const receivable = sumFen(chosen.map((b) => b.fee));
  const late = sumFen(chosen.map((b) => b.late_fee));
  const discountFen = fenOf(discount);
  const total = receivable + late - discountFen;
  // the fee settings' limit: a percent of bills plus late fees, rounded down to the fen
  const maxDiscount = ((receivable + late) * BigInt(settings?.max_discount_percent ?? 20)) / 100n;
  const balance = fenOf(bills.data?.house.balance);
  const settled = settlePayment({ total, balance, useBalance, payType, paid, hasOwner: !!bills.data?.house.member_id });
  const { balanceUsed, due, paidFen, toBalance } = settled;
  const problem =
    chosen.length === 0
      ? '请选择要缴的账单'
      : total < 0n
        ? '优惠金额不能大于应收合计'
        : discountFen > 0n && !discountAllowed
          ? '本小区不允许在收银台优惠减免（含滞纳金减免）'
          : discountFen > maxDiscount && !manager
            ? `优惠超过收银员上限：应收合计（含滞纳金）的 ${settings?.max_discount_percent ?? 20}%，本次最多优惠 ${yuan(maxDiscount)} 元；更大的优惠须由管理员或收费主管办理`
            : settled.problem;

  const pick = (v: RoomPick) => {
    setPlace(v);
    const q = new URLSearchParams();
    if (bills.data?.house.rid) q.set('rid', String(bills.data.house.rid));
    for (const k of ['bid', 'tid', 'hid'] as const) if (v[k]) q.set(k, String(v[k]));
    setParams(q, { replace: true });
  };

  const confirm = async () => {
    if (problem || !hid || submitting) return;
    const answer = await submit((idempotency_key) =>
      request('cashierpay', {
        hid,
        bill_ids: selected,
        pay_type: payType,
        paid_amount: yuan(paidFen),
        use_balance: useBalance,
        discount: yuan(discountFen),
        idempotency_key,
        remark,
      }),
    );
    if (!answer) return;
    noticeSuccess(`${answer.return_msg ?? '收费成功'}，收据号 ${answer.data.receipt_no}`);
    setDiscount('');
    setPaid('');
    setRemark('');
    void bills.refetch();
    void navigate(`/fees/print/receipt/${answer.data.id}`);
  };

  // compact columns so the table fits beside the payment card at 1440 px
  const columns: TableColumnsType<CashierBill> = [
    {
      title: '收费项目',
      dataIndex: 'title',
      width: 110,
      // a parking bill names its space or plate
      render: (t: string, b) =>
        b.space_id || b.car_id ? (
          <span>
            {t}
            <br />
            <Tag color="blue" style={{ marginTop: 2 }}>
              {b.measure}
            </Tag>
          </span>
        ) : (
          t
        ),
    },
    { title: '计费周期', dataIndex: 'daterange', width: 185 },
    { title: '金额', dataIndex: 'fee', width: 85, align: 'right' },
    { title: '滞纳金', dataIndex: 'late_fee', width: 75, align: 'right' },
    { title: '小计', dataIndex: 'total', width: 85, align: 'right' },
    { title: '应缴日期', dataIndex: 'due_date', width: 100 },
    { title: '状态', dataIndex: 'status', width: 75, render: (s: string, b) => <Tag color={STATUS_COLOR[s]}>{b.status_ch}</Tag> },
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid="cashier-page">
      <Card title="收银台">
        <Space wrap>
          <span>选择房屋：</span>
          <RoomSelects value={place} onChange={pick} testId="cashier-room" />
        </Space>
        {bills.data && (
          <Descriptions size="small" style={{ marginTop: 12 }} column={{ xs: 1, sm: 2, xl: 4 }} data-testid="cashier-house">
            <Descriptions.Item label="房屋">{bills.data.house.address}</Descriptions.Item>
            <Descriptions.Item label="业主">{bills.data.house.owner_name || '未登记'}</Descriptions.Item>
            <Descriptions.Item label="余额">
              {bills.data.house.balance} 元
              {bills.data.house.member_id > 0 && (
                <Button size="small" type="link" onClick={() => setTopUp(true)} data-testid="cashier-topup">
                  预存
                </Button>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="欠费合计">{bills.data.totals.total} 元</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      {hid && (
        <TopUp
          hid={hid}
          open={topUp}
          onClose={(changed) => {
            setTopUp(false);
            if (changed) void bills.refetch();
          }}
        />
      )}
      {!hid ? (
        <Card>
          <Empty description="请先选择房屋" />
        </Card>
      ) : (
        <Row gutter={16}>
          <Col xs={24} xl={16}>
            <Card title="未缴账单">
              <div data-testid="cashier-bills">
                <Table<CashierBill>
                  rowKey="id"
                  size="small"
                  columns={columns}
                  dataSource={items}
                  loading={bills.isFetching}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
                  rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
                />
              </div>
            </Card>
          </Col>
          <Col xs={24} xl={8}>
            <Card title="收款" data-testid="cashier-totals">
              <Row gutter={8}>
                <Col span={8}>
                  <Statistic title="应收" value={yuan(receivable)} data-testid="cashier-receivable" />
                </Col>
                <Col span={8}>
                  <Statistic title="滞纳金" value={yuan(late)} data-testid="cashier-late" />
                </Col>
                <Col span={8}>
                  <Statistic title="应缴金额" value={yuan(due)} styles={{ content: { color: '#cf1322' } }} data-testid="cashier-due" />
                </Col>
              </Row>
              <Form layout="horizontal" labelCol={{ flex: '76px' }} wrapperCol={{ flex: '1 1 0' }} style={{ marginTop: 16 }}>
                <Form.Item
                  label="优惠"
                  extra={
                    discountAllowed && settings && settings.max_discount_percent < 100
                      ? manager
                        ? `收银员最多 ${yuan(maxDiscount)} 元；您可超出此上限`
                        : `最多 ${yuan(maxDiscount)} 元`
                      : undefined
                  }
                >
                  <MoneyInput
                    value={discount}
                    onChange={setDiscount}
                    disabled={!discountAllowed}
                    placeholder={discountAllowed ? '0.00' : '本小区不允许优惠'}
                    data-testid="cashier-discount"
                  />
                </Form.Item>
                <Form.Item label="余额抵扣">
                  <Checkbox
                    checked={useBalance}
                    onChange={(e) => setUseBalance(e.target.checked)}
                    disabled={balance === 0n}
                    data-testid="cashier-use-balance"
                  >
                    使用余额（可用 {yuan(balance)} 元，本次抵扣 {yuan(balanceUsed)} 元）
                  </Checkbox>
                </Form.Item>
                <Form.Item label="支付方式">
                  <Radio.Group
                    value={payType}
                    onChange={(e) => setPayType(e.target.value as PayTypeName)}
                    data-testid="cashier-pay-type"
                    options={PAY_TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))}
                  />
                </Form.Item>
                <Form.Item label="实收金额">
                  <MoneyInput value={paid} onChange={setPaid} placeholder={yuan(due)} data-testid="cashier-paid" />
                </Form.Item>
                {toBalance > 0n && (
                  <Form.Item label="转入余额">
                    <span data-testid="cashier-to-balance">{yuan(toBalance)} 元</span>
                  </Form.Item>
                )}
                <Form.Item label="备注">
                  <Input value={remark} onChange={(e) => setRemark(e.target.value)} maxLength={200} />
                </Form.Item>
              </Form>
              {problem && chosen.length > 0 && <Alert type="warning" showIcon title={problem} style={{ marginBottom: 12 }} />}
              <SafeButton
                type="primary"
                block
                size="large"
                loading={submitting}
                disabled={!!problem || submitting}
                onClick={() => void confirm()}
                data-testid="cashier-confirm"
              >
                确认收款 {yuan(paidFen)} 元
              </SafeButton>
            </Card>
          </Col>
        </Row>
      )}
    </Space>
  );
}
