import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.js';
import type { JobsTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import type { RunBatch } from './batches.js';

export type JobRow = Selectable<JobsTable>;

export interface JobContext {
  /** the root database; a long handler writes through `batch`, a short one in a transaction of its own */
  db: Kysely<DB>;
  /** one batch of the job's write in its own short transaction, its inserts noted for an undo (jobs/batches.ts) */
  batch: RunBatch;
  job: JobRow;
  payload: Record<string, unknown>;
  log: FastifyBaseLogger;
  /** records progress for the page's progress bar (cheap; call every few hundred rows) */
  progress(done: number, total?: number): Promise<void>;
  /** true once someone cancelled the job; a handler checks it between steps */
  cancelled(): Promise<boolean>;
  /**
   * Progress after each of the handler's steps, inside a transaction or between batches: queued in
   * order and not waited for there (on PGlite the connection is free only once a transaction
   * ends), written before the job's end; a failed report is logged. With JOB_STEP_DELAY_MS set it
   * also pauses there (the crash tests' fault injection: a kill then lands mid-job however fast
   * the machine).
   */
  step(done: number, total?: number): Promise<void>;
}

/** Answers the job's result (stored as JSON); throwing fails the job with the error's message. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>;

/**
 * Runs in the runner's transaction when it gives up on a job whose workers kept dying (the
 * handler never got to its own failure path), so the kind can mark its own records failed.
 */
export type JobAbandoned = (db: Kysely<DB>, job: JobRow) => Promise<void>;

/**
 * Who sees a kind's jobs (jobinfo, joblist) besides the account that started one: 'any' every
 * account of the community, a list those roles (and admin), 'creator' nobody else (exports: they
 * hold owners' data). Unsaid: admin only.
 */
export type JobViewers = readonly string[] | 'any' | 'creator';

const handlers = new Map<string, JobHandler>();
const abandonHooks = new Map<string, JobAbandoned>();
const viewers = new Map<string, JobViewers>();

/** Called once per kind at module load (modules/<area>/jobs.ts). */
export function registerJobKind(kind: string, handler: JobHandler, opts: { abandoned?: JobAbandoned; viewers?: JobViewers } = {}): void {
  if (handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
  handlers.set(kind, handler);
  if (opts.abandoned) abandonHooks.set(kind, opts.abandoned);
  viewers.set(kind, opts.viewers ?? []);
}

/** The kinds whose jobs an account of these roles sees, whoever started them. */
export function kindsSeenBy(roles: readonly string[]): string[] {
  const admin = roles.includes('admin');
  return [...viewers]
    .filter(([, v]) => v !== 'creator' && (v === 'any' || admin || v.some((r) => roles.includes(r))))
    .map(([kind]) => kind);
}

export const jobHandler = (kind: string): JobHandler | undefined => handlers.get(kind);
export const jobAbandoned = (kind: string): JobAbandoned | undefined => abandonHooks.get(kind);

/** Queues a job (inside the caller's transaction, so it exists only if the call commits). */
export async function enqueueJob(
  db: Kysely<DB>,
  job: {
    rid: number | null;
    kind: string;
    payload: Record<string, unknown>;
    createdBy: number | null;
    total?: number;
    /** the job waits in the queue until then (an SMS job at its time, after quiet hours) */
    runAfter?: Date | null;
  },
): Promise<number> {
  if (!handlers.has(job.kind)) throw new Error(`unknown job kind ${job.kind}`);
  const row = await db
    .insertInto('jobs')
    .values({
      rid: job.rid,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      created_by: job.createdBy,
      total: job.total ?? 0,
      run_after: job.runAfter ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const daily = new Map<string, Record<string, unknown>>();

/** A job kind the runner queues once a day (e.g. marking overdue bills), whichever process sees the day first. */
export function registerDailyJob(kind: string, payload: Record<string, unknown> = {}): void {
  daily.set(kind, payload);
}

export const dailyJobs = (): ReadonlyMap<string, Record<string, unknown>> => daily;

export interface PeriodicJob {
  everyMinutes: number;
  payload: Record<string, unknown>;
}
const periodic = new Map<string, PeriodicJob>();

/**
 * A job kind the runner queues every `everyMinutes` (deadline checks, scheduled publishing,
 * recurring orders): one at a time across processes, whichever sees the time first. Its handler
 * finds what is due by the clock, so a run missed while no process ran is made up by the next.
 */
export function registerPeriodicJob(kind: string, everyMinutes: number, payload: Record<string, unknown> = {}): void {
  if (!(everyMinutes >= 1)) throw new Error(`periodic job ${kind}: everyMinutes must be at least 1`);
  periodic.set(kind, { everyMinutes, payload });
}

export const periodicJobs = (): ReadonlyMap<string, PeriodicJob> => periodic;
