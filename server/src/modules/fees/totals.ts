import { addDays } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';

export const TOTALS_FOLD = 'totals_fold';

/**
 * Totals a table's own statement triggers keep of it (migrations 024, 025): rows of changes per
 * group, only ever added, folded now and then. `keys` are the group's columns with the source's
 * expression for each, `sums` the summed columns with theirs (the first is the count).
 */
export interface KeptTotals {
  table: 'fee_bill_totals' | 'fee_payment_totals';
  source: 'fee_bills' | 'fee_payments';
  keys: Record<string, string>;
  sums: Record<string, string>;
  /** the source's rows counted, when not all (a condition in SQL) */
  counted?: string;
}

export const BILL_TOTALS: KeptTotals = {
  table: 'fee_bill_totals',
  source: 'fee_bills',
  keys: { rid: 'rid', period: 'period', item_id: 'item_id', cost_type: 'cost_type', status: 'status' },
  sums: { bills: 'count(*)', fee: 'sum(fee)' },
};

export const PAYMENT_TOTALS: KeptTotals = {
  table: 'fee_payment_totals',
  source: 'fee_payments',
  // a voided receipt (作废, 202611270145_payment_void.sql) took no money
  counted: "status <> 'V'",
  // the day in the session's time zone, the business one (migration 025)
  keys: { rid: 'rid', day: 'created_at::date', pay_type: 'pay_type', cashier_name: 'cashier_name' },
  sums: {
    payments: 'count(*)',
    paid_amount: 'sum(paid_amount)',
    balance_used: 'sum(balance_used)',
    discount: 'sum(discount)',
    late_fee: 'sum(late_fee)',
  },
};

export const KEPT_TOTALS = [BILL_TOTALS, PAYMENT_TOTALS];

/**
 * The bills' count and fees per period, item and status over a range of periods, from their kept
 * totals instead of the bills: a year of a community's bills is a few hundred rows there, against
 * a million bills. Groups whose bills were all deleted are left out, as they have no bills.
 */
export function billTotals(
  db: Kysely<DB>,
  rid: number,
  f: { start_period: string; end_period: string; cost_type?: string | undefined; itemid?: number | undefined },
) {
  let q = db
    .selectFrom('fee_bill_totals as t')
    .select(['t.item_id', 't.period', 't.status', sql<string>`sum(t.bills)`.as('n'), sql<string>`sum(t.fee)`.as('fee')])
    .where('t.rid', '=', rid)
    .where('t.period', '>=', f.start_period)
    .where('t.period', '<=', f.end_period);
  if (f.cost_type) q = q.where('t.cost_type', '=', f.cost_type);
  if (f.itemid) q = q.where('t.item_id', '=', f.itemid);
  return q.groupBy(['t.period', 't.item_id', 't.status']).having(sql`sum(t.bills)`, '<>', 0);
}

/**
 * The kept totals of the payments made from `start` to `end` (business days, both included): a
 * year of a community's payments is a few thousand rows there, against hundreds of thousands.
 */
export function paymentTotals(db: Kysely<DB>, rid: number, start: string, end: string) {
  return db
    .selectFrom('fee_payment_totals as t')
    .where('t.rid', '=', rid)
    .where('t.day', '>=', sql<string>`${start}::date`)
    .where('t.day', '<', sql<string>`${addDays(end, 1)}::date`);
}

/**
 * Folds kept totals into one row per group, of one community or of all. One statement: the rows
 * it reads are deleted and their sums written back together, while rows other transactions add
 * meanwhile stay as they are for the next fold. Answers how many rows it read.
 */
export async function foldTotals(db: Kysely<DB>, kept: KeptTotals, rid?: number): Promise<number> {
  const keys = sql.join(Object.keys(kept.keys).map((k) => sql.id(k)));
  const sums = Object.keys(kept.sums);
  const res = await sql<{ folded: number }>`
    WITH gone AS (DELETE FROM ${sql.table(kept.table)} ${rid === undefined ? sql`` : sql`WHERE rid = ${rid}`}
      RETURNING ${keys}, ${sql.join(sums.map((s) => sql.id(s)))}),
    folded AS (INSERT INTO ${sql.table(kept.table)} (${keys}, ${sql.join(sums.map((s) => sql.id(s)))})
      SELECT ${keys}, ${sql.join(sums.map((s) => sql`sum(${sql.id(s)})`))} FROM gone GROUP BY ${keys}
      HAVING ${sql.join(
        sums.map((s) => sql`sum(${sql.id(s)}) <> 0`),
        sql` OR `,
      )})
    SELECT count(*)::int AS folded FROM gone`.execute(db);
  return res.rows[0]?.folded ?? 0;
}

// the day's payments add a few rows each; whichever server process sees the day first folds them
registerDailyJob(TOTALS_FOLD, {});
registerJobKind(TOTALS_FOLD, async (ctx) => {
  const folded: Record<string, number> = {};
  for (const kept of KEPT_TOTALS) folded[kept.table] = await foldTotals(ctx.db, kept);
  return folded;
});
