import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billFeeFen, periodRange, scaled } from './calc.js';

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

describe('periods', () => {
  it('covers whole months', () => {
    expect(periodRange('2026-11', 1).daterange).toBe('2026-11-01 ~ 2026-11-30');
    expect(periodRange('2026-12', 3).daterange).toBe('2026-12-01 ~ 2027-02-28');
  });
});
