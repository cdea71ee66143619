/**
 * 维保 (docs/product.md#equipment-ledger): standards (check items, /carpark/maintainstandard),
 * plans (assets, staff, a cycle, /carpark/maintainplan) and the tasks a job generates on their days
 * (/carpark/maintaintask). A task is done with notes, each check item passed or failed, and
 * photos; a failed item opens an internal work order (内部工单) linked to the task.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text } from '../common.js';
import { photoList } from '../files.js';
import type { ListAnswer } from '../codes.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { ASSET_ROLES } from './roles.js';

export const MAINTAIN_CYCLE = valueEnum({
  M: { text: '每月固定日', tone: 'processing' },
  W: { text: '每周固定日', tone: 'processing' },
  N: { text: '每 N 天', tone: 'default' },
});
export type MaintainCycle = keyof typeof MAINTAIN_CYCLE;

export const PLAN_ENABLED = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** A task's state: O is P whose day has passed (逾期), worked out on every read. */
export const MAINTAIN_TASK_STATUS = valueEnum({
  P: { text: '待执行', tone: 'processing' },
  O: { text: '已逾期', tone: 'error' },
  Y: { text: '已完成', tone: 'success' },
  F: { text: '完成有异常', tone: 'warning' },
});
export type MaintainTaskStatus = keyof typeof MAINTAIN_TASK_STATUS;

export const WEEKDAY_TEXT = ['', '周一', '周二', '周三', '周四', '周五', '周六', '周日'] as const;

/** The words of a plan's cycle: 每月 1、15 日 / 每周一、周四 / 每 7 天. */
export function cycleText(cycle: MaintainCycle, days: readonly number[], every: number): string {
  const sorted = [...days].sort((a, b) => a - b);
  if (cycle === 'M') return `每月 ${sorted.join('、')} 日`;
  if (cycle === 'W') return `每${sorted.map((d) => WEEKDAY_TEXT[d]).join('、')}`;
  return `每 ${every} 天`;
}

/**
 * Is `day` (YYYY-MM-DD) a day of the cycle? M: its day of the month is listed (a month without
 * the 31st has no task that day); W: its ISO weekday (1 Monday … 7 Sunday) is listed; N: a whole
 * number of N-day steps after the start.
 */
export function isCycleDay(cycle: MaintainCycle, days: readonly number[], every: number, start: string, day: string): boolean {
  if (day < start) return false;
  const d = new Date(`${day}T00:00:00Z`);
  if (cycle === 'M') return days.includes(d.getUTCDate());
  if (cycle === 'W') return days.includes(((d.getUTCDay() + 6) % 7) + 1);
  const diff = Math.round((d.getTime() - new Date(`${start}T00:00:00Z`).getTime()) / 86_400_000);
  return diff % every === 0;
}

export interface MaintainStandardItem {
  id: number;
  name: string;
  category_id: number | null;
  category_name: string;
  items: string[];
  item_count: number;
  remark: string;
  plan_count: number;
  create_time: string;
}

export const maintainStandard = resource<MaintainStandardItem>()({
  name: 'maintainstandard',
  label: '维保标准',
  methods: {
    list: 'maintainstandardlist',
    add: 'maintainstandardadd',
    edit: 'maintainstandardedit',
    del: 'maintainstandarddel',
    small: 'maintainstandard_small_list',
  },
  roles: { read: ASSET_ROLES.staff, write: ASSET_ROLES.staff },
  echoId: true,
  fields: {
    name: { label: '标准名称', zod: text(60).min(1, '请输入标准名称'), in: ['form', 'table', 'filter'], fixed: true, width: 180 },
    category_id: {
      label: '适用分类',
      zod: optionalId.transform((v) => v ?? null),
      widget: { small: 'assetcate_small_list' },
      in: ['form', 'filter'],
    },
    items: {
      label: '检查项',
      zod: z
        .array(text(60).min(1, '检查项不能为空'))
        .min(1, '请至少填写一个检查项')
        .max(30, '检查项最多 30 项')
        .refine((v) => new Set(v).size === v.length, { message: '检查项不能重复' }),
      widget: 'custom',
      in: ['form'],
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  columns: [
    { key: 'category_name', label: '适用分类', width: 120 },
    { key: 'item_count', label: '检查项数', width: 90 },
    { key: 'plan_count', label: '计划数', width: 80 },
    createTimeColumn(),
  ],
});

export interface MaintainPlanItem {
  id: number;
  name: string;
  standard_id: number;
  standard_name: string;
  asset_ids: number[];
  asset_names: string;
  staff_ids: number[];
  staff_names: string;
  cycle: MaintainCycle;
  cycle_ch: string;
  cycle_days: number[];
  every_days: number;
  cycle_text: string;
  start_date: string;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  task_count: number;
  overdue_count: number;
  remark: string;
  create_time: string;
}

export const maintainPlan = resource<MaintainPlanItem>()({
  name: 'maintainplan',
  label: '维保计划',
  methods: {
    list: 'maintainplanlist',
    add: 'maintainplanadd',
    edit: 'maintainplanedit',
    del: 'maintainplandel',
    small: 'maintainplan_small_list',
  },
  roles: { read: ASSET_ROLES.staff, write: ASSET_ROLES.staff },
  echoId: true,
  fields: {
    name: { label: '计划名称', zod: text(100).min(1, '请输入计划名称'), in: ['form', 'table', 'filter'], fixed: true, width: 160 },
    standard_id: { label: '维保标准', zod: id, widget: { small: 'maintainstandard_small_list' }, in: ['form', 'filter'] },
    asset_ids: {
      label: '设备',
      zod: z.array(id).min(1, '请选择设备').max(200, '一个计划最多 200 台设备'),
      widget: { small: 'asset_small_list', multiple: true },
      in: ['form'],
    },
    staff_ids: {
      label: '责任人',
      zod: z.array(id).min(1, '请选择责任人').max(10, '责任人最多 10 人'),
      widget: { small: 'asset_staff_small_list', multiple: true },
      in: ['form'],
    },
    cycle: {
      label: '周期',
      zod: z.enum(['N', 'M', 'W'], { message: '请选择周期' }),
      enum: MAINTAIN_CYCLE,
      widget: 'radio',
      in: ['form', 'filter'],
    },
    cycle_days: {
      label: '日期',
      zod: z.array(int(1, 31)).max(31).default([]),
      widget: 'custom',
      in: ['form'],
      help: '每月固定日：选几号（没有该日的月份不生成）；每周固定日：选星期几',
    },
    every_days: { label: '间隔天数', zod: int(1, 366).default(1), widget: 'int', in: ['form'], help: '每 N 天：自开始日期起每隔几天' },
    start_date: { label: '开始日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    enabled: {
      label: '状态',
      zod: z.enum(['Y', 'N']).default('Y'),
      enum: PLAN_ENABLED,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 80,
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  rules: [
    {
      check: (v) => v.cycle === 'N' || (Array.isArray(v.cycle_days) && v.cycle_days.length > 0),
      message: '请选择周期的日期',
      path: 'cycle_days',
    },
    {
      check: (v) => v.cycle !== 'W' || (Array.isArray(v.cycle_days) && v.cycle_days.every((d) => Number(d) >= 1 && Number(d) <= 7)),
      message: '星期只能是 1（周一）到 7（周日）',
      path: 'cycle_days',
    },
  ],
  columns: [
    { key: 'standard_name', label: '维保标准', width: 130 },
    { key: 'cycle_text', label: '周期', width: 150 },
    { key: 'asset_names', label: '设备', width: 200 },
    { key: 'staff_names', label: '责任人', width: 120 },
    { key: 'task_count', label: '任务数', width: 80 },
    { key: 'overdue_count', label: '逾期', width: 70 },
    createTimeColumn(),
  ],
});

export interface MaintainCheck {
  title: string;
  /** null until the task is done */
  passed: boolean | null;
  note: string;
}

export interface MaintainTaskRow {
  id: number;
  plan_id: number;
  plan_name: string;
  standard_name: string;
  asset_id: number;
  asset_name: string;
  asset_code: string;
  location: string;
  due_on: string;
  staff_ids: number[];
  staff_names: string;
  status: MaintainTaskStatus;
  status_ch: string;
  overdue: boolean;
  item_count: number;
  failed_count: number;
  notes: string;
  photos: string[];
  done_time: string;
  done_name: string;
  order_id: number | null;
  order_no: string;
  /** the reader is one of its staff */
  mine: boolean;
  create_time: string;
}

export type MaintainTaskDetail = MaintainTaskRow & { items: MaintainCheck[] };

export interface MaintainTaskCounts {
  all: number;
  P: number;
  O: number;
  Y: number;
  F: number;
}

const taskFilters = {
  plan_id: optionalId,
  asset_id: optionalId,
  keyword: text(60).optional().default(''),
  status: z.enum(['', 'P', 'O', 'Y', 'F']).optional().default(''),
  mine: z.enum(['', 'Y']).optional().default(''),
  due_from: z
    .union([z.literal(''), wireDay])
    .optional()
    .default(''),
  due_to: z
    .union([z.literal(''), wireDay])
    .optional()
    .default(''),
};

export const maintainSchemas = {
  ...maintainStandard.schemas,
  ...maintainPlan.schemas,
  maintaintasklist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...taskFilters }),
  maintaintaskinfo: z.object({ id }),
  maintaintaskdone: z.object({
    id,
    /** one result a check item, in the task's order */
    results: z.array(z.object({ passed: z.boolean({ message: '请选择每个检查项是否合格' }), note: text(200).default('') })).max(30),
    notes: text(500).default(''),
    photos: photoList(9),
  }),
  /** generates the community's due tasks now (what the job does every 15 minutes) */
  maintaintaskgenerate: z.object({}),
} as const;

export type MaintainOutputs = ResourceOutputs<typeof maintainStandard.def, MaintainStandardItem> &
  ResourceOutputs<typeof maintainPlan.def, MaintainPlanItem> & {
    maintaintasklist: ListAnswer<MaintainTaskRow> & { counts: MaintainTaskCounts };
    maintaintaskinfo: MaintainTaskDetail;
    maintaintaskdone: MaintainTaskDetail;
    maintaintaskgenerate: { plans: number; tasks: number };
  };
