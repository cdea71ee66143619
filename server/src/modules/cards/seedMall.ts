import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { gradientPng, storeDemoImage } from '../mobilesys/demoImages.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';

/**
 * Demo data of the points mall (积分商城; modules/cards/mall.ts): per community, the mall open with
 * pick-up and delivery, two top-level categories with two children each, twelve goods with their
 * specifications (one sold out, one off sale), and about thirty orders in every status for members
 * who hold points. Each order took its points as a bonus_ledger row (a cancelled one gave them back
 * in a second row) and the members' points are set again from their ledgers, so they still add up;
 * no member goes below zero. Runs after the cards' own seed.
 */
export async function seedMall(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
  await sql`
    UPDATE members m SET bonus = coalesce((SELECT sum(num) FROM bonus_ledger l WHERE l.rid = m.rid AND l.member_id = m.id), 0)
    WHERE EXISTS (SELECT 1 FROM mall_orders o WHERE o.rid = m.rid AND o.member_id = m.id)`.execute(db);
  // each of their rows says what it left, in the order of the rows' times
  await sql`
    UPDATE bonus_ledger l SET bonus_after = s.after FROM (
      SELECT rid, id, sum(num) OVER (PARTITION BY rid, member_id ORDER BY create_time, id) AS after FROM bonus_ledger b
      WHERE EXISTS (SELECT 1 FROM mall_orders o WHERE o.rid = b.rid AND o.member_id = b.member_id)) s
    WHERE l.rid = s.rid AND l.id = s.id`.execute(db);
}

interface SeedSpec {
  name: string;
  price: string;
  points: number;
  stock: number;
}
interface SeedGoods {
  name: string;
  colour: [number, number, number];
  specs: SeedSpec[];
  limit?: number;
  off?: boolean;
  description: string;
}

const CATALOGUE: Array<{ name: string; children: Array<{ name: string; goods: SeedGoods[] }> }> = [
  {
    name: '生活用品',
    children: [
      {
        name: '纸品清洁',
        goods: [
          {
            name: '维达抽纸',
            colour: [79, 140, 201],
            description: '三层加厚，柔韧亲肤。',
            specs: [
              { name: '3包装', price: '15.90', points: 150, stock: 60 },
              { name: '6包装', price: '29.90', points: 290, stock: 40 },
            ],
          },
          {
            name: '蓝月亮洗衣液',
            colour: [64, 120, 220],
            description: '深层洁净，护色增艳。',
            specs: [{ name: '1kg', price: '29.90', points: 300, stock: 30 }],
          },
          {
            name: '舒肤佳香皂',
            colour: [230, 150, 170],
            description: '纯白清香型。',
            specs: [{ name: '3块装', price: '9.90', points: 100, stock: 50 }],
          },
        ],
      },
      {
        name: '厨房用品',
        goods: [
          {
            name: '保鲜膜',
            colour: [120, 190, 170],
            description: '食品级 PE，可微波。',
            specs: [{ name: '30cm×100m', price: '8.90', points: 90, stock: 80 }],
          },
          {
            name: '不锈钢保温杯',
            colour: [110, 110, 120],
            description: '316 不锈钢内胆，保温 12 小时。',
            limit: 1,
            specs: [
              { name: '500ml 黑色', price: '59.00', points: 600, stock: 12 },
              { name: '500ml 白色', price: '59.00', points: 600, stock: 8 },
            ],
          },
          {
            name: '一次性手套',
            colour: [200, 200, 210],
            description: '加厚 PE 材质。',
            specs: [{ name: '100只', price: '5.00', points: 50, stock: 0 }],
          },
        ],
      },
    ],
  },
  {
    name: '食品饮料',
    children: [
      {
        name: '粮油调味',
        goods: [
          {
            name: '金龙鱼大米',
            colour: [220, 180, 90],
            description: '东北长粒香米。',
            limit: 2,
            specs: [{ name: '5kg', price: '39.90', points: 400, stock: 25 }],
          },
          {
            name: '鲁花花生油',
            colour: [240, 200, 60],
            description: '5S 压榨一级。',
            specs: [{ name: '1.8L', price: '49.90', points: 500, stock: 15 }],
          },
          {
            name: '海天酱油',
            colour: [150, 80, 50],
            description: '金标生抽。',
            specs: [{ name: '500ml', price: '9.80', points: 100, stock: 70 }],
          },
        ],
      },
      {
        name: '休闲零食',
        goods: [
          {
            name: '农夫山泉',
            colour: [200, 60, 60],
            description: '天然饮用水。',
            specs: [
              { name: '550ml×24', price: '29.00', points: 290, stock: 30 },
              { name: '380ml×24', price: '24.00', points: 240, stock: 20 },
            ],
          },
          {
            name: '坚果礼盒',
            colour: [170, 120, 70],
            description: '每日坚果 30 袋。',
            off: true,
            specs: [{ name: '750g', price: '79.00', points: 790, stock: 6 }],
          },
          {
            name: '百醇饼干',
            colour: [240, 140, 60],
            description: '巧克力味。',
            specs: [{ name: '6盒装', price: '19.90', points: 200, stock: 45 }],
          },
        ],
      },
    ],
  },
];

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const admin = await db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('username', '=', rid === 1 ? 'admin' : 'admin2')
    .executeTakeFirst();
  await db
    .insertInto('mall_settings')
    .values({
      rid,
      enabled: 'Y',
      name: '积分商城',
      points_per_yuan: 10,
      pickup: 'Y',
      delivery: 'Y',
      pickup_address: '物业服务中心（1号楼一层）',
      pickup_hours: '每天 9:00-18:00',
      notice: '积分兑换的商品可到物业服务中心自提，或选择配送到家（小区内免费配送）。',
      created_by: admin?.id ?? null,
    })
    .execute();

  const specs: Array<{
    id: number;
    goods_id: number;
    goods_name: string;
    name: string;
    price: string;
    points: number;
    limit: number;
    off: boolean;
  }> = [];
  let goodsSort = 0;
  for (const [ti, top] of CATALOGUE.entries()) {
    const parent = await db
      .insertInto('mall_categories')
      .values({ rid, name: top.name, sort: ti + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [ci, child] of top.children.entries()) {
      const category = await db
        .insertInto('mall_categories')
        .values({ rid, parent_id: parent.id, name: child.name, sort: ci + 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const g of child.goods) {
        const image = await storeDemoImage(db, rid, `${g.name}.png`, gradientPng(160, 160, g.colour, lighter(g.colour)));
        const goods = await db
          .insertInto('mall_goods')
          .values({
            rid,
            category_id: category.id,
            name: g.name,
            images: [image],
            description: g.description,
            status: g.off ? 'N' : 'Y',
            limit_per_member: g.limit ?? 0,
            sort: ++goodsSort,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [si, s] of g.specs.entries()) {
          const spec = await db
            .insertInto('mall_goods_specs')
            .values({ rid, goods_id: goods.id, name: s.name, price: s.price, points: s.points, stock: s.stock, sort: si })
            .returning('id')
            .executeTakeFirstOrThrow();
          specs.push({
            id: Number(spec.id),
            goods_id: Number(goods.id),
            goods_name: g.name,
            name: s.name,
            price: s.price,
            points: s.points,
            limit: g.limit ?? 0,
            off: !!g.off,
          });
        }
      }
    }
  }
  await seedOrders(db, rid, specs, admin ?? null);
}

const STATUSES = ['P', 'P', 'S', 'D', 'D', 'C'] as const;
const ORDERS = 30;

/**
 * About thirty orders over the last two months, in every status, by the members holding the most
 * points (and the demo owner, a small one so his points stay for the journeys); each only while the
 * member's points, the specification's stock and the goods' limit allow it.
 */
async function seedOrders(
  db: Kysely<DB>,
  rid: number,
  specs: Array<{
    id: number;
    goods_id: number;
    goods_name: string;
    name: string;
    price: string;
    points: number;
    limit: number;
    off: boolean;
  }>,
  admin: { id: number; name: string } | null,
): Promise<void> {
  // each member's orders come after the points they earned (their last ledger row), so no row leaves them below zero
  const members = await sql<{ id: string; realname: string; mobile: string; bonus: number; address: string; demo: boolean; last: string }>`
    SELECT m.id::text, m.realname, m.mobile, m.bonus, coalesce(r.address, '') AS address, (m.mobile = ${DEMO_MOBILE}) AS demo,
           coalesce((SELECT max(l.create_time) FROM bonus_ledger l WHERE l.rid = m.rid AND l.member_id = m.id), now() - interval '30 days')::text AS last
    FROM members m
    LEFT JOIN LATERAL (SELECT r.address FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
                       WHERE rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y' ORDER BY rm.id LIMIT 1) r ON true
    WHERE m.rid = ${rid} AND m.bonus >= 90
    ORDER BY (m.mobile = ${DEMO_MOBILE}) DESC, m.bonus DESC, m.id LIMIT 40`.execute(db);
  if (members.rows.length === 0) return;
  const left = new Map(members.rows.map((m) => [m.id, m.bonus]));
  const stock = new Map(
    (await db.selectFrom('mall_goods_specs').select(['id', 'stock']).where('rid', '=', rid).execute()).map((s) => [Number(s.id), s.stock]),
  );
  const had = new Map<string, number>();
  const onSale = specs.filter((s) => !s.off);
  const ids = await sql<{
    id: string;
  }>`SELECT nextval(pg_get_serial_sequence('mall_orders', 'id'))::text AS id FROM generate_series(1, ${ORDERS})`.execute(db);
  let n = 0;
  for (let i = 0; i < ORDERS; i++) {
    const status = STATUSES[i % STATUSES.length]!;
    const member = members.rows[i % members.rows.length]!;
    // the demo owner keeps most of his points: one small order that was picked up
    if (member.demo && i >= members.rows.length) continue;
    const qty = i % 5 === 4 ? 2 : 1;
    const spec = [...Array(onSale.length).keys()]
      .map((k) => onSale[(i * 7 + k) % onSale.length]!)
      .find((s) => {
        const total = s.points * qty;
        const room = member.demo ? 200 : 0;
        const taken = status === 'C' || (stock.get(s.id) ?? 0) >= qty;
        const limited = s.limit === 0 || (had.get(`${member.id}:${s.goods_id}`) ?? 0) + qty <= s.limit;
        return (left.get(member.id) ?? 0) - total >= room && taken && limited;
      });
    if (!spec) continue;
    const id = Number(ids.rows[n++]!.id);
    const total = spec.points * qty;
    const delivery = i % 3 === 1 || status === 'S';
    // a moment between the member's last earning and now: the order, then (a little later) its cancellation, shipping, completion
    const moment = (share: number) => sql<Date>`${member.last}::timestamptz + (now() - ${member.last}::timestamptz) * ${share}::float8`;
    const placed = 0.1 + (0.6 * i) / ORDERS;
    const at = moment(placed);
    const cancelledAt = moment(placed + 0.01);
    const orderNo = sql<string>`'DH' || to_char(${at}, 'YYYYMMDD') || lpad(${String(id)}, 6, '0')`;
    const by = admin?.id ?? null;
    if (status !== 'C') {
      left.set(member.id, (left.get(member.id) ?? 0) - total);
      stock.set(spec.id, (stock.get(spec.id) ?? 0) - qty);
      had.set(`${member.id}:${spec.goods_id}`, (had.get(`${member.id}:${spec.goods_id}`) ?? 0) + qty);
    }
    await db
      .insertInto('mall_orders')
      .values({
        rid,
        id,
        order_no: orderNo,
        member_id: Number(member.id),
        goods_id: spec.goods_id,
        spec_id: spec.id,
        goods_name: spec.goods_name,
        spec_name: spec.name,
        price: spec.price,
        points: spec.points,
        quantity: qty,
        points_total: total,
        delivery_mode: delivery ? 'delivery' : 'pickup',
        contact_name: member.realname,
        contact_mobile: member.mobile,
        address: delivery ? member.address || '小区内' : '',
        status,
        express_company: status === 'S' || (status === 'D' && delivery) ? '顺丰速运' : '',
        express_no: status === 'S' || (status === 'D' && delivery) ? `SF${String(1_300_000_000 + id * 7919)}` : '',
        shipped_at: status === 'S' || (status === 'D' && delivery) ? moment(0.85) : null,
        shipped_by: status === 'S' || (status === 'D' && delivery) ? by : null,
        done_at: status === 'D' ? moment(0.95) : null,
        done_by: status === 'D' ? by : null,
        cancelled_at: status === 'C' ? cancelledAt : null,
        cancelled_by: status === 'C' ? by : null,
        cancel_reason: status === 'C' ? '会员不想要了' : '',
        created_at: at,
        created_by: by,
      })
      .execute();
    const row = { rid, member_id: Number(member.id), orderid: orderNo, source: '积分商城', action_user: admin?.name ?? '物业前台' };
    await db
      .insertInto('bonus_ledger')
      .values([
        { ...row, num: -total, pay_cate: '积分兑换', cate: '减少', create_time: at },
        ...(status === 'C' ? [{ ...row, num: total, pay_cate: '兑换退回', cate: '增加', create_time: cancelledAt }] : []),
      ])
      .execute();
    const log = { rid, flow: 'mallorder', row_id: id, operator: admin?.name ?? '', created_by: by };
    const steps: Array<{ transition: string; from_state: string; to_state: string; input: object; created_at: ReturnType<typeof moment> }> =
      [
        {
          transition: 'create',
          from_state: '',
          to_state: 'P',
          input: { goods: `${spec.goods_name} / ${spec.name}`, quantity: qty, points_total: total },
          created_at: at,
        },
      ];
    if (status === 'S' || (status === 'D' && delivery))
      steps.push({
        transition: 'ship',
        from_state: 'P',
        to_state: 'S',
        input: { express_company: '顺丰速运', express_no: `SF${String(1_300_000_000 + id * 7919)}` },
        created_at: moment(0.85),
      });
    if (status === 'D')
      steps.push({ transition: 'done', from_state: delivery ? 'S' : 'P', to_state: 'D', input: {}, created_at: moment(0.95) });
    if (status === 'C')
      steps.push({ transition: 'cancel', from_state: 'P', to_state: 'C', input: { reason: '会员不想要了' }, created_at: cancelledAt });
    await db
      .insertInto('workflow_logs')
      .values(steps.map((s) => ({ ...log, ...s, input: JSON.stringify(s.input) })))
      .execute();
  }
  for (const [id, left] of stock)
    await db.updateTable('mall_goods_specs').set({ stock: left }).where('rid', '=', rid).where('id', '=', id).execute();
}

/** A colour halfway to white: where a goods picture's gradient ends. */
const lighter = (rgb: [number, number, number]): [number, number, number] =>
  rgb.map((v) => Math.round(v + (255 - v) * 0.55)) as [number, number, number];
