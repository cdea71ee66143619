/**
 * Charging piles (docs/product.md#charging-piles) of the scale data (bench/README.md#charging): per
 * community PILES_PER_COMMUNITY piles (three in four car piles of 2 ports with 尖峰平谷 prices, the
 * rest e-bike piles of 10 ports with three power bands), a year of settled sessions on every port
 * (SESSIONS_PER_PORT_DAY a day, a few of them 待核对 or 启动失败) by the community's members, each with
 * its first and final meter value.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const CHARGING_STEPS = 2;
export const PILES_PER_COMMUNITY = 40;
export const SESSION_DAYS = 365;
/** sessions a port starts a day, on average */
export const SESSIONS_PER_PORT_DAY = 3;

const TOU = JSON.stringify([
  { start: '00:00', end: '08:00', tier: 'valley', price: '0.35' },
  { start: '08:00', end: '10:00', tier: 'flat', price: '0.70' },
  { start: '10:00', end: '12:00', tier: 'peak', price: '1.05' },
  { start: '12:00', end: '17:00', tier: 'flat', price: '0.70' },
  { start: '17:00', end: '19:00', tier: 'sharp', price: '1.25' },
  { start: '19:00', end: '22:00', tier: 'peak', price: '1.05' },
  { start: '22:00', end: '24:00', tier: 'valley', price: '0.35' },
]);
const BANDS = JSON.stringify([
  { min_w: 0, max_w: 300, price: '0.40' },
  { min_w: 300, max_w: 600, price: '0.60' },
  { min_w: 600, max_w: 1200, price: '0.80' },
]);

export async function fillCharging(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`charging piles: ${PILES_PER_COMMUNITY} piles a community and their ports`, async () => {
    await sql`
      INSERT INTO devices (rid, family, code, title, vendor, last_heartbeat)
      SELECT rid, 'pile', CASE WHEN n % 4 = 0 THEN 'EB' ELSE 'CP' END || lpad(n::text, 3, '0'),
             CASE WHEN n % 4 = 0 THEN n || '号电动车充电桩' ELSE n || '号汽车充电桩' END, 'simulator', now()
      FROM unnest(${rids}::int[]) AS rid CROSS JOIN generate_series(1, ${PILES_PER_COMMUNITY}) AS n`.execute(c);
    await sql`
      INSERT INTO chargers (rid, id, kind, ports, power_kw, tou, service_fee, bands)
      SELECT d.rid, d.id, CASE WHEN d.code LIKE 'EB%' THEN 'ebike' ELSE 'car' END, CASE WHEN d.code LIKE 'EB%' THEN 10 ELSE 2 END,
             CASE WHEN d.code LIKE 'EB%' THEN 1.20 ELSE 7.00 END,
             CASE WHEN d.code LIKE 'EB%' THEN '[]'::jsonb ELSE ${TOU}::jsonb END, CASE WHEN d.code LIKE 'EB%' THEN 0 ELSE 0.40 END,
             CASE WHEN d.code LIKE 'EB%' THEN ${BANDS}::jsonb ELSE '[]'::jsonb END
      FROM devices d WHERE d.rid = ANY(${rids}::int[]) AND d.family = 'pile'`.execute(c);
    await sql`
      INSERT INTO charger_ports (rid, charger_id, no, title, meter_wh)
      SELECT ch.rid, ch.id, p, p || '号插座', 0
      FROM chargers ch CROSS JOIN LATERAL generate_series(1, ch.ports) AS p
      WHERE ch.rid = ANY(${rids}::int[])`.execute(c);
  });
  await step(`charging piles: ${SESSION_DAYS} days of sessions, ${SESSIONS_PER_PORT_DAY} a port a day, their meter values`, async () => {
    // one session per port and slot of the day: a car session 1 to 4 hours at about 7 kW, an
    // e-bike one 2 to 8 hours at 150 to 600 W; settled at a flat average price, the prepayment
    // a whole number above it; every 400th closed by the time-out (待核对), every 250th failed
    await sql`
      WITH cnt AS (
        SELECT rid, count(*) AS total FROM members WHERE rid = ANY(${rids}::int[]) GROUP BY rid
      ), s0 AS (
        SELECT p.rid, p.charger_id, p.id AS port_id, ch.kind, ch.price_version, ch.tou, ch.bands, ch.service_fee, ch.power_kw,
               d AS day_ago, k,
               ((now() AT TIME ZONE 'Asia/Shanghai')::date - d + make_interval(hours => (k * 7 + (p.id % 5))::int))
                 AT TIME ZONE 'Asia/Shanghai' AS start_at,
               row_number() OVER () AS seq
        FROM charger_ports p
        JOIN chargers ch ON ch.rid = p.rid AND ch.id = p.charger_id
        CROSS JOIN generate_series(1, ${SESSION_DAYS}) AS d
        CROSS JOIN generate_series(0, ${SESSIONS_PER_PORT_DAY - 1}) AS k
        WHERE p.rid = ANY(${rids}::int[])
      ), s AS (
        SELECT s0.*, (s0.seq * 7919) % cnt.total AS member_n FROM s0 JOIN cnt ON cnt.rid = s0.rid
      ), mm AS (
        SELECT rid, id, row_number() OVER (PARTITION BY rid ORDER BY id) - 1 AS n FROM members WHERE rid = ANY(${rids}::int[])
      ), t AS (
        SELECT s.*, m.id AS member_id,
               CASE WHEN kind = 'car' THEN 1 + seq % 4 ELSE 2 + seq % 7 END AS hours,
               CASE WHEN kind = 'car' THEN (1 + seq % 4) * (5000 + seq % 2000) ELSE (2 + seq % 7) * (150 + seq % 450) END AS wh,
               CASE WHEN seq % 250 = 0 THEN 'failed' WHEN seq % 400 = 0 THEN 'check' ELSE 'done' END AS state
        FROM s
        JOIN mm m ON m.rid = s.rid AND m.n = s.member_n
      ), priced AS (
        SELECT t.*,
               CASE WHEN kind = 'car' THEN round(wh / 1000.0 * (0.75 + service_fee), 2) ELSE round(hours * 0.60, 2) END AS amount
        FROM t
      )
      INSERT INTO charge_orders (rid, order_no, charger_id, port_id, member_id, mode, mode_value, prepaid, pricing, price_version,
                                 state, end_reason, start_at, end_at, start_wh, end_wh, last_frame_at, hours, amount, refund,
                                 breakdown, error, created_at)
      SELECT rid, 'CD' || to_char(start_at AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(seq::text, 8, '0'), charger_id, port_id, member_id,
             CASE seq % 4 WHEN 0 THEN 'hours' WHEN 1 THEN 'energy' WHEN 2 THEN 'amount' ELSE 'full' END,
             CASE seq % 4 WHEN 0 THEN hours WHEN 1 THEN ceil(wh / 1000.0) ELSE ceil(amount) + 5 END,
             ceil(amount) + 5,
             jsonb_build_object('kind', kind, 'tou', tou, 'bands', bands, 'service_fee', service_fee::text, 'power_kw', power_kw::text),
             price_version, state,
             CASE state WHEN 'failed' THEN '' WHEN 'check' THEN 'timeout' ELSE (ARRAY['full', 'time', 'energy', 'amount', 'unplug', 'console'])[1 + seq % 6] END,
             CASE WHEN state = 'failed' THEN NULL ELSE start_at END,
             CASE WHEN state = 'failed' THEN start_at + interval '1 minute' ELSE start_at + make_interval(hours => hours::int) END,
             CASE WHEN state = 'failed' THEN NULL ELSE 0 END,
             CASE WHEN state = 'failed' THEN NULL ELSE wh END,
             CASE WHEN state = 'failed' THEN NULL ELSE start_at + make_interval(hours => hours::int) END,
             CASE WHEN state = 'failed' THEN 0 ELSE hours END,
             CASE WHEN state = 'failed' THEN 0 ELSE amount END,
             CASE WHEN state = 'failed' THEN ceil(amount) + 5 ELSE ceil(amount) + 5 - amount END,
             CASE WHEN state = 'failed' THEN NULL
                  ELSE jsonb_build_object('slots', '[]'::jsonb, 'gross', amount::text, 'card_free', '0.00', 'coupon_free', '0.00', 'capped', false) END,
             CASE WHEN state = 'failed' THEN '充电桩无应答' ELSE '' END,
             start_at
      FROM priced`.execute(c);
    // the first and the final meter value of each session that ran
    await sql`
      INSERT INTO charge_frames (rid, order_id, at, meter_wh, power_w, created_at)
      SELECT o.rid, o.id, v.at, v.wh, v.w, v.at
      FROM charge_orders o
      CROSS JOIN LATERAL (VALUES (o.start_at, o.start_wh, 0), (o.end_at, o.end_wh, 0)) AS v(at, wh, w)
      WHERE o.rid = ANY(${rids}::int[]) AND o.start_at IS NOT NULL`.execute(c);
    // each port's register at its last session's end
    await sql`
      UPDATE charger_ports p SET meter_wh = x.wh
      FROM (SELECT rid, port_id, sum(end_wh) AS wh FROM charge_orders WHERE rid = ANY(${rids}::int[]) AND end_wh IS NOT NULL GROUP BY rid, port_id) x
      WHERE p.rid = x.rid AND p.id = x.port_id`.execute(c);
    await sql`SELECT setval(pg_get_serial_sequence('charge_orders', 'id'), (SELECT max(id) FROM charge_orders))`.execute(c);
    // 充电报表's kept day totals (202612052100), whose triggers the bulk load ran without
    await sql`SELECT charge_day_totals_rebuild()`.execute(c);
  });
}
