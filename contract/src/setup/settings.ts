/**
 * Setup (系统设置): the community's system settings (/setup/setsys) and its daily switches
 * (/setup/setdaily). docs/product.md#setup-settings.
 */
import { z } from 'zod';
import { noControlChars, text } from '../common.js';
import { areaValue, mapPoint } from '../structure.js';
import { title } from '../structure/resources.js';

/** Who reads and saves the settings: holders of 系统设置 (admin holds all). */
export const SETTINGS_ROLES = ['setup'] as const;

const url = noControlChars(
  z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === '' || /^(https?:\/\/|\/)/.test(v), { message: '地址必须以 http://、https:// 或 / 开头' }),
);
const phone = z
  .string()
  .trim()
  .max(30)
  .refine((v) => v === '' || /^[\d\-+() ]{5,30}$/.test(v), { message: '客服电话格式不正确' });

/**
 * The fields of /setup/setsys, each optional: a save sends one tab's fields, and the server
 * writes what changed (field: old → new) into the operation log.
 */
export const setsysFields = {
  // 品牌
  system_title: text(64).optional(),
  sub_title: text(60).optional(),
  short_title: text(20).optional(),
  company_name: text(100).optional(),
  logo_url: url.optional(),
  copyright: text(200).optional(),
  // 小区资料
  title: title(60, '小区名称').optional(),
  address: text(200).optional(),
  phone: phone.optional(),
  service_qr: url.optional(),
  map_point: mapPoint.optional(),
  area: areaValue.optional(),
  region_img: url.optional(),
  // 客户端下载
  property_app_url: url.optional(),
  wxapp_qrcodes: url.optional(),
  consume_mobile_app_url: url.optional(),
  consume_app_url: url.optional(),
  // 帮助
  help_work_url: url.optional(),
};
export type SetsysKey = keyof typeof setsysFields;

/** The tabs of /setup/setsys and their fields, in order, with their labels (also the operation log's words). */
export const SETSYS_TABS: ReadonlyArray<{ key: string; title: string; fields: ReadonlyArray<{ key: SetsysKey; label: string }> }> = [
  {
    key: 'brand',
    title: '品牌',
    fields: [
      { key: 'system_title', label: '系统标题' },
      { key: 'sub_title', label: '副标题' },
      { key: 'short_title', label: '简称' },
      { key: 'company_name', label: '公司名称' },
      { key: 'logo_url', label: 'Logo' },
      { key: 'copyright', label: '版权信息' },
    ],
  },
  {
    key: 'region',
    title: '小区资料',
    fields: [
      { key: 'title', label: '小区名称' },
      { key: 'address', label: '地址' },
      { key: 'phone', label: '客服电话' },
      { key: 'service_qr', label: '客服二维码' },
      { key: 'map_point', label: '地图坐标' },
      { key: 'area', label: '占地面积' },
      { key: 'region_img', label: '小区平面图' },
    ],
  },
  {
    key: 'download',
    title: '客户端下载',
    fields: [
      { key: 'property_app_url', label: '物业 App 下载地址' },
      { key: 'wxapp_qrcodes', label: '小程序二维码' },
      { key: 'consume_mobile_app_url', label: '一卡通手机端地址' },
      { key: 'consume_app_url', label: '一卡通电脑端下载地址' },
    ],
  },
  {
    key: 'help',
    title: '帮助',
    fields: [{ key: 'help_work_url', label: '帮助文档地址' }],
  },
];

export const SETSYS_LABELS: Record<SetsysKey, string> = Object.fromEntries(
  SETSYS_TABS.flatMap((t) => t.fields.map((f) => [f.key, f.label])),
) as Record<SetsysKey, string>;

/** What /setup/setsys edits: every field's stored value (area as a decimal text). */
export type SysSettings = Record<SetsysKey, string>;

/**
 * The fields the group sets for all its communities (/setup/setsys on the group side): the brand
 * but the sidebar's subtitle (each community's own, its name when empty), the client downloads and
 * the help. A community's empty field follows the group's (docs/product.md#setup-settings).
 */
export const groupSetsysFields = {
  system_title: setsysFields.system_title,
  short_title: setsysFields.short_title,
  company_name: setsysFields.company_name,
  logo_url: setsysFields.logo_url,
  copyright: setsysFields.copyright,
  property_app_url: setsysFields.property_app_url,
  wxapp_qrcodes: setsysFields.wxapp_qrcodes,
  consume_mobile_app_url: setsysFields.consume_mobile_app_url,
  consume_app_url: setsysFields.consume_app_url,
  help_work_url: setsysFields.help_work_url,
};
export type GroupSetsysKey = keyof typeof groupSetsysFields;
export const GROUP_SETSYS_KEYS = Object.keys(groupSetsysFields) as GroupSetsysKey[];
/** The group's defaults: every inherited field, '' where the group sets none. */
export type GroupSysSettings = Record<GroupSetsysKey, string>;
/** The tabs of the group's /setup/setsys: the community's tabs with the inherited fields alone. */
export const GROUP_SETSYS_TABS = SETSYS_TABS.map((t) => ({
  ...t,
  fields: t.fields.filter((f) => (GROUP_SETSYS_KEYS as string[]).includes(f.key)),
})).filter((t) => t.fields.length > 0);
/** Who sets the group's defaults; a community's setup holders read them (as what their empty fields show). */
export const GROUP_SETSYS_ROLES = ['leader_admin'] as const;

// ------------------------------------------------------------------ daily switches (setdaily)

interface DailyBase {
  /** the area of the product that reads it: the page groups by it */
  area: string;
  title: string;
  /** the help text under the input */
  help: string;
}
export interface DailyBoolean extends DailyBase {
  type: 'boolean';
  default: boolean;
}
export interface DailyNumber extends DailyBase {
  type: 'number';
  default: number;
  min: number;
  max: number;
  unit: string;
}
export interface DailyText extends DailyBase {
  type: 'text';
  default: string;
  max: number;
}
export interface DailyEnum<O extends string = string> extends DailyBase {
  type: 'enum';
  default: NoInfer<O>;
  options: Record<O, string>;
}
export type DailyDef = DailyBoolean | DailyNumber | DailyText | DailyEnum;

const bool = (d: Omit<DailyBoolean, 'type'>): DailyBoolean => ({ type: 'boolean', ...d });
const num = (d: Omit<DailyNumber, 'type'>): DailyNumber => ({ type: 'number', ...d });
const txt = (d: Omit<DailyText, 'type'>): DailyText => ({ type: 'text', ...d });
const choice = <O extends string>(d: Omit<DailyEnum<O>, 'type'>): DailyEnum<O> => ({ type: 'enum', ...d });

/**
 * The catalogue of daily switches (日常设置): every key an area reads through
 * `dailySetting(db, rid, key)` (server/src/modules/setup/daily.ts), its type and its default. A
 * community stores only the keys it changed. Add a key here, then read it in the area.
 */
export const DAILY_SETTINGS = {
  repair_admin_see_all: bool({
    area: '报修工单',
    title: '管理员查看全部工单',
    help: '开启后，拥有报修权限的管理人员可看到本小区所有工单；关闭时只看到派给自己或自己部门的工单。',
    default: true,
  }),
  repair_dispatch_mode: choice({
    area: '报修工单',
    title: '派单方式',
    help: '新工单的分派方式：抢单由维修人员在手机端领取；指派由客服选择处理人；轮询按当班人员依次分派。',
    options: { grab: '抢单', assign: '指派', round: '轮询' },
    default: 'assign',
  }),
  repair_owner_types: txt({
    area: '报修工单',
    title: '业主端可选的报修类型',
    help: '业主在小程序报修时可选的类型，用中文逗号或英文逗号分隔；留空表示全部类型都可选。',
    max: 200,
    default: '水电维修,门窗维修,公共设施,管道疏通',
  }),
  repair_finish_hours: num({
    area: '报修工单',
    title: '处理时限',
    help: '工单从受理到完工的时限，超过后在工单列表标红并进入待办。',
    min: 1,
    max: 720,
    unit: '小时',
    default: 24,
  }),
  repair_return_visit: choice({
    area: '报修工单',
    title: '完工回访',
    help: '完工后是否生成回访任务：业主已评价的可以跳过。',
    options: { never: '不回访', unrated: '未评价的回访', always: '全部回访' },
    default: 'unrated',
  }),
  visitor_review: bool({
    area: '访客',
    title: '访客登记需审核',
    help: '开启后，业主登记的访客需物业审核通过才生成通行码。',
    default: false,
  }),
  visitor_free_park_minutes: num({
    area: '访客',
    title: '访客车辆免费停车时长',
    help: '登记过的访客车辆在此时长内出场不收费；0 表示不免费。',
    min: 0,
    max: 1440,
    unit: '分钟',
    default: 30,
  }),
  visitor_daily_max: num({
    area: '访客',
    title: '每户每日访客登记上限',
    help: '同一房屋一天内最多可登记的访客数。',
    min: 1,
    max: 100,
    unit: '人',
    default: 10,
  }),
  notice_read_receipt: bool({
    area: '通知公告',
    title: '新公告默认需要回执',
    help: '发布公告时“需要业主确认已读”的默认值。',
    default: true,
  }),
  notice_default_audience: choice({
    area: '通知公告',
    title: '新公告默认接收对象',
    help: '发布公告时接收对象的默认选项。',
    options: { all: '全部业主', owner: '仅业主本人', staff: '仅员工' },
    default: 'all',
  }),
  owner_bind_review: bool({
    area: '住户',
    title: '业主绑定房屋需审核',
    help: '开启后，业主在小程序申请绑定房屋需物业审核；关闭时手机号与房屋登记一致即自动通过。',
    default: true,
  }),
  fees_receipt_note: txt({
    area: '收费',
    title: '收据备注',
    help: '打印在收据底部的一段文字，如开户行与对公账号；留空则不打印。',
    max: 200,
    default: '',
  }),
} satisfies Record<string, DailyDef>;

export type DailyKey = keyof typeof DAILY_SETTINGS;
/** The value type of a key: boolean, number, text or one of its options. */
export type DailyValue<K extends DailyKey> = (typeof DAILY_SETTINGS)[K] extends DailyBoolean
  ? boolean
  : (typeof DAILY_SETTINGS)[K] extends DailyNumber
    ? number
    : (typeof DAILY_SETTINGS)[K] extends DailyEnum<infer O>
      ? O
      : string;

export const DAILY_KEYS = Object.keys(DAILY_SETTINGS) as DailyKey[];

/** The schema of one switch's value, with its message in the switch's words. */
export function dailySchema(def: DailyDef): z.ZodType {
  switch (def.type) {
    case 'boolean':
      return z.boolean({ error: `${def.title}应为开或关` });
    case 'number':
      return z
        .number({ error: `${def.title}应为数字` })
        .int(`${def.title}应为整数`)
        .min(def.min, `${def.title}不能小于${def.min}`)
        .max(def.max, `${def.title}不能大于${def.max}`);
    case 'text':
      return text(def.max).refine((v) => v.length <= def.max, `${def.title}不能超过${def.max}个字符`);
    case 'enum':
      return z.enum(Object.keys(def.options) as [string, ...string[]], { error: `${def.title}取值不正确` });
  }
}

const dailyValues = z.strictObject(
  Object.fromEntries(DAILY_KEYS.map((k) => [k, dailySchema(DAILY_SETTINGS[k]).optional()])) as Record<DailyKey, z.ZodOptional<z.ZodType>>,
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `没有这项日常设置：${iss.keys.join('、')}` : undefined) },
);

export interface DailySettingItem {
  key: DailyKey;
  area: string;
  title: string;
  help: string;
  type: DailyDef['type'];
  value: boolean | number | string;
  default: boolean | number | string;
  /** Y: the community has its own value; N: the default applies */
  changed: 'Y' | 'N';
  min?: number;
  max?: number;
  unit?: string;
  options?: Array<{ value: string; label: string }>;
  update_time: string;
}

export const settingsMethods = {
  /** the values /setup/setsys edits */
  sysinfo: z.object({}),
  /** the group's defaults of the inherited fields (both sides) */
  groupsysinfo: z.object({}),
  /** group side: the defaults to change; '' clears one (the communities following it show nothing) */
  setgroupsysinfo: z.object(groupSetsysFields),
  setdailylist: z.object({}),
  /** the switches to change, by key; a value equal to the default removes the community's own */
  setdailyedit: z.object({ values: dailyValues }),
  /** back to the default: the keys named */
  setdailyreset: z.object({
    keys: z
      .array(z.enum(DAILY_KEYS as [DailyKey, ...DailyKey[]], { error: '没有这项日常设置' }))
      .min(1, '请选择要恢复默认的设置')
      .max(DAILY_KEYS.length),
  }),
} satisfies Record<string, z.ZodType>;

export interface SettingsOutputs {
  sysinfo: SysSettings;
  groupsysinfo: GroupSysSettings;
  setgroupsysinfo: GroupSysSettings;
  setdailylist: { items: DailySettingItem[] };
  setdailyedit: { items: DailySettingItem[] };
  setdailyreset: { items: DailySettingItem[] };
}
