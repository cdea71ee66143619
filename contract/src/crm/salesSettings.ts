/**
 * The public pool's rules (公海规则, the first tab of /crm/setcrmsys) and the sales funnel (销售漏斗
 * /crm/intention): docs/product.md#crm-sales.
 */
import { z } from 'zod';
import { int, optionalId, yn } from '../common.js';
import { wireDay } from '../kit/resource.js';
import type { ExportQueued } from '../jobs.js';

export interface CrmPoolSettings {
  pool_enabled: 'Y' | 'N';
  /** days without a follow-up before a held customer goes back to the pool (0 off) */
  pool_follow_days: number;
  /** days held without a deal (认购 or 签约) before it goes back (0 off) */
  pool_deal_days: number;
  /** the consultant's to-do comes this many days before (0 none) */
  pool_warn_days: number;
  /** open customers a consultant may hold (0 no limit) */
  hold_limit: number;
  /** the last queue number given */
  queue_last: number;
  update_time: string;
  updated_by: string;
}

/** The defaults of a community that never saved its rules (the table's defaults). */
export const POOL_DEFAULTS = { pool_enabled: 'Y', pool_follow_days: 15, pool_deal_days: 90, pool_warn_days: 3, hold_limit: 200 } as const;

const poolRules = z
  .object({
    pool_enabled: yn,
    pool_follow_days: int(0, 3650),
    pool_deal_days: int(0, 3650),
    pool_warn_days: int(0, 365),
    hold_limit: int(0, 100000),
  })
  .refine((v) => v.pool_enabled === 'N' || v.pool_follow_days > 0 || v.pool_deal_days > 0, {
    message: '启用公海时，未跟进天数和未成交天数至少填一项（大于 0）',
    path: ['pool_follow_days'],
  })
  .refine((v) => v.pool_warn_days === 0 || [v.pool_follow_days, v.pool_deal_days].filter((d) => d > 0).every((d) => v.pool_warn_days < d), {
    message: '提前提醒天数须小于回收天数',
    path: ['pool_warn_days'],
  });

/** One row of the funnel: a consultant's customers entered in the period and how far they got. */
export interface CrmFunnelRow {
  consultant_id: number | null;
  /** 公海 for customers in the pool */
  consultant_name: string;
  /** customers entered (报备) */
  report: number;
  /** of them, those that reached each stage (or went further) */
  valid: number;
  visit: number;
  pledge: number;
  subscribe: number;
  sign: number;
  invalid: number;
  /** 签约 ÷ 报备, percent with one decimal ('' when none entered) */
  conversion: string;
}

export interface CrmFunnelStage {
  stage: string;
  stage_ch: string;
  count: number;
  /** of the stage before, percent with one decimal */
  rate: string;
}

const funnelFilters = {
  start_date: wireDay,
  end_date: wireDay,
  consultant_id: optionalId,
};
const inOrder = (v: { start_date: string; end_date: string }) => v.start_date <= v.end_date;

export const salesSettingSchemas = {
  crmpoolinfo: z.object({}),
  crmpoolset: poolRules,
  crmfunnel: z.object(funnelFilters).refine(inOrder, { message: '结束日期不能早于开始日期', path: ['end_date'] }),
  crmfunnelexport: z.object(funnelFilters).refine(inOrder, { message: '结束日期不能早于开始日期', path: ['end_date'] }),
} as const;

export type SalesSettingOutputs = {
  crmpoolinfo: CrmPoolSettings;
  crmpoolset: CrmPoolSettings;
  crmfunnel: { stages: CrmFunnelStage[]; rows: CrmFunnelRow[]; total: CrmFunnelRow };
  crmfunnelexport: ExportQueued;
};
