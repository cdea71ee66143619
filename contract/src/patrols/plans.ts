/**
 * Patrol plans (巡更计划, /security/patrol_plan, patrol_plan_add, patrol_plan_edit;
 * docs/product.md#patrols): a route of ordered points each with its window, a cycle, validity
 * dates, shift windows (one may cross midnight), the guards, and the rules of the tasks.
 */
import { z } from 'zod';
import { id, int, optionalId, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { PATROL_ROLES } from './roles.js';

export const PLAN_CYCLE = valueEnum({
  D: { text: '每天', tone: 'processing' },
  W: { text: '按星期', tone: 'success' },
  M: { text: '按日期', tone: 'warning' },
  A: { text: '隔天', tone: 'default' },
});
export type PlanCycle = keyof typeof PLAN_CYCLE;
export const PLAN_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const PLAN_ORDER = valueEnum({ Y: { text: '按顺序', tone: 'warning' }, N: { text: '不限顺序', tone: 'default' } });
export const PLAN_ORDER_ON_ABNORMAL = valueEnum({ Y: { text: '自动转工单', tone: 'warning' }, N: { text: '不转', tone: 'default' } });

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Minutes of the day of 'HH:MM'. */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** A window's length in minutes (an end at or before the start is the next day). */
export const windowLength = (w: { start: string; end: string }): number => {
  const d = minutesOf(w.end) - minutesOf(w.start);
  return d <= 0 ? d + 1440 : d;
};
/** Whether two daily windows overlap (either may cross midnight), compared on a 48-hour line. */
export function windowsOverlap(a: { start: string; end: string }, b: { start: string; end: string }): boolean {
  const span = (w: { start: string; end: string }) => [minutesOf(w.start), minutesOf(w.start) + windowLength(w)] as const;
  const [a0, a1] = span(a);
  const [b0, b1] = span(b);
  for (const shift of [-1440, 0, 1440]) if (a0 < b1 + shift && b0 + shift < a1) return true;
  return false;
}

export const shiftWindow = z.object({
  start: z.string().regex(HHMM, '班次开始时间应为 HH:MM'),
  end: z.string().regex(HHMM, '班次结束时间应为 HH:MM'),
});
export type ShiftWindow = z.output<typeof shiftWindow>;

export const routePoint = z.object({
  point_id: id,
  /** the point's window: from … to minutes after the shift window starts */
  offset_from: int(0, 1440).default(0),
  offset_to: int(0, 1440).default(0),
});
export type RoutePoint = z.output<typeof routePoint>;

export interface PatrolPlanItem {
  id: number;
  name: string;
  in_order: 'Y' | 'N';
  in_order_ch: string;
  cycle: PlanCycle;
  cycle_ch: string;
  cycle_days: number[];
  /** 每天 / 每周一、三、五 / 每月1、15日 / 隔天 */
  cycle_text: string;
  start_date: string;
  end_date: string;
  shifts: ShiftWindow[];
  /** 20:00-22:00、22:00-06:00 */
  shifts_text: string;
  ahead_minutes: number;
  makeup_hours: number;
  abnormal_order: 'Y' | 'N';
  abnormal_order_ch: string;
  order_handler_id: number | null;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  point_count: number;
  /** the route: points' names in order, joined by → */
  route_text: string;
  guard_names: string;
  create_time: string;
}

/** A plan with its route and guards (patrolplaninfo). */
export interface PatrolPlanDetail extends PatrolPlanItem {
  points: Array<RoutePoint & { name: string; number: string }>;
  guard_ids: number[];
}

export const patrolPlan = resource<PatrolPlanItem>()({
  name: 'patrolplan',
  label: '巡更计划',
  methods: {
    list: 'patrolplanlist',
    add: 'patrolplanadd',
    edit: 'patrolplanedit',
    del: 'patrolplandel',
    info: 'patrolplaninfo',
    small: 'patrolplan_small_list',
  },
  roles: { read: PATROL_ROLES.staff, write: PATROL_ROLES.staff },
  form: { add: '/security/patrol_plan_add', edit: '/security/patrol_plan_edit' },
  echoId: true,
  fields: {
    name: { label: '计划名称', zod: text(30).min(1, '请输入计划名称'), in: ['form', 'table', 'filter'], fixed: true, width: 140 },
    points: {
      label: '巡更路线',
      zod: z.array(routePoint).min(1, '请至少选择 1 个巡更点').max(100, '一条路线最多 100 个点'),
      widget: 'custom',
      in: ['form'],
    },
    in_order: { label: '顺序要求', zod: yn.default('N'), enum: PLAN_ORDER, widget: 'radio', in: ['form', 'table'], width: 90 },
    cycle: {
      label: '周期',
      zod: z.enum(['D', 'W', 'M', 'A'], { message: '请选择巡更周期' }),
      enum: PLAN_CYCLE,
      widget: 'radio',
      in: ['form', 'filter'],
    },
    cycle_days: {
      label: '星期/日期',
      zod: z.array(int(1, 31)).max(31).default([]),
      widget: 'custom',
      in: ['form'],
    },
    start_date: { label: '开始日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    end_date: { label: '结束日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    shifts: {
      label: '班次时段',
      zod: z.array(shiftWindow).min(1, '请至少设置 1 个班次时段').max(6, '最多 6 个班次时段'),
      widget: 'custom',
      in: ['form'],
    },
    guard_ids: {
      label: '巡更人员',
      zod: z.array(id).min(1, '请选择巡更人员').max(50, '最多 50 人'),
      widget: 'custom',
      in: ['form'],
    },
    ahead_minutes: { label: '提前生成(分钟)', zod: int(0, 1440).default(30), widget: 'int', in: ['form', 'table'], width: 110 },
    makeup_hours: { label: '补检时限(小时)', zod: int(0, 72).default(0), widget: 'int', in: ['form', 'table'], width: 110 },
    abnormal_order: {
      label: '异常转工单',
      zod: yn.default('N'),
      enum: PLAN_ORDER_ON_ABNORMAL,
      widget: 'radio',
      in: ['form', 'table'],
      width: 100,
    },
    order_handler_id: { label: '工单处理人', zod: optionalId.transform((v) => v ?? null), widget: 'custom', in: ['form'] },
    status: { label: '状态', zod: yn.default('Y'), enum: PLAN_STATUS, widget: 'radio', in: ['form', 'table', 'filter'], width: 70 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  rules: [
    {
      check: (v) => !v.start_date || !v.end_date || String(v.end_date) >= String(v.start_date),
      message: '结束日期不能早于开始日期',
      path: 'end_date',
    },
    {
      check: (v) => (v.cycle !== 'W' && v.cycle !== 'M') || (Array.isArray(v.cycle_days) && v.cycle_days.length > 0),
      message: '请选择星期或日期',
      path: 'cycle_days',
    },
    {
      check: (v) => v.cycle !== 'W' || (Array.isArray(v.cycle_days) && (v.cycle_days as number[]).every((d) => d >= 1 && d <= 7)),
      message: '星期应为 1（周一）到 7（周日）',
      path: 'cycle_days',
    },
    {
      check: (v) => v.abnormal_order !== 'Y' || Boolean(v.order_handler_id),
      message: '异常转工单时请选择工单处理人',
      path: 'order_handler_id',
    },
    {
      check: (v) =>
        !Array.isArray(v.points) ||
        (v.points as Array<{ offset_from?: number; offset_to?: number }>).every((p) => (p.offset_to ?? 0) >= (p.offset_from ?? 0)),
      message: '巡更点时段的结束不能早于开始',
      path: 'points',
    },
  ],
  columns: [
    { key: 'cycle_text', label: '周期', width: 140 },
    { key: 'shifts_text', label: '班次时段', width: 150 },
    { key: 'point_count', label: '点数', width: 60 },
    { key: 'route_text', label: '路线', width: 220 },
    { key: 'guard_names', label: '巡更人员', width: 140 },
    createTimeColumn('制定时间'),
  ],
});

/** A guard of the community who may be planned (staff holding the security role). */
export interface PatrolGuardOption {
  id: number;
  title: string;
}

export const planSchemas = {
  ...patrolPlan.schemas,
  patrol_guard_small_list: z.object({}),
} as const;
export type PlanOutputs = Omit<ResourceOutputs<typeof patrolPlan.def, PatrolPlanItem>, 'patrolplaninfo'> & {
  patrolplaninfo: PatrolPlanDetail;
  patrol_guard_small_list: { items: PatrolGuardOption[] };
};
