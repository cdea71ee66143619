import type { Paging } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { givenKey, givenOf, template, type Given, type Slots } from '../db/compiled.js';
import { prepared, preparedLight } from '../db/prepared.js';
import type { DB } from '../db/schema.js';

/**
 * One page of a filtered query plus the filtered total, ordered by `orderColumn` in the
 * asked direction (docs/product.md#paging: pages of 10, sort by id asc or desc). `countFrom` counts the same
 * rows more cheaply when the caller has such a query (e.g. without joins the filters don't need),
 * or answers the total itself (e.g. remembered, lib/countCache.ts). The count runs only when the
 * page cannot tell the total (see `lastPageTotal`).
 */
export async function listPage<DB, TB extends keyof DB, O, CDB = DB, CTB extends keyof CDB = never>(
  qb: SelectQueryBuilder<DB, TB, O>,
  paging: Paging,
  orderColumn: string,
  countFrom?: SelectQueryBuilder<CDB, CTB, unknown> | (() => Promise<number>),
): Promise<{ items: O[]; total: number }> {
  const items = qb
    .orderBy(sql.ref(orderColumn), paging.sort)
    .limit(sql.lit(paging.limit))
    .offset(sql.lit(offsetOf(paging)))
    .execute();
  const total = typeof countFrom === 'function' ? countFrom : countFrom ? () => countRows(countFrom) : () => countRows(qb);
  return pageWithTotal(items, paging, total);
}

const offsetOf = (paging: Paging) => (paging.page - 1) * paging.limit;

/**
 * LIMIT and OFFSET of a page as literals (listPage does the same), so a prepared statement's page
 * keeps one plan per connection; a generic plan would take a LIMIT parameter for a tenth of the
 * rows (docs/adr/0001-prepared-statements.md). Both are validated integers (contract `paging`).
 */
export const pageClause = (paging: Paging) => sql`LIMIT ${sql.lit(paging.limit)} OFFSET ${sql.lit(offsetOf(paging))}`;

/**
 * One part of what a keyword matches, as a condition on a list's row: a room it names, a title,
 * a name...
 * - `fenced`: looked up whole before its rows are ordered (OFFSET 0), for a condition costly to
 *   test row by row (a key look-up), so PostgreSQL never tests it on every row in id order.
 * - `keyed`: its keys carry the community (as name keys do, 004_owners.sql), so it is not also
 *   given the community's condition, which made PostgreSQL intersect it with the community's half
 *   of the table (docs/perf/history.md#round-19).
 */
export interface KeywordPart {
  match: RawBuilder<SqlBool>;
  fenced?: boolean;
  keyed?: boolean;
}

/**
 * The rows a keyword searches: `table alias` of community `rid` (a value or a statement
 * template's slot) meeting the list's other `filters`.
 */
export interface KeywordRows {
  table: string;
  alias: string;
  rid: unknown;
  filters: Array<RawBuilder<SqlBool>>;
}

/** The rows of `rows` that meet `part`, as a FROM and WHERE. */
function rowsMeeting({ table, alias, rid, filters }: KeywordRows, { match, keyed }: KeywordPart) {
  const community = keyed ? [] : [sql<SqlBool>`${sql.ref(`${alias}.rid`)} = ${rid}`];
  return sql`${sql.table(table)} ${sql.raw(alias)} WHERE ${sql.join([...community, ...filters, match], sql` AND `)}`;
}

/**
 * "`alias`.id is on the page" of the rows meeting any of `parts`: each part picks its own first
 * rows in page order through its own index, and the page is taken from their union. As one OR the
 * planner read every match or walked the table in id order (docs/perf/history.md#round-18,
 * #round-19).
 */
export function keywordPage(rows: KeywordRows, parts: KeywordPart[], paging: Paging) {
  const dir = sql.raw(paging.sort === 'desc' ? 'DESC' : 'ASC');
  const upTo = sql.lit(paging.page * paging.limit);
  const id = sql.ref(`${rows.alias}.id`);
  const first = (part: KeywordPart) =>
    part.fenced
      ? sql`(SELECT f.id FROM (SELECT ${id} FROM ${rowsMeeting(rows, part)} OFFSET 0) f ORDER BY f.id ${dir} LIMIT ${upTo})`
      : sql`(SELECT ${id} FROM ${rowsMeeting(rows, part)} ORDER BY ${id} ${dir} LIMIT ${upTo})`;
  return sql<SqlBool>`${id} IN (SELECT m.id FROM (${sql.join(parts.map(first), sql` UNION `)}) m ORDER BY m.id ${dir} ${pageClause(paging)})`;
}

/**
 * The ids of the rows meeting any of `parts`: each part finds its rows by itself and the union
 * takes them together, so that no plan walks the table testing every row against all the parts.
 */
export function keywordMatches(rows: KeywordRows, parts: KeywordPart[]) {
  const id = sql.ref(`${rows.alias}.id`);
  return sql.join(
    parts.map((part) => sql`SELECT ${id} FROM ${rowsMeeting(rows, part)}`),
    sql` UNION `,
  );
}

/**
 * How many rows keywordPage pages through, counted from the union of the parts' own rows
 * (keywordMatches), a third of the cost of joining the union back to the table
 * (docs/perf/history.md#round-19).
 */
export async function keywordCount(db: Kysely<DB>, rows: KeywordRows, parts: KeywordPart[]) {
  const counted = await sql<{ total: number }>`SELECT count(*)::int AS total FROM (${keywordMatches(rows, parts)}) m`.execute(db);
  return totalOf(counted.rows[0]);
}

/** A page's part of a statement template's shape key (db/compiled.ts): its order, size and number. */
export const pageShapeKey = (paging: Paging) => `${paging.sort} ${paging.limit} ${paging.page}`;

/**
 * A page the caller has queried itself, with its total. Counting costs a statement (a round trip
 * to the database, the larger part of a small list's cost), so it is asked only when the page
 * does not tell the total itself.
 */
export async function pageWithTotal<O>(
  items: Promise<O[]>,
  paging: Paging,
  total: () => Promise<number>,
): Promise<{ items: O[]; total: number }> {
  const rows = await items;
  return { items: rows, total: lastPageTotal(rows.length, paging) ?? (await total()) };
}

/**
 * A page with fewer rows than asked for ends the list: the total is the rows before it plus its
 * own, read in the same statement as the rows, so it agrees with them. That holds for an empty
 * first page too (no rows at all), but not for a full page or an empty page further on, which
 * say nothing of the total (undefined).
 */
export function lastPageTotal(rows: number, paging: Paging): number | undefined {
  const before = offsetOf(paging);
  return rows < paging.limit && (rows > 0 || before === 0) ? before + rows : undefined;
}

/**
 * How many rows the query selects, counted up to `cap`: for a log that grows without end (door
 * passes), where an exact total reads the whole community's part of it on every page; `more` says
 * there are more (the pager shows 共 10000+ 条). `qb` must not be ordered or limited.
 */
export async function countUpTo(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- any community table
  qb: SelectQueryBuilder<any, any, unknown>, // eslint-disable-line @typescript-eslint/no-explicit-any
  cap: number,
): Promise<{ total: number; more: boolean }> {
  const capped = qb
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`1`.as('one'))
    .limit(sql.lit(cap + 1))
    .as('capped');
  const row = await db
    .selectFrom(capped)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  const n = Number((row as { n: number }).n);
  return { total: Math.min(n, cap), more: n > cap };
}

/**
 * A list's total for listPage counted up to `cap` (countUpTo), and whether there were more once it
 * was counted: `listPage(qb, paging, order, capped.total)`, then answer `more: capped.more()`.
 */
export function cappedTotal(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- any community table
  qb: SelectQueryBuilder<any, any, unknown>, // eslint-disable-line @typescript-eslint/no-explicit-any
  cap: number,
): { total: () => Promise<number>; more: () => boolean } {
  let more = false;
  return {
    total: async () => {
      const counted = await countUpTo(db, qb, cap);
      more = counted.more;
      return counted.total;
    },
    more: () => more,
  };
}

/** How many rows the query selects. */
export async function countRows<DB, TB extends keyof DB>(qb: SelectQueryBuilder<DB, TB, unknown>): Promise<number> {
  return totalOf(await countQuery(qb).executeTakeFirst());
}

/** The total a count query (countQuery) answered. */
const totalOf = (row: unknown) => Number((row as { total?: number } | undefined)?.total ?? 0);

/** The query counting what `qb` selects. */
function countQuery<DB, TB extends keyof DB>(qb: SelectQueryBuilder<DB, TB, unknown>) {
  return qb
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)::int`.as('total'));
}

/**
 * A list whose statements are built and compiled once per set of given values (db/compiled.ts),
 * for lists read on every click: `build` gives the filtered rows from the template's slots, adding
 * a value's condition where `given` says the call has it. Each call binds its values, orders by
 * `orderColumn` and pages as listPage does, counting the same rows only when the page cannot tell
 * the total. `prepare` tags both statements to be prepared, `'light'` also to be pipelined
 * (db/prepared.ts).
 */
export function listTemplate<P extends object, QDB, TB extends keyof QDB, O>(
  orderColumn: string,
  build: (db: Kysely<DB>, p: Slots<P>, given: Given<P>) => SelectQueryBuilder<QDB, TB, O>,
  o: { prepare?: true | 'light' } = {},
) {
  const tag = o.prepare === 'light' ? preparedLight : prepared;
  const tagged = <Q extends { modifyFront(m: typeof prepared): Q }>(q: Q) => (o.prepare ? q.modifyFront(tag) : q);
  // a shape is the values given and the page; what is given is worked out only to build one
  const page = template(
    (db, p: Slots<P>, shape: { values: P; paging: Paging }) =>
      tagged(build(db, p, givenOf(shape.values)))
        .orderBy(sql.ref(orderColumn), shape.paging.sort)
        .limit(sql.lit(shape.paging.limit))
        .offset(sql.lit(offsetOf(shape.paging))),
    ({ values, paging }) => `${givenKey(values)}${pageShapeKey(paging)}`,
  );
  const count = template((db, p: Slots<P>, values: P) => countQuery(tagged(build(db, p, givenOf(values)))), givenKey);
  return async (db: Kysely<DB>, values: P, paging: Paging): Promise<{ items: O[]; total: number }> => {
    const items = page.rows(db, { values, paging }, values);
    return pageWithTotal(items as Promise<O[]>, paging, async () => totalOf((await count.rows(db, values, values))[0]));
  };
}
