/**
 * Security patrols (docs/product.md#patrols) of the scale data (bench/README.md#scale-data), per
 * community, set-based (INSERT ... SELECT over generate_series):
 *
 * - POINTS_PER_COMMUNITY points (numbered XG…, a QR code each, one in four with an NFC tag, the
 *   four kinds in turn, a 正常/异常 checklist item);
 * - PLANS_PER_COMMUNITY daily plans of ROUTE_POINTS points each (their routes overlap), two shifts
 *   (08:00–10:00 and 20:00–22:00), one of the community's staff as the guard of each, valid a year
 *   back and a year on;
 * - a year of tasks up to today with their points and check-ins: today's waiting, the older
 *   complete but for one in ten partly done (two points missed) and one in fifty never started;
 *   one check-in in forty abnormal, one in thirty late; and one scan in a hundred of a code that
 *   matches no point, kept in the raw log.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';
import { countCheckinHours } from '../../server/src/modules/patrols/checkin.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const PATROL_STEPS = 2;
export const POINTS_PER_COMMUNITY = 200;
export const PLANS_PER_COMMUNITY = 10;
export const ROUTE_POINTS = 20;
const TODAY = sql`(now() AT TIME ZONE 'Asia/Shanghai')::date`;

export async function fillPatrols(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`patrols: ${POINTS_PER_COMMUNITY} points and ${PLANS_PER_COMMUNITY} daily plans a community`, async () => {
    for (const rid of rids) await pointsAndPlans(c, rid);
    await sql`ANALYZE patrol_points, patrol_plans, patrol_plan_points, patrol_plan_guards`.execute(c);
  });
  await step('patrols: a year of tasks, their points and check-ins', async () => {
    for (const rid of rids) await tasks(c, rid);
    await sql`ANALYZE patrol_tasks, patrol_task_points, patrol_checkins`.execute(c);
  });
}

async function pointsAndPlans(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO patrol_points (rid, number, name, kind, place, qr_code, nfc_uid, checklist, photo_required)
    SELECT ${rid}, 'XG' || lpad(g::text, 3, '0'), '巡更点' || g, (ARRAY['S', 'E', 'V', 'F'])[1 + g % 4],
      (1 + g % 60) || '号楼 ' || (ARRAY['大堂', '楼顶', '消防通道', '地下室'])[1 + g % 4],
      'PTS' || ${rid} || '-' || lpad(g::text, 6, '0'), CASE WHEN g % 4 = 0 THEN 'NFC' || ${rid} || lpad(g::text, 6, '0') ELSE '' END,
      '[{"title":"现场情况","type":"normal","options":[]}]'::jsonb, CASE WHEN g % 10 = 0 THEN 'Y' ELSE 'N' END
    FROM generate_series(1, ${POINTS_PER_COMMUNITY}) g`.execute(c);
  await sql`
    INSERT INTO patrol_plans (rid, name, in_order, cycle, cycle_days, start_date, end_date, shifts, ahead_minutes, makeup_hours)
    SELECT ${rid}, '巡更计划' || p, CASE WHEN p % 2 = 0 THEN 'Y' ELSE 'N' END, 'D', '{}', ${TODAY} - 365, ${TODAY} + 365,
      '[{"start":"08:00","end":"10:00"},{"start":"20:00","end":"22:00"}]'::jsonb, 30, 2
    FROM generate_series(1, ${PLANS_PER_COMMUNITY}) p`.execute(c);
  // plan p walks ROUTE_POINTS points from the (p - 1) * 15th on: neighbouring routes share five
  await sql`
    WITH pts AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM patrol_points WHERE rid = ${rid})
    INSERT INTO patrol_plan_points (rid, plan_id, point_id, sort, offset_from, offset_to)
    SELECT ${rid}, pl.id, pts.id, k, (k - 1) * 5, (k - 1) * 5 + 30
    FROM patrol_plans pl
    CROSS JOIN generate_series(1, ${ROUTE_POINTS}) k
    JOIN pts ON pts.n = ((pl.id - (SELECT min(id) FROM patrol_plans WHERE rid = ${rid})) * 15 + k - 1) % ${POINTS_PER_COMMUNITY}
    WHERE pl.rid = ${rid}`.execute(c);
  await sql`
    WITH staff AS (SELECT a.id, row_number() OVER (ORDER BY a.id) - 1 AS n FROM accounts a JOIN account_regions ar ON ar.account_id = a.id WHERE ar.rid = ${rid}),
    plans AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM patrol_plans WHERE rid = ${rid})
    INSERT INTO patrol_plan_guards (rid, plan_id, account_id)
    SELECT ${rid}, plans.id, staff.id FROM plans JOIN staff ON staff.n = plans.n % greatest(1, (SELECT count(*) FROM staff))`.execute(c);
}

async function tasks(c: Kysely<DB>, rid: number) {
  // one task per plan, guard, day and shift; the day's n-th task decides how it went
  await sql`
    INSERT INTO patrol_tasks (rid, plan_id, plan_name, guard_id, current_guard_id, day, window_start, window_end, close_at,
      in_order, status, points_total, points_done, abnormal_count, late_count, started_at, closed_at, created_at)
    SELECT ${rid}, pl.id, pl.name, g.account_id, g.account_id, d::date, w.start, w.start + interval '2 hours', w.start + interval '4 hours',
      pl.in_order, o.status, ${ROUTE_POINTS},
      CASE o.status WHEN 'Y' THEN ${ROUTE_POINTS} WHEN 'P' THEN ${ROUTE_POINTS - 2} ELSE 0 END,
      0, 0, CASE WHEN o.status IN ('Y', 'P') THEN w.start + interval '3 minutes' END,
      CASE WHEN o.status IN ('Y', 'P', 'X') THEN w.start + interval '4 hours' END, w.start - interval '30 minutes'
    FROM patrol_plans pl
    JOIN patrol_plan_guards g ON g.rid = pl.rid AND g.plan_id = pl.id
    CROSS JOIN generate_series((${TODAY} - 365)::timestamp, ${TODAY}::timestamp, interval '1 day') d
    CROSS JOIN LATERAL (VALUES (((d::date + time '08:00') AT TIME ZONE 'Asia/Shanghai')), (((d::date + time '20:00') AT TIME ZONE 'Asia/Shanghai'))) w(start)
    CROSS JOIN LATERAL (SELECT CASE WHEN d::date = ${TODAY} THEN 'W'
      WHEN (pl.id + extract(doy FROM d)::int) % 50 = 0 THEN 'X'
      WHEN (pl.id + extract(doy FROM d)::int) % 10 = 0 THEN 'P' ELSE 'Y' END AS status) o
    WHERE pl.rid = ${rid}`.execute(c);
  // the points of each task; a partly done task missed its last two
  await sql`
    INSERT INTO patrol_task_points (rid, task_id, point_id, point_name, sort, due_from, due_to, status, result)
    SELECT ${rid}, t.id, pp.point_id, p.name, pp.sort,
      t.window_start + make_interval(mins => pp.offset_from), t.window_start + make_interval(mins => pp.offset_to),
      CASE WHEN t.status = 'Y' OR (t.status = 'P' AND pp.sort <= ${ROUTE_POINTS - 2}) THEN 'Y' WHEN t.status IN ('P', 'X') THEN 'M' ELSE 'W' END,
      CASE WHEN t.status = 'Y' OR (t.status = 'P' AND pp.sort <= ${ROUTE_POINTS - 2})
        THEN CASE WHEN (t.id + pp.sort) % 40 = 0 THEN 'A' ELSE 'N' END ELSE '' END
    FROM patrol_tasks t
    JOIN patrol_plan_points pp ON pp.rid = t.rid AND pp.plan_id = t.plan_id
    JOIN patrol_points p ON p.rid = pp.rid AND p.id = pp.point_id
    WHERE t.rid = ${rid}`.execute(c);
  await sql`
    UPDATE patrol_tasks t SET missed_names = m.names
    FROM (SELECT task_id, string_agg(point_name, '、' ORDER BY sort) AS names FROM patrol_task_points
      WHERE rid = ${rid} AND status = 'M' GROUP BY task_id) m
    WHERE t.rid = ${rid} AND t.id = m.task_id`.execute(c);
  // a check-in for each point done, three minutes into its window (one in thirty after it)
  await sql`
    INSERT INTO patrol_checkins (rid, account_id, guard_name, code, method, device_time, server_time, outcome, point_id, point_name,
      task_id, task_point_id, timing, result, answers, created_at)
    SELECT ${rid}, t.current_guard_id, '保安', p.qr_code, 'qr', s.at, s.at, 'ok', p.id, p.name, t.id, tp.id,
      CASE WHEN (tp.id % 30) = 0 THEN 'L' ELSE 'O' END, tp.result,
      jsonb_build_array(jsonb_build_object('title', '现场情况', 'value', CASE tp.result WHEN 'A' THEN '异常' ELSE '正常' END)), s.at
    FROM patrol_task_points tp
    JOIN patrol_tasks t ON t.rid = tp.rid AND t.id = tp.task_id
    JOIN patrol_points p ON p.rid = tp.rid AND p.id = tp.point_id
    CROSS JOIN LATERAL (SELECT CASE WHEN (tp.id % 30) = 0 THEN tp.due_to + interval '5 minutes' ELSE tp.due_from + interval '3 minutes' END AS at) s
    WHERE tp.rid = ${rid} AND tp.status = 'Y'`.execute(c);
  await sql`
    UPDATE patrol_task_points tp SET checkin_id = k.id FROM patrol_checkins k
    WHERE tp.rid = ${rid} AND k.rid = tp.rid AND k.task_point_id = tp.id`.execute(c);
  await sql`
    UPDATE patrol_tasks t SET abnormal_count = x.abnormal, late_count = x.late
    FROM (SELECT task_id, count(*) FILTER (WHERE result = 'A')::int AS abnormal, count(*) FILTER (WHERE timing = 'L')::int AS late
      FROM patrol_checkins WHERE rid = ${rid} AND outcome = 'ok' GROUP BY task_id) x
    WHERE t.rid = ${rid} AND t.id = x.task_id`.execute(c);
  await countCheckinHours(c, rid);
  // scans of codes that match no point: kept in the raw log with their reason
  await sql`
    INSERT INTO patrol_checkins (rid, account_id, guard_name, code, method, server_time, outcome, reason, created_at)
    SELECT ${rid}, k.account_id, k.guard_name, 'UNKNOWN-' || k.id, 'qr', k.server_time + interval '1 minute', 'unknown', '编码未匹配任何巡更点', k.created_at
    FROM patrol_checkins k WHERE k.rid = ${rid} AND k.outcome = 'ok' AND k.id % 100 = 0`.execute(c);
}
