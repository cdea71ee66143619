/**
 * The member card reports (/feecounts; docs/product.md#card-reports): 会员卡流水 `cardlog` (financecount:
 * recharges, their refunds, counter purchases and their refunds by day, store or operator, and the
 * stored value they moved), 优惠券核销 `card_verification` (businesscount: coupon redemptions by day,
 * by coupon and store, and each one), and 会员权益负债 `cardliability` (what the members hold now:
 * balances, points, unused coupons, by card). Finance and the card managers read them; never a
 * merchant account (the property's money).
 */
import { z } from 'zod';
import { optionalId, paging, text } from '../common.js';
import type { ExportQueued } from '../jobs.js';
import { enumSchema, valueEnum, wireDay } from '../kit/resource.js';

/** Who reads the card reports: finance and those who set the cards up (admin always passes). */
export const CARD_REPORT_ROLES = ['financecount', 'cardset'] as const;

/** The store of what the property's own counter did (a recharge, a purchase at no store). */
export const PROPERTY_COUNTER = '物业服务中心';

export const CARDLOG_GROUP = valueEnum({
  day: { text: '按日' },
  merchant: { text: '按商户' },
  operator: { text: '按操作人' },
});
export type CardLogGroup = keyof typeof CARDLOG_GROUP;

/** A range of business days; both empty: this month (the server's today). */
const dayRange = {
  start_date: z.union([z.literal(''), wireDay]).optional(),
  end_date: z.union([z.literal(''), wireDay]).optional(),
};

const cardlogFilters = {
  ...dayRange,
  /** a store: its counter's purchases and refunds (recharges are the property counter's) */
  merchant_id: optionalId,
  /** who recharged, sold, approved a recharge's refund or refunded a purchase (their name) */
  operator: text(32).optional(),
  group_by: enumSchema(CARDLOG_GROUP, '分组').default('day'),
};

const verificationFilters = {
  ...dayRange,
  merchant_id: optionalId,
  /** a coupon template */
  template_id: optionalId,
};

/** One group's figures of 会员卡流水 (money as yuan text, exact). */
export interface CardLogFigures {
  /** recharges made in the range: how many, the paid parts, the bonus given */
  recharge_count: number;
  recharge_paid: string;
  recharge_bonus: string;
  /** recharge refunds approved in the range: how many, paid parts returned, bonus clawed back */
  recharge_refund_count: number;
  recharge_refund_paid: string;
  recharge_refund_bonus: string;
  /** counter purchases made in the range (refunded later or not) and each part that paid them */
  consume_count: number;
  consume_amount: string;
  member_discount: string;
  coupon_discount: string;
  points_money: string;
  balance_paid: string;
  cash_paid: string;
  /** counter purchases refunded in the range: how many, their amount, the balance given back */
  consume_refund_count: number;
  consume_refund_amount: string;
  consume_refund_balance: string;
  /** paid in by recharges − paid back by their refunds − balance spent at counters (net of refunds) */
  net_stored: string;
}

export interface CardLogRow extends CardLogFigures {
  /** the day (YYYY-MM-DD), the store's id (0: the property's counter) or the operator's name */
  key: string;
  label: string;
}

export interface CardLogReport {
  start_date: string;
  end_date: string;
  group_by: CardLogGroup;
  items: CardLogRow[];
  totals: CardLogFigures;
}

/** Coupon redemptions' figures: redemptions in the range, those given back since by a refund, and what stands. */
export interface CouponUseFigures {
  /** coupons used in the range, those given back since included */
  used_count: number;
  /** of them, given back by a refunded order */
  released_count: number;
  /** the amounts the standing redemptions applied to (after the member discount) */
  order_amount: string;
  /** the discount the standing redemptions granted */
  discount: string;
}

export interface CouponUseDayRow extends CouponUseFigures {
  day: string;
}

export interface CouponUseGroupRow extends CouponUseFigures {
  key: string;
  template_id: number;
  template_name: string;
  kind_ch: string;
  /** null: the property's counter, or a use not at a store (a property fee) */
  merchant_id: number | null;
  merchant: string;
}

export interface CardVerificationReport {
  start_date: string;
  end_date: string;
  by_day: CouponUseDayRow[];
  items: CouponUseGroupRow[];
  totals: CouponUseFigures;
}

/** One coupon redemption of the detail list. */
export interface CouponUseRow {
  /** u<coupon id> for a standing use, r<order id> for one given back */
  key: string;
  code: string;
  template_id: number;
  template_name: string;
  member_id: number;
  realname: string;
  mobile: string;
  merchant_id: number | null;
  merchant: string;
  /** opens /carpark/orderinfo?order_no= */
  order_no: string;
  amount: string;
  discount: string;
  used_at: string;
  /** Y 已使用 | R 已退回 (the order was refunded, the coupon given back) */
  status: 'Y' | 'R';
  status_ch: string;
}

export const COUPON_USE_STATUS = valueEnum({ Y: { text: '已使用', tone: 'success' }, R: { text: '已退回', tone: 'default' } });

/** What the members hold now, which the property owes them. */
export interface CardLiabilityFigures {
  /** live cards (未激活, 正常, 冻结) */
  cards: number;
  /** the members' balances (paid and bonus money are one pool) and how many hold one */
  balance: string;
  balance_members: number;
  /** bonus money given by recharges not refunded (included in the balance, or spent from it) */
  bonus_outstanding: string;
  points: number;
  points_members: number;
  /** unused coupons within their validity; of them the 满减 ones and their face value */
  coupons_unused: number;
  coupons_amount_unused: number;
  coupons_face_value: string;
}

export interface CardLiabilityRow extends CardLiabilityFigures {
  key: string;
  /** null: members without a live card (an owner's fee prepayment, a closed card) */
  template_id: number | null;
  template_name: string;
}

export interface CardLiability {
  as_of: string;
  items: CardLiabilityRow[];
  totals: CardLiabilityFigures;
}

export const cardReportSchemas = {
  /** financecount → 会员卡流水: recharges, refunds and counter purchases by day, store or operator */
  cardlog: z.object(cardlogFilters),
  cardlogexport: z.object(cardlogFilters),
  /** businesscount → 优惠券核销: redemptions by day and by coupon and store */
  card_verification: z.object(verificationFilters),
  /** each redemption of card_verification's range, newest first */
  card_verificationlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...verificationFilters }),
  /** summary: by coupon and store; detail: each redemption */
  card_verificationexport: z.object({ ...verificationFilters, view: z.enum(['summary', 'detail']).default('detail') }),
  /** 会员权益负债: balances, points and unused coupons now, by card */
  cardliability: z.object({}),
  /** the reports' filter options: stores, coupon templates, operators */
  cardreport_small_list: z.object({}),
} as const;

export type CardReportOutputs = {
  cardlog: CardLogReport;
  cardlogexport: ExportQueued;
  card_verification: CardVerificationReport;
  card_verificationlist: { items: CouponUseRow[]; total: number };
  card_verificationexport: ExportQueued;
  cardliability: CardLiability;
  cardreport_small_list: {
    merchants: Array<{ id: number; title: string }>;
    templates: Array<{ id: number; title: string }>;
    operators: string[];
  };
};
