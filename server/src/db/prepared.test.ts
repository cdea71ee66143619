import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thingsSchema } from '../test/thingsSchema.js';
import { PREPARE_TAG, PREPARED_PER_CONNECTION, PreparingClient } from './prepared.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('PreparingClient (PostgreSQL; skipped without DATABASE_URL)', () => {
  let things: Awaited<ReturnType<typeof thingsSchema>>;
  let schema: string;
  let admin: pg.Client;
  let pool: pg.Pool;

  beforeAll(async () => {
    things = await thingsSchema(url!, 't_prep', 300);
    ({ schema, admin } = things);
    pool = new pg.Pool({ Client: PreparingClient, connectionString: url, max: 1, options: `-c search_path=${schema}` });
  });
  afterAll(async () => {
    await pool.end();
    await things.drop();
  });

  /** the statements this pool's one connection holds prepared on the server */
  const preparedOnServer = async (client: pg.PoolClient) =>
    (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);

  it('prepares a tagged statement once per connection and reuses it', async () => {
    const client = await pool.connect();
    try {
      const text = `${PREPARE_TAG} SELECT title FROM things WHERE id = $1`;
      for (let id = 1; id <= 3; id++) {
        const res = await client.query(text, [id]);
        expect(res.rows).toEqual([{ title: `thing ${id}` }]);
      }
      expect(await preparedOnServer(client)).toEqual([text]);
      // untagged statements are planned for their values on every call, as before
      await client.query('SELECT title FROM things WHERE id = $1', [1]);
      await client.query('SELECT count(*) FROM things');
      await client.query('BEGIN');
      await client.query('COMMIT');
      expect(await preparedOnServer(client)).toHaveLength(1);
    } finally {
      client.release();
    }
  });

  it('prepares statements run through pg.Pool#query too', async () => {
    const text = `${PREPARE_TAG} SELECT id FROM things WHERE title = $1`;
    expect((await pool.query(text, ['thing 5'])).rows).toEqual([{ id: 5 }]);
    const client = await pool.connect();
    try {
      expect(await preparedOnServer(client)).toContain(text);
    } finally {
      client.release();
    }
  });

  it(`keeps at most ${PREPARED_PER_CONNECTION} statements, letting the least recently used go`, async () => {
    const client = await pool.connect();
    try {
      const statement = (n: number) => `${PREPARE_TAG} SELECT id, ${n} AS n FROM things WHERE id = $1`;
      await client.query(statement(0), [1]);
      for (let n = 1; n <= PREPARED_PER_CONNECTION + 20; n++) {
        await client.query(statement(n), [n]);
        // statement 0 stays in use, so it stays prepared
        if (n % 10 === 0) await client.query(statement(0), [1]);
      }
      const held = await preparedOnServer(client);
      expect(held.length).toBeLessThanOrEqual(PREPARED_PER_CONNECTION);
      expect(held).toContain(statement(0));
      expect(held).not.toContain(statement(1));
      expect((client as unknown as PreparingClient).preparedCount).toBe(PREPARED_PER_CONNECTION);
      // a statement let go is prepared anew when it comes back
      expect((await client.query(statement(1), [7])).rows).toEqual([{ id: 7, n: 1 }]);
    } finally {
      client.release();
    }
  });

  it('lets statements go inside a transaction without breaking it', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (let n = 0; n < PREPARED_PER_CONNECTION + 10; n++)
        await client.query(`${PREPARE_TAG} SELECT ${n} AS n, title FROM things WHERE id = $1`, [1]);
      await client.query(`${PREPARE_TAG} UPDATE things SET title = $1 WHERE id = $2`, ['renamed', 1]);
      await client.query('COMMIT');
      expect((await client.query('SELECT title FROM things WHERE id = $1', [1])).rows).toEqual([{ title: 'renamed' }]);
    } finally {
      client.release();
    }
  });

  it('prepares a statement anew after its table changed shape under it', async () => {
    const client = await pool.connect();
    try {
      const text = `${PREPARE_TAG} SELECT * FROM things WHERE id = $1`;
      expect((await client.query(text, [2])).rows).toEqual([{ id: 2, title: 'thing 2' }]);
      await admin.query(`ALTER TABLE ${schema}.things ADD COLUMN note text NOT NULL DEFAULT ''`);
      // PostgreSQL refuses a prepared statement whose result columns changed (a migration by another process) ...
      await expect(client.query(text, [2])).rejects.toMatchObject({ code: '0A000' });
      // ... and the next call prepares it again
      expect((await client.query(text, [2])).rows).toEqual([{ id: 2, title: 'thing 2', note: '' }]);
    } finally {
      client.release();
    }
  });

  it('keeps a connection usable after a statement that fails to prepare', async () => {
    const client = await pool.connect();
    try {
      const bad = `${PREPARE_TAG} SELECT nope FROM things WHERE id = $1`;
      await expect(client.query(bad, [1])).rejects.toMatchObject({ code: '42703' });
      await expect(client.query(bad, [1])).rejects.toMatchObject({ code: '42703' });
      expect((await client.query(`${PREPARE_TAG} SELECT id FROM things WHERE id = $1`, [3])).rows).toEqual([{ id: 3 }]);
    } finally {
      client.release();
    }
  });
});
