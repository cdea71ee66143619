/**
 * Scores (管家评分: /steward/scorelist; docs/product.md#steward-scores): a household's score of a
 * staff member on an assessment item for a month (1–5; a re-score replaces it), the summary per
 * profile for a year, a quarter or a month (per-item averages, weighted total, households rated
 * against served, low scores, the repair and complaint ratings, rank), its details and export.
 */
import { z } from 'zod';
import { id, int, optionalId, text } from '../common.js';
import type { ExportQueued } from '../jobs.js';
import { valueEnum } from '../kit/resource.js';
import type { StewardPost } from './profiles.js';

/** A score is 1 to 5; 2 or less is a low score (差评). */
export const SCORE_MAX = 5;
export const LOW_SCORE = 2;

export const PERIOD_TYPE = valueEnum({ year: { text: '按年' }, quarter: { text: '按季' }, month: { text: '按月' } });
export const SERVICE_RATING_SOURCE = valueEnum({ repair: { text: '维修评价' }, complaint: { text: '投诉评价' } });
export type ServiceRatingSource = keyof typeof SERVICE_RATING_SOURCE;

/** Years 2000–2100, as the fee periods (contract/src/fees.ts `period`). */
const YEAR = '(20\\d{2}|2100)';
const MONTH_RE = new RegExp(`^${YEAR}-(0[1-9]|1[0-2])$`);
export const scoreMonth = z.string().trim().regex(MONTH_RE, '月份格式应为 2000-01 至 2100-12 之间的 YYYY-MM');

/** The months of a period: '2026' (12), '2026-Q4' (3) or '2026-11' (1); null when it does not parse. */
export function periodMonths(type: 'year' | 'quarter' | 'month', period: string): string[] | null {
  if (type === 'year') {
    if (!new RegExp(`^${YEAR}$`).test(period)) return null;
    return Array.from({ length: 12 }, (_, i) => `${period}-${String(i + 1).padStart(2, '0')}`);
  }
  if (type === 'quarter') {
    const m = new RegExp(`^${YEAR}-Q([1-4])$`).exec(period);
    if (!m) return null;
    const first = (Number(m[2]) - 1) * 3 + 1;
    return [0, 1, 2].map((i) => `${m[1]}-${String(first + i).padStart(2, '0')}`);
  }
  return MONTH_RE.test(period) ? [period] : null;
}

/** 2026年 / 2026年第4季度 / 2026年11月 */
export function periodLabel(type: 'year' | 'quarter' | 'month', period: string): string {
  if (type === 'year') return `${period}年`;
  if (type === 'quarter') return `${period.slice(0, 4)}年第${period.slice(6)}季度`;
  return `${period.slice(0, 4)}年${Number(period.slice(5, 7))}月`;
}

const periodShape = {
  period_type: z.enum(['year', 'quarter', 'month'], { message: '请选择统计周期' }).default('month'),
  period: z.string().trim().min(1, '请选择统计周期').max(7),
};
const periodCheck = (v: { period_type: 'year' | 'quarter' | 'month'; period: string }, ctx: z.RefinementCtx) => {
  if (!periodMonths(v.period_type, v.period))
    ctx.addIssue({
      code: 'custom',
      path: ['period'],
      message:
        v.period_type === 'year'
          ? '年份格式应为 2000 至 2100 之间的 YYYY'
          : v.period_type === 'quarter'
            ? '季度格式应为 YYYY-Q1 到 YYYY-Q4（2000 至 2100 年）'
            : '月份格式应为 2000-01 至 2100-12 之间的 YYYY-MM',
    });
};

const summaryInput = z
  .object({
    ...periodShape,
    post: z.union([z.literal(''), z.enum(['GJ', 'KF', 'GC', 'ZX', 'BJ'])]).optional(),
    keyword: text(30).optional().default(''),
  })
  .superRefine(periodCheck);

const detailInput = z
  .object({
    ...periodShape,
    profile_id: optionalId,
    item_id: optionalId,
    bid: optionalId,
    low_only: z.boolean().optional().default(false),
    page: int(1, 100000).default(1),
    limit: int(1, 200).default(10),
  })
  .superRefine(periodCheck);

export interface ScoreItemFigure {
  item_id: number;
  name: string;
  /** weight in percent ('40') */
  weight: string;
  /** average of the item's scores in the period, 2 decimals ('4.50'); '' when none */
  avg: string;
  count: number;
}

export interface ScoreSummaryRow {
  /** 1 for the best; ties share a rank; null without any score or rating */
  rank: number | null;
  profile_id: number;
  account_id: number;
  name: string;
  photo: string;
  post: StewardPost;
  post_ch: string;
  areas_text: string;
  items: ScoreItemFigure[];
  /** Σ(item average × weight) over the items scored, re-weighted to 100 %; '' when none */
  weighted_total: string;
  /** households that scored the staff member in the period */
  rated_households: number;
  /** households served now */
  served_households: number;
  /** rated / served, percent with one decimal ('37.5'); '' when none served */
  coverage: string;
  /** item scores of 2 or less */
  low_count: number;
  repair_avg: string;
  repair_count: number;
  complaint_avg: string;
  complaint_count: number;
  /** the figure ranked: the weighted total and the ticket ratings, one vote per household and per rated ticket */
  overall: string;
}

export interface ScoreSummaryAnswer {
  period_type: 'year' | 'quarter' | 'month';
  period: string;
  period_label: string;
  /** the items any listed profile applies, for the table's columns */
  columns: Array<{ item_id: number; name: string }>;
  items: ScoreSummaryRow[];
  total: number;
}

export interface ScoreDetailRow {
  id: number;
  hid: number;
  address: string;
  /** the household's owner, masked (王*明) */
  owner_name: string;
  profile_id: number;
  staff_name: string;
  item_id: number;
  item_name: string;
  score: number;
  content: string;
  period: string;
  /** who entered it on the household's behalf */
  entered_by: string;
  update_time: string;
}

export const scoreSchemas = {
  scoreadd: z.object({
    profile_id: id,
    hid: id,
    period: scoreMonth,
    scores: z
      .array(z.object({ item_id: id, score: int(1, SCORE_MAX) }))
      .min(1, '请为至少一个考核项目评分')
      .max(30)
      .refine((v) => new Set(v.map((s) => s.item_id)).size === v.length, { message: '考核项目不能重复' }),
    content: text(500).optional().default(''),
  }),
  scorelist: summaryInput,
  scoreexport: summaryInput,
  scoredetail: detailInput,
} as const;

export type ScoreOutputs = {
  scoreadd: { replaced: number; added: number };
  scorelist: ScoreSummaryAnswer;
  scoreexport: ExportQueued;
  scoredetail: { items: ScoreDetailRow[]; total: number };
};
