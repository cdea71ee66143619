/**
 * 营业统计 (/feecounts/businesscount, the first report of the businesscount group;
 * docs/product.md#businesscount): the counter's business of a range of business days per 收款人 (each
 * cashier's account, and 线上 for the receipts no cashier took) × 支付方式: receipts, refunds and
 * voids, with each cashier's subtotal, the grand total and the same figures per day. The figures
 * are those of 交班 (modules/fees/shifts.ts) and 收款统计 (paymentstatis), to the fen.
 */
import { z } from 'zod';
import { daysBetween } from '../dates.js';
import type { ExportQueued } from '../jobs.js';
import { wireDay } from '../kit/resource.js';
import type { PayTypeName } from '../fees.js';

/** Who reads 营业统计: the businesscount group's code, and finance (admin always passes). */
export const BUSINESSCOUNT_ROLES = ['businesscounts', 'financecount'] as const;

/** The longest range the report answers: a quarter. */
export const BUSINESSCOUNT_MAX_DAYS = 92;

/** The 收款人 of the receipts no cashier took (paid by the owner online: scan to pay, the owner app). */
export const ONLINE_PAYEE = '线上';

/** A range of business days, both included; both empty: today (the server's). */
const range = z
  .object({
    start_date: z.union([z.literal(''), z.null(), wireDay]).optional(),
    end_date: z.union([z.literal(''), z.null(), wireDay]).optional(),
  })
  .superRefine((v, c) => {
    if (!v.start_date || !v.end_date) return;
    if (v.start_date > v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
    else if (daysBetween(v.start_date, v.end_date) + 1 > BUSINESSCOUNT_MAX_DAYS) {
      c.addIssue({ code: 'custom', path: ['end_date'], message: `日期区间不能超过 ${BUSINESSCOUNT_MAX_DAYS} 天` });
    }
  });

export const businessCountSchemas = {
  /** 营业统计: the range's receipts, refunds and voids per 收款人 × 支付方式, and per day */
  businesscount: range,
  /** 营业统计 as a workbook through the download centre */
  businesscountexport: range,
} as const;

/** The figures of a row: receipts not voided, refunds approved (the part back the way it came), receipts voided. */
export interface BusinessFigures {
  /** 收款笔数: receipts made in the range, not voided */
  receipts: number;
  /** 收款金额: Σ their 实收 */
  receipts_amount: string;
  /** 退款笔数: refunds approved in the range */
  refunds: number;
  /** 退款金额: Σ what they returned the way it was paid (what went back to the balance is not money out) */
  refunds_amount: string;
  /** 作废笔数: receipts voided in the range */
  voided: number;
  /** 作废金额: Σ their 实收 (not in 收款金额) */
  voided_amount: string;
  /** 净收款 = 收款金额 − 退款金额 */
  net: string;
}

export interface BusinessMethodRow extends BusinessFigures {
  pay_type: PayTypeName;
  pay_type_ch: string;
  /** the group's rule for the method (支付方式, paytypelist): N, its money is not in 计入实收 */
  counted: 'Y' | 'N';
  /** 其中: the part of it taken by each of the group's own ways on it (自定义支付方式), in the group's order */
  ways: BusinessWayRow[];
}

export interface BusinessWayRow extends BusinessFigures {
  method_id: number;
  /** its current name */
  name: string;
}

export interface BusinessPayeeRow extends BusinessFigures {
  /** the cashier's account; null: 线上 */
  cashier_id: number | null;
  cashier_name: string;
  /** per 支付方式, in the order of the pay types */
  methods: BusinessMethodRow[];
}

export interface BusinessDayRow extends BusinessFigures {
  day: string;
}

export interface BusinessCountAnswer {
  start_date: string;
  end_date: string;
  /** each 收款人 with any receipt, refund or void in the range; the cashiers by name, 线上 last */
  payees: BusinessPayeeRow[];
  totals: BusinessFigures;
  /** 计入实收: 净收款 of the methods the group counts in 实收 (paytypelist; the balance's deductions are not, by default) */
  counted_net: string;
  /** each day of the range with any figure, oldest first */
  days: BusinessDayRow[];
}

export interface BusinessCountOutputs {
  businesscount: BusinessCountAnswer;
  businesscountexport: ExportQueued;
}
