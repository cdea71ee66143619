/**
 * 设备台账 (docs/product.md#equipment-ledger): the community's equipment as a category tree
 * (/carpark/device_cate) and assets (/carpark/device, device_add, device_edit), described as
 * resources (docs/resources.md). An asset's state and place change only through assetstate and
 * assetmove, each change logged; a scrapped asset stays scrapped.
 */
import { z } from 'zod';
import { id, int, optionalId, text } from '../common.js';
import { fenToYuan, money, mulDivRoundHalfUp, toFen } from '../money.js';
import { daysBetween } from '../dates.js';
import { createTimeColumn, optionalDay, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { ASSET_ROLES } from './roles.js';

export const ASSET_IMPORTANCE = valueEnum({
  A: { text: 'A 级', tone: 'error' },
  B: { text: 'B 级', tone: 'warning' },
  C: { text: 'C 级', tone: 'default' },
});
export type AssetImportance = keyof typeof ASSET_IMPORTANCE;

export const ASSET_STATE = valueEnum({
  U: { text: '在用', tone: 'success' },
  S: { text: '停用', tone: 'warning' },
  I: { text: '闲置', tone: 'default' },
  X: { text: '报废', tone: 'error' },
});
export type AssetState = keyof typeof ASSET_STATE;

/** The warranty filter: ends within 30 days (still in force), or already over. */
export const ASSET_WARRANTY = valueEnum({
  soon: { text: '30 天内到期', tone: 'warning' },
  over: { text: '已过保', tone: 'error' },
});
export const WARRANTY_SOON_DAYS = 30;

export const ASSET_LOG_ACTION = valueEnum({
  add: { text: '登记', tone: 'processing' },
  state: { text: '状态变更', tone: 'warning' },
  move: { text: '移动', tone: 'default' },
});

/** The units offered for a category (any other text of up to 10 characters is taken too). */
export const ASSET_UNITS = ['台', '套', '个', '部', '组', '只', '块', '条', '米'] as const;

/**
 * An asset's net value, straight-line (docs/product.md#equipment-ledger): the price less a
 * 1/(12 × service years) share for every whole month since first use, never below zero, rounded to
 * the fen; the price itself while the first use or the service life is not given or first use is
 * still to come; zero once scrapped.
 */
export function assetNetValue(
  price: string,
  serviceYears: number,
  firstUse: string | null | undefined,
  state: string,
  today: string,
): string {
  const fen = toFen(price);
  if (state === 'X') return '0.00';
  if (!firstUse || serviceYears <= 0 || firstUse > today) return fenToYuan(fen);
  const [y1, m1, d1] = firstUse.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = today.split('-').map(Number) as [number, number, number];
  let months = (y2 - y1) * 12 + (m2 - m1);
  if (d2 < d1) months -= 1;
  const life = serviceYears * 12;
  if (months >= life) return '0.00';
  return fenToYuan(mulDivRoundHalfUp(fen, BigInt(life - Math.max(0, months)), BigInt(life)));
}

/** Days from `today` to the warranty's end (negative once over), or null without one. */
export const warrantyDaysLeft = (end: string | null, today: string): number | null => (end ? daysBetween(today, end) : null);

export interface AssetCategoryItem {
  id: number;
  parent_id: number | null;
  parent_name: string;
  name: string;
  code: string;
  importance: AssetImportance;
  importance_ch: string;
  unit: string;
  sort: number;
  remark: string;
  /** assets of this category itself (not its children) */
  asset_count: number;
  create_time: string;
}

const code = (what: string) =>
  text(30)
    .min(1, `请输入${what}编码`)
    .regex(/^[A-Za-z0-9_-]+$/, `${what}编码只能是字母、数字、下划线或横线`);

export const assetCategory = resource<AssetCategoryItem>()({
  name: 'assetcate',
  label: '设备分类',
  methods: {
    list: 'assetcatelist',
    add: 'assetcateadd',
    edit: 'assetcateedit',
    del: 'assetcatedel',
    small: 'assetcate_small_list',
  },
  roles: { read: ASSET_ROLES.staff, write: ASSET_ROLES.staff },
  echoId: true,
  fields: {
    name: { label: '分类名称', zod: text(30).min(1, '请输入分类名称'), in: ['form', 'table', 'filter'], fixed: true, width: 180 },
    code: { label: '分类编码', zod: code('分类'), in: ['form', 'table', 'filter'], width: 120 },
    parent_id: {
      label: '上级分类',
      zod: optionalId.transform((v) => v ?? null),
      widget: { small: 'assetcate_small_list' },
      in: ['form'],
      help: '不选为顶级分类',
    },
    importance: {
      label: '重要等级',
      zod: z.enum(['A', 'B', 'C'], { message: '请选择重要等级' }).default('B'),
      enum: ASSET_IMPORTANCE,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    unit: { label: '单位', zod: text(10).min(1, '请输入单位').default('台'), in: ['form', 'table'], width: 70, placeholder: '台、套、个…' },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [{ key: 'asset_count', label: '资产数', width: 80 }, createTimeColumn()],
});

export interface AssetItem {
  id: number;
  category_id: number;
  category_name: string;
  name: string;
  code: string;
  brand: string;
  model: string;
  location: string;
  first_use: string | null;
  warranty_end: string | null;
  /** days to the warranty's end, negative once over; null without a warranty */
  warranty_days: number | null;
  service_years: number;
  importance: AssetImportance;
  importance_ch: string;
  state: AssetState;
  state_ch: string;
  price: string;
  /** straight-line (assetNetValue) */
  net_value: string;
  staff_ids: number[];
  staff_names: string;
  remark: string;
  create_time: string;
}

export const asset = resource<AssetItem>()({
  name: 'asset',
  label: '设备',
  methods: {
    list: 'assetlist',
    add: 'assetadd',
    edit: 'assetedit',
    del: 'assetdel',
    info: 'assetinfo',
    export: 'assetexport',
    small: 'asset_small_list',
  },
  roles: { read: ASSET_ROLES.staff, write: ASSET_ROLES.staff },
  echoId: true,
  form: { add: '/carpark/device_add', edit: '/carpark/device_edit' },
  fields: {
    keyword: { label: '名称/编码', in: ['filter'], placeholder: '设备名称或编码' },
    name: { label: '设备名称', zod: text(100).min(1, '请输入设备名称'), in: ['form', 'table', 'export'], fixed: true, width: 150 },
    code: {
      label: '设备编码',
      zod: text(100)
        .min(1, '请输入设备编码')
        .regex(/^[A-Za-z0-9_-]+$/, '设备编码只能是字母、数字、下划线或横线'),
      in: ['form', 'table', 'export'],
      width: 130,
    },
    category_id: {
      label: '设备分类',
      zod: id,
      widget: { small: 'assetcate_small_list' },
      in: ['form', 'filter'],
      help: '筛选时含下级分类',
    },
    brand: { label: '品牌', zod: text(64).default(''), in: ['form', 'table', 'export'], width: 100 },
    model: { label: '型号', zod: text(64).default(''), in: ['form', 'table', 'export'], width: 100 },
    location: {
      label: '位置',
      zod: text(100).default(''),
      in: ['form', 'table', 'export'],
      width: 140,
      once: true,
      help: '登记后通过「移动」修改，每次移动都有记录',
    },
    first_use: { label: '首次启用', zod: optionalDay, widget: 'date', in: ['form', 'table', 'export'], width: 110 },
    warranty_end: { label: '保修截止', zod: optionalDay, widget: 'date', in: ['form', 'table', 'export'], width: 110 },
    service_years: { label: '使用年限(年)', zod: int(0, 100).default(0), widget: 'int', in: ['form', 'export'], help: '0 为不计折旧' },
    importance: {
      label: '重要等级',
      zod: z.enum(['A', 'B', 'C'], { message: '请选择重要等级' }),
      enum: ASSET_IMPORTANCE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    state: {
      label: '使用状态',
      zod: z.enum(['U', 'S', 'I'], { message: '请选择使用状态（新登记的设备不能是报废）' }).default('U'),
      filterZod: z.union([z.literal(''), z.enum(['U', 'S', 'I', 'X'])], { error: '使用状态取值不正确' }).optional(),
      enum: ASSET_STATE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
      once: true,
      help: '登记后通过「状态变更」修改',
    },
    warranty: { label: '保修', enum: ASSET_WARRANTY, widget: 'select', in: ['filter'] },
    price: { label: '采购价格', zod: money.default('0'), widget: 'money', in: ['form', 'table', 'export'], width: 110 },
    staff_ids: {
      label: '责任人',
      zod: z.array(id).max(10, '责任人最多 10 人').default([]),
      widget: { small: 'asset_staff_small_list', multiple: true },
      in: ['form'],
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'category_name', label: '设备分类', width: 110 },
    { key: 'net_value', label: '资产净值', widget: 'money', width: 110 },
    { key: 'staff_names', label: '责任人', width: 120 },
    createTimeColumn('登记时间'),
  ],
});

export interface AssetLogItem {
  id: number;
  action: keyof typeof ASSET_LOG_ACTION;
  action_ch: string;
  from_state: string;
  from_state_ch: string;
  to_state: string;
  to_state_ch: string;
  from_location: string;
  to_location: string;
  remark: string;
  operator: string;
  create_time: string;
}

export interface AssetMaintainItem {
  id: number;
  plan_name: string;
  due_on: string;
  status_ch: string;
  done_name: string;
}

export type AssetDetail = AssetItem & { logs: AssetLogItem[]; tasks: AssetMaintainItem[] };

export const assetSchemas = {
  ...assetCategory.schemas,
  ...asset.schemas,
  assetstate: z.object({
    id,
    state: z.enum(['U', 'S', 'I', 'X'], { message: '请选择新的使用状态' }),
    remark: text(200).default(''),
  }),
  assetmove: z.object({ id, location: text(100).min(1, '请输入新位置'), remark: text(200).default('') }),
  assetlog: z.object({ id }),
  /** the print view of labels: one asset or a batch (by id, at most 200) */
  assetlabels: z.object({ ids: z.array(id).min(1, '请选择要打印的设备').max(200, '一次最多打印 200 个标签') }),
  asset_staff_small_list: z.object({}),
} as const;

export interface AssetLabel {
  id: number;
  code: string;
  name: string;
  category_name: string;
  location: string;
  first_use: string | null;
  staff_names: string;
}

export type AssetOutputs = ResourceOutputs<typeof assetCategory.def, AssetCategoryItem> &
  ResourceOutputs<typeof asset.def, AssetItem> & {
    assetinfo: AssetDetail;
    assetstate: AssetDetail;
    assetmove: AssetDetail;
    assetlog: { items: AssetLogItem[] };
    assetlabels: { items: AssetLabel[]; community: string };
    asset_staff_small_list: { items: Array<{ id: number; title: string }> };
  };
