import { sql } from 'kysely';
import pg from 'pg';

/** Prepared statements kept per connection; the least recently used one is let go beyond it. */
export const PREPARED_PER_CONNECTION = 100;

/**
 * The tag that asks for a statement to be prepared (`prepared` below puts it in). Only statements
 * whose plan does not depend on their values carry it: key lookups, a room's lists, first pages
 * filtered by equality. A report's date or period range does depend on them: its generic plan,
 * costed for a narrow range, ran a year's `fees_count` and `paymentstatis` at 1.5 to 2 times
 * their re-planned time (docs/adr/0001-prepared-statements.md).
 */
export const PREPARE_TAG = '/* prepare */';

/** Marks a statement to be prepared: `sql` templates start with it, query builders get it by modifyFront. */
export const prepared = sql.raw(`${PREPARE_TAG} `);

/**
 * The tag of a prepared statement that costs the database little whatever its values: a key
 * look-up, a room's list, a first page read along an index. On a PostgreSQL server such
 * statements travel on the pipelined connections (db/pipeline.ts). The owner search, at about a
 * millisecond of the database's time, is left to the pool: pipelined, 50 searches in flight queued
 * on two connections and its p95 at scale went from 40-52 ms to 57-104 ms (docs/adr/0003-pipelining.md).
 */
export const LIGHT_TAG = '/* light */';

/** Marks a statement to be prepared and, as a light one, pipelined. */
export const preparedLight = sql.raw(`${PREPARE_TAG} ${LIGHT_TAG} `);

// PostgreSQL's answer when a table a prepared statement reads changed its columns (a migration
// run by another process): the statement is let go and prepared anew on its next call
const STALE_PLAN = '0A000';

interface ConnectionInternals {
  parsedStatements: Record<string, string>;
}

/**
 * A pg client that prepares each tagged statement (PREPARE_TAG) on its connection the first
 * time it runs and reuses it afterwards. PostgreSQL then skips parsing the statement on every
 * call, and planning it once its plan cache has settled on a generic plan (after five runs, and
 * only where the generic plan is estimated no dearer than the custom ones). At 100,000 rooms
 * this halved the database's CPU per owner search and per drawer call (docs/adr/0001-prepared-statements.md).
 * Untagged statements run as before, planned for their values on every call.
 *
 * A generic plan cannot bound an index scan by a LIKE parameter's prefix, so prefix searches
 * are written as ranges (`mobileStartsWith`, modules/owners/search.ts). `npm run bench:plans`
 * compares every tagged statement of the hot methods with its re-planned self at scale.
 * PG_PREPARE=0 turns preparing off (config.ts).
 */
export class PreparingClient extends pg.Client {
  // private fields (#): pg-pool sets properties of its own on a client, e.g. release
  /** statement text -> its name on this connection, least recently used first */
  readonly #names = new Map<string, string>();
  #counter = 0;

  // pg.Client#query has a dozen overloads; the call is handed on unchanged but for the name
  // (pg.Pool#query calls it with a callback, Kysely without)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [text, values, callback] = args as [unknown, unknown, unknown];
    if (typeof text !== 'string' || !Array.isArray(values) || !text.includes(PREPARE_TAG)) {
      return super.query(...(args as Parameters<pg.Client['query']>));
    }
    const config = { name: this.#nameFor(text), text, values };
    if (typeof callback === 'function') {
      return super.query(config, (err: Error, result: pg.QueryResult) => {
        this.#onError(err, text);
        (callback as (e: Error, r: pg.QueryResult) => void)(err, result);
      });
    }
    return super.query(config).catch((err: Error) => {
      this.#onError(err, text);
      throw err;
    });
  }

  #onError(err: Error | null | undefined, text: string) {
    if ((err as { code?: string } | null | undefined)?.code === STALE_PLAN) this.#deallocate(text);
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
    super
      .query(`DEALLOCATE ${name}`)
      .then(() => {
        delete parsed[name];
      })
      .catch(() => undefined);
  }

  /** How many statements this connection holds prepared (tests). */
  get preparedCount(): number {
    return this.#names.size;
  }
}
