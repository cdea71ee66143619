/**
 * Parking reports (docs/product.md#parking-reports): 停车收入报表 (parkingincome and its export), 车位占用
 * (parkingoccupancy, parkinghourly) and the home page's parking card (parkingdashboard, also drawn
 * by the first screen). The income reads the kept totals of 202611300600_parking_reports.sql, so a
 * year is a few hundred rows however many cars came and went.
 */
import {
  PARKING_REPORT_ROLES,
  fenToYuan,
  toFen,
  type ParkingDashboard,
  type ParkingHour,
  type ParkingHourlyAnswer,
  type ParkingIncomeAnswer,
  type ParkingIncomeRow,
  type ParkingOccupancyAnswer,
  type ParkingOccupancyLot,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf, type SheetColumn } from '../../lib/excel.js';
import { dayStart, today, wireTime } from '../../lib/wire.js';

type IncomeInput = { start_date?: string | undefined; end_date?: string | undefined; lot_id?: number | undefined };

/** The range asked, or this month up to today. */
function incomeRange(f: IncomeInput): [string, string] {
  if (f.start_date && f.end_date) return [f.start_date, f.end_date];
  const day = today();
  return [`${day.slice(0, 8)}01`, day];
}

/** The community's lots (a filter's lot must be one of them). */
async function lotsOf(db: Kysely<DB>, rid: number, lotId?: number) {
  let q = db.selectFrom('parking_lots').select(['id', 'title', 'total_spaces']).where('rid', '=', rid);
  if (lotId) q = q.where('id', '=', lotId);
  const lots = await q.orderBy('id').execute();
  if (lotId && lots.length === 0) fail('停车场不存在');
  return lots.map((l) => ({ id: Number(l.id), title: l.title, total_spaces: l.total_spaces }));
}

interface IncomeSums {
  day: string | null;
  lot_id: string | null;
  temp_count: number;
  temp_amount: string;
  renew_count: number;
  renew_amount: string;
  coupon_orders: number;
  coupon_quantity: number;
  coupon_amount: string;
}

function incomeRow(r: IncomeSums | undefined, day: string, lotId: number, lotTitle: string): ParkingIncomeRow {
  const temp = toFen(r?.temp_amount ?? '0');
  const renew = toFen(r?.renew_amount ?? '0');
  const coupon = toFen(r?.coupon_amount ?? '0');
  return {
    key: day ? `${day}|${lotId}` : '',
    day,
    lot_id: lotId,
    lot_title: lotTitle,
    temp_count: r?.temp_count ?? 0,
    temp_amount: fenToYuan(temp),
    renew_count: r?.renew_count ?? 0,
    renew_amount: fenToYuan(renew),
    coupon_orders: r?.coupon_orders ?? 0,
    coupon_quantity: r?.coupon_quantity ?? 0,
    coupon_amount: fenToYuan(coupon),
    total: fenToYuan(temp + renew + coupon),
  };
}

/**
 * The income of business days [start, end] per day and lot (days without income left out), newest
 * day first and lots in their order, with the totals: temporary stays' receipts not voided,
 * renewals of monthly cars, coupon orders of merchants, each on the business day it was taken.
 */
export async function parkingIncome(db: Kysely<DB>, rid: number, f: IncomeInput): Promise<ParkingIncomeAnswer> {
  const [start, end] = incomeRange(f);
  const lots = await lotsOf(db, rid, f.lot_id);
  const where = sql`rid = ${rid} AND day >= ${start}::date AND day <= ${end}::date ${f.lot_id ? sql`AND lot_id = ${f.lot_id}` : sql``}`;
  const { rows } = await sql<IncomeSums>`
    WITH t AS (
      SELECT day, lot_id, receipts AS tc, amount AS ta, 0 AS rc, 0::numeric AS ra, 0 AS co, 0 AS cq, 0::numeric AS ca
      FROM parking_income_temp WHERE ${where}
      UNION ALL
      SELECT day, lot_id, 0, 0, renewals, amount, 0, 0, 0 FROM parking_income_renewals WHERE ${where}
      UNION ALL
      SELECT day, lot_id, 0, 0, 0, 0, orders, quantity, amount FROM parking_income_coupons WHERE ${where}
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS day, lot_id::text AS lot_id,
      sum(tc)::int AS temp_count, sum(ta)::numeric(14,2)::text AS temp_amount,
      sum(rc)::int AS renew_count, sum(ra)::numeric(14,2)::text AS renew_amount,
      sum(co)::int AS coupon_orders, sum(cq)::int AS coupon_quantity, sum(ca)::numeric(14,2)::text AS coupon_amount
    FROM t GROUP BY GROUPING SETS ((day, lot_id), ())
    HAVING sum(tc) <> 0 OR sum(ta) <> 0 OR sum(rc) <> 0 OR sum(ra) <> 0 OR sum(co) <> 0 OR sum(ca) <> 0`.execute(db);
  const order = new Map(lots.map((l, i) => [l.id, i]));
  const titles = new Map(lots.map((l) => [l.id, l.title]));
  const items = rows
    .filter((r) => r.day !== null)
    .map((r) => incomeRow(r, r.day!, Number(r.lot_id), titles.get(Number(r.lot_id)) ?? ''))
    .sort((a, b) => (a.day === b.day ? (order.get(a.lot_id) ?? 0) - (order.get(b.lot_id) ?? 0) : a.day < b.day ? 1 : -1));
  return {
    start_date: start,
    end_date: end,
    items,
    totals: incomeRow(
      rows.find((r) => r.day === null),
      '',
      0,
      '合计',
    ),
  };
}

const parkingincome = defineMethod('parkingincome', {
  side: 'community',
  roles: PARKING_REPORT_ROLES.income,
  writes: false,
  summary:
    '停车收入报表：区间内（按业务日期，默认本月至今，最长一年）按日、停车场的临时车收费（临时停车费收据，不含作废）、月租续费、停车劵销售的笔数与金额及合计，含合计行；可按停车场筛选',
  async handler(ctx, input) {
    return parkingIncome(ctx.db, ctx.rid, input);
  },
});

const INCOME_COLUMNS: Array<SheetColumn<ParkingIncomeRow>> = [
  { header: '日期', value: (r) => r.day || '合计', width: 12 },
  { header: '停车场', value: (r) => (r.day ? r.lot_title : ''), width: 18 },
  { header: '临时车笔数', value: (r) => r.temp_count },
  { header: '临时车收费（元）', value: (r) => r.temp_amount, width: 16 },
  { header: '月租续费笔数', value: (r) => r.renew_count },
  { header: '月租续费（元）', value: (r) => r.renew_amount, width: 16 },
  { header: '停车劵订单', value: (r) => r.coupon_orders },
  { header: '停车劵张数', value: (r) => r.coupon_quantity },
  { header: '停车劵销售（元）', value: (r) => r.coupon_amount, width: 16 },
  { header: '合计（元）', value: (r) => r.total, width: 14 },
];

const parkingincomeexport = defineExport('parkingincomeexport', {
  roles: PARKING_REPORT_ROLES.income,
  summary: '导出停车收入报表（同 parkingincome 的区间与停车场），含合计行',
  filename: (input) => {
    const [start, end] = incomeRange(input as IncomeInput);
    return `停车收入_${start}_${end}.xlsx`;
  },
  async check(ctx, input) {
    await lotsOf(ctx.db, ctx.rid, (input as IncomeInput).lot_id);
  },
  async sheet(scope, input) {
    const answer = await parkingIncome(scope.db, scope.rid, input as IncomeInput);
    return sheetOf('停车收入', INCOME_COLUMNS, [...answer.items, answer.totals]);
  },
});

const rate = (inside: number, total: number) => (total > 0 ? ((inside * 100) / total).toFixed(1) : '');

/** The cars inside each lot now against its spaces, the spaces by state, the monthly cars ending soon. */
export async function parkingOccupancy(db: Kysely<DB>, rid: number, lotId?: number): Promise<ParkingOccupancyAnswer> {
  const lots = await lotsOf(db, rid, lotId);
  const lotFilter = (col: string) => (lotId ? sql`AND ${sql.ref(col)} = ${lotId}` : sql``);
  const [inside, spaces, monthly] = await Promise.all([
    // the stays not closed, through their partial index (parking_records_inside)
    sql<{ lot_id: string; temp: number; registered: number }>`
      SELECT lot_id::text, count(*) FILTER (WHERE car_type = '临时车')::int AS temp, count(*) FILTER (WHERE car_type <> '临时车')::int AS registered
      FROM parking_records WHERE rid = ${rid} AND state <> 'O' ${lotFilter('lot_id')} GROUP BY lot_id`.execute(db),
    sql<{ lot_id: string; idle: number; rented: number; sold: number; n: number }>`
      SELECT lot_id::text, count(*) FILTER (WHERE status = 'idle')::int AS idle, count(*) FILTER (WHERE status = 'rented')::int AS rented,
        count(*) FILTER (WHERE status = 'sold')::int AS sold, count(*)::int AS n
      FROM parking_spaces WHERE rid = ${rid} ${lotFilter('lot_id')} GROUP BY lot_id`.execute(db),
    // the monthly main cars as moncarlist lists them, counted by its filters (N 天内到期, 已过期)
    sql<{ lot_id: string; d7: number; d15: number; d30: number; expired: number }>`
      SELECT c.lot_id::text,
        count(*) FILTER (WHERE c.end_date BETWEEN current_date AND current_date + 7)::int AS d7,
        count(*) FILTER (WHERE c.end_date BETWEEN current_date AND current_date + 15)::int AS d15,
        count(*) FILTER (WHERE c.end_date BETWEEN current_date AND current_date + 30)::int AS d30,
        count(*) FILTER (WHERE c.end_date < current_date)::int AS expired
      FROM cars c JOIN rooms r ON r.rid = c.rid AND r.id = c.hid
      WHERE c.rid = ${rid} AND c.lease_type = 'M' AND c.main_car_id IS NULL AND c.lot_id IS NOT NULL ${lotFilter('c.lot_id')}
      GROUP BY c.lot_id`.execute(db),
  ]);
  const by = <T extends { lot_id: string }>(rows: T[]) => new Map(rows.map((r) => [Number(r.lot_id), r]));
  const ins = by(inside.rows);
  const sp = by(spaces.rows);
  const mo = by(monthly.rows);
  const items: ParkingOccupancyLot[] = lots.map((l) => {
    const i = ins.get(l.id);
    const s = sp.get(l.id);
    const m = mo.get(l.id);
    const total = l.total_spaces > 0 ? l.total_spaces : (s?.n ?? 0);
    const n = (i?.temp ?? 0) + (i?.registered ?? 0);
    return {
      lot_id: l.id,
      lot_title: l.title,
      total_spaces: total,
      inside: n,
      inside_temp: i?.temp ?? 0,
      inside_registered: i?.registered ?? 0,
      free: Math.max(0, total - n),
      rate: rate(n, total),
      spaces_idle: s?.idle ?? 0,
      spaces_rented: s?.rented ?? 0,
      spaces_sold: s?.sold ?? 0,
      expiring_7: m?.d7 ?? 0,
      expiring_15: m?.d15 ?? 0,
      expiring_30: m?.d30 ?? 0,
      expired: m?.expired ?? 0,
    };
  });
  const sum = (k: keyof ParkingOccupancyLot) => items.reduce((n, r) => n + (r[k] as number), 0);
  const total = sum('total_spaces');
  const n = sum('inside');
  return {
    at: wireTime(new Date()),
    items,
    totals: {
      lot_id: 0,
      lot_title: '合计',
      total_spaces: total,
      inside: n,
      inside_temp: sum('inside_temp'),
      inside_registered: sum('inside_registered'),
      free: sum('free'),
      rate: rate(n, total),
      spaces_idle: sum('spaces_idle'),
      spaces_rented: sum('spaces_rented'),
      spaces_sold: sum('spaces_sold'),
      expiring_7: sum('expiring_7'),
      expiring_15: sum('expiring_15'),
      expiring_30: sum('expiring_30'),
      expired: sum('expired'),
    },
  };
}

const parkingoccupancy = defineMethod('parkingoccupancy', {
  side: 'community',
  roles: PARKING_REPORT_ROLES.occupancy,
  writes: false,
  summary:
    '车位占用：各停车场当前在场车辆（临时车、登记车辆）与车位总数、空余、占用率，车位按状态计数，月租车 7/15/30 天内到期与已过期数，含合计行；可按停车场筛选',
  async handler(ctx, input) {
    return parkingOccupancy(ctx.db, ctx.rid, input.lot_id);
  },
});

const dayAfter = (day: string) => sql<Date>`(${day}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')`;

/**
 * The cars inside at the start of each hour of a business day (in at or before it, not yet out:
 * entry < h:00 ≤ exit), and the entries and exits within each hour. Reads the stays overlapping the
 * day through their spans' index, bucketed by hour in the database; the hours are summed up here.
 */
export async function parkingHourly(
  db: Kysely<DB>,
  rid: number,
  f: { day?: string | undefined; lot_id?: number | undefined },
): Promise<ParkingHourlyAnswer> {
  const now = wireTime(new Date());
  const day = f.day || now.slice(0, 10);
  await lotsOf(db, rid, f.lot_id);
  const hours = day < now.slice(0, 10) ? 24 : day === now.slice(0, 10) ? Number(now.slice(11, 13)) + 1 : 0;
  const entries = new Array<number>(24).fill(0);
  const exits = new Array<number>(24).fill(0);
  let before = 0;
  if (hours > 0) {
    const from = dayStart(day);
    const to = dayAfter(day);
    const { rows } = await sql<{ k: 'i' | 'o'; h: number; n: number }>`
      WITH s AS (
        SELECT intime, outtime FROM parking_records
        WHERE tstzrange(intime, outtime, '[)') && tstzrange(${from}, ${to}, '[)')
          -- rid + 0: the community is a filter on the span index's rows, never a second index scan
          -- (a community's year of stays, ANDed with the day's few thousand, took 90 ms)
          AND rid + 0 = ${rid} ${f.lot_id ? sql`AND lot_id + 0 = ${f.lot_id}` : sql``}
      )
      SELECT 'i' AS k, CASE WHEN intime < ${from} THEN -1 ELSE floor(extract(epoch FROM intime - ${from}) / 3600)::int END AS h, count(*)::int AS n
      FROM s GROUP BY 2
      UNION ALL
      SELECT 'o', floor(extract(epoch FROM outtime - ${from}) / 3600)::int, count(*)::int FROM s WHERE outtime < ${to} GROUP BY 2`.execute(
      db,
    );
    for (const r of rows) {
      if (r.k === 'i' && r.h < 0) before += r.n;
      else if (r.h >= 0 && r.h < 24) (r.k === 'i' ? entries : exits)[r.h]! += r.n;
    }
  }
  const items: ParkingHour[] = [];
  let inside = before;
  for (let h = 0; h < hours; h++) {
    items.push({ hour: h, label: `${String(h).padStart(2, '0')}:00`, inside, entries: entries[h]!, exits: exits[h]! });
    inside += entries[h]! - exits[h]!;
  }
  let peak = 0;
  let peakHour = '';
  for (const it of items)
    if (peakHour === '' || it.inside > peak) {
      peak = it.inside;
      peakHour = it.label;
    }
  return {
    day,
    lot_id: f.lot_id ?? 0,
    items,
    peak,
    peak_hour: peakHour,
    entries: items.reduce((n, h) => n + h.entries, 0),
    exits: items.reduce((n, h) => n + h.exits, 0),
  };
}

const parkinghourly = defineMethod('parkinghourly', {
  side: 'community',
  roles: PARKING_REPORT_ROLES.occupancy,
  writes: false,
  summary:
    '车位占用·分时：某业务日（默认今天）每个整点时在场的车辆数（入场早于整点且未在整点前离场）及每小时的入场、出场数，最高在场数及其时刻；今天只到当前小时；可按停车场筛选',
  async handler(ctx, input) {
    return parkingHourly(ctx.db, ctx.rid, input);
  },
});

/** The home page's parking card: cars inside now against the lots' spaces, and today's income. */
export async function parkingDashboard(db: Kysely<DB>, rid: number): Promise<ParkingDashboard> {
  const day = today();
  const [spaces, inside, income] = await Promise.all([
    sql<{ total: number }>`
      SELECT coalesce(sum(CASE WHEN l.total_spaces > 0 THEN l.total_spaces
        ELSE (SELECT count(*) FROM parking_spaces s WHERE s.rid = l.rid AND s.lot_id = l.id) END), 0)::int AS total
      FROM parking_lots l WHERE l.rid = ${rid}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM parking_records WHERE rid = ${rid} AND state <> 'O'`.execute(db),
    parkingIncome(db, rid, { start_date: day, end_date: day }),
  ]);
  const t = income.totals;
  return {
    day,
    inside: inside.rows[0]!.n,
    total_spaces: spaces.rows[0]!.total,
    temp_amount: t.temp_amount,
    renew_amount: t.renew_amount,
    coupon_amount: t.coupon_amount,
    total: t.total,
  };
}

const parkingdashboard = defineMethod('parkingdashboard', {
  side: 'community',
  roles: PARKING_REPORT_ROLES.dashboard,
  writes: false,
  summary: '首页停车卡片：当前在场车辆数与车位总数，今日停车收入（临时车收费、月租续费、停车劵销售）',
  async handler(ctx) {
    return parkingDashboard(ctx.db, ctx.rid);
  },
});

export const parkingReportMethods = [parkingincome, parkingincomeexport, parkingoccupancy, parkinghourly, parkingdashboard];
