/**
 * Duty rosters' arithmetic (docs/product.md#duty-rosters), pure so the server's isOnDuty, the
 * month grid and their tests read one rule. Days are 'YYYY-MM-DD' of the business time zone,
 * times are minutes of that day.
 */

/** One time range of a shift, in minutes of the day; end <= start means it ends the next day. */
export interface ShiftRange {
  start: number;
  end: number;
}

const RANGE_RE = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]|24):([0-5]\d)$/;

/**
 * Parses '08:00-12:00,14:00-18:00' (also '、', '，', ';' or spaces between ranges, '~' or '～'
 * inside one); answers the ranges or the reason it cannot.
 */
export function parseShiftTimes(value: string): ShiftRange[] | string {
  const parts = value
    .replace(/[～~—–]/g, '-')
    .replace(/：/g, ':')
    .split(/[,，、;；\s]+/)
    .filter(Boolean);
  if (parts.length === 0) return '请填写上班时间，如 08:00-18:00';
  if (parts.length > 6) return '一个班次最多 6 个时间段';
  const ranges: ShiftRange[] = [];
  for (const p of parts) {
    const m = RANGE_RE.exec(p.replace(/(^|-)(\d):/g, (_, lead: string, h: string) => `${lead}0${h}:`));
    if (!m) return `时间段“${p}”格式不正确，应为 HH:MM-HH:MM，如 08:00-18:00`;
    const start = Number(m[1]) * 60 + Number(m[2]);
    const end = Number(m[3]) * 60 + Number(m[4]);
    if (end > 24 * 60) return `时间段“${p}”格式不正确，应为 HH:MM-HH:MM，如 08:00-18:00`;
    if (start === end % (24 * 60) && end !== 24 * 60) return `时间段“${p}”的开始与结束相同`;
    ranges.push({ start, end: end === 24 * 60 ? 0 : end });
  }
  // the ranges of one shift do not overlap, a range crossing midnight included (on a 48-hour line)
  const spans = ranges.map((r) => [r.start, r.end <= r.start ? r.end + 1440 : r.end] as const).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i]![0] < spans[i - 1]![1]) return '同一班次的时间段不能重叠';
  const last = spans[spans.length - 1]!;
  if (last[1] > 1440 && last[1] - 1440 > spans[0]![0]) return '同一班次的时间段不能重叠';
  return ranges;
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The canonical text of ranges: '08:00-12:00,14:00-18:00' (an end the next day stays as it is: '22:00-06:00'). */
export const formatShiftTimes = (ranges: readonly ShiftRange[]): string => ranges.map((r) => `${hhmm(r.start)}-${hhmm(r.end)}`).join(',');

/** Whether a range ends the next day. */
export const crossesMidnight = (r: ShiftRange): boolean => r.end <= r.start;

/** Roster kinds: D a cycle of N days from the effective date, W N weeks from its Monday, M by day of the month. */
export type RosterKind = 'D' | 'W' | 'M';

/** How many day slots a roster has: D the cycle's days, W 7 per week of the cycle, M 31. */
export function rosterSlots(kind: RosterKind, cycle: number): number {
  return kind === 'D' ? cycle : kind === 'W' ? cycle * 7 : 31;
}

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 of a 'YYYY-MM-DD' day. */
export const dayNumber = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
/** The day `n` days after 1970-01-01. */
export const dayOf = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);
/** Monday 0 … Sunday 6. */
export const weekdayOf = (day: string): number => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
export const WEEKDAY_CH = ['一', '二', '三', '四', '五', '六', '日'] as const;

export interface RosterPlan {
  id: number;
  kind: RosterKind;
  cycle: number;
  /** the effective date: the roster applies from this day on */
  start_date: string;
  /** the shift of each day slot (rosterSlots long); null = rest */
  days: ReadonlyArray<number | null>;
}

/** The roster's day slot for a day, or null before its effective date. */
export function slotOn(plan: RosterPlan, day: string): number | null {
  const n = dayNumber(day);
  const from = dayNumber(plan.start_date);
  if (n < from) return null;
  if (plan.kind === 'D') return (n - from) % plan.cycle;
  if (plan.kind === 'W') {
    const monday = from - weekdayOf(plan.start_date);
    const week = Math.floor((n - monday) / 7) % plan.cycle;
    return week * 7 + weekdayOf(day);
  }
  return Number(day.slice(8, 10)) - 1;
}

/**
 * The roster that applies to a staff member on a day: of the enabled rosters they are on, the one
 * with the latest effective date not after the day (a new roster replaces the old from its date).
 */
export function planOn<P extends RosterPlan>(plans: readonly P[], day: string): P | null {
  let best: P | null = null;
  for (const p of plans) if (p.start_date <= day && (!best || p.start_date > best.start_date)) best = p;
  return best;
}

/** What a staff member does on a day: a shift's id, rest (null), or no roster yet (undefined). */
export function shiftOn(plans: readonly RosterPlan[], day: string): number | null | undefined {
  const plan = planOn(plans, day);
  if (!plan) return undefined;
  const slot = slotOn(plan, day);
  return slot === null ? undefined : (plan.days[slot] ?? null);
}

/**
 * Whether a staff member works at minute `minute` of day `day`: a range of that day's shift
 * covers it, or a range of the previous day's shift that crosses midnight still runs.
 * Ranges hold [start, end).
 */
export function dutyAt(
  plans: readonly RosterPlan[],
  shifts: ReadonlyMap<number, readonly ShiftRange[]>,
  day: string,
  minute: number,
): { shift_id: number; day: string } | null {
  const today = shiftOn(plans, day);
  if (today != null) {
    for (const r of shifts.get(today) ?? []) {
      if (crossesMidnight(r) ? minute >= r.start : minute >= r.start && minute < r.end) return { shift_id: today, day };
    }
  }
  const yesterday = dayOf(dayNumber(day) - 1);
  const before = shiftOn(plans, yesterday);
  if (before != null) {
    for (const r of shifts.get(before) ?? []) if (crossesMidnight(r) && minute < r.end) return { shift_id: before, day: yesterday };
  }
  return null;
}
