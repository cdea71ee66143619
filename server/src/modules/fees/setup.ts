import {
  BIND_SCOPE_CH,
  COST_TYPE_CH,
  normalizePlate,
  PARKING_SCOPES,
  SPACE_STATUS,
  enumText,
  type BindScopeName,
  costType,
  feeItem,
  FEE_ROLES,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';
import { feeSettings } from './settings.js';

export const costTypeMethods = defineResource(costType, {
  table: 'fee_cost_types',
  query: (db, rid) =>
    db
      .selectFrom('fee_cost_types as t')
      .select(['t.id', 't.cost_type', 't.title', 't.sort', 't.created_at'])
      .select(sql<number>`(SELECT count(*)::int FROM fee_items i WHERE i.rid = t.rid AND i.cost_type = t.cost_type)`.as('item_count'))
      .where('t.rid', '=', rid),
  // by the types' own order, as the bill categories' dropdown (a type added later, 活动费, comes after the built-in ones)
  order: (p) => [sql.raw(`${p}sort`)],
  unique: [
    { on: ['cost_type'], message: (v) => `费用类型编码“${String(v.cost_type)}”已存在` },
    { on: ['title'], message: (v) => `费用类型“${String(v.title)}”已存在` },
  ],
  async beforeDelete(ctx, row) {
    const used = await ctx.db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('cost_type', '=', row.cost_type as string)
      .executeTakeFirst();
    if (used) fail('该费用类型下还有收费项目，不能删除');
  },
  summaries: {
    list: '费用类型（物业费、停车费、水费、电费、燃气费、租金、押金、其他及自定义），含各类型的收费项目数',
    add: '新增费用类型：编码（小写字母）与名称，本小区内不可重复',
    edit: '修改费用类型的名称和排序（编码不可改）',
    del: '删除费用类型；仍有收费项目使用时拒绝',
  },
});

const feebillCateSmallList = defineMethod('feebill_cate_small_list', {
  side: 'community',
  roles: FEE_ROLES.read,
  writes: false,
  summary: '账单分类（费用类型）下拉：cost_type、title',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('fee_cost_types')
      .select(['cost_type', 'title'])
      .where('rid', '=', ctx.rid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items };
  },
});

const bindCount = sql<number>`(SELECT count(*)::int FROM fee_bindings fb WHERE fb.rid = t.rid AND fb.item_id = t.id)`;

export const feeItemMethods = defineResource(feeItem, {
  table: 'fee_items',
  query: (db, rid) =>
    db
      .selectFrom('fee_items as t')
      .leftJoin('fee_cost_types as c', (j) => j.onRef('c.rid', '=', 't.rid').onRef('c.cost_type', '=', 't.cost_type'))
      .selectAll('t')
      .select(['c.title as cost_type_title', bindCount.as('bind_count')])
      .where('t.rid', '=', rid),
  where: { keyword: (qb, v) => qb.where('t.title', 'ilike', likePattern(String(v))) },
  row: (i) => ({ ...i, cost_type_title: i.cost_type_title ?? COST_TYPE_CH[i.cost_type] ?? i.cost_type }),
  unique: [{ on: ['title'], message: () => '收费项目名称已存在' }],
  async values(v, ctx) {
    const due_day = v.due_day ?? (await feeSettings(ctx.db, ctx.rid)).default_due_day;
    return { ...v, due_day, default_quantity: v.default_quantity ?? '0', late_fee_rate: v.late_fee_rate ?? '0' };
  },
  async check(ctx, values, before) {
    const type = await ctx.db
      .selectFrom('fee_cost_types')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('cost_type', '=', values.cost_type as string)
      .executeTakeFirst();
    if (!type) fail('费用类型不存在');
    if (before) await checkNotParkingArea(ctx.db, ctx.rid, before.id as number, values.pricing as string);
  },
  async beforeDelete(ctx, row) {
    const billed = await ctx.db
      .selectFrom('fee_bills')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('item_id', '=', row.id as number)
      .limit(1)
      .executeTakeFirst();
    if (billed) fail('该收费项目已有账单，不能删除，可将其停用');
  },
  summaries: {
    list: '收费项目列表：计费方式、单价、周期、缴费日、滞纳金规则、绑定数；可按费用类型、关键字、状态筛选',
    info: '一个收费项目的全部设置（编辑页）',
    add: '新增收费项目：计费方式（建筑面积/套内面积/固定/抄表/数量）、单价（4位小数）、周期月数、缴费日、滞纳金（日费率‰、宽限天数、封顶%）',
    edit: '修改收费项目；已出的账单按出账时的单价和金额保留，不受影响',
    del: '删除收费项目；已有账单时拒绝（可改为停用）',
  },
});

const feethinglist = defineMethod('feethinglist', {
  side: 'community',
  roles: FEE_ROLES.read,
  writes: false,
  summary: '启用中的收费项目下拉：id、title、cost_type、pricing、unit_price',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('fee_items')
      .select(['id', 'title', 'cost_type', 'pricing', 'unit_price'])
      .where('rid', '=', ctx.rid)
      .where('status', '=', 'Y');
    if (input.cost_type) qb = qb.where('cost_type', '=', input.cost_type);
    return { items: await qb.orderBy('id').execute() };
  },
});

/** Title of a binding's target, e.g. '3号楼' or '3号楼2单元1102'. */
export function targetTitleSql() {
  return sql<string>`CASE fb.scope
    WHEN 'region' THEN (SELECT title FROM regions WHERE id = fb.rid)
    WHEN 'building' THEN (SELECT title FROM buildings WHERE rid = fb.rid AND id = fb.ref_id)
    WHEN 'unit' THEN (SELECT b.title || u.title FROM units u JOIN buildings b ON b.rid = u.rid AND b.id = u.bid WHERE u.rid = fb.rid AND u.id = fb.ref_id)
    WHEN 'category' THEN (SELECT title FROM room_categories WHERE rid = fb.rid AND id = fb.ref_id)
    WHEN 'room' THEN (SELECT address FROM rooms WHERE rid = fb.rid AND id = fb.ref_id)
    WHEN 'lot' THEN (SELECT title FROM parking_lots WHERE rid = fb.rid AND id = fb.ref_id)
    WHEN 'space' THEN (SELECT l.title || ' ' || s.title FROM parking_spaces s JOIN parking_lots l ON l.rid = s.rid AND l.id = s.lot_id
          WHERE s.rid = fb.rid AND s.id = fb.ref_id)
    WHEN 'car' THEN CASE WHEN fb.ref_id = 0 THEN '全部车辆' ELSE (SELECT carlicense FROM cars WHERE rid = fb.rid AND id = fb.ref_id) END
  END`;
}

const bindfeelist = defineMethod('bindfeelist', {
  side: 'community',
  roles: FEE_ROLES.read,
  writes: false,
  summary: '收费项目绑定：按全小区、楼栋、单元、房屋类别或单个房屋；停车费按停车场、单个车位或车辆',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('fee_bindings as fb')
      .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'fb.rid').onRef('i.id', '=', 'fb.item_id'))
      .select(['fb.id', 'fb.item_id', 'i.title as item_title', 'fb.scope', 'fb.ref_id', 'fb.created_by', 'fb.created_at'])
      .select(targetTitleSql().as('target_title'))
      .where('fb.rid', '=', ctx.rid);
    if (input.item_id) qb = qb.where('fb.item_id', '=', input.item_id);
    if (input.scope) qb = qb.where('fb.scope', '=', input.scope);
    const page = await listPage(qb, input, 'fb.id');
    return {
      total: page.total,
      items: page.items.map((b) => ({
        id: b.id,
        item_id: b.item_id,
        item_title: b.item_title,
        scope: b.scope,
        scope_ch: BIND_SCOPE_CH[b.scope],
        ref_id: b.ref_id,
        target_title: b.target_title ?? '',
        create_user: b.created_by,
        create_time: wireTime(b.created_at),
      })),
    };
  },
});

const SCOPE_TABLE: Record<
  Exclude<BindScopeName, 'region'>,
  'buildings' | 'units' | 'room_categories' | 'rooms' | 'parking_lots' | 'parking_spaces' | 'cars'
> = {
  building: 'buildings',
  unit: 'units',
  category: 'room_categories',
  room: 'rooms',
  lot: 'parking_lots',
  space: 'parking_spaces',
  car: 'cars',
};

const PARKING_AREA_MSG = '按面积计费的收费项目不能绑定到停车场、车位或车辆，请改用固定金额或数量计费';

/** An item billed per space or car cannot be priced by a room's area. */
async function checkNotParkingArea(db: Kysely<DB>, rid: number, itemId: number, pricing: string) {
  if (!pricing.startsWith('area')) return;
  const bound = await db
    .selectFrom('fee_bindings')
    .select('id')
    .where('rid', '=', rid)
    .where('item_id', '=', itemId)
    .where('scope', 'in', [...PARKING_SCOPES])
    .executeTakeFirst();
  if (bound) fail(PARKING_AREA_MSG);
}

const bindfeeadd = defineMethod('bindfeeadd', {
  side: 'community',
  roles: FEE_ROLES.setup,
  writes: true,
  summary:
    '绑定收费项目：scope region（全小区，ref_ids 为空）或 building/unit/category/room 加目标 id 列表；停车费 lot（停车场内已售/已租且有房屋的车位）、space（车位）、car（车辆，ref_ids 为空表示全部车辆），每个车位/车辆一张账单，计入其房屋；已绑定的跳过',
  async handler(ctx, input) {
    const item = await ctx.db
      .selectFrom('fee_items')
      .select(['id', 'pricing'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.item_id)
      .executeTakeFirst();
    if (!item) fail('收费项目不存在');
    if (PARKING_SCOPES.includes(input.scope) && item!.pricing.startsWith('area')) fail(PARKING_AREA_MSG);
    let refIds = [0];
    if (input.scope !== 'region' && !(input.scope === 'car' && input.ref_ids.length === 0)) {
      if (input.ref_ids.length === 0) fail('请选择要绑定的对象');
      refIds = [...new Set(input.ref_ids)];
      const found = await ctx.db
        .selectFrom(SCOPE_TABLE[input.scope])
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', 'in', refIds)
        .execute();
      if (found.length !== refIds.length) fail('所选的绑定对象不存在');
    }
    const res = await ctx.db
      .insertInto('fee_bindings')
      .values(refIds.map((ref_id) => ({ rid: ctx.rid, item_id: input.item_id, scope: input.scope, ref_id, created_by: ctx.session.name })))
      .onConflict((oc) => oc.columns(['rid', 'item_id', 'scope', 'ref_id']).doNothing())
      .executeTakeFirst();
    const added = Number(res.numInsertedOrUpdatedRows ?? 0);
    return reply({ added }, added ? `绑定成功，新增 ${added} 条` : '所选对象都已绑定');
  },
});

const bindfeedel = defineMethod('bindfeedel', {
  side: 'community',
  roles: FEE_ROLES.setup,
  writes: true,
  summary: '解除一条绑定（已出的账单不受影响）',
  async handler(ctx, input) {
    const res = await ctx.db.deleteFrom('fee_bindings').where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) fail('绑定不存在');
    return reply(null, '删除成功');
  },
});

const bindfeetargets = defineMethod('bindfeetargets', {
  side: 'community',
  roles: FEE_ROLES.setup,
  writes: false,
  summary:
    '停车费绑定的可选对象：scope=lot 停车场；space 车位（可按停车场、车位号或车牌筛选，含状态与所属房屋）；car 车辆（可按车牌筛选）；最多 200 条',
  async handler(ctx, input) {
    if (input.scope === 'lot') {
      const rows = await ctx.db
        .selectFrom('parking_lots as l')
        .select(['l.id', 'l.title', 'l.address'])
        .select(
          sql<number>`(SELECT count(*)::int FROM parking_spaces s WHERE s.rid = l.rid AND s.lot_id = l.id AND s.status <> 'idle' AND s.hid IS NOT NULL)`.as(
            'n',
          ),
        )
        .where('l.rid', '=', ctx.rid)
        .orderBy('l.id')
        .execute();
      return { items: rows.map((l) => ({ id: l.id, title: l.title, address: `${l.address}（计费车位 ${l.n} 个）` })) };
    }
    const address = sql<string>`coalesce(r.address, '')`;
    if (input.scope === 'space') {
      let qb = ctx.db
        .selectFrom('parking_spaces as s')
        .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
        .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 's.rid').onRef('r.id', '=', 's.hid'))
        .select(['s.id', 's.title', 'l.title as lot', 's.status', 's.carlicense', address.as('address')])
        .where('s.rid', '=', ctx.rid);
      if (input.lot_id) qb = qb.where('s.lot_id', '=', input.lot_id);
      if (input.keyword) {
        const p = likePattern(input.keyword);
        qb = qb.where((eb) => eb.or([eb('s.title', 'ilike', p), eb('s.carlicense', 'ilike', likePattern(normalizePlate(input.keyword!)))]));
      }
      const rows = await qb.orderBy('s.lot_id').orderBy('s.title').limit(200).execute();
      return {
        items: rows.map((s) => ({
          id: s.id,
          title: `${s.lot} ${s.title}`,
          address: [enumText(SPACE_STATUS, s.status), s.address || '无房屋，不计费', s.carlicense].filter(Boolean).join(' · '),
        })),
      };
    }
    let qb = ctx.db
      .selectFrom('cars as c')
      .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'c.rid').onRef('r.id', '=', 'c.hid'))
      .select(['c.id', 'c.carlicense', 'c.status', address.as('address')])
      .where('c.rid', '=', ctx.rid);
    if (input.keyword) qb = qb.where('c.carlicense', 'ilike', likePattern(normalizePlate(input.keyword)));
    const rows = await qb.orderBy('c.id').limit(200).execute();
    return { items: rows.map((c) => ({ id: c.id, title: c.carlicense, address: c.status === 'Y' ? c.address : `${c.address} · 停用` })) };
  },
});

export const setupMethods = [
  ...costTypeMethods,
  feebillCateSmallList,
  ...feeItemMethods,
  feethinglist,
  bindfeelist,
  bindfeeadd,
  bindfeedel,
  bindfeetargets,
];
