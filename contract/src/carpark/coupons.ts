/**
 * Parking coupons (停车劵, /carpark/parkcardlist and /carpark/receivelist;
 * docs/product.md#parking-coupons): coupon kinds per lot as a resource; merchants buy them in
 * orders (rows that never change) into their stock; giving one to a plate takes one from the stock
 * and is valid for one day; a given coupon is 已领取, then 已使用 at an exit, 已作废, or 已过期
 * (read by time).
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, paging, text } from '../common.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { money, moneyUpTo } from '../money.js';
import type { ExportQueued } from '../jobs.js';
import { normalizePlate, PLATE_RE } from '../owners/cars.js';
import type { CouponKind } from './tempFee.js';

/** Who sells and gives parking coupons (parkcard); the parking staff read them too. */
export const PARK_COUPON_ROLES = { read: ['parkcard', 'carpark'], write: ['parkcard'] } as const;

/** The message the product gives when a merchant has none left to give. */
export const COUPON_OUT_OF_STOCK = '停车劵不足，请购买';

export const COUPON_KIND = valueEnum({
  minutes: { text: '减时', tone: 'processing' },
  amount: { text: '减免金额', tone: 'warning' },
  discount: { text: '折扣', tone: 'success' },
  free: { text: '全免', tone: 'error' },
});
export const COUPON_KINDS = ['minutes', 'amount', 'discount', 'free'] as const;
export const COUPON_STATUS = valueEnum({ Y: { text: '在售', tone: 'success' }, N: { text: '停售', tone: 'default' } });
/** G 已领取 | U 已使用 | V 已作废 | E 已过期 (a G past its day: read by time, never stored) */
export const GIVEN_STATE = valueEnum({
  G: { text: '已领取', tone: 'processing' },
  U: { text: '已使用', tone: 'success' },
  V: { text: '已作废', tone: 'default' },
  E: { text: '已过期', tone: 'warning' },
});
/** How a merchant pays for an order (the fees area's words; no owner's balance here). */
export const COUPON_PAY_TYPES = ['cash', 'wechat', 'alipay', 'bankcard', 'transfer'] as const;

const plate = z.string().transform(normalizePlate).pipe(z.string().regex(PLATE_RE, '车牌号格式不正确（如 沪A12345、沪AD12345）'));
/** A discount rate: 0 < x < 1, two decimals at most ('0.8' is 8折); '' or absent: none. */
const rate = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    const s = v === undefined ? '' : String(v).trim();
    // the form's empty value (0, '0.00') means no discount: the kind decides whether one is needed
    if (s === '' || /^0*(\.0*)?$/.test(s)) return '0.00';
    const m = /^0?\.(\d{1,2})$/.exec(s);
    if (!m || Number(m[1]!.padEnd(2, '0')) === 0) {
      ctx.addIssue({ code: 'custom', message: '折扣应大于0且小于1，最多两位小数（如 0.8 为8折）' });
      return z.NEVER;
    }
    return `0.${m[1]!.padEnd(2, '0')}`;
  });
const dateRange = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

export interface ParkCouponItem {
  id: number;
  lot_id: number;
  lot_title: string;
  title: string;
  kind: CouponKind;
  kind_ch: string;
  minutes: number;
  amount: string;
  rate: string;
  /** 减30分钟 / 减5.00元 / 8折 / 全免 */
  face: string;
  price: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** merchants' stock left in all */
  stock_left: number;
  sold: number;
  create_time: string;
}

export const parkCoupon = resource<ParkCouponItem>()({
  name: 'parkcoupon',
  label: '停车劵',
  methods: { list: 'parkcouponlist', add: 'parkcouponadd', edit: 'parkcouponedit', del: 'parkcoupondel', small: 'parkcoupon_small_list' },
  roles: { read: PARK_COUPON_ROLES.read, write: PARK_COUPON_ROLES.write },
  fields: {
    title: {
      label: '名称',
      zod: text(30).min(1, '请输入停车劵名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      placeholder: '如 减免30分钟',
    },
    lot_id: { label: '停车场', zod: id, widget: { small: 'car_parking_small_list' }, in: ['form', 'filter'] },
    kind: {
      label: '类型',
      zod: z.enum(COUPON_KINDS, { message: '请选择停车劵类型' }),
      enum: COUPON_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    minutes: {
      label: '减免分钟',
      zod: int(0, 1440).default(0),
      widget: 'int',
      in: ['form'],
      help: '减时券：出场时从停车时长中减去的分钟数',
    },
    amount: {
      label: '减免金额',
      zod: moneyUpTo(10_000_00n).default('0.00'),
      widget: 'money',
      in: ['form'],
      help: '减免金额券：从停车费中减去的金额',
    },
    rate: { label: '折扣', zod: rate, widget: 'decimal', in: ['form'], help: '折扣券：应付乘以该折扣（0.8 为8折），四舍五入到分' },
    price: { label: '售价', zod: moneyUpTo(10_000_00n), widget: 'money', in: ['form', 'table'], help: '商户购买每张的价格', width: 100 },
    status: { label: '状态', zod: z.enum(['Y', 'N']).default('Y'), enum: COUPON_STATUS, in: ['form', 'table', 'filter'], width: 80 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  columns: [
    { key: 'lot_title', label: '停车场', width: 140 },
    { key: 'face', label: '面值', width: 100 },
    { key: 'sold', label: '已售', width: 80 },
    { key: 'stock_left', label: '商户库存', width: 90 },
    createTimeColumn(),
  ],
  rules: [
    { check: (v) => v.kind !== 'minutes' || Number(v.minutes) > 0, message: '减时券须填写减免分钟（1–1440）', path: 'minutes' },
    { check: (v) => v.kind !== 'amount' || Number(v.amount) > 0, message: '减免金额券须填写大于0的减免金额', path: 'amount' },
    { check: (v) => v.kind !== 'discount' || Number(v.rate) > 0, message: '折扣券须填写0到1之间的折扣', path: 'rate' },
  ],
});

export interface CouponStockItem {
  id: number;
  merchant_id: number;
  merchant: string;
  coupon_id: number;
  coupon_title: string;
  lot_title: string;
  kind: CouponKind;
  kind_ch: string;
  face: string;
  bought: number;
  given: number;
  left_count: number;
}

export interface CouponOrderItem {
  id: number;
  orderid: string;
  merchant_id: number;
  merchant: string;
  coupon_id: number;
  coupon_title: string;
  face: string;
  quantity: number;
  price: string;
  amount: string;
  pay_type: string;
  pay_type_ch: string;
  operator: string;
  remark: string;
  create_time: string;
}

export interface GivenCouponItem {
  id: number;
  code: string;
  merchant_id: number;
  merchant: string;
  coupon_id: number;
  coupon_title: string;
  lot_title: string;
  kind: CouponKind;
  kind_ch: string;
  face: string;
  carlicense: string;
  valid_from: string;
  valid_to: string;
  state: 'G' | 'U' | 'V' | 'E';
  state_ch: string;
  used_at: string;
  used_amount: string;
  voided_at: string;
  void_reason: string;
  operator: string;
  create_time: string;
}

const orderFilters = {
  merchant_id: optionalId,
  coupon_id: optionalId,
  pay_type: z.enum(['', ...COUPON_PAY_TYPES]).optional(),
  orderid: text(40).optional(),
  create_time: dateRange,
};
const givenFilters = {
  merchant_id: optionalId,
  coupon_id: optionalId,
  carlicense: text(10).optional(),
  state: z.enum(['', 'G', 'U', 'V', 'E']).optional(),
  create_time: dateRange,
};

export const couponSchemas = {
  ...parkCoupon.schemas,
  parkcouponstocklist: z.object({ ...paging, merchant_id: optionalId, coupon_id: optionalId }),
  parkcouponorderadd: z.object({
    merchant_id: id,
    coupon_id: id,
    quantity: int(1, 10000),
    pay_type: z.enum(COUPON_PAY_TYPES, { message: '请选择支付方式' }),
    /** what the page showed: refused when it is not price × quantity (the price changed meanwhile) */
    amount: money.optional(),
    remark: text(200).default(''),
    idempotency_key: idempotencyKey.optional(),
  }),
  parkcouponorderlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...orderFilters }),
  parkcouponorderexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...orderFilters }),
  parkcoupongive: z.object({ merchant_id: id, coupon_id: id, carlicense: plate }),
  parkcouponvoid: z.object({ id, reason: text(100).min(1, '请填写作废原因') }),
  receivelist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...givenFilters }),
  receiveexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...givenFilters }),
} as const;

export type CouponOutputs = ResourceOutputs<typeof parkCoupon.def, ParkCouponItem> & {
  parkcouponstocklist: { items: CouponStockItem[]; total: number };
  parkcouponorderadd: { id: number; orderid: string; amount: string; left_count: number };
  parkcouponorderlist: { items: CouponOrderItem[]; total: number; sum_quantity: number; sum_amount: string };
  parkcouponorderexport: ExportQueued;
  parkcoupongive: { id: number; code: string; valid_from: string; valid_to: string; left_count: number };
  parkcouponvoid: { id: number; left_count: number };
  receivelist: { items: GivenCouponItem[]; total: number };
  receiveexport: ExportQueued;
};
