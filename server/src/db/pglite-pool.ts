import type { PGlite } from '@electric-sql/pglite';

/**
 * A `pg.Pool` look-alike over one PGlite instance, so Kysely's PostgresDialect and our
 * raw-SQL helpers run unchanged on both databases. PGlite is a single connection, so a
 * client is lent to one caller at a time (a transaction keeps it until release).
 */
export class PGlitePool {
  private queue: Array<() => void> = [];
  private busy = false;

  constructor(readonly pglite: PGlite) {}

  async connect(): Promise<PGliteClient> {
    if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve));
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
    if (next) next();
    else this.busy = false;
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
