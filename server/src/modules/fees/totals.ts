import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';

export const BILL_TOTALS_FOLD = 'bill_totals_fold';

/**
 * The bills' count and fees per period, item and status over a range of periods, from the rows
 * fee_bills' triggers keep (migration 024) instead of the bills: a year of a community's bills is
 * a few hundred rows there, against a million bills. Groups whose bills were all deleted are left
 * out, as they have no bills.
 */
export function billTotals(db: Kysely<DB>, rid: number, f: { start_period: string; end_period: string; cost_type?: string | undefined; itemid?: number | undefined }) {
  let q = db.selectFrom('fee_bill_totals as t')
    .select(['t.item_id', 't.period', 't.status', sql<string>`sum(t.bills)`.as('n'), sql<string>`sum(t.fee)`.as('fee')])
    .where('t.rid', '=', rid).where('t.period', '>=', f.start_period).where('t.period', '<=', f.end_period);
  if (f.cost_type) q = q.where('t.cost_type', '=', f.cost_type);
  if (f.itemid) q = q.where('t.item_id', '=', f.itemid);
  return q.groupBy(['t.period', 't.item_id', 't.status']).having(sql`sum(t.bills)`, '<>', 0);
}

/**
 * Folds the rows of fee_bill_totals into one per group, of one community or of all. One statement:
 * the rows it reads are deleted and their sums written back together, while rows other
 * transactions add meanwhile stay as they are for the next fold. Answers how many rows it read.
 */
export async function foldBillTotals(db: Kysely<DB>, rid?: number): Promise<number> {
  const res = await sql<{ folded: number }>`
    WITH gone AS (DELETE FROM fee_bill_totals ${rid === undefined ? sql`` : sql`WHERE rid = ${rid}`}
      RETURNING rid, period, item_id, cost_type, status, bills, fee),
    kept AS (INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
      SELECT rid, period, item_id, cost_type, status, sum(bills), sum(fee) FROM gone
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(bills) <> 0 OR sum(fee) <> 0)
    SELECT count(*)::int AS folded FROM gone`.execute(db);
  return res.rows[0]?.folded ?? 0;
}

// the day's payments add a few rows each; whichever server process sees the day first folds them
registerDailyJob(BILL_TOTALS_FOLD, {});
registerJobKind(BILL_TOTALS_FOLD, async (ctx) => ({ folded: await foldBillTotals(ctx.db) }));
