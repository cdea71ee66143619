/**
 * The price of a charging session (docs/product.md#charging-piles), pure and exact (fen, bigint):
 * both sides use it, the server to settle, the pile simulator to stop at the money prepaid.
 *
 * - The session is cut into hour slots from its first meter value; each slot is billed whole.
 * - A car pile (电动汽车): each interval between two meter values is priced at the time-of-use band
 *   (尖峰平谷) of its start, plus the service fee per kWh; a slot costs its energy.
 * - An e-bike pile (电动自行车): a slot costs the hourly price of the power band its energy falls in
 *   (Wh in one hour = average W); a slot is billed even when little flowed, as peers do.
 * - Free hours come off the first slots: the month card's hours, then the coupon, whose face value
 *   pays whole slots in order while it lasts (a coupon converts to hours at the session's own hourly
 *   price). Prefix-freeing keeps the total monotone in energy and in time (pricing.test.ts).
 */
import { mulDivRoundHalfUp, toFen, fenToYuan } from '../money.js';

export type ChargeTier = 'sharp' | 'peak' | 'flat' | 'valley';
/** A time-of-use band: from `start` (HH:mm) to `end` (HH:mm, 24:00 the day's end), yuan per kWh. */
export interface ChargeTouBand {
  start: string;
  end: string;
  tier: ChargeTier;
  price: string;
}
/** An e-bike power band: average power from min_w (included) to max_w (excluded), yuan per hour. */
export interface ChargePowerBand {
  min_w: number;
  max_w: number;
  price: string;
}
export interface ChargePricing {
  kind: 'car' | 'ebike';
  tou: ChargeTouBand[];
  /** yuan per kWh on top of the electricity (car piles) */
  service_fee: string;
  bands: ChargePowerBand[];
}
/** A meter value the pile sent: when (ms since epoch) and its register (Wh). */
export interface ChargeFrame {
  at: number;
  wh: number;
}
export interface ChargeSlot {
  /** 1-based hour of the session */
  hour: number;
  wh: number;
  /** Wh per tier (car piles) */
  tiers: Partial<Record<ChargeTier, number>>;
  energy_fen: string;
  service_fee_fen: string;
  /** the e-bike band's hourly price (yuan) or '' */
  band_price: string;
  amount: string;
  /** '' billed, 'card' the month card's hour, 'coupon' the coupon's hour */
  free: '' | 'card' | 'coupon';
}
export interface ChargeBill {
  hours: number;
  wh: number;
  gross_fen: bigint;
  free_fen: bigint;
  coupon_fen: bigint;
  total_fen: bigint;
  card_hours: number;
  coupon_hours: number;
  slots: ChargeSlot[];
}

export const HOUR_MS = 3_600_000;
/** Asia/Shanghai, the business time zone: a fixed offset (docs/architecture.md#dates). */
const OFFSET_MIN = 8 * 60;

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};
const minutes = minutesOf;

/** The band in force at this instant (business time of day); undefined when the bands leave a gap. */
export function touBandAt(tou: readonly ChargeTouBand[], at: number): ChargeTouBand | undefined {
  const minute = (((Math.floor(at / 60_000) + OFFSET_MIN) % 1440) + 1440) % 1440;
  return tou.find((b) => minutes(b.start) <= minute && minute < minutes(b.end));
}

/** The e-bike band of an average power: the last band starting at or below it (the lowest below all). */
export function powerBandOf(bands: readonly ChargePowerBand[], watts: number): ChargePowerBand | undefined {
  const sorted = [...bands].sort((a, b) => a.min_w - b.min_w);
  let chosen = sorted[0];
  for (const b of sorted) if (b.min_w <= watts) chosen = b;
  return chosen;
}

/** The most one hour of this pile may cost at its rated power (the prepayment of an hours session). */
export function maxHourFen(p: ChargePricing, ratedKw: string): bigint {
  if (p.kind === 'ebike') return p.bands.reduce((m, b) => (toFen(b.price) > m ? toFen(b.price) : m), 0n);
  const top = p.tou.reduce((m, b) => (toFen(b.price) > m ? toFen(b.price) : m), 0n) + toFen(p.service_fee);
  // rated kW (two decimals) × yuan per kWh, rounded up to the fen
  const prod = toFen(ratedKw) * top;
  return (prod + 99n) / 100n;
}
/** The most one kWh may cost (the prepayment of an energy session on a car pile). */
export function maxKwhFen(p: ChargePricing): bigint {
  return p.tou.reduce((m, b) => (toFen(b.price) > m ? toFen(b.price) : m), 0n) + toFen(p.service_fee);
}

/**
 * The bill of a session: `frames` in any order (the first is the start), `freeHours` whole hours of a
 * month card, `couponFen` a coupon's face value. The end is the last frame.
 */
export function chargeBill(p: ChargePricing, frames: readonly ChargeFrame[], freeHours = 0, couponFen = 0n): ChargeBill {
  // Wh are whole: a register counts whole watt-hours
  const fs = [...frames].map((f) => ({ at: f.at, wh: Math.round(f.wh) })).sort((a, b) => a.at - b.at);
  const slots: ChargeSlot[] = [];
  if (fs.length === 0) {
    return { hours: 0, wh: 0, gross_fen: 0n, free_fen: 0n, coupon_fen: 0n, total_fen: 0n, card_hours: 0, coupon_hours: 0, slots };
  }
  const start = fs[0]!;
  const end = fs[fs.length - 1]!;
  const hours = Math.max(1, Math.ceil((end.at - start.at) / HOUR_MS));
  const perSlot = Array.from({ length: hours }, () => ({ wh: 0, tiers: {} as Partial<Record<ChargeTier, number>> }));
  let prev = start;
  // a register never runs backwards: a lower value is a glitch, its interval counts nothing
  let high = start.wh;
  for (const f of fs.slice(1)) {
    const dWh = Math.max(0, f.wh - high);
    high = Math.max(high, f.wh);
    const slot = perSlot[Math.min(hours - 1, Math.floor((prev.at - start.at) / HOUR_MS))]!;
    slot.wh += dWh;
    if (p.kind === 'car' && dWh > 0) {
      const tier = touBandAt(p.tou, prev.at)?.tier ?? 'flat';
      slot.tiers[tier] = (slot.tiers[tier] ?? 0) + dWh;
    }
    prev = f;
  }
  const serviceFen = toFen(p.service_fee);
  const tierPrice = (tier: ChargeTier) => toFen(p.tou.find((b) => b.tier === tier)?.price ?? '0');
  let gross = 0n;
  const amounts: bigint[] = [];
  perSlot.forEach((s, i) => {
    let energy = 0n;
    let service = 0n;
    let bandPrice = '';
    let amount: bigint;
    if (p.kind === 'car') {
      for (const [tier, wh] of Object.entries(s.tiers) as Array<[ChargeTier, number]>) {
        energy += mulDivRoundHalfUp(BigInt(wh), tierPrice(tier), 1000n);
      }
      service = mulDivRoundHalfUp(BigInt(s.wh), serviceFen, 1000n);
      amount = energy + service;
    } else {
      const band = powerBandOf(p.bands, s.wh);
      bandPrice = band ? fenToYuan(toFen(band.price)) : '0.00';
      amount = band ? toFen(band.price) : 0n;
    }
    gross += amount;
    amounts.push(amount);
    slots.push({
      hour: i + 1,
      wh: s.wh,
      tiers: s.tiers,
      energy_fen: energy.toString(),
      service_fee_fen: service.toString(),
      band_price: bandPrice,
      amount: fenToYuan(amount),
      free: '',
    });
  });
  let free = 0n;
  let cardHours = 0;
  let i = 0;
  for (; i < Math.min(Math.max(0, Math.floor(freeHours)), hours); i++) {
    slots[i]!.free = 'card';
    free += amounts[i]!;
    cardHours++;
  }
  let left = couponFen > 0n ? couponFen : 0n;
  let couponUsed = 0n;
  let couponHours = 0;
  for (; i < hours && left > 0n && amounts[i]! <= left; i++) {
    slots[i]!.free = 'coupon';
    left -= amounts[i]!;
    couponUsed += amounts[i]!;
    couponHours++;
  }
  return {
    hours,
    wh: Math.max(0, high - start.wh),
    gross_fen: gross,
    free_fen: free,
    coupon_fen: couponUsed,
    total_fen: gross - free - couponUsed,
    card_hours: cardHours,
    coupon_hours: couponHours,
    slots,
  };
}

/** Why a pile's prices cannot be used ('' when they can): a car pile's bands cover the day, an e-bike's ascend. */
export function pricingProblem(p: ChargePricing): string {
  if (p.kind === 'car') {
    if (p.tou.length === 0) return '请设置分时电价';
    const sorted = [...p.tou].sort((a, b) => minutes(a.start) - minutes(b.start));
    let at = 0;
    for (const b of sorted) {
      if (minutes(b.start) !== at)
        return `分时电价须连续覆盖全天：${String(Math.floor(at / 60)).padStart(2, '0')}:${String(at % 60).padStart(2, '0')} 起未设置或重叠`;
      if (minutes(b.end) <= minutes(b.start)) return `时段 ${b.start}-${b.end} 的结束时间应晚于开始时间`;
      at = minutes(b.end);
    }
    if (at !== 1440) return '分时电价须覆盖到 24:00';
    const byTier = new Map<string, string>();
    for (const b of p.tou) {
      const seen = byTier.get(b.tier);
      if (seen !== undefined && toFen(seen) !== toFen(b.price)) return '同一时段类型（尖峰平谷）的电价须相同';
      byTier.set(b.tier, b.price);
    }
    return '';
  }
  if (p.bands.length === 0) return '请设置功率档位';
  const sorted = [...p.bands].sort((a, b) => a.min_w - b.min_w);
  for (let i = 0; i < sorted.length; i++) {
    const b = sorted[i]!;
    if (b.max_w <= b.min_w) return `功率档 ${b.min_w}-${b.max_w}W 的最大功率应大于最小功率`;
    const next = sorted[i + 1];
    if (next && next.min_w < b.max_w) return '功率档位不能重叠';
    if (next && toFen(next.price) < toFen(b.price)) return '功率越高的档位小时电价不能更低';
  }
  return '';
}
