import { BILL_STATUS, enumText, PAY_TYPE_CH } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { otherGroupLeader } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

type Item = { id: number; value: string; label: string; default_label: string; scope: string; used: number; status: string; tone: string };
const items = async (token: string, type: string, more: Record<string, unknown> = {}): Promise<Item[]> => {
  const res = await s.call('dictlist', { type, limit: 200, ...more }, token);
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return res.data.items;
};
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

describe('dictionary types', () => {
  it('lists the system types from the code and the editable ones with their counts', async () => {
    const admin = await s.login('admin');
    const res = await s.call('dicttypelist', {}, admin);
    ok(res);
    const byKey = new Map(res.data.items.map((t: { key: string }) => [t.key, t]));
    expect(byKey.get('bill_status')).toMatchObject({ name: '账单状态', scope: 'system', count: 3, renamed: 0 });
    expect(byKey.get('pay_type')).toMatchObject({ name: '支付方式', scope: 'system', count: 6 });
    expect(byKey.get('visitor_status')).toMatchObject({ scope: 'system', count: 5 });
    expect(byKey.get('visitor_reason')).toMatchObject({ name: '来访事由', scope: 'custom', count: 6 });
    // the first community's own owner tags with the group's items; the second sees only the group's
    expect(byKey.get('owner_tag')).toMatchObject({ count: 4 });
    const admin2 = await s.login('admin2');
    const other = new Map((await s.call('dicttypelist', {}, admin2)).data.items.map((t: { key: string }) => [t.key, t]));
    expect(other.get('owner_tag')).toMatchObject({ count: 0 });
  });

  it('refuses the dictionary to an account without the setup code, and an unknown type', async () => {
    const [cashier, admin] = await s.logins('cashier', 'admin');
    for (const [m, p] of [
      ['dicttypelist', {}],
      ['dictlist', { type: 'bill_status' }],
      ['dictlabel', { type: 'bill_status', value: 'E', label: '未缴' }],
      ['dictadd', { type: 'owner_tag', scope: 'community', label: 'x', value: 'x' }],
      ['dictedit', { id: 1, label: 'x', value: 'x' }],
      ['dictdel', { id: 1 }],
    ] as const)
      expect((await s.call(m, p, cashier)).return_code, m).toBe('NO_PERMISSION');
    expect((await s.call('dictlist', { type: 'nope' }, admin)).return_msg).toBe('字典类型不存在');
  });
});

describe('system items: the code keeps the values, the group renames the labels', () => {
  it('renames a bill status: the bill list, the export, the payment texts and the messages show the new word', async () => {
    const [admin, cashier] = await s.logins('admin', 'cashier');
    const { rows } = await sql<{ hid: number }>`SELECT hid FROM fee_bills WHERE status = 'N' AND rid = 1 LIMIT 1`.execute(s.database.db);
    const pending = async () => {
      const res = await s.call('feebilllist', { hid: rows[0]!.hid, limit: 200 }, cashier);
      ok(res);
      return (res.data.items as Array<{ status: string; status_ch: string }>).find((b) => b.status === 'N')!;
    };
    expect((await pending()).status_ch).toBe('已逾期');

    ok(await s.call('dictlabel', { type: 'bill_status', value: 'N', label: '欠费' }, admin));
    const status = await items(admin, 'bill_status');
    expect(status.find((i) => i.value === 'N')).toMatchObject({ label: '欠费', default_label: '已逾期', scope: 'system', id: 0 });
    expect((await s.call('dicttypelist', {}, admin)).data.items.find((t: { key: string }) => t.key === 'bill_status').renamed).toBe(1);

    expect((await pending()).status_ch).toBe('欠费');
    const file = await s.exportFile('exportfees', { hid: rows[0]!.hid, status: 'N' }, cashier);
    ok(file);
    const sheet = await readXlsx(file.data.content_base64);
    expect(new Set(sheet.rows.map((r) => r.values['状态']))).toEqual(new Set(['欠费']));

    // the renamed labels every page loads once a session
    expect((await s.call('dictlabels', {}, cashier)).data.labels).toEqual({ bill_status: { N: '欠费' } });
    // outside a call the code's own text stays
    expect(enumText(BILL_STATUS, 'N')).toBe('已逾期');

    ok(await s.call('dictlabel', { type: 'bill_status', value: 'N', label: '' }, admin));
    expect((await pending()).status_ch).toBe('已逾期');
    expect((await s.call('dictlabels', {}, cashier)).data.labels).toEqual({});
  });

  it('renames a payment method for the whole group and for no other group', async () => {
    const [admin, admin2, cashier] = await s.logins('admin', 'admin2', 'cashier');
    ok(await s.call('dictlabel', { type: 'pay_type', value: 'wechat', label: '微信' }, admin2));
    const payments = await s.call('paymentlist', { limit: 50 }, cashier);
    const wechat = payments.data.items.find((p: { pay_type: string }) => p.pay_type === 'wechat');
    expect(wechat.pay_type_ch).toBe('微信');
    expect(PAY_TYPE_CH.wechat).toBe('微信支付');
    const leader = await otherGroupLeader(s);
    expect((await s.call('dictlabels', {}, leader, 'group')).data.labels).toEqual({});
    ok(await s.call('dictlabel', { type: 'pay_type', value: 'wechat', label: '微信支付' }, admin));
    expect((await s.call('dictlabels', {}, cashier)).data.labels).toEqual({});
  });

  it('refuses a label twice in a type, an unknown value, a value change and an editable type', async () => {
    const admin = await s.login('admin');
    expect((await s.call('dictlabel', { type: 'bill_status', value: 'E', label: '已缴' }, admin)).return_msg).toBe(
      '“账单状态”中已有标签“已缴”',
    );
    expect((await s.call('dictlabel', { type: 'bill_status', value: 'X', label: '作废' }, admin)).return_msg).toBe('字典项不存在');
    expect((await s.call('dictlabel', { type: 'owner_tag', value: 'vip', label: '贵宾' }, admin)).return_msg).toBe(
      '只有系统字典项在这里改标签；可维护的字典项请用编辑',
    );
    expect((await s.call('dictlabel', { type: 'bill_status', value: 'E', label: 'x'.repeat(101) }, admin)).return_code).toBe('FAIL');
    expect((await s.call('dictlabels', {}, admin)).data.labels).toEqual({});
  });

  it('filters the system items by label', async () => {
    const admin = await s.login('admin');
    expect((await items(admin, 'visitor_status', { label: '已' })).map((i) => i.value)).toEqual(['3', 'Y', 'D', 'C']);
    expect(await items(admin, 'visitor_status', { status: 'N' })).toEqual([]);
  });
});

describe('editable items: the group shares them, a community adds its own, a used value stays', () => {
  it('adds a group item every community sees, and a community item only its own', async () => {
    const [admin, admin2] = await s.logins('admin', 'admin2');
    const res = await s.call(
      'dictadd',
      { type: 'owner_tag', scope: 'group', label: '新业主', value: 'newcomer', sort: 9, tone: 'success' },
      admin,
    );
    ok(res);
    const own = await s.call('dictadd', { type: 'owner_tag', scope: 'community', label: '孕妇', value: 'pregnant' }, admin);
    ok(own);
    expect((await items(admin2, 'owner_tag')).map((i) => [i.value, i.scope])).toEqual([['newcomer', 'group']]);
    const mine = await items(admin, 'owner_tag');
    expect(mine.find((i) => i.value === 'pregnant')).toMatchObject({ scope: 'community', label: '孕妇', status: 'Y', tone: 'default' });
    const small = await s.call('dict_small_list', { type: 'owner_tag' }, admin2);
    expect(small.data.items).toEqual([{ value: 'newcomer', label: '新业主', tone: 'success' }]);
    // another community's item is not found there
    const theirs = own.data.id as number;
    expect((await s.call('dictedit', { id: theirs, label: '改', value: 'pregnant' }, admin2)).return_msg).toBe('字典项不存在');
    expect((await s.call('dictdel', { id: theirs }, admin2)).return_msg).toBe('字典项不存在');
    // a value once in the type within the group
    expect(
      (await s.call('dictadd', { type: 'owner_tag', scope: 'community', label: '另一个', value: 'pregnant' }, admin2)).return_msg,
    ).toBe('字典值“pregnant”已存在');
    ok(await s.call('dictdel', { id: theirs }, admin));
    ok(await s.call('dictdel', { id: res.data.id }, admin));
  });

  it('keeps a used value: its label changes, its value and its row stay', async () => {
    const admin = await s.login('admin');
    const cause = (await items(admin, 'visitor_reason')).find((i) => i.value === '快递配送')!;
    expect(cause.used).toBeGreaterThan(0);
    const refused = await s.call('dictedit', { id: cause.id, label: '快递', value: '快递上门' }, admin);
    expect(refused.return_msg).toBe(`字典值“快递配送”已被 ${cause.used} 条记录使用，不能修改（可改标签）`);
    expect((await s.call('dictdel', { id: cause.id }, admin)).return_msg).toBe(
      `字典值“快递配送”已被 ${cause.used} 条记录使用，不能删除，可以停用`,
    );
    ok(await s.call('dictedit', { id: cause.id, label: '快递', value: '快递配送', status: 'N' }, admin));
    expect((await items(admin, 'visitor_reason')).find((i) => i.id === cause.id)).toMatchObject({ label: '快递', status: 'N' });
    expect(
      (await s.call('dict_small_list', { type: 'visitor_reason' }, admin)).data.items.some(
        (i: { value: string }) => i.value === '快递配送',
      ),
    ).toBe(false);
  });

  it('changes an unused value, refusing one the type has', async () => {
    const admin = await s.login('admin');
    const id = (await s.call('dictadd', { type: 'car_brand', scope: 'group', label: '蔚来', value: 'NIO' }, admin)).data.id as number;
    expect((await s.call('dictedit', { id, label: '蔚来', value: '比亚迪汉' }, admin)).return_msg).toBe('字典值“比亚迪汉”已存在');
    ok(await s.call('dictedit', { id, label: '蔚来汽车', value: 'NIO-ES6', sort: 3 }, admin));
    // once a car carries it, it stays
    await sql`UPDATE cars SET brand = 'NIO-ES6' WHERE rid = 1 AND id = (SELECT min(id) FROM cars WHERE rid = 1)`.execute(s.database.db);
    expect((await s.call('dictedit', { id, label: '蔚来', value: 'NIO' }, admin)).return_msg).toBe(
      '字典值“NIO-ES6”已被 1 条记录使用，不能修改（可改标签）',
    );
  });

  it('refuses bad payloads', async () => {
    const admin = await s.login('admin');
    const bad = async (p: Record<string, unknown>) =>
      (await s.call('dictadd', { type: 'owner_tag', scope: 'group', label: 'a', value: 'a', ...p }, admin)).return_msg;
    expect(await bad({ type: 'bill_status' })).toContain('字典类型取值不正确');
    expect(await bad({ scope: 'system' })).toContain('适用范围取值不正确');
    expect(await bad({ label: '' })).toContain('请输入标签');
    expect(await bad({ value: '' })).toContain('请输入字典值');
    expect(await bad({ value: 'a b' })).toContain('字典值不能包含空格');
    expect(await bad({ tone: 'pink' })).toContain('颜色取值不正确');
    expect(await bad({ sort: -1 })).not.toBe('添加成功');
    expect((await items(admin, 'owner_tag')).some((i) => i.value === 'a')).toBe(false);
  });
});

describe('the group side: the head office keeps the group items and the labels', () => {
  it('lists, adds, renames and deletes the group items from the group side, and no community item', async () => {
    const [leader, admin, admin2] = await s.logins('leader', 'admin', 'admin2');
    const own = await s.call('dictadd', { type: 'owner_tag', scope: 'community', label: '独居老人', value: 'alone' }, admin);
    ok(own);
    const types = await s.call('dicttypelist', {}, leader, 'group');
    ok(types);
    expect(types.data.items.find((t: { key: string }) => t.key === 'owner_tag').count).toBe(0);
    // a group item from the group side: every community sees it
    const added = await s.call('dictadd', { type: 'owner_tag', scope: 'group', label: '党员', value: 'party' }, leader, 'group');
    ok(added);
    expect((await items(admin2, 'owner_tag')).map((i) => [i.value, i.scope])).toEqual([['party', 'group']]);
    const onGroup = (await s.call('dictlist', { type: 'owner_tag', limit: 200 }, leader, 'group')).data.items as Item[];
    expect(onGroup.map((i) => i.value)).toEqual(['party']);
    // a community's own item is neither listed, changed nor added there
    expect((await s.call('dictedit', { id: own.data.id, label: '改', value: 'alone' }, leader, 'group')).return_msg).toBe('字典项不存在');
    expect((await s.call('dictdel', { id: own.data.id }, leader, 'group')).return_msg).toBe('字典项不存在');
    const community = await s.call('dictadd', { type: 'owner_tag', scope: 'community', label: '孤老', value: 'lonely' }, leader, 'group');
    expect(community.return_msg).toBe('集团端只维护集团字典项，小区字典项请在小区端维护');
    expect((await items(admin, 'owner_tag')).some((i) => i.value === 'lonely')).toBe(false);
    ok(await s.call('dictedit', { id: added.data.id, label: '党员户', value: 'party' }, leader, 'group'));
    expect((await items(admin2, 'owner_tag')).find((i) => i.value === 'party')?.label).toBe('党员户');
    // a system label renamed by the head office is the group's word in every community
    ok(await s.call('dictlabel', { type: 'pay_type', value: 'cash', label: '现钞' }, leader, 'group'));
    expect((await items(admin2, 'pay_type')).find((i) => i.value === 'cash')?.label).toBe('现钞');
    ok(await s.call('dictlabel', { type: 'pay_type', value: 'cash', label: '' }, leader, 'group'));
    ok(await s.call('dictdel', { id: added.data.id }, leader, 'group'));
    ok(await s.call('dictdel', { id: own.data.id }, admin));
    // another group's head office sees none of it
    const other = await otherGroupLeader(s);
    expect((await s.call('dictlist', { type: 'owner_tag', limit: 200 }, other, 'group')).data.items).toEqual([]);
  });
});
