import { building, unit } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import type { CommunityCtx } from '../../http/registry.js';
import { placeOrder } from '../../lib/placeOrder.js';
import { defineResource } from '../../lib/resource.js';
import { holdPlaces } from './place-locks.js';

const count = (table: 'units' | 'rooms', column: 'bid' | 'tid') =>
  sql<number>`(SELECT count(*)::int FROM ${sql.table(table)} x WHERE x.rid = t.rid AND x.${sql.ref(column)} = t.id)`;

export const buildingMethods = defineResource(building, {
  table: 'buildings',
  query: (db, rid) =>
    db
      .selectFrom('buildings as t')
      .select(['t.id', 't.title', 't.floors', 't.sort', 't.remark', 't.created_at'])
      .select([count('units', 'bid').as('unit_count'), count('rooms', 'bid').as('room_count')])
      .where('t.rid', '=', rid),
  // the buildings given a sort by it, then the rest by name, numbers as numbers (lib/placeOrder.ts)
  order: placeOrder,
  unique: [{ on: ['title'], message: (v) => `楼栋“${String(v.title)}”已存在` }],
  dependents: { units: '该楼栋下还有单元或房屋，不能删除', rooms: '该楼栋下还有单元或房屋，不能删除' },
  summaries: { list: '楼栋列表（含单元数、房屋数）；按名称筛选', del: '删除楼栋（还有单元或房屋时拒绝）' },
});

async function requireBuilding(ctx: CommunityCtx, bid: number) {
  const b = await ctx.db.selectFrom('buildings').select('id').where('rid', '=', ctx.rid).where('id', '=', bid).executeTakeFirst();
  if (!b) fail('所选楼栋不存在');
}

export const unitMethods = defineResource(unit, {
  table: 'units',
  query: (db, rid) =>
    db
      .selectFrom('units as t')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.bid'))
      .select(['t.id', 't.bid', 'b.title as building_title', 't.title', 't.sort', 't.created_at'])
      .select(count('rooms', 'tid').as('room_count'))
      .where('t.rid', '=', rid),
  // units in the order of their buildings, then as buildings are ordered: 1单元 … 10单元 (the small
  // list is one building's)
  order: (prefix) => (prefix === 't.' ? [...placeOrder('b.'), ...placeOrder('t.')] : placeOrder()),
  unique: [{ on: ['bid', 'title'], message: (v) => `该楼栋下已有单元“${String(v.title)}”` }],
  async check(ctx, values, before) {
    if (before && before.bid === values.bid) return;
    await requireBuilding(ctx, values.bid as number);
    if (!before) return;
    const room = await ctx.db
      .selectFrom('rooms')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('tid', '=', before.id as number)
      .limit(1)
      .executeTakeFirst();
    if (room) fail('该单元下还有房屋，不能更换楼栋');
  },
  // its building before the unit: a rename of the building may be rewriting this unit's rooms
  beforeEdit: (ctx, before, values) => holdPlaces(ctx.db, ctx.rid, { bids: [before.bid as number, values.bid as number] }),
  dependents: { rooms: '该单元下还有房屋，不能删除' },
  summaries: {
    list: '单元列表（含所属楼栋、房屋数）；按楼栋、名称筛选',
    small: '某楼栋的单元下拉（id、title）',
    edit: '修改单元（有房屋时不能更换楼栋）',
    del: '删除单元（还有房屋时拒绝）',
  },
});
