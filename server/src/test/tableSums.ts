/**
 * "This call changed nothing there": a count and hash of each table's rows, and the names of the
 * tables a statement has touched since the last look. A walk over every method sums every table
 * once, then after each write only the touched ones; summing every table after every write was
 * most of the safety walks' time.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';

/** Tables changed by design on every call (sessions touched, audit rows, sign-in counters): never summed. */
export const VOLATILE_TABLES: ReadonlySet<string> = new Set([
  'sessions',
  'audit_log',
  'login_throttle',
  'login_codes',
  'schema_migrations',
]);

/** The table the triggers of `trackTouchedTables` note changed tables in (named in its function too). */
const TOUCHED = 'test_touched_tables';

/** Puts a statement trigger on every table: a statement that changes a table notes its name. */
export async function trackTouchedTables(db: Kysely<DB>): Promise<void> {
  await sql`CREATE UNLOGGED TABLE IF NOT EXISTS ${sql.table(TOUCHED)} (t text PRIMARY KEY)`.execute(db);
  // the name is noted in the writer's transaction: a write rolled back leaves no note
  await sql`CREATE OR REPLACE FUNCTION test_note_touched() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO test_touched_tables (t) VALUES (TG_TABLE_NAME) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`.execute(db);
  for (const table of (await columnsOfTables(db)).keys()) {
    if (table === TOUCHED) continue;
    await sql`DROP TRIGGER IF EXISTS test_touched ON ${sql.table(table)}`.execute(db);
    await sql`CREATE TRIGGER test_touched AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION test_note_touched()`.execute(db);
  }
}

/** The tables changed since the last call (which it forgets). */
export async function touchedTables(db: Kysely<DB>): Promise<Set<string>> {
  const res = await sql<{ t: string }>`DELETE FROM ${sql.table(TOUCHED)} RETURNING t`.execute(db);
  return new Set(res.rows.map((r) => r.t));
}

/**
 * `count:hash` of the rows of each table (of `tables` when given) that `rows` selects: its WHERE
 * for a table, or null to leave the table out. The volatile tables and those in `skip` are left out.
 */
export async function tableSums(
  db: Kysely<DB>,
  options: {
    skip?: ReadonlySet<string>;
    rows?: (table: string, columns: Set<string>) => RawBuilder<unknown> | null;
    tables?: ReadonlySet<string>;
  } = {},
): Promise<Map<string, string>> {
  if (options.tables?.size === 0) return new Map();
  const columnsOf = await columnsOfTables(db);
  const parts = [...columnsOf.keys()]
    .sort()
    .filter((t) => !VOLATILE_TABLES.has(t) && !options.skip?.has(t) && t !== TOUCHED && (!options.tables || options.tables.has(t)))
    .flatMap((table) => {
      const where = options.rows ? options.rows(table, columnsOf.get(table)!) : sql`true`;
      return where
        ? [
            sql`SELECT ${table}::text AS t, count(*)::text || ':' || coalesce(sum(hashtext(x::text)::bigint), 0)::text AS c
      FROM ${sql.table(table)} x WHERE ${where}`,
          ]
        : [];
    });
  if (parts.length === 0) return new Map();
  const res = await sql<{ t: string; c: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  return new Map(res.rows.map((r) => [r.t, r.c]));
}

/** The tables of `after` whose sums differ from `before`'s. */
export function changedTables(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  return [...after].filter(([t, c]) => before.get(t) !== c).map(([t]) => t);
}

/** Each table's columns, read once a database (information_schema is slow to ask each time). */
const columnsRead = new WeakMap<Kysely<DB>, Promise<Map<string, Set<string>>>>();
function columnsOfTables(db: Kysely<DB>): Promise<Map<string, Set<string>>> {
  let read = columnsRead.get(db);
  if (!read) {
    read = sql<{ table_name: string; column_name: string }>`
      SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema()`
      .execute(db)
      .then((res) => {
        const columnsOf = new Map<string, Set<string>>();
        for (const c of res.rows) columnsOf.set(c.table_name, (columnsOf.get(c.table_name) ?? new Set()).add(c.column_name));
        return columnsOf;
      });
    columnsRead.set(db, read);
  }
  return read;
}
