/** Cost types and fee items as resource descriptions (docs/resources.md). */
import { z } from 'zod';
import { int, noControlChars, text, yn } from '../common.js';
import { money } from '../money.js';
import { createTimeColumn, enumSchema, resource, valueEnum } from '../kit/resource.js';
import type { CostTypeRow, FeeItemRow } from '../fees.js';
import { FEE_ROLES } from './roles.js';

/** How a fee item's amount is computed. */
export const PRICING = valueEnum({
  area_built: { text: '建筑面积 × 单价' },
  area_indoor: { text: '套内面积 × 单价' },
  fixed: { text: '固定金额' },
  meter: { text: '抄表读数 × 单价' },
  quantity: { text: '数量 × 单价' },
});
export type PricingMethod = keyof typeof PRICING;
export const LATE_FEE_RULE = valueEnum({ none: { text: '不收滞纳金' }, daily: { text: '按日计收', tone: 'warning' } });
export const ITEM_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** A unit price: non-negative, at most four decimals (e.g. 2.5 yuan per m² per month). */
export const unitPrice = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!/^\d{1,10}(\.\d{1,4})?$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: '单价格式不正确，应为不小于0且最多四位小数的数字' });
    return z.NEVER;
  }
  return s;
});

const costTypeCode = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{1,29}$/, '费用类型编码只能是小写字母、数字和下划线，以字母开头');

const sortNo = int(0, 9999).default(0);

export const costType = resource<CostTypeRow>()({
  name: 'costtype',
  label: '费用类型',
  methods: { list: 'feeitemcatelist', add: 'feeitemcateadd', edit: 'feeitemcateedit', del: 'feeitemcatedel' },
  roles: { read: FEE_ROLES.read, write: FEE_ROLES.setup },
  fields: {
    cost_type: { label: '编码', zod: costTypeCode, once: true, placeholder: '如 property、water', help: '小写字母开头，保存后不可修改' },
    title: { label: '名称', zod: text(20).min(1, '请输入名称'), in: ['form', 'table', 'filter', 'export'], placeholder: '如 物业费' },
    sort: { label: '排序', zod: sortNo, widget: 'int', width: 80 },
  },
  columns: [{ key: 'item_count', label: '收费项目数', width: 110 }, createTimeColumn()],
});

export const BALANCE_PAY = valueEnum({ Y: { text: '允许', tone: 'success' }, N: { text: '不允许', tone: 'default' } });

export const feeItem = resource<FeeItemRow>()({
  name: 'feeitem',
  label: '收费项目',
  methods: { list: 'feeitemlist', info: 'feeiteminfo', add: 'feeitemadd', edit: 'feeitemedit', del: 'feeitemdel' },
  roles: { read: FEE_ROLES.read, write: FEE_ROLES.setup },
  form: { add: '/fees/feeitemadd', edit: '/fees/feeitemedit' },
  // the newest first: an item just added is on the first page the form returns to
  sort: 'desc',
  fields: {
    cost_type: {
      label: '费用类型',
      zod: costTypeCode,
      filterZod: noControlChars(z.string().max(30)).optional(),
      widget: 'custom',
      match: 'eq',
      in: ['form', 'filter'],
    },
    title: { label: '项目名称', zod: text(30).min(1, '请输入项目名称'), fixed: true },
    pricing: { label: '计费方式', zod: enumSchema(PRICING, '计费方式'), enum: PRICING, widget: 'radio' },
    unit_price: { label: '单价', zod: unitPrice, widget: 'decimal', width: 100 },
    default_quantity: { label: '默认数量', zod: money.optional(), widget: 'decimal', in: ['form', 'export'] },
    cycle_months: { label: '周期（月）', zod: int(1, 12).default(1), widget: 'int', width: 90 },
    /** missing: the community's default due day (feesettinginfo) */
    due_day: { label: '缴费日', zod: int(1, 28).optional(), widget: 'int', width: 80 },
    late_fee_rule: { label: '滞纳金', zod: enumSchema(LATE_FEE_RULE, '滞纳金规则').default('none'), enum: LATE_FEE_RULE, widget: 'radio' },
    /** per mille of the bill per day */
    late_fee_rate: { label: '日费率（‰）', zod: unitPrice.optional(), widget: 'decimal', in: ['form', 'export'] },
    late_fee_grace_days: {
      label: '宽限天数',
      zod: int(0, 365).default(0),
      widget: 'int',
      in: ['form', 'export'],
    },
    /** cap as percent of the bill; 0 = no cap */
    late_fee_cap_percent: {
      label: '封顶（%）',
      zod: int(0, 1000).default(0),
      widget: 'int',
      in: ['form', 'export'],
    },
    balance_pay: {
      label: '余额支付',
      zod: yn.default('Y'),
      enum: BALANCE_PAY,
      widget: 'radio',
      in: ['form', 'table', 'export'],
      width: 90,
      help: '允许：收银台可用业主（会员卡）余额支付此项目的账单',
    },
    status: { label: '状态', zod: yn.default('Y'), enum: ITEM_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
    keyword: { label: '项目名称', zod: text(30), in: ['filter'] },
  },
  rules: [
    {
      check: (v) => v.late_fee_rule === 'none' || (v.late_fee_rate !== undefined && Number(v.late_fee_rate) > 0),
      message: '按日计滞纳金时，日费率必须大于0',
      path: 'late_fee_rate',
    },
  ],
  columns: [
    { key: 'cost_type_title', label: '费用类型', width: 100 },
    { key: 'bind_count', label: '绑定数', width: 80 },
    createTimeColumn('创建时间', { in: ['export'] }),
  ],
});
