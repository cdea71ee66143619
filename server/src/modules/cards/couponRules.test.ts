import { addMonths, couponRule, fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { ensureOwnItem, insertOwnBill } from '../fees/ownBills.js';
import { periodRange } from '../fees/calc.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let merchant: string;
/** 物业服务费 and 停车管理费 of community 1 */
let property: { id: number; cost_type: string };
let other: { id: number; cost_type: string };
let seq = 0;
const key = () => `coupon-rule-test-${Date.now()}-${++seq}`;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const month = () => today().slice(0, 7);
const periodFrom = (k: number) => addMonths(`${month()}-01`, k).slice(0, 7);

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, merchant] = await s.logins('admin', 'admin2', 'cashier', 'merchant');
  // items of their own: no demo bill stands in a period the tests bill
  const cost = { code: 'property', title: '物业费', sort: 1 };
  property = await ensureOwnItem(s.database.db, 1, { cost, title: '测试预缴物业费', remark: '测试' });
  other = await ensureOwnItem(s.database.db, 1, { cost, title: '测试其他费用', remark: '测试' });
});
afterAll(() => s?.close());

/** A template given by rule (a parking coupon, unlimited per member unless said), its id. */
async function ruleTemplate(v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call(
    'cardsadd',
    {
      name: `停车券${++seq}`,
      kind: 'amount',
      purpose: 'parking',
      face_value: '5.00',
      min_spend: '0.00',
      per_person: 0,
      give_mode: 'rule',
      validity: 'days',
      valid_days: 30,
      ...v,
    },
    admin,
  );
  ok(res);
  return res.data.id as number;
}

async function addRule(templateId: number, v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call(
    'cardsruleadd',
    { name: `预缴送券${++seq}`, item_id: property.id, min_months: 12, template_id: templateId, quantity: 12, frequency: 'monthly', ...v },
    admin,
  );
  ok(res);
  return res.data.id as number;
}

const usedRooms = new Set<number>();
/** A room of community 1 with an owner: a new one each time. */
async function ownedRoom(): Promise<{ hid: number; memberId: number }> {
  const rows = await s.database.db
    .selectFrom('room_members')
    .select(['hid', 'member_id'])
    .where('rid', '=', 1)
    .where('relation', '=', 'owner')
    .where('status', '=', 'Y')
    .orderBy('hid', 'desc')
    .limit(200)
    .execute();
  const r = rows.find((x) => !usedRooms.has(x.hid))!;
  usedRooms.add(r.hid);
  return { hid: r.hid, memberId: Number(r.member_id) };
}

/** Bills of `item` for `months` periods from `from` months after this one; their ids. */
async function bills(hid: number, months: number, from = 0, item = property): Promise<number[]> {
  const ids: number[] = [];
  for (let k = from; k < from + months; k++) {
    const id = await insertOwnBill(s.database.db, 1, {
      hid,
      item,
      title: '测试账单',
      period: periodFrom(k),
      fee: '100.00',
      source: 'test',
    });
    ids.push(id!);
  }
  return ids;
}

const pay = (hid: number, ids: number[], token = cashier) =>
  s.call(
    'cashierpay',
    { hid, bill_ids: ids, pay_type: 'cash', paid_amount: fenToYuan(100_00n * BigInt(ids.length)), idempotency_key: key() },
    token,
  );

const couponsOf = (templateId: number, memberId: number) =>
  s.database.db
    .selectFrom('member_coupons')
    .selectAll()
    .where('rid', '=', 1)
    .where('template_id', '=', templateId)
    .where('member_id', '=', memberId)
    .orderBy('valid_from')
    .orderBy('id')
    .execute();

describeResource(couponRule, {
  server: () => s,
  sample: async () => ({
    name: '测试赠券规则',
    item_id: property.id,
    min_months: 6,
    prepaid_only: 'Y',
    template_id: await ruleTemplate(),
    quantity: 2,
    frequency: 'once',
    status: 'Y',
    remark: '测试',
  }),
  edit: { name: '测试赠券规则二', min_months: 3 },
  filters: { name: '测试赠券', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['name'],
});

describe('coupon rules (赠券规则)', () => {
  it('the demo’s rule rewarded a year prepaid at the cashier with 12 monthly parking coupons', async () => {
    const rules = await s.call('cardsrulelist', { page: 1, limit: 10, name: '预缴一年' }, admin);
    expect(rules.data.items[0]).toMatchObject({ name: '预缴一年物业费送停车券', gives: 1, given: 12, taken_back: 0, status: 'Y' });
    const gives = await s.call('cardsrulegives', { page: 1, limit: 10, rule_id: rules.data.items[0].id }, admin);
    expect(gives.data.items[0]).toMatchObject({ months: 12, given: 12, note: '' });
    expect(gives.data.items[0].receipt_no).not.toBe('');
  });

  it('prepaying 12 months of the property fee gives the owner 12 parking coupons, one valid each month, once', async () => {
    const template = await ruleTemplate();
    const ruleId = await addRule(template);
    const { hid, memberId } = await ownedRoom();
    const ids = await bills(hid, 12);
    const paid = await pay(hid, ids);
    ok(paid);
    const coupons = await couponsOf(template, memberId);
    expect(coupons.length).toBe(12);
    // the cashier is told what the owner was given
    expect(paid.return_msg).toMatch(/^收费成功；/);
    expect(paid.return_msg).toContain(`赠送「${await name(template)}」12 张`);
    for (const [k, c] of coupons.entries()) {
      const r = periodRange(periodFrom(k), 1);
      expect([c.valid_from, c.valid_to, c.status, c.source, c.source_ref]).toEqual([r.start, r.end, 'U', 'rule', paid.data.receipt_no]);
    }
    const list = await s.call('cardsrulelist', { page: 1, limit: 50, name: '' }, admin);
    const row = list.data.items.find((r: { id: number }) => r.id === ruleId);
    expect(row).toMatchObject({ gives: 1, given: 12, taken_back: 0 });
    expect(row.rule_text).toMatch(/^预缴.+满12个月，赠「停车券\d+」12张（每月1张，共12个月）$/);
    const gives = await s.call('cardsrulegives', { page: 1, limit: 10, rule_id: ruleId }, admin);
    expect(gives.data.items[0]).toMatchObject({ receipt_no: paid.data.receipt_no, months: 12, given: 12, member_id: memberId, note: '' });
    // the coupons list says where they came from
    const given = await s.call('cardgetlists', { page: 1, limit: 20, template_id: template }, admin);
    expect(given.data.items[0].source_ref).toBe(paid.data.receipt_no);
  });

  it('gives nothing for 11 months, nor for arrears when only prepaying counts, nor for another item', async () => {
    const template = await ruleTemplate();
    await addRule(template);
    const a = await ownedRoom();
    ok(await pay(a.hid, await bills(a.hid, 11)));
    expect(await couponsOf(template, a.memberId)).toHaveLength(0);
    // 12 periods, 2 of them before this month: 10 prepaid
    const b = await ownedRoom();
    const past = [];
    for (const k of [-2, -1])
      past.push(
        (await insertOwnBill(s.database.db, 1, {
          hid: b.hid,
          item: property,
          title: '往期',
          period: periodFrom(k),
          fee: '100.00',
          source: 'test',
        }))!,
      );
    ok(await pay(b.hid, [...past, ...(await bills(b.hid, 10))]));
    expect(await couponsOf(template, b.memberId)).toHaveLength(0);
    const c = await ownedRoom();
    ok(await pay(c.hid, await bills(c.hid, 12, 0, other)));
    expect(await couponsOf(template, c.memberId)).toHaveLength(0);
  });

  it('a rule counting arrears gives for them; a stopped rule or one out of its window gives nothing', async () => {
    const template = await ruleTemplate();
    await addRule(template, { min_months: 3, prepaid_only: 'N', quantity: 2, frequency: 'once' });
    const stopped = await ruleTemplate();
    await addRule(stopped, { min_months: 3, prepaid_only: 'N', status: 'N' });
    const later = await ruleTemplate();
    await addRule(later, { min_months: 3, prepaid_only: 'N', start_date: `${periodFrom(1)}-01` });
    const { hid, memberId } = await ownedRoom();
    const ids = [];
    for (const k of [-3, -2, -1])
      ids.push(
        (await insertOwnBill(s.database.db, 1, {
          hid,
          item: property,
          title: '往期',
          period: periodFrom(k),
          fee: '100.00',
          source: 'test',
        }))!,
      );
    ok(await pay(hid, ids));
    const coupons = await couponsOf(template, memberId);
    // once: both with the template's validity (30 days from today)
    expect(coupons.map((c) => [c.valid_from, c.status])).toEqual([
      [today(), 'U'],
      [today(), 'U'],
    ]);
    expect(await couponsOf(stopped, memberId)).toHaveLength(0);
    expect(await couponsOf(later, memberId)).toHaveLength(0);
  });

  it('a template out of stock gives nothing but the payment stands, and the give says why', async () => {
    const template = await ruleTemplate({ stock: 5 });
    const ruleId = await addRule(template);
    const { hid, memberId } = await ownedRoom();
    const paid = await pay(hid, await bills(hid, 12));
    ok(paid);
    expect(await couponsOf(template, memberId)).toHaveLength(0);
    expect(paid.return_msg).toContain('未赠送：优惠券「' + (await name(template)) + '」库存不足');
    const gives = await s.call('cardsrulegives', { page: 1, limit: 10, rule_id: ruleId }, admin);
    expect(gives.data.items[0]).toMatchObject({
      given: 0,
      note: '未赠送：优惠券「' + (await name(template)) + '」库存不足：剩余 5 张，本次需发放 12 张',
    });
  });

  it('voiding the payment takes back the unused coupons; a used one stays used', async () => {
    const template = await ruleTemplate();
    const ruleId = await addRule(template);
    const { hid, memberId } = await ownedRoom();
    const paid = await pay(hid, await bills(hid, 12));
    ok(paid);
    const [first] = await couponsOf(template, memberId);
    await s.database.db
      .updateTable('member_coupons')
      .set({ status: 'Y', used_at: sql`now()`, used_order_no: 'TEST-ORDER' })
      .where('id', '=', first!.id)
      .execute();
    ok(await s.call('paymentvoid', { id: paid.data.id, reason: '收错' }, cashier));
    const after = await couponsOf(template, memberId);
    expect(after.filter((c) => c.status === 'V')).toHaveLength(11);
    expect(after.find((c) => c.id === first!.id)!.status).toBe('Y');
    expect(after.find((c) => c.status === 'V')!.void_reason).toBe(`收据 ${paid.data.receipt_no} 已作废或退款，赠券收回`);
    const gives = await s.call('cardsrulegives', { page: 1, limit: 10, rule_id: ruleId }, admin);
    expect(gives.data.items[0]).toMatchObject({ given: 12, taken_back: 11, note: '收回 11 张（1 张已使用或已过期）' });
    // a rule that gave is kept: stopped, not deleted
    expect((await s.call('cardsruledel', { id: ruleId }, admin)).return_msg).toBe('该规则已赠送过优惠券，不能删除，可将其停用');
  });

  it('a refund leaving 12 months keeps the coupons; one leaving fewer takes back the unused', async () => {
    const template = await ruleTemplate();
    await addRule(template);
    const { hid, memberId } = await ownedRoom();
    const ids = await bills(hid, 13);
    const paid = await pay(hid, ids);
    ok(paid);
    expect(await couponsOf(template, memberId)).toHaveLength(12);
    const refund = async (billIds: number[]) => {
      const apply = await s.call('refundapply', { payment_id: paid.data.id, bill_ids: billIds, reason: '退一个月' }, cashier);
      ok(apply);
      ok(await s.call('refundapprove', { id: apply.data.id, approve: true, remark: '同意' }, admin));
    };
    await refund([ids[12]!]);
    expect((await couponsOf(template, memberId)).every((c) => c.status === 'U')).toBe(true);
    await refund([ids[11]!]);
    expect((await couponsOf(template, memberId)).every((c) => c.status === 'V')).toBe(true);
  });

  it('refuses a template not given by rule, stopped, or limited below the quantity; another community’s item or template', async () => {
    const staffGiven = await ruleTemplate({ give_mode: 'staff' });
    const r1 = await s.call('cardsruleadd', { name: '错1', item_id: property.id, template_id: staffGiven, quantity: 1 }, admin);
    expect(r1.return_msg).toMatch(/的发放方式不是「规则赠送」/);
    const limited = await ruleTemplate({ per_person: 2 });
    const r2 = await s.call('cardsruleadd', { name: '错2', item_id: property.id, template_id: limited, quantity: 12 }, admin);
    expect(r2.return_msg).toBe(`优惠券「${await name(limited)}」每人限领 2 张，少于赠送的 12 张`);
    const off = await ruleTemplate({ status: 'N' });
    expect((await s.call('cardsruleadd', { name: '错3', item_id: property.id, template_id: off, quantity: 1 }, admin)).return_msg).toMatch(
      /已停用$/,
    );
    const otherItem = await s.database.db.selectFrom('fee_items').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    const t = await ruleTemplate();
    expect(
      (await s.call('cardsruleadd', { name: '错4', item_id: Number(otherItem.id), template_id: t, quantity: 1 }, admin)).return_msg,
    ).toBe('收费项目不存在');
    expect((await s.call('cardsruleadd', { name: '错5', item_id: property.id, template_id: t, quantity: 1 }, admin2)).return_msg).toBe(
      '收费项目不存在',
    );
    const bad = await s.call('cardsruleadd', { name: '错6', item_id: property.id, template_id: t, quantity: 37 }, admin);
    expect(bad.return_code).not.toBe('SUCCESS');
    expect(await s.database.db.selectFrom('member_coupon_rules').select('id').where('name', 'like', '错%').execute()).toHaveLength(0);
  });

  it('is not a merchant account’s, nor a cashier’s to set', async () => {
    expect((await s.call('cardsrulelist', { page: 1, limit: 10 }, merchant)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('cardsrulegives', { page: 1, limit: 10 }, merchant)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('cardsruleadd', { name: '收银', item_id: property.id, template_id: 1, quantity: 1 }, cashier)).return_code).toBe(
      'NO_PERMISSION',
    );
  });
});

describe('recharge packages that give coupons', () => {
  async function packageWith(template: number, count: number): Promise<number> {
    const res = await s.call(
      'rechargepackageadd',
      { name: `充值送券${++seq}`, pay_amount: '200.00', bonus_amount: '0.00', coupon_template_id: template, coupon_count: count },
      admin,
    );
    ok(res);
    return res.data.id as number;
  }
  /** A live card that stores value, of a member without one: its id and member. */
  async function card(): Promise<{ id: number; memberId: number }> {
    const db = s.database.db;
    const c = await db
      .selectFrom('member_cards as c')
      .innerJoin('card_templates as t', (j) => j.onRef('t.rid', '=', 'c.rid').onRef('t.id', '=', 'c.template_id'))
      .select(['c.id', 'c.member_id'])
      .where('c.rid', '=', 1)
      .where('c.status', '=', 'Y')
      .where('t.supply_balance', '=', 'Y')
      .orderBy('c.id', 'desc')
      .offset(seq)
      .executeTakeFirstOrThrow();
    return { id: Number(c.id), memberId: Number(c.member_id) };
  }

  it('gives the coupons with the recharge; the refund takes back the unused, and is refused once one is used', async () => {
    const template = await ruleTemplate();
    const pack = await packageWith(template, 3);
    const list = await s.call('rechargepackagelist', { page: 1, limit: 50 }, admin);
    expect(list.data.items.find((p: { id: number }) => p.id === pack).coupon_text).toBe(`「${await name(template)}」×3`);
    const c = await card();
    const r = await s.call('cardrecharge', { card_id: c.id, package_id: pack, pay_type: 'cash', idempotency_key: key() }, admin);
    ok(r);
    expect(r.return_msg).toMatch(/赠送优惠券 3 张$/);
    expect(r.data.coupons_given).toBe(3);
    const coupons = await couponsOf(template, c.memberId);
    expect(coupons.map((x) => x.source_ref)).toEqual([r.data.order_no, r.data.order_no, r.data.order_no]);

    await s.database.db
      .updateTable('member_coupons')
      .set({ status: 'Y', used_at: sql`now()`, used_order_no: 'T1' })
      .where('id', '=', coupons[0]!.id)
      .execute();
    const refused = await s.call('cardrechargerefund', { id: r.data.id, reason: '不要了' }, admin);
    expect(refused.return_msg).toBe('该充值赠送的优惠券已使用 1 张，不能退款');
    await s.database.db
      .updateTable('member_coupons')
      .set({ status: 'U', used_at: null, used_order_no: null })
      .where('id', '=', coupons[0]!.id)
      .execute();
    ok(await s.call('cardrechargerefund', { id: r.data.id, reason: '不要了' }, admin));
    ok(await s.call('cardrechargerefundreview', { id: r.data.id, approve: true }, admin));
    expect((await couponsOf(template, c.memberId)).map((x) => x.status)).toEqual(['V', 'V', 'V']);
  });

  it('a recharge stands when the coupons cannot be given, and says why', async () => {
    const template = await ruleTemplate({ stock: 1 });
    const pack = await packageWith(template, 2);
    const c = await card();
    const before = toFen(
      (await s.database.db.selectFrom('members').select('balance').where('id', '=', c.memberId).executeTakeFirstOrThrow()).balance,
    );
    const r = await s.call('cardrecharge', { card_id: c.id, package_id: pack, pay_type: 'cash', idempotency_key: key() }, admin);
    ok(r);
    expect(r.return_msg).toMatch(/（赠券未发放：优惠券「.+」库存不足：剩余 1 张，本次需发放 2 张）$/);
    expect(r.data.coupons_given).toBe(0);
    const after = toFen(
      (await s.database.db.selectFrom('members').select('balance').where('id', '=', c.memberId).executeTakeFirstOrThrow()).balance,
    );
    expect(after - before).toBe(200_00n);
  });

  it('refuses a package whose coupon is not given by rule, or without a count', async () => {
    const staffGiven = await ruleTemplate({ give_mode: 'staff' });
    const r = await s.call(
      'rechargepackageadd',
      { name: '错套餐1', pay_amount: '100.00', coupon_template_id: staffGiven, coupon_count: 1 },
      admin,
    );
    expect(r.return_msg).toMatch(/的发放方式不是「规则赠送」/);
    const t = await ruleTemplate();
    const r2 = await s.call('rechargepackageadd', { name: '错套餐2', pay_amount: '100.00', coupon_template_id: t, coupon_count: 0 }, admin);
    expect(r2.return_msg).toMatch(/选了赠送优惠券须填写赠券张数（不赠券时张数为 0）$/);
  });
});

async function name(templateId: number): Promise<string> {
  return (await s.database.db.selectFrom('member_coupon_templates').select('name').where('id', '=', templateId).executeTakeFirstOrThrow())
    .name;
}
