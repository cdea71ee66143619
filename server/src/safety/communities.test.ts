import {
  DICT_TYPES,
  APPLYS_ALLOW,
  APPLYS_SCOPE,
  APP_SERVICES,
  APP_SERVICE_CODES,
  BANNER_ENABLED,
  BANNER_LINK_TYPE,
  BANNER_POSITION,
  BANNER_SCOPE,
  BANNER_STATUS,
  LEADER_GRAPHIC_CATEGORY,
  LEADER_GRAPHIC_PINNED,
  LEADER_GRAPHIC_STATUS,
  COMMUNITY_MODULES,
  MENU_ICON,
  COMMUNITY_MODULE_KEYS,
  GROUP_FEE_RANK_BY,
  DAILY_KEYS,
  enumKeys,
  enumTexts,
  fenToYuan,
  LINK_ICON,
  LINK_KIND,
  LINK_TARGET,
  PAY_CHANNEL_PROVIDER,
  PAY_TYPE,
  PAY_TYPE_KIND,
  NOTIFY_CHANNEL,
  NOTIFY_EVENT,
  NOTIFY_RECIPIENT,
  NOTIFY_STATUS,
  PAY_FEE_KIND,
  PAY_PROVIDER,
  PAY_SCENE,
  SMS_QUOTA_KIND,
  SMS_QUOTA_PURPOSE,
  PAY_SOURCE,
  RC,
  toFen,
  WX_KIND,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../db/schema.js';
import { hashToken } from '../http/tokens.js';
import type { MethodDef } from '../http/registry.js';
import { readXlsx } from '../lib/excel.js';
import { JobRunner } from '../jobs/runner.js';
import { startTestServer, type TestAnswer, type TestServer } from '../test/harness.js';
import { changedTables, tableSums, touchedTables, trackTouchedTables, VOLATILE_TABLES } from '../test/tableSums.js';
import { isExportMethod } from '../jobs/exports.js';

/**
 * The cross-community part of the matrix, walking the registry: an operator of community 1
 * (an administrator, so no role check stands in the way) calls every community method with
 * ids, keys and names that belong to community 2. No answer may carry community 2's data
 * and community 2's rows must stay exactly as they were. The same for a head office of a second
 * group against the first group's communities on the group side.
 *
 * Payloads come from each method's schema: every id field gets the other community's id
 * (`id` is tried with an id of every community table), the other fields a valid value, so the
 * calls pass validation and reach the handler. A method whose fields cannot be filled that way
 * fails the test: add the field to VALUES or VICTIM_ID_FIELDS.
 */
let s: TestServer;
let operator: string;
let outsider: string;
const VICTIM = 2;
const OPERATOR = 1;

/**
 * Moved by the doors' command queue, whose job serves every community at once (a call of community 1
 * may queue a run that answers community 2's pending pushes; docs/product.md#access-control): left
 * out of the rows a call must not change. Their isolation by community is access.test's.
 */
const QUEUE_MOVED = new Set(['device_commands', 'access_grant_devices']);
/** The server's bookkeeping of work (job kinds, export file names with the day's date): no fingerprint of a community's data. */
const BOOKKEEPING = new Set(['jobs', 'export_files']);
/** Skipped: logout and sessiondel only end the caller's own sessions (and would end this test's; attacks-auth.test.ts holds sessiondel to the caller's account). */
const SKIP = new Set(['logout', 'login', 'sessiondel']);
/**
 * Answers that are the product's own constants, the same for every group (the permission tree, the
 * write methods' names the operation log filters by): their words are no one's data.
 */
const CONSTANT_ANSWERS = new Set(['permissiontree', 'operationlog_small_list']);
/**
 * Crossing the communities of one group by design (docs/product.md#merchants): a merchant serves
 * other communities of its group, asked for by its own community and decided by the served one,
 * whose row it is. These answer the other community's title and the asking merchant's name and
 * kind, and the asking side writes its own merchant's request kept in the served community
 * (merchant_services, the tables given). That each keeps to the rows naming the caller's community
 * or its merchant is merchants.test.ts's.
 */
const GROUP_CROSSING: ReadonlyMap<string, readonly string[]> = new Map([
  ['merchant_region_small_list', []],
  ['merchantservicelist', []],
  ['merchantserviceapprove', []],
  ['merchantservicerefuse', []],
  ['merchantserviceadd', ['merchant_services', 'workflow_logs']],
  ['merchantservicedel', ['merchant_services']],
]);
/**
 * Words of the product's own catalogues stored in rows (the daily switches' keys, the links' coded
 * values): every community's answers carry them, whoever stored a row of them first.
 */
const CONSTANT_WORDS = new Set<string>([
  ...DAILY_KEYS,
  ...enumKeys(LINK_KIND),
  ...enumKeys(LINK_TARGET),
  ...enumKeys(LINK_ICON),
  // the modules a community has open (leaderregionlist): the product's keys, in every group's answers
  ...COMMUNITY_MODULE_KEYS,
  // what the group fee summary is ranked by, echoed in its answer
  ...GROUP_FEE_RANK_BY,
  // the dictionary's editable types (dicttypelist): every group's answers list them, a row's type is one
  ...Object.keys(DICT_TYPES),
  // a payment merchant's kind of fee, provider and fallback (setpay): codes and their words, anyone's
  ...[enumTexts(PAY_FEE_KIND), enumTexts(PAY_PROVIDER), enumTexts(PAY_SOURCE)].flatMap((e) => [...Object.keys(e), ...Object.values(e)]),
  // the WeChat settings' kinds and the payment channels' scenes and providers (setwxsys, setchannel): every group's answers list them
  ...[enumTexts(WX_KIND), enumTexts(PAY_SCENE), enumTexts(PAY_CHANNEL_PROVIDER)].flatMap((e) => [...Object.keys(e), ...Object.values(e)]),
  // the SMS quota ledger's kinds and purposes (smsquotaledger): every group's rows carry them
  ...[enumTexts(SMS_QUOTA_KIND), enumTexts(SMS_QUOTA_PURPOSE)].flatMap((e) => [...Object.keys(e), ...Object.values(e)]),
  // the owner app's catalogue (applyslist, applysinfo: every group's answers list its twelve services,
  // their icons and modules) and the group banners' coded values (bannerlist)
  ...APP_SERVICE_CODES.flatMap((c) => [c, APP_SERVICES[c].title, APP_SERVICES[c].intro]),
  ...Object.values(COMMUNITY_MODULES),
  ...[
    enumTexts(MENU_ICON),
    enumTexts(APPLYS_SCOPE),
    enumTexts(APPLYS_ALLOW),
    enumTexts(BANNER_POSITION),
    enumTexts(BANNER_LINK_TYPE),
    enumTexts(BANNER_SCOPE),
    enumTexts(BANNER_ENABLED),
    enumTexts(BANNER_STATUS),
    // the group articles' coded values (leadergraphiclist)
    enumTexts(LEADER_GRAPHIC_CATEGORY),
    enumTexts(LEADER_GRAPHIC_STATUS),
    enumTexts(LEADER_GRAPHIC_PINNED),
    // the system's payment methods and their kinds (paytypelist): every group's answers list them
    enumTexts(PAY_TYPE),
    enumTexts(PAY_TYPE_KIND),
    // the message settings' matrix (messagesetinfo: every group's answer lists its cells) and the log's coded values
    enumTexts(NOTIFY_EVENT),
    enumTexts(NOTIFY_RECIPIENT),
    enumTexts(NOTIFY_CHANNEL),
    enumTexts(NOTIFY_STATUS),
  ].flatMap((e) => [...Object.keys(e), ...Object.values(e)]),
]);
/** A role of the first group (staff_roles), which owns communities 1 and 2. */
let victimRoleId = 0;

interface Victim {
  room: { hid: number; bid: number; tid: number; category_id: number | null };
  member: { id: number; realname: string; mobile: string };
  plate: string;
  billIds: number[];
  /** one id of every community table (rid + id) of the victim */
  anyIds: Map<string, number>;
  byTable: Record<string, number>;
  orderid: string;
  /** a staff account of community 2 alone (on its duty roster) */
  staffId: number;
}
let victim: Victim;
let victimStrings: Set<string>;

async function tablesWith(db: Kysely<DB>, column: string): Promise<string[]> {
  const res = await sql<{ table_name: string }>`
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema() AND c.column_name = ${column} ORDER BY c.table_name`.execute(db);
  return res.rows.map((r) => r.table_name).filter((t) => !VOLATILE_TABLES.has(t));
}

async function setUpVictim(): Promise<Victim> {
  const db = s.database.db;
  const [admin2, cashier2] = await Promise.all([s.login('admin2'), s.login('cashier2')]);
  // community 2 gets bills, a payment, a refund request, a discount request, a car, a generation job and a renewal order through the API
  const item = await db
    .selectFrom('fee_items')
    .select('id')
    .where('rid', '=', VICTIM)
    .where('pricing', '=', 'area_built')
    .executeTakeFirstOrThrow();
  expect((await s.call('feebillgenerate', { period: '2026-01', item_ids: [item.id] }, admin2)).return_code).toBe(RC.SUCCESS);
  await s.runJobs();
  const owned = await db
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
    .select(['rm.hid', 'r.bid', 'r.tid', 'r.category_id', 'm.id', 'm.realname', 'm.mobile'])
    .where('rm.rid', '=', VICTIM)
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .orderBy('rm.hid')
    .limit(2)
    .execute();
  const [home, paid] = owned as [(typeof owned)[number], (typeof owned)[number]];
  const bills = (await s.call('cashierbills', { hid: paid.hid }, cashier2)).data.items as Array<{ id: number; total: string }>;
  const pay = await s.call(
    'cashierpay',
    {
      hid: paid.hid,
      bill_ids: bills.map((b) => b.id),
      pay_type: 'cash',
      idempotency_key: 'victim-payment-1',
      paid_amount: fenToYuan(bills.reduce((sum, b) => sum + toFen(b.total), 0n)),
    },
    cashier2,
  );
  expect(pay.return_code).toBe(RC.SUCCESS);
  expect((await s.call('refundapply', { payment_id: pay.data.id, reason: '重复缴费' }, cashier2)).return_code).toBe(RC.SUCCESS);
  // a discount above the cap waiting for approval, on the home's unpaid bills
  const unpaid = (await s.call('cashierbills', { hid: home.hid }, cashier2)).data.items as Array<{ id: number; total: string }>;
  const half = unpaid.reduce((sum, b) => sum + toFen(b.total), 0n) / 2n;
  expect(
    (
      await s.call(
        'discountapply',
        // a reason of the victim's own: the operator's payloads say 跨区测试, and its own operation log (操作日志) shows them back to it
        { hid: home.hid, bill_ids: unpaid.map((b) => b.id), amount: fenToYuan(half), reason: '翠湖苑业主困难减免' },
        cashier2,
      )
    ).return_code,
  ).toBe(RC.SUCCESS);
  const plate = '浙A7C315';
  expect((await s.call('caradd', { hid: home.hid, member_id: home.id, carlicense: plate, brand: '比亚迪' }, admin2)).return_code).toBe(
    RC.SUCCESS,
  );
  const order = await s.call('get_region_delay_pay', {}, cashier2);
  expect(order.return_code).toBe(RC.SUCCESS);
  // a duty roster (issue 36): a shift and a weekly roster of its administrator
  const victimStaff = (await db.selectFrom('accounts').select('id').where('username', '=', 'admin2').executeTakeFirstOrThrow()).id;
  const victimShift = await s.call('dutyshiftadd', { name: '翠湖苑门岗班', times: '06:00-18:00' }, admin2);
  expect(victimShift.return_code).toBe(RC.SUCCESS);
  const day = victimShift.data.id as number;
  const roster = { name: '翠湖苑门岗排班', kind: 'W', cycle: 1, start_date: '2026-01-05', days: [day, day, day, day, day, null, null] };
  expect((await s.call('scheduleadd', { ...roster, staff_ids: [victimStaff] }, admin2)).return_code).toBe(RC.SUCCESS);
  // customer care (issue 43): a record, a rule, an affair and a group affair of community 2
  const careCustomer = await s.call(
    'careadd',
    { realname: '翠湖苑关怀客户', mobile: '13611112222', kind: 'other', birthday: '1950-01-01', steward_id: victimStaff },
    admin2,
  );
  expect(careCustomer.return_code).toBe(RC.SUCCESS);
  const careRule = { name: '翠湖苑生日祝福', cycle: 'birthday', affair_kind: 'birthday', days_before: 7, assignee_id: victimStaff };
  expect((await s.call('affairruleadd', careRule, admin2)).return_code).toBe(RC.SUCCESS);
  const careAffair = {
    customer_id: careCustomer.data.id,
    kind: 'call',
    due_date: '2031-01-01',
    assignee_id: victimStaff,
    content: '翠湖苑回访',
  };
  expect((await s.call('affairadd', careAffair, admin2)).return_code).toBe(RC.SUCCESS);
  const careBatch = { title: '翠湖苑批量慰问', affair_kind: 'festival', due_date: '2031-01-01', assignee_id: victimStaff };
  expect((await s.call('groupaffairadds', careBatch, admin2)).return_code).toBe(RC.SUCCESS);
  // a contract of community 2 (docs/product.md#crm-contracts): its type, a draft on the home
  const contractType = await s.call('contracttypeadd', { name: '翠湖苑买卖合同', kind: 'sale', prefix: 'CH' }, admin2);
  expect(contractType.return_code).toBe(RC.SUCCESS);
  const contractDraft = {
    type_id: contractType.data.id,
    name: '翠湖苑商品房买卖合同',
    party_name: '翠湖苑买家',
    party_mobile: '13955550001',
    units: [{ unit_kind: 'room', unit_id: home.hid, price: '800000.00' }],
    total_amount: '800000.00',
    instalments: [{ name: '定金', amount: '800000.00', due_date: '2031-01-01' }],
    sign_date: '2026-01-05',
    start_date: '2026-01-05',
  };
  expect((await s.call('addroomsales', contractDraft, admin2)).return_code).toBe(RC.SUCCESS);
  // the sales CRM (docs/product.md#crm-sales): a customer of community 2 with a follow-up, a visit booked and a deposit on a room nobody owns
  const prospect = await s.call('addcrm', { name: '翠湖苑意向客户', mobile: '13912340001', source: 'call' }, admin2);
  expect(prospect.return_code).toBe(RC.SUCCESS);
  const prospectCall = { customer_id: prospect.data.id, kind: 'phone', content: '翠湖苑客户电话跟进' };
  expect((await s.call('salescalladd', prospectCall, admin2)).return_code).toBe(RC.SUCCESS);
  expect((await s.call('inviteadd', { customer_id: prospect.data.id, invite_at: '2031-01-01 10:00' }, admin2)).return_code).toBe(
    RC.SUCCESS,
  );
  const unsold = await sql<{ id: number }>`SELECT r.id FROM rooms r WHERE r.rid = ${VICTIM} AND NOT EXISTS (SELECT 1 FROM room_members rm
    WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.relation = 'owner' AND rm.status = 'Y') ORDER BY r.id LIMIT 1`.execute(db);
  if (unsold.rows[0])
    expect(
      (await s.call('intentionadd', { customer_id: prospect.data.id, amount: '10000.00', hid: unsold.rows[0].id }, admin2)).return_code,
    ).toBe(RC.SUCCESS);
  const billIds = (await db.selectFrom('fee_bills').select('id').where('rid', '=', VICTIM).where('hid', '=', home.hid).execute()).map(
    (b) => b.id,
  );
  expect(billIds.length).toBeGreaterThan(0);

  const ids = await idsOf(db, VICTIM);
  return {
    room: { hid: home.hid, bid: home.bid, tid: home.tid, category_id: home.category_id },
    member: { id: home.id, realname: home.realname, mobile: home.mobile },
    plate,
    billIds,
    ...ids,
    // the item of the bills made above (the community's first item may be another: its activities' 活动费)
    byTable: { ...ids.byTable, fee_items: item.id },
    orderid: order.data.items.orderid,
    staffId: victimStaff,
  };
}

/**
 * One id of every community table (rid + id) of community `rid`: `byTable` its first row's, and
 * `anyIds` one chosen so that few values serve every table. A method taking `id` is called once
 * with each distinct value of `anyIds`; a value that is community `rid`'s row in many tables at once
 * (a greedy cover of the tables by their ids) tries every table with fewer calls: on the demo, 40
 * values serve the 128 tables whose first rows were 68 values.
 */
async function idsOf(db: Kysely<DB>, rid: number): Promise<Pick<Victim, 'anyIds' | 'byTable'>> {
  const anyIds = new Map<string, number>();
  const byTable: Record<string, number> = {};
  /** each table's ids of the community (their first thousand) */
  const idsIn = new Map<string, Set<number>>();
  for (const table of await tablesWith(db, 'rid')) {
    const hasId = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'id'`.execute(db);
    if (!hasId.rows[0]!.n) continue;
    const rows = await sql<{ id: number }>`SELECT id FROM ${sql.table(table)} WHERE rid = ${rid} ORDER BY id LIMIT 1000`.execute(db);
    if (!rows.rows[0]) continue;
    byTable[table] = Number(rows.rows[0].id);
    idsIn.set(table, new Set(rows.rows.map((r) => Number(r.id))));
  }
  // the region's own id first (every rid-keyed lookup of the other community), then greedily the
  // value that is an id of the most tables not yet served
  const cover = (value: number) => {
    for (const [table, ids] of idsIn)
      if (ids.has(value)) {
        anyIds.set(table, value);
        idsIn.delete(table);
      }
  };
  cover(rid);
  while (idsIn.size) {
    const counts = new Map<number, number>();
    for (const ids of idsIn.values()) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    cover([...counts].reduce((best, c) => (c[1] > best[1] || (c[1] === best[1] && c[0] < best[0]) ? c : best))[0]);
  }
  anyIds.set('regions', rid);
  // the devices table holds every family: a door's id for the access methods, a gate's for the lanes', a meter gateway's
  for (const family of ['door', 'gate', 'meter']) {
    const row = await sql<{ id: number }>`SELECT id FROM devices WHERE rid = ${rid} AND family = ${family} ORDER BY id LIMIT 1`.execute(db);
    if (row.rows[0]) byTable[`devices:${family}`] = Number(row.rows[0].id);
  }
  // the property company's tables (departments, positions) are keyed by group_id: the community's group's rows
  for (const table of await tablesWith(db, 'group_id')) {
    if (table === 'regions' || table === 'accounts') continue;
    const hasId = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'id'`.execute(db);
    if (!hasId.rows[0]!.n) continue;
    const row = await sql<{ id: number }>`SELECT id FROM ${sql.table(table)}
      WHERE group_id = (SELECT group_id FROM regions WHERE id = ${rid}) ORDER BY id LIMIT 1`.execute(db);
    if (row.rows[0]) byTable[table] = Number(row.rows[0].id);
  }
  return { anyIds, byTable };
}

/** The operator's own things in community 1: a room with an owner, unpaid bills and a car. */
async function ownThings(): Promise<Victim> {
  const db = s.database.db;
  const home = await db
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
    .innerJoin('cars as c', (j) => j.onRef('c.rid', '=', 'rm.rid').onRef('c.hid', '=', 'rm.hid'))
    .select(['rm.hid', 'r.bid', 'r.tid', 'r.category_id', 'm.id', 'm.realname', 'm.mobile', 'c.carlicense'])
    .where('rm.rid', '=', OPERATOR)
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('fee_bills as b')
          .select('b.id')
          .whereRef('b.rid', '=', 'rm.rid')
          .whereRef('b.hid', '=', 'rm.hid')
          .where('b.status', '<>', 'Y'),
      ),
    )
    .orderBy('rm.hid')
    .executeTakeFirstOrThrow();
  const bills = await db
    .selectFrom('fee_bills')
    .select('id')
    .where('rid', '=', OPERATOR)
    .where('hid', '=', home.hid)
    .where('status', '<>', 'Y')
    .execute();
  return {
    room: { hid: home.hid, bid: home.bid, tid: home.tid, category_id: home.category_id },
    member: { id: home.id, realname: home.realname, mobile: home.mobile },
    plate: home.carlicense,
    billIds: bills.map((b) => b.id),
    ...(await idsOf(db, OPERATOR)),
    orderid: '',
    staffId: (await db.selectFrom('accounts').select('id').where('username', '=', 'guard').executeTakeFirstOrThrow()).id,
  };
}

/**
 * Text found only in the victim's rows (any text column of any table), so an answer holding one
 * of them carries the victim's data.
 */
async function onlyIn(
  db: Kysely<DB>,
  isVictim: (table: string, columns: Set<string>) => ReturnType<typeof sql> | null,
): Promise<Set<string>> {
  const cols = await sql<{ table_name: string; column_name: string }>`
    SELECT c.table_name, c.column_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema() AND c.data_type IN ('text', 'character varying', 'character')`.execute(db);
  const allCols = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`.execute(db);
  const columnsOf = new Map<string, Set<string>>();
  for (const c of allCols.rows) columnsOf.set(c.table_name, (columnsOf.get(c.table_name) ?? new Set()).add(c.column_name));
  const theirs = new Set<string>();
  const others = new Set<string>();
  for (const { table_name: table, column_name: column } of cols.rows) {
    if (VOLATILE_TABLES.has(table) || BOOKKEEPING.has(table)) continue;
    const mine = isVictim(table, columnsOf.get(table)!) ?? sql`false`;
    const res = await sql<{ v: string; victim: boolean }>`
      SELECT DISTINCT ${sql.ref(column)}::text AS v, coalesce(${mine}, false) AS victim FROM ${sql.table(table)}`.execute(db);
    for (const r of res.rows) if (r.v) (r.victim ? theirs : others).add(r.v);
  }
  // amounts, dates and periods name nothing by themselves (long digit strings such as mobiles do)
  const named = (v: string) => v.trim().length >= 2 && (!/^[\d\s:.~-]+$/.test(v) || /^\d{7,}$/.test(v));
  return new Set([...theirs].filter((v) => !others.has(v) && named(v) && !CONSTANT_WORDS.has(v)));
}

/** The victim's rows of each table (`tables`, or every one): count and hash (test/tableSums.ts). */
const checksum = (db: Kysely<DB>, victimRows: VictimRows, tables?: Set<string>) =>
  tableSums(db, { skip: QUEUE_MOVED, rows: victimRows, tables });
type VictimRows = (table: string, columns: Set<string>) => RawBuilder<unknown> | null;

/** community 2's rows: every table with rid, the community itself, and the accounts that work only there */
const communityRows = (table: string, columns: Set<string>) => {
  if (table === 'regions') return sql`id = ${VICTIM}`;
  if (table === 'accounts') {
    return sql`id IN (SELECT account_id FROM account_regions WHERE rid = ${VICTIM})
      AND id NOT IN (SELECT account_id FROM account_regions WHERE rid <> ${VICTIM})`;
  }
  return columns.has('rid') ? sql`rid = ${VICTIM}` : null;
};

/** Every string in an answer, with the cells of an Excel file it carries. */
async function strings(value: unknown, out: string[] = []): Promise<string[]> {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) await strings(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.content_base64 === 'string' && /\.xlsx$/.test(String(o.filename))) {
      const sheet = await readXlsx(o.content_base64);
      out.push(...sheet.headers);
      for (const row of sheet.rows) out.push(...Object.values(row.values).map(String));
    }
    for (const v of Object.values(o)) await strings(v, out);
  }
  return out;
}

/** `rid: 2` anywhere in an answer */
function ridsIn(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const v of value) ridsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'rid' && v !== null && v !== undefined && v !== '') out.push(v);
      ridsIn(v, out);
    }
  }
  return out;
}

// ---- payloads -------------------------------------------------------------------------------

type Json = Record<string, any>;
let seq = 0;

/** Fields that name something of the victim's, and what they get. */
const VICTIM_ID_FIELDS = (v: Victim): Record<string, unknown> => ({
  rid: v.anyIds.get('regions'),
  // a DIY page copied from a community, to communities (diypagecopy)
  from_rid: v.anyIds.get('regions'),
  rids: [v.anyIds.get('regions')],
  hid: v.room.hid,
  hids: [v.room.hid],
  bid: v.room.bid,
  building_id: v.room.bid,
  tid: v.room.tid,
  mid: v.member.id,
  member_id: v.member.id,
  // an SMS job's chosen owners (its audience, a record inside the call)
  member_ids: [v.member.id],
  category_id: v.room.category_id,
  building_cate_id: v.room.category_id,
  item_id: v.byTable.fee_items,
  item_ids: [v.byTable.fee_items],
  itemid: v.byTable.fee_items,
  bill_ids: v.billIds,
  ids: v.billIds,
  payment_id: v.byTable.fee_payments,
  discount_request_id: v.byTable.fee_discount_requests,
  // the group's own payment method (paytypelist): community 2's group's is the operator's too
  pay_method_id: v.byTable.pay_methods,
  job_id: v.byTable.jobs,
  batch_id: v.byTable.fee_batches,
  parkid: v.byTable.parking_lots,
  lot_id: v.byTable.parking_lots,
  // a sign-up's activity (signupjoin, signupcheckin)
  activity_id: v.byTable.activities,
  space_id: v.byTable.parking_spaces,
  car_id: v.byTable.cars,
  main_car_id: v.byTable.cars,
  booth_id: v.byTable.parking_booths,
  lane_id: v.byTable['devices:gate'],
  device: v.byTable['devices:door'],
  parent_id: v.byTable.departments,
  dept_id: v.byTable.departments,
  position_id: v.byTable.positions,
  ref_ids: [v.room.hid],
  rooms: [{ hid: v.room.hid, relation: 'owner' }],
  orderid: v.orderid,
  // roles belong to the group: in community 2's group they are the operator's too, in another
  // group's walk they are the victim's
  role_id: victimRoleId,
  role_ids: [victimRoleId],
  replacement_id: victimRoleId,
  template_id: v.byTable.sms_templates,
  sms_job_id: v.byTable.sms_jobs,
  // not an id of anyone's: the SMS provider's AccessKey ID (smssettingset), a plain value
  access_key_id: 'LTAI5tCrossTest',
  // nor a WeChat Pay merchant number (setpayadd, setpayedit)
  mch_id: '1230000109',
  // nor a WeChat official account's original id (setwxsysedit)
  original_id: 'gh_0123456789ab',
  // nor a meter platform's AppID (metervendoradd)
  app_id: 'cross-test-app',
  // smart meters: community 2's meter and its gateway
  meter_id: v.byTable.meters,
  gateway_id: v.byTable['devices:meter'],
  // duty rosters: community 2's roster and its staff
  schedule_id: v.byTable.schedules,
  account_id: v.staffId,
  staff_ids: [v.staffId],
  // steward profiles and scores: community 2's profile
  profile_id: v.byTable.steward_profiles,
  // notices: a scope of community 2's room (scope 'room' below), its SMS template
  scope_ids: [v.room.hid],
  sms_template_id: v.byTable.sms_templates,
  // the steward desk: community 2's staff as a ticket's, complaint's or order's handler, its repair types
  handler_id: v.staffId,
  handler_ids: [v.staffId],
  cc_ids: [v.staffId],
  type_id: v.byTable.repair_types,
  // parking fees and coupons: community 2's merchant (a store) and parking coupon
  merchant_id: v.byTable.merchants,
  coupon_id: v.byTable.parking_coupons,
  coupon_ids: [v.byTable.parking_coupons],
  // the equipment ledger: community 2's asset, maintenance plan and standard
  asset_id: v.byTable.assets,
  asset_ids: [v.byTable.assets],
  standard_id: v.byTable.maintain_standards,
  // visitors: a door device of community 2 scanning a pass
  // access control: community 2's door device, region, grant and command
  device_id: v.byTable['devices:door'],
  device_ids: [v.byTable['devices:door']],
  region_id: v.byTable.access_regions,
  region_ids: [v.byTable.access_regions],
  grant_id: v.byTable.access_grants,
  command_id: v.byTable.device_commands,
  // charging piles: community 2's pile and its port
  charger_id: v.byTable.chargers,
  port_id: v.byTable.charger_ports,
  // security patrols: community 2's points, plans, tasks and their points, its guard
  plan_id: v.byTable.patrol_plans,
  task_id: v.byTable.patrol_tasks,
  task_point_id: v.byTable.patrol_task_points,
  guard_id: v.staffId,
  guard_ids: [v.staffId],
  order_handler_id: v.staffId,
  points: [{ point_id: v.byTable.patrol_points, offset_from: 0, offset_to: 0 }],
  // invoices: community 2's owner's saved title, and its owner to keep a typed one for
  title_id: v.byTable.invoice_titles,
  save_title_member_id: v.member.id,
  // the points mall: community 2's goods and a specification of them
  // room-sales contracts: community 2's contract; a unit is its room
  contract_id: v.byTable.contracts,
  unit_id: v.room.hid,
  goods_id: v.byTable.mall_goods,
  spec_id: v.byTable.mall_goods_specs,
  // members' cards: community 2's card and recharge package
  card_id: v.byTable.member_cards,
  package_id: v.byTable.recharge_packages,
  // members' coupons: the stores a template is valid at
  merchant_ids: [v.byTable.merchants],
  // claim links: the card or the coupon a link claims
  card_template_id: v.byTable.card_templates,
  coupon_template_id: v.byTable.member_coupon_templates,
  // customer care: community 2's staff (an affair's assignee, a customer's steward)
  assignee_id: v.staffId,
  steward_id: v.staffId,
});

/** The id fields of one method: a name two areas use differently is the method's area's. */
const methodIds = (method: string, v: Victim): Record<string, unknown> => ({
  ...VICTIM_ID_FIELDS(v),
  // plan_id: a maintenance plan for the equipment ledger's methods, a patrol plan elsewhere
  ...(method.startsWith('maintain') ? { plan_id: v.byTable.maintain_plans } : {}),
  // template_id: a card template for the members' cards, an SMS template elsewhere
  ...(/^(creatcardus|editcardus|carduslist|cardusexport)$/.test(method) ? { template_id: v.byTable.card_templates } : {}),
  // template_id: a coupon template for the members' coupons
  ...(/^(cardgive|cardgetlists|cardgetexport|reportcardgeneral(list|export))$/.test(method)
    ? { template_id: v.byTable.member_coupon_templates }
    : {}),
  ...(/^card_verification(list|export)?$/.test(method) ? { template_id: v.byTable.member_coupon_templates } : {}),
  // 成本登记: a cost item or category of community 2 (item_id: a fee item elsewhere, category_id: a room category)
  ...(/^cost/.test(method) ? { item_id: v.byTable.cost_items, category_id: v.byTable.cost_items, parent_id: v.byTable.cost_items } : {}),
  // rule_id: a coupon rule for the coupons' gives
  ...(method === 'cardsrulegives' ? { rule_id: v.byTable.member_coupon_rules } : {}),
  // a member coupon's code (12 characters; the victim's are refused as 券码不存在 like any unknown one)
  ...(method === 'cardverify' ? { code: 'ABCDEFGHJKLM' } : {}),
  // points: a card's points to add, a patrol plan's points elsewhere
  ...(/^(cardbonusadjust|cardconsume|cardconsumepreview)$/.test(method) ? { points: 10 } : {}),
  // customer care: an affair's customer, rule and group affair (batch_id: a bill generation's elsewhere)
  ...(/^(affair(add|edit|list|export|counts)|affairrulerun)$/.test(method)
    ? { customer_id: v.byTable.care_customers, rule_id: v.byTable.care_affair_rules, batch_id: v.byTable.care_affair_batches }
    : {}),
  // the sales CRM: community 2's customer (and its ids for the pool's actions), its staff as a consultant or a follow-up's author
  ...(/^(salescall|invite|intention)(add|edit|list|export)$/.test(method) ? { customer_id: v.byTable.crm_customers } : {}),
  ...(/^crm(claim|release|assign)$/.test(method) ? { ids: [v.byTable.crm_customers] } : {}),
  ...(method === 'crmcheckmobile' ? { except_id: v.byTable.crm_customers } : {}),
  ...(/^(addcrm|editcrm|crmlist|crmexport|crmassign|crmfunnel|crmfunnelexport|invite(add|edit|list|export))$/.test(method)
    ? { consultant_id: v.staffId }
    : {}),
  ...(/^salescall(list|export)$/.test(method) ? { operator_id: v.staffId } : {}),
  // room-sales contracts: a contract's sales customer (community 2's)
  ...(/^(addroomsales|editroomsales)$/.test(method) ? { customer_id: v.byTable.crm_customers } : {}),
  // the group fee summary answers at most 36 months: the victim's bills are of this year's
  ...(/^leaderfee(summary|summaryexport|trend|detail)$/.test(method) ? { start_period: '2026-01', end_period: '2026-12' } : {}),
  // a claim link's token (the victim's own are refused as 领取链接不存在 like any unknown one)
  ...(method === 'cardslinkclaim' ? { token: 'AbCdEfGhIjKlMnOpQrStUv' } : {}),
});

/** Plain fields: a valid value; reads search for the victim's owner, writes create fresh things. */
const VALUES = (v: Victim, write: boolean): Record<string, unknown> => ({
  // invoices: a tax classification code and a seller's credit code with its check digit
  tax_code: '3040801010000000000',
  seller_tax_no: '91310115MA1K3YJ73R',
  // smart meters: a plan's one tier, the hours valves may close
  tiers: [{ upto: null, price: '0.6170' }],
  close_from: 8,
  close_to: 20,
  // the sales CRM: a visit's time, the pool's warning days (none: below any reclaim days the walk gives)
  invite_at: '2031-01-01 10:00',
  pool_warn_days: 0,
  // an activity's cover and windows (signupadd, signupedit; its end_time is the one below)
  cover: `/files/1/${'a'.repeat(32)}.png`,
  start_time: '2030-01-01 08:00',
  event_start_time: '2032-01-01 08:00',
  event_end_time: '2032-01-01 10:00',
  keywords: write ? '跨区' : v.member.mobile,
  keyword: write ? '跨区' : v.member.realname,
  // a write names a thing of its own (a payment method the walking head office adds is listed back to it)
  name: write ? `跨区测试${++seq}` : v.member.realname,
  mobile: write ? `137${String(10_000_000 + ++seq).slice(-8)}` : v.member.mobile,
  // a contract's party B (docs/product.md#crm-contracts)
  party_mobile: write ? `139${String(10_000_000 + ++seq).slice(-8)}` : v.member.mobile,
  // a ticket's or a complaint's contact phone
  phone: write ? `136${String(10_000_000 + ++seq).slice(-8)}` : v.member.mobile,
  realname: '跨区测试',
  title: `跨区测试${++seq}`,
  reason: '跨区测试',
  remark: '跨区测试',
  carlicense: write ? `沪Z${String(10_000 + ++seq).slice(-5)}` : v.plate,
  carno: v.plate,
  // a plate seen at a lane, or a corrected one: a fresh plate on a write
  plate: write ? `沪Y${String(10_000 + ++seq).slice(-5)}` : v.plate,
  note: '跨区测试',
  period: '2026-01',
  start_period: '2020-01',
  end_period: '2031-12',
  start_date: '2020-01-01',
  end_date: '2031-12-31',
  date: '2031-01-01',
  year: 2026,
  end_time: '2031-12-31',
  months: 1,
  years: 1,
  pay_type: 'cash',
  paid_amount: '100000.00',
  amount: '10.00',
  fee: '1.00',
  discount: '0',
  unit_price: '1.00',
  price_per_year: '1.00',
  idempotency_key: `cross-community-${++seq}`,
  scope: 'room',
  is_check: 'Y',
  approve: true,
  use_balance: false,
  preview: false,
  cost_type: 'property',
  pricing: 'fixed',
  relation: 'owner',
  username: 'admin2',
  password: 'Hacked#2026',
  password2: 'Hacked#2026',
  oldpassword: 'demo123456',
  act_code: 'NO-SUCH-CODE',
  filename: 'rooms.xlsx',
  file_base64: Buffer.from('not an excel file').toString('base64'),
  // a duty shift's time ranges
  times: '08:00-18:00',
  // the parking fee calculator's stay
  entry_time: '2031-01-01 09:00:00',
  exit_time: '2031-01-01 11:10:00',
  // visitors: a visit's window, its reason (a dictionary item of the group), a scan's time
  visit_time: '2031-01-01 09:00:00',
  leave_time: '2031-01-01 11:00:00',
  visit_cause: '亲友拜访',
  time: '2031-01-01 10:00:00',
  // an app menu's target (a built-in function)
  target: 'repair',
  // security patrols: a plan's shift windows, the jobs' moment, the report's days
  shifts: [{ start: '20:00', end: '22:00' }],
  at: '2031-01-01 19:45:00',
  day: ['2031-01-01', '2031-01-01'],
});

/** A valid value for a field from its JSON schema (fields nobody listed above). */
function sample(schema: Json | undefined): unknown {
  if (!schema) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((e: unknown) => e !== '') ?? schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt) {
    for (const a of alt) {
      const v = sample(a);
      if (v !== undefined && v !== null && v !== '') return v;
    }
    return sample(alt[0]);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems ? [sample(schema.items)] : [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k: string) => [k, sample(schema.properties?.[k])]));
    case 'string':
      if (schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return '2031-01-01';
      if (schema.pattern?.startsWith('^\\d{4}-(0[1-9]')) return '2026-01';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return 'x';
  }
}

const ID_LIKE = /(^|_)(ids?|hids?|bid|tid|rid|mid)$|_id$|^(parkid|device|itemid)$/;

/** Other values tried, in order, for a plain field its schema refuses (undefined: leave it out). */
// ('2020-12-31': the end of a period a report bounds to a year, start_date being 2020-01-01)
const FALLBACKS: unknown[] = [
  '1.00',
  '1',
  1,
  '2031-01-01',
  '2020-12-31',
  '2026-01',
  'Y',
  undefined,
  // an uploaded image's address (a door grant's face)
  '/files/1/0123456789abcdef0123456789abcdef.png',
  'https://example.com/a.png',
  'x',
  true,
  [],
  null,
];

/** Replaces refused plain fields with other values until the payload passes (victim ids stay as they are). */
function fit(def: MethodDef, payload: Json, props: Record<string, Json>, fixed: Set<string>): Json {
  const tried = new Map<string, number>();
  const out = { ...payload };
  for (let round = 0; round < 300; round++) {
    const parsed = def.schema.safeParse({ ...out, id: out.id ?? 1 });
    if (parsed.success) break;
    const bad = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))].filter((f) => f && !fixed.has(f) && f !== 'id');
    const candidates = (f: string) => [sample(props[f]), ...FALLBACKS];
    const next = bad.find((f) => (tried.get(f) ?? 0) < candidates(f).length);
    if (!next) break;
    const n = tried.get(next) ?? 0;
    tried.set(next, n + 1);
    const value = candidates(next)[n];
    if (value === undefined) delete out[next];
    else out[next] = value;
  }
  return out;
}

/** Filters that look the victim up by what a person would type. */
const SEARCH_FIELDS = new Set(['keywords', 'keyword', 'name', 'mobile', 'carlicense', 'carno']);

/**
 * An object of a schema's fields: victim ids for every id field, and plain values for the required
 * fields (`search`: also the victim's name, mobile and plate in the search filters). Optional
 * filters stay out, so they cannot hide a row that should not be there.
 */
function fill(shape: Json, v: Victim, write: boolean, unmapped: string[], search: boolean, ids = VICTIM_ID_FIELDS(v)): Json {
  const props: Record<string, Json> = shape.properties ?? {};
  const required = new Set<string>(shape.required ?? []);
  const values = VALUES(v, write);
  const out: Json = {};
  for (const [field, fieldSchema] of Object.entries(props)) {
    if (field === 'id') continue;
    const items = fieldSchema.items as Json | undefined;
    if (field in ids) out[field] = ids[field];
    else if (ID_LIKE.test(field)) unmapped.push(field);
    else if (!required.has(field) && !(search && SEARCH_FIELDS.has(field))) continue;
    else if (field in values) out[field] = values[field];
    else if (fieldSchema.type === 'array' && items?.type === 'object') out[field] = [fill(items, v, write, unmapped, true, ids)];
    // a record inside the call (a complaint's repair ticket): filled the same way, its ids the victim's
    else if (fieldSchema.type === 'object' && fieldSchema.properties) out[field] = fill(fieldSchema, v, write, unmapped, false, ids);
    else out[field] = sample(fieldSchema);
  }
  return out;
}

/** The payloads for one method: each shape of its schema, once per candidate id when it takes `id`. */
function payloads(def: MethodDef, v: Victim, idCandidates: number[]): { list: Json[]; unmapped: string[] } {
  const top = z.toJSONSchema(def.schema, { io: 'input', unrepresentable: 'any' }) as Json;
  const shapes: Json[] = top.oneOf ?? top.anyOf ?? [top];
  const unmapped: string[] = [];
  const list: Json[] = [];
  for (const shape of shapes) {
    const props: Record<string, Json> = shape.properties ?? {};
    const searches = !def.spec.writes && Object.keys(props).some((f) => SEARCH_FIELDS.has(f) && !(shape.required ?? []).includes(f));
    for (const search of searches ? [false, true] : [false]) {
      const ids = methodIds(def.name, v);
      const fitted = fit(def, fill(shape, v, Boolean(def.spec.writes), unmapped, search, ids), props, new Set(Object.keys(ids)));
      if ('id' in props) list.push(...idCandidates.map((id) => ({ ...fitted, id })));
      else list.push(fitted);
    }
  }
  return { list, unmapped: [...new Set(unmapped)] };
}

// ---- the walk -------------------------------------------------------------------------------

interface Walk {
  problems: string[];
  reached: Set<string>;
  notReached: string[];
  calls: number;
}

/**
 * The operator's own valid payload with one id field at a time pointing at the victim's thing
 * (lists get the victim's ids added to the operator's): a handler that checks only the main id.
 */
function mixedPayloads(def: MethodDef, own: Victim, v: Victim): { list: Json[]; unmapped: string[] } {
  const { list, unmapped } = payloads(def, own, []);
  const base = list[0];
  if (!base) return { list: [], unmapped };
  const theirs = methodIds(def.name, v);
  const variants = Object.keys(base)
    .filter((f) => f in theirs && f !== 'rid')
    .map((f) => ({
      ...base,
      [f]: Array.isArray(base[f]) ? [...(base[f] as unknown[]), ...(theirs[f] as unknown[])] : theirs[f],
    }));
  return { list: variants, unmapped };
}

/** An export answers a job's id: what it gives the caller is the workbook that job writes. */
async function followExport(name: string, res: TestAnswer, token: string, side: 'community' | 'group'): Promise<unknown> {
  if (res.return_code !== RC.SUCCESS || !isExportMethod(name)) return res.data;
  // the export's job alone: the periodic jobs (the doors' heartbeats and queue, the visitors' and
  // activities' clocks) change community 2's rows by design, whoever calls
  await new JobRunner(s.database.db, s.app.fastify.log, { daily: false }).drain();
  const file = await s.call('exportfile', { id: res.data.job_id }, token, side);
  if (file.return_code !== RC.SUCCESS) return file;
  const sheet = await readXlsx(file.data.content_base64);
  return { filename: file.data.filename, headers: sheet.headers, rows: sheet.rows.map((r) => r.values) };
}

async function walk(
  defs: MethodDef[],
  token: string,
  side: 'community' | 'group',
  v: Victim,
  idCandidates: number[],
  victimRows: Parameters<typeof checksum>[1],
  fingerprints: Set<string>,
  victimRid: (rid: unknown) => boolean,
  sessionCheck: () => Promise<string | null>,
  build: (def: MethodDef) => { list: Json[]; unmapped: string[] } = (def) => payloads(def, v, idCandidates),
): Promise<Walk> {
  const db = s.database.db;
  const out: Walk = { problems: [], reached: new Set(), notReached: [], calls: 0 };
  // the other side's rows as the last write left them: a read changes nothing, so one sum after each
  // write serves as the next write's before; the tables no statement touched keep their sums
  const writes = defs.some((d) => d.spec.writes);
  if (writes) await touchedTables(db);
  const last = writes ? await checksum(db, victimRows) : new Map<string, string>();
  for (const def of defs) {
    const { list, unmapped } = build(def);
    if (unmapped.length) {
      out.problems.push(`${def.name}: no victim id for field(s) ${unmapped.join(', ')}; add them to VICTIM_ID_FIELDS`);
      continue;
    }
    let refusal = '';
    for (const payload of list) {
      const parsed = def.schema.safeParse(payload);
      if (parsed.success) out.reached.add(def.name);
      else refusal ||= parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      const res = await s.call(def.name, payload, token, side);
      out.calls++;
      if (![RC.SUCCESS, RC.FAIL].includes(res.return_code as 'SUCCESS')) {
        out.problems.push(`${def.name} ${JSON.stringify(payload).slice(0, 120)}: answered ${res.return_code} ${res.return_msg}`);
      }
      if (/系统繁忙/.test(res.return_msg)) out.problems.push(`${def.name}: internal error for ${JSON.stringify(payload).slice(0, 160)}`);
      const answered = await followExport(def.name, res, token, side);
      const leaked =
        CONSTANT_ANSWERS.has(def.name) || GROUP_CROSSING.has(def.name) ? [] : (await strings(answered)).filter((t) => fingerprints.has(t));
      if (leaked.length)
        out.problems.push(
          `${def.name} ${JSON.stringify(payload).slice(0, 120)} answered the other side's data: ${[...new Set(leaked)].slice(0, 5).join(' | ')}`,
        );
      const rids = GROUP_CROSSING.has(def.name) ? [] : ridsIn(res.data).filter(victimRid);
      if (rids.length) out.problems.push(`${def.name} ${JSON.stringify(payload).slice(0, 120)} answered rows of rid ${rids[0]}`);
    }
    if (def.spec.writes) {
      const after = await checksum(db, victimRows, await touchedTables(db));
      // which tables: a problem names them (the detector's test reads the first words only)
      const moved = changedTables(last, after).filter((t) => !GROUP_CROSSING.get(def.name)?.includes(t));
      for (const [t, c] of after) last.set(t, c);
      if (moved.length) out.problems.push(`${def.name}: changed the other side's rows (${moved.join(', ')})`);
      const session = await sessionCheck();
      if (session) out.problems.push(`${def.name}: ${session}`);
    }
    if (!out.reached.has(def.name) && list.length) out.notReached.push(`${def.name} (${refusal})`);
  }
  return out;
}

beforeAll(async () => {
  s = await startTestServer();
  victim = await setUpVictim();
  victimRoleId = (
    await s.database.db.selectFrom('staff_roles').select('id').where('group_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  ).id;
  // an administrator of community 1 only (the demo admin may also switch to community 2)
  await s.addAccount('safety_op1', { roles: ['admin'], regions: [OPERATOR], name: '安全测试safety_op1' });
  operator = await s.login('safety_op1');
  // the head office of a second group
  const group = await s.database.db.insertInto('groups').values({ title: '另一物业集团' }).returning('id').executeTakeFirstOrThrow();
  await s.addAccount('safety_leader2', {
    roles: ['leader_admin'],
    sysType: 'leader',
    groupId: group.id,
    regions: [],
    name: '安全测试safety_leader2',
  });
  // with every leader permission: the WeChat settings' halves and the SMS quota open to it too
  await s.database.db
    .updateTable('accounts')
    .set({ permissions: ['is_wechatset_auth', 'is_microapp_auth', 'is_smsset_auth', 'is_diyhome_auth'] })
    .where('username', '=', 'safety_leader2')
    .execute();
  outsider = await s.login('safety_leader2');
  victimStrings = await onlyIn(s.database.db, communityRows);
  await trackTouchedTables(s.database.db);
}, 180_000);
afterAll(() => s?.close());

describe('the other community', () => {
  it('knows what to look for (the test can fail)', () => {
    expect(victimStrings.has(victim.member.mobile)).toBe(true);
    expect(victimStrings.has(victim.plate)).toBe(true);
    expect(victimStrings.has('翠湖苑')).toBe(true);
    expect(victim.anyIds.size).toBeGreaterThan(15);
  });

  it("sees community 2's data and changes when community 2's own administrator makes the same calls (the detector works)", async () => {
    const own = await s.login('admin2');
    const names = ['getkeywordtohouses', 'houseinfoplus', 'feebilllist', 'housecarlist', 'memberexport', 'buildingedit'];
    const defs = names.map((n) => s.app.registry.byName.get(n)!);
    const result = await walk(
      defs,
      own,
      'community',
      victim,
      [victim.room.bid],
      communityRows,
      victimStrings,
      (rid) => Number(rid) === VICTIM,
      async () => null,
    );
    for (const n of names.slice(0, -1))
      expect(
        result.problems.some((p) => p.startsWith(`${n} `) && /other side's data|rows of rid/.test(p)),
        n,
      ).toBe(true);
    expect(result.problems.some((p) => p.startsWith("buildingedit: changed the other side's rows"))).toBe(true);
    victimStrings = await onlyIn(s.database.db, communityRows);
  });

  it("an operator of community 1 given community 2's ids gets nothing of it and changes nothing there", async () => {
    const defs = s.app.registry.all().filter((d) => d.spec.side !== 'public' && d.spec.side !== 'group' && !SKIP.has(d.name));
    const idCandidates = [...new Set(victim.anyIds.values())];
    const opHash = hashToken(operator);
    const sessionCheck = async () => {
      const row = await s.database.db
        .selectFrom('sessions')
        .select(['rid', 'ended_at'])
        .where('token_hash', '=', opHash)
        .executeTakeFirst();
      return row?.rid === OPERATOR && !row.ended_at ? null : `the operator's session moved or ended: ${JSON.stringify(row)}`;
    };
    const result = await walk(
      defs,
      operator,
      'community',
      victim,
      idCandidates,
      communityRows,
      victimStrings,
      (rid) => Number(rid) === VICTIM,
      sessionCheck,
    );
    expect(result.problems).toEqual([]);
    // every method was really called with a payload that passes its schema
    expect(result.notReached).toEqual([]);
    expect(result.calls).toBeGreaterThan(defs.length);
  }, 600_000);

  it("an operator of community 1 mixing one of community 2's ids into its own valid write changes nothing there", async () => {
    const own = await ownThings();
    const defs = s.app.registry
      .all()
      .filter(
        (d) =>
          d.spec.side === 'community' &&
          d.spec.writes &&
          !SKIP.has(d.name) &&
          !('id' in ((z.toJSONSchema(d.schema, { io: 'input', unrepresentable: 'any' }) as Json).properties ?? {})),
      );
    const opHash = hashToken(operator);
    const result = await walk(
      defs,
      operator,
      'community',
      victim,
      [],
      communityRows,
      victimStrings,
      (rid) => Number(rid) === VICTIM,
      async () =>
        (await s.database.db.selectFrom('sessions').select('rid').where('token_hash', '=', opHash).executeTakeFirst())?.rid === OPERATOR
          ? null
          : 'session moved',
      (def) => mixedPayloads(def, own, victim),
    );
    expect(result.problems).toEqual([]);
    expect(result.notReached).toEqual([]);
    // the money paths are among them
    expect([...result.reached]).toEqual(
      expect.arrayContaining(['cashierpay', 'bindfeeadd', 'feebillcheck', 'memberadd', 'caradd', 'refundapply']),
    );
  }, 300_000);

  it("a head office of another group given the first group's community ids gets nothing and changes nothing", async () => {
    const db = s.database.db;
    const defs = s.app.registry.all().filter((d) => (d.spec.side === 'group' || d.spec.side === 'both') && !SKIP.has(d.name));
    const groupRows = (table: string, columns: Set<string>) => {
      if (table === 'groups') return sql`id = 1`;
      if (columns.has('group_id')) return sql`group_id = 1`;
      return columns.has('rid') ? sql`rid IN (SELECT id FROM regions WHERE group_id = 1)` : null;
    };
    const fingerprints = await onlyIn(db, groupRows);
    expect(fingerprints.has('翠湖苑')).toBe(true);
    const regionIds = (await db.selectFrom('regions').select('id').where('group_id', '=', 1).execute()).map((r) => r.id);
    const hash = hashToken(outsider);
    const result = await walk(
      defs,
      outsider,
      'group',
      victim,
      regionIds,
      groupRows,
      fingerprints,
      (rid) => regionIds.includes(Number(rid)),
      async () =>
        (await db.selectFrom('sessions').select('ended_at').where('token_hash', '=', hash).executeTakeFirst())?.ended_at
          ? 'session ended'
          : null,
    );
    expect(result.problems).toEqual([]);
    expect(result.notReached).toEqual([]);
    // the group's own write that does succeed for it (a new community) did not land in the first group
    expect(await db.selectFrom('regions').select('id').where('group_id', '=', 1).execute()).toHaveLength(regionIds.length);
  }, 300_000);
});
