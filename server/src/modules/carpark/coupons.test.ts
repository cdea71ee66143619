import { parkCoupon, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { couponsForExit, useCoupon } from './couponUse.js';

let s: TestServer;
let admin: string;
let admin2: string;
let clerk: string;
let parker: string;
let lot: number;
let lot2: number;
let shop: number;
let shop2: number;
let otherShop: number;

const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  await s.addAccount('clerk', { roles: ['parkcard'], regions: [1], name: '停车劵专员' });
  await s.addAccount('parker', { roles: ['carpark'], regions: [1], name: '停车管理员' });
  [admin, admin2, clerk, parker] = await s.logins('admin', 'admin2', 'clerk', 'parker');
  lot = (await db().insertInto('parking_lots').values({ rid: 1, title: '劵测试停车场' }).returning('id').executeTakeFirstOrThrow()).id;
  lot2 = (await db().insertInto('parking_lots').values({ rid: 1, title: '劵测试停车场二' }).returning('id').executeTakeFirstOrThrow()).id;
  shop = (await db().insertInto('merchants').values({ rid: 1, merchant: '劵测试商户' }).returning('id').executeTakeFirstOrThrow()).id;
  shop2 = (await db().insertInto('merchants').values({ rid: 1, merchant: '劵测试商户二' }).returning('id').executeTakeFirstOrThrow()).id;
  otherShop = (await db().selectFrom('merchants').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => s?.close());

describeResource(parkCoupon, {
  server: () => s,
  sample: () => ({ lot_id: lot, title: '资源测试劵', kind: 'amount', amount: '5', price: '4', status: 'Y', remark: '' }),
  edit: { title: '资源测试劵二', price: '4.50' },
  filters: { title: '资源测试', kind: 'amount', status: 'Y' },
  unique: ['title'],
  writer: 'clerk',
  deniedWriter: 'steward',
});

describe('parking coupons', () => {
  const kind = async (v: Record<string, unknown>) =>
    ok(await s.call('parkcouponadd', { lot_id: lot, price: '2', ...v }, clerk)).id as number;
  let minutes = 0;

  it('keep only the face of their kind and refuse a kind without its face', async () => {
    minutes = await kind({ title: '减30分钟', kind: 'minutes', minutes: 30, amount: '9', rate: '0.5' });
    const row = ok(await s.call('parkcouponlist', { title: '减30分钟' }, parker)).items[0];
    expect(row).toMatchObject({
      kind_ch: '减时',
      face: '减30分钟',
      amount: '0.00',
      rate: '0.00',
      price: '2.00',
      lot_title: '劵测试停车场',
    });
    refused(await s.call('parkcouponadd', { lot_id: lot, title: '空减时', kind: 'minutes', price: '1' }, clerk), '减时券须填写减免分钟');
    refused(await s.call('parkcouponadd', { lot_id: lot, title: '空金额', kind: 'amount', price: '1' }, clerk), '减免金额');
    refused(
      await s.call('parkcouponadd', { lot_id: lot, title: '一折多', kind: 'discount', rate: '1.2', price: '1' }, clerk),
      '折扣应大于0且小于1',
    );
    refused(await s.call('parkcouponadd', { lot_id: lot, title: '零折', kind: 'discount', rate: '0', price: '1' }, clerk), '折扣券须填写');
    const d = await kind({ title: '八五折', kind: 'discount', rate: '.85' });
    expect(ok(await s.call('parkcouponlist', { title: '八五折' }, clerk)).items[0]).toMatchObject({ face: '8.5折', rate: '0.85' });
    const lotOfOther = (await db().selectFrom('parking_lots').select('id').where('rid', '=', 2).executeTakeFirstOrThrow()).id;
    refused(await s.call('parkcouponadd', { lot_id: lotOfOther, title: '别处', kind: 'free', price: '1' }, clerk), '停车场不存在');
    ok(await s.call('parkcoupondel', { id: d }, clerk));
  });

  it('a merchant buys a batch: an exact amount, an order that never changes, stock added', async () => {
    const priced = await kind({ title: '三毛三', kind: 'amount', amount: '1', price: '0.33' });
    const order = ok(await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: priced, quantity: 3, pay_type: 'cash' }, clerk));
    expect(order).toMatchObject({ amount: '0.99', left_count: 3 });
    expect(order.orderid).toMatch(/^TC\d{8}\d{6}$/);
    refused(
      await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: priced, quantity: 3, pay_type: 'cash', amount: '1.00' }, clerk),
      '金额应为 0.99 元',
    );
    await expect(sql`UPDATE parking_coupon_orders SET amount = 0 WHERE id = ${order.id}`.execute(db())).rejects.toThrow('不能修改或删除');
    await expect(sql`DELETE FROM parking_coupon_orders WHERE id = ${order.id}`.execute(db())).rejects.toThrow('不能修改或删除');
    // a retry with the same key buys once
    const key = 'retry-key-0001';
    const a = ok(
      await s.call(
        'parkcouponorderadd',
        { merchant_id: shop, coupon_id: minutes, quantity: 10, pay_type: 'wechat', idempotency_key: key },
        clerk,
      ),
    );
    const b = ok(
      await s.call(
        'parkcouponorderadd',
        { merchant_id: shop, coupon_id: minutes, quantity: 10, pay_type: 'wechat', idempotency_key: key },
        clerk,
      ),
    );
    expect(b.id).toBe(a.id);
    expect(a).toMatchObject({ amount: '20.00', left_count: 10 });
    const stock = ok(await s.call('parkcouponstocklist', { merchant_id: shop, coupon_id: minutes }, parker)).items;
    expect(stock).toEqual([expect.objectContaining({ merchant: '劵测试商户', bought: 10, given: 0, left_count: 10, face: '减30分钟' })]);
    const orders = ok(await s.call('parkcouponorderlist', { merchant_id: shop }, parker));
    expect(orders).toMatchObject({ total: 2, sum_quantity: 13, sum_amount: '20.99' });
    expect(orders.items[0]).toMatchObject({ pay_type_ch: '微信支付', operator: '停车劵专员', quantity: 10 });
    expect(ok(await s.call('parkcouponorderlist', { merchant_id: shop, pay_type: 'cash' }, parker)).sum_amount).toBe('0.99');
    // a coupon sold keeps its face and cannot be deleted
    refused(
      await s.call('parkcouponedit', { id: minutes, lot_id: lot, title: '减30分钟', kind: 'minutes', minutes: 60, price: '2' }, clerk),
      '不能修改停车场、类型和面值',
    );
    ok(await s.call('parkcouponedit', { id: minutes, lot_id: lot, title: '减30分钟', kind: 'minutes', minutes: 30, price: '2.5' }, clerk));
    refused(await s.call('parkcoupondel', { id: minutes }, clerk), '已有商户购买记录');
    // a stopped coupon is not sold
    const stopped = await kind({ title: '停售劵', kind: 'free', status: 'N' });
    refused(await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: stopped, quantity: 1, pay_type: 'cash' }, clerk), '已停售');
  });

  it('giving takes one from stock, is valid a day, and is refused at zero', async () => {
    const given = ok(await s.call('parkcoupongive', { merchant_id: shop, coupon_id: minutes, carlicense: '沪a·12345' }, clerk));
    expect(given.left_count).toBe(9);
    const row = ok(await s.call('receivelist', { carlicense: '沪A12345', merchant_id: shop }, parker)).items[0];
    expect(row).toMatchObject({
      carlicense: '沪A12345',
      state: 'G',
      state_ch: '已领取',
      merchant: '劵测试商户',
      face: '减30分钟',
      operator: '停车劵专员',
    });
    const hours = (Date.parse(row.valid_to.replace(' ', 'T')) - Date.parse(row.valid_from.replace(' ', 'T'))) / 3600_000;
    expect(hours).toBe(24);
    refused(
      await s.call('parkcoupongive', { merchant_id: shop2, coupon_id: minutes, carlicense: '沪A12345' }, clerk),
      /^停车劵不足，请购买$/,
    );
    refused(await s.call('parkcoupongive', { merchant_id: shop, coupon_id: minutes, carlicense: '沪12345' }, clerk), '车牌号格式不正确');
  });

  it('voiding returns the coupon to the merchant’s stock; used and expired ones are read right', async () => {
    const give = async (plate: string) =>
      ok(await s.call('parkcoupongive', { merchant_id: shop, coupon_id: minutes, carlicense: plate }, clerk)).id as number;
    const wrong = await give('沪B11111');
    expect(ok(await s.call('parkcouponvoid', { id: wrong, reason: '车牌输错' }, clerk)).left_count).toBe(9);
    refused(await s.call('parkcouponvoid', { id: wrong, reason: '再作废' }, clerk), '已作废');
    refused(await s.call('parkcouponvoid', { id: wrong, reason: '' }, clerk), '请填写作废原因');
    const old = await give('沪C22222');
    await sql`UPDATE parking_coupon_given SET valid_from = now() - interval '2 days', valid_to = now() - interval '1 day', created_at = now() - interval '2 days' WHERE id = ${old}`.execute(
      db(),
    );
    refused(await s.call('parkcouponvoid', { id: old, reason: '过期了' }, clerk), '已过期');
    const used = await give('沪D33333');

    // the exit finds the plate's coupon and marks it used in its transaction
    const at = new Date();
    const held = await couponsForExit(db(), { rid: 1, lotId: lot, plate: '沪D33333', at });
    expect(held.map((c) => c.given_id)).toEqual([used]);
    expect(held[0]).toMatchObject({ kind: 'minutes', minutes: 30, face: '减30分钟' });
    expect(await couponsForExit(db(), { rid: 1, lotId: lot2, plate: '沪D33333', at })).toEqual([]);
    await expect(useCoupon(db(), { rid: 1, id: used, lotId: lot, plate: '沪E44444', at, ref: 'stay-1', amount: '2.00' })).rejects.toThrow(
      '不属于此车牌',
    );
    await expect(useCoupon(db(), { rid: 1, id: used, lotId: lot2, plate: '沪D33333', at, ref: 'stay-1', amount: '2.00' })).rejects.toThrow(
      '不能在此停车场',
    );
    await expect(useCoupon(db(), { rid: 2, id: used, lotId: lot, plate: '沪D33333', at, ref: 'stay-1', amount: '2.00' })).rejects.toThrow(
      '不存在',
    );
    await expect(useCoupon(db(), { rid: 1, id: old, lotId: lot, plate: '沪C22222', at, ref: 'stay-1', amount: '2.00' })).rejects.toThrow(
      '已过期',
    );
    await db()
      .transaction()
      .execute((trx) => useCoupon(trx, { rid: 1, id: used, lotId: lot, plate: '沪D33333', at, ref: 'stay-1', amount: '2.00' }));
    await expect(useCoupon(db(), { rid: 1, id: used, lotId: lot, plate: '沪D33333', at, ref: 'stay-2', amount: '2.00' })).rejects.toThrow(
      '已使用',
    );
    refused(await s.call('parkcouponvoid', { id: used, reason: '用过了' }, clerk), '已使用');

    const states = async (state: string) =>
      ok(await s.call('receivelist', { merchant_id: shop, state, limit: 50 }, parker)).items.map((r: { id: number }) => r.id);
    expect(await states('V')).toEqual([wrong]);
    expect(await states('E')).toEqual([old]);
    expect(await states('U')).toEqual([used]);
    expect(await states('G')).not.toContain(old);
    const usedRow = ok(await s.call('receivelist', { carlicense: '沪D33333' }, parker)).items[0];
    expect(usedRow).toMatchObject({ state_ch: '已使用', used_amount: '2.00' });
    expect(ok(await s.call('receivelist', { carlicense: '沪C22222' }, parker)).items[0].state_ch).toBe('已过期');
    // the date range is of the giving
    const d = new Date(Date.now() - 2 * 86400_000 + 8 * 3600_000).toISOString().slice(0, 10);
    expect(
      ok(await s.call('receivelist', { merchant_id: shop, create_time: [d, d] }, parker)).items.map((r: { id: number }) => r.id),
    ).toEqual([old]);
  });

  it('exports the orders and the given coupons', async () => {
    const job = ok(await s.call('receiveexport', { merchant_id: shop }, parker));
    expect(job.job_id).toBeGreaterThan(0);
    ok(await s.call('parkcouponorderexport', { merchant_id: shop }, parker));
  });

  it('is refused to roles and communities it is not for', async () => {
    expect((await s.call('parkcoupongive', { merchant_id: shop, coupon_id: minutes, carlicense: '沪A12345' }, parker)).return_code).toBe(
      RC.NO_PERMISSION,
    );
    expect(
      (await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: minutes, quantity: 1, pay_type: 'cash' }, parker)).return_code,
    ).toBe(RC.NO_PERMISSION);
    refused(
      await s.call('parkcouponorderadd', { merchant_id: otherShop, coupon_id: minutes, quantity: 1, pay_type: 'cash' }, clerk),
      '商户不存在',
    );
    refused(
      await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: minutes, quantity: 1, pay_type: 'cash' }, admin2),
      '商户不存在',
    );
    refused(await s.call('parkcoupongive', { merchant_id: shop, coupon_id: minutes, carlicense: '沪A12345' }, admin2), '商户不存在');
    expect(ok(await s.call('receivelist', { merchant_id: shop }, admin2)).total).toBe(0);
    expect(ok(await s.call('parkcouponstocklist', {}, admin2)).items.every((r: { merchant_id: number }) => r.merchant_id !== shop)).toBe(
      true,
    );
    const mine = ok(await s.call('receivelist', { merchant_id: shop, limit: 1 }, admin)).items[0].id;
    refused(await s.call('parkcouponvoid', { id: mine, reason: 'x' }, admin2), '不存在');
    refused(
      await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: minutes, quantity: 0, pay_type: 'cash' }, clerk),
      'quantity',
    );
    refused(
      await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: minutes, quantity: 1, pay_type: 'balance' }, clerk),
      '支付方式',
    );
  });
});
