/**
 * Members' coupons (优惠券; docs/product.md#member-coupons) of the scale data (bench/README.md#scale-data):
 * per community six templates (满减 at every store and at one store, 物业费 折扣 with a cap, a gift,
 * the rule's parking coupon, a stopped one) and COUPONS_PER_COMMUNITY coupons given over the last year
 * to the community's members in every state: used ones name an order and (a store's) the store,
 * expired ones their day, voided ones a reason; each template's issued count is what it gave.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const COUPON_STEPS = 1;
export const COUPONS_PER_COMMUNITY = 50_000;

export async function fillCoupons(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`members' coupons: 6 templates, ${COUPONS_PER_COMMUNITY} coupons a community in every state`, async () => {
    await sql`
      INSERT INTO member_coupon_templates (rid, name, kind, purpose, face_value, min_spend, discount_percent, discount_cap, gift,
        merchant_ids, stock, per_person, give_mode, validity, valid_start, valid_end, valid_days, description, status, created_at)
      SELECT r.rid, t.name, t.kind, t.purpose, t.face, t.min, t.pct, t.cap, t.gift,
             CASE WHEN t.one_store THEN ARRAY(SELECT id FROM merchants m WHERE m.rid = r.rid ORDER BY id LIMIT 1) ELSE '{}' END,
             NULL, 0, t.mode, t.validity,
             CASE WHEN t.validity = 'range' THEN current_date - 400 END, CASE WHEN t.validity = 'range' THEN current_date + t.end_in END,
             CASE WHEN t.validity = 'days' THEN 30 END, '规模数据', t.status, now() - interval '400 days'
      FROM unnest(${rids}::int[]) AS r(rid)
      CROSS JOIN (VALUES
        ('满100减10购物券', 'amount', 'shopping', 10, 100, NULL::int, 0, '', false, 'staff', 'days', 0, 'Y'),
        ('便利店满30减3', 'amount', 'shopping', 3, 30, NULL, 0, '', true, 'claim', 'days', 0, 'Y'),
        ('物业费9折券', 'discount', 'property', 0, 0, 90, 50, '', false, 'staff', 'range', 200, 'Y'),
        ('免费洗车一次', 'gift', 'shopping', 0, 0, NULL, 0, '洗车一次', true, 'claim', 'days', 0, 'Y'),
        ('月度停车券', 'amount', 'parking', 10, 0, NULL, 0, '', false, 'rule', 'days', 0, 'Y'),
        ('去年国庆满50减5', 'amount', 'shopping', 5, 50, NULL, 0, '', false, 'staff', 'range', -30, 'N')
      ) AS t(name, kind, purpose, face, min, pct, cap, gift, one_store, mode, validity, end_in, status)`.execute(c);
    for (const rid of rids) {
      // the coupons over the members (round robin), received over the last year; each template's sixth
      await sql`
        WITH people AS (
          SELECT id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS cnt FROM members WHERE rid = ${rid}
        ), tpl AS (
          SELECT id, kind, purpose, face_value, min_spend, discount_percent, discount_cap, merchant_ids, give_mode, validity,
                 valid_start, valid_end, valid_days, row_number() OVER (ORDER BY id) - 1 AS k
          FROM member_coupon_templates WHERE rid = ${rid}
        ), stores AS (
          SELECT array_agg(id ORDER BY id) AS ids FROM merchants WHERE rid = ${rid}
        ), given AS (
          SELECT n, p.id AS member_id, t.*, (current_date - (n % 365))::date AS got
          FROM generate_series(1, ${COUPONS_PER_COMMUNITY}) n
          JOIN people p ON p.k = n % p.cnt
          JOIN tpl t ON t.k = n % 6
        ), dated AS (
          SELECT g.*,
                 CASE WHEN validity = 'range' THEN valid_start ELSE got END AS vfrom,
                 CASE WHEN validity = 'range' THEN valid_end ELSE got + valid_days - 1 END AS vto
          FROM given g
        ), stated AS (
          SELECT d.*, CASE
              -- n / 6: the template is n % 6, so its coupons take every state
              WHEN vto < current_date THEN (ARRAY['E', 'E', 'Y', 'V'])[1 + (n / 6) % 4]
              ELSE (ARRAY['U', 'U', 'U', 'Y', 'Y', 'V'])[1 + (n / 6) % 6] END AS status,
            least(got + (n % 5), vto, current_date) AS used_day,
            100 + (n % 9) * 15 AS amount
          FROM dated d
        )
        INSERT INTO member_coupons (rid, code, template_id, member_id, got_at, valid_from, valid_to, status, source, channel,
          used_at, used_order_no, used_merchant_id, used_amount, discount, expired_at, void_reason, voided_at, created_at)
        SELECT ${rid}, translate(upper(substr(md5(${rid} || '-' || n), 1, 12)), '01', 'XY'), s.id, s.member_id,
               s.got + time '09:30' + (n % 600) * interval '1 minute', s.vfrom, s.vto, s.status, s.give_mode,
               CASE s.give_mode WHEN 'claim' THEN '公众号领券' WHEN 'rule' THEN '预缴赠送' ELSE '后台' END,
               CASE WHEN s.status = 'Y' THEN s.used_day + time '15:00' + (n % 300) * interval '1 minute' END,
               CASE WHEN s.status = 'Y' THEN 'XF' || to_char(s.used_day, 'YYYYMMDD') || lpad(n::text, 8, '0') END,
               CASE WHEN s.status = 'Y' AND s.purpose = 'shopping'
                    THEN coalesce(s.merchant_ids[1], (SELECT ids[1 + n % cardinality(ids)] FROM stores)) END,
               CASE WHEN s.status = 'Y' THEN s.amount END,
               CASE WHEN s.status <> 'Y' THEN 0
                    WHEN s.kind = 'amount' THEN least(s.face_value, s.amount)
                    WHEN s.kind = 'discount' THEN least(round(s.amount * (100 - s.discount_percent) / 100.0, 2),
                                                        CASE WHEN s.discount_cap > 0 THEN s.discount_cap ELSE s.amount END)
                    ELSE 0 END,
               CASE WHEN s.status = 'E' THEN s.vto + 1 + time '01:00' END,
               CASE WHEN s.status = 'V' THEN '误发，作废' ELSE '' END,
               CASE WHEN s.status = 'V' THEN s.got + time '18:00' END,
               s.got + time '09:30'
        FROM stated s`.execute(c);
      await sql`
        UPDATE member_coupon_templates t SET issued = (SELECT count(*) FROM member_coupons c WHERE c.rid = t.rid AND c.template_id = t.id)
        WHERE t.rid = ${rid}`.execute(c);
    }
  });
}
