import { discountFlow, hasAnyRole, MSG_FEES, PAYMENT_VOID_ANY_ROLES, PAYMENT_VOID_ROLES, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { today, wireTime } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { moveBalance } from '../cards/ledger.js';
import { paymentInfo } from './payments.js';
import { paymentUndone } from './cashier.js';
import { refuseInvoicedLines } from './invoiced.js';
import { lockBills, reopenBills } from './reopen.js';

/**
 * 作废 (issue 34): a receipt taken by mistake is voided on the day it was made, with a reason, by
 * the cashier who took it or by finance. Voiding undoes exactly what the payment did, in one
 * transaction, the receipt row locked first (as a refund's approval locks it): every bill of
 * every room it paid is unpaid again (its late fee computed afresh), the balance it used goes
 * back to the owner, what it put into the balance is taken out again (refused once spent), and an
 * approved discount it used may be used again. The receipt stays, marked 已作废 with the reason;
 * the kept totals leave it out (migration 202611270145). A receipt an invoice covers is not voided
 * until a red invoice has reversed it (invoiced.ts).
 */
async function voidPayment(ctx: CommunityCtx, id: number, reason: string): Promise<void> {
  const p = await ctx.db
    .selectFrom('fee_payments')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!p) fail('收费记录不存在');
  if (p.status === 'V') fail('该收据已作废');
  if (p.hid === null) fail(MSG_FEES.stayReceipt);
  if (p.status === 'R' || p.status === 'P') fail('该收据已有退款，不能作废');
  if (!hasAnyRole(ctx.session.roles, PAYMENT_VOID_ANY_ROLES) && p.cashier_id !== ctx.session.accountId) {
    fail('只能作废自己收取的收据，其他收据请联系财务作废');
  }
  if (wireTime(p.created_at).slice(0, 10) !== today()) fail('只能作废当天的收据，往日的收据请走退款');
  const pending = await ctx.db
    .selectFrom('fee_refunds')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', p.id)
    .where('status', '=', 'E')
    .executeTakeFirst();
  if (pending) fail('该收据有待审核的退款申请，不能作废');

  // the receipt's bills, of whichever rooms, locked in id order as a payment locks them
  const lines = await ctx.db
    .selectFrom('fee_payment_items')
    .select('bill_id')
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', p.id)
    .execute();
  const billIds = [...new Set(lines.flatMap((l) => (l.bill_id === null ? [] : [l.bill_id])))].sort((a, b) => a - b);
  await lockBills(ctx, billIds);
  // every line of the receipt, locked after its bills: money an invoice covers is reversed by a red invoice first
  await refuseInvoicedLines(ctx, p.id, null, '作废');
  await reopenBills(ctx, billIds, p.id);

  const toBalance = toFen(p.to_balance);
  const balanceUsed = toFen(p.balance_used);
  if (p.member_id && (toBalance > 0n || balanceUsed > 0n)) {
    const member = await ctx.db
      .selectFrom('members')
      .select('balance')
      .where('rid', '=', ctx.rid)
      .where('id', '=', p.member_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    // what the receipt put into the balance must still be there, with what it took from it given back
    if (toFen(member.balance) + balanceUsed < toBalance) {
      fail(`该收据多收的 ${p.to_balance} 元已转入业主余额并已被使用，不能作废，请走退款`);
    }
    const common = { rid: ctx.rid, memberId: p.member_id, hid: p.hid, orderid: p.receipt_no, createUser: ctx.session.name };
    await moveBalance(ctx.db, {
      ...common,
      fen: balanceUsed,
      ioType: 1,
      feetype: 'void',
      paytype: 'balance',
      remark: `收据 ${p.receipt_no} 作废退回余额抵扣`,
    });
    await moveBalance(ctx.db, {
      ...common,
      fen: toBalance,
      ioType: 2,
      feetype: 'void',
      paytype: p.pay_type,
      remark: `收据 ${p.receipt_no} 作废扣回多收转入`,
    });
  }

  // an approved discount the receipt used may be used again
  const discounts = await ctx.db
    .updateTable('fee_discount_requests')
    .set({ status: 'Y', payment_id: null, used_at: null })
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', p.id)
    .where('status', '=', 'U')
    .returning('id')
    .execute();
  for (const d of discounts) {
    await writeFlowLog(ctx, discountFlow.def, d.id, {
      transition: 'void',
      from: 'U',
      to: 'Y',
      input: { receipt_no: p.receipt_no, reason },
    });
  }

  await ctx.db
    .updateTable('fee_payments')
    .set({
      status: 'V',
      void_reason: reason,
      voided_by: ctx.session.accountId,
      voided_by_name: ctx.session.name,
      voided_at: sql<Date>`now()`,
    })
    .where('rid', '=', ctx.rid)
    .where('id', '=', p.id)
    .execute();
  await paymentUndone(ctx, { id: p.id, receipt_no: p.receipt_no });
}

const paymentvoid = defineMethod('paymentvoid', {
  side: 'community',
  roles: PAYMENT_VOID_ROLES,
  writes: true,
  summary:
    '作废收据（仅限收据当天，须填写原因）：收银员作废自己收取的、财务作废任何一张；已退款、退款中、已作废或已开具发票（须先红冲）的不能作废；账单恢复未缴，余额抵扣退回、多收转入扣回，所用优惠申请可再次使用',
  async handler(ctx, input) {
    await voidPayment(ctx, input.id, input.reason);
    const info = await paymentInfo(ctx.db, ctx.rid, input.id);
    return reply(info, `收据 ${info.receipt_no} 已作废，账单已恢复未缴`);
  },
});

export const voidMethods = [paymentvoid];
