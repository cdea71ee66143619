/**
 * The sales CRM (docs/product.md#crm-sales) of the scale data (bench/README.md#scale-data): per
 * community, CUSTOMERS_PER_COMMUNITY customers (a busy sales office's years of leads) across the
 * pipeline, held by the community's staff (one in ten in the pool), each with its entry on the
 * timeline and FOLLOWUPS_PER_CUSTOMER follow-ups, an invitation for every third, and deposits with
 * their queue numbers for one in twenty (cancelled ones: the bills are the fees area's scale). A
 * customer's number in its community is the last six digits of its mobile.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const CRM_SALES_STEPS = 3;
export const CUSTOMERS_PER_COMMUNITY = 20_000;
export const FOLLOWUPS_PER_CUSTOMER = 3;

export async function fillCrmSales(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`sales CRM: ${CUSTOMERS_PER_COMMUNITY.toLocaleString('en')} customers a community and their timelines`, async () => {
    await sql`
      INSERT INTO crm_customers (rid, name, gender, mobile, product, area_min, area_max, budget_min, budget_max, purpose, source, channel,
        grade, tags, stage, furthest, invalid_reason, consultant_id, assigned_at, visit_count, next_contact_at, stage_at, created_at, created_by)
      SELECT r.rid, '客户' || g, (ARRAY['', 'M', 'F'])[1 + g % 3], '15' || lpad((r.rid * 1000000 + g)::text, 9, '0'),
             (ARRAY['house', 'house', 'shop', 'parking', 'office'])[1 + g % 5], 60 + g % 60, 100 + g % 60, 80 + g % 200, 200 + g % 300,
             (ARRAY['self', 'invest', 'upgrade', ''])[1 + g % 4], (ARRAY['walkin', 'call', 'channel', 'referral', 'online', 'event', 'other'])[1 + g % 7],
             CASE WHEN g % 7 = 2 THEN 'agency' ELSE '' END, (ARRAY['A', 'B', 'C', 'D'])[1 + g % 4],
             CASE WHEN g % 9 = 0 THEN '{学区}'::text[] ELSE '{}' END,
             (ARRAY['report', 'report', 'valid', 'valid', 'visit', 'visit', 'pledge', 'subscribe', 'sign', 'invalid'])[1 + g % 10],
             (ARRAY[1, 1, 2, 2, 3, 3, 4, 5, 6, 2])[1 + g % 10], CASE WHEN g % 10 = 9 THEN '无购买意向' ELSE '' END,
             CASE WHEN g % 10 = 3 THEN NULL ELSE s.staff[1 + (g % cardinality(s.staff))] END,
             now() - (g % 700) * interval '1 day', CASE WHEN g % 10 IN (4, 5, 6, 7, 8) THEN 1 ELSE 0 END,
             CASE WHEN g % 6 = 0 THEN current_date + (g % 9 - 4) + time '10:00' END,
             now() - (g % 600) * interval '1 day', now() - (g % 700) * interval '1 day', s.staff[1]
      FROM unnest(${rids}::int[]) AS r(rid)
      CROSS JOIN generate_series(1, ${CUSTOMERS_PER_COMMUNITY}) g
      JOIN LATERAL (SELECT array_agg(account_id ORDER BY account_id) AS staff FROM account_regions WHERE rid = r.rid) s ON true`.execute(c);
    await sql`
      INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, operator, created_at)
      SELECT rid, 'crmcustomer', id, 'create', '', 'report', '系统', created_at FROM crm_customers WHERE rid = ANY(${rids}::int[])
      UNION ALL
      SELECT rid, 'crmcustomer', id, stage, 'report', stage, '系统', stage_at FROM crm_customers
      WHERE rid = ANY(${rids}::int[]) AND stage <> 'report'`.execute(c);
  });
  await step(`sales CRM: ${FOLLOWUPS_PER_CUSTOMER} follow-ups a customer, an invitation for every third`, async () => {
    await sql`
      INSERT INTO crm_followups (rid, customer_id, kind, content, next_contact_at, operator, created_at, created_by)
      SELECT t.rid, t.id, (ARRAY['phone', 'wechat', 'visit', 'sms', 'other'])[1 + (t.id + k) % 5], '跟进记录 ' || k || '：客户关注户型和价格',
             CASE WHEN k = ${FOLLOWUPS_PER_CUSTOMER} THEN t.next_contact_at END, '顾问',
             t.created_at + k * interval '3 days', t.consultant_id
      FROM crm_customers t CROSS JOIN generate_series(1, ${FOLLOWUPS_PER_CUSTOMER}) k
      WHERE t.rid = ANY(${rids}::int[])`.execute(c);
    await sql`
      UPDATE crm_customers t SET last_follow_at = t.created_at + ${FOLLOWUPS_PER_CUSTOMER} * interval '3 days',
        last_follow_text = '跟进记录 ' || ${FOLLOWUPS_PER_CUSTOMER} || '：客户关注户型和价格'
      WHERE t.rid = ANY(${rids}::int[])`.execute(c);
    await sql`
      INSERT INTO crm_invites (rid, customer_id, invite_at, consultant_id, visitors, purpose, outcome, arrived_at, result, created_at, created_by)
      SELECT t.rid, t.id, t.created_at + interval '5 days', coalesce(t.consultant_id, s.staff[1]), 1 + t.id % 3, 'view',
             CASE WHEN t.visit_count > 0 THEN 'V' WHEN right(t.mobile, 6)::int % 2 = 0 THEN 'P' ELSE 'M' END,
             CASE WHEN t.visit_count > 0 THEN t.created_at + interval '5 days' END, '', t.created_at, t.consultant_id
      FROM crm_customers t
      JOIN LATERAL (SELECT array_agg(account_id ORDER BY account_id) AS staff FROM account_regions WHERE rid = t.rid) s ON true
      WHERE t.rid = ANY(${rids}::int[]) AND right(t.mobile, 6)::int % 3 = 0`.execute(c);
  });
  await step('sales CRM: deposits with their queue numbers for one customer in twenty', async () => {
    await sql`
      INSERT INTO crm_intentions (rid, customer_id, queue_no, amount, hid, status, reason, created_at, created_by)
      SELECT t.rid, t.id, row_number() OVER (PARTITION BY t.rid ORDER BY t.id), 20000, h.id, 'C', '客户暂不认筹', t.created_at, t.consultant_id
      FROM crm_customers t
      JOIN (SELECT rid, count(*) AS n FROM rooms GROUP BY rid) rc ON rc.rid = t.rid
      JOIN LATERAL (SELECT id FROM rooms WHERE rid = t.rid ORDER BY id OFFSET ((right(t.mobile, 6)::int / 20) % rc.n) LIMIT 1) h ON true
      WHERE t.rid = ANY(${rids}::int[]) AND right(t.mobile, 6)::int % 20 = 0`.execute(c);
    await sql`
      INSERT INTO crm_sales_settings (rid, queue_last)
      SELECT rid, max(queue_no) FROM crm_intentions WHERE rid = ANY(${rids}::int[]) GROUP BY rid
      ON CONFLICT (rid) DO UPDATE SET queue_last = excluded.queue_last`.execute(c);
  });
}
