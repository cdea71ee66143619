import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePattern } from '../../lib/like.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { roomsAddressed } from './access.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** The rooms whose joined address contains the text, the plain way: every room's address read. */
async function byJoinedAddress(rid: number, text: string): Promise<string[]> {
  const res = await sql<{ id: string }>`SELECT r.id FROM rooms r JOIN units u ON u.rid = r.rid AND u.id = r.tid
    JOIN buildings b ON b.rid = r.rid AND b.id = r.bid
    WHERE r.rid = ${rid} AND concat(b.title, u.title, r.title) ILIKE ${likePattern(text)} ORDER BY r.id`.execute(s.database.db);
  return res.rows.map((r) => String(r.id));
}

async function addressed(rid: number, text: string): Promise<string[]> {
  const res = await sql<{ id: string }>`SELECT id FROM (${roomsAddressed(rid, text)}) x ORDER BY id`.execute(s.database.db);
  return res.rows.map((r) => String(r.id));
}

describe('roomsAddressed', () => {
  it('finds the rooms whose address contains the text, as matching every joined address does', async () => {
    const db = s.database.db;
    // a building and a unit with Latin letters, to match in any case
    const b = await db.insertInto('buildings').values({ rid: 1, title: 'A座' }).returning('id').executeTakeFirstOrThrow();
    const u = await db.insertInto('units').values({ rid: 1, bid: b.id, title: 'East单元' }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('rooms')
      .values([
        { rid: 1, bid: b.id, tid: u.id, title: '1201', floor: 12 },
        { rid: 1, bid: b.id, tid: u.id, title: 'B12', floor: 1 },
      ])
      .execute();
    const addresses = (
      await sql<{ a: string }>`SELECT concat(b.title, u.title, r.title) a FROM rooms r
      JOIN units u ON u.rid = r.rid AND u.id = r.tid JOIN buildings b ON b.rid = r.rid AND b.id = r.bid
      WHERE r.rid = 1 AND r.id IN ((SELECT min(id) FROM rooms WHERE rid = 1), (SELECT max(id) FROM rooms WHERE rid = 1))`.execute(db)
    ).rows.map((r) => r.a);
    expect(addresses).toContain('A座East单元B12');
    // every part of two whole addresses, so every way a text can span building, unit and room
    const parts = new Set<string>();
    for (const a of addresses) {
      const chars = Array.from(a);
      for (let i = 0; i < chars.length; i++) for (let j = i + 1; j <= chars.length; j++) parts.add(chars.slice(i, j).join(''));
    }
    for (const text of ['EAST单元b1', 'a座east', '%', '_', '1%0', '不存在的地址', '1号楼1单元1号楼1单元101', '2']) parts.add(text);
    let found = 0;
    for (const text of parts) {
      const expected = await byJoinedAddress(1, text);
      expect(await addressed(1, text), text).toEqual(expected);
      found += expected.length;
    }
    expect(found).toBeGreaterThan(1000);
    // another community's rooms are never among them
    expect(await addressed(2, 'A座East')).toEqual([]);
  });
});
