import { addDays, fenToYuan, toFen, type DiscountRecordRow, type PaydataRow, type PaydataTotals } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let reader: string;
const end = today();
const start = addDays(end, -29);
const range = { start_date: start, end_date: end };

type Answer = { return_code: string; return_msg: string; data?: unknown };
const ok = (res: Answer) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

beforeAll(async () => {
  t = await startTestServer();
  await t.addAccount('paydatareader', { roles: ['financecount'], regions: [1], name: '财务查看' });
  [admin, admin2, cashier, reader] = await t.logins('admin', 'admin2', 'cashier', 'paydatareader');
});
afterAll(() => t.close());

/** One figure of community 1 counted straight from the rows, for the range's business days. */
const scalar = async (query: string) => {
  const q = query.replaceAll(':start', `'${start}'`).replaceAll(':end', `'${end}'`);
  return (await sql<{ v: string | number }>`${sql.raw(q)}`.execute(t.database.db)).rows[0]!.v;
};
const inRange = `p.created_at >= :start::date AND p.created_at < :end::date + 1`;
const lines = `FROM fee_payments p JOIN fee_payment_items pi ON pi.rid = p.rid AND pi.payment_id = p.id WHERE p.rid = 1 AND ${inRange}`;

type Paydata = { items: PaydataRow[]; total: number; totals: PaydataTotals };
type Records = { items: DiscountRecordRow[]; total: number; totals: Array<{ kind: string; count: number; amount: string }> };

describe('feebillpaydata (缴费明细)', () => {
  it('lists every line of the range with totals that agree with the rows and with 财务报表 to the fen', async () => {
    const res = await t.call<Paydata>('feebillpaydata', { ...range, limit: 200 }, reader);
    ok(res);
    const { totals } = res.data;
    expect(totals.count).toBe(await scalar(`SELECT count(*)::int v ${lines} AND p.status <> 'V'`));
    expect(totals.voided).toBe(await scalar(`SELECT count(*)::int v ${lines} AND p.status = 'V'`));
    expect(totals.count).toBeGreaterThan(0);
    expect(totals.voided).toBeGreaterThan(0);
    expect(res.data.total).toBe(totals.count + totals.voided);
    const sum = (e: string) => scalar(`SELECT coalesce(sum(${e}), 0)::numeric(14,2)::text v ${lines} AND p.status <> 'V'`);
    expect(totals).toMatchObject({
      fee: await sum('pi.fee'),
      discount: await sum('pi.discount'),
      late_fee: await sum('pi.late_fee'),
      received: await sum('pi.fee + pi.late_fee - pi.discount'),
    });
    expect(toFen(totals.discount)).toBeGreaterThan(0n);

    // 财务报表 of the same days: the same discounts and late fees; what was received for the lines is
    // what was collected plus the balance spent, less what overpayments put into balances
    const finance = (await t.call('financereport', range, admin)).data as {
      collected: string;
      balance_used: string;
      discounts: string;
      late_fees: string;
    };
    expect([totals.discount, totals.late_fee]).toEqual([finance.discounts, finance.late_fees]);
    const toBalance = await scalar(
      `SELECT coalesce(sum(to_balance), 0)::numeric(14,2)::text v FROM fee_payments p WHERE p.rid = 1 AND p.status <> 'V' AND ${inRange}`,
    );
    expect(totals.received).toBe(fenToYuan(toFen(finance.collected) + toFen(finance.balance_used) - toFen(String(toBalance))));
    // and 收款统计's 实收 and 余额抵扣 for the same days
    const stat = (await t.call('paymentstatis', { ...range, group_by: 'day' }, admin)).data as {
      items: Array<{ balance_used: string }>;
      total_amount: string;
    };
    const statBalance = stat.items.reduce((s, r) => s + toFen(r.balance_used), 0n);
    expect(totals.received).toBe(fenToYuan(toFen(stat.total_amount) + statBalance - toFen(String(toBalance))));

    // the pages add up to the totals, newest receipt first, the voided lines marked and left out
    let received = 0n;
    let listed = 0;
    let last = '9999';
    for (let page = 1; (page - 1) * 200 < res.data.total; page++) {
      const p = page === 1 ? res : await t.call<Paydata>('feebillpaydata', { ...range, limit: 200, page }, reader);
      for (const r of p.data.items) {
        expect(r.create_time <= last).toBe(true);
        last = r.create_time;
        listed++;
        if (r.status === 'voided') expect(r.status_ch).toBe('已作废');
        else received += toFen(r.received);
      }
    }
    expect([listed, fenToYuan(received)]).toEqual([res.data.total, totals.received]);
  });

  it('filters by item, category, building, pay type, cashier and keyword, the totals following', async () => {
    const all = (await t.call<Paydata>('feebillpaydata', range, admin)).data;
    const line = await sql<{ item_id: number; bid: number; receipt_no: string; pay_type: string; cost_type: string }>`
      SELECT b.item_id, b.bid, p.receipt_no, p.pay_type, pi.cost_type FROM fee_payments p
      JOIN fee_payment_items pi ON pi.rid = p.rid AND pi.payment_id = p.id JOIN fee_bills b ON b.rid = pi.rid AND b.id = pi.bill_id
      WHERE p.rid = 1 AND p.status = 'Y' AND p.discount > 0 AND p.created_at >= ${start}::date ORDER BY p.id DESC LIMIT 1`.execute(
      t.database.db,
    );
    const l = line.rows[0]!;
    const byItem = (await t.call<Paydata>('feebillpaydata', { ...range, item_id: l.item_id }, admin)).data;
    expect(byItem.totals.count).toBe(
      await scalar(
        `SELECT count(*)::int v ${lines} AND p.status <> 'V' AND EXISTS (SELECT 1 FROM fee_bills b WHERE b.rid = 1 AND b.id = pi.bill_id AND b.item_id = ${l.item_id})`,
      ),
    );
    expect(byItem.totals.count).toBeLessThanOrEqual(all.totals.count);
    const byReceipt = (await t.call<Paydata>('feebillpaydata', { ...range, item_id: l.item_id, keyword: l.receipt_no }, admin)).data;
    expect(byReceipt.items.length).toBeGreaterThan(0);
    expect(byReceipt.items.every((r) => r.receipt_no === l.receipt_no)).toBe(true);
    expect(byReceipt.totals.discount).toBe(
      await scalar(`SELECT sum(pi.discount)::numeric(14,2)::text v ${lines} AND p.receipt_no = '${l.receipt_no}'`),
    );
    expect(toFen(byReceipt.totals.received)).toBeLessThan(toFen(all.totals.received));
    const byBuilding = (
      await t.call<Paydata>(
        'feebillpaydata',
        { ...range, bid: l.bid, cost_type: l.cost_type, pay_type: l.pay_type, cashier: '收银' },
        admin,
      )
    ).data;
    expect(byBuilding.items.every((r) => r.cost_type === l.cost_type && r.pay_type === l.pay_type)).toBe(true);
    expect(byBuilding.totals.count).toBe(
      await scalar(`SELECT count(*)::int v ${lines} AND p.status <> 'V' AND pi.cost_type = '${l.cost_type}' AND p.pay_type = '${l.pay_type}'
        AND p.cashier_name LIKE '%收银%' AND EXISTS (SELECT 1 FROM fee_bills b WHERE b.rid = 1 AND b.id = pi.bill_id AND b.bid = ${l.bid})`),
    );
  });

  it('exports the filtered lines with a totals row through the download centre', async () => {
    const filters = { ...range, cost_type: 'property' };
    const res = (await t.call<Paydata>('feebillpaydata', filters, admin)).data;
    const file = await t.exportFile('feebillpaydataexport', filters, admin);
    ok(file);
    const sheet = await readXlsx((file.data as { content_base64: string }).content_base64);
    expect(sheet.headers).toEqual(
      expect.arrayContaining(['收据号', '房屋', '业主', '收费项目', '应收', '优惠', '滞纳金', '实收', '收款人', '状态']),
    );
    expect(sheet.rows.length).toBe(res.total + 1);
    const sum = sheet.rows.at(-1)!;
    expect(sum.values['收据号']).toBe('合计');
    expect(String(sum.values['实收'])).toBe(res.totals.received);
  });

  it('refuses a role without the reports, and bad ranges in Chinese', async () => {
    expect((await t.call('feebillpaydata', range, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feebillpaydataexport', range, cashier)).return_code).toBe('NO_PERMISSION');
    const jobs = () => scalar(`SELECT count(*)::int v FROM jobs WHERE rid = 1`);
    const before = await jobs();
    const bad = async (payload: Record<string, unknown>, msg: string) => {
      for (const method of ['feebillpaydata', 'feebillpaydataexport', 'discountrecordlist', 'discountrecordexport']) {
        const res = await t.call(method, payload, admin);
        expect(res.return_code, method).toBe('FAIL');
        expect(res.return_msg).toContain(msg);
      }
    };
    await bad({ start_date: end, end_date: addDays(end, -1) }, '结束日期不能早于开始日期');
    await bad({ start_date: addDays(end, -366), end_date: end }, '日期区间不能超过 366 天');
    await bad({ start_date: '2026/01/01', end_date: end }, '日期格式应为 YYYY-MM-DD');
    expect(await jobs()).toBe(before);
  });

  it("never shows another community's lines", async () => {
    const theirs = await sql<{ receipt_no: string; item_id: number }>`
      SELECT p.receipt_no, b.item_id FROM fee_payments p JOIN fee_bills b ON b.rid = p.rid AND b.payment_id = p.id
      WHERE p.rid = 1 AND p.created_at >= ${start}::date ORDER BY p.id DESC LIMIT 1`.execute(t.database.db);
    const r = theirs.rows[0]!;
    const res = await t.call<Paydata>('feebillpaydata', { ...range, keyword: r.receipt_no }, admin2);
    ok(res);
    expect(res.data.items.some((i) => i.receipt_no === r.receipt_no && i.address.includes('阳光'))).toBe(false);
    const byItem = await t.call<Paydata>('feebillpaydata', { ...range, item_id: r.item_id }, admin2);
    ok(byItem);
    expect(byItem.data.total).toBe(0);
    const records = await t.call<Records>('discountrecordlist', range, admin2);
    ok(records);
    expect(records.data.items.map((i) => i.request_id).filter(Boolean)).toEqual([]);
  });
});

describe('discountrecordlist (优惠记录)', () => {
  it('lists the discounts granted, each kind totalled, the used ones adding up to 财务报表 to the fen', async () => {
    const res = await t.call<Records>('discountrecordlist', { ...range, limit: 200 }, reader);
    ok(res);
    const { items, totals } = res.data;
    expect(res.data.total).toBe(items.length);
    const used = items.filter((r) => r.status === 'used').reduce((s, r) => s + toFen(r.amount), 0n);
    const finance = (await t.call('financereport', range, admin)).data as { discounts: string };
    expect(fenToYuan(used)).toBe(finance.discounts);
    expect(fenToYuan(totals.reduce((s, x) => s + toFen(x.amount), 0n))).toBe(finance.discounts);
    for (const kind of ['request', 'cashier']) {
      expect(totals.find((x) => x.kind === kind)!.count).toBe(items.filter((r) => r.kind === kind).length);
    }
    // the demo's rejected application: its basis names who rejected it and why
    const rejected = items.find((r) => r.status === 'rejected')!;
    expect(rejected).toMatchObject({ kind: 'request', status_ch: '已驳回', receipt_no: '' });
    expect(rejected.basis).toContain('郑会计');
    expect(rejected.basis).toContain('电梯停运已按公告另行补偿');
    // the cashier's 减免: the receipt's discount, and no application was used for it
    const own = await scalar(
      `SELECT count(*)::int v FROM fee_payments p WHERE p.rid = 1 AND p.discount > 0 AND p.status <> 'V' AND ${inRange}
        AND NOT EXISTS (SELECT 1 FROM fee_discount_requests d WHERE d.rid = 1 AND d.payment_id = p.id)`,
    );
    expect(items.filter((r) => r.kind === 'cashier').length).toBe(own);
    for (const r of items.filter((x) => x.kind === 'cashier')) {
      expect(r.amount).toBe(await scalar(`SELECT discount::text v FROM fee_payments WHERE rid = 1 AND id = ${r.payment_id}`));
      expect(r.titles).not.toBe('');
    }
    // an application's log opens from its number
    const log = await t.call<{ items: Array<{ transition: string }> }>('discountlog', { id: rejected.request_id }, reader);
    ok(log);
    expect(log.data.items.map((i) => i.transition)).toContain('reject');
  });

  it('filters by kind, status and keyword, and exports', async () => {
    const rejected = (await t.call<Records>('discountrecordlist', { ...range, status: 'rejected' }, admin)).data;
    expect(rejected.items.length).toBeGreaterThan(0);
    expect(rejected.items.every((r) => r.status === 'rejected' && r.kind === 'request')).toBe(true);
    const cashierOnly = (await t.call<Records>('discountrecordlist', { ...range, kind: 'cashier' }, admin)).data;
    expect(cashierOnly.items.every((r) => r.kind === 'cashier')).toBe(true);
    expect(cashierOnly.totals.find((x) => x.kind === 'request')!.count).toBe(0);
    const one = rejected.items[0]!;
    const byRoom = (await t.call<Records>('discountrecordlist', { ...range, keyword: one.address }, admin)).data;
    expect(byRoom.items.map((r) => r.key)).toContain(one.key);
    expect(byRoom.items.every((r) => r.address === one.address)).toBe(true);

    const all = (await t.call<Records>('discountrecordlist', range, admin)).data;
    const file = await t.exportFile('discountrecordexport', range, admin);
    ok(file);
    const sheet = await readXlsx((file.data as { content_base64: string }).content_base64);
    expect(sheet.headers).toEqual(expect.arrayContaining(['类型', '状态', '房屋', '优惠金额', '依据', '收据号']));
    expect(sheet.rows.length).toBe(all.total);
  });

  it('refuses a role without the reports', async () => {
    expect((await t.call('discountrecordlist', range, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('discountrecordexport', range, cashier)).return_code).toBe('NO_PERMISSION');
  });
});
