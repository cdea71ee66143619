import { BILL_STATUS_CH, type BillStatus, type FeeBillRow, type Paging } from '@wuye/contract';
import type { z } from 'zod';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { feesMethods } from '@wuye/contract';
import type { DB } from '../../db/schema.js';
import { wireTime } from '../../lib/wire.js';
import { billLateFee } from './arrears.js';
import type { CountCache } from '../../lib/countCache.js';
import { givenKey, template, type Slots } from '../../db/compiled.js';
import { preparedLight } from '../../db/prepared.js';
import { likePattern, prefixPattern } from '../../lib/like.js';
import { countRows, keywordPage, pageClause, pageShapeKey, type KeywordPart } from '../../lib/paging.js';
import { nameContains, nameMatches, nameSearch, roomsAddressed } from '../owners/access.js';

export type BillFilters = Omit<z.output<(typeof feesMethods)['exportfees']>, 'sort'>;

/** Bills of the community joined to their room, unit, building, community and item. */
export function billBase(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_bills as b')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'b.rid').onRef('r.id', '=', 'b.hid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'b.rid').onRef('u.id', '=', 'b.tid'))
    .innerJoin('buildings as bd', (j) => j.onRef('bd.rid', '=', 'b.rid').onRef('bd.id', '=', 'b.bid'))
    .innerJoin('regions as rg', 'rg.id', 'b.rid')
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .where('b.rid', '=', rid);
}

/** The bill's own columns and its item's late-fee rule, as both bill queries below select them. */
const BILL_COLUMNS = [
  'b.id',
  'b.rid',
  'b.bid',
  'b.tid',
  'b.hid',
  'b.item_id',
  'b.cost_type',
  'b.title',
  'b.period',
  'b.daterange',
  'b.measure',
  'b.unit_price',
  'b.fee',
  'b.status',
  'b.is_check',
  'b.due_date',
  'b.late_fee',
  'b.paid_at',
  'b.payment_id',
  'b.batch_id',
  'b.space_id',
  'b.car_id',
  'b.create_time',
] as const;
/**
 * A bill's late fee: as charged for a paid one, as of today for an unpaid one (fee_late_fee, the one
 * computation the cashier and the drawer read too: fees/arrears.ts). The database's session runs in
 * the business time zone, so its current_date is the business day.
 */
const LATE_FEE_NOW = sql<string>`CASE WHEN b.status = 'Y' THEN b.late_fee::numeric(14,2)::text ELSE ${billLateFee(sql`current_date`)} END`;

export function selectBillRow(qb: ReturnType<typeof billBase>) {
  return qb.select([
    ...BILL_COLUMNS,
    'rg.title as region_title',
    'bd.title as building_title',
    'u.title as unit_title',
    'r.title as house_title',
    LATE_FEE_NOW.as('late_fee_now'),
  ]);
}

/**
 * The bill's own filters (all but the keyword) as the values a statement binds: the title as the
 * titles it names (billLookups), and nothing for a filter left empty, so what is given is the
 * statement's shape.
 */
interface BillValues {
  rid: number;
  bid?: number;
  tid?: number;
  hid?: number;
  cost_types?: string[];
  titles?: string[];
  status?: 'E' | 'Y' | 'N';
  min_fee?: string;
  max_fee?: string;
  is_check?: 'Y' | 'N';
  itemid?: number;
  period?: string;
  batch_id?: number;
  /** The keyword's parts (keywordArms): its matched rooms and bill titles (billLookups), itself as a period, and as a parking label. */
  kw_hids?: string[];
  kw_titles?: string[];
  kw_period?: string;
  kw_label_key?: string;
  /** A keyword longer than a name key: its label is also matched whole. */
  kw_label_like?: string;
}

function billValues(rid: number, f: BillFilters, lookups: BillLookups): BillValues {
  if (f.title && !lookups.titles) throw new Error('a title needs its titles (billLookups)');
  if (f.keyword && !lookups.keyword) throw new Error('a keyword needs its matches (billLookups)');
  const keyword = f.keyword && lookups.keyword ? keywordValues(rid, f.keyword, lookups.keyword) : {};
  return {
    rid,
    bid: f.bid || undefined,
    tid: f.tid || undefined,
    hid: f.hid || undefined,
    cost_types: f.cost_types.length ? f.cost_types : undefined,
    titles: f.title ? lookups.titles : undefined,
    status: f.status || undefined,
    min_fee: f.min_fee,
    max_fee: f.max_fee,
    is_check: f.is_check || undefined,
    itemid: f.itemid || undefined,
    period: f.period || undefined,
    batch_id: f.batch_id || undefined,
    ...keyword,
  };
}

/** The keyword's parts as BillValues: its matches, itself as a period, and as a parking label (nameSearch). */
function keywordValues(rid: number, keyword: string, matches: KeywordMatches) {
  const label = nameSearch(rid, keyword);
  return { kw_hids: matches.hids, kw_titles: matches.titles, kw_period: keyword, kw_label_key: label.key, kw_label_like: label.like };
}

/** An unpaid status is also written as a literal (ownFilters), so it is part of a statement's shape. */
const unpaid = (v: BillValues) => v.status === 'E' || v.status === 'N';

/**
 * One page of the bill list: the page is picked from fee_bills alone and only its rows get their
 * titles, each looked up by its key. Planning billBase's six-table join took ~3 ms on every call,
 * ten times more than running it; this plans in ~0.2 ms (docs/perf/history.md#round-2). Built and compiled
 * once per set of given filters and page (db/compiled.ts): building it on every call cost the
 * server a tenth of the call (docs/adr/0002-compiled-templates.md).
 */
const billPage = template(
  (_db, p: Slots<BillValues>, shape: { values: BillValues; paging: Paging }) => {
    const { values: v, paging } = shape;
    const value = (k: keyof BillValues) => p[k];
    const own = ownFilters(v, value);
    const dir = sql.raw(paging.sort === 'desc' ? 'DESC' : 'ASC');
    // filtered by equality alone, the page reads the same indexes whatever the values, so it is
    // prepared, and pipelined as a light statement (db/prepared.ts); titles or a keyword (how many is not known to a generic plan) or
    // an amount range keep being planned per call
    const prepare = v.titles === undefined && v.min_fee === undefined && v.max_fee === undefined && v.kw_period === undefined;
    const where = (conditions: Array<RawBuilder<SqlBool>>) =>
      sql`b.rid = ${p.rid}${conditions.length ? sql` AND ${sql.join(conditions, sql` AND `)}` : sql``}`;
    const arms = keywordArms(v, value);
    const picked = arms
      ? sql`b.rid = ${p.rid} AND ${keywordPage({ table: 'fee_bills', alias: 'b', rid: p.rid, filters: own }, keywordParts(arms), paging)}`
      : sql`${where(own)} ORDER BY b.id ${dir} ${pageClause(paging)}`;
    return sql<Raw>`${prepare ? preparedLight : sql``}
    SELECT ${sql.raw(BILL_COLUMNS.join(', '))},
      (SELECT title FROM regions WHERE id = b.rid) AS region_title,
      (SELECT title FROM buildings WHERE rid = b.rid AND id = b.bid) AS building_title,
      (SELECT title FROM units WHERE rid = b.rid AND id = b.tid) AS unit_title,
      (SELECT title FROM rooms WHERE rid = b.rid AND id = b.hid) AS house_title,
      ${LATE_FEE_NOW} AS late_fee_now
    FROM (SELECT * FROM fee_bills b WHERE ${picked}) b
    JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
    ORDER BY b.id ${dir}`;
  },
  ({ values, paging }) => `${givenKey(values)}${unpaid(values) ? 'unpaid ' : ''}${pageShapeKey(paging)}`,
);

/** The rows of one page of the bill list (billPage). */
export function billPageRows(db: Kysely<DB>, rid: number, f: BillFilters, paging: Paging, lookups: BillLookups): Promise<Raw[]> {
  const values = billValues(rid, f, lookups);
  return billPage.rows(db, { values, paging }, values);
}

/**
 * The conditions of the bill's own filters that `v` gives, each comparing a column with what
 * `value` answers for the filter: the value itself, or a statement template's slot for it.
 */
function ownFilters(v: BillValues, value: (k: keyof BillValues) => unknown = (k) => v[k]): Array<RawBuilder<SqlBool>> {
  const c: Array<RawBuilder<SqlBool>> = [];
  const is = (column: string, op: string, k: keyof BillValues) => {
    if (v[k] !== undefined) c.push(sql<SqlBool>`${sql.ref(column)} ${sql.raw(op)} ${value(k)}`);
  };
  is('b.bid', '=', 'bid');
  is('b.tid', '=', 'tid');
  is('b.hid', '=', 'hid');
  if (v.cost_types) c.push(sql<SqlBool>`b.cost_type = ANY(${value('cost_types')})`);
  if (v.titles) c.push(sql<SqlBool>`b.title = ANY(${value('titles')})`);
  is('b.status', '=', 'status');
  // an unpaid status also says "unpaid" as a literal, so a prepared statement's generic plan,
  // which cannot tell $n <> 'Y', may use the unpaid bills' partial index (007)
  if (unpaid(v)) c.push(sql<SqlBool>`b.status <> 'Y'`);
  is('b.fee', '>=', 'min_fee');
  is('b.fee', '<=', 'max_fee');
  is('b.is_check', '=', 'is_check');
  is('b.item_id', '=', 'itemid');
  is('b.period', '=', 'period');
  is('b.batch_id', '=', 'batch_id');
  return c;
}

/**
 * What a keyword matches, part by part, each an index look-up: a bill of a matched room
 * (fee_bills_bill_key), one of the matched titles (fee_bills_title), of the period the keyword
 * names (fee_bills_period_order), or a parking bill whose label (its space or plate, kept as its
 * measure) contains the keyword (fee_bills_parking_label, 020). A room's own bill measures a quantity.
 */
interface KeywordArms {
  rooms: RawBuilder<SqlBool>;
  titles: RawBuilder<SqlBool>;
  period: RawBuilder<SqlBool>;
  label: RawBuilder<SqlBool>;
}

function keywordArms(v: BillValues, value: (k: keyof BillValues) => unknown = (k) => v[k]): KeywordArms | undefined {
  if (v.kw_period === undefined) return undefined;
  const label = nameMatches(
    sql`b.rid`,
    sql`b.measure`,
    value('kw_label_key'),
    v.kw_label_like === undefined ? undefined : value('kw_label_like'),
  );
  return {
    rooms: sql<SqlBool>`b.hid = ANY(${value('kw_hids')}::bigint[])`,
    titles: sql<SqlBool>`b.title = ANY(${value('kw_titles')}::text[])`,
    period: sql<SqlBool>`b.period = ${value('kw_period')}`,
    label: sql<SqlBool>`(b.space_id <> 0 OR b.car_id <> 0) AND ${label}`,
  };
}

/**
 * The keyword's parts as keywordPage picks a page from them: the parking label's part is fenced,
 * so that it is looked up in its GIN index, never by walking the parking bills and computing each
 * one's keys.
 */
const keywordParts = (arms: KeywordArms): KeywordPart[] => [
  { match: arms.rooms },
  { match: arms.titles },
  { match: arms.period },
  { match: arms.label, fenced: true },
];

/** All of the bill's filters, the keyword's parts as one OR (a count or an export reads every match). */
function allFilters(v: BillValues): Array<RawBuilder<SqlBool>> {
  const arms = keywordArms(v);
  const keyword = arms ? [sql<SqlBool>`(${arms.rooms} OR ${arms.titles} OR ${arms.period} OR (${arms.label}))`] : [];
  return [...ownFilters(v), ...keyword];
}

/**
 * The query counting the bills the filters select. Every bill has its room, unit, building,
 * community and item, and a keyword's matches are looked up first (billLookups), so the count
 * reads fee_bills alone: counting a community's 155,000 overdue bills through the five joins took
 * 200-350 ms, from the (rid, status) index alone 15-25 ms (docs/perf/history.md#round-1).
 */
export function billCount(db: Kysely<DB>, rid: number, f: BillFilters, lookups: BillLookups) {
  if (f.rid !== undefined && f.rid !== rid) return null;
  const own = allFilters(billValues(rid, f, lookups));
  return db
    .selectFrom('fee_bills as b')
    .where('b.rid', '=', rid)
    .$if(own.length > 0, (qb) => qb.where((eb) => eb.and(own)));
}

/**
 * The filtered total for the bill list. Counted from fee_bills alone it is remembered until bills
 * change (lib/countCache.ts): paging through a community's overdue bills counted 155,000 index
 * entries on every page. A keyword count also reads rooms and members, whose changes are not
 * heard, so it is counted each time. Nothing is built unless the total is asked for (a page with
 * fewer rows than asked tells it), and a remembered total is found by the filters themselves.
 */
export function billTotal(db: Kysely<DB>, rid: number, f: BillFilters, counts: CountCache, lookups: BillLookups): () => Promise<number> {
  const count = async () => {
    const query = billCount(db, rid, f, lookups);
    return query ? countRows(query) : 0;
  };
  return f.keyword ? count : () => counts.total(billFilterKey(rid, f), count);
}

/**
 * A remembered total's key: the community and every field of the payload but paging and sort, so
 * a filter added later can only split the totals further, never share one wrongly.
 */
export function billFilterKey(rid: number, f: BillFilters & Partial<Paging>): string {
  const { page: _page, limit: _limit, sort: _sort, ...filters } = f;
  return `bills ${rid} ${JSON.stringify(filters)}`;
}

/**
 * What a keyword matches besides a bill's own period and parking label: the rooms whose number or
 * address (building, unit and room titles; a bill's building and unit are its room's, see
 * 015_room_move.sql) contains it, the rooms of the people whose name contains it or whose mobile
 * starts with it, and the bill titles that contain it (the community's few distinct titles, read
 * by skipping through index fee_bills_title).
 */
export interface KeywordMatches {
  hids: string[];
  titles: string[];
}

async function keywordMatches(db: Kysely<DB>, rid: number, keyword: string): Promise<KeywordMatches> {
  const res = await sql<KeywordMatches>`SELECT
    (SELECT coalesce(array_agg(h.id), '{}') FROM (
      ${roomsAddressed(rid, keyword)}
      UNION
      SELECT rm.hid FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (${nameContains(sql`m.rid`, sql`m.realname`, rid, keyword)} OR m.mobile LIKE ${prefixPattern(keyword)})) h) AS hids,
    ${titlesContaining(rid, keyword)} AS titles`.execute(db);
  return res.rows[0]!;
}

/**
 * The community's bill titles that contain `text`, as a scalar sub-select: its few distinct titles
 * are read by skipping through index fee_bills_title (016) rather than by reading its bills.
 */
function titlesContaining(rid: number, text: string) {
  return sql<string[]>`(WITH RECURSIVE t(title) AS (
      SELECT min(title) FROM fee_bills WHERE rid = ${rid}
      UNION ALL SELECT (SELECT min(title) FROM fee_bills WHERE rid = ${rid} AND title > t.title) FROM t WHERE t.title IS NOT NULL)
    SELECT coalesce(array_agg(title), '{}') FROM t WHERE title ILIKE ${likePattern(text)})`;
}

/**
 * What the filters' text names, looked up before the bills are read, so that each condition on
 * the bills is an index look-up: the titles the title filter is part of (a title matching none
 * read a community's 1,000,000 bills to find no page, 335 ms at scale), and the keyword's matches.
 */
export interface BillLookups {
  titles?: string[];
  keyword?: KeywordMatches;
}

export async function billLookups(db: Kysely<DB>, rid: number, f: Pick<BillFilters, 'title' | 'keyword'>): Promise<BillLookups> {
  const [titles, keyword] = await Promise.all([
    f.title
      ? sql<{ titles: string[] }>`SELECT ${titlesContaining(rid, f.title)} AS titles`.execute(db).then((r) => r.rows[0]!.titles)
      : undefined,
    f.keyword ? keywordMatches(db, rid, f.keyword) : undefined,
  ]);
  return { ...(titles && { titles }), ...(keyword && { keyword }) };
}

/**
 * Applies the bill-list filters (docs/product.md#calls); answers null when the filters name another community.
 * A title or keyword needs its `lookups` (billLookups): each of a keyword's conditions is then an
 * index look-up (the room, the title, the period, the parking bills' labels), where matching the
 * joined text of every bill read a community's 1,000,000 bills for each call (0.9 s at 50,000 rooms).
 */
export function applyBillFilters(
  qb: ReturnType<typeof billBase>,
  f: BillFilters,
  rid: number,
  lookups: BillLookups,
): ReturnType<typeof billBase> | null {
  if (f.rid !== undefined && f.rid !== rid) return null;
  for (const c of allFilters(billValues(rid, f, lookups))) qb = qb.where(c);
  return qb;
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectBillRow>['executeTakeFirstOrThrow']>>;

/** The wire row; unpaid bills carry the late fee as of today. */
export function toBillRow(b: Raw): FeeBillRow {
  return {
    id: b.id,
    rid: b.rid,
    bid: b.bid,
    tid: b.tid,
    hid: b.hid,
    item_id: b.item_id,
    cost_type: b.cost_type,
    title: b.title,
    region_title: b.region_title,
    building_title: b.building_title,
    unit_title: b.unit_title,
    house_title: b.house_title,
    period: b.period,
    daterange: b.daterange,
    measure: b.measure,
    unit_price: b.unit_price,
    status: b.status as BillStatus,
    status_ch: BILL_STATUS_CH[b.status as BillStatus],
    fee: b.fee,
    late_fee: b.late_fee_now,
    is_check: b.is_check,
    due_date: b.due_date,
    paid_at: wireTime(b.paid_at),
    payment_id: b.payment_id ?? 0,
    batch_id: b.batch_id ?? 0,
    space_id: b.space_id,
    car_id: b.car_id,
    create_time: wireTime(b.create_time),
  };
}
