/**
 * What the activities' methods share (docs/product.md#activities): the activity's row and phase,
 * the seats taken, the lock every seat-changing write takes, the wire rows.
 */
import {
  ACTIVITY_JOIN_MODE,
  ACTIVITY_JOIN_TYPE,
  ACTIVITY_PHASE,
  ACTIVITY_REFUND_RULE,
  ACTIVITY_SALE,
  SIGNUP_PAY_STATUS,
  SIGNUP_STATUS,
  enumText,
  type ActivityField,
  type ActivityItem,
  type ActivityPhase,
  type SignupItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import type { CommunityCtx } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';
import { registerBacklogSource } from '../setup/backlog.js';

/** Sign-up states that hold a seat; a waiting one holds a seat once it is offered one (offer_expires_at). */
export const HOLDING = ['P', 'R', 'Y', 'S', 'A'] as const;

/** The phase of activity `a` at `at` (default now). */
export const phaseSql = (at: ReturnType<typeof sql> = sql`now()`) =>
  sql<ActivityPhase>`CASE WHEN a.cancelled_at IS NOT NULL THEN 'cancelled'
    WHEN ${at} < a.start_time THEN 'pre' WHEN ${at} < a.end_time THEN 'open'
    WHEN ${at} < a.event_start_time THEN 'closed' WHEN ${at} < a.event_end_time THEN 'running' ELSE 'ended' END`;

/** Seats taken of activity `a`. */
export const heldSql = sql<number>`(SELECT count(*)::int FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id
  AND (x.status IN ('P', 'R', 'Y', 'S', 'A') OR (x.status = 'W' AND x.offer_expires_at IS NOT NULL)))`;

export const activityQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('activities as a')
    .leftJoin('accounts as c', 'c.id', 'a.created_by')
    .where('a.rid', '=', rid)
    .selectAll('a')
    .select([
      sql<string>`coalesce(c.name, a.create_user)`.as('creator'),
      phaseSql().as('phase'),
      heldSql.as('held'),
      sql<number>`(SELECT count(*)::int FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id AND x.status = 'W' AND x.offer_expires_at IS NULL)`.as(
        'waiting',
      ),
      sql<number>`(SELECT count(*)::int FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id AND x.status = 'S')`.as(
        'checked',
      ),
      sql<string>`(SELECT coalesce(sum(x.amount) FILTER (WHERE x.pay_status IN ('Y', 'R', 'F')), 0)::numeric(14,2)::text FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id)`.as(
        'paid_amount',
      ),
      sql<string>`(SELECT coalesce(sum(x.refund_amount), 0)::numeric(14,2)::text FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id AND x.pay_status = 'F')`.as(
        'refunded_amount',
      ),
      sql<boolean>`EXISTS (SELECT 1 FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id AND x.pay_status IN ('Y', 'R', 'F'))`.as(
        'price_locked',
      ),
    ]);

export type ActivityRow = Awaited<ReturnType<ReturnType<typeof activityQuery>['executeTakeFirstOrThrow']>>;

export async function toActivityItems(db: Kysely<DB>, rid: number, rows: ActivityRow[]): Promise<ActivityItem[]> {
  const bids = [...new Set(rows.flatMap((r) => r.scope_bids.map(Number)))];
  const names = new Map<number, string>();
  if (bids.length) {
    const bs = await db.selectFrom('buildings').select(['id', 'title']).where('rid', '=', rid).where('id', 'in', bids).execute();
    for (const b of bs) names.set(Number(b.id), b.title);
  }
  return rows.map((r) => {
    const scopeBids = r.scope_bids.map(Number);
    return {
      id: Number(r.id),
      title: r.title,
      cover: r.cover,
      body: r.body,
      place: r.place,
      start_time: wireTime(r.start_time),
      end_time: wireTime(r.end_time),
      event_start_time: wireTime(r.event_start_time),
      event_end_time: wireTime(r.event_end_time),
      limit_num: r.limit_num,
      totle_num: r.held,
      waiting_num: r.waiting,
      checked_num: r.checked,
      min_num: r.min_num,
      join_type: r.join_type as ActivityItem['join_type'],
      join_type_ch: enumText(ACTIVITY_JOIN_TYPE, r.join_type),
      join_mode: r.join_mode as ActivityItem['join_mode'],
      join_mode_ch: enumText(ACTIVITY_JOIN_MODE, r.join_mode),
      companions_max: r.companions_max,
      household_limit: r.household_limit,
      is_pay: r.is_pay as 'Y' | 'N',
      is_pay_ch: r.is_pay === 'Y' ? '收费' : '免费',
      price: String(r.price),
      price_locked: r.price_locked,
      pay_minutes: r.pay_minutes,
      refund_rule: r.refund_rule as ActivityItem['refund_rule'],
      refund_rule_ch: enumText(ACTIVITY_REFUND_RULE, r.refund_rule),
      refund_hours: r.refund_hours,
      refund_fee_type: r.refund_fee_type as ActivityItem['refund_fee_type'],
      refund_fee: String(r.refund_fee),
      waitlist: r.waitlist as 'Y' | 'N',
      confirm_hours: r.confirm_hours,
      review: r.review as 'Y' | 'N',
      scope: r.scope as ActivityItem['scope'],
      scope_bids: scopeBids,
      scope_ch: r.scope === 'all' ? '全小区' : scopeBids.map((b) => names.get(b) ?? `#${b}`).join('、'),
      form: r.form as unknown as ActivityField[],
      status: r.status as 'Y' | 'N',
      status_ch: enumText(ACTIVITY_SALE, r.status),
      phase: r.phase,
      phase_ch: enumText(ACTIVITY_PHASE, r.phase),
      paid_amount: r.paid_amount,
      refunded_amount: r.refunded_amount,
      cancel_reason: r.cancel_reason,
      create_user: r.creator,
      create_time: wireTime(r.create_time),
    };
  });
}

export async function activityItem(db: Kysely<DB>, rid: number, id: number): Promise<ActivityItem> {
  const row = await activityQuery(db, rid).where('a.id', '=', id).executeTakeFirst();
  if (!row) return fail('活动不存在');
  return (await toActivityItems(db, rid, [row]))[0]!;
}

/** The activity locked for a change of its seats or settings (every seat-changing write takes it first). */
export async function lockActivity(db: Kysely<DB>, rid: number, id: number) {
  const row = await db
    .selectFrom('activities as a')
    .selectAll('a')
    .select(phaseSql().as('phase'))
    .where('a.rid', '=', rid)
    .where('a.id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return fail('活动不存在');
  return row;
}
export type LockedActivity = Awaited<ReturnType<typeof lockActivity>>;

/** Seats taken now (read under the activity's lock). */
export async function seatsHeld(db: Kysely<DB>, rid: number, activityId: number): Promise<number> {
  const r = await db
    .selectFrom('activity_signups')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', rid)
    .where('activity_id', '=', activityId)
    .where((eb) => eb.or([eb('status', 'in', [...HOLDING]), eb.and([eb('status', '=', 'W'), eb('offer_expires_at', 'is not', null)])]))
    .executeTakeFirstOrThrow();
  return r.n;
}

/** A sign-up's payment as read: a refund asked through the refund workflow is 已退款 once approved, 已支付 again if rejected. */
export const payStateSql = sql<string>`CASE WHEN s.pay_status = 'R' THEN coalesce((SELECT CASE f.status WHEN 'Y' THEN 'F' WHEN 'N' THEN 'Y' END
  FROM fee_refunds f WHERE f.rid = s.rid AND f.id = s.refund_id), 'R') ELSE s.pay_status END`;

export const signupQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('activity_signups as s')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 's.rid').onRef('m.id', '=', 's.member_id'))
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 's.rid').onRef('r.id', '=', 's.hid'))
    .where('s.rid', '=', rid)
    .selectAll('s')
    .select(['m.realname', 'm.mobile', 'r.address'])
    .select(payStateSql.as('pay_state'))
    .select(
      sql<number>`CASE WHEN s.status = 'W' AND s.offer_expires_at IS NULL THEN (SELECT count(*)::int FROM activity_signups w
        WHERE w.rid = s.rid AND w.activity_id = s.activity_id AND w.status = 'W' AND w.offer_expires_at IS NULL
          AND (w.waited_at, w.id) <= (s.waited_at, s.id)) ELSE 0 END`.as('wait_pos'),
    );

export type SignupRow = Awaited<ReturnType<ReturnType<typeof signupQuery>['executeTakeFirstOrThrow']>>;

export const toSignupItem = (s: SignupRow): SignupItem => {
  const status = s.status as SignupItem['status'];
  let statusCh = enumText(SIGNUP_STATUS, status);
  if (status === 'W') statusCh = s.offer_expires_at ? '候补（待确认）' : `候补 #${s.wait_pos}`;
  return {
    id: Number(s.id),
    no: s.no,
    activity_id: Number(s.activity_id),
    member_id: Number(s.member_id),
    realname: s.realname,
    mobile: s.mobile,
    hid: Number(s.hid),
    address: s.address,
    companions: s.companions,
    people: 1 + s.companions,
    answers: s.answers as SignupItem['answers'],
    status,
    status_ch: statusCh,
    wait_pos: s.wait_pos,
    pay_status: s.pay_state as SignupItem['pay_status'],
    pay_status_ch: enumText(SIGNUP_PAY_STATUS, s.pay_state),
    amount: String(s.amount),
    refund_amount: String(s.refund_amount),
    bill_id: s.bill_id === null ? null : Number(s.bill_id),
    pay_deadline: wireTime(s.pay_deadline),
    offer_expires_at: wireTime(s.offer_expires_at),
    checked_in_at: wireTime(s.checked_in_at),
    cancel_reason: s.cancel_reason,
    create_time: wireTime(s.create_time),
  };
};

export async function signupItem(db: Kysely<DB>, rid: number, id: number): Promise<SignupItem> {
  const row = await signupQuery(db, rid).where('s.id', '=', id).executeTakeFirst();
  if (!row) return fail('报名记录不存在');
  return toSignupItem(row);
}

/** A sign-up with its activity locked first (the one lock order: the activity, then its sign-ups). */
export async function lockSignup(ctx: CommunityCtx, id: number) {
  const found = await ctx.db
    .selectFrom('activity_signups')
    .select('activity_id')
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!found) return fail('报名记录不存在');
  const activity = await lockActivity(ctx.db, ctx.rid, Number(found.activity_id));
  const signup = await ctx.db
    .selectFrom('activity_signups')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { activity, signup };
}

/** The to-do of a sign-up waiting for review (docs/product.md#activities): raised when it reaches 待审核, settled when decided or cancelled. */
export const reviewBacklog = registerBacklogSource({
  kind: 'activity',
  roles: ['service'],
  link: (sourceId) => `/service/signup_userlist?id=${sourceId.split('-')[0]}&status=R`,
  hours: 24,
});

/**
 * The to-do of an activity whose sign-up closed short of its minimum (最少成团): the organisers
 * decide before the event, cancelling it (everyone refunded) or holding it anyway. Raised once by
 * the clock, settled when the activity is cancelled or by hand.
 */
export const minimumBacklog = registerBacklogSource({
  kind: 'activitymin',
  roles: ['service'],
  link: (sourceId) => `/service/signup_userlist?id=${sourceId}`,
});

/** Raises the review to-do of a sign-up now 待审核. */
export async function raiseReview(
  db: Kysely<DB>,
  rid: number,
  s: { id: number; activity_id: number; no: string },
  title: string,
  who: string,
) {
  await reviewBacklog.raise(db, rid, {
    sourceId: `${s.activity_id}-${s.id}`,
    title: `审核活动报名：${title}`,
    content: `${who}（报名号 ${s.no}）`,
  });
}

/** Settles a sign-up's review to-do (approved, refused or cancelled). */
export const settleReview = (db: Kysely<DB>, rid: number, s: { id: number; activity_id: number }, by: number | null) =>
  reviewBacklog.settle(db, rid, `${s.activity_id}-${s.id}`, by);
