import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toFen } from '../money.js';
import { couponFace, priceTempFee, type TempFeeCoupon, type TempFeeRule } from './tempFee.js';

/** The journey's standard: free 15 min, first hour ¥5, then ¥2 per 30 min, cap ¥30 per 24 h. */
const RULE: TempFeeRule = {
  free_minutes: 15,
  first_minutes: 60,
  first_price: '5.00',
  step_minutes: 30,
  step_price: '2.00',
  cap_amount: '30.00',
  band: 'N',
  peak_start: '08:00',
  peak_end: '20:00',
  off_first_price: '3.00',
  off_step_price: '1.00',
  holidays: [],
};
const BANDED: TempFeeRule = { ...RULE, band: 'Y', holidays: ['2026-12-02'] };

// 2026-12-01 is a Tuesday, 2026-12-05 a Saturday
const TUE = '2026-12-01';
const at = (day: string, hm: string) => `${day} ${hm}:00`;
const plus = (t: string, minutes: number) => {
  const ms =
    Date.UTC(+t.slice(0, 4), +t.slice(5, 7) - 1, +t.slice(8, 10), +t.slice(11, 13), +t.slice(14, 16), +t.slice(17, 19)) + minutes * 60000;
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
};
const fee = (rule: TempFeeRule, entry: string, minutes: number, coupons: TempFeeCoupon[] = []) =>
  priceTempFee(rule, entry, plus(entry, minutes), coupons);

describe('temporary-car fee: the rules', () => {
  it('free minutes are a threshold: within them free, a minute more pays from minute 0', () => {
    const within = fee(RULE, at(TUE, '09:00'), 15);
    expect(within).toMatchObject({ due: '0.00', free_minutes: 15, normal: '0.00' });
    const over = fee(RULE, at(TUE, '09:00'), 16);
    expect(over).toMatchObject({ due: '5.00', free_minutes: 0, normal: '5.00', over: '0.00' });
  });

  it('a started minute counts', () => {
    expect(priceTempFee(RULE, at(TUE, '09:00'), '2026-12-01 09:15:01').duration_minutes).toBe(16);
    expect(priceTempFee(RULE, at(TUE, '09:00'), '2026-12-01 09:15:01').due).toBe('5.00');
  });

  it('the first period is charged whole, then every started step', () => {
    expect(fee(RULE, at(TUE, '09:00'), 60).due).toBe('5.00');
    expect(fee(RULE, at(TUE, '09:00'), 61)).toMatchObject({ due: '7.00', normal: '5.00', over: '2.00' });
    expect(fee(RULE, at(TUE, '09:00'), 90).due).toBe('7.00');
    // the journey's stay: 2 h 10 min = first hour + 3 steps
    expect(fee(RULE, at(TUE, '09:00'), 130)).toMatchObject({ due: '11.00', normal: '5.00', over: '6.00', capped: '0.00' });
  });

  it('caps each 24-hour window and prices the next window afresh', () => {
    const day = fee(RULE, at(TUE, '09:00'), 1440);
    // 5 + 46 steps × 2 = 97, capped at 30
    expect(day).toMatchObject({ normal: '5.00', over: '92.00', capped: '67.00', due: '30.00' });
    const twoDays = fee(RULE, at(TUE, '09:00'), 1440 + 130);
    expect(twoDays.windows).toHaveLength(2);
    expect(twoDays).toMatchObject({ normal: '10.00', over: '98.00', capped: '67.00', due: '41.00' });
    expect(fee(RULE, at(TUE, '09:00'), 2880).due).toBe('60.00');
  });

  it('prices each unit at the band its start falls in', () => {
    // 19:00 Tuesday: first hour at the day price (¥5), the steps from 20:00 at night (¥1 each)
    const evening = fee(BANDED, at(TUE, '19:00'), 130);
    expect(evening.windows[0]).toMatchObject({ first_band: 'peak', peak_steps: 0, off_steps: 3 });
    expect(evening.due).toBe('8.00');
    // 07:30: first hour at night (¥3), steps from 08:30 at day (¥2)
    expect(fee(BANDED, at(TUE, '07:30'), 130).due).toBe('9.00');
    // a Saturday and a holiday are off-peak all day
    expect(fee(BANDED, at('2026-12-05', '10:00'), 130).due).toBe('6.00');
    expect(fee(BANDED, at('2026-12-02', '10:00'), 130).due).toBe('6.00');
    // with bands off the day prices apply at night
    expect(fee(RULE, at('2026-12-05', '23:00'), 130).due).toBe('11.00');
  });

  it('minutes off shorten the stay before pricing, and may bring it under the free threshold', () => {
    const b = fee(RULE, at(TUE, '09:00'), 130, [{ kind: 'minutes', minutes: 30 }]);
    expect(b).toMatchObject({ billed_minutes: 100, coupon_minutes: 30, due: '9.00', coupon_amount: '2.00' });
    expect(b.coupons[0]).toMatchObject({ kind: 'minutes', minutes: 30, effect: '2.00' });
    expect(fee(RULE, at(TUE, '09:00'), 40, [{ kind: 'minutes', minutes: 30 }]).due).toBe('0.00');
    expect(fee(RULE, at(TUE, '09:00'), 20, [{ kind: 'minutes', minutes: 60 }])).toMatchObject({ billed_minutes: 0, coupon_minutes: 20 });
  });

  it('a full waiver frees the stay and leaves nothing for the other coupons', () => {
    const b = fee(RULE, at(TUE, '09:00'), 130, [{ kind: 'amount', amount: '3.00' }, { kind: 'free' }]);
    expect(b.due).toBe('0.00');
    expect(b.coupons.map((c) => c.effect)).toEqual(['0.00', '11.00']);
  });

  it('an amount off never goes below zero', () => {
    expect(fee(RULE, at(TUE, '09:00'), 130, [{ kind: 'amount', amount: '3.00' }]).due).toBe('8.00');
    const b = fee(RULE, at(TUE, '09:00'), 30, [{ kind: 'amount', amount: '10.00' }]);
    expect(b).toMatchObject({ due: '0.00', coupon_amount: '5.00' });
    expect(b.coupons[0]!.effect).toBe('5.00');
  });

  it('a discount rounds half up to the fen and a small amount stays a discount', () => {
    const small: TempFeeRule = { ...RULE, free_minutes: 0, first_price: '0.50' };
    expect(fee(small, at(TUE, '09:00'), 10, [{ kind: 'discount', rate: '0.70' }]).due).toBe('0.35');
    // ¥0.05 at 0.7 = 0.035 -> 0.04 (half up)
    expect(fee({ ...small, first_price: '0.05' }, at(TUE, '09:00'), 10, [{ kind: 'discount', rate: '0.7' }]).due).toBe('0.04');
    expect(fee(RULE, at(TUE, '09:00'), 130, [{ kind: 'discount', rate: '0.85' }]).due).toBe('9.35');
  });

  it('applies the coupons in the fixed order whatever order they come in', () => {
    const coupons: TempFeeCoupon[] = [
      { kind: 'discount', rate: '0.50' },
      { kind: 'amount', amount: '1.00' },
      { kind: 'minutes', minutes: 30 },
    ];
    // 130 − 30 = 100 min: 9.00; − 1.00 = 8.00; × 0.5 = 4.00
    const b = fee(RULE, at(TUE, '09:00'), 130, coupons);
    expect(b.due).toBe('4.00');
    expect(b.coupons.map((c) => c.effect)).toEqual(['4.00', '1.00', '2.00']);
    expect(fee(RULE, at(TUE, '09:00'), 130, [...coupons].reverse()).due).toBe('4.00');
  });

  it('refuses an exit before the entry and a malformed coupon', () => {
    expect(() => priceTempFee(RULE, at(TUE, '10:00'), at(TUE, '09:00'))).toThrow('出场时间不能早于入场时间');
    expect(() => fee(RULE, at(TUE, '09:00'), 60, [{ kind: 'discount', rate: '1.00' }])).toThrow('折扣');
    expect(() => fee(RULE, at(TUE, '09:00'), 60, [{ kind: 'minutes', minutes: 0 }])).toThrow('减时券');
  });

  it('says a coupon face in one text', () => {
    expect(couponFace({ kind: 'minutes', minutes: 30 })).toBe('减30分钟');
    expect(couponFace({ kind: 'amount', amount: '5.00' })).toBe('减5.00元');
    expect(couponFace({ kind: 'discount', rate: '0.70' })).toBe('7折');
    expect(couponFace({ kind: 'discount', rate: '0.85' })).toBe('8.5折');
    expect(couponFace({ kind: 'free' })).toBe('全免');
  });
});

const price = fc.integer({ min: 0, max: 5000 }).map((f) => (f / 100).toFixed(2));
const rule: fc.Arbitrary<TempFeeRule> = fc.record({
  free_minutes: fc.integer({ min: 0, max: 60 }),
  first_minutes: fc.integer({ min: 1, max: 240 }),
  first_price: price,
  step_minutes: fc.integer({ min: 5, max: 120 }),
  step_price: price,
  cap_amount: fc.oneof(fc.constant('0.00'), price),
  band: fc.constantFrom('Y' as const, 'N' as const),
  peak_start: fc.constantFrom('07:00', '08:00', '09:30', '20:00'),
  peak_end: fc.constantFrom('18:00', '20:00', '22:00', '08:00'),
  off_first_price: price,
  off_step_price: price,
  holidays: fc.constantFrom([], ['2026-12-02'], ['2026-12-01', '2026-12-03']),
});
const entry = fc
  .tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 1439 }))
  .map(([d, m]) => plus(at(TUE, '00:00'), d * 1440 + m));
const coupon: fc.Arbitrary<TempFeeCoupon> = fc.oneof(
  fc.integer({ min: 1, max: 240 }).map((minutes) => ({ kind: 'minutes' as const, minutes })),
  price.filter((p) => p !== '0.00').map((amount) => ({ kind: 'amount' as const, amount })),
  fc.integer({ min: 1, max: 99 }).map((h) => ({ kind: 'discount' as const, rate: `0.${String(h).padStart(2, '0')}` })),
  fc.constant({ kind: 'free' as const }),
);
const coupons = fc.array(coupon, { maxLength: 3 });
const minutes = fc.integer({ min: 0, max: 4 * 1440 });

describe('temporary-car fee: properties', () => {
  it('is monotone in time: a longer stay never costs less for the same entry and coupons', () => {
    fc.assert(
      fc.property(rule, entry, minutes, fc.integer({ min: 0, max: 600 }), coupons, (r, e, m, more, cs) => {
        expect(toFen(fee(r, e, m + more, cs).due)).toBeGreaterThanOrEqual(toFen(fee(r, e, m, cs).due));
      }),
      { numRuns: 300 },
    );
  });

  it('never costs more than the cap times the started days', () => {
    fc.assert(
      fc.property(rule, entry, minutes, (r, e, m) => {
        const b = fee(r, e, m);
        if (toFen(r.cap_amount) > 0n) expect(toFen(b.due)).toBeLessThanOrEqual(toFen(r.cap_amount) * BigInt(Math.ceil(m / 1440)));
        expect(toFen(b.gross)).toBe(toFen(b.normal) + toFen(b.over) - toFen(b.capped));
      }),
      { numRuns: 300 },
    );
  });

  it('coupons never raise the fee and the due is never below zero', () => {
    fc.assert(
      fc.property(rule, entry, minutes, coupons, (r, e, m, cs) => {
        const without = fee(r, e, m);
        const withCoupons = fee(r, e, m, cs);
        expect(toFen(withCoupons.due)).toBeLessThanOrEqual(toFen(without.due));
        expect(toFen(withCoupons.due)).toBeGreaterThanOrEqual(0n);
        expect(toFen(withCoupons.coupon_amount)).toBe(toFen(without.due) - toFen(withCoupons.due));
        // each coupon's effect adds up to what they removed
        expect(withCoupons.coupons.reduce((s, c) => s + toFen(c.effect), 0n)).toBe(toFen(withCoupons.coupon_amount));
      }),
      { numRuns: 300 },
    );
  });
});
