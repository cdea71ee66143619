/**
 * 图文 of the group (/mobile/graphiclist, /mobile/graphicadd, /mobile/graphicedit on the group side;
 * SPEC "/mobile (graphic list/add/edit)", admin.md §4.3): articles the head office publishes in the
 * owner app of all its communities or of a chosen few. The content model is the community side's
 * (contract/src/mobilesys/content.ts: a cover, a summary, a body through the notices' allow-list, a
 * publish date), with a category, a pin, an external link instead of a body, and a scope. An owner
 * of a community sees the group's published articles for it beside the community's own (`apphome`,
 * the DIY pages' article list), the group's pinned ones first; the owner app's reads count
 * (`groupgraphicview`, through the app's gateway as `graphicview` is).
 */
import { z } from 'zod';
import { id, int, noControlChars, optionalId, text, yn } from '../common.js';
import { imageUrl } from '../files.js';
import { optionalDay, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { HTTPS_RE } from '../mobilesys/content.js';
import { GROUP_LEADERS } from '../structure/resources.js';
import { BANNER_REGIONS_MAX, BANNER_SCOPE } from './banners.js';

/** Who keeps the group's articles: its head office. */
export const LEADER_GRAPHIC_ROLES = GROUP_LEADERS;

/** The article's category: the group's dictionary may rename them (/setup/dict_list). */
export const LEADER_GRAPHIC_CATEGORY = valueEnum(
  {
    news: { text: '集团资讯' },
    notice: { text: '物业公告' },
    service: { text: '便民服务' },
    activity: { text: '社区活动' },
    policy: { text: '政策法规' },
  },
  { key: 'leader_graphic_category', name: '集团图文分类' },
);
export type LeaderGraphicCategory = keyof typeof LEADER_GRAPHIC_CATEGORY;
export const LEADER_GRAPHIC_CATEGORIES = ['news', 'notice', 'service', 'activity', 'policy'] as const;

/** Stored D (草稿), P (已发布), X (已下线); S (待发布) is a published one before its 定时发布 day, computed as read. */
export const LEADER_GRAPHIC_STATUS = valueEnum({
  D: { text: '草稿', tone: 'default' },
  S: { text: '待发布', tone: 'processing' },
  P: { text: '已发布', tone: 'success' },
  X: { text: '已下线', tone: 'warning' },
});
export type LeaderGraphicStatus = keyof typeof LEADER_GRAPHIC_STATUS;

export const LEADER_GRAPHIC_PINNED = valueEnum({ Y: { text: '置顶', tone: 'error' }, N: { text: '否', tone: 'default' } });

export interface LeaderGraphicItem {
  id: number;
  title: string;
  category: LeaderGraphicCategory;
  category_ch: string;
  cover: string;
  summary: string;
  body: string;
  /** an https address the app opens instead of a body */
  link: string;
  region_scope: 'all' | 'some';
  region_scope_ch: string;
  rids: number[];
  /** 全部小区, or the chosen communities' names */
  regions_text: string;
  /** 定时发布: shown from this day once published ('' at once) */
  online_date: string;
  pinned: 'Y' | 'N';
  pinned_ch: string;
  sort: number;
  status: LeaderGraphicStatus;
  status_ch: string;
  views: number;
  publish_time: string;
  publisher: string;
  create_time: string;
}

export const leaderGraphic = resource<LeaderGraphicItem>()({
  name: 'leadergraphic',
  label: '文章',
  methods: {
    list: 'leadergraphiclist',
    add: 'leadergraphicadd',
    edit: 'leadergraphicedit',
    del: 'leadergraphicdel',
    info: 'leadergraphicinfo',
  },
  roles: { read: LEADER_GRAPHIC_ROLES, write: LEADER_GRAPHIC_ROLES },
  owner: 'group',
  groupSide: true,
  echoId: true,
  fields: {
    /** filter only: the title or the summary holding the words */
    keyword: { label: '关键词', filterZod: text(40).optional(), in: ['filter'], placeholder: '标题或摘要' },
    cover: {
      label: '封面',
      zod: z.union([imageUrl, z.literal('')]).default(''),
      widget: 'custom',
      in: ['form', 'table'],
      width: 90,
      help: '建议 750×420',
    },
    title: {
      label: '标题',
      zod: noControlChars(z.string().trim().min(1, '请输入标题').max(64, '标题不能超过64个字')),
      in: ['form', 'table'],
      fixed: true,
    },
    category: {
      label: '分类',
      zod: z.enum(LEADER_GRAPHIC_CATEGORIES, { error: '请选择分类' }),
      enum: LEADER_GRAPHIC_CATEGORY,
      widget: 'select',
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    summary: { label: '摘要', zod: text(120).optional().default(''), widget: 'textarea', in: ['form'] },
    body: {
      label: '正文',
      zod: z.string().max(60_000, '正文太长，请精简').default(''),
      widget: 'custom',
      in: ['form'],
      help: '填写外链时可不填正文',
    },
    link: {
      label: '外链',
      zod: text(300).optional().default(''),
      in: ['form'],
      placeholder: 'https://',
      help: '可选：填写后业主点开文章即打开该链接，代替正文',
    },
    region_scope: {
      label: '发布范围',
      zod: z.enum(['all', 'some'], { error: '发布范围取值不正确' }).default('all'),
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
    /** filter only: the articles a community shows (the whole group's, or those naming it) */
    region_id: { label: '小区', filterZod: optionalId, widget: { small: 'bannerregion_small_list' }, in: ['filter'] },
    online_date: {
      label: '定时发布',
      zod: optionalDay,
      widget: 'date',
      in: ['form'],
      help: '不填则发布后立即展示；填写则发布后从该日起展示',
    },
    pinned: { label: '置顶', zod: yn.default('N'), enum: LEADER_GRAPHIC_PINNED, widget: 'radio', in: ['form', 'table'], width: 70 },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70, help: '数字小的在前' },
    status: {
      label: '状态',
      zod: z.enum(['D', 'S', 'P', 'X'], { error: '状态取值不正确' }),
      enum: LEADER_GRAPHIC_STATUS,
      in: ['table', 'filter'],
      width: 80,
    },
  },
  rules: [
    { check: (v) => v.region_scope !== 'some' || (Array.isArray(v.rids) && v.rids.length > 0), message: '请选择发布的小区', path: 'rids' },
    { check: (v) => !v.link || HTTPS_RE.test(String(v.link)), message: '外链须以 https:// 开头', path: 'link' },
    {
      check: (v) => !!v.link || !!String(v.body ?? '').trim(),
      message: '请填写正文，或填写外链',
      path: 'body',
    },
  ],
  columns: [
    { key: 'regions_text', label: '发布范围', width: 160 },
    { key: 'views', label: '阅读数', width: 70 },
    { key: 'publish_time', label: '发布时间', width: 160 },
    { key: 'publisher', label: '发布人', width: 90 },
  ],
});

export const leaderGraphicSchemas = {
  ...leaderGraphic.schemas,
  /** publish a draft or a withdrawn one, or take a published one off (下线) */
  leadergraphicpublish: z.object({ id, action: z.enum(['publish', 'withdraw'], { error: '操作取值不正确' }) }),
  /** the owner app opened a group article shown in its community: one read more; answers it */
  groupgraphicview: z.object({ id }),
} as const;

/** A group article as a community's owner app lists it. */
export interface GroupArticle {
  id: number;
  title: string;
  cover: string;
  summary: string;
  category_ch: string;
  link: string;
  pinned: 'Y' | 'N';
  /** the day it shows from */
  date: string;
  views: number;
}

export type LeaderGraphicOutputs = ResourceOutputs<typeof leaderGraphic.def, LeaderGraphicItem> & {
  leadergraphicpublish: { id: number; status: LeaderGraphicStatus };
  groupgraphicview: LeaderGraphicItem;
};
