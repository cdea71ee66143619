import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';

export const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤'.split(
    '',
  );
export const GIVEN = [
  '伟',
  '芳',
  '娜',
  '秀英',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀兰',
  '霞',
  '平',
  '刚',
  '桂英',
  '建华',
  '志强',
  '海燕',
  '晓东',
  '丽华',
  '子涵',
  '欣怡',
  '浩然',
  '梓萱',
  '宇轩',
  '雨桐',
  '俊杰',
  '思远',
  '佳琪',
  '文博',
  '一鸣',
  '诗涵',
  '振华',
  '国庆',
  '红梅',
  '玉兰',
  '建平',
  '春生',
  '雪梅',
  '志明',
  '婷婷',
  '博文',
];
export const MOBILE_PREFIXES = [
  '138',
  '139',
  '137',
  '136',
  '135',
  '150',
  '151',
  '152',
  '158',
  '159',
  '186',
  '187',
  '188',
  '189',
  '131',
  '132',
];

/** Put before a one-character given name (or nothing, the blanks), as most names have two given characters. */
export const MIDDLE = [
  '',
  '',
  '',
  '建',
  '志',
  '晓',
  '文',
  '子',
  '思',
  '佳',
  '雨',
  '国',
  '海',
  '春',
  '玉',
  '德',
  '嘉',
  '宏',
  '亚',
  '新',
  '立',
];

/** A SQL text[] literal of fixed words (ours, never user input). */
export const textArray = (values: readonly string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`);
/** A realistic name from a number (set-based: the same number always gives the same name); 100 names, for the small demo. */
export const nameOf = (n: RawBuilder<unknown>) =>
  sql`(${textArray(SURNAMES)})[1 + (${n} * 7) % ${SURNAMES.length}] || (${textArray(GIVEN)})[1 + (${n} * 13) % ${GIVEN.length}]`;

/**
 * A name from a number for a population of any size: the number is scrambled first (Lehmer's
 * generator, mod 2^31 - 1, so neighbours and multiples of 4 differ), then its digits pick the
 * surname, the given name and, before a one-character given name, a middle character: 41,000 names,
 * so among 150,000 people a name is shared by at most about 30 (as 张伟 is in a real city), not by 2,000.
 */
export const spreadNameOf = (n: RawBuilder<unknown>) => {
  const h = sql`((${n})::bigint * 48271 % 2147483647)`;
  const given = sql`(${textArray(GIVEN)})[1 + ${h} / ${SURNAMES.length} % ${GIVEN.length}]`;
  const middle = sql`(${textArray(MIDDLE)})[1 + ${h} / ${SURNAMES.length * GIVEN.length} % ${MIDDLE.length}]`;
  return sql`(${textArray(SURNAMES)})[1 + ${h} % ${SURNAMES.length}] || CASE WHEN char_length(${given}) = 1 THEN ${middle} ELSE '' END || ${given}`;
};
/** A valid-looking, per-community unique mobile: for ids under 12,000 the 8 digits never repeat for one salt. */
export const mobileOf = (n: RawBuilder<unknown>, salt: number) =>
  sql`(${textArray(MOBILE_PREFIXES)})[1 + ${n} % ${MOBILE_PREFIXES.length}] || lpad(((${n} * 7919 + ${salt}) % 100000000)::text, 8, '0')`;

/** The demo owner 陈建国's mobile. */
export const DEMO_MOBILE = '13800138000';

/**
 * Demo data of the owners area, set-based. Community 1 has the demo owner 陈建国 (13800138000)
 * with 1号楼1单元1101 and 2号楼1单元801, so every tab of the owner drawer shows rows.
 */
export async function seedOwners(db: Kysely<DB>): Promise<void> {
  for (const rid of [1, 2]) {
    const rooms = await db.selectFrom('rooms').select('id').where('rid', '=', rid).limit(1).executeTakeFirst();
    if (!rooms) continue;
    await seedDirectory(db, rid);
  }
  await seedDemoOwner(db, 1);
  for (const rid of await peopledCommunities(db)) await seedCars(db, rid);
}

/**
 * Fresh statistics of the people and their cars, so the planner uses the search indexes from the
 * first request; run once what hangs on the people (spaces, ledgers, visits, sign-ups) is in.
 */
export async function analyzePeople(db: Kysely<DB>): Promise<void> {
  await sql`ANALYZE members, room_members, cars`.execute(db);
}

/**
 * The demo communities with people in them: the coming areas' seeds (parking, cards, access,
 * activities; server/src/db/OWNERS.md) add their rows there, after the owners'.
 */
export async function peopledCommunities(db: Kysely<DB>): Promise<number[]> {
  const rows = await db.selectFrom('members').select('rid').distinct().where('rid', 'in', [1, 2]).orderBy('rid').execute();
  return rows.map((r) => r.rid);
}

/** The rooms of the demo owner 陈建国 in a community: every tab of his drawer shows rows of them. */
export const demoRooms = (rid: number) =>
  sql`(SELECT rm.hid FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = ${rid} AND m.mobile = ${DEMO_MOBILE})`;

/** Owners for lived-in rooms, family members for a third of them, tenants for rented rooms, second rooms for some. */
async function seedDirectory(db: Kysely<DB>, rid: number): Promise<void> {
  const seq = sql`nextval(pg_get_serial_sequence('members', 'id'))`;
  const people: Array<{ relation: string; salt: number; where: RawBuilder<unknown> }> = [
    { relation: 'owner', salt: 0, where: sql`r.state IN ('occupied', 'rented', 'renovating')` },
    { relation: 'family', salt: 3, where: sql`r.state = 'occupied' AND r.id % 3 = 0` },
    { relation: 'tenant', salt: 5, where: sql`r.state = 'rented'` },
  ];
  for (const p of people) {
    await sql`
      WITH src AS MATERIALIZED (
        SELECT r.id AS hid, ${seq} AS mid, (r.id + ${p.salt} * 1000)::int AS n FROM rooms r
        WHERE r.rid = ${rid} AND ${p.where}
      ), person AS (
        INSERT INTO members (rid, id, realname, mobile, gender, wx_isbind, app_isbind, balance, last_login_time, create_time)
        SELECT ${rid}, mid, ${nameOf(sql`n`)}, ${mobileOf(sql`hid`, p.salt)},
               CASE WHEN n % 2 = 0 THEN 'M' ELSE 'F' END,
               CASE WHEN n % 3 = 0 THEN 'N' ELSE 'Y' END, CASE WHEN n % 4 = 0 THEN 'Y' ELSE 'N' END,
               (n % 7) * 50, now() - (((n * 37) % 2000) * interval '1 hour'),
               now() - ((30 + (n * 11) % 900) * interval '1 day')
        FROM src RETURNING id
      )
      INSERT INTO room_members (rid, hid, member_id, relation, move_in_date, create_time)
      SELECT ${rid}, hid, mid, ${p.relation}, (current_date - 30 - (n * 11) % 900), now() - ((30 + (n * 11) % 900) * interval '1 day')
      FROM src`.execute(db);
  }
  await addEmptyRoomOwnersAndMoveOuts(db, rid);
}

/**
 * After the people are in: some owners also own a room that stands empty (空置房; the other
 * empty rooms are unsold), and a quarter of the tenants moved out, kept as history.
 * The demo and the benchmarks' scale data share it.
 */
export async function addEmptyRoomOwnersAndMoveOuts(db: Kysely<DB>, rid: number): Promise<void> {
  await sql`
    WITH v AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM rooms WHERE rid = ${rid} AND state = 'vacant' AND id % 2 = 0),
    o AS (SELECT member_id, row_number() OVER (ORDER BY id) AS n FROM room_members WHERE rid = ${rid} AND relation = 'owner' AND id % 5 = 0)
    INSERT INTO room_members (rid, hid, member_id, relation, move_in_date)
    SELECT ${rid}, v.id, o.member_id, 'owner', current_date - 200 FROM v JOIN o USING (n)`.execute(db);
  await sql`
    UPDATE room_members SET status = 'N', move_out_date = least(move_in_date + 180, current_date)
    WHERE rid = ${rid} AND relation = 'tenant' AND id % 4 = 0`.execute(db);
}

/** 陈建国 owns 1号楼1单元1101 (lives there with his family) and 2号楼1单元801 (rented out). */
async function seedDemoOwner(db: Kysely<DB>, rid: number): Promise<void> {
  const pick = (building: string, room: string) =>
    db
      .selectFrom('rooms as r')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
      .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
      .select('r.id')
      .where('r.rid', '=', rid)
      .where('b.title', '=', building)
      .orderBy(sql`u.title = '1单元'`, 'desc')
      .orderBy(sql`r.title = ${room}`, 'desc')
      .orderBy('r.floor')
      .orderBy('r.id')
      .limit(1)
      .executeTakeFirst();
  const home = await pick('1号楼', '1101');
  const second = await pick('2号楼', '801');
  if (!home || !second) return;
  // the demo rooms belong to the demo family alone: the people generated there go
  const demoHids = [home.id, second.id];
  const generated = (
    await db.selectFrom('room_members').select('member_id').where('rid', '=', rid).where('hid', 'in', demoHids).execute()
  ).map((r) => r.member_id);
  await db.deleteFrom('room_members').where('rid', '=', rid).where('hid', 'in', demoHids).execute();
  if (generated.length) {
    await db
      .deleteFrom('members')
      .where('rid', '=', rid)
      .where('id', 'in', generated)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('room_members as o').select('o.id').whereRef('o.rid', '=', 'members.rid').whereRef('o.member_id', '=', 'members.id'),
          ),
        ),
      )
      .execute();
  }
  await db.updateTable('rooms').set({ state: 'occupied' }).where('rid', '=', rid).where('id', '=', home.id).execute();
  await db.updateTable('rooms').set({ state: 'rented' }).where('rid', '=', rid).where('id', '=', second.id).execute();
  const people = await db
    .insertInto('members')
    .values([
      {
        rid,
        realname: '陈建国',
        mobile: DEMO_MOBILE,
        id_card: '310115197805121234',
        gender: 'M',
        wx_isbind: 'Y',
        app_isbind: 'Y',
        avatar: '',
        remark: '演示业主',
        last_login_time: sql`now() - interval '2 hours'`,
        create_time: sql`now() - interval '800 days'`,
      },
      {
        rid,
        realname: '李秀英',
        mobile: '13900139001',
        gender: 'F',
        wx_isbind: 'Y',
        app_isbind: 'N',
        create_time: sql`now() - interval '790 days'`,
      },
      {
        rid,
        realname: '陈思远',
        mobile: '13700137002',
        gender: 'M',
        wx_isbind: 'N',
        app_isbind: 'Y',
        create_time: sql`now() - interval '400 days'`,
      },
      {
        rid,
        realname: '王磊',
        mobile: '15800158003',
        gender: 'M',
        wx_isbind: 'Y',
        app_isbind: 'N',
        create_time: sql`now() - interval '120 days'`,
      },
    ])
    .returning(['id', 'realname'])
    .execute();
  const id = (name: string) => people.find((p) => p.realname === name)!.id;
  await db
    .insertInto('room_members')
    .values([
      { rid, hid: home.id, member_id: id('陈建国'), relation: 'owner', move_in_date: sql<string>`current_date - 800` },
      { rid, hid: home.id, member_id: id('李秀英'), relation: 'family', move_in_date: sql<string>`current_date - 790` },
      { rid, hid: home.id, member_id: id('陈思远'), relation: 'family', move_in_date: sql<string>`current_date - 400` },
      { rid, hid: second.id, member_id: id('陈建国'), relation: 'owner', move_in_date: sql<string>`current_date - 600` },
      { rid, hid: second.id, member_id: id('王磊'), relation: 'tenant', move_in_date: sql<string>`current_date - 120` },
    ])
    .execute();
  await db
    .insertInto('cars')
    .values([
      { rid, hid: home.id, member_id: id('陈建国'), carlicense: '沪A12345', car_type: 'small', color: '黑色', brand: '大众帕萨特' },
      { rid, hid: home.id, member_id: id('李秀英'), carlicense: '沪AD12345', car_type: 'new_energy', color: '白色', brand: '比亚迪汉' },
      { rid, hid: second.id, member_id: id('王磊'), carlicense: '沪B67890', car_type: 'small', color: '银色', brand: '丰田卡罗拉' },
    ])
    .execute();
}

const PROVINCE: Record<number, string> = { 1: '沪', 2: '浙' };

async function seedCars(db: Kysely<DB>, rid: number): Promise<void> {
  const p = PROVINCE[rid] ?? '沪';
  // about half of the owners have a car; every fourth is a new-energy car with an 8-character plate
  await sql`
    INSERT INTO cars (rid, hid, member_id, carlicense, car_type, color, brand, status, create_time)
    SELECT ${rid}, rm.hid, rm.member_id,
           CASE WHEN rm.hid % 4 = 0 THEN ${`${p}AD`} || lpad(((rm.hid * 37) % 100000)::text, 5, '0')
                ELSE ${`${p}A`} || lpad(((rm.hid * 37 + 11) % 100000)::text, 5, '0') END,
           CASE WHEN rm.hid % 4 = 0 THEN 'new_energy' ELSE 'small' END,
           (ARRAY['黑色','白色','银色','灰色','红色','蓝色'])[1 + rm.hid % 6],
           (ARRAY['大众朗逸','丰田凯美瑞','本田雅阁','比亚迪秦','特斯拉Model 3','别克英朗','日产轩逸','吉利星越'])[1 + rm.hid % 8],
           CASE WHEN rm.hid % 23 = 0 THEN 'N' ELSE 'Y' END, rm.create_time
    FROM room_members rm
    WHERE rm.rid = ${rid} AND rm.relation = 'owner' AND rm.status = 'Y' AND rm.hid % 2 = 0
      AND NOT EXISTS (SELECT 1 FROM cars c WHERE c.rid = rm.rid AND c.hid = rm.hid)
    ON CONFLICT (rid, carlicense) DO NOTHING`.execute(db);
}
