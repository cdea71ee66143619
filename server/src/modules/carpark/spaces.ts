/**
 * Parking spaces (/carpark/cdlist; docs/product.md#carpark) as a resource, the batch add and the
 * free spaces' dropdown. A space's state is never edited: the car operations (cars.ts) rent, sell
 * and release it.
 */
import { space } from '@wuye/contract';
import { CARPARK_ROLES } from '@wuye/contract/carpark/roles';
import { CAR_MANAGERS } from '@wuye/contract/owners/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';
import { lotOf } from './lots.js';

const dayText = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : d ? String(d) : '');

export const spaceMethods = defineResource(space, {
  table: 'parking_spaces',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('parking_spaces as t')
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 't.rid').onRef('l.id', '=', 't.lot_id'))
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
      .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
      .select(['t.id', 't.lot_id', 'l.title as lot_title', 't.title', 't.kind', 't.area', 't.remark', 't.status', 't.hid'])
      .select(['t.carlicense', 't.start_date', 't.end_date', 't.create_time'])
      .select(sql<string>`coalesce(r.address, '')`.as('address'))
      .select(sql<string>`coalesce(m.realname, '')`.as('realname'))
      .select(sql<number>`(SELECT count(*)::int FROM cars c WHERE c.rid = t.rid AND c.space_id = t.id)`.as('car_count'))
      .where('t.rid', '=', rid),
  where: {
    room: (qb, v) => qb.where('r.address', 'ilike', likePattern(String(v))),
  },
  row: (r) => ({
    ...r,
    id: Number(r.id),
    lot_id: Number(r.lot_id),
    hid: r.hid === null ? null : Number(r.hid),
    start_date: dayText(r.start_date),
    end_date: dayText(r.end_date),
  }),
  unique: [{ on: ['lot_id', 'title'], message: (v) => `该停车场已有车位 ${String(v.title)}` }],
  async check(ctx, values, before) {
    await lotOf(ctx, Number(values.lot_id));
    if (before && Number(before.lot_id) !== Number(values.lot_id) && before.status !== 'idle') fail('车位已出租或出售，不能改到其他停车场');
  },
  async beforeDelete(ctx, row) {
    const held = await ctx.db
      .selectFrom('cars')
      .select('carlicense')
      .where('rid', '=', ctx.rid)
      .where('space_id', '=', Number(row.id))
      .executeTakeFirst();
    if (held) fail(`车位 ${String(row.title)} 已绑定车辆 ${held.carlicense}，请先释放车位`);
    if (row.status !== 'idle') fail(`车位 ${String(row.title)} 已出租或出售，请先释放车位`);
    const bill = await ctx.db
      .selectFrom('fee_bills')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('space_id', '=', Number(row.id))
      .executeTakeFirst();
    if (bill) fail(`车位 ${String(row.title)} 已有收费账单，不能删除`);
  },
  summaries: {
    list: '车位列表：停车场、车位号、类型（普通/子母/虚拟）、面积、状态（空闲/出租/出售，只随车辆的出租、出售、释放改变）、绑定车牌、房屋、业主、租售期限；可按停车场、状态、类型、车位号、房屋筛选',
    add: '新增车位（车位号在停车场内唯一；状态为空闲）',
    edit: '修改车位的车位号、类型、面积、备注（状态不随编辑改变；已出租或出售的车位不能改停车场）',
    del: '删除车位（已绑定车辆、已出租或出售、已有收费账单时拒绝）',
  },
});

const parkingspacebatchadd = defineMethod('parkingspacebatchadd', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: true,
  summary: '批量添加车位：前缀 + 起止编号（补零到指定位数，如 A-001 至 A-120），已有同号车位时整批拒绝并列出冲突的车位号',
  async handler(ctx, input) {
    await lotOf(ctx, input.lot_id, true);
    const titles: string[] = [];
    for (let n = input.from; n <= input.to; n++) titles.push(`${input.prefix}${String(n).padStart(input.digits, '0')}`);
    const clash = await ctx.db
      .selectFrom('parking_spaces')
      .select('title')
      .where('rid', '=', ctx.rid)
      .where('lot_id', '=', input.lot_id)
      .where('title', 'in', titles)
      .orderBy('title')
      .execute();
    if (clash.length > 0) {
      const shown = clash.slice(0, 10).map((c) => c.title);
      fail(`以下车位号已存在：${shown.join('、')}${clash.length > 10 ? ` 等 ${clash.length} 个` : ''}，未添加任何车位`);
    }
    await ctx.db
      .insertInto('parking_spaces')
      .values(
        titles.map((title) => ({
          rid: ctx.rid,
          lot_id: input.lot_id,
          title,
          kind: input.kind,
          area: input.area,
          created_by: ctx.session.accountId,
        })),
      )
      .execute();
    return reply({ count: titles.length }, `已添加 ${titles.length} 个车位`);
  },
});

const parkingspaceSmallList = defineMethod('parkingspace_small_list', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: false,
  summary: '车位下拉：停车场的空闲车位，及给定车辆当前占用的车位（id、title）',
  async handler(ctx, input) {
    if (!input.lot_id) return { items: [] };
    const own = input.car_id
      ? sql<boolean>`OR s.id = (SELECT c.space_id FROM cars c WHERE c.rid = ${ctx.rid} AND c.id = ${input.car_id})`
      : sql<boolean>``;
    const items = await ctx.db
      .selectFrom('parking_spaces as s')
      .select(['s.id', 's.title'])
      .where('s.rid', '=', ctx.rid)
      .where('s.lot_id', '=', input.lot_id)
      .where(sql<boolean>`(s.status = 'idle' ${own})`)
      .orderBy('s.title')
      .limit(1000)
      .execute();
    return { items: items.map((s) => ({ id: Number(s.id), title: s.title })) };
  },
});

export const spaceModule = [...spaceMethods, parkingspacebatchadd, parkingspaceSmallList];
