/**
 * The member counter (会员收银 /carpark/carduscon; docs/product.md#member-counter): a member's purchase
 * at a merchant's (or the property's) counter, paid in order by the member discount, one coupon,
 * points within the card's limits, the balance, then cash or a QR payment; the points it earns; a
 * refund that reverses each part. `settleCounter` is the one computation, the web's preview and the
 * server's charge alike. orderinfo reads any member order: a counter purchase, a recharge, a mall order.
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, paging, text, yn } from '../common.js';
import { PAY_TYPE } from '../fees.js';
import { enumOrAll, enumSchema, valueEnum, wireDay } from '../kit/resource.js';
import { fenToYuan, moneyUpTo, mulDivRoundHalfUp, toFen, MAX_BILL_FEN } from '../money.js';
import type { ExportQueued } from '../jobs.js';
import { couponCode } from './coupons.js';

/** How the rest of a counter purchase is paid: cash or a QR code (微信, 支付宝), or a bank card. */
export const COUNTER_PAY_TYPE = valueEnum(
  Object.fromEntries(Object.entries(PAY_TYPE).filter(([k]) => ['cash', 'wechat', 'alipay', 'bankcard'].includes(k))) as Pick<
    typeof PAY_TYPE,
    'cash' | 'wechat' | 'alipay' | 'bankcard'
  >,
);

export const COUNTER_ORDER_STATUS = valueEnum({ Y: { text: '已支付', tone: 'success' }, R: { text: '已退款', tone: 'default' } });

/** The card's rules a purchase follows (its template's). */
export interface CounterRules {
  /** the share of the price a member pays, percent */
  discount: number;
  supplyBonus: boolean;
  supplyBalance: boolean;
  earnPerYuan: number;
  /** 0: no cap */
  earnCap: number;
  /** N points take `redeemMoney` off; 0: points take nothing off */
  redeemPoints: number;
  redeemMoney: string;
  redeemMinOrder: string;
  /** 0: no cap */
  redeemMaxPoints: number;
}

export interface CounterWallet {
  /** the coupon's discount on the amount after the member discount, in fen (0 none) */
  couponFen: bigint;
  /** points the member wants to use (rounded down to whole redemptions, capped by the rules) */
  pointsWanted: number;
  bonusHeld: number;
  balanceHeld: bigint;
  useBalance: boolean;
}

export interface CounterSettlement {
  amountFen: bigint;
  memberDiscountFen: bigint;
  couponFen: bigint;
  pointsUsed: number;
  pointsFen: bigint;
  balanceFen: bigint;
  cashFen: bigint;
  pointsEarned: number;
  /** the most points this purchase may take (for the input's hint) */
  pointsMax: number;
}

/**
 * One purchase's parts, in fen, in the order they apply: the member discount (rounded half up), one
 * coupon (at most what is left), points (whole redemptions, from an order of at least the minimum,
 * at most the cap, what the member holds and what is left), the balance, then the rest paid in cash
 * or by QR. Points are earned on what the member paid (balance and cash), per whole yuan, capped.
 */
export function settleCounter(amountFen: bigint, rules: CounterRules, w: CounterWallet): CounterSettlement {
  const afterDiscount = mulDivRoundHalfUp(amountFen, BigInt(rules.discount), 100n);
  const memberDiscountFen = amountFen - afterDiscount;
  const couponFen = w.couponFen < afterDiscount ? w.couponFen : afterDiscount;
  let left = afterDiscount - couponFen;
  const perFen = toFen(rules.redeemMoney);
  let pointsMax = 0;
  if (rules.supplyBonus && rules.redeemPoints > 0 && perFen > 0n && left >= toFen(rules.redeemMinOrder)) {
    const byLeft = Number(left / perFen) * rules.redeemPoints;
    const byHeld = Math.floor(w.bonusHeld / rules.redeemPoints) * rules.redeemPoints;
    const byCap = rules.redeemMaxPoints > 0 ? Math.floor(rules.redeemMaxPoints / rules.redeemPoints) * rules.redeemPoints : Infinity;
    pointsMax = Math.max(0, Math.min(byLeft, byHeld, byCap));
  }
  const wanted = Math.floor(Math.max(0, w.pointsWanted) / Math.max(1, rules.redeemPoints)) * rules.redeemPoints;
  const pointsUsed = Math.min(wanted, pointsMax);
  const pointsFen = rules.redeemPoints > 0 ? BigInt(pointsUsed / rules.redeemPoints) * perFen : 0n;
  left -= pointsFen;
  const balanceFen = rules.supplyBalance && w.useBalance ? (w.balanceHeld < left ? w.balanceHeld : left) : 0n;
  const cashFen = left - balanceFen;
  let pointsEarned = 0;
  if (rules.supplyBonus && rules.earnPerYuan > 0) {
    pointsEarned = Number((balanceFen + cashFen) / 100n) * rules.earnPerYuan;
    if (rules.earnCap > 0 && pointsEarned > rules.earnCap) pointsEarned = rules.earnCap;
  }
  return { amountFen, memberDiscountFen, couponFen, pointsUsed, pointsFen, balanceFen, cashFen, pointsEarned, pointsMax };
}

/** A settlement as the wire carries it (yuan text). */
export const settlementWire = (s: CounterSettlement) => ({
  amount: fenToYuan(s.amountFen),
  member_discount: fenToYuan(s.memberDiscountFen),
  coupon_discount: fenToYuan(s.couponFen),
  points_used: s.pointsUsed,
  points_money: fenToYuan(s.pointsFen),
  balance_paid: fenToYuan(s.balanceFen),
  cash_paid: fenToYuan(s.cashFen),
  points_earned: s.pointsEarned,
  points_max: s.pointsMax,
});
export type SettlementWire = ReturnType<typeof settlementWire>;

/** What the counter shows of a member found by a card number, a mobile or a coupon's code. */
export interface CounterMember {
  card_id: number;
  card_no: string;
  card_status: string;
  card_status_ch: string;
  template_name: string;
  template_color: string;
  member_id: number;
  realname: string;
  mobile: string;
  balance: string;
  bonus: number;
  rules: CounterRules;
  /** the coupon the code named, when it was a coupon's */
  coupon_code: string;
}

export interface CounterOrderRow extends SettlementWire {
  id: number;
  order_no: string;
  card_id: number;
  card_no: string;
  member_id: number;
  realname: string;
  mobile: string;
  merchant_id: number | null;
  merchant: string;
  coupon_code: string;
  coupon_name: string;
  pay_type: string;
  pay_type_ch: string;
  status: 'Y' | 'R';
  status_ch: string;
  refund_reason: string;
  refunded_at: string;
  operator: string;
  remark: string;
  create_time: string;
}

/** One member order as orderinfo shows it, whatever made it. */
export interface MemberOrderInfo {
  order_no: string;
  /** counter | recharge | mall */
  kind: 'counter' | 'recharge' | 'mall';
  kind_ch: string;
  status_ch: string;
  member: { id: number; realname: string; mobile: string; card_no: string };
  merchant: string;
  lines: Array<{ title: string; quantity: number; amount: string; points: number }>;
  /** how it was paid: 会员折扣, 优惠券, 积分抵扣, 余额, 现金… with amounts (points where they are points) */
  payments: Array<{ label: string; amount: string; points: number }>;
  total: string;
  timeline: Array<{ time: string; text: string; operator: string }>;
  operator: string;
  create_time: string;
}

const wanted = {
  card_id: id,
  amount: moneyUpTo(MAX_BILL_FEN).refine((v) => toFen(v) > 0n, '消费金额须大于0'),
  coupon_code: z.union([z.literal(''), couponCode]).default(''),
  points: int(0, 10_000_000).default(0),
  use_balance: yn.default('Y'),
  merchant_id: optionalId,
};

const counterFilters = {
  keyword: text(32).optional(),
  merchant_id: optionalId,
  status: enumOrAll(COUNTER_ORDER_STATUS, '状态').optional(),
  create_time: z.union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])]).optional(),
};

export const counterSchemas = {
  /** finds a member by card number, mobile, or a coupon's code */
  carduslookup: z.object({ code: text(32).min(1, '请输入会员卡号、手机号或券码') }),
  /** the parts a purchase would be paid by, without taking anything */
  cardconsumepreview: z.object(wanted),
  cardconsume: z.object({
    ...wanted,
    pay_type: enumSchema(COUNTER_PAY_TYPE, '支付方式').default('cash'),
    remark: text(200).default(''),
    idempotency_key: idempotencyKey,
  }),
  cardconsumelist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...counterFilters }),
  cardconsumeexport: z.object(counterFilters),
  /** refunds a purchase whole: each part goes back */
  cardconsumerefund: z.object({ id, reason: text(200).min(1, '请填写退款原因') }),
  orderinfo: z.object({ order_no: text(40).min(1, '请输入订单号') }),
} as const;

export type CounterOutputs = {
  carduslookup: CounterMember;
  cardconsumepreview: SettlementWire;
  cardconsume: CounterOrderRow & { balance: string; bonus: number };
  cardconsumelist: { items: CounterOrderRow[]; total: number; sums: { amount: string; balance_paid: string; cash_paid: string } };
  cardconsumeexport: ExportQueued;
  cardconsumerefund: CounterOrderRow;
  orderinfo: MemberOrderInfo;
};
