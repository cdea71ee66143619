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
const mobileOf = (n: RawBuilder<unknown>, salt: number) =>
  sql`(${textArray(MOBILE_PREFIXES)})[1 + ${n} % ${MOBILE_PREFIXES.length}] || lpad(((${n} * 7919 + ${salt}) % 100000000)::text, 8, '0')`;

/** The demo owner 陈建国's mobile. */
export const DEMO_MOBILE = '13800138000';

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
  for (const rid of [1, 2]) {
    if (!(await db.selectFrom('members').select('id').where('rid', '=', rid).limit(1).executeTakeFirst())) continue;
    await seedCarsAndParking(db, rid);
    await seedLedgers(db, rid);
    await seedVisitorsActivitiesAccess(db, rid);
  }
  await sql`
    UPDATE members m SET
      balance = coalesce((SELECT sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END) FROM balance_ledger l
                          WHERE l.rid = m.rid AND l.member_id = m.id AND l.status = 'Y'), m.balance),
      bonus = coalesce((SELECT sum(num) FROM bonus_ledger l WHERE l.rid = m.rid AND l.member_id = m.id), m.bonus)`.execute(db);
  // fresh statistics, so the planner uses the search indexes from the first request
  await sql`ANALYZE members, room_members, cars`.execute(db);
}

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

async function seedCarsAndParking(db: Kysely<DB>, rid: number): Promise<void> {
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

async function seedLedgers(db: Kysely<DB>, rid: number): Promise<void> {
  const stores = rid === 1 ? ['阳光便利店', '幸福里超市', '邻里洗衣店', '康乐大药房'] : ['翠湖便利店', '湖畔咖啡'];
  await db
    .insertInto('merchants')
    .values(stores.map((merchant, i) => ({ rid, merchant, mobile: `0215888${String(1000 + i)}` })))
    .execute();
  const people = sql`(
    SELECT DISTINCT ON (m.id) m.id, rm.hid, m.realname, (m.mobile = ${DEMO_MOBILE}) AS demo FROM members m
    JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y' AND rm.relation = 'owner'
    WHERE m.rid = ${rid} AND (m.mobile = ${DEMO_MOBILE} OR m.id % 6 = 0) ORDER BY m.id, rm.id)`;
  // points: earned on purchases and fee payments, spent at stores
  await sql`
    INSERT INTO bonus_ledger (rid, member_id, merchant_id, orderid, name, code, user_code, num, pay_cate, cate, source, action_user, create_time)
    SELECT ${rid}, p.id, s.id, 'JF' || to_char(now() - ((g * 5) * interval '1 day'), 'YYYYMMDD') || lpad((p.id * 100 + g)::text, 8, '0'),
           '幸福里会员卡', 'VIP' || lpad(p.id::text, 8, '0'), 'U' || lpad((p.id * 7)::text, 8, '0'),
           CASE WHEN g % 4 = 0 THEN -50 ELSE 20 * (1 + g % 5) END,
           CASE WHEN g % 4 = 0 THEN '积分抵扣' WHEN g % 4 = 1 THEN '消费赠送' WHEN g % 4 = 2 THEN '缴费赠送' ELSE '签到奖励' END,
           CASE WHEN g % 4 = 0 THEN '减少' ELSE '增加' END,
           (ARRAY['收银台','小程序','APP'])[1 + g % 3], (ARRAY['赵收银','系统','钱管家'])[1 + g % 3],
           now() - ((g * 5) * interval '1 day' + (g) * interval '1 hour')
    FROM ${people} p
    CROSS JOIN generate_series(1, CASE WHEN p.demo THEN 14 ELSE 3 END) g
    JOIN LATERAL (SELECT id FROM merchants WHERE rid = ${rid} ORDER BY id OFFSET (g % ${stores.length}) LIMIT 1) s ON true`.execute(db);
  // balance: a top-up, then payments of fees and store purchases from it
  await sql`
    INSERT INTO balance_ledger (rid, member_id, hid, merchant_id, orderid, io_type, feetype, paytype, total_fee, status, create_user, create_time)
    SELECT ${rid}, p.id, CASE WHEN g % 3 = 0 THEN NULL ELSE p.hid END, CASE WHEN g % 3 = 0 THEN s.id END,
           'YE' || to_char(now() - ((g * 6) * interval '1 day'), 'YYYYMMDD') || lpad((p.id * 100 + g)::text, 8, '0'),
           CASE WHEN g = 1 THEN 1 ELSE 2 END,
           CASE WHEN g = 1 THEN 'recharge' WHEN g % 3 = 0 THEN 'shop' ELSE (ARRAY['property','parking','water','electricity'])[1 + g % 4] END,
           CASE WHEN g = 1 THEN 'wechat' ELSE 'balance' END,
           CASE WHEN g = 1 THEN 5000 ELSE 35 + (g * 47) % 260 END,
           CASE WHEN g % 7 = 0 THEN 'N' ELSE 'Y' END,
           CASE WHEN g % 3 = 0 THEN '门店收银' ELSE '赵收银' END,
           now() - (((20 - g) * 6) * interval '1 day')
    FROM ${people} p
    CROSS JOIN generate_series(1, CASE WHEN p.demo THEN 14 ELSE 3 END) g
    JOIN LATERAL (SELECT id FROM merchants WHERE rid = ${rid} ORDER BY id OFFSET (g % ${stores.length}) LIMIT 1) s ON true`.execute(db);
}

async function seedVisitorsActivitiesAccess(db: Kysely<DB>, rid: number): Promise<void> {
  const demoRooms = sql`(SELECT rm.hid FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = ${rid} AND m.mobile = ${DEMO_MOBILE})`;
  const lived = sql`(SELECT DISTINCT ON (rm.hid) rm.hid, rm.member_id FROM room_members rm
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid % 4 = 0 OR rm.hid IN ${demoRooms}) ORDER BY rm.hid, rm.id)`;
  await sql`
    INSERT INTO visitors (rid, hid, member_id, realname, mobile, visit_cause, status, visit_time, create_time)
    SELECT ${rid}, r.hid, r.member_id, ${nameOf(sql`(r.hid * 5 + g)`)}, ${mobileOf(sql`(r.hid * 3 + g)`, 7)},
           (ARRAY['亲友拜访','快递配送','家政服务','装修施工','维修上门','外卖配送'])[1 + (r.hid + g) % 6],
           (ARRAY['','Y','D','C','3','D'])[1 + (r.hid + g) % 6],
           now() + ((3 - g * 2) * interval '1 day' + (g) * interval '1 hour'), now() - ((g * 2) * interval '1 day')
    FROM ${lived} r CROSS JOIN generate_series(1, CASE WHEN r.hid IN ${demoRooms} THEN 12 ELSE 1 END) g`.execute(db);
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
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid IN ${demoRooms} OR (rm.id + a.id) % 9 = 0)
    ON CONFLICT (rid, activity_id, member_id) DO NOTHING`.execute(db);
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
    FROM ${lived} r CROSS JOIN generate_series(1, CASE WHEN r.hid IN ${demoRooms} THEN 24 ELSE 2 END) g
    JOIN LATERAL (SELECT id FROM access_devices WHERE rid = ${rid} ORDER BY id OFFSET (g % ${devices.length}) LIMIT 1) d ON true`.execute(
    db,
  );
  await sql`
    INSERT INTO face_permissions (rid, member_id, hid, area_title, door_start_time, door_end_time, status, create_user, create_time)
    SELECT ${rid}, rm.member_id, rm.hid, (ARRAY['全部门禁','东门人行闸机','单元门禁','地下车库'])[1 + (rm.id + g) % 4],
           date_trunc('day', now()) - ((100 * g) * interval '1 day'), date_trunc('day', now()) + ((365 - 30 * g) * interval '1 day'),
           (ARRAY['Y','W','P','N',''])[1 + (rm.id + g) % 5], CASE WHEN g % 2 = 0 THEN '业主小程序' ELSE '钱管家' END,
           now() - ((g * 9 + rm.id % 3) * interval '1 day')
    FROM room_members rm CROSS JOIN generate_series(1, CASE WHEN rm.hid IN ${demoRooms} THEN 4 ELSE 1 END) g
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid IN ${demoRooms} OR rm.hid % 5 = 0)`.execute(db);
}
