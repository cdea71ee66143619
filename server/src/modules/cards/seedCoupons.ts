import { addDays, addMonths, couponDiscountFen, daysBetween, fenToYuan, toFen } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { seedCtx } from '../../db/seedAs.js';
import { house, payBills } from '../fees/cashier.js';
import { generateBatch } from '../fees/seed.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';
import { newCouponCode } from './coupons.js';

interface SeedTemplate {
  name: string;
  kind: 'amount' | 'discount' | 'gift';
  purpose: 'shopping' | 'property' | 'parking';
  face_value?: string;
  min_spend?: string;
  discount_percent?: number;
  discount_cap?: string;
  gift?: string;
  /** valid at the community's store of this index only (none: every store) */
  store?: number;
  stock: number | null;
  per_person: number;
  give_mode: 'claim' | 'staff' | 'rule';
  /** days after receipt, or a fixed range relative to today */
  days?: number;
  range?: [number, number];
  status?: 'N';
  description: string;
}

const TEMPLATES: SeedTemplate[] = [
  {
    name: '满100减10购物券',
    kind: 'amount',
    purpose: 'shopping',
    face_value: '10.00',
    min_spend: '100.00',
    stock: 1000,
    per_person: 3,
    give_mode: 'staff',
    days: 30,
    description: '小区内所有合作商户通用，每单限用一张。',
  },
  {
    name: '物业费9折券',
    kind: 'discount',
    purpose: 'property',
    discount_percent: 90,
    discount_cap: '50.00',
    stock: null,
    per_person: 1,
    give_mode: 'staff',
    range: [-60, 120],
    description: '缴纳物业费时抵扣，最多优惠 50 元。',
  },
  {
    name: '免费洗衬衫一件',
    kind: 'gift',
    purpose: 'shopping',
    gift: '免费洗衬衫一件',
    store: -1,
    stock: 200,
    per_person: 2,
    give_mode: 'claim',
    days: 60,
    description: '凭券到店领取，仅限本店使用。',
  },
  {
    name: '月度停车券',
    kind: 'amount',
    purpose: 'parking',
    face_value: '10.00',
    stock: null,
    per_person: 0,
    give_mode: 'rule',
    days: 31,
    description: '预缴 12 个月物业费赠送 12 张，每月一张，停车缴费时抵扣 10 元。',
  },
  {
    name: '国庆满50减5',
    kind: 'amount',
    purpose: 'shopping',
    face_value: '5.00',
    min_spend: '50.00',
    stock: 500,
    per_person: 1,
    give_mode: 'staff',
    range: [-420, -390],
    status: 'N',
    description: '去年国庆活动，已结束。',
  },
];

/**
 * Demo data of the members' coupons (优惠券; modules/cards/coupons.ts), after the cards' own seed:
 * per community, five templates (满100减10 at every store, 物业费9折 capped at 50, a gift at one
 * store, the rule's monthly parking coupon, last year's stopped promotion) and about two coupons
 * each for a hundred card holders and the demo owner 陈建国, in every state: used ones name an
 * order number and (for a store's) the store; each template's issued count is what it gave.
 */
export async function seedCoupons(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const day = today();
  const stores = (await db.selectFrom('merchants').select('id').where('rid', '=', rid).orderBy('id').execute()).map((s) => Number(s.id));
  const templates = [];
  for (const t of TEMPLATES) {
    const store = t.store === undefined ? undefined : stores.at(t.store);
    const row = await db
      .insertInto('member_coupon_templates')
      .values({
        rid,
        name: t.name,
        kind: t.kind,
        purpose: t.purpose,
        face_value: t.face_value ?? '0',
        min_spend: t.min_spend ?? '0',
        discount_percent: t.discount_percent ?? null,
        discount_cap: t.discount_cap ?? '0',
        gift: t.gift ?? '',
        merchant_ids: store === undefined ? [] : [store],
        stock: t.stock,
        per_person: t.per_person,
        give_mode: t.give_mode,
        validity: t.range ? 'range' : 'days',
        valid_start: t.range ? addDays(day, t.range[0]) : null,
        valid_end: t.range ? addDays(day, t.range[1]) : null,
        valid_days: t.days ?? null,
        description: t.description,
        status: t.status ?? 'Y',
        created_at: sql`now() - interval '90 days'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    templates.push({ ...t, id: Number(row.id), store });
  }
  const holders = await sql<{ member_id: number; demo: boolean }>`
    (SELECT m.id AS member_id, true AS demo FROM members m WHERE m.rid = ${rid} AND m.mobile = ${DEMO_MOBILE} LIMIT 1)
    UNION ALL
    (SELECT c.member_id, false FROM member_cards c WHERE c.rid = ${rid} AND c.status IN ('Y', 'I', 'F')
     ORDER BY c.member_id LIMIT ${rid === 1 ? 100 : 40})`.execute(db);
  const rows: Array<Record<string, unknown>> = [];
  let order = 0;
  for (const [k, h] of holders.rows.entries()) {
    // the demo owner holds one of each running template; the others two each
    const picks = h.demo ? [0, 1, 2, 3] : [k % 5, (k + 2) % 5];
    for (const [j, p] of picks.entries()) {
      const t = templates[p]!;
      const n = k * 7 + j * 3;
      // when it came: a fixed range's coupons since its start, the others' over the last 80 days
      const start = t.range ? addDays(day, t.range[0]) : addDays(day, -80);
      const last = t.range && t.range[1] < 0 ? addDays(day, t.range[1]) : day;
      // the demo owner's came in the last days, so his unused ones are still running
      const got = h.demo && !t.range ? addDays(day, -2 - j * 3) : addDays(start, (n * 11) % (daysBetween(start, last) + 1));
      const [from, to] = t.range ? [start, addDays(day, t.range[1])] : [got, addDays(got, (t.days ?? 1) - 1)];
      const ended = to < day;
      // the demo owner: the first two unused, the parking one used, the gift used
      const state = h.demo
        ? j < 2
          ? 'U'
          : 'Y'
        : ended
          ? (['E', 'E', 'Y', 'V'] as const)[n % 4]!
          : (['U', 'U', 'U', 'Y', 'Y', 'V'] as const)[n % 6]!;
      const row: Record<string, unknown> = {
        rid,
        code: newCouponCode(),
        template_id: t.id,
        member_id: Number(h.member_id),
        got_at: sql`${got}::date + time '09:30' + ${`${n % 9} hours`}::interval`,
        valid_from: from,
        valid_to: to,
        status: state,
        source: t.give_mode,
        channel: t.give_mode === 'claim' ? '公众号领券' : t.give_mode === 'rule' ? '预缴赠送' : '后台',
        source_ref: t.give_mode === 'rule' ? `SK${got.replaceAll('-', '')}${String(k).padStart(4, '0')}` : '',
      };
      if (state === 'Y') {
        const usedDay = [addDays(got, n % 5), to, day].sort()[0]!;
        const amountFen = toFen(t.min_spend ?? '0') + toFen(String(20 + (n % 9) * 15));
        const merchant = t.purpose === 'shopping' ? (t.store ?? stores[n % stores.length]) : null;
        Object.assign(row, {
          used_at: sql`${usedDay}::date + time '15:20' + ${`${n % 5} hours`}::interval`,
          used_order_no: `${merchant ? 'XF' : 'SK'}${usedDay.replaceAll('-', '')}${String(rid * 10000 + ++order).padStart(6, '0')}`,
          used_merchant_id: merchant ?? null,
          used_amount: fenToYuan(amountFen),
          discount: fenToYuan(
            couponDiscountFen(
              {
                kind: t.kind,
                face_value: t.face_value ?? '0',
                discount_percent: t.discount_percent ?? null,
                discount_cap: t.discount_cap ?? '0',
              },
              amountFen,
            ),
          ),
        });
      }
      if (state === 'E') row.expired_at = sql`${addDays(to, 1)}::date + time '01:00'`;
      if (state === 'V')
        Object.assign(row, { void_reason: n % 2 ? '会员退房，作废' : '误发，作废', voided_at: sql`${got}::date + time '18:00'` });
      rows.push(row);
    }
  }
  if (rows.length)
    await db
      .insertInto('member_coupons')
      .values(rows as never)
      .execute();
  await sql`
    UPDATE member_coupon_templates t SET issued = (SELECT count(*) FROM member_coupons c WHERE c.rid = t.rid AND c.template_id = t.id)
    WHERE t.rid = ${rid}`.execute(db);
}

/**
 * One owner of 阳光花园 prepays a year of the property fee at the cashier (the product's path: the
 * year's bills generated for the room, paid by 赵收银), so the rule gives its 12 monthly parking
 * coupons and 赠券记录 shows the give. After the fees' and the invoices' seeds: its receipt is the last of today's.
 */
export async function seedCouponRuleGive(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedRule(db, rid);
  const rid = 1;
  const rule = await db.selectFrom('member_coupon_rules').select(['item_id']).where('rid', '=', rid).executeTakeFirst();
  const cashier = await seedCtx(db, rid, 'cashier', ['cashier', 'fees', 'payment', 'refund']);
  if (!rule || !cashier) return;
  // an owner high up the last building, not the demo owner, whose rooms the walks pay at the desk
  const room = await db
    .selectFrom('rooms as r')
    .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'r.rid').onRef('rm.hid', '=', 'r.id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select('r.id')
    .where('r.rid', '=', rid)
    .where('r.floor', '>=', 3)
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .where('m.mobile', '<>', DEMO_MOBILE)
    .orderBy('r.bid', 'desc')
    .orderBy('r.id', 'desc')
    .executeTakeFirst();
  if (!room) return;
  const month = `${today().slice(0, 7)}-01`;
  const billIds: number[] = [];
  for (let k = 1; k <= 12; k++)
    billIds.push(...(await generateBatch(db, rid, addMonths(month, k).slice(0, 7), Number(rule.item_id), [room.id])));
  if (billIds.length < 12) return;
  await payBills(cashier, await house(cashier, room.id), {
    billIds,
    payType: 'wechat',
    useBalance: false,
    discount: '0.00',
    idempotencyKey: `seed-prepay-${room.id}`,
    remark: '预缴一年物业费',
  });
}

/** The rule that gives the monthly parking coupon: a year of the property fee paid ahead (after the fees' items). */
async function seedRule(db: Kysely<DB>, rid: number): Promise<void> {
  const property = await db
    .selectFrom('fee_items')
    .select('id')
    .where('rid', '=', rid)
    .where('cost_type', '=', 'property')
    .orderBy('id')
    .executeTakeFirst();
  const parking = await db
    .selectFrom('member_coupon_templates')
    .select('id')
    .where('rid', '=', rid)
    .where('give_mode', '=', 'rule')
    .orderBy('id')
    .executeTakeFirst();
  if (!property || !parking) return;
  await db
    .insertInto('member_coupon_rules')
    .values({
      rid,
      name: '预缴一年物业费送停车券',
      item_id: property.id,
      min_months: 12,
      prepaid_only: 'Y',
      template_id: parking.id,
      quantity: 12,
      frequency: 'monthly',
      remark: '一次预缴 12 个月物业费，每月赠 1 张 10 元停车券',
      created_at: sql`now() - interval '90 days'`,
    })
    .execute();
}
