/**
 * 内部工单 (docs/product.md#internal-orders; contract/src/steward/internalOrders.ts): one-off orders
 * and recurring templates, the order workflow (only its handlers start, tick and submit it; only
 * its creator, or admin, accepts, sends back or closes it), the checklist, list, detail, export.
 * The recurrence job: ./internalOrdersJobs.ts.
 */
import {
  enumKeys,
  enumText,
  INTERNAL_ORDER_KIND,
  INTERNAL_ORDER_RECURRENCE,
  INTERNAL_ORDER_ROLES,
  INTERNAL_ORDER_STATUS,
  internalOrderFlow,
  TEMPLATE_STATUS,
  type InternalOrderCounts,
  type InternalOrderDetail,
  type InternalOrderKind,
  type InternalOrderRecurrence,
  type InternalOrderRow,
  type InternalOrderStatus,
  type InternalOrderTemplateRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { accountCodes } from '../../http/authenticate.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput, type Session } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, flowLog, statusBarCounts, writeFlowLog } from '../../lib/workflow.js';
import { registerBacklogSource } from '../setup/backlog.js';

/** An order waits on the to-do list of the desk and technicians while it is to be handled or accepted. */
export const internalOrderBacklog = registerBacklogSource({
  kind: 'internalorder',
  roles: INTERNAL_ORDER_ROLES,
  link: (id) => `/steward/internalorder?id=${id}`,
});

export const orderNo = (id: number) => `GD${String(id).padStart(6, '0')}`;

/** The community's enabled staff who may handle orders (the desk's and the technicians' codes, or admin). */
export async function orderStaff(db: Kysely<DB>, rid: number, ids?: readonly number[]) {
  let qb = db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .select(accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`).as('codes'))
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y');
  if (ids) qb = qb.where('a.id', 'in', ids.length ? [...ids] : [0]);
  const rows = await qb.orderBy('a.id').execute();
  return rows.filter((r) => r.codes.some((c) => c === 'admin' || (INTERNAL_ORDER_ROLES as readonly string[]).includes(c)));
}

const names = (ids: string) =>
  sql<string>`coalesce((SELECT string_agg(a.name, '、' ORDER BY a.id) FROM accounts a WHERE a.id = ANY(${sql.ref(ids)})), '')`;

export function orderQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('internal_orders as o')
    .leftJoin('internal_order_templates as tp', (j) => j.onRef('tp.rid', '=', 'o.rid').onRef('tp.id', '=', 'o.template_id'))
    .selectAll('o')
    .select(['tp.recurrence'])
    .select(names('o.handler_ids').as('handler_names'))
    .select(names('o.cc_ids').as('cc_names'))
    .select(sql<number>`(SELECT count(*)::int FROM internal_order_items i WHERE i.rid = o.rid AND i.order_id = o.id)`.as('item_total'))
    .select(
      sql<number>`(SELECT count(*)::int FROM internal_order_items i WHERE i.rid = o.rid AND i.order_id = o.id AND i.done)`.as('item_done'),
    )
    .select(sql<boolean>`(o.status IN ('P', 'D') AND o.due_at < now())`.as('overdue'))
    .select(sql<string>`coalesce(to_char(o.occurs_on, 'YYYY-MM-DD'), '')`.as('occurs_day'))
    .where('o.rid', '=', rid);
}

type Raw = Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirstOrThrow']>>;

export function toOrderRow(o: Raw, session: Pick<Session, 'accountId'>): InternalOrderRow {
  const handlers = o.handler_ids.map(Number);
  const recurrence = (o.recurrence ?? 'O') as InternalOrderRecurrence;
  return {
    id: Number(o.id),
    no: orderNo(Number(o.id)),
    title: o.title,
    kind: o.kind as InternalOrderKind,
    kind_ch: enumText(INTERNAL_ORDER_KIND, o.kind),
    location: o.location,
    content: o.content,
    handler_ids: handlers,
    handler_names: o.handler_names,
    cc_ids: o.cc_ids.map(Number),
    cc_names: o.cc_names,
    photos: o.photos,
    due_hours: o.due_hours,
    due_time: wireTime(o.due_at),
    status: o.status as InternalOrderStatus,
    status_ch: enumText(INTERNAL_ORDER_STATUS, o.status),
    overdue: o.overdue,
    score: o.score,
    accept_note: o.accept_note,
    item_total: o.item_total,
    item_done: o.item_done,
    template_id: o.template_id === null ? null : Number(o.template_id),
    occurs_on: o.occurs_day,
    recurrence,
    recurrence_ch: enumText(INTERNAL_ORDER_RECURRENCE, recurrence),
    creator: o.creator,
    handling: handlers.includes(session.accountId),
    mine: o.created_by !== null && Number(o.created_by) === session.accountId,
    start_time: wireTime(o.started_at),
    submit_time: wireTime(o.submitted_at),
    accept_time: wireTime(o.accepted_at),
    create_time: wireTime(o.created_at),
  };
}

async function detail(db: Kysely<DB>, rid: number, id: number, session: Pick<Session, 'accountId'>): Promise<InternalOrderDetail> {
  const o = await orderQuery(db, rid).where('o.id', '=', id).executeTakeFirst();
  if (!o) fail('工单不存在');
  const items = await db
    .selectFrom('internal_order_items')
    .selectAll()
    .where('rid', '=', rid)
    .where('order_id', '=', id)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return {
    ...toOrderRow(o, session),
    items: items.map((i) => ({
      id: Number(i.id),
      sort: i.sort,
      title: i.title,
      done: i.done,
      photo: i.photo,
      done_time: wireTime(i.done_at),
      done_by: i.done_by,
    })),
    log: await flowLog(db, rid, internalOrderFlow.def, id),
  };
}

type Filters = Omit<HandlerInput<'internalorderexport'>, 'sort'>;
type OQ = ReturnType<typeof orderQuery>;

function filtered(qb: OQ, f: Filters, accountId: number, withStatus = true): OQ {
  if (f.title) qb = qb.where('o.title', 'like', `%${f.title.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  if (f.kind) qb = qb.where('o.kind', '=', f.kind);
  if (withStatus && f.status) qb = qb.where('o.status', '=', f.status);
  if (f.handler_id) qb = qb.where(sql<boolean>`${f.handler_id}::bigint = ANY(o.handler_ids)`);
  if (f.mine === 'handle') qb = qb.where(sql<boolean>`${accountId}::bigint = ANY(o.handler_ids)`);
  if (f.mine === 'created') qb = qb.where('o.created_by', '=', accountId);
  if (f.mine === 'cc') qb = qb.where(sql<boolean>`${accountId}::bigint = ANY(o.cc_ids)`);
  if (f.overdue === 'Y') qb = qb.where(sql<boolean>`(o.status IN ('P', 'D') AND o.due_at < now())`);
  if (f.overdue === 'N') qb = qb.where(sql<boolean>`NOT (o.status IN ('P', 'D') AND o.due_at < now())`);
  if (f.template_id) qb = qb.where('o.template_id', '=', f.template_id);
  return qb;
}

async function counts(ctx: CommunityCtx, f: Filters): Promise<InternalOrderCounts> {
  const rows = await filtered(orderQuery(ctx.db, ctx.rid), f, ctx.session.accountId, false)
    .clearSelect()
    .select('o.status')
    .select(sql<number>`count(*)::int`.as('n'))
    .select(sql<number>`count(*) FILTER (WHERE o.status IN ('P', 'D') AND o.due_at < now())::int`.as('late'))
    .groupBy('o.status')
    .execute();
  return statusBarCounts(rows, enumKeys(INTERNAL_ORDER_STATUS));
}

const internalorderlist = defineMethod('internalorderlist', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: false,
  summary:
    '内部工单列表：编号、标题、类型、位置、处理人、抄送、截止、状态、超时、检查项进度、评分、周期；按标题、类型、状态、处理人、我的（我处理的/我发起的/抄送我的）、超时、周期模板筛选；counts 为各状态与超时的数量',
  async handler(ctx, input) {
    const page = await listPage(filtered(orderQuery(ctx.db, ctx.rid), input, ctx.session.accountId), input, 'o.id');
    return { total: page.total, items: page.items.map((o) => toOrderRow(o, ctx.session)), counts: await counts(ctx, input) };
  },
});

const internalorderinfo = defineMethod('internalorderinfo', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: false,
  summary: '内部工单详情：内容、处理人、抄送、检查项（完成与否、照片）、附件、截止、验收评分，以及流转记录',
  handler: (ctx, input) => detail(ctx.db, ctx.rid, input.id, ctx.session),
});

type OrderInput = HandlerInput<'internalorderedit'>;

/** Handlers and people copied are the community's staff who may see orders. */
async function checkPeople(ctx: CommunityCtx, v: Pick<OrderInput, 'handler_ids' | 'cc_ids'>) {
  const handlers = [...new Set(v.handler_ids)];
  if ((await orderStaff(ctx.db, ctx.rid, handlers)).length !== handlers.length) fail('所选处理人不存在、已停用或没有内部工单权限');
  const cc = [...new Set(v.cc_ids)];
  if ((await orderStaff(ctx.db, ctx.rid, cc)).length !== cc.length) fail('所选抄送人不存在、已停用或没有内部工单权限');
}

const orderColumns = (v: Omit<OrderInput, 'id'>) => ({
  title: v.title,
  kind: v.kind,
  location: v.location,
  content: v.content,
  handler_ids: [...new Set(v.handler_ids)],
  cc_ids: [...new Set(v.cc_ids)],
  photos: v.photos,
  due_hours: v.due_hours,
});

async function writeItems(db: Kysely<DB>, rid: number, orderId: number, items: readonly string[], by: number | null) {
  await db.deleteFrom('internal_order_items').where('rid', '=', rid).where('order_id', '=', orderId).execute();
  if (items.length === 0) return;
  await db
    .insertInto('internal_order_items')
    .values(items.map((title, i) => ({ rid, order_id: orderId, sort: i + 1, title, created_by: by })))
    .execute();
}

/**
 * The one account a to-do of an order is for: its only handler, or its creator for the
 * acceptance; an order of several handlers is for everyone holding the desk's codes, since a
 * to-do belongs to one account or to the codes (docs/product.md#to-do-list).
 */
const onlyHandler = (handlers: ReadonlyArray<number | string>) => (handlers.length === 1 ? Number(handlers[0]) : null);

const raiseToHandle = (
  db: Kysely<DB>,
  rid: number,
  id: number,
  title: string,
  submitter: Session | null,
  due: Date,
  handlers: ReadonlyArray<number | string>,
) =>
  internalOrderBacklog.raise(db, rid, {
    sourceId: id,
    title: `内部工单待处理：${orderNo(id)} ${title}`,
    submitter,
    deadline: due,
    account: onlyHandler(handlers),
  });

/**
 * Creates the occurrences of a template due by `until` (its next day up to then, each once: the
 * unique (template_id, occurs_on) index makes a second run, or process, a no-op) and moves its next
 * day on. Each occurrence starts at 08:00 of its day (the business time zone) and is due N hours later.
 */
export async function spawnOccurrences(db: Kysely<DB>, rid: number, templateId: number, until: string): Promise<number> {
  const t = await db
    .selectFrom('internal_order_templates')
    .selectAll()
    .select(sql<string>`to_char(next_on, 'YYYY-MM-DD')`.as('next_day'))
    .where('rid', '=', rid)
    .where('id', '=', templateId)
    .forUpdate()
    .executeTakeFirst();
  if (!t || t.status !== 'Y') return 0;
  const step = t.recurrence === 'D' ? '1 day' : t.recurrence === 'W' ? '7 days' : '1 month';
  // at most a month of missed days is made up: an order nobody saw for longer helps nobody
  const days = await sql<{ day: string }>`
    SELECT to_char(d, 'YYYY-MM-DD') AS day FROM generate_series(${t.next_day}::date, ${until}::date, ${step}::interval) d
    ORDER BY d DESC LIMIT 31`.execute(db);
  let made = 0;
  for (const { day } of [...days.rows].reverse()) {
    const row = await db
      .insertInto('internal_orders')
      .values({
        rid,
        template_id: t.id,
        occurs_on: day,
        title: t.title,
        kind: t.kind,
        location: t.location,
        content: t.content,
        handler_ids: t.handler_ids,
        cc_ids: t.cc_ids,
        photos: t.photos,
        due_hours: t.due_hours,
        due_at: sql<Date>`(${day}::date + time '08:00') AT TIME ZONE current_setting('TimeZone') + make_interval(hours => ${t.due_hours})`,
        creator: t.creator,
        created_by: t.created_by,
      })
      .onConflict((oc) => oc.columns(['rid', 'template_id', 'occurs_on']).where('template_id', 'is not', null).doNothing())
      .returning(['id', 'due_at'])
      .executeTakeFirst();
    if (!row) continue;
    made++;
    const id = Number(row.id);
    await writeItems(db, rid, id, t.items, t.created_by);
    await db
      .insertInto('workflow_logs')
      .values({
        rid,
        flow: internalOrderFlow.def.name,
        row_id: id,
        transition: 'recur',
        from_state: '',
        to_state: 'P',
        input: JSON.stringify({ title: t.title }),
        operator: '系统',
        created_by: null,
      })
      .execute();
    await raiseToHandle(db, rid, id, t.title, null, row.due_at, t.handler_ids);
  }
  if (days.rows.length > 0 || t.next_day <= until) {
    await sql`UPDATE internal_order_templates SET next_on = (SELECT min(d)::date FROM generate_series(next_on, ${until}::date + ${step}::interval, ${step}::interval) d WHERE d > ${until}::date)
      WHERE rid = ${rid} AND id = ${templateId}`.execute(db);
  }
  return made;
}

const internalorderadd = defineMethod('internalorderadd', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: true,
  summary:
    '发起内部工单：标题、类型、位置、内容、处理人（多人）、抄送人、检查项、N 小时内完成、附件；工单标识为一次性时直接生成工单（待处理），每天/每周/每月时保存为周期模板，自开始日期起每个周期由系统生成一张（开始日期已到的当天立即生成）',
  async handler(ctx, input) {
    await checkPeople(ctx, input);
    if (input.recurrence === 'O') {
      const row = await ctx.db
        .insertInto('internal_orders')
        .values({
          ...orderColumns(input),
          rid: ctx.rid,
          due_at: sql<Date>`now() + make_interval(hours => ${input.due_hours})`,
          creator: ctx.session.name,
          created_by: ctx.session.accountId,
        })
        .returning(['id', 'due_at'])
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await writeItems(ctx.db, ctx.rid, id, input.items, ctx.session.accountId);
      await writeFlowLog(ctx, internalOrderFlow.def, id, { transition: 'create', from: '', to: 'P', input: { title: input.title } });
      await raiseToHandle(ctx.db, ctx.rid, id, input.title, ctx.session, row.due_at, [...new Set(input.handler_ids)]);
      return reply({ id, no: orderNo(id), template_id: null }, `已发起工单 ${orderNo(id)}`);
    }
    const start = input.start_date ?? today();
    if (start < today()) fail('开始日期不能早于今天');
    const tpl = await ctx.db
      .insertInto('internal_order_templates')
      .values({
        ...orderColumns(input),
        rid: ctx.rid,
        items: input.items,
        recurrence: input.recurrence,
        start_date: start,
        next_on: start,
        creator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const templateId = Number(tpl.id);
    await spawnOccurrences(ctx.db, ctx.rid, templateId, today());
    const first = await ctx.db
      .selectFrom('internal_orders')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('template_id', '=', templateId)
      .orderBy('id')
      .executeTakeFirst();
    const id = first ? Number(first.id) : 0;
    const words = enumText(INTERNAL_ORDER_RECURRENCE, input.recurrence);
    return reply(
      { id, no: first ? orderNo(id) : '', template_id: templateId },
      first ? `已保存${words}周期工单，今天的工单 ${orderNo(id)} 已生成` : `已保存${words}周期工单，将于 ${start} 起生成`,
    );
  },
});

const internalorderedit = defineMethod('internalorderedit', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: true,
  summary: '修改内部工单（仅待处理时，发起人或管理员）：内容、处理人、抄送、检查项、时限、附件；截止时间按发起时间重算',
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('internal_orders')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) fail('工单不存在');
    mustBeCreator(ctx, row, '只有发起人可以修改工单');
    if (row.status !== 'P') fail('工单已开始处理，不能修改');
    await checkPeople(ctx, input);
    const changed = await ctx.db
      .updateTable('internal_orders')
      .set({ ...orderColumns(input), due_at: sql<Date>`created_at + make_interval(hours => ${input.due_hours})` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .returning(['due_at', 'handler_ids'])
      .executeTakeFirstOrThrow();
    await writeItems(ctx.db, ctx.rid, input.id, input.items, ctx.session.accountId);
    // its to-do follows the new handlers and deadline
    await raiseToHandle(ctx.db, ctx.rid, input.id, input.title, ctx.session, changed.due_at, changed.handler_ids);
    await writeFlowLog(ctx, internalOrderFlow.def, input.id, { transition: 'edit', from: 'P', to: 'P', input: { title: input.title } });
    return reply(await detail(ctx.db, ctx.rid, input.id, ctx.session), '保存成功');
  },
});

/* eslint-disable @typescript-eslint/no-explicit-any -- a workflow's row is the table's */
type Row = Record<string, any>;

const isAdmin = (ctx: CommunityCtx) => ctx.session.roles.includes('admin');

function mustHandle(ctx: CommunityCtx, row: Row) {
  if (isAdmin(ctx)) return;
  if (!(row.handler_ids as Array<number | string>).map(Number).includes(ctx.session.accountId)) fail('只有该工单的处理人可以处理');
}

function mustBeCreator(ctx: CommunityCtx, row: Row, message: string) {
  if (isAdmin(ctx)) return;
  if (row.created_by === null || Number(row.created_by) !== ctx.session.accountId) fail(message);
}

const internalordercheck = defineMethod('internalordercheck', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: true,
  summary: '勾选或取消内部工单的一个检查项（处理中，处理人），可附一张照片',
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('internal_orders')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) fail('工单不存在');
    mustHandle(ctx, row);
    if (row.status !== 'D') fail(row.status === 'P' ? '请先开始处理工单' : '工单不在处理中，不能勾选检查项');
    const item = await ctx.db
      .selectFrom('internal_order_items')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('order_id', '=', input.id)
      .where('id', '=', input.item_id)
      .executeTakeFirst();
    if (!item) fail('检查项不存在');
    await ctx.db
      .updateTable('internal_order_items')
      .set(
        input.done
          ? { done: true, photo: input.photo, done_at: sql<Date>`now()`, done_by: ctx.session.name }
          : { done: false, photo: '', done_at: null, done_by: '' },
      )
      .where('rid', '=', ctx.rid)
      .where('id', '=', item.id)
      .execute();
    await writeFlowLog(ctx, internalOrderFlow.def, input.id, {
      transition: input.done ? 'check' : 'uncheck',
      from: 'D',
      to: 'D',
      input: { item: item.title },
    });
    return reply(await detail(ctx.db, ctx.rid, input.id, ctx.session), input.done ? `已完成：${item.title}` : `已取消：${item.title}`);
  },
});

const internalOrderFlowMethods = defineWorkflow(internalOrderFlow, {
  table: 'internal_orders',
  answer: async (ctx, id) => detail(ctx.db, ctx.rid, id, ctx.session),
  transitions: {
    start: {
      async run(ctx, row) {
        mustHandle(ctx, row);
        await internalOrderBacklog.settle(ctx.db, ctx.rid, row.id as number, ctx.session.accountId);
      },
      set: () => ({ started_at: sql<Date>`coalesce(started_at, now())` }),
      message: '已开始处理',
    },
    submit: {
      async run(ctx, row) {
        mustHandle(ctx, row);
        const open = await ctx.db
          .selectFrom('internal_order_items')
          .select('title')
          .where('rid', '=', ctx.rid)
          .where('order_id', '=', row.id as number)
          .where('done', '=', false)
          .orderBy('sort')
          .execute();
        if (open.length > 0) fail(`还有 ${open.length} 个检查项未完成：${open.map((i) => i.title).join('、')}`);
        await internalOrderBacklog.raise(ctx.db, ctx.rid, {
          sourceId: row.id as number,
          title: `内部工单待验收：${orderNo(Number(row.id))} ${String(row.title)}`,
          submitter: ctx.session,
          deadline: null,
          account: row.created_by === null ? null : Number(row.created_by),
        });
      },
      set: () => ({ submitted_at: sql<Date>`now()` }),
      message: '已提交验收',
    },
    accept: {
      async run(ctx, row) {
        mustBeCreator(ctx, row, '只有发起人可以验收工单');
        await internalOrderBacklog.settle(ctx.db, ctx.rid, row.id as number, ctx.session.accountId);
      },
      set: (_ctx, input) => ({ score: input.score, accept_note: input.note ?? '', accepted_at: sql<Date>`now()` }),
      message: '验收通过',
    },
    reject: {
      async run(ctx, row) {
        mustBeCreator(ctx, row, '只有发起人可以退回工单');
        await internalOrderBacklog.raise(ctx.db, ctx.rid, {
          sourceId: row.id as number,
          title: `内部工单被退回：${orderNo(Number(row.id))} ${String(row.title)}`,
          submitter: ctx.session,
          deadline: row.due_at as Date,
          account: onlyHandler(row.handler_ids as Array<number | string>),
        });
      },
      set: (_ctx, input) => ({ accept_note: input.note }),
      message: '已退回处理人',
    },
    close: {
      async run(ctx, row) {
        mustBeCreator(ctx, row, '只有发起人可以关闭工单');
        await internalOrderBacklog.settle(ctx.db, ctx.rid, row.id as number, ctx.session.accountId);
      },
      set: (_ctx, input) => ({ close_note: input.note, closed_at: sql<Date>`now()` }),
      message: '已关闭',
    },
  },
  summaries: {
    internalorderstart: '开始处理内部工单（待处理 → 处理中，处理人）',
    internalordersubmit: '提交验收（处理中 → 待验收，处理人）：所有检查项须已完成',
    internalorderaccept: '验收通过（待验收 → 已完成，发起人或管理员），评分 1–5',
    internalorderreject: '退回（待验收 → 处理中，发起人或管理员），须填写原因',
    internalorderclose: '关闭内部工单（待处理、处理中或待验收 → 已关闭，发起人或管理员），须填写原因',
    internalorderlog: '内部工单的流转记录：发起或周期生成、开始、勾选检查项、提交、验收、退回、关闭',
  },
});

const orderStaffSmallList = defineMethod('internal_order_staff_small_list', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: false,
  summary: '内部工单的处理人与抄送人下拉：本小区启用的、有管家或维修权限的员工（id、name）',
  async handler(ctx) {
    return { items: (await orderStaff(ctx.db, ctx.rid)).map((r) => ({ id: Number(r.id), name: r.name })) };
  },
});

function templateQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('internal_order_templates as t')
    .select(['t.id', 't.title', 't.kind', 't.location', 't.due_hours', 't.recurrence', 't.status', 't.creator', 't.created_at'])
    .select(sql<string>`to_char(t.start_date, 'YYYY-MM-DD')`.as('start_date'))
    .select(sql<string>`to_char(t.next_on, 'YYYY-MM-DD')`.as('next_on'))
    .select(names('t.handler_ids').as('handler_names'))
    .select(sql<number>`(SELECT count(*)::int FROM internal_orders o WHERE o.rid = t.rid AND o.template_id = t.id)`.as('occurrences'))
    .where('t.rid', '=', rid);
}

const toTemplateRow = (t: Awaited<ReturnType<ReturnType<typeof templateQuery>['executeTakeFirstOrThrow']>>): InternalOrderTemplateRow => ({
  id: Number(t.id),
  title: t.title,
  kind: t.kind as InternalOrderKind,
  kind_ch: enumText(INTERNAL_ORDER_KIND, t.kind),
  location: t.location,
  handler_names: t.handler_names,
  due_hours: t.due_hours,
  recurrence: t.recurrence as InternalOrderRecurrence,
  recurrence_ch: enumText(INTERNAL_ORDER_RECURRENCE, t.recurrence),
  start_date: t.start_date,
  next_on: t.status === 'Y' ? t.next_on : '',
  status: t.status as 'Y' | 'N',
  status_ch: enumText(TEMPLATE_STATUS, t.status),
  occurrences: t.occurrences,
  creator: t.creator,
  create_time: wireTime(t.created_at),
});

const templatelist = defineMethod('internalordertemplatelist', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: false,
  summary: '周期工单模板列表：标题、类型、处理人、周期（每天/每周/每月）、开始日期、下次生成日期、状态、已生成的工单数',
  async handler(ctx, input) {
    let qb = templateQuery(ctx.db, ctx.rid);
    if (input.status) qb = qb.where('t.status', '=', input.status);
    const page = await listPage(qb, input, 't.id');
    return { total: page.total, items: page.items.map(toTemplateRow) };
  },
});

const templatestop = defineMethod('internalordertemplatestop', {
  side: 'community',
  roles: INTERNAL_ORDER_ROLES,
  writes: true,
  summary: '停止周期工单模板（发起人或管理员）：不再生成新的工单，已生成的工单不变',
  async handler(ctx, input) {
    const t = await ctx.db
      .selectFrom('internal_order_templates')
      .select(['id', 'status', 'created_by'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!t) fail('周期工单不存在');
    mustBeCreator(ctx, t, '只有发起人可以停止周期工单');
    if (t.status !== 'Y') fail('该周期工单已停止');
    await ctx.db
      .updateTable('internal_order_templates')
      .set({ status: 'N', stopped_at: sql<Date>`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    return reply(
      toTemplateRow(await templateQuery(ctx.db, ctx.rid).where('t.id', '=', input.id).executeTakeFirstOrThrow()),
      '已停止，不再生成新工单',
    );
  },
});

const internalorderexport = defineExport('internalorderexport', {
  roles: INTERNAL_ORDER_ROLES,
  summary: '导出内部工单（与列表相同的筛选）',
  filename: () => '内部工单.xlsx',
  async sheet(scope, input) {
    const rows = await filtered(orderQuery(scope.db, scope.rid), input, 0).orderBy('o.id', input.sort).limit(100_000).execute();
    return sheetOf<InternalOrderRow>(
      '内部工单',
      [
        { header: '编号', value: (r) => r.no, width: 12 },
        { header: '标题', value: (r) => r.title, width: 24 },
        { header: '类型', value: (r) => r.kind_ch },
        { header: '位置', value: (r) => r.location, width: 18 },
        { header: '处理人', value: (r) => r.handler_names, width: 18 },
        { header: '抄送', value: (r) => r.cc_names, width: 18 },
        { header: '周期', value: (r) => r.recurrence_ch, width: 8 },
        { header: '检查项', value: (r) => `${r.item_done}/${r.item_total}`, width: 8 },
        { header: '截止时间', value: (r) => r.due_time, width: 20 },
        { header: '状态', value: (r) => r.status_ch, width: 8 },
        { header: '超时', value: (r) => (r.overdue ? '是' : '否'), width: 6 },
        { header: '评分', value: (r) => r.score ?? '', width: 6 },
        { header: '发起人', value: (r) => r.creator },
        { header: '发起时间', value: (r) => r.create_time, width: 20 },
      ],
      rows.map((o) => toOrderRow(o, { accountId: 0 })),
    );
  },
});

export const internalOrderMethods = [
  internalorderlist,
  internalorderinfo,
  internalorderadd,
  internalorderedit,
  internalordercheck,
  orderStaffSmallList,
  templatelist,
  templatestop,
  internalorderexport,
  ...internalOrderFlowMethods,
];
