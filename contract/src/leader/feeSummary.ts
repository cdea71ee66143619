import { z } from 'zod';
import { id, optionalId } from '../common.js';
import type { FileAnswer } from '../files.js';
import type { PropertyPayCountRow, PropertyPayCountTotals } from '../fees.js';
import { period } from '../fees.js';

/**
 * 集团收费汇总 (/leader/feecount, docs/product.md#group-fee-summary): one row per community of the
 * group for a range of periods, with the figures of each community's own 物业费收缴统计
 * (propertypaycount) over the same range, so a row and the community's report agree to the fen.
 */

/** The longest range the summary and the trend answer: three years of months. */
export const GROUP_FEE_MAX_MONTHS = 36;

const monthsOf = (p: string) => Number(p.slice(0, 4)) * 12 + Number(p.slice(5, 7)) - 1;

const range = { start_period: period, end_period: period };

/** start..end: start not after end, at most GROUP_FEE_MAX_MONTHS months. */
function checkedRange<T extends z.ZodRawShape>(shape: T) {
  return z.object({ ...range, ...shape }).superRefine((input, c) => {
    const v = input as unknown as { start_period: string; end_period: string };
    if (v.start_period > v.end_period) {
      c.addIssue({ code: 'custom', path: ['end_period'], message: '开始账期不能晚于结束账期' });
    } else if (monthsOf(v.end_period) - monthsOf(v.start_period) + 1 > GROUP_FEE_MAX_MONTHS) {
      c.addIssue({ code: 'custom', path: ['end_period'], message: `账期区间不能超过 ${GROUP_FEE_MAX_MONTHS} 个月` });
    }
  });
}

/** The columns the summary may be ranked by (收费率 by default). */
export const GROUP_FEE_RANK_BY = ['rate', 'household_rate', 'clear_rate', 'received_current', 'receivable'] as const;
export type GroupFeeRankBy = (typeof GROUP_FEE_RANK_BY)[number];

/**
 * The formulas, as the column headers' tooltips and docs/product.md#group-fee-summary give them.
 * All figures are of the property fee (cost type 物业费), as 物业费收缴统计's.
 */
export const GROUP_FEE_FORMULAS = {
  households: '收费户：区间内有物业费账单的房屋数',
  paying_households: '缴费户 = 收费户 − 欠费户：区间内物业费账单已全部缴清的房屋数',
  owing_households: '欠费户：区间内物业费账单至今仍有未缴的房屋数',
  arrears_before: '历史欠费：区间首日前账期的物业费在区间首日时未缴的金额（与物业费收缴统计的“期初欠费”相同）',
  recovered: '欠费追回：区间内收款中属于区间之前账期的物业费（物业费收缴统计的“其中清欠”）',
  receivable: '当期应收：区间内各账期的物业费账单金额',
  received_current: '当期实收：区间内收款中属于区间内账期的物业费（物业费收缴统计的“其中当期”）',
  prepaid: '预交：区间内收款中属于区间之后账期的物业费（物业费收缴统计的“其中预收”）',
  household_rate: '户收费率 = 缴费户 ÷ 收费户 × 100%',
  rate: '收费率 = 当期实收 ÷ 当期应收 × 100%',
  clear_rate: '清缴率 = 欠费追回 ÷ 历史欠费 × 100%',
} as const;

export const feeSummarySchemas = {
  /** 集团收费汇总: every community of the group for start..end, ranked by `rank_by` */
  leaderfeesummary: checkedRange({ rank_by: z.enum(GROUP_FEE_RANK_BY).default('rate') }),
  /** the same rows as an Excel workbook, answered in the call ({ filename, content_base64 }) */
  leaderfeesummaryexport: checkedRange({ rank_by: z.enum(GROUP_FEE_RANK_BY).default('rate') }),
  /** one community's (or, without rid, the group's) figures month by month over start..end */
  leaderfeetrend: checkedRange({ rid: optionalId }),
  /** one community's 物业费收缴统计 for start..end, per building and unit: the row's drill-down */
  leaderfeedetail: checkedRange({ rid: id }),
} as const;

/** A community's (or the total's) figures; money as decimal strings, rates as percents with two decimals. */
export interface GroupFeeFigures {
  households: number;
  paying_households: number;
  owing_households: number;
  arrears_before: string;
  recovered: string;
  receivable: string;
  received_current: string;
  prepaid: string;
  /** received_current + recovered + prepaid: all the property fee taken in the range */
  received: string;
  household_rate: string;
  rate: string;
  clear_rate: string;
}

export interface GroupFeeRow extends GroupFeeFigures {
  rid: number;
  title: string;
  /** 1 = best by rank_by; equal figures share a rank */
  rank: number;
}

export interface GroupFeeTrendRow {
  month: string;
  receivable: string;
  received_current: string;
  /** the property fee taken in the month, whatever the bill's period */
  received: string;
  rate: string;
}

export interface FeeSummaryOutputs {
  leaderfeesummary: {
    start_period: string;
    end_period: string;
    rank_by: GroupFeeRankBy;
    items: GroupFeeRow[];
    totals: GroupFeeFigures;
  };
  leaderfeesummaryexport: FileAnswer;
  leaderfeetrend: { rid: number; title: string; items: GroupFeeTrendRow[] };
  leaderfeedetail: { rid: number; title: string; items: PropertyPayCountRow[]; totals: PropertyPayCountTotals };
}
