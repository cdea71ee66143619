/**
 * Parking lots, booths, lanes and gate texts (/carpark/carparklist; docs/product.md#carpark) as
 * resources: a lot's settings and monthly prices, its booths' rules, their lanes with the device's
 * heartbeat, and the words shown at the gate per event.
 */
import {
  GATE_EVENT,
  GATE_TEXT_DEFAULTS,
  LANE_ONLINE_MS,
  booth,
  enumText,
  lane,
  lot,
  type GateEvent,
  type GateTextItem,
} from '@wuye/contract';
import { CARPARK_ROLES } from '@wuye/contract/carpark/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { deviceDirection, laneDirection } from '../../devices/gates.js';
import { registerDependents } from '../../lib/dependents.js';
import { linkDeviceAsset } from '../assets/ledger.js';
import { defineResource } from '../../lib/resource.js';

registerDependents({ parking_lots: '停车场', parking_booths: '岗亭', cars: '车辆', parking_lists: '黑白名单' });

export const lotMethods = defineResource(lot, {
  table: 'parking_lots',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('parking_lots as t')
      .selectAll('t')
      .select(sql<number>`(SELECT count(*)::int FROM parking_spaces s WHERE s.rid = t.rid AND s.lot_id = t.id)`.as('space_count'))
      .select(
        sql<number>`(SELECT count(*)::int FROM parking_spaces s WHERE s.rid = t.rid AND s.lot_id = t.id AND s.status = 'idle')`.as(
          'idle_count',
        ),
      )
      .select(sql<number>`(SELECT count(*)::int FROM parking_booths b WHERE b.rid = t.rid AND b.lot_id = t.id)`.as('booth_count'))
      .select(
        sql<number>`(SELECT count(*)::int FROM devices n JOIN parking_booths b ON b.rid = n.rid AND b.id = n.booth_id
          WHERE n.rid = t.rid AND b.lot_id = t.id)`.as('lane_count'),
      )
      .where('t.rid', '=', rid),
  row: (r) => ({ ...r, id: Number(r.id), created_by: undefined }),
  unique: [
    { on: ['code'], message: (v) => `停车场编号 ${String(v.code)} 已存在` },
    { on: ['title'], message: (v) => `停车场「${String(v.title)}」已存在` },
  ],
  async beforeDelete(ctx, row) {
    const id = Number(row.id);
    const spaces = await ctx.db
      .selectFrom('parking_spaces')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('lot_id', '=', id)
      .executeTakeFirstOrThrow();
    if (spaces.n > 0) fail(`该停车场下还有 ${spaces.n} 个车位，不能删除`);
    const cars = await ctx.db
      .selectFrom('cars')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('lot_id', '=', id)
      .executeTakeFirstOrThrow();
    if (cars.n > 0) fail(`该停车场下还有 ${cars.n} 辆车，不能删除`);
  },
  dependents: { parking_booths: '该停车场下还有岗亭，请先删除岗亭', parking_records: '该停车场已有进出记录，不能删除' },
  replace: {
    // every form that picks a lot (cars: owner management too; fee standards; coupons) reads it;
    // merchants see no lots
    small: defineMethod('carpark_small_list', {
      side: 'community',
      roles: 'staff',
      writes: false,
      summary: '停车场下拉（id、title「名称」）',
      async handler(ctx) {
        const items = await ctx.db.selectFrom('parking_lots').select(['id', 'title']).where('rid', '=', ctx.rid).orderBy('id').execute();
        return { items: items.map((l) => ({ id: Number(l.id), title: l.title })) };
      },
    }),
  },
  summaries: {
    list: '停车场列表：编号、名称、地上/地下、总车位数、月租过期宽限天数、缴费后离场分钟数、月租车是否占用空闲车位、到期提醒天数、各车型月租价、已登记与空闲车位数、岗亭与车道数',
    add: '新增停车场（编号与名称在小区内唯一；月租价按车型，续费按此计价）',
    del: '删除停车场（还有车位、车辆、岗亭或进出记录时拒绝）',
  },
});

/** A booth of the community, or the refusal. */
async function boothOf(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('parking_booths')
    .select(['id', 'lot_id'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? fail('所选岗亭不存在');
}

/**
 * The community's lot `id` (id and title), or the refusal 所选停车场不存在 (another community's lot
 * too); `lock` holds it until the call's transaction ends (a batch of its spaces).
 */
export async function lotOf(ctx: CommunityCtx, id: number, lock = false) {
  const qb = ctx.db.selectFrom('parking_lots').select(['id', 'title']).where('rid', '=', ctx.rid).where('id', '=', id);
  const row = await (lock ? qb.forUpdate() : qb).executeTakeFirst();
  return row ?? fail('所选停车场不存在');
}

export const boothMethods = defineResource(booth, {
  table: 'parking_booths',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('parking_booths as t')
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 't.rid').onRef('l.id', '=', 't.lot_id'))
      .selectAll('t')
      .select('l.title as lot_title')
      .select(sql<number>`(SELECT count(*)::int FROM devices n WHERE n.rid = t.rid AND n.booth_id = t.id)`.as('lane_count'))
      .where('t.rid', '=', rid),
  row: (r) => ({ ...r, id: Number(r.id), lot_id: Number(r.lot_id), created_by: undefined }),
  unique: [{ on: ['lot_id', 'title'], message: (v) => `该停车场已有岗亭「${String(v.title)}」` }],
  async check(ctx, values) {
    await lotOf(ctx, Number(values.lot_id));
  },
  dependents: { devices: '该岗亭下还有车道，请先删除车道' },
  replace: {
    small: defineMethod('parkingbooth_small_list', {
      side: 'community',
      roles: CARPARK_ROLES.staff,
      writes: false,
      summary: '岗亭下拉（id、title「停车场 / 岗亭」）',
      async handler(ctx) {
        const qb = ctx.db
          .selectFrom('parking_booths as b')
          .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'b.rid').onRef('l.id', '=', 'b.lot_id'))
          .select(['b.id', sql<string>`l.title || ' / ' || b.title`.as('title')])
          .where('b.rid', '=', ctx.rid);
        const items = await qb.orderBy('b.lot_id').orderBy('b.id').execute();
        return { items: items.map((b) => ({ id: Number(b.id), title: b.title })) };
      },
    }),
  },
  summaries: {
    list: '岗亭列表：所属停车场、名称与规则（临时车是否可进、临时车进场是否需确认、岗亭是否收费、在场车可否再次进场、无入场记录可否出场）、车道数',
  },
});

/** Lanes are the gate family of the one devices table (docs/product.md#parking-gates), each of a booth. */
export const laneMethods = defineResource(lane, {
  table: 'devices',
  rows: { family: 'gate' },
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('devices as t')
      .innerJoin('parking_booths as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.booth_id'))
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'b.rid').onRef('l.id', '=', 'b.lot_id'))
      .select(['t.id', 't.rid', 't.booth_id', 't.code', 't.title', 't.vendor', 't.remark', 't.last_heartbeat', 't.created_at'])
      .select(laneDirection('t').as('direction'))
      .select(['b.title as booth_title', 'b.lot_id', 'l.title as lot_title'])
      .select(
        sql<string>`CASE WHEN t.last_heartbeat > now() - ${`${LANE_ONLINE_MS / 1000} seconds`}::interval THEN 'Y' ELSE 'N' END`.as(
          'online',
        ),
      )
      .where('t.rid', '=', rid)
      .where('t.family', '=', 'gate'),
  where: {
    lot_id: (qb, v) => qb.where('b.lot_id', '=', v),
    direction: (qb, v) => qb.where('t.direction', '=', deviceDirection(v)),
  },
  row: (r) => ({
    ...r,
    id: Number(r.id),
    booth_id: Number(r.booth_id),
    lot_id: Number(r.lot_id),
    last_heartbeat: r.last_heartbeat ?? '',
  }),
  values: (input, ctx, before) => ({
    ...input,
    ...('direction' in input ? { direction: deviceDirection(input.direction) } : {}),
    ...(before ? {} : { created_by: ctx.session.accountId }),
  }),
  // the code is unique among all the community's devices, doors too
  unique: [{ on: ['code'], message: (v) => `设备编号 ${String(v.code)} 已存在` }],
  async check(ctx, values) {
    await boothOf(ctx, Number(values.booth_id));
  },
  // a gate is an asset of the equipment ledger too
  async after(ctx, id, _values, before) {
    if (!before) await linkDeviceAsset(ctx.db, ctx.rid, id, ctx.session);
  },
  summaries: {
    list: '车道列表：所属停车场与岗亭、车道编号（小区内唯一）、名称、方向（入口/出口）、设备厂商、最后心跳时间与在线状态（2 分钟内有心跳为在线），可按停车场、岗亭、编号、方向筛选',
  },
});

/** The lot's texts at the gate: its own where it changed them, the defaults otherwise. */
export async function gateTexts(db: Kysely<DB>, rid: number, lotId: number): Promise<GateTextItem[]> {
  const own = await db
    .selectFrom('parking_gate_texts')
    .select(['event', 'content'])
    .where('rid', '=', rid)
    .where('lot_id', '=', lotId)
    .execute();
  const byEvent = new Map(own.map((r) => [r.event, r.content]));
  return (Object.keys(GATE_TEXT_DEFAULTS) as GateEvent[]).map((event) => {
    const content = byEvent.get(event);
    return {
      event,
      event_ch: enumText(GATE_EVENT, event),
      content: content ?? GATE_TEXT_DEFAULTS[event],
      is_default: content === undefined,
    };
  });
}

const gatetextlist = defineMethod('gatetextlist', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: false,
  summary:
    '停车场的闸口显示与播报文字：月租车入场、出场、即将到期、已过期，临时车入场、出场、未缴费（未改过的为默认文字；{plate}、{days}、{fee} 在闸口填入）',
  async handler(ctx, input) {
    await lotOf(ctx, input.lot_id);
    return { items: await gateTexts(ctx.db, ctx.rid, input.lot_id) };
  },
});

const gatetextedit = defineMethod('gatetextedit', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: true,
  summary: '修改停车场某事件的闸口文字（内容留空恢复默认）',
  async handler(ctx, input) {
    await lotOf(ctx, input.lot_id);
    if (input.content === '' || input.content === GATE_TEXT_DEFAULTS[input.event]) {
      await ctx.db
        .deleteFrom('parking_gate_texts')
        .where('rid', '=', ctx.rid)
        .where('lot_id', '=', input.lot_id)
        .where('event', '=', input.event)
        .execute();
    } else {
      await ctx.db
        .insertInto('parking_gate_texts')
        .values({ rid: ctx.rid, lot_id: input.lot_id, event: input.event, content: input.content })
        .onConflict((oc) => oc.columns(['rid', 'lot_id', 'event']).doUpdateSet({ content: input.content, updated_at: sql<Date>`now()` }))
        .execute();
    }
    return reply({ items: await gateTexts(ctx.db, ctx.rid, input.lot_id) }, '保存成功');
  },
});

export const lotModule = [...lotMethods, ...boothMethods, ...laneMethods, gatetextlist, gatetextedit];
