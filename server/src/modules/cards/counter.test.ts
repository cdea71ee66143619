import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
let merchant: string;
let cashier: string;
let templateId = 0;
let key = 0;
const newKey = () => `counter-test-${Date.now()}-${++key}`;
let mobileSeq = 0;
const newMobile = () => `1360000${String(++mobileSeq).padStart(4, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, merchant, cashier] = await s.logins('admin', 'admin2', 'merchant', 'cashier');
  const t = await s.database.db
    .selectFrom('card_templates')
    .select('id')
    .where('rid', '=', 1)
    .where('status', '=', 'Y')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  templateId = t.id;
  // the community card of the demo: 98 %, 1 point a yuan (cap 5000), 100 points take 1 yuan from an order of 10, at most 10,000
});
afterAll(() => s?.close());

/** A new member with a card, the balance recharged and points given. */
async function member(balance = '0', points = 0) {
  const res = await s.call(
    'creatcardus',
    { card_no: `K${Date.now() % 1e8}${++key}`, template_id: templateId, realname: '收银测试', mobile: newMobile() },
    admin,
  );
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  const card = (await s.call('cardusinfo', { id: res.data.id }, admin)).data as {
    id: number;
    member_id: number;
    card_no: string;
    mobile: string;
  };
  if (balance !== '0')
    expect(
      (await s.call('cardrecharge', { card_id: card.id, amount: balance, pay_type: 'cash', idempotency_key: newKey() }, admin)).return_code,
    ).toBe('SUCCESS');
  if (points) expect((await s.call('cardbonusadjust', { id: card.id, points, reason: '测试' }, admin)).return_code).toBe('SUCCESS');
  return card;
}

const wallet = async (memberId: number) =>
  s.database.db
    .selectFrom('members')
    .select(['balance', 'bonus'])
    .where('rid', '=', 1)
    .where('id', '=', memberId)
    .executeTakeFirstOrThrow();

/** A 满20减5 shopping coupon given to the member, at every store. */
async function couponFor(memberId: number): Promise<string> {
  const name = `满20减5-${++key}`;
  const t = await s.call(
    'cardsadd',
    {
      name,
      kind: 'amount',
      purpose: 'shopping',
      face_value: '5.00',
      min_spend: '20.00',
      per_person: 5,
      give_mode: 'staff',
      validity: 'days',
      valid_days: 30,
      status: 'Y',
    },
    admin,
  );
  expect(t.return_code, t.return_msg).toBe('SUCCESS');
  const given = await s.call('cardgive', { template_id: t.data.id, member_ids: [memberId], idempotency_key: newKey() }, admin);
  expect(given.return_code, given.return_msg).toBe('SUCCESS');
  const c = await s.database.db
    .selectFrom('member_coupons')
    .select('code')
    .where('rid', '=', 1)
    .where('member_id', '=', memberId)
    .where('template_id', '=', t.data.id)
    .executeTakeFirstOrThrow();
  return c.code;
}

const buy = (card: number, v: Record<string, unknown>, token = admin) =>
  s.call('cardconsume', { card_id: card, pay_type: 'cash', idempotency_key: newKey(), ...v }, token);

describe('the member counter', () => {
  it('finds a member by card number, mobile or coupon code', async () => {
    const card = await member('50');
    const code = await couponFor(card.member_id);
    for (const q of [card.card_no, card.mobile, code]) {
      const found = await s.call('carduslookup', { code: q }, admin);
      expect(found.return_code, found.return_msg).toBe('SUCCESS');
      expect(found.data).toMatchObject({ card_id: card.id, balance: '50.00' });
    }
    expect((await s.call('carduslookup', { code: code }, admin)).data.coupon_code).toBe(code);
    expect((await s.call('carduslookup', { code: 'NOPE12345' }, admin)).return_msg).toBe('没有找到该会员卡、手机号或券码');
    expect((await s.call('carduslookup', { code: card.card_no }, admin2)).return_code).toBe('FAIL');
  });

  it('pays in order: member discount, coupon, points, balance, then cash; earns points; the preview takes nothing', async () => {
    const card = await member('30', 1000);
    const code = await couponFor(card.member_id);
    const wanted = { card_id: card.id, amount: '100.00', coupon_code: code, points: 500, use_balance: 'Y' };
    const preview = await s.call('cardconsumepreview', wanted, admin);
    expect(preview.return_code, preview.return_msg).toBe('SUCCESS');
    // 100 × 98 % = 98; 5 off → 93; 500 points → 5 yuan → 88; balance 30 → 58 cash; earned on 88 paid
    expect(preview.data).toMatchObject({
      member_discount: '2.00',
      coupon_discount: '5.00',
      points_used: 500,
      points_money: '5.00',
      balance_paid: '30.00',
      cash_paid: '58.00',
      points_earned: 88,
    });
    expect(await wallet(card.member_id)).toEqual({ balance: '30.00', bonus: 1000 });
    const coupon = await s.database.db
      .selectFrom('member_coupons')
      .select('status')
      .where('rid', '=', 1)
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(coupon.status).toBe('U');

    const k = newKey();
    const res = await s.call('cardconsume', { ...wanted, pay_type: 'wechat', idempotency_key: k }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.return_msg).toBe('收款成功，应收现金/扫码 58.00 元');
    expect(res.data).toMatchObject({
      amount: '100.00',
      cash_paid: '58.00',
      pay_type: 'wechat',
      merchant: '物业服务中心',
      balance: '0.00',
      bonus: 588,
    });
    expect(res.data.order_no).toMatch(/^XF\d{14}$/);
    // the same key: the same order, nothing taken twice
    expect((await s.call('cardconsume', { ...wanted, pay_type: 'wechat', idempotency_key: k }, admin)).data.order_no).toBe(
      res.data.order_no,
    );
    expect(await wallet(card.member_id)).toEqual({ balance: '0.00', bonus: 588 });
    // the coupon is spent on this order
    expect((await buy(card.id, { amount: '50', coupon_code: code })).return_msg).toBe('该优惠券已使用');

    const info = await s.call('orderinfo', { order_no: res.data.order_no }, admin);
    expect(info.data).toMatchObject({ kind: 'counter', kind_ch: '会员消费', status_ch: '已支付', total: '100.00' });
    expect(info.data.payments.map((p: { label: string }) => p.label)).toEqual([
      '会员折扣',
      expect.stringContaining('优惠券'),
      '积分抵扣',
      '余额支付',
      '微信支付',
    ]);
  });

  it('refunds a purchase whole: balance, points and coupon back, earned points taken back', async () => {
    const card = await member('100', 300);
    const code = await couponFor(card.member_id);
    const order = (await buy(card.id, { amount: '40', coupon_code: code, points: 200 })).data;
    // 40 × 98 % = 39.20; 5 off → 34.20; 200 points → 2 → 32.20 from the balance; 32 points earned
    expect(order).toMatchObject({ balance_paid: '32.20', cash_paid: '0.00', points_used: 200, points_earned: 32 });
    expect(await wallet(card.member_id)).toEqual({ balance: '67.80', bonus: 132 });
    expect((await s.call('cardconsumerefund', { id: order.id, reason: '' }, admin)).return_msg).toContain('请填写退款原因');
    const refund = await s.call('cardconsumerefund', { id: order.id, reason: '商品退货' }, admin);
    expect(refund.return_code, refund.return_msg).toBe('SUCCESS');
    expect(refund.data.status).toBe('R');
    expect(await wallet(card.member_id)).toEqual({ balance: '100.00', bonus: 300 });
    const coupon = await s.database.db
      .selectFrom('member_coupons')
      .select('status')
      .where('rid', '=', 1)
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(coupon.status).toBe('U');
    expect((await s.call('cardconsumerefund', { id: order.id, reason: '再退' }, admin)).return_msg).toBe('该订单已退款');
    const info = await s.call('orderinfo', { order_no: order.order_no }, admin);
    expect(info.data.timeline.map((t: { text: string }) => t.text)).toEqual([
      expect.stringContaining('收款 40.00 元'),
      '整单退款：商品退货',
    ]);
  });

  it('refuses a refund once the earned points are spent, a frozen card, points under the minimum', async () => {
    const card = await member('0');
    const order = (await buy(card.id, { amount: '200', use_balance: 'N' })).data;
    expect(order.points_earned).toBe(196);
    await s.call('cardbonusadjust', { id: card.id, points: -150, reason: '兑换' }, admin);
    expect((await s.call('cardconsumerefund', { id: order.id, reason: '退货' }, admin)).return_msg).toBe(
      '会员的积分已不足以收回本单赠送的 196 积分，不能退款',
    );
    expect((await buy(card.id, { amount: '5', points: 100 })).return_msg).toBe('本单不能使用积分（未达到积分抵扣的最低消费或积分不足）');
    await s.call('cardusfreeze', { id: card.id, reason: '冻结' }, admin);
    expect((await buy(card.id, { amount: '5' })).return_msg).toBe('会员卡已冻结');
  });

  it('a merchant charges at its own store and sees only its own orders; other roles and communities are refused', async () => {
    const card = await member('20');
    const res = await buy(card.id, { amount: '10', merchant_id: null }, merchant);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.data.merchant).toBe('阳光便利店');
    const own = await s.call('cardconsumelist', {}, merchant);
    expect(own.data.items.every((o: { merchant: string }) => o.merchant === '阳光便利店')).toBe(true);
    // a property order is not the merchant's
    const property = (await buy(card.id, { amount: '1' })).data;
    expect((await s.call('orderinfo', { order_no: property.order_no }, merchant)).return_msg).toBe('订单不存在');
    expect((await s.call('cardconsumerefund', { id: property.id, reason: 'x' }, merchant)).return_msg).toBe('消费订单不存在');
    expect((await s.call('cardconsumeexport', {}, merchant)).return_code).toBe('NO_PERMISSION');
    expect((await buy(card.id, { amount: '1' }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await buy(card.id, { amount: '1' }, admin2)).return_msg).toBe('会员卡不存在');
    expect((await buy(card.id, { amount: '0' })).return_msg).toContain('消费金额须大于0');
    expect((await buy(card.id, { amount: '1.234' })).return_code).toBe('FAIL');
  });

  it('50 concurrent purchases from one balance never take it below zero', async () => {
    const card = await member('100');
    const results = await Promise.all(Array.from({ length: 50 }, () => buy(card.id, { amount: '10', pay_type: 'cash' })));
    expect(results.every((r) => r.return_code === 'SUCCESS')).toBe(true);
    const w = await wallet(card.member_id);
    expect(Number(w.balance)).toBeGreaterThanOrEqual(0);
    const sums = await sql<{
      balance: string;
    }>`SELECT sum(balance_paid)::text AS balance FROM counter_orders WHERE rid = 1 AND card_id = ${card.id}`.execute(s.database.db);
    expect(sums.rows[0]!.balance).toBe('100.00');
  });

  it('reads a recharge and a mall order through orderinfo', async () => {
    const recharge = await s.database.db
      .selectFrom('card_recharges')
      .select('order_no')
      .where('rid', '=', 1)
      .where('status', '=', 'R')
      .executeTakeFirstOrThrow();
    const info = await s.call('orderinfo', { order_no: recharge.order_no }, admin);
    expect(info.data).toMatchObject({ kind: 'recharge', status_ch: '已退款' });
    const mall = await s.database.db.selectFrom('mall_orders').select('order_no').where('rid', '=', 1).executeTakeFirstOrThrow();
    expect((await s.call('orderinfo', { order_no: mall.order_no }, admin)).data.kind).toBe('mall');
    expect((await s.call('orderinfo', { order_no: 'XF000' }, admin)).return_msg).toBe('订单不存在');
  });
});
