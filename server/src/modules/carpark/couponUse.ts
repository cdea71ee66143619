/**
 * Parking coupons at the exit (docs/product.md#parking-coupons): what the pricing needs from a
 * coupon kind, the coupons a plate holds at a lot now, and `useCoupon`, which the entries and
 * exits call in their transaction when a stay is paid with a coupon.
 */
import { couponFace, type CouponKind, type TempFeeCoupon } from '@wuye/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';

interface KindRow {
  id: number;
  title: string;
  kind: string;
  minutes: number;
  amount: string;
  rate: string;
}

/** A coupon kind as the pricing reads it. */
export function toPricing(r: KindRow): TempFeeCoupon & { title: string; face: string } {
  const kind = r.kind as CouponKind;
  const c = { id: Number(r.id), title: r.title, kind, minutes: r.minutes, amount: r.amount, rate: r.rate };
  return { ...c, face: couponFace(c) };
}

const kinds = (db: Kysely<DB>) =>
  db
    .selectFrom('parking_coupons as c')
    .select(['c.id', 'c.title', 'c.kind', 'c.minutes'])
    .select([sql<string>`c.amount::text`.as('amount'), sql<string>`c.rate::text`.as('rate')]);

/** Coupon kinds of a lot by id, in the order given; refuses one that is not the lot's. */
export async function couponKindsOf(db: Kysely<DB>, rid: number, lotId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await kinds(db)
    .where('c.rid', '=', rid)
    .where('c.lot_id', '=', lotId)
    .where('c.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => {
    const r = byId.get(id);
    if (!r) return fail('所选停车劵不存在或不属于该停车场');
    return toPricing(r);
  });
}

/** The coupons given to a plate that it may use at a lot at `at` (已领取 and within their day). */
export async function couponsForExit(db: Kysely<DB>, input: { rid: number; lotId: number; plate: string; at: Date }) {
  const rows = await kinds(db)
    .innerJoin('parking_coupon_given as g', (j) => j.onRef('g.rid', '=', 'c.rid').onRef('g.coupon_id', '=', 'c.id'))
    .select(['g.id as given_id', 'g.code'])
    .where('g.rid', '=', input.rid)
    .where('c.lot_id', '=', input.lotId)
    .where('g.carlicense', '=', input.plate)
    .where('g.state', '=', 'G')
    .where('g.valid_from', '<=', input.at)
    .where('g.valid_to', '>', input.at)
    .orderBy('g.id')
    .execute();
  return rows.map((r) => ({ ...toPricing(r), given_id: Number(r.given_id), code: r.code }));
}

/**
 * Marks a given coupon used on a stay, in the caller's transaction: locks it, and refuses one
 * that is not the plate's, not for the lot, already used or voided, or outside its day. `ref` names
 * the stay; `amount` is what the coupon took off the fee (the breakdown's effect).
 */
export async function useCoupon(
  trx: Transaction<DB> | Kysely<DB>,
  input: { rid: number; id: number; lotId: number; plate: string; at: Date; ref: string; amount: string },
) {
  const g = await trx
    .selectFrom('parking_coupon_given as g')
    .innerJoin('parking_coupons as c', (j) => j.onRef('c.rid', '=', 'g.rid').onRef('c.id', '=', 'g.coupon_id'))
    .select(['g.id', 'g.state', 'g.carlicense', 'g.valid_from', 'g.valid_to', 'c.lot_id'])
    .where('g.rid', '=', input.rid)
    .where('g.id', '=', input.id)
    .forUpdate('g')
    .executeTakeFirst();
  if (!g) return fail('停车劵不存在');
  if (g.state === 'U') fail('该停车劵已使用');
  if (g.state === 'V') fail('该停车劵已作废');
  if (g.carlicense !== input.plate) fail('该停车劵不属于此车牌');
  if (Number(g.lot_id) !== input.lotId) fail('该停车劵不能在此停车场使用');
  if (input.at < g.valid_from || input.at >= g.valid_to) fail('该停车劵已过期');
  await trx
    .updateTable('parking_coupon_given')
    .set({ state: 'U', used_at: input.at, used_ref: input.ref, used_amount: input.amount })
    .where('rid', '=', input.rid)
    .where('id', '=', input.id)
    .execute();
  return { id: input.id };
}
