/**
 * The money and seats of sign-ups (docs/product.md#activities): a paid sign-up's bill of its room
 * (cost type 活动费) that the cashier takes; the bill paid moves the sign-up on; an unpaid seat
 * released (its bill deleted, so the cashier cannot take it); the first waiting sign-up offered
 * the freed seat; a cancelled paid sign-up refunded through the refund workflow.
 */
import { fenToYuan, mulDivRoundHalfUp, refundFlow, toFen } from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ActivitySignupsTable } from '../../db/types.generated.js';
import { fail } from '../../http/errors.js';
import type { CommunityCtx } from '../../http/registry.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { today } from '../../lib/wire.js';
import { registerBillPaidListener, registerRefundCloser } from '../fees/billPaid.js';
import { periodRange } from '../fees/calc.js';
import { ensureOwnItem } from '../fees/ownBills.js';
import { heldSql, minimumBacklog, raiseReview, seatsHeld, settleReview, type LockedActivity } from './core.js';

/** The one fee item of a community's sign-up bills. */
export const SIGNUP_ITEM_TITLE = '活动报名费';

export type SignupTableRow = Selectable<ActivitySignupsTable>;

/**
 * The fee item sign-ups' bills are billed under: cost type 活动费 and one item of the community's,
 * 活动报名费 (the bill carries the activity's title and price).
 */
const signupItem = (db: Kysely<DB>, rid: number) =>
  ensureOwnItem(db, rid, { cost: { code: 'activity', title: '活动费', sort: 91 }, title: SIGNUP_ITEM_TITLE, remark: '活动报名自动生成' });

/** The bill of a sign-up's room for its price; answers the bill's id. */
export async function createSignupBill(
  db: Kysely<DB>,
  rid: number,
  a: { title: string; price: string },
  s: { hid: number },
): Promise<number> {
  const room = await db
    .selectFrom('rooms')
    .select(['id', 'bid', 'tid'])
    .where('rid', '=', rid)
    .where('id', '=', Number(s.hid))
    .executeTakeFirstOrThrow();
  const it = await signupItem(db, rid);
  const day = today();
  const period = day.slice(0, 7);
  const bill = await db
    .insertInto('fee_bills')
    .values({
      rid,
      hid: room.id,
      bid: room.bid,
      tid: room.tid,
      item_id: it.id,
      cost_type: it.cost_type,
      title: `活动费-${a.title}`.slice(0, 60),
      period,
      daterange: periodRange(period, 1).daterange,
      measure: '1',
      unit_price: a.price,
      fee: a.price,
      source: 'activity',
      due_date: day,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(bill.id);
}

/** Deletes a sign-up's unpaid bill (a released or cancelled seat): the cashier can no longer take it. */
async function dropUnpaidBill(db: Kysely<DB>, rid: number, billId: number | null): Promise<void> {
  if (billId === null) return;
  const bill = await db
    .selectFrom('fee_bills')
    .select(['id', 'status'])
    .where('rid', '=', rid)
    .where('id', '=', billId)
    .forUpdate()
    .executeTakeFirst();
  if (!bill) return;
  if (bill.status === 'Y') fail('该报名的账单已缴费，请刷新后重试');
  await db.deleteFrom('fee_bill_adjustments').where('rid', '=', rid).where('bill_id', '=', bill.id).execute();
  await db.deleteFrom('fee_bills').where('rid', '=', rid).where('id', '=', bill.id).execute();
}

/**
 * What a cancelled paid sign-up gets back by the activity's rule at `at`: null when the rule
 * refuses (不可退, or past its time), else the amount after the fee kept.
 */
export function refundDue(
  a: Pick<LockedActivity, 'refund_rule' | 'refund_hours' | 'refund_fee_type' | 'refund_fee' | 'end_time' | 'event_start_time'>,
  amount: string,
  at: Date,
): bigint | null {
  if (a.refund_rule === 'none') return null;
  const until =
    a.refund_rule === 'deadline' ? new Date(a.end_time!).getTime() : new Date(a.event_start_time!).getTime() - a.refund_hours * 3600_000;
  if (at.getTime() > until) return null;
  const paid = toFen(amount);
  const fee = a.refund_fee_type === 'percent' ? mulDivRoundHalfUp(paid, toFen(a.refund_fee), 10000n) : toFen(a.refund_fee);
  return fee >= paid ? 0n : paid - fee;
}

/** A refund request of the sign-up's paid bill through the refund workflow (finance approves it). */
async function requestRefund(ctx: CommunityCtx, s: SignupTableRow, fen: bigint, reason: string): Promise<number> {
  const item = await ctx.db
    .selectFrom('fee_bills as b')
    .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'b.rid').onRef('p.id', '=', 'b.payment_id'))
    .select(['p.id as payment_id', 'p.receipt_no', 'p.status'])
    .where('b.rid', '=', ctx.rid)
    .where('b.id', '=', s.bill_id!)
    .where('b.status', '=', 'Y')
    .executeTakeFirst();
  if (!item) return fail(`报名 ${s.no} 的缴费记录不存在，无法退款`);
  const amount = fenToYuan(fen);
  const row = await ctx.db
    .insertInto('fee_refunds')
    .values({
      rid: ctx.rid,
      payment_id: item.payment_id,
      bill_ids: [Number(s.bill_id)],
      amount,
      reason: `活动报名 ${s.no} 退款：${reason}`.slice(0, 200),
      applicant: ctx.session.name,
      applicant_id: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeFlowLog(ctx, refundFlow.def, Number(row.id), { transition: 'create', from: '', to: 'E', input: { reason, amount } });
  return Number(row.id);
}

/**
 * Cancels one sign-up (its activity locked by the caller): an unpaid bill deleted; a paid one
 * refunded by the rule, or in full (`full`: the activity cancelled, or staff's choice); then the
 * freed seat offered to the first waiting (`promote`).
 */
export async function cancelSignupRow(
  ctx: CommunityCtx,
  a: LockedActivity,
  s: SignupTableRow,
  o: { reason: string; full: boolean; promote: boolean },
): Promise<{ refunded: boolean; refund: string }> {
  if (s.status === 'C') fail('该报名已取消');
  if (s.status === 'S' || s.status === 'A') fail(`该报名${s.status === 'S' ? '已签到' : '已标记未到场'}，不能取消`);
  let payStatus = s.pay_status;
  let refundId: number | null = null;
  let refund = 0n;
  if (s.pay_status === 'U') await dropUnpaidBill(ctx.db, ctx.rid, s.bill_id);
  if (s.pay_status === 'Y') {
    const due = o.full ? toFen(s.amount) : refundDue(a, s.amount, new Date());
    if (due === null)
      fail(
        a.refund_rule === 'none'
          ? '该活动的报名费不可退；如需退款请选择“全额退款”'
          : '已过可退款时间，不能按规则退款；如需退款请选择“全额退款”',
      );
    refund = due;
    if (refund > 0n) {
      refundId = await requestRefund(ctx, s, refund, o.reason || '取消报名');
      payStatus = 'R';
    }
  }
  await ctx.db
    .updateTable('activity_signups')
    .set({
      status: 'C',
      pay_status: payStatus,
      cancelled_at: sql`now()`,
      cancel_reason: o.reason,
      refund_id: refundId,
      refund_amount: fenToYuan(refund),
      bill_id: s.pay_status === 'U' ? null : s.bill_id,
      pay_deadline: null,
      offer_expires_at: null,
      updated_at: sql`now()`,
    })
    .where('rid', '=', ctx.rid)
    .where('id', '=', s.id)
    .execute();
  if (s.status === 'R')
    await settleReview(ctx.db, ctx.rid, { id: Number(s.id), activity_id: Number(s.activity_id) }, ctx.session.accountId);
  if (o.promote) await promoteWaiting(ctx.db, ctx.rid, a, new Date());
  return { refunded: refundId !== null, refund: fenToYuan(refund) };
}

/**
 * Offers free seats to the first waiting sign-ups in order (the activity locked by the caller): a
 * paid activity's gets a bill and confirm_hours to pay; a free one's confirm_hours to confirm. A
 * sign-up offered once is never offered again. Answers how many were offered.
 */
export async function promoteWaiting(db: Kysely<DB>, rid: number, a: LockedActivity, at: Date): Promise<number> {
  if (a.waitlist !== 'Y' || a.cancelled_at) return 0;
  if (a.event_start_time && new Date(a.event_start_time).getTime() <= at.getTime()) return 0;
  let offered = 0;
  for (;;) {
    if (a.limit_num > 0 && (await seatsHeld(db, rid, Number(a.id))) >= a.limit_num) return offered;
    const next = await db
      .selectFrom('activity_signups')
      .selectAll()
      .where('rid', '=', rid)
      .where('activity_id', '=', a.id)
      .where('status', '=', 'W')
      .where('offer_expires_at', 'is', null)
      .where('promoted_at', 'is', null)
      .orderBy('waited_at')
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!next) return offered;
    await offerSeat(db, rid, a, next, at);
    offered++;
  }
}

/** Gives a waiting sign-up a seat now (a paid activity: a bill to pay within the confirm hours). */
export async function offerSeat(db: Kysely<DB>, rid: number, a: LockedActivity, s: SignupTableRow, at: Date): Promise<void> {
  const until = new Date(at.getTime() + a.confirm_hours * 3600_000);
  if (a.is_pay === 'Y') {
    const billId = await createSignupBill(db, rid, { title: a.title, price: String(a.price) }, { hid: Number(s.hid) });
    await db
      .updateTable('activity_signups')
      .set({ status: 'P', pay_status: 'U', amount: a.price, bill_id: billId, pay_deadline: until, promoted_at: at, updated_at: sql`now()` })
      .where('rid', '=', rid)
      .where('id', '=', s.id)
      .execute();
  } else {
    await db
      .updateTable('activity_signups')
      .set({ offer_expires_at: until, promoted_at: at, updated_at: sql`now()` })
      .where('rid', '=', rid)
      .where('id', '=', s.id)
      .execute();
  }
}

/**
 * The activities' clock as of `at` (a job runs it every minute; tests pass their own time):
 * unpaid seats past their deadline released and their bills deleted, free offers not confirmed
 * in time lapsed, each freed seat offered to the next waiting; after an event, those signed up
 * and not checked in marked 未到场.
 */
export async function runSignupClock(
  db: Kysely<DB>,
  at: Date,
): Promise<{ released: number; lapsed: number; offered: number; absent: number; short: number }> {
  const due = await db
    .selectFrom('activity_signups')
    .select(['rid', 'activity_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'P'), eb('pay_deadline', '<=', at)]),
        eb.and([eb('status', '=', 'W'), eb('offer_expires_at', '<=', at)]),
      ]),
    )
    .groupBy(['rid', 'activity_id'])
    .execute();
  let released = 0;
  let lapsed = 0;
  let offered = 0;
  for (const d of due) {
    await db.transaction().execute(async (tx) => {
      const a = await tx
        .selectFrom('activities as a')
        .selectAll('a')
        .select(sql<string>`''`.as('phase'))
        .where('a.rid', '=', d.rid)
        .where('a.id', '=', d.activity_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const rows = await tx
        .selectFrom('activity_signups')
        .selectAll()
        .where('rid', '=', d.rid)
        .where('activity_id', '=', d.activity_id)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'P'), eb('pay_deadline', '<=', at)]),
            eb.and([eb('status', '=', 'W'), eb('offer_expires_at', '<=', at)]),
          ]),
        )
        .orderBy('id')
        .forUpdate()
        .execute();
      for (const s of rows) {
        if (s.status === 'P') {
          await dropUnpaidBill(tx, d.rid, s.bill_id);
          released++;
        } else lapsed++;
        await tx
          .updateTable('activity_signups')
          .set({
            status: 'C',
            cancelled_at: at,
            cancel_reason: s.status === 'P' ? '超时未支付，名额已释放' : '候补确认超时，名额已让给下一位',
            bill_id: s.status === 'P' ? null : s.bill_id,
            pay_deadline: null,
            offer_expires_at: null,
            updated_at: sql`now()`,
          })
          .where('rid', '=', d.rid)
          .where('id', '=', s.id)
          .execute();
      }
      offered += await promoteWaiting(tx, d.rid, a as LockedActivity, at);
    });
  }
  const short = await raiseShortOfMinimum(db, at);
  const absent = await db
    .updateTable('activity_signups as s')
    .set({ status: 'A', updated_at: sql`now()` })
    .from('activities as a')
    .whereRef('a.rid', '=', 's.rid')
    .whereRef('a.id', '=', 's.activity_id')
    .where('s.status', '=', 'Y')
    .where('a.event_end_time', '<=', at)
    .where('a.cancelled_at', 'is', null)
    .executeTakeFirst();
  return { released, lapsed, offered, absent: Number(absent.numUpdatedRows), short };
}

/**
 * Activities whose sign-up has closed with fewer seats taken than their minimum (最少成团), the
 * event still to come: each raises its to-do once (a to-do settled by hand is not raised again).
 */
async function raiseShortOfMinimum(db: Kysely<DB>, at: Date): Promise<number> {
  const rows = await db
    .selectFrom('activities as a')
    .select(['a.rid', 'a.id', 'a.title', 'a.min_num', 'a.event_start_time', heldSql.as('held')])
    .where('a.min_num', '>', 0)
    .where('a.cancelled_at', 'is', null)
    .where('a.end_time', '<=', at)
    .where('a.event_start_time', '>', at)
    .where(heldSql, '<', sql<number>`a.min_num`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('backlog as b')
            .select('b.id')
            .whereRef('b.rid', '=', 'a.rid')
            .where('b.kind', '=', minimumBacklog.spec.kind)
            .where('b.source_id', '=', sql<string>`a.id::text`),
        ),
      ),
    )
    .execute();
  for (const a of rows)
    await minimumBacklog.raise(db, Number(a.rid), {
      sourceId: Number(a.id),
      title: `活动未成团：${a.title}`,
      content: `报名已截止，已报名 ${a.held} 人，少于最少成团人数 ${a.min_num} 人：请在活动开始前决定取消活动（已付款的全额退款）或照常举办`,
      deadline: a.event_start_time ? new Date(a.event_start_time) : null,
    });
  return rows.length;
}

// a sign-up's bill paid at the cashier: 待支付 → 已报名 (or 待审核 when the activity reviews sign-ups)
// a cancelled sign-up's bill (reopened by an approved refund) is never taken again
registerBillPaidListener(async (ctx, billIds) => {
  const rows = await ctx.db
    .selectFrom('activity_signups as s')
    .innerJoin('activities as a', (j) => j.onRef('a.rid', '=', 's.rid').onRef('a.id', '=', 's.activity_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 's.rid').onRef('m.id', '=', 's.member_id'))
    .select(['s.id', 's.no', 's.status', 's.activity_id', 'a.review', 'a.title', 'm.realname'])
    .where('s.rid', '=', ctx.rid)
    .where('s.bill_id', 'in', [...billIds])
    .orderBy('s.id')
    .execute();
  const gone = rows.find((r) => r.status === 'C');
  if (gone) fail(`活动报名 ${gone.no} 已取消，其活动费账单不能再收费`);
  for (const r of rows.filter((x) => x.status === 'P')) {
    await ctx.db
      .updateTable('activity_signups')
      .set({ status: r.review === 'Y' ? 'R' : 'Y', pay_status: 'Y', pay_deadline: null, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', r.id)
      .execute();
    if (r.review === 'Y')
      await raiseReview(ctx.db, ctx.rid, { id: Number(r.id), activity_id: Number(r.activity_id), no: r.no }, r.title, r.realname);
  }
});

// a cancelled sign-up's refunded fee is not owed again: its bill stays paid, its receipt line refunded
registerRefundCloser(async (ctx, billIds) => {
  const rows = await ctx.db
    .selectFrom('activity_signups')
    .select('bill_id')
    .where('rid', '=', ctx.rid)
    .where('bill_id', 'in', [...billIds])
    .where('status', '=', 'C')
    .execute();
  return rows.map((r) => Number(r.bill_id));
});
