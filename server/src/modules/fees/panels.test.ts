import ExcelJS from 'exceljs';
import { addDays, addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let bid: number;
let unit1: number;
let unit2: number;
let roomA: number;

const day = today();
const M = day.slice(0, 7);
const p = (months: number) => addMonths(`${M}-01`, months).slice(0, 7);
const range = { start_period: p(-1), end_period: M };

/**
 * A building of its own in community 1: unit 1 with rooms A and B, unit 2 with room C, property
 * bills of an item charging 1‰ a day late, and receipts taken today.
 *   A: M-14 100.00 unpaid (due 10 days ago: 1.00 late), M-4 50.00 unpaid, M 80.00 paid today
 *   B: M-2 30.00 paid today, M-1 80.00 unpaid, M+1 80.00 paid today (prepaid)
 *   C: M-8 20.00 unpaid
 */
async function fixture() {
  const db = t.database.db;
  const one = async <R>(q: ReturnType<typeof sql<R>>) => (await q.execute(db)).rows[0]!;
  bid = Number((await one(sql<{ id: string }>`INSERT INTO buildings (rid, title, sort) VALUES (1, '面板测试楼', 999) RETURNING id`)).id);
  const unit = async (title: string) =>
    Number((await one(sql<{ id: string }>`INSERT INTO units (rid, bid, title) VALUES (1, ${bid}, ${title}) RETURNING id`)).id);
  unit1 = await unit('1单元');
  unit2 = await unit('2单元');
  const room = async (tid: number, title: string) =>
    Number((await one(sql<{ id: string }>`INSERT INTO rooms (rid, bid, tid, title) VALUES (1, ${bid}, ${tid}, ${title}) RETURNING id`)).id);
  const [a, b, c] = [await room(unit1, 'A'), await room(unit1, 'B'), await room(unit2, 'C')];
  roomA = a;
  const item = Number(
    (
      await one(sql<{ id: string }>`INSERT INTO fee_items (rid, cost_type, title, pricing, unit_price, late_fee_rule, late_fee_rate)
      VALUES (1, 'property', '面板测试物业费', 'fixed', 0, 'daily', 1) RETURNING id`)
    ).id,
  );
  const bill = async (hid: number, tid: number, period: string, fee: string, due: string) =>
    Number(
      (
        await one(sql<{ id: string }>`INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, fee, due_date)
        VALUES (1, ${hid}, ${bid}, ${tid}, ${item}, 'property', '面板测试物业费', ${period}, ${fee}, ${due}::date) RETURNING id`)
      ).id,
    );
  const later = addDays(day, 10);
  await bill(a, unit1, p(-14), '100.00', addDays(day, -10));
  await bill(a, unit1, p(-4), '50.00', later);
  const paidA = await bill(a, unit1, M, '80.00', later);
  const paidB1 = await bill(b, unit1, p(-2), '30.00', later);
  await bill(b, unit1, p(-1), '80.00', later);
  const paidB2 = await bill(b, unit1, p(1), '80.00', later);
  await bill(c, unit2, p(-8), '20.00', later);
  const pay = async (hid: number, key: string, bills: Array<[number, string, string]>) => {
    const total = bills.reduce((s, [, , fee]) => s + Number(fee), 0).toFixed(2);
    const pid = Number(
      (
        await one(sql<{
          id: string;
        }>`INSERT INTO fee_payments (rid, receipt_no, hid, bid, tid, receivable, due, paid_amount, pay_type, idempotency_key)
        VALUES (1, ${key}, ${hid}, ${bid}, ${unit1}, ${total}, ${total}, ${total}, 'cash', ${key}) RETURNING id`)
      ).id,
    );
    for (const [billId, period, fee] of bills) {
      await sql`INSERT INTO fee_payment_items (rid, payment_id, bill_id, title, period, fee, cost_type)
        VALUES (1, ${pid}, ${billId}, '面板测试物业费', ${period}, ${fee}, 'property')`.execute(db);
      await sql`UPDATE fee_bills SET status = 'Y', paid_at = now(), payment_id = ${pid} WHERE rid = 1 AND id = ${billId}`.execute(db);
    }
  };
  await pay(a, 'PANELTEST-A', [[paidA, M, '80.00']]);
  await pay(b, 'PANELTEST-B', [
    [paidB1, p(-2), '30.00'],
    [paidB2, p(1), '80.00'],
  ]);
}

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward] = await t.logins('admin', 'admin2', 'steward');
  await fixture();
});
afterAll(() => t.close());

describe('propertypaycount (物业费收缴统计)', () => {
  it('splits a building and its units into arrears before, receivable, received and its parts', async () => {
    const res = await t.call('propertypaycount', { ...range, bid }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.items).toEqual([
      {
        bid,
        building_title: '面板测试楼',
        tid: 0,
        unit_title: '',
        arrears_before: '200.00',
        receivable: '160.00',
        received: '190.00',
        received_current: '80.00',
        recovered: '30.00',
        prepaid: '80.00',
        rate: '50.00',
      },
      {
        bid,
        building_title: '面板测试楼',
        tid: unit1,
        unit_title: '1单元',
        arrears_before: '180.00',
        receivable: '160.00',
        received: '190.00',
        received_current: '80.00',
        recovered: '30.00',
        prepaid: '80.00',
        rate: '50.00',
      },
      {
        bid,
        building_title: '面板测试楼',
        tid: unit2,
        unit_title: '2单元',
        arrears_before: '20.00',
        receivable: '0.00',
        received: '0.00',
        received_current: '0.00',
        recovered: '0.00',
        prepaid: '0.00',
        rate: '0.00',
      },
    ]);
    expect(res.data.totals).toMatchObject({ arrears_before: '200.00', receivable: '160.00', received: '190.00', rate: '50.00' });
  });

  it('answers the whole community on the demo data, with totals equal to the bills', async () => {
    const res = await t.call('propertypaycount', range, admin);
    const units = res.data.items.filter((r: { tid: number }) => r.tid !== 0);
    expect(units.length).toBeGreaterThan(1);
    const { rows } = await sql<{ s: string }>`SELECT coalesce(sum(fee), 0)::numeric(14,2)::text s FROM fee_bills
      WHERE rid = 1 AND cost_type = 'property' AND period BETWEEN ${range.start_period} AND ${range.end_period}`.execute(t.database.db);
    expect(res.data.totals.receivable).toBe(rows[0]!.s);
  });

  it('refuses other roles, other communities and bad ranges in Chinese', async () => {
    expect((await t.call('propertypaycount', range, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('propertypaycount', { ...range, bid }, admin2)).data.items).toEqual([]);
    const reversed = await t.call('propertypaycount', { start_period: M, end_period: p(-1) }, admin);
    expect([reversed.return_code, reversed.return_msg]).toEqual(['FAIL', '开始账期不能晚于结束账期']);
    expect((await t.call('propertypaycount', { ...range, start_period: '2026-1' }, admin)).return_msg).toContain('账期格式不正确');
    expect((await t.call('propertypaycount', { end_period: M }, admin)).return_code).toBe('FAIL');
  });
});

describe('propertynopaycount (物业费欠费统计)', () => {
  it('ages the unpaid property bills by the end of their period, per building and unit, with late fees', async () => {
    const res = await t.call('propertynopaycount', { bid }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.today).toBe(day);
    const zero = { m0_3: '0.00', m3_6: '0.00', m6_12: '0.00', m12_plus: '0.00' };
    expect(res.data.items).toEqual([
      {
        bid,
        building_title: '面板测试楼',
        tid: 0,
        unit_title: '',
        rooms: 3,
        bill_count: 4,
        m0_3: '80.00',
        m3_6: '50.00',
        m6_12: '20.00',
        m12_plus: '100.00',
        arrears: '250.00',
        late_fee: '1.00',
        total: '251.00',
      },
      {
        bid,
        building_title: '面板测试楼',
        tid: unit1,
        unit_title: '1单元',
        rooms: 2,
        bill_count: 3,
        m0_3: '80.00',
        m3_6: '50.00',
        m6_12: '0.00',
        m12_plus: '100.00',
        arrears: '230.00',
        late_fee: '1.00',
        total: '231.00',
      },
      {
        bid,
        building_title: '面板测试楼',
        tid: unit2,
        unit_title: '2单元',
        rooms: 1,
        bill_count: 1,
        ...zero,
        m6_12: '20.00',
        arrears: '20.00',
        late_fee: '0.00',
        total: '20.00',
      },
    ]);
    expect(res.data.totals).toMatchObject({ rooms: 3, arrears: '250.00', total: '251.00' });
  });

  it('totals the community as its unpaid property bills; refuses others', async () => {
    const res = await t.call('propertynopaycount', {}, admin);
    const { rows } = await sql<{ s: string }>`SELECT coalesce(sum(fee), 0)::numeric(14,2)::text s FROM fee_bills
      WHERE rid = 1 AND cost_type = 'property' AND status <> 'Y'`.execute(t.database.db);
    expect(res.data.totals.arrears).toBe(rows[0]!.s);
    expect((await t.call('propertynopaycount', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('propertynopaycount', { bid }, admin2)).data.items).toEqual([]);
    const bad = await t.call('propertynopaycount', { bid: 'x' }, admin);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('the panels export', () => {
  it('writes each panel to Excel with its subtotal and total rows', async () => {
    for (const [c, expected] of [
      [{ report: 'propertypaycount', ...range, bid }, ['面板测试楼', '1单元', '180.00']],
      [{ report: 'propertynopaycount', bid }, ['面板测试楼', '1单元', 2]],
    ] as const) {
      const res = await t.exportFile('feereportexport', c, admin);
      expect(res.return_code).toBe('SUCCESS');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      expect(ws.rowCount).toBe(5);
      expect((ws.getRow(3).values as unknown[]).slice(1, 4)).toEqual(expected);
      expect(ws.getRow(5).getCell(1).value).toBe('合计');
    }
    const reversed = await t.exportFile('feereportexport', { report: 'propertypaycount', start_period: M, end_period: p(-1) }, admin);
    expect(reversed.return_msg).toBe('开始账期不能晚于结束账期');
  });
});

describe('month_linting (月度收缴明细)', () => {
  it("lists a month's bills of a building with what was paid and when, totals the filter", async () => {
    const res = await t.call('month_linting', { period: p(-1), bid }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.total).toBe(1);
    expect(res.data.items[0]).toMatchObject({
      address: expect.stringContaining('B'),
      title: '面板测试物业费',
      period: p(-1),
      receivable: '80.00',
      received: '0.00',
      unpaid: '80.00',
      status: 'E',
      status_ch: '待缴',
      paid_time: '',
    });
    const paid = await t.call('month_linting', { period: M, bid, tid: unit1, status: 'Y' }, admin);
    expect(paid.data.items).toHaveLength(1);
    expect(paid.data.items[0]).toMatchObject({ receivable: '80.00', received: '80.00', unpaid: '0.00', status_ch: '已缴' });
    expect(paid.data.items[0].paid_time).toMatch(new RegExp(`^${day} \\d{2}:\\d{2}:\\d{2}$`));
    expect(paid.data.totals).toEqual({ receivable: '80.00', received: '80.00', unpaid: '0.00' });
    expect((await t.call('month_linting', { period: M, bid, tid: unit2 }, admin)).data.total).toBe(0);
  });

  it('pages the demo month with totals equal to its bills; refuses others', async () => {
    const res = await t.call('month_linting', { period: M, limit: 10 }, admin);
    expect(res.data.items).toHaveLength(10);
    const { rows } = await sql<{ n: number; s: string }>`SELECT count(*)::int n, coalesce(sum(fee), 0)::numeric(14,2)::text s
      FROM fee_bills WHERE rid = 1 AND period = ${M}`.execute(t.database.db);
    expect([res.data.total, res.data.totals.receivable]).toEqual([rows[0]!.n, rows[0]!.s]);
    expect(res.data.items.every((r: { owner_name: string }) => typeof r.owner_name === 'string')).toBe(true);
    expect((await t.call('month_linting', { period: M }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('month_linting', { period: M, bid }, admin2)).data.total).toBe(0);
    expect((await t.call('month_linting', { period: '2026-13' }, admin)).return_msg).toContain('账期格式不正确');
    expect((await t.call('month_linting', { period: M, status: 'X' }, admin)).return_code).toBe('FAIL');
  });

  it('exports the filtered month', async () => {
    const res = await t.exportFile('feereportexport', { report: 'month_linting', period: M, bid }, admin);
    expect(res.return_code).toBe('SUCCESS');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(2);
    expect((ws.getRow(2).values as unknown[]).slice(3, 8)).toEqual(['面板测试物业费', M, '80.00', '80.00', '0.00']);
  });
});

describe('conbill (合并账单)', () => {
  it('combines a room without an owner alone, with late fees today, by period range', async () => {
    const res = await t.call('conbill', { hid: roomA }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.rooms).toHaveLength(1);
    expect(res.data.rooms[0].bills.map((b: { period: string; total: string }) => [b.period, b.total])).toEqual([
      [p(-14), '101.00'],
      [p(-4), '50.00'],
    ]);
    expect(res.data.totals).toEqual({ fee: '150.00', late_fee: '1.00', total: '151.00', bill_count: 2 });
    const ranged = await t.call('conbill', { hid: roomA, start_period: p(-5), end_period: M }, admin);
    expect(ranged.data.totals).toEqual({ fee: '50.00', late_fee: '0.00', total: '50.00', bill_count: 1 });
  });

  it("combines every room of an owner's, with subtotals that add up to the total", async () => {
    const owner = (
      await sql<{ member_id: string; hid: string; n: number }>`SELECT member_id, min(hid) hid, count(*)::int n FROM room_members
        WHERE rid = 1 AND relation = 'owner' AND status = 'Y' GROUP BY member_id HAVING count(*) > 1 ORDER BY member_id LIMIT 1`.execute(
        t.database.db,
      )
    ).rows[0]!;
    const res = await t.call('conbill', { hid: Number(owner.hid) }, admin);
    const expected = await sql<{ s: string; n: number }>`SELECT coalesce(sum(fee), 0)::numeric(14,2)::text s, count(*)::int n FROM fee_bills
      WHERE rid = 1 AND status <> 'Y' AND hid IN (SELECT hid FROM room_members WHERE rid = 1 AND member_id = ${owner.member_id}
        AND relation = 'owner' AND status = 'Y')`.execute(t.database.db);
    expect([res.data.totals.fee, res.data.totals.bill_count]).toEqual([expected.rows[0]!.s, expected.rows[0]!.n]);
    expect(res.data.owner_name).not.toBe('');
    const sum = res.data.rooms.reduce((s: number, r: { subtotal: { total: string } }) => s + Math.round(Number(r.subtotal.total) * 100), 0);
    expect((sum / 100).toFixed(2)).toBe(res.data.totals.total);
  });

  it('refuses other roles, other communities and bad payloads in Chinese', async () => {
    expect((await t.call('conbill', { hid: roomA }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('conbill', { hid: roomA }, admin2)).return_msg).toBe('房屋不存在');
    const reversed = await t.call('conbill', { hid: roomA, start_period: M, end_period: p(-1) }, admin);
    expect(reversed.return_msg).toBe('开始账期不能晚于结束账期');
    const bad = await t.call('conbill', {}, admin);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});
