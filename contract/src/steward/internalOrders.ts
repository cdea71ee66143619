/**
 * 内部工单 (/steward/internalorder; docs/product.md#internal-orders): orders staff raise for public
 * areas, equipment or tasks: several handlers, people copied, checklist items (each done or not,
 * with one photo), due in N hours, one-off or recurring (a template: daily, weekly, monthly; a job
 * creates each occurrence once), attachments. 待处理 → (开始) 处理中 → (提交验收, every item done)
 * 待验收 → (验收通过 with a score 1–5) 已完成, or (退回) 处理中; 关闭 from the open states.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text } from '../common.js';
import { imageUrl, photoList } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import type { ListAnswer } from '../codes.js';
import { valueEnum, wireDay } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { STEWARD_ROLES } from './roles.js';

export const INTERNAL_ORDER_ROLES = STEWARD_ROLES.internalOrder;

export const INTERNAL_ORDER_KIND = valueEnum({
  E: { text: '设备维护', tone: 'processing' },
  P: { text: '公区巡查', tone: 'success' },
  C: { text: '保洁绿化', tone: 'success' },
  T: { text: '临时任务', tone: 'warning' },
  O: { text: '其他', tone: 'default' },
});
export type InternalOrderKind = keyof typeof INTERNAL_ORDER_KIND;

export const INTERNAL_ORDER_STATUS = valueEnum({
  P: { text: '待处理', tone: 'warning' },
  D: { text: '处理中', tone: 'processing' },
  C: { text: '待验收', tone: 'processing' },
  Y: { text: '已完成', tone: 'success' },
  X: { text: '已关闭', tone: 'default' },
});
export type InternalOrderStatus = keyof typeof INTERNAL_ORDER_STATUS;

export const INTERNAL_ORDER_RECURRENCE = valueEnum({
  O: { text: '一次性', tone: 'default' },
  D: { text: '每天', tone: 'processing' },
  W: { text: '每周', tone: 'processing' },
  M: { text: '每月', tone: 'processing' },
});
export type InternalOrderRecurrence = keyof typeof INTERNAL_ORDER_RECURRENCE;

export const TEMPLATE_STATUS = valueEnum({ Y: { text: '生效中', tone: 'success' }, N: { text: '已停止', tone: 'default' } });

export const internalOrderFlow = workflow({
  name: 'internalorder',
  label: '工单',
  states: INTERNAL_ORDER_STATUS,
  transitions: {
    start: { method: 'internalorderstart', label: '开始处理', from: ['P'], to: 'D', roles: INTERNAL_ORDER_ROLES },
    submit: {
      method: 'internalordersubmit',
      label: '提交验收',
      from: ['D'],
      to: 'C',
      roles: INTERNAL_ORDER_ROLES,
      input: { note: text(200).default('') },
      inputLabels: { note: '处理说明' },
    },
    accept: {
      method: 'internalorderaccept',
      label: '验收通过',
      from: ['C'],
      to: 'Y',
      roles: INTERNAL_ORDER_ROLES,
      input: { score: int(1, 5), note: text(200).default('') },
      inputLabels: { score: '评分', note: '验收意见' },
    },
    reject: {
      method: 'internalorderreject',
      label: '退回',
      from: ['C'],
      to: 'D',
      roles: INTERNAL_ORDER_ROLES,
      input: { note: text(200).min(1, '请填写退回原因') },
      inputLabels: { note: '退回原因' },
      danger: true,
    },
    close: {
      method: 'internalorderclose',
      label: '关闭',
      from: ['P', 'D', 'C'],
      to: 'X',
      roles: INTERNAL_ORDER_ROLES,
      input: { note: text(200).min(1, '请填写关闭原因') },
      inputLabels: { note: '关闭原因' },
      danger: true,
    },
  },
  steps: { check: '勾选检查项', uncheck: '取消勾选', edit: '修改', recur: '周期生成' },
  logMethod: 'internalorderlog',
  fieldLabels: { item: '检查项', title: '标题' },
});

const idList = (max: number, message: string) => z.array(id).max(max, message);

const orderFields = {
  title: text(60).min(1, '请输入标题'),
  kind: z.enum(['E', 'P', 'C', 'T', 'O'], { message: '请选择类型' }),
  location: text(100).default(''),
  content: text(500).default(''),
  handler_ids: idList(10, '处理人最多 10 人').min(1, '请选择处理人'),
  cc_ids: idList(20, '抄送人最多 20 人').default([]),
  items: z.array(text(60).min(1, '检查项不能为空')).max(30, '检查项最多 30 项').default([]),
  due_hours: int(1, 720),
  photos: photoList(9),
};

export interface InternalOrderItem {
  id: number;
  sort: number;
  title: string;
  done: boolean;
  photo: string;
  done_time: string;
  done_by: string;
}

export interface InternalOrderRow {
  id: number;
  /** 编号 GD + the id on 6 digits */
  no: string;
  title: string;
  kind: InternalOrderKind;
  kind_ch: string;
  location: string;
  content: string;
  handler_ids: number[];
  handler_names: string;
  cc_ids: number[];
  cc_names: string;
  photos: string[];
  due_hours: number;
  due_time: string;
  status: InternalOrderStatus;
  status_ch: string;
  /** past its due time while 待处理 or 处理中 */
  overdue: boolean;
  score: number | null;
  accept_note: string;
  item_total: number;
  item_done: number;
  template_id: number | null;
  occurs_on: string;
  recurrence: InternalOrderRecurrence;
  recurrence_ch: string;
  creator: string;
  /** the reader handles it */
  handling: boolean;
  /** the reader raised it (accepts or sends it back) */
  mine: boolean;
  start_time: string;
  submit_time: string;
  accept_time: string;
  create_time: string;
}

export interface InternalOrderTemplateRow {
  id: number;
  title: string;
  kind: InternalOrderKind;
  kind_ch: string;
  location: string;
  handler_names: string;
  due_hours: number;
  recurrence: InternalOrderRecurrence;
  recurrence_ch: string;
  start_date: string;
  next_on: string;
  status: 'Y' | 'N';
  status_ch: string;
  occurrences: number;
  creator: string;
  create_time: string;
}

export interface InternalOrderCounts {
  all: number;
  P: number;
  D: number;
  C: number;
  Y: number;
  X: number;
  overdue: number;
}

const filters = {
  title: text(60).optional().default(''),
  kind: z.enum(['', 'E', 'P', 'C', 'T', 'O']).optional().default(''),
  status: z.enum(['', 'P', 'D', 'C', 'Y', 'X']).optional().default(''),
  handler_id: optionalId,
  /** handle: orders the reader handles; created: raised by the reader; cc: copied to the reader */
  mine: z.enum(['', 'handle', 'created', 'cc']).optional().default(''),
  overdue: z.enum(['', 'Y', 'N']).optional().default(''),
  template_id: optionalId,
};

export const internalOrderSchemas = {
  internalorderlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...filters }),
  internalorderexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...filters }),
  internalorderinfo: z.object({ id }),
  internalorderadd: z
    .object({
      ...orderFields,
      recurrence: z.enum(['O', 'D', 'W', 'M'], { message: '请选择工单标识' }).default('O'),
      /** a recurring order's first day (default today) */
      start_date: z
        .union([z.literal(''), z.null(), wireDay])
        .optional()
        .transform((v) => (v === '' || v === null ? undefined : v)),
    })
    .refine((v) => v.recurrence !== 'O' || v.start_date === undefined, { message: '一次性工单不需要开始日期', path: ['start_date'] }),
  internalorderedit: z.object({ id, ...orderFields }),
  internalordercheck: z.object({ id, item_id: id, done: z.boolean(), photo: z.union([z.literal(''), imageUrl]).default('') }),
  internal_order_staff_small_list: z.object({}),
  internalordertemplatelist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    status: z.enum(['', 'Y', 'N']).optional().default(''),
  }),
  internalordertemplatestop: z.object({ id }),
  ...internalOrderFlow.schemas,
} as const;

export type InternalOrderDetail = InternalOrderRow & { items: InternalOrderItem[]; log: WorkflowLogItem[] };

export type InternalOrderOutputs = {
  internalorderlist: ListAnswer<InternalOrderRow> & { counts: InternalOrderCounts };
  internalorderexport: ExportQueued;
  internalorderinfo: InternalOrderDetail;
  internalorderadd: { id: number; no: string; template_id: number | null };
  internalorderedit: InternalOrderDetail;
  internalordercheck: InternalOrderDetail;
  internal_order_staff_small_list: { items: Array<{ id: number; name: string }> };
  internalordertemplatelist: ListAnswer<InternalOrderTemplateRow>;
  internalordertemplatestop: InternalOrderTemplateRow;
  internalorderstart: InternalOrderDetail;
  internalordersubmit: InternalOrderDetail;
  internalorderaccept: InternalOrderDetail;
  internalorderreject: InternalOrderDetail;
  internalorderclose: InternalOrderDetail;
  internalorderlog: { items: WorkflowLogItem[] };
};
