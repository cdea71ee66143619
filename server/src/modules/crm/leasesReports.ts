/**
 * The lease reports (租赁报表 /crm/leasereport; docs/product.md#crm-leases): leases expiring in 30, 60
 * and 90 days, the occupancy of the rentable rooms (every room ever leased, and those marked
 * rentable by hand), and the overdue rent (lease bills unpaid past their due day).
 */
import {
  addDays,
  enumText,
  fenToYuan,
  LEASE_EXPIRING_WINDOWS,
  LEASE_OCCUPANCY_STATE,
  LEASE_ROLES,
  daysBetween,
  mulDivRoundHalfUp,
  type LeaseOccupancyRow,
  type LeaseOverdueRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today } from '../../lib/wire.js';
import { money2 } from './leasesCore.js';

/* ---------- occupancy ---------- */

/**
 * The rentable rooms (ever in an approved lease, or marked), each with the lease in force on `day`
 * (started, not ended or checked out), alias o.
 */
/** The rentable rooms' ids: in an approved lease once, or marked by hand. */
const rentableRooms = (rid: number) => sql<{ hid: number }>`(
    SELECT lr.hid FROM lease_rooms lr JOIN leases l ON l.rid = lr.rid AND l.id = lr.lease_id
    WHERE lr.rid = ${rid} AND l.approval_status = 'Y'
    UNION
    SELECT hid FROM lease_rentable_rooms WHERE rid = ${rid})`;

function occupancy(db: Kysely<DB>, rid: number, day: string) {
  return db
    .selectFrom(rentableRooms(rid).as('x'))
    .innerJoin('rooms as r', (j) => j.on('r.rid', '=', rid).onRef('r.id', '=', 'x.hid'))
    .leftJoin('room_categories as c', (j) => j.onRef('c.rid', '=', 'r.rid').onRef('c.id', '=', 'r.category_id'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('lease_rooms as lr')
          .innerJoin('leases as l', (j) => j.onRef('l.rid', '=', 'lr.rid').onRef('l.id', '=', 'lr.lease_id'))
          .select(['l.id', 'l.lease_no', 'l.tenant_name', 'l.end_date', 'l.monthly_rent'])
          .whereRef('lr.rid', '=', 'r.rid')
          .whereRef('lr.hid', '=', 'r.id')
          .where('l.status', 'in', ['Y', 'X', 'O', 'R'])
          .where('l.start_date', '<=', day)
          .orderBy('l.start_date', 'desc')
          .limit(1)
          .as('cur'),
      (j) => j.onTrue(),
    )
    .select([
      'r.id as hid',
      'r.address',
      'r.built_area',
      'c.title as category',
      'cur.id as lease_id',
      'cur.lease_no',
      'cur.tenant_name',
      'cur.end_date',
      'cur.monthly_rent',
      sql<boolean>`EXISTS (SELECT 1 FROM lease_rentable_rooms m WHERE m.rid = r.rid AND m.hid = r.id)`.as('marked'),
    ]);
}

const leaseoccupancylist = defineMethod('leaseoccupancylist', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '出租率明细：可出租房屋（签过租约的及手工标记的）今天是否在租、租约、租户、到期日与月租金；按出租状态、地址筛选',
  async handler(ctx, input) {
    let qb = ctx.db.selectFrom(occupancy(ctx.db, ctx.rid, today()).as('o')).selectAll('o');
    if (input.state === 'leased') qb = qb.where('o.lease_id', 'is not', null);
    if (input.state === 'vacant') qb = qb.where('o.lease_id', 'is', null);
    if (input.keyword) qb = qb.where('o.address', 'ilike', likePattern(input.keyword));
    // without the state filter the total is the rentable rooms' count, without each one's lease looked up
    const count = input.state
      ? undefined
      : ctx.db
          .selectFrom(rentableRooms(ctx.rid).as('x'))
          .innerJoin('rooms as r', (j) => j.on('r.rid', '=', ctx.rid).onRef('r.id', '=', 'x.hid'))
          .$if(!!input.keyword, (q) => q.where('r.address', 'ilike', likePattern(input.keyword!)))
          .select('x.hid');
    const page = await listPage(qb, input, 'o.hid', count);
    return {
      total: page.total,
      items: page.items.map((o): LeaseOccupancyRow => {
        const state = o.lease_id === null ? 'vacant' : 'leased';
        return {
          hid: Number(o.hid),
          address: o.address,
          category: o.category ?? '',
          area: money2(o.built_area),
          state,
          state_ch: enumText(LEASE_OCCUPANCY_STATE, state),
          lease_id: o.lease_id === null ? null : Number(o.lease_id),
          lease_no: o.lease_no ?? '',
          tenant_name: o.tenant_name ?? '',
          end_date: o.end_date,
          monthly_rent: o.monthly_rent === null ? '' : money2(o.monthly_rent),
          marked: o.marked,
        };
      }),
    };
  },
});

const leaserentableset = defineMethod('leaserentableset', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary: '标记或取消标记可出租房屋（出租率报表计入；签过租约的房屋总是计入）',
  async handler(ctx, input) {
    const room = await ctx.db
      .selectFrom('rooms')
      .select('address')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.hid)
      .executeTakeFirst();
    if (!room) fail('房屋不存在');
    if (input.rentable === 'Y') {
      await ctx.db
        .insertInto('lease_rentable_rooms')
        .values({ rid: ctx.rid, hid: input.hid, created_by: ctx.session.accountId })
        .onConflict((oc) => oc.columns(['rid', 'hid']).doNothing())
        .execute();
      return reply(null, `已将 ${room.address} 标记为可出租`);
    }
    await ctx.db.deleteFrom('lease_rentable_rooms').where('rid', '=', ctx.rid).where('hid', '=', input.hid).execute();
    return reply(null, `已取消 ${room.address} 的可出租标记`);
  },
});

/* ---------- overdue rent ---------- */

type OverdueFilters = HandlerInput<'leaseoverdueexport'>;

/**
 * The leases' bills not paid past their due day (alias b), from the index of the leases' unpaid
 * bills (fee_bills_lease_unpaid): the lease jobs make them with source 'lease'.
 */
function overdueBills(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_bills as b')
    .where('b.rid', '=', rid)
    .where('b.source', '=', 'lease')
    .where('b.status', '<>', 'Y')
    .where('b.due_date', '<', sql<string>`current_date`);
}

/** Those bills with their lease and room, by the keyword (lease number, tenant, room). */
function overdue(db: Kysely<DB>, rid: number, f: OverdueFilters) {
  let qb = overdueBills(db, rid)
    .innerJoin('lease_bills as lb', (j) => j.onRef('lb.rid', '=', 'b.rid').onRef('lb.bill_id', '=', 'b.id'))
    .innerJoin('leases as l', (j) => j.onRef('l.rid', '=', 'lb.rid').onRef('l.id', '=', 'lb.lease_id'))
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'b.rid').onRef('r.id', '=', 'b.hid'))
    .select([
      'b.id as bill_id',
      'l.id as lease_id',
      'l.lease_no',
      'l.tenant_name',
      'l.mobile',
      'r.address',
      'b.title',
      'b.daterange',
      'b.fee',
      'b.due_date',
    ]);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    qb = qb.where((eb) => eb.or([eb('l.lease_no', 'ilike', k), eb('l.tenant_name', 'ilike', k), eb('r.address', 'ilike', k)]));
  }
  return qb;
}

/** The count and sum of the overdue bills (without a keyword, from the index alone). */
function overdueTotals(db: Kysely<DB>, rid: number, f: OverdueFilters) {
  const from = f.keyword ? overdue(db, rid, f).clearSelect() : overdueBills(db, rid);
  return from
    .select([sql<string>`count(*)::int`.as('bills'), sql<string>`coalesce(sum(b.fee), 0)::numeric(14,2)::text`.as('amount')])
    .executeTakeFirstOrThrow();
}

const toOverdue = (b: Awaited<ReturnType<ReturnType<typeof overdue>['execute']>>[number], day: string): LeaseOverdueRow => ({
  bill_id: Number(b.bill_id),
  lease_id: Number(b.lease_id),
  lease_no: b.lease_no,
  tenant_name: b.tenant_name,
  mobile: b.mobile,
  address: b.address,
  title: b.title,
  daterange: b.daterange,
  fee: money2(b.fee),
  due_date: b.due_date,
  days_overdue: daysBetween(b.due_date, day),
});

const leaseoverduelist = defineMethod('leaseoverduelist', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '欠租明细：租约的未缴账单中已过应缴日的，含租约、租户、房屋、期间、金额、逾期天数与合计；按租约编号、租户、房屋筛选',
  async handler(ctx, input) {
    const day = today();
    const totals = overdueTotals(ctx.db, ctx.rid, input);
    // awaited together, so a failed page never leaves the totals' failure unheard
    const [page, sums] = await Promise.all([
      listPage(overdue(ctx.db, ctx.rid, input), input, 'b.id', async () => Number((await totals).bills)),
      totals,
    ]);
    return { total: page.total, items: page.items.map((b) => toOverdue(b, day)), sum: sums.amount };
  },
});

const leaseoverdueexport = defineExport('leaseoverdueexport', {
  roles: LEASE_ROLES.read,
  summary: '按当前筛选条件导出欠租明细（Excel）',
  filename: () => `欠租明细_${today()}.xlsx`,
  check: async ({ db, rid }, input) => refuseOversizedExport(db, overdue(db, rid, input)),
  async sheet({ db, rid }, input) {
    const day = today();
    const rows = await overdue(db, rid, input).orderBy('b.due_date').orderBy('b.id').limit(EXPORT_MAX).execute();
    return sheetOf(
      '欠租明细',
      [
        { header: '租约编号', value: (r: LeaseOverdueRow) => r.lease_no, width: 14 },
        { header: '租户', value: (r) => r.tenant_name, width: 20 },
        { header: '手机号', value: (r) => r.mobile, contact: 'mobile', width: 14 },
        { header: '房屋', value: (r) => r.address, width: 24 },
        { header: '账单', value: (r) => r.title, width: 24 },
        { header: '期间', value: (r) => r.daterange, width: 26 },
        { header: '金额', value: (r) => r.fee },
        { header: '应缴日', value: (r) => r.due_date, width: 12 },
        { header: '逾期天数', value: (r) => r.days_overdue },
      ],
      rows.map((b) => toOverdue(b, day)),
    );
  },
});

/* ---------- the figures ---------- */

const leasereport = defineMethod('leasereport', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '租赁概况：30/60/90 天内到期的租约数与月租金、可出租房屋的出租率（间数与面积）、欠租账单数、租约数与金额',
  async handler(ctx) {
    const day = today();
    const expiring = await Promise.all(
      LEASE_EXPIRING_WINDOWS.map(async (days) => {
        const r = await ctx.db
          .selectFrom('leases')
          .select([sql<string>`count(*)::int`.as('n'), sql<string>`coalesce(sum(monthly_rent), 0)::numeric(14,2)::text`.as('rent')])
          .where('rid', '=', ctx.rid)
          .where('status', 'in', ['Y', 'X'])
          .where('end_date', '>=', day)
          .where('end_date', '<=', addDays(day, days))
          .executeTakeFirstOrThrow();
        return { days, count: Number(r.n), monthly_rent: r.rent };
      }),
    );
    const occ = await ctx.db
      .selectFrom(occupancy(ctx.db, ctx.rid, day).as('o'))
      .select([
        sql<string>`count(*)::int`.as('rooms'),
        sql<string>`count(o.lease_id)::int`.as('leased'),
        sql<string>`coalesce(sum(o.built_area), 0)::numeric(14,2)::text`.as('area'),
        sql<string>`coalesce(sum(o.built_area) FILTER (WHERE o.lease_id IS NOT NULL), 0)::numeric(14,2)::text`.as('leased_area'),
      ])
      .executeTakeFirstOrThrow();
    const owed = await overdueBills(ctx.db, ctx.rid)
      .innerJoin('lease_bills as lb', (j) => j.onRef('lb.rid', '=', 'b.rid').onRef('lb.bill_id', '=', 'b.id'))
      .select([
        sql<string>`count(*)::int`.as('bills'),
        sql<string>`count(DISTINCT lb.lease_id)::int`.as('leases'),
        sql<string>`coalesce(sum(b.fee), 0)::numeric(14,2)::text`.as('amount'),
      ])
      .executeTakeFirstOrThrow();
    const rooms = Number(occ.rooms);
    const leased = Number(occ.leased);
    // a percent with two decimals, half up
    const rate = rooms === 0 ? '0.00' : fenToYuan(mulDivRoundHalfUp(BigInt(leased), 10000n, BigInt(rooms)));
    return {
      expiring,
      occupancy: { rooms, leased, area: occ.area, leased_area: occ.leased_area, rate },
      overdue: { bills: Number(owed.bills), leases: Number(owed.leases), amount: money2(owed.amount) },
    };
  },
});

export const leaseReportMethods = [leasereport, leaseoccupancylist, leaserentableset, leaseoverduelist, leaseoverdueexport];
