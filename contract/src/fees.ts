import { z } from 'zod';
import { id, int, noControlChars, optionalId, paging, text, yn } from './common.js';
import { MAX_BILL_FEN, MAX_PAYMENT_FEN, money, moneyUpTo } from './money.js';
import type { ListAnswer, YN } from './codes.js';
import { fileBase64, type FileAnswer } from './files.js';
import type { ExportQueued } from './jobs.js';
import type { FeeDashboard } from './home.js';
import { enumKeys, enumTexts, valueEnum, type ResourceOutputs } from './kit/resource.js';
import { costType, feeItem } from './fees/setup.js';
export * from './fees/setup.js';
import type { PricingMethod } from './fees/setup.js';
export * from './fees/roles.js';
export * from './fees/refund.js';
import { refundFlow } from './fees/refund.js';
import type { WorkflowLogItem } from './kit/workflow.js';

/** Built-in cost types (fee categories); a community may add its own codes. */
export const COST_TYPES = ['property', 'parking', 'water', 'electricity', 'gas', 'rent', 'deposit', 'other'] as const;
export const COST_TYPE_CH: Record<string, string> = {
  property: '物业费',
  parking: '停车费',
  water: '水费',
  electricity: '电费',
  gas: '燃气费',
  rent: '租金',
  deposit: '押金',
  other: '其他',
};

export const BIND_SCOPES = ['region', 'building', 'unit', 'category', 'room', 'lot', 'space', 'car'] as const;
export type BindScopeName = (typeof BIND_SCOPES)[number];
export const BIND_SCOPE_CH: Record<BindScopeName, string> = {
  region: '全小区',
  building: '楼栋',
  unit: '单元',
  category: '房屋类别',
  room: '单个房屋',
  lot: '停车场',
  space: '单个车位',
  car: '车辆',
};
/** Scopes that bill parking spaces or cars (one bill per space / car, charged to its room). */
export const PARKING_SCOPES: readonly BindScopeName[] = ['lot', 'space', 'car'];

/** How a payment was made: one text and tone on every screen (receipts, reports, the balance ledger). */
export const PAY_TYPE = valueEnum({
  cash: { text: '现金' },
  wechat: { text: '微信支付', tone: 'success' },
  alipay: { text: '支付宝', tone: 'processing' },
  bankcard: { text: '银行卡' },
  transfer: { text: '银行转账' },
  balance: { text: '余额', tone: 'warning' },
});
export const PAY_TYPES = enumKeys(PAY_TYPE);
export type PayTypeName = keyof typeof PAY_TYPE;
export const PAY_TYPE_CH = enumTexts(PAY_TYPE);

/** Bill status (docs/product.md#bill-status): E pending, Y paid, N overdue. */
export const BILL_STATUS = valueEnum({
  E: { text: '待缴', tone: 'warning' },
  Y: { text: '已缴', tone: 'success' },
  N: { text: '已逾期', tone: 'error' },
});
export type BillStatus = keyof typeof BILL_STATUS;
export const BILL_STATUS_CH = enumTexts(BILL_STATUS);

/**
 * The roles that may discount above the community's cap (max_discount_percent; admin always may):
 * the managers of the fee settings and of finance. A cashier is refused above it.
 */
export const DISCOUNT_MANAGER_ROLES = ['setfees', 'financecount'] as const;

export const MSG_FEES = {
  billPaid: '账单已缴费，请勿重复收费',
  billNotFound: '账单不存在',
} as const;

/** A billing period 'YYYY-MM', from 2000-01 to 2100-12 (9999-12 and 1900-01 are typing slips, not periods). */
export const period = z
  .string()
  .trim()
  .regex(/^(20\d{2}|2100)-(0[1-9]|1[0-2])$/, '账期格式不正确，应为 2000-01 至 2100-12 之间的 YYYY-MM');

/** An amount of one bill, and of one payment. */
const billAmount = moneyUpTo(MAX_BILL_FEN);
const paymentAmount = moneyUpTo(MAX_PAYMENT_FEN);

/** '' or missing means "no filter". */
const optionalMoney = z
  .union([z.literal(''), z.null(), money])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));
const idList = (max: number) => z.array(id).min(1).max(max);
/** Cost types as a list or a comma-separated text. */
const costTypeList = z
  .union([z.array(noControlChars(z.string().max(30))), noControlChars(z.string().max(300))])
  .optional()
  .transform((v) => (typeof v === 'string' ? v.split(',') : (v ?? [])).map((s) => s.trim()).filter(Boolean));

/** Filters of the bill list and its export (`feebilllist`, docs/product.md#calls). */
export const billFilters = {
  rid: optionalId,
  bid: optionalId,
  tid: optionalId,
  hid: optionalId,
  cost_types: costTypeList,
  title: text(50).optional(),
  status: z.enum(['', 'E', 'Y', 'N']).optional(),
  max_fee: optionalMoney,
  min_fee: optionalMoney,
  is_check: z.enum(['', 'Y', 'N']).optional(),
  keyword: text(50).optional(),
  itemid: optionalId,
  period: z.union([z.literal(''), period]).optional(),
  batch_id: optionalId,
};

const wireDay = z.string().regex(/^(20\d{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, '日期格式应为 YYYY-MM-DD（2000 至 2100 年）');
/** Period range of the collection reports (YYYY-MM to YYYY-MM), optionally one cost type or item. */
const reportRange = {
  start_period: period,
  end_period: period,
  cost_type: noControlChars(z.string().max(30)).optional(),
  itemid: optionalId,
};

/** A client-made key that makes a retried write happen once. */
const idempotencyKey = z
  .string()
  .trim()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'idempotency_key 只能包含字母、数字、- 和 _');

const generateScope = {
  period,
  item_ids: idList(50),
  bid: optionalId,
  tid: optionalId,
  hids: z.array(id).max(2000).optional(),
};

const wireDayOrEmpty = z.union([z.literal(''), wireDay]).optional();

/** Filters of the payment list and its export. */
const paymentFilters = {
  start_date: wireDayOrEmpty,
  end_date: wireDayOrEmpty,
  pay_type: z.union([z.literal(''), z.enum(PAY_TYPES)]).optional(),
  cashier: text(30).optional(),
  receipt_no: text(30).optional(),
  keyword: text(50).optional(),
  hid: optionalId,
};

/** A meter reading: at most 12 digits and two decimals, like money. */
const reading = money;

const meterReadingValues = {
  /** missing: the reading of the latest earlier period (0 for a first reading) */
  last_reading: z
    .union([z.literal(''), z.null(), reading])
    .optional()
    .transform((v) => (v === '' || v === null ? undefined : v)),
  this_reading: reading,
  remark: text(100).default(''),
};

/** One line of a quick payment: a fee item, or a free title, with its amount. */
export const quickPayLine = z
  .object({
    item_id: optionalId,
    title: text(30).optional(),
    cost_type: noControlChars(z.string().trim().max(30)).optional(),
    period: z.union([z.literal(''), period]).optional(),
    amount: billAmount.refine((v) => v !== '0.00', '收费金额必须大于0'),
  })
  .refine((v) => v.item_id !== undefined || (v.title ?? '') !== '', { message: '请选择收费项目或填写收费名称', path: ['title'] });

export const feesMethods = {
  // --- set-up (slice A)
  ...costType.schemas,
  feebill_cate_small_list: z.object({}),
  ...feeItem.schemas,
  feethinglist: z.object({ cost_type: noControlChars(z.string().max(30)).optional() }),
  bindfeelist: z.object({ ...paging, item_id: optionalId, scope: z.union([z.literal(''), z.enum(BIND_SCOPES)]).optional() }),
  bindfeeadd: z.object({ item_id: id, scope: z.enum(BIND_SCOPES), ref_ids: z.array(id).max(5000).default([]) }),
  bindfeedel: z.object({ id }),
  // --- bills (slice B)
  feebillgenerate: z.object({ ...generateScope, preview: z.boolean().default(false) }),
  feebatchlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc') }),
  feebatchcancel: z.object({ id }),
  feebilllist: z.object({ ...paging, ...billFilters }),
  feebillinfo: z.object({ id }),
  feebilldel: z.object({ id }),
  feeedit: z.object({ id, fee: billAmount, reason: text(200).min(1, '请填写调整原因') }),
  feebillcheck: z.object({ ids: idList(500), is_check: yn }),
  exportfees: z.object({ ...billFilters, sort: z.enum(['asc', 'desc']).default('asc') }),
  feebilloverdue: z.object({}),
  // --- cashier (slice C)
  cashierbills: z.object({ hid: id }),
  cashierpay: z.object({
    hid: id,
    bill_ids: idList(500),
    pay_type: z.enum(PAY_TYPES),
    paid_amount: paymentAmount,
    use_balance: z.boolean().default(false),
    /** above the community's cap (feesettinginfo) only a manager may give it */
    discount: paymentAmount.default('0.00'),
    idempotency_key: idempotencyKey,
    remark: text(200).default(''),
  }),
  paymentlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...paymentFilters }),
  paymentexport: z.object({ ...paymentFilters, sort: z.enum(['asc', 'desc']).default('desc') }),
  paymentinfo: z.object({ id }),
  // --- prepayment (slice D)
  housebalance: z.object({ hid: id }),
  balancetopup: z.object({
    hid: id,
    amount: paymentAmount.refine((v) => v !== '0.00', '充值金额必须大于0'),
    pay_type: z.enum(['cash', 'wechat', 'alipay', 'bankcard', 'transfer']),
    idempotency_key: idempotencyKey,
    remark: text(200).default(''),
  }),
  // --- refunds (slice E)
  refundapply: z.object({ payment_id: id, bill_ids: z.array(id).max(500).default([]), reason: text(200).min(1, '请填写退款原因') }),
  refund_list: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    status: z.enum(['', 'E', 'Y', 'N']).optional(),
    payment_id: optionalId,
  }),
  ...refundFlow.schemas,
  // --- dunning (slice G)
  feebillcall: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    bid: optionalId,
    tid: optionalId,
    keyword: text(50).optional(),
  }),
  print_billcall: z.object({ hids: z.array(id).min(1).max(500) }),
  print_billcallmx: z.object({ hids: z.array(id).min(1).max(500) }),
  // --- historical bill import (slice H)
  feeimporttemplate: z.object({}),
  feebillimport: z.object({ filename: text(200).min(1), file_base64: fileBase64 }),
  feeimportlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc') }),
  feeimporterrors: z.object({ job_id: id }),
  // --- reports (slice F)
  fees_count: z.object(reportRange),
  fees_count_nopay: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    bid: optionalId,
    tid: optionalId,
    keyword: text(50).optional(),
  }),
  month_fees: z.object({ year: int(2000, 2100) }),
  paymentstatis: z.object({ start_date: wireDay, end_date: wireDay, group_by: z.enum(['pay_type', 'cashier', 'day']).default('pay_type') }),
  propertypaystatis: z.object({ period }),
  propertypaylog: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    start_date: wireDay.optional(),
    end_date: wireDay.optional(),
    keyword: text(50).optional(),
  }),
  financereport: z.object({ start_date: wireDay, end_date: wireDay }),
  feedashboard: z.object({}),
  feereportexport: z.discriminatedUnion('report', [
    z.object({ report: z.literal('fees_count'), ...reportRange }),
    z.object({ report: z.literal('fees_count_nopay'), bid: optionalId, tid: optionalId, keyword: text(50).optional() }),
    z.object({ report: z.literal('month_fees'), year: int(2000, 2100) }),
    z.object({
      report: z.literal('paymentstatis'),
      start_date: wireDay,
      end_date: wireDay,
      group_by: z.enum(['pay_type', 'cashier', 'day']).default('pay_type'),
    }),
    z.object({ report: z.literal('propertypaystatis'), period }),
  ]),
  paymentprint: z.object({ id }),
  // --- parking bindings: the spaces / cars a binding can name
  bindfeetargets: z.object({ scope: z.enum(['lot', 'space', 'car']), lot_id: optionalId, keyword: text(20).optional() }),
  // --- meter readings (抄表)
  meterreadinglist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('asc'),
    bid: optionalId,
    tid: optionalId,
    item_id: optionalId,
    period: z.union([z.literal(''), period]).optional(),
    keyword: text(30).optional(),
  }),
  meterreadingprev: z.object({ hid: id, item_id: id, period }),
  meterreadingadd: z.object({ hid: id, item_id: id, period, ...meterReadingValues }),
  meterreadingedit: z.object({ id, ...meterReadingValues }),
  meterreadingdel: z.object({ id }),
  meterreadingtemplate: z.object({ item_id: optionalId, period: z.union([z.literal(''), period]).optional(), bid: optionalId }),
  meterreadingimport: z.object({ filename: text(200).min(1), file_base64: fileBase64 }),
  meterreadingerrors: z.object({ job_id: id }),
  // --- fee settings (/setup/setfees)
  feesettinginfo: z.object({}),
  feesettingedit: z.object({
    receipt_title: text(40).default(''),
    receipt_footnote: text(200).default(''),
    receipt_prefix: z
      .string()
      .trim()
      .max(10)
      .regex(/^[A-Za-z0-9-]*$/, '收据编号前缀只能包含字母、数字和 -')
      .default(''),
    allow_discount: yn.default('Y'),
    /** the cashier's cap; above it only a manager role (admin, setfees, financecount) may discount */
    max_discount_percent: int(0, 100).default(20),
    default_due_day: int(1, 28).default(15),
  }),
  // --- quick payment (/fees/quickpay): one-off charges without a pre-generated bill
  quickpay: z.object({
    hid: id,
    lines: z.array(quickPayLine).min(1, '请至少添加一项收费').max(20),
    pay_type: z.enum(PAY_TYPES),
    /** missing: exactly what is due */
    paid_amount: z
      .union([z.literal(''), z.null(), paymentAmount])
      .optional()
      .transform((v) => (v === '' || v === null ? undefined : v)),
    use_balance: z.boolean().default(false),
    payer_name: text(30).default(''),
    idempotency_key: idempotencyKey,
    remark: text(200).default(''),
  }),
} satisfies Record<string, z.ZodType>;

export interface CostTypeRow {
  id: number;
  cost_type: string;
  title: string;
  sort: number;
  item_count: number;
  create_time: string;
}

export interface FeeItemRow {
  id: number;
  cost_type: string;
  cost_type_title: string;
  title: string;
  pricing: PricingMethod;
  pricing_ch: string;
  unit_price: string;
  default_quantity: string;
  cycle_months: number;
  due_day: number;
  late_fee_rule: 'none' | 'daily';
  late_fee_rate: string;
  late_fee_grace_days: number;
  late_fee_cap_percent: number;
  status: YN;
  remark: string;
  bind_count: number;
  create_time: string;
}

export interface BindingRow {
  id: number;
  item_id: number;
  item_title: string;
  scope: BindScopeName;
  scope_ch: string;
  ref_id: number;
  target_title: string;
  create_user: string;
  create_time: string;
}

/** Fee bill (docs/product.md#fee-bill), plus what the console shows beside it. */
export interface FeeBillRow {
  id: number;
  rid: number;
  bid: number;
  tid: number;
  hid: number;
  item_id: number;
  cost_type: string;
  title: string;
  region_title: string;
  building_title: string;
  unit_title: string;
  house_title: string;
  period: string;
  daterange: string;
  measure: string;
  unit_price: string;
  status: BillStatus;
  status_ch: string;
  fee: string;
  /** late fee as of today (for unpaid bills) or as charged (paid bills) */
  late_fee: string;
  is_check: YN;
  due_date: string;
  paid_at: string;
  payment_id: number;
  batch_id: number;
  /** the parking space / car of a parking bill (0 otherwise); `measure` then shows its title or plate */
  space_id: number;
  car_id: number;
  create_time: string;
}

export interface GenerateAnswer {
  preview: boolean;
  count: number;
  total_fee: string;
  job_id?: number;
  batch_id?: number;
}

export interface BatchRow {
  id: number;
  period: string;
  item_titles: string;
  status: string;
  bill_count: number;
  total_fee: string;
  paid_count: number;
  job_id: number;
  create_user: string;
  create_time: string;
}

export interface CashierBill {
  id: number;
  title: string;
  cost_type: string;
  period: string;
  daterange: string;
  measure: string;
  unit_price: string;
  fee: string;
  late_fee: string;
  total: string;
  status: BillStatus;
  status_ch: string;
  due_date: string;
  /** parking bills: the space / car they are for; `measure` shows its title or plate */
  space_id: number;
  car_id: number;
}

export interface CashierHouse {
  hid: number;
  rid: number;
  bid: number;
  tid: number;
  address: string;
  owner_name: string;
  member_id: number;
  balance: string;
}

export interface PaymentRow {
  id: number;
  receipt_no: string;
  hid: number;
  address: string;
  payer_name: string;
  receivable: string;
  late_fee: string;
  discount: string;
  /** what the bills came to: receivable + late_fee - discount */
  total: string;
  balance_used: string;
  /** total - balance_used: what had to be paid now */
  due: string;
  paid_amount: string;
  to_balance: string;
  pay_type: PayTypeName;
  pay_type_ch: string;
  cashier_name: string;
  status: 'Y' | 'R' | 'P';
  status_ch: string;
  refunded_amount: string;
  bill_count: number;
  remark: string;
  create_time: string;
}

export interface PaymentInfo extends PaymentRow {
  region_title: string;
  /** from the fee settings: the receipt's heading and the note printed under it */
  receipt_title: string;
  receipt_footnote: string;
  print_count: number;
  /** total in Chinese capital numerals */
  capital_amount: string;
  items: Array<{ bill_id: number; title: string; period: string; daterange: string; fee: string; late_fee: string; refunded: YN }>;
}

export interface RefundRow {
  id: number;
  payment_id: number;
  receipt_no: string;
  address: string;
  bill_ids: number[];
  bill_titles: string;
  amount: string;
  /** part returned through the original pay type */
  cash_amount: string;
  /** part returned to the owner's balance */
  balance_amount: string;
  reason: string;
  status: 'E' | 'Y' | 'N';
  status_ch: string;
  applicant: string;
  approver: string;
  approve_remark: string;
  create_time: string;
  approve_time: string;
}

export interface CollectionRow {
  item_id: number;
  title: string;
  period: string;
  bill_count: number;
  receivable: string;
  received: string;
  arrears: string;
  /** received / receivable in percent, two decimals */
  rate: string;
}
export interface CollectionTotals {
  receivable: string;
  received: string;
  arrears: string;
  rate: string;
}

export interface ArrearsRow {
  hid: number;
  address: string;
  owner_name: string;
  mobile: string;
  bill_count: number;
  arrears: string;
  /** aging by days past the due date */
  d0_30: string;
  d31_90: string;
  d91_180: string;
  d181_365: string;
  d365_plus: string;
}

export interface MonthRow {
  month: string;
  receivable: string;
  received: string;
  collected: string;
  refunded: string;
  rate: string;
}
export interface PaymentStatRow {
  key: string;
  label: string;
  count: number;
  amount: string;
  balance_used: string;
}
export interface BuildingCollectionRow {
  bid: number;
  building_title: string;
  rooms: number;
  paid_rooms: number;
  receivable: string;
  received: string;
  arrears: string;
  rate: string;
}
export interface PropertyPayLogRow {
  payment_id: number;
  receipt_no: string;
  address: string;
  payer_name: string;
  title: string;
  period: string;
  fee: string;
  late_fee: string;
  pay_type_ch: string;
  cashier_name: string;
  create_time: string;
}
export interface FinanceReport {
  start_date: string;
  end_date: string;
  by_pay_type: Array<{ pay_type: string; label: string; count: number; amount: string }>;
  collected: string;
  topups: string;
  balance_used: string;
  refunds_cash: string;
  refunds_balance: string;
  discounts: string;
  late_fees: string;
  net: string;
}

/** One room's arrears notice (催缴通知单); `bills` only in the detailed version. */
export interface DunningNotice {
  hid: number;
  address: string;
  owner_name: string;
  mobile: string;
  bill_count: number;
  first_period: string;
  last_period: string;
  arrears: string;
  late_fee: string;
  total: string;
  /** total in Chinese capital numerals */
  capital_amount: string;
  bills?: Array<{
    id: number;
    title: string;
    period: string;
    daterange: string;
    fee: string;
    late_fee: string;
    due_date: string;
    status_ch: string;
  }>;
}
export interface DunningPrint {
  region_title: string;
  region_phone: string;
  print_date: string;
  notices: DunningNotice[];
}

export interface FeeImportRow {
  id: number;
  filename: string;
  status: string;
  status_ch: string;
  total: number;
  imported: number;
  error_count: number;
  error: string;
  create_user: string;
  create_time: string;
}
export interface FeeImportResult {
  imported: number;
  errors: Array<{ row: number; column: string; reason: string }>;
}

export interface MeterReadingRow {
  id: number;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  item_id: number;
  item_title: string;
  period: string;
  last_reading: string;
  this_reading: string;
  quantity: string;
  unit_price: string;
  /** quantity x unit price, rounded half up to the fen */
  amount: string;
  /** the room's bill of that item and period: '' none yet, E / Y / N */
  bill_status: '' | BillStatus;
  bill_fee: string;
  remark: string;
  create_user: string;
  create_time: string;
}

export interface MeterImportResult {
  imported: number;
  updated: number;
  errors: Array<{ row: number; column: string; reason: string }>;
}

export interface FeeSettings {
  receipt_title: string;
  receipt_footnote: string;
  receipt_prefix: string;
  allow_discount: YN;
  max_discount_percent: number;
  default_due_day: number;
  update_user: string;
  update_time: string;
}

/** Answer `data` shapes of the fees area, by method name. */
export type FeesOutputs = ResourceOutputs<typeof costType.def, CostTypeRow> &
  ResourceOutputs<typeof feeItem.def, FeeItemRow> &
  FeesOwnOutputs;

interface FeesOwnOutputs {
  feebill_cate_small_list: { items: Array<{ cost_type: string; title: string }> };
  feethinglist: { items: Array<{ id: number; title: string; cost_type: string; pricing: PricingMethod; unit_price: string }> };
  bindfeelist: ListAnswer<BindingRow>;
  bindfeeadd: { added: number };
  bindfeedel: null;
  feebillgenerate: GenerateAnswer;
  feebatchlist: ListAnswer<BatchRow>;
  feebatchcancel: { deleted: number };
  feebilllist: ListAnswer<FeeBillRow>;
  feebillinfo: FeeBillRow & {
    adjustments: Array<{ old_fee: string; new_fee: string; reason: string; create_user: string; create_time: string }>;
  };
  feebilldel: null;
  feeedit: null;
  feebillcheck: { updated: number };
  exportfees: ExportQueued;
  feebilloverdue: { job_id: number };
  cashierbills: { house: CashierHouse; items: CashierBill[]; totals: { receivable: string; late_fee: string; total: string } };
  cashierpay: PaymentInfo;
  paymentlist: ListAnswer<PaymentRow>;
  paymentinfo: PaymentInfo;
  paymentexport: ExportQueued;
  paymentprint: { print_count: number };
  housebalance: { hid: number; address: string; member_id: number; owner_name: string; balance: string };
  balancetopup: { member_id: number; balance: string; orderid: string };
  refundapply: { id: number; amount: string };
  refund_list: ListAnswer<RefundRow>;
  refundapprove: RefundRow;
  refundlog: { items: WorkflowLogItem[] };
  feebillcall: ListAnswer<ArrearsRow>;
  print_billcall: DunningPrint;
  print_billcallmx: DunningPrint;
  feeimporttemplate: FileAnswer;
  feebillimport: { job_id: number };
  feeimportlist: ListAnswer<FeeImportRow>;
  feeimporterrors: FileAnswer;
  fees_count: { items: CollectionRow[]; totals: CollectionTotals };
  fees_count_nopay: ListAnswer<ArrearsRow> & {
    totals: Omit<ArrearsRow, 'hid' | 'address' | 'owner_name' | 'mobile' | 'bill_count'> & { rooms: number };
  };
  month_fees: { items: MonthRow[] };
  paymentstatis: { items: PaymentStatRow[]; total_amount: string; total_count: number };
  propertypaystatis: { items: BuildingCollectionRow[]; totals: CollectionTotals };
  propertypaylog: ListAnswer<PropertyPayLogRow>;
  financereport: FinanceReport;
  feedashboard: FeeDashboard;
  feereportexport: ExportQueued;
  bindfeetargets: { items: Array<{ id: number; title: string; address: string }> };
  meterreadinglist: ListAnswer<MeterReadingRow>;
  meterreadingprev: { last_reading: string; last_period: string };
  meterreadingadd: { id: number; bill_updated: boolean };
  meterreadingedit: { bill_updated: boolean };
  meterreadingdel: null;
  meterreadingtemplate: FileAnswer;
  meterreadingimport: { job_id: number };
  meterreadingerrors: FileAnswer;
  feesettinginfo: FeeSettings;
  feesettingedit: null;
  quickpay: PaymentInfo;
}
