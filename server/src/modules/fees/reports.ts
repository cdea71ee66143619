import {
  addDays,
  fenToYuan,
  mulDivRoundHalfUp,
  PAY_TYPE_CH,
  toFen,
  type ArrearsRow,
  type CollectionRow,
  type FeesCountRow,
  type FeesCountTotals,
  type FeeDashboard,
  type PayTypeName,
  type PaymentStatRow,
  FEE_ROLES,
  HOME_CARDS,
} from '@wuye/contract';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { receiptFilters, receiptKeyword } from './payments.js';
import { billTotals, ownWayTotals, paymentTotals } from './totals.js';
import { countedPayTypes } from '../leader/paytypes.js';
import { roomsAddressed } from '../owners/access.js';
import { today, wireTime } from '../../lib/wire.js';

export const REPORT_ROLES = FEE_ROLES.reports;

/** received / receivable as a percent with two decimals, half up, in integers. */
export function rate(received: string, receivable: string): string {
  const den = toFen(receivable);
  if (den === 0n) return '0.00';
  return fenToYuan(mulDivRoundHalfUp(toFen(received), 10_000n, den));
}

const money = (col: string) => sql<string>`coalesce(sum(${sql.raw(col)}), 0)::numeric(14,2)::text`;

/** Receivable and received per fee item and period, from the bills' kept totals (totals.ts). */
export async function collection(db: Kysely<DB>, rid: number, f: Parameters<typeof billTotals>[2]) {
  const rows = await db
    .selectFrom(billTotals(db, rid, f).as('a'))
    .innerJoin('fee_items as i', (j) => j.on('i.rid', '=', rid).onRef('i.id', '=', 'a.item_id'))
    .select([
      'a.item_id',
      'a.period',
      sql<string>`min(i.title)`.as('title'),
      sql<number>`sum(a.n)::int`.as('bill_count'),
      money('a.fee').as('receivable'),
      sql<string>`coalesce(sum(a.fee) FILTER (WHERE a.status = 'Y'), 0)::numeric(14,2)::text`.as('received'),
    ])
    .groupBy(['a.item_id', 'a.period'])
    .orderBy('a.period')
    .orderBy('a.item_id')
    .execute();
  let rec = 0n;
  let got = 0n;
  const items: CollectionRow[] = rows.map((r) => {
    rec += toFen(r.receivable);
    got += toFen(r.received);
    return {
      item_id: r.item_id,
      title: r.title,
      period: r.period,
      bill_count: r.bill_count,
      receivable: r.receivable,
      received: r.received,
      arrears: fenToYuan(toFen(r.receivable) - toFen(r.received)),
      rate: rate(r.received, r.receivable),
    };
  });
  return {
    items,
    totals: {
      receivable: fenToYuan(rec),
      received: fenToYuan(got),
      arrears: fenToYuan(rec - got),
      rate: rate(fenToYuan(got), fenToYuan(rec)),
    },
  };
}

/**
 * What invoices cover of what `collection` counts as received, per fee item and period, from their
 * kept totals (invoice_period_totals): a line is invoiced only while its bill stands paid by its
 * receipt (a refund or a void waits for the reversals, modules/fees/invoiced.ts), so the invoiced
 * lines of a bill are those of the receipt that paid it.
 */
function invoicedByItem(db: Kysely<DB>, rid: number, f: Parameters<typeof billTotals>[2]) {
  let q = db
    .selectFrom('invoice_period_totals as t')
    .select(['t.item_id', 't.period', money('t.invoiced').as('invoiced')])
    .where('t.rid', '=', rid)
    .where('t.period', '>=', f.start_period)
    .where('t.period', '<=', f.end_period);
  if (f.cost_type) q = q.where('t.cost_type', '=', f.cost_type);
  if (f.itemid) q = q.where('t.item_id', '=', f.itemid);
  return q.groupBy(['t.item_id', 't.period']).execute();
}

/** 收费统计: `collection` with 已开票 and 未开票 (received − invoiced) per row and in all. */
export async function feesCountReport(
  db: Kysely<DB>,
  rid: number,
  f: Parameters<typeof billTotals>[2],
): Promise<{ items: FeesCountRow[]; totals: FeesCountTotals }> {
  const [c, invoiced] = await Promise.all([collection(db, rid, f), invoicedByItem(db, rid, f)]);
  const byRow = new Map(invoiced.map((r) => [`${r.item_id} ${r.period}`, toFen(r.invoiced)]));
  let all = 0n;
  const items = c.items.map((r) => {
    const fen = byRow.get(`${r.item_id} ${r.period}`) ?? 0n;
    all += fen;
    // 实收 here is the bills' fees; an invoice also covers late fees (less discounts), so what it
    // covers can pass the fees: nothing is then left to invoice
    const left = toFen(r.received) - fen;
    return { ...r, invoiced: fenToYuan(fen), uninvoiced: fenToYuan(left > 0n ? left : 0n) };
  });
  const uninvoiced = items.reduce((sum, r) => sum + toFen(r.uninvoiced), 0n);
  return { items, totals: { ...c.totals, invoiced: fenToYuan(all), uninvoiced: fenToYuan(uninvoiced) } };
}

const feesCount = defineMethod('fees_count', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '收费统计：按收费项目和账期的应收、实收、欠费、收缴率，以及实收中已开票、未开票的金额',
  handler: (ctx, input) => feesCountReport(ctx.db, ctx.rid, input),
});

/**
 * Unpaid bills per room with aging buckets (days past the due date as of today), from fee_bills
 * alone (the unpaid-bills index); `arrearsRows` adds the address and owner to the rooms asked.
 * Grouping first and joining only a page's rooms took a page and its totals over 200,000 unpaid
 * bills from 1.0-1.4 s to 0.2 s (docs/perf/history.md#round-1).
 */
export function arrearsByRoom(
  db: Kysely<DB>,
  rid: number,
  f: { bid?: number | undefined; tid?: number | undefined; keyword?: string | undefined },
) {
  const day = today();
  const aged = (lo: number | null, hi: number | null) =>
    sql<string>`coalesce(sum(b.fee) FILTER (WHERE ${lo === null ? sql`true` : sql`(${day}::date - b.due_date) >= ${lo}`}
      ${hi === null ? sql`` : sql`AND (${day}::date - b.due_date) <= ${hi}`}), 0)`;
  let q = db
    .selectFrom('fee_bills as b')
    .select([
      'b.hid',
      sql<number>`count(*)::int`.as('bill_count'),
      sql<string>`sum(b.fee)`.as('arrears'),
      aged(null, 30).as('d0_30'),
      aged(31, 90).as('d31_90'),
      aged(91, 180).as('d91_180'),
      aged(181, 365).as('d181_365'),
      aged(366, null).as('d365_plus'),
    ])
    .where('b.rid', '=', rid)
    .where('b.status', '<>', 'Y');
  if (f.bid) q = q.where('b.bid', '=', f.bid);
  if (f.tid) q = q.where('b.tid', '=', f.tid);
  if (f.keyword) {
    q = q.where(sql<SqlBool>`b.hid IN (${roomsAddressed(rid, f.keyword)})`);
  }
  return q.groupBy('b.hid');
}

export type ArrearsByRoom = ReturnType<typeof arrearsByRoom>;

/**
 * The wire rows of some rooms of `arrearsByRoom` (a page, already ordered and limited), in `order`,
 * each with its late fees today and what it owes in all (room_arrears, the one computation the
 * drawer and the cashier show: fees/arrears.ts), read for these rooms alone.
 */
export function arrearsRows(db: Kysely<DB>, rid: number, rooms: ArrearsByRoom, order: 'asc' | 'desc' | 'hid') {
  const owner = (
    col: 'realname' | 'mobile',
  ) => sql<string>`coalesce((SELECT m.${sql.ref(col)} FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = ${rid} AND rm.hid = a.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1), '')`;
  const text = (col: string) => sql<string>`${sql.ref(`a.${col}`)}::numeric(14,2)::text`;
  let q = db
    .selectFrom(rooms.as('a'))
    .innerJoin('rooms as r', (j) => j.on('r.rid', '=', rid).onRef('r.id', '=', 'a.hid'))
    .innerJoinLateral(sql<{ fee: string; late_fee: string }>`room_arrears(${rid}, a.hid, ${today()}::date)`.as('la'), (j) => j.onTrue())
    .select([
      'a.hid',
      'r.address',
      'a.bill_count',
      text('arrears').as('arrears'),
      sql<string>`la.late_fee::numeric(14,2)::text`.as('late_fee'),
      sql<string>`(la.fee + la.late_fee)::numeric(14,2)::text`.as('total'),
      text('d0_30').as('d0_30'),
      text('d31_90').as('d31_90'),
      text('d91_180').as('d91_180'),
      text('d181_365').as('d181_365'),
      text('d365_plus').as('d365_plus'),
      owner('realname').as('owner_name'),
      owner('mobile').as('mobile'),
    ]);
  if (order !== 'hid') q = q.orderBy(sql`a.arrears`, order);
  return q.orderBy('a.hid');
}

/** One page of rooms in arrears, most (or least) owed first. */
export function arrearsPage(
  db: Kysely<DB>,
  rid: number,
  f: Parameters<typeof arrearsByRoom>[2],
  p: { page: number; limit: number; sort: 'asc' | 'desc' },
) {
  const rooms = arrearsByRoom(db, rid, f)
    .orderBy(sql`sum(b.fee)`, p.sort)
    .orderBy('b.hid')
    .limit(p.limit)
    .offset((p.page - 1) * p.limit);
  return arrearsRows(db, rid, rooms, p.sort).execute() as Promise<ArrearsRow[]>;
}

const feesCountNopay = defineMethod('fees_count_nopay', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '欠费统计：按房屋的欠费金额与账龄（0-30、31-90、91-180、181-365、365 天以上）',
  async handler(ctx, input) {
    const [items, totalsRow] = await Promise.all([
      arrearsPage(ctx.db, ctx.rid, input, input),
      ctx.db
        .selectFrom(arrearsByRoom(ctx.db, ctx.rid, input).as('a'))
        .select([
          sql<number>`count(*)::int`.as('rooms'),
          money('a.arrears').as('arrears'),
          money('a.d0_30').as('d0_30'),
          money('a.d31_90').as('d31_90'),
          money('a.d91_180').as('d91_180'),
          money('a.d181_365').as('d181_365'),
          money('a.d365_plus').as('d365_plus'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: totalsRow.rooms, totals: totalsRow };
  },
});

/**
 * Each month of a year: the bills of that period (receivable, received) and the money taken and
 * refunded in that month. The bills and the payments are read from their kept totals (totals.ts),
 * a few thousand rows for a year instead of a million bills and half a million payments; each
 * table is read once for the year's range and grouped by month, by separate statements run side
 * by side on connections of the pool (as one statement they ran one after the other).
 */
export async function monthFees(db: Kysely<DB>, rid: number, year: number) {
  const from = sql`make_date(${year}::int, 1, 1)`;
  const to = sql`make_date(${year + 1}::int, 1, 1)`;
  type ByMonth<K extends string> = { month: string } & Record<K, string>;
  const [bills, pays, refunds] = await Promise.all([
    db
      .selectFrom(billTotals(db, rid, { start_period: `${year}-01`, end_period: `${year}-12` }).as('s'))
      .select([
        's.period as month',
        money('s.fee').as('receivable'),
        sql<string>`coalesce(sum(s.fee) FILTER (WHERE s.status = 'Y'), 0)::numeric(14,2)::text`.as('received'),
      ])
      .groupBy('s.period')
      .execute(),
    paymentTotals(db, rid, `${year}-01-01`, `${year}-12-31`)
      .select([sql<string>`to_char(day, 'YYYY-MM')`.as('month'), money('paid_amount').as('collected')])
      .groupBy(sql`1`)
      .execute(),
    sql<ByMonth<'refunded'>>`
      SELECT to_char(approved_at, 'YYYY-MM') AS month, sum(amount)::numeric(14,2)::text AS refunded FROM fee_refunds
      WHERE rid = ${rid} AND status = 'Y' AND approved_at >= ${from} AND approved_at < ${to} GROUP BY 1`.execute(db),
  ]);
  const byMonth = <K extends string>(rows: ByMonth<K>[]) => new Map(rows.map((r) => [r.month, r]));
  const [b, p, r] = [byMonth(bills), byMonth(pays), byMonth(refunds.rows)];
  const items = Array.from({ length: 12 }, (_, i) => {
    const month = `${year}-${String(i + 1).padStart(2, '0')}`;
    const receivable = b.get(month)?.receivable ?? '0.00';
    const received = b.get(month)?.received ?? '0.00';
    return {
      month,
      receivable,
      received,
      collected: p.get(month)?.collected ?? '0.00',
      refunded: r.get(month)?.refunded ?? '0.00',
      rate: rate(received, receivable),
    };
  });
  return { items };
}

const monthFeesMethod = defineMethod('month_fees', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '月度收费：一年 12 个月各月账期的应收、已收、当月收款、当月退款、收缴率',
  handler: (ctx, input) => monthFees(ctx.db, ctx.rid, input.year),
});

/** A pay type's name in a report: 「…（不计入实收）」 when the group does not count it (支付方式). */
export const payTypeLabel = (payType: string, counted: ReadonlySet<string>) => {
  const name = PAY_TYPE_CH[payType as PayTypeName] ?? payType;
  return counted.has(payType) ? name : `${name}（不计入实收）`;
};

/**
 * The payments of a date range by pay type, cashier or day, from their kept totals (totals.ts),
 * with what the pay types the group counts in 实收 took (支付方式, docs/product.md#paytypelist).
 */
export async function paymentStats(
  db: Kysely<DB>,
  rid: number,
  f: { start_date: string; end_date: string; group_by: 'pay_type' | 'cashier' | 'day' },
) {
  const byType = f.group_by === 'pay_type';
  const key = byType
    ? sql<string>`pay_type`
    : f.group_by === 'cashier'
      ? sql<string>`cashier_name`
      : sql<string>`to_char(day, 'YYYY-MM-DD')`;
  const counted = await countedPayTypes(db, rid);
  const [rows, inReceived, ways] = await Promise.all([
    paymentTotals(db, rid, f.start_date, f.end_date)
      .select([
        key.as('key'),
        sql<number>`sum(payments)::int`.as('count'),
        money('paid_amount').as('amount'),
        money('balance_used').as('balance_used'),
      ])
      .groupBy(sql`1`)
      .having(sql`sum(payments)`, '<>', 0)
      .orderBy(sql`1`)
      .execute(),
    counted.size
      ? paymentTotals(db, rid, f.start_date, f.end_date)
          .select(money('paid_amount').as('amount'))
          .where('pay_type', 'in', [...counted])
          .executeTakeFirstOrThrow()
      : { amount: '0.00' },
    // by pay type: the part of each the group's own ways took (其中：POS机-工行)
    byType ? ownWayTotals(db, rid, f.start_date, f.end_date) : [],
  ]);
  const items: PaymentStatRow[] = rows.map((r) => ({
    ...r,
    label: byType ? payTypeLabel(r.key, counted) : r.key,
    counted: byType ? (counted.has(r.key as PayTypeName) ? 'Y' : 'N') : '',
    ways: ways.filter((w) => w.base === r.key).map((w) => ({ method_id: Number(w.id), name: w.name, count: w.count, amount: w.amount })),
  }));
  return {
    items,
    total_amount: fenToYuan(items.reduce((s, r) => s + toFen(r.amount), 0n)),
    total_count: items.reduce((s, r) => s + r.count, 0),
    counted_amount: inReceived.amount,
  };
}

const paymentstatis = defineMethod('paymentstatis', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '收款统计：日期区间内按支付方式、收银员或日期汇总的笔数、实收、余额抵扣',
  handler: (ctx, input) => paymentStats(ctx.db, ctx.rid, input),
});

export async function propertyByBuilding(db: Kysely<DB>, rid: number, period: string) {
  const rows = await db
    .selectFrom('fee_bills as b')
    .innerJoin('buildings as bd', (j) => j.onRef('bd.rid', '=', 'b.rid').onRef('bd.id', '=', 'b.bid'))
    .select([
      'b.bid',
      sql<string>`min(bd.title)`.as('building_title'),
      sql<number>`count(DISTINCT b.hid)::int`.as('rooms'),
      sql<number>`count(DISTINCT b.hid) FILTER (WHERE b.status = 'Y')::int`.as('paid_rooms'),
      money('b.fee').as('receivable'),
      sql<string>`coalesce(sum(b.fee) FILTER (WHERE b.status = 'Y'), 0)::numeric(14,2)::text`.as('received'),
    ])
    .where('b.rid', '=', rid)
    .where('b.period', '=', period)
    .where('b.cost_type', '=', 'property')
    .groupBy('b.bid')
    .orderBy(sql`min(bd.sort)`)
    .orderBy('b.bid')
    .execute();
  let rec = 0n;
  let got = 0n;
  const items = rows.map((r) => {
    rec += toFen(r.receivable);
    got += toFen(r.received);
    return { ...r, arrears: fenToYuan(toFen(r.receivable) - toFen(r.received)), rate: rate(r.received, r.receivable) };
  });
  return {
    items,
    totals: {
      receivable: fenToYuan(rec),
      received: fenToYuan(got),
      arrears: fenToYuan(rec - got),
      rate: rate(fenToYuan(got), fenToYuan(rec)),
    },
  };
}

const propertypaystatis = defineMethod('propertypaystatis', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '物业费收缴（按楼栋）：一个账期各楼栋的户数、已缴户数、应收、实收、欠费、收缴率',
  handler: (ctx, input) => propertyByBuilding(ctx.db, ctx.rid, input.period),
});

const propertypaylog = defineMethod('propertypaylog', {
  side: 'community',
  roles: REPORT_ROLES,
  writes: false,
  summary: '物业费缴费明细：每笔收据中的物业费账单行',
  async handler(ctx, input) {
    // the lines of property bills, by their own cost type (013), counted without a join unless
    // the filters are on the receipt (dates, keyword)
    const lines = ctx.db.selectFrom('fee_payment_items as pi').where('pi.rid', '=', ctx.rid).where('pi.cost_type', '=', 'property');
    const onReceipt = receiptFilters({ start_date: input.start_date, end_date: input.end_date });
    if (input.keyword) onReceipt.push(await receiptKeyword(ctx.db, ctx.rid, input.keyword, { receiptNo: false }));
    let receipts = lines.innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'pi.rid').onRef('p.id', '=', 'pi.payment_id'));
    for (const c of onReceipt) receipts = receipts.where(c);
    // the address is looked up by key for the page's lines alone (PostgreSQL computes such a
    // sub-select after the sort and limit): joined, every line of a common payer's 19,591
    // receipts had its room, unit and building joined before the ten were picked (+100 ms)
    const address = sql<string>`(SELECT r.address FROM rooms r WHERE r.rid = p.rid AND r.id = p.hid)`;
    const qb = receipts.select([
      'pi.id',
      'p.id as payment_id',
      'p.receipt_no',
      address.as('address'),
      'p.payer_name',
      'pi.title',
      'pi.period',
      'pi.fee',
      'pi.late_fee',
      'p.pay_type',
      'p.cashier_name',
      'p.created_at',
      'p.status',
    ]);
    const countFrom = onReceipt.length ? receipts : lines;
    const page = await listPage(qb, input, 'pi.id', countFrom.select('pi.id'));
    return {
      total: page.total,
      items: page.items.map((r) => ({
        payment_id: r.payment_id,
        receipt_no: r.receipt_no,
        address: r.address,
        payer_name: r.payer_name,
        title: r.title,
        period: r.period,
        fee: r.fee,
        late_fee: r.late_fee,
        pay_type_ch: PAY_TYPE_CH[r.pay_type],
        cashier_name: r.cashier_name,
        create_time: wireTime(r.created_at),
        voided: r.status === 'V',
      })),
    };
  },
});

const financereport = defineMethod('financereport', {
  side: 'community',
  roles: ['financecount', 'feecount'],
  writes: false,
  summary: '财务报表：区间内各支付方式收款、预存、余额抵扣、退款（原路/余额）、优惠、滞纳金与净收款',
  async handler(ctx, input) {
    const from = sql<Date>`${input.start_date}::date`;
    const to = sql<Date>`${addDays(input.end_date, 1)}::date`;
    // the payments from their kept totals (totals.ts)
    const payments = paymentTotals(ctx.db, ctx.rid, input.start_date, input.end_date);
    const [byType, byMethod, sums, topups, refunds] = await Promise.all([
      payments
        .select(['pay_type', sql<number>`sum(payments)::int`.as('count'), money('paid_amount').as('amount')])
        .groupBy('pay_type')
        .having(sql`sum(payments)`, '<>', 0)
        .orderBy('pay_type')
        .execute(),
      ownWayTotals(ctx.db, ctx.rid, input.start_date, input.end_date),
      payments
        .select([
          money('paid_amount').as('collected'),
          money('balance_used').as('balance_used'),
          money('discount').as('discounts'),
          money('late_fee').as('late_fees'),
        ])
        .executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom('balance_ledger')
        .select(money('total_fee').as('topups'))
        .where('rid', '=', ctx.rid)
        .where('io_type', '=', 1)
        .where('feetype', '=', 'recharge')
        .where('orderid', 'like', 'TU%')
        .where('create_time', '>=', from)
        .where('create_time', '<', to)
        .executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom('fee_refunds')
        .select([money('cash_amount').as('cash'), money('balance_amount').as('balance')])
        .where('rid', '=', ctx.rid)
        .where('status', '=', 'Y')
        .where('approved_at', '>=', from)
        .where('approved_at', '<', to)
        .executeTakeFirstOrThrow(),
    ]);
    const net = toFen(sums.collected) + toFen(topups.topups) - toFen(refunds.cash);
    const counted = await countedPayTypes(ctx.db, ctx.rid);
    const isCounted = (t: PayTypeName) => counted.has(t);
    return {
      start_date: input.start_date,
      end_date: input.end_date,
      by_pay_type: byType.map((r) => ({
        ...r,
        label: payTypeLabel(r.pay_type, counted),
        counted: isCounted(r.pay_type) ? ('Y' as const) : ('N' as const),
        methods: byMethod
          .filter((m) => m.base === r.pay_type)
          .map((m) => ({ method_id: Number(m.id), name: m.name, count: m.count, amount: m.amount })),
      })),
      collected: sums.collected,
      counted_collected: fenToYuan(byType.filter((r) => isCounted(r.pay_type)).reduce((s, r) => s + toFen(r.amount), 0n)),
      topups: topups.topups,
      balance_used: sums.balance_used,
      refunds_cash: refunds.cash,
      refunds_balance: refunds.balance,
      discounts: sums.discounts,
      late_fees: sums.late_fees,
      net: fenToYuan(net),
    };
  },
});

/** This month's collection and the five buildings owing most: the home page's fee cards (and its first screen). */
export async function feeDashboard(db: Kysely<DB>, rid: number): Promise<FeeDashboard> {
  const month = today().slice(0, 7);
  const [c, top] = await Promise.all([
    collection(db, rid, { start_period: month, end_period: month }),
    // the five buildings first, then their titles: summed per room in the unpaid-bills index's
    // order (no sort), then per building, which at 50,000 rooms took 96 ms down to 67 ms against
    // one count(DISTINCT hid) per building, whose sort spilled to disk
    db
      .selectFrom(
        db
          .selectFrom(
            db
              .selectFrom('fee_bills as b')
              .select(['b.hid', sql<number>`min(b.bid)`.as('bid'), sql<string>`sum(b.fee)`.as('fee')])
              .where('b.rid', '=', rid)
              .where('b.status', '<>', 'Y')
              .groupBy('b.hid')
              .as('r'),
          )
          .select(['r.bid', sql<string>`sum(r.fee)`.as('arrears'), sql<number>`count(*)::int`.as('rooms')])
          .groupBy('r.bid')
          .orderBy(sql`sum(r.fee)`, 'desc')
          .orderBy('r.bid')
          .limit(5)
          .as('a'),
      )
      .innerJoin('buildings as bd', (j) => j.on('bd.rid', '=', rid).onRef('bd.id', '=', 'a.bid'))
      .select(['a.bid', 'bd.title as building_title', sql<string>`a.arrears::numeric(14,2)::text`.as('arrears'), 'a.rooms'])
      .orderBy(sql`a.arrears`, 'desc')
      .orderBy('a.bid')
      .execute(),
  ]);
  return { month, receivable: c.totals.receivable, received: c.totals.received, rate: c.totals.rate, top_arrears: top };
}

/** The roles that see a collection card of the home page. */
const HOME_FEE_ROLES = [
  ...new Set(HOME_CARDS.filter((c) => c.key === 'feesMonth' || c.key === 'feesArrears').flatMap((c) => c.roles ?? [])),
];

const feedashboard = defineMethod('feedashboard', {
  side: 'community',
  // who sees the home page's collection cards (contract/home.ts): not merchants, not stewards
  roles: HOME_FEE_ROLES,
  writes: false,
  summary: '首页收费卡片：本月账期的应收、实收、收缴率，欠费最多的楼栋',
  handler: (ctx) => feeDashboard(ctx.db, ctx.rid),
});

export const reportMethods = [
  feesCount,
  feesCountNopay,
  monthFeesMethod,
  paymentstatis,
  propertypaystatis,
  propertypaylog,
  financereport,
  feedashboard,
];
