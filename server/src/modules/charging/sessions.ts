/**
 * Charging sessions (docs/product.md#charging-piles): a member's session is started from the
 * console with a prepayment held from the member's balance, started on the pile through the device
 * queue (pile_start; the port goes 充电中 when the pile acks), followed by the pile's meter values,
 * and settled from its final meter value at the prices in force at the start (and their version):
 * the price breakdown is kept and the rest of the prepayment goes back to the balance in the same
 * transaction. A session whose last meter value is older than CHARGE_FRAME_TIMEOUT_MS is closed
 * from it and flagged 待核对 (a job), which staff mark 已核对 with a note. The console stops a session
 * with pile_stop. A month card's hours a day and a charging coupon (its face value paying whole
 * hours) reduce the bill.
 */
import {
  CHARGE_END_REASON,
  CHARGE_FRAME_TIMEOUT_MS,
  CHARGE_MAX_HOURS,
  CHARGE_MODE,
  CHARGE_STATE,
  CHARGING_ROLES,
  chargeBill,
  enumText,
  fenToYuan,
  normalCouponCode,
  prepayFen,
  pricingProblem,
  toFen,
  type ChargeBill,
  type ChargeEndReason,
  type ChargeFrame,
  type ChargeMode,
  type ChargeOrderDetail,
  type ChargeOrderItem,
  type ChargePricing,
  type ChargeState,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isOnline, onCommandAck, queueCommand } from '../../devices/access.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, reply, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { cappedTotal, listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { moveBalance } from '../cards/ledger.js';
import { redeemCoupon, whyNotUsable } from '../cards/coupons.js';
import { pileOf, pricingOf } from './piles.js';

export const LIVE: ChargeState[] = ['starting', 'charging', 'stopping'];
/** The session list counts its rows up to this (共 10000+ 条). */
const COUNT_CAP = 10_000;
/** A command closed for good: a failed start is not tried again (the member walked away; the order failed). */
const NEVER = new Date('9999-01-01T00:00:00Z');

export interface SessionPricing extends ChargePricing {
  power_kw: string;
}

const newOrderNo = (now: Date) => `CD${wireTime(now).replace(/\D/g, '')}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

/** The month card hours a member may still take free today (and the card), none without a live card. */
async function cardHoursLeft(db: Kysely<DB>, rid: number, memberId: number): Promise<{ orderId: number | null; hours: number }> {
  const day = today();
  const card = await db
    .selectFrom('charge_card_orders')
    .select(['id', 'hours_per_day'])
    .where('rid', '=', rid)
    .where('member_id', '=', memberId)
    .where('start_date', '<=', day)
    .where('end_date', '>=', day)
    .orderBy('end_date', 'desc')
    .executeTakeFirst();
  if (!card) return { orderId: null, hours: 0 };
  const used = await db
    .selectFrom('charge_orders')
    .select(sql<number>`coalesce(sum(card_hours), 0)::int`.as('n'))
    .where('rid', '=', rid)
    .where('member_id', '=', memberId)
    .where('state', '<>', 'failed')
    .where(sql<boolean>`created_at::date = ${day}::date`)
    .executeTakeFirstOrThrow();
  return { orderId: Number(card.id), hours: Math.max(0, card.hours_per_day - used.n) };
}

/** A charging coupon of the member, usable now: its face value (fen). */
async function couponFace(db: Kysely<DB>, rid: number, memberId: number, code: string): Promise<bigint> {
  const c = await db
    .selectFrom('member_coupons as t')
    .innerJoin('member_coupon_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.template_id'))
    .select(['t.member_id', 't.status', 't.valid_from', 't.valid_to'])
    .select(['ct.kind', 'ct.purpose', 'ct.face_value', 'ct.min_spend', 'ct.discount_percent', 'ct.discount_cap', 'ct.merchant_ids'])
    .where('t.rid', '=', rid)
    .where('t.code', '=', normalCouponCode(code))
    .executeTakeFirst();
  if (!c) fail('券码不存在');
  const why = whyNotUsable(c as never, { memberId, merchantId: null, purpose: 'charging' });
  if (why) fail(why);
  if (c.kind !== 'amount') fail('充电只能使用满减券：按面值折算为免费时长');
  return toFen(String(c.face_value));
}

/** Who starts or stops a session: a staff account at the console, or the owner's phone (no account). */
export interface SessionActor {
  accountId: number | null;
  name: string;
}

/**
 * Starts a session (chargestart at the console, chargephonestart from the owner's phone): checks the
 * pile, the port and the member, holds the prepayment from the member's balance and queues pile_start.
 */
export async function startSession(
  db: Kysely<DB>,
  rid: number,
  input: { charger_id: number; port_id: number; member_id: number; mode: ChargeMode; value: string; coupon_code: string },
  by: SessionActor,
): Promise<{ id: number; order_no: string; prepaid: string }> {
  const now = new Date();
  const pile = await pileOf(db, rid, input.charger_id, true);
  if (pile.enabled !== 'Y') fail('该充电桩已停用');
  if (!isOnline(pile.last_heartbeat, now)) fail('充电桩离线，不能启动');
  const port = await db
    .selectFrom('charger_ports')
    .selectAll()
    .where('rid', '=', rid)
    .where('id', '=', input.port_id)
    .where('charger_id', '=', input.charger_id)
    .forUpdate()
    .executeTakeFirst();
  if (!port) fail('插座不存在');
  if (port.state === 'fault') fail('该插座故障，不能充电');
  const live = await db
    .selectFrom('charge_orders')
    .select('id')
    .where('rid', '=', rid)
    .where('port_id', '=', port.id)
    .where('state', 'in', LIVE)
    .executeTakeFirst();
  if (live || port.state !== 'free') fail('该插座正在使用中');
  const member = await db
    .selectFrom('members')
    .select(['id', 'realname', 'balance'])
    .where('rid', '=', rid)
    .where('id', '=', input.member_id)
    .executeTakeFirst();
  if (!member) fail('会员不存在');
  const pricing: SessionPricing = { ...pricingOf(pile), power_kw: String(pile.power_kw) };
  const problem = pricingProblem(pricing);
  if (problem) fail(`该充电桩未设置好电价：${problem}`);
  if (input.mode === 'energy' && pricing.kind === 'car' && toFen(input.value) > toFen(String(pile.power_kw)) * BigInt(CHARGE_MAX_HOURS)) {
    fail(`按电量充电最多 ${CHARGE_MAX_HOURS} 小时的电量`);
  }
  const prepaid = prepayFen(pricing, input.mode, input.value);
  if (prepaid <= 0n) fail('预付金额应大于 0');
  if (toFen(String(member.balance)) < prepaid) {
    fail(`业主余额不足：本次需预付 ${fenToYuan(prepaid)} 元，余额 ${fenToYuan(toFen(String(member.balance)))} 元，请先充值`);
  }
  const card = await cardHoursLeft(db, rid, member.id);
  const face = input.coupon_code ? await couponFace(db, rid, member.id, input.coupon_code) : 0n;
  const orderNo = newOrderNo(now);
  await moveBalance(db, {
    rid: rid,
    memberId: member.id,
    fen: prepaid,
    ioType: 2,
    feetype: 'charging',
    paytype: 'balance',
    orderid: orderNo,
    remark: `充电预付（${pile.title} ${port.no}号插座）`,
    createUser: by.name,
  });
  const order = await db
    .insertInto('charge_orders')
    .values({
      rid: rid,
      order_no: orderNo,
      charger_id: pile.id,
      port_id: port.id,
      member_id: member.id,
      mode: input.mode,
      mode_value: input.value,
      prepaid: fenToYuan(prepaid),
      pricing: JSON.stringify(pricing),
      price_version: pile.price_version,
      card_order_id: card.orderId,
      card_hours: card.hours,
      coupon_code: input.coupon_code ? normalCouponCode(input.coupon_code) : '',
      coupon_face: fenToYuan(face),
      created_by: by.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(order.id);
  await queueCommand(db, rid, {
    deviceId: pile.id,
    kind: 'pile_start',
    subject: `charge:${id}`,
    // what a pile is told: the port, the limits, and the prices it stops at the money prepaid by
    payload: {
      order_id: id,
      port_id: port.id,
      port_no: port.no,
      mode: input.mode,
      value: input.value,
      prepaid: fenToYuan(prepaid),
      card_hours: card.hours,
      coupon_face: fenToYuan(face),
      pricing,
    },
    createdBy: by.accountId,
    priority: 0,
  });
  return { id, order_no: orderNo, prepaid: fenToYuan(prepaid) };
}

const chargestart = defineMethod('chargestart', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: true,
  summary:
    '开始充电：会员（本小区）、充电桩与插座、方式（按时长、按电量、按金额、充满）与数值、可选充电券；从会员余额预付（不足时拒绝），经设备指令队列下发启动，桩应答后插座变为充电中',
  async handler(ctx, input) {
    const started = await startSession(ctx.db, ctx.rid, input, { accountId: ctx.session.accountId, name: ctx.session.name });
    return reply(started, `已下发启动指令，预付 ${started.prepaid} 元`);
  },
});

/** The community's order `id`, or 充电订单不存在. */
export async function orderOf(db: Kysely<DB>, rid: number, id: number, lock = false) {
  const qb = db.selectFrom('charge_orders').selectAll().where('rid', '=', rid).where('id', '=', id);
  const row = await (lock ? qb.forUpdate() : qb).executeTakeFirst();
  return row ?? fail('充电订单不存在');
}

const chargestop = defineMethod('chargestop', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: true,
  summary: '后台停止充电：下发停止指令（pile_stop），桩送来最后的电表读数后结算（结束原因：后台停止）',
  async handler(ctx, input) {
    const o = await orderOf(ctx.db, ctx.rid, input.id, true);
    await stopSession(ctx.db, ctx.rid, o, { accountId: ctx.session.accountId, name: ctx.session.name, reason: 'console' });
    return reply({ id: o.id }, '已下发停止指令');
  },
});

/** Stops a charging session (chargestop, chargephonestop): 结束中, and pile_stop queued. `o` is locked by the caller. */
export async function stopSession(
  db: Kysely<DB>,
  rid: number,
  o: { id: number; state: string; port_id: number; charger_id: number },
  by: SessionActor & { reason: 'console' | 'phone' },
): Promise<void> {
  if (o.state === 'stopping') fail('已下发停止指令，等待充电桩应答');
  if (o.state !== 'charging') fail(`该订单${enumText(CHARGE_STATE, o.state)}，不能停止`);
  const port = await db
    .selectFrom('charger_ports')
    .select('no')
    .where('rid', '=', rid)
    .where('id', '=', o.port_id)
    .executeTakeFirstOrThrow();
  await db.updateTable('charge_orders').set({ state: 'stopping' }).where('rid', '=', rid).where('id', '=', o.id).execute();
  await queueCommand(db, rid, {
    deviceId: o.charger_id,
    kind: 'pile_stop',
    subject: `charge:${o.id}`,
    payload: { order_id: o.id, port_id: o.port_id, port_no: port.no, reason: by.reason },
    createdBy: by.accountId,
    priority: 0,
  });
}

const chargecheck = defineMethod('chargecheck', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: true,
  summary: '核对超时关闭的订单（待核对 → 已核对），须填写核对说明',
  async handler(ctx, input) {
    const o = await orderOf(ctx.db, ctx.rid, input.id, true);
    if (o.state !== 'check') fail(`该订单${enumText(CHARGE_STATE, o.state)}，无需核对`);
    await ctx.db
      .updateTable('charge_orders')
      .set({ state: 'checked', check_note: input.note, checked_by: ctx.session.accountId, checked_at: new Date() })
      .where('rid', '=', ctx.rid)
      .where('id', '=', o.id)
      .execute();
    return reply({ id: o.id }, '已核对');
  },
});

/* ------------------------------------------------------------- what the pile reports */

/** A meter value of a live session (the first one starts it); ignored once the session is closed. */
export async function recordFrame(db: Kysely<DB>, rid: number, orderId: number, at: Date, wh: number, powerW: number): Promise<boolean> {
  const o = await db
    .updateTable('charge_orders')
    .set({
      last_frame_at: at,
      start_wh: sql<number>`coalesce(start_wh, ${wh})`,
      start_at: sql<Date>`coalesce(start_at, ${at}::timestamptz)`,
    })
    .where('rid', '=', rid)
    .where('id', '=', orderId)
    .where('state', 'in', LIVE)
    .returning('port_id')
    .executeTakeFirst();
  if (!o) return false;
  await db.insertInto('charge_frames').values({ rid, order_id: orderId, at, meter_wh: wh, power_w: powerW }).execute();
  await db.updateTable('charger_ports').set({ meter_wh: wh, power_w: powerW }).where('rid', '=', rid).where('id', '=', o.port_id).execute();
  return true;
}

/** The session's meter values as the pricing reads them. */
export async function framesOf(db: Kysely<DB>, rid: number, orderId: number): Promise<ChargeFrame[]> {
  const rows = await db
    .selectFrom('charge_frames')
    .select(['at', 'meter_wh'])
    .where('rid', '=', rid)
    .where('order_id', '=', orderId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ at: new Date(r.at).getTime(), wh: Number(r.meter_wh) }));
}

/**
 * Settles a live session from its meter values: the bill at the prices it started with, the
 * coupon used for the hours it paid, the rest of the prepayment back to the balance; all in the
 * caller's transaction. `flag` closes it 待核对 (its final value never came).
 */
export async function settleOrder(
  db: Kysely<DB>,
  rid: number,
  orderId: number,
  end: { reason: ChargeEndReason; flag?: boolean; by?: string },
): Promise<boolean> {
  const o = await db
    .selectFrom('charge_orders')
    .selectAll()
    .where('rid', '=', rid)
    .where('id', '=', orderId)
    .where('state', 'in', LIVE)
    .forUpdate()
    .executeTakeFirst();
  if (!o) return false;
  const pricing = (typeof o.pricing === 'string' ? JSON.parse(o.pricing) : o.pricing) as SessionPricing;
  const frames = await framesOf(db, rid, orderId);
  const faceFen = toFen(String(o.coupon_face));
  let bill: ChargeBill = chargeBill(pricing, frames, o.card_hours, faceFen);
  if (bill.coupon_fen > 0n) {
    try {
      await redeemCoupon(db, {
        rid,
        code: o.coupon_code,
        memberId: o.member_id,
        merchantId: null,
        purpose: 'charging',
        amountFen: bill.coupon_fen,
        orderNo: o.order_no,
      });
    } catch (err) {
      // used or voided since the start: the session is billed without it
      if (!(err instanceof BizError)) throw err;
      bill = chargeBill(pricing, frames, o.card_hours, 0n);
    }
  }
  const prepaid = toFen(String(o.prepaid));
  const amount = bill.total_fen < prepaid ? bill.total_fen : prepaid;
  const refund = prepaid - amount;
  await moveBalance(db, {
    rid,
    memberId: o.member_id,
    fen: refund,
    ioType: 1,
    feetype: 'charging',
    paytype: 'balance',
    orderid: o.order_no,
    remark: '充电结算退回预付余额',
    createUser: end.by ?? '系统',
  });
  const last = frames[frames.length - 1];
  await db
    .updateTable('charge_orders')
    .set({
      state: end.flag ? 'check' : 'done',
      end_reason: end.reason,
      end_at: last ? new Date(last.at) : new Date(),
      end_wh: last?.wh ?? null,
      hours: frames.length ? bill.hours : 0,
      coupon_hours: bill.coupon_hours,
      amount: fenToYuan(amount),
      refund: fenToYuan(refund),
      breakdown: JSON.stringify({
        slots: bill.slots,
        gross: fenToYuan(bill.gross_fen),
        card_free: fenToYuan(bill.free_fen),
        coupon_free: fenToYuan(bill.coupon_fen),
        capped: bill.total_fen > prepaid,
      }),
    })
    .where('rid', '=', rid)
    .where('id', '=', orderId)
    .execute();
  return true;
}

/** The pile's final meter value of a session: recorded, then the session is settled. */
export async function finishOrder(
  db: Kysely<DB>,
  rid: number,
  orderId: number,
  final: { at: Date; wh: number; reason: ChargeEndReason },
): Promise<boolean> {
  if (!(await recordFrame(db, rid, orderId, final.at, final.wh, 0))) return false;
  return settleOrder(db, rid, orderId, { reason: final.reason });
}

/**
 * Closes the live sessions whose last meter value (or start) is older than the time-out at `now`
 * from that value, flagged 待核对; answers how many. Each in a transaction of its own.
 */
export async function sweepChargeOrders(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - CHARGE_FRAME_TIMEOUT_MS);
  const stale = await db
    .selectFrom('charge_orders')
    .select(['rid', 'id'])
    .where('state', 'in', ['charging', 'stopping'])
    .where(sql<Date>`coalesce(last_frame_at, start_at, created_at)`, '<', cutoff)
    .orderBy('id')
    .limit(500)
    .execute();
  let n = 0;
  for (const s of stale) {
    const run = (trx: Kysely<DB>) => settleOrder(trx, s.rid, Number(s.id), { reason: 'timeout', flag: true });
    if (await (db.isTransaction ? run(db) : db.transaction().execute(run))) n++;
  }
  return n;
}

export const CHARGE_SWEEP_KIND = 'charging_sweep';
registerJobKind(CHARGE_SWEEP_KIND, async ({ db }) => ({ closed: await sweepChargeOrders(db) }));
registerPeriodicJob(CHARGE_SWEEP_KIND, 1);

/* ------------------------------------------------------------- the pile's answers */

const payloadOf = (p: unknown) => (typeof p === 'string' ? JSON.parse(p) : p) as { order_id?: number; port_id?: number };

onCommandAck('pile_start', async (db, e) => {
  const orderId = Number(payloadOf(e.command.payload).order_id);
  const o = await db
    .selectFrom('charge_orders')
    .selectAll()
    .where('rid', '=', e.rid)
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!o || o.state !== 'starting') return;
  if (e.ok) {
    await db
      .updateTable('charge_orders')
      .set({ state: 'charging', error: '' })
      .where('rid', '=', e.rid)
      .where('id', '=', orderId)
      .execute();
    // the port charges from the pile's acknowledgement on
    await db
      .updateTable('charger_ports')
      .set({ state: 'charging' })
      .where('rid', '=', e.rid)
      .where('id', '=', o.port_id)
      .where('state', '=', 'free')
      .execute();
    return;
  }
  // a start that failed is not tried again: the order fails and the whole prepayment goes back
  await db.updateTable('device_commands').set({ next_try_at: NEVER }).where('rid', '=', e.rid).where('id', '=', e.command.id).execute();
  await db
    .updateTable('charge_orders')
    .set({ state: 'failed', error: e.error, refund: o.prepaid, amount: '0', end_at: new Date() })
    .where('rid', '=', e.rid)
    .where('id', '=', orderId)
    .execute();
  await moveBalance(db, {
    rid: e.rid,
    memberId: o.member_id,
    fen: toFen(String(o.prepaid)),
    ioType: 1,
    feetype: 'charging',
    paytype: 'balance',
    orderid: o.order_no,
    remark: `充电启动失败，退回预付（${e.error}）`,
    createUser: '系统',
  });
});

onCommandAck('pile_stop', async (db, e) => {
  if (e.ok) return;
  // the stop is tried again by the queue; the order says why it still runs
  const orderId = Number(payloadOf(e.command.payload).order_id);
  await db
    .updateTable('charge_orders')
    .set({ error: `停止指令失败：${e.error}` })
    .where('rid', '=', e.rid)
    .where('id', '=', orderId)
    .where('state', '=', 'stopping')
    .execute();
});

/* ------------------------------------------------------------- reading the sessions */

const baseOrders = (db: Kysely<DB>, rid: number) => db.selectFrom('charge_orders as o').where('o.rid', '=', rid);

/** The sessions with their pile's name, port number and member. */
function withNames(qb: ReturnType<typeof baseOrders>) {
  return qb
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'o.rid').onRef('d.id', '=', 'o.charger_id'))
    .innerJoin('charger_ports as p', (j) => j.onRef('p.rid', '=', 'o.rid').onRef('p.id', '=', 'o.port_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'o.rid').onRef('m.id', '=', 'o.member_id'))
    .selectAll('o')
    .select(['d.title as charger_title', 'p.no as port_no', 'm.realname', 'm.mobile']);
}
const ordersQuery = (db: Kysely<DB>, rid: number) => withNames(baseOrders(db, rid));
type OrderRow = Awaited<ReturnType<ReturnType<typeof ordersQuery>['executeTakeFirstOrThrow']>>;

const kwh = (wh: number | null) => ((wh ?? 0) / 1000).toFixed(3);
const yuan = (v: string | null) => (v === null ? '' : fenToYuan(toFen(String(v))));

function toItem(r: OrderRow): ChargeOrderItem {
  const energy = r.end_wh !== null && r.start_wh !== null ? r.end_wh - r.start_wh : 0;
  return {
    id: Number(r.id),
    order_no: r.order_no,
    charger_id: Number(r.charger_id),
    charger_title: r.charger_title,
    port_id: Number(r.port_id),
    port_no: r.port_no,
    member_id: Number(r.member_id),
    realname: r.realname,
    mobile: r.mobile,
    mode: r.mode as ChargeMode,
    mode_ch: enumText(CHARGE_MODE, r.mode),
    mode_value: yuan(String(r.mode_value)),
    prepaid: yuan(String(r.prepaid)),
    amount: yuan(r.amount === null ? null : String(r.amount)),
    refund: yuan(r.refund === null ? null : String(r.refund)),
    energy_kwh: kwh(energy),
    hours: r.hours,
    card_hours: r.card_hours,
    coupon_hours: r.coupon_hours,
    coupon_code: r.coupon_code,
    state: r.state as ChargeState,
    state_ch: enumText(CHARGE_STATE, r.state),
    end_reason: r.end_reason as ChargeOrderItem['end_reason'],
    end_reason_ch: r.end_reason ? enumText(CHARGE_END_REASON, r.end_reason) : '',
    start_time: wireTime(r.start_at),
    end_time: wireTime(r.end_at),
    last_frame_time: wireTime(r.last_frame_at),
    price_version: r.price_version,
    check_note: r.check_note,
    error: r.error,
    create_time: wireTime(r.created_at),
  };
}

/** The sessions meeting the list's filters, without their names (counted so, without a join). */
function filteredOrders(db: Kysely<DB>, rid: number, input: HandlerInput<'chargeorderexport'>) {
  let qb = baseOrders(db, rid);
  if (input.order_no) qb = qb.where('o.order_no', containsOperator(input.order_no), likePattern(input.order_no));
  if (input.keyword) {
    const k = input.keyword;
    qb = qb.where((eb) =>
      eb.exists(
        eb
          .selectFrom('members as m')
          .select('m.id')
          .whereRef('m.rid', '=', 'o.rid')
          .whereRef('m.id', '=', 'o.member_id')
          .where((w) => w.or([w('m.realname', containsOperator(k), likePattern(k)), w('m.mobile', containsOperator(k), likePattern(k))])),
      ),
    );
  }
  if (input.charger_id) qb = qb.where('o.charger_id', '=', input.charger_id);
  if (input.state) qb = qb.where('o.state', '=', input.state);
  if (input.start_date) qb = qb.where('o.created_at', '>=', sql<Date>`${input.start_date}::date`);
  if (input.end_date) qb = qb.where('o.created_at', '<', sql<Date>`${input.end_date}::date + 1`);
  return qb;
}

const chargeorderlist = defineMethod('chargeorderlist', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary: '充电订单：按订单号、姓名或手机号、充电桩、状态、开始日期筛选',
  async handler(ctx, input) {
    const rows = filteredOrders(ctx.db, ctx.rid, input);
    // a year of a community's sessions is hundreds of thousands: counted up to COUNT_CAP (共 10000+ 条)
    const capped = cappedTotal(ctx.db, rows, COUNT_CAP);
    const page = await listPage(withNames(rows), input, 'o.id', capped.total);
    return { total: page.total, more: capped.more(), items: page.items.map((r) => toItem(r as OrderRow)) };
  },
});

const chargeorderexport = defineExport('chargeorderexport', {
  roles: CHARGING_ROLES.staff,
  summary:
    '按当前筛选条件导出充电订单（Excel，最多 10 万行）：订单号、会员、充电桩与插座、方式、电量、计费小时、预付、实收、退回、状态、结束原因、时间',
  filename: () => `充电订单_${today()}.xlsx`,
  check: ({ db, rid }, input) => refuseOversizedExport(db, filteredOrders(db, rid, input).select('o.id')),
  async sheet({ db, rid }, input) {
    const rows = await withNames(filteredOrders(db, rid, input))
      .orderBy('o.id', 'desc')
      .limit(EXPORT_MAX)
      .execute();
    return sheetOf<ChargeOrderItem>(
      '充电订单',
      [
        { header: '订单号', value: (r) => r.order_no, width: 26 },
        { header: '姓名', value: (r) => r.realname, width: 12 },
        { header: '手机号', value: (r) => r.mobile, contact: 'mobile', width: 14 },
        { header: '充电桩', value: (r) => r.charger_title, width: 18 },
        { header: '插座', value: (r) => r.port_no, width: 6 },
        { header: '方式', value: (r) => r.mode_ch, width: 8 },
        { header: '数值', value: (r) => r.mode_value, width: 10 },
        { header: '电量(kWh)', value: (r) => r.energy_kwh, width: 12 },
        { header: '计费小时', value: (r) => r.hours, width: 10 },
        { header: '月卡小时', value: (r) => r.card_hours, width: 10 },
        { header: '券抵小时', value: (r) => r.coupon_hours, width: 10 },
        { header: '预付(元)', value: (r) => r.prepaid, width: 12 },
        { header: '实收(元)', value: (r) => r.amount, width: 12 },
        { header: '退回(元)', value: (r) => r.refund, width: 12 },
        { header: '状态', value: (r) => r.state_ch, width: 10 },
        { header: '结束原因', value: (r) => r.end_reason_ch, width: 10 },
        { header: '开始时间', value: (r) => r.start_time, width: 20 },
        { header: '结束时间', value: (r) => r.end_time, width: 20 },
        { header: '价格版本', value: (r) => r.price_version, width: 10 },
        { header: '核对说明', value: (r) => r.check_note, width: 24 },
      ],
      rows.map((r) => toItem(r as OrderRow)),
    );
  },
});

const chargeorderinfo = defineMethod('chargeorderinfo', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary:
    '充电订单详情：计量数据（时间、电表读数、功率）、按小时的价格明细（分时电量或功率档位、月卡与券抵扣的小时）、结算时的电价与价格版本',
  async handler(ctx, input) {
    const r = await ordersQuery(ctx.db, ctx.rid).where('o.id', '=', input.id).executeTakeFirst();
    if (!r) fail('充电订单不存在');
    const frames = await ctx.db
      .selectFrom('charge_frames')
      .select(['at', 'meter_wh', 'power_w'])
      .where('rid', '=', ctx.rid)
      .where('order_id', '=', input.id)
      .orderBy('at')
      .orderBy('id')
      .execute();
    const b = (typeof r.breakdown === 'string' ? JSON.parse(r.breakdown) : r.breakdown) as {
      slots: ChargeOrderDetail['slots'];
      gross: string;
      card_free: string;
      coupon_free: string;
    } | null;
    const detail: ChargeOrderDetail = {
      ...toItem(r),
      frames: frames.map((f) => ({ at: wireTime(f.at), meter_kwh: kwh(Number(f.meter_wh)), power_w: f.power_w })),
      slots: b?.slots ?? [],
      pricing: (typeof r.pricing === 'string' ? JSON.parse(r.pricing) : r.pricing) as ChargeOrderDetail['pricing'],
      gross: b?.gross ?? '',
      card_free: b?.card_free ?? '',
      coupon_free: b?.coupon_free ?? '',
    };
    return detail;
  },
});

const chargemembers = defineMethod('chargemembers', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary: '按手机号或姓名找本小区的会员：余额与有效的充电月卡（开始充电、购买月卡时选人）',
  async handler(ctx, input) {
    const k = input.keyword;
    const day = today();
    const rows = await ctx.db
      .selectFrom('members as m')
      .select(['m.id', 'm.realname', 'm.mobile', 'm.balance'])
      .select(
        sql<string>`(SELECT concat('月卡至 ', c.end_date, ' 每日 ', c.hours_per_day, ' 小时') FROM charge_card_orders c
          WHERE c.rid = m.rid AND c.member_id = m.id AND c.start_date <= ${day}::date AND c.end_date >= ${day}::date
          ORDER BY c.end_date DESC LIMIT 1)`.as('month_card'),
      )
      .where('m.rid', '=', ctx.rid)
      .where((eb) => eb.or([eb('m.mobile', containsOperator(k), likePattern(k)), eb('m.realname', containsOperator(k), likePattern(k))]))
      .orderBy('m.id')
      .limit(20)
      .execute();
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        realname: r.realname,
        mobile: r.mobile,
        balance: yuan(String(r.balance)),
        month_card: r.month_card ?? '',
      })),
    };
  },
});

export const sessionMethods = [chargestart, chargestop, chargecheck, chargeorderlist, chargeorderexport, chargeorderinfo, chargemembers];
