/**
 * 短信额度 (smsquota, /setup/smsquota on the group side; issue 45 "Group settings"): the group's SMS
 * quota package and its ledger. A group without a package (未启用额度) sends without limit; once it
 * is topped up, every message any of its communities sends (SMS jobs, meter alerts, charging codes,
 * ...) takes its billed segments (smsSegments: 70 characters in one, 67 a segment beyond, the
 * signature 【…】 included) from the balance, and at zero it is refused with SMS_QUOTA_EMPTY.
 * The group's methods need the account permission `is_smsset_auth` besides the leader role.
 */
import { z } from 'zod';
import { int, optionalId, paging, text } from '../common.js';
import type { FileAnswer } from '../files.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who keeps the group's SMS quota: its head office, with the account permission below. */
export const SMSQUOTA_ROLES = GROUP_LEADERS;
/** The account permission the group's quota methods need (accounts.permissions). */
export const SMSQUOTA_FLAG = 'is_smsset_auth';

/** What a send answers when the group's balance cannot pay for it. */
export const SMS_QUOTA_EMPTY = '短信余量不足，请联系集团充值';
/** The code of that refusal (sms_messages.code, the provider result's code). */
export const SMS_QUOTA_CODE = 'QUOTA';

/** The most one top-up adds, and the most an adjustment moves. */
export const SMS_QUOTA_MAX_TOPUP = 1_000_000;
/** The low-balance threshold a group starts with. */
export const SMS_QUOTA_DEFAULT_LOW = 500;

export const SMS_QUOTA_KIND = valueEnum({
  topup: { text: '充值', tone: 'success' },
  send: { text: '发送', tone: 'default' },
  refund: { text: '退回', tone: 'processing' },
  adjust: { text: '调整', tone: 'warning' },
});
export type SmsQuotaKind = keyof typeof SMS_QUOTA_KIND;

/** What a send was for. */
export const SMS_QUOTA_PURPOSE = valueEnum({
  '': { text: '—' },
  sms_job: { text: '短信任务' },
  notice: { text: '通知' },
  meter_alert: { text: '智能表提醒' },
  charging_code: { text: '充电验证码' },
  notify: { text: '消息通知' },
  test: { text: '测试发送' },
  other: { text: '其他' },
});
export type SmsQuotaPurpose = keyof typeof SMS_QUOTA_PURPOSE;

const dateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const smsQuotaLedgerFilters = {
  kind: enumSchema(SMS_QUOTA_KIND, '类型')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  rid: optionalId,
  date_from: dateText,
  date_to: dateText,
};

export const smsquotaSchemas = {
  /** the group's balance, whether the package is on, its low threshold, this month's use per community */
  smsquotainfo: z.object({}),
  /** adds messages to the balance; the first top-up turns the package on */
  smsquotatopup: z.object({
    count: int(1, SMS_QUOTA_MAX_TOPUP),
    note: text(100).optional().default(''),
  }),
  /** moves the balance by a signed count, with its reason; never below 0 */
  smsquotaadjust: z.object({
    count: int(-SMS_QUOTA_MAX_TOPUP, SMS_QUOTA_MAX_TOPUP).refine((v) => v !== 0, { message: '调整条数不能为 0' }),
    note: text(100).min(1, '请填写调整原因'),
  }),
  /** the low-balance threshold the pages warn below */
  smsquotaset: z.object({ low_threshold: int(0, SMS_QUOTA_MAX_TOPUP) }),
  smsquotaledger: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...smsQuotaLedgerFilters }),
  smsquotaledgerexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...smsQuotaLedgerFilters }),
  /** community side: the group's balance as the community's SMS pages show it */
  smsquota: z.object({}),
} as const;

export interface SmsQuotaRegionUse {
  rid: number;
  title: string;
  /** billed segments sent this month (sends less refunds) */
  used: number;
  /** messages (sends) this month */
  sends: number;
}

export interface SmsQuotaInfo {
  /** false: no package (未启用额度): the communities send without limit */
  enabled: boolean;
  balance: number;
  low_threshold: number;
  /** enabled and the balance below the threshold */
  low: boolean;
  /** this month (business time), the whole group */
  month: string;
  month_used: number;
  month_topup: number;
  regions: SmsQuotaRegionUse[];
  update_time: string;
}

export interface SmsQuotaLedgerItem {
  id: number;
  kind: SmsQuotaKind;
  kind_ch: string;
  /** signed: + topup/refund, - send */
  count: number;
  balance_after: number;
  rid: number | null;
  region_title: string;
  purpose: SmsQuotaPurpose;
  purpose_ch: string;
  /** the SMS job's id for a job's send */
  ref_id: number | null;
  note: string;
  creator: string;
  create_time: string;
}

/** The community side's read: the group's balance (enabled false: no limit). */
export interface SmsQuotaBrief {
  enabled: boolean;
  balance: number;
  low_threshold: number;
  low: boolean;
  /** the text the pages show */
  message: string;
}

export interface SmsQuotaOutputs {
  smsquotainfo: SmsQuotaInfo;
  smsquotatopup: SmsQuotaInfo;
  smsquotaadjust: SmsQuotaInfo;
  smsquotaset: SmsQuotaInfo;
  smsquotaledger: { total: number; items: SmsQuotaLedgerItem[] };
  smsquotaledgerexport: FileAnswer;
  smsquota: SmsQuotaBrief;
}
