/**
 * 消息设置 (/setup/message on the group side; issue 45 "Group settings"; docs/product.md#notifications):
 * which events notify whom, by which channel, as one matrix per group, with quiet hours and a daily
 * cap per mobile for the SMS; and the staff's 站内消息 inbox (/setup/inbox on the community side),
 * where the in-app channel lands.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text } from '../common.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who keeps the group's message settings: its head office. */
export const NOTIFY_ROLES = GROUP_LEADERS;

export const NOTIFY_EVENT = valueEnum({
  repair_submit: { text: '报修提交' },
  repair_dispatch: { text: '报修派单' },
  repair_finish: { text: '报修完工' },
  pay_success: { text: '缴费成功' },
  visitor_pass: { text: '访客通行码' },
  visitor_arrive: { text: '访客到访' },
  complaint_submit: { text: '投诉提交' },
  complaint_accept: { text: '投诉受理' },
  complaint_reply: { text: '投诉回复' },
  complaint_finish: { text: '投诉办结' },
  contract_expiring: { text: '合同到期提醒' },
  lease_expiring: { text: '租约到期提醒' },
  bill_generated: { text: '账单生成' },
  bill_overdue: { text: '欠费提醒' },
});
export type NotifyEvent = keyof typeof NOTIFY_EVENT;
export const NOTIFY_EVENTS = Object.keys(NOTIFY_EVENT) as NotifyEvent[];

export const NOTIFY_RECIPIENT = valueEnum({
  owner: { text: '业主' },
  handler: { text: '处理人' },
  steward: { text: '管家' },
  staff: { text: '有权限的员工' },
  visitor: { text: '访客' },
  party: { text: '合同乙方' },
});
export type NotifyRecipient = keyof typeof NOTIFY_RECIPIENT;
export const NOTIFY_RECIPIENTS = Object.keys(NOTIFY_RECIPIENT) as NotifyRecipient[];

export const NOTIFY_CHANNEL = valueEnum({
  inbox: { text: '站内消息' },
  sms: { text: '短信' },
  wechat: { text: '微信' },
});
export type NotifyChannel = keyof typeof NOTIFY_CHANNEL;
export const NOTIFY_CHANNELS = Object.keys(NOTIFY_CHANNEL) as NotifyChannel[];

/**
 * Who each event can reach. 业主 and 访客 have no console (业主 SMS or 微信, 访客 SMS); 处理人 is the
 * ticket's technician, 管家 the steward whose profile serves the room's unit, 有权限的员工 every staff
 * member of the community holding the event's codes (repair dispatchers for a new ticket, the
 * complaint desk for a new complaint); 访客 the visitor whose visit was approved, sent the pass code.
 * A complaint's 业主 is its contact, a ticket's the reporter. 合同乙方 is a contract's party (a buyer,
 * a tenant, an owner), reached at the contract's mobile when it nears its end, or a lease's tenant
 * (the lease is their rental contract) when the lease enters 即将到期.
 */
export const NOTIFY_RECIPIENTS_OF: Record<NotifyEvent, readonly NotifyRecipient[]> = {
  repair_submit: ['owner', 'steward', 'staff'],
  repair_dispatch: ['owner', 'handler'],
  repair_finish: ['owner', 'steward'],
  pay_success: ['owner', 'steward'],
  visitor_pass: ['visitor'],
  visitor_arrive: ['owner'],
  complaint_submit: ['owner', 'steward', 'staff'],
  complaint_accept: ['owner', 'handler'],
  complaint_reply: ['owner'],
  complaint_finish: ['owner', 'steward'],
  contract_expiring: ['party', 'staff'],
  lease_expiring: ['party', 'staff'],
  bill_generated: ['owner', 'staff'],
  bill_overdue: ['owner'],
};

/** People outside the console: no inbox of theirs. */
export const notifyOutsider = (r: NotifyRecipient): boolean => r === 'owner' || r === 'visitor' || r === 'party';
/**
 * The channels a recipient can take. Staff read the console's inbox or an SMS; an owner an SMS or
 * the official account's template message (微信), sent to the followers bound to them in 公众号粉丝;
 * visitors and contract parties, whom no follower is bound to, an SMS.
 */
export const notifyChannelsOf = (r: NotifyRecipient): readonly NotifyChannel[] =>
  r === 'owner' ? ['sms', 'wechat'] : notifyOutsider(r) ? ['sms'] : ['inbox', 'sms'];

/** Every cell of the matrix that can be switched. */
export const notifyCells = (): Array<{ event: NotifyEvent; recipient: NotifyRecipient; channel: NotifyChannel }> =>
  NOTIFY_EVENTS.flatMap((event) =>
    NOTIFY_RECIPIENTS_OF[event].flatMap((recipient) => notifyChannelsOf(recipient).map((channel) => ({ event, recipient, channel }))),
  );

/** A cell before the group sets it: the console's own inbox is on, nothing goes outside it (an SMS costs quota). */
export const notifyDefault = (channel: NotifyChannel): boolean => channel === 'inbox';

/** The settings before the group sets them: SMS held from 21:00 to 08:00, at most 5 a day to a mobile. */
export const NOTIFY_SETTINGS_DEFAULT = { quiet_from: 21, quiet_to: 8, daily_cap: 5 } as const;

export const NOTIFY_STATUS = valueEnum({
  U: { text: '未读', tone: 'processing' },
  R: { text: '已读', tone: 'default' },
  W: { text: '待发送', tone: 'warning' },
  C: { text: '发送中', tone: 'processing' },
  Y: { text: '已发送', tone: 'success' },
  F: { text: '发送失败', tone: 'error' },
  S: { text: '未发送', tone: 'default' },
});
export type NotifyStatus = keyof typeof NOTIFY_STATUS;

const cell = z.object({
  event: enumSchema(NOTIFY_EVENT, '事件'),
  recipient: enumSchema(NOTIFY_RECIPIENT, '接收人'),
  channel: enumSchema(NOTIFY_CHANNEL, '渠道'),
  enabled: z.enum(['Y', 'N'], { error: '请选择是否通知' }),
});

const hour = (label: string) =>
  z.coerce
    .number({ error: `${label}应为 0–23 点` })
    .int(`${label}应为整点`)
    .min(0, `${label}应为 0–23 点`)
    .max(23, `${label}应为 0–23 点`);

const dateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

const blankable = <T extends z.ZodType>(s: T) => s.optional().or(z.literal('').transform(() => undefined));

export const notifySchemas = {
  /** the group's matrix (every cell, set or default) and its quiet hours and daily cap */
  messagesetinfo: z.object({}),
  /** saves the whole matrix and the settings at once */
  messagesetedit: z
    .object({
      cells: z.array(cell).max(200, '设置项过多'),
      quiet_enabled: z.enum(['Y', 'N']),
      quiet_from: hour('免打扰开始时间'),
      quiet_to: hour('免打扰结束时间'),
      daily_cap: int(1, 100),
    })
    .refine((v) => v.quiet_enabled === 'N' || v.quiet_from !== v.quiet_to, {
      message: '免打扰开始与结束时间不能相同',
      path: ['quiet_to'],
    }),
  /** the notifications the group's communities gave out: both channels, with their outcome */
  messageloglist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    rid: optionalId,
    event: blankable(enumSchema(NOTIFY_EVENT, '事件')),
    channel: blankable(enumSchema(NOTIFY_CHANNEL, '渠道')),
    status: blankable(enumSchema(NOTIFY_STATUS, '状态')),
    keyword: text(40).optional().default(''),
    date_from: dateText,
    date_to: dateText,
  }),
  /** the signed-in staff member's 站内消息, newest first */
  inboxlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), unread: z.enum(['Y', 'N', '']).optional().default('') }),
  /** marks the member's messages read: the ones given, or all */
  inboxread: z
    .object({ ids: z.array(id).max(200, '一次最多200条').optional().default([]), all: z.enum(['Y', 'N']).optional().default('N') })
    .refine((v) => v.all === 'Y' || v.ids.length > 0, { message: '请选择消息' }),
  /** the member's unread count (the top bar's badge) */
  inboxcount: z.object({}),
} as const;

export interface NotifyCell {
  event: NotifyEvent;
  recipient: NotifyRecipient;
  channel: NotifyChannel;
  enabled: 'Y' | 'N';
}

export interface NotifySettings {
  quiet_enabled: 'Y' | 'N';
  quiet_from: number;
  quiet_to: number;
  daily_cap: number;
}

export interface MessageSetInfo extends NotifySettings {
  cells: NotifyCell[];
  /** '': never saved, the defaults hold */
  update_time: string;
}

export interface MessageLogItem {
  id: number;
  rid: number;
  region_title: string;
  event: NotifyEvent;
  event_ch: string;
  recipient: NotifyRecipient;
  recipient_ch: string;
  channel: NotifyChannel;
  channel_ch: string;
  /** the staff member's name, or the owner's */
  name: string;
  /** masked: 138****0000 */
  mobile: string;
  /** 微信: the follower's open id it went to, masked (oSBX****000); '' other channels */
  openid: string;
  title: string;
  content: string;
  status: NotifyStatus;
  status_ch: string;
  reason: string;
  /** an SMS held for quiet hours: when it goes */
  send_after: string;
  create_time: string;
}

export interface InboxItem {
  id: number;
  event: NotifyEvent;
  event_ch: string;
  title: string;
  content: string;
  /** the console page the message is about ('' none) */
  link: string;
  read: boolean;
  create_time: string;
}

export interface NotifyOutputs {
  messagesetinfo: MessageSetInfo;
  messagesetedit: MessageSetInfo;
  messageloglist: { total: number; items: MessageLogItem[] };
  inboxlist: { total: number; unread: number; items: InboxItem[] };
  inboxread: { unread: number };
  inboxcount: { unread: number };
}
