/**
 * Member cards (docs/product.md#member-cards) of the scale data (bench/README.md#scale-data): per
 * community, TEMPLATES_PER_COMMUNITY card templates (a community has a handful; this is more than
 * any has), every fourth stopped; members' cards for a third of the owners (the ledger holders
 * among them, whose ledger rows then name their card), PACKAGES_PER_COMMUNITY recharge packages and
 * a recharge (paid and bonus rows) for every fourth card, and PURCHASES_PER_CARD counter purchases for
 * every other card.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const CARD_STEPS = 4;
export const TEMPLATES_PER_COMMUNITY = 40;
export const PACKAGES_PER_COMMUNITY = 20;
/** counter purchases a card, for every other card */
export const PURCHASES_PER_CARD = 4;

export async function fillCards(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`member cards: ${TEMPLATES_PER_COMMUNITY} card templates a community`, async () => {
    await sql`
      INSERT INTO card_templates (rid, name, notice, discount, earn_per_yuan, redeem_points, redeem_money, expiry, expiry_months, status)
      SELECT rid, '会员卡' || n, '结账时出示', 90 + n % 11, 1 + n % 3, 100, 1, CASE WHEN n % 2 = 0 THEN 'rolling' ELSE 'never' END,
        CASE WHEN n % 2 = 0 THEN 12 END, CASE WHEN n % 4 = 0 THEN 'N' ELSE 'Y' END
      FROM unnest(${rids}::int[]) AS rid CROSS JOIN generate_series(1, ${TEMPLATES_PER_COMMUNITY}) AS n`.execute(c);
  });
  await step('member cards: a card for every third owner, the ledgers naming it', async () => {
    await sql`
      INSERT INTO member_cards (rid, card_no, template_id, member_id, level, tags, hids, status, activated_at, created_at)
      SELECT p.rid, 'VIP' || lpad(p.id::text, 9, '0'), t.id, p.id,
             (ARRAY['普通会员', '银卡会员', '金卡会员', '钻石会员'])[1 + p.id % 4], CASE WHEN p.id % 5 = 0 THEN '{业主}'::text[] ELSE '{}' END,
             ARRAY[p.hid], CASE WHEN p.id % 50 = 7 THEN 'I' WHEN p.id % 40 = 3 THEN 'F' ELSE 'Y' END,
             now() - (p.id % 300) * interval '1 day', now() - (p.id % 300) * interval '1 day'
      FROM (SELECT DISTINCT ON (m.rid, m.id) m.rid, m.id, rm.hid FROM members m
            JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y' AND rm.relation = 'owner'
            WHERE m.rid = ANY(${rids}::int[]) AND m.id % 3 = 0 ORDER BY m.rid, m.id, rm.id) p
      JOIN LATERAL (SELECT id FROM card_templates WHERE rid = p.rid AND status = 'Y' ORDER BY id LIMIT 1) t ON true`.execute(c);
    await sql`UPDATE balance_ledger l SET card_id = mc.id FROM member_cards mc
      WHERE mc.rid = l.rid AND mc.member_id = l.member_id AND l.rid = ANY(${rids}::int[])`.execute(c);
    await sql`UPDATE bonus_ledger l SET card_id = mc.id FROM member_cards mc
      WHERE mc.rid = l.rid AND mc.member_id = l.member_id AND l.rid = ANY(${rids}::int[])`.execute(c);
  });
  await step(`member cards: ${PACKAGES_PER_COMMUNITY} recharge packages a community, a recharge for every fourth card`, async () => {
    await sql`
      INSERT INTO recharge_packages (rid, name, pay_amount, bonus_amount, bonus_points, per_member_limit, status)
      SELECT rid, '充' || (n * 100) || '送' || (n * 10), n * 100, n * 10, n * 20, n % 3, CASE WHEN n % 5 = 0 THEN 'N' ELSE 'Y' END
      FROM unnest(${rids}::int[]) AS rid CROSS JOIN generate_series(1, ${PACKAGES_PER_COMMUNITY}) AS n`.execute(c);
    // the recharges carry their paid and bonus rows; members' balances follow below
    await sql`
      WITH made AS (
        INSERT INTO card_recharges (rid, order_no, card_id, member_id, package_id, paid_amount, bonus_amount, bonus_points, pay_type, operator, status, created_at)
        SELECT mc.rid, 'CZ' || lpad(mc.id::text, 12, '0'), mc.id, mc.member_id, p.id, p.pay_amount, p.bonus_amount, 0,
               (ARRAY['wechat', 'cash', 'alipay', 'bankcard'])[1 + (mc.id / 4) % 4], '赵收银', CASE WHEN mc.id % 97 = 0 THEN 'E' ELSE 'Y' END,
               now() - (mc.id % 365) * interval '1 day'
        FROM member_cards mc
        JOIN LATERAL (SELECT id, pay_amount, bonus_amount FROM recharge_packages WHERE rid = mc.rid ORDER BY id OFFSET (mc.id % 4) LIMIT 1) p ON true
        WHERE mc.rid = ANY(${rids}::int[]) AND mc.id % 4 = 0 AND mc.status = 'Y'
        RETURNING rid, order_no, card_id, member_id, paid_amount, bonus_amount, pay_type, created_at)
      INSERT INTO balance_ledger (rid, member_id, card_id, orderid, io_type, feetype, paytype, total_fee, status, create_user, create_time)
      SELECT rid, member_id, card_id, order_no, 1, 'recharge', pay_type, paid_amount, 'Y', '赵收银', created_at FROM made
      UNION ALL
      SELECT rid, member_id, card_id, order_no, 1, 'recharge_bonus', '', bonus_amount, 'Y', '赵收银', created_at FROM made`.execute(c);
    await sql`
      UPDATE members m SET balance = s.balance
      FROM (SELECT rid, member_id, sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END) AS balance
            FROM balance_ledger WHERE rid = ANY(${rids}::int[]) AND status = 'Y' GROUP BY 1, 2) s
      WHERE m.rid = s.rid AND m.id = s.member_id AND s.balance >= 0`.execute(c);
  });
  await step(`member cards: ${PURCHASES_PER_CARD} counter purchases for every other card`, async () => {
    // paid in cash at the stores (the balances stay as the ledgers made them)
    await sql`
      INSERT INTO counter_orders (rid, order_no, card_id, member_id, merchant_id, amount, member_discount, cash_paid, pay_type, operator, created_at)
      SELECT mc.rid, 'XF' || lpad((mc.id * 10 + g)::text, 14, '0'), mc.id, mc.member_id, s.id, a.amount, a.amount - a.paid, a.paid,
             (ARRAY['cash', 'wechat', 'alipay'])[1 + g % 3], '门店收银', now() - ((mc.id * 7 + g * 11) % 365) * interval '1 day'
      FROM member_cards mc
      CROSS JOIN generate_series(1, ${PURCHASES_PER_CARD}) g
      JOIN LATERAL (SELECT id FROM merchants WHERE rid = mc.rid ORDER BY id OFFSET (g % 4) LIMIT 1) s ON true
      CROSS JOIN LATERAL (SELECT (20 + (mc.id * g) % 180)::numeric(14,2) AS amount,
                                 round((20 + (mc.id * g) % 180) * 0.98, 2) AS paid) a
      WHERE mc.rid = ANY(${rids}::int[]) AND mc.id % 2 = 0`.execute(c);
  });
}
