import { enumText, ROOM_STATE, toFen, type Room, type structureMethods } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { defineExport } from '../../jobs/exports.js';
import { today, wireTime } from '../../lib/wire.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { STRUCTURE_WRITERS } from '@wuye/contract';
import { firstDependent, tableLabel } from '../../lib/dependents.js';
import { naturalName, placeOrder } from '../../lib/placeOrder.js';
import { holdPlaces } from './place-locks.js';
import { requireRoom } from './require-room.js';

type RoomFilters = Omit<z.output<typeof structureMethods.roomlist>, 'page' | 'limit' | 'sort'>;
type RoomFields = z.output<typeof structureMethods.roomadd>;

function roomQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
    .leftJoin('room_categories as c', (j) => j.onRef('c.rid', '=', 'r.rid').onRef('c.id', '=', 'r.category_id'))
    .select([
      'r.id',
      'r.rid',
      'r.bid',
      'r.tid',
      'r.title',
      'r.floor',
      'r.category_id',
      'r.built_area',
      'r.indoor_area',
      'r.state',
      'r.remark',
      'r.address',
      'r.created_at',
      'b.title as building_title',
      'u.title as unit_title',
      'c.title as category_title',
    ])
    .where('r.rid', '=', rid);
}

function filtered(db: Kysely<DB>, rid: number, f: RoomFilters) {
  let qb = roomQuery(db, rid);
  if (f.bid) qb = qb.where('r.bid', '=', f.bid);
  if (f.tid) qb = qb.where('r.tid', '=', f.tid);
  if (f.category_id) qb = qb.where('r.category_id', '=', f.category_id);
  if (f.state) qb = qb.where('r.state', '=', f.state);
  if (f.floor !== undefined && f.floor !== '') qb = qb.where('r.floor', '=', f.floor);
  if (f.keyword) qb = qb.where('r.title', containsOperator(f.keyword), likePattern(f.keyword));
  return qb;
}

type RoomRow = Awaited<ReturnType<ReturnType<typeof roomQuery>['execute']>>[number];
const toRoom = ({ created_at, ...r }: RoomRow): Room => ({
  ...r,
  category_title: r.category_title ?? '',
  state_ch: enumText(ROOM_STATE, r.state),
  create_time: wireTime(created_at),
});

/** Checks that the unit is in the building and the category in this community; area rules. */
async function checkRoom(db: Kysely<DB>, rid: number, input: RoomFields) {
  const unit = await db.selectFrom('units').select('bid').where('rid', '=', rid).where('id', '=', input.tid).executeTakeFirst();
  if (!unit) fail('所选单元不存在');
  if (unit.bid !== input.bid) fail('所选单元不属于所选楼栋');
  if (input.category_id) {
    const cat = await db
      .selectFrom('room_categories')
      .select('id')
      .where('rid', '=', rid)
      .where('id', '=', input.category_id)
      .executeTakeFirst();
    if (!cat) fail('所选房屋类型不存在');
  }
  if (toFen(input.indoor_area) > toFen(input.built_area)) fail('套内面积不能大于建筑面积');
}

async function refuseDuplicate(db: Kysely<DB>, rid: number, tid: number, title: string, exceptId?: number) {
  let qb = db.selectFrom('rooms').select('id').where('rid', '=', rid).where('tid', '=', tid).where('title', '=', title);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst()) fail(`该单元下已有房号“${title}”`);
}

const roomlist = defineMethod('roomlist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房屋列表：按楼栋、单元、类型、状态、楼层、房号筛选；含楼栋、单元、类型名与状态文字',
  async handler(ctx, input) {
    const page = await listPage(filtered(ctx.db, ctx.rid, input), input, 'r.id');
    return { total: page.total, items: page.items.map(toRoom) };
  },
});

const roominfo = defineMethod('roominfo', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '一套房屋的详情',
  async handler(ctx, input) {
    const row = await roomQuery(ctx.db, ctx.rid).where('r.id', '=', input.id).executeTakeFirst();
    if (!row) fail('房屋不存在');
    return toRoom(row);
  },
});

const roomSmallList = defineMethod('room_small_list', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '某单元的房屋下拉（id、title）',
  async handler(ctx, input) {
    let qb = ctx.db.selectFrom('rooms').select(['id', 'title']).where('rid', '=', ctx.rid).where('tid', '=', input.tid).orderBy('floor');
    // 101, 102 … 110, and 1-2 before 1-10 (lib/placeOrder.ts)
    for (const term of naturalName('title')) qb = qb.orderBy(term);
    const items = await qb.orderBy('id').execute();
    return { items };
  },
});

const roomadd = defineMethod('roomadd', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '新增房屋',
  async handler(ctx, input) {
    await checkRoom(ctx.db, ctx.rid, input);
    await refuseDuplicate(ctx.db, ctx.rid, input.tid, input.title);
    const { id } = await ctx.db
      .insertInto('rooms')
      .values({ rid: ctx.rid, ...input, category_id: input.category_id ?? null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const roomedit = defineMethod('roomedit', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '修改房屋',
  async handler(ctx, input) {
    const { id, ...values } = input;
    const from = await requireRoom(ctx.db, ctx.rid, id);
    await checkRoom(ctx.db, ctx.rid, values);
    await refuseDuplicate(ctx.db, ctx.rid, values.tid, values.title, id);
    // the building and unit it leaves and the ones it goes to, before the room itself
    await holdPlaces(ctx.db, ctx.rid, { bids: [from.bid, values.bid], tids: [from.tid, values.tid] });
    await ctx.db
      .updateTable('rooms')
      .set({ ...values, category_id: values.category_id ?? null })
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .execute();
    return reply(null, '保存成功');
  },
});

const ROOM_DEPENDENT_MESSAGES: Record<string, string> = {
  room_members: '该房屋下还有业主或住户记录，不能删除',
  fee_bills: '该房屋还有账单，不能删除',
};

const roomdel = defineMethod('roomdel', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary: '删除房屋（还有业主、住户、账单等关联数据时拒绝）',
  async handler(ctx, input) {
    await requireRoom(ctx.db, ctx.rid, input.id);
    const dependent = await firstDependent(ctx.db, 'rooms', ctx.rid, input.id);
    if (dependent) fail(ROOM_DEPENDENT_MESSAGES[dependent] ?? `该房屋下还有${tableLabel(dependent)}，不能删除`);
    await ctx.db.deleteFrom('rooms').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

const roommap = defineMethod('roommap', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房态图：一栋楼的全部房屋（单元、楼层、状态），不分页',
  async handler(ctx, input) {
    // units as every list orders them, each from its top floor down, a floor's rooms in natural order
    let qb = roomQuery(ctx.db, ctx.rid).where('r.bid', '=', input.bid);
    for (const term of placeOrder('u.')) qb = qb.orderBy(term);
    qb = qb.orderBy('r.tid').orderBy('r.floor', 'desc');
    for (const term of naturalName('r.title')) qb = qb.orderBy(term);
    const rows = await qb.orderBy('r.id').limit(5000).execute();
    return {
      items: rows.map((r) => ({
        id: r.id,
        tid: r.tid,
        unit_title: r.unit_title,
        title: r.title,
        floor: r.floor,
        state: r.state,
        state_ch: enumText(ROOM_STATE, r.state),
        category_title: r.category_title ?? '',
        built_area: r.built_area,
      })),
    };
  },
});

const roomexport = defineExport('roomexport', {
  // every room of the community with its owners: the property company's accounts, not merchants
  roles: 'staff',
  summary: '按当前筛选条件导出房屋（Excel）',
  filename: () => `房屋列表_${today()}.xlsx`,
  check: ({ db, rid }, input) => refuseOversizedExport(db, filtered(db, rid, input)),
  async sheet({ db, rid }, input) {
    const rows = await filtered(db, rid, input).orderBy('r.id', input.sort).limit(EXPORT_MAX).execute();
    return sheetOf(
      '房屋',
      [
        { header: 'ID', value: (r) => r.id, width: 8 },
        { header: '楼栋', value: (r) => r.building_title },
        { header: '单元', value: (r) => r.unit_title },
        { header: '房号', value: (r) => r.title },
        { header: '楼层', value: (r) => r.floor, width: 8 },
        { header: '建筑面积', value: (r) => r.built_area },
        { header: '套内面积', value: (r) => r.indoor_area },
        { header: '房屋类型', value: (r) => r.category_title },
        { header: '状态', value: (r) => r.state_ch },
        { header: '备注', value: (r) => r.remark, width: 30 },
        { header: '创建时间', value: (r) => r.create_time, width: 20 },
      ],
      rows.map(toRoom),
    );
  },
});

export const roomMethods = [roomlist, roominfo, roomSmallList, roomadd, roomedit, roomdel, roommap, roomexport];
