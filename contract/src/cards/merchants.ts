/**
 * Merchants (商户管理, /carpark/merchantlist; docs/product.md#merchants) as a resource
 * (docs/resources.md): the stores around the community that take members' points, balance and
 * coupons. A store's kind, logo, address and map point, contact, hours, its settlement account (the
 * number written only and answered masked), its login account (an account of type merchant holding
 * the role `card` in the store's community, restricted as spec 2.3 says) and status; and the other
 * communities of the group it serves, each with its validity, decided by that community's staff.
 */
import { z } from 'zod';
import { coordinate, id, noControlChars, optionalId, paging, text, yn } from '../common.js';
import type { ListAnswer } from '../codes.js';
import { newPassword } from '../auth.js';
import { imageUrl } from '../files.js';
import { createTimeColumn, enumOrAll, enumSchema, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { workflow } from '../kit/workflow.js';
import { CARD_ROLES } from './roles.js';

export const MERCHANT_KIND = valueEnum({
  store: { text: '便利店', tone: 'processing' },
  market: { text: '超市', tone: 'processing' },
  food: { text: '餐饮', tone: 'warning' },
  laundry: { text: '洗衣', tone: 'default' },
  pharmacy: { text: '药房', tone: 'success' },
  other: { text: '其他', tone: 'default' },
});
export type MerchantKind = keyof typeof MERCHANT_KIND;

export const MERCHANT_STATUS = valueEnum({ Y: { text: '营业', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** A service area's decision, made by the served community's staff. */
export const MERCHANT_SERVICE_STATUS = valueEnum({
  E: { text: '待审核', tone: 'warning' },
  Y: { text: '已通过', tone: 'success' },
  N: { text: '已驳回', tone: 'error' },
});
export type MerchantServiceStatus = keyof typeof MERCHANT_SERVICE_STATUS;

/** A store's phone: a mobile, or a landline with its area code (021-58881000, 02158881000, an extension after -). */
export const MERCHANT_PHONE_RE = /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(-\d{1,6})?)$/;
/** The login account's name: as a staff account's (4 to 30 letters, digits or _). */
export const MERCHANT_USERNAME_RE = /^[A-Za-z0-9_]{4,30}$/;

/** '' (none) or the value; the form sends '' for an empty input. */
const orEmpty = <T extends z.ZodType<string>>(schema: T) => z.union([z.literal(''), schema]).default('');

export interface MerchantItem {
  id: number;
  merchant: string;
  kind: MerchantKind;
  kind_ch: string;
  logo: string;
  contact: string;
  /** the store's phone (a business number: not masked as an owner's mobile is) */
  phone: string;
  address: string;
  lng: number | null;
  lat: number | null;
  hours: string;
  bank_name: string;
  bank_holder: string;
  /** the settlement account number as it may be shown: 6222 **** **** 1234 ('' none); the number itself is never answered */
  bank_account_mask: string;
  /** the login account's name ('' none) */
  login_username: string;
  /** the login account's state: 启用 / 停用 ('' none) */
  login_status: 'Y' | 'N' | '';
  /** 服务小区: the other communities it serves or asked to, with their decision */
  services_text: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  create_time: string;
}

const merchantName = text(30).pipe(z.string().min(1, '请输入商户名称'));
const bankAccount = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{8,30}$/, '银行账号应为8到30位数字'));

export const merchant = resource<MerchantItem>()({
  name: 'merchant',
  label: '商户',
  methods: { list: 'merchantlist', add: 'merchantadd', edit: 'merchantedit', del: 'merchantdel', export: 'merchantexport' },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.merchants },
  fields: {
    logo: { label: 'Logo', zod: orEmpty(imageUrl), widget: 'custom', in: ['form'] },
    merchant: {
      label: '商户名称',
      zod: merchantName,
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 230,
      placeholder: '如 阳光便利店',
    },
    kind: {
      label: '类型',
      zod: enumSchema(MERCHANT_KIND, '商户类型').default('store'),
      enum: MERCHANT_KIND,
      widget: 'select',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    contact: { label: '联系人', zod: text(20).default(''), in: ['form', 'table', 'export'], width: 130 },
    phone: {
      label: '联系电话',
      zod: z.string().trim().regex(MERCHANT_PHONE_RE, '联系电话应为手机号或带区号的固定电话'),
      in: ['form', 'export'],
      placeholder: '手机号或 021-58881000',
    },
    hours: { label: '营业时间', zod: text(40).default(''), in: ['form', 'table', 'export'], width: 120, placeholder: '如 08:00-22:00' },
    address: { label: '地址', zod: text(100).default(''), in: ['form', 'export'] },
    lng: {
      label: '经度',
      zod: coordinate(180, '经度'),
      widget: 'decimal',
      in: ['form', 'export'],
      help: '地图上门店的位置（经纬度同时填写）',
    },
    lat: { label: '纬度', zod: coordinate(90, '纬度'), widget: 'decimal', in: ['form', 'export'] },
    bank_name: { label: '开户银行', zod: text(40).default(''), in: ['form', 'export'], placeholder: '如 招商银行上海浦东支行' },
    bank_holder: { label: '开户名', zod: text(40).default(''), in: ['form', 'export'] },
    bank_account_no: {
      label: '银行账号',
      zod: orEmpty(bankAccount),
      in: ['form'],
      help: '只写不读：加密保存，列表只显示前四位和后四位；修改时留空则不变',
    },
    login_username: {
      label: '登录账号',
      zod: orEmpty(noControlChars(z.string().trim().regex(MERCHANT_USERNAME_RE, '登录账号为4到30位字母、数字或下划线'))),
      in: ['form', 'table', 'export'],
      width: 120,
      help: '商户用它登录后台，只能使用会员卡相关页面；创建后不能修改',
    },
    login_password: {
      label: '登录密码',
      zod: orEmpty(newPassword),
      widget: 'password',
      in: ['form'],
      help: '新建登录账号时必填；已有账号填写则重置密码；商户首次登录须修改密码',
    },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: MERCHANT_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
      help: '停用后其登录账号也停用',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'bank_account_mask', label: '结算账户', width: 190, in: ['table', 'export'] },
    { key: 'services_text', label: '服务小区', width: 200, in: ['table', 'export'] },
    createTimeColumn(),
  ],
  rules: [
    {
      check: (v) => (v.lng === null || v.lng === undefined) === (v.lat === null || v.lat === undefined),
      message: '经度和纬度须同时填写',
      path: 'lat',
    },
    {
      check: (v) => !v.login_password || !!v.login_username,
      message: '请先填写登录账号',
      path: 'login_username',
    },
  ],
});

/** A community the merchant serves besides its own (a row of the served community, decided there). */
export interface MerchantServiceItem {
  id: number;
  /** the community served */
  rid: number;
  region_title: string;
  /** the merchant's own community and the merchant */
  merchant_rid: number;
  merchant_region_title: string;
  merchant_id: number;
  merchant: string;
  kind: MerchantKind;
  kind_ch: string;
  valid_from: string;
  valid_to: string;
  status: MerchantServiceStatus;
  status_ch: string;
  remark: string;
  /** a refusal's reason */
  reason: string;
  decided_by: string;
  decided_time: string;
  create_time: string;
  /** true: the row is the session's community's to decide (approve or refuse here) */
  decides: boolean;
}

const reason = text(200).pipe(z.string().min(1, '请填写驳回原因'));

export const merchantServiceFlow = workflow({
  name: 'merchantservice',
  label: '服务申请',
  states: MERCHANT_SERVICE_STATUS,
  transitions: {
    approve: {
      method: 'merchantserviceapprove',
      label: '通过',
      from: ['E'],
      to: 'Y',
      roles: CARD_ROLES.merchants,
      confirm: '通过后该商户在有效期内为本小区服务，确定通过？',
    },
    refuse: {
      method: 'merchantservicerefuse',
      label: '驳回',
      from: ['E'],
      to: 'N',
      roles: CARD_ROLES.merchants,
      input: { reason },
      inputLabels: { reason: '驳回原因' },
      danger: true,
    },
  },
});

const serviceFilters = {
  /** a merchant of the session's community: the communities it serves; none: the requests to serve the session's community */
  merchant_id: optionalId,
  status: enumOrAll(MERCHANT_SERVICE_STATUS, '审核状态').optional(),
};

export const merchantSchemas = {
  ...merchant.schemas,
  ...merchantServiceFlow.schemas,
  merchantservicelist: z.object({ ...paging, ...serviceFilters }),
  merchantserviceadd: z
    .object({
      merchant_id: id,
      /** the community to serve: another of the group */
      rid: id,
      valid_from: wireDay,
      valid_to: wireDay,
      remark: text(200).default(''),
    })
    .refine((v) => v.valid_from <= v.valid_to, { message: '结束日期不能早于开始日期', path: ['valid_to'] }),
  /** withdraws a request or ends a service, by the merchant's community */
  merchantservicedel: z.object({ id }),
  /** the other communities of the group a merchant may serve */
  merchant_region_small_list: z.object({}),
} as const;

export type MerchantOutputs = ResourceOutputs<typeof merchant.def, MerchantItem> & {
  merchantservicelist: ListAnswer<MerchantServiceItem>;
  merchantserviceadd: { id: number };
  merchantservicedel: null;
  merchantserviceapprove: MerchantServiceItem;
  merchantservicerefuse: MerchantServiceItem;
  merchant_region_small_list: { items: Array<{ id: number; title: string }> };
};
