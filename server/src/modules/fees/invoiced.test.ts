import { fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { waitFor } from '../../test/process.js';
import { changedTables, tableSums } from '../../test/tableSums.js';

let t: TestServer;
let admin: string;
let cashier: string;
let n = 0;
const key = () => `invoiced-test-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, cashier] = await t.logins('admin', 'cashier');
});
afterAll(async () => {
  // the amounts this file wrote straight into the lines stand for invoices it never made: the
  // server's check of kept data at close would rightly find no invoice holding them
  await t.database.db
    .updateTable('fee_payment_items')
    .set({ invoiced: '0' })
    .where('invoiced', '>', '0')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('invoice_lines as l')
            .select('l.id')
            .whereRef('l.rid', '=', 'fee_payment_items.rid')
            .whereRef('l.payment_item_id', '=', 'fee_payment_items.id'),
        ),
      ),
    )
    .execute();
  await t.close();
});

type Bill = { id: number; total: string };
const used = new Set<number>();

/** A room of community 1 with at least `min` unpaid bills, a new one each time, its bills paid in one receipt. */
async function paidReceipt(min: number) {
  const rows = await t.database.db
    .selectFrom('fee_bills')
    .select('hid')
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .groupBy('hid')
    .having(sql`count(*)`, '>=', min)
    .orderBy('hid')
    .execute();
  const hid = rows.map((r) => r.hid).find((h) => !used.has(h))!;
  used.add(hid);
  const bills = ((await t.call('cashierbills', { hid }, cashier)).data.items as Bill[]).slice(0, min);
  const total = bills.reduce((s, b) => s + toFen(b.total), 0n);
  const pay = await t.call(
    'cashierpay',
    { hid, bill_ids: bills.map((b) => b.id), pay_type: 'cash', paid_amount: fenToYuan(total), idempotency_key: key() },
    cashier,
  );
  expect(pay.return_code, pay.return_msg).toBe('SUCCESS');
  return { id: pay.data.id as number, ids: bills.map((b) => b.id) };
}

/** Sets what invoices cover of the receipt's line of a bill, as the invoice area will. */
const invoice = (paymentId: number, billId: number, amount: string) =>
  sql`UPDATE fee_payment_items SET invoiced = ${amount} WHERE rid = 1 AND payment_id = ${paymentId} AND bill_id = ${billId}`.execute(
    t.database.db,
  );

/** Runs `refused`, which must answer `message` and change no table. */
async function refusedUnchanged(refused: () => Promise<{ return_code: string; return_msg: string }>, message: string) {
  const before = await tableSums(t.database.db);
  const res = await refused();
  expect([res.return_code, res.return_msg]).toEqual(['FAIL', message]);
  expect(changedTables(before, await tableSums(t.database.db))).toEqual([]);
}

const refundMsg = (yuan: string) => `所选费用已开具发票 ${yuan} 元，请先红冲发票后再退款`;
const voidMsg = (yuan: string) => `该收据已开具发票 ${yuan} 元，请先红冲发票后再作废`;

describe('invoiced money is not refunded or voided (issue 41)', () => {
  it('refundapply refuses the chosen lines an invoice covers, and the whole receipt, naming the sum', async () => {
    const p = await paidReceipt(2);
    const [a, b] = p.ids as [number, number];
    await invoice(p.id, a, '1.23');
    await refusedUnchanged(() => t.call('refundapply', { payment_id: p.id, bill_ids: [a], reason: '多缴' }, cashier), refundMsg('1.23'));
    await refusedUnchanged(() => t.call('refundapply', { payment_id: p.id, reason: '多缴' }, cashier), refundMsg('1.23'));
    await invoice(p.id, b, '0.75');
    await refusedUnchanged(() => t.call('refundapply', { payment_id: p.id, reason: '多缴' }, cashier), refundMsg('1.98'));
    await refusedUnchanged(() => t.call('refundapply', { payment_id: p.id, bill_ids: [b, a], reason: '多缴' }, cashier), refundMsg('1.98'));
    // a line no invoice covers is refunded while its neighbour stays invoiced
    await invoice(p.id, b, '0');
    const part = await t.call('refundapply', { payment_id: p.id, bill_ids: [b], reason: '面积有误' }, cashier);
    expect(part.return_code, part.return_msg).toBe('SUCCESS');
    expect((await t.call('refundapprove', { id: part.data.id, approve: true }, admin)).return_code).toBe('SUCCESS');
    await refusedUnchanged(() => t.call('refundapply', { payment_id: p.id, reason: '多缴' }, cashier), refundMsg('1.23'));
    // reversed by a red invoice: the refund goes ahead
    await invoice(p.id, a, '0');
    const rest = await t.call('refundapply', { payment_id: p.id, reason: '多缴' }, cashier);
    expect(rest.return_code, rest.return_msg).toBe('SUCCESS');
    expect((await t.call('refundapprove', { id: rest.data.id, approve: true }, admin)).data.status).toBe('Y');
    expect((await t.call('paymentinfo', { id: p.id }, cashier)).data.status).toBe('R');
  });

  it('the approval refuses a request whose lines were invoiced while it waited, and approves it once reversed', async () => {
    const p = await paidReceipt(2);
    const [a, b] = p.ids as [number, number];
    const asked = await t.call('refundapply', { payment_id: p.id, bill_ids: [a], reason: '重复缴费' }, cashier);
    expect(asked.return_code, asked.return_msg).toBe('SUCCESS');
    // the other line's invoice does not stand in the way of this one
    await invoice(p.id, b, '5.00');
    await invoice(p.id, a, '1.01');
    await refusedUnchanged(() => t.call('refundapprove', { id: asked.data.id, approve: true, remark: '同意' }, admin), refundMsg('1.01'));
    const waiting = (await t.call('refund_list', { payment_id: p.id }, admin)).data.items[0];
    expect(waiting).toMatchObject({ id: asked.data.id, status: 'E' });
    expect((await t.call('paymentinfo', { id: p.id }, cashier)).data).toMatchObject({ status: 'Y', refunded_amount: '0.00' });
    await invoice(p.id, a, '0');
    const ok = await t.call('refundapprove', { id: asked.data.id, approve: true, remark: '同意' }, admin);
    expect(ok.return_code, ok.return_msg).toBe('SUCCESS');
    expect(ok.data.status).toBe('Y');
    expect((await t.call('paymentinfo', { id: p.id }, cashier)).data.status).toBe('P');
  });

  it.runIf(process.env.DATABASE_URL)(
    'an approval and a void wait for an invoice being issued for the lines, and are refused once it commits (PostgreSQL)',
    async () => {
      const p = await paidReceipt(1);
      const [a] = p.ids as [number];
      const asked = await t.call('refundapply', { payment_id: p.id, reason: '重复缴费' }, cashier);
      expect(asked.return_code, asked.return_msg).toBe('SUCCESS');
      const approve = () => t.call('refundapprove', { id: asked.data.id, approve: true }, admin);
      /** An invoice taking the line in a transaction of its own while `call` runs, committed once `call` waits on it. */
      const issuingWhile = async (call: () => Promise<{ return_code: string; return_msg: string }>) => {
        const issuer = await t.database.pool.connect();
        try {
          await issuer.query('BEGIN');
          const pid = Number((await issuer.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
          await issuer.query('UPDATE fee_payment_items SET invoiced = 2.50 WHERE rid = 1 AND payment_id = $1 AND bill_id = $2', [p.id, a]);
          const answer = call();
          await waitFor(
            'the call to wait for the invoice',
            async () =>
              Number(
                (await t.database.pool.query('SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]))
                  .rows[0]!.n,
              ) > 0,
            10_000,
          );
          await issuer.query('COMMIT');
          return await answer;
        } finally {
          issuer.release();
        }
      };
      const refused = await issuingWhile(approve);
      expect([refused.return_code, refused.return_msg]).toEqual(['FAIL', refundMsg('2.50')]);
      expect((await t.call('paymentinfo', { id: p.id }, cashier)).data).toMatchObject({ status: 'Y', refunded_amount: '0.00' });
      await invoice(p.id, a, '0');
      expect((await t.call('refundapprove', { id: asked.data.id, approve: false, remark: '改为作废' }, admin)).data.status).toBe('N');
      const voided = await issuingWhile(() => t.call('paymentvoid', { id: p.id, reason: '收错房屋' }, cashier));
      expect([voided.return_code, voided.return_msg]).toEqual(['FAIL', voidMsg('2.50')]);
      expect((await t.call('paymentinfo', { id: p.id }, cashier)).data.status).toBe('Y');
    },
  );

  it('paymentvoid refuses a receipt an invoice covers, naming the sum of its lines, and voids it once reversed', async () => {
    const p = await paidReceipt(2);
    const [a, b] = p.ids as [number, number];
    await invoice(p.id, a, '3.40');
    await invoice(p.id, b, '1.05');
    await refusedUnchanged(() => t.call('paymentvoid', { id: p.id, reason: '收错房屋' }, cashier), voidMsg('4.45'));
    await invoice(p.id, b, '0');
    await refusedUnchanged(() => t.call('paymentvoid', { id: p.id, reason: '收错房屋' }, cashier), voidMsg('3.40'));
    await invoice(p.id, a, '0');
    const ok = await t.call('paymentvoid', { id: p.id, reason: '收错房屋' }, cashier);
    expect(ok.return_code, ok.return_msg).toBe('SUCCESS');
    expect(ok.data.status).toBe('V');
  });
});
