/**
 * Sales customers (销售客户 /crm/crm, addcrm, editcrm, crm_show; docs/product.md#crm-sales) as a
 * resource (docs/resources.md), their pipeline as a workflow (报备 → 有效 → 来访 → 认筹 → 认购 → 签约,
 * or 无效 with a reason) and the pool's actions: claim, assign, release. A customer's mobile is its
 * key in the community; mobiles and ID numbers show masked without `contact_whole`, as owners' do.
 */
import { z } from 'zod';
import { id, text } from '../common.js';
import { createTimeColumn, enumOrAll, enumSchema, resource, valueEnum, type ResourceOutputs, type ValueEnum } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { isValidIdCard, MOBILE_RE } from '../owners.js';
import { CRM_ROLES } from './roles.js';

/**
 * Who works the sales customers: the consultants (`crm`), and the sales managers, who see the team's
 * customers, reopen an invalid one, assign and transfer customers and set the pool's rules. A sales
 * manager is whoever approves the contracts (`contractaudit`); an administrator always is one.
 */
export const SALES_ROLES = {
  staff: [...CRM_ROLES.sales],
  managers: [...CRM_ROLES.contractAudit],
  /** the pool's rules are read by the consultants and by whoever opens setcrmsys */
  settingsRead: [...new Set([...CRM_ROLES.sales, ...CRM_ROLES.settings])],
} as const;

/** The pipeline, in order; 无效 stands beside it. */
export const CRM_STAGE = valueEnum({
  report: { text: '报备', tone: 'default' },
  valid: { text: '有效', tone: 'processing' },
  visit: { text: '来访', tone: 'processing' },
  pledge: { text: '认筹', tone: 'warning' },
  subscribe: { text: '认购', tone: 'success' },
  sign: { text: '签约', tone: 'success' },
  invalid: { text: '无效', tone: 'error' },
});
export type CrmStage = keyof typeof CRM_STAGE;
/** The stages of the funnel, first to last. */
export const PIPELINE: readonly CrmStage[] = ['report', 'valid', 'visit', 'pledge', 'subscribe', 'sign'];
/** Open and not yet dealt: the pool's clocks run and the holding limit counts them. */
export const HELD_STAGES: readonly CrmStage[] = ['report', 'valid', 'visit', 'pledge'];
/** A deal: never taken back to the pool. */
export const DEALT_STAGES: readonly CrmStage[] = ['subscribe', 'sign'];

export const CRM_PRODUCT = valueEnum({
  house: { text: '住宅' },
  shop: { text: '商铺', tone: 'processing' },
  parking: { text: '车位', tone: 'default' },
  office: { text: '写字楼', tone: 'warning' },
  other: { text: '其他' },
});
export const CRM_PURPOSE = valueEnum({
  self: { text: '自住' },
  invest: { text: '投资' },
  upgrade: { text: '改善' },
  office: { text: '办公' },
  business: { text: '经营' },
  other: { text: '其他' },
});
/** How the customer came (the dictionary may rename them: /setup/dict_list). */
export const CRM_SOURCE = valueEnum(
  {
    walkin: { text: '自然来访' },
    call: { text: '来电' },
    channel: { text: '渠道' },
    referral: { text: '老带新' },
    online: { text: '网络' },
    event: { text: '活动' },
    other: { text: '其他' },
  },
  { key: 'crm_source', name: '客户来源' },
);
/** Through whom (the dictionary may rename them). */
export const CRM_CHANNEL = valueEnum(
  {
    agency: { text: '中介门店' },
    broker: { text: '全民经纪' },
    platform: { text: '房产平台' },
    outdoor: { text: '户外广告' },
    social: { text: '微信朋友圈' },
    other: { text: '其他' },
  },
  { key: 'crm_channel', name: '客户渠道' },
);
export const CRM_GRADE = valueEnum({
  A: { text: 'A 重点', tone: 'error' },
  B: { text: 'B 意向', tone: 'warning' },
  C: { text: 'C 一般', tone: 'processing' },
  D: { text: 'D 暂无意向', tone: 'default' },
});
export const CRM_GENDER = valueEnum({ M: { text: '男' }, F: { text: '女' } });
/** The list's views: 我的客户, 团队客户 (a manager's), 公海. */
export const CRM_VIEW = valueEnum({ mine: { text: '我的客户' }, team: { text: '团队客户' }, pool: { text: '公海' } });
export type CrmView = keyof typeof CRM_VIEW;
/** The list's chips. */
export const CRM_CHIP = valueEnum({
  today: { text: '今日待联系', tone: 'processing' },
  overdue: { text: '已逾期', tone: 'error' },
  falling: { text: '即将掉入公海', tone: 'warning' },
});
export type CrmChip = keyof typeof CRM_CHIP;

/** A mobile or an ID number as a form without CONTACT_WHOLE shows it (team/contact.ts): sent back unchanged, the stored one stays. */
const MASKED_MOBILE_RE = /^1\d{2}\*{4}\d{4}$/;
const MASKED_ID_CARD_RE = /^\d{4}\*{10}[\dX]{4}$/;

const mobileField = z
  .string()
  .trim()
  .refine((v) => MOBILE_RE.test(v) || MASKED_MOBILE_RE.test(v), { message: '手机号码格式不正确，应为11位手机号' });
const idCardField = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => v === '' || isValidIdCard(v) || MASKED_ID_CARD_RE.test(v), { message: '身份证号码不正确' })
  .default('');
/** Other phones: a mobile or a landline with its area code. */
const PHONE_RE = /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(-\d{1,6})?)$/;
const phones = z
  .array(text(20).refine((v) => PHONE_RE.test(v) || /^[\d-]*\*{4}\d{2,4}$/.test(v), { message: '电话格式不正确（手机号或带区号的座机）' }))
  .max(3, '其他电话最多 3 个')
  .default([])
  .transform((v) => [...new Set(v)]);
const tags = z
  .array(text(10).min(1))
  .max(10, '标签最多 10 个')
  .default([])
  .transform((v) => [...new Set(v)]);

/** A number of up to two decimals that a form may leave empty (null then), at most `max`. */
const optionalDecimal = (max: number, label: string) =>
  z
    .union([
      z.literal(''),
      z.null(),
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,9}(\.\d{1,2})?$/, `${label}应为数字，最多两位小数`),
    ])
    .optional()
    .transform((v) => (v === '' || v === null || v === undefined ? null : Number(v).toFixed(2)))
    .refine((v) => v === null || (Number(v) >= 0 && Number(v) <= max), { message: `${label}应在 0 到 ${max} 之间` });

/** A coded value a form may leave empty (''). */
const optionalEnum = (e: ValueEnum, label: string) => enumOrAll(e, label).default('');

/** A consultant chosen (or none: the creator, on add). */
const consultant = z
  .union([z.literal(''), z.null(), id])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

export interface CrmCustomerItem {
  id: number;
  name: string;
  gender: '' | 'M' | 'F';
  gender_ch: string;
  mobile: string;
  phones: string[];
  wechat: string;
  id_card: string;
  product: string;
  product_ch: string;
  area_min: string | null;
  area_max: string | null;
  layout: string;
  budget_min: string | null;
  budget_max: string | null;
  purpose: string;
  purpose_ch: string;
  /** 住宅 · 90-120㎡ · 三室 · 150-200万 */
  want_text: string;
  source: string;
  source_ch: string;
  channel: string;
  channel_ch: string;
  grade: string;
  grade_ch: string;
  /** the unit wanted, with its path for the room widget */
  hid: number | null;
  bid: number | null;
  tid: number | null;
  address: string;
  tags: string[];
  remark: string;
  stage: CrmStage;
  stage_ch: string;
  invalid_reason: string;
  contract_no: string;
  consultant_id: number | null;
  /** '' in the pool */
  consultant_name: string;
  assigned_at: string;
  visit_count: number;
  last_follow_at: string;
  last_follow_text: string;
  next_contact_at: string;
  /** the day the customer goes back to the pool under the rules ('' never: pool off, dealt, invalid or in the pool) */
  pool_due: string;
  /** days until then (0 today) */
  pool_days_left: number | null;
  /** the reader's own customer */
  mine: boolean;
  creator: string;
  create_time: string;
}

export const crmCustomer = resource<CrmCustomerItem>()({
  name: 'crmcustomer',
  label: '客户',
  methods: {
    list: 'crmlist',
    add: 'addcrm',
    edit: 'editcrm',
    del: 'crmdel',
    info: 'crminfo',
    small: 'crmcustomer_small_list',
    export: 'crmexport',
  },
  roles: { read: SALES_ROLES.staff, write: SALES_ROLES.staff },
  form: { add: '/crm/addcrm', edit: '/crm/editcrm' },
  echoId: true,
  sort: 'desc',
  fields: {
    keyword: { label: '姓名/手机号', zod: text(30), in: ['filter'], placeholder: '姓名或手机号' },
    stage: { label: '阶段', enum: CRM_STAGE, in: ['table', 'filter', 'export'], width: 80 },
    name: { label: '姓名', zod: text(30).min(1, '请输入客户姓名'), in: ['form', 'table', 'export'], fixed: true, width: 100 },
    gender: {
      label: '性别',
      zod: enumOrAll(CRM_GENDER, '性别').default(''),
      enum: CRM_GENDER,
      widget: 'radio',
      in: ['form', 'export'],
    },
    mobile: {
      label: '手机号',
      zod: mobileField,
      in: ['form', 'table', 'export'],
      width: 130,
      help: '同一小区内手机号不能重复：已登记的客户会提示打开',
    },
    phones: { label: '其他电话', zod: phones, widget: 'custom', in: ['form', 'export'] },
    wechat: { label: '微信', zod: text(40).default(''), in: ['form', 'export'] },
    id_card: {
      label: '身份证号',
      zod: idCardField,
      in: ['form', 'export'],
      help: '认购签约时需要；无完整手机号证件号权限的账号看到的是脱敏号码',
    },
    product: {
      label: '意向业态',
      zod: enumSchema(CRM_PRODUCT, '意向业态').default('house'),
      enum: CRM_PRODUCT,
      in: ['form', 'filter', 'export'],
      width: 90,
    },
    area_min: { label: '面积下限（㎡）', zod: optionalDecimal(100000, '面积下限'), widget: 'decimal', in: ['form'] },
    area_max: { label: '面积上限（㎡）', zod: optionalDecimal(100000, '面积上限'), widget: 'decimal', in: ['form'] },
    layout: { label: '户型', zod: text(20).default(''), in: ['form', 'export'], placeholder: '如 三室两厅' },
    budget_min: { label: '预算下限（万元）', zod: optionalDecimal(1000000, '预算下限'), widget: 'decimal', in: ['form'] },
    budget_max: { label: '预算上限（万元）', zod: optionalDecimal(1000000, '预算上限'), widget: 'decimal', in: ['form'] },
    purpose: { label: '购买用途', zod: optionalEnum(CRM_PURPOSE, '购买用途'), enum: CRM_PURPOSE, in: ['form', 'export'] },
    source: {
      label: '来源',
      zod: enumSchema(CRM_SOURCE, '来源'),
      enum: CRM_SOURCE,
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    channel: { label: '渠道', zod: optionalEnum(CRM_CHANNEL, '渠道'), enum: CRM_CHANNEL, in: ['form', 'filter', 'export'] },
    grade: {
      label: '等级',
      zod: enumSchema(CRM_GRADE, '等级').default('B'),
      enum: CRM_GRADE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 100,
    },
    consultant_id: {
      label: '置业顾问',
      zod: consultant,
      widget: { small: 'crmconsultant_small_list' },
      in: ['form', 'filter'],
      once: true,
      help: '不选为录入人自己；之后的转移请用“分配/转移”，会留下记录',
    },
    hid: {
      label: '意向房源',
      zod: z
        .union([z.literal(''), z.null(), id])
        .optional()
        .transform((v) => (v === '' || v === undefined ? null : v)),
      widget: 'room',
      in: ['form'],
      help: '客户想要的房屋；认筹金默认记在这里（也可选售楼处）',
    },
    tags: { label: '标签', zod: tags, widget: 'custom', in: ['form', 'export'] },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
    create_time: { label: '录入时间', widget: 'dateRange', in: ['filter'] },
    view: { label: '视图', enum: CRM_VIEW, in: ['filter'] },
    chip: { label: '提醒', enum: CRM_CHIP, in: ['filter'] },
  },
  columns: [
    { key: 'want_text', label: '意向', width: 220, in: ['table', 'export'] },
    { key: 'consultant_name', label: '置业顾问', width: 100 },
    { key: 'visit_count', label: '来访次数', width: 90 },
    { key: 'last_follow_at', label: '最近跟进', width: 170 },
    { key: 'last_follow_text', label: '跟进内容', width: 200, in: ['export'] },
    { key: 'next_contact_at', label: '下次联系', width: 170 },
    { key: 'pool_due', label: '掉入公海', widget: 'date', width: 110 },
    { key: 'address', label: '意向房源', in: ['export'] },
    { key: 'invalid_reason', label: '无效原因', in: ['export'] },
    createTimeColumn('录入时间'),
  ],
  rules: [
    {
      check: (v) => v.area_min === null || v.area_max === null || Number(v.area_min) <= Number(v.area_max),
      message: '面积上限不能小于下限',
      path: 'area_max',
    },
    {
      check: (v) => v.budget_min === null || v.budget_max === null || Number(v.budget_min) <= Number(v.budget_max),
      message: '预算上限不能小于下限',
      path: 'budget_max',
    },
  ],
});

const required = (label: string) => ({ reason: text(200).min(1, `请填写${label}`) });

/** The pipeline (docs/product.md#crm-sales). 来访, 认筹 and a contract's 签约 come from other work (`steps`). */
export const crmPipeline = workflow({
  name: 'crmcustomer',
  label: '客户',
  states: CRM_STAGE,
  stateField: 'stage',
  transitions: {
    valid: { method: 'crmvalid', label: '确认有效', from: ['report'], to: 'valid', roles: SALES_ROLES.staff },
    subscribe: {
      method: 'crmsubscribe',
      label: '转认购',
      from: ['valid', 'visit', 'pledge'],
      to: 'subscribe',
      roles: SALES_ROLES.staff,
      input: { remark: text(200).min(1, '请填写认购说明（房号、价格、定金等）') },
      inputLabels: { remark: '认购说明' },
    },
    sign: {
      method: 'crmsign',
      label: '签约',
      from: ['subscribe'],
      to: 'sign',
      roles: SALES_ROLES.staff,
      input: { contract_no: text(40).min(1, '请填写合同编号') },
      inputLabels: { contract_no: '合同编号' },
    },
    invalid: {
      method: 'crminvalid',
      label: '标记无效',
      from: ['report', 'valid', 'visit', 'pledge', 'subscribe'],
      to: 'invalid',
      roles: SALES_ROLES.staff,
      input: required('无效原因'),
      inputLabels: { reason: '无效原因' },
      danger: true,
    },
    reopen: {
      method: 'crmreopen',
      label: '重新激活',
      from: ['invalid'],
      to: 'report',
      roles: SALES_ROLES.managers,
      input: { reason: text(200).default('') },
      inputLabels: { reason: '说明' },
      confirm: '客户回到“报备”阶段，由原置业顾问继续跟进（在公海中的仍在公海）。',
    },
  },
  steps: {
    create: '录入（报备）',
    visit: '到访',
    pledge: '缴纳认筹金',
    unpledge: '认筹金已退（退筹）',
    signed: '合同签约',
    pool: '回收公海',
    release: '放入公海',
    claim: '领取',
    assign: '分配/转移',
  },
  logMethod: 'crmlog',
  fieldLabels: {
    consultant: '置业顾问',
    from_consultant: '原置业顾问',
    queue_no: '排号',
    amount: '认筹金额',
    receipt_no: '收据号',
    invite: '邀约',
    contract_no: '合同编号',
  },
});

/** What the add form learns of a mobile typed: the customer who has it, if any. */
export interface CrmMobileHit {
  id: number;
  name: string;
  consultant_name: string;
  stage_ch: string;
  /** the reader may open it (theirs, in the pool, or a manager) */
  can_open: boolean;
  in_pool: boolean;
}

export interface CrmConsultantOption {
  id: number;
  title: string;
  /** open customers held now */
  holding: number;
}

const ids = z.array(id).min(1, '请选择客户').max(50, '一次最多 50 位客户');

export const salesCustomerSchemas = {
  ...crmCustomer.schemas,
  ...crmPipeline.schemas,
  crmcheckmobile: z.object({
    mobile: z.string().trim().regex(MOBILE_RE, '手机号码格式不正确，应为11位手机号'),
    except_id: z.union([z.literal(''), z.null(), id]).optional(),
  }),
  crmclaim: z.object({ ids }),
  crmrelease: z.object({ ids, reason: text(200).min(1, '请填写放入公海的原因') }),
  crmassign: z.object({ ids, consultant_id: id, reason: text(200).default('') }),
  crmchips: z.object({ view: enumOrAll(CRM_VIEW, '视图').default('mine') }),
  crmconsultant_small_list: z.object({}),
} as const;

export type SalesCustomerOutputs = ResourceOutputs<typeof crmCustomer.def, CrmCustomerItem> & {
  crmvalid: CrmCustomerItem;
  crmsubscribe: CrmCustomerItem;
  crmsign: CrmCustomerItem;
  crminvalid: CrmCustomerItem;
  crmreopen: CrmCustomerItem;
  crmlog: { items: WorkflowLogItem[] };
  crmcheckmobile: { hit: CrmMobileHit | null };
  crmclaim: { claimed: number };
  crmrelease: { released: number };
  crmassign: { assigned: number };
  crmchips: { mine: number; team: number | null; pool: number; today: number; overdue: number; falling: number };
  crmconsultant_small_list: { items: CrmConsultantOption[] };
};
