import { fenToYuan, toFen } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The card reports (docs/product.md#card-reports) over what this file does today, on top of the
 * demo's: a recharge kept and one refunded, two purchases at a store of this file's (one with a
 * coupon kept, one with a coupon given back by its refund). The demo's rows of today are read
 * first, so each figure is checked exactly as what these calls add.
 */
let s: TestServer;
let admin: string;
let admin2: string;
let finance: string;
let cashier: string;
let merchant: string;
let key = 0;
const newKey = () => `card-report-${Date.now()}-${++key}`;
const day = today();
const TODAY = { start_date: day, end_date: day };

type Figures = Record<string, string | number>;
/** after − before, figure by figure (money as exact yuan text) */
const minus = (after: Figures, before: Figures): Figures =>
  Object.fromEntries(
    Object.entries(after)
      .filter(([, v]) => typeof v === 'number' || /^-?\d+\.\d{2}$/.test(String(v)))
      .map(([k, v]) => [k, typeof v === 'number' ? v - (before[k] as number) : fenToYuan(toFen(String(v)) - toFen(String(before[k])))]),
  );

const report = async (method: string, payload: Record<string, unknown>, token = admin) => ok(await s.call(method, payload, token));

let store = 0;
let templateId = 0;
let cardA = { id: 0, member_id: 0 };
let orderKept = { id: 0, order_no: '' };
let orderRefunded = { id: 0, order_no: '' };
let couponKept = { code: '', template_id: 0 };
let couponBack = { code: '', template_id: 0 };
let before: { log: Figures; liability: { totals: Figures; row: Figures }; other: Figures };

async function openCard(realname: string) {
  const mobile = `1370${String(Date.now() % 1e7).padStart(7, '0')}`.slice(0, 11);
  const res = ok(
    await s.call('creatcardus', { card_no: `R${Date.now() % 1e8}${++key}`, template_id: templateId, realname, mobile }, admin),
  );
  return ok(await s.call('cardusinfo', { id: res.id }, admin)) as { id: number; member_id: number };
}

async function couponFor(memberId: number, name: string) {
  const t = ok(
    await s.call(
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
    ),
  );
  ok(await s.call('cardgive', { template_id: t.id, member_ids: [memberId], idempotency_key: newKey() }, admin));
  const c = await s.database.db
    .selectFrom('member_coupons')
    .select('code')
    .where('rid', '=', 1)
    .where('template_id', '=', t.id)
    .executeTakeFirstOrThrow();
  return { code: c.code, template_id: Number(t.id) };
}

const buy = (v: Record<string, unknown>) =>
  s.call('cardconsume', { card_id: cardA.id, merchant_id: store, pay_type: 'cash', idempotency_key: newKey(), ...v }, admin);

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, finance, cashier, merchant] = await s.logins('admin', 'admin2', 'finance', 'cashier', 'merchant');
  templateId = (
    await s.database.db
      .selectFrom('card_templates')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
  const liability = await report('cardliability', {});
  before = {
    log: (await report('cardlog', TODAY)).totals,
    liability: { totals: liability.totals, row: liability.items.find((r: { template_id: number }) => r.template_id === templateId) },
    other: (await report('cardlog', TODAY, admin2)).totals,
  };

  ok(
    await s.call(
      'merchantadd',
      {
        merchant: '报表测试店',
        kind: 'food',
        logo: '',
        contact: '王店长',
        phone: '021-58881234',
        hours: '08:00-22:00',
        address: '阳光花园北门1号',
        lng: '',
        lat: '',
        bank_name: '',
        bank_holder: '',
        bank_account_no: '',
        login_username: '',
        login_password: '',
        status: 'Y',
        remark: '',
      },
      admin,
    ),
  );
  store = (
    await s.database.db
      .selectFrom('merchants')
      .select('id')
      .where('rid', '=', 1)
      .where('merchant', '=', '报表测试店')
      .executeTakeFirstOrThrow()
  ).id;
  const pkg = ok(
    await s.call(
      'rechargepackageadd',
      {
        name: '报表测试充500送50',
        pay_amount: '500',
        bonus_amount: '50',
        bonus_points: 1000,
        per_member_limit: 0,
        status: 'Y',
        remark: '',
      },
      admin,
    ),
  );
  // A keeps a ¥500 + ¥50 recharge (and 1000 points); B's is refunded whole
  cardA = await openCard('报表甲');
  const cardB = await openCard('报表乙');
  for (const c of [cardA, cardB])
    ok(await s.call('cardrecharge', { card_id: c.id, package_id: pkg.id, pay_type: 'cash', idempotency_key: newKey() }, admin));
  const rB = await s.database.db
    .selectFrom('card_recharges')
    .select('id')
    .where('rid', '=', 1)
    .where('card_id', '=', cardB.id)
    .executeTakeFirstOrThrow();
  ok(await s.call('cardrechargerefund', { id: rB.id, reason: '不用了' }, admin));
  ok(await s.call('cardrechargerefundreview', { id: rB.id, approve: true }, admin));

  couponKept = await couponFor(cardA.member_id, '报表满20减5甲');
  couponBack = await couponFor(cardA.member_id, '报表满20减5乙');
  // 100 × 98 % = 98; 5 off → 93; 500 points → 5 → 88 from the balance
  orderKept = ok(await buy({ amount: '100', coupon_code: couponKept.code, points: 500, use_balance: 'Y' }));
  // 40 × 98 % = 39.20; 5 off → 34.20 from the balance; then refunded whole, the coupon given back
  orderRefunded = ok(await buy({ amount: '40', coupon_code: couponBack.code.toLowerCase(), use_balance: 'Y' }));
  ok(await s.call('cardconsumerefund', { id: orderRefunded.id, reason: '退货' }, admin));
});
afterAll(() => s?.close());

/** what this file's calls added to today's figures */
const ADDED_LOG = {
  recharge_count: 2,
  recharge_paid: '1000.00',
  recharge_bonus: '100.00',
  recharge_refund_count: 1,
  recharge_refund_paid: '500.00',
  recharge_refund_bonus: '50.00',
  consume_count: 2,
  consume_amount: '140.00',
  member_discount: '2.80',
  coupon_discount: '10.00',
  points_money: '5.00',
  balance_paid: '122.20',
  cash_paid: '0.00',
  consume_refund_count: 1,
  consume_refund_amount: '40.00',
  consume_refund_balance: '34.20',
  // 1000 paid in − 500 paid back − (122.20 spent − 34.20 given back)
  net_stored: '412.00',
};
const STORE_ONLY = {
  ...ADDED_LOG,
  recharge_count: 0,
  recharge_paid: '0.00',
  recharge_bonus: '0.00',
  recharge_refund_count: 0,
  recharge_refund_paid: '0.00',
  recharge_refund_bonus: '0.00',
  net_stored: '-88.00',
};

describe('cardlog', () => {
  it('adds the recharges, the refund and the purchases to today, by day and in all', async () => {
    const r = await report('cardlog', TODAY);
    expect(r).toMatchObject({ start_date: day, end_date: day, group_by: 'day' });
    expect(minus(r.totals, before.log)).toEqual(ADDED_LOG);
    // today is the one day, the same as the totals
    expect(r.items.map((i: { key: string }) => i.key)).toEqual([day]);
    expect(r.items[0]).toMatchObject({ key: day, label: day, ...r.totals });
    // the default is this month, today in it
    const month = await report('cardlog', {});
    expect(month.start_date).toBe(`${day.slice(0, 7)}-01`);
    expect(month.end_date.slice(0, 7)).toBe(day.slice(0, 7));
    expect(month.items.some((i: { key: string }) => i.key === day)).toBe(true);
  });

  it('groups by store and by operator; filters by store and operator', async () => {
    const byStore = await report('cardlog', { ...TODAY, group_by: 'merchant' });
    const row = byStore.items.find((i: { key: string }) => i.key === String(store));
    expect(row).toEqual({ key: String(store), label: '报表测试店', ...STORE_ONLY });
    // recharges are the property counter's
    expect(byStore.items[0]).toMatchObject({ key: '0', label: '物业服务中心' });
    expect(byStore.items[0].recharge_count).toBe((before.log.recharge_count as number) + 2);
    const one = await report('cardlog', { ...TODAY, group_by: 'merchant', merchant_id: store });
    expect(one.items).toEqual([{ key: String(store), label: '报表测试店', ...STORE_ONLY }]);
    expect(one.totals).toEqual(STORE_ONLY);

    const byOperator = await report('cardlog', { ...TODAY, group_by: 'operator', merchant_id: store });
    expect(byOperator.items).toEqual([{ key: '张经理', label: '张经理', ...STORE_ONLY }]);
    const named = await report('cardlog', { ...TODAY, group_by: 'operator', operator: '张经理' });
    expect(named.items.map((i: { key: string }) => i.key)).toEqual(['张经理']);
    expect(named.items[0].recharge_refund_count).toBeGreaterThanOrEqual(1);
    expect((await report('cardlog', { ...TODAY, operator: '没有这个人' })).items).toEqual([]);
  });

  it('exports the rows and the totals', async () => {
    const file = await s.exportFile('cardlogexport', { ...TODAY, group_by: 'merchant', merchant_id: store }, finance);
    const sheet = await readXlsx(ok(file).content_base64);
    expect(sheet.headers.slice(0, 4)).toEqual(['商户', '充值笔数', '充值实付', '充值赠送']);
    expect(sheet.rows.map(({ values: r }) => [r['商户'], r['消费笔数'], r['余额支付'], r['储值净额']])).toEqual([
      ['报表测试店', '2', '122.2', '-88'],
      ['合计', '2', '122.2', '-88'],
    ]);
  });
});

describe('card_verification', () => {
  it('counts the redemptions by day, by coupon and store, the one given back apart', async () => {
    const r = await report('card_verification', { ...TODAY, merchant_id: store });
    expect(r.totals).toEqual({ used_count: 2, released_count: 1, order_amount: '98.00', discount: '5.00' });
    expect(r.by_day).toEqual([{ day, used_count: 2, released_count: 1, order_amount: '98.00', discount: '5.00' }]);
    expect(r.items).toEqual([
      {
        key: `${couponKept.template_id}-${store}`,
        template_id: couponKept.template_id,
        template_name: '报表满20减5甲',
        kind_ch: '满减券',
        merchant_id: store,
        merchant: '报表测试店',
        used_count: 1,
        released_count: 0,
        order_amount: '98.00',
        discount: '5.00',
      },
      {
        key: `${couponBack.template_id}-${store}`,
        template_id: couponBack.template_id,
        template_name: '报表满20减5乙',
        kind_ch: '满减券',
        merchant_id: store,
        merchant: '报表测试店',
        used_count: 1,
        released_count: 1,
        order_amount: '0.00',
        discount: '0.00',
      },
    ]);
    const one = await report('card_verification', { ...TODAY, template_id: couponBack.template_id });
    expect(one.totals).toEqual({ used_count: 1, released_count: 1, order_amount: '0.00', discount: '0.00' });
    // the demo's uses of this month are there without a store filter
    const month = await report('card_verification', {});
    expect(month.totals.used_count).toBeGreaterThanOrEqual(2);
  });

  it('lists each redemption with its order, newest first, paged', async () => {
    const list = await report('card_verificationlist', { ...TODAY, merchant_id: store });
    expect(list.total).toBe(2);
    expect(list.items).toEqual([
      expect.objectContaining({
        key: `r${orderRefunded.id}`,
        code: couponBack.code,
        template_name: '报表满20减5乙',
        realname: '报表甲',
        merchant: '报表测试店',
        order_no: orderRefunded.order_no,
        amount: '39.20',
        discount: '5.00',
        status: 'R',
        status_ch: '已退回',
      }),
      expect.objectContaining({
        code: couponKept.code,
        order_no: orderKept.order_no,
        amount: '98.00',
        discount: '5.00',
        status: 'Y',
        status_ch: '已使用',
      }),
    ]);
    const page2 = await report('card_verificationlist', { ...TODAY, merchant_id: store, limit: 1, page: 2 });
    expect(page2).toEqual({ total: 2, items: [list.items[1]] });
    const oldest = await report('card_verificationlist', { ...TODAY, merchant_id: store, sort: 'asc' });
    expect(oldest.items.map((i: { status: string }) => i.status)).toEqual(['Y', 'R']);
  });

  it('exports the summary and the detail', async () => {
    const summary = await readXlsx(
      ok(await s.exportFile('card_verificationexport', { ...TODAY, merchant_id: store, view: 'summary' }, admin)).content_base64,
    );
    expect(summary.rows.map(({ values: r }) => [r['优惠券'], r['核销张数'], r['已退回'], r['优惠金额']])).toEqual([
      ['报表满20减5甲', '1', '0', '5'],
      ['报表满20减5乙', '1', '1', '0'],
      ['合计', '2', '1', '5'],
    ]);
    const detail = await readXlsx(
      ok(await s.exportFile('card_verificationexport', { ...TODAY, merchant_id: store }, admin)).content_base64,
    );
    expect(detail.rows.map(({ values: r }) => [r['券码'], r['订单号'], r['状态']])).toEqual([
      [couponBack.code, orderRefunded.order_no, '已退回'],
      [couponKept.code, orderKept.order_no, '已使用'],
    ]);
  });
});

describe('cardliability', () => {
  it('adds what the members now hold: balance, bonus not clawed back, points, unused coupons', async () => {
    const r = await report('cardliability', {}, finance);
    const added = {
      cards: 2,
      // A: 550 − 88; B: refunded to 0
      balance: '462.00',
      balance_members: 1,
      bonus_outstanding: '50.00',
      // A: 1000 − 500 used + 88 earned (the refunded order's taken back); B's taken back
      points: 588,
      points_members: 1,
      // the coupon given back is unused again
      coupons_unused: 1,
      coupons_amount_unused: 1,
      coupons_face_value: '5.00',
    };
    expect(minus(r.totals, before.liability.totals)).toEqual(added);
    const row = r.items.find((i: { template_id: number }) => i.template_id === templateId);
    expect(minus(row, before.liability.row)).toEqual({ ...added, template_id: 0 });
    // the totals are the rows' sums
    expect(r.totals.cards).toBe(r.items.reduce((n: number, i: { cards: number }) => n + i.cards, 0));
    expect(r.as_of).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});

describe('who reads them, which community, what is refused', () => {
  it('finance and admin read; a cashier and a merchant account may not', async () => {
    for (const [method, payload] of [
      ['cardlog', TODAY],
      ['cardlogexport', TODAY],
      ['card_verification', TODAY],
      ['card_verificationlist', TODAY],
      ['card_verificationexport', TODAY],
      ['cardliability', {}],
      ['cardreport_small_list', {}],
    ] as const) {
      expect((await s.call(method, payload, cashier)).return_code, method).toBe('NO_PERMISSION');
      expect((await s.call(method, payload, merchant)).return_code, method).toBe('NO_PERMISSION');
      expect((await s.call(method, payload, finance)).return_code, method).toBe('SUCCESS');
    }
    const options = await report('cardreport_small_list', {}, finance);
    expect(options.merchants).toContainEqual({ id: store, title: '报表测试店' });
    expect(options.templates).toContainEqual({ id: couponKept.template_id, title: '报表满20减5甲' });
    expect(options.operators).toContain('张经理');
  });

  it('another community sees none of it', async () => {
    expect((await report('cardlog', TODAY, admin2)).totals).toEqual(before.other);
    expect((await report('cardlog', { ...TODAY, merchant_id: store }, admin2)).items).toEqual([]);
    expect((await report('card_verificationlist', { ...TODAY, merchant_id: store }, admin2)).total).toBe(0);
    expect((await report('card_verification', { ...TODAY, template_id: couponKept.template_id }, admin2)).totals.used_count).toBe(0);
    const options = await report('cardreport_small_list', {}, admin2);
    expect(options.merchants.map((m: { id: number }) => m.id)).not.toContain(store);
    const liability = await report('cardliability', {}, admin2);
    expect(liability.items.map((i: { template_id: number }) => i.template_id)).not.toContain(templateId);
  });

  it('refuses bad payloads', async () => {
    refused(await s.call('cardlog', { ...TODAY, group_by: 'week' }, admin), /分组取值不正确/);
    refused(await s.call('cardlog', { start_date: '2026-03-31', end_date: '2026-03-01' }, admin), /开始日期不能晚于结束日期/);
    refused(await s.call('cardlog', { start_date: '2024-01-01', end_date: '2026-03-01' }, admin), /查询区间不能超过一年/);
    refused(await s.call('card_verification', { start_date: '2026-02-30', end_date: '2026-03-01' }, admin), /日期不存在/);
    refused(await s.call('card_verificationlist', { ...TODAY, merchant_id: 'x' }, admin), /merchant_id/);
    refused(await s.call('card_verificationexport', { ...TODAY, view: 'all' }, admin), /view/);
    refused(await s.call('cardlogexport', { start_date: '2026-03-31', end_date: '2026-03-01' }, admin), /开始日期不能晚于结束日期/);
    refused(await s.call('cardlog', { ...TODAY, operator: 'x'.repeat(40) }, admin), /operator|32/);
  });
});
