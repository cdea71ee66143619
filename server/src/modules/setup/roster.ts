/**
 * Duty rosters (/setup/schedulelist, /setup/scheduleedit; docs/product.md#duty-rosters): the
 * community's shifts and rosters as resources, the month grid of staff by day, and its export.
 * Who is on duty at a time: ./duty.ts.
 */
import {
  dayNumber,
  dayOf,
  ROSTER_READERS,
  ROSTER_WRITERS,
  rosterSchemas,
  rosterSlots,
  schedule,
  shift,
  shiftOn,
  weekdayOf,
  WEEKDAY_CH,
  type ScheduleDetail,
  type ScheduleGridAnswer,
  type ScheduleGridCell,
  type ScheduleGridRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { registerDependents } from '../../lib/dependents.js';
import { defineResource } from '../../lib/resource.js';
import { wireRows } from '../../lib/resource.js';
import { loadStaffPlans } from './duty.js';

registerDependents({ schedule_days: '排班' });

/** 班次: a name unique in the community and its time ranges; kept while a roster names it. */
export const dutyShiftMethods = defineResource(shift, {
  table: 'duty_shifts',
  query: (db, rid) =>
    db
      .selectFrom('duty_shifts as t')
      .select(['t.id', 't.name', 't.times', 't.status', 't.remark', 't.created_at'])
      .select(
        sql<number>`(SELECT count(DISTINCT d.schedule_id)::int FROM schedule_days d WHERE d.rid = t.rid AND d.shift_id = t.id)`.as(
          'roster_count',
        ),
      )
      .where('t.rid', '=', rid),
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  unique: [{ on: ['name'], message: (v) => `班次“${String(v.name)}”已存在` }],
  dependents: { schedule_days: '该班次已用在排班中，请先在排班里换掉它' },
  replace: {
    // with each shift's times, by name, for the rosters' readers only (a merchant has no business with shifts)
    small: defineMethod('dutyshift_small_list', {
      side: 'community',
      roles: ROSTER_READERS,
      writes: false,
      summary: '班次下拉：启用的班次（id、title 为名称、times 上班时间），按名称',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('duty_shifts')
          .select(['id', 'name', 'times'])
          .where('rid', '=', ctx.rid)
          .where('status', '=', 'Y')
          .orderBy('name')
          .orderBy('id')
          .execute();
        return { items: rows.map((r) => ({ id: Number(r.id), title: r.name, times: r.times })) };
      },
    }),
  },
  summaries: {
    list: '班次列表（名称、上班时间段、使用它的排班数）',
    add: '新增班次（名称在小区内唯一；时间段如 08:00-12:00,14:00-18:00，结束早于开始表示到次日）',
    edit: '修改班次',
    del: '删除班次（排班还在使用时拒绝）',
  },
});

type ScheduleInput = z.output<(typeof rosterSchemas)['scheduleadd']>;

const scheduleQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('schedules as t')
    .select(['t.id', 't.name', 't.kind', 't.cycle', sql<string>`to_char(t.start_date, 'YYYY-MM-DD')`.as('start_date')])
    .select(['t.status', 't.remark', 't.created_at'])
    .select(sql<number>`(SELECT count(*)::int FROM schedule_staff x WHERE x.rid = t.rid AND x.schedule_id = t.id)`.as('staff_count'))
    .select(
      sql<string>`coalesce((SELECT string_agg(a.name, '、' ORDER BY a.id) FROM schedule_staff x JOIN accounts a ON a.id = x.account_id
        WHERE x.rid = t.rid AND x.schedule_id = t.id), '')`.as('staff_names'),
    )
    .where('t.rid', '=', rid);

/** The community's enabled property staff among the given accounts. */
async function communityStaff(db: Kysely<DB>, rid: number, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select('a.id')
    .where('ar.rid', '=', rid)
    .where('a.id', 'in', [...ids])
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The rules of a roster's save: its days match its kind and cycle, its shifts are the community's
 * enabled ones, its staff the community's enabled staff, its name unique, and no staff member is on
 * two enabled rosters taking effect the same day (which would apply would be a guess).
 */
async function checkSchedule(ctx: CommunityCtx, v: ScheduleInput, exceptId?: number): Promise<void> {
  const cycle = v.kind === 'M' ? 1 : v.cycle;
  if (v.days.length !== rosterSlots(v.kind, cycle)) fail('每日班次的天数与排班类型和周期不一致');
  if (!v.days.some((d) => d !== null)) fail('排班中至少要有一天上班');
  const shiftIds = [...new Set(v.days.filter((d): d is number => d !== null))];
  const shifts = await ctx.db
    .selectFrom('duty_shifts')
    .select(['id', 'status', 'name'])
    .where('rid', '=', ctx.rid)
    .where('id', 'in', shiftIds)
    .execute();
  if (shifts.length !== shiftIds.length) fail('所选班次不存在或不属于当前小区');
  const off = shifts.find((s) => s.status !== 'Y');
  if (off) fail(`班次“${off.name}”已停用，不能用于排班`);
  const staffIds = [...new Set(v.staff_ids)];
  const staff = await communityStaff(ctx.db, ctx.rid, staffIds);
  if (staff.size !== staffIds.length) fail('所选人员不存在、已停用或不在当前小区');
  let dup = ctx.db.selectFrom('schedules').select('id').where('rid', '=', ctx.rid).where('name', '=', v.name);
  if (exceptId !== undefined) dup = dup.where('id', '<>', exceptId);
  if (await dup.executeTakeFirst()) fail(`排班“${v.name}”已存在`);
  if (v.status === 'Y') {
    const clash = await sql<{ name: string; schedule: string }>`
      SELECT a.name, s.name AS schedule FROM schedule_staff x
      JOIN schedules s ON s.rid = x.rid AND s.id = x.schedule_id
      JOIN accounts a ON a.id = x.account_id
      WHERE x.rid = ${ctx.rid} AND x.account_id = ANY(${staffIds}::int[]) AND s.status = 'Y'
        AND s.start_date = ${v.start_date}::date AND s.id <> ${exceptId ?? 0}
      LIMIT 1`.execute(ctx.db);
    const c = clash.rows[0];
    if (c) fail(`${c.name}已在排班“${c.schedule}”中，且生效日期相同；请改生效日期或先停用那个排班`);
  }
}

/** Writes a roster's days and staff (replacing the old ones on edit). */
async function writeDaysAndStaff(ctx: CommunityCtx, scheduleId: number, v: ScheduleInput): Promise<void> {
  await ctx.db.deleteFrom('schedule_days').where('rid', '=', ctx.rid).where('schedule_id', '=', scheduleId).execute();
  await ctx.db.deleteFrom('schedule_staff').where('rid', '=', ctx.rid).where('schedule_id', '=', scheduleId).execute();
  await ctx.db
    .insertInto('schedule_days')
    .values(v.days.map((shiftId, dayNo) => ({ rid: ctx.rid, schedule_id: scheduleId, day_no: dayNo, shift_id: shiftId })))
    .execute();
  await ctx.db
    .insertInto('schedule_staff')
    .values([...new Set(v.staff_ids)].map((accountId) => ({ rid: ctx.rid, schedule_id: scheduleId, account_id: accountId })))
    .execute();
}

const scheduleColumns = (v: ScheduleInput) => ({
  name: v.name,
  kind: v.kind,
  cycle: v.kind === 'M' ? 1 : v.cycle,
  start_date: v.start_date,
  status: v.status,
  remark: v.remark,
});

const toScheduleWire = wireRows(schedule.def);

const scheduleadd = defineMethod('scheduleadd', {
  side: 'community',
  roles: ROSTER_WRITERS,
  writes: true,
  summary: '新增排班（按日 N 天一循环、按周 N 周一循环、按月每日；days 为每天的班次 id，null 为休息；staff_ids 为本小区员工）',
  async handler(ctx, input) {
    await checkSchedule(ctx, input);
    const { id } = await ctx.db
      .insertInto('schedules')
      .values({ ...scheduleColumns(input), rid: ctx.rid, created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeDaysAndStaff(ctx, Number(id), input);
    return reply({ id: Number(id) }, '添加成功');
  },
});

const scheduleedit = defineMethod('scheduleedit', {
  side: 'community',
  roles: ROSTER_WRITERS,
  writes: true,
  summary: '修改排班（每日班次与人员整体替换）',
  async handler(ctx, input) {
    const { id, ...values } = input;
    const row = await ctx.db
      .selectFrom('schedules')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) fail('排班不存在');
    await checkSchedule(ctx, values, id);
    await ctx.db.updateTable('schedules').set(scheduleColumns(values)).where('rid', '=', ctx.rid).where('id', '=', id).execute();
    await writeDaysAndStaff(ctx, id, values);
    return reply({ id }, '保存成功');
  },
});

const scheduleinfo = defineMethod('scheduleinfo', {
  side: 'community',
  roles: ROSTER_READERS,
  writes: false,
  summary: '排班详情（含 days 每天的班次 id 或 null 休息、staff_ids 人员）',
  async handler(ctx, input) {
    const row = await scheduleQuery(ctx.db, ctx.rid).where('t.id', '=', input.id).executeTakeFirst();
    if (!row) fail('排班不存在');
    const [days, staff] = await Promise.all([
      ctx.db
        .selectFrom('schedule_days')
        .select('shift_id')
        .where('rid', '=', ctx.rid)
        .where('schedule_id', '=', input.id)
        .orderBy('day_no')
        .execute(),
      ctx.db
        .selectFrom('schedule_staff')
        .select('account_id')
        .where('rid', '=', ctx.rid)
        .where('schedule_id', '=', input.id)
        .orderBy('account_id')
        .execute(),
    ]);
    const wire = toScheduleWire(row) as unknown as Omit<ScheduleDetail, 'days' | 'staff_ids'>;
    return {
      ...wire,
      id: Number(row.id),
      days: days.map((d) => (d.shift_id === null ? null : Number(d.shift_id))),
      staff_ids: staff.map((s) => s.account_id),
    };
  },
});

/** 排班: list, delete and export come from the description; add, edit and info carry the days and staff. */
export const scheduleMethods = defineResource(schedule, {
  table: 'schedules',
  query: (db, rid) => scheduleQuery(db as Kysely<DB>, rid),
  row: (r: Record<string, unknown>) => ({ ...r, id: Number(r.id) }),
  replace: { add: scheduleadd, edit: scheduleedit, info: scheduleinfo },
  summaries: {
    list: '排班列表（名称、类型、周期、生效日期、人数与人员、状态）',
    del: '删除排班（其每日班次与人员一并删除）',
  },
});

type GridFilters = z.output<(typeof rosterSchemas)['schedulegrid']>;

/** The month grid: every staff member on a roster of the community (filtered), by day of the month. */
export async function scheduleGrid(db: Kysely<DB>, rid: number, f: GridFilters): Promise<ScheduleGridAnswer> {
  const first = `${f.month}-01`;
  const start = dayNumber(first);
  const [y, m] = f.month.split('-').map(Number) as [number, number];
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const days = Array.from({ length }, (_, i) => {
    const date = dayOf(start + i);
    const weekday = weekdayOf(date);
    return { date, day: i + 1, weekday, weekday_ch: WEEKDAY_CH[weekday]! };
  });
  let staffQ = db
    .selectFrom('schedule_staff as x')
    .innerJoin('schedules as s', (j) => j.onRef('s.rid', '=', 'x.rid').onRef('s.id', '=', 'x.schedule_id'))
    .innerJoin('accounts as a', 'a.id', 'x.account_id')
    .innerJoin('account_regions as ar', (j) => j.onRef('ar.account_id', '=', 'a.id').onRef('ar.rid', '=', 'x.rid'))
    .select(['a.id', 'a.name'])
    .select(sql<string>`coalesce((SELECT d.title FROM departments d WHERE d.id = a.dept_id), '')`.as('dept_title'))
    .where('x.rid', '=', rid)
    .where('s.status', '=', 'Y')
    .where('a.status', '=', 'Y')
    .distinct();
  if (f.schedule_id) staffQ = staffQ.where('x.schedule_id', '=', f.schedule_id);
  if (f.account_id) staffQ = staffQ.where('a.id', '=', f.account_id);
  if (f.dept_id) staffQ = staffQ.where('a.dept_id', '=', f.dept_id);
  const staff = await staffQ.orderBy('a.id').execute();
  const { plans, shifts } = await loadStaffPlans(
    db,
    rid,
    staff.map((s) => s.id),
  );
  const names = new Map(
    (await db.selectFrom('schedules').select(['id', 'name']).where('rid', '=', rid).execute()).map((s) => [Number(s.id), s.name]),
  );
  const used = new Set<number>();
  const items: ScheduleGridRow[] = staff.map((s) => {
    const list = plans.get(s.id) ?? [];
    const applied = new Set<number>();
    let work = 0;
    let rest = 0;
    const cells = days.map(({ date }): ScheduleGridCell => {
      const shiftId = shiftOn(list, date);
      if (shiftId === undefined) return { state: 'none', shift_id: null, text: '', times: '' };
      const plan = list.filter((p) => p.start_date <= date).sort((a, b) => (a.start_date < b.start_date ? 1 : -1))[0];
      if (plan) applied.add(plan.id);
      if (shiftId === null) {
        rest++;
        return { state: 'rest', shift_id: null, text: '休', times: '' };
      }
      work++;
      used.add(shiftId);
      const sh = shifts.get(shiftId);
      return { state: 'work', shift_id: shiftId, text: sh?.name ?? '', times: sh?.times ?? '' };
    });
    return {
      account_id: s.id,
      name: s.name,
      dept_title: s.dept_title,
      schedules: [...applied].map((id) => names.get(id) ?? '').join('、'),
      cells,
      work_days: work,
      rest_days: rest,
    };
  });
  return {
    month: f.month,
    days,
    shifts: [...used].sort((a, b) => a - b).map((id) => ({ id, name: shifts.get(id)!.name, times: shifts.get(id)!.times })),
    items,
    total: items.length,
  };
}

const schedulegrid = defineMethod('schedulegrid', {
  side: 'community',
  roles: ROSTER_READERS,
  writes: false,
  summary: '排班表：某月（YYYY-MM）每位排班人员每天的班次或休息；可按排班、人员、部门筛选',
  async handler(ctx, input) {
    return scheduleGrid(ctx.db, ctx.rid, input);
  },
});

const scheduleexport = defineExport('scheduleexport', {
  roles: ROSTER_READERS,
  summary: '导出某月排班表（Excel，可打印张贴：人员 × 日期，班次名或“休”）',
  filename: (input) => `排班表_${input.month}.xlsx`,
  async sheet(scope, input) {
    const grid = await scheduleGrid(scope.db, scope.rid, input);
    return sheetOf(
      `排班表 ${grid.month}`,
      [
        { header: '姓名', value: (r: ScheduleGridRow) => r.name, width: 12 },
        { header: '部门', value: (r: ScheduleGridRow) => r.dept_title, width: 12 },
        ...grid.days.map((d, i) => ({ header: `${d.day}(${d.weekday_ch})`, value: (r: ScheduleGridRow) => r.cells[i]!.text, width: 7 })),
        { header: '上班天数', value: (r: ScheduleGridRow) => r.work_days, width: 9 },
        { header: '休息天数', value: (r: ScheduleGridRow) => r.rest_days, width: 9 },
      ],
      grid.items,
    );
  },
});

const scheduleStaffSmallList = defineMethod('schedule_staff_small_list', {
  side: 'community',
  roles: ROSTER_READERS,
  writes: false,
  summary: '可排班的人员：本小区启用的物业员工（id、姓名、账号、部门）',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('accounts as a')
      .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
      .select(['a.id', 'a.name', 'a.username'])
      .select(sql<string>`coalesce((SELECT d.title FROM departments d WHERE d.id = a.dept_id), '')`.as('dept_title'))
      .where('ar.rid', '=', ctx.rid)
      .where('a.sys_type', '=', 'property')
      .where('a.status', '=', 'Y')
      .orderBy('a.id')
      .execute();
    return { items };
  },
});

export const rosterMethodList = [...dutyShiftMethods, ...scheduleMethods, schedulegrid, scheduleexport, scheduleStaffSmallList];
