import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { demoRooms, mobileOf, nameOf, peopledCommunities } from '../owners/seed.js';

/**
 * Demo data of the access area (server/src/db/OWNERS.md): visitors to a quarter of the lived-in
 * rooms, the doors, their passage records and the people's face permissions (the demo owner's
 * rooms have plenty of each).
 */
export async function seedAccess(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const demo = demoRooms(rid);
  const lived = sql`(SELECT DISTINCT ON (rm.hid) rm.hid, rm.member_id FROM room_members rm
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid % 4 = 0 OR rm.hid IN ${demo}) ORDER BY rm.hid, rm.id)`;
  await sql`
    INSERT INTO visitors (rid, hid, member_id, realname, mobile, visit_cause, status, visit_time, create_time)
    SELECT ${rid}, r.hid, r.member_id, ${nameOf(sql`(r.hid * 5 + g)`)}, ${mobileOf(sql`(r.hid * 3 + g)`, 7)},
           (ARRAY['亲友拜访','快递配送','家政服务','装修施工','维修上门','外卖配送'])[1 + (r.hid + g) % 6],
           (ARRAY['','Y','D','C','3','D'])[1 + (r.hid + g) % 6],
           now() + ((3 - g * 2) * interval '1 day' + (g) * interval '1 hour'), now() - ((g * 2) * interval '1 day')
    FROM ${lived} r CROSS JOIN generate_series(1, CASE WHEN r.hid IN ${demo} THEN 12 ELSE 1 END) g`.execute(db);
  const devices =
    rid === 1
      ? [
          ['1号楼1单元门禁', '1号楼1单元大堂'],
          ['东门人行闸机', '小区东门'],
          ['地下车库电梯厅', '地下一层电梯厅'],
          ['南门人行闸机', '小区南门'],
        ]
      : [
          ['翠湖苑正门闸机', '小区正门'],
          ['1号楼门禁', '1号楼大堂'],
        ];
  await db
    .insertInto('access_devices')
    .values(devices.map(([title, address]) => ({ rid, title: title!, address: address! })))
    .execute();
  await sql`
    INSERT INTO access_records (rid, device_id, member_id, hid, rec_time)
    SELECT ${rid}, d.id, r.member_id, r.hid, now() - ((g * 7 + r.hid % 5) * interval '1 hour')
    FROM ${lived} r CROSS JOIN generate_series(1, CASE WHEN r.hid IN ${demo} THEN 24 ELSE 2 END) g
    JOIN LATERAL (SELECT id FROM access_devices WHERE rid = ${rid} ORDER BY id OFFSET (g % ${devices.length}) LIMIT 1) d ON true`.execute(
    db,
  );
  await sql`
    INSERT INTO face_permissions (rid, member_id, hid, area_title, door_start_time, door_end_time, status, create_user, create_time)
    SELECT ${rid}, rm.member_id, rm.hid, (ARRAY['全部门禁','东门人行闸机','单元门禁','地下车库'])[1 + (rm.id + g) % 4],
           date_trunc('day', now()) - ((100 * g) * interval '1 day'), date_trunc('day', now()) + ((365 - 30 * g) * interval '1 day'),
           (ARRAY['Y','W','P','N',''])[1 + (rm.id + g) % 5], CASE WHEN g % 2 = 0 THEN '业主小程序' ELSE '钱管家' END,
           now() - ((g * 9 + rm.id % 3) * interval '1 day')
    FROM room_members rm CROSS JOIN generate_series(1, CASE WHEN rm.hid IN ${demo} THEN 4 ELSE 1 END) g
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid IN ${demo} OR rm.hid % 5 = 0)`.execute(db);
}
