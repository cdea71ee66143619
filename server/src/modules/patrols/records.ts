/**
 * Patrol records (docs/product.md#patrols): the tasks with their completion (n of m points),
 * missed and abnormal points; a task's details with each check-in as uploaded; the transfer to
 * another guard; the raw upload log and the log of corrections; a supervisor's correction (the
 * check-in itself is never changed); the report per plan and day, per guard, the points missed
 * most and by hour; exports; the dashboard's figures; the jobs run at a given moment (admin).
 */
import {
  CHECK_RESULT,
  CHECKIN_METHOD,
  CHECKIN_OUTCOME,
  CHECKIN_TIMING,
  EDIT_ACTION,
  enumText,
  TASK_POINT_STATUS,
  TASK_STATUS,
  taskNo,
  type CheckItem,
  type EditAction,
  type PatrolCheckinRow,
  type PatrolDashboard,
  type PatrolEditRow,
  type PatrolReport,
  type PatrolTaskDetail,
  type PatrolTaskRow,
  type TaskStatus,
  methodSchemas,
} from '@wuye/contract';
import { PATROL_ROLES } from '@wuye/contract/patrols/roles';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { orderNo } from '../steward/internalOrders.js';
import { guardStaff } from './plans.js';
import { businessDay, closeTasks, makeTasks, patrolTaskBacklog } from './tasks.js';
import { businessTimeZone } from '../../config.js';
import { zoneOffsetMinutes } from '@wuye/contract';

type TaskFilters = z.output<(typeof methodSchemas)['patroltaskexport']>;
const OFFSET_MS = zoneOffsetMinutes(businessTimeZone()) * 60_000;

const hhmm = (d: Date) => wireTime(d).slice(11, 16);

function taskQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('patrol_tasks as t')
    .innerJoin('accounts as g', 'g.id', 't.guard_id')
    .innerJoin('accounts as c', 'c.id', 't.current_guard_id')
    .selectAll('t')
    .select(['g.name as guard_name', 'c.name as current_guard_name'])
    .select(sql<string>`to_char(t.day, 'YYYY-MM-DD')`.as('day_text'))
    .where('t.rid', '=', rid);
}
type TaskRaw = Awaited<ReturnType<ReturnType<typeof taskQuery>['executeTakeFirstOrThrow']>>;

function filtered(qb: ReturnType<typeof taskQuery>, f: TaskFilters) {
  let q = qb;
  if (f.plan_id) q = q.where('t.plan_id', '=', f.plan_id);
  if (f.guard_id) q = q.where((eb) => eb.or([eb('t.guard_id', '=', f.guard_id!), eb('t.current_guard_id', '=', f.guard_id!)]));
  if (f.status) q = q.where('t.status', '=', f.status);
  if (f.day) q = q.where('t.day', '>=', f.day[0]).where('t.day', '<=', f.day[1]);
  if (f.flag === 'missed') q = q.where('t.missed_names', '<>', '');
  if (f.flag === 'abnormal') q = q.where('t.abnormal_count', '>', 0);
  return q;
}

export function toTaskRow(t: TaskRaw): PatrolTaskRow {
  const id = Number(t.id);
  const missed = t.missed_names ? t.missed_names.split('、').length : 0;
  return {
    id,
    no: taskNo(id),
    plan_id: Number(t.plan_id),
    plan_name: t.plan_name,
    guard_id: Number(t.guard_id),
    guard_name: t.guard_name,
    current_guard_id: Number(t.current_guard_id),
    current_guard_name: t.current_guard_name,
    day: t.day_text,
    window_text: `${t.day_text} ${hhmm(t.window_start)}-${hhmm(t.window_end)}`,
    window_start: wireTime(t.window_start),
    window_end: wireTime(t.window_end),
    close_at: wireTime(t.close_at),
    status: t.status as TaskStatus,
    status_ch: enumText(TASK_STATUS, t.status),
    points_total: t.points_total,
    points_done: t.points_done,
    completion: `${t.points_done}/${t.points_total}`,
    missed_count: missed,
    missed_names: t.missed_names,
    abnormal_count: t.abnormal_count,
    late_count: t.late_count,
    transfer_reason: t.transfer_reason,
    started_at: wireTime(t.started_at),
    closed_at: wireTime(t.closed_at),
  };
}

type CheckinRaw = {
  id: string | number;
  guard_name: string;
  code: string;
  method: string;
  device_time: Date | null;
  server_time: Date;
  lat: string | null;
  lng: string | null;
  outcome: string;
  reason: string;
  point_id: string | number | null;
  point_name: string;
  task_id: string | number | null;
  distance_m: number | null;
  outside: boolean;
  timing: string;
  out_of_order: boolean;
  result: string;
  answers: unknown;
  photos: string[];
  note: string;
  order_id: string | number | null;
};
const num = (v: string | number | null) => (v === null ? null : Number(v));
function toCheckinRow(c: CheckinRaw): PatrolCheckinRow {
  return {
    id: Number(c.id),
    guard_name: c.guard_name,
    code: c.code,
    method: c.method as PatrolCheckinRow['method'],
    method_ch: enumText(CHECKIN_METHOD, c.method),
    device_time: wireTime(c.device_time),
    server_time: wireTime(c.server_time),
    lat: num(c.lat),
    lng: num(c.lng),
    outcome: c.outcome as PatrolCheckinRow['outcome'],
    outcome_ch: enumText(CHECKIN_OUTCOME, c.outcome),
    reason: c.reason,
    point_id: num(c.point_id),
    point_name: c.point_name,
    task_id: num(c.task_id),
    distance_m: c.distance_m,
    outside: c.outside,
    timing: c.timing as PatrolCheckinRow['timing'],
    timing_ch: c.timing ? enumText(CHECKIN_TIMING, c.timing) : '',
    out_of_order: c.out_of_order,
    result: c.result as PatrolCheckinRow['result'],
    result_ch: c.result ? enumText(CHECK_RESULT, c.result) : '',
    answers: c.answers as PatrolCheckinRow['answers'],
    photos: c.photos,
    note: c.note,
    order_id: num(c.order_id),
    order_no: c.order_id === null ? '' : orderNo(Number(c.order_id)),
  };
}

const editQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('patrol_edits as e')
    .leftJoin('patrol_task_points as tp', (j) => j.onRef('tp.rid', '=', 'e.rid').onRef('tp.id', '=', 'e.task_point_id'))
    .selectAll('e')
    .select(sql<string>`coalesce(tp.point_name, '')`.as('point_name'))
    .where('e.rid', '=', rid);
function toEditRow(e: Awaited<ReturnType<ReturnType<typeof editQuery>['executeTakeFirstOrThrow']>>): PatrolEditRow {
  return {
    id: Number(e.id),
    task_id: Number(e.task_id),
    task_no: taskNo(Number(e.task_id)),
    task_point_id: num(e.task_point_id),
    point_name: e.point_name,
    action: e.action as EditAction,
    action_ch: enumText(EDIT_ACTION, e.action),
    old_value: e.old_value,
    new_value: e.new_value,
    reason: e.reason,
    operator: e.operator,
    create_time: wireTime(e.created_at),
  };
}

/** Whether the reader may correct or transfer a task: admin, or a supervisor who is not its guard. */
const mayCorrect = (ctx: CommunityCtx, t: { current_guard_id: string | number; guard_id: string | number }) =>
  ctx.session.roles.includes('admin') ||
  (Number(t.current_guard_id) !== ctx.session.accountId && Number(t.guard_id) !== ctx.session.accountId);

async function taskDetail(ctx: CommunityCtx, id: number): Promise<PatrolTaskDetail> {
  const t = await taskQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!t) fail('巡更任务不存在');
  const [points, checkins, edits] = await Promise.all([
    ctx.db
      .selectFrom('patrol_task_points as tp')
      .innerJoin('patrol_points as pt', (j) => j.onRef('pt.rid', '=', 'tp.rid').onRef('pt.id', '=', 'tp.point_id'))
      .selectAll('tp')
      .select(['pt.number', 'pt.qr_code', 'pt.checklist', 'pt.photo_required'])
      .where('tp.rid', '=', ctx.rid)
      .where('tp.task_id', '=', id)
      .orderBy('tp.sort')
      .execute(),
    ctx.db
      .selectFrom('patrol_checkins')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('task_id', '=', id)
      .where('outcome', '=', 'ok')
      .execute(),
    editQuery(ctx.db, ctx.rid).where('e.task_id', '=', id).orderBy('e.id').execute(),
  ]);
  const byId = new Map(checkins.map((c) => [Number(c.id), toCheckinRow(c as unknown as CheckinRaw)]));
  return {
    ...toTaskRow(t),
    can_edit: mayCorrect(ctx, t),
    points: points.map((p) => ({
      id: Number(p.id),
      point_id: Number(p.point_id),
      point_name: p.point_name,
      point_number: p.number,
      point_qr: p.qr_code,
      sort: p.sort,
      due_text: `${hhmm(p.due_from)}-${hhmm(p.due_to)}`,
      status: p.status as PatrolTaskDetail['points'][number]['status'],
      status_ch: enumText(TASK_POINT_STATUS, p.status),
      result: p.result as '' | 'N' | 'A',
      result_ch: p.result ? enumText(CHECK_RESULT, p.result) : '',
      remark: p.remark,
      order_id: num(p.order_id),
      order_no: p.order_id === null ? '' : orderNo(Number(p.order_id)),
      checkin: p.checkin_id === null ? null : (byId.get(Number(p.checkin_id)) ?? null),
      checklist: p.checklist as CheckItem[],
      photo_required: p.photo_required as 'Y' | 'N',
    })),
    edits: edits.map(toEditRow),
  };
}

const patroltasklist = defineMethod('patroltasklist', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary:
    '巡更任务（巡更记录）列表：计划、巡更人（计划/当前）、时段、状态、完成 n/m 点、漏巡点名称、异常数、迟到数、流转原因；按计划、人员、状态、日期、有漏巡/有异常筛选',
  async handler(ctx, input) {
    const page = await listPage(filtered(taskQuery(ctx.db, ctx.rid), input), input, 't.id');
    return { items: page.items.map(toTaskRow), total: page.total };
  },
});

const patroltaskexport = defineExport('patroltaskexport', {
  roles: PATROL_ROLES.staff,
  summary: '导出巡更任务（与列表相同的筛选）',
  filename: () => `巡更记录_${today()}.xlsx`,
  async sheet(scope, input) {
    const rows = await filtered(taskQuery(scope.db, scope.rid), input).orderBy('t.id', 'desc').limit(100_000).execute();
    return sheetOf<PatrolTaskRow>(
      '巡更记录',
      [
        { header: '任务编号', value: (r) => r.no, width: 12 },
        { header: '计划', value: (r) => r.plan_name, width: 18 },
        { header: '计划巡更人', value: (r) => r.guard_name },
        { header: '当前巡更人', value: (r) => r.current_guard_name },
        { header: '时段', value: (r) => r.window_text, width: 24 },
        { header: '状态', value: (r) => r.status_ch },
        { header: '完成', value: (r) => r.completion },
        { header: '漏巡点', value: (r) => r.missed_names, width: 30 },
        { header: '异常数', value: (r) => r.abnormal_count },
        { header: '迟到数', value: (r) => r.late_count },
        { header: '流转原因', value: (r) => r.transfer_reason, width: 20 },
      ],
      rows.map(toTaskRow),
    );
  },
});

const patroltaskinfo = defineMethod('patroltaskinfo', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary:
    '巡更任务详情：各点的时段、状态、正常/异常、签到记录（设备时间、服务器时间、方式、位置与距离、早到/准时/迟到、跳序、检查项、照片、工单）与修改记录',
  handler: (ctx, input) => taskDetail(ctx, input.id),
});

const patrolmytasks = defineMethod('patrolmytasks', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary: '我的巡更任务：当前账号进行中的任务与今天的任务（含各点检查项）',
  async handler(ctx) {
    const day = businessDay(new Date());
    const rows = await ctx.db
      .selectFrom('patrol_tasks')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('current_guard_id', '=', ctx.session.accountId)
      .where((eb) => eb.or([eb('status', 'in', ['W', 'D']), eb('day', '=', day)]))
      .orderBy('window_start')
      .orderBy('id')
      .limit(20)
      .execute();
    const items: PatrolTaskDetail[] = [];
    for (const r of rows) items.push(await taskDetail(ctx, Number(r.id)));
    return { items };
  },
});

const patroltasktransfer = defineMethod('patroltasktransfer', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: true,
  summary: '流转巡更任务：交给另一位巡更人员并填写原因（未结束的任务；保留计划巡更人，不会重复生成）',
  async handler(ctx, input) {
    const t = await ctx.db
      .selectFrom('patrol_tasks')
      .select(['id', 'status', 'guard_id', 'current_guard_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!t) fail('巡更任务不存在');
    if (t.status !== 'W' && t.status !== 'D') fail('该巡更任务已结束，不能流转');
    if (!mayCorrect(ctx, t)) fail('不能流转自己的巡更任务，请由主管操作');
    if (Number(t.current_guard_id) === input.account_id) fail('该任务已由所选人员执行');
    const [to] = await guardStaff(ctx.db, ctx.rid, [input.account_id]);
    if (!to) fail('所选巡更人员不存在、已停用或没有安保巡更权限');
    const from = await ctx.db.selectFrom('accounts').select('name').where('id', '=', Number(t.current_guard_id)).executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('patrol_tasks')
      .set({ current_guard_id: input.account_id, transfer_reason: input.reason, transferred_at: new Date() })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    await ctx.db
      .insertInto('patrol_edits')
      .values({
        rid: ctx.rid,
        task_id: input.id,
        action: 'transfer',
        old_value: from.name,
        new_value: to.name,
        reason: input.reason,
        operator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .execute();
    return reply({ id: input.id }, `已流转给 ${to.name}`);
  },
});

const patrolrecordlog = defineMethod('patrolrecordlog', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary:
    '巡更原始上传记录：每次签到上传（含未匹配的码、无任务、重复），服务器时间、设备时间、方式、码值、匹配点位、距离与是否超出半径、结果与原因',
  async handler(ctx, input) {
    let qb = ctx.db.selectFrom('patrol_checkins').selectAll().where('rid', '=', ctx.rid);
    if (input.outcome) qb = qb.where('outcome', '=', input.outcome);
    if (input.code) qb = qb.where('code', 'ilike', `%${input.code.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    if (input.day)
      qb = qb
        .where('server_time', '>=', new Date(Date.parse(`${input.day[0]}T00:00:00Z`) - OFFSET_MS))
        .where('server_time', '<', new Date(Date.parse(`${input.day[1]}T00:00:00Z`) - OFFSET_MS + 86_400_000));
    const page = await listPage(qb, { ...input, sort: input.sort === 'asc' ? 'desc' : 'asc' }, 'id');
    return { items: page.items.map((c) => toCheckinRow(c as unknown as CheckinRaw)), total: page.total };
  },
});

const patroleditlog = defineMethod('patroleditlog', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary: '巡更修改记录：主管的补检、改正常/异常、备注与任务流转（谁、何时、原值 → 新值、原因）',
  async handler(ctx, input) {
    let qb = editQuery(ctx.db, ctx.rid);
    if (input.task_id) qb = qb.where('e.task_id', '=', input.task_id);
    if (input.day)
      qb = qb
        .where('e.created_at', '>=', new Date(Date.parse(`${input.day[0]}T00:00:00Z`) - OFFSET_MS))
        .where('e.created_at', '<', new Date(Date.parse(`${input.day[1]}T00:00:00Z`) - OFFSET_MS + 86_400_000));
    const page = await listPage(qb, { ...input, sort: input.sort === 'asc' ? 'desc' : 'asc' }, 'e.id');
    return { items: page.items.map(toEditRow), total: page.total };
  },
});

const patrolrecordedit = defineMethod('patrolrecordedit', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: true,
  summary: '主管修正巡更记录：漏巡点标记补检（补检时限内）、改正常/异常、加备注；每次修改记入修改记录，原始签到不变；不能修正自己的任务',
  async handler(ctx, input) {
    const p = await ctx.db
      .selectFrom('patrol_task_points as tp')
      .innerJoin('patrol_tasks as t', (j) => j.onRef('t.rid', '=', 'tp.rid').onRef('t.id', '=', 'tp.task_id'))
      .select([
        'tp.id',
        'tp.task_id',
        'tp.status',
        'tp.result',
        'tp.remark',
        't.guard_id',
        't.current_guard_id',
        't.close_at',
        't.status as task_status',
      ])
      .where('tp.rid', '=', ctx.rid)
      .where('tp.id', '=', input.task_point_id)
      .forUpdate()
      .executeTakeFirst();
    if (!p) fail('巡更记录不存在');
    if (!mayCorrect(ctx, p)) fail('不能修正自己的巡更记录，请由主管操作');
    const taskId = Number(p.task_id);
    let old = '';
    let now = '';
    if (input.action === 'makeup') {
      if (p.status !== 'M' && p.status !== 'W') fail('只有漏巡或待巡的点可以标记补检');
      if (p.task_status === 'W' || p.task_status === 'D') {
        if (new Date() > p.close_at) fail('已超过补检时限');
      }
      old = enumText(TASK_POINT_STATUS, p.status);
      now = enumText(TASK_POINT_STATUS, 'B');
      await ctx.db
        .updateTable('patrol_task_points')
        .set({ status: 'B', result: p.result || 'N' })
        .where('rid', '=', ctx.rid)
        .where('id', '=', p.id)
        .execute();
      const missedNames = await ctx.db
        .selectFrom('patrol_task_points')
        .select(sql<string>`coalesce(string_agg(point_name, '、' ORDER BY sort), '')`.as('names'))
        .where('rid', '=', ctx.rid)
        .where('task_id', '=', taskId)
        .where('status', '=', 'M')
        .executeTakeFirstOrThrow();
      await ctx.db
        .updateTable('patrol_tasks')
        .set((eb) => ({
          points_done: eb('points_done', '+', 1),
          makeup_count: eb('makeup_count', '+', 1),
          missed_names: missedNames.names,
          status: sql<
            'W' | 'D' | 'Y' | 'P'
          >`CASE WHEN status IN ('W', 'D') THEN status WHEN points_done + 1 >= points_total THEN 'Y' ELSE 'P' END`,
        }))
        .where('rid', '=', ctx.rid)
        .where('id', '=', taskId)
        .execute();
      if (!missedNames.names) await patrolTaskBacklog.settle(ctx.db, ctx.rid, taskId, ctx.session.accountId);
    } else if (input.action === 'result') {
      if (!input.result) fail('请选择正常或异常');
      if (p.status !== 'Y' && p.status !== 'B') fail('该点还没有签到，不能修改正常/异常');
      if (p.result === input.result) fail(`该点已是${enumText(CHECK_RESULT, input.result)}`);
      old = enumText(CHECK_RESULT, p.result);
      now = enumText(CHECK_RESULT, input.result);
      await ctx.db
        .updateTable('patrol_task_points')
        .set({ result: input.result })
        .where('rid', '=', ctx.rid)
        .where('id', '=', p.id)
        .execute();
      await ctx.db
        .updateTable('patrol_tasks')
        .set((eb) => ({ abnormal_count: eb('abnormal_count', '+', input.result === 'A' ? 1 : -1) }))
        .where('rid', '=', ctx.rid)
        .where('id', '=', taskId)
        .execute();
    } else {
      old = p.remark;
      now = input.reason;
      await ctx.db
        .updateTable('patrol_task_points')
        .set({ remark: input.reason })
        .where('rid', '=', ctx.rid)
        .where('id', '=', p.id)
        .execute();
    }
    await ctx.db
      .insertInto('patrol_edits')
      .values({
        rid: ctx.rid,
        task_id: taskId,
        task_point_id: Number(p.id),
        action: input.action,
        old_value: old,
        new_value: now,
        reason: input.reason,
        operator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .execute();
    return reply({ id: Number(p.id) }, '保存成功');
  },
});

type ReportInput = z.output<(typeof methodSchemas)['patrolplanreport']>;

async function report(db: Kysely<DB>, rid: number, f: ReportInput): Promise<PatrolReport> {
  const [from, to] = f.day;
  const where = sql`t.rid = ${rid} AND t.day BETWEEN ${from}::date AND ${to}::date
    AND (${f.plan_id ?? null}::bigint IS NULL OR t.plan_id = ${f.plan_id ?? null}::bigint)
    AND (${f.guard_id ?? null}::bigint IS NULL OR t.current_guard_id = ${f.guard_id ?? null}::bigint)`;
  const rate = (done: number, due: number) => (due === 0 ? '0.0' : ((done * 100) / due).toFixed(1));
  const plansQuery = sql<{
    day: string;
    plan_id: string;
    plan_name: string;
    due: number;
    done: number;
    partial: number;
    missed: number;
    open: number;
  }>`
    SELECT to_char(t.day, 'YYYY-MM-DD') AS day, t.plan_id, max(t.plan_name) AS plan_name, count(*)::int AS due,
      count(*) FILTER (WHERE t.status = 'Y')::int AS done, count(*) FILTER (WHERE t.status = 'P')::int AS partial,
      count(*) FILTER (WHERE t.status = 'X')::int AS missed, count(*) FILTER (WHERE t.status IN ('W', 'D'))::int AS open
    FROM patrol_tasks t WHERE ${where} GROUP BY t.day, t.plan_id ORDER BY t.day DESC, t.plan_id LIMIT 1000`.execute(db);
  const guardsQuery = sql<{
    guard_id: string;
    guard_name: string;
    tasks: number;
    points_due: number;
    points_done: number;
    points_missed: number;
    late: number;
    abnormal: number;
    makeup: number;
  }>`
    SELECT t.current_guard_id AS guard_id, a.name AS guard_name, count(*)::int AS tasks, sum(t.points_total)::int AS points_due,
      sum(t.points_done)::int AS points_done,
      sum(CASE WHEN t.status IN ('Y', 'P', 'X') THEN t.points_total - t.points_done ELSE 0 END)::int AS points_missed,
      sum(t.late_count)::int AS late, sum(t.abnormal_count)::int AS abnormal, sum(t.makeup_count)::int AS makeup
    FROM patrol_tasks t JOIN accounts a ON a.id = t.current_guard_id
    WHERE ${where} GROUP BY t.current_guard_id, a.name ORDER BY points_missed DESC, t.current_guard_id LIMIT 500`.execute(db);
  const pointsQuery = sql<{ point_id: string; point_name: string; missed: number }>`
    SELECT tp.point_id, max(tp.point_name) AS point_name, count(*)::int AS missed
    FROM patrol_tasks t JOIN patrol_task_points tp ON tp.rid = t.rid AND tp.task_id = t.id
    WHERE ${where} AND t.status IN ('P', 'X') AND tp.status = 'M' GROUP BY tp.point_id ORDER BY missed DESC, tp.point_id LIMIT 10`.execute(
    db,
  );
  // the matched check-ins by hour, kept per task as they arrive (checkin.ts keepCheckinHour)
  const hoursQuery = sql<{ h: number; n: number }>`
    SELECT h.hour AS h, sum(h.checkins)::int AS n
    FROM patrol_tasks t JOIN patrol_task_hours h ON h.rid = t.rid AND h.task_id = t.id
    WHERE ${where} GROUP BY 1`.execute(db);
  // four reads at once: the pool's connections answer them side by side
  const [plans, guards, points, hours] = await Promise.all([plansQuery, guardsQuery, pointsQuery, hoursQuery]);
  const byHour = Array.from({ length: 24 }, () => 0);
  for (const h of hours.rows) byHour[h.h] = h.n;
  const sum = (k: 'due' | 'done' | 'partial' | 'missed') => plans.rows.reduce((s, r) => s + r[k], 0);
  const pd = guards.rows.reduce((s, r) => s + r.points_due, 0);
  const pdone = guards.rows.reduce((s, r) => s + r.points_done, 0);
  return {
    from,
    to,
    totals: {
      due: sum('due'),
      done: sum('done'),
      partial: sum('partial'),
      missed: sum('missed'),
      points_due: pd,
      points_done: pdone,
      abnormal: guards.rows.reduce((s, r) => s + r.abnormal, 0),
      rate: rate(pdone, pd),
    },
    plans: plans.rows.map((r) => ({ ...r, plan_id: Number(r.plan_id), rate: rate(r.done, r.due - r.open) })),
    guards: guards.rows.map((r) => ({ ...r, guard_id: Number(r.guard_id) })),
    points: points.rows.map((r) => ({ ...r, point_id: Number(r.point_id) })),
    hours: byHour,
  };
}

const patrolplanreport = defineMethod('patrolplanreport', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary:
    '巡更报表：按计划和日期（应巡、完成、部分完成、未巡、完成率）、按人员（应巡点、已巡、漏巡、迟到、异常、补检）、漏巡最多的 10 个点、按小时的签到数',
  handler: (ctx, input) => report(ctx.db, ctx.rid, input),
});

const patrolplanreportexport = defineExport('patrolplanreportexport', {
  roles: PATROL_ROLES.staff,
  summary: '导出巡更报表（按计划和日期）',
  filename: (input) => `巡更报表_${input.day[0]}_${input.day[1]}.xlsx`,
  async sheet(scope, input) {
    const r = await report(scope.db, scope.rid, input);
    return sheetOf<PatrolReport['plans'][number]>(
      '巡更报表',
      [
        { header: '日期', value: (x) => x.day, width: 12 },
        { header: '计划', value: (x) => x.plan_name, width: 18 },
        { header: '应巡', value: (x) => x.due },
        { header: '完成', value: (x) => x.done },
        { header: '部分完成', value: (x) => x.partial },
        { header: '未巡', value: (x) => x.missed },
        { header: '进行中', value: (x) => x.open },
        { header: '完成率(%)', value: (x) => x.rate },
      ],
      r.plans,
    );
  },
});

/** The home card's figures: today's tasks, points due and done, the rate, the tasks not complete. */
export async function patrolDashboard(db: Kysely<DB>, rid: number): Promise<PatrolDashboard> {
  const day = businessDay(new Date());
  const r = await sql<{ tasks: number; points_due: number; points_done: number; missed_tasks: number }>`
    SELECT count(*)::int AS tasks, coalesce(sum(points_total), 0)::int AS points_due, coalesce(sum(points_done), 0)::int AS points_done,
      count(*) FILTER (WHERE status IN ('P', 'X'))::int AS missed_tasks
    FROM patrol_tasks WHERE rid = ${rid} AND day = ${day}::date`.execute(db);
  const x = r.rows[0]!;
  return { ...x, rate: x.points_due === 0 ? '0.0' : ((x.points_done * 100) / x.points_due).toFixed(1) };
}

const patroldashboard = defineMethod('patroldashboard', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary: '首页巡更卡片：今天的巡更任务数、应巡点与已巡点、完成率、未完成（漏巡/未巡）的任务数',
  handler: (ctx) => patrolDashboard(ctx.db, ctx.rid),
});

const patroljobrun = defineMethod('patroljobrun', {
  side: 'community',
  roles: PATROL_ROLES.admin,
  writes: true,
  summary: '按给定时刻运行巡更任务作业（管理员）：生成该时刻应生成的任务、关闭该时刻已结束（含补检时限）的任务；用于演练与验收',
  async handler(ctx, input) {
    const at = new Date(Date.parse(`${input.at.replace(' ', 'T')}Z`) - OFFSET_MS);
    if (Number.isNaN(at.getTime())) fail('时间不正确');
    const made = await makeTasks(ctx.db, at, ctx.rid);
    const closed = await closeTasks(ctx.db, at, ctx.rid);
    return reply({ made, closed }, `已生成 ${made} 个任务，关闭 ${closed} 个任务`);
  },
});

export const recordMethods = [
  patroltasklist,
  patroltaskexport,
  patroltaskinfo,
  patrolmytasks,
  patroltasktransfer,
  patrolrecordlog,
  patroleditlog,
  patrolrecordedit,
  patrolplanreport,
  patrolplanreportexport,
  patroldashboard,
  patroljobrun,
];
