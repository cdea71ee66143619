/**
 * A lease's rent schedule (docs/product.md#crm-leases), pure: the same function draws the live
 * preview in the browser and makes the bills on the server.
 *
 * - Periods run in whole calendar months counted from the lease's start: the first period ends at
 *   the end of the month `cycle_months - 1` after the start's month, every later one covers
 *   `cycle_months` calendar months, the last one stops at the lease's end. A last month the lease
 *   does not hold to its end joins the period before it, so a renewal starting the next day never
 *   finds its first month taken by the old lease's bills.
 * - A day costs the month's rent divided by the days of its month (1/31 of a month's rent on a day
 *   of January); a period costs the sum of its days, rounded half up to the fen, the remainder
 *   carried to the next period, so the bills add up exactly to the term's total, whatever the
 *   dates, the cycle, the free days and the rises.
 * - Rent-free days cost no rent; the other charges (property fee, parking) are due on them.
 * - Escalation is simple: on every N-th anniversary of the start the monthly rent rises by the
 *   amount, or by the percent of the first rent (half up to the fen), counted from the first rent.
 * - Each period is due on its first day and billed `bill_ahead_days` before it.
 */
import { addDays, addMonths, daysBetween } from '../dates.js';
import { fenToYuan, mulDivRoundHalfUp, toFen } from '../money.js';

export const LEASE_CYCLES = [1, 3, 6, 12] as const;
export type LeaseCycleMonths = (typeof LEASE_CYCLES)[number];

export interface LeaseDateRange {
  start: string;
  end: string;
}

export interface LeaseEscalation {
  kind: 'none' | 'amount' | 'percent';
  /** yuan a month (amount) or percent of the first rent (percent), two decimals */
  value: string;
  every_years: number;
}

export interface LeaseCharge {
  name: string;
  /** yuan a month */
  monthly: string;
}

export interface LeaseTerms {
  start: string;
  end: string;
  cycle_months: number;
  /** the first monthly rent (yuan) */
  monthly_rent: string;
  bill_ahead_days: number;
  free_periods: readonly LeaseDateRange[];
  escalation: LeaseEscalation;
  charges: readonly LeaseCharge[];
}

export interface ScheduleCharge {
  name: string;
  amount: string;
}

export interface SchedulePeriod {
  /** 1, 2, … */
  seq: number;
  start: string;
  end: string;
  days: number;
  /** rent-free days in the period */
  free_days: number;
  /** the day its bills are made */
  bill_date: string;
  /** the day it is due: its first day */
  due_date: string;
  /** the escalation step reached by the period's last day (0 = the first rent) */
  step: number;
  /** the monthly rent at that step */
  rate: string;
  rent: string;
  charges: ScheduleCharge[];
  total: string;
}

export interface LeaseSchedule {
  periods: SchedulePeriod[];
  term_days: number;
  free_days: number;
  totals: { rent: string; charges: ScheduleCharge[]; all: string };
}

/**
 * The common denominator of a day's share of a month (lcm of 28, 29, 30 and 31): a day of a month of
 * `dim` days is DAY_UNITS / dim units, so every amount is exact in fen × DAY_UNITS before rounding.
 */
const DAY_UNITS = 377_580n;
const HALF = DAY_UNITS / 2n;

const pad = (n: number) => String(n).padStart(2, '0');
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
/** The last day of the month `months` after the month of `day`. */
export function monthEnd(day: string, months = 0): string {
  const first = addMonths(`${day.slice(0, 7)}-01`, months);
  const y = +first.slice(0, 4);
  const m = +first.slice(5, 7);
  return `${first.slice(0, 7)}-${pad(daysInMonth(y, m))}`;
}
const isMonthEnd = (day: string) => monthEnd(day) === day;

/** The monthly rent of a lease priced per m² a month: price × area, half up to the fen. */
export function monthlyRentOf(mode: 'M' | 'A', price: string, area: string): string {
  if (mode === 'M') return fenToYuan(toFen(price));
  return fenToYuan(mulDivRoundHalfUp(toFen(price), toFen(area), 100n));
}

/** The anniversary of `start` `years` later (29 February falls on the 28th). */
export const anniversary = (start: string, years: number) => addMonths(start, 12 * years);

/** The monthly rent at escalation step `step`, in fen. */
export function rateAtStep(firstFen: bigint, esc: LeaseEscalation, step: number): bigint {
  if (esc.kind === 'none' || step === 0) return firstFen;
  const s = BigInt(step);
  if (esc.kind === 'amount') return firstFen + s * toFen(esc.value);
  // a percent with two decimals is toFen of it in hundredths of a percent: 5.25 % → 525 / 10000
  return mulDivRoundHalfUp(firstFen, 10_000n + s * toFen(esc.value), 10_000n);
}

/** The days (YYYY-MM-DD) the rent steps up, within the term. */
export function escalationDays(t: Pick<LeaseTerms, 'start' | 'end' | 'escalation'>): string[] {
  const out: string[] = [];
  if (t.escalation.kind === 'none' || !(t.escalation.every_years >= 1)) return out;
  for (let k = 1; ; k++) {
    const day = anniversary(t.start, k * t.escalation.every_years);
    if (day > t.end) return out;
    out.push(day);
  }
}

/** The calendar periods of a term (no amounts). */
export function leasePeriods(start: string, end: string, cycleMonths: number): LeaseDateRange[] {
  const out: LeaseDateRange[] = [];
  let from = start;
  while (from <= end) {
    let to = monthEnd(from, cycleMonths - 1);
    if (to >= end) to = end;
    else {
      const next = addDays(to, 1);
      // the last month held only in part joins this period (see the file's comment)
      if (next.slice(0, 7) === end.slice(0, 7) && !isMonthEnd(end)) to = end;
    }
    out.push({ start: from, end: to });
    from = addDays(to, 1);
  }
  return out;
}

const within = (day: string, ranges: readonly LeaseDateRange[]) => ranges.some((r) => r.start <= day && day <= r.end);

/** Exact amounts (fen × DAY_UNITS) of each day kind in a period, summed: rent and each charge. */
function exactOf(t: LeaseTerms, from: string, to: string, firstFen: bigint, chargeFen: bigint[], steps: string[]) {
  let rent = 0n;
  const charges = chargeFen.map(() => 0n);
  let free = 0;
  let step = 0;
  // walk month by month; inside a month group the days by (free, step) and multiply once
  let day = from;
  while (day <= to) {
    const mEnd = monthEnd(day) < to ? monthEnd(day) : to;
    const unit = DAY_UNITS / BigInt(daysInMonth(+day.slice(0, 4), +day.slice(5, 7)));
    const days = daysBetween(day, mEnd) + 1;
    for (let i = 0; i < charges.length; i++) charges[i]! += chargeFen[i]! * unit * BigInt(days);
    // rent: each day its step's rate unless it is free
    for (let d = day; d <= mEnd; d = addDays(d, 1)) {
      const s = stepOn(steps, d);
      if (s > step) step = s;
      if (within(d, t.free_periods)) free++;
      else rent += rateAtStep(firstFen, t.escalation, s) * unit;
    }
    day = addDays(mEnd, 1);
  }
  return { rent, charges, free, step };
}

/** The escalation step on a day: how many rise days have come by then. */
function stepOn(steps: string[], day: string): number {
  let n = 0;
  for (const s of steps) if (s <= day) n++;
  return n;
}

const roundUnits = (x: bigint) => (x + HALF) / DAY_UNITS;

/**
 * The rent schedule of a lease's terms. The terms must pass `leaseTermsProblem` (the server checks
 * them; the preview draws nothing until they do).
 */
export function leaseSchedule(t: LeaseTerms): LeaseSchedule {
  const firstFen = toFen(t.monthly_rent);
  const chargeFen = t.charges.map((c) => toFen(c.monthly));
  const steps = escalationDays(t);
  // cumulative exact amounts and what has been billed of them: each period bills the rounded
  // cumulative minus what went before, so the rounding never adds up across periods
  let cumRent = 0n;
  let billedRent = 0n;
  const cumCharges = chargeFen.map(() => 0n);
  const billedCharges = chargeFen.map(() => 0n);
  let freeDays = 0;
  const periods: SchedulePeriod[] = leasePeriods(t.start, t.end, t.cycle_months).map((p, i) => {
    const x = exactOf(t, p.start, p.end, firstFen, chargeFen, steps);
    cumRent += x.rent;
    const rent = roundUnits(cumRent) - billedRent;
    billedRent += rent;
    const charges = x.charges.map((c, j) => {
      cumCharges[j]! += c;
      const amount = roundUnits(cumCharges[j]!) - billedCharges[j]!;
      billedCharges[j]! += amount;
      return amount;
    });
    freeDays += x.free;
    const total = charges.reduce((s, c) => s + c, rent);
    return {
      seq: i + 1,
      start: p.start,
      end: p.end,
      days: daysBetween(p.start, p.end) + 1,
      free_days: x.free,
      bill_date: addDays(p.start, -t.bill_ahead_days),
      due_date: p.start,
      step: x.step,
      rate: fenToYuan(rateAtStep(firstFen, t.escalation, x.step)),
      rent: fenToYuan(rent),
      charges: t.charges.map((c, j) => ({ name: c.name, amount: fenToYuan(charges[j]!) })),
      total: fenToYuan(total),
    };
  });
  const all = billedCharges.reduce((s, c) => s + c, billedRent);
  return {
    periods,
    term_days: daysBetween(t.start, t.end) + 1,
    free_days: freeDays,
    totals: {
      rent: fenToYuan(billedRent),
      charges: t.charges.map((c, j) => ({ name: c.name, amount: fenToYuan(billedCharges[j]!) })),
      all: fenToYuan(all),
    },
  };
}

/**
 * What the days `from`..`to` of the term cost on their own (rent and each charge), rounded half up:
 * the last days of a check-out, an overstay after the end (at the last step's rent).
 */
export function leaseRangeAmounts(t: LeaseTerms, from: string, to: string): { rent: string; charges: ScheduleCharge[] } {
  const firstFen = toFen(t.monthly_rent);
  const chargeFen = t.charges.map((c) => toFen(c.monthly));
  // the rises of the term only: days after the end keep the last rent
  const x = exactOf(t, from, to, firstFen, chargeFen, escalationDays(t));
  return {
    rent: fenToYuan(roundUnits(x.rent)),
    charges: t.charges.map((c, j) => ({ name: c.name, amount: fenToYuan(roundUnits(x.charges[j]!)) })),
  };
}

/** The longest term a lease may have. */
export const LEASE_MAX_YEARS = 20;

/** The first thing wrong with the terms, in the form's words; null when the schedule can be drawn. */
export function leaseTermsProblem(t: LeaseTerms): string | null {
  if (!t.start || !t.end) return '请选择租期';
  if (t.end < t.start) return '租约结束日期不能早于开始日期';
  if (t.end > anniversary(t.start, LEASE_MAX_YEARS)) return `租期不能超过 ${LEASE_MAX_YEARS} 年`;
  if (!(LEASE_CYCLES as readonly number[]).includes(t.cycle_months)) return '付款周期取值不正确';
  if (toFen(t.monthly_rent) <= 0n) return '月租金须大于0';
  const free = [...t.free_periods].sort((a, b) => (a.start < b.start ? -1 : 1));
  for (const [i, f] of free.entries()) {
    if (f.end < f.start) return `免租期 ${f.start} 至 ${f.end} 的结束日期早于开始日期`;
    if (f.start < t.start || f.end > t.end) return `免租期 ${f.start} 至 ${f.end} 须在租期内`;
    const prev = free[i - 1];
    if (prev && f.start <= prev.end) return `免租期 ${prev.start} 至 ${prev.end} 与 ${f.start} 至 ${f.end} 重叠`;
  }
  if (t.escalation.kind !== 'none') {
    if (!(t.escalation.every_years >= 1)) return '递增周期须至少 1 年';
    if (toFen(t.escalation.value) <= 0n) return t.escalation.kind === 'amount' ? '每次递增金额须大于0' : '每次递增比例须大于0';
  }
  const names = new Set<string>();
  for (const c of t.charges) {
    if (!c.name) return '请填写其他费用的名称';
    if (names.has(c.name)) return `其他费用「${c.name}」重复`;
    names.add(c.name);
    if (toFen(c.monthly) <= 0n) return `其他费用「${c.name}」的月金额须大于0`;
  }
  return null;
}
