/**
 * Stored value (储值管理 /carpark/storagegl; docs/product.md#member-cards): recharge packages (pay X,
 * get a bonus and points, within a window, a limit per member), recharges at the counter (one
 * idempotent payment writing the paid part and the bonus part as two ledger rows) and the refund of
 * a whole unspent recharge, approved as a workflow.
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, paging, text, yn } from '../common.js';
import { PAY_TYPE } from '../fees.js';
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
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { money, moneyUpTo, MAX_PAYMENT_FEN, toFen } from '../money.js';
import type { ExportQueued } from '../jobs.js';
import { CARD_ROLES } from './roles.js';

export const PACKAGE_STATUS = valueEnum({ Y: { text: '上架', tone: 'success' }, N: { text: '下架', tone: 'default' } });

export interface RechargePackageItem {
  id: number;
  name: string;
  pay_amount: string;
  bonus_amount: string;
  bonus_points: number;
  start_date: string | null;
  end_date: string | null;
  /** 长期 or 2026-12-01 至 2026-12-31 */
  window_text: string;
  per_member_limit: number;
  /** coupons each recharge with it gives (a template given by rule), or none */
  coupon_template_id: number | null;
  coupon_count: number;
  /** 「月度停车券」×2, or '' */
  coupon_text: string;
  /** recharges made with it */
  used: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  create_time: string;
}

const positiveMoney = moneyUpTo(MAX_PAYMENT_FEN).refine((v) => toFen(v) > 0n, '金额须大于0');

export const rechargePackage = resource<RechargePackageItem>()({
  name: 'rechargepackage',
  label: '充值套餐',
  methods: {
    list: 'rechargepackagelist',
    add: 'rechargepackageadd',
    edit: 'rechargepackageedit',
    del: 'rechargepackagedel',
    small: 'rechargepackage_small_list',
    export: 'rechargepackageexport',
  },
  roles: { read: [...CARD_ROLES.staff, ...CARD_ROLES.recharge], write: CARD_ROLES.approve },
  fields: {
    name: { label: '套餐名称', zod: text(20).min(1, '请输入套餐名称'), in: ['form', 'table', 'filter', 'export'], fixed: true, width: 140 },
    pay_amount: { label: '充值金额', zod: positiveMoney, widget: 'money', in: ['form', 'table', 'export'], width: 100 },
    bonus_amount: {
      label: '赠送金额',
      zod: money.default('0.00'),
      widget: 'money',
      in: ['form', 'table', 'export'],
      width: 100,
      help: '赠送部分单独记入余额流水，退款时收回',
    },
    bonus_points: { label: '赠送积分', zod: int(0, 1_000_000).default(0), widget: 'int', in: ['form', 'table', 'export'], width: 90 },
    start_date: { label: '开始日期', zod: optionalDay, widget: 'date', in: ['form'], help: '留空为立即生效' },
    end_date: { label: '结束日期', zod: optionalDay, widget: 'date', in: ['form'], help: '留空为长期有效' },
    per_member_limit: {
      label: '每人限充次数',
      zod: int(0, 1000).default(0),
      widget: 'int',
      in: ['form', 'table', 'export'],
      width: 110,
      help: '0 为不限',
    },
    coupon_template_id: {
      label: '赠送优惠券',
      zod: optionalId.transform((v) => v ?? null),
      widget: { small: 'cards_small_list' },
      in: ['form'],
      help: '只能选发放方式为「规则赠送」且启用的优惠券；退款时未使用的券一并作废，已使用则不能退款',
    },
    coupon_count: {
      label: '赠券张数',
      zod: int(0, 50).default(0),
      widget: 'int',
      in: ['form'],
      help: '选了优惠券时填写，每次充值赠送的张数',
    },
    status: { label: '状态', zod: yn.default('Y'), enum: PACKAGE_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'coupon_text', label: '赠送优惠券', width: 160, in: ['table', 'export'] },
    { key: 'window_text', label: '活动时间', width: 200, in: ['table', 'export'] },
    { key: 'used', label: '已充次数', width: 90, in: ['table', 'export'] },
    createTimeColumn(),
  ],
  rules: [
    {
      check: (v) => !v.start_date || !v.end_date || String(v.start_date) <= String(v.end_date),
      message: '结束日期不能早于开始日期',
      path: 'end_date',
    },
    {
      check: (v) => !v.coupon_template_id === !Number(v.coupon_count ?? 0),
      message: '选了赠送优惠券须填写赠券张数（不赠券时张数为 0）',
      path: 'coupon_count',
    },
  ],
});

/** A recharge's state: 已充值, 退款待审批, 已退款. */
export const RECHARGE_STATUS = valueEnum({
  Y: { text: '已充值', tone: 'success' },
  E: { text: '退款待审批', tone: 'warning' },
  R: { text: '已退款', tone: 'default' },
});
export type RechargeStatus = keyof typeof RECHARGE_STATUS;

/** How a recharge is paid: every payment method but the balance itself. */
export const RECHARGE_PAY_TYPE = valueEnum(
  Object.fromEntries(Object.entries(PAY_TYPE).filter(([k]) => k !== 'balance')) as Omit<typeof PAY_TYPE, 'balance'>,
);

export interface RechargeRow {
  id: number;
  order_no: string;
  card_id: number;
  card_no: string;
  member_id: number;
  realname: string;
  mobile: string;
  package_id: number | null;
  package_name: string;
  paid_amount: string;
  bonus_amount: string;
  bonus_points: number;
  /** coupons its package gave */
  coupons_given: number;
  pay_type: string;
  pay_type_ch: string;
  reference: string;
  status: RechargeStatus;
  status_ch: string;
  refund_reason: string;
  operator: string;
  remark: string;
  create_time: string;
}

const reason = { reason: text(200).min(1, '请填写退款原因') };
const opinion = { remark: text(200).default('') };

export const rechargeRefundFlow = workflow({
  name: 'cardrecharge',
  label: '充值记录',
  states: RECHARGE_STATUS,
  transitions: {
    apply: {
      method: 'cardrechargerefund',
      label: '申请退款',
      from: ['Y'],
      to: 'E',
      roles: CARD_ROLES.recharge,
      input: reason,
      inputLabels: { reason: '退款原因' },
      confirm: '整笔退款：退回实付金额，收回赠送金额和赠送积分；须余额中这笔充值未被使用。确定申请？',
      danger: true,
    },
    approve: {
      method: 'cardrechargerefundreview',
      label: '同意退款',
      from: ['E'],
      to: 'R',
      roles: CARD_ROLES.approve,
      fixed: { approve: true },
      input: opinion,
      inputLabels: { remark: '审批意见' },
      confirm: '同意后立即从会员余额中退回实付金额并收回赠送部分。确定同意？',
    },
    reject: {
      method: 'cardrechargerefundreview',
      label: '驳回',
      from: ['E'],
      to: 'Y',
      roles: CARD_ROLES.approve,
      fixed: { approve: false },
      input: opinion,
      inputLabels: { remark: '驳回原因' },
      danger: true,
    },
  },
  steps: { create: '充值' },
  logMethod: 'cardrechargelog',
  fieldLabels: { amount: '充值金额' },
});

const rechargeFilters = {
  keyword: text(32).optional(),
  card_id: optionalId,
  pay_type: enumOrAll(RECHARGE_PAY_TYPE, '支付方式').optional(),
  status: enumOrAll(RECHARGE_STATUS, '状态').optional(),
  package_id: optionalId,
  create_time: z.union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])]).optional(),
};

export const rechargeSchemas = {
  ...rechargePackage.schemas,
  ...rechargeRefundFlow.schemas,
  /** a recharge at the counter: a package, or an amount without a bonus */
  cardrecharge: z
    .object({
      card_id: id,
      package_id: optionalId,
      amount: z.union([z.literal(''), z.null(), positiveMoney]).optional(),
      pay_type: enumSchema(RECHARGE_PAY_TYPE, '支付方式'),
      /** the group's own way on `pay_type` (自定义支付方式), if one was chosen */
      pay_method_id: optionalId,
      reference: text(64).default(''),
      remark: text(200).default(''),
      idempotency_key: idempotencyKey,
    })
    .refine((v) => !!v.package_id || !!v.amount, { message: '请选择充值套餐或填写充值金额', path: ['amount'] }),
  cardrechargelist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...rechargeFilters }),
  cardrechargeexport: z.object(rechargeFilters),
} as const;

export type RechargeOutputs = ResourceOutputs<typeof rechargePackage.def, RechargePackageItem> & {
  cardrecharge: RechargeRow & { balance: string; bonus: number };
  cardrechargelist: { items: RechargeRow[]; total: number; sums: { paid_amount: string; bonus_amount: string } };
  cardrechargeexport: ExportQueued;
  cardrechargerefund: RechargeRow;
  cardrechargerefundreview: RechargeRow;
  cardrechargelog: { items: WorkflowLogItem[] };
};
