import pg from 'pg';

/** Prepared statements kept per connection; the least recently used one is let go beyond it. */
export const PREPARED_PER_CONNECTION = 100;

// statements PostgreSQL can prepare (utility statements such as BEGIN or SET cannot be)
const PREPARABLE = /^\s*(select|insert|update|delete|with|values)\b/i;

// PostgreSQL's answer when a table a prepared statement reads changed its columns (a migration
// run by another process): the statement is let go and prepared anew on its next call
const STALE_PLAN = '0A000';

interface ConnectionInternals {
  parsedStatements: Record<string, string>;
}

/**
 * A pg client that prepares each parameterized statement on its connection the first time it
 * runs and reuses it afterwards, as pgJDBC, Prisma and pgx do by default. PostgreSQL then skips
 * parsing the statement on every call, and planning it once its plan cache has settled on a
 * generic plan (after five runs, and only where the generic plan is estimated no dearer than
 * the custom ones). At 100,000 rooms this halved the database's CPU per owner search and per
 * drawer call (bench/README.md). Text with no parameters (transactions, DDL, migrations) runs
 * as before.
 *
 * A generic plan cannot bound an index scan by a LIKE parameter's prefix, so prefix searches
 * are written as ranges (`mobileStartsWith`, modules/owners/search.ts). PG_PREPARE=0 turns this
 * off (config.ts).
 */
export class PreparingClient extends pg.Client {
  // private fields (#): pg-pool sets properties of its own on a client, e.g. release
  /** statement text -> its name on this connection, least recently used first */
  readonly #names = new Map<string, string>();
  #counter = 0;

  // pg.Client#query has a dozen overloads; the call is handed on unchanged but for the name
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [text, values, callback] = args as [unknown, unknown, unknown];
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || typeof callback === 'function' || !PREPARABLE.test(text)) {
      return super.query(...(args as Parameters<pg.Client['query']>));
    }
    const name = this.#nameFor(text);
    return super.query({ name, text, values }).catch((err: { code?: string }) => {
      if (err?.code === STALE_PLAN) this.#deallocate(text);
      throw err;
    });
  }

  #nameFor(text: string): string {
    let name = this.#names.get(text);
    if (name !== undefined) {
      // most recently used: to the end of the map's order
      this.#names.delete(text);
      this.#names.set(text, name);
      return name;
    }
    name = `wy${this.#counter++}`;
    this.#names.set(text, name);
    if (this.#names.size > PREPARED_PER_CONNECTION) this.#deallocate(this.#names.keys().next().value!);
    return name;
  }

  /**
   * Lets a statement go on the server. Only a statement the server has prepared is deallocated,
   * so the DEALLOCATE cannot fail and break a transaction it lands in. Names are never reused, so
   * nothing queued can meet the old name again; pg's own record of it goes once the server has
   * let it go.
   */
  #deallocate(text: string) {
    const name = this.#names.get(text);
    if (name === undefined) return;
    this.#names.delete(text);
    const parsed = (this as unknown as { connection: ConnectionInternals }).connection.parsedStatements;
    if (parsed[name] === undefined) return;
    super.query(`DEALLOCATE ${name}`)
      .then(() => { delete parsed[name]; })
      .catch(() => undefined);
  }

  /** How many statements this connection holds prepared (tests). */
  get preparedCount(): number {
    return this.#names.size;
  }
}
