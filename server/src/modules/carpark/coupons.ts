/**
 * Parking coupons (停车劵, /carpark/parkcardlist and /carpark/receivelist;
 * docs/product.md#parking-coupons): the coupon kinds (a resource), the merchants' orders (rows
 * that never change) adding to their stock, giving one to a plate (one from stock, valid 24 hours),
 * voiding it (back to the merchant's stock), and the lists of orders and given coupons.
 */
import {
  COUPON_KIND,
  COUPON_OUT_OF_STOCK,
  GIVEN_STATE,
  PAY_TYPE,
  couponFace,
  enumText,
  fenToYuan,
  parkCoupon,
  toFen,
  type CouponKind,
  type CouponOrderItem,
  type GivenCouponItem,
} from '@wuye/contract';
import { PARK_COUPON_ROLES } from '@wuye/contract/carpark/coupons';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDependents } from '../../lib/dependents.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { lotOf } from './lots.js';

registerDependents({
  parking_coupons: '停车劵',
  parking_coupon_orders: '停车劵购买记录',
  parking_coupon_stock: '商户停车劵库存',
  parking_coupon_given: '已发放的停车劵',
});

/** How long a given coupon may be used: one day from the giving. */
const VALID_HOURS = 24;

export const couponKindMethods = defineResource(parkCoupon, {
  table: 'parking_coupons',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('parking_coupons as t')
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 't.rid').onRef('l.id', '=', 't.lot_id'))
      .selectAll('t')
      .select('l.title as lot_title')
      .select([
        sql<string>`t.amount::text`.as('amount'),
        sql<string>`t.rate::text`.as('rate'),
        sql<string>`t.price::text`.as('price'),
        sql<number>`coalesce((SELECT sum(k.left_count)::int FROM parking_coupon_stock k WHERE k.rid = t.rid AND k.coupon_id = t.id), 0)`.as(
          'stock_left',
        ),
        sql<number>`coalesce((SELECT sum(k.bought)::int FROM parking_coupon_stock k WHERE k.rid = t.rid AND k.coupon_id = t.id), 0)`.as(
          'sold',
        ),
      ])
      .where('t.rid', '=', rid),
  row: (r) => ({ ...r, lot_id: Number(r.lot_id), face: couponFace(r) }),
  unique: [{ on: ['title'], message: (v) => `停车劵「${String(v.title)}」已存在` }],
  // only the face of the coupon's kind is kept: a minutes-off coupon has no amount or rate
  values: (input) => ({
    ...input,
    minutes: input.kind === 'minutes' ? input.minutes : 0,
    amount: input.kind === 'amount' ? input.amount : '0.00',
    rate: input.kind === 'discount' ? input.rate : '0.00',
  }),
  async check(ctx, values) {
    await lotOf(ctx, Number(values.lot_id));
  },
  async beforeEdit(ctx, before, values) {
    // a coupon already sold keeps its lot and face: merchants paid for that
    if (
      (before.kind !== values.kind ||
        Number(before.lot_id) !== Number(values.lot_id) ||
        Number(before.minutes) !== Number(values.minutes) ||
        toFen(String(before.amount)) !== toFen(String(values.amount)) ||
        toFen(String(before.rate)) !== toFen(String(values.rate))) &&
      (await ctx.db
        .selectFrom('parking_coupon_orders')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('coupon_id', '=', Number(before.id))
        .executeTakeFirst())
    )
      fail('该停车劵已有商户购买，不能修改停车场、类型和面值（可停售后新增一种）');
  },
  dependents: { parking_coupon_orders: '该停车劵已有商户购买记录，不能删除（可改为停售）' },
  replace: {
    // the coupon staff's dropdown, not every account's: merchants' accounts do not sell coupons
    small: defineMethod('parkcoupon_small_list', {
      side: 'community',
      roles: PARK_COUPON_ROLES.read,
      writes: false,
      summary: '停车劵下拉（id、title，含面值）',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('parking_coupons')
          .select(['id', 'title', 'kind', 'minutes', sql<string>`amount::text`.as('amount'), sql<string>`rate::text`.as('rate')])
          .where('rid', '=', ctx.rid)
          .orderBy('id')
          .execute();
        return {
          items: rows.map((r) => ({ id: Number(r.id), title: `${r.title}（${couponFace({ ...r, kind: r.kind as CouponKind })}）` })),
        };
      },
    }),
  },
  summaries: {
    list: '停车劵列表：名称、停车场、类型（减时/减免金额/折扣/全免）、面值、售价、已售、商户库存、状态',
    add: '新增停车劵：减时券填分钟、减免金额券填金额、折扣券填0到1之间的折扣（四舍五入到分）；全免券无面值',
    edit: '修改停车劵；已有商户购买的不能改停车场、类型和面值',
  },
});

async function lockedStock(ctx: CommunityCtx, merchantId: number, couponId: number) {
  return ctx.db
    .selectFrom('parking_coupon_stock')
    .select(['id', 'left_count'])
    .where('rid', '=', ctx.rid)
    .where('merchant_id', '=', merchantId)
    .where('coupon_id', '=', couponId)
    .forUpdate()
    .executeTakeFirst();
}

async function merchantOf(ctx: CommunityCtx, id: number) {
  const m = await ctx.db
    .selectFrom('merchants')
    .select(['id', 'merchant', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!m) fail('商户不存在');
  return m;
}

async function couponOf(ctx: CommunityCtx, id: number) {
  const c = await ctx.db
    .selectFrom('parking_coupons')
    .select(['id', 'title', 'status', sql<string>`price::text`.as('price')])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!c) fail('停车劵不存在');
  return c;
}

const nextId = async (ctx: CommunityCtx, table: string) =>
  Number((await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence(${table}, 'id'))::text AS id`.execute(ctx.db)).rows[0]!.id);

const ymd = () => today().replace(/-/g, '');

const parkcouponstocklist = defineMethod('parkcouponstocklist', {
  side: 'community',
  roles: PARK_COUPON_ROLES.read,
  writes: false,
  summary: '商户停车劵库存：每个商户每种停车劵的已购、已发放、剩余；可按商户、停车劵筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('parking_coupon_stock as k')
      .innerJoin('merchants as m', (j) => j.onRef('m.rid', '=', 'k.rid').onRef('m.id', '=', 'k.merchant_id'))
      .innerJoin('parking_coupons as c', (j) => j.onRef('c.rid', '=', 'k.rid').onRef('c.id', '=', 'k.coupon_id'))
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'c.rid').onRef('l.id', '=', 'c.lot_id'))
      .select([
        'k.id',
        'k.merchant_id',
        'm.merchant',
        'k.coupon_id',
        'c.title as coupon_title',
        'l.title as lot_title',
        'c.kind',
        'c.minutes',
      ])
      .select([sql<string>`c.amount::text`.as('amount'), sql<string>`c.rate::text`.as('rate'), 'k.bought', 'k.given', 'k.left_count'])
      .where('k.rid', '=', ctx.rid);
    if (input.merchant_id) qb = qb.where('k.merchant_id', '=', input.merchant_id);
    if (input.coupon_id) qb = qb.where('k.coupon_id', '=', input.coupon_id);
    const page = await listPage(qb, input, 'k.id');
    return {
      total: page.total,
      items: page.items.map((r) => ({
        id: Number(r.id),
        merchant_id: Number(r.merchant_id),
        merchant: r.merchant,
        coupon_id: Number(r.coupon_id),
        coupon_title: r.coupon_title,
        lot_title: r.lot_title,
        kind: r.kind as CouponKind,
        kind_ch: enumText(COUPON_KIND, r.kind),
        face: couponFace({ ...r, kind: r.kind as CouponKind }),
        bought: r.bought,
        given: r.given,
        left_count: r.left_count,
      })),
    };
  },
});

const parkcouponorderadd = defineMethod('parkcouponorderadd', {
  side: 'community',
  roles: PARK_COUPON_ROLES.write,
  writes: true,
  summary:
    '商户购买停车劵：金额 = 售价 × 数量（精确到分），生成一条不可修改的购买记录并加入该商户的库存；同一 idempotency_key 重试只购买一次',
  async handler(ctx, input) {
    if (input.idempotency_key) {
      const done = await ctx.db
        .selectFrom('parking_coupon_orders')
        .select(['id', 'orderid', sql<string>`amount::text`.as('amount'), 'merchant_id', 'coupon_id'])
        .where('rid', '=', ctx.rid)
        .where('idempotency_key', '=', input.idempotency_key)
        .executeTakeFirst();
      if (done) {
        const stock = await lockedStock(ctx, Number(done.merchant_id), Number(done.coupon_id));
        return reply({ id: Number(done.id), orderid: done.orderid, amount: done.amount, left_count: stock?.left_count ?? 0 }, '购买成功');
      }
    }
    const merchant = await merchantOf(ctx, input.merchant_id);
    if (merchant.status !== 'Y') fail('该商户已停用');
    const coupon = await couponOf(ctx, input.coupon_id);
    if (coupon.status !== 'Y') fail('该停车劵已停售');
    const amount = fenToYuan(toFen(coupon.price) * BigInt(input.quantity));
    if (input.amount !== undefined && input.amount !== amount)
      fail(`金额应为 ${amount} 元（售价 ${coupon.price} 元 × ${input.quantity} 张），请刷新后重试`);
    const id = await nextId(ctx, 'parking_coupon_orders');
    const orderid = `TC${ymd()}${String(id).padStart(6, '0')}`;
    await ctx.db
      .insertInto('parking_coupon_orders')
      .values({
        rid: ctx.rid,
        id,
        orderid,
        merchant_id: input.merchant_id,
        coupon_id: input.coupon_id,
        quantity: input.quantity,
        price: coupon.price,
        amount,
        pay_type: input.pay_type,
        operator: ctx.session.name,
        remark: input.remark,
        idempotency_key: input.idempotency_key ?? null,
        created_by: ctx.session.accountId,
      })
      .execute();
    const stock = await ctx.db
      .insertInto('parking_coupon_stock')
      .values({
        rid: ctx.rid,
        merchant_id: input.merchant_id,
        coupon_id: input.coupon_id,
        bought: input.quantity,
        left_count: input.quantity,
        created_by: ctx.session.accountId,
      })
      .onConflict((oc) =>
        oc.columns(['rid', 'merchant_id', 'coupon_id']).doUpdateSet({
          bought: sql`parking_coupon_stock.bought + excluded.bought`,
          left_count: sql`parking_coupon_stock.left_count + excluded.left_count`,
        }),
      )
      .returning('left_count')
      .executeTakeFirstOrThrow();
    return reply({ id, orderid, amount, left_count: stock.left_count }, '购买成功');
  },
});

type OrderFilters = {
  merchant_id?: number;
  coupon_id?: number;
  pay_type?: string;
  orderid?: string;
  create_time?: [string, string];
};

function orders(db: Kysely<DB>, rid: number, f: OrderFilters) {
  let qb = db
    .selectFrom('parking_coupon_orders as o')
    .innerJoin('merchants as m', (j) => j.onRef('m.rid', '=', 'o.rid').onRef('m.id', '=', 'o.merchant_id'))
    .innerJoin('parking_coupons as c', (j) => j.onRef('c.rid', '=', 'o.rid').onRef('c.id', '=', 'o.coupon_id'))
    .where('o.rid', '=', rid);
  if (f.merchant_id) qb = qb.where('o.merchant_id', '=', f.merchant_id);
  if (f.coupon_id) qb = qb.where('o.coupon_id', '=', f.coupon_id);
  if (f.pay_type) qb = qb.where('o.pay_type', '=', f.pay_type);
  if (f.orderid) qb = qb.where('o.orderid', 'like', likePattern(f.orderid));
  if (f.create_time) qb = qb.where(withinDays('o.created_at', f.create_time));
  return qb;
}

const orderRows = (db: Kysely<DB>, rid: number, f: OrderFilters) =>
  orders(db, rid, f)
    .select([
      'o.id',
      'o.orderid',
      'o.merchant_id',
      'm.merchant',
      'o.coupon_id',
      'c.title as coupon_title',
      'c.kind',
      'c.minutes',
      'o.quantity',
    ])
    .select([
      sql<string>`c.amount::text`.as('face_amount'),
      sql<string>`c.rate::text`.as('rate'),
      sql<string>`o.price::text`.as('price'),
      sql<string>`o.amount::text`.as('amount'),
      'o.pay_type',
      'o.operator',
      'o.remark',
      'o.created_at',
    ]);

type OrderRow = Awaited<ReturnType<ReturnType<typeof orderRows>['execute']>>[number];

const toOrderItem = (r: OrderRow): CouponOrderItem => ({
  id: Number(r.id),
  orderid: r.orderid,
  merchant_id: Number(r.merchant_id),
  merchant: r.merchant,
  coupon_id: Number(r.coupon_id),
  coupon_title: r.coupon_title,
  face: couponFace({ kind: r.kind as CouponKind, minutes: r.minutes, amount: r.face_amount, rate: r.rate }),
  quantity: r.quantity,
  price: r.price,
  amount: r.amount,
  pay_type: r.pay_type,
  pay_type_ch: enumText(PAY_TYPE, r.pay_type),
  operator: r.operator,
  remark: r.remark,
  create_time: wireTime(r.created_at),
});

const parkcouponorderlist = defineMethod('parkcouponorderlist', {
  side: 'community',
  roles: PARK_COUPON_ROLES.read,
  writes: false,
  summary:
    '商户停车劵购买记录：单号、商户、停车劵、数量、单价、金额、支付方式、经办人、时间；可按商户、停车劵、支付方式、单号、日期筛选，并合计数量与金额',
  async handler(ctx, input) {
    const page = await listPage(orderRows(ctx.db, ctx.rid, input), input, 'o.id');
    const sums = await orders(ctx.db, ctx.rid, input)
      .select([
        sql<number>`coalesce(sum(o.quantity), 0)::int`.as('q'),
        sql<string>`coalesce(sum(o.amount), 0)::numeric(14,2)::text`.as('a'),
      ])
      .executeTakeFirstOrThrow();
    return { total: page.total, items: page.items.map(toOrderItem), sum_quantity: sums.q, sum_amount: sums.a };
  },
});

const parkcouponorderexport = defineExport('parkcouponorderexport', {
  roles: PARK_COUPON_ROLES.read,
  summary: '按当前筛选条件导出商户停车劵购买记录（Excel）',
  filename: () => `停车劵购买记录_${today()}.xlsx`,
  check: ({ db, rid }, input) => refuseOversizedExport(db, orders(db, rid, input).select('o.id')),
  async sheet({ db, rid }, input) {
    const rows = await orderRows(db, rid, input).orderBy('o.id', input.sort).limit(EXPORT_MAX).execute();
    return sheetOf(
      '停车劵购买记录',
      [
        { header: '单号', value: (o) => o.orderid, width: 22 },
        { header: '商户', value: (o) => o.merchant, width: 16 },
        { header: '停车劵', value: (o) => o.coupon_title, width: 16 },
        { header: '面值', value: (o) => o.face },
        { header: '数量', value: (o) => o.quantity },
        { header: '单价(元)', value: (o) => o.price },
        { header: '金额(元)', value: (o) => o.amount },
        { header: '支付方式', value: (o) => o.pay_type_ch },
        { header: '经办人', value: (o) => o.operator },
        { header: '备注', value: (o) => o.remark, width: 20 },
        { header: '时间', value: (o) => o.create_time, width: 20 },
      ],
      rows.map(toOrderItem),
    );
  },
});

const parkcoupongive = defineMethod('parkcoupongive', {
  side: 'community',
  roles: PARK_COUPON_ROLES.write,
  writes: true,
  summary: `商户发放停车劵给车牌：从该商户库存扣一张（库存为0时拒绝：${COUPON_OUT_OF_STOCK}），自发放起24小时内有效，状态已领取`,
  async handler(ctx, input) {
    await merchantOf(ctx, input.merchant_id);
    await couponOf(ctx, input.coupon_id);
    const stock = await lockedStock(ctx, input.merchant_id, input.coupon_id);
    if (!stock || stock.left_count <= 0) fail(COUPON_OUT_OF_STOCK);
    const left = await ctx.db
      .updateTable('parking_coupon_stock')
      .set({ given: sql`given + 1`, left_count: sql`left_count - 1` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', stock.id)
      .returning('left_count')
      .executeTakeFirstOrThrow();
    const id = await nextId(ctx, 'parking_coupon_given');
    const code = `PK${ymd()}${String(id).padStart(6, '0')}`;
    const row = await ctx.db
      .insertInto('parking_coupon_given')
      .values({
        rid: ctx.rid,
        id,
        code,
        merchant_id: input.merchant_id,
        coupon_id: input.coupon_id,
        carlicense: input.carlicense,
        valid_from: sql<Date>`now()`,
        valid_to: sql<Date>`now() + make_interval(hours => ${VALID_HOURS})`,
        operator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning(['valid_from', 'valid_to'])
      .executeTakeFirstOrThrow();
    return reply(
      { id, code, valid_from: wireTime(row.valid_from), valid_to: wireTime(row.valid_to), left_count: left.left_count },
      `已发放，剩余 ${left.left_count} 张`,
    );
  },
});

const parkcouponvoid = defineMethod('parkcouponvoid', {
  side: 'community',
  roles: PARK_COUPON_ROLES.write,
  writes: true,
  summary: '作废已领取（未使用、未过期）的停车劵，写明原因；作废的一张退回该商户库存（多为车牌输错后重发）',
  async handler(ctx, input) {
    const g = await ctx.db
      .selectFrom('parking_coupon_given')
      .select(['id', 'state', 'merchant_id', 'coupon_id', sql<boolean>`valid_to <= now()`.as('expired')])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!g) return fail('停车劵不存在');
    if (g.state === 'U') fail('该停车劵已使用，不能作废');
    if (g.state === 'V') fail('该停车劵已作废');
    if (g.expired) fail('该停车劵已过期，不能作废');
    await ctx.db
      .updateTable('parking_coupon_given')
      .set({ state: 'V', voided_at: sql<Date>`now()`, void_reason: input.reason })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    const stock = await ctx.db
      .updateTable('parking_coupon_stock')
      .set({ left_count: sql`left_count + 1` })
      .where('rid', '=', ctx.rid)
      .where('merchant_id', '=', Number(g.merchant_id))
      .where('coupon_id', '=', Number(g.coupon_id))
      .returning('left_count')
      .executeTakeFirstOrThrow();
    return reply({ id: input.id, left_count: stock.left_count }, '已作废，已退回商户库存');
  },
});

type GivenFilters = {
  merchant_id?: number;
  coupon_id?: number;
  carlicense?: string;
  state?: string;
  create_time?: [string, string];
};

function given(db: Kysely<DB>, rid: number, f: GivenFilters) {
  let qb = db
    .selectFrom('parking_coupon_given as g')
    .innerJoin('merchants as m', (j) => j.onRef('m.rid', '=', 'g.rid').onRef('m.id', '=', 'g.merchant_id'))
    .innerJoin('parking_coupons as c', (j) => j.onRef('c.rid', '=', 'g.rid').onRef('c.id', '=', 'g.coupon_id'))
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'c.rid').onRef('l.id', '=', 'c.lot_id'))
    .where('g.rid', '=', rid);
  if (f.merchant_id) qb = qb.where('g.merchant_id', '=', f.merchant_id);
  if (f.coupon_id) qb = qb.where('g.coupon_id', '=', f.coupon_id);
  if (f.carlicense) qb = qb.where('g.carlicense', 'like', likePattern(f.carlicense.toUpperCase()));
  // 已过期 is a 已领取 past its day, read by the clock
  if (f.state === 'G') qb = qb.where('g.state', '=', 'G').where('g.valid_to', '>', sql<Date>`now()`);
  else if (f.state === 'E') qb = qb.where('g.state', '=', 'G').where('g.valid_to', '<=', sql<Date>`now()`);
  else if (f.state) qb = qb.where('g.state', '=', f.state as 'U' | 'V');
  if (f.create_time) qb = qb.where(withinDays('g.created_at', f.create_time));
  return qb;
}

const givenRows = (db: Kysely<DB>, rid: number, f: GivenFilters) =>
  given(db, rid, f)
    .select([
      'g.id',
      'g.code',
      'g.merchant_id',
      'm.merchant',
      'g.coupon_id',
      'c.title as coupon_title',
      'l.title as lot_title',
      'c.kind',
      'c.minutes',
      'g.carlicense',
      'g.valid_from',
      'g.valid_to',
      'g.used_at',
      'g.voided_at',
      'g.void_reason',
      'g.operator',
      'g.created_at',
    ])
    .select([
      sql<string>`c.amount::text`.as('face_amount'),
      sql<string>`c.rate::text`.as('rate'),
      sql<string>`g.used_amount::text`.as('used_amount'),
      sql<'G' | 'U' | 'V' | 'E'>`CASE WHEN g.state = 'G' AND g.valid_to <= now() THEN 'E' ELSE g.state END`.as('state'),
    ]);

type GivenRow = Awaited<ReturnType<ReturnType<typeof givenRows>['execute']>>[number];

const toGivenItem = (r: GivenRow): GivenCouponItem => ({
  id: Number(r.id),
  code: r.code,
  merchant_id: Number(r.merchant_id),
  merchant: r.merchant,
  coupon_id: Number(r.coupon_id),
  coupon_title: r.coupon_title,
  lot_title: r.lot_title,
  kind: r.kind as CouponKind,
  kind_ch: enumText(COUPON_KIND, r.kind),
  face: couponFace({ kind: r.kind as CouponKind, minutes: r.minutes, amount: r.face_amount, rate: r.rate }),
  carlicense: r.carlicense,
  valid_from: wireTime(r.valid_from),
  valid_to: wireTime(r.valid_to),
  state: r.state,
  state_ch: enumText(GIVEN_STATE, r.state),
  used_at: wireTime(r.used_at),
  used_amount: r.used_amount,
  voided_at: wireTime(r.voided_at),
  void_reason: r.void_reason,
  operator: r.operator,
  create_time: wireTime(r.created_at),
});

const receivelist = defineMethod('receivelist', {
  side: 'community',
  roles: PARK_COUPON_ROLES.read,
  writes: false,
  summary: '停车劵领取记录：已领取、已使用、已作废、已过期（已领取且过了有效期，按时间判断）；可按商户、停车劵、车牌、状态、发放日期筛选',
  async handler(ctx, input) {
    const page = await listPage(givenRows(ctx.db, ctx.rid, input), input, 'g.id');
    return { total: page.total, items: page.items.map(toGivenItem) };
  },
});

const receiveexport = defineExport('receiveexport', {
  roles: PARK_COUPON_ROLES.read,
  summary: '按当前筛选条件导出停车劵领取记录（Excel）',
  filename: () => `停车劵领取记录_${today()}.xlsx`,
  check: ({ db, rid }, input) => refuseOversizedExport(db, given(db, rid, input).select('g.id')),
  async sheet({ db, rid }, input) {
    const rows = await givenRows(db, rid, input).orderBy('g.id', input.sort).limit(EXPORT_MAX).execute();
    return sheetOf(
      '停车劵领取记录',
      [
        { header: '券号', value: (g) => g.code, width: 20 },
        { header: '商户', value: (g) => g.merchant, width: 16 },
        { header: '停车劵', value: (g) => g.coupon_title, width: 16 },
        { header: '面值', value: (g) => g.face },
        { header: '车牌号', value: (g) => g.carlicense, width: 12 },
        { header: '状态', value: (g) => g.state_ch },
        { header: '有效期起', value: (g) => g.valid_from, width: 20 },
        { header: '有效期止', value: (g) => g.valid_to, width: 20 },
        { header: '使用时间', value: (g) => g.used_at, width: 20 },
        { header: '减免(元)', value: (g) => g.used_amount },
        { header: '发放人', value: (g) => g.operator },
        { header: '发放时间', value: (g) => g.create_time, width: 20 },
      ],
      rows.map(toGivenItem),
    );
  },
});

export const couponMethods = [
  ...couponKindMethods,
  parkcouponstocklist,
  parkcouponorderadd,
  parkcouponorderlist,
  parkcouponorderexport,
  parkcoupongive,
  parkcouponvoid,
  receivelist,
  receiveexport,
];
