/**
 * 充电桩 (/carpark/charging, charging_add, charging_edit; docs/product.md#charging-piles): the piles
 * (a device of family 'pile' with its ports and prices), the sessions started from a member's
 * prepaid balance and settled from the pile's final meter value, the month cards, the
 * reconciliation of ports against sessions and the report per pile and day.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import type { ListAnswer } from '../codes.js';
import type { ExportQueued } from '../jobs.js';
import { MOBILE_RE } from '../owners.js';
import { createTimeColumn, enumOrAll, enumSchema, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { money, moneyUpTo, toFen } from '../money.js';
import { maxHourFen, maxKwhFen, type ChargePowerBand, type ChargePricing, type ChargeSlot, type ChargeTouBand } from './pricing.js';
import { CHARGING_ROLES } from './roles.js';

export const CHARGER_KIND = valueEnum({ car: { text: '电动汽车' }, ebike: { text: '电动自行车' } });
export const CHARGER_VENDOR = valueEnum({ simulator: { text: '模拟充电桩' } });
export const CHARGER_ONLINE = valueEnum({ Y: { text: '在线', tone: 'success' }, N: { text: '离线', tone: 'default' } });
export const CHARGER_ENABLED = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const CHARGE_TIER = valueEnum({
  sharp: { text: '尖', tone: 'error' },
  peak: { text: '峰', tone: 'warning' },
  flat: { text: '平', tone: 'processing' },
  valley: { text: '谷', tone: 'success' },
});
export const CHARGE_PORT_STATE = valueEnum({
  free: { text: '空闲', tone: 'success' },
  charging: { text: '充电中', tone: 'processing' },
  finishing: { text: '结束中', tone: 'warning' },
  fault: { text: '故障', tone: 'error' },
});
export type ChargePortState = keyof typeof CHARGE_PORT_STATE;
export const CHARGE_MODE = valueEnum({
  hours: { text: '按时长' },
  energy: { text: '按电量' },
  amount: { text: '按金额' },
  full: { text: '充满' },
});
export type ChargeMode = keyof typeof CHARGE_MODE;
export const CHARGE_STATE = valueEnum({
  starting: { text: '启动中', tone: 'processing' },
  charging: { text: '充电中', tone: 'processing' },
  stopping: { text: '结束中', tone: 'warning' },
  done: { text: '已完成', tone: 'success' },
  failed: { text: '启动失败', tone: 'error' },
  check: { text: '待核对', tone: 'error' },
  checked: { text: '已核对', tone: 'default' },
});
export type ChargeState = keyof typeof CHARGE_STATE;
export const CHARGE_END_REASON = valueEnum({
  full: { text: '充满' },
  time: { text: '时长到' },
  energy: { text: '电量到' },
  amount: { text: '金额到' },
  unplug: { text: '拔枪' },
  console: { text: '后台停止' },
  phone: { text: '手机停止' },
  fault: { text: '故障' },
  timeout: { text: '超时关闭' },
});
export type ChargeEndReason = keyof typeof CHARGE_END_REASON;
export const CHARGE_RECON_KIND = valueEnum({
  orphan_port: { text: '插座充电中但无订单', tone: 'warning' },
  idle_order: { text: '订单充电中但插座空闲', tone: 'error' },
});

/** A session whose last meter value is older than this is closed from it and flagged 待核对. */
export const CHARGE_FRAME_TIMEOUT_MS = 10 * 60_000;
/** An energy or until-full session holds at most this many hours (peers: 10 h). */
export const CHARGE_MAX_HOURS = 10;

/**
 * The prepayment of a session (fen): the most it may cost, which the pile stops at; held from the
 * member's balance at the start (the console's and the owner's phone alike).
 */
export function prepayFen(p: ChargePricing & { power_kw: string }, mode: ChargeMode, value: string): bigint {
  const v = toFen(value);
  const hoursCap = (h: bigint) => h * maxHourFen(p, p.power_kw);
  switch (mode) {
    case 'hours':
      return hoursCap(v / 100n);
    case 'energy':
      // kWh × the dearest kWh on a car pile; an e-bike pile bills by the hour: its longest session
      return p.kind === 'car' ? (v * maxKwhFen(p) + 99n) / 100n : hoursCap(BigInt(CHARGE_MAX_HOURS));
    default:
      return v;
  }
}

const hhmm = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, '时间格式应为 HH:mm');
const yuanPrice = moneyUpTo(100_00n);
const touBand = z.object({ start: hhmm, end: hhmm, tier: enumSchema(CHARGE_TIER, '时段类型'), price: yuanPrice });
const powerBand = z.object({ min_w: int(0, 100_000), max_w: int(1, 100_000), price: yuanPrice });

export interface ChargerItem {
  id: number;
  code: string;
  title: string;
  vendor: string;
  vendor_ch: string;
  kind: 'car' | 'ebike';
  kind_ch: string;
  ports: number;
  power_kw: string;
  tou: ChargeTouBand[];
  service_fee: string;
  bands: ChargePowerBand[];
  /** 峰 1.05 / 平 0.70 … or 0-300W 0.50元/时 … */
  price_text: string;
  price_version: number;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  online: 'Y' | 'N';
  online_ch: string;
  last_heartbeat: string;
  /** 空闲 2 / 充电中 1 / 故障 0 */
  port_text: string;
  /** the simulator loses the final frame of its sessions (test of 超时关闭) */
  sim_lose_final: 'Y' | 'N';
  /** the address the owner's phone opens to start charging at this pile */
  qr_url: string;
  remark: string;
  create_time: string;
}

export const charger = resource<ChargerItem>()({
  name: 'charger',
  label: '充电桩',
  methods: {
    list: 'chargerlist',
    add: 'chargeradd',
    edit: 'chargeredit',
    del: 'chargerdel',
    info: 'chargerinfo',
    small: 'charger_small_list',
    export: 'chargerexport',
  },
  roles: { read: CHARGING_ROLES.staff, write: CHARGING_ROLES.staff },
  echoId: true,
  fields: {
    title: { label: '名称', zod: text(200).min(1, '请输入名称'), in: ['form', 'table', 'filter', 'export'], fixed: true, width: 150 },
    code: {
      label: '设备编号',
      zod: text(30)
        .regex(/^[A-Za-z0-9_-]*$/, '设备编号只能是字母、数字、下划线或横线')
        .min(1, '请输入设备编号'),
      in: ['form', 'table', 'filter', 'export'],
      width: 120,
    },
    vendor: {
      label: '厂家',
      zod: z.enum(['simulator'], { message: '厂家取值不正确' }).default('simulator'),
      enum: CHARGER_VENDOR,
      widget: 'select',
      in: ['form', 'table', 'export'],
      width: 110,
    },
    kind: {
      label: '类型',
      zod: enumSchema(CHARGER_KIND, '类型').default('car'),
      enum: CHARGER_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      once: true,
      width: 100,
    },
    ports: {
      label: '插座个数',
      zod: int(1, 20).default(1),
      widget: 'int',
      in: ['form', 'table', 'export'],
      once: true,
      help: '插座随充电桩一起创建，编号 1..n',
      width: 90,
    },
    power_kw: {
      label: '额定功率(kW)',
      zod: moneyUpTo(1000_00n).refine((v) => toFen(v) > 0n, { message: '额定功率应大于0' }),
      widget: 'decimal',
      in: ['form', 'table', 'export'],
      width: 110,
    },
    tou: { label: '分时电价', zod: z.array(touBand).max(12, '最多 12 个时段').default([]), widget: 'custom', in: ['form'] },
    service_fee: { label: '服务费(元/kWh)', zod: yuanPrice.default('0'), widget: 'money', in: ['form', 'export'] },
    bands: { label: '功率档位', zod: z.array(powerBand).max(10, '最多 10 个档位').default([]), widget: 'custom', in: ['form'] },
    enabled: { label: '启用', zod: yn.default('Y'), enum: CHARGER_ENABLED, widget: 'radio', in: ['form', 'table', 'filter'], width: 70 },
    online: { label: '在线', enum: CHARGER_ONLINE, widget: 'select', in: ['filter'] },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  columns: [
    { key: 'price_text', label: '电价', width: 220 },
    { key: 'price_version', label: '价格版本', width: 80 },
    { key: 'port_text', label: '插座', width: 160 },
    { key: 'online', label: '在线', enum: CHARGER_ONLINE, width: 70 },
    { key: 'last_heartbeat', label: '最后心跳', width: 170 },
    createTimeColumn(),
  ],
});

export interface ChargePortItem {
  id: number;
  charger_id: number;
  no: number;
  title: string;
  state: ChargePortState;
  state_ch: string;
  /** the live session on it, or null */
  order_id: number | null;
  order_no: string;
  realname: string;
  /** the register, kWh */
  meter_kwh: string;
  power_w: number;
}

export interface ChargeFrameItem {
  at: string;
  meter_kwh: string;
  power_w: number;
}

export interface ChargeOrderItem {
  id: number;
  order_no: string;
  charger_id: number;
  charger_title: string;
  port_id: number;
  port_no: number;
  member_id: number;
  realname: string;
  mobile: string;
  mode: ChargeMode;
  mode_ch: string;
  /** hours, kWh or yuan, as the mode says */
  mode_value: string;
  prepaid: string;
  amount: string;
  refund: string;
  energy_kwh: string;
  hours: number;
  card_hours: number;
  coupon_hours: number;
  coupon_code: string;
  state: ChargeState;
  state_ch: string;
  end_reason: ChargeEndReason | '';
  end_reason_ch: string;
  start_time: string;
  end_time: string;
  last_frame_time: string;
  price_version: number;
  check_note: string;
  error: string;
  create_time: string;
}

export interface ChargeOrderDetail extends ChargeOrderItem {
  frames: ChargeFrameItem[];
  slots: ChargeSlot[];
  /** the prices in force for the session */
  pricing: { kind: 'car' | 'ebike'; tou: ChargeTouBand[]; service_fee: string; bands: ChargePowerBand[]; power_kw: string };
  gross: string;
  card_free: string;
  coupon_free: string;
}

export interface ChargeReconItem {
  kind: keyof typeof CHARGE_RECON_KIND;
  kind_ch: string;
  charger_id: number;
  charger_title: string;
  port_id: number;
  port_no: number;
  port_state: ChargePortState;
  port_state_ch: string;
  order_id: number | null;
  order_no: string;
  since: string;
}

export interface ChargeReportRow {
  day: string;
  charger_id: number;
  charger_title: string;
  sessions: number;
  energy_kwh: string;
  income: string;
}

export interface ChargeMemberItem {
  id: number;
  realname: string;
  mobile: string;
  balance: string;
  /** the live month card: 月卡 至 2026-12-31 每日 2 小时, or '' */
  month_card: string;
}

export const CHARGE_CARD_STATUS = valueEnum({ Y: { text: '在售', tone: 'success' }, N: { text: '停售', tone: 'default' } });
export interface ChargeCardItem {
  id: number;
  title: string;
  months: number;
  price: string;
  hours_per_day: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  sold: number;
  create_time: string;
}
export const chargeCard = resource<ChargeCardItem>()({
  name: 'chargecard',
  label: '充电月卡',
  methods: { list: 'chargecardlist', add: 'chargecardadd', edit: 'chargecardedit', del: 'chargecarddel' },
  roles: { read: CHARGING_ROLES.staff, write: CHARGING_ROLES.staff },
  fields: {
    title: { label: '名称', zod: text(200).min(1, '请输入名称'), in: ['form', 'table', 'filter'], fixed: true, width: 160 },
    months: { label: '月数', zod: int(1, 36), widget: 'int', in: ['form', 'table'], width: 80 },
    price: { label: '月卡价格(元)', zod: moneyUpTo(100_000_00n), widget: 'money', in: ['form', 'table'], width: 120 },
    hours_per_day: { label: '每日充电小时', zod: int(1, 24), widget: 'int', in: ['form', 'table'], width: 110 },
    status: { label: '状态', zod: yn.default('Y'), enum: CHARGE_CARD_STATUS, widget: 'radio', in: ['form', 'table', 'filter'], width: 80 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  columns: [{ key: 'sold', label: '已售', width: 80 }, createTimeColumn()],
});

export interface ChargeCardOrderItem {
  id: number;
  card_id: number;
  card_title: string;
  member_id: number;
  realname: string;
  mobile: string;
  paid: string;
  hours_per_day: number;
  start_date: string;
  end_date: string;
  create_time: string;
}

/* ------------------------------------------------------------- 扫码充电: the owner's phone at a pile */

/** An SMS code lasts this long. */
export const CHARGE_CODE_TTL_SECONDS = 300;
/** A mobile gets one code in this many seconds. */
export const CHARGE_CODE_RESEND_SECONDS = 60;
/** A mobile gets at most this many codes a day, an address at most CHARGE_CODE_IP_HOURLY an hour. */
export const CHARGE_CODE_DAILY_MAX = 10;
export const CHARGE_CODE_IP_HOURLY = 30;
/** A code refused this many times is void: a new one must be asked for. */
export const CHARGE_CODE_MAX_TRIES = 5;

/** The pile as the phone shows it: its prices, its ports, the owner's balance and sessions. */
export interface ChargePhoneInfo {
  charger: {
    id: number;
    code: string;
    title: string;
    kind: 'car' | 'ebike';
    kind_ch: string;
    power_kw: string;
    tou: ChargeTouBand[];
    service_fee: string;
    bands: ChargePowerBand[];
    price_text: string;
    online: 'Y' | 'N';
    enabled: 'Y' | 'N';
  };
  ports: Array<{ id: number; no: number; title: string; state: ChargePortState; state_ch: string }>;
  member: { realname: string; mobile: string; balance: string; month_card: string };
  /** the owner's sessions not yet settled, anywhere in the community */
  live: ChargePhoneOrder[];
}

/** A session of the owner as the phone shows it: running (meter, energy and amount so far) or settled. */
export interface ChargePhoneOrder {
  id: number;
  order_no: string;
  charger_title: string;
  port_no: number;
  mode: ChargeMode;
  mode_ch: string;
  mode_value: string;
  prepaid: string;
  state: ChargeState;
  state_ch: string;
  end_reason_ch: string;
  start_time: string;
  end_time: string;
  /** the port's register at the last meter value (kWh) */
  meter_kwh: string;
  power_w: number;
  /** so far while it runs, final once settled */
  energy_kwh: string;
  /** so far (at the session's prices, capped by the prepayment) while it runs, final once settled */
  amount: string;
  /** returned to the balance at the settlement; '' before */
  refund: string;
  /** the owner's balance now */
  balance: string;
  error: string;
}

const dayFilter = z.union([z.literal(''), wireDay]).optional();
const mobileNo = z.string().trim().regex(MOBILE_RE, '请输入正确的手机号');
const pileCode = text(30).min(1, '充电桩编号不能为空');
const startMode = {
  mode: enumSchema(CHARGE_MODE, '充电方式'),
  /** hours for 按时长, kWh for 按电量, yuan for 按金额 and 充满 (the most it may cost) */
  value: money,
};
const startRules = <T extends z.ZodType<{ mode: ChargeMode; value: string }>>(schema: T) =>
  schema
    .refine((v) => toFen(v.value) > 0n, { message: '请输入充电时长、电量或金额', path: ['value'] })
    .refine((v) => v.mode !== 'hours' || (toFen(v.value) % 100n === 0n && toFen(v.value) <= BigInt(CHARGE_MAX_HOURS) * 100n), {
      message: `充电时长应为 1 到 ${CHARGE_MAX_HOURS} 的整数小时`,
      path: ['value'],
    });
const orderFilters = {
  order_no: text(40).optional(),
  keyword: text(30).optional(),
  charger_id: optionalId,
  state: enumOrAll(CHARGE_STATE, '状态').optional(),
  start_date: dayFilter,
  end_date: dayFilter,
};

export const chargingSchemas = {
  ...charger.schemas,
  ...chargeCard.schemas,
  chargerportlist: z.object({ charger_id: id }),
  /** a pile's heartbeat by its code (a real pile's way in; the simulated piles beat by themselves each minute) */
  chargerheartbeat: z.object({ code: text(30).min(1, '请输入设备编号') }),
  /** the simulator's toggles and events on a simulated pile (demo and tests) */
  chargersim: z.object({
    charger_id: id,
    action: z.enum(['lose_final', 'keep_final', 'unplug', 'fault', 'repair', 'advance'], { message: '模拟操作取值不正确' }),
    port_id: optionalId,
    /** advance: simulated minutes to run the pile forward */
    minutes: int(1, 600).optional(),
  }),
  chargemembers: z.object({ keyword: text(30).min(1, '请输入手机号或姓名') }),
  chargeorderlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...orderFilters }),
  chargeorderexport: z.object(orderFilters),
  chargeorderinfo: z.object({ id }),
  chargestart: startRules(z.object({ charger_id: id, port_id: id, member_id: id, ...startMode, coupon_code: text(40).default('') })),
  chargestop: z.object({ id }),
  chargecheck: z.object({ id, note: text(200).min(1, '请填写核对说明') }),
  chargereconlist: z.object({}),
  chargereportlist: z.object({ start_date: dayFilter, end_date: dayFilter, charger_id: optionalId }),
  chargereportexport: z.object({ start_date: dayFilter, end_date: dayFilter, charger_id: optionalId }),
  /** 扫码充电: an SMS code to the owner's mobile, at the pile of the QR code (public) */
  chargephonecode: z.object({ rid: id, charger_code: pileCode, mobile: mobileNo }),
  /** 扫码充电: the code traded for the owner's charge session (public) */
  chargephonelogin: z.object({
    rid: id,
    mobile: mobileNo,
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, '请输入 6 位数字验证码'),
  }),
  chargephoneinfo: z.object({ charger_code: pileCode }),
  chargephonestart: startRules(z.object({ charger_code: pileCode, port_id: id, ...startMode })),
  chargephoneorder: z.object({ id }),
  chargephonestop: z.object({ id }),
  chargecardorderlist: z.object({ ...paging, keyword: text(30).optional(), card_id: optionalId }),
  chargecardbuy: z.object({ card_id: id, member_id: id, start_date: dayFilter }),
};

export type ChargingOutputs = ResourceOutputs<typeof charger.def, ChargerItem> &
  ResourceOutputs<typeof chargeCard.def, ChargeCardItem> & {
    chargerportlist: { items: ChargePortItem[] };
    chargerheartbeat: { id: number };
    chargersim: { ports: ChargePortItem[] };
    chargemembers: { items: ChargeMemberItem[] };
    /** total counted up to 10,000 sessions; more: there are more (共 10000+ 条) */
    chargeorderlist: ListAnswer<ChargeOrderItem> & { more: boolean };
    chargeorderinfo: ChargeOrderDetail;
    chargestart: { id: number; order_no: string; prepaid: string };
    chargestop: { id: number };
    chargecheck: { id: number };
    chargereconlist: { items: ChargeReconItem[] };
    chargereportlist: { items: ChargeReportRow[]; sessions: number; energy_kwh: string; income: string };
    chargeorderexport: ExportQueued;
    chargereportexport: ExportQueued;
    /** sandbox_url: the sandbox's page of the message (its code), only while the SMS sandbox is in use outside production */
    chargephonecode: { expires_in: number; resend_in: number; charger_title: string; sandbox_url: string };
    chargephonelogin: { token: string; expires_time: string; realname: string };
    chargephoneinfo: ChargePhoneInfo;
    chargephonestart: { id: number; order_no: string; prepaid: string };
    chargephoneorder: ChargePhoneOrder;
    chargephonestop: { id: number };
    chargecardorderlist: ListAnswer<ChargeCardOrderItem>;
    chargecardbuy: { id: number; end_date: string };
  };
