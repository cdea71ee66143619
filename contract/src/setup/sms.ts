/**
 * 短信 (issue 36, messaging: /setup/smsjob, /setup/smsjoblog): the community's SMS provider
 * settings, templates, jobs, their messages and the unsubscribe list. Every message of the
 * product goes through one provider interface (server/src/modules/setup/smsProvider.ts).
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { MOBILE_RE } from '../owners.js';
import type { ExportQueued } from '../jobs.js';
import { createTimeColumn, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { workflow } from '../kit/workflow.js';

/** Who reads the SMS pages and manages templates and settings: the setup code (admin holds every code). */
export const SMS_READERS = ['setup'] as const;
/** Who creates, starts, cancels jobs and resends: the 短信发送 action under 系统设置 (it spends money and contacts owners). */
export const SMS_SENDERS = ['smssend'] as const;

export const SMS_PROVIDER = valueEnum({
  sandbox: { text: '沙箱（不真实发送）', tone: 'warning' },
  aliyun: { text: '阿里云短信', tone: 'success' },
});
export const SMS_TEMPLATE_KIND = valueEnum({ notice: { text: '通知' }, marketing: { text: '营销', tone: 'warning' } });
export const SMS_APPROVED = valueEnum({ Y: { text: '已审核', tone: 'success' }, N: { text: '未审核', tone: 'default' } });
export const SMS_JOB_KIND = valueEnum({
  arrears: { text: '欠费催缴' },
  payment: { text: '缴费提醒' },
  outage: { text: '停水停电通知' },
  activity: { text: '活动通知' },
  custom: { text: '自定义' },
});
export const SMS_JOB_STATUS = valueEnum({
  D: { text: '草稿', tone: 'default' },
  P: { text: '待发送', tone: 'processing' },
  S: { text: '发送中', tone: 'processing' },
  Y: { text: '已完成', tone: 'success' },
  F: { text: '部分失败', tone: 'warning' },
  C: { text: '已取消', tone: 'default' },
});
export const SMS_AUDIENCE = valueEnum({
  all: { text: '全部业主' },
  places: { text: '按楼栋单元' },
  arrears: { text: '欠费业主' },
  members: { text: '指定业主' },
  list: { text: '上传名单' },
  staff: { text: '员工' },
});
export const SMS_SCHEDULE = valueEnum({ now: { text: '立即发送' }, at: { text: '定时发送' }, monthly: { text: '每月发送' } });
export const SMS_SUBMIT_STATUS = valueEnum({
  W: { text: '待发送', tone: 'default' },
  C: { text: '发送中', tone: 'processing' },
  S: { text: '已提交', tone: 'success' },
  F: { text: '失败', tone: 'error' },
});
export const SMS_RECEIPT_STATUS = valueEnum({
  '': { text: '—', tone: 'default' },
  W: { text: '等待回执', tone: 'processing' },
  Y: { text: '已送达', tone: 'success' },
  N: { text: '未送达', tone: 'error' },
});
/** Where a template variable's value comes from, per recipient. */
export const SMS_VAR_SOURCE = valueEnum({
  name: { text: '业主姓名' },
  room: { text: '房屋' },
  amount: { text: '欠费金额' },
  months: { text: '欠费月数' },
  community: { text: '小区名称' },
  date: { text: '发送日期' },
  text: { text: '固定文字' },
});

/** Quiet hours (business time zone): no sending from 21:00 to 08:00 unless the job is urgent. */
export const SMS_QUIET = { from: 21, to: 8 } as const;

/**
 * Billed segments of one message (the signature 【…】 included), the rule of Aliyun and the Chinese
 * carriers: up to 70 characters is one message; a longer one is split into segments of 67 (each
 * carries a header). Every character counts one, Chinese or Latin.
 */
export function smsSegments(content: string): number {
  const n = [...content].length;
  if (n === 0) return 0;
  return n <= 70 ? 1 : Math.ceil(n / 67);
}

/** The variables of a template's content: ${name}, in order, each once. */
export function templateVars(content: string): string[] {
  return [...new Set([...content.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!))];
}

/** A mobile as lists and logs show it (138****8000): the one masking of contact data (team/contact.ts). */
export { maskMobile } from '../team/contact.js';

const mobile = z.string().trim().regex(MOBILE_RE, '手机号码格式不正确，应为11位手机号');

// ---------------------------------------------------------------- templates

export interface SmsTemplateItem {
  id: number;
  code: string;
  title: string;
  content: string;
  kind: 'notice' | 'marketing';
  kind_ch: string;
  approved: 'Y' | 'N';
  approved_ch: string;
  /** the variables of the content */
  vars: string[];
  remark: string;
  create_time: string;
}

const templateContent = text(500)
  .min(1, '请输入模板内容')
  .refine((v) => !/\$\{(?![A-Za-z_][A-Za-z0-9_]*\})/.test(v), { message: '变量写法为 ${变量名}，变量名为字母、数字或下划线' });

export const smsTemplate = resource<SmsTemplateItem>()({
  name: 'smstemplate',
  label: '短信模板',
  methods: { list: 'smstemplatelist', add: 'smstemplateadd', edit: 'smstemplateedit', del: 'smstemplatedel' },
  roles: { read: SMS_READERS, write: SMS_READERS },
  fields: {
    code: {
      label: '模板编码',
      zod: text(40)
        .min(1, '请输入模板编码')
        .regex(/^[A-Za-z0-9_]+$/, '模板编码为服务商的模板CODE，如 SMS_123456789'),
      in: ['form', 'table', 'filter'],
      width: 160,
      placeholder: '如 SMS_123456789',
      help: '服务商审核通过的模板CODE',
    },
    title: { label: '模板名称', zod: text(30).min(1, '请输入模板名称'), in: ['form', 'table', 'filter'], width: 140 },
    content: {
      label: '模板内容',
      zod: templateContent,
      widget: 'textarea',
      in: ['form', 'table'],
      help: '与服务商的模板一字不差；变量写作 ${room}、${amount}',
    },
    kind: {
      label: '类型',
      zod: enumSchema(SMS_TEMPLATE_KIND, '模板类型').default('notice'),
      enum: SMS_TEMPLATE_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 80,
    },
    approved: {
      label: '审核',
      zod: yn.default('N'),
      enum: SMS_APPROVED,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 90,
      help: '只有已审核的模板可用于短信任务',
    },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [createTimeColumn()],
});

// ---------------------------------------------------------------- unsubscribes

export interface SmsUnsubItem {
  id: number;
  mobile: string;
  remark: string;
  create_time: string;
}

export const smsUnsub = resource<SmsUnsubItem>()({
  name: 'smsunsub',
  label: '退订号码',
  methods: { list: 'smsunsublist', add: 'smsunsubadd', del: 'smsunsubdel' },
  roles: { read: SMS_READERS, write: SMS_SENDERS },
  fields: {
    mobile: { label: '手机号', zod: mobile, in: ['form', 'table', 'filter'], width: 140 },
    remark: { label: '备注', zod: text(100).optional().default(''), in: ['form', 'table'] },
  },
  columns: [createTimeColumn('退订时间')],
});

// ---------------------------------------------------------------- settings

export interface SmsSettingAnswer {
  provider: 'sandbox' | 'aliyun';
  provider_ch: string;
  /** the provider sends go to: sandbox when none is configured */
  active: 'sandbox' | 'aliyun';
  active_ch: string;
  access_key_id: string;
  /** ••••1a2b, or '' when none is kept */
  secret_masked: string;
  sign_name: string;
  region: string;
  sandbox_fail_suffix: string;
  last_test_time: string;
  last_test_result: string;
  update_time: string;
}

export const smsSettingSet = z.object({
  provider: enumSchema(SMS_PROVIDER, '短信服务商'),
  access_key_id: text(64)
    .regex(/^[A-Za-z0-9]*$/, 'AccessKey ID 只含字母和数字')
    .optional()
    .default(''),
  /** write-only: '' keeps the one kept */
  access_key_secret: text(64)
    .regex(/^[A-Za-z0-9]*$/, 'AccessKey Secret 只含字母和数字')
    .optional()
    .default(''),
  sign_name: text(20).optional().default(''),
  region: text(30)
    .regex(/^[a-z0-9-]*$/, '地域如 cn-hangzhou')
    .optional()
    .default('cn-hangzhou'),
  sandbox_fail_suffix: text(4).regex(/^\d*$/, '失败尾号只能是数字').optional().default(''),
});

// ---------------------------------------------------------------- jobs

const varMapping = z.object({
  source: enumSchema(SMS_VAR_SOURCE, '变量来源'),
  text: text(50).optional().default(''),
});

const listLine = z.object({ mobile, name: text(20).optional().default('') });

export const smsAudience = z.object({
  type: enumSchema(SMS_AUDIENCE, '发送对象'),
  bids: z.array(id).max(500).optional().default([]),
  tids: z.array(id).max(2000).optional().default([]),
  /** arrears: at least this much owed in total (yuan) */
  min_amount: z
    .string()
    .trim()
    .regex(/^\d{1,10}(\.\d{1,2})?$/, '欠费金额格式不正确')
    .optional()
    .default('0'),
  /** arrears: the oldest unpaid bill is due at least this many months ago */
  months: int(0, 120).optional().default(0),
  member_ids: z.array(id).max(5000).optional().default([]),
  /** an uploaded list: mobiles with an optional name */
  list: z.array(listLine).max(5000).optional().default([]),
});
export type SmsAudience = z.output<typeof smsAudience>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式为 HH:mm');

const jobFields = {
  name: text(50).min(1, '请输入任务名称'),
  kind: enumSchema(SMS_JOB_KIND, '任务类型'),
  template_id: id,
  var_map: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(40),
      varMapping,
    )
    .optional()
    .default({}),
  audience: smsAudience,
  schedule: enumSchema(SMS_SCHEDULE, '发送时间').default('now'),
  /** schedule 'at': YYYY-MM-DD HH:mm(:ss) in the business time zone */
  run_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/, '定时时间格式为 YYYY-MM-DD HH:mm')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  month_day: int(1, 28).optional().default(1),
  month_time: hhmm.optional().default('09:00'),
  /** urgent: sent even in quiet hours (21:00–08:00) */
  urgent: yn.default('N'),
  /** at most one message per owner (mobile) per this many days, across jobs; 0: no limit */
  dedupe_days: int(0, 365).default(0),
  remark: text(200).optional().default(''),
};

export const smsJobFlow = workflow({
  name: 'smsjob',
  label: '短信任务',
  states: SMS_JOB_STATUS,
  transitions: {
    start: {
      method: 'smsjobstart',
      label: '开始发送',
      from: ['D'],
      to: 'P',
      roles: SMS_SENDERS,
      input: { confirm_count: int(0, 10_000_000) },
      inputLabels: { confirm_count: '确认的预计条数' },
    },
    cancel: {
      method: 'smsjobcancel',
      label: '取消',
      from: ['D', 'P', 'S'],
      to: 'C',
      roles: SMS_SENDERS,
      danger: true,
      confirm: '取消后未发出的短信不再发送，确定取消？',
    },
  },
  steps: { sending: '开始发送', done: '发送完成', paused: '静默时段暂停' },
  logMethod: 'smsjobflowlog',
});

export interface SmsJobItem {
  id: number;
  name: string;
  kind: keyof typeof SMS_JOB_KIND;
  kind_ch: string;
  template_id: number;
  template_title: string;
  template_code: string;
  template_content: string;
  var_map: Record<string, { source: string; text: string }>;
  audience: SmsAudience;
  audience_ch: string;
  schedule: 'now' | 'at' | 'monthly';
  schedule_ch: string;
  run_at: string;
  month_day: number;
  month_time: string;
  urgent: 'Y' | 'N';
  dedupe_days: number;
  status: keyof typeof SMS_JOB_STATUS;
  status_ch: string;
  remark: string;
  recipients: number;
  sent: number;
  failed: number;
  /** the queue job sending it now (jobinfo for its progress), 0 when none */
  job_id: number;
  percent: number;
  next_run_time: string;
  start_time: string;
  finish_time: string;
  creator: string;
  create_time: string;
}

export interface SmsPreview {
  recipients: number;
  /** left out: on the unsubscribe list, or reminded within dedupe_days */
  skipped_unsub: number;
  skipped_dedupe: number;
  /** segments of the longest rendered message and their sum over recipients */
  segments: number;
  messages: number;
  /** a rendered sample (the first recipient) */
  sample: string;
  sample_mobile: string;
  /** variables of the template without a mapping */
  unmapped: string[];
  provider_ch: string;
  quiet_now: boolean;
}

export interface SmsMessageItem {
  id: number;
  sms_job_id: number;
  job_name: string;
  mobile: string;
  name: string;
  address: string;
  content: string;
  segments: number;
  submit_status: keyof typeof SMS_SUBMIT_STATUS;
  submit_status_ch: string;
  receipt_status: keyof typeof SMS_RECEIPT_STATUS;
  receipt_status_ch: string;
  code: string;
  reason: string;
  submit_time: string;
  receipt_time: string;
  resend: 'Y' | 'N';
}

const dateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const smsLogFilters = {
  sms_job_id: optionalId,
  submit_status: enumSchema(SMS_SUBMIT_STATUS, '提交状态')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  receipt_status: z
    .enum(['W', 'Y', 'N'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  mobile: z
    .string()
    .trim()
    .regex(/^\d{0,11}$/, '手机号只能输入数字')
    .optional(),
  code: text(40).optional(),
  date_from: dateText,
  date_to: dateText,
};

export const smsSchemas = {
  ...smsTemplate.schemas,
  ...smsUnsub.schemas,
  ...smsJobFlow.schemas,
  smssetting: z.object({}),
  smssettingset: smsSettingSet,
  smstest: z.object({}),
  smsjoblist: z.object({
    ...paging,
    name: text(50).optional(),
    kind: enumSchema(SMS_JOB_KIND, '任务类型')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    status: enumSchema(SMS_JOB_STATUS, '状态')
      .optional()
      .or(z.literal('').transform(() => undefined)),
  }),
  smsjobinfo: z.object({ id }),
  smsjobadd: z.object(jobFields),
  smsjobedit: z.object({ id, ...jobFields }),
  smsjobdel: z.object({ id }),
  smsjobpreview: z.object({ id }),
  smsjoblog: z.object({ ...paging, ...smsLogFilters }),
  smsjoblogexport: z.object(smsLogFilters),
  /** resend failed messages: the given ids, or every failed one of a job */
  smsresend: z.object({ ids: z.array(id).max(1000).optional().default([]), sms_job_id: optionalId }),
  /** asks the provider for the receipts still awaited */
  smsreceipts: z.object({}),
} as const;

export type SmsOutputs = ResourceOutputs<typeof smsTemplate.def, SmsTemplateItem> &
  ResourceOutputs<typeof smsUnsub.def, SmsUnsubItem> & {
    smssetting: SmsSettingAnswer;
    smssettingset: SmsSettingAnswer;
    smstest: { ok: boolean; message: string; provider_ch: string };
    smsjoblist: { total: number; items: SmsJobItem[] };
    smsjobinfo: SmsJobItem;
    smsjobadd: { id: number };
    smsjobedit: null;
    smsjobdel: null;
    smsjobpreview: SmsPreview;
    smsjobstart: SmsJobItem;
    smsjobcancel: SmsJobItem;
    smsjobflowlog: { items: import('../kit/workflow.js').WorkflowLogItem[] };
    smsjoblog: { total: number; items: SmsMessageItem[] };
    smsjoblogexport: ExportQueued;
    smsresend: { count: number; job_id: number };
    smsreceipts: { checked: number; updated: number };
  };
