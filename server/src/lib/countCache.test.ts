import { addMonths } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../http/app.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { CountCache } from './countCache.js';
import { today } from './wire.js';

describe('CountCache', () => {
  const counter = (start: number) => {
    let n = start;
    let calls = 0;
    return {
      count: async () => {
        calls++;
        return n;
      },
      set: (v: number) => {
        n = v;
      },
      calls: () => calls,
    };
  };

  it('counts every time while off', async () => {
    const cache = new CountCache(60_000);
    const c = counter(5);
    expect(await cache.total('k', c.count)).toBe(5);
    expect(await cache.total('k', c.count)).toBe(5);
    expect(c.calls()).toBe(2);
  });

  it('remembers a total per key until cleared or aged out', async () => {
    const cache = new CountCache(60_000);
    cache.setEnabled(true);
    const c = counter(5);
    expect(await cache.total('k', c.count)).toBe(5);
    c.set(6);
    expect(await cache.total('k', c.count)).toBe(5);
    expect(await cache.total('other', c.count)).toBe(6);
    cache.clear();
    expect(await cache.total('k', c.count)).toBe(6);
    expect(c.calls()).toBe(3);

    const short = new CountCache(1);
    short.setEnabled(true);
    await short.total('k', c.count);
    await new Promise((r) => setTimeout(r, 5));
    await short.total('k', c.count);
    expect(c.calls()).toBe(5);
  });

  it('does not remember a count that ran across a clear (it may have read the old rows)', async () => {
    const cache = new CountCache(60_000);
    cache.setEnabled(true);
    let release!: () => void;
    const slow = () =>
      new Promise<number>((resolve) => {
        release = () => resolve(1);
      });
    const pending = cache.total('k', slow);
    cache.clear();
    release();
    expect(await pending).toBe(1);
    expect(await cache.total('k', async () => 2)).toBe(2);
  });

  it('is off for good with no time to live', async () => {
    const cache = new CountCache(0);
    cache.setEnabled(true);
    const c = counter(1);
    await cache.total('k', c.count);
    await cache.total('k', c.count);
    expect(c.calls()).toBe(2);
  });
});

// totals are remembered only on PostgreSQL, where changes from anywhere are heard
describe.runIf(process.env.DATABASE_URL)('remembered bill totals through the API', () => {
  let t: TestServer;
  let admin: string;
  let cashier: string;
  const overdue = async () => (await t.call('feebilllist', { status: 'N' }, admin)).data.total as number;
  const waitForTotal = async (read: () => Promise<number>, want: number) => {
    let got = await read();
    for (let i = 0; i < 80 && got !== want; i++) {
      await new Promise((r) => setTimeout(r, 25));
      got = await read();
    }
    return got;
  };

  beforeAll(async () => {
    t = await startTestServer();
    [admin, cashier] = [await t.login('admin'), await t.login('cashier')];
    await waitUntilListening(t.app);
  });
  afterAll(() => t.close());

  it('answers a repeated total from memory, the same as counting', async () => {
    const exact = await t.database.db
      .selectFrom('fee_bills')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('rid', '=', 1)
      .where('status', '=', 'N')
      .executeTakeFirstOrThrow();
    expect(await overdue()).toBe(Number(exact.n));
    expect(await overdue()).toBe(Number(exact.n));
  });

  it('sees a payment through the API at once', async () => {
    const before = await overdue();
    const bill = await t.database.db
      .selectFrom('fee_bills')
      .select(['id', 'hid'])
      .where('rid', '=', 1)
      .where('status', '=', 'N')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const owed = (await t.call('cashierbills', { hid: bill.hid }, cashier)).data.items.find((b: { id: number }) => b.id === bill.id);
    const paid = await t.call(
      'cashierpay',
      {
        hid: bill.hid,
        bill_ids: [bill.id],
        pay_type: 'cash',
        paid_amount: owed.total,
        idempotency_key: `count-${Date.now()}`,
      },
      cashier,
    );
    expect(paid.return_code).toBe('SUCCESS');
    expect(await overdue()).toBe(before - 1);
  });

  it('sees bills a job generated as soon as the job has run', async () => {
    const item = await t.database.db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('cost_type', '=', 'property')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const period = addMonths(`${today().slice(0, 7)}-01`, 3).slice(0, 7);
    const list = async () => (await t.call('feebilllist', { itemid: item.id, period }, admin)).data.total as number;
    // The demo prepays some rooms ahead (a coupon rule's twelve months), so count from what is there.
    const before = await list();
    const go = await t.call('feebillgenerate', { period, item_ids: [item.id] }, admin);
    expect(go.return_code).toBe('SUCCESS');
    expect(go.data.count).toBeGreaterThan(0);
    await t.runJobs();
    expect(await list()).toBe(before + go.data.count);
  });

  it('hears a change made behind the API, as another process would make it', async () => {
    const before = await overdue();
    const bill = await t.database.db
      .selectFrom('fee_bills')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'N')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await t.database.db.updateTable('fee_bills').set({ status: 'E' }).where('id', '=', bill.id).execute();
    expect(await waitForTotal(overdue, before - 1)).toBe(before - 1);
  });

  it('counts a keyword search every time: it reads rooms and members too', async () => {
    const member = await t.database.db
      .selectFrom('members')
      .select(['id', 'realname'])
      .where('rid', '=', 1)
      .where('realname', '=', '陈建国')
      .executeTakeFirstOrThrow();
    const byName = async () => (await t.call('feebilllist', { keyword: '陈建国' }, admin)).data.total as number;
    const before = await byName();
    expect(before).toBeGreaterThan(0);
    await t.database.db.updateTable('members').set({ realname: '陈建华' }).where('id', '=', member.id).execute();
    try {
      expect(await byName()).toBe(0);
    } finally {
      await t.database.db.updateTable('members').set({ realname: member.realname }).where('id', '=', member.id).execute();
    }
  });

  it('in another process, hears bills paid here', async () => {
    const other: App = await buildApp(t.config, t.database, { logger: false });
    await other.fastify.ready();
    try {
      await waitUntilListening(other);
      const otherOverdue = async () =>
        (
          await other.fastify.inject({
            method: 'POST',
            url: '/webapi',
            headers: { 'x-token': admin },
            payload: { method: 'feebilllist', status: 'N' },
          })
        ).json().data.total as number;
      const before = await otherOverdue();
      const bill = await t.database.db
        .selectFrom('fee_bills')
        .select(['id', 'hid'])
        .where('rid', '=', 1)
        .where('status', '=', 'N')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const owed = (await t.call('cashierbills', { hid: bill.hid }, cashier)).data.items.find((b: { id: number }) => b.id === bill.id);
      await t.call(
        'cashierpay',
        {
          hid: bill.hid,
          bill_ids: [bill.id],
          pay_type: 'cash',
          paid_amount: owed.total,
          idempotency_key: `count-other-${Date.now()}`,
        },
        cashier,
      );
      expect(await waitForTotal(otherOverdue, before - 1)).toBe(before - 1);
    } finally {
      await other.fastify.close();
    }
  });
});

/** The bill-total cache turns on once the process listens for changes. */
async function waitUntilListening(app: App): Promise<void> {
  const cache = app.services.billCounts;
  for (let i = 0; i < 100; i++) {
    let calls = 0;
    const count = async () => {
      calls++;
      return 0;
    };
    await cache.total('probe', count);
    await cache.total('probe', count);
    cache.clear();
    if (calls === 1) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the bill-total cache never turned on');
}
