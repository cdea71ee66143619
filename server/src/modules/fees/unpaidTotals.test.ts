import { addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { totalsMismatches } from '../../test/keptData.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { BILL_KEPT, foldTotals, KEPT_TOTALS } from './totals.js';

/**
 * The unpaid bills' kept totals (202611290400_fee_unpaid_totals.sql) against the bills, statement by
 * statement, and regiondesktop / propertynopaycount, which read them, against the same figures
 * summed from the bills bill by bill (late fees rounded per bill), as the methods read them before.
 */
let t: TestServer;
let admin: string;
const month = today().slice(0, 7);
const later = addMonths(`${month}-01`, 24).slice(0, 7);
const latest = addMonths(`${month}-01`, 25).slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [admin] = await t.logins('admin');
});
afterAll(() => t.close());

const run = (statement: string) => sql.raw(statement).execute(t.database.db);
const UNPAID = KEPT_TOTALS.filter((k) => k.table.startsWith('fee_unpaid_'));
const agree = async (step: string) => {
  for (const kept of UNPAID) expect(await totalsMismatches(t.database.db, kept), `${kept.table} after ${step}`).toEqual([]);
};
const fold = async (rid?: number) => {
  for (const kept of BILL_KEPT) await foldTotals(t.database.db, kept, rid);
};

/** regiondesktop's arrears as the bills sum them, one late fee per bill. */
async function desktopFromBills(rid: number) {
  const day = today();
  const r = await sql<{ rooms: number; bill_count: number; fee: string; late_fee: string }>`
    SELECT count(DISTINCT b.hid)::int AS rooms, count(*)::int AS bill_count, coalesce(sum(b.fee), 0)::numeric(14,2)::text AS fee,
      coalesce(sum(fee_late_fee(b.fee, b.due_date, ${day}::date, i.late_fee_rule, i.late_fee_rate, i.late_fee_grace_days,
        i.late_fee_cap_percent)::numeric(14,2)), 0)::numeric(14,2)::text AS late_fee
    FROM fee_bills b JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
    WHERE b.rid = ${rid} AND b.status <> 'Y'`.execute(t.database.db);
  return r.rows[0]!;
}

/** propertynopaycount's unit rows as the bills sum them. */
async function nopayFromBills(rid: number) {
  const day = today();
  const m3 = addMonths(day, -3).slice(0, 7);
  const m6 = addMonths(day, -6).slice(0, 7);
  const m12 = addMonths(day, -12).slice(0, 7);
  const m = (cond: ReturnType<typeof sql>) => sql`coalesce(sum(b.fee) FILTER (WHERE ${cond}), 0)::numeric(14,2)::text`;
  const r = await sql<Record<string, string | number>>`
    SELECT b.bid::int AS bid, b.tid::int AS tid, count(DISTINCT b.hid)::int AS rooms, count(*)::int AS bill_count,
      ${m(sql`b.period >= ${m3}`)} AS m0_3, ${m(sql`b.period < ${m3} AND b.period >= ${m6}`)} AS m3_6,
      ${m(sql`b.period < ${m6} AND b.period >= ${m12}`)} AS m6_12, ${m(sql`b.period < ${m12}`)} AS m12_plus,
      sum(b.fee)::numeric(14,2)::text AS arrears,
      sum(fee_late_fee(b.fee, b.due_date, ${day}::date, i.late_fee_rule, i.late_fee_rate, i.late_fee_grace_days,
        i.late_fee_cap_percent))::numeric(14,2)::text AS late_fee
    FROM fee_bills b JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
    WHERE b.rid = ${rid} AND b.status <> 'Y' AND b.cost_type = 'property'
    GROUP BY b.bid, b.tid ORDER BY 1, 2`.execute(t.database.db);
  return r.rows;
}

async function checkMethods(step: string) {
  const d = await t.call('regiondesktop', {}, admin);
  expect(d.return_code, step).toBe('SUCCESS');
  const scratch = await desktopFromBills(1);
  expect(d.data.arrears, step).toMatchObject(scratch);
  const n = await t.call('propertynopaycount', {}, admin);
  expect(n.return_code, step).toBe('SUCCESS');
  const units = (n.data.items as Array<Record<string, string | number>>)
    .filter((r) => r.tid !== 0)
    .map(({ bid, tid, rooms, bill_count, m0_3, m3_6, m6_12, m12_plus, arrears, late_fee }) => ({
      bid,
      tid,
      rooms,
      bill_count,
      m0_3,
      m3_6,
      m6_12,
      m12_plus,
      arrears,
      late_fee,
    }))
    .sort((a, b) => Number(a.bid) - Number(b.bid) || Number(a.tid) - Number(b.tid));
  expect(units, step).toEqual(await nopayFromBills(1));
}

describe('fee_unpaid_totals and fee_unpaid_rooms', () => {
  it('hold the demo bills after seeding, and the methods answer as the bills sum', async () => {
    await agree('seeded');
    // late fees that accrue daily, with and without a cap, so rounding per bill matters
    await run(`UPDATE fee_items SET late_fee_rule = 'daily', late_fee_rate = 0.5, late_fee_grace_days = 0, late_fee_cap_percent = 0
      WHERE rid = 1 AND cost_type = 'property'`);
    await run(`UPDATE fee_items SET late_fee_rule = 'daily', late_fee_rate = 0.3333, late_fee_grace_days = 3, late_fee_cap_percent = 5
      WHERE rid = 1 AND cost_type <> 'property'`);
    const owing = await desktopFromBills(1);
    expect(Number(owing.late_fee)).toBeGreaterThan(0);
    await checkMethods('seeded, late fees daily');
    await fold();
    await agree('folded');
    await checkMethods('folded');
  });

  it('follow every kind of change to the bills, statement by statement', async () => {
    const steps = [
      // bills generated (an insert of many groups), some of them overdue already
      `INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, fee, status, due_date, space_id, car_id)
        SELECT rid, hid, bid, tid, item_id, cost_type, title, '${later}', fee, 'E', due_date - 40, space_id, car_id FROM fee_bills WHERE period = '${month}'`,
      // paid, overdue, reopened (a refund or a void puts a bill back to unpaid)
      `UPDATE fee_bills SET status = 'Y' WHERE period = '${later}' AND hid % 3 = 0`,
      `UPDATE fee_bills SET status = 'N' WHERE period = '${later}' AND hid % 3 = 1`,
      `UPDATE fee_bills SET status = 'E' WHERE period = '${later}' AND hid % 6 = 0`,
      // fees edited, up and down, one set to nothing; a due date moved
      `UPDATE fee_bills SET fee = fee + 0.01 WHERE period = '${later}' AND hid % 5 = 0`,
      `UPDATE fee_bills SET fee = 0 WHERE period = '${later}' AND hid % 7 = 0`,
      `UPDATE fee_bills SET due_date = due_date - 100 WHERE period = '${later}' AND hid % 4 = 1`,
      // moved to another period and paid at once, and back
      `UPDATE fee_bills SET period = '${latest}', status = 'Y' WHERE period = '${later}' AND hid % 2 = 0`,
      `UPDATE fee_bills SET status = 'N' WHERE period = '${latest}' AND hid % 8 = 0`,
      // a bill's item changed (another cost type)
      `UPDATE fee_bills SET cost_type = 'water' WHERE period = '${latest}' AND cost_type = 'property' AND hid % 16 = 0`,
      // deleted (a bill deleted, a failed import undone)
      `DELETE FROM fee_bills WHERE period = '${latest}' AND hid % 4 = 0`,
      // the whole community's bills paid, a room's bills all paid
      `UPDATE fee_bills SET status = 'Y' WHERE rid = 1 AND hid = (SELECT min(hid) FROM fee_bills WHERE rid = 1 AND status <> 'Y')`,
    ];
    for (const step of steps) {
      await run(step);
      await agree(step);
      await checkMethods(step);
    }
    const before = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_unpaid_totals`.execute(t.database.db)).rows[0]!.n);
    await run(`UPDATE fee_bills SET is_check = 'Y' WHERE period = '${latest}'`);
    expect(Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_unpaid_totals`.execute(t.database.db)).rows[0]!.n)).toBe(
      before,
    );
    await run(`DELETE FROM fee_bills WHERE period IN ('${later}', '${latest}')`);
    await agree('deleted');
    await checkMethods('deleted');
    await fold(1);
    await agree('folded');
    await checkMethods('folded');
  });

  it('keep nothing of a change that was rolled back', async () => {
    await t.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`UPDATE fee_bills SET status = 'Y' WHERE period = ${month} AND status <> 'Y'`.execute(trx);
        await sql`SELECT 1/0`.execute(trx);
      })
      .catch(() => undefined);
    await agree('rolled back');
  });

  it('tell a kept row out of step with its bills', async () => {
    await run(`INSERT INTO fee_unpaid_owing (rid, rooms) VALUES (1, 1)`);
    const owing = UNPAID.find((k) => k.table === 'fee_unpaid_owing')!;
    expect((await totalsMismatches(t.database.db, owing)).map((w) => w.source)).toEqual(['table', 'totals']);
    await run(`INSERT INTO fee_unpaid_owing (rid, rooms) VALUES (1, -1)`);
    await agree('repaired');
  });

  it('count a room once however many of its bills a statement pays or reopens', async () => {
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM fee_bills WHERE rid = 1 AND status <> 'Y' AND hid = (
        SELECT hid FROM fee_bills WHERE rid = 1 AND status <> 'Y' GROUP BY hid HAVING count(*) > 1 ORDER BY hid LIMIT 1)
      ORDER BY id`.execute(t.database.db);
    expect(rows.length).toBeGreaterThan(1);
    const ids = rows.map((r) => r.id).join(', ');
    // one of its bills, then the rest, then all of them back
    await run(`UPDATE fee_bills SET status = 'Y' WHERE id = ${rows[0]!.id}`);
    await agree('one bill paid');
    await run(`UPDATE fee_bills SET status = 'Y' WHERE id IN (${ids})`);
    await agree('all paid');
    await checkMethods('all paid');
    await run(`UPDATE fee_bills SET status = 'N' WHERE id IN (${ids})`);
    await agree('reopened');
    await checkMethods('reopened');
  });
});
