import { fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
let n = 0;
const key = () => `refund-test-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

const used = new Set<number>();
async function room(min: number) {
  const rows = await t.database.db
    .selectFrom('fee_bills')
    .select('hid')
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .groupBy('hid')
    .having(sql`count(*)`, '>=', min)
    .orderBy('hid', 'desc')
    .execute();
  const hid = rows.map((r) => r.hid).find((h) => !used.has(h))!;
  used.add(hid);
  const db = t.database.db;
  const owner = await db
    .selectFrom('room_members')
    .select('member_id')
    .where('rid', '=', 1)
    .where('hid', '=', hid)
    .where('relation', '=', 'owner')
    .where('status', '=', 'Y')
    .orderBy('id')
    .executeTakeFirst();
  let memberId = owner?.member_id;
  if (!memberId) {
    const m = await db
      .insertInto('members')
      .values({ rid: 1, realname: '退款业主', mobile: `198${String(hid).padStart(8, '0')}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('room_members').values({ rid: 1, hid, member_id: m.id, relation: 'owner' }).execute();
    memberId = m.id;
  }
  const bills = (await t.call('cashierbills', { hid }, cashier)).data.items as Array<{
    id: number;
    fee: string;
    total: string;
    status: string;
  }>;
  return { hid, memberId, bills };
}
const balance = async (memberId: number) =>
  toFen(
    (await t.database.db.selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
      .balance,
  );

describe('prepayment', () => {
  it('tops up the owner balance once per key and pays from it', async () => {
    const r = await room(1);
    const before = await balance(r.memberId);
    const payload = { hid: r.hid, amount: '500.00', pay_type: 'wechat', idempotency_key: key() };
    const a = await t.call('balancetopup', payload, cashier);
    expect(a.return_code).toBe('SUCCESS');
    const b = await t.call('balancetopup', payload, cashier);
    expect(b.data).toEqual(a.data);
    expect(await balance(r.memberId)).toBe(before + 50000n);
    const info = await t.call('housebalance', { hid: r.hid }, cashier);
    expect(toFen(info.data.balance)).toBe(before + 50000n);
    const bill = r.bills[0]!;
    if (toFen(bill.total) <= before + 50000n) {
      const pay = await t.call(
        'cashierpay',
        { hid: r.hid, bill_ids: [bill.id], pay_type: 'balance', paid_amount: '0', idempotency_key: key() },
        cashier,
      );
      expect(pay.return_code).toBe('SUCCESS');
      expect(pay.data.balance_used).toBe(bill.total);
      expect(await balance(r.memberId)).toBe(before + 50000n - toFen(bill.total));
    }
  });

  it('refuses zero, 3 decimals, other communities and roles', async () => {
    const r = await room(1);
    expect(
      (await t.call('balancetopup', { hid: r.hid, amount: '0', pay_type: 'cash', idempotency_key: key() }, cashier)).return_msg,
    ).toContain('充值金额必须大于0');
    expect(
      (await t.call('balancetopup', { hid: r.hid, amount: '1.001', pay_type: 'cash', idempotency_key: key() }, cashier)).return_msg,
    ).toContain('amount');
    expect(
      (await t.call('balancetopup', { hid: r.hid, amount: '1', pay_type: 'balance', idempotency_key: key() }, cashier)).return_msg,
    ).toContain('pay_type');
    expect((await t.call('balancetopup', { hid: r.hid, amount: '1', pay_type: 'cash', idempotency_key: key() }, admin2)).return_msg).toBe(
      '房屋不存在',
    );
    expect((await t.call('housebalance', { hid: r.hid }, admin2)).return_msg).toBe('房屋不存在');
    expect((await t.call('balancetopup', { hid: r.hid, amount: '1', pay_type: 'cash', idempotency_key: key() }, steward)).return_code).toBe(
      'NO_PERMISSION',
    );
  });
});

describe('refunds', () => {
  it('a full refund restores exactly: bills unpaid again, balance back, receipt marked refunded', async () => {
    const r = await room(2);
    await t.call('balancetopup', { hid: r.hid, amount: '50.00', pay_type: 'cash', idempotency_key: key() }, cashier);
    const startBalance = await balance(r.memberId);
    const ids = r.bills.slice(0, 2).map((b) => b.id);
    const total = r.bills.slice(0, 2).reduce((s, b) => s + toFen(b.total), 0n);
    const usedFen = startBalance < total - 100n ? startBalance : total - 100n;
    const pay = await t.call(
      'cashierpay',
      {
        hid: r.hid,
        bill_ids: ids,
        pay_type: 'cash',
        use_balance: true,
        discount: '1.00',
        paid_amount: fenToYuan(total - 100n - usedFen + 1234n),
        idempotency_key: key(),
      },
      cashier,
    );
    expect(pay.return_code).toBe('SUCCESS');
    expect(pay.data.to_balance).toBe('12.34');
    const apply = await t.call('refundapply', { payment_id: pay.data.id, reason: '重复缴费' }, cashier);
    expect(apply.return_code).toBe('SUCCESS');
    expect(apply.data.amount).toBe(fenToYuan(total - 100n));
    expect((await t.call('refundapply', { payment_id: pay.data.id, reason: '再来' }, cashier)).return_msg).toBe(
      '该收据已有待审核的退款申请',
    );
    // the cashier cannot approve
    expect((await t.call('refundapprove', { id: apply.data.id, approve: true }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('refundapprove', { id: apply.data.id, approve: true }, admin2)).return_msg).toBe('退款申请不存在');
    const ok = await t.call('refundapprove', { id: apply.data.id, approve: true, remark: '同意' }, admin);
    expect(ok.return_code).toBe('SUCCESS');
    expect(ok.data).toMatchObject({ status: 'Y', amount: fenToYuan(total - 100n), balance_amount: fenToYuan(usedFen), approver: '张经理' });
    expect(toFen(ok.data.cash_amount)).toBe(toFen(pay.data.due));
    // balance: what it was, plus the overpayment that stays the owner's
    expect(await balance(r.memberId)).toBe(startBalance + 1234n);
    const again = await t.call('cashierbills', { hid: r.hid }, cashier);
    for (const id of ids) {
      const bill = again.data.items.find((b: { id: number }) => b.id === id);
      expect(bill.fee).toBe(r.bills.find((b) => b.id === id)!.fee);
    }
    const info = await t.call('paymentinfo', { id: pay.data.id }, cashier);
    expect(info.data).toMatchObject({ status: 'R', status_ch: '已退款', refunded_amount: fenToYuan(total - 100n) });
    expect((await t.call('refundapprove', { id: apply.data.id, approve: true }, admin)).return_msg).toBe('该退款申请已处理');
    expect((await t.call('refundapply', { payment_id: pay.data.id, reason: 'x' }, cashier)).return_msg).toBe('该收据已全部退款');
    // the bills can be paid again
    const repay = await t.call(
      'cashierpay',
      { hid: r.hid, bill_ids: ids, pay_type: 'cash', paid_amount: '99999', idempotency_key: key() },
      cashier,
    );
    expect(repay.return_code).toBe('SUCCESS');
  });

  it('a receipt says 退款中 while its refund waits; nobody approves or rejects a request of their own (issue 34)', async () => {
    const finance = await t.login('finance');
    const payRoom = async () => {
      const r = await room(1);
      const pay = await t.call(
        'cashierpay',
        { hid: r.hid, bill_ids: [r.bills[0]!.id], pay_type: 'cash', paid_amount: r.bills[0]!.total, idempotency_key: key() },
        cashier,
      );
      expect(pay.return_code).toBe('SUCCESS');
      return pay.data as { id: number; receipt_no: string };
    };
    const row = async (p: { receipt_no: string }) =>
      (await t.call('paymentlist', { receipt_no: p.receipt_no }, cashier)).data.items.find(
        (x: { receipt_no: string }) => x.receipt_no === p.receipt_no,
      );
    const first = await payRoom();
    expect(await row(first)).toMatchObject({ status: 'Y', status_ch: '已收款', refunding: false });
    const asked = await t.call('refundapply', { payment_id: first.id, reason: '多缴' }, cashier);
    expect(await row(first)).toMatchObject({ status: 'Y', status_ch: '退款中', refunding: true });
    expect((await t.call('paymentinfo', { id: first.id }, cashier)).data).toMatchObject({ status_ch: '退款中', refunding: true });
    expect((await t.call('refundapply', { payment_id: first.id, reason: '再来' }, cashier)).return_msg).toBe('该收据已有待审核的退款申请');
    // the list says whose request it is
    const mineOf = async (token: string) =>
      (await t.call('refund_list', { status: 'E' }, token)).data.items.find((f: { id: number }) => f.id === asked.data.id).mine;
    expect(await mineOf(cashier)).toBe(true);
    expect(await mineOf(finance)).toBe(false);
    // an administrator's own request: neither approved nor rejected by them, even as admin
    const second = await payRoom();
    const own = await t.call('refundapply', { payment_id: second.id, reason: '管理员申请' }, admin);
    for (const approve of [true, false]) {
      expect((await t.call('refundapprove', { id: own.data.id, approve }, admin)).return_msg).toBe(
        '不能审核自己提交的退款申请，请由其他有审核权限的人员处理',
      );
    }
    expect((await t.call('refund_list', { status: 'E' }, admin)).data.items.find((f: { id: number }) => f.id === own.data.id).mine).toBe(
      true,
    );
    // another approver decides them
    expect((await t.call('refundapprove', { id: own.data.id, approve: false, remark: '不退' }, finance)).data).toMatchObject({
      status: 'N',
      approver: '郑会计',
    });
    expect(await row(second)).toMatchObject({ status: 'Y', status_ch: '已收款', refunding: false });
    expect((await t.call('refundapprove', { id: asked.data.id, approve: true }, finance)).return_code).toBe('SUCCESS');
    expect(await row(first)).toMatchObject({ status: 'R', status_ch: '已退款', refunding: false });
  });

  it('partial refunds, then the last one returns exactly what is left', async () => {
    const r = await room(2);
    const ids = r.bills.slice(0, 2).map((b) => b.id);
    const total = r.bills.slice(0, 2).reduce((s, b) => s + toFen(b.total), 0n);
    const pay = await t.call(
      'cashierpay',
      { hid: r.hid, bill_ids: ids, pay_type: 'alipay', discount: '0.03', paid_amount: fenToYuan(total - 3n), idempotency_key: key() },
      cashier,
    );
    const first = await t.call('refundapply', { payment_id: pay.data.id, bill_ids: [ids[0]], reason: '面积有误' }, cashier);
    expect(first.data.amount).toBe(r.bills[0]!.total);
    await t.call('refundapprove', { id: first.data.id, approve: true }, admin);
    expect((await t.call('paymentinfo', { id: pay.data.id }, cashier)).data.status).toBe('P');
    expect((await t.call('refundapply', { payment_id: pay.data.id, bill_ids: [ids[0]], reason: 'x' }, cashier)).return_msg).toBe(
      '所选账单不在该收据中或已退款',
    );
    const second = await t.call('refundapply', { payment_id: pay.data.id, bill_ids: [ids[1]], reason: '搬离' }, cashier);
    expect(second.data.amount).toBe(fenToYuan(toFen(r.bills[1]!.total) - 3n));
    const rejected = await t.call('refundapprove', { id: second.data.id, approve: false, remark: '不符合' }, admin);
    expect(rejected.data.status_ch).toBe('已驳回');
    // the workflow's log: submitted by the cashier, rejected by the admin with the reason
    const log = await t.call('refundlog', { id: second.data.id }, cashier);
    expect(log.data.items.map((i: { transition_ch: string; to_state_ch: string }) => `${i.transition_ch}→${i.to_state_ch}`)).toEqual([
      '提交→待审核',
      '驳回→已驳回',
    ]);
    expect(log.data.items[1]).toMatchObject({ from_state: 'E', to_state: 'N', input: { remark: '不符合' } });
    expect((await t.call('refundapprove', { id: second.data.id, approve: true }, admin)).return_msg).toBe('该退款申请已处理');
    expect((await t.call('refundlog', { id: second.data.id }, admin2)).return_msg).toBe('退款申请不存在');
    const third = await t.call('refundapply', { payment_id: pay.data.id, bill_ids: [ids[1]], reason: '搬离' }, cashier);
    await t.call('refundapprove', { id: third.data.id, approve: true }, admin);
    const info = await t.call('paymentinfo', { id: pay.data.id }, cashier);
    expect(info.data.refunded_amount).toBe(fenToYuan(total - 3n));
    expect(info.data.status).toBe('R');
  });

  it('lists refunds per community and checks payloads and roles', async () => {
    const list = await t.call('refund_list', {}, admin);
    expect(list.data.total).toBeGreaterThanOrEqual(4);
    expect(list.data.items[0]).toHaveProperty('bill_titles');
    // pending: only the demo's own (a sales deposit's refund waiting for finance)
    const pending = await t.database.db.selectFrom('fee_refunds').select('id').where('rid', '=', 1).where('status', '=', 'E').execute();
    expect((await t.call('refund_list', { status: 'E' }, admin)).data.total).toBe(pending.length);
    expect((await t.call('refund_list', {}, admin2)).data.total).toBe(0);
    expect((await t.call('refund_list', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('refundapply', { payment_id: 1, reason: '' }, cashier)).return_msg).toContain('请填写退款原因');
    const p = (await t.call('paymentlist', { limit: 1 }, cashier)).data.items[0];
    expect((await t.call('refundapply', { payment_id: p.id, reason: 'x' }, admin2)).return_msg).toBe('收费记录不存在');
    expect((await t.call('refundapply', { payment_id: p.id, reason: 'x' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('refundapprove', { id: 1, approve: 'yes' }, admin)).return_msg).toContain('approve');
  });
});
