import { sql } from 'kysely';
import type { CommunityCtx } from '../../http/registry.js';

/** Locks bills in id order, the order a payment locks them in, so two writers never wait on each other in a cycle. */
export async function lockBills(ctx: CommunityCtx, billIds: readonly number[]): Promise<void> {
  if (!billIds.length) return;
  await ctx.db
    .selectFrom('fee_bills')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('id', 'in', [...billIds])
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Puts paid bills back to unpaid (a refund, a void): overdue or waiting by their due date, no
 * payment, and the late fee to be worked out again. `paidBy` keeps to the bills that payment paid.
 */
export async function reopenBills(ctx: CommunityCtx, billIds: readonly number[], paidBy?: number): Promise<void> {
  if (!billIds.length) return;
  let q = ctx.db
    .updateTable('fee_bills')
    .set({ status: sql`CASE WHEN due_date < current_date THEN 'N' ELSE 'E' END`, paid_at: null, payment_id: null, late_fee: '0' })
    .where('rid', '=', ctx.rid)
    .where('id', 'in', [...billIds]);
  if (paidBy !== undefined) q = q.where('payment_id', '=', paidBy);
  await q.execute();
}
