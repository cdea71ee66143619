/**
 * Grants synced to devices as desired state (docs/product.md#access-control#sync): for every grant
 * the devices that should hold it (the enabled door devices of its enabled regions, while it is
 * approved and not revoked); the difference is queued as person_add / person_del commands; each
 * device's answer is kept per (grant, device) in access_grant_devices; the grant's status follows:
 * N with the error while a device failed (retries continue), P while one is pending, Y when every
 * device holds it.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { onCommandAck, queueCommand, retryFailedCommands } from '../../devices/access.js';
import { deviceSyncBacklog } from './backlog.js';

export const grantSubject = (grantId: number) => `grant:${grantId}`;
const grantIdOf = (subject: string) => (subject.startsWith('grant:') ? Number(subject.slice(6)) : null);

/** The grant's devices: the enabled door devices of its enabled regions, with the regions' time plans. */
async function desiredDevices(db: Kysely<DB>, rid: number, grantId: number) {
  const rows = await db
    .selectFrom('access_grant_regions as gr')
    .innerJoin('access_regions as r', (j) => j.onRef('r.rid', '=', 'gr.rid').onRef('r.id', '=', 'gr.region_id'))
    .innerJoin('access_region_devices as rd', (j) => j.onRef('rd.rid', '=', 'r.rid').onRef('rd.region_id', '=', 'r.id'))
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'rd.rid').onRef('d.id', '=', 'rd.device_id'))
    .select(['rd.device_id', 'r.weekdays', 'r.windows'])
    .where('gr.rid', '=', rid)
    .where('gr.grant_id', '=', grantId)
    .where('r.enabled', '=', 'Y')
    .where('d.enabled', '=', 'Y')
    .where('d.family', '=', 'door')
    .execute();
  const byDevice = new Map<number, Array<{ weekdays: string; windows: unknown }>>();
  for (const r of rows) {
    const id = Number(r.device_id);
    byDevice.set(id, [...(byDevice.get(id) ?? []), { weekdays: r.weekdays, windows: r.windows }]);
  }
  return byDevice;
}

/** Drops the commands of a grant on a device that were never handed out (a newer one replaces them). */
async function dropUnsent(db: Kysely<DB>, rid: number, grantId: number, deviceId: number): Promise<void> {
  await db
    .deleteFrom('device_commands')
    .where('rid', '=', rid)
    .where('subject', '=', grantSubject(grantId))
    .where('device_id', '=', deviceId)
    .where('state', 'in', ['pending', 'failed'])
    .execute();
}

/**
 * Brings the grant's devices to what they should hold: adds where missing (every device again when
 * `force`: its photo, card or validity changed), deletes where no longer wanted; then its status.
 */
export async function syncGrant(
  db: Kysely<DB>,
  rid: number,
  grantId: number,
  opts: { force?: boolean; createdBy?: number | null } = {},
): Promise<void> {
  const g = await db
    .selectFrom('access_grants')
    .selectAll()
    .where('rid', '=', rid)
    .where('id', '=', grantId)
    .forUpdate()
    .executeTakeFirst();
  if (!g) return;
  const active = g.approved_at !== null && g.revoked_at === null && g.status !== 'W';
  const want = active ? await desiredDevices(db, rid, grantId) : new Map<number, never[]>();
  const rows = await db
    .selectFrom('access_grant_devices')
    .select(['device_id', 'state'])
    .where('rid', '=', rid)
    .where('grant_id', '=', grantId)
    .execute();
  const have = new Map(rows.map((r) => [Number(r.device_id), r.state]));
  const subject = grantSubject(grantId);
  for (const [deviceId, plans] of want) {
    const state = have.get(deviceId);
    if (state && state !== 'deleting' && !opts.force) continue;
    await dropUnsent(db, rid, grantId, deviceId);
    await db
      .insertInto('access_grant_devices')
      .values({ rid, grant_id: grantId, device_id: deviceId, state: 'pending' })
      .onConflict((oc) =>
        oc.columns(['rid', 'grant_id', 'device_id']).doUpdateSet({ state: 'pending', last_error: '', updated_at: sql<Date>`now()` }),
      )
      .execute();
    await queueCommand(db, rid, {
      deviceId,
      kind: 'person_add',
      subject,
      createdBy: opts.createdBy ?? null,
      payload: {
        name: g.person_name,
        face_image: g.face_image,
        card_no: g.card_no,
        qr_code: g.qr_code,
        valid_from: g.door_start_time,
        valid_to: g.door_end_time,
        plans,
      },
    });
  }
  for (const [deviceId, state] of have) {
    if (want.has(deviceId) || state === 'deleting') continue;
    await dropUnsent(db, rid, grantId, deviceId);
    await db
      .updateTable('access_grant_devices')
      .set({ state: 'deleting', last_error: '', updated_at: sql<Date>`now()` })
      .where('rid', '=', rid)
      .where('grant_id', '=', grantId)
      .where('device_id', '=', deviceId)
      .execute();
    await queueCommand(db, rid, { deviceId, kind: 'person_del', subject, createdBy: opts.createdBy ?? null });
  }
  await refreshGrantStatus(db, rid, grantId);
  // a failed push tried again or no longer wanted: its device's to-do counts it no more
  for (const [deviceId, state] of have) if (state === 'failed') await refreshDeviceSyncBacklog(db, rid, deviceId);
}

/** The status an approved grant shows from its devices' answers (unapproved and revoked ones keep theirs). */
export async function grantStatusFromDevices(
  db: Kysely<DB>,
  rid: number,
  grantId: number,
): Promise<{ status: 'Y' | 'P' | 'N'; reason: string }> {
  const rows = await db
    .selectFrom('access_grant_devices as a')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'a.rid').onRef('d.id', '=', 'a.device_id'))
    .select(['a.state', 'a.last_error', 'd.title'])
    .where('a.rid', '=', rid)
    .where('a.grant_id', '=', grantId)
    .where('a.state', '!=', 'deleting')
    .orderBy('a.device_id')
    .execute();
  const failed = rows.find((r) => r.state === 'failed');
  if (failed) return { status: 'N', reason: `${failed.title}：${failed.last_error}` };
  if (rows.some((r) => r.state === 'pending')) return { status: 'P', reason: '' };
  return { status: 'Y', reason: '' };
}

export async function refreshGrantStatus(db: Kysely<DB>, rid: number, grantId: number): Promise<void> {
  const g = await db
    .selectFrom('access_grants')
    .select(['status', 'approved_at', 'revoked_at', 'reason'])
    .where('rid', '=', rid)
    .where('id', '=', grantId)
    .executeTakeFirst();
  if (!g || g.approved_at === null || g.revoked_at !== null || g.status === 'W') return;
  const next = await grantStatusFromDevices(db, rid, grantId);
  if (next.status !== g.status || next.reason !== g.reason) {
    await db
      .updateTable('access_grants')
      .set({ status: next.status, reason: next.reason, updated_at: sql<Date>`now()` })
      .where('rid', '=', rid)
      .where('id', '=', grantId)
      .execute();
  }
}

/**
 * The device's one to-do while grants fail on it (a gate offline fails every grant of its
 * regions: one item, not one per person), its title counting them; settled when none fails.
 */
export async function refreshDeviceSyncBacklog(db: Kysely<DB>, rid: number, deviceId: number): Promise<void> {
  const failed = await db
    .selectFrom('access_grant_devices as a')
    .innerJoin('access_grants as g', (j) => j.onRef('g.rid', '=', 'a.rid').onRef('g.id', '=', 'a.grant_id'))
    .select(['g.person_name', 'a.last_error'])
    .where('a.rid', '=', rid)
    .where('a.device_id', '=', deviceId)
    .where('a.state', '=', 'failed')
    .orderBy('a.grant_id')
    .execute();
  if (failed.length === 0) return deviceSyncBacklog.settle(db, rid, deviceId);
  const device = await db.selectFrom('devices').select('title').where('rid', '=', rid).where('id', '=', deviceId).executeTakeFirst();
  const title = `门禁下发失败：${device?.title ?? deviceId}（${failed.length} 人）`;
  const open = await db
    .selectFrom('backlog')
    .select('title')
    .where('rid', '=', rid)
    .where('kind', '=', deviceSyncBacklog.spec.kind)
    .where('source_id', '=', String(deviceId))
    .where('status', '=', 'E')
    .executeTakeFirst();
  if (open?.title === title) return;
  const names = failed
    .slice(0, 3)
    .map((f) => f.person_name)
    .join('、');
  const content = `${names}${failed.length > 3 ? ` 等 ${failed.length} 人` : ''}：${failed[0]!.last_error}`;
  await deviceSyncBacklog.raise(db, rid, { sourceId: deviceId, title, content });
}

/** Every grant of these regions, or holding or meant for this device, synced again (a region's or a device's change). */
export async function resyncGrants(
  db: Kysely<DB>,
  rid: number,
  by: { regionIds?: number[]; deviceId?: number },
  createdBy: number | null,
): Promise<number> {
  const ids = new Set<number>();
  if (by.regionIds?.length) {
    const rows = await db
      .selectFrom('access_grant_regions')
      .select('grant_id')
      .where('rid', '=', rid)
      .where('region_id', 'in', by.regionIds)
      .execute();
    for (const r of rows) ids.add(Number(r.grant_id));
  }
  if (by.deviceId !== undefined) {
    const held = await db
      .selectFrom('access_grant_devices')
      .select('grant_id')
      .where('rid', '=', rid)
      .where('device_id', '=', by.deviceId)
      .execute();
    for (const r of held) ids.add(Number(r.grant_id));
    const meant = await db
      .selectFrom('access_grant_regions as gr')
      .innerJoin('access_region_devices as rd', (j) => j.onRef('rd.rid', '=', 'gr.rid').onRef('rd.region_id', '=', 'gr.region_id'))
      .select('gr.grant_id')
      .where('gr.rid', '=', rid)
      .where('rd.device_id', '=', by.deviceId)
      .execute();
    for (const r of meant) ids.add(Number(r.grant_id));
  }
  for (const id of [...ids].sort((a, b) => a - b)) await syncGrant(db, rid, id, { createdBy });
  return ids.size;
}

/**
 * A person's tie to a room ended (moved out, lease ended): their grants for that room are revoked
 * and every device told to delete them, in the caller's transaction.
 */
export async function revokeGrantsOfMember(
  db: Kysely<DB>,
  rid: number,
  memberId: number,
  hid: number,
  reason: string,
  createdBy: number | null,
): Promise<number> {
  const grants = await db
    .updateTable('access_grants')
    .set({ revoked_at: sql<Date>`now()`, status: '', reason, updated_at: sql<Date>`now()` })
    .where('rid', '=', rid)
    .where('member_id', '=', memberId)
    .where('hid', '=', hid)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  for (const g of grants) await syncGrant(db, rid, Number(g.id), { createdBy });
  return grants.length;
}

/** Failed pushes tried again now (all of the community's, one grant's or one device's). */
export async function retryFailed(db: Kysely<DB>, rid: number, by: { grantId?: number; deviceId?: number }): Promise<number> {
  return retryFailedCommands(db, rid, ['person_add', 'person_del'], {
    subject: by.grantId ? grantSubject(by.grantId) : undefined,
    deviceId: by.deviceId,
  });
}

onCommandAck('person_add', async (db, { rid, command, ok, error }) => {
  const grantId = grantIdOf(command.subject);
  if (grantId === null) return;
  await db
    .updateTable('access_grant_devices')
    .set({ state: ok ? 'held' : 'failed', last_error: ok ? '' : error, updated_at: sql<Date>`now()` })
    .where('rid', '=', rid)
    .where('grant_id', '=', grantId)
    .where('device_id', '=', command.device_id)
    .where('state', 'in', ['pending', 'failed', 'held'])
    .execute();
  await refreshGrantStatus(db, rid, grantId);
  await refreshDeviceSyncBacklog(db, rid, Number(command.device_id));
});

onCommandAck('person_del', async (db, { rid, command, ok, error }) => {
  const grantId = grantIdOf(command.subject);
  if (grantId === null) return;
  const row = db
    .updateTable('access_grant_devices')
    .where('rid', '=', rid)
    .where('grant_id', '=', grantId)
    .where('device_id', '=', command.device_id)
    .where('state', '=', 'deleting');
  if (ok)
    await db
      .deleteFrom('access_grant_devices')
      .where('rid', '=', rid)
      .where('grant_id', '=', grantId)
      .where('device_id', '=', command.device_id)
      .where('state', '=', 'deleting')
      .execute();
  else await row.set({ last_error: error, updated_at: sql<Date>`now()` }).execute();
  await refreshGrantStatus(db, rid, grantId);
});
