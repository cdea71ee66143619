/**
 * Patrol tasks, check-ins and records (/security/patrolrecordlist, patrolrecordlist_log,
 * patrolrecordedit, patrolplanreport and the phone-width check-in page; docs/product.md#patrols).
 */
import { z } from 'zod';
import { id, optionalId, paging, text } from '../common.js';
import { WIRE_TIME_RE } from '../dates.js';
import { photoList } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { valueEnum, wireDay } from '../kit/resource.js';

export const TASK_STATUS = valueEnum({
  W: { text: '未开始', tone: 'default' },
  D: { text: '巡检中', tone: 'processing' },
  Y: { text: '已完成', tone: 'success' },
  P: { text: '部分完成', tone: 'warning' },
  X: { text: '未巡', tone: 'error' },
});
export type TaskStatus = keyof typeof TASK_STATUS;
export const TASK_POINT_STATUS = valueEnum({
  W: { text: '待巡', tone: 'default' },
  Y: { text: '已巡', tone: 'success' },
  M: { text: '漏巡', tone: 'error' },
  B: { text: '补检', tone: 'warning' },
});
export type TaskPointStatus = keyof typeof TASK_POINT_STATUS;
export const CHECK_RESULT = valueEnum({ N: { text: '正常', tone: 'success' }, A: { text: '异常', tone: 'error' } });
export const CHECKIN_TIMING = valueEnum({
  E: { text: '早到', tone: 'processing' },
  O: { text: '准时', tone: 'success' },
  L: { text: '迟到', tone: 'warning' },
});
export const CHECKIN_METHOD = valueEnum({ qr: { text: '二维码' }, nfc: { text: 'NFC' }, wand: { text: '巡更棒' }, gps: { text: 'GPS' } });
export type CheckinMethod = keyof typeof CHECKIN_METHOD;
export const CHECKIN_OUTCOME = valueEnum({
  ok: { text: '已匹配', tone: 'success' },
  unknown: { text: '未知点位', tone: 'error' },
  no_task: { text: '无当前任务', tone: 'warning' },
  duplicate: { text: '重复', tone: 'default' },
});
export type CheckinOutcome = keyof typeof CHECKIN_OUTCOME;
export const EDIT_ACTION = valueEnum({
  makeup: { text: '补检' },
  result: { text: '改正常/异常' },
  remark: { text: '备注' },
  transfer: { text: '流转' },
});
export type EditAction = keyof typeof EDIT_ACTION;

const optionalText = (max: number) => text(max).optional();
const dayRange = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));
const emptyOr = <T extends z.ZodType>(s: T) =>
  z
    .union([z.literal(''), z.null(), s])
    .optional()
    .transform((v) => (v === '' || v === null ? undefined : (v as z.output<T>)));

export const taskFilters = {
  plan_id: optionalId,
  guard_id: optionalId,
  status: emptyOr(z.enum(['W', 'D', 'Y', 'P', 'X'], { message: '任务状态取值不正确' })),
  day: dayRange,
  /** only tasks with a missed point (Y) or an abnormal result (A) */
  flag: emptyOr(z.enum(['missed', 'abnormal'], { message: '筛选取值不正确' })),
};

export interface PatrolTaskRow {
  id: number;
  /** XJ000123 */
  no: string;
  plan_id: number;
  plan_name: string;
  guard_id: number;
  guard_name: string;
  current_guard_id: number;
  current_guard_name: string;
  day: string;
  /** 2026-11-30 20:00 - 22:00 */
  window_text: string;
  window_start: string;
  window_end: string;
  close_at: string;
  status: TaskStatus;
  status_ch: string;
  points_total: number;
  points_done: number;
  /** '3/4' */
  completion: string;
  missed_count: number;
  missed_names: string;
  abnormal_count: number;
  late_count: number;
  transfer_reason: string;
  started_at: string;
  closed_at: string;
}

export interface PatrolCheckinRow {
  id: number;
  guard_name: string;
  code: string;
  method: CheckinMethod;
  method_ch: string;
  device_time: string;
  server_time: string;
  lat: number | null;
  lng: number | null;
  outcome: CheckinOutcome;
  outcome_ch: string;
  reason: string;
  point_id: number | null;
  point_name: string;
  task_id: number | null;
  distance_m: number | null;
  outside: boolean;
  timing: '' | 'E' | 'O' | 'L';
  timing_ch: string;
  out_of_order: boolean;
  result: '' | 'N' | 'A';
  result_ch: string;
  answers: Array<{ title: string; value: string }>;
  photos: string[];
  note: string;
  order_id: number | null;
  order_no: string;
}

export interface PatrolTaskPointRow {
  id: number;
  point_id: number;
  point_name: string;
  point_number: string;
  /** the printed QR's content, so the check-in page knows a scanned label */
  point_qr: string;
  sort: number;
  /** '20:00-20:30' */
  due_text: string;
  status: TaskPointStatus;
  status_ch: string;
  result: '' | 'N' | 'A';
  result_ch: string;
  remark: string;
  order_id: number | null;
  order_no: string;
  /** the check-in it counts (as uploaded, never changed) */
  checkin: PatrolCheckinRow | null;
  /** the point's checklist, for the check-in page */
  checklist: Array<{ title: string; type: 'normal' | 'single' | 'multiple' | 'text'; options: string[] }>;
  photo_required: 'Y' | 'N';
}

export interface PatrolEditRow {
  id: number;
  task_id: number;
  task_no: string;
  task_point_id: number | null;
  point_name: string;
  action: EditAction;
  action_ch: string;
  old_value: string;
  new_value: string;
  reason: string;
  operator: string;
  create_time: string;
}

export interface PatrolTaskDetail extends PatrolTaskRow {
  points: PatrolTaskPointRow[];
  edits: PatrolEditRow[];
  /** the reader may correct it (a supervisor, not the task's guard) */
  can_edit: boolean;
}

export interface PatrolCheckinAnswer {
  matched: boolean;
  outcome: CheckinOutcome;
  outcome_ch: string;
  reason: string;
  checkin_id: number;
  task_id: number | null;
  point_name: string;
  timing_ch: string;
  distance_m: number | null;
  outside: boolean;
  out_of_order: boolean;
  order_no: string;
  /** the task after the check-in */
  completion: string;
}

export interface PlanDayRow {
  day: string;
  plan_id: number;
  plan_name: string;
  due: number;
  done: number;
  partial: number;
  missed: number;
  open: number;
  /** done of due closed tasks, '100.0' */
  rate: string;
}
export interface GuardReportRow {
  guard_id: number;
  guard_name: string;
  tasks: number;
  points_due: number;
  points_done: number;
  points_missed: number;
  late: number;
  abnormal: number;
  makeup: number;
}
export interface PointMissRow {
  point_id: number;
  point_name: string;
  missed: number;
}
export interface PatrolReport {
  from: string;
  to: string;
  totals: {
    due: number;
    done: number;
    partial: number;
    missed: number;
    points_due: number;
    points_done: number;
    abnormal: number;
    rate: string;
  };
  plans: PlanDayRow[];
  guards: GuardReportRow[];
  points: PointMissRow[];
  /** check-ins by hour of the day (0 … 23) */
  hours: number[];
}

export interface PatrolDashboard {
  /** today's tasks closed or running, points due and done */
  tasks: number;
  points_due: number;
  points_done: number;
  rate: string;
  missed_tasks: number;
}

const reportInput = z.object({
  day: z.tuple([wireDay, wireDay], { message: '请选择日期范围' }),
  plan_id: optionalId,
  guard_id: optionalId,
});

export const recordSchemas = {
  patroltasklist: z.object({ ...paging, ...taskFilters }),
  patroltaskexport: z.object({ ...taskFilters }),
  patroltaskinfo: z.object({ id }),
  /** the signed-in guard's tasks open now or of today */
  patrolmytasks: z.object({}),
  patroltasktransfer: z.object({
    id,
    account_id: id,
    reason: text(200).min(1, '请填写流转原因'),
  }),
  patrolcheckin: z.object({
    code: text(60).min(1, '请输入或扫描巡更点编号'),
    check_method: z.enum(['qr', 'nfc', 'wand', 'gps'], { message: '签到方式取值不正确' }),
    device_time: z
      .union([z.literal(''), z.null(), z.string().regex(WIRE_TIME_RE, '设备时间格式应为 YYYY-MM-DD HH:mm:ss')])
      .optional()
      .transform((v) => (v ? v : undefined)),
    lat: z
      .union([z.null(), z.number().min(-90, '纬度超出范围').max(90, '纬度超出范围')])
      .optional()
      .transform((v) => v ?? null),
    lng: z
      .union([z.null(), z.number().min(-180, '经度超出范围').max(180, '经度超出范围')])
      .optional()
      .transform((v) => v ?? null),
    /** the overall result; an item answered 异常 makes it A */
    result: z.enum(['N', 'A'], { message: '请选择正常或异常' }).default('N'),
    answers: z
      .array(z.object({ title: text(40).min(1), value: text(500) }))
      .max(20)
      .default([]),
    photos: photoList(9),
    note: text(200).default(''),
  }),
  patrolrecordlog: z.object({
    ...paging,
    outcome: emptyOr(z.enum(['ok', 'unknown', 'no_task', 'duplicate'], { message: '结果取值不正确' })),
    code: optionalText(60),
    day: dayRange,
  }),
  patroleditlog: z.object({ ...paging, task_id: optionalId, day: dayRange }),
  patrolrecordedit: z.object({
    task_point_id: id,
    action: z.enum(['makeup', 'result', 'remark'], { message: '修改类型取值不正确' }),
    result: emptyOr(z.enum(['N', 'A'], { message: '请选择正常或异常' })),
    reason: text(200).min(1, '请填写原因或备注'),
  }),
  patrolplanreport: reportInput,
  patrolplanreportexport: reportInput,
  patroldashboard: z.object({}),
  /** runs the task jobs as at `at` (admin): makes the tasks due, closes those ended */
  patroljobrun: z.object({ at: z.string().regex(WIRE_TIME_RE, '时间格式应为 YYYY-MM-DD HH:mm:ss') }),
} as const;

export interface RecordOutputs {
  patroltasklist: { items: PatrolTaskRow[]; total: number };
  patroltaskexport: ExportQueued;
  patroltaskinfo: PatrolTaskDetail;
  patrolmytasks: { items: PatrolTaskDetail[] };
  patroltasktransfer: { id: number };
  patrolcheckin: PatrolCheckinAnswer;
  patrolrecordlog: { items: PatrolCheckinRow[]; total: number };
  patroleditlog: { items: PatrolEditRow[]; total: number };
  patrolrecordedit: { id: number };
  patrolplanreport: PatrolReport;
  patrolplanreportexport: ExportQueued;
  patroldashboard: PatrolDashboard;
  patroljobrun: { made: number; closed: number };
}

/** A task's number as shown: XJ000123. */
export const taskNo = (id: number): string => `XJ${String(id).padStart(6, '0')}`;
