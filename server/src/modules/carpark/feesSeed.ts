import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { peopledCommunities } from '../owners/seed.js';

/**
 * Demo data of the temporary-car fees and parking coupons (docs/product.md#temporary-car-fees,
 * #parking-coupons): on the community's first two lots (in seed order), a standard per car kind
 * with an old version and the current one; coupons of each kind on the first lot; two merchants'
 * orders; coupons given (today), used, voided and expired; each merchant's stock as they add up.
 */
export async function seedCarparkFees(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

const KINDS = [
  // car kind, first price, step price, cap; the current version raises the first period by ¥1
  { car_type: 'small', first: 5, step: 2, cap: 30, free: 15 },
  { car_type: 'large', first: 10, step: 4, cap: 60, free: 15 },
  { car_type: 'new_energy', first: 3, step: 1, cap: 20, free: 30 },
] as const;

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const lots = await db.selectFrom('parking_lots').select('id').where('rid', '=', rid).orderBy('id').limit(2).execute();
  if (lots.length === 0) return;
  for (const [i, lot] of lots.entries()) {
    for (const k of KINDS) {
      const { id } = await db
        .insertInto('parking_fee_standards')
        .values({ rid, lot_id: lot.id, car_type: k.car_type, created_at: sql<Date>`now() - interval '90 days'` })
        .returning('id')
        .executeTakeFirstOrThrow();
      const base = {
        rid,
        standard_id: id,
        free_minutes: k.free,
        first_minutes: 60,
        step_minutes: 30,
        step_price: String(k.step),
        cap_amount: String(k.cap),
      };
      await db
        .insertInto('parking_fee_versions')
        .values([
          {
            ...base,
            effective_from: sql<Date>`date_trunc('day', now()) - interval '90 days'`,
            first_price: String(k.first),
            off_first_price: String(k.first),
            off_step_price: String(k.step),
            remark: '开业价格',
            created_at: sql<Date>`now() - interval '90 days'`,
          },
          {
            ...base,
            effective_from: sql<Date>`date_trunc('day', now()) - interval '30 days'`,
            first_price: String(k.first + 1),
            // the underground lot prices nights, weekends and holidays lower
            band: i === 0 ? 'Y' : 'N',
            off_first_price: i === 0 ? String(Math.ceil(k.first / 2)) : String(k.first + 1),
            off_step_price: i === 0 ? String(Math.ceil(k.step / 2)) : String(k.step),
            holidays: i === 0 ? ['2027-01-01', '2027-02-16', '2027-02-17', '2027-02-18', '2027-10-01'] : [],
            remark: i === 0 ? '调价，夜间及节假日优惠' : '调价',
            created_at: sql<Date>`now() - interval '30 days'`,
          },
        ])
        .execute();
    }
  }

  const lot = lots[0]!.id;
  const coupons = await db
    .insertInto('parking_coupons')
    .values([
      { rid, lot_id: lot, title: '减免30分钟', kind: 'minutes', minutes: 30, price: '1.50', remark: '商户常用' },
      { rid, lot_id: lot, title: '减免5元', kind: 'amount', amount: '5', price: '4' },
      { rid, lot_id: lot, title: '停车8折', kind: 'discount', rate: '0.8', price: '2' },
      { rid, lot_id: lot, title: '停车全免', kind: 'free', price: '12' },
    ])
    .returning('id')
    .execute();
  const [minutes, amount, discount, free] = coupons.map((c) => c.id) as [number, number, number, number];
  const merchants = await db.selectFrom('merchants').select('id').where('rid', '=', rid).orderBy('id').limit(2).execute();
  if (merchants.length < 2) return;
  const [m1, m2] = merchants.map((m) => m.id) as [number, number];

  const orders: Array<[number, number, number, string, string, number]> = [
    // merchant, coupon, quantity, price, pay type, days ago
    [m1, minutes, 50, '1.50', 'cash', 20],
    [m1, amount, 20, '4.00', 'wechat', 12],
    [m2, discount, 30, '2.00', 'alipay', 8],
    [m2, free, 5, '12.00', 'transfer', 3],
  ];
  for (const [n, [merchant, coupon, quantity, price, payType, ago]] of orders.entries()) {
    await db
      .insertInto('parking_coupon_orders')
      .values({
        rid,
        orderid: sql<string>`'TC' || to_char(now() - ${ago} * interval '1 day', 'YYYYMMDD') || lpad(${rid * 1000 + n + 1}::text, 6, '0')`,
        merchant_id: merchant,
        coupon_id: coupon,
        quantity,
        price,
        amount: sql<string>`${price}::numeric * ${quantity}`,
        pay_type: payType,
        operator: '赵收银',
        created_at: sql<Date>`now() - ${ago} * interval '1 day'`,
      })
      .execute();
  }

  // given coupons: [merchant, coupon, plate, state, days ago]; 'E' is a 'G' whose day has passed
  const given: Array<[number, number, string, 'G' | 'U' | 'V' | 'E', number]> = [
    [m1, minutes, '沪A12345', 'G', 0],
    [m1, minutes, '沪B67890', 'G', 0],
    [m1, amount, '沪C24680', 'G', 0],
    [m1, minutes, '沪J20250', 'U', 1],
    [m1, amount, '沪D13579', 'U', 2],
    [m2, discount, '沪E11223', 'U', 4],
    [m1, minutes, '沪F99887', 'V', 5],
    [m1, minutes, '沪G55667', 'E', 6],
    [m2, free, '沪H44556', 'E', 2],
  ];
  for (const [n, [merchant, coupon, plate, state, ago]] of given.entries()) {
    const at = sql<Date>`now() - ${ago} * interval '1 day' - interval '2 hours'`;
    await db
      .insertInto('parking_coupon_given')
      .values({
        rid,
        code: sql<string>`'PK' || to_char(now() - ${ago} * interval '1 day', 'YYYYMMDD') || lpad(${rid * 1000 + n + 1}::text, 6, '0')`,
        merchant_id: merchant,
        coupon_id: coupon,
        carlicense: plate,
        valid_from: at,
        valid_to: sql<Date>`now() - ${ago} * interval '1 day' + interval '22 hours'`,
        state: state === 'E' ? 'G' : state,
        used_at: state === 'U' ? sql<Date>`now() - ${ago} * interval '1 day' - interval '1 hour'` : null,
        // the stays they paid are made after the fees' seed (staysSeed.ts), which fills used_ref
        used_ref: '',
        used_amount: state === 'U' ? (coupon === amount ? '5.00' : '2.00') : '0',
        voided_at: state === 'V' ? sql<Date>`now() - ${ago} * interval '1 day' - interval '1 hour'` : null,
        void_reason: state === 'V' ? '车牌输错' : '',
        operator: '赵收银',
        created_at: at,
      })
      .execute();
  }

  // each merchant's stock: bought, given (voided ones back in stock)
  await sql`
    INSERT INTO parking_coupon_stock (rid, merchant_id, coupon_id, bought, given, left_count)
    SELECT o.rid, o.merchant_id, o.coupon_id, o.bought, coalesce(g.given, 0), o.bought - coalesce(g.given, 0) + coalesce(g.voided, 0)
    FROM (SELECT rid, merchant_id, coupon_id, sum(quantity)::int AS bought FROM parking_coupon_orders WHERE rid = ${rid}
          GROUP BY rid, merchant_id, coupon_id) o
    LEFT JOIN (SELECT merchant_id, coupon_id, count(*)::int AS given, count(*) FILTER (WHERE state = 'V')::int AS voided
               FROM parking_coupon_given WHERE rid = ${rid} GROUP BY merchant_id, coupon_id) g
      ON g.merchant_id = o.merchant_id AND g.coupon_id = o.coupon_id`.execute(db);
}
