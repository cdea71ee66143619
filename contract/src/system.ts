import { z } from 'zod';
import { id, paging } from './common.js';
import type { ListAnswer, YN } from './codes.js';
import type { ExportQueued } from './jobs.js';
import { valueEnum } from './kit/resource.js';
import { setsysFields } from './setup/settings.js';

/** /setup/setsys saves one tab's fields at a time (setup/settings.ts). */
export const setSysInfoInput = z.object(setsysFields);

/** The to-do list's filters (backlog_list, backlogexport): status (E 待办, Y 已办, '' all) and kind. */
const backlogFilters = {
  status: z.enum(['', 'E', 'Y']).default('E'),
  kind: z
    .string()
    .trim()
    .max(30)
    .regex(/^[a-z_]*$/, '类型不正确')
    .optional()
    .default(''),
};

export const systemMethods = {
  get_system_info: z.object({}),
  get_system_extendinfo: z.object({}),
  setsysinfo: setSysInfoInput,
  get_file_set: z.object({}),
  get_common_links: z.object({}),
  get_resources_list: z.object({}),
  backlog_list: z.object({ ...paging, ...backlogFilters }),
  backlog_done: z.object({ id }),
  backlogexport: z.object(backlogFilters),
} as const;

/** System info (docs/product.md#system-info), kept by the client in session storage and a cookie. */
export interface SystemInfo {
  rid: number;
  region_title: string;
  sub_title: string;
  /** the brand (/setup/setsys): the system's title, its short name, the company */
  system_title: string;
  short_title: string;
  company_name: string;
  logo_url: string;
  end_time: string;
  /** days left = end date minus today (docs/product.md#community-expiry) */
  days_left: number;
  /** the community's business time zone, whose calendar day is "today" (e.g. Asia/Shanghai) */
  time_zone: string;
  price_per_year: string;
  property_app_url: string;
  wxapp_qrcodes: string;
  consume_mobile_app_url: string;
  consume_app_url: string;
  help_work_url: string;
  region_img: string;
  copyright: string;
}

/** What a to-do is about: its words and tag on the to-do page, the home page and the board. */
export const BACKLOG_KIND = valueEnum({
  repair: { text: '报修', tone: 'warning' },
  repairwork: { text: '维修待办', tone: 'processing' },
  refund: { text: '退款', tone: 'processing' },
  fees: { text: '收费', tone: 'success' },
  complaint: { text: '投诉', tone: 'error' },
  internalorder: { text: '内部工单', tone: 'processing' },
  carpark: { text: '停车', tone: 'warning' },
  maintain: { text: '维保逾期', tone: 'error' },
  patroltask: { text: '巡更', tone: 'error' },
  accessgrant: { text: '门禁审核', tone: 'warning' },
  accesssync: { text: '门禁下发失败', tone: 'error' },
  activity: { text: '活动报名', tone: 'success' },
  activitymin: { text: '活动未成团', tone: 'warning' },
  invoiceapply: { text: '开票申请', tone: 'processing' },
  crmpool: { text: '客户回收预警', tone: 'warning' },
  careaffair: { text: '客户关怀', tone: 'success' },
  contractaudit: { text: '合同审批', tone: 'processing' },
  leaseaudit: { text: '租赁审批', tone: 'processing' },
  leaseexpiring: { text: '租约到期', tone: 'warning' },
  other: { text: '其他', tone: 'default' },
});
export type BacklogKind = keyof typeof BACKLOG_KIND;

export interface BacklogItem {
  id: number;
  title: string;
  content: string;
  /** a BACKLOG_KIND code (a kind it does not know travels as it is) */
  kind: BacklogKind | (string & {});
  kind_ch: string;
  link: string;
  status: 'E' | 'Y';
  create_time: string;
  done_time: string;
  /** the record's id in its area (来源单号), '' when the item names none */
  source_id: string;
  /** who submitted the record ('' when nobody did: a reminder) */
  submitter_name: string;
  /** by when it should be handled ('' for none) */
  deadline: string;
  /** pending past its deadline */
  overdue: boolean;
}

/** A common link as the shell shows it (/setup/linklist, setup/links.ts). */
export interface CommonLink {
  id: number;
  title: string;
  url: string;
  kind: 'internal' | 'external';
  /** an antd icon name (LINK_ICON) */
  icon: string;
  target: 'self' | 'blank';
  /** group: inherited from the group; community: the community's own */
  scope: 'group' | 'community';
}
export interface ResourceItem {
  id: number;
  title: string;
  url: string;
  kind: string;
  remark: string;
}

export interface SystemOutputs {
  get_system_info: { end_time: string; items: SystemInfo };
  get_system_extendinfo: { data: { items: { map_key: string; map_provider: string } } };
  setsysinfo: { items: SystemInfo };
  get_file_set: {
    type: 'local';
    /** uploads go through a method of /webapi (images: image_method, at most image_max_mb) */
    items: { max_size_mb: number; exts: string[]; upload_url: string; image_method: 'imageupload'; image_max_mb: number };
  };
  get_common_links: { website_url: string; items: CommonLink[] };
  get_resources_list: ListAnswer<ResourceItem>;
  backlog_list: ListAnswer<BacklogItem>;
  backlog_done: null;
  backlogexport: ExportQueued;
}
export type { YN };
