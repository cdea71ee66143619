import { addDays, fenToYuan, PANNEL_CARD_KEYS, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let steward: string;
let cashier: string;
let merchant: string;
const end = today();
const start = addDays(end, -29);

beforeAll(async () => {
  t = await startTestServer();
  [admin, steward, cashier, merchant] = await t.logins('admin', 'steward', 'cashier', 'merchant');
});
afterAll(() => t.close());

/** One figure of community 1 counted straight from the rows, the range as business days. */
const scalar = async (query: string) => {
  const r = await sql<{ v: string | number }>`${sql.raw(query.replaceAll(':start', `'${start}'`).replaceAll(':end', `'${end}'`))}`.execute(
    t.database.db,
  );
  return r.rows[0]!.v;
};
const inRange = (col: string) => `${col} >= :start::date AND ${col} < :end::date + 1`;

describe('pannelindex (报表首页)', () => {
  it('answers every card of the last 30 days, each as the rows and the reports count it', async () => {
    const res = await t.call('pannelindex', { start_date: start, end_date: end }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    const f = res.data.figures as Record<string, string | number | null>;
    expect(Object.keys(f).sort()).toEqual([...PANNEL_CARD_KEYS].sort());
    expect(res.data).toMatchObject({ start_date: start, end_date: end, start_period: start.slice(0, 7), end_period: end.slice(0, 7) });

    // 实收 and 笔数: the receipts of those days, to the fen, and 收款统计's totals for the same days
    const received = await scalar(
      `SELECT coalesce(sum(paid_amount), 0)::numeric(14,2)::text v FROM fee_payments WHERE rid = 1 AND status <> 'V' AND ${inRange('created_at')}`,
    );
    const count = await scalar(`SELECT count(*)::int v FROM fee_payments WHERE rid = 1 AND status <> 'V' AND ${inRange('created_at')}`);
    expect(f.received).toBe(received);
    expect(f.payments).toBe(count);
    expect(Number(f.payments)).toBeGreaterThan(0);
    expect(toNumber(f.received)).toBeGreaterThan(0);
    // the receipts 收费记录 lists for those days, voided ones (作废) taking no money
    let listed = 0n;
    let receipts = 0;
    for (let page = 1; ; page++) {
      const list = await t.call('paymentlist', { page, limit: 200, start_date: start, end_date: end }, admin);
      expect(list.return_code, list.return_msg).toBe('SUCCESS');
      for (const r of list.data.items as Array<{ paid_amount: string; status: string }>) {
        if (r.status === 'V') continue;
        listed += toFen(r.paid_amount);
        receipts++;
      }
      if (page * 200 >= list.data.total) break;
    }
    expect([fenToYuan(listed), receipts]).toEqual([f.received, f.payments]);
    const stat = await t.call('paymentstatis', { start_date: start, end_date: end, group_by: 'day' }, admin);
    expect([stat.data.total_amount, stat.data.total_count]).toEqual([f.received, f.payments]);

    expect(f.refunded).toBe(
      await scalar(
        `SELECT coalesce(sum(amount), 0)::numeric(14,2)::text v FROM fee_refunds WHERE rid = 1 AND status = 'Y' AND ${inRange('approved_at')}`,
      ),
    );
    // 账期应收: the months the range spans, as 收费统计 adds them up
    const months = { start_period: start.slice(0, 7), end_period: end.slice(0, 7) };
    expect(f.receivable).toBe(
      await scalar(
        `SELECT coalesce(sum(fee), 0)::numeric(14,2)::text v FROM fee_bills WHERE rid = 1 AND period BETWEEN '${months.start_period}' AND '${months.end_period}'`,
      ),
    );
    expect(f.receivable).toBe((await t.call('fees_count', months, admin)).data.totals.receivable);

    expect(f.repairs_new).toBe(await scalar(`SELECT count(*)::int v FROM repair_tickets WHERE rid = 1 AND ${inRange('created_at')}`));
    expect(f.repairs_done).toBe(await scalar(`SELECT count(*)::int v FROM repair_tickets WHERE rid = 1 AND ${inRange('finished_at')}`));
    expect(f.complaints_new).toBe(await scalar(`SELECT count(*)::int v FROM complaints WHERE rid = 1 AND ${inRange('created_at')}`));
    expect(f.complaints_done).toBe(await scalar(`SELECT count(*)::int v FROM complaints WHERE rid = 1 AND ${inRange('finished_at')}`));
    expect(f.cars_in).toBe(await scalar(`SELECT count(*)::int v FROM parking_records WHERE rid = 1 AND ${inRange('intime')}`));
    expect(f.cars_out).toBe(await scalar(`SELECT count(*)::int v FROM parking_records WHERE rid = 1 AND ${inRange('outtime')}`));
    const income = await t.call('parkingincome', { start_date: start, end_date: end }, admin);
    expect(f.temp_income).toBe(income.data.totals.temp_amount);
    expect(f.visitors).toBe(await scalar(`SELECT count(*)::int v FROM visitors WHERE rid = 1 AND ${inRange('visit_time')}`));
    expect(f.passes).toBe(
      await scalar(`SELECT count(*)::int v FROM access_passes WHERE rid = 1 AND result = 'open' AND ${inRange('rec_time')}`),
    );
    expect(f.signups).toBe(
      await scalar(`SELECT count(*)::int v FROM activity_signups WHERE rid = 1 AND status <> 'C' AND ${inRange('create_time')}`),
    );
    expect(f.recharged).toBe(
      await scalar(
        `SELECT coalesce(sum(paid_amount), 0)::numeric(14,2)::text v FROM card_recharges WHERE rid = 1 AND status <> 'R' AND ${inRange('created_at')}`,
      ),
    );
    // money always with two decimals, counts whole numbers
    for (const k of ['received', 'refunded', 'receivable', 'temp_income', 'recharged']) expect(f[k]).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('a day sums into its range: today and the 29 days before add up to the 30 days', async () => {
    const whole = (await t.call('pannelindex', { start_date: start, end_date: end }, admin)).data.figures;
    const before = (await t.call('pannelindex', { start_date: start, end_date: addDays(end, -1) }, admin)).data.figures;
    const day = (await t.call('pannelindex', { start_date: end, end_date: end }, admin)).data.figures;
    const fen = (v: string) => BigInt(v.replace('.', ''));
    expect(fen(before.received) + fen(day.received)).toBe(fen(whole.received));
    expect(before.payments + day.payments).toBe(whole.payments);
  });

  it('answers only the cards the roles read: a steward sees the work orders, not the money', async () => {
    const res = await t.call('pannelindex', { start_date: start, end_date: end }, steward);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    const f = res.data.figures;
    expect([f.received, f.payments, f.cars_in, f.recharged]).toEqual([null, null, null, null]);
    expect(typeof f.repairs_new).toBe('number');
    expect(typeof f.complaints_done).toBe('number');
  });

  it('refuses a role without reports', async () => {
    for (const token of [cashier, merchant]) {
      expect((await t.call('pannelindex', { start_date: start, end_date: end }, token)).return_code).toBe('NO_PERMISSION');
    }
  });

  it('refuses a bad period with a Chinese message', async () => {
    const bad = async (payload: Record<string, unknown>, msg: string) => {
      const res = await t.call('pannelindex', payload, admin);
      expect(res.return_code).toBe('FAIL');
      expect(res.return_msg).toContain(msg);
    };
    await bad({ start_date: end, end_date: addDays(end, -1) }, '结束日期不能早于开始日期');
    await bad({ start_date: addDays(end, -366), end_date: end }, '日期区间不能超过 366 天');
    await bad({ start_date: '2026-02-30', end_date: end }, '日期不存在');
    await bad({ start_date: '2026/01/01', end_date: end }, '日期格式应为 YYYY-MM-DD');
    await bad({ end_date: end }, '');
    // a whole leap year is allowed
    expect((await t.call('pannelindex', { start_date: '2028-01-01', end_date: '2028-12-31' }, admin)).return_code).toBe('SUCCESS');
  });

  it('answers null for the cards of a module closed in the community, and closes with fees', async () => {
    await sql`UPDATE regions SET modules_off = '{parking,cards}' WHERE id = 1`.execute(t.database.db);
    try {
      const [fresh] = await t.logins('admin');
      const f = (await t.call('pannelindex', { start_date: start, end_date: end }, fresh)).data.figures;
      expect([f.cars_in, f.cars_out, f.temp_income, f.recharged]).toEqual([null, null, null, null]);
      expect(typeof f.received).toBe('string');
      expect(typeof f.passes).toBe('number');
      await sql`UPDATE regions SET modules_off = '{fees}' WHERE id = 1`.execute(t.database.db);
      const [closed] = await t.logins('admin');
      expect((await t.call('pannelindex', { start_date: start, end_date: end }, closed)).return_code).toBe('NO_PERMISSION');
    } finally {
      await sql`UPDATE regions SET modules_off = '{}' WHERE id = 1`.execute(t.database.db);
    }
  });
});

function toNumber(v: unknown): number {
  return Number(v);
}
