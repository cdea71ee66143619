import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Col, Descriptions, Empty, Form, Input, Row, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { HouseSearchItem, MethodOutputs } from '@wuye/contract';
import { DISCOUNT_APPLY_ROLES, DISCOUNT_MANAGER_ROLES, type CashierBill, type DiscountRequestRow } from '@wuye/contract/fees';
import { hasAnyRole } from '@wuye/contract/roles';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { formatMoney, Money, moneyColumn, MoneyStatistic } from '../../components/Money';
import MoneyInput from '../../components/MoneyInput';
import SafeButton from '../../components/SafeButton';
import { fenOf, settlePayment, sumFen, yuan } from './money';
import { useIdempotentSubmit } from './useIdempotentSubmit';
import { usePayType } from './usePayType';
import { RoomSelects, STATUS_COLOR, type RoomPick } from './shared';
import TopUp from './TopUp';
import RechargeDialog from '../cards/RechargeDialog';
import RoomOwnerSearch from './RoomOwnerSearch';
import CashierConfirm, { type PaySummary } from './CashierConfirm';
import { DeskDiscounts, DiscountApply, useDeskDiscounts } from './CashierDiscounts';
import { useUser } from '../../stores/user';

const num = (v: string | null) => (v ? Number(v) || undefined : undefined);
const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

type DeskBill = CashierBill & { address: string };
type RoomBills = MethodOutputs['cashierbills'];

/** The added rooms' answers as one value that changes only when one of them does (useQueries' combine, kept stable here). */
const combineRooms = (results: Array<UseQueryResult<RoomBills>>) => ({
  answers: results.map((r) => r.data),
  fetching: results.some((r) => r.isFetching),
});

/**
 * The cashier desk (/desktop/cashier?rid&bid&tid&hid): find the owner (name, mobile, its last four
 * digits, a room number) or pick the room, add the owner's other rooms, select bills, read the
 * summary and take the money once, on one receipt.
 */
export default function Cashier() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [place, setPlace] = useState<RoomPick>({ bid: num(params.get('bid')), tid: num(params.get('tid')), hid: num(params.get('hid')) });
  const hid = place.hid;
  // the owner's other rooms paid on the same receipt
  const [extraRooms, setExtraRooms] = useState<number[]>([]);
  const bills = useQuery({
    queryKey: ['cashierbills', hid],
    queryFn: () => call('cashierbills', { hid: hid! }),
    enabled: !!hid,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const extras = useQueries({
    queries: extraRooms.map((room) => ({
      queryKey: ['cashierbills', room],
      queryFn: () => call('cashierbills', { hid: room }),
      retry: false,
      refetchOnWindowFocus: false,
    })),
    combine: combineRooms,
  });
  const items: DeskBill[] = useMemo(() => {
    const main = bills.data ? bills.data.items.map((b) => ({ ...b, address: bills.data.house.address })) : [];
    const more = extras.answers.flatMap((a) => (a ? a.items.map((b) => ({ ...b, address: a.house.address })) : []));
    return [...main, ...more];
  }, [bills.data, extras.answers]);
  const roomsShown = bills.data ? 1 + extraRooms.length : 0;
  const [selected, setSelected] = useState<number[]>([]);
  const [discount, setDiscount] = useState('');
  const [useBalance, setUseBalance] = useState(false);
  const pay = usePayType('cashier-pay-type');
  const { payType, payMethodId, payRef, reset: resetPayRef } = pay;
  const [paid, setPaid] = useState('');
  const [payer, setPayer] = useState('');
  const [remark, setRemark] = useState('');
  const [topUp, setTopUp] = useState(false);
  const [summary, setSummary] = useState<PaySummary | null>(null);
  const [asking, setAsking] = useState(false);
  // an approved discount request being used: its bills ticked, its amount as the discount
  const [usingRequest, setUsingRequest] = useState<DiscountRequestRow | null>(null);
  const settings = useQuery({
    queryKey: ['fees', 'settings'],
    queryFn: () => call('feesettinginfo', {}),
    retry: false,
    refetchOnWindowFocus: false,
  }).data;
  const discountAllowed = settings?.allow_discount !== 'N';
  const roles = useUser((s) => s.roles);
  // above the cap only a manager may discount (the server checks the same); a cashier asks for an approval
  const manager = hasAnyRole(roles, DISCOUNT_MANAGER_ROLES);
  const mayAsk = hasAnyRole(roles, DISCOUNT_APPLY_ROLES);
  const discounts = useDeskDiscounts(hid, mayAsk);
  const { submitting, submit, newAttempt } = useIdempotentSubmit();

  // bills that appear (a room picked or added) start selected; those selected before stay so
  const known = useRef(new Set<number>());
  useEffect(() => {
    setSelected((prev) => {
      const ids = new Set(items.map((b) => b.id));
      const next = prev.filter((id) => ids.has(id));
      for (const b of items) if (!known.current.has(b.id)) next.push(b.id);
      known.current = ids;
      return next;
    });
  }, [items]);
  useEffect(() => newAttempt(), [newAttempt, selected, discount, useBalance, payType, payRef, paid, payer, hid, extraRooms]);
  // an approved request picked: once its bills are on the desk, tick exactly them and take its amount
  useEffect(() => {
    if (!usingRequest) return;
    const ids = new Set(items.map((b) => b.id));
    if (!usingRequest.bill_ids.every((id) => ids.has(id))) return;
    setSelected(usingRequest.bill_ids);
    setDiscount(usingRequest.amount);
  }, [usingRequest, items]);

  const chosen = items.filter((b) => selected.includes(b.id));
  const receivable = sumFen(chosen.map((b) => b.fee));
  const late = sumFen(chosen.map((b) => b.late_fee));
  const discountFen = fenOf(discount);
  const total = receivable + late - discountFen;
  // the approved request applies while its bills and amount are the desk's
  const approved =
    usingRequest && sameIds(selected, usingRequest.bill_ids) && discountFen === fenOf(usingRequest.amount) ? usingRequest : null;
  // the fee settings' limit: a percent of bills plus late fees, rounded down to the fen
  const maxDiscount = ((receivable + late) * BigInt(settings?.max_discount_percent ?? 20)) / 100n;
  const overCap = discountFen > maxDiscount && !manager && !approved;
  // the balance pays only the chosen bills whose item allows it (收费项目's 余额支付)
  const barred = [...new Set(chosen.filter((b) => b.balance_pay === 'N').map((b) => b.title))];
  const payable = sumFen(chosen.filter((b) => b.balance_pay !== 'N').map((b) => b.total));
  const held = fenOf(bills.data?.house.balance);
  const balance = barred.length && payable < held ? payable : held;
  const settled = settlePayment({ total, balance, useBalance, payType, paid, hasOwner: !!bills.data?.house.member_id });
  const { balanceUsed, due, paidFen, toBalance } = settled;
  const problem =
    chosen.length === 0
      ? '请选择要缴的账单'
      : total < 0n
        ? '优惠金额不能大于应收合计'
        : discountFen > 0n && !discountAllowed
          ? '本小区不允许在收银台优惠减免（含滞纳金减免）'
          : overCap
            ? `优惠超过收银员上限：应收合计（含滞纳金）的 ${settings?.max_discount_percent ?? 20}%，本次最多优惠 ${formatMoney(maxDiscount, { unit: '元' })}；更大的优惠须由管理员或收费主管办理，或申请优惠审批`
            : payType === 'balance' && barred.length
              ? `收费项目「${barred.join('、')}」不允许余额支付，请选择其他支付方式`
              : settled.problem || pay.problem;

  const pick = (v: RoomPick) => {
    setPlace(v);
    setExtraRooms([]);
    setUsingRequest(null);
    setPayer('');
    const q = new URLSearchParams();
    if (bills.data?.house.rid) q.set('rid', String(bills.data.house.rid));
    for (const k of ['bid', 'tid', 'hid'] as const) if (v[k]) q.set(k, String(v[k]));
    setParams(q, { replace: true });
  };
  const found = (h: HouseSearchItem) => pick({ bid: h.bid, tid: h.tid, hid: h.hid });
  const toggleRoom = (room: number, on: boolean) => setExtraRooms((rs) => (on ? [...rs, room] : rs.filter((r) => r !== room)));
  const takeRequest = (d: DiscountRequestRow) => {
    setExtraRooms((rs) => [...new Set([...rs, ...d.hids.filter((h) => h !== hid)])]);
    setUsingRequest(d);
  };

  const review = () => {
    if (problem || !hid || submitting) return;
    const rooms = [...new Set(chosen.map((b) => b.address))];
    setSummary({
      rooms,
      bills: chosen,
      receivable,
      late,
      discount: discountFen,
      discountRequestId: approved?.id,
      balanceUsed,
      due,
      paid: paidFen,
      toBalance,
      payType: payRef ? `${pay.label}（凭证号 ${payRef}）` : pay.label,
      payer: payer.trim() || bills.data?.house.owner_name || '',
    });
  };

  const confirm = useCallback(async () => {
    if (problem || !hid || submitting) return;
    const answer = await submit((idempotency_key) =>
      request('cashierpay', {
        hid,
        bill_ids: selected,
        pay_type: payType,
        pay_method_id: payMethodId,
        pay_ref: payRef,
        paid_amount: yuan(paidFen),
        use_balance: useBalance,
        discount: yuan(discountFen),
        idempotency_key,
        remark,
        payer_name: payer.trim(),
        ...(approved ? { discount_request_id: approved.id } : {}),
      }),
    );
    setSummary(null);
    if (!answer) return;
    noticeSuccess(`${answer.return_msg ?? '收费成功'}，收据号 ${answer.data.receipt_no}`);
    setDiscount('');
    setPaid('');
    setRemark('');
    resetPayRef();
    setUsingRequest(null);
    void bills.refetch();
    void navigate(`/fees/print/receipt/${answer.data.id}`);
  }, [
    problem,
    hid,
    submitting,
    submit,
    selected,
    payType,
    payMethodId,
    payRef,
    resetPayRef,
    paidFen,
    useBalance,
    discountFen,
    remark,
    payer,
    approved,
    bills,
    navigate,
  ]);

  // compact columns so the table fits beside the payment card at 1440 px
  const columns: TableColumnsType<DeskBill> = [
    ...(roomsShown > 1 ? [{ title: '房屋', dataIndex: 'address', width: 120 }] : []),
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
    moneyColumn('金额', 'fee', { width: 100 }),
    moneyColumn('滞纳金', 'late_fee', { width: 100 }),
    moneyColumn('小计', 'total', { width: 100 }),
    { title: '应缴日期', dataIndex: 'due_date', width: 100 },
    { title: '状态', dataIndex: 'status', width: 75, render: (s: string, b) => <Tag color={STATUS_COLOR[s]}>{b.status_ch}</Tag> },
  ];
  const ownerRooms = bills.data?.owner_rooms ?? [];
  const house = bills.data?.house;

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid="cashier-page">
      <Card title="收银台">
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <RoomOwnerSearch onPick={found} testId="cashier-search" />
          <Space wrap>
            <span>选择房屋：</span>
            <RoomSelects value={place} onChange={pick} testId="cashier-room" />
          </Space>
        </Space>
        {bills.data && (
          <Descriptions size="small" style={{ marginTop: 12 }} column={{ xs: 1, sm: 2, xl: 4 }} data-testid="cashier-house">
            <Descriptions.Item label="房屋">{bills.data.house.address}</Descriptions.Item>
            <Descriptions.Item label="业主">{bills.data.house.owner_name || '未登记'}</Descriptions.Item>
            <Descriptions.Item label="余额">
              {formatMoney(bills.data.house.balance, { unit: '元' })}
              {bills.data.house.member_id > 0 && (
                <Button size="small" type="link" onClick={() => setTopUp(true)} data-testid="cashier-topup">
                  {house?.card_id && house.card_status === 'Y' ? '会员卡充值' : '预存'}
                </Button>
              )}
              {house?.card_no && (
                <Typography.Text type="secondary" data-testid="cashier-card">
                  会员卡 {house.card_no}
                  {house.card_status === 'F' ? '（已冻结）' : house.card_status === 'I' ? '（未激活）' : ''}
                </Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="欠费合计">
              <Money value={bills.data.totals.total} testId="cashier-arrears" /> 元
              {bills.data.totals.late_fee !== '0.00' && `（含滞纳金 ${formatMoney(bills.data.totals.late_fee, { unit: '元' })}）`}
            </Descriptions.Item>
          </Descriptions>
        )}
        {ownerRooms.length > 0 && (
          <div style={{ marginTop: 8 }} data-testid="cashier-owner-rooms">
            <Typography.Text type="secondary">同一业主的其他房屋（勾选后一并收款，开一张收据）：</Typography.Text>
            <Space wrap style={{ marginTop: 4 }}>
              {ownerRooms.map((r) => (
                <Checkbox
                  key={r.hid}
                  checked={extraRooms.includes(r.hid)}
                  onChange={(e) => toggleRoom(r.hid, e.target.checked)}
                  data-testid={`cashier-owner-room-${r.hid}`}
                >
                  {r.address}
                  <Typography.Text type={r.arrears.total !== '0.00' ? 'danger' : 'secondary'} style={{ marginLeft: 4 }}>
                    {r.arrears.total !== '0.00' ? `欠费 ${formatMoney(r.arrears.total, { unit: '元' })}` : '无欠费'}
                  </Typography.Text>
                </Checkbox>
              ))}
            </Space>
          </div>
        )}
      </Card>
      {hid && house?.card_id && house.card_status === 'Y' ? (
        <RechargeDialog
          card={{ id: house.card_id, card_no: house.card_no, realname: house.owner_name }}
          open={topUp}
          onClose={(changed) => {
            setTopUp(false);
            if (changed) void bills.refetch();
          }}
        />
      ) : null}
      {hid && !(house?.card_id && house.card_status === 'Y') && (
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
          <Empty description="请搜索业主或选择房屋" />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={16}>
            <Card title={roomsShown > 1 ? `未缴账单（${roomsShown} 户）` : '未缴账单'}>
              <div data-testid="cashier-bills">
                <Table<DeskBill>
                  rowKey="id"
                  size="small"
                  columns={columns}
                  dataSource={items}
                  loading={bills.isFetching || extras.fetching}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
                  locale={{ emptyText: '暂无未缴账单' }}
                  rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
                />
              </div>
            </Card>
          </Col>
          <Col xs={24} xl={8}>
            <Card title="收款" data-testid="cashier-totals">
              <Row gutter={8}>
                <Col span={8}>
                  <MoneyStatistic title="应收" value={receivable} data-testid="cashier-receivable" />
                </Col>
                <Col span={8}>
                  <MoneyStatistic title="滞纳金" value={late} data-testid="cashier-late" />
                </Col>
                <Col span={8}>
                  <MoneyStatistic title="应缴金额" value={due} contentStyle={{ color: '#cf1322' }} data-testid="cashier-due" />
                </Col>
              </Row>
              <Form layout="horizontal" labelCol={{ flex: '76px' }} wrapperCol={{ flex: '1 1 0' }} style={{ marginTop: 16 }}>
                <Form.Item
                  label="优惠"
                  extra={
                    approved
                      ? `使用优惠审批 #${approved.id}（已批准 ${formatMoney(approved.amount, { unit: '元' })}）`
                      : discountAllowed && settings && settings.max_discount_percent < 100
                        ? manager
                          ? `收银员最多 ${formatMoney(maxDiscount, { unit: '元' })}；您可超出此上限`
                          : `最多 ${formatMoney(maxDiscount, { unit: '元' })}，超出须申请优惠审批`
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
                    使用余额（可用 {formatMoney(balance, { unit: '元' })}，本次抵扣 {formatMoney(balanceUsed, { unit: '元' })}）
                  </Checkbox>
                </Form.Item>
                {pay.fields()}
                <Form.Item label="实收金额">
                  <MoneyInput value={paid} onChange={setPaid} placeholder={yuan(due)} data-testid="cashier-paid" />
                </Form.Item>
                {toBalance > 0n && (
                  <Form.Item label="转入余额">
                    <span data-testid="cashier-to-balance">{formatMoney(toBalance, { unit: '元' })}</span>
                  </Form.Item>
                )}
                <Form.Item label="缴费人">
                  <Input
                    value={payer}
                    maxLength={30}
                    onChange={(e) => setPayer(e.target.value)}
                    placeholder={bills.data?.house.owner_name || '缴费人姓名'}
                    data-testid="cashier-payer"
                  />
                </Form.Item>
                <Form.Item label="备注">
                  <Input value={remark} onChange={(e) => setRemark(e.target.value)} maxLength={200} />
                </Form.Item>
              </Form>
              {mayAsk && <DeskDiscounts requests={discounts.open} using={approved?.id} onUse={takeRequest} onRefresh={discounts.refetch} />}
              {problem && items.length > 0 && (
                <Alert
                  type="warning"
                  showIcon
                  title={problem}
                  style={{ marginBottom: 12 }}
                  data-testid="cashier-problem"
                  action={
                    overCap &&
                    mayAsk && (
                      <Button size="small" onClick={() => setAsking(true)} data-testid="cashier-discount-apply">
                        申请优惠审批
                      </Button>
                    )
                  }
                />
              )}
              <SafeButton
                type="primary"
                block
                size="large"
                loading={submitting}
                disabled={!!problem || submitting}
                onClick={review}
                data-testid="cashier-confirm"
              >
                确认收款 {formatMoney(paidFen, { unit: '元' })}
              </SafeButton>
            </Card>
          </Col>
        </Row>
      )}
      <CashierConfirm summary={summary} submitting={submitting} onConfirm={() => void confirm()} onCancel={() => setSummary(null)} />
      <DiscountApply
        open={asking}
        hid={hid}
        billIds={selected}
        amount={yuan(discountFen)}
        onClose={(sent) => {
          setAsking(false);
          if (sent) discounts.refetch();
        }}
      />
    </Space>
  );
}
