/**
 * 支付方式 (paytypelist, /setup/paytypelist on the group side; issue 45 "Group settings"): the
 * group's rules for each way money is taken: whether the counter offers it, whether it counts in
 * 实收, whether a reference number (银行流水号, 凭证号) must be written with it, and its order. The
 * ways are the system's (each has its behaviour: the balance deducts, WeChat Pay and Alipay go
 * through a provider), so a way is never deleted, only disabled (docs/product.md#paytypelist).
 */
import { z } from 'zod';
import { text, yn } from '../common.js';
import { PAY_TYPE, PAY_TYPES, type PayTypeName } from '../fees.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who keeps the group's payment methods: its head office. */
export const PAYTYPE_ROLES = GROUP_LEADERS;

export const PAY_TYPE_KIND = valueEnum({
  online: { text: '线上', tone: 'processing' },
  offline: { text: '线下', tone: 'success' },
  deduction: { text: '抵扣', tone: 'warning' },
});
export type PayTypeKind = keyof typeof PAY_TYPE_KIND;

/** What each way is: paid through a provider, taken at the counter, or deducted from what the owner holds. */
export const PAY_TYPE_KIND_OF: Record<PayTypeName, PayTypeKind> = {
  cash: 'offline',
  wechat: 'online',
  alipay: 'online',
  bankcard: 'offline',
  transfer: 'offline',
  balance: 'deduction',
};

/** A way's rules before the group sets them: offered, counted in 实收 (the balance was counted when it was topped up), no reference. */
export interface PayTypeRules {
  enabled: 'Y' | 'N';
  counted: 'Y' | 'N';
  ref_required: 'Y' | 'N';
  sort: number;
}
export const payTypeDefaults = (p: PayTypeName): PayTypeRules => ({
  enabled: 'Y',
  counted: PAY_TYPE_KIND_OF[p] === 'deduction' ? 'N' : 'Y',
  ref_required: 'N',
  sort: PAY_TYPES.indexOf(p) + 1,
});

export const payTypeSchemas = {
  /** the group's payment methods with their rules, in their order */
  paytypelist: z.object({}),
  paytypeedit: z.object({
    pay_type: enumSchema(PAY_TYPE, '支付方式'),
    enabled: yn,
    counted: yn,
    ref_required: yn,
    sort: z.coerce.number({ error: '排序应为数字' }).int('排序应为整数').min(0, '排序不能小于0').max(999, '排序不能大于999'),
    remark: text(100).optional().default(''),
  }),
  /** a community's enabled ways with their rules, in their order: what its counter offers */
  paytypeoptions: z.object({}),
} as const;

export interface PayTypeItem extends PayTypeRules {
  pay_type: PayTypeName;
  pay_type_ch: string;
  kind: PayTypeKind;
  kind_ch: string;
  remark: string;
  /** '': never set, the defaults hold */
  update_time: string;
}

export interface PayTypeOption {
  pay_type: PayTypeName;
  pay_type_ch: string;
  kind: PayTypeKind;
  counted: 'Y' | 'N';
  ref_required: 'Y' | 'N';
}

export interface PayTypeOutputs {
  paytypelist: { items: PayTypeItem[] };
  paytypeedit: { pay_type: PayTypeName };
  paytypeoptions: { items: PayTypeOption[] };
}
