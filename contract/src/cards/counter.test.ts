import { describe, expect, it } from 'vitest';
import { settleCounter, type CounterRules } from './counter.js';

const RULES: CounterRules = {
  discount: 95,
  supplyBonus: true,
  supplyBalance: true,
  earnPerYuan: 1,
  earnCap: 500,
  redeemPoints: 100,
  redeemMoney: '1.00',
  redeemMinOrder: '10.00',
  redeemMaxPoints: 1000,
};
const wallet = { couponFen: 0n, pointsWanted: 0, bonusHeld: 0, balanceHeld: 0n, useBalance: true };

describe('settleCounter', () => {
  it('applies the member discount (half up), one coupon, points, the balance, then cash', () => {
    // 99.99 × 95 % = 94.9905 → 94.99; 10 off → 84.99; 550 points → 5 × 100 = 5.00 → 79.99; balance 30 → 49.99 cash
    const s = settleCounter(9999n, RULES, { ...wallet, couponFen: 1000n, pointsWanted: 550, bonusHeld: 2000, balanceHeld: 3000n });
    expect(s).toMatchObject({
      memberDiscountFen: 500n,
      couponFen: 1000n,
      pointsUsed: 500,
      pointsFen: 500n,
      balanceFen: 3000n,
      cashFen: 4999n,
    });
    // earned on 79.99 paid: 79 points
    expect(s.pointsEarned).toBe(79);
    expect(s.memberDiscountFen + s.couponFen + s.pointsFen + s.balanceFen + s.cashFen).toBe(9999n);
  });

  it('keeps points to the minimum order, the cap, what is held and what is left', () => {
    expect(settleCounter(900n, RULES, { ...wallet, pointsWanted: 1000, bonusHeld: 5000 }).pointsUsed).toBe(0);
    expect(settleCounter(100000n, RULES, { ...wallet, pointsWanted: 5000, bonusHeld: 5000 }).pointsUsed).toBe(1000);
    expect(settleCounter(100000n, RULES, { ...wallet, pointsWanted: 5000, bonusHeld: 250 }).pointsUsed).toBe(200);
    // 12.00 × 95 % = 11.40: at most 11 redemptions
    expect(settleCounter(1200n, RULES, { ...wallet, pointsWanted: 5000, bonusHeld: 5000 }).pointsUsed).toBe(1000);
    expect(settleCounter(1200n, { ...RULES, redeemMaxPoints: 0 }, { ...wallet, pointsWanted: 5000, bonusHeld: 5000 }).pointsUsed).toBe(
      1100,
    );
  });

  it('never takes more than is due; a card without points or balance takes neither', () => {
    const s = settleCounter(1000n, { ...RULES, discount: 100 }, { ...wallet, couponFen: 5000n, balanceHeld: 9999n });
    expect(s).toMatchObject({ couponFen: 1000n, balanceFen: 0n, cashFen: 0n, pointsEarned: 0 });
    const plain = settleCounter(
      1000n,
      { ...RULES, supplyBonus: false, supplyBalance: false },
      { ...wallet, pointsWanted: 500, bonusHeld: 500, balanceHeld: 500n },
    );
    expect(plain).toMatchObject({ pointsUsed: 0, balanceFen: 0n, cashFen: 950n, pointsEarned: 0 });
    expect(settleCounter(100000n, RULES, { ...wallet }).pointsEarned).toBe(500);
  });
});
