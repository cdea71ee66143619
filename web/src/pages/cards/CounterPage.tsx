import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  COUNTER_ORDER_STATUS,
  COUNTER_PAY_TYPE,
  type CounterMember,
  type CounterOrderRow,
  type SettlementWire,
} from '@wuye/contract/cards/counter';
import { checkAmount, toFen } from '@wuye/contract/money';
import { call, request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { Money, MoneyStatistic, moneyColumn } from '../../components/Money';
import MoneyInput from '../../components/MoneyInput';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { TextPromptModal } from '../../components/TextPromptModal';
import { EnumTag, useSmallList } from '../../components/resource';
import { useUser } from '../../stores/user';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';
import { useDayPresets, wireRange } from '../invoice/shared';

/** The card's points and discount rules in words, for the cashier. */
function rulesText(m: CounterMember): string {
  const r = m.rules;
  const parts = [r.discount < 100 ? `会员价 ${r.discount}%` : '无会员折扣'];
  if (r.supplyBonus && r.redeemPoints > 0)
    parts.push(`${r.redeemPoints} 积分抵 ${r.redeemMoney} 元${toFen(r.redeemMinOrder) > 0n ? `（满 ${r.redeemMinOrder} 元）` : ''}`);
  if (r.supplyBonus && r.earnPerYuan > 0) parts.push(`每 1 元得 ${r.earnPerYuan} 积分`);
  if (!r.supplyBalance) parts.push('不支持储值');
  return parts.join('；');
}

/** The parts a purchase is paid by, in the order they apply. */
function Parts({ s }: { s: SettlementWire }) {
  return (
    <Descriptions size="small" column={1} bordered data-testid="counter-parts">
      <Descriptions.Item label="消费金额">
        <Money value={s.amount} unit="元" />
      </Descriptions.Item>
      <Descriptions.Item label="会员折扣">-{s.member_discount} 元</Descriptions.Item>
      <Descriptions.Item label="优惠券">-{s.coupon_discount} 元</Descriptions.Item>
      <Descriptions.Item label="积分抵扣">
        -{s.points_money} 元（{s.points_used} 积分）
      </Descriptions.Item>
      <Descriptions.Item label="余额支付">{s.balance_paid} 元</Descriptions.Item>
      <Descriptions.Item label="应收现金/扫码">
        <Typography.Text strong type="danger" data-testid="counter-cash">
          {s.cash_paid} 元
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="本单赠送积分">{s.points_earned}</Descriptions.Item>
    </Descriptions>
  );
}

interface Filters {
  keyword?: string;
  status?: string;
  created?: [Dayjs, Dayjs] | null;
}

/** The counter's orders: the merchant's own store's, or every store's for the property. */
function Orders({ merchant }: { merchant: boolean }) {
  const list = useList('cardconsumelist', { sort: 'desc' });
  const presets = useDayPresets();
  const actionFixed = useActionFixed();
  const [refunding, setRefunding] = useState<CounterOrderRow | null>(null);
  const wire = (v: Filters) => ({
    keyword: v.keyword?.trim() || undefined,
    status: (v.status ?? '') as never,
    create_time: wireRange(v.created),
  });
  const columns: TableColumnsType<CounterOrderRow> = [
    { title: '单号', dataIndex: 'order_no', width: 170, render: (v: string) => <Link to={`/carpark/orderinfo?order_no=${v}`}>{v}</Link> },
    { title: '商户', dataIndex: 'merchant', width: 120 },
    { title: '卡号', dataIndex: 'card_no', width: 120 },
    { title: '会员', dataIndex: 'realname', width: 90 },
    moneyColumn('消费金额', 'amount', { width: 100 }),
    moneyColumn('优惠', 'coupon_discount', { width: 90 }),
    moneyColumn('积分抵扣', 'points_money', { width: 90 }),
    moneyColumn('余额', 'balance_paid', { width: 90 }),
    moneyColumn('现金/扫码', 'cash_paid', { width: 100 }),
    { title: '状态', dataIndex: 'status', width: 80, render: (v: string) => <EnumTag enum={COUNTER_ORDER_STATUS} value={v} /> },
    { title: '时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 90,
      fixed: actionFixed,
      render: (_, r) =>
        r.status === 'Y' && (
          <Button size="small" type="link" danger onClick={() => setRefunding(r)} data-testid={`counter-refund-${r.id}`}>
            退款
          </Button>
        ),
    },
  ];
  const sums = list.answer?.sums;
  return (
    <>
      <TablePage<CounterOrderRow, Filters>
        testId="counter-orders"
        title="消费订单"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', ...wire(v) })}
        onExport={merchant ? undefined : (v) => runExport('cardconsumeexport', wire(v))}
        toolbar={
          sums && (
            <Space size="large" wrap>
              <MoneyStatistic title="消费合计" value={sums.amount} />
              <MoneyStatistic title="余额支付" value={sums.balance_paid} />
              <MoneyStatistic title="现金/扫码" value={sums.cash_paid} />
            </Space>
          )
        }
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={32} placeholder="单号、卡号、会员" style={{ width: 170 }} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(COUNTER_ORDER_STATUS)} />
            </Form.Item>
            <Form.Item name="created" label="日期">
              <DatePicker.RangePicker presets={presets} inputReadOnly style={{ maxWidth: 260 }} />
            </Form.Item>
          </>
        }
      />
      {refunding && (
        <TextPromptModal<CounterOrderRow>
          open
          danger
          title={`整单退款 · ${refunding.order_no}`}
          label="退款原因"
          required="请填写退款原因"
          maxLength={200}
          testIds={{ text: 'counter-refund-reason', ok: 'counter-refund-ok' }}
          send={(reason) => request('cardconsumerefund', { id: refunding.id, reason })}
          onDone={() => {
            setRefunding(null);
            list.reload();
          }}
          onCancel={() => setRefunding(null)}
        >
          <Typography.Paragraph type="secondary">
            余额、积分、优惠券原路退回，本单赠送的积分收回；现金或扫码部分由收款方退还。
          </Typography.Paragraph>
        </TextPromptModal>
      )}
    </>
  );
}

/**
 * /carpark/carduscon (会员收银; docs/product.md#member-counter): find the member by card number,
 * mobile or a coupon's code; enter the amount; the member discount, one coupon, points and the
 * balance apply in that order and the rest is paid in cash or by QR; the receipt; the orders with
 * their refunds. A merchant account works at its own store; the property's staff choose the store.
 */
export default function CounterPage() {
  const merchant = useUser((s) => s.sysUser?.sys_type) === 'merchant';
  const stores = useSmallList('merchant_auth_small_list', merchant ? null : {});
  const [code, setCode] = useState('');
  const [member, setMember] = useState<CounterMember | null>(null);
  const [merchantId, setMerchantId] = useState<number | undefined>();
  const [amount, setAmount] = useState('');
  const [coupon, setCoupon] = useState('');
  const [points, setPoints] = useState<number | null>(null);
  const [useBalance, setUseBalance] = useState(true);
  const [payType, setPayType] = useState('cash');
  const [done, setDone] = useState<(CounterOrderRow & { balance: string; bonus: number }) | null>(null);
  const { submitting, submit, newAttempt } = useIdempotentSubmit();
  const [looking, setLooking] = useState(false);
  const queryClient = useQueryClient();
  const amountProblem = !amount ? '请输入消费金额' : checkAmount(amount) || (toFen(amount) === 0n ? '消费金额须大于0' : '');
  const wanted =
    member && !amountProblem
      ? {
          card_id: member.card_id,
          amount,
          coupon_code: coupon.trim(),
          points: points ?? 0,
          use_balance: useBalance ? ('Y' as const) : ('N' as const),
          merchant_id: merchantId ?? null,
        }
      : null;
  const preview = useQuery({
    queryKey: ['cardconsumepreview', wanted],
    queryFn: () => call('cardconsumepreview', wanted!),
    enabled: !!wanted,
    retry: false,
  });

  const lookup = async (value: string) => {
    if (!value.trim()) return;
    setLooking(true);
    try {
      const found = await call('carduslookup', { code: value.trim() });
      setMember(found);
      setCoupon(found.coupon_code);
      setPoints(null);
      setDone(null);
      newAttempt();
    } catch {
      setMember(null);
    } finally {
      setLooking(false);
    }
  };
  const changed = () => newAttempt();
  const charge = async () => {
    if (!wanted) return;
    const answer = await submit((idempotency_key) =>
      request('cardconsume', { ...wanted, pay_type: payType as never, remark: '', idempotency_key }),
    );
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    setDone(answer.data);
    void queryClient.invalidateQueries({ queryKey: ['list', 'cardconsumelist'] });
    setMember({ ...member!, balance: answer.data.balance, bonus: answer.data.bonus });
    setAmount('');
    setCoupon('');
    setPoints(null);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="counter-page">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title="会员收银">
            <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
              <Input.Search
                value={code}
                onChange={(e) => setCode(e.target.value)}
                onSearch={(v) => void lookup(v)}
                placeholder="扫码或输入会员卡号、手机号、券码"
                enterButton="查找"
                loading={looking}
                maxLength={32}
                data-testid="counter-code"
              />
              {!merchant && (
                <Select
                  allowClear
                  style={{ width: '100%' }}
                  placeholder="收款商户（不选为物业服务中心）"
                  value={merchantId}
                  options={stores.options}
                  onChange={(v?: number) => {
                    setMerchantId(v);
                    changed();
                  }}
                  data-testid="counter-merchant"
                />
              )}
              {member ? (
                <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered data-testid="counter-member">
                  <Descriptions.Item label="会员">{member.realname}</Descriptions.Item>
                  <Descriptions.Item label="手机号">{member.mobile}</Descriptions.Item>
                  <Descriptions.Item label="会员卡">
                    <Tag color={member.template_color}>{member.template_name}</Tag>
                    {member.card_no}
                  </Descriptions.Item>
                  <Descriptions.Item label="状态">{member.card_status_ch}</Descriptions.Item>
                  <Descriptions.Item label="余额">
                    <Money value={member.balance} unit="元" testId="counter-balance" />
                  </Descriptions.Item>
                  <Descriptions.Item label="积分">
                    <span data-testid="counter-bonus">{member.bonus}</span>
                  </Descriptions.Item>
                  <Descriptions.Item label="权益" span={2}>
                    {rulesText(member)}
                  </Descriptions.Item>
                </Descriptions>
              ) : (
                <Typography.Text type="secondary">找到会员后输入消费金额</Typography.Text>
              )}
            </Space>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title="收款">
            <Form layout="horizontal" labelCol={{ flex: '96px' }} disabled={!member}>
              <Form.Item
                label="消费金额"
                validateStatus={amount && amountProblem ? 'error' : undefined}
                help={amount ? amountProblem : undefined}
              >
                <MoneyInput
                  value={amount}
                  onChange={(v) => {
                    setAmount(v);
                    changed();
                  }}
                  data-testid="counter-amount"
                />
              </Form.Item>
              <Form.Item label="优惠券码">
                <Input
                  allowClear
                  maxLength={32}
                  value={coupon}
                  onChange={(e) => {
                    setCoupon(e.target.value);
                    changed();
                  }}
                  placeholder="一单限用一张"
                  data-testid="counter-coupon"
                />
              </Form.Item>
              <Form.Item label="使用积分" extra={preview.data ? `本单最多 ${preview.data.points_max} 积分` : undefined}>
                <InputNumber
                  min={0}
                  precision={0}
                  style={{ width: '100%' }}
                  value={points}
                  onChange={(v) => {
                    setPoints(v);
                    changed();
                  }}
                  data-testid="counter-points"
                />
              </Form.Item>
              <Form.Item label="余额">
                <Checkbox
                  checked={useBalance}
                  onChange={(e) => {
                    setUseBalance(e.target.checked);
                    changed();
                  }}
                  data-testid="counter-use-balance"
                >
                  使用余额支付
                </Checkbox>
              </Form.Item>
              <Form.Item label="其余支付">
                <Radio.Group
                  value={payType}
                  onChange={(e) => {
                    setPayType(e.target.value as string);
                    changed();
                  }}
                  options={enumOptions(COUNTER_PAY_TYPE)}
                  data-testid="counter-pay-type"
                />
              </Form.Item>
            </Form>
            {preview.data && <Parts s={preview.data} />}
            {preview.error && <Alert type="error" showIcon title={(preview.error as Error).message} data-testid="counter-problem" />}
            <Button
              type="primary"
              block
              style={{ marginTop: 12 }}
              disabled={!preview.data || submitting}
              loading={submitting}
              onClick={() => void charge()}
              data-testid="counter-confirm"
            >
              确认收款{preview.data ? `（现金/扫码 ${preview.data.cash_paid} 元）` : ''}
            </Button>
          </Card>
        </Col>
      </Row>
      <Orders merchant={merchant} />
      <Modal
        open={!!done}
        title="收款成功"
        onCancel={() => setDone(null)}
        footer={[
          <Button key="print" onClick={() => window.print()} data-testid="counter-print">
            打印小票
          </Button>,
          <Button key="ok" type="primary" onClick={() => setDone(null)} data-testid="counter-done">
            完成
          </Button>,
        ]}
      >
        {done && (
          <Space orientation="vertical" style={{ width: '100%' }} data-testid="counter-receipt">
            <Typography.Text>
              单号 {done.order_no} · {done.merchant} · {done.create_time}
            </Typography.Text>
            <Parts s={done} />
            <Typography.Text>
              会员 {done.realname}（{done.card_no}）当前余额 {done.balance} 元，积分 {done.bonus}
            </Typography.Text>
          </Space>
        )}
      </Modal>
    </Space>
  );
}
