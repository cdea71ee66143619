/**
 * Smart meters (docs/product.md#smart-meters) of the scale data (bench/README.md#scale-data): per
 * community a gateway per building, a power and a water plan, one prepaid meter a room (every
 * fourth a water meter) with its room's settings, DAY_BILL_DAYS days of day bills, the last
 * READING_DAYS days of readings, the last LOG_DAYS days of deductions, a recharge a month with its
 * push, and the low meters' alerts. A year of day bills of every meter of every kind would be 36
 * million rows: too many for this machine.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const METER_STEPS = 6;
export const DAY_BILL_DAYS = 90;
export const READING_DAYS = 7;
export const LOG_DAYS = 14;

export async function fillMeters(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step('smart meters: a gateway a building, two plans, a prepaid meter a room and its settings', async () => {
    await sql`
      INSERT INTO devices (rid, family, code, title, vendor, protocol, sim_no, last_heartbeat)
      SELECT b.rid, 'meter', 'DTU-' || b.id, b.title || '集中器', 'simulator', '4G', '1064' || lpad(b.id::text, 9, '0'), now()
      FROM buildings b WHERE b.rid = ANY(${rids}::int[])`.execute(c);
    await sql`
      INSERT INTO meter_price_plans (rid, title, kind, tiers)
      SELECT rid, p.title, p.kind, p.tiers::jsonb FROM unnest(${rids}::int[]) AS rid
      CROSS JOIN (VALUES ('居民阶梯电价', 'power', '[{"upto":260,"price":"0.6170"},{"upto":400,"price":"0.6670"},{"upto":null,"price":"0.9170"}]'),
                         ('居民生活用水', 'water', '[{"upto":null,"price":"4.2000"}]')) AS p(title, kind, tiers)`.execute(c);
    await sql`
      INSERT INTO meters (rid, meter_no, title, kind, mode, gateway_id, hid, bid, plan_id, reading, read_at, usage_month, month_usage, balance, valve, valve_reason)
      SELECT r.rid, CASE WHEN r.id % 4 = 0 THEN 'W' ELSE 'E' END || lpad(r.id::text, 10, '0'),
             CASE WHEN r.id % 4 = 0 THEN '户内水表' ELSE '户内电表' END, CASE WHEN r.id % 4 = 0 THEN 'water' ELSE 'power' END, 'prepaid',
             g.id, r.id, r.bid, p.id, (r.id % 5000) + ${DAY_BILL_DAYS} * 6, now() - interval '1 hour', to_char(now() AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM'),
             (r.id % 200), CASE WHEN r.id % 97 = 0 THEN -3.20 ELSE 10 + (r.id % 400) END,
             CASE WHEN r.id % 97 = 0 THEN 'closed' ELSE 'open' END, CASE WHEN r.id % 97 = 0 THEN 'arrears' ELSE '' END
      FROM rooms r
      JOIN devices g ON g.rid = r.rid AND g.family = 'meter' AND g.code = 'DTU-' || r.bid
      JOIN meter_price_plans p ON p.rid = r.rid AND p.kind = CASE WHEN r.id % 4 = 0 THEN 'water' ELSE 'power' END
      WHERE r.rid = ANY(${rids}::int[])`.execute(c);
    await sql`
      INSERT INTO meter_houses (rid, hid, alarm_threshold, overdraft, protected)
      SELECT rid, id, 20, CASE WHEN id % 10 = 0 THEN 10 ELSE 0 END, CASE WHEN id % 500 = 0 THEN 'Y' ELSE 'N' END
      FROM rooms WHERE rid = ANY(${rids}::int[])`.execute(c);
  });
  await step(`smart meters: ${DAY_BILL_DAYS} days of day bills a meter`, async () => {
    // a day's usage from 3 to 8 units, its money at the first tier's price
    await sql`
      INSERT INTO meter_day_bills (rid, meter_id, day, opening, closing, usage, price, amount, balance_after, source)
      SELECT m.rid, m.id, (now() AT TIME ZONE 'Asia/Shanghai')::date - d,
             m.reading - (d + 1) * 6, m.reading - d * 6, 3 + (m.id + d) % 6,
             CASE m.kind WHEN 'water' THEN 4.2 ELSE 0.617 END,
             round((3 + (m.id + d) % 6) * CASE m.kind WHEN 'water' THEN 4.2 ELSE 0.617 END, 2),
             m.balance + d * 3, CASE WHEN (m.id + d) % 50 = 0 THEN 'manual' ELSE 'auto' END
      FROM meters m CROSS JOIN generate_series(0, ${DAY_BILL_DAYS - 1}) AS d
      WHERE m.rid = ANY(${rids}::int[])`.execute(c);
  });
  await step(`smart meters: ${READING_DAYS} days of readings, ${LOG_DAYS} days of deductions`, async () => {
    await sql`
      INSERT INTO meter_readings (rid, meter_id, value, read_at, source, usage, amount, created_at)
      SELECT m.rid, m.id, m.reading - d * 6, now() - d * interval '1 day' - interval '1 hour', 'auto', 3 + (m.id + d) % 6,
             round((3 + (m.id + d) % 6) * CASE m.kind WHEN 'water' THEN 4.2 ELSE 0.617 END, 2), now() - d * interval '1 day'
      FROM meters m CROSS JOIN generate_series(0, ${READING_DAYS - 1}) AS d
      WHERE m.rid = ANY(${rids}::int[])`.execute(c);
    await sql`
      INSERT INTO meter_bill_logs (rid, meter_id, hid, kind, usage, amount, balance_after, breakdown, created_at)
      SELECT m.rid, m.id, m.hid, 'deduct', 3 + (m.id + d) % 6, round((3 + (m.id + d) % 6) * CASE m.kind WHEN 'water' THEN 4.2 ELSE 0.617 END, 2),
             m.balance + d * 3, '[]', now() - d * interval '1 day' - interval '1 hour'
      FROM meters m CROSS JOIN generate_series(0, ${LOG_DAYS - 1}) AS d
      WHERE m.rid = ANY(${rids}::int[])`.execute(c);
  });
  await step('smart meters: a recharge a month for three months, with its push', async () => {
    await sql`
      WITH pushed AS (
        INSERT INTO device_commands (rid, device_id, kind, subject, payload, state, attempts, created_at, sent_at, acked_at, priority)
        SELECT m.rid, m.gateway_id, 'meter_recharge', 'meter:' || m.id, '{}', CASE WHEN m.id % 199 = 0 AND k = 0 THEN 'failed' ELSE 'done' END, 1,
               now() - (k * 30 + m.id % 28) * interval '1 day', now() - (k * 30 + m.id % 28) * interval '1 day',
               now() - (k * 30 + m.id % 28) * interval '1 day' + interval '2 seconds', 0
        FROM meters m CROSS JOIN generate_series(0, 2) AS k
        WHERE m.rid = ANY(${rids}::int[])
        RETURNING rid, id, subject, state, created_at)
      INSERT INTO meter_recharges (rid, order_no, meter_id, hid, amount, paytype, status, command_id, error, operator, created_at, confirmed_at)
      SELECT p.rid, 'MR' || lpad(p.id::text, 14, '0'), m.id, m.hid, (ARRAY[50, 100, 200])[1 + m.id % 3],
             (ARRAY['cash', 'wechat', 'alipay'])[1 + p.id % 3], CASE p.state WHEN 'failed' THEN 'F' ELSE 'S' END, p.id,
             CASE p.state WHEN 'failed' THEN '应答超时' ELSE '' END, '赵收银', p.created_at,
             CASE p.state WHEN 'done' THEN p.created_at + interval '2 seconds' END
      FROM pushed p JOIN meters m ON m.rid = p.rid AND m.id = substr(p.subject, 7)::bigint`.execute(c);
  });
  await step('smart meters: the low and closed meters told', async () => {
    await sql`
      INSERT INTO meter_alerts (rid, meter_id, hid, kind, mobile, content, balance, sent, created_at)
      SELECT m.rid, m.id, m.hid, CASE WHEN m.valve = 'closed' THEN 'closed' ELSE 'low' END, '13800000000',
             '您的表余额已低于预警金额，请及时充值。', m.balance, 'Y', now() - (m.id % 30) * interval '1 day'
      FROM meters m WHERE m.rid = ANY(${rids}::int[]) AND m.balance <= 20`.execute(c);
    await sql`UPDATE meters SET alarm_sent = true WHERE rid = ANY(${rids}::int[]) AND balance <= 20`.execute(c);
  });
  await step("smart meters: the usage report's kept month totals", async () => {
    await sql`
      INSERT INTO meter_month_totals (rid, month, kind, bid, usage, amount, recharged)
      SELECT rid, month, kind, bid, sum(usage), sum(amount), sum(recharged) FROM (
        SELECT d.rid, to_char(d.day, 'YYYY-MM') AS month, m.kind, coalesce(r.bid, 0) AS bid, d.usage, d.amount, 0 AS recharged
        FROM meter_day_bills d JOIN meters m ON m.rid = d.rid AND m.id = d.meter_id LEFT JOIN rooms r ON r.rid = m.rid AND r.id = m.hid
        WHERE d.rid = ANY(${rids}::int[])
        UNION ALL
        SELECT c.rid, to_char(c.confirmed_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM'), m.kind, coalesce(r.bid, 0), 0, 0, c.amount
        FROM meter_recharges c JOIN meters m ON m.rid = c.rid AND m.id = c.meter_id LEFT JOIN rooms r ON r.rid = m.rid AND r.id = m.hid
        WHERE c.rid = ANY(${rids}::int[]) AND c.status = 'S') x
      GROUP BY 1, 2, 3, 4`.execute(c);
  });
}
