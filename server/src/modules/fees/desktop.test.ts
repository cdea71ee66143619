import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

const one = async <T>(q: string) => (await sql<T>`${sql.raw(q)}`.execute(t.database.db)).rows[0]!;

describe('regiondesktop', () => {
  it("answers the community's day: takings, arrears with late fees, rooms and owners", async () => {
    const res = await t.call('regiondesktop', {}, cashier);
    expect(res.return_code).toBe('SUCCESS');
    const d = res.data;
    expect(d.day).toBe(today());
    const paid = await one<{ s: string; n: number }>(
      // taken today, less what was voided today (a receipt voided the day it was taken is not counted at all)
      `SELECT coalesce(sum(CASE WHEN created_at >= current_date THEN paid_amount ELSE -paid_amount END), 0)::numeric(14,2)::text s,
         coalesce(sum(CASE WHEN created_at >= current_date THEN 1 ELSE -1 END), 0)::int n
       FROM fee_payments
       WHERE rid = 1 AND ((created_at >= current_date AND status <> 'V') OR (created_at < current_date AND voided_at >= current_date))`,
    );
    expect(d.today.amount).toBe(paid.s);
    expect(d.today.count).toBe(paid.n);
    // the one arrears figure: the sum of room_arrears over the community's rooms
    const owed = await one<{ fee: string; late: string; total: string; rooms: number }>(
      `SELECT sum(a.fee)::numeric(14,2)::text fee, sum(a.late_fee)::numeric(14,2)::text late,
         sum(a.fee + a.late_fee)::numeric(14,2)::text total, count(*) FILTER (WHERE a.bill_count > 0)::int rooms
       FROM rooms r CROSS JOIN LATERAL room_arrears(1, r.id, current_date) a WHERE r.rid = 1`,
    );
    expect(d.arrears).toMatchObject({ fee: owed.fee, late_fee: owed.late, total: owed.total, rooms: owed.rooms });
    expect(Number(d.arrears.total)).toBeGreaterThan(0);
    const rooms = await one<{ n: number; v: number }>(
      `SELECT count(*)::int n, count(*) FILTER (WHERE state = 'vacant')::int v FROM rooms WHERE rid = 1`,
    );
    expect(d.rooms.total).toBe(rooms.n);
    expect(d.rooms.vacant).toBe(rooms.v);
    expect(d.rooms.occupied).toBe(d.rooms.by_state.occupied + d.rooms.by_state.rented);
    const owners = await one<{ n: number }>(
      `SELECT count(DISTINCT member_id)::int n FROM room_members WHERE rid = 1 AND relation = 'owner' AND status = 'Y'`,
    );
    expect(d.owners).toBe(owners.n);
    expect(d.owners).toBeGreaterThan(0);
    expect((await t.call('regiondesktop', {}, admin)).data).toEqual(d);
  });

  it('answers only the signed-in community', async () => {
    const other = await t.call('regiondesktop', {}, admin2);
    expect(other.return_code).toBe('SUCCESS');
    const mine = (await t.call('regiondesktop', {}, admin)).data;
    const n = await one<{ n: number }>(`SELECT count(*)::int n FROM rooms WHERE rid = 2`);
    expect(other.data.rooms.total).toBe(n.n);
    expect(other.data.rooms.total).not.toBe(mine.rooms.total);
    expect(other.data.arrears.total).not.toBe(mine.arrears.total);
  });

  it('refuses a role without the payment pages and the group side; a hostile payload reads the own community', async () => {
    expect((await t.call('regiondesktop', {}, steward)).return_code).toBe('NO_PERMISSION');
    // a hostile payload cannot point it at another community: it takes nothing, the session's community is read
    const mine = (await t.call('regiondesktop', {}, admin)).data;
    const bad = await t.call('regiondesktop', { rid: 2, hid: 'x', limit: -1 }, admin);
    expect(bad.return_code).toBe('SUCCESS');
    expect(bad.data).toEqual(mine);
    expect((await t.call('regiondesktop', {}, admin, 'group')).return_code).not.toBe('SUCCESS');
  });
});

describe('roomboard', () => {
  it("answers every room of a building with its state, owners and today's arrears", async () => {
    const b = await one<{ bid: number; n: number }>(
      `SELECT bid, count(*)::int n FROM rooms WHERE rid = 1 GROUP BY bid ORDER BY bid LIMIT 1`,
    );
    const res = await t.call('roomboard', { bid: b.bid }, cashier);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.items).toHaveLength(b.n);
    expect(new Set(res.data.items.map((r: { bid: number }) => r.bid))).toEqual(new Set([b.bid]));
    // the arrears of each room are room_arrears', late fees included
    const owed = await sql<{ id: number; total: string; late: string; n: number }>`
      SELECT r.id, (a.fee + a.late_fee)::numeric(14,2)::text total, a.late_fee::numeric(14,2)::text late, a.bill_count n
      FROM rooms r CROSS JOIN LATERAL room_arrears(1, r.id, current_date) a WHERE r.rid = 1 AND r.bid = ${b.bid}`.execute(t.database.db);
    const byId = new Map(res.data.items.map((r: { id: number }) => [r.id, r]));
    let owing = 0;
    for (const o of owed.rows) {
      const r = byId.get(o.id) as { arrears: { total: string; late_fee: string; bill_count: number } };
      expect(r.arrears).toMatchObject({ total: o.total, late_fee: o.late, bill_count: o.n });
      if (o.n > 0) owing++;
    }
    expect(owing).toBeGreaterThan(0);
    // the current owners, by name
    const owner = await one<{ hid: number; realname: string }>(
      `SELECT rm.hid, m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
       WHERE rm.rid = 1 AND r.bid = ${b.bid} AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1`,
    );
    const withOwner = byId.get(owner.hid) as { owners: Array<{ name: string }> };
    expect(withOwner.owners.map((o) => o.name)).toContain(owner.realname);
    // floors top down inside a unit
    const first = res.data.items.filter((r: { tid: number }) => r.tid === res.data.items[0].tid);
    expect(first[0].floor).toBeGreaterThanOrEqual(first[first.length - 1].floor);
  });

  it('reads a 30-floor, 4-unit building in one statement, quickly', async () => {
    const db = t.database.db;
    const bid = (await sql<{ id: number }>`INSERT INTO buildings (rid, title, floors) VALUES (1, '测试高层', 30) RETURNING id`.execute(db))
      .rows[0]!.id;
    for (let u = 1; u <= 4; u++) {
      const tid = (
        await sql<{ id: number }>`INSERT INTO units (rid, bid, title, sort) VALUES (1, ${bid}, ${`${u}单元`}, ${u}) RETURNING id`.execute(
          db,
        )
      ).rows[0]!.id;
      await sql`INSERT INTO rooms (rid, bid, tid, title, floor)
        SELECT 1, ${bid}, ${tid}, f || lpad(n::text, 2, '0'), f FROM generate_series(1, 30) f, generate_series(1, 4) n`.execute(db);
    }
    const started = performance.now();
    const res = await t.call('roomboard', { bid }, admin);
    const took = performance.now() - started;
    expect(res.data.items).toHaveLength(480);
    expect(res.data.items[0]).toMatchObject({ unit_title: '1单元', floor: 30 });
    expect(took).toBeLessThan(2000);
  });

  it('refuses another community, a role without the counter and a bad payload', async () => {
    const b = await one<{ id: number }>(`SELECT id FROM buildings WHERE rid = 1 ORDER BY id LIMIT 1`);
    expect((await t.call('roomboard', { bid: b.id }, admin2)).return_msg).toBe('楼栋不存在');
    expect((await t.call('roomboard', { bid: b.id }, steward)).return_code).toBe('NO_PERMISSION');
    for (const bad of [{}, { bid: 'x' }, { bid: -1 }]) {
      expect((await t.call('roomboard', bad, admin)).return_code, JSON.stringify(bad)).not.toBe('SUCCESS');
    }
  });
});
