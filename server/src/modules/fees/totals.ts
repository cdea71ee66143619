import { addDays } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';

export const TOTALS_FOLD = 'totals_fold';

/**
 * Totals a table's own statement triggers keep of it (migrations 024, 025): rows of changes per
 * group, only ever added, folded now and then. `keys` are the group's columns with the source's
 * expression for each, `sums` the summed columns with theirs (the first is the count).
 */
export interface KeptTotals {
  table:
    | 'fee_bill_totals'
    | 'fee_payment_totals'
    | 'fee_payment_method_totals'
    | 'fee_unpaid_totals'
    | 'fee_unpaid_fees'
    | 'fee_unpaid_owing'
    | 'fee_unpaid_units'
    | 'fee_unpaid_rooms'
    | 'fee_unpaid_property_rooms'
    | 'fee_unit_totals'
    | 'fee_line_totals'
    | 'fee_paydata_totals'
    | 'household_reach'
    | 'household_reach_counts'
    | 'repair_day_totals'
    | 'parking_income_temp'
    | 'parking_income_renewals'
    | 'parking_income_coupons'
    | 'invoice_wait_totals'
    | 'invoice_period_totals'
    | 'charge_day_totals';
  source:
    | 'fee_bills'
    | 'fee_payments'
    | 'fee_payment_items'
    | 'room_members'
    | 'rooms'
    | 'repair_tickets'
    | 'parking_renewals'
    | 'parking_coupon_orders'
    | 'charge_orders';
  /** the source's rows as a FROM clause, when read with others (the keys' expressions name its aliases) */
  from?: string;
  keys: Record<string, string>;
  sums: Record<string, string>;
  /** the source's rows counted, when not all (a condition in SQL) */
  counted?: string;
  /** kept one row a group, updated in place under the row's lock (not added to): never folded */
  inPlace?: true;
}

/** The receipts taken by the group's own payment ways (not voided), per day and way: 财务报表's split of a base (202612050400). */
export const PAY_METHOD_TOTALS: KeptTotals = {
  table: 'fee_payment_method_totals',
  source: 'fee_payments',
  counted: "status <> 'V' AND pay_method_id IS NOT NULL",
  keys: { rid: 'rid', day: 'created_at::date', pay_method_id: 'pay_method_id' },
  sums: { payments: 'count(*)', paid_amount: 'sum(paid_amount)' },
};

export const BILL_TOTALS: KeptTotals = {
  table: 'fee_bill_totals',
  source: 'fee_bills',
  keys: { rid: 'rid', period: 'period', item_id: 'item_id', cost_type: 'cost_type', status: 'status' },
  sums: { bills: 'count(*)', fee: 'sum(fee)' },
};

export const PAYMENT_TOTALS: KeptTotals = {
  table: 'fee_payment_totals',
  source: 'fee_payments',
  // a voided receipt (作废, 202611270145_payment_void.sql) took no money
  counted: "status <> 'V'",
  // the day in the session's time zone, the business one (migration 025)
  keys: { rid: 'rid', day: 'created_at::date', pay_type: 'pay_type', cashier_name: 'cashier_name' },
  sums: {
    payments: 'count(*)',
    paid_amount: 'sum(paid_amount)',
    balance_used: 'sum(balance_used)',
    discount: 'sum(discount)',
    late_fee: 'sum(late_fee)',
  },
};

/**
 * What a community owes today (202611290400_fee_unpaid_totals.sql): the unpaid bills per unit, cost
 * type, period, item, due date and fee (propertynopaycount), and per item, due date and fee
 * (regiondesktop). A group's bills share their late fee on any day, so the late fees, rounded per
 * bill, are its count times one bill's.
 */
export const UNPAID_TOTALS: KeptTotals = {
  table: 'fee_unpaid_totals',
  source: 'fee_bills',
  counted: "status <> 'Y'",
  keys: {
    rid: 'rid',
    bid: 'bid',
    tid: 'tid',
    cost_type: 'cost_type',
    period: 'period',
    item_id: 'item_id',
    due_date: 'due_date',
    fee: 'fee',
  },
  sums: { bills: 'count(*)' },
};

export const UNPAID_FEES: KeptTotals = {
  table: 'fee_unpaid_fees',
  source: 'fee_bills',
  counted: "status <> 'Y'",
  keys: { rid: 'rid', item_id: 'item_id', due_date: 'due_date', fee: 'fee' },
  sums: { bills: 'count(*)' },
};

/** The rooms that owe, in the community and per unit (their property bills): counted, not summed. */
export const UNPAID_OWING: KeptTotals = {
  table: 'fee_unpaid_owing',
  source: 'fee_bills',
  counted: "status <> 'Y'",
  keys: { rid: 'rid' },
  sums: { rooms: 'count(DISTINCT hid)' },
};

export const UNPAID_UNITS: KeptTotals = {
  table: 'fee_unpaid_units',
  source: 'fee_bills',
  counted: "status <> 'Y' AND cost_type = 'property'",
  keys: { rid: 'rid', bid: 'bid', tid: 'tid' },
  sums: { rooms: 'count(DISTINCT hid)' },
};

/** Each room's unpaid bills, counted in place (a row a room, never folded): what the counts of rooms follow. */
export const UNPAID_ROOMS: KeptTotals = {
  table: 'fee_unpaid_rooms',
  source: 'fee_bills',
  counted: "status <> 'Y'",
  keys: { rid: 'rid', hid: 'hid' },
  sums: { bills: 'count(*)' },
  inPlace: true,
};

export const UNPAID_PROPERTY_ROOMS: KeptTotals = {
  table: 'fee_unpaid_property_rooms',
  source: 'fee_bills',
  counted: "status <> 'Y' AND cost_type = 'property'",
  keys: { rid: 'rid', hid: 'hid', bid: 'bid', tid: 'tid' },
  sums: { bills: 'count(*)' },
  inPlace: true,
};

/**
 * 物业费收缴统计's figures (202611290410_fee_unit_totals.sql): the bills per unit, cost type, period and
 * status, and the receipt lines not refunded per their bill's unit, cost type, the month of their
 * receipt (business time zone) and their period.
 */
export const UNIT_TOTALS: KeptTotals = {
  table: 'fee_unit_totals',
  source: 'fee_bills',
  keys: { rid: 'rid', bid: 'bid', tid: 'tid', cost_type: 'cost_type', period: 'period', status: 'status' },
  sums: { bills: 'count(*)', fee: 'sum(fee)' },
};

export const LINE_TOTALS: KeptTotals = {
  table: 'fee_line_totals',
  source: 'fee_payment_items',
  from: 'fee_payment_items l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id',
  counted: "l.refunded = 'N'",
  keys: {
    rid: 'l.rid',
    bid: 'b.bid',
    tid: 'b.tid',
    cost_type: 'l.cost_type',
    month: "date_trunc('month', p.created_at)::date",
    period: 'l.period',
  },
  sums: { lines: 'count(*)', fee: 'sum(l.fee)' },
};

/**
 * 缴费明细's totals (202612031200_fee_paydata_totals.sql): the receipt lines per day of their receipt
 * (business time zone), pay type, cashier, cost type, bill item (0: no bill) and voided or not.
 */
export const PAYDATA_TOTALS: KeptTotals = {
  table: 'fee_paydata_totals',
  source: 'fee_payment_items',
  from: 'fee_payment_items l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id',
  keys: {
    rid: 'l.rid',
    day: 'p.created_at::date',
    pay_type: 'p.pay_type',
    cashier_name: 'p.cashier_name',
    cost_type: 'l.cost_type',
    item_id: 'coalesce(b.item_id, 0)',
    voided: "p.status = 'V'",
  },
  sums: { lines: 'count(*)', fee: 'sum(l.fee)', discount: 'sum(l.discount)', late_fee: 'sum(l.late_fee)' },
};

/** A resident is bound (reachable in the app or WeChat), as a notice's reach counts them. */
const BOUND = "(m.app_isbind = 'Y' OR m.wx_isbind = 'Y')";

/**
 * Who a notice would reach (202611300500_household_reach.sql): each room's current residents by
 * relation and the bound ones among them, counted in place; and the community's rooms and the
 * households with residents (all, owners, tenants) and with a bound one, added to.
 */
export const HOUSEHOLD_REACH: KeptTotals = {
  table: 'household_reach',
  source: 'room_members',
  from: 'room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id',
  counted: "rm.status = 'Y'",
  keys: { rid: 'rm.rid', hid: 'rm.hid' },
  sums: {
    owners: "count(*) FILTER (WHERE rm.relation = 'owner')",
    owners_app: `count(*) FILTER (WHERE rm.relation = 'owner' AND ${BOUND})`,
    family: "count(*) FILTER (WHERE rm.relation = 'family')",
    family_app: `count(*) FILTER (WHERE rm.relation = 'family' AND ${BOUND})`,
    tenants: "count(*) FILTER (WHERE rm.relation = 'tenant')",
    tenants_app: `count(*) FILTER (WHERE rm.relation = 'tenant' AND ${BOUND})`,
  },
  inPlace: true,
};

export const HOUSEHOLD_REACH_COUNTS: KeptTotals = {
  table: 'household_reach_counts',
  source: 'rooms',
  from: "rooms r LEFT JOIN room_members rm ON rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y' LEFT JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id",
  keys: { rid: 'r.rid' },
  sums: {
    rooms: 'count(DISTINCT r.id)',
    households: 'count(DISTINCT rm.hid)',
    app: `count(DISTINCT rm.hid) FILTER (WHERE ${BOUND})`,
    owners: "count(DISTINCT rm.hid) FILTER (WHERE rm.relation = 'owner')",
    owners_app: `count(DISTINCT rm.hid) FILTER (WHERE rm.relation = 'owner' AND ${BOUND})`,
    tenants: "count(DISTINCT rm.hid) FILTER (WHERE rm.relation = 'tenant')",
    tenants_app: `count(DISTINCT rm.hid) FILTER (WHERE rm.relation = 'tenant' AND ${BOUND})`,
  },
};

/**
 * 报修统计's figures (202611300502_repair_day_totals.sql): each ticket's events (registered, finished,
 * breached, accepted, rated) per business day, type and handler, as repaircount defines them.
 */
/** The charging piles' settled sessions, energy and income per end day and pile: 充电报表 (202612052100). */
export const CHARGE_DAY_TOTALS: KeptTotals = {
  table: 'charge_day_totals',
  source: 'charge_orders',
  counted: "state IN ('done', 'check', 'checked') AND end_at IS NOT NULL",
  keys: { rid: 'rid', day: 'end_at::date', charger_id: 'charger_id' },
  sums: { sessions: 'count(*)', wh: 'sum(coalesce(end_wh - start_wh, 0))', income: 'sum(coalesce(amount, 0))' },
};

export const REPAIR_DAY_TOTALS: KeptTotals = {
  table: 'repair_day_totals',
  source: 'repair_tickets',
  from: `repair_tickets t CROSS JOIN LATERAL (VALUES ('created', t.created_at), ('finished', t.finished_at),
    ('overdue', least(t.accept_breached_at, t.finish_breached_at)), ('accepted', t.accepted_at), ('rated', t.rated_at)) e(kind, at)`,
  counted: 'e.at IS NOT NULL',
  keys: { rid: 't.rid', day: 'e.at::date', type_id: 't.type_id', handler_id: 'coalesce(t.handler_id, 0)', handler_name: 't.handler_name' },
  sums: {
    events: 'count(*)',
    created: "count(*) FILTER (WHERE e.kind = 'created')",
    finished: "count(*) FILTER (WHERE e.kind = 'finished')",
    ontime:
      "count(*) FILTER (WHERE e.kind = 'finished' AND t.finish_breached_at IS NULL AND t.finished_at <= t.finish_by + make_interval(secs => t.paused_seconds))",
    overdue: "count(*) FILTER (WHERE e.kind = 'overdue')",
    accept_n: "count(*) FILTER (WHERE e.kind = 'accepted' AND t.dispatched_at IS NOT NULL)",
    accept_s:
      "coalesce(sum(greatest(0, extract(epoch FROM t.accepted_at - t.dispatched_at))) FILTER (WHERE e.kind = 'accepted' AND t.dispatched_at IS NOT NULL), 0)",
    finish_s:
      "coalesce(sum(greatest(0, extract(epoch FROM t.finished_at - t.created_at) - t.paused_seconds)) FILTER (WHERE e.kind = 'finished'), 0)",
    rated: "count(*) FILTER (WHERE e.kind = 'rated' AND t.rate_overall > 0)",
    rate_sum: "coalesce(sum(t.rate_overall) FILTER (WHERE e.kind = 'rated' AND t.rate_overall > 0), 0)",
    good: "count(*) FILTER (WHERE e.kind = 'rated' AND t.rate_overall >= 4)",
  },
};

/**
 * Parking income per business day and lot (202611300600_parking_reports.sql): the receipts that pay
 * a temporary stay (临时停车费, not voided), the monthly renewals, the coupons merchants bought.
 */
export const PARKING_TEMP_INCOME: KeptTotals = {
  table: 'parking_income_temp',
  source: 'fee_payments',
  from: 'fee_payments p JOIN parking_records s ON s.rid = p.rid AND s.id = p.stay_id',
  counted: "p.status <> 'V'",
  keys: { rid: 'p.rid', day: 'p.created_at::date', lot_id: 's.lot_id' },
  sums: { receipts: 'count(*)', amount: 'sum(p.paid_amount)' },
};

export const PARKING_RENEWAL_INCOME: KeptTotals = {
  table: 'parking_income_renewals',
  source: 'parking_renewals',
  keys: { rid: 'rid', day: 'created_at::date', lot_id: 'lot_id' },
  sums: { renewals: 'count(*)', amount: 'sum(amount)' },
};

export const PARKING_COUPON_INCOME: KeptTotals = {
  table: 'parking_income_coupons',
  source: 'parking_coupon_orders',
  from: 'parking_coupon_orders o JOIN parking_coupons c ON c.rid = o.rid AND c.id = o.coupon_id',
  keys: { rid: 'o.rid', day: 'o.created_at::date', lot_id: 'c.lot_id' },
  sums: { orders: 'count(*)', quantity: 'sum(o.quantity)', amount: 'sum(o.amount)' },
};

/**
 * 待开票's count and sums (202612010100_invoice_wait_totals.sql): the receipt lines waiting to be
 * invoiced, per their bill's building and item, cost type and receipt's payment method.
 */
export const INVOICE_WAIT_TOTALS: KeptTotals = {
  table: 'invoice_wait_totals',
  source: 'fee_payment_items',
  from: 'fee_payment_items l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id',
  counted: 'invoice_line_waits(l, p.status::text)',
  keys: { rid: 'l.rid', bid: 'b.bid', item_id: 'b.item_id', cost_type: 'l.cost_type', pay_type: 'p.pay_type::text' },
  sums: { lines: 'count(*)', received: 'sum(l.fee + l.late_fee - l.discount)', invoiced: 'sum(l.invoiced)' },
};

/**
 * 收费统计's 已开票 (202612010120_invoice_period_totals.sql): what invoices cover of the receipt lines,
 * per their bill's item, cost type and period.
 */
export const INVOICE_PERIOD_TOTALS: KeptTotals = {
  table: 'invoice_period_totals',
  source: 'fee_payment_items',
  from: 'fee_payment_items l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id',
  counted: 'l.invoiced <> 0',
  keys: { rid: 'l.rid', item_id: 'b.item_id', cost_type: 'b.cost_type', period: 'b.period' },
  sums: { lines: 'count(*)', invoiced: 'sum(l.invoiced)' },
};

/** The kept totals of the bills that are folded, as after a bill generation. */
export const BILL_KEPT = [BILL_TOTALS, UNPAID_TOTALS, UNPAID_FEES, UNPAID_OWING, UNPAID_UNITS, UNIT_TOTALS];

/** Every kept total, checked against its table (test/keptData.ts); those not `inPlace` are folded daily. */
export const KEPT_TOTALS = [
  BILL_TOTALS,
  PAYMENT_TOTALS,
  PAY_METHOD_TOTALS,
  UNPAID_TOTALS,
  UNPAID_FEES,
  UNPAID_OWING,
  UNPAID_UNITS,
  UNPAID_ROOMS,
  UNPAID_PROPERTY_ROOMS,
  UNIT_TOTALS,
  LINE_TOTALS,
  PAYDATA_TOTALS,
  HOUSEHOLD_REACH,
  HOUSEHOLD_REACH_COUNTS,
  REPAIR_DAY_TOTALS,
  PARKING_TEMP_INCOME,
  PARKING_RENEWAL_INCOME,
  PARKING_COUPON_INCOME,
  INVOICE_WAIT_TOTALS,
  INVOICE_PERIOD_TOTALS,
  CHARGE_DAY_TOTALS,
];

/**
 * The bills' count and fees per period, item and status over a range of periods, from their kept
 * totals instead of the bills: a year of a community's bills is a few hundred rows there, against
 * a million bills. Groups whose bills were all deleted are left out, as they have no bills.
 */
export function billTotals(
  db: Kysely<DB>,
  rid: number,
  f: { start_period: string; end_period: string; cost_type?: string | undefined; itemid?: number | undefined },
) {
  let q = db
    .selectFrom('fee_bill_totals as t')
    .select(['t.item_id', 't.period', 't.status', sql<string>`sum(t.bills)`.as('n'), sql<string>`sum(t.fee)`.as('fee')])
    .where('t.rid', '=', rid)
    .where('t.period', '>=', f.start_period)
    .where('t.period', '<=', f.end_period);
  if (f.cost_type) q = q.where('t.cost_type', '=', f.cost_type);
  if (f.itemid) q = q.where('t.item_id', '=', f.itemid);
  return q.groupBy(['t.period', 't.item_id', 't.status']).having(sql`sum(t.bills)`, '<>', 0);
}

/**
 * What each of the group's own ways took from `start` to `end` (business days, both included), by
 * its current name and base, in the group's order, from their kept totals (PAY_METHOD_TOTALS): the
 * receipts taken by an own way and not voided.
 */
export function ownWayTotals(db: Kysely<DB>, rid: number, start: string, end: string) {
  return db
    .selectFrom('fee_payment_method_totals as t')
    .innerJoin('pay_methods as m', 'm.id', 't.pay_method_id')
    .select(['m.id', 'm.name', 'm.base'])
    .select(sql<number>`sum(t.payments)::int`.as('count'))
    .select(sql<string>`coalesce(sum(t.paid_amount), 0)::numeric(14,2)::text`.as('amount'))
    .where('t.rid', '=', rid)
    .where('t.day', '>=', sql<string>`${start}::date`)
    .where('t.day', '<', sql<string>`${addDays(end, 1)}::date`)
    .groupBy(['m.id', 'm.name', 'm.base', 'm.sort'])
    .having(sql`sum(t.payments)`, '<>', 0)
    .orderBy('m.sort')
    .orderBy('m.id')
    .execute();
}

/**
 * The kept totals of the payments made from `start` to `end` (business days, both included): a
 * year of a community's payments is a few thousand rows there, against hundreds of thousands.
 */
export function paymentTotals(db: Kysely<DB>, rid: number, start: string, end: string) {
  return db
    .selectFrom('fee_payment_totals as t')
    .where('t.rid', '=', rid)
    .where('t.day', '>=', sql<string>`${start}::date`)
    .where('t.day', '<', sql<string>`${addDays(end, 1)}::date`);
}

/**
 * Folds kept totals into one row per group, of one community or of all. One statement: the rows
 * it reads are deleted and their sums written back together, while rows other transactions add
 * meanwhile stay as they are for the next fold. Answers how many rows it read.
 */
export async function foldTotals(db: Kysely<DB>, kept: KeptTotals, rid?: number): Promise<number> {
  const keys = sql.join(Object.keys(kept.keys).map((k) => sql.id(k)));
  const sums = Object.keys(kept.sums);
  const res = await sql<{ folded: number }>`
    WITH gone AS (DELETE FROM ${sql.table(kept.table)} ${rid === undefined ? sql`` : sql`WHERE rid = ${rid}`}
      RETURNING ${keys}, ${sql.join(sums.map((s) => sql.id(s)))}),
    folded AS (INSERT INTO ${sql.table(kept.table)} (${keys}, ${sql.join(sums.map((s) => sql.id(s)))})
      SELECT ${keys}, ${sql.join(sums.map((s) => sql`sum(${sql.id(s)})`))} FROM gone GROUP BY ${keys}
      HAVING ${sql.join(
        sums.map((s) => sql`sum(${sql.id(s)}) <> 0`),
        sql` OR `,
      )})
    SELECT count(*)::int AS folded FROM gone`.execute(db);
  return res.rows[0]?.folded ?? 0;
}

// the day's payments add a few rows each; whichever server process sees the day first folds them
registerDailyJob(TOTALS_FOLD, {});
registerJobKind(TOTALS_FOLD, async (ctx) => {
  const folded: Record<string, number> = {};
  for (const kept of KEPT_TOTALS) if (!kept.inPlace) folded[kept.table] = await foldTotals(ctx.db, kept);
  return folded;
});
