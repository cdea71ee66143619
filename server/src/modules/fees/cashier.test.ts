import fc from 'fast-check';
import { capitalAmount, fenToYuan, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
let key = 0;
const newKey = () => `test-key-${Date.now()}-${++key}`;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

/** A room of community 1 with unpaid bills, excluding rooms already used by a test. */
const usedRooms = new Set<number>();
async function roomWithUnpaid(
  min = 2,
): Promise<{ hid: number; bills: Array<{ id: number; fee: string; late_fee: string; total: string }> }> {
  const rows = await t.database.db
    .selectFrom('fee_bills')
    .select(['hid'])
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .groupBy('hid')
    .having(sql`count(*)`, '>=', min)
    .orderBy('hid')
    .execute();
  const hid = rows.map((r) => r.hid).find((h) => !usedRooms.has(h))!;
  usedRooms.add(hid);
  const res = await t.call('cashierbills', { hid }, cashier);
  return { hid, bills: res.data.items };
}

/** The room's owner (adds one when the demo has none), so balance movements have somewhere to go. */
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
    .values({ rid: 1, realname: '测试业主', mobile: `199${String(hid).padStart(8, '0')}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('room_members').values({ rid: 1, hid, member_id: m.id, relation: 'owner' }).execute();
  return m.id;
}

const balanceOf = async (memberId: number) =>
  (await t.database.db.selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
    .balance;

describe('cashierbills', () => {
  it("lists a room's unpaid bills with late fees and totals", async () => {
    const { hid } = await roomWithUnpaid();
    const res = await t.call('cashierbills', { hid }, cashier);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.house.address).toMatch(/号楼\d单元\d+$/);
    const sum = res.data.items.reduce((s: bigint, b: { fee: string }) => s + toFen(b.fee), 0n);
    const late = res.data.items.reduce((s: bigint, b: { late_fee: string }) => s + toFen(b.late_fee), 0n);
    expect(res.data.totals).toEqual({ receivable: fenToYuan(sum), late_fee: fenToYuan(late), total: fenToYuan(sum + late) });
    // the seeded overdue month has a late fee (0.5‰ a day)
    expect(res.data.items.some((b: { status: string; late_fee: string }) => b.status === 'N' && b.late_fee !== '0.00')).toBe(true);
  });

  it("gives nothing for another community's room and refuses other roles", async () => {
    const { hid } = await roomWithUnpaid();
    expect((await t.call('cashierbills', { hid }, admin2)).return_msg).toBe('房屋不存在');
    expect((await t.call('cashierbills', { hid }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('cashierbills', { hid: 'x' }, cashier)).return_msg).toContain('hid');
  });
});

describe('cashierpay', () => {
  it('pays bills in cash, numbers the receipt and marks the bills paid', async () => {
    const { hid, bills } = await roomWithUnpaid();
    const total = bills.reduce((s, b) => s + toFen(b.total), 0n);
    const res = await t.call(
      'cashierpay',
      {
        hid,
        bill_ids: bills.map((b) => b.id),
        pay_type: 'cash',
        paid_amount: fenToYuan(total),
        idempotency_key: newKey(),
      },
      cashier,
    );
    expect(res.return_code).toBe('SUCCESS');
    expect(res.return_msg).toBe('收费成功');
    expect(res.data).toMatchObject({
      pay_type: 'cash',
      pay_type_ch: '现金',
      due: fenToYuan(total),
      total: fenToYuan(total),
      to_balance: '0.00',
      cashier_name: '赵收银',
    });
    expect(res.data.capital_amount).toBe(capitalAmount(fenToYuan(total)));
    expect(res.data.items).toHaveLength(bills.length);
    expect(res.data.receipt_no).toMatch(/^\d{8}$/);
    const after = await t.call('cashierbills', { hid }, cashier);
    expect(after.data.items.filter((b: { id: number }) => bills.some((x) => x.id === b.id))).toHaveLength(0);
    const list = await t.call('feebilllist', { hid, status: 'Y' }, admin);
    expect(list.data.items.filter((b: { payment_id: number }) => b.payment_id === res.data.id)).toHaveLength(bills.length);
    // receipts are sequential
    const next = await roomWithUnpaid(1);
    const res2 = await t.call(
      'cashierpay',
      { hid: next.hid, bill_ids: [next.bills[0]!.id], pay_type: 'wechat', paid_amount: next.bills[0]!.total, idempotency_key: newKey() },
      cashier,
    );
    expect(Number(res2.data.receipt_no)).toBe(Number(res.data.receipt_no) + 1);
  });

  it('same idempotency key twice: one payment, the same answer', async () => {
    const { hid, bills } = await roomWithUnpaid();
    const payload = { hid, bill_ids: [bills[0]!.id], pay_type: 'alipay', paid_amount: bills[0]!.total, idempotency_key: newKey() };
    const a = await t.call('cashierpay', payload, cashier);
    const b = await t.call('cashierpay', payload, cashier);
    expect(a.return_code).toBe('SUCCESS');
    expect(b.return_code).toBe('SUCCESS');
    expect(b.data).toEqual(a.data);
    const n = await t.database.db
      .selectFrom('fee_payments')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('idempotency_key', '=', payload.idempotency_key)
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(1);
    // concurrent retries with one key also pay once
    const c = await roomWithUnpaid(1);
    const p2 = { hid: c.hid, bill_ids: [c.bills[0]!.id], pay_type: 'cash', paid_amount: c.bills[0]!.total, idempotency_key: newKey() };
    const [x, y] = await Promise.all([t.call('cashierpay', p2, cashier), t.call('cashierpay', p2, cashier)]);
    expect([x.return_code, y.return_code]).toEqual(['SUCCESS', 'SUCCESS']);
    expect(x.data.id).toBe(y.data.id);
  });

  it('two cashiers paying the same bill at once: exactly one succeeds', async () => {
    const { hid, bills } = await roomWithUnpaid();
    const pay = () =>
      t.call(
        'cashierpay',
        { hid, bill_ids: [bills[0]!.id], pay_type: 'cash', paid_amount: bills[0]!.total, idempotency_key: newKey() },
        cashier,
      );
    const results = await Promise.all([pay(), pay()]);
    const ok = results.filter((r) => r.return_code === 'SUCCESS');
    const refused = results.filter((r) => r.return_code === 'FAIL');
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.return_msg).toBe('账单已缴费，请勿重复收费');
    const n = await t.database.db
      .selectFrom('fee_payment_items')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('bill_id', '=', bills[0]!.id)
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(1);
  });

  it("overpayment goes to the owner's balance; balance pays later bills", async () => {
    const { hid, bills } = await roomWithUnpaid();
    const memberId = await ensureOwner(hid);
    const start = toFen(await balanceOf(memberId));
    const first = bills[0]!;
    const res = await t.call(
      'cashierpay',
      {
        hid,
        bill_ids: [first.id],
        pay_type: 'cash',
        paid_amount: fenToYuan(toFen(first.total) + 10000n),
        idempotency_key: newKey(),
      },
      cashier,
    );
    expect(res.data.to_balance).toBe('100.00');
    expect(toFen(await balanceOf(memberId))).toBe(start + 10000n);
    const second = bills[1]!;
    const res2 = await t.call(
      'cashierpay',
      { hid, bill_ids: [second.id], pay_type: 'cash', paid_amount: '0', use_balance: true, idempotency_key: newKey() },
      cashier,
    );
    const used = toFen(second.total) < start + 10000n ? toFen(second.total) : start + 10000n;
    if (used < toFen(second.total)) {
      expect(res2.return_msg).toContain('实收金额不能少于应收金额');
    } else {
      expect(res2.return_code).toBe('SUCCESS');
      expect(res2.data.balance_used).toBe(fenToYuan(used));
      expect(toFen(await balanceOf(memberId))).toBe(start + 10000n - used);
      const ledger = await t.database.db
        .selectFrom('balance_ledger')
        .select(['io_type', 'total_fee', 'paytype'])
        .where('rid', '=', 1)
        .where('member_id', '=', memberId)
        .orderBy('id')
        .execute();
      expect(ledger.slice(-2)).toEqual([
        { io_type: 1, total_fee: '100.00', paytype: 'cash' },
        { io_type: 2, total_fee: fenToYuan(used), paytype: 'balance' },
      ]);
    }
  });

  it('refuses short payments, big discounts, bad amounts, foreign bills and other roles', async () => {
    const { hid, bills } = await roomWithUnpaid();
    const base = { hid, bill_ids: [bills[0]!.id], pay_type: 'cash', idempotency_key: newKey() };
    expect((await t.call('cashierpay', { ...base, paid_amount: '0.01' }, cashier)).return_msg).toContain('实收金额不能少于应收金额');
    expect((await t.call('cashierpay', { ...base, paid_amount: '1.001' }, cashier)).return_msg).toContain('paid_amount');
    expect((await t.call('cashierpay', { ...base, paid_amount: '-1' }, cashier)).return_msg).toContain('paid_amount');
    expect((await t.call('cashierpay', { ...base, paid_amount: '1', discount: '999999' }, cashier)).return_msg).toBe(
      '优惠金额不能大于应收合计',
    );
    expect((await t.call('cashierpay', { ...base, paid_amount: '1', idempotency_key: 'short' }, cashier)).return_msg).toContain(
      'idempotency_key',
    );
    expect((await t.call('cashierpay', { ...base, paid_amount: '1', pay_type: 'bitcoin' }, cashier)).return_msg).toContain('pay_type');
    const other = await roomWithUnpaid(1);
    // another room's bill: neither the room's nor one of its owner's other rooms
    expect((await t.call('cashierpay', { ...base, bill_ids: [other.bills[0]!.id], paid_amount: '9999' }, cashier)).return_msg).toMatch(
      /^所选账单不属于该(业主的)?房屋$/,
    );
    expect((await t.call('cashierpay', { ...base, paid_amount: '9999' }, steward)).return_code).toBe('NO_PERMISSION');
    const cashier2 = await t.login('cashier2');
    expect((await t.call('cashierpay', { ...base, paid_amount: '9999' }, cashier2)).return_msg).toBe('房屋不存在');
    // nothing was paid by any of these
    expect((await t.call('cashierbills', { hid }, cashier)).data.items.some((b: { id: number }) => b.id === bills[0]!.id)).toBe(true);
    // a payment with a discount settles total = receivable + late - discount
    const ok = await t.call('cashierpay', { ...base, paid_amount: bills[0]!.total, discount: '0.50' }, cashier);
    expect(ok.data.total).toBe(fenToYuan(toFen(bills[0]!.total) - 50n));
    expect(ok.data.to_balance).toBe('0.50');
  });
});

describe('one receipt for several rooms of one owner (issue 34)', () => {
  it("offers the owner's other rooms with what they owe, pays bills of both on one receipt, once", async () => {
    const a = await roomWithUnpaid(1);
    const b = await roomWithUnpaid(1);
    const c = await roomWithUnpaid(1);
    const owner = await ensureOwner(a.hid);
    await t.database.db.insertInto('room_members').values({ rid: 1, hid: b.hid, member_id: owner, relation: 'owner' }).execute();
    const desk = (await t.call('cashierbills', { hid: a.hid }, cashier)).data;
    const other = desk.owner_rooms.find((r: { hid: number }) => r.hid === b.hid);
    const deskB = (await t.call('cashierbills', { hid: b.hid }, cashier)).data;
    expect(other.arrears).toEqual({
      bill_count: deskB.items.length,
      fee: deskB.totals.receivable,
      late_fee: deskB.totals.late_fee,
      total: deskB.totals.total,
    });
    expect(desk.owner_rooms.some((r: { hid: number }) => r.hid === c.hid)).toBe(false);
    const bills = [...a.bills, ...b.bills];
    const total = bills.reduce((sum, x) => sum + toFen(x.total), 0n);
    const payload = {
      hid: a.hid,
      bill_ids: bills.map((x) => x.id),
      pay_type: 'wechat',
      paid_amount: fenToYuan(total),
      payer_name: '业主之子',
      idempotency_key: newKey(),
    };
    // a bill of a room the owner does not own is refused, and nothing is paid
    const foreign = await t.call('cashierpay', { ...payload, bill_ids: [...payload.bill_ids, c.bills[0]!.id] }, cashier);
    expect(foreign.return_msg).toBe('所选账单不属于该业主的房屋');
    expect((await t.call('cashierbills', { hid: b.hid }, cashier)).data.items).toHaveLength(b.bills.length);
    const [x, y] = await Promise.all([t.call('cashierpay', payload, cashier), t.call('cashierpay', payload, cashier)]);
    expect([x.return_code, y.return_code]).toEqual(['SUCCESS', 'SUCCESS']);
    expect(y.data).toEqual(x.data);
    expect(x.data).toMatchObject({ hid: a.hid, total: fenToYuan(total), payer_name: '业主之子', bill_count: bills.length });
    expect(new Set(x.data.items.map((i: { hid: number }) => i.hid))).toEqual(new Set([a.hid, b.hid]));
    const address = (hid: number) => x.data.items.find((i: { hid: number }) => i.hid === hid).address;
    expect(address(b.hid)).toBe(deskB.house.address);
    expect(address(a.hid)).toBe(desk.house.address);
    for (const hid of [a.hid, b.hid]) expect((await t.call('cashierbills', { hid }, cashier)).data.items).toEqual([]);
    const receipts = await t.database.db
      .selectFrom('fee_payments')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('idempotency_key', '=', payload.idempotency_key)
      .executeTakeFirstOrThrow();
    expect(receipts.n).toBe(1);
  });
});

describe('money correctness (property-based)', () => {
  it('payments equal paid bills plus balance movements, to the fen', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 30000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 100 }),
        async (extraFen, useBalance, discountPct) => {
          const room = await roomWithUnpaid(1).catch(() => null);
          if (!room?.bills.length) return;
          await ensureOwner(room.hid);
          const bill = room.bills[0]!;
          const discount = (toFen(bill.total) * BigInt(discountPct)) / 1000n;
          const paid = toFen(bill.total) - discount + BigInt(extraFen);
          await t.call(
            'cashierpay',
            {
              hid: room.hid,
              bill_ids: [bill.id],
              pay_type: 'cash',
              paid_amount: fenToYuan(paid),
              discount: fenToYuan(discount),
              use_balance: useBalance,
              idempotency_key: newKey(),
            },
            cashier,
          );
        },
      ),
      { numRuns: 15 },
    );
    const db = t.database.db;
    const pays = await db
      .selectFrom('fee_payments')
      .where('rid', '=', 1)
      .where('idempotency_key', 'like', 'test-key-%')
      .select([
        sql<string>`coalesce(sum(paid_amount), 0)::text`.as('paid'),
        sql<string>`coalesce(sum(balance_used), 0)::text`.as('used'),
        sql<string>`coalesce(sum(to_balance), 0)::text`.as('to_balance'),
        sql<string>`coalesce(sum(discount), 0)::text`.as('discount'),
      ])
      .executeTakeFirstOrThrow();
    const bills = await db
      .selectFrom('fee_bills as b')
      .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'b.rid').onRef('p.id', '=', 'b.payment_id'))
      .where('p.idempotency_key', 'like', 'test-key-%')
      .select(sql<string>`coalesce(sum(b.fee + b.late_fee), 0)::text`.as('billed'))
      .executeTakeFirstOrThrow();
    // cash in + balance used = bills settled - discounts + money put on the balance
    expect(toFen(pays.paid) + toFen(pays.used)).toBe(toFen(bills.billed) - toFen(pays.discount) + toFen(pays.to_balance));
    const ledger = await db
      .selectFrom('balance_ledger')
      .where('rid', '=', 1)
      .where('orderid', 'in', db.selectFrom('fee_payments').select('receipt_no').where('idempotency_key', 'like', 'test-key-%'))
      .select([
        sql<string>`coalesce(sum(total_fee) FILTER (WHERE io_type = 1), 0)::text`.as('in_'),
        sql<string>`coalesce(sum(total_fee) FILTER (WHERE io_type = 2), 0)::text`.as('out'),
      ])
      .executeTakeFirstOrThrow();
    expect(toFen(ledger.in_)).toBe(toFen(pays.to_balance));
    expect(toFen(ledger.out)).toBe(toFen(pays.used));
  });
});

describe('paymentlist and paymentinfo', () => {
  it('lists payments with filters and shows a receipt', async () => {
    const list = await t.call('paymentlist', {}, cashier);
    expect(list.return_code).toBe('SUCCESS');
    expect(list.data.total).toBeGreaterThan(0);
    const first = list.data.items[0];
    expect(first.id).toBeGreaterThan(list.data.items[1].id);
    const byNo = await t.call('paymentlist', { receipt_no: first.receipt_no }, cashier);
    expect(byNo.data.items[0].id).toBe(first.id);
    const cash = await t.call('paymentlist', { pay_type: 'cash', limit: 50 }, cashier);
    expect(cash.data.items.every((p: { pay_type: string }) => p.pay_type === 'cash')).toBe(true);
    const byCashier = await t.call('paymentlist', { cashier: '赵' }, cashier);
    expect(byCashier.data.total).toBeGreaterThan(0);
    // a cashier named in Latin letters is found whatever the case; a name without them by LIKE (containsOperator)
    await sql`UPDATE fee_payments SET cashier_name = 'ZHAO Li' WHERE rid = 1 AND id = ${first.id}`.execute(t.database.db);
    expect((await t.call('paymentlist', { cashier: 'zhao l' }, cashier)).data.items.map((p: { id: number }) => p.id)).toEqual([first.id]);
    const none = await t.call('paymentlist', { start_date: '2000-01-01', end_date: '2000-01-31' }, cashier);
    expect(none.data.total).toBe(0);
    expect((await t.call('paymentlist', { start_date: '2000/01/01' }, cashier)).return_msg).toContain('日期格式');
    // the totals, counted without the address joins, are the joined query's
    const month = first.create_time.slice(0, 7);
    for (const [filters, where] of [
      [{}, 'true'],
      [{ pay_type: 'cash' }, `p.pay_type = 'cash'`],
      [{ cashier: '赵' }, `p.cashier_name ILIKE '%赵%'`],
      [{ cashier: 'Li' }, `p.cashier_name ILIKE '%li%'`],
      [
        { start_date: `${month}-01`, end_date: `${month}-28` },
        `p.created_at >= '${month}-01'::date AND p.created_at < '${month}-29'::date`,
      ],
      [{ hid: first.hid, pay_type: first.pay_type }, `p.hid = ${first.hid} AND p.pay_type = '${first.pay_type}'`],
    ] as const) {
      // a temporary stay's receipt (临时停车费) has no room, and is listed too
      const joined = await sql<{ n: number }>`SELECT count(*)::int n FROM fee_payments p LEFT JOIN rooms r ON r.rid = p.rid AND r.id = p.hid
        LEFT JOIN units u ON u.rid = p.rid AND u.id = p.tid LEFT JOIN buildings bd ON bd.rid = p.rid AND bd.id = p.bid
        WHERE p.rid = 1 AND ${sql.raw(where)}`.execute(t.database.db);
      expect((await t.call('paymentlist', { ...filters, limit: 10 }, cashier)).data.total, JSON.stringify(filters)).toBe(joined.rows[0]!.n);
    }
    const info = await t.call('paymentinfo', { id: first.id }, cashier);
    expect(info.data).toMatchObject({ id: first.id, region_title: '阳光花园', capital_amount: capitalAmount(info.data.total) });
    expect((await t.call('paymentinfo', { id: first.id }, admin2)).return_msg).toBe('收费记录不存在');
    expect((await t.call('paymentlist', {}, admin2)).data.items.some((p: { id: number }) => p.id === first.id)).toBe(false);
    expect((await t.call('paymentlist', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('paymentinfo', { id: first.id }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('paymentprint', { id: first.id }, cashier)).data.print_count).toBe(1);
    expect((await t.call('paymentprint', { id: first.id }, admin2)).return_msg).toBe('收费记录不存在');
  });

  it('finds by keyword the receipts whose room address, payer or number contains it, as the joined text does', async () => {
    const db = t.database.db;
    // a company paying (longer than a name fragment), a payer named with LIKE's own characters, a lettered number
    const ids = (await sql<{ id: number }>`SELECT id FROM fee_payments WHERE rid = 1 ORDER BY id DESC LIMIT 5`.execute(db)).rows.map(
      (r) => r.id,
    );
    await sql`UPDATE fee_payments SET payer_name = '欧阳东方明珠物业服务有限公司' WHERE rid = 1 AND id = ${ids[0]}`.execute(db);
    await sql`UPDATE fee_payments SET payer_name = '张%_三' WHERE rid = 1 AND id = ${ids[1]}`.execute(db);
    await sql`UPDATE fee_payments SET receipt_no = 'AB-' || receipt_no WHERE rid = 1 AND id = ${ids[2]}`.execute(db);
    // a number holding 1234, and one holding its three-character pieces 123 and 234 apart, which must not be found
    await sql`UPDATE fee_payments SET receipt_no = 'Z-91234' WHERE rid = 1 AND id = ${ids[3]}`.execute(db);
    await sql`UPDATE fee_payments SET receipt_no = 'Z-1239-2345' WHERE rid = 1 AND id = ${ids[4]}`.execute(db);
    const sample = (
      await sql<{ payer_name: string; receipt_no: string; room: string }>`SELECT p.payer_name, p.receipt_no, r.title AS room
      FROM fee_payments p JOIN rooms r ON r.rid = p.rid AND r.id = p.hid WHERE p.rid = 1 AND p.payer_name <> '' AND p.id < ${ids[4]}
      ORDER BY p.id LIMIT 1`.execute(db)
    ).rows[0]!;
    const keywords = [
      sample.room,
      '2号楼1单元',
      sample.payer_name,
      sample.payer_name.slice(0, 1),
      sample.receipt_no.slice(-5),
      '欧阳东方明珠物业服务有限公司',
      '服务有限',
      'ab-',
      '%',
      '_三',
      'B-0',
      '1234',
      '不存在的人',
    ];
    for (const keyword of keywords) {
      // "contains, whatever the case", written without LIKE
      const has = (text: string) => sql`strpos(lower(${sql.raw(text)}), lower(${keyword})) > 0`;
      // every match, newest first, and those paid by cash (a filter beside the keyword)
      const expected = await sql<{ ids: number[] | null; cash: number[] | null }>`SELECT array_agg(p.id ORDER BY p.id DESC) ids,
          array_agg(p.id ORDER BY p.id DESC) FILTER (WHERE p.pay_type = 'cash') cash
        FROM fee_payments p LEFT JOIN rooms r ON r.rid = p.rid AND r.id = p.hid LEFT JOIN units u ON u.rid = p.rid AND u.id = p.tid
        LEFT JOIN buildings bd ON bd.rid = p.rid AND bd.id = p.bid
        WHERE p.rid = 1 AND (${has('p.payer_name')} OR ${has('p.receipt_no')} OR ${has('bd.title || u.title || r.title')})`.execute(db);
      const all = (expected.rows[0]!.ids ?? []).map(Number);
      const cash = (expected.rows[0]!.cash ?? []).map(Number);
      if (keyword !== '不存在的人') expect(all.length, keyword).toBeGreaterThan(0);
      // each page is picked from the parts' own first rows (keywordPage): pages past the first, both orders, another filter
      const pages: Array<[Record<string, unknown>, number[]]> = [
        [{}, all.slice(0, 10)],
        [{ page: 2, limit: 3 }, all.slice(3, 6)],
        [{ sort: 'asc', page: 2, limit: 2 }, [...all].reverse().slice(2, 4)],
        [{ pay_type: 'cash', limit: 2 }, cash.slice(0, 2)],
      ];
      for (const [paging, ids] of pages) {
        const listed = await t.call('paymentlist', { keyword, ...paging }, cashier);
        const total = paging.pay_type ? cash.length : all.length;
        expect([keyword, paging, listed.data.total, listed.data.items.map((p: { id: number }) => p.id)]).toEqual([
          keyword,
          paging,
          total,
          ids,
        ]);
      }
    }
    expect(
      (await t.call('paymentlist', { keyword: sample.payer_name }, admin2)).data.items.some((p: { id: number }) => ids.includes(p.id)),
    ).toBe(false);
    // the receipt-number filter alike: any part, whatever the case, taken literally
    const lettered = await t.call('paymentlist', { receipt_no: 'ab-' }, cashier);
    expect(lettered.data.items.map((p: { id: number }) => p.id)).toEqual([ids[2]]);
    expect((await t.call('paymentlist', { receipt_no: sample.receipt_no.slice(-5) }, cashier)).data.total).toBeGreaterThan(0);
    expect((await t.call('paymentlist', { receipt_no: '%' }, cashier)).data.total).toBe(0);
    // searched by the number alone, a page is picked from the numbers found (keywordPage); beside a keyword it is one more filter
    for (const text of ['00', sample.receipt_no.slice(-3), 'B-0', '0', '1234']) {
      const found = await sql<{ id: number; pay_type: string; payer_name: string }>`SELECT id, pay_type, payer_name FROM fee_payments
        WHERE rid = 1 AND strpos(lower(receipt_no), lower(${text})) > 0 ORDER BY id DESC`.execute(db);
      const ids = (rows: typeof found.rows) => rows.map((r) => Number(r.id));
      const cases: Array<[Record<string, unknown>, number[], number]> = [
        [{ limit: 3, page: 2 }, ids(found.rows).slice(3, 6), found.rows.length],
        [{ sort: 'asc', limit: 2 }, ids(found.rows).reverse().slice(0, 2), found.rows.length],
        [
          { pay_type: 'cash', limit: 2 },
          ids(found.rows.filter((r) => r.pay_type === 'cash')).slice(0, 2),
          found.rows.filter((r) => r.pay_type === 'cash').length,
        ],
        [{ keyword: sample.payer_name }, ids(found.rows.filter((r) => r.payer_name.includes(sample.payer_name))).slice(0, 10), -1],
      ];
      expect(found.rows.length, text).toBeGreaterThan(0);
      for (const [paging, expected, total] of cases) {
        const listed = await t.call('paymentlist', { receipt_no: text, ...paging }, cashier);
        expect([text, paging, listed.data.items.map((p: { id: number }) => p.id)]).toEqual([text, paging, expected]);
        if (total >= 0) expect([text, paging, listed.data.total]).toEqual([text, paging, total]);
      }
    }
  });
});
