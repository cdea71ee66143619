import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { likePattern } from '../../lib/like.js';
import { STRUCTURE_WRITERS } from './access.js';
import { firstDependent, tableLabel } from './dependents.js';
import { holdPlaces } from './place-locks.js';

const count = sql<number>`count(*)::int`;

async function refuseDuplicate(db: Kysely<DB>, rid: number, title: string, exceptId?: number) {
  let qb = db.selectFrom('buildings').select('id').where('rid', '=', rid).where('title', '=', title);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst()) fail(`楼栋“${title}”已存在`);
}

const buildinglist = defineMethod('buildinglist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '楼栋列表（含单元数、房屋数）；按名称筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('buildings as b')
      .select(['b.id', 'b.title', 'b.floors', 'b.sort', 'b.remark', 'b.created_at'])
      .select((eb) => [
        eb
          .selectFrom('units')
          .select(count.as('n'))
          .whereRef('units.rid', '=', 'b.rid')
          .whereRef('units.bid', '=', 'b.id')
          .as('unit_count'),
        eb
          .selectFrom('rooms')
          .select(count.as('n'))
          .whereRef('rooms.rid', '=', 'b.rid')
          .whereRef('rooms.bid', '=', 'b.id')
          .as('room_count'),
      ])
      .where('b.rid', '=', ctx.rid);
    if (input.title) qb = qb.where('b.title', 'ilike', likePattern(input.title));
    const page = await listPage(qb, input, 'b.id');
    return {
      total: page.total,
      items: page.items.map(({ created_at, ...b }) => ({
        ...b,
        unit_count: b.unit_count ?? 0,
        room_count: b.room_count ?? 0,
        create_time: wireTime(created_at),
      })),
    };
  },
});

const buildingSmallList = defineMethod('building_small_list', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '楼栋下拉（id、title）',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('buildings')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items };
  },
});

const buildingadd = defineMethod('buildingadd', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '新增楼栋',
  async handler(ctx, input) {
    await refuseDuplicate(ctx.db, ctx.rid, input.title);
    const { id } = await ctx.db
      .insertInto('buildings')
      .values({ rid: ctx.rid, ...input })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const buildingedit = defineMethod('buildingedit', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '修改楼栋',
  async handler(ctx, input) {
    const { id, ...values } = input;
    await refuseDuplicate(ctx.db, ctx.rid, values.title, id);
    const res = await ctx.db.updateTable('buildings').set(values).where('rid', '=', ctx.rid).where('id', '=', id).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) fail('楼栋不存在');
    return reply(null, '保存成功');
  },
});

const buildingdel = defineMethod('buildingdel', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '删除楼栋（还有单元或房屋时拒绝）',
  async handler(ctx, input) {
    const building = await ctx.db
      .selectFrom('buildings')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!building) fail('楼栋不存在');
    const dependent = await firstDependent(ctx.db, 'buildings', ctx.rid, input.id);
    if (dependent === 'units' || dependent === 'rooms') fail('该楼栋下还有单元或房屋，不能删除');
    if (dependent) fail(`该楼栋下还有${tableLabel(dependent)}，不能删除`);
    await ctx.db.deleteFrom('buildings').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

async function requireBuilding(db: Kysely<DB>, rid: number, bid: number) {
  const b = await db.selectFrom('buildings').select('id').where('rid', '=', rid).where('id', '=', bid).executeTakeFirst();
  if (!b) fail('所选楼栋不存在');
}

async function refuseDuplicateUnit(db: Kysely<DB>, rid: number, bid: number, title: string, exceptId?: number) {
  let qb = db.selectFrom('units').select('id').where('rid', '=', rid).where('bid', '=', bid).where('title', '=', title);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst()) fail(`该楼栋下已有单元“${title}”`);
}

const unitlist = defineMethod('unitlist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '单元列表（含所属楼栋、房屋数）；按楼栋、名称筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('units as u')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'u.rid').onRef('b.id', '=', 'u.bid'))
      .select(['u.id', 'u.bid', 'b.title as building_title', 'u.title', 'u.sort', 'u.created_at'])
      .select((eb) =>
        eb
          .selectFrom('rooms')
          .select(count.as('n'))
          .whereRef('rooms.rid', '=', 'u.rid')
          .whereRef('rooms.tid', '=', 'u.id')
          .as('room_count'),
      )
      .where('u.rid', '=', ctx.rid);
    if (input.bid) qb = qb.where('u.bid', '=', input.bid);
    if (input.title) qb = qb.where('u.title', 'ilike', likePattern(input.title));
    const page = await listPage(qb, input, 'u.id');
    return {
      total: page.total,
      items: page.items.map(({ created_at, ...u }) => ({ ...u, room_count: u.room_count ?? 0, create_time: wireTime(created_at) })),
    };
  },
});

const unitSmallList = defineMethod('unit_small_list', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '某楼栋的单元下拉（id、title）',
  async handler(ctx, input) {
    const items = await ctx.db
      .selectFrom('units')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('bid', '=', input.bid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items };
  },
});

const unitadd = defineMethod('unitadd', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '新增单元',
  async handler(ctx, input) {
    await requireBuilding(ctx.db, ctx.rid, input.bid);
    await refuseDuplicateUnit(ctx.db, ctx.rid, input.bid, input.title);
    const { id } = await ctx.db
      .insertInto('units')
      .values({ rid: ctx.rid, ...input })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const unitedit = defineMethod('unitedit', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '修改单元（有房屋时不能更换楼栋）',
  async handler(ctx, input) {
    const { id, ...values } = input;
    const unit = await ctx.db.selectFrom('units').select(['id', 'bid']).where('rid', '=', ctx.rid).where('id', '=', id).executeTakeFirst();
    if (!unit) fail('单元不存在');
    if (unit.bid !== values.bid) {
      await requireBuilding(ctx.db, ctx.rid, values.bid);
      const rooms = await ctx.db
        .selectFrom('rooms')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('tid', '=', id)
        .limit(1)
        .executeTakeFirst();
      if (rooms) fail('该单元下还有房屋，不能更换楼栋');
    }
    await refuseDuplicateUnit(ctx.db, ctx.rid, values.bid, values.title, id);
    // its building before the unit: a rename of the building may be rewriting this unit's rooms
    await holdPlaces(ctx.db, ctx.rid, { bids: [unit.bid, values.bid] });
    await ctx.db.updateTable('units').set(values).where('rid', '=', ctx.rid).where('id', '=', id).execute();
    return reply(null, '保存成功');
  },
});

const unitdel = defineMethod('unitdel', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '删除单元（还有房屋时拒绝）',
  async handler(ctx, input) {
    const unit = await ctx.db.selectFrom('units').select('id').where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (!unit) fail('单元不存在');
    const dependent = await firstDependent(ctx.db, 'units', ctx.rid, input.id);
    if (dependent === 'rooms') fail('该单元下还有房屋，不能删除');
    if (dependent) fail(`该单元下还有${tableLabel(dependent)}，不能删除`);
    await ctx.db.deleteFrom('units').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

export const buildingMethods = [
  buildinglist,
  buildingSmallList,
  buildingadd,
  buildingedit,
  buildingdel,
  unitlist,
  unitSmallList,
  unitadd,
  unitedit,
  unitdel,
];
