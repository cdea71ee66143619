import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { demoRooms, mobileOf, nameOf, peopledCommunities } from '../owners/seed.js';
import { syncCar } from './car.js';

/**
 * The visitor area's demo (docs/product.md#visitors): each community's settings (阳光花园 without
 * review, 翠湖苑 with it; both reserve spaces in the lot with the most idle spaces) and the visitors of the week around
 * today to a quarter of the lived-in rooms (the demo owner's rooms have a dozen each), in every status:
 * the past ones came (D, one or two uses), were cancelled or refused; today's came, are expected or wait
 * for review; the coming ones are expected, wait or were cancelled. Some come by car: the live ones hold
 * a space of the lot and its white list, the past ones ended.
 */
export async function seedVisitors(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  // the lot with the most idle spaces holds the visitors' cars
  const lot = await db
    .selectFrom('parking_spaces')
    .select('lot_id as id')
    .where('rid', '=', rid)
    .where('status', '=', 'idle')
    .groupBy('lot_id')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('lot_id')
    .executeTakeFirst();
  await db
    .insertInto('visitor_settings')
    .values({
      rid,
      review: rid === 1 ? 'N' : 'Y',
      push_face: 'N',
      reserve_car: lot ? 'Y' : 'N',
      lot_id: lot?.id ?? null,
      free_minutes: 120,
      daily_car_limit: 3,
    })
    .execute();
  const admin = await db.selectFrom('accounts').select('id').where('username', '=', 'admin').executeTakeFirst();
  const demo = demoRooms(rid);
  const lived = sql`(SELECT DISTINCT ON (rm.hid) rm.hid, rm.member_id FROM room_members rm
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid % 4 = 0 OR rm.hid IN ${demo}) ORDER BY rm.hid, rm.id)`;
  // day: -3 … +3 around today; the status fits the day (see the comment above)
  await sql`
    INSERT INTO visitors (rid, hid, member_id, realname, gender, mobile, visit_cause, visit_note, status, visit_time, leave_time,
                          carlicense, companions, pass_code, pass_uses, last_pass_at, car_status, created_by, create_time)
    SELECT ${rid}, x.hid, x.member_id, ${nameOf(sql`(x.hid * 5 + x.g)`)}, (ARRAY['M','F',''])[1 + (x.hid + x.g) % 3],
           ${mobileOf(sql`(x.hid * 3 + x.g)`, 7)},
           (ARRAY['亲友拜访','快递配送','家政服务','装修施工','维修上门','外卖配送'])[1 + (x.hid + x.g) % 6],
           (ARRAY['看望父母','送大件快递','每周保洁','厨房改造','空调维修','午餐外卖'])[1 + (x.hid + x.g) % 6],
           x.status, x.visit, x.visit + ((2 + x.g % 3) * interval '1 hour'),
           CASE WHEN x.car THEN '沪' || (ARRAY['A','B','C','D','E'])[1 + x.g % 5] || lpad(((x.hid * 37 + x.g * 11) % 100000)::text, 5, '0') ELSE '' END,
           x.g % 3, upper(substr(md5(${rid}::text || '-' || x.hid::text || '-' || x.g::text), 1, 12)),
           CASE WHEN x.status = 'D' THEN 1 + x.g % 2 ELSE 0 END,
           CASE WHEN x.status = 'D' THEN x.visit + interval '5 minutes' END,
           CASE WHEN NOT x.car THEN '' WHEN x.status = '' THEN 'P' WHEN x.status IN ('C', '3') THEN 'X' ELSE 'N' END,
           ${admin?.id ?? null}, least(x.visit - interval '1 day', now())
    FROM (
      SELECT r.hid, r.member_id, g, d.day,
             date_trunc('day', now()) + d.day * interval '1 day' + ((9 + (r.hid + g) % 9) * interval '1 hour') AS visit,
             (g % 3 = 0) AS car,
             CASE
               WHEN d.day < 0 THEN (ARRAY['D','D','C','3'])[1 + (r.hid + g) % 4]
               WHEN d.day = 0 THEN (ARRAY['D','Y','',''])[1 + (r.hid + g) % 4]
               ELSE (ARRAY['Y','Y','','C'])[1 + (r.hid + g) % 4]
             END AS status
      FROM ${lived} r
      CROSS JOIN generate_series(1, CASE WHEN r.hid IN ${demo} THEN 12 ELSE 1 END) g
      CROSS JOIN LATERAL (SELECT ((r.hid + g * 3) % 7) - 3 AS day) d
    ) x`.execute(db);
  // a car of a visit whose free time is over ended; the live ones reserve as a registration does
  await sql`
    UPDATE visitors SET car_status = 'E', lot_id = ${lot?.id ?? null}, free_until = visit_time + interval '120 minutes',
           car_remark = '免费停车时长已到，车位已释放'
    WHERE rid = ${rid} AND car_status = 'N' AND visit_time + interval '120 minutes' <= now() AND ${lot !== undefined}`.execute(db);
  const live = await db.selectFrom('visitors').select('id').where('rid', '=', rid).where('car_status', '=', 'N').orderBy('id').execute();
  for (const v of live) await syncCar(db, rid, Number(v.id), true);
}
