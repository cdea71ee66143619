/**
 * Visitors (/carpark/visitorlist; contract/src/visitors/visitors.ts; docs/product.md#visitors): the
 * register list as a resource, review and cancel as the visitor workflow, the pass code's revoke and
 * its check by a door device, the car's hold (car.ts) and the release that ends it.
 */
import {
  PASS_EARLY_MINUTES,
  PASS_MAX_USES,
  VISIT_MAX_DAYS,
  VISITOR_ROLES,
  enumText,
  visitor,
  visitorFlow,
  VISITOR_STATUS,
  type FilterValue,
  type VisitorPassAnswer,
  type VisitorRow,
} from '@wuye/contract';
import { livingPeople, roomContact } from '../owners/livingPeople.js';
import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { wireTime } from '../../lib/wire.js';
import { releaseDue, syncCar } from './car.js';
import { syncFace } from './face.js';
import { notify } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';
import { logVisitorPass, passDevice } from './passLog.js';
import { visitorSettings } from './settings.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource's query is typed by the kit as any */

/** A pass code: 12 characters of an alphabet without look-alikes (0/O, 1/I). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function newPassCode(): string {
  let s = '';
  for (let i = 0; i < 12; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** The rows of the list, info and export: the visit with its room, owner, lot and registrar. */
export function visitorQuery(db: Kysely<any>, rid: number) {
  return db
    .selectFrom('visitors as t')
    .innerJoin('rooms as r', (j: any) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
    .leftJoin('members as m', (j: any) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
    .leftJoin('parking_lots as l', (j: any) => j.onRef('l.rid', '=', 't.rid').onRef('l.id', '=', 't.lot_id'))
    .leftJoin('accounts as a', 'a.id', 't.created_by')
    .selectAll('t')
    .select([
      'r.address',
      'r.bid',
      'r.tid',
      sql<string>`coalesce(m.realname, '')`.as('owner_name'),
      sql<string>`coalesce(m.mobile, '')`.as('owner_mobile'),
      sql<string>`coalesce(l.title, '')`.as('lot_title'),
      sql<string>`coalesce(a.name, '')`.as('creator'),
    ])
    .where('t.rid', '=', rid);
}

/** The wire row: the pass code shows only while it may open. */
function wireRow(r: Record<string, any>): VisitorRow {
  const live = (r.status === 'Y' || r.status === 'D') && r.pass_revoked === 'N';
  const leave = typeof r.leave_time === 'string' ? r.leave_time : wireTime(r.leave_time);
  return {
    id: Number(r.id),
    realname: r.realname,
    gender: r.gender,
    gender_ch: r.gender_ch,
    mobile: r.mobile,
    hid: Number(r.hid),
    bid: Number(r.bid),
    tid: Number(r.tid),
    address: r.address,
    member_id: r.member_id === null ? null : Number(r.member_id),
    owner_name: r.owner_name,
    owner_mobile: r.owner_mobile,
    visit_cause: r.visit_cause,
    visit_note: r.visit_note,
    visit_time: r.visit_time,
    leave_time: leave,
    carlicense: r.carlicense,
    companions: r.companions,
    photo: r.photo,
    status: r.status,
    status_ch: r.status_ch,
    pass_code: live ? r.pass_code : '',
    pass_uses: r.pass_uses,
    pass_revoked: r.pass_revoked,
    pass_valid: live && r.pass_uses < PASS_MAX_USES && leave > wireTime(new Date()),
    last_pass_time: r.last_pass_at ?? '',
    car_status: r.car_status,
    car_status_ch: r.car_status_ch,
    car_remark: r.car_remark,
    lot_id: r.lot_id === null ? null : Number(r.lot_id),
    lot_title: r.lot_title,
    space_title: r.space_title,
    free_until: r.free_until ?? '',
    review_remark: r.review_remark,
    creator: r.creator,
    create_time: r.create_time,
  };
}

export async function visitorAnswer(ctx: CommunityCtx, id: number): Promise<VisitorRow> {
  const row = (await visitorQuery(ctx.db as any, ctx.rid)
    .where('t.id', '=', id)
    .executeTakeFirst()) as Record<string, any> | undefined;
  if (!row) return fail('访客不存在');
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(row)) out[k === 'created_at' ? 'create_time' : k] = v instanceof Date ? wireTime(v) : v;
  out.status_ch = enumText(VISITOR_STATUS, out.status);
  out.car_status_ch = enumText(visitor.def.fields.car_status.enum, out.car_status);
  out.gender_ch = enumText(visitor.def.fields.gender.enum, out.gender);
  return wireRow(out);
}

/** Statuses the filter offers: '' is 待审核 there (the kit's '' means no filter), sent as `pending`. */
const statusWhere = (qb: any, v: FilterValue) => qb.where('t.status', '=', v === 'pending' ? '' : v);

type Values = Record<string, unknown>;

/** The rules of a registration or an edit (the kit checked the room and that the owner lives there). */
async function checkVisit(ctx: CommunityCtx, values: Values, before?: Values): Promise<void> {
  if (before && before.status !== '' && before.status !== 'Y') {
    fail(`该访客${enumText(VISITOR_STATUS, String(before.status))}，不能修改`);
  }
  const visit = String(values.visit_time);
  const leave = String(values.leave_time);
  const span = await sql<{ days: number; past: boolean }>`SELECT
      extract(epoch FROM (${leave}::timestamptz - ${visit}::timestamptz)) / 86400 AS days,
      ${leave}::timestamptz <= now() AS past`.execute(ctx.db);
  const { days, past } = span.rows[0]!;
  if (Number(days) > VISIT_MAX_DAYS) fail(`一次登记的来访时长不能超过${VISIT_MAX_DAYS}天`);
  if (past) fail('离开时间已过，不能登记');
  const cause = String(values.visit_cause);
  if (!before || before.visit_cause !== cause) {
    const item = await ctx.db
      .selectFrom('dict_items')
      .select('id')
      .where('group_id', '=', ctx.session.groupId)
      .where((eb) => eb.or([eb('rid', 'is', null), eb('rid', '=', ctx.rid)]))
      .where('type', '=', 'visitor_reason')
      .where('value', '=', cause)
      .where('status', '=', 'Y')
      .executeTakeFirst();
    if (!item) fail('来访事由不存在，请在数据字典的“来访事由”中选择');
  }
  const plate = String(values.carlicense ?? '');
  if (plate !== '') {
    const s = await visitorSettings(ctx.db, ctx.rid);
    if (s.daily_car_limit > 0) {
      // the owner's visits of that day with a car (cancelled and refused ones do not count); locked so two registrations wait
      await ctx.db
        .selectFrom('members')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(values.member_id))
        .forUpdate()
        .execute();
      let qb = ctx.db
        .selectFrom('visitors')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', ctx.rid)
        .where('member_id', '=', Number(values.member_id))
        .where('carlicense', '<>', '')
        .where('status', 'not in', ['C', '3'])
        .where(sql<boolean>`visit_time::date = ${visit}::timestamptz::date`);
      if (before) qb = qb.where('id', '<>', Number(before.id));
      const { n } = await qb.executeTakeFirstOrThrow();
      if (n >= s.daily_car_limit) {
        fail(`该业主 ${visit.slice(0, 10)} 已登记 ${n} 辆访客车辆，已达每日上限（${s.daily_car_limit} 辆），不能再登记车辆`);
      }
    }
  }
}

/**
 * After every change of a visit, its car and its face follow it: the reserved space and white list,
 * the face grant on the doors. `fresh`: the plate or the visit time changed, so a hold is taken anew.
 */
async function followVisit(ctx: CommunityCtx, id: number, fresh = false): Promise<void> {
  await syncCar(ctx.db, ctx.rid, id, fresh);
  await syncFace(ctx.db, ctx.rid, id, ctx.session.accountId);
}

const resourceMethods = defineResource(visitor, {
  table: 'visitors',
  query: (db, rid) => visitorQuery(db, rid),
  where: {
    keyword: (qb, v) => {
      const text = String(v);
      const op = containsOperator(text);
      const p = likePattern(text.toUpperCase() === text ? text : text);
      return qb.where((eb: any) =>
        eb.or([eb('t.realname', op, p), eb('t.mobile', op, p), eb('t.carlicense', op, likePattern(text.toUpperCase()))]),
      );
    },
    status: statusWhere,
    visit_day: (qb, v) => {
      const [from, to] = v as [string, string];
      return qb.where('t.visit_time', '>=', sql`${from}::date`).where('t.visit_time', '<', sql`${to}::date + 1`);
    },
  },
  row: (r) => wireRow(r),
  async values(input, ctx, before) {
    if (before) return input;
    const s = await visitorSettings(ctx.db, ctx.rid);
    return { ...input, status: s.review === 'Y' ? '' : 'Y', pass_code: newPassCode(), created_by: ctx.session.accountId };
  },
  check: checkVisit,
  async after(ctx, id, values, before) {
    if (!before) {
      await writeFlowLog(ctx, visitorFlow.def, id, { transition: 'create', from: '', to: String(values.status) });
      await followVisit(ctx, id);
      if (values.status === 'Y') await notifyPass(ctx, id);
      return;
    }
    const moved = before.carlicense !== values.carlicense || wireTime(before.visit_time as Date) !== values.visit_time;
    await writeFlowLog(ctx, visitorFlow.def, id, { transition: 'edit', from: String(before.status), to: String(before.status) });
    await followVisit(ctx, id, moved);
  },
  summaries: {
    list: '访客列表（关键字：姓名、手机号、车牌；房屋、状态、车辆状态、来访日期）',
    add: '登记访客：按设置待审核或直接通过，生成通行码；有车牌时预留车位并加入白名单（每位业主每日车辆上限）',
    edit: '修改访客（待审核、已通过的）；改车牌或来访时间时重新预留车位',
    info: '访客详情（含通行码，已通过或已到访且未作废时）',
  },
});

const flowMethods = defineWorkflow(visitorFlow, {
  table: 'visitors',
  // runs after the state's update, in the same transaction: the car follows the new state (an
  // approval reserves, a refusal or a cancel releases), then the row is answered as it stands
  answer: async (ctx, id) => {
    await followVisit(ctx, id);
    return visitorAnswer(ctx, id);
  },
  transitions: {
    approve: {
      run: async (ctx, row) => notifyPass(ctx, Number(row.id)),
      set: (_ctx, input) => ({ review_remark: input.remark ?? '' }),
      message: '已通过',
    },
    refuse: {
      run: async (_ctx, _row, input) => {
        if (!String(input.remark ?? '').trim()) fail('请填写拒绝原因');
      },
      set: (_ctx, input) => ({ review_remark: input.remark ?? '' }),
      message: '已拒绝',
    },
    cancel: { message: '已取消' },
  },
  summaries: {
    visitorapprove: '审核访客登记：通过（生成可用的通行码、预留车位）或拒绝（须填写原因）',
    visitorcancel: '取消访客：通行码失效，预留的车位与白名单释放',
  },
  logRoles: VISITOR_ROLES.staff,
});

const visitorrevoke = defineMethod('visitorrevoke', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: true,
  summary: '作废通行码：之后扫码不再开门，预留的车位与白名单释放',
  async handler(ctx, input) {
    const v = await ctx.db
      .selectFrom('visitors')
      .select(['id', 'status', 'pass_revoked'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!v) return fail('访客不存在');
    if (v.pass_revoked === 'Y') return fail('该通行码已作废');
    if (v.status === 'C' || v.status === '3') return fail(`该访客${enumText(VISITOR_STATUS, v.status)}，通行码已失效`);
    await ctx.db
      .updateTable('visitors')
      .set({ pass_revoked: 'Y', review_remark: input.remark })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    await writeFlowLog(ctx, visitorFlow.def, input.id, {
      transition: 'revoke',
      from: v.status,
      to: v.status,
      input: { remark: input.remark },
    });
    await followVisit(ctx, input.id);
    return reply(await visitorAnswer(ctx, input.id), '通行码已作废');
  },
});

/** The scan's time: the device's (the simulator's clock) or now. */
async function scanTime(db: Kysely<DB>, time: string | undefined): Promise<Date> {
  if (!time) return new Date();
  const { rows } = await sql<{ at: Date }>`SELECT ${time}::timestamptz AS at`.execute(db);
  return rows[0]!.at;
}

/**
 * 访客通行码 (docs/product.md#notifications): once a visit is approved (at registration when the
 * community does not review, else by 审核通过), the visitor is texted the pass code, as the group's
 * message settings say.
 */
async function notifyPass(ctx: CommunityCtx, id: number): Promise<void> {
  const { rows } = await sql<{
    realname: string;
    mobile: string;
    pass_code: string;
    visit_time: Date;
    owner: string | null;
    region: string;
  }>`
    SELECT v.realname, v.mobile, v.pass_code, v.visit_time, m.realname AS owner, g.title AS region
    FROM visitors v JOIN regions g ON g.id = v.rid
    LEFT JOIN members m ON m.rid = v.rid AND m.id = v.member_id
    WHERE v.rid = ${ctx.rid} AND v.id = ${id}`.execute(ctx.db);
  const v = rows[0];
  if (!v) return;
  await notify(
    ctx.db,
    ctx.rid,
    'visitor_pass',
    { visitor: { name: v.realname, mobile: v.mobile } },
    {
      ...notifyText.visitor_pass({ visitor: v.realname, owner: v.owner, region: v.region, visitTime: v.visit_time, passCode: v.pass_code }),
      refId: id,
    },
  );
}

/** 访客到访 (docs/product.md#notifications): the member who invited the visitor (or the room's owner) hears of it. */
async function notifyArrival(
  ctx: CommunityCtx,
  v: { id: number; hid: number; realname: string; member_id: number | null },
  gate: string,
  at: Date,
): Promise<void> {
  const owner = v.member_id
    ? await ctx.db
        .selectFrom('members')
        .select(['realname', 'mobile'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', v.member_id)
        .executeTakeFirst()
    : await roomContact(ctx.db, ctx.rid, v.hid);
  await notify(
    ctx.db,
    ctx.rid,
    'visitor_arrive',
    { owner: owner ? { name: owner.realname, mobile: owner.mobile } : null, hid: v.hid, actor: ctx.session.accountId },
    {
      ...notifyText.visitor_arrive({ visitor: v.realname, at, gate }),
      refId: v.id,
    },
  );
}

const visitorpasscheck = defineMethod('visitorpasscheck', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: true,
  summary: '门禁扫访客通行码：来访前30分钟至离开时间内有效，最多使用2次（进、出），作废的不开门；开门记入通行记录，首次使用标记已到访',
  async handler(ctx, input) {
    const device = await passDevice(ctx, input.device_id);
    const at = await scanTime(ctx.db, input.time);
    const code = input.code.toUpperCase();
    const v = await ctx.db
      .selectFrom('visitors')
      .select(['id', 'realname', 'status', 'pass_uses', 'pass_revoked', 'visit_time', 'leave_time', 'hid', 'member_id'])
      .where('rid', '=', ctx.rid)
      .where('pass_code', '=', code)
      .forUpdate()
      .executeTakeFirst();
    const log = (open: boolean) =>
      logVisitorPass(ctx, {
        device,
        visitorId: v ? Number(v.id) : null,
        name: v?.realname ?? '',
        hid: v ? Number(v.hid) : null,
        memberId: null,
        at,
        open,
      });
    // a refusal is an answer, not an error: the device shows the reason; the scan is logged as refused
    const refuse = async (reason: string): Promise<VisitorPassAnswer> => {
      await log(false);
      return { open: false, reason, visitor_id: v ? Number(v.id) : null, realname: v?.realname ?? '', uses: v?.pass_uses ?? 0 };
    };
    if (!device.enabled) return refuse('设备已停用');
    if (!v) return refuse('通行码无效');
    if (v.pass_revoked === 'Y') return refuse('通行码已作废');
    if (v.status === '') return refuse('访客登记待审核，暂不能通行');
    if (v.status === 'C') return refuse('访客已取消');
    if (v.status === '3') return refuse('访客登记未通过审核');
    if (at.getTime() < v.visit_time.getTime() - PASS_EARLY_MINUTES * 60_000) {
      return refuse(`未到通行时间（来访前${PASS_EARLY_MINUTES}分钟起可用，来访时间 ${wireTime(v.visit_time)}）`);
    }
    if (at.getTime() > v.leave_time.getTime()) return refuse(`通行码已过期（离开时间 ${wireTime(v.leave_time)}）`);
    if (v.pass_uses >= PASS_MAX_USES) return refuse(`通行码已使用${PASS_MAX_USES}次，不能再次使用`);
    const uses = v.pass_uses + 1;
    await ctx.db
      .updateTable('visitors')
      .set({ pass_uses: uses, last_pass_at: at, ...(v.status === 'Y' ? { status: 'D' as const } : {}) })
      .where('rid', '=', ctx.rid)
      .where('id', '=', v.id)
      .execute();
    if (v.status === 'Y') {
      await writeFlowLog(ctx, visitorFlow.def, Number(v.id), { transition: 'arrive', from: 'Y', to: 'D', input: { device: device.title } });
      await notifyArrival(ctx, { id: Number(v.id), hid: Number(v.hid), realname: v.realname, member_id: v.member_id }, device.title, at);
    }
    await log(true);
    const opened: VisitorPassAnswer = {
      open: true,
      reason: uses === 1 ? '欢迎光临' : '一路顺风',
      visitor_id: Number(v.id),
      realname: v.realname,
      uses,
    };
    return reply(opened, '开门');
  },
});

const visitorcarrelease = defineMethod('visitorcarrelease', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: true,
  summary: '结束免费时长已到的访客车辆预留（释放车位、移出白名单）；time 为模拟时钟的时间，空为现在。任务每分钟自动运行',
  async handler(ctx, input) {
    const at = await scanTime(ctx.db, input.time);
    const released = await releaseDue(ctx.db, at, ctx.rid);
    return reply({ released }, released > 0 ? `已释放 ${released} 个访客车位` : '没有到期的访客车位');
  },
});

const visitorToday = defineMethod('visitor_today', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: false,
  summary: '今日访客：预计到访（待审核、已通过）、已到访、预留中的访客车辆',
  handler: (ctx) => visitorsToday(ctx.db, ctx.rid),
});

/** Today's visitors (the business day): expected (待审核, 已通过), arrived, and the visitors' cars holding a space now. */
export async function visitorsToday(db: Kysely<DB>, rid: number): Promise<{ expected: number; arrived: number; cars: number }> {
  const { rows } = await sql<{ expected: number; arrived: number; cars: number }>`
    SELECT
      count(*) FILTER (WHERE status IN ('', 'Y') AND visit_time >= current_date AND visit_time < current_date + 1)::int AS expected,
      count(*) FILTER (WHERE status = 'D' AND visit_time >= current_date AND visit_time < current_date + 1)::int AS arrived,
      (SELECT count(*)::int FROM visitors r WHERE r.rid = ${rid} AND r.car_status = 'R') AS cars
    FROM visitors WHERE rid = ${rid} AND visit_time >= current_date AND visit_time < current_date + 1`.execute(db);
  return rows[0] ?? { expected: 0, arrived: 0, cars: 0 };
}

const visitorMemberSmall = defineMethod('visitor_member_small_list', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: false,
  summary: '登记访客选被访业主：该房屋的在住住户（id、姓名与身份；手机号不给，门岗不看业主手机）',
  async handler(ctx, input) {
    return { items: (await livingPeople(ctx.db, ctx.rid, input.hid)).map(({ id, title }) => ({ id, title })) };
  },
});

const visitorDeviceSmall = defineMethod('visitor_device_small_list', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: false,
  summary: '验证通行码选门禁设备：本小区的门禁设备（id、title）',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('devices')
      .select(['id', 'title', 'address'])
      .where('rid', '=', ctx.rid)
      .where('family', '=', 'door')
      .orderBy('id')
      .execute();
    return { items: rows.map((r) => ({ id: Number(r.id), title: r.address ? `${r.title}（${r.address}）` : r.title })) };
  },
});

export const visitorMethods = [
  visitorMemberSmall,
  visitorDeviceSmall,
  ...resourceMethods,
  ...flowMethods,
  visitorrevoke,
  visitorpasscheck,
  visitorcarrelease,
  visitorToday,
];
