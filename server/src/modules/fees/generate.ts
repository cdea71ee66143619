import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';

/** What a generation covers: a period, items, and optionally a building, a unit or some rooms. */
export interface GenerateScope {
  period: string;
  item_ids: number[];
  bid?: number | undefined;
  tid?: number | undefined;
  hids?: number[] | undefined;
}

/**
 * FROM/WHERE of the bills a generation would create: each room bound to an enabled item (by
 * community, building, unit, category or room) that has no bill of that item for the period.
 * Measure: the area for area pricing, 1 for fixed, the item's default quantity otherwise.
 */
function candidates(rid: number, s: GenerateScope, onlyBid?: number): RawBuilder<unknown> {
  const filters = [
    s.bid ? sql`AND r.bid = ${s.bid}` : sql``,
    s.tid ? sql`AND r.tid = ${s.tid}` : sql``,
    s.hids?.length ? sql`AND r.id IN (${sql.join(s.hids)})` : sql``,
    onlyBid !== undefined ? sql`AND r.bid = ${onlyBid}` : sql``,
  ];
  return sql`
    FROM rooms r
    JOIN fee_items i ON i.rid = r.rid AND i.id IN (${sql.join(s.item_ids)}) AND i.status = 'Y'
    CROSS JOIN LATERAL (SELECT CASE i.pricing WHEN 'area_built' THEN r.built_area WHEN 'area_indoor' THEN r.indoor_area
      WHEN 'fixed' THEN 1::numeric ELSE i.default_quantity END AS measure) m
    WHERE r.rid = ${rid}
      AND EXISTS (SELECT 1 FROM fee_bindings fb WHERE fb.rid = r.rid AND fb.item_id = i.id AND (
        fb.scope = 'region' OR (fb.scope = 'building' AND fb.ref_id = r.bid) OR (fb.scope = 'unit' AND fb.ref_id = r.tid)
        OR (fb.scope = 'category' AND fb.ref_id = r.category_id) OR (fb.scope = 'room' AND fb.ref_id = r.id)))
      AND NOT EXISTS (SELECT 1 FROM fee_bills x WHERE x.rid = r.rid AND x.hid = r.id AND x.item_id = i.id AND x.period = ${s.period})
      ${sql.join(filters, sql` `)}`;
}

const FEE = sql`round(m.measure * i.unit_price * i.cycle_months, 2)`;

/** Count and total of the bills a generation would create (the preview). */
export async function previewGeneration(db: Kysely<DB>, rid: number, s: GenerateScope): Promise<{ count: number; total_fee: string }> {
  const res = await sql<{ count: number; total_fee: string }>`
    SELECT count(*)::int AS count, coalesce(sum(${FEE}), 0)::numeric(14,2)::text AS total_fee ${candidates(rid, s)}`.execute(db);
  return res.rows[0]!;
}

/** Buildings that have candidate rooms, so the job can insert (and report progress) building by building. */
export async function candidateBuildings(db: Kysely<DB>, rid: number, s: GenerateScope): Promise<Array<{ bid: number; n: number }>> {
  const res = await sql<{ bid: number; n: number }>`SELECT r.bid, count(*)::int AS n ${candidates(rid, s)} GROUP BY r.bid ORDER BY r.bid`.execute(db);
  return res.rows.map((r) => ({ bid: Number(r.bid), n: Number(r.n) }));
}

/** One set-based INSERT ... SELECT of a building's bills; a bill that exists already is skipped. */
export async function insertBills(db: Kysely<DB>, rid: number, s: GenerateScope, batchId: number, bid?: number): Promise<number> {
  const start = `${s.period}-01`;
  const res = await sql`
    INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, daterange, measure, unit_price, fee, batch_id, due_date)
    SELECT r.rid, r.id, r.bid, r.tid, i.id, i.cost_type, i.title, ${s.period}::text,
      ${start}::text || ' ~ ' || to_char(${start}::date + make_interval(months => i.cycle_months) - interval '1 day', 'YYYY-MM-DD'),
      m.measure::text, i.unit_price, ${FEE}, ${batchId}::bigint, ${start}::date + (i.due_day - 1)
    ${candidates(rid, s, bid)}
    ON CONFLICT (rid, hid, item_id, period) DO NOTHING`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
