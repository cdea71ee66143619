import type { CommunityCtx } from '../../http/registry.js';

/**
 * Work other areas hang on a bill being paid (a repair's fee bill moves its ticket on:
 * docs/product.md#repairs). A listener runs inside the payment's transaction with the ids of the
 * bills just paid, after they are marked paid; a refusal it throws refuses the payment.
 */
export type BillPaidListener = (ctx: CommunityCtx, billIds: readonly number[], receiptNo: string) => Promise<void>;

const listeners: BillPaidListener[] = [];

/** Called once per area at module load. */
export function registerBillPaidListener(listener: BillPaidListener): void {
  listeners.push(listener);
}

/** Tells every listener that these bills were just paid (cashier.ts payBills). */
export async function billsPaid(ctx: CommunityCtx, billIds: readonly number[], receiptNo: string): Promise<void> {
  for (const listener of listeners) await listener(ctx, billIds, receiptNo);
}

/**
 * Bills an area closes itself when a refund of them is approved: nothing is owed on them again (a
 * cancelled sign-up's fee: the seat is gone). Answers the ids it closes; they stay paid, their
 * receipt lines marked refunded, and are not reopened (docs/product.md#activities).
 */
export type RefundCloser = (ctx: CommunityCtx, billIds: readonly number[]) => Promise<readonly number[]>;

const closers: RefundCloser[] = [];

/** Called once per area at module load. */
export function registerRefundCloser(closer: RefundCloser): void {
  closers.push(closer);
}

/** The bills of an approved refund that their areas close (refunds.ts approveRefund reopens the rest). */
export async function billsClosedOnRefund(ctx: CommunityCtx, billIds: readonly number[]): Promise<Set<number>> {
  const closed = new Set<number>();
  for (const closer of closers) for (const id of await closer(ctx, billIds)) closed.add(id);
  return closed;
}
