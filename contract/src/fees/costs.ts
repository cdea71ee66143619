/**
 * 成本登记 and 成本统计 (docs/product.md#costs): the community's cost items as a two-level tree
 * (categories such as 人工成本 and the items under them, /fees/costitemlist), the costs paid against
 * an item (/fees/costdetaillist, costadd, costedit, costinfo), voided with a reason and then counted
 * in no sum (a workflow), and the year's report by category and item × month against the same
 * months of last year (/feecounts/costcount).
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, text, yn } from '../common.js';
import type { ListAnswer } from '../codes.js';
import { photoList } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { MAX_PAYMENT_FEN, moneyUpTo, toFen } from '../money.js';
import type { SmallItem } from '../structure.js';
import { FEE_ROLES } from './roles.js';

/** The categories every community starts with (人工成本 first), in this order. */
export const COST_CATEGORIES = ['人工成本', '能耗', '维修维护', '绿化保洁', '安保', '办公行政', '其他'] as const;

export const COST_ITEM_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

export interface CostItemRow {
  id: number;
  /** null: a category; else the category the item is under */
  parent_id: number | null;
  parent_name: string;
  name: string;
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** the costs registered against the item (voided too); a category's: of its items */
  record_count: number;
  create_time: string;
}

export const costItem = resource<CostItemRow>()({
  name: 'costitem',
  label: '成本项目',
  methods: { list: 'costitemlist', add: 'costitemadd', edit: 'costitemedit', del: 'costitemdel', small: 'costitem_small_list' },
  roles: { read: FEE_ROLES.costRead, write: FEE_ROLES.costs },
  echoId: true,
  fields: {
    name: {
      label: '名称',
      zod: text(20).min(1, '请输入名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      width: 200,
      placeholder: '如 保洁工资',
    },
    parent_id: {
      label: '所属分类',
      zod: optionalId.transform((v) => v ?? null),
      widget: 'custom',
      in: ['form'],
      help: '不选为成本分类；成本登记在分类下的项目上，最多两级',
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 80, help: '数字小的在前' },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: COST_ITEM_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 80,
      help: '停用后登记成本时不能再选，已有的记录不受影响',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table'], width: 200 },
  },
  columns: [{ key: 'record_count', label: '成本记录', width: 100 }, createTimeColumn()],
});

/** One node of costitem_small_list: a category (parent_id null) or an item, titled 分类 / 项目. */
export interface CostItemOption extends SmallItem {
  parent_id: number | null;
  /** the item's own name (title says its category too) */
  name: string;
  status: 'Y' | 'N';
}

export const COST_PAY_METHOD = valueEnum({
  transfer: { text: '转账', tone: 'processing' },
  cash: { text: '现金' },
  check: { text: '支票', tone: 'warning' },
  other: { text: '其他' },
});
export type CostPayMethod = keyof typeof COST_PAY_METHOD;

/** 已登记 → 已作废 (with a reason); a voided cost stays listed and counts in no sum. */
export const COST_STATUS = valueEnum({ Y: { text: '已登记', tone: 'success' }, X: { text: '已作废', tone: 'default' } });
export type CostStatus = keyof typeof COST_STATUS;

export interface CostRecordRow {
  id: number;
  pay_date: string;
  category_id: number;
  category_name: string;
  item_id: number;
  item_name: string;
  amount: string;
  payee: string;
  pay_method: CostPayMethod;
  pay_method_ch: string;
  handler: string;
  invoice_no: string;
  /** uploaded images' addresses (imageupload): receipts, invoices, contracts */
  attachments: string[];
  remark: string;
  status: CostStatus;
  status_ch: string;
  void_reason: string;
  void_time: string;
  voider: string;
  creator: string;
  create_time: string;
}

const positiveAmount = moneyUpTo(MAX_PAYMENT_FEN).refine((v) => toFen(v) > 0n, '金额须大于0');

export const costRecord = resource<CostRecordRow>()({
  name: 'cost',
  label: '成本记录',
  methods: { list: 'costdetaillist', add: 'costadd', edit: 'costedit', del: 'costdel', info: 'costinfo', export: 'costexport' },
  roles: { read: FEE_ROLES.costRead, write: FEE_ROLES.costs },
  echoId: true,
  sort: 'desc',
  form: { add: '/fees/costadd', edit: '/fees/costedit' },
  fields: {
    keyword: { label: '关键字', in: ['filter'], placeholder: '收款方、经办人、发票号、备注' },
    pay_range: { label: '付款日期', widget: 'dateRange', in: ['filter'] },
    category_id: { label: '成本分类', widget: { small: 'costcategory_small_list' }, in: ['filter'] },
    pay_date: { label: '付款日期', zod: wireDay, widget: 'date', in: ['form', 'table', 'export'], width: 110, fixed: true },
    category_name: { label: '成本分类', in: ['table', 'export'], width: 100 },
    item_name: { label: '成本项目', in: ['table', 'export'], width: 120 },
    item_id: {
      label: '成本项目',
      zod: id,
      widget: { small: 'costitem_small_list' },
      in: ['form', 'filter'],
      help: '选择分类下的项目；项目在「成本项目」中维护',
    },
    amount: { label: '金额', zod: positiveAmount, widget: 'money', in: ['form', 'table', 'export'], width: 120 },
    payee: {
      label: '收款方',
      zod: text(60).min(1, '请输入收款方'),
      in: ['form', 'table', 'export'],
      width: 160,
      placeholder: '单位或个人',
    },
    pay_method: {
      label: '付款方式',
      zod: z.enum(['transfer', 'cash', 'check', 'other'], { message: '请选择付款方式' }).default('transfer'),
      enum: COST_PAY_METHOD,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    handler: {
      label: '经办人',
      zod: text(20).default(''),
      in: ['form', 'table', 'export'],
      width: 90,
      help: '不填为登记人',
    },
    invoice_no: { label: '发票号', zod: text(40).default(''), in: ['form', 'table', 'export'], width: 130 },
    attachments: {
      label: '附件',
      zod: photoList(9),
      widget: 'custom',
      in: ['form'],
      help: '付款凭证、发票或合同的照片，最多 9 张',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
    status: { label: '状态', enum: COST_STATUS, in: ['table', 'filter', 'export'], width: 90 },
  },
  columns: [
    { key: 'void_reason', label: '作废原因', in: ['export'] },
    { key: 'creator', label: '登记人', width: 90 },
    createTimeColumn('登记时间'),
  ],
});

/** The list's sums over every row of its filters, the voided left out. */
export interface CostSums {
  /** the registered costs' amount */
  amount: string;
  /** how many registered costs */
  count: number;
  /** how many voided ones the filters also list */
  voided: number;
}

export const costVoidFlow = workflow({
  name: 'cost',
  label: '成本记录',
  states: COST_STATUS,
  transitions: {
    void: {
      method: 'costvoid',
      label: '作废',
      from: ['Y'],
      to: 'X',
      roles: FEE_ROLES.costs,
      input: { reason: text(200).min(1, '请填写作废原因') },
      inputLabels: { reason: '作废原因' },
      confirm: '作废后该笔成本不再计入任何合计和统计，记录保留可查，不能恢复。确定作废？',
      danger: true,
    },
  },
  steps: { create: '登记', edit: '修改' },
  logMethod: 'costlog',
  fieldLabels: { amount: '金额', item: '成本项目' },
});

/** 成本统计 of one year (this year when not given). */
const countInput = { year: int(2000, 2100).optional() };

export const costSchemas = {
  ...costItem.schemas,
  costcategory_small_list: z.object({}),
  /** adds the built-in categories a community lacks (a new community starts with none) */
  costcategoryinit: z.object({}),
  ...costRecord.schemas,
  // a retry of the same registration (the network failed after the server saved it) saves it once
  costadd: costRecord.formSchema.extend({ idempotency_key: idempotencyKey.optional() }),
  ...costVoidFlow.schemas,
  costcount: z.object(countInput),
  costcountexport: z.object(countInput),
} as const;

/** One row of 成本统计: a category (its items' sums) or an item. */
export interface CostCountRow {
  /** c<id> for a category, i<id> for an item */
  key: string;
  level: 'category' | 'item';
  id: number;
  parent_id: number | null;
  name: string;
  /** the amount of each month of the year, January first (12) */
  months: string[];
  /** how many costs each month */
  counts: number[];
  /** the year to date: the months up to `through_month` */
  total: string;
  count: number;
  /** % of the year-to-date total of all costs, two decimals */
  share: string;
  /** the same months of the year before */
  last_total: string;
  /** total − last_total */
  change: string;
  /** change ÷ last_total in %, two decimals; null when the year before had none */
  change_rate: string | null;
}

export type CostCountFigures = Omit<CostCountRow, 'key' | 'level' | 'id' | 'parent_id' | 'name'>;

export interface CostCount {
  year: number;
  /** the last month counted: this month for this year, 12 for a past year, 0 for a year to come */
  through_month: number;
  /** each category with costs in either year, then its items with costs, in the tree's order */
  rows: CostCountRow[];
  totals: CostCountFigures;
  /** last year's amount of each month (the bars' second series) */
  last_months: string[];
}

export type CostOutputs = Omit<ResourceOutputs<typeof costItem.def, CostItemRow>, 'costitem_small_list'> &
  Omit<ResourceOutputs<typeof costRecord.def, CostRecordRow>, 'costdetaillist'> & {
    costitem_small_list: { items: CostItemOption[] };
    costcategory_small_list: { items: SmallItem[] };
    costcategoryinit: { added: number };
    costdetaillist: ListAnswer<CostRecordRow> & { sums: CostSums };
    costvoid: CostRecordRow;
    costlog: { items: WorkflowLogItem[] };
    costcount: CostCount;
    costcountexport: ExportQueued;
  };
