import { fenToYuan, toFen } from '@wuye/contract';
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
const key = () => `discount-test-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier, finance, steward] = await t.logins('admin', 'admin2', 'cashier', 'finance', 'steward');
});
afterAll(() => t.close());

const used = new Set<number>();
/** A room of community 1 with unpaid bills, a new one each time. */
async function room() {
  const rows = await t.database.db
    .selectFrom('fee_bills')
    .select('hid')
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .groupBy('hid')
    .having(sql`count(*)`, '>=', 2)
    .orderBy('hid')
    .execute();
  const hid = rows.map((r) => r.hid).find((h) => !used.has(h))!;
  used.add(hid);
  const bills = (await t.call('cashierbills', { hid }, cashier)).data.items as Array<{ id: number; fee: string; total: string }>;
  const total = bills.reduce((s, b) => s + toFen(b.total), 0n);
  return { hid, bills, ids: bills.map((b) => b.id), total };
}

/** Half of what the bills come to: above the default cap of 20 %. */
const half = (total: bigint) => fenToYuan(total / 2n);

const pay = (r: { hid: number; ids: number[]; total: bigint }, discount: string, token: string, extra: Record<string, unknown> = {}) =>
  t.call(
    'cashierpay',
    {
      hid: r.hid,
      bill_ids: r.ids,
      pay_type: 'cash',
      discount,
      paid_amount: fenToYuan(r.total - toFen(discount)),
      idempotency_key: key(),
      ...extra,
    },
    token,
  );

describe('discount approval above the cap (issue 33)', () => {
  it('a cashier refused above the cap asks for an approval; a manager approves; the cashier uses it once for exactly those bills', async () => {
    const r = await room();
    const amount = half(r.total);
    expect((await pay(r, amount, cashier)).return_msg).toMatch(/^优惠超过本小区收银员上限.*「申请优惠审批」$/);
    // within the cap there is nothing to approve
    expect((await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount: '0.01', reason: '老人' }, cashier)).return_msg).toMatch(
      /^优惠未超过本小区收银员上限/,
    );
    expect((await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount, reason: '' }, cashier)).return_msg).toContain('申请原因');
    const asked = await t.call(
      'discountapply',
      { hid: r.hid, bill_ids: [...r.ids].reverse(), amount, reason: '房屋漏水，经理同意减免' },
      cashier,
    );
    expect(asked.return_code).toBe('SUCCESS');
    const id = asked.data.id as number;
    // one of the same bills again, its whole amount off (above the cap, within what it owes)
    const again = { hid: r.hid, bill_ids: [r.ids[0]], amount: r.bills[0]!.total, reason: '再来' };
    expect((await t.call('discountapply', again, cashier)).return_msg).toMatch(
      new RegExp(`已有待审批或已批准未使用的优惠申请（编号 ${id}）`),
    );
    // waiting: not usable yet
    expect((await pay(r, amount, cashier, { discount_request_id: id })).return_msg).toBe('该优惠申请尚未审批，请等待收费主管审批后再收款');
    const row = async (token: string) =>
      (await t.call('discount_request_list', { status: 'E' }, token)).data.items.find((d: { id: number }) => d.id === id);
    expect(await row(cashier)).toMatchObject({ status: 'E', status_ch: '待审批', mine: true, amount, applicant: '赵收银', hid: r.hid });
    expect((await row(finance)).mine).toBe(false);
    // only a manager decides, in this community
    expect((await t.call('discountapprove', { id, approve: true }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('discountapprove', { id, approve: true }, admin2)).return_msg).toBe('优惠申请不存在');
    const ok = await t.call('discountapprove', { id, approve: true, remark: '同意减免' }, finance);
    expect(ok.data).toMatchObject({ status: 'Y', approver: '郑会计', approve_remark: '同意减免' });
    expect((await t.call('discountapprove', { id, approve: false }, finance)).return_msg).toBe('该优惠申请已处理');
    // used for exactly the bills asked, for the amount approved, by the one who asked
    const fewer = { ...r, ids: r.ids.slice(1), total: r.total - toFen(r.bills[0]!.total) };
    expect((await pay(fewer, '0.01', cashier, { discount_request_id: id })).return_msg).toBe(
      '所选账单与优惠申请的账单不一致：请只勾选申请时的账单，或重新申请',
    );
    expect((await pay(r, fenToYuan(toFen(amount) - 1n), cashier, { discount_request_id: id })).return_msg).toBe(
      `优惠金额须为批准的 ${amount} 元`,
    );
    expect((await pay(r, amount, admin, { discount_request_id: id })).return_msg).toBe('只有申请人可以使用该优惠申请');
    const paid = await pay(r, amount, cashier, { discount_request_id: id });
    expect(paid.return_code).toBe('SUCCESS');
    expect(paid.data).toMatchObject({ discount: amount, total: fenToYuan(r.total - toFen(amount)) });
    const after = (await t.call('discount_request_list', { hid: r.hid }, cashier)).data.items.find((d: { id: number }) => d.id === id);
    expect(after).toMatchObject({ status: 'U', status_ch: '已使用', payment_id: paid.data.id, receipt_no: paid.data.receipt_no });
    // once: the request is spent (and the bills are paid)
    expect((await pay(r, amount, cashier, { discount_request_id: id })).return_code).toBe('FAIL');
    const log = (await t.call('discountlog', { id }, cashier)).data.items;
    expect(log.map((l: { transition_ch: string; to_state_ch: string }) => `${l.transition_ch} ${l.to_state_ch}`)).toEqual([
      '提交 待审批',
      '批准 已批准',
      '收款使用 已使用',
    ]);
    expect(log[0].input).toEqual({ reason: '房屋漏水，经理同意减免', amount });
    expect(log[2].input).toEqual({ receipt_no: paid.data.receipt_no });
  });

  it('nobody decides a request of their own; a rejected one, or one whose bills changed, is never used', async () => {
    const r = await room();
    const amount = half(r.total);
    const own = await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount, reason: '管理员自己申请' }, admin);
    expect(own.return_code).toBe('SUCCESS');
    for (const approve of [true, false]) {
      expect((await t.call('discountapprove', { id: own.data.id, approve }, admin)).return_msg).toBe(
        '不能审批自己提交的优惠申请，请由其他收费主管或管理员处理',
      );
    }
    expect((await t.call('discountapprove', { id: own.data.id, approve: false, remark: '不符合' }, finance)).data.status).toBe('N');
    expect((await pay(r, amount, admin, { discount_request_id: own.data.id })).return_msg).toBe('该优惠申请已被驳回，不能使用');

    const asked = await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount, reason: '再申请' }, cashier);
    await t.call('discountapprove', { id: asked.data.id, approve: true }, admin);
    // a bill's amount edited after the request: the approval no longer stands
    const first = r.bills[0]!;
    expect(
      (await t.call('feeedit', { id: first.id, fee: fenToYuan(toFen(first.fee) + 100n), reason: '面积更正' }, admin)).return_code,
    ).toBe('SUCCESS');
    const changed = { ...r, total: r.total + 100n };
    expect((await pay(changed, amount, cashier, { discount_request_id: asked.data.id })).return_msg).toBe(
      '申请后账单金额已变动，该优惠申请不能使用，请重新申请',
    );
    // nothing was paid by any refusal
    expect((await t.call('cashierbills', { hid: r.hid }, cashier)).data.items).toHaveLength(r.bills.length);
  });

  it('keeps to its roles and community', async () => {
    const r = await room();
    expect((await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount: half(r.total), reason: 'x' }, steward)).return_code).toBe(
      'NO_PERMISSION',
    );
    expect((await t.call('discountapply', { hid: r.hid, bill_ids: r.ids, amount: half(r.total), reason: 'x' }, admin2)).return_msg).toBe(
      '房屋不存在',
    );
    expect((await t.call('discount_request_list', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('discount_request_list', {}, admin2)).data.total).toBe(0);
    expect((await t.call('discountlog', { id: 1 }, admin2)).return_msg).toBe('优惠申请不存在');
  });
});
