/**
 * Smart meters (/carpark: device admin, house admin, payment, bill logs, day bills, hardware logs,
 * platform settings, recharge amounts, read-time settings; docs/product.md#smart-meters).
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { createTimeColumn, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { moneyUpTo, toFen } from '../money.js';
import { PAY_TYPE, payRef } from '../fees.js';
import { fileBase64, type FileAnswer } from '../files.js';
import type { ImportRowError } from '../structure.js';
import { DEVICE_ENABLED, DEVICE_ONLINE } from '../access/devices.js';
import { meterTiers, type MeterTier, type TierPart } from './pricing.js';
import { METER_ROLES } from './roles.js';

export const METER_KIND = valueEnum({
  power: { text: '电表', tone: 'warning' },
  water: { text: '水表', tone: 'processing' },
  gas: { text: '燃气表', tone: 'default' },
});
export type MeterKind = keyof typeof METER_KIND;
export const METER_UNIT: Record<MeterKind, string> = { power: 'kWh', water: 'm³', gas: 'm³' };

export const METER_MODE = valueEnum({
  prepaid: { text: '预付费', tone: 'success' },
  read: { text: '抄表计费', tone: 'processing' },
});
export const VALVE_STATE = valueEnum({
  open: { text: '开启', tone: 'success' },
  closed: { text: '关闭', tone: 'error' },
  fault: { text: '故障', tone: 'warning' },
});
export const VALVE_REASON = valueEnum({ '': { text: '' }, arrears: { text: '欠费关阀', tone: 'error' }, manual: { text: '手动关阀' } });
/** The valve's last command as the lists show it beside the state. */
export const VALVE_COMMAND = valueEnum({
  '': { text: '' },
  pending: { text: '下发中', tone: 'processing' },
  failed: { text: '下发失败', tone: 'error' },
});
export const GATEWAY_PROTOCOL = valueEnum({
  '4G': { text: '4G' },
  NB: { text: 'NB-IoT' },
  LoRa: { text: 'LoRa' },
  RS485: { text: 'RS485' },
});
export const METER_VENDOR = valueEnum({ simulator: { text: '模拟表计平台' } });
export const READING_SOURCE = valueEnum({
  auto: { text: '自动', tone: 'success' },
  manual: { text: '人工', tone: 'processing' },
  estimated: { text: '估抄', tone: 'warning' },
});
export const METER_RECHARGE_STATUS = valueEnum({
  W: { text: '待下发', tone: 'processing' },
  S: { text: '已下发', tone: 'success' },
  F: { text: '下发失败', tone: 'error' },
  R: { text: '已退款', tone: 'default' },
});
export const METER_LOG_KIND = valueEnum({
  deduct: { text: '扣费', tone: 'warning' },
  bill: { text: '出账', tone: 'processing' },
  recharge: { text: '充值到账', tone: 'success' },
  refund: { text: '退款', tone: 'default' },
});
export const METER_COMMAND_KINDS = ['meter_read', 'valve_open', 'valve_close', 'meter_recharge'] as const;

const meterKind = enumSchema(METER_KIND, '表类型');

/* ------------------------------------------------------------------------------ gateways */

export interface MeterGatewayItem {
  id: number;
  code: string;
  title: string;
  vendor: string;
  vendor_ch: string;
  protocol: string;
  protocol_ch: string;
  sim_no: string;
  address: string;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  remark: string;
  online: 'Y' | 'N';
  online_ch: string;
  last_heartbeat: string;
  meters: number;
  create_time: string;
}

export const meterGateway = resource<MeterGatewayItem>()({
  name: 'metergateway',
  label: '采集器',
  methods: {
    list: 'metergatewaylist',
    add: 'metergatewayadd',
    edit: 'metergatewayedit',
    del: 'metergatewaydel',
    info: 'metergatewayinfo',
    small: 'metergateway_small_list',
  },
  roles: { read: METER_ROLES.staff, write: METER_ROLES.staff },
  echoId: true,
  fields: {
    code: {
      label: '采集器编号',
      zod: text(30)
        .regex(/^[A-Za-z0-9_-]*$/, '采集器编号只能是字母、数字、下划线或横线')
        .min(1, '请输入采集器编号'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 120,
    },
    title: { label: '名称', zod: text(30).min(1, '请输入名称'), in: ['form', 'table', 'filter', 'export'], width: 140 },
    vendor: {
      label: '厂商',
      zod: z.enum(['simulator'], { message: '厂商取值不正确' }).default('simulator'),
      enum: METER_VENDOR,
      widget: 'select',
      width: 120,
    },
    protocol: {
      label: '通讯方式',
      zod: z.enum(['4G', 'NB', 'LoRa', 'RS485'], { message: '请选择通讯方式' }).default('4G'),
      enum: GATEWAY_PROTOCOL,
      widget: 'select',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    sim_no: {
      label: 'SIM 卡号',
      zod: text(20).regex(/^\d*$/, 'SIM 卡号只能是数字').default(''),
      width: 140,
    },
    address: { label: '安装位置', zod: text(100).default(''), width: 140 },
    enabled: { label: '启用', zod: yn.default('Y'), enum: DEVICE_ENABLED, widget: 'radio', in: ['form', 'table', 'filter'], width: 70 },
    online: { label: '在线', enum: DEVICE_ONLINE, widget: 'select', in: ['filter'] },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [
    { key: 'online', label: '在线', enum: DEVICE_ONLINE, width: 70 },
    { key: 'last_heartbeat', label: '最后心跳', width: 170 },
    { key: 'meters', label: '表计数', width: 80 },
    createTimeColumn(),
  ],
});

/* ------------------------------------------------------------------------------ price plans */

export interface MeterPlanItem {
  id: number;
  title: string;
  kind: MeterKind;
  kind_ch: string;
  tiers: MeterTier[];
  /** 0.5283（≤200）/ 0.5783（≤400）/ 0.8283 */
  tiers_text: string;
  version: number;
  meters: number;
  remark: string;
  create_time: string;
}

export const meterPlan = resource<MeterPlanItem>()({
  name: 'meterplan',
  label: '单价方案',
  methods: { list: 'meterplanlist', add: 'meterplanadd', edit: 'meterplanedit', del: 'meterplandel', small: 'meterplan_small_list' },
  roles: { read: METER_ROLES.staff, write: METER_ROLES.staff },
  fields: {
    title: { label: '方案名称', zod: text(30).min(1, '请输入方案名称'), in: ['form', 'table', 'filter'], fixed: true, width: 160 },
    kind: { label: '表类型', zod: meterKind, enum: METER_KIND, widget: 'radio', in: ['form', 'table', 'filter'], width: 90 },
    tiers: {
      label: '阶梯单价',
      zod: meterTiers,
      widget: 'custom',
      in: ['form'],
      help: '按每月用量分档：每档填上限与单价（元），最后一档不设上限；只有一档即单一单价',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  smallBy: [],
  columns: [
    { key: 'tiers_text', label: '阶梯单价（元）', width: 260 },
    { key: 'version', label: '版本', width: 70 },
    { key: 'meters', label: '表计数', width: 80 },
    createTimeColumn(),
  ],
});

/* ------------------------------------------------------------------------------ meters */

export interface MeterItem {
  id: number;
  meter_no: string;
  title: string;
  kind: MeterKind;
  kind_ch: string;
  mode: 'prepaid' | 'read';
  mode_ch: string;
  gateway_id: number;
  gateway_title: string;
  online: 'Y' | 'N';
  online_ch: string;
  hid: number | null;
  bid: number | null;
  tid: number | null;
  address: string;
  owner: string;
  plan_id: number;
  plan_title: string;
  item_id: number | null;
  item_title: string;
  reading: string;
  read_at: string;
  /** prepaid: the money left; read mode: '' */
  balance: string;
  valve: 'open' | 'closed' | 'fault';
  valve_ch: string;
  valve_reason: string;
  valve_reason_ch: string;
  /** the valve's last command: '' done, pending 下发中, failed 下发失败 (retryable) */
  valve_command: '' | 'pending' | 'failed';
  valve_command_ch: string;
  valve_command_id: number | null;
  read_day: number;
  read_hour: number;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  remark: string;
  create_time: string;
}

export const meter = resource<MeterItem>()({
  name: 'meter',
  label: '表计',
  methods: { list: 'meterlist', add: 'meteradd', edit: 'meteredit', del: 'meterdel', info: 'meterinfo', export: 'meterexport' },
  roles: { read: METER_ROLES.staff, write: METER_ROLES.staff },
  echoId: true,
  // a meter just added shows first
  sort: 'desc',
  fields: {
    meter_no: {
      label: '表号',
      zod: text(30)
        .regex(/^[A-Za-z0-9_-]*$/, '表号只能是字母、数字、下划线或横线')
        .min(1, '请输入表号'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 130,
    },
    title: { label: '名称', zod: text(30).default(''), width: 120 },
    kind: { label: '表类型', zod: meterKind, enum: METER_KIND, widget: 'radio', in: ['form', 'table', 'filter', 'export'], width: 80 },
    mode: {
      label: '计费模式',
      zod: enumSchema(METER_MODE, '计费模式'),
      enum: METER_MODE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    gateway_id: {
      label: '采集器',
      zod: id.describe('请选择采集器'),
      widget: { small: 'metergateway_small_list' },
      in: ['form', 'filter'],
    },
    hid: { label: '房屋', zod: id.describe('请选择房屋'), widget: 'room', in: ['form'] },
    bid: { label: '楼栋', widget: { small: 'building_small_list' }, in: ['filter'] },
    plan_id: { label: '单价方案', zod: id.describe('请选择单价方案'), widget: { small: 'meterplan_small_list' }, in: ['form', 'filter'] },
    item_id: {
      label: '收费项目',
      zod: optionalId,
      widget: { small: 'meteritem_small_list' },
      in: ['form'],
      help: '抄表计费的表在抄表日按此收费项目出账（按抄表读数计费的项目）',
    },
    valve: { label: '阀门', enum: VALVE_STATE, widget: 'select', in: ['filter'] },
    online: { label: '在线', enum: DEVICE_ONLINE, widget: 'select', in: ['filter'] },
    read_day: {
      label: '抄表日',
      zod: int(1, 31).default(1),
      widget: 'int',
      in: ['form', 'export'],
      help: '29–31 日在较短的月份按月末抄表',
    },
    read_hour: { label: '抄表时', zod: int(0, 23).default(8), widget: 'int', in: ['form', 'export'] },
    enabled: {
      label: '启用',
      zod: yn.default('Y'),
      enum: DEVICE_ENABLED,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 70,
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  rules: [{ check: (v) => v.mode !== 'read' || Boolean(v.item_id), message: '抄表计费的表请选择收费项目', path: 'item_id' }],
  columns: [
    { key: 'address', label: '房屋', width: 150 },
    { key: 'owner', label: '业主', width: 90 },
    { key: 'gateway_title', label: '采集器', width: 110 },
    { key: 'plan_title', label: '单价方案', width: 120 },
    { key: 'reading', label: '当前读数', width: 100 },
    { key: 'read_at', label: '读表时间', width: 170 },
    { key: 'balance', label: '剩余金额', widget: 'money', width: 100 },
    { key: 'valve', label: '阀门', enum: VALVE_STATE, width: 80 },
    { key: 'online', label: '在线', enum: DEVICE_ONLINE, width: 70 },
    createTimeColumn(),
  ],
});

/* ------------------------------------------------------------------------------ vendors */

export interface MeterVendorItem {
  id: number;
  vendor: string;
  vendor_ch: string;
  title: string;
  endpoint: string;
  app_id: string;
  /** ****1234, or '' when none is set */
  secret: string;
  callback_url: string;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  create_time: string;
}

export const meterVendor = resource<MeterVendorItem>()({
  name: 'metervendor',
  label: '表计平台',
  methods: { list: 'metervendorlist', add: 'metervendoradd', edit: 'metervendoredit', del: 'metervendordel' },
  roles: { read: METER_ROLES.staff, write: METER_ROLES.staff },
  fields: {
    vendor: {
      label: '厂商',
      zod: z.enum(['simulator'], { message: '厂商取值不正确' }),
      enum: METER_VENDOR,
      widget: 'select',
      in: ['form', 'table'],
      width: 130,
    },
    title: { label: '平台名称', zod: text(30).min(1, '请输入平台名称'), in: ['form', 'table'], width: 150 },
    endpoint: {
      label: '接口地址',
      zod: text(200)
        .regex(/^$|^https?:\/\/\S+$/, '接口地址须以 http:// 或 https:// 开头')
        .default(''),
      in: ['form', 'table'],
      width: 220,
    },
    app_id: { label: 'AppID', zod: text(64).default(''), in: ['form', 'table'], width: 140 },
    app_secret: {
      label: 'AppSecret',
      zod: text(128).default(''),
      widget: 'password',
      in: ['form'],
      help: '只写不读：保存后仅显示后四位；编辑时留空表示不修改',
    },
    callback_url: {
      label: '回调地址',
      zod: text(200)
        .regex(/^$|^https?:\/\/\S+$/, '回调地址须以 http:// 或 https:// 开头')
        .default(''),
      in: ['form', 'table'],
      width: 220,
    },
    enabled: { label: '启用', zod: yn.default('Y'), enum: DEVICE_ENABLED, widget: 'radio', in: ['form', 'table'], width: 70 },
  },
  columns: [{ key: 'secret', label: 'AppSecret', width: 110 }, createTimeColumn()],
});

/* ------------------------------------------------------------------------------ the rest */

export interface MeterReadingItem {
  id: number;
  meter_id: number;
  value: string;
  read_at: string;
  source: string;
  source_ch: string;
  swap: boolean;
  usage: string;
  amount: string;
  remark: string;
  operator: string;
}

export interface MeterCommandItem {
  id: number;
  meter_id: number | null;
  meter_no: string;
  address: string;
  gateway_title: string;
  kind: string;
  kind_ch: string;
  /** what was asked, e.g. 充值 100.00 元 */
  request: string;
  state: string;
  state_ch: string;
  /** the answer: 成功, or the device's error */
  answer: string;
  attempts: number;
  create_time: string;
  sent_at: string;
  acked_at: string;
  /** ms from sent to answered, null while waiting */
  latency_ms: number | null;
  operator: string;
}

export interface MeterHouseItem {
  hid: number;
  address: string;
  owner: string;
  mobile: string;
  meters: number;
  power_balance: string | null;
  water_balance: string | null;
  gas_balance: string | null;
  alarm_threshold: string;
  overdraft: string;
  protected: 'Y' | 'N';
  protected_ch: string;
  /** the room's prepaid meters at or below the alarm threshold */
  low: 'Y' | 'N';
  closed: number;
  last_read_at: string;
  remark: string;
}

export interface MeterRechargeItem {
  id: number;
  order_no: string;
  meter_id: number;
  meter_no: string;
  kind: MeterKind;
  kind_ch: string;
  address: string;
  member_name: string;
  amount: string;
  paytype: string;
  /** the way as printed: the group's own way with its base (payMethodLabel), else the base */
  paytype_ch: string;
  /** the reference (凭证号) taken with it */
  pay_ref: string;
  status: 'W' | 'S' | 'F' | 'R';
  status_ch: string;
  error: string;
  operator: string;
  create_time: string;
  confirmed_at: string;
  refunded_at: string;
}

export interface MeterDayBillItem {
  meter_id: number;
  meter_no: string;
  kind: MeterKind;
  kind_ch: string;
  address: string;
  day: string;
  opening: string;
  closing: string;
  usage: string;
  price: string;
  amount: string;
  balance_after: string;
  source: string;
  source_ch: string;
}

export interface MeterBillLogItem {
  id: number;
  meter_id: number;
  meter_no: string;
  kind_meter: MeterKind;
  kind_meter_ch: string;
  address: string;
  kind: string;
  kind_ch: string;
  usage: string;
  amount: string;
  balance_after: string;
  bill_id: number | null;
  breakdown: TierPart[];
  plan_version: number;
  create_time: string;
}

export interface MeterAmountItem {
  kind: MeterKind;
  kind_ch: string;
  amounts: string[];
  custom: 'Y' | 'N';
  min_amount: string;
  max_amount: string;
}

export interface MeterSettings {
  close_from: number;
  close_to: number;
}

export interface MeterReportRow {
  month: string;
  kind: MeterKind;
  kind_ch: string;
  bid: number;
  building: string;
  meters: number;
  usage: string;
  amount: string;
  recharged: string;
}

export interface MeterDashboard {
  meters: number;
  /** valves closed now */
  closed: number;
  /** rooms at or below their alarm threshold */
  low: number;
  offline_gateways: number;
  /** enabled meters behind a gateway that is offline */
  offline_meters: number;
  failed_recharges: number;
  /** enabled charging piles, and those without a heartbeat within two minutes */
  piles: number;
  offline_piles: number;
}

/** A simulated meter as the simulator shows it: its register, its consumption and its valve. */
export interface MeterSimItem {
  meter_id: number;
  meter_no: string;
  kind: MeterKind;
  kind_ch: string;
  mode_ch: string;
  address: string;
  /** the register the simulated meter shows (ahead of the last reading between reports) */
  register: string;
  reading: string;
  balance: string;
  valve: 'open' | 'closed' | 'fault';
  valve_ch: string;
  /** units an hour when no profile is set */
  per_hour: string;
  /** units in each hour of the day (0 to 23), or null: per_hour all day */
  profile: string[] | null;
  /** units a day by the profile (or 24 × per_hour) */
  per_day: string;
}

/** The smart meters' Excel import: its workbook's columns, in order. */
export const METER_IMPORT_HEADERS = [
  '表号',
  '表类型',
  '计费模式',
  '楼栋',
  '单元',
  '房号',
  '采集器编号',
  '单价方案',
  '厂商',
  '初始读数',
  '预警金额',
  '收费项目',
] as const;
export const METER_IMPORT_MAX_ROWS = 5000;

export interface MeterDeviceImportResult {
  /** meters added, of them bound to a room; rooms whose alarm threshold was set */
  meters: number;
  bound: number;
  alarms: number;
  errors: ImportRowError[];
}

/** What a building's (or unit's) bulk settings and binding would change, before they are confirmed. */
export interface MeterHousePreview {
  /** rooms of the building (unit) */
  rooms: number;
  /** rooms with meters: the settings apply to them */
  with_meters: number;
  /** rooms without a meter of the kind, and the kind's meters bound to no room (the binding pairs them) */
  free_rooms: number;
  unbound_meters: number;
  /** rooms the binding would give a meter: the smaller of the two */
  to_bind: number;
}

export interface MeterAlertItem {
  id: number;
  meter_no: string;
  address: string;
  kind: string;
  kind_ch: string;
  mobile: string;
  content: string;
  balance: string;
  sent: 'W' | 'Y' | 'F' | 'N';
  sent_ch: string;
  error: string;
  create_time: string;
}
export const METER_ALERT_SENT = valueEnum({
  W: { text: '待发送', tone: 'processing' },
  Y: { text: '已发送', tone: 'success' },
  F: { text: '发送失败', tone: 'error' },
  N: { text: '无手机号', tone: 'default' },
});
export const METER_ALERT_KIND = valueEnum({
  low: { text: '余额预警', tone: 'warning' },
  closed: { text: '欠费关阀', tone: 'error' },
  opened: { text: '充值开阀', tone: 'success' },
});

const yuanAmount = moneyUpTo(100_000_00n);
const simUsage = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,3})?$/, '每小时用量最多 3 位小数');
const dayRange = z
  .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD'))
  .length(2)
  .optional();
const amountList = z.array(moneyUpTo(10_000_00n).refine((v) => toFen(v) > 0n, { message: '档位金额必须大于 0' })).max(10, '最多 10 个档位');

export const meterSchemas = {
  ...meterGateway.schemas,
  ...meterPlan.schemas,
  ...meter.schemas,
  ...meterVendor.schemas,
  /** the cashier's search for a prepaid meter to recharge: by its number or its room */
  meterpick: z.object({ keyword: text(30).min(1, '请输入表号或房号') }),
  /** the fee items billed by meter reading (a read-mode meter's bills) */
  meteritem_small_list: z.object({}),
  meterrecordlist: z.object({ ...paging, meter_id: id }),
  meterrecordadd: z.object({
    meter_id: id,
    value: z
      .string()
      .trim()
      .regex(/^\d{1,10}(\.\d{1,2})?$/, '读数最多 2 位小数'),
    source: z.enum(['manual', 'estimated'], { message: '读数来源取值不正确' }).default('manual'),
    /** a new meter: the register starts again from this value */
    swap: z.boolean().default(false),
    remark: text(100).default(''),
  }),
  /** read now: a command to the meter, whose answer is an automatic reading */
  meterread: z.object({ id }),
  metervalve: z.object({ id, action: z.enum(['open', 'close'], { message: '请选择开阀或关阀' }) }),
  /** tries a failed command of a meter again now */
  metercommandretry: z.object({ id }),
  meterloglist: z.object({
    ...paging,
    meter_no: text(30).default(''),
    gateway_id: optionalId,
    kind: z.enum(['', ...METER_COMMAND_KINDS]).default(''),
    state: z.enum(['', 'pending', 'sent', 'done', 'failed']).default(''),
  }),
  meterhouselist: z.object({
    ...paging,
    bid: optionalId,
    tid: optionalId,
    keyword: text(30).default(''),
    /** at or below the alarm threshold */
    low: z.enum(['', 'Y']).default(''),
    closed: z.enum(['', 'Y']).default(''),
    protected: z.enum(['', 'Y', 'N']).default(''),
  }),
  meterhouseedit: z.object({
    hid: id,
    alarm_threshold: yuanAmount,
    overdraft: yuanAmount,
    protected: yn,
    remark: text(100).default(''),
  }),
  /** the same settings for every room of a building (or a unit of it) that has meters */
  meterhousebatch: z.object({ bid: id, tid: optionalId, alarm_threshold: yuanAmount, overdraft: yuanAmount, protected: yn }),
  meterrechargelist: z.object({
    ...paging,
    order_no: text(40).default(''),
    meter_no: text(30).default(''),
    kind: z.enum(['', 'power', 'water', 'gas']).default(''),
    status: z.enum(['', 'W', 'S', 'F', 'R']).default(''),
    paytype: text(20).default(''),
    create_time: dayRange,
  }),
  meterrecharge: z.object({
    meter_id: id,
    amount: moneyUpTo(10_000_00n).refine((v) => toFen(v) > 0n, { message: '充值金额必须大于 0' }),
    paytype: enumSchema(PAY_TYPE, '支付方式'),
    /** the group's own way on `paytype` (自定义支付方式), if one was chosen */
    pay_method_id: optionalId,
    /** the reference (凭证号) a way of the group may ask for */
    pay_ref: payRef.default(''),
    /** who pays from their balance (paytype balance): a person living in the meter's room */
    member_id: optionalId,
    remark: text(100).default(''),
  }),
  meterrechargeretry: z.object({ id }),
  meterrechargerefund: z.object({ id, remark: text(100).min(1, '请填写退款说明') }),
  meteramountlist: z.object({}),
  meteramountset: z
    .object({
      kind: meterKind,
      amounts: amountList,
      custom: yn,
      min_amount: moneyUpTo(10_000_00n).refine((v) => toFen(v) > 0n, { message: '最小金额必须大于 0' }),
      max_amount: moneyUpTo(10_000_00n),
    })
    .refine((v) => toFen(v.max_amount) >= toFen(v.min_amount), { message: '最大金额不能小于最小金额', path: ['max_amount'] })
    .refine((v) => v.amounts.every((a) => toFen(a) >= toFen(v.min_amount) && toFen(a) <= toFen(v.max_amount)), {
      message: '档位金额须在最小与最大金额之间',
      path: ['amounts'],
    }),
  meterdaybilllist: z.object({
    ...paging,
    meter_no: text(30).default(''),
    kind: z.enum(['', 'power', 'water', 'gas']).default(''),
    bid: optionalId,
    day: dayRange,
  }),
  meterbillloglist: z.object({
    ...paging,
    meter_no: text(30).default(''),
    kind: z.enum(['', 'deduct', 'bill', 'recharge', 'refund']).default(''),
    create_time: dayRange,
  }),
  meteralertlist: z.object({ ...paging, kind: z.enum(['', 'low', 'closed', 'opened']).default('') }),
  metersettings: z.object({}),
  metersettingsset: z
    .object({ close_from: int(0, 23), close_to: int(1, 24) })
    .refine((v) => v.close_to > v.close_from, { message: '结束时间须晚于开始时间', path: ['close_to'] }),
  /** read-time settings for several meters at once (read mode) */
  meterreadtime: z.object({
    ids: z.array(id).min(1, '请选择表计').max(5000, '一次最多 5000 块表'),
    read_day: int(1, 31),
    read_hour: int(0, 23),
  }),
  meterreport: z.object({
    from: z.string().regex(/^\d{4}-\d{2}$/, '月份格式应为 YYYY-MM'),
    to: z.string().regex(/^\d{4}-\d{2}$/, '月份格式应为 YYYY-MM'),
    kind: z.enum(['', 'power', 'water', 'gas']).default(''),
  }),
  meterdashboard: z.object({}),
  /** the simulator: run the meters behind a simulated gateway for N hours of their time */
  metersimrun: z.object({ gateway_id: id, hours: int(1, 72) }),
  /** the simulator: a meter's consumption per hour, or per hour of the day (a profile of 24) */
  metersimset: z.object({
    meter_id: id,
    per_hour: simUsage,
    profile: z.array(simUsage).length(24, '用量曲线须为 24 个小时的用量').nullable().default(null),
  }),
  /** the simulator: the meters behind a simulated gateway with their register, consumption and valve */
  metersimlist: z.object({ gateway_id: id }),
  /** the simulator: the meter is swapped for a new one whose register starts at `value` (a swap reading) */
  metersimswap: z.object({
    meter_id: id,
    value: z
      .string()
      .trim()
      .regex(/^\d{1,10}(\.\d{1,2})?$/, '新表读数最多 2 位小数')
      .default('0'),
  }),
  meterimporttemplate: z.object({}),
  meterimport: z.object({ filename: text(200).min(1, '请选择文件'), file_base64: fileBase64 }),
  meterimporterrors: z.object({ job_id: id }),
  /** what a building's (unit's) bulk settings and binding of a kind would change */
  meterhousepreview: z.object({ bid: id, tid: optionalId, kind: meterKind }),
  /** binds the kind's meters bound to no room, in meter-number order, to the building's (unit's) rooms without one, in the rooms' order */
  meterhousebind: z.object({ bid: id, tid: optionalId, kind: meterKind }),
} as const;

export type MeterOutputs = ResourceOutputs<typeof meterGateway.def, MeterGatewayItem> &
  ResourceOutputs<typeof meterPlan.def, MeterPlanItem> &
  ResourceOutputs<typeof meter.def, MeterItem> &
  ResourceOutputs<typeof meterVendor.def, MeterVendorItem> & {
    meteritem_small_list: { items: Array<{ id: number; title: string }> };
    meterpick: { items: MeterItem[] };
    meterrecordlist: { items: MeterReadingItem[]; total: number };
    meterrecordadd: { id: number; usage: string; amount: string; balance: string };
    meterread: { command_id: number };
    metervalve: { command_id: number };
    metercommandretry: { retried: number };
    /** total counted up to 10,000 rows; more: there are more (共 10000+ 条) */
    meterloglist: { items: MeterCommandItem[]; total: number; more: boolean };
    meterhouselist: { items: MeterHouseItem[]; total: number };
    meterhouseedit: { hid: number };
    meterhousebatch: { rooms: number };
    /** total counted up to 10,000; sums of every order the filters find when they are at most that many (else null) */
    meterrechargelist: { items: MeterRechargeItem[]; total: number; more: boolean; sums: { amount: string } | null };
    meterrecharge: { id: number; order_no: string; command_id: number | null; status: string };
    meterrechargeretry: { id: number };
    meterrechargerefund: { id: number };
    meteramountlist: { items: MeterAmountItem[] };
    meteramountset: MeterAmountItem;
    /** sums: of every row the filters find, when they are at most 10,000 (else null: narrow the list) */
    meterdaybilllist: { items: MeterDayBillItem[]; total: number; more: boolean; sums: { usage: string; amount: string } | null };
    meterbillloglist: { items: MeterBillLogItem[]; total: number; more: boolean };
    meteralertlist: { items: MeterAlertItem[]; total: number };
    metersettings: MeterSettings;
    metersettingsset: MeterSettings;
    meterreadtime: { updated: number };
    meterreport: { items: MeterReportRow[]; totals: { usage: Record<MeterKind, string>; amount: string; recharged: string } };
    meterdashboard: MeterDashboard;
    metersimrun: { meters: number; readings: number };
    metersimset: { meter_id: number; per_hour: string; profile: string[] | null };
    metersimlist: { items: MeterSimItem[] };
    metersimswap: { meter_id: number; reading_id: number; value: string };
    meterimporttemplate: FileAnswer;
    meterimport: { job_id: number };
    meterimporterrors: FileAnswer;
    meterhousepreview: MeterHousePreview;
    meterhousebind: { bound: number };
  };
