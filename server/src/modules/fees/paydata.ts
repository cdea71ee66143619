/**
 * 缴费明细 (/feecounts/feebillpaydata) and 优惠记录 (/feecounts/discountlog), reports of the 财务报表
 * group (docs/product.md#pay-data).
 *
 * - 缴费明细: every line of every receipt whose day falls in the range, any fee item, the receipt's
 *   filters (receiptFilters, receiptKeyword of payments.ts) plus the line's item, category and
 *   building. A line's 实收 is what was received for it: fee + late fee − its share of the receipt's
 *   discount (fee_payment_items.discount, 202612010000_invoices.sql). Voided receipts' lines are
 *   listed, marked, and count nowhere, as in every report (fee_payment_totals).
 * - 优惠记录: the discounts granted, from the two places the data keeps them: an application approved
 *   above the cashier's cap (fee_discount_requests: used at a payment, approved and not used yet,
 *   rejected) and the cashier's own 减免 on a receipt (fee_payments.discount without an application).
 *   Coupons are never used for fees (the member coupons are spent at the counter and the charging
 *   piles, the parking coupons at the gates), so no kind of theirs.
 */
import {
  addDays,
  DISCOUNT_RECORD_KIND,
  DISCOUNT_RECORD_STATUS,
  enumText,
  FEE_ROLES,
  PAY_TYPE_CH,
  PAYDATA_LINE_STATUS,
  type DiscountRecordKind,
  type DiscountRecordRow,
  type DiscountRecordStatus,
  type DiscountRecordTotals,
  type PaydataLineStatus,
  type PaydataRow,
  type PaydataTotals,
  type PayTypeName,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { pageClause } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { roomsAddressed } from '../owners/access.js';
import { receiptFilters, receiptKeyword } from './payments.js';

const ROLES = FEE_ROLES.reports;

export interface PaydataFilters {
  start_date: string;
  end_date: string;
  item_id?: number | undefined;
  cost_type?: string | undefined;
  bid?: number | undefined;
  pay_type?: string | undefined;
  cashier?: string | undefined;
  keyword?: string | undefined;
}

/**
 * The lines of the receipts meeting the filters: the receipts found by their day through
 * fee_payments_time (rid, created_at), each one's lines through fee_payment_items_payment; the
 * line's bill is left joined by its key (PostgreSQL drops the join when nothing of the bill is read).
 */
export async function paydataLines(db: Kysely<DB>, rid: number, f: PaydataFilters) {
  const onReceipt = receiptFilters({
    start_date: f.start_date,
    end_date: f.end_date,
    pay_type: f.pay_type || undefined,
    cashier: f.cashier,
  });
  if (f.keyword) onReceipt.push(await receiptKeyword(db, rid, f.keyword, { receiptNo: true }));
  let q = db
    .selectFrom('fee_payments as p')
    .innerJoin('fee_payment_items as pi', (j) => j.onRef('pi.rid', '=', 'p.rid').onRef('pi.payment_id', '=', 'p.id'))
    .leftJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'pi.rid').onRef('b.id', '=', 'pi.bill_id'))
    .where('p.rid', '=', rid);
  for (const c of onReceipt) q = q.where(c);
  if (f.cost_type) q = q.where('pi.cost_type', '=', f.cost_type);
  if (f.item_id) q = q.where('b.item_id', '=', f.item_id);
  if (f.bid) q = q.where('b.bid', '=', f.bid);
  return q;
}

/** paydataTotals from the kept totals: a year of a community is a few thousand rows there. */
async function keptPaydataTotals(db: Kysely<DB>, rid: number, f: PaydataFilters): Promise<PaydataTotals> {
  let q = db
    .selectFrom('fee_paydata_totals as t')
    .where('t.rid', '=', rid)
    .where('t.day', '>=', sql<string>`${f.start_date}::date`)
    .where('t.day', '<', sql<string>`${addDays(f.end_date, 1)}::date`);
  if (f.pay_type) q = q.where('t.pay_type', '=', f.pay_type);
  if (f.cashier) q = q.where(sql<SqlBool>`t.cashier_name ${sql.raw(containsOperator(f.cashier))} ${likePattern(f.cashier)}`);
  if (f.cost_type) q = q.where('t.cost_type', '=', f.cost_type);
  if (f.item_id) q = q.where('t.item_id', '=', f.item_id);
  const kept = (col: string) => sql<string>`coalesce(sum(${sql.raw(col)}) FILTER (WHERE NOT t.voided), 0)::numeric(14,2)::text`;
  const row = await q
    .select([
      sql<number>`coalesce(sum(t.lines) FILTER (WHERE NOT t.voided), 0)::int`.as('count'),
      sql<number>`coalesce(sum(t.lines) FILTER (WHERE t.voided), 0)::int`.as('voided'),
      kept('t.fee').as('fee'),
      kept('t.discount').as('discount'),
      kept('t.late_fee').as('late_fee'),
      kept('t.fee + t.late_fee - t.discount').as('received'),
    ])
    .executeTakeFirstOrThrow();
  return { count: row.count, voided: row.voided, fee: row.fee, discount: row.discount, late_fee: row.late_fee, received: row.received };
}

type Lines = Awaited<ReturnType<typeof paydataLines>>;

/** The columns of a line as the page and the export show it; the room is the bill's (a receipt may pay several of an owner's rooms). */
function lineRows(lines: Lines, rid: number) {
  const room = sql`coalesce(b.hid, p.hid)`;
  return lines.select([
    'pi.id',
    'p.id as payment_id',
    'p.receipt_no',
    sql<string>`coalesce((SELECT r.address FROM rooms r WHERE r.rid = p.rid AND r.id = ${room}), '临时停车 ' || p.payer_name)`.as(
      'address',
    ),
    sql<string>`coalesce((SELECT m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.hid = ${room} AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1), p.payer_name)`.as(
      'payer_name',
    ),
    'pi.title',
    'pi.cost_type',
    'pi.period',
    'pi.daterange',
    sql<string>`pi.fee::text`.as('fee'),
    sql<string>`pi.discount::text`.as('discount'),
    sql<string>`pi.late_fee::text`.as('late_fee'),
    sql<string>`(pi.fee + pi.late_fee - pi.discount)::numeric(14,2)::text`.as('received'),
    'p.pay_type',
    'p.cashier_name',
    'p.created_at',
    'p.status',
    'pi.refunded',
  ]);
}

type LineRaw = Awaited<ReturnType<ReturnType<typeof lineRows>['execute']>>[number];

const lineStatus = (r: { status: string; refunded: string }): PaydataLineStatus =>
  r.status === 'V' ? 'voided' : r.refunded === 'Y' ? 'refunded' : 'normal';

function toPaydataRow(r: LineRaw): PaydataRow {
  const status = lineStatus(r);
  return {
    id: Number(r.id),
    payment_id: Number(r.payment_id),
    receipt_no: r.receipt_no,
    address: r.address,
    payer_name: r.payer_name,
    title: r.title,
    cost_type: r.cost_type,
    period: r.period,
    daterange: r.daterange,
    fee: r.fee,
    discount: r.discount,
    late_fee: r.late_fee,
    received: r.received,
    pay_type: r.pay_type,
    pay_type_ch: PAY_TYPE_CH[r.pay_type as PayTypeName] ?? r.pay_type,
    cashier_name: r.cashier_name,
    create_time: wireTime(r.created_at),
    status,
    status_ch: PAYDATA_LINE_STATUS[status].text,
  };
}

/**
 * The filtered lines' totals, the voided receipts' lines counted apart: from their kept totals
 * (fee_paydata_totals) unless a building or a receipt number is asked, which they do not keep;
 * then in one grouped statement over the lines.
 */
export async function paydataTotals(db: Kysely<DB>, rid: number, f: PaydataFilters): Promise<PaydataTotals> {
  if (!f.bid && !f.keyword) return keptPaydataTotals(db, rid, f);
  const lines = await paydataLines(db, rid, f);
  const kept = (col: string) => sql<string>`coalesce(sum(${sql.raw(col)}) FILTER (WHERE p.status <> 'V'), 0)::numeric(14,2)::text`;
  const row = await lines
    .select([
      sql<number>`count(*) FILTER (WHERE p.status <> 'V')::int`.as('count'),
      sql<number>`count(*) FILTER (WHERE p.status = 'V')::int`.as('voided'),
      kept('pi.fee').as('fee'),
      kept('pi.discount').as('discount'),
      kept('pi.late_fee').as('late_fee'),
      kept('pi.fee + pi.late_fee - pi.discount').as('received'),
    ])
    .executeTakeFirstOrThrow();
  return { count: row.count, voided: row.voided, fee: row.fee, discount: row.discount, late_fee: row.late_fee, received: row.received };
}

const feebillpaydata = defineMethod('feebillpaydata', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary:
    '缴费明细：日期区间内每张收据的每一行（所有收费项目）：收据号、房屋、业主、收费项目、账期、应收、优惠、滞纳金、实收、支付方式、收款人、收款时间、状态；可按收费项目、收费类别、楼栋、支付方式、收款人、关键字（房号/收据号）筛选，附筛选结果的合计（作废收据不计）',
  async handler(ctx, input) {
    const [lines, totals] = await Promise.all([paydataLines(ctx.db, ctx.rid, input), paydataTotals(ctx.db, ctx.rid, input)]);
    // newest receipt first through its day's index, its lines by id
    const items = await lineRows(lines, ctx.rid)
      .orderBy('p.created_at', input.sort)
      .orderBy('pi.id', input.sort)
      .limit(sql.lit(input.limit))
      .offset(sql.lit((input.page - 1) * input.limit))
      .execute();
    return { items: items.map(toPaydataRow), total: totals.count + totals.voided, totals };
  },
});

const lineColumns: SheetColumn<PaydataRow>[] = [
  { header: '收据号', value: (r) => r.receipt_no, width: 16 },
  { header: '房屋', value: (r) => r.address, width: 20 },
  { header: '业主', value: (r) => r.payer_name },
  { header: '收费项目', value: (r) => r.title, width: 16 },
  { header: '账期', value: (r) => r.period },
  { header: '计费周期', value: (r) => r.daterange, width: 24 },
  { header: '应收', value: (r) => r.fee },
  { header: '优惠', value: (r) => r.discount },
  { header: '滞纳金', value: (r) => r.late_fee },
  { header: '实收', value: (r) => r.received },
  { header: '支付方式', value: (r) => r.pay_type_ch },
  { header: '收款人', value: (r) => r.cashier_name },
  { header: '收款时间', value: (r) => r.create_time, width: 20 },
  { header: '状态', value: (r) => r.status_ch },
];

const feebillpaydataexport = defineExport('feebillpaydataexport', {
  roles: ROLES,
  summary: '导出缴费明细（Excel）：筛选条件同缴费明细，末行为合计（作废收据不计）',
  filename: (input) => `缴费明细_${input.start_date}_${input.end_date}.xlsx`,
  async check({ db, rid }, input) {
    await refuseOversizedExport(db, (await paydataLines(db, rid, input)).select('pi.id'));
  },
  async sheet({ db, rid }, input) {
    const [rows, totals] = await Promise.all([
      lineRows(await paydataLines(db, rid, input), rid)
        .orderBy('p.created_at')
        .orderBy('pi.id')
        .limit(EXPORT_MAX)
        .execute(),
      paydataTotals(db, rid, input),
    ]);
    const sum = {
      receipt_no: '合计',
      address: `${totals.count} 笔`,
      fee: totals.fee,
      discount: totals.discount,
      late_fee: totals.late_fee,
      received: totals.received,
    } as PaydataRow;
    const blank = {
      payer_name: '',
      title: '',
      period: '',
      daterange: '',
      pay_type_ch: '',
      cashier_name: '',
      create_time: '',
      status_ch: '',
    };
    return sheetOf('缴费明细', lineColumns, [...rows.map(toPaydataRow), { ...blank, ...sum }]);
  },
});

// --- 优惠记录

export interface DiscountRecordFilters {
  start_date: string;
  end_date: string;
  kind?: '' | DiscountRecordKind | undefined;
  status?: '' | DiscountRecordStatus | undefined;
  keyword?: string | undefined;
}

const STATUS_OF_REQUEST = { U: 'used', Y: 'approved', N: 'rejected' } as const;

/**
 * The discount records meeting the filters as one statement's rows (kind, id, status, at, hid,
 * receivable, amount, approver, opinion, remark, payment): the applications decided (their time:
 * the receipt's when used, else the decision's) and the receipts with a 减免 of the cashier's (a
 * discount no application was used for, the receipt not voided; through fee_payments_discounted).
 */
async function discountRecords(db: Kysely<DB>, rid: number, f: DiscountRecordFilters) {
  const from = sql`${f.start_date}::date`;
  const to = sql`${f.end_date}::date + 1`;
  const parts: RawBuilder<unknown>[] = [];
  const wantRequests = f.kind !== 'cashier';
  const wantCashier = f.kind !== 'request' && (!f.status || f.status === 'used');
  if (wantRequests) {
    const statuses = f.status ? [{ used: 'U', approved: 'Y', rejected: 'N' }[f.status]] : ['U', 'Y', 'N'];
    const c: RawBuilder<SqlBool>[] = [];
    if (f.keyword) {
      const no = sql<SqlBool>`p.receipt_no ${sql.raw(containsOperator(f.keyword))} ${likePattern(f.keyword)}`;
      c.push(sql<SqlBool>`(d.hid IN (${roomsAddressed(rid, f.keyword)}) OR ${no})`);
    }
    parts.push(sql`SELECT 'request'::text AS kind, d.id, d.status::text AS status, coalesce(p.created_at, d.approved_at) AS at, d.hid,
        d.receivable + d.late_fee AS receivable, d.amount, d.approver, d.approve_remark, ''::text AS remark,
        p.id AS payment_id, p.receipt_no, p.cashier_name, d.bill_ids
      FROM fee_discount_requests d LEFT JOIN fee_payments p ON p.rid = d.rid AND p.id = d.payment_id
      WHERE d.rid = ${rid} AND d.status = ANY(${statuses}::text[])
        AND coalesce(p.created_at, d.approved_at) >= ${from} AND coalesce(p.created_at, d.approved_at) < ${to}
        ${c.length ? sql`AND ${sql.join(c, sql` AND `)}` : sql``}`);
  }
  if (wantCashier) {
    const c: RawBuilder<SqlBool>[] = [];
    if (f.keyword) c.push(await receiptKeyword(db, rid, f.keyword, { receiptNo: true }));
    parts.push(sql`SELECT 'cashier'::text AS kind, p.id, 'U'::text AS status, p.created_at AS at, p.hid,
        p.receivable + p.late_fee AS receivable, p.discount AS amount, ''::text AS approver, ''::text AS approve_remark, p.remark,
        p.id AS payment_id, p.receipt_no, p.cashier_name, NULL::bigint[] AS bill_ids
      FROM fee_payments p
      WHERE p.rid = ${rid} AND p.discount > 0 AND p.status <> 'V' AND p.created_at >= ${from} AND p.created_at < ${to}
        AND NOT EXISTS (SELECT 1 FROM fee_discount_requests d WHERE d.rid = p.rid AND d.payment_id = p.id)
        ${c.length ? sql`AND ${sql.join(c, sql` AND `)}` : sql``}`);
  }
  return parts.length ? sql`${sql.join(parts, sql` UNION ALL `)}` : null;
}

interface RecordRaw {
  kind: DiscountRecordKind;
  id: string | number;
  status: 'U' | 'Y' | 'N';
  at: Date;
  receivable: string;
  amount: string;
  approver: string;
  approve_remark: string;
  remark: string;
  payment_id: string | number | null;
  receipt_no: string | null;
  cashier_name: string | null;
  address: string | null;
  titles: string | null;
  periods: string | null;
}

/** Some records (a page, or the export's) with what they show: the room, the bills' items and periods. */
function recordRows(records: RawBuilder<unknown>, rid: number, order: 'asc' | 'desc', limit: RawBuilder<unknown>) {
  const dir = sql.raw(order === 'desc' ? 'DESC' : 'ASC');
  return sql<RecordRaw>`SELECT u.kind, u.id, u.status, u.at, u.receivable::numeric(14,2)::text AS receivable, u.amount::numeric(14,2)::text AS amount,
      u.approver, u.approve_remark, u.remark, u.payment_id, u.receipt_no, u.cashier_name,
      (SELECT r.address FROM rooms r WHERE r.rid = ${rid} AND r.id = u.hid) AS address,
      CASE WHEN u.kind = 'request'
        THEN (SELECT string_agg(DISTINCT b.title, '、') FROM fee_bills b WHERE b.rid = ${rid} AND b.id = ANY(u.bill_ids))
        ELSE (SELECT string_agg(DISTINCT l.title, '、') FROM fee_payment_items l WHERE l.rid = ${rid} AND l.payment_id = u.payment_id) END AS titles,
      CASE WHEN u.kind = 'request'
        THEN (SELECT CASE WHEN min(b.period) = max(b.period) THEN min(b.period) ELSE min(b.period) || ' 至 ' || max(b.period) END
          FROM fee_bills b WHERE b.rid = ${rid} AND b.id = ANY(u.bill_ids))
        ELSE (SELECT CASE WHEN min(l.period) = max(l.period) THEN min(l.period) ELSE min(l.period) || ' 至 ' || max(l.period) END
          FROM fee_payment_items l WHERE l.rid = ${rid} AND l.payment_id = u.payment_id) END AS periods
    FROM (SELECT * FROM (${records}) a ORDER BY a.at ${dir}, a.kind, a.id ${dir} ${limit}) u
    ORDER BY u.at ${dir}, u.kind, u.id ${dir}`;
}

function toRecordRow(r: RecordRaw): DiscountRecordRow {
  const status = STATUS_OF_REQUEST[r.status];
  const request = r.kind === 'request';
  const basis = request
    ? `优惠申请 #${r.id}` +
      (r.approver ? `，${r.status === 'N' ? '驳回' : '批准'}：${r.approver}` : '') +
      (r.approve_remark ? `，意见：${r.approve_remark}` : '')
    : `收银台减免${r.remark ? `，备注：${r.remark}` : ''}`;
  return {
    key: `${r.kind}-${r.id}`,
    kind: r.kind,
    kind_ch: DISCOUNT_RECORD_KIND[r.kind].text,
    request_id: request ? Number(r.id) : 0,
    status,
    status_ch: enumText(DISCOUNT_RECORD_STATUS, status),
    address: r.address ?? '',
    titles: r.titles ?? '',
    periods: r.periods ?? '',
    receivable: r.receivable,
    amount: r.amount,
    basis,
    cashier_name: r.cashier_name ?? '',
    payment_id: r.payment_id === null ? 0 : Number(r.payment_id),
    receipt_no: r.receipt_no ?? '',
    time: wireTime(r.at),
  };
}

/** Per kind: the records listed and the amount they granted (the used ones: a pending or rejected application grants nothing). */
async function recordTotals(db: Kysely<DB>, records: RawBuilder<unknown> | null): Promise<DiscountRecordTotals[]> {
  const rows = records
    ? (
        await sql<{ kind: DiscountRecordKind; count: number; amount: string }>`SELECT a.kind, count(*)::int AS count,
          coalesce(sum(a.amount) FILTER (WHERE a.status = 'U'), 0)::numeric(14,2)::text AS amount
          FROM (${records}) a GROUP BY a.kind`.execute(db)
      ).rows
    : [];
  return (['request', 'cashier'] as const).map((kind) => {
    const r = rows.find((x) => x.kind === kind);
    return { kind, kind_ch: DISCOUNT_RECORD_KIND[kind].text, count: r?.count ?? 0, amount: r?.amount ?? '0.00' };
  });
}

const discountrecordlist = defineMethod('discountrecordlist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary:
    '优惠记录：日期区间内的每笔优惠——优惠申请（已使用/待使用/已驳回，依据为申请编号、审批人与意见）与收银台减免（收据上未用申请的优惠）：房屋、收费项目、账期、原应收、优惠金额、收款人、收据号、时间；可按类型、状态、关键字（房号/收据号）筛选，附各类型的笔数与优惠金额合计',
  async handler(ctx, input) {
    const records = await discountRecords(ctx.db, ctx.rid, input);
    const [page, totals] = await Promise.all([
      records ? sql<RecordRaw>`${recordRows(records, ctx.rid, input.sort, pageClause(input))}`.execute(ctx.db) : { rows: [] },
      recordTotals(ctx.db, records),
    ]);
    return { items: page.rows.map(toRecordRow), total: totals.reduce((s, t) => s + t.count, 0), totals };
  },
});

const recordColumns: SheetColumn<DiscountRecordRow>[] = [
  { header: '类型', value: (r) => r.kind_ch },
  { header: '状态', value: (r) => r.status_ch },
  { header: '房屋', value: (r) => r.address, width: 20 },
  { header: '收费项目', value: (r) => r.titles, width: 20 },
  { header: '账期', value: (r) => r.periods, width: 18 },
  { header: '原应收', value: (r) => r.receivable },
  { header: '优惠金额', value: (r) => r.amount },
  { header: '依据', value: (r) => r.basis, width: 36 },
  { header: '收款人', value: (r) => r.cashier_name },
  { header: '收据号', value: (r) => r.receipt_no, width: 16 },
  { header: '时间', value: (r) => r.time, width: 20 },
];

const discountrecordexport = defineExport('discountrecordexport', {
  roles: ROLES,
  summary: '导出优惠记录（Excel）：筛选条件同优惠记录',
  filename: (input) => `优惠记录_${input.start_date}_${input.end_date}.xlsx`,
  async check({ db, rid }, input) {
    const totals = await recordTotals(db, await discountRecords(db, rid, input));
    if (totals.reduce((s, t) => s + t.count, 0) > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    const records = await discountRecords(db, rid, input);
    const rows = records ? (await recordRows(records, rid, 'asc', sql`LIMIT ${sql.lit(EXPORT_MAX)}`).execute(db)).rows : [];
    return sheetOf('优惠记录', recordColumns, rows.map(toRecordRow));
  },
});

export const paydataMethods = [feebillpaydata, feebillpaydataexport, discountrecordlist, discountrecordexport];
