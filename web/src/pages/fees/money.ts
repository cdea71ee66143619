import { fenToYuan, toFen } from '@wuye/contract/money';
import { formatMoney } from '../../utils/formatMoney';

/** Sum of decimal strings, in fen. */
export const sumFen = (values: string[]): bigint => values.reduce((s, v) => s + toFen(v), 0n);

/** '' or an invalid text counts as 0 fen (the money input only lets valid text through). */
export const fenOf = (v: string | undefined): bigint => {
  try {
    return v ? toFen(v) : 0n;
  } catch {
    return 0n;
  }
};

export const yuan = fenToYuan;

/** A fresh idempotency key: 32 hex characters from the browser's CSPRNG (works without https). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface Settlement {
  /** taken from the owner's balance */
  balanceUsed: bigint;
  /** left to pay in cash or by the chosen pay type */
  due: bigint;
  /** what the cashier takes: the amount typed, or the due amount when none is typed */
  paidFen: bigint;
  /** paid beyond the due amount, credited to the owner's balance */
  toBalance: bigint;
  /** why the payment cannot be made, '' when it can */
  problem: string;
}

/**
 * How a payment of `total` fen settles at the cashier and the quick payment, the same rules
 * payBills applies on the server: the balance first when asked (or when it is the pay type),
 * no less than the due amount, and an overpayment only to a room with a registered owner.
 */
export function settlePayment(o: {
  total: bigint;
  balance: bigint;
  useBalance: boolean;
  payType: string;
  paid: string;
  hasOwner: boolean;
}): Settlement {
  const balanceUsed = o.useBalance || o.payType === 'balance' ? (o.balance < o.total ? o.balance : o.total) : 0n;
  const due = o.total - balanceUsed;
  const paidFen = o.paid === '' ? due : fenOf(o.paid);
  const toBalance = paidFen - due;
  const problem =
    o.payType === 'balance' && due > 0n
      ? `业主余额不足，还差 ${formatMoney(due, { unit: '元' })}`
      : paidFen < due
        ? `实收金额不能少于应收金额 ${formatMoney(due, { unit: '元' })}`
        : toBalance > 0n && !o.hasOwner
          ? '该房屋没有登记业主，多收的金额无法转入余额'
          : '';
  return { balanceUsed, due, paidFen, toBalance, problem };
}
