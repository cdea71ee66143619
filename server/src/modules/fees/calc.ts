import { mulDivRoundHalfUp } from '@wuye/contract';

/** "2.5" with scale 4 -> 25000n: a non-negative decimal as an integer of `scale` places. */
export function scaled(value: string, scale: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) throw new Error(`invalid decimal: ${value}`);
  const frac = (m[2] ?? '').padEnd(scale, '0');
  if (frac.length > scale && /[1-9]/.test(frac.slice(scale))) throw new Error(`too many decimals: ${value}`);
  return BigInt(m[1]!) * 10n ** BigInt(scale) + BigInt(frac.slice(0, scale) || '0');
}

/**
 * A bill's amount in fen: measure (2 places) x unit price (4 places) x months, rounded half up
 * to the fen, in integers. The generation SQL computes round(measure * unit_price * months, 2)
 * on exact numerics, which is the same number.
 */
export function billFeeFen(measure: string, unitPrice: string, months: number): bigint {
  return mulDivRoundHalfUp(scaled(measure, 2), scaled(unitPrice, 4) * BigInt(months), 10_000n);
}

// A bill's late fee is the database's fee_late_fee (202611261945_fee_arrears.sql), the one
// computation of what a room owes (fees/arrears.ts); its tests are in arrears.test.ts.

/** '2026-11' -> { start: '2026-11-01' } and the text range covered by `months`. */
export function periodRange(period: string, months: number): { start: string; end: string; daterange: string } {
  const y = Number(period.slice(0, 4));
  const m = Number(period.slice(5, 7)) - 1;
  const start = `${period}-01`;
  const last = new Date(Date.UTC(y, m + months, 0));
  const end = last.toISOString().slice(0, 10);
  return { start, end, daterange: `${start} ~ ${end}` };
}
