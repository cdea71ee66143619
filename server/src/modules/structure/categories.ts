import { ROOM_CATEGORY_KIND_TEXT, type RoomCategoryKind } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { likePattern } from '../../lib/like.js';
import { STRUCTURE_WRITERS } from './access.js';
import { firstDependent, tableLabel } from './dependents.js';

async function refuseDuplicate(db: Kysely<DB>, rid: number, title: string, exceptId?: number) {
  let qb = db.selectFrom('room_categories').select('id').where('rid', '=', rid).where('title', '=', title);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst()) fail(`房屋类型“${title}”已存在`);
}

const roomcatelist = defineMethod('roomcatelist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房屋类型（住宅、商铺、写字楼、车位、储藏室…）及使用它的房屋数；按名称筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('room_categories as c')
      .select(['c.id', 'c.title', 'c.kind', 'c.sort'])
      .select((eb) =>
        eb
          .selectFrom('rooms')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('rooms.rid', '=', 'c.rid')
          .whereRef('rooms.category_id', '=', 'c.id')
          .as('room_count'),
      )
      .where('c.rid', '=', ctx.rid);
    if (input.title) qb = qb.where('c.title', 'ilike', likePattern(String(input.title)));
    const page = await listPage(qb, input, 'c.id');
    return {
      total: page.total,
      items: page.items.map((c) => ({
        ...c,
        kind: c.kind as RoomCategoryKind,
        kind_ch: ROOM_CATEGORY_KIND_TEXT[c.kind as RoomCategoryKind] ?? c.kind,
        room_count: c.room_count ?? 0,
      })),
    };
  },
});

const roomcateSmallList = defineMethod('roomcate_small_list', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房屋类型下拉（id、title）',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('room_categories')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items };
  },
});

const roomcateadd = defineMethod('roomcateadd', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '新增房屋类型',
  async handler(ctx, input) {
    await refuseDuplicate(ctx.db, ctx.rid, input.title);
    const { id } = await ctx.db
      .insertInto('room_categories')
      .values({ rid: ctx.rid, ...input })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const roomcateedit = defineMethod('roomcateedit', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '修改房屋类型',
  async handler(ctx, input) {
    const { id, ...values } = input;
    await refuseDuplicate(ctx.db, ctx.rid, values.title, id);
    const res = await ctx.db.updateTable('room_categories').set(values).where('rid', '=', ctx.rid).where('id', '=', id).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) fail('房屋类型不存在');
    return reply(null, '保存成功');
  },
});

const roomcatedel = defineMethod('roomcatedel', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '删除房屋类型（仍有房屋使用时拒绝）',
  async handler(ctx, input) {
    const used = await ctx.db
      .selectFrom('rooms')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('category_id', '=', input.id)
      .executeTakeFirstOrThrow();
    if (used.n > 0) fail(`还有 ${used.n} 套房屋使用该类型，不能删除`);
    const dependent = await firstDependent(ctx.db, 'room_categories', ctx.rid, input.id);
    if (dependent) fail(`该房屋类型下还有${tableLabel(dependent)}，不能删除`);
    const res = await ctx.db.deleteFrom('room_categories').where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) fail('房屋类型不存在');
    return reply(null, '删除成功');
  },
});

export const categoryMethods = [roomcatelist, roomcateSmallList, roomcateadd, roomcateedit, roomcatedel];
