/**
 * Care affairs (关怀事务 /crm/affair, groupaffairadds, setaffair, setgroupaffair;
 * docs/product.md#crm-care): what staff do for a care customer (a birthday greeting, a festival
 * visit, a move-in anniversary, a follow-up call, a home visit), assigned to a staff member with a
 * day it is due: 待办 → 已完成 (the result and the time it was done) or 已取消 (a reason). A group
 * affair makes one for each customer chosen by building, tag, birthday month or special attention,
 * all or nothing; recurring rules make them by a daily job (`care_affairs`), each occurrence once
 * per customer. An open affair waits on its assignee's to-do list (kind careaffair).
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text } from '../common.js';
import type { ListAnswer } from '../codes.js';
import { WIRE_TIME_RE } from '../dates.js';
import {
  createTimeColumn,
  enumOrAll,
  enumSchema,
  optionalDay,
  resource,
  valueEnum,
  wireDay,
  type ResourceOutputs,
} from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import type { SmallItem } from '../structure.js';
import { BIRTH_MONTH, CARE_ATTENTION, CARE_CUSTOMER_KIND, CARE_ROLES } from './care.js';

export const AFFAIR_KIND = valueEnum({
  birthday: { text: '生日祝福', tone: 'error' },
  festival: { text: '节日慰问', tone: 'warning' },
  anniversary: { text: '入住周年', tone: 'success' },
  call: { text: '回访电话', tone: 'processing' },
  visit: { text: '上门探访', tone: 'processing' },
  other: { text: '其他', tone: 'default' },
});
export type AffairKind = keyof typeof AFFAIR_KIND;

export const AFFAIR_STATUS = valueEnum({
  P: { text: '待办', tone: 'warning' },
  Y: { text: '已完成', tone: 'success' },
  C: { text: '已取消', tone: 'default' },
});
export type AffairStatus = keyof typeof AFFAIR_STATUS;

/** Where an affair came from. */
export const AFFAIR_SOURCE = valueEnum({
  manual: { text: '手动新增' },
  group: { text: '批量事务', tone: 'processing' },
  rule: { text: '规则生成', tone: 'success' },
});
export type AffairSource = keyof typeof AFFAIR_SOURCE;

export const OVERDUE = valueEnum({ Y: { text: '已逾期', tone: 'error' }, N: { text: '未逾期' } });

/** Who takes an affair a rule or a group affair makes. */
export const ASSIGN_MODE = valueEnum({
  steward: { text: '客户的负责管家优先' },
  fixed: { text: '统一指定负责人' },
});

export interface CareAffairItem {
  id: number;
  customer_id: number;
  realname: string;
  /** the customer's mobile, masked for an account without contact_whole */
  mobile: string;
  houses: string;
  kind: AffairKind;
  kind_ch: string;
  content: string;
  assignee_id: number;
  assignee_name: string;
  due_date: string;
  status: AffairStatus;
  status_ch: string;
  /** 待办 past its day */
  overdue: boolean;
  /** days from today to the day it is due (negative once past) */
  days_left: number;
  result: string;
  done_time: string;
  done_by_name: string;
  cancel_reason: string;
  cancel_time: string;
  source: AffairSource;
  source_ch: string;
  batch_id: number | null;
  batch_title: string;
  rule_id: number | null;
  rule_name: string;
  /** a rule's occurrence: 2026, 2026-12, 2026-Q4 */
  occurrence: string;
  /** who added it ('系统' for the daily job) */
  creator: string;
  create_time: string;
}

export const careAffair = resource<CareAffairItem>()({
  name: 'careaffair',
  label: '关怀事务',
  methods: {
    list: 'affairlist',
    add: 'affairadd',
    edit: 'affairedit',
    del: 'affairdel',
    info: 'affairinfo',
    export: 'affairexport',
  },
  roles: { read: CARE_ROLES, write: CARE_ROLES },
  echoId: true,
  sort: 'desc',
  fields: {
    keyword: { label: '客户姓名/手机号', zod: text(30), in: ['filter'] },
    customer_id: { label: '客户', zod: id, filterZod: optionalId, match: 'eq', widget: 'custom', in: ['form', 'filter'], once: true },
    kind: {
      label: '事务类型',
      zod: enumSchema(AFFAIR_KIND, '事务类型'),
      enum: AFFAIR_KIND,
      in: ['form', 'table', 'filter', 'export'],
      width: 100,
    },
    status: {
      label: '状态',
      enum: AFFAIR_STATUS,
      in: ['table', 'filter', 'export'],
      width: 80,
    },
    due_date: { label: '计划日期', zod: wireDay, widget: 'date', in: ['form', 'table', 'export'], width: 110 },
    due_range: { label: '计划日期', widget: 'dateRange', in: ['filter'] },
    late: { label: '是否逾期', enum: OVERDUE, in: ['filter'] },
    assignee_id: { label: '负责人', zod: id, widget: { small: 'care_staff_small_list' }, in: ['form', 'filter'] },
    content: { label: '事务内容', zod: text(500).default(''), widget: 'textarea', in: ['form', 'table', 'export'], width: 220 },
    batch_id: { label: '批量事务', widget: { small: 'care_batch_small_list' }, in: ['filter'] },
    rule_id: { label: '来源规则', widget: { small: 'affairrule_small_list' }, in: ['filter'] },
  },
  columns: [
    { key: 'realname', label: '客户', width: 90, fixed: true },
    { key: 'mobile', label: '手机号', width: 120 },
    { key: 'houses', label: '房屋', width: 160 },
    { key: 'assignee_name', label: '负责人', width: 90 },
    { key: 'source', label: '来源', enum: AFFAIR_SOURCE, width: 90 },
    { key: 'result', label: '处理结果', width: 200 },
    { key: 'done_time', label: '完成时间', width: 170 },
    { key: 'cancel_reason', label: '取消原因', width: 160, in: ['export'] },
    { key: 'creator', label: '创建人', width: 90 },
    createTimeColumn(),
  ],
});

/** A done time the user gives: not in the future (the server checks against its clock). */
const doneTime = z.union([z.literal(''), z.string().regex(WIRE_TIME_RE, '时间格式应为 YYYY-MM-DD HH:mm:ss')]).default('');

export const careAffairFlow = workflow({
  name: 'careaffair',
  label: '关怀事务',
  states: AFFAIR_STATUS,
  transitions: {
    done: {
      method: 'affairdone',
      label: '完成',
      from: ['P'],
      to: 'Y',
      roles: CARE_ROLES,
      input: { result: text(500).min(1, '请填写处理结果'), done_time: doneTime },
      inputLabels: { result: '处理结果', done_time: '完成时间' },
    },
    cancel: {
      method: 'affaircancel',
      label: '取消',
      from: ['P'],
      to: 'C',
      roles: CARE_ROLES,
      input: { reason: text(200).min(1, '请填写取消原因') },
      inputLabels: { reason: '取消原因' },
      confirm: '取消后该事务不再提醒负责人。',
      danger: true,
    },
  },
  steps: { create: '创建', edit: '修改', batchcancel: '批量取消', reassign: '批量转派' },
  logMethod: 'affairlog',
  fieldLabels: { assignee: '负责人', rule: '规则', batch: '批量事务' },
});

/* ---------- group affairs (批量事务 /crm/groupaffairadds) ---------- */

/** At most this many customers a group affair. */
export const GROUP_AFFAIR_MAX = 3000;

/** Who a group affair is for: customers in care matching every criterion given (none: all of them). */
const groupCriteria = {
  bid: optionalId,
  tag: text(10).optional().default(''),
  attention: z
    .union([z.literal(''), enumSchema(CARE_ATTENTION, '特别关注')])
    .optional()
    .default(''),
  birth_month: z
    .union([z.literal(''), enumSchema(BIRTH_MONTH, '生日月份')])
    .optional()
    .default(''),
  kind: z
    .union([z.literal(''), enumSchema(CARE_CUSTOMER_KIND, '客户类型')])
    .optional()
    .default(''),
  steward_id: optionalId,
};
export type GroupCriteria = z.infer<z.ZodObject<typeof groupCriteria>>;

const assignMode = enumSchema(ASSIGN_MODE, '分配方式').default('steward');

export interface GroupAffairPreview {
  total: number;
  /** the first customers' names */
  names: string[];
  /** the criteria in words: 1号楼、生日 12 月 */
  criteria_text: string;
  limit: number;
}

export interface CareBatchRow {
  id: number;
  title: string;
  affair_kind: AffairKind;
  affair_kind_ch: string;
  content: string;
  due_date: string;
  assign_mode: keyof typeof ASSIGN_MODE;
  assign_mode_ch: string;
  assignee_id: number;
  assignee_name: string;
  criteria_text: string;
  total: number;
  done: number;
  open: number;
  cancelled: number;
  /** 待办 past the day */
  overdue: number;
  creator: string;
  create_time: string;
}

/* ---------- recurring rules (关怀规则 /crm/setaffair, setgroupaffair) ---------- */

export const RULE_CYCLE = valueEnum({
  birthday: { text: '每年生日', tone: 'error' },
  anniversary: { text: '入住周年', tone: 'success' },
  monthly: { text: '每月', tone: 'processing' },
  quarterly: { text: '每季', tone: 'processing' },
  festival: { text: '节日（每年固定日期）', tone: 'warning' },
});
export type RuleCycle = keyof typeof RULE_CYCLE;
/** The cycles of each customer's own days (setaffair) and of the calendar (setgroupaffair). */
export const PERSONAL_CYCLES = ['birthday', 'anniversary'] as const satisfies readonly RuleCycle[];
export const CALENDAR_CYCLES = ['monthly', 'quarterly', 'festival'] as const satisfies readonly RuleCycle[];

export const RULE_SCOPE = valueEnum({ personal: { text: '个人纪念日' }, calendar: { text: '定期与节日' } });
export const RULE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

const FESTIVAL_RE = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export interface AffairRuleItem {
  id: number;
  name: string;
  cycle: RuleCycle;
  cycle_ch: string;
  affair_kind: AffairKind;
  affair_kind_ch: string;
  days_before: number;
  day_of_month: number | null;
  festival_date: string | null;
  tag: string;
  assign_mode: keyof typeof ASSIGN_MODE;
  assign_mode_ch: string;
  assignee_id: number;
  assignee_name: string;
  content: string;
  status: 'Y' | 'N';
  status_ch: string;
  /** 每年生日前 7 天生成 */
  schedule_text: string;
  /** affairs made, and of them 待办 */
  made: number;
  open: number;
  create_time: string;
}

export const affairRule = resource<AffairRuleItem>()({
  name: 'affairrule',
  label: '关怀规则',
  methods: {
    list: 'affairrulelist',
    add: 'affairruleadd',
    edit: 'affairruleedit',
    del: 'affairruledel',
    small: 'affairrule_small_list',
    export: 'affairruleexport',
  },
  roles: { read: CARE_ROLES, write: CARE_ROLES },
  echoId: true,
  smallLabel: 'name',
  fields: {
    name: { label: '规则名称', zod: text(30).min(1, '请输入规则名称'), in: ['form', 'table', 'filter', 'export'], fixed: true, width: 140 },
    scope: { label: '规则类别', enum: RULE_SCOPE, in: ['filter'] },
    cycle: {
      label: '周期',
      zod: enumSchema(RULE_CYCLE, '周期'),
      enum: RULE_CYCLE,
      widget: 'custom',
      in: ['form', 'table', 'filter', 'export'],
      width: 110,
    },
    affair_kind: {
      label: '事务类型',
      zod: enumSchema(AFFAIR_KIND, '事务类型'),
      enum: AFFAIR_KIND,
      in: ['form', 'table', 'export'],
      width: 100,
    },
    day_of_month: {
      label: '每月几号',
      zod: z
        .union([z.literal(''), z.null(), int(1, 28)])
        .optional()
        .transform((v) => (v === '' || v === undefined ? null : v)),
      widget: 'int',
      in: ['form'],
      help: '每月、每季：事务的计划日（每季为季度第一个月的这一天），1 到 28',
    },
    festival_date: {
      label: '节日日期',
      zod: z
        .union([z.literal(''), z.null(), z.string().trim().regex(FESTIVAL_RE, '节日日期格式应为 MM-DD，如 10-01')])
        .optional()
        .transform((v) => (v ? v : null)),
      in: ['form'],
      placeholder: 'MM-DD，如 10-01',
    },
    days_before: {
      label: '提前天数',
      zod: int(0, 60).default(7),
      widget: 'int',
      in: ['form', 'table', 'export'],
      width: 90,
      help: '在计划日前几天生成事务（0 为当天生成）',
    },
    tag: {
      label: '适用客户',
      zod: text(10).default(''),
      widget: 'custom',
      in: ['form', 'table', 'export'],
      width: 110,
      help: '只为有该标签或特别关注的客户生成；留空为全部关怀中的客户',
    },
    assign_mode: { label: '分配方式', zod: assignMode, enum: ASSIGN_MODE, widget: 'radio', in: ['form', 'export'] },
    assignee_id: {
      label: '负责人',
      zod: id,
      widget: { small: 'care_staff_small_list' },
      in: ['form'],
      help: '客户没有负责管家时（或统一指定时）由此人负责',
    },
    content: {
      label: '事务内容',
      zod: text(200).default(''),
      widget: 'textarea',
      in: ['form', 'export'],
      help: '可写 {姓名}、{周年}，生成时替换',
    },
    status: {
      label: '状态',
      zod: z.enum(['Y', 'N']).default('Y'),
      enum: RULE_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
  },
  columns: [
    { key: 'schedule_text', label: '生成时间', width: 200 },
    { key: 'assignee_name', label: '负责人', width: 90 },
    { key: 'made', label: '已生成', width: 80 },
    { key: 'open', label: '待办', width: 70 },
    createTimeColumn(),
  ],
  rules: [
    {
      check: (v) => !['monthly', 'quarterly'].includes(String(v.cycle)) || !!v.day_of_month,
      message: '请填写每月几号（1 到 28）',
      path: 'day_of_month',
    },
    { check: (v) => v.cycle !== 'festival' || !!v.festival_date, message: '请填写节日日期（MM-DD）', path: 'festival_date' },
    {
      check: (v) => {
        if (!v.festival_date) return true;
        const [m, d] = String(v.festival_date).split('-').map(Number);
        // 02-29 is kept (its affair falls on 02-28 in other years); 04-31 never comes
        return d! <= [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m! - 1]!;
      },
      message: '节日日期不存在',
      path: 'festival_date',
    },
  ],
});

const batchFilters = {
  title: text(40).optional(),
  affair_kind: enumOrAll(AFFAIR_KIND, '事务类型').optional(),
};

export const careAffairSchemas = {
  ...careAffair.schemas,
  ...careAffairFlow.schemas,
  ...affairRule.schemas,
  /** the status bar's counts of the list's filters (all but 状态 and 逾期) */
  affaircounts: careAffair.schemas.affairlist.omit({ page: true, limit: true, sort: true, status: true, late: true }),
  groupaffairpreview: z.object(groupCriteria),
  groupaffairadds: z.object({
    ...groupCriteria,
    title: text(40).min(1, '请输入批量事务名称'),
    affair_kind: enumSchema(AFFAIR_KIND, '事务类型'),
    content: text(500).default(''),
    due_date: wireDay,
    assign_mode: assignMode,
    assignee_id: id,
  }),
  groupaffairlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...batchFilters }),
  /** cancels every 待办 affair of a group affair */
  groupaffaircancel: z.object({ id, reason: text(200).min(1, '请填写取消原因') }),
  /** hands every 待办 affair of a group affair to another staff member */
  groupaffairassign: z.object({ id, assignee_id: id }),
  care_batch_small_list: z.object({}),
  /** the daily job's work for this community now, or as of a day (admin: a drill, the tests) */
  affairrulerun: z.object({ as_of: optionalDay, rule_id: optionalId }),
} as const;

export type CareAffairCounts = Record<AffairStatus | 'all' | 'overdue', number>;

export type CareAffairOutputs = ResourceOutputs<typeof careAffair.def, CareAffairItem> &
  ResourceOutputs<typeof affairRule.def, AffairRuleItem> & {
    affairdone: CareAffairItem;
    affaircancel: CareAffairItem;
    affairlog: { items: WorkflowLogItem[] };
    affaircounts: CareAffairCounts;
    groupaffairpreview: GroupAffairPreview;
    groupaffairadds: { id: number; total: number };
    groupaffairlist: ListAnswer<CareBatchRow>;
    groupaffaircancel: { cancelled: number };
    groupaffairassign: { assigned: number };
    care_batch_small_list: { items: SmallItem[] };
    affairrulerun: { made: number; as_of: string };
  };

/** When a rule makes its affairs, in words: 每年生日前 7 天生成. */
export function ruleScheduleText(r: {
  cycle: RuleCycle;
  days_before: number;
  day_of_month?: number | null;
  festival_date?: string | null;
}): string {
  const ahead = r.days_before > 0 ? `提前 ${r.days_before} 天生成` : '当天生成';
  switch (r.cycle) {
    case 'birthday':
      return r.days_before > 0 ? `每年生日前 ${r.days_before} 天生成` : '每年生日当天生成';
    case 'anniversary':
      return r.days_before > 0 ? `每年入住纪念日前 ${r.days_before} 天生成` : '每年入住纪念日当天生成';
    case 'monthly':
      return `每月 ${r.day_of_month ?? '-'} 日，${ahead}`;
    case 'quarterly':
      return `每季首月 ${r.day_of_month ?? '-'} 日，${ahead}`;
    case 'festival': {
      const [m, d] = (r.festival_date ?? '-').split('-');
      return `每年 ${Number(m)} 月 ${Number(d)} 日，${ahead}`;
    }
  }
}
