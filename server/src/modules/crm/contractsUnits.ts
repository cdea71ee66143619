/**
 * The units contracts sell and let (docs/product.md#crm-contracts): each unit's state kept from the
 * contract that holds it (`contract_unit_states`, written only by syncUnitStates), the units for
 * sale or rent with their state and list price (rentroom), the list prices, and the sales table of
 * a building (/salestable): every room by floor and unit, coloured by its state, with its price.
 */
import {
  CONTRACT_READERS,
  CRM_ROLES,
  UNIT_KIND,
  UNIT_STATE,
  enumKeys,
  enumText,
  fenToYuan,
  mulDivRoundHalfUp,
  toFen,
  type SalesTableCell,
  type UnitKind,
  type UnitState,
  type UnitStateRow,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { countRows, pageWithTotal } from '../../lib/paging.js';
import { placeOrder } from '../../lib/placeOrder.js';
import { today } from '../../lib/wire.js';

/**
 * The state a live contract gives its units: 草稿 reserves, 审批中 subscribes, 生效 (and 到期 for a
 * sale, which does not end) signs or lets. An expired lease frees its units.
 */
const STATE_OF = sql<string>`CASE WHEN c.status = 'D' THEN 'reserved' WHEN c.status = 'A' THEN 'subscribed'
  WHEN c.kind = 'lease' THEN 'rented' ELSE 'signed' END`;
const LIVE = sql<SqlBool>`(c.status IN ('D', 'A', 'Y') OR (c.status = 'E' AND c.kind <> 'lease'))`;
/** the strongest claim first: in effect, then in approval, then a draft; the newest among equals */
const CLAIM_ORDER = sql`CASE c.status WHEN 'Y' THEN 0 WHEN 'E' THEN 1 WHEN 'A' THEN 2 ELSE 3 END, c.id DESC`;

/**
 * Recomputes the state of every unit these contracts name or held (a unit taken off an edited
 * draft is freed): the strongest live contract on it decides, none leaves it 可售. Called in the
 * transaction of every change of a contract's units or status.
 */
export async function syncUnitStates(db: Kysely<DB>, rid: number, contractIds: readonly number[]): Promise<void> {
  if (contractIds.length === 0) return;
  const ids = sql`${[...contractIds]}::bigint[]`;
  await sql`
    WITH keys AS (
      SELECT unit_kind, coalesce(hid, space_id) AS unit_id FROM contract_units WHERE rid = ${rid} AND contract_id = ANY(${ids})
      UNION SELECT unit_kind, unit_id FROM contract_unit_states WHERE rid = ${rid} AND contract_id = ANY(${ids})
    ), gone AS (
      DELETE FROM contract_unit_states s USING keys k
      WHERE s.rid = ${rid} AND s.unit_kind = k.unit_kind AND s.unit_id = k.unit_id
    )
    INSERT INTO contract_unit_states (rid, unit_kind, unit_id, state, contract_id, price)
    SELECT DISTINCT ON (u.unit_kind, coalesce(u.hid, u.space_id)) ${rid}, u.unit_kind, coalesce(u.hid, u.space_id), ${STATE_OF}, c.id, u.price
    FROM keys k
    JOIN contract_units u ON u.rid = ${rid} AND u.unit_kind = k.unit_kind AND coalesce(u.hid, u.space_id) = k.unit_id
    JOIN contracts c ON c.rid = u.rid AND c.id = u.contract_id
    WHERE ${LIVE}
    ORDER BY u.unit_kind, coalesce(u.hid, u.space_id), ${CLAIM_ORDER}
    ON CONFLICT (rid, unit_kind, unit_id) DO UPDATE SET state = excluded.state, contract_id = excluded.contract_id, price = excluded.price`.execute(
    db,
  );
}

/**
 * A contract holding one of these units against `contractId` (a live contract of the same side:
 * sale and parking on one side, lease on the other; a renewal's parent aside): its number and state
 * text, or null. A sale's units are held for good; a lease's only over overlapping dates.
 */
export async function unitTaken(
  db: Kysely<DB>,
  rid: number,
  c: { id: number | null; kind: string; parent_id: number | null; start_date: string; end_date: string | null },
  units: ReadonlyArray<{ unit_kind: UnitKind; unit_id: number }>,
): Promise<{ contract_no: string; status: string; unit: string } | null> {
  if (c.kind === 'other' || units.length === 0) return null;
  const keys = units.map((u) => sql`(${u.unit_kind}, ${u.unit_id}::bigint)`);
  const lease = c.kind === 'lease';
  const res = await sql<{ contract_no: string; status: string; unit_kind: UnitKind; unit_id: number }>`
    SELECT c.contract_no, c.status, u.unit_kind, coalesce(u.hid, u.space_id) AS unit_id
    FROM contract_units u JOIN contracts c ON c.rid = u.rid AND c.id = u.contract_id
    WHERE u.rid = ${rid} AND (u.unit_kind, coalesce(u.hid, u.space_id)) IN (${sql.join(keys)})
      AND c.id <> ${c.id ?? 0} AND c.id <> ${c.parent_id ?? 0} AND ${LIVE}
      AND ${lease ? sql`c.kind = 'lease'` : sql`c.kind IN ('sale', 'parking')`}
      ${
        lease
          ? sql`AND c.start_date <= coalesce(${c.end_date}::date, 'infinity'::date) AND coalesce(c.end_date, 'infinity'::date) >= ${c.start_date}::date`
          : sql``
      }
    ORDER BY ${CLAIM_ORDER} LIMIT 1`.execute(db);
  const hit = res.rows[0];
  if (!hit) return null;
  return { contract_no: hit.contract_no, status: hit.status, unit: await unitTitle(db, rid, hit.unit_kind, Number(hit.unit_id)) };
}

/** A unit's name: a room's address, a space's lot and number. */
export async function unitTitle(db: Kysely<DB>, rid: number, kind: UnitKind, unitId: number): Promise<string> {
  if (kind === 'room') {
    const r = await db.selectFrom('rooms').select('address').where('rid', '=', rid).where('id', '=', unitId).executeTakeFirst();
    return r?.address ?? '';
  }
  const s = await db
    .selectFrom('parking_spaces as s')
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
    .select(sql<string>`l.title || '-' || s.title`.as('title'))
    .where('s.rid', '=', rid)
    .where('s.id', '=', unitId)
    .executeTakeFirst();
  return s?.title ?? '';
}

interface UnitRaw {
  unit_kind: UnitKind;
  unit_id: string | number;
  bid: string | number | null;
  floor: number | null;
  title: string;
  area: string;
  state: string | null;
  list_price: string | null;
  contract_id: string | number | null;
  contract_no: string | null;
  contract_price: string | null;
  party_name: string | null;
}

/** The units of `kind`, or rooms and parking spaces as one set: rooms in id order, then spaces. */
function unitRows(rid: number, kind: UnitKind | undefined) {
  const rooms = sql`SELECT 'room'::text AS unit_kind, r.id AS unit_id, r.bid, r.floor, r.address AS title, r.built_area::text AS area, r.id AS ord
      FROM rooms r WHERE r.rid = ${rid}`;
  // alone, the spaces are ordered by their id (an index walk); after the rooms, past every room id
  const spaces = (after: boolean) => sql`SELECT 'space'::text AS unit_kind, s.id AS unit_id, NULL::bigint AS bid, NULL::int AS floor,
      l.title || '-' || s.title AS title, '0.00' AS area,
      ${after ? sql`1000000000000 + s.id` : sql`s.id`} AS ord
      FROM parking_spaces s JOIN parking_lots l ON l.rid = s.rid AND l.id = s.lot_id WHERE s.rid = ${rid}`;
  if (kind === 'room') return rooms;
  if (kind === 'space') return spaces(false);
  return sql`${rooms} UNION ALL ${spaces(true)}`;
}

/**
 * Rooms and parking spaces of the community (or those of `kind`) as one set of units (alias u,
 * ordered by `ord`), with state, list price and contract.
 */
function unitsQuery(db: Kysely<DB>, rid: number, kind?: UnitKind) {
  const units = sql<{
    unit_kind: UnitKind;
    unit_id: number;
    bid: number | null;
    floor: number | null;
    title: string;
    area: string;
    ord: number;
  }>`(${unitRows(rid, kind)})`;
  return db
    .selectFrom(units.as('u'))
    .leftJoin('contract_unit_states as st', (j) =>
      j.on(sql<SqlBool>`st.rid = ${rid} AND st.unit_kind = u.unit_kind AND st.unit_id = u.unit_id`),
    )
    .leftJoin('contract_unit_prices as p', (j) =>
      j.on(sql<SqlBool>`p.rid = ${rid} AND p.unit_kind = u.unit_kind AND p.unit_id = u.unit_id`),
    )
    .leftJoin('contracts as c', (j) => j.on(sql<SqlBool>`c.rid = ${rid} AND c.id = st.contract_id`))
    .select([
      'u.unit_kind',
      'u.unit_id',
      'u.bid',
      'u.floor',
      'u.title',
      'u.area',
      'st.state',
      sql<string | null>`p.price::text`.as('list_price'),
      'st.contract_id',
      'c.contract_no',
      sql<string | null>`st.price::text`.as('contract_price'),
      'c.party_name',
    ]);
}

type UnitFilters = HandlerInput<'rentroomexport'>;

function unitConditions(f: Omit<UnitFilters, 'state'>): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  if (f.bid) out.push(sql<SqlBool>`u.bid = ${f.bid}`);
  if (f.keyword) out.push(sql<SqlBool>`u.title LIKE ${likePattern(f.keyword)}`);
  return out;
}

function filteredUnits(db: Kysely<DB>, rid: number, f: UnitFilters, kind: UnitKind | undefined = f.unit_kind || undefined) {
  let qb = unitsQuery(db, rid, kind);
  for (const c of unitConditions(f)) qb = qb.where(c);
  if (f.state === 'available') qb = qb.where(sql<SqlBool>`st.state IS NULL`);
  else if (f.state) qb = qb.where(sql<SqlBool>`st.state = ${f.state}`);
  return qb;
}

const yuan = (v: string | null | undefined) => (v === null || v === undefined ? '' : fenToYuan(toFen(v)));

function toUnitRow(r: UnitRaw): UnitStateRow {
  const state = (r.state ?? 'available') as UnitState;
  return {
    key: `${r.unit_kind}-${r.unit_id}`,
    unit_kind: r.unit_kind,
    unit_kind_ch: enumText(UNIT_KIND, r.unit_kind),
    unit_id: Number(r.unit_id),
    title: r.title,
    bid: r.bid === null ? null : Number(r.bid),
    floor: r.floor,
    area: Number(r.area).toFixed(2),
    state,
    state_ch: enumText(UNIT_STATE, state),
    list_price: yuan(r.list_price),
    contract_id: r.contract_id === null ? null : Number(r.contract_id),
    contract_no: r.contract_no ?? '',
    contract_price: yuan(r.contract_price),
    party_name: r.party_name ?? '',
  };
}

/**
 * How many units of the filter (but its state) are in each state. Without a filter: the community's
 * rooms and spaces counted by their keys, less those a contract holds (contract_unit_states, by
 * state), instead of joining every unit to its state.
 */
async function stateCounts(db: Kysely<DB>, rid: number, f: UnitFilters): Promise<Record<UnitState, number>> {
  if (unitConditions(f).length === 0 && !f.unit_kind) {
    const [units, held] = await Promise.all([
      sql<{
        n: number;
      }>`SELECT (SELECT count(*) FROM rooms WHERE rid = ${rid})::int + (SELECT count(*) FROM parking_spaces WHERE rid = ${rid})::int AS n`.execute(
        db,
      ),
      db
        .selectFrom('contract_unit_states')
        .select(['state', sql<number>`count(*)::int`.as('n')])
        .where('rid', '=', rid)
        .groupBy('state')
        .execute(),
    ]);
    const out = Object.fromEntries(enumKeys(UNIT_STATE).map((k) => [k, 0])) as Record<UnitState, number>;
    let taken = 0;
    for (const r of held) {
      out[r.state as UnitState] = Number(r.n);
      taken += Number(r.n);
    }
    out.available = Number(units.rows[0]!.n) - taken;
    return out;
  }
  let qb = unitsQuery(db, rid, f.unit_kind || undefined)
    .clearSelect()
    .select([sql<string | null>`st.state`.as('state'), sql<number>`count(*)::int`.as('n')])
    .groupBy(sql`st.state`);
  for (const c of unitConditions(f)) qb = qb.where(c);
  const rows = await qb.execute();
  const out = Object.fromEntries(enumKeys(UNIT_STATE).map((k) => [k, 0])) as Record<UnitState, number>;
  for (const r of rows) out[(r.state ?? 'available') as UnitState] = Number(r.n);
  return out;
}

const rentroomlist = defineMethod('rentroomlist', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '出租出售房源：小区的房屋与车位，状态（可售、已预订、已认购、已签约、已出租，由合同得出）、挂牌价、合同价与合同；各状态数量',
  async handler(ctx, input) {
    // the total is the counts' (of the state asked for, or of all): one count of the units, not two
    const counts = stateCounts(ctx.db, ctx.rid, input);
    const page = await pageWithTotal(unitsPage(ctx.db, ctx.rid, input), input, async () => {
      const c = await counts;
      return input.state ? c[input.state as UnitState] : Object.values(c).reduce((n, v) => n + v, 0);
    });
    return { items: page.items.map(toUnitRow), total: page.total, counts: await counts };
  },
});

/**
 * A page of the units: the rooms' part of it, then, where the rooms end on or before the page, the
 * spaces' part, each in its own id order through its own index; ordering the union of both sorted
 * every space of the community for each page.
 */
async function unitsPage(db: Kysely<DB>, rid: number, input: HandlerInput<'rentroomlist'>): Promise<UnitRaw[]> {
  const offset = (input.page - 1) * input.limit;
  const part = (kind: UnitKind, from: number, limit: number) =>
    filteredUnits(db, rid, input, kind).orderBy('u.ord').limit(sql.lit(limit)).offset(sql.lit(from)).execute();
  if (input.unit_kind) return part(input.unit_kind, offset, input.limit);
  const rooms = await part('room', offset, input.limit);
  if (rooms.length === input.limit) return rooms;
  // the rooms end on this page (all of them before it and on it), or before it (counted)
  const roomCount = rooms.length > 0 || offset === 0 ? offset + rooms.length : await countRows(filteredUnits(db, rid, input, 'room'));
  const spaces = await part('space', Math.max(0, offset + rooms.length - roomCount), input.limit - rooms.length);
  return [...rooms, ...spaces];
}

const rentroomexport = defineExport('rentroomexport', {
  roles: CONTRACT_READERS,
  summary: '导出出租出售房源（当前筛选）',
  filename: () => `出租出售房源_${today()}.xlsx`,
  async sheet({ db, rid }, input) {
    const rows = (await filteredUnits(db, rid, input).orderBy('u.ord').limit(100_000).execute()).map(toUnitRow);
    return sheetOf(
      '出租出售房源',
      [
        { header: '类型', value: (r) => r.unit_kind_ch },
        { header: '房源', value: (r) => r.title, width: 22 },
        { header: '面积（㎡）', value: (r) => Number(r.area) },
        { header: '状态', value: (r) => r.state_ch },
        { header: '挂牌价', value: (r) => (r.list_price ? Number(r.list_price) : '') },
        { header: '合同价', value: (r) => (r.contract_price ? Number(r.contract_price) : '') },
        { header: '合同编号', value: (r) => r.contract_no, width: 20 },
        { header: '乙方', value: (r) => r.party_name },
      ],
      rows,
    );
  },
});

const rentroompriceset = defineMethod('rentroompriceset', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary: '设置房源挂牌价：按每平米单价（乘以建筑面积，四舍五入到分）或统一总价；车位按总价',
  async handler(ctx, input) {
    const rooms = input.units.filter((u) => u.unit_kind === 'room').map((u) => u.unit_id);
    const spaces = input.units.filter((u) => u.unit_kind === 'space').map((u) => u.unit_id);
    const areas = new Map<number, string>();
    if (rooms.length) {
      const found = await ctx.db
        .selectFrom('rooms')
        .select(['id', 'built_area'])
        .where('rid', '=', ctx.rid)
        .where('id', 'in', rooms)
        .execute();
      for (const r of found) areas.set(Number(r.id), r.built_area);
    }
    if (areas.size !== new Set(rooms).size) fail('所选房屋不存在或不属于当前小区');
    if (spaces.length) {
      const found = await ctx.db.selectFrom('parking_spaces').select('id').where('rid', '=', ctx.rid).where('id', 'in', spaces).execute();
      if (found.length !== new Set(spaces).size) fail('所选车位不存在或不属于当前小区');
      if (input.per_m2 !== undefined) fail('车位没有面积，请按总价设置');
    }
    let updated = 0;
    for (const u of input.units) {
      const price =
        input.per_m2 !== undefined
          ? fenToYuan(mulDivRoundHalfUp(toFen(input.per_m2), toFen(areas.get(u.unit_id) ?? '0'), 100n))
          : input.price!;
      await ctx.db
        .insertInto('contract_unit_prices')
        .values({ rid: ctx.rid, unit_kind: u.unit_kind, unit_id: u.unit_id, price, created_by: ctx.session.accountId })
        .onConflict((oc) => oc.columns(['rid', 'unit_kind', 'unit_id']).doUpdateSet({ price }))
        .execute();
      updated++;
    }
    return reply({ updated }, `已设置 ${updated} 个房源的挂牌价`);
  },
});

const salestable = defineMethod('salestable', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '销控表：一栋楼的全部房屋按楼层与单元排列，状态（可售、已预订、已认购、已签约、已出租）与价格（合同价或挂牌价），点开看合同',
  async handler(ctx, input) {
    const building = await ctx.db
      .selectFrom('buildings')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.bid)
      .executeTakeFirst();
    if (!building) fail('楼栋不存在');
    let units = ctx.db.selectFrom('units').select(['id', 'title']).where('rid', '=', ctx.rid).where('bid', '=', input.bid);
    for (const term of placeOrder()) units = units.orderBy(term);
    const rows = await sql<{
      id: string;
      tid: string;
      title: string;
      floor: number;
      area: string;
      state: string | null;
      contract_id: string | null;
      contract_no: string | null;
      party_name: string | null;
      contract_price: string | null;
      list_price: string | null;
    }>`
      SELECT r.id, r.tid, r.title, r.floor, r.built_area::text AS area, st.state, st.contract_id, c.contract_no, c.party_name,
        st.price::text AS contract_price, p.price::text AS list_price
      FROM rooms r
      LEFT JOIN contract_unit_states st ON st.rid = r.rid AND st.unit_kind = 'room' AND st.unit_id = r.id
      LEFT JOIN contracts c ON c.rid = st.rid AND c.id = st.contract_id
      LEFT JOIN contract_unit_prices p ON p.rid = r.rid AND p.unit_kind = 'room' AND p.unit_id = r.id
      WHERE r.rid = ${ctx.rid} AND r.bid = ${input.bid}
      ORDER BY r.floor DESC, r.tid, r.title, r.id`.execute(ctx.db);
    const counts = Object.fromEntries(enumKeys(UNIT_STATE).map((k) => [k, 0])) as Record<UnitState, number>;
    let signed = 0n;
    const cells: SalesTableCell[] = rows.rows.map((r) => {
      const state = (r.state ?? 'available') as UnitState;
      counts[state]++;
      if (r.contract_price && (state === 'signed' || state === 'subscribed')) signed += toFen(r.contract_price);
      const price = r.contract_price ?? r.list_price;
      return {
        hid: Number(r.id),
        tid: Number(r.tid),
        title: r.title,
        floor: r.floor,
        area: Number(r.area).toFixed(2),
        state,
        state_ch: enumText(UNIT_STATE, state),
        price: yuan(price),
        price_kind: r.contract_price ? 'contract' : r.list_price ? 'list' : '',
        contract_id: r.contract_id === null ? null : Number(r.contract_id),
        contract_no: r.contract_no ?? '',
        party_name: r.party_name ?? '',
      };
    });
    return {
      building: { id: Number(building.id), title: building.title },
      units: (await units.execute()).map((u) => ({ id: Number(u.id), title: u.title })),
      floors: [...new Set(cells.map((c) => c.floor))].sort((a, b) => b - a),
      cells,
      counts,
      signed_amount: fenToYuan(signed),
    };
  },
});

export const unitMethods = [rentroomlist, rentroomexport, rentroompriceset, salestable];
