/**
 * A sales customer's follow-ups (跟进记录 /crm/salescall) and visit invitations (邀约到访
 * /crm/invitelist), as resources (docs/product.md#crm-sales). A follow-up sets the customer's last
 * contact and next contact time and restarts the pool's clock; an invitation recorded 已到访 moves
 * the customer to 来访.
 */
import { z } from 'zod';
import { id, int, text } from '../common.js';
import { createTimeColumn, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { SALES_ROLES } from './salesCustomers.js';

export const FOLLOW_KIND = valueEnum({
  phone: { text: '电话', tone: 'processing' },
  wechat: { text: '微信', tone: 'success' },
  visit: { text: '到访', tone: 'warning' },
  sms: { text: '短信' },
  other: { text: '其他' },
});

export const INVITE_PURPOSE = valueEnum({
  view: { text: '看房' },
  sign: { text: '签约' },
  deposit: { text: '交认筹金' },
  other: { text: '其他' },
});
export const INVITE_OUTCOME = valueEnum({
  P: { text: '待到访', tone: 'processing' },
  V: { text: '已到访', tone: 'success' },
  M: { text: '未到访', tone: 'warning' },
  C: { text: '取消', tone: 'default' },
});
export type InviteOutcome = keyof typeof INVITE_OUTCOME;

/** A time of the business time zone to the minute: YYYY-MM-DD HH:mm (seconds allowed). */
export const salesMinute = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/, '时间格式为 YYYY-MM-DD HH:mm');
const optionalMinute = z
  .union([z.literal(''), z.null(), salesMinute])
  .optional()
  .transform((v) => (v ? v : null));

/** The customer a row is about: one the reader works (crmcustomer_small_list). */
const customerField = {
  label: '客户',
  zod: id,
  widget: { small: 'crmcustomer_small_list' },
  in: ['form', 'filter'],
  once: true,
} as const;

export interface SalesCallItem {
  id: number;
  customer_id: number;
  customer_name: string;
  mobile: string;
  stage: string;
  stage_ch: string;
  kind: string;
  kind_ch: string;
  content: string;
  next_contact_at: string;
  /** who followed up */
  operator: string;
  /** the reader may still change it (its author within 24 hours, or a sales manager) */
  editable: boolean;
  create_time: string;
}

export const salesCall = resource<SalesCallItem>()({
  name: 'salescall',
  label: '跟进记录',
  methods: { list: 'salescalllist', add: 'salescalladd', edit: 'salescalledit', del: 'salescalldel', export: 'salescallexport' },
  roles: { read: SALES_ROLES.staff, write: SALES_ROLES.staff },
  echoId: true,
  sort: 'desc',
  fields: {
    customer_id: customerField,
    kind: {
      label: '跟进方式',
      zod: enumSchema(FOLLOW_KIND, '跟进方式').default('phone'),
      enum: FOLLOW_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    content: {
      label: '跟进内容',
      zod: text(500).min(2, '请填写跟进内容（至少 2 个字）'),
      widget: 'textarea',
      in: ['form', 'table', 'export'],
      width: 320,
    },
    next_contact_at: {
      label: '下次联系时间',
      zod: optionalMinute,
      widget: 'custom',
      in: ['form', 'table', 'export'],
      width: 170,
      help: '到时出现在客户列表的“今日待联系”，过期未跟进为“已逾期”',
    },
    keyword: { label: '客户姓名/手机号', zod: text(30), in: ['filter'] },
    operator_id: { label: '跟进人', widget: { small: 'crmconsultant_small_list' }, in: ['filter'] },
    create_time: { label: '跟进时间', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'customer_name', label: '客户', width: 100, fixed: true },
    { key: 'mobile', label: '手机号', width: 130 },
    { key: 'operator', label: '跟进人', width: 90 },
    createTimeColumn('跟进时间'),
  ],
});

export interface InviteItem {
  id: number;
  customer_id: number;
  customer_name: string;
  mobile: string;
  invite_at: string;
  consultant_id: number;
  consultant_name: string;
  visitors: number;
  purpose: string;
  purpose_ch: string;
  outcome: InviteOutcome;
  outcome_ch: string;
  arrived_at: string;
  result: string;
  creator: string;
  create_time: string;
}

export const invite = resource<InviteItem>()({
  name: 'invite',
  label: '邀约',
  methods: { list: 'invitelist', add: 'inviteadd', edit: 'inviteedit', del: 'invitedel', export: 'inviteexport' },
  roles: { read: SALES_ROLES.staff, write: SALES_ROLES.staff },
  echoId: true,
  sort: 'desc',
  fields: {
    customer_id: customerField,
    invite_at: { label: '到访时间', zod: salesMinute, widget: 'custom', in: ['form', 'table', 'export'], width: 150 },
    consultant_id: {
      label: '接待顾问',
      zod: z
        .union([z.literal(''), z.null(), id])
        .optional()
        .transform((v) => (v === '' || v === null ? undefined : v)),
      widget: { small: 'crmconsultant_small_list' },
      in: ['form', 'filter'],
      help: '不选为自己',
    },
    visitors: { label: '到访人数', zod: int(1, 99).default(1), widget: 'int', in: ['form', 'table', 'export'], width: 90 },
    purpose: {
      label: '目的',
      zod: enumSchema(INVITE_PURPOSE, '目的').default('view'),
      enum: INVITE_PURPOSE,
      widget: 'radio',
      in: ['form', 'table', 'export'],
      width: 90,
    },
    outcome: {
      label: '结果',
      zod: enumSchema(INVITE_OUTCOME, '结果').default('P'),
      enum: INVITE_OUTCOME,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
      help: '登记为“已到访”后客户进入“来访”阶段，到访不能再改回',
    },
    result: { label: '到访情况', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table', 'export'], width: 220 },
    keyword: { label: '客户姓名/手机号', zod: text(30), in: ['filter'] },
    invite_date: { label: '到访日期', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'customer_name', label: '客户', width: 100, fixed: true },
    { key: 'mobile', label: '手机号', width: 130 },
    { key: 'consultant_name', label: '接待顾问', width: 100 },
    { key: 'arrived_at', label: '到达时间', width: 170 },
    { key: 'creator', label: '登记人', width: 90, in: ['export'] },
    createTimeColumn('登记时间'),
  ],
});

export const salesCallSchemas = {
  ...salesCall.schemas,
  ...invite.schemas,
} as const;

export type SalesCallOutputs = ResourceOutputs<typeof salesCall.def, SalesCallItem> & ResourceOutputs<typeof invite.def, InviteItem>;
