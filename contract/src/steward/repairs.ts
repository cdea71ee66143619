/**
 * Repair tickets (报修工单, /steward/repairs; docs/product.md#repairs) as a workflow
 * (docs/resources.md#add-a-workflow): registered by the desk for an owner, by phone or internally;
 * dispatched, grabbed or handed out by the round-robin job; accepted, paused and resumed,
 * transferred, returned and finished by the technician handling it; paid (a paid household
 * repair's fee bill), rated, followed up; reopened within the window, closed with a reason.
 * Each ticket keeps its accept and finish deadlines; the clock job marks breaches (超时) once.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { photoList } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { valueEnum, wireDay } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { money, toFen } from '../money.js';
import { MOBILE_RE } from '../owners.js';
import { STEWARD_ROLES } from './roles.js';

export const REPAIR_STATUS = valueEnum({
  W: { text: '待派单', tone: 'warning' },
  A: { text: '待接单', tone: 'warning' },
  P: { text: '处理中', tone: 'processing' },
  S: { text: '已暂停', tone: 'default' },
  F: { text: '待支付', tone: 'error' },
  R: { text: '待评价', tone: 'processing' },
  V: { text: '待回访', tone: 'processing' },
  D: { text: '已完成', tone: 'success' },
  C: { text: '已关闭', tone: 'default' },
});
export type RepairStatus = keyof typeof REPAIR_STATUS;
/** The states a ticket is still open in (a close refuses the rest). */
export const REPAIR_OPEN: readonly RepairStatus[] = ['W', 'A', 'P', 'S', 'F', 'R', 'V'];
/** The states a technician's ticket counts against their maximum in. */
export const REPAIR_HELD: readonly RepairStatus[] = ['A', 'P', 'S'];

export const REPAIR_SOURCE = valueEnum({
  D: { text: '代客报修', tone: 'processing' },
  T: { text: '电话报修', tone: 'warning' },
  N: { text: '内部报修', tone: 'default' },
});
export const REPAIR_RATING_FILTER = valueEnum({
  good: { text: '好评(4-5分)', tone: 'success' },
  bad: { text: '差评(1-2分)', tone: 'error' },
  none: { text: '未评价', tone: 'default' },
});

const reason = (label: string) => text(200).min(1, `请填写${label}`);
/** a return visit's answer (回访: 是否满意) */
const VISIT_SATISFIED = valueEnum({ Y: { text: '满意', tone: 'success' }, N: { text: '不满意', tone: 'warning' } });
const note = text(500).default('');
const score = () => int(1, 5);
/** A [from, to] range of business days (both included), '' or absent for none. */
const dateRangeFilter = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

/** A wire time of the business time zone: YYYY-MM-DD HH:mm(:ss). */
export const wireMinute = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/, '时间格式为 YYYY-MM-DD HH:mm');

export const feeLine = z.object({
  name: text(30).min(1, '请填写收费项目'),
  amount: money.refine((v) => toFen(v) > 0n && toFen(v) <= 10_000_000n, { message: '每项金额须大于0且不超过100000元' }),
});
export type RepairFeeLine = z.output<typeof feeLine>;

export const repairFlow = workflow({
  name: 'repair',
  label: '报修工单',
  states: REPAIR_STATUS,
  transitions: {
    dispatch: {
      method: 'repairdispatch',
      label: '派单',
      from: ['W'],
      to: 'A',
      roles: STEWARD_ROLES.desk,
      input: { handler_id: id, note },
      inputLabels: { handler_id: '维修师傅', note: '派单说明' },
    },
    grab: { method: 'repairgrab', label: '抢单', from: ['W'], to: 'A', roles: STEWARD_ROLES.technician, confirm: '确定抢这张工单？' },
    accept: { method: 'repairaccept', label: '接单', from: ['A'], to: 'P', roles: STEWARD_ROLES.technician },
    pause: {
      method: 'repairpause',
      label: '暂停',
      from: ['P'],
      to: 'S',
      roles: STEWARD_ROLES.technician,
      input: { reason: reason('暂停原因'), resume_date: wireDay },
      inputLabels: { reason: '暂停原因', resume_date: '预计恢复日期' },
    },
    resume: { method: 'repairresume', label: '恢复', from: ['S'], to: 'P', roles: STEWARD_ROLES.technician },
    transfer: {
      method: 'repairtransfer',
      label: '转单',
      from: ['A', 'P'],
      to: 'A',
      roles: STEWARD_ROLES.technician,
      input: { handler_id: id, reason: reason('转单原因') },
      inputLabels: { handler_id: '转给', reason: '转单原因' },
    },
    return: {
      method: 'repairreturn',
      label: '退单',
      from: ['A', 'P'],
      to: 'W',
      roles: STEWARD_ROLES.technician,
      input: { reason: reason('退单原因') },
      inputLabels: { reason: '退单原因' },
      danger: true,
    },
    finish: {
      method: 'repairfinish',
      label: '完工',
      from: ['P'],
      to: 'R',
      roles: STEWARD_ROLES.technician,
      input: {
        note: text(500).min(1, '请填写处理说明'),
        materials: text(200).default(''),
        before_photos: photoList(9),
        after_photos: photoList(9),
        fee_lines: z.array(feeLine).max(20, '最多20项收费').default([]),
      },
      inputLabels: { note: '处理说明', materials: '用料', before_photos: '维修前照片', after_photos: '维修后照片', fee_lines: '收费明细' },
    },
    rate: {
      method: 'repairrate',
      label: '评价',
      from: ['R'],
      to: 'V',
      roles: STEWARD_ROLES.desk,
      input: {
        overall: score(),
        speed: score(),
        service: score(),
        text: text(300).default(''),
      },
      inputLabels: { overall: '综合', speed: '上门速度', service: '服务态度', text: '评价内容' },
    },
    visit: {
      method: 'repairvisit',
      label: '回访',
      from: ['V'],
      to: 'D',
      roles: STEWARD_ROLES.desk,
      input: { satisfied: yn, note },
      inputLabels: { satisfied: '是否满意', note: '回访记录' },
      inputEnums: { satisfied: VISIT_SATISFIED },
    },
    reopen: {
      method: 'repairreopen',
      label: '返修',
      from: ['R', 'V', 'D'],
      to: 'W',
      roles: STEWARD_ROLES.desk,
      input: { reason: reason('返修原因') },
      inputLabels: { reason: '返修原因' },
    },
    close: {
      method: 'repairclose',
      label: '关闭',
      from: ['W', 'A', 'P', 'S', 'F', 'R', 'V'],
      to: 'C',
      roles: STEWARD_ROLES.desk,
      input: { reason: reason('关闭原因') },
      inputLabels: { reason: '关闭原因' },
      danger: true,
      confirm: '关闭后工单结束；未缴的维修费账单会作废。确定关闭？',
    },
  },
  steps: {
    create: '登记',
    batchdispatch: '派单',
    auto: '轮派',
    pay: '缴费',
    autorate: '自动评价',
    urge: '催单',
  },
  logMethod: 'repairlog',
  fieldLabels: { handler: '处理人', bill_id: '账单', note: '说明', receipt_no: '收据号' },
});

export const repairAddInput = z
  .object({
    source: z.enum(['D', 'T', 'N'], { message: '请选择报修来源' }).default('D'),
    type_id: id,
    hid: optionalId,
    bid: optionalId,
    place: text(60).default(''),
    reporter: text(30).min(1, '请填写报修人'),
    phone: z.string().trim().regex(MOBILE_RE, '联系电话格式不正确，应为11位手机号'),
    appointment_time: z.union([z.literal(''), wireMinute]).default(''),
    content: text(700).min(1, '请填写报修内容'),
    photos: photoList(9),
    urgent: z.boolean().default(false),
  })
  .refine((v) => v.hid !== undefined || v.place !== '', { message: '请选择报修房屋，或填写公共区域位置', path: ['place'] });
export type RepairAddInput = z.output<typeof repairAddInput>;

const filterText = (max: number) => text(max).optional();
const filterEnum = <T extends readonly [string, ...string[]]>(values: T) => z.union([z.literal(''), z.enum(values)]).optional();

export const repairFilters = {
  no: filterText(30),
  reporter: filterText(30),
  phone: filterText(11),
  type_id: optionalId,
  status: filterEnum(['W', 'A', 'P', 'S', 'F', 'R', 'V', 'D', 'C']),
  handler_id: optionalId,
  source: filterEnum(['D', 'T', 'N']),
  hid: optionalId,
  created: dateRangeFilter,
  finished: dateRangeFilter,
  overdue: filterEnum(['Y', 'N']),
  rating: filterEnum(['good', 'bad', 'none']),
  urgent: filterEnum(['Y', 'N']),
  /** the signed-in technician's tickets: todo (待接单, 处理中, 已暂停), done (handled and finished) */
  mine: filterEnum(['todo', 'done']),
};

export interface RepairItem {
  id: number;
  no: string;
  source: 'D' | 'T' | 'N';
  source_ch: string;
  type_id: number;
  type_title: string;
  mode: 'A' | 'G' | 'R';
  paid: 'Y' | 'N';
  hid: number;
  bid: number;
  /** the room's address or the public place */
  location: string;
  reporter: string;
  phone: string;
  appointment_time: string;
  content: string;
  urgent: boolean;
  status: RepairStatus;
  status_ch: string;
  handler_id: number;
  handler_name: string;
  /** the signed-in account handles it */
  mine: boolean;
  /** the signed-in technician is bound to its type (may grab it in 抢单 mode) */
  bound: boolean;
  accept_by: string;
  finish_by: string;
  overdue: boolean;
  urge_count: number;
  reopen_count: number;
  fee_total: string;
  rate_overall: number;
  create_time: string;
  finish_time: string;
  complete_time: string;
}

export interface RepairDetail extends RepairItem {
  photos: string[];
  pause_reason: string;
  resume_date: string;
  paused_seconds: number;
  finish_note: string;
  materials: string;
  before_photos: string[];
  after_photos: string[];
  fee_lines: RepairFeeLine[];
  bill_id: number;
  bill_status: string;
  pay_time: string;
  rate_speed: number;
  rate_service: number;
  rate_text: string;
  rate_time: string;
  rate_auto: boolean;
  visit_satisfied: string;
  visit_note: string;
  visit_time: string;
  close_reason: string;
  complaint_id: number;
  accept_time: string;
  dispatch_time: string;
}

export interface RepairListAnswer {
  items: RepairItem[];
  total: number;
  /** tickets per state under the other filters (the status bar), and the overdue open ones */
  counts: Record<string, number>;
}

export const repairSchemas = {
  ...repairFlow.schemas,
  repairlist: z.object({ ...paging, ...repairFilters }),
  repairexport: z.object(repairFilters),
  repairadd: repairAddInput,
  repairinfo: z.object({ id }),
  repairbatchdispatch: z.object({
    ids: z.array(id).min(1, '请选择工单').max(100, '一次最多派100张工单'),
    handler_id: id,
    note,
  }),
  repairurge: z.object({ id, note: text(200).default('') }),
  repairroomowner: z.object({ hid: id }),
} as const;

export type RepairOutputs = {
  repairlist: RepairListAnswer;
  repairexport: ExportQueued;
  repairadd: { id: number; no: string };
  repairinfo: RepairDetail;
  repairbatchdispatch: { count: number };
  repairurge: RepairItem;
  repairlog: { items: WorkflowLogItem[] };
  /** the room's owner (or first resident) living there now, to fill the reporter; '' when none */
  repairroomowner: { address: string; reporter: string; phone: string };
} & { [M in (typeof repairFlow.def.transitions)[keyof typeof repairFlow.def.transitions]['method']]: RepairItem };
