import type { Paging } from '@wuye/contract';
import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * One page of a filtered query plus the filtered total, ordered by `orderColumn` in the
 * asked direction (spec 9: pages of 10, sort by id asc or desc). `countFrom` counts the same
 * rows more cheaply when the caller has such a query (e.g. without joins the filters don't need),
 * or answers the total itself (e.g. remembered, lib/countCache.ts).
 */
export async function listPage<DB, TB extends keyof DB, O, CDB = DB, CTB extends keyof CDB = never>(
  qb: SelectQueryBuilder<DB, TB, O>,
  paging: Paging,
  orderColumn: string,
  countFrom?: SelectQueryBuilder<CDB, CTB, unknown> | (() => Promise<number>),
): Promise<{ items: O[]; total: number }> {
  const [items, total] = await Promise.all([
    qb.orderBy(sql.ref(orderColumn), paging.sort).limit(paging.limit).offset((paging.page - 1) * paging.limit).execute(),
    typeof countFrom === 'function' ? countFrom() : countFrom ? countRows(countFrom) : countRows(qb),
  ]);
  return { items, total };
}

/** A page the caller has queried itself, with its total, both at once. */
export async function pageWithTotal<O>(items: Promise<O[]>, total: () => Promise<number>): Promise<{ items: O[]; total: number }> {
  const [rows, n] = await Promise.all([items, total()]);
  return { items: rows, total: n };
}

/** How many rows the query selects. */
export async function countRows<DB, TB extends keyof DB>(qb: SelectQueryBuilder<DB, TB, unknown>): Promise<number> {
  const row = await countQuery(qb).executeTakeFirst();
  return Number((row as { total?: number } | undefined)?.total ?? 0);
}

/** The query counting what `qb` selects. */
export function countQuery<DB, TB extends keyof DB>(qb: SelectQueryBuilder<DB, TB, unknown>) {
  return qb.clearSelect().clearOrderBy().select(sql<number>`count(*)::int`.as('total'));
}
