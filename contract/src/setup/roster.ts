/**
 * Duty rosters (/setup/schedulelist, /setup/scheduleedit; docs/product.md#duty-rosters): shifts
 * (班次: a name and one or more time ranges) and rosters (排班: by day in a cycle of N days, by
 * week, or by month per day, from an effective date, for staff of the community), described as
 * resources (docs/resources.md), and the month grid (排班表) with its export.
 */
import { z } from 'zod';
import type { ExportQueued } from '../jobs.js';
import { id, int, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { formatShiftTimes, parseShiftTimes, rosterSlots, type RosterKind } from './duty.js';

/** Who reads rosters (the security manager plans patrols with them) and who changes them. */
export const ROSTER_READERS = ['setup', 'security'] as const;
export const ROSTER_WRITERS = ['setup'] as const;

export const SHIFT_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const ROSTER_KIND = valueEnum({
  D: { text: '按日', tone: 'processing' },
  W: { text: '按周', tone: 'success' },
  M: { text: '按月', tone: 'warning' },
});

/** A shift's time ranges, normalised to '08:00-12:00,14:00-18:00' (an end at or before the start is the next day). */
export const shiftTimes = text(100).transform((v, ctx) => {
  const ranges = parseShiftTimes(v);
  if (typeof ranges === 'string') {
    ctx.addIssue({ code: 'custom', message: ranges });
    return z.NEVER;
  }
  return formatShiftTimes(ranges);
});

export interface ShiftItem {
  id: number;
  name: string;
  times: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** rosters using the shift */
  roster_count: number;
  create_time: string;
}

export const shift = resource<ShiftItem>()({
  name: 'dutyshift',
  label: '班次',
  methods: { list: 'dutyshiftlist', add: 'dutyshiftadd', edit: 'dutyshiftedit', del: 'dutyshiftdel', small: 'dutyshift_small_list' },
  roles: { read: ROSTER_READERS, write: ROSTER_WRITERS },
  fields: {
    name: {
      label: '班次名称',
      zod: text(30).min(1, '请输入班次名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      placeholder: '如 白班',
    },
    times: {
      label: '上班时间',
      zod: shiftTimes,
      in: ['form', 'table'],
      placeholder: '如 08:00-12:00,14:00-18:00',
      help: '一个或多个时间段，用逗号分隔；结束早于开始表示到次日，如夜班 20:00-08:00',
    },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: SHIFT_STATUS, in: ['form', 'table', 'filter'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  columns: [{ key: 'roster_count', label: '使用排班数', width: 100 }, createTimeColumn()],
});

/** A roster's day: a shift's id, or null for rest. */
const daySlot = z.union([id, z.null()]);

export interface ScheduleItem {
  id: number;
  name: string;
  kind: RosterKind;
  kind_ch: string;
  cycle: number;
  start_date: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  staff_count: number;
  /** the staff's names, joined by 、 */
  staff_names: string;
  create_time: string;
}

/** A roster with its day slots and staff (scheduleinfo). */
export interface ScheduleDetail extends ScheduleItem {
  days: Array<number | null>;
  staff_ids: number[];
}

export const schedule = resource<ScheduleItem>()({
  name: 'schedule',
  label: '排班',
  methods: { list: 'schedulelist', add: 'scheduleadd', edit: 'scheduleedit', del: 'scheduledel', info: 'scheduleinfo' },
  roles: { read: ROSTER_READERS, write: ROSTER_WRITERS },
  form: { add: '/setup/scheduleedit', edit: '/setup/scheduleedit' },
  echoId: true,
  fields: {
    name: { label: '排班名称', zod: text(100).min(1, '请输入排班名称'), in: ['form', 'table', 'filter'], fixed: true },
    kind: {
      label: '排班类型',
      zod: z.enum(['D', 'W', 'M'], { message: '请选择排班类型' }),
      enum: ROSTER_KIND,
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    cycle: {
      label: '周期',
      zod: int(1, 31).default(1),
      widget: 'int',
      in: ['form', 'table'],
      width: 80,
      help: '按日：几天一循环；按周：几周一循环；按月不用填',
    },
    start_date: { label: '生效日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    days: { label: '每日班次', zod: z.array(daySlot).min(1, '请设置每天的班次').max(217), widget: 'custom', in: ['form'] },
    staff_ids: {
      label: '排班人员',
      zod: z.array(id).min(1, '请选择排班人员').max(500, '一个排班最多 500 人'),
      widget: 'custom',
      in: ['form'],
    },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: SHIFT_STATUS, in: ['form', 'table', 'filter'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form'] },
  },
  rules: [
    {
      check: (v) => v.kind !== 'W' || Number(v.cycle) <= 4,
      message: '按周排班的周期为 1 到 4 周',
      path: 'cycle',
    },
    {
      check: (v) =>
        !Array.isArray(v.days) ||
        !v.kind ||
        (v.days as unknown[]).length === rosterSlots(v.kind as RosterKind, Number(v.kind === 'M' ? 1 : v.cycle)),
      message: '每日班次的天数与排班类型和周期不一致',
      path: 'days',
    },
  ],
  columns: [{ key: 'staff_count', label: '人数', width: 70 }, { key: 'staff_names', label: '排班人员' }, createTimeColumn()],
});

/** The month grid's filters; the export takes the same. */
export const scheduleGridInput = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式应为 YYYY-MM'),
  schedule_id: z
    .union([z.literal(''), id])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  account_id: z
    .union([z.literal(''), id])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  dept_id: z
    .union([z.literal(''), id])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

/** One day of a staff member in the grid: work (a shift), rest (休), or none (no roster applies yet). */
export interface ScheduleGridCell {
  state: 'work' | 'rest' | 'none';
  shift_id: number | null;
  /** the shift's name, 休 for rest, '' for none */
  text: string;
  times: string;
}

export interface ScheduleGridRow {
  account_id: number;
  name: string;
  dept_title: string;
  /** the rosters that apply in the month, joined by 、 */
  schedules: string;
  /** one per day of the month */
  cells: ScheduleGridCell[];
  work_days: number;
  rest_days: number;
}

export interface ScheduleGridAnswer {
  month: string;
  days: Array<{ date: string; day: number; weekday: number; weekday_ch: string }>;
  shifts: Array<{ id: number; name: string; times: string }>;
  items: ScheduleGridRow[];
  total: number;
}

export interface RosterStaffOption {
  id: number;
  name: string;
  username: string;
  dept_title: string;
}

export const rosterSchemas = {
  ...shift.schemas,
  ...schedule.schemas,
  schedulegrid: scheduleGridInput,
  scheduleexport: scheduleGridInput,
  schedule_staff_small_list: z.object({}),
} as const;

export type RosterOutputs = ResourceOutputs<typeof shift.def, ShiftItem> &
  Omit<ResourceOutputs<typeof schedule.def, ScheduleItem>, 'scheduleinfo'> & {
    scheduleinfo: ScheduleDetail;
    schedulegrid: ScheduleGridAnswer;
    scheduleexport: ExportQueued;
    schedule_staff_small_list: { items: RosterStaffOption[] };
  };
