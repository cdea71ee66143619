import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { peopledCommunities } from '../owners/seed.js';

/**
 * Demo data of the parking area (server/src/db/OWNERS.md): an underground and an above-ground lot
 * with their settings, a booth with an in and an out lane each, 300 spaces (a space for each car,
 * the rest free), the cars' leases (monthly ones ending within a week and some expired, sold,
 * internal and free ones), black and white lists, renewal orders and the cars' history. The stays
 * at the gates come after the fees (staysSeed.ts).
 */
export async function seedParking(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) {
    await seedLotsAndSpaces(db, rid);
    await seedStructure(db, rid);
  }
}

/** Spaces the demo has in each community, across its two lots. */
const DEMO_SPACES = 300;

async function seedStructure(db: Kysely<DB>, rid: number): Promise<void> {
  const [under, above] = await db.selectFrom('parking_lots').select(['id', 'title']).where('rid', '=', rid).orderBy('id').execute();
  if (!under || !above) return;
  // the first lot is underground, the second above ground; the monthly prices per car kind
  await db
    .updateTable('parking_lots')
    .set({
      code: 'P01',
      ground: 'U',
      total_spaces: 200,
      grace_days: 3,
      warn_days: 7,
      price_small: '300',
      price_large: '450',
      price_new_energy: '240',
    })
    .where('rid', '=', rid)
    .where('id', '=', under.id)
    .execute();
  await db
    .updateTable('parking_lots')
    .set({
      code: 'P02',
      ground: 'A',
      total_spaces: 120,
      grace_days: 0,
      warn_days: 7,
      price_small: '200',
      price_large: '300',
      price_new_energy: '160',
    })
    .where('rid', '=', rid)
    .where('id', '=', above.id)
    .execute();
  const booths = await db
    .insertInto('parking_booths')
    .values([
      { rid, lot_id: under.id, title: '地库岗亭', temp_confirm: 'N' },
      { rid, lot_id: above.id, title: '东门岗亭', temp_confirm: 'Y', exit_no_entry: 'N' },
    ])
    .returning(['id', 'lot_id'])
    .execute();
  await db
    .insertInto('devices')
    .values(
      booths.flatMap((b, i) => [
        { rid, family: 'gate', booth_id: b.id, code: `P0${i + 1}-IN`, title: i === 0 ? '地库入口' : '东门入口', direction: 'in' },
        { rid, family: 'gate', booth_id: b.id, code: `P0${i + 1}-OUT`, title: i === 0 ? '地库出口' : '东门出口', direction: 'out' },
      ]),
    )
    .execute();
  await db
    .insertInto('parking_gate_texts')
    .values({ rid, lot_id: under.id, event: 'monthly_in', content: '{plate} 欢迎回家，月租剩余 {days} 天，地库限高 2.2 米' })
    .execute();
  // free spaces up to 300: the underground lot's A- numbers after the cars', the rest B- above ground
  const { n } = await db
    .selectFrom('parking_spaces')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', rid)
    .executeTakeFirstOrThrow();
  const { top } = await db
    .selectFrom('parking_spaces')
    .select(sql<number>`count(*)::int`.as('top'))
    .where('rid', '=', rid)
    .where('lot_id', '=', under.id)
    .executeTakeFirstOrThrow();
  const moreUnder = Math.max(0, Math.min(180 - top, DEMO_SPACES - n));
  await sql`
    INSERT INTO parking_spaces (rid, lot_id, title, status, kind, area)
    SELECT ${rid}, ${under.id}, 'A-' || lpad(g::text, 3, '0'), 'idle',
           CASE WHEN g % 25 = 0 THEN 'parent' ELSE 'ordinary' END, 13.5
    FROM generate_series(${top + 1}::int, ${top + moreUnder}::int) g`.execute(db);
  const moreAbove = Math.max(0, DEMO_SPACES - n - moreUnder);
  await sql`
    INSERT INTO parking_spaces (rid, lot_id, title, status, kind, area)
    SELECT ${rid}, ${above.id}, 'B-' || lpad(g::text, 3, '0'), 'idle',
           CASE WHEN g % 30 = 0 THEN 'virtual' ELSE 'ordinary' END, 12
    FROM generate_series(31, 30 + ${moreAbove}::int) g`.execute(db);
  await sql`UPDATE parking_spaces SET area = 13.5 WHERE rid = ${rid} AND area = 0`.execute(db);
  // the cars take their spaces' lot and lease: rented ones monthly, sold ones sold
  await sql`
    UPDATE cars c SET lot_id = s.lot_id, space_id = s.id,
      lease_type = CASE s.status WHEN 'rented' THEN 'M' ELSE 'S' END, start_date = s.start_date, end_date = s.end_date
    FROM parking_spaces s
    WHERE s.rid = c.rid AND s.carlicense = c.carlicense AND s.status IN ('rented', 'sold') AND c.rid = ${rid}`.execute(db);
  // monthly cars: every fourth ends within a week, every fourth ended days ago (the renewal desk's work)
  await sql`
    WITH m AS (SELECT id, space_id, row_number() OVER (ORDER BY id) AS k FROM cars WHERE rid = ${rid} AND lease_type = 'M')
    UPDATE cars c SET end_date = CASE WHEN m.k % 4 = 1 THEN current_date + (m.k % 7)::int
                                      WHEN m.k % 4 = 2 THEN current_date - (2 + m.k % 5)::int
                                      ELSE c.end_date END
    FROM m WHERE c.rid = ${rid} AND c.id = m.id`.execute(db);
  await sql`
    UPDATE parking_spaces s SET end_date = c.end_date
    FROM cars c WHERE c.rid = s.rid AND c.space_id = s.id AND c.lease_type = 'M' AND s.rid = ${rid}`.execute(db);
  // an internal and a free car among the sold ones (their spaces occupied, not sold)
  await sql`
    WITH x AS (SELECT id, space_id, row_number() OVER (ORDER BY id DESC) AS k FROM cars
               WHERE rid = ${rid} AND lease_type = 'S' AND carlicense NOT IN ('沪A12345', '沪AD12345') ORDER BY id DESC LIMIT 2)
    UPDATE cars c SET lease_type = CASE WHEN x.k = 1 THEN 'I' ELSE 'F' END, end_date = NULL FROM x WHERE c.rid = ${rid} AND c.id = x.id`.execute(
    db,
  );
  await sql`
    UPDATE parking_spaces s SET status = 'rented', end_date = NULL
    FROM cars c WHERE c.rid = s.rid AND c.space_id = s.id AND c.lease_type IN ('I', 'F') AND s.rid = ${rid}`.execute(db);
  // black and white lists of the underground lot: a current white entry, a black one, and a lapsed white one
  await sql`
    INSERT INTO parking_lists (rid, lot_id, carlicense, kind, start_date, end_date, reason) VALUES
      (${rid}, ${under.id}, '沪A88888', 'W', current_date - 30, current_date + 335, '物业工程车'),
      (${rid}, ${under.id}, '沪B44444', 'B', current_date - 10, current_date + 355, '多次逃缴停车费'),
      (${rid}, ${above.id}, '苏E99999', 'W', current_date - 60, current_date - 1, '装修施工车辆（已结束）')`.execute(db);
  // the cars' history begins with their registration; a renewal order for some monthly cars
  await sql`
    INSERT INTO parking_car_logs (rid, car_id, carlicense, action, content, created_by_name, created_at)
    SELECT c.rid, c.id, c.carlicense, 'add',
           CASE c.lease_type WHEN 'M' THEN '月租' WHEN 'S' THEN '出售' WHEN 'I' THEN '内部' ELSE '免费' END || '，车位 ' || l.title || ' ' || s.title,
           '系统', now() - interval '300 days'
    FROM cars c JOIN parking_spaces s ON s.rid = c.rid AND s.id = c.space_id JOIN parking_lots l ON l.rid = s.rid AND l.id = s.lot_id
    WHERE c.rid = ${rid}`.execute(db);
  await sql`
    WITH r AS (
      SELECT c.rid, c.id, c.carlicense, c.lot_id, c.end_date,
             CASE c.car_type WHEN 'large' THEN l.price_large WHEN 'new_energy' THEN l.price_new_energy ELSE l.price_small END AS price
      FROM cars c JOIN parking_lots l ON l.rid = c.rid AND l.id = c.lot_id
      WHERE c.rid = ${rid} AND c.lease_type = 'M' AND c.end_date IS NOT NULL AND c.id % 2 = 0)
    INSERT INTO parking_renewals (rid, car_id, carlicense, lot_id, months, amount, old_end, new_end, source, pay_type,
                                  pay_method_id, pay_method, pay_ref, cashier_name, created_at)
    SELECT r.rid, r.id, r.carlicense, r.lot_id, 3, r.price * 3, (r.end_date - interval '3 months')::date, r.end_date, 'D',
      CASE WHEN pos.id IS NULL THEN 'wechat' ELSE 'bankcard' END, pos.id, coalesce(pos.name, ''),
      CASE WHEN pos.id IS NULL THEN '' ELSE 'POS' || lpad((90000000 + r.id)::text, 8, '0') END, '吴停车',
      now() - (2 + r.id % 50) * interval '1 day' - (r.id % 9) * interval '1 hour'
    FROM r
    -- a third of 阳光花园's taken by the group's front-desk POS (its own way, leader/paytypesSeed.ts)
    LEFT JOIN regions g ON g.id = r.rid AND g.title = '阳光花园'
    LEFT JOIN pay_methods pos ON pos.group_id = g.group_id AND pos.name = 'POS机-工行' AND r.id % 3 = 0`.execute(db);
  await sql`
    INSERT INTO parking_car_logs (rid, car_id, carlicense, action, content, created_by_name, created_at)
    SELECT rid, car_id, carlicense, 'renew', '续费 3 个月 ' || amount || ' 元（停车管理），到期 ' || old_end || ' → ' || new_end, '系统', created_at
    FROM parking_renewals WHERE rid = ${rid}`.execute(db);
}

async function seedLotsAndSpaces(db: Kysely<DB>, rid: number): Promise<void> {
  const lots = rid === 1 ? ['地下停车场A区', '地面停车场'] : ['翠湖地下车库', '访客停车场'];
  await db
    .insertInto('parking_lots')
    .values(
      lots.map((title, i) => ({
        rid,
        title,
        code: `P0${i + 1}`,
        ground: i === 0 ? 'U' : 'A',
        address: i === 0 ? '小区地下一层' : '小区东门内',
      })),
    )
    .execute();
  // spaces of the first lot: one per car (sold or rented), then some idle ones
  await sql`
    WITH lot AS (SELECT id FROM parking_lots WHERE rid = ${rid} ORDER BY id LIMIT 1),
    c AS (SELECT hid, member_id, carlicense, row_number() OVER (ORDER BY id) AS n FROM cars WHERE rid = ${rid})
    INSERT INTO parking_spaces (rid, lot_id, title, hid, member_id, carlicense, status, start_date, end_date)
    SELECT ${rid}, lot.id, 'A-' || lpad(n::text, 3, '0'), hid, member_id, carlicense,
           CASE WHEN n % 3 = 0 THEN 'rented' ELSE 'sold' END,
           current_date - 300, CASE WHEN n % 3 = 0 THEN current_date + 65 END
    FROM c CROSS JOIN lot`.execute(db);
  await sql`
    INSERT INTO parking_spaces (rid, lot_id, title, status)
    SELECT ${rid}, l.id, 'B-' || lpad(g::text, 3, '0'), 'idle'
    FROM (SELECT id FROM parking_lots WHERE rid = ${rid} ORDER BY id DESC LIMIT 1) l CROSS JOIN generate_series(1, 30) g`.execute(db);
}
