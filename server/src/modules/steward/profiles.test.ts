import { RC, scoreItem, steward } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
let stewardToken: string;
let guard: string;

const ok = (a: { return_code: string; return_msg: string }) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(a.return_code).toBe(RC.FAIL);
  expect(a.return_msg).toMatch(msg);
};
const accountId = async (username: string) =>
  (await s.database.db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
const buildingId = async (title: string, rid = 1) =>
  Number(
    (await s.database.db.selectFrom('buildings').select('id').where('rid', '=', rid).where('title', '=', title).executeTakeFirstOrThrow())
      .id,
  );
const unitId = async (building: string, unit: string) =>
  Number(
    (
      await s.database.db
        .selectFrom('units as u')
        .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'u.rid').onRef('b.id', '=', 'u.bid'))
        .select('u.id')
        .where('u.rid', '=', 1)
        .where('b.title', '=', building)
        .where('u.title', '=', unit)
        .executeTakeFirstOrThrow()
    ).id,
  );
const itemIds = async (token = admin) =>
  (await s.call('scoreitem_small_list', {}, token)).data.items as Array<{ id: number; title: string }>;
const item = async (title: string) => (await itemIds()).find((i) => i.title === title)!.id;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, stewardToken, guard] = await s.logins('admin', 'admin2', 'steward', 'guard');
});
afterAll(() => s?.close());

describeResource(scoreItem, {
  server: () => s,
  sample: { name: '测试项目', description: '用于测试', status: 'Y', sort: 5 },
  edit: { name: '测试项目二', description: '改过', status: 'N' },
  filters: { name: '测试项目', status: 'Y' },
  writer: 'steward',
  deniedWriter: 'guard',
  unique: ['name'],
});

describeResource(steward, {
  server: () => s,
  async sample(srv, token) {
    const items = (await srv.call('scoreitem_small_list', {}, token)).data.items as Array<{ id: number }>;
    return {
      account_id: await accountId('finance'),
      photo: [],
      post: 'BJ',
      areas: [{ bid: await buildingId('6号楼') }],
      phone: '021-58881234',
      introduction: '保洁主管',
      items: [
        { item_id: items[0]!.id, weight: '60' },
        { item_id: items[1]!.id, weight: 40 },
      ],
      status: 'Y',
      sort: 9,
    };
  },
  edit: { phone: '13912345678', post: 'BJ', status: 'N' },
  filters: { keyword: '郑会计', post: 'BJ', status: 'Y' },
  writer: 'steward',
  deniedWriter: 'guard',
});

describe('steward profiles', () => {
  let finance: number;
  let base: Record<string, unknown>;
  beforeAll(async () => {
    finance = await accountId('finance');
    base = {
      account_id: finance,
      photo: [],
      post: 'GJ',
      areas: [{ bid: await buildingId('3号楼') }, { bid: await buildingId('4号楼'), tid: await unitId('4号楼', '1单元') }],
      phone: '',
      introduction: '',
      items: [
        { item_id: await item('服务态度'), weight: '33.33' },
        { item_id: await item('响应及时'), weight: '33.33' },
        { item_id: await item('问题解决'), weight: '33.34' },
      ],
      status: 'Y',
    };
  });

  it('refuses weights that do not total exactly 100 %', async () => {
    const items = base.items as Array<{ item_id: number; weight: string }>;
    refused(
      await s.call('stewardadd', { ...base, items: [items[0], items[1], { ...items[2], weight: '33.33' }] }, admin),
      /权重合计应为 100%，现为 99.99%/,
    );
    refused(await s.call('stewardadd', { ...base, items: [{ ...items[0], weight: '100.5' }] }, admin), /权重合计应为 100%|权重应为/);
    refused(await s.call('stewardadd', { ...base, items: [{ ...items[0], weight: '12.345' }, items[1]] }, admin), /最多两位小数/);
    refused(
      await s.call(
        'stewardadd',
        {
          ...base,
          items: [
            { ...items[0], weight: 50 },
            { ...items[0], weight: 50 },
          ],
        },
        admin,
      ),
      /不能重复/,
    );
    refused(await s.call('stewardadd', { ...base, items: [] }, admin), /请选择考核项目/);
    refused(await s.call('stewardadd', { ...base, areas: [] }, admin), /请选择负责的楼栋或单元/);
    refused(await s.call('stewardadd', { ...base, phone: '12345' }, admin), /服务电话格式不正确/);
    expect(await s.database.db.selectFrom('steward_profiles').select('id').where('account_id', '=', finance).execute()).toEqual([]);
  });

  it('adds a profile with buildings, a unit and items; info answers them; the list counts the households', async () => {
    const res = await s.call('stewardadd', base, stewardToken);
    ok(res);
    const info = (await s.call('stewardinfo', { id: res.data.id }, stewardToken)).data;
    expect(info.areas.map((a: { title: string }) => a.title)).toEqual(['3号楼', '4号楼1单元']);
    expect(info.items.map((i: { weight: string }) => i.weight)).toEqual(['33.33', '33.33', '33.34']);
    expect(info.house_count).toBe(120 + 60);
    expect(info.post_ch).toBe('管家');
    const houses = (await s.call('stewardhouses', { id: res.data.id, limit: 200 }, stewardToken)).data;
    expect(houses.total).toBe(180);
    const filtered = (await s.call('stewardhouses', { id: res.data.id, keyword: '4号楼1单元' }, stewardToken)).data;
    expect(filtered.total).toBe(60);
    // an owner's name finds the rooms they live in, among the served ones only
    const someone = houses.items.find((h: { owner_name: string }) => h.owner_name)!;
    const byName = (await s.call('stewardhouses', { id: res.data.id, keyword: someone.owner_name, limit: 200 }, stewardToken)).data;
    expect(byName.items.map((h: { hid: number }) => h.hid)).toContain(someone.hid);
    expect(byName.total).toBeLessThan(180);
    // one profile per account
    refused(await s.call('stewardadd', { ...base, post: 'KF', areas: [{ bid: await buildingId('5号楼') }] }, admin), /郑会计已有管家档案/);
    // the staff picker tells which accounts have one
    const staff = (await s.call('steward_staff_small_list', {}, stewardToken)).data.items as Array<{
      id: number;
      profile_id: number | null;
    }>;
    expect(staff.find((x) => x.id === finance)!.profile_id).toBe(res.data.id);
    ok(await s.call('stewarddel', { id: res.data.id }, admin));
  });

  it('refuses a unit already served by an enabled profile of the same post, allows another post or a disabled one', async () => {
    // the demo's 钱管家 is 管家 of 1号楼 and 2号楼
    const unit = await unitId('2号楼', '2单元');
    refused(
      await s.call('stewardadd', { ...base, areas: [{ bid: await buildingId('2号楼'), tid: unit }] }, admin),
      /2号楼2单元已由同岗位的钱管家负责/,
    );
    refused(
      await s.call('stewardadd', { ...base, areas: [{ bid: await buildingId('1号楼') }] }, admin),
      /1号楼1单元已由同岗位的钱管家负责/,
    );
    const disabled = await s.call('stewardadd', { ...base, status: 'N', areas: [{ bid: await buildingId('2号楼'), tid: unit }] }, admin);
    ok(disabled);
    // enabling it now clashes
    refused(
      await s.call(
        'stewardedit',
        { ...base, id: disabled.data.id, status: 'Y', areas: [{ bid: await buildingId('2号楼'), tid: unit }] },
        admin,
      ),
      /已由同岗位的钱管家负责/,
    );
    ok(
      await s.call(
        'stewardedit',
        { ...base, id: disabled.data.id, post: 'BJ', status: 'Y', areas: [{ bid: await buildingId('2号楼'), tid: unit }] },
        admin,
      ),
    );
    ok(await s.call('stewarddel', { id: disabled.data.id }, admin));
  });

  it('refuses another community’s buildings, units, items and staff, and a unit of another building', async () => {
    const cuihu = await buildingId('1号楼', 2);
    refused(await s.call('stewardadd', { ...base, areas: [{ bid: cuihu }] }, admin), /所选楼栋不存在或不属于当前小区/);
    refused(
      await s.call('stewardadd', { ...base, areas: [{ bid: await buildingId('3号楼'), tid: await unitId('4号楼', '1单元') }] }, admin),
      /所选单元不存在或不属于所选楼栋/,
    );
    const otherItems = (await s.call('scoreitem_small_list', {}, admin2)).data.items as Array<{ id: number }>;
    refused(
      await s.call('stewardadd', { ...base, items: [{ item_id: otherItems[0]!.id, weight: 100 }] }, admin),
      /所选考核项目不存在或不属于当前小区/,
    );
    refused(
      await s.call('stewardadd', { ...base, account_id: await accountId('cashier2') }, admin),
      /所选员工不存在、已停用或不在当前小区/,
    );
    const demo = (await s.call('stewardlist', { keyword: '钱管家' }, admin)).data.items[0];
    refused(await s.call('stewardinfo', { id: demo.id }, admin2), /管家档案不存在/);
    refused(await s.call('stewardhouses', { id: demo.id }, admin2), /管家档案不存在/);
    refused(await s.call('stewardedit', { ...base, id: demo.id }, admin2), /管家档案不存在/);
    refused(await s.call('stewarddel', { id: demo.id }, admin2), /管家档案不存在/);
  });

  it('refuses a disabled item on a new profile, keeps it on a profile that had it', async () => {
    const off = await s.call('scoreitemadd', { name: '临时项目', status: 'Y' }, admin);
    ok(off);
    const items = [
      { item_id: off.data.id, weight: 50 },
      { item_id: await item('服务态度'), weight: 50 },
    ];
    const added = await s.call('stewardadd', { ...base, items }, admin);
    ok(added);
    ok(await s.call('scoreitemedit', { id: off.data.id, name: '临时项目', status: 'N' }, admin));
    ok(await s.call('stewardedit', { ...base, id: added.data.id, items }, admin));
    refused(await s.call('scoreitemdel', { id: off.data.id }, admin), /已用在管家档案中/);
    ok(await s.call('stewarddel', { id: added.data.id }, admin));
    refused(await s.call('stewardadd', { ...base, items }, admin), /考核项目“临时项目”已停用/);
    ok(await s.call('scoreitemdel', { id: off.data.id }, admin));
  });

  it('is the desk’s: the guard and the technician are refused', async () => {
    const tech = (await s.logins('tech'))[0];
    for (const token of [guard, tech]) {
      expect((await s.call('stewardlist', {}, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('stewardadd', base, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('scoreitemlist', {}, token)).return_code).toBe(RC.NO_PERMISSION);
    }
  });
});
