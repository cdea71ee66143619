import { daysBetween, mulDivRoundHalfUp } from '@wuye/contract';

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

export interface LateFeeRule {
  late_fee_rule: 'none' | 'daily';
  /** per mille of the bill per day */
  late_fee_rate: string;
  late_fee_grace_days: number;
  /** percent of the bill; 0 = no cap */
  late_fee_cap_percent: number;
}

/** Days past the due date that attract a late fee on `onDay` (0 while within grace). */
export function chargeableDays(dueDate: string, onDay: string, graceDays: number): number {
  return Math.max(0, daysBetween(dueDate, onDay) - graceDays);
}

/** Late fee in fen of an unpaid bill on `onDay`: fee x rate‰ x days, half up, capped. */
export function lateFeeFen(feeFen: bigint, dueDate: string, onDay: string, rule: LateFeeRule): bigint {
  if (rule.late_fee_rule !== 'daily') return 0n;
  const days = chargeableDays(dueDate, onDay, rule.late_fee_grace_days);
  if (days === 0) return 0n;
  let late = mulDivRoundHalfUp(feeFen, scaled(rule.late_fee_rate, 4) * BigInt(days), 1000n * 10_000n);
  if (rule.late_fee_cap_percent > 0) {
    const cap = mulDivRoundHalfUp(feeFen, BigInt(rule.late_fee_cap_percent), 100n);
    if (late > cap) late = cap;
  }
  return late;
}

/** '2026-11' -> { start: '2026-11-01' } and the text range covered by `months`. */
export function periodRange(period: string, months: number): { start: string; end: string; daterange: string } {
  const y = Number(period.slice(0, 4));
  const m = Number(period.slice(5, 7)) - 1;
  const start = `${period}-01`;
  const last = new Date(Date.UTC(y, m + months, 0));
  const end = last.toISOString().slice(0, 10);
  return { start, end, daterange: `${start} ~ ${end}` };
}
