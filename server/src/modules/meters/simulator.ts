/**
 * The simulated meters (vendor `simulator`, docs/product.md#smart-meters): behind a simulated
 * gateway each meter has a register that runs at its consumption per hour while its valve is open.
 * Each minute the job moves the registers on by the time passed and every meter reports a reading
 * once an hour, as a DTU does; commands (read now, open and close the valve, a recharge push) are
 * answered through the one device queue. `metersimrun` runs a gateway's meters N hours at once (the
 * simulated clock), one reading per hour, the valve commands answered between the hours.
 * A meter uses its per_hour all day, or, with a profile, the profile's usage of each hour of the
 * day. 换表 (`swapSimMeter`) puts a new meter in: its register starts again, reported as a swap
 * reading. The state lives in meter_sims, so it survives restarts.
 */
import { centiToUnits, formatWireTime, toCenti } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isOnline, registerSimExecutor, runDeviceQueue, simSettings } from '../../devices/access.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { meterIdOfSubject, recordReading } from './core.js';
import { businessTimeZone } from '../../config.js';

const HOUR_MS = 3_600_000;
export const METER_SIM_KIND = 'meter_sim_tick';

/** The sim row of a meter, made on first use (register from the meter's reading). */
export async function simOf(db: Kysely<DB>, rid: number, meterId: number) {
  await sql`INSERT INTO meter_sims (rid, meter_id, register, valve_open)
            SELECT rid, id, reading, valve <> 'closed' FROM meters WHERE rid = ${rid} AND id = ${meterId}
            ON CONFLICT (rid, meter_id) DO NOTHING`.execute(db);
  return db
    .selectFrom('meter_sims')
    .selectAll()
    .where('rid', '=', rid)
    .where('meter_id', '=', meterId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

const ZONE = businessTimeZone();

/** A usage of up to 3 decimals as thousandths. */
export function milli(v: string): bigint {
  const [i = '0', f = ''] = String(v).trim().split('.');
  return BigInt(i) * 1000n + BigInt(f.padEnd(3, '0').slice(0, 3));
}

/** The hour of the day (business time) a moment is in. */
const hourOfDay = (t: number) => Number(formatWireTime(new Date(t), ZONE).slice(11, 13));

/** A sim's profile as 24 usages, or null (per_hour all day). */
export function profileOf(v: unknown): string[] | null {
  const p = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return Array.isArray(p) && p.length === 24 ? p.map(String) : null;
}

/**
 * The hundredths a sim meter uses from `from` to `to` (ms): per_hour all the way, or each hour of the
 * day at the profile's usage (the business zone's hours begin on the hour in UTC too: fixed offsets
 * of whole hours). Exact in thousandths, rounded down to the hundredth once.
 */
export function usedBetween(sim: { per_hour: string; profile: unknown }, from: number, to: number): bigint {
  if (to <= from) return 0n;
  const profile = profileOf(sim.profile);
  if (!profile) return (milli(sim.per_hour) * BigInt(to - from)) / BigInt(HOUR_MS * 10);
  let sum = 0n; // thousandths × ms
  for (let t = from; t < to;) {
    const end = Math.min(to, (Math.floor(t / HOUR_MS) + 1) * HOUR_MS);
    sum += milli(profile[hourOfDay(t)]!) * BigInt(end - t);
    t = end;
  }
  return sum / BigInt(HOUR_MS * 10);
}

/**
 * Moves a sim meter's register on to `now` (while its valve is open); answers the register. A
 * minute too short to use a hundredth keeps its start, so a slow meter still moves over the minutes.
 */
async function tick(db: Kysely<DB>, rid: number, meterId: number, now: Date): Promise<string> {
  const s = await simOf(db, rid, meterId);
  const from = new Date(s.ticked_at).getTime();
  if (now.getTime() <= from) return s.register;
  const used = s.valve_open ? usedBetween(s, from, now.getTime()) : 0n;
  if (s.valve_open && used === 0n) return s.register;
  const register = centiToUnits(toCenti(s.register) + used);
  await db.updateTable('meter_sims').set({ register, ticked_at: now }).where('rid', '=', rid).where('meter_id', '=', meterId).execute();
  return register;
}

/**
 * 换表 on a simulated meter: a new meter goes in whose register starts at `value`; it reports at
 * once, a swap reading (recordReading's swap path: no usage, the next reading counts from it).
 */
export async function swapSimMeter(db: Kysely<DB>, rid: number, meterId: number, value: string, now: Date = new Date()) {
  await simOf(db, rid, meterId);
  const register = centiToUnits(toCenti(value));
  await db
    .updateTable('meter_sims')
    .set({ register, ticked_at: now, reported_at: now })
    .where('rid', '=', rid)
    .where('meter_id', '=', meterId)
    .execute();
  const r = await recordReading(db, rid, meterId, { value: register, at: now, source: 'auto', swap: true, remark: '换表（模拟器）' });
  return { reading_id: r.id, value: register };
}

registerSimExecutor(['meter_read', 'valve_open', 'valve_close', 'meter_recharge'], async (db, cmd, now) => {
  const meterId = meterIdOfSubject(cmd.subject);
  if (meterId === null) return { ok: false, error: '表计不存在' };
  const known = await db.selectFrom('meters').select('id').where('rid', '=', cmd.rid).where('id', '=', meterId).executeTakeFirst();
  if (!known) return { ok: false, error: '表计不存在' };
  switch (cmd.kind) {
    case 'meter_read': {
      const register = await tick(db, cmd.rid, meterId, now);
      await db.updateTable('meter_sims').set({ reported_at: now }).where('rid', '=', cmd.rid).where('meter_id', '=', meterId).execute();
      await recordReading(db, cmd.rid, meterId, { value: register, at: now, source: 'auto', remark: '手动触发抄表' });
      return { ok: true };
    }
    case 'valve_open':
    case 'valve_close':
      await tick(db, cmd.rid, meterId, now);
      await db
        .updateTable('meter_sims')
        .set({ valve_open: cmd.kind === 'valve_open' })
        .where('rid', '=', cmd.rid)
        .where('meter_id', '=', meterId)
        .execute();
      return { ok: true };
    case 'meter_recharge':
      return { ok: true };
    default:
      return { ok: false, error: `不支持的指令 ${cmd.kind}` };
  }
});

/** The simulated meters behind enabled, online simulated gateways (of one gateway, or all). */
async function simMeters(db: Kysely<DB>, now: Date, by: { rid?: number; gatewayId?: number } = {}) {
  let qb = db
    .selectFrom('meters as m')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'm.rid').onRef('d.id', '=', 'm.gateway_id'))
    .select(['m.rid', 'm.id', 'm.gateway_id', 'd.last_heartbeat'])
    .where('d.vendor', '=', 'simulator')
    .where('d.enabled', '=', 'Y')
    .where('m.enabled', '=', 'Y');
  if (by.rid !== undefined) qb = qb.where('m.rid', '=', by.rid);
  if (by.gatewayId !== undefined) qb = qb.where('m.gateway_id', '=', by.gatewayId);
  const rows = await qb.orderBy('m.rid').orderBy('m.id').execute();
  const out: typeof rows = [];
  for (const r of rows) {
    if (!isOnline(r.last_heartbeat, now)) continue;
    if ((await simSettings(db, r.rid, Number(r.gateway_id))).offline === 'Y') continue;
    out.push(r);
  }
  return out;
}

/** The minute's tick: registers move on, a meter whose last report is an hour old reports. */
export async function tickSimMeters(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  let reported = 0;
  for (const m of await simMeters(db, now)) {
    await db.transaction().execute(async (trx) => {
      const register = await tick(trx, m.rid, Number(m.id), now);
      const s = await simOf(trx, m.rid, Number(m.id));
      if (now.getTime() - new Date(s.reported_at).getTime() < HOUR_MS) return;
      await trx.updateTable('meter_sims').set({ reported_at: now }).where('rid', '=', m.rid).where('meter_id', '=', m.id).execute();
      await recordReading(trx, m.rid, Number(m.id), { value: register, at: now, source: 'auto' });
      reported++;
    });
  }
  return reported;
}

/**
 * Runs a gateway's meters `hours` hours on the simulated clock, in the caller's transaction: each
 * hour every meter's register moves on by its consumption (while its valve is open) and it reports;
 * commands the readings caused (a valve closed at zero) are answered before the next hour. The
 * readings carry the time of the run.
 */
export async function runSimGateway(
  db: Kysely<DB>,
  rid: number,
  gatewayId: number,
  hours: number,
  now: Date = new Date(),
): Promise<{ meters: number; readings: number }> {
  const meters = await simMeters(db, now, { rid, gatewayId });
  let readings = 0;
  for (let h = 0; h < hours; h++) {
    // the simulated clock's hour: a profile's usage of that hour of the day
    const from = now.getTime() + h * HOUR_MS;
    for (const m of meters) {
      const s = await simOf(db, rid, Number(m.id));
      const register = s.valve_open ? centiToUnits(toCenti(s.register) + usedBetween(s, from, from + HOUR_MS)) : s.register;
      await db
        .updateTable('meter_sims')
        .set({ register, ticked_at: now, reported_at: now })
        .where('rid', '=', rid)
        .where('meter_id', '=', m.id)
        .execute();
      await recordReading(db, rid, Number(m.id), { value: register, at: now, source: 'auto' });
      readings++;
    }
    const waiting = await db
      .selectFrom('device_commands')
      .select('id')
      .where('rid', '=', rid)
      .where('device_id', '=', gatewayId)
      .where('state', '=', 'pending')
      .limit(1)
      .executeTakeFirst();
    if (waiting) {
      // the simulated hour passes: the gateway takes the commands and answers them; the registers
      // stand still meanwhile (the queue's clock runs a minute ahead of the run's)
      const ahead = new Date(now.getTime() + 60_000);
      await db
        .updateTable('meter_sims')
        .set({ ticked_at: ahead })
        .where('rid', '=', rid)
        .where(
          'meter_id',
          'in',
          meters.map((m) => m.id),
        )
        .execute();
      await runDeviceQueue(db, new Date(now.getTime() + 1000));
      await runDeviceQueue(db, new Date(now.getTime() + 60_000));
    }
  }
  return { meters: meters.length, readings };
}

registerJobKind(METER_SIM_KIND, async ({ db }) => ({ reported: await tickSimMeters(db) }));
registerPeriodicJob(METER_SIM_KIND, 1);
