import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { BizError, MESSAGES } from '../http/errors.js';

/**
 * Callers that wait for the connection however long it takes: background jobs (jobs/runner.ts),
 * whose work must not be dropped half-way. Requests are not patient: see PGlitePool.
 */
const patience = new AsyncLocalStorage<boolean>();
export const patiently = <T>(work: () => Promise<T>): Promise<T> => patience.run(true, work);

/** The embedded database is saturated: the call is refused before it did anything (issue 33, item 10). */
export class BusyError extends BizError {
  constructor() {
    super(MESSAGES.internal);
  }
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
}

/**
 * A `pg.Pool` look-alike over one PGlite instance, so Kysely's PostgresDialect and our
 * raw-SQL helpers run unchanged on both databases. PGlite is a single connection, so a
 * client is lent to one caller at a time (a transaction keeps it until release).
 *
 * Backpressure: at most `queueMax` calls wait for it, each at most `waitMs`; past either a call is
 * refused with 系统繁忙，请稍后再试 (BusyError) rather than left waiting behind a long job for 20 s,
 * and the office can try again. Jobs wait patiently.
 */
export class PGlitePool {
  private queue: Waiter[] = [];
  private busy = false;

  constructor(
    readonly pglite: PGlite,
    private readonly limits: { queueMax: number; waitMs: number } = { queueMax: Infinity, waitMs: Infinity },
  ) {}

  /** Calls waiting for the connection now. */
  get waiting(): number {
    return this.queue.length;
  }

  async connect(): Promise<PGliteClient> {
    if (this.busy) {
      const patient = patience.getStore() === true;
      if (!patient && this.queue.length >= this.limits.queueMax) throw new BusyError();
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject };
        if (!patient && Number.isFinite(this.limits.waitMs)) {
          waiter.timer = setTimeout(() => {
            this.queue.splice(this.queue.indexOf(waiter), 1);
            reject(new BusyError());
          }, this.limits.waitMs);
        }
        this.queue.push(waiter);
      });
    }
    this.busy = true;
    return new PGliteClient(this.pglite, () => this.release());
  }

  /** One statement outside any transaction, as pg.Pool#query. */
  async query(sql: string, params: unknown[] = []) {
    const client = await this.connect();
    try {
      return await client.query(sql, params);
    } finally {
      client.release();
    }
  }

  private release() {
    const next = this.queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    } else this.busy = false;
  }

  async end(): Promise<void> {
    await this.pglite.close();
  }
}

export class PGliteClient {
  private released = false;
  constructor(
    private readonly pglite: PGlite,
    private readonly onRelease: () => void,
  ) {}

  async query(sql: string, params: readonly unknown[] = []) {
    const res = await this.pglite.query<Record<string, unknown>>(sql, params as unknown[], { rowMode: 'object' });
    const command = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
    return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length, command };
  }

  /** Several statements in one go (migrations). */
  async exec(sql: string) {
    await this.pglite.exec(sql);
  }

  release() {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }
}
