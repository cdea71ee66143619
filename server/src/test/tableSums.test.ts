import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { changedTables, tableSums, touchedTables, trackTouchedTables } from './tableSums.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await trackTouchedTables(s.database.db);
});
afterAll(() => s?.close());

describe('the safety walks’ sums (the detector can fail)', () => {
  it('names a table a statement changed, and its sum moves', async () => {
    const db = s.database.db;
    await touchedTables(db);
    const before = await tableSums(db, { skip: new Set() });
    await sql`UPDATE regions SET title = title || '改' WHERE id = 2`.execute(db);
    const touched = await touchedTables(db);
    expect([...touched]).toEqual(['regions']);
    const after = await tableSums(db, { skip: new Set(), tables: touched });
    expect(changedTables(before, after)).toEqual(['regions']);
    // nothing touched since: nothing to sum
    expect((await touchedTables(db)).size).toBe(0);
  });

  it('notes nothing for a write rolled back', async () => {
    const db = s.database.db;
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`UPDATE regions SET title = title WHERE id = 2`.execute(trx);
        throw new Error('refused');
      })
      .catch(() => undefined);
    expect((await touchedTables(db)).size).toBe(0);
  });

  it('sums only the rows asked for', async () => {
    const db = s.database.db;
    const one = await tableSums(db, { skip: new Set(), tables: new Set(['regions']), rows: () => sql`id = 1` });
    const two = await tableSums(db, { skip: new Set(), tables: new Set(['regions']), rows: () => sql`id = 2` });
    expect(one.get('regions')).toMatch(/^1:/);
    expect(one.get('regions')).not.toBe(two.get('regions'));
  });
});
