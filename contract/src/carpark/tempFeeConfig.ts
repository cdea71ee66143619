/**
 * Temporary-car fee standards (临时车收费标准, /carpark/tempfee; docs/product.md#temporary-car-fees):
 * one standard per lot and car kind, versioned (an edit adds a version effective from a time), and
 * the "what if" calculator (tempfeecalc) that prices any entry and exit with the version in force at
 * the entry. The pricing itself is the pure function of ./tempFee.ts.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { WIRE_TIME_RE } from '../dates.js';
import { wireDay } from '../kit/resource.js';
import { moneyUpTo } from '../money.js';
import { CAR_TYPE } from '../owners/cars.js';
import type { CarType, TempFeeBreakdown, TempFeeRule } from './tempFee.js';

/** Who keeps the fee standards and uses the calculator (docs/product.md#roles; admin holds all). */
export const TEMP_FEE_ROLES = ['carpark'] as const;

export const CAR_TYPES = ['small', 'large', 'new_energy'] as const;
/** 小型车 / 大型车 / 新能源车: the cars' own enum (owners/cars.ts) */
export const TEMP_FEE_CAR_TYPE = CAR_TYPE;

/** The most a first period, a step or a day's cap may cost. */
const MAX_PRICE_FEN = 10_000_00n;
const price = moneyUpTo(MAX_PRICE_FEN);
const hm = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时段格式应为 HH:mm（如 08:00）');
/** A wire time 'YYYY-MM-DD HH:mm:ss' of the business time zone. */
export const wireTimeText = z
  .string()
  .trim()
  .regex(WIRE_TIME_RE, '时间格式应为 YYYY-MM-DD HH:mm:ss')
  .refine((v) => wireDay.safeParse(v.slice(0, 10)).success && +v.slice(11, 13) < 24 && +v.slice(14, 16) < 60 && +v.slice(17, 19) < 60, {
    message: '时间不存在',
  });

/** The rule fields of a version (what an add or an edit sets). */
export const tempFeeRuleFields = {
  free_minutes: int(0, 1440).default(15),
  first_minutes: int(1, 1440).default(60),
  first_price: price,
  step_minutes: int(1, 1440).default(30),
  step_price: price,
  cap_amount: price.default('0.00'),
  band: yn.default('N'),
  peak_start: hm.default('08:00'),
  peak_end: hm.default('20:00'),
  off_first_price: price.default('0.00'),
  off_step_price: price.default('0.00'),
  holidays: z.array(wireDay).max(60, '节假日最多60天').default([]),
  remark: text(200).default(''),
};

const ruleChecks = <T extends z.ZodObject>(schema: T) =>
  schema.superRefine((v: Record<string, unknown>, ctx) => {
    if (v.band === 'Y' && v.peak_start === v.peak_end)
      ctx.addIssue({ code: 'custom', path: ['peak_end'], message: '高峰时段的开始和结束不能相同' });
  });

/** A version of a standard as its list and detail show it: the pricing's rule and what is said of it. */
export interface TempFeeVersion extends Omit<TempFeeRule, 'holidays'> {
  id: number;
  standard_id: number;
  effective_from: string;
  /** in force now (the latest version that has started) */
  current: boolean;
  holidays: string[];
  remark: string;
  /** the rule in words: 免费15分钟；首60分钟5.00元，之后每30分钟2.00元；24小时封顶30.00元 */
  summary: string;
  create_user: string;
  create_time: string;
}

export interface TempFeeStandardItem extends Omit<TempFeeVersion, 'id' | 'standard_id' | 'current'> {
  id: number;
  lot_id: number;
  lot_title: string;
  car_type: CarType;
  car_type_ch: string;
  /** the version in force now (or the first, when every version starts later) */
  version_id: number;
  version_count: number;
  /** a version that starts later, if any */
  next_from: string;
}

export interface TempFeeCalcAnswer extends TempFeeBreakdown {
  standard_id: number;
  version_id: number;
  version_from: string;
  lot_title: string;
  car_type_ch: string;
  coupon_titles: string[];
}

export const tempFeeSchemas = {
  tempfeeconfiglist: z.object({
    ...paging,
    lot_id: optionalId,
    car_type: z.enum(['', ...CAR_TYPES]).optional(),
  }),
  tempfeeconfiginfo: z.object({ id }),
  tempfeeconfigadd: ruleChecks(z.object({ lot_id: id, car_type: z.enum(CAR_TYPES, { message: '请选择车辆类型' }), ...tempFeeRuleFields })),
  /** a new version from effective_from ('' or absent: now); versions already made never change */
  tempfeeconfigedit: ruleChecks(z.object({ id, effective_from: z.union([z.literal(''), wireTimeText]).optional(), ...tempFeeRuleFields })),
  tempfeeconfigdel: z.object({ id }),
  tempfeecalc: z.object({
    lot_id: id,
    car_type: z.enum(CAR_TYPES, { message: '请选择车辆类型' }),
    entry_time: wireTimeText,
    exit_time: wireTimeText,
    /** coupon kinds of the lot (parkcouponlist) to apply */
    coupon_ids: z.array(id).max(5, '最多同时使用5张停车劵').default([]),
  }),
} as const;

export type TempFeeOutputs = {
  tempfeeconfiglist: { items: TempFeeStandardItem[]; total: number };
  tempfeeconfiginfo: TempFeeStandardItem & { versions: TempFeeVersion[] };
  tempfeeconfigadd: { id: number };
  tempfeeconfigedit: { id: number; version_id: number };
  tempfeeconfigdel: null;
  tempfeecalc: TempFeeCalcAnswer;
};

/** A rule in one line (the list's and the versions' 规则 column). */
export function tempFeeSummary(v: {
  free_minutes: number;
  first_minutes: number;
  first_price: string;
  step_minutes: number;
  step_price: string;
  cap_amount: string;
  band: string;
  peak_start: string;
  peak_end: string;
  off_first_price: string;
  off_step_price: string;
}): string {
  const parts = [
    v.free_minutes > 0 ? `免费${v.free_minutes}分钟` : '不免费',
    `首${v.first_minutes}分钟${v.first_price}元，之后每${v.step_minutes}分钟${v.step_price}元`,
  ];
  if (v.band === 'Y') parts.push(`工作日${v.peak_start}–${v.peak_end}外及节假日：首段${v.off_first_price}元，每段${v.off_step_price}元`);
  parts.push(v.cap_amount === '0.00' ? '不封顶' : `24小时封顶${v.cap_amount}元`);
  return parts.join('；');
}
