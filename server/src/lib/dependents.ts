import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Readable names of tables that may hang on a building, unit, room or room category. */
const LABELS: Record<string, string> = {
  units: '单元',
  rooms: '房屋',
  room_members: '业主或住户记录',
  fee_bills: '账单',
  fee_payments: '缴费记录',
  fee_bindings: '收费项目绑定',
  cars: '车辆',
  parking_spaces: '车位',
  balance_ledger: '余额记录',
  visitors: '访客记录',
  activity_signups: '活动报名记录',
  access_passes: '门禁通行记录',
  access_grants: '门禁授权',
};
export const tableLabel = (table: string) => LABELS[table] ?? table;

/**
 * An area names its tables for delete refusals (该楼栋下还有车辆…) and declares references that
 * carry no foreign key (a scope column naming the parent), at module load.
 */
export function registerDependents(labels: Record<string, string>, refs: Record<string, Reference[]> = {}): void {
  Object.assign(LABELS, labels);
  for (const [parent, list] of Object.entries(refs)) KNOWN_REFS[parent] = [...(KNOWN_REFS[parent] ?? []), ...list];
}

export interface Reference {
  table: string;
  columns: string[];
  /** the parent's columns the `columns` point at, in order (rid, id) */
  refColumns: string[];
  /** an extra column = value condition (fee bindings name their target by scope) */
  scope?: { column: string; value: string };
}

/**
 * Tables that refer to rows of a parent by rid and id without a foreign key (or that should
 * be reported first): checked before the catalogue's foreign keys.
 */
const KNOWN_REFS: Record<string, Reference[]> = {
  rooms: [
    { table: 'room_members', columns: ['rid', 'hid'], refColumns: ['rid', 'id'] },
    { table: 'fee_bills', columns: ['rid', 'hid'], refColumns: ['rid', 'id'] },
    { table: 'fee_payments', columns: ['rid', 'hid'], refColumns: ['rid', 'id'] },
    { table: 'fee_bindings', columns: ['rid', 'ref_id'], refColumns: ['rid', 'id'], scope: { column: 'scope', value: 'room' } },
  ],
  units: [{ table: 'fee_bindings', columns: ['rid', 'ref_id'], refColumns: ['rid', 'id'], scope: { column: 'scope', value: 'unit' } }],
  buildings: [
    { table: 'fee_bindings', columns: ['rid', 'ref_id'], refColumns: ['rid', 'id'], scope: { column: 'scope', value: 'building' } },
  ],
  room_categories: [
    { table: 'fee_bindings', columns: ['rid', 'ref_id'], refColumns: ['rid', 'id'], scope: { column: 'scope', value: 'category' } },
  ],
};

/**
 * Foreign keys pointing at `table`, read from the catalogue, so later areas' tables are covered too;
 * those that cascade or clear on delete go with the row and are not in the way.
 */
async function foreignKeysTo(db: Kysely<DB>, table: string): Promise<Reference[]> {
  const { rows } = await sql<{ table_name: string; cols: string[]; ref_cols: string[] }>`
    SELECT c.conrelid::regclass::text AS table_name,
           array_agg(a.attname::text ORDER BY k.ord) AS cols,
           array_agg(fa.attname::text ORDER BY k.ord) AS ref_cols
    FROM pg_constraint c
    CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
    JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fattnum
    WHERE c.contype = 'f' AND c.confrelid = to_regclass(${table}) AND c.confdeltype NOT IN ('c', 'n', 'd')
    GROUP BY c.oid, c.conrelid
    ORDER BY c.oid`.execute(db);
  return rows.map((r) => ({ table: r.table_name, columns: r.cols, refColumns: r.ref_cols }));
}

async function hasColumns(db: Kysely<DB>, ref: Reference): Promise<boolean> {
  const wanted = [...ref.columns, ...(ref.scope ? [ref.scope.column] : [])];
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_attribute
    WHERE attrelid = to_regclass(${ref.table}) AND attname = ANY(${wanted}) AND NOT attisdropped`.execute(db);
  return rows[0]?.n === wanted.length;
}

/**
 * The first table that still has rows hanging on row (rid, id) of `table` (or on row id of a
 * group-owned table, rid null), or null, so a
 * delete is refused with a message naming what is in the way.
 */
export async function firstDependent(db: Kysely<DB>, table: string, rid: number | null, id: number): Promise<string | null> {
  const known: Reference[] = [];
  for (const ref of KNOWN_REFS[table] ?? []) if (await hasColumns(db, ref)) known.push(ref);
  const refs = [...known, ...(await foreignKeysTo(db, table))];
  // a row of the property company (rid null) is referred to by its id alone
  const keyValue: Record<string, number> = rid === null ? { id } : { rid, id };
  for (const ref of refs) {
    if (!ref.refColumns.every((c) => c in keyValue)) continue;
    const conditions = ref.columns.map((c, i) => sql`${sql.ref(c)} = ${keyValue[ref.refColumns[i]!]}`);
    if (ref.scope) conditions.push(sql`${sql.ref(ref.scope.column)} = ${ref.scope.value}`);
    const { rows } = await sql`SELECT 1 FROM ${sql.table(ref.table)} WHERE ${sql.join(conditions, sql` AND `)} LIMIT 1`.execute(db);
    if (rows.length) return ref.table;
  }
  return null;
}
