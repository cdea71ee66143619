import { roomCategory } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineResource } from '../../lib/resource.js';

const roomCount = sql<number>`(SELECT count(*)::int FROM rooms WHERE rooms.rid = t.rid AND rooms.category_id = t.id)`;

export const categoryMethods = defineResource(roomCategory, {
  table: 'room_categories',
  query: (db, rid) =>
    db
      .selectFrom('room_categories as t')
      .select(['t.id', 't.title', 't.kind', 't.sort', roomCount.as('room_count')])
      .where('t.rid', '=', rid),
  unique: [{ on: ['title'], message: (v) => `房屋类型“${String(v.title)}”已存在` }],
  async beforeDelete(ctx, row) {
    const used = await ctx.db
      .selectFrom('rooms')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('category_id', '=', row.id as number)
      .executeTakeFirstOrThrow();
    if (used.n > 0) fail(`还有 ${used.n} 套房屋使用该类型，不能删除`);
  },
  summaries: {
    list: '房屋类型（住宅、商铺、写字楼、车位、储藏室…）及使用它的房屋数；按名称筛选',
    del: '删除房屋类型（仍有房屋使用时拒绝）',
  },
});
