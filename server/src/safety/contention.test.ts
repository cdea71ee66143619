import { fenToYuan, MSG_FEES, RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../jobs/runner.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * Money under contention: many cashiers (or one cashier's retries) on the same bills at the
 * same moment, and many bill generations for the same period at once, their jobs run by several
 * runners in parallel. On PGlite the calls queue for its one connection; on PostgreSQL
 * (DATABASE_URL) they really run side by side on the pool's connections.
 */
const CALLS = 50;
let s: TestServer;
let cashier: string;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  [cashier, admin] = await Promise.all([s.login('cashier'), s.login('admin')]);
});
afterAll(() => s.close());

const count = async (table: 'fee_payments' | 'balance_ledger' | 'fee_payment_items', where: (qb: any) => any) => {
  const row = await where(s.database.db.selectFrom(table).select(sql<number>`count(*)::int`.as('n'))).executeTakeFirstOrThrow();
  return row.n as number;
};

/** A room of community 1 with at least two unpaid bills and an owner, not used by another test here. */
const used = new Set<number>();
async function roomToPay() {
  const db = s.database.db;
  const rows = await db
    .selectFrom('fee_bills as b')
    .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'b.rid').onRef('rm.hid', '=', 'b.hid'))
    .select(['b.hid', 'rm.member_id'])
    .where('b.rid', '=', 1)
    .where('b.status', '<>', 'Y')
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .groupBy(['b.hid', 'rm.member_id'])
    .having(sql`count(*)`, '>=', 2)
    .orderBy('b.hid')
    .limit(20)
    .execute();
  const room = rows.find((r) => !used.has(r.hid))!;
  used.add(room.hid);
  const res = await s.call('cashierbills', { hid: room.hid }, cashier);
  expect(res.return_code).toBe(RC.SUCCESS);
  const bills = res.data.items as Array<{ id: number; total: string }>;
  const total = bills.reduce((sum, b) => sum + toFen(b.total), 0n);
  return { hid: room.hid, memberId: room.member_id, billIds: bills.map((b) => b.id), total };
}

async function moneyState(hid: number, memberId: number, billIds: number[]) {
  const db = s.database.db;
  const member = await db.selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow();
  const counter = await db.selectFrom('fee_receipt_counters').select('last_no').where('rid', '=', 1).executeTakeFirst();
  return {
    payments: await count('fee_payments', (q) => q.where('rid', '=', 1).where('hid', '=', hid)),
    items: await count('fee_payment_items', (q) => q.where('rid', '=', 1).where('bill_id', 'in', billIds)),
    ledger: await count('balance_ledger', (q) => q.where('rid', '=', 1).where('member_id', '=', memberId)),
    balance: toFen(member.balance),
    receiptNo: counter?.last_no ?? 0,
  };
}

describe('cashierpay under contention', () => {
  it(`${CALLS} cashiers with different idempotency keys on the same bills: one payment, money moved once`, async () => {
    const { hid, memberId, billIds, total } = await roomToPay();
    const before = await moneyState(hid, memberId, billIds);
    // 8.88 more than due, so each payment would also move money into the owner's balance
    const extra = 888n;
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        s.call(
          'cashierpay',
          {
            hid,
            bill_ids: billIds,
            pay_type: 'cash',
            paid_amount: fenToYuan(total + extra),
            idempotency_key: `contend-${hid}-${i}`,
          },
          cashier,
        ),
      ),
    );

    const ok = answers.filter((a) => a.return_code === RC.SUCCESS);
    expect(ok).toHaveLength(1);
    const refused = answers.filter((a) => a.return_code !== RC.SUCCESS);
    expect(new Set(refused.map((a) => `${a.return_code} ${a.return_msg}`))).toEqual(new Set([`${RC.FAIL} ${MSG_FEES.billPaid}`]));
    expect(ok[0]!.data).toMatchObject({ to_balance: fenToYuan(extra), paid_amount: fenToYuan(total + extra) });

    const after = await moneyState(hid, memberId, billIds);
    expect(after).toEqual({
      payments: before.payments + 1,
      items: before.items + billIds.length,
      ledger: before.ledger + 1,
      balance: before.balance + extra,
      receiptNo: before.receiptNo + 1,
    });
    const bills = await s.database.db
      .selectFrom('fee_bills')
      .select(['status', 'payment_id'])
      .where('rid', '=', 1)
      .where('id', 'in', billIds)
      .execute();
    expect(bills.every((b) => b.status === 'Y' && b.payment_id === ok[0]!.data.id)).toBe(true);
  });

  it(`${CALLS} retries with one idempotency key: one payment and the same answer for all`, async () => {
    const { hid, memberId, billIds, total } = await roomToPay();
    const before = await moneyState(hid, memberId, billIds);
    const payload = {
      hid,
      bill_ids: billIds,
      pay_type: 'wechat',
      paid_amount: fenToYuan(total + 100n),
      idempotency_key: `retry-key-${hid}`,
    };
    const answers = await Promise.all(Array.from({ length: CALLS }, () => s.call('cashierpay', payload, cashier)));

    expect(
      answers
        .filter((a) => a.return_code !== RC.SUCCESS)
        .map((a) => a.return_msg)
        .slice(0, 3),
    ).toEqual([]);
    for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
    const after = await moneyState(hid, memberId, billIds);
    expect(after).toEqual({
      payments: before.payments + 1,
      items: before.items + billIds.length,
      ledger: before.ledger + 1,
      balance: before.balance + 100n,
      receiptNo: before.receiptNo + 1,
    });
  });
});

describe('bill generation under contention', () => {
  it('10 generations of one period and scope at once: one starts, its job run by parallel runners; no duplicate bill, totals right', async () => {
    const db = s.database.db;
    const item = await db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('pricing', '=', 'area_built')
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const scope = { period: '2031-07', item_ids: [item.id] };
    const preview = await s.call('feebillgenerate', { ...scope, preview: true }, admin);
    expect(preview.data.count).toBeGreaterThan(100);

    const answers = await Promise.all(Array.from({ length: 10 }, () => s.call('feebillgenerate', scope, admin)));
    // one is accepted; the others find its batch still running (none may create a bill twice, or an empty batch)
    const accepted = answers.filter((a) => a.return_code === RC.SUCCESS);
    expect(accepted).toHaveLength(1);
    for (const a of answers.filter((x) => x.return_code !== RC.SUCCESS)) expect(a.return_msg).toContain('正在生成');

    const runners = [s.app.jobs, ...Array.from({ length: 4 }, () => new JobRunner(db, s.app.fastify.log))];
    await Promise.all(runners.map((r) => r.drain()));

    const bills = await db
      .selectFrom('fee_bills')
      .where('rid', '=', 1)
      .where('item_id', '=', item.id)
      .where('period', '=', scope.period)
      .select([
        sql<number>`count(*)::int`.as('n'),
        sql<number>`count(DISTINCT hid)::int`.as('rooms'),
        sql<string>`coalesce(sum(fee), 0)::text`.as('total'),
      ])
      .executeTakeFirstOrThrow();
    expect(bills).toEqual({ n: preview.data.count, rooms: preview.data.count, total: preview.data.total_fee });

    const batchIds = accepted.map((a) => a.data.batch_id as number);
    const batches = await db
      .selectFrom('fee_batches')
      .select(['id', 'status', 'bill_count', 'total_fee', 'job_id'])
      .where('rid', '=', 1)
      .where('id', 'in', batchIds)
      .execute();
    expect(batches.map((b) => b.status)).toEqual(Array(accepted.length).fill('done'));
    expect(batches.reduce((sum, b) => sum + b.bill_count, 0)).toBe(preview.data.count);
    expect(fenToYuan(batches.reduce((sum, b) => sum + toFen(b.total_fee), 0n))).toBe(preview.data.total_fee);
    for (const b of batches) {
      const own = await db
        .selectFrom('fee_bills')
        .where('rid', '=', 1)
        .where('batch_id', '=', b.id)
        .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(fee), 0)::numeric(14,2)::text`.as('total')])
        .executeTakeFirstOrThrow();
      expect(own, `batch ${b.id}`).toEqual({ n: b.bill_count, total: b.total_fee });
    }
    const jobs = await db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where(
        'id',
        'in',
        batches.map((b) => b.job_id!),
      )
      .execute();
    expect(jobs).toEqual(Array(accepted.length).fill({ status: 'done', attempts: 1 }));

    // and once they are all there, one more generation of the same scope has nothing to do
    expect((await s.call('feebillgenerate', scope, admin)).return_msg).toContain('没有需要生成的账单');
  });
});
