import { LIMITS, RELATION_CH, type HouseSearchItem, type OwnerInfo } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { template, type Slots } from '../../db/compiled.js';
import { prepared, preparedLight } from '../../db/prepared.js';
import { fail } from '../../http/errors.js';
import { defineMethod, JsonText, type CommunityCtx } from '../../http/registry.js';
import { today, wireTime } from '../../lib/wire.js';
import { arrearsJson, roomArrearsJoin, toArrears } from '../fees/arrears.js';
import { hasNamePart, inRoomBuildingAndUnit, inSessionCommunity, namePartKey, OWNER_LOOKUP, roomsAddressed } from './access.js';

/**
 * The dialog shows at most RESULT_MAX houses: the first as many rooms lived in (or owned) now by
 * people the keyword matches, in the keyword index's order, then sorted for the dialog. A broad
 * keyword (a four-digit prefix matches ~1,000 people at 50,000 rooms) costs no more than a
 * precise one, and the dialog asks for a longer keyword when the list is full.
 */
const RESULT_MAX = LIMITS.ownerSearchResults;
const HOUSE_NOT_FOUND = '房屋不存在或不属于当前小区';

/** How a keyword goes into the statement: as a parameter, or hidden from the planner (`unseenByPlanner`). */
type KeywordValue = (text: string) => RawBuilder<string>;
const asParameter: KeywordValue = (text) => sql<string>`${text}`;

/** A keyword as the statements take it: a mobile number's prefix, or a part of a name. */
type KeywordTerms = { kind: 'mobile'; from: string; to: string } | { kind: 'name'; key: string };

/**
 * A mobile prefix is the index range [digits, digits with its last digit counted up) rather than
 * LIKE 'digits%': a prepared statement's generic plan (db/prepared.ts) cannot bound an index scan
 * by a LIKE parameter, and read a whole community's people for a full mobile number (15 ms
 * instead of 1). A name part is its key in member_name_keys (hasNamePart).
 */
function keywordTerms(rid: number, keyword: string): KeywordTerms {
  const k = keyword.trim();
  if (!/^\d+$/.test(k)) return { kind: 'name', key: namePartKey(rid, k) };
  return { kind: 'mobile', from: k, to: k.slice(0, -1) + String.fromCharCode(k.charCodeAt(k.length - 1) + 1) };
}

/**
 * The condition on `m` (members) for terms of this kind: `~>=~` and `~<~` compare as the mobile
 * index's text_pattern_ops does. `terms` may be a statement template's slots (db/compiled.ts).
 */
function termsCondition(kind: KeywordTerms['kind'], terms: { from: string; to: string; key: string }, value: KeywordValue) {
  if (kind === 'mobile') return sql<boolean>`(m.mobile ~>=~ ${value(terms.from)} AND m.mobile ~<~ ${value(terms.to)})`;
  return hasNamePart(sql`m.rid`, sql`m.realname`, value(terms.key));
}

/** The filled-in terms, with the values the other kind does not use left empty. */
const termValues = (t: KeywordTerms) => ({ from: '', to: '', key: '', ...t });

/**
 * Who matches the keyword: a mobile prefix (btree on (rid, mobile text_pattern_ops)) or any part
 * of a name (GIN on member_name_keys(rid, realname), see 004_owners.sql).
 */
export function keywordCondition(rid: number, keyword: string, value: KeywordValue = asParameter) {
  const terms = keywordTerms(rid, keyword);
  return termsCondition(terms.kind, termValues(terms), value);
}

/**
 * The ids of the community's rooms a household search box finds: the address contains the
 * keyword (roomsAddressed), or someone living there now has it in their name or their mobile
 * number starts with it (keywordCondition), each found through its own index. Lists of
 * households (a notice's read receipts, a steward's houses) filter by it: the same words find
 * the same households there as in the owner search (bench/README.md#steward-desk).
 */
export function householdsMatching(rid: number, keyword: string) {
  return sql<{ id: string }>`SELECT a.id FROM (${roomsAddressed(rid, keyword)}) a
    UNION
    SELECT rm.hid FROM members m JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y'
    WHERE m.rid = ${rid} AND ${keywordCondition(rid, keyword)}`;
}

/**
 * The households a keyword finds (householdsMatching), read first: a list then takes them as an
 * array of ids whose size the planner sees, and reads its rows by key. Left inside the list's
 * statement, the search's estimate (thousands for a few hundred found) made it read every room of
 * the community to join them (bench/README.md#steward-desk).
 */
export async function householdIdsMatching(db: Kysely<DB>, rid: number, keyword: string): Promise<string[]> {
  const { rows } = await householdsMatching(rid, keyword).execute(db);
  return rows.map((r) => String(r.id));
}

/** `m.mobile` starts with the digits (see keywordTerms). */
export function mobileStartsWith(digits: string, value: KeywordValue = asParameter) {
  return termsCondition('mobile', termValues(keywordTerms(0, digits)), value);
}

/**
 * The owner search's keyword, hidden from the planner (a sub-select run once before the
 * statement): its plans for every keyword then cost the same, so PostgreSQL settles on the
 * generic plan after five searches instead of planning every search again (db/prepared.ts).
 * The search finds its people through the keyword's index whatever the planner guesses, and that
 * plan measured 0.3-1.5 ms for every kind of keyword at 100,000 rooms where planning each search
 * cost 1-3 ms (docs/adr/0001-prepared-statements.md); a visible keyword made the choice depend on the first five
 * keywords a connection met. Lists that sort and page their matches (memberlist) keep the
 * keyword visible: blind, the planner walked every member in id order (800 ms).
 */
const unseenByPlanner: KeywordValue = (text) => sql<string>`(SELECT ${text}::text)`;

/** The relation's label (contract RELATION_CH) of the row's `relation`. */
const relationLabel = sql`CASE relation ${sql.join(
  Object.entries(RELATION_CH).map(([code, label]) => sql`WHEN ${code} THEN ${label}`),
  sql` `,
)} END`;

/**
 * What a keyword is to the owner search: a part of a name (no digits); digits, which are a mobile
 * number's head and a room number ('1101'), and when there are four of them also a mobile number's
 * last four ('8000'), as a counter asks "尾号 8000"; or an address written out ('1号楼1单元1101',
 * 'A座101'), digits among other characters (issue 34).
 */
type SearchKind = 'name' | 'digits' | 'tail' | 'address';

export function searchKind(keyword: string): SearchKind {
  const k = keyword.trim();
  if (!/\d/.test(k)) return 'name';
  if (!/^\d+$/.test(k)) return 'address';
  return k.length === TAIL_DIGITS ? 'tail' : 'digits';
}

/** How many of a mobile number's last digits the search takes alone (index members_mobile_tail). */
const TAIL_DIGITS = 4;

/** The values of the search's statement; those its kind does not use are left empty. */
interface SearchValues {
  rid: number;
  day: string;
  from: string;
  to: string;
  key: string;
  digits: string;
}

function searchValues(rid: number, keyword: string): SearchValues {
  const k = keyword.trim();
  const { from, to, key } = termValues(keywordTerms(rid, k));
  return { rid, day: today(), from, to, key, digits: /^\d+$/.test(k) ? k : '' };
}

/** The people (their current room links `rm`) whose member row `m` meets `condition`, at most RESULT_MAX. */
const peopleWhere = (rid: unknown, condition: RawBuilder<unknown>) => sql`(SELECT rm.id, rm.hid, rm.relation, m.mobile, m.realname
    FROM members m JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y'
    WHERE m.rid = ${rid} AND ${condition} LIMIT ${sql.lit(RESULT_MAX)})`;

/** The people living in (or owning) the rooms `r` that meet `condition`, the first RESULT_MAX in address order (index rooms_title). */
const roomsWhere = (rid: unknown, condition: RawBuilder<unknown>) => sql`(SELECT rm.id, rm.hid, rm.relation, m.mobile, m.realname
    FROM rooms r JOIN room_members rm ON rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y'
    JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE r.rid = ${rid} AND ${condition} ORDER BY r.building_sort, r.bid, r.unit_sort, r.tid LIMIT ${sql.lit(RESULT_MAX)})`;

/**
 * Who a keyword of this kind finds, arm by arm, each through its own index: a mobile number's head
 * (members_mobile, as a range, keywordTerms), its last four digits (members_mobile_tail), a name
 * part (members_name_keys), a room number (rooms_title) or an address (roomsAddressed). The arms
 * are read in turn until RESULT_MAX links are found, so a broad keyword costs no more than a precise one.
 */
function searchArms(kind: Exclude<SearchKind, 'address'>, p: Slots<SearchValues>): RawBuilder<unknown>[] {
  if (kind === 'name') return [peopleWhere(p.rid, termsCondition('name', p, unseenByPlanner))];
  const arms = [peopleWhere(p.rid, termsCondition('mobile', p, unseenByPlanner))];
  if (kind === 'tail') arms.push(peopleWhere(p.rid, sql`right(m.mobile, ${sql.lit(TAIL_DIGITS)}) = ${unseenByPlanner(p.digits)}`));
  arms.push(roomsWhere(p.rid, sql`r.title = ${unseenByPlanner(p.digits)}`));
  return arms;
}

/**
 * The owner search's statement. One statement, one round trip, and the answer's JSON written by
 * the database (JsonText): decoding, building and serialising 50 rows cost the server half its
 * time per search. The matches are a materialized step so the planner can never re-run a match
 * per joined row; a person an arm finds twice (by the head and the tail of one number, or by name
 * and room) is answered once. The houses are aggregated as rows in the dialog's order (`json_agg`
 * of an ordered sub-select keeps it): a JSON object built field by field per house, then ordered by
 * a window's row number, cost the database a sixth more per search (docs/perf/history.md#round-11).
 * Each house's address and its building's and unit's sort are the room's own, kept by the database
 * (docs/adr/0005-kept-addresses.md); what it owes is room_arrears, as everywhere (fees/arrears.ts).
 */
function housesStatement(arms: RawBuilder<unknown>[], rid: unknown, day: unknown) {
  return sql<{ json: string }>`
  WITH found AS MATERIALIZED (SELECT * FROM (${sql.join(arms, sql` UNION ALL `)}) arms LIMIT ${sql.lit(RESULT_MAX)})
  SELECT '{"items":' || coalesce(json_agg(h), '[]') || '}' AS json FROM (
    SELECT f.id, r.rid, r.bid, r.tid, f.hid, f.mobile, r.address, f.realname, f.relation, ${relationLabel} AS relation_ch,
      ${arrearsJson('a')} AS arrears
    FROM (SELECT DISTINCT ON (id) * FROM found) f JOIN rooms r ON r.rid = ${rid} AND r.id = f.hid
    ${roomArrearsJoin(rid, sql`f.hid`, day, 'a')}
    ORDER BY f.relation <> 'owner', f.realname, r.building_sort, r.bid, r.unit_sort, r.tid, r.floor, r.title) h`;
}

/** The search by a name, a mobile number's head or tail, or a room number: compiled once per kind and prepared (db/compiled.ts). */
const housesFound = template(
  (_db, p: Slots<SearchValues>, kind: Exclude<SearchKind, 'address'>) =>
    sql<{ json: string }>`${prepared} ${housesStatement(searchArms(kind, p), p.rid, p.day)}`,
);

/**
 * An address written out: its rooms are looked up first, as the receipt and bill lists look one up
 * (roomsAddressed, a few ms), then their people by id. As one statement the planner, guessing
 * thousands of rooms where there are a few dozen, hashed the community's 50,000 rooms (90 ms).
 */
async function addressSearch(ctx: CommunityCtx, text: string, day: string) {
  const found = await sql<{
    hids: string[];
  }>`SELECT coalesce(array_agg(a.id), '{}') AS hids FROM (${roomsAddressed(ctx.rid, text)}) a`.execute(ctx.db);
  const arm = roomsWhere(ctx.rid, sql`r.id = ANY(${found.rows[0]!.hids}::bigint[])`);
  return (await housesStatement([arm], ctx.rid, day).execute(ctx.db)).rows;
}

const getkeywordtohouses = defineMethod('getkeywordtohouses', {
  side: 'community',
  roles: OWNER_LOOKUP,
  writes: false,
  summary:
    '全局业主搜索（≤11 字）：姓名任意部分、手机号前缀、手机尾号（4 位）、房号或地址，本小区内在住的房屋：id、rid、bid、tid、hid、mobile、address、realname 及欠费',
  async handler(ctx, input) {
    const kind = searchKind(input.keywords);
    const values = searchValues(ctx.rid, input.keywords);
    const [row] =
      kind === 'address' ? await addressSearch(ctx, input.keywords.trim(), values.day) : await housesFound.rows(ctx.db, kind, values);
    return new JsonText<{ items: HouseSearchItem[] }>(row!.json);
  },
});

interface DrawerHeadRow {
  hid: number;
  bid: number;
  tid: number;
  address: string;
  member_id: number | null;
  realname: string | null;
  mobile: string | null;
  avatar: string | null;
  balance: string | null;
  bonus: number | null;
  wx_isbind: 'Y' | 'N' | null;
  app_isbind: 'Y' | 'N' | null;
  create_time: Date | null;
  member_num: number;
  bill_count: number;
  fee: string;
  late_fee: string;
  houses: OwnerInfo['houses'] | null;
}

/**
 * One statement, one round trip: the room, its owner (a room without one shows its first tenant
 * or family member), the people living there, its arrears (room_arrears: pending E and overdue N
 * bills with their late fees today, as the cashier shows them; fees/arrears.ts) and the owner's rooms. Compiled once
 * (db/compiled.ts): the drawer's header loads with every drawer and every change of room.
 */
const drawerHead = template(
  (_db, p: Slots<{ rid: number; hid: number; day: string }>) => sql<DrawerHeadRow>`${preparedLight}
  SELECT r.id AS hid, r.bid, r.tid, r.address,
    o.id AS member_id, o.realname, o.mobile, o.avatar, o.balance, o.bonus, o.wx_isbind, o.app_isbind, o.create_time,
    (SELECT count(*)::int FROM room_members WHERE rid = r.rid AND hid = r.id AND status = 'Y') AS member_num,
    a.bill_count, a.fee::numeric(14,2)::text AS fee, a.late_fee::numeric(14,2)::text AS late_fee,
    (SELECT json_agg(json_build_object('id', h.id, 'rid', h.rid, 'bid', h.bid, 'tid', h.tid, 'address', h.address) ORDER BY hm.id)
      FROM room_members hm JOIN rooms h ON h.rid = hm.rid AND h.id = hm.hid
      WHERE hm.rid = r.rid AND hm.member_id = o.id AND hm.status = 'Y') AS houses
  FROM rooms r
  LEFT JOIN LATERAL (
    SELECT m.id, m.realname, m.mobile, m.avatar, m.balance, m.bonus, m.wx_isbind, m.app_isbind, m.create_time
    FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y'
    ORDER BY rm.relation <> 'owner', rm.id LIMIT 1) o ON true
  ${roomArrearsJoin(sql`r.rid`, sql`r.id`, p.day, 'a')}
  WHERE r.rid = ${p.rid} AND r.id = ${p.hid}`,
);

const houseinfoplus = defineMethod('houseinfoplus', {
  side: 'community',
  roles: OWNER_LOOKUP,
  writes: false,
  summary:
    '业主抽屉头部：房屋业主的头像、姓名、欠费（含滞纳金，与收银台一致）、手机、余额、人数、积分、登记时间、微信/APP 绑定，及其名下房屋',
  async handler(ctx, input) {
    if (!inSessionCommunity(ctx, input)) fail(HOUSE_NOT_FOUND);
    const [row] = await drawerHead.rows(ctx.db, null, { rid: ctx.rid, hid: input.hid, day: today() });
    if (!row || !inRoomBuildingAndUnit(input, row)) fail(HOUSE_NOT_FOUND);
    const houses = row.houses ?? [];
    if (!houses.some((h) => h.id === row.hid))
      houses.unshift({ id: row.hid, rid: ctx.rid, bid: row.bid, tid: row.tid, address: row.address });
    const arrears = toArrears(row);
    const items: OwnerInfo = {
      member_id: row.member_id,
      owner_headurl: row.avatar ?? '',
      owner_name: row.realname ?? '',
      gel_fee: arrears.total,
      arrears,
      mobile: row.mobile ?? '',
      owner_balance: row.balance ?? '0.00',
      wx_isbind: row.wx_isbind ?? 'N',
      app_isbind: row.app_isbind ?? 'N',
      member_num: row.member_num,
      owner_bonus: row.bonus ?? 0,
      create_time: wireTime(row.create_time),
      rid: ctx.rid,
      bid: row.bid,
      tid: row.tid,
      hid: row.hid,
      address: row.address,
      houses,
    };
    return { items };
  },
});

export const searchMethods = [getkeywordtohouses, houseinfoplus];
