/**
 * 报修统计 (/feecounts/repaircount; docs/product.md#repair-count): a period's repair figures grouped
 * by type, by handler, by day or by month, with a totals row; each figure counts its own event in
 * the period (registered, finished, accepted, rated, breached).
 */
import { z } from 'zod';
import type { ExportQueued } from '../jobs.js';
import { valueEnum, wireDay } from '../kit/resource.js';

export const REPAIR_COUNT_GROUP = valueEnum({
  type: { text: '按类型' },
  handler: { text: '按处理人' },
  day: { text: '按日' },
  month: { text: '按月' },
});
export type RepairCountGroup = keyof typeof REPAIR_COUNT_GROUP;

const countInput = z
  .object({
    start_date: wireDay,
    end_date: wireDay,
    group: z.enum(['type', 'handler', 'day', 'month'], { message: '统计方式无效' }).default('type'),
  })
  .superRefine((v, c) => {
    if (v.start_date > v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
    else if (Date.parse(v.end_date) - Date.parse(v.start_date) > 366 * 86_400_000)
      c.addIssue({ code: 'custom', path: ['end_date'], message: '统计区间不能超过一年' });
  });

/** One group's figures (the totals row has key '' and label 合计). */
export interface RepairCountRow {
  key: string;
  label: string;
  /** registered in the period */
  created: number;
  /** finished in the period */
  finished: number;
  /** of those, finished by the finish deadline (pauses added to it) */
  ontime: number;
  /** tickets whose first breach (accept or finish) fell in the period */
  overdue: number;
  /** accepted in the period: hours from the (last) dispatch to the acceptance, 1 decimal; '' when none */
  accept_hours: string;
  /** finished in the period: hours from registration to finish less the pauses, 1 decimal; '' when none */
  finish_hours: string;
  /** rated in the period */
  rated: number;
  /** average overall rating, 2 decimals; '' when none */
  rating_avg: string;
  /** ratings of 4 or 5 ÷ rated, a percentage with 1 decimal; '' when none */
  satisfaction: string;
}

export interface RepairCountAnswer {
  items: RepairCountRow[];
  totals: RepairCountRow;
}

export const repairCountSchemas = {
  repaircount: countInput,
  repaircountexport: countInput,
  repairdashboard: z.object({}),
} as const;

export type RepairCountOutputs = {
  repaircount: RepairCountAnswer;
  repaircountexport: ExportQueued;
  repairdashboard: RepairDashboard;
};

/** The repair desk's card on the home page (repairdashboard): open tickets, overdue open ones, registered today. */
export interface RepairDashboard {
  open: number;
  overdue: number;
  today: number;
}
