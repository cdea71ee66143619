import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween } from '../dates.js';
import { fenToYuan, toFen } from '../money.js';
import {
  LEASE_CYCLES,
  leasePeriods,
  leaseRangeAmounts,
  leaseSchedule,
  leaseTermsProblem,
  monthlyRentOf,
  type LeaseTerms,
} from './leaseSchedule.js';

const terms = (over: Partial<LeaseTerms>): LeaseTerms => ({
  start: '2026-01-01',
  end: '2026-12-31',
  cycle_months: 1,
  monthly_rent: '5000.00',
  bill_ahead_days: 15,
  free_periods: [],
  escalation: { kind: 'none', value: '0', every_years: 1 },
  charges: [],
  ...over,
});

describe('the periods of a term', () => {
  it('runs in calendar months from the start: the first month prorated, full months after', () => {
    const s = leaseSchedule(terms({ start: '2026-01-15', end: '2026-03-14', monthly_rent: '3100.00' }));
    expect(s.periods.map((p) => [p.start, p.end, p.rent])).toEqual([
      // 17 of January's 31 days
      ['2026-01-15', '2026-01-31', '1700.00'],
      // February whole and 14 of March's 31 days: the part-held last month joins the period before
      ['2026-02-01', '2026-03-14', '4500.00'],
    ]);
    expect(s.totals.rent).toBe('6200.00');
    expect(s.term_days).toBe(59);
  });

  it('bills each period N days before its first day, due on its first day', () => {
    const s = leaseSchedule(terms({ start: '2026-03-01', end: '2026-08-31', cycle_months: 3, bill_ahead_days: 10 }));
    expect(s.periods.map((p) => [p.start, p.end, p.bill_date, p.due_date, p.rent])).toEqual([
      ['2026-03-01', '2026-05-31', '2026-02-19', '2026-03-01', '15000.00'],
      ['2026-06-01', '2026-08-31', '2026-05-22', '2026-06-01', '15000.00'],
    ]);
  });

  it('a quarterly lease starting mid-month: the first quarter ends with its third month', () => {
    expect(leasePeriods('2026-05-10', '2027-05-09', 3)).toEqual([
      { start: '2026-05-10', end: '2026-07-31' },
      { start: '2026-08-01', end: '2026-10-31' },
      { start: '2026-11-01', end: '2027-01-31' },
      { start: '2027-02-01', end: '2027-05-09' },
    ]);
  });

  it('a lease ending on a month end keeps its last month as a period of its own', () => {
    expect(leasePeriods('2026-01-15', '2026-03-31', 1)).toEqual([
      { start: '2026-01-15', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-02-28' },
      { start: '2026-03-01', end: '2026-03-31' },
    ]);
  });

  it('a lease inside one month is one period', () => {
    const s = leaseSchedule(terms({ start: '2026-02-10', end: '2026-02-16', monthly_rent: '2800.00' }));
    expect(s.periods).toHaveLength(1);
    // 7 of February's 28 days
    expect(s.periods[0]!.rent).toBe('700.00');
  });
});

describe('rent-free days and escalation', () => {
  it('the journey’s lease: two years, the first month free, 5 % more after the first year', () => {
    const s = leaseSchedule(
      terms({
        start: '2026-03-01',
        end: '2028-02-29',
        free_periods: [{ start: '2026-03-01', end: '2026-03-31' }],
        escalation: { kind: 'percent', value: '5.00', every_years: 1 },
        charges: [{ name: '物业费', monthly: '300.00' }],
      }),
    );
    expect(s.periods).toHaveLength(24);
    expect(s.periods[0]).toMatchObject({ rent: '0.00', free_days: 31, step: 0, total: '300.00' });
    expect(s.periods[1]).toMatchObject({ start: '2026-04-01', rent: '5000.00', step: 0, rate: '5000.00' });
    expect(s.periods[12]).toMatchObject({ start: '2027-03-01', rent: '5250.00', step: 1, rate: '5250.00' });
    expect(s.totals.rent).toBe('118000.00');
    expect(s.totals.charges).toEqual([{ name: '物业费', amount: '7200.00' }]);
    expect(s.totals.all).toBe('125200.00');
    expect(s.free_days).toBe(31);
  });

  it('a rise on a day inside a month splits that month’s days between the two rents', () => {
    const s = leaseSchedule(
      terms({
        start: '2026-01-16',
        end: '2027-01-31',
        monthly_rent: '3100.00',
        escalation: { kind: 'amount', value: '310.00', every_years: 1 },
      }),
    );
    const jan27 = s.periods.at(-1)!;
    // 15 days at 3100/31 and 16 at 3410/31
    expect(jan27).toMatchObject({ start: '2027-01-01', end: '2027-01-31', step: 1, rent: '3260.00' });
  });

  it('simple escalation counts every rise from the first rent', () => {
    const s = leaseSchedule(
      terms({ start: '2026-01-01', end: '2028-12-31', cycle_months: 12, escalation: { kind: 'percent', value: '10', every_years: 1 } }),
    );
    expect(s.periods.map((p) => p.rate)).toEqual(['5000.00', '5500.00', '6000.00']);
  });

  it('the other charges are due on rent-free days', () => {
    const s = leaseSchedule(
      terms({
        end: '2026-01-31',
        free_periods: [{ start: '2026-01-01', end: '2026-01-31' }],
        charges: [
          { name: '物业费', monthly: '310.00' },
          { name: '停车费', monthly: '150.00' },
        ],
      }),
    );
    expect(s.periods[0]).toMatchObject({ rent: '0.00', total: '460.00' });
  });

  it('rent per m² a month is price × area, half up', () => {
    expect(monthlyRentOf('A', '120.50', '56.25')).toBe('6778.13');
    expect(monthlyRentOf('M', '6000', '56.25')).toBe('6000.00');
  });

  it('the last days of a term on their own, at the last rent after the end', () => {
    const t = terms({ start: '2026-01-01', end: '2026-12-31', escalation: { kind: 'amount', value: '500', every_years: 1 } });
    // 10 of March's 31 days at 5000
    expect(leaseRangeAmounts(t, '2026-03-01', '2026-03-10').rent).toBe('1612.90');
    // an overstay in January 2027: the rise of 2027-01-01 is after the term, so 5000 still
    expect(leaseRangeAmounts(t, '2027-01-01', '2027-01-31').rent).toBe('5000.00');
  });
});

describe('terms refused', () => {
  const cases: Array<[Partial<LeaseTerms>, string]> = [
    [{ end: '2025-12-31' }, '租约结束日期不能早于开始日期'],
    [{ end: '2046-01-02' }, '租期不能超过 20 年'],
    [{ cycle_months: 2 }, '付款周期取值不正确'],
    [{ monthly_rent: '0' }, '月租金须大于0'],
    [{ free_periods: [{ start: '2025-12-01', end: '2026-01-10' }] }, '免租期 2025-12-01 至 2026-01-10 须在租期内'],
    [{ free_periods: [{ start: '2026-02-10', end: '2026-02-01' }] }, '免租期 2026-02-10 至 2026-02-01 的结束日期早于开始日期'],
    [
      {
        free_periods: [
          { start: '2026-02-01', end: '2026-02-20' },
          { start: '2026-02-15', end: '2026-03-01' },
        ],
      },
      '免租期 2026-02-01 至 2026-02-20 与 2026-02-15 至 2026-03-01 重叠',
    ],
    [{ escalation: { kind: 'percent', value: '0', every_years: 1 } }, '每次递增比例须大于0'],
    [{ escalation: { kind: 'amount', value: '100', every_years: 0 } }, '递增周期须至少 1 年'],
    [
      {
        charges: [
          { name: '物业费', monthly: '1' },
          { name: '物业费', monthly: '2' },
        ],
      },
      '其他费用「物业费」重复',
    ],
    [{ charges: [{ name: '停车费', monthly: '0' }] }, '其他费用「停车费」的月金额须大于0'],
  ];
  it.each(cases)('%j → %s', (over, message) => {
    expect(leaseTermsProblem(terms(over))).toBe(message);
  });
  it('good terms have no problem', () => expect(leaseTermsProblem(terms({}))).toBeNull());
});

/* ---------- the property: whatever the terms, the bills add up to the term's total, every day billed once ---------- */

const dayArb = (from: string, spanDays: number) => fc.integer({ min: 0, max: spanDays }).map((n) => addDays(from, n));
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
const dim = (day: string) => new Date(Date.UTC(+day.slice(0, 4), +day.slice(5, 7), 0)).getUTCDate();

/**
 * The term's totals computed on their own, day by day as exact fractions: a day costs the rent in
 * force that day (unless free) divided by the days of its month.
 */
function oracle(t: LeaseTerms) {
  let num = 0n;
  let den = 1n;
  const add = (n: bigint, d: bigint) => {
    num = num * d + n * den;
    den = den * d;
    const g = gcd(num, den);
    num /= g;
    den /= g;
  };
  const charges = t.charges.map(() => ({ num: 0n, den: 1n }));
  let free = 0;
  const first = toFen(t.monthly_rent);
  for (let d = t.start; d <= t.end; d = addDays(d, 1)) {
    const n = BigInt(dim(d));
    for (const [i, c] of t.charges.entries()) {
      const acc = charges[i]!;
      acc.num = acc.num * n + toFen(c.monthly) * acc.den;
      acc.den *= n;
      const g = gcd(acc.num, acc.den);
      acc.num /= g;
      acc.den /= g;
    }
    if (t.free_periods.some((f) => f.start <= d && d <= f.end)) {
      free++;
      continue;
    }
    let step = 0;
    if (t.escalation.kind !== 'none') for (let k = 1; addMonths(t.start, 12 * k * t.escalation.every_years) <= d; k++) step = k;
    const rise = BigInt(step) * toFen(t.escalation.value);
    // the percent rise of the first rent, half up to the fen (10 000 = 100.00 %)
    const rate =
      t.escalation.kind === 'amount'
        ? first + rise
        : t.escalation.kind === 'percent'
          ? (first * (10000n + rise) * 2n + 10000n) / 20000n
          : first;
    add(rate, n);
  }
  const round = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);
  return { rent: round(num, den), charges: charges.map((c) => round(c.num, c.den)), free };
}

const termsArb = fc
  .record({
    start: dayArb('2024-01-01', 1500),
    length: fc.integer({ min: 0, max: 1400 }),
    cycle: fc.constantFrom(...LEASE_CYCLES),
    rent: fc.integer({ min: 1, max: 5_000_000 }),
    ahead: fc.integer({ min: 0, max: 60 }),
    escalation: fc.oneof(
      fc.constant({ kind: 'none' as const, value: '0', every_years: 1 }),
      fc.record({
        kind: fc.constant('amount' as const),
        value: fc.integer({ min: 1, max: 99999 }).map((f) => fenToYuan(BigInt(f))),
        every_years: fc.integer({ min: 1, max: 3 }),
      }),
      fc.record({
        kind: fc.constant('percent' as const),
        value: fc.integer({ min: 1, max: 3000 }).map((f) => fenToYuan(BigInt(f))),
        every_years: fc.integer({ min: 1, max: 3 }),
      }),
    ),
    frees: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 120 })), { maxLength: 3 }),
    charges: fc.array(fc.integer({ min: 1, max: 200_000 }), { maxLength: 2 }),
  })
  .map(({ start, length, cycle, rent, ahead, escalation, frees, charges }): LeaseTerms => {
    const end = addDays(start, length);
    // free ranges inside the term, not overlapping: laid one after another from random offsets
    const free_periods: LeaseTerms['free_periods'][number][] = [];
    let from = start;
    for (const [gap, len] of frees) {
      const s = addDays(from, gap % 200);
      const e = addDays(s, len);
      if (e > end) break;
      free_periods.push({ start: s, end: e });
      from = addDays(e, 1);
    }
    return {
      start,
      end,
      cycle_months: cycle,
      monthly_rent: fenToYuan(BigInt(rent)),
      bill_ahead_days: ahead,
      free_periods,
      escalation,
      charges: charges.map((c, i) => ({ name: ['物业费', '停车费'][i]!, monthly: fenToYuan(BigInt(c)) })),
    };
  });

describe('the schedule, whatever the terms', () => {
  it('its bills add up to the term’s total, per kind, computed day by day', () => {
    fc.assert(
      fc.property(termsArb, (t) => {
        expect(leaseTermsProblem(t)).toBeNull();
        const s = leaseSchedule(t);
        const o = oracle(t);
        const rent = s.periods.reduce((sum, p) => sum + toFen(p.rent), 0n);
        expect(rent).toBe(o.rent);
        expect(toFen(s.totals.rent)).toBe(o.rent);
        for (const [i, c] of t.charges.entries()) {
          expect(s.periods.reduce((sum, p) => sum + toFen(p.charges[i]!.amount), 0n)).toBe(o.charges[i]);
          expect(toFen(s.totals.charges[i]!.amount)).toBe(o.charges[i]);
          expect(s.totals.charges[i]!.name).toBe(c.name);
        }
        const all = s.periods.reduce((sum, p) => sum + toFen(p.total), 0n);
        expect(toFen(s.totals.all)).toBe(all);
        expect(all).toBe(o.rent + o.charges.reduce((a, b) => a + b, 0n));
        expect(s.free_days).toBe(o.free);
      }),
      { numRuns: 150 },
    );
  });

  it('bills every day of the term once: the periods follow one another from the start to the end', () => {
    fc.assert(
      fc.property(termsArb, (t) => {
        const s = leaseSchedule(t);
        expect(s.periods[0]!.start).toBe(t.start);
        expect(s.periods.at(-1)!.end).toBe(t.end);
        for (const [i, p] of s.periods.entries()) {
          expect(p.seq).toBe(i + 1);
          expect(p.end >= p.start).toBe(true);
          expect(p.days).toBe(daysBetween(p.start, p.end) + 1);
          if (i > 0) {
            expect(p.start).toBe(addDays(s.periods[i - 1]!.end, 1));
            // every period but the first starts on the first of a month: a bill's month is its own
            expect(p.start.slice(8)).toBe('01');
          }
          expect(p.bill_date).toBe(addDays(p.start, -t.bill_ahead_days));
          expect(p.due_date).toBe(p.start);
          expect(p.free_days).toBeLessThanOrEqual(p.days);
        }
        expect(s.periods.reduce((n, p) => n + p.days, 0)).toBe(s.term_days);
        expect(s.term_days).toBe(daysBetween(t.start, t.end) + 1);
        // no two periods start in the same month (the bills' key: room, item, month)
        expect(new Set(s.periods.map((p) => p.start.slice(0, 7))).size).toBe(s.periods.length);
      }),
      { numRuns: 150 },
    );
  });

  it('each period is its own days’ rent within a fen (the remainder carried), and the total does not depend on the cycle', () => {
    fc.assert(
      fc.property(termsArb, (t) => {
        const s = leaseSchedule(t);
        for (const p of s.periods) {
          const own = leaseRangeAmounts(t, p.start, p.end);
          const diff = toFen(p.rent) - toFen(own.rent);
          expect(diff >= -1n && diff <= 1n).toBe(true);
        }
        for (const cycle of LEASE_CYCLES) expect(leaseSchedule({ ...t, cycle_months: cycle }).totals).toEqual(s.totals);
      }),
      { numRuns: 60 },
    );
  });
});
