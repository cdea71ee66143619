import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { givenKey, givenOf, template, type Slots } from './compiled.js';
import { openDatabase, type Database } from './connection.js';

describe('statement templates', () => {
  const builds: string[] = [];
  const rooms = template((db, p: Slots<{ rid: number; hid: number; title?: string }>, given: { title: boolean }) => {
    builds.push(JSON.stringify(given));
    let qb = db.selectFrom('rooms').select(['id', 'title']).where('rid', '=', p.rid).where('id', '=', p.hid).where('bid', '>', 0);
    if (given.title) qb = qb.where('title', 'like', p.title);
    return qb;
  });

  it("binds each call's values where the builder took them, the constants where they were", () => {
    const q = rooms.bind({ title: false }, { rid: 1, hid: 41 });
    expect(q.sql).toBe('select "id", "title" from "rooms" where "rid" = $1 and "id" = $2 and "bid" > $3');
    expect(q.parameters).toEqual([1, 41, 0]);
    expect(rooms.bind({ title: true }, { rid: 2, hid: 7, title: '%1%' }).parameters).toEqual([2, 7, 0, '%1%']);
  });

  it('builds and compiles each shape once', () => {
    builds.length = 0;
    for (let i = 0; i < 5; i++) rooms.bind({ title: false }, { rid: 1, hid: i });
    rooms.bind({ title: true }, { rid: 1, hid: 1, title: '%a%' });
    expect(builds).toEqual([]); // both shapes were built by the test above
    expect(rooms.bind({ title: false }, { rid: 3, hid: 9 }).parameters).toEqual([3, 9, 0]);
  });

  it('refuses a call that lacks a value its shape uses', () => {
    expect(() => rooms.bind({ title: true }, { rid: 1, hid: 1 })).toThrow('no value for title');
  });

  it('keeps a bounded number of shapes, compiling a forgotten one again when asked', () => {
    const paged = template((db, p: { rid: number }, shape: { offset: number }) => {
      builds.push(String(shape.offset));
      return db.selectFrom('rooms').select('id').where('rid', '=', p.rid).offset(shape.offset);
    });
    builds.length = 0;
    for (let offset = 0; offset < 100; offset++) paged.bind({ offset }, { rid: 1 });
    paged.bind({ offset: 99 }, { rid: 1 }); // still kept
    expect(builds).toHaveLength(100);
    paged.bind({ offset: 0 }, { rid: 1 }); // let go, built again
    expect(builds).toHaveLength(101);
  });
});

describe('the shape of the given values', () => {
  it('names the values given, in their order, and tells the builder the same', () => {
    const values = { rid: 1, plate: undefined, keyword: '%a%', hid: 0 };
    expect(givenKey(values)).toBe('rid,keyword,hid,');
    expect(givenOf(values)).toEqual({ rid: true, plate: false, keyword: true, hid: true });
    expect(givenKey({ rid: 1, plate: '%x%', keyword: undefined, hid: 0 })).not.toBe(givenKey(values));
  });
});

describe('statement templates on a database', () => {
  let database: Database;
  const seen: string[] = [];
  const series = template(
    (_db, p: Slots<{ n: number }>) =>
      sql<{ n: number; app: string }>`SELECT g AS n, current_setting('application_name') AS app FROM generate_series(1, ${p.n}::int) AS g`,
  );

  beforeAll(async () => {
    database = await openDatabase(loadConfig(process.env, { dbSchema: undefined }), { memory: true, onQuery: (text) => seen.push(text) });
  });
  afterAll(() => database?.close());

  it('run on the pool, and the statement is still seen once (the benchmarks capture it)', async () => {
    seen.length = 0;
    expect((await series.rows(database.db, null, { n: 3 })).map((r) => r.n)).toEqual([1, 2, 3]);
    expect(seen).toEqual([expect.stringContaining('generate_series')]);
  });

  it('run inside a transaction on its connection', async () => {
    const apps = await database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL application_name = 'template-in-transaction'`.execute(trx);
      return (await series.rows(trx, null, { n: 2 })).map((r) => r.app);
    });
    expect(apps).toEqual(['template-in-transaction', 'template-in-transaction']);
  });
});
