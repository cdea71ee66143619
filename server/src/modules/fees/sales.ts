/**
 * 营收报表 (salesreports) and 订单报表 (orderlistreport), docs/product.md#sales-reports: the money
 * received in a range of business days by business line (contract/src/fees/sales.ts says what each
 * line counts), and every order that took it. Each source is read by (rid, time) for the range
 * (migration 202612021700); the fee receipts' sums come from their kept totals (totals.ts), as
 * 财务报表 reads them, so the two reports agree to the fen. A line of a module closed in the
 * community (session.modulesOff) is neither read nor shown.
 */
import {
  addDays,
  addMonths,
  daysBetween,
  enumText,
  fenToYuan,
  ORDER_STATUS,
  SALES_LINE,
  SALES_LINE_DEFS,
  SALES_LINES,
  SALES_REPORT_ROLES,
  toFen,
  type OrderRow,
  type OrderStatus,
  type PayTypeName,
  type SalesFigures,
  type SalesGrain,
  type SalesGrainRow,
  type SalesLine,
  type SalesReport,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, sheetOf } from '../../lib/excel.js';
import { fail } from '../../http/errors.js';
import { likePattern, prefixPattern } from '../../lib/like.js';
import { today, wireTime } from '../../lib/wire.js';
import { roomsAddressed } from '../owners/access.js';
import { receiptKeyword } from './payments.js';
import { payTypeLabel } from './reports.js';
import { countedPayTypes } from '../leader/paytypes.js';
import { paymentTotals } from './totals.js';

type Range = readonly [string, string];

/** The range asked, or this month up to today. */
export function salesRange(input: { start_date?: string | undefined; end_date?: string | undefined }): Range {
  if (input.start_date && input.end_date) return [input.start_date, input.end_date];
  const day = today();
  return [`${day.slice(0, 7)}-01`, day];
}

/** The lines of the community's open modules. */
export function openLines(modulesOff: readonly string[]): SalesLine[] {
  return SALES_LINES.filter((l) => !modulesOff.includes(SALES_LINE_DEFS[l].module));
}

/** "`col` falls on business days [from, to]": half-open instants, an index on the column serves it. */
const within = (col: string, [from, to]: Range) =>
  sql<SqlBool>`${sql.ref(col)} >= ${from}::date AND ${sql.ref(col)} < ${addDays(to, 1)}::date`;
const dayOf = (col: string) => sql<string>`to_char(${sql.ref(col)}, 'YYYY-MM-DD')`;
const moneyText = (e: RawBuilder<unknown>) => sql<string>`coalesce(${e}, 0)::numeric(14,2)::text`;

/** One source's money of a day and payment method: orders taken, money taken, money returned. */
interface DayMoney {
  day: string;
  pay_type: string;
  n: number;
  received: string;
  refunded: string;
}

/** Each line's money per business day of the range, read side by side. */
async function daysOfLines(db: Kysely<DB>, rid: number, range: Range, lines: SalesLine[]): Promise<Map<SalesLine, DayMoney[]>> {
  const [start, end] = range;
  const readers: Record<SalesLine, () => Promise<DayMoney[]>> = {
    // the receipts from their kept totals (as 财务报表 and 收款统计), the cash refunds approved in the range
    fee: async () => {
      const [paid, refunds] = await Promise.all([
        paymentTotals(db, rid, start, end)
          .select([
            sql<string>`to_char(t.day, 'YYYY-MM-DD')`.as('day'),
            sql<string>`t.pay_type::text`.as('pay_type'),
            sql<number>`coalesce(sum(t.payments), 0)::int`.as('n'),
            moneyText(sql`sum(t.paid_amount)`).as('received'),
          ])
          .groupBy([sql`1`, sql`2`])
          .execute(),
        db
          .selectFrom('fee_refunds as f')
          .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'f.rid').onRef('p.id', '=', 'f.payment_id'))
          .select([
            dayOf('f.approved_at').as('day'),
            sql<string>`p.pay_type::text`.as('pay_type'),
            moneyText(sql`sum(f.cash_amount)`).as('refunded'),
          ])
          .where('f.rid', '=', rid)
          .where('f.status', '=', 'Y')
          .where(within('f.approved_at', range))
          .groupBy([sql`1`, sql`2`])
          .execute(),
      ]);
      return [
        ...paid.map((r) => ({ day: r.day, pay_type: r.pay_type, n: Number(r.n), received: r.received, refunded: '0.00' })),
        ...refunds.map((r) => ({ day: r.day, pay_type: r.pay_type, n: 0, received: '0.00', refunded: r.refunded })),
      ];
    },
    // the cashier's top-ups of an owner's balance (prepay.ts: orderid TU…), as 财务报表 counts them
    topup: async () => {
      const rows = await db
        .selectFrom('balance_ledger')
        .select([
          dayOf('create_time').as('day'),
          sql<string>`paytype::text`.as('pay_type'),
          sql<number>`count(*)::int`.as('n'),
          moneyText(sql`sum(total_fee)`).as('received'),
        ])
        .where('rid', '=', rid)
        .where(within('create_time', range))
        .where('io_type', '=', 1)
        .where('feetype', '=', 'recharge')
        .where('orderid', 'like', 'TU%')
        .groupBy([sql`1`, sql`2`])
        .execute();
      return rows.map((r) => ({ ...r, n: Number(r.n), refunded: '0.00' }));
    },
    // the parking desk's renewals (a cashier's renewal is a paid parking bill: a fee receipt) and coupons sold
    parking: async () => {
      const [renewals, coupons] = await Promise.all([
        db
          .selectFrom('parking_renewals')
          .select([
            dayOf('created_at').as('day'),
            sql<string>`pay_type::text`.as('pay_type'),
            sql<number>`count(*)::int`.as('n'),
            moneyText(sql`sum(amount)`).as('received'),
          ])
          .where('rid', '=', rid)
          .where(within('created_at', range))
          .where('source', '=', 'D')
          .groupBy([sql`1`, sql`2`])
          .execute(),
        db
          .selectFrom('parking_coupon_orders')
          .select([
            dayOf('created_at').as('day'),
            sql<string>`pay_type::text`.as('pay_type'),
            sql<number>`count(*)::int`.as('n'),
            moneyText(sql`sum(amount)`).as('received'),
          ])
          .where('rid', '=', rid)
          .where(within('created_at', range))
          .groupBy([sql`1`, sql`2`])
          .execute(),
      ]);
      return [...renewals, ...coupons].map((r) => ({ ...r, n: Number(r.n), refunded: '0.00' }));
    },
    // recharges made in the range (paid part), refunds approved in it: as 会员卡流水 counts them
    card: async () => {
      const [made, refunds] = await Promise.all([
        db
          .selectFrom('card_recharges')
          .select([
            dayOf('created_at').as('day'),
            sql<string>`pay_type::text`.as('pay_type'),
            sql<number>`count(*)::int`.as('n'),
            moneyText(sql`sum(paid_amount)`).as('received'),
          ])
          .where('rid', '=', rid)
          .where(within('created_at', range))
          .groupBy([sql`1`, sql`2`])
          .execute(),
        db
          .selectFrom('card_recharges')
          .select([
            dayOf('decided_at').as('day'),
            sql<string>`pay_type::text`.as('pay_type'),
            moneyText(sql`sum(paid_amount)`).as('refunded'),
          ])
          .where('rid', '=', rid)
          .where('status', '=', 'R')
          .where(within('decided_at', range))
          .groupBy([sql`1`, sql`2`])
          .execute(),
      ]);
      return [
        ...made.map((r) => ({ day: r.day, pay_type: r.pay_type, n: Number(r.n), received: r.received, refunded: '0.00' })),
        ...refunds.map((r) => ({ day: r.day, pay_type: r.pay_type, n: 0, received: '0.00', refunded: r.refunded })),
      ];
    },
  };
  const read = await Promise.all(lines.map((l) => readers[l]()));
  return new Map(lines.map((l, i) => [l, read[i]!]));
}

/** The days or months of the range, in order. */
function grainKeys([start, end]: Range, grain: SalesGrain): string[] {
  const keys: string[] = [];
  if (grain === 'day') {
    const n = daysBetween(start, end);
    for (let i = 0; i <= n; i += 1) keys.push(addDays(start, i));
  } else {
    for (let m = `${start.slice(0, 7)}-01`; m.slice(0, 7) <= end.slice(0, 7); m = addMonths(m, 1)) keys.push(m.slice(0, 7));
  }
  return keys;
}

interface Fen {
  n: number;
  received: bigint;
  refunded: bigint;
  /** the net of the payment methods counted in received */
  counted: bigint;
}
const figures = (f: Fen): SalesFigures => ({
  count: f.n,
  received: fenToYuan(f.received),
  refunded: fenToYuan(f.refunded),
  net: fenToYuan(f.received - f.refunded),
  counted_net: fenToYuan(f.counted),
});

export async function salesReport(
  db: Kysely<DB>,
  rid: number,
  modulesOff: readonly string[],
  input: { start_date?: string | undefined; end_date?: string | undefined; grain: SalesGrain },
): Promise<SalesReport> {
  const range = salesRange(input);
  const lines = openLines(modulesOff);
  const [byLine, counted] = await Promise.all([daysOfLines(db, rid, range, lines), countedPayTypes(db, rid)]);
  const keys = grainKeys(range, input.grain);
  const cut = input.grain === 'day' ? 10 : 7;
  const grid = new Map(keys.map((k) => [k, new Map<SalesLine, bigint>()]));
  const all: Fen = { n: 0, received: 0n, refunded: 0n, counted: 0n };
  const lineRows = lines.map((line) => {
    const f: Fen = { n: 0, received: 0n, refunded: 0n, counted: 0n };
    for (const d of byLine.get(line) ?? []) {
      const got = toFen(d.received);
      const back = toFen(d.refunded);
      f.n += d.n;
      f.received += got;
      f.refunded += back;
      if (counted.has(d.pay_type as PayTypeName)) f.counted += got - back;
      const cell = grid.get(d.day.slice(0, cut));
      if (cell) cell.set(line, (cell.get(line) ?? 0n) + got - back);
    }
    all.n += f.n;
    all.received += f.received;
    all.refunded += f.refunded;
    all.counted += f.counted;
    return { line, label: SALES_LINE[line].text, ...figures(f) };
  });
  const rows: SalesGrainRow[] = keys.map((key) => {
    const cell = grid.get(key)!;
    const nets: Partial<Record<SalesLine, string>> = {};
    let total = 0n;
    for (const line of lines) {
      const v = cell.get(line) ?? 0n;
      nets[line] = fenToYuan(v);
      total += v;
    }
    return { key, nets, total: fenToYuan(total) };
  });
  return { start_date: range[0], end_date: range[1], grain: input.grain, lines: lineRows, total: figures(all), rows };
}

const salesreports = defineMethod('salesreports', {
  side: 'community',
  roles: [...SALES_REPORT_ROLES],
  writes: false,
  summary:
    '营收报表：日期区间内按业务（物业收费、预存充值、停车收费、会员卡充值；未开通模块的不列）的笔数、收款、退款、净收入、计入实收（集团支付方式中计入实收的方式的净收入）与合计，以及按日或按月的各业务净收入',
  handler: (ctx, input) => salesReport(ctx.db, ctx.rid, ctx.session.modulesOff, input),
});

const salesreportsexport = defineExport('salesreportsexport', {
  roles: [...SALES_REPORT_ROLES],
  summary: '导出营收报表为 Excel：各业务汇总与按日或按月的各业务净收入，字段同 salesreports',
  filename(input) {
    const [s, e] = salesRange(input);
    return `营收报表_${s}_${e}.xlsx`;
  },
  async sheet({ db, rid }, input) {
    const off = await modulesOffOf(db, rid);
    const r = await salesReport(db, rid, off, input);
    type Row = { key: string; values: string[] };
    const lines = r.lines.map((l) => l.line);
    const rows: Row[] = [
      ...r.lines.map((l) => ({ key: l.label, values: [String(l.count), l.received, l.refunded, l.net, l.counted_net] })),
      { key: '合计', values: [String(r.total.count), r.total.received, r.total.refunded, r.total.net, r.total.counted_net] },
      { key: '', values: [] },
      { key: input.grain === 'day' ? '日期' : '月份', values: [...lines.map((l) => `${SALES_LINE[l].text}净收入`), '合计'] },
      ...r.rows.map((g) => ({ key: g.key, values: [...lines.map((l) => g.nets[l] ?? '0.00'), g.total] })),
      {
        key: '合计',
        values: [...r.lines.map((l) => l.net), r.total.net],
      },
    ];
    const width = Math.max(5, lines.length + 1);
    return sheetOf(
      '营收报表',
      [
        { header: '业务', value: (x: Row) => x.key },
        ...Array.from({ length: width }, (_, i) => ({
          header: ['笔数', '收款', '退款', '净收入', '计入实收'][i] ?? '',
          value: (x: Row) => x.values[i] ?? '',
        })),
      ],
      rows,
    );
  },
});

/** The modules closed in a community, for a job that has no session. */
async function modulesOffOf(db: Kysely<DB>, rid: number): Promise<string[]> {
  const r = await db.selectFrom('regions').select('modules_off').where('id', '=', rid).executeTakeFirst();
  return r?.modules_off ?? [];
}

// ---------------------------------------------------------------------------------------------
// 订单报表

export interface OrderFilters {
  start_date?: string | undefined;
  end_date?: string | undefined;
  line?: SalesLine | '' | undefined;
  pay_type?: PayTypeName | '' | undefined;
  status?: OrderStatus | '' | undefined;
  counted?: 'Y' | 'N' | '' | undefined;
  keyword?: string | undefined;
}

/** The columns every source answers, in one order, for the UNION ALL. */
type Source = {
  line: SalesLine;
  /** the rows of the filtered set: select list and conditions (no order, no limit) */
  from: RawBuilder<unknown>;
  /** the time column, for the order and the limit */
  time: string;
  /** the id column, the order's tie-break */
  id: string;
  cols: RawBuilder<unknown>;
  /** amount and refunded, for the summary; voided orders' amounts are not counted */
  amount: RawBuilder<unknown>;
  refunded: RawBuilder<unknown>;
  voided: RawBuilder<unknown>;
  /** whether the order's payment method counts in received */
  counted: RawBuilder<SqlBool>;
};

const ONLINE = '线上';

/** The sources of the filters' lines, each with its conditions; a line that cannot match is left out. */
async function orderSources(
  db: Kysely<DB>,
  rid: number,
  modulesOff: readonly string[],
  f: OrderFilters,
  counted: ReadonlySet<string>,
): Promise<Source[]> {
  const range = salesRange(f);
  const lines = openLines(modulesOff).filter((l) => !f.line || f.line === l);
  const kw = f.keyword?.trim() ?? '';
  const st = f.status || '';
  const sources: Source[] = [];
  const and = (conds: Array<RawBuilder<SqlBool>>) => sql.join(conds, sql` AND `);
  // a source whose orders are all 已支付 (top-ups, parking) matches only that status
  const alwaysPaid = st === '' || st === 'Y';
  const payTypeIs = (col: string) => (f.pay_type ? sql<SqlBool>`${sql.ref(col)} = ${f.pay_type}` : sql<SqlBool>`true`);
  const countedBy = (col: string) =>
    counted.size ? sql<SqlBool>`${sql.ref(col)}::text IN (${sql.join([...counted].map((t) => sql`${t}`))})` : sql<SqlBool>`false`;
  // the payment method's filter and the 计入实收 one, on the source's method column
  const methodIs = (col: string) => {
    const conds = [payTypeIs(col)];
    if (f.counted === 'Y') conds.push(countedBy(col));
    if (f.counted === 'N') conds.push(sql<SqlBool>`NOT (${countedBy(col)})`);
    return sql<SqlBool>`(${and(conds)})`;
  };
  const membersNamed = (col: string) =>
    sql<SqlBool>`${sql.ref(col)} IN (SELECT m.id FROM members m WHERE m.rid = ${rid} AND (m.realname LIKE ${likePattern(kw)} OR m.mobile LIKE ${prefixPattern(kw)}))`;

  if (lines.includes('fee')) {
    const conds: Array<RawBuilder<SqlBool>> = [sql`p.rid = ${rid}`, within('p.created_at', range), methodIs('p.pay_type')];
    if (st) conds.push(sql`p.status = ${st}`);
    if (kw) conds.push(await receiptKeyword(db, rid, kw, { receiptNo: true }));
    sources.push({
      line: 'fee',
      from: sql`fee_payments p WHERE ${and(conds)}`,
      time: 'p.created_at',
      id: 'p.id',
      cols: sql`'fee' AS line, p.id, p.receipt_no AS order_no,
        coalesce((SELECT r.address FROM rooms r WHERE r.rid = p.rid AND r.id = p.hid),
                 (SELECT s.carno FROM parking_records s WHERE s.rid = p.rid AND s.id = p.stay_id), '') AS target,
        p.payer_name AS payer, p.pay_type, p.paid_amount AS amount, p.refunded_amount AS refunded, p.status::text AS status,
        coalesce(nullif(p.cashier_name, ''), ${ONLINE}) AS cashier, p.created_at AS at`,
      amount: sql`p.paid_amount`,
      refunded: sql`p.refunded_amount`,
      voided: sql`p.status = 'V'`,
      counted: countedBy('p.pay_type'),
    });
  }
  if (lines.includes('topup') && alwaysPaid) {
    const conds: Array<RawBuilder<SqlBool>> = [
      sql`b.rid = ${rid}`,
      within('b.create_time', range),
      sql`b.io_type = 1 AND b.feetype = 'recharge' AND b.orderid LIKE 'TU%'`,
      methodIs('b.paytype'),
    ];
    if (kw) {
      conds.push(sql`(b.orderid = ${kw} OR b.hid IN (${roomsAddressed(rid, kw)}) OR ${membersNamed('b.member_id')})`);
    }
    sources.push({
      line: 'topup',
      from: sql`balance_ledger b WHERE ${and(conds)}`,
      time: 'b.create_time',
      id: 'b.id',
      cols: sql`'topup' AS line, b.id, b.orderid AS order_no,
        coalesce((SELECT r.address FROM rooms r WHERE r.rid = b.rid AND r.id = b.hid), '') AS target,
        coalesce((SELECT m.realname FROM members m WHERE m.rid = b.rid AND m.id = b.member_id), '') AS payer,
        b.paytype AS pay_type, b.total_fee AS amount, 0::numeric AS refunded, 'Y' AS status,
        coalesce(nullif(b.create_user, ''), ${ONLINE}) AS cashier, b.create_time AS at`,
      amount: sql`b.total_fee`,
      refunded: sql`0`,
      voided: sql`false`,
      counted: countedBy('b.paytype'),
    });
  }
  if (lines.includes('parking') && alwaysPaid) {
    const renewal: Array<RawBuilder<SqlBool>> = [
      sql`n.rid = ${rid}`,
      within('n.created_at', range),
      sql`n.source = 'D'`,
      methodIs('n.pay_type'),
    ];
    if (kw) renewal.push(sql`(n.carlicense LIKE ${likePattern(kw.toUpperCase())} OR n.receipt_no = ${kw})`);
    sources.push({
      line: 'parking',
      from: sql`parking_renewals n WHERE ${and(renewal)}`,
      time: 'n.created_at',
      id: 'n.id',
      cols: sql`'parking' AS line, n.id, coalesce(nullif(n.receipt_no, ''), 'XF' || n.id) AS order_no, n.carlicense AS target,
        coalesce((SELECT m.realname FROM cars c JOIN members m ON m.rid = c.rid AND m.id = c.member_id
                  WHERE c.rid = n.rid AND c.id = n.car_id), '') AS payer,
        n.pay_type, n.amount, 0::numeric AS refunded, 'Y' AS status,
        coalesce(nullif(n.cashier_name, ''), ${ONLINE}) AS cashier, n.created_at AS at`,
      amount: sql`n.amount`,
      refunded: sql`0`,
      voided: sql`false`,
      counted: countedBy('n.pay_type'),
    });
    const coupon: Array<RawBuilder<SqlBool>> = [sql`o.rid = ${rid}`, within('o.created_at', range), methodIs('o.pay_type')];
    if (kw) {
      coupon.push(
        sql`(o.orderid = ${kw} OR o.merchant_id IN (SELECT x.id FROM merchants x WHERE x.rid = ${rid} AND x.merchant LIKE ${likePattern(kw)}))`,
      );
    }
    sources.push({
      line: 'parking',
      from: sql`parking_coupon_orders o WHERE ${and(coupon)}`,
      time: 'o.created_at',
      id: 'o.id',
      cols: sql`'parking' AS line, o.id, o.orderid AS order_no,
        '停车券 ' || coalesce((SELECT c.title FROM parking_coupons c WHERE c.rid = o.rid AND c.id = o.coupon_id), '') || ' ×' || o.quantity AS target,
        coalesce((SELECT x.merchant FROM merchants x WHERE x.rid = o.rid AND x.id = o.merchant_id), '') AS payer,
        o.pay_type, o.amount, 0::numeric AS refunded, 'Y' AS status,
        coalesce(nullif(o.operator, ''), ${ONLINE}) AS cashier, o.created_at AS at`,
      amount: sql`o.amount`,
      refunded: sql`0`,
      voided: sql`false`,
      counted: countedBy('o.pay_type'),
    });
  }
  if (lines.includes('card') && (st === '' || st === 'Y' || st === 'R')) {
    const conds: Array<RawBuilder<SqlBool>> = [sql`c.rid = ${rid}`, within('c.created_at', range), methodIs('c.pay_type')];
    if (st === 'R') conds.push(sql`c.status = 'R'`);
    if (st === 'Y') conds.push(sql`c.status <> 'R'`);
    if (kw) conds.push(sql`(c.order_no = ${kw} OR ${membersNamed('c.member_id')})`);
    sources.push({
      line: 'card',
      from: sql`card_recharges c WHERE ${and(conds)}`,
      time: 'c.created_at',
      id: 'c.id',
      cols: sql`'card' AS line, c.id, c.order_no,
        coalesce((SELECT '会员卡 ' || k.card_no FROM member_cards k WHERE k.rid = c.rid AND k.id = c.card_id), '') AS target,
        coalesce((SELECT m.realname FROM members m WHERE m.rid = c.rid AND m.id = c.member_id), '') AS payer,
        c.pay_type, c.paid_amount AS amount, CASE WHEN c.status = 'R' THEN c.paid_amount ELSE 0 END AS refunded,
        CASE WHEN c.status = 'R' THEN 'R' ELSE 'Y' END AS status,
        coalesce(nullif(c.operator, ''), ${ONLINE}) AS cashier, c.created_at AS at`,
      amount: sql`c.paid_amount`,
      refunded: sql`CASE WHEN c.status = 'R' THEN c.paid_amount ELSE 0 END`,
      voided: sql`false`,
      counted: countedBy('c.pay_type'),
    });
  }
  return sources;
}

interface OrderDbRow {
  line: SalesLine;
  id: string | number;
  order_no: string;
  target: string;
  payer: string;
  pay_type: string;
  amount: string;
  refunded: string;
  status: OrderStatus;
  cashier: string;
  at: Date;
}

/**
 * `take` orders from `skip` on, newest (or oldest) first: each source's first skip + take by its
 * (rid, time) index, merged and cut.
 */
async function orderRows(
  db: Kysely<DB>,
  sources: Source[],
  counted: ReadonlySet<string>,
  skip: number,
  take: number,
  dir: 'asc' | 'desc',
): Promise<OrderRow[]> {
  if (sources.length === 0) return [];
  const d = sql.raw(dir === 'asc' ? 'ASC' : 'DESC');
  const each = sources.map(
    (s) => sql`(SELECT ${s.cols} FROM ${s.from} ORDER BY ${sql.ref(s.time)} ${d}, ${sql.ref(s.id)} ${d} LIMIT ${sql.lit(skip + take)})`,
  );
  const res = await sql<OrderDbRow>`
    SELECT u.line, u.id, u.order_no, u.target, u.payer, u.pay_type, u.amount::numeric(14,2)::text AS amount,
           u.refunded::numeric(14,2)::text AS refunded, u.status, u.cashier, u.at
    FROM (${sql.join(each, sql` UNION ALL `)}) u
    ORDER BY u.at ${d}, u.line, u.id ${d} LIMIT ${sql.lit(take)} OFFSET ${sql.lit(skip)}`.execute(db);
  return res.rows.map((r) => ({
    key: `${r.line}-${r.order_no}-${r.id}`,
    order_no: r.order_no,
    line: r.line,
    line_ch: SALES_LINE[r.line].text,
    target: r.target,
    payer: r.payer,
    pay_type: r.pay_type,
    pay_type_ch: payTypeLabel(r.pay_type, counted),
    counted: counted.has(r.pay_type) ? 'Y' : 'N',
    amount: r.amount,
    refunded: r.refunded,
    status: r.status,
    status_ch: enumText(ORDER_STATUS, r.status),
    cashier: r.cashier,
    create_time: wireTime(r.at),
  }));
}

/**
 * The filtered set's orders, amounts (voided not counted), refunds, and the net of those paid by a
 * method counted in received, by one grouped count per source.
 */
async function orderSummary(db: Kysely<DB>, sources: Source[]) {
  if (sources.length === 0) return { count: 0, amount: '0.00', refunded: '0.00', counted_net: '0.00' };
  const each = sources.map(
    (s) =>
      sql`(SELECT count(*) AS n, coalesce(sum(${s.amount}) FILTER (WHERE NOT (${s.voided})), 0) AS amount,
           coalesce(sum(${s.refunded}), 0) AS refunded,
           coalesce(sum(${s.amount}) FILTER (WHERE NOT (${s.voided}) AND ${s.counted}), 0)
             - coalesce(sum(${s.refunded}) FILTER (WHERE ${s.counted}), 0) AS counted_net
         FROM ${s.from})`,
  );
  const res = await sql<{ n: number; amount: string; refunded: string; counted_net: string }>`
    SELECT coalesce(sum(n), 0)::int AS n, coalesce(sum(amount), 0)::numeric(14,2)::text AS amount,
           coalesce(sum(refunded), 0)::numeric(14,2)::text AS refunded,
           coalesce(sum(counted_net), 0)::numeric(14,2)::text AS counted_net
    FROM (${sql.join(each, sql` UNION ALL `)}) u`.execute(db);
  const r = res.rows[0]!;
  return { count: Number(r.n), amount: r.amount, refunded: r.refunded, counted_net: r.counted_net };
}

const orderlistreport = defineMethod('orderlistreport', {
  side: 'community',
  roles: [...SALES_REPORT_ROLES],
  writes: false,
  summary:
    '订单报表：日期区间（默认本月，最长一年）内各业务已收款的订单（收据、预存、停车续费与停车券、会员卡充值），按时间倒序分页；可按业务、支付方式、是否计入实收、状态、关键字（单号、房屋、车牌、付款人）筛选，附筛选结果的笔数、金额、退款与计入实收的净额',
  async handler(ctx, input) {
    const range = salesRange(input);
    const counted = await countedPayTypes(ctx.db, ctx.rid);
    const sources = await orderSources(ctx.db, ctx.rid, ctx.session.modulesOff, input, counted);
    const [items, summary] = await Promise.all([
      orderRows(ctx.db, sources, counted, (input.page - 1) * input.limit, input.limit, input.sort),
      orderSummary(ctx.db, sources),
    ]);
    return { items, total: summary.count, start_date: range[0], end_date: range[1], summary };
  },
});

const orderlistreportexport = defineExport('orderlistreportexport', {
  roles: [...SALES_REPORT_ROLES],
  summary: '导出订单报表为 Excel：筛选条件同 orderlistreport，最多 10 万行',
  filename(input) {
    const [s, e] = salesRange(input);
    return `订单报表_${s}_${e}.xlsx`;
  },
  async check({ db, rid }, input) {
    const sources = await orderSources(db, rid, await modulesOffOf(db, rid), input, await countedPayTypes(db, rid));
    const s = await orderSummary(db, sources);
    if (s.count > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    const counted = await countedPayTypes(db, rid);
    const sources = await orderSources(db, rid, await modulesOffOf(db, rid), input, counted);
    const rows = await orderRows(db, sources, counted, 0, EXPORT_MAX, 'desc');
    return sheetOf(
      '订单报表',
      [
        { header: '订单号/收据号', value: (r: OrderRow) => r.order_no, width: 24 },
        { header: '业务', value: (r: OrderRow) => r.line_ch },
        { header: '对象', value: (r: OrderRow) => r.target, width: 28 },
        { header: '付款人', value: (r: OrderRow) => r.payer },
        { header: '支付方式', value: (r: OrderRow) => r.pay_type_ch },
        { header: '计入实收', value: (r: OrderRow) => (r.counted === 'Y' ? '是' : '否') },
        { header: '金额', value: (r: OrderRow) => r.amount },
        { header: '退款', value: (r: OrderRow) => r.refunded },
        { header: '状态', value: (r: OrderRow) => r.status_ch },
        { header: '收款人', value: (r: OrderRow) => r.cashier },
        { header: '时间', value: (r: OrderRow) => r.create_time, width: 20 },
      ],
      rows,
    );
  },
});

export const salesMethods = [salesreports, salesreportsexport, orderlistreport, orderlistreportexport];
