/**
 * The points mall (积分商城: /carpark/shopmall, /carpark/goods, /carpark/catelist,
 * /carpark/mallorderlist; docs/product.md#member-cards): the community's mall settings, two-level
 * categories and goods with their specifications as resources (docs/resources.md), and the members'
 * orders: a redemption takes the member's points and the specification's stock in one transaction;
 * an order moves 待发货/待自提 → 已发货 → 已完成 as a workflow, and a cancelled one gives both back.
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, text, yn } from '../common.js';
import { photoList } from '../files.js';
import { createTimeColumn, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { moneyUpTo, MAX_BILL_FEN } from '../money.js';
import { MOBILE_RE } from '../owners.js';
import type { SmallItem } from '../structure.js';
import { CARD_ROLES } from './roles.js';

// ---- settings ---------------------------------------------------------------------------------

export const MALL_SWITCH = valueEnum({ Y: { text: '开启', tone: 'success' }, N: { text: '关闭', tone: 'default' } });

export interface MallSettings {
  enabled: 'Y' | 'N';
  name: string;
  /** what a point is worth, for display: this many points make one yuan */
  points_per_yuan: number;
  /** picked up at the property office */
  pickup: 'Y' | 'N';
  /** delivered to the member's address */
  delivery: 'Y' | 'N';
  pickup_address: string;
  pickup_hours: string;
  notice: string;
  /** '' until the settings are first saved */
  update_time: string;
}

export const mallSettingsSchema = z
  .object({
    enabled: yn.default('N'),
    name: text(20).min(1, '请输入商城名称').default('积分商城'),
    points_per_yuan: int(1, 100_000).default(100),
    pickup: yn.default('Y'),
    delivery: yn.default('N'),
    pickup_address: text(100).default(''),
    pickup_hours: text(50).default(''),
    notice: text(500).default(''),
  })
  .refine((v) => v.pickup === 'Y' || v.delivery === 'Y', { message: '请至少选择一种领取方式（到物业自提或配送）', path: ['pickup'] })
  .refine((v) => v.pickup !== 'Y' || v.pickup_address !== '', { message: '到物业自提须填写自提地点', path: ['pickup_address'] });

// ---- categories ---------------------------------------------------------------------------------

export interface MallCategoryItem {
  id: number;
  /** null for a top-level category */
  parent_id: number | null;
  parent_name: string;
  name: string;
  sort: number;
  /** goods of this category itself */
  goods_count: number;
  create_time: string;
}

export const mallCategory = resource<MallCategoryItem>()({
  name: 'mallcate',
  label: '商品分类',
  methods: { list: 'catelist', add: 'cateadd', edit: 'cateedit', del: 'catedel', small: 'cate_small_list' },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.mall },
  fields: {
    name: {
      label: '分类名称',
      zod: text(20).min(1, '请输入分类名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      width: 200,
      placeholder: '如 生活用品',
    },
    parent_id: {
      label: '上级分类',
      zod: optionalId.transform((v) => v ?? null),
      widget: 'custom',
      in: ['form'],
      help: '不选为一级分类；分类最多两级',
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 80, help: '数字小的在前' },
  },
  columns: [
    { key: 'goods_count', label: '商品数', width: 90 },
    { key: 'create_time', label: '创建时间', width: 170 },
  ],
});

// ---- goods ------------------------------------------------------------------------------------

export const GOODS_STATUS = valueEnum({ Y: { text: '上架', tone: 'success' }, N: { text: '下架', tone: 'default' } });

/** One specification of a goods (规格): its reference price, the points one takes, its stock. */
export interface GoodsSpec {
  id: number;
  name: string;
  price: string;
  points: number;
  stock: number;
  /** redeemed in orders not cancelled */
  sold: number;
}

export interface GoodsItem {
  id: number;
  category_id: number;
  /** 生活用品 / 纸品 */
  category_name: string;
  name: string;
  images: string[];
  description: string;
  specs: GoodsSpec[];
  /** 100 积分, or 100~300 积分 over the specifications */
  points_text: string;
  stock: number;
  sold: number;
  limit_per_member: number;
  status: 'Y' | 'N';
  status_ch: string;
  sort: number;
  create_time: string;
}

export const MALL_MAX_SPECS = 20;

/** A whole number of a specification's cell, refused in the cell's words (兑换积分不能小于1). */
const specCount = (label: string, min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,9}$/)
          .transform(Number),
      ],
      { error: `请输入${label}` },
    )
    .pipe(z.number().int(`${label}应为整数`).min(min, `${label}不能小于${min}`).max(max, `${label}不能大于${max}`));

/** The specifications of a goods as the form gives them: an id for one kept, none for a new one. */
export const goodsSpecs = z
  .array(
    z.object({
      id: optionalId,
      name: text(20).min(1, '请输入规格名称'),
      price: moneyUpTo(MAX_BILL_FEN).default('0.00'),
      points: specCount('兑换积分', 1, 10_000_000),
      stock: specCount('库存', 0, 1_000_000),
      /** the stock the form showed (an edit): the save moves the stock by the change, keeping redemptions since */
      stock_seen: specCount('库存', 0, 1_000_000).optional(),
    }),
    { error: '请填写商品规格' },
  )
  .min(1, '请至少添加一个规格')
  .max(MALL_MAX_SPECS, `规格最多 ${MALL_MAX_SPECS} 个`)
  .refine((v) => new Set(v.map((s) => s.name)).size === v.length, '规格名称不能重复');

export const mallGoods = resource<GoodsItem>()({
  name: 'goods',
  label: '商品',
  methods: {
    list: 'goodslist',
    add: 'goodsadd',
    edit: 'goodsedit',
    del: 'goodsdel',
    small: 'goods_small_list',
    export: 'goodsexport',
  },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.mall },
  fields: {
    images: { label: '商品图片', zod: photoList(9), widget: 'custom', in: ['form', 'table'], width: 80, help: '第一张为封面，最多 9 张' },
    name: {
      label: '商品名称',
      zod: text(40).min(1, '请输入商品名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 180,
    },
    category_id: {
      label: '商品分类',
      zod: id,
      widget: { small: 'cate_small_list' },
      in: ['form', 'filter'],
    },
    specs: {
      label: '规格',
      zod: goodsSpecs,
      widget: 'custom',
      in: ['form'],
      help: '每个规格的参考价、兑换所需积分和库存',
    },
    limit_per_member: {
      label: '每人限兑',
      zod: int(0, 999).default(0),
      widget: 'int',
      in: ['form', 'table', 'export'],
      width: 90,
      help: '每位会员最多兑换的件数（不含已取消的订单），0 为不限',
    },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: GOODS_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form'], help: '数字小的在前' },
    description: { label: '商品描述', zod: text(2000).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [
    { key: 'category_name', label: '分类', width: 160 },
    { key: 'points_text', label: '兑换积分', width: 130 },
    { key: 'stock', label: '库存', width: 80 },
    { key: 'sold', label: '已兑换', width: 80 },
    createTimeColumn(),
  ],
});

// ---- orders ---------------------------------------------------------------------------------

export const MALL_ORDER_STATUS = valueEnum({
  P: { text: '待发货/待自提', tone: 'processing' },
  S: { text: '已发货', tone: 'warning' },
  D: { text: '已完成', tone: 'success' },
  C: { text: '已取消', tone: 'default' },
});
export type MallOrderStatus = keyof typeof MALL_ORDER_STATUS;

export const MALL_DELIVERY = valueEnum({ pickup: { text: '到物业自提' }, delivery: { text: '配送' } });
export type DeliveryMode = keyof typeof MALL_DELIVERY;

/** A waiting order's state in its own words: 待自提 for a pickup, 待发货 for a delivery. */
export function mallOrderStatusText(status: string, mode: string): string {
  if (status === 'P') return mode === 'pickup' ? '待自提' : '待发货';
  return MALL_ORDER_STATUS[status as MallOrderStatus]?.text ?? status;
}

export interface MallOrderItem {
  id: number;
  order_no: string;
  member_id: number;
  realname: string;
  mobile: string;
  goods_id: number;
  goods_name: string;
  /** the goods' cover now ('' when it has no image) */
  cover: string;
  spec_id: number;
  spec_name: string;
  price: string;
  /** points of one */
  points: number;
  quantity: number;
  points_total: number;
  delivery_mode: DeliveryMode;
  delivery_mode_ch: string;
  contact_name: string;
  contact_mobile: string;
  address: string;
  remark: string;
  status: MallOrderStatus;
  /** 待自提 / 待发货 / 已发货 / 已完成 / 已取消 */
  status_ch: string;
  express_company: string;
  express_no: string;
  shipped_at: string;
  shipped_by: string;
  done_at: string;
  done_by: string;
  cancelled_at: string;
  cancelled_by: string;
  cancel_reason: string;
  created_by: string;
  create_time: string;
}

export const mallOrder = resource<MallOrderItem>()({
  name: 'mallorder',
  label: '兑换订单',
  methods: { list: 'mallorderlist', info: 'mallorderinfo', export: 'mallorderexport' },
  // members' names, addresses and phones: those who run the mall, not every card reader (a merchant)
  roles: { read: CARD_ROLES.mall, write: CARD_ROLES.mall },
  sort: 'desc',
  fields: {
    order_no: { label: '订单号', in: ['table', 'filter', 'export'], fixed: true, width: 170 },
    keyword: { label: '会员姓名/手机号', in: ['filter'] },
    goods_id: { label: '商品', widget: { small: 'goods_small_list' }, in: ['filter'] },
    status: { label: '状态', enum: MALL_ORDER_STATUS, in: ['filter'] },
    created_at: { label: '兑换时间', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'realname', label: '会员', width: 90 },
    { key: 'mobile', label: '手机号', width: 120 },
    { key: 'goods_name', label: '商品', width: 160 },
    { key: 'spec_name', label: '规格', width: 110 },
    { key: 'quantity', label: '数量', width: 70 },
    { key: 'points_total', label: '积分', width: 90 },
    { key: 'delivery_mode', label: '领取方式', enum: MALL_DELIVERY, width: 100 },
    { key: 'status_ch', label: '状态', width: 100 },
    { key: 'express_no', label: '快递单号', width: 150, in: ['export'] },
    createTimeColumn('兑换时间'),
  ],
});

const mallOrderInput = {
  express_company: text(30).min(1, '请输入快递公司'),
  express_no: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{4,40}$/, '快递单号应为 4 到 40 位字母、数字或 -'),
};

export const mallOrderFlow = workflow({
  name: 'mallorder',
  label: '兑换订单',
  states: MALL_ORDER_STATUS,
  transitions: {
    ship: {
      method: 'mallordership',
      label: '发货',
      from: ['P'],
      to: 'S',
      roles: CARD_ROLES.mall,
      input: mallOrderInput,
      inputLabels: { express_company: '快递公司', express_no: '快递单号' },
    },
    done: {
      method: 'mallorderdone',
      label: '完成',
      from: ['P', 'S'],
      to: 'D',
      roles: CARD_ROLES.mall,
      confirm: '确认会员已收到商品（已自提或已签收）？',
    },
    cancel: {
      method: 'mallordercancel',
      label: '取消',
      from: ['P'],
      to: 'C',
      roles: CARD_ROLES.mall,
      input: { reason: text(100).min(1, '请填写取消原因') },
      inputLabels: { reason: '取消原因' },
      confirm: '取消后积分退回会员、库存退回商品。',
      danger: true,
    },
  },
  steps: { create: '兑换' },
  fieldLabels: { goods: '商品', quantity: '数量', points_total: '积分' },
  logMethod: 'mallorderlog',
});

/** A redemption for a member at the property office (staff on the member's behalf). */
export const mallOrderAddSchema = z
  .object({
    member_id: id,
    spec_id: id,
    quantity: int(1, 99).default(1),
    delivery_mode: enumSchema(MALL_DELIVERY, '领取方式').default('pickup'),
    /** the member's name and mobile when left empty */
    contact_name: text(20).default(''),
    contact_mobile: z.union([z.literal(''), z.string().trim().regex(MOBILE_RE, '联系电话格式不正确，应为11位手机号')]).default(''),
    address: text(100).default(''),
    remark: text(100).default(''),
    idempotency_key: idempotencyKey.optional(),
  })
  .refine((v) => v.delivery_mode !== 'delivery' || v.address !== '', { message: '配送须填写收货地址', path: ['address'] });

/** A specification the redemption dialog offers: on sale, its goods', points and stock. */
export interface MallSpecOption {
  id: number;
  /** 抽纸 / 3 包装 */
  title: string;
  goods_id: number;
  points: number;
  stock: number;
  limit_per_member: number;
}

/** A person living in a room, with the points they hold (the redemption dialog's member choice). */
export interface MallMember {
  id: number;
  realname: string;
  mobile: string;
  relation_ch: string;
  bonus: number;
}

export const mallSchemas = {
  shopmallinfo: z.object({}),
  shopmalledit: mallSettingsSchema,
  ...mallCategory.schemas,
  ...mallGoods.schemas,
  ...mallOrder.schemas,
  ...mallOrderFlow.schemas,
  mallorderadd: mallOrderAddSchema,
  mall_spec_small_list: z.object({}),
  mallmembers: z.object({ hid: id }),
} as const;

export type MallOutputs = ResourceOutputs<typeof mallCategory.def, MallCategoryItem> &
  ResourceOutputs<typeof mallGoods.def, GoodsItem> &
  ResourceOutputs<typeof mallOrder.def, MallOrderItem> & {
    shopmallinfo: MallSettings;
    shopmalledit: MallSettings;
    mallorderadd: { id: number; order_no: string; points_total: number; bonus_after: number };
    mallordership: MallOrderItem;
    mallorderdone: MallOrderItem;
    mallordercancel: MallOrderItem;
    mallorderlog: { items: WorkflowLogItem[] };
    cate_small_list: { items: Array<SmallItem & { parent_id: number | null }> };
    mall_spec_small_list: { items: MallSpecOption[] };
    mallmembers: { items: MallMember[] };
  };
