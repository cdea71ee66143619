import { fenToYuan, invoiceTitle, toFen, usccValid } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { totalsMismatches } from '../../test/keptData.js';
import { INVOICE_WAIT_TOTALS } from '../fees/totals.js';
import { today } from '../../lib/wire.js';
import { SANDBOX_FAILURE } from './provider.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let steward: string;
let n = 0;
const key = () => `invoice-test-${++n}-${Date.now()}`;
const db = () => t.database.db;
const ok = <T = any>(r: { return_code: string; return_msg: string; data: T }): T => {
  expect(r.return_msg, JSON.stringify(r)).toBeTruthy();
  expect(r.return_code, r.return_msg).toBe('SUCCESS');
  return r.data;
};
/** A valid seller code (统一社会信用代码 with its check digit). */
const SELLER = '91310115MA1K3YJ73R';
const BUYER = '91310000MA1FL8TQ23';
const SETTINGS = {
  seller_name: '阳光物业服务有限公司',
  seller_tax_no: SELLER,
  seller_address: '上海市浦东新区阳光路1号',
  seller_phone: '021-55556666',
  seller_bank: '招商银行上海分行',
  seller_account: '121900000010101',
  payee: '赵收银',
  checker: '郑会计',
  clerk: '郑会计',
};
const COMPANY = {
  kind: 'company',
  title: '上海某某科技有限公司',
  tax_no: BUYER,
  address_phone: '',
  bank_account: '',
  email: '',
  mobile: '',
};

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier, steward] = await t.logins('admin', 'admin2', 'cashier', 'steward');
});
afterAll(() => t.close());

/** A room of community 1 with an owner and unpaid bills of this month or before, paid now at the cashier. */
const usedRooms = new Set<number>();
async function pay(opts: { costType?: string; discount?: string; payType?: string } = {}) {
  const month = today().slice(0, 7);
  const rows = await db()
    .selectFrom('fee_bills as b')
    .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'b.rid').onRef('rm.hid', '=', 'b.hid'))
    .select(['b.hid', 'b.id', 'b.fee'])
    .where('b.rid', '=', 1)
    .where('b.status', '<>', 'Y')
    .where('b.cost_type', '=', opts.costType ?? 'property')
    .where('b.period', '<=', month)
    .where('b.fee', '>', '0')
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .orderBy('b.hid', 'desc')
    .execute();
  const bill = rows.find((r) => !usedRooms.has(Number(r.hid)))!;
  usedRooms.add(Number(bill.hid));
  const due = (ok(await t.call('cashierbills', { hid: bill.hid }, cashier)).items as Array<{ id: number; total: string }>).find(
    (b) => Number(b.id) === Number(bill.id),
  )!;
  const p = ok(
    await t.call(
      'cashierpay',
      {
        hid: bill.hid,
        bill_ids: [bill.id],
        pay_type: opts.payType ?? 'cash',
        use_balance: false,
        discount: opts.discount ?? '0',
        paid_amount: fenToYuan(toFen(due.total) - toFen(opts.discount ?? '0')),
        idempotency_key: key(),
        remark: '',
      },
      cashier,
    ),
  );
  const line = await db()
    .selectFrom('fee_payment_items')
    .selectAll()
    .where('rid', '=', 1)
    .where('payment_id', '=', p.id)
    .executeTakeFirstOrThrow();
  const item = await db()
    .selectFrom('fee_bills')
    .select('item_id')
    .where('rid', '=', 1)
    .where('id', '=', bill.id)
    .executeTakeFirstOrThrow();
  return {
    hid: Number(bill.hid),
    paymentId: Number(p.id),
    lineId: Number(line.id),
    line,
    itemId: Number(item.item_id),
    billId: Number(bill.id),
  };
}

const lineOf = (id: number) =>
  db().selectFrom('fee_payment_items').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();
const invoice = (id: number) => db().selectFrom('invoices').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();
const received = (l: { fee: string; late_fee: string; discount: string }) => toFen(l.fee) + toFen(l.late_fee) - toFen(l.discount);

async function mapItem(itemId: number, rate = '6') {
  ok(
    await t.call(
      'invoiceitemmapset',
      { item_id: itemId, goods_name: '物业管理服务', tax_code: '3040801010000000000', rate, tax_included: 'Y', special: 'none' },
      admin,
    ),
  );
}

describe('settings', () => {
  it('checks the seller code, keeps the secret sealed and shows it masked', async () => {
    expect(usccValid(SELLER)).toBe(true);
    expect(usccValid(BUYER)).toBe(true);
    expect(ok(await t.call('invoicesetinfo', {}, admin)).configured).toBe('Y');
    // a community that has not saved its settings yet
    await db().deleteFrom('invoice_settings').where('rid', '=', 1).execute();
    expect(ok(await t.call('invoicesetinfo', {}, admin)).configured).toBe('N');
    // an issue before the settings are saved says what to do
    const early = await pay();
    expect((await t.call('invoiceissue', { lines: [{ id: early.lineId }], buyer: COMPANY }, admin)).return_msg).toBe(
      '尚未完成开票设置（销方信息），请先在开票设置中保存',
    );
    const bad = await t.call('invoiceset', { ...SETTINGS, seller_tax_no: '91310115MA1K3YJ73Q' }, admin);
    expect(bad.return_code).not.toBe('SUCCESS');
    expect(bad.return_msg).toContain('校验位');
    expect(ok(await t.call('invoicesetinfo', {}, admin)).configured).toBe('N');
    expect((await t.call('invoiceset', SETTINGS, steward)).return_code).not.toBe('SUCCESS');
    ok(await t.call('invoiceset', { ...SETTINGS, app_key: 'demo-key', app_secret: 'sk-1234567890abcd' }, admin));
    const info = ok(await t.call('invoicesetinfo', {}, admin));
    expect(info.configured).toBe('Y');
    expect(info.app_secret_masked).toMatch(/abcd$/);
    expect(JSON.stringify(info)).not.toContain('sk-1234567890');
    const row = await db().selectFrom('invoice_settings').select('secret_blob').where('rid', '=', 1).executeTakeFirstOrThrow();
    expect(row.secret_blob).toMatch(/^v1:/);
    // saving again without a secret keeps it
    ok(await t.call('invoiceset', SETTINGS, admin));
    expect(ok(await t.call('invoicesetinfo', {}, admin)).app_secret_masked).toMatch(/abcd$/);
    expect(ok(await t.call('invoiceprovidertest', {}, admin)).ok).toBe(true);
    // another community keeps its own
    expect(ok(await t.call('invoicesetinfo', {}, admin2)).seller_name).not.toBe(SETTINGS.seller_name);
  });

  it('maps fee items; an exempt item must be at 0 %', async () => {
    const list = ok(await t.call('invoiceitemmaplist', { limit: 50 }, admin));
    // the demo maps every item of the fees' seed but the deposits (the areas' own items, 认筹金 and 房款, are mapped by finance when they invoice them)
    for (const i of list.items.filter((x: { cost_type: string }) => ['property', 'water', 'parking'].includes(x.cost_type)))
      expect(i.mapped).toBe('Y');
    for (const i of list.items.filter((x: { cost_type: string }) => x.cost_type === 'deposit')) expect(i.mapped).toBe('N');
    const item = list.items.find((i: { cost_type: string }) => i.cost_type !== 'deposit');
    expect(
      (await t.call('invoiceitemmapset', { item_id: item.item_id, goods_name: 'x', tax_code: '123', rate: '6' }, admin)).return_msg,
    ).toContain('税收分类编码应为19位数字');
    expect(
      (
        await t.call(
          'invoiceitemmapset',
          { item_id: item.item_id, goods_name: 'x', tax_code: '3040801010000000000', rate: '6', special: 'exempt' },
          admin,
        )
      ).return_msg,
    ).toBe('免税项目的税率须为0%');
    // another community's item is not found
    expect(
      (await t.call('invoiceitemmapset', { item_id: item.item_id, goods_name: 'x', tax_code: '3040801010000000000', rate: '6' }, admin2))
        .return_msg,
    ).toBe('收费项目不存在');
  });
});

describe('issuing and reversal', () => {
  it('invoices half, then the rest, then nothing; a reversal gives its half back; a refund waits for the reversals', async () => {
    const p = await pay();
    // not mapped yet: refused with the item's name
    await db().deleteFrom('invoice_item_maps').where('rid', '=', 1).where('item_id', '=', p.itemId).execute();
    const unmapped = await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin);
    expect(unmapped.return_msg).toContain('未设置开票映射');
    await mapItem(p.itemId);
    const waiting = ok(
      await t.call(
        'invoicewaitlist',
        {
          receipt_no: (
            await db()
              .selectFrom('fee_payments')
              .select('receipt_no')
              .where('rid', '=', 1)
              .where('id', '=', p.paymentId)
              .executeTakeFirstOrThrow()
          ).receipt_no,
        },
        admin,
      ),
    );
    expect(waiting.items.map((i: { id: number }) => i.id)).toEqual([p.lineId]);
    expect(waiting.items[0].rate).toBe('6');
    expect(waiting.sums.left).toBe(fenToYuan(received(p.line)));
    const total = received(p.line);
    const half = total / 2n;

    // a company title needs its tax number
    expect(
      (await t.call('invoiceissue', { lines: [{ id: p.lineId, amount: fenToYuan(half) }], buyer: { ...COMPANY, tax_no: '' } }, admin))
        .return_msg,
    ).toBe('企业抬头须填写纳税人识别号');
    const preview = ok(await t.call('invoicepreview', { lines: [{ id: p.lineId, amount: fenToYuan(half) }] }, admin));
    expect(preview.amount).toBe(fenToYuan(half));
    expect(toFen(preview.ex_tax) + toFen(preview.tax)).toBe(half);

    const first = ok(await t.call('invoiceissue', { lines: [{ id: p.lineId, amount: fenToYuan(half) }], buyer: COMPANY }, admin));
    expect(first.ids).toHaveLength(1);
    const firstId = first.ids[0];
    expect((await invoice(firstId)).status).toBe('W');
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(half);
    await t.runJobs();
    const issued = await invoice(firstId);
    expect(issued.status).toBe('Y');
    expect(issued.invoice_no).toMatch(/^\d{20}$/);
    // the sums of a list that fits on one page
    const listed = ok(await t.call('invoicelist', { keyword: issued.invoice_no }, admin));
    expect(listed.total).toBe(1);
    expect(listed.sums.amount).toBe(fenToYuan(half));
    const pdf = ok(await t.call('invoicepdf', { id: firstId }, admin));
    expect(Buffer.from(pdf.content_base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    const second = ok(await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin));
    await t.runJobs();
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(total);
    const third = await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin);
    expect(third.return_msg).toMatch(/已无可开票金额$/);
    const gone = ok(await t.call('invoicewaitlist', { hid: p.hid }, admin));
    expect(gone.items.find((i: { id: number }) => i.id === p.lineId)).toBeUndefined();

    // a refund is refused while the invoices stand
    const refund = await t.call('refundapply', { payment_id: p.paymentId, bill_ids: [], reason: '业主搬离' }, cashier);
    expect(refund.return_code).not.toBe('SUCCESS');
    expect(refund.return_msg).toContain('红冲');

    // reverse the first in full: its half is back on the list
    const red = ok(await t.call('invoicered', { id: firstId, reason: 'wrong' }, admin));
    expect(red.amount).toBe(fenToYuan(half));
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(total); // held until the red invoice is issued
    await t.runJobs();
    expect((await invoice(firstId)).status).toBe('R');
    expect((await invoice(red.id)).status).toBe('Y');
    expect(toFen((await invoice(red.id)).amount)).toBe(-half);
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(total - half);
    const back = ok(await t.call('invoicewaitlist', { hid: p.hid }, admin));
    expect(back.items.find((i: { id: number }) => i.id === p.lineId)?.left).toBe(fenToYuan(half));
    // a reversed invoice cannot be reversed again
    expect((await t.call('invoicered', { id: firstId, reason: 'wrong' }, admin)).return_msg).toBe('该发票已全部红冲');
    expect((await t.call('refundapply', { payment_id: p.paymentId, bill_ids: [], reason: '业主搬离' }, cashier)).return_code).not.toBe(
      'SUCCESS',
    );

    // reverse the second part by part: 部分红冲, then 已红冲
    const secondId = second.ids[0];
    const lines = ok(await t.call('invoiceinfo', { id: secondId }, admin)).lines;
    ok(await t.call('invoicered', { id: secondId, reason: 'discount', lines: [{ id: lines[0].id, amount: '0.01' }] }, admin));
    await t.runJobs();
    expect((await invoice(secondId)).status).toBe('P');
    ok(await t.call('invoicered', { id: secondId, reason: 'ended' }, admin));
    await t.runJobs();
    expect((await invoice(secondId)).status).toBe('R');
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(0n);
    ok(await t.call('refundapply', { payment_id: p.paymentId, bill_ids: [], reason: '业主搬离' }, cashier));

    // the report counts both colours
    const month = issued.issued_at!.toISOString().slice(0, 7);
    const report = ok(await t.call('electroniclist', { month_from: month, month_to: month }, admin));
    expect(report.sums.blue_count).toBeGreaterThanOrEqual(2);
    expect(toFen(report.sums.red_amount)).toBeGreaterThanOrEqual(total);
  });

  it('50 concurrent issues of the same line invoice it once', async () => {
    const p = await pay();
    await mapItem(p.itemId);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin)),
    );
    const done = answers.filter((a) => a.return_code === 'SUCCESS');
    expect(done).toHaveLength(1);
    for (const a of answers.filter((x) => x.return_code !== 'SUCCESS')) expect(a.return_msg).toMatch(/已无可开票金额$/);
    const line = await lineOf(p.lineId);
    expect(toFen(line.invoiced)).toBe(received(line));
    const count = await db()
      .selectFrom('invoice_lines')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('payment_item_id', '=', p.lineId)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
    await t.runJobs();
  });

  it('a part issued again with the same idempotency key is issued once, with the first answer', async () => {
    const p = await pay();
    await mapItem(p.itemId);
    const issue = (idempotency_key: string) =>
      t.call('invoiceissue', { lines: [{ id: p.lineId, amount: '0.10' }], buyer: COMPANY, idempotency_key }, admin);
    const k = key();
    const answers = await Promise.all([issue(k), issue(k), issue(k)]);
    for (const a of answers) expect(ok(a)).toEqual(answers[0]!.data);
    expect(new Set(answers.map((a) => a.return_msg)).size).toBe(1);
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(10n);
    // another key is another invoice
    ok(await issue(key()));
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(20n);
    // a refused call leaves its key free: the same key then issues
    const bad = key();
    const refused = await t.call(
      'invoiceissue',
      { lines: [{ id: p.lineId, amount: '999999.00' }], buyer: COMPANY, idempotency_key: bad },
      admin,
    );
    expect(refused.return_code).toBe('FAIL');
    ok(await issue(bad));
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(30n);
    expect(
      (await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY, idempotency_key: 'bad key!' }, admin)).return_msg,
    ).toContain('idempotency_key');
    await t.runJobs();
  });

  it('a failed invoice gives its amount back and is retried', async () => {
    const p = await pay();
    await mapItem(p.itemId);
    ok(await t.call('invoiceset', { ...SETTINGS, sandbox_mode: 'fail' }, admin));
    const { ids } = ok(
      await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: { ...COMPANY, kind: 'person', tax_no: '' } }, admin),
    );
    await t.runJobs();
    const failed = await invoice(ids[0]);
    expect(failed.status).toBe('F');
    expect(failed.message).toBe(SANDBOX_FAILURE);
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(0n);
    expect((await t.call('invoicered', { id: ids[0], reason: 'wrong' }, admin)).return_msg).toBe('开具失败的发票无需红冲');
    ok(await t.call('invoiceset', SETTINGS, admin));
    ok(await t.call('invoiceretry', { id: ids[0] }, admin));
    expect(toFen((await lineOf(p.lineId)).invoiced)).toBe(received(p.line));
    await t.runJobs();
    expect((await invoice(ids[0])).status).toBe('Y');
    expect((await t.call('invoiceretry', { id: ids[0] }, admin)).return_msg).toBe('只有开具失败的发票可以重试');
  });

  it('shares a discount over the lines and shows it as a discount line', async () => {
    const p = await pay({ discount: '1.00' });
    await mapItem(p.itemId);
    expect(p.line.discount).toBe('1.00');
    const { ids } = ok(await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin));
    const info = ok(await t.call('invoiceinfo', { id: ids[0] }, admin));
    expect(info.lines[0].discount).toBe('1.00');
    expect(toFen(info.amount)).toBe(toFen(p.line.fee) + toFen(p.line.late_fee) - 100n);
    await t.runJobs();
  });

  it('refuses deposits, future periods, other communities and roles without the code', async () => {
    const p = await pay();
    await mapItem(p.itemId);
    ok(await t.call('invoiceset', { ...SETTINGS, seller_name: '翠湖苑物业' }, admin2));
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin2)).return_msg).toBe(
      '所选费用不存在或不属于当前小区',
    );
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, steward)).return_code).not.toBe('SUCCESS');
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, cashier)).return_code).not.toBe('SUCCESS');
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId, amount: '-1' }], buyer: COMPANY }, admin)).return_code).not.toBe(
      'SUCCESS',
    );
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }, { id: p.lineId }], buyer: COMPANY }, admin)).return_msg).toBe(
      '所选费用有重复',
    );
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY, kind: 's' }, admin)).return_msg).toBe(
      '数电专票须为企业抬头，并填写地址电话和开户行及账号',
    );
    // a future period, unless the settings allow it
    await db().updateTable('fee_payment_items').set({ period: '2099-01' }).where('rid', '=', 1).where('id', '=', p.lineId).execute();
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin)).return_msg).toContain('不能预开发票');
    await db().updateTable('fee_payment_items').set({ period: p.line.period }).where('rid', '=', 1).where('id', '=', p.lineId).execute();
    // a deposit
    await db().updateTable('fee_payment_items').set({ cost_type: 'deposit' }).where('rid', '=', 1).where('id', '=', p.lineId).execute();
    expect((await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin)).return_msg).toContain('押金不开具发票');
    await db()
      .updateTable('fee_payment_items')
      .set({ cost_type: p.line.cost_type })
      .where('rid', '=', 1)
      .where('id', '=', p.lineId)
      .execute();
    const issued = ok(await t.call('invoiceissue', { lines: [{ id: p.lineId }], buyer: COMPANY }, admin));
    await t.runJobs();
    expect((await t.call('invoiceinfo', { id: issued.ids[0] }, admin2)).return_msg).toBe('发票不存在');
    expect((await t.call('invoicered', { id: issued.ids[0], reason: 'wrong' }, admin2)).return_msg).toBe('发票不存在');
    expect((await t.call('invoicepdf', { id: issued.ids[0] }, admin2)).return_msg).toBe('发票不存在');
    // pushing again goes through the platform and is recorded
    ok(await t.call('invoicepush', { id: issued.ids[0], push: 'email', email: 'owner@example.com' }, admin));
    expect(ok(await t.call('invoiceinfo', { id: issued.ids[0] }, admin)).pushes[0].target).toBe('owner@example.com');
    const file = await t.exportFile('invoiceexport', {}, admin);
    expect(file.return_code).toBe('SUCCESS');
  });
});

describe("the waiting list's kept totals", () => {
  /** The list's total and sums as the lines give them, for filters the kept totals answer and for others. */
  async function agrees(filters: Record<string, unknown>, step: string) {
    const kept = ok(await t.call('invoicewaitlist', { ...filters, limit: 1 }, admin));
    // the same filters with the payment window of all time, which the lines are summed for
    const read = ok(await t.call('invoicewaitlist', { ...filters, limit: 1, paid: ['2000-01-01', '2099-12-31'] }, admin));
    expect({ total: kept.total, sums: kept.sums }, step).toEqual({ total: read.total, sums: read.sums });
    expect(await totalsMismatches(db(), INVOICE_WAIT_TOTALS), step).toEqual([]);
  }

  it('agree with the lines after paying, invoicing, reversing, voiding, refunding and moving a bill', async () => {
    const a = await pay({ payType: 'wechat' });
    const b = await pay({ discount: '1.00' });
    const c = await pay();
    await mapItem(a.itemId);
    await mapItem(b.itemId);
    const bid = Number(
      (await db().selectFrom('rooms').select('bid').where('rid', '=', 1).where('id', '=', a.hid).executeTakeFirstOrThrow()).bid,
    );
    const each = async (step: string) => {
      for (const f of [{}, { bid }, { item_id: a.itemId }, { pay_type: 'wechat' }, { rate: '6' }, { cost_type: a.line.cost_type }])
        await agrees(f, step);
    };
    await each('paid');
    const issued = ok(await t.call('invoiceissue', { lines: [{ id: a.lineId, amount: '0.50' }], buyer: COMPANY }, admin));
    await t.runJobs();
    await each('half invoiced');
    ok(await t.call('invoicered', { id: issued.ids[0], reason: 'wrong' }, admin));
    await t.runJobs();
    await each('reversed');
    ok(await t.call('paymentvoid', { id: b.paymentId, reason: '收错房屋' }, cashier));
    await each('voided');
    const refund = ok(await t.call('refundapply', { payment_id: c.paymentId, bill_ids: [], reason: '业主搬离' }, cashier));
    ok(await t.call('refundapprove', { id: refund.id, approve: true }, admin));
    await each('refunded');
    const other = Number(
      (await db().selectFrom('buildings').select('id').where('rid', '=', 1).where('id', '<>', bid).executeTakeFirstOrThrow()).id,
    );
    await sql`UPDATE fee_bills SET bid = ${other} WHERE rid = 1 AND id = ${a.billId}`.execute(db());
    await each('bill moved');
    await sql`UPDATE fee_bills SET bid = ${bid} WHERE rid = 1 AND id = ${a.billId}`.execute(db());
  });
});

describe('applications', () => {
  it('a cashier applies for an owner; an invoice holder approves and the invoice is issued', async () => {
    const p = await pay();
    await mapItem(p.itemId);
    const payment = await db()
      .selectFrom('fee_payments')
      .select('member_id')
      .where('rid', '=', 1)
      .where('id', '=', p.paymentId)
      .executeTakeFirstOrThrow();
    const applied = ok(
      await t.call(
        'invoiceapplyadd',
        { lines: [{ id: p.lineId }], member_id: payment.member_id, buyer: { ...COMPANY, kind: 'person', tax_no: '' }, kind: 'p' },
        cashier,
      ),
    );
    expect((await t.call('invoiceapplyreview', { id: applied.id, approve: true, remark: '' }, cashier)).return_code).not.toBe('SUCCESS');
    const done = ok(await t.call('invoiceapplyreview', { id: applied.id, approve: true, remark: '' }, admin));
    expect(done.status).toBe('Y');
    expect(done.invoice_ids).toHaveLength(1);
    await t.runJobs();
    expect((await invoice(done.invoice_ids[0])).status).toBe('Y');
    expect((await t.call('invoiceapplyreview', { id: applied.id, approve: false, remark: 'x' }, admin)).return_msg).toBe(
      '该开票申请已处理',
    );
    const log = ok(await t.call('invoiceapplylog', { id: applied.id }, cashier));
    expect(log.items.map((i: { transition: string }) => i.transition)).toEqual(['create', 'approve']);
    // a rejection says why
    const q = await pay();
    await mapItem(q.itemId);
    const owner = await db()
      .selectFrom('fee_payments')
      .select('member_id')
      .where('rid', '=', 1)
      .where('id', '=', q.paymentId)
      .executeTakeFirstOrThrow();
    const second = ok(
      await t.call(
        'invoiceapplyadd',
        { lines: [{ id: q.lineId }], member_id: owner.member_id, buyer: { ...COMPANY, kind: 'person', tax_no: '' } },
        cashier,
      ),
    );
    expect((await t.call('invoiceapplyreview', { id: second.id, approve: false, remark: ' ' }, admin)).return_msg).toBe('请填写驳回原因');
    expect(ok(await t.call('invoiceapplyreview', { id: second.id, approve: false, remark: '抬头与业主不符' }, admin)).status).toBe('N');
    expect(toFen((await lineOf(q.lineId)).invoiced)).toBe(0n);
  });
});

describeResource(invoiceTitle, {
  sample: async (s) => {
    const rm = await s.database.db
      .selectFrom('room_members')
      .select(['hid', 'member_id'])
      .where('rid', '=', 1)
      .where('relation', '=', 'owner')
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { hid: Number(rm.hid), member_id: Number(rm.member_id), kind: 'company', title: '测试抬头有限公司', tax_no: BUYER };
  },
  edit: { title: '测试抬头二有限公司', email: 'a@example.com' },
  filters: { title: '测试抬头', kind: 'company' },
  writer: 'admin',
  deniedWriter: 'steward',
  unique: ['member_id', 'title', 'tax_no'],
});
