import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { insertDefaultCategories } from './defaults.js';

interface Layout {
  rid: number;
  buildings: number;
  units: number;
  floors: number;
  perFloor: number;
  /** built-up area by position on the floor (cycled); indoor is about 80 % */
  areas: number[];
}

/**
 * One community's buildings (N号楼), units (N单元) and rooms (floor*100 + position: 1101 …),
 * all set-based. About seven rooms in ten are occupied, the rest vacant, rented or renovating.
 */
async function seedLayout(db: Kysely<DB>, l: Layout): Promise<void> {
  await sql`
    INSERT INTO buildings (rid, title, floors, sort)
    SELECT ${l.rid}, g || '号楼', ${l.floors}, g FROM generate_series(1, ${l.buildings}) g ORDER BY g`.execute(db);
  await sql`
    INSERT INTO units (rid, bid, title, sort)
    SELECT b.rid, b.id, u || '单元', u FROM buildings b CROSS JOIN generate_series(1, ${l.units}) u
    WHERE b.rid = ${l.rid} ORDER BY b.id, u`.execute(db);
  const areas = sql.raw(`ARRAY[${l.areas.map((a) => a.toFixed(2)).join(',')}]::numeric[]`);
  await sql`
    INSERT INTO rooms (rid, bid, tid, title, floor, category_id, built_area, indoor_area, state)
    SELECT u.rid, u.bid, u.id, (f * 100 + n)::text, f,
           (SELECT id FROM room_categories WHERE rid = u.rid AND kind = 'residence' ORDER BY sort, id LIMIT 1),
           (${areas})[(n - 1) % ${l.areas.length} + 1],
           round((${areas})[(n - 1) % ${l.areas.length} + 1] * 0.8, 2),
           CASE (f * 7 + n * 3 + u.sort) % 10 WHEN 0 THEN 'vacant' WHEN 1 THEN 'rented' WHEN 2 THEN 'renovating' ELSE 'occupied' END
    FROM units u CROSS JOIN generate_series(1, ${l.floors}) f CROSS JOIN generate_series(1, ${l.perFloor}) n
    WHERE u.rid = ${l.rid}
    ORDER BY u.bid, u.id, f, n`.execute(db);
}

/** Two street-front shops on the ground floor of 阳光花园 1号楼 1单元. */
async function seedShops(db: Kysely<DB>, rid: number): Promise<void> {
  await sql`
    INSERT INTO rooms (rid, bid, tid, title, floor, category_id, built_area, indoor_area, state, remark)
    SELECT u.rid, u.bid, u.id, s.title, 1, c.id, s.built, s.indoor, s.state, s.remark
    FROM units u
    JOIN buildings b ON b.rid = u.rid AND b.id = u.bid AND b.title = '1号楼'
    JOIN room_categories c ON c.rid = u.rid AND c.kind = 'shop'
    CROSS JOIN (VALUES ('S01', 56.00, 48.20, 'rented', '沿街便利店'), ('S02', 72.50, 61.30, 'occupied', '沿街药房'))
      AS s(title, built, indoor, state, remark)
    WHERE u.rid = ${rid} AND u.title = '1单元'`.execute(db);
}

/** Demo data of the structure area (runs inside the demo transaction). */
export async function seedStructure(db: Kysely<DB>): Promise<void> {
  for (const rid of [1, 2, 3]) await insertDefaultCategories(db, rid);
  // 阳光花园: 6 buildings × 2 units × 15 floors × 4 rooms = 720 rooms, plus 2 shops
  await seedLayout(db, { rid: 1, buildings: 6, units: 2, floors: 15, perFloor: 4, areas: [89.5, 105.2, 128, 143.6] });
  await seedShops(db, 1);
  // 翠湖苑: 3 × 2 × 10 × 2 = 120 rooms
  await seedLayout(db, { rid: 2, buildings: 3, units: 2, floors: 10, perFloor: 2, areas: [98.3, 126.8] });
  // 老城小区: 1 building, 1 unit, 3 floors × 2 = 6 rooms
  await seedLayout(db, { rid: 3, buildings: 1, units: 1, floors: 3, perFloor: 2, areas: [62.4, 75.9] });
}
