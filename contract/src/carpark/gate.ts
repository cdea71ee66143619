/**
 * Entries and exits at the gates (车辆进出, /carpark/carInout; the booth console /carpark/booth;
 * docs/product.md#parking-gates): the decision a lane makes for a plate, the stays, their payment
 * (cash, or a QR through the payment provider), manual openings and plate corrections.
 */
import { z } from 'zod';
import { id, idempotencyKey, optionalId, paging, text } from '../common.js';
import type { ExportQueued } from '../jobs.js';
import { enumKeys, valueEnum, wireDay } from '../kit/resource.js';
import { money } from '../money.js';
import { PLATE_COLOR, plate } from './cars.js';
import type { CarType, TempFeeBreakdown } from './tempFee.js';
import { wireTimeText } from './tempFeeConfig.js';
import { CARPARK_ROLES } from './roles.js';

/** Who works the gates: the parking staff and the guards at the booths. */
export const GATE_ROLES = [...CARPARK_ROLES.staff, 'security'] as const;

/** A stay's state: 在场 → 已支付 (paid inside; leaves within the lot's minutes) → 已离场. */
export const STAY_STATE = valueEnum({
  I: { text: '在场', tone: 'processing' },
  P: { text: '已支付', tone: 'warning' },
  O: { text: '已离场', tone: 'default' },
});
export type StayState = keyof typeof STAY_STATE;

/** What the lane decided. */
export const GATE_DECISION = valueEnum({
  open: { text: '开闸', tone: 'success' },
  refuse: { text: '拒绝', tone: 'error' },
  wait: { text: '待确认', tone: 'warning' },
  pay: { text: '待缴费', tone: 'warning' },
});
export type GateDecisionKind = keyof typeof GATE_DECISION;

/**
 * Why a gate opened or did not, in the decision order of docs/product.md#parking-gates. The same
 * codes are a stay's entry_reason and exit_reason.
 */
export const GATE_REASON = valueEnum({
  black: { text: '黑名单', tone: 'error' },
  white: { text: '白名单', tone: 'success' },
  inside: { text: '车辆已在场内', tone: 'error' },
  reenter: { text: '重复入场', tone: 'warning' },
  sold: { text: '产权车', tone: 'success' },
  internal: { text: '内部车', tone: 'success' },
  free: { text: '免费车', tone: 'success' },
  monthly: { text: '月租车', tone: 'success' },
  monthly_expired: { text: '月租车已过期', tone: 'warning' },
  temp: { text: '临时车', tone: 'processing' },
  temp_denied: { text: '不允许临时车', tone: 'error' },
  temp_confirm: { text: '临时车待确认', tone: 'warning' },
  paid: { text: '已缴费', tone: 'success' },
  free_minutes: { text: '免费时长内', tone: 'success' },
  coupon: { text: '停车劵抵扣', tone: 'success' },
  no_fee_booth: { text: '岗亭不收费', tone: 'default' },
  no_standard: { text: '未配置收费标准', tone: 'warning' },
  no_entry: { text: '无入场记录', tone: 'warning' },
  unpaid: { text: '未缴费', tone: 'warning' },
  manual: { text: '人工放行', tone: 'warning' },
});
export type GateReason = keyof typeof GATE_REASON;

/** The kind of car a stay is, as the list shows it (car_type). */
export const STAY_CAR_TYPES = ['临时车', '月租车', '产权车', '内部车', '免费车', '白名单车'] as const;

/** The pay methods at a booth: cash, or the QR code of the payment provider (recorded as WeChat). */
export const STAY_PAY_TYPE = valueEnum({ cash: { text: '现金' }, qr: { text: '扫码支付' } });

/** A lane's decision for a plate, as the booth console shows it and the device is told. */
export interface GateDecision {
  /** the logged event */
  event_id: number;
  decision: GateDecisionKind;
  decision_ch: string;
  reason: GateReason;
  reason_ch: string;
  /** what the gate shows and speaks */
  content: string;
  plate: string;
  lane_id: number;
  lane_title: string;
  direction: 'I' | 'O';
  lot_id: number;
  lot_title: string;
  /** the event's time (the device's; the simulator may set it) */
  at: string;
  car_type: string;
  /** the stay opened, closed, or waiting to be paid (0: none) */
  stay_id: number;
  entry_time: string;
  /** what is owed now ('0.00' when nothing) and how it was priced (exits of temporary cars) */
  due: string;
  breakdown: StayBreakdown | null;
  /** a monthly car's days left (negative: expired that long ago) */
  days_left: number | null;
}

/** A stay's pricing as kept on it: the fee breakdown with the version and the coupons it used. */
export interface StayBreakdown extends TempFeeBreakdown {
  version_id: number;
  version_from: string;
  /** the given coupons (receivelist ids) the pricing applied */
  given_ids: number[];
  /** priced from this time: the entry, or the last payment after its leave window passed */
  from: string;
}

export interface StayItem {
  id: number;
  lot_id: number;
  lot_title: string;
  carno: string;
  car_type: string;
  car_kind: CarType;
  car_kind_ch: string;
  state: StayState;
  state_ch: string;
  inlane: string;
  intime: string;
  outlane: string;
  outtime: string;
  /** minutes parked so far (to the exit, or to now) */
  minutes: number;
  total_fee: string;
  pay_fee: string;
  entry_reason: string;
  entry_reason_ch: string;
  exit_reason: string;
  exit_reason_ch: string;
  /** the open reason in words (the drawer's 放行原因) */
  reason: string;
  paid_time: string;
  manual_by: string;
  manual_note: string;
  read_plate: string;
  room: string;
}

export interface StayInfo extends StayItem {
  breakdown: StayBreakdown | null;
  receipts: Array<{ id: number; receipt_no: string; paid_amount: string; pay_type_ch: string; cashier_name: string; create_time: string }>;
  events: GateEventItem[];
}

export interface GateEventItem {
  id: number;
  lane_id: number;
  lane_title: string;
  lot_title: string;
  direction: 'I' | 'O';
  direction_ch: string;
  plate: string;
  at: string;
  decision: GateDecisionKind;
  decision_ch: string;
  reason: GateReason;
  reason_ch: string;
  content: string;
  due: string;
  stay_id: number;
  operator: string;
}

/** The booth console's figures for one booth's lot. */
export interface BoothConsole {
  booth_id: number;
  booth_title: string;
  lot_id: number;
  lot_title: string;
  collects_fee: 'Y' | 'N';
  temp_confirm: 'Y' | 'N';
  lanes: Array<{ id: number; code: string; title: string; direction: 'I' | 'O'; online: 'Y' | 'N'; last_heartbeat: string }>;
  /** cars in the lot now, and the lot's spaces */
  inside: number;
  total_spaces: number;
  /** temporary fees taken today at this lot: count and amount */
  today_count: number;
  today_amount: string;
  /** manual openings today at this booth's lanes */
  manual_today: number;
}

export interface StayPayAnswer {
  stay_id: number;
  payment_id: number;
  receipt_no: string;
  amount: string;
  state: StayState;
  /** the exit's decision when paid at an exit lane (the gate opened) */
  exit: GateDecision | null;
}

export interface StayQrAnswer {
  orderid: string;
  code_url: string;
  amount: string;
}

export interface StayQrStatus {
  orderid: string;
  /** W waiting | Y paid | C cancelled */
  status: 'W' | 'Y' | 'C';
  status_ch: string;
  paid: StayPayAnswer | null;
}

const dateRange = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

/** A device's event time; absent: now. The simulator sets it to play a stay's clock. */
const eventTime = z.union([z.literal(''), wireTimeText]).optional();

const stayFilters = {
  lot_id: optionalId,
  carno: text(10).optional(),
  state: z.enum(['', 'I', 'P', 'O']).optional(),
  car_type: z.enum(['', ...STAY_CAR_TYPES]).optional(),
  reason: z.enum(['', ...(Object.keys(GATE_REASON) as GateReason[])]).optional(),
  intime: dateRange,
  outtime: dateRange,
};

export const gateSchemas = {
  /** a plate seen at a lane (the device adapter's event; the booth console's simulator sends the same) */
  gateevent: z.object({
    lane_id: id,
    plate,
    /** as the camera read it: a yellow plate prices a temporary car as large (docs/product.md#parking-gates) */
    plate_color: z.enum(['', ...enumKeys(PLATE_COLOR)], { error: '车牌颜色取值不正确' }).default(''),
    at: eventTime,
    snapshot: text(300).default(''),
  }),
  /** a device's heartbeat, by the lane's code */
  gateheartbeat: z.object({ code: text(30).min(1, '请输入车道编号') }),
  /** the guard opens the gate by hand: a note is required */
  gatemanualopen: z.object({ lane_id: id, plate, at: eventTime, note: text(100).min(1, '请填写人工放行原因') }),
  /** the camera misread a plate: the guard corrects an open stay's plate */
  stayplatefix: z.object({ id, plate }),
  /** the fee of an open stay if it left at `at` (now when absent), with the plate's coupons */
  stayquote: z.object({ id, at: eventTime }),
  /** cash at the booth: `amount` is what the guard saw (refused when the fee changed); at an exit lane the gate opens */
  staypay: z.object({ id, at: eventTime, amount: money, lane_id: optionalId, idempotency_key: idempotencyKey }),
  /** a QR code for the fee, through the payment provider */
  staypayqr: z.object({ id, at: eventTime, amount: money, lane_id: optionalId }),
  /** asks the provider whether the QR order is paid; settles it once when it is */
  staypayquery: z.object({ orderid: text(40).min(1) }),
  boothconsole: z.object({ booth_id: id }),
  /** the cars in a lot now (the console's 场内车辆) */
  parkinginsidelist: z.object({ ...paging, lot_id: id, carno: text(10).optional() }),
  carinoutlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...stayFilters }),
  carinoutexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...stayFilters }),
  carinoutinfo: z.object({ id }),
  gateeventlist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    lot_id: optionalId,
    booth_id: optionalId,
    lane_id: optionalId,
    plate: text(10).optional(),
    decision: z.enum(['', 'open', 'refuse', 'wait', 'pay']).optional(),
    reason: z.enum(['', ...(Object.keys(GATE_REASON) as GateReason[])]).optional(),
    event_at: dateRange,
  }),
} as const;

export type GateOutputs = {
  gateevent: GateDecision;
  gateheartbeat: { lane_id: number; online: 'Y' };
  gatemanualopen: GateDecision;
  stayplatefix: { id: number; carno: string };
  stayquote: { stay_id: number; at: string; due: string; breakdown: StayBreakdown | null; reason: GateReason; reason_ch: string };
  staypay: StayPayAnswer;
  staypayqr: StayQrAnswer;
  staypayquery: StayQrStatus;
  boothconsole: BoothConsole;
  parkinginsidelist: { items: StayItem[]; total: number };
  carinoutlist: { items: StayItem[]; total: number };
  carinoutexport: ExportQueued;
  carinoutinfo: StayInfo;
  gateeventlist: { items: GateEventItem[]; total: number };
};
