/**
 * The patrol jobs (docs/product.md#patrols): at a moment `now`, make one task per enabled plan,
 * guard and shift window whose window starts within the plan's minutes ahead (never twice: the
 * unique (plan, planned guard, window start) key, also after a transfer), skipping a guard the
 * duty roster marks resting that day; and close every task whose window plus make-up time has
 * ended: all points done, partly done (missed points listed by name), or not started. Both take
 * `now`, so tests and patroljobrun simulate the clock; the periodic job runs them every 5 minutes.
 */
import { addDays, dayNumber, shiftOn, weekdayOf, windowLength, zoneOffsetMinutes, type ShiftWindow } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { businessTimeZone } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { loadStaffPlans } from '../setup/duty.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { PATROL_ROLES } from '@wuye/contract/patrols/roles';
import { taskNo } from '@wuye/contract';

const ZONE = businessTimeZone();
const OFFSET_MS = zoneOffsetMinutes(ZONE) * 60_000;

/** A missed or unfinished task waits on the supervisors' to-do list until someone looks at it. */
export const patrolTaskBacklog = registerBacklogSource({
  kind: 'patroltask',
  roles: PATROL_ROLES.staff,
  link: (id) => `/security/patrolrecordlist?id=${id}`,
});

/** The instant of minute `minute` of business day `day`. */
export const localInstant = (day: string, minute: number): Date => new Date(Date.parse(`${day}T00:00:00Z`) - OFFSET_MS + minute * 60_000);
/** The business day of an instant. */
export const businessDay = (at: Date): string => new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);

/** Runs `fn` in a transaction of its own, or in the caller's (patroljobrun runs in the call's). */
const inTransaction = <T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);

interface PlanRow {
  rid: number;
  id: number;
  name: string;
  cycle: string;
  cycle_days: number[];
  start_date: string;
  end_date: string;
  shifts: unknown;
  ahead_minutes: number;
  makeup_hours: number;
  in_order: string;
}

/** Whether the plan's cycle has a round on `day`. */
export function planRunsOn(p: Pick<PlanRow, 'cycle' | 'cycle_days' | 'start_date' | 'end_date'>, day: string): boolean {
  if (day < p.start_date || day > p.end_date) return false;
  if (p.cycle === 'W') return p.cycle_days.includes(weekdayOf(day) + 1);
  if (p.cycle === 'M') return p.cycle_days.includes(Number(day.slice(8, 10)));
  if (p.cycle === 'A') return (dayNumber(day) - dayNumber(p.start_date)) % 2 === 0;
  return true;
}

/** Makes the tasks due at `now` (of one community, or all); answers how many were made. */
export async function makeTasks(db: Kysely<DB>, now: Date, rid?: number): Promise<number> {
  const today = businessDay(now);
  let qb = db
    .selectFrom('patrol_plans')
    .select(['rid', 'id', 'name', 'cycle', 'cycle_days', 'shifts', 'ahead_minutes', 'makeup_hours', 'in_order'])
    .select((eb) => [
      eb.fn<string>('to_char', [eb.ref('start_date'), eb.val('YYYY-MM-DD')]).as('start_date'),
      eb.fn<string>('to_char', [eb.ref('end_date'), eb.val('YYYY-MM-DD')]).as('end_date'),
    ])
    .where('status', '=', 'Y')
    .where('start_date', '<=', addDays(today, 1))
    .where('end_date', '>=', addDays(today, -1));
  if (rid !== undefined) qb = qb.where('rid', '=', rid);
  const plans = (await qb.orderBy('rid').orderBy('id').execute()) as unknown as PlanRow[];
  let made = 0;
  for (const p of plans) {
    const windows: Array<{ day: string; start: Date; end: Date }> = [];
    for (const day of [addDays(today, -1), today, addDays(today, 1)]) {
      if (!planRunsOn(p, day)) continue;
      for (const s of p.shifts as ShiftWindow[]) {
        const startMin = Number(s.start.slice(0, 2)) * 60 + Number(s.start.slice(3, 5));
        const start = localInstant(day, startMin);
        const end = new Date(start.getTime() + windowLength(s) * 60_000);
        if (now.getTime() >= start.getTime() - p.ahead_minutes * 60_000 && now.getTime() < end.getTime()) windows.push({ day, start, end });
      }
    }
    if (windows.length === 0) continue;
    made += await inTransaction(db, async (trx) => {
      let n = 0;
      const route = await trx
        .selectFrom('patrol_plan_points as pp')
        .innerJoin('patrol_points as pt', (j) => j.onRef('pt.rid', '=', 'pp.rid').onRef('pt.id', '=', 'pp.point_id'))
        .select(['pp.point_id', 'pp.sort', 'pp.offset_from', 'pp.offset_to', 'pt.name'])
        .where('pp.rid', '=', p.rid)
        .where('pp.plan_id', '=', p.id)
        .orderBy('pp.sort')
        .execute();
      if (route.length === 0) return 0;
      const guards = (
        await trx.selectFrom('patrol_plan_guards').select('account_id').where('rid', '=', p.rid).where('plan_id', '=', p.id).execute()
      ).map((g) => Number(g.account_id));
      const rosters = await loadStaffPlans(trx, p.rid, guards);
      for (const w of windows) {
        const length = (w.end.getTime() - w.start.getTime()) / 60_000;
        for (const guard of guards) {
          // the roster marks the day as rest: no task (no roster at all: the plan decides)
          if (shiftOn(rosters.plans.get(guard) ?? [], w.day) === null) continue;
          const task = await trx
            .insertInto('patrol_tasks')
            .values({
              rid: p.rid,
              plan_id: p.id,
              plan_name: p.name,
              guard_id: guard,
              current_guard_id: guard,
              day: w.day,
              window_start: w.start,
              window_end: w.end,
              close_at: new Date(w.end.getTime() + p.makeup_hours * 3_600_000),
              in_order: p.in_order,
              points_total: route.length,
            })
            .onConflict((oc) => oc.columns(['rid', 'plan_id', 'guard_id', 'window_start']).doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!task) continue;
          n++;
          await trx
            .insertInto('patrol_task_points')
            .values(
              route.map((r) => ({
                rid: p.rid,
                task_id: task.id,
                point_id: r.point_id,
                point_name: r.name,
                sort: r.sort,
                due_from: new Date(w.start.getTime() + Math.min(r.offset_from, length) * 60_000),
                due_to: new Date(w.start.getTime() + (r.offset_to > 0 ? Math.min(r.offset_to, length) : length) * 60_000),
              })),
            )
            .execute();
        }
      }
      return n;
    });
  }
  return made;
}

/**
 * Closes one task (the caller's transaction holds it): its points not done become 漏巡, the task
 * 已完成, 部分完成 or 未巡 with the missed points named; a task not complete goes on the to-do list.
 */
export async function closeTask(db: Kysely<DB>, rid: number, id: number, now: Date): Promise<void> {
  const missed = await db
    .updateTable('patrol_task_points')
    .set({ status: 'M' })
    .where('rid', '=', rid)
    .where('task_id', '=', id)
    .where('status', '=', 'W')
    .returning(['point_name', 'sort'])
    .execute();
  const names = missed.sort((a, b) => a.sort - b.sort).map((m) => m.point_name);
  const task = await db
    .updateTable('patrol_tasks')
    .set((eb) => ({
      status: sql<
        'Y' | 'X' | 'P'
      >`CASE WHEN ${eb.ref('points_done')} >= ${eb.ref('points_total')} THEN 'Y' WHEN ${eb.ref('points_done')} = 0 THEN 'X' ELSE 'P' END`,
      missed_names: names.join('、'),
      closed_at: now,
    }))
    .where('rid', '=', rid)
    .where('id', '=', id)
    .returning(['status', 'plan_name', 'window_end', 'points_done', 'points_total'])
    .executeTakeFirstOrThrow();
  if (task.status !== 'Y') {
    await patrolTaskBacklog.raise(db, rid, {
      sourceId: id,
      title: `巡更${task.status === 'X' ? '未巡' : '漏巡'}：${taskNo(id)} ${task.plan_name}（${task.points_done}/${task.points_total}，漏巡 ${names.join('、')}）`,
      submitter: null,
      deadline: null,
      account: null,
    });
  }
}

/** Closes the tasks whose window plus make-up time ended by `now`; answers how many. */
export async function closeTasks(db: Kysely<DB>, now: Date, rid?: number): Promise<number> {
  let qb = db.selectFrom('patrol_tasks').select(['rid', 'id']).where('status', 'in', ['W', 'D']).where('close_at', '<=', now);
  if (rid !== undefined) qb = qb.where('rid', '=', rid);
  const due = await qb.orderBy('rid').orderBy('id').limit(5000).execute();
  let closed = 0;
  for (const t of due) {
    closed += await inTransaction(db, async (trx) => {
      const row = await trx
        .selectFrom('patrol_tasks')
        .select('status')
        .where('rid', '=', t.rid)
        .where('id', '=', t.id)
        .forUpdate()
        .executeTakeFirst();
      if (!row || (row.status !== 'W' && row.status !== 'D')) return 0;
      await closeTask(trx, t.rid, Number(t.id), now);
      return 1;
    });
  }
  return closed;
}

export const PATROL_TASK_JOB = 'patrol_tasks';

registerJobKind(PATROL_TASK_JOB, async (ctx) => {
  const now = new Date();
  const made = await makeTasks(ctx.db, now);
  const closed = await closeTasks(ctx.db, now);
  return { made, closed };
});
registerPeriodicJob(PATROL_TASK_JOB, 5);
