/**
 * 轮播图 of the group (/apply/bannerlist, /apply/banneradd, /apply/banneredit on the group side;
 * issue 45 "Owner app layout and content"): banners the head office shows in the owner app of all
 * its communities or of a chosen few: an image, a position (首页顶部, 服务页, 应用页, 我的), a link in
 * the community side's link format (APP_LINK_TYPE, `linkProblem`), a window of days, an order, on
 * or off, and the owner app's taps (`bannerclick`, through the app's gateway) counted. A community's
 * 首页 shows the group's banners for it before its own (`apphome`).
 */
import { z } from 'zod';
import { id, int, noControlChars, optionalId, yn } from '../common.js';
import { IMAGE_URL_PATTERN } from '../files.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { APP_LINK_TYPE, linkProblem } from '../mobilesys/content.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who keeps the group's banners: its head office. */
export const BANNER_ROLES = GROUP_LEADERS;

export const BANNER_POSITION = valueEnum({
  home: { text: '首页顶部' },
  service: { text: '服务页' },
  app: { text: '应用页' },
  mine: { text: '我的' },
});
export type BannerPosition = keyof typeof BANNER_POSITION;

/** The link types a group banner may use: a group's banner opens no community's article. */
export const BANNER_LINK_TYPES = ['none', 'service', 'h5', 'mini'] as const;
/** APP_LINK_TYPE's words without 图文详情 (a community's article). */
export const BANNER_LINK_TYPE = valueEnum({
  none: { text: APP_LINK_TYPE.none.text },
  service: { text: APP_LINK_TYPE.service.text },
  h5: { text: APP_LINK_TYPE.h5.text },
  mini: { text: APP_LINK_TYPE.mini.text },
});

export const BANNER_SCOPE = valueEnum({
  all: { text: '集团全部小区', tone: 'processing' },
  some: { text: '指定小区' },
});

export const BANNER_ENABLED = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** Computed as read: S before its window, P in it, X after it, N switched off. */
export const BANNER_STATUS = valueEnum({
  S: { text: '未开始', tone: 'processing' },
  P: { text: '展示中', tone: 'success' },
  X: { text: '已结束', tone: 'warning' },
  N: { text: '停用', tone: 'default' },
});
export type BannerStatus = keyof typeof BANNER_STATUS;

/** At most this many communities chosen for one banner. */
export const BANNER_REGIONS_MAX = 500;

export interface BannerItem {
  id: number;
  title: string;
  image: string;
  position: BannerPosition;
  position_ch: string;
  link_type: (typeof BANNER_LINK_TYPES)[number];
  link_type_ch: string;
  target: string;
  region_scope: 'all' | 'some';
  region_scope_ch: string;
  rids: number[];
  /** 集团全部小区, or the chosen communities' names */
  regions_text: string;
  start_date: string;
  end_date: string;
  sort: number;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  status: BannerStatus;
  status_ch: string;
  clicks: number;
  create_time: string;
}

export const banner = resource<BannerItem>()({
  name: 'banner',
  label: '轮播图',
  methods: { list: 'bannerlist', add: 'banneradd', edit: 'banneredit', del: 'bannerdel', info: 'bannerinfo' },
  roles: { read: BANNER_ROLES, write: BANNER_ROLES },
  owner: 'group',
  groupSide: true,
  echoId: true,
  fields: {
    title: {
      label: '标题',
      zod: noControlChars(z.string().trim().min(1, '请输入标题').max(40, '标题不能超过40个字')),
      in: ['form', 'table', 'filter'],
      fixed: true,
    },
    image: {
      label: '图片',
      zod: z.string({ error: '请上传图片' }).min(1, '请上传图片').regex(IMAGE_URL_PATTERN, '图片地址无效，请重新上传'),
      widget: 'custom',
      in: ['form', 'table'],
      width: 90,
      help: '建议 750×300',
    },
    position: {
      label: '位置',
      zod: z.enum(['home', 'service', 'app', 'mine'], { error: '位置取值不正确' }).default('home'),
      enum: BANNER_POSITION,
      widget: 'select',
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    link_type: {
      label: '跳转',
      zod: z.enum(BANNER_LINK_TYPES, { error: '跳转类型取值不正确' }).default('none'),
      enum: BANNER_LINK_TYPE,
      widget: 'select',
      in: ['form', 'table'],
      width: 90,
    },
    target: { label: '跳转目标', zod: z.string().trim().max(300, '跳转目标不能超过300个字符').default(''), widget: 'custom', in: ['form'] },
    region_scope: {
      label: '适用小区',
      zod: z.enum(['all', 'some'], { error: '适用小区取值不正确' }).default('all'),
      enum: BANNER_SCOPE,
      widget: 'radio',
      in: ['form'],
    },
    rids: {
      label: '指定小区',
      zod: z.array(id).max(BANNER_REGIONS_MAX, `最多选择${BANNER_REGIONS_MAX}个小区`).default([]),
      widget: { small: 'bannerregion_small_list', multiple: true },
      in: ['form'],
      shownWhen: { field: 'region_scope', values: ['some'] },
    },
    /** filter only: the banners a community shows (all of the group's, or those naming it) */
    region_id: {
      label: '小区',
      filterZod: optionalId,
      widget: { small: 'bannerregion_small_list' },
      in: ['filter'],
    },
    start_date: { label: '开始日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    end_date: { label: '结束日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70, help: '数字小的在前' },
    enabled: { label: '启用', zod: yn.default('Y'), enum: BANNER_ENABLED, widget: 'radio', in: ['form'] },
    status: {
      label: '状态',
      zod: z.enum(['S', 'P', 'X', 'N'], { error: '状态取值不正确' }),
      enum: BANNER_STATUS,
      in: ['table', 'filter'],
      width: 80,
    },
  },
  rules: [
    {
      check: (v) => !v.start_date || !v.end_date || String(v.end_date) >= String(v.start_date),
      message: '结束日期不能早于开始日期',
      path: 'end_date',
    },
    {
      check: (v) => v.region_scope !== 'some' || (Array.isArray(v.rids) && v.rids.length > 0),
      message: '请选择适用的小区',
      path: 'rids',
    },
    {
      check: (v) => v.link_type === 'none' || linkProblem(String(v.link_type ?? ''), String(v.target ?? '')) === null,
      message: '跳转目标不正确',
      path: 'target',
    },
  ],
  columns: [{ key: 'regions_text', label: '适用小区', width: 160 }, { key: 'clicks', label: '点击', width: 70 }, createTimeColumn()],
});

export const bannerSchemas = {
  ...banner.schemas,
  /** the group's communities, for the banner's and the catalogue's choices (id, title) */
  bannerregion_small_list: z.object({}),
  /** the owner app tapped a banner of the group (through the app's gateway): one click more */
  bannerclick: z.object({ id }),
} as const;

export type BannerOutputs = ResourceOutputs<typeof banner.def, BannerItem> & {
  bannerregion_small_list: { items: Array<{ id: number; title: string }> };
  bannerclick: { id: number; clicks: number; link_type: BannerItem['link_type']; target: string };
};
