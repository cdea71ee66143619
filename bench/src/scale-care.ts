/**
 * Customer care (docs/product.md#crm-care) of the scale data (bench/README.md#scale-data): per
 * community, a care record for every other resident (tens of thousands in a busy community), with
 * birthdays, special attention, tags and the community's staff as stewards; RULES_PER_COMMUNITY
 * recurring rules; AFFAIRS_PER_CUSTOMER affairs a record over a year in every state (open, overdue,
 * done, cancelled), made by hand, by the rules and by BATCHES_PER_COMMUNITY group affairs.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const CARE_STEPS = 3;
export const RULES_PER_COMMUNITY = 12;
export const BATCHES_PER_COMMUNITY = 40;
export const AFFAIRS_PER_CUSTOMER = 3;

export async function fillCare(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step('customer care: a record for every other resident', async () => {
    await sql`
      INSERT INTO care_customers (rid, member_id, kind, realname, mobile, gender, birthday, hids, move_in_date, tags, attention,
        steward_id, status, created_at)
      SELECT p.rid, m.id, p.relation, m.realname, m.mobile, m.gender,
             date '1940-01-01' + ((m.id * 37) % 25000)::int, ARRAY[p.hid], p.move_in_date,
             CASE WHEN m.id % 6 = 0 THEN '{重点客户}'::text[] WHEN m.id % 10 = 1 THEN '{新入住}'::text[] ELSE '{}' END,
             CASE WHEN m.id % 9 = 0 THEN '{独居老人}'::text[] WHEN m.id % 13 = 0 THEN '{行动不便,慢性病}'::text[] ELSE '{}' END,
             s.staff[1 + (m.id % cardinality(s.staff))], CASE WHEN m.id % 50 = 0 THEN 'N' ELSE 'Y' END,
             now() - (m.id % 700) * interval '1 day'
      FROM (SELECT DISTINCT ON (rm.rid, rm.member_id) rm.rid, rm.member_id, rm.hid, rm.relation, rm.move_in_date
            FROM room_members rm WHERE rm.rid = ANY(${rids}::int[]) AND rm.status = 'Y' AND rm.member_id % 2 = 0
            ORDER BY rm.rid, rm.member_id, rm.id) p
      JOIN members m ON m.rid = p.rid AND m.id = p.member_id
      JOIN LATERAL (SELECT array_agg(account_id ORDER BY account_id) AS staff FROM account_regions WHERE rid = p.rid) s ON true`.execute(c);
  });
  await step(`customer care: ${RULES_PER_COMMUNITY} rules and ${BATCHES_PER_COMMUNITY} group affairs a community`, async () => {
    await sql`
      INSERT INTO care_affair_rules (rid, name, cycle, affair_kind, days_before, day_of_month, festival_date, tag, assign_mode, assignee_id, status)
      SELECT r.rid, '关怀规则' || n, (ARRAY['birthday', 'anniversary', 'monthly', 'quarterly', 'festival'])[1 + n % 5],
             (ARRAY['birthday', 'anniversary', 'visit', 'call', 'festival'])[1 + n % 5], n % 10,
             CASE WHEN n % 5 IN (2, 3) THEN 1 + n % 28 END, CASE WHEN n % 5 = 4 THEN '10-01' END,
             CASE WHEN n % 3 = 0 THEN '独居老人' ELSE '' END, 'steward', a.id, CASE WHEN n % 6 = 0 THEN 'N' ELSE 'Y' END
      FROM unnest(${rids}::int[]) AS r(rid) CROSS JOIN generate_series(1, ${RULES_PER_COMMUNITY}) n
      CROSS JOIN (SELECT id FROM accounts WHERE username = 'admin') a`.execute(c);
    await sql`
      INSERT INTO care_affair_batches (rid, title, affair_kind, content, due_date, assign_mode, assignee_id, criteria, criteria_text, total, created_at)
      SELECT r.rid, '批量慰问' || n, (ARRAY['festival', 'visit', 'call'])[1 + n % 3], '批量事务', current_date - 365 + n * 9, 'steward', a.id,
             '{}'::jsonb, '全部关怀中的客户', 1, now() - (365 - n * 9) * interval '1 day'
      FROM unnest(${rids}::int[]) AS r(rid) CROSS JOIN generate_series(1, ${BATCHES_PER_COMMUNITY}) n
      CROSS JOIN (SELECT id FROM accounts WHERE username = 'admin') a`.execute(c);
  });
  await step(`customer care: ${AFFAIRS_PER_CUSTOMER} affairs a record over a year, by hand, rules and group affairs`, async () => {
    // g 1: by hand; g 2: a rule's occurrence (its year); g 3: a group affair of the community
    await sql`
      WITH x AS (
        SELECT c.rid, c.id, c.steward_id, g, ((c.id * 7 + g * 131) % 400)::int AS back
        FROM care_customers c CROSS JOIN generate_series(1, ${AFFAIRS_PER_CUSTOMER}) g WHERE c.rid = ANY(${rids}::int[])
      )
      INSERT INTO care_affairs (rid, customer_id, kind, content, assignee_id, due_date, status, result, done_at, done_by,
        cancel_reason, cancelled_at, batch_id, rule_id, occurrence, created_at)
      SELECT x.rid, x.id, (ARRAY['call', 'birthday', 'festival', 'visit', 'anniversary', 'other'])[1 + (x.id + x.g) % 6], '关怀事务',
             coalesce(x.steward_id, ru.assignee_id), current_date - x.back + 30,
             st.s, CASE WHEN st.s = 'Y' THEN '已完成' ELSE '' END,
             CASE WHEN st.s = 'Y' THEN now() - (x.back - 30) * interval '1 day' END, CASE WHEN st.s = 'Y' THEN x.steward_id END,
             CASE WHEN st.s = 'C' THEN '客户外出' ELSE '' END, CASE WHEN st.s = 'C' THEN now() - (x.back - 30) * interval '1 day' END,
             CASE WHEN x.g = 3 THEN b.id END, CASE WHEN x.g = 2 THEN ru.id END, CASE WHEN x.g = 2 THEN (2020 + x.id % 7)::text END,
             now() - x.back * interval '1 day'
      FROM x
      CROSS JOIN LATERAL (SELECT CASE WHEN x.back < 30 THEN 'P' WHEN (x.id + x.g) % 25 = 0 THEN 'P' WHEN (x.id + x.g) % 11 = 0 THEN 'C' ELSE 'Y' END AS s) st
      JOIN LATERAL (SELECT id, assignee_id FROM care_affair_rules WHERE rid = x.rid ORDER BY id OFFSET (x.id % ${RULES_PER_COMMUNITY}) LIMIT 1) ru ON true
      JOIN LATERAL (SELECT id FROM care_affair_batches WHERE rid = x.rid ORDER BY id OFFSET (x.id % ${BATCHES_PER_COMMUNITY}) LIMIT 1) b ON true`.execute(
      c,
    );
    await sql`
      UPDATE care_affair_batches b SET total = greatest(1, s.n)
      FROM (SELECT rid, batch_id, count(*)::int AS n FROM care_affairs WHERE rid = ANY(${rids}::int[]) AND batch_id IS NOT NULL GROUP BY 1, 2) s
      WHERE b.rid = s.rid AND b.id = s.batch_id`.execute(c);
  });
}
