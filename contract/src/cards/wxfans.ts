/**
 * The official account's followers (公众号粉丝, /carpark/wxfanslist; docs/product.md#wx-followers):
 * open id, union id, subscribed or not and since when, how they came (scene, the QR code's
 * channel), our remark, tags, and the owner a follower is bound to. They come from the WeChat
 * platform (wxfanssync, through the WeChat provider, a sandbox until one is set up); binding one to
 * an owner sets the owner's `wx_isbind`. Since 2021-12-27 the platform gives no nickname or avatar:
 * the list shows 未授权 where we have none.
 */
import { z } from 'zod';
import { id, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { CARD_ROLES } from './roles.js';

export const WX_SUBSCRIBED = valueEnum({ Y: { text: '已关注', tone: 'success' }, N: { text: '已取消关注', tone: 'default' } });
export const WX_BOUND = valueEnum({ Y: { text: '已绑定', tone: 'processing' }, N: { text: '未绑定', tone: 'default' } });

/** How a follower came (the platform's subscribe_scene). */
export const WX_SCENE = valueEnum({
  ADD_SCENE_SEARCH: { text: '公众号搜索' },
  ADD_SCENE_ACCOUNT_MIGRATION: { text: '公众号迁移' },
  ADD_SCENE_PROFILE_CARD: { text: '名片分享' },
  ADD_SCENE_QR_CODE: { text: '扫描二维码' },
  ADD_SCENE_PROFILE_LINK: { text: '图文页内名称点击' },
  ADD_SCENE_PROFILE_ITEM: { text: '图文页右上角菜单' },
  ADD_SCENE_PAID: { text: '支付后关注' },
  ADD_SCENE_WECHAT_ADVERTISEMENT: { text: '微信广告' },
  ADD_SCENE_REPRINT: { text: '他人转载' },
  ADD_SCENE_LIVESTREAM: { text: '视频号直播' },
  ADD_SCENE_CHANNELS: { text: '视频号' },
  ADD_SCENE_WXA: { text: '小程序关注' },
  ADD_SCENE_OTHERS: { text: '其他' },
});

/** What the list shows where the platform gave no nickname (and we have none of our own sign-ins). */
export const WX_UNAUTHORIZED = '未授权';

export interface WxFanItem {
  id: number;
  openid: string;
  unionid: string;
  /** null: the platform no longer gives it (未授权) */
  nickname: string | null;
  avatar: string | null;
  subscribed: 'Y' | 'N';
  subscribed_ch: string;
  subscribe_time: string;
  scene: string;
  scene_ch: string;
  /** the QR code's scene string the follower came through ('' none) */
  channel: string;
  remark: string;
  tags: string[];
  bound: 'Y' | 'N';
  bound_ch: string;
  member_id: number | null;
  /** the bound owner's name, mobile (masked as every owner's) and houses ('' none) */
  realname: string;
  mobile: string;
  address: string;
  bound_time: string;
  synced_time: string;
  create_time: string;
}

export const wxFan = resource<WxFanItem>()({
  name: 'wxfan',
  label: '粉丝',
  methods: { list: 'wxfanslist', export: 'wxfansexport' },
  // writes: syncing, remarks and binding to owners: the card staff, never a merchant account
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.staff },
  sort: 'desc',
  fields: {
    openid: { label: 'OpenID', in: ['table', 'filter', 'export'], width: 240, placeholder: 'OpenID 或 UnionID' },
    subscribed: {
      label: '关注状态',
      enum: WX_SUBSCRIBED,
      zod: yn,
      in: ['table', 'filter', 'export'],
      width: 100,
    },
    realname: { label: '绑定业主', in: ['table', 'export'], width: 130 },
    address: { label: '业主房屋', in: ['table', 'export'], width: 170 },
    bound: { label: '绑定业主', enum: WX_BOUND, zod: yn, in: ['filter'] },
    channel: { label: '渠道', in: ['table', 'filter', 'export'], width: 100, placeholder: '二维码渠道' },
    subscribe_time: { label: '关注时间', widget: 'dateRange', in: ['table', 'filter', 'export'], width: 170 },
  },
  columns: [
    { key: 'scene', label: '关注来源', enum: WX_SCENE, width: 120, in: ['table', 'export'] },
    { key: 'tags', label: '标签', width: 150, in: ['table', 'export'] },
    { key: 'remark', label: '备注', width: 120, in: ['table', 'export'] },
    { key: 'unionid', label: 'UnionID', width: 150, in: ['table', 'export'] },
    { key: 'nickname', label: '昵称', in: ['export'] },
    createTimeColumn('首次同步', { in: ['export'] }),
  ],
});

/** A sync's figures, as its answer and its message say them. */
export interface WxFanSyncResult {
  /** 'sandbox' until a real account is set up */
  provider: string;
  /** followers the platform lists now */
  total: number;
  added: number;
  updated: number;
  /** known followers the platform no longer lists: marked 已取消关注 */
  unsubscribed: number;
}

export const wxFanSchemas = {
  ...wxFan.schemas,
  wxfanssync: z.object({}),
  wxfansbind: z.object({ id, member_id: id }),
  wxfansunbind: z.object({ id }),
  /** the platform keeps remarks of at most 30 characters */
  wxfansremark: z.object({ id, remark: text(30).default('') }),
} as const;

export type WxFanOutputs = ResourceOutputs<typeof wxFan.def, WxFanItem> & {
  wxfanssync: WxFanSyncResult;
  wxfansbind: WxFanItem;
  wxfansunbind: WxFanItem;
  wxfansremark: WxFanItem;
};
