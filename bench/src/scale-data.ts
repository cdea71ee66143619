/**
 * Scale data for the benchmarks (bench/README.md#scale-data): the demo's shape, N communities of M rooms each, all
 * set-based (INSERT ... SELECT over generate_series and the rows already made), on PGlite or a
 * PostgreSQL server, migrated through the server's own migration code.
 *
 * Per community of R rooms: buildings of 2 units × 18 floors × 4 rooms, about 1.5 people a room
 * (owners, family, tenants), cars for half the lived-in rooms with their parking spaces and
 * in/out records, ledgers, visitors, activities, access records, three fee items and a year of
 * bills (about 20 a room: 12 property, 6 water, 12 parking for rooms renting a space) with the
 * payments, receipt lines and receipt counter of the paid ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CALL_TEMPLATE, DEFAULT_CODE_TEMPLATE, addMonths, renderRoomCode } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase, type Database } from '../../server/src/db/connection.js';
import { migrate } from '../../server/src/db/migrate.js';
import type { DB } from '../../server/src/db/schema.js';
import { DEMO_PASSWORD, seedFoundation } from '../../server/src/db/seed.js';
import { today } from '../../server/src/lib/wire.js';
import { hashPassword } from '../../server/src/modules/auth/password.js';
import { insertDefaultCostTypes } from '../../server/src/modules/fees/seed.js';
import { addEmptyRoomOwnersAndMoveOuts, MOBILE_PREFIXES, spreadNameOf, textArray } from '../../server/src/modules/owners/seed.js';
import { insertDefaultCategories } from '../../server/src/modules/structure/defaults.js';
import { seedTeam } from '../../server/src/modules/team/seed.js';
import { Progress } from './progress.js';
import { fillSetup, SETUP_STEPS } from './scale-setup.js';
import { fillSteward, STEWARD_STEPS } from './scale-steward.js';
import { fillParking, PARKING_STEPS } from './scale-parking.js';
import { ASSET_STEPS, fillAssets } from './scale-assets.js';
import { fillPatrols, PATROL_STEPS } from './scale-patrols.js';
import { fillInvoices, INVOICE_STEPS } from './scale-invoices.js';
import { CARD_STEPS, fillCards } from './scale-cards.js';
import { fillMeters, METER_STEPS } from './scale-meters.js';
import { CHARGING_STEPS, fillCharging } from './scale-charging.js';
import { CONTRACT_STEPS, fillContracts } from './scale-contracts.js';
import { CARE_STEPS, fillCare } from './scale-care.js';
import { fillLeases, LEASE_STEPS } from './scale-leases.js';
import { CRM_SALES_STEPS, fillCrmSales } from './scale-crm-sales.js';
import { settleUnspentPoints } from '../../server/src/modules/cards/ledger.js';
import { MALL_STEPS, fillMall } from './scale-mall.js';
import { COUPON_STEPS, fillCoupons } from './scale-coupons.js';
import { COST_STEPS, fillCosts } from './scale-costs.js';

export interface ScaleTarget {
  /** a PostgreSQL server; without it, PGlite in dataDir */
  databaseUrl?: string | undefined;
  /** schema on the server (default bench_scale) */
  schema?: string | undefined;
  dataDir?: string | undefined;
}

export interface ScaleSize {
  communities: number;
  roomsPerCommunity: number;
}

/** What bench:data made; kept as the comment of the schema, so the benchmarks can find it. */
export interface ScaleInfo {
  communities: number[];
  rooms_per_community: number;
  counts: Record<string, number>;
  /** the property-fee item of each community (rid -> item id), for the generation benchmark */
  property_items: Record<string, number>;
  made_at: string;
  seconds: number;
}

export const DEFAULT_SCALE: ScaleSize = { communities: 2, roomsPerCommunity: 50_000 };
export const DEFAULT_SCHEMA = 'bench_scale';
const MARK = 'wuye-bench-scale ';

/** Layout of a building: units × floors × rooms a floor. */
const UNITS = 2;
const FLOORS = 18;
const PER_FLOOR = 4;
const PER_UNIT = FLOORS * PER_FLOOR;
const MONTHS = 12;
const PROVINCES = ['沪', '浙', '苏', '京', '粤', '川', '鄂', '湘'];
const PLATE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
export const DEMO_OWNER = { realname: '陈建国', mobile: '13800138000' };

/** The fee items of every scale community (the demo's three, water billed every two months). */
const ITEMS = {
  property: { title: '物业服务费', pricing: 'area_built', unit_price: '2.5000', cycle: 1, due_day: 28 },
  parking: { title: '地下车位租赁费', pricing: 'fixed', unit_price: '300.0000', cycle: 1, due_day: 28 },
  water: { title: '生活用水', pricing: 'meter', unit_price: '4.2000', cycle: 2, due_day: 20 },
} as const;

export function configFor(target: ScaleTarget) {
  return loadConfig(process.env, {
    databaseUrl: target.databaseUrl || undefined,
    dbSchema: target.databaseUrl ? (target.schema ?? DEFAULT_SCHEMA) : undefined,
    dataDir: path.resolve(target.dataDir ?? 'bench-data'),
    logLevel: 'silent',
    seedDemo: false,
  });
}

/** The info of scale data made earlier in that schema, or null (the client may be a pg.Client or the server's pool). */
export async function readScaleInfo(
  client: { query(text: string, values?: unknown[]): Promise<{ rows: any[] }> },
  schema: string,
): Promise<ScaleInfo | null> {
  const res = await client.query(`SELECT obj_description(oid, 'pg_namespace') AS note FROM pg_namespace WHERE nspname = $1`, [schema]);
  const note = res.rows[0]?.note as string | null | undefined;
  if (!note?.startsWith(MARK)) return null;
  return JSON.parse(note.slice(MARK.length)) as ScaleInfo;
}

/** The progress steps of the areas filled after the fees. */
const AREA_STEPS =
  SETUP_STEPS +
  STEWARD_STEPS +
  PARKING_STEPS +
  ASSET_STEPS +
  PATROL_STEPS +
  INVOICE_STEPS +
  CARD_STEPS +
  MALL_STEPS +
  COST_STEPS +
  COUPON_STEPS +
  CARE_STEPS +
  CONTRACT_STEPS +
  LEASE_STEPS +
  CRM_SALES_STEPS +
  METER_STEPS +
  CHARGING_STEPS;

/**
 * Drops what the target holds and fills it anew. `feesOnly`: the communities, rooms, owners, bills and
 * receipts with their kept totals, and none of the other areas: what the fee reports and the group
 * summary read, in half the time at the group shape (bench/README.md#group-shape).
 */
export async function makeScaleData(
  target: ScaleTarget,
  size: ScaleSize,
  opts: { quiet?: boolean; feesOnly?: boolean } = {},
): Promise<ScaleInfo> {
  if (!Number.isInteger(size.communities) || size.communities < 1) throw new Error('--communities must be a whole number ≥ 1');
  if (!Number.isInteger(size.roomsPerCommunity) || size.roomsPerCommunity < 10 || size.roomsPerCommunity > 5_000_000) {
    throw new Error('--rooms-per-community must be a whole number from 10 to 5,000,000');
  }
  const config = configFor(target);
  if (!config.databaseUrl) wipeDataDir(config.dataDir);
  const started = performance.now();
  // reset + migrate, accounts; per community 12 steps and one a period (+ the demo owner once); counters, setup, vacuum, mark
  const progress = new Progress(2 + size.communities * (12 + MONTHS) + 1 + 3 + (opts.feesOnly ? 0 : AREA_STEPS));
  const log = opts.quiet ? { step: <T>(_: string, run: () => Promise<T>) => run(), finish: () => undefined } : progress;
  const database = await openDatabase(config);
  try {
    await log.step(
      config.databaseUrl ? `schema ${config.dbSchema}: drop, create, migrate` : `PGlite ${config.dataDir}: migrate`,
      async () => {
        if (config.databaseUrl) {
          await sql`DROP SCHEMA IF EXISTS ${sql.id(config.dbSchema!)} CASCADE`.execute(database.db);
          await sql`CREATE SCHEMA ${sql.id(config.dbSchema!)}`.execute(database.db);
        }
        await migrate(database.pool);
      },
    );
    const info = await database.db.connection().execute(async (c) => {
      await tune(c, database.kind);
      const rids = await log.step('group, communities, demo accounts', () => foundation(c, size.communities));
      const hasSpaceId = await columnExists(c, 'fee_bills', 'space_id');
      const propertyItems: Record<string, number> = {};
      for (const [index, rid] of rids.entries()) {
        const tag = `(community ${rid}, ${index + 1}/${rids.length})`;
        propertyItems[rid] = await fillCommunity(c, { rid, index, rooms: size.roomsPerCommunity, hasSpaceId }, (label, run) =>
          log.step(`${label} ${tag}`, run),
        );
      }
      await log.step('sequences, receipt counters, kept totals and addresses', async () => {
        // the planner's figures of the tables just filled: without them the rebuilds below join the
        // bills by nested loops (58 s instead of 1 s for 2 × 1,000 rooms)
        for (const name of await schemaTables(c)) await sql`ANALYZE ${sql.table(name)}`.execute(c);
        await sql`SELECT setval(pg_get_serial_sequence('fee_payments', 'id'), (SELECT max(id) FROM fee_payments))`.execute(c);
        await sql`
          INSERT INTO fee_receipt_counters (rid, last_no) SELECT rid, count(*) FROM fee_payments GROUP BY rid
          ON CONFLICT (rid) DO UPDATE SET last_no = excluded.last_no`.execute(c);
        // the kept totals of bills and payments (migrations 024, 025), whose triggers the bulk load ran without
        await sql`SELECT fee_bill_totals_rebuild(), fee_payment_totals_rebuild()`.execute(c);
        // and the unpaid bills' and the units' kept totals, rooms' months and 缴费明细's totals
        // (202611290400, 202611290410, 202612021740, 202612031200)
        await sql`SELECT fee_unpaid_rebuild(), fee_unit_totals_rebuild(), fee_room_months_rebuild(), fee_paydata_totals_rebuild()`.execute(
          c,
        );
        // and the rooms' kept addresses (026), their trigger left out as well
        await sql`SELECT rooms_place_rebuild()`.execute(c);
      });
      if (!opts.feesOnly) {
        // the setup area (系统设置): its messages carry the rooms' kept addresses, built just above
        await fillSetup(c, rids, (label, run) => log.step(label, run));
        // the steward desk (管家工作台): tickets, complaints, orders, notices, profiles over the rooms and staff above
        await fillSteward(c, rids, (label, run) => log.step(label, run));
        // the households' reach (202611300500), the repair tickets' days (202611300502) and the grants'
        // device rows (202611301130), whose triggers the bulk load ran without
        await sql`SELECT household_reach_rebuild(), repair_day_totals_rebuild(), access_grant_device_rows_rebuild()`.execute(c);
        // parking at the gates (停车场): stays, their receipts and the gate log over the cars and lots above
        await fillParking(c, rids, (label, run) => log.step(label, run));
        // the equipment ledger and a year of its maintenance tasks
        await fillAssets(c, rids, (label, run) => log.step(label, run));
        // security patrols: points, daily plans and a year of their tasks and check-ins
        await fillPatrols(c, rids, (label, run) => log.step(label, run));
        // invoices of the oldest receipts, some reversed
        await fillInvoices(c, rids, (label, run) => log.step(label, run));
        // member cards: templates, members' cards, packages and recharges
        await fillCards(c, rids, (label, run) => log.step(label, run));
        // the points mall: categories, goods and members' orders (points through their ledger rows)
        await fillMall(c, rids, (label, run) => log.step(label, run));
        // members' coupons: templates and coupons given over a year in every state
        await fillCoupons(c, rids, (label, run) => log.step(label, run));
        // costs: the items' tree and two years of costs, some voided (成本登记, 成本统计)
        await fillCosts(c, rids, (label, run) => log.step(label, run));
        // customer care: records of the residents, rules, group affairs and a year of affairs
        await fillCare(c, rids, (label, run) => log.step(label, run));
        // room-sales contracts: a contract for every fifth room, its plan, the units' states and list prices
        await fillContracts(c, rids, (label, run) => log.step(label, run));
        // tenant leases: a lease for every fifth room (beside the contracts'), the live ones' deposits and last two months unpaid
        await fillLeases(c, rids, (label, run) => log.step(label, run));
        // the sales CRM: customers across the pipeline, their follow-ups, invitations and deposits' queue numbers
        await fillCrmSales(c, rids, (label, run) => log.step(label, run));
        // smart meters: a meter a room, ninety days of day bills, a week of readings, recharges and their pushes
        await fillMeters(c, rids, (label, run) => log.step(label, run));
        // charging piles: 40 piles a community with their ports, a year of sessions and their meter values
        await fillCharging(c, rids, (label, run) => log.step(label, run));
        await settleUnspentPoints(c, rids);
      }
      await sql`SET session_replication_role = DEFAULT`.execute(c).catch(() => undefined);
      await log.step('VACUUM ANALYZE', async () => {
        for (const name of await schemaTables(c)) await sql`VACUUM ANALYZE ${sql.table(name)}`.execute(c);
      });
      const counts: Record<string, number> = {};
      for (const table of [
        'rooms',
        'members',
        'room_members',
        'cars',
        'parking_records',
        'parking_gate_events',
        'parking_renewals',
        'parking_coupon_orders',
        'visitors',
        'fee_bills',
        'fee_payments',
        'fee_payment_items',
        'invoices',
        'invoice_lines',
        'sms_jobs',
        'sms_messages',
        'sms_unsubscribes',
        'backlog',
        'schedules',
        'duty_shifts',
        'categories',
        'dict_items',
        'common_links',
        'daily_settings',
        'repair_tickets',
        'complaints',
        'internal_orders',
        'workflow_logs',
        'notices',
        'notice_recipients',
        'notice_reads',
        'steward_profiles',
        'score_entries',
        'service_ratings',
        'patrol_tasks',
        'patrol_task_points',
        'patrol_checkins',
      ] as const) {
        const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(c);
        counts[table] = n.rows[0]!.n;
      }
      const bills = await sql<{
        status: string;
        n: number;
      }>`SELECT status, count(*)::int AS n FROM fee_bills GROUP BY status ORDER BY status`.execute(c);
      for (const b of bills.rows) counts[`fee_bills_${b.status}`] = b.n;
      const result: ScaleInfo = {
        communities: rids,
        rooms_per_community: size.roomsPerCommunity,
        counts,
        property_items: propertyItems,
        made_at: new Date().toISOString(),
        seconds: Math.round((performance.now() - started) / 1000),
      };
      await log.step('mark the schema as scale data', () =>
        sql`COMMENT ON SCHEMA ${sql.id(config.dbSchema ?? 'public')} IS ${sql.lit(MARK + JSON.stringify(result))}`.execute(c),
      );
      return result;
    });
    log.finish(
      `scale data: ${info.communities.length} communities, ${info.counts.rooms} rooms, ${info.counts.members} members, ${info.counts.fee_bills} bills, ${info.counts.fee_payments} payments`,
    );
    return info;
  } finally {
    await database.close();
  }
}

/** Removes a PGlite folder made earlier, refusing folders that are something else. */
function wipeDataDir(dir: string) {
  if (!fs.existsSync(dir)) return;
  const entries = fs.readdirSync(dir);
  if (entries.length && !entries.includes('PG_VERSION'))
    throw new Error(`${dir} exists and is not a database folder; choose another --data-dir`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Bulk-load settings for this one connection; foreign keys are checked by construction, not per row, where allowed. */
async function tune(c: Kysely<DB>, kind: Database['kind']) {
  const big = kind === 'postgres';
  await sql`SET synchronous_commit = off`.execute(c);
  await sql.raw(`SET work_mem = '${big ? '256MB' : '64MB'}'`).execute(c);
  await sql.raw(`SET maintenance_work_mem = '${big ? '512MB' : '128MB'}'`).execute(c);
  // superusers only; elsewhere the foreign keys are simply checked
  await sql`SET session_replication_role = replica`.execute(c).catch(() => undefined);
}

/** Fresh statistics between steps, so each next statement is planned with the real row counts. */
async function analyze(c: Kysely<DB>, ...tables: string[]) {
  for (const t of tables) await sql`ANALYZE ${sql.table(t)}`.execute(c);
}

async function columnExists(c: Kysely<DB>, table: string, column: string): Promise<boolean> {
  const res = await sql<{ ok: boolean }>`
    SELECT EXISTS (SELECT 1 FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${column}) AS ok`.execute(c);
  return Boolean(res.rows[0]?.ok);
}

/**
 * The demo's group, communities and accounts (admin / demo123456 signs in to community 1 and can
 * switch to 2); communities beyond two are added and given to admin too. Answers their ids.
 */
async function foundation(c: Kysely<DB>, communities: number): Promise<number[]> {
  await seedFoundation(c, await hashPassword(DEMO_PASSWORD));
  // the demo's communities 3 and 4 have ended; further scale communities are new ones
  const rids = [1, 2].slice(0, communities);
  const group = await sql<{ id: number }>`SELECT id FROM groups ORDER BY id LIMIT 1`.execute(c);
  for (let n = 3; n <= communities; n++) {
    const res = await sql<{ id: number }>`
      INSERT INTO regions (group_id, title, address, area, sub_title, end_time, price_per_year)
      VALUES (${group.rows[0]!.id}, ${`规模测试小区${n}`}, ${`测试路 ${n} 号`}, 100000, ${`规模测试小区${n}物业管理平台`}, current_date + 365, 3600)
      RETURNING id`.execute(c);
    rids.push(res.rows[0]!.id);
  }
  await sql`
    INSERT INTO account_regions (account_id, rid, sort)
    SELECT a.id, r.rid, r.ord FROM accounts a CROSS JOIN unnest(${rids}::int[]) WITH ORDINALITY AS r(rid, ord)
    WHERE a.username = 'admin' ON CONFLICT DO NOTHING`.execute(c);
  await staff(c, rids);
  return rids;
}

/** Staff per community at the scale of a large company, each with one or two of the built-in roles. */
const STAFF_PER_COMMUNITY = 40;

/** The team area: the group's roles, the demo's staff in them, and STAFF_PER_COMMUNITY more in each community. */
async function staff(c: Kysely<DB>, rids: number[]) {
  await seedTeam(c);
  await sql`
    WITH made AS (
      INSERT INTO accounts (username, password_hash, name, mobile, sys_type, group_id, roles)
      SELECT 'staff' || g, a.password_hash, ${name(sql`g`)}, '1391' || lpad(g::text, 7, '0'), 'property', a.group_id, '{}'
      FROM generate_series(1, ${rids.length * STAFF_PER_COMMUNITY}) g CROSS JOIN (SELECT password_hash, group_id FROM accounts WHERE username = 'admin') a
      RETURNING id
    ), placed AS (
      INSERT INTO account_regions (account_id, rid, sort)
      SELECT m.id, (${rids}::int[])[1 + m.id % ${rids.length}], 0 FROM made m
      RETURNING account_id, rid
    )
    INSERT INTO account_roles (account_id, rid, role_id)
    SELECT p.account_id, p.rid, r.id FROM placed p
    JOIN LATERAL (SELECT id FROM staff_roles WHERE app = 'web' AND builtin AND NOT ('admin' = ANY (codes))
      ORDER BY id OFFSET p.account_id % 6 LIMIT 1 + p.account_id % 2) r ON true`.execute(c);
}

interface Community {
  rid: number;
  index: number;
  rooms: number;
  hasSpaceId: boolean;
}

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

/** A mobile unique in the community for every k below 10^8 (7919 is prime to 10^8; the 8 digits alone never repeat). */
const mobileOf = (k: RawBuilder<unknown>) =>
  sql`(${textArray(MOBILE_PREFIXES)})[1 + ${k} % ${sql.lit(MOBILE_PREFIXES.length)}] || lpad(((${k} * 7919) % 100000000)::text, 8, '0')`;
const name = (k: RawBuilder<unknown>) => spreadNameOf(k);

/** Fills one community; answers its property-fee item. */
async function fillCommunity(c: Kysely<DB>, cm: Community, step: Step): Promise<number> {
  const { rid } = cm;
  const units = Math.ceil(cm.rooms / PER_UNIT);
  const buildings = Math.ceil(units / UNITS);
  await step('buildings, units, categories', async () => {
    await insertDefaultCategories(c, rid);
    await sql`
      INSERT INTO buildings (rid, title, floors, sort, created_at)
      SELECT ${rid}, g || '号楼', ${FLOORS}, g, now() - interval '3 years' FROM generate_series(1, ${buildings}) g ORDER BY g`.execute(c);
    await sql`
      INSERT INTO units (rid, bid, title, sort, created_at)
      SELECT b.rid, b.id, u || '单元', u, b.created_at FROM buildings b CROSS JOIN generate_series(1, ${UNITS}) u
      WHERE b.rid = ${rid} AND (b.sort - 1) * ${UNITS} + u <= ${units} ORDER BY b.id, u`.execute(c);
  });
  await step(`rooms (${cm.rooms.toLocaleString('en')})`, () =>
    sql`
    INSERT INTO rooms (rid, bid, tid, title, floor, category_id, built_area, indoor_area, state, created_at)
    SELECT u.rid, u.bid, u.id, (p.f * 100 + p.n)::text, p.f, CASE WHEN p.shop THEN cs.id ELSE cr.id END, a.area, round(a.area * 0.8, 2),
           CASE WHEN p.shop THEN (CASE p.n % 2 WHEN 0 THEN 'occupied' ELSE 'rented' END)
                ELSE (CASE (p.f * 7 + p.n * 3 + u.sort) % 10 WHEN 0 THEN 'vacant' WHEN 1 THEN 'rented' WHEN 2 THEN 'renovating' ELSE 'occupied' END) END,
           u.created_at
    FROM (SELECT u.*, row_number() OVER (ORDER BY u.id) - 1 AS ui FROM units u WHERE u.rid = ${rid}) u
    JOIN buildings bd ON bd.rid = u.rid AND bd.id = u.bid
    JOIN room_categories cr ON cr.rid = u.rid AND cr.kind = 'residence'
    JOIN room_categories cs ON cs.rid = u.rid AND cs.kind = 'shop'
    CROSS JOIN generate_series(0, ${PER_UNIT - 1}) j
    -- street-front shops on the ground floor of every tenth building
    CROSS JOIN LATERAL (SELECT j / ${PER_FLOOR} + 1 AS f, j % ${PER_FLOOR} + 1 AS n, (j / ${PER_FLOOR} = 0 AND bd.sort % 10 = 1) AS shop) p
    CROSS JOIN LATERAL (SELECT (CASE WHEN p.shop THEN (ARRAY[56.00, 72.50, 64.00, 88.00])[p.n]
                             ELSE (ARRAY[89.50, 105.20, 128.00, 143.60])[p.n] END)::numeric(12,2) AS area) a
    WHERE u.ui * ${PER_UNIT} + j < ${cm.rooms}
    ORDER BY u.id, j`
      .execute(c)
      .then(() => analyze(c, 'buildings', 'units', 'rooms')),
  );
  const {
    rows: [range],
  } = await sql<{ lo: number }>`SELECT min(id) AS lo FROM rooms WHERE rid = ${rid}`.execute(c);
  const lo = Number(range!.lo);

  await step('members and room_members (owners, family, tenants)', async () => {
    // k: a number unique to the person in the community (room index × 4 + kind), for names and mobiles
    const people = [
      { relation: 'owner', code: 0, where: sql`r.state IN ('occupied', 'rented', 'renovating')` },
      { relation: 'family', code: 1, where: sql`r.state = 'occupied' AND (r.id - ${lo}) % 7 < 5` },
      { relation: 'tenant', code: 2, where: sql`r.state = 'rented'` },
    ];
    for (const p of people) {
      await sql`
        WITH src AS MATERIALIZED (
          SELECT r.id AS hid, nextval(pg_get_serial_sequence('members', 'id')) AS mid, ((r.id - ${lo}) * 4 + ${p.code})::bigint AS k
          FROM rooms r WHERE r.rid = ${rid} AND ${p.where}
        ), person AS (
          INSERT INTO members (rid, id, realname, mobile, id_card, gender, wx_isbind, app_isbind, last_login_time, create_time)
          SELECT ${rid}, mid, ${name(sql`k`)}, ${mobileOf(sql`k`)},
                 CASE WHEN k % 3 = 0 THEN '3101' || lpad(((k * 104729) % 100000000000000)::text, 14, '0') ELSE '' END,
                 CASE WHEN k % 2 = 0 THEN 'M' ELSE 'F' END,
                 CASE WHEN k % 3 = 0 THEN 'N' ELSE 'Y' END, CASE WHEN k % 4 = 0 THEN 'Y' ELSE 'N' END,
                 CASE WHEN k % 5 = 0 THEN NULL ELSE now() - (((k * 37) % 2000) * interval '1 hour') END,
                 now() - ((30 + (k * 11) % 900) * interval '1 day')
          FROM src RETURNING id
        )
        INSERT INTO room_members (rid, hid, member_id, relation, move_in_date, create_time)
        SELECT ${rid}, hid, mid, ${p.relation}, (current_date - 30 - ((k * 11) % 900)::int), now() - ((30 + (k * 11) % 900) * interval '1 day')
        FROM src`.execute(c);
    }
    await addEmptyRoomOwnersAndMoveOuts(c, rid);
    await analyze(c, 'members', 'room_members');
  });
  if (cm.index === 0) await step('the demo owner (1号楼1单元1101)', () => demoOwner(c, rid));

  await step('cars', () =>
    sql`
    INSERT INTO cars (rid, hid, member_id, carlicense, car_type, color, brand, status, create_time)
    SELECT x.rid, x.hid, x.member_id,
           ${PROVINCES[cm.index % PROVINCES.length]!} || substr(${PLATE_LETTERS}, 1 + ((x.n / 100000) % ${PLATE_LETTERS.length})::int, 1)
             || CASE WHEN x.n % 4 = 0 THEN 'D' ELSE '' END || lpad(((x.n * 37) % 100000)::text, 5, '0'),
           CASE WHEN x.n % 4 = 0 THEN 'new_energy' WHEN x.n % 29 = 0 THEN 'large' ELSE 'small' END,
           (ARRAY['黑色','白色','银色','灰色','红色','蓝色'])[1 + x.hid % 6],
           (ARRAY['大众朗逸','丰田凯美瑞','本田雅阁','比亚迪秦','特斯拉Model 3','别克英朗','日产轩逸','吉利星越'])[1 + x.hid % 8],
           CASE WHEN x.hid % 23 = 0 THEN 'N' ELSE 'Y' END, x.create_time
    FROM (SELECT rm.rid, rm.hid, rm.member_id, rm.create_time, row_number() OVER (ORDER BY rm.id) AS n
          FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
          WHERE rm.rid = ${rid} AND rm.relation = 'owner' AND rm.status = 'Y' AND r.state <> 'vacant' AND rm.hid % 2 = 0) x
    ORDER BY x.n
    ON CONFLICT (rid, carlicense) DO NOTHING`
      .execute(c)
      .then(() => analyze(c, 'cars')),
  );

  await step('parking lots and spaces', async () => {
    await sql`
      INSERT INTO parking_lots (rid, title, address)
      VALUES (${rid}, '地下停车场A区', '小区地下一层'), (${rid}, '地面停车场', '小区东门内')`.execute(c);
    await sql`
      WITH lot AS (SELECT id FROM parking_lots WHERE rid = ${rid} ORDER BY id LIMIT 1),
      c AS (SELECT hid, member_id, carlicense, row_number() OVER (ORDER BY id) AS n FROM cars WHERE rid = ${rid} AND status = 'Y')
      INSERT INTO parking_spaces (rid, lot_id, title, hid, member_id, carlicense, status, start_date, end_date)
      SELECT ${rid}, lot.id, 'A-' || lpad(n::text, 5, '0'), hid, member_id, carlicense,
             CASE WHEN n % 3 = 0 THEN 'rented' ELSE 'sold' END,
             current_date - 300 - (n % 200)::int, CASE WHEN n % 3 = 0 THEN current_date + 65 - (n % 30)::int END
      FROM c CROSS JOIN lot ORDER BY n`.execute(c);
    await sql`
      INSERT INTO parking_spaces (rid, lot_id, title, status)
      SELECT ${rid}, l.id, 'B-' || lpad(g::text, 5, '0'), 'idle'
      FROM (SELECT id FROM parking_lots WHERE rid = ${rid} ORDER BY id DESC LIMIT 1) l
      CROSS JOIN generate_series(1, ${Math.max(10, Math.round(cm.rooms / 50))}) g`.execute(c);
    await analyze(c, 'parking_lots', 'parking_spaces');
  });
  await step('merchants, points and balance ledgers', async () => {
    await sql`
      INSERT INTO merchants (rid, merchant, mobile)
      SELECT ${rid}, s.title, '0215888' || (1000 + s.n) FROM unnest(ARRAY['便利店','超市','洗衣店','大药房']) WITH ORDINALITY AS s(title, n)`.execute(
      c,
    );
    const people = sql`(
      SELECT DISTINCT ON (m.id) m.id, rm.hid FROM members m
      JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y' AND rm.relation = 'owner'
      WHERE m.rid = ${rid} AND m.id % 6 = 0 ORDER BY m.id, rm.id)`;
    const store = sql`(SELECT id FROM merchants WHERE rid = ${rid} ORDER BY id OFFSET (g % 4) LIMIT 1)`;
    await sql`
      INSERT INTO bonus_ledger (rid, member_id, merchant_id, orderid, name, code, user_code, num, pay_cate, cate, source, action_user, create_time)
      SELECT ${rid}, p.id, s.id, 'JF' || to_char(now() - ((g * 5) * interval '1 day'), 'YYYYMMDD') || lpad((p.id * 100 + g)::text, 10, '0'),
             '幸福里会员卡', 'VIP' || lpad(p.id::text, 8, '0'), 'U' || lpad((p.id * 7)::text, 9, '0'),
             CASE WHEN g % 4 = 0 THEN -50 ELSE 20 * (1 + g % 5) END,
             CASE WHEN g % 4 = 0 THEN '积分抵扣' WHEN g % 4 = 1 THEN '消费赠送' WHEN g % 4 = 2 THEN '缴费赠送' ELSE '签到奖励' END,
             CASE WHEN g % 4 = 0 THEN '减少' ELSE '增加' END,
             (ARRAY['收银台','小程序','APP'])[1 + g % 3], (ARRAY['赵收银','系统','钱管家'])[1 + g % 3],
             now() - ((g * 5) * interval '1 day' + g * interval '1 hour')
      FROM ${people} p CROSS JOIN generate_series(1, 4) g JOIN LATERAL ${store} s ON true`.execute(c);
    await sql`
      INSERT INTO balance_ledger (rid, member_id, hid, merchant_id, orderid, io_type, feetype, paytype, total_fee, status, create_user, create_time)
      SELECT ${rid}, p.id, CASE WHEN g % 3 = 0 THEN NULL ELSE p.hid END, CASE WHEN g % 3 = 0 THEN s.id END,
             'YE' || to_char(now() - ((g * 6) * interval '1 day'), 'YYYYMMDD') || lpad((p.id * 100 + g)::text, 10, '0'),
             CASE WHEN g = 1 THEN 1 ELSE 2 END,
             CASE WHEN g = 1 THEN 'recharge' WHEN g % 3 = 0 THEN 'shop' ELSE (ARRAY['property','parking','water','electricity'])[1 + g % 4] END,
             CASE WHEN g = 1 THEN 'wechat' ELSE 'balance' END,
             CASE WHEN g = 1 THEN 2000 ELSE 35 + (g * 47) % 260 END, 'Y',
             CASE WHEN g % 3 = 0 THEN '门店收银' ELSE '赵收银' END,
             now() - (((20 - g) * 6) * interval '1 day')
      FROM ${people} p CROSS JOIN generate_series(1, 4) g JOIN LATERAL ${store} s ON true`.execute(c);
    // balances and points follow the ledgers (only the people who have entries)
    await sql`
      UPDATE members m SET balance = s.balance, bonus = greatest(s.bonus, 0)
      FROM (SELECT member_id,
              coalesce((SELECT sum(CASE io_type WHEN 1 THEN total_fee ELSE -total_fee END) FROM balance_ledger l
                        WHERE l.rid = ${rid} AND l.member_id = x.member_id AND l.status = 'Y'), 0) AS balance,
              coalesce((SELECT sum(num) FROM bonus_ledger l WHERE l.rid = ${rid} AND l.member_id = x.member_id), 0) AS bonus
            FROM (SELECT DISTINCT member_id FROM balance_ledger WHERE rid = ${rid}) x) s
      WHERE m.rid = ${rid} AND m.id = s.member_id`.execute(c);
  });

  const lived = sql`(SELECT DISTINCT ON (rm.hid) rm.hid, rm.member_id, rm.id FROM room_members rm
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND rm.hid % 4 = 0 ORDER BY rm.hid, rm.id)`;
  await step('visitors', () =>
    sql`
    INSERT INTO visitors (rid, hid, member_id, realname, mobile, visit_cause, status, visit_time, leave_time, pass_code, create_time)
    SELECT ${rid}, r.hid, r.member_id, ${name(sql`(r.hid * 5 + g)`)}, ${mobileOf(sql`(r.hid * 3 + g + 7)`)},
           (ARRAY['亲友拜访','快递配送','家政服务','装修施工','维修上门','外卖配送'])[1 + (r.hid + g) % 6],
           (ARRAY['','Y','D','C','3','D'])[1 + (r.hid + g) % 6],
           now() + ((3 - g * 2) * interval '1 day' + g * interval '1 hour'),
           now() + ((3 - g * 2) * interval '1 day' + g * interval '1 hour') + interval '4 hours',
           upper(substr(md5(${rid}::text || '-' || r.hid::text || '-' || g::text), 1, 12)),
           now() - ((g * 2) * interval '1 day')
    FROM ${lived} r CROSS JOIN generate_series(1, 2) g`.execute(c),
  );
  await step('activities, sign-ups, access records, face permissions', async () => {
    await sql`
      INSERT INTO activities (rid, title, limit_num, join_type, is_pay, status, start_time, end_time, event_start_time, event_end_time, create_user, create_time)
      VALUES (${rid}, '中秋游园会', 5000, 'all', 'N', 'Y', now() - interval '5 days', now() + interval '10 days', now() + interval '12 days', now() + interval '12 days 4 hours', '钱管家', now() - interval '6 days'),
             (${rid}, '业主羽毛球友谊赛', 64, 'owner', 'Y', 'N', now() - interval '60 days', now() - interval '40 days', now() - interval '35 days', now() - interval '35 days' + interval '6 hours', '张经理', now() - interval '62 days'),
             (${rid}, '亲子手工课堂', 40, 'resident', 'N', 'Y', now() + interval '3 days', now() + interval '20 days', now() + interval '25 days', now() + interval '25 days 2 hours', '钱管家', now() - interval '1 day')`.execute(
      c,
    );
    await sql`
      INSERT INTO activity_signups (rid, no, activity_id, member_id, hid, create_time)
      SELECT ${rid}, 'BM' || lpad(nextval('activity_signups_id_seq')::text, 8, '0'), a.id, rm.member_id, rm.hid,
        now() - ((1 + (rm.id % 5)) * interval '1 day')
      FROM room_members rm CROSS JOIN (SELECT id FROM activities WHERE rid = ${rid}) a
      WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.id + a.id) % 30 = 0
      ON CONFLICT (rid, activity_id, member_id) WHERE status <> 'C' DO NOTHING`.execute(c);
    await sql`
      INSERT INTO devices (rid, family, code, title, address)
      VALUES (${rid}, 'door', 'D0001', '东门人行闸机', '小区东门'), (${rid}, 'door', 'D0002', '南门人行闸机', '小区南门'), (${rid}, 'door', 'D0003', '地下车库电梯厅', '地下一层电梯厅'), (${rid}, 'door', 'D0004', '1号楼1单元门禁', '1号楼1单元大堂')`.execute(
      c,
    );
    // a year of passes: a room of four, every other day, at one of the four doors (face mostly, a
    // card one in five, a refused stranger one in fifty)
    await sql`
      INSERT INTO access_passes (rid, device_id, member_id, hid, person_name, method, similarity, result, rec_time)
      SELECT ${rid}, d.id, CASE WHEN (r.hid + g) % 50 = 0 THEN NULL ELSE r.member_id END, r.hid,
             CASE WHEN (r.hid + g) % 50 = 0 THEN '' ELSE m.realname END,
             CASE WHEN (r.hid + g) % 5 = 0 THEN 'card' ELSE 'face' END,
             CASE WHEN (r.hid + g) % 5 = 0 THEN NULL ELSE 80 + (r.hid + g) % 20 END,
             CASE WHEN (r.hid + g) % 50 = 0 THEN 'refused' ELSE 'open' END,
             now() - (g * 2 * interval '1 day') - ((r.hid % 14 + 7) * interval '1 hour')
      FROM ${lived} r JOIN members m ON m.rid = ${rid} AND m.id = r.member_id CROSS JOIN generate_series(0, 182) g
      JOIN LATERAL (SELECT id FROM devices WHERE rid = ${rid} AND family = 'door' ORDER BY id OFFSET (r.hid + g) % 4 LIMIT 1) d ON true`.execute(
      c,
    );
    // a grant per resident: most approved and held on the four doors, the rest in the other statuses
    await sql`
      INSERT INTO access_grants (rid, member_id, hid, person_kind, person_name, area_title, door_start_time, door_end_time, status,
        approved_at, create_user, create_time)
      SELECT ${rid}, rm.member_id, rm.hid, rm.relation, m.realname, '全部门禁',
             date_trunc('day', now()) - interval '100 days', date_trunc('day', now()) + interval '335 days',
             (ARRAY['Y','Y','Y','Y','Y','Y','W','P','N',''])[1 + rm.id % 10],
             CASE WHEN rm.id % 10 IN (6, 9) THEN NULL ELSE now() - interval '9 days' END,
             CASE WHEN rm.id % 2 = 0 THEN '业主小程序' ELSE '钱管家' END, now() - ((9 + rm.id % 3) * interval '1 day')
      FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.status = 'Y'`.execute(c);
    await sql`
      INSERT INTO access_grant_devices (rid, grant_id, device_id, state, last_error)
      SELECT g.rid, g.id, d.id, CASE WHEN g.status = 'Y' THEN 'held' WHEN g.status = 'N' AND d.code = 'D0004' THEN 'failed' ELSE 'pending' END,
             CASE WHEN g.status = 'N' AND d.code = 'D0004' THEN '设备无响应' ELSE '' END
      FROM access_grants g JOIN devices d ON d.rid = g.rid AND d.family = 'door'
      WHERE g.rid = ${rid} AND g.status IN ('Y', 'P', 'N')`.execute(c);
  });
  await step('room codes, each pushed to the gates', async () => {
    // the default templates (contract renderRoomCode), as 生成编码 makes them
    const rooms = await sql<{ id: string; building: string; bsort: number; unit: string; usort: number; title: string; floor: number }>`
      SELECT r.id, b.title AS building, b.sort AS bsort, u.title AS unit, u.sort AS usort, r.title, r.floor
      FROM rooms r JOIN buildings b ON b.rid = r.rid AND b.id = r.bid JOIN units u ON u.rid = r.rid AND u.id = r.tid
      WHERE r.rid = ${rid}`.execute(c);
    const parts = (r: (typeof rooms.rows)[number]) => ({
      building: r.building,
      buildingSort: r.bsort,
      unit: r.unit,
      unitSort: r.usort,
      room: r.title,
      floor: r.floor,
    });
    for (let i = 0; i < rooms.rows.length; i += 10_000) {
      const slice = rooms.rows.slice(i, i + 10_000);
      await sql`
        INSERT INTO room_codes (rid, hid, code, call_no, sync_state, created_at, updated_at)
        SELECT ${rid}, x.hid, x.code, x.call_no, 'done', now() - interval '30 days', now() - interval '30 days'
        FROM unnest(${slice.map((r) => r.id)}::bigint[], ${slice.map((r) => renderRoomCode(DEFAULT_CODE_TEMPLATE, parts(r)))}::text[],
          ${slice.map((r) => renderRoomCode(DEFAULT_CALL_TEMPLATE, parts(r)))}::text[]) AS x(hid, code, call_no)
        ON CONFLICT DO NOTHING`.execute(c);
    }
    await sql`
      INSERT INTO device_commands (rid, device_id, kind, subject, payload, state, attempts, created_at, sent_at, acked_at, next_try_at)
      SELECT rc.rid, d.id, 'room_sync', 'room:' || rc.hid,
        jsonb_build_object('action', 'set', 'hid', rc.hid, 'address', r.address, 'code', rc.code, 'call_no', rc.call_no),
        'done', 1, now() - interval '30 days', now() - interval '30 days', now() - interval '30 days', now() - interval '30 days'
      FROM room_codes rc JOIN rooms r ON r.rid = rc.rid AND r.id = rc.hid
      JOIN devices d ON d.rid = rc.rid AND d.family = 'door' AND d.code IN ('D0001', 'D0002')
      WHERE rc.rid = ${rid}`.execute(c);
  });

  const items = await step('fee cost types, items, bindings', () => feeSetup(c, cm));
  await step('facts per room for billing (owner, rented space)', async () => {
    await sql`DROP TABLE IF EXISTS scale_rooms`.execute(c);
    await sql`
      CREATE TEMP TABLE scale_rooms AS
      SELECT r.rid, r.id AS hid, r.bid, r.tid, r.state, r.built_area, o.member_id, coalesce(o.realname, '') AS payer, s.id AS space_id, s.title AS space_title
      FROM rooms r
      LEFT JOIN (SELECT DISTINCT ON (rm.hid) rm.hid, rm.member_id, m.realname FROM room_members rm
                 JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
                 WHERE rm.rid = ${rid} AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.hid, rm.id) o ON o.hid = r.id
      LEFT JOIN (SELECT DISTINCT ON (hid) hid, id, title FROM parking_spaces
                 WHERE rid = ${rid} AND status = 'rented' AND hid IS NOT NULL ORDER BY hid, id) s ON s.hid = r.id
      WHERE r.rid = ${rid}`.execute(c);
    await sql`ANALYZE scale_rooms`.execute(c);
  });
  const cashier = await sql<{ id: number; name: string }>`
    SELECT id, name FROM accounts WHERE username = 'cashier'`.execute(c);
  const {
    rows: [base],
  } = await sql<{ next: number }>`SELECT coalesce(max(id), 0) + 1 AS next FROM fee_payments`.execute(c);
  const billing: Billing = {
    ...cm,
    lo,
    items,
    paymentBase: Number(base!.next),
    receipts: 0,
    cashier: cashier.rows[0] ?? { id: 0, name: '系统' },
  };
  const thisMonth = `${today().slice(0, 7)}-01`;
  // oldest period first, as a year of monthly generation and payments would have written them
  for (let m = MONTHS - 1; m >= 0; m--) {
    const start = addMonths(thisMonth, -m);
    await step(`bills, payments, receipt lines ${start.slice(0, 7)}`, () => billPeriod(c, billing, m, start));
  }
  await step('tidy up', () => sql`DROP TABLE IF EXISTS scale_rooms`.execute(c));
  return items.property;
}

/** 1101 of 1号楼1单元 in the first community is the demo owner's, as in the demo, with his two cars; he also owns 801 of 2号楼1单元. */
async function demoOwner(c: Kysely<DB>, rid: number) {
  const room = (building: string, title: string) => sql`(SELECT r.id FROM rooms r
    JOIN buildings b ON b.rid = r.rid AND b.id = r.bid JOIN units u ON u.rid = r.rid AND u.id = r.tid
    WHERE r.rid = ${rid} AND b.title = ${building} AND u.title = '1单元' AND r.title = ${title})`;
  const updated = await sql`
    UPDATE members SET realname = ${DEMO_OWNER.realname}, mobile = ${DEMO_OWNER.mobile}, id_card = '310115197805121234', gender = 'M',
      wx_isbind = 'Y', app_isbind = 'Y', remark = '演示业主'
    WHERE rid = ${rid} AND id = (SELECT member_id FROM room_members WHERE rid = ${rid} AND hid = ${room('1号楼', '1101')}
      AND relation = 'owner' AND status = 'Y' ORDER BY id LIMIT 1)`.execute(c);
  if (!Number(updated.numAffectedRows)) return;
  await sql`
    INSERT INTO room_members (rid, hid, member_id, relation, move_in_date)
    SELECT ${rid}, h.id, m.id, 'owner', current_date - 600
    FROM ${room('2号楼', '801')} h CROSS JOIN (SELECT id FROM members WHERE rid = ${rid} AND mobile = ${DEMO_OWNER.mobile}) m
    ON CONFLICT DO NOTHING`.execute(c);
  // his two cars, as in the demo (the drawer's car tab of his room is a benchmark case); made
  // before the community's other cars, which give way should one draw the same plate
  await sql`
    INSERT INTO cars (rid, hid, member_id, carlicense, car_type, color, brand, status, create_time)
    SELECT ${rid}, h.id, coalesce(f.member_id, o.member_id), v.plate, v.car_type, v.color, v.brand, 'Y', now() - interval '400 days'
    FROM ${room('1号楼', '1101')} h
    CROSS JOIN (SELECT id AS member_id FROM members WHERE rid = ${rid} AND mobile = ${DEMO_OWNER.mobile}) o
    CROSS JOIN (VALUES ('沪A12345', 'small', '黑色', '大众帕萨特', false), ('沪AD12345', 'new_energy', '白色', '比亚迪汉', true))
      AS v(plate, car_type, color, brand, family)
    LEFT JOIN LATERAL (SELECT member_id FROM room_members WHERE rid = ${rid} AND hid = h.id AND status = 'Y' AND relation <> 'owner'
      ORDER BY id LIMIT 1) f ON v.family`.execute(c);
}

interface Items {
  property: number;
  parking: number;
  water: number;
}

async function feeSetup(c: Kysely<DB>, cm: Community): Promise<Items> {
  const { rid } = cm;
  await insertDefaultCostTypes(c, rid);
  const ids = {} as Items;
  for (const [costType, it] of Object.entries(ITEMS) as Array<[keyof Items, (typeof ITEMS)[keyof Items]]>) {
    const res = await sql<{ id: number }>`
      INSERT INTO fee_items (rid, cost_type, title, pricing, unit_price, default_quantity, cycle_months, due_day,
        late_fee_rule, late_fee_rate, late_fee_grace_days, late_fee_cap_percent, remark)
      VALUES (${rid}, ${costType}, ${it.title}, ${it.pricing}, ${it.unit_price}, ${costType === 'water' ? '12.00' : '0'}, ${it.cycle}, ${it.due_day},
        ${costType === 'property' ? 'daily' : 'none'}, ${costType === 'property' ? '0.5000' : '0'}, 0, ${costType === 'property' ? 100 : 0}, '')
      RETURNING id`.execute(c);
    ids[costType] = Number(res.rows[0]!.id);
  }
  // property: residences and shops (by category); water: the whole community; parking: each rented space (or its room)
  await sql`
    INSERT INTO fee_bindings (rid, item_id, scope, ref_id, created_by)
    SELECT ${rid}::int, ${ids.property}::bigint, 'category', id, '系统' FROM room_categories WHERE rid = ${rid} AND kind IN ('residence', 'shop')
    UNION ALL SELECT ${rid}::int, ${ids.water}::bigint, 'region', 0::bigint, '系统'`.execute(c);
  await sql`
    INSERT INTO fee_bindings (rid, item_id, scope, ref_id, created_by)
    SELECT DISTINCT ${rid}::int, ${ids.parking}::bigint, ${cm.hasSpaceId ? 'space' : 'room'}::text, ${cm.hasSpaceId ? sql`id` : sql`hid`}, '系统'
    FROM parking_spaces WHERE rid = ${rid} AND status = 'rented' AND hid IS NOT NULL`.execute(c);
  return ids;
}

interface Billing extends Community {
  lo: number;
  items: Items;
  /** payment ids: paymentBase + room index × 12 + months back, so bills can name their payment when inserted */
  paymentBase: number;
  /** receipts numbered so far in the community */
  receipts: number;
  cashier: { id: number; name: string };
}

/**
 * Payments first (one receipt per room and period, for all its bills), then the period's bills
 * with their status and payment, the receipt lines of the paid ones and the batch totals, in
 * one statement. Paid: nine in ten of older periods, six in ten of last month, a quarter of this
 * month (empty rooms less); unpaid bills past their due date are overdue (N), the rest pending (E).
 */
async function billPeriod(c: Kysely<DB>, b: Billing, m: number, start: string) {
  const { rid, items } = b;
  const period = start.slice(0, 7);
  const pct = m >= 2 ? 92 : m === 1 ? 60 : 25;
  const paid = sql`(((f.hid * 7919 + ${sql.lit(m * 104729)}) % 100) < CASE WHEN f.state = 'vacant' THEN ${sql.lit(Math.round(pct * 0.6))} ELSE ${sql.lit(pct)} END)`;
  const water = m % 2 === 0;
  const waterQty = sql`(8 + (f.hid * 7 + ${sql.lit(m)}) % 15)::numeric(14,2)`;
  const propertyFee = sql`round(f.built_area * ${ITEMS.property.unit_price}::numeric, 2)`;
  const waterFee = sql`round(${waterQty} * ${ITEMS.water.unit_price}::numeric * ${ITEMS.water.cycle}, 2)`;
  const parkingFee = sql`${ITEMS.parking.unit_price}::numeric(14,2)`;
  const payAt = sql`least(${start}::date + ((7 + f.hid % 18) * interval '1 day') + interval '9 hours' + (f.hid % 480) * interval '1 minute',
    now() - ((5 + f.hid % 600) * interval '1 minute'))`;
  const paymentId = sql`(${sql.lit(b.paymentBase)}::bigint + (f.hid - ${sql.lit(b.lo)}) * ${sql.lit(MONTHS)} + ${sql.lit(m)})`;

  const batch = await sql<{ id: number }>`
    INSERT INTO fee_batches (rid, period, item_ids, status, created_by, created_at)
    VALUES (${rid}, ${period}, ${[items.property, items.parking, ...(water ? [items.water] : [])]}::bigint[], 'done', '系统',
      ${start}::date - interval '3 days' + interval '2 hours')
    RETURNING id`.execute(c);
  const batchId = Number(batch.rows[0]!.id);

  const pays = await sql`
    INSERT INTO fee_payments (rid, id, receipt_no, hid, bid, tid, member_id, payer_name, receivable, due, paid_amount, pay_type,
      cashier_id, cashier_name, idempotency_key, print_count, created_at)
    SELECT ${rid}, ${paymentId}, lpad((${sql.lit(b.receipts)} + row_number() OVER (ORDER BY t.at, f.hid))::text, 8, '0'), f.hid, f.bid, f.tid,
      f.member_id, f.payer, a.amount, a.amount, a.amount, (ARRAY['cash','wechat','alipay','bankcard','transfer'])[1 + (f.hid + ${sql.lit(m)}) % 5],
      ${b.cashier.id}, ${b.cashier.name}, 'scale-' || f.hid || '-' || ${period}::text, (f.hid + ${sql.lit(m)}) % 2, t.at
    FROM scale_rooms f
    CROSS JOIN LATERAL (SELECT ${propertyFee} + ${water ? waterFee : sql`0`} + CASE WHEN f.space_id IS NULL THEN 0 ELSE ${parkingFee} END AS amount) a
    CROSS JOIN LATERAL (SELECT ${payAt} AS at) t
    WHERE ${paid}
    ORDER BY t.at, f.hid`.execute(c);
  b.receipts += Number(pays.numAffectedRows ?? 0);

  const daterange = (cycle: number) =>
    sql`${`${start} ~ `}::text || to_char(${start}::date + interval '${sql.raw(String(cycle))} months' - interval '1 day', 'YYYY-MM-DD')`;
  const due = (day: number) => sql`(${start}::date + ${sql.lit(day - 1)})`;
  const rows = [
    sql`SELECT 1 AS ord, f.*, ${items.property}::bigint AS item_id, 'property'::text AS cost_type, ${ITEMS.property.title}::text AS title,
        ${daterange(1)} AS daterange, f.built_area::text AS measure, ${ITEMS.property.unit_price}::numeric AS unit_price, ${propertyFee} AS fee,
        ${due(ITEMS.property.due_day)} AS due_date, 0::bigint AS bill_space FROM scale_rooms f`,
    // a parking bill's measure is its label, the space's title, as bill generation writes it
    sql`SELECT 2 AS ord, f.*, ${items.parking}::bigint, 'parking', ${ITEMS.parking.title}, ${daterange(1)}, f.space_title,
        ${ITEMS.parking.unit_price}::numeric, ${parkingFee}, ${due(ITEMS.parking.due_day)}, f.space_id FROM scale_rooms f WHERE f.space_id IS NOT NULL`,
    ...(water
      ? [
          sql`SELECT 3 AS ord, f.*, ${items.water}::bigint, 'water', ${ITEMS.water.title}, ${daterange(ITEMS.water.cycle)},
        ${waterQty}::text, ${ITEMS.water.unit_price}::numeric, ${waterFee}, ${due(ITEMS.water.due_day)}, 0::bigint FROM scale_rooms f`,
        ]
      : []),
  ];
  await sql`
    WITH ins AS (
      INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, daterange, measure, unit_price, fee, status, is_check,
        batch_id, source, due_date, paid_at, payment_id, create_time ${b.hasSpaceId ? sql`, space_id` : sql``})
      SELECT f.rid, f.hid, f.bid, f.tid, f.item_id, f.cost_type, f.title, ${period}, f.daterange, f.measure, f.unit_price, f.fee,
        CASE WHEN ${paid} THEN 'Y' WHEN f.due_date < current_date THEN 'N' ELSE 'E' END,
        CASE WHEN ${m >= 3 ? paid : sql`false`} THEN 'Y' ELSE 'N' END,
        ${batchId}::bigint, 'generate', f.due_date,
        CASE WHEN ${paid} THEN ${payAt} END, CASE WHEN ${paid} THEN ${paymentId} END,
        ${start}::date - interval '3 days' + interval '2 hours' ${b.hasSpaceId ? sql`, f.bill_space` : sql``}
      FROM (${sql.join(rows, sql` UNION ALL `)}) f
      ORDER BY f.ord, f.hid
      RETURNING id, rid, payment_id, cost_type, title, period, daterange, fee, status
    ), lines AS (
      INSERT INTO fee_payment_items (rid, payment_id, bill_id, cost_type, title, period, daterange, fee)
      SELECT rid, payment_id, id, cost_type, title, period, daterange, fee FROM ins WHERE status = 'Y' ORDER BY id
    )
    UPDATE fee_batches SET bill_count = (SELECT count(*) FROM ins), total_fee = (SELECT coalesce(sum(fee), 0) FROM ins)
    WHERE rid = ${rid} AND id = ${batchId}`.execute(c);
}

/** The tables of the schema being filled (not the other schemas of its database). */
async function schemaTables(c: Kysely<DB>): Promise<string[]> {
  const tables = await sql<{
    name: string;
  }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`.execute(c);
  return tables.rows.map((t) => t.name);
}
