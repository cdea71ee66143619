import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeBill, maxHourFen, pricingProblem, type ChargeFrame, type ChargePricing } from './pricing.js';

const T0 = Date.parse('2026-12-01T10:00:00+08:00');
const MIN = 60_000;

const CAR: ChargePricing = {
  kind: 'car',
  tou: [
    { start: '00:00', end: '08:00', tier: 'valley', price: '0.35' },
    { start: '08:00', end: '11:00', tier: 'peak', price: '1.05' },
    { start: '11:00', end: '13:00', tier: 'sharp', price: '1.30' },
    { start: '13:00', end: '19:00', tier: 'flat', price: '0.70' },
    { start: '19:00', end: '22:00', tier: 'peak', price: '1.05' },
    { start: '22:00', end: '24:00', tier: 'valley', price: '0.35' },
  ],
  service_fee: '0.40',
  bands: [],
};
const EBIKE: ChargePricing = {
  kind: 'ebike',
  tou: [],
  service_fee: '0',
  bands: [
    { min_w: 0, max_w: 300, price: '0.50' },
    { min_w: 300, max_w: 600, price: '0.80' },
    { min_w: 600, max_w: 1200, price: '1.20' },
  ],
};

/** frames every `step` minutes from T0 with these Wh increments */
const framesOf = (incs: number[], step = 10, t0 = T0): ChargeFrame[] => {
  let wh = 1000;
  const out: ChargeFrame[] = [{ at: t0, wh }];
  incs.forEach((d, i) => {
    wh += d;
    out.push({ at: t0 + (i + 1) * step * MIN, wh });
  });
  return out;
};

describe('charging prices', () => {
  it('prices a car session by time-of-use band and service fee, per hour', () => {
    // 10:00 to 12:00 at 7 kW: the first hour at the peak price, the second at the sharp price
    const bill = chargeBill(CAR, framesOf(Array(8).fill(1750), 15));
    expect(bill.hours).toBe(2);
    expect(bill.wh).toBe(14000);
    expect(bill.slots.map((s) => s.amount)).toEqual(['10.15', '11.90']); // 7 × (1.05 + 0.40), 7 × (1.30 + 0.40)
    expect(bill.total_fen).toBe(2205n);
  });

  it('a coupon pays whole hours in order while its value lasts', () => {
    const frames = framesOf(Array(8).fill(1750), 15);
    const one = chargeBill(CAR, frames, 0, 1500n);
    expect(one.coupon_hours).toBe(1);
    expect(one.coupon_fen).toBe(1015n);
    expect(one.total_fen).toBe(1190n);
    // too small for the first hour: nothing freed, the coupon is not used
    expect(chargeBill(CAR, frames, 0, 1000n).coupon_fen).toBe(0n);
    // the month card's hour goes first, then the coupon's
    const both = chargeBill(CAR, frames, 1, 1500n);
    expect(both.slots.map((s) => s.free)).toEqual(['card', 'coupon']);
    expect(both.total_fen).toBe(0n);
  });

  it('prices an e-bike hour by the power band its energy falls in', () => {
    // 90 minutes: 450 Wh in the first hour (0.80), 100 Wh in the half hour after (0.50, billed whole)
    const bill = chargeBill(EBIKE, framesOf([120, 120, 120, 90, 50, 50], 15));
    expect(bill.hours).toBe(2);
    expect(bill.slots.map((s) => s.band_price)).toEqual(['0.80', '0.50']);
    expect(bill.total_fen).toBe(130n);
  });

  it('checks the bands', () => {
    expect(pricingProblem(CAR)).toBe('');
    expect(pricingProblem({ ...CAR, tou: CAR.tou.slice(1) })).toContain('分时电价须连续覆盖全天');
    expect(pricingProblem({ ...CAR, tou: CAR.tou.slice(0, -1) })).toBe('分时电价须覆盖到 24:00');
    expect(pricingProblem(EBIKE)).toBe('');
    expect(pricingProblem({ ...EBIKE, bands: [EBIKE.bands[0]!, { min_w: 300, max_w: 600, price: '0.40' }] })).toBe(
      '功率越高的档位小时电价不能更低',
    );
    expect(maxHourFen(CAR, '7.00')).toBe(1190n); // 7 kW × (1.30 + 0.40)
    expect(maxHourFen(EBIKE, '1.00')).toBe(120n);
  });

  const pricingArb = fc.constantFrom(CAR, EBIKE);
  const incsArb = fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 30 });
  const stepArb = fc.integer({ min: 1, max: 40 });
  const startArb = fc.integer({ min: 0, max: 1440 * 2 }).map((m) => T0 + m * MIN);
  const freeArb = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.bigInt({ min: 0n, max: 5000n }));

  it('is never negative, and never more than its gross', () => {
    fc.assert(
      fc.property(pricingArb, incsArb, stepArb, startArb, freeArb, (p, incs, step, t0, [free, coupon]) => {
        const b = chargeBill(p, framesOf(incs, step, t0), free, coupon);
        expect(b.total_fen >= 0n).toBe(true);
        expect(b.total_fen <= b.gross_fen).toBe(true);
        expect(b.total_fen + b.free_fen + b.coupon_fen).toBe(b.gross_fen);
      }),
    );
  });

  it('is monotone in energy: more energy in any interval never costs less', () => {
    fc.assert(
      fc.property(
        pricingArb,
        incsArb,
        stepArb,
        startArb,
        freeArb,
        fc.nat(),
        fc.integer({ min: 1, max: 5000 }),
        (p, incs, step, t0, [free, coupon], at, extra) => {
          const more = [...incs];
          const i = at % more.length;
          more[i] = more[i]! + extra;
          const a = chargeBill(p, framesOf(incs, step, t0), free, coupon).total_fen;
          const b = chargeBill(p, framesOf(more, step, t0), free, coupon).total_fen;
          expect(b >= a).toBe(true);
        },
      ),
    );
  });

  it('is monotone in time: a longer session never costs less', () => {
    fc.assert(
      fc.property(pricingArb, incsArb, incsArb, stepArb, startArb, freeArb, (p, incs, later, step, t0, [free, coupon]) => {
        const a = chargeBill(p, framesOf(incs, step, t0), free, coupon).total_fen;
        const b = chargeBill(p, framesOf([...incs, ...later], step, t0), free, coupon).total_fen;
        expect(b >= a).toBe(true);
      }),
    );
  });
});
