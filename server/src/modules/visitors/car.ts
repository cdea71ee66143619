/**
 * A visitor's car (docs/product.md#visitors): with the community's reserve setting, an approved visit's
 * plate goes on the chosen lot's white list (parking_lists, kind W, the gate decision's `list`) from the
 * visit's day to the day its free time ends, and one idle space of the lot is held for it. The hold lives
 * on the visit (visitors.space_id while car_status R, one visit a space: a unique index), so the spaces'
 * own state (空闲 / 出租 / 出售) never changes. The release job (jobs.ts) ends both when the free time is
 * over (E); cancelling, refusing or revoking releases them at once (X).
 */
import type { VisitorCarStatus } from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { VisitorsTable } from '../../db/types.generated.js';
import { visitorSettings } from './settings.js';

type Visit = Selectable<VisitorsTable>;

/** Frees what a visit holds: its space, and its white-list entry unless another live visit of the plate shares it. */
async function releaseHold(db: Kysely<DB>, v: Visit, to: VisitorCarStatus, remark: string): Promise<void> {
  if (v.list_id !== null) {
    const heir = await db
      .selectFrom('visitors')
      .select('id')
      .where('rid', '=', v.rid)
      .where('car_status', '=', 'R')
      .where('lot_id', '=', v.lot_id)
      .where('carlicense', '=', v.carlicense)
      .where('id', '<>', v.id)
      .where('list_id', 'is', null)
      .orderBy('free_until', 'desc')
      .executeTakeFirst();
    if (heir) await db.updateTable('visitors').set({ list_id: v.list_id }).where('rid', '=', v.rid).where('id', '=', heir.id).execute();
    else await db.deleteFrom('parking_lists').where('rid', '=', v.rid).where('id', '=', v.list_id).where('kind', '=', 'W').execute();
  }
  await db
    .updateTable('visitors')
    .set({ car_status: to, car_remark: remark, space_id: null, list_id: null })
    .where('rid', '=', v.rid)
    .where('id', '=', v.id)
    .execute();
}

async function setCar(db: Kysely<DB>, v: Visit, status: VisitorCarStatus, remark: string): Promise<void> {
  await db
    .updateTable('visitors')
    .set({ car_status: status, car_remark: remark })
    .where('rid', '=', v.rid)
    .where('id', '=', v.id)
    .execute();
}

/**
 * Brings a visit's car to what its state and the settings ask for. `fresh`: the plate or the visit
 * time changed (an edit), so a hold is taken again from scratch.
 */
export async function syncCar(db: Kysely<DB>, rid: number, id: number, fresh = false): Promise<void> {
  const v = await db.selectFrom('visitors').selectAll().where('rid', '=', rid).where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
  const held = v.car_status === 'R';
  if (v.carlicense === '') {
    if (held) await releaseHold(db, v, '', '');
    else if (v.car_status !== '') await setCar(db, v, '', '');
    return;
  }
  if (v.status === 'C' || v.status === '3' || v.pass_revoked === 'Y') {
    const why = v.status === 'C' ? '访客已取消' : v.status === '3' ? '访客审核未通过' : '通行码已作废';
    if (held) await releaseHold(db, v, 'X', why);
    else if (v.car_status === 'P' || v.car_status === 'N') await setCar(db, v, 'X', why);
    return;
  }
  if (v.status === '') {
    if (held) await releaseHold(db, v, 'P', '等待审核');
    else await setCar(db, v, 'P', '等待审核');
    return;
  }
  // Y or D: reserve when the settings say so
  if (held && !fresh) return;
  if (v.car_status === 'E' && !fresh) return;
  if (held) await releaseHold(db, v, 'N', '');
  const s = await visitorSettings(db, rid);
  if (s.reserve_car !== 'Y' || s.lot_id === null) return setCar(db, v, 'N', '未开启访客车位预留');
  const lotId = s.lot_id;
  const until = new Date(v.visit_time.getTime() + s.free_minutes * 60_000);
  if (until.getTime() <= Date.now()) return setCar(db, v, 'N', '免费停车时段已过');
  const black = await db
    .selectFrom('parking_lists')
    .select('id')
    .where('rid', '=', rid)
    .where('lot_id', '=', lotId)
    .where('carlicense', '=', v.carlicense)
    .where('kind', '=', 'B')
    .executeTakeFirst();
  if (black) return setCar(db, v, 'N', '该车辆在停车场黑名单中');
  // an idle space of the lot no live visit holds, taken under a lock (a unique index backs it)
  const space = await db
    .selectFrom('parking_spaces as p')
    .select(['p.id', 'p.title'])
    .where('p.rid', '=', rid)
    .where('p.lot_id', '=', lotId)
    .where('p.status', '=', 'idle')
    .where('p.kind', '<>', 'virtual')
    .where('p.carlicense', '=', '')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('visitors as o')
            .select('o.id')
            .whereRef('o.rid', '=', 'p.rid')
            .whereRef('o.space_id', '=', 'p.id')
            .where('o.car_status', '=', 'R'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('cars as c').select('c.id').whereRef('c.rid', '=', 'p.rid').whereRef('c.space_id', '=', 'p.id'))),
    )
    .orderBy('p.id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!space) return setCar(db, v, 'N', '停车场已无空闲车位');
  // the white list from the visit's day to the day the free time ends (the gate's list is by day)
  const days = await sql<{ start: string; end: string }>`SELECT to_char(${v.visit_time}::timestamptz, 'YYYY-MM-DD') AS start,
      to_char(${until}::timestamptz, 'YYYY-MM-DD') AS end`.execute(db);
  const { start, end } = days.rows[0]!;
  const entry = await db
    .selectFrom('parking_lists')
    .select(['id', 'kind', 'start_date', 'end_date'])
    .where('rid', '=', rid)
    .where('lot_id', '=', lotId)
    .where('carlicense', '=', v.carlicense)
    .forUpdate()
    .executeTakeFirst();
  let listId: number | null = null;
  if (!entry) {
    const made = await db
      .insertInto('parking_lists')
      .values({
        rid,
        lot_id: lotId,
        carlicense: v.carlicense,
        kind: 'W',
        start_date: start,
        end_date: end,
        reason: `访客车辆：${v.realname}（访客登记 #${v.id}）`,
        created_by: v.created_by,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    listId = Number(made.id);
  } else {
    // the plate is listed already (another visit, or the parking staff): a visit's own entry grows to cover this one
    const owner = await db
      .selectFrom('visitors')
      .select('id')
      .where('rid', '=', rid)
      .where('list_id', '=', entry.id)
      .where('car_status', '=', 'R')
      .executeTakeFirst();
    if (owner) {
      await db
        .updateTable('parking_lists')
        .set({
          start_date: sql`least(start_date, ${start}::date)`,
          end_date: sql`greatest(end_date, ${end}::date)`,
        })
        .where('rid', '=', rid)
        .where('id', '=', entry.id)
        .execute();
    }
  }
  await db
    .updateTable('visitors')
    .set({
      car_status: 'R',
      car_remark: '',
      lot_id: lotId,
      space_id: Number(space.id),
      space_title: space.title,
      list_id: listId,
      free_until: until,
    })
    .where('rid', '=', rid)
    .where('id', '=', v.id)
    .execute();
}

/** Releases a visit's car (cancel, refuse, revoke) at once. */
export async function releaseCarNow(db: Kysely<DB>, rid: number, id: number): Promise<void> {
  await syncCar(db, rid, id);
}

/**
 * Ends the holds whose free time is over at `at` (E): the white-list entry goes, the space is free.
 * `rid` narrows it to one community (the simulator's call); the job passes none.
 */
export async function releaseDue(db: Kysely<DB>, at: Date, rid?: number): Promise<number> {
  let qb = db.selectFrom('visitors').select(['rid', 'id']).where('car_status', '=', 'R').where('free_until', '<=', at);
  if (rid !== undefined) qb = qb.where('rid', '=', rid);
  const due = await qb.orderBy('free_until').limit(500).execute();
  let n = 0;
  for (const d of due) {
    const v = await db
      .selectFrom('visitors')
      .selectAll()
      .where('rid', '=', d.rid)
      .where('id', '=', d.id)
      .where('car_status', '=', 'R')
      .forUpdate()
      .executeTakeFirst();
    if (!v) continue;
    await releaseHold(db, v, 'E', '免费停车时长已到，车位已释放');
    n++;
  }
  return n;
}
