/**
 * 通知公告 (/steward/notices, noticesadd, noticesedit, readnumlist; docs/product.md#notices):
 * notices with a sanitised rich-text body, a scope (the community, buildings, units or rooms), an
 * audience and channels; 草稿 → 待发布 (scheduled) → 已发布 → 已过期, or 已撤回; the households
 * reached, frozen at publication; reads per household and member; SMS re-sends to the unread.
 */
import { z } from 'zod';
import { id, noControlChars, optionalId, paging, text } from '../common.js';
import { imageUrl } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { STEWARD_ROLES } from './roles.js';

export const NOTICE_WRITERS = STEWARD_ROLES.noticeWrite;
export const NOTICE_READERS = STEWARD_ROLES.noticeRead;

export const NOTICE_TYPE = valueEnum({
  notice: { text: '通知', tone: 'processing' },
  urgent: { text: '紧急', tone: 'error' },
  outage: { text: '停水停电', tone: 'warning' },
  activity: { text: '活动', tone: 'success' },
  fees: { text: '费用公示', tone: 'default' },
});
/** Stored D, S, P, W; X (已过期) is a published notice whose valid-until has passed, computed as it is read. */
export const NOTICE_STATUS = valueEnum({
  D: { text: '草稿', tone: 'default' },
  S: { text: '待发布', tone: 'processing' },
  P: { text: '已发布', tone: 'success' },
  X: { text: '已过期', tone: 'warning' },
  W: { text: '已撤回', tone: 'error' },
});
export const NOTICE_SCOPE = valueEnum({
  all: { text: '全小区' },
  building: { text: '按楼栋' },
  unit: { text: '按单元' },
  room: { text: '按房屋' },
});
/** Who in a household (members' relation to the room): owners, tenants, or everyone living there (family too). */
export const NOTICE_AUDIENCE = valueEnum({
  all: { text: '全部住户' },
  owner: { text: '业主' },
  tenant: { text: '租户' },
});
export const NOTICE_CHANNEL = valueEnum({
  app: { text: 'App/微信推送' },
  sms: { text: '短信' },
});
export const NOTICE_READ_STATE = valueEnum({
  Y: { text: '已读', tone: 'success' },
  N: { text: '未读', tone: 'warning' },
});
/** How a household was reachable at publication: a member bound to the app or WeChat, or by SMS only. */
export const NOTICE_REACH = valueEnum({
  app: { text: 'App/微信', tone: 'success' },
  sms: { text: '仅短信', tone: 'warning' },
});

export const NOTICE_TITLE_MAX = 50;
/** The body's HTML, before sanitising (images are addresses, not data, so this is plenty). */
export const NOTICE_BODY_MAX = 60_000;

const wireMinute = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/, '时间格式为 YYYY-MM-DD HH:mm')
  .optional()
  .or(z.literal('').transform(() => undefined))
  .or(z.null().transform(() => undefined));

const noticeFields = {
  title: noControlChars(z.string().trim().min(1, '请输入标题').max(NOTICE_TITLE_MAX, `标题不能超过${NOTICE_TITLE_MAX}个字`)),
  type: enumSchema(NOTICE_TYPE, '类型'),
  cover: z.union([imageUrl, z.literal('')]).default(''),
  body: z.string().max(NOTICE_BODY_MAX, '内容太长，请精简或分成几条公告').default(''),
  scope: enumSchema(NOTICE_SCOPE, '范围').default('all'),
  /** building, unit or room ids per the scope (empty for the whole community) */
  scope_ids: z.array(id).max(5000, '所选范围太多').default([]),
  audience: enumSchema(NOTICE_AUDIENCE, '受众').default('all'),
  channels: z.array(enumSchema(NOTICE_CHANNEL, '渠道')).min(1, '请至少选择一个发布渠道').max(2).default(['app']),
  /** the sms channel's approved SMS template (notice_sms_template_small_list) */
  sms_template_id: optionalId,
  /** scheduled publication, YYYY-MM-DD HH:mm in the business time zone; empty: publish when 发布 is clicked */
  send_at: wireMinute,
  valid_until: wireMinute,
  pinned: z.enum(['Y', 'N']).default('N'),
};

const noticeFilters = {
  id: optionalId,
  title: text(50).optional(),
  type: z.union([enumSchema(NOTICE_TYPE, '类型'), z.literal('')]).optional(),
  status: z.union([enumSchema(NOTICE_STATUS, '状态'), z.literal('')]).optional(),
  /** published between these days (business time zone, both included) */
  date_from: z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD'), z.literal('')]).optional(),
  date_to: z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD'), z.literal('')]).optional(),
};

const readFilters = {
  id,
  bid: optionalId,
  tid: optionalId,
  read: z.union([z.enum(['Y', 'N']), z.literal('')]).optional(),
  reach: z.union([z.enum(['app', 'sms']), z.literal('')]).optional(),
  /** a room's address, an owner's name or mobile */
  keyword: text(30).optional(),
};

export const noticeSchemas = {
  noticelist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...noticeFilters }),
  noticeinfo: z.object({ id }),
  noticeadd: z.object(noticeFields),
  noticeedit: z.object({ id, ...noticeFields }),
  noticedel: z.object({ id }),
  noticecopy: z.object({ id }),
  /** the households a notice would reach now (its saved scope and audience), before publishing */
  noticepreview: z.object({ id }),
  /** households for a scope and audience being edited (the form's count) */
  noticereach: z.object({ scope: noticeFields.scope, scope_ids: noticeFields.scope_ids, audience: noticeFields.audience }),
  /** confirm_households: the count the confirmation showed; a different count now refuses */
  noticepublish: z.object({ id, confirm_households: z.number().int().min(0) }),
  noticewithdraw: z.object({ id, reason: text(200).default('') }),
  noticepin: z.object({ id, pinned: z.enum(['Y', 'N']) }),
  notice_sms_template_small_list: z.object({}),
  noticereadlist: z.object({ ...paging, ...readFilters }),
  noticereadexport: z.object(readFilters),
  /** SMS to the unread households' owners through the SMS jobs; template: an approved SMS template */
  noticeresend: z.object({ id, template_id: id, confirm_households: z.number().int().min(0) }),
  noticeresendpreview: z.object({ id }),
};

export interface NoticeItem {
  id: number;
  title: string;
  type: keyof typeof NOTICE_TYPE;
  type_ch: string;
  cover: string;
  body: string;
  scope: keyof typeof NOTICE_SCOPE;
  scope_ids: number[];
  /** 全小区, 1号楼、2号楼, 1号楼1单元, 3 户 */
  scope_ch: string;
  audience: keyof typeof NOTICE_AUDIENCE;
  audience_ch: string;
  channels: Array<keyof typeof NOTICE_CHANNEL>;
  channels_ch: string;
  /** null without the sms channel */
  sms_template_id: number | null;
  send_time: string;
  valid_until: string;
  pinned: 'Y' | 'N';
  status: keyof typeof NOTICE_STATUS;
  status_ch: string;
  publish_time: string;
  publisher: string;
  withdraw_time: string;
  /** households reached at publication (0 before) */
  households: number;
  read_households: number;
  creator: string;
  create_time: string;
  /** the scope's path for a form's pickers: building ids of the chosen units and rooms, unit ids of the rooms */
  scope_bids: number[];
  scope_tids: number[];
  /** each scope id's name, in scope_ids' order (1号楼1单元, a room's address): the pickers' chosen tags */
  scope_names: string[];
}

export interface NoticeReach {
  /** households in scope: rooms with someone of the audience living there */
  households: number;
  /** of them, reachable in the app or WeChat (a member with app_isbind or wx_isbind) */
  app: number;
  /** reachable by SMS only */
  sms_only: number;
  /** not reached at all: SMS-only households when SMS is not a channel */
  unreached: number;
  rooms_without_residents: number;
}

export interface NoticeReadItem {
  hid: number;
  address: string;
  owner: string;
  mobile: string;
  reach: 'app' | 'sms';
  reach_ch: string;
  read: 'Y' | 'N';
  read_ch: string;
  first_read_time: string;
  read_count: number;
  readers: string;
}

export interface NoticeReadTotals {
  households: number;
  read: number;
  unread: number;
  /** percent, one decimal ('37.5') */
  read_rate: string;
}

export interface NoticeResendItem {
  id: number;
  sms_job_id: number;
  households: number;
  status_ch: string;
  recipients: number;
  sent: number;
  failed: number;
  creator: string;
  create_time: string;
}

export interface NoticeOutputs {
  noticelist: { items: NoticeItem[]; total: number };
  noticeinfo: NoticeItem;
  noticeadd: { id: number };
  noticeedit: null;
  noticedel: null;
  noticecopy: { id: number };
  noticepreview: NoticeReach;
  noticereach: NoticeReach;
  noticepublish: NoticeItem;
  noticewithdraw: NoticeItem;
  noticepin: null;
  notice_sms_template_small_list: { items: Array<{ id: number; title: string; content: string }> };
  noticereadlist: {
    items: NoticeReadItem[];
    total: number;
    totals: NoticeReadTotals;
    notice: { id: number; title: string; status: string; status_ch: string; publish_time: string; scope_ch: string };
    resends: NoticeResendItem[];
  };
  noticereadexport: ExportQueued;
  noticeresend: { sms_job_id: number; recipients: number };
  noticeresendpreview: {
    /** unread households with an owner's mobile to message */
    households: number;
    /** unread households without an owner living there (no one to message) */
    without_owner: number;
    provider_ch: string;
  };
}
