/**
 * Devices behind one interface, and the one command queue of every family (docs/product.md#access-control).
 *
 * - A device beats its heart through `deviceHeartbeat` (the `accessdeviceheartbeat` method is a real
 *   terminal's way in); online means a beat within DEVICE_ONLINE_MS. A beat after being offline
 *   pushes again at once everything pending or failed for it.
 * - Commands (`device_commands`) are queued with `queueCommand` in the caller's transaction; the queue
 *   job (`runDeviceQueue`, job kind `device_queue`) hands the due ones of online devices to their
 *   vendor's adapter, fails those of offline devices, and retries failures with a backoff
 *   (commandBackoffMs: 30 s doubling, at most 10 minutes). A device answers a command through
 *   `ackCommand` (the `accessdeviceack` method); listeners of a kind (the grants' sync, a remote
 *   open's pass record) see each answer in the same transaction.
 * - The simulator vendor (`simulator`): a face terminal whose person store, capacity and toggles
 *   (reject photos, offline) live in the database (device_sims, device_sim_persons), so it
 *   survives restarts. It answers a command after SIM ack delay (device_sim_inbox, answered by the
 *   queue job) and beats its heart through the same path as a real terminal (job `device_sim_beat`).
 */
import { COMMAND_ACK_TIMEOUT_MS, DEVICE_ONLINE_MS, commandBackoffMs } from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, DeviceCommandsTable, DevicesTable } from '../db/schema.js';
import { enqueueJob, registerJobKind, registerPeriodicJob } from '../jobs/queue.js';

export type DeviceRow = Selectable<DevicesTable>;
/** The families of the one devices table: door terminals, barrier gates, meters' gateways, charging piles. */
export type DeviceFamily = 'door' | 'gate' | 'meter' | 'pile';
export type CommandRow = Selectable<DeviceCommandsTable>;

/** The errors that say a device could not be reached (a heartbeat proves it reachable again). */
export const UNREACHABLE_ERRORS = ['设备离线', '设备无响应', '应答超时'] as const;

/** Thrown by an adapter's send when the device cannot be reached. */
export class DeviceUnreachable extends Error {}

export interface DeviceAdapter {
  readonly vendor: string;
  /**
   * Hands a command to the device (it answers later through ackCommand); throws DeviceUnreachable
   * when the device does not answer. `db` is the queue's transaction.
   */
  send(db: Kysely<DB>, device: DeviceRow, cmd: CommandRow, now: Date): Promise<void>;
}

const adapters = new Map<string, DeviceAdapter>();
export function registerDeviceAdapter(a: DeviceAdapter): void {
  adapters.set(a.vendor, a);
}
export function deviceAdapter(vendor: string): DeviceAdapter | undefined {
  return adapters.get(vendor);
}

export interface AckEvent {
  rid: number;
  command: CommandRow;
  ok: boolean;
  error: string;
}
type AckListener = (db: Kysely<DB>, e: AckEvent) => Promise<void>;
const ackListeners = new Map<string, AckListener[]>();
/** Called at module load by the area that queues commands of a kind (the grants' sync: person_add, person_del). */
export function onCommandAck(kind: string, fn: AckListener): void {
  ackListeners.set(kind, [...(ackListeners.get(kind) ?? []), fn]);
}

export const DEVICE_QUEUE_KIND = 'device_queue';
export const SIM_BEAT_KIND = 'device_sim_beat';

/** The online test at `now` of a heartbeat column (SQL). */
export const onlineSql = (column: string, now: Date = new Date()) =>
  sql<boolean>`(${sql.ref(column)} IS NOT NULL AND ${sql.ref(column)} > ${now}::timestamptz - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval)`;

export function isOnline(lastHeartbeat: Date | string | null, now: Date = new Date()): boolean {
  if (!lastHeartbeat) return false;
  return now.getTime() - new Date(lastHeartbeat).getTime() < DEVICE_ONLINE_MS;
}

/**
 * Queues the job that runs the queue at `runAfter` (now by default) unless one is already queued
 * for that moment: for now, one queued to run now; for a later moment, one queued within a second
 * after it (a job queued earlier would run before the work is due, and the work would wait for the
 * next minute's periodic run). In the caller's transaction: it exists only if the caller commits.
 */
export async function kickDeviceQueue(db: Kysely<DB>, runAfter: Date | null = null): Promise<void> {
  const waiting = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', DEVICE_QUEUE_KIND)
    .where('status', '=', 'queued')
    .where((eb) =>
      runAfter
        ? eb.and([eb('run_after', '>=', runAfter), eb('run_after', '<=', new Date(runAfter.getTime() + 1000))])
        : eb('run_after', 'is', null),
    )
    .limit(1)
    .executeTakeFirst();
  if (waiting) return;
  await enqueueJob(db, { rid: null, kind: DEVICE_QUEUE_KIND, payload: {}, createdBy: null, runAfter });
}

/** Queues a command for a device (in the caller's transaction) and kicks the queue. */
export async function queueCommand(
  db: Kysely<DB>,
  rid: number,
  cmd: {
    deviceId: number;
    kind: string;
    subject?: string;
    payload?: Record<string, unknown>;
    createdBy?: number | null;
    /** 0 a remote open or restart, 1 one person's or room's change (the default), 2 a bulk sync */
    priority?: 0 | 1 | 2;
  },
): Promise<number> {
  const row = await db
    .insertInto('device_commands')
    .values({
      rid,
      device_id: cmd.deviceId,
      kind: cmd.kind,
      subject: cmd.subject ?? '',
      payload: JSON.stringify(cmd.payload ?? {}),
      created_by: cmd.createdBy ?? null,
      priority: cmd.priority ?? 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await kickDeviceQueue(db);
  return Number(row.id);
}

/**
 * The failed commands of these kinds (narrowed to a subject, a device or one command) tried again
 * now instead of after their backoff; answers how many. In the caller's transaction.
 */
export async function retryFailedCommands(
  db: Kysely<DB>,
  rid: number,
  kinds: readonly string[],
  by: { subject?: string; deviceId?: number; id?: number } = {},
): Promise<number> {
  let qb = db
    .updateTable('device_commands')
    .set({ next_try_at: sql<Date>`now()` })
    .where('rid', '=', rid)
    .where('state', '=', 'failed')
    .where('kind', 'in', [...kinds]);
  if (by.subject) qb = qb.where('subject', '=', by.subject);
  if (by.deviceId) qb = qb.where('device_id', '=', by.deviceId);
  if (by.id) qb = qb.where('id', '=', by.id);
  const n = Number((await qb.executeTakeFirst()).numUpdatedRows);
  if (n > 0) await kickDeviceQueue(db);
  return n;
}

/**
 * A device's answer to a command: done, or failed with its error (tried again after the backoff).
 * Answers the command's new state, or null when the command is not the device's or was not waiting
 * for an answer (a late answer after a timeout counts: the device did it).
 */
export async function ackCommand(
  db: Kysely<DB>,
  rid: number,
  commandId: number,
  answer: { ok: boolean; error?: string; deviceId?: number; now?: Date },
): Promise<'done' | 'failed' | null> {
  const now = answer.now ?? new Date();
  let qb = db
    .selectFrom('device_commands')
    .selectAll()
    .where('rid', '=', rid)
    .where('id', '=', commandId)
    .where('state', 'in', ['sent', 'failed']);
  if (answer.deviceId !== undefined) qb = qb.where('device_id', '=', answer.deviceId);
  const cmd = await qb.forUpdate().executeTakeFirst();
  if (!cmd) return null;
  const error = answer.ok ? '' : (answer.error ?? '').slice(0, 200) || '设备执行失败';
  const updated = await db
    .updateTable('device_commands')
    .set(
      answer.ok
        ? { state: 'done', acked_at: now, last_error: '' }
        : { state: 'failed', acked_at: now, last_error: error, next_try_at: new Date(now.getTime() + commandBackoffMs(cmd.attempts)) },
    )
    .where('rid', '=', rid)
    .where('id', '=', commandId)
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const fn of ackListeners.get(cmd.kind) ?? []) await fn(db, { rid, command: updated, ok: answer.ok, error });
  if (!answer.ok) await kickDeviceQueue(db, updated.next_try_at);
  return answer.ok ? 'done' : 'failed';
}

/**
 * A door device's heartbeat by its code (a gate's is `gateheartbeat`): the last beat is now; a beat
 * after being offline, or with commands failed for being unreachable, sends them again at once.
 * Answers null for an unknown code.
 */
export async function deviceHeartbeat(
  db: Kysely<DB>,
  rid: number,
  code: string,
  now: Date = new Date(),
  family: DeviceFamily = 'door',
): Promise<{ deviceId: number; resent: number } | null> {
  const before = await db
    .selectFrom('devices')
    .select(['id', 'last_heartbeat'])
    .where('rid', '=', rid)
    .where('code', '=', code)
    .where('family', '=', family)
    .forUpdate()
    .executeTakeFirst();
  if (!before) return null;
  const deviceId = Number(before.id);
  await db.updateTable('devices').set({ last_heartbeat: now }).where('rid', '=', rid).where('id', '=', deviceId).execute();
  const wasOffline = !isOnline(before.last_heartbeat, now);
  let qb = db
    .updateTable('device_commands')
    .set({ next_try_at: now })
    .where('rid', '=', rid)
    .where('device_id', '=', deviceId)
    .where('next_try_at', '>', now);
  qb = wasOffline
    ? qb.where('state', 'in', ['pending', 'failed'])
    : qb.where('state', '=', 'failed').where('last_error', 'in', [...UNREACHABLE_ERRORS]);
  const resent = Number((await qb.executeTakeFirst()).numUpdatedRows);
  const due = await db
    .selectFrom('device_commands')
    .select('id')
    .where('rid', '=', rid)
    .where('device_id', '=', deviceId)
    .where('state', 'in', ['pending', 'failed'])
    .where('next_try_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  if (due) await kickDeviceQueue(db);
  return { deviceId, resent };
}

/** `fn` in a transaction of its own, or in the caller's when `db` is one already (the demo seed). */
const inTx = <T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);

/** How many commands one run hands out at most (the next run carries on). */
const RUN_LIMIT = 500;

/**
 * One run of the queue at `now`: the simulator's due answers, the sent commands that timed out,
 * then the due commands (pending, or failed whose retry time came) of enabled devices: an offline
 * device's fail (设备离线) and wait for the backoff or the device's return, an online device's go to
 * its adapter. Answers what it did; a test drives it directly with its own clock.
 */
export async function runDeviceQueue(
  db: Kysely<DB>,
  now: Date = new Date(),
): Promise<{ answered: number; timedOut: number; sent: number; failed: number }> {
  const answered = await answerSimInbox(db, now);
  // a sent command unanswered for too long failed
  const late = await db
    .selectFrom('device_commands')
    .select(['rid', 'id'])
    .where('state', '=', 'sent')
    .where('sent_at', '<', new Date(now.getTime() - COMMAND_ACK_TIMEOUT_MS))
    .limit(RUN_LIMIT)
    .execute();
  for (const c of late) await inTx(db, (trx) => ackCommand(trx, c.rid, Number(c.id), { ok: false, error: '应答超时', now }));

  const due = await db
    .selectFrom('device_commands as c')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'c.rid').onRef('d.id', '=', 'c.device_id'))
    .select(['c.rid', 'c.id'])
    .where('c.state', 'in', ['pending', 'failed'])
    .where('c.next_try_at', '<=', now)
    .where('d.enabled', '=', 'Y')
    // a person at the door waits on a remote open, a resident on their face: both go before the
    // bulk syncs queued earlier (migration 202611301120)
    .orderBy('c.priority')
    .orderBy('c.next_try_at')
    .orderBy('c.id')
    .limit(RUN_LIMIT)
    .execute();
  let sent = 0;
  let failed = 0;
  for (const c of due) {
    const outcome = await inTx(db, async (trx) => {
      const cmd = await trx
        .selectFrom('device_commands')
        .selectAll()
        .where('rid', '=', c.rid)
        .where('id', '=', c.id)
        .where('state', 'in', ['pending', 'failed'])
        .where('next_try_at', '<=', now)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!cmd) return 'skip' as const;
      const device = await trx
        .selectFrom('devices')
        .selectAll()
        .where('rid', '=', cmd.rid)
        .where('id', '=', cmd.device_id)
        .executeTakeFirstOrThrow();
      const attempts = cmd.attempts + 1;
      const failWith = async (error: string) => {
        await trx
          .updateTable('device_commands')
          .set({ state: 'sent', attempts, sent_at: now })
          .where('rid', '=', cmd.rid)
          .where('id', '=', cmd.id)
          .execute();
        await ackCommand(trx, cmd.rid, Number(cmd.id), { ok: false, error, now });
        return 'failed' as const;
      };
      if (!isOnline(device.last_heartbeat, now)) return failWith('设备离线');
      const adapter = deviceAdapter(device.vendor);
      if (!adapter) return failWith(`不支持的设备厂商 ${device.vendor}`);
      await trx
        .updateTable('device_commands')
        .set({ state: 'sent', attempts, sent_at: now, last_error: '' })
        .where('rid', '=', cmd.rid)
        .where('id', '=', cmd.id)
        .execute();
      try {
        await adapter.send(trx, device, { ...cmd, attempts, state: 'sent', sent_at: now }, now);
      } catch (err) {
        if (err instanceof DeviceUnreachable) return failWith(err.message || '设备无响应');
        throw err;
      }
      return 'sent' as const;
    });
    if (outcome === 'sent') sent++;
    else if (outcome === 'failed') failed++;
  }
  if (due.length === RUN_LIMIT) await kickDeviceQueue(db);
  return { answered, timedOut: late.length, sent, failed };
}

/* ---------------------------------------------------------------- the simulator vendor */

let simAckDelayMs = Number(process.env.SIM_ACK_DELAY_MS ?? 1500);
/** The simulator's answer delay (tests set 0 and drive the queue themselves). */
export function setSimulatorAckDelay(ms: number): void {
  simAckDelayMs = ms;
}

export interface SimSettings {
  capacity: number;
  reject_photos: 'Y' | 'N';
  offline: 'Y' | 'N';
}
const SIM_DEFAULTS: SimSettings = { capacity: 1000, reject_photos: 'N', offline: 'N' };

export async function simSettings(db: Kysely<DB>, rid: number, deviceId: number): Promise<SimSettings> {
  const row = await db
    .selectFrom('device_sims')
    .select(['capacity', 'reject_photos', 'offline'])
    .where('rid', '=', rid)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row ? { capacity: row.capacity, reject_photos: row.reject_photos as 'Y' | 'N', offline: row.offline as 'Y' | 'N' } : SIM_DEFAULTS;
}

export async function setSimSettings(db: Kysely<DB>, rid: number, deviceId: number, values: Partial<SimSettings>): Promise<SimSettings> {
  const next = { ...(await simSettings(db, rid, deviceId)), ...values };
  await db
    .insertInto('device_sims')
    .values({ rid, device_id: deviceId, ...next })
    .onConflict((oc) => oc.columns(['rid', 'device_id']).doUpdateSet(next))
    .execute();
  return next;
}

export const simulator: DeviceAdapter = {
  vendor: 'simulator',
  async send(db, device, cmd, now) {
    const s = await simSettings(db, device.rid, Number(device.id));
    if (s.offline === 'Y') throw new DeviceUnreachable('设备无响应');
    const dueAt = new Date(now.getTime() + simAckDelayMs);
    await db
      .insertInto('device_sim_inbox')
      .values({ rid: device.rid, command_id: cmd.id, due_at: dueAt })
      .onConflict((oc) => oc.columns(['rid', 'command_id']).doUpdateSet({ due_at: dueAt }))
      .execute();
    await kickDeviceQueue(db, simAckDelayMs > 0 ? dueAt : null);
  },
};
registerDeviceAdapter(simulator);

interface PersonPayload {
  name?: string;
  face_image?: string;
  card_no?: string;
  valid_from?: string;
  valid_to?: string;
}

/** What a simulated device of another family does with a command of its kind (a meter's read, a pile's start). */
export type SimExecutor = (db: Kysely<DB>, cmd: CommandRow, now: Date) => Promise<{ ok: boolean; error?: string }>;
const simExecutors = new Map<string, SimExecutor>();
/** Called at module load by the area whose simulated devices answer commands of these kinds. */
export function registerSimExecutor(kinds: readonly string[], fn: SimExecutor): void {
  for (const k of kinds) simExecutors.set(k, fn);
}

/** What the simulated device does with a command: its answer. */
async function simExecute(db: Kysely<DB>, cmd: CommandRow, now: Date): Promise<{ ok: boolean; error?: string }> {
  const rid = cmd.rid;
  const deviceId = Number(cmd.device_id);
  const s = await simSettings(db, rid, deviceId);
  if (s.offline === 'Y') return { ok: false, error: '设备无响应' };
  const other = simExecutors.get(cmd.kind);
  if (other) return other(db, cmd, now);
  const p = (typeof cmd.payload === 'string' ? JSON.parse(cmd.payload) : cmd.payload) as PersonPayload;
  switch (cmd.kind) {
    case 'person_add': {
      if (p.face_image && s.reject_photos === 'Y') return { ok: false, error: '照片不合格：未检测到人脸' };
      const held = await db
        .selectFrom('device_sim_persons')
        .select(sql<number>`count(*)::int`.as('n'))
        .select(sql<boolean>`bool_or(subject = ${cmd.subject})`.as('has'))
        .where('rid', '=', rid)
        .where('device_id', '=', deviceId)
        .executeTakeFirstOrThrow();
      if (!held.has && held.n >= s.capacity) return { ok: false, error: `设备人员已满（容量 ${s.capacity}）` };
      const values = {
        person_name: p.name ?? '',
        face_image: p.face_image ?? '',
        card_no: p.card_no ?? '',
        valid_from: p.valid_from ? new Date(p.valid_from) : null,
        valid_to: p.valid_to ? new Date(p.valid_to) : null,
      };
      await db
        .insertInto('device_sim_persons')
        .values({ rid, device_id: deviceId, subject: cmd.subject, ...values })
        .onConflict((oc) => oc.columns(['rid', 'device_id', 'subject']).doUpdateSet({ ...values, added_at: sql<Date>`now()` }))
        .execute();
      return { ok: true };
    }
    case 'person_del':
      await db
        .deleteFrom('device_sim_persons')
        .where('rid', '=', rid)
        .where('device_id', '=', deviceId)
        .where('subject', '=', cmd.subject)
        .execute();
      return { ok: true };
    case 'open':
    case 'restart':
    case 'room_sync':
      return { ok: true };
    default:
      return { ok: false, error: `不支持的指令 ${cmd.kind}` };
  }
}

/** The simulated terminals answer the commands whose delay has passed. */
async function answerSimInbox(db: Kysely<DB>, now: Date): Promise<number> {
  const due = await db
    .selectFrom('device_sim_inbox')
    .select(['rid', 'command_id'])
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(RUN_LIMIT)
    .execute();
  let n = 0;
  for (const d of due) {
    await inTx(db, async (trx) => {
      const gone = await trx
        .deleteFrom('device_sim_inbox')
        .where('rid', '=', d.rid)
        .where('command_id', '=', d.command_id)
        .returning('command_id')
        .executeTakeFirst();
      if (!gone) return;
      const cmd = await trx
        .selectFrom('device_commands')
        .selectAll()
        .where('rid', '=', d.rid)
        .where('id', '=', d.command_id)
        .executeTakeFirst();
      if (!cmd || cmd.state !== 'sent') return;
      const answer = await simExecute(trx, cmd, now);
      await ackCommand(trx, d.rid, Number(cmd.id), { ...answer, now });
      n++;
    });
  }
  return n;
}

/**
 * Every simulated door terminal, meter gateway and charging pile that is not set offline beats its
 * heart, as a real one would (a gate's beat is its own, `gateheartbeat`).
 */
export async function beatSimulators(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  const sims = await db
    .selectFrom('devices as d')
    .leftJoin('device_sims as s', (j) => j.onRef('s.rid', '=', 'd.rid').onRef('s.device_id', '=', 'd.id'))
    .select(['d.rid', 'd.code', 'd.family'])
    .where('d.family', 'in', ['door', 'meter', 'pile'])
    .where('d.vendor', '=', 'simulator')
    .where('d.enabled', '=', 'Y')
    .where((eb) => eb.or([eb('s.offline', 'is', null), eb('s.offline', '=', 'N')]))
    .execute();
  for (const s of sims) await inTx(db, (trx) => deviceHeartbeat(trx, s.rid, s.code, now, s.family as DeviceFamily));
  return sims.length;
}

registerJobKind(DEVICE_QUEUE_KIND, async ({ db }) => {
  const result = await runDeviceQueue(db);
  // the kicked runs of the queue are many and small: the finished ones go after an hour
  await db
    .deleteFrom('jobs')
    .where('kind', '=', DEVICE_QUEUE_KIND)
    .where('status', 'in', ['done', 'failed'])
    .where('created_at', '<', sql<Date>`now() - interval '1 hour'`)
    .execute();
  return result;
});
registerPeriodicJob(DEVICE_QUEUE_KIND, 1);
registerJobKind(SIM_BEAT_KIND, async ({ db }) => ({ beats: await beatSimulators(db) }));
registerPeriodicJob(SIM_BEAT_KIND, 1);
