import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { bindingMatches, CAR_BILLABLE, spaceBillable } from './bindingScopes.js';

/** What a generation covers: a period, items, and optionally a building, a unit or some rooms. */
export interface GenerateScope {
  period: string;
  item_ids: number[];
  bid?: number | undefined;
  tid?: number | undefined;
  hids?: number[] | undefined;
}

/** True when room `r` is bound to item `i` by community, building, unit, category or room (bindingScopes.ts). */
export const ROOM_BOUND = sql<boolean>`EXISTS (SELECT 1 FROM fee_bindings fb WHERE fb.rid = r.rid AND fb.item_id = i.id AND ${bindingMatches('room')})`;

/**
 * Everything a generation bills, one row per room / parking space / car and item:
 * - rooms bound by community, building, unit, category or room; measure: the area for area
 *   pricing, 1 for fixed, for meter pricing the quantity of the room's reading of the period
 *   (which covers the whole period, so it is not multiplied by the cycle) or else the item's
 *   default quantity, the default quantity for quantity pricing;
 * - sold or rented spaces (lease not ended before the period) that have a room, bound by lot or
 *   one by one, and cars in use, bound one by one or all at once (ref_id 0): charged to the
 *   space's / car's room, measure 1 (the default quantity for meter/quantity pricing), and the
 *   space title or plate as the label the bill shows.
 * The building / unit / room filters apply to the room the bill belongs to.
 */
function targets(rid: number, s: GenerateScope, onlyBid?: number, skipBilled = true): RawBuilder<unknown> {
  const roomFilters = sql.join(
    [
      s.bid ? sql`AND r.bid = ${s.bid}` : sql``,
      s.tid ? sql`AND r.tid = ${s.tid}` : sql``,
      s.hids?.length ? sql`AND r.id IN (${sql.join(s.hids)})` : sql``,
      onlyBid !== undefined ? sql`AND r.bid = ${onlyBid}` : sql``,
    ],
    sql` `,
  );
  const items = sql`i.id IN (${sql.join(s.item_ids)}) AND i.status = 'Y'`;
  const start = `${s.period}-01`;
  const itemCols = sql`i.id AS item_id, i.cost_type, i.title, i.unit_price, i.cycle_months, i.due_day`;
  const parkingQty = sql`CASE WHEN i.pricing IN ('meter', 'quantity') THEN i.default_quantity ELSE 1::numeric END`;
  // each branch checks its own key against the bills (the planner estimates them like plain joins)
  const unbilled = (space: RawBuilder<unknown>, car: RawBuilder<unknown>) =>
    !skipBilled
      ? sql`true`
      : sql`NOT EXISTS (SELECT 1 FROM fee_bills x
    WHERE x.rid = r.rid AND x.hid = r.id AND x.item_id = i.id AND x.period = ${s.period} AND x.space_id = ${space} AND x.car_id = ${car})`;
  // uncorrelated, so evaluated once: a generation without parking bindings skips the space and car scans
  const anyBinding = (scopes: string[]) => sql`EXISTS (SELECT 1 FROM fee_bindings fb0 WHERE fb0.rid = ${rid}
    AND fb0.item_id IN (${sql.join(s.item_ids)}) AND fb0.scope IN (${sql.join(scopes)}))`;
  return sql`(
    SELECT r.rid, r.id AS hid, r.bid, r.tid, ${itemCols}, 0::bigint AS space_id, 0::bigint AS car_id,
      CASE i.pricing WHEN 'area_built' THEN r.built_area WHEN 'area_indoor' THEN r.indoor_area WHEN 'fixed' THEN 1::numeric
        ELSE coalesce(mr.quantity, i.default_quantity) END AS qty,
      CASE WHEN mr.quantity IS NULL THEN i.cycle_months ELSE 1 END AS months,
      NULL::text AS label
    FROM rooms r
    JOIN fee_items i ON i.rid = r.rid AND ${items}
    LEFT JOIN LATERAL (SELECT m.quantity FROM fee_meter_readings m
      WHERE i.pricing = 'meter' AND m.rid = r.rid AND m.hid = r.id AND m.item_id = i.id AND m.period = ${s.period}) mr ON true
    WHERE r.rid = ${rid} ${roomFilters}
      AND ${ROOM_BOUND}
      AND ${unbilled(sql`0`, sql`0`)}
    UNION ALL
    SELECT r.rid, r.id, r.bid, r.tid, ${itemCols}, ps.id, 0::bigint, ${parkingQty}, i.cycle_months, l.title || ' ' || ps.title
    FROM parking_spaces ps
    JOIN rooms r ON r.rid = ps.rid AND r.id = ps.hid
    JOIN parking_lots l ON l.rid = ps.rid AND l.id = ps.lot_id
    JOIN fee_items i ON i.rid = ps.rid AND ${items}
    WHERE ${anyBinding(['lot', 'space'])} AND ps.rid = ${rid} AND ${spaceBillable(start)} ${roomFilters}
      AND EXISTS (SELECT 1 FROM fee_bindings fb WHERE fb.rid = ps.rid AND fb.item_id = i.id AND ${bindingMatches('space')})
      AND ${unbilled(sql`ps.id`, sql`0`)}
    UNION ALL
    SELECT r.rid, r.id, r.bid, r.tid, ${itemCols}, 0::bigint, c.id, ${parkingQty}, i.cycle_months, c.carlicense
    FROM cars c
    JOIN rooms r ON r.rid = c.rid AND r.id = c.hid
    JOIN fee_items i ON i.rid = c.rid AND ${items}
    WHERE ${anyBinding(['car'])} AND c.rid = ${rid} AND ${CAR_BILLABLE} ${roomFilters}
      AND EXISTS (SELECT 1 FROM fee_bindings fb WHERE fb.rid = c.rid AND fb.item_id = i.id AND ${bindingMatches('car')})
      AND ${unbilled(sql`0`, sql`c.id`)}
  )`;
}

/** FROM of the bills a generation would create: the targets that have no bill of that item for the period. */
function candidates(rid: number, s: GenerateScope, onlyBid?: number, skipBilled = true): RawBuilder<unknown> {
  return sql`FROM ${targets(rid, s, onlyBid, skipBilled)} t`;
}

const FEE = sql`round(t.qty * t.unit_price * t.months, 2)`;

/** Count and total of the bills a generation would create (the preview). */
export async function previewGeneration(db: Kysely<DB>, rid: number, s: GenerateScope): Promise<{ count: number; total_fee: string }> {
  const res = await sql<{ count: number; total_fee: string }>`
    SELECT count(*)::int AS count, coalesce(sum(${FEE}), 0)::numeric(14,2)::text AS total_fee ${candidates(rid, s)}`.execute(db);
  return res.rows[0]!;
}

/** Buildings that have candidate bills, so the job can insert (and report progress) building by building. */
export async function candidateBuildings(db: Kysely<DB>, rid: number, s: GenerateScope): Promise<Array<{ bid: number; n: number }>> {
  const res = await sql<{
    bid: number;
    n: number;
  }>`SELECT t.bid, count(*)::int AS n ${candidates(rid, s)} GROUP BY t.bid ORDER BY t.bid`.execute(db);
  return res.rows.map((r) => ({ bid: Number(r.bid), n: Number(r.n) }));
}

/**
 * One set-based INSERT ... SELECT of a building's bills; a bill that exists already (same room,
 * item, period, space and car) is skipped, so running it twice creates nothing new. The unique
 * key does the skipping: a NOT EXISTS here turns quadratic when the planner's figures for
 * fee_bills predate the bills this very job is adding. Answers the new bills' ids.
 */
export async function insertBills(db: Kysely<DB>, rid: number, s: GenerateScope, batchId: number, bid?: number): Promise<number[]> {
  const start = `${s.period}-01`;
  const res = await sql<{ id: number }>`
    INSERT INTO fee_bills (rid, hid, bid, tid, item_id, space_id, car_id, cost_type, title, period, daterange, measure, unit_price, fee,
      batch_id, due_date)
    SELECT t.rid, t.hid, t.bid, t.tid, t.item_id, t.space_id, t.car_id, t.cost_type, t.title, ${s.period}::text,
      ${start}::text || ' ~ ' || to_char(${start}::date + make_interval(months => t.cycle_months) - interval '1 day', 'YYYY-MM-DD'),
      coalesce(t.label, t.qty::text), t.unit_price, ${FEE}, ${batchId}::bigint, ${start}::date + (t.due_day - 1)
    ${candidates(rid, s, bid, false)}
    ON CONFLICT (rid, hid, item_id, period, space_id, car_id) DO NOTHING
    RETURNING id`.execute(db);
  return res.rows.map((r) => r.id);
}
