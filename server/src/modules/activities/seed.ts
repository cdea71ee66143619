import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { demoRooms, peopledCommunities } from '../owners/seed.js';
import { createSignupBill } from './money.js';

/**
 * Demo data of the activities area (server/src/db/OWNERS.md; docs/product.md#activities), in each
 * peopled community: 中秋游园会 (free, open, a form, sign-ups of the demo owner's rooms and others),
 * 亲子烘焙课 (paid, full: every seat waiting for payment at the cashier, two on the waiting list),
 * 业主羽毛球友谊赛 (ended: checked in and no-shows).
 */
export async function seedActivities(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
  // each carries one of its community's activity types (业务分类, seeded by the dictionary's seed)
  await sql`
    UPDATE activities a SET category_id = c.id
    FROM (SELECT rid, id, row_number() OVER (PARTITION BY rid ORDER BY sort, id) AS n, count(*) OVER (PARTITION BY rid) AS k
          FROM categories WHERE module = 'activity' AND status = 'Y') c
    WHERE c.rid = a.rid AND c.n = 1 + a.id % c.k`.execute(db);
}

const FORM = [
  { id: 'f1', label: '参加人数（含本人）', type: 'number', required: 'Y', options: [] },
  { id: 'f2', label: '感兴趣的项目', type: 'checkbox', required: 'N', options: ['猜灯谜', '做月饼', '亲子游戏'] },
  { id: 'f3', label: '联系电话', type: 'mobile', required: 'N', options: [] },
];
const BAKING_FORM = [{ id: 'f1', label: '孩子年龄', type: 'radio', required: 'Y', options: ['3-6岁', '7-10岁', '11岁以上'] }];
const BODY = (t: string) => `<p>${t}</p><p>欢迎各位业主踊跃报名，活动当天请凭报名码签到。</p>`;

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const creator = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'steward').executeTakeFirst();
  const by = { created_by: creator ? Number(creator.id) : null, create_user: creator?.name ?? '钱管家' };
  const [fair, baking, badminton] = await db
    .insertInto('activities')
    .values([
      {
        rid,
        title: '中秋游园会',
        body: BODY('中秋佳节，社区在中心花园举办游园会：猜灯谜、做月饼、亲子游戏。'),
        place: '中心花园',
        limit_num: 200,
        join_type: 'all',
        join_mode: 'household',
        companions_max: 3,
        is_pay: 'N',
        status: 'Y',
        form: JSON.stringify(FORM),
        start_time: sql`now() - interval '5 days'`,
        end_time: sql`now() + interval '10 days'`,
        event_start_time: sql`now() + interval '12 days'`,
        event_end_time: sql`now() + interval '12 days 4 hours'`,
        ...by,
        create_time: sql`now() - interval '6 days'`,
      },
      {
        rid,
        title: '亲子烘焙课',
        body: BODY('烘焙老师带孩子们做饼干和蛋糕，材料费含在报名费内。'),
        place: '会所二楼活动室',
        limit_num: 6,
        min_num: 4,
        join_type: 'resident',
        join_mode: 'person',
        household_limit: 2,
        is_pay: 'Y',
        price: '68.00',
        pay_minutes: 1440,
        refund_rule: 'hours',
        refund_hours: 24,
        refund_fee_type: 'percent',
        refund_fee: '10',
        waitlist: 'Y',
        confirm_hours: 12,
        status: 'Y',
        form: JSON.stringify(BAKING_FORM),
        start_time: sql`now() - interval '2 days'`,
        end_time: sql`now() + interval '5 days'`,
        event_start_time: sql`now() + interval '7 days'`,
        event_end_time: sql`now() + interval '7 days 3 hours'`,
        ...by,
        create_time: sql`now() - interval '3 days'`,
      },
      {
        rid,
        title: '业主羽毛球友谊赛',
        body: BODY('业主羽毛球友谊赛，单打与双打，赛后颁奖。'),
        place: '社区体育馆',
        limit_num: 32,
        join_type: 'owner',
        join_mode: 'person',
        is_pay: 'N',
        status: 'N',
        start_time: sql`now() - interval '60 days'`,
        end_time: sql`now() - interval '40 days'`,
        event_start_time: sql`now() - interval '35 days'`,
        event_end_time: sql`now() - interval '35 days' + interval '6 hours'`,
        ...by,
        create_time: sql`now() - interval '62 days'`,
      },
    ])
    .returning(['id', 'title', 'price'])
    .execute();
  const demo = demoRooms(rid);
  // the fair: the demo owner's rooms and every ninth household, with answers
  await sql`
    INSERT INTO activity_signups (rid, no, activity_id, member_id, hid, companions, answers, status, pay_status, create_time)
    SELECT ${rid}, 'BM' || lpad(nextval('activity_signups_id_seq')::text, 8, '0'), ${fair!.id}, x.member_id, x.hid, x.id % 3,
      jsonb_build_object('f1', 1 + x.id % 3, 'f2', CASE WHEN x.id % 2 = 0 THEN '["猜灯谜","做月饼"]'::jsonb ELSE '["亲子游戏"]'::jsonb END),
      'Y', 'N', now() - ((1 + (x.id % 5)) * interval '1 day')
    FROM (SELECT DISTINCT ON (rm.hid) rm.id, rm.hid, rm.member_id FROM room_members rm
          WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid IN ${demo} OR rm.id % 9 = 0)
          ORDER BY rm.hid, rm.relation = 'owner' DESC, rm.id LIMIT 40) x
    ON CONFLICT (rid, activity_id, member_id) WHERE status <> 'C' DO NOTHING`.execute(db);
  // the badminton match: owners, two thirds checked in, the rest no-shows
  await sql`
    INSERT INTO activity_signups (rid, no, activity_id, member_id, hid, status, pay_status, checked_in_at, create_time)
    SELECT ${rid}, 'BM' || lpad(nextval('activity_signups_id_seq')::text, 8, '0'), ${badminton!.id}, x.member_id, x.hid,
      CASE WHEN x.n % 3 = 0 THEN 'A' ELSE 'S' END, 'N',
      CASE WHEN x.n % 3 = 0 THEN NULL ELSE now() - interval '35 days' + interval '10 minutes' END,
      now() - interval '50 days'
    FROM (SELECT rm.hid, rm.member_id, row_number() OVER (ORDER BY rm.hid IN ${demo} DESC, rm.id) AS n FROM room_members rm
          WHERE rm.rid = ${rid} AND rm.status = 'Y' AND rm.relation = 'owner' AND (rm.hid IN ${demo} OR rm.id % 7 = 0)
          LIMIT 20) x
    ON CONFLICT (rid, activity_id, member_id) WHERE status <> 'C' DO NOTHING`.execute(db);
  // the baking class: six seats waiting for payment at the cashier (bills of the rooms), two on the waiting list
  const people = await db
    .selectFrom('room_members')
    .select(['hid', 'member_id'])
    .where('rid', '=', rid)
    .where('status', '=', 'Y')
    .where('relation', 'in', ['owner', 'tenant'])
    // not the rooms the demo's walks pay at the cashier (the demo owner's, 1号楼 and 2号楼): their bills stay as those walks expect
    .where(sql<boolean>`hid NOT IN ${demo} AND id % 11 = 0`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('rooms as r')
          .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
          .select('r.id')
          .whereRef('r.rid', '=', 'room_members.rid')
          .whereRef('r.id', '=', 'room_members.hid')
          .where('b.title', 'not in', ['1号楼', '2号楼']),
      ),
    )
    .orderBy('id')
    .limit(16)
    .execute();
  const seen = new Set<string>();
  let n = 0;
  for (const p of people) {
    if (n >= 8) break;
    if (seen.has(String(p.member_id))) continue;
    seen.add(String(p.member_id));
    const { rows } = await sql<{ id: string }>`SELECT nextval('activity_signups_id_seq')::text AS id`.execute(db);
    const id = Number(rows[0]!.id);
    const no = `BM${String(id).padStart(8, '0')}`;
    const waiting = n >= 6;
    const billId = waiting ? null : await createSignupBill(db, rid, { title: baking!.title, price: String(baking!.price) }, { hid: p.hid });
    await db
      .insertInto('activity_signups')
      .values({
        rid,
        id,
        no,
        activity_id: baking!.id,
        member_id: p.member_id,
        hid: p.hid,
        answers: JSON.stringify({ f1: ['3-6岁', '7-10岁', '11岁以上'][n % 3] }),
        status: waiting ? 'W' : 'P',
        pay_status: 'U',
        amount: baking!.price,
        bill_id: billId,
        pay_deadline: waiting ? null : sql`now() + interval '20 hours'`,
        waited_at: waiting ? sql`now() - interval '1 hour' + ${n} * interval '1 minute'` : null,
        create_time: sql`now() - interval '1 day' + ${n} * interval '10 minutes'`,
      })
      .execute();
    n++;
  }
}
