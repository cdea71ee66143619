/**
 * Members' coupons (优惠券: /carpark/cardslist, cardsadd, cardsedit, carshow, cardgetlists,
 * reportcardgenerallist; docs/product.md#member-coupons), not the merchants' parking coupons
 * (carpark/coupons.ts). A template (满减, 折扣 with a cap, or a gift) says what it pays towards, the
 * stores it is valid at, its stock and limit per member, how it is given and its validity; after the
 * first coupon is given only its name, description, more stock and a later end change. Each given
 * coupon carries an unguessable code: 未使用 → 已使用 (a counter's order; a cancelled order gives it
 * back) / 已过期 (a daily job) / 已作废 (with a reason). Checking a code never uses it.
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, paging, text, yn } from '../common.js';
import type { ExportQueued } from '../jobs.js';
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
import { fenToYuan, moneyUpTo, mulDivRoundHalfUp, MAX_BILL_FEN, toFen } from '../money.js';
import { CARD_ROLES } from './roles.js';

export const MEMBER_COUPON_KIND = valueEnum({
  amount: { text: '满减券', tone: 'processing' },
  discount: { text: '折扣券', tone: 'warning' },
  gift: { text: '礼品券', tone: 'success' },
});
export type MemberCouponKind = keyof typeof MEMBER_COUPON_KIND;

/** What a coupon pays towards. */
export const MEMBER_COUPON_PURPOSE = valueEnum({
  shopping: { text: '购物' },
  property: { text: '物业费' },
  repair: { text: '维修' },
  parking: { text: '停车' },
  charging: { text: '充电' },
});
export type MemberCouponPurpose = keyof typeof MEMBER_COUPON_PURPOSE;

/** How a template's coupons are given, and where a given coupon came from. */
export const MEMBER_COUPON_SOURCE = valueEnum({
  claim: { text: '会员领取' },
  staff: { text: '后台发放' },
  rule: { text: '规则赠送' },
});
export type MemberCouponSource = keyof typeof MEMBER_COUPON_SOURCE;

export const MEMBER_COUPON_VALIDITY = valueEnum({
  range: { text: '固定日期', tone: 'processing' },
  days: { text: '领取后N天', tone: 'warning' },
});

export const MEMBER_COUPON_TEMPLATE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

export const MEMBER_COUPON_STATUS = valueEnum({
  U: { text: '未使用', tone: 'processing' },
  Y: { text: '已使用', tone: 'success' },
  E: { text: '已过期', tone: 'default' },
  V: { text: '已作废', tone: 'error' },
});
export type MemberCouponStatus = keyof typeof MEMBER_COUPON_STATUS;

/** The rule of the edit of a template once a coupon of it was given. */
export const COUPON_LOCKED_MSG = '已发放的优惠券只能修改名称、说明、增加库存和延长有效期';

/** A coupon's code as typed (any case, spaces and dashes) as it is kept. */
export const normalCouponCode = (v: string): string => v.replace(/[\s-]/g, '').toUpperCase();

/** A coupon's code as a member shows it: 12 letters and digits (typed in any case, spaces ignored). */
export const couponCode = z
  .string()
  .transform(normalCouponCode)
  .pipe(z.string().regex(/^[A-Z0-9]{12}$/, '券码应为 12 位字母或数字'));

/** 100.00 → 100, 9.50 → 9.5: a yuan amount as a coupon's face says it. */
export function shortYuan(value: string): string {
  return fenToYuan(toFen(value)).replace(/\.?0+$/, '');
}

/** What a template gives, in words: 满100减10, 无门槛减5, 9折 最多减50, 赠 洗车一次. */
export function couponRuleText(t: {
  kind: string;
  face_value: string;
  min_spend: string;
  discount_percent: number | null;
  discount_cap: string;
  gift: string;
}): string {
  const min = toFen(t.min_spend) > 0n ? `满${shortYuan(t.min_spend)}` : '';
  if (t.kind === 'amount') return `${min || '无门槛'}减${shortYuan(t.face_value)}`;
  if (t.kind === 'discount') {
    const cap = toFen(t.discount_cap) > 0n ? ` 最多减${shortYuan(t.discount_cap)}` : '';
    return `${min ? `${min} ` : ''}${(t.discount_percent ?? 100) / 10}折${cap}`;
  }
  return `赠 ${t.gift}`;
}

/** The discount a coupon grants on an order of `amountFen` (fen): a gift none. */
export function couponDiscountFen(
  t: { kind: string; face_value: string; discount_percent: number | null; discount_cap: string },
  amountFen: bigint,
): bigint {
  if (t.kind === 'amount') {
    const face = toFen(t.face_value);
    return face < amountFen ? face : amountFen;
  }
  if (t.kind === 'discount') {
    const off = mulDivRoundHalfUp(amountFen, BigInt(100 - (t.discount_percent ?? 100)), 100n);
    const cap = toFen(t.discount_cap);
    return cap > 0n && off > cap ? cap : off;
  }
  return 0n;
}

export interface MemberCouponTemplateItem {
  id: number;
  name: string;
  kind: MemberCouponKind;
  kind_ch: string;
  purpose: MemberCouponPurpose;
  purpose_ch: string;
  face_value: string;
  min_spend: string;
  discount_percent: number | null;
  discount_cap: string;
  gift: string;
  /** 满100减10 / 9折 最多减50 / 赠 洗车一次 */
  rule_text: string;
  merchant_ids: number[];
  /** the stores' names, 、-joined, or 全部商户 */
  merchants: string;
  /** null: unlimited */
  stock: number | null;
  /** 不限 or the stock left of the total: 80 / 100 */
  stock_text: string;
  issued: number;
  used: number;
  per_person: number;
  give_mode: MemberCouponSource;
  give_mode_ch: string;
  validity: 'range' | 'days';
  validity_ch: string;
  valid_start: string | null;
  valid_end: string | null;
  valid_days: number | null;
  /** 2026-12-01 至 2026-12-31, 领取后 30 天 */
  validity_text: string;
  description: string;
  status: 'Y' | 'N';
  status_ch: string;
  /** a coupon of it was given: only the name, description, more stock and a later end may change */
  locked: boolean;
  create_time: string;
}

const optionalCount = (max: number) =>
  z
    .union([z.literal(''), z.null(), int(1, max)])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v));

const couponMoney = moneyUpTo(MAX_BILL_FEN);

export const memberCouponTemplate = resource<MemberCouponTemplateItem>()({
  name: 'membercoupon',
  label: '优惠券',
  methods: {
    list: 'cardslist',
    add: 'cardsadd',
    edit: 'cardsedit',
    del: 'cardsdel',
    small: 'cards_small_list',
    export: 'cardsexport',
  },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.coupons },
  fields: {
    name: {
      label: '优惠券名称',
      zod: text(20).min(1, '请输入优惠券名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 190,
      placeholder: '如 满100减10购物券',
    },
    kind: {
      label: '类型',
      zod: enumSchema(MEMBER_COUPON_KIND, '优惠券类型').default('amount'),
      enum: MEMBER_COUPON_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    purpose: {
      label: '用途',
      zod: enumSchema(MEMBER_COUPON_PURPOSE, '用途').default('shopping'),
      enum: MEMBER_COUPON_PURPOSE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    face_value: {
      label: '减免金额(元)',
      zod: couponMoney.default('0.00'),
      widget: 'money',
      in: ['form'],
      help: '满减券：每张减免的金额',
    },
    min_spend: {
      label: '最低消费(元)',
      zod: couponMoney.default('0.00'),
      widget: 'money',
      in: ['form'],
      help: '订单满此金额才能使用；0 为无门槛（礼品券不用填）',
    },
    discount_percent: {
      label: '折扣(%)',
      zod: optionalCount(99),
      widget: 'int',
      in: ['form'],
      help: '折扣券：按此比例付款，90 为九折',
    },
    discount_cap: {
      label: '最多优惠(元)',
      zod: couponMoney.default('0.00'),
      widget: 'money',
      in: ['form'],
      help: '折扣券：一单最多优惠的金额，0 为不封顶',
    },
    gift: { label: '礼品', zod: text(40).default(''), in: ['form'], help: '礼品券：凭券领取的物品或服务，如 洗车一次' },
    merchant_ids: {
      label: '适用商户',
      zod: z
        .array(id)
        .max(50, '适用商户最多 50 个')
        .default([])
        .transform((v) => [...new Set(v)].sort((a, b) => a - b)),
      widget: { small: 'merchant_auth_small_list', multiple: true },
      in: ['form'],
      help: '不选为全部商户（含物业收费）',
    },
    merchant_id: { label: '适用商户', widget: { small: 'merchant_auth_small_list' }, in: ['filter'] },
    stock: {
      label: '库存',
      zod: optionalCount(10_000_000),
      widget: 'int',
      in: ['form'],
      help: '可发放的总张数，留空为不限；已发放后只能增加',
    },
    per_person: {
      label: '每人限领',
      zod: int(0, 1000).default(1),
      widget: 'int',
      in: ['form', 'table', 'export'],
      width: 90,
      help: '每位会员最多持有的张数（含已使用、已过期），0 为不限',
    },
    give_mode: {
      label: '发放方式',
      zod: enumSchema(MEMBER_COUPON_SOURCE, '发放方式').default('staff'),
      enum: MEMBER_COUPON_SOURCE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 100,
    },
    validity: {
      label: '有效期',
      zod: enumSchema(MEMBER_COUPON_VALIDITY, '有效期').default('days'),
      enum: MEMBER_COUPON_VALIDITY,
      widget: 'radio',
      in: ['form'],
    },
    valid_start: { label: '开始日期', zod: optionalDay, widget: 'date', in: ['form'], help: '固定日期：券在这段日期内可用' },
    valid_end: { label: '结束日期', zod: optionalDay, widget: 'date', in: ['form'], help: '已发放后只能延后' },
    valid_days: {
      label: '有效天数',
      zod: optionalCount(3650),
      widget: 'int',
      in: ['form'],
      help: '领取后N天：自领取当天起可用的天数；已发放后只能增加',
    },
    description: { label: '使用说明', zod: text(500).default(''), widget: 'textarea', in: ['form', 'export'] },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: MEMBER_COUPON_TEMPLATE_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
      help: '停用后不能再发放，已发放的券仍可使用',
    },
  },
  columns: [
    { key: 'rule_text', label: '优惠内容', width: 160, in: ['table', 'export'] },
    { key: 'merchants', label: '适用商户', width: 160, in: ['table', 'export'] },
    { key: 'validity_text', label: '有效期', width: 200, in: ['table', 'export'] },
    { key: 'stock_text', label: '剩余/库存', width: 100, in: ['table', 'export'] },
    { key: 'issued', label: '已发放', width: 80, in: ['table', 'export'] },
    { key: 'used', label: '已使用', width: 80, in: ['table', 'export'] },
    createTimeColumn(),
  ],
  rules: [
    {
      check: (v) => v.kind !== 'amount' || toFen(String(v.face_value ?? '0')) > 0n,
      message: '满减券须填写减免金额',
      path: 'face_value',
    },
    {
      check: (v) =>
        v.kind !== 'amount' || toFen(String(v.min_spend ?? '0')) === 0n || toFen(String(v.face_value ?? '0')) < toFen(String(v.min_spend)),
      message: '减免金额应小于最低消费',
      path: 'face_value',
    },
    {
      check: (v) => v.kind !== 'discount' || typeof v.discount_percent === 'number',
      message: '折扣券须填写折扣（1 到 99）',
      path: 'discount_percent',
    },
    { check: (v) => v.kind !== 'gift' || !!v.gift, message: '礼品券须填写礼品', path: 'gift' },
    {
      check: (v) => v.validity !== 'range' || (typeof v.valid_start === 'string' && typeof v.valid_end === 'string'),
      message: '固定日期的优惠券须填写开始和结束日期',
      path: 'valid_end',
    },
    {
      check: (v) => v.validity !== 'range' || String(v.valid_start) <= String(v.valid_end),
      message: '结束日期不能早于开始日期',
      path: 'valid_end',
    },
    {
      check: (v) => v.validity !== 'days' || typeof v.valid_days === 'number',
      message: '领取后N天的优惠券须填写有效天数',
      path: 'valid_days',
    },
  ],
});

/** A given coupon, as the lists, the check and the template's figures show it. */
export interface MemberCouponItem {
  id: number;
  code: string;
  template_id: number;
  template_name: string;
  kind: MemberCouponKind;
  kind_ch: string;
  purpose: MemberCouponPurpose;
  purpose_ch: string;
  rule_text: string;
  member_id: number;
  realname: string;
  mobile: string;
  source: MemberCouponSource;
  source_ch: string;
  channel: string;
  /** what gave it: a rule's receipt number, a recharge's order number, a staff give's batch */
  source_ref: string;
  got_time: string;
  valid_from: string;
  valid_to: string;
  status: MemberCouponStatus;
  status_ch: string;
  used_time: string;
  used_order_no: string;
  used_merchant: string;
  /** the discount granted on its order (0.00 unless used) */
  discount: string;
  void_reason: string;
  create_time: string;
}

export const memberCouponGiven = resource<MemberCouponItem>()({
  name: 'membercoupongiven',
  label: '领券记录',
  methods: { list: 'cardgetlists', export: 'cardgetexport' },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.coupons },
  sort: 'desc',
  fields: {
    code: { label: '券码', in: ['table', 'filter', 'export'], fixed: true, width: 165 },
    keyword: { label: '会员姓名/手机号', in: ['filter'] },
    template_id: { label: '优惠券', widget: { small: 'cards_small_list' }, in: ['filter'] },
    status: { label: '状态', enum: MEMBER_COUPON_STATUS, in: ['table', 'filter', 'export'], width: 90 },
    source: { label: '来源', enum: MEMBER_COUPON_SOURCE, in: ['table', 'filter', 'export'], width: 90 },
    got_at: { label: '领取日期', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'template_name', label: '优惠券', width: 150 },
    { key: 'rule_text', label: '优惠内容', width: 130 },
    { key: 'realname', label: '会员', width: 90 },
    { key: 'mobile', label: '手机号', width: 120 },
    { key: 'source_ref', label: '来源单据', width: 170 },
    { key: 'got_time', label: '领取时间', width: 170 },
    { key: 'valid_from', label: '生效日期', widget: 'date', width: 110 },
    { key: 'valid_to', label: '有效期至', widget: 'date', width: 110 },
    { key: 'used_time', label: '使用时间', width: 170 },
    { key: 'used_order_no', label: '订单号', width: 170 },
    { key: 'used_merchant', label: '使用商户', width: 120 },
    { key: 'discount', label: '优惠金额', widget: 'money', width: 100 },
    { key: 'void_reason', label: '作废原因', width: 140, in: ['table', 'export'] },
  ],
});

/** A template's figures (carshow): coupons given by state, the discount they granted, the orders. */
export interface MemberCouponFigures {
  /** given in all (= the template's issued) */
  given: number;
  claimed: number;
  unused: number;
  used: number;
  expired: number;
  voided: number;
  discount: string;
  orders: number;
}

/** The answer of a code's check: never changes the coupon. */
export interface MemberCouponCheck {
  coupon: MemberCouponItem;
  /** '' when usable now for the amount, store and purpose asked; otherwise why not */
  reason: string;
  usable: boolean;
  /** the discount it would grant on the amount asked ('0.00' without an amount or for a gift) */
  discount: string;
  /** the stores it is valid at, or 全部商户 */
  merchants: string;
  min_spend: string;
  description: string;
}

/** A person to give a coupon to (the give dialog's search). */
export interface CouponMemberOption {
  id: number;
  realname: string;
  mobile: string;
  /** the rooms they live in, 、-joined */
  houses: string;
}

/** One day and template of the coupon overview (the totals row has day '' and template 合计). */
export interface CouponReportRow {
  key: string;
  day: string;
  template_id: number;
  template_name: string;
  /** given by staff or a rule */
  issued: number;
  /** claimed by members */
  claimed: number;
  used: number;
  expired: number;
  discount: string;
  /** orders that used them */
  orders: number;
}

export interface CouponReportAnswer {
  start_date: string;
  end_date: string;
  items: CouponReportRow[];
  totals: CouponReportRow;
}

/** The longest overview range: a year (and a day, for a leap year). */
export const COUPON_REPORT_MAX_DAYS = 366;

const reportInput = z
  .object({
    /** both absent: this month to today */
    start_date: z.union([z.literal(''), wireDay]).optional(),
    end_date: z.union([z.literal(''), wireDay]).optional(),
    template_id: optionalId,
  })
  .superRefine((v, c) => {
    if (!v.start_date !== !v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '请同时选择开始和结束日期' });
    else if (v.start_date && v.end_date) {
      if (v.start_date > v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
      else if (Date.parse(v.end_date) - Date.parse(v.start_date) >= COUPON_REPORT_MAX_DAYS * 86_400_000)
        c.addIssue({ code: 'custom', path: ['end_date'], message: '统计区间不能超过一年' });
    }
  });

/** At most this many people or houses in one give. */
export const COUPON_GIVE_MAX = 500;

export const memberCouponSchemas = {
  ...memberCouponTemplate.schemas,
  ...memberCouponGiven.schemas,
  /** a template's figures and its coupons, paged (filtered by state) */
  carshow: z.object({
    id,
    ...paging,
    status: enumOrAll(MEMBER_COUPON_STATUS, '状态').optional(),
  }),
  /** staff give a template to chosen members, or to the owners of chosen houses: all or nothing */
  cardgive: z
    .object({
      template_id: id,
      member_ids: z.array(id).max(COUPON_GIVE_MAX, `一次最多发放给 ${COUPON_GIVE_MAX} 人`).default([]),
      hids: z.array(id).max(COUPON_GIVE_MAX, `一次最多选择 ${COUPON_GIVE_MAX} 个房屋`).default([]),
      channel: text(30).default(''),
      idempotency_key: idempotencyKey,
    })
    .refine((v) => v.member_ids.length + v.hids.length > 0, { message: '请选择会员或房屋', path: ['member_ids'] }),
  /** the give dialog's search: members by name or mobile, or those living in a room */
  cardgivemembers: z
    .object({ keyword: text(30).default(''), hid: optionalId })
    .refine((v) => v.keyword !== '' || !!v.hid, { message: '请输入会员姓名或手机号', path: ['keyword'] }),
  /** checks a code (for an amount, a store, a purpose): never changes the coupon */
  cardverify: z.object({
    code: couponCode,
    amount: z.union([z.literal(''), z.null(), couponMoney]).optional(),
    merchant_id: optionalId,
    purpose: enumOrAll(MEMBER_COUPON_PURPOSE, '用途').optional(),
  }),
  cardvoid: z.object({ id, reason: text(200).min(1, '请填写作废原因') }),
  reportcardgenerallist: reportInput,
  reportcardgeneralexport: reportInput,
} as const;

export type MemberCouponOutputs = ResourceOutputs<typeof memberCouponTemplate.def, MemberCouponTemplateItem> &
  ResourceOutputs<typeof memberCouponGiven.def, MemberCouponItem> & {
    carshow: { template: MemberCouponTemplateItem; figures: MemberCouponFigures; items: MemberCouponItem[]; total: number };
    cardgive: { template_id: number; given: number; member_ids: number[]; issued: number };
    cardgivemembers: { items: CouponMemberOption[] };
    cardverify: MemberCouponCheck;
    cardvoid: MemberCouponItem;
    reportcardgenerallist: CouponReportAnswer;
    reportcardgeneralexport: ExportQueued;
  };
