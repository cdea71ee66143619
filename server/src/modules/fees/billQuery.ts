import { BILL_STATUS_CH, fenToYuan, toFen, type BillStatus, type FeeBillRow, type Paging } from '@wuye/contract';
import type { z } from 'zod';
import { expressionBuilder, sql, type Expression, type Kysely, type NotNull, type SqlBool } from 'kysely';
import type { feesMethods } from '@wuye/contract';
import type { DB } from '../../db/schema.js';
import { today, wireTime } from '../../lib/wire.js';
import { lateFeeFen } from './calc.js';
import type { CountCache } from '../../lib/countCache.js';
import { countQuery, countRows } from '../../lib/paging.js';

export type BillFilters = Omit<z.output<(typeof feesMethods)['exportfees']>, 'sort'>;

/** Bills of the community joined to their room, unit, building, community and item. */
export function billBase(db: Kysely<DB>, rid: number) {
  return db.selectFrom('fee_bills as b')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'b.rid').onRef('r.id', '=', 'b.hid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'b.rid').onRef('u.id', '=', 'b.tid'))
    .innerJoin('buildings as bd', (j) => j.onRef('bd.rid', '=', 'b.rid').onRef('bd.id', '=', 'b.bid'))
    .innerJoin('regions as rg', 'rg.id', 'b.rid')
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .where('b.rid', '=', rid);
}

/** The bill's own columns and its item's late-fee rule, as both bill queries below select them. */
const BILL_COLUMNS = [
  'b.id', 'b.rid', 'b.bid', 'b.tid', 'b.hid', 'b.item_id', 'b.cost_type', 'b.title', 'b.period', 'b.daterange', 'b.measure',
  'b.unit_price', 'b.fee', 'b.status', 'b.is_check', 'b.due_date', 'b.late_fee', 'b.paid_at', 'b.payment_id', 'b.batch_id',
  'b.space_id', 'b.car_id', 'b.create_time',
] as const;
const LATE_FEE_RULE_COLUMNS = ['i.late_fee_rule', 'i.late_fee_rate', 'i.late_fee_grace_days', 'i.late_fee_cap_percent'] as const;

export function selectBillRow(qb: ReturnType<typeof billBase>) {
  return qb.select([
    ...BILL_COLUMNS, 'rg.title as region_title', 'bd.title as building_title', 'u.title as unit_title', 'r.title as house_title',
    ...LATE_FEE_RULE_COLUMNS,
  ]);
}

/**
 * One page of the bill list without a keyword: the page is picked from fee_bills alone and only
 * its rows get their titles, each looked up by its key. Planning billBase's six-table join took
 * ~3 ms on every call, ten times more than running it; this plans in ~0.2 ms (bench/README.md).
 */
export function billPageQuery(db: Kysely<DB>, rid: number, f: BillFilters, paging: Paging) {
  const own = ownFilters(f);
  const page = db.selectFrom('fee_bills as b').selectAll('b').where('b.rid', '=', rid)
    .$if(own.length > 0, (qb) => qb.where((eb) => eb.and(own)))
    .orderBy('b.id', paging.sort).limit(paging.limit).offset((paging.page - 1) * paging.limit);
  return db.selectFrom(page.as('b'))
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .select((eb) => [
      ...BILL_COLUMNS,
      eb.selectFrom('regions as rg').select('rg.title').whereRef('rg.id', '=', 'b.rid').as('region_title'),
      eb.selectFrom('buildings as bd').select('bd.title').whereRef('bd.rid', '=', 'b.rid').whereRef('bd.id', '=', 'b.bid').as('building_title'),
      eb.selectFrom('units as u').select('u.title').whereRef('u.rid', '=', 'b.rid').whereRef('u.id', '=', 'b.tid').as('unit_title'),
      eb.selectFrom('rooms as r').select('r.title').whereRef('r.rid', '=', 'b.rid').whereRef('r.id', '=', 'b.hid').as('house_title'),
      ...LATE_FEE_RULE_COLUMNS,
    ])
    // every bill has its community, building, unit and room (foreign keys)
    .$narrowType<{ region_title: NotNull; building_title: NotNull; unit_title: NotNull; house_title: NotNull }>()
    .orderBy('b.id', paging.sort);
}

/** The filters on the bill's own columns (all but the keyword), so a count can read fee_bills alone. */
function ownFilters(f: BillFilters): Array<Expression<SqlBool>> {
  const eb = expressionBuilder<DB & { b: DB['fee_bills'] }, 'b'>();
  const c: Array<Expression<SqlBool>> = [];
  if (f.bid) c.push(eb('b.bid', '=', f.bid));
  if (f.tid) c.push(eb('b.tid', '=', f.tid));
  if (f.hid) c.push(eb('b.hid', '=', f.hid));
  if (f.cost_types.length) c.push(eb('b.cost_type', 'in', f.cost_types));
  if (f.title) c.push(eb('b.title', 'ilike', `%${f.title}%`));
  if (f.status) c.push(eb('b.status', '=', f.status));
  if (f.min_fee !== undefined) c.push(eb('b.fee', '>=', f.min_fee));
  if (f.max_fee !== undefined) c.push(eb('b.fee', '<=', f.max_fee));
  if (f.is_check) c.push(eb('b.is_check', '=', f.is_check));
  if (f.itemid) c.push(eb('b.item_id', '=', f.itemid));
  if (f.period) c.push(eb('b.period', '=', f.period));
  if (f.batch_id) c.push(eb('b.batch_id', '=', f.batch_id));
  return c;
}

/**
 * The query counting the bills the filters select. Every bill has its room, unit, building,
 * community and item, so unless the keyword needs their titles the count reads fee_bills alone:
 * counting a community's 155,000 overdue bills through the five joins took 200-350 ms, from the
 * (rid, status) index alone 15-25 ms (bench/README.md).
 */
export function billCount(db: Kysely<DB>, rid: number, f: BillFilters) {
  if (f.keyword) return applyBillFilters(billBase(db, rid), f, rid);
  if (f.rid !== undefined && f.rid !== rid) return null;
  const own = ownFilters(f);
  return db.selectFrom('fee_bills as b').where('b.rid', '=', rid).$if(own.length > 0, (qb) => qb.where((eb) => eb.and(own)));
}

/**
 * The filtered total for the bill list. Counted from fee_bills alone it is remembered until bills
 * change (lib/countCache.ts): paging through a community's overdue bills counted 155,000 index
 * entries on every page. A keyword count also reads rooms and members, whose changes are not
 * heard, so it is counted each time.
 */
export function billTotal(db: Kysely<DB>, rid: number, f: BillFilters, counts: CountCache): () => Promise<number> {
  const query = billCount(db, rid, f);
  if (!query) return async () => 0;
  if (f.keyword) return () => countRows(query);
  const { sql: text, parameters } = countQuery(query).compile();
  return () => counts.total(`${text} ${JSON.stringify(parameters)}`, () => countRows(query));
}

/** Applies the spec's bill-list filters; answers null when the filters name another community. */
export function applyBillFilters(qb: ReturnType<typeof billBase>, f: BillFilters, rid: number): ReturnType<typeof billBase> | null {
  if (f.rid !== undefined && f.rid !== rid) return null;
  for (const c of ownFilters(f)) qb = qb.where(c);
  if (f.keyword) {
    const like = `%${f.keyword}%`;
    qb = qb.where((eb) => eb.or([
      eb('b.title', 'ilike', like),
      eb('r.title', 'ilike', like),
      // a parking bill's space title or plate
      eb('b.measure', 'ilike', like),
      eb(eb.fn('concat', ['bd.title', 'u.title', 'r.title']), 'ilike', like),
      eb('b.period', '=', f.keyword!),
      // the owner drawer searches by the owner's name or mobile too
      eb.exists(eb.selectFrom('room_members as rm')
        .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
        .select(sql.lit(1).as('one'))
        .whereRef('rm.rid', '=', 'b.rid').whereRef('rm.hid', '=', 'b.hid').where('rm.status', '=', 'Y')
        .where((w) => w.or([w('m.realname', 'ilike', like), w('m.mobile', 'like', `${f.keyword!}%`)]))),
    ]));
  }
  return qb;
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectBillRow>['executeTakeFirstOrThrow']>>;

/** The wire row; unpaid bills carry the late fee as of today. */
export function toBillRow(b: Raw, onDay = today()): FeeBillRow {
  const late = b.status === 'Y' ? b.late_fee : fenToYuan(lateFeeFen(toFen(b.fee), b.due_date, onDay, b));
  return {
    id: b.id, rid: b.rid, bid: b.bid, tid: b.tid, hid: b.hid, item_id: b.item_id, cost_type: b.cost_type, title: b.title,
    region_title: b.region_title, building_title: b.building_title, unit_title: b.unit_title, house_title: b.house_title,
    period: b.period, daterange: b.daterange, measure: b.measure, unit_price: b.unit_price, status: b.status as BillStatus,
    status_ch: BILL_STATUS_CH[b.status as BillStatus], fee: b.fee, late_fee: late, is_check: b.is_check, due_date: b.due_date,
    paid_at: wireTime(b.paid_at), payment_id: b.payment_id ?? 0, batch_id: b.batch_id ?? 0,
    space_id: b.space_id, car_id: b.car_id, create_time: wireTime(b.create_time),
  };
}
