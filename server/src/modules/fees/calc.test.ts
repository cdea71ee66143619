import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billFeeFen, lateFeeFen, periodRange, scaled } from './calc.js';

const decimal = (maxInt: number, places: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: 10 ** places - 1 }))
    .map(([i, f]) => `${i}.${String(f).padStart(places, '0')}`);

describe('bill amounts', () => {
  it('rounding never loses a fen: within half a fen of the exact amount, halves rounded up', () => {
    fc.assert(
      fc.property(decimal(9999, 2), decimal(999, 4), fc.integer({ min: 1, max: 12 }), (measure, price, months) => {
        const fen = billFeeFen(measure, price, months);
        // exact amount in 1/10000 fen
        const exact = scaled(measure, 2) * scaled(price, 4) * BigInt(months);
        const diff = fen * 10_000n - exact;
        expect(diff > -5_000n && diff <= 5_000n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('matches hand-computed cases', () => {
    expect(billFeeFen('89.50', '2.5', 1)).toBe(22375n);
    expect(billFeeFen('105.20', '0.3333', 3)).toBe(10519n); // 105.2 x 0.3333 x 3 = 105.18948
    expect(billFeeFen('1.00', '0.0050', 1)).toBe(1n); // half a fen rounds up
    expect(billFeeFen('1.00', '0.0049', 1)).toBe(0n);
  });
});

describe('late fees', () => {
  const rule = { late_fee_rule: 'daily' as const, late_fee_rate: '0.5', late_fee_grace_days: 5, late_fee_cap_percent: 10 };
  it('charges rate‰ a day after the grace days, capped', () => {
    expect(lateFeeFen(100_000n, '2026-01-10', '2026-01-15', rule)).toBe(0n);
    expect(lateFeeFen(100_000n, '2026-01-10', '2026-01-16', rule)).toBe(50n); // 1000 yuan x 0.5‰ x 1 day
    expect(lateFeeFen(100_000n, '2026-01-10', '2027-01-10', rule)).toBe(10_000n); // cap 10 %
    expect(lateFeeFen(100_000n, '2026-01-10', '2027-01-10', { ...rule, late_fee_rule: 'none' })).toBe(0n);
  });

  it('grows with the days and never passes the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 800 }), (fee, days) => {
        const on = new Date(Date.UTC(2026, 0, 10) + days * 86_400_000).toISOString().slice(0, 10);
        const next = new Date(Date.UTC(2026, 0, 11) + days * 86_400_000).toISOString().slice(0, 10);
        const a = lateFeeFen(BigInt(fee), '2026-01-10', on, rule);
        const b = lateFeeFen(BigInt(fee), '2026-01-10', next, rule);
        expect(b >= a).toBe(true);
        expect(b * 100n <= BigInt(fee) * 10n + 50n).toBe(true);
      }),
    );
  });
});

describe('periods', () => {
  it('covers whole months', () => {
    expect(periodRange('2026-11', 1).daterange).toBe('2026-11-01 ~ 2026-11-30');
    expect(periodRange('2026-12', 3).daterange).toBe('2026-12-01 ~ 2027-02-28');
  });
});
