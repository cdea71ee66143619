import fc from 'fast-check';
import { daysBetween, fenToYuan, mulDivRoundHalfUp, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { scaled } from './calc.js';

let t: TestServer;
let admin: string;
let cashier: string;

beforeAll(async () => {
  t = await startTestServer();
  [admin, cashier] = await t.logins('admin', 'cashier');
});
afterAll(() => t.close());

interface Rule {
  late_fee_rule: 'none' | 'daily';
  late_fee_rate: string;
  late_fee_grace_days: number;
  late_fee_cap_percent: number;
}

/** The late-fee rule in integers: fee x rate‰ a day past due and grace, half up to the fen, capped at cap % of the fee. */
function expectedLateFen(feeFen: bigint, due: string, on: string, r: Rule): bigint {
  if (r.late_fee_rule !== 'daily') return 0n;
  const days = Math.max(0, daysBetween(due, on) - r.late_fee_grace_days);
  if (days === 0) return 0n;
  const late = mulDivRoundHalfUp(feeFen, scaled(r.late_fee_rate, 4) * BigInt(days), 10_000_000n);
  if (r.late_fee_cap_percent === 0) return late;
  const cap = mulDivRoundHalfUp(feeFen, BigInt(r.late_fee_cap_percent), 100n);
  return late < cap ? late : cap;
}

const lateFee = async (fee: string, due: string, on: string, r: Rule) =>
  (
    await sql<{
      late: string;
    }>`SELECT fee_late_fee(${fee}::numeric, ${due}::date, ${on}::date, ${r.late_fee_rule}, ${r.late_fee_rate}::numeric,
      ${r.late_fee_grace_days}::int, ${r.late_fee_cap_percent}::int)::numeric(14,2)::text AS late`.execute(t.database.db)
  ).rows[0]!.late;

describe('fee_late_fee: the one late-fee computation', () => {
  const rule: Rule = { late_fee_rule: 'daily', late_fee_rate: '0.5', late_fee_grace_days: 5, late_fee_cap_percent: 10 };

  it('charges rate‰ a day after the grace days, rounded half up and capped', async () => {
    expect(await lateFee('1000.00', '2026-01-10', '2026-01-15', rule)).toBe('0.00');
    expect(await lateFee('1000.00', '2026-01-10', '2026-01-16', rule)).toBe('0.50');
    expect(await lateFee('1000.00', '2026-01-10', '2027-01-10', rule)).toBe('100.00');
    expect(await lateFee('1000.00', '2026-01-10', '2027-01-10', { ...rule, late_fee_cap_percent: 0 })).toBe('180.00');
    expect(await lateFee('1000.00', '2026-01-10', '2027-01-10', { ...rule, late_fee_rule: 'none' })).toBe('0.00');
    // 0.01 x 0.5‰ x 1000 days = 0.005: half a fen rounds up
    expect(await lateFee('0.01', '2026-01-10', '2028-10-06', { ...rule, late_fee_grace_days: 0, late_fee_cap_percent: 0 })).toBe('0.01');
  });

  it('is exact to the fen for any fee, rate, days and cap', async () => {
    const cases = fc.sample(
      fc.record({
        fen: fc.bigInt({ min: 0n, max: 1_000_000_000n }),
        days: fc.integer({ min: -30, max: 3000 }),
        rate: fc.integer({ min: 0, max: 99_999 }),
        grace: fc.integer({ min: 0, max: 60 }),
        cap: fc.integer({ min: 0, max: 1000 }),
        daily: fc.boolean(),
      }),
      400,
    );
    const due = '2026-01-10';
    const on = (days: number) => new Date(Date.UTC(2026, 0, 10) + days * 86_400_000).toISOString().slice(0, 10);
    const rules = cases.map((c) => ({
      late_fee_rule: c.daily ? ('daily' as const) : ('none' as const),
      late_fee_rate: `${Math.floor(c.rate / 10_000)}.${String(c.rate % 10_000).padStart(4, '0')}`,
      late_fee_grace_days: c.grace,
      late_fee_cap_percent: c.cap,
    }));
    const { rows } = await sql<{ late: string }>`SELECT fee_late_fee(f, ${due}::date, d, r, rt, g, cp)::numeric(14,2)::text AS late
      FROM unnest(${cases.map((c) => fenToYuan(c.fen))}::numeric[], ${cases.map((c) => on(c.days))}::date[],
        ${rules.map((r) => r.late_fee_rule)}::text[], ${rules.map((r) => r.late_fee_rate)}::numeric[],
        ${rules.map((r) => r.late_fee_grace_days)}::int[], ${rules.map((r) => r.late_fee_cap_percent)}::int[])
        WITH ORDINALITY AS x(f, d, r, rt, g, cp, n) ORDER BY n`.execute(t.database.db);
    const wrong = cases
      .map((c, i) => [c, rows[i]!.late, fenToYuan(expectedLateFen(c.fen, due, on(c.days), rules[i]!))] as const)
      .filter(([, got, want]) => got !== want);
    expect(wrong).toEqual([]);
  });
});

describe('one arrears figure (issue 34)', () => {
  it('the drawer, the owner search, the cashier, the bill list, the arrears report and the dunning notice agree on 1号楼1单元1101', async () => {
    const found = await t.call('getkeywordtohouses', { keywords: '13800138000' }, cashier);
    const home = found.data.items.find((i: { address: string }) => i.address === '1号楼1单元1101');
    const room = { rid: home.rid, bid: home.bid, tid: home.tid, hid: home.hid };
    const desk = (await t.call('cashierbills', { hid: room.hid }, cashier)).data;
    // the demo's overdue month carries a late fee, which the drawer once left out
    expect(toFen(desk.totals.late_fee)).toBeGreaterThan(0n);
    const arrears = {
      bill_count: desk.items.length,
      fee: desk.totals.receivable,
      late_fee: desk.totals.late_fee,
      total: desk.totals.total,
    };
    const drawer = (await t.call('houseinfoplus', room, cashier)).data.items;
    expect(drawer.gel_fee).toBe(desk.totals.total);
    expect(drawer.arrears).toEqual(arrears);
    expect(home.arrears).toEqual(arrears);
    // the bill list's late fees of the room's unpaid bills, the bills the cashier lists
    const listed = (await t.call('feebilllist', { hid: room.hid, limit: 200 }, cashier)).data.items.filter(
      (b: { status: string }) => b.status !== 'Y',
    );
    expect(listed.map((b: { id: number; late_fee: string }) => [b.id, b.late_fee]).sort()).toEqual(
      desk.items.map((b: { id: number; late_fee: string }) => [b.id, b.late_fee]).sort(),
    );
    // the arrears report and the dunning list name both parts and their sum
    const report = (await t.call('fees_count_nopay', { keyword: '1号楼1单元1101' }, admin)).data.items;
    expect(report.find((r: { hid: number }) => r.hid === room.hid)).toMatchObject({
      arrears: arrears.fee,
      late_fee: arrears.late_fee,
      total: arrears.total,
    });
    const call = (await t.call('feebillcall', { keyword: '1号楼1单元1101' }, admin)).data.items;
    expect(call.find((r: { hid: number }) => r.hid === room.hid)).toMatchObject({ total: arrears.total });
    const notice = (await t.call('print_billcall', { hids: [room.hid] }, admin)).data.notices[0];
    expect(notice).toMatchObject({ arrears: arrears.fee, late_fee: arrears.late_fee, total: arrears.total });
  });

  it('what a payment charges as late fee is what the desk showed', async () => {
    const { rows } = await sql<{ hid: number }>`SELECT b.hid FROM fee_bills b JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
      WHERE b.rid = 1 AND b.status = 'N' AND i.late_fee_rule = 'daily' ORDER BY b.hid DESC LIMIT 1`.execute(t.database.db);
    const hid = rows[0]!.hid;
    const desk = (await t.call('cashierbills', { hid }, cashier)).data;
    const paid = await t.call(
      'cashierpay',
      {
        hid,
        bill_ids: desk.items.map((b: { id: number }) => b.id),
        pay_type: 'cash',
        paid_amount: desk.totals.total,
        idempotency_key: `arrears-${hid}`,
      },
      cashier,
    );
    expect(paid.data).toMatchObject({ receivable: desk.totals.receivable, late_fee: desk.totals.late_fee, total: desk.totals.total });
    const after = (await t.call('houseinfoplus', { hid }, cashier)).data.items;
    expect(after.arrears).toEqual({ bill_count: 0, fee: '0.00', late_fee: '0.00', total: '0.00' });
    expect(after.gel_fee).toBe('0.00');
  });
});
