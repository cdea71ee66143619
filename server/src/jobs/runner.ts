import os from 'node:os';
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.js';
import { batchesOf, undoJobWrites } from './batches.js';
import { dailyJobs, jobAbandoned, jobHandler, periodicJobs, type JobRow } from './queue.js';
import { today } from '../lib/wire.js';
import { patiently } from '../db/pglite-pool.js';

// fault injection for the crash tests (server/src/safety/crash.test.ts): a pause at each step of a
// job's transaction keeps it mid-flight long enough to be killed there, however fast the machine
const STEP_DELAY_MS = Number(process.env.JOB_STEP_DELAY_MS ?? 0);

const STALE_SECONDS = 60;
/** How often a process looks whether a periodic kind is due (it queues it at most every everyMinutes). */
const PERIODIC_CHECK_MS = 20_000;
const MAX_ATTEMPTS = 3;

/**
 * Claims queued jobs with FOR UPDATE SKIP LOCKED, so any number of server processes can share
 * one database and each job runs once. A job whose worker died (no heartbeat for a minute) is
 * queued again, up to three attempts. A handler writing in batches (jobs/batches.ts) finds what its
 * earlier attempt wrote and carries on or undoes it; a job given up on has its batches undone.
 */
export class JobRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    /**
     * afterJob: called once a job has finished either way, e.g. to forget totals its writes changed;
     * daily: false leaves the daily and periodic jobs to other processes (a benchmark's worker on shared data);
     * solo: no other process uses this database (the embedded one), so a job left running when it
     * starts was this server's own, cut off when its process died: queued again at once rather
     * than after STALE_SECONDS without a heartbeat
     */
    private readonly opts: { pollMs?: number; afterJob?: () => void; daily?: boolean; solo?: boolean } = {},
  ) {}

  private recovered = false;

  start(): void {
    this.stopped = false;
    const tick = async () => {
      if (this.stopped) return;
      this.running = this.drain().catch((err: unknown) => this.log.error({ err }, 'job runner failed'));
      await this.running;
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.opts.pollMs ?? 500);
    };
    void tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Runs queued jobs until none is left; answers how many ran. Jobs wait for the embedded database's connection however busy it is. */
  drain(): Promise<number> {
    return patiently(() => this.drainNow());
  }

  private async drainNow(): Promise<number> {
    if (this.opts.daily !== false) {
      await this.queueDailyJobs();
      await this.queuePeriodicJobs();
    }
    if (this.opts.solo && !this.recovered) {
      await this.requeueStale(true);
      this.recovered = true;
    }
    await this.requeueStale();
    let ran = 0;
    for (;;) {
      const job = await this.claim();
      if (!job) return ran;
      try {
        await this.execute(job);
      } finally {
        this.opts.afterJob?.();
      }
      ran++;
    }
  }

  private dailyCheckedOn = '';

  /** Queues each daily kind once per business day; an advisory lock keeps two processes from both doing it. */
  private async queueDailyJobs(): Promise<void> {
    const day = today();
    if (this.dailyCheckedOn === day) return;
    for (const [kind, payload] of dailyJobs()) {
      await this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${'daily:' + kind}))`.execute(trx);
        const exists = await trx
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('created_at', '>=', sql<Date>`${day}::date::timestamp at time zone current_setting('TimeZone')`)
          .executeTakeFirst();
        if (!exists)
          await trx
            .insertInto('jobs')
            .values({ rid: null, kind, payload: JSON.stringify(payload) })
            .execute();
      });
    }
    this.dailyCheckedOn = day;
  }

  private periodicCheckedAt = 0;

  /**
   * Queues each periodic kind when none is waiting or running and the last was queued at least
   * its interval ago; the kind's finished runs older than a day go then, so they do not pile up.
   */
  async queuePeriodicJobs(force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - this.periodicCheckedAt < PERIODIC_CHECK_MS) return;
    this.periodicCheckedAt = now;
    for (const [kind, { everyMinutes, payload }] of periodicJobs()) {
      await this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${'periodic:' + kind}))`.execute(trx);
        const waiting = await trx
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('status', 'in', ['queued', 'running'])
          .executeTakeFirst();
        if (waiting) return;
        if (!force) {
          const recent = await trx
            .selectFrom('jobs')
            .select('id')
            .where('kind', '=', kind)
            .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${everyMinutes})`)
            .executeTakeFirst();
          if (recent) return;
        }
        await trx
          .deleteFrom('jobs')
          .where('kind', '=', kind)
          .where('status', 'in', ['done', 'failed'])
          .where('created_at', '<', sql<Date>`now() - interval '1 day'`)
          .execute();
        await trx
          .insertInto('jobs')
          .values({ rid: null, kind, payload: JSON.stringify(payload) })
          .execute();
      });
    }
  }

  /** Queues again the running jobs whose worker died (all of them: at a solo server's start). */
  private async requeueStale(all = false): Promise<void> {
    const stale = all ? sql<boolean>`true` : sql<boolean>`heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS})`;
    // given up on: failed together with the kind's own records (e.g. a bill batch), in one transaction
    const abandoned = await this.db.transaction().execute(async (trx) => {
      const given = await trx
        .updateTable('jobs')
        .set({ status: 'failed', error: '任务中断次数过多，已停止，可重新发起', finished_at: sql`now()` })
        .where('status', '=', 'running')
        .where(stale)
        .where('attempts', '>=', MAX_ATTEMPTS)
        .returningAll()
        .execute();
      for (const job of given) await jobAbandoned(job.kind)?.(trx, job);
      return given;
    });
    // what their batches wrote goes too (jobs/batches.ts), each batch in its own transaction
    for (const job of abandoned)
      await undoJobWrites(this.db, job.id).catch((err: unknown) => this.log.error({ err, job: job.id }, 'undo of an abandoned job failed'));
    await this.db.updateTable('jobs').set({ status: 'queued', locked_by: null }).where('status', '=', 'running').where(stale).execute();
  }

  private async claim(): Promise<JobRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const next = await trx
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'queued')
        .where((eb) => eb.or([eb('run_after', 'is', null), eb('run_after', '<=', sql<Date>`now()`)]))
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!next) return undefined;
      return trx
        .updateTable('jobs')
        .set({
          status: 'running',
          locked_by: this.workerId,
          heartbeat_at: sql`now()`,
          started_at: sql`coalesce(started_at, now())`,
          attempts: sql`attempts + 1`,
        })
        .where('id', '=', next.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = jobHandler(job.kind);
    // a finished job's notes of what its batches wrote are dropped with its end (jobs/batches.ts)
    const finish = (values: { status: 'done' | 'failed'; result?: string | null; error?: string }) =>
      this.db.transaction().execute(async (trx) => {
        const ended = await trx
          .updateTable('jobs')
          .set({ ...values, finished_at: sql`now()`, heartbeat_at: sql`now()` })
          .where('id', '=', job.id)
          .where('locked_by', '=', this.workerId)
          .where('status', '=', 'running')
          .executeTakeFirst();
        if (values.status === 'done' && ended.numUpdatedRows > 0n)
          await trx.deleteFrom('job_writes').where('job_id', '=', job.id).execute();
      });
    if (!handler) {
      await finish({ status: 'failed', error: `未知的任务类型 ${job.kind}` });
      return;
    }
    const progress = async (done: number, total?: number) => {
      await this.db
        .updateTable('jobs')
        .set({ progress: done, ...(total !== undefined ? { total } : {}), heartbeat_at: sql`now()` })
        .where('id', '=', job.id)
        .execute();
    };
    // what step() queued: in order, and all written before the job's end is
    let reports: Promise<void> = Promise.resolve();
    try {
      const result = await handler({
        db: this.db,
        batch: batchesOf(this.db, job.rid ?? 0, job.id),
        job,
        payload: (job.payload ?? {}) as Record<string, unknown>,
        log: this.log,
        progress,
        cancelled: async () => {
          const row = await this.db.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirst();
          return row?.status === 'cancelled';
        },
        step: (done, total) => {
          reports = reports
            .then(() => progress(done, total))
            .catch((err: unknown) => this.log.warn({ err, job: job.id }, 'progress failed'));
          return STEP_DELAY_MS > 0 ? new Promise((r) => setTimeout(r, STEP_DELAY_MS)) : Promise.resolve();
        },
      }).finally(() => reports);
      await finish({ status: 'done', result: JSON.stringify(result ?? null) });
    } catch (err) {
      this.log.warn({ err, job: job.id, kind: job.kind }, 'job failed');
      await finish({ status: 'failed', error: (err as Error).message.slice(0, 1000) });
    }
  }
}
