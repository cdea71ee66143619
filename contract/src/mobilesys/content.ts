/**
 * The owner app's content (/mobilesys: graphiclist, graphicadd, graphicedit, menuadd, menuedit;
 * docs/product.md#owner-app): articles, banners and notice-board posts with a publish window, and
 * the menu entries of the app's home, described as resources (docs/resources.md). What the app
 * shows (`apphome`) is read from them and from the services the community offers (apply.ts).
 */
import { z } from 'zod';
import { id, int, noControlChars, text, yn } from '../common.js';
import { imageUrl } from '../files.js';
import { createTimeColumn, optionalDay, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { APP_SERVICE_CODES } from './apply.js';
import { MOBILESYS_ROLES } from './roles.js';

export const GRAPHIC_KIND = valueEnum({
  article: { text: '文章', tone: 'processing' },
  banner: { text: '轮播图', tone: 'success' },
  notice: { text: '公示', tone: 'warning' },
});
/** Where a banner shows (articles and posts list on the home's news). */
export const GRAPHIC_PLACEMENT = valueEnum({
  home: { text: '首页顶部' },
  service: { text: '服务页' },
  mine: { text: '我的' },
  launch: { text: '启动页' },
});
/** What a tap opens. */
export const APP_LINK_TYPE = valueEnum({
  none: { text: '不跳转' },
  service: { text: '内置功能' },
  article: { text: '图文详情' },
  h5: { text: 'H5链接' },
  mini: { text: '小程序' },
});
/** Stored D, P, W; S (待上线) and X (已下线) are a published row before or after its window, computed as read. */
export const GRAPHIC_STATUS = valueEnum({
  D: { text: '草稿', tone: 'default' },
  S: { text: '待上线', tone: 'processing' },
  P: { text: '已上线', tone: 'success' },
  X: { text: '已下线', tone: 'warning' },
  W: { text: '已撤回', tone: 'error' },
});
export type GraphicStatus = keyof typeof GRAPHIC_STATUS;

export const MENU_POSITION = valueEnum({
  grid: { text: '首页金刚区' },
  service: { text: '服务页' },
  mine: { text: '我的' },
  tabbar: { text: '底部导航' },
});
export const MENU_BADGE = valueEnum({ '': { text: '无' }, new: { text: '新', tone: 'success' }, hot: { text: '热', tone: 'error' } });
export const MENU_AUDIENCE = valueEnum({ all: { text: '全部用户' }, owner: { text: '已认证业主' }, tenant: { text: '租户' } });
export const MENU_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
/** The icons a menu entry may show (the app draws them; antd names in the console's preview). */
export const MENU_ICON = valueEnum({
  ToolOutlined: { text: '报修' },
  MessageOutlined: { text: '投诉' },
  WalletOutlined: { text: '缴费' },
  TeamOutlined: { text: '访客' },
  CalendarOutlined: { text: '活动' },
  NotificationOutlined: { text: '公告' },
  CarOutlined: { text: '停车' },
  KeyOutlined: { text: '门禁' },
  CreditCardOutlined: { text: '会员卡' },
  ThunderboltOutlined: { text: '充电' },
  ShopOutlined: { text: '商城' },
  PhoneOutlined: { text: '电话' },
  HomeOutlined: { text: '房屋' },
  ReadOutlined: { text: '资讯' },
  AppstoreOutlined: { text: '更多' },
});

/** The bottom bar holds two to five entries (the app's layout). */
export const TABBAR_MAX = 5;
/** More banners than this online at one placement are allowed, with a warning (the app shows the first ones). */
export const BANNERS_PER_PLACEMENT = 5;

export const HTTPS_RE = /^https:\/\/[^\s]+$/;
/** A mini program's address: its appid, a colon, a page path (wx1234567890abcdef:pages/index/index). */
export const MINI_RE = /^wx[0-9a-f]{16}:[A-Za-z0-9_\-/.?=&]+$/;

/** What an address of each link type must be, and the refusal's words. */
const LINK_TESTS: Array<{ type: string; test: (target: string) => boolean; message: string }> = [
  { type: 'service', test: (t) => (APP_SERVICE_CODES as readonly string[]).includes(t), message: '请选择内置功能' },
  { type: 'article', test: (t) => /^[1-9]\d{0,17}$/.test(t), message: '请选择图文' },
  { type: 'h5', test: (t) => HTTPS_RE.test(t), message: 'H5链接须以 https:// 开头' },
  { type: 'mini', test: (t) => MINI_RE.test(t), message: '小程序地址格式为 appid:页面路径，如 wx1234567890abcdef:pages/index/index' },
];

/** Why `target` is no address of `type` (none: null). */
export function linkProblem(type: string, target: string): string | null {
  const t = LINK_TESTS.find((x) => x.type === type);
  return t && !t.test(target) ? t.message : null;
}

/** The form's rules of a link: one a type, with its own words, on the field holding the address. */
const linkRules = (typeField: string, targetField: string) =>
  LINK_TESTS.map((t) => ({
    check: (v: Record<string, unknown>) => v[typeField] !== t.type || t.test(String(v[targetField] ?? '')),
    message: t.message,
    path: targetField,
  }));

export interface GraphicItem {
  id: number;
  title: string;
  kind: keyof typeof GRAPHIC_KIND;
  kind_ch: string;
  cover: string;
  summary: string;
  body: string;
  link_type: keyof typeof APP_LINK_TYPE;
  link_type_ch: string;
  link: string;
  placement: keyof typeof GRAPHIC_PLACEMENT;
  placement_ch: string;
  sort: number;
  online_date: string;
  offline_date: string;
  /** stored status with the window applied (S 待上线, X 已下线) */
  status: GraphicStatus;
  status_ch: string;
  views: number;
  publisher: string;
  publish_time: string;
  creator: string;
  create_time: string;
}

export const graphic = resource<GraphicItem>()({
  name: 'graphic',
  label: '图文',
  methods: { list: 'graphiclist', add: 'graphicadd', edit: 'graphicedit', del: 'graphicdel', info: 'graphicinfo', export: 'graphicexport' },
  roles: { read: MOBILESYS_ROLES.content, write: MOBILESYS_ROLES.content },
  echoId: true,
  fields: {
    title: {
      label: '标题',
      zod: noControlChars(z.string().trim().min(1, '请输入标题').max(40, '标题不能超过40个字')),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
    },
    kind: {
      label: '类型',
      zod: z.enum(['article', 'banner', 'notice'], { error: '类型取值不正确' }),
      enum: GRAPHIC_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    cover: {
      label: '封面',
      zod: z.union([imageUrl, z.literal('')]).default(''),
      widget: 'custom',
      in: ['form', 'table'],
      width: 90,
      help: '轮播图必填，建议 750×300；文章可选',
    },
    summary: { label: '摘要', zod: text(100).optional().default(''), widget: 'textarea', in: ['form'] },
    body: {
      label: '正文',
      zod: z.string().max(60_000, '正文太长，请精简').default(''),
      widget: 'custom',
      in: ['form'],
      help: '文章、公示必填；轮播图可不填（点击跳转到下方目标）',
    },
    link_type: {
      label: '跳转',
      zod: z.enum(['none', 'service', 'article', 'h5', 'mini'], { error: '跳转类型取值不正确' }).default('none'),
      enum: APP_LINK_TYPE,
      widget: 'select',
      in: ['form', 'table'],
      width: 90,
    },
    link: { label: '跳转目标', zod: text(300).optional().default(''), widget: 'custom', in: ['form'] },
    placement: {
      label: '位置',
      zod: z.enum(['home', 'service', 'mine', 'launch'], { error: '位置取值不正确' }).default('home'),
      enum: GRAPHIC_PLACEMENT,
      widget: 'select',
      width: 90,
      help: '轮播图的展示位置',
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70, help: '数字小的在前' },
    online_date: { label: '上线日期', zod: wireDay, widget: 'date', width: 110 },
    offline_date: { label: '下线日期', zod: optionalDay, widget: 'date', width: 110, help: '不填则一直展示，直到撤回' },
    status: {
      label: '状态',
      zod: z.enum(['D', 'S', 'P', 'X', 'W'], { error: '状态取值不正确' }),
      enum: GRAPHIC_STATUS,
      in: ['table', 'filter', 'export'],
      width: 80,
    },
  },
  rules: [
    {
      check: (v) => !v.offline_date || !v.online_date || String(v.offline_date) >= String(v.online_date),
      message: '下线日期不能早于上线日期',
      path: 'offline_date',
    },
    { check: (v) => v.kind !== 'banner' || !!v.cover, message: '轮播图请上传封面', path: 'cover' },
    ...linkRules('link_type', 'link'),
  ],
  columns: [{ key: 'views', label: '阅读', width: 70 }, { key: 'publisher', label: '发布人', width: 90 }, createTimeColumn()],
});

export interface MenuItem {
  id: number;
  title: string;
  icon: keyof typeof MENU_ICON;
  icon_ch: string;
  position: keyof typeof MENU_POSITION;
  position_ch: string;
  link_type: 'service' | 'article' | 'h5' | 'mini';
  link_type_ch: string;
  target: string;
  badge: '' | 'new' | 'hot';
  badge_ch: string;
  audience: keyof typeof MENU_AUDIENCE;
  audience_ch: string;
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  /** a built-in function the community does not offer hides the entry (/apply) */
  hidden_reason: string;
  create_time: string;
}

export const appMenu = resource<MenuItem>()({
  name: 'appmenu',
  label: '菜单',
  methods: { list: 'appmenulist', add: 'appmenuadd', edit: 'appmenuedit', del: 'appmenudel', info: 'appmenuinfo' },
  roles: { read: MOBILESYS_ROLES.content, write: MOBILESYS_ROLES.content },
  echoId: true,
  fields: {
    title: {
      label: '名称',
      zod: noControlChars(z.string().trim().min(1, '请输入菜单名称').max(6, '菜单名称不超过6个字（图标下放得下）')),
      in: ['form', 'table', 'filter'],
      fixed: true,
    },
    icon: {
      label: '图标',
      zod: z.enum(Object.keys(MENU_ICON) as [string, ...string[]], { error: '请选择图标' }),
      enum: MENU_ICON,
      widget: 'custom',
      in: ['form', 'table'],
      width: 70,
    },
    position: {
      label: '位置',
      zod: z.enum(['grid', 'service', 'mine', 'tabbar'], { error: '位置取值不正确' }).default('grid'),
      enum: MENU_POSITION,
      widget: 'select',
      in: ['form', 'table', 'filter'],
      width: 100,
    },
    link_type: {
      label: '跳转',
      zod: z.enum(['service', 'article', 'h5', 'mini'], { error: '跳转类型取值不正确' }).default('service'),
      enum: APP_LINK_TYPE,
      widget: 'select',
      in: ['form', 'table'],
      width: 90,
    },
    target: { label: '跳转目标', zod: text(300).min(1, '请填写跳转目标'), widget: 'custom', in: ['form', 'table'] },
    badge: {
      label: '角标',
      zod: z.enum(['', 'new', 'hot'], { error: '角标取值不正确' }).default(''),
      enum: MENU_BADGE,
      widget: 'radio',
      in: ['form', 'table'],
      width: 60,
    },
    audience: {
      label: '可见对象',
      zod: z.enum(['all', 'owner', 'tenant'], { error: '可见对象取值不正确' }).default('all'),
      enum: MENU_AUDIENCE,
      widget: 'select',
      in: ['form', 'table'],
      width: 100,
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70, help: '数字小的在前' },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: MENU_STATUS, in: ['form', 'table', 'filter'], width: 80 },
  },
  rules: [
    { check: (v) => linkProblem(String(v.link_type ?? ''), String(v.target ?? '')) === null, message: '跳转目标不正确', path: 'target' },
  ],
  columns: [createTimeColumn()],
});

/** What the owner app's home shows on a day (the console's preview reads the same). */
export interface AppHome {
  date: string;
  audience: keyof typeof MENU_AUDIENCE;
  /**
   * the group's banners for the community first (its head office's, /apply/bannerlist: source
   * group, tapped through bannerclick), then the community's own (source community, graphicview)
   */
  banners: Array<Pick<GraphicItem, 'id' | 'title' | 'cover' | 'link_type' | 'link'> & { source: 'group' | 'community' }>;
  grid: AppHomeMenu[];
  tabbar: AppHomeMenu[];
  /**
   * the latest articles and posts: the group's pinned articles for the community first (its head
   * office's, /mobile/graphiclist: source group, read through groupgraphicview), then the group's
   * others and the community's own by day (source community, graphicview)
   */
  news: Array<
    Pick<GraphicItem, 'id' | 'title' | 'kind' | 'kind_ch' | 'cover' | 'summary' | 'online_date' | 'views'> & {
      source: 'group' | 'community';
    }
  >;
  /** things the preview warns of: too many banners, a bottom bar of one entry */
  warnings: string[];
}
export interface AppHomeMenu {
  id: number;
  title: string;
  icon: string;
  badge: '' | 'new' | 'hot';
  link_type: string;
  target: string;
}

export const contentSchemas = {
  ...graphic.schemas,
  ...appMenu.schemas,
  graphicpublish: z.object({ id }),
  graphicwithdraw: z.object({ id }),
  /** the owner app opened an article: one view more; answers it */
  graphicview: z.object({ id }),
  graphic_small_list: z.object({}),
  /** the home as the app shows it on `date` (today when absent) to an audience */
  apphome: z.object({
    date: z.union([z.literal(''), wireDay]).optional(),
    audience: z.enum(['all', 'owner', 'tenant'], { error: '可见对象取值不正确' }).default('owner'),
  }),
} as const;

export type ContentOutputs = ResourceOutputs<typeof graphic.def, GraphicItem> &
  ResourceOutputs<typeof appMenu.def, MenuItem> & {
    graphicpublish: { id: number; status: GraphicStatus; warning: string };
    graphicwithdraw: { id: number };
    graphicview: GraphicItem;
    graphic_small_list: { items: Array<{ id: number; title: string }> };
    apphome: AppHome;
  };
