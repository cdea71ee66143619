/**
 * 应用 (/apply/apply, /apply/apply_info; docs/product.md#owner-app): the services the owner app
 * offers, from a fixed catalogue, each switched on or off per community with its own name,
 * introduction, service hours and phone. A service switched off hides the app's menu entries that
 * open it. Every change is logged.
 */
import { z } from 'zod';
import { int, noControlChars, text, yn } from '../common.js';
import { valueEnum } from '../kit/resource.js';
import type { CommunityModule } from '../leader/modules.js';

export interface AppServiceDef {
  title: string;
  intro: string;
  /** the console's page that serves what the owners send through it */
  console: string;
  /** offered unless the community switches it off */
  default: 'Y' | 'N';
}

/** The catalogue, in the app's order. */
export const APP_SERVICES = {
  repair: { title: '在线报修', intro: '业主提交报修，管家派单、维修工上门', console: '/steward/repairs', default: 'Y' },
  complaint: { title: '投诉建议', intro: '业主的投诉与建议，客服受理回访', console: '/steward/complaintlist', default: 'Y' },
  payment: { title: '物业缴费', intro: '查询并在线缴纳物业费、停车费等账单', console: '/fees/payment', default: 'Y' },
  notice: { title: '社区公告', intro: '小区的通知公告，业主阅读留痕', console: '/steward/notices', default: 'Y' },
  visitor: { title: '访客邀请', intro: '业主为访客生成通行码，访客凭码进出', console: '/carpark/visitorlist', default: 'Y' },
  activity: { title: '社区活动', intro: '报名参加社区活动，在线缴费、签到', console: '/service/signuplist', default: 'Y' },
  steward: { title: '我的管家', intro: '查看负责本楼的管家并联系、评价', console: '/steward/stewardlist', default: 'Y' },
  parking: { title: '停车服务', intro: '月租车续费、临时车缴费', console: '/carpark/moncarlist', default: 'Y' },
  access: { title: '扫码开门', intro: '人脸录入与手机开门', console: '/carpark/current', default: 'N' },
  card: { title: '会员卡', intro: '会员卡、积分与优惠券', console: '/carpark/carduslist', default: 'N' },
  meter: { title: '智能电表', intro: '电表充值与用电查询', console: '/carpark/payment', default: 'N' },
  charging: { title: '充电桩', intro: '扫码充电与充电记录', console: '/carpark/charging', default: 'N' },
} as const satisfies Record<string, AppServiceDef>;
export type AppServiceCode = keyof typeof APP_SERVICES;
export const APP_SERVICE_CODES = Object.keys(APP_SERVICES) as [AppServiceCode, ...AppServiceCode[]];

/**
 * The community module each service needs (docs/product.md#community-modules): a community without
 * it neither offers the service nor shows a block, tile or entry that opens it.
 */
export const APP_SERVICE_MODULE: Record<AppServiceCode, CommunityModule> = {
  repair: 'steward',
  complaint: 'steward',
  payment: 'fees',
  notice: 'steward',
  visitor: 'visitors',
  activity: 'activities',
  steward: 'steward',
  parking: 'parking',
  access: 'access',
  card: 'cards',
  meter: 'meters',
  charging: 'charging',
};

/** The icon a service's tile shows unless a page or menu gives another (a MENU_ICON key). */
export const APP_SERVICE_ICON: Record<AppServiceCode, string> = {
  repair: 'ToolOutlined',
  complaint: 'MessageOutlined',
  payment: 'WalletOutlined',
  notice: 'NotificationOutlined',
  visitor: 'TeamOutlined',
  activity: 'CalendarOutlined',
  steward: 'PhoneOutlined',
  parking: 'CarOutlined',
  access: 'KeyOutlined',
  card: 'CreditCardOutlined',
  meter: 'ThunderboltOutlined',
  charging: 'ThunderboltOutlined',
};

export const APP_SERVICE_STATE = valueEnum({ Y: { text: '已开通', tone: 'success' }, N: { text: '未开通', tone: 'default' } });

const serviceCode = z.enum(APP_SERVICE_CODES, { error: '应用不存在' });

export interface AppServiceItem {
  code: AppServiceCode;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  /** the community's name for it (the catalogue's by default) */
  title: string;
  default_title: string;
  intro: string;
  hours: string;
  phone: string;
  sort: number;
  console: string;
  /** enabled menu entries of the app that open it */
  menus: number;
  /**
   * the group's catalogue (/applys/applyslist): N where the group does not open it to the community
   * or the community lacks its module; then `enabled` is N and `unavailable_reason` says why
   */
  available: 'Y' | 'N';
  unavailable_reason: string;
  /** N: the group keeps it on wherever it is available */
  allow_hide: 'Y' | 'N';
  /** N: the group's order, not the community's */
  allow_reorder: 'Y' | 'N';
  /** the group's icon for its tile (a MENU_ICON key) */
  icon: string;
  updated_by: string;
  update_time: string;
}
export interface AppServiceLog {
  id: number;
  before: Partial<AppServiceItem> | null;
  after: Partial<AppServiceItem>;
  /** 开通, 停用, 修改：名称、服务时间 */
  change: string;
  operator: string;
  create_time: string;
}
export interface AppServiceInfo extends AppServiceItem {
  menu_items: Array<{ id: number; title: string; position_ch: string; status: 'Y' | 'N' }>;
  logs: AppServiceLog[];
}

export const applySchemas = {
  applylist: z.object({ enabled: z.union([z.literal(''), yn]).optional() }),
  applyinfo: z.object({ code: serviceCode }),
  applyedit: z.object({
    code: serviceCode,
    enabled: yn,
    title: noControlChars(z.string().trim().min(1, '请输入应用名称').max(10, '应用名称不超过10个字')),
    intro: text(100).optional().default(''),
    hours: text(40).optional().default(''),
    phone: z
      .string()
      .trim()
      .regex(/^$|^[0-9+\-() ]{5,20}$/, '服务电话格式不正确')
      .optional()
      .default(''),
    sort: int(0, 9999).default(0),
  }),
} as const;

export type ApplyOutputs = {
  applylist: { items: AppServiceItem[] };
  applyinfo: AppServiceInfo;
  applyedit: { code: AppServiceCode };
};
