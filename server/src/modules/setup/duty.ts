/**
 * Who is on duty (docs/product.md#duty-rosters): the one answer the patrol area's task generation
 * and the repair round-robin read, from the community's enabled rosters and shifts. The rule itself
 * is pure (contract/src/setup/duty.ts); this loads a community's rosters and asks it.
 */
import { dutyAt, formatWireTime, parseShiftTimes, type RosterKind, type RosterPlan, type ShiftRange } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { businessTimeZone } from '../../config.js';
import type { DB } from '../../db/schema.js';

const ZONE = businessTimeZone();

export interface StaffPlans {
  /** each staff member's enabled rosters */
  plans: Map<number, RosterPlan[]>;
  /** every shift of the community (a disabled shift still counts where a roster names it) by id */
  shifts: Map<number, { name: string; times: string; ranges: ShiftRange[] }>;
}

/** The community's enabled rosters with their days, by staff member (all, or those given). */
export async function loadStaffPlans(db: Kysely<DB>, rid: number, accountIds?: readonly number[]): Promise<StaffPlans> {
  if (accountIds && accountIds.length === 0) return { plans: new Map(), shifts: new Map() };
  const { rows } = await sql<{
    id: string;
    kind: RosterKind;
    cycle: number;
    start_date: string;
    days: Array<number | null>;
    staff: number[];
  }>`
    SELECT s.id, s.kind, s.cycle, to_char(s.start_date, 'YYYY-MM-DD') AS start_date,
      (SELECT coalesce(json_agg(d.shift_id ORDER BY d.day_no), '[]') FROM schedule_days d
        WHERE d.rid = s.rid AND d.schedule_id = s.id) AS days,
      (SELECT coalesce(json_agg(x.account_id), '[]') FROM schedule_staff x
        WHERE x.rid = s.rid AND x.schedule_id = s.id
          -- an account still working in the community and enabled
          AND EXISTS (SELECT 1 FROM account_regions ar JOIN accounts a ON a.id = ar.account_id
            WHERE ar.account_id = x.account_id AND ar.rid = s.rid AND a.status = 'Y')
          AND (${accountIds ? sql`x.account_id = ANY(${[...accountIds]}::int[])` : sql`true`})) AS staff
    FROM schedules s
    WHERE s.rid = ${rid} AND s.status = 'Y'`.execute(db);
  const plans = new Map<number, RosterPlan[]>();
  for (const r of rows) {
    const plan: RosterPlan = {
      id: Number(r.id),
      kind: r.kind,
      cycle: r.cycle,
      start_date: r.start_date,
      days: r.days.map((d) => (d === null ? null : Number(d))),
    };
    for (const a of r.staff) plans.set(a, [...(plans.get(a) ?? []), plan]);
  }
  const shiftRows = await db.selectFrom('duty_shifts').select(['id', 'name', 'times']).where('rid', '=', rid).execute();
  const shifts = new Map<number, { name: string; times: string; ranges: ShiftRange[] }>();
  for (const s of shiftRows) {
    const ranges = parseShiftTimes(s.times);
    shifts.set(Number(s.id), { name: s.name, times: s.times, ranges: typeof ranges === 'string' ? [] : ranges });
  }
  return { plans, shifts };
}

/** The business day and minute of an instant. */
export function localDayMinute(at: Date): { day: string; minute: number } {
  const wire = formatWireTime(at, ZONE);
  return { day: wire.slice(0, 10), minute: Number(wire.slice(11, 13)) * 60 + Number(wire.slice(14, 16)) };
}

export interface OnDuty {
  account_id: number;
  shift_id: number;
  shift_name: string;
  /** the day whose shift it is (the day before for the small hours of a night shift) */
  day: string;
}

/** Who of the community is on duty at an instant (optionally only among the given accounts), by account id. */
export async function whoIsOnDuty(db: Kysely<DB>, rid: number, at: Date, accountIds?: readonly number[]): Promise<OnDuty[]> {
  const { plans, shifts } = await loadStaffPlans(db, rid, accountIds);
  const ranges = new Map([...shifts].map(([id, s]) => [id, s.ranges]));
  const { day, minute } = localDayMinute(at);
  const out: OnDuty[] = [];
  for (const [accountId, list] of plans) {
    const hit = dutyAt(list, ranges, day, minute);
    if (hit) out.push({ account_id: accountId, shift_id: hit.shift_id, shift_name: shifts.get(hit.shift_id)?.name ?? '', day: hit.day });
  }
  return out.sort((a, b) => a.account_id - b.account_id);
}

/** Whether a staff member of the community is on duty at an instant (no roster: not on duty). */
export async function isOnDuty(db: Kysely<DB>, rid: number, accountId: number, at: Date): Promise<boolean> {
  return (await whoIsOnDuty(db, rid, at, [accountId])).length > 0;
}
