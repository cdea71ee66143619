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
