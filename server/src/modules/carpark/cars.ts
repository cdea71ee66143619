/**
 * Cars (/carpark/carlist, caradd, caredit; /basismembers/cars; docs/product.md#carpark) as a
 * resource: a car of a room, optionally in a lot with a lease (月租, 出售, 内部, 免费) and a space;
 * a member car shares its main car's space. Binding a car rents or sells its space, releasing it
 * frees the space; the space's holder columns (hid, member, plate, dates) are what the fees and the
 * owner drawer read, so they move with the car in the same transaction. Every change is written to
 * the car's history (monthcarlog). Black and white lists per lot.
 */
import { CAR_MANAGERS } from '@wuye/contract/owners/roles';
import { LEASE_TYPE, car, enumText, normalizePlate, plateCarType, parkingList, type LeaseType } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';
import { today } from '../../lib/wire.js';
import { lotOf } from './lots.js';

type Values = Record<string, unknown>;

/** Writes a line of the car's history (monthcarlog), by the caller. */
export async function carLog(ctx: CommunityCtx, carId: number, plate: string, action: string, content: string): Promise<void> {
  await ctx.db
    .insertInto('parking_car_logs')
    .values({
      rid: ctx.rid,
      car_id: carId,
      carlicense: plate,
      action,
      content,
      created_by: ctx.session.accountId,
      created_by_name: ctx.session.name,
    })
    .execute();
}

/** A space's state for a lease: 出售 sells it; 月租, 内部 and 免费 occupy it as rented. */
const spaceStatusOf = (lease: string): 'sold' | 'rented' => (lease === 'S' ? 'sold' : 'rented');

/** The space, locked, of the community; refused when it is not free (unless `heldBy` holds it). */
async function freeSpace(ctx: CommunityCtx, spaceId: number, lotId: number | null, heldBy?: number) {
  const s = await ctx.db
    .selectFrom('parking_spaces')
    .select(['id', 'lot_id', 'title', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', spaceId)
    .forUpdate()
    .executeTakeFirst();
  if (!s) return fail('所选车位不存在');
  if (lotId !== null && Number(s.lot_id) !== lotId) fail(`车位 ${s.title} 不在所选停车场`);
  const holder = await ctx.db
    .selectFrom('cars')
    .select(['id', 'carlicense'])
    .where('rid', '=', ctx.rid)
    .where('space_id', '=', spaceId)
    .where('main_car_id', 'is', null)
    .executeTakeFirst();
  if (holder && Number(holder.id) !== heldBy) fail(`车位 ${s.title} 已被车辆 ${holder.carlicense} 占用`);
  if (!holder && s.status !== 'idle') fail(`车位 ${s.title} 不是空闲车位`);
  return s;
}

/** The space takes the car's room, person, plate and dates, and the state of its lease. */
async function takeSpace(ctx: CommunityCtx, spaceId: number, v: Values): Promise<void> {
  await ctx.db
    .updateTable('parking_spaces')
    .set({
      status: spaceStatusOf(String(v.lease_type)),
      hid: Number(v.hid),
      member_id: (v.member_id as number | null) ?? null,
      carlicense: String(v.carlicense),
      start_date: (v.start_date as string | null) ?? null,
      end_date: (v.end_date as string | null) ?? null,
    })
    .where('rid', '=', ctx.rid)
    .where('id', '=', spaceId)
    .execute();
}

/** The space is free again. */
async function freeTheSpace(ctx: CommunityCtx, spaceId: number): Promise<void> {
  await ctx.db
    .updateTable('parking_spaces')
    .set({ status: 'idle', hid: null, member_id: null, carlicense: '', start_date: null, end_date: null })
    .where('rid', '=', ctx.rid)
    .where('id', '=', spaceId)
    .execute();
}

async function memberCount(ctx: CommunityCtx, carId: number): Promise<number> {
  const r = await ctx.db
    .selectFrom('cars')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', ctx.rid)
    .where('main_car_id', '=', carId)
    .executeTakeFirstOrThrow();
  return r.n;
}

const LEASE_KEYS = ['lot_id', 'space_id', 'lease_type', 'main_car_id'] as const;
const describe = (v: Values, spaceTitle = '') =>
  [
    v.lease_type ? enumText(LEASE_TYPE, String(v.lease_type)) : '',
    spaceTitle ? `车位 ${spaceTitle}` : '',
    v.end_date ? `至 ${String(v.end_date)}` : '',
  ]
    .filter(Boolean)
    .join('，');

async function spaceTitle(ctx: CommunityCtx, id: unknown): Promise<string> {
  if (!id) return '';
  const s = await ctx.db
    .selectFrom('parking_spaces as s')
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
    .select(sql<string>`l.title || ' ' || s.title`.as('t'))
    .where('s.rid', '=', ctx.rid)
    .where('s.id', '=', Number(id))
    .executeTakeFirst();
  return s?.t ?? '';
}

/** Business rules of an add or an edit (the room and the person are checked by their widgets). */
async function checkCar(ctx: CommunityCtx, v: Values, before?: Values): Promise<void> {
  const lease = String(v.lease_type ?? '');
  if (before && before.space_id !== null) {
    // a bound car moves only through release and assign, so a space never changes hands by an edit
    for (const k of LEASE_KEYS)
      if ((before[k] ?? null) !== (v[k] ?? null)) fail('车辆已绑定车位，更换停车场、车位、租售类型或主车请先释放车位再分配');
    if (before.lease_type === 'M' && before.main_car_id === null && (before.end_date ?? null) !== (v.end_date ?? null))
      fail('月租车的结束日期请通过续费调整');
    return;
  }
  if (v.main_car_id) {
    if (before && Number(before.id) === Number(v.main_car_id)) fail('主车不能是车辆自己');
    return; // the member car takes its main car's lot, space and lease (values)
  }
  if (!v.lot_id && lease) fail('请选择停车场');
  if (v.lot_id && !lease) fail('请选择租售类型');
  if (v.lot_id) {
    await lotOf(ctx, Number(v.lot_id));
  }
  if ((lease === 'M' || lease === 'S') && !v.space_id) fail('月租、出售车辆须选择车位');
  if (!v.lot_id && v.space_id) fail('请选择停车场');
  if (lease === 'M' && !v.end_date) fail('月租车须填写结束日期');
  if (v.start_date && v.end_date && String(v.end_date) < String(v.start_date)) fail('结束日期不能早于开始日期');
  if (v.space_id) await freeSpace(ctx, Number(v.space_id), Number(v.lot_id));
}

/** The columns written: defaults, the kind from the plate, a member car's lease from its main car. */
async function carValues(input: Values, ctx: CommunityCtx): Promise<Values> {
  const v: Values = {
    ...input,
    member_id: input.member_id ?? null,
    car_type: input.car_type ?? plateCarType(String(input.carlicense)),
    lot_id: input.lot_id ?? null,
    space_id: input.space_id ?? null,
    main_car_id: input.main_car_id ?? null,
    lease_type: input.lease_type ?? '',
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
  };
  if (v.main_car_id) {
    const main = await ctx.db
      .selectFrom('cars')
      .select(['id', 'hid', 'lot_id', 'space_id', 'lease_type', 'start_date', 'end_date', 'main_car_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(v.main_car_id))
      .executeTakeFirst();
    if (!main) return fail('所选主车不存在');
    if (main.main_car_id !== null || main.space_id === null) fail('主车须是占用车位的车辆（不能是成员车辆）');
    if (Number(main.hid) !== Number(v.hid)) fail('成员车辆须与主车属于同一房屋');
    Object.assign(v, {
      lot_id: main.lot_id,
      space_id: main.space_id,
      lease_type: main.lease_type,
      start_date: main.start_date,
      end_date: main.end_date,
    });
  }
  return v;
}

export const carMethods = defineResource(car, {
  table: 'cars',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('cars as t')
      // a car always has its room (cars.hid, NOT NULL, a foreign key): a left join that the list's
      // count leaves out with the others, so it counts the cars alone (90 ms → 12 ms at 22,607 cars)
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
      .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
      .leftJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 't.rid').onRef('l.id', '=', 't.lot_id'))
      .leftJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 't.rid').onRef('s.id', '=', 't.space_id'))
      .leftJoin('cars as mc', (j) => j.onRef('mc.rid', '=', 't.rid').onRef('mc.id', '=', 't.main_car_id'))
      .select(['t.id', 't.hid', 'r.bid', 'r.tid', 'r.address', 't.member_id', 'm.realname', 'm.mobile'])
      .select(['t.carlicense', 't.car_type', 't.color', 't.brand', 't.status', 't.remark', 't.create_time'])
      .select(['t.lot_id', 't.space_id', 't.lease_type', 't.start_date', 't.end_date', 't.main_car_id'])
      .select(sql<string>`coalesce(l.title, '')`.as('lot_title'))
      .select(sql<string>`coalesce(s.title, '')`.as('space_title'))
      .select(sql<string>`coalesce(mc.carlicense, '')`.as('main_carlicense'))
      .select(sql<string>`CASE WHEN t.space_id IS NULL THEN 'N' ELSE 'Y' END`.as('bound'))
      .where('t.rid', '=', rid),
  where: {
    carlicense: (qb, v) => qb.where('t.carlicense', 'ilike', likePattern(normalizePlate(String(v)))),
    bid: (qb, v) => qb.where('r.bid', '=', v),
    room: (qb, v) => qb.where('r.address', 'ilike', likePattern(String(v))),
    bound: (qb, v) => qb.where(v === 'Y' ? sql<boolean>`t.space_id IS NOT NULL` : sql<boolean>`t.space_id IS NULL`),
    keyword: (qb, v) => {
      const p = likePattern(String(v));
      return qb.where((eb) => eb.or([eb('m.realname', 'ilike', p), eb('m.mobile', 'like', p)]));
    },
  },
  row: (c) => ({
    ...c,
    realname: c.realname ?? '',
    mobile: c.mobile ?? '',
    start_date: c.start_date ?? '',
    end_date: c.end_date ?? '',
    lease_type_ch: c.lease_type ? c.lease_type_ch : '',
  }),
  values: (input, ctx) => carValues(input, ctx),
  check: checkCar,
  unique: [{ on: ['carlicense'], message: (v) => `车牌 ${String(v.carlicense)} 已登记` }],
  async after(ctx, id, v, before) {
    if (!before) {
      if (v.space_id && !v.main_car_id) await takeSpace(ctx, Number(v.space_id), v);
      const title = await spaceTitle(ctx, v.space_id);
      await carLog(ctx, id, String(v.carlicense), 'add', describe(v, title) || '登记到房屋');
      return;
    }
    // a main car's holder columns follow its edits (plate, person, start day)
    if (v.space_id && !v.main_car_id) await takeSpace(ctx, Number(v.space_id), v);
    const changed = Object.keys(v).filter((k) => String(v[k] ?? '') !== String(before[k] ?? ''));
    await carLog(ctx, id, String(v.carlicense), 'edit', changed.length ? `修改：${changed.join('、')}` : '保存（无变化）');
  },
  async beforeDelete(ctx, row) {
    const id = Number(row.id);
    const unpaid = await ctx.db
      .selectFrom('fee_bills')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('status', '<>', 'Y')
      .where((eb) => {
        const arms = [eb('car_id', '=', id)];
        if (row.space_id !== null && row.main_car_id === null) arms.push(eb('space_id', '=', Number(row.space_id)));
        return eb.or(arms);
      })
      .executeTakeFirstOrThrow();
    if (unpaid.n > 0) fail(`车辆 ${String(row.carlicense)} 还有 ${unpaid.n} 笔停车费未缴，不能删除`);
    if ((await memberCount(ctx, id)) > 0) fail(`车辆 ${String(row.carlicense)} 还有成员车辆共用车位，请先删除或释放成员车辆`);
    // deleting the main car frees its space
    if (row.space_id !== null && row.main_car_id === null) await freeTheSpace(ctx, Number(row.space_id));
    await ctx.db.updateTable('cars').set({ space_id: null }).where('rid', '=', ctx.rid).where('id', '=', id).execute();
    await carLog(ctx, id, String(row.carlicense), 'delete', '删除车辆');
  },
  summaries: {
    list: '车辆列表：车牌、房屋、车主、车型、颜色、品牌、停车场、车位、租售类型（月租/出售/内部/免费）、起止日期、主车；可按车牌、停车场、租售类型、房屋、楼栋、车主、状态、是否绑定车位、登记时间筛选',
    add: '登记车辆（车牌校验含新能源 8 位车牌，小区内唯一；车主须为该房屋的在住住户；月租、出售须选空闲车位，月租使车位变为出租、出售使其变为出售；选主车即为成员车辆，共用主车车位）',
    edit: '修改车辆（已绑定车位的车辆不能在此更换停车场、车位、租售类型或主车；月租车的结束日期只能续费延长）',
    del: '删除车辆（有未缴停车费或成员车辆时拒绝；删除主车释放其车位）',
  },
});

const carrelease = defineMethod('carrelease', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: true,
  summary: '释放车位：主车释放后车位变为空闲（还有成员车辆共用时拒绝）；成员车辆释放只退出共用',
  async handler(ctx, input) {
    const c = await ctx.db
      .selectFrom('cars')
      .select(['id', 'carlicense', 'space_id', 'main_car_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!c) return fail('车辆不存在');
    if (c.space_id === null) fail(`车辆 ${c.carlicense} 没有绑定车位`);
    const title = await spaceTitle(ctx, c.space_id);
    if (c.main_car_id === null) {
      const n = await memberCount(ctx, input.id);
      if (n > 0) fail(`车位 ${title} 还有 ${n} 辆成员车辆共用，请先释放成员车辆`);
      await ctx.db
        .selectFrom('parking_spaces')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(c.space_id))
        .forUpdate()
        .execute();
      await freeTheSpace(ctx, Number(c.space_id));
    }
    await ctx.db
      .updateTable('cars')
      .set({ space_id: null, main_car_id: null })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    await carLog(ctx, input.id, c.carlicense, 'release', `释放车位 ${title}`);
    return reply({ id: input.id }, `已释放车位 ${title}`);
  },
});

const carassign = defineMethod('carassign', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: true,
  summary: '为未绑定车位的车辆分配空闲车位：月租使车位变为出租（须有结束日期），出售使其变为出售；车辆的停车场随车位',
  async handler(ctx, input) {
    const c = await ctx.db
      .selectFrom('cars')
      .select(['id', 'hid', 'member_id', 'carlicense', 'space_id', 'start_date', 'end_date'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!c) return fail('车辆不存在');
    if (c.space_id !== null) fail(`车辆 ${c.carlicense} 已绑定车位，请先释放`);
    const s = await freeSpace(ctx, input.space_id, null);
    const lease: LeaseType = input.lease_type;
    const start = input.start_date ?? c.start_date ?? today();
    const end = input.end_date ?? c.end_date ?? null;
    if (lease === 'M' && !end) fail('月租车须填写结束日期');
    if (end && end < start) fail('结束日期不能早于开始日期');
    const v = { hid: c.hid, member_id: c.member_id, carlicense: c.carlicense, lease_type: lease, start_date: start, end_date: end };
    await ctx.db
      .updateTable('cars')
      .set({ lot_id: Number(s.lot_id), space_id: input.space_id, lease_type: lease, start_date: start, end_date: end, main_car_id: null })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    await takeSpace(ctx, input.space_id, v);
    const title = await spaceTitle(ctx, input.space_id);
    await carLog(ctx, input.id, c.carlicense, 'assign', describe(v, title));
    return reply({ id: input.id }, `已分配车位 ${title}`);
  },
});

const carmainSmallList = defineMethod('carmain_small_list', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: false,
  summary: '主车下拉：房屋中占用车位的车辆（id、title「车牌 车位」），供登记成员车辆',
  async handler(ctx, input) {
    if (!input.hid) return { items: [] };
    const items = await ctx.db
      .selectFrom('cars as c')
      .innerJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 'c.rid').onRef('s.id', '=', 'c.space_id'))
      .select(['c.id', sql<string>`c.carlicense || ' ' || s.title`.as('title')])
      .where('c.rid', '=', ctx.rid)
      .where('c.hid', '=', input.hid)
      .where('c.main_car_id', 'is', null)
      .orderBy('c.id')
      .execute();
    return { items: items.map((c) => ({ id: Number(c.id), title: c.title })) };
  },
});

export const parkingListMethods = defineResource(parkingList, {
  table: 'parking_lists',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('parking_lists as t')
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 't.rid').onRef('l.id', '=', 't.lot_id'))
      .selectAll('t')
      .select('l.title as lot_title')
      .select(sql<string>`CASE WHEN current_date BETWEEN t.start_date AND t.end_date THEN 'Y' ELSE 'N' END`.as('valid'))
      .where('t.rid', '=', rid),
  where: { carlicense: (qb, v) => qb.where('t.carlicense', 'ilike', likePattern(normalizePlate(String(v)))) },
  row: (r) => ({ ...r, id: Number(r.id), lot_id: Number(r.lot_id), created_by: undefined }),
  unique: [{ on: ['lot_id', 'carlicense'], message: (v) => `该停车场的名单中已有车牌 ${String(v.carlicense)}` }],
  async check(ctx, v) {
    await lotOf(ctx, Number(v.lot_id));
  },
  summaries: {
    list: '黑白名单：停车场、车牌、名单（黑名单/白名单）、生效与失效日期、原因、当前是否有效；可按停车场、车牌、名单筛选',
    add: '加入黑名单或白名单（同一停车场一个车牌一条）',
  },
});

export const carModule = [...carMethods, carrelease, carassign, carmainSmallList, ...parkingListMethods];
