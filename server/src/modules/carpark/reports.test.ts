import { RC, addDays } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today, wireTime } from '../../lib/wire.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { parseWire } from './tempFee.js';

let s: TestServer;
let admin: string;
let admin2: string;
let parker: string;
let finance: string;
let steward: string;
let lot: number;
let lot2: number;
let otherLot: number;
let merchant: number;

const db = () => s.database.db;
const at = (t: string) => parseWire(t);
let seq = 0;

/** A stay at a lot: open when `out` is absent. */
async function stay(lotId: number, plate: string, inTime: string, out?: string, carType = '临时车') {
  const row = await db()
    .insertInto('parking_records')
    .values({
      rid: 1,
      lot_id: lotId,
      carno: plate,
      intime: at(inTime),
      outtime: out ? at(out) : null,
      state: out ? 'O' : 'I',
      car_type: carType,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A receipt that pays a stay (临时停车费), as the booth writes one. */
async function pay(stayId: number, amount: string, time: string, status: 'Y' | 'V' = 'Y') {
  seq += 1;
  const p = await db()
    .insertInto('fee_payments')
    .values({
      rid: 1,
      receipt_no: `RPT${seq}`,
      stay_id: stayId,
      payer_name: 'x',
      receivable: amount,
      due: amount,
      paid_amount: amount,
      pay_type: 'cash',
      cashier_name: '报表测试',
      idempotency_key: `report-test-${seq}`,
      status,
      created_at: at(time),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db()
    .insertInto('fee_payment_items')
    .values({
      rid: 1,
      payment_id: p.id,
      bill_id: null,
      cost_type: 'temp_parking',
      title: '临时停车费',
      period: time.slice(0, 7),
      fee: amount,
    })
    .execute();
}

async function renewal(lotId: number, amount: string, time: string) {
  await db()
    .insertInto('parking_renewals')
    .values({
      rid: 1,
      car_id: 1,
      carlicense: '沪Z00001',
      lot_id: lotId,
      months: 1,
      amount,
      new_end: '2027-01-01',
      source: 'D',
      created_at: at(time),
    })
    .execute();
}

async function couponOrder(couponId: number, quantity: number, price: string, time: string) {
  seq += 1;
  await db()
    .insertInto('parking_coupon_orders')
    .values({
      rid: 1,
      orderid: `RPTC${seq}`,
      merchant_id: merchant,
      coupon_id: couponId,
      quantity,
      price,
      amount: (Number(price) * quantity).toFixed(2),
      pay_type: 'cash',
      created_at: at(time),
    })
    .execute();
}

beforeAll(async () => {
  s = await startTestServer();
  await s.addAccount('rparker', { roles: ['carpark'], regions: [1], name: '报表停车员' });
  await s.addAccount('rfinance', { roles: ['financecount'], regions: [1], name: '报表财务' });
  await s.addAccount('rsteward', { roles: ['steward'], regions: [1], name: '报表管家' });
  [admin, admin2, parker, finance, steward] = await s.logins('admin', 'admin2', 'rparker', 'rfinance', 'rsteward');
  const lots = await db()
    .insertInto('parking_lots')
    .values([
      { rid: 1, title: '报表测试一', total_spaces: 10 },
      { rid: 1, title: '报表测试二' },
    ])
    .returning('id')
    .execute();
  [lot, lot2] = lots.map((l) => Number(l.id)) as [number, number];
  otherLot = Number((await db().selectFrom('parking_lots').select('id').where('rid', '=', 2).executeTakeFirstOrThrow()).id);
  merchant = Number((await db().selectFrom('merchants').select('id').where('rid', '=', 1).executeTakeFirstOrThrow()).id);
});
afterAll(() => s?.close());

describe('parkingincome', () => {
  const RANGE = { start_date: '2026-10-01', end_date: '2026-10-31' };

  it('sums temporary receipts, renewals and coupons sold per day and lot, with the totals', async () => {
    const a = await stay(lot, '沪R10001', '2026-10-05 08:00:00', '2026-10-05 10:10:00');
    const b = await stay(lot, '沪R10002', '2026-10-05 09:00:00', '2026-10-05 09:50:00');
    const c = await stay(lot2, '沪R10003', '2026-10-06 23:30:00', '2026-10-07 00:40:00');
    const d = await stay(lot, '沪R10004', '2026-10-06 12:00:00', '2026-10-06 13:00:00');
    await pay(a, '8.50', '2026-10-05 10:08:00');
    await pay(b, '0.35', '2026-10-05 09:48:00');
    // paid the next day: counted on the day of the receipt
    await pay(c, '6.00', '2026-10-07 00:38:00');
    // a voided receipt took no money
    await pay(d, '5.00', '2026-10-06 12:58:00', 'V');
    // outside the range
    await pay(await stay(lot, '沪R10005', '2026-11-01 08:00:00', '2026-11-01 09:00:00'), '3.00', '2026-11-01 08:58:00');
    await renewal(lot, '300.00', '2026-10-05 15:00:00');
    await renewal(lot2, '0.10', '2026-10-07 15:00:00');
    const coupon = Number(
      (
        await db()
          .insertInto('parking_coupons')
          .values({ rid: 1, lot_id: lot, title: '报表测试劵', kind: 'amount', amount: '5', price: '1.10' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await couponOrder(coupon, 3, '1.10', '2026-10-05 11:00:00');

    const r = ok(await s.call('parkingincome', { ...RANGE, lot_id: '' }, parker));
    const mine = r.items.filter((i: { lot_id: number }) => i.lot_id === lot || i.lot_id === lot2);
    expect(mine).toEqual([
      {
        key: `2026-10-07|${lot2}`,
        day: '2026-10-07',
        lot_id: lot2,
        lot_title: '报表测试二',
        temp_count: 1,
        temp_amount: '6.00',
        renew_count: 1,
        renew_amount: '0.10',
        coupon_orders: 0,
        coupon_quantity: 0,
        coupon_amount: '0.00',
        total: '6.10',
      },
      {
        key: `2026-10-05|${lot}`,
        day: '2026-10-05',
        lot_id: lot,
        lot_title: '报表测试一',
        temp_count: 2,
        temp_amount: '8.85',
        renew_count: 1,
        renew_amount: '300.00',
        coupon_orders: 1,
        coupon_quantity: 3,
        coupon_amount: '3.30',
        total: '312.15',
      },
    ]);
    // the totals add up every row of the range, to the fen
    const fen = (k: string) => r.items.reduce((n: number, i: Record<string, string>) => n + Math.round(Number(i[k]) * 100), 0);
    expect(Math.round(Number(r.totals.total) * 100)).toBe(fen('total'));
    expect(r.totals).toMatchObject({ day: '', lot_title: '合计' });

    // one lot, and the finance role reads it too
    const one = ok(await s.call('parkingincome', { ...RANGE, lot_id: lot }, finance));
    expect(one.items.map((i: { day: string }) => i.day)).toEqual(['2026-10-05']);
    expect(one.totals).toMatchObject({
      temp_count: 2,
      temp_amount: '8.85',
      renew_amount: '300.00',
      coupon_amount: '3.30',
      total: '312.15',
    });
    // the day after, alone
    const day = ok(await s.call('parkingincome', { start_date: '2026-10-07', end_date: '2026-10-07', lot_id: lot2 }, admin));
    expect(day.totals.total).toBe('6.10');
  });

  it('defaults to this month up to today', async () => {
    const r = ok(await s.call('parkingincome', {}, parker));
    expect(r.start_date).toBe(`${today().slice(0, 8)}01`);
    expect(r.end_date).toBe(today());
  });

  it('refuses a bad range, another community lot and those without the roles', async () => {
    refused(await s.call('parkingincome', { start_date: '2026-10-01' }, parker), '请同时选择开始和结束日期');
    refused(await s.call('parkingincome', { start_date: '2026-10-05', end_date: '2026-10-01' }, parker), '结束日期不能早于开始日期');
    refused(await s.call('parkingincome', { start_date: '2025-01-01', end_date: '2026-01-02' }, parker), '统计区间不能超过一年');
    refused(await s.call('parkingincome', { start_date: '2026-02-30', end_date: '2026-03-01' }, parker), '日期不存在');
    refused(await s.call('parkingincome', { start_date: '2026/02/01', end_date: '2026-03-01' }, parker), 'YYYY-MM-DD');
    refused(await s.call('parkingincome', { ...RANGE, lot_id: otherLot }, parker), '停车场不存在');
    refused(await s.call('parkingincome', { ...RANGE, lot_id: lot }, admin2), '停车场不存在');
    refused(await s.call('parkingincomeexport', { ...RANGE, lot_id: otherLot }, parker), '停车场不存在');
    expect((await s.call('parkingincome', RANGE, steward)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('parkingincomeexport', RANGE, steward)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('exports the rows and the totals', async () => {
    const file = await s.exportFile('parkingincomeexport', { start_date: '2026-10-05', end_date: '2026-10-07', lot_id: lot }, parker);
    const sheet = await readXlsx(ok(file).content_base64);
    expect(sheet.headers.slice(0, 4)).toEqual(['日期', '停车场', '临时车笔数', '临时车收费（元）']);
    expect(sheet.rows.map(({ values: r }) => [r['日期'], r['停车场'], r['临时车收费（元）'], r['合计（元）']])).toEqual([
      ['2026-10-05', '报表测试一', '8.85', '312.15'],
      ['合计', '', '8.85', '312.15'],
    ]);
  });
});

describe('parkingoccupancy', () => {
  it('counts the cars inside each lot against its spaces, and the monthly cars ending soon as moncarlist lists them', async () => {
    await stay(lot, '沪R20001', '2026-11-01 08:00:00');
    await stay(lot, '沪R20002', '2026-11-01 09:00:00', undefined, '月租车');
    await db()
      .insertInto('parking_records')
      .values({ rid: 1, lot_id: lot, carno: '沪R20003', intime: at('2026-11-01 09:00:00'), state: 'P', car_type: '临时车' })
      .execute();
    await db()
      .insertInto('parking_spaces')
      .values([
        { rid: 1, lot_id: lot2, title: 'R-1', status: 'idle' },
        { rid: 1, lot_id: lot2, title: 'R-2', status: 'sold' },
      ])
      .execute();
    const r = ok(await s.call('parkingoccupancy', {}, parker));
    const one = r.items.find((i: { lot_id: number }) => i.lot_id === lot);
    expect(one).toMatchObject({ total_spaces: 10, inside: 3, inside_temp: 2, inside_registered: 1, free: 7, rate: '30.0' });
    // a lot without its total set counts its spaces
    expect(r.items.find((i: { lot_id: number }) => i.lot_id === lot2)).toMatchObject({
      total_spaces: 2,
      inside: 0,
      spaces_idle: 1,
      spaces_sold: 1,
      rate: '0.0',
    });
    const inside = await db()
      .selectFrom('parking_records')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('state', '<>', 'O')
      .executeTakeFirstOrThrow();
    expect(r.totals.inside).toBe(inside.n);
    // the demo's underground lot: its monthly cars by moncarlist's filters
    const demo = r.items[0];
    for (const [field, filter] of [
      ['expiring_7', { expiring: 7 }],
      ['expiring_30', { expiring: 30 }],
      ['expired', { expired: 'Y' }],
    ] as const) {
      const listed = ok(await s.call('moncarlist', { lot_id: demo.lot_id, ...filter }, parker)).total;
      expect(demo[field], field).toBe(listed);
    }
    expect(demo.expiring_7 + demo.expired).toBeGreaterThan(0);
    expect(ok(await s.call('parkingoccupancy', { lot_id: lot }, parker)).items).toHaveLength(1);
  });

  it('refuses another community lot and those without the roles', async () => {
    refused(await s.call('parkingoccupancy', { lot_id: otherLot }, parker), '停车场不存在');
    refused(await s.call('parkingoccupancy', { lot_id: 'x' }, parker), 'lot_id');
    expect((await s.call('parkingoccupancy', {}, steward)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('parkingoccupancy', {}, finance)).return_code).toBe(RC.NO_PERMISSION);
    // the other community sees its own lots only
    const other = ok(await s.call('parkingoccupancy', {}, admin2)).items.map((i: { lot_id: number }) => i.lot_id);
    expect(other).toContain(otherLot);
    expect(other).not.toContain(lot);
  });
});

describe('parkinghourly', () => {
  it('counts the cars inside at each hour of a day, and the entries and exits within each hour', async () => {
    const D = '2026-09-10';
    const hourly = async () => ok(await s.call('parkinghourly', { day: D, lot_id: lot }, parker));
    await stay(lot, '沪R30001', `2026-09-09 22:00:00`, `${D} 09:10:00`);
    await stay(lot, '沪R30002', `${D} 08:30:00`, `${D} 10:15:00`);
    // inside since: counted every hour after its entry
    await stay(lot, '沪R30003', `${D} 11:05:00`);
    // before the day, and after it: not counted
    await stay(lot, '沪R30004', '2026-09-09 08:00:00', '2026-09-09 09:00:00');
    await stay(lot, '沪R30005', '2026-09-11 08:00:00', '2026-09-11 09:00:00');
    // another lot's
    await stay(lot2, '沪R30006', `${D} 08:30:00`, `${D} 10:15:00`);
    const r = await hourly();
    expect(r.items).toHaveLength(24);
    const inside = r.items.map((h: { inside: number }) => h.inside);
    expect(inside.slice(0, 13)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 0, 1]);
    expect(inside[23]).toBe(1);
    expect(r.items[8]).toEqual({ hour: 8, label: '08:00', inside: 1, entries: 1, exits: 0 });
    expect(r.items[9]).toMatchObject({ entries: 0, exits: 1 });
    expect(r.items[10]).toMatchObject({ entries: 0, exits: 1 });
    expect(r.items[11]).toMatchObject({ entries: 1, exits: 0 });
    expect(r).toMatchObject({ day: D, lot_id: lot, peak: 2, peak_hour: '09:00', entries: 2, exits: 2 });
    // every lot of the community
    const all = ok(await s.call('parkinghourly', { day: D }, parker));
    expect(all.items[9].inside).toBeGreaterThanOrEqual(3);
  });

  it('answers today up to the current hour, and no hours for a later day', async () => {
    const r = ok(await s.call('parkinghourly', {}, parker));
    expect(r.day).toBe(today());
    expect(r.items).toHaveLength(Number(wireTime(new Date()).slice(11, 13)) + 1);
    expect(ok(await s.call('parkinghourly', { day: addDays(today(), 1) }, parker)).items).toEqual([]);
  });

  it('refuses a bad day, another community lot and those without the roles', async () => {
    refused(await s.call('parkinghourly', { day: '2026-13-01' }, parker), '日期不存在');
    refused(await s.call('parkinghourly', { day: '2026-09-10', lot_id: otherLot }, parker), '停车场不存在');
    expect((await s.call('parkinghourly', {}, steward)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('parkingdashboard', () => {
  it("answers the cars inside now and today's parking income, which a payment today raises", async () => {
    const before = ok(await s.call('parkingdashboard', {}, parker));
    const otherBefore = ok(await s.call('parkingdashboard', {}, admin2));
    const income = ok(await s.call('parkingincome', { start_date: today(), end_date: today() }, parker)).totals;
    expect(before).toMatchObject({
      day: today(),
      temp_amount: income.temp_amount,
      renew_amount: income.renew_amount,
      coupon_amount: income.coupon_amount,
      total: income.total,
    });
    const now = wireTime(new Date());
    const id = await stay(lot2, '沪R40001', wireTime(new Date(Date.now() - 3600_000)));
    await pay(id, '12.34', now);
    const after = ok(await s.call('parkingdashboard', {}, admin));
    expect(after.inside).toBe(before.inside + 1);
    expect(Math.round(Number(after.temp_amount) * 100) - Math.round(Number(before.temp_amount) * 100)).toBe(1234);
    expect(Math.round(Number(after.total) * 100) - Math.round(Number(before.total) * 100)).toBe(1234);
    expect((await s.call('parkingdashboard', {}, steward)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('parkingdashboard', {}, finance)).return_code).toBe(RC.NO_PERMISSION);
    // the other community's card is its own: this community's car and payment leave it as it was
    expect(ok(await s.call('parkingdashboard', {}, admin2))).toMatchObject({
      inside: otherBefore.inside,
      temp_amount: otherBefore.temp_amount,
      total: otherBefore.total,
    });
  });
});

describe('the demo stays', () => {
  it('are priced and paid exactly: every paid temporary stay has one receipt of its fee, numbered, by the parking cashier', async () => {
    const { rows } = await sql<{
      id: number;
      pay_fee: string;
      paid: string | null;
      n: number;
      cashier: string | null;
      item: string | null;
    }>`
      SELECT s.id, s.pay_fee::text, sum(p.paid_amount)::text AS paid, count(p.id)::int AS n, max(p.cashier_name) AS cashier,
        max(i.cost_type || '|' || i.title || '|' || i.fee::text) AS item
      FROM parking_records s
      LEFT JOIN fee_payments p ON p.rid = s.rid AND p.stay_id = s.id
      LEFT JOIN fee_payment_items i ON i.rid = p.rid AND i.payment_id = p.id
      WHERE s.rid = 1 AND s.car_type = '临时车' AND s.pay_fee > 0 AND s.carno NOT LIKE '沪R%'
      GROUP BY s.id, s.pay_fee`.execute(db());
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) {
      expect(r.n).toBe(1);
      expect(r.paid).toBe(r.pay_fee);
      expect(r.cashier).toBe('吴停车');
      expect(r.item).toBe(`temp_parking|临时停车费|${r.pay_fee}`);
    }
    // the breakdown kept on each stay is the pricing of its standard's version at entry
    const priced = await db()
      .selectFrom('parking_records')
      .select(['id', 'breakdown', 'version_id', sql<string>`pay_fee::text`.as('pay_fee')])
      .where('rid', '=', 1)
      .where('car_type', '=', '临时车')
      .where('state', '=', 'O')
      .where('exit_reason', '=', 'paid')
      .limit(30)
      .execute();
    for (const p of priced) {
      const b = p.breakdown as { paid: string; due: string; version_id: number };
      expect(b.paid).toBe(p.pay_fee);
      expect(b.due).toBe('0.00');
      expect(b.version_id).toBe(Number(p.version_id));
    }
    // the coupons used name their stays
    const used = await db()
      .selectFrom('parking_coupon_given')
      .select(['used_ref', 'used_amount'])
      .where('rid', '=', 1)
      .where('state', '=', 'U')
      .execute();
    expect(used.length).toBeGreaterThan(0);
    for (const u of used) expect(u.used_ref).toMatch(/^stay:\d+$/);
    // cars inside, manual openings and refused decisions
    const events = await sql<{ decision: string; reason: string; n: number }>`
      SELECT decision, reason, count(*)::int AS n FROM parking_gate_events WHERE rid = 1 GROUP BY 1, 2`.execute(db());
    const count = (decision: string, reason: string) => events.rows.find((e) => e.decision === decision && e.reason === reason)?.n ?? 0;
    expect(count('open', 'manual')).toBeGreaterThan(0);
    expect(count('refuse', 'black')).toBeGreaterThan(0);
    expect(count('pay', 'unpaid')).toBeGreaterThan(0);
    expect(count('open', 'monthly')).toBeGreaterThan(0);
  });
});
