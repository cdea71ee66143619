import { addDays, addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyJobs, enqueueJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { totalsMismatches } from '../../test/keptData.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { BILL_TOTALS, foldTotals, PAYMENT_TOTALS, TOTALS_FOLD } from './totals.js';

let t: TestServer;
const month = today().slice(0, 7);
const later = addMonths(`${month}-01`, 24).slice(0, 7);
const latest = addMonths(`${month}-01`, 25).slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const run = (statement: string) => sql.raw(statement).execute(t.database.db);
const totalsRows = async () =>
  Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_bill_totals`.execute(t.database.db)).rows[0]!.n);
/** the groups of bills there are, each a row once folded */
const groups = async () =>
  Number(
    (
      await sql<{ n: number }>`
  SELECT count(*)::int AS n FROM (SELECT DISTINCT rid, period, item_id, cost_type, status FROM fee_bills) g`.execute(t.database.db)
    ).rows[0]!.n,
  );

const paymentTotalsRows = async () =>
  Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_payment_totals`.execute(t.database.db)).rows[0]!.n);
const paymentGroups = async () =>
  Number(
    (
      await sql<{ n: number }>`
  SELECT count(*)::int AS n FROM (SELECT DISTINCT rid, created_at::date, pay_type, cashier_name FROM fee_payments) g`.execute(t.database.db)
    ).rows[0]!.n,
  );

describe('fee_bill_totals', () => {
  it('holds the demo bills after seeding, one row a group once folded', async () => {
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
    await foldTotals(t.database.db, BILL_TOTALS);
    expect(await totalsRows()).toBe(await groups());
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
  });

  it('follows every kind of change to the bills, statement by statement', async () => {
    const steps = [
      // a period's bills copied two years ahead (an insert of many groups in one statement)
      `INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, fee, status, due_date, space_id, car_id)
        SELECT rid, hid, bid, tid, item_id, cost_type, title, '${later}', fee, 'E', due_date + 730, space_id, car_id FROM fee_bills WHERE period = '${month}' AND rid = 1`,
      // some paid, some overdue: bills move between statuses
      `UPDATE fee_bills SET status = 'Y' WHERE period = '${later}' AND hid % 3 = 0`,
      `UPDATE fee_bills SET status = 'N' WHERE period = '${later}' AND hid % 3 = 1`,
      // fees edited, up and down, and one of them set to nothing
      `UPDATE fee_bills SET fee = fee + 0.01 WHERE period = '${later}' AND hid % 5 = 0`,
      `UPDATE fee_bills SET fee = 0 WHERE period = '${later}' AND hid % 7 = 0`,
      // moved to another period and another status at once
      `UPDATE fee_bills SET period = '${latest}', status = 'E' WHERE period = '${later}' AND hid % 2 = 0`,
      // deleted
      `DELETE FROM fee_bills WHERE period = '${latest}' AND hid % 4 = 0`,
    ];
    for (const step of steps) {
      await run(step);
      expect(await totalsMismatches(t.database.db, BILL_TOTALS), step).toEqual([]);
    }
    // a change to none of the totalled columns adds no row
    const before = await totalsRows();
    await run(`UPDATE fee_bills SET is_check = 'Y' WHERE period = '${latest}'`);
    expect(await totalsRows()).toBe(before);
    // all of a group's bills deleted: the group is gone from the totals as from the bills
    await run(`DELETE FROM fee_bills WHERE period IN ('${later}', '${latest}')`);
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
    const left = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM fee_bill_totals WHERE period IN (${later}, ${latest})
      GROUP BY rid, period, item_id, status HAVING sum(bills) <> 0) g`.execute(t.database.db);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('keeps nothing of a change that was rolled back', async () => {
    await t.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`UPDATE fee_bills SET status = 'Y' WHERE period = ${month} AND status <> 'Y'`.execute(trx);
        await sql`SELECT 1/0`.execute(trx);
      })
      .catch(() => undefined);
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
  });

  it('tells a total out of step with its bills', async () => {
    await run(`INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
      SELECT rid, period, item_id, cost_type, status, 0, 4321.09 FROM fee_bills WHERE rid = 1 AND cost_type = 'property' ORDER BY id LIMIT 1`);
    const wrong = await totalsMismatches(t.database.db, BILL_TOTALS);
    expect(wrong.map((w) => w.source)).toEqual(['table', 'totals']);
    // that row alone (the steps above left delta rows of 0 bills and a cent of their own)
    await run(`DELETE FROM fee_bill_totals WHERE bills = 0 AND fee = 4321.09`);
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
  });

  it('folds one community alone, and again to the same rows', async () => {
    await run(`UPDATE fee_bills SET status = 'N' WHERE status = 'E'`);
    const other = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_bill_totals WHERE rid <> 1`.execute(t.database.db);
    const folded = await foldTotals(t.database.db, BILL_TOTALS, 1);
    expect(folded).toBeGreaterThan(0);
    const otherAfter = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_bill_totals WHERE rid <> 1`.execute(t.database.db);
    expect(otherAfter.rows[0]!.n).toBe(other.rows[0]!.n);
    await foldTotals(t.database.db, BILL_TOTALS);
    const rows = await totalsRows();
    expect(rows).toBe(await groups());
    await foldTotals(t.database.db, BILL_TOTALS);
    expect(await totalsRows()).toBe(rows);
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
  });

  it("is folded by a daily job, with the payments' totals", async () => {
    expect(dailyJobs().has(TOTALS_FOLD)).toBe(true);
    await run(`UPDATE fee_bills SET status = 'E' WHERE status = 'N' AND due_date >= current_date`);
    await run(`UPDATE fee_payments SET paid_amount = paid_amount + 1 WHERE id % 3 = 0`);
    await enqueueJob(t.database.db, { rid: null, kind: TOTALS_FOLD, payload: {}, createdBy: null });
    // the runner queues the other daily jobs of the day too
    expect(await t.runJobs()).toBeGreaterThanOrEqual(1);
    expect(await totalsRows()).toBe(await groups());
    expect(await paymentTotalsRows()).toBe(await paymentGroups());
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
    expect(await totalsMismatches(t.database.db, PAYMENT_TOTALS)).toEqual([]);
  });

  it.skipIf(!process.env.DATABASE_URL)('loses nothing when bills change while a fold runs (PostgreSQL)', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE fee_bills SET status = 'Y' WHERE rid = 1 AND status <> 'Y' AND hid % 2 = 0`);
      // the fold neither waits for the open transaction nor takes its rows
      await Promise.all([foldTotals(t.database.db, BILL_TOTALS), foldTotals(t.database.db, BILL_TOTALS, 1)]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await totalsMismatches(t.database.db, BILL_TOTALS)).toEqual([]);
    await foldTotals(t.database.db, BILL_TOTALS);
    expect(await totalsRows()).toBe(await groups());
  });
});

describe('fee_payment_totals', () => {
  it('follows every kind of change to the payments, statement by statement', async () => {
    expect(await totalsMismatches(t.database.db, PAYMENT_TOTALS)).toEqual([]);
    const copies = `receipt_no LIKE '%-copy'`;
    const steps = [
      // the last 60 receipts again a day later, under numbers of their own
      `INSERT INTO fee_payments (rid, receipt_no, hid, bid, tid, member_id, payer_name, receivable, late_fee, discount, balance_used, due,
          paid_amount, pay_type, cashier_id, cashier_name, idempotency_key, created_at)
        SELECT rid, receipt_no || '-copy', hid, bid, tid, member_id, payer_name, receivable, late_fee, discount, balance_used, due,
          paid_amount, pay_type, cashier_id, cashier_name, idempotency_key || '-copy', created_at + interval '1 day'
        FROM fee_payments ORDER BY id DESC LIMIT 60`,
      // amounts, pay types and cashiers changed; receipts moved to another day
      `UPDATE fee_payments SET paid_amount = paid_amount + 0.01, discount = discount + 1 WHERE ${copies} AND id % 3 = 0`,
      `UPDATE fee_payments SET pay_type = 'transfer', cashier_name = '财务' WHERE ${copies} AND id % 4 = 0`,
      `UPDATE fee_payments SET created_at = created_at - interval '40 days' WHERE ${copies} AND id % 5 = 0`,
      `DELETE FROM fee_payments WHERE ${copies} AND id % 2 = 0`,
    ];
    for (const step of steps) {
      await run(step);
      expect(await totalsMismatches(t.database.db, PAYMENT_TOTALS), step).toEqual([]);
    }
    // a refund's status and a reprint change nothing summed, and add no row
    const before = await paymentTotalsRows();
    await run(`UPDATE fee_payments SET status = 'R', refunded_amount = paid_amount, print_count = print_count + 1 WHERE ${copies}`);
    expect(await paymentTotalsRows()).toBe(before);
    await run(`DELETE FROM fee_payments WHERE ${copies}`);
    expect(await totalsMismatches(t.database.db, PAYMENT_TOTALS)).toEqual([]);
    await foldTotals(t.database.db, PAYMENT_TOTALS);
    expect(await paymentTotalsRows()).toBe(await paymentGroups());
  });

  it('gives paymentstatis, financereport and month_fees each group as the payments sum it', async () => {
    const admin = await t.login('admin');
    const range = { start_date: addMonths(today(), -1), end_date: addDays(today(), -3) };
    const within = sql`rid = 1 AND status <> 'V' AND created_at >= ${range.start_date}::date AND created_at < ${addDays(range.end_date, 1)}::date`;
    const keys = { pay_type: sql`pay_type`, cashier: sql`cashier_name`, day: sql`to_char(created_at, 'YYYY-MM-DD')` };
    for (const [group_by, key] of Object.entries(keys)) {
      const res = await t.call('paymentstatis', { ...range, group_by }, admin);
      const direct = await sql<{ key: string; count: number; amount: string; balance_used: string }>`
        SELECT ${key} AS key, count(*)::int AS count, sum(paid_amount)::numeric(14,2)::text AS amount,
          sum(balance_used)::numeric(14,2)::text AS balance_used
        FROM fee_payments WHERE ${within} GROUP BY 1 ORDER BY 1`.execute(t.database.db);
      expect(direct.rows.length).toBeGreaterThan(0);
      expect(
        res.data.items.map(({ label: _, counted: __, ways: ___, ...r }: { label: string; counted: string; ways: unknown }) => r),
      ).toEqual(direct.rows);
    }
    const f = await t.call('financereport', range, admin);
    const sums = await sql<{ collected: string; balance_used: string; discounts: string; late_fees: string }>`
      SELECT sum(paid_amount)::numeric(14,2)::text AS collected, sum(balance_used)::numeric(14,2)::text AS balance_used,
        sum(discount)::numeric(14,2)::text AS discounts, sum(late_fee)::numeric(14,2)::text AS late_fees
      FROM fee_payments WHERE ${within}`.execute(t.database.db);
    expect(f.data).toMatchObject(sums.rows[0]!);
    const year = Number(today().slice(0, 4));
    const months = await t.call('month_fees', { year }, admin);
    const collected = await sql<{ month: string; collected: string }>`
      SELECT to_char(created_at, 'YYYY-MM') AS month, sum(paid_amount)::numeric(14,2)::text AS collected
      FROM fee_payments WHERE rid = 1 AND status <> 'V' AND created_at >= make_date(${year}::int, 1, 1) AND created_at < make_date(${year + 1}::int, 1, 1)
      GROUP BY 1 ORDER BY 1`.execute(t.database.db);
    expect(
      months.data.items
        .filter((m: { collected: string }) => m.collected !== '0.00')
        .map(({ month, collected: c }: { month: string; collected: string }) => ({ month, collected: c })),
    ).toEqual(collected.rows);
  });
});
