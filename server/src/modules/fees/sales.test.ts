import { addDays, addMonths, fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
const day = today();
const monthStart = `${day.slice(0, 7)}-01`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

type Line = { line: string; count: number; received: string; refunded: string; net: string };
const q = async <T>(text: TemplateStringsArray, ...values: unknown[]) => (await sql<T>(text, ...values).execute(t.database.db)).rows;
const within = (col: string, from: string, to: string) => sql.raw(`${col} >= '${from}'::date AND ${col} < '${addDays(to, 1)}'::date`);

describe('salesreports', () => {
  it('物业收费 and 预存充值 equal financereport to the fen; each line is its source summed', async () => {
    for (const [from, to] of [
      [monthStart, day],
      [addMonths(day, -4), day],
    ] as const) {
      const range = { start_date: from, end_date: to };
      const res = await t.call('salesreports', { ...range, grain: 'day' }, admin);
      expect(res.return_code, res.return_msg).toBe('SUCCESS');
      const fin = (await t.call('financereport', range, admin)).data;
      const lines = new Map((res.data.lines as Line[]).map((l) => [l.line, l]));
      expect(lines.get('fee')!.received).toBe(fin.collected);
      expect(lines.get('fee')!.refunded).toBe(fin.refunds_cash);
      expect(lines.get('topup')!.received).toBe(fin.topups);
      const [fees] = await q<{ n: number }>`SELECT count(*)::int n FROM fee_payments
        WHERE rid = 1 AND status <> 'V' AND ${within('created_at', from, to)}`;
      expect(lines.get('fee')!.count).toBe(fees!.n);
      const [parking] = await q<{ n: number; s: string }>`SELECT count(*)::int n, coalesce(sum(a), 0)::numeric(14,2)::text s FROM (
          SELECT amount a FROM parking_renewals WHERE rid = 1 AND source = 'D' AND ${within('created_at', from, to)}
          UNION ALL SELECT amount FROM parking_coupon_orders WHERE rid = 1 AND ${within('created_at', from, to)}) x`;
      expect(lines.get('parking')).toMatchObject({ count: parking!.n, received: parking!.s, refunded: '0.00', net: parking!.s });
      const [card] = await q<{ n: number; s: string; r: string }>`SELECT
          count(*) FILTER (WHERE ${within('created_at', from, to)})::int n,
          coalesce(sum(paid_amount) FILTER (WHERE ${within('created_at', from, to)}), 0)::numeric(14,2)::text s,
          coalesce(sum(paid_amount) FILTER (WHERE status = 'R' AND ${within('decided_at', from, to)}), 0)::numeric(14,2)::text r
        FROM card_recharges WHERE rid = 1`;
      expect(lines.get('card')).toMatchObject({ count: card!.n, received: card!.s, refunded: card!.r });
      // the total is the lines', and the days' nets add up to it
      const sum = (k: 'received' | 'refunded' | 'net') => fenToYuan([...lines.values()].reduce((s, l) => s + toFen(l[k]), 0n));
      expect(res.data.total).toMatchObject({ received: sum('received'), refunded: sum('refunded'), net: sum('net') });
      const rows = res.data.rows as Array<{ key: string; total: string }>;
      expect(rows[0]!.key).toBe(from);
      expect(rows.at(-1)!.key).toBe(to);
      expect(fenToYuan(rows.reduce((s, r) => s + toFen(r.total), 0n))).toBe(res.data.total.net);
      // by month: the same total over the months the range spans
      const months = (await t.call('salesreports', { ...range, grain: 'month' }, admin)).data;
      expect(months.rows.map((r: { key: string }) => r.key).at(-1)).toBe(to.slice(0, 7));
      expect(fenToYuan(months.rows.reduce((s: bigint, r: { total: string }) => s + toFen(r.total), 0n))).toBe(res.data.total.net);
    }
    expect(Number((await t.call('salesreports', { start_date: monthStart, end_date: day }, admin)).data.total.received)).toBeGreaterThan(0);
  });

  it('counts a top-up at the cashier in 预存充值 exactly, and defaults to this month', async () => {
    const before = (await t.call('salesreports', {}, admin)).data;
    expect([before.start_date, before.end_date]).toEqual([monthStart, day]);
    const [room] = await q<{
      hid: number;
    }>`SELECT rm.hid FROM room_members rm WHERE rm.rid = 1 AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1`;
    const top = await t.call(
      'balancetopup',
      { hid: room!.hid, amount: '123.45', pay_type: 'cash', idempotency_key: 'sales-test-topup-1' },
      admin,
    );
    expect(top.return_code, top.return_msg).toBe('SUCCESS');
    const after = (await t.call('salesreports', {}, admin)).data;
    const topup = (r: { lines: Line[] }) => r.lines.find((l) => l.line === 'topup')!;
    expect(topup(after).count).toBe(topup(before).count + 1);
    expect(toFen(topup(after).received) - toFen(topup(before).received)).toBe(12345n);
    expect(toFen(after.total.net) - toFen(before.total.net)).toBe(12345n);
    // and the order list has it, found by its room
    const list = await t.call('orderlistreport', { line: 'topup', keyword: '' }, admin);
    expect(list.data.items[0]).toMatchObject({ line: 'topup', amount: '123.45', pay_type_ch: '现金', status_ch: '已支付' });
  });

  it('leaves out the lines of closed modules', async () => {
    await sql`UPDATE regions SET modules_off = '{parking,cards}' WHERE id = 1`.execute(t.database.db);
    try {
      const [closed] = await t.logins('admin');
      const res = await t.call('salesreports', {}, closed);
      expect(res.data.lines.map((l: Line) => l.line)).toEqual(['fee', 'topup']);
      const list = await t.call('orderlistreport', { line: 'card' }, closed);
      expect(list.data).toMatchObject({ total: 0, items: [] });
    } finally {
      await sql`UPDATE regions SET modules_off = '{}' WHERE id = 1`.execute(t.database.db);
    }
  });

  it('refuses other roles, bad ranges in Chinese, and keeps communities apart', async () => {
    expect((await t.call('salesreports', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('salesreports', {}, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('orderlistreport', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('salesreports', { start_date: day, end_date: addDays(day, -1) }, admin)).return_msg).toContain(
      '结束日期不能早于开始日期',
    );
    expect((await t.call('orderlistreport', { start_date: addDays(day, -400), end_date: day }, admin)).return_msg).toContain(
      '日期区间不能超过 366 天',
    );
    expect((await t.call('orderlistreport', { start_date: day }, admin)).return_msg).toContain('请选择日期区间');
    expect((await t.call('orderlistreport', { line: 'x' }, admin)).return_code).toBe('FAIL');
    const range = { start_date: addMonths(day, -4), end_date: day };
    // 翠湖苑's operator reads 翠湖苑's receipts alone
    const [other] = await q<{
      n: number;
    }>`SELECT count(*)::int n FROM fee_payments WHERE rid = 2 AND ${within('created_at', range.start_date, range.end_date)}`;
    expect((await t.call('orderlistreport', { ...range, line: 'fee' }, admin2)).data.total).toBe(other!.n);
    const s1 = (await t.call('salesreports', range, admin2)).data;
    const fin2 = (await t.call('financereport', range, admin2)).data;
    expect(s1.lines.find((l: Line) => l.line === 'fee').received).toBe(fin2.collected);
  });
});

describe('orderlistreport', () => {
  const range = { start_date: addMonths(day, -4), end_date: day };

  it('lists every order newest first, pages on the server, and sums the filtered set', async () => {
    const res = await t.call('orderlistreport', { ...range, limit: 20 }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    // by default every method but 余额 counts in received (支付方式)
    const [n] = await q<{ n: number; s: string; r: string; c: string }>`SELECT count(*)::int n,
        coalesce(sum(a) FILTER (WHERE NOT v), 0)::numeric(14,2)::text s, coalesce(sum(r), 0)::numeric(14,2)::text r,
        (coalesce(sum(a) FILTER (WHERE NOT v AND t <> 'balance'), 0) - coalesce(sum(r) FILTER (WHERE t <> 'balance'), 0))::numeric(14,2)::text c
      FROM (
        SELECT paid_amount a, refunded_amount r, status = 'V' v, pay_type::text t FROM fee_payments
          WHERE rid = 1 AND ${within('created_at', range.start_date, range.end_date)}
        UNION ALL SELECT total_fee, 0, false, paytype FROM balance_ledger WHERE rid = 1 AND io_type = 1 AND feetype = 'recharge' AND orderid LIKE 'TU%'
          AND ${within('create_time', range.start_date, range.end_date)}
        UNION ALL SELECT amount, 0, false, pay_type::text FROM parking_renewals WHERE rid = 1 AND source = 'D'
          AND ${within('created_at', range.start_date, range.end_date)}
        UNION ALL SELECT amount, 0, false, pay_type::text FROM parking_coupon_orders WHERE rid = 1 AND ${within('created_at', range.start_date, range.end_date)}
        UNION ALL SELECT paid_amount, CASE WHEN status = 'R' THEN paid_amount ELSE 0 END, false, pay_type::text FROM card_recharges
          WHERE rid = 1 AND ${within('created_at', range.start_date, range.end_date)}) x`;
    expect(res.data.total).toBe(n!.n);
    expect(res.data.summary).toEqual({ count: n!.n, amount: n!.s, refunded: n!.r, counted_net: n!.c });
    const items = res.data.items as Array<{ key: string; create_time: string; line: string }>;
    expect(items).toHaveLength(20);
    for (let i = 1; i < items.length; i += 1) expect(items[i]!.create_time <= items[i - 1]!.create_time).toBe(true);
    // two pages of ten are the first twenty
    const p1 = (await t.call('orderlistreport', { ...range, limit: 10, page: 1 }, admin)).data.items as Array<{ key: string }>;
    const p2 = (await t.call('orderlistreport', { ...range, limit: 10, page: 2 }, admin)).data.items as Array<{ key: string }>;
    expect([...p1, ...p2].map((r) => r.key)).toEqual(items.map((r) => r.key));
    // the lines are there, each by its own source
    const lines = new Set(
      ((await t.call('orderlistreport', { ...range, limit: 200 }, admin)).data.items as Array<{ line: string }>).map((r) => r.line),
    );
    expect(lines.has('fee')).toBe(true);
  });

  it('filters by line, pay type, status and keyword', async () => {
    const cards = await t.call('orderlistreport', { ...range, line: 'card' }, admin);
    const [c] = await q<{
      n: number;
    }>`SELECT count(*)::int n FROM card_recharges WHERE rid = 1 AND ${within('created_at', range.start_date, range.end_date)}`;
    expect(cards.data.total).toBe(c!.n);
    expect(cards.data.items.every((r: { line_ch: string }) => r.line_ch === '会员卡充值')).toBe(true);
    const wechat = await t.call('orderlistreport', { ...range, pay_type: 'wechat', limit: 50 }, admin);
    expect(wechat.data.items.every((r: { pay_type_ch: string }) => r.pay_type_ch === '微信支付')).toBe(true);
    const [p] = await q<{
      receipt_no: string;
      paid_amount: string;
      status: string;
    }>`SELECT receipt_no, paid_amount::text, status FROM fee_payments
      WHERE rid = 1 AND ${within('created_at', range.start_date, range.end_date)} ORDER BY id DESC LIMIT 1`;
    const found = await t.call('orderlistreport', { ...range, keyword: p!.receipt_no }, admin);
    expect(found.data.items.map((r: { order_no: string }) => r.order_no)).toContain(p!.receipt_no);
    expect(found.data.total).toBeLessThan((await t.call('orderlistreport', range, admin)).data.total);
    const refunded = await t.call('orderlistreport', { ...range, status: 'R', limit: 200 }, admin);
    expect(refunded.data.items.every((r: { status: string }) => r.status === 'R')).toBe(true);
  });

  it('exports the filtered set through the download centre', async () => {
    const filters = { ...range, line: 'fee' };
    const total = (await t.call('orderlistreport', filters, admin)).data.total as number;
    const file = await t.exportFile('orderlistreportexport', filters, admin);
    expect(file.return_code, file.return_msg).toBe('SUCCESS');
    expect(file.data.filename).toBe(`订单报表_${range.start_date}_${range.end_date}.xlsx`);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual([
      '订单号/收据号',
      '业务',
      '对象',
      '付款人',
      '支付方式',
      '计入实收',
      '金额',
      '退款',
      '状态',
      '收款人',
      '时间',
    ]);
    expect(sheet.rows).toHaveLength(total);
    const sales = await t.exportFile('salesreportsexport', { ...range, grain: 'month' }, admin);
    expect(sales.return_code, sales.return_msg).toBe('SUCCESS');
    const s = await readXlsx(sales.data.content_base64);
    expect(s.rows.length).toBeGreaterThan(5);
    expect((await t.exportFile('orderlistreportexport', filters, steward)).return_code).toBe('NO_PERMISSION');
  });

  it('counts in received by the 支付方式 of the group: a method it stops counting leaves 计入实收, and the filter splits the orders', async () => {
    const leader = await t.login('leader');
    const rule = (counted: 'Y' | 'N') =>
      t.call('paytypeedit', { pay_type: 'wechat', enabled: 'Y', counted, ref_required: 'N', sort: 2, remark: '' }, leader, 'group');
    type Summary = { count: number; amount: string; refunded: string; counted_net: string };
    const summary = async (counted: '' | 'Y' | 'N') =>
      (await t.call('orderlistreport', { ...range, counted, limit: 200 }, admin)).data as {
        summary: Summary;
        items: Array<{ pay_type: string; pay_type_ch: string; counted: string }>;
      };
    const sales = async () => (await t.call('salesreports', { ...range, grain: 'month' }, admin)).data;
    const net = (s: Summary) => toFen(s.amount) - toFen(s.refunded);

    const before = await sales();
    // wechat's net as 营收报表 counts it: money taken in the range less refunds approved in it
    const [w] = await q<{ s: string }>`SELECT (
        (SELECT coalesce(sum(paid_amount), 0) FROM fee_payments WHERE rid = 1 AND status <> 'V' AND pay_type = 'wechat'
          AND ${within('created_at', range.start_date, range.end_date)})
      - (SELECT coalesce(sum(f.cash_amount), 0) FROM fee_refunds f JOIN fee_payments p ON p.rid = f.rid AND p.id = f.payment_id
          WHERE f.rid = 1 AND f.status = 'Y' AND p.pay_type = 'wechat' AND ${within('f.approved_at', range.start_date, range.end_date)})
      + (SELECT coalesce(sum(total_fee), 0) FROM balance_ledger WHERE rid = 1 AND io_type = 1 AND feetype = 'recharge' AND orderid LIKE 'TU%'
          AND paytype = 'wechat' AND ${within('create_time', range.start_date, range.end_date)})
      + (SELECT coalesce(sum(amount), 0) FROM parking_renewals WHERE rid = 1 AND source = 'D' AND pay_type = 'wechat'
          AND ${within('created_at', range.start_date, range.end_date)})
      + (SELECT coalesce(sum(amount), 0) FROM parking_coupon_orders WHERE rid = 1 AND pay_type = 'wechat'
          AND ${within('created_at', range.start_date, range.end_date)})
      + (SELECT coalesce(sum(paid_amount), 0) FROM card_recharges WHERE rid = 1 AND pay_type = 'wechat'
          AND ${within('created_at', range.start_date, range.end_date)})
      - (SELECT coalesce(sum(paid_amount), 0) FROM card_recharges WHERE rid = 1 AND status = 'R' AND pay_type = 'wechat'
          AND ${within('decided_at', range.start_date, range.end_date)})
      )::numeric(14,2)::text s`;
    const wechatNet = toFen(w!.s);
    expect(wechatNet).toBeGreaterThan(0n);
    expect((await rule('N')).return_code).toBe('SUCCESS');
    try {
      const after = await sales();
      // the lines' nets stay; 计入实收 loses wechat's net, line by line as in total
      expect(after.total.net).toBe(before.total.net);
      expect(toFen(before.total.counted_net) - toFen(after.total.counted_net)).toBe(wechatNet);
      const lineSum = after.lines.reduce((s: bigint, l: { counted_net: string }) => s + toFen(l.counted_net), 0n);
      expect(fenToYuan(lineSum)).toBe(after.total.counted_net);
      // the orders: 计入实收 N is wechat and 余额, named so; Y and N together are all; Y's net is its 计入实收
      const all = await summary('');
      const yes = await summary('Y');
      const no = await summary('N');
      expect(no.items.every((r) => r.pay_type === 'wechat' || r.pay_type === 'balance')).toBe(true);
      expect(no.items.some((r) => r.pay_type === 'wechat')).toBe(true);
      expect(no.items.every((r) => r.counted === 'N' && r.pay_type_ch.endsWith('（不计入实收）'))).toBe(true);
      expect(yes.items.every((r) => r.counted === 'Y' && !r.pay_type_ch.includes('不计入'))).toBe(true);
      expect(yes.summary.count + no.summary.count).toBe(all.summary.count);
      expect(toFen(yes.summary.amount) + toFen(no.summary.amount)).toBe(toFen(all.summary.amount));
      expect(yes.summary.counted_net).toBe(all.summary.counted_net);
      expect(no.summary.counted_net).toBe('0.00');
      expect(net(yes.summary)).toBe(toFen(all.summary.counted_net));
    } finally {
      expect((await rule('Y')).return_code).toBe('SUCCESS');
    }
    expect((await sales()).total.counted_net).toBe(before.total.counted_net);
    // a bad filter is refused in Chinese
    const bad = await t.call('orderlistreport', { ...range, counted: 'X' }, admin);
    expect(bad.return_code).not.toBe('SUCCESS');
    expect(bad.return_msg).toMatch(/计入实收/);
  });
});
