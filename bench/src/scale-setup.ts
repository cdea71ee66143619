/**
 * The setup area (系统设置, issue 36) of the scale data (bench/README.md#scale-data): the demo's
 * seeders where they fit (settings and links, categories and dictionary, rosters, SMS), then per
 * community, set-based (INSERT ... SELECT over generate_series and the rows made before):
 *
 * - a handful of common links and daily switches, the SMS settings and templates;
 * - duty shifts and two rosters over the community's staff (those `staff()` made);
 * - a year of SMS jobs, 24 a community (one a fortnight: payment and arrears reminders, outage and
 *   activity notices, custom notes), one message per owner (a member owning rooms in the
 *   community, their rooms' addresses joined, as smsAudience.ts picks them) for each job's audience:
 *   the whole community, a quarter of it (arrears), some buildings (outage, custom); about 475,000
 *   messages for 50,000 rooms; an unsubscribe list of one owner in 200;
 * - 3,000 to-dos a community over a year, the latest and a few forgotten ones still open;
 * - a year of notifications (docs/product.md#notifications), 30,000 a community: the admin's and
 *   the steward's 站内消息 (the latest 200 unread) and owners' SMS of repairs, payments and visits,
 *   a few of them 未发送 beyond the daily cap.
 *
 * Runs after the rooms' kept addresses are built (they are the messages' addresses).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';
import { spreadNameOf } from '../../server/src/modules/owners/seed.js';
import { seedDictAndCategories } from '../../server/src/modules/setup/dictSeed.js';
import { seedRosters } from '../../server/src/modules/setup/seed-roster.js';
import { seedSms } from '../../server/src/modules/setup/seed-sms.js';
import { seedSettings } from '../../server/src/modules/setup/seed.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

/** SMS jobs a community sends in a year (one a fortnight) */
export const SMS_JOBS_PER_COMMUNITY = 24;
/** to-dos a community raised in a year */
export const BACKLOG_PER_COMMUNITY = 3_000;

/** notifications a community gave out in a year */
export const NOTIFICATIONS_PER_COMMUNITY = 30_000;

/** The steps fillSetup takes (for the progress bar). */
export const SETUP_STEPS = 5;

export async function fillSetup(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step('setup: settings, links, daily switches, categories, dictionary', () => settings(c, rids));
  await step('setup: duty shifts and rosters', () => rosters(c, rids));
  await step('setup: SMS templates, jobs, messages, unsubscribes', () => sms(c, rids));
  await step('setup: to-dos', () => backlog(c, rids));
  await step('setup: notifications (inbox and SMS)', () => notifications(c, rids));
}

async function settings(c: Kysely<DB>, rids: number[]) {
  // the demo's: community 1's brand and links, the group's links, a few switches in 1 and 2
  await seedSettings(c);
  await sql`
    INSERT INTO common_links (rid, title, url, kind, icon, target, roles, sort)
    SELECT r.rid, l.title, l.url, l.kind, l.icon, l.target, l.roles::text[], 10 + l.n
    FROM unnest(${rids}::int[]) r(rid)
    CROSS JOIN (VALUES
      (1, '收费标准', '/fees/feeitemlist', 'internal', 'FileTextOutlined', 'self', '{fees}'),
      (2, '业主名册', '/basismembers/index', 'internal', 'TeamOutlined', 'self', '{}'),
      (3, '政务服务网', 'https://www.gov.cn', 'external', 'GlobalOutlined', 'blank', '{}'),
      (4, '维修资金查询', 'https://www.example.com/fund', 'external', 'BankOutlined', 'blank', '{financecount}'),
      (5, '物业协会', 'https://www.example.org', 'external', 'LinkOutlined', 'blank', '{}')
    ) AS l(n, title, url, kind, icon, target, roles)`.execute(c);
  await sql`
    INSERT INTO daily_settings (rid, key, value)
    SELECT r.rid, d.key, d.value::jsonb FROM unnest(${rids}::int[]) r(rid)
    CROSS JOIN (VALUES ('visitor_review', 'true'), ('repair_finish_hours', '48'), ('notice_read_receipt', 'true'),
      ('repair_dispatch_mode', '"round"'), ('visitor_daily_max', '5')) AS d(key, value)
    ON CONFLICT (rid, key) DO NOTHING`.execute(c);
  // every community's business categories, the group's visitor reasons and car brands (from the
  // scale data's visitors and cars), community 1's owner tags
  await seedDictAndCategories(c);
}

async function rosters(c: Kysely<DB>, rids: number[]) {
  // community 1's demo rosters (its guard, repairman and steward)
  await seedRosters(c);
  await sql`
    INSERT INTO duty_shifts (rid, name, times, remark)
    SELECT r.rid, s.name, s.times, s.remark FROM unnest(${rids}::int[]) r(rid)
    CROSS JOIN (VALUES ('早班', '06:00-14:00', '门岗'), ('中班', '14:00-22:00', '门岗、巡逻'), ('晚班', '22:00-06:00', '跨夜，到次日 06:00'),
      ('客服班', '08:30-12:00,13:30-17:30', '客服中心')) AS s(name, times, remark)
    ON CONFLICT (rid, name) DO NOTHING`.execute(c);
  // two rosters a community, from the first of last month: 早, 中, 晚, 休 in four days; 客服 on weekdays
  const made = await sql<{ rid: number; id: string; kind: string }>`
    INSERT INTO schedules (rid, name, kind, cycle, start_date, remark)
    SELECT r.rid, s.name, s.kind, s.cycle, (date_trunc('month', current_date) - interval '1 month')::date, s.remark
    FROM unnest(${rids}::int[]) r(rid)
    CROSS JOIN (VALUES ('安保四班轮换', 'D', 4, '早班、中班、晚班、休息，四天一轮'), ('客服周排班', 'W', 1, '周末休息')) AS s(name, kind, cycle, remark)
    RETURNING rid, id, kind`.execute(c);
  await sql`
    INSERT INTO schedule_days (rid, schedule_id, day_no, shift_id)
    SELECT s.rid, s.id, d.day_no, (SELECT id FROM duty_shifts WHERE rid = s.rid AND name = d.shift)
    FROM schedules s JOIN (VALUES ('D', 0, '早班'), ('D', 1, '中班'), ('D', 2, '晚班'), ('D', 3, NULL),
      ('W', 0, '客服班'), ('W', 1, '客服班'), ('W', 2, '客服班'), ('W', 3, '客服班'), ('W', 4, '客服班'), ('W', 5, NULL), ('W', 6, NULL))
      AS d(kind, day_no, shift) ON d.kind = s.kind
    WHERE s.id = ANY(${made.rows.map((r) => r.id)}::bigint[])`.execute(c);
  // the community's scale staff (bench's staff(): username staffN, placed by id % communities), half on each roster
  await sql`
    INSERT INTO schedule_staff (rid, schedule_id, account_id)
    SELECT s.rid, s.id, ar.account_id FROM schedules s
    JOIN account_regions ar ON ar.rid = s.rid
    JOIN accounts a ON a.id = ar.account_id AND a.username LIKE 'staff%'
    WHERE s.id = ANY(${made.rows.map((r) => r.id)}::bigint[]) AND ((a.id / ${rids.length}) % 2 = 0) = (s.kind = 'D')`.execute(c);
}

/** The scale templates: the demo's codes (seed-sms.ts) and two more, approved, in every community. */
const TEMPLATES = [
  [
    'SMS_468220001',
    '欠费催缴',
    '尊敬的${name}，您的房屋${room}尚欠物业费${amount}元，请尽快到物业服务中心或线上缴纳，如已缴纳请忽略。',
    'notice',
    'Y',
  ],
  [
    'SMS_468220002',
    '停水通知',
    '尊敬的业主：因管网检修，${room}所在楼栋将于${date}停水，请提前储水，给您带来不便敬请谅解。',
    'notice',
    'Y',
  ],
  ['SMS_468220003', '缴费提醒', '尊敬的${name}，${room}的物业费账单已生成，请于月底前缴纳。', 'notice', 'Y'],
  ['SMS_468220004', '社区活动', '${community}邀您参加周末亲子活动，详情请见业主小程序。', 'marketing', 'N'],
  ['SMS_468220005', '活动通知', '${community}将于${date}举办邻里活动，欢迎${name}参加，详情请见业主小程序。', 'notice', 'Y'],
  ['SMS_468220006', '温馨提示', '尊敬的${name}：${text}', 'notice', 'Y'],
] as const;

async function sms(c: Kysely<DB>, rids: number[]) {
  // the demo's: settings and templates of communities 1 and 2, three jobs in 1 (one draft), one in 2
  await seedSms(c);
  await sql`
    INSERT INTO sms_settings (rid, provider, sign_name)
    SELECT id, 'sandbox', title || '物业' FROM regions WHERE id = ANY(${rids}::int[])
    ON CONFLICT (rid) DO NOTHING`.execute(c);
  await sql`
    INSERT INTO sms_templates (rid, code, title, content, kind, approved)
    SELECT r.rid, t.code, t.title, t.content, t.kind, t.approved FROM unnest(${rids}::int[]) r(rid)
    CROSS JOIN jsonb_to_recordset(${JSON.stringify(TEMPLATES.map(([code, title, content, kind, approved]) => ({ code, title, content, kind, approved })))}::jsonb)
      AS t(code text, title text, content text, kind text, approved text)
    ON CONFLICT (rid, code) DO NOTHING`.execute(c);

  // the owners, one a member with their rooms' addresses, numbered in the community
  await sql`DROP TABLE IF EXISTS scale_sms_to`.execute(c);
  await sql`
    CREATE TEMP TABLE scale_sms_to AS
    SELECT o.*, row_number() OVER (PARTITION BY o.rid ORDER BY o.member_id) AS k FROM (
      SELECT m.rid, m.id AS member_id, m.mobile, m.realname AS name, min(r.bid) AS bid,
        string_agg(r.address, '、' ORDER BY r.building_sort, r.unit_sort, r.id) AS address
      FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      WHERE rm.rid = ANY(${rids}::int[]) AND rm.relation = 'owner' AND rm.status = 'Y' AND m.mobile <> ''
      GROUP BY m.rid, m.id) o`.execute(c);
  await sql`ANALYZE scale_sms_to`.execute(c);

  // one owner in 200 has asked for no more messages
  await sql`
    INSERT INTO sms_unsubscribes (rid, mobile, remark, created_at)
    SELECT rid, mobile, (ARRAY['业主来电要求不再接收', '短信回复 TD 退订', '业主小程序中关闭短信通知'])[1 + k % 3], now() - (k % 300) * interval '1 day'
    FROM scale_sms_to WHERE k % 200 = 7
    ON CONFLICT (rid, mobile) DO NOTHING`.execute(c);

  // a year of jobs, oldest first (ids in time order), the newest a draft; the demo's jobs (made above) keep their messages
  const {
    rows: [first],
  } = await sql<{ id: number }>`SELECT coalesce(max(id), 0)::int AS id FROM sms_jobs`.execute(c);
  const firstJob = first!.id;
  const kind = sql`(ARRAY['payment','arrears','outage','activity','arrears','custom'])[1 + g % 6]`;
  await sql`
    INSERT INTO sms_jobs (rid, name, kind, template_id, var_map, audience, schedule, urgent, dedupe_days, status, run_no,
      started_at, finished_at, created_by, created_at)
    SELECT j.rid, j.name, j.kind, t.id, j.var_map::jsonb, j.audience::jsonb, 'now', 'N', CASE WHEN j.kind = 'arrears' THEN 7 ELSE 0 END,
      CASE WHEN j.g = 1 THEN 'D' ELSE 'Y' END, CASE WHEN j.g = 1 THEN 0 ELSE 1 END,
      CASE WHEN j.g > 1 THEN j.at + interval '10 minutes' END, CASE WHEN j.g > 1 THEN j.at + interval '40 minutes' END,
      (SELECT id FROM accounts WHERE username = 'admin'), j.at
    FROM (
      SELECT r.rid, g, k.kind, date_trunc('day', now()) - ((g * 15 - 3) * interval '1 day') + interval '9 hours' AS at,
        to_char(now() - ((g * 15 - 3) * interval '1 day'), 'FMMM') || '月' || CASE k.kind
          WHEN 'payment' THEN '物业费缴费提醒' WHEN 'arrears' THEN '欠费催缴' WHEN 'outage' THEN '停水通知'
          WHEN 'activity' THEN '邻里活动通知' ELSE '温馨提示' END || CASE WHEN g % 2 = 0 THEN '' ELSE '（二）' END AS name,
        CASE k.kind WHEN 'payment' THEN 'SMS_468220003' WHEN 'arrears' THEN 'SMS_468220001' WHEN 'outage' THEN 'SMS_468220002'
          WHEN 'activity' THEN 'SMS_468220005' ELSE 'SMS_468220006' END AS code,
        CASE k.kind
          WHEN 'payment' THEN '{"name":{"source":"name","text":""},"room":{"source":"room","text":""}}'
          WHEN 'arrears' THEN '{"name":{"source":"name","text":""},"room":{"source":"room","text":""},"amount":{"source":"amount","text":""}}'
          WHEN 'outage' THEN '{"room":{"source":"room","text":""},"date":{"source":"text","text":"本周六 9:00–17:00"}}'
          WHEN 'activity' THEN '{"community":{"source":"community","text":""},"date":{"source":"text","text":"本周日下午"},"name":{"source":"name","text":""}}'
          ELSE '{"name":{"source":"name","text":""},"text":{"source":"text","text":"近期天气转凉，请关好门窗，注意用电安全。"}}' END AS var_map,
        json_build_object('type', CASE k.kind WHEN 'arrears' THEN 'arrears' WHEN 'outage' THEN 'places' WHEN 'custom' THEN 'places' ELSE 'all' END,
          'bids', CASE WHEN k.kind IN ('outage', 'custom') THEN (SELECT coalesce(json_agg(b.id ORDER BY b.id), '[]') FROM buildings b
            WHERE b.rid = r.rid AND b.id % CASE k.kind WHEN 'outage' THEN 20 ELSE 10 END = g % CASE k.kind WHEN 'outage' THEN 20 ELSE 10 END) ELSE '[]' END,
          'tids', '[]'::json, 'min_amount', CASE WHEN k.kind = 'arrears' THEN '0.01' ELSE '0' END,
          'months', CASE WHEN k.kind = 'arrears' THEN 1 ELSE 0 END, 'member_ids', '[]'::json, 'list', '[]'::json)::text AS audience
      FROM unnest(${rids}::int[]) r(rid) CROSS JOIN generate_series(1, ${SMS_JOBS_PER_COMMUNITY}) g CROSS JOIN LATERAL (SELECT ${kind} AS kind) k
    ) j JOIN sms_templates t ON t.rid = j.rid AND t.code = j.code
    ORDER BY j.rid, j.g DESC`.execute(c);
  await sql`DROP TABLE IF EXISTS scale_sms_jobs`.execute(c);
  await sql`
    CREATE TEMP TABLE scale_sms_jobs AS
    SELECT j.rid, j.id, j.kind, j.started_at, j.created_by, (SELECT sign_name FROM sms_settings s WHERE s.rid = j.rid) AS sign,
      (SELECT title FROM regions g WHERE g.id = j.rid) AS community, row_number() OVER (PARTITION BY j.rid ORDER BY j.id DESC) AS g,
      ARRAY(SELECT (x::text)::int FROM jsonb_array_elements(j.audience->'bids') x) AS bids
    FROM sms_jobs j WHERE j.rid = ANY(${rids}::int[]) AND j.id > ${firstJob} AND j.status <> 'D'`.execute(c);

  // the messages, a community at a time: the recipients of each job's audience, 2 % of a third of
  // the jobs failed at submission, one delivered message in 50 not delivered
  for (const rid of rids) {
    await sql`
      INSERT INTO sms_messages (rid, sms_job_id, run_no, member_id, mobile, name, address, content, params, segments,
        submit_status, receipt_status, code, reason, out_id, biz_id, claimed_at, submitted_at, receipt_at, created_by, created_at)
      SELECT j.rid, j.id, 1, t.member_id, t.mobile, t.name, t.address, m.content, m.params,
        CASE WHEN char_length(m.content) <= 70 THEN 1 ELSE ceil(char_length(m.content) / 67.0)::int END,
        CASE WHEN f.failed THEN 'F' ELSE 'S' END,
        CASE WHEN f.failed THEN '' WHEN (t.k + j.id) % 50 = 0 THEN 'N' ELSE 'Y' END,
        CASE WHEN f.failed THEN 'isv.BUSINESS_LIMIT_CONTROL' WHEN (t.k + j.id) % 50 = 0 THEN 'MK:0001' ELSE '' END,
        CASE WHEN f.failed THEN '触发号码频控' WHEN (t.k + j.id) % 50 = 0 THEN '终端无法接收（关机或停机）' ELSE '' END,
        j.rid || '-' || j.id || '-1-' || t.member_id, CASE WHEN f.failed THEN '' ELSE 'SB' || md5(j.id || '-' || t.member_id) END,
        j.started_at + t.k * interval '20 ms', j.started_at + t.k * interval '20 ms',
        CASE WHEN NOT f.failed THEN j.started_at + t.k * interval '20 ms' + interval '3 seconds' END, j.created_by, j.started_at
      FROM scale_sms_jobs j
      JOIN scale_sms_to t ON t.rid = j.rid AND CASE j.kind
        WHEN 'arrears' THEN t.k % 4 = j.id % 4
        WHEN 'outage' THEN t.bid = ANY(j.bids)
        WHEN 'custom' THEN t.bid = ANY(j.bids)
        ELSE true END
      CROSS JOIN LATERAL (SELECT round(200 + (t.member_id * 37) % 900 + (t.member_id % 100) / 100.0, 2)::text AS amount) a
      CROSS JOIN LATERAL (SELECT CASE j.kind
          WHEN 'payment' THEN jsonb_build_object('name', t.name, 'room', t.address)
          WHEN 'arrears' THEN jsonb_build_object('name', t.name, 'room', t.address, 'amount', a.amount)
          WHEN 'outage' THEN jsonb_build_object('room', t.address, 'date', '本周六 9:00–17:00')
          WHEN 'activity' THEN jsonb_build_object('community', j.community, 'date', '本周日下午', 'name', t.name)
          ELSE jsonb_build_object('name', t.name, 'text', '近期天气转凉，请关好门窗，注意用电安全。') END AS params,
        '【' || j.sign || '】' || CASE j.kind
          WHEN 'payment' THEN '尊敬的' || t.name || '，' || t.address || '的物业费账单已生成，请于月底前缴纳。'
          WHEN 'arrears' THEN '尊敬的' || t.name || '，您的房屋' || t.address || '尚欠物业费' || a.amount || '元，请尽快到物业服务中心或线上缴纳，如已缴纳请忽略。'
          WHEN 'outage' THEN '尊敬的业主：因管网检修，' || t.address || '所在楼栋将于本周六 9:00–17:00停水，请提前储水，给您带来不便敬请谅解。'
          WHEN 'activity' THEN j.community || '将于本周日下午举办邻里活动，欢迎' || t.name || '参加，详情请见业主小程序。'
          ELSE '尊敬的' || t.name || '：近期天气转凉，请关好门窗，注意用电安全。' END AS content) m
      CROSS JOIN LATERAL (SELECT j.g % 3 = 0 AND (t.k * 7 + j.id) % 50 = 0 AS failed) f
      WHERE j.rid = ${rid} AND NOT EXISTS (SELECT 1 FROM sms_unsubscribes u WHERE u.rid = t.rid AND u.mobile = t.mobile)
      ORDER BY j.id, t.k`.execute(c);
  }
  // the jobs' counts and outcome, and their timelines
  await sql`
    UPDATE sms_jobs j SET recipients = n.total, sent = n.sent, failed = n.failed, status = CASE WHEN n.failed > 0 THEN 'F' ELSE 'Y' END
    FROM (SELECT m.rid, m.sms_job_id, count(*)::int AS total, count(*) FILTER (WHERE submit_status = 'S')::int AS sent,
            count(*) FILTER (WHERE submit_status = 'F')::int AS failed
          FROM sms_messages m JOIN scale_sms_jobs s ON s.rid = m.rid AND s.id = m.sms_job_id GROUP BY m.rid, m.sms_job_id) n
    WHERE j.rid = n.rid AND j.id = n.sms_job_id`.execute(c);
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, input, operator, created_by, created_at)
    SELECT j.rid, 'smsjob', j.id, s.transition, s.from_state, CASE WHEN s.transition = 'done' THEN j.status ELSE s.to_state END,
      CASE WHEN s.transition = 'sending' THEN jsonb_build_object('recipients', j.recipients) ELSE '{}' END,
      CASE WHEN s.n <= 2 THEN '张经理' ELSE '系统' END, CASE WHEN s.n <= 2 THEN j.created_by END,
      j.created_at + s.n * interval '10 minutes'
    FROM sms_jobs j JOIN scale_sms_jobs x ON x.rid = j.rid AND x.id = j.id
    CROSS JOIN (VALUES (1, 'create', '', 'D'), (2, 'start', 'D', 'P'), (3, 'sending', 'P', 'S'), (4, 'done', 'S', 'Y')) AS s(n, transition, from_state, to_state)
    ORDER BY j.rid, j.id, s.n`.execute(c);
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, operator, created_by, created_at)
    SELECT j.rid, 'smsjob', j.id, 'create', '', 'D', '张经理', j.created_by, j.created_at FROM sms_jobs j
    WHERE j.rid = ANY(${rids}::int[]) AND j.status = 'D' AND NOT EXISTS (
      SELECT 1 FROM workflow_logs w WHERE w.rid = j.rid AND w.flow = 'smsjob' AND w.row_id = j.id)`.execute(c);
  await sql`DROP TABLE IF EXISTS scale_sms_to, scale_sms_jobs`.execute(c);
}

async function backlog(c: Kysely<DB>, rids: number[]) {
  // every 3 hours or so a to-do; the latest 300 and one in 25 of the older ones still open
  await sql`
    INSERT INTO backlog (rid, title, content, kind, link, status, done_by, done_at, created_at, source_id, submitter_id, submitter_name, deadline, roles)
    SELECT r.rid, b.title, b.content, b.kind, b.link, CASE WHEN b.open THEN 'E' ELSE 'Y' END,
      CASE WHEN NOT b.open THEN (SELECT id FROM accounts WHERE username = 'admin') END,
      CASE WHEN NOT b.open THEN b.at + (2 + g % 40) * interval '1 hour' END, b.at,
      'S' || lpad(g::text, 6, '0'), NULL, CASE WHEN b.kind IN ('repair', 'complaint', 'refund') THEN ${spreadNameOf(sql`(g * 13 + r.rid)`)} ELSE '' END,
      CASE WHEN b.kind IN ('repair', 'complaint') THEN b.at + interval '48 hours' WHEN b.kind = 'refund' THEN b.at + interval '72 hours' END,
      b.roles::text[]
    FROM unnest(${rids}::int[]) r(rid) CROSS JOIN generate_series(1, ${BACKLOG_PER_COMMUNITY}) g
    CROSS JOIN LATERAL (SELECT (ARRAY['repair','complaint','repair','fees','refund','other','repair','complaint'])[1 + g % 8] AS kind,
      now() - (g * 175 + g % 60) * interval '1 minute' AS at, g <= 300 OR g % 25 = 0 AS open) k
    CROSS JOIN LATERAL (SELECT k.kind, k.at, k.open,
      (1 + g % 40) || '号楼' || (1 + g % 2) || '单元' || (1 + g % 18) || lpad((1 + g % 4)::text, 2, '0') || CASE k.kind
        WHEN 'repair' THEN ' 报修：' || (ARRAY['厨房漏水','卫生间下水堵塞','入户门锁损坏','客厅灯不亮','空调外机异响'])[1 + g % 5]
        WHEN 'complaint' THEN ' 投诉：' || (ARRAY['楼上噪音','楼道堆物','宠物扰民','车位被占'])[1 + g % 4]
        WHEN 'refund' THEN ' 退款申请：重复缴费'
        WHEN 'fees' THEN ' 账单核对'
        ELSE ' 设施巡检提醒' END AS title,
      CASE k.kind WHEN 'repair' THEN '业主来电，需尽快上门' WHEN 'complaint' THEN '业主小程序提交' WHEN 'refund' THEN '申请退回 1 个月物业费'
        ELSE '' END AS content,
      CASE k.kind WHEN 'refund' THEN '/fees/refundlist' WHEN 'fees' THEN '/fees/feebilllist' ELSE '' END AS link,
      CASE k.kind WHEN 'repair' THEN '{repairs}' WHEN 'refund' THEN '{financecount}' WHEN 'fees' THEN '{fees}' ELSE '{}' END AS roles) b
    ORDER BY r.rid, g DESC`.execute(c);
}

async function notifications(c: Kysely<DB>, rids: number[]) {
  // one in five to the console's inbox (the admin's and the steward's), the rest SMS to owners; every
  // 17 minutes or so one, newest last as the dispatcher writes them
  await sql`
    INSERT INTO notifications (rid, event, recipient, channel, account_id, name, mobile, title, content, link, ref_id, status, reason, created_at, read_at)
    SELECT r.rid, k.event,
      CASE WHEN NOT k.inbox THEN (CASE WHEN k.event = 'visitor_pass' THEN 'visitor' ELSE 'owner' END)
        WHEN k.event = 'repair_dispatch' THEN 'handler' WHEN k.event = 'repair_submit' THEN 'staff' ELSE 'steward' END,
      CASE WHEN k.inbox THEN 'inbox' ELSE 'sms' END,
      CASE WHEN k.inbox THEN (SELECT id FROM accounts WHERE username = (CASE WHEN g % 2 = 0 THEN 'admin' ELSE 'steward' END)) END,
      CASE WHEN k.inbox THEN '' ELSE ${spreadNameOf(sql`(g * 7 + r.rid)`)} END,
      CASE WHEN k.inbox THEN '' ELSE '13' || lpad(((g * 7919 + r.rid) % 1000000000)::text, 9, '0') END,
      k.title, k.title || '（演示）', CASE WHEN k.event LIKE 'repair%' THEN '/steward/repairs?id=' || g ELSE '' END, g::text,
      CASE WHEN k.inbox THEN (CASE WHEN g > ${NOTIFICATIONS_PER_COMMUNITY - 200} THEN 'U' ELSE 'R' END)
        WHEN g % 97 = 0 THEN 'S' WHEN g % 53 = 0 THEN 'F' ELSE 'Y' END,
      CASE WHEN k.inbox THEN '' WHEN g % 97 = 0 THEN '超出每日上限（同一手机号每天最多 5 条）' WHEN g % 53 = 0 THEN '手机号停机' ELSE '' END,
      k.at, CASE WHEN k.inbox AND g <= ${NOTIFICATIONS_PER_COMMUNITY - 200} THEN k.at + interval '1 hour' END
    FROM unnest(${rids}::int[]) r(rid) CROSS JOIN generate_series(1, ${NOTIFICATIONS_PER_COMMUNITY}) g
    CROSS JOIN LATERAL (SELECT
      (ARRAY['repair_submit','repair_dispatch','repair_finish','pay_success','pay_success','visitor_pass','visitor_arrive'])[1 + g % 7] AS event,
      g % 5 = 0 AND g % 7 < 5 AS inbox,
      now() - (${NOTIFICATIONS_PER_COMMUNITY} - g) * interval '17 minutes' AS at,
      (ARRAY['新报修待派单','报修派单','报修完工','缴费成功','缴费成功','访客通行码','访客到访'])[1 + g % 7] || '：' || lpad(g::text, 6, '0') AS title) k
    ORDER BY r.rid, g`.execute(c);
}
