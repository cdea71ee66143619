import ExcelJS from 'exceljs';
import { addMonths, fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { rate } from './reports.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
const month = today().slice(0, 7);
const first = addMonths(`${month}-01`, -2).slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

const sumBills = async (where: string) => {
  const r = await sql<{
    s: string;
  }>`SELECT coalesce(sum(fee), 0)::numeric(14,2)::text s FROM fee_bills WHERE rid = 1 AND ${sql.raw(where)}`.execute(t.database.db);
  return r.rows[0]!.s;
};

describe('collection reports', () => {
  it('fees_count adds up to the bills', async () => {
    const res = await t.call('fees_count', { start_period: first, end_period: month }, admin);
    expect(res.return_code).toBe('SUCCESS');
    const prev = addMonths(`${month}-01`, -1).slice(0, 7);
    const rows = (title: string) =>
      res.data.items.filter((r: { title: string }) => r.title === title).map((r: { period: string }) => r.period);
    expect(rows('物业服务费')).toEqual([first, prev, month]);
    // the demo's water bills of last month and parking bills of this month
    expect([rows('生活用水'), rows('地下车位管理费')]).toEqual([[prev], [month]]);
    expect(res.data.totals.receivable).toBe(await sumBills(`period BETWEEN '${first}' AND '${month}'`));
    expect(res.data.totals.received).toBe(await sumBills(`period BETWEEN '${first}' AND '${month}' AND status = 'Y'`));
    expect(res.data.totals.rate).toBe(rate(res.data.totals.received, res.data.totals.receivable));
    expect(Number(res.data.items[0].rate)).toBeGreaterThan(80);
    // 翠湖苑's own (its activities' sign-up bills), none of 阳光花园's items
    const theirs = (await t.call('fees_count', { start_period: first, end_period: month }, admin2)).data.items as Array<{ title: string }>;
    expect(theirs.filter((r) => ['物业服务费', '生活用水', '地下车位管理费'].includes(r.title))).toEqual([]);
    expect((await t.call('fees_count', { start_period: first, end_period: month }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('fees_count', { start_period: '2026-1', end_period: month }, admin)).return_msg).toContain('账期格式不正确');
  });

  it('fees_count sets 已开票 and 未开票 against what was received, per row and in all (issue 41)', async () => {
    type Row = { item_id: number; period: string; cost_type?: string; received: string; invoiced: string; uninvoiced: string };
    const range = { start_period: first, end_period: month };
    const report = async (extra: Record<string, unknown> = {}) => {
      const res = await t.call('fees_count', { ...range, ...extra }, admin);
      expect(res.return_code, res.return_msg).toBe('SUCCESS');
      return res.data as { items: Row[]; totals: Omit<Row, 'item_id' | 'period'> };
    };
    const addsUp = (r: { items: Row[]; totals: Omit<Row, 'item_id' | 'period'> }) => {
      for (const row of [...r.items, r.totals]) expect(toFen(row.uninvoiced)).toBe(toFen(row.received) - toFen(row.invoiced));
      expect(fenToYuan(r.items.reduce((s, row) => s + toFen(row.invoiced), 0n))).toBe(r.totals.invoiced);
      expect(fenToYuan(r.items.reduce((s, row) => s + toFen(row.uninvoiced), 0n))).toBe(r.totals.uninvoiced);
    };
    const before = await report();
    addsUp(before);
    // the lines that paid two paid bills of the range, of two rows
    const line = (where: string) =>
      sql<{ id: number; item_id: number; period: string; cost_type: string }>`
        SELECT l.id, b.item_id, b.period, b.cost_type FROM fee_payment_items l
        JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id AND b.payment_id = l.payment_id
        WHERE l.rid = 1 AND b.status = 'Y' AND l.refunded = 'N' AND ${sql.raw(where)} ORDER BY l.id LIMIT 1`
        .execute(t.database.db)
        .then((r) => r.rows[0]!);
    const a = await line(`b.period = '${month}'`);
    const b = await line(`b.period BETWEEN '${first}' AND '${month}' AND (b.item_id, b.period) <> (${a.item_id}, '${a.period}')`);
    const setInvoiced = async (id: number, amount: string) =>
      sql`UPDATE fee_payment_items SET invoiced = ${amount} WHERE rid = 1 AND id = ${id}`.execute(t.database.db);
    await setInvoiced(a.id, '10.00');
    await setInvoiced(b.id, '2.55');
    const after = await report();
    addsUp(after);
    const rowOf = (r: { items: Row[] }, x: { item_id: number; period: string }) =>
      r.items.find((i) => i.item_id === x.item_id && i.period === x.period)!;
    for (const [x, fen] of [
      [a, 1000n],
      [b, 255n],
    ] as const) {
      expect(rowOf(after, x).received).toBe(rowOf(before, x).received);
      expect(toFen(rowOf(after, x).invoiced) - toFen(rowOf(before, x).invoiced)).toBe(fen);
    }
    expect(after.totals.received).toBe(before.totals.received);
    expect(toFen(after.totals.invoiced) - toFen(before.totals.invoiced)).toBe(1255n);
    expect(toFen(before.totals.uninvoiced) - toFen(after.totals.uninvoiced)).toBe(1255n);
    // a range, a cost type and an item narrow it as they narrow what was received
    const ofPeriod = await report({ start_period: a.period, end_period: a.period });
    addsUp(ofPeriod);
    expect(ofPeriod.items.every((i) => i.period === a.period)).toBe(true);
    expect(
      toFen(ofPeriod.totals.invoiced) -
        toFen(before.items.filter((i) => i.period === a.period).reduce((s, i) => s + toFen(i.invoiced), 0n)),
    ).toBe(a.period === b.period ? 1255n : 1000n);
    const ofType = await report({ cost_type: a.cost_type });
    addsUp(ofType);
    expect(toFen(rowOf(ofType, a).invoiced)).toBe(toFen(rowOf(after, a).invoiced));
    const ofItem = await report({ itemid: a.item_id });
    addsUp(ofItem);
    expect(ofItem.items.every((i) => i.item_id === a.item_id)).toBe(true);
    expect(rowOf(ofItem, a).invoiced).toBe(rowOf(after, a).invoiced);
    // and the export has them, its 合计 row included
    const file = await t.exportFile('feereportexport', { report: 'fees_count', ...range }, admin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(-2)).toEqual(['已开票', '未开票']);
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
    expect([last[0], ...last.slice(-2).map(String)]).toEqual(['合计', after.totals.invoiced, after.totals.uninvoiced]);
    for (const id of [a.id, b.id]) await setInvoiced(id, '0');
    expect((await report()).totals).toEqual(before.totals);
  });

  it('fees_count_nopay ages the arrears by room and totals them', async () => {
    const res = await t.call('fees_count_nopay', { limit: 5 }, admin);
    expect(res.data.items).toHaveLength(5);
    expect(res.data.totals.arrears).toBe(await sumBills(`status <> 'Y'`));
    const row = res.data.items[0];
    const buckets = ['d0_30', 'd31_90', 'd91_180', 'd181_365', 'd365_plus'].reduce((s, k) => s + toFen(row[k]), 0n);
    expect(fenToYuan(buckets)).toBe(row.arrears);
    expect(toFen(row.arrears) >= toFen(res.data.items[4].arrears)).toBe(true);
    // 翠湖苑's rooms owing (its activities' unpaid sign-ups), none of 阳光花园's
    const owing = await sql<{ n: number }>`SELECT count(DISTINCT hid)::int AS n FROM fee_bills WHERE rid = 2 AND status <> 'Y'`.execute(
      t.database.db,
    );
    expect((await t.call('fees_count_nopay', {}, admin2)).data.total).toBe(owing.rows[0]!.n);
    expect((await t.call('fees_count_nopay', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });

  it('month_fees, propertypaystatis and the dashboard card agree with the bills', async () => {
    const year = Number(month.slice(0, 4));
    const m = await t.call('month_fees', { year }, admin);
    expect(m.data.items).toHaveLength(12);
    const thisMonth = m.data.items.find((r: { month: string }) => r.month === month);
    expect(thisMonth.receivable).toBe(await sumBills(`period = '${month}'`));
    // every month's figures, each summed on its own by the month's text
    const byMonth = await sql<{ month: string; receivable: string; received: string; collected: string; refunded: string }>`
      SELECT m.month,
        (SELECT coalesce(sum(fee), 0) FROM fee_bills WHERE rid = 1 AND period = m.month)::numeric(14,2)::text AS receivable,
        (SELECT coalesce(sum(fee), 0) FROM fee_bills WHERE rid = 1 AND period = m.month AND status = 'Y')::numeric(14,2)::text AS received,
        (SELECT coalesce(sum(paid_amount), 0) FROM fee_payments WHERE rid = 1 AND status <> 'V' AND to_char(created_at, 'YYYY-MM') = m.month)::numeric(14,2)::text AS collected,
        (SELECT coalesce(sum(amount), 0) FROM fee_refunds WHERE rid = 1 AND status = 'Y' AND to_char(approved_at, 'YYYY-MM') = m.month)::numeric(14,2)::text AS refunded
      FROM (SELECT to_char(make_date(${year}::int, n, 1), 'YYYY-MM') AS month FROM generate_series(1, 12) n) m ORDER BY m.month`.execute(
      t.database.db,
    );
    expect(m.data.items.map(({ rate: _, ...r }: { rate: string }) => r)).toEqual(byMonth.rows);
    expect(byMonth.rows.some((r) => Number(r.collected) > 0)).toBe(true);
    const p = await t.call('propertypaystatis', { period: first }, admin);
    expect(p.data.totals.receivable).toBe(await sumBills(`period = '${first}' AND cost_type = 'property'`));
    expect(p.data.items[0]).toMatchObject({ building_title: '1号楼' });
    // the card's figures are the fee roles' (contract/home.ts); a steward's home page shows none
    expect((await t.call('feedashboard', {}, steward)).return_code).toBe('NO_PERMISSION');
    const d = await t.call('feedashboard', {}, cashier);
    expect(d.data).toMatchObject({ month, receivable: thisMonth.receivable });
    expect(d.data.top_arrears.length).toBeGreaterThan(0);
    // the demo has this month's bills partly paid already (a card of ¥0.00 looks broken), none after now
    expect(d.data.received).toBe(await sumBills(`period = '${month}' AND status = 'Y'`));
    expect(Number(d.data.received)).toBeGreaterThan(0);
    const future = await sql<{ n: number }>`SELECT count(*)::int n FROM fee_payments WHERE created_at > now()`.execute(t.database.db);
    expect(future.rows[0]!.n).toBe(0);
    expect((await t.call('month_fees', { year: 1999 }, admin)).return_msg).toContain('year');
  });
});

describe('payment reports', () => {
  it('paymentstatis sums equal the payments; financereport nets them', async () => {
    const range = { start_date: addMonths(today(), -4), end_date: today() };
    for (const group_by of ['pay_type', 'cashier', 'day']) {
      const res = await t.call('paymentstatis', { ...range, group_by }, admin);
      const all = await sql<{
        s: string;
        n: number;
      }>`SELECT coalesce(sum(paid_amount), 0)::numeric(14,2)::text s, count(*)::int n FROM fee_payments WHERE rid = 1 AND status <> 'V'`.execute(
        t.database.db,
      );
      expect(res.data.total_amount).toBe(all.rows[0]!.s);
      expect(res.data.total_count).toBe(all.rows[0]!.n);
    }
    const f = await t.call('financereport', range, admin);
    expect(f.data.collected).toBe((await t.call('paymentstatis', range, admin)).data.total_amount);
    expect(f.data.by_pay_type.length).toBeGreaterThan(0);
    expect((await t.call('financereport', range, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('paymentstatis', { ...range, group_by: 'x' }, admin)).return_msg).toContain('group_by');
    const log = await t.call('propertypaylog', {}, admin);
    expect(log.data.total).toBeGreaterThan(0);
    expect((await t.call('propertypaylog', {}, admin2)).data.total).toBe(0);
  });

  it('counts in 实收 only the pay types the group counts (支付方式): 收款统计 and 财务报表 say what they took', async () => {
    const range = { start_date: addMonths(today(), -4), end_date: today() };
    const leader = await t.login('leader');
    const cashRow = (items: Array<{ key: string; amount: string; label: string; counted: string }>) => items.find((r) => r.key === 'cash')!;
    // by default every method but 余额 counts
    const all = (await t.call('paymentstatis', range, admin)).data;
    const balance = all.items.find((r: { key: string }) => r.key === 'balance')?.amount ?? '0.00';
    expect(all.counted_amount).toBe(fenToYuan(toFen(all.total_amount) - toFen(balance)));
    expect(cashRow(all.items)).toMatchObject({ label: '现金', counted: 'Y' });
    const cash = cashRow(all.items).amount;
    expect(toFen(cash)).toBeGreaterThan(0n);

    const edit = (counted: 'Y' | 'N') =>
      t.call('paytypeedit', { pay_type: 'cash', enabled: 'Y', counted, ref_required: 'N', sort: 1, remark: '' }, leader, 'group');
    expect((await edit('N')).return_code).toBe('SUCCESS');
    try {
      for (const group_by of ['pay_type', 'cashier', 'day']) {
        const res = (await t.call('paymentstatis', { ...range, group_by }, admin)).data;
        expect(res.total_amount).toBe(all.total_amount);
        expect(res.counted_amount, group_by).toBe(fenToYuan(toFen(all.counted_amount) - toFen(cash)));
      }
      const byType = (await t.call('paymentstatis', range, admin)).data;
      expect(cashRow(byType.items)).toMatchObject({ label: '现金（不计入实收）', counted: 'N' });
      const f = (await t.call('financereport', range, admin)).data;
      expect(f.counted_collected).toBe(fenToYuan(toFen(f.collected) - toFen(cash) - toFen(balance)));
      expect(f.by_pay_type.find((r: { pay_type: string }) => r.pay_type === 'cash')).toMatchObject({
        counted: 'N',
        label: '现金（不计入实收）',
      });
      // the export says it too
      const file = await t.exportFile('feereportexport', { report: 'paymentstatis', ...range, group_by: 'pay_type' }, admin);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(file.data.content_base64, 'base64') as unknown as ArrayBuffer);
      const cells: string[] = [];
      book.worksheets[0]!.eachRow((row) => (row.values as unknown[]).forEach((v) => cells.push(String(v))));
      expect(cells).toContain('现金（不计入实收）');
      expect(cells).toContain('其中计入实收');
    } finally {
      expect((await edit('Y')).return_code).toBe('SUCCESS');
    }
  });

  it('propertypaylog lists and counts the property lines of the receipts, as their bills say', async () => {
    const range = { start_date: addMonths(today(), -1), end_date: today() };
    const keyword = (await sql<{ title: string }>`SELECT title FROM buildings WHERE rid = 1 ORDER BY id LIMIT 1`.execute(t.database.db))
      .rows[0]!.title;
    // the lines counted by joining every line's bill and room, as the log read them before 013
    const joined = async (where: string) =>
      (
        await sql<{ n: number; page: string[] }>`
      SELECT count(*)::int n, (array_agg(p.receipt_no || ' ' || pi.title || ' ' || pi.period ORDER BY pi.id DESC))[1:10] page
      FROM fee_payment_items pi JOIN fee_payments p ON p.rid = pi.rid AND p.id = pi.payment_id
      JOIN fee_bills b ON b.rid = pi.rid AND b.id = pi.bill_id
      JOIN rooms r ON r.rid = p.rid AND r.id = p.hid JOIN units u ON u.rid = p.rid AND u.id = p.tid JOIN buildings bd ON bd.rid = p.rid AND bd.id = p.bid
      WHERE pi.rid = 1 AND b.cost_type = 'property' AND ${sql.raw(where)}`.execute(t.database.db)
      ).rows[0]!;
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'true'],
      [range, `p.created_at >= '${range.start_date}'::date AND p.created_at < '${range.end_date}'::date + 1`],
      [{ keyword }, `(p.payer_name ILIKE '%${keyword}%' OR bd.title || u.title || r.title ILIKE '%${keyword}%')`],
      [
        { ...range, keyword },
        `p.created_at >= '${range.start_date}'::date AND p.created_at < '${range.end_date}'::date + 1
        AND (p.payer_name ILIKE '%${keyword}%' OR bd.title || u.title || r.title ILIKE '%${keyword}%')`,
      ],
    ];
    for (const [filters, where] of cases) {
      const expected = await joined(where);
      const res = await t.call('propertypaylog', { ...filters, sort: 'desc' }, admin);
      expect(res.data.total, JSON.stringify(filters)).toBe(expected.n);
      expect(expected.n, JSON.stringify(filters)).toBeGreaterThan(10);
      expect(
        res.data.items.map((r: { receipt_no: string; title: string; period: string }) => `${r.receipt_no} ${r.title} ${r.period}`),
        JSON.stringify(filters),
      ).toEqual(expected.page);
    }
    // a voided receipt's lines stay listed, marked 已作废
    const voided = await sql<{ payment_id: number }>`
      SELECT pi.payment_id FROM fee_payment_items pi JOIN fee_payments p ON p.rid = pi.rid AND p.id = pi.payment_id
      WHERE pi.rid = 1 AND pi.cost_type = 'property' AND p.status = 'V' LIMIT 1`.execute(t.database.db);
    expect(voided.rows.length, 'the demo has a voided receipt with property lines').toBe(1);
    const onVoided = await sql<{ receipt_no: string; payer_name: string }>`
      SELECT receipt_no, payer_name FROM fee_payments WHERE rid = 1 AND id = ${voided.rows[0]!.payment_id}`.execute(t.database.db);
    const marked = await t.call('propertypaylog', { keyword: onVoided.rows[0]!.payer_name, limit: 100, sort: 'desc' }, admin);
    expect(marked.return_code, marked.return_msg).toBe('SUCCESS');
    const lines = marked.data.items as Array<{ payment_id: number; voided: boolean }>;
    expect(lines.filter((r) => r.payment_id === voided.rows[0]!.payment_id).map((r) => r.voided)).toContain(true);
    expect(lines.filter((r) => r.payment_id === voided.rows[0]!.payment_id).every((r) => r.voided)).toBe(true);
    // by payer, whole or in part, literally, and nothing for a name no receipt has
    const payer = (
      await sql<{ payer_name: string }>`SELECT payer_name FROM fee_payments WHERE rid = 1 AND payer_name <> '' ORDER BY id LIMIT 1`.execute(
        t.database.db,
      )
    ).rows[0]!.payer_name;
    for (const word of [payer, payer.slice(-1), '%', '不存在的人']) {
      const has = (text: string) => `strpos(lower(${text}), lower('${word}')) > 0`;
      const expected = await joined(`(${has('p.payer_name')} OR ${has('bd.title || u.title || r.title')})`);
      const res = await t.call('propertypaylog', { keyword: word, sort: 'desc' }, admin);
      expect([word, res.data.total]).toEqual([word, expected.n]);
      expect(
        res.data.items.map((r: { receipt_no: string; title: string; period: string }) => `${r.receipt_no} ${r.title} ${r.period}`),
        word,
      ).toEqual(expected.page ?? []);
    }
  });

  it('exports each report to Excel', async () => {
    const cases = [
      { report: 'fees_count', start_period: first, end_period: month },
      { report: 'fees_count_nopay' },
      { report: 'month_fees', year: Number(month.slice(0, 4)) },
      { report: 'paymentstatis', start_date: addMonths(today(), -4), end_date: today() },
      { report: 'propertypaystatis', period: first },
    ];
    for (const c of cases) {
      const res = await t.exportFile('feereportexport', c, admin);
      expect(res.return_code).toBe('SUCCESS');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
      expect(wb.worksheets[0]!.rowCount).toBeGreaterThan(1);
    }
    expect((await t.exportFile('feereportexport', { report: 'nope' }, admin)).return_code).toBe('FAIL');
    expect((await t.exportFile('feereportexport', cases[1]!, steward)).return_code).toBe('NO_PERMISSION');
  });
});
