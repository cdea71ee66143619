/**
 * The temporary-car fee: ONE pure function (docs/product.md#temporary-car-fees). No I/O, no clock,
 * no time-zone lookups: entry and exit are wall-clock wire times of the community's business time
 * zone ('YYYY-MM-DD HH:mm:ss'; the zones are fixed offsets, so wall-clock minutes are real minutes),
 * money is integer fen (bigint) inside and decimal text outside.
 *
 * The rules, in order:
 * 1. The stay lasts ceil(seconds / 60) minutes: a started minute counts.
 * 2. Coupons before pricing: a full waiver (全免) makes the stay free; minutes off (减时) shorten it
 *    from its end (the stay is priced as if it left that many minutes earlier).
 * 3. Free minutes are a threshold: a (shortened) stay of at most free_minutes costs nothing; a
 *    longer one pays from minute 0.
 * 4. The stay is cut into 24-hour windows from the entry. Each window is priced afresh: its first
 *    period (first_minutes, charged whole once started), then every step_minutes a step price
 *    (a started step is charged whole). A unit costs the price of the band its start falls in:
 *    peak (weekday, not a holiday of the standard, inside [peak_start, peak_end)) at the day
 *    prices, otherwise the off-peak prices; with bands off every unit costs the day prices.
 * 5. Each window is capped at cap_amount (0: no cap); what the cap removes is `capped`.
 * 6. Then amounts off (减免金额), each never below zero; then discounts (折扣), each
 *    due × rate rounded half up to the fen (¥0.50 at 0.70 is ¥0.35, never free).
 */
import { fenToYuan, mulDivRoundHalfUp, toFen } from '../money.js';

export type CarType = 'small' | 'large' | 'new_energy';
export type CouponKind = 'minutes' | 'amount' | 'discount' | 'free';
export type Band = 'peak' | 'off';

/** One version of a fee standard, as the pricing needs it (money as decimal text). */
export interface TempFeeRule {
  free_minutes: number;
  first_minutes: number;
  first_price: string;
  step_minutes: number;
  step_price: string;
  /** the most one 24-hour window costs; '0.00' means no cap */
  cap_amount: string;
  /** 'Y': peak and off-peak bands; 'N': the day prices all the time */
  band: 'Y' | 'N';
  /** 'HH:mm' */
  peak_start: string;
  peak_end: string;
  off_first_price: string;
  off_step_price: string;
  /** 'YYYY-MM-DD' days priced off-peak all day */
  holidays: readonly string[];
}

/** A coupon presented at the exit: kind and face value. */
export interface TempFeeCoupon {
  id?: number;
  title?: string;
  kind: CouponKind;
  /** minutes off (kind minutes) */
  minutes?: number;
  /** yuan off (kind amount), decimal text */
  amount?: string;
  /** the rate to pay (kind discount), 0 < rate < 1, at most two decimals ('0.70' = 7折) */
  rate?: string;
}

/** One 24-hour window of the priced stay. */
export interface TempFeeWindow {
  from: string;
  to: string;
  minutes: number;
  first_band: Band;
  first_price: string;
  peak_steps: number;
  off_steps: number;
  steps_amount: string;
  raw: string;
  capped: string;
  amount: string;
}

export interface TempFeeCouponEffect {
  id?: number;
  title?: string;
  kind: CouponKind;
  /** what it took off the fee */
  effect: string;
  /** minutes it took off the stay (kind minutes) */
  minutes: number;
}

export interface TempFeeBreakdown {
  entry: string;
  exit: string;
  /** the whole stay, in started minutes */
  duration_minutes: number;
  /** minutes the coupons took off */
  coupon_minutes: number;
  /** the minutes priced */
  billed_minutes: number;
  /** minutes the free threshold let off: the whole (shortened) stay when within it, else 0 */
  free_minutes: number;
  /** the first periods */
  normal: string;
  /** what lies beyond the first periods (the steps) */
  over: string;
  /** what the 24-hour caps removed */
  capped: string;
  /** normal + over − capped */
  gross: string;
  coupons: TempFeeCouponEffect[];
  /** what the coupons removed in all, minutes off included */
  coupon_amount: string;
  due: string;
  paid: string;
  windows: TempFeeWindow[];
}

const WINDOW = 1440;
/** A stay longer than this is refused: nobody leaves a car a year in a temporary space. */
export const MAX_STAY_MINUTES = 366 * WINDOW;
const RATE_RE = /^0?\.\d{1,2}$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' -> wall-clock minutes since the epoch (whole; seconds kept apart). */
function wallMs(t: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(t);
  if (!m) throw new Error(`时间格式不正确：${t}`);
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

function wallText(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** 'HH:mm' -> minutes of the day. */
export function minuteOfDay(hm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hm);
  if (!m || +m[1]! > 23 || +m[2]! > 59) throw new Error(`时段格式不正确：${hm}`);
  return +m[1]! * 60 + +m[2]!;
}

/** The band of a wall-clock instant under a rule. */
export function bandAt(rule: TempFeeRule, ms: number): Band {
  if (rule.band !== 'Y') return 'peak';
  const d = new Date(ms);
  const dow = d.getUTCDay();
  if (dow === 0 || dow === 6) return 'off';
  const day = wallText(ms).slice(0, 10);
  if (rule.holidays.includes(day)) return 'off';
  const m = d.getUTCHours() * 60 + d.getUTCMinutes();
  const s = minuteOfDay(rule.peak_start);
  const e = minuteOfDay(rule.peak_end);
  // a window over midnight (20:00–08:00) is read as two pieces
  const inside = s < e ? m >= s && m < e : s > e ? m >= s || m < e : false;
  return inside ? 'peak' : 'off';
}

/** A discount's rate in hundredths ('0.7' -> 70); throws outside 0 < rate < 1. */
export function rateHundredths(rate: string): number {
  const s = rate.trim();
  if (!RATE_RE.test(s)) throw new Error(`折扣格式不正确：${rate}`);
  const h = Number((s.split('.')[1] ?? '').padEnd(2, '0'));
  if (h <= 0 || h >= 100) throw new Error(`折扣须大于0且小于1：${rate}`);
  return h;
}

interface Priced {
  normal: bigint;
  over: bigint;
  capped: bigint;
  windows: TempFeeWindow[];
}

/** The stay [start, start + minutes) priced by rules 4 and 5 (no free threshold, no coupons). */
function priceMinutes(rule: TempFeeRule, startMs: number, minutes: number): Priced {
  const firstDay = toFen(rule.first_price);
  const firstOff = toFen(rule.off_first_price);
  const stepDay = toFen(rule.step_price);
  const stepOff = toFen(rule.off_step_price);
  const cap = toFen(rule.cap_amount);
  let normal = 0n;
  let over = 0n;
  let capped = 0n;
  const windows: TempFeeWindow[] = [];
  for (let w = 0; w * WINDOW < minutes; w++) {
    const from = startMs + w * WINDOW * 60000;
    const len = Math.min(WINDOW, minutes - w * WINDOW);
    const firstBand = bandAt(rule, from);
    const first = firstBand === 'peak' ? firstDay : firstOff;
    let peakSteps = 0;
    let offSteps = 0;
    let steps = 0n;
    for (let at = rule.first_minutes; at < len; at += rule.step_minutes) {
      if (bandAt(rule, from + at * 60000) === 'peak') {
        peakSteps++;
        steps += stepDay;
      } else {
        offSteps++;
        steps += stepOff;
      }
    }
    const raw = first + steps;
    const cut = cap > 0n && raw > cap ? raw - cap : 0n;
    normal += first;
    over += steps;
    capped += cut;
    windows.push({
      from: wallText(from),
      to: wallText(from + len * 60000),
      minutes: len,
      first_band: firstBand,
      first_price: fenToYuan(first),
      peak_steps: peakSteps,
      off_steps: offSteps,
      steps_amount: fenToYuan(steps),
      raw: fenToYuan(raw),
      capped: fenToYuan(cut),
      amount: fenToYuan(raw - cut),
    });
  }
  return { normal, over, capped, windows };
}

/** The fee of `minutes` under the free threshold: 0 within it, else the priced stay. */
function grossOf(rule: TempFeeRule, startMs: number, minutes: number): { gross: bigint; priced: Priced; free: boolean } {
  if (minutes <= rule.free_minutes) return { gross: 0n, priced: { normal: 0n, over: 0n, capped: 0n, windows: [] }, free: true };
  const priced = priceMinutes(rule, startMs, minutes);
  return { gross: priced.normal + priced.over - priced.capped, priced, free: false };
}

/** Checks a rule's shape the way the pricing needs it (the contract's schema checks the same on input). */
function checkRule(rule: TempFeeRule): void {
  if (!Number.isInteger(rule.free_minutes) || rule.free_minutes < 0) throw new Error('免费分钟数不正确');
  if (!Number.isInteger(rule.first_minutes) || rule.first_minutes < 1) throw new Error('首段分钟数须为正整数');
  if (!Number.isInteger(rule.step_minutes) || rule.step_minutes < 1) throw new Error('续段分钟数须为正整数');
  minuteOfDay(rule.peak_start);
  minuteOfDay(rule.peak_end);
}

/**
 * Prices a stay: the breakdown of rules 1–6 above. Throws (with a Chinese message) on an exit
 * before the entry, a stay over MAX_STAY_MINUTES, or a malformed coupon.
 */
export function priceTempFee(rule: TempFeeRule, entry: string, exit: string, coupons: readonly TempFeeCoupon[] = []): TempFeeBreakdown {
  checkRule(rule);
  const startMs = wallMs(entry);
  const endMs = wallMs(exit);
  if (endMs < startMs) throw new Error('出场时间不能早于入场时间');
  const duration = Math.ceil((endMs - startMs) / 60000);
  if (duration > MAX_STAY_MINUTES) throw new Error('停车时长超过366天，无法计费');

  const full = grossOf(rule, startMs, duration);
  const effects: TempFeeCouponEffect[] = coupons.map((c) => ({ id: c.id, title: c.title, kind: c.kind, effect: '0.00', minutes: 0 }));
  const waived = coupons.some((c) => c.kind === 'free');

  // minutes off: shorten the stay from its end, together
  let minutesOff = 0;
  coupons.forEach((c, i) => {
    if (c.kind !== 'minutes') return;
    if (!Number.isInteger(c.minutes) || (c.minutes ?? 0) <= 0) throw new Error('减时券的分钟数须为正整数');
    effects[i]!.minutes = waived ? 0 : Math.min(c.minutes!, Math.max(0, duration - minutesOff));
    minutesOff += effects[i]!.minutes;
  });
  const billed = duration - minutesOff;
  const priced = grossOf(rule, startMs, billed);
  // each minutes-off coupon's share: the fee it removed, coupon by coupon in the order given
  {
    let before = full.gross;
    let left = duration;
    coupons.forEach((c, i) => {
      if (c.kind !== 'minutes' || waived) return;
      left -= effects[i]!.minutes;
      const after = grossOf(rule, startMs, left).gross;
      effects[i]!.effect = fenToYuan(before - after);
      before = after;
    });
  }

  let due = priced.gross;
  if (waived) {
    const i = coupons.findIndex((c) => c.kind === 'free');
    effects[i]!.effect = fenToYuan(full.gross);
    due = 0n;
  }
  coupons.forEach((c, i) => {
    if (c.kind !== 'amount') return;
    const off = toFen(c.amount ?? 'x');
    if (off <= 0n) throw new Error('减免金额须大于0');
    const cut = off < due ? off : due;
    due -= cut;
    effects[i]!.effect = fenToYuan(cut);
  });
  coupons.forEach((c, i) => {
    if (c.kind !== 'discount') return;
    const h = rateHundredths(c.rate ?? '');
    const after = mulDivRoundHalfUp(due, BigInt(h), 100n);
    effects[i]!.effect = fenToYuan(due - after);
    due = after;
  });

  return {
    entry,
    exit,
    duration_minutes: duration,
    coupon_minutes: minutesOff,
    billed_minutes: billed,
    free_minutes: priced.free ? billed : 0,
    normal: fenToYuan(priced.priced.normal),
    over: fenToYuan(priced.priced.over),
    capped: fenToYuan(priced.priced.capped),
    gross: fenToYuan(priced.gross),
    coupons: effects,
    coupon_amount: fenToYuan(full.gross - due),
    due: fenToYuan(due),
    paid: '0.00',
    windows: priced.priced.windows,
  };
}

/** A coupon's face as one text: 减30分钟, 减5.00元, 7折, 全免. */
export function couponFace(c: { kind: CouponKind; minutes?: number | null; amount?: string | null; rate?: string | null }): string {
  switch (c.kind) {
    case 'minutes':
      return `减${c.minutes ?? 0}分钟`;
    case 'amount':
      return `减${c.amount ?? '0.00'}元`;
    case 'discount': {
      return `${rateHundredths(c.rate ?? '0.99') / 10}折`;
    }
    case 'free':
      return '全免';
  }
}
