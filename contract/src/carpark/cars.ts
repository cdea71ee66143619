/**
 * Cars (/carpark/carlist, caradd, caredit; also /basismembers/cars) as a resource description
 * (docs/resources.md), with their lot, space, lease and dates; member cars share a main car's
 * space; releasing and assigning a space, black and white lists per lot, monthly cars' renewals
 * and their history (/carpark/moncarlist, /carpark/monthcarlog; docs/product.md#carpark).
 */
import { z } from 'zod';
import type { YN } from '../codes.js';
import { id, int, optionalId, text, yn } from '../common.js';
import type { ExportQueued } from '../jobs.js';
import { createTimeColumn, enumOrAll, enumSchema, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { payRef } from '../fees.js';
import { money } from '../money.js';
import { CAR_MANAGERS } from '../owners/roles.js';
import { CARPARK_ROLES } from './roles.js';

const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';

/** Letters on plates leave out I and O. */
const L = 'A-HJ-NP-Z';
/**
 * Chinese plates: province + issuing letter + 5 characters (the last may be 挂学警港澳), or
 * the 8-character new-energy plates: small D/F + letter-or-digit + 4 digits, large 5 digits + D/F.
 */
export const PLATE_RE = new RegExp(`^[${PROVINCES}][${L}](?:[${L}0-9]{4}[${L}0-9挂学警港澳]|[DF][${L}0-9]\\d{4}|\\d{5}[DF])$`);

/** '沪a·12345 ' -> '沪A12345' (stored without the dot). */
export const normalizePlate = (value: string): string => value.replace(/[\s·•.-]/g, '').toUpperCase();

/** Plate as people read it: 沪A·12345. */
export const displayPlate = (plate: string): string => (plate.length >= 3 ? `${plate.slice(0, 2)}·${plate.slice(2)}` : plate);

export const isNewEnergyPlate = (plate: string): boolean => plate.length === 8;

/** The colour of a plate as a lane camera reads it (vendors report it beside the text). */
export const PLATE_COLOR = valueEnum({
  blue: { text: '蓝牌' },
  yellow: { text: '黄牌' },
  green: { text: '绿牌' },
  white: { text: '白牌' },
  black: { text: '黑牌' },
});
export type PlateColor = keyof typeof PLATE_COLOR;

/**
 * The kind of a car no row describes, from its plate: a yellow plate is a large car's, a green one
 * a new-energy car's, and without a colour an eight-character plate is new-energy; the rest are small.
 */
export const plateCarType = (plate: string, color?: PlateColor | ''): 'small' | 'large' | 'new_energy' =>
  color === 'yellow' ? 'large' : color === 'green' || (!color && isNewEnergyPlate(plate)) ? 'new_energy' : 'small';

export const plate = z.string().transform(normalizePlate).pipe(z.string().regex(PLATE_RE, '车牌号格式不正确（如 沪A12345、沪AD12345）'));

export const CAR_TYPE = valueEnum(
  {
    small: { text: '小型车' },
    large: { text: '大型车' },
    new_energy: { text: '新能源车', tone: 'success' },
  },
  { key: 'car_type', name: '车辆类型' },
);
export const CAR_STATUS = valueEnum({ Y: { text: '正常', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** How a car holds its space: 月租 rents it, 出售 buys it; 内部 and 免费 pass free. */
export const LEASE_TYPE = valueEnum(
  {
    M: { text: '月租', tone: 'processing' },
    S: { text: '出售', tone: 'warning' },
    I: { text: '内部', tone: 'success' },
    F: { text: '免费', tone: 'default' },
  },
  { key: 'lease_type', name: '车辆租售类型' },
);
export type LeaseType = keyof typeof LEASE_TYPE;
/** Whether a car holds a space now. */
export const CAR_BOUND = valueEnum({ Y: { text: '已绑定车位', tone: 'success' }, N: { text: '未绑定车位', tone: 'default' } });

export interface CarItem {
  id: number;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  member_id: number | null;
  realname: string;
  mobile: string;
  carlicense: string;
  car_type: string;
  car_type_ch: string;
  color: string;
  brand: string;
  status: YN;
  status_ch: string;
  remark: string;
  lot_id: number | null;
  lot_title: string;
  space_id: number | null;
  space_title: string;
  /** '' for a car only registered to its room */
  lease_type: LeaseType | '';
  lease_type_ch: string;
  start_date: string;
  end_date: string;
  main_car_id: number | null;
  /** the main car's plate, for a member car */
  main_carlicense: string;
  bound: YN;
  bound_ch: string;
  create_time: string;
}

const day = z
  .union([z.literal(''), z.null(), wireDay])
  .optional()
  .transform((v) => (v ? v : null));

export const car = resource<CarItem>()({
  name: 'car',
  label: '车辆',
  methods: { list: 'carlist', add: 'caradd', edit: 'caredit', del: 'cardel', info: 'carinfo', export: 'carexport' },
  roles: { read: CAR_MANAGERS, write: CAR_MANAGERS },
  echoId: true,
  fields: {
    carlicense: {
      label: '车牌号',
      zod: plate,
      filterZod: text(12).optional(),
      placeholder: '如 沪A12345',
      fixed: true,
      width: 120,
      in: ['form', 'table', 'filter', 'export'],
    },
    hid: { label: '房屋', zod: id, widget: 'room', in: ['form', 'filter'] },
    member_id: { label: '车主', zod: optionalId, widget: { membersOf: 'hid' }, in: ['form'], help: '须为该房屋的在住住户' },
    car_type: {
      label: '车辆类型',
      zod: enumSchema(CAR_TYPE, '车辆类型').optional(),
      enum: CAR_TYPE,
      help: '不选时按车牌判断（8 位为新能源车）',
    },
    color: { label: '颜色', zod: text(20).optional().default(''), width: 80 },
    brand: { label: '品牌', zod: text(40).optional().default(''), width: 100 },
    lot_id: {
      label: '停车场',
      zod: optionalId,
      widget: { small: 'carpark_small_list' },
      in: ['form', 'filter'],
      help: '不选：只登记到房屋，不占车位',
    },
    lease_type: {
      label: '租售类型',
      zod: z
        .union([z.literal(''), enumSchema(LEASE_TYPE, '租售类型')])
        .optional()
        .default(''),
      enum: LEASE_TYPE,
      widget: 'select',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
      help: '月租：车位变为出租；出售：车位变为出售',
    },
    main_car_id: {
      label: '主车',
      zod: optionalId,
      widget: { small: 'carmain_small_list', dependsOn: { hid: 'hid' } },
      in: ['form'],
      help: '选了即为该车的成员车辆，与主车共用车位，不再单独选车位',
    },
    space_id: {
      label: '车位',
      zod: optionalId,
      widget: { small: 'parkingspace_small_list', dependsOn: { lot_id: 'lot_id' } },
      in: ['form'],
      help: '只列空闲车位；月租、出售须选车位',
    },
    start_date: { label: '开始日期', zod: day, widget: 'date', in: ['form', 'table', 'export'], width: 110 },
    end_date: {
      label: '结束日期',
      zod: day,
      widget: 'date',
      in: ['form', 'table', 'export'],
      width: 110,
      help: '月租车的到期日；之后请通过续费延长',
    },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: CAR_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'export'] },
    bound: { label: '车位绑定', enum: CAR_BOUND, in: ['filter'] },
    room: { label: '房号', zod: text(60), in: ['filter'], placeholder: '如 1101' },
    bid: { label: '楼栋', widget: { small: 'building_small_list' }, in: ['filter'] },
    keyword: { label: '车主姓名/手机号', zod: text(30), in: ['filter'] },
    create_time: { label: '登记时间', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'address', label: '房屋' },
    { key: 'realname', label: '车主', width: 90 },
    { key: 'mobile', label: '手机号', width: 120 },
    { key: 'lot_title', label: '停车场', width: 120 },
    { key: 'space_title', label: '车位', width: 90 },
    { key: 'main_carlicense', label: '主车', width: 100 },
    createTimeColumn('登记时间'),
  ],
});

/** Black (B) and white (W) lists of a lot. */
export const LIST_KIND = valueEnum({ B: { text: '黑名单', tone: 'error' }, W: { text: '白名单', tone: 'success' } });
export interface ParkingListItem {
  id: number;
  lot_id: number;
  lot_title: string;
  carlicense: string;
  kind: 'B' | 'W';
  kind_ch: string;
  start_date: string;
  end_date: string;
  reason: string;
  /** Y while today is within its dates */
  valid: YN;
  valid_ch: string;
  create_time: string;
}
export const LIST_VALID = valueEnum({ Y: { text: '有效', tone: 'success' }, N: { text: '失效', tone: 'default' } });

export const parkingList = resource<ParkingListItem>()({
  name: 'parkinglist',
  label: '黑白名单',
  methods: { list: 'parkinglistlist', add: 'parkinglistadd', edit: 'parkinglistedit', del: 'parkinglistdel' },
  roles: { read: CARPARK_ROLES.staff, write: CARPARK_ROLES.staff },
  echoId: true,
  fields: {
    lot_id: { label: '停车场', zod: id, widget: { small: 'carpark_small_list' }, in: ['form', 'filter'] },
    carlicense: {
      label: '车牌号',
      zod: plate,
      filterZod: text(12).optional(),
      placeholder: '如 沪A12345',
      in: ['form', 'table', 'filter'],
      fixed: true,
      width: 110,
    },
    kind: {
      label: '名单',
      zod: enumSchema(LIST_KIND, '名单'),
      enum: LIST_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 80,
    },
    start_date: { label: '生效日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    end_date: { label: '失效日期', zod: wireDay, widget: 'date', in: ['form', 'table'], width: 110 },
    reason: { label: '原因', zod: text(100).default(''), in: ['form', 'table'] },
  },
  rules: [
    {
      check: (v) => !v.start_date || !v.end_date || String(v.end_date) >= String(v.start_date),
      message: '失效日期不能早于生效日期',
      path: 'end_date',
    },
  ],
  columns: [
    { key: 'lot_title', label: '停车场', width: 120 },
    { key: 'valid', label: '当前', enum: LIST_VALID, width: 70 },
    createTimeColumn(),
  ],
});

/** A monthly car as the renewal desk sees it. */
export interface MonthlyCarItem {
  id: number;
  carlicense: string;
  car_type: string;
  car_type_ch: string;
  lot_id: number;
  lot_title: string;
  space_title: string;
  address: string;
  realname: string;
  mobile: string;
  start_date: string;
  end_date: string;
  /** days from today to the end (negative: expired that long ago); null without an end */
  days_left: number | null;
  /** the lot's monthly price of the car's kind */
  month_price: string;
}

export const RENEW_SOURCE = valueEnum({ D: { text: '停车管理', tone: 'processing' }, C: { text: '收银台', tone: 'success' } });
export const RENEW_PAY_TYPE = valueEnum({
  cash: { text: '现金' },
  wechat: { text: '微信' },
  alipay: { text: '支付宝' },
  bankcard: { text: '银行卡' },
  transfer: { text: '转账' },
});
export interface RenewalItem {
  id: number;
  car_id: number;
  carlicense: string;
  lot_title: string;
  months: number;
  amount: string;
  old_end: string;
  new_end: string;
  source: 'D' | 'C';
  source_ch: string;
  pay_type: string;
  /** the way as printed: the group's own way with its base (payMethodLabel), else the base */
  pay_type_ch: string;
  /** the reference (凭证号) taken with it */
  pay_ref: string;
  receipt_no: string;
  cashier_name: string;
  create_time: string;
}

export const CAR_LOG_ACTION = valueEnum({
  add: { text: '新增', tone: 'success' },
  edit: { text: '编辑', tone: 'processing' },
  release: { text: '释放车位', tone: 'warning' },
  assign: { text: '分配车位', tone: 'processing' },
  renew: { text: '续费', tone: 'success' },
  delete: { text: '删除', tone: 'error' },
});
export interface CarLogItem {
  id: number;
  car_id: number;
  carlicense: string;
  action: keyof typeof CAR_LOG_ACTION;
  action_ch: string;
  content: string;
  created_by_name: string;
  create_time: string;
}

const dayRange = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => (Array.isArray(v) ? v : undefined));

const moncarFilters = {
  lot_id: optionalId,
  carlicense: text(12).optional(),
  /** ending within this many days from today, not yet expired */
  expiring: z.union([z.literal(''), z.null(), int(0, 365)]).optional(),
  /** Y: only the expired */
  expired: z.union([z.literal(''), yn]).optional(),
};
const logFilters = {
  car_id: optionalId,
  carlicense: text(12).optional(),
  action: enumOrAll(CAR_LOG_ACTION, '操作').optional(),
  date: dayRange,
};
const orderFilters = {
  car_id: optionalId,
  carlicense: text(12).optional(),
  lot_id: optionalId,
  source: enumOrAll(RENEW_SOURCE, '来源').optional(),
  date: dayRange,
};
const page = { page: int(1, 100000).default(1), limit: int(1, 100).default(10) };

export const carSchemas = {
  ...car.schemas,
  ...parkingList.schemas,
  carrelease: z.object({ id }),
  carassign: z.object({
    id,
    space_id: id,
    lease_type: enumSchema(LEASE_TYPE, '租售类型'),
    start_date: day,
    end_date: day,
  }),
  /** cars of a room holding a space: the main car of a member car */
  carmain_small_list: z.object({ hid: optionalId }),
  moncarlist: z.object({ ...page, ...moncarFilters }),
  moncarrenew: z.object({
    id,
    months: int(1, 36),
    pay_type: enumSchema(RENEW_PAY_TYPE, '支付方式'),
    /** the group's own way on `pay_type` (自定义支付方式), if one was chosen */
    pay_method_id: optionalId,
    /** the reference (凭证号) a way of the group may ask for */
    pay_ref: payRef.default(''),
    /** the amount the operator saw; refused when the price changed meanwhile */
    amount: money,
  }),
  monthcarlog: z.object({ ...page, ...logFilters }),
  monthcarlogexport: z.object(logFilters),
  monthcarorderlist: z.object({ ...page, ...orderFilters }),
  monthcarorderexport: z.object(orderFilters),
} as const;

export type CarOutputs = ResourceOutputs<typeof car.def, CarItem> &
  ResourceOutputs<typeof parkingList.def, ParkingListItem> & {
    carrelease: { id: number };
    carassign: { id: number };
    carmain_small_list: { items: Array<{ id: number; title: string }> };
    moncarlist: { total: number; items: MonthlyCarItem[] };
    moncarrenew: RenewalItem;
    monthcarlog: { total: number; items: CarLogItem[] };
    monthcarlogexport: ExportQueued;
    monthcarorderlist: { total: number; items: RenewalItem[] };
    monthcarorderexport: ExportQueued;
  };
