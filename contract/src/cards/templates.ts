/**
 * Member card templates (会员卡设置, /carpark/cardinfo; docs/product.md#member-cards) as a resource
 * (docs/resources.md): the card's face (name, colour, notice, description), its validity, what a
 * member fills in to activate it, the member discount, whether it carries points and a balance, and
 * the points rules: earned per yuan spent with a cap per order; redeemed N points for M yuan with a
 * minimum order and a maximum per order; expiry never, at the end of the next year, or N months
 * rolling (the earliest to expire used first).
 */
import { z } from 'zod';
import { int, text, yn } from '../common.js';
import { createTimeColumn, enumSchema, optionalDay, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { money } from '../money.js';
import { CARD_ROLES } from './roles.js';

export const CARD_VALIDITY = valueEnum({
  forever: { text: '永久有效', tone: 'success' },
  range: { text: '固定日期', tone: 'processing' },
  days: { text: '领取后N天', tone: 'warning' },
});
export type CardValidity = keyof typeof CARD_VALIDITY;

export const POINTS_EXPIRY = valueEnum({
  never: { text: '永不过期' },
  next_year_end: { text: '次年年底清零' },
  rolling: { text: '滚动N个月' },
});
export type PointsExpiry = keyof typeof POINTS_EXPIRY;

/** What a member fills in to activate a card (mobile and name always). */
export const ACTIVATION_FIELD = valueEnum({
  mobile: { text: '手机号' },
  name: { text: '姓名' },
  birthday: { text: '生日' },
  id_card: { text: '身份证号' },
});
export type ActivationField = keyof typeof ACTIVATION_FIELD;

export const CARD_TEMPLATE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const SUPPLY = valueEnum({ Y: { text: '支持', tone: 'success' }, N: { text: '不支持', tone: 'default' } });

const optionalCount = (max: number) =>
  z
    .union([z.literal(''), z.null(), int(1, max)])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v));

export interface CardTemplateItem {
  id: number;
  name: string;
  color: string;
  notice: string;
  description: string;
  validity: CardValidity;
  validity_ch: string;
  valid_start: string | null;
  valid_end: string | null;
  valid_days: number | null;
  /** 有效期: the validity as words (永久有效, 2026-01-01 至 2026-12-31, 领取后 365 天) */
  validity_text: string;
  activation: ActivationField[];
  /** the share of the price a member pays, in percent: 100 none, 95 九五折 */
  discount: number;
  supply_bonus: 'Y' | 'N';
  supply_bonus_ch: string;
  supply_balance: 'Y' | 'N';
  supply_balance_ch: string;
  earn_per_yuan: number;
  earn_cap: number;
  redeem_points: number;
  redeem_money: string;
  redeem_min_order: string;
  redeem_max_points: number;
  expiry: PointsExpiry;
  expiry_ch: string;
  expiry_months: number | null;
  /** 积分规则: the earning and redeeming rules as words */
  points_text: string;
  status: 'Y' | 'N';
  status_ch: string;
  create_time: string;
}

const colour = z
  .string()
  .trim()
  .regex(/^#[0-9A-Fa-f]{6}$/, '卡面颜色应为 #RRGGBB')
  .default('#C9A45C');

export const cardTemplate = resource<CardTemplateItem>()({
  name: 'cardtemplate',
  label: '会员卡',
  methods: {
    list: 'cardtemplatelist',
    add: 'cardtemplateadd',
    edit: 'cardtemplateedit',
    del: 'cardtemplatedel',
    small: 'cardtemplate_small_list',
    export: 'cardtemplateexport',
  },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.manage },
  fields: {
    name: {
      label: '会员卡名称',
      zod: text(12).min(1, '请输入会员卡名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 140,
      placeholder: '如 幸福里会员卡',
    },
    color: { label: '卡面颜色', zod: colour, in: ['form'], placeholder: '#C9A45C', help: '卡面的底色，#RRGGBB' },
    notice: { label: '使用提醒', zod: text(16).default(''), in: ['form', 'export'], placeholder: '如 结账时出示会员卡' },
    description: { label: '使用说明', zod: text(1024).default(''), widget: 'textarea', in: ['form'] },
    validity: {
      label: '有效期',
      zod: enumSchema(CARD_VALIDITY, '有效期').default('forever'),
      enum: CARD_VALIDITY,
      widget: 'radio',
      in: ['form', 'filter'],
    },
    valid_start: { label: '开始日期', zod: optionalDay, widget: 'date', in: ['form'], help: '固定日期：卡在这段日期内可用' },
    valid_end: { label: '结束日期', zod: optionalDay, widget: 'date', in: ['form'] },
    valid_days: { label: '有效天数', zod: optionalCount(3650), widget: 'int', in: ['form'], help: '领取后N天：自开卡之日起可用的天数' },
    activation: {
      label: '激活信息',
      zod: z
        .array(enumSchema(ACTIVATION_FIELD, '激活信息'))
        .max(4)
        .default(['mobile', 'name'])
        .transform((v) => [...new Set<ActivationField>(['mobile', 'name', ...v])]),
      enum: ACTIVATION_FIELD,
      widget: 'custom',
      in: ['form'],
      help: '开卡时会员须填写的信息（手机号和姓名总是必填）',
    },
    discount: {
      label: '会员折扣(%)',
      zod: int(0, 1000)
        .refine((v) => v >= 1 && v <= 100, '会员折扣应为 1 到 100')
        .default(100),
      widget: 'int',
      in: ['form', 'table', 'export'],
      width: 100,
      help: '会员按此比例付款：100 为不打折，95 为九五折',
    },
    supply_bonus: {
      label: '积分',
      zod: yn.default('Y'),
      enum: SUPPLY,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    supply_balance: {
      label: '储值',
      zod: yn.default('Y'),
      enum: SUPPLY,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    earn_per_yuan: { label: '每消费1元得积分', zod: int(0, 100).default(1), widget: 'int', in: ['form'] },
    earn_cap: { label: '单笔最多得积分', zod: int(0, 1_000_000).default(0), widget: 'int', in: ['form'], help: '0 为不限' },
    redeem_points: {
      label: '抵扣所需积分',
      zod: int(0, 1_000_000).default(100),
      widget: 'int',
      in: ['form'],
      help: '每多少积分抵扣下面的金额；0 为积分不能抵扣',
    },
    redeem_money: { label: '积分抵扣金额(元)', zod: money.default('1.00'), widget: 'money', in: ['form'] },
    redeem_min_order: { label: '订单满(元)可用积分', zod: money.default('0.00'), widget: 'money', in: ['form'], help: '0 为不限' },
    redeem_max_points: { label: '单笔最多用积分', zod: int(0, 1_000_000).default(0), widget: 'int', in: ['form'], help: '0 为不限' },
    expiry: {
      label: '积分有效期',
      zod: enumSchema(POINTS_EXPIRY, '积分有效期').default('never'),
      enum: POINTS_EXPIRY,
      widget: 'radio',
      in: ['form', 'export'],
    },
    expiry_months: {
      label: '滚动月数',
      zod: optionalCount(120),
      widget: 'int',
      in: ['form'],
      help: '滚动N个月：每笔积分自获得起N个月后过期，先到期的先用',
    },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: CARD_TEMPLATE_STATUS,
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
  },
  columns: [
    { key: 'validity_text', label: '有效期', width: 200, in: ['table', 'export'] },
    { key: 'points_text', label: '积分规则', width: 260, in: ['table', 'export'] },
    createTimeColumn(),
  ],
  rules: [
    {
      check: (v) => v.validity !== 'range' || (typeof v.valid_start === 'string' && typeof v.valid_end === 'string'),
      message: '固定日期的会员卡须填写开始和结束日期',
      path: 'valid_end',
    },
    {
      check: (v) => v.validity !== 'range' || String(v.valid_start) <= String(v.valid_end),
      message: '结束日期不能早于开始日期',
      path: 'valid_end',
    },
    {
      check: (v) => v.validity !== 'days' || typeof v.valid_days === 'number',
      message: '领取后N天的会员卡须填写有效天数',
      path: 'valid_days',
    },
    {
      check: (v) => v.supply_bonus !== 'Y' || v.expiry !== 'rolling' || typeof v.expiry_months === 'number',
      message: '滚动过期须填写月数',
      path: 'expiry_months',
    },
    {
      check: (v) => v.supply_bonus !== 'Y' || Number(v.redeem_points) === 0 || Number(v.redeem_money) > 0,
      message: '积分抵扣金额须大于0',
      path: 'redeem_money',
    },
  ],
});

export const cardTemplateSchemas = { ...cardTemplate.schemas } as const;
export type CardTemplateOutputs = ResourceOutputs<typeof cardTemplate.def, CardTemplateItem>;
