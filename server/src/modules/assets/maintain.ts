/**
 * 维保 (docs/product.md#equipment-ledger; contract/src/assets/maintain.ts): standards (check
 * items), plans (assets, staff, cycle), the tasks generated on the plans' days (generatePlanTasks,
 * run by the job of ./maintainJobs.ts and at once when a plan is saved), overdue tasks on the
 * to-do list, and a task's completion: each check passed or failed, notes and photos; a failed
 * check opens an internal work order (内部工单) in the same transaction, linked from the task.
 */
import {
  MAINTAIN_TASK_STATUS,
  cycleText,
  enumText,
  internalOrderFlow,
  isCycleDay,
  maintainPlan,
  maintainStandard,
  type MaintainCheck,
  type MaintainCycle,
  type MaintainTaskCounts,
  type MaintainTaskDetail,
  type MaintainTaskRow,
  type MaintainTaskStatus,
} from '@wuye/contract';
import { ASSET_ROLES } from '@wuye/contract/assets/roles';
import { addDays } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput, type Session } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { internalOrderBacklog, orderNo, orderStaff } from '../steward/internalOrders.js';
import { checkStaff, staffNames } from './ledger.js';

/** An overdue maintenance task waits on the to-do list of the equipment staff until it is done. */
export const maintainBacklog = registerBacklogSource({
  kind: 'maintain',
  roles: ASSET_ROLES.staff,
  link: (id) => `/carpark/maintaintask?id=${id}`,
});

/** A dropdown of the community's standards or plans, for the equipment staff only (not every account). */
function nameSmallList(
  method: 'maintainstandard_small_list' | 'maintainplan_small_list',
  table: 'maintain_standards' | 'maintain_plans',
  summary: string,
) {
  return defineMethod(method, {
    side: 'community',
    roles: ASSET_ROLES.staff,
    writes: false,
    summary,
    async handler(ctx) {
      const rows = await ctx.db.selectFrom(table).select(['id', 'name']).where('rid', '=', ctx.rid).orderBy('id').execute();
      return { items: rows.map((r) => ({ id: Number(r.id), title: r.name })) };
    },
  });
}

async function categoryExists(ctx: CommunityCtx, id: number | null) {
  if (id === null) return;
  const row = await ctx.db.selectFrom('asset_categories').select('id').where('rid', '=', ctx.rid).where('id', '=', id).executeTakeFirst();
  if (!row) fail('所选设备分类不存在');
}

export const standardMethods = defineResource(maintainStandard, {
  table: 'maintain_standards',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('maintain_standards as t')
      .leftJoin('asset_categories as c', (j) => j.onRef('c.rid', '=', 't.rid').onRef('c.id', '=', 't.category_id'))
      .selectAll('t')
      .select(sql<string>`coalesce(c.name, '')`.as('category_name'))
      .select(sql<number>`cardinality(t.items)`.as('item_count'))
      .select(sql<number>`(SELECT count(*)::int FROM maintain_plans p WHERE p.rid = t.rid AND p.standard_id = t.id)`.as('plan_count'))
      .where('t.rid', '=', rid),
  row: (r) => ({ ...r, id: Number(r.id), category_id: r.category_id === null ? null : Number(r.category_id), created_by: undefined }),
  unique: [{ on: ['name'], message: (v) => `维保标准「${String(v.name)}」已存在` }],
  async check(ctx, values) {
    await categoryExists(ctx, values.category_id as number | null);
  },
  dependents: { maintain_plans: '该维保标准已被维保计划使用，不能删除' },
  replace: { small: nameSmallList('maintainstandard_small_list', 'maintain_standards', '维保标准下拉（id、title 名称）') },
  summaries: { list: '维保标准：名称、适用分类、检查项（逐项判断合格与否）、使用它的计划数' },
});

/** The community's assets by id that a plan may hold (not scrapped), or the refusal. */
async function checkAssets(ctx: CommunityCtx, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .selectFrom('assets')
    .select(['id', 'name', 'state'])
    .where('rid', '=', ctx.rid)
    .where('id', 'in', unique)
    .execute();
  if (rows.length !== unique.length) fail('所选设备不存在');
  const scrapped = rows.find((r) => r.state === 'X');
  if (scrapped) fail(`设备「${scrapped.name}」已报废，不能加入维保计划`);
  return unique;
}

const namesOfAssets = sql<string>`coalesce((SELECT string_agg(a.name, '、' ORDER BY a.id) FROM assets a WHERE a.rid = t.rid AND a.id = ANY(t.asset_ids)), '')`;

export const planMethods = defineResource(maintainPlan, {
  table: 'maintain_plans',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('maintain_plans as t')
      .innerJoin('maintain_standards as s', (j) => j.onRef('s.rid', '=', 't.rid').onRef('s.id', '=', 't.standard_id'))
      .selectAll('t')
      .select('s.name as standard_name')
      .select(namesOfAssets.as('asset_names'))
      .select(staffNames('t.staff_ids').as('staff_names'))
      .select(sql<number>`(SELECT count(*)::int FROM maintain_tasks k WHERE k.rid = t.rid AND k.plan_id = t.id)`.as('task_count'))
      .select(
        sql<number>`(SELECT count(*)::int FROM maintain_tasks k WHERE k.rid = t.rid AND k.plan_id = t.id AND k.status = 'P' AND k.due_on < ${today()}::date)`.as(
          'overdue_count',
        ),
      )
      .where('t.rid', '=', rid),
  row: (r) => ({
    ...r,
    id: Number(r.id),
    standard_id: Number(r.standard_id),
    asset_ids: (r.asset_ids as number[]).map(Number),
    staff_ids: (r.staff_ids as number[]).map(Number),
    cycle_text: cycleText(r.cycle as MaintainCycle, r.cycle_days as number[], Number(r.every_days)),
    generated_until: undefined,
    created_by: undefined,
  }),
  unique: [{ on: ['name'], message: (v) => `维保计划「${String(v.name)}」已存在` }],
  values(input, _ctx, before) {
    const cycle = input.cycle as MaintainCycle;
    const start = String(input.start_date);
    const dayBefore = addDays(start, -1);
    const until = before ? String(before.generated_until) : '';
    return {
      ...input,
      asset_ids: [...new Set(input.asset_ids as number[])],
      staff_ids: [...new Set(input.staff_ids as number[])],
      cycle_days: cycle === 'N' ? [] : [...new Set(input.cycle_days as number[])].sort((a, b) => a - b),
      every_days: cycle === 'N' ? input.every_days : 1,
      // a later start skips the days before it; an earlier one never makes past days again
      generated_until: before && until > dayBefore ? until : dayBefore,
    };
  },
  async check(ctx, values, before) {
    const standard = await ctx.db
      .selectFrom('maintain_standards')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(values.standard_id))
      .executeTakeFirst();
    if (!standard) fail('所选维保标准不存在');
    await checkAssets(ctx, values.asset_ids as number[]);
    await checkStaff(ctx, values.staff_ids as number[]);
    if (!before && String(values.start_date) < today()) fail('开始日期不能早于今天');
  },
  async after(ctx, id) {
    // today's tasks at once, when today is a day of the plan
    await generatePlanTasks(ctx.db, ctx.rid, id, today());
  },
  dependents: { maintain_tasks: '该维保计划已生成维保任务，不能删除（可停用）' },
  replace: { small: nameSmallList('maintainplan_small_list', 'maintain_plans', '维保计划下拉（id、title 名称）') },
  summaries: {
    list: '维保计划：名称、维保标准、设备、责任人、周期（每月固定日/每周固定日/每 N 天）、开始日期、启停、已生成任务数与逾期数',
    add: '新增维保计划（开始日期不早于今天；今天若是计划日，立即生成今天的任务）',
    edit: '修改维保计划（已生成的任务不变；改后今天若是计划日且尚未生成，立即生成）',
    del: '删除维保计划（已生成任务时拒绝，可停用）',
  },
});

/**
 * Creates the tasks of plan `planId` for its days after the last generated one up to `until`
 * (at most the 31 days before it: a task nobody saw for longer helps nobody), one per in-use asset
 * of the plan and day, each once ((plan_id, asset_id, due_on) is unique: a second run, or
 * process, makes nothing). Answers the tasks made.
 */
export async function generatePlanTasks(db: Kysely<DB>, rid: number, planId: number, until: string): Promise<number> {
  const p = await db
    .selectFrom('maintain_plans as p')
    .innerJoin('maintain_standards as s', (j) => j.onRef('s.rid', '=', 'p.rid').onRef('s.id', '=', 'p.standard_id'))
    .select(['p.id', 'p.enabled', 'p.cycle', 'p.cycle_days', 'p.every_days', 'p.asset_ids', 'p.staff_ids', 's.items', 'p.created_by'])
    .select(sql<string>`to_char(p.start_date, 'YYYY-MM-DD')`.as('start'))
    .select(sql<string>`to_char(p.generated_until, 'YYYY-MM-DD')`.as('until'))
    .where('p.rid', '=', rid)
    .where('p.id', '=', planId)
    .forUpdate(['p'])
    .executeTakeFirst();
  if (!p || p.enabled !== 'Y' || p.until >= until) return 0;
  let from = addDays(p.until, 1);
  if (from < addDays(until, -30)) from = addDays(until, -30);
  const days: string[] = [];
  for (let d = from; d <= until; d = addDays(d, 1)) {
    if (isCycleDay(p.cycle as MaintainCycle, p.cycle_days, p.every_days, p.start, d)) days.push(d);
  }
  let made = 0;
  if (days.length > 0) {
    const assets = await db
      .selectFrom('assets')
      .select('id')
      .where('rid', '=', rid)
      .where('id', 'in', p.asset_ids.length ? p.asset_ids.map(Number) : [0])
      .where('state', '=', 'U')
      .orderBy('id')
      .execute();
    const items: MaintainCheck[] = p.items.map((title) => ({ title, passed: null, note: '' }));
    const rows = days.flatMap((due_on) =>
      assets.map((a) => ({
        rid,
        plan_id: p.id,
        asset_id: a.id,
        due_on,
        staff_ids: p.staff_ids,
        items: JSON.stringify(items),
        created_by: p.created_by,
      })),
    );
    for (let i = 0; i < rows.length; i += 500) {
      const done = await db
        .insertInto('maintain_tasks')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['rid', 'plan_id', 'asset_id', 'due_on']).doNothing())
        .returning('id')
        .execute();
      made += done.length;
    }
  }
  await db.updateTable('maintain_plans').set({ generated_until: until }).where('rid', '=', rid).where('id', '=', planId).execute();
  return made;
}

/** Raises the to-do of every task of the community (all, without rid) gone overdue since the last run, once each. */
export async function noteOverdue(db: Kysely<DB>, rid: number | null, day: string): Promise<number> {
  let qb = db
    .selectFrom('maintain_tasks as k')
    .innerJoin('maintain_plans as p', (j) => j.onRef('p.rid', '=', 'k.rid').onRef('p.id', '=', 'k.plan_id'))
    .innerJoin('assets as a', (j) => j.onRef('a.rid', '=', 'k.rid').onRef('a.id', '=', 'k.asset_id'))
    .select(['k.rid', 'k.id', 'k.staff_ids', 'p.name as plan_name', 'a.name as asset_name'])
    .select(sql<string>`to_char(k.due_on, 'YYYY-MM-DD')`.as('due_on'))
    .where('k.status', '=', 'P')
    .where('k.overdue_noted', '=', false)
    .where('k.due_on', '<', day);
  if (rid !== null) qb = qb.where('k.rid', '=', rid);
  const late = await qb.orderBy('k.rid').orderBy('k.id').limit(5000).execute();
  for (const k of late) {
    await maintainBacklog.raise(db, k.rid, {
      sourceId: Number(k.id),
      title: `维保任务逾期：${k.plan_name} ${k.asset_name}（${k.due_on}）`,
      deadline: null,
      account: k.staff_ids.length === 1 ? Number(k.staff_ids[0]) : null,
    });
  }
  if (late.length > 0) {
    await db
      .updateTable('maintain_tasks')
      .set({ overdue_noted: true })
      .where(sql<boolean>`(rid, id) IN (${sql.join(late.map((k) => sql`(${k.rid}::int, ${k.id}::bigint)`))})`)
      .execute();
  }
  return late.length;
}

function taskQuery(db: Kysely<DB>, rid: number, day: string) {
  return db
    .selectFrom('maintain_tasks as k')
    .innerJoin('maintain_plans as p', (j) => j.onRef('p.rid', '=', 'k.rid').onRef('p.id', '=', 'k.plan_id'))
    .innerJoin('maintain_standards as s', (j) => j.onRef('s.rid', '=', 'p.rid').onRef('s.id', '=', 'p.standard_id'))
    .innerJoin('assets as a', (j) => j.onRef('a.rid', '=', 'k.rid').onRef('a.id', '=', 'k.asset_id'))
    .select([
      'k.id',
      'k.plan_id',
      'k.asset_id',
      'k.staff_ids',
      'k.status',
      'k.items',
      'k.notes',
      'k.photos',
      'k.done_at',
      'k.done_name',
      'k.order_id',
      'k.created_at',
      'p.name as plan_name',
      's.name as standard_name',
      'a.name as asset_name',
      'a.code as asset_code',
      'a.location',
    ])
    .select(sql<string>`to_char(k.due_on, 'YYYY-MM-DD')`.as('due_on'))
    .select(staffNames('k.staff_ids').as('staff_names'))
    .select(sql<boolean>`(k.status = 'P' AND k.due_on < ${day}::date)`.as('overdue'))
    .where('k.rid', '=', rid);
}

type TaskRaw = Awaited<ReturnType<ReturnType<typeof taskQuery>['executeTakeFirstOrThrow']>>;

function toTaskRow(k: TaskRaw, session: Pick<Session, 'accountId'>): MaintainTaskDetail {
  const items = k.items as unknown as MaintainCheck[];
  const status = (k.overdue ? 'O' : k.status) as MaintainTaskStatus;
  const staff = k.staff_ids.map(Number);
  return {
    id: Number(k.id),
    plan_id: Number(k.plan_id),
    plan_name: k.plan_name,
    standard_name: k.standard_name,
    asset_id: Number(k.asset_id),
    asset_name: k.asset_name,
    asset_code: k.asset_code,
    location: k.location,
    due_on: k.due_on,
    staff_ids: staff,
    staff_names: k.staff_names,
    status,
    status_ch: enumText(MAINTAIN_TASK_STATUS, status),
    overdue: k.overdue,
    item_count: items.length,
    failed_count: items.filter((i) => i.passed === false).length,
    notes: k.notes,
    photos: k.photos,
    done_time: wireTime(k.done_at),
    done_name: k.done_name,
    order_id: k.order_id === null ? null : Number(k.order_id),
    order_no: k.order_id === null ? '' : orderNo(Number(k.order_id)),
    mine: staff.includes(session.accountId),
    create_time: wireTime(k.created_at),
    items,
  };
}

type TaskFilters = HandlerInput<'maintaintasklist'>;
type TQ = ReturnType<typeof taskQuery>;

/** The list's filters as conditions on the task (k) and its asset (a): the same for the page and the counts. */
function conditions(f: TaskFilters, accountId: number, day: string, withStatus: boolean): Array<RawBuilder<boolean>> {
  const out: Array<RawBuilder<boolean>> = [];
  if (f.plan_id) out.push(sql<boolean>`k.plan_id = ${f.plan_id}`);
  if (f.asset_id) out.push(sql<boolean>`k.asset_id = ${f.asset_id}`);
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    out.push(sql<boolean>`(a.name LIKE ${like} OR a.code LIKE ${like})`);
  }
  if (f.mine === 'Y') out.push(sql<boolean>`${accountId}::bigint = ANY(k.staff_ids)`);
  if (f.due_from) out.push(sql<boolean>`k.due_on >= ${f.due_from}::date`);
  if (f.due_to) out.push(sql<boolean>`k.due_on <= ${f.due_to}::date`);
  if (withStatus && f.status) {
    if (f.status === 'O') out.push(sql<boolean>`(k.status = 'P' AND k.due_on < ${day}::date)`);
    else if (f.status === 'P') out.push(sql<boolean>`(k.status = 'P' AND k.due_on >= ${day}::date)`);
    else out.push(sql<boolean>`k.status = ${f.status}`);
  }
  return out;
}

function filtered(qb: TQ, f: TaskFilters, accountId: number, day: string): TQ {
  for (const c of conditions(f, accountId, day, true)) qb = qb.where(c);
  return qb;
}

/**
 * The tasks by state (O: pending past its day) under the list's filters but its state: the
 * status bar's counts and, picked by the asked state, the list's total. The asset is joined only
 * for a keyword.
 */
async function taskCounts(db: Kysely<DB>, rid: number, f: TaskFilters, accountId: number, day: string): Promise<MaintainTaskCounts> {
  let qb = db
    .selectFrom('maintain_tasks as k')
    .select(sql<string>`CASE WHEN k.status = 'P' AND k.due_on < ${day}::date THEN 'O' ELSE k.status END`.as('state'))
    .select(sql<number>`count(*)::int`.as('n'))
    .where('k.rid', '=', rid);
  if (f.keyword) qb = qb.innerJoin('assets as a', (j) => j.onRef('a.rid', '=', 'k.rid').onRef('a.id', '=', 'k.asset_id'));
  for (const c of conditions(f, accountId, day, false)) qb = qb.where(c);
  const rows = await qb.groupBy(sql`1`).execute();
  const counts: MaintainTaskCounts = { all: 0, P: 0, O: 0, Y: 0, F: 0 };
  for (const r of rows) {
    counts[r.state as MaintainTaskStatus] = r.n;
    counts.all += r.n;
  }
  return counts;
}

const maintaintasklist = defineMethod('maintaintasklist', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: false,
  summary:
    '维保任务：计划、标准、设备（编码、名称、位置）、计划日期、责任人、状态（待执行、已逾期、已完成、完成有异常）、检查项与不合格数、完成人与时间、生成的内部工单；按计划、设备、名称/编码、状态、我的、日期筛选；counts 为各状态数量',
  async handler(ctx, input) {
    const day = today();
    const counts = await taskCounts(ctx.db, ctx.rid, input, ctx.session.accountId, day);
    const total = input.status ? counts[input.status] : counts.all;
    const page = await listPage(
      filtered(taskQuery(ctx.db, ctx.rid, day), input, ctx.session.accountId, day),
      input,
      'k.id',
      async () => total,
    );
    return {
      total: page.total,
      items: page.items.map((k) => {
        const { items: _items, ...row } = toTaskRow(k, ctx.session);
        return row satisfies MaintainTaskRow;
      }),
      counts,
    };
  },
});

async function taskDetail(ctx: CommunityCtx, id: number) {
  const k = await taskQuery(ctx.db, ctx.rid, today()).where('k.id', '=', id).executeTakeFirst();
  if (!k) fail('维保任务不存在');
  return toTaskRow(k, ctx.session);
}

const maintaintaskinfo = defineMethod('maintaintaskinfo', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: false,
  summary: '维保任务详情：检查项（合格与否、说明）、处理说明、照片、完成人与时间、生成的内部工单',
  handler: (ctx, input) => taskDetail(ctx, input.id),
});

/**
 * The handlers of the work order a failed check opens: the task's staff who may handle internal
 * orders, else the one who did the task when they may; otherwise the task cannot be closed.
 */
async function orderHandlers(ctx: CommunityCtx, staff: readonly number[]): Promise<number[]> {
  const fromPlan = await orderStaff(ctx.db, ctx.rid, staff);
  if (fromPlan.length > 0) return fromPlan.map((a) => Number(a.id));
  const me = await orderStaff(ctx.db, ctx.rid, [ctx.session.accountId]);
  if (me.length > 0) return [ctx.session.accountId];
  return fail('有检查项不合格需生成内部工单，但任务的责任人中没有可处理内部工单的员工（需管家或维修权限），请先调整维保计划的责任人');
}

/** The internal order's due time: a day to fix what failed. */
const ORDER_DUE_HOURS = 24;

/**
 * Completes task `input.id` as the session's account (its staff, or admin; on or after its day):
 * the checks in the task's order, a note for each failed one; a failure opens an internal order
 * (设备维护) in the caller's transaction, as internalorderadd does. Answers the order's id, if any,
 * and the number of failed checks.
 */
export async function finishTask(
  ctx: CommunityCtx,
  input: { id: number; results: Array<{ passed: boolean; note: string }>; notes: string; photos: string[] },
): Promise<{ orderId: number | null; failed: number }> {
  const task = await ctx.db
    .selectFrom('maintain_tasks')
    .select(['id', 'status', 'staff_ids', 'items', 'asset_id', 'plan_id'])
    .select(sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on'))
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.id)
    .forUpdate()
    .executeTakeFirst();
  if (!task) fail('维保任务不存在');
  const staff = task.staff_ids.map(Number);
  if (!ctx.session.roles.includes('admin') && !staff.includes(ctx.session.accountId)) fail('只有该任务的责任人可以完成任务');
  if (task.status !== 'P') fail('该维保任务已完成');
  if (task.due_on > today()) fail(`任务的计划日期是 ${task.due_on}，还未到执行日期`);
  const items = task.items as unknown as MaintainCheck[];
  if (input.results.length !== items.length) fail(`请逐项填写检查结果（共 ${items.length} 项）`);
  const checked: MaintainCheck[] = items.map((it, i) => ({
    title: it.title,
    passed: input.results[i]!.passed,
    note: input.results[i]!.note,
  }));
  const missing = checked.find((c) => c.passed === false && !c.note);
  if (missing) fail(`不合格的检查项「${missing.title}」请填写说明`);
  const failed = checked.filter((c) => c.passed === false);
  let orderId: number | null = null;
  if (failed.length > 0) {
    const handlers = await orderHandlers(ctx, staff);
    const a = await ctx.db
      .selectFrom('assets as a')
      .innerJoin('maintain_plans as p', (j) => j.onRef('p.rid', '=', 'a.rid').on('p.id', '=', task.plan_id))
      .select(['a.name', 'a.code', 'a.location', 'p.name as plan_name'])
      .where('a.rid', '=', ctx.rid)
      .where('a.id', '=', task.asset_id)
      .executeTakeFirstOrThrow();
    const title = `维保异常：${a.name}`.slice(0, 60);
    const content = [
      `维保任务 #${task.id}（${a.plan_name}，${task.due_on}）发现 ${failed.length} 项不合格：`,
      ...failed.map((c) => `${c.title}：${c.note}`),
      input.notes ? `处理说明：${input.notes}` : '',
    ]
      .filter(Boolean)
      .join('\n')
      .slice(0, 500);
    // as internalorderadd does: the order, its checklist, its flow log and its to-do
    const order = await ctx.db
      .insertInto('internal_orders')
      .values({
        rid: ctx.rid,
        title,
        kind: 'E',
        location: `${a.location} ${a.code}`.trim().slice(0, 100),
        content,
        handler_ids: handlers,
        cc_ids: [],
        photos: input.photos,
        due_hours: ORDER_DUE_HOURS,
        due_at: sql<Date>`now() + make_interval(hours => ${ORDER_DUE_HOURS})`,
        creator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning(['id', 'due_at'])
      .executeTakeFirstOrThrow();
    orderId = Number(order.id);
    await ctx.db
      .insertInto('internal_order_items')
      .values(
        failed.map((c, i) => ({
          rid: ctx.rid,
          order_id: orderId!,
          sort: i + 1,
          title: c.title.slice(0, 60),
          created_by: ctx.session.accountId,
        })),
      )
      .execute();
    await writeFlowLog(ctx, internalOrderFlow.def, orderId, { transition: 'create', from: '', to: 'P', input: { title } });
    await internalOrderBacklog.raise(ctx.db, ctx.rid, {
      sourceId: orderId,
      title: `内部工单待处理：${orderNo(orderId)} ${title}`,
      submitter: ctx.session,
      deadline: order.due_at,
      account: handlers.length === 1 ? handlers[0] : null,
    });
  }
  await ctx.db
    .updateTable('maintain_tasks')
    .set({
      status: failed.length > 0 ? 'F' : 'Y',
      items: JSON.stringify(checked),
      notes: input.notes,
      photos: input.photos,
      done_at: sql<Date>`now()`,
      done_by: ctx.session.accountId,
      done_name: ctx.session.name,
      order_id: orderId,
    })
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.id)
    .execute();
  await maintainBacklog.settle(ctx.db, ctx.rid, input.id, ctx.session.accountId);
  return { orderId, failed: failed.length };
}

const maintaintaskdone = defineMethod('maintaintaskdone', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: true,
  summary:
    '完成维保任务（责任人或管理员，计划日当天或之后）：逐项填写检查结果（合格/不合格，不合格须写说明）、处理说明、照片；有不合格项时同一事务内生成内部工单（设备维护），检查项为不合格的各项，并记在任务上',
  async handler(ctx, input) {
    const { orderId, failed } = await finishTask(ctx, input);
    return reply(
      await taskDetail(ctx, input.id),
      orderId === null ? '维保任务已完成' : `维保任务已完成，${failed} 项不合格，已生成内部工单 ${orderNo(orderId)}`,
    );
  },
});

const maintaintaskgenerate = defineMethod('maintaintaskgenerate', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: true,
  summary: '立即为本小区生成到今天为止的维保任务（与每 15 分钟运行的任务相同；已生成的不会重复），并把逾期任务列入待办',
  async handler(ctx) {
    const day = today();
    const plans = await ctx.db
      .selectFrom('maintain_plans')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('enabled', '=', 'Y')
      .where('generated_until', '<', day)
      .orderBy('id')
      .execute();
    let tasks = 0;
    for (const p of plans) tasks += await generatePlanTasks(ctx.db, ctx.rid, Number(p.id), day);
    await noteOverdue(ctx.db, ctx.rid, day);
    return reply({ plans: plans.length, tasks }, tasks > 0 ? `已生成 ${tasks} 个维保任务` : '没有需要生成的维保任务');
  },
});

export const maintainModule = [
  ...standardMethods,
  ...planMethods,
  maintaintasklist,
  maintaintaskinfo,
  maintaintaskdone,
  maintaintaskgenerate,
];
