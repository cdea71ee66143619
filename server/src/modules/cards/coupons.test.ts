import { addDays, COUPON_LOCKED_MSG, memberCouponTemplate, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyJobs } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { COUPON_EXPIRY, expireCoupons, redeemCoupon, releaseCoupon } from './coupons.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let merchant: string;
/** community 1's stores, the first the demo merchant account's */
let stores: number[] = [];
/** community 1's people, none holding a coupon of the templates these tests add */
let people: number[] = [];
let seq = 0;
const key = () => `coupon-test-${Date.now()}-${++seq}`;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, merchant] = await s.logins('admin', 'admin2', 'cashier', 'merchant');
  const db = s.database.db;
  stores = (await db.selectFrom('merchants').select('id').where('rid', '=', 1).orderBy('id').execute()).map((r) => r.id);
  people = (await db.selectFrom('members').select('id').where('rid', '=', 1).orderBy('id').limit(60).execute()).map((r) => r.id);
});
afterAll(() => s?.close());

describeResource(memberCouponTemplate, {
  server: () => s,
  sample: () => ({
    name: '测试满减券',
    kind: 'amount',
    purpose: 'shopping',
    face_value: '8.00',
    min_spend: '50.00',
    merchant_ids: [stores[1]],
    stock: 100,
    per_person: 2,
    give_mode: 'staff',
    validity: 'days',
    valid_days: 30,
    description: '测试',
    status: 'Y',
  }),
  edit: { name: '测试满减券二', face_value: '9.00' },
  filters: { name: '测试满减', kind: 'amount', purpose: 'shopping', give_mode: 'staff', status: 'Y', merchant_id: stores[1] },
  deniedWriter: 'cashier',
  unique: ['name'],
});

/** Adds a template (an amount off at every store, 30 days, unlimited, one a person unless said) and answers its id. */
async function addTemplate(v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call(
    'cardsadd',
    {
      name: `券${++seq}`,
      kind: 'amount',
      purpose: 'shopping',
      face_value: '10.00',
      min_spend: '100.00',
      per_person: 1,
      validity: 'days',
      valid_days: 30,
      ...v,
    },
    admin,
  );
  ok(res);
  return res.data.id as number;
}

const give = (templateId: number, memberIds: number[], v: Record<string, unknown> = {}, token = admin) =>
  s.call('cardgive', { template_id: templateId, member_ids: memberIds, idempotency_key: key(), ...v }, token);

const couponsOf = (templateId: number) =>
  s.database.db.selectFrom('member_coupons').selectAll().where('rid', '=', 1).where('template_id', '=', templateId).orderBy('id').execute();

const templateRow = (id: number) =>
  s.database.db.selectFrom('member_coupon_templates').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();

/** A template given to one person: its id and the coupon. */
async function oneCoupon(v: Record<string, unknown> = {}, member = people[0]!) {
  const id = await addTemplate(v);
  ok(await give(id, [member]));
  const [coupon] = await couponsOf(id);
  return { id, coupon: coupon! };
}

const redeem = (code: string, v: Partial<Parameters<typeof redeemCoupon>[1]> = {}) =>
  s.database.db.transaction().execute((trx) =>
    redeemCoupon(trx, {
      rid: 1,
      code,
      memberId: people[0]!,
      merchantId: stores[0]!,
      purpose: 'shopping',
      amountFen: 12000n,
      orderNo: `XF${Date.now()}${++seq}`,
      ...v,
    }),
  );

describe('templates', () => {
  it('refuses what a kind or a validity lacks', async () => {
    const base = { name: '规则测试', purpose: 'shopping', validity: 'days', valid_days: 10 };
    // the message without the field's name the dispatcher puts before it (face_value：…)
    const msg = async (v: Record<string, unknown>) => (await s.call('cardsadd', { ...base, ...v }, admin)).return_msg.replace(/^\w+：/, '');
    expect(await msg({ kind: 'amount' })).toBe('满减券须填写减免金额');
    expect(await msg({ kind: 'amount', face_value: '10', min_spend: '10' })).toBe('减免金额应小于最低消费');
    expect(await msg({ kind: 'discount' })).toBe('折扣券须填写折扣（1 到 99）');
    expect(await msg({ kind: 'discount', discount_percent: 100 })).toContain('不能大于99');
    expect(await msg({ kind: 'gift' })).toBe('礼品券须填写礼品');
    expect(await msg({ kind: 'gift', gift: '洗车', validity: 'range', valid_days: '' })).toBe('固定日期的优惠券须填写开始和结束日期');
    expect(await msg({ kind: 'gift', gift: '洗车', validity: 'range', valid_start: '2030-02-01', valid_end: '2030-01-01' })).toBe(
      '结束日期不能早于开始日期',
    );
    expect(await msg({ kind: 'gift', gift: '洗车', valid_days: '' })).toBe('领取后N天的优惠券须填写有效天数');
    expect(await msg({ kind: 'gift', gift: '洗车', merchant_ids: [999999] })).toBe('所选商户不存在或不属于当前小区');
    expect(await msg({ kind: 'gift', gift: '洗车', stock: 0 })).toContain('不能小于1');
  });

  it('keeps only the chosen kind’s fields and says the rule in words', async () => {
    const id = await addTemplate({
      kind: 'discount',
      purpose: 'property',
      discount_percent: 90,
      discount_cap: '50',
      face_value: '7',
      gift: 'x',
    });
    const row = (await s.call('cardslist', { name: '券', limit: 200, sort: 'desc' }, admin)).data.items.find(
      (r: { id: number }) => r.id === id,
    );
    expect(row).toMatchObject({ face_value: '0.00', gift: '', rule_text: '满100 9折 最多减50', merchants: '全部商户' });
    expect(row.validity_text).toBe('领取后 30 天');
    expect(row.stock_text).toBe('不限');
    expect(row.locked).toBe(false);
  });

  it('after the first coupon only the name, description, more stock and a later end change; given ones follow a later end', async () => {
    const start = today();
    const end = addDays(start, 10);
    const id = await addTemplate({ validity: 'range', valid_start: start, valid_end: end, stock: 5, description: '原说明' });
    ok(await give(id, [people[1]!]));
    const current = (await s.call('cardslist', { name: '券', limit: 200, sort: 'desc' }, admin)).data.items.find(
      (r: { id: number }) => r.id === id,
    );
    expect(current).toMatchObject({ locked: true, issued: 1, stock_text: '4 / 5' });
    const form = {
      id,
      name: current.name,
      kind: 'amount',
      purpose: 'shopping',
      face_value: '10.00',
      min_spend: '100.00',
      merchant_ids: [],
      stock: 5,
      per_person: 1,
      give_mode: 'staff',
      validity: 'range',
      valid_start: start,
      valid_end: end,
      description: '原说明',
      status: 'Y',
    };
    const edit = (v: Record<string, unknown>) => s.call('cardsedit', { ...form, ...v }, admin);
    for (const change of [
      { face_value: '12' },
      { kind: 'gift', gift: '洗车' },
      { purpose: 'parking' },
      { min_spend: '80' },
      { merchant_ids: [stores[0]] },
      { per_person: 2 },
      { stock: 4 },
      { valid_end: addDays(end, -1) },
      { valid_start: addDays(start, -1) },
    ]) {
      expect((await edit(change)).return_msg, JSON.stringify(change)).toBe(COUPON_LOCKED_MSG);
    }
    ok(await edit({ name: `${current.name}改`, description: '新说明', stock: 9, valid_end: addDays(end, 20), status: 'N' }));
    expect(await templateRow(id)).toMatchObject({ stock: 9, valid_end: addDays(end, 20), description: '新说明', status: 'N' });
    // the coupon given follows the later end; unlimited is more stock too
    expect((await couponsOf(id))[0]!.valid_to).toBe(addDays(end, 20));
    ok(await edit({ name: `${current.name}改`, stock: '', valid_end: addDays(end, 20) }));
    expect((await templateRow(id)).stock).toBeNull();
    expect((await s.call('cardsdel', { id }, admin)).return_msg).toBe('该优惠券已发放，不能删除，可将其停用');
  });
});

describe('giving', () => {
  it('respects the stock, all or nothing', async () => {
    const id = await addTemplate({ stock: 2 });
    const res = await give(id, people.slice(2, 5));
    expect(res.return_msg).toMatch(/库存不足：剩余 2 张，本次需发放 3 张/);
    expect(await couponsOf(id)).toHaveLength(0);
    expect((await templateRow(id)).issued).toBe(0);
    ok(await give(id, people.slice(2, 4)));
    expect((await templateRow(id)).issued).toBe(2);
    expect((await give(id, [people[5]!])).return_msg).toMatch(/库存不足/);
  });

  it('respects the limit per person, all or nothing, and gives once per idempotency key', async () => {
    const id = await addTemplate({ per_person: 1 });
    const k = key();
    const first = await give(id, [people[6]!], { idempotency_key: k });
    ok(first);
    expect(first.return_msg).toBe('已发放 1 张');
    const again = await give(id, [people[6]!], { idempotency_key: k });
    expect(again).toEqual(first);
    expect(await couponsOf(id)).toHaveLength(1);
    const over = await give(id, [people[7]!, people[6]!]);
    expect(over.return_msg).toMatch(/已有 1 张「券\d+」，每人限领 1 张/);
    expect(await couponsOf(id)).toHaveLength(1);
    // codes: 12 unguessable characters, unique
    const two = await addTemplate({ per_person: 0 });
    ok(await give(two, people.slice(10, 30)));
    ok(await give(two, people.slice(10, 30)));
    const codes = (await couponsOf(two)).map((c) => c.code);
    expect(codes).toHaveLength(40);
    expect(new Set(codes).size).toBe(40);
    for (const c of codes) expect(c).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
  });

  it('gives to the owners of chosen houses', async () => {
    const db = s.database.db;
    const owner = await db
      .selectFrom('room_members')
      .select(['hid', 'member_id'])
      .where('rid', '=', 1)
      .where('relation', '=', 'owner')
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const id = await addTemplate({ per_person: 0 });
    const res = await s.call('cardgive', { template_id: id, hids: [owner.hid], idempotency_key: key() }, admin);
    ok(res);
    expect(res.data.member_ids).toContain(owner.member_id);
    expect((await couponsOf(id)).map((c) => c.member_id)).toContain(owner.member_id);
    const empty = await db
      .selectFrom('rooms as r')
      .select(['r.id', 'r.address'])
      .where('r.rid', '=', 1)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('room_members as rm')
              .select('rm.id')
              .whereRef('rm.hid', '=', 'r.id')
              .where('rm.relation', '=', 'owner')
              .where('rm.status', '=', 'Y'),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    expect((await s.call('cardgive', { template_id: id, hids: [empty.id], idempotency_key: key() }, admin)).return_msg).toBe(
      `房屋 ${empty.address} 没有在住业主`,
    );
  });

  it('refuses a stopped, ended or rule template, and another community’s people and houses', async () => {
    const stopped = await addTemplate({ status: 'N' });
    expect((await give(stopped, [people[0]!])).return_msg).toMatch(/已停用，不能发放/);
    const ended = await addTemplate({ validity: 'range', valid_start: '2020-01-01', valid_end: '2020-01-31' });
    expect((await give(ended, [people[0]!])).return_msg).toMatch(/已过有效期，不能发放/);
    const rule = await addTemplate({ give_mode: 'rule' });
    expect((await give(rule, [people[0]!])).return_msg).toBe('规则赠送的优惠券由规则自动发放，不能手工发放');
    const theirs = await s.database.db.selectFrom('members').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    const open = await addTemplate();
    expect((await give(open, [theirs.id])).return_msg).toBe('会员不存在');
    const room = await s.database.db.selectFrom('rooms').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    expect((await s.call('cardgive', { template_id: open, hids: [room.id], idempotency_key: key() }, admin)).return_msg).toBe(
      '所选房屋不存在或不属于当前小区',
    );
    expect((await give(open, [people[0]!], {}, admin2)).return_msg).toBe('优惠券不存在');
    expect(await couponsOf(open)).toHaveLength(0);
  });

  it('finds people to give to by name, mobile or room', async () => {
    const demo = await s.call('cardgivemembers', { keyword: '13800138000' }, admin);
    ok(demo);
    expect(demo.data.items[0]).toMatchObject({ realname: '陈建国' });
    expect(demo.data.items[0].houses).toContain('1101');
    expect((await s.call('cardgivemembers', {}, admin)).return_msg).toContain('请输入会员姓名或手机号');
  });
});

describe('checking and using a code', () => {
  it('checks a code without changing it', async () => {
    const { coupon } = await oneCoupon({ merchant_ids: [stores[0]] });
    const before = await s.database.db
      .selectFrom('member_coupons')
      .selectAll()
      .where('rid', '=', 1)
      .where('id', '=', coupon.id)
      .executeTakeFirstOrThrow();
    const res = await s.call(
      'cardverify',
      { code: coupon.code.toLowerCase(), amount: '120', merchant_id: stores[0], purpose: 'shopping' },
      admin,
    );
    ok(res);
    expect(res.data).toMatchObject({ usable: true, reason: '', discount: '10.00', min_spend: '100.00' });
    expect(res.data.coupon).toMatchObject({ code: coupon.code, status: 'U', member_id: people[0] });
    const short = await s.call('cardverify', { code: coupon.code, amount: '99.99' }, admin);
    expect(short.data).toMatchObject({ usable: false, reason: '订单满 100.00 元才能使用该优惠券', discount: '0.00' });
    expect((await s.call('cardverify', { code: coupon.code, merchant_id: stores[1] }, admin)).data.reason).toBe('该优惠券不能在本商户使用');
    expect((await s.call('cardverify', { code: coupon.code, purpose: 'parking' }, admin)).data.reason).toBe('该优惠券仅限购物使用');
    const after = await s.database.db
      .selectFrom('member_coupons')
      .selectAll()
      .where('rid', '=', 1)
      .where('id', '=', coupon.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await s.call('cardverify', { code: 'ABCDEFGHJKLM' }, admin)).return_msg).toBe('券码不存在');
    expect((await s.call('cardverify', { code: 'abc' }, admin)).return_msg).toContain('券码应为 12 位字母或数字');
    expect((await s.call('cardverify', { code: coupon.code }, admin2)).return_msg).toBe('券码不存在');
  });

  it('redeems within the rules: minimum spend, store, purpose, dates, state, owner', async () => {
    const { coupon } = await oneCoupon({ merchant_ids: [stores[0]] });
    await expect(redeem(coupon.code, { amountFen: 9999n })).rejects.toThrow('订单满 100.00 元才能使用该优惠券');
    await expect(redeem(coupon.code, { merchantId: stores[1]! })).rejects.toThrow('该优惠券不能在本商户使用');
    await expect(redeem(coupon.code, { merchantId: null })).rejects.toThrow('该优惠券仅限指定商户使用');
    await expect(redeem(coupon.code, { purpose: 'property' })).rejects.toThrow('该优惠券仅限购物使用');
    await expect(redeem(coupon.code, { memberId: people[1]! })).rejects.toThrow('该优惠券不属于该会员');
    await expect(redeem('ZZZZZZZZZZZZ')).rejects.toThrow('券码不存在');
    const db = s.database.db;
    const setDates = (from: string, to: string) =>
      db.updateTable('member_coupons').set({ valid_from: from, valid_to: to }).where('rid', '=', 1).where('id', '=', coupon.id).execute();
    await setDates(addDays(today(), 1), addDays(today(), 5));
    await expect(redeem(coupon.code)).rejects.toThrow(`该优惠券 ${addDays(today(), 1)} 起可用`);
    await setDates(addDays(today(), -5), addDays(today(), -1));
    await expect(redeem(coupon.code)).rejects.toThrow('该优惠券已过期');
    await setDates(today(), today());
    const used = await redeem(coupon.code, { orderNo: 'XF-REDEEM-1' });
    expect(used).toMatchObject({ couponId: coupon.id, discountFen: 1000n });
    await expect(redeem(coupon.code)).rejects.toThrow('该优惠券已使用');
    const row = await db
      .selectFrom('member_coupons')
      .selectAll()
      .where('rid', '=', 1)
      .where('id', '=', coupon.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'Y',
      used_order_no: 'XF-REDEEM-1',
      used_merchant_id: stores[0],
      used_amount: '120.00',
      discount: '10.00',
    });
    // a voided one
    const other = await oneCoupon();
    ok(await s.call('cardvoid', { id: other.coupon.id, reason: '误发' }, admin));
    await expect(redeem(other.coupon.code)).rejects.toThrow('该优惠券已作废');
  });

  it('grants a capped discount and a gift’s nothing, exactly', async () => {
    const disc = await oneCoupon({ kind: 'discount', purpose: 'property', discount_percent: 85, discount_cap: '50', min_spend: '0' });
    const small = await redeem(disc.coupon.code, { purpose: 'property', merchantId: null, amountFen: 33333n });
    expect(small.discountFen).toBe(5000n);
    const disc2 = await oneCoupon({ kind: 'discount', purpose: 'property', discount_percent: 85, discount_cap: '0', min_spend: '0' });
    expect((await redeem(disc2.coupon.code, { purpose: 'property', merchantId: null, amountFen: 33333n })).discountFen).toBe(5000n);
    const disc3 = await oneCoupon({ kind: 'discount', purpose: 'property', discount_percent: 85, discount_cap: '0', min_spend: '0' });
    expect((await redeem(disc3.coupon.code, { purpose: 'property', merchantId: null, amountFen: 1003n })).discountFen).toBe(150n);
    const gift = await oneCoupon({ kind: 'gift', gift: '洗车一次' });
    expect((await redeem(gift.coupon.code, { amountFen: 0n })).discountFen).toBe(0n);
  });

  it('gives a coupon back when its order is cancelled: unused, or expired once its validity ended', async () => {
    const a = await oneCoupon();
    await redeem(a.coupon.code, { orderNo: 'XF-RELEASE-A' });
    await s.database.db.transaction().execute((trx) => releaseCoupon(trx, { rid: 1, orderNo: 'XF-RELEASE-A' }));
    const back = await couponsOf(a.id);
    expect(back[0]).toMatchObject({ status: 'U', used_order_no: null, used_at: null, discount: '0.00', used_merchant_id: null });
    await redeem(a.coupon.code, { orderNo: 'XF-RELEASE-B' });
    await s.database.db
      .updateTable('member_coupons')
      .set({ valid_to: addDays(today(), -1), valid_from: addDays(today(), -3) })
      .where('rid', '=', 1)
      .where('id', '=', a.coupon.id)
      .execute();
    await releaseCoupon(s.database.db, { rid: 1, orderNo: 'XF-RELEASE-B' });
    const gone = (await couponsOf(a.id))[0]!;
    expect(gone.status).toBe('E');
    expect(gone.expired_at).not.toBeNull();
    // another community's release of the same order number changes nothing here
    const c = await oneCoupon();
    await redeem(c.coupon.code, { orderNo: 'XF-RELEASE-C' });
    await releaseCoupon(s.database.db, { rid: 2, orderNo: 'XF-RELEASE-C' });
    expect((await couponsOf(c.id))[0]!.status).toBe('Y');
  });

  it('50 concurrent redemptions of one coupon use it once', async () => {
    const { coupon } = await oneCoupon();
    const tries = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        s.database.db.transaction().execute((trx) =>
          redeemCoupon(trx, {
            rid: 1,
            code: coupon.code,
            memberId: people[0]!,
            merchantId: stores[0]!,
            purpose: 'shopping',
            amountFen: 15000n,
            orderNo: `RACE${i}`,
          }),
        ),
      ),
    );
    const won = tries.flatMap((t, i) => (t.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const t of tries) if (t.status === 'rejected') expect(String(t.reason)).toMatch(/该优惠券已使用/);
    const row = (await couponsOf(coupon.template_id))[0]!;
    expect(row).toMatchObject({ status: 'Y', used_order_no: `RACE${won[0]}`, discount: '10.00' });
  });
});

describe('voiding and the daily expiry', () => {
  it('voids an unused coupon with a reason, once', async () => {
    const { coupon } = await oneCoupon();
    expect((await s.call('cardvoid', { id: coupon.id, reason: '' }, admin)).return_msg).toContain('请填写作废原因');
    const res = await s.call('cardvoid', { id: coupon.id, reason: '会员退房' }, admin);
    ok(res);
    expect(res.data).toMatchObject({ status: 'V', status_ch: '已作废', void_reason: '会员退房' });
    expect((await s.call('cardvoid', { id: coupon.id, reason: '再作废' }, admin)).return_msg).toBe('该优惠券已作废，不能作废');
    expect((await s.call('cardvoid', { id: coupon.id, reason: '外区' }, admin2)).return_msg).toBe('优惠券不存在');
  });

  it('expires unused coupons past their end, once, and is a daily job', async () => {
    expect(dailyJobs().has(COUPON_EXPIRY)).toBe(true);
    const { id, coupon } = await oneCoupon();
    const second = await oneCoupon({}, people[1]);
    const db = s.database.db;
    await db
      .updateTable('member_coupons')
      .set({ valid_from: addDays(today(), -10), valid_to: addDays(today(), -1) })
      .where('rid', '=', 1)
      .where('id', 'in', [coupon.id, second.coupon.id])
      .execute();
    expect(await expireCoupons(db, 1)).toBeGreaterThanOrEqual(2);
    expect((await couponsOf(id))[0]).toMatchObject({ status: 'E' });
    expect(await expireCoupons(db, 1)).toBe(0);
    // a coupon ending today is still usable
    const fresh = await oneCoupon();
    await db.updateTable('member_coupons').set({ valid_to: today() }).where('rid', '=', 1).where('id', '=', fresh.coupon.id).execute();
    await expireCoupons(db);
    expect((await couponsOf(fresh.id))[0]!.status).toBe('U');
  });
});

describe('figures, lists and the report', () => {
  it('shows a template’s figures and its coupons; the given list filters; the report counts today', async () => {
    const id = await addTemplate({ per_person: 0, name: '报表测试券' });
    ok(await give(id, people.slice(40, 44)));
    const coupons = await couponsOf(id);
    await s.database.db.transaction().execute((trx) =>
      redeemCoupon(trx, {
        rid: 1,
        code: coupons[0]!.code,
        memberId: coupons[0]!.member_id,
        merchantId: stores[0]!,
        purpose: 'shopping',
        amountFen: 20000n,
        orderNo: 'XF-REPORT-1',
      }),
    );
    ok(await s.call('cardvoid', { id: coupons[1]!.id, reason: '测试' }, admin));
    const show = await s.call('carshow', { id, page: 1, limit: 10 }, admin);
    ok(show);
    expect(show.data.figures).toMatchObject({
      given: 4,
      claimed: 0,
      unused: 2,
      used: 1,
      expired: 0,
      voided: 1,
      discount: '10.00',
      orders: 1,
    });
    expect(show.data.total).toBe(4);
    expect(show.data.template).toMatchObject({ id, issued: 4, used: 1 });
    expect((await s.call('carshow', { id, status: 'V', page: 1, limit: 10 }, admin)).data.total).toBe(1);
    expect((await s.call('carshow', { id }, admin2)).return_msg).toBe('优惠券不存在');
    const list = await s.call('cardgetlists', { template_id: id, status: 'Y', limit: 50 }, admin);
    ok(list);
    expect(list.data.items).toHaveLength(1);
    expect(list.data.items[0]).toMatchObject({
      used_order_no: 'XF-REPORT-1',
      status_ch: '已使用',
      discount: '10.00',
      source_ch: '后台发放',
    });
    expect(list.data.items[0].used_merchant).not.toBe('');
    const byCode = await s.call('cardgetlists', { code: coupons[2]!.code.toLowerCase(), limit: 50 }, admin);
    expect(byCode.data.items.map((r: { id: number }) => r.id)).toEqual([coupons[2]!.id]);
    expect((await s.call('cardgetlists', { template_id: id, limit: 50 }, admin2)).data.total).toBe(0);
    const report = await s.call('reportcardgenerallist', { start_date: today(), end_date: today(), template_id: id }, admin);
    ok(report);
    expect(report.data.items).toEqual([
      expect.objectContaining({ day: today(), template_id: id, issued: 4, claimed: 0, used: 1, expired: 0, discount: '10.00', orders: 1 }),
    ]);
    expect(report.data.totals).toMatchObject({ template_name: '合计', issued: 4, used: 1, discount: '10.00' });
    const whole = await s.call('reportcardgenerallist', {}, admin);
    ok(whole);
    expect(whole.data.totals.issued).toBeGreaterThanOrEqual(4);
    expect((await s.call('reportcardgenerallist', { start_date: '2026-01-05', end_date: '2026-01-01' }, admin)).return_msg).toContain(
      '结束日期不能早于开始日期',
    );
    expect((await s.call('reportcardgenerallist', { template_id: id }, admin2)).return_msg).toBe('优惠券不存在');
    const file = await s.exportFile('reportcardgeneralexport', { start_date: today(), end_date: today() }, admin);
    ok(file);
    const got = await s.exportFile('cardgetexport', { template_id: id }, admin);
    ok(got);
  });

  it('the demo has coupons in every state, some of 陈建国', async () => {
    const db = s.database.db;
    const states = await db.selectFrom('member_coupons').select('status').distinct().where('rid', '=', 1).execute();
    expect(states.map((r) => r.status).sort()).toEqual(['E', 'U', 'V', 'Y']);
    const demo = await s.call('cardgetlists', { keyword: '陈建国', limit: 50 }, admin);
    expect(demo.data.total).toBeGreaterThanOrEqual(3);
    const used = await db
      .selectFrom('member_coupons')
      .select(['used_order_no', 'used_merchant_id'])
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .execute();
    expect(used.every((u) => !!u.used_order_no)).toBe(true);
    expect(used.some((u) => u.used_merchant_id !== null)).toBe(true);
  });
});

describe('who may', () => {
  it('refuses the cashier and the merchant the coupon lists and actions; a card reader reads but does not give', async () => {
    const { id, coupon } = await oneCoupon();
    for (const token of [cashier, merchant]) {
      for (const [method, payload] of [
        ['cardslist', {}],
        ['cardgetlists', {}],
        ['carshow', { id }],
        ['cardgive', { template_id: id, member_ids: [people[3]], idempotency_key: key() }],
        ['cardvoid', { id: coupon.id, reason: 'x' }],
        ['reportcardgenerallist', {}],
        ['cardsadd', { name: '越权', kind: 'gift', gift: 'x', validity: 'days', valid_days: 1 }],
      ] as const) {
        expect((await s.call(method, payload, token)).return_code, method).toBe(RC.NO_PERMISSION);
      }
    }
    expect((await s.call('cardverify', { code: coupon.code }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    await s.addAccount('coupon_reader', { roles: ['card'] });
    const reader = await s.login('coupon_reader');
    ok(await s.call('cardslist', {}, reader));
    ok(await s.call('cardgetlists', {}, reader));
    expect((await give(id, [people[3]!], {}, reader)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('cardvoid', { id: coupon.id, reason: 'x' }, reader)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('lets a merchant check a code only for its own store, and never changes it', async () => {
    const everywhere = await oneCoupon();
    const res = await s.call('cardverify', { code: everywhere.coupon.code, amount: '150', merchant_id: stores[2] }, merchant);
    ok(res);
    // the store checks as itself, whatever store the payload names
    expect(res.data).toMatchObject({ usable: true, discount: '10.00' });
    const own = await oneCoupon({ merchant_ids: [stores[0]] });
    expect((await s.call('cardverify', { code: own.coupon.code }, merchant)).data.usable).toBe(true);
    const elsewhere = await oneCoupon({ merchant_ids: [stores[1]] });
    expect((await s.call('cardverify', { code: elsewhere.coupon.code }, merchant)).return_msg).toBe('券码不存在');
    expect((await couponsOf(elsewhere.id))[0]!.status).toBe('U');
  });
});
