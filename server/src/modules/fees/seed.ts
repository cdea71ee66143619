import {
  addMonths,
  COST_TYPE_CH,
  COST_TYPES,
  fenToYuan,
  PAY_TYPE_CH,
  toFen,
  type ImportRowError,
  type PayTypeName,
  type ShiftMethodRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { DEMO_MOBILE } from '../owners/seed.js';
import { writeXlsx } from '../../lib/xlsxWriter.js';
import { BILL_IMPORT } from './feeimport.js';
import { insertBills } from './generate.js';
import { seedPaydataDiscounts } from './paydataSeed.js';

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
    await generateBatch(db, rid, period, itemId);
  }
  await payBills(db, rid, lastMonth, sql`b.item_id = ${water} AND b.hid % 2 = 0`, cashier);
  await sql`UPDATE fee_bills SET status = 'N' WHERE rid = ${rid} AND status = 'E' AND due_date < current_date`.execute(db);
}

/**
 * Bindings at the scopes the demo has none of yet, so 收费对象 (/fees/feethinglist) shows every way an
 * item reaches a thing: 公共能耗分摊 for the whole community, 装修垃圾清运费 for one renovating room
 * of 2号楼, 充电车位服务费 for the space of the demo owner's electric car and 车辆管理费 for his
 * petrol car. No bills: they wait for a generation.
 */
async function seedMoreBindings(db: Kysely<DB>, rid: number): Promise<void> {
  const item = async (cost_type: string, title: string, unit_price: string, remark: string) =>
    (
      await db
        .insertInto('fee_items')
        .values({ rid, cost_type, title, pricing: 'fixed', unit_price, due_day: 28, remark })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const shared = await item('other', '公共能耗分摊', '15.0000', '公共区域水电分摊，每户每月 15 元');
  const rubbish = await item('other', '装修垃圾清运费', '200.0000', '装修期间每月 200 元');
  const charging = await item('parking', '充电车位服务费', '80.0000', '充电车位每月 80 元');
  const carFee = await item('parking', '车辆管理费', '10.0000', '每辆车每月 10 元');
  const renovating = await db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .select('r.id')
    .where('r.rid', '=', rid)
    .where('b.title', '=', '2号楼')
    .where('r.state', '=', 'renovating')
    .orderBy('r.id')
    .executeTakeFirstOrThrow();
  const space = await db
    .selectFrom('parking_spaces')
    .select('id')
    .where('rid', '=', rid)
    .where('carlicense', '=', '沪AD12345')
    .executeTakeFirstOrThrow();
  const car = await db
    .selectFrom('cars')
    .select('id')
    .where('rid', '=', rid)
    .where('carlicense', '=', '沪A12345')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('fee_bindings')
    .values([
      { rid, item_id: shared, scope: 'region', ref_id: 0, created_by: '系统' },
      { rid, item_id: rubbish, scope: 'room', ref_id: renovating.id, created_by: '系统' },
      { rid, item_id: charging, scope: 'space', ref_id: space.id, created_by: '系统' },
      { rid, item_id: carFee, scope: 'car', ref_id: car.id, created_by: '系统' },
    ])
    .execute();
}

/**
 * A finished generation batch of one item for a period, of every bound room or of `hids` only, as
 * 账单生成 makes one; answers the bills' ids.
 */
export async function generateBatch(db: Kysely<DB>, rid: number, period: string, itemId: number, hids?: number[]): Promise<number[]> {
  const batch = await db
    .insertInto('fee_batches')
    .values({ rid, period, item_ids: [itemId], status: 'done', created_by: '系统', filters: JSON.stringify({ hids }) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = await insertBills(db, rid, { period, item_ids: [itemId], hids }, batch.id);
  await sql`UPDATE fee_batches fb SET bill_count = s.n, total_fee = s.total
    FROM (SELECT count(*)::int n, coalesce(sum(fee), 0) total FROM fee_bills WHERE rid = ${rid} AND batch_id = ${batch.id}) s
    WHERE fb.rid = ${rid} AND fb.id = ${batch.id}`.execute(db);
  return ids;
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
    await generateBatch(db, rid, period, itemId);
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

/**
 * Arrears from before the console (期初欠费), as a company brings them in through 历史账单导入: for
 * rooms outside 1号楼 and 2号楼 (whose rooms the demo's walks pay) unpaid property bills of 13
 * months ago (one room in twenty), 8 (two in twenty) and 5 (three), so 物业费欠费统计 has a figure
 * in every age column;
 * with the import that brought them in (its file kept) and one upload turned away by its checks.
 */
async function seedHistoricalArrears(db: Kysely<DB>, rid: number, itemId: number): Promise<void> {
  const thisMonth = today().slice(0, 7);
  const first = addMonths(`${thisMonth}-01`, -2).slice(0, 7);
  // the older the arrears, the fewer the rooms that still owe them
  const ages: Array<[months: number, rests: number[]]> = [
    [-13, [7]],
    [-8, [7, 13]],
    [-5, [7, 13, 17]],
  ];
  const admin = await db.selectFrom('accounts').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  const rows: Array<{ id: number; building: string; unit: string; room: string; title: string; period: string; fee: string; due: string }> =
    [];
  for (const [months, rests] of ages) {
    const period = addMonths(`${thisMonth}-01`, months).slice(0, 7);
    const added = await sql<{
      id: number;
      building: string;
      unit: string;
      room: string;
      title: string;
      period: string;
      fee: string;
      due: string;
    }>`
      INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, daterange, measure, unit_price, fee, status, source, due_date)
      SELECT b.rid, b.hid, b.bid, b.tid, b.item_id, b.cost_type, b.title, ${period}::text,
        ${period}::text || '-01 ~ ' || to_char(${`${period}-01`}::date + interval '1 month' - interval '1 day', 'YYYY-MM-DD'),
        b.measure, b.unit_price, b.fee, 'N', 'import', ${`${period}-01`}::date + (b.due_date - ${`${first}-01`}::date)
      FROM fee_bills b JOIN buildings g ON g.rid = b.rid AND g.id = b.bid
      WHERE b.rid = ${rid} AND b.item_id = ${itemId} AND b.period = ${first} AND b.hid % 20 = ANY(${rests}::int[]) AND g.title !~ '^[12]号楼'
      ORDER BY b.hid
      RETURNING id, (SELECT title FROM buildings WHERE rid = fee_bills.rid AND id = fee_bills.bid) AS building,
        (SELECT title FROM units WHERE rid = fee_bills.rid AND id = fee_bills.tid) AS unit,
        (SELECT title FROM rooms WHERE rid = fee_bills.rid AND id = fee_bills.hid) AS room,
        title, period, fee::text, to_char(due_date, 'YYYY-MM-DD') AS due`.execute(db);
    rows.push(...added.rows);
  }
  const headers = ['楼栋', '单元', '房号', '收费项目', '账期', '金额', '状态', '应缴日期'];
  const file = await writeXlsx(
    '账单',
    headers,
    headers.map(() => 14),
    rows.map((r) => [r.building, r.unit, r.room, r.title, r.period, r.fee, '已逾期', r.due]),
  );
  // an import of that file as the job that ran it left it, `daysAgo` days ago
  const importJob = async (filename: string, daysAgo: number, result: { imported: number; errors: ImportRowError[] }) => {
    const at = sql<Date>`now() - make_interval(days => ${daysAgo})`;
    const job = await db
      .insertInto('jobs')
      .values({
        rid,
        kind: BILL_IMPORT,
        status: 'done',
        payload: JSON.stringify({}),
        result: JSON.stringify(result),
        total: rows.length,
        progress: rows.length,
        created_by: admin.id,
        created_at: at,
        started_at: at,
        finished_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('import_files').values({ rid, job_id: job.id, filename, content: file }).execute();
  };
  // the first try, turned away by its checks; then the file that went in
  await importJob('期初欠费（初稿）.xlsx', 21, {
    imported: 0,
    errors: [
      { row: 4, column: '房号', reason: '房屋不存在：3号楼1单元1901' },
      { row: 9, column: '账期', reason: '账期格式不正确，应为 YYYY-MM' },
    ],
  });
  await importJob('期初欠费.xlsx', 20, { imported: rows.length, errors: [] });
}

/**
 * Two discount requests over the cap for 优惠审批 (docs/product.md, fees): one waiting for a
 * manager, one that 郑会计 turned down; on the last rooms of 2号楼, which the walks of the demo
 * leave alone (they pay 2号楼1单元801 and find owners outside 1号楼 and 2号楼).
 */
async function seedDiscountRequests(db: Kysely<DB>, rid: number): Promise<void> {
  const cashier = await cashierAccount(db);
  if (!cashier) return;
  const rooms = await db
    .selectFrom('fee_bills as b')
    .innerJoin('rooms as h', (j) => j.onRef('h.rid', '=', 'b.rid').onRef('h.id', '=', 'b.hid'))
    .innerJoin('buildings as g', (j) => j.onRef('g.rid', '=', 'h.rid').onRef('g.id', '=', 'h.bid'))
    .select(['b.hid', sql<string[]>`array_agg(b.id::text ORDER BY b.period, b.id)`.as('bills'), sql<string>`sum(b.fee)::text`.as('fee')])
    .where('b.rid', '=', rid)
    .where('g.title', '=', '2号楼')
    .where('b.status', 'in', ['N', 'E'])
    .groupBy('b.hid')
    .having(sql<boolean>`count(*) >= 2`)
    .orderBy('b.hid', 'desc')
    .limit(2)
    .execute();
  const asks = [
    { status: 'E' as const, reason: '业主家中老人住院，申请减免两个月物业费的一半', share: 50n },
    { status: 'N' as const, reason: '业主反映电梯维修期间停运一个月，申请减免', share: 30n },
  ];
  for (const [i, room] of rooms.entries()) {
    const ask = asks[i]!;
    const fee = toFen(room.fee);
    const amount = fenToYuan((fee * ask.share) / 100n);
    const row = await db
      .insertInto('fee_discount_requests')
      .values({
        rid,
        hid: room.hid,
        bill_ids: room.bills.map(Number),
        receivable: room.fee,
        amount,
        reason: ask.reason,
        status: ask.status,
        applicant: cashier.name,
        created_by: cashier.id,
        ...(ask.status === 'N'
          ? { approver: '郑会计', approve_remark: '电梯停运已按公告另行补偿，不再减免', approved_at: sql<Date>`now()` }
          : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = { rid, flow: 'discount', row_id: row.id, created_by: cashier.id };
    await db
      .insertInto('workflow_logs')
      .values({
        ...log,
        transition: 'create',
        from_state: '',
        to_state: 'E',
        input: JSON.stringify({ reason: ask.reason, amount }),
        operator: cashier.name,
      })
      .execute();
    if (ask.status === 'N')
      await db
        .insertInto('workflow_logs')
        .values({
          ...log,
          transition: 'reject',
          from_state: 'E',
          to_state: 'N',
          input: JSON.stringify({ remark: '电梯停运已按公告另行补偿，不再减免' }),
          operator: '郑会计',
        })
        .execute();
  }
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

/**
 * The cashier's last receipt voided (作废) a few minutes after it was made, its bills unpaid again,
 * and a hand-over (交班) at 18:00 on each of the three days before today, so 收费记录 shows an
 * 已作废 and 交班 a history, with today's receipts the current shift.
 */
async function seedVoidAndShifts(db: Kysely<DB>, rid: number): Promise<void> {
  const cashier = await cashierAccount(db);
  if (!cashier) return;
  const last = await db
    .selectFrom('fee_payments')
    .select(['id', 'created_at'])
    .where('rid', '=', rid)
    .where('cashier_id', '=', cashier.id)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last) {
    await sql`UPDATE fee_bills SET status = CASE WHEN due_date < current_date THEN 'N' ELSE 'E' END, paid_at = NULL, payment_id = NULL, late_fee = 0
      WHERE rid = ${rid} AND payment_id = ${last.id}`.execute(db);
    await sql`UPDATE fee_payments SET status = 'V', void_reason = '收错房屋，已退还现金', voided_by = ${cashier.id},
      voided_by_name = ${cashier.name}, voided_at = created_at + interval '5 minutes' WHERE rid = ${rid} AND id = ${last.id}`.execute(db);
  }
  let from: Date | null = null;
  for (const k of [3, 2, 1]) {
    const end = (await sql<{ at: Date }>`SELECT ((current_date - ${k}::int) + time '18:00')::timestamptz AS at`.execute(db)).rows[0]!.at;
    const window = from ? sql`p.created_at > ${from} AND p.created_at <= ${end}` : sql`p.created_at <= ${end}`;
    const rows = (
      await sql<{ pay_type: PayTypeName; count: number; amount: string; balance_used: string; first: Date }>`
      SELECT pay_type, count(*)::int AS count, sum(paid_amount)::numeric(14,2)::text AS amount,
        sum(balance_used)::numeric(14,2)::text AS balance_used, min(created_at) AS first
      FROM fee_payments p WHERE p.rid = ${rid} AND p.cashier_id = ${cashier.id} AND p.status <> 'V' AND ${window}
      GROUP BY pay_type ORDER BY pay_type`.execute(db)
    ).rows;
    if (rows.length) {
      const methods: ShiftMethodRow[] = rows.map((m) => ({
        pay_type: m.pay_type,
        pay_type_ch: PAY_TYPE_CH[m.pay_type],
        count: m.count,
        amount: m.amount,
        balance_used: m.balance_used,
      }));
      const sum = (f: (m: ShiftMethodRow) => string) => fenToYuan(methods.reduce((t, m) => t + toFen(f(m)), 0n));
      await db
        .insertInto('cashier_shifts')
        .values({
          rid,
          cashier_id: cashier.id,
          cashier_name: cashier.name,
          started_at: from ?? new Date(Math.min(...rows.map((m) => m.first.getTime()))),
          ended_at: end,
          by_method: JSON.stringify(methods),
          receipts: methods.reduce((n, m) => n + m.count, 0),
          receipts_amount: sum((m) => m.amount),
          balance_used: sum((m) => m.balance_used),
          remark: '现金已交财务',
          idempotency_key: `seed-shift-${rid}-${k}`,
          created_at: end,
          created_by: cashier.id,
        })
        .execute();
    }
    from = end;
  }
}

/** Demo data of the fees area: cost types, items, bindings, three months of bills, parking bills and water readings in 阳光花园. */
export async function seedFees(db: Kysely<DB>): Promise<void> {
  for (const rid of [1, 2, 3]) await insertDefaultCostTypes(db, rid);
  const property1 = await seedItems(db, 1);
  await seedItems(db, 2);
  await seedBills(db, 1, property1);
  await seedHistoricalArrears(db, 1, property1);
  await seedParkingAndWater(db, 1, await cashierAccount(db));
  await seedMoreBindings(db, 1);
  await seedDiscountRequests(db, 1);
  await seedVoidAndShifts(db, 1);
  await seedPaydataDiscounts(db, 1);
  // fresh statistics, so the first bill lists and reports are planned with the real row counts
  // (without them a count of overdue bills looped over the rooms once per bill: 33 ms for 600 bills)
  await sql`ANALYZE rooms, units, buildings, fee_items, fee_bills, fee_payments, fee_payment_items`.execute(db);
}
