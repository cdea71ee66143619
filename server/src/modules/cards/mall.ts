/**
 * The points mall (积分商城; docs/product.md#member-cards): the community's mall settings
 * (shopmallinfo, shopmalledit), its two-level categories and goods with their specifications as
 * resources, and the members' orders. A redemption (mallorderadd) takes the member's points through
 * moveBonus and the specification's stock with a guarded update, in one transaction; the order then
 * moves as a workflow (发货, 完成, 取消), and a cancellation gives the points and the stock back.
 */
import {
  CARD_ROLES,
  mallCategory,
  mallGoods,
  mallOrder,
  mallOrderFlow,
  mallOrderStatusText,
  RELATION_CH,
  type GoodsItem,
  type GoodsSpec,
  type MallOrderItem,
  type MallSettings,
  type RelationCode,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type MethodDef } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { moveBonus } from './ledger.js';

registerDependents({
  mall_categories: '商品分类',
  mall_goods: '商品',
  mall_goods_specs: '商品规格',
  mall_orders: '兑换订单',
});

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);
const timeOrEmpty = (v: unknown) => (v instanceof Date ? wireTime(v) : typeof v === 'string' ? v : '');

// ---- settings ---------------------------------------------------------------------------------

const DEFAULT_SETTINGS: Omit<MallSettings, 'update_time'> = {
  enabled: 'N',
  name: '积分商城',
  points_per_yuan: 100,
  pickup: 'Y',
  delivery: 'N',
  pickup_address: '',
  pickup_hours: '',
  notice: '',
};

/** The community's mall settings, the defaults until they are first saved. */
export async function mallSettings(db: Kysely<DB>, rid: number): Promise<MallSettings> {
  const row = await db.selectFrom('mall_settings').selectAll().where('rid', '=', rid).executeTakeFirst();
  if (!row) return { ...DEFAULT_SETTINGS, update_time: '' };
  return {
    enabled: row.enabled,
    name: row.name,
    points_per_yuan: row.points_per_yuan,
    pickup: row.pickup,
    delivery: row.delivery,
    pickup_address: row.pickup_address,
    pickup_hours: row.pickup_hours,
    notice: row.notice,
    update_time: wireTime(row.updated_at),
  };
}

const shopmallinfo = defineMethod('shopmallinfo', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '积分商城设置：开关、名称、积分价值（多少积分折合1元）、领取方式（到物业自提/配送）、自提地点和时间、公告',
  async handler(ctx) {
    return mallSettings(ctx.db, ctx.rid);
  },
});

const shopmalledit = defineMethod('shopmalledit', {
  side: 'community',
  roles: CARD_ROLES.mall,
  writes: true,
  summary: '保存积分商城设置（至少一种领取方式；到物业自提须填写自提地点）',
  async handler(ctx, input) {
    const by = ctx.session.accountId;
    await ctx.db
      .insertInto('mall_settings')
      .values({ rid: ctx.rid, ...input, created_by: by, updated_by: by })
      .onConflict((oc) => oc.column('rid').doUpdateSet({ ...input, updated_at: sql`now()`, updated_by: by }))
      .execute();
    return reply(await mallSettings(ctx.db, ctx.rid), '保存成功');
  },
});

// ---- categories ---------------------------------------------------------------------------------

async function categoryOf(ctx: CommunityCtx, id: number, what: string) {
  const row = await ctx.db
    .selectFrom('mall_categories')
    .select(['id', 'name', 'parent_id'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? fail(`所选${what}不存在`);
}

async function countOf(ctx: CommunityCtx, table: 'mall_categories' | 'mall_goods', column: 'parent_id' | 'category_id', id: number) {
  const row = await ctx.db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', ctx.rid)
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return row.n;
}

const categoryMethods = defineResource(mallCategory, {
  table: 'mall_categories',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('mall_categories as t')
      .leftJoin('mall_categories as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
      .selectAll('t')
      .select(sql<string>`coalesce(p.name, '')`.as('parent_name'))
      .select(sql<number>`(SELECT count(*)::int FROM mall_goods g WHERE g.rid = t.rid AND g.category_id = t.id)`.as('goods_count'))
      .where('t.rid', '=', rid),
  order: (p) => [sql.ref(`${p}sort`)],
  row: (r) => ({ ...r, id: num(r.id), parent_id: r.parent_id === null ? null : num(r.parent_id), created_by: undefined }),
  unique: [{ on: ['parent_id', 'name'], message: (v) => `分类「${String(v.name)}」已存在` }],
  values: (input, ctx, before) => ({ ...input, ...(before ? {} : { created_by: ctx.session.accountId }) }),
  async check(ctx, values, before) {
    const parent = values.parent_id as number | null;
    if (parent === null) return;
    if (before && parent === num(before.id)) fail('上级分类不能是自己');
    const p = await categoryOf(ctx, parent, '上级分类');
    if (p.parent_id !== null) fail('上级分类只能选一级分类，分类最多两级');
    if (before && (await countOf(ctx, 'mall_categories', 'parent_id', num(before.id))) > 0) {
      fail('该分类下还有下级分类，不能再设上级分类');
    }
  },
  async beforeDelete(ctx, row) {
    const id = num(row.id);
    const children = await countOf(ctx, 'mall_categories', 'parent_id', id);
    if (children > 0) fail(`该分类下还有 ${children} 个下级分类，请先删除下级分类`);
    const goods = await countOf(ctx, 'mall_goods', 'category_id', id);
    if (goods > 0) fail(`该分类下还有 ${goods} 个商品，不能删除`);
  },
  replace: {
    small: defineMethod('cate_small_list', {
      side: 'community',
      roles: CARD_ROLES.staff,
      writes: false,
      summary: '商品分类下拉：一级分类在前，其下级分类随后（title 为「一级 / 二级」），含 parent_id',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('mall_categories as t')
          .leftJoin('mall_categories as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
          .select(['t.id', 't.parent_id', 't.name', 'p.name as parent_name'])
          .where('t.rid', '=', ctx.rid)
          .orderBy(sql`coalesce(p.sort, t.sort)`)
          .orderBy(sql`coalesce(t.parent_id, t.id)`)
          .orderBy(sql`t.parent_id IS NOT NULL`)
          .orderBy('t.sort')
          .orderBy('t.id')
          .execute();
        return {
          items: rows.map((r) => ({
            id: num(r.id),
            parent_id: r.parent_id === null ? null : num(r.parent_id),
            title: r.parent_name ? `${r.parent_name} / ${r.name}` : r.name,
          })),
        };
      },
    }),
  },
  summaries: {
    list: '商品分类列表（两级）：名称、上级分类、排序、商品数',
    add: '新增商品分类（上级只能是一级分类；同级名称唯一）',
    del: '删除商品分类（还有下级分类或商品时拒绝）',
  },
});

// ---- goods ------------------------------------------------------------------------------------

interface SpecInput {
  id?: number;
  name: string;
  price: string;
  points: number;
  stock: number;
  /** the stock the form showed: a sale since then is not undone by the save */
  stock_seen?: number;
}
/** The specifications an add or edit gives, kept beside its column values (they are rows of their own). */
const chosenSpecs = new WeakMap<object, SpecInput[]>();

/** 100 积分, or 100~300 积分 over the specifications. */
export function pointsText(specs: ReadonlyArray<Pick<GoodsSpec, 'points'>>): string {
  if (specs.length === 0) return '';
  const points = specs.map((s) => s.points);
  const [low, high] = [Math.min(...points), Math.max(...points)];
  return low === high ? `${low} 积分` : `${low}~${high} 积分`;
}

function toGoodsRow(r: Row): GoodsItem {
  const specs = ((r.spec_list as Row[] | null) ?? []).map((s) => ({
    id: num(s.id),
    name: String(s.name),
    price: String(s.price),
    points: num(s.points),
    stock: num(s.stock),
    sold: num(s.sold),
  }));
  const row = { ...(r as unknown as GoodsItem), id: num(r.id), category_id: num(r.category_id), specs };
  delete (row as Row).spec_list;
  delete (row as Row).created_by;
  return {
    ...row,
    points_text: pointsText(specs),
    stock: specs.reduce((n, s) => n + s.stock, 0),
    sold: specs.reduce((n, s) => n + s.sold, 0),
  };
}

/** Writes a goods' specifications: updates those kept, adds the new, deletes those left out (refused once redeemed). */
async function saveSpecs(ctx: CommunityCtx, goodsId: number, specs: SpecInput[], editing: boolean): Promise<void> {
  const db = ctx.db;
  const existing = editing
    ? await db
        .selectFrom('mall_goods_specs')
        .select(['id', 'name', 'stock'])
        .where('rid', '=', ctx.rid)
        .where('goods_id', '=', goodsId)
        .orderBy('id')
        .forUpdate()
        .execute()
    : [];
  const byId = new Map(existing.map((s) => [num(s.id), s]));
  for (const s of specs) if (s.id !== undefined && !byId.has(s.id)) fail('商品规格不存在');
  const kept = new Set(specs.flatMap((s) => (s.id === undefined ? [] : [s.id])));
  for (const gone of existing.filter((s) => !kept.has(num(s.id)))) {
    const used = await db
      .selectFrom('mall_orders')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('spec_id', '=', gone.id)
      .limit(1)
      .executeTakeFirst();
    if (used) fail(`规格「${gone.name}」已有兑换订单，不能删除，可将其库存设为 0`);
    await db.deleteFrom('mall_goods_specs').where('rid', '=', ctx.rid).where('id', '=', gone.id).execute();
  }
  for (const [i, s] of specs.entries()) {
    const columns = { name: s.name, price: s.price, points: s.points, sort: i };
    const before = s.id === undefined ? undefined : byId.get(s.id);
    if (before) {
      // the stock moves by what the form changed, so the redemptions since it opened stay counted
      const seen = s.stock_seen ?? before.stock;
      const stock = Math.max(0, before.stock + (s.stock - seen));
      await db
        .updateTable('mall_goods_specs')
        .set({ ...columns, stock })
        .where('rid', '=', ctx.rid)
        .where('id', '=', before.id)
        .execute();
    } else {
      await db
        .insertInto('mall_goods_specs')
        .values({ rid: ctx.rid, goods_id: goodsId, ...columns, stock: s.stock, created_by: ctx.session.accountId })
        .execute();
    }
  }
}

const goodsMethods = defineResource(mallGoods, {
  table: 'mall_goods',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('mall_goods as t')
      .innerJoin('mall_categories as c', (j) => j.onRef('c.rid', '=', 't.rid').onRef('c.id', '=', 't.category_id'))
      .leftJoin('mall_categories as p', (j) => j.onRef('p.rid', '=', 'c.rid').onRef('p.id', '=', 'c.parent_id'))
      .selectAll('t')
      .select(sql<string>`concat_ws(' / ', p.name, c.name)`.as('category_name'))
      .select(
        sql<Row[]>`(SELECT jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name, 'price', s.price::text, 'points', s.points,
            'stock', s.stock, 'sold', coalesce((SELECT sum(o.quantity) FROM mall_orders o
              WHERE o.rid = s.rid AND o.spec_id = s.id AND o.status <> 'C'), 0)) ORDER BY s.sort, s.id)
          FROM mall_goods_specs s WHERE s.rid = t.rid AND s.goods_id = t.id)`.as('spec_list'),
      )
      .where('t.rid', '=', rid),
  where: {
    // a top-level category finds its children's goods too
    category_id: (qb, value) =>
      qb.where((eb) =>
        eb.or([
          eb('t.category_id', '=', Number(value)),
          eb.exists(
            eb
              .selectFrom('mall_categories as x')
              .select('x.id')
              .whereRef('x.rid', '=', 't.rid')
              .whereRef('x.id', '=', 't.category_id')
              .where('x.parent_id', '=', Number(value)),
          ),
        ]),
      ),
  },
  order: (p) => [sql.ref(`${p}sort`)],
  row: toGoodsRow,
  unique: [{ on: ['name'], message: (v) => `商品「${String(v.name)}」已存在` }],
  small: { label: 'name' },
  values(input, ctx, before) {
    const { specs, ...columns } = input as Row & { specs: SpecInput[] };
    const values = { ...columns, ...(before ? {} : { created_by: ctx.session.accountId }) };
    chosenSpecs.set(values, specs);
    return values;
  },
  async check(ctx, values) {
    await categoryOf(ctx, Number(values.category_id), '商品分类');
  },
  async after(ctx, id, values, before) {
    await saveSpecs(ctx, id, chosenSpecs.get(values) ?? [], before !== undefined);
  },
  dependents: { mall_orders: '该商品已有兑换订单，不能删除，可将其下架' },
  summaries: {
    list: '商品列表：图片、名称、分类（一级分类含其下级）、规格（参考价、积分、库存、已兑换）、每人限兑、上架状态',
    add: '新增商品及其规格（名称在小区内唯一）',
    edit: '修改商品及其规格：库存按表单中的改动增减（打开表单后的兑换仍然计入）；已有订单的规格不能删除',
    del: '删除商品（已有兑换订单时拒绝，可下架）',
  },
});

// ---- orders -----------------------------------------------------------------------------------

const accountName = (column: string) => sql<string>`coalesce((SELECT a.name FROM accounts a WHERE a.id = ${sql.ref(column)}), '')`;

const orderQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('mall_orders as t')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
    .innerJoin('mall_goods as g', (j) => j.onRef('g.rid', '=', 't.rid').onRef('g.id', '=', 't.goods_id'))
    .selectAll('t')
    .select(['m.realname', 'm.mobile'])
    .select(sql<string>`coalesce(g.images[1], '')`.as('cover'))
    .select(accountName('t.created_by').as('created_by_name'))
    .select(accountName('t.shipped_by').as('shipped_by_name'))
    .select(accountName('t.done_by').as('done_by_name'))
    .select(accountName('t.cancelled_by').as('cancelled_by_name'))
    .where('t.rid', '=', rid);

function toOrderRow(r: Row): MallOrderItem {
  return {
    ...(r as unknown as MallOrderItem),
    id: num(r.id),
    member_id: num(r.member_id),
    goods_id: num(r.goods_id),
    spec_id: num(r.spec_id),
    price: String(r.price),
    status_ch: mallOrderStatusText(String(r.status), String(r.delivery_mode)),
    shipped_at: timeOrEmpty(r.shipped_at),
    done_at: timeOrEmpty(r.done_at),
    cancelled_at: timeOrEmpty(r.cancelled_at),
    created_by: String(r.created_by_name),
    shipped_by: String(r.shipped_by_name),
    done_by: String(r.done_by_name),
    cancelled_by: String(r.cancelled_by_name),
    ...{ created_by_name: undefined, shipped_by_name: undefined, done_by_name: undefined, cancelled_by_name: undefined },
  };
}

const orderListMethods = defineResource(mallOrder, {
  table: 'mall_orders',
  query: (db, rid) => orderQuery(db as Kysely<DB>, rid),
  where: {
    keyword: (qb, value) => {
      const text = String(value).trim();
      return qb.where((eb) =>
        eb.or([eb('m.realname', containsOperator(text), likePattern(text)), eb('m.mobile', 'like', likePattern(text))]),
      );
    },
  },
  row: toOrderRow,
  summaries: {
    list: '积分商城兑换订单：按订单号、会员姓名或手机号、商品、状态、兑换日期筛选',
    info: '兑换订单详情：商品与规格、数量、积分、领取方式、收货信息、快递、各步的人和时间',
    export: '按当前筛选条件导出兑换订单（Excel）',
  },
});

async function orderRow(ctx: CommunityCtx, id: number): Promise<MallOrderItem> {
  const row = await orderQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirstOrThrow();
  const wire = { ...row, create_time: wireTime(row.created_at), created_at: undefined };
  return toOrderRow(wire as unknown as Row);
}

const orderFlowMethods = defineWorkflow(mallOrderFlow, {
  table: 'mall_orders',
  answer: orderRow,
  logRoles: CARD_ROLES.mall,
  transitions: {
    ship: {
      async run(_ctx, row) {
        if (row.delivery_mode !== 'delivery') fail('到物业自提的订单无需发货，会员自提后请点「完成」');
      },
      set: (ctx, input) => ({
        express_company: input.express_company,
        express_no: input.express_no,
        shipped_at: sql`now()`,
        shipped_by: ctx.session.accountId,
      }),
      message: '已发货',
    },
    done: {
      async run(_ctx, row) {
        if (row.status === 'P' && row.delivery_mode === 'delivery') fail('配送的订单须先发货');
      },
      set: (ctx) => ({ done_at: sql`now()`, done_by: ctx.session.accountId }),
      message: '订单已完成',
    },
    cancel: {
      // the order is locked (FOR UPDATE); the member's points, then the specification's stock, as a redemption takes them
      async run(ctx, row) {
        await moveBonus(ctx.db, {
          rid: ctx.rid,
          memberId: num(row.member_id),
          points: num(row.points_total),
          orderid: String(row.order_no),
          payCate: '兑换退回',
          source: '积分商城',
          actionUser: ctx.session.name,
        });
        await ctx.db
          .updateTable('mall_goods_specs')
          .set({ stock: sql`stock + ${num(row.quantity)}::int` })
          .where('rid', '=', ctx.rid)
          .where('id', '=', num(row.spec_id))
          .execute();
      },
      set: (ctx, input) => ({ cancel_reason: input.reason, cancelled_at: sql`now()`, cancelled_by: ctx.session.accountId }),
      message: '订单已取消，积分和库存已退回',
    },
  },
  summaries: {
    mallordership: '兑换订单发货（配送订单：快递公司和单号）',
    mallorderdone: '兑换订单完成（会员已自提或已签收）',
    mallordercancel: '取消兑换订单（仅待发货/待自提）：积分退回会员、库存退回规格',
    mallorderlog: '兑换订单的处理记录（时间线）',
  },
});

/** 'DH' + the business day + the order's id: DH20261201000042. */
const orderNo = (id: number) => `DH${today().replaceAll('-', '')}${String(id).padStart(6, '0')}`;

const mallorderadd = defineMethod('mallorderadd', {
  side: 'community',
  roles: CARD_ROLES.mall,
  writes: true,
  summary:
    '为会员兑换商品（物业代兑）：商城须开启、商品上架、在每人限兑之内；一个事务内扣会员积分（积分不足拒绝）和规格库存（库存不足拒绝）；同一 idempotency_key 只兑换一次',
  handler: (ctx, input) =>
    onceByKey(ctx, 'mallorderadd', input.idempotency_key, async () => {
      const settings = await mallSettings(ctx.db, ctx.rid);
      if (settings.enabled !== 'Y') fail('积分商城未开启');
      if (input.delivery_mode === 'pickup' && settings.pickup !== 'Y') fail('本商城不支持到物业自提');
      if (input.delivery_mode === 'delivery' && settings.delivery !== 'Y') fail('本商城不支持配送');
      // the member first (their orders are counted under this lock), then the specification's stock
      const member = await ctx.db
        .selectFrom('members')
        .select(['id', 'realname', 'mobile'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.member_id)
        .forUpdate()
        .executeTakeFirst();
      if (!member) return fail('会员不存在');
      const spec = await ctx.db
        .selectFrom('mall_goods_specs as s')
        .innerJoin('mall_goods as g', (j) => j.onRef('g.rid', '=', 's.rid').onRef('g.id', '=', 's.goods_id'))
        .select(['s.id', 's.name', 's.price', 's.points', 'g.id as goods_id', 'g.name as goods_name', 'g.status', 'g.limit_per_member'])
        .where('s.rid', '=', ctx.rid)
        .where('s.id', '=', input.spec_id)
        .executeTakeFirst();
      if (!spec) return fail('商品规格不存在');
      if (spec.status !== 'Y') fail(`「${spec.goods_name}」已下架`);
      if (spec.limit_per_member > 0) {
        const had = await ctx.db
          .selectFrom('mall_orders')
          .select(sql<number>`coalesce(sum(quantity), 0)::int`.as('n'))
          .where('rid', '=', ctx.rid)
          .where('member_id', '=', input.member_id)
          .where('goods_id', '=', spec.goods_id)
          .where('status', '<>', 'C')
          .executeTakeFirstOrThrow();
        if (had.n + input.quantity > spec.limit_per_member) {
          fail(`「${spec.goods_name}」每人限兑 ${spec.limit_per_member} 件，${member.realname} 已兑换 ${had.n} 件`);
        }
      }
      const taken = await ctx.db
        .updateTable('mall_goods_specs')
        .set({ stock: sql`stock - ${input.quantity}::int` })
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.spec_id)
        .where('stock', '>=', input.quantity)
        .returning('stock')
        .executeTakeFirst();
      if (!taken) fail('库存不足');
      const { id } = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('mall_orders', 'id'))::text AS id`
        .execute(ctx.db)
        .then((r) => r.rows[0]!);
      const orderId = Number(id);
      const order_no = orderNo(orderId);
      const pointsTotal = spec.points * input.quantity;
      const after = await moveBonus(ctx.db, {
        rid: ctx.rid,
        memberId: input.member_id,
        points: -pointsTotal,
        orderid: order_no,
        payCate: '积分兑换',
        source: '积分商城',
        actionUser: ctx.session.name,
      });
      await ctx.db
        .insertInto('mall_orders')
        .values({
          rid: ctx.rid,
          id: orderId,
          order_no,
          member_id: input.member_id,
          goods_id: spec.goods_id,
          spec_id: spec.id,
          goods_name: spec.goods_name,
          spec_name: spec.name,
          price: spec.price,
          points: spec.points,
          quantity: input.quantity,
          points_total: pointsTotal,
          delivery_mode: input.delivery_mode,
          contact_name: input.contact_name || member.realname,
          contact_mobile: input.contact_mobile || member.mobile,
          address: input.address,
          remark: input.remark,
          created_by: ctx.session.accountId,
        })
        .execute();
      await writeFlowLog(ctx, mallOrderFlow.def, orderId, {
        transition: 'create',
        from: '',
        to: 'P',
        input: { goods: `${spec.goods_name} / ${spec.name}`, quantity: input.quantity, points_total: pointsTotal },
      });
      return reply({ id: orderId, order_no, points_total: pointsTotal, bonus_after: after ?? 0 }, `兑换成功，扣除 ${pointsTotal} 积分`);
    }),
});

const mall_spec_small_list = defineMethod('mall_spec_small_list', {
  side: 'community',
  roles: CARD_ROLES.mall,
  writes: false,
  summary: '可兑换的规格（上架商品）：「商品 / 规格」、积分、库存、每人限兑',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('mall_goods_specs as s')
      .innerJoin('mall_goods as g', (j) => j.onRef('g.rid', '=', 's.rid').onRef('g.id', '=', 's.goods_id'))
      .select(['s.id', 's.name', 's.points', 's.stock', 'g.id as goods_id', 'g.name as goods_name', 'g.limit_per_member'])
      .where('s.rid', '=', ctx.rid)
      .where('g.status', '=', 'Y')
      .orderBy('g.sort')
      .orderBy('g.id')
      .orderBy('s.sort')
      .orderBy('s.id')
      .execute();
    return {
      items: rows.map((r) => ({
        id: num(r.id),
        title: `${r.goods_name} / ${r.name}`,
        goods_id: num(r.goods_id),
        points: r.points,
        stock: r.stock,
        limit_per_member: r.limit_per_member,
      })),
    };
  },
});

const mallmembers = defineMethod('mallmembers', {
  side: 'community',
  roles: CARD_ROLES.mall,
  writes: false,
  summary: '房屋的在住人员及其积分（为会员兑换时选择会员）',
  async handler(ctx, input) {
    const rows = await ctx.db
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['m.id', 'm.realname', 'm.mobile', 'm.bonus', 'rm.relation'])
      .where('rm.rid', '=', ctx.rid)
      .where('rm.hid', '=', input.hid)
      .where('rm.status', '=', 'Y')
      .orderBy(sql`rm.relation <> 'owner'`)
      .orderBy('rm.id')
      .execute();
    return {
      items: rows.map((r) => ({
        id: num(r.id),
        realname: r.realname,
        mobile: r.mobile,
        relation_ch: RELATION_CH[r.relation as RelationCode] ?? r.relation,
        bonus: r.bonus,
      })),
    };
  },
});

export const mallMethods: MethodDef[] = [
  shopmallinfo,
  shopmalledit,
  ...categoryMethods,
  ...goodsMethods,
  ...orderListMethods,
  ...orderFlowMethods,
  mallorderadd,
  mall_spec_small_list,
  mallmembers,
];
