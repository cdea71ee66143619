import fs from 'node:fs';
import path from 'node:path';
import { RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/connection.js';
import { prepareProcessDatabase, spawnServer, waitFor, type ProcessDatabase, type ServerProcess } from '../test/process.js';

/**
 * Two server processes on one PostgreSQL schema, as behind a load balancer: both start at once
 * on an empty schema, sessions work on either and die on both, and the job queue runs each job
 * exactly once between them, the daily jobs once a day.
 *
 * Needs DATABASE_URL: PGlite is one process's embedded database, so there is nothing to share
 * without it, and this suite is skipped (and says so) when DATABASE_URL is unset.
 */
const PG = Boolean(process.env.DATABASE_URL);
const JOBS = 24;

describe.skipIf(!PG)('two server processes on one PostgreSQL schema (skipped without DATABASE_URL)', () => {
  let pdb: ProcessDatabase;
  let db: Database;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    // an empty schema: both processes migrate and seed the demo at the same moment
    pdb = await prepareProcessDatabase({ seed: false });
    const started = await Promise.allSettled([spawnServer(pdb, { SEED_DEMO: '1' }), spawnServer(pdb, { SEED_DEMO: '1' })]);
    [a, b] = started.map((r) => (r.status === 'fulfilled' ? r.value : undefined)) as [ServerProcess, ServerProcess];
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    db = await pdb.open();
  }, 300_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.close();
    await pdb?.dispose();
  });

  it('started together on an empty schema: migrations applied once, one demo', async () => {
    const files = fs.readdirSync(path.join(import.meta.dirname, '../db/migrations')).filter((f) => /^\d+_.*\.sql$/.test(f));
    const applied = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db.db);
    expect(applied.rows.map((r) => r.name).sort()).toEqual(files.sort());
    const groups = await db.db.selectFrom('groups').select('id').execute();
    expect(groups).toHaveLength(1);
    expect(await db.db.selectFrom('regions').select('id').execute()).toHaveLength(4);
  });

  /**
   * The answer of `userinfo` on `s` once the token is refused. A process may remember a live
   * session for a few seconds (session-cache.ts) and forgets it when PostgreSQL notifies it of
   * the change; that notification is allowed a short flight (LAG_MS), the cache's TTL is not.
   */
  const LAG_MS = 500;
  async function deadOn(s: ServerProcess, token: string): Promise<string> {
    const t0 = Date.now();
    for (;;) {
      const code = (await s.call('userinfo', {}, token)).return_code;
      if (code !== RC.SUCCESS) {
        lags.push(Date.now() - t0);
        return code;
      }
      if (Date.now() - t0 > LAG_MS) return `${code} still after ${LAG_MS} ms`;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const lags: number[] = [];
  afterAll(() => console.log(`token death reached the other process after ${lags.join(', ')} ms`));

  it('a token from a sign-in on A works on B; logout on B kills it on A', async () => {
    const token = await a.login('cashier');
    expect((await a.call('userinfo', {}, token)).return_code).toBe(RC.SUCCESS);
    expect((await b.call('userinfo', {}, token)).return_code).toBe(RC.SUCCESS);
    expect((await b.call('logout', {}, token)).return_code).toBe(RC.SUCCESS);
    expect(await deadOn(a, token)).toBe(RC.ILLEGAL_TOKEN);
    expect((await b.call('userinfo', {}, token)).return_code).toBe(RC.ILLEGAL_TOKEN);
  });

  it("a password change on B ends the account's other session on A as soon as A hears of it", async () => {
    const other = await a.login('merchant');
    const mine = await b.login('merchant');
    expect((await a.call('userinfo', {}, other)).return_code).toBe(RC.SUCCESS);
    const res = await b.call(
      'sysusereditpassword',
      { username: 'merchant', oldpassword: 'demo123456', password: 'Shop#2026x', password2: 'Shop#2026x' },
      mine,
    );
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(await deadOn(a, other)).toBe(RC.OTHER_CLIENT);
    expect((await a.call('userinfo', {}, mine)).return_code).toBe(RC.SUCCESS);
  });

  it('counts wrong passwords on both processes toward one wait', async () => {
    for (const s of [a, b, a, b, a]) expect((await s.call('login', { username: 'steward', password: 'not-it' })).return_code).toBe(RC.FAIL);
    for (const s of [a, b]) expect((await s.call('login', { username: 'steward', password: 'demo123456' })).return_msg).toMatch(/过于频繁/);
  });

  it(`${JOBS} queued jobs run exactly once between the two runners`, async () => {
    const admin = await a.login('admin');
    const item = await db.db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('pricing', '=', 'area_built')
      .executeTakeFirstOrThrow();
    // queued through both processes, for two years of months ahead
    const answers = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => {
        const period = `${2033 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
        return (i % 2 ? b : a).call('feebillgenerate', { period, item_ids: [item.id] }, admin);
      }),
    );
    expect(answers.map((x) => x.return_code)).toEqual(Array(JOBS).fill(RC.SUCCESS));
    const ids = answers.map((x) => x.data.job_id as number);
    const jobs = await waitFor(
      'all jobs to end',
      async () => {
        const rows = await db.db.selectFrom('jobs').select(['id', 'status', 'attempts', 'locked_by']).where('id', 'in', ids).execute();
        return rows.every((r) => r.status === 'done' || r.status === 'failed') ? rows : undefined;
      },
      180_000,
      200,
    );
    expect(jobs.map((j) => [j.status, j.attempts])).toEqual(Array(JOBS).fill(['done', 1]));
    // both processes took part
    expect(new Set(jobs.map((j) => j.locked_by!.split(':')[1])).size).toBe(2);
    for (const x of answers) {
      const bills = await db.db
        .selectFrom('fee_bills')
        .where('rid', '=', 1)
        .where('batch_id', '=', x.data.batch_id)
        .select([sql<number>`count(*)::int`.as('n'), sql<number>`count(DISTINCT hid)::int`.as('rooms')])
        .executeTakeFirstOrThrow();
      expect(bills).toEqual({ n: x.data.count, rooms: x.data.count });
    }
  }, 240_000);

  it('the daily job is queued once, whichever process sees the day first', async () => {
    const daily = await waitFor(
      'the daily job to end',
      async () => {
        const rows = await db.db.selectFrom('jobs').select(['status']).where('kind', '=', 'bill_overdue').execute();
        return rows.every((r) => r.status === 'done') ? rows : undefined;
      },
      60_000,
      100,
    );
    expect(daily).toEqual([{ status: 'done' }]);
  });
});
