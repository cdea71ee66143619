/**
 * Room-sales and other contracts (合同 /crm: roomsaleslist, addroomsales, editroomsales, roomshow,
 * other_contracts; docs/product.md#crm-contracts): the contract types with their numbering and
 * custom fields, and the contract as a resource (docs/resources.md) whose life is a workflow:
 * 草稿 → 审批中 → 生效 → 到期 / 已续签 / 终止, or 作废 before it takes effect. Its payment plan
 * becomes fee bills on its room (contractsMoney.ts on the server); after approval its amounts, plan,
 * dates and party change only through an approved change request (contractsFlow.ts).
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import {
  createTimeColumn,
  enumOrAll,
  enumSchema,
  optionalDay,
  resource,
  valueEnum,
  wireDay,
  type ResourceOutputs,
  type ValueEnum,
} from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { MAX_PAYMENT_FEN, moneyUpTo, toFen } from '../money.js';
import { MOBILE_RE } from '../owners.js';
import { imageUrl } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { CRM_ROLES } from './roles.js';

/** Who reads contracts: those who draft them and those who approve them. */
export const CONTRACT_READERS = [...CRM_ROLES.contracts, ...CRM_ROLES.contractAudit] as const;
/** Who reads the contract types (the setcrmsys tab 合同类型与编号 shows to its roles). */
export const CONTRACT_TYPE_READERS = [...new Set([...CONTRACT_READERS, ...CRM_ROLES.settings])] as readonly string[];

export const CONTRACT_KIND = valueEnum({
  sale: { text: '房屋买卖', tone: 'processing' },
  lease: { text: '房屋租赁', tone: 'success' },
  parking: { text: '车位', tone: 'warning' },
  other: { text: '其他', tone: 'default' },
});
export type ContractKind = keyof typeof CONTRACT_KIND;

export const CONTRACT_STATUS = valueEnum({
  D: { text: '草稿', tone: 'default' },
  A: { text: '审批中', tone: 'processing' },
  Y: { text: '生效', tone: 'success' },
  E: { text: '到期', tone: 'warning' },
  R: { text: '已续签', tone: 'default' },
  T: { text: '终止', tone: 'error' },
  V: { text: '作废', tone: 'default' },
});
export type ContractStatus = keyof typeof CONTRACT_STATUS;

/** The lists of /crm/roomsaleslist (rooms and spaces: sale, lease, parking) and /crm/other_contracts. */
export const CONTRACT_SECTION = valueEnum({ units: { text: '房屋合同' }, other: { text: '其他合同' } });

export const INSTALMENT_NAME = valueEnum({
  定金: { text: '定金', tone: 'warning' },
  首付: { text: '首付', tone: 'processing' },
  按揭: { text: '按揭', tone: 'processing' },
  尾款: { text: '尾款', tone: 'success' },
  其他: { text: '其他' },
});
export type InstalmentName = keyof typeof INSTALMENT_NAME;

/** An instalment's collection: 未到期, 待收款 (billed), 已收款, 已逾期, 已退款. */
export const INSTALMENT_STATE = valueEnum({
  planned: { text: '未出账', tone: 'default' },
  billed: { text: '待收款', tone: 'processing' },
  paid: { text: '已收款', tone: 'success' },
  overdue: { text: '已逾期', tone: 'error' },
  refunded: { text: '已退款', tone: 'warning' },
});
export type InstalmentState = keyof typeof INSTALMENT_STATE;

export const CUSTOM_FIELD_TYPE = valueEnum({
  text: { text: '文本' },
  number: { text: '数字' },
  date: { text: '日期' },
  select: { text: '选项' },
});
export type CustomFieldType = keyof typeof CUSTOM_FIELD_TYPE;

export const NUMBER_DATE_FORMAT = valueEnum({
  YYYYMMDD: { text: '年月日（20261201）' },
  YYYYMM: { text: '年月（202612）' },
  YYYY: { text: '年（2026）' },
  none: { text: '不含日期' },
});
export type NumberDateFormat = keyof typeof NUMBER_DATE_FORMAT;

export const TYPE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const NEED_AUDIT = valueEnum({ Y: { text: '需要审批', tone: 'processing' }, N: { text: '无需审批', tone: 'default' } });

export const UNIT_KIND = valueEnum({ room: { text: '房屋' }, space: { text: '车位' } });
export type UnitKind = keyof typeof UNIT_KIND;

/** A unit's sale state (rentroom, /salestable), derived from the contract that holds it. */
export const UNIT_STATE = valueEnum({
  available: { text: '可售', tone: 'success' },
  reserved: { text: '已预订', tone: 'warning' },
  subscribed: { text: '已认购', tone: 'processing' },
  signed: { text: '已签约', tone: 'error' },
  rented: { text: '已出租', tone: 'default' },
});
export type UnitState = keyof typeof UNIT_STATE;

export const FILE_CATEGORY = valueEnum({
  签字页: { text: '签字页' },
  身份证: { text: '身份证' },
  房产证: { text: '房产证' },
  付款凭证: { text: '付款凭证' },
  现场照片: { text: '现场照片' },
  其他: { text: '其他' },
});

export const CHANGE_STATUS = valueEnum({
  A: { text: '审批中', tone: 'processing' },
  Y: { text: '已通过', tone: 'success' },
  N: { text: '已退回', tone: 'error' },
});
export type ChangeStatus = keyof typeof CHANGE_STATUS;

/** The collection filter of contractcolprogress. */
export const COLLECTION_FILTER = valueEnum({
  overdue: { text: '有逾期', tone: 'error' },
  unpaid: { text: '未收齐', tone: 'warning' },
  paid: { text: '已收齐', tone: 'success' },
});

// ---- contract types ------------------------------------------------------------------------

/** A custom field of a contract type: the key is the server's (f1, f2…) and never changes, so answers keep their field. */
export interface CustomFieldDef {
  key: string;
  label: string;
  type: CustomFieldType;
  required: boolean;
  options: string[];
}

export const customFieldDef = z
  .object({
    key: z
      .union([z.literal(''), z.string().regex(/^f\d{1,4}$/, '字段标识不正确')])
      .optional()
      .transform((v) => v || ''),
    label: text(20).min(1, '请填写字段名称'),
    type: enumSchema(CUSTOM_FIELD_TYPE, '字段类型'),
    required: z.boolean().default(false),
    options: z.array(text(20).min(1, '选项不能为空')).max(20, '选项最多 20 个').default([]),
  })
  .refine((f) => f.type !== 'select' || f.options.length > 0, { message: '选项类字段须至少填写一个选项', path: ['options'] });

export interface ContractTypeItem {
  id: number;
  name: string;
  kind: ContractKind;
  kind_ch: string;
  prefix: string;
  date_format: NumberDateFormat;
  date_format_ch: string;
  seq_len: number;
  need_audit: 'Y' | 'N';
  need_audit_ch: string;
  fields: CustomFieldDef[];
  /** the number the rule gives today (HT20261201001) */
  example_no: string;
  /** contracts of the type */
  used: number;
  status: 'Y' | 'N';
  status_ch: string;
  sort: number;
  remark: string;
  create_time: string;
}

export const contractType = resource<ContractTypeItem>()({
  name: 'contracttype',
  label: '合同类型',
  methods: {
    list: 'contracttypelist',
    add: 'contracttypeadd',
    edit: 'contracttypeedit',
    del: 'contracttypedel',
    small: 'contracttype_small_list',
  },
  roles: { read: CONTRACT_TYPE_READERS, write: CRM_ROLES.contracts },
  fields: {
    name: { label: '类型名称', zod: text(20).min(1, '请填写类型名称'), in: ['form', 'table', 'filter'], fixed: true, width: 130 },
    kind: {
      label: '类别',
      zod: enumSchema(CONTRACT_KIND, '类别'),
      enum: CONTRACT_KIND,
      in: ['form', 'table', 'filter'],
      width: 90,
      help: '房屋买卖、车位签约后房源为已签约；房屋租赁为已出租；其他合同可不关联房源',
    },
    prefix: {
      label: '编号前缀',
      zod: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9-]{1,10}$/, '编号前缀为 1 到 10 位字母、数字或 -'),
      in: ['form', 'table'],
      width: 90,
    },
    date_format: {
      label: '编号日期',
      zod: enumSchema(NUMBER_DATE_FORMAT, '编号日期').default('YYYYMMDD'),
      enum: NUMBER_DATE_FORMAT,
      in: ['form'],
    },
    seq_len: { label: '流水号位数', zod: int(2, 6).default(3), widget: 'int', in: ['form'] },
    need_audit: {
      label: '审批',
      zod: yn.default('Y'),
      enum: NEED_AUDIT,
      widget: 'radio',
      in: ['form', 'table'],
      width: 90,
      help: '无需审批的类型提交后直接生效',
    },
    fields: {
      label: '自定义字段',
      zod: z.array(customFieldDef).max(20, '自定义字段最多 20 个').default([]),
      widget: 'custom',
      in: ['form'],
    },
    status: { label: '状态', zod: yn.default('Y'), enum: TYPE_STATUS, in: ['form', 'table', 'filter'], width: 80 },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [
    { key: 'example_no', label: '编号示例', width: 170 },
    { key: 'fields_text', label: '自定义字段', width: 200 },
    { key: 'used', label: '合同数', width: 80 },
  ],
  smallLabel: 'name',
});

// ---- contracts -----------------------------------------------------------------------------

const positive = (label: string) => moneyUpTo(MAX_PAYMENT_FEN).refine((v) => toFen(v) > 0n, `${label}须大于0`);

/** An area in m², two decimals at most. */
export const areaSchema = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: '面积格式不正确，应为不超过 999999 且最多两位小数的数字' });
    return z.NEVER;
  }
  return Number(s).toFixed(2);
});

export const contractUnitInput = z.object({
  unit_kind: enumSchema(UNIT_KIND, '房源类型'),
  unit_id: id,
  area: areaSchema.default('0'),
  price: moneyUpTo(MAX_PAYMENT_FEN),
});
export type ContractUnitInput = z.output<typeof contractUnitInput>;

export const instalmentInput = z.object({
  /** an instalment the contract has (a change request keeps the billed ones as they are) */
  id: optionalId,
  name: enumSchema(INSTALMENT_NAME, '款项名称'),
  amount: positive('每期金额'),
  due_date: wireDay,
});
export type InstalmentInput = z.output<typeof instalmentInput>;

const units = z.array(contractUnitInput).max(50, '房源最多 50 个').default([]);
const instalments = z.array(instalmentInput).max(60, '收款计划最多 60 期').default([]);
/** custom field values by the type's field keys */
const customValues = z
  .record(z.string().regex(/^f\d{1,4}$/, '自定义字段不正确'), z.union([text(200), z.number().finite()]))
  .default({})
  .refine((v) => Object.keys(v).length <= 20, '自定义字段最多 20 个');
const partyMobile = z.string().trim().min(1, '联系电话不能为空').regex(MOBILE_RE, '联系电话格式不正确，应为11位手机号');
const contractNo = text(40)
  .regex(/^[A-Za-z0-9-]*$/, '合同编号只能包含字母、数字和 -')
  .default('');

export interface ContractItem {
  id: number;
  contract_no: string;
  name: string;
  type_id: number;
  type_name: string;
  kind: ContractKind;
  kind_ch: string;
  status: ContractStatus;
  status_ch: string;
  party_name: string;
  party_mobile: string;
  party_id_card: string;
  member_id: number | null;
  /** the sales CRM's customer (crm_customers) */
  customer_id: number | null;
  customer_name: string;
  total_amount: string;
  /** what the paid instalments came to */
  paid_amount: string;
  /** unpaid instalments past their due date */
  overdue_amount: string;
  next_due_date: string | null;
  sign_date: string;
  start_date: string;
  end_date: string | null;
  /** 6号楼1单元104、地下停车场A区-A001 */
  units_text: string;
  /** the first room (the bills' room) */
  hid: number | null;
  parent_id: number | null;
  parent_no: string;
  /** the renewal made of it, if any */
  renewal_id: number | null;
  renewal_no: string;
  /** a change request waits for approval */
  pending_change: boolean;
  creator: string;
  end_reason: string;
  ended_on: string | null;
  custom: Record<string, string | number>;
  remark: string;
  create_time: string;
}

export interface ContractUnitRow {
  id: number;
  unit_kind: UnitKind;
  unit_kind_ch: string;
  unit_id: number;
  title: string;
  bid: number | null;
  area: string;
  price: string;
  /** the price per m² (price ÷ area), '' without an area */
  unit_price: string;
}

export interface InstalmentRow {
  id: number;
  seq: number;
  name: InstalmentName;
  amount: string;
  due_date: string;
  bill_id: number | null;
  billed_at: string;
  bill_note: string;
  paid_at: string;
  receipt_no: string;
  /** the receipt's id, for a refund request (refundapply) */
  payment_id: number | null;
  state: InstalmentState;
  state_ch: string;
  overdue_days: number;
  /** a refund of it waits for approval or was decided (its latest) */
  refund_status: string;
  refund_status_ch: string;
}

export interface ContractDetail extends ContractItem {
  units: ContractUnitRow[];
  instalments: InstalmentRow[];
  type_fields: CustomFieldDef[];
  need_audit: 'Y' | 'N';
  files: number;
  /** the owner record the party is linked to, and whether they own the contract's room now */
  member_name: string;
  owner_of_room: boolean;
  approved_by_name: string;
  approve_time: string;
  submit_time: string;
  /** the reader submitted it (or drafted it, before a submission): an approver never decides their own */
  mine: boolean;
}

export const roomSales = resource<ContractItem>()({
  name: 'roomsales',
  label: '合同',
  methods: {
    list: 'roomsaleslist',
    add: 'addroomsales',
    edit: 'editroomsales',
    del: 'roomsalesdel',
    info: 'roomsalesinfo',
    export: 'roomsalesexport',
  },
  roles: { read: CONTRACT_READERS, write: CRM_ROLES.contracts },
  echoId: true,
  sort: 'desc',
  form: { add: '/crm/addroomsales', edit: '/crm/editroomsales' },
  fields: {
    contract_no: {
      label: '合同编号',
      zod: contractNo,
      filterZod: text(40).optional(),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 170,
      help: '留空按合同类型的编号规则生成；审批前可修改',
    },
    name: { label: '合同名称', zod: text(64).min(1, '合同名称不能为空'), in: ['form', 'table', 'export'], width: 180 },
    type_id: { label: '合同类型', zod: id, widget: { small: 'contracttype_small_list' }, in: ['form', 'filter'] },
    kind: { label: '类别', enum: CONTRACT_KIND, in: ['table', 'filter', 'export'], width: 90 },
    party_name: { label: '乙方', zod: text(64).min(1, '乙方不能为空'), in: ['form', 'table', 'export'], width: 100 },
    party_mobile: { label: '联系电话', zod: partyMobile, in: ['form', 'table', 'export'], width: 120 },
    party_id_card: { label: '证件号码', zod: text(30).default(''), in: ['form', 'export'], help: '身份证号或统一社会信用代码' },
    member_id: { label: '业主', zod: optionalId, widget: 'custom', in: ['form'], help: '乙方是本小区业主时选择' },
    customer_id: {
      label: '意向客户',
      zod: optionalId,
      widget: { small: 'crmcustomer_small_list' },
      in: ['form'],
      help: '销售客户；不选时合同生效后按乙方手机号关联，客户进入签约阶段',
    },
    units: { label: '房源', zod: units, widget: 'custom', in: ['form'] },
    total_amount: { label: '合同总额', zod: moneyUpTo(MAX_PAYMENT_FEN), widget: 'money', in: ['form', 'table', 'export'], width: 120 },
    instalments: { label: '收款计划', zod: instalments, widget: 'custom', in: ['form'] },
    sign_date: { label: '签订日期', zod: wireDay, widget: 'date', in: ['form', 'table', 'export'], width: 110 },
    start_date: { label: '生效日期', zod: wireDay, widget: 'date', in: ['form', 'table', 'export'], width: 110 },
    end_date: { label: '结束日期', zod: optionalDay, widget: 'date', in: ['form', 'table', 'export'], width: 110, help: '买卖合同可留空' },
    custom: { label: '自定义字段', zod: customValues, widget: 'custom', in: ['form'] },
    remark: { label: '备注', zod: text(500).default(''), widget: 'textarea', in: ['form', 'export'] },
    status: { label: '状态', enum: CONTRACT_STATUS, in: ['table', 'filter', 'export'], width: 90 },
    keyword: { label: '关键字', zod: text(40), in: ['filter'], placeholder: '编号、名称、乙方、手机号' },
    section: { label: '范围', enum: CONTRACT_SECTION, in: ['filter'] },
    bid: { label: '楼栋', widget: { small: 'building_small_list' }, in: ['filter'] },
    signed: { label: '签订日期', widget: 'dateRange', in: ['filter'] },
    expiring: {
      label: '即将到期（天）',
      filterZod: z
        .union([z.literal(''), z.null(), int(0, 365)])
        .optional()
        .transform((v) => (v === '' || v === null ? undefined : v)),
      in: ['filter'],
    },
    overdue: { label: '有逾期', enum: valueEnum({ Y: { text: '有逾期', tone: 'error' } }), in: ['filter'] },
  },
  columns: [
    { key: 'type_name', label: '合同类型', width: 110 },
    { key: 'units_text', label: '房源', width: 180 },
    { key: 'paid_amount', label: '已收', widget: 'money', width: 110 },
    { key: 'overdue_amount', label: '逾期未收', widget: 'money', width: 110 },
    { key: 'next_due_date', label: '下次收款', widget: 'date', width: 110 },
    { key: 'parent_no', label: '原合同', width: 150 },
    { key: 'creator', label: '起草人', width: 90 },
    createTimeColumn('起草时间'),
  ],
  rules: [
    {
      check: (v) => !v.end_date || !v.start_date || String(v.end_date) >= String(v.start_date),
      message: '结束日期不能早于生效日期',
      path: 'end_date',
    },
  ],
});

const opinion = { opinion: text(200).default('') };

/**
 * A contract's life. Submitting a type without approval takes effect at once; approving a renewal
 * makes its parent 已续签; the daily job moves a contract past its end to 到期 (steps below).
 */
export const contractFlow = workflow({
  name: 'contract',
  label: '合同',
  states: CONTRACT_STATUS,
  transitions: {
    submit: {
      method: 'contractsubmit',
      label: '提交审批',
      from: ['D'],
      to: 'A',
      roles: CRM_ROLES.contracts,
      confirm: '提交后合同不能再修改，审批通过后生效。确定提交？',
    },
    approve: {
      method: 'contractaudit',
      label: '通过',
      from: ['A'],
      to: 'Y',
      roles: CRM_ROLES.contractAudit,
      fixed: { approve: true },
      input: opinion,
      inputLabels: { opinion: '审批意见' },
      confirm: '通过后合同生效，收款计划按期生成账单。确定通过？',
    },
    reject: {
      method: 'contractaudit',
      label: '退回',
      from: ['A'],
      to: 'D',
      roles: CRM_ROLES.contractAudit,
      fixed: { approve: false },
      input: opinion,
      inputLabels: { opinion: '退回意见' },
      danger: true,
    },
    terminate: {
      method: 'contractterminate',
      label: '终止',
      from: ['Y', 'E'],
      to: 'T',
      roles: CRM_ROLES.contracts,
      input: { reason: text(200).min(1, '请填写终止原因'), date: wireDay },
      inputLabels: { reason: '终止原因', date: '终止日期' },
      confirm: '终止后尚未出账的款项不再生成账单，已出账未缴的账单仍可收取。确定终止？',
      danger: true,
    },
    void: {
      method: 'contractvoid',
      label: '作废',
      from: ['D', 'A'],
      to: 'V',
      roles: CRM_ROLES.contracts,
      input: { reason: text(200).min(1, '请填写作废原因') },
      inputLabels: { reason: '作废原因' },
      confirm: '作废后合同不可恢复，房源释放为可售。确定作废？',
      danger: true,
    },
  },
  steps: {
    create: '起草',
    renew: '续签起草',
    auto: '提交（无需审批，直接生效）',
    expire: '到期',
    renewed: '续签合同生效',
    change: '变更生效',
  },
  logMethod: 'contractlog',
  fieldLabels: { from_no: '原合同', change_id: '变更单' },
});

/** A change request after approval: the new values apply only when approved. */
export const contractChangeFlow = workflow({
  name: 'contractchange',
  label: '合同变更',
  states: CHANGE_STATUS,
  transitions: {
    approve: {
      method: 'contractchangeaudit',
      label: '通过',
      from: ['A'],
      to: 'Y',
      roles: CRM_ROLES.contractAudit,
      fixed: { approve: true },
      input: opinion,
      inputLabels: { opinion: '审批意见' },
      confirm: '通过后变更内容立即写入合同。确定通过？',
    },
    reject: {
      method: 'contractchangeaudit',
      label: '退回',
      from: ['A'],
      to: 'N',
      roles: CRM_ROLES.contractAudit,
      fixed: { approve: false },
      input: opinion,
      inputLabels: { opinion: '退回意见' },
      danger: true,
    },
  },
  steps: { create: '提交变更' },
  logMethod: 'contractchangelog',
  fieldLabels: { reason: '变更原因' },
});

/** What a change request may change: amounts, plan, dates and the party. */
export interface ContractChangeValues {
  party_name: string;
  party_mobile: string;
  party_id_card: string;
  total_amount: string;
  sign_date: string;
  start_date: string;
  end_date: string | null;
  instalments: Array<{ id?: number | undefined; name: InstalmentName; amount: string; due_date: string }>;
}

export interface ContractChangeRow {
  id: number;
  contract_id: number;
  contract_no: string;
  contract_name: string;
  status: ChangeStatus;
  status_ch: string;
  reason: string;
  before: ContractChangeValues;
  after: ContractChangeValues;
  /** the changed items in words: 合同总额：100000.00 → 98000.00 */
  diff: Array<{ label: string; before: string; after: string }>;
  applicant: string;
  mine: boolean;
  decider: string;
  opinion: string;
  create_time: string;
  decide_time: string;
}

/** A row of contract_audit_list: a contract submitted or a change request. */
export interface ContractAuditRow {
  /** contract-5 | change-3 */
  key: string;
  kind: 'contract' | 'change';
  kind_ch: string;
  /** the contract's or the change request's id */
  id: number;
  contract_id: number;
  contract_no: string;
  name: string;
  type_name: string;
  party_name: string;
  total_amount: string;
  /** the state of the row: the contract's (A, D, Y…) or the change's (A, Y, N) */
  status: string;
  status_ch: string;
  submitter: string;
  submit_time: string;
  decider: string;
  decide_time: string;
  opinion: string;
  /** waits for a decision of the reader's roles */
  waiting: boolean;
  mine: boolean;
}

export const AUDIT_TAB = valueEnum({
  todo: { text: '待我审批' },
  done: { text: '我已审批' },
  mine: { text: '我发起的' },
  all: { text: '全部' },
});
export const AUDIT_KIND = valueEnum({ contract: { text: '合同审批', tone: 'processing' }, change: { text: '变更审批', tone: 'warning' } });

/** One step of a contract's audit trail (contract_audit_info): the contract's and its changes'. */
export interface ContractTrailItem extends WorkflowLogItem {
  flow: 'contract' | 'contractchange';
  change_id: number | null;
  opinion: string;
}

export interface ContractFileRow {
  id: number;
  contract_id: number;
  contract_no: string;
  contract_name: string;
  url: string;
  name: string;
  category: string;
  caption: string;
  size: number;
  uploader: string;
  create_time: string;
}

/** The figures of one month (or the year) of 签约回款月报 (contractmonthly). */
export interface ContractMonthFigures {
  /** contracts signed (approved: 生效, 到期, 已续签, 终止) by their signing date */
  signed_count: number;
  signed_amount: string;
  /** of signed_count, by kind */
  kinds: Record<ContractKind, number>;
  /** the instalments that fall due, of the contracts that run or ran */
  planned_amount: string;
  /** of planned_amount, what has been paid (whenever it was) */
  planned_paid: string;
  /** planned_paid ÷ planned_amount in %, one decimal; null when nothing was planned */
  collection_rate: string | null;
  /** the instalments paid, by their payment time; refunded ones not */
  collected_amount: string;
  collected_count: number;
}

export interface ContractMonthRow extends ContractMonthFigures {
  /** 1 to 12 */
  month: number;
}

export interface ContractMonthly {
  year: number;
  rows: ContractMonthRow[];
  totals: ContractMonthFigures;
}

export interface ContractProgressRow {
  id: number;
  contract_no: string;
  name: string;
  type_name: string;
  kind: ContractKind;
  kind_ch: string;
  status: ContractStatus;
  status_ch: string;
  party_name: string;
  party_mobile: string;
  units_text: string;
  total_amount: string;
  /** instalments due by today */
  due_amount: string;
  paid_amount: string;
  outstanding: string;
  overdue_amount: string;
  overdue_days: number;
  next_due_date: string | null;
  next_due_amount: string;
  /** paid ÷ total, in percent with one decimal */
  paid_percent: string;
  /** no room to bill: the plan is tracked, no bill is made */
  no_room: boolean;
  instalments: InstalmentRow[];
}

export interface ContractRefundRow {
  id: number;
  contract_id: number;
  contract_no: string;
  contract_name: string;
  party_name: string;
  instalments: string;
  receipt_no: string;
  payment_id: number;
  amount: string;
  reason: string;
  status: string;
  status_ch: string;
  applicant: string;
  approver: string;
  approve_remark: string;
  create_time: string;
  approve_time: string;
}

export interface UnitStateRow {
  /** room-12 | space-3 */
  key: string;
  unit_kind: UnitKind;
  unit_kind_ch: string;
  unit_id: number;
  title: string;
  bid: number | null;
  floor: number | null;
  area: string;
  state: UnitState;
  state_ch: string;
  list_price: string;
  contract_id: number | null;
  contract_no: string;
  contract_price: string;
  party_name: string;
}

export interface SalesTableCell {
  hid: number;
  tid: number;
  title: string;
  floor: number;
  area: string;
  state: UnitState;
  state_ch: string;
  /** the contract's price of the room, else its list price; '' without either */
  price: string;
  price_kind: 'contract' | 'list' | '';
  contract_id: number | null;
  contract_no: string;
  party_name: string;
}

export interface SalesTableAnswer {
  building: { id: number; title: string };
  units: Array<{ id: number; title: string }>;
  floors: number[];
  cells: SalesTableCell[];
  counts: Record<UnitState, number>;
  /** signed and subscribed contract prices, and the list prices of the rest */
  signed_amount: string;
}

export interface ContractSettings {
  bill_days_ahead: number;
  expiring_days: number;
}

const optionalEnum = <V extends string>(e: ValueEnum<V>, label: string) => enumOrAll(e, label).optional();
const dayRange = z.union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])]).optional();

const progressFilters = {
  keyword: text(40).optional(),
  type_id: optionalId,
  kind: optionalEnum(CONTRACT_KIND, '类别'),
  collection: optionalEnum(COLLECTION_FILTER, '收款情况'),
  due: dayRange,
};
const unitFilters = {
  unit_kind: optionalEnum(UNIT_KIND, '房源类型'),
  bid: optionalId,
  state: optionalEnum(UNIT_STATE, '状态'),
  keyword: text(40).optional(),
};
const changeValues = {
  party_name: text(64).min(1, '乙方不能为空'),
  party_mobile: partyMobile,
  party_id_card: text(30).default(''),
  total_amount: moneyUpTo(MAX_PAYMENT_FEN),
  sign_date: wireDay,
  start_date: wireDay,
  end_date: optionalDay,
  instalments,
};

export const contractSchemas = {
  ...contractType.schemas,
  ...roomSales.schemas,
  ...contractFlow.schemas,
  ...contractChangeFlow.schemas,
  contractsettings: z.object({}),
  contractsettingsedit: z.object({ bill_days_ahead: int(0, 90), expiring_days: int(1, 365) }),
  /** xzroomsales: a new draft of a contract, linked to it */
  contractrenew: z.object({ id }),
  contractchangeadd: z
    .object({ id, reason: text(200).min(1, '请填写变更原因'), ...changeValues })
    .refine((v) => !v.end_date || v.end_date >= v.start_date, { message: '结束日期不能早于生效日期', path: ['end_date'] }),
  contractchangelist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    contract_id: optionalId,
    status: optionalEnum(CHANGE_STATUS, '状态'),
  }),
  contractchangeinfo: z.object({ id }),
  contractauditlist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    tab: enumSchema(AUDIT_TAB, '列表').default('todo'),
    kind: optionalEnum(AUDIT_KIND, '审批类型'),
    keyword: text(40).optional(),
  }),
  contractauditinfo: z.object({ id }),
  contractfilelist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    contract_id: optionalId,
    category: optionalEnum(FILE_CATEGORY, '类别'),
    keyword: text(40).optional(),
  }),
  contractfileadd: z.object({
    contract_id: id,
    url: imageUrl,
    name: text(100).min(1, '请填写文件名'),
    category: enumSchema(FILE_CATEGORY, '类别').default('其他'),
    caption: text(100).default(''),
  }),
  contractfiledel: z.object({ id }),
  contractcolprogress: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...progressFilters }),
  contractcolprogressexport: z.object(progressFilters),
  contractmonthly: z.object({ year: int(2000, 2100).optional() }),
  contractmonthlyexport: z.object({ year: int(2000, 2100).optional() }),
  contractrefundlist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    contract_id: optionalId,
    status: z.union([z.literal(''), z.enum(['E', 'Y', 'N'], { error: '状态取值不正确' })]).optional(),
    keyword: text(40).optional(),
  }),
  /** runs the daily contract jobs for the community as of a day (bills due, expiries) */
  contractjobrun: z.object({ as_of: wireDay }),
  rentroomlist: z.object({ ...paging, ...unitFilters }),
  rentroomexport: z.object(unitFilters),
  rentroompriceset: z
    .object({
      units: z
        .array(z.object({ unit_kind: enumSchema(UNIT_KIND, '房源类型'), unit_id: id }))
        .min(1, '请选择房源')
        .max(500, '一次最多设置 500 个房源'),
      per_m2: z
        .union([z.literal(''), z.null(), positive('单价')])
        .optional()
        .transform((v) => v || undefined),
      price: z
        .union([z.literal(''), z.null(), moneyUpTo(MAX_PAYMENT_FEN)])
        .optional()
        .transform((v) => (v === '' || v === null ? undefined : v)),
    })
    .refine((v) => (v.per_m2 === undefined) !== (v.price === undefined), { message: '请填写每平米单价或总价（二选一）', path: ['price'] }),
  salestable: z.object({ bid: id }),
} as const;

export type ContractOutputs = ResourceOutputs<typeof contractType.def, ContractTypeItem> &
  ResourceOutputs<typeof roomSales.def, ContractItem> & {
    roomsalesinfo: ContractDetail;
    contractsubmit: ContractItem;
    contractaudit: ContractItem;
    contractterminate: ContractItem;
    contractvoid: ContractItem;
    contractlog: { items: WorkflowLogItem[] };
    contractchangeaudit: ContractChangeRow;
    contractchangelog: { items: WorkflowLogItem[] };
    contractsettings: ContractSettings;
    contractsettingsedit: ContractSettings;
    contractrenew: { id: number; contract_no: string };
    contractchangeadd: { id: number };
    contractchangelist: { items: ContractChangeRow[]; total: number };
    contractchangeinfo: ContractChangeRow;
    contractauditlist: { items: ContractAuditRow[]; total: number; waiting: number };
    contractauditinfo: { contract: ContractItem; trail: ContractTrailItem[]; changes: ContractChangeRow[] };
    contractfilelist: { items: ContractFileRow[]; total: number };
    contractfileadd: ContractFileRow;
    contractfiledel: null;
    contractcolprogress: {
      items: ContractProgressRow[];
      total: number;
      sums: { total_amount: string; due_amount: string; paid_amount: string; outstanding: string; overdue_amount: string };
    };
    contractcolprogressexport: ExportQueued;
    contractmonthly: ContractMonthly;
    contractmonthlyexport: ExportQueued;
    contractrefundlist: { items: ContractRefundRow[]; total: number };
    contractjobrun: { billed: number; expired: number; reminded: number };
    rentroomlist: { items: UnitStateRow[]; total: number; counts: Record<UnitState, number> };
    rentroomexport: ExportQueued;
    rentroompriceset: { updated: number };
    salestable: SalesTableAnswer;
  };
