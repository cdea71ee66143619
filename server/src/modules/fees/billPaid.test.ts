import { fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { registerBillPaidListener } from './billPaid.js';

let t: TestServer;
let cashier: string;
const heard: Array<{ ids: number[]; receipt: string; paidInside: boolean }> = [];
let refuse = false;

beforeAll(async () => {
  t = await startTestServer();
  [cashier] = await t.logins('cashier');
  registerBillPaidListener(async (ctx, ids, receipt) => {
    // inside the payment's transaction: the bills read as paid already
    const rows = await ctx.db
      .selectFrom('fee_bills')
      .select('status')
      .where('rid', '=', ctx.rid)
      .where('id', 'in', [...ids])
      .execute();
    heard.push({ ids: [...ids], receipt, paidInside: rows.every((r) => r.status === 'Y') });
    if (refuse) throw new Error('listener refused');
  });
});
afterAll(() => t.close());

async function unpaid(skip: number) {
  const { rows } = await sql<{
    hid: number;
  }>`SELECT hid FROM fee_bills WHERE rid = 1 AND status <> 'Y' GROUP BY hid ORDER BY hid OFFSET ${skip} LIMIT 1`.execute(t.database.db);
  const hid = rows[0]!.hid;
  const bills = (await t.call('cashierbills', { hid }, cashier)).data.items as Array<{ id: number; total: string }>;
  return { hid, bill: bills[0]! };
}

describe('bill-paid listeners', () => {
  it('hear the bills a payment just paid, inside its transaction', async () => {
    const { hid, bill } = await unpaid(3);
    const paid = await t.call(
      'cashierpay',
      { hid, bill_ids: [bill.id], pay_type: 'cash', paid_amount: bill.total, idempotency_key: `bill-paid-${Date.now()}` },
      cashier,
    );
    expect(paid.return_code, paid.return_msg).toBe('SUCCESS');
    expect(heard.at(-1)).toEqual({ ids: [bill.id], receipt: paid.data.receipt_no, paidInside: true });
  });

  it('a listener that throws refuses the payment, and the bill stays unpaid', async () => {
    const { hid, bill } = await unpaid(5);
    refuse = true;
    const paid = await t.call(
      'cashierpay',
      {
        hid,
        bill_ids: [bill.id],
        pay_type: 'cash',
        paid_amount: fenToYuan(toFen(bill.total)),
        idempotency_key: `bill-paid-x-${Date.now()}`,
      },
      cashier,
    );
    refuse = false;
    expect(paid.return_code).not.toBe('SUCCESS');
    const row = await t.database.db
      .selectFrom('fee_bills')
      .select('status')
      .where('rid', '=', 1)
      .where('id', '=', bill.id)
      .executeTakeFirstOrThrow();
    expect(row.status).not.toBe('Y');
  });
});
