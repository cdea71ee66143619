import {
  enumText,
  fenToYuan,
  REFUND_APPLY_ROLES,
  REFUND_APPROVE_ROLES,
  REFUND_STATUS,
  refundFlow,
  toFen,
  type RefundRow,
  MSG_FEES,
} from '@wuye/contract';
import type { Selectable } from 'kysely';
import type { FeeRefundsTable } from '../../db/schema.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { moveBalance } from '../cards/ledger.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { lockBills, reopenBills } from './reopen.js';
import { billsClosedOnRefund } from './billPaid.js';
import { paymentUndone } from './cashier.js';
import { refuseInvoicedLines } from './invoiced.js';

/** A refund request waits on the approvers' to-do list (docs/product.md#to-do-list) until it is approved or rejected. */
const refundBacklog = registerBacklogSource({
  kind: 'refund',
  roles: REFUND_APPROVE_ROLES,
  link: (id) => `/fees/refundlist?id=${id}`,
  hours: 48,
});

function refundQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_refunds as f')
    .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'f.rid').onRef('p.id', '=', 'f.payment_id'))
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'p.rid').onRef('r.id', '=', 'p.hid'))
    .selectAll('f')
    .select(['p.receipt_no', 'r.address'])
    .select(
      sql<string>`(SELECT string_agg(pi.title || ' ' || pi.period, '、' ORDER BY pi.id) FROM fee_payment_items pi
      WHERE pi.rid = f.rid AND pi.payment_id = f.payment_id AND pi.bill_id = ANY(f.bill_ids))`.as('bill_titles'),
    )
    .where('f.rid', '=', rid);
}

type Raw = Awaited<ReturnType<ReturnType<typeof refundQuery>['executeTakeFirstOrThrow']>>;

const toRow = (f: Raw, ctx: CommunityCtx): RefundRow => ({
  id: f.id,
  payment_id: f.payment_id,
  receipt_no: f.receipt_no,
  address: f.address,
  bill_ids: f.bill_ids.map(Number),
  bill_titles: f.bill_titles ?? '',
  amount: f.amount,
  cash_amount: f.cash_amount,
  balance_amount: f.balance_amount,
  reason: f.reason,
  status: f.status,
  status_ch: enumText(REFUND_STATUS, f.status),
  applicant: f.applicant,
  mine: f.applicant_id !== null && f.applicant_id === ctx.session.accountId,
  approver: f.approver,
  approve_remark: f.approve_remark,
  create_time: wireTime(f.created_at),
  approve_time: wireTime(f.approved_at),
});

/** The payment's still-unrefunded lines; `ids` narrows them (and must all be among them). */
async function openLines(ctx: CommunityCtx, paymentId: number, ids: number[]) {
  const lines = await ctx.db
    .selectFrom('fee_payment_items')
    .select(['bill_id', 'fee', 'late_fee'])
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', paymentId)
    .where('bill_id', 'is not', null)
    .where('refunded', '=', 'N')
    .orderBy('id')
    .$narrowType<{ bill_id: number }>()
    .execute();
  const chosen = ids.length ? lines.filter((l) => ids.includes(l.bill_id)) : lines;
  if (chosen.length === 0 || chosen.length !== (ids.length ? new Set(ids).size : lines.length)) fail('所选账单不在该收据中或已退款');
  return { lines, chosen };
}

/**
 * What a refund of `chosen` returns: the lines' fees and late fees, except that the refund that
 * empties the receipt returns exactly what is left of its total (so a discount is never lost).
 */
function refundAmount(
  p: { receivable: string; late_fee: string; discount: string; refunded_amount: string },
  all: number,
  chosen: Array<{ fee: string; late_fee: string }>,
): bigint {
  const left = toFen(p.receivable) + toFen(p.late_fee) - toFen(p.discount) - toFen(p.refunded_amount);
  const lines = chosen.reduce((s, l) => s + toFen(l.fee) + toFen(l.late_fee), 0n);
  return chosen.length === all || lines > left ? left : lines;
}

/**
 * A refund request of a receipt's lines (all of them when `bill_ids` is empty), waiting for an
 * approver; `amount` (fen) asks for less than the lines hold: a lease's deposit refunded but for
 * what its check-out keeps (modules/crm/leasesSignout.ts).
 */
export async function applyRefund(
  ctx: CommunityCtx,
  input: { payment_id: number; bill_ids: number[]; reason: string },
  amount?: bigint,
): Promise<{ id: number; amount: string }> {
  const p = await ctx.db
    .selectFrom('fee_payments')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.payment_id)
    .executeTakeFirst();
  if (!p) fail('收费记录不存在');
  if (p.status === 'R') fail('该收据已全部退款');
  if (p.status === 'V') fail('该收据已作废');
  if (p.hid === null) fail(MSG_FEES.stayReceipt);
  const pending = await ctx.db
    .selectFrom('fee_refunds')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', p.id)
    .where('status', '=', 'E')
    .executeTakeFirst();
  if (pending) fail('该收据已有待审核的退款申请');
  const { lines, chosen } = await openLines(ctx, p.id, input.bill_ids);
  // money an invoice covers is reversed by a red invoice first (invoiced.ts)
  await refuseInvoicedLines(ctx, p.id, input.bill_ids.length ? input.bill_ids : null, '退款');
  const due = refundAmount(p, lines.length, chosen);
  if (amount !== undefined && (amount <= 0n || amount > due)) fail(`退款金额须大于0且不超过 ${fenToYuan(due)} 元`);
  const refund = fenToYuan(amount ?? due);
  const row = await ctx.db
    .insertInto('fee_refunds')
    .values({
      rid: ctx.rid,
      payment_id: p.id,
      bill_ids: chosen.map((l) => l.bill_id),
      amount: refund,
      reason: input.reason,
      applicant: ctx.session.name,
      applicant_id: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeFlowLog(ctx, refundFlow.def, row.id, {
    transition: 'create',
    from: '',
    to: 'E',
    input: { reason: input.reason, amount: refund },
  });
  const room = await ctx.db.selectFrom('rooms').select('address').where('rid', '=', ctx.rid).where('id', '=', p.hid).executeTakeFirst();
  await refundBacklog.raise(ctx.db, ctx.rid, {
    sourceId: row.id,
    title: `审核退款申请：${room?.address ?? ''} ${refund} 元`.replace(/\s+/g, ' '),
    content: `收据 ${p.receipt_no}：${input.reason}`,
    submitter: ctx.session,
  });
  return { id: row.id, amount: refund };
}

const refundapply = defineMethod('refundapply', {
  side: 'community',
  roles: REFUND_APPLY_ROLES,
  writes: true,
  summary: '退款申请：一张收据的全部或部分账单，须填写原因，待有权限的角色审核；已开具发票的费用须先红冲发票',
  async handler(ctx, input) {
    const { id, amount } = await applyRefund(ctx, input);
    return reply({ id, amount }, `已提交退款申请，金额 ${amount} 元`);
  },
});

const refundList = defineMethod('refund_list', {
  side: 'community',
  roles: [...REFUND_APPLY_ROLES, ...REFUND_APPROVE_ROLES],
  writes: false,
  summary: '退款申请列表：收据号、房屋、账单、金额（原路退回/退回余额）、原因、状态、申请人、审核人',
  async handler(ctx, input) {
    let qb = refundQuery(ctx.db, ctx.rid);
    if (input.status) qb = qb.where('f.status', '=', input.status);
    if (input.payment_id) qb = qb.where('f.payment_id', '=', input.payment_id);
    const page = await listPage(qb, input, 'f.id');
    return { total: page.total, items: page.items.map((f) => toRow(f, ctx)) };
  },
});

/**
 * Approving reverses the refund exactly: bills back to unpaid (but those their area closes, billPaid.ts), the balance part back to the
 * balance, the rest the way it came. Refused while an invoice covers the lines (invoiced.ts), read under their locks after the bills'.
 */
async function approveRefund(ctx: CommunityCtx, f: Selectable<FeeRefundsTable>): Promise<void> {
  const p = await ctx.db
    .selectFrom('fee_payments')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('id', '=', f.payment_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  // refundapply refuses a stay's receipt; a request for one cannot be approved either
  if (p.hid === null) fail(MSG_FEES.stayReceipt);
  if (p.status === 'V') fail('该收据已作废');
  const billIds = f.bill_ids.map(Number);
  await lockBills(ctx, billIds);
  const { lines } = await openLines(ctx, p.id, billIds);
  // the lines locked after the receipt and its bills: an invoice issued for them meanwhile is seen, one issued later waits
  await refuseInvoicedLines(ctx, p.id, billIds, '退款');
  const amount = toFen(f.amount);
  const cashSoFar = await ctx.db
    .selectFrom('fee_refunds')
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', p.id)
    .where('status', '=', 'Y')
    .select(sql<string>`coalesce(sum(cash_amount), 0)::text`.as('cash'))
    .executeTakeFirstOrThrow();
  const cashRoom = toFen(p.due) - toFen(cashSoFar.cash);
  const cashBack = amount < cashRoom ? amount : cashRoom;
  const balanceBack = amount - cashBack;
  if (balanceBack > 0n) {
    if (!p.member_id) fail('该收据没有业主，无法退回余额');
    await moveBalance(ctx.db, {
      rid: ctx.rid,
      memberId: p.member_id,
      hid: p.hid,
      fen: balanceBack,
      ioType: 1,
      feetype: 'refund',
      paytype: 'balance',
      orderid: p.receipt_no,
      remark: `收据 ${p.receipt_no} 退款退回余额`,
      createUser: ctx.session.name,
    });
  }
  const closed = await billsClosedOnRefund(ctx, billIds);
  await reopenBills(
    ctx,
    billIds.filter((id) => !closed.has(id)),
  );
  await ctx.db
    .updateTable('fee_payment_items')
    .set({ refunded: 'Y' })
    .where('rid', '=', ctx.rid)
    .where('payment_id', '=', p.id)
    .where('bill_id', 'in', billIds)
    .execute();
  const allBack = lines.length === billIds.length;
  await ctx.db
    .updateTable('fee_payments')
    .set({ refunded_amount: fenToYuan(toFen(p.refunded_amount) + amount), status: allBack ? 'R' : 'P' })
    .where('rid', '=', ctx.rid)
    .where('id', '=', p.id)
    .execute();
  await ctx.db
    .updateTable('fee_refunds')
    .set({ cash_amount: fenToYuan(cashBack), balance_amount: fenToYuan(balanceBack) })
    .where('rid', '=', ctx.rid)
    .where('id', '=', f.id)
    .execute();
  await paymentUndone(ctx, { id: p.id, receipt_no: p.receipt_no });
}

/** Nobody decides a request of their own: a second person approves every refund (and rejects it). */
function notOwnRequest(ctx: CommunityCtx, row: { applicant_id?: unknown }) {
  if (row.applicant_id !== null && row.applicant_id !== undefined && Number(row.applicant_id) === ctx.session.accountId) {
    fail('不能审核自己提交的退款申请，请由其他有审核权限的人员处理');
  }
}

const refundDecided = (ctx: CommunityCtx, input: { remark?: unknown }) => ({
  approver: ctx.session.name,
  approve_remark: String(input.remark ?? ''),
  approved_at: sql<Date>`now()`,
});

const refundFlowMethods = defineWorkflow(refundFlow, {
  table: 'fee_refunds',
  answer: async (ctx, id) => toRow(await refundQuery(ctx.db, ctx.rid).where('f.id', '=', id).executeTakeFirstOrThrow(), ctx),
  transitions: {
    approve: {
      run: async (ctx, row) => {
        notOwnRequest(ctx, row);
        await approveRefund(ctx, row as Selectable<FeeRefundsTable>);
        await refundBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: refundDecided,
      message: '退款成功',
    },
    reject: {
      run: async (ctx, row) => {
        notOwnRequest(ctx, row);
        await refundBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: refundDecided,
      message: '已驳回',
    },
  },
  logRoles: [...REFUND_APPLY_ROLES, ...REFUND_APPROVE_ROLES],
  summaries: {
    refundapprove:
      '审核退款（不能审核自己提交的申请）：驳回，或批准并精确冲回（账单恢复未缴、余额抵扣部分退回余额、其余原路退回，收据标记部分/全部退款）',
    refundlog: '一条退款申请的处理记录：提交、同意或驳回，谁、何时、意见',
  },
});

export const refundMethods = [refundapply, refundList, ...refundFlowMethods];
