/**
 * Claim links (领卡链接 /carpark/cardslink; docs/product.md#card-links) as a resource
 * (docs/resources.md): a link and its QR code that claim a member card or a coupon, each put out
 * through a channel (公众号菜单, 小区海报, 业主群, 前台…) so its claims count per link and per
 * channel. A link claimed through is stopped, not deleted. Staff claim on a member's behalf at the
 * counter (代领, `cardslinkclaim`). Beside it, the members' card import (`cardusimport`: cards with
 * their opening balances and points as opening ledger rows).
 */
import { z } from 'zod';
import { id, idempotencyKey, optionalId, text, yn } from '../common.js';
import { fileBase64, type FileAnswer } from '../files.js';
import { createTimeColumn, enumOrAll, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import type { ImportRowError } from '../structure.js';
import { cardNo } from './cards.js';
import { CARD_ROLES } from './roles.js';

export const CARD_LINK_KIND = valueEnum({
  card: { text: '会员卡', tone: 'processing' },
  coupon: { text: '优惠券', tone: 'warning' },
});
export type CardLinkKind = keyof typeof CARD_LINK_KIND;

export const CARD_LINK_STATUS = valueEnum({ Y: { text: '投放中', tone: 'success' }, N: { text: '已停止', tone: 'default' } });

/** The channels a link is usually put out through (the form suggests them; any other word is a channel too). */
export const CARD_LINK_CHANNELS = ['公众号菜单', '小区海报', '业主群', '前台'] as const;

/** The path of a link's claim page on the console's host (the owner app opens it). */
export const claimPath = (token: string) => `/claim/${token}`;

export interface CardLinkItem {
  id: number;
  kind: CardLinkKind;
  kind_ch: string;
  card_template_id: number | null;
  coupon_template_id: number | null;
  /** the card's or the coupon's name */
  target_name: string;
  channel: string;
  token: string;
  /** the claim address: PUBLIC_URL + /claim/<token>, or the path alone without PUBLIC_URL (the page adds its host) */
  url: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** claims through the link: in all and today */
  claims: number;
  claims_today: number;
  create_user: string;
  create_time: string;
}

export const cardLink = resource<CardLinkItem>()({
  name: 'cardslink',
  label: '领卡链接',
  methods: {
    list: 'cardslinklist',
    add: 'cardslinkadd',
    edit: 'cardslinkedit',
    del: 'cardslinkdel',
    export: 'cardslinkexport',
  },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.manage },
  echoId: true,
  sort: 'desc',
  fields: {
    kind: {
      label: '领取内容',
      zod: enumSchema(CARD_LINK_KIND, '领取内容').default('card'),
      enum: CARD_LINK_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      once: true,
      width: 90,
    },
    card_template_id: {
      label: '会员卡',
      zod: optionalId,
      widget: { small: 'cardtemplate_small_list' },
      in: ['form'],
      once: true,
    },
    coupon_template_id: {
      label: '优惠券',
      zod: optionalId,
      widget: { small: 'cards_small_list' },
      in: ['form'],
      once: true,
      help: '只有「会员领取」的优惠券可以投放链接',
    },
    channel: {
      label: '渠道',
      zod: text(20).min(1, '请填写渠道'),
      widget: 'custom',
      match: 'eq',
      in: ['form', 'table', 'filter', 'export'],
      width: 110,
      help: '如 公众号菜单、小区海报、业主群、前台；领取按渠道统计',
    },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: CARD_LINK_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
      help: '已停止的链接不能再领取；已有领取的链接不能删除，请停止',
    },
    remark: { label: '备注', zod: text(100).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'target_name', label: '领取对象', width: 150 },
    { key: 'claims', label: '领取总数', width: 90 },
    { key: 'claims_today', label: '今日领取', width: 90 },
    { key: 'url', label: '领取链接', in: ['export'] },
    { key: 'create_user', label: '创建人', in: ['export'] },
    createTimeColumn('创建时间', { in: ['export'] }),
  ],
  rules: [
    { message: '请选择会员卡', path: 'card_template_id', check: (v) => v.kind !== 'card' || !!v.card_template_id },
    { message: '请选择优惠券', path: 'coupon_template_id', check: (v) => v.kind !== 'coupon' || !!v.coupon_template_id },
  ],
});

/** What a claim gave: the card opened or the coupon given. */
export interface CardLinkClaimAnswer {
  claim_id: number;
  kind: CardLinkKind;
  member_id: number;
  card_id: number | null;
  card_no: string;
  coupon_id: number | null;
  coupon_code: string;
  /** the link's counts after it */
  claims: number;
  claims_today: number;
}

/** A channel's links and claims (the page's summary), in all and today. */
export interface CardLinkChannelRow {
  channel: string;
  links: number;
  claims: number;
  claims_today: number;
}

/** The members' card import: its workbook's columns, in order. */
export const CARD_IMPORT_HEADERS = ['卡号', '会员卡', '姓名', '手机号', '会员等级', '标签', '期初余额', '期初积分'] as const;
export const CARD_IMPORT_MAX_ROWS = 2000;

export interface CardImportResult {
  /** cards opened, members added (the others found by their mobile) */
  cards: number;
  members_added: number;
  /** the opening balances' and points' totals written as opening rows */
  opening_balance: string;
  opening_points: number;
  errors: ImportRowError[];
}

export const cardLinkSchemas = {
  ...cardLink.schemas,
  /** 代领: staff claim through a link on a member's behalf (a card opened, or a coupon given) */
  cardslinkclaim: z.object({
    token: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{22,64}$/, '领取链接不正确'),
    member_id: id,
    /** a card link: the card's number (default: a free one) */
    card_no: z
      .union([z.literal(''), cardNo])
      .optional()
      .transform((v) => v || undefined),
    idempotency_key: idempotencyKey.optional(),
  }),
  cardslinkchannels: z.object({ kind: enumOrAll(CARD_LINK_KIND, '领取内容').optional() }),
  cardusimporttemplate: z.object({}),
  cardusimport: z.object({ filename: text(200).min(1, '请选择文件'), file_base64: fileBase64 }),
  cardusimporterrors: z.object({ job_id: id }),
} as const;

export type CardLinkOutputs = ResourceOutputs<typeof cardLink.def, CardLinkItem> & {
  cardslinkclaim: CardLinkClaimAnswer;
  cardslinkchannels: { items: CardLinkChannelRow[] };
  cardusimporttemplate: FileAnswer;
  cardusimport: { job_id: number };
  cardusimporterrors: FileAnswer;
};
