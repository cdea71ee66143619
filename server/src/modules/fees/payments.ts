import { capitalAmount, fenToYuan, PAY_TYPE_CH, toFen, type PaymentInfo, type PaymentRow } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { wireTime } from '../../lib/wire.js';
import { likePattern } from '../owners/access.js';

export const PAYMENT_STATUS_CH = { Y: '已收款', P: '部分退款', R: '已退款' } as const;

/** What the receipt lists (收费记录, 物业费缴费明细) filter receipts by, besides a keyword. */
export interface ReceiptFilters {
  start_date?: string | undefined;
  end_date?: string | undefined;
  pay_type?: string | undefined;
  cashier?: string | undefined;
  receipt_no?: string | undefined;
  hid?: number | undefined;
}

/** The filters given, as conditions on the receipt `p` alone: the dates are receipt days, both included. */
export function receiptFilters(f: ReceiptFilters): Array<RawBuilder<SqlBool>> {
  const c: Array<RawBuilder<SqlBool>> = [];
  if (f.start_date) c.push(sql<SqlBool>`p.created_at >= ${f.start_date}::date`);
  if (f.end_date) c.push(sql<SqlBool>`p.created_at < ${f.end_date}::date + 1`);
  if (f.pay_type) c.push(sql<SqlBool>`p.pay_type = ${f.pay_type}`);
  if (f.cashier) c.push(sql<SqlBool>`p.cashier_name ILIKE ${likePattern(f.cashier)}`);
  if (f.receipt_no) c.push(sql<SqlBool>`p.receipt_no ILIKE ${likePattern(f.receipt_no)}`);
  if (f.hid) c.push(sql<SqlBool>`p.hid = ${f.hid}`);
  return c;
}

/** Payments of the community with their room address. */
export function paymentBase(db: Kysely<DB>, rid: number) {
  return db.selectFrom('fee_payments as p')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'p.rid').onRef('r.id', '=', 'p.hid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'p.rid').onRef('u.id', '=', 'p.tid'))
    .innerJoin('buildings as bd', (j) => j.onRef('bd.rid', '=', 'p.rid').onRef('bd.id', '=', 'p.bid'))
    .selectAll('p')
    .select(sql<string>`bd.title || u.title || r.title`.as('address'))
    .select(sql<number>`(SELECT count(*)::int FROM fee_payment_items pi WHERE pi.rid = p.rid AND pi.payment_id = p.id)`.as('bill_count'))
    .where('p.rid', '=', rid);
}

type Raw = Awaited<ReturnType<ReturnType<typeof paymentBase>['executeTakeFirstOrThrow']>>;

export function toPaymentRow(p: Raw): PaymentRow {
  const total = fenToYuan(toFen(p.receivable) + toFen(p.late_fee) - toFen(p.discount));
  return {
    id: p.id, receipt_no: p.receipt_no, hid: p.hid, address: p.address, payer_name: p.payer_name, receivable: p.receivable,
    late_fee: p.late_fee, discount: p.discount, total, balance_used: p.balance_used, due: p.due, paid_amount: p.paid_amount,
    to_balance: p.to_balance, pay_type: p.pay_type, pay_type_ch: PAY_TYPE_CH[p.pay_type], cashier_name: p.cashier_name,
    status: p.status, status_ch: PAYMENT_STATUS_CH[p.status], refunded_amount: p.refunded_amount, bill_count: Number(p.bill_count),
    remark: p.remark, create_time: wireTime(p.created_at),
  };
}

/** Receipt data: the payment, its bills, and the settled total in Chinese capitals. */
export async function paymentInfo(db: Kysely<DB>, rid: number, id: number): Promise<PaymentInfo> {
  const p = await paymentBase(db, rid).where('p.id', '=', id).executeTakeFirst();
  if (!p) fail('收费记录不存在');
  const [region, settings, items] = await Promise.all([
    db.selectFrom('regions').select('title').where('id', '=', rid).executeTakeFirstOrThrow(),
    db.selectFrom('fee_settings').select(['receipt_title', 'receipt_footnote']).where('rid', '=', rid).executeTakeFirst(),
    db.selectFrom('fee_payment_items').select(['bill_id', 'title', 'period', 'daterange', 'fee', 'late_fee', 'refunded'])
      .where('rid', '=', rid).where('payment_id', '=', id).orderBy('id').execute(),
  ]);
  const row = toPaymentRow(p!);
  return {
    ...row, region_title: region.title, receipt_title: settings?.receipt_title || `${region.title} 收款收据`,
    receipt_footnote: settings?.receipt_footnote ?? '', print_count: p!.print_count, capital_amount: capitalAmount(row.total), items,
  };
}
