import { category } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { categoryOf, registerCategoryUse, unregisterCategoryUse } from './categoryUses.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describeResource(category, {
  server: () => s,
  sample: { module: 'activity', title: '测试分类', icon: 'star', sort: 5, show_owner: 'N', status: 'Y', remark: '试用' },
  edit: { title: '测试分类二', icon: 'gift', status: 'N' },
  filters: { module: 'activity', title: '测试', show_owner: 'N', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['title'],
});

type Cat = { id: number; module: string; title: string; use_count: number; module_ch: string; status_ch: string };
const cats = async (token: string, module?: string): Promise<Cat[]> =>
  (await s.call('categorylist', { limit: 200, module }, token)).data.items;
const add = async (token: string, v: Record<string, unknown>) => {
  const res = await s.call('categoryadd', { sort: 0, ...v }, token);
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return res.data.id as number;
};

describe('categories: a name once in its module; a used category moves its rows before it goes', () => {
  // a table of notices as the steward area will have it: rows of a community carrying a category id
  beforeAll(async () => {
    await sql`CREATE TABLE test_notices (rid int NOT NULL, id bigserial, category_id bigint, PRIMARY KEY (rid, id))`.execute(s.database.db);
    registerCategoryUse({ module: 'notice', table: 'test_notices', column: 'category_id', label: '通知' });
  });
  afterAll(() => unregisterCategoryUse('test_notices', 'category_id'));

  it('lists the demo categories by module, with their texts', async () => {
    const admin = await s.login('admin');
    const list = await cats(admin, 'notice');
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((c) => c.module === 'notice' && c.module_ch === '通知公告')).toBe(true);
  });

  it("counts the demo's activities by their type and refuses to delete a type in use", async () => {
    const admin = await s.login('admin');
    const types = await cats(admin, 'activity');
    const { rows } = await sql<{ category_id: number; n: number }>`SELECT category_id, count(*)::int AS n FROM activities
      WHERE rid = 1 AND category_id IS NOT NULL GROUP BY category_id`.execute(s.database.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(types.find((c) => c.id === Number(r.category_id))!.use_count).toBe(r.n);
    const used = rows[0]!;
    expect((await s.call('categorydel', { id: Number(used.category_id) }, admin)).return_msg).toBe(
      `该分类下还有 ${used.n} 条活动，请选择要移到的分类后再删除`,
    );
  });

  it('refuses a name twice in a module, also on edit, and allows it in another module', async () => {
    const admin = await s.login('admin');
    const a = await add(admin, { module: 'notice', title: '停车通知' });
    const dup = await s.call('categoryadd', { module: 'notice', title: '停车通知' }, admin);
    expect(dup.return_msg).toBe('“通知公告”中已有分类“停车通知”');
    await add(admin, { module: 'graphic', title: '停车通知' });
    const b = await add(admin, { module: 'notice', title: '临时通知' });
    const clash = await s.call('categoryedit', { id: b, title: '停车通知', sort: 0 }, admin);
    expect(clash.return_msg).toBe('“通知公告”中已有分类“停车通知”');
    // the module is kept on edit
    expect((await s.call('categoryedit', { id: a, module: 'graphic', title: '停车通知', sort: 1 }, admin)).return_code).toBe('SUCCESS');
    expect((await cats(admin)).find((c) => c.id === a)!.module).toBe('notice');
  });

  it('refuses bad payloads with the field named', async () => {
    const admin = await s.login('admin');
    expect((await s.call('categoryadd', { module: 'fees', title: 'x' }, admin)).return_msg).toContain('所属模块取值不正确');
    expect((await s.call('categoryadd', { module: 'notice', title: '' }, admin)).return_msg).toContain('请输入分类名称');
    expect((await s.call('categoryadd', { module: 'notice', title: 'x', icon: 'skull' }, admin)).return_msg).toContain('图标取值不正确');
    expect(
      (await s.call('categoryadd', { module: 'notice', title: '一二三四五六七八九十一二三四五六七八九十一' }, admin)).return_code,
    ).toBe('FAIL');
  });

  it('counts the rows using a category and refuses its delete until they move to another of the module', async () => {
    const admin = await s.login('admin');
    const used = await add(admin, { module: 'notice', title: '测试停水' });
    const other = await add(admin, { module: 'notice', title: '其他通知' });
    const foreign = await add(admin, { module: 'activity', title: '测试亲子' });
    await sql`INSERT INTO test_notices (rid, category_id) VALUES (1, ${used}), (1, ${used}), (1, ${used})`.execute(s.database.db);
    expect((await cats(admin, 'notice')).find((c) => c.id === used)!.use_count).toBe(3);

    const refused = await s.call('categorydel', { id: used }, admin);
    expect(refused.return_msg).toBe('该分类下还有 3 条通知，请选择要移到的分类后再删除');
    expect((await s.call('categorydel', { id: used, move_to: used }, admin)).return_msg).toBe('不能移到要删除的分类本身');
    expect((await s.call('categorydel', { id: used, move_to: foreign }, admin)).return_msg).toBe('要移到的分类须同属“通知公告”');
    expect((await s.call('categorydel', { id: used, move_to: 2_000_000_000 }, admin)).return_msg).toBe('要移到的分类不存在');
    expect((await cats(admin, 'notice')).find((c) => c.id === used)!.use_count).toBe(3);

    const moved = await s.call('categorydel', { id: used, move_to: other }, admin);
    expect(moved.return_code, moved.return_msg).toBe('SUCCESS');
    expect(moved.return_msg).toBe('已将 3 条记录移到“其他通知”，分类已删除');
    expect(moved.data.moved).toBe(3);
    const after = await cats(admin, 'notice');
    expect(after.some((c) => c.id === used)).toBe(false);
    expect(after.find((c) => c.id === other)!.use_count).toBe(3);
  });

  it("neither moves to nor deletes another community's category", async () => {
    const [admin, admin2] = await s.logins('admin', 'admin2');
    const mine = await add(admin, { module: 'repair', title: '测试水电' });
    const theirs = await add(admin2, { module: 'repair', title: '测试门窗' });
    await sql`INSERT INTO test_notices (rid, category_id) VALUES (1, 999999)`.execute(s.database.db);
    expect((await s.call('categorydel', { id: theirs }, admin)).return_msg).toBe('分类不存在');
    expect((await s.call('categorydel', { id: mine, move_to: theirs }, admin)).return_code).toBe('SUCCESS');
    expect((await cats(admin2)).some((c) => c.id === theirs)).toBe(true);
  });

  it('serves the enabled categories of a module to the areas, and checks a chosen one', async () => {
    const [admin, cashier] = await s.logins('admin', 'cashier');
    const on = await add(admin, { module: 'complaint', title: '噪音投诉', sort: 2 });
    const off = await add(admin, { module: 'complaint', title: '停用的投诉', status: 'N' });
    const small = await s.call('category_small_list', { module: 'complaint' }, cashier);
    expect(small.return_code).toBe('SUCCESS');
    expect(small.data.items.map((i: { id: number }) => i.id)).toContain(on);
    expect(small.data.items.map((i: { id: number }) => i.id)).not.toContain(off);
    expect((await s.call('category_small_list', { module: 'nope' }, cashier)).return_msg).toContain('所属模块取值不正确');
    const db = s.database.db;
    expect((await categoryOf(db, 1, 'complaint', on)).title).toBe('噪音投诉');
    await expect(categoryOf(db, 1, 'complaint', off)).rejects.toThrow('分类“停用的投诉”已停用，请选择其他分类');
    await expect(categoryOf(db, 1, 'notice', on)).rejects.toThrow('所选分类不存在或不属于该模块');
    await expect(categoryOf(db, 2, 'complaint', on)).rejects.toThrow('所选分类不存在或不属于该模块');
  });

  it('refuses the setup pages to an account without the setup code', async () => {
    const cashier = await s.login('cashier');
    expect((await s.call('categorylist', {}, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('categorydel', { id: 1 }, cashier)).return_code).toBe('NO_PERMISSION');
  });
});
