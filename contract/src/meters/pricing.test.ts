import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centiToUnits, meterTiers, monthCostFen, tieredCharge, toCenti, type MeterTier } from './pricing.js';

const RESIDENT: MeterTier[] = [
  { upto: 200, price: '0.5283' },
  { upto: 400, price: '0.5783' },
  { upto: null, price: '0.8283' },
];

const tiersArb = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 99999 })), { minLength: 1, maxLength: 5 })
  .map((xs) => {
    let end = 0;
    return xs.map(([step, p], i): MeterTier => {
      end += step;
      return { upto: i === xs.length - 1 ? null : end, price: `${Math.floor(p / 10000)}.${String(p % 10000).padStart(4, '0')}` };
    });
  });

describe('tiered meter prices', () => {
  it('splits a month across the tiers and rounds once', () => {
    // 250 units: 200 × 0.5283 + 50 × 0.5783 = 105.66 + 28.915 = 134.575 → 134.58
    expect(monthCostFen(RESIDENT, toCenti('250'))).toBe(13458n);
    const c = tieredCharge(RESIDENT, toCenti('190'), toCenti('210'));
    expect(c.parts).toEqual([
      { usage: '10.00', price: '0.5283', amount: '5.28' },
      { usage: '10.00', price: '0.5783', amount: '5.78' },
    ]);
    expect(c.fen).toBe(monthCostFen(RESIDENT, toCenti('210')) - monthCostFen(RESIDENT, toCenti('190')));
    expect(c.lastPrice).toBe('0.5783');
  });

  it('is never negative and never falls as usage grows (any tiers)', () => {
    fc.assert(
      fc.property(tiersArb, fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 2_000_000 }), (tiers, a, b) => {
        const lo = BigInt(Math.min(a, b));
        const hi = BigInt(Math.max(a, b));
        expect(monthCostFen(tiers, lo)).toBeGreaterThanOrEqual(0n);
        expect(monthCostFen(tiers, hi)).toBeGreaterThanOrEqual(monthCostFen(tiers, lo));
        expect(tieredCharge(tiers, lo, hi).fen).toBeGreaterThanOrEqual(0n);
      }),
    );
  });

  it('charges many small readings exactly what one reading of their sum costs', () => {
    fc.assert(
      fc.property(tiersArb, fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 30 }), (tiers, steps) => {
        let at = 0n;
        let sum = 0n;
        for (const s of steps) {
          sum += tieredCharge(tiers, at, at + BigInt(s)).fen;
          at += BigInt(s);
        }
        expect(sum).toBe(monthCostFen(tiers, at));
      }),
    );
  });

  it('reads units as hundredths and back', () => {
    expect(toCenti('12.5')).toBe(1250n);
    expect(toCenti(3.456)).toBe(346n);
    expect(centiToUnits(1205n)).toBe('12.05');
  });

  it('refuses tiers that do not ascend or leave the last open', () => {
    expect(meterTiers.safeParse(RESIDENT).success).toBe(true);
    expect(meterTiers.safeParse([{ upto: 100, price: '1' }]).error?.issues[0]?.message).toBe('最后一档不设上限');
    expect(
      meterTiers.safeParse([
        { upto: 100, price: '1' },
        { upto: 50, price: '1' },
        { upto: null, price: '2' },
      ]).error?.issues[0]?.message,
    ).toBe('阶梯上限必须逐档递增');
  });
});
