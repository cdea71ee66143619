import { addDays, fenToYuan, toFen, type BusinessCountAnswer, type BusinessFigures } from '@wuye/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let finance: string;
let steward: string;
let n = 0;
const key = () => `businesscount-test-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier, finance, steward] = await t.logins('admin', 'admin2', 'cashier', 'finance', 'steward');
});
afterAll(() => t.close());

const used = new Set<number>();
async function payOne(payType: string, extra: Record<string, unknown> = {}) {
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
  const bill = ((await t.call('cashierbills', { hid }, cashier)).data.items as Array<{ id: number; total: string }>)[0]!;
  const pay = await t.call(
    'cashierpay',
    { hid, bill_ids: [bill.id], pay_type: payType, paid_amount: bill.total, idempotency_key: key(), ...extra },
    cashier,
  );
  expect(pay.return_code, pay.return_msg).toBe('SUCCESS');
  return pay.data as { id: number; paid_amount: string };
}

const report = async (payload: Record<string, unknown>, token = finance) => {
  const r = await t.call('businesscount', payload, token);
  expect(r.return_code, r.return_msg).toBe('SUCCESS');
  return r.data as BusinessCountAnswer;
};
const fen = (v: string) => toFen(v);
/** b − a, figure by figure */
const delta = (a: BusinessFigures | undefined, b: BusinessFigures | undefined) => {
  const z = { receipts: 0, receipts_amount: '0.00', refunds: 0, refunds_amount: '0.00', voided: 0, voided_amount: '0.00', net: '0.00' };
  const x = a ?? z;
  const y = b ?? z;
  return {
    receipts: y.receipts - x.receipts,
    receipts_amount: fenToYuan(fen(y.receipts_amount) - fen(x.receipts_amount)),
    refunds: y.refunds - x.refunds,
    refunds_amount: fenToYuan(fen(y.refunds_amount) - fen(x.refunds_amount)),
    voided: y.voided - x.voided,
    voided_amount: fenToYuan(fen(y.voided_amount) - fen(x.voided_amount)),
    net: fenToYuan(fen(y.net) - fen(x.net)),
  };
};
const sumFigures = (rows: BusinessFigures[]) => ({
  receipts: rows.reduce((s, r) => s + r.receipts, 0),
  receipts_amount: fenToYuan(rows.reduce((s, r) => s + fen(r.receipts_amount), 0n)),
  refunds: rows.reduce((s, r) => s + r.refunds, 0),
  refunds_amount: fenToYuan(rows.reduce((s, r) => s + fen(r.refunds_amount), 0n)),
  voided: rows.reduce((s, r) => s + r.voided, 0),
  voided_amount: fenToYuan(rows.reduce((s, r) => s + fen(r.voided_amount), 0n)),
  net: fenToYuan(rows.reduce((s, r) => s + fen(r.net), 0n)),
});

describe('营业统计 (businesscount)', () => {
  it('counts payments, refunds and voids made through the real methods to the fen, as the shift hand-over does', async () => {
    // the cashier's shift starts empty: what the demo left in it is handed over first
    const start = await t.call('shiftcurrent', {}, cashier);
    if (!start.data.empty) expect((await t.call('shifthandover', { idempotency_key: key() }, cashier)).return_code).toBe('SUCCESS');
    const cashierId = (await t.database.db.selectFrom('accounts').select('id').where('username', '=', 'cashier').executeTakeFirstOrThrow())
      .id;
    const day = today();
    const before = await report({});
    expect([before.start_date, before.end_date]).toEqual([day, day]);
    const mine = (r: BusinessCountAnswer) => r.payees.find((p) => p.cashier_id === Number(cashierId));
    const method = (r: BusinessCountAnswer, type: string) => mine(r)?.methods.find((m) => m.pay_type === type);

    const a = await payOne('cash');
    const b = await payOne('wechat');
    const c = await payOne('cash');
    const d = await payOne('alipay');
    expect((await t.call('paymentvoid', { id: c.id, reason: '收错房屋' }, cashier)).return_code).toBe('SUCCESS');
    const apply = await t.call('refundapply', { payment_id: b.id, reason: '重复缴费' }, cashier);
    expect(apply.return_code, apply.return_msg).toBe('SUCCESS');
    const ok = await t.call('refundapprove', { id: apply.data.id, approve: true, remark: '同意' }, admin);
    expect(ok.return_code, ok.return_msg).toBe('SUCCESS');
    expect(ok.data.cash_amount).toBe(b.paid_amount);

    const after = await report({ start_date: day, end_date: day });
    expect(delta(method(before, 'cash'), method(after, 'cash'))).toEqual({
      receipts: 1,
      receipts_amount: a.paid_amount,
      refunds: 0,
      refunds_amount: '0.00',
      voided: 1,
      voided_amount: c.paid_amount,
      net: a.paid_amount,
    });
    expect(delta(method(before, 'wechat'), method(after, 'wechat'))).toEqual({
      receipts: 1,
      receipts_amount: b.paid_amount,
      refunds: 1,
      refunds_amount: b.paid_amount,
      voided: 0,
      voided_amount: '0.00',
      net: '0.00',
    });
    expect(delta(method(before, 'alipay'), method(after, 'alipay'))).toEqual({
      receipts: 1,
      receipts_amount: d.paid_amount,
      refunds: 0,
      refunds_amount: '0.00',
      voided: 0,
      voided_amount: '0.00',
      net: d.paid_amount,
    });
    const takings = fen(a.paid_amount) + fen(b.paid_amount) + fen(d.paid_amount);
    expect(delta(mine(before), mine(after))).toEqual({
      receipts: 3,
      receipts_amount: fenToYuan(takings),
      refunds: 1,
      refunds_amount: b.paid_amount,
      voided: 1,
      voided_amount: c.paid_amount,
      net: fenToYuan(takings - fen(b.paid_amount)),
    });
    expect(delta(before.totals, after.totals)).toEqual(delta(mine(before), mine(after)));
    expect(
      delta(
        before.days.find((x) => x.day === day),
        after.days.find((x) => x.day === day),
      ),
    ).toEqual(delta(mine(before), mine(after)));
    expect(mine(after)!.cashier_name).toBe('赵收银');

    // the shift since the hand-over holds exactly these: the same figures per pay method
    const shift = (await t.call('shiftcurrent', {}, cashier)).data;
    expect(shift).toMatchObject({
      receipts: 3,
      receipts_amount: fenToYuan(takings),
      refunds: 1,
      refunds_amount: b.paid_amount,
      voided: 1,
      voided_amount: c.paid_amount,
    });
    for (const m of shift.methods as Array<{ pay_type: string; count: number; amount: string }>) {
      const dm = delta(method(before, m.pay_type), method(after, m.pay_type));
      expect([dm.receipts, dm.receipts_amount]).toEqual([m.count, m.amount]);
    }

    // each cashier's rows add up to their subtotal, the subtotals to the total, the days to the total too
    for (const p of after.payees) expect(sumFigures(p.methods)).toEqual(sumFigures([p]));
    expect(sumFigures(after.payees)).toEqual(after.totals);
    expect(sumFigures(after.days)).toEqual(after.totals);
  });

  it('splits a method by the group’s own ways on it (其中：POS机-工行): receipts and voids to the fen, under their current names', async () => {
    const pos = await t.database.db.selectFrom('pay_methods').select('id').where('name', '=', 'POS机-工行').executeTakeFirstOrThrow();
    const cashierId = Number(
      (await t.database.db.selectFrom('accounts').select('id').where('username', '=', 'cashier').executeTakeFirstOrThrow()).id,
    );
    const way = (r: BusinessCountAnswer) =>
      r.payees
        .find((p) => p.cashier_id === cashierId)
        ?.methods.find((m) => m.pay_type === 'bankcard')
        ?.ways.find((w) => w.method_id === pos.id);
    const before = await report({});
    const a = await payOne('bankcard', { pay_method_id: pos.id, pay_ref: 'BC-1' });
    const b = await payOne('bankcard', { pay_method_id: pos.id, pay_ref: 'BC-2' });
    await payOne('bankcard');
    expect((await t.call('paymentvoid', { id: b.id, reason: '刷错卡' }, cashier)).return_code).toBe('SUCCESS');
    const after = await report({});
    expect(way(after)?.name).toBe('POS机-工行');
    expect(delta(way(before), way(after))).toEqual({
      receipts: 1,
      receipts_amount: a.paid_amount,
      refunds: 0,
      refunds_amount: '0.00',
      voided: 1,
      voided_amount: b.paid_amount,
      net: a.paid_amount,
    });
    // a way is part of its method: never more than it, figure by figure
    for (const p of after.payees)
      for (const m of p.methods) {
        const w = sumFigures(m.ways);
        expect(w.receipts).toBeLessThanOrEqual(m.receipts);
        expect(fen(w.receipts_amount) <= fen(m.receipts_amount)).toBe(true);
      }
    // the demo's front-desk POS took bank-card receipts this month
    const month = await report({ start_date: addDays(today(), -29), end_date: today() });
    expect(month.payees.some((p) => p.methods.some((m) => m.ways.some((w) => w.name === 'POS机-工行' && w.receipts > 0)))).toBe(true);
  });

  it('agrees with 收款统计 (paymentstatis) over a range, and puts the receipts no cashier took under 线上', async () => {
    const end = today();
    const start = addDays(end, -60);
    const r = await report({ start_date: start, end_date: end });
    const ps = await t.call('paymentstatis', { start_date: start, end_date: end, group_by: 'pay_type' }, finance);
    expect(ps.return_code).toBe('SUCCESS');
    expect(r.totals.receipts_amount).toBe(ps.data.total_amount);
    expect(r.totals.receipts).toBe(ps.data.total_count);
    for (const row of ps.data.items as Array<{ key: string; count: number; amount: string }>) {
      const methods = r.payees.flatMap((p) => p.methods.filter((m) => m.pay_type === row.key));
      expect([sumFigures(methods).receipts, sumFigures(methods).receipts_amount]).toEqual([row.count, row.amount]);
    }
    expect(r.days.every((d) => d.day >= start && d.day <= end)).toBe(true);
    expect(sumFigures(r.days)).toEqual(r.totals);

    // a receipt no account took (scan to pay) is 线上's
    const online = await sql<{ n: number; amount: string }>`
      SELECT count(*)::int AS n, coalesce(sum(paid_amount), 0)::numeric(14,2)::text AS amount FROM fee_payments
      WHERE rid = 1 AND cashier_id IS NULL AND status <> 'V' AND created_at >= ${start}::date AND created_at < ${addDays(end, 1)}::date`.execute(
      t.database.db,
    );
    const line = r.payees.find((p) => p.cashier_id === null);
    if (online.rows[0]!.n > 0) {
      expect(line).toMatchObject({ cashier_name: '线上', receipts: online.rows[0]!.n, receipts_amount: online.rows[0]!.amount });
      expect(r.payees[r.payees.length - 1]).toBe(line);
    } else expect(line).toBeUndefined();
  });

  it('refuses roles without access, keeps communities apart, and refuses bad payloads in Chinese', async () => {
    expect((await t.call('businesscount', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('businesscount', {}, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('businesscountexport', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('businesscount', {}, admin)).return_code).toBe('SUCCESS');
    // 翠湖苑 sees its own receipts only: none of community 1's cashiers
    const end = today();
    const start = addDays(end, -60);
    const other = await report({ start_date: start, end_date: end }, admin2);
    const ps2 = await t.call('paymentstatis', { start_date: start, end_date: end, group_by: 'pay_type' }, admin2);
    expect(other.totals.receipts_amount).toBe(ps2.data.total_amount);
    const cashierId = (await t.database.db.selectFrom('accounts').select('id').where('username', '=', 'cashier').executeTakeFirstOrThrow())
      .id;
    expect(other.payees.some((p) => p.cashier_id === Number(cashierId))).toBe(false);

    const bad = async (payload: Record<string, unknown>, msg: RegExp) => {
      const r = await t.call('businesscount', payload, finance);
      expect(r.return_code).toBe('FAIL');
      expect(r.return_msg).toMatch(msg);
    };
    await bad({ start_date: '2026-02-30', end_date: '2026-03-01' }, /日期不存在/);
    await bad({ start_date: '2026/01/01' }, /日期格式应为 YYYY-MM-DD/);
    await bad({ start_date: '2026-03-02', end_date: '2026-03-01' }, /结束日期不能早于开始日期/);
    await bad({ start_date: '2026-01-01', end_date: '2026-06-30' }, /日期区间不能超过 92 天/);
    const e = await t.call('businesscountexport', { start_date: '2026-03-02', end_date: '2026-03-01' }, finance);
    expect(e.return_msg).toMatch(/结束日期不能早于开始日期/);
    const jobs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE payload::text LIKE '%businesscountexport%'`.execute(
      t.database.db,
    );
    expect(jobs.rows[0]!.n).toBe(0);
  });

  it('exports the report through the download centre as the page shows it', async () => {
    const end = today();
    const start = addDays(end, -6);
    const r = await report({ start_date: start, end_date: end });
    const res = await t.exportFile('businesscountexport', { start_date: start, end_date: end }, finance);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.data.filename).toBe(`营业统计_${start}_${end}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows = ws.getSheetValues().slice(1) as unknown[][];
    const cells = rows.map((row) => (row ?? []).slice(1));
    expect(cells[0]).toEqual(['收款人', '支付方式', '收款笔数', '收款金额', '退款笔数', '退款金额', '作废笔数', '作废金额', '净收款']);
    const total = cells.find((c) => c[0] === '合计')!;
    const tt = r.totals;
    expect(total.slice(2)).toEqual([tt.receipts, tt.receipts_amount, tt.refunds, tt.refunds_amount, tt.voided, tt.voided_amount, tt.net]);
    for (const p of r.payees) {
      const sub = cells.find((c) => c[0] === p.cashier_name && c[1] === '小计')!;
      expect(sub.slice(2, 4)).toEqual([p.receipts, p.receipts_amount]);
    }
    for (const d of r.days) expect(cells.find((c) => c[0] === d.day)!.slice(2, 4)).toEqual([d.receipts, d.receipts_amount]);
  });
});
