/**
 * The member card reports (/feecounts; docs/product.md#card-reports): 会员卡流水 (cardlog), 优惠券核销
 * (card_verification) and 会员权益负债 (cardliability), each one statement grouped in SQL with exact
 * numeric sums. They read the orders, not the ledgers' rows: a recharge and its refund are
 * card_recharges (approved refunds on the day they were approved), a purchase and its refund are
 * counter_orders (the refund on its own day); a coupon's standing use is its member_coupons row, a
 * use given back by a refund lives on only in the refunded order (releaseCoupon clears the coupon).
 * Finance and the card managers read them; never a merchant account.
 */
import {
  CARD_REPORT_ROLES,
  COUPON_USE_STATUS,
  MEMBER_COUPON_KIND,
  PROPERTY_COUNTER,
  addDays,
  daysBetween,
  enumText,
  fenToYuan,
  toFen,
  type CardLiabilityFigures,
  type CardLiabilityRow,
  type CardLogFigures,
  type CardLogRow,
  type CouponUseFigures,
  type CouponUseRow,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { pageClause } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';

const roles = [...CARD_REPORT_ROLES];

/** A money sum as exact yuan text. */
const money = (expr: RawBuilder<unknown>) => sql<string>`coalesce(${expr}, 0)::numeric(14,2)::text`;

/** The range asked, or this month: [first day, last day]. */
function rangeOf(f: { start_date?: string | undefined; end_date?: string | undefined }): [string, string] {
  const day = today();
  const start = f.start_date || `${day.slice(0, 7)}-01`;
  const end = f.end_date || addDays(`${addDays(`${day.slice(0, 7)}-01`, 32).slice(0, 7)}-01`, -1);
  if (start > end) fail('开始日期不能晚于结束日期');
  if (daysBetween(start, end) > 366) fail('查询区间不能超过一年');
  return [start, end];
}

/** `column` falls within the business days [from, to] (the session runs in the business zone). */
const within = (column: string, [from, to]: [string, string]) =>
  sql`${sql.ref(column)} >= ${from}::date AND ${sql.ref(column)} < ${to}::date + 1`;

// ---------------------------------------------------------------- 会员卡流水

type CardLogInput = HandlerInput<'cardlog'>;

const GROUP_KEY = {
  day: sql`to_char(e.at, 'YYYY-MM-DD')`,
  merchant: sql`coalesce(e.merchant_id, 0)::text`,
  operator: sql`e.op`,
};

interface CardLogSums extends Omit<CardLogFigures, 'net_stored'> {
  g: string | null;
  total: number;
  merchant: string | null;
}

/**
 * The events of the range as one stream (k: R recharge, RR its approved refund, C a counter
 * purchase, CR its refund; a1… the kind's amounts), grouped by the key asked and in all
 * (GROUPING SETS): one statement, each table read through its (rid, time) index.
 */
export async function cardLog(db: Kysely<DB>, rid: number, f: CardLogInput) {
  const range = rangeOf(f);
  const zero = sql`0::numeric`;
  const filters = [sql`true`];
  if (f.merchant_id) filters.push(sql`e.merchant_id = ${f.merchant_id}`);
  if (f.operator) filters.push(sql`e.op = ${f.operator}`);
  const sum = (k: string, col: string) => money(sql`sum(${sql.ref(`e.${col}`)}) FILTER (WHERE e.k = ${k})`);
  const count = (k: string) => sql<number>`count(*) FILTER (WHERE e.k = ${k})::int`;
  const res = await sql<CardLogSums>`
    WITH e AS (
      SELECT 'R' AS k, r.created_at AS at, NULL::bigint AS merchant_id, r.operator AS op,
             r.paid_amount AS a1, r.bonus_amount AS a2, ${zero} AS a3, ${zero} AS a4, ${zero} AS a5, ${zero} AS a6
      FROM card_recharges r WHERE r.rid = ${rid} AND ${within('r.created_at', range)}
      UNION ALL
      SELECT 'RR', r.decided_at, NULL, coalesce(a.name, ''), r.paid_amount, r.bonus_amount, 0, 0, 0, 0
      FROM card_recharges r LEFT JOIN accounts a ON a.id = r.decided_by
      WHERE r.rid = ${rid} AND r.status = 'R' AND ${within('r.decided_at', range)}
      UNION ALL
      SELECT 'C', o.created_at, o.merchant_id, o.operator, o.amount, o.member_discount, o.coupon_discount, o.points_money,
             o.balance_paid, o.cash_paid
      FROM counter_orders o WHERE o.rid = ${rid} AND ${within('o.created_at', range)}
      UNION ALL
      SELECT 'CR', o.refunded_at, o.merchant_id, o.refunded_by, o.amount, 0, 0, 0, o.balance_paid, 0
      FROM counter_orders o WHERE o.rid = ${rid} AND o.status = 'R' AND ${within('o.refunded_at', range)}
    ), s AS (
      SELECT ${GROUP_KEY[f.group_by]} AS g, grouping(${GROUP_KEY[f.group_by]})::int AS total,
        ${count('R')} AS recharge_count, ${sum('R', 'a1')} AS recharge_paid, ${sum('R', 'a2')} AS recharge_bonus,
        ${count('RR')} AS recharge_refund_count, ${sum('RR', 'a1')} AS recharge_refund_paid, ${sum('RR', 'a2')} AS recharge_refund_bonus,
        ${count('C')} AS consume_count, ${sum('C', 'a1')} AS consume_amount, ${sum('C', 'a2')} AS member_discount,
        ${sum('C', 'a3')} AS coupon_discount, ${sum('C', 'a4')} AS points_money, ${sum('C', 'a5')} AS balance_paid,
        ${sum('C', 'a6')} AS cash_paid,
        ${count('CR')} AS consume_refund_count, ${sum('CR', 'a1')} AS consume_refund_amount, ${sum('CR', 'a5')} AS consume_refund_balance
      FROM e WHERE ${sql.join(filters, sql` AND `)}
      GROUP BY GROUPING SETS ((${GROUP_KEY[f.group_by]}), ())
    )
    SELECT s.*, ${f.group_by === 'merchant' ? sql`m.merchant` : sql`NULL::text`} AS merchant FROM s
    ${f.group_by === 'merchant' ? sql`LEFT JOIN merchants m ON m.rid = ${rid} AND m.id::text = s.g` : sql``}
    ORDER BY s.total, ${f.group_by === 'merchant' ? sql`s.g::bigint` : sql`s.g`}`.execute(db);
  const figures = ({ g: _g, total: _t, merchant: _m, ...r }: CardLogSums): CardLogFigures => ({
    ...r,
    net_stored: fenToYuan(
      toFen(r.recharge_paid) - toFen(r.recharge_refund_paid) - (toFen(r.balance_paid) - toFen(r.consume_refund_balance)),
    ),
  });
  const label = (r: CardLogSums) =>
    f.group_by === 'merchant'
      ? r.g === '0'
        ? PROPERTY_COUNTER
        : (r.merchant ?? r.g!)
      : f.group_by === 'operator'
        ? r.g || '（未记录）'
        : r.g!;
  const rows = res.rows;
  // the totals' row is always there (the empty grouping set), last
  const totals = rows.find((r) => r.total === 1)!;
  const items: CardLogRow[] = rows.filter((r) => r.total === 0).map((r) => ({ key: r.g ?? '', label: label(r), ...figures(r) }));
  return { start_date: range[0], end_date: range[1], group_by: f.group_by, items, totals: figures(totals) };
}

const cardlog = defineMethod('cardlog', {
  side: 'community',
  roles,
  writes: false,
  summary:
    '会员卡流水（默认本月）：按日、商户或操作人汇总充值（笔数、实付、赠送）、充值退款（笔数、退回实付、收回赠送）、会员消费（笔数、金额、会员折扣、优惠券、积分抵扣、余额、现金）、消费退款（笔数、金额、退回余额）与储值净额（充值实付 − 退款 − 余额消费净额），及合计',
  handler: (ctx, input) => cardLog(ctx.db, ctx.rid, input),
});

const CARDLOG_COLUMNS: Array<[string, keyof CardLogRow]> = [
  ['充值笔数', 'recharge_count'],
  ['充值实付', 'recharge_paid'],
  ['充值赠送', 'recharge_bonus'],
  ['充值退款笔数', 'recharge_refund_count'],
  ['退回实付', 'recharge_refund_paid'],
  ['收回赠送', 'recharge_refund_bonus'],
  ['消费笔数', 'consume_count'],
  ['消费金额', 'consume_amount'],
  ['会员折扣', 'member_discount'],
  ['优惠券', 'coupon_discount'],
  ['积分抵扣', 'points_money'],
  ['余额支付', 'balance_paid'],
  ['现金/扫码', 'cash_paid'],
  ['消费退款笔数', 'consume_refund_count'],
  ['消费退款金额', 'consume_refund_amount'],
  ['退回余额', 'consume_refund_balance'],
  ['储值净额', 'net_stored'],
];

/** A figure as a cell: counts as numbers, money as the number of its exact text. */
const cell = (v: unknown) => (typeof v === 'number' ? v : Number(v));

const cardlogexport = defineExport('cardlogexport', {
  roles,
  summary: '导出会员卡流水（Excel，筛选与分组同 cardlog，末行合计）',
  filename: (input) => `会员卡流水_${rangeOf(input).join('_')}.xlsx`,
  async check(_ctx, input) {
    rangeOf(input);
  },
  async sheet({ db, rid }, input) {
    const r = await cardLog(db, rid, input);
    const head = { day: '日期', merchant: '商户', operator: '操作人' }[r.group_by];
    return sheetOf<CardLogRow>(
      '会员卡流水',
      [
        { header: head, value: (x) => x.label, width: 16 },
        ...CARDLOG_COLUMNS.map(([header, k]) => ({ header, value: (x: CardLogRow) => cell(x[k]) })),
      ],
      [...r.items, { key: '', label: '合计', ...r.totals }],
    );
  },
});

// ---------------------------------------------------------------- 优惠券核销

type VerificationFilters = HandlerInput<'card_verification'>;

/**
 * The redemptions of the range as one stream: the coupons used in it that stand (member_coupons,
 * its used_at index), and the counter orders of the range that used a coupon and were refunded,
 * the coupon given back (found by its code, as redeemCoupon reads it).
 */
function couponUses(rid: number, f: VerificationFilters, range: [string, string]) {
  const filters = [sql`true`];
  if (f.merchant_id) filters.push(sql`u.merchant_id = ${f.merchant_id}`);
  if (f.template_id) filters.push(sql`u.template_id = ${f.template_id}`);
  return sql`
    (SELECT * FROM (
      SELECT 'u' || c.id AS key, c.used_at AS at, c.template_id, c.used_merchant_id AS merchant_id, c.member_id, c.code,
             c.used_order_no AS order_no, c.used_amount AS amount, c.discount, 'Y' AS status
      FROM member_coupons c WHERE c.rid = ${rid} AND c.status = 'Y' AND ${within('c.used_at', range)}
      UNION ALL
      SELECT 'r' || o.id, o.created_at, c.template_id, o.merchant_id, o.member_id, c.code, o.order_no,
             o.amount - o.member_discount, o.coupon_discount, 'R'
      FROM counter_orders o
      JOIN member_coupons c ON c.rid = o.rid AND c.code = upper(regexp_replace(o.coupon_code, '[[:space:]-]', '', 'g'))
      WHERE o.rid = ${rid} AND o.status = 'R' AND o.coupon_code <> '' AND ${within('o.created_at', range)}
    ) u WHERE ${sql.join(filters, sql` AND `)})`;
}

interface UseSums extends CouponUseFigures {
  day: string | null;
  template_id: number | null;
  merchant_id: number | null;
  /** grouping(): 1 when the row is not a day's */
  no_day: number;
  /** grouping(): 3 when the row is not a coupon and store's */
  no_group: number;
}

const useFigures = (r: UseSums): CouponUseFigures => ({
  used_count: r.used_count,
  released_count: r.released_count,
  order_amount: r.order_amount,
  discount: r.discount,
});

export async function cardVerification(db: Kysely<DB>, rid: number, f: VerificationFilters) {
  const range = rangeOf(f);
  // by day, by coupon and store, and in all: one statement (GROUPING SETS)
  const res = await sql<UseSums & { template_name: string | null; kind: string | null; merchant: string | null }>`
    WITH s AS (
      SELECT to_char(u.at, 'YYYY-MM-DD') AS day, u.template_id, u.merchant_id,
        grouping(to_char(u.at, 'YYYY-MM-DD'))::int AS no_day, grouping(u.template_id, u.merchant_id)::int AS no_group,
        count(*)::int AS used_count, count(*) FILTER (WHERE u.status = 'R')::int AS released_count,
        ${money(sql`sum(u.amount) FILTER (WHERE u.status = 'Y')`)} AS order_amount,
        ${money(sql`sum(u.discount) FILTER (WHERE u.status = 'Y')`)} AS discount
      FROM ${couponUses(rid, f, range)} u
      GROUP BY GROUPING SETS ((to_char(u.at, 'YYYY-MM-DD')), (u.template_id, u.merchant_id), ())
    )
    SELECT s.*, t.name AS template_name, t.kind, m.merchant FROM s
    LEFT JOIN member_coupon_templates t ON t.rid = ${rid} AND t.id = s.template_id
    LEFT JOIN merchants m ON m.rid = ${rid} AND m.id = s.merchant_id
    ORDER BY s.day, s.template_id, s.merchant_id NULLS FIRST`.execute(db);
  const rows = res.rows;
  const totals = rows.find((r) => r.no_day === 1 && r.no_group === 3);
  return {
    start_date: range[0],
    end_date: range[1],
    by_day: rows.filter((r) => r.no_day === 0).map((r) => ({ day: r.day!, ...useFigures(r) })),
    items: rows
      .filter((r) => r.no_group === 0)
      .map((r) => ({
        key: `${r.template_id}-${r.merchant_id ?? 0}`,
        template_id: Number(r.template_id),
        template_name: r.template_name ?? '',
        kind_ch: enumText(MEMBER_COUPON_KIND, r.kind),
        merchant_id: r.merchant_id === null ? null : Number(r.merchant_id),
        merchant: r.merchant ?? PROPERTY_COUNTER,
        ...useFigures(r),
      })),
    totals: totals ? useFigures(totals) : { used_count: 0, released_count: 0, order_amount: '0.00', discount: '0.00' },
  };
}

const card_verification = defineMethod('card_verification', {
  side: 'community',
  roles,
  writes: false,
  summary: '优惠券核销（默认本月）：按日、按优惠券与商户汇总核销张数、其中因退款退回的张数、有效核销的订单金额与优惠金额，及合计',
  handler: (ctx, input) => cardVerification(ctx.db, ctx.rid, input),
});

interface UseRaw {
  key: string;
  at: Date;
  template_id: number;
  merchant_id: number | null;
  member_id: number;
  code: string;
  order_no: string;
  amount: string;
  discount: string;
  status: 'Y' | 'R';
  template_name: string;
  realname: string;
  mobile: string;
  merchant: string | null;
}

/** The redemptions with their coupon, member and store, newest (or oldest) first, then a page's clause. */
function useRows(rid: number, f: VerificationFilters, range: [string, string], dir: 'asc' | 'desc', page: RawBuilder<unknown>) {
  const d = sql.raw(dir === 'asc' ? 'ASC' : 'DESC');
  return sql<UseRaw>`
    SELECT u.key, u.at, u.template_id, u.merchant_id, u.member_id, u.code, u.order_no,
           u.amount::numeric(14,2)::text AS amount, u.discount::numeric(14,2)::text AS discount, u.status,
           t.name AS template_name, mb.realname, mb.mobile, m.merchant
    FROM (SELECT * FROM ${couponUses(rid, f, range)} p ORDER BY p.at ${d}, p.key ${d} ${page}) u
    JOIN member_coupon_templates t ON t.rid = ${rid} AND t.id = u.template_id
    JOIN members mb ON mb.rid = ${rid} AND mb.id = u.member_id
    LEFT JOIN merchants m ON m.rid = ${rid} AND m.id = u.merchant_id
    ORDER BY u.at ${d}, u.key ${d}`;
}

const toUseRow = (r: UseRaw): CouponUseRow => ({
  key: r.key,
  code: r.code,
  template_id: Number(r.template_id),
  template_name: r.template_name,
  member_id: Number(r.member_id),
  realname: r.realname,
  mobile: r.mobile,
  merchant_id: r.merchant_id === null ? null : Number(r.merchant_id),
  merchant: r.merchant ?? PROPERTY_COUNTER,
  order_no: r.order_no,
  amount: r.amount,
  discount: r.discount,
  used_at: wireTime(r.at),
  status: r.status,
  status_ch: enumText(COUPON_USE_STATUS, r.status),
});

/** One page of the redemptions, and how many there are. */
export async function couponUsePage(db: Kysely<DB>, rid: number, f: HandlerInput<'card_verificationlist'>) {
  const range = rangeOf(f);
  const [page, count] = await Promise.all([
    useRows(rid, f, range, f.sort, pageClause(f)).execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM ${couponUses(rid, f, range)} u`.execute(db),
  ]);
  return { items: page.rows.map(toUseRow), total: count.rows[0]?.n ?? 0 };
}

const card_verificationlist = defineMethod('card_verificationlist', {
  side: 'community',
  roles,
  writes: false,
  summary: '优惠券核销明细（默认本月）：券码、优惠券、会员、商户、订单号、订单金额、优惠金额、核销时间、状态（已使用、已退回）',
  handler: (ctx, input) => couponUsePage(ctx.db, ctx.rid, input),
});

const figureColumns = <T extends CouponUseFigures>(): SheetColumn<T>[] => [
  { header: '核销张数', value: (r) => r.used_count },
  { header: '已退回', value: (r) => r.released_count },
  { header: '订单金额', value: (r) => Number(r.order_amount) },
  { header: '优惠金额', value: (r) => Number(r.discount) },
];

const card_verificationexport = defineExport('card_verificationexport', {
  roles,
  summary: '导出优惠券核销（Excel）：view = summary 按优惠券与商户汇总（末行合计），detail 每张券的核销明细',
  filename: (input) => `优惠券核销${input.view === 'summary' ? '汇总' : '明细'}_${rangeOf(input).join('_')}.xlsx`,
  async check(_ctx, input) {
    rangeOf(input);
  },
  async sheet({ db, rid }, input) {
    if (input.view === 'summary') {
      const r = await cardVerification(db, rid, input);
      type Row = CouponUseFigures & { template_name: string; kind_ch: string; merchant: string };
      return sheetOf<Row>(
        '优惠券核销汇总',
        [
          { header: '优惠券', value: (x) => x.template_name, width: 18 },
          { header: '类型', value: (x) => x.kind_ch },
          { header: '商户', value: (x) => x.merchant, width: 16 },
          ...figureColumns<Row>(),
        ],
        [...r.items, { template_name: '合计', kind_ch: '', merchant: '', ...r.totals }],
      );
    }
    const rows = await useRows(rid, input, rangeOf(input), 'desc', sql`LIMIT ${sql.lit(EXPORT_MAX)}`).execute(db);
    return sheetOf<CouponUseRow>(
      '优惠券核销明细',
      [
        { header: '券码', value: (r) => r.code, width: 16 },
        { header: '优惠券', value: (r) => r.template_name, width: 18 },
        { header: '会员', value: (r) => r.realname },
        { header: '手机号', value: (r) => r.mobile, width: 14, contact: 'mobile' },
        { header: '商户', value: (r) => r.merchant, width: 16 },
        { header: '订单号', value: (r) => r.order_no, width: 20 },
        { header: '订单金额', value: (r) => Number(r.amount) },
        { header: '优惠金额', value: (r) => Number(r.discount) },
        { header: '核销时间', value: (r) => r.used_at, width: 20 },
        { header: '状态', value: (r) => r.status_ch },
      ],
      rows.rows.map(toUseRow),
    );
  },
});

// ---------------------------------------------------------------- 会员权益负债

interface LiabilityRaw {
  template_id: number | null;
  template_name: string | null;
  cards: number;
  balance: string;
  balance_members: number;
  bonus_outstanding: string;
  points: string;
  points_members: number;
  coupons_unused: number;
  coupons_amount_unused: number;
  coupons_face_value: string;
}

/**
 * What the members hold now, by the template of each member's live card (none: an owner's fee
 * prepayment, a closed card): balances and points from the members' rows (their ledgers' sums),
 * unused coupons within their validity, and the bonus money of recharges not refunded. One
 * statement; members are read only where they hold something.
 */
export async function cardLiability(db: Kysely<DB>, rid: number) {
  const res = await sql<LiabilityRaw>`
      WITH live AS (
        SELECT member_id, template_id FROM member_cards WHERE rid = ${rid} AND status IN ('I', 'Y', 'F')
      ), cards AS (
        SELECT template_id, count(*)::int AS cards FROM live GROUP BY 1
      ), wallet AS (
        SELECT l.template_id, sum(m.balance) AS balance, count(*) FILTER (WHERE m.balance > 0)::int AS balance_members,
               sum(m.bonus) AS points, count(*) FILTER (WHERE m.bonus > 0)::int AS points_members
        FROM members m LEFT JOIN live l ON l.member_id = m.id
        WHERE m.rid = ${rid} AND (m.balance > 0 OR m.bonus > 0) GROUP BY 1
      ), coupons AS (
        SELECT l.template_id, count(*)::int AS coupons_unused, count(*) FILTER (WHERE t.kind = 'amount')::int AS coupons_amount_unused,
               sum(t.face_value) FILTER (WHERE t.kind = 'amount') AS face_value
        FROM member_coupons c
        JOIN member_coupon_templates t ON t.rid = c.rid AND t.id = c.template_id
        LEFT JOIN live l ON l.member_id = c.member_id
        WHERE c.rid = ${rid} AND c.status = 'U' AND c.valid_to >= ${today()}::date GROUP BY 1
      ), bonus AS (
        SELECT l.template_id, sum(r.bonus_amount) AS bonus
        FROM card_recharges r LEFT JOIN live l ON l.member_id = r.member_id
        WHERE r.rid = ${rid} AND r.status <> 'R' AND r.bonus_amount > 0 GROUP BY 1
      ), k AS (
        SELECT template_id FROM cards UNION SELECT template_id FROM wallet UNION SELECT template_id FROM coupons
        UNION SELECT template_id FROM bonus
      )
      SELECT k.template_id, t.name AS template_name, coalesce(cd.cards, 0) AS cards,
        ${money(sql`w.balance`)} AS balance, coalesce(w.balance_members, 0) AS balance_members,
        ${money(sql`b.bonus`)} AS bonus_outstanding,
        coalesce(w.points, 0)::text AS points, coalesce(w.points_members, 0) AS points_members,
        coalesce(c.coupons_unused, 0) AS coupons_unused, coalesce(c.coupons_amount_unused, 0) AS coupons_amount_unused,
        ${money(sql`c.face_value`)} AS coupons_face_value
      FROM k
      LEFT JOIN card_templates t ON t.rid = ${rid} AND t.id = k.template_id
      LEFT JOIN cards cd ON cd.template_id IS NOT DISTINCT FROM k.template_id
      LEFT JOIN wallet w ON w.template_id IS NOT DISTINCT FROM k.template_id
      LEFT JOIN coupons c ON c.template_id IS NOT DISTINCT FROM k.template_id
      LEFT JOIN bonus b ON b.template_id IS NOT DISTINCT FROM k.template_id
      ORDER BY k.template_id NULLS LAST`.execute(db);
  const items: CardLiabilityRow[] = res.rows.map((r) => ({
    key: String(r.template_id ?? 0),
    template_id: r.template_id === null ? null : Number(r.template_id),
    template_name: r.template_name ?? '无会员卡（业主预存、已注销的卡）',
    cards: r.cards,
    balance: r.balance,
    balance_members: r.balance_members,
    bonus_outstanding: r.bonus_outstanding,
    points: Number(r.points),
    points_members: r.points_members,
    coupons_unused: r.coupons_unused,
    coupons_amount_unused: r.coupons_amount_unused,
    coupons_face_value: r.coupons_face_value,
  }));
  const total = (k: 'balance' | 'bonus_outstanding' | 'coupons_face_value') => fenToYuan(items.reduce((s, r) => s + toFen(r[k]), 0n));
  const count = (k: 'cards' | 'balance_members' | 'points' | 'points_members' | 'coupons_unused' | 'coupons_amount_unused') =>
    items.reduce((s, r) => s + r[k], 0);
  const totals: CardLiabilityFigures = {
    cards: count('cards'),
    balance: total('balance'),
    balance_members: count('balance_members'),
    bonus_outstanding: total('bonus_outstanding'),
    points: count('points'),
    points_members: count('points_members'),
    coupons_unused: count('coupons_unused'),
    coupons_amount_unused: count('coupons_amount_unused'),
    coupons_face_value: total('coupons_face_value'),
  };
  return { as_of: wireTime(new Date()), items, totals };
}

const cardliability = defineMethod('cardliability', {
  side: 'community',
  roles,
  writes: false,
  summary:
    '会员权益负债（当前）：按会员卡汇总在用卡数、会员余额合计与持有人数（实付与赠送同在余额中，另列未退款充值的赠送金额）、积分合计与持有人数、未使用且在有效期内的优惠券张数与满减券面值，及合计',
  handler: (ctx) => cardLiability(ctx.db, ctx.rid),
});

const cardreport_small_list = defineMethod('cardreport_small_list', {
  side: 'community',
  roles,
  writes: false,
  summary: '会员卡报表的筛选项：商户、优惠券、操作人（充值、会员收银、退款与充值退款审批的操作人）',
  async handler(ctx) {
    const [merchants, templates, operators] = await Promise.all([
      ctx.db.selectFrom('merchants').select(['id', 'merchant as title']).where('rid', '=', ctx.rid).orderBy('id').execute(),
      ctx.db.selectFrom('member_coupon_templates').select(['id', 'name as title']).where('rid', '=', ctx.rid).orderBy('id').execute(),
      sql<{ op: string }>`
        SELECT op FROM (SELECT operator AS op FROM card_recharges WHERE rid = ${ctx.rid}
                        UNION SELECT operator FROM counter_orders WHERE rid = ${ctx.rid}
                        UNION SELECT refunded_by FROM counter_orders WHERE rid = ${ctx.rid} AND status = 'R'
                        UNION SELECT a.name FROM card_recharges r JOIN accounts a ON a.id = r.decided_by
                        WHERE r.rid = ${ctx.rid} AND r.status = 'R') o
        WHERE op <> '' ORDER BY op LIMIT 200`.execute(ctx.db),
    ]);
    return {
      merchants: merchants.map((m) => ({ id: Number(m.id), title: m.title })),
      templates: templates.map((t) => ({ id: Number(t.id), title: t.title })),
      operators: operators.rows.map((o) => o.op),
    };
  },
});

// the property's money: never a merchant account's, whatever codes it holds
export const cardReportMethods = notForMerchants([
  cardlog,
  cardlogexport,
  card_verification,
  card_verificationlist,
  card_verificationexport,
  cardliability,
  cardreport_small_list,
]);
