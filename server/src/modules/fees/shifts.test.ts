import { fenToYuan, toFen } from '@wuye/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let finance: string;
let steward: string;
let n = 0;
const key = () => `shift-test-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier, finance, steward] = await t.logins('admin', 'admin2', 'cashier', 'finance', 'steward');
});
afterAll(() => t.close());

type Bill = { id: number; total: string };
const used = new Set<number>();
async function payOne(payType: string) {
  const rows = await t.database.db
    .selectFrom('fee_bills')
    .select('hid')
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .groupBy('hid')
    .orderBy('hid')
    .execute();
  const hid = rows.map((r) => r.hid).find((h) => !used.has(h))!;
  used.add(hid);
  const bill = ((await t.call('cashierbills', { hid }, cashier)).data.items as Bill[])[0]!;
  const pay = await t.call(
    'cashierpay',
    { hid, bill_ids: [bill.id], pay_type: payType, paid_amount: bill.total, idempotency_key: key() },
    cashier,
  );
  expect(pay.return_code).toBe('SUCCESS');
  return pay.data as { id: number; receipt_no: string; paid_amount: string };
}

describe("the cashier's hand-over (交班, issue 34)", () => {
  it('sums the shift by method with voids beside, hands over once, and starts the next shift', async () => {
    // whatever the demo left in the cashier's shift is handed over first
    const start = await t.call('shiftcurrent', {}, cashier);
    expect(start.return_code).toBe('SUCCESS');
    if (!start.data.empty) expect((await t.call('shifthandover', { idempotency_key: key() }, cashier)).return_code).toBe('SUCCESS');
    const empty = await t.call('shiftcurrent', {}, cashier);
    expect(empty.data).toMatchObject({ empty: true, receipts: 0, receipts_amount: '0.00', methods: [], items: [] });
    expect((await t.call('shifthandover', { idempotency_key: key() }, cashier)).return_msg).toBe('本班次没有收款、退款或作废，无需交班');

    const a = await payOne('cash');
    const b = await payOne('wechat');
    const c = await payOne('cash');
    expect((await t.call('paymentvoid', { id: c.id, reason: '收错' }, cashier)).return_code).toBe('SUCCESS');
    const now = (await t.call('shiftcurrent', {}, cashier)).data;
    expect(now).toMatchObject({
      empty: false,
      cashier_name: '赵收银',
      receipts: 2,
      receipts_amount: fenToYuan(toFen(a.paid_amount) + toFen(b.paid_amount)),
      voided: 1,
      voided_amount: c.paid_amount,
      refunds: 0,
    });
    expect(now.methods).toEqual([
      { pay_type: 'cash', pay_type_ch: '现金', count: 1, amount: a.paid_amount, balance_used: '0.00' },
      { pay_type: 'wechat', pay_type_ch: '微信支付', count: 1, amount: b.paid_amount, balance_used: '0.00' },
    ]);
    // newest first
    expect(now.items.map((p: { id: number; status: string }) => [p.id, p.status])).toEqual([
      [c.id, 'V'],
      [b.id, 'Y'],
      [a.id, 'Y'],
    ]);

    // a double submit hands over once
    const payload = { remark: '现金已交财务', idempotency_key: key() };
    const [x, y] = await Promise.all([t.call('shifthandover', payload, cashier), t.call('shifthandover', payload, cashier)]);
    expect([x.return_code, y.return_code]).toEqual(['SUCCESS', 'SUCCESS']);
    expect(y.data.id).toBe(x.data.id);
    const count = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM cashier_shifts WHERE idempotency_key = ${payload.idempotency_key}`.execute(t.database.db);
    expect(count.rows[0]!.n).toBe(1);
    expect(x.data).toMatchObject({ receipts: 2, voided: 1, remark: '现金已交财务', methods: now.methods });
    expect((await t.call('shiftcurrent', {}, cashier)).data.empty).toBe(true);

    // the cashier and finance both find it; its 交班单 lists the shift's receipts
    const mine = (await t.call('shiftlist', {}, cashier)).data;
    expect(mine.items[0]).toMatchObject({ id: x.data.id, cashier_name: '赵收银' });
    const all = await t.call(
      'shiftlist',
      { cashier: '赵', start_date: now.end_time.slice(0, 10), end_date: now.end_time.slice(0, 10) },
      finance,
    );
    expect(all.data.items.some((s: { id: number }) => s.id === x.data.id)).toBe(true);
    expect((await t.call('shiftlist', { cashier: '没有这个人' }, finance)).data.total).toBe(0);
    const info = await t.call('shiftinfo', { id: x.data.id }, finance);
    expect(info.data).toMatchObject({ id: x.data.id, receipts_amount: now.receipts_amount });
    expect(info.data.region_title).not.toBe('');
    expect(info.data.items.map((p: { id: number }) => p.id)).toEqual([c.id, b.id, a.id]);
    // the next shift starts where this one ended
    const d = await payOne('alipay');
    const next = (await t.call('shiftcurrent', {}, cashier)).data;
    expect(next.start_time).toBe(x.data.end_time);
    expect(next.items.map((p: { id: number }) => p.id)).toEqual([d.id]);
  });

  it('refuses roles that may not, other communities, and bad payloads', async () => {
    const shifts = (await t.call('shiftlist', {}, finance)).data.items as Array<{ id: number }>;
    expect((await t.call('shiftcurrent', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('shiftlist', {}, steward)).return_code).toBe('NO_PERMISSION');
    // finance reads hand-overs, the cashiers hand over
    expect((await t.call('shifthandover', { idempotency_key: key() }, finance)).return_code).toBe('NO_PERMISSION');
    if (shifts[0]) expect((await t.call('shiftinfo', { id: shifts[0].id }, admin2)).return_msg).toBe('交班单不存在');
    expect((await t.call('shiftlist', {}, admin2)).data.items.every((s: { id: number }) => !shifts.some((o) => o.id === s.id))).toBe(true);
    const long = await t.call('shifthandover', { remark: '长'.repeat(201), idempotency_key: key() }, cashier);
    expect(long.return_code).toBe('FAIL');
    expect((await t.call('shifthandover', { idempotency_key: 'x' }, cashier)).return_code).toBe('FAIL');
    expect((await t.call('shiftlist', { start_date: '2026-13-01' }, cashier)).return_code).toBe('FAIL');
    expect((await t.call('shiftinfo', { id: 99999999 }, admin)).return_msg).toBe('交班单不存在');
  });

  it('exports the hand-overs as the list shows them, for finance', async () => {
    const list = await t.call('shiftlist', { limit: 100 }, finance);
    expect(list.data.total).toBeGreaterThan(0);
    const res = await t.exportFile('shiftlistexport', {}, finance);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.data.filename).toMatch(/^交班记录_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(list.data.total + 1);
    const headers = (ws.getRow(1).values as unknown[]).slice(1);
    expect(headers.slice(0, 5)).toEqual(['收银员', '开始时间', '交班时间', '收据数', '收款合计']);
    // newest first, as the list; each row's total and its methods' columns as the hand-over says
    type Row = { cashier_name: string; end_time: string; receipts_amount: string; methods: Array<{ pay_type_ch: string; amount: string }> };
    const rows = list.data.items as Row[];
    rows.forEach((r, i) => {
      const cells = ws.getRow(i + 2);
      expect([cells.getCell(1).value, cells.getCell(3).value, cells.getCell(5).value]).toEqual([
        r.cashier_name,
        r.end_time,
        r.receipts_amount,
      ]);
      for (const m of r.methods) expect(cells.getCell(headers.indexOf(m.pay_type_ch) + 1).value).toBe(m.amount);
    });
    // filtered by cashier: nobody of that name, an empty sheet
    const none = await t.exportFile('shiftlistexport', { cashier: '不存在的人' }, finance);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(none.data.content_base64, 'base64') as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.rowCount).toBe(1);
    // another community exports none of these; a cashier reads their own on the page; bad dates refused
    const other = await t.exportFile('shiftlistexport', {}, admin2);
    const wb3 = new ExcelJS.Workbook();
    await wb3.xlsx.load(Buffer.from(other.data.content_base64, 'base64') as unknown as ArrayBuffer);
    expect(wb3.worksheets[0]!.rowCount).toBe(1);
    expect((await t.exportFile('shiftlistexport', {}, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.exportFile('shiftlistexport', { end_date: '2026/01/01' }, finance)).return_code).toBe('FAIL');
  });
});
