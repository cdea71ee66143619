/**
 * The steward desk (管家工作台, docs/product.md#repairs, #complaints, #internal-orders, #notices,
 * #steward-profiles) of the scale data (bench/README.md#scale-data), per community, set-based
 * (INSERT ... SELECT over generate_series and the rows made before):
 *
 * - repair types (三 first-level, six second-level) bound to six of the community's staff, and a
 *   repair ticket for every fifth room over the past year: most completed and rated (one in ten by
 *   the auto-rating, a third followed up), the last week's spread over the open states, some
 *   overdue, a few closed; free repairs (no bills); their timelines in workflow_logs and the
 *   technicians' service ratings; the open tickets' to-dos;
 * - five complaint categories and a complaint for every 50th room over the year (most rated,
 *   the last days' open), with timelines and the handlers' ratings;
 * - internal orders: a weekly and a monthly recurring template with their year of occurrences, and
 *   300 one-off orders, each with its checklist items and timeline;
 * - notices: two a week for a year (one in eight to the whole community, the rest to one or two
 *   buildings), the households reached frozen as publishing does (writeRecipients), reads by one
 *   member of about 60 % of them; this week's a draft and a scheduled one;
 * - steward profiles for 12 of the staff (the buildings shared among the eight 管家), five
 *   assessment items weighted per profile, and a year of monthly scores (two items a month) for a
 *   quarter of the households, by their building's steward.
 *
 * Runs after the setup area (its backlog table and the staff of `staff()`).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';
import { writeRecipients, type NoticeScope } from '../../server/src/modules/steward/noticeScope.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

/** The steps fillSteward takes (for the progress bar). */
export const STEWARD_STEPS = 4;
/** notices a community publishes in a year (two a week) */
export const NOTICES_PER_COMMUNITY = 104;
/** one-off internal orders a community raises in a year */
export const INTERNAL_ORDERS_PER_COMMUNITY = 300;

export async function fillSteward(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step('steward: repair types, tickets, timelines, ratings', async () => {
    for (const rid of rids) await repairs(c, rid);
  });
  await step('steward: complaints and internal orders', async () => {
    for (const rid of rids) {
      await complaints(c, rid);
      await internalOrders(c, rid);
    }
  });
  await step('steward: notices, households reached, reads', async () => {
    for (const rid of rids) await notices(c, rid);
  });
  await step('steward: profiles, assessment items, scores', async () => {
    for (const rid of rids) await profiles(c, rid);
  });
}

/** the community's staff made by scale-data's staff(), in id order, numbered from 1 */
const staffOf = (rid: number) => sql`
  SELECT a.id, a.name, row_number() OVER (ORDER BY a.id)::int AS k
  FROM accounts a JOIN account_regions ar ON ar.account_id = a.id AND ar.rid = ${rid}
  WHERE a.username LIKE 'staff%'`;

/** deterministic spread of k over [0, n) */
const spread = (k: ReturnType<typeof sql>, n: number) => sql`((${k}) * 7919 % ${sql.lit(n)})`;

async function repairs(c: Kysely<DB>, rid: number) {
  await sql`INSERT INTO repair_settings (rid) VALUES (${rid}) ON CONFLICT DO NOTHING`.execute(c);
  await sql`
    INSERT INTO repair_types (rid, parent_id, title, mode, area, paid, visit_policy, sort, remark, staff_ids)
    SELECT ${rid}, 0, t.title, t.mode, t.area, t.paid, t.visit, t.sort, t.remark,
      (SELECT array_agg(id ORDER BY id) FROM (${staffOf(rid)}) s WHERE s.k <= 6)
    FROM (VALUES ('水电', 'A', 'H', 'Y', 'A', 1, '户内水电，有偿'), ('门窗', 'G', 'H', 'Y', 'A', 2, '师傅抢单'),
      ('公共设施', 'A', 'P', 'N', 'U', 3, '公区报修，无偿')) AS t(title, mode, area, paid, visit, sort, remark)`.execute(c);
  await sql`
    INSERT INTO repair_types (rid, parent_id, title, mode, area, paid, accept_hours, finish_hours, visit_policy, sort, staff_ids)
    SELECT ${rid}, p.id, t.title, p.mode, p.area, p.paid, t.accept, t.finish, p.visit_policy, t.sort, p.staff_ids
    FROM (VALUES ('水电', '水管漏水', 1, 12, 1), ('水电', '电路跳闸', 1, 6, 2), ('门窗', '门锁维修', 2, 24, 1),
      ('门窗', '窗户更换', 4, 72, 2), ('公共设施', '电梯故障', 1, 8, 1), ('公共设施', '公区照明', 2, 24, 2)) AS t(parent, title, accept, finish, sort)
    JOIN repair_types p ON p.rid = ${rid} AND p.parent_id = 0 AND p.title = t.parent`.execute(c);
  // one ticket for every fifth room; n numbers them, age in minutes over the year (the newest hours old)
  await sql`DROP TABLE IF EXISTS scale_repairs`.execute(c);
  await sql`
    CREATE TEMP TABLE scale_repairs AS
    WITH picked AS (
      SELECT r.id AS hid, r.bid, row_number() OVER (ORDER BY r.id)::int AS n FROM rooms r WHERE r.rid = ${rid} AND r.id % 5 = 0
    ), types AS (
      SELECT id, finish_hours, accept_hours, staff_ids, row_number() OVER (ORDER BY id)::int - 1 AS k
      FROM repair_types WHERE rid = ${rid} AND parent_id <> 0
    ), techs AS (SELECT * FROM (${staffOf(rid)}) s WHERE s.k <= 6)
    SELECT p.*, t.id AS type_id, t.finish_hours, t.accept_hours, te.id AS tech_id, te.name AS tech_name,
      now() - make_interval(mins => (30 + ${spread(sql`p.n`, 525_600)})::int) AS created_at
    FROM picked p
    JOIN types t ON t.k = p.n % 6
    JOIN techs te ON te.k = 1 + (p.n / 6) % 6`.execute(c);
  // the state by age: a week old or more is completed (C one in 50), newer spread over the open states
  await sql`
    INSERT INTO repair_tickets (rid, no, source, type_id, hid, bid, reporter, phone, content, urgent, status,
      handler_id, handler_name, accept_by, finish_by, dispatched_at, accepted_at, paused_at, pause_reason,
      overdue, accept_breached_at, finish_breached_at, finished_at, finish_note, rate_since, rate_overall, rate_speed,
      rate_service, rate_text, rated_at, rate_auto, visit_satisfied, visit_note, visited_at, completed_at, closed_at,
      close_reason, urge_count, created_at, created_by)
    SELECT ${rid}, 'BX' || to_char(x.created_at, 'YYYYMMDD') || lpad(row_number() OVER (PARTITION BY x.created_at::date ORDER BY x.created_at, x.n)::text, 4, '0'),
      (ARRAY['D', 'D', 'T', 'N'])[1 + x.n % 4], x.type_id, x.hid, x.bid, coalesce(o.realname, '业主'), coalesce(o.mobile, '13800138000'),
      (ARRAY['厨房水槽下方水管接口渗水', '卫生间插座一用电吹风就跳闸', '入户门锁芯转不动', '主卧窗户玻璃有裂纹，需更换',
        '电梯运行有异响', '楼道灯不亮'])[1 + x.n % 6],
      x.n % 17 = 0, x.status,
      CASE WHEN x.status NOT IN ('W', 'C') THEN x.tech_id END, CASE WHEN x.status NOT IN ('W', 'C') THEN x.tech_name ELSE '' END,
      CASE WHEN x.status NOT IN ('W', 'C') THEN x.dispatched + make_interval(hours => x.accept_hours) END,
      x.created_at + make_interval(hours => x.finish_hours),
      CASE WHEN x.status NOT IN ('W', 'C') THEN x.dispatched END,
      CASE WHEN x.status NOT IN ('W', 'A', 'C') THEN x.dispatched + interval '30 minutes' END,
      CASE WHEN x.status = 'S' THEN x.dispatched + interval '2 hours' END,
      CASE WHEN x.status = 'S' THEN '配件缺货，等待到货' ELSE '' END,
      x.late, CASE WHEN x.late AND x.status IN ('W', 'A') THEN x.created_at + make_interval(hours => x.accept_hours) END,
      CASE WHEN x.late AND x.status NOT IN ('W', 'A') THEN x.created_at + make_interval(hours => x.finish_hours) END,
      x.finished, CASE WHEN x.finished IS NOT NULL THEN '已处理完毕，现场测试正常' ELSE '' END,
      x.finished,
      CASE WHEN x.rated IS NOT NULL THEN CASE WHEN x.auto THEN 5 ELSE 3 + x.n % 3 END END,
      CASE WHEN x.rated IS NOT NULL THEN CASE WHEN x.auto THEN 5 ELSE 2 + x.n % 4 END END,
      CASE WHEN x.rated IS NOT NULL THEN CASE WHEN x.auto THEN 5 ELSE 3 + (x.n / 3) % 3 END END,
      CASE WHEN x.auto THEN '超时未评价，系统默认好评' WHEN x.rated IS NOT NULL THEN (ARRAY['师傅很专业', '来得很快，服务好', '', '等配件等了很久'])[1 + x.n % 4] ELSE '' END,
      x.rated, x.auto,
      CASE WHEN x.visited IS NOT NULL THEN 'Y' END, CASE WHEN x.visited IS NOT NULL THEN '业主表示满意' ELSE '' END, x.visited,
      CASE WHEN x.status = 'D' THEN coalesce(x.visited, x.rated) END,
      CASE WHEN x.status = 'C' THEN x.created_at + interval '1 hour' END,
      CASE WHEN x.status = 'C' THEN '业主已自行处理' ELSE '' END,
      CASE WHEN x.late AND x.status IN ('W', 'A') THEN 1 ELSE 0 END,
      x.created_at, NULL
    FROM (
      SELECT s.*, s.created_at + interval '20 minutes' AS dispatched,
        -- finished on time but one in twelve late
        CASE WHEN s.status IN ('R', 'V', 'D') THEN s.created_at + make_interval(hours => CASE WHEN s.n % 12 = 0 THEN s.finish_hours + 5 ELSE s.finish_hours / 2 END) END AS finished,
        CASE WHEN s.status IN ('V', 'D') THEN s.created_at + make_interval(hours => s.finish_hours + CASE WHEN s.n % 10 = 0 THEN 53 ELSE 8 END) END AS rated,
        s.status IN ('V', 'D') AND s.n % 10 = 0 AS auto,
        CASE WHEN s.status = 'D' AND s.n % 3 = 0 THEN s.created_at + make_interval(hours => s.finish_hours + 80) END AS visited,
        (s.status IN ('R', 'V', 'D') AND s.n % 12 = 0)
          OR (s.status IN ('W', 'A', 'P') AND s.created_at + make_interval(hours => CASE WHEN s.status IN ('W', 'A') THEN s.accept_hours ELSE s.finish_hours END) < now()) AS late
      FROM (
        SELECT r.*, CASE
          WHEN r.n % 50 = 0 THEN 'C'
          WHEN r.created_at < now() - interval '7 days' THEN 'D'
          ELSE (ARRAY['W', 'A', 'P', 'P', 'S', 'R', 'V', 'D'])[1 + r.n % 8] END AS status
        FROM scale_repairs r
      ) s
    ) x
    LEFT JOIN LATERAL (
      SELECT m.realname, m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.hid = x.hid AND rm.status = 'Y' ORDER BY rm.relation <> 'owner', rm.id LIMIT 1
    ) o ON true`.execute(c);
  await sql`DROP TABLE scale_repairs`.execute(c);
  // the timelines, from the tickets' own times (a ticket closed before dispatch closes from W)
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, input, operator, created_by, created_at)
    SELECT t.rid, 'repair', t.id, s.transition, s.from_state, s.to_state, s.input::jsonb, s.operator, NULL, s.at
    FROM repair_tickets t
    CROSS JOIN LATERAL (VALUES
      (1, 'create', '', 'W', t.created_at, '{"note":"登记报修"}', '客服'),
      (2, 'dispatch', 'W', 'A', t.dispatched_at, '{"note":""}', '客服'),
      (3, 'accept', 'A', 'P', t.accepted_at, '{}', t.handler_name),
      (4, 'pause', 'P', 'S', t.paused_at, '{"reason":"配件缺货，等待到货"}', t.handler_name),
      (5, 'finish', 'P', 'R', t.finished_at, '{"note":"已处理完毕，现场测试正常"}', t.handler_name),
      (6, CASE WHEN t.rate_auto THEN 'autorate' ELSE 'rate' END, 'R', CASE WHEN t.status = 'V' OR t.visited_at IS NOT NULL THEN 'V' ELSE 'D' END,
        t.rated_at, '{}', CASE WHEN t.rate_auto THEN '系统' ELSE '客服' END),
      (7, 'visit', 'V', 'D', t.visited_at, '{"satisfied":"Y","note":"业主表示满意"}', '客服'),
      (8, 'close', 'W', 'C', t.closed_at, '{"reason":"业主已自行处理"}', '客服')
    ) AS s(ord, transition, from_state, to_state, at, input, operator)
    WHERE t.rid = ${rid} AND s.at IS NOT NULL
    ORDER BY t.id, s.ord`.execute(c);
  await sql`
    INSERT INTO service_ratings (rid, account_id, source, source_id, score, rated_at)
    SELECT rid, handler_id, 'repair', id, rate_overall, rated_at FROM repair_tickets
    WHERE rid = ${rid} AND rated_at IS NOT NULL AND handler_id IS NOT NULL`.execute(c);
  await sql`
    INSERT INTO backlog (rid, kind, source_id, title, content, link, roles)
    SELECT rid, 'repair', id::text, '报修待派单：' || no, left(content, 60), '/steward/repairs?id=' || id, '{steward}'
    FROM repair_tickets WHERE rid = ${rid} AND status = 'W'`.execute(c);
}

async function complaints(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO complaint_categories (rid, name, respond_hours, close_hours, sort)
    SELECT ${rid}, t.name, t.respond, t.close, t.sort
    FROM (VALUES ('服务态度', 2, 48, 1), ('环境卫生', 4, 72, 2), ('安保秩序', 2, 24, 3), ('噪音扰民', 2, 48, 4), ('其他', 8, 120, 5))
      AS t(name, respond, close, sort)`.execute(c);
  // one for every 50th room over the year; the last three days' still open; one in 25 closed as invalid
  await sql`
    INSERT INTO complaints (rid, kind, category_id, hid, contact, phone, content, status, handler_id, handler_name,
      respond_deadline, close_deadline, accepted_at, finished_at, finish_note, rating, rating_text, rated_at, rated_auto,
      close_reason, close_note, closed_at, respond_overdue_at, creator, created_at)
    SELECT ${rid}, x.kind, x.cat, x.hid, coalesce(o.realname, '业主'), coalesce(o.mobile, '13800138000'), x.content, x.status,
      CASE WHEN x.status <> 'W' THEN x.staff_id END, CASE WHEN x.status <> 'W' THEN x.staff_name ELSE '' END,
      x.created_at + make_interval(hours => x.respond), x.created_at + make_interval(hours => x.close),
      CASE WHEN x.status NOT IN ('W') THEN x.created_at + interval '40 minutes' END,
      CASE WHEN x.status IN ('E', 'Y') THEN x.created_at + make_interval(hours => x.close / 2) END,
      CASE WHEN x.status IN ('E', 'Y') THEN '已与业主沟通并处理完毕' ELSE '' END,
      CASE WHEN x.status = 'Y' THEN 2 + x.n % 4 END, '',
      CASE WHEN x.status = 'Y' THEN x.created_at + make_interval(hours => x.close / 2 + 6) END, x.status = 'Y' AND x.n % 7 = 0,
      CASE WHEN x.status = 'X' THEN 'invalid' ELSE '' END, CASE WHEN x.status = 'X' THEN '与实际情况不符' ELSE '' END,
      CASE WHEN x.status = 'X' THEN x.created_at + interval '2 hours' END,
      CASE WHEN x.status = 'W' AND x.created_at + make_interval(hours => x.respond) < now() THEN x.created_at + make_interval(hours => x.respond) END,
      '客服', x.created_at
    FROM (
      SELECT p.*, cat.id AS cat, cat.respond_hours AS respond, cat.close_hours AS close, st.id AS staff_id, st.name AS staff_name,
        (ARRAY['C', 'C', 'C', 'S', 'Q'])[1 + p.n % 5] AS kind,
        (ARRAY['保洁不及时，楼道垃圾堆放', '夜间装修噪音扰民', '门岗对访客态度生硬', '建议增加儿童游乐设施', '咨询物业费缴纳方式'])[1 + p.n % 5] AS content,
        CASE WHEN p.n % 25 = 0 THEN 'X' WHEN p.created_at > now() - interval '3 days' THEN (ARRAY['W', 'D', 'E'])[1 + p.n % 3] ELSE 'Y' END AS status
      FROM (
        SELECT r.id AS hid, row_number() OVER (ORDER BY r.id)::int AS n,
          now() - make_interval(mins => (20 + ${spread(sql`r.id`, 525_600)})::int) AS created_at
        FROM rooms r WHERE r.rid = ${rid} AND r.id % 50 = 0
      ) p
      JOIN (SELECT id, respond_hours, close_hours, row_number() OVER (ORDER BY id)::int - 1 AS k FROM complaint_categories WHERE rid = ${rid}) cat ON cat.k = p.n % 5
      JOIN (${staffOf(rid)}) st ON st.k = 7 + p.n % 8
    ) x
    LEFT JOIN LATERAL (
      SELECT m.realname, m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.hid = x.hid AND rm.status = 'Y' ORDER BY rm.relation <> 'owner', rm.id LIMIT 1
    ) o ON true`.execute(c);
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, input, operator, created_at)
    SELECT t.rid, 'complaint', t.id, s.transition, s.from_state, s.to_state, s.input::jsonb, s.operator, s.at
    FROM complaints t
    CROSS JOIN LATERAL (VALUES
      (1, 'create', '', 'W', t.created_at, '{}', t.creator),
      (2, 'accept', 'W', 'D', t.accepted_at, '{}', t.handler_name),
      (3, 'finish', 'D', 'E', t.finished_at, '{"note":"已与业主沟通并处理完毕"}', t.handler_name),
      (4, CASE WHEN t.rated_auto THEN 'autorate' ELSE 'rate' END, 'E', 'Y', t.rated_at, '{}', CASE WHEN t.rated_auto THEN '系统' ELSE '客服' END),
      (5, 'close', 'D', 'X', t.closed_at, '{"reason":"invalid"}', '客服')
    ) AS s(ord, transition, from_state, to_state, at, input, operator)
    WHERE t.rid = ${rid} AND s.at IS NOT NULL ORDER BY t.id, s.ord`.execute(c);
  await sql`
    INSERT INTO service_ratings (rid, account_id, source, source_id, score, rated_at)
    SELECT rid, handler_id, 'complaint', id, rating, rated_at FROM complaints
    WHERE rid = ${rid} AND rated_at IS NOT NULL AND handler_id IS NOT NULL`.execute(c);
}

async function internalOrders(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO internal_order_templates (rid, title, kind, location, content, handler_ids, items, due_hours, recurrence, start_date, next_on, creator)
    SELECT ${rid}, t.title, t.kind, t.location, t.content, ARRAY[(SELECT id FROM (${staffOf(rid)}) s WHERE s.k = t.staff)],
      t.items::text[], t.due, t.rec, current_date - 364, t.next, '客服'
    FROM (VALUES ('消防设施周检', 'P', '各楼栋消防通道', '检查灭火器、消防栓、应急灯', '{检查灭火器压力,检查消防栓,测试应急灯}', 48, 'W', current_date + 7 - extract(isodow FROM current_date)::int % 7, 16),
      ('二次供水水箱月度清洗', 'E', '地下泵房', '清洗水箱并送检', '{排空水箱,清洗消毒,水质送检}', 72, 'M', (date_trunc('month', current_date) + interval '1 month')::date, 17))
      AS t(title, kind, location, content, items, due, rec, next, staff)`.execute(c);
  // the templates' occurrences over the year (weekly and monthly), then the one-off orders
  await sql`
    INSERT INTO internal_orders (rid, template_id, occurs_on, title, kind, location, content, handler_ids, due_hours, due_at, status,
      score, started_at, submitted_at, accepted_at, creator, created_at)
    SELECT t.rid, t.id, d::date, t.title, t.kind, t.location, t.content, t.handler_ids, t.due_hours, d + make_interval(hours => 8 + t.due_hours),
      CASE WHEN d > now() - interval '2 days' THEN 'P' ELSE 'Y' END,
      CASE WHEN d <= now() - interval '2 days' THEN 4 + (extract(doy FROM d)::int % 2) END,
      CASE WHEN d <= now() - interval '2 days' THEN d + interval '9 hours' END,
      CASE WHEN d <= now() - interval '2 days' THEN d + interval '15 hours' END,
      CASE WHEN d <= now() - interval '2 days' THEN d + interval '18 hours' END,
      '系统', d + interval '8 hours'
    FROM internal_order_templates t
    CROSS JOIN LATERAL generate_series(t.start_date::timestamp, (current_date)::timestamp,
      CASE t.recurrence WHEN 'W' THEN interval '7 days' ELSE interval '1 month' END) d
    WHERE t.rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO internal_orders (rid, title, kind, location, content, handler_ids, cc_ids, due_hours, due_at, status, score,
      started_at, submitted_at, accepted_at, closed_at, close_note, creator, created_at)
    SELECT ${rid}, x.title, x.kind, x.location, x.title, ARRAY[x.staff], ARRAY[x.cc], 24, x.at + interval '24 hours', x.status,
      CASE WHEN x.status = 'Y' THEN 3 + x.g % 3 END,
      CASE WHEN x.status IN ('D', 'C', 'Y') THEN x.at + interval '1 hour' END,
      CASE WHEN x.status IN ('C', 'Y') THEN x.at + interval '6 hours' END,
      CASE WHEN x.status = 'Y' THEN x.at + interval '8 hours' END,
      CASE WHEN x.status = 'X' THEN x.at + interval '2 hours' END, CASE WHEN x.status = 'X' THEN '已由其他班组处理' ELSE '' END,
      '客服', x.at
    FROM (
      SELECT g, (SELECT id FROM (${staffOf(rid)}) s WHERE s.k = 1 + g % 20) AS staff, (SELECT id FROM (${staffOf(rid)}) s WHERE s.k = 21 + g % 5) AS cc,
        (ARRAY['E', 'P', 'C', 'T', 'O'])[1 + g % 5] AS kind,
        (ARRAY['楼道灯更换', '东门道闸异响检修', '中心花园绿化修剪', '地下车库保洁', '外墙广告清理'])[1 + g % 5] || ' ' || (1 + g % 30) || '号楼' AS title,
        (1 + g % 30) || '号楼' AS location,
        now() - make_interval(mins => ${spread(sql`g`, 525_600)}::int) AS at,
        CASE WHEN g % 40 = 0 THEN 'X' WHEN ${spread(sql`g`, 525_600)} < 4320 THEN (ARRAY['P', 'D', 'C'])[1 + g % 3] ELSE 'Y' END AS status
      FROM generate_series(1, ${INTERNAL_ORDERS_PER_COMMUNITY}) g
    ) x`.execute(c);
  await sql`
    INSERT INTO internal_order_items (rid, order_id, sort, title, done, done_at, done_by)
    SELECT o.rid, o.id, i.sort, i.title, o.status IN ('C', 'Y'), CASE WHEN o.status IN ('C', 'Y') THEN o.submitted_at END,
      CASE WHEN o.status IN ('C', 'Y') THEN '师傅' ELSE '' END
    FROM internal_orders o
    CROSS JOIN LATERAL (VALUES (1, '现场检查'), (2, '处理'), (3, '拍照留存')) AS i(sort, title)
    WHERE o.rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, input, operator, created_at)
    SELECT o.rid, 'internalorder', o.id, s.transition, s.from_state, s.to_state, '{}'::jsonb, s.operator, s.at
    FROM internal_orders o
    CROSS JOIN LATERAL (VALUES
      (1, 'create', '', 'P', o.created_at, o.creator), (2, 'start', 'P', 'D', o.started_at, '师傅'),
      (3, 'submit', 'D', 'C', o.submitted_at, '师傅'), (4, 'accept', 'C', 'Y', o.accepted_at, '客服'),
      (5, 'close', 'P', 'X', o.closed_at, '客服')
    ) AS s(ord, transition, from_state, to_state, at, operator)
    WHERE o.rid = ${rid} AND s.at IS NOT NULL ORDER BY o.id, s.ord`.execute(c);
}

async function notices(c: Kysely<DB>, rid: number) {
  const buildings = await sql<{ id: number }>`SELECT id FROM buildings WHERE rid = ${rid} ORDER BY id`.execute(c);
  const bids = buildings.rows.map((b) => Number(b.id));
  const types = ['notice', 'outage', 'activity', 'fees', 'urgent'] as const;
  const titles = ['小区通知', '停水停电通知', '社区活动', '物业费缴纳提醒', '紧急通知'];
  const now = Date.now();
  for (let k = 0; k < NOTICES_PER_COMMUNITY; k++) {
    // k = 0 is the newest (a draft), k = 1 scheduled for tomorrow, the rest published every 3.5 days back
    const ago = k === 0 ? 2 : k * 84 - 60;
    const at = new Date(now - ago * 3_600_000);
    const scope: NoticeScope = k % 8 === 2 ? 'all' : 'building';
    const ids = scope === 'all' ? [] : [bids[(k * 7) % bids.length]!, ...(k % 3 === 0 ? [bids[(k * 7 + 1) % bids.length]!] : [])];
    const status = k === 0 ? 'D' : k === 1 ? 'S' : k % 26 === 5 ? 'W' : 'P';
    const published = status === 'P' || status === 'W';
    const row = await sql<{ id: number }>`
      INSERT INTO notices (rid, title, type, body, scope, scope_ids, audience, channels, send_at, pinned, status, published_at,
        withdrawn_at, created_at, updated_at)
      VALUES (${rid}, ${`${titles[k % 5]}（第 ${NOTICES_PER_COMMUNITY - k} 期）`}, ${types[k % 5]},
        ${'<p>各位业主：</p><p>' + titles[k % 5] + '，详情请咨询物业服务中心。</p>'}, ${scope}, ${ids}::bigint[], 'all', '{app}',
        ${status === 'S' ? new Date(now + 20 * 3_600_000) : null}, ${k === 2 ? 'Y' : 'N'}, ${status},
        ${published ? at : null}, ${status === 'W' ? new Date(at.getTime() + 86_400_000) : null}, ${at}, ${at})
      RETURNING id`.execute(c);
    if (!published) continue;
    const id = row.rows[0]!.id;
    const households = await writeRecipients(c, rid, id, { scope, scope_ids: ids, audience: 'all' });
    await sql`UPDATE notices SET households = ${households} WHERE rid = ${rid} AND id = ${id}`.execute(c);
  }
  // one member of about 60 % of the households reached read each notice, within two days of it
  await sql`
    INSERT INTO notice_reads (rid, notice_id, hid, member_id, first_read_at, last_read_at, read_count)
    SELECT nr.rid, nr.notice_id, nr.hid, rm.member_id, t.at, least(t.at + interval '3 hours', now()), 1 + (nr.hid % 3)::int
    FROM notice_recipients nr
    JOIN notices n ON n.rid = nr.rid AND n.id = nr.notice_id
    JOIN LATERAL (
      SELECT member_id FROM room_members WHERE rid = nr.rid AND hid = nr.hid AND status = 'Y' ORDER BY id LIMIT 1
    ) rm ON true
    CROSS JOIN LATERAL (
      SELECT least(n.published_at + make_interval(mins => (10 + (nr.hid * 37) % 2880)::int), now() - interval '5 minutes') AS at
    ) t
    WHERE nr.rid = ${rid} AND (nr.hid * 31 + nr.notice_id) % 10 < 6`.execute(c);
}

async function profiles(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO assessment_items (rid, name, description, sort)
    SELECT ${rid}, t.name, t.description, t.sort
    FROM (VALUES ('服务态度', '接待是否热情、耐心', 1), ('响应速度', '报事报修是否及时响应', 2), ('问题解决', '诉求是否得到解决', 3),
      ('环境维护', '负责区域的卫生与秩序', 4), ('沟通回访', '是否主动沟通、回访', 5)) AS t(name, description, sort)`.execute(c);
  // 12 of the staff: eight 管家, then 客服, 工程, 秩序, 保洁
  await sql`
    INSERT INTO steward_profiles (rid, account_id, post, phone, introduction, sort)
    SELECT ${rid}, s.id, CASE WHEN s.k <= 14 THEN 'GJ' ELSE (ARRAY['KF', 'GC', 'ZX', 'BJ'])[s.k - 14] END,
      '1391' || lpad(s.id::text, 7, '0'), '负责片区日常服务，欢迎随时联系', s.k
    FROM (${staffOf(rid)}) s WHERE s.k BETWEEN 7 AND 18`.execute(c);
  await sql`
    INSERT INTO steward_profile_areas (rid, profile_id, bid)
    SELECT ${rid}, p.id, b.id
    FROM (SELECT id, row_number() OVER (ORDER BY id)::int - 1 AS k FROM buildings WHERE rid = ${rid}) b
    JOIN (SELECT id, row_number() OVER (ORDER BY id)::int - 1 AS k FROM steward_profiles WHERE rid = ${rid} AND post = 'GJ') p
      ON p.k = b.k % 8`.execute(c);
  await sql`
    INSERT INTO steward_profile_items (rid, profile_id, item_id, weight)
    SELECT ${rid}, p.id, i.id, (ARRAY[30, 20, 20, 15, 15])[i.sort]
    FROM steward_profiles p CROSS JOIN assessment_items i WHERE p.rid = ${rid} AND i.rid = ${rid}`.execute(c);
  // a quarter of the households with a current resident score their building's steward monthly, two items a month
  await sql`
    INSERT INTO score_entries (rid, hid, account_id, item_id, period, score, content, source, created_at, updated_at)
    SELECT ${rid}, h.id, h.account_id, i.id, to_char(m, 'YYYY-MM'), 3 + ((h.id + i.sort + extract(month FROM m)::int) % 3),
      '', CASE WHEN h.id % 3 = 0 THEN 'staff' ELSE 'owner' END, at, at
    FROM (
      SELECT r.id, p.account_id FROM rooms r
      JOIN steward_profile_areas a ON a.rid = r.rid AND a.bid = r.bid
      JOIN steward_profiles p ON p.rid = a.rid AND p.id = a.profile_id
      WHERE r.rid = ${rid} AND r.id % 4 = 0
        AND EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y')
    ) h
    CROSS JOIN generate_series(date_trunc('month', current_date) - interval '11 months', date_trunc('month', current_date), interval '1 month') m
    JOIN assessment_items i ON i.rid = ${rid} AND i.sort IN (1 + extract(month FROM m)::int % 5, 1 + (extract(month FROM m)::int + 2) % 5)
    CROSS JOIN LATERAL (SELECT least(m + make_interval(days => (h.id % 27)::int, hours => 10), now() - interval '1 hour') AS at) t`.execute(
    c,
  );
}
