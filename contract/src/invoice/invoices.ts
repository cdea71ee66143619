/**
 * Invoices for what owners paid (/invoice: invoiceset, invoicewaitlist, invoicelist;
 * docs/product.md#invoices): the seller's settings and the provider, the fee items' tax mapping,
 * owners' titles, the waiting list of paid lines with something left to invoice, issuing through
 * the provider, red-letter reversal, applications for an owner and the electronic invoice report.
 *
 * The one rule: a paid receipt line can be invoiced up to what was received for it (its fee and
 * late fee less its share of the receipt's discount) less what is already invoiced; a red invoice
 * gives its amount back.
 */
import { z } from 'zod';
import { id, idempotencyKey, noControlChars, optionalId, paging, text, yn } from '../common.js';
import type { ExportQueued } from '../jobs.js';
import { createTimeColumn, enumSchema, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { money } from '../money.js';
import { MOBILE_RE } from '../owners.js';
import { INVOICE_ROLES } from './roles.js';

export { INVOICE_ROLES };

export const INVOICE_KIND = valueEnum({
  p: { text: '数电普票', tone: 'processing' },
  s: { text: '数电专票', tone: 'warning' },
});
export type InvoiceKind = keyof typeof INVOICE_KIND;
export const INVOICE_COLOR = valueEnum({
  B: { text: '蓝票', tone: 'processing' },
  R: { text: '红票', tone: 'error' },
});
export const INVOICE_STATUS = valueEnum(
  {
    W: { text: '开票中', tone: 'processing' },
    Y: { text: '已开具', tone: 'success' },
    F: { text: '失败', tone: 'error' },
    P: { text: '部分红冲', tone: 'warning' },
    R: { text: '已红冲', tone: 'default' },
  },
  { key: 'invoice_status', name: '发票状态' },
);
export type InvoiceStatus = keyof typeof INVOICE_STATUS;
export const TAXPAYER_KIND = valueEnum({ general: { text: '一般纳税人' }, small: { text: '小规模纳税人' } });
export const INVOICE_MERGE_RULE = valueEnum({
  payment: { text: '每张收据开一张' },
  owner_month: { text: '同一业主、抬头、税率和月份合并' },
});
export const INVOICE_PUSH = valueEnum({ none: { text: '不推送' }, email: { text: '邮箱' }, sms: { text: '短信' } });
export type InvoicePush = keyof typeof INVOICE_PUSH;
export const INVOICE_PROVIDER = valueEnum({ sandbox: { text: '沙箱（模拟开票平台）' } });
/** How the sandbox answers: issue, or fail with a message (to try the failure path and the retry). */
export const INVOICE_SANDBOX_MODE = valueEnum({ ok: { text: '正常开具' }, fail: { text: '模拟失败' } });
export const INVOICE_SPECIAL = valueEnum({
  none: { text: '无' },
  simple: { text: '简易计税' },
  diff: { text: '差额征税' },
  exempt: { text: '免税' },
});
/** The VAT rates a line may carry, in percent. */
export const INVOICE_RATE = valueEnum({
  '13': { text: '13%' },
  '9': { text: '9%' },
  '6': { text: '6%' },
  '5': { text: '5%' },
  '3': { text: '3%' },
  '1.5': { text: '1.5%' },
  '1': { text: '1%' },
  '0': { text: '0%（免税）' },
});
export type InvoiceRate = keyof typeof INVOICE_RATE;
export const TITLE_KIND = valueEnum({ person: { text: '个人' }, company: { text: '企业', tone: 'processing' } });
export type TitleKind = keyof typeof TITLE_KIND;
export const RED_REASON = valueEnum({
  wrong: { text: '开票有误' },
  ended: { text: '服务终止' },
  discount: { text: '销售折让' },
  refund: { text: '退款' },
});
/** A waiting line: nothing invoiced yet, or part of it. */
export const WAIT_LINE_STATUS = valueEnum({
  N: { text: '未开票', tone: 'default' },
  P: { text: '部分开票', tone: 'warning' },
});
export const INVOICE_APPLY_STATUS = valueEnum({
  W: { text: '待审核', tone: 'warning' },
  Y: { text: '已开票', tone: 'success' },
  N: { text: '已驳回', tone: 'error' },
});

/** What a fee item is called on an invoice by default, by its cost type (a suggestion the mapping form fills in). */
export const INVOICE_ITEM_SUGGESTIONS: Record<string, { goods_name: string; tax_code: string; rate: InvoiceRate }> = {
  property: { goods_name: '物业管理服务', tax_code: '3040801010000000000', rate: '6' },
  parking: { goods_name: '车辆停放服务', tax_code: '3040502020200000000', rate: '9' },
  rent: { goods_name: '不动产经营租赁服务', tax_code: '3040502020101000000', rate: '9' },
  water: { goods_name: '水费', tax_code: '1100301010000000000', rate: '3' },
  electricity: { goods_name: '电费', tax_code: '1100101020200000000', rate: '13' },
  gas: { goods_name: '燃气费', tax_code: '1100201010000000000', rate: '9' },
  other: { goods_name: '其他服务', tax_code: '3049900000000000000', rate: '6' },
};

/** The characters of a unified social credit code (统一社会信用代码, GB 32100-2015) and their values. */
const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
/** Whether an 18-character code carries its check digit (the last character). */
export function usccValid(code: string): boolean {
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += USCC_CHARS.indexOf(code[i]!) * USCC_WEIGHTS[i]!;
  const check = (31 - (sum % 31)) % 31;
  return USCC_CHARS[check] === code[17];
}
/** A seller's code: 18 characters with a right check digit. */
export const usccCode = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => v.length === 18, { message: '统一社会信用代码应为18位' })
  .refine(usccValid, { message: '统一社会信用代码校验位不正确，请核对' });
/** A buyer's tax number: 15, 17, 18 or 20 characters; an 18-character one is checked like a credit code. */
export function buyerTaxNoValid(v: string): boolean {
  if (!/^[0-9A-Z]{15}$|^[0-9A-Z]{17,18}$|^[0-9A-Z]{20}$/.test(v)) return false;
  return v.length !== 18 || usccValid(v);
}
const buyerTaxNo = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => v === '' || buyerTaxNoValid(v), { message: '纳税人识别号不正确（15、17、18或20位，18位时核对校验位）' });
const email = z.union([z.literal(''), z.string().trim().max(100, '邮箱不能超过100个字').email('邮箱格式不正确')]);
const mobile = z.union([z.literal(''), z.string().trim().regex(MOBILE_RE, '手机号格式不正确')]);
/** A 19-digit tax classification code (税收分类编码). */
const taxCode = z
  .string()
  .trim()
  .regex(/^\d{19}$/, '税收分类编码应为19位数字');
const personName = (label: string) => noControlChars(z.string().trim().max(20, `${label}不能超过20个字`)).default('');

// ------------------------------------------------------------------------------------ settings

export const invoiceSettingsFields = {
  seller_name: noControlChars(z.string().trim().min(1, '请输入销方名称').max(100, '销方名称不能超过100个字')),
  seller_tax_no: usccCode,
  seller_address: text(100).default(''),
  seller_phone: text(30).default(''),
  seller_bank: text(60).default(''),
  seller_account: text(40).default(''),
  taxpayer_kind: enumSchema(TAXPAYER_KIND, '纳税人类型').default('general'),
  default_kind: enumSchema(INVOICE_KIND, '默认发票种类').default('p'),
  payee: personName('收款人'),
  checker: personName('复核人'),
  clerk: personName('开票人'),
  auto_issue: yn.default('N'),
  merge_rule: enumSchema(INVOICE_MERGE_RULE, '合并规则').default('payment'),
  allow_future: yn.default('N'),
  push_default: enumSchema(INVOICE_PUSH, '默认推送方式').default('none'),
  provider: enumSchema(INVOICE_PROVIDER, '开票平台').default('sandbox'),
  app_key: text(100).default(''),
  /** written only: empty keeps the stored one */
  app_secret: z.string().trim().max(200, '密钥不能超过200个字').default(''),
  sandbox_mode: enumSchema(INVOICE_SANDBOX_MODE, '沙箱模式').default('ok'),
};

export interface InvoiceSettings {
  /** N until the settings are saved once */
  configured: 'Y' | 'N';
  seller_name: string;
  seller_tax_no: string;
  seller_address: string;
  seller_phone: string;
  seller_bank: string;
  seller_account: string;
  taxpayer_kind: string;
  default_kind: InvoiceKind;
  payee: string;
  checker: string;
  clerk: string;
  auto_issue: 'Y' | 'N';
  merge_rule: string;
  allow_future: 'Y' | 'N';
  push_default: InvoicePush;
  provider: string;
  app_key: string;
  /** the secret's last four characters behind stars, '' when none */
  app_secret_masked: string;
  sandbox_mode: string;
  update_time: string;
  updated_by: string;
}

// ------------------------------------------------------------------------------------ item mapping

export interface InvoiceItemMapRow {
  /** the fee item */
  item_id: number;
  item_title: string;
  cost_type: string;
  cost_type_ch: string;
  /** Y once mapped; the fields below are '' until then */
  mapped: 'Y' | 'N';
  goods_name: string;
  tax_code: string;
  rate: string;
  rate_ch: string;
  tax_included: 'Y' | 'N' | '';
  special: string;
  special_ch: string;
  unit: string;
  update_time: string;
}

export const invoiceItemMapFields = {
  item_id: id,
  goods_name: noControlChars(z.string().trim().min(1, '请输入开票项目名称').max(40, '开票项目名称不能超过40个字')),
  tax_code: taxCode,
  rate: enumSchema(INVOICE_RATE, '税率'),
  tax_included: yn.default('Y'),
  special: enumSchema(INVOICE_SPECIAL, '特殊计税').default('none'),
  unit: text(10).default(''),
};

// ------------------------------------------------------------------------------------ titles

export interface InvoiceTitleRow {
  id: number;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  member_id: number;
  owner_name: string;
  kind: TitleKind;
  kind_ch: string;
  title: string;
  tax_no: string;
  address_phone: string;
  bank_account: string;
  email: string;
  mobile: string;
  is_default: 'Y' | 'N';
  is_default_ch: string;
  remark: string;
  create_time: string;
}

export const TITLE_DEFAULT = valueEnum({ Y: { text: '默认', tone: 'success' }, N: { text: '否' } });

export const invoiceTitle = resource<InvoiceTitleRow>()({
  name: 'invoicetitle',
  label: '发票抬头',
  methods: {
    list: 'invoicetitlelist',
    add: 'invoicetitleadd',
    edit: 'invoicetitleedit',
    del: 'invoicetitledel',
    info: 'invoicetitleinfo',
  },
  roles: { read: INVOICE_ROLES.apply, write: INVOICE_ROLES.apply },
  echoId: true,
  sort: 'desc',
  fields: {
    hid: { label: '房屋', zod: id, widget: 'room', in: ['form', 'filter'] },
    member_id: { label: '业主', zod: id, widget: { membersOf: 'hid' }, in: ['form', 'filter'] },
    kind: {
      label: '抬头类型',
      zod: enumSchema(TITLE_KIND, '抬头类型').default('person'),
      enum: TITLE_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    title: {
      label: '发票抬头',
      zod: noControlChars(z.string().trim().min(1, '请输入发票抬头').max(64, '发票抬头不能超过64个字')),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 200,
    },
    tax_no: { label: '纳税人识别号', zod: buyerTaxNo.default(''), in: ['form', 'table', 'filter', 'export'], width: 190 },
    address_phone: { label: '地址电话', zod: text(100).default(''), in: ['form', 'table', 'export'], width: 200 },
    bank_account: { label: '开户行及账号', zod: text(100).default(''), in: ['form', 'table', 'export'], width: 200 },
    email: { label: '邮箱', zod: email.default(''), in: ['form', 'table', 'export'], width: 160 },
    mobile: { label: '接收手机', zod: mobile.default(''), in: ['form', 'table', 'export'], width: 120 },
    is_default: { label: '默认抬头', zod: yn.default('N'), enum: TITLE_DEFAULT, widget: 'radio', in: ['form', 'table'], width: 90 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [{ key: 'address', label: '房屋', width: 180 }, { key: 'owner_name', label: '业主', width: 100 }, createTimeColumn()],
  rules: [
    {
      check: (v) => v.kind !== 'company' || (typeof v.tax_no === 'string' && v.tax_no !== ''),
      message: '企业抬头须填写纳税人识别号',
      path: 'tax_no',
    },
  ],
});

/** A buyer as an invoice keeps it (a saved title's copy, or typed at issue). */
export const buyerFields = {
  kind: enumSchema(TITLE_KIND, '抬头类型'),
  title: noControlChars(z.string().trim().min(1, '请输入发票抬头').max(64, '发票抬头不能超过64个字')),
  tax_no: buyerTaxNo.default(''),
  address_phone: text(100).default(''),
  bank_account: text(100).default(''),
  email: email.default(''),
  mobile: mobile.default(''),
};
export const buyerSchema = z.object(buyerFields);
export type Buyer = z.infer<typeof buyerSchema>;

// ------------------------------------------------------------------------------------ waiting list

/** A paid receipt line chosen for an invoice, and how much of what is left of it (all by default). */
export const invoiceLinePick = z.object({ id, amount: money.optional() });
const picks = z.array(invoiceLinePick).min(1, '请选择要开票的费用').max(500, '一次最多选择500条费用');

const waitFilters = {
  keyword: text(30).optional(),
  bid: optionalId,
  hid: optionalId,
  member_id: optionalId,
  item_id: optionalId,
  cost_type: text(30).optional(),
  pay_type: text(20).optional(),
  cashier_name: text(30).optional(),
  rate: z.union([enumSchema(INVOICE_RATE, '税率'), z.literal('')]).optional(),
  paid: z.union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])]).optional(),
  receipt_no: text(40).optional(),
};

export interface InvoiceWaitRow {
  /** the receipt line (fee_payment_items) */
  id: number;
  payment_id: number;
  receipt_no: string;
  hid: number;
  address: string;
  member_id: number | null;
  owner_name: string;
  item_id: number;
  item_title: string;
  cost_type: string;
  period: string;
  daterange: string;
  /** fee + late fee − the line's share of the receipt's discount */
  received: string;
  late_fee: string;
  discount: string;
  invoiced: string;
  left: string;
  paid_at: string;
  pay_type: string;
  pay_type_ch: string;
  cashier_name: string;
  /** from the item's mapping; '' when the item is not mapped (it cannot be invoiced) */
  rate: string;
  rate_ch: string;
  goods_name: string;
  status: 'N' | 'P';
  status_ch: string;
}

/** An invoice line's item, rate and amounts, tax separated (a preview's group, an issued line). */
export interface TaxedAmounts {
  goods_name: string;
  tax_code: string;
  rate: string;
  rate_ch: string;
  /** tax included, after the discount */
  amount: string;
  /** shown as a discount line under it */
  discount: string;
  ex_tax: string;
  tax: string;
}
/** One group of an invoice's preview: lines of one item and rate. */
export interface InvoicePreviewLine extends TaxedAmounts {
  count: number;
}
export interface InvoicePreview {
  invoices: Array<{ lines: InvoicePreviewLine[]; amount: string; ex_tax: string; tax: string; line_ids: number[] }>;
  amount: string;
  ex_tax: string;
  tax: string;
  /** the owners whose titles the dialog offers (the lines' payers) */
  member_ids: number[];
}

const issueInput = {
  lines: picks,
  /** a saved title; else the buyer as typed */
  title_id: optionalId,
  buyer: buyerSchema.optional(),
  /** keep the typed buyer as a title of this owner */
  save_title_member_id: optionalId,
  kind: enumSchema(INVOICE_KIND, '发票种类').optional(),
  push: enumSchema(INVOICE_PUSH, '推送方式').optional(),
  remark: text(200).default(''),
  /** the dialog's: a double click or a retry issues once */
  idempotency_key: idempotencyKey.optional(),
};

// ------------------------------------------------------------------------------------ invoices

export interface InvoiceRow {
  id: number;
  serial: string;
  invoice_no: string;
  kind: InvoiceKind;
  kind_ch: string;
  color: 'B' | 'R';
  color_ch: string;
  /** a red invoice's blue one */
  blue_id: number | null;
  blue_no: string;
  status: InvoiceStatus;
  status_ch: string;
  buyer_kind: TitleKind;
  buyer_title: string;
  buyer_tax_no: string;
  amount: string;
  ex_tax: string;
  tax: string;
  /** what red invoices took back of a blue one so far */
  reversed: string;
  /** the rooms and receipts covered */
  rooms: string;
  receipts: string;
  line_count: number;
  message: string;
  push: InvoicePush;
  push_ch: string;
  red_reason: string;
  red_reason_ch: string;
  remark: string;
  issuer: string;
  issue_time: string;
  create_time: string;
}
export interface InvoiceLineRow extends TaxedAmounts {
  id: number;
  payment_item_id: number;
  payment_id: number;
  receipt_no: string;
  address: string;
  item_title: string;
  period: string;
  /** of a blue line: reversed so far; a red line's own amount is negative */
  reversed: string;
  blue_line_id: number | null;
}
export interface InvoiceInfo extends InvoiceRow {
  buyer_address_phone: string;
  buyer_bank_account: string;
  buyer_email: string;
  buyer_mobile: string;
  seller_name: string;
  seller_tax_no: string;
  lines: InvoiceLineRow[];
  /** a blue invoice's red ones */
  reds: InvoiceRow[];
  pushes: Array<{ channel: string; channel_ch: string; target: string; status: string; create_time: string; create_user: string }>;
}

const invoiceFilters = {
  keyword: text(40).optional(),
  status: z.union([enumSchema(INVOICE_STATUS, '状态'), z.literal('')]).optional(),
  color: z.union([enumSchema(INVOICE_COLOR, '蓝红票'), z.literal('')]).optional(),
  kind: z.union([enumSchema(INVOICE_KIND, '发票种类'), z.literal('')]).optional(),
  hid: optionalId,
  payment_id: optionalId,
  item_id: optionalId,
  created: z.union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])]).optional(),
};

// ------------------------------------------------------------------------------------ applications

export interface InvoiceApplyRow {
  id: number;
  hid: number;
  address: string;
  member_id: number;
  owner_name: string;
  buyer_kind: TitleKind;
  buyer_kind_ch: string;
  buyer_title: string;
  buyer_tax_no: string;
  buyer_address_phone: string;
  buyer_bank_account: string;
  buyer_email: string;
  buyer_mobile: string;
  kind: InvoiceKind;
  kind_ch: string;
  amount: string;
  line_count: number;
  lines: Array<{ id: number; amount: string; item_title: string; period: string; receipt_no: string }>;
  status: 'W' | 'Y' | 'N';
  status_ch: string;
  invoice_ids: number[];
  invoice_nos: string;
  remark: string;
  applicant: string;
  mine: boolean;
  reviewer: string;
  review_remark: string;
  create_time: string;
  review_time: string;
}

export const invoiceApplyFlow = workflow({
  name: 'invoiceapply',
  label: '开票申请',
  states: INVOICE_APPLY_STATUS,
  transitions: {
    approve: {
      method: 'invoiceapplyreview',
      label: '同意开票',
      from: ['W'],
      to: 'Y',
      roles: INVOICE_ROLES.staff,
      fixed: { approve: true },
      input: { remark: text(200).default('') },
      inputLabels: { remark: '审核意见' },
      confirm: '同意后按申请的抬头和费用开具发票。确定？',
    },
    reject: {
      method: 'invoiceapplyreview',
      label: '驳回',
      from: ['W'],
      to: 'N',
      roles: INVOICE_ROLES.staff,
      fixed: { approve: false },
      // the transitions share one method and so one schema: the reason is required in the handler
      input: { remark: text(200).default('') },
      inputLabels: { remark: '驳回原因' },
      danger: true,
    },
  },
  logMethod: 'invoiceapplylog',
  fieldLabels: { amount: '申请金额', title: '发票抬头' },
});

// ------------------------------------------------------------------------------------ report

export interface ElectronicReportRow {
  month: string;
  goods_name: string;
  rate: string;
  rate_ch: string;
  blue_count: number;
  blue_amount: string;
  blue_tax: string;
  red_count: number;
  red_amount: string;
  red_tax: string;
  net_amount: string;
  net_tax: string;
}

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式为 YYYY-MM');

export const invoiceSchemas = {
  invoicesetinfo: z.object({}),
  invoiceset: z.object(invoiceSettingsFields),
  /** asks the provider whether the credentials work */
  invoiceprovidertest: z.object({}),
  invoiceitemmaplist: z.object({
    ...paging,
    title: text(30).optional(),
    cost_type: text(30).optional(),
    mapped: z.union([yn, z.literal('')]).optional(),
  }),
  invoiceitemmapset: z.object(invoiceItemMapFields),
  invoiceitemmapdel: z.object({ item_id: id }),
  ...invoiceTitle.schemas,
  /** the titles offered when issuing for these owners (their saved ones, the default first) */
  invoicetitle_small_list: z.object({ member_ids: z.array(id).max(50).default([]), hid: optionalId }),
  invoicewaitlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...waitFilters }),
  invoicewaitexport: z.object(waitFilters),
  invoicepreview: z.object({ lines: picks, kind: enumSchema(INVOICE_KIND, '发票种类').optional() }),
  invoiceissue: z.object(issueInput),
  invoicelist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...invoiceFilters }),
  invoiceinfo: z.object({ id }),
  /** issues a failed invoice again (its lines taken again if still left) */
  invoiceretry: z.object({ id }),
  /** red-letter reversal of a blue invoice: all of it, or amounts of chosen lines */
  invoicered: z.object({
    id,
    reason: enumSchema(RED_REASON, '红冲原因'),
    remark: text(200).default(''),
    lines: z
      .array(z.object({ id, amount: money }))
      .max(500)
      .default([]),
  }),
  invoicepdf: z.object({ id }),
  invoicepush: z.object({
    id,
    push: z.enum(['email', 'sms'], { message: '请选择推送方式' }),
    email: email.default(''),
    mobile: mobile.default(''),
  }),
  /** for accounting: one row per line, tax separated */
  invoiceexport: z.object(invoiceFilters),
  invoiceapplylist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    status: z.union([enumSchema(INVOICE_APPLY_STATUS, '状态'), z.literal('')]).optional(),
    keyword: text(40).optional(),
  }),
  invoiceapplyinfo: z.object({ id }),
  /** staff ask for an invoice for an owner: chosen lines and a title, reviewed by finance */
  invoiceapplyadd: z.object({
    lines: picks,
    member_id: id,
    title_id: optionalId,
    buyer: buyerSchema.optional(),
    kind: enumSchema(INVOICE_KIND, '发票种类').default('p'),
    remark: text(200).default(''),
  }),
  ...invoiceApplyFlow.schemas,
  /** businesscount → 电子发票: issued and reversed per month, item and rate */
  electroniclist: z.object({
    month_from: month,
    month_to: month,
    rate: z.union([enumSchema(INVOICE_RATE, '税率'), z.literal('')]).optional(),
  }),
  electronicexport: z.object({
    month_from: month,
    month_to: month,
    rate: z.union([enumSchema(INVOICE_RATE, '税率'), z.literal('')]).optional(),
  }),
};

interface Sums {
  amount: string;
  ex_tax: string;
  tax: string;
}

export type InvoiceOutputs = {
  invoicesetinfo: InvoiceSettings;
  invoiceset: null;
  invoiceprovidertest: { ok: boolean; message: string };
  invoiceitemmaplist: { items: InvoiceItemMapRow[]; total: number };
  invoiceitemmapset: { item_id: number };
  invoiceitemmapdel: { item_id: number };
  invoicetitle_small_list: { items: InvoiceTitleRow[] };
  invoicewaitlist: { items: InvoiceWaitRow[]; total: number; sums: { received: string; invoiced: string; left: string } };
  invoicewaitexport: ExportQueued;
  invoicepreview: InvoicePreview;
  invoiceissue: { ids: number[]; amount: string };
  invoicelist: { items: InvoiceRow[]; total: number; sums: Sums };
  invoiceinfo: InvoiceInfo;
  invoiceretry: { id: number };
  invoicered: { id: number; amount: string };
  invoicepdf: { filename: string; content_base64: string };
  invoicepush: { id: number };
  invoiceexport: ExportQueued;
  invoiceapplylist: { items: InvoiceApplyRow[]; total: number };
  invoiceapplyinfo: InvoiceApplyRow;
  invoiceapplyadd: { id: number; amount: string };
  invoiceapplyreview: InvoiceApplyRow;
  invoiceapplylog: { items: WorkflowLogItem[] };
  electroniclist: { items: ElectronicReportRow[]; sums: Omit<ElectronicReportRow, 'month' | 'goods_name' | 'rate' | 'rate_ch'> };
  electronicexport: ExportQueued;
} & ResourceOutputs<typeof invoiceTitle.def, InvoiceTitleRow>;
