import {
  DISCOUNT_APPLY_ROLES,
  DISCOUNT_MANAGER_ROLES,
  DISCOUNT_STATUS,
  discountFlow,
  enumText,
  FEE_ROLES,
  fenToYuan,
  MSG_FEES,
  toFen,
  type DiscountRequestRow,
  type DiscountStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { billLateFee } from './arrears.js';
import { houseOwner, payableRooms } from './balance.js';
import { capOf, feeSettings } from './settings.js';

/**
 * Discount approval (优惠审批, issue 33): above the community's cap (max_discount_percent) a
 * cashier asks for a discount on chosen bills with a reason; a manager (DISCOUNT_MANAGER_ROLES or
 * admin, never the one who asked) approves or rejects it through the discount workflow; the cashier
 * who asked uses an approved one once, when collecting exactly those bills for what they still
 * came to (checked and marked used in the payment's transaction: cashier.ts payBills).
 */

registerDependents({ fee_discount_requests: '优惠申请' });

function requestQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_discount_requests as d')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'd.rid').onRef('r.id', '=', 'd.hid'))
    .leftJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'd.rid').onRef('p.id', '=', 'd.payment_id'))
    .selectAll('d')
    .select(['r.address', 'p.receipt_no'])
    .select(
      sql<string>`(SELECT string_agg(b.title || ' ' || b.period, '、' ORDER BY b.id) FROM fee_bills b
      WHERE b.rid = d.rid AND b.id = ANY(d.bill_ids))`.as('bill_titles'),
    )
    .select(
      sql<number[] | null>`(SELECT array_agg(DISTINCT b.hid) FROM fee_bills b WHERE b.rid = d.rid AND b.id = ANY(d.bill_ids))`.as('hids'),
    )
    .where('d.rid', '=', rid);
}

type Raw = Awaited<ReturnType<ReturnType<typeof requestQuery>['executeTakeFirstOrThrow']>>;

const toRow = (d: Raw, ctx: CommunityCtx): DiscountRequestRow => ({
  id: d.id,
  hid: d.hid,
  address: d.address,
  bill_ids: d.bill_ids.map(Number),
  hids: (d.hids ?? []).map(Number),
  bill_titles: d.bill_titles ?? '',
  receivable: d.receivable,
  late_fee: d.late_fee,
  amount: d.amount,
  reason: d.reason,
  status: d.status as DiscountStatus,
  status_ch: enumText(DISCOUNT_STATUS, d.status),
  applicant: d.applicant,
  mine: d.created_by !== null && d.created_by === ctx.session.accountId,
  approver: d.approver,
  approve_remark: d.approve_remark,
  create_time: wireTime(d.created_at),
  approve_time: wireTime(d.approved_at),
  payment_id: d.payment_id ?? 0,
  receipt_no: d.receipt_no ?? '',
  use_time: wireTime(d.used_at),
});

/** The bills' ids in the order a request keeps them. */
const sortedIds = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

const discountapply = defineMethod('discountapply', {
  side: 'community',
  roles: DISCOUNT_APPLY_ROLES,
  writes: true,
  summary:
    '申请优惠审批：收银员对所选未缴账单（本房屋或同一业主的其他房屋）申请超过本小区上限的优惠，须填写原因；由收费主管或管理员审批（不能审批自己的申请），批准后申请人收取这些账单时可用一次',
  async handler(ctx, input) {
    const room = await ctx.db.selectFrom('rooms').select('id').where('rid', '=', ctx.rid).where('id', '=', input.hid).executeTakeFirst();
    if (!room) fail('房屋不存在');
    const ids = sortedIds(input.bill_ids);
    const bills = await ctx.db
      .selectFrom('fee_bills as b')
      .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
      .select(['b.id', 'b.hid', 'b.fee', 'b.status', billLateFee(today()).as('late_fee_now')])
      .where('b.rid', '=', ctx.rid)
      .where('b.id', 'in', ids)
      .execute();
    if (bills.length !== ids.length) fail(MSG_FEES.billNotFound);
    if (bills.some((b) => b.status === 'Y')) fail(MSG_FEES.billPaid);
    const owner = await houseOwner(ctx.db, ctx.rid, room.id);
    const rooms = await payableRooms(ctx.db, ctx.rid, room.id, owner?.member_id);
    if (bills.some((b) => !rooms.has(b.hid))) fail(owner ? '所选账单不属于该业主的房屋' : '所选账单不属于该房屋');
    const receivable = bills.reduce((s, b) => s + toFen(b.fee), 0n);
    const late = bills.reduce((s, b) => s + toFen(b.late_fee_now), 0n);
    const amount = toFen(input.amount);
    if (amount > receivable + late) fail('优惠金额不能大于应收合计');
    const settings = await feeSettings(ctx.db, ctx.rid);
    if (settings.allow_discount !== 'Y') fail('本小区不允许在收银台优惠减免，无法申请优惠');
    const cap = capOf(settings, receivable + late);
    if (amount <= cap) fail(`优惠未超过本小区收银员上限（本次最多 ${fenToYuan(cap)} 元），可直接收款，无需审批`);
    const open = await ctx.db
      .selectFrom('fee_discount_requests')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('status', 'in', ['E', 'Y'])
      .where(sql<boolean>`bill_ids && ${ids}::bigint[]`)
      .executeTakeFirst();
    if (open) fail(`所选账单已有待审批或已批准未使用的优惠申请（编号 ${open.id}），请先处理该申请`);
    const row = await ctx.db
      .insertInto('fee_discount_requests')
      .values({
        rid: ctx.rid,
        hid: room.id,
        bill_ids: ids,
        receivable: fenToYuan(receivable),
        late_fee: fenToYuan(late),
        amount: input.amount,
        reason: input.reason,
        applicant: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeFlowLog(ctx, discountFlow.def, row.id, {
      transition: 'create',
      from: '',
      to: 'E',
      input: { reason: input.reason, amount: input.amount },
    });
    return reply({ id: row.id, amount: input.amount }, `已提交优惠审批，优惠 ${input.amount} 元，待收费主管审批`);
  },
});

const discountRequestList = defineMethod('discount_request_list', {
  side: 'community',
  roles: [...DISCOUNT_APPLY_ROLES, ...DISCOUNT_MANAGER_ROLES],
  writes: false,
  summary:
    '优惠审批列表：房屋、账单、应收、优惠金额、原因、状态（待审批/已批准/已驳回/已使用）、申请人、审批人、使用的收据；可按状态、房屋、本人申请筛选',
  async handler(ctx, input) {
    let qb = requestQuery(ctx.db, ctx.rid);
    if (input.status) qb = qb.where('d.status', '=', input.status);
    if (input.hid) qb = qb.where('d.hid', '=', input.hid);
    if (input.mine) qb = qb.where('d.created_by', '=', ctx.session.accountId);
    const page = await listPage(qb, input, 'd.id');
    return { total: page.total, items: page.items.map((d) => toRow(d, ctx)) };
  },
});

/** Nobody decides a request of their own. */
function notOwnRequest(ctx: CommunityCtx, row: { created_by?: unknown }) {
  if (row.created_by !== null && row.created_by !== undefined && Number(row.created_by) === ctx.session.accountId) {
    fail('不能审批自己提交的优惠申请，请由其他收费主管或管理员处理');
  }
}

const decided = (ctx: CommunityCtx, input: { remark?: unknown }) => ({
  approver: ctx.session.name,
  approve_remark: String(input.remark ?? ''),
  approved_at: sql<Date>`now()`,
});

const discountFlowMethods = defineWorkflow(discountFlow, {
  table: 'fee_discount_requests',
  answer: async (ctx, id) => toRow(await requestQuery(ctx.db, ctx.rid).where('d.id', '=', id).executeTakeFirstOrThrow(), ctx),
  transitions: {
    approve: { run: async (ctx, row) => notOwnRequest(ctx, row), set: decided, message: '已批准' },
    reject: { run: async (ctx, row) => notOwnRequest(ctx, row), set: decided, message: '已驳回' },
  },
  // and the fee reports' readers, whom 优惠记录 (paydata.ts) shows an application's log
  logRoles: [...DISCOUNT_APPLY_ROLES, ...DISCOUNT_MANAGER_ROLES, ...FEE_ROLES.reports],
  summaries: {
    discountapprove: '审批优惠申请（收费主管或管理员，不能审批自己的申请）：批准后申请人收取这些账单时可使用一次，或驳回',
    discountlog: '一条优惠申请的处理记录：提交、批准或驳回、收款使用，谁、何时、意见',
  },
});

/** An approved request taken by a payment: its amount is the discount, and no cap applies. */
export interface ApprovedDiscount {
  id: number;
  amount: bigint;
}

/**
 * The approved request `id` of the cashier's, for exactly the bills `ids` (sorted) whose fees still
 * come to what they came to when asked, and for its amount exactly: locked (FOR UPDATE) in the
 * payment's transaction, so two payments never use it both. Refuses anything else.
 */
export async function approvedDiscount(
  ctx: CommunityCtx,
  id: number,
  ids: readonly number[],
  receivableFen: bigint,
  discountFen: bigint,
): Promise<ApprovedDiscount> {
  const d = await ctx.db
    .selectFrom('fee_discount_requests')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!d) fail('优惠申请不存在');
  if (d.status === 'E') fail('该优惠申请尚未审批，请等待收费主管审批后再收款');
  if (d.status === 'N') fail('该优惠申请已被驳回，不能使用');
  if (d.status === 'U') fail('该优惠申请已使用过，不能再次使用');
  if (d.created_by !== ctx.session.accountId) fail('只有申请人可以使用该优惠申请');
  const asked = d.bill_ids.map(Number);
  if (asked.length !== ids.length || asked.some((b, i) => b !== ids[i])) {
    fail('所选账单与优惠申请的账单不一致：请只勾选申请时的账单，或重新申请');
  }
  if (toFen(d.receivable) !== receivableFen) fail('申请后账单金额已变动，该优惠申请不能使用，请重新申请');
  if (toFen(d.amount) !== discountFen) fail(`优惠金额须为批准的 ${d.amount} 元`);
  return { id: d.id, amount: toFen(d.amount) };
}

/** Marks the request used by the payment, in its transaction, and logs the step. */
export async function useDiscount(ctx: CommunityCtx, d: ApprovedDiscount, paymentId: number, receiptNo: string): Promise<void> {
  await ctx.db
    .updateTable('fee_discount_requests')
    .set({ status: 'U', payment_id: paymentId, used_at: sql<Date>`now()` })
    .where('rid', '=', ctx.rid)
    .where('id', '=', d.id)
    .execute();
  await writeFlowLog(ctx, discountFlow.def, d.id, { transition: 'use', from: 'Y', to: 'U', input: { receipt_no: receiptNo } });
}

export const discountMethods = [discountapply, discountRequestList, ...discountFlowMethods];
