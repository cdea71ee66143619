import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { KEPT_TOTALS, type KeptTotals } from '../modules/fees/totals.js';

/** A group where a table and its kept totals disagree, as one side sums it. */
export type TotalsMismatch = { source: 'table' | 'totals' } & Record<string, unknown>;

/**
 * The groups where a table and its kept totals (migrations 024, 025) disagree: each group as the
 * table sums it and as the totals do, for every group either side has. Empty when they agree.
 */
export async function totalsMismatches(db: Kysely<DB>, kept: KeptTotals): Promise<TotalsMismatch[]> {
  const keys = Object.entries(kept.keys);
  const sums = Object.entries(kept.sums);
  const groupBy = sql.join(keys.map((_, i) => sql.raw(String(i + 1))));
  // the first four columns after the source (as many as there are), then the source
  const columns = 1 + keys.length + sums.length;
  const orderBy = [...Array.from({ length: Math.min(4, columns - 1) }, (_, i) => String(i + 2)), '1'].join(', ');
  const res = await sql<TotalsMismatch>`
    WITH source AS (
      SELECT ${sql.join(keys.map(([k, e]) => sql`${sql.raw(e)} AS ${sql.id(k)}`))},
        ${sql.join(sums.map(([k, e]) => sql`${sql.raw(e)}::numeric AS ${sql.id(k)}`))}
      FROM ${kept.from ? sql.raw(kept.from) : sql.table(kept.source)} ${kept.counted ? sql`WHERE ${sql.raw(kept.counted)}` : sql``} GROUP BY ${groupBy}
    ), totals AS (
      SELECT ${sql.join(keys.map(([k]) => sql.id(k)))}, ${sql.join(sums.map(([k]) => sql`sum(${sql.id(k)})::numeric AS ${sql.id(k)}`))}
      FROM ${sql.table(kept.table)} GROUP BY ${groupBy}
      HAVING ${sql.join(
        sums.map(([k]) => sql`sum(${sql.id(k)}) <> 0`),
        sql` OR `,
      )}
    )
    (SELECT 'table' AS source, * FROM (SELECT * FROM source EXCEPT SELECT * FROM totals) a)
    UNION ALL
    (SELECT 'totals' AS source, * FROM (SELECT * FROM totals EXCEPT SELECT * FROM source) b)
    ORDER BY ${sql.raw(orderBy)}`.execute(db);
  return res.rows.map(
    (r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, v instanceof Date || typeof v !== 'object' ? v : String(v)]),
      ) as TotalsMismatch,
  );
}

/** Rooms whose kept address or sort orders (026_room_addresses.sql) are not their building's and unit's now. */
export async function roomPlaceMismatches(db: Kysely<DB>) {
  const res = await sql<{ rid: number; id: string; address: string; placed: string }>`
    SELECT r.rid, r.id, r.address, concat(b.title, u.title, r.title) AS placed FROM rooms r
    JOIN buildings b ON b.rid = r.rid AND b.id = r.bid JOIN units u ON u.rid = r.rid AND u.id = r.tid
    WHERE (r.address, r.building_sort, r.unit_sort) IS DISTINCT FROM (concat(b.title, u.title, r.title), b.sort, u.sort)
    ORDER BY r.rid, r.id`.execute(db);
  return res.rows;
}

/** Grants whose kept count of device rows (202611301130) is not their rows' count. */
export async function grantDeviceRowsMismatches(db: Kysely<DB>) {
  const res = await sql<{ rid: number; id: string; device_rows: number; rows: number }>`
    SELECT g.rid, g.id, g.device_rows, count(s.grant_id)::int AS rows FROM access_grants g
    LEFT JOIN access_grant_devices s ON s.rid = g.rid AND s.grant_id = g.id
    GROUP BY g.rid, g.id, g.device_rows HAVING g.device_rows <> count(s.grant_id) ORDER BY g.rid, g.id`.execute(db);
  return res.rows;
}

/** Rooms without their row of household_reach (202611300500), which every room has from its creation. */
export async function roomReachMissing(db: Kysely<DB>) {
  const res = await sql<{ rid: number; id: string }>`
    SELECT r.rid, r.id FROM rooms r
    WHERE NOT EXISTS (SELECT 1 FROM household_reach h WHERE h.rid = r.rid AND h.hid = r.id) ORDER BY r.rid, r.id`.execute(db);
  return res.rows;
}

/**
 * Receipt lines whose `invoiced` (202612010000_invoices) is not what their invoices hold: blue lines
 * not failed, less red lines issued; and blue lines whose `reversed` is not their red lines' (issuing
 * or issued).
 */
export async function invoicedMismatches(db: Kysely<DB>) {
  const lines = await sql<{ rid: number; id: string; invoiced: string; held: string }>`
    WITH held AS (
      SELECT l.rid, l.payment_item_id AS id, sum(l.amount) AS held FROM invoice_lines l JOIN invoices v ON v.rid = l.rid AND v.id = l.invoice_id
      WHERE (v.color = 'B' AND v.status <> 'F') OR (v.color = 'R' AND v.status = 'Y') GROUP BY 1, 2)
    SELECT pi.rid, pi.id, pi.invoiced::text, coalesce(h.held, 0)::text AS held
    FROM fee_payment_items pi LEFT JOIN held h ON h.rid = pi.rid AND h.id = pi.id
    WHERE (pi.invoiced > 0 OR h.id IS NOT NULL) AND pi.invoiced <> coalesce(h.held, 0) ORDER BY 1, 2`.execute(db);
  const blue = await sql<{ rid: number; id: string; reversed: string; red: string }>`
    SELECT b.rid, b.id, b.reversed::text, coalesce(-sum(r.amount) FILTER (WHERE v.status IN ('W', 'Y')), 0)::text AS red
    FROM invoice_lines b LEFT JOIN invoice_lines r ON r.rid = b.rid AND r.blue_line_id = b.id
    LEFT JOIN invoices v ON v.rid = r.rid AND v.id = r.invoice_id
    WHERE b.blue_line_id IS NULL GROUP BY b.rid, b.id, b.reversed
    HAVING b.reversed <> coalesce(-sum(r.amount) FILTER (WHERE v.status IN ('W', 'Y')), 0) ORDER BY 1, 2`.execute(db);
  return [...lines.rows, ...blue.rows];
}

/**
 * Members whose balance or points are not the sums of their ledger rows (docs/product.md#member-ledgers):
 * paid balance rows in less those out; every points row; and the unspent of the earnings (what
 * expires).
 */
export async function memberLedgerMismatches(db: Kysely<DB>) {
  const res = await sql<{ rid: number; id: string; balance: string; ledger: string; bonus: number; points: number }>`
    SELECT m.rid, m.id, m.balance::text, coalesce(b.sum, 0)::text AS ledger, m.bonus, coalesce(p.sum, 0)::int AS points
    FROM members m
    LEFT JOIN (SELECT rid, member_id, sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END) AS sum
               FROM balance_ledger WHERE status = 'Y' GROUP BY 1, 2) b ON b.rid = m.rid AND b.member_id = m.id
    LEFT JOIN (SELECT rid, member_id, sum(num) AS sum, sum(unspent) FILTER (WHERE num > 0) AS unspent FROM bonus_ledger GROUP BY 1, 2) p
      ON p.rid = m.rid AND p.member_id = m.id
    WHERE m.balance <> coalesce(b.sum, 0) OR m.bonus <> coalesce(p.sum, 0) OR m.bonus <> coalesce(p.unspent, 0) ORDER BY 1, 2`.execute(db);
  return res.rows;
}

/**
 * Throws, naming them, where what the database keeps for reading disagrees with the tables it is
 * kept from: a table's kept totals, a room's address.
 */
export async function assertKeptData(db: Kysely<DB>): Promise<void> {
  const wrong: string[] = [];
  for (const kept of KEPT_TOTALS) {
    for (const w of await totalsMismatches(db, kept)) wrong.push(`${kept.table}: ${JSON.stringify(w)}`);
  }
  for (const w of await roomPlaceMismatches(db)) wrong.push(`rooms: ${JSON.stringify(w)}`);
  for (const w of await roomReachMissing(db)) wrong.push(`household_reach: no row for room ${JSON.stringify(w)}`);
  for (const w of await grantDeviceRowsMismatches(db)) wrong.push(`access_grants.device_rows: ${JSON.stringify(w)}`);
  for (const w of await invoicedMismatches(db)) wrong.push(`fee_payment_items.invoiced / invoice_lines.reversed: ${JSON.stringify(w)}`);
  for (const w of await memberLedgerMismatches(db)) wrong.push(`members.balance / bonus: ${JSON.stringify(w)}`);
  if (wrong.length) throw new Error(`kept data disagrees with its tables:\n${wrong.join('\n')}`);
}
