import { capitalAmount, fenToYuan, payMethodLabel, toFen, type PaymentInfo, type PaymentRow } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { wireTime } from '../../lib/wire.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { keywordMatches, type KeywordPart, type KeywordRows } from '../../lib/paging.js';
import { nameContains, roomsAddressed } from '../owners/access.js';

export const PAYMENT_STATUS_CH = { Y: '已收款', P: '部分退款', R: '已退款', V: '已作废' } as const;
/** a receipt whose refund waits for approval says so, whatever it was before */
export const REFUNDING_CH = '退款中';

/** What the receipt lists (收费记录, 物业费缴费明细) filter receipts by, besides a keyword. */
export interface ReceiptFilters {
  start_date?: string | undefined;
  end_date?: string | undefined;
  pay_type?: string | undefined;
  cashier?: string | undefined;
  receipt_no?: string | undefined;
  hid?: number | undefined;
}

/**
 * The filters given, as conditions on the receipt `p`: the dates are receipt days, both included;
 * the receipt number is tested on each receipt, as a filter beside a search that finds the
 * receipts (a list searched by the number alone searches by receiptNumberPart).
 */
export function receiptFilters(f: ReceiptFilters): Array<RawBuilder<SqlBool>> {
  const c: Array<RawBuilder<SqlBool>> = [];
  if (f.start_date) c.push(sql<SqlBool>`p.created_at >= ${f.start_date}::date`);
  if (f.end_date) c.push(sql<SqlBool>`p.created_at < ${f.end_date}::date + 1`);
  if (f.pay_type) c.push(sql<SqlBool>`p.pay_type = ${f.pay_type}`);
  if (f.cashier) c.push(sql<SqlBool>`p.cashier_name ${sql.raw(containsOperator(f.cashier))} ${likePattern(f.cashier)}`);
  if (f.receipt_no) c.push(receiptNumberLike(f.receipt_no));
  if (f.hid) c.push(sql<SqlBool>`p.hid = ${f.hid}`);
  return c;
}

/**
 * "The receipt `p`'s number contains `text`, whatever the case". A text without letters is matched
 * with LIKE (containsOperator), which finds the same without lower-casing every number (ILIKE:
 * 166 ms at 483,000 receipts).
 * - A text of three characters or more is looked up by its three-character pieces in the numbers'
 *   GIN index (022_receipt_number_trigrams.sql) and then matched whole: 1-2 ms, where testing every
 *   number took 40 ms (docs/perf/history.md#round-19). Fenced and keyed (KeywordPart): the
 *   pieces are never computed for every receipt in turn, and carry the community.
 * - A shorter one is matched against the numbers of the unique index alone, the receipts
 *   themselves read only for the numbers that match (35 ms where testing every receipt took 65-110).
 */
export function receiptNumberPart(rid: number, text: string): KeywordPart {
  if (Array.from(text).length < 3) {
    const like = receiptNumberLike(text, sql`receipt_no`);
    return { match: sql<SqlBool>`p.receipt_no IN (SELECT receipt_no FROM fee_payments WHERE rid = ${rid} AND ${like})` };
  }
  const pieces = sql<SqlBool>`receipt_no_trigrams(p.rid, p.receipt_no) @> receipt_no_trigrams(${rid}::int, ${text}::text)`;
  return { match: sql<SqlBool>`(${pieces} AND ${receiptNumberLike(text)})`, fenced: true, keyed: true };
}

/** "The number `no` contains `text`, whatever the case", tested on the number itself (receiptNumberPart). */
function receiptNumberLike(text: string, no: RawBuilder<unknown> = sql`p.receipt_no`) {
  return sql<SqlBool>`${no} ${sql.raw(containsOperator(text))} ${likePattern(text)}`;
}

/** A receipt number: the receipt prefix's letters, digits and '-' (setfees), then digits. */
const RECEIPT_NO_TEXT = /^[A-Za-z0-9-]+$/;

/**
 * What a receipt list's keyword matches on the receipt `p`, part by part: its room's address (the
 * rooms looked up first), any part of its payer's name (index fee_payments_payer_keys, 017; a
 * longer keyword is looked up by its first 11 characters and then matched whole), and with
 * `receiptNo` its number, which a keyword not written in a number's characters cannot be part of.
 * A page is picked from the parts by keywordPage; receiptKeyword takes them as one condition.
 */
export async function receiptKeywordParts(db: Kysely<DB>, rid: number, keyword: string, o: { receiptNo: boolean }): Promise<KeywordPart[]> {
  const rooms = await sql<{
    hids: string[];
  }>`SELECT coalesce(array_agg(a.id), '{}') AS hids FROM (${roomsAddressed(rid, keyword)}) a`.execute(db);
  const parts: KeywordPart[] = [
    { match: sql<SqlBool>`p.hid = ANY(${rooms.rows[0]!.hids}::bigint[])` },
    { match: nameContains(sql`p.rid`, sql`p.payer_name`, rid, keyword), fenced: true, keyed: true },
  ];
  if (o.receiptNo && RECEIPT_NO_TEXT.test(keyword)) parts.push(receiptNumberPart(rid, keyword));
  return parts;
}

/**
 * The keyword's parts (receiptKeywordParts) as one condition on the receipt `p`, for a count, an
 * export or a report that reads every match (anyReceiptPart). Each part finds its receipts by itself and the
 * receipts found are taken together (a materialised CTE), so no plan reads the community's
 * receipts in order testing each. Matching the address and the name on every receipt read a
 * community's 483,000 for each call (0.5-0.9 s at 50,000 rooms); ordered by id with the parts as
 * one condition, PostgreSQL walked them all for a name no receipt has, computing each one's name
 * fragments (6 s).
 */
export async function receiptKeyword(
  db: Kysely<DB>,
  rid: number,
  keyword: string,
  o: { receiptNo: boolean },
): Promise<RawBuilder<SqlBool>> {
  return anyReceiptPart(rid, await receiptKeywordParts(db, rid, keyword, o));
}

/** The receipts of community `rid` that meet any of `parts`, as a condition on the receipt `p` (receiptKeyword). */
export function anyReceiptPart(rid: number, parts: KeywordPart[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`p.id IN (WITH found AS MATERIALIZED (${keywordMatches(receiptRows(rid, []), parts)}) SELECT id FROM found)`;
}

/** The receipts `p` of community `rid` meeting `filters`, as a keyword searches them (keywordPage). */
export function receiptRows(rid: number, filters: Array<RawBuilder<SqlBool>>): KeywordRows {
  return { table: 'fee_payments', alias: 'p', rid, filters };
}

/** Payments of the community with their room address. */
export function paymentBase(db: Kysely<DB>, rid: number) {
  return (
    db
      .selectFrom('fee_payments as p')
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'p.rid').onRef('r.id', '=', 'p.hid'))
      .selectAll('p')
      // a temporary stay's receipt has no room: it names the plate that paid
      .select(sql<string>`coalesce(r.address, '临时停车 ' || p.payer_name)`.as('address'))
      .select(sql<number>`(SELECT count(*)::int FROM fee_payment_items pi WHERE pi.rid = p.rid AND pi.payment_id = p.id)`.as('bill_count'))
      .select(
        sql<boolean>`EXISTS (SELECT 1 FROM fee_refunds f WHERE f.rid = p.rid AND f.payment_id = p.id AND f.status = 'E')`.as('refunding'),
      )
      .where('p.rid', '=', rid)
  );
}

type Raw = Awaited<ReturnType<ReturnType<typeof paymentBase>['executeTakeFirstOrThrow']>>;

export function toPaymentRow(p: Raw): PaymentRow {
  const total = fenToYuan(toFen(p.receivable) + toFen(p.late_fee) - toFen(p.discount));
  return {
    id: p.id,
    receipt_no: p.receipt_no,
    hid: p.hid,
    address: p.address,
    payer_name: p.payer_name,
    receivable: p.receivable,
    late_fee: p.late_fee,
    discount: p.discount,
    total,
    balance_used: p.balance_used,
    due: p.due,
    paid_amount: p.paid_amount,
    to_balance: p.to_balance,
    pay_type: p.pay_type,
    pay_type_ch: payMethodLabel(p.pay_type, p.pay_method),
    pay_method: p.pay_method,
    pay_ref: p.pay_ref,
    cashier_name: p.cashier_name,
    cashier_id: p.cashier_id,
    status: p.status,
    status_ch: p.refunding ? REFUNDING_CH : PAYMENT_STATUS_CH[p.status],
    void_reason: p.void_reason,
    voided_by: p.voided_by_name,
    void_time: wireTime(p.voided_at),
    refunding: p.refunding,
    refunded_amount: p.refunded_amount,
    bill_count: Number(p.bill_count),
    remark: p.remark,
    create_time: wireTime(p.created_at),
  };
}

/** Receipt data: the payment, its bills, and the settled total in Chinese capitals. */
export async function paymentInfo(db: Kysely<DB>, rid: number, id: number): Promise<PaymentInfo> {
  const p = await paymentBase(db, rid).where('p.id', '=', id).executeTakeFirst();
  if (!p) fail('收费记录不存在');
  const [region, settings, items] = await Promise.all([
    db.selectFrom('regions').select('title').where('id', '=', rid).executeTakeFirstOrThrow(),
    db.selectFrom('fee_settings').select(['receipt_title', 'receipt_footnote']).where('rid', '=', rid).executeTakeFirst(),
    // each line's room is its bill's (bills are kept once paid)
    db
      .selectFrom('fee_payment_items as pi')
      .leftJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'pi.rid').onRef('b.id', '=', 'pi.bill_id'))
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'b.rid').onRef('r.id', '=', 'b.hid'))
      .select(['pi.bill_id', 'pi.title', 'pi.period', 'pi.daterange', 'pi.fee', 'pi.late_fee', 'pi.refunded', 'b.hid', 'r.address'])
      .where('pi.rid', '=', rid)
      .where('pi.payment_id', '=', id)
      .orderBy('pi.id')
      .execute(),
  ]);
  const row = toPaymentRow(p);
  return {
    ...row,
    region_title: region.title,
    receipt_title: settings?.receipt_title || `${region.title} 收款收据`,
    receipt_footnote: settings?.receipt_footnote ?? '',
    print_count: p.print_count,
    capital_amount: capitalAmount(row.total),
    items: items.map((i) => ({ ...i, hid: i.hid ?? p.hid, address: i.address ?? p.address })),
  };
}
