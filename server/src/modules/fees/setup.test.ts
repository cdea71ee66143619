import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

const item = (over: Record<string, unknown> = {}) => ({
  cost_type: 'property',
  title: '测试物业费',
  pricing: 'area_built',
  unit_price: '1.8500',
  cycle_months: 1,
  due_day: 10,
  late_fee_rule: 'daily',
  late_fee_rate: '0.5',
  late_fee_grace_days: 5,
  late_fee_cap_percent: 50,
  ...over,
});

describe('cost types', () => {
  it('lists the built-in types and the small list', async () => {
    const list = await t.call('feeitemcatelist', {}, admin);
    expect(list.return_code).toBe('SUCCESS');
    // the eight built in, 维修费 the demo's repairs billed (steward/repairs.ts), 活动费 its paid activities (activities/money.ts)
    // and 销售收入 its sales deposits and contract instalments (crm/salesIntentions.ts, crm/contractsMoney.ts)
    expect(list.data.total).toBe(11);
    expect(list.data.items[0]).toMatchObject({ cost_type: 'property', title: '物业费' });
    const small = await t.call('feebill_cate_small_list', {}, cashier);
    expect(small.data.items.map((i: { title: string }) => i.title)).toEqual([
      '物业费',
      '停车费',
      '水费',
      '电费',
      '燃气费',
      '租金',
      '押金',
      '其他',
      '维修费',
      '活动费',
      '销售收入',
    ]);
  });

  it('adds, edits and deletes a custom type', async () => {
    const add = await t.call('feeitemcateadd', { cost_type: 'heating', title: '供暖费' }, admin);
    expect(add.return_code).toBe('SUCCESS');
    expect((await t.call('feeitemcateadd', { cost_type: 'heating', title: '暖气' }, admin)).return_msg).toBe('费用类型编码“heating”已存在');
    expect((await t.call('feeitemcateedit', { id: add.data.id, title: '集中供暖费' }, admin)).return_code).toBe('SUCCESS');
    // another community cannot touch it
    expect((await t.call('feeitemcateedit', { id: add.data.id, title: 'x' }, admin2)).return_msg).toBe('费用类型不存在');
    expect((await t.call('feeitemcatedel', { id: add.data.id }, admin2)).return_msg).toBe('费用类型不存在');
    expect((await t.call('feeitemcatedel', { id: add.data.id }, admin)).return_code).toBe('SUCCESS');
  });

  it('refuses to delete a type in use, bad codes and other roles', async () => {
    const list = await t.call('feeitemcatelist', {}, admin);
    const property = list.data.items.find((c: { cost_type: string }) => c.cost_type === 'property');
    expect((await t.call('feeitemcatedel', { id: property.id }, admin)).return_msg).toBe('该费用类型下还有收费项目，不能删除');
    const bad = await t.call('feeitemcateadd', { cost_type: 'Heat!', title: 'x' }, admin);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toContain('cost_type');
    expect((await t.call('feeitemcatelist', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feeitemcateadd', { cost_type: 'aa', title: 'x' }, steward)).return_code).toBe('NO_PERMISSION');
  });
});

describe('fee items', () => {
  let id = 0;
  it('adds an item and reads it back with decimal strings', async () => {
    const add = await t.call('feeitemadd', item(), admin);
    expect(add.return_code).toBe('SUCCESS');
    id = add.data.id;
    const info = await t.call('feeiteminfo', { id }, admin);
    expect(info.data).toMatchObject({
      title: '测试物业费',
      unit_price: '1.8500',
      late_fee_rate: '0.5000',
      pricing_ch: '建筑面积 × 单价',
      bind_count: 0,
    });
    const list = await t.call('feeitemlist', { keyword: '测试' }, admin);
    expect(list.data.total).toBe(1);
    const things = await t.call('feethinglist', { cost_type: 'property' }, cashier);
    expect(things.data.items.some((i: { id: number }) => i.id === id)).toBe(true);
  });

  it('validates prices, late-fee rules, cost types and duplicate titles', async () => {
    const five = await t.call('feeitemadd', item({ title: 'a', unit_price: '1.23456' }), admin);
    expect(five.return_msg).toContain('单价格式不正确');
    const noRate = await t.call('feeitemadd', item({ title: 'b', late_fee_rate: '0' }), admin);
    expect(noRate.return_msg).toContain('日费率必须大于0');
    const qty = await t.call('feeitemadd', item({ title: 'c', pricing: 'meter', default_quantity: '1.005' }), admin);
    expect(qty.return_msg).toContain('default_quantity');
    expect((await t.call('feeitemadd', item({ title: 'd', cost_type: 'nosuch' }), admin)).return_msg).toBe('费用类型不存在');
    expect((await t.call('feeitemadd', item(), admin)).return_msg).toBe('收费项目名称已存在');
    expect((await t.call('feeitemadd', item({ title: 'e', due_day: 31 }), admin)).return_msg).toContain('due_day');
  });

  it('edits in its own community only; other roles are refused', async () => {
    expect((await t.call('feeitemedit', { id, ...item({ unit_price: '2.1' }) }, admin)).return_code).toBe('SUCCESS');
    expect((await t.call('feeiteminfo', { id }, admin)).data.unit_price).toBe('2.1000');
    expect((await t.call('feeitemedit', { id, ...item({ title: 'x' }) }, admin2)).return_msg).toBe('收费项目不存在');
    expect((await t.call('feeiteminfo', { id }, admin2)).return_msg).toBe('收费项目不存在');
    expect((await t.call('feeitemdel', { id }, admin2)).return_msg).toBe('收费项目不存在');
    expect((await t.call('feeitemlist', {}, admin2)).data.items.some((i: { id: number }) => i.id === id)).toBe(false);
    expect((await t.call('feeitemadd', item({ title: 'z' }), steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feeitemlist', {}, steward)).return_code).toBe('NO_PERMISSION');
  });

  it("binds by building, unit, category and room; rejects other communities' targets", async () => {
    const db = t.database.db;
    const b1 = await db.selectFrom('buildings').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const u1 = await db.selectFrom('units').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const r1 = await db.selectFrom('rooms').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const b2 = await db.selectFrom('buildings').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow();
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'building', ref_ids: [b1.id] }, admin)).data.added).toBe(1);
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'building', ref_ids: [b1.id] }, admin)).data.added).toBe(0);
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'unit', ref_ids: [u1.id] }, admin)).data.added).toBe(1);
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'room', ref_ids: [r1.id] }, admin)).data.added).toBe(1);
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'region' }, admin)).data.added).toBe(1);
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'building', ref_ids: [b2.id] }, admin)).return_msg).toBe(
      '所选的绑定对象不存在',
    );
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'building', ref_ids: [] }, admin)).return_msg).toBe('请选择要绑定的对象');
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'region' }, admin2)).return_msg).toBe('收费项目不存在');
    const list = await t.call('bindfeelist', { item_id: id }, admin);
    expect(list.data.total).toBe(4);
    expect(list.data.items.map((b: { target_title: string }) => b.target_title)).toEqual([
      '1号楼',
      '1号楼1单元',
      expect.stringMatching(/^1号楼1单元\d+$/),
      '阳光花园',
    ]);
    expect((await t.call('bindfeelist', { item_id: id }, admin2)).data.total).toBe(0);
    const first = list.data.items[0].id;
    expect((await t.call('bindfeedel', { id: first }, admin2)).return_msg).toBe('绑定不存在');
    expect((await t.call('bindfeedel', { id: first }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('bindfeedel', { id: first }, admin)).return_code).toBe('SUCCESS');
    expect((await t.call('bindfeeadd', { item_id: id, scope: 'street' }, admin)).return_msg).toContain('scope');
  });

  it('deletes an item without bills; refuses one with bills', async () => {
    const billed = await t.database.db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('cost_type', '=', 'property')
      .where('title', '=', '物业服务费')
      .executeTakeFirstOrThrow();
    expect((await t.call('feeitemdel', { id: billed.id }, admin)).return_msg).toBe('该收费项目已有账单，不能删除，可将其停用');
    expect((await t.call('feeitemdel', { id }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feeitemdel', { id }, admin)).return_code).toBe('SUCCESS');
  });
});
