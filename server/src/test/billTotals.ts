import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface TotalsMismatch { source: 'bills' | 'totals'; rid: number; period: string; item_id: number; cost_type: string; status: string; bills: string; fee: string }

/**
 * The groups where the bills and their kept totals (migration 024) disagree: each group as the
 * bills count it and as the totals do, for every group either side has. Empty when they agree.
 */
export async function billTotalsMismatches(db: Kysely<DB>): Promise<TotalsMismatch[]> {
  const res = await sql<TotalsMismatch>`
    WITH bills AS (
      SELECT rid, period, item_id, cost_type, status, count(*)::numeric AS bills, sum(fee)::numeric AS fee FROM fee_bills GROUP BY 1, 2, 3, 4, 5
    ), totals AS (
      SELECT rid, period, item_id, cost_type, status, sum(bills)::numeric AS bills, sum(fee)::numeric AS fee FROM fee_bill_totals
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(bills) <> 0 OR sum(fee) <> 0
    )
    (SELECT 'bills' AS source, * FROM (SELECT * FROM bills EXCEPT SELECT * FROM totals) b)
    UNION ALL
    (SELECT 'totals' AS source, * FROM (SELECT * FROM totals EXCEPT SELECT * FROM bills) t)
    ORDER BY rid, period, item_id, status, source`.execute(db);
  return res.rows.map((r) => ({ ...r, bills: String(r.bills), fee: String(r.fee) }));
}

/** Throws, naming the groups, where the bills' kept totals disagree with the bills. */
export async function assertBillTotalsKept(db: Kysely<DB>): Promise<void> {
  const wrong = await billTotalsMismatches(db);
  if (wrong.length) throw new Error(`fee_bill_totals disagree with fee_bills:\n${wrong.map((w) => JSON.stringify(w)).join('\n')}`);
}
