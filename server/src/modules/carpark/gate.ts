/**
 * Entries and exits at the gates (docs/product.md#parking-gates): a plate seen at a lane is decided
 * by `decideAtLane` (gateDecision.ts) on the facts read in one statement, the decision is logged,
 * the stay opened or closed, and the lane's device told to open or not (devices/gates.ts). A
 * temporary car's fee is priced with the version in force at its entry and the plate's coupons,
 * paid in cash or by QR through the payment provider as a receipt of the fees area (临时停车费),
 * and the car leaves within the lot's minutes of paying. The guard may open by hand (with a note)
 * and correct a misread plate.
 */
import crypto from 'node:crypto';
import {
  GATE_DECISION,
  GATE_REASON,
  GATE_ROLES,
  GATE_TEXT_DEFAULTS,
  RC,
  enumText,
  fenToYuan,
  plateCarType,
  type PlateColor,
  toFen,
  type CarType,
  type GateDecision,
  type GateDecisionKind,
  type GateEvent,
  type GateReason,
  type StayBreakdown,
  type StayPayAnswer,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { gateDevice, laneDirection } from '../../devices/gates.js';
import { recordAudit } from '../../http/dispatcher.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';
import { nextReceiptNo } from '../fees/cashier.js';
import { feeSettings } from '../fees/settings.js';
import { couponsForExit, useCoupon } from './couponUse.js';
import { decideAtLane, type LaneFacts } from './gateDecision.js';
import { parseWire, priceStay } from './tempFee.js';
import { providerNamed, sceneProviderOrFail } from '../../payments/channels.js';

/** A device's event time: the simulator plays a stay's clock, within a week back and a day ahead. */
export function eventTime(at: string | undefined, now = new Date()): Date {
  if (!at) return now;
  const t = parseWire(at);
  if (t.getTime() < now.getTime() - 7 * 86_400_000 || t.getTime() > now.getTime() + 86_400_000) {
    fail('事件时间应在最近7天内或24小时以内的将来');
  }
  return t;
}

interface FactsRow {
  lane_id: number;
  lane_title: string;
  direction: 'I' | 'O';
  vendor: string;
  booth_id: number;
  allow_temp: 'Y' | 'N';
  temp_confirm: 'Y' | 'N';
  collects_fee: 'Y' | 'N';
  reenter: 'Y' | 'N';
  exit_no_entry: 'Y' | 'N';
  lot_id: number;
  lot_title: string;
  grace_days: number;
  warn_days: number;
  leave_minutes: number;
  list: 'B' | 'W' | null;
  car_lease: '' | 'M' | 'S' | 'I' | 'F' | null;
  car_lot: number | null;
  car_end: string | null;
  car_kind: string | null;
  stay_id: number | null;
  stay_state: 'I' | 'P' | null;
  stay_intime: Date | null;
  stay_paid_at: Date | null;
  stay_kind: string | null;
  stay_pay_fee: string | null;
  texts: Record<string, string> | null;
}

/**
 * Everything a lane's decision needs, in one statement: the lane, its booth's rules, its lot's
 * settings and texts, the plate's list entry valid on `day`, its car and its open stay in the lot.
 */
async function laneFacts(db: Kysely<DB>, rid: number, laneId: number, plate: string, day: string): Promise<FactsRow | undefined> {
  const res = await sql<FactsRow>`
    SELECT n.id::int AS lane_id, n.title AS lane_title, ${laneDirection('n')} AS direction, n.vendor,
           b.id::int AS booth_id, b.allow_temp, b.temp_confirm, b.collects_fee, b.reenter, b.exit_no_entry,
           l.id::int AS lot_id, l.title AS lot_title, l.grace_days, l.warn_days, l.leave_minutes,
           (SELECT x.kind FROM parking_lists x WHERE x.rid = n.rid AND x.lot_id = l.id AND x.carlicense = ${plate}
              AND ${day}::date BETWEEN x.start_date AND x.end_date) AS list,
           c.lease_type AS car_lease, c.lot_id::int AS car_lot, to_char(c.end_date, 'YYYY-MM-DD') AS car_end, c.car_type AS car_kind,
           s.id::int AS stay_id, s.state AS stay_state, s.intime AS stay_intime, s.paid_at AS stay_paid_at,
           s.car_kind AS stay_kind, s.pay_fee::text AS stay_pay_fee,
           (SELECT json_object_agg(t.event, t.content) FROM parking_gate_texts t WHERE t.rid = n.rid AND t.lot_id = l.id) AS texts
    FROM devices n
    JOIN parking_booths b ON b.rid = n.rid AND b.id = n.booth_id
    JOIN parking_lots l ON l.rid = b.rid AND l.id = b.lot_id
    LEFT JOIN cars c ON c.rid = n.rid AND c.carlicense = ${plate}
    LEFT JOIN parking_records s ON s.rid = n.rid AND s.lot_id = l.id AND s.carno = ${plate} AND s.state <> 'O'
    WHERE n.rid = ${rid} AND n.id = ${laneId} AND n.family = 'gate'`.execute(db);
  return res.rows[0];
}

const toFacts = (r: FactsRow): LaneFacts => ({
  direction: r.direction,
  allow_temp: r.allow_temp,
  temp_confirm: r.temp_confirm,
  collects_fee: r.collects_fee,
  reenter: r.reenter,
  exit_no_entry: r.exit_no_entry,
  grace_days: r.grace_days,
  warn_days: r.warn_days,
  leave_minutes: r.leave_minutes,
  list: r.list,
  lease: r.car_lease && r.car_lot === r.lot_id ? { lease: r.car_lease, end_date: r.car_end } : null,
  stay: r.stay_id !== null && r.stay_state ? { state: r.stay_state, paid_at: r.stay_paid_at } : null,
});

/** The kind a stay is priced as: the registered car's, else the plate's (8 characters: new energy). */
/** The stay's kind once it has one, else the registered car's, else what the plate says. */
const kindOf = (r: FactsRow, plate: string, color: PlateColor | '' = ''): CarType =>
  (r.stay_kind ?? r.car_kind ?? plateCarType(plate, color)) as CarType;

/** The lot's words for an event, with {plate}, {days} and {fee} filled. */
export function gateText(
  texts: Record<string, string> | null,
  event: GateEvent,
  fill: { plate: string; days?: number | null; fee?: string },
): string {
  const words = texts?.[event] ?? GATE_TEXT_DEFAULTS[event];
  return words
    .replaceAll('{plate}', fill.plate)
    .replaceAll('{days}', String(Math.abs(fill.days ?? 0)))
    .replaceAll('{fee}', fill.fee ?? '0.00');
}

/** A stay's fee if it left at `at`, with the plate's coupons; null when the lot has no standard for its kind. */
export async function quoteStay(
  db: Kysely<DB>,
  s: { rid: number; lotId: number; plate: string; kind: CarType; intime: Date; paidAt: Date | null; state: 'I' | 'P'; payFee: string },
  at: Date,
): Promise<StayBreakdown | null> {
  const from = s.state === 'P' && s.paidAt ? s.paidAt : s.intime;
  if (at.getTime() < from.getTime()) fail('出场时间早于入场时间，请检查时间');
  const standard = await db
    .selectFrom('parking_fee_standards')
    .select('id')
    .where('rid', '=', s.rid)
    .where('lot_id', '=', s.lotId)
    .where('car_type', '=', s.kind)
    .executeTakeFirst();
  if (!standard) return null;
  const coupons = await couponsForExit(db, { rid: s.rid, lotId: s.lotId, plate: s.plate, at });
  const priced = await priceStay(db, {
    rid: s.rid,
    lotId: s.lotId,
    carType: s.kind,
    entry: from,
    exit: at,
    versionAt: s.intime,
    // each coupon is named by the given coupon's id, so its effect says which one to use up
    coupons: coupons.map((c) => ({ ...c, id: c.given_id })),
  });
  const { standard_id: _s, ...b } = priced;
  const given = b.coupons.filter((c) => toFen(c.effect) > 0n || c.minutes > 0).map((c) => c.id!);
  return { ...b, paid: s.payFee, given_ids: given, from: wireTime(from) };
}

interface Logged {
  lane: FactsRow;
  plate: string;
  at: Date;
  decision: GateDecisionKind;
  reason: GateReason;
  content: string;
  due: string;
  stayId: number;
  entryTime: Date | null;
  carType: string;
  breakdown: StayBreakdown | null;
  daysLeft: number | null;
  operator?: string;
  snapshot?: string;
}

/** Logs a decision, tells the lane's device, and answers it as the console shows it. */
async function answer(ctx: CommunityCtx, d: Logged): Promise<GateDecision> {
  const ev = await ctx.db
    .insertInto('parking_gate_events')
    .values({
      rid: ctx.rid,
      lane_id: d.lane.lane_id,
      lot_id: d.lane.lot_id,
      plate: d.plate,
      direction: d.lane.direction,
      event_at: d.at,
      decision: d.decision,
      reason: d.reason,
      content: d.content,
      due: d.due,
      stay_id: d.stayId || null,
      operator: d.operator ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await gateDevice(d.lane.vendor).command(ctx.rid, d.lane.lane_id, { open: d.decision === 'open', content: d.content, at: d.at });
  return {
    event_id: Number(ev.id),
    decision: d.decision,
    decision_ch: enumText(GATE_DECISION, d.decision),
    reason: d.reason,
    reason_ch: enumText(GATE_REASON, d.reason),
    content: d.content,
    plate: d.plate,
    lane_id: d.lane.lane_id,
    lane_title: d.lane.lane_title,
    direction: d.lane.direction,
    lot_id: d.lane.lot_id,
    lot_title: d.lane.lot_title,
    at: wireTime(d.at),
    car_type: d.carType,
    stay_id: d.stayId,
    entry_time: wireTime(d.entryTime),
    due: d.due,
    breakdown: d.breakdown,
    days_left: d.daysLeft,
  };
}

const reasonWords = (reason: GateReason, note = '') => enumText(GATE_REASON, reason) + (note ? `：${note}` : '');

/** Opens a stay at an entry lane; an open one of the plate is closed first (a re-entry). Null when another entry won the race. */
async function openStay(
  ctx: CommunityCtx,
  f: FactsRow,
  p: { plate: string; at: Date; reason: GateReason; carType: string; kind: CarType; snapshot?: string; manual?: string },
): Promise<number | null> {
  if (f.stay_id !== null) {
    await ctx.db
      .updateTable('parking_records')
      .set({ state: 'O', outtime: p.at, exit_reason: 'reenter', reason: reasonWords('reenter', '原在场记录关闭') })
      .where('rid', '=', ctx.rid)
      .where('id', '=', f.stay_id)
      .where('state', '<>', 'O')
      .execute();
  }
  const row = await ctx.db
    .insertInto('parking_records')
    .values({
      rid: ctx.rid,
      lot_id: f.lot_id,
      carno: p.plate,
      inlane: f.lane_title,
      intime: p.at,
      car_type: p.carType,
      car_kind: p.kind,
      state: 'I',
      entry_lane_id: f.lane_id,
      entry_reason: p.reason,
      reason: reasonWords(p.reason, p.manual),
      snapshot: p.snapshot ?? '',
      ...(p.manual !== undefined ? { manual_by: ctx.session.accountId, manual_by_name: ctx.session.name, manual_note: p.manual } : {}),
    })
    .onConflict((oc) => oc.columns(['rid', 'lot_id', 'carno']).where('state', '<>', 'O').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** Closes a stay at an exit lane (or records an exit without entry); answers the stay's id. */
async function closeStay(
  ctx: CommunityCtx,
  f: FactsRow,
  p: { plate: string; at: Date; reason: GateReason; carType: string; kind: CarType; breakdown?: StayBreakdown | null; manual?: string },
): Promise<number> {
  const set = {
    state: 'O' as const,
    outtime: p.at,
    outlane: f.lane_title,
    exit_lane_id: f.lane_id,
    exit_reason: p.reason,
    reason: reasonWords(p.reason, p.manual),
    ...(p.breakdown
      ? {
          breakdown: JSON.stringify(p.breakdown),
          version_id: p.breakdown.version_id,
          total_fee: fenToYuan(toFen(p.breakdown.paid) + toFen(p.breakdown.due)),
        }
      : {}),
    ...(p.manual !== undefined ? { manual_by: ctx.session.accountId, manual_by_name: ctx.session.name, manual_note: p.manual } : {}),
  };
  if (f.stay_id !== null) {
    const done = await ctx.db
      .updateTable('parking_records')
      .set(set)
      .where('rid', '=', ctx.rid)
      .where('id', '=', f.stay_id)
      .where('state', '<>', 'O')
      .returning('id')
      .executeTakeFirst();
    if (!done) fail('该车辆已出场，请刷新');
    return f.stay_id;
  }
  const row = await ctx.db
    .insertInto('parking_records')
    .values({
      rid: ctx.rid,
      lot_id: f.lot_id,
      carno: p.plate,
      intime: p.at,
      car_type: p.carType,
      car_kind: p.kind,
      entry_reason: 'no_entry',
      ...set,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function factsOrFail(ctx: CommunityCtx, laneId: number, plate: string, at: Date): Promise<FactsRow> {
  const f = await laneFacts(ctx.db, ctx.rid, laneId, plate, wireTime(at).slice(0, 10));
  if (!f) return fail('车道不存在');
  return f;
}

/** A plate at a lane: decided, logged, the stay opened or closed, the gate told. */
export async function decideEvent(
  ctx: CommunityCtx,
  laneId: number,
  plate: string,
  at: Date,
  seen: { snapshot?: string; color?: PlateColor | '' } = {},
): Promise<GateDecision> {
  const snapshot = seen.snapshot ?? '';
  const f = await factsOrFail(ctx, laneId, plate, at);
  const v = decideAtLane(toFacts(f), wireTime(at).slice(0, 10), at);
  const kind = kindOf(f, plate, seen.color);
  const base = { lane: f, plate, at, due: '0.00', breakdown: null, entryTime: f.stay_intime, snapshot };
  if (v.decision === 'refuse' || v.decision === 'wait') {
    const content = v.text ? gateText(f.texts, v.text, { plate, days: v.days_left }) : `${plate} ${reasonWords(v.reason)}`;
    return answer(ctx, {
      ...base,
      decision: v.decision,
      reason: v.reason,
      content,
      stayId: f.stay_id ?? 0,
      carType: v.car_type,
      daysLeft: v.days_left,
    });
  }
  if (v.decision === 'open') {
    const content = v.text ? gateText(f.texts, v.text, { plate, days: v.days_left }) : `${plate} ${reasonWords(v.reason)}`;
    if (f.direction === 'I') {
      const stayId = await openStay(ctx, f, { plate, at, reason: v.reason, carType: v.car_type, kind, snapshot });
      if (stayId === null) {
        return answer(ctx, {
          ...base,
          decision: 'refuse',
          reason: 'inside',
          content: `${plate} ${reasonWords('inside')}`,
          stayId: 0,
          carType: v.car_type,
          daysLeft: null,
        });
      }
      return answer(ctx, {
        ...base,
        entryTime: at,
        decision: 'open',
        reason: v.reason,
        content,
        stayId,
        carType: v.car_type,
        daysLeft: v.days_left,
      });
    }
    const stayId = await closeStay(ctx, f, { plate, at, reason: v.reason, carType: v.car_type, kind });
    return answer(ctx, { ...base, decision: 'open', reason: v.reason, content, stayId, carType: v.car_type, daysLeft: v.days_left });
  }
  // a temporary car at the exit: priced now
  const stay = {
    rid: ctx.rid,
    lotId: f.lot_id,
    plate,
    kind,
    intime: f.stay_intime!,
    paidAt: f.stay_paid_at,
    state: f.stay_state!,
    payFee: f.stay_pay_fee ?? '0.00',
  };
  const q = await quoteStay(ctx.db, stay, at);
  if (!q || toFen(q.due) === 0n) {
    const reason: GateReason = !q
      ? 'no_standard'
      : q.given_ids.length > 0
        ? 'coupon'
        : v.decision === 'price' && v.from_payment
          ? 'paid'
          : 'free_minutes';
    if (q) await useCoupons(ctx, q, { lotId: f.lot_id, plate, at, stayId: f.stay_id! });
    const stayId = await closeStay(ctx, f, { plate, at, reason, carType: v.car_type, kind, breakdown: q });
    const content = gateText(f.texts, 'temp_out', { plate, fee: '0.00' });
    return answer(ctx, { ...base, decision: 'open', reason, content, stayId, carType: v.car_type, breakdown: q, daysLeft: null });
  }
  // the quote is kept on the stay, so the list shows what it owes while it waits
  await ctx.db
    .updateTable('parking_records')
    .set({ breakdown: JSON.stringify(q), version_id: q.version_id, total_fee: fenToYuan(toFen(q.paid) + toFen(q.due)) })
    .where('rid', '=', ctx.rid)
    .where('id', '=', f.stay_id!)
    .execute();
  const content = gateText(f.texts, 'temp_unpaid', { plate, fee: q.due });
  return answer(ctx, {
    ...base,
    decision: 'pay',
    reason: 'unpaid',
    content,
    due: q.due,
    stayId: f.stay_id!,
    carType: v.car_type,
    breakdown: q,
    daysLeft: null,
  });
}

async function useCoupons(ctx: CommunityCtx, q: StayBreakdown, s: { lotId: number; plate: string; at: Date; stayId: number }) {
  for (const id of q.given_ids) {
    const effect = q.coupons.find((c) => c.id === id)?.effect ?? '0.00';
    await useCoupon(ctx.db, { rid: ctx.rid, id, lotId: s.lotId, plate: s.plate, at: s.at, ref: `stay:${s.stayId}`, amount: effect });
  }
}

const gateevent = defineMethod('gateevent', {
  side: 'community',
  roles: GATE_ROLES,
  writes: true,
  summary:
    '车道识别到车牌（道闸设备或岗亭模拟器）：按固定顺序判定（黑名单、白名单、已在场、产权/内部/免费、月租有效、月租过期、临时车），记录事件，入场开启停车记录、出场结束停车记录；临时车出场按入场时的收费标准版本和车牌的停车劵计费，未缴费时待缴费',
  async handler(ctx, input) {
    return decideEvent(ctx, input.lane_id, input.plate, eventTime(input.at), { snapshot: input.snapshot, color: input.plate_color });
  },
});

const gateheartbeat = defineMethod('gateheartbeat', {
  side: 'community',
  roles: GATE_ROLES,
  writes: true,
  summary: '道闸设备心跳：按车道编号记录最后心跳时间，2分钟内有心跳为在线',
  async handler(ctx, input) {
    const row = await ctx.db
      .updateTable('devices')
      .set({ last_heartbeat: sql<Date>`now()` })
      .where('rid', '=', ctx.rid)
      .where('code', '=', input.code)
      .where('family', '=', 'gate')
      .returning('id')
      .executeTakeFirst();
    if (!row) return fail('车道不存在');
    return { lane_id: Number(row.id), online: 'Y' as const };
  },
});

const gatemanualopen = defineMethod('gatemanualopen', {
  side: 'community',
  roles: GATE_ROLES,
  writes: true,
  summary:
    '人工放行：岗亭人员填写原因后开闸；入口开启停车记录（在场的原记录关闭），出口结束停车记录（未缴的费用记为应收未收）；记录放行人和原因',
  async handler(ctx, input) {
    const at = eventTime(input.at);
    const f = await factsOrFail(ctx, input.lane_id, input.plate, at);
    const kind = kindOf(f, input.plate);
    const v = decideAtLane(toFacts(f), wireTime(at).slice(0, 10), at);
    const carType = v.car_type;
    const base = { lane: f, plate: input.plate, at, breakdown: null, daysLeft: null, operator: ctx.session.name, carType };
    const content = `${input.plate} ${reasonWords('manual')}`;
    if (f.direction === 'I') {
      const stayId = await openStay(ctx, f, { plate: input.plate, at, reason: 'manual', carType, kind, manual: input.note });
      if (stayId === null) fail('该车辆已在场内，请刷新');
      return answer(ctx, { ...base, decision: 'open', reason: 'manual', content, due: '0.00', stayId, entryTime: at });
    }
    // what the stay owed when the guard let it go stays on it as receivable not received
    const q =
      f.stay_id !== null && f.stay_state
        ? await quoteStay(
            ctx.db,
            {
              rid: ctx.rid,
              lotId: f.lot_id,
              plate: input.plate,
              kind,
              intime: f.stay_intime!,
              paidAt: f.stay_paid_at,
              state: f.stay_state,
              payFee: f.stay_pay_fee ?? '0.00',
            },
            at,
          )
        : null;
    const owed = v.decision === 'price' && q ? q : null;
    const stayId = await closeStay(ctx, f, {
      plate: input.plate,
      at,
      reason: 'manual',
      carType,
      kind,
      breakdown: owed,
      manual: input.note,
    });
    return answer(ctx, {
      ...base,
      decision: 'open',
      reason: 'manual',
      content,
      due: owed?.due ?? '0.00',
      stayId,
      entryTime: f.stay_intime,
      breakdown: owed,
    });
  },
});

/** An open stay of the community, locked. */
async function openStayRow(ctx: CommunityCtx, id: number) {
  const s = await ctx.db
    .selectFrom('parking_records')
    .select(['id', 'lot_id', 'carno', 'car_kind', 'state', 'intime', 'paid_at', 'total_fee'])
    .select(sql<string>`pay_fee::text`.as('pay_fee'))
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!s) return fail('停车记录不存在');
  if (s.state === 'O') fail('该车辆已出场');
  return { ...s, state: s.state as 'I' | 'P', id: Number(s.id), lot_id: Number(s.lot_id) };
}

type OpenStay = Awaited<ReturnType<typeof openStayRow>>;

const quoteOf = (ctx: CommunityCtx, s: OpenStay, at: Date) =>
  quoteStay(
    ctx.db,
    {
      rid: ctx.rid,
      lotId: s.lot_id,
      plate: s.carno,
      kind: s.car_kind as CarType,
      intime: s.intime,
      paidAt: s.paid_at,
      state: s.state,
      payFee: s.pay_fee,
    },
    at,
  );

/** The fee to pay now, checked against what the guard saw; refuses a stay that owes nothing. */
async function dueNow(ctx: CommunityCtx, s: OpenStay, at: Date, amount: string): Promise<StayBreakdown> {
  const lot = await ctx.db
    .selectFrom('parking_lots')
    .select('leave_minutes')
    .where('rid', '=', ctx.rid)
    .where('id', '=', s.lot_id)
    .executeTakeFirstOrThrow();
  if (s.state === 'P' && s.paid_at && at.getTime() <= s.paid_at.getTime() + lot.leave_minutes * 60_000)
    fail('该车辆已缴费，请在离场时限内出场');
  const q = await quoteOf(ctx, s, at);
  if (!q) return fail('该停车场未配置此车型的临时车收费标准，无需缴费');
  if (toFen(q.due) === 0n) fail('本次停车无需缴费');
  if (toFen(q.due) !== toFen(amount)) fail(`停车费已变为 ${q.due} 元，请重新计费后收款`);
  return q;
}

/**
 * Records a stay's payment as a receipt of the fees area (临时停车费), uses its coupons, and marks the
 * stay paid; at an exit lane of its lot the stay then leaves through it.
 */
async function settleStay(
  ctx: CommunityCtx,
  s: OpenStay,
  q: StayBreakdown,
  p: { at: Date; payType: 'cash' | 'wechat'; key: string; laneId?: number | undefined; cashier: { id: number | null; name: string } },
): Promise<StayPayAnswer> {
  const settings = await feeSettings(ctx.db, ctx.rid);
  const receiptNo = await nextReceiptNo(ctx, settings.receipt_prefix);
  const lot = await ctx.db
    .selectFrom('parking_lots')
    .select('title')
    .where('rid', '=', ctx.rid)
    .where('id', '=', s.lot_id)
    .executeTakeFirstOrThrow();
  const payment = await ctx.db
    .insertInto('fee_payments')
    .values({
      rid: ctx.rid,
      receipt_no: receiptNo,
      hid: null,
      bid: null,
      tid: null,
      stay_id: s.id,
      payer_name: s.carno,
      receivable: q.due,
      due: q.due,
      paid_amount: q.due,
      pay_type: p.payType,
      cashier_id: p.cashier.id,
      cashier_name: p.cashier.name,
      idempotency_key: p.key,
      remark: `${lot.title} ${s.carno} 临时停车费`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('fee_payment_items')
    .values({
      rid: ctx.rid,
      payment_id: payment.id,
      bill_id: null,
      title: '临时停车费',
      period: wireTime(p.at).slice(0, 7),
      daterange: `${q.from} 至 ${wireTime(p.at)}`,
      fee: q.due,
      cost_type: 'temp_parking',
    })
    .execute();
  await useCoupons(ctx, q, { lotId: s.lot_id, plate: s.carno, at: p.at, stayId: s.id });
  const paidFee = fenToYuan(toFen(s.pay_fee) + toFen(q.due));
  const kept = { ...q, paid: paidFee, due: '0.00' };
  await ctx.db
    .updateTable('parking_records')
    .set({ state: 'P', paid_at: p.at, pay_fee: paidFee, total_fee: paidFee, breakdown: JSON.stringify(kept), version_id: q.version_id })
    .where('rid', '=', ctx.rid)
    .where('id', '=', s.id)
    .execute();
  let exit: GateDecision | null = null;
  if (p.laneId) {
    const f = await factsOrFail(ctx, p.laneId, s.carno, p.at);
    if (f.direction !== 'O' || f.lot_id !== s.lot_id) fail('请选择该停车场的出口车道');
    exit = await decideEvent(ctx, p.laneId, s.carno, p.at);
  }
  return {
    stay_id: s.id,
    payment_id: Number(payment.id),
    receipt_no: receiptNo,
    amount: q.due,
    state: exit?.decision === 'open' ? 'O' : 'P',
    exit,
  };
}

const staypay = defineMethod('staypay', {
  side: 'community',
  roles: GATE_ROLES,
  writes: true,
  summary:
    '临时车现金缴费：按缴费时刻重新计费并核对金额（与页面所见不符时拒绝），生成收据（费用类型 临时停车费，计入收费记录和收银员当班），使用车牌的停车劵；在出口车道缴费则随即开闸出场',
  async handler(ctx, input) {
    const again = await ctx.db
      .selectFrom('fee_payments')
      .select(['id', 'stay_id', 'receipt_no', 'paid_amount'])
      .where('rid', '=', ctx.rid)
      .where('idempotency_key', '=', input.idempotency_key)
      .executeTakeFirst();
    if (again) {
      if (Number(again.stay_id) !== input.id) fail('该收费请求编号已用于其他收费，请刷新后重试');
      const s = await ctx.db
        .selectFrom('parking_records')
        .select('state')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.id)
        .executeTakeFirstOrThrow();
      return reply(
        {
          stay_id: input.id,
          payment_id: Number(again.id),
          receipt_no: again.receipt_no,
          amount: again.paid_amount,
          state: s.state,
          exit: null,
        },
        '收费成功',
      );
    }
    const at = eventTime(input.at);
    const s = await openStayRow(ctx, input.id);
    const q = await dueNow(ctx, s, at, input.amount);
    const paid = await settleStay(ctx, s, q, {
      at,
      payType: 'cash',
      key: input.idempotency_key,
      laneId: input.lane_id,
      cashier: { id: ctx.session.accountId, name: ctx.session.name },
    });
    return reply(paid, '收费成功');
  },
});

/** Scan-to-pay needs a payment provider: the sandbox (SANDBOX=1) or a real one. */
const NO_PROVIDER = '扫码支付未开通，请收取现金';

const staypayqr = defineMethod('staypayqr', {
  side: 'community',
  roles: GATE_ROLES,
  writes: true,
  summary: '临时车扫码缴费：按缴费时刻计费并核对金额，向支付渠道下单，返回二维码地址；支付结果由 staypayquery 查询确认',
  async handler(ctx, input) {
    // the booth's QR code is the group's 收银台扫码 channel (支付渠道)
    const provider = await sceneProviderOrFail(ctx, 'cashier_qr', { none: NO_PROVIDER, otherwise: '请收取现金' });
    const at = eventTime(input.at);
    const s = await openStayRow(ctx, input.id);
    const q = await dueNow(ctx, s, at, input.amount);
    if (input.lane_id) {
      const f = await factsOrFail(ctx, input.lane_id, s.carno, at);
      if (f.direction !== 'O' || f.lot_id !== s.lot_id) fail('请选择该停车场的出口车道');
    }
    const orderid = `PK${wireTime(new Date()).replace(/\D/g, '')}${crypto.randomInt(100000, 999999)}`;
    const { codeUrl } = await provider.createOrder(
      { orderid, totalFee: q.due, description: `临时停车费 ${s.carno}`, origin: ctx.origin },
      ctx.db,
    );
    // an earlier waiting order of the stay is replaced: only the newest code may settle it
    await ctx.db
      .updateTable('parking_pay_orders')
      .set({ status: 'C' })
      .where('rid', '=', ctx.rid)
      .where('stay_id', '=', s.id)
      .where('status', '=', 'W')
      .execute();
    await ctx.db
      .insertInto('parking_pay_orders')
      .values({
        rid: ctx.rid,
        orderid,
        stay_id: s.id,
        priced_at: at,
        coupon_ids: q.given_ids,
        amount: q.due,
        code_url: codeUrl,
        provider: provider.name,
        lane_id: input.lane_id ?? null,
        created_by: ctx.session.accountId,
      })
      .execute();
    return { orderid, code_url: codeUrl, amount: q.due };
  },
});

const ORDER_STATUS_CH = { W: '待支付', Y: '已支付', C: '已取消' } as const;

const staypayquery = defineMethod('staypayquery', {
  side: 'community',
  roles: GATE_ROLES,
  // polling is a read; settling is the one write, in its own transaction with its audit row (as pay_query)
  writes: false,
  summary:
    '查询临时车扫码缴费：支付渠道确认已付且金额一致时生成收据（微信）、停车记录已支付，出口车道下单的随即开闸；只结算一次；未支付返回待支付',
  async handler(ctx, input) {
    const order = await ctx.db
      .selectFrom('parking_pay_orders')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('orderid', '=', input.orderid)
      .executeTakeFirst();
    if (!order) return fail('订单不存在');
    const status = (st: 'W' | 'Y' | 'C', paid: StayPayAnswer | null = null) => ({
      orderid: order.orderid,
      status: st,
      status_ch: ORDER_STATUS_CH[st],
      paid,
    });
    if (order.status !== 'W') return status(order.status);
    // settled by the provider that took the order (orders from before providers were recorded: the server's)
    const provider = order.provider ? providerNamed(ctx.services, order.provider) : ctx.services.payments;
    if (!provider) return fail('该订单的支付渠道已停用，请重新生成二维码或收取现金');
    const got = await provider.queryOrder(order.orderid);
    if (!got.paid) return status('W');
    if (got.amount === undefined || toFen(got.amount) !== toFen(order.amount)) {
      ctx.log.warn({ orderid: order.orderid, expected: order.amount, received: got.amount }, 'parking fee paid with another amount');
      return fail(`支付金额（${got.amount ?? '未知'} 元）与订单金额（${order.amount} 元）不符，未入账，请人工处理`);
    }
    const settled = await ctx.db.transaction().execute(async (trx) => {
      const tx: CommunityCtx = { ...ctx, db: trx };
      const locked = await trx
        .selectFrom('parking_pay_orders')
        .select('status')
        .where('rid', '=', ctx.rid)
        .where('id', '=', order.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      // another poll settled it meanwhile
      if (locked.status !== 'W') return null;
      const s = await openStayRow(tx, Number(order.stay_id));
      const q = await quoteOf(tx, s, order.priced_at);
      if (!q || toFen(q.due) !== toFen(order.amount)) fail('停车费已变化（可能已用现金缴费），此笔扫码支付需退款，请人工处理');
      const creator = order.created_by
        ? await trx.selectFrom('accounts').select('name').where('id', '=', order.created_by).executeTakeFirst()
        : undefined;
      const paid = await settleStay(tx, s, q, {
        at: order.priced_at,
        payType: 'wechat',
        key: `qr-${order.orderid}`,
        laneId: order.lane_id ? Number(order.lane_id) : undefined,
        cashier: { id: order.created_by === null ? null : Number(order.created_by), name: creator?.name ?? '扫码支付' },
      });
      await trx
        .updateTable('parking_pay_orders')
        .set({ status: 'Y', payment_id: paid.payment_id })
        .where('rid', '=', ctx.rid)
        .where('id', '=', order.id)
        .execute();
      await recordAudit(trx, {
        session: ctx.session,
        side: 'community',
        method: 'staypayquery',
        input,
        outcome: RC.SUCCESS,
        message: `临时停车费 ${paid.amount} 元 收据 ${paid.receipt_no}`,
        ip: ctx.ip,
      });
      return paid;
    });
    if (!settled) return status('Y');
    return reply(status('Y', settled), '支付成功');
  },
});

const stayquote = defineMethod('stayquote', {
  side: 'community',
  roles: GATE_ROLES,
  writes: false,
  summary: '在场车辆计费：按给定时刻（默认现在）计算应缴费用与明细（含车牌可用的停车劵）；已缴费且在离场时限内的为 0',
  async handler(ctx, input) {
    const at = eventTime(input.at);
    const s = await ctx.db
      .selectFrom('parking_records as s')
      .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
      .select(['s.id', 's.lot_id', 's.carno', 's.car_kind', 's.state', 's.intime', 's.paid_at', 'l.leave_minutes'])
      .select(sql<string>`s.pay_fee::text`.as('pay_fee'))
      .where('s.rid', '=', ctx.rid)
      .where('s.id', '=', input.id)
      .executeTakeFirst();
    if (!s) return fail('停车记录不存在');
    if (s.state === 'O') fail('该车辆已出场');
    const base = { stay_id: input.id, at: wireTime(at) };
    if (s.state === 'P' && s.paid_at && at.getTime() <= s.paid_at.getTime() + s.leave_minutes * 60_000) {
      return { ...base, due: '0.00', breakdown: null, reason: 'paid' as const, reason_ch: enumText(GATE_REASON, 'paid') };
    }
    const q = await quoteStay(
      ctx.db,
      {
        rid: ctx.rid,
        lotId: Number(s.lot_id),
        plate: s.carno,
        kind: s.car_kind as CarType,
        intime: s.intime,
        paidAt: s.paid_at,
        state: s.state as 'I' | 'P',
        payFee: s.pay_fee,
      },
      at,
    );
    if (!q)
      return { ...base, due: '0.00', breakdown: null, reason: 'no_standard' as const, reason_ch: enumText(GATE_REASON, 'no_standard') };
    const reason: GateReason = toFen(q.due) > 0n ? 'unpaid' : q.given_ids.length ? 'coupon' : 'free_minutes';
    return { ...base, due: q.due, breakdown: q, reason, reason_ch: enumText(GATE_REASON, reason) };
  },
});

const stayplatefix = defineMethod('stayplatefix', {
  side: 'community',
  roles: GATE_ROLES,
  writes: true,
  summary: '更正在场车辆的车牌（识别错误）：保留原识别车牌；若更正后的车牌是本停车场的月租/产权/内部/免费车或白名单车，车辆类型随之更正',
  async handler(ctx, input) {
    const s = await openStayRow(ctx, input.id);
    if (s.carno === input.plate) fail('车牌未改变');
    const day = wireTime(new Date()).slice(0, 10);
    const row = await ctx.db
      .selectFrom('parking_records')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('lot_id', '=', s.lot_id)
      .where('carno', '=', input.plate)
      .where('state', '<>', 'O')
      .executeTakeFirst();
    if (row) fail(`车牌 ${input.plate} 已在场内，不能更正为该车牌`);
    const car = await ctx.db
      .selectFrom('cars')
      .select(['lease_type', 'lot_id', 'car_type'])
      .where('rid', '=', ctx.rid)
      .where('carlicense', '=', input.plate)
      .executeTakeFirst();
    const white = await ctx.db
      .selectFrom('parking_lists')
      .select('kind')
      .where('rid', '=', ctx.rid)
      .where('lot_id', '=', s.lot_id)
      .where('carlicense', '=', input.plate)
      .where('kind', '=', 'W')
      .where(sql<boolean>`${day}::date BETWEEN start_date AND end_date`)
      .executeTakeFirst();
    const lease = car && Number(car.lot_id) === s.lot_id ? car.lease_type : '';
    const [carType, reason]: [string, GateReason] = white
      ? ['白名单车', 'white']
      : ((
          { M: ['月租车', 'monthly'], S: ['产权车', 'sold'], I: ['内部车', 'internal'], F: ['免费车', 'free'] } as Record<
            string,
            [string, GateReason]
          >
        )[lease] ?? ['临时车', 'temp']);
    await ctx.db
      .updateTable('parking_records')
      .set((eb) => ({
        carno: input.plate,
        read_plate: sql<string>`CASE WHEN read_plate = '' THEN ${s.carno} ELSE read_plate END`,
        car_type: carType,
        car_kind: (car?.car_type ?? plateCarType(input.plate)) as CarType,
        entry_reason: eb.case().when('entry_reason', '=', 'manual').then('manual').else(reason).end(),
      }))
      .where('rid', '=', ctx.rid)
      .where('id', '=', s.id)
      .execute();
    return reply({ id: s.id, carno: input.plate }, '车牌已更正');
  },
});

export const gateMethods = [gateevent, gateheartbeat, gatemanualopen, staypay, staypayqr, staypayquery, stayquote, stayplatefix];
