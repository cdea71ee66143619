import type { BindScopeName, ThingKind } from '@wuye/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Which bindings (fee_bindings, alias `fb`) bill which things: the one rule of bill generation
 * (generate.ts) and of the 收费对象 list (things.ts). For each kind of thing, its alias in the
 * statements and the scopes that bind it, with the thing's column a binding's ref_id names:
 * - `column: null`: every thing of the community (全小区);
 * - `zeroIsAll`: ref_id 0 names every thing too (全部车辆), another ref_id the one thing.
 * The scopes are listed from the widest to the narrowest.
 */
interface ScopeKey {
  scope: BindScopeName;
  column: string | null;
  zeroIsAll?: boolean;
}
export const THING_BINDINGS: Record<ThingKind, { alias: string; scopes: readonly ScopeKey[] }> = {
  room: {
    alias: 'r',
    scopes: [
      { scope: 'region', column: null },
      { scope: 'building', column: 'bid' },
      { scope: 'unit', column: 'tid' },
      { scope: 'category', column: 'category_id' },
      { scope: 'room', column: 'id' },
    ],
  },
  space: {
    alias: 'ps',
    scopes: [
      { scope: 'lot', column: 'lot_id' },
      { scope: 'space', column: 'id' },
    ],
  },
  car: { alias: 'c', scopes: [{ scope: 'car', column: 'id', zeroIsAll: true }] },
};

const thingColumn = (kind: ThingKind, column: string) => sql.ref(`${THING_BINDINGS[kind].alias}.${column}`);

/**
 * "Binding `fb` bills the thing" as a condition on one binding and one thing (`r`, `ps` or `c`):
 * what generation tests in its EXISTS per thing and item, and what joins a page of things to
 * their bindings.
 */
export function bindingMatches(kind: ThingKind): RawBuilder<SqlBool> {
  const arms = THING_BINDINGS[kind].scopes.map(({ scope, column, zeroIsAll }) => {
    const isScope = sql`fb.scope = ${sql.lit(scope)}`;
    if (column === null) return isScope;
    const ref = thingColumn(kind, column);
    return zeroIsAll ? sql`(${isScope} AND (fb.ref_id = 0 OR fb.ref_id = ${ref}))` : sql`(${isScope} AND fb.ref_id = ${ref})`;
  });
  return sql<SqlBool>`(${sql.join(arms, sql` OR `)})`;
}

/**
 * The same rule as pairs: each binding meeting `bindings` (a condition on `fb`) with each of
 * `things` it bills, as rows (thing_id, binding_id). `things` are given by their keys (the id and
 * the columns the scopes name), so the statement reads no table of things: one join on the key
 * per scope, and a page of 200 spaces meets the lot's and its own bindings by a hash, not by
 * testing each against the community's thousands of space bindings.
 */
export function bindingPairs(
  kind: ThingKind,
  things: ReadonlyArray<Record<string, number | string | null>>,
  bindings: RawBuilder<SqlBool>,
): RawBuilder<unknown> {
  const { alias, scopes } = THING_BINDINGS[kind];
  const columns = ['id', ...keyColumns(kind)];
  // the keys travel as one array a column (a page of 2,000 would be 8,000 parameters, planned again in every arm)
  const arrays = columns.map((c) => sql`${things.map((t) => (t[c] === null || t[c] === undefined ? null : String(t[c])))}::bigint[]`);
  const source = sql`${sql.raw(alias)}(${sql.join(columns.map((c) => sql.id(c)))}) AS (SELECT * FROM unnest(${sql.join(arrays)}))`;
  const arms = scopes.map(({ scope, column, zeroIsAll }) => {
    const key =
      column === null
        ? sql``
        : zeroIsAll
          ? sql`AND fb.ref_id IN (0, ${thingColumn(kind, column)})`
          : sql`AND fb.ref_id = ${thingColumn(kind, column)}`;
    return sql`SELECT ${thingColumn(kind, 'id')} AS thing_id, fb.id AS binding_id
      FROM ${sql.raw(alias)} JOIN fee_bindings fb ON ${bindings} AND fb.scope = ${sql.lit(scope)} ${key}`;
  });
  return sql`WITH ${source} ${sql.join(arms, sql` UNION ALL `)}`;
}

/** The columns of a kind of thing its bindings name besides its id (a room's building, unit and category; a space's lot). */
export const keyColumns = (kind: ThingKind): string[] => [
  ...new Set(THING_BINDINGS[kind].scopes.flatMap((s) => (s.column && s.column !== 'id' ? [s.column] : []))),
];

/**
 * "Some binding meeting `bindings` (a condition on `fb`) bills the thing", the same rule as
 * bindingMatches turned around for a list that filters every thing of the community: one look-up
 * of the bindings per scope (an InitPlan or a hashed set the planner builds once), instead of the
 * bindings searched again for each of 100,000 rooms.
 */
export function boundBy(kind: ThingKind, bindings: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  const of = (scope: BindScopeName, extra = sql``) => sql`FROM fee_bindings fb WHERE ${bindings} AND fb.scope = ${sql.lit(scope)} ${extra}`;
  const arms = THING_BINDINGS[kind].scopes.flatMap(({ scope, column, zeroIsAll }) => {
    if (column === null) return [sql`EXISTS (SELECT 1 ${of(scope)})`];
    // a thing without the key (a room of no category) is not bound by it: false, never NULL, so NOT stays true
    const key = thingColumn(kind, column);
    const keyed = sql`(${key} IS NOT NULL AND ${key} IN (SELECT fb.ref_id ${of(scope)}))`;
    return zeroIsAll ? [sql`EXISTS (SELECT 1 ${of(scope, sql`AND fb.ref_id = 0`)})`, keyed] : [keyed];
  });
  return sql<SqlBool>`(${sql.join(arms, sql` OR `)})`;
}

/**
 * The parking spaces generation bills (alias `ps`, joined to their room): sold or rented, the
 * lease not ended before `start` (the period's first day).
 */
export const spaceBillable = (start: string) =>
  sql<SqlBool>`ps.status IN ('sold', 'rented') AND (ps.end_date IS NULL OR ps.end_date >= ${start}::date)`;

/** The cars generation bills (alias `c`, joined to their room): those in use. */
export const CAR_BILLABLE = sql<SqlBool>`c.status = 'Y'`;
