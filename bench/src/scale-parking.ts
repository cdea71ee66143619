/**
 * Parking at the gates (docs/product.md#carpark, #parking-reports) of the scale data
 * (bench/README.md#scale-data), per community, set-based (INSERT ... SELECT over generate_series and
 * the rows made before):
 *
 * - the two lots' settings (codes, capacity, monthly prices), a booth and an in and an out lane each,
 *   the cars bound to their spaces (rented ones monthly, the rest sold), a temporary-car fee standard
 *   per lot and car kind (one version from before the year, no bands: 15 free minutes, ¥5 the first
 *   hour, ¥2 each started half hour, ¥30 a day at most), four coupon kinds at the first lot and a
 *   merchant's order every third day, a quarterly renewal of every monthly car;
 * - a stay a day for every tenth room over the year (today's up to now, those not yet out inside):
 *   the room's car at its lot when it has one (月租车 / 产权车), else a temporary plate of the room's
 *   visitor at the above-ground lot, priced by the standard above (the same arithmetic as
 *   priceTempFee for a stay within a day, with bands off) and paid at the exit with a 临时停车费
 *   receipt by 吴停车; one in fifty temporary stays opened by hand instead, unpaid;
 * - each stay's exit decision in the gate log (its entry too for the last 30 days), and a refused
 *   black-list car at the first lot every day.
 *
 * Runs after the fees' receipts are numbered (it numbers its own after them) and rebuilds the
 * kept totals that read the receipts, renewals and coupon orders (the bulk load runs without triggers).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

/** The steps fillParking takes (for the progress bar). */
export const PARKING_STEPS = 4;
/** one room in this many has a stay a day */
export const STAY_ROOM_EVERY = 10;
const DAYS = 365;

export async function fillParking(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step('parking: lots, booths, lanes, leases, fee standards, coupons, renewals', async () => {
    for (const rid of rids) await structure(c, rid);
  });
  await step('parking: a stay a day for every tenth room, a year', async () => {
    for (const rid of rids) await stays(c, rid);
    await sql`ANALYZE parking_records`.execute(c);
  });
  await step('parking: receipts of the temporary stays, the gate log', async () => {
    for (const rid of rids) await receiptsAndEvents(c, rid);
  });
  await step('parking: kept income totals', async () => {
    await sql`SELECT setval(pg_get_serial_sequence('fee_payments', 'id'), (SELECT max(id) FROM fee_payments))`.execute(c);
    await sql`SELECT setval(pg_get_serial_sequence('fee_payment_items', 'id'), (SELECT max(id) FROM fee_payment_items))`.execute(c);
    await sql`
      INSERT INTO fee_receipt_counters (rid, last_no) SELECT rid, count(*) FROM fee_payments GROUP BY rid
      ON CONFLICT (rid) DO UPDATE SET last_no = excluded.last_no`.execute(c);
    // the receipts of the stays are payments too (收款统计, the cashier's day)
    await sql`SELECT fee_payment_totals_rebuild(), fee_paydata_totals_rebuild(), parking_income_rebuild()`.execute(c);
    await sql`ANALYZE parking_records, parking_gate_events, fee_payments, fee_payment_items, parking_renewals, parking_coupon_orders`.execute(
      c,
    );
  });
}

async function structure(c: Kysely<DB>, rid: number) {
  await sql`
    UPDATE parking_lots l SET code = v.code, ground = v.ground, total_spaces = greatest(v.total, s.n), grace_days = v.grace,
      price_small = v.small, price_large = v.large, price_new_energy = v.ne
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS k FROM parking_lots WHERE rid = ${rid}) o
    CROSS JOIN LATERAL (SELECT CASE o.k WHEN 1 THEN 'P01' ELSE 'P02' END AS code, CASE o.k WHEN 1 THEN 'U' ELSE 'A' END AS ground,
      CASE o.k WHEN 1 THEN 0 ELSE 1500 END AS total, CASE o.k WHEN 1 THEN 3 ELSE 0 END AS grace,
      CASE o.k WHEN 1 THEN 300 ELSE 200 END AS small, CASE o.k WHEN 1 THEN 450 ELSE 300 END AS large,
      CASE o.k WHEN 1 THEN 240 ELSE 160 END AS ne) v
    CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM parking_spaces s WHERE s.rid = ${rid} AND s.lot_id = o.id) s
    WHERE l.rid = ${rid} AND l.id = o.id`.execute(c);
  await sql`
    INSERT INTO parking_booths (rid, lot_id, title, temp_confirm)
    SELECT ${rid}::int, id, CASE WHEN code = 'P01' THEN '地库岗亭' ELSE '东门岗亭' END, 'N' FROM parking_lots WHERE rid = ${rid}`.execute(
    c,
  );
  await sql`
    INSERT INTO devices (rid, family, booth_id, code, title, direction)
    SELECT ${rid}::int, 'gate', b.id, l.code || '-' || d.dir, CASE WHEN l.code = 'P01' THEN '地库' ELSE '东门' END || d.title, d.io
    FROM parking_booths b JOIN parking_lots l ON l.rid = b.rid AND l.id = b.lot_id
    CROSS JOIN (VALUES ('IN', '入口', 'in'), ('OUT', '出口', 'out')) d(dir, title, io)
    WHERE b.rid = ${rid}`.execute(c);
  await sql`
    UPDATE cars c SET lot_id = s.lot_id, space_id = s.id, lease_type = CASE s.status WHEN 'rented' THEN 'M' ELSE 'S' END,
      start_date = s.start_date, end_date = s.end_date
    FROM parking_spaces s
    WHERE s.rid = c.rid AND s.carlicense = c.carlicense AND s.status IN ('rented', 'sold') AND c.rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO parking_lists (rid, lot_id, carlicense, kind, start_date, end_date, reason)
    SELECT ${rid}::int, id, '沪B44444', 'B', current_date - 400, current_date + 365, '多次逃缴停车费' FROM parking_lots WHERE rid = ${rid} AND code = 'P01'`.execute(
    c,
  );
  await sql`
    INSERT INTO parking_fee_standards (rid, lot_id, car_type, created_at)
    SELECT ${rid}::int, l.id, k.kind, now() - interval '400 days'
    FROM parking_lots l CROSS JOIN unnest(ARRAY['small', 'large', 'new_energy']) k(kind) WHERE l.rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO parking_fee_versions (rid, standard_id, effective_from, free_minutes, first_minutes, first_price, step_minutes, step_price,
      cap_amount, off_first_price, off_step_price, remark, created_at)
    SELECT ${rid}::int, id, date_trunc('day', now()) - interval '400 days', 15, 60, 5, 30, 2, 30, 5, 2, '开业价格', now() - interval '400 days'
    FROM parking_fee_standards WHERE rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO parking_coupons (rid, lot_id, title, kind, minutes, amount, rate, price)
    SELECT ${rid}::int, l.id, v.title, v.kind, v.minutes, v.amount, v.rate, v.price
    FROM (SELECT id FROM parking_lots WHERE rid = ${rid} AND code = 'P01') l
    CROSS JOIN (VALUES ('减免30分钟', 'minutes', 30, 0, 0, 1.50), ('减免5元', 'amount', 0, 5, 0, 4), ('停车8折', 'discount', 0, 0, 0.8, 2),
      ('停车全免', 'free', 0, 0, 0, 12)) v(title, kind, minutes, amount, rate, price)`.execute(c);
  // a merchant's order every third day over the year
  await sql`
    INSERT INTO parking_coupon_orders (rid, orderid, merchant_id, coupon_id, quantity, price, amount, pay_type, operator, created_at)
    SELECT ${rid}::int, 'TC' || to_char(t.at, 'YYYYMMDD') || lpad((${rid} * 1000 + g)::text, 7, '0'), m.id, k.id, 10 + g % 41, k.price,
      k.price * (10 + g % 41), (ARRAY['cash', 'wechat', 'alipay', 'transfer'])[1 + g % 4], '赵收银', t.at
    FROM generate_series(0, ${DAYS - 1}, 3) g
    CROSS JOIN LATERAL (SELECT now() - g * interval '1 day' - interval '3 hours' AS at) t
    CROSS JOIN LATERAL (SELECT id FROM merchants WHERE rid = ${rid} ORDER BY id OFFSET (g % 4) LIMIT 1) m
    CROSS JOIN LATERAL (SELECT id, price FROM parking_coupons WHERE rid = ${rid} ORDER BY id OFFSET (g % 4) LIMIT 1) k`.execute(c);
  // every monthly car renewed each quarter of the year, three months at its lot's price
  await sql`
    INSERT INTO parking_renewals (rid, car_id, carlicense, lot_id, months, amount, old_end, new_end, source, pay_type, cashier_name, created_at)
    SELECT c.rid, c.id, c.carlicense, c.lot_id, 3,
      3 * CASE c.car_type WHEN 'large' THEN l.price_large WHEN 'new_energy' THEN l.price_new_energy ELSE l.price_small END,
      (c.end_date - (q + 1) * interval '3 months')::date, (c.end_date - q * interval '3 months')::date,
      CASE WHEN c.id % 3 = 0 THEN 'C' ELSE 'D' END, (ARRAY['cash', 'wechat', 'alipay'])[1 + c.id % 3], '吴停车',
      now() - (q * 91 + c.id % 80) * interval '1 day'
    FROM cars c JOIN parking_lots l ON l.rid = c.rid AND l.id = c.lot_id CROSS JOIN generate_series(0, 3) q
    WHERE c.rid = ${rid} AND c.lease_type = 'M' AND c.end_date IS NOT NULL`.execute(c);
}

/** Stays in whole minutes (priced as started minutes, so exactly these). */
async function stays(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO parking_records (rid, lot_id, carno, inlane, intime, outlane, outtime, total_fee, pay_fee, car_type, reason, car_kind, state,
      entry_lane_id, exit_lane_id, entry_reason, exit_reason, version_id, paid_at, manual_by_name, manual_note, created_at)
    SELECT ${rid}::int, x.lot_id, x.plate, li.title, x.intime,
      CASE WHEN x.out THEN lo.title ELSE '' END, CASE WHEN x.out THEN x.outtime END,
      CASE WHEN x.out THEN x.fee ELSE 0 END, CASE WHEN x.out AND NOT x.manual THEN x.fee ELSE 0 END,
      x.car_type, CASE WHEN NOT x.out THEN x.entry_words WHEN x.manual THEN '人工放行：道闸识别故障，人工抬杆' ELSE x.exit_words END,
      x.kind, CASE WHEN x.out THEN 'O' ELSE 'I' END,
      li.id, CASE WHEN x.out THEN lo.id END, x.entry_reason, CASE WHEN NOT x.out THEN '' WHEN x.manual THEN 'manual' ELSE x.exit_reason END,
      x.version_id, CASE WHEN x.out AND NOT x.manual AND x.fee > 0 THEN x.outtime END,
      CASE WHEN x.out AND x.manual THEN '吴停车' ELSE '' END, CASE WHEN x.out AND x.manual THEN '道闸识别故障，人工抬杆' ELSE '' END,
      x.intime
    FROM (
      SELECT y.*, y.outtime <= now() AS out,
        y.car_type = '临时车' AND (y.hid + y.d) % 50 = 0 AND y.fee > 0 AS manual,
        CASE WHEN y.car_type <> '临时车' THEN y.entry_reason WHEN y.fee > 0 THEN 'paid' ELSE 'free_minutes' END AS exit_reason,
        CASE WHEN y.car_type <> '临时车' THEN y.entry_words WHEN y.fee > 0 THEN '已缴费' ELSE '免费时长内' END AS exit_words
      FROM (
        SELECT r.id AS hid, g.d, t.intime, t.intime + t.minutes * interval '1 minute' AS outtime,
          coalesce(car.lot_id, above.id) AS lot_id, coalesce(car.carlicense, v.plate) AS plate,
          coalesce(car.car_type, 'small') AS kind,
          CASE car.lease_type WHEN 'M' THEN '月租车' WHEN 'S' THEN '产权车' ELSE '临时车' END AS car_type,
          CASE car.lease_type WHEN 'M' THEN 'monthly' WHEN 'S' THEN 'sold' ELSE 'temp' END AS entry_reason,
          CASE car.lease_type WHEN 'M' THEN '月租车' WHEN 'S' THEN '产权车' ELSE '临时车' END AS entry_words,
          CASE WHEN car.id IS NOT NULL OR t.minutes <= 15 THEN 0
               ELSE least(30, 5 + 2 * ceil(greatest(t.minutes - 60, 0) / 30.0)) END::numeric(14,2) AS fee,
          CASE WHEN car.id IS NULL THEN ver.id END AS version_id
        FROM rooms r
        CROSS JOIN generate_series(0, ${DAYS - 1}) g(d)
        CROSS JOIN LATERAL (SELECT date_trunc('day', now()) - g.d * interval '1 day'
          + (420 + (r.id * 37 + g.d * 11) % 840) * interval '1 minute' AS intime,
          5 + (r.id * 13 + g.d * 7) % 600 AS minutes) t
        LEFT JOIN LATERAL (SELECT id, carlicense, lot_id, car_type, lease_type FROM cars
          WHERE rid = r.rid AND hid = r.id AND lot_id IS NOT NULL ORDER BY id LIMIT 1) car ON true
        CROSS JOIN LATERAL (SELECT '皖' || substr('ABCDEFGHJK', 1 + (r.id / 100000 % 10)::int, 1) || lpad((r.id % 100000)::text, 5, '0') AS plate) v
        CROSS JOIN (SELECT id FROM parking_lots WHERE rid = ${rid} AND code = 'P02') above
        LEFT JOIN LATERAL (SELECT ve.id FROM parking_fee_versions ve JOIN parking_fee_standards st ON st.rid = ve.rid AND st.id = ve.standard_id
          WHERE st.rid = ${rid} AND st.lot_id = above.id AND st.car_type = 'small') ver ON true
        WHERE r.rid = ${rid} AND r.id % ${STAY_ROOM_EVERY} = 0 AND t.intime <= now()
      ) y
    ) x
    JOIN parking_lots pl ON pl.rid = ${rid} AND pl.id = x.lot_id
    JOIN devices li ON li.rid = ${rid} AND li.code = pl.code || '-IN'
    JOIN devices lo ON lo.rid = ${rid} AND lo.code = pl.code || '-OUT'
    ORDER BY x.intime`.execute(c);
}

export async function receiptsAndEvents(c: Kysely<DB>, rid: number) {
  const cashier = await sql<{ id: number }>`SELECT id FROM accounts WHERE username = 'parking'`.execute(c);
  // the receipts in time order after the fees' (the counter was set to their count)
  await sql`
    WITH s AS (
      SELECT s.id, s.carno, s.pay_fee, s.intime, s.outtime, l.title AS lot_title,
        (SELECT last_no FROM fee_receipt_counters WHERE rid = ${rid}) + row_number() OVER (ORDER BY s.outtime, s.id) AS no
      FROM parking_records s JOIN parking_lots l ON l.rid = s.rid AND l.id = s.lot_id
      WHERE s.rid = ${rid} AND s.car_type = '临时车' AND s.pay_fee > 0
    ), p AS (
      INSERT INTO fee_payments (rid, receipt_no, hid, bid, tid, stay_id, payer_name, receivable, due, paid_amount, pay_type,
        cashier_id, cashier_name, idempotency_key, remark, created_at)
      SELECT ${rid}::int, lpad(no::text, 8, '0'), NULL, NULL, NULL, id, carno, pay_fee, pay_fee, pay_fee,
        CASE WHEN id % 3 = 0 THEN 'cash' ELSE 'wechat' END, ${cashier.rows[0]?.id ?? null}::int, '吴停车', 'stay-' || id,
        lot_title || ' ' || carno || ' 临时停车费', outtime
      FROM s ORDER BY no
      RETURNING id, stay_id, paid_amount, created_at
    )
    INSERT INTO fee_payment_items (rid, payment_id, bill_id, cost_type, title, period, daterange, fee)
    SELECT ${rid}::int, p.id, NULL, 'temp_parking', '临时停车费', to_char(p.created_at, 'YYYY-MM'),
      to_char(s.intime, 'YYYY-MM-DD HH24:MI:SS') || ' 至 ' || to_char(p.created_at, 'YYYY-MM-DD HH24:MI:SS'), p.paid_amount
    FROM p JOIN s ON s.id = p.stay_id`.execute(c);
  await sql`
    UPDATE fee_receipt_counters SET last_no = last_no + (SELECT count(*) FROM fee_payments WHERE rid = ${rid} AND stay_id IS NOT NULL)
    WHERE rid = ${rid}`.execute(c);
  // each stay's exit decision (a temporary car's that paid: it waited for the fee first, a decision of its own
  // only in the last 30 days), the entries of the last 30 days, a black-list car turned back every day
  await sql`
    INSERT INTO parking_gate_events (rid, lane_id, lot_id, plate, direction, event_at, decision, reason, content, due, stay_id, operator, created_at)
    SELECT ${rid}::int, exit_lane_id, lot_id, carno, 'O', outtime, 'open', exit_reason, carno || ' ' || reason, 0, id,
      CASE WHEN exit_reason = 'manual' THEN '吴停车' ELSE '' END, outtime
    FROM parking_records WHERE rid = ${rid} AND state = 'O'`.execute(c);
  await sql`
    INSERT INTO parking_gate_events (rid, lane_id, lot_id, plate, direction, event_at, decision, reason, content, due, stay_id, created_at)
    SELECT ${rid}::int, entry_lane_id, lot_id, carno, 'I', intime, 'open', entry_reason, carno || ' ' || car_type, 0, id, intime
    FROM parking_records WHERE rid = ${rid} AND intime >= now() - interval '30 days'
    UNION ALL
    SELECT ${rid}::int, exit_lane_id, lot_id, carno, 'O', outtime - interval '1 minute', 'pay', 'unpaid', carno || ' 请缴费 ' || total_fee || ' 元',
      total_fee, id, outtime - interval '1 minute'
    FROM parking_records WHERE rid = ${rid} AND outtime >= now() - interval '30 days' AND total_fee > 0 AND exit_reason IN ('paid', 'manual')`.execute(
    c,
  );
  await sql`
    INSERT INTO parking_gate_events (rid, lane_id, lot_id, plate, direction, event_at, decision, reason, content, created_at)
    SELECT ${rid}::int, n.id, l.id, '沪B44444', 'I', t.at, 'refuse', 'black', '沪B44444 黑名单车辆，禁止通行', t.at
    FROM parking_lots l JOIN parking_booths b ON b.rid = l.rid AND b.lot_id = l.id
    JOIN devices n ON n.rid = b.rid AND n.booth_id = b.id AND n.direction = 'in'
    CROSS JOIN generate_series(0, ${DAYS - 1}) g
    CROSS JOIN LATERAL (SELECT now() - g * interval '1 day' - interval '5 hours' AS at) t
    WHERE l.rid = ${rid} AND l.code = 'P01'`.execute(c);
}
