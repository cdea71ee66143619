import ExcelJS from 'exceljs';
import { capitalAmount, fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
let key = 0;
const newKey = () => `quick-key-${Date.now()}-${++key}`;
const thisMonth = today().slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

const db = () => t.database.db;
const countOf = async (table: 'fee_bills' | 'fee_payments' | 'fee_items' | 'fee_settings', rid = 1) =>
  (
    await db()
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', rid)
      .executeTakeFirstOrThrow()
  ).n;

/** A room of community 1 with a current owner, a different one per call. */
const used = new Set<number>();
async function ownedRoom(): Promise<{ hid: number; member: number; owner: string }> {
  const rows = await db()
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['rm.hid', 'rm.member_id', 'm.realname'])
    .where('rm.rid', '=', 1)
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .orderBy('rm.hid')
    .limit(200)
    .execute();
  const row = rows.find((r) => !used.has(r.hid) && rows.filter((x) => x.hid === r.hid).length === 1)!;
  used.add(row.hid);
  return { hid: row.hid, member: row.member_id, owner: row.realname };
}

const resetSettings = () => t.call('feesettingedit', {}, admin);

describe('fee settings', () => {
  it('answers the defaults, saves, and keeps each community apart', async () => {
    const info = await t.call('feesettinginfo', {}, cashier);
    expect(info.data).toEqual({
      receipt_title: '',
      receipt_footnote: '',
      receipt_prefix: '',
      allow_discount: 'Y',
      max_discount_percent: 20,
      default_due_day: 15,
      update_user: '',
      update_time: '',
    });
    const save = await t.call(
      'feesettingedit',
      {
        receipt_title: '阳光花园物业服务中心收款收据',
        receipt_footnote: '请妥善保管本收据',
        receipt_prefix: 'YG',
        allow_discount: 'Y',
        max_discount_percent: 30,
        default_due_day: 20,
      },
      admin,
    );
    expect(save.return_code).toBe('SUCCESS');
    const after = await t.call('feesettinginfo', {}, admin);
    expect(after.data).toMatchObject({ receipt_prefix: 'YG', max_discount_percent: 30, default_due_day: 20, update_user: '张经理' });
    expect((await t.call('feesettinginfo', {}, admin2)).data.receipt_prefix).toBe('');
    // a new item without a due day takes the default
    const item = await t.call('feeitemadd', { cost_type: 'other', title: '测试默认缴费日', pricing: 'fixed', unit_price: '1' }, admin);
    expect((await t.call('feeiteminfo', { id: item.data.id }, admin)).data.due_day).toBe(20);
    await resetSettings();
  });

  it('refuses other roles and bad payloads, changing nothing', async () => {
    const before = await countOf('fee_settings');
    expect((await t.call('feesettingedit', { receipt_prefix: 'X' }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feesettinginfo', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feesettingedit', {}, steward)).return_code).toBe('NO_PERMISSION');
    const pct = await t.call('feesettingedit', { max_discount_percent: 150 }, admin);
    expect(pct.return_code).toBe('FAIL');
    expect(pct.return_msg).toContain('max_discount_percent');
    expect((await t.call('feesettingedit', { receipt_prefix: '阳光' }, admin)).return_msg).toContain('收据编号前缀只能包含字母、数字和 -');
    expect((await t.call('feesettingedit', { default_due_day: 31 }, admin)).return_code).toBe('FAIL');
    expect(await countOf('fee_settings')).toBe(before);
    expect((await t.call('feesettinginfo', {}, admin)).data.receipt_prefix).toBe('');
  });

  it('prints the settings on receipts and numbers them with the prefix', async () => {
    await t.call(
      'feesettingedit',
      { receipt_title: '阳光花园物业收款凭证', receipt_footnote: '本收据为缴费凭证', receipt_prefix: 'YG-' },
      admin,
    );
    const { hid } = await ownedRoom();
    const res = await t.call(
      'quickpay',
      { hid, lines: [{ title: '测试钥匙费', amount: '20' }], pay_type: 'cash', idempotency_key: newKey() },
      cashier,
    );
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.receipt_no).toMatch(/^YG-\d{8}$/);
    const info = await t.call('paymentinfo', { id: res.data.id }, cashier);
    expect(info.data).toMatchObject({ receipt_title: '阳光花园物业收款凭证', receipt_footnote: '本收据为缴费凭证' });
    await resetSettings();
    expect((await t.call('paymentinfo', { id: res.data.id }, cashier)).data).toMatchObject({
      receipt_title: '阳光花园 收款收据',
      receipt_footnote: '',
    });
  });

  it('cashierpay keeps the discount within the settings', async () => {
    const rows = await db()
      .selectFrom('fee_bills')
      .select(['hid'])
      .where('rid', '=', 1)
      .where('status', '<>', 'Y')
      .where('space_id', '=', 0)
      .groupBy('hid')
      .orderBy('hid', 'desc')
      .limit(1)
      .execute();
    const hid = rows[0]!.hid;
    const desk = await t.call('cashierbills', { hid }, cashier);
    const bill = desk.data.items[0];
    const total = toFen(bill.total);
    const pay = (discount: string) =>
      t.call(
        'cashierpay',
        {
          hid,
          bill_ids: [bill.id],
          pay_type: 'cash',
          paid_amount: bill.total,
          discount,
          idempotency_key: newKey(),
        },
        cashier,
      );
    await t.call('feesettingedit', { allow_discount: 'N' }, admin);
    const payments = await countOf('fee_payments');
    expect((await pay('1.00')).return_msg).toBe('本小区不允许在收银台优惠减免（含滞纳金减免），请将优惠金额改为 0');
    await t.call('feesettingedit', { allow_discount: 'Y', max_discount_percent: 10 }, admin);
    const max = (total * 10n) / 100n;
    expect((await pay(fenToYuan(max + 1n))).return_msg).toMatch(
      new RegExp(`^优惠超过本小区收银员上限：应收合计（含滞纳金）的 10%，本次最多优惠 ${fenToYuan(max)} 元；更大的优惠须由管理员`),
    );
    expect(await countOf('fee_payments')).toBe(payments);
    const ok = await pay(fenToYuan(max));
    expect(ok.return_code).toBe('SUCCESS');
    expect(ok.data.discount).toBe(fenToYuan(max));
    await resetSettings();
  });
});

describe('quickpay', () => {
  it('takes an item and a free title in one payment: bills paid, receipt numbered, capital amount', async () => {
    const { hid, owner } = await ownedRoom();
    const item = await t.call('feeitemadd', { cost_type: 'other', title: '测试装修管理费', pricing: 'fixed', unit_price: '200' }, admin);
    const payload = {
      hid,
      pay_type: 'wechat',
      idempotency_key: newKey(),
      remark: '装修',
      lines: [
        { item_id: item.data.id, amount: '200.00' },
        { title: '测试门禁卡工本费', cost_type: 'other', amount: '15.5' },
      ],
    };
    const res = await t.call('quickpay', payload, cashier);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.return_msg).toBe('收费成功');
    expect(res.data).toMatchObject({
      hid,
      receivable: '215.50',
      total: '215.50',
      paid_amount: '215.50',
      due: '215.50',
      pay_type: 'wechat',
      payer_name: owner,
      cashier_name: '赵收银',
      capital_amount: capitalAmount('215.50'),
      remark: '装修',
    });
    expect(res.data.items.map((i: { title: string; period: string; fee: string }) => [i.title, i.period, i.fee])).toEqual([
      ['测试装修管理费', thisMonth, '200.00'],
      ['测试门禁卡工本费', thisMonth, '15.50'],
    ]);
    const bills = await db()
      .selectFrom('fee_bills')
      .select(['status', 'source', 'payment_id', 'fee'])
      .where('rid', '=', 1)
      .where('payment_id', '=', res.data.id)
      .execute();
    expect(bills).toHaveLength(2);
    expect(bills.every((b) => b.status === 'Y' && b.source === 'quickpay')).toBe(true);
    // the free title got a disabled item of its own, kept out of generation
    const made = await db()
      .selectFrom('fee_items')
      .select(['status', 'cost_type'])
      .where('rid', '=', 1)
      .where('title', '=', '测试门禁卡工本费')
      .executeTakeFirstOrThrow();
    expect(made).toEqual({ status: 'N', cost_type: 'other' });

    // the same key again (a double click or a retry): the same receipt, nothing new
    const payments = await countOf('fee_payments');
    const bills0 = await countOf('fee_bills');
    const retry = await t.call('quickpay', payload, cashier);
    expect(retry.data).toEqual(res.data);
    const [x, y] = await Promise.all([t.call('quickpay', payload, cashier), t.call('quickpay', payload, cashier)]);
    expect([x.data.id, y.data.id]).toEqual([res.data.id, res.data.id]);
    expect([await countOf('fee_payments'), await countOf('fee_bills')]).toEqual([payments, bills0]);
    // in the payment list, findable by receipt number
    const list = await t.call('paymentlist', { receipt_no: res.data.receipt_no }, cashier);
    expect(list.data.items.map((p: { id: number }) => p.id)).toEqual([res.data.id]);
  });

  it('concurrent quick payments with one new key pay once', async () => {
    const { hid } = await ownedRoom();
    const payload = { hid, pay_type: 'cash', idempotency_key: newKey(), lines: [{ title: '测试并发收费', amount: '9.90' }] };
    const [a, b] = await Promise.all([t.call('quickpay', payload, cashier), t.call('quickpay', payload, cashier)]);
    expect([a.return_code, b.return_code]).toEqual(['SUCCESS', 'SUCCESS']);
    expect(a.data.id).toBe(b.data.id);
    const n = await db()
      .selectFrom('fee_payments')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('idempotency_key', '=', payload.idempotency_key)
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(1);
  });

  it("overpays into the owner's balance and takes a payer name", async () => {
    const { hid, member } = await ownedRoom();
    const before = (
      await db().selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', member).executeTakeFirstOrThrow()
    ).balance;
    const res = await t.call(
      'quickpay',
      {
        hid,
        pay_type: 'cash',
        paid_amount: '100',
        payer_name: '装修公司王师傅',
        idempotency_key: newKey(),
        lines: [{ title: '测试垃圾清运费', amount: '80' }],
      },
      cashier,
    );
    expect(res.data).toMatchObject({ paid_amount: '100.00', due: '80.00', to_balance: '20.00', payer_name: '装修公司王师傅' });
    const after = (
      await db().selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', member).executeTakeFirstOrThrow()
    ).balance;
    expect(toFen(after) - toFen(before)).toBe(2000n);
  });

  it('never bills an item twice for a period, and a refused payment leaves nothing behind', async () => {
    const { hid } = await ownedRoom();
    const property = await db()
      .selectFrom('fee_bills')
      .select(['hid', 'item_id', 'period', 'status', 'title'])
      .where('rid', '=', 1)
      .where('cost_type', '=', 'property')
      .where('period', '=', thisMonth)
      .where('hid', '=', hid)
      .executeTakeFirst();
    const bills = await countOf('fee_bills');
    const payments = await countOf('fee_payments');
    expect(property).toBeDefined();
    const res = await t.call(
      'quickpay',
      { hid, pay_type: 'cash', idempotency_key: newKey(), lines: [{ item_id: property!.item_id, amount: '10' }] },
      cashier,
    );
    expect(res.return_msg).toMatch(new RegExp(`${thisMonth} (已有「物业服务费」账单（(待缴|已逾期)）|的「物业服务费」已缴费)`));
    const once = await t.call(
      'quickpay',
      { hid, pay_type: 'cash', idempotency_key: newKey(), lines: [{ title: '测试临停费', amount: '10' }] },
      cashier,
    );
    expect(once.return_code).toBe('SUCCESS');
    const twice = await t.call(
      'quickpay',
      { hid, pay_type: 'cash', idempotency_key: newKey(), lines: [{ title: '测试临停费', amount: '10' }] },
      cashier,
    );
    expect(twice.return_msg).toContain('的「测试临停费」已缴费，不能重复收取');
    const dup = await t.call(
      'quickpay',
      {
        hid,
        pay_type: 'cash',
        idempotency_key: newKey(),
        lines: [
          { title: '测试A', amount: '1' },
          { title: '测试A', amount: '2' },
        ],
      },
      cashier,
    );
    expect(dup.return_msg).toBe(`「测试A」${thisMonth} 重复添加，请合并为一项`);
    // paying from a balance that is not there: refused, no bill or item stays
    const items = await countOf('fee_items');
    const poor = await t.call(
      'quickpay',
      { hid, pay_type: 'balance', idempotency_key: newKey(), lines: [{ title: '测试余额不足', amount: '99999' }] },
      cashier,
    );
    expect(poor.return_msg).toMatch(/^业主余额不足，还差 [\d.]+ 元$/);
    expect([await countOf('fee_bills'), await countOf('fee_payments'), await countOf('fee_items')]).toEqual([
      bills + 1,
      payments + 1,
      items,
    ]);
  });

  it('refuses other communities, other roles and bad payloads', async () => {
    const { hid } = await ownedRoom();
    const bills = await countOf('fee_bills');
    const bills2 = await countOf('fee_bills', 2);
    const items2 = await countOf('fee_items', 2);
    const ok = { hid, pay_type: 'cash', idempotency_key: newKey(), lines: [{ title: '测试', amount: '1' }] };
    expect((await t.call('quickpay', ok, admin2)).return_msg).toBe('房屋不存在');
    const item1 = await db().selectFrom('fee_items').select('id').where('rid', '=', 1).where('status', '=', 'Y').executeTakeFirstOrThrow();
    const room2 = await db().selectFrom('rooms').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    expect((await t.call('quickpay', { ...ok, hid: room2.id, lines: [{ item_id: item1.id, amount: '1' }] }, admin2)).return_msg).toBe(
      '收费项目不存在',
    );
    expect(await countOf('fee_bills')).toBe(bills);
    expect([await countOf('fee_bills', 2), await countOf('fee_items', 2)]).toEqual([bills2, items2]);
    expect((await t.call('quickpay', ok, steward)).return_code).toBe('NO_PERMISSION');
    for (const bad of [
      { ...ok, lines: [] },
      { ...ok, lines: [{ amount: '5' }] },
      { ...ok, lines: [{ title: 'x', amount: '0' }] },
      { ...ok, lines: [{ title: 'x', amount: '1.005' }] },
      { ...ok, pay_type: 'bitcoin' },
      { ...ok, idempotency_key: 'short' },
      { ...ok, lines: [{ title: 'x', amount: '1', period: '2025-13' }] },
    ]) {
      const res = await t.call('quickpay', bad, cashier);
      expect(res.return_code).toBe('FAIL');
    }
    expect((await t.call('quickpay', { ...ok, lines: [{ title: 'x', amount: '0' }] }, cashier)).return_msg).toContain('收费金额必须大于0');
    expect((await t.call('quickpay', { ...ok, lines: [{ amount: '5' }] }, cashier)).return_msg).toContain('请选择收费项目或填写收费名称');
    expect(await countOf('fee_bills')).toBe(bills);
  });
});

describe('paymentexport', () => {
  it('exports what the list shows with the same filters', async () => {
    const filters = { pay_type: 'cash', start_date: `${thisMonth}-01`, end_date: today() };
    const list = await t.call('paymentlist', { ...filters, limit: 200 }, cashier);
    expect(list.data.total).toBeGreaterThan(0);
    expect(list.data.total).toBeLessThanOrEqual(200);
    const res = await t.exportFile('paymentexport', filters, cashier);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.filename).toMatch(/^收费记录_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(list.data.total + 1);
    expect((ws.getRow(1).values as unknown[]).slice(1, 5)).toEqual(['收据号', '房屋', '缴费人', '收费项目']);
    const receipts = new Set<string>();
    ws.eachRow((row, n) => {
      if (n > 1) receipts.add(String(row.getCell(1).value));
    });
    expect(receipts).toEqual(new Set(list.data.items.map((p: { receipt_no: string }) => p.receipt_no)));
    ws.eachRow((row, n) => {
      if (n > 1) expect(row.getCell(12).value).toBe('现金');
    });

    // by cashier and keyword; another community exports none of these; other roles are refused
    const mine = await t.exportFile('paymentexport', { cashier: '赵收银', receipt_no: list.data.items[0].receipt_no }, cashier);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(mine.data.content_base64, 'base64') as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.rowCount).toBe(2);
    const other = await t.exportFile('paymentexport', { receipt_no: list.data.items[0].receipt_no }, admin2);
    const wb3 = new ExcelJS.Workbook();
    await wb3.xlsx.load(Buffer.from(other.data.content_base64, 'base64') as unknown as ArrayBuffer);
    expect(wb3.worksheets[0]!.rowCount).toBe(1);
    expect((await t.exportFile('paymentexport', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.exportFile('paymentexport', { start_date: '2025/01/01' }, cashier)).return_code).toBe('FAIL');
  });

  it('the list filters by date range, pay type, cashier and keyword', async () => {
    const { hid } = await ownedRoom();
    const paid = await t.call(
      'quickpay',
      { hid, pay_type: 'transfer', idempotency_key: newKey(), lines: [{ title: '测试筛选', amount: '3' }] },
      cashier,
    );
    const address = paid.data.address as string;
    const day = today();
    const found = await t.call(
      'paymentlist',
      { start_date: day, end_date: day, pay_type: 'transfer', cashier: '赵', keyword: address },
      cashier,
    );
    expect(found.data.items.map((p: { id: number }) => p.id)).toContain(paid.data.id);
    const yesterday = await t.call('paymentlist', { end_date: '2000-01-01', keyword: address }, cashier);
    expect(yesterday.data.total).toBe(0);
    expect((await t.call('paymentlist', { cashier: '孙收银', keyword: address }, cashier)).data.total).toBe(0);
  });
});
