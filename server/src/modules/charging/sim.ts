/**
 * The simulated charging pile (docs/product.md#charging-piles): what it does with pile_start and
 * pile_stop, and its ports' sessions moving on a power curve as (simulated) time passes. Its state
 * lives in the database (charger_ports.sim, chargers.sim_lose_final), so it survives restarts.
 *
 * - pile_start on a free port: the port goes 充电中 and the first meter value is sent; a faulted or
 *   busy port refuses.
 * - advancePiles(db, now): each charging port sends a meter value every FRAME_MS of simulated time,
 *   at its rated power, tapering over the last fifth of the battery's need; it ends by itself when
 *   the battery is full, the hours or the kWh are reached, or the bill reaches the prepayment, and
 *   sends its final meter value (unless told to lose it: the session then waits for the time-out).
 * - pile_stop: the session ends now (后台停止, or 手机停止 from the owner's phone); an unplug or a fault (chargersim) ends it likewise.
 */
import { chargeBill, toFen, HOUR_MS, type ChargeEndReason, type ChargeFrame, type ChargeMode } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerSimExecutor } from '../../devices/access.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { finishOrder, recordFrame, type SessionPricing } from './sessions.js';

/** A meter value every five simulated minutes (a few per session, not one a second). */
export const FRAME_MS = 5 * 60_000;

export interface PortSim {
  order_id: number;
  mode: ChargeMode;
  value: string;
  prepaid: string;
  card_hours: number;
  coupon_face: string;
  pricing: SessionPricing;
  /** what the battery takes until full (Wh) */
  need_wh: number;
  delivered_wh: number;
  /** the energy delivered before rounding to whole Wh: the register never drifts from the curve */
  exact_wh: number;
  started_at: number;
  last_at: number;
  frames: ChargeFrame[];
}

const inTx = <T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);
const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** A battery's need, varied by order yet repeatable: a car 18 to 43 kWh, an e-bike 0.4 to 1.2 kWh. */
const needOf = (kind: string, orderId: number) => (kind === 'car' ? 18_000 + ((orderId * 7919) % 25_000) : 400 + ((orderId * 7919) % 800));

/** The power (W) at this point of the charge: rated, tapering over the last fifth to a tenth of it. */
export function powerAt(ratedW: number, needWh: number, deliveredWh: number): number {
  const left = needWh - deliveredWh;
  if (left <= 0) return 0;
  const tail = needWh * 0.2;
  return Math.round(left >= tail ? ratedW : ratedW * Math.max(0.1, left / tail));
}

type PortRow = { rid: number; id: number; charger_id: number; meter_wh: number; sim: unknown };

/**
 * Runs one port's session from its last meter value to `until`; ends it with `stop` when given
 * (the reason at `until`), or by itself when a limit is reached. Answers whether it ended.
 */
async function runPort(db: Kysely<DB>, port: PortRow, until: number, stop?: ChargeEndReason): Promise<boolean> {
  const sim = parse<PortSim | null>(port.sim);
  if (!sim) return false;
  const pile = await db
    .selectFrom('chargers')
    .select(['sim_lose_final'])
    .where('rid', '=', port.rid)
    .where('id', '=', port.charger_id)
    .executeTakeFirstOrThrow();
  const ratedW = Math.round(Number(sim.pricing.power_kw) * 1000);
  const prepaid = toFen(sim.prepaid);
  const face = toFen(sim.coupon_face);
  const hoursEnd = sim.mode === 'hours' ? sim.started_at + Number(sim.value) * HOUR_MS : Infinity;
  const targetWh = sim.mode === 'energy' ? Math.round(Number(sim.value) * 1000) : Infinity;
  let meter = Number(port.meter_wh);
  let t = sim.last_at;
  let reason: ChargeEndReason | null = null;
  const frames: Array<{ at: number; wh: number; w: number }> = [];
  while (t < until && !reason) {
    const step = Math.min(FRAME_MS, until - t, hoursEnd - t);
    const w = powerAt(ratedW, sim.need_wh, sim.delivered_wh);
    sim.exact_wh = (sim.exact_wh ?? sim.delivered_wh) + (w * step) / HOUR_MS;
    let add = Math.round(sim.exact_wh) - sim.delivered_wh;
    add = Math.max(0, Math.min(add, sim.need_wh - sim.delivered_wh, targetWh - sim.delivered_wh));
    t += step;
    sim.delivered_wh += add;
    meter += add;
    sim.frames.push({ at: t, wh: meter });
    frames.push({ at: t, wh: meter, w });
    if (sim.delivered_wh >= sim.need_wh) reason = 'full';
    else if (t >= hoursEnd) reason = 'time';
    else if (sim.delivered_wh >= targetWh) reason = 'energy';
    else if (chargeBill(sim.pricing, sim.frames, sim.card_hours, face).total_fen >= prepaid) reason = 'amount';
  }
  if (!reason && stop) reason = stop;
  const rid = port.rid;
  const lose = reason !== null && pile.sim_lose_final === 'Y';
  // every value but the last goes as a meter value; the last is the final one when the session ends
  const sent = reason ? frames.slice(0, -1) : frames;
  for (const f of sent) await recordFrame(db, rid, sim.order_id, new Date(f.at), f.wh, f.w);
  if (!reason) {
    sim.last_at = t;
    await db
      .updateTable('charger_ports')
      .set({ sim: JSON.stringify(sim), meter_wh: meter })
      .where('rid', '=', rid)
      .where('id', '=', port.id)
      .execute();
    return false;
  }
  await db
    .updateTable('charger_ports')
    .set({ sim: null, meter_wh: meter, power_w: 0, state: sql<'free' | 'fault'>`CASE WHEN state = 'fault' THEN 'fault' ELSE 'free' END` })
    .where('rid', '=', rid)
    .where('id', '=', port.id)
    .execute();
  if (!lose) await finishOrder(db, rid, sim.order_id, { at: new Date(frames.at(-1)?.at ?? t), wh: meter, reason });
  return true;
}

const portsWithSessions = (db: Kysely<DB>) =>
  db.selectFrom('charger_ports').select(['rid', 'id', 'charger_id', 'meter_wh', 'sim']).where('sim', 'is not', null);

/** Every simulated session moves on to `now` (a job each minute; tests pass their own clock). Answers how many ended. */
export async function advancePiles(db: Kysely<DB>, now: Date = new Date(), scope?: { rid: number; chargerId: number }): Promise<number> {
  let qb = portsWithSessions(db);
  if (scope) qb = qb.where('rid', '=', scope.rid).where('charger_id', '=', scope.chargerId);
  const ports = await qb.orderBy('rid').orderBy('id').execute();
  let ended = 0;
  for (const p of ports) {
    const done = await inTx(db, async (trx) => {
      const port = await trx
        .selectFrom('charger_ports')
        .select(['rid', 'id', 'charger_id', 'meter_wh', 'sim'])
        .where('rid', '=', p.rid)
        .where('id', '=', p.id)
        .forUpdate()
        .executeTakeFirst();
      return port ? runPort(trx, port as PortRow, now.getTime()) : false;
    });
    if (done) ended++;
  }
  return ended;
}

/** Ends the session on a port now (an unplug, a fault, a stop from the console); false when none runs. */
export async function endPortSession(db: Kysely<DB>, rid: number, portId: number, reason: ChargeEndReason, now: Date): Promise<boolean> {
  const port = await db
    .selectFrom('charger_ports')
    .select(['rid', 'id', 'charger_id', 'meter_wh', 'sim'])
    .where('rid', '=', rid)
    .where('id', '=', portId)
    .forUpdate()
    .executeTakeFirst();
  if (!port?.sim) return false;
  const sim = parse<PortSim>(port.sim);
  // a stop at or before the last value still ends it, at that value
  return runPort(db, port as PortRow, Math.max(now.getTime(), sim.last_at), reason);
}

registerSimExecutor(['pile_start', 'pile_stop'], async (db, cmd, now) => {
  const p = parse<{
    order_id: number;
    port_id: number;
    /** pile_stop: who stopped it (the console, or the owner's phone) */
    reason?: 'console' | 'phone';
    mode: ChargeMode;
    value: string;
    prepaid: string;
    card_hours: number;
    coupon_face: string;
    pricing: SessionPricing;
  }>(cmd.payload);
  const port = await db
    .selectFrom('charger_ports')
    .select(['rid', 'id', 'charger_id', 'state', 'meter_wh', 'sim'])
    .where('rid', '=', cmd.rid)
    .where('id', '=', p.port_id)
    .where('charger_id', '=', cmd.device_id)
    .forUpdate()
    .executeTakeFirst();
  if (!port) return { ok: false, error: '插座不存在' };
  const sim = parse<PortSim | null>(port.sim);
  if (cmd.kind === 'pile_stop') {
    // nothing runs for that order any more (it ended by itself): the stop is done
    if (!sim || sim.order_id !== p.order_id) return { ok: true };
    await endPortSession(db, cmd.rid, port.id, p.reason === 'phone' ? 'phone' : 'console', now);
    return { ok: true };
  }
  if (port.state === 'fault') return { ok: false, error: '插座故障' };
  if (sim || port.state !== 'free') return { ok: false, error: '插座忙线' };
  const kind = p.pricing.kind;
  const at = now.getTime();
  const fresh: PortSim = {
    order_id: p.order_id,
    mode: p.mode,
    value: p.value,
    prepaid: p.prepaid,
    card_hours: p.card_hours,
    coupon_face: p.coupon_face,
    pricing: p.pricing,
    need_wh: needOf(kind, p.order_id),
    delivered_wh: 0,
    exact_wh: 0,
    started_at: at,
    last_at: at,
    frames: [{ at, wh: Number(port.meter_wh) }],
  };
  await db
    .updateTable('charger_ports')
    .set({ state: 'charging', sim: JSON.stringify(fresh), power_w: 0 })
    .where('rid', '=', cmd.rid)
    .where('id', '=', port.id)
    .execute();
  // the transaction's first meter value: the register at the start
  await recordFrame(db, cmd.rid, p.order_id, now, Number(port.meter_wh), 0);
  return { ok: true };
});

export const CHARGE_SIM_KIND = 'charging_sim';
registerJobKind(CHARGE_SIM_KIND, async ({ db }) => ({ ended: await advancePiles(db) }));
registerPeriodicJob(CHARGE_SIM_KIND, 1);
