/**
 * Coupons given by a rule (赠券规则, a tab of /carpark/cardslist; docs/product.md#member-coupons):
 * a payment at the cashier that pays at least N months of one fee item (by default only months
 * from the payment's on: 预缴) gives the room's owner a template's coupons, all at once or one a
 * month: "预缴12个月物业费，赠12张月度停车券". A voided or refunded payment takes back the unused.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { createTimeColumn, enumSchema, optionalDay, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { CARD_ROLES } from './roles.js';

export const COUPON_RULE_FREQUENCY = valueEnum({
  once: { text: '一次发放', tone: 'processing' },
  monthly: { text: '每月一张', tone: 'success' },
});
export type CouponRuleFrequency = keyof typeof COUPON_RULE_FREQUENCY;

export const COUPON_RULE_PREPAID = valueEnum({
  Y: { text: '仅预缴（本月及以后）', tone: 'processing' },
  N: { text: '含往期欠费', tone: 'default' },
});

export const COUPON_RULE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

export interface CouponRuleItem {
  id: number;
  name: string;
  item_id: number;
  item_title: string;
  min_months: number;
  prepaid_only: 'Y' | 'N';
  prepaid_only_ch: string;
  template_id: number;
  template_name: string;
  quantity: number;
  frequency: CouponRuleFrequency;
  frequency_ch: string;
  /** 预缴物业服务费满12个月，赠「月度停车券」12张（每月1张） */
  rule_text: string;
  start_date: string | null;
  end_date: string | null;
  /** 长期 or 2026-12-01 至 2027-03-31 */
  window_text: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** payments that met it */
  gives: number;
  /** coupons it gave, and of them taken back */
  given: number;
  taken_back: number;
  create_time: string;
}

/** The rule in words, as the list and the cashier's notice say it. */
export function giveRuleText(r: {
  item_title: string;
  min_months: number;
  prepaid_only: string;
  template_name: string;
  quantity: number;
  frequency: string;
}): string {
  const how = r.frequency === 'monthly' ? `（每月1张，共${r.quantity}个月）` : '';
  return `${r.prepaid_only === 'Y' ? '预缴' : '缴纳'}${r.item_title}满${r.min_months}个月，赠「${r.template_name}」${r.quantity}张${how}`;
}

export const couponRule = resource<CouponRuleItem>()({
  name: 'couponrule',
  label: '赠券规则',
  methods: {
    list: 'cardsrulelist',
    add: 'cardsruleadd',
    edit: 'cardsruleedit',
    del: 'cardsruledel',
    export: 'cardsruleexport',
  },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.coupons },
  fields: {
    name: {
      label: '规则名称',
      zod: text(30).min(1, '请输入规则名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 170,
      placeholder: '如 预缴一年物业费送停车券',
    },
    item_id: {
      label: '收费项目',
      zod: id,
      widget: { small: 'feethinglist' },
      in: ['form', 'filter'],
      help: '一笔缴费中这个收费项目的账期数达到下面的月数时赠券',
    },
    min_months: {
      label: '缴满月数',
      zod: int(1, 120).default(12),
      widget: 'int',
      in: ['form', 'export'],
      help: '按账期计，一个账期为一个月',
    },
    prepaid_only: {
      label: '计入的账期',
      zod: yn.default('Y'),
      enum: COUPON_RULE_PREPAID,
      widget: 'radio',
      in: ['form', 'export'],
      help: '仅预缴：只有缴费当月及以后的账期计入；补缴欠费不赠券',
    },
    template_id: {
      label: '赠送的优惠券',
      zod: id,
      widget: { small: 'cards_small_list' },
      in: ['form', 'filter'],
      help: '只能选发放方式为「规则赠送」且启用的优惠券；每人限领须不少于赠送张数（或不限）',
    },
    quantity: { label: '赠送张数', zod: int(1, 36).default(1), widget: 'int', in: ['form', 'export'] },
    frequency: {
      label: '发放方式',
      zod: enumSchema(COUPON_RULE_FREQUENCY, '发放方式').default('once'),
      enum: COUPON_RULE_FREQUENCY,
      widget: 'radio',
      in: ['form', 'table', 'export'],
      width: 100,
      help: '每月一张：第N张在缴费后第N个月内有效（自缴费当月起）；一次发放：按优惠券的有效期',
    },
    start_date: { label: '开始日期', zod: optionalDay, widget: 'date', in: ['form'], help: '留空为立即生效' },
    end_date: { label: '结束日期', zod: optionalDay, widget: 'date', in: ['form'], help: '留空为长期有效' },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: COUPON_RULE_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'rule_text', label: '规则', width: 320, in: ['table', 'export'] },
    { key: 'window_text', label: '活动时间', width: 200, in: ['table', 'export'] },
    { key: 'gives', label: '触发笔数', width: 90, in: ['table', 'export'] },
    { key: 'given', label: '已赠张数', width: 90, in: ['table', 'export'] },
    { key: 'taken_back', label: '已收回', width: 80, in: ['table', 'export'] },
    createTimeColumn(),
  ],
  rules: [
    {
      check: (v) => !v.start_date || !v.end_date || String(v.start_date) <= String(v.end_date),
      message: '结束日期不能早于开始日期',
      path: 'end_date',
    },
  ],
});

/** What one payment that met a rule gave. */
export interface CouponRuleGiveRow {
  id: number;
  rule_id: number;
  rule_name: string;
  payment_id: number;
  receipt_no: string;
  address: string;
  member_id: number;
  realname: string;
  mobile: string;
  /** the months of the item the payment paid that counted */
  months: number;
  given: number;
  taken_back: number;
  /** why nothing was given (库存不足…), or what was taken back */
  note: string;
  create_time: string;
}

export const couponRuleSchemas = {
  ...couponRule.schemas,
  /** the payments that met the rules (or one rule), newest first */
  cardsrulegives: z.object({ ...paging, rule_id: optionalId, keyword: text(30).optional() }),
} as const;

export type CouponRuleOutputs = ResourceOutputs<typeof couponRule.def, CouponRuleItem> & {
  cardsrulegives: { items: CouponRuleGiveRow[]; total: number };
};
