import { addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { totalsMismatches } from '../../test/keptData.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { foldTotals, LINE_TOTALS, UNIT_TOTALS } from './totals.js';

/**
 * 物业费收缴统计's kept totals (202611290410_fee_unit_totals.sql) against the bills and receipt lines,
 * statement by statement, and propertypaycount, which reads them, against the same figures summed
 * from the bills and lines as the method read them before.
 */
let t: TestServer;
let admin: string;
const month = today().slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [admin] = await t.logins('admin');
});
afterAll(() => t.close());

const run = (statement: string) => sql.raw(statement).execute(t.database.db);
const agree = async (step: string) => {
  for (const kept of [UNIT_TOTALS, LINE_TOTALS]) {
    expect(await totalsMismatches(t.database.db, kept), `${kept.table} after ${step}`).toEqual([]);
  }
};

/** propertypaycount's unit rows as the bills and lines sum them (the method's statements before 2026-11-29). */
async function fromTables(rid: number, s: string, e: string) {
  const from = `${s}-01`;
  const to = addMonths(`${e}-01`, 1);
  type G = { bid: string; tid: string };
  const db = t.database.db;
  const receivable = await sql<G & { receivable: string }>`
    SELECT b.bid, b.tid, sum(b.fee)::numeric(14,2)::text AS receivable FROM fee_bills b
    WHERE b.rid = ${rid} AND b.period BETWEEN ${s} AND ${e} AND b.cost_type = 'property' GROUP BY b.bid, b.tid`.execute(db);
  const unpaid = await sql<G & { unpaid: string }>`
    SELECT b.bid, b.tid, sum(b.fee)::numeric(14,2)::text AS unpaid FROM fee_bills b
    WHERE b.rid = ${rid} AND b.status <> 'Y' AND b.period < ${s} AND b.cost_type = 'property' GROUP BY b.bid, b.tid`.execute(db);
  const paid = await sql<G & Record<string, string>>`
    SELECT b.bid, b.tid,
      coalesce(sum(pi.fee) FILTER (WHERE p.created_at < ${to}::date), 0)::numeric(14,2)::text AS received,
      coalesce(sum(pi.fee) FILTER (WHERE p.created_at < ${to}::date AND pi.period BETWEEN ${s} AND ${e}), 0)::numeric(14,2)::text AS received_current,
      coalesce(sum(pi.fee) FILTER (WHERE p.created_at < ${to}::date AND pi.period < ${s}), 0)::numeric(14,2)::text AS recovered,
      coalesce(sum(pi.fee) FILTER (WHERE p.created_at < ${to}::date AND pi.period > ${e}), 0)::numeric(14,2)::text AS prepaid,
      coalesce(sum(pi.fee) FILTER (WHERE pi.period < ${s}), 0)::numeric(14,2)::text AS paid_since
    FROM fee_payments p
    JOIN fee_payment_items pi ON pi.rid = p.rid AND pi.payment_id = p.id
    JOIN fee_bills b ON b.rid = pi.rid AND b.id = pi.bill_id
    WHERE p.rid = ${rid} AND p.created_at >= ${from}::date AND pi.cost_type = 'property' AND pi.refunded = 'N'
    GROUP BY b.bid, b.tid`.execute(db);
  const units = new Map<string, Record<string, string | number>>();
  const unit = (r: G) => {
    const k = `${r.bid}:${r.tid}`;
    if (!units.has(k)) {
      units.set(k, {
        bid: Number(r.bid),
        tid: Number(r.tid),
        arrears_before: '0.00',
        receivable: '0.00',
        received: '0.00',
        received_current: '0.00',
        recovered: '0.00',
        prepaid: '0.00',
      });
    }
    return units.get(k)!;
  };
  for (const r of receivable.rows) unit(r).receivable = r.receivable;
  for (const r of unpaid.rows) unit(r).arrears_before = r.unpaid;
  for (const { paid_since, bid, tid, ...r } of paid.rows) {
    const u = unit({ bid, tid });
    Object.assign(u, r);
    u.arrears_before = (Number(u.arrears_before) + Number(paid_since)).toFixed(2);
  }
  return [...units.values()].sort((a, b) => Number(a.bid) - Number(b.bid) || Number(a.tid) - Number(b.tid));
}

async function checkMethod(step: string) {
  for (const [s, e] of [
    [addMonths(`${month}-01`, -11).slice(0, 7), month],
    [addMonths(`${month}-01`, -2).slice(0, 7), addMonths(`${month}-01`, -1).slice(0, 7)],
    [month, month],
  ] as const) {
    const res = await t.call('propertypaycount', { start_period: s, end_period: e }, admin);
    expect(res.return_code, step).toBe('SUCCESS');
    const units = (res.data.items as Array<Record<string, string | number>>)
      .filter((r) => r.tid !== 0)
      .map(({ bid, tid, arrears_before, receivable, received, received_current, recovered, prepaid }) => ({
        bid,
        tid,
        arrears_before,
        receivable,
        received,
        received_current,
        recovered,
        prepaid,
      }))
      .sort((a, b) => Number(a.bid) - Number(b.bid) || Number(a.tid) - Number(b.tid));
    const expected = await fromTables(1, s, e);
    if (s !== e) expect(expected.length, step).toBeGreaterThan(0);
    expect(units, `${step}, ${s}..${e}`).toEqual(expected);
  }
}

describe('fee_unit_totals and fee_line_totals', () => {
  it('hold the demo after seeding, and propertypaycount answers as the tables sum', async () => {
    await agree('seeded');
    const lines = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM fee_payment_items WHERE rid = 1 AND cost_type = 'property'`.execute(t.database.db);
    expect(lines.rows[0]!.n).toBeGreaterThan(0);
    await checkMethod('seeded');
    await foldTotals(t.database.db, UNIT_TOTALS);
    await foldTotals(t.database.db, LINE_TOTALS);
    await agree('folded');
    await checkMethod('folded');
  });

  it('follow every kind of change to the bills, lines and receipts, statement by statement', async () => {
    const lines = `(SELECT id FROM fee_payment_items WHERE rid = 1 AND cost_type = 'property' ORDER BY id LIMIT 40)`;
    const steps = [
      // lines refunded, and one of them back
      `UPDATE fee_payment_items SET refunded = 'Y' WHERE id IN ${lines} AND id % 3 = 0`,
      `UPDATE fee_payment_items SET refunded = 'N' WHERE id IN ${lines} AND id % 6 = 0`,
      // a line's fee edited
      `UPDATE fee_payment_items SET fee = fee + 0.01 WHERE id IN ${lines} AND id % 5 = 0`,
      // receipts moved to another month (a receipt's time)
      `UPDATE fee_payments SET created_at = created_at - interval '40 days' WHERE rid = 1 AND id IN (SELECT payment_id FROM fee_payment_items WHERE id IN ${lines}) AND id % 2 = 0`,
      // a paid bill moved to another building and unit, with its lines
      `UPDATE fee_bills SET bid = (SELECT max(bid) FROM fee_bills WHERE rid = 1), tid = (SELECT max(tid) FROM fee_bills WHERE rid = 1)
        WHERE rid = 1 AND id IN (SELECT bill_id FROM fee_payment_items WHERE id IN ${lines} AND id % 4 = 1)`,
      // bills paid, reopened (a void), fees edited, deleted
      `UPDATE fee_bills SET status = 'Y' WHERE rid = 1 AND cost_type = 'property' AND status <> 'Y' AND hid % 3 = 0`,
      `UPDATE fee_bills SET status = 'N' WHERE rid = 1 AND cost_type = 'property' AND status = 'Y' AND hid % 5 = 0
        AND NOT EXISTS (SELECT 1 FROM fee_payment_items pi WHERE pi.rid = fee_bills.rid AND pi.bill_id = fee_bills.id)`,
      `UPDATE fee_bills SET fee = fee + 1.05 WHERE rid = 1 AND cost_type = 'property' AND hid % 4 = 0`,
      `DELETE FROM fee_bills WHERE rid = 1 AND cost_type = 'property' AND hid % 7 = 0
        AND NOT EXISTS (SELECT 1 FROM fee_payment_items pi WHERE pi.rid = fee_bills.rid AND pi.bill_id = fee_bills.id)`,
      // lines deleted, then their receipts
      `DELETE FROM fee_payment_items WHERE id IN ${lines} AND id % 7 = 0`,
    ];
    for (const step of steps) {
      await run(step);
      await agree(step);
      await checkMethod(step);
    }
    await foldTotals(t.database.db, UNIT_TOTALS, 1);
    await foldTotals(t.database.db, LINE_TOTALS, 1);
    await agree('folded');
    await checkMethod('folded');
  });
});
