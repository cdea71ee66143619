import { z } from 'zod';
import { id, idempotencyKey, int, noControlChars, optionalId, paging, text, yn } from './common.js';
import { MAX_BILL_FEN, MAX_PAYMENT_FEN, money, moneyUpTo } from './money.js';
import type { ListAnswer, YN } from './codes.js';
import { fileBase64, type FileAnswer } from './files.js';
import type { ExportQueued } from './jobs.js';
import type { RoomArrears } from './owners.js';
import type { FeeDashboard } from './home.js';
import { enumKeys, enumTexts, valueEnum, type ResourceOutputs } from './kit/resource.js';
import { costType, feeItem } from './fees/setup.js';
export * from './fees/setup.js';
import type { PricingMethod } from './fees/setup.js';
export * from './fees/roles.js';
export * from './fees/refund.js';
import { refundFlow } from './fees/refund.js';
export * from './fees/discount.js';
export * from './fees/things.js';
import { feeThingSchemas, type FeeThingRow } from './fees/things.js';
export * from './fees/costs.js';
import { costSchemas, type CostOutputs } from './fees/costs.js';
import { discountFlow, type DiscountStatus } from './fees/discount.js';
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
  /** receipts of temporary stays at the parking gates (no bill, no room) */
  temp_parking: '临时停车费',
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
export const PAY_TYPE = valueEnum(
  {
    cash: { text: '现金' },
    wechat: { text: '微信支付', tone: 'success' },
    alipay: { text: '支付宝', tone: 'processing' },
    bankcard: { text: '银行卡' },
    transfer: { text: '银行转账' },
    balance: { text: '余额', tone: 'warning' },
  },
  { key: 'pay_type', name: '支付方式' },
);
export const PAY_TYPES = enumKeys(PAY_TYPE);
/** The reference written with a payment when its method asks for one (支付方式, paytypelist): a bank's serial, a voucher's number. */
export const payRef = text(40).pipe(z.string().regex(/^[0-9A-Za-z\-_/]*$/, '凭证号只能包含字母、数字和 - _ /'));
export type PayTypeName = keyof typeof PAY_TYPE;
export const PAY_TYPE_CH = enumTexts(PAY_TYPE);
/** A receipt's method as shown: the group's own way names its base (POS机-工行（银行卡）), a system way itself. */
export const payMethodLabel = (payType: PayTypeName, ownMethod: string): string =>
  ownMethod ? `${ownMethod}（${PAY_TYPE_CH[payType]}）` : PAY_TYPE_CH[payType];

/**
 * The community desktop's own figures (regiondesktop), those the home page's methods do not
 * answer: today's takings by payment method, what the community owes today (fees and late fees,
 * the one arrears computation: room_arrears), its rooms by state and its owners.
 */
export interface RegionDesktop {
  day: string;
  today: { items: Array<{ pay_type: PayTypeName; label: string; count: number; amount: string }>; count: number; amount: string };
  arrears: { rooms: number; bill_count: number; fee: string; late_fee: string; total: string };
  rooms: { total: number; occupied: number; vacant: number; by_state: Record<RoomStateKey, number> };
  owners: number;
}
type RoomStateKey = 'vacant' | 'occupied' | 'rented' | 'renovating';

/** One room of a building's board (roomboard): where it is, its state, its current owners and its arrears today. */
export interface RoomBoardItem {
  id: number;
  bid: number;
  tid: number;
  unit_title: string;
  title: string;
  floor: number;
  state: RoomStateKey;
  address: string;
  built_area: string;
  owners: Array<{ member_id: number; name: string; mobile: string }>;
  /** the room's unpaid bills with their late fees today (the one arrears computation) */
  arrears: RoomArrears;
}

/** Bill status (docs/product.md#bill-status): E pending, Y paid, N overdue. */
export const BILL_STATUS = valueEnum(
  {
    E: { text: '待缴', tone: 'warning' },
    Y: { text: '已缴', tone: 'success' },
    N: { text: '已逾期', tone: 'error' },
  },
  { key: 'bill_status', name: '账单状态' },
);
export type BillStatus = keyof typeof BILL_STATUS;
export const BILL_STATUS_CH = enumTexts(BILL_STATUS);
/** Whether a bill was checked (审核) before collection. */
export const BILL_CHECK = valueEnum({ Y: { text: '已审核', tone: 'processing' }, N: { text: '未审核' } });

export const MSG_FEES = {
  billPaid: '账单已缴费，请勿重复收费',
  billNotFound: '账单不存在',
  /** a temporary stay's receipt (docs/product.md#parking-gates): the car may have left on it */
  stayReceipt: '临时停车费收据不能作废或退款',
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

/** Period range of the property fee panels (物业费收缴统计), optionally one building. */
const panelRange = { start_period: period, end_period: period, bid: optionalId };

const monthLintingFilters = {
  period,
  bid: optionalId,
  tid: optionalId,
  itemid: optionalId,
  status: z.enum(['', 'E', 'Y', 'N']).optional(),
};

/** A client-made key that makes a retried write happen once. */

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
  ...feeThingSchemas,
  // --- 成本登记 and 成本统计 (docs/product.md#costs)
  ...costSchemas,
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
    /** the group's own way on `pay_type` (paytypeoptions' method_id), when one was chosen */
    pay_method_id: optionalId,
    /** required when the group's rules for the method say so (paytypelist) */
    pay_ref: payRef.default(''),
    paid_amount: paymentAmount,
    use_balance: z.boolean().default(false),
    /** above the community's cap (feesettinginfo) only a manager may give it */
    discount: paymentAmount.default('0.00'),
    idempotency_key: idempotencyKey,
    remark: text(200).default(''),
    /** who paid, when not the room's owner (a tenant, a relative); empty: the owner */
    payer_name: text(30).default(''),
    /** an approved discount request of the cashier's (discountapply) for exactly these bills, used once */
    discount_request_id: optionalId,
  }),
  paymentlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...paymentFilters }),
  paymentexport: z.object({ ...paymentFilters, sort: z.enum(['asc', 'desc']).default('desc') }),
  paymentinfo: z.object({ id }),
  /** 作废: only on the receipt's day, not refunded nor in refund; the bills are unpaid again */
  paymentvoid: z.object({ id, reason: text(200).min(1, '请填写作废原因') }),
  // --- the cashier's shift (交班)
  shiftcurrent: z.object({}),
  shifthandover: z.object({ remark: text(200).default(''), idempotency_key: idempotencyKey }),
  shiftlist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    cashier: text(30).optional(),
    start_date: wireDayOrEmpty,
    end_date: wireDayOrEmpty,
  }),
  shiftinfo: z.object({ id }),
  shiftlistexport: z.object({
    sort: z.enum(['asc', 'desc']).default('desc'),
    cashier: text(30).optional(),
    start_date: wireDayOrEmpty,
    end_date: wireDayOrEmpty,
  }),
  // --- prepayment (slice D)
  housebalance: z.object({ hid: id }),
  balancetopup: z.object({
    hid: id,
    amount: paymentAmount.refine((v) => v !== '0.00', '充值金额必须大于0'),
    pay_type: z.enum(['cash', 'wechat', 'alipay', 'bankcard', 'transfer']),
    pay_method_id: optionalId,
    pay_ref: payRef.default(''),
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
  // --- discount approval (above the cashier's cap)
  discountapply: z.object({
    hid: id,
    bill_ids: idList(500),
    amount: paymentAmount.refine((v) => v !== '0.00', '优惠金额必须大于0'),
    reason: text(200).min(1, '请填写申请原因'),
  }),
  discount_request_list: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    status: z.enum(['', 'E', 'Y', 'N', 'U']).optional(),
    hid: optionalId,
    /** only the reader's own requests */
    mine: z.boolean().default(false),
  }),
  ...discountFlow.schemas,
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
  propertypaycount: z.object(panelRange),
  propertynopaycount: z.object({ bid: optionalId }),
  conbill: z.object({
    hid: id,
    start_period: z.union([z.literal(''), period]).optional(),
    end_period: z.union([z.literal(''), period]).optional(),
  }),
  month_linting: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('asc'), ...monthLintingFilters }),
  propertypaylog: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    start_date: wireDay.optional(),
    end_date: wireDay.optional(),
    keyword: text(50).optional(),
  }),
  financereport: z.object({ start_date: wireDay, end_date: wireDay }),
  feedashboard: z.object({}),
  regiondesktop: z.object({}),
  /** one building's rooms for 从楼栋选房: state, owners, what each owes */
  roomboard: z.object({ bid: id }),
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
    z.object({ report: z.literal('propertypaycount'), ...panelRange }),
    z.object({ report: z.literal('propertynopaycount'), bid: optionalId }),
    z.object({ report: z.literal('month_linting'), ...monthLintingFilters }),
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
  /** the meter-reading imports, newest first (/fees/upload-excels) */
  meterimportlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc') }),
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
    pay_method_id: optionalId,
    pay_ref: payRef.default(''),
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
  balance_pay: YN;
  balance_pay_ch: string;
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
  /** the bill's room */
  hid: number;
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
  /** whether the member's balance may pay it (the fee item's 余额支付) */
  balance_pay: YN;
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
  /** the owner's live member card (0 none), which a recharge at the desk goes to */
  card_id: number;
  card_no: string;
  /** 未激活, 正常 or 冻结 */
  card_status: string;
}

/** Another room of the desk's owner in the community, with what it owes: paid on the same receipt when chosen. */
export interface CashierOwnerRoom {
  hid: number;
  bid: number;
  tid: number;
  address: string;
  arrears: RoomArrears;
}

export interface PaymentRow {
  id: number;
  receipt_no: string;
  /** null: a temporary stay's receipt (临时停车费), paid by a plate; its address names the plate */
  hid: number | null;
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
  /** the method as shown, the group's own way with its base (payMethodLabel) */
  pay_type_ch: string;
  /** the group's own way it was taken by ('' a system way), its name as printed then */
  pay_method: string;
  /** the reference written with it (银行流水号, 凭证号); '' when its method asked for none */
  pay_ref: string;
  cashier_name: string;
  /** the account that took the money (none for an online payment): a cashier voids only their own receipts */
  cashier_id: number | null;
  /** Y paid | R refunded | P partly refunded | V voided (作废) */
  status: 'Y' | 'R' | 'P' | 'V';
  status_ch: string;
  /** a voided receipt's reason, who voided it and when ('' otherwise) */
  void_reason: string;
  voided_by: string;
  void_time: string;
  /** a refund of the receipt waits for approval (退款中): no second one may be asked for */
  refunding: boolean;
  refunded_amount: string;
  bill_count: number;
  remark: string;
  create_time: string;
}

/** What a shift took with one pay method (交班单) */
export interface ShiftMethodRow {
  pay_type: PayTypeName;
  pay_type_ch: string;
  count: number;
  /** money taken: the receipts' paid amounts */
  amount: string;
  /** of the owners' balances, used on these receipts */
  balance_used: string;
}

/** A shift's figures: receipts not voided by method, refunds approved, receipts voided. */
export interface ShiftFigures {
  cashier_name: string;
  start_time: string;
  end_time: string;
  methods: ShiftMethodRow[];
  receipts: number;
  receipts_amount: string;
  balance_used: string;
  refunds: number;
  refunds_amount: string;
  voided: number;
  voided_amount: string;
}

/** The signed-in cashier's shift so far, with its receipts (voided ones too, marked) */
export interface ShiftCurrent extends ShiftFigures {
  items: PaymentRow[];
  /** a shift with nothing in it is not handed over */
  empty: boolean;
}

export interface ShiftRow extends ShiftFigures {
  id: number;
  remark: string;
  create_time: string;
}

/** One hand-over with its receipts, for the printed 交班单 */
export interface ShiftInfo extends ShiftRow {
  region_title: string;
  items: PaymentRow[];
}

export interface PaymentInfo extends PaymentRow {
  region_title: string;
  /** from the fee settings: the receipt's heading and the note printed under it */
  receipt_title: string;
  receipt_footnote: string;
  print_count: number;
  /** total in Chinese capital numerals */
  capital_amount: string;
  /** the bills paid, each with its room (a receipt may pay several rooms of one owner) */
  items: Array<{
    /** null on a temporary stay's receipt, whose one line is the stay */
    bill_id: number | null;
    hid: number | null;
    address: string;
    title: string;
    period: string;
    daterange: string;
    fee: string;
    late_fee: string;
    refunded: YN;
  }>;
}

/** Who asked for a request (refund, discount) and who decided it, as its list shows them. */
export interface RequestParties {
  applicant: string;
  /** the reader asked for it: they may not decide it (and only they may use a discount) */
  mine: boolean;
  approver: string;
  approve_remark: string;
  create_time: string;
  approve_time: string;
}

export interface RefundRow extends RequestParties {
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
}

/** A discount request (优惠审批): the bills, the amount and reason, where it stands, who asked and who decided. */
export interface DiscountRequestRow extends RequestParties {
  id: number;
  hid: number;
  address: string;
  bill_ids: number[];
  /** the rooms of the bills (the desk's room, and other rooms of its owner) */
  hids: number[];
  bill_titles: string;
  /** the bills' fees and late fees when asked */
  receivable: string;
  late_fee: string;
  amount: string;
  reason: string;
  status: DiscountStatus;
  status_ch: string;
  /** the receipt that used it */
  payment_id: number;
  receipt_no: string;
  use_time: string;
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
/**
 * 收费统计 also sets what was received against what invoices cover: 已开票 is the `invoiced` of the
 * receipt lines that paid the row's bills (blue invoices issued or issuing, not reversed), 未开票
 * is received − invoiced.
 */
export interface InvoicedFigures {
  invoiced: string;
  uninvoiced: string;
}
export type FeesCountRow = CollectionRow & InvoicedFigures;
export type FeesCountTotals = CollectionTotals & InvoicedFigures;

export interface ArrearsRow {
  hid: number;
  address: string;
  owner_name: string;
  mobile: string;
  bill_count: number;
  /** the unpaid bills' fees */
  arrears: string;
  /** their late fees today, and the two together: what the drawer and the cashier show (RoomArrears) */
  late_fee: string;
  total: string;
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
  /** a pay type the group does not count in 实收 (支付方式) is named 「…（不计入实收）」 */
  label: string;
  count: number;
  amount: string;
  balance_used: string;
  /** grouped by pay type: whether the group counts it in 实收 (支付方式); '' in the other groupings */
  counted: 'Y' | 'N' | '';
  /** grouped by pay type: 其中, the part each of the group's own ways on it took (by its current name, in the group's order); [] otherwise */
  ways: Array<{ method_id: number; name: string; count: number; amount: string }>;
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
/** 物业费收缴统计: a building's (tid 0) or a unit's property fees of a period range. */
export interface PropertyPayCountRow {
  bid: number;
  building_title: string;
  tid: number;
  unit_title: string;
  /** unpaid at the range's first day, of bills of earlier periods */
  arrears_before: string;
  /** bills of the range's periods */
  receivable: string;
  /** paid within the range (by payment date), whatever the bill's period */
  received: string;
  /** of which: bills of the range's periods */
  received_current: string;
  /** of which: bills of earlier periods (清欠) */
  recovered: string;
  /** of which: bills of later periods (预收) */
  prepaid: string;
  /** received_current / receivable, percent */
  rate: string;
}
export type PropertyPayCountTotals = Omit<PropertyPayCountRow, 'bid' | 'building_title' | 'tid' | 'unit_title'>;
/** 物业费欠费统计: a building's (tid 0) or a unit's unpaid property bills, aged by the end of their period. */
export interface PropertyNopayCountRow {
  bid: number;
  building_title: string;
  tid: number;
  unit_title: string;
  rooms: number;
  bill_count: number;
  /** period ended at most 3 months ago (or not yet ended), 3-6, 6-12, over 12 months ago */
  m0_3: string;
  m3_6: string;
  m6_12: string;
  m12_plus: string;
  arrears: string;
  late_fee: string;
  total: string;
}
export type PropertyNopayCountTotals = Omit<PropertyNopayCountRow, 'bid' | 'building_title' | 'tid' | 'unit_title'>;
/** 合并账单: the unpaid bills of one owner's rooms, a room at a time. */
export interface ConBillRoom {
  hid: number;
  address: string;
  bills: Array<{
    id: number;
    title: string;
    period: string;
    daterange: string;
    fee: string;
    late_fee: string;
    total: string;
    status: string;
    status_ch: string;
  }>;
  subtotal: { fee: string; late_fee: string; total: string };
}
export interface ConBill {
  hid: number;
  owner_name: string;
  mobile: string;
  /** the day the late fees are computed for */
  today: string;
  rooms: ConBillRoom[];
  totals: { fee: string; late_fee: string; total: string; bill_count: number };
}
/** 月度收缴明细: one bill of the month, what it asks, what was paid and when. */
export interface MonthLintingRow {
  id: number;
  hid: number;
  address: string;
  owner_name: string;
  title: string;
  period: string;
  receivable: string;
  received: string;
  unpaid: string;
  status: string;
  status_ch: string;
  /** '' while unpaid */
  paid_time: string;
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
  /** the receipt was voided (作废): its lines stay listed, marked, and count nowhere */
  voided: boolean;
}
export interface FinanceReport {
  start_date: string;
  end_date: string;
  /** `counted`: whether the group counts the pay type in 实收 (支付方式, docs/product.md#paytypelist) */
  by_pay_type: Array<{
    pay_type: string;
    label: string;
    count: number;
    amount: string;
    counted: 'Y' | 'N';
    /** of it, what each of the group's own ways on this base took (自定义支付方式; by their current names) */
    methods: Array<{ method_id: number; name: string; count: number; amount: string }>;
  }>;
  collected: string;
  /** of 收银收款, what the pay types counted in 实收 took */
  counted_collected: string;
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
  /** manual: entered or imported here; auto: a read-and-bill smart meter's reading of its read day */
  source: 'manual' | 'auto';
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
  CostOutputs &
  FeesOwnOutputs;

interface FeesOwnOutputs {
  feebill_cate_small_list: { items: Array<{ cost_type: string; title: string }> };
  feethinglist: { items: Array<{ id: number; title: string; cost_type: string; pricing: PricingMethod; unit_price: string }> };
  bindfeelist: ListAnswer<BindingRow>;
  bindfeeadd: { added: number };
  bindfeedel: null;
  feethingpagelist: ListAnswer<FeeThingRow>;
  feethingpageexport: ExportQueued;
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
  cashierbills: {
    house: CashierHouse;
    /** the owner's other rooms in the community (none when the room has no owner) */
    owner_rooms: CashierOwnerRoom[];
    items: CashierBill[];
    totals: { receivable: string; late_fee: string; total: string };
  };
  cashierpay: PaymentInfo;
  paymentlist: ListAnswer<PaymentRow>;
  paymentinfo: PaymentInfo;
  paymentvoid: PaymentInfo;
  shiftcurrent: ShiftCurrent;
  shifthandover: ShiftRow;
  shiftlist: ListAnswer<ShiftRow>;
  shiftinfo: ShiftInfo;
  paymentexport: ExportQueued;
  shiftlistexport: ExportQueued;
  paymentprint: { print_count: number };
  housebalance: { hid: number; address: string; member_id: number; owner_name: string; balance: string };
  balancetopup: { member_id: number; balance: string; orderid: string };
  refundapply: { id: number; amount: string };
  refund_list: ListAnswer<RefundRow>;
  refundapprove: RefundRow;
  refundlog: { items: WorkflowLogItem[] };
  discountapply: { id: number; amount: string };
  discount_request_list: ListAnswer<DiscountRequestRow>;
  discountapprove: DiscountRequestRow;
  discountlog: { items: WorkflowLogItem[] };
  feebillcall: ListAnswer<ArrearsRow>;
  print_billcall: DunningPrint;
  print_billcallmx: DunningPrint;
  feeimporttemplate: FileAnswer;
  feebillimport: { job_id: number };
  feeimportlist: ListAnswer<FeeImportRow>;
  feeimporterrors: FileAnswer;
  fees_count: { items: FeesCountRow[]; totals: FeesCountTotals };
  fees_count_nopay: ListAnswer<ArrearsRow> & {
    totals: Omit<ArrearsRow, 'hid' | 'address' | 'owner_name' | 'mobile' | 'bill_count' | 'late_fee' | 'total'> & { rooms: number };
  };
  month_fees: { items: MonthRow[] };
  /** counted_amount: of total_amount, what the pay types counted in 实收 took (支付方式) */
  paymentstatis: { items: PaymentStatRow[]; total_amount: string; total_count: number; counted_amount: string };
  propertypaystatis: { items: BuildingCollectionRow[]; totals: CollectionTotals };
  propertypaylog: ListAnswer<PropertyPayLogRow>;
  propertypaycount: { items: PropertyPayCountRow[]; totals: PropertyPayCountTotals };
  propertynopaycount: { items: PropertyNopayCountRow[]; totals: PropertyNopayCountTotals; today: string };
  conbill: ConBill;
  month_linting: ListAnswer<MonthLintingRow> & { totals: { receivable: string; received: string; unpaid: string } };
  financereport: FinanceReport;
  feedashboard: FeeDashboard;
  regiondesktop: RegionDesktop;
  roomboard: { building: { id: number; title: string }; items: RoomBoardItem[] };
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
  meterimportlist: ListAnswer<FeeImportRow>;
  feesettinginfo: FeeSettings;
  feesettingedit: null;
  quickpay: PaymentInfo;
}
