/**
 * 缴费成功 (docs/product.md#notifications): a payment at the counter tells the owner, and the
 * room's steward, as the group's message settings say; in the payment's transaction.
 */
import { sql } from 'kysely';
import { notify } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';
import { afterPayment } from './cashier.js';

afterPayment(async (ctx, payment) => {
  const { rows } = await sql<{
    receipt_no: string;
    paid_amount: string;
    hid: number | null;
    address: string | null;
    realname: string | null;
    mobile: string | null;
  }>`
    SELECT p.receipt_no, p.paid_amount::text AS paid_amount, p.hid, r.address, m.realname, m.mobile
    FROM fee_payments p
    LEFT JOIN rooms r ON r.rid = p.rid AND r.id = p.hid
    LEFT JOIN members m ON m.rid = p.rid AND m.id = p.member_id
    WHERE p.rid = ${ctx.rid} AND p.id = ${payment.id}`.execute(ctx.db);
  const p = rows[0];
  if (!p) return;
  await notify(
    ctx.db,
    ctx.rid,
    'pay_success',
    { owner: p.mobile ? { name: p.realname ?? '', mobile: p.mobile } : null, hid: p.hid, actor: ctx.session.accountId },
    {
      ...notifyText.pay_success({ address: p.address, amount: p.paid_amount, receipt: p.receipt_no, payer: p.realname }),
      refId: p.receipt_no,
    },
  );
});
