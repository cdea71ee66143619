/**
 * 缴费成功 (docs/product.md#notifications): a payment at the counter tells the owner, and the
 * room's steward, as the group's message settings say; in the payment's transaction.
 */
import { sql } from 'kysely';
import { notify } from '../setup/notify.js';
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
    { owner: p.mobile ? { name: p.realname ?? '', mobile: p.mobile } : null, hid: p.hid },
    {
      title: `缴费成功：${p.address ? `${p.address} ` : ''}${p.paid_amount} 元`,
      content: `您已成功缴纳${p.address ? ` ${p.address} 的` : ''}费用 ${p.paid_amount} 元，收据号 ${p.receipt_no}，感谢您的支持。`,
      staffContent: `${p.realname ?? ''}${p.address ? ` ${p.address} ` : ' '}缴费 ${p.paid_amount} 元，收据号 ${p.receipt_no}`,
      refId: p.receipt_no,
    },
  );
});
