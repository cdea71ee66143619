/**
 * What the gates recorded (docs/product.md#parking-gates): the stays (车辆进出 /carpark/carInout)
 * with filters, detail and export, the cars inside a lot, the lanes' decision log, and the booth
 * console's figures (/carpark/booth).
 */
import {
  CAR_TYPE,
  GATE_DECISION,
  GATE_REASON,
  GATE_ROLES,
  LANE_DIRECTION,
  LANE_ONLINE_MS,
  PAY_TYPE_CH,
  STAY_STATE,
  enumText,
  normalizePlate,
  type CarType,
  type GateEventItem,
  type StayBreakdown,
  type StayItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { laneDirection } from '../../devices/gates.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';

const stayRows = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('parking_records as s')
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
    .select(['s.id', 's.lot_id', 'l.title as lot_title', 's.carno', 's.car_type', 's.car_kind', 's.state', 's.inlane', 's.intime'])
    .select([
      's.outlane',
      's.outtime',
      's.entry_reason',
      's.exit_reason',
      's.reason',
      's.paid_at',
      's.manual_by_name',
      's.manual_note',
      's.read_plate',
    ])
    .select([sql<string>`s.total_fee::text`.as('total_fee'), sql<string>`s.pay_fee::text`.as('pay_fee')])
    .where('s.rid', '=', rid);

type StayRow = Awaited<ReturnType<ReturnType<typeof stayRows>['execute']>>[number];

/** The rooms of the page's plates (a registered car's room), read once for the page. */
async function roomsOfPlates(db: Kysely<DB>, rid: number, plates: string[]): Promise<Map<string, string>> {
  if (plates.length === 0) return new Map();
  const rows = await db
    .selectFrom('cars as c')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'c.rid').onRef('r.id', '=', 'c.hid'))
    .select(['c.carlicense', 'r.address'])
    .where('c.rid', '=', rid)
    .where('c.carlicense', 'in', [...new Set(plates)])
    .execute();
  return new Map(rows.map((r) => [r.carlicense, r.address]));
}

const minutesBetween = (from: Date, to: Date) => Math.max(0, Math.ceil((to.getTime() - from.getTime()) / 60_000));

function toStay(s: StayRow, rooms: Map<string, string>, now = new Date()): StayItem {
  return {
    id: Number(s.id),
    lot_id: Number(s.lot_id),
    lot_title: s.lot_title,
    carno: s.carno,
    car_type: s.car_type,
    car_kind: s.car_kind as CarType,
    car_kind_ch: enumText(CAR_TYPE, s.car_kind),
    state: s.state as StayItem['state'],
    state_ch: enumText(STAY_STATE, s.state),
    inlane: s.inlane,
    intime: wireTime(s.intime),
    outlane: s.outlane,
    outtime: wireTime(s.outtime),
    minutes: minutesBetween(s.intime, s.outtime ?? now),
    total_fee: s.total_fee,
    pay_fee: s.pay_fee,
    entry_reason: s.entry_reason,
    entry_reason_ch: s.entry_reason ? enumText(GATE_REASON, s.entry_reason) : '',
    exit_reason: s.exit_reason,
    exit_reason_ch: s.exit_reason ? enumText(GATE_REASON, s.exit_reason) : '',
    reason: s.reason,
    paid_time: wireTime(s.paid_at),
    manual_by: s.manual_by_name,
    manual_note: s.manual_note,
    read_plate: s.read_plate,
    room: rooms.get(s.carno) ?? '',
  };
}

async function toStays(db: Kysely<DB>, rid: number, rows: StayRow[]): Promise<StayItem[]> {
  const rooms = await roomsOfPlates(
    db,
    rid,
    rows.map((r) => r.carno),
  );
  return rows.map((r) => toStay(r, rooms));
}

type DayRange = [string, string] | undefined;
interface StayFilters {
  lot_id?: number | undefined;
  carno?: string | undefined;
  state?: string | undefined;
  car_type?: string | undefined;
  reason?: string | undefined;
  intime?: DayRange;
  outtime?: DayRange;
}

function filteredStays(db: Kysely<DB>, rid: number, f: StayFilters) {
  let qb = stayRows(db, rid);
  if (f.lot_id) qb = qb.where('s.lot_id', '=', f.lot_id);
  if (f.carno) qb = qb.where('s.carno', 'ilike', likePattern(normalizePlate(f.carno)));
  if (f.state) qb = qb.where('s.state', '=', f.state as 'I' | 'P' | 'O');
  if (f.car_type) qb = qb.where('s.car_type', '=', f.car_type);
  if (f.reason) qb = qb.where((eb) => eb.or([eb('s.entry_reason', '=', f.reason!), eb('s.exit_reason', '=', f.reason!)]));
  if (f.intime) qb = qb.where(withinDays('s.intime', f.intime));
  if (f.outtime) qb = qb.where(withinDays('s.outtime', f.outtime));
  return qb;
}

const carinoutlist = defineMethod('carinoutlist', {
  side: 'community',
  roles: GATE_ROLES,
  writes: false,
  summary:
    '车辆进出记录：停车场、车牌、车辆类型、入场车道与时间、出场车道与时间、停车时长、应收、实收、状态（在场/已支付/已离场）、入场与出场放行原因、人工放行人；可按停车场、车牌、状态、车辆类型、放行原因、入场与出场日期筛选',
  async handler(ctx, input) {
    const qb = filteredStays(ctx.db, ctx.rid, input);
    const page = await listPage(qb.orderBy('s.id', input.sort), input, 's.id', qb);
    return { total: page.total, items: await toStays(ctx.db, ctx.rid, page.items) };
  },
});

const STAY_COLUMNS: SheetColumn<StayItem>[] = [
  { header: 'ID', value: (r) => r.id, width: 8 },
  { header: '停车场', value: (r) => r.lot_title },
  { header: '车牌号', value: (r) => r.carno },
  { header: '车辆类型', value: (r) => r.car_type },
  { header: '车型', value: (r) => r.car_kind_ch },
  { header: '房屋', value: (r) => r.room },
  { header: '入场车道', value: (r) => r.inlane },
  { header: '入场时间', value: (r) => r.intime },
  { header: '出场车道', value: (r) => r.outlane },
  { header: '出场时间', value: (r) => r.outtime },
  { header: '停车时长（分钟）', value: (r) => r.minutes },
  { header: '应收（元）', value: (r) => r.total_fee },
  { header: '实收（元）', value: (r) => r.pay_fee },
  { header: '状态', value: (r) => r.state_ch },
  { header: '入场原因', value: (r) => r.entry_reason_ch },
  { header: '出场原因', value: (r) => r.exit_reason_ch },
  { header: '放行说明', value: (r) => r.reason },
  { header: '人工放行人', value: (r) => r.manual_by },
  { header: '原识别车牌', value: (r) => r.read_plate },
];

const carinoutexport = defineExport('carinoutexport', {
  roles: GATE_ROLES,
  summary: '按当前筛选条件导出车辆进出记录（Excel）',
  filename: () => `车辆进出记录_${today()}.xlsx`,
  check: async ({ db, rid }, input) => refuseOversizedExport(db, filteredStays(db, rid, input)),
  async sheet({ db, rid }, input) {
    const rows = await filteredStays(db, rid, input).orderBy('s.id', input.sort).limit(EXPORT_MAX).execute();
    return sheetOf('车辆进出记录', STAY_COLUMNS, await toStays(db, rid, rows));
  },
});

const eventRows = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('parking_gate_events as e')
    .innerJoin('devices as n', (j) => j.onRef('n.rid', '=', 'e.rid').onRef('n.id', '=', 'e.lane_id'))
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'e.rid').onRef('l.id', '=', 'e.lot_id'))
    .select(['e.id', 'e.lane_id', 'n.title as lane_title', 'l.title as lot_title', 'e.direction', 'e.plate', 'e.event_at', 'e.decision'])
    .select(['e.reason', 'e.content', 'e.stay_id', 'e.operator', sql<string>`e.due::text`.as('due')])
    .where('e.rid', '=', rid);

const toEvent = (e: Awaited<ReturnType<ReturnType<typeof eventRows>['execute']>>[number]): GateEventItem => ({
  id: Number(e.id),
  lane_id: Number(e.lane_id),
  lane_title: e.lane_title,
  lot_title: e.lot_title,
  direction: e.direction as 'I' | 'O',
  direction_ch: enumText(LANE_DIRECTION, e.direction),
  plate: e.plate,
  at: wireTime(e.event_at),
  decision: e.decision as GateEventItem['decision'],
  decision_ch: enumText(GATE_DECISION, e.decision),
  reason: e.reason as GateEventItem['reason'],
  reason_ch: enumText(GATE_REASON, e.reason),
  content: e.content,
  due: e.due,
  stay_id: Number(e.stay_id ?? 0),
  operator: e.operator,
});

const carinoutinfo = defineMethod('carinoutinfo', {
  side: 'community',
  roles: GATE_ROLES,
  writes: false,
  summary:
    '停车记录详情：记录本身、计费明细（收费标准版本、免费时长、首段、超时、封顶、停车劵、应付、已付）、收据和该次停车在各车道的判定记录',
  async handler(ctx, input) {
    const row = await stayRows(ctx.db, ctx.rid).select('s.breakdown').where('s.id', '=', input.id).executeTakeFirst();
    if (!row) return fail('停车记录不存在');
    const [stay] = await toStays(ctx.db, ctx.rid, [row]);
    const receipts = await ctx.db
      .selectFrom('fee_payments')
      .select(['id', 'receipt_no', 'pay_type', 'cashier_name', 'created_at', sql<string>`paid_amount::text`.as('paid_amount')])
      .where('rid', '=', ctx.rid)
      .where('stay_id', '=', input.id)
      .orderBy('id')
      .execute();
    const events = await eventRows(ctx.db, ctx.rid).where('e.stay_id', '=', input.id).orderBy('e.id').execute();
    return {
      ...stay!,
      breakdown: (row.breakdown as StayBreakdown | null) ?? null,
      receipts: receipts.map((r) => ({
        id: Number(r.id),
        receipt_no: r.receipt_no,
        paid_amount: r.paid_amount,
        pay_type_ch: PAY_TYPE_CH[r.pay_type] ?? r.pay_type,
        cashier_name: r.cashier_name,
        create_time: wireTime(r.created_at),
      })),
      events: events.map(toEvent),
    };
  },
});

const parkinginsidelist = defineMethod('parkinginsidelist', {
  side: 'community',
  roles: GATE_ROLES,
  writes: false,
  summary: '场内车辆：停车场当前在场（含已缴费待离场）的车辆，最早入场在前；可按车牌筛选',
  async handler(ctx, input) {
    let qb = stayRows(ctx.db, ctx.rid).where('s.lot_id', '=', input.lot_id).where('s.state', '<>', 'O');
    if (input.carno) qb = qb.where('s.carno', 'ilike', likePattern(normalizePlate(input.carno)));
    const page = await listPage(qb.orderBy('s.intime').orderBy('s.id'), { ...input, sort: 'asc' }, 's.id', qb);
    return { total: page.total, items: await toStays(ctx.db, ctx.rid, page.items) };
  },
});

const gateeventlist = defineMethod('gateeventlist', {
  side: 'community',
  roles: GATE_ROLES,
  writes: false,
  summary:
    '车道判定记录：每次识别的车牌、车道、时间、判定（开闸/拒绝/待确认/待缴费）、原因、显示文字、应缴、操作人；可按停车场、岗亭、车道、车牌、判定、原因、日期筛选',
  async handler(ctx, input) {
    let qb = eventRows(ctx.db, ctx.rid);
    if (input.lot_id) qb = qb.where('e.lot_id', '=', input.lot_id);
    if (input.booth_id) qb = qb.where('n.booth_id', '=', input.booth_id);
    if (input.lane_id) qb = qb.where('e.lane_id', '=', input.lane_id);
    if (input.plate) qb = qb.where('e.plate', 'ilike', likePattern(normalizePlate(input.plate)));
    if (input.decision) qb = qb.where('e.decision', '=', input.decision);
    if (input.reason) qb = qb.where('e.reason', '=', input.reason);
    if (input.event_at) qb = qb.where(withinDays('e.event_at', input.event_at));
    const page = await listPage(qb.orderBy('e.id', input.sort), input, 'e.id', qb);
    return { total: page.total, items: page.items.map(toEvent) };
  },
});

const boothconsole = defineMethod('boothconsole', {
  side: 'community',
  roles: GATE_ROLES,
  writes: false,
  summary: '岗亭值守台：岗亭的车道（在线状态）、停车场在场车辆数与车位数、今日临时车收费笔数与金额、今日本岗亭人工放行次数',
  async handler(ctx, input) {
    const booth = await ctx.db
      .selectFrom('parking_booths as b')
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'b.rid').onRef('l.id', '=', 'b.lot_id'))
      .select(['b.id', 'b.title', 'b.lot_id', 'l.title as lot_title', 'l.total_spaces', 'b.collects_fee', 'b.temp_confirm'])
      .where('b.rid', '=', ctx.rid)
      .where('b.id', '=', input.booth_id)
      .executeTakeFirst();
    if (!booth) return fail('岗亭不存在');
    const day = today();
    const [lanes, inside, takings, manual] = await Promise.all([
      ctx.db
        .selectFrom('devices as n')
        .select(['n.id', 'n.code', 'n.title', laneDirection('n').as('direction'), 'n.last_heartbeat'])
        .where('n.rid', '=', ctx.rid)
        .where('n.booth_id', '=', input.booth_id)
        .orderBy('n.direction')
        .orderBy('n.id')
        .execute(),
      ctx.db
        .selectFrom('parking_records')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', ctx.rid)
        .where('lot_id', '=', booth.lot_id)
        .where('state', '<>', 'O')
        .executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom('fee_payments as p')
        .innerJoin('parking_records as s', (j) => j.onRef('s.rid', '=', 'p.rid').onRef('s.id', '=', 'p.stay_id'))
        .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(p.paid_amount), 0)::numeric(14,2)::text`.as('amount')])
        .where('p.rid', '=', ctx.rid)
        .where('s.lot_id', '=', booth.lot_id)
        .where('p.status', '<>', 'V')
        .where(withinDays('p.created_at', [day, day]))
        .executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom('parking_gate_events as e')
        .innerJoin('devices as n', (j) => j.onRef('n.rid', '=', 'e.rid').onRef('n.id', '=', 'e.lane_id'))
        .select(sql<number>`count(*)::int`.as('n'))
        .where('e.rid', '=', ctx.rid)
        .where('n.booth_id', '=', input.booth_id)
        .where('e.reason', '=', 'manual')
        .where(withinDays('e.created_at', [day, day]))
        .executeTakeFirstOrThrow(),
    ]);
    const now = Date.now();
    return {
      booth_id: Number(booth.id),
      booth_title: booth.title,
      lot_id: Number(booth.lot_id),
      lot_title: booth.lot_title,
      collects_fee: booth.collects_fee,
      temp_confirm: booth.temp_confirm,
      lanes: lanes.map((n) => ({
        id: Number(n.id),
        code: n.code,
        title: n.title,
        direction: n.direction,
        online: (n.last_heartbeat && now - n.last_heartbeat.getTime() < LANE_ONLINE_MS ? 'Y' : 'N') as 'Y' | 'N',
        last_heartbeat: wireTime(n.last_heartbeat),
      })),
      inside: inside.n,
      total_spaces: booth.total_spaces,
      today_count: takings.n,
      today_amount: takings.amount,
      manual_today: manual.n,
    };
  },
});

export const stayMethods = [carinoutlist, carinoutexport, carinoutinfo, parkinginsidelist, gateeventlist, boothconsole];
