import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The demo's operation log (操作日志): the seed writes its data directly, so the audit rows the
 * dispatcher would have left for it are written here, in its shape (payloads as the calls carry
 * them, secrets replaced): three weeks of the counter's payments (from the demo's receipts), the
 * bill generations (from its batches), owner edits and meter readings by the managers, a few
 * refusals, and the accounts' sign-ins (which carry no community) with a wrong password among them.
 */
export async function seedOperationLog(db: Kysely<DB>): Promise<void> {
  // the counter's payments of the last three weeks, by whoever took them
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT p.rid, a.id, a.username, 'community', 'cashierpay',
           jsonb_build_object('hid', p.hid, 'bill_ids', '[]'::jsonb, 'pay_type', p.pay_type, 'paid_amount', p.paid_amount::text,
                              'payer_name', p.payer_name, 'remark', p.remark, 'idempotency_key', md5(p.receipt_no)),
           'SUCCESS', '收费成功', '192.168.1.' || (20 + p.rid), p.created_at
    FROM fee_payments p
    JOIN accounts a ON a.id = p.cashier_id
    WHERE p.created_at > now() - interval '21 days'`.execute(db);
  // bill generations, by the community's manager
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT b.rid, a.id, a.username, 'community', 'feebillgenerate',
           jsonb_build_object('period', b.period, 'item_ids', to_jsonb(b.item_ids), 'preview', false),
           'SUCCESS', '已开始生成 ' || b.bill_count || ' 张账单', '192.168.1.10',
           least(b.created_at, to_date(b.period, 'YYYY-MM') + interval '9 hours 30 minutes')
    FROM fee_batches b
    JOIN accounts a ON a.username = CASE WHEN b.rid = 1 THEN 'admin' ELSE 'admin2' END
    WHERE b.rid IN (1, 2)`.execute(db);
  // owner edits and meter readings spread over the weeks, each at a working hour
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT m.rid, a.id, a.username, 'community', 'memberedit',
           jsonb_build_object('id', m.id, 'realname', m.realname, 'remark', '更新联系方式'),
           'SUCCESS', '保存成功', '192.168.1.10',
           date_trunc('day', now()) - make_interval(days => ((m.id % 20) + 1)::int) + make_interval(hours => (9 + m.id % 8)::int, mins => ((m.id * 7) % 60)::int)
    FROM (SELECT rid, id, realname, row_number() OVER (PARTITION BY rid ORDER BY id) AS n FROM members WHERE rid IN (1, 2)) m
    JOIN accounts a ON a.username = CASE WHEN m.rid = 1 THEN 'admin' ELSE 'admin2' END
    WHERE m.n <= 12`.execute(db);
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT r.rid, a.id, a.username, 'community', 'meterreadingadd',
           jsonb_build_object('hid', r.id, 'item_id', 3, 'period', to_char(now() - interval '1 month', 'YYYY-MM'),
                              'last_reading', '120.00', 'this_reading', (130 + r.id % 20)::text || '.00'),
           'SUCCESS', '保存成功', '192.168.1.10',
           date_trunc('day', now()) - make_interval(days => (3 + r.id % 4)::int) + make_interval(hours => 10, mins => (r.id % 50)::int)
    FROM (SELECT rid, id, row_number() OVER (PARTITION BY rid ORDER BY id) AS n FROM rooms WHERE rid = 1) r
    JOIN accounts a ON a.username = 'admin'
    WHERE r.n <= 15`.execute(db);
  // refusals: a payment of bills already paid, a bill delete refused
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT 1, a.id, a.username, 'community', v.method, v.payload::jsonb, 'FAIL', v.message, '192.168.1.21', now() - v.ago
    FROM accounts a,
    (VALUES ('cashier', 'cashierpay', '{"hid": 1, "bill_ids": [1], "pay_type": "cash", "paid_amount": "320.00", "idempotency_key": "***"}',
             '所选账单已缴费或已删除，请刷新后重试', interval '2 days 3 hours'),
            ('admin', 'feebilldel', '{"id": 1}', '已缴账单不能删除', interval '6 days 5 hours')) v(username, method, payload, message, ago)
    WHERE a.username = v.username`.execute(db);
  // sign-ins (no community: the group side reads them), one with a wrong password
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT NULL, NULL, u.username, 'community', 'login', jsonb_build_object('username', u.username, 'password', '***'),
           'SUCCESS', '登录成功', '192.168.1.' || (10 + u.n), date_trunc('day', now()) - make_interval(days => d) + interval '8 hours 40 minutes'
    FROM (VALUES ('admin', 0), ('cashier', 11), ('admin2', 1), ('leader', 2)) u(username, n), generate_series(1, 14) d`.execute(db);
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    VALUES (NULL, NULL, 'admin', 'community', 'login', '{"username": "admin", "password": "***"}', 'FAIL', '用户名或密码错误',
            '203.0.113.45', now() - interval '1 day 2 hours')`.execute(db);
}
