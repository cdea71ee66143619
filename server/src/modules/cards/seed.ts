import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { addDays } from '@wuye/contract';
import { today } from '../../lib/wire.js';
import { settleUnspentPoints } from './ledger.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';
import { seedCoupons } from './seedCoupons.js';
import { seedLinks } from './seedLinks.js';
import { seedMall } from './seedMall.js';
import { seedMerchants } from './seedMerchants.js';

/**
 * Demo data of the cards area (server/src/db/OWNERS.md): the stores, the members' points and
 * balance ledgers, and each member's balance and points as their ledgers add up.
 */
export async function seedCards(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) {
    await seedOpenings(db, rid);
    await seedLedgers(db, rid);
    await seedMerchants(db, rid);
    await seedTemplates(db, rid);
    await seedMemberCards(db, rid);
    await seedRecharges(db, rid);
    await seedCounterOrders(db, rid);
  }
  // each member's balance and points are the sums of their ledgers; each row says what it left
  await sql`
    UPDATE members m SET
      balance = coalesce((SELECT sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END) FROM balance_ledger l
                          WHERE l.rid = m.rid AND l.member_id = m.id AND l.status = 'Y'), 0),
      bonus = coalesce((SELECT sum(num) FROM bonus_ledger l WHERE l.rid = m.rid AND l.member_id = m.id), 0)`.execute(db);
  await sql`
    UPDATE balance_ledger l SET balance_after = s.after FROM (
      SELECT rid, id, sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END)
        OVER (PARTITION BY rid, member_id ORDER BY create_time, id) AS after
      FROM balance_ledger WHERE status = 'Y') s
    WHERE l.rid = s.rid AND l.id = s.id`.execute(db);
  await sql`
    UPDATE bonus_ledger l SET bonus_after = s.after FROM (
      SELECT rid, id, sum(num) OVER (PARTITION BY rid, member_id ORDER BY create_time, id) AS after FROM bonus_ledger) s
    WHERE l.rid = s.rid AND l.id = s.id`.execute(db);
  await seedMall(db);
  await seedCoupons(db);
  // last: every points row is in by now
  await seedPointsExpiry(db);
  await seedLinks(db);
}

/**
 * The day each earning expires under the member's card (the row's year's next year end, or N
 * months on), and what of it is unspent: the spends took the earliest to expire first.
 */
async function seedPointsExpiry(db: Kysely<DB>): Promise<void> {
  await sql`
    UPDATE bonus_ledger l SET expires_on = CASE t.expiry
        WHEN 'next_year_end' THEN make_date(extract(year FROM l.create_time)::int + 1, 12, 31)
        WHEN 'rolling' THEN (l.create_time::date + make_interval(months => t.expiry_months))::date END
    FROM member_cards c JOIN card_templates t ON t.rid = c.rid AND t.id = c.template_id
    WHERE l.num > 0 AND c.rid = l.rid AND c.member_id = l.member_id AND c.status IN ('I', 'Y', 'F')`.execute(db);
  await settleUnspentPoints(db);
}

/** The balances the owners came with, as opening rows: a balance comes only through its ledger. */
async function seedOpenings(db: Kysely<DB>, rid: number): Promise<void> {
  await sql`
    INSERT INTO balance_ledger (rid, member_id, orderid, io_type, feetype, paytype, total_fee, status, remark, create_user, create_time)
    SELECT rid, id, 'QC' || lpad(id::text, 10, '0'), 1, 'opening', '', balance, 'Y', '期初余额（系统上线导入）', '系统', create_time
    FROM members WHERE rid = ${rid} AND balance > 0 AND mobile <> ${DEMO_MOBILE}`.execute(db);
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
           'YE' || to_char(now() - (((20 - g) * 6) * interval '1 day'), 'YYYYMMDD') || lpad((p.id * 100 + g)::text, 8, '0'),
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
  // the demo owner (1101) topped up what they have spent since: their balance is nil, so a recharge
  // at the desk shows as the whole balance (issue 42's walk)
  await sql`
    UPDATE balance_ledger l SET total_fee = (
      SELECT sum(o.total_fee) FROM balance_ledger o WHERE o.rid = l.rid AND o.member_id = l.member_id AND o.io_type = 2 AND o.status = 'Y')
    FROM members m WHERE m.rid = l.rid AND m.id = l.member_id AND m.mobile = ${DEMO_MOBILE}
      AND l.rid = ${rid} AND l.io_type = 1 AND l.feetype = 'recharge'`.execute(db);
}

/** The community's member card with points and a balance, and a stopped one of last year's promotion. */
async function seedTemplates(db: Kysely<DB>, rid: number): Promise<void> {
  const community = await db.selectFrom('regions').select('title').where('id', '=', rid).executeTakeFirstOrThrow();
  const year = Number(today().slice(0, 4)) - 1;
  await db
    .insertInto('card_templates')
    .values([
      {
        rid,
        name: `${community.title.slice(0, 6)}会员卡`,
        color: '#C9A45C',
        notice: '结账时请出示会员卡',
        description: '本卡可在小区物业服务中心及合作商户使用，储值可抵扣物业费；积分可在积分商城兑换礼品。',
        discount: 98,
        earn_per_yuan: 1,
        earn_cap: 5000,
        redeem_points: 100,
        redeem_money: '1.00',
        redeem_min_order: '10.00',
        redeem_max_points: 10000,
        expiry: 'next_year_end',
      },
      {
        rid,
        name: `${year}年度促销卡`,
        color: '#D9534F',
        notice: '促销卡已停发',
        validity: 'range',
        valid_start: `${year}-01-01`,
        valid_end: `${year}-12-31`,
        discount: 95,
        supply_balance: 'N',
        earn_per_yuan: 2,
        redeem_points: 0,
        expiry: 'rolling',
        expiry_months: 12,
        status: 'N',
      },
    ])
    .execute();
}

/**
 * Members' cards on the community's card: most owners who keep ledgers and as many others (300 in
 * the first community), at every level and in every state, one lost card with its replacement and
 * one closed card; the demo owner (1101) has none yet, so a card can be opened for them. The ledger
 * rows of card holders name their card.
 */
async function seedMemberCards(db: Kysely<DB>, rid: number): Promise<void> {
  const template = await db
    .selectFrom('card_templates')
    .select('id')
    .where('rid', '=', rid)
    .where('status', '=', 'Y')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const limit = rid === 1 ? 300 : 60;
  await sql`
    WITH picked AS (
      SELECT DISTINCT ON (m.id) m.id, rm.hid, m.create_time FROM members m
      JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y' AND rm.relation = 'owner'
      WHERE m.rid = ${rid} AND m.mobile <> ${DEMO_MOBILE} ORDER BY m.id, rm.id
    ), ranked AS (SELECT p.*, row_number() OVER (ORDER BY (p.id % 6 = 0) DESC, p.id) AS n FROM picked p)
    INSERT INTO member_cards (rid, card_no, template_id, member_id, level, tags, hids, status, activated_at, remark, created_at)
    SELECT ${rid}, 'VIP' || lpad(id::text, 8, '0'), ${template.id}, id,
           CASE WHEN n % 20 = 0 THEN '钻石会员' WHEN n % 20 IN (1, 2) THEN '金卡会员' WHEN n % 20 BETWEEN 3 AND 6 THEN '银卡会员' ELSE '普通会员' END,
           string_to_array((ARRAY['业主', '业主,老人', '车主', '业主,宠物', ''])[1 + n % 5], ','),
           ARRAY[hid], CASE WHEN n % 50 = 7 THEN 'I' WHEN n % 40 = 3 THEN 'F' ELSE 'Y' END,
           CASE WHEN n % 50 = 7 THEN NULL ELSE now() - ((100 + n % 60) * interval '1 day') END,
           CASE WHEN n % 40 = 3 THEN '会员申请暂停使用' ELSE '' END,
           now() - ((100 + n % 60) * interval '1 day')
    FROM ranked WHERE n <= ${limit}`.execute(db);
  // a card reported lost: its replacement is the member's card now
  const live = await db
    .selectFrom('member_cards')
    .select(['id', 'member_id', 'card_no', 'hids'])
    .where('rid', '=', rid)
    .where('status', '=', 'Y')
    .orderBy('id')
    .offset(4)
    .limit(1)
    .executeTakeFirst();
  if (live) {
    await db
      .insertInto('member_cards')
      .values({
        rid,
        card_no: `${live.card_no}-0`,
        template_id: template.id,
        member_id: live.member_id,
        hids: live.hids,
        status: 'L',
        replaced_by: live.id,
        remark: '会员遗失，已补卡',
        created_at: sql`now() - interval '200 days'`,
      })
      .execute();
    await db
      .updateTable('member_cards')
      .set({ remark: `补卡，原卡 ${live.card_no}-0 挂失` })
      .where('rid', '=', rid)
      .where('id', '=', live.id)
      .execute();
  }
  // a closed card of someone who moved away, at a zero balance
  const visitor = await db
    .insertInto('members')
    .values({ rid, realname: '林小雨', mobile: `139${String(rid).padStart(4, '0')}0001`, remark: '开卡登记' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('member_cards')
    .values({
      rid,
      card_no: `TMP${String(rid).padStart(4, '0')}01`,
      template_id: template.id,
      member_id: visitor.id,
      status: 'C',
      remark: '搬离小区，注销',
    })
    .execute();
  await sql`
    UPDATE balance_ledger l SET card_id = c.id FROM member_cards c
    WHERE c.rid = l.rid AND c.member_id = l.member_id AND c.status IN ('I', 'Y', 'F') AND l.rid = ${rid}`.execute(db);
  await sql`
    UPDATE bonus_ledger l SET card_id = c.id, code = c.card_no FROM member_cards c
    WHERE c.rid = l.rid AND c.member_id = l.member_id AND c.status IN ('I', 'Y', 'F') AND l.rid = ${rid}`.execute(db);
}

/**
 * Recharge packages, and the recharges of the card holders: their top-ups as recharges, recent
 * package recharges (the paid and the bonus rows), one refund waiting for approval, one refunded.
 */
async function seedRecharges(db: Kysely<DB>, rid: number): Promise<void> {
  const day = today();
  const lastMonth = addDays(day, -40);
  await db
    .insertInto('recharge_packages')
    .values([
      { rid, name: '充500送50', pay_amount: '500.00', bonus_amount: '50.00', bonus_points: 0, remark: '常规套餐' },
      { rid, name: '充1000送120', pay_amount: '1000.00', bonus_amount: '120.00', bonus_points: 200 },
      { rid, name: '充200送10', pay_amount: '200.00', bonus_amount: '10.00', bonus_points: 0 },
      {
        rid,
        name: '年终限时充2000送300',
        pay_amount: '2000.00',
        bonus_amount: '300.00',
        bonus_points: 500,
        start_date: day,
        end_date: addDays(day, 30),
        per_member_limit: 1,
      },
      {
        rid,
        name: '国庆充300送40',
        pay_amount: '300.00',
        bonus_amount: '40.00',
        start_date: addDays(lastMonth, -30),
        end_date: lastMonth,
        status: 'N',
      },
    ])
    .execute();
  // the top-ups the ledgers already hold, as the recharges they were
  await sql`
    INSERT INTO card_recharges (rid, order_no, card_id, member_id, paid_amount, pay_type, operator, remark, created_at)
    SELECT l.rid, l.orderid, l.card_id, l.member_id, l.total_fee, l.paytype, l.create_user, '', l.create_time
    FROM balance_ledger l WHERE l.rid = ${rid} AND l.feetype = 'recharge' AND l.card_id IS NOT NULL AND l.status = 'Y'`.execute(db);
  // package recharges of the last month: every fourth card holder
  await sql`
    WITH pkg AS (SELECT id, pay_amount, bonus_amount, bonus_points FROM recharge_packages WHERE rid = ${rid} AND name IN ('充500送50', '充1000送120')),
    cards AS (
      SELECT c.id, c.member_id, row_number() OVER (ORDER BY c.id) AS n FROM member_cards c
      WHERE c.rid = ${rid} AND c.status = 'Y'
    ), made AS (
      INSERT INTO card_recharges (rid, order_no, card_id, member_id, package_id, paid_amount, bonus_amount, bonus_points, pay_type, reference, operator, created_at)
      SELECT ${rid}, 'CZ' || to_char(now() - (c.n % 30) * interval '1 day', 'YYYYMMDD') || lpad(c.id::text, 6, '0'), c.id, c.member_id, p.id,
             p.pay_amount, p.bonus_amount, p.bonus_points, (ARRAY['wechat', 'cash', 'alipay', 'bankcard'])[1 + (c.n / 4) % 4],
             CASE WHEN (c.n / 4) % 4 = 3 THEN 'POS' || lpad(c.id::text, 8, '0') ELSE '' END, '赵收银',
             now() - (c.n % 30) * interval '1 day' - interval '3 hours'
      FROM cards c JOIN pkg p ON p.pay_amount = CASE WHEN c.n % 8 = 0 THEN 1000 ELSE 500 END
      WHERE c.n % 4 = 0
      RETURNING rid, id, order_no, card_id, member_id, paid_amount, bonus_amount, bonus_points, pay_type, created_at
    ), paid AS (
      INSERT INTO balance_ledger (rid, member_id, card_id, orderid, io_type, feetype, paytype, total_fee, status, remark, create_user, create_time)
      SELECT rid, member_id, card_id, order_no, 1, 'recharge', pay_type, paid_amount, 'Y', '会员卡充值', '赵收银', created_at FROM made
      UNION ALL
      SELECT rid, member_id, card_id, order_no, 1, 'recharge_bonus', '', bonus_amount, 'Y', '充值赠送', '赵收银', created_at FROM made
      RETURNING 1
    )
    INSERT INTO bonus_ledger (rid, member_id, card_id, orderid, code, num, pay_cate, cate, source, action_user, create_time)
    SELECT m.rid, m.member_id, m.card_id, m.order_no, c.card_no, m.bonus_points, '充值赠送', '增加', '收银台', '赵收银', m.created_at
    FROM made m JOIN member_cards c ON c.rid = m.rid AND c.id = m.card_id WHERE m.bonus_points > 0`.execute(db);
  // the two latest package recharges: one waits for its refund's approval, one was refunded
  const recent = await db
    .selectFrom('card_recharges')
    .selectAll()
    .where('rid', '=', rid)
    .where('package_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(2)
    .execute();
  const [waiting, refunded] = recent;
  if (waiting) {
    await db
      .updateTable('card_recharges')
      .set({ status: 'E', refund_reason: '业主搬离，申请退款' })
      .where('rid', '=', rid)
      .where('id', '=', waiting.id)
      .execute();
  }
  if (refunded) {
    await db
      .updateTable('card_recharges')
      .set({ status: 'R', refund_reason: '误充，原路退回', decided_at: sql`now()` })
      .where('rid', '=', rid)
      .where('id', '=', refunded.id)
      .execute();
    await db
      .insertInto('balance_ledger')
      .values([
        {
          rid,
          member_id: refunded.member_id,
          card_id: refunded.card_id,
          orderid: refunded.order_no,
          io_type: 2,
          feetype: 'recharge_refund',
          paytype: refunded.pay_type,
          total_fee: refunded.paid_amount,
          status: 'Y',
          remark: '充值退款：退回实付',
          create_user: '钱管家',
        },
        {
          rid,
          member_id: refunded.member_id,
          card_id: refunded.card_id,
          orderid: refunded.order_no,
          io_type: 2,
          feetype: 'recharge_refund',
          paytype: '',
          total_fee: refunded.bonus_amount,
          status: 'Y',
          remark: '充值退款：收回赠送',
          create_user: '钱管家',
        },
      ])
      .execute();
    if (refunded.bonus_points > 0) {
      await db
        .insertInto('bonus_ledger')
        .values({
          rid,
          member_id: refunded.member_id,
          card_id: refunded.card_id,
          orderid: refunded.order_no,
          num: -refunded.bonus_points,
          pay_cate: '充值退款收回',
          cate: '减少',
          source: '后台',
          action_user: '钱管家',
        })
        .execute();
    }
  }
}

/**
 * A month of purchases at the stores' counters: those who recharged a package pay from the balance
 * (the card's 98 %), others in cash or by QR; each earns its points; one was refunded.
 */
async function seedCounterOrders(db: Kysely<DB>, rid: number): Promise<void> {
  await sql`
    WITH buyers AS (
      SELECT c.id AS card_id, c.member_id, c.card_no, r.id IS NOT NULL AS recharged, row_number() OVER (ORDER BY c.id) AS n
      FROM member_cards c
      LEFT JOIN LATERAL (SELECT id FROM card_recharges WHERE rid = c.rid AND card_id = c.id AND package_id IS NOT NULL AND status = 'Y' LIMIT 1) r ON true
      WHERE c.rid = ${rid} AND c.status = 'Y' AND c.id % 3 = 0
    ), priced AS (
      SELECT b.*, s.id AS merchant_id, (18 + (b.n * 37) % 160)::numeric(14,2) AS amount,
             now() - (b.n % 30) * interval '1 day' - (b.n % 9) * interval '1 hour' AS at
      FROM buyers b JOIN LATERAL (SELECT id FROM merchants WHERE rid = ${rid} ORDER BY id OFFSET (b.n % 2) LIMIT 1) s ON true
    ), parts AS (
      SELECT p.*, round(p.amount * 0.02, 2) AS member_discount,
             CASE WHEN p.recharged THEN p.amount - round(p.amount * 0.02, 2) ELSE 0 END AS balance_paid,
             CASE WHEN p.recharged THEN 0 ELSE p.amount - round(p.amount * 0.02, 2) END AS cash_paid
      FROM priced p
    ), made AS (
      INSERT INTO counter_orders (rid, order_no, card_id, member_id, merchant_id, amount, member_discount, balance_paid, cash_paid,
                                  pay_type, points_earned, operator, created_at)
      SELECT ${rid}, 'XF' || to_char(at, 'YYYYMMDD') || lpad((900000 + n)::text, 6, '0'), card_id, member_id, merchant_id, amount,
             member_discount, balance_paid, cash_paid,
             CASE WHEN recharged THEN 'balance' ELSE (ARRAY['cash', 'wechat', 'alipay'])[1 + n % 3] END,
             floor(balance_paid + cash_paid)::int, '便利店老板', at
      FROM parts
      RETURNING rid, order_no, card_id, member_id, merchant_id, balance_paid, points_earned, created_at
    ), spent AS (
      INSERT INTO balance_ledger (rid, member_id, card_id, merchant_id, orderid, io_type, feetype, paytype, total_fee, status, remark, create_user, create_time)
      SELECT rid, member_id, card_id, merchant_id, order_no, 2, 'shop', 'balance', balance_paid, 'Y', '会员消费', '便利店老板', created_at
      FROM made WHERE balance_paid > 0
      RETURNING 1
    )
    INSERT INTO bonus_ledger (rid, member_id, card_id, merchant_id, orderid, code, num, pay_cate, cate, source, action_user, create_time)
    SELECT m.rid, m.member_id, m.card_id, m.merchant_id, m.order_no, c.card_no, m.points_earned, '消费赠送', '增加', '商户收银', '便利店老板', m.created_at
    FROM made m JOIN member_cards c ON c.rid = m.rid AND c.id = m.card_id WHERE m.points_earned > 0`.execute(db);
  // the latest cash purchase was refunded: its points taken back
  const last = await db
    .selectFrom('counter_orders')
    .selectAll()
    .where('rid', '=', rid)
    .where('balance_paid', '=', '0')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return;
  await db
    .updateTable('counter_orders')
    .set({ status: 'R', refund_reason: '商品质量问题，整单退货', refunded_at: sql`now()`, refunded_by: '便利店老板' })
    .where('rid', '=', rid)
    .where('id', '=', last.id)
    .execute();
  if (last.points_earned > 0) {
    await db
      .insertInto('bonus_ledger')
      .values({
        rid,
        member_id: last.member_id,
        card_id: last.card_id,
        merchant_id: last.merchant_id,
        orderid: last.order_no,
        num: -last.points_earned,
        pay_cate: '退款扣回',
        cate: '减少',
        source: '商户收银',
        action_user: '便利店老板',
      })
      .execute();
  }
}
