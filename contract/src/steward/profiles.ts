/**
 * Steward profiles (管家档案: /steward/stewardlist, /steward/steadd, /steward/steedit;
 * docs/product.md#steward-profiles): a profile per staff account of the community (photo, post,
 * the buildings and units served, service phone, introduction, the assessment items that apply
 * with weights summing to 100 %), and the community's assessment items (考核项目), as resources
 * (docs/resources.md).
 */
import { z } from 'zod';
import { id, int, text, yn } from '../common.js';
import { photoList } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { PHONE_RE } from '../team/departments.js';
import { STEWARD_ROLES } from './roles.js';

export const STEWARD_POST = valueEnum({
  GJ: { text: '管家', tone: 'processing' },
  KF: { text: '客服', tone: 'success' },
  GC: { text: '工程', tone: 'warning' },
  ZX: { text: '秩序', tone: 'default' },
  BJ: { text: '保洁', tone: 'default' },
});
export type StewardPost = keyof typeof STEWARD_POST;
export const STEWARD_STATUS = valueEnum({ Y: { text: '在岗', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const SCORE_ITEM_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** 100 % in a weight's unit (hundredths of a percent): weights are exact to 0.01 %. */
export const WEIGHT_FULL = 10000;

/** A weight in percent with at most two decimals ('33.33', 40) -> hundredths of a percent (3333, 4000). */
export const weightPercent = z.union([z.number(), z.string().trim()], { error: '请输入权重' }).transform((v, ctx) => {
  const s = typeof v === 'number' ? String(v) : v;
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) {
    ctx.addIssue({ code: 'custom', message: '权重应为 0.01 到 100 之间的数，最多两位小数' });
    return z.NEVER;
  }
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (hundredths < 1 || hundredths > WEIGHT_FULL) {
    ctx.addIssue({ code: 'custom', message: '权重应为 0.01 到 100 之间的数，最多两位小数' });
    return z.NEVER;
  }
  return hundredths;
});

/** Hundredths of a percent -> '33.33' (no trailing zeros: '40', '12.5'). */
export function weightText(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100);
  const frac = String(hundredths % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/**
 * What is wrong with a profile's items, or null: an item twice, or weights (hundredths of a
 * percent) not totalling exactly 100 %. The server refuses with it and the form says it first.
 */
export function itemsProblem(items: ReadonlyArray<{ item_id: number; weight: number }>): string | null {
  if (new Set(items.map((i) => i.item_id)).size !== items.length) return '考核项目不能重复';
  const sum = items.reduce((s, i) => s + i.weight, 0);
  return sum === WEIGHT_FULL ? null : `考核项目的权重合计应为 100%，现为 ${weightText(sum)}%`;
}

/** The items of a profile and their weights (the total is checked by itemsProblem). */
export const profileItems = z
  .array(z.object({ item_id: id, weight: weightPercent }))
  .min(1, '请选择考核项目')
  .max(30, '考核项目最多 30 个');

/** What a profile serves: a whole building (no tid) or a unit of it. */
export const profileAreas = z
  .array(
    z.object({
      bid: id,
      tid: z
        .union([id, z.null(), z.literal('')])
        .optional()
        .transform((v) => (v === '' || v === undefined ? null : v)),
    }),
  )
  .min(1, '请选择负责的楼栋或单元')
  .max(500, '负责的楼栋和单元最多 500 个');

const servicePhone = text(20)
  .refine((v) => v === '' || PHONE_RE.test(v), { message: '服务电话格式不正确（11位手机号或带区号的座机，如 021-58881234）' })
  .optional()
  .default('');

export interface ScoreItemRow {
  id: number;
  name: string;
  description: string;
  status: 'Y' | 'N';
  status_ch: string;
  sort: number;
  /** profiles applying the item */
  profile_count: number;
  create_time: string;
}

export const scoreItem = resource<ScoreItemRow>()({
  name: 'scoreitem',
  label: '考核项目',
  methods: { list: 'scoreitemlist', add: 'scoreitemadd', edit: 'scoreitemedit', del: 'scoreitemdel', small: 'scoreitem_small_list' },
  roles: { read: STEWARD_ROLES.profiles, write: STEWARD_ROLES.profiles },
  fields: {
    name: {
      label: '项目名称',
      zod: text(30).min(1, '请输入项目名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      placeholder: '如 服务态度',
    },
    description: {
      label: '说明',
      zod: text(200).optional().default(''),
      widget: 'textarea',
      in: ['form', 'table'],
      placeholder: '评分时给住户的提示，如 是否主动、热情、耐心',
    },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: SCORE_ITEM_STATUS, in: ['form', 'table', 'filter'], width: 80 },
    sort: { label: '排序', zod: int(0, 9999).optional().default(0), widget: 'int', in: ['form', 'table'], width: 70, help: '小的在前' },
  },
  columns: [{ key: 'profile_count', label: '使用档案数', width: 100 }, createTimeColumn()],
});

export interface StewardRow {
  id: number;
  account_id: number;
  name: string;
  username: string;
  photo: string;
  post: StewardPost;
  post_ch: string;
  phone: string;
  status: 'Y' | 'N';
  status_ch: string;
  sort: number;
  /** the buildings and units served: 1号楼、2号楼3单元 */
  areas_text: string;
  /** households (rooms) served */
  house_count: number;
  /** the items and weights: 服务态度 40%、… */
  items_text: string;
  create_time: string;
}

/** A profile with what the form edits (stewardinfo). */
export interface StewardDetail extends StewardRow {
  introduction: string;
  areas: Array<{ bid: number; tid: number | null; title: string }>;
  items: Array<{ item_id: number; name: string; weight: string }>;
}

export const steward = resource<StewardRow>()({
  name: 'steward',
  label: '管家档案',
  methods: {
    list: 'stewardlist',
    add: 'stewardadd',
    edit: 'stewardedit',
    del: 'stewarddel',
    info: 'stewardinfo',
    export: 'stewardexport',
  },
  roles: { read: STEWARD_ROLES.profiles, write: STEWARD_ROLES.profiles },
  form: { add: '/steward/steadd', edit: '/steward/steedit' },
  echoId: true,
  fields: {
    account_id: { label: '员工账号', zod: id, widget: 'custom', in: ['form'], once: true },
    keyword: { label: '姓名/账号', zod: text(30), in: ['filter'] },
    photo: { label: '头像', zod: photoList(1), widget: 'custom', in: ['form'] },
    post: {
      label: '岗位',
      zod: z.enum(['GJ', 'KF', 'GC', 'ZX', 'BJ'], { message: '请选择岗位' }),
      enum: STEWARD_POST,
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    areas: { label: '负责楼栋/单元', zod: profileAreas, widget: 'custom', in: ['form'] },
    phone: { label: '服务电话', zod: servicePhone, in: ['form', 'table', 'export'], width: 130, placeholder: '手机号或座机' },
    introduction: { label: '简介', zod: text(2000).optional().default(''), widget: 'textarea', in: ['form'] },
    items: { label: '考核项目', zod: profileItems, widget: 'custom', in: ['form'] },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: STEWARD_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    sort: { label: '排序', zod: int(0, 9999).optional().default(0), widget: 'int', in: ['form'] },
  },
  columns: [
    { key: 'name', label: '姓名', width: 100, fixed: true },
    { key: 'areas_text', label: '负责楼栋/单元' },
    { key: 'house_count', label: '服务户数', width: 90 },
    { key: 'items_text', label: '考核项目与权重' },
    createTimeColumn('建档时间'),
  ],
});

export interface StewardHouse {
  hid: number;
  bid: number;
  tid: number;
  address: string;
  /** the owner's name, '' when none lives there */
  owner_name: string;
}

export interface StewardStaffOption {
  id: number;
  name: string;
  username: string;
  dept_title: string;
  /** the profile the account has already, or null */
  profile_id: number | null;
}

export interface StewardAreaBuilding {
  bid: number;
  title: string;
  units: Array<{ tid: number; title: string }>;
}

export const profileSchemas = {
  ...scoreItem.schemas,
  ...steward.schemas,
  stewardhouses: z.object({
    id,
    keyword: text(30).optional().default(''),
    page: int(1, 100000).default(1),
    limit: int(1, 200).default(10),
  }),
  steward_staff_small_list: z.object({}),
  steward_area_tree: z.object({}),
} as const;

export type ProfileOutputs = ResourceOutputs<typeof scoreItem.def, ScoreItemRow> &
  Omit<ResourceOutputs<typeof steward.def, StewardRow>, 'stewardinfo' | 'stewardexport'> & {
    stewardinfo: StewardDetail;
    stewardexport: ExportQueued;
    stewardhouses: { items: StewardHouse[]; total: number };
    steward_staff_small_list: { items: StewardStaffOption[] };
    steward_area_tree: { items: StewardAreaBuilding[] };
  };
