import { addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyJobs, enqueueJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { billTotalsMismatches } from '../../test/billTotals.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { BILL_TOTALS_FOLD, foldBillTotals } from './totals.js';

let t: TestServer;
const month = today().slice(0, 7);
const later = addMonths(`${month}-01`, 24).slice(0, 7);
const latest = addMonths(`${month}-01`, 25).slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const run = (statement: string) => sql.raw(statement).execute(t.database.db);
const totalsRows = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_bill_totals`.execute(t.database.db)).rows[0]!.n);
/** the groups of bills there are, each a row once folded */
const groups = async () => Number((await sql<{ n: number }>`
  SELECT count(*)::int AS n FROM (SELECT DISTINCT rid, period, item_id, cost_type, status FROM fee_bills) g`.execute(t.database.db)).rows[0]!.n);

describe('fee_bill_totals', () => {
  it('holds the demo bills after seeding, one row a group once folded', async () => {
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
    await foldBillTotals(t.database.db);
    expect(await totalsRows()).toBe(await groups());
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
  });

  it('follows every kind of change to the bills, statement by statement', async () => {
    const steps = [
      // a period's bills copied two years ahead (an insert of many groups in one statement)
      `INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, fee, status, due_date, space_id, car_id)
        SELECT rid, hid, bid, tid, item_id, cost_type, title, '${later}', fee, 'E', due_date + 730, space_id, car_id FROM fee_bills WHERE period = '${month}'`,
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
      expect(await billTotalsMismatches(t.database.db), step).toEqual([]);
    }
    // a change to none of the totalled columns adds no row
    const before = await totalsRows();
    await run(`UPDATE fee_bills SET is_check = 'Y' WHERE period = '${latest}'`);
    expect(await totalsRows()).toBe(before);
    // all of a group's bills deleted: the group is gone from the totals as from the bills
    await run(`DELETE FROM fee_bills WHERE period IN ('${later}', '${latest}')`);
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM fee_bill_totals WHERE period IN (${later}, ${latest})
      GROUP BY rid, period, item_id, status HAVING sum(bills) <> 0) g`.execute(t.database.db);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('keeps nothing of a change that was rolled back', async () => {
    await t.database.db.transaction().execute(async (trx) => {
      await sql`UPDATE fee_bills SET status = 'Y' WHERE period = ${month} AND status <> 'Y'`.execute(trx);
      await sql`SELECT 1/0`.execute(trx);
    }).catch(() => undefined);
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
  });

  it('tells a total out of step with its bills', async () => {
    await run(`INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
      SELECT rid, period, item_id, cost_type, status, 0, 0.01 FROM fee_bills ORDER BY id LIMIT 1`);
    const wrong = await billTotalsMismatches(t.database.db);
    expect(wrong.map((w) => w.source)).toEqual(['bills', 'totals']);
    await run(`DELETE FROM fee_bill_totals WHERE bills = 0 AND fee = 0.01`);
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
  });

  it('folds one community alone, and again to the same rows', async () => {
    await run(`UPDATE fee_bills SET status = 'N' WHERE status = 'E'`);
    const other = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_bill_totals WHERE rid <> 1`.execute(t.database.db);
    const folded = await foldBillTotals(t.database.db, 1);
    expect(folded).toBeGreaterThan(0);
    const otherAfter = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_bill_totals WHERE rid <> 1`.execute(t.database.db);
    expect(otherAfter.rows[0]!.n).toBe(other.rows[0]!.n);
    await foldBillTotals(t.database.db);
    const rows = await totalsRows();
    expect(rows).toBe(await groups());
    await foldBillTotals(t.database.db);
    expect(await totalsRows()).toBe(rows);
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
  });

  it('is folded by a daily job', async () => {
    expect(dailyJobs().has(BILL_TOTALS_FOLD)).toBe(true);
    await run(`UPDATE fee_bills SET status = 'E' WHERE status = 'N' AND due_date >= current_date`);
    await enqueueJob(t.database.db, { rid: null, kind: BILL_TOTALS_FOLD, payload: {}, createdBy: null });
    // the runner queues the other daily jobs of the day too
    expect(await t.runJobs()).toBeGreaterThanOrEqual(1);
    expect(await totalsRows()).toBe(await groups());
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
  });

  it.skipIf(!process.env.DATABASE_URL)('loses nothing when bills change while a fold runs (PostgreSQL)', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE fee_bills SET status = 'Y' WHERE rid = 1 AND status <> 'Y' AND hid % 2 = 0`);
      // the fold neither waits for the open transaction nor takes its rows
      await Promise.all([foldBillTotals(t.database.db), foldBillTotals(t.database.db, 1)]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await billTotalsMismatches(t.database.db)).toEqual([]);
    await foldBillTotals(t.database.db);
    expect(await totalsRows()).toBe(await groups());
  });
});
