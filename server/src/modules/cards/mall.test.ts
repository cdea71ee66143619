import { mallCategory, mallGoods, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { moveBonus } from './ledger.js';
import { pointsText } from './mall.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s?.close());

/** A category of community 1 (a child of a top-level one, holding no children). */
async function childCategory(token: string): Promise<number> {
  const rows = (await s.call('catelist', { limit: 200 }, token)).data.items as Array<{ id: number; parent_id: number | null }>;
  return rows.find((r) => r.parent_id !== null)!.id;
}
async function topCategory(token: string): Promise<number> {
  const rows = (await s.call('catelist', { limit: 200 }, token)).data.items as Array<{ id: number; parent_id: number | null }>;
  return rows.find((r) => r.parent_id === null)!.id;
}

describeResource(mallCategory, {
  server: () => s,
  sample: async (_s, token) => ({ name: '测试分类', parent_id: await topCategory(token), sort: 3 }),
  edit: { name: '测试分类二', sort: 5 },
  filters: { name: '测试' },
  deniedWriter: 'cashier',
  unique: ['name'],
});

describeResource(mallGoods, {
  server: () => s,
  sample: async (_s, token) => ({
    name: '测试商品',
    category_id: await childCategory(token),
    images: [],
    description: '测试用',
    specs: [{ name: '标准', price: '12.50', points: 100, stock: 10 }],
    limit_per_member: 0,
    status: 'Y',
    sort: 0,
  }),
  edit: { name: '测试商品二', status: 'N', limit_per_member: 3 },
  filters: { name: '测试', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['name'],
});

// ---- helpers --------------------------------------------------------------------------------

let seq = 0;
interface Spec {
  id: number;
  name: string;
  stock: number;
  points: number;
  sold: number;
}
interface Goods {
  id: number;
  name: string;
  specs: Spec[];
}

/** A new goods on sale with one specification (or those given); answers it as the list shows it. */
async function addGoods(
  v: { points?: number; stock?: number; limit?: number; specs?: Array<Record<string, unknown>> } = {},
): Promise<Goods> {
  const name = `兑换测试${++seq}`;
  const res = await s.call(
    'goodsadd',
    {
      name,
      category_id: await childCategory(admin),
      images: [],
      specs: v.specs ?? [{ name: '标准', price: '9.90', points: v.points ?? 100, stock: v.stock ?? 10 }],
      limit_per_member: v.limit ?? 0,
      status: 'Y',
    },
    admin,
  );
  expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
  return goodsById(res.data.id);
}
async function goodsById(id: number): Promise<Goods> {
  const list = await s.call('goodslist', { limit: 200, sort: 'desc' }, admin);
  return (list.data.items as Goods[]).find((g) => g.id === id)!;
}

/** A member of community 1 not yet used by this file, holding exactly `points` points (through the ledger). */
let memberCursor = 0;
async function memberWith(points: number): Promise<number> {
  const db = s.database.db;
  const m = await db
    .selectFrom('members')
    .select(['id', 'bonus'])
    .where('rid', '=', 1)
    .orderBy('id', 'desc')
    .offset(memberCursor++)
    .limit(1)
    .executeTakeFirstOrThrow();
  const id = Number(m.id);
  const delta = points - m.bonus;
  if (delta !== 0)
    await moveBonus(db, {
      rid: 1,
      memberId: id,
      points: delta,
      orderid: `T${id}`,
      payCate: '手工调整',
      source: '后台',
      actionUser: '测试',
    });
  return id;
}
const bonusOf = async (memberId: number) =>
  (await s.database.db.selectFrom('members').select('bonus').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
    .bonus;
const ledgerOf = (orderid: string) =>
  s.database.db.selectFrom('bonus_ledger').selectAll().where('rid', '=', 1).where('orderid', '=', orderid).orderBy('id').execute();
const ordersOf = async (memberId: number) =>
  s.database.db.selectFrom('mall_orders').selectAll().where('rid', '=', 1).where('member_id', '=', memberId).orderBy('id').execute();
const redeem = (member_id: number, spec_id: number, more: Record<string, unknown> = {}, token = admin) =>
  s.call('mallorderadd', { member_id, spec_id, quantity: 1, ...more }, token);

// ---- rules --------------------------------------------------------------------------------------

describe('points mall: redeeming takes points and stock in one transaction', () => {
  it('takes the points and the stock, writes a ledger row and an order waiting for pickup', async () => {
    const goods = await addGoods({ points: 120, stock: 5 });
    const spec = goods.specs[0]!;
    const member = await memberWith(1000);
    const res = await redeem(member, spec.id, { quantity: 2, remark: '前台代兑' });
    expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
    expect(res.return_msg).toBe('兑换成功，扣除 240 积分');
    expect(res.data).toMatchObject({ points_total: 240, bonus_after: 760 });
    expect(res.data.order_no).toMatch(/^DH\d{8}\d{6,}$/);
    expect(await bonusOf(member)).toBe(760);
    const after = await goodsById(goods.id);
    expect(after.specs[0]).toMatchObject({ stock: 3, sold: 2 });
    const ledger = await ledgerOf(res.data.order_no);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ member_id: member, num: -240, pay_cate: '积分兑换', source: '积分商城', bonus_after: 760 });
    const listed = await s.call('mallorderlist', { order_no: res.data.order_no }, admin);
    expect(listed.data.total).toBe(1);
    expect(listed.data.items[0]).toMatchObject({
      goods_name: goods.name,
      spec_name: '标准',
      quantity: 2,
      points_total: 240,
      status: 'P',
      status_ch: '待自提',
      delivery_mode_ch: '到物业自提',
      created_by: '张经理',
    });
    const log = await s.call('mallorderlog', { id: res.data.id }, admin);
    expect(log.data.items.map((i: { transition_ch: string }) => i.transition_ch)).toEqual(['兑换']);
  });

  it('refuses too few points or too little stock, and changes nothing', async () => {
    const goods = await addGoods({ points: 100, stock: 3 });
    const spec = goods.specs[0]!;
    const poor = await memberWith(150);
    const short = await redeem(poor, spec.id, { quantity: 2 });
    expect(short.return_code).toBe(RC.FAIL);
    expect(short.return_msg).toBe('积分不足');
    const rich = await memberWith(5000);
    const none = await redeem(rich, spec.id, { quantity: 4 });
    expect(none.return_msg).toBe('库存不足');
    expect(await bonusOf(poor)).toBe(150);
    expect(await bonusOf(rich)).toBe(5000);
    expect((await goodsById(goods.id)).specs[0]).toMatchObject({ stock: 3, sold: 0 });
    expect(await ordersOf(poor)).toHaveLength(0);
    expect(await ordersOf(rich)).toHaveLength(0);
  });

  it('refuses goods off sale and a closed mall, and a delivery the mall does not offer', async () => {
    const goods = await addGoods();
    const spec = goods.specs[0]!;
    const member = await memberWith(1000);
    const full = (await s.call('goodslist', { name: goods.name }, admin)).data.items[0];
    expect((await s.call('goodsedit', { ...full, status: 'N' }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await redeem(member, spec.id)).return_msg).toBe(`「${goods.name}」已下架`);
    expect((await s.call('goodsedit', { ...full, status: 'Y' }, admin)).return_code).toBe(RC.SUCCESS);

    const settings = (await s.call('shopmallinfo', {}, admin)).data;
    expect(settings.enabled).toBe('Y');
    expect((await s.call('shopmalledit', { ...settings, enabled: 'N' }, admin)).return_msg).toBe('保存成功');
    expect((await redeem(member, spec.id)).return_msg).toBe('积分商城未开启');
    expect((await s.call('shopmalledit', { ...settings, delivery: 'N' }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await redeem(member, spec.id, { delivery_mode: 'delivery', address: '1号楼1单元1101' })).return_msg).toBe('本商城不支持配送');
    expect((await s.call('shopmalledit', { ...settings, pickup: 'N', delivery: 'N' }, admin)).return_msg).toContain(
      '请至少选择一种领取方式',
    );
    expect((await s.call('shopmalledit', settings, admin)).return_code).toBe(RC.SUCCESS);
    expect(await bonusOf(member)).toBe(1000);
    expect((await redeem(member, spec.id, { delivery_mode: 'delivery', address: '' })).return_msg).toContain('配送须填写收货地址');
  });

  it('keeps to the limit per member, counting only orders not cancelled', async () => {
    const goods = await addGoods({ limit: 2, stock: 10 });
    const spec = goods.specs[0]!;
    const member = await memberWith(1000);
    const first = await redeem(member, spec.id);
    expect(first.return_code).toBe(RC.SUCCESS);
    expect((await redeem(member, spec.id)).return_code).toBe(RC.SUCCESS);
    const third = await redeem(member, spec.id);
    expect(third.return_code).toBe(RC.FAIL);
    expect(third.return_msg).toContain('每人限兑 2 件');
    expect((await redeem(member, spec.id, { quantity: 3 })).return_msg).toContain('已兑换 2 件');
    expect((await s.call('mallordercancel', { id: first.data.id, reason: '会员改主意' }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await redeem(member, spec.id)).return_code).toBe(RC.SUCCESS);
    // another member has a limit of their own
    expect((await redeem(await memberWith(500), spec.id, { quantity: 2 })).return_code).toBe(RC.SUCCESS);
  });

  it('a cancellation gives the points and the stock back; a shipped or done order is not cancelled', async () => {
    const goods = await addGoods({ points: 150, stock: 4 });
    const spec = goods.specs[0]!;
    const member = await memberWith(1000);
    const pickup = await redeem(member, spec.id, { quantity: 2 });
    expect(await bonusOf(member)).toBe(700);
    const cancelled = await s.call('mallordercancel', { id: pickup.data.id, reason: '会员不要了' }, admin);
    expect(cancelled.return_code, cancelled.return_msg).toBe(RC.SUCCESS);
    expect(cancelled.return_msg).toBe('订单已取消，积分和库存已退回');
    expect(cancelled.data).toMatchObject({ status: 'C', status_ch: '已取消', cancel_reason: '会员不要了', cancelled_by: '张经理' });
    expect(await bonusOf(member)).toBe(1000);
    expect((await goodsById(goods.id)).specs[0]).toMatchObject({ stock: 4, sold: 0 });
    expect((await ledgerOf(pickup.data.order_no)).map((r) => [r.num, r.pay_cate])).toEqual([
      [-300, '积分兑换'],
      [300, '兑换退回'],
    ]);
    expect((await s.call('mallordercancel', { id: pickup.data.id, reason: '再取消' }, admin)).return_msg).toBe('该兑换订单已处理');

    // a delivery: shipped first, then done; neither cancelled
    const delivery = await redeem(member, spec.id, { delivery_mode: 'delivery', address: '1号楼1单元1101', contact_mobile: '13900001111' });
    expect(delivery.return_code, delivery.return_msg).toBe(RC.SUCCESS);
    expect((await s.call('mallorderdone', { id: delivery.data.id }, admin)).return_msg).toBe('配送的订单须先发货');
    const shipped = await s.call('mallordership', { id: delivery.data.id, express_company: '顺丰速运', express_no: 'SF1234567890' }, admin);
    expect(shipped.return_code, shipped.return_msg).toBe(RC.SUCCESS);
    expect(shipped.data).toMatchObject({ status: 'S', status_ch: '已发货', express_no: 'SF1234567890', contact_mobile: '13900001111' });
    expect((await s.call('mallordercancel', { id: delivery.data.id, reason: '晚了' }, admin)).return_msg).toBe('该兑换订单已处理');
    expect((await s.call('mallorderdone', { id: delivery.data.id }, admin)).data.status_ch).toBe('已完成');
    expect((await s.call('mallordercancel', { id: delivery.data.id, reason: '晚了' }, admin)).return_msg).toBe('该兑换订单已处理');
    expect(await bonusOf(member)).toBe(850);
    const log = await s.call('mallorderlog', { id: delivery.data.id }, admin);
    expect(log.data.items.map((i: { transition_ch: string }) => i.transition_ch)).toEqual(['兑换', '发货', '完成']);

    // a pickup is not shipped, it is done when picked up
    const own = await redeem(member, spec.id);
    expect((await s.call('mallordership', { id: own.data.id, express_company: '顺丰', express_no: 'SF0000' }, admin)).return_msg).toContain(
      '无需发货',
    );
    expect((await s.call('mallorderdone', { id: own.data.id }, admin)).return_code).toBe(RC.SUCCESS);
  });

  it('redeems once per idempotency key', async () => {
    const goods = await addGoods({ points: 100, stock: 5 });
    const member = await memberWith(1000);
    const key = `mall-once-${Date.now()}`;
    const [a, b] = await Promise.all([
      redeem(member, goods.specs[0]!.id, { idempotency_key: key }),
      redeem(member, goods.specs[0]!.id, { idempotency_key: key }),
    ]);
    expect(a.return_code).toBe(RC.SUCCESS);
    expect(b.data).toEqual(a.data);
    expect(await ordersOf(member)).toHaveLength(1);
    expect(await bonusOf(member)).toBe(900);
  });

  it('30 concurrent redemptions of a stock of 5 sell exactly 5 and never spend points a member lacks', async () => {
    const goods = await addGoods({ points: 100, stock: 5 });
    const spec = goods.specs[0]!;
    // together they could pay for 6: the stock decides; alone each for 3 at most
    const members = [await memberWith(300), await memberWith(300)];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => redeem(members[i % 2]!, spec.id)));
    const ok = answers.filter((a) => a.return_code === RC.SUCCESS);
    expect(ok).toHaveLength(5);
    for (const a of answers.filter((x) => x.return_code !== RC.SUCCESS)) expect(['库存不足', '积分不足']).toContain(a.return_msg);
    expect((await goodsById(goods.id)).specs[0]).toMatchObject({ stock: 0, sold: 5 });
    const [a, b] = [await bonusOf(members[0]!), await bonusOf(members[1]!)];
    expect(a).toBeGreaterThanOrEqual(0);
    expect(b).toBeGreaterThanOrEqual(0);
    expect(a + b).toBe(100);
    const orders = [...(await ordersOf(members[0]!)), ...(await ordersOf(members[1]!))];
    expect(orders).toHaveLength(5);
  });

  it('an edit moves the stock by what the form changed; a specification with orders is not removed', async () => {
    const goods = await addGoods({ specs: [{ name: '大', points: 100, stock: 10 }] });
    const spec = goods.specs[0]!;
    expect((await redeem(await memberWith(1000), spec.id, { quantity: 2 })).return_code).toBe(RC.SUCCESS);
    const full = (await s.call('goodslist', { name: goods.name }, admin)).data.items[0];
    // the form opened before the redemption showed 10 and the manager typed 15: 5 more than there are now
    const edited = await s.call(
      'goodsedit',
      {
        ...full,
        specs: [
          { id: spec.id, name: '大', price: '9.90', points: 100, stock: 15, stock_seen: 10 },
          { name: '小', points: 50, stock: 4 },
        ],
      },
      admin,
    );
    expect(edited.return_code, edited.return_msg).toBe(RC.SUCCESS);
    const after = await goodsById(goods.id);
    expect(after.specs.map((x) => [x.name, x.stock])).toEqual([
      ['大', 13],
      ['小', 4],
    ]);
    const dropped = await s.call('goodsedit', { ...full, specs: [{ name: '小', points: 50, stock: 4, id: after.specs[1]!.id }] }, admin);
    expect(dropped.return_msg).toBe('规格「大」已有兑换订单，不能删除，可将其库存设为 0');
    // two specifications may swap their names in one save
    const swapped = await s.call(
      'goodsedit',
      {
        ...full,
        specs: [
          { id: after.specs[0]!.id, name: '小', points: 100, stock: 13 },
          { id: after.specs[1]!.id, name: '大', points: 50, stock: 4 },
        ],
      },
      admin,
    );
    expect(swapped.return_code, swapped.return_msg).toBe(RC.SUCCESS);
    expect((await s.call('goodsdel', { id: goods.id }, admin)).return_msg).toBe('该商品已有兑换订单，不能删除，可将其下架');
    expect(
      (
        await s.call(
          'goodsedit',
          {
            ...full,
            specs: [
              { name: '一', points: 1, stock: 1 },
              { name: '一', points: 1, stock: 1 },
            ],
          },
          admin,
        )
      ).return_msg,
    ).toContain('规格名称不能重复');
  });

  it('says the points in words', () => {
    expect(pointsText([{ points: 100 }])).toBe('100 积分');
    expect(pointsText([{ points: 300 }, { points: 100 }])).toBe('100~300 积分');
    expect(pointsText([])).toBe('');
  });
});

describe('points mall: categories in two levels', () => {
  it('refuses a third level, a parent of its own, and a delete while children or goods hang on it', async () => {
    const top = await s.call('cateadd', { name: '层级测试', sort: 9 }, admin);
    const child = await s.call('cateadd', { name: '二级', parent_id: top.data.id }, admin);
    expect(child.return_code, child.return_msg).toBe(RC.SUCCESS);
    expect((await s.call('cateadd', { name: '三级', parent_id: child.data.id }, admin)).return_msg).toBe(
      '上级分类只能选一级分类，分类最多两级',
    );
    expect((await s.call('cateedit', { id: top.data.id, name: '层级测试', parent_id: top.data.id }, admin)).return_msg).toBe(
      '上级分类不能是自己',
    );
    const other = await s.call('cateadd', { name: '另一个一级' }, admin);
    expect((await s.call('cateedit', { id: top.data.id, name: '层级测试', parent_id: other.data.id }, admin)).return_msg).toBe(
      '该分类下还有下级分类，不能再设上级分类',
    );
    // the same name under another parent is fine, twice under one is not
    expect((await s.call('cateadd', { name: '二级', parent_id: other.data.id }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('cateadd', { name: '二级', parent_id: top.data.id }, admin)).return_msg).toBe('分类「二级」已存在');

    expect((await s.call('catedel', { id: top.data.id }, admin)).return_msg).toBe('该分类下还有 1 个下级分类，请先删除下级分类');
    const goods = await s.call(
      'goodsadd',
      { name: '挂在二级下', category_id: child.data.id, specs: [{ name: '标准', points: 10, stock: 1 }] },
      admin,
    );
    expect(goods.return_code, goods.return_msg).toBe(RC.SUCCESS);
    expect((await s.call('catedel', { id: child.data.id }, admin)).return_msg).toBe('该分类下还有 1 个商品，不能删除');
    // a top category's filter finds its children's goods
    const found = await s.call('goodslist', { category_id: top.data.id }, admin);
    expect(found.data.items.map((g: { name: string; category_name: string }) => [g.name, g.category_name])).toEqual([
      ['挂在二级下', '层级测试 / 二级'],
    ]);
    const small = (await s.call('cate_small_list', {}, admin)).data.items as Array<{ id: number; title: string; parent_id: number | null }>;
    const at = small.findIndex((c) => c.id === top.data.id);
    expect(small[at + 1]).toEqual({ id: child.data.id, title: '层级测试 / 二级', parent_id: top.data.id });
    expect((await s.call('goodsdel', { id: goods.data.id }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('catedel', { id: child.data.id }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('catedel', { id: top.data.id }, admin)).return_code).toBe(RC.SUCCESS);
  });
});

describe('points mall: who may do what', () => {
  it('a card reader without cardmall reads goods but cannot change them; the merchant cannot manage the mall', async () => {
    await s.addAccount('mall_reader', { roles: ['card'] });
    const [reader, merchant] = await s.logins('mall_reader', 'merchant');
    const goods = await addGoods();
    const full = (await s.call('goodslist', { name: goods.name }, admin)).data.items[0];
    expect((await s.call('goodslist', {}, reader)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('shopmallinfo', {}, reader)).return_code).toBe(RC.SUCCESS);
    for (const token of [reader, merchant]) {
      expect((await s.call('goodsedit', { ...full, name: '改名' }, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('goodsadd', { ...full, name: '新的' }, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('goodsdel', { id: goods.id }, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('cateadd', { name: '商户的分类' }, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('shopmalledit', { enabled: 'N' }, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await redeem(await memberWith(500), goods.specs[0]!.id, {}, token)).return_code).toBe(RC.NO_PERMISSION);
      // members' orders (names, addresses, phones) are for those who run the mall
      expect((await s.call('mallorderlist', {}, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('mallordercancel', { id: 1, reason: 'x' }, token)).return_code).toBe(RC.NO_PERMISSION);
    }
    expect((await goodsById(goods.id)).name).toBe(goods.name);
    // the action code alone runs the mall
    await s.addAccount('mall_keeper', { roles: ['card', 'cardmall'] });
    const keeper = await s.login('mall_keeper');
    expect((await s.call('goodsedit', { ...full, name: `${goods.name}改` }, keeper)).return_code).toBe(RC.SUCCESS);
    expect((await redeem(await memberWith(500), goods.specs[0]!.id, {}, keeper)).return_code).toBe(RC.SUCCESS);
  });

  it("another community's ids are not there", async () => {
    const admin2 = await s.login('admin2');
    const goods = await addGoods();
    const member = await memberWith(1000);
    const mine = await redeem(member, goods.specs[0]!.id);
    const theirs = (await s.call('mall_spec_small_list', {}, admin2)).data.items[0].id as number;
    const theirMember = await s.database.db.selectFrom('members').select('id').where('rid', '=', 2).limit(1).executeTakeFirstOrThrow();
    expect((await s.call('mallorderadd', { member_id: member, spec_id: theirs }, admin2)).return_msg).toBe('会员不存在');
    expect((await s.call('mallorderadd', { member_id: Number(theirMember.id), spec_id: goods.specs[0]!.id }, admin2)).return_msg).toBe(
      '商品规格不存在',
    );
    expect((await s.call('mallordercancel', { id: mine.data.id, reason: '越权' }, admin2)).return_msg).toBe('兑换订单不存在');
    expect((await s.call('mallordership', { id: mine.data.id, express_company: 'x', express_no: 'SF0001' }, admin2)).return_msg).toBe(
      '兑换订单不存在',
    );
    expect((await s.call('mallorderlog', { id: mine.data.id }, admin2)).return_msg).toBe('兑换订单不存在');
    const full = (await s.call('goodslist', { name: goods.name }, admin)).data.items[0];
    expect((await s.call('goodsedit', { ...full }, admin2)).return_msg).toBe('商品不存在');
    expect((await s.call('goodsadd', { ...full, name: '跨小区' }, admin2)).return_msg).toBe('所选商品分类不存在');
    expect((await s.call('cateadd', { name: '跨小区', parent_id: full.category_id }, admin2)).return_msg).toBe('所选上级分类不存在');
    expect((await s.call('mallorderlist', { order_no: mine.data.order_no }, admin2)).data.total).toBe(0);
    expect((await s.call('mallmembers', { hid: 1 }, admin2)).data.items).toEqual([]);
    expect(await bonusOf(member)).toBe(900);
  });
});

describe('points mall: the demo', () => {
  it('has the mall open, two top categories with children, a dozen goods and orders in every status', async () => {
    const settings = (await s.call('shopmallinfo', {}, admin)).data;
    expect(settings).toMatchObject({ enabled: 'Y', pickup: 'Y', delivery: 'Y' });
    const cats = (await s.call('catelist', { limit: 200 }, admin)).data.items as Array<{ id: number; parent_id: number | null }>;
    const tops = cats.filter((c) => c.parent_id === null);
    expect(tops.length).toBeGreaterThanOrEqual(2);
    for (const t of tops.slice(0, 2)) expect(cats.some((c) => c.parent_id === t.id)).toBe(true);
    const goods = await s.call('goodslist', { limit: 200 }, admin);
    expect(goods.data.total).toBeGreaterThanOrEqual(12);
    expect(goods.data.items.every((g: Goods) => g.specs.length > 0)).toBe(true);
    for (const status of ['P', 'S', 'D', 'C']) {
      expect((await s.call('mallorderlist', { status }, admin)).data.total, status).toBeGreaterThan(0);
    }
    const all = await s.call('mallorderlist', { limit: 200 }, admin);
    expect(all.data.total).toBeGreaterThanOrEqual(25);
    const file = await s.exportFile('mallorderexport', {}, admin);
    expect(file.return_code, file.return_msg).toBe(RC.SUCCESS);
  });
});
