/**
 * Repair tickets (报修工单, /steward/repairs; docs/product.md#repairs): registration (also for other
 * areas: createRepairTicket), the list with its status bar, the detail, export, and the repair
 * workflow's transitions (contract repairFlow): dispatch (one or a batch), grab, accept, pause and
 * resume (the clock stops), transfer, return, finish (a paid household repair's fee bill), rate,
 * visit, reopen, close (voids an unpaid bill), and urging as an event. A technician's steps need
 * the ticket to be theirs. Deadlines are kept on the ticket; the clock job (repairsClock.ts) marks
 * breaches, warns, auto-rates and runs the round-robin dispatch.
 */
import {
  enumKeys,
  enumText,
  fenToYuan,
  REPAIR_HELD,
  REPAIR_OPEN,
  REPAIR_SOURCE,
  REPAIR_STATUS,
  repairFlow,
  toFen,
  type RepairAddInput,
  type RepairDetail,
  type RepairFeeLine,
  type RepairItem,
  type RepairStatus,
} from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { defineWorkflow, statusBarCounts, writeFlowLog, type StateCount } from '../../lib/workflow.js';
import { periodRange } from '../fees/calc.js';
import { registerBillPaidListener } from '../fees/billPaid.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { notify } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';
import { roomContact } from '../owners/livingPeople.js';
import { openCounts, repairSettings, repairTechs } from './repairTypes.js';
import { recordServiceRating } from './scores.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- a workflow row is read by column name */
type Row = Record<string, any>;

const link = (sourceId: string) => `/steward/repairs?id=${sourceId.split('-')[0]}`;
/** The dispatcher's to-dos: tickets waiting for dispatch (source id: the ticket) and breaches (`<id>-overdue`). */
export const deskBacklog = registerBacklogSource({ kind: 'repair', roles: STEWARD_ROLES.desk, link });
/** The technicians' to-dos: a ticket waiting for its handler's acceptance, and a deadline near (`<id>-warn`). */
export const techBacklog = registerBacklogSource({ kind: 'repairwork', roles: STEWARD_ROLES.technician, link });

const ticketSelect = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('repair_tickets as t')
    .innerJoin('repair_types as y', (j) => j.onRef('y.rid', '=', 't.rid').onRef('y.id', '=', 't.type_id'))
    .leftJoin('repair_types as yp', (j) => j.onRef('yp.rid', '=', 'y.rid').onRef('yp.id', '=', 'y.parent_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
    .leftJoin('buildings as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.bid'))
    .selectAll('t')
    .select(['y.mode', 'y.paid', 'y.staff_ids'])
    .select(sql<string>`CASE WHEN yp.id IS NULL THEN y.title ELSE yp.title || ' / ' || y.title END`.as('type_title'))
    .select(
      sql<string>`CASE WHEN r.id IS NOT NULL THEN r.address || CASE WHEN t.place <> '' THEN ' ' || t.place ELSE '' END
        ELSE coalesce(b.title || ' ', '') || t.place END`.as('location'),
    )
    .where('t.rid', '=', rid);

type Raw = Awaited<ReturnType<ReturnType<typeof ticketSelect>['executeTakeFirstOrThrow']>>;

function toItem(t: Raw, ctx: CommunityCtx): RepairItem {
  const me = ctx.session.accountId;
  return {
    id: Number(t.id),
    no: t.no,
    source: t.source as RepairItem['source'],
    source_ch: enumText(REPAIR_SOURCE, t.source),
    type_id: Number(t.type_id),
    type_title: t.type_title,
    mode: t.mode as RepairItem['mode'],
    paid: t.paid as RepairItem['paid'],
    hid: Number(t.hid ?? 0),
    bid: Number(t.bid ?? 0),
    location: t.location,
    reporter: t.reporter,
    phone: t.phone,
    appointment_time: wireTime(t.appointment_at),
    content: t.content,
    urgent: t.urgent,
    status: t.status as RepairStatus,
    status_ch: enumText(REPAIR_STATUS, t.status),
    handler_id: Number(t.handler_id ?? 0),
    handler_name: t.handler_name,
    mine: t.handler_id !== null && Number(t.handler_id) === me,
    bound: t.staff_ids.map(Number).includes(me),
    accept_by: wireTime(t.accept_by),
    finish_by: wireTime(t.finish_by),
    overdue: t.overdue,
    urge_count: t.urge_count,
    reopen_count: t.reopen_count,
    fee_total: t.fee_total,
    rate_overall: t.rate_overall ?? 0,
    create_time: wireTime(t.created_at),
    finish_time: wireTime(t.finished_at),
    complete_time: wireTime(t.completed_at),
  };
}

async function item(ctx: CommunityCtx, id: number): Promise<RepairItem> {
  return toItem(await ticketSelect(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirstOrThrow(), ctx);
}

type Filters = {
  no?: string | undefined;
  reporter?: string | undefined;
  phone?: string | undefined;
  type_id?: number | undefined;
  status?: string | undefined;
  handler_id?: number | undefined;
  source?: string | undefined;
  hid?: number | undefined;
  created?: [string, string] | undefined;
  finished?: [string, string] | undefined;
  overdue?: string | undefined;
  rating?: string | undefined;
  urgent?: string | undefined;
  mine?: string | undefined;
};

/** The list's filters but the state (the status bar counts under them). */
function filtered<Q extends ReturnType<typeof ticketSelect>>(qb: Q, f: Filters, ctx: CommunityCtx): Q {
  let q = qb as ReturnType<typeof ticketSelect>;
  const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (f.no) q = q.where('t.no', 'ilike', like(f.no));
  if (f.reporter) q = q.where('t.reporter', 'ilike', like(f.reporter));
  if (f.phone) q = q.where('t.phone', 'like', like(f.phone));
  if (f.type_id) q = q.where((eb) => eb.or([eb('t.type_id', '=', f.type_id!), eb('y.parent_id', '=', f.type_id!)]));
  if (f.handler_id) q = q.where('t.handler_id', '=', f.handler_id);
  if (f.source) q = q.where('t.source', '=', f.source as 'D' | 'T' | 'N');
  if (f.hid) q = q.where('t.hid', '=', f.hid);
  if (f.created) q = q.where(withinDays('t.created_at', f.created));
  if (f.finished) q = q.where(withinDays('t.finished_at', f.finished));
  if (f.overdue) q = q.where('t.overdue', '=', f.overdue === 'Y');
  if (f.urgent) q = q.where('t.urgent', '=', f.urgent === 'Y');
  if (f.rating === 'good') q = q.where('t.rate_overall', '>=', 4);
  if (f.rating === 'bad') q = q.where('t.rate_overall', '<=', 2);
  if (f.rating === 'none') q = q.where('t.rate_overall', 'is', null);
  if (f.mine === 'todo') q = q.where('t.handler_id', '=', ctx.session.accountId).where('t.status', 'in', [...REPAIR_HELD]);
  if (f.mine === 'done') {
    // tickets the technician handled that are past their hands: finished by them, or moved on from them
    q = q.where(
      sql<boolean>`t.status NOT IN ('A', 'P', 'S') AND (t.handler_id = ${ctx.session.accountId} OR EXISTS (
        SELECT 1 FROM workflow_logs l WHERE l.rid = t.rid AND l.flow = 'repair' AND l.row_id = t.id AND l.created_by = ${ctx.session.accountId}
          AND l.transition IN ('accept', 'finish', 'transfer', 'return')))`,
    );
  }
  return q as Q;
}

const repairlist = defineMethod('repairlist', {
  side: 'community',
  roles: STEWARD_ROLES.repairRead,
  writes: false,
  summary:
    '报修工单列表：工单号、来源、位置、类型、报修人、电话、预约、状态（含超时、催单次数）、处理人、截止时间、评分；可按工单号、报修人、电话、类型、状态、处理人、来源、房屋、登记与完工日期、超时、评价、紧急、我的待办/已办筛选；附各状态数量与超时数（状态栏）',
  async handler(ctx, input) {
    const base = filtered(ticketSelect(ctx.db, ctx.rid), input, ctx);
    const qb = input.status ? base.where('t.status', '=', input.status as RepairStatus) : base;
    const countRows = await filtered(
      ctx.db
        .selectFrom('repair_tickets as t')
        .innerJoin('repair_types as y', (j) => j.onRef('y.rid', '=', 't.rid').onRef('y.id', '=', 't.type_id'))
        .where('t.rid', '=', ctx.rid) as unknown as ReturnType<typeof ticketSelect>,
      { ...input, overdue: undefined },
      ctx,
    )
      .clearSelect()
      .select(['t.status', sql<number>`count(*)::int`.as('n'), sql<number>`count(*) FILTER (WHERE t.overdue)::int`.as('late')])
      .groupBy('t.status')
      .execute();
    // a ticket is late only while open
    const counts = statusBarCounts(countRows as unknown as StateCount[], enumKeys(REPAIR_STATUS), REPAIR_OPEN);
    const page = await listPage(qb, input, 't.id');
    return { total: page.total, items: page.items.map((t) => toItem(t, ctx)), counts };
  },
});

const repairinfo = defineMethod('repairinfo', {
  side: 'community',
  roles: STEWARD_ROLES.repairRead,
  writes: false,
  summary: '报修工单详情：登记信息、照片、处理人与时限、暂停、完工说明与维修前后照片、用料、收费明细与账单、评价、回访、关闭原因',
  async handler(ctx, input): Promise<RepairDetail> {
    const t = await ticketSelect(ctx.db, ctx.rid)
      .leftJoin('fee_bills as fb', (j) => j.onRef('fb.rid', '=', 't.rid').onRef('fb.id', '=', 't.bill_id'))
      .select(sql<string>`coalesce(fb.status, '')`.as('bill_status'))
      .where('t.id', '=', input.id)
      .executeTakeFirst();
    if (!t) return fail('报修工单不存在');
    return {
      ...toItem(t, ctx),
      photos: t.photos,
      pause_reason: t.pause_reason,
      resume_date: t.resume_date ?? '',
      paused_seconds: t.paused_seconds,
      finish_note: t.finish_note,
      materials: t.materials,
      before_photos: t.before_photos,
      after_photos: t.after_photos,
      fee_lines: (typeof t.fee_lines === 'string' ? JSON.parse(t.fee_lines) : t.fee_lines) as RepairFeeLine[],
      bill_id: Number(t.bill_id ?? 0),
      bill_status: t.bill_status,
      pay_time: wireTime(t.paid_at),
      rate_speed: t.rate_speed ?? 0,
      rate_service: t.rate_service ?? 0,
      rate_text: t.rate_text,
      rate_time: wireTime(t.rated_at),
      rate_auto: t.rate_auto,
      visit_satisfied: t.visit_satisfied ?? '',
      visit_note: t.visit_note,
      visit_time: wireTime(t.visited_at),
      close_reason: t.close_reason,
      complaint_id: Number(t.complaint_id ?? 0),
      accept_time: wireTime(t.accepted_at),
      dispatch_time: wireTime(t.dispatched_at),
    };
  },
});

/** The next ticket number of the day: BX + yyyymmdd + 4 digits (numbers taken under a lock per community). */
async function nextNo(db: Kysely<DB>, rid: number): Promise<string> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('repair_no'), ${rid})`.execute(db);
  const prefix = `BX${today().replaceAll('-', '')}`;
  const last = await db
    .selectFrom('repair_tickets')
    .select(sql<string>`max(no)`.as('no'))
    .where('rid', '=', rid)
    .where('no', 'like', `${prefix}%`)
    .executeTakeFirst();
  const n = last?.no ? Number(last.no.slice(prefix.length)) + 1 : 1;
  return `${prefix}${String(n).padStart(4, '0')}`;
}

/**
 * Registers a ticket into 待派单 (repairadd; the complaints area turns a complaint into one with
 * `complaintId`): checks the type (enabled; a household type needs a room of the community, a
 * public one a place), computes the finish deadline from the appointment (or now) and the type's
 * hours, logs its creation and puts it on the dispatcher's to-do list.
 */
export async function createRepairTicket(
  ctx: CommunityCtx,
  input: RepairAddInput,
  opts: { complaintId?: number } = {},
): Promise<{ id: number; no: string }> {
  const type = await ctx.db
    .selectFrom('repair_types')
    .select(['id', 'title', 'area', 'status', 'finish_hours'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.type_id)
    .executeTakeFirst();
  if (!type) return fail('报修类型不存在');
  if (type.status !== 'Y') fail(`报修类型「${type.title}」已停用`);
  let bid = input.bid ?? null;
  if (type.area === 'H') {
    if (!input.hid) fail(`「${type.title}」是房屋报修，请选择报修房屋`);
    const room = await ctx.db
      .selectFrom('rooms')
      .select(['id', 'bid'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.hid!)
      .executeTakeFirst();
    if (!room) fail('所选房屋不存在或不属于当前小区');
    bid = room.bid;
  } else {
    if (input.hid) fail(`「${type.title}」是公共区域报修，请填写位置，不要选择房屋`);
    if (!input.place) fail('请填写公共区域位置');
    if (bid) {
      const b = await ctx.db.selectFrom('buildings').select('id').where('rid', '=', ctx.rid).where('id', '=', bid).executeTakeFirst();
      if (!b) fail('所选楼栋不存在');
    }
  }
  const appointment = input.appointment_time
    ? input.appointment_time.length === 16
      ? `${input.appointment_time}:00`
      : input.appointment_time
    : null;
  const no = await nextNo(ctx.db, ctx.rid);
  const row = await ctx.db
    .insertInto('repair_tickets')
    .values({
      rid: ctx.rid,
      no,
      source: input.source,
      type_id: type.id,
      hid: input.hid ?? null,
      bid,
      place: input.place,
      reporter: input.reporter,
      phone: input.phone,
      appointment_at: appointment,
      content: input.content,
      photos: input.photos,
      urgent: input.urgent,
      finish_by: sql<Date>`greatest(now(), coalesce(${appointment}::timestamp::timestamptz, now())) + make_interval(hours => ${type.finish_hours})`,
      complaint_id: opts.complaintId ?? null,
      created_by: ctx.session.accountId,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await writeFlowLog(ctx, repairFlow.def, id, { transition: 'create', from: '', to: 'W', input: { note: input.content.slice(0, 100) } });
  await deskBacklog.raise(ctx.db, ctx.rid, {
    sourceId: id,
    title: `报修待派单：${no}`,
    content: `${type.title}：${input.content.slice(0, 60)}`,
    submitter: ctx.session,
  });
  await notify(
    ctx.db,
    ctx.rid,
    'repair_submit',
    {
      owner: { name: input.reporter, mobile: input.phone },
      hid: input.hid ?? null,
      staffCodes: STEWARD_ROLES.desk,
      actor: ctx.session.accountId,
    },
    {
      ...notifyText.repair_submit({ no, type: type.title, content: input.content, reporter: input.reporter, phone: input.phone }),
      link: link(String(id)),
      refId: id,
    },
  );
  return { id, no };
}

const repairadd = defineMethod('repairadd', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: true,
  summary:
    '登记报修（代客、电话或内部报修）：类型、房屋或公共区域位置、报修人、11位手机号、预约时间、内容（700字内）、最多9张照片、紧急；按类型计算完成时限，进入待派单并记入调度员待办',
  async handler(ctx, input) {
    const made = await createRepairTicket(ctx, input);
    return reply(made, `已登记报修，工单号 ${made.no}`);
  },
});

const repairroomowner = defineMethod('repairroomowner', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: false,
  summary: '登记报修时选了房屋：该房屋在住的业主（无业主时第一位在住住户）姓名与手机号，用于填写报修人',
  async handler(ctx, input) {
    const room = await ctx.db
      .selectFrom('rooms')
      .select(['id', 'address'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.hid)
      .executeTakeFirst();
    if (!room) return fail('房屋不存在');
    const contact = await roomContact(ctx.db, ctx.rid, room.id);
    return { address: room.address, reporter: contact?.realname ?? '', phone: contact?.mobile ?? '' };
  },
});

/** A technician's step: only on a ticket handed to them. */
function ownTicket(ctx: CommunityCtx, row: Row) {
  if (row.handler_id === null || Number(row.handler_id) !== ctx.session.accountId) fail('该工单不是您负责的');
}

/** The technician may take one more ticket (the desk's maximum of open tickets). */
async function checkTech(ctx: CommunityCtx, techId: number): Promise<{ id: number; name: string }> {
  const [tech] = await repairTechs(ctx.db, ctx.rid, [techId]);
  if (!tech) return fail('维修师傅不存在，或不是本小区持有维修权限的员工');
  const { max_open: max } = await repairSettings(ctx.db, ctx.rid);
  const open = (await openCounts(ctx.db, ctx.rid, [techId])).get(techId) ?? 0;
  if (open >= max) fail(`${tech.name} 已有 ${open} 张未完成工单，达到每人最多 ${max} 张的上限`);
  return tech;
}

const typeOf = (ctx: CommunityCtx, typeId: number) =>
  ctx.db.selectFrom('repair_types').selectAll().where('rid', '=', ctx.rid).where('id', '=', typeId).executeTakeFirstOrThrow();

/**
 * Hands a ticket to a technician: the accept deadline is set at the first dispatch only. `actor`, the
 * staff member handing it (null: the clock's auto-dispatch), is not told of it: a technician taking a
 * ticket themselves hears nothing of it.
 */
export async function handTo(db: Kysely<DB>, rid: number, row: Row, tech: { id: number; name: string }, actor: number | null) {
  const type = await db
    .selectFrom('repair_types')
    .select('accept_hours')
    .where('rid', '=', rid)
    .where('id', '=', row.type_id)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('repair_tickets')
    .set({
      handler_id: tech.id,
      handler_name: tech.name,
      dispatched_at: sql<Date>`now()`,
      accept_by: sql<Date>`coalesce(accept_by, now() + make_interval(hours => ${type.accept_hours}))`,
    })
    .where('rid', '=', rid)
    .where('id', '=', row.id)
    .execute();
  await deskBacklog.settle(db, rid, Number(row.id));
  await techBacklog.raise(db, rid, {
    sourceId: Number(row.id),
    title: `${tech.name}：报修待接单 ${row.no}`,
    content: String(row.content).slice(0, 60),
    account: Number(tech.id),
  });
  await notify(
    db,
    rid,
    'repair_dispatch',
    { owner: { name: String(row.reporter), mobile: String(row.phone) }, handler: Number(tech.id), actor },
    {
      ...notifyText.repair_dispatch({
        no: String(row.no),
        handler: tech.name,
        content: String(row.content),
        reporter: String(row.reporter),
        phone: String(row.phone),
      }),
      link: link(String(row.id)),
      refId: Number(row.id),
    },
  );
}

/** Voids the ticket's unpaid fee bill (deleted as the fee module deletes one; its kept totals follow), refusing a paid one. */
async function voidBill(ctx: CommunityCtx, row: Row) {
  if (!row.bill_id) return;
  const bill = await ctx.db
    .selectFrom('fee_bills')
    .select(['id', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', row.bill_id)
    .forUpdate()
    .executeTakeFirst();
  if (!bill) return;
  if (bill.status === 'Y') fail('该工单的维修费已缴纳，不能关闭或退单；退款请走退款流程');
  await ctx.db.deleteFrom('fee_bill_adjustments').where('rid', '=', ctx.rid).where('bill_id', '=', bill.id).execute();
  await ctx.db.updateTable('repair_tickets').set({ bill_id: null }).where('rid', '=', ctx.rid).where('id', '=', row.id).execute();
  await ctx.db.deleteFrom('fee_bills').where('rid', '=', ctx.rid).where('id', '=', bill.id).execute();
}

/** The fee item a ticket's bill is billed under: cost type 维修费 (found or made), an item of the ticket's own (disabled: never generated). */
async function repairItem(ctx: CommunityCtx, no: string): Promise<{ id: number; cost_type: string; title: string }> {
  let cost = await ctx.db
    .selectFrom('fee_cost_types')
    .select('cost_type')
    .where('rid', '=', ctx.rid)
    .where((eb) => eb.or([eb('title', '=', '维修费'), eb('cost_type', '=', 'repair')]))
    .orderBy(sql`title = '维修费'`, 'desc')
    .executeTakeFirst();
  if (!cost) {
    await ctx.db
      .insertInto('fee_cost_types')
      .values({ rid: ctx.rid, cost_type: 'repair', title: '维修费', sort: 90 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    cost = { cost_type: 'repair' };
  }
  const title = `维修费-${no}`;
  await ctx.db
    .insertInto('fee_items')
    .values({ rid: ctx.rid, cost_type: cost.cost_type, title, pricing: 'fixed', unit_price: '0', status: 'N', remark: '报修工单自动生成' })
    .onConflict((oc) => oc.columns(['rid', 'title']).doNothing())
    .execute();
  const found = await ctx.db
    .selectFrom('fee_items')
    .select(['id', 'cost_type', 'title'])
    .where('rid', '=', ctx.rid)
    .where('title', '=', title)
    .executeTakeFirstOrThrow();
  return { id: Number(found.id), cost_type: found.cost_type, title: found.title };
}

async function createBill(ctx: CommunityCtx, row: Row, totalFen: bigint): Promise<number> {
  const room = await ctx.db
    .selectFrom('rooms')
    .select(['id', 'bid', 'tid'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', row.hid)
    .executeTakeFirstOrThrow();
  const it = await repairItem(ctx, row.no);
  const day = today();
  const period = day.slice(0, 7);
  const amount = fenToYuan(totalFen);
  const bill = await ctx.db
    .insertInto('fee_bills')
    .values({
      rid: ctx.rid,
      hid: room.id,
      bid: room.bid,
      tid: room.tid,
      item_id: it.id,
      cost_type: it.cost_type,
      title: it.title,
      period,
      daterange: periodRange(period, 1).daterange,
      measure: '1',
      unit_price: amount,
      fee: amount,
      source: 'repair',
      due_date: day,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(bill.id);
}

const now = sql<Date>`now()`;

/**
 * A rating of a ticket counts for its handler's scores (docs/product.md#steward-scores); a handler
 * no longer of the community is skipped. The auto-rating and the demo data call it too.
 */
export async function rateHandler(
  db: Kysely<DB>,
  rid: number,
  t: { id: number; handler_id: number | null },
  score: number,
  ratedAt: Date,
): Promise<void> {
  if (!t.handler_id) return;
  const member = await db
    .selectFrom('account_regions')
    .select('account_id')
    .where('rid', '=', rid)
    .where('account_id', '=', t.handler_id)
    .executeTakeFirst();
  if (!member) return;
  await recordServiceRating(db, { rid, staffId: t.handler_id, source: 'repair', sourceId: t.id, score, ratedAt });
}

const flowMethods = defineWorkflow(repairFlow, {
  table: 'repair_tickets',
  answer: item,
  logRoles: STEWARD_ROLES.repairRead,
  transitions: {
    dispatch: {
      async run(ctx, row, input) {
        await handTo(ctx.db, ctx.rid, row, await checkTech(ctx, input.handler_id), ctx.session.accountId);
      },
      message: '已派单',
    },
    grab: {
      async run(ctx, row) {
        const type = await typeOf(ctx, row.type_id);
        if (type.mode !== 'G') fail('该报修类型不是抢单方式，请等待调度派单');
        if (!type.staff_ids.map(Number).includes(ctx.session.accountId)) fail('您未绑定该报修类型，不能抢单');
        await handTo(ctx.db, ctx.rid, row, await checkTech(ctx, ctx.session.accountId), ctx.session.accountId);
      },
      message: '抢单成功，请尽快接单',
    },
    accept: {
      async run(ctx, row) {
        ownTicket(ctx, row);
        await techBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: () => ({ accepted_at: now }),
      message: '已接单',
    },
    pause: {
      run: async (ctx, row) => ownTicket(ctx, row),
      set: (_ctx, input) => ({ paused_at: now, pause_reason: input.reason, resume_date: input.resume_date }),
      message: '已暂停，计时暂停',
    },
    resume: {
      run: async (ctx, row) => ownTicket(ctx, row),
      set: () => ({
        paused_seconds: sql<number>`paused_seconds + greatest(0, extract(epoch FROM now() - coalesce(paused_at, now())))::int`,
        paused_at: null,
      }),
      message: '已恢复处理，继续计时',
    },
    transfer: {
      async run(ctx, row, input) {
        ownTicket(ctx, row);
        if (input.handler_id === ctx.session.accountId) fail('不能转给自己');
        await handTo(ctx.db, ctx.rid, row, await checkTech(ctx, input.handler_id), ctx.session.accountId);
      },
      set: () => ({ accepted_at: null }),
      message: '已转单',
    },
    return: {
      async run(ctx, row, input) {
        ownTicket(ctx, row);
        await voidBill(ctx, row);
        await techBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
        await deskBacklog.raise(ctx.db, ctx.rid, {
          sourceId: Number(row.id),
          title: `报修退单待重新派单：${row.no}`,
          content: `${ctx.session.name} 退单：${String(input.reason)}`,
          submitter: ctx.session,
        });
      },
      set: () => ({ handler_id: null, handler_name: '', accepted_at: null }),
      message: '已退单，回到待派单',
    },
    finish: {
      async run(ctx, row, input) {
        ownTicket(ctx, row);
        const lines = input.fee_lines as RepairFeeLine[];
        const type = await typeOf(ctx, row.type_id);
        const total = lines.reduce((s, l) => s + toFen(l.amount), 0n);
        if (lines.length && (type.paid !== 'Y' || !row.hid)) fail('该报修是无偿维修或公共区域维修，不能填写收费明细');
        const billId = total > 0n ? await createBill(ctx, row, total) : null;
        await ctx.db
          .updateTable('repair_tickets')
          .set({
            finished_at: now,
            finish_note: input.note,
            materials: input.materials,
            before_photos: input.before_photos,
            after_photos: input.after_photos,
            fee_lines: JSON.stringify(lines),
            fee_total: fenToYuan(total),
            bill_id: billId,
            rate_since: billId ? null : now,
          })
          .where('rid', '=', ctx.rid)
          .where('id', '=', row.id)
          .execute();
        await techBacklog.settle(ctx.db, ctx.rid, `${row.id}-warn`, ctx.session.accountId);
        await notify(
          ctx.db,
          ctx.rid,
          'repair_finish',
          {
            owner: { name: String(row.reporter), mobile: String(row.phone) },
            hid: row.hid ? Number(row.hid) : null,
            actor: ctx.session.accountId,
          },
          {
            ...notifyText.repair_finish({
              no: String(row.no),
              by: ctx.session.name,
              note: String(input.note ?? ''),
              fee: billId ? fenToYuan(total) : null,
            }),
            link: link(String(row.id)),
            refId: Number(row.id),
          },
        );
      },
      async to(ctx, row, input) {
        const lines = input.fee_lines as RepairFeeLine[];
        if (lines.some((l) => toFen(l.amount) > 0n)) return 'F';
        if (row.hid) return 'R';
        const type = await typeOf(ctx, row.type_id);
        if (type.visit_policy === 'N') {
          await ctx.db
            .updateTable('repair_tickets')
            .set({ completed_at: now })
            .where('rid', '=', ctx.rid)
            .where('id', '=', row.id)
            .execute();
          return 'D';
        }
        return 'V';
      },
      message: '已完工',
    },
    rate: {
      run: async (ctx, row, input) =>
        rateHandler(
          ctx.db,
          ctx.rid,
          { id: Number(row.id), handler_id: row.handler_id as number | null },
          Number(input.overall),
          new Date(),
        ),
      set: (_ctx, input) => ({
        rate_overall: input.overall,
        rate_speed: input.speed,
        rate_service: input.service,
        rate_text: input.text,
        rated_at: now,
        rate_auto: false,
      }),
      async to(ctx, row) {
        const type = await typeOf(ctx, row.type_id);
        if (type.visit_policy === 'A') return 'V';
        await ctx.db.updateTable('repair_tickets').set({ completed_at: now }).where('rid', '=', ctx.rid).where('id', '=', row.id).execute();
        return 'D';
      },
      message: '已评价',
    },
    visit: {
      set: (_ctx, input) => ({ visit_satisfied: input.satisfied, visit_note: input.note, visited_at: now, completed_at: now }),
      message: '已回访，工单完成',
    },
    reopen: {
      async run(ctx, row) {
        const { reopen_days: days } = await repairSettings(ctx.db, ctx.rid);
        const since = (row.completed_at ?? row.finished_at) as Date | null;
        if (since && Date.now() - since.getTime() > days * 86_400_000) fail(`完成超过 ${days} 天的工单不能返修，请重新登记报修`);
        await deskBacklog.raise(ctx.db, ctx.rid, { sourceId: Number(row.id), title: `报修返修待派单：${row.no}`, submitter: ctx.session });
      },
      set: () => ({
        reopen_count: sql<number>`reopen_count + 1`,
        handler_id: null,
        handler_name: '',
        accepted_at: null,
        finished_at: null,
        completed_at: null,
        bill_id: null,
        rate_since: null,
        rate_overall: null,
        rate_speed: null,
        rate_service: null,
        rate_text: '',
        rated_at: null,
        rate_auto: false,
        visit_satisfied: null,
        visit_note: '',
        visited_at: null,
      }),
      message: '已返修，回到待派单',
    },
    close: {
      async run(ctx, row) {
        await voidBill(ctx, row);
        for (const s of [deskBacklog, techBacklog]) {
          for (const id of [`${row.id}`, `${row.id}-overdue`, `${row.id}-warn`]) await s.settle(ctx.db, ctx.rid, id, ctx.session.accountId);
        }
      },
      set: (_ctx, input) => ({ close_reason: input.reason, closed_at: now, paused_at: null }),
      message: '已关闭',
    },
  },
  summaries: {
    repairdispatch:
      '派单（调度）：待派单的工单派给一名维修师傅（受每人未完成工单上限限制），首次派单时计算接单时限；进入待接单并记入师傅待办',
    repairgrab: '抢单（维修师傅）：抢单方式的报修类型、本人已绑定该类型、待派单时可抢；进入待接单',
    repairaccept: '接单（本工单的维修师傅）：待接单 → 处理中',
    repairpause: '暂停（本工单的维修师傅）：须填原因和预计恢复日期；暂停期间完成时限停止计时',
    repairresume: '恢复（本工单的维修师傅）：已暂停 → 处理中，暂停时长不计入完成时限',
    repairtransfer: '转单（本工单的维修师傅）：转给另一名维修师傅（受上限限制），须填原因；进入待接单',
    repairreturn: '退单（本工单的维修师傅）：须填原因，回到待派单并记入调度员待办；未缴的维修费账单作废',
    repairfinish:
      '完工（本工单的维修师傅）：处理说明、用料、维修前后照片、收费明细；有偿房屋报修有收费时生成维修费账单（待收费）进入待支付，房屋报修进入待评价，公共区域按回访设置进入待回访或完成',
    repairrate: '评价（调度代业主录入）：综合、上门速度、服务态度 1-5 分与评价内容；按类型回访设置进入待回访或已完成',
    repairvisit: '回访（调度）：满意或不满意与回访记录，工单完成',
    repairreopen: '返修（调度）：待评价、待回访或完成后规定天数内，回到待派单，返修次数加一',
    repairclose: '关闭工单（调度）：任一未完成状态，须填原因；未缴的维修费账单作废，已缴的拒绝（退款请走退款流程）',
    repairlog: '报修工单的流转记录（时间线）：每一步的操作人、状态变化、时间与说明',
  },
});

const repairbatchdispatch = defineMethod('repairbatchdispatch', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: true,
  summary: '批量派单（调度）：所选待派单工单全部派给一名维修师傅（每人未完成工单上限计入本批），任一张不可派则整批不派',
  async handler(ctx, input) {
    const ids = [...new Set(input.ids)].sort((a, b) => a - b);
    const rows = await ctx.db
      .selectFrom('repair_tickets')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', 'in', ids)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (rows.length !== ids.length) fail('报修工单不存在');
    const moved = rows.find((r) => r.status !== 'W');
    if (moved) fail(`工单 ${moved.no} 不是待派单状态，不能派单`);
    const tech = await checkTech(ctx, input.handler_id);
    const { max_open: max } = await repairSettings(ctx.db, ctx.rid);
    const open = (await openCounts(ctx.db, ctx.rid, [tech.id])).get(tech.id) ?? 0;
    if (open + rows.length > max) fail(`${tech.name} 已有 ${open} 张未完成工单，再派 ${rows.length} 张将超过每人最多 ${max} 张的上限`);
    for (const row of rows) {
      await handTo(ctx.db, ctx.rid, row, tech, ctx.session.accountId);
      await ctx.db.updateTable('repair_tickets').set({ status: 'A' }).where('rid', '=', ctx.rid).where('id', '=', row.id).execute();
      await writeFlowLog(ctx, repairFlow.def, Number(row.id), {
        transition: 'batchdispatch',
        from: 'W',
        to: 'A',
        input: { handler: tech.name, note: input.note },
      });
    }
    return reply({ count: rows.length }, `已派单 ${rows.length} 张给 ${tech.name}`);
  },
});

const repairurge = defineMethod('repairurge', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: true,
  summary: '催单（业主来电催促，调度登记）：未完成的工单催单次数加一并记入流转记录，提醒处理人或调度员',
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('repair_tickets')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return fail('报修工单不存在');
    if (!['W', 'A', 'P', 'S'].includes(row.status)) fail('该报修工单已完工或已关闭，不能催单');
    await ctx.db
      .updateTable('repair_tickets')
      .set({ urge_count: sql<number>`urge_count + 1` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', row.id)
      .execute();
    await writeFlowLog(ctx, repairFlow.def, Number(row.id), {
      transition: 'urge',
      from: row.status,
      to: row.status,
      input: { note: input.note },
    });
    const title = `报修催单（第 ${row.urge_count + 1} 次）：${row.no}`;
    if (row.handler_id && row.status === 'A')
      await techBacklog.raise(ctx.db, ctx.rid, { sourceId: Number(row.id), title, content: input.note, account: Number(row.handler_id) });
    else if (row.status === 'W') await deskBacklog.raise(ctx.db, ctx.rid, { sourceId: Number(row.id), title, content: input.note });
    return reply(await item(ctx, Number(row.id)), '已催单');
  },
});

const repairexport = defineExport('repairexport', {
  roles: STEWARD_ROLES.repairRead,
  summary:
    '导出报修工单（列表的筛选条件）：工单号、来源、位置、类型、报修人、电话、内容、状态、超时、处理人、时限、费用、评分、登记与完工时间',
  filename: () => `报修工单_${today()}.xlsx`,
  async sheet(scope, input) {
    const ctx = { db: scope.db, rid: scope.rid, session: { accountId: 0 } } as unknown as CommunityCtx;
    const base = filtered(ticketSelect(scope.db, scope.rid), input, ctx);
    const rows = (
      await (input.status ? base.where('t.status', '=', input.status as RepairStatus) : base)
        .orderBy('t.id', 'desc')
        .limit(50_000)
        .execute()
    ).map((t) => toItem(t, ctx));
    return sheetOf(
      '报修工单',
      [
        { header: '工单号', value: (r: RepairItem) => r.no, width: 16 },
        { header: '来源', value: (r: RepairItem) => r.source_ch },
        { header: '位置', value: (r: RepairItem) => r.location, width: 24 },
        { header: '报修类型', value: (r: RepairItem) => r.type_title, width: 16 },
        { header: '报修人', value: (r: RepairItem) => r.reporter },
        { header: '联系电话', value: (r: RepairItem) => r.phone, width: 14 },
        { header: '报修内容', value: (r: RepairItem) => r.content, width: 40 },
        { header: '状态', value: (r: RepairItem) => r.status_ch },
        { header: '超时', value: (r: RepairItem) => (r.overdue ? '超时' : '') },
        { header: '处理人', value: (r: RepairItem) => r.handler_name },
        { header: '接单时限', value: (r: RepairItem) => r.accept_by, width: 20 },
        { header: '完成时限', value: (r: RepairItem) => r.finish_by, width: 20 },
        { header: '费用', value: (r: RepairItem) => r.fee_total },
        { header: '评分', value: (r: RepairItem) => r.rate_overall || '' },
        { header: '催单次数', value: (r: RepairItem) => r.urge_count },
        { header: '登记时间', value: (r: RepairItem) => r.create_time, width: 20 },
        { header: '完工时间', value: (r: RepairItem) => r.finish_time, width: 20 },
      ],
      rows,
    );
  },
});

/** A repair's fee bill paid at the cashier moves its ticket from 待支付 to 待评价 (docs/product.md#repairs). */
registerBillPaidListener(async (ctx, billIds, receiptNo) => {
  const rows = await ctx.db
    .selectFrom('repair_tickets')
    .select(['id', 'status'])
    .where('rid', '=', ctx.rid)
    .where('bill_id', 'in', [...billIds])
    .where('status', '=', 'F')
    .forUpdate()
    .execute();
  for (const r of rows) {
    await ctx.db
      .updateTable('repair_tickets')
      .set({ status: 'R', paid_at: now, rate_since: now })
      .where('rid', '=', ctx.rid)
      .where('id', '=', r.id)
      .execute();
    await writeFlowLog(ctx, repairFlow.def, Number(r.id), { transition: 'pay', from: 'F', to: 'R', input: { receipt_no: receiptNo } });
  }
});

export const repairModule = [
  repairlist,
  repairinfo,
  repairadd,
  repairroomowner,
  repairbatchdispatch,
  repairurge,
  repairexport,
  ...flowMethods,
];
