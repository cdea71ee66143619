/**
 * 投诉建议 (/steward/complaintlist, /steward/complaintcategory; docs/product.md#complaints): the
 * settable categories with their first-response and close deadlines, and the complaint workflow:
 * 待受理 → (受理, a handler) 处理中 → (回复业主, 内部备注: events, not states) → (办结, a note) 待评价 →
 * (评价 1–5, or automatically after 48 h) 已完成; 关闭 as invalid or duplicate from the open states.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { photoList } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import type { ListAnswer } from '../codes.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { repairAddInput } from './repairs.js';
import { STEWARD_ROLES } from './roles.js';

/** Who handles complaints: the desk, and the staff a complaint is handed to (they act only on theirs). */
export const COMPLAINT_HANDLERS = ['steward', 'repairs'] as const;

export const COMPLAINT_KIND = valueEnum({
  C: { text: '投诉', tone: 'error' },
  S: { text: '建议', tone: 'processing' },
  Q: { text: '咨询', tone: 'default' },
});
export type ComplaintKind = keyof typeof COMPLAINT_KIND;

export const COMPLAINT_STATUS = valueEnum({
  W: { text: '待受理', tone: 'warning' },
  D: { text: '处理中', tone: 'processing' },
  E: { text: '待评价', tone: 'processing' },
  Y: { text: '已完成', tone: 'success' },
  X: { text: '已关闭', tone: 'default' },
});
export type ComplaintStatus = keyof typeof COMPLAINT_STATUS;

export const COMPLAINT_CLOSE_REASON = valueEnum({
  invalid: { text: '无效', tone: 'default' },
  duplicate: { text: '重复', tone: 'default' },
});

export const COMPLAINT_CATEGORY_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** 编号: TS + the id on 6 digits. */
export const complaintNo = (id: number) => `TS${String(id).padStart(6, '0')}`;

/** Hours after which a complaint waiting for its rating is rated by the system (5 stars). */
export const COMPLAINT_AUTO_RATE_HOURS = 48;

export interface ComplaintCategoryItem {
  id: number;
  name: string;
  respond_hours: number;
  close_hours: number;
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  complaint_count: number;
  create_time: string;
}

export const complaintCategory = resource<ComplaintCategoryItem>()({
  name: 'complaintcategory',
  label: '投诉分类',
  methods: {
    list: 'complaintcategorylist',
    add: 'complaintcategoryadd',
    edit: 'complaintcategoryedit',
    del: 'complaintcategorydel',
    small: 'complaintcategory_small_list',
  },
  roles: { read: COMPLAINT_HANDLERS, write: STEWARD_ROLES.desk },
  fields: {
    name: {
      label: '分类名称',
      zod: text(30).min(1, '请输入分类名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      placeholder: '如 环境卫生',
    },
    respond_hours: {
      label: '首次响应时限（小时）',
      zod: int(1, 720).default(2),
      widget: 'int',
      in: ['form', 'table'],
      width: 150,
      help: '登记后多少小时内须受理，超过即标记超时',
    },
    close_hours: {
      label: '办结时限（小时）',
      zod: int(1, 2160).default(72),
      widget: 'int',
      in: ['form', 'table'],
      width: 130,
      help: '登记后多少小时内须办结',
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70 },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: COMPLAINT_CATEGORY_STATUS, in: ['form', 'table', 'filter'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  rules: [
    {
      check: (v) => Number(v.close_hours) >= Number(v.respond_hours),
      message: '办结时限不能短于首次响应时限',
      path: 'close_hours',
    },
  ],
  columns: [{ key: 'complaint_count', label: '投诉数', width: 80 }, createTimeColumn()],
});

/** An 11-digit mainland mobile, or a landline with its area code. */
export const complaintPhone = z
  .string()
  .trim()
  .regex(/^(1\d{10}|0\d{2,3}-?\d{7,8})$/, '请输入正确的联系电话（11位手机号或带区号的座机）');

const transitionRoles = { desk: STEWARD_ROLES.desk, handlers: COMPLAINT_HANDLERS } as const;

export const complaintFlow = workflow({
  name: 'complaint',
  label: '投诉',
  states: COMPLAINT_STATUS,
  transitions: {
    accept: {
      method: 'complaintaccept',
      label: '受理',
      from: ['W'],
      to: 'D',
      roles: transitionRoles.desk,
      input: { handler_id: id, remark: text(200).default('') },
      inputLabels: { handler_id: '处理人', remark: '受理说明' },
    },
    reply: {
      method: 'complaintreply',
      label: '回复业主',
      from: ['D'],
      to: 'D',
      roles: transitionRoles.handlers,
      input: { content: text(500).min(1, '请填写回复内容') },
      inputLabels: { content: '回复内容' },
    },
    note: {
      method: 'complaintnote',
      label: '内部备注',
      from: ['D'],
      to: 'D',
      roles: transitionRoles.handlers,
      input: { content: text(500).min(1, '请填写备注内容') },
      inputLabels: { content: '备注（业主不可见）' },
    },
    finish: {
      method: 'complaintfinish',
      label: '办结',
      from: ['D'],
      to: 'E',
      roles: transitionRoles.handlers,
      input: { note: text(500).min(1, '请填写办结说明') },
      inputLabels: { note: '办结说明' },
    },
    rate: {
      method: 'complaintrate',
      label: '评价',
      from: ['E'],
      to: 'Y',
      roles: transitionRoles.desk,
      input: { rating: int(1, 5), rating_text: text(200).default('') },
      inputLabels: { rating: '满意度', rating_text: '评价内容' },
    },
    close: {
      method: 'complaintclose',
      label: '关闭',
      from: ['W', 'D'],
      to: 'X',
      roles: transitionRoles.desk,
      input: { reason: z.enum(['invalid', 'duplicate'], { message: '请选择关闭原因' }), note: text(200).default('') },
      inputLabels: { reason: '关闭原因', note: '说明' },
      inputEnums: { reason: COMPLAINT_CLOSE_REASON },
      danger: true,
    },
  },
  steps: {
    autorate: '系统默认好评',
    torepair: '转为报修单',
    respond_overdue: '首次响应超时',
    close_overdue: '办结超时',
  },
  logMethod: 'complaintlog',
  fieldLabels: { kind: '类型', category: '分类', content: '内容', repair_no: '报修单号' },
});

export interface ComplaintRow {
  id: number;
  /** 编号 TS + the id on 6 digits */
  no: string;
  kind: ComplaintKind;
  kind_ch: string;
  category_id: number;
  category: string;
  hid: number | null;
  address: string;
  /** 匿名 for a handler without the desk's rights when the complaint is anonymous */
  contact: string;
  phone: string;
  content: string;
  photos: string[];
  anonymous: boolean;
  status: ComplaintStatus;
  status_ch: string;
  handler_id: number | null;
  handler_name: string;
  respond_deadline: string;
  close_deadline: string;
  accept_time: string;
  finish_time: string;
  finish_note: string;
  rating: number | null;
  rating_text: string;
  rated_auto: boolean;
  close_reason: string;
  close_reason_ch: string;
  close_note: string;
  /** a deadline was missed (marked by the deadline job, once) */
  overdue: boolean;
  respond_overdue: boolean;
  close_overdue: boolean;
  /** the repair ticket this complaint was turned into, when it was */
  repair_id: number | null;
  /** that ticket's number (BX…), '' when none */
  repair_no: string;
  creator: string;
  /** the reader is the complaint's handler */
  mine: boolean;
  create_time: string;
}

const optionalDayRange = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

/** The list's filters; the export takes the same. */
const complaintFilters = {
  no: text(20).optional().default(''),
  kind: z.enum(['', 'C', 'S', 'Q']).optional().default(''),
  category_id: optionalId,
  status: z.enum(['', 'W', 'D', 'E', 'Y', 'X']).optional().default(''),
  handler_id: optionalId,
  hid: optionalId,
  phone: text(20).optional().default(''),
  created: optionalDayRange,
  overdue: z.enum(['', 'Y', 'N']).optional().default(''),
  /** only the complaints handed to the reader */
  mine: z.boolean().optional().default(false),
};

export interface ComplaintCounts {
  all: number;
  W: number;
  D: number;
  E: number;
  Y: number;
  X: number;
  overdue: number;
}

export interface ComplaintStaffOption {
  id: number;
  name: string;
  roles_ch: string;
}

/** One line of 投诉统计 (complaintcount; docs/product.md#complaint-count): the complaints registered in the period. */
export interface ComplaintCountRow {
  /** the kind (C/S/Q), the category id, the handler id ('0' not yet accepted), or 'all' */
  key: string;
  label: string;
  created: number;
  /** 办结: finished (待评价 or 已完成) */
  finished: number;
  /** finished by the close deadline, no deadline missed */
  on_time: number;
  /** a deadline missed (首次响应 or 办结, as the list's 超时) */
  overdue: number;
  /** hours from registration to acceptance (first response), one decimal; null when none accepted */
  avg_response_hours: string | null;
  /** hours from registration to 办结, one decimal; null when none finished */
  avg_close_hours: string | null;
  rated: number;
  /** the average rating 1–5, two decimals; null when none rated */
  avg_rating: string | null;
  /** 满意率: ratings of 4 or 5 stars over the ratings, percent with one decimal; null when none rated */
  satisfaction_rate: string | null;
}

const countRange = {
  start_date: wireDay,
  end_date: wireDay,
};
const countInput = z
  .object(countRange)
  .refine((v) => v.start_date <= v.end_date, { message: '开始日期不能晚于结束日期', path: ['end_date'] });

export const complaintSchemas = {
  complaintcount: countInput,
  complaintcountexport: countInput,
  ...complaintCategory.schemas,
  complaintlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...complaintFilters }),
  complaintexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...complaintFilters }),
  complaintinfo: z.object({ id }),
  complaintadd: z.object({
    kind: z.enum(['C', 'S', 'Q'], { message: '请选择类型' }),
    category_id: id,
    hid: optionalId,
    contact: text(30).min(1, '请输入联系人'),
    phone: complaintPhone,
    content: text(500).min(1, '请输入内容'),
    photos: photoList(9),
    anonymous: z.boolean().default(false),
  }),
  complaint_staff_small_list: z.object({}),
  /** 转为报修单: the ticket's registration (repairadd's input), prefilled on the web from the complaint */
  complainttorepair: z.object({ id, repair: repairAddInput }),
  ...complaintFlow.schemas,
} as const;

export type ComplaintOutputs = ResourceOutputs<typeof complaintCategory.def, ComplaintCategoryItem> & {
  complaintlist: ListAnswer<ComplaintRow> & { counts: ComplaintCounts };
  complaintexport: ExportQueued;
  complaintinfo: ComplaintRow & { log: WorkflowLogItem[] };
  complaintadd: { id: number; no: string };
  complaint_staff_small_list: { items: ComplaintStaffOption[] };
  complainttorepair: ComplaintRow;
  complaintcount: {
    by_kind: ComplaintCountRow[];
    by_category: ComplaintCountRow[];
    by_handler: ComplaintCountRow[];
    totals: ComplaintCountRow;
  };
  complaintcountexport: ExportQueued;
  complaintaccept: ComplaintRow;
  complaintreply: ComplaintRow;
  complaintnote: ComplaintRow;
  complaintfinish: ComplaintRow;
  complaintrate: ComplaintRow;
  complaintclose: ComplaintRow;
  complaintlog: { items: WorkflowLogItem[] };
};
