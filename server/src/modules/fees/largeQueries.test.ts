/**
 * The bill list's count and the arrears reports take shortcuts for large communities (a count on
 * fee_bills alone, rooms aggregated before their addresses are joined, see docs/perf/history.md#round-1);
 * these tests hold them to the plain SQL answer on the demo data.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login('admin');
});
afterAll(() => t.close());

const one = async <T>(query: string): Promise<T> => (await sql.raw<T>(query).execute(t.database.db)).rows[0]!;

describe('bill list totals', () => {
  it('counts what the filters select, with or without the keyword', async () => {
    const building = await one<{ bid: number; tid: number; hid: number }>(
      `SELECT bid, tid, hid FROM fee_bills WHERE rid = 1 AND status = 'N' ORDER BY id LIMIT 1`,
    );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, `true`],
      [{ status: 'N' }, `status = 'N'`],
      [{ status: 'Y', cost_types: ['property'] }, `status = 'Y' AND cost_type = 'property'`],
      [{ bid: building.bid, status: 'N' }, `bid = ${building.bid} AND status = 'N'`],
      [{ bid: building.bid, tid: building.tid, hid: building.hid }, `hid = ${building.hid}`],
      [{ title: '物业', min_fee: '200.00', max_fee: '300.00' }, `title LIKE '%物业%' AND fee BETWEEN 200 AND 300`],
      [{ keyword: '1101' }, `hid IN (SELECT id FROM rooms WHERE rid = 1 AND title LIKE '%1101%')`],
    ];
    for (const [filters, where] of cases) {
      const res = await t.call('feebilllist', { ...filters, limit: 5 }, admin);
      expect(res.return_code, JSON.stringify(filters)).toBe('SUCCESS');
      const expected = await one<{ n: number }>(`SELECT count(*)::int AS n FROM fee_bills WHERE rid = 1 AND ${where}`);
      expect([filters, res.data.total]).toEqual([filters, expected.n]);
      expect(res.data.items.length).toBe(Math.min(5, expected.n));
    }
    expect((await t.call('feebilllist', { rid: 2, status: 'N' }, admin)).data).toEqual({ items: [], total: 0 });
  });
});

describe('arrears at scale', () => {
  const byRoom = `SELECT b.hid, sum(b.fee) AS s, count(*) AS n FROM fee_bills b WHERE b.rid = 1 AND b.status <> 'Y'`;

  it('fees_count_nopay and feebillcall agree with the unpaid bills, filtered by building, unit and address', async () => {
    const room = await one<{ bid: number; tid: number; title: string }>(
      `SELECT r.bid, r.tid, r.title FROM fee_bills b JOIN rooms r ON r.rid = b.rid AND r.id = b.hid WHERE b.rid = 1 AND b.status <> 'Y' ORDER BY b.id LIMIT 1`,
    );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, ''],
      [{ bid: room.bid }, `AND b.bid = ${room.bid}`],
      [{ bid: room.bid, tid: room.tid }, `AND b.tid = ${room.tid}`],
      [{ keyword: room.title }, `AND b.hid IN (SELECT id FROM rooms WHERE rid = 1 AND title LIKE '%${room.title}%')`],
    ];
    for (const [filters, where] of cases) {
      const expected = await one<{ rooms: number; total: string; least: string | null }>(`
        SELECT count(*)::int AS rooms, coalesce(sum(s), 0)::numeric(14,2)::text AS total, min(s)::numeric(14,2)::text AS least
        FROM (${byRoom} ${where} GROUP BY b.hid) a`);
      const desc = await t.call('fees_count_nopay', { ...filters, limit: 200 }, admin);
      expect([filters, desc.data.total, desc.data.totals.arrears]).toEqual([filters, expected.rooms, expected.total]);
      const fen = desc.data.items.map((r: { arrears: string }) => Math.round(Number(r.arrears) * 100));
      expect(fen).toEqual([...fen].sort((a: number, b: number) => b - a));
      const call = await t.call('feebillcall', { ...filters, sort: 'asc', limit: 3 }, admin);
      expect(call.data.total).toBe(expected.rooms);
      if (expected.rooms) expect(call.data.items[0].arrears).toBe(expected.least);
    }
  });

  it('fills each row: address, owner, bill count and buckets of the room', async () => {
    const res = await t.call('fees_count_nopay', { limit: 3 }, admin);
    for (const row of res.data.items) {
      const room = await one<{ address: string; n: number; s: string; owner: string | null }>(`
        SELECT bd.title || u.title || r.title AS address, a.n::int AS n, a.s::numeric(14,2)::text AS s,
          (SELECT m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
           WHERE rm.rid = 1 AND rm.hid = r.id AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1) AS owner
        FROM (${byRoom} AND b.hid = ${row.hid} GROUP BY b.hid) a
        JOIN rooms r ON r.rid = 1 AND r.id = a.hid JOIN units u ON u.rid = 1 AND u.id = r.tid JOIN buildings bd ON bd.rid = 1 AND bd.id = r.bid`);
      expect([row.address, row.bill_count, row.arrears, row.owner_name]).toEqual([room.address, room.n, room.s, room.owner ?? '']);
    }
  });

  it('the dashboard names the five buildings owed most', async () => {
    const res = await t.call('feedashboard', {}, admin);
    const expected = await sql<{ bid: number; building_title: string; arrears: string; rooms: number }>`
      SELECT b.bid, min(bd.title) AS building_title, sum(b.fee)::numeric(14,2)::text AS arrears, count(DISTINCT b.hid)::int AS rooms
      FROM fee_bills b JOIN buildings bd ON bd.rid = b.rid AND bd.id = b.bid WHERE b.rid = 1 AND b.status <> 'Y'
      GROUP BY b.bid ORDER BY sum(b.fee) DESC, b.bid LIMIT 5`.execute(t.database.db);
    expect(res.data.top_arrears).toEqual(expected.rows);
  });

  it('fees_count names each row by its fee item', async () => {
    const res = await t.call('fees_count', { start_period: '2000-01', end_period: '2100-12' }, admin);
    const items = await sql<{ id: number; title: string }>`SELECT id, title FROM fee_items WHERE rid = 1`.execute(t.database.db);
    const titles = new Map(items.rows.map((i) => [i.id, i.title]));
    expect(res.data.items.length).toBeGreaterThan(0);
    for (const row of res.data.items) expect(row.title).toBe(titles.get(row.item_id));
  });
});
