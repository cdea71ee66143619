/**
 * 支付商户设置 (setpay, /setup/setpay on the group side; issue 45 "Group settings"): for each
 * community of the group and each kind of fee, the merchant that receives the money: WeChat Pay
 * (商户号, AppID, APIv3 密钥, 证书序列号, 商户私钥) or Alipay (AppID, 应用私钥, 支付宝公钥).
 * A merchant without a community is the group's default for its kind; a community falls back to
 * it (docs/product.md#setpay). Keys are written only: the answers carry their masks
 * ('已设置 ****1234'), an edit that leaves one blank keeps the stored one.
 */
import { z } from 'zod';
import { CONTROL_CHARS, id, optionalId, paging, text, yn } from '../common.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who keeps the group's payment merchants: its head office. */
export const SETPAY_ROLES = GROUP_LEADERS;

/** The kinds of fee a merchant receives; 全部费用 covers every kind without a merchant of its own. */
export const PAY_FEE_KIND = valueEnum({
  all: { text: '全部费用', tone: 'processing' },
  property: { text: '物业费' },
  parking: { text: '停车费（月租/车位）' },
  temp_parking: { text: '临时停车费' },
  utility: { text: '水电燃气费' },
  meter: { text: '智能表充值' },
  charging: { text: '充电费' },
});
export type PayFeeKind = keyof typeof PAY_FEE_KIND;

export const PAY_PROVIDER = valueEnum({
  wechat: { text: '微信支付', tone: 'success' },
  alipay: { text: '支付宝', tone: 'processing' },
});
export type PayProvider = keyof typeof PAY_PROVIDER;

export const PAY_MERCHANT_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** Where the merchant that applies to a community's kind of fee comes from. */
export const PAY_SOURCE = valueEnum({
  own: { text: '本小区', tone: 'success' },
  own_all: { text: '本小区（全部费用）', tone: 'success' },
  group: { text: '集团默认', tone: 'processing' },
  group_all: { text: '集团默认（全部费用）', tone: 'processing' },
  none: { text: '未配置', tone: 'error' },
});
export type PaySource = keyof typeof PAY_SOURCE;

/** 微信支付商户号: 8 to 12 digits (a direct merchant's is 10). */
export const WECHAT_MCH_ID_RE = /^\d{8,12}$/;
/** 公众号/小程序 AppID: wx and 16 letters or digits. */
export const WECHAT_APP_ID_RE = /^wx[0-9a-zA-Z]{16}$/;
/** 商户API证书序列号: hexadecimal (40 characters as WeChat issues it). */
export const WECHAT_SERIAL_RE = /^[0-9A-Fa-f]{8,40}$/;
/** APIv3 密钥: 32 letters or digits. */
export const WECHAT_APIV3_RE = /^[0-9A-Za-z]{32}$/;
/** 支付宝应用 AppID: 16 digits. */
export const ALIPAY_APP_ID_RE = /^\d{16}$/;

/** A key as a form may send it: PEM text or bare base64, at most 8,000 characters; '' leaves it unchanged on edit. */
const keyText = z
  .string({ error: '密钥应为文本' })
  .trim()
  .max(8000, '密钥过长（最多8000个字符）')
  .refine((v) => !CONTROL_CHARS.test(v), { message: '密钥不能包含控制字符' })
  .optional()
  .default('');

const merchantFields = {
  /** the community; empty: the group's default merchant */
  rid: optionalId,
  fee_kind: enumSchema(PAY_FEE_KIND, '费用类型'),
  provider: enumSchema(PAY_PROVIDER, '支付渠道'),
  title: text(30).min(1, '请输入商户名称'),
  status: yn.optional().default('Y'),
  mch_id: text(32).optional().default(''),
  app_id: text(32).optional().default(''),
  serial_no: text(64).optional().default(''),
  /** 微信支付 APIv3 密钥 */
  api_v3_secret: keyText,
  /** 微信支付商户私钥 (apiclient_key.pem) or 支付宝应用私钥 */
  private_key_secret: keyText,
  /** 支付宝公钥 */
  public_key_secret: keyText,
  remark: text(100).optional().default(''),
};

export const setpaySchemas = {
  /** the group's merchants and, per community and kind of fee, the one that applies */
  setpayinfo: z.object({}),
  setpaylist: z.object({
    ...paging,
    /** 'group': the group's defaults only; 'region': communities' own only */
    scope: z.enum(['', 'group', 'region'], { error: '范围取值不正确' }).optional().default(''),
    rid: optionalId,
    fee_kind: enumSchema(PAY_FEE_KIND, '费用类型')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    provider: enumSchema(PAY_PROVIDER, '支付渠道')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    status: yn.optional().or(z.literal('').transform(() => undefined)),
    title: text(30).optional(),
  }),
  setpayadd: z.object(merchantFields),
  setpayedit: z.object({ id, ...merchantFields }),
  setpaydel: z.object({ id }),
  /** checks the merchant's fields with the provider (the sandbox: present and well formed) */
  setpaytest: z.object({ id }),
} as const;

export interface PayMerchantItem {
  id: number;
  /** null: the group's default */
  rid: number | null;
  region_title: string;
  fee_kind: PayFeeKind;
  fee_kind_ch: string;
  provider: PayProvider;
  provider_ch: string;
  title: string;
  mch_id: string;
  app_id: string;
  serial_no: string;
  /** '已设置 ****1234', or '' when not set */
  api_v3_masked: string;
  private_key_masked: string;
  public_key_masked: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  last_test_time: string;
  last_test_ok: 'Y' | 'N' | '';
  last_test_result: string;
  create_time: string;
  update_time: string;
}

/** The merchant that receives a community's kind of fee, and where it comes from. */
export interface PayApplied {
  fee_kind: PayFeeKind;
  fee_kind_ch: string;
  merchant_id: number | null;
  merchant_title: string;
  provider_ch: string;
  source: PaySource;
  source_ch: string;
}

export interface SetpayInfo {
  merchants: PayMerchantItem[];
  regions: Array<{ rid: number; title: string; own_count: number; applies: PayApplied[] }>;
}

export interface SetpayOutputs {
  setpayinfo: SetpayInfo;
  setpaylist: { total: number; items: PayMerchantItem[] };
  setpayadd: { id: number };
  setpayedit: { id: number };
  setpaydel: { id: number };
  setpaytest: { ok: boolean; message: string; test_time: string };
}
