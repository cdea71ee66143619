import { fenToYuan, RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { ok, refused } from '../../test/answers.js';
import { otherGroupLeader } from '../../test/describeResource.js';
import { totalsMismatches } from '../../test/keptData.js';
import { PAY_METHOD_TOTALS } from '../fees/totals.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let leader: string;
let admin: string;
let cashier: string;
let steward: string;
let outsider: string;
let key = 0;
const newKey = () => `paytype-${Date.now()}-${++key}`;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
const rules = () => s.database.db.selectFrom('pay_type_rules').selectAll().orderBy(['group_id', 'pay_type']).execute();
const edit = (pay_type: string, patch: Record<string, unknown> = {}, token = leader) =>
  group('paytypeedit', { pay_type, enabled: 'Y', counted: 'Y', ref_required: 'N', sort: 1, remark: '', ...patch }, token);

/** Disables the group's own ways (the demo's POS机-工行 and 支票) through the page's method; answers what puts them back. */
async function ownWaysOff(): Promise<() => Promise<void>> {
  const { methods } = ok(await group('paytypelist', {}));
  const on = (methods as Array<Record<string, unknown>>).filter((m) => m.enabled === 'Y');
  const put = (m: Record<string, unknown>, enabled: string) =>
    group('paymethodedit', { id: m.id, name: m.name, base: m.base, enabled, ref_required: m.ref_required, sort: m.sort, remark: m.remark });
  for (const m of on) ok(await put(m, 'N'));
  return async () => {
    for (const m of on) ok(await put(m, 'Y'));
  };
}

/** A room of community 1 with an unpaid bill no test has used, with that bill. */
const used = new Set<number>();
async function unpaidBill() {
  const rows = await s.database.db
    .selectFrom('fee_bills')
    .select(['hid', 'id'])
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .orderBy('id')
    .limit(200)
    .execute();
  const row = rows.find((r) => !used.has(r.hid))!;
  used.add(row.hid);
  const bills = ok(await s.call('cashierbills', { hid: row.hid }, cashier));
  const bill = bills.items[0] as { id: number; total: string };
  return { hid: row.hid, bill };
}

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin, cashier, steward] = await s.logins('leader', 'admin', 'cashier', 'steward');
  outsider = await otherGroupLeader(s);
});
afterAll(() => s?.close());

describe('paytypelist', () => {
  it("lists the system's six methods with their kinds and the defaults: the balance is a deduction, not counted in 实收", async () => {
    const { items } = ok(await group('paytypelist', {}));
    expect(items.map((r: { pay_type: string }) => r.pay_type)).toEqual(['cash', 'wechat', 'alipay', 'bankcard', 'transfer', 'balance']);
    expect(items[0]).toMatchObject({
      pay_type_ch: '现金',
      kind: 'offline',
      kind_ch: '线下',
      enabled: 'Y',
      counted: 'Y',
      ref_required: 'N',
      update_time: '',
    });
    expect(items[1]).toMatchObject({ kind: 'online', kind_ch: '线上' });
    expect(items[5]).toMatchObject({ pay_type_ch: '余额', kind: 'deduction', counted: 'N' });
  });

  it('is the head office’s alone', async () => {
    expect((await group('paytypelist', {}, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect(
      (await group('paytypeedit', { pay_type: 'cash', enabled: 'N', counted: 'Y', ref_required: 'N', sort: 1 }, cashier)).return_code,
    ).toBe(RC.NO_PERMISSION);
  });

  it('refuses bad payloads and changes nothing', async () => {
    const before = await rules();
    for (const bad of [{ pay_type: 'cheque' }, { sort: 1000 }, { sort: -1 }, { enabled: 'X' }, { sort: 1.5 }]) {
      const res = await edit('cash', bad);
      expect(res.return_code, JSON.stringify(bad)).not.toBe('SUCCESS');
      expect(res.return_msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(await rules()).toEqual(before);
  });

  it('keeps one method to take money with: the last one is not disabled', async () => {
    const restore = await ownWaysOff();
    for (const p of ['wechat', 'alipay', 'bankcard', 'transfer']) ok(await edit(p, { enabled: 'N' }));
    refused(await edit('cash', { enabled: 'N' }), '至少保留一种启用的收款方式（余额抵扣除外）');
    // the balance is no way to take money: disabling it is always allowed
    ok(await edit('balance', { enabled: 'N', counted: 'N' }));
    const offered = ok(await s.call('paytypeoptions', {}, cashier)).items;
    expect(offered.map((o: { pay_type: string }) => o.pay_type)).toEqual(['cash']);
    for (const p of ['wechat', 'alipay', 'bankcard', 'transfer', 'balance'])
      ok(await edit(p, { enabled: 'Y', sort: 10, counted: p === 'balance' ? 'N' : 'Y' }));
    await restore();
  });
});

describe('the counter follows the rules', () => {
  it("offers the group's enabled methods in its order, each with its reference rule; another group's rules are its own", async () => {
    ok(await edit('alipay', { enabled: 'N' }));
    ok(await edit('transfer', { ref_required: 'Y', sort: 0, remark: '对公转账须填银行流水号' }));
    const list = ok(await group('paytypelist', {})).items;
    expect(list[0]).toMatchObject({ pay_type: 'transfer', ref_required: 'Y', remark: '对公转账须填银行流水号' });
    expect(list[0].update_time).toMatch(/^\d{4}-\d{2}-\d{2} /);
    const offered = ok(await s.call('paytypeoptions', {}, cashier)).items as Array<{ pay_type: string; ref_required: string }>;
    expect(offered[0]).toMatchObject({ pay_type: 'transfer', ref_required: 'Y' });
    expect(offered.map((o) => o.pay_type)).not.toContain('alipay');
    expect((await s.call('paytypeoptions', {}, steward)).return_code).toBe(RC.NO_PERMISSION);
    // the other group sees the defaults
    const theirs = ok(await group('paytypelist', {}, outsider)).items;
    expect(theirs.find((r: { pay_type: string }) => r.pay_type === 'alipay')).toMatchObject({ enabled: 'Y', update_time: '' });
  });

  it('refuses a disabled method and a missing reference, changing nothing; takes the reference onto the receipt', async () => {
    const { hid, bill } = await unpaidBill();
    const pay = (pay_type: string, pay_ref?: string) =>
      s.call(
        'cashierpay',
        {
          hid,
          bill_ids: [bill.id],
          pay_type,
          paid_amount: bill.total,
          idempotency_key: newKey(),
          ...(pay_ref === undefined ? {} : { pay_ref }),
        },
        cashier,
      );
    const receipts = async () =>
      Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_payments`.execute(s.database.db)).rows[0]!.n);
    const before = await receipts();
    refused(await pay('alipay'), '支付方式“支付宝”已停用，请选择其他支付方式');
    refused(await pay('transfer'), '支付方式“银行转账”须填写凭证号（如银行流水号）');
    expect((await pay('transfer', '流水 1')).return_code).not.toBe('SUCCESS');
    expect(await receipts()).toBe(before);
    const paid = ok(await pay('transfer', 'BK20261203-0001'));
    expect(paid).toMatchObject({ pay_type: 'transfer', pay_ref: 'BK20261203-0001' });
    expect(ok(await s.call('paymentinfo', { id: paid.id }, cashier)).pay_ref).toBe('BK20261203-0001');
    // a method without the rule takes no reference along
    const next = await unpaidBill();
    const cash = ok(
      await s.call(
        'cashierpay',
        { hid: next.hid, bill_ids: [next.bill.id], pay_type: 'cash', paid_amount: next.bill.total, idempotency_key: newKey() },
        cashier,
      ),
    );
    expect(cash.pay_ref).toBe('');
  });

  it('预存 follows the same rules', async () => {
    const { hid } = await unpaidBill();
    const top = (pay_type: string, pay_ref?: string) =>
      s.call(
        'balancetopup',
        { hid, amount: '50.00', pay_type, idempotency_key: newKey(), ...(pay_ref === undefined ? {} : { pay_ref }) },
        cashier,
      );
    refused(await top('alipay'), '支付方式“支付宝”已停用，请选择其他支付方式');
    refused(await top('transfer'), '支付方式“银行转账”须填写凭证号（如银行流水号）');
    const done = await top('transfer', 'BK20261203-0002');
    expect(done.return_code, done.return_msg).toBe('SUCCESS');
    const ledger = await s.database.db
      .selectFrom('balance_ledger')
      .select('remark')
      .where('rid', '=', 1)
      .where('hid', '=', hid)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(ledger.remark).toContain('凭证号 BK20261203-0002');
  });
});

describe('营业统计 counts 实收 by the rules', () => {
  it('sums 其中计入实收 over the counted methods and marks the others', async () => {
    const day = { start_date: today(), end_date: today() };
    const before = ok(await s.call('businesscount', day, admin));
    // counting cash out of 实收 takes today's cash receipts out of 其中计入实收, and nothing else
    const cash = before.payees
      .flatMap((p: { methods: Array<{ pay_type: string; net: string }> }) => p.methods)
      .filter((m: { pay_type: string }) => m.pay_type === 'cash');
    const cashNet = cash.reduce((t: bigint, m: { net: string }) => t + toFen(m.net), 0n);
    expect(cashNet).toBeGreaterThan(0n);
    ok(await edit('cash', { counted: 'N', sort: 1 }));
    const after = ok(await s.call('businesscount', day, admin));
    expect(after.totals).toEqual(before.totals);
    expect(after.counted_net).toBe(fenToYuan(toFen(before.counted_net) - cashNet));
    expect(
      after.payees
        .flatMap((p: { methods: Array<{ pay_type: string; counted: string }> }) => p.methods)
        .find((m: { pay_type: string }) => m.pay_type === 'cash')?.counted,
    ).toBe('N');
    ok(await edit('cash', { counted: 'Y', sort: 1 }));
  });
});

describe("the group's own ways (自定义支付方式)", () => {
  const method = (patch: Record<string, unknown> = {}, token = leader) =>
    group(
      'paymethodadd',
      { name: 'POS机-建行', base: 'bankcard', enabled: 'Y', ref_required: 'Y', sort: 2, remark: '前台POS', ...patch },
      token,
    );
  const methods = () => s.database.db.selectFrom('pay_methods').selectAll().orderBy('id').execute();
  const payWith = async (pay_type: string, pay_method_id: number, pay_ref = '') => {
    const { hid, bill } = await unpaidBill();
    return s.call(
      'cashierpay',
      { hid, bill_ids: [bill.id], pay_type, pay_method_id, pay_ref, paid_amount: bill.total, idempotency_key: newKey() },
      cashier,
    );
  };
  let pos = 0;

  it('adds one on an offline base: listed with its base and counted as the base is, offered at the counter in the group’s order', async () => {
    pos = ok(await method()).id;
    const { methods: own } = ok(await group('paytypelist', {}));
    expect(own.filter((m: { id: number }) => m.id === pos)).toEqual([
      expect.objectContaining({
        id: pos,
        name: 'POS机-建行',
        base: 'bankcard',
        base_ch: '银行卡',
        enabled: 'Y',
        counted: 'Y',
        ref_required: 'Y',
        used: false,
      }),
    ]);
    const offered = ok(await s.call('paytypeoptions', {}, cashier)).items as Array<{
      key: string;
      pay_type: string;
      method_id: number;
      pay_type_ch: string;
    }>;
    expect(offered.find((o) => o.method_id === pos)).toEqual(
      expect.objectContaining({ key: `m${pos}`, pay_type: 'bankcard', pay_type_ch: 'POS机-建行', ref_required: 'Y', counted: 'Y' }),
    );
    // sort 2: after the system ways at 0 and 1, before those at 10
    const keys = offered.map((o) => o.key);
    expect(keys.indexOf(`m${pos}`)).toBeLessThan(keys.indexOf('wechat'));
    // the other group neither sees it nor may touch it
    expect(ok(await group('paytypelist', {}, outsider)).methods).toEqual([]);
    refused(await group('paymethoddel', { id: pos }, outsider), '支付方式不存在');
    refused(
      await group('paymethodedit', { id: pos, name: '改名', base: 'cash', enabled: 'N', ref_required: 'N', sort: 1 }, outsider),
      '支付方式不存在',
    );
    expect((await method({ name: '社区POS' }, admin)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('refuses bad payloads and a name taken, changing nothing', async () => {
    const before = await methods();
    for (const [bad, msg] of [
      [{ name: '' }, '请填写支付方式名称'],
      [{ name: '现金' }, '不能与系统支付方式同名'],
      [{ base: 'wechat' }, '请选择所属方式（现金、银行卡或银行转账）'],
      [{ base: 'balance' }, '请选择所属方式（现金、银行卡或银行转账）'],
      [{ sort: 1000 }, '排序不能大于999'],
      [{ name: 'POS机-建行' }, '支付方式“POS机-建行”已存在'],
      // the demo's own way
      [{ name: 'POS机-工行' }, '支付方式“POS机-工行”已存在'],
    ] as const) {
      const res = await method(bad);
      expect(res.return_code, JSON.stringify(bad)).not.toBe('SUCCESS');
      expect(res.return_msg, JSON.stringify(bad)).toContain(msg);
    }
    expect(await methods()).toEqual(before);
  });

  it('takes money by it: the receipt prints its name with the base, the reference is asked, a wrong base or another group’s way is refused', async () => {
    const count = async () =>
      Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fee_payments`.execute(s.database.db)).rows[0]!.n);
    const before = await count();
    refused(await payWith('bankcard', pos), '支付方式“POS机-建行”须填写凭证号（如银行流水号）');
    refused(await payWith('cash', pos, 'T1'), '支付方式“POS机-建行”属于银行卡，与所选方式不符');
    const theirs = ok(await method({ name: '他们的POS' }, outsider)).id;
    refused(await payWith('bankcard', theirs, 'T1'), '支付方式不存在');
    expect(await count()).toBe(before);
    expect((await methods()).find((m) => m.id === pos)?.used_at).toBeNull();

    const paid = ok(await payWith('bankcard', pos, 'POS-0001'));
    expect(paid).toMatchObject({
      pay_type: 'bankcard',
      pay_method: 'POS机-建行',
      pay_type_ch: 'POS机-建行（银行卡）',
      pay_ref: 'POS-0001',
    });
    const listed = ok(await s.call('paymentlist', { page: 1, limit: 5, pay_type: 'bankcard' }, cashier)).items as Array<{
      id: number;
      pay_type_ch: string;
    }>;
    expect(listed.find((p) => p.id === paid.id)?.pay_type_ch).toBe('POS机-建行（银行卡）');
    expect(ok(await group('paytypelist', {})).methods.find((m: { id: number }) => m.id === pos).used).toBe(true);

    // used: not deleted, its base kept; a rename leaves the printed receipt as it was
    refused(await group('paymethoddel', { id: pos }), '支付方式“POS机-建行”已有收款记录，不能删除，只能停用');
    refused(
      await group('paymethodedit', { id: pos, name: 'POS机-建行', base: 'transfer', enabled: 'Y', ref_required: 'Y', sort: 2 }),
      '支付方式“POS机-建行”已有收款记录，不能修改所属方式',
    );
    ok(await group('paymethodedit', { id: pos, name: 'POS机-建设银行', base: 'bankcard', enabled: 'Y', ref_required: 'N', sort: 2 }));
    expect(ok(await s.call('paymentinfo', { id: paid.id }, cashier)).pay_type_ch).toBe('POS机-建行（银行卡）');
    const again = ok(await payWith('bankcard', pos));
    expect(again.pay_type_ch).toBe('POS机-建设银行（银行卡）');

    // 财务报表 splits the base by the own ways, by their current names; a voided receipt leaves it
    const split = async () => {
      const report = ok(await s.call('financereport', { start_date: today(), end_date: today() }, admin));
      const bank = (report.by_pay_type as Array<{ pay_type: string; methods: Array<{ method_id: number }> }>).find(
        (t) => t.pay_type === 'bankcard',
      );
      return bank?.methods.find((m) => m.method_id === pos);
    };
    expect(await split()).toEqual({
      method_id: pos,
      name: 'POS机-建设银行',
      count: 2,
      amount: fenToYuan(toFen(paid.paid_amount as string) + toFen(again.paid_amount as string)),
    });
    // 收款统计 by pay type shows the same split under 银行卡
    const statSplit = async () => {
      const stat = ok(await s.call('paymentstatis', { start_date: today(), end_date: today(), group_by: 'pay_type' }, admin));
      const bank = (stat.items as Array<{ key: string; ways: Array<{ method_id: number }> }>).find((t) => t.key === 'bankcard');
      return bank?.ways.find((m) => m.method_id === pos);
    };
    expect(await statSplit()).toEqual(await split());
    ok(await s.call('paymentvoid', { id: again.id, reason: '收错房屋' }, cashier));
    expect(await split()).toMatchObject({ count: 1, amount: paid.paid_amount });
    expect(await statSplit()).toEqual(await split());
    // grouped otherwise, no split
    const byDay = ok(await s.call('paymentstatis', { start_date: today(), end_date: today(), group_by: 'day' }, admin));
    expect((byDay.items as Array<{ ways: unknown[] }>).every((r) => r.ways.length === 0)).toBe(true);
    expect(await totalsMismatches(s.database.db, PAY_METHOD_TOTALS)).toEqual([]);
  });

  it('预存 by it names it in the ledger', async () => {
    const { hid } = await unpaidBill();
    ok(
      await s.call('balancetopup', { hid, amount: '30.00', pay_type: 'bankcard', pay_method_id: pos, idempotency_key: newKey() }, cashier),
    );
    const ledger = await s.database.db
      .selectFrom('balance_ledger')
      .select(['remark', 'paytype'])
      .where('rid', '=', 1)
      .where('hid', '=', hid)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(ledger).toMatchObject({ paytype: 'bankcard', remark: '收银台预存，POS机-建设银行' });
  });

  it('会员卡充值 follows the rules and takes the own ways: the row prints it, the ledger names it', async () => {
    const t = await s.database.db
      .selectFrom('card_templates')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .where('supply_balance', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const made = ok(
      await s.call(
        'creatcardus',
        { card_no: `PT${Date.now() % 1e8}`, template_id: t.id, realname: '充值测试', mobile: `1370${String(Date.now()).slice(-7)}` },
        admin,
      ),
    );
    const card = ok(await s.call('cardusinfo', { id: made.id }, admin)) as { id: number; member_id: number };
    const recharge = (pay_type: string, extra: Record<string, unknown> = {}) =>
      s.call('cardrecharge', { card_id: card.id, amount: '50.00', pay_type, idempotency_key: newKey(), ...extra }, cashier);
    const count = async () =>
      Number(
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM card_recharges WHERE rid = 1 AND card_id = ${card.id}`.execute(
            s.database.db,
          )
        ).rows[0]!.n,
      );

    // the counter offers the group's ways to the card desk too
    expect((ok(await s.call('paytypeoptions', {}, cashier)).items as Array<{ method_id: number }>).some((o) => o.method_id === pos)).toBe(
      true,
    );
    ok(await edit('wechat', { enabled: 'N' }));
    ok(await edit('transfer', { ref_required: 'Y' }));
    try {
      refused(await recharge('wechat'), '支付方式“微信支付”已停用，请选择其他支付方式');
      refused(await recharge('transfer'), '支付方式“银行转账”须填写凭证号（如银行流水号）');
      refused(await recharge('cash', { pay_method_id: pos }), '支付方式“POS机-建设银行”属于银行卡，与所选方式不符');
      expect(await count()).toBe(0);
      ok(await recharge('transfer', { reference: 'ZZ-0001' }));
    } finally {
      ok(await edit('wechat', { enabled: 'Y', sort: 10 }));
      ok(await edit('transfer', { ref_required: 'N', sort: 10 }));
    }
    const row = ok(await recharge('bankcard', { pay_method_id: pos, reference: 'POS-9' }));
    expect(row).toMatchObject({ pay_type: 'bankcard', pay_type_ch: 'POS机-建设银行（银行卡）', reference: 'POS-9' });
    const listed = ok(await s.call('cardrechargelist', { card_id: card.id, limit: 5 }, admin)).items as Array<{
      id: number;
      pay_type_ch: string;
    }>;
    expect(listed.find((r) => r.id === row.id)?.pay_type_ch).toBe('POS机-建设银行（银行卡）');
    const ledger = await s.database.db
      .selectFrom('balance_ledger')
      .select(['remark', 'paytype'])
      .where('rid', '=', 1)
      .where('orderid', '=', row.order_no as string)
      .where('feetype', '=', 'recharge')
      .executeTakeFirstOrThrow();
    expect(ledger).toMatchObject({ paytype: 'bankcard', remark: '会员卡充值（POS机-建设银行），参考号 POS-9' });
  });

  it('disabled: no longer offered nor taken; an unused one is deleted', async () => {
    ok(await group('paymethodedit', { id: pos, name: 'POS机-建设银行', base: 'bankcard', enabled: 'N', ref_required: 'N', sort: 2 }));
    const offered = ok(await s.call('paytypeoptions', {}, cashier)).items as Array<{ method_id: number }>;
    expect(offered.map((o) => o.method_id)).not.toContain(pos);
    refused(await payWith('bankcard', pos), '支付方式“POS机-建设银行”已停用，请选择其他支付方式');

    const draft = ok(await method({ name: '汇票', base: 'transfer', ref_required: 'Y' })).id;
    ok(await group('paymethoddel', { id: draft }));
    expect((await methods()).map((m) => m.id)).not.toContain(draft);
    refused(await group('paymethoddel', { id: draft }), '支付方式不存在');
  });

  it('counts as a way to take money: with it on, the last system way may be disabled, and then it may not', async () => {
    const restore = await ownWaysOff();
    const desk = ok(await method({ name: '前台现金', base: 'cash', ref_required: 'N' })).id;
    for (const p of ['wechat', 'alipay', 'bankcard', 'transfer', 'cash']) ok(await edit(p, { enabled: 'N' }));
    refused(
      await group('paymethodedit', { id: desk, name: '前台现金', base: 'cash', enabled: 'N', ref_required: 'N', sort: 1 }),
      '至少保留一种启用的收款方式（余额抵扣除外）',
    );
    refused(await group('paymethoddel', { id: desk }), '至少保留一种启用的收款方式（余额抵扣除外）');
    const offered = ok(await s.call('paytypeoptions', {}, cashier)).items as Array<{ key: string }>;
    expect(offered.map((o) => o.key)).toEqual([`m${desk}`, 'balance']);
    for (const p of ['cash', 'wechat', 'alipay', 'bankcard', 'transfer']) ok(await edit(p, { enabled: 'Y', sort: 10 }));
    ok(await group('paymethoddel', { id: desk }));
    await restore();
  });
});
