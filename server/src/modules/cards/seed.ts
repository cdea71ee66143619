import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';

/**
 * Demo data of the cards area (server/src/db/OWNERS.md): the stores, the members' points and
 * balance ledgers, and each member's balance and points as their ledgers add up.
 */
export async function seedCards(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedLedgers(db, rid);
  await sql`
    UPDATE members m SET
      balance = coalesce((SELECT sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END) FROM balance_ledger l
                          WHERE l.rid = m.rid AND l.member_id = m.id AND l.status = 'Y'), m.balance),
      bonus = coalesce((SELECT sum(num) FROM bonus_ledger l WHERE l.rid = m.rid AND l.member_id = m.id), m.bonus)`.execute(db);
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
