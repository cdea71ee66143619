import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { peopledCommunities } from '../owners/seed.js';

/**
 * The INSERT head of in/out records made from car c, lot l, the car's space s (may be missing),
 * visit number g (the first still parked) and entry time t.intime: the demo seed and the scale
 * data (bench/src/scale-data.ts) each add their own FROM.
 */
export const insertParkingRecords = (rid: number) => sql`
    INSERT INTO parking_records (rid, lot_id, carno, inlane, intime, outlane, outtime, total_fee, pay_fee, car_type, reason)
    SELECT ${rid}, l.id, c.carlicense, (ARRAY['东门入口1','南门入口2','地库入口'])[1 + g % 3], t.intime,
           CASE WHEN g = 1 THEN '' ELSE (ARRAY['东门出口1','南门出口2','地库出口'])[1 + g % 3] END,
           CASE WHEN g = 1 THEN NULL ELSE t.intime + ((1 + g % 9) * interval '1 hour') END,
           CASE WHEN s.status = 'rented' OR g % 5 <> 0 THEN 0 ELSE 10 * (1 + g % 3) END,
           CASE WHEN s.status = 'rented' OR g % 5 <> 0 THEN 0 ELSE 10 * (1 + g % 3) END,
           CASE WHEN s.status = 'rented' THEN '月租车' WHEN s.status = 'sold' THEN '业主车' ELSE '临时车' END,
           CASE WHEN g = 1 THEN '' WHEN g % 5 = 0 THEN '缴费放行' ELSE '自动放行' END`;

/**
 * Demo data of the parking area (server/src/db/OWNERS.md): lots, a space for each car and idle
 * ones, and the cars' comings and goings (the demo owner's daily).
 */
export async function seedParking(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedLotsAndSpaces(db, rid);
}

async function seedLotsAndSpaces(db: Kysely<DB>, rid: number): Promise<void> {
  const lots = rid === 1 ? ['地下停车场A区', '地面停车场'] : ['翠湖地下车库', '访客停车场'];
  await db
    .insertInto('parking_lots')
    .values(lots.map((title, i) => ({ rid, title, address: i === 0 ? '小区地下一层' : '小区东门内' })))
    .execute();
  // spaces of the first lot: one per car (sold or rented), then some idle ones
  await sql`
    WITH lot AS (SELECT id FROM parking_lots WHERE rid = ${rid} ORDER BY id LIMIT 1),
    c AS (SELECT hid, member_id, carlicense, row_number() OVER (ORDER BY id) AS n FROM cars WHERE rid = ${rid})
    INSERT INTO parking_spaces (rid, lot_id, title, hid, member_id, carlicense, status, start_date, end_date)
    SELECT ${rid}, lot.id, 'A-' || lpad(n::text, 3, '0'), hid, member_id, carlicense,
           CASE WHEN n % 3 = 0 THEN 'rented' ELSE 'sold' END,
           current_date - 300, CASE WHEN n % 3 = 0 THEN current_date + 65 END
    FROM c CROSS JOIN lot`.execute(db);
  await sql`
    INSERT INTO parking_spaces (rid, lot_id, title, status)
    SELECT ${rid}, l.id, 'B-' || lpad(g::text, 3, '0'), 'idle'
    FROM (SELECT id FROM parking_lots WHERE rid = ${rid} ORDER BY id DESC LIMIT 1) l CROSS JOIN generate_series(1, 30) g`.execute(db);
  // in/out records: the demo owner's cars come and go daily, the others now and then
  await sql`
    ${insertParkingRecords(rid)}
    FROM cars c
    JOIN LATERAL (SELECT id FROM parking_lots WHERE rid = c.rid ORDER BY id LIMIT 1) l ON true
    LEFT JOIN parking_spaces s ON s.rid = c.rid AND s.carlicense = c.carlicense
    CROSS JOIN generate_series(1, CASE WHEN c.carlicense IN ('沪A12345', '沪AD12345') THEN 15 ELSE 2 END) g
    CROSS JOIN LATERAL (SELECT now() - ((g * 2) * interval '1 day' + ((c.id + g) % 12) * interval '1 hour') AS intime) t
    WHERE c.rid = ${rid} AND (c.hid % 3 = 0 OR c.carlicense IN ('沪A12345', '沪AD12345', '沪B67890'))`.execute(db);
}
