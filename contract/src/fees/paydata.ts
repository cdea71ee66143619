/**
 * 缴费明细 (/feecounts/feebillpaydata) and 优惠记录 (/feecounts/discountlog), two reports of the
 * 财务报表 group (docs/product.md#pay-data): every paid bill line of every fee item, and every
 * discount granted (an approved application used at a payment, or the cashier's own 减免 on a receipt).
 */
import { z } from 'zod';
import { optionalId, paging, text } from '../common.js';
import { daysBetween } from '../dates.js';
import { valueEnum, wireDay } from '../kit/resource.js';
import { PAY_TYPES } from '../fees.js';
import type { ExportQueued } from '../jobs.js';

/** The longest range either report answers: a year, a leap one included. */
export const PAYDATA_MAX_DAYS = 366;

/** A required range of business days, both included, of at most PAYDATA_MAX_DAYS. */
const range = { start_date: wireDay, end_date: wireDay };
function checkRange(v: { start_date: string; end_date: string }, c: z.RefinementCtx) {
  if (v.start_date > v.end_date) {
    c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
  } else if (daysBetween(v.start_date, v.end_date) + 1 > PAYDATA_MAX_DAYS) {
    c.addIssue({ code: 'custom', path: ['end_date'], message: `日期区间不能超过 ${PAYDATA_MAX_DAYS} 天` });
  }
}

/** A line's state as the data says: its receipt voided (作废), the line refunded, or neither. */
export const PAYDATA_LINE_STATUS = valueEnum({
  normal: { text: '正常', tone: 'success' },
  voided: { text: '已作废', tone: 'default' },
  refunded: { text: '已退款', tone: 'warning' },
});
export type PaydataLineStatus = keyof typeof PAYDATA_LINE_STATUS;

const paydataFilters = {
  /** a fee item (its bills' lines) */
  item_id: optionalId,
  /** a fee category (cost type), e.g. property, water, temp_parking */
  cost_type: z.union([z.literal(''), text(30)]).optional(),
  /** the building of the line's bill */
  bid: optionalId,
  pay_type: z.union([z.literal(''), z.enum(PAY_TYPES)]).optional(),
  /** part of the cashier's name */
  cashier: text(20).optional(),
  /** a room's address or a receipt number (or the payer's name) */
  keyword: text(50).optional(),
};

/** Where a discount comes from. */
export const DISCOUNT_RECORD_KIND = valueEnum({
  request: { text: '优惠申请', tone: 'processing' },
  cashier: { text: '收银台减免', tone: 'default' },
});
export type DiscountRecordKind = keyof typeof DISCOUNT_RECORD_KIND;

/** An application's state as this report names it: used at a payment, approved and not used yet, rejected. */
export const DISCOUNT_RECORD_STATUS = valueEnum({
  used: { text: '已使用', tone: 'success' },
  approved: { text: '待使用', tone: 'processing' },
  rejected: { text: '已驳回', tone: 'error' },
});
export type DiscountRecordStatus = keyof typeof DISCOUNT_RECORD_STATUS;

const discountRecordFilters = {
  kind: z.union([z.literal(''), z.enum(['request', 'cashier'])]).optional(),
  status: z.union([z.literal(''), z.enum(['used', 'approved', 'rejected'])]).optional(),
  /** a room's address or a receipt number */
  keyword: text(50).optional(),
};

export const paydataSchemas = {
  feebillpaydata: z
    .object({ ...range, ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...paydataFilters })
    .superRefine(checkRange),
  feebillpaydataexport: z.object({ ...range, ...paydataFilters }).superRefine(checkRange),
  discountrecordlist: z
    .object({ ...range, ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...discountRecordFilters })
    .superRefine(checkRange),
  discountrecordexport: z.object({ ...range, ...discountRecordFilters }).superRefine(checkRange),
} as const;

/** One paid bill line (a line of a receipt). Money as '0.00' strings. */
export interface PaydataRow {
  /** the receipt line's id */
  id: number;
  payment_id: number;
  receipt_no: string;
  address: string;
  /** who paid (the receipt's payer, the owner as a rule) */
  payer_name: string;
  title: string;
  cost_type: string;
  period: string;
  daterange: string;
  /** the bill's amount */
  fee: string;
  /** the line's share of the receipt's discount */
  discount: string;
  late_fee: string;
  /** fee + late_fee − discount */
  received: string;
  pay_type: string;
  pay_type_ch: string;
  cashier_name: string;
  create_time: string;
  status: PaydataLineStatus;
  status_ch: string;
}

/** The filtered lines' totals, the voided receipts' lines left out (and counted apart). */
export interface PaydataTotals {
  count: number;
  fee: string;
  discount: string;
  late_fee: string;
  received: string;
  /** lines of voided receipts the filters also list, which count nowhere */
  voided: number;
}

/** One discount granted (or an application approved and not used yet, or rejected). */
export interface DiscountRecordRow {
  /** `${kind}-${id}`: the application's id, or the receipt's for a 减免 */
  key: string;
  kind: DiscountRecordKind;
  kind_ch: string;
  /** the application's number (request), 0 for a 减免 */
  request_id: number;
  status: DiscountRecordStatus;
  status_ch: string;
  address: string;
  /** the fee items of the bills it covers */
  titles: string;
  /** their periods (first – last) */
  periods: string;
  /** what the bills came to with their late fees, before the discount */
  receivable: string;
  amount: string;
  /** the basis: the application with its approver and opinion, or the cashier's 减免 with the receipt's remark */
  basis: string;
  cashier_name: string;
  payment_id: number;
  receipt_no: string;
  /** when used at the payment (the receipt's time), else when approved or rejected */
  time: string;
}

export interface DiscountRecordTotals {
  kind: DiscountRecordKind;
  kind_ch: string;
  count: number;
  amount: string;
}

export interface PaydataOutputs {
  feebillpaydata: { items: PaydataRow[]; total: number; totals: PaydataTotals };
  feebillpaydataexport: ExportQueued;
  discountrecordlist: { items: DiscountRecordRow[]; total: number; totals: DiscountRecordTotals[] };
  discountrecordexport: ExportQueued;
}
