import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Readable names of tables that may hang on a building, unit or room. */
const LABELS: Record<string, string> = {
  units: '单元', rooms: '房屋', room_members: '业主或住户', fee_bills: '账单', house_cars: '车辆', cars: '车辆',
  parking_spaces: '车位', fee_bindings: '收费项目', visitors: '访客记录',
};
export const tableLabel = (table: string) => LABELS[table] ?? table;

interface Reference { table: string; columns: string[]; refColumns: string[] }

/**
 * Tables whose foreign keys point at `table`, read from the catalogue, so a delete can be
 * refused with a clear message whatever areas have added since (owners, fees, cars...).
 */
async function referencesTo(db: Kysely<DB>, table: string): Promise<Reference[]> {
  const { rows } = await sql<{ table_name: string; cols: string[]; ref_cols: string[] }>`
    SELECT c.conrelid::regclass::text AS table_name,
           array_agg(a.attname::text ORDER BY k.ord) AS cols,
           array_agg(fa.attname::text ORDER BY k.ord) AS ref_cols
    FROM pg_constraint c
    CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
    JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fattnum
    WHERE c.contype = 'f' AND c.confrelid = to_regclass(${table})
    GROUP BY c.oid, c.conrelid`.execute(db);
  return rows.map((r) => ({ table: r.table_name, columns: r.cols, refColumns: r.ref_cols }));
}

/** Tables known to point at rooms by (rid, hid) even if they were created without a foreign key. */
const KNOWN_ROOM_REFS: Reference[] = [
  { table: 'room_members', columns: ['rid', 'hid'], refColumns: ['rid', 'id'] },
  { table: 'fee_bills', columns: ['rid', 'hid'], refColumns: ['rid', 'id'] },
];

async function tableHasColumns(db: Kysely<DB>, ref: Reference): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_attribute
    WHERE attrelid = to_regclass(${ref.table}) AND attname = ANY(${ref.columns}) AND NOT attisdropped`.execute(db);
  return rows[0]?.n === ref.columns.length;
}

/**
 * The first table that still has rows hanging on row (rid, id) of `table`, or null.
 * `skip` leaves out tables the caller checks itself.
 */
export async function firstDependent(
  db: Kysely<DB>, table: 'buildings' | 'units' | 'rooms' | 'room_categories', rid: number, id: number, skip: string[] = [],
): Promise<string | null> {
  const refs = await referencesTo(db, table);
  if (table === 'rooms') {
    for (const known of KNOWN_ROOM_REFS) {
      if (!refs.some((r) => r.table === known.table) && (await tableHasColumns(db, known))) refs.push(known);
    }
  }
  for (const ref of refs) {
    if (skip.includes(ref.table)) continue;
    const keyValue = { rid, id } as Record<string, number>;
    if (!ref.refColumns.every((c) => c in keyValue)) continue;
    const conditions = ref.columns.map((c, i) => sql`${sql.ref(c)} = ${keyValue[ref.refColumns[i]!]}`);
    const { rows } = await sql`SELECT 1 FROM ${sql.table(ref.table)} WHERE ${sql.join(conditions, sql` AND `)} LIMIT 1`.execute(db);
    if (rows.length) return ref.table;
  }
  return null;
}
