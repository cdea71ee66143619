import { BILL_STATUS_CH, type MonthLintingRow } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { REPORT_ROLES } from './reports.js';

export interface MonthLintingFilters {
  period: string;
  bid?: number | undefined;
  tid?: number | undefined;
  itemid?: number | undefined;
  status?: '' | 'E' | 'Y' | 'N' | undefined;
}

/**
 * The bills of one period (月度收缴明细), filtered: read through fee_bills_period_order
 * (rid, period, id), so a page is the period's bills in id order, the filters checked on the way.
 */
export function monthBills(db: Kysely<DB>, rid: number, f: MonthLintingFilters) {
  let q = db.selectFrom('fee_bills as b').where('b.rid', '=', rid).where('b.period', '=', f.period);
  if (f.bid) q = q.where('b.bid', '=', f.bid);
  if (f.tid) q = q.where('b.tid', '=', f.tid);
  if (f.itemid) q = q.where('b.item_id', '=', f.itemid);
  if (f.status) q = q.where('b.status', '=', f.status);
  return q;
}

/** The wire rows of some bills: the room's address and first current owner are read for those rows alone. */
export function monthLintingRows(db: Kysely<DB>, rid: number, bills: ReturnType<typeof monthBills>) {
  return bills.select([
    'b.id',
    'b.hid',
    sql<string>`(SELECT r.address FROM rooms r WHERE r.rid = b.rid AND r.id = b.hid)`.as('address'),
    sql<string>`coalesce((SELECT m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.hid = b.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1), '')`.as('owner_name'),
    'b.title',
    'b.period',
    sql<string>`b.fee::numeric(14,2)::text`.as('receivable'),
    sql<string>`(CASE WHEN b.status = 'Y' THEN b.fee ELSE 0 END)::numeric(14,2)::text`.as('received'),
    sql<string>`(CASE WHEN b.status = 'Y' THEN 0 ELSE b.fee END)::numeric(14,2)::text`.as('unpaid'),
    'b.status',
    'b.paid_at',
  ]);
}

export const toMonthLintingRow = (
  r: Omit<MonthLintingRow, 'status_ch' | 'paid_time' | 'id' | 'hid'> & {
    id: number | string;
    hid: number | string;
    paid_at: Date | null;
  },
): MonthLintingRow => ({
  id: Number(r.id),
  hid: Number(r.hid),
  address: r.address ?? '',
  owner_name: r.owner_name,
  title: r.title,
  period: r.period,
  receivable: r.receivable,
  received: r.received,
  unpaid: r.unpaid,
  status: r.status,
  status_ch: BILL_STATUS_CH[r.status as 'E'] ?? r.status,
  paid_time: r.paid_at ? wireTime(r.paid_at) : '',
});

/**
 * The count and totals of a period's bills under the filters. Without a building or unit they are
 * read from the bills' kept totals (fee_bill_totals, per period, item and status: a few rows, ADR
 * 0004) instead of summing the period's 80,000 bills of a community on every call; a building or
 * unit narrows the bills to a few hundred, summed as they are.
 */
async function monthTotals(db: Kysely<DB>, rid: number, f: MonthLintingFilters) {
  if (f.bid || f.tid) {
    const bills = monthBills(db, rid, f);
    const [n, totals] = await Promise.all([
      bills.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      bills
        .select([
          sql<string>`coalesce(sum(b.fee), 0)::numeric(14,2)::text`.as('receivable'),
          sql<string>`coalesce(sum(b.fee) FILTER (WHERE b.status = 'Y'), 0)::numeric(14,2)::text`.as('received'),
          sql<string>`coalesce(sum(b.fee) FILTER (WHERE b.status <> 'Y'), 0)::numeric(14,2)::text`.as('unpaid'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return { count: n.n, totals };
  }
  let q = db
    .selectFrom('fee_bill_totals as t')
    .select([
      sql<string>`coalesce(sum(t.bills), 0)::bigint::text`.as('n'),
      sql<string>`coalesce(sum(t.fee), 0)::numeric(14,2)::text`.as('receivable'),
      sql<string>`coalesce(sum(t.fee) FILTER (WHERE t.status = 'Y'), 0)::numeric(14,2)::text`.as('received'),
      sql<string>`coalesce(sum(t.fee) FILTER (WHERE t.status <> 'Y'), 0)::numeric(14,2)::text`.as('unpaid'),
    ])
    .where('t.rid', '=', rid)
    .where('t.period', '=', f.period);
  if (f.itemid) q = q.where('t.item_id', '=', f.itemid);
  if (f.status) q = q.where('t.status', '=', f.status);
  const { n, ...totals } = await q.executeTakeFirstOrThrow();
  return { count: Number(n), totals };
}

const monthLinting = defineMethod('month_linting', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '月度收缴明细：一个账期每户每个收费项目的应收、实收、未收与缴费时间，可按楼栋、单元、项目、状态筛选',
  async handler(ctx, input) {
    const bills = monthBills(ctx.db, ctx.rid, input);
    const sums = monthTotals(ctx.db, ctx.rid, input);
    const [page, { totals }] = await Promise.all([
      listPage(monthLintingRows(ctx.db, ctx.rid, bills), input, 'b.id', async () => (await sums).count),
      sums,
    ]);
    return { total: page.total, items: page.items.map(toMonthLintingRow), totals };
  },
});

export const monthLintingMethods = [monthLinting];
