import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { enqueueJob, registerDailyJob, registerJobKind, registerPeriodicJob } from './queue.js';
import { JobRunner } from './runner.js';

let s: TestServer;
const seen: number[] = [];
registerJobKind('test_count', async (ctx) => {
  const n = Number(ctx.payload.n);
  for (let i = 1; i <= n; i++) await ctx.progress(i, n);
  seen.push(ctx.job.id);
  return { counted: n };
});
let dailyRuns = 0;
registerJobKind('test_daily', async () => {
  dailyRuns++;
});
registerDailyJob('test_daily');
let periodicRuns = 0;
registerJobKind('test_periodic', async () => {
  periodicRuns++;
});
registerPeriodicJob('test_periodic', 5);
registerJobKind('test_fail', async () => {
  throw new Error('坏数据');
});

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('job runner', () => {
  it('runs a queued job once with progress and result, visible through jobinfo', async () => {
    const id = await enqueueJob(s.database.db, { rid: 1, kind: 'test_count', payload: { n: 3 }, createdBy: null });
    const admin = await s.login('admin');
    expect((await s.call('jobinfo', { id }, admin)).data.status).toBe('queued');
    const runners = [s.app.jobs, new JobRunner(s.database.db, s.app.fastify.log)];
    await Promise.all(runners.map((r) => r.drain()));
    expect(seen.filter((x) => x === id)).toHaveLength(1);
    const info = (await s.call('jobinfo', { id }, admin)).data;
    expect(info).toMatchObject({ status: 'done', progress: 3, total: 3, percent: 100, result: { counted: 3 } });
    const admin2 = await s.login('admin2');
    expect((await s.call('jobinfo', { id }, admin2)).return_msg).toBe('任务不存在');
  });

  it('queues a daily job once a day however many runners drain', async () => {
    await Promise.all([s.runJobs(), new JobRunner(s.database.db, s.app.fastify.log).drain(), s.runJobs()]);
    expect(dailyRuns).toBe(1);
    const rows = await s.database.db.selectFrom('jobs').select('status').where('kind', '=', 'test_daily').execute();
    expect(rows).toEqual([{ status: 'done' }]);
  });

  it('queues a periodic job once per interval however many runners drain; forced, once more', async () => {
    const before = periodicRuns;
    const runners = [s.app.jobs, new JobRunner(s.database.db, s.app.fastify.log), new JobRunner(s.database.db, s.app.fastify.log)];
    await Promise.all(runners.map((r) => r.queuePeriodicJobs(true).then(() => r.drain())));
    // forced by each runner, but one run is waiting or running at a time, and each drain runs what waits
    expect(periodicRuns - before).toBeGreaterThanOrEqual(1);
    const afterForced = periodicRuns;
    // within its five minutes a plain check queues nothing
    await new JobRunner(s.database.db, s.app.fastify.log).drain();
    expect(periodicRuns).toBe(afterForced);
    // a run older than the interval: the next check queues it again, and the old finished rows are cleared after a day
    await s.database.db
      .updateTable('jobs')
      .set({ created_at: sql<Date>`now() - interval '2 days'` })
      .where('kind', '=', 'test_periodic')
      .execute();
    await new JobRunner(s.database.db, s.app.fastify.log).drain();
    expect(periodicRuns).toBe(afterForced + 1);
    const rows = await s.database.db.selectFrom('jobs').select('status').where('kind', '=', 'test_periodic').execute();
    expect(rows).toEqual([{ status: 'done' }]);
  });

  it('fails a job with its message', async () => {
    const id = await enqueueJob(s.database.db, { rid: 1, kind: 'test_fail', payload: {}, createdBy: null });
    await s.runJobs();
    const row = await s.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', error: '坏数据' });
  });

  it('queues again a job whose worker died, and lists jobs', async () => {
    const id = await enqueueJob(s.database.db, { rid: 1, kind: 'test_count', payload: { n: 1 }, createdBy: null });
    await s.database.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead-worker', heartbeat_at: sql`now() - interval '5 minutes'`, attempts: 1 })
      .where('id', '=', id)
      .execute();
    await s.runJobs();
    const row = await s.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('done');
    const admin = await s.login('admin');
    const list = await s.call('joblist', { kind: 'test_count' }, admin);
    expect(list.data.total).toBe(2);
  });

  it('a solo server (the embedded database) queues again, at its start, the jobs it left running when its process died', async () => {
    const id = await enqueueJob(s.database.db, { rid: 1, kind: 'test_count', payload: { n: 1 }, createdBy: null });
    // cut off a moment ago: the heartbeat is fresh, so a shared database would wait a minute for it
    await s.database.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'the-process-that-died', heartbeat_at: sql`now()`, attempts: 1 })
      .where('id', '=', id)
      .execute();
    const status = async () =>
      (await s.database.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    await new JobRunner(s.database.db, s.app.fastify.log).drain();
    expect(await status()).toBe('running');
    await new JobRunner(s.database.db, s.app.fastify.log, { solo: true }).drain();
    expect(await status()).toBe('done');
    // the test server's own runner is solo on the embedded database
    expect((s.app.jobs as unknown as { opts: { solo?: boolean } }).opts.solo).toBe(s.database.kind === 'pglite');
  });
});
