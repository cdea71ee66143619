import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { demoRooms, peopledCommunities } from '../owners/seed.js';

/** Demo data of the activities area (server/src/db/OWNERS.md): three activities and their sign-ups. */
export async function seedActivities(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const demo = demoRooms(rid);
  const activities = await db
    .insertInto('activities')
    .values([
      {
        rid,
        title: '中秋游园会',
        limit_num: 200,
        join_type: 'all',
        is_pay: 'N',
        status: 'Y',
        start_time: sql`now() - interval '5 days'`,
        end_time: sql`now() + interval '10 days'`,
        event_start_time: sql`now() + interval '12 days'`,
        event_end_time: sql`now() + interval '12 days 4 hours'`,
        create_user: '钱管家',
        create_time: sql`now() - interval '6 days'`,
      },
      {
        rid,
        title: '业主羽毛球友谊赛',
        limit_num: 32,
        join_type: 'owner',
        is_pay: 'Y',
        status: 'N',
        start_time: sql`now() - interval '60 days'`,
        end_time: sql`now() - interval '40 days'`,
        event_start_time: sql`now() - interval '35 days'`,
        event_end_time: sql`now() - interval '35 days' + interval '6 hours'`,
        create_user: '张经理',
        create_time: sql`now() - interval '62 days'`,
      },
      {
        rid,
        title: '亲子手工课堂',
        limit_num: 20,
        join_type: 'member',
        is_pay: 'N',
        status: 'E',
        start_time: sql`now() + interval '3 days'`,
        end_time: sql`now() + interval '20 days'`,
        event_start_time: sql`now() + interval '25 days'`,
        event_end_time: sql`now() + interval '25 days 2 hours'`,
        create_user: '钱管家',
        create_time: sql`now() - interval '1 day'`,
      },
    ])
    .returning('id')
    .execute();
  const ids = sql.raw(`ARRAY[${activities.map((a) => a.id).join(',')}]::bigint[]`);
  await sql`
    INSERT INTO activity_signups (rid, activity_id, member_id, hid, create_time)
    SELECT ${rid}, a.id, rm.member_id, rm.hid, now() - ((1 + (rm.id % 5)) * interval '1 day')
    FROM room_members rm CROSS JOIN unnest(${ids}) AS a(id)
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid IN ${demo} OR (rm.id + a.id) % 9 = 0)
    ON CONFLICT (rid, activity_id, member_id) DO NOTHING`.execute(db);
}
