import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../test/answers.js';
import { roomReachMissing, totalsMismatches } from '../../test/keptData.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { foldTotals, HOUSEHOLD_REACH, HOUSEHOLD_REACH_COUNTS } from '../fees/totals.js';

/**
 * Who a notice would reach, kept by the residents' and rooms' triggers (household_reach,
 * 202611300500): after every write of residents, members' bindings and rooms, through the handlers
 * and statement by statement, the kept rows agree with the tables and noticereach, noticepreview and
 * noticeresendpreview answer what counting the residents afresh answers.
 */
let s: TestServer;
let admin: string;
let steward: string;
beforeAll(async () => {
  s = await startTestServer();
  [admin, steward] = await s.logins('admin', 'steward');
});
afterAll(() => s?.close());

const db = () => s.database.db;
const run = (statement: string) => sql.raw(statement).execute(db());
type Audience = 'all' | 'owner' | 'tenant';
const AUDIENCES: Audience[] = ['all', 'owner', 'tenant'];

/** The reach counted from the residents, as noticereach counted it before it was kept. */
async function fresh(rid: number, audience: Audience, bid?: number) {
  const { rows } = await sql<{ households: number; app: number; rooms: number }>`
    SELECT (SELECT count(*)::int FROM rooms r WHERE r.rid = ${rid} ${bid ? sql`AND r.bid = ${bid}` : sql``}) AS rooms,
      count(*)::int AS households, (count(*) FILTER (WHERE app))::int AS app
    FROM (SELECT rm.hid, bool_or(m.app_isbind = 'Y' OR m.wx_isbind = 'Y') AS app
      FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.status = 'Y' ${audience === 'all' ? sql`` : sql`AND rm.relation = ${audience}`}
        ${bid ? sql`AND r.bid = ${bid}` : sql``}
      GROUP BY rm.hid) h`.execute(db());
  const r = rows[0]!;
  return { households: r.households, app: r.app, sms_only: r.households - r.app, rooms_without_residents: r.rooms - r.households };
}

/** noticeresendpreview's figures counted from the unread households' residents. */
async function freshResend(rid: number, id: number) {
  const { rows } = await sql<{ unread: number; with_owner: number }>`
    SELECT count(*)::int AS unread,
      (count(*) FILTER (WHERE EXISTS (SELECT 1 FROM room_members rm
        WHERE rm.rid = nr.rid AND rm.hid = nr.hid AND rm.relation = 'owner' AND rm.status = 'Y')))::int AS with_owner
    FROM notice_recipients nr
    WHERE nr.rid = ${rid} AND nr.notice_id = ${id}
      AND NOT EXISTS (SELECT 1 FROM notice_reads d WHERE d.rid = nr.rid AND d.notice_id = nr.notice_id AND d.hid = nr.hid)`.execute(db());
  return { households: rows[0]!.with_owner, without_owner: rows[0]!.unread - rows[0]!.with_owner };
}

let building = 0;
let published = 0;

/** The kept rows against the tables, and every reach the desk reads against a fresh count. */
async function agree(step: string) {
  for (const kept of [HOUSEHOLD_REACH, HOUSEHOLD_REACH_COUNTS])
    expect(await totalsMismatches(db(), kept), `${kept.table} after ${step}`).toEqual([]);
  expect(await roomReachMissing(db()), `rooms without their row after ${step}`).toEqual([]);
  for (const audience of AUDIENCES) {
    const whole = ok(await s.call('noticereach', { scope: 'all', scope_ids: [], audience }, steward));
    expect(whole, `${audience}, the whole community, after ${step}`).toMatchObject({ ...(await fresh(1, audience)), unreached: 0 });
    const part = ok(await s.call('noticereach', { scope: 'building', scope_ids: [building], audience }, steward));
    expect(part, `${audience}, a building, after ${step}`).toMatchObject(await fresh(1, audience, building));
  }
  const preview = ok(await s.call('noticepreview', { id: published }, steward));
  expect(preview, `noticepreview after ${step}`).toMatchObject(await fresh(1, 'all'));
  const resend = ok(await s.call('noticeresendpreview', { id: published }, steward));
  expect(resend, `noticeresendpreview after ${step}`).toMatchObject(await freshResend(1, published));
}

const vacantRooms = async (n: number) =>
  (
    await sql<{ id: string; bid: string; tid: string }>`
      SELECT r.id, r.bid, r.tid FROM rooms r WHERE r.rid = 1
        AND NOT EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = r.rid AND rm.hid = r.id)
      ORDER BY r.id LIMIT ${n}`.execute(db())
  ).rows.map((r) => ({ id: Number(r.id), bid: Number(r.bid), tid: Number(r.tid) }));

describe('the kept reach of households', () => {
  it('agrees with the residents after every write of residents, bindings and rooms', async () => {
    const rooms = await vacantRooms(4);
    expect(rooms.length).toBe(4);
    building = rooms[0]!.bid;
    // a published notice to the whole community, some of it read, for the re-send preview
    const added = ok(
      await s.call(
        'noticeadd',
        { title: '停水通知', type: 'notice', body: '<p>周三停水</p>', scope: 'all', audience: 'all', channels: ['app'] },
        steward,
      ),
    );
    published = added.id;
    const reach = ok(await s.call('noticereach', { scope: 'all', scope_ids: [], audience: 'all' }, steward));
    ok(await s.call('noticepublish', { id: published, confirm_households: reach.households }, steward));
    await run(`INSERT INTO notice_reads (rid, notice_id, hid, member_id)
      SELECT nr.rid, nr.notice_id, nr.hid, (SELECT rm.member_id FROM room_members rm WHERE rm.rid = nr.rid AND rm.hid = nr.hid AND rm.status = 'Y' ORDER BY rm.id LIMIT 1)
      FROM notice_recipients nr WHERE nr.rid = 1 AND nr.notice_id = ${published} AND nr.hid % 3 = 0`);
    await agree('the demo');

    // through the handlers: people moving in (an owner bound, a tenant not), a binding changed, moving out
    const owner = ok(
      await s.call(
        'memberadd',
        { realname: '林晓', mobile: '13911110001', wx_isbind: 'Y', rooms: [{ hid: rooms[0]!.id, relation: 'owner' }] },
        admin,
      ),
    ).id;
    await agree('an owner moved in');
    const tenant = ok(
      await s.call(
        'memberadd',
        {
          realname: '周舟',
          mobile: '13911110002',
          rooms: [
            { hid: rooms[0]!.id, relation: 'tenant' },
            { hid: rooms[1]!.id, relation: 'tenant' },
          ],
        },
        admin,
      ),
    ).id;
    await agree('a tenant in two rooms');
    ok(
      await s.call(
        'memberedit',
        { id: tenant, realname: '周舟', mobile: '13911110002', app_isbind: 'Y', rooms: [{ hid: rooms[1]!.id, relation: 'family' }] },
        admin,
      ),
    );
    await agree('the tenant bound and made family in one room');
    const link = await db()
      .selectFrom('room_members')
      .select('id')
      .where('rid', '=', 1)
      .where('member_id', '=', owner)
      .where('status', '=', 'Y')
      .executeTakeFirstOrThrow();
    ok(await s.call('membermoveout', { id: Number(link.id) }, admin));
    await agree('the owner moved out');

    // a room added, and deleted while nobody ever lived there
    const room = ok(await s.call('roomadd', { bid: rooms[2]!.bid, tid: rooms[2]!.tid, title: '9901', floor: 99 }, admin)).id;
    await agree('a room added');
    ok(await s.call('roomdel', { id: room }, admin));
    await agree('a room deleted');

    // statement by statement, many rows at once
    await run(`UPDATE members SET wx_isbind = 'N', app_isbind = 'N' WHERE rid = 1 AND id IN
      (SELECT member_id FROM room_members WHERE rid = 1 AND status = 'Y' ORDER BY id LIMIT 40)`);
    await agree('forty residents unbound');
    await run(`UPDATE members SET app_isbind = 'Y' WHERE rid = 1 AND id IN
      (SELECT member_id FROM room_members WHERE rid = 1 AND status = 'Y' ORDER BY id LIMIT 20)`);
    await agree('twenty bound again');
    await run(`UPDATE room_members SET relation = CASE relation WHEN 'owner' THEN 'tenant' WHEN 'tenant' THEN 'family' ELSE 'owner' END
      WHERE rid = 1 AND id IN (SELECT id FROM room_members WHERE rid = 1 AND status = 'Y' ORDER BY id DESC LIMIT 30)`);
    await agree('thirty relations changed');
    await run(`UPDATE room_members SET hid = ${rooms[3]!.id} WHERE rid = 1 AND id IN
      (SELECT id FROM room_members WHERE rid = 1 AND status = 'Y' ORDER BY id LIMIT 3)`);
    await agree('three residents moved to another room');
    await run(`UPDATE room_members SET status = 'N', move_out_date = current_date WHERE rid = 1 AND hid IN
      (SELECT hid FROM room_members WHERE rid = 1 AND status = 'Y' AND relation = 'owner' ORDER BY hid LIMIT 25)`);
    await agree('twenty-five households moved out');
    await run(`UPDATE room_members SET status = 'Y', move_out_date = NULL WHERE rid = 1 AND id IN
      (SELECT id FROM room_members WHERE rid = 1 AND status = 'N' ORDER BY id LIMIT 10)`);
    await agree('ten moved back');
    await run(`UPDATE room_members SET move_in_date = current_date WHERE rid = 1`);
    await agree('an update of nothing counted');
    await run(`INSERT INTO room_members (rid, hid, member_id, relation)
      SELECT 1, r.id, ${tenant}, 'tenant' FROM rooms r WHERE r.rid = 1 AND r.id <> ${rooms[0]!.id} AND r.id <> ${rooms[1]!.id}
        AND NOT EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.member_id = ${tenant} AND rm.status = 'Y')
      ORDER BY r.id LIMIT 15`);
    await agree('one person into fifteen rooms at once');
    await run(`DELETE FROM room_members WHERE rid = 1 AND member_id = ${tenant}`);
    await agree('their links deleted');
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`DELETE FROM room_members WHERE rid = 1 AND status = 'N'`.execute(trx);
        await sql`UPDATE members SET wx_isbind = 'Y' WHERE rid = 1`.execute(trx);
        throw new Error('rolled back');
      })
      .catch((e: Error) => expect(e.message).toBe('rolled back'));
    await agree('a transaction rolled back');

    // folded as the daily job folds them, and counted again from scratch: the same figures
    await foldTotals(db(), HOUSEHOLD_REACH_COUNTS);
    const rows = await sql<{ n: string }>`SELECT count(*) AS n FROM household_reach_counts GROUP BY rid`.execute(db());
    expect(rows.rows.every((r) => Number(r.n) === 1)).toBe(true);
    await agree('a fold');
    await run('SELECT household_reach_rebuild()');
    await agree('a rebuild');
  }, 120_000);

  it.runIf(!!process.env.DATABASE_URL)(
    'counts a move-in and a binding of the same person made at once',
    async () => {
      const [a, b] = await vacantRooms(2);
      const person = ok(
        await s.call('memberadd', { realname: '韩梅', mobile: '13911110009', rooms: [{ hid: a!.id, relation: 'owner' }] }, admin),
      ).id;
      // one transaction links them to a second room while another binds them; whichever waits, the count is right
      for (const first of ['link', 'bind'] as const) {
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        const bound = first === 'link' ? 'Y' : 'N';
        const link = db()
          .transaction()
          .execute(async (trx) => {
            if (first === 'link')
              await sql`INSERT INTO room_members (rid, hid, member_id, relation) VALUES (1, ${b!.id}, ${person}, 'tenant')`.execute(trx);
            else await sql`UPDATE members SET app_isbind = ${bound} WHERE rid = 1 AND id = ${person}`.execute(trx);
            await held;
          });
        await new Promise((r) => setTimeout(r, 50));
        const other = db()
          .transaction()
          .execute(async (trx) => {
            if (first === 'link') await sql`UPDATE members SET app_isbind = ${bound} WHERE rid = 1 AND id = ${person}`.execute(trx);
            else await sql`DELETE FROM room_members WHERE rid = 1 AND hid = ${b!.id} AND member_id = ${person}`.execute(trx);
          });
        await new Promise((r) => setTimeout(r, 100));
        release();
        await Promise.all([link, other]);
        await agree(first === 'link' ? 'a move-in racing a binding' : 'an unbinding racing a link deleted');
      }
    },
    60_000,
  );

  it('keeps another community apart', async () => {
    const [mine, theirs] = [await fresh(1, 'all'), await fresh(2, 'all')];
    await run(`UPDATE members SET app_isbind = 'N', wx_isbind = 'N' WHERE rid = 2`);
    expect(await fresh(1, 'all')).toEqual(mine);
    expect(ok(await s.call('noticereach', { scope: 'all', scope_ids: [], audience: 'all' }, steward))).toMatchObject(mine);
    expect((await fresh(2, 'all')).app).toBeLessThanOrEqual(theirs.app);
    for (const kept of [HOUSEHOLD_REACH, HOUSEHOLD_REACH_COUNTS]) expect(await totalsMismatches(db(), kept)).toEqual([]);
  });
});
