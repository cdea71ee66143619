/**
 * Parking lots, their booths and lanes, and the texts shown at their gates (/carpark/carparklist;
 * docs/product.md#carpark), described as resources (docs/resources.md).
 */
import { z } from 'zod';
import { id, int, text, yn } from '../common.js';
import { money } from '../money.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { CARPARK_ROLES } from './roles.js';

export const LOT_GROUND = valueEnum({ A: { text: '地上', tone: 'processing' }, U: { text: '地下', tone: 'default' } });
export const YES_NO = valueEnum({ Y: { text: '是', tone: 'success' }, N: { text: '否', tone: 'default' } });
export const LANE_DIRECTION = valueEnum({ I: { text: '入口', tone: 'processing' }, O: { text: '出口', tone: 'warning' } });
export const LANE_VENDOR = valueEnum({ simulator: { text: '模拟器' } });
export const LANE_ONLINE = valueEnum({ Y: { text: '在线', tone: 'success' }, N: { text: '离线', tone: 'default' } });
/** A lane is online while its last heartbeat is this recent. */
export const LANE_ONLINE_MS = 2 * 60_000;

export interface LotItem {
  id: number;
  code: string;
  title: string;
  ground: 'A' | 'U';
  ground_ch: string;
  total_spaces: number;
  grace_days: number;
  leave_minutes: number;
  monthly_takes_free: 'Y' | 'N';
  monthly_takes_free_ch: string;
  warn_days: number;
  price_small: string;
  price_large: string;
  price_new_energy: string;
  address: string;
  remark: string;
  /** spaces registered in the lot, and those free */
  space_count: number;
  idle_count: number;
  booth_count: number;
  lane_count: number;
  create_time: string;
}

const price = (label: string) => ({
  label,
  zod: money.default('0'),
  widget: 'money' as const,
  in: ['form', 'table', 'export'] as const,
  width: 110,
});

export const lot = resource<LotItem>()({
  name: 'carpark',
  label: '停车场',
  methods: {
    list: 'carparklist',
    add: 'carparkadd',
    edit: 'carparkedit',
    del: 'carparkdel',
    info: 'carparkinfo',
    small: 'carpark_small_list',
  },
  roles: { read: CARPARK_ROLES.staff, write: CARPARK_ROLES.staff },
  echoId: true,
  fields: {
    code: { label: '编号', zod: text(20).min(1, '请输入停车场编号'), in: ['form', 'table', 'filter', 'export'], width: 90, fixed: true },
    title: { label: '名称', zod: text(30).min(1, '请输入停车场名称'), in: ['form', 'table', 'filter', 'export'], fixed: true, width: 140 },
    ground: {
      label: '位置',
      zod: z.enum(['A', 'U'], { message: '请选择地上或地下' }).default('U'),
      enum: LOT_GROUND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 70,
    },
    total_spaces: { label: '总车位数', zod: int(0, 100000).default(0), widget: 'int', width: 90 },
    grace_days: {
      label: '月租过期宽限(天)',
      zod: int(0, 90).default(0),
      widget: 'int',
      width: 120,
      help: '月租车过期后仍按月租放行的天数',
    },
    leave_minutes: {
      label: '缴费后离场(分钟)',
      zod: int(1, 240).default(15),
      widget: 'int',
      width: 120,
      help: '临时车缴费后须在此时间内离场，超时自场内缴费时起重新计费',
    },
    monthly_takes_free: { label: '月租车占用空闲车位', zod: yn.default('N'), enum: YES_NO, widget: 'radio', width: 130 },
    warn_days: { label: '到期提醒(天)', zod: int(1, 60).default(7), widget: 'int', width: 100, help: '月租车到期前多少天列入待办' },
    price_small: price('小型车月租(元)'),
    price_large: price('大型车月租(元)'),
    price_new_energy: price('新能源车月租(元)'),
    address: { label: '地址', zod: text(100).default(''), in: ['form', 'export'] },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'space_count', label: '已登记车位', width: 100 },
    { key: 'idle_count', label: '空闲车位', width: 90 },
    { key: 'booth_count', label: '岗亭', width: 70 },
    { key: 'lane_count', label: '车道', width: 70 },
    createTimeColumn(),
  ],
});

export interface BoothItem {
  id: number;
  lot_id: number;
  lot_title: string;
  title: string;
  allow_temp: 'Y' | 'N';
  allow_temp_ch: string;
  temp_confirm: 'Y' | 'N';
  temp_confirm_ch: string;
  collects_fee: 'Y' | 'N';
  collects_fee_ch: string;
  reenter: 'Y' | 'N';
  reenter_ch: string;
  exit_no_entry: 'Y' | 'N';
  exit_no_entry_ch: string;
  remark: string;
  lane_count: number;
  create_time: string;
}

const rule = (label: string, dflt: 'Y' | 'N', help: string) => ({
  label,
  zod: yn.default(dflt),
  enum: YES_NO,
  widget: 'radio' as const,
  in: ['form', 'table'] as const,
  width: 100,
  help,
});

export const booth = resource<BoothItem>()({
  name: 'parkingbooth',
  label: '岗亭',
  methods: {
    list: 'parkingboothlist',
    add: 'parkingboothadd',
    edit: 'parkingboothedit',
    del: 'parkingboothdel',
    small: 'parkingbooth_small_list',
  },
  roles: { read: CARPARK_ROLES.staff, write: CARPARK_ROLES.staff },
  echoId: true,
  fields: {
    lot_id: { label: '停车场', zod: id, widget: { small: 'carpark_small_list' }, in: ['form', 'filter'] },
    title: { label: '岗亭名称', zod: text(30).min(1, '请输入岗亭名称'), in: ['form', 'table', 'filter'], fixed: true, width: 120 },
    allow_temp: rule('允许临时车进场', 'Y', '否：临时车一律不放行'),
    temp_confirm: rule('临时车进场需确认', 'N', '是：临时车进场须岗亭值班员确认开闸'),
    collects_fee: rule('岗亭收费', 'Y', '否：临时车须先在场内缴费，出口不收费'),
    reenter: rule('在场车可再次进场', 'Y', '车辆出场未记录时仍可再次进场'),
    exit_no_entry: rule('无入场记录可出场', 'N', '没有入场记录的车辆是否放行出场'),
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [{ key: 'lot_title', label: '停车场', width: 120 }, { key: 'lane_count', label: '车道', width: 70 }, createTimeColumn()],
});

export interface LaneItem {
  id: number;
  lot_id: number;
  lot_title: string;
  booth_id: number;
  booth_title: string;
  code: string;
  title: string;
  direction: 'I' | 'O';
  direction_ch: string;
  vendor: 'simulator';
  vendor_ch: string;
  remark: string;
  /** the device's last heartbeat ('' never) */
  last_heartbeat: string;
  /** Y while the last heartbeat is within 2 minutes */
  online: 'Y' | 'N';
  online_ch: string;
  create_time: string;
}

export const lane = resource<LaneItem>()({
  name: 'parkinglane',
  label: '车道',
  methods: { list: 'parkinglanelist', add: 'parkinglaneadd', edit: 'parkinglaneedit', del: 'parkinglanedel' },
  roles: { read: CARPARK_ROLES.staff, write: CARPARK_ROLES.staff },
  echoId: true,
  fields: {
    lot_id: { label: '停车场', widget: { small: 'carpark_small_list' }, in: ['filter'] },
    booth_id: {
      label: '岗亭',
      zod: id,
      // titled 停车场 / 岗亭, so the form needs no lot of its own
      widget: { small: 'parkingbooth_small_list' },
      in: ['form', 'filter'],
    },
    code: {
      label: '车道编号',
      zod: text(20)
        .regex(/^[A-Za-z0-9_-]+$/, '车道编号只能是字母、数字、下划线或横线')
        .min(1, '请输入车道编号'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      width: 100,
    },
    title: { label: '车道名称', zod: text(30).min(1, '请输入车道名称'), in: ['form', 'table'], width: 120 },
    direction: {
      label: '方向',
      zod: z.enum(['I', 'O'], { message: '请选择入口或出口' }),
      enum: LANE_DIRECTION,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 70,
    },
    vendor: {
      label: '设备厂商',
      zod: z.enum(['simulator'], { message: '设备厂商取值不正确' }).default('simulator'),
      enum: LANE_VENDOR,
      widget: 'select',
      in: ['form', 'table'],
      width: 90,
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [
    { key: 'lot_title', label: '停车场', width: 120 },
    { key: 'booth_title', label: '岗亭', width: 100 },
    { key: 'online', label: '状态', enum: LANE_ONLINE, width: 70 },
    { key: 'last_heartbeat', label: '最后心跳', width: 170 },
    createTimeColumn(),
  ],
});

/** The events with a text at the gate, and their default words. */
export const GATE_EVENT = valueEnum({
  monthly_in: { text: '月租车入场' },
  monthly_out: { text: '月租车出场' },
  monthly_expiring: { text: '月租车即将到期' },
  monthly_expired: { text: '月租车已过期' },
  temp_in: { text: '临时车入场' },
  temp_out: { text: '临时车出场' },
  temp_unpaid: { text: '临时车未缴费' },
});
export type GateEvent = keyof typeof GATE_EVENT;
/** {plate}, {days} and {fee} are filled at the gate. */
export const GATE_TEXT_DEFAULTS: Record<GateEvent, string> = {
  monthly_in: '{plate} 欢迎回家，月租车剩余 {days} 天',
  monthly_out: '{plate} 一路顺风',
  monthly_expiring: '{plate} 月租将于 {days} 天后到期，请及时续费',
  monthly_expired: '{plate} 月租已过期，请到物业续费',
  temp_in: '{plate} 欢迎光临，临时车请保管好停车凭证',
  temp_out: '{plate} 一路顺风，本次停车费 {fee} 元',
  temp_unpaid: '{plate} 请缴纳停车费 {fee} 元',
};
export interface GateTextItem {
  event: GateEvent;
  event_ch: string;
  content: string;
  /** still the default words */
  is_default: boolean;
}

export const lotSchemas = {
  ...lot.schemas,
  ...booth.schemas,
  ...lane.schemas,
  gatetextlist: z.object({ lot_id: id }),
  gatetextedit: z.object({
    lot_id: id,
    event: z.enum(Object.keys(GATE_TEXT_DEFAULTS) as [GateEvent, ...GateEvent[]], { message: '事件取值不正确' }),
    /** '' restores the default */
    content: text(100).default(''),
  }),
} as const;

export type LotOutputs = ResourceOutputs<typeof lot.def, LotItem> &
  ResourceOutputs<typeof booth.def, BoothItem> &
  ResourceOutputs<typeof lane.def, LaneItem> & {
    gatetextlist: { items: GateTextItem[] };
    gatetextedit: { items: GateTextItem[] };
  };
