import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thingsSchema } from '../test/thingsSchema.js';
import { PipelinedConnections } from './pipeline.js';
import { LIGHT_TAG, PREPARE_TAG } from './prepared.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('PipelinedConnections (PostgreSQL; skipped without DATABASE_URL)', () => {
  let things: Awaited<ReturnType<typeof thingsSchema>>;
  let schema: string;
  let admin: pg.Client;
  let pool: pg.Pool;
  /** statements the pool was given, the lanes having passed them on */
  let pooled: string[];
  let lanes: PipelinedConnections;

  beforeAll(async () => {
    things = await thingsSchema(url!, 't_pipe', 500);
    ({ schema, admin } = things);
    const options = `-c search_path=${schema} -c application_name=${schema}`;
    pool = new pg.Pool({ connectionString: url, max: 2, options: `${options}_pool` });
    pooled = [];
    lanes = new PipelinedConnections(2, { connectionString: url, options }, true, {
      query: (text, values) => {
        pooled.push(text);
        return pool.query(text, values);
      },
    });
  });
  afterAll(async () => {
    await lanes.end();
    await pool.end();
    await things.drop();
  });

  const light = `${PREPARE_TAG} ${LIGHT_TAG} SELECT id, title FROM things WHERE id = $1`;
  /** the server processes of the lanes (the pool's go by another application name) */
  const lanePids = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 ORDER BY pid', [schema])).rows.map(
      (r) => r.pid,
    );

  it('answers each of many statements in flight at once with its own rows, on two connections', async () => {
    await Promise.all([lanes.query(light, [1]), lanes.query(light, [2])]); // both connections open
    pooled.length = 0;
    const ids = Array.from({ length: 120 }, (_, i) => i + 1);
    const answers = await Promise.all(ids.map((id) => lanes.query(light, [id])));
    answers.forEach((a, i) => expect(a.rows).toEqual([{ id: ids[i], title: `thing ${ids[i]}` }]));
    // all of them pipelined: none had to go to the pool (none waited behind a slow one)
    expect(pooled).toEqual([]);
    expect(await lanePids()).toHaveLength(2);
  });

  it('fails a bad statement alone and goes on with the rest', async () => {
    const bad = `${PREPARE_TAG} ${LIGHT_TAG} SELECT id / 0 AS x FROM things WHERE id = $1`;
    const results = await Promise.allSettled([lanes.query(light, [1]), lanes.query(bad, [2]), lanes.query(light, [3])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/division by zero/);
    expect((results[2] as PromiseFulfilledResult<pg.QueryResult>).value.rows).toEqual([{ id: 3, title: 'thing 3' }]);
  });

  it('sends statements not tagged light to the pool', async () => {
    pooled.length = 0;
    const report = 'SELECT count(*)::int AS n FROM things';
    const search = `${PREPARE_TAG} SELECT id FROM things WHERE title LIKE $1 ORDER BY id LIMIT 1`;
    expect((await lanes.query(report, [])).rows).toEqual([{ n: 500 }]);
    expect((await lanes.query(search, ['thing 4%'])).rows).toEqual([{ id: 4 }]);
    expect(pooled).toEqual([report, search]);
  });

  it('passes over a connection held up by a slow statement', async () => {
    pooled.length = 0;
    const slow = `${PREPARE_TAG} ${LIGHT_TAG} SELECT pg_sleep(0.4)::text AS slept, $1::int AS id`;
    // both lanes get a slow statement, so after a moment neither takes more
    const slowOnes = [lanes.query(slow, [1]), lanes.query(slow, [2])];
    await new Promise((resolve) => setTimeout(resolve, 60));
    const started = performance.now();
    const quick = await lanes.query(light, [7]);
    const waited = performance.now() - started;
    expect(quick.rows).toEqual([{ id: 7, title: 'thing 7' }]);
    expect(pooled).toEqual([light]);
    expect(waited).toBeLessThan(300);
    await Promise.all(slowOnes);
  });

  it('fails what was on a connection that broke, and opens a new one for the next', async () => {
    await Promise.all([lanes.query(light, [1]), lanes.query(light, [2])]);
    const before = await lanePids();
    expect(before).toHaveLength(2);
    const slow = `${PREPARE_TAG} ${LIGHT_TAG} SELECT pg_sleep(5)::text AS slept, $1::int AS id`;
    const held = [lanes.query(slow, [1]), lanes.query(slow, [2])].map((p) =>
      p.then(
        () => 'answered',
        () => 'failed',
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [before]);
    expect(await Promise.all(held)).toEqual(['failed', 'failed']);
    const again = await Promise.all([lanes.query(light, [5]), lanes.query(light, [6])]);
    expect(again.map((a) => a.rows[0])).toEqual([
      { id: 5, title: 'thing 5' },
      { id: 6, title: 'thing 6' },
    ]);
    const after = await lanePids();
    expect(after).toHaveLength(2);
    expect(after.some((pid) => before.includes(pid))).toBe(false);
  });
});
