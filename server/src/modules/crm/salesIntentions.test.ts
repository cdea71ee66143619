import { intention } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let sales: string;
let leasing: string;
let cashier: string;
let finance: string;
let admin2: string;
let mobileSeq = 0;
const newMobile = () => `1370303${String(++mobileSeq).padStart(4, '0')}`;
let key = 0;
const newKey = () => `intention-test-${Date.now()}-${++key}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, sales, leasing, cashier, finance, admin2] = await s.logins('admin', 'sales', 'leasing', 'cashier', 'finance', 'admin2');
});
afterAll(() => s?.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

/** A room of 阳光花园 nobody owns that no deposit of this file has used yet. */
async function freeRoom(): Promise<number> {
  const rows = await sql<{ id: number }>`SELECT r.id FROM rooms r JOIN buildings b ON b.rid = r.rid AND b.id = r.bid
    WHERE r.rid = 1 AND b.title <> '' AND NOT EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = r.rid AND rm.hid = r.id
      AND rm.relation = 'owner' AND rm.status = 'Y')
      AND NOT EXISTS (SELECT 1 FROM crm_intentions i WHERE i.rid = r.rid AND i.hid = r.id)
    ORDER BY r.id LIMIT 1`.execute(s.database.db);
  return Number(rows.rows[0]!.id);
}

async function addCustomer(token: string, v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call('addcrm', { name: '认筹客户', mobile: newMobile(), source: 'call', ...v }, token);
  ok(res);
  return res.data.id as number;
}

const info = async (id: number, token = sales) => (await s.call('intentioninfo', { id }, token)).data;
const customer = async (id: number) => (await s.call('crminfo', { id }, admin)).data;

/** Pays a deposit's bill at the cashier and answers the receipt's id. */
async function pay(intentionId: number): Promise<number> {
  const d = await info(intentionId, admin);
  const res = await s.call(
    'cashierpay',
    { hid: d.hid, bill_ids: [d.bill_id], pay_type: 'cash', idempotency_key: newKey(), paid_amount: d.amount, payer_name: d.customer_name },
    cashier,
  );
  ok(res);
  return res.data.id as number;
}

describeResource(intention, {
  server: () => s,
  sample: async (srv, token) => {
    const res = await srv.call('addcrm', { name: '资源认筹', mobile: '13703039999', source: 'walkin' }, token);
    return { customer_id: res.data.id, amount: '20000.00', hid: await freeRoom(), remark: '资源测试' };
  },
  edit: {},
  filters: { keyword: '资源认筹', status: 'P' },
  deniedWriter: 'cashier',
});

describe('a deposit', () => {
  it('takes the next queue number and bills the room; paid at the cashier it moves the customer to 认筹', async () => {
    const db = s.database.db;
    const id = await addCustomer(sales, { name: '排号客户' });
    ok(await s.call('crmvalid', { id }, sales));
    const hid = await freeRoom();
    const before =
      (await db.selectFrom('crm_sales_settings').select('queue_last').where('rid', '=', 1).executeTakeFirst())?.queue_last ?? 0;
    const added = await s.call('intentionadd', { customer_id: id, amount: '50000', hid }, sales);
    ok(added);
    const d = await info(added.data.id);
    expect(d).toMatchObject({ queue_no: before + 1, status: 'P', status_ch: '待缴费', amount: '50000.00', receipt_no: '', paid_at: '' });
    expect(d.queue_text).toBe(`第 ${String(before + 1).padStart(3, '0')} 号`);
    // an ordinary bill of the room, item 认筹金 under 销售收入, which the cashier shows
    const bill = await db
      .selectFrom('fee_bills as b')
      .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
      .innerJoin('fee_cost_types as c', (j) => j.onRef('c.rid', '=', 'b.rid').onRef('c.cost_type', '=', 'b.cost_type'))
      .select(['b.hid', 'b.fee', 'b.title', 'b.status', 'b.source', 'i.title as item', 'c.title as cost'])
      .where('b.id', '=', d.bill_id)
      .executeTakeFirstOrThrow();
    expect(bill).toMatchObject({ hid, fee: '50000.00', item: '认筹金', cost: '销售收入', source: 'intention' });
    expect(bill.title).toBe(`认筹金-排号客户（${d.queue_text}）`);
    const atCashier = (await s.call('cashierbills', { hid }, cashier)).data.items as Array<{ id: number }>;
    expect(atCashier.map((b) => b.id)).toContain(d.bill_id);
    expect((await customer(id)).stage).toBe('valid');

    await pay(d.id);
    const paid = await info(d.id);
    expect(paid).toMatchObject({ status: 'Y', status_ch: '已缴费' });
    expect(paid.receipt_no).not.toBe('');
    expect(paid.paid_at).not.toBe('');
    expect(await customer(id)).toMatchObject({ stage: 'pledge', stage_ch: '认筹' });
    const steps = (
      (await s.call('crmlog', { id }, sales)).data.items as Array<{ transition_ch: string; input: Record<string, unknown> }>
    ).at(-1)!;
    expect(steps.transition_ch).toBe('缴纳认筹金');
    expect(steps.input).toMatchObject({ queue_no: d.queue_text, amount: '50000.00', receipt_no: paid.receipt_no });
    const log = (await s.call('intentionlog', { id: d.id }, sales)).data.items as Array<{ transition_ch: string }>;
    expect(log.map((l) => l.transition_ch)).toEqual(['登记认筹', '收银台缴费']);
    // a paid deposit is not cancelled, and the customer holding it is not marked invalid
    expect((await s.call('intentioncancel', { id: d.id, reason: '不要了' }, sales)).return_msg).toBe('该认筹已缴费，不能取消认筹');
    expect((await s.call('crminvalid', { id, reason: '放弃' }, sales)).return_msg).toBe(
      `客户「排号客户」还有未退的认筹（排号 ${d.queue_no}），请先办理退款`,
    );
    expect((await s.call('crmdel', { id }, sales)).return_msg).toBe('该客户已有认筹记录（认筹金），不能删除；无意向请标记为无效');
  });

  it('is refused on an owner’s room, twice for a customer, for an invalid customer, and twice on one room in a month', async () => {
    const db = s.database.db;
    const id = await addCustomer(sales, { name: '规则客户' });
    const owned = await db
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['rm.hid', 'm.realname'])
      .where('rm.rid', '=', 1)
      .where('rm.relation', '=', 'owner')
      .where('rm.status', '=', 'Y')
      .orderBy('rm.id')
      .executeTakeFirstOrThrow();
    expect((await s.call('intentionadd', { customer_id: id, amount: '20000', hid: owned.hid }, sales)).return_msg).toBe(
      `所选房屋已有业主（${owned.realname}），认筹金不能记在业主的房屋上，请选择售楼处或未售房源`,
    );
    expect((await s.call('intentionadd', { customer_id: id, amount: '20000' }, sales)).return_msg).toBe(
      '请选择缴费房屋（售楼处或客户的意向房源）',
    );
    expect((await s.call('intentionadd', { customer_id: id, amount: '0', hid: await freeRoom() }, sales)).return_msg).toContain(
      '认筹金额须大于0',
    );
    const hid = await freeRoom();
    // the unit wanted is the default room
    ok(await s.call('editcrm', { ...(await customer(id)), id, hid }, sales));
    const first = await s.call('intentionadd', { customer_id: id, amount: '20000' }, sales);
    ok(first);
    expect((await info(first.data.id)).hid).toBe(hid);
    const q = (await info(first.data.id)).queue_text;
    expect((await s.call('intentionadd', { customer_id: id, amount: '20000', hid: await freeRoom() }, sales)).return_msg).toBe(
      `客户「规则客户」已有认筹（${q}），不能重复认筹`,
    );
    // another customer on the same room this month: the bills' key allows one
    const other = await addCustomer(sales, { name: '同房客户' });
    expect((await s.call('intentionadd', { customer_id: other, amount: '20000', hid }, sales)).return_msg).toBe(
      `所选房屋本月已有一张认筹金账单（客户「规则客户」，${q}）；同一房屋每月只能记一张认筹金账单，请选择客户的意向房源或其他未售房屋`,
    );
    // nothing was left behind by the refusal: no queue number used, no bill
    const next = await s.call('intentionadd', { customer_id: other, amount: '20000', hid: await freeRoom() }, sales);
    ok(next);
    expect((await info(next.data.id)).queue_no).toBe((await info(first.data.id)).queue_no + 1);
    ok(
      await s
        .call('crminvalid', { id: other, reason: '测试' }, sales)
        .then(async (r) => (r.return_code === 'FAIL' ? await s.call('intentioncancel', { id: next.data.id, reason: '测试' }, sales) : r)),
    );
    ok(await s.call('crminvalid', { id: other, reason: '测试' }, sales));
    expect((await s.call('intentionadd', { customer_id: other, amount: '20000', hid: await freeRoom() }, sales)).return_msg).toBe(
      '客户「同房客户」已标记无效，请先重新激活',
    );
    // another consultant's customer, another community's customer
    const theirs = await addCustomer(leasing, { name: '陈的认筹' });
    expect((await s.call('intentionadd', { customer_id: theirs, amount: '20000', hid: await freeRoom() }, sales)).return_msg).toBe(
      '该客户由其他置业顾问负责，不能查看或操作',
    );
    expect((await s.call('intentionadd', { customer_id: id, amount: '20000' }, admin2)).return_msg).toBe('客户不存在');
    expect((await s.call('intentioninfo', { id: first.data.id }, admin2)).return_msg).toBe('认筹不存在');
  });

  it('unpaid is cancelled: its bill is gone from the cashier and its number never comes back', async () => {
    const db = s.database.db;
    const id = await addCustomer(sales, { name: '取消客户' });
    const hid = await freeRoom();
    const d = await info((await s.call('intentionadd', { customer_id: id, amount: '10000', hid }, sales)).data.id);
    expect((await s.call('intentioncancel', { id: d.id, reason: '' }, sales)).return_msg).toContain('请填写取消原因');
    const res = await s.call('intentioncancel', { id: d.id, reason: '客户暂不认筹' }, sales);
    ok(res);
    expect(res.data).toMatchObject({ status: 'C', status_ch: '已取消', bill_id: null, reason: '客户暂不认筹' });
    expect(await db.selectFrom('fee_bills').select('id').where('id', '=', d.bill_id).executeTakeFirst()).toBeUndefined();
    expect((await s.call('intentioncancel', { id: d.id, reason: '再取消' }, sales)).return_msg).toBe('该认筹已取消，不能取消认筹');
    const again = await info((await s.call('intentionadd', { customer_id: id, amount: '10000', hid: await freeRoom() }, sales)).data.id);
    expect(again.queue_no).toBeGreaterThan(d.queue_no);
  });

  it('paid is refunded through the refund workflow: 退款中, paid again when rejected, 已退款 once approved, never owed again', async () => {
    const id = await addCustomer(sales, { name: '退款客户' });
    const hid = await freeRoom();
    const d = await info((await s.call('intentionadd', { customer_id: id, amount: '20000', hid }, sales)).data.id);
    expect((await s.call('intentionrefund', { id: d.id, reason: '未缴先退' }, sales)).return_msg).toBe('该认筹待缴费，不能申请退款');
    await pay(d.id);
    const asked = await s.call('intentionrefund', { id: d.id, reason: '客户改买其他楼盘' }, sales);
    ok(asked);
    expect(asked.return_msg).toBe('已提交退款申请，金额 20000.00 元，待财务审核');
    expect(asked.data).toMatchObject({ status: 'R', status_ch: '退款中' });
    const refundId = asked.data.refund_id as number;
    const refund = (await s.call('refund_list', { status: 'E' }, finance)).data.items.find((r: { id: number }) => r.id === refundId);
    expect(refund.reason).toContain('认筹金退款');
    expect(refund.amount).toBe('20000.00');
    expect((await s.call('intentionrefund', { id: d.id, reason: '再申请' }, sales)).return_msg).toBe('该认筹退款中，不能申请退款');
    // finance rejects it: paid again, and it may be asked again
    ok(await s.call('refundapprove', { id: refundId, approve: false, remark: '请先与客户确认' }, finance));
    expect((await info(d.id)).status).toBe('Y');
    const again = await s.call('intentionrefund', { id: d.id, reason: '客户确认退款' }, sales);
    ok(again);
    ok(await s.call('refundapprove', { id: again.data.refund_id, approve: true, remark: '同意' }, finance));
    const done = await info(d.id);
    expect(done).toMatchObject({ status: 'T', status_ch: '已退款' });
    // the bill stays paid, its line refunded: the cashier does not ask for it again
    const bill = await s.database.db.selectFrom('fee_bills').select('status').where('id', '=', d.bill_id).executeTakeFirstOrThrow();
    expect(bill.status).toBe('Y');
    expect(((await s.call('cashierbills', { hid }, cashier)).data.items as Array<{ id: number }>).map((b) => b.id)).not.toContain(
      d.bill_id,
    );
    // the customer steps back from 认筹
    expect((await customer(id)).stage).toBe('valid');
    const log = (await s.call('intentionlog', { id: d.id }, sales)).data.items as Array<{ transition_ch: string }>;
    expect(log.map((l) => l.transition_ch)).toEqual(['登记认筹', '收银台缴费', '申请退款', '申请退款', '退款完成']);
  });

  it('voided at the cashier is unpaid again', async () => {
    const id = await addCustomer(sales, { name: '作废客户' });
    const d = await info((await s.call('intentionadd', { customer_id: id, amount: '20000', hid: await freeRoom() }, sales)).data.id);
    const receipt = await pay(d.id);
    expect((await info(d.id)).status).toBe('Y');
    ok(await s.call('paymentvoid', { id: receipt, reason: '收错金额' }, cashier));
    expect((await info(d.id)).status).toBe('P');
    // cancelled, its bill keeps the voided receipt's lines: it stays, and the cashier refuses it
    const cancelled = await s.call('intentioncancel', { id: d.id, reason: '重新登记' }, sales);
    ok(cancelled);
    expect(cancelled.return_msg).toBe('认筹已取消；账单有作废的收费记录，予以保留，收银台不再收取');
    const again = await s.call(
      'cashierpay',
      { hid: d.hid, bill_ids: [d.bill_id], pay_type: 'cash', idempotency_key: newKey(), paid_amount: d.amount },
      cashier,
    );
    expect(again.return_msg).toBe(`认筹（${d.queue_text}）已取消，其认筹金账单不能再收费`);
  });
});
