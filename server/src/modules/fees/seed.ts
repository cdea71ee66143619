import { addMonths, COST_TYPE_CH, COST_TYPES } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { DEMO_MOBILE } from '../owners/seed.js';
import { insertBills } from './generate.js';

/** The built-in cost types of a community (configurable afterwards). */
export async function insertDefaultCostTypes(db: Kysely<DB>, rid: number): Promise<void> {
  await db
    .insertInto('fee_cost_types')
    .values(COST_TYPES.map((cost_type, i) => ({ rid, cost_type, title: COST_TYPE_CH[cost_type]!, sort: i + 1 })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

async function seedItems(db: Kysely<DB>, rid: number): Promise<number> {
  const rows = await db
    .insertInto('fee_items')
    .values([
      {
        rid,
        cost_type: 'property',
        title: '物业服务费',
        pricing: 'area_built',
        unit_price: '2.5000',
        due_day: 28,
        late_fee_rule: 'daily',
        late_fee_rate: '0.5000',
        late_fee_grace_days: 0,
        late_fee_cap_percent: 100,
        remark: '按建筑面积每月每平方米 2.50 元',
      },
      {
        rid,
        cost_type: 'parking',
        title: '地下车位管理费',
        pricing: 'fixed',
        unit_price: '300.0000',
        due_day: 28,
        remark: '每个车位每月 300 元',
      },
      {
        rid,
        cost_type: 'water',
        title: '生活用水',
        pricing: 'meter',
        unit_price: '4.2000',
        default_quantity: '12.00',
        due_day: 20,
        remark: '按水表读数，每吨 4.20 元',
      },
    ])
    .returning(['id', 'cost_type'])
    .execute();
  const property = rows.find((r) => r.cost_type === 'property')!.id;
  // the property fee applies to every residence room of the community
  await sql`
    INSERT INTO fee_bindings (rid, item_id, scope, ref_id, created_by)
    SELECT rid, ${property}::bigint, 'category', id, '系统' FROM room_categories WHERE rid = ${rid} AND kind = 'residence'`.execute(db);
  return property;
}

/**
 * Parking and water in 阳光花园: 地下车位管理费 bound to the first parking lot with this month's
 * bills (one per sold/rented space, charged to its room), and 生活用水 bound to 1号楼 with two
 * months of meter readings and last month's water bills priced from them, half of them paid.
 */
async function seedParkingAndWater(db: Kysely<DB>, rid: number, cashier?: { id: number; name: string }): Promise<void> {
  const items = await db
    .selectFrom('fee_items')
    .select(['id', 'cost_type'])
    .where('rid', '=', rid)
    .where('cost_type', 'in', ['parking', 'water'])
    .execute();
  const parking = items.find((i) => i.cost_type === 'parking')!.id;
  const water = items.find((i) => i.cost_type === 'water')!.id;
  const lot = await db.selectFrom('parking_lots').select('id').where('rid', '=', rid).orderBy('id').executeTakeFirstOrThrow();
  const building = await db.selectFrom('buildings').select('id').where('rid', '=', rid).orderBy('id').executeTakeFirstOrThrow();
  await db
    .insertInto('fee_bindings')
    .values([
      { rid, item_id: parking, scope: 'lot', ref_id: lot.id, created_by: '系统' },
      { rid, item_id: water, scope: 'building', ref_id: building.id, created_by: '系统' },
    ])
    .execute();
  const thisMonth = today().slice(0, 7);
  const [twoAgo, lastMonth] = [-2, -1].map((m) => addMonths(`${thisMonth}-01`, m).slice(0, 7)) as [string, string];
  // readings: a start in the month before last, then 8 to 20 tons a month per room
  await sql`
    INSERT INTO fee_meter_readings (rid, hid, item_id, period, last_reading, this_reading, created_by, created_at)
    SELECT r.rid, r.id, ${water}::bigint, p.period, p.base, p.base + 8 + (r.id * 7 + p.n * 3) % 13 + (r.id % 4) * 0.25, '钱管家', p.day
    FROM rooms r
    CROSS JOIN LATERAL (VALUES (1, ${twoAgo}::text, 100 + (r.id % 50) * 3, ${`${twoAgo}-25`}::timestamptz),
      (2, ${lastMonth}::text, 100 + (r.id % 50) * 3 + 8 + (r.id * 7 + 3) % 13 + (r.id % 4) * 0.25, ${`${lastMonth}-25`}::timestamptz)) p(n, period, base, day)
    WHERE r.rid = ${rid} AND r.bid = ${building.id}`.execute(db);
  for (const [period, itemId] of [
    [lastMonth, water],
    [thisMonth, parking],
  ] as const) {
    const batch = await db
      .insertInto('fee_batches')
      .values({ rid, period, item_ids: [itemId], status: 'done', created_by: '系统' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertBills(db, rid, { period, item_ids: [itemId] }, batch.id);
    await sql`UPDATE fee_batches fb SET bill_count = s.n, total_fee = s.total
      FROM (SELECT count(*)::int n, coalesce(sum(fee), 0) total FROM fee_bills WHERE rid = ${rid} AND batch_id = ${batch.id}) s
      WHERE fb.rid = ${rid} AND fb.id = ${batch.id}`.execute(db);
  }
  await payBills(db, rid, lastMonth, sql`b.item_id = ${water} AND b.hid % 2 = 0`, cashier);
  await sql`UPDATE fee_bills SET status = 'N' WHERE rid = ${rid} AND status = 'E' AND due_date < current_date`.execute(db);
}

/**
 * Three months of property-fee bills for 阳光花园: the oldest nine in ten paid (with receipts),
 * last month a third paid and the rest overdue, this month a quarter paid so far and the rest
 * pending. The demo owner's rooms keep this month's bills open for the cashier's walkthrough.
 */
async function seedBills(db: Kysely<DB>, rid: number, itemId: number): Promise<void> {
  const thisMonth = today().slice(0, 7);
  const periods = [-2, -1, 0].map((m) => addMonths(`${thisMonth}-01`, m).slice(0, 7));
  for (const period of periods) {
    const batch = await db
      .insertInto('fee_batches')
      .values({
        rid,
        period,
        item_ids: [itemId],
        status: 'done',
        created_by: '系统',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertBills(db, rid, { period, item_ids: [itemId] }, batch.id);
    await sql`UPDATE fee_batches fb SET bill_count = s.n, total_fee = s.total
      FROM (SELECT count(*)::int n, coalesce(sum(fee), 0) total FROM fee_bills WHERE rid = ${rid} AND batch_id = ${batch.id}) s
      WHERE fb.rid = ${rid} AND fb.id = ${batch.id}`.execute(db);
  }
  const cashier = await cashierAccount(db);
  await payBills(db, rid, periods[0]!, sql`b.hid % 10 <> 0`, cashier);
  await payBills(db, rid, periods[1]!, sql`b.hid % 3 = 0`, cashier);
  await payBills(
    db,
    rid,
    periods[2]!,
    sql`b.hid % 4 = 1 AND b.hid NOT IN (SELECT rm.hid FROM room_members rm
    JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id WHERE rm.rid = ${rid} AND m.mobile = ${DEMO_MOBILE})`,
    cashier,
  );
  await sql`UPDATE fee_bills SET status = 'N' WHERE rid = ${rid} AND status = 'E' AND due_date < current_date`.execute(db);
}

const cashierAccount = (db: Kysely<DB>) =>
  db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'cashier').executeTakeFirst();

/**
 * Pays the chosen bills of a period in full, one receipt per bill, set-based: each some days
 * before its due date, and never later than now (this month's are due after today).
 */
async function payBills(
  db: Kysely<DB>,
  rid: number,
  period: string,
  which: ReturnType<typeof sql>,
  cashier?: { id: number; name: string },
) {
  await sql`
    INSERT INTO fee_payments (rid, receipt_no, hid, bid, tid, member_id, payer_name, receivable, due, paid_amount, pay_type,
      cashier_id, cashier_name, idempotency_key, created_at)
    SELECT b.rid, lpad((coalesce((SELECT last_no FROM fee_receipt_counters WHERE rid = b.rid), 0) + row_number() OVER (ORDER BY b.id))::text, 8, '0'),
      b.hid, b.bid, b.tid, o.member_id, coalesce(o.realname, ''), b.fee, b.fee, b.fee,
      (ARRAY['cash', 'wechat', 'alipay', 'bankcard', 'transfer'])[b.hid % 5 + 1],
      ${cashier?.id ?? null}::int, ${cashier?.name ?? '系统'}::text, 'seed-' || b.id,
      least(b.due_date - 20 + (b.hid % 18) * interval '1 day' + interval '9 hours' + (b.hid % 480) * interval '1 minute',
        now() - (b.hid % 600) * interval '1 minute')
    FROM fee_bills b
    LEFT JOIN LATERAL (SELECT rm.member_id, m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = b.rid AND rm.hid = b.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1) o ON true
    WHERE b.rid = ${rid} AND b.period = ${period} AND b.status <> 'Y' AND ${which}
    ORDER BY b.id`.execute(db);
  await sql`
    INSERT INTO fee_payment_items (rid, payment_id, bill_id, cost_type, title, period, daterange, fee)
    SELECT b.rid, p.id, b.id, b.cost_type, b.title, b.period, b.daterange, b.fee
    FROM fee_payments p JOIN fee_bills b ON b.rid = p.rid AND p.idempotency_key = 'seed-' || b.id
    WHERE p.rid = ${rid} AND b.period = ${period}
      AND NOT EXISTS (SELECT 1 FROM fee_payment_items x WHERE x.rid = p.rid AND x.payment_id = p.id)`.execute(db);
  await sql`
    UPDATE fee_bills b SET status = 'Y', payment_id = p.id, paid_at = p.created_at
    FROM fee_payments p WHERE p.rid = b.rid AND p.idempotency_key = 'seed-' || b.id AND b.rid = ${rid} AND b.period = ${period}`.execute(
    db,
  );
  await sql`
    INSERT INTO fee_receipt_counters (rid, last_no) SELECT ${rid}, count(*) FROM fee_payments WHERE rid = ${rid}
    ON CONFLICT (rid) DO UPDATE SET last_no = excluded.last_no`.execute(db);
}

/** Demo data of the fees area: cost types, items, bindings, three months of bills, parking bills and water readings in 阳光花园. */
export async function seedFees(db: Kysely<DB>): Promise<void> {
  for (const rid of [1, 2, 3]) await insertDefaultCostTypes(db, rid);
  const property1 = await seedItems(db, 1);
  await seedItems(db, 2);
  await seedBills(db, 1, property1);
  await seedParkingAndWater(db, 1, await cashierAccount(db));
  // fresh statistics, so the first bill lists and reports are planned with the real row counts
  // (without them a count of overdue bills looped over the rooms once per bill: 33 ms for 600 bills)
  await sql`ANALYZE rooms, units, buildings, fee_items, fee_bills, fee_payments, fee_payment_items`.execute(db);
}
