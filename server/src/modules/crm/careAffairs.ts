/**
 * Care affairs (关怀事务 /crm/affair, groupaffairadds; docs/product.md#crm-care): the resource, its
 * workflow (完成 with the result and the time, 取消 with a reason), the status bar's counts, group
 * affairs (one affair for each customer chosen, all or nothing) and their bulk cancel and reassign.
 * Every open affair waits on its assignee's to-do list (kind careaffair) until done or cancelled.
 */
import {
  AFFAIR_KIND,
  ASSIGN_MODE,
  BIRTH_MONTH,
  CARE_CUSTOMER_KIND,
  CARE_ROLES,
  careAffair,
  careAffairFlow,
  enumText,
  GROUP_AFFAIR_MAX,
  zoneOffsetMinutes,
  type AffairKind,
  type CareAffairItem,
  type CareBatchRow,
  type FilterValue,
  type GroupCriteria,
} from '@wuye/contract';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { businessTimeZone } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { careStaff, housesOf, refuseNonStaff } from './care.js';

/** An open affair waits on its assignee's to-do list, opening at the affair. */
export const affairBacklog = registerBacklogSource({
  kind: 'careaffair',
  roles: CARE_ROLES,
  link: (id) => `/crm/affair?id=${id}`,
});

const OFFSET_MS = zoneOffsetMinutes(businessTimeZone()) * 60_000;
/** The end of a business day: an affair is late once its day has passed. */
const endOfDay = (day: string) => new Date(Date.parse(`${day}T23:59:59Z`) - OFFSET_MS);

/** What the to-do list says of an affair. */
export interface AffairToDo {
  id: number;
  kind: string;
  realname: string;
  content: string;
  due_date: string;
  assignee_id: number;
}

/** Raises (or updates: another assignee, another day) the to-do of open affairs, in the caller's transaction. */
export async function raiseAffairs(db: Kysely<DB>, rid: number, affairs: readonly AffairToDo[], submitter?: CommunityCtx['session']) {
  for (const a of affairs)
    await affairBacklog.raise(db, rid, {
      sourceId: a.id,
      title: `${enumText(AFFAIR_KIND, a.kind)}：${a.realname}`,
      content: `${a.content ? `${a.content}；` : ''}计划日期 ${a.due_date}`,
      submitter: submitter ?? null,
      deadline: endOfDay(a.due_date),
      account: a.assignee_id,
    });
}

/** What raising needs of the affairs given (their customer's name). */
async function toDos(db: Kysely<DB>, rid: number, ids: readonly number[]): Promise<AffairToDo[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('care_affairs as a')
    .innerJoin('care_customers as c', (j) => j.onRef('c.rid', '=', 'a.rid').onRef('c.id', '=', 'a.customer_id'))
    .select(['a.id', 'a.kind', 'c.realname', 'a.content', 'a.due_date', 'a.assignee_id'])
    .where('a.rid', '=', rid)
    .where('a.id', 'in', [...ids])
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), assignee_id: Number(r.assignee_id) }));
}

export const raiseAffairsById = async (db: Kysely<DB>, rid: number, ids: readonly number[], submitter?: CommunityCtx['session']) =>
  raiseAffairs(db, rid, await toDos(db, rid, ids), submitter);

// every affair has its customer (a foreign key): joined LEFT, so a count that reads nothing of the
// customer (no keyword) leaves the join out (PostgreSQL removes a left join on a unique key)
const affairQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('care_affairs as t')
    .leftJoin('care_customers as c', (j) => j.onRef('c.rid', '=', 't.rid').onRef('c.id', '=', 't.customer_id'))
    .leftJoin('accounts as ac', 'ac.id', 't.assignee_id')
    .leftJoin('accounts as dn', 'dn.id', 't.done_by')
    .leftJoin('accounts as cr', 'cr.id', 't.created_by')
    .leftJoin('care_affair_batches as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.batch_id'))
    .leftJoin('care_affair_rules as ru', (j) => j.onRef('ru.rid', '=', 't.rid').onRef('ru.id', '=', 't.rule_id'))
    .selectAll('t')
    .select(['c.realname', 'c.mobile'])
    .select(housesOf('c.hids', 'c.rid').as('houses'))
    .select(sql<string>`coalesce(ac.name, '')`.as('assignee_name'))
    .select(sql<string>`coalesce(dn.name, '')`.as('done_by_name'))
    .select(sql<string>`CASE WHEN t.created_by IS NULL THEN '系统' ELSE coalesce(cr.name, '') END`.as('creator'))
    .select(sql<string>`coalesce(b.title, '')`.as('batch_title'))
    .select(sql<string>`coalesce(ru.name, '')`.as('rule_name'))
    .select(sql<boolean>`(t.status = 'P' AND t.due_date < current_date)`.as('overdue'))
    .select(sql<number>`(t.due_date - current_date)`.as('days_left'))
    .where('t.rid', '=', rid);

type Raw = Record<string, unknown>;

function toAffair(r: Raw): CareAffairItem {
  const source = r.rule_id !== null ? 'rule' : r.batch_id !== null ? 'group' : 'manual';
  const time = (v: unknown) => (v instanceof Date ? wireTime(v) : String(v ?? ''));
  return {
    id: Number(r.id),
    customer_id: Number(r.customer_id),
    realname: String(r.realname),
    mobile: String(r.mobile),
    houses: String(r.houses ?? ''),
    kind: r.kind as AffairKind,
    kind_ch: enumText(AFFAIR_KIND, String(r.kind)),
    content: String(r.content ?? ''),
    assignee_id: Number(r.assignee_id),
    assignee_name: String(r.assignee_name ?? ''),
    due_date: String(r.due_date),
    status: r.status as CareAffairItem['status'],
    status_ch: String(r.status_ch ?? ''),
    overdue: !!r.overdue,
    days_left: Number(r.days_left),
    result: String(r.result ?? ''),
    done_time: time(r.done_at),
    done_by_name: String(r.done_by_name ?? ''),
    cancel_reason: String(r.cancel_reason ?? ''),
    cancel_time: time(r.cancelled_at),
    source,
    source_ch: source === 'rule' ? '规则生成' : source === 'group' ? '批量事务' : '手动新增',
    batch_id: r.batch_id === null ? null : Number(r.batch_id),
    batch_title: String(r.batch_title ?? ''),
    rule_id: r.rule_id === null ? null : Number(r.rule_id),
    rule_name: String(r.rule_name ?? ''),
    occurrence: String(r.occurrence ?? ''),
    creator: String(r.creator ?? ''),
    create_time: String(r.create_time ?? ''),
  };
}

/** An affair as its list shows it. */
export async function affairRow(ctx: Pick<CommunityCtx, 'db' | 'rid'>, id: number): Promise<CareAffairItem> {
  const r = await affairQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) fail('关怀事务不存在');
  return toAffair({ ...r, create_time: wireTime(r.created_at), status_ch: enumText(careAffair.def.fields.status.enum, r.status) });
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the list's query builder, as the resource mechanism passes it */
type AnySelect = SelectQueryBuilder<any, any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The filters that are not a plain column of the affair: shared by the list, its export and the counts. */
const affairWhere: Record<string, (qb: AnySelect, value: FilterValue) => AnySelect> = {
  keyword: (qb, value) => {
    const k = likePattern(String(value));
    return qb.where((eb) => eb.or([eb('c.realname', 'like', k), eb('c.mobile', 'like', k)]));
  },
  due_range: (qb, value) => {
    const [from, to] = value as [string, string];
    return qb.where('t.due_date', '>=', from).where('t.due_date', '<=', to);
  },
  late: (qb, value) =>
    qb.where(
      value === 'Y'
        ? sql<boolean>`(t.status = 'P' AND t.due_date < current_date)`
        : sql<boolean>`NOT (t.status = 'P' AND t.due_date < current_date)`,
    ),
};

const resourceMethods = defineResource(careAffair, {
  table: 'care_affairs',
  query: (db, rid) => affairQuery(db as Kysely<DB>, rid),
  row: toAffair,
  where: affairWhere,
  async values(input, ctx, before) {
    if (before && before.status !== 'P') fail('该关怀事务已完成或已取消，不能修改');
    if (!before) {
      const customer = await ctx.db
        .selectFrom('care_customers')
        .select(['status'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(input.customer_id))
        .executeTakeFirst();
      if (!customer) fail('关怀客户不存在');
      if (customer.status !== 'Y') fail('该客户已停止关怀，不能新增事务');
    }
    if (!before || Number(before.assignee_id) !== Number(input.assignee_id))
      await refuseNonStaff(ctx.db, ctx.rid, Number(input.assignee_id), '负责人');
    return before ? input : { ...input, created_by: ctx.session.accountId };
  },
  async after(ctx, id, values, before) {
    const changed = before
      ? Object.fromEntries(
          ['kind', 'due_date', 'content', 'assignee_id'].filter((k) => String(before[k]) !== String(values[k])).map((k) => [k, values[k]]),
        )
      : {};
    await writeFlowLog(
      ctx,
      careAffairFlow.def,
      id,
      before ? { transition: 'edit', from: 'P', to: 'P', input: changed } : { transition: 'create', from: '', to: 'P' },
    );
    await raiseAffairsById(ctx.db, ctx.rid, [id], ctx.session);
  },
  async beforeDelete(ctx, row) {
    if (row.status !== 'P') fail('只有待办的关怀事务可以删除，已完成或已取消的事务留作记录');
    await affairBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
  },
  summaries: {
    list: '关怀事务列表：客户、类型、计划日期、负责人、状态（待办/已完成/已取消）、是否逾期、来源（手动/批量/规则）、处理结果',
    add: '新增关怀事务：客户、类型、计划日期、负责人（本小区有客户关怀权限的员工）、内容；进入负责人的待办',
    edit: '修改待办的关怀事务（类型、计划日期、负责人、内容）；换负责人时待办随之转交',
    del: '删除待办的关怀事务（误建时）；已完成或已取消的不能删除',
  },
});

const flowMethods = defineWorkflow(careAffairFlow, {
  table: 'care_affairs',
  answer: affairRow,
  transitions: {
    done: {
      async run(ctx, row, input) {
        const at = String(input.done_time ?? '');
        if (at && at > wireTime(new Date())) fail('完成时间不能晚于现在');
        await affairBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: (ctx, input) => ({
        result: input.result,
        done_at: input.done_time ? sql`${input.done_time}::timestamptz` : sql`now()`,
        done_by: ctx.session.accountId,
      }),
      message: '已完成',
    },
    cancel: {
      async run(ctx, row) {
        await affairBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: (_ctx, input) => ({ cancel_reason: input.reason, cancelled_at: sql`now()` }),
      message: '已取消',
    },
  },
  logRoles: CARE_ROLES,
  summaries: {
    affairdone: '完成关怀事务：处理结果必填，完成时间默认现在（不能晚于现在）；负责人的待办随之完成',
    affaircancel: '取消关怀事务：须填写原因；负责人的待办随之关闭',
    affairlog: '一条关怀事务的处理记录：创建、修改、完成、取消、批量取消、批量转派',
  },
});

/** The status bar: every state's count and the late ones, under the list's other filters. */
const affaircounts = defineMethod('affaircounts', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '关怀事务状态栏：在其他筛选条件下，全部、待办、已完成、已取消与逾期的数量',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('care_affairs as t')
      .leftJoin('care_customers as c', (j) => j.onRef('c.rid', '=', 't.rid').onRef('c.id', '=', 't.customer_id'))
      .where('t.rid', '=', ctx.rid) as unknown as AnySelect;
    for (const [key, value] of Object.entries(input as Record<string, FilterValue>)) {
      if (value === undefined || value === '' || value === null) continue;
      qb = affairWhere[key] ? affairWhere[key](qb, value) : qb.where(sql.ref(`t.${key}`), '=', value);
    }
    const rows = (await qb
      .select(['t.status'])
      .select(sql<number>`count(*)::int`.as('n'))
      .select(sql<number>`(count(*) FILTER (WHERE t.due_date < current_date))::int`.as('late'))
      .groupBy('t.status')
      .execute()) as Array<{ status: string; n: number; late: number }>;
    const counts = { all: 0, P: 0, Y: 0, C: 0, overdue: 0 };
    for (const r of rows) {
      counts[r.status as 'P' | 'Y' | 'C'] = r.n;
      counts.all += r.n;
      if (r.status === 'P') counts.overdue = r.late;
    }
    return counts;
  },
});

/* ---------- group affairs ---------- */

/** The customers in care a group affair's criteria choose (every criterion given must hold). */
function groupTargets(db: Kysely<DB>, rid: number, c: GroupCriteria) {
  let qb = db.selectFrom('care_customers as c').where('c.rid', '=', rid).where('c.status', '=', 'Y');
  if (c.bid) qb = qb.where(sql<boolean>`c.hids && array(SELECT r.id FROM rooms r WHERE r.rid = ${rid} AND r.bid = ${c.bid})`);
  if (c.tag) qb = qb.where(sql<boolean>`c.tags @> ARRAY[${c.tag}]::text[]`);
  if (c.attention) qb = qb.where(sql<boolean>`c.attention @> ARRAY[${c.attention}]::text[]`);
  if (c.birth_month) qb = qb.where('c.birth_month', '=', Number(c.birth_month));
  if (c.kind) qb = qb.where('c.kind', '=', c.kind);
  if (c.steward_id) qb = qb.where('c.steward_id', '=', c.steward_id);
  return qb;
}

/** The criteria in words, refusing a building or a steward not of the community. */
async function criteriaText(ctx: CommunityCtx, c: GroupCriteria): Promise<string> {
  const parts: string[] = [];
  if (c.bid) {
    const b = await ctx.db.selectFrom('buildings').select('title').where('rid', '=', ctx.rid).where('id', '=', c.bid).executeTakeFirst();
    if (!b) fail('所选楼栋不存在或不属于当前小区');
    parts.push(b.title);
  }
  if (c.tag) parts.push(`标签「${c.tag}」`);
  if (c.attention) parts.push(`特别关注「${c.attention}」`);
  if (c.birth_month) parts.push(`${enumText(BIRTH_MONTH, c.birth_month)}生日`);
  if (c.kind) parts.push(enumText(CARE_CUSTOMER_KIND, c.kind));
  if (c.steward_id) {
    const [s] = await careStaff(ctx.db, ctx.rid, [c.steward_id]);
    if (!s) fail('负责管家须为本小区有客户关怀权限的在职员工');
    parts.push(`${s.name}负责的客户`);
  }
  return parts.length ? parts.join('、') : '全部关怀中的客户';
}

const criteriaOf = (input: GroupCriteria): GroupCriteria => ({
  bid: input.bid,
  tag: input.tag,
  attention: input.attention,
  birth_month: input.birth_month,
  kind: input.kind,
  steward_id: input.steward_id,
});

const groupaffairpreview = defineMethod('groupaffairpreview', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '批量事务预览：按楼栋、标签、特别关注、生日月份、客户类型、负责管家选出的关怀中客户数与前 10 位姓名',
  async handler(ctx, input) {
    const criteria = criteriaOf(input);
    const text = await criteriaText(ctx, criteria);
    const targets = groupTargets(ctx.db, ctx.rid, criteria);
    const { n } = await targets.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const first = await targets.select('c.realname').orderBy('c.id').limit(10).execute();
    return { total: n, names: first.map((r) => r.realname), criteria_text: text, limit: GROUP_AFFAIR_MAX };
  },
});

const groupaffairadds = defineMethod('groupaffairadds', {
  side: 'community',
  roles: CARE_ROLES,
  writes: true,
  summary: `批量新增关怀事务：为选出的每位关怀中客户各建一条事务（最多 ${GROUP_AFFAIR_MAX} 位），全部成功或全部不建；各自进入负责人的待办`,
  async handler(ctx, input) {
    const criteria = criteriaOf(input);
    const text = await criteriaText(ctx, criteria);
    if (input.due_date < today()) fail('计划日期不能早于今天');
    await refuseNonStaff(ctx.db, ctx.rid, input.assignee_id, '负责人');
    const targets = groupTargets(ctx.db, ctx.rid, criteria);
    const { n } = await targets.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    if (n === 0) fail('没有符合条件的关怀中客户');
    if (n > GROUP_AFFAIR_MAX) fail(`一次最多为 ${GROUP_AFFAIR_MAX} 位客户新增事务，当前条件选出 ${n} 位，请缩小范围`);
    const batch = await ctx.db
      .insertInto('care_affair_batches')
      .values({
        rid: ctx.rid,
        title: input.title,
        affair_kind: input.affair_kind,
        content: input.content,
        due_date: input.due_date,
        assign_mode: input.assign_mode,
        assignee_id: input.assignee_id,
        criteria: JSON.stringify(criteria),
        criteria_text: text,
        total: n,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // the customer's steward takes it where they are still care staff; else the one named
    const stewards = input.assign_mode === 'steward' ? (await careStaff(ctx.db, ctx.rid)).map((s) => Number(s.id)) : [];
    const made = await ctx.db
      .insertInto('care_affairs')
      .columns(['rid', 'customer_id', 'kind', 'content', 'assignee_id', 'due_date', 'batch_id', 'created_by'])
      .expression(
        targets.select([
          sql<number>`${ctx.rid}::int`.as('rid'),
          'c.id',
          sql<string>`${input.affair_kind}`.as('kind'),
          sql<string>`${input.content}`.as('content'),
          sql<number>`CASE WHEN c.steward_id = ANY(${stewards}::bigint[]) THEN c.steward_id ELSE ${input.assignee_id}::bigint END`.as(
            'assignee_id',
          ),
          sql<string>`${input.due_date}::date`.as('due_date'),
          sql<number>`${batch.id}::bigint`.as('batch_id'),
          sql<number>`${ctx.session.accountId}::bigint`.as('created_by'),
        ]),
      )
      .returning('id')
      .execute();
    // the count and the insert in one transaction: a customer added meanwhile makes the whole refused
    if (made.length !== n) fail('客户资料有变动，未新增任何事务，请重新预览后再提交');
    await raiseAffairsById(
      ctx.db,
      ctx.rid,
      made.map((m) => Number(m.id)),
      ctx.session,
    );
    return reply({ id: Number(batch.id), total: n }, `已为 ${n} 位客户新增事务`);
  },
});

const batchQuery = (db: Kysely<DB>, rid: number) => {
  const count = (where: string) =>
    sql<number>`(SELECT count(*)::int FROM care_affairs x WHERE x.rid = t.rid AND x.batch_id = t.id AND ${sql.raw(where)})`;
  return db
    .selectFrom('care_affair_batches as t')
    .leftJoin('accounts as ac', 'ac.id', 't.assignee_id')
    .leftJoin('accounts as cr', 'cr.id', 't.created_by')
    .selectAll('t')
    .select(sql<string>`coalesce(ac.name, '')`.as('assignee_name'))
    .select(sql<string>`coalesce(cr.name, '')`.as('creator'))
    .select(count(`x.status = 'Y'`).as('done'))
    .select(count(`x.status = 'P'`).as('open'))
    .select(count(`x.status = 'C'`).as('cancelled'))
    .select(count(`x.status = 'P' AND x.due_date < current_date`).as('overdue'))
    .where('t.rid', '=', rid);
};

async function batchRow(ctx: CommunityCtx, id: number): Promise<CareBatchRow> {
  const r = await batchQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) fail('批量事务不存在');
  return toBatch(r);
}

function toBatch(r: Awaited<ReturnType<ReturnType<typeof batchQuery>['executeTakeFirstOrThrow']>>): CareBatchRow {
  return {
    id: Number(r.id),
    title: r.title,
    affair_kind: r.affair_kind,
    affair_kind_ch: enumText(AFFAIR_KIND, r.affair_kind),
    content: r.content,
    due_date: r.due_date,
    assign_mode: r.assign_mode,
    assign_mode_ch: enumText(ASSIGN_MODE, r.assign_mode),
    assignee_id: Number(r.assignee_id),
    assignee_name: r.assignee_name,
    criteria_text: r.criteria_text,
    total: r.total,
    done: r.done,
    open: r.open,
    cancelled: r.cancelled,
    overdue: r.overdue,
    creator: r.creator,
    create_time: wireTime(r.created_at),
  };
}

const groupaffairlist = defineMethod('groupaffairlist', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '批量事务列表：名称、类型、选择条件、计划日期、负责人，以及完成进度（已完成/待办/已取消/逾期，共几条）',
  async handler(ctx, input) {
    let qb = batchQuery(ctx.db, ctx.rid);
    if (input.title) qb = qb.where('t.title', 'like', likePattern(input.title));
    if (input.affair_kind) qb = qb.where('t.affair_kind', '=', input.affair_kind);
    const page = await listPage(qb, input, 't.id');
    return { total: page.total, items: page.items.map(toBatch) };
  },
});

/** The open affairs of a batch, locked in id order (every writer of affairs locks them so). */
async function openOfBatch(ctx: CommunityCtx, batchId: number): Promise<number[]> {
  await batchRow(ctx, batchId);
  const rows = await ctx.db
    .selectFrom('care_affairs')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('batch_id', '=', batchId)
    .where('status', '=', 'P')
    .orderBy('id')
    .forUpdate()
    .execute();
  if (!rows.length) fail('该批量事务已没有待办的事务');
  return rows.map((r) => Number(r.id));
}

const groupaffaircancel = defineMethod('groupaffaircancel', {
  side: 'community',
  roles: CARE_ROLES,
  writes: true,
  summary: '取消批量事务中全部待办的事务（须填写原因）；已完成的不受影响，负责人的待办随之关闭',
  async handler(ctx, input) {
    const ids = await openOfBatch(ctx, input.id);
    await ctx.db
      .updateTable('care_affairs')
      .set({ status: 'C', cancel_reason: input.reason, cancelled_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', 'in', ids)
      .execute();
    for (const id of ids) {
      await affairBacklog.settle(ctx.db, ctx.rid, id, ctx.session.accountId);
      await writeFlowLog(ctx, careAffairFlow.def, id, { transition: 'batchcancel', from: 'P', to: 'C', input: { reason: input.reason } });
    }
    return reply({ cancelled: ids.length }, `已取消 ${ids.length} 条待办事务`);
  },
});

const groupaffairassign = defineMethod('groupaffairassign', {
  side: 'community',
  roles: CARE_ROLES,
  writes: true,
  summary: '把批量事务中全部待办的事务转给另一位负责人；待办随之转交',
  async handler(ctx, input) {
    await refuseNonStaff(ctx.db, ctx.rid, input.assignee_id, '负责人');
    const ids = await openOfBatch(ctx, input.id);
    await ctx.db
      .updateTable('care_affairs')
      .set({ assignee_id: input.assignee_id })
      .where('rid', '=', ctx.rid)
      .where('id', 'in', ids)
      .execute();
    const [to] = await careStaff(ctx.db, ctx.rid, [input.assignee_id]);
    for (const id of ids)
      await writeFlowLog(ctx, careAffairFlow.def, id, { transition: 'reassign', from: 'P', to: 'P', input: { assignee: to!.name } });
    await raiseAffairsById(ctx.db, ctx.rid, ids, ctx.session);
    return reply({ assigned: ids.length }, `已将 ${ids.length} 条待办事务转给${to!.name}`);
  },
});

const careBatchSmallList = defineMethod('care_batch_small_list', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '批量事务下拉（最近 200 个）：id、title',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('care_affair_batches')
      .select(['id', 'title', 'created_at'])
      .where('rid', '=', ctx.rid)
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
    return { items: rows.map((r) => ({ id: Number(r.id), title: `${r.title}（${wireTime(r.created_at).slice(0, 10)}）` })) };
  },
});

export const careAffairMethods = [
  ...resourceMethods,
  ...flowMethods,
  affaircounts,
  groupaffairpreview,
  groupaffairadds,
  groupaffairlist,
  groupaffaircancel,
  groupaffairassign,
  careBatchSmallList,
];
