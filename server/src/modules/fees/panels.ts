import {
  addMonths,
  fenToYuan,
  toFen,
  type PropertyNopayCountRow,
  type PropertyNopayCountTotals,
  type PropertyPayCountRow,
  type PropertyPayCountTotals,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { today } from '../../lib/wire.js';
import { rate, REPORT_ROLES } from './reports.js';
import { comparePlaces } from '../../lib/placeOrder.js';

/**
 * The property fee panels (/feecounts/propertypaycount, /feecounts/propertynopaycount): figures of
 * the property bills (cost type `property`) per building and unit. Each statement groups by
 * (bid, tid) in the database and answers a few hundred rows; the titles are read for those keys
 * alone and the building rows are the sums of their units, added in fen.
 */

type Key = { bid: number; tid: number };
const keyOf = (r: { bid: number | string; tid: number | string }) => `${r.bid}:${r.tid}`;

/** The titles of the buildings and units of `keys`, with their sort order. */
async function places(db: Kysely<DB>, rid: number, keys: Key[]) {
  if (keys.length === 0) return new Map<string, { building_title: string; unit_title: string; bsort: number; usort: number }>();
  const { rows } = await sql<{ bid: string; tid: string; building_title: string; unit_title: string; bsort: number; usort: number }>`
    SELECT k.bid, k.tid, bd.title AS building_title, coalesce(u.title, '') AS unit_title, bd.sort AS bsort, coalesce(u.sort, 0) AS usort
    FROM unnest(${keys.map((k) => k.bid)}::bigint[], ${keys.map((k) => k.tid)}::bigint[]) AS k(bid, tid)
    JOIN buildings bd ON bd.rid = ${rid} AND bd.id = k.bid
    LEFT JOIN units u ON u.rid = ${rid} AND u.id = k.tid`.execute(db);
  return new Map(rows.map((r) => [keyOf(r), r]));
}

/**
 * Unit rows (sorted by building, then unit), each building preceded by its own row (tid 0) that
 * sums its units, and the totals. `sum` adds a row's money fields in fen.
 */
async function byBuildingAndUnit<R extends Record<string, string | number>>(
  db: Kysely<DB>,
  rid: number,
  units: Array<Key & R>,
  fields: { money: string[]; counts: string[] },
  finish: (row: Record<string, string | number>) => Record<string, string | number>,
) {
  const titles = await places(db, rid, units);
  const rows = units
    .map((u) => ({ ...u, ...titles.get(keyOf(u))! }))
    .filter((u) => u.building_title !== undefined)
    // buildings, then their units, in the order of every list (lib/placeOrder.ts)
    .sort(
      (a, b) =>
        comparePlaces(
          { sort: a.bsort, title: a.building_title, id: Number(a.bid) },
          { sort: b.bsort, title: b.building_title, id: Number(b.bid) },
        ) ||
        comparePlaces({ sort: a.usort, title: a.unit_title, id: Number(a.tid) }, { sort: b.usort, title: b.unit_title, id: Number(b.tid) }),
    );
  const add = (into: Record<string, bigint | number>, r: Record<string, string | number>) => {
    for (const f of fields.money) into[f] = ((into[f] as bigint | undefined) ?? 0n) + toFen(String(r[f]));
    for (const f of fields.counts) into[f] = ((into[f] as number | undefined) ?? 0) + Number(r[f]);
  };
  const out = (sums: Record<string, bigint | number>) => {
    const o: Record<string, string | number> = {};
    for (const f of fields.money) o[f] = fenToYuan((sums[f] as bigint | undefined) ?? 0n);
    for (const f of fields.counts) o[f] = (sums[f] as number | undefined) ?? 0;
    return finish(o);
  };
  const items: Array<Record<string, string | number>> = [];
  const total: Record<string, bigint | number> = {};
  for (let i = 0; i < rows.length;) {
    const bid = rows[i]!.bid;
    const sums: Record<string, bigint | number> = {};
    const unitRows: Array<Record<string, string | number>> = [];
    for (; i < rows.length && rows[i]!.bid === bid; i++) {
      const r = rows[i]!;
      add(sums, r);
      add(total, r);
      const sumsOf: Record<string, bigint | number> = {};
      add(sumsOf, r);
      unitRows.push({ bid: Number(r.bid), building_title: r.building_title, tid: Number(r.tid), unit_title: r.unit_title, ...out(sumsOf) });
    }
    items.push({ bid: Number(bid), building_title: rows[i - 1]!.building_title, tid: 0, unit_title: '', ...out(sums) }, ...unitRows);
  }
  return { items, totals: out(total) };
}

const PAY_MONEY = ['arrears_before', 'receivable', 'received', 'received_current', 'recovered', 'prepaid'];

/**
 * 物业费收缴统计 of the periods start..end: per unit, the property bills' arrears at the range's first
 * day (bills of earlier periods unpaid now, or paid since that day), the bills of the range
 * (receivable), and the property lines of the receipts taken within the range, split by the
 * bill's period: of the range (current), earlier (recovered arrears), later (prepaid). Lines
 * refunded since are not counted. Read from kept totals (202611290410_fee_unit_totals.sql, ADR
 * 0004), two grouped statements side by side:
 * - the bills per unit, period and status (fee_unit_totals): the range's bills, the unpaid before it;
 * - the receipt lines per their bill's unit, their receipt's month and their period
 *   (fee_line_totals): the range's bounds are first days of months, so whole months add up.
 * A unit is answered when it has bills in the range, unpaid bills before it, or lines since.
 */
export async function propertyPayCount(
  db: Kysely<DB>,
  rid: number,
  f: { start_period: string; end_period: string; bid?: number | undefined },
): Promise<{ items: PropertyPayCountRow[]; totals: PropertyPayCountTotals }> {
  if (f.start_period > f.end_period) return fail('开始账期不能晚于结束账期');
  const s = f.start_period;
  const e = f.end_period;
  const from = `${s}-01`;
  const to = addMonths(`${e}-01`, 1);
  const onBid = (alias: string) => (f.bid ? sql`AND ${sql.ref(`${alias}.bid`)} = ${f.bid}` : sql``);
  type G = { bid: string; tid: string };
  const fen = (x: ReturnType<typeof sql>) => sql`coalesce(${x}, 0)::numeric(14,2)::text`;
  const [bills, paid] = await Promise.all([
    sql<G & { receivable: string; unpaid: string; in_range: string; unpaid_before: string }>`
      SELECT t.bid, t.tid,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period >= ${s})`)} AS receivable,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period < ${s} AND t.status <> 'Y')`)} AS unpaid,
        coalesce(sum(t.bills) FILTER (WHERE t.period >= ${s}), 0)::text AS in_range,
        coalesce(sum(t.bills) FILTER (WHERE t.period < ${s} AND t.status <> 'Y'), 0)::text AS unpaid_before
      FROM fee_unit_totals t
      WHERE t.rid = ${rid} AND t.cost_type = 'property' AND t.period <= ${e} ${onBid('t')}
      GROUP BY t.bid, t.tid`.execute(db),
    sql<G & { received: string; received_current: string; recovered: string; prepaid: string; paid_since: string }>`
      SELECT t.bid, t.tid,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date)`)} AS received,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date AND t.period BETWEEN ${s} AND ${e})`)} AS received_current,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date AND t.period < ${s})`)} AS recovered,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date AND t.period > ${e})`)} AS prepaid,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period < ${s})`)} AS paid_since
      FROM fee_line_totals t
      WHERE t.rid = ${rid} AND t.cost_type = 'property' AND t.month >= ${from}::date ${onBid('t')}
      GROUP BY t.bid, t.tid HAVING sum(t.lines) <> 0`.execute(db),
  ]);
  type Money = Record<string, string>;
  const units = new Map<string, { key: Key; money: Money }>();
  const unit = (r: G): Money => {
    const k = keyOf(r);
    let u = units.get(k);
    if (!u) {
      u = { key: { bid: Number(r.bid), tid: Number(r.tid) }, money: Object.fromEntries(PAY_MONEY.map((m) => [m, '0.00'])) };
      units.set(k, u);
    }
    return u.money;
  };
  for (const r of bills.rows) {
    if (r.in_range !== '0') unit(r).receivable = r.receivable;
    if (r.unpaid_before !== '0') unit(r).arrears_before = r.unpaid;
  }
  for (const r of paid.rows) {
    const u = unit(r);
    Object.assign(u, { received: r.received, received_current: r.received_current, recovered: r.recovered, prepaid: r.prepaid });
    u.arrears_before = fenToYuan(toFen(u.arrears_before ?? '0') + toFen(r.paid_since));
  }
  const result = await byBuildingAndUnit(
    db,
    rid,
    [...units.values()].map((u) => ({ ...u.money, ...u.key })),
    { money: PAY_MONEY, counts: [] },
    (o) => ({
      ...o,
      rate: rate(String(o.received_current), String(o.receivable)),
    }),
  );
  return result as unknown as { items: PropertyPayCountRow[]; totals: PropertyPayCountTotals };
}

/** The first period of each ageing bucket on `day`: a bill's period ended at most 3, 6, 12 months ago. */
export function ageingCutoffs(day: string) {
  const ym = (months: number) => addMonths(day, -months).slice(0, 7);
  return { m3: ym(3), m6: ym(6), m12: ym(12) };
}

const NOPAY_MONEY = ['m0_3', 'm3_6', 'm6_12', 'm12_plus', 'arrears', 'late_fee', 'total'];

/**
 * 物业费欠费统计: the unpaid property bills per unit, aged by the end of their period against today
 * (a period ending on or after the day 3 months ago is within 3 months, and so on), the rooms that
 * owe, and the late fees today by the one late-fee computation (fee_late_fee, fees/arrears.ts).
 * Read from the unpaid bills' kept totals (202611290400_fee_unpaid_totals.sql) instead of the
 * bills: per unit, period, item, due date and fee, whose bills share one late fee on any day, so
 * the late fee of a group is its count times one bill's, rounded per bill as the bills would be;
 * the rooms that owe per unit are kept counted.
 */
export async function propertyNopayCount(
  db: Kysely<DB>,
  rid: number,
  f: { bid?: number | undefined },
): Promise<{ items: PropertyNopayCountRow[]; totals: PropertyNopayCountTotals; today: string }> {
  const day = today();
  const c = ageingCutoffs(day);
  const m = (cond: ReturnType<typeof sql>) => sql`coalesce(sum(t.bills * t.fee) FILTER (WHERE ${cond}), 0)::numeric(14,2)::text`;
  const onBid = (alias: string) => (f.bid ? sql`AND ${sql.ref(`${alias}.bid`)} = ${f.bid}` : sql``);
  // every sum is linear in a group's count, so the kept rows are summed per unit as they are, in
  // the index's order, without netting each group first
  const { rows } = await sql<{ bid: string; tid: string } & Record<string, string | number>>`
    WITH g AS (
      SELECT t.bid, t.tid, sum(t.bills)::int AS bill_count,
        ${m(sql`t.period >= ${c.m3}`)} AS m0_3,
        ${m(sql`t.period < ${c.m3} AND t.period >= ${c.m6}`)} AS m3_6,
        ${m(sql`t.period < ${c.m6} AND t.period >= ${c.m12}`)} AS m6_12,
        ${m(sql`t.period < ${c.m12}`)} AS m12_plus,
        sum(t.bills * t.fee)::numeric(14,2)::text AS arrears,
        sum(t.bills * fee_late_fee(t.fee, t.due_date, ${day}::date, i.late_fee_rule, i.late_fee_rate, i.late_fee_grace_days,
          i.late_fee_cap_percent))::numeric(14,2)::text AS late_fee
      FROM fee_unpaid_totals t JOIN fee_items i ON i.rid = ${rid} AND i.id = t.item_id
      WHERE t.rid = ${rid} AND t.cost_type = 'property' ${onBid('t')}
      GROUP BY t.bid, t.tid HAVING sum(t.bills) <> 0
    ), owing AS (
      SELECT u.bid, u.tid, sum(u.rooms) AS rooms FROM fee_unpaid_units u WHERE u.rid = ${rid} ${onBid('u')}
      GROUP BY u.bid, u.tid
    )
    SELECT g.*, coalesce(o.rooms, 0)::int AS rooms FROM g LEFT JOIN owing o ON o.bid = g.bid AND o.tid = g.tid`.execute(db);
  const units = rows.map((r) => ({
    ...r,
    bid: Number(r.bid),
    tid: Number(r.tid),
    total: fenToYuan(toFen(String(r.arrears)) + toFen(String(r.late_fee))),
  }));
  const result = await byBuildingAndUnit(db, rid, units, { money: NOPAY_MONEY, counts: ['rooms', 'bill_count'] }, (o) => o);
  return { ...(result as unknown as { items: PropertyNopayCountRow[]; totals: PropertyNopayCountTotals }), today: day };
}

const propertypaycount = defineMethod('propertypaycount', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '物业费收缴统计：账期区间内各楼栋、单元的期初欠费、应收、实收（其中当期、清欠、预收）、收缴率',
  handler: (ctx, input) => propertyPayCount(ctx.db, ctx.rid, input),
});

const propertynopaycount = defineMethod('propertynopaycount', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '物业费欠费统计：各楼栋、单元未缴物业费按账期结束至今的账龄（3 个月内、3-6、6-12、12 个月以上）、欠费户数、滞纳金',
  handler: (ctx, input) => propertyNopayCount(ctx.db, ctx.rid, input),
});

export const panelMethods = [propertypaycount, propertynopaycount];
