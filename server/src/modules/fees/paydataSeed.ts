import { fenToYuan, toFen } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Discounts for 优惠记录 and 缴费明细's 优惠 (docs/product.md#pay-data): three of the cashier's
 * latest receipts (of the open shift), on rooms outside 1号楼 and 2号楼 (which the demo's walks pay), taken with a
 * discount: two 减免 within the cashier's cap (10% and 5%, with the reason in the remark) and one of
 * 30% above it, through an application 郑会计 approved before the payment used it. Each receipt then
 * comes to its bills less the discount, paid in full, and its lines share the discount as a payment's
 * do (fee_payment_item_share_discounts).
 */
export async function seedPaydataDiscounts(db: Kysely<DB>, rid: number): Promise<void> {
  const cashier = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'cashier').executeTakeFirst();
  if (!cashier) return;
  const receipts = await db
    .selectFrom('fee_payments as p')
    .innerJoin('buildings as g', (j) => j.onRef('g.rid', '=', 'p.rid').onRef('g.id', '=', 'p.bid'))
    .select(['p.id', 'p.receipt_no', 'p.hid', 'p.receivable', 'p.created_at'])
    .where('p.rid', '=', rid)
    .where('p.status', '=', 'Y')
    .where('p.cashier_id', '=', cashier.id)
    .where('p.discount', '=', '0')
    .where('p.balance_used', '=', '0')
    .where('p.to_balance', '=', '0')
    .where('p.late_fee', '=', '0')
    .where('g.title', 'not in', ['1号楼', '2号楼'])
    // after the last hand-over (seedVoidAndShifts: 18:00 yesterday), so no shift's figures change
    .where('p.created_at', '>', sql<Date>`(current_date - 1) + time '18:00'`)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(3)
    .execute();
  const plans = [
    { percent: 10n, remark: '业主为退役军人，按小区规定减免 10%' },
    { percent: 5n, remark: '老住户一次缴清，减免零头' },
    { percent: 30n, remark: '' },
  ];
  for (const [i, p] of receipts.entries()) {
    const plan = plans[i]!;
    const amount = fenToYuan((toFen(p.receivable) * plan.percent) / 100n);
    const left = fenToYuan(toFen(p.receivable) - toFen(amount));
    await sql`UPDATE fee_payments SET discount = ${amount}::numeric, due = ${left}::numeric, paid_amount = ${left}::numeric,
      remark = ${plan.remark} WHERE rid = ${rid} AND id = ${p.id}`.execute(db);
    await sql`SELECT fee_payment_item_share_discounts(ARRAY[${rid}::int], ARRAY[${p.id}::bigint])`.execute(db);
    if (plan.remark) continue;
    const bills = await db
      .selectFrom('fee_bills')
      .select('id')
      .where('rid', '=', rid)
      .where('payment_id', '=', p.id)
      .orderBy('id')
      .execute();
    const reason = '业主家中漏水维修期间无法入住，申请减免本期物业费的 30%';
    const opinion = '情况属实，同意减免';
    const row = await db
      .insertInto('fee_discount_requests')
      .values({
        rid,
        hid: p.hid!,
        bill_ids: bills.map((b) => Number(b.id)),
        receivable: p.receivable,
        amount,
        reason,
        status: 'U',
        applicant: cashier.name,
        created_by: cashier.id,
        approver: '郑会计',
        approve_remark: opinion,
        approved_at: sql<Date>`${p.created_at}::timestamptz - interval '1 hour'`,
        payment_id: p.id,
        used_at: p.created_at,
        created_at: sql<Date>`${p.created_at}::timestamptz - interval '3 hours'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = { rid, flow: 'discount', row_id: row.id };
    await db
      .insertInto('workflow_logs')
      .values([
        {
          ...log,
          transition: 'create',
          from_state: '',
          to_state: 'E',
          input: JSON.stringify({ reason, amount }),
          operator: cashier.name,
          created_by: cashier.id,
          created_at: sql<Date>`${p.created_at}::timestamptz - interval '3 hours'`,
        },
        {
          ...log,
          transition: 'approve',
          from_state: 'E',
          to_state: 'Y',
          input: JSON.stringify({ remark: opinion }),
          operator: '郑会计',
          created_at: sql<Date>`${p.created_at}::timestamptz - interval '1 hour'`,
        },
        {
          ...log,
          transition: 'use',
          from_state: 'Y',
          to_state: 'U',
          input: JSON.stringify({ receipt_no: p.receipt_no }),
          operator: cashier.name,
          created_by: cashier.id,
          created_at: p.created_at,
        },
      ])
      .execute();
  }
}
