/**
 * 支付方式 (paytypelist, /setup/paytypelist on the group side; issue 45 "Group settings"): the
 * group's rules for each way money is taken: whether the counter offers it, whether it counts in
 * 实收, whether a reference number (银行流水号, 凭证号) must be written with it, and its order. The
 * system's ways have their behaviour (the balance deducts, WeChat Pay and Alipay go through a
 * provider), so they are never deleted, only disabled. The group adds its own ways on an offline
 * base (POS机-工行 on 银行卡): they behave as their base and count in 实收 as it does, and are
 * deleted only while unused (docs/product.md#paytypelist).
 */
import { z } from 'zod';
import { id, text, yn } from '../common.js';
import { PAY_TYPE, PAY_TYPE_CH, PAY_TYPES, type PayTypeName } from '../fees.js';
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

/** The system's ways a group's own way can be built on: those taken at the counter by hand. */
export const PAY_METHOD_BASES = ['cash', 'bankcard', 'transfer'] as const satisfies readonly PayTypeName[];
export type PayMethodBase = (typeof PAY_METHOD_BASES)[number];

const paySort = z.coerce.number({ error: '排序应为数字' }).int('排序应为整数').min(0, '排序不能小于0').max(999, '排序不能大于999');
const payMethodFields = {
  name: text(20)
    .min(1, '请填写支付方式名称')
    .refine((n) => !Object.values(PAY_TYPE_CH).includes(n), '不能与系统支付方式同名'),
  base: z.enum(PAY_METHOD_BASES, { error: '请选择所属方式（现金、银行卡或银行转账）' }),
  enabled: yn,
  ref_required: yn,
  sort: paySort,
  remark: text(100).optional().default(''),
};

export const payTypeSchemas = {
  /** the group's payment methods with their rules, in their order */
  paytypelist: z.object({}),
  paytypeedit: z.object({
    pay_type: enumSchema(PAY_TYPE, '支付方式'),
    enabled: yn,
    counted: yn,
    ref_required: yn,
    sort: paySort,
    remark: text(100).optional().default(''),
  }),
  /** the group's own way, on an offline base */
  paymethodadd: z.object(payMethodFields),
  paymethodedit: z.object({ id, ...payMethodFields }),
  /** only while no receipt or top-up used it; a used one is disabled instead */
  paymethoddel: z.object({ id }),
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

/** A group's own way (paytypelist's `methods`). */
export interface PayMethodItem {
  id: number;
  name: string;
  base: PayMethodBase;
  base_ch: string;
  enabled: 'Y' | 'N';
  /** its base's rule: an own way counts in 实收 as its base does */
  counted: 'Y' | 'N';
  ref_required: 'Y' | 'N';
  sort: number;
  remark: string;
  /** a receipt or a top-up used it: it can no longer be deleted, only disabled */
  used: boolean;
  update_time: string;
}

/** What the counter sends for a way: its system method and, for a group's own way, its id. */
export interface PayTypeOption {
  /** 'cash' for a system way, 'm12' for the group's own way 12: unique among the options */
  key: string;
  pay_type: PayTypeName;
  /** 0: the system way itself */
  method_id: number;
  /** what the counter and the receipt show: the own way's name, or the system way's */
  pay_type_ch: string;
  kind: PayTypeKind;
  counted: 'Y' | 'N';
  ref_required: 'Y' | 'N';
}

export interface PayTypeOutputs {
  paytypelist: { items: PayTypeItem[]; methods: PayMethodItem[] };
  paytypeedit: { pay_type: PayTypeName };
  paymethodadd: { id: number };
  paymethodedit: { id: number };
  paymethoddel: { id: number };
  paytypeoptions: { items: PayTypeOption[] };
}
