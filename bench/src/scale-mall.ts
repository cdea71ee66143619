/**
 * The points mall (积分商城; docs/product.md#member-cards) of the scale data (bench/README.md#scale-data):
 * per community the mall open, two top-level categories of four children each, GOODS_PER_COMMUNITY
 * goods of two specifications (every tenth off sale), and up to ORDERS_PER_COMMUNITY orders in every
 * status by members who hold the points (one each): each took its points as a bonus_ledger row (a
 * cancelled one gave them back in a second) and the stock of its specification; the members' points
 * go down by what they spent, so they still add up to their ledgers.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const MALL_STEPS = 1;
export const GOODS_PER_COMMUNITY = 200;
export const ORDERS_PER_COMMUNITY = 20_000;

export async function fillMall(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(
    `points mall: 10 categories, ${GOODS_PER_COMMUNITY} goods of 2 specifications, up to ${ORDERS_PER_COMMUNITY} orders a community`,
    async () => {
      await sql`
        INSERT INTO mall_settings (rid, enabled, pickup, delivery, pickup_address, pickup_hours, points_per_yuan)
        SELECT rid, 'Y', 'Y', 'Y', '物业服务中心', '每天 9:00-18:00', 10 FROM unnest(${rids}::int[]) AS rid`.execute(c);
      await sql`
        INSERT INTO mall_categories (rid, name, sort)
        SELECT rid, (ARRAY['生活用品', '食品饮料'])[n], n FROM unnest(${rids}::int[]) AS rid CROSS JOIN generate_series(1, 2) n`.execute(c);
      await sql`
        INSERT INTO mall_categories (rid, parent_id, name, sort)
        SELECT p.rid, p.id, p.name || k, k FROM mall_categories p CROSS JOIN generate_series(1, 4) k
        WHERE p.rid = ANY(${rids}::int[]) AND p.parent_id IS NULL`.execute(c);
      await sql`
        INSERT INTO mall_goods (rid, category_id, name, description, status, limit_per_member, sort)
        SELECT r.rid,
               (SELECT id FROM mall_categories x WHERE x.rid = r.rid AND x.parent_id IS NOT NULL ORDER BY id OFFSET (n % 8) LIMIT 1),
               '商品' || n, '积分兑换商品', CASE WHEN n % 10 = 0 THEN 'N' ELSE 'Y' END, n % 3, n
        FROM unnest(${rids}::int[]) AS r(rid) CROSS JOIN generate_series(1, ${GOODS_PER_COMMUNITY}) n`.execute(c);
      await sql`
        INSERT INTO mall_goods_specs (rid, goods_id, name, price, points, stock, sort)
        SELECT g.rid, g.id, s.name, 9.90 + g.id % 50, 50 * s.k, 1000, s.k
        FROM mall_goods g CROSS JOIN (VALUES (1, '标准装'), (2, '家庭装')) AS s(k, name)
        WHERE g.rid = ANY(${rids}::int[])`.execute(c);
      for (const rid of rids) {
        // one order each of the members holding 100 points or more, of a 50-point specification on sale
        await sql`
          WITH buyers AS (
            SELECT m.id, m.realname, m.mobile, row_number() OVER (ORDER BY m.id) AS n FROM members m
            WHERE m.rid = ${rid} AND m.bonus >= 100 ORDER BY m.id LIMIT ${ORDERS_PER_COMMUNITY}
          ), specs AS (
            SELECT s.id, s.goods_id, s.name, s.price, s.points, g.name AS goods_name,
                   row_number() OVER (ORDER BY s.id) - 1 AS k, count(*) OVER () AS cnt
            FROM mall_goods_specs s JOIN mall_goods g ON g.rid = s.rid AND g.id = s.goods_id
            WHERE s.rid = ${rid} AND g.status = 'Y' AND s.points = 50
          ), picked AS (
            SELECT b.*, s.id AS spec_id, s.goods_id, s.name AS spec_name, s.goods_name, s.price, s.points,
                   (ARRAY['P', 'P', 'S', 'D', 'D', 'C'])[1 + b.n % 6] AS status,
                   now() - ((b.n % 365) * interval '1 day') - ((b.n % 600) * interval '1 minute') AS at
            FROM buyers b JOIN specs s ON s.k = b.n % s.cnt
          )
          INSERT INTO mall_orders (rid, order_no, member_id, goods_id, spec_id, goods_name, spec_name, price, points, quantity,
            points_total, delivery_mode, contact_name, contact_mobile, address, status, express_company, express_no, shipped_at,
            done_at, cancelled_at, cancel_reason, created_at)
          SELECT ${rid}, 'DH' || to_char(at, 'YYYYMMDD') || lpad(n::text, 8, '0'), id, goods_id, spec_id, goods_name, spec_name, price,
                 points, 1, points, CASE WHEN n % 3 = 1 OR status = 'S' THEN 'delivery' ELSE 'pickup' END, realname, mobile,
                 CASE WHEN n % 3 = 1 OR status = 'S' THEN '小区内' ELSE '' END, status,
                 CASE WHEN status = 'S' THEN '顺丰速运' ELSE '' END, CASE WHEN status = 'S' THEN 'SF' || (1300000000 + n) ELSE '' END,
                 CASE WHEN status = 'S' THEN at + interval '20 hours' END, CASE WHEN status = 'D' THEN at + interval '2 days' END,
                 CASE WHEN status = 'C' THEN at + interval '3 hours' END, CASE WHEN status = 'C' THEN '会员不想要了' ELSE '' END, at
          FROM picked`.execute(c);
        await sql`
          INSERT INTO bonus_ledger (rid, member_id, orderid, num, pay_cate, cate, source, action_user, create_time)
          SELECT rid, member_id, order_no, -points_total, '积分兑换', '减少', '积分商城', '物业前台', created_at FROM mall_orders WHERE rid = ${rid}
          UNION ALL
          SELECT rid, member_id, order_no, points_total, '兑换退回', '增加', '积分商城', '物业前台', cancelled_at
          FROM mall_orders WHERE rid = ${rid} AND status = 'C'`.execute(c);
        await sql`
          UPDATE members m SET bonus = m.bonus - o.spent
          FROM (SELECT member_id, sum(points_total) AS spent FROM mall_orders WHERE rid = ${rid} AND status <> 'C' GROUP BY member_id) o
          WHERE m.rid = ${rid} AND m.id = o.member_id`.execute(c);
        await sql`
          UPDATE mall_goods_specs s SET stock = s.stock - o.sold
          FROM (SELECT spec_id, sum(quantity) AS sold FROM mall_orders WHERE rid = ${rid} AND status <> 'C' GROUP BY spec_id) o
          WHERE s.rid = ${rid} AND s.id = o.spec_id`.execute(c);
      }
    },
  );
}
