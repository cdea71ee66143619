/**
 * The smart meters' rules (docs/product.md#smart-meters): readings, prepaid deductions, the alarm
 * and the valve, read-and-bill bills, recharge pushes, and the meters' answers from the device
 * queue. Everything here runs in the caller's transaction.
 *
 * - A reading is kept as it comes (automatic, manual, estimated). One below the last is refused
 *   unless it is a meter swap: the register starts again, with no usage.
 * - Prepaid: usage × the tier price leaves the meter's balance (pricing.ts: the deductions of a month
 *   add up to its cost exactly). Crossing the room's alarm threshold tells the owner once; at
 *   −overdraft (zero by default) the valve is closed, never for a protected room and only within
 *   the hours the settings allow (the minute job closes those that waited). A confirmed recharge
 *   credits the meter and opens a valve closed for arrears.
 * - Read mode: at the meter's read day and hour the job bills (reading − last billed) × the tiers
 *   on the meter's fee item, once per room, item and month (the bills' unique key).
 */
import {
  enumText,
  fenToYuan,
  formatWireDate,
  formatWireTime,
  toFen,
  METER_KIND,
  tieredCharge,
  centiToUnits as units,
  toCenti,
  type MeterTier,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, MetersTable } from '../../db/schema.js';
import { onCommandAck, queueCommand } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { enqueueJob } from '../../jobs/queue.js';
import { insertOwnBill } from '../fees/ownBills.js';
import { businessTimeZone } from '../../config.js';

export type MeterRow = Selectable<MetersTable>;
const ZONE = businessTimeZone();

export const subjectOf = (meterId: number) => `meter:${meterId}`;
export const meterIdOfSubject = (subject: string): number | null => (subject.startsWith('meter:') ? Number(subject.slice(6)) : null);

/** The community's meter, or 表计不存在 (another community's too). */
export async function meterOf(db: Kysely<DB>, rid: number, id: number, lock = false): Promise<MeterRow> {
  const qb = db.selectFrom('meters').selectAll().where('rid', '=', rid).where('id', '=', id);
  const row = await (lock ? qb.forUpdate() : qb).executeTakeFirst();
  return row ?? fail('表计不存在');
}

export async function planOf(db: Kysely<DB>, rid: number, planId: number): Promise<{ tiers: MeterTier[]; version: number }> {
  const p = await db
    .selectFrom('meter_price_plans')
    .select(['tiers', 'version'])
    .where('rid', '=', rid)
    .where('id', '=', planId)
    .executeTakeFirstOrThrow();
  return { tiers: (typeof p.tiers === 'string' ? JSON.parse(p.tiers) : p.tiers) as MeterTier[], version: p.version };
}

export interface HouseSettings {
  alarmFen: bigint;
  overdraftFen: bigint;
  protected: boolean;
}
export async function houseSettings(db: Kysely<DB>, rid: number, hid: number | null): Promise<HouseSettings> {
  const h = hid
    ? await db
        .selectFrom('meter_houses')
        .select(['alarm_threshold', 'overdraft', 'protected'])
        .where('rid', '=', rid)
        .where('hid', '=', hid)
        .executeTakeFirst()
    : undefined;
  return { alarmFen: toFen(h?.alarm_threshold ?? '0'), overdraftFen: toFen(h?.overdraft ?? '0'), protected: h?.protected === 'Y' };
}

export async function closeHours(db: Kysely<DB>, rid: number): Promise<{ from: number; to: number }> {
  const s = await db.selectFrom('meter_settings').select(['close_from', 'close_to']).where('rid', '=', rid).executeTakeFirst();
  return { from: s?.close_from ?? 8, to: s?.close_to ?? 20 };
}

const hourOf = (at: Date) => Number(formatWireTime(at, ZONE).slice(11, 13));
export const monthOf = (at: Date) => formatWireDate(at, ZONE).slice(0, 7);

/** A valve command of the meter waiting or failed (not yet done), if any. */
async function openValveCommand(db: Kysely<DB>, rid: number, meterId: number) {
  return db
    .selectFrom('device_commands')
    .select(['id', 'kind', 'state'])
    .where('rid', '=', rid)
    .where('subject', '=', subjectOf(meterId))
    .where('kind', 'in', ['valve_open', 'valve_close'])
    .where('state', 'in', ['pending', 'sent', 'failed'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * Queues a valve command for the meter through its gateway. A command of the other direction still
 * waiting is called off (the latest wish wins); the same one waiting is kept.
 */
export async function queueValve(
  db: Kysely<DB>,
  m: MeterRow,
  action: 'open' | 'close',
  reason: 'arrears' | 'manual' | 'recharge',
  createdBy: number | null,
): Promise<number> {
  const kind = action === 'open' ? 'valve_open' : 'valve_close';
  const waiting = await openValveCommand(db, m.rid, Number(m.id));
  if (waiting?.kind === kind) return Number(waiting.id);
  if (waiting && waiting.state !== 'sent') {
    await db.updateTable('device_commands').set({ state: 'cancelled' }).where('rid', '=', m.rid).where('id', '=', waiting.id).execute();
  }
  return queueCommand(db, m.rid, {
    deviceId: Number(m.gateway_id),
    kind,
    subject: subjectOf(Number(m.id)),
    payload: { meter_id: Number(m.id), meter_no: m.meter_no, reason },
    createdBy,
    priority: 0,
  });
}

/** Tells the owner (the room's owner with a mobile): a row of meter_alerts and a job that sends it. */
async function alertOwner(db: Kysely<DB>, m: MeterRow, kind: 'low' | 'closed' | 'opened', balance: string): Promise<void> {
  const owner = m.hid
    ? await db
        .selectFrom('room_members as rm')
        .innerJoin('members as mb', (j) => j.onRef('mb.rid', '=', 'rm.rid').onRef('mb.id', '=', 'rm.member_id'))
        .select(['mb.mobile', 'mb.realname'])
        .where('rm.rid', '=', m.rid)
        .where('rm.hid', '=', m.hid)
        .where('rm.status', '=', 'Y')
        .orderBy(sql`rm.relation = 'owner'`, 'desc')
        .orderBy('rm.id')
        .executeTakeFirst()
    : undefined;
  const what = enumText(METER_KIND, m.kind);
  const content =
    kind === 'low'
      ? `您的${what}（表号 ${m.meter_no}）余额 ${balance} 元，已低于预警金额，请及时充值。`
      : kind === 'closed'
        ? `您的${what}（表号 ${m.meter_no}）已欠费 ${balance} 元，已关阀停用，充值后自动恢复。`
        : `您的${what}（表号 ${m.meter_no}）充值已到账，余额 ${balance} 元，已恢复供应。`;
  const alert = await db
    .insertInto('meter_alerts')
    .values({
      rid: m.rid,
      meter_id: m.id,
      hid: m.hid,
      kind,
      mobile: owner?.mobile ?? '',
      content,
      balance,
      sent: owner ? 'W' : 'N',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (owner) await enqueueJob(db, { rid: m.rid, kind: METER_ALERT_JOB, payload: { alert_id: Number(alert.id) }, createdBy: null });
}
export const METER_ALERT_JOB = 'meter_alert_send';

/**
 * After a prepaid meter's balance moved from `beforeFen` to `afterFen`: the alarm once on the way
 * down (cleared once above it again), the valve closed at −overdraft when allowed now.
 */
async function afterBalance(db: Kysely<DB>, m: MeterRow, beforeFen: bigint, afterFen: bigint, now: Date, createdBy: number | null) {
  const h = await houseSettings(db, m.rid, m.hid === null ? null : Number(m.hid));
  if (h.alarmFen > 0n) {
    if (!m.alarm_sent && afterFen <= h.alarmFen && beforeFen > h.alarmFen) {
      await db.updateTable('meters').set({ alarm_sent: true }).where('rid', '=', m.rid).where('id', '=', m.id).execute();
      await alertOwner(db, m, 'low', fenToYuan(afterFen));
    } else if (m.alarm_sent && afterFen > h.alarmFen) {
      await db.updateTable('meters').set({ alarm_sent: false }).where('rid', '=', m.rid).where('id', '=', m.id).execute();
    }
  }
  if (afterFen <= -h.overdraftFen && m.valve === 'open' && !h.protected) {
    const hours = await closeHours(db, m.rid);
    const hour = hourOf(now);
    if (hour >= hours.from && hour < hours.to) await queueValve(db, m, 'close', 'arrears', createdBy);
  }
}

/** Adds to the usage report's kept month totals of the meter's kind and building (meter_month_totals). */
async function addMonthTotals(db: Kysely<DB>, m: MeterRow, month: string, add: { usage?: string; amount?: string; recharged?: string }) {
  await sql`
    INSERT INTO meter_month_totals AS t (rid, month, kind, bid, usage, amount, recharged)
    VALUES (${m.rid}, ${month}, ${m.kind}, ${m.bid ?? 0}, ${add.usage ?? '0'}, ${add.amount ?? '0'}, ${add.recharged ?? '0'})
    ON CONFLICT (rid, month, kind, bid) DO UPDATE SET
      usage = t.usage + excluded.usage, amount = t.amount + excluded.amount, recharged = t.recharged + excluded.recharged`.execute(db);
}

export interface ReadingInput {
  value: string;
  at: Date;
  source: 'auto' | 'manual' | 'estimated';
  swap?: boolean;
  remark?: string;
  createdBy?: number | null;
}

/** Keeps a reading of the meter and applies it: usage, the day bill, the deduction and its effects. */
export async function recordReading(
  db: Kysely<DB>,
  rid: number,
  meterId: number,
  r: ReadingInput,
): Promise<{ id: number; usage: string; amount: string; balance: string }> {
  const m = await meterOf(db, rid, meterId, true);
  const value = toCenti(r.value);
  const last = toCenti(m.reading);
  const swap = r.swap === true;
  if (!swap && value < last) fail(`读数 ${r.value} 小于上次读数 ${m.reading}，如已换表请按换表录入`);
  const usage = swap ? 0n : value - last;
  const month = monthOf(r.at);
  const monthBefore = m.usage_month === month ? toCenti(m.month_usage) : 0n;
  const plan = await planOf(db, rid, Number(m.plan_id));
  const charge = tieredCharge(plan.tiers, monthBefore, monthBefore + usage);
  const prepaid = m.mode === 'prepaid';
  const balanceBefore = toFen(m.balance);
  const balanceAfter = prepaid ? balanceBefore - charge.fen : balanceBefore;

  const reading = await db
    .insertInto('meter_readings')
    .values({
      rid,
      meter_id: meterId,
      value: units(value),
      read_at: r.at,
      source: r.source,
      swap,
      usage: units(usage),
      amount: fenToYuan(charge.fen),
      remark: r.remark ?? (swap ? '换表' : ''),
      created_by: r.createdBy ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('meters')
    .set({
      reading: units(value),
      read_at: r.at,
      usage_month: month,
      month_usage: units(monthBefore + usage),
      balance: fenToYuan(balanceAfter),
      // a new meter's register starts again: the next bill counts from it
      ...(swap && m.mode === 'read' ? { billed_reading: units(value) } : {}),
    })
    .where('rid', '=', rid)
    .where('id', '=', meterId)
    .execute();

  const day = formatWireDate(r.at, ZONE);
  await sql`
    INSERT INTO meter_day_bills AS d (rid, meter_id, day, opening, closing, usage, price, amount, balance_after, source)
    VALUES (${rid}, ${meterId}, ${day}, ${swap ? units(value) : m.reading}, ${units(value)}, ${units(usage)}, ${charge.lastPrice},
            ${fenToYuan(charge.fen)}, ${fenToYuan(balanceAfter)}, ${r.source})
    ON CONFLICT (rid, meter_id, day) DO UPDATE SET
      closing = excluded.closing, usage = d.usage + excluded.usage, amount = d.amount + excluded.amount,
      price = CASE WHEN excluded.usage > 0 THEN excluded.price ELSE d.price END, balance_after = excluded.balance_after,
      source = CASE WHEN d.source = 'estimated' OR excluded.source = 'estimated' THEN 'estimated'
                    WHEN d.source = 'manual' OR excluded.source = 'manual' THEN 'manual' ELSE 'auto' END,
      updated_at = now()`.execute(db);

  if (usage > 0n) await addMonthTotals(db, m, month, { usage: units(usage), amount: fenToYuan(charge.fen) });

  if (prepaid && charge.fen > 0n) {
    await db
      .insertInto('meter_bill_logs')
      .values({
        rid,
        meter_id: meterId,
        hid: m.hid,
        kind: 'deduct',
        usage: units(usage),
        amount: fenToYuan(charge.fen),
        balance_after: fenToYuan(balanceAfter),
        reading_id: reading.id,
        breakdown: JSON.stringify(charge.parts),
        plan_version: plan.version,
        created_by: r.createdBy ?? null,
      })
      .execute();
    await afterBalance(db, m, balanceBefore, balanceAfter, r.at, r.createdBy ?? null);
  }
  // the reading of the read day and hour makes the month's bill
  if (m.mode === 'read') await billIfDue(db, rid, meterId, r.at);
  return { id: Number(reading.id), usage: units(usage), amount: fenToYuan(charge.fen), balance: fenToYuan(balanceAfter) };
}

/**
 * The prepaid meters whose valve should be closed now and is not (their reading came outside the
 * allowed hours, or a command failed for good): queues the commands. Answers how many.
 */
export async function closeArrears(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  const hour = hourOf(now);
  const due = await db
    .selectFrom('meters as m')
    .leftJoin('meter_houses as h', (j) => j.onRef('h.rid', '=', 'm.rid').onRef('h.hid', '=', 'm.hid'))
    .leftJoin('meter_settings as s', 's.rid', 'm.rid')
    .selectAll('m')
    .where('m.mode', '=', 'prepaid')
    .where('m.enabled', '=', 'Y')
    .where('m.valve', '=', 'open')
    .where(sql<boolean>`m.balance <= -coalesce(h.overdraft, 0)`)
    .where(sql<boolean>`coalesce(h.protected, 'N') = 'N'`)
    .where(sql<boolean>`${hour} >= coalesce(s.close_from, 8) AND ${hour} < coalesce(s.close_to, 20)`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('device_commands as c')
            .select('c.id')
            .whereRef('c.rid', '=', 'm.rid')
            .where('c.subject', '=', sql<string>`'meter:' || m.id`)
            .where('c.kind', '=', 'valve_close')
            .where('c.state', 'in', ['pending', 'sent', 'failed']),
        ),
      ),
    )
    .limit(500)
    .execute();
  for (const m of due) await queueValve(db, m as MeterRow, 'close', 'arrears', null);
  return due.length;
}

/** The day of the month a meter reads on in `month` (29–31 fall back to a shorter month's last day). */
export function readDayIn(month: string, readDay: number): number {
  const [y, mo] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return Math.min(readDay, last);
}

/** Read-mode meters whose read day and hour have come this month without a bill yet: each bills (billIfDue). Answers the bills made. */
export async function billReadMeters(db: Kysely<DB>, now: Date = new Date(), rid?: number): Promise<number> {
  let qb = db
    .selectFrom('meters')
    .select(['rid', 'id'])
    .where('mode', '=', 'read')
    .where('enabled', '=', 'Y')
    .where('hid', 'is not', null)
    .where('billed_period', '<', monthOf(now));
  if (rid !== undefined) qb = qb.where('rid', '=', rid);
  let made = 0;
  for (const c of await qb.execute()) if (await billIfDue(db, c.rid, Number(c.id), now)) made++;
  return made;
}

/** Whether the meter's read day and hour of `now`'s month have come. */
function readTimeCome(m: { read_day: number; read_hour: number }, now: Date): boolean {
  const day = formatWireDate(now, ZONE);
  const at = readDayIn(day.slice(0, 7), m.read_day);
  const dom = Number(day.slice(8, 10));
  return dom > at || (dom === at && hourOf(now) >= m.read_hour);
}

/**
 * Bills a read-mode meter's month once its read day and hour have come (the reading of that time, or
 * the last one before the job ran): its usage since the last bill on its fee item, with a
 * fee_meter_readings row of source auto beside it (the fees area's readings page shows it), once
 * for the month. Answers whether a bill was made.
 */
export async function billIfDue(db: Kysely<DB>, rid: number, meterId: number, now: Date): Promise<boolean> {
  const m = await meterOf(db, rid, meterId, true);
  const month = monthOf(now);
  if (m.mode !== 'read' || m.enabled !== 'Y' || m.hid === null || m.billed_period >= month || !readTimeCome(m, now)) return false;
  const from = toCenti(m.billed_reading);
  const to = toCenti(m.reading);
  const usage = to > from ? to - from : 0n;
  const plan = await planOf(db, m.rid, Number(m.plan_id));
  const charge = tieredCharge(plan.tiers, 0n, usage);
  const item = await db
    .selectFrom('fee_items')
    .select(['id', 'cost_type', 'title'])
    .where('rid', '=', m.rid)
    .where('id', '=', m.item_id!)
    .executeTakeFirstOrThrow();
  let billId: number | null = null;
  if (usage > 0n) {
    await db
      .insertInto('fee_meter_readings')
      .values({
        rid: m.rid,
        hid: m.hid,
        item_id: item.id,
        period: month,
        last_reading: units(from),
        this_reading: units(to),
        remark: `远传表 ${m.meter_no} 自动抄表`,
        created_by: '系统',
        source: 'auto',
      })
      .onConflict((oc) => oc.columns(['rid', 'hid', 'item_id', 'period']).doNothing())
      .execute();
    billId = await insertOwnBill(db, m.rid, {
      hid: Number(m.hid),
      item: { id: Number(item.id), cost_type: item.cost_type },
      title: item.title,
      period: month,
      fee: fenToYuan(charge.fen),
      measure: units(usage),
      unit_price: charge.parts.length === 1 ? charge.parts[0]!.price : fenToYuan(charge.fen),
      source: 'meter',
    });
  }
  await db
    .updateTable('meters')
    .set({ billed_period: month, billed_reading: units(to) })
    .where('rid', '=', m.rid)
    .where('id', '=', m.id)
    .execute();
  await db
    .insertInto('meter_bill_logs')
    .values({
      rid: m.rid,
      meter_id: m.id,
      hid: m.hid,
      kind: 'bill',
      usage: units(usage),
      amount: fenToYuan(charge.fen),
      balance_after: m.balance,
      bill_id: billId,
      breakdown: JSON.stringify(charge.parts),
      plan_version: plan.version,
    })
    .execute();
  return billId !== null;
}

/* --------------------------------------------------------------------- the meters' answers */

async function meterOfCommand(db: Kysely<DB>, rid: number, subject: string): Promise<MeterRow | undefined> {
  const id = meterIdOfSubject(subject);
  if (id === null) return undefined;
  return db.selectFrom('meters').selectAll().where('rid', '=', rid).where('id', '=', id).forUpdate().executeTakeFirst();
}

onCommandAck('valve_close', async (db, e) => {
  if (!e.ok) return;
  const m = await meterOfCommand(db, e.rid, e.command.subject);
  if (!m) return;
  const payload = (typeof e.command.payload === 'string' ? JSON.parse(e.command.payload) : e.command.payload) as { reason?: string };
  const reason = payload.reason === 'arrears' ? 'arrears' : 'manual';
  await db.updateTable('meters').set({ valve: 'closed', valve_reason: reason }).where('rid', '=', m.rid).where('id', '=', m.id).execute();
  if (reason === 'arrears') await alertOwner(db, m, 'closed', m.balance);
});

onCommandAck('valve_open', async (db, e) => {
  if (!e.ok) return;
  const m = await meterOfCommand(db, e.rid, e.command.subject);
  if (!m) return;
  await db.updateTable('meters').set({ valve: 'open', valve_reason: '' }).where('rid', '=', m.rid).where('id', '=', m.id).execute();
  const payload = (typeof e.command.payload === 'string' ? JSON.parse(e.command.payload) : e.command.payload) as { reason?: string };
  if (payload.reason === 'recharge') await alertOwner(db, m, 'opened', m.balance);
});

/** A recharge the meter confirmed: 已下发, the money on the meter, a valve closed for arrears opened. */
onCommandAck('meter_recharge', async (db, e) => {
  const payload = (typeof e.command.payload === 'string' ? JSON.parse(e.command.payload) : e.command.payload) as { recharge_id?: number };
  const rc = await db
    .selectFrom('meter_recharges')
    .selectAll()
    .where('rid', '=', e.rid)
    .where('id', '=', Number(payload.recharge_id))
    .forUpdate()
    .executeTakeFirst();
  if (!rc || rc.status === 'S' || rc.status === 'R') return;
  if (!e.ok) {
    await db.updateTable('meter_recharges').set({ status: 'F', error: e.error }).where('rid', '=', e.rid).where('id', '=', rc.id).execute();
    return;
  }
  const m = await meterOf(db, e.rid, Number(rc.meter_id), true);
  const beforeFen = toFen(m.balance);
  const afterFen = beforeFen + toFen(rc.amount);
  await db
    .updateTable('meter_recharges')
    .set({ status: 'S', error: '', confirmed_at: e.command.acked_at ?? new Date() })
    .where('rid', '=', e.rid)
    .where('id', '=', rc.id)
    .execute();
  await db
    .updateTable('meters')
    .set({ balance: fenToYuan(afterFen) })
    .where('rid', '=', e.rid)
    .where('id', '=', m.id)
    .execute();
  await addMonthTotals(db, m, monthOf(e.command.acked_at ?? new Date()), { recharged: rc.amount });
  await db
    .insertInto('meter_bill_logs')
    .values({
      rid: e.rid,
      meter_id: m.id,
      hid: m.hid,
      kind: 'recharge',
      amount: rc.amount,
      balance_after: fenToYuan(afterFen),
      recharge_id: rc.id,
    })
    .execute();
  const h = await houseSettings(db, m.rid, m.hid === null ? null : Number(m.hid));
  if (m.alarm_sent && afterFen > h.alarmFen) {
    await db.updateTable('meters').set({ alarm_sent: false }).where('rid', '=', m.rid).where('id', '=', m.id).execute();
  }
  if (m.valve === 'closed' && m.valve_reason === 'arrears' && afterFen > -h.overdraftFen) {
    await queueValve(db, { ...m, balance: fenToYuan(afterFen) }, 'open', 'recharge', rc.created_by === null ? null : Number(rc.created_by));
  }
});
