import { describe, expect, it } from 'vitest';
import { settlePayment } from './money';

const base = { total: 30000n, balance: 0n, useBalance: false, payType: 'cash', paid: '', hasOwner: true };

describe('settlePayment', () => {
  it('takes the due amount when none is typed', () => {
    expect(settlePayment(base)).toEqual({ balanceUsed: 0n, due: 30000n, paidFen: 30000n, toBalance: 0n, problem: '' });
  });

  it('takes the balance first when asked, at most the total', () => {
    expect(settlePayment({ ...base, balance: 10000n, useBalance: true })).toMatchObject({
      balanceUsed: 10000n,
      due: 20000n,
      paidFen: 20000n,
    });
    expect(settlePayment({ ...base, balance: 50000n, useBalance: true })).toMatchObject({ balanceUsed: 30000n, due: 0n, problem: '' });
    expect(settlePayment({ ...base, balance: 10000n })).toMatchObject({ balanceUsed: 0n, due: 30000n });
  });

  it('refuses a balance payment the balance does not cover', () => {
    expect(settlePayment({ ...base, balance: 10000n, payType: 'balance' })).toMatchObject({
      balanceUsed: 10000n,
      due: 20000n,
      problem: '业主余额不足，还差 200.00 元',
    });
  });

  it('refuses less than due, and credits more only to a room with an owner', () => {
    expect(settlePayment({ ...base, paid: '299.99' }).problem).toBe('实收金额不能少于应收金额 300.00 元');
    expect(settlePayment({ ...base, paid: '350' })).toMatchObject({ paidFen: 35000n, toBalance: 5000n, problem: '' });
    expect(settlePayment({ ...base, paid: '350', hasOwner: false }).problem).toBe('该房屋没有登记业主，多收的金额无法转入余额');
  });
});
