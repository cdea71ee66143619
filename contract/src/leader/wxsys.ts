/**
 * 公众号/小程序设置 (setwxsys, /setup/setwxsys on the group side) and 支付渠道 (setchannel,
 * /setup/setchannel), issue 45 "Group settings". The group's WeChat official account (公众号) and
 * mini-program (小程序), one of each; the account permission `is_wechatset_auth` opens the official
 * account's half, `is_microapp_auth` the mini-program's. AppSecret, Token and EncodingAESKey are
 * written only: answers carry their masks ('已设置 ****1234'), a blank on edit keeps the stored one.
 * The payment channel per scene records which provider the group wants for each way of paying
 * (docs/product.md#setwxsys-and-setchannel).
 */
import { z } from 'zod';
import { CONTROL_CHARS, text, yn } from '../common.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who keeps the group's WeChat settings and payment channels: its head office. */
export const WXSYS_ROLES = GROUP_LEADERS;

/** The account permission each half needs (accounts.permissions). */
export const WXSYS_FLAGS = { oa: 'is_wechatset_auth', mini: 'is_microapp_auth' } as const;

export const WX_KIND = valueEnum({
  oa: { text: '公众号', tone: 'success' },
  mini: { text: '小程序', tone: 'processing' },
});
export type WxKind = keyof typeof WX_KIND;

/** 公众号/小程序 AppID: wx and 16 letters or digits (as a WeChat Pay merchant's). */
export { WECHAT_APP_ID_RE as WX_APP_ID_RE } from './setpay.js';
/** AppSecret: 32 letters or digits. */
export const WX_APP_SECRET_RE = /^[0-9a-zA-Z]{32}$/;
/** 服务器配置的令牌 (Token): 3 to 32 letters or digits. */
export const WX_TOKEN_RE = /^[0-9a-zA-Z]{3,32}$/;
/** 消息加解密密钥 (EncodingAESKey): 43 letters or digits. */
export const WX_AES_KEY_RE = /^[0-9a-zA-Z]{43}$/;
/** 原始ID: gh_ and 12 letters or digits. */
export const WX_ORIGINAL_ID_RE = /^gh_[0-9a-zA-Z]{12}$/;

/** A secret as the form sends it; '' leaves the stored one on edit. */
const secretText = (max: number) =>
  z
    .string({ error: '密钥应为文本' })
    .trim()
    .max(max, `密钥过长（最多${max}个字符）`)
    .refine((v) => !CONTROL_CHARS.test(v), { message: '密钥不能包含控制字符' })
    .optional()
    .default('');

const httpUrl = text(500)
  .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), { message: '二维码图片地址应以 http:// 或 https:// 开头' })
  .optional()
  .default('');

export const setwxsysSchemas = {
  /** the halves the caller's permissions open, secrets masked */
  setwxsysinfo: z.object({}),
  /** saves one half: the official account (kind 'oa') or the mini-program (kind 'mini') */
  setwxsysedit: z.object({
    kind: enumSchema(WX_KIND, '类型'),
    app_id: text(32).min(1, '请输入AppID'),
    name: text(30).min(1, '请输入名称'),
    original_id: text(32).optional().default(''),
    /** 公众号二维码图片地址 (oa only) */
    qrcode_url: httpUrl,
    app_secret: secretText(64),
    /** 服务器配置的令牌 (oa only) */
    token_secret: secretText(64),
    /** EncodingAESKey (oa only) */
    aes_key_secret: secretText(64),
  }),
  /** checks a half in the sandbox: fields present and well formed; the result is kept */
  setwxsystest: z.object({ kind: enumSchema(WX_KIND, '类型') }),
} as const;

export interface WxAccountItem {
  kind: WxKind;
  kind_ch: string;
  /** false: not saved yet (the fields are blank) */
  saved: boolean;
  app_id: string;
  name: string;
  original_id: string;
  qrcode_url: string;
  /** '已设置 ****1234', or '' when not set */
  app_secret_masked: string;
  token_masked: string;
  aes_key_masked: string;
  last_test_time: string;
  last_test_ok: 'Y' | 'N' | '';
  last_test_result: string;
  update_time: string;
  update_by: string;
}

export interface SetwxsysInfo {
  /** null: the caller lacks is_wechatset_auth */
  oa: WxAccountItem | null;
  /** null: the caller lacks is_microapp_auth */
  mini: WxAccountItem | null;
}

/** 支付渠道: the ways an owner or the group pays. */
export const PAY_SCENE = valueEnum({
  owner_app: { text: '业主端缴费' },
  cashier_qr: { text: '收银台扫码' },
  pay_code: { text: '付款码' },
  renewal: { text: '续费' },
});
export type PayScene = keyof typeof PAY_SCENE;

export const PAY_CHANNEL_PROVIDER = valueEnum({
  wechat: { text: '微信支付', tone: 'success' },
  alipay: { text: '支付宝', tone: 'processing' },
  sandbox: { text: '沙箱（测试）', tone: 'warning' },
});
export type PayChannelProvider = keyof typeof PAY_CHANNEL_PROVIDER;

export const setchannelSchemas = {
  setchannellist: z.object({}),
  setchanneledit: z.object({
    scene: enumSchema(PAY_SCENE, '支付场景'),
    provider: enumSchema(PAY_CHANNEL_PROVIDER, '支付渠道'),
    enabled: yn.optional().default('Y'),
    remark: text(100).optional().default(''),
  }),
} as const;

export interface PayChannelItem {
  scene: PayScene;
  scene_ch: string;
  /** '': not chosen yet */
  provider: PayChannelProvider | '';
  provider_ch: string;
  enabled: 'Y' | 'N';
  remark: string;
  /** what pays this scene today, whatever is chosen here ('' when nothing does yet) */
  in_use: string;
  update_time: string;
}

export interface WxsysOutputs {
  setwxsysinfo: SetwxsysInfo;
  setwxsysedit: { kind: WxKind };
  setwxsystest: { ok: boolean; message: string; test_time: string };
  setchannellist: { items: PayChannelItem[] };
  setchanneledit: { scene: PayScene };
}
