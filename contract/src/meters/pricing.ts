/**
 * Tiered meter prices (阶梯价, docs/product.md#smart-meters). A plan's tiers split a month's usage:
 * the first `upto` units at the first price, the next up to the second `upto` at the second, and
 * the rest at the last tier's price (its `upto` is null).
 *
 * The money of a usage from `before` to `after` (both the month's usage so far) is
 * cost(after) − cost(before), where cost(u) is the month's cost from zero to u rounded to the fen
 * once. So the deductions of many small readings add up exactly to the cost of their sum, and the
 * charge is never negative and never falls as usage grows.
 */
import { z } from 'zod';
import { fenToYuan, mulDivRoundHalfUp } from '../money.js';

export interface MeterTier {
  /** the month's usage this tier reaches (units, 2 decimals); null: no end (the last tier) */
  upto: number | null;
  /** yuan per unit, up to 4 decimals */
  price: string;
}

export interface TierPart {
  usage: string;
  price: string;
  amount: string;
}

const PRICE_RE = /^\d{1,4}(\.\d{1,4})?$/;

/** A plan's tiers as a form sends them: ascending ends, the last open, at most 5. */
export const meterTiers = z
  .array(
    z.object({
      upto: z.number().positive('阶梯上限必须大于 0').max(1e9).nullable(),
      price: z.string().trim().regex(PRICE_RE, '单价最多 4 位小数，如 0.5283'),
    }),
  )
  .min(1, '请至少设置一档单价')
  .max(5, '最多 5 档')
  .refine((t) => t[t.length - 1]?.upto === null, { message: '最后一档不设上限' })
  .refine((t) => t.slice(0, -1).every((x) => x.upto !== null), { message: '只有最后一档可以不设上限' })
  .refine((t) => t.slice(0, -1).every((x, i) => i === 0 || (x.upto ?? 0) > (t[i - 1]!.upto ?? 0)), {
    message: '阶梯上限必须逐档递增',
  });

/** Units (2 decimals) as hundredths. */
export function toCenti(v: string | number): bigint {
  const s = typeof v === 'number' ? v.toFixed(2) : v.trim();
  const m = /^(\d+)(?:\.(\d{1,2}))?\d*$/.exec(s);
  if (!m) throw new Error(`bad usage ${s}`);
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

export function centiToUnits(c: bigint): string {
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/** A price (≤ 4 decimals) as ten-thousandths of a yuan. */
function price4(p: string): bigint {
  const [i, f = ''] = p.split('.');
  return BigInt(i!) * 10000n + BigInt(f.padEnd(4, '0').slice(0, 4));
}

/** The month's usage from zero to `usage` hundredths, split by tier (unrounded, in 1e-6 yuan). */
function partsTo(tiers: readonly MeterTier[], usage: bigint): Array<{ centi: bigint; p4: bigint }> {
  const parts: Array<{ centi: bigint; p4: bigint }> = [];
  let from = 0n;
  for (const t of tiers) {
    if (from >= usage) break;
    const end = t.upto === null ? usage : toCenti(t.upto);
    const to = end < usage ? end : usage;
    if (to > from) parts.push({ centi: to - from, p4: price4(t.price) });
    from = to > from ? to : from;
  }
  return parts;
}

/** The month's cost of `usage` hundredths in fen, rounded half up once. */
export function monthCostFen(tiers: readonly MeterTier[], usage: bigint): bigint {
  if (usage <= 0n) return 0n;
  // centi × p4 is in 1e-6 yuan; a fen is 1e4 of them
  const micro = partsTo(tiers, usage).reduce((s, p) => s + p.centi * p.p4, 0n);
  return mulDivRoundHalfUp(micro, 1n, 10000n);
}

/**
 * The charge of the usage from `before` to `after` (the month's usage, hundredths): its fen and
 * the tiers it crossed (for the bill log's breakdown), each part's amount in the tier's price.
 */
export function tieredCharge(
  tiers: readonly MeterTier[],
  before: bigint,
  after: bigint,
): { fen: bigint; parts: TierPart[]; lastPrice: string } {
  if (after <= before) return { fen: 0n, parts: [], lastPrice: tiers.length ? priceAt(tiers, before) : '0' };
  const fen = monthCostFen(tiers, after) - monthCostFen(tiers, before);
  const parts: TierPart[] = [];
  let from = 0n;
  for (const t of tiers) {
    const end = t.upto === null ? after : toCenti(t.upto);
    const lo = from > before ? from : before;
    const hi = end < after ? end : after;
    if (hi > lo)
      parts.push({
        usage: centiToUnits(hi - lo),
        price: t.price,
        amount: fenToYuan(mulDivRoundHalfUp((hi - lo) * price4(t.price), 1n, 10000n)),
      });
    from = end;
    if (from >= after) break;
  }
  return { fen, parts, lastPrice: priceAt(tiers, after > 0n ? after - 1n : 0n) };
}

/** The price of the tier a month's usage of `usage` hundredths is in. */
export function priceAt(tiers: readonly MeterTier[], usage: bigint): string {
  for (const t of tiers) if (t.upto === null || usage < toCenti(t.upto)) return t.price;
  return tiers[tiers.length - 1]?.price ?? '0';
}
