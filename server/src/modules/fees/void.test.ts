import { fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { moveBalance } from '../cards/ledger.js';
import { totalsMismatches } from '../../test/keptData.js';
import { PAYDATA_TOTALS } from './totals.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let finance: string;
let steward: string;
let n = 0;
const key = () => `void-test-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier, finance, steward] = await t.logins('admin', 'admin2', 'cashier', 'finance', 'steward');
});
afterAll(() => t.close());

type Bill = { id: number; fee: string; total: string };
const used = new Set<number>();
/** A room of community 1 with unpaid bills, a new one each time. */
async function room(min = 1) {
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
  const desk = (await t.call('cashierbills', { hid }, cashier)).data;
  const bills = desk.items as Bill[];
  return { hid, bills, ids: bills.map((b) => b.id), total: bills.reduce((s, b) => s + toFen(b.total), 0n), totals: desk.totals };
}

async function ensureOwner(hid: number): Promise<number> {
  const db = t.database.db;
  const found = await db
    .selectFrom('room_members')
    .select('member_id')
    .where('rid', '=', 1)
    .where('hid', '=', hid)
    .where('relation', '=', 'owner')
    .where('status', '=', 'Y')
    .orderBy('id')
    .executeTakeFirst();
  if (found) return found.member_id;
  const m = await db
    .insertInto('members')
    .values({ rid: 1, realname: '作废业主', mobile: `197${String(hid).padStart(8, '0')}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('room_members').values({ rid: 1, hid, member_id: m.id, relation: 'owner' }).execute();
  return m.id;
}

const balance = async (memberId: number) =>
  toFen(
    (await t.database.db.selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
      .balance,
  );

const payAll = (r: { hid: number; ids: number[]; total: bigint }, token = cashier, extra: Record<string, unknown> = {}) =>
  t.call(
    'cashierpay',
    { hid: r.hid, bill_ids: r.ids, pay_type: 'cash', paid_amount: fenToYuan(r.total), idempotency_key: key(), ...extra },
    token,
  );

/** The kept totals of today against the receipts themselves, not voided. */
async function keptMatchesReceipts() {
  const kept = await sql<{ n: string; paid: string }>`
    SELECT coalesce(sum(payments), 0)::text AS n, coalesce(sum(paid_amount), 0)::numeric(14,2)::text AS paid
    FROM fee_payment_totals WHERE rid = 1 AND day = current_date`.execute(t.database.db);
  const real = await sql<{ n: string; paid: string }>`
    SELECT count(*)::text AS n, coalesce(sum(paid_amount), 0)::numeric(14,2)::text AS paid
    FROM fee_payments WHERE rid = 1 AND created_at::date = current_date AND status <> 'V'`.execute(t.database.db);
  expect(kept.rows[0]).toEqual(real.rows[0]);
  // and 缴费明细's kept lines, the voided ones counted apart
  expect(await totalsMismatches(t.database.db, PAYDATA_TOTALS)).toEqual([]);
}

describe('voiding a receipt (作废, issue 34)', () => {
  it('puts every bill of every room back to unpaid, gives the balance back and takes the overpayment out, once', async () => {
    const a = await room(1);
    const b = await room(1);
    const owner = await ensureOwner(a.hid);
    await t.database.db.insertInto('room_members').values({ rid: 1, hid: b.hid, member_id: owner, relation: 'owner' }).execute();
    await t.call('balancetopup', { hid: a.hid, amount: '30.00', pay_type: 'cash', idempotency_key: key() }, cashier);
    const start = await balance(owner);
    const before = (await t.call('cashierbills', { hid: a.hid }, cashier)).data;
    const arrearsB = before.owner_rooms.find((r: { hid: number }) => r.hid === b.hid).arrears;
    const total = a.total + b.total;
    const usedFen = start < total ? start : total;
    const pay = await t.call(
      'cashierpay',
      {
        hid: a.hid,
        bill_ids: [...a.ids, ...b.ids],
        pay_type: 'wechat',
        use_balance: true,
        paid_amount: fenToYuan(total - usedFen + 1234n),
        idempotency_key: key(),
      },
      cashier,
    );
    expect(pay.return_code).toBe('SUCCESS');
    expect(pay.data.hid).toBe(a.hid);
    expect(await balance(owner)).toBe(start - usedFen + 1234n);
    await keptMatchesReceipts();

    const [x, y] = await Promise.all([
      t.call('paymentvoid', { id: pay.data.id, reason: '收错房屋' }, cashier),
      t.call('paymentvoid', { id: pay.data.id, reason: '收错房屋' }, cashier),
    ]);
    expect([x.return_code, y.return_code].sort()).toEqual(['FAIL', 'SUCCESS']);
    const ok = x.return_code === 'SUCCESS' ? x : y;
    expect([x.return_msg, y.return_msg]).toContain('该收据已作废');
    expect(ok.return_msg).toBe(`收据 ${pay.data.receipt_no} 已作废，账单已恢复未缴`);
    expect(ok.data).toMatchObject({ status: 'V', status_ch: '已作废', void_reason: '收错房屋', voided_by: '赵收银', hid: a.hid });
    expect(ok.data.void_time).not.toBe('');
    // the money moved once: the balance is what it was before the payment
    expect(await balance(owner)).toBe(start);
    // both rooms owe what they owed, each bill in its own room
    const after = (await t.call('cashierbills', { hid: a.hid }, cashier)).data;
    expect(after.items.map((i: Bill) => i.id)).toEqual(before.items.map((i: Bill) => i.id));
    expect(after.totals).toEqual(before.totals);
    expect(after.owner_rooms.find((r: { hid: number }) => r.hid === b.hid).arrears).toEqual(arrearsB);
    expect((await t.call('cashierbills', { hid: b.hid }, cashier)).data.items.map((i: Bill) => i.id)).toEqual(b.ids);
    const bills = await t.database.db
      .selectFrom('fee_bills')
      .select(['status', 'payment_id', 'paid_at', 'late_fee'])
      .where('rid', '=', 1)
      .where('id', 'in', [...a.ids, ...b.ids])
      .execute();
    for (const bill of bills) expect(bill).toMatchObject({ payment_id: null, paid_at: null, late_fee: '0.00' });
    expect(bills.every((bill) => bill.status !== 'Y')).toBe(true);
    // the receipt stays, says so on the list, and is out of the kept totals
    const listed = (await t.call('paymentlist', { receipt_no: pay.data.receipt_no }, cashier)).data.items[0];
    expect(listed).toMatchObject({ status: 'V', status_ch: '已作废', void_reason: '收错房屋' });
    // finance, who may void any receipt, finds it on 收费记录 too
    const forFinance = await t.call('paymentlist', { receipt_no: pay.data.receipt_no }, finance);
    expect(forFinance.return_code, forFinance.return_msg).toBe('SUCCESS');
    expect(forFinance.data.items[0]).toMatchObject({ id: pay.data.id, status: 'V' });
    await keptMatchesReceipts();
    // nothing more happens to a voided receipt
    expect((await t.call('paymentvoid', { id: pay.data.id, reason: '再来' }, finance)).return_msg).toBe('该收据已作废');
    expect((await t.call('refundapply', { payment_id: pay.data.id, reason: '退' }, cashier)).return_msg).toBe('该收据已作废');
    // and the bills can be paid again
    expect((await payAll({ hid: a.hid, ids: a.ids, total: a.total })).return_code).toBe('SUCCESS');
  });

  it('refuses bad payloads, roles that may not, other communities, another cashier, other days, refunded receipts', async () => {
    const r = await room(2);
    const first = { hid: r.hid, ids: [r.ids[0]!], total: toFen(r.bills[0]!.total) };
    const pay = await payAll(first);
    expect(pay.return_code).toBe('SUCCESS');
    const id = pay.data.id as number;
    const noReason = await t.call('paymentvoid', { id, reason: '  ' }, cashier);
    expect(noReason.return_code).toBe('FAIL');
    expect(noReason.return_msg).toContain('请填写作废原因');
    expect((await t.call('paymentvoid', { id, reason: '长'.repeat(201) }, cashier)).return_code).toBe('FAIL');
    expect((await t.call('paymentvoid', { id: 0, reason: 'x' }, cashier)).return_code).toBe('FAIL');
    expect((await t.call('paymentvoid', { id, reason: 'x' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('paymentvoid', { id, reason: 'x' }, admin2)).return_msg).toBe('收费记录不存在');
    expect((await t.call('paymentvoid', { id: 99999999, reason: 'x' }, cashier)).return_msg).toBe('收费记录不存在');
    // a receipt another cashier took: finance voids it, the cashier does not
    const second = { hid: r.hid, ids: [r.ids[1]!], total: toFen(r.bills[1]!.total) };
    const byAdmin = await payAll(second, admin);
    expect(byAdmin.return_code).toBe('SUCCESS');
    expect((await t.call('paymentvoid', { id: byAdmin.data.id, reason: 'x' }, cashier)).return_msg).toBe(
      '只能作废自己收取的收据，其他收据请联系财务作废',
    );
    expect((await t.call('paymentvoid', { id: byAdmin.data.id, reason: '财务作废' }, finance)).data).toMatchObject({
      status: 'V',
      voided_by: '郑会计',
    });
    // a receipt waiting for a refund, or refunded, is not voided
    const asked = await t.call('refundapply', { payment_id: id, reason: '多缴' }, cashier);
    expect(asked.return_code).toBe('SUCCESS');
    expect((await t.call('paymentvoid', { id, reason: 'x' }, cashier)).return_msg).toBe('该收据有待审核的退款申请，不能作废');
    expect((await t.call('refundapprove', { id: asked.data.id, approve: true }, finance)).return_code).toBe('SUCCESS');
    expect((await t.call('paymentvoid', { id, reason: 'x' }, cashier)).return_msg).toBe('该收据已有退款，不能作废');
    // yesterday's receipt goes through a refund instead
    const again = await payAll(first);
    expect(again.return_code).toBe('SUCCESS');
    await sql`UPDATE fee_payments SET created_at = created_at - interval '1 day' WHERE rid = 1 AND id = ${again.data.id}`.execute(
      t.database.db,
    );
    expect((await t.call('paymentvoid', { id: again.data.id, reason: 'x' }, finance)).return_msg).toBe(
      '只能作废当天的收据，往日的收据请走退款',
    );
    await keptMatchesReceipts();
  });

  it('refuses when the overpayment put into the balance is spent', async () => {
    const r = await room(1);
    const owner = await ensureOwner(r.hid);
    const pay = await payAll(r, cashier, { paid_amount: fenToYuan(r.total + 500n) });
    expect(pay.data.to_balance).toBe('5.00');
    // spent at a store, down to 1 yuan: through the ledger, as every balance change goes
    const spent = (await balance(owner)) - 100n;
    await t.database.db.transaction().execute((trx) =>
      moveBalance(trx, {
        rid: 1,
        memberId: owner,
        fen: spent,
        ioType: 2,
        feetype: 'shop',
        paytype: 'balance',
        orderid: 'S-VOID',
        remark: '',
        createUser: 't',
      }),
    );
    expect((await t.call('paymentvoid', { id: pay.data.id, reason: '多收' }, cashier)).return_msg).toBe(
      '该收据多收的 5.00 元已转入业主余额并已被使用，不能作废，请走退款',
    );
    expect((await t.call('paymentinfo', { id: pay.data.id }, cashier)).data.status).toBe('Y');
    expect(await balance(owner)).toBe(100n);
  });

  it('reopens the approved discount the receipt used, to be used again', async () => {
    const r = await room(2);
    const amount = fenToYuan(r.total / 2n);
    const asked = await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount, reason: '漏水减免' }, cashier);
    expect(asked.return_code).toBe('SUCCESS');
    expect((await t.call('discountapprove', { id: asked.data.id, approve: true }, finance)).return_code).toBe('SUCCESS');
    const withDiscount = { hid: r.hid, ids: r.ids, total: r.total - toFen(amount) };
    const extra = { discount: amount, discount_request_id: asked.data.id };
    const paid = await payAll(withDiscount, cashier, extra);
    expect(paid.return_code).toBe('SUCCESS');
    expect((await t.call('paymentvoid', { id: paid.data.id, reason: '优惠金额录错' }, cashier)).return_code).toBe('SUCCESS');
    const row = (await t.call('discount_request_list', { hid: r.hid }, cashier)).data.items.find(
      (d: { id: number }) => d.id === asked.data.id,
    );
    expect(row).toMatchObject({ status: 'Y', payment_id: 0, receipt_no: '' });
    const log = (await t.call('discountlog', { id: asked.data.id }, cashier)).data.items;
    expect(log.at(-1)).toMatchObject({ transition_ch: '收据作废，可再次使用', to_state: 'Y' });
    const repaid = await payAll(withDiscount, cashier, extra);
    expect(repaid.return_code).toBe('SUCCESS');
    expect(repaid.data.discount).toBe(amount);
  });
});
