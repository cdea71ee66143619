import type { Paging } from '@wuye/contract';
import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * One page of a filtered query plus the filtered total, ordered by `orderColumn` in the
 * asked direction (spec 9: pages of 10, sort by id asc or desc).
 */
export async function listPage<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  paging: Paging,
  orderColumn: string,
): Promise<{ items: O[]; total: number }> {
  const [items, count] = await Promise.all([
    qb.orderBy(sql.ref(orderColumn), paging.sort).limit(paging.limit).offset((paging.page - 1) * paging.limit).execute(),
    qb.clearSelect().clearOrderBy().select(sql<number>`count(*)::int`.as('total')).executeTakeFirst(),
  ]);
  return { items, total: Number((count as { total?: number } | undefined)?.total ?? 0) };
}
