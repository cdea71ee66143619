import { addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { yearMasks } from '../leader/feeSummary.js';

/**
 * The rooms' kept months (202612021740_fee_room_months.sql) against the property bills, statement
 * by statement, and the group summary's household counts, which read them, against the same counts
 * grouped from the bills.
 */
let t: TestServer;
let leader: string;
const month = today().slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [leader] = await t.logins('leader');
});
afterAll(() => t.close());

const run = (statement: string) => sql.raw(statement).execute(t.database.db);

/** Rows where the kept masks and the bills' own differ (a kept row with empty masks is as none). */
async function mismatches() {
  const res = await sql<Record<string, unknown>>`
    WITH counted AS (
      SELECT rid, hid, left(period, 4)::int AS year, bit_or(1 << (substr(period, 6, 2)::int - 1)) AS billed,
        coalesce(bit_or(1 << (substr(period, 6, 2)::int - 1)) FILTER (WHERE status <> 'Y'), 0) AS unpaid
      FROM fee_bills WHERE cost_type = 'property' GROUP BY 1, 2, 3
    ),
    kept AS (SELECT rid, hid, year, billed, unpaid FROM fee_room_months WHERE billed <> 0 OR unpaid <> 0)
    SELECT * FROM (SELECT * FROM counted EXCEPT SELECT * FROM kept) a
    UNION ALL SELECT * FROM (SELECT * FROM kept EXCEPT SELECT * FROM counted) b
    LIMIT 5`.execute(t.database.db);
  return res.rows;
}

/** The summary's households and owing ones per community as the bills group them. */
async function fromBills(s: string, e: string) {
  const res = await sql<{ rid: number; households: number; owing: number }>`
    SELECT h.rid, count(*)::int AS households, count(*) FILTER (WHERE h.owing)::int AS owing
    FROM (SELECT b.rid, b.hid, bool_or(b.status <> 'Y') AS owing FROM fee_bills b
          WHERE b.cost_type = 'property' AND b.period BETWEEN ${s} AND ${e}
          GROUP BY b.rid, b.hid) h
    GROUP BY h.rid`.execute(t.database.db);
  return new Map(res.rows.map((r) => [Number(r.rid), { households: r.households, owing: r.owing }]));
}

async function checkSummary(step: string) {
  const ranges: Array<[string, string]> = [
    [addMonths(`${month}-01`, -11).slice(0, 7), month],
    [addMonths(`${month}-01`, -2).slice(0, 7), addMonths(`${month}-01`, -1).slice(0, 7)],
    [month, month],
    // across a year's end
    [addMonths(`${month}-01`, -20).slice(0, 7), addMonths(`${month}-01`, -9).slice(0, 7)],
  ];
  for (const [s, e] of ranges) {
    const res = await t.call('leaderfeesummary', { start_period: s, end_period: e }, leader, 'group');
    expect(res.return_code, `${step}: ${res.return_msg}`).toBe('SUCCESS');
    const expected = await fromBills(s, e);
    const items = res.data.items as Array<{ rid: number; households: number; owing_households: number }>;
    for (const r of items) {
      const want = expected.get(r.rid) ?? { households: 0, owing: 0 };
      expect({ rid: r.rid, households: r.households, owing: r.owing_households }, `${step}, ${s}..${e}`).toEqual({ rid: r.rid, ...want });
    }
  }
}

describe('fee_room_months', () => {
  it('gives each year of a range its months as bits', () => {
    expect(yearMasks('2026-01', '2026-12')).toEqual([[2026, 0xfff]]);
    expect(yearMasks('2026-03', '2026-03')).toEqual([[2026, 0b100]]);
    expect(yearMasks('2025-11', '2026-02')).toEqual([
      [2025, 0b1100_0000_0000],
      [2026, 0b11],
    ]);
    expect(yearMasks('2024-06', '2026-01')).toEqual([
      [2024, 0b1111_1110_0000],
      [2025, 0xfff],
      [2026, 1],
    ]);
  });

  it('holds the demo after seeding, and the summary counts the households the bills give', async () => {
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_room_months WHERE billed <> 0`.execute(t.database.db);
    expect(n.rows[0]!.n).toBeGreaterThan(0);
    expect(await mismatches()).toEqual([]);
    await checkSummary('seeded');
  });

  it('follows every kind of change to the property bills, statement by statement', async () => {
    const steps = [
      // bills paid, some of a room's months only
      `UPDATE fee_bills SET status = 'Y' WHERE rid = 1 AND cost_type = 'property' AND status <> 'Y' AND hid % 3 = 0 AND id % 2 = 0`,
      // overdue marks and fees change nothing the masks hold
      `UPDATE fee_bills SET status = 'N' WHERE rid = 1 AND status = 'E' AND hid % 4 = 1`,
      `UPDATE fee_bills SET fee = fee + 1.05 WHERE rid = 1 AND cost_type = 'property' AND hid % 4 = 0`,
      // paid bills reopened
      `UPDATE fee_bills SET status = 'E' WHERE rid = 1 AND cost_type = 'property' AND status = 'Y' AND hid % 5 = 0
        AND NOT EXISTS (SELECT 1 FROM fee_payment_items pi WHERE pi.rid = fee_bills.rid AND pi.bill_id = fee_bills.id)`,
      // a bill moved to another month, and one to another room
      `UPDATE fee_bills SET period = '2031-05' WHERE rid = 1 AND cost_type = 'property' AND id = (SELECT min(id) FROM fee_bills WHERE rid = 1 AND cost_type = 'property')`,
      `UPDATE fee_bills b SET hid = r.id, bid = r.bid, tid = r.tid FROM rooms r
        WHERE b.rid = 1 AND b.cost_type = 'property' AND b.id = (SELECT max(id) FROM fee_bills WHERE rid = 1 AND cost_type = 'property' AND period < '2031-01')
          AND r.rid = 1 AND r.id = (SELECT max(id) FROM rooms WHERE rid = 1)
          AND NOT EXISTS (SELECT 1 FROM fee_bills x WHERE x.rid = 1 AND x.hid = r.id AND x.item_id = b.item_id AND x.period = b.period)`,
      // a bill of another kind made property, and back
      `UPDATE fee_bills SET cost_type = 'property' WHERE rid = 1 AND cost_type <> 'property' AND id % 5 = 0`,
      `UPDATE fee_bills SET cost_type = 'other' WHERE rid = 1 AND cost_type = 'property' AND id % 11 = 0`,
      // new bills, unpaid and paid, in a year with none before
      `INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, fee, status, due_date)
        SELECT rid, hid, bid, tid, item_id, 'property', title, '2032-0' || (1 + hid % 9), fee, CASE WHEN hid % 2 = 0 THEN 'Y' ELSE 'E' END, due_date
        FROM fee_bills WHERE rid = 1 AND cost_type = 'property' AND period = ${`'${month}'`}`,
      // deleted: all of a room's bills of a year, and single ones
      `DELETE FROM fee_bills WHERE rid = 1 AND period LIKE '2032-%' AND hid % 3 = 0`,
      // (not one a payment, a lease or an intention holds: a kind made property above may be a lease's rent)
      `DELETE FROM fee_bills WHERE rid = 1 AND cost_type = 'property' AND hid % 7 = 0
        AND NOT EXISTS (SELECT 1 FROM fee_payment_items pi WHERE pi.rid = fee_bills.rid AND pi.bill_id = fee_bills.id)
        AND NOT EXISTS (SELECT 1 FROM lease_bills lb WHERE lb.rid = fee_bills.rid AND lb.bill_id = fee_bills.id)
        AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.rid = fee_bills.rid AND l.deposit_bill_id = fee_bills.id)
        AND NOT EXISTS (SELECT 1 FROM crm_intentions ci WHERE ci.rid = fee_bills.rid AND ci.bill_id = fee_bills.id)`,
    ];
    for (const step of steps) {
      await run(step);
      expect(await mismatches(), step).toEqual([]);
    }
    await checkSummary('changed');
    await run('SELECT fee_room_months_rebuild()');
    expect(await mismatches()).toEqual([]);
  });
});
