import { sql, type RawBuilder } from 'kysely';

/*
 * The order of a community's places (buildings, units, rooms) wherever they are listed: one rule,
 * in SQL for the lists and dropdowns and in TypeScript for rows already read (the reports).
 *
 * - A place given a sort (排序 above 0) comes first, by its sort. A place left at 0 has no particular
 *   place: it comes after them, so a building added without a sort (10号楼 after 9号楼) is not put
 *   before the numbered ones.
 * - Then by its name's leading number compared as a number (2号楼 before 10号楼, 101 before 1001),
 *   a name without one (A座) after those with one; then the name; then the id (the older first).
 */

/** A name's leading number (9号楼 → 9, 1101 → 1101, A座 → NULL); nine digits at most, so it fits an int. */
export const leadingNumber = (column: string): RawBuilder<number | null> =>
  sql<number | null>`substring(${sql.ref(column)} from '^[0-9]{1,9}')::int`;

/** A name in natural order: its leading number (a name without one after), then the name. */
export const naturalName = (column: string): Array<RawBuilder<unknown>> => [leadingNumber(column), sql`${sql.ref(column)}`];

/**
 * ORDER BY terms of places with a sort column: `prefix` is the table's alias with its dot ('t.')
 * or ''. The caller adds the id last (lists page by it). PostgreSQL puts NULL after numbers
 * ascending and before them descending, so a descending list is this order exactly reversed.
 */
export const placeOrder = (prefix = ''): Array<RawBuilder<unknown>> => [
  sql`${sql.ref(`${prefix}sort`)} = 0`,
  sql`${sql.ref(`${prefix}sort`)}`,
  ...naturalName(`${prefix}title`),
];

const leading = (name: string): number | null => {
  const m = /^[0-9]{1,9}/.exec(name);
  return m ? Number(m[0]) : null;
};

/** The same order for rows already read: negative when place `a` comes before `b`. */
export function comparePlaces(a: { sort: number; title: string; id: number }, b: { sort: number; title: string; id: number }): number {
  const unset = Number(a.sort === 0) - Number(b.sort === 0);
  if (unset || a.sort !== b.sort) return unset || a.sort - b.sort;
  const [x, y] = [leading(a.title), leading(b.title)];
  if (x !== y) return x === null ? 1 : y === null ? -1 : x - y;
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return a.id - b.id;
}
