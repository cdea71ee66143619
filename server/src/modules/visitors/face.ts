/**
 * A visitor's face on the doors (visitor setting 人脸下发; docs/product.md#visitors). While a visit
 * may pass (已通过 or 已到访, its code not revoked, its leave time not reached) and has a photo, a
 * grant of kind visitor holds the photo on the doors of the visited room's unit region (its
 * community gates and unit doors), valid from PASS_EARLY_MINUTES before the visit to its leave
 * time, pushed through access control's sync like every grant (the registration's approval is its
 * review). Otherwise the grant is revoked and the doors delete it. A grant revoked by hand in
 * 门禁授权 stays revoked.
 */
import { PASS_EARLY_MINUTES } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { syncGrant } from '../access/sync.js';
import { visitorSettings } from './settings.js';

/** Brings the visit's face grant to what the visit and the settings ask for, in the caller's transaction. */
export async function syncFace(db: Kysely<DB>, rid: number, visitorId: number, createdBy: number | null, at = new Date()): Promise<void> {
  const v = await db
    .selectFrom('visitors as v')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'v.rid').onRef('r.id', '=', 'v.hid'))
    .select(['v.realname', 'v.mobile', 'v.photo', 'v.status', 'v.pass_revoked', 'v.visit_time', 'v.leave_time', 'v.hid', 'r.tid'])
    .where('v.rid', '=', rid)
    .where('v.id', '=', visitorId)
    .executeTakeFirst();
  if (!v) return;
  const grant = await db
    .selectFrom('access_grants')
    .select(['id', 'revoked_at', 'face_image', 'door_start_time', 'door_end_time'])
    .where('rid', '=', rid)
    .where('visitor_id', '=', visitorId)
    .forUpdate()
    .executeTakeFirst();
  if (grant?.revoked_at) return;
  const passable = (v.status === 'Y' || v.status === 'D') && v.pass_revoked !== 'Y' && v.leave_time.getTime() > at.getTime();
  const region =
    passable && v.photo !== '' && (await visitorSettings(db, rid)).push_face === 'Y'
      ? await db
          .selectFrom('access_regions')
          .select(['id', 'title'])
          .where('rid', '=', rid)
          .where('tid', '=', v.tid)
          .where('auto', '=', 'Y')
          .where('enabled', '=', 'Y')
          .executeTakeFirst()
      : undefined;
  if (!region) {
    if (!grant) return;
    const reason = !passable
      ? v.status === 'C'
        ? '访客已取消'
        : v.pass_revoked === 'Y'
          ? '通行码已作废'
          : '来访已结束'
      : '访客人脸不再下发';
    await db
      .updateTable('access_grants')
      .set({ revoked_at: sql<Date>`now()`, status: '', reason, updated_at: sql<Date>`now()` })
      .where('rid', '=', rid)
      .where('id', '=', grant.id)
      .execute();
    await syncGrant(db, rid, Number(grant.id), { createdBy });
    return;
  }
  const start = new Date(v.visit_time.getTime() - PASS_EARLY_MINUTES * 60_000);
  const values = {
    person_name: v.realname,
    mobile: v.mobile,
    hid: v.hid,
    face_image: v.photo,
    door_start_time: start,
    door_end_time: v.leave_time,
    area_title: region.title,
  };
  let id: number;
  let changed = true;
  if (!grant) {
    const row = await db
      .insertInto('access_grants')
      .values({
        rid,
        visitor_id: visitorId,
        person_kind: 'visitor',
        ...values,
        status: 'P',
        approved_at: sql<Date>`now()`,
        approved_by: createdBy,
        create_user: '访客登记',
        created_by: createdBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(row.id);
  } else {
    id = Number(grant.id);
    changed =
      grant.face_image !== v.photo ||
      grant.door_start_time?.getTime() !== start.getTime() ||
      grant.door_end_time?.getTime() !== v.leave_time.getTime();
    if (changed)
      await db
        .updateTable('access_grants')
        .set({ ...values, updated_at: sql<Date>`now()` })
        .where('rid', '=', rid)
        .where('id', '=', id)
        .execute();
    await db
      .deleteFrom('access_grant_regions')
      .where('rid', '=', rid)
      .where('grant_id', '=', id)
      .where('region_id', '!=', region.id)
      .execute();
  }
  await db
    .insertInto('access_grant_regions')
    .values({ rid, grant_id: id, region_id: region.id })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await syncGrant(db, rid, id, { force: changed, createdBy });
}

/** The face grants of visits whose leave time has passed, revoked (the doors delete them); at most 500 a run. */
export async function endFaces(db: Kysely<DB>, at: Date): Promise<number> {
  const due = await db
    .selectFrom('access_grants as g')
    .innerJoin('visitors as v', (j) => j.onRef('v.rid', '=', 'g.rid').onRef('v.id', '=', 'g.visitor_id'))
    .select(['g.rid', 'g.visitor_id'])
    .where('g.revoked_at', 'is', null)
    .where('v.leave_time', '<=', at)
    .orderBy('v.leave_time')
    .limit(500)
    .execute();
  for (const d of due) await syncFace(db, d.rid, Number(d.visitor_id), null, at);
  return due.length;
}
