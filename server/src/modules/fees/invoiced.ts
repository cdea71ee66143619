import { fenToYuan, toFen } from '@wuye/contract';
import { fail } from '../../http/errors.js';
import type { CommunityCtx } from '../../http/registry.js';

const REFUSAL = {
  退款: (yuan: string) => `所选费用已开具发票 ${yuan} 元，请先红冲发票后再退款`,
  作废: (yuan: string) => `该收据已开具发票 ${yuan} 元，请先红冲发票后再作废`,
} as const;

/**
 * Money an invoice covers is not given back (docs/product.md#invoices; commerce 5.5): a refund or a
 * void is refused while any of its receipt lines has `invoiced` above 0 (issued or issuing blue
 * invoices not reversed), naming the sum; a red invoice gives it back first.
 *
 * The lines are the payment's unrefunded ones whose bill is among `billIds`, or all of them when
 * `billIds` is null (the whole receipt). They are read FOR UPDATE in id order, so an invoice being
 * issued for them in another transaction either committed before (and is seen here) or waits
 * until this refund or void has committed; a caller that locks the receipt and its bills takes
 * these locks after them (payment, bills by id, lines by id).
 */
export async function refuseInvoicedLines(
  ctx: CommunityCtx,
  paymentId: number,
  billIds: readonly number[] | null,
  action: keyof typeof REFUSAL,
): Promise<void> {
  if (billIds !== null && billIds.length === 0) return;
  let q = ctx.db
    .selectFrom('fee_payment_items')
    .select(['id', 'invoiced'])
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', paymentId)
    .where('refunded', '=', 'N');
  if (billIds !== null) q = q.where('bill_id', 'in', [...billIds]);
  const lines = await q.orderBy('id').forUpdate().execute();
  const invoiced = lines.reduce((s, l) => s + toFen(l.invoiced), 0n);
  if (invoiced > 0n) fail(REFUSAL[action](fenToYuan(invoiced)));
}
