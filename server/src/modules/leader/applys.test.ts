import { COMMUNITY_MODULE_KEYS, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../../test/answers.js';
import { otherGroupLeader } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { availableServices } from '../mobilesys/apply.js';

let s: TestServer;
let leader: string;
let admin: string;
let admin2: string;
let outsider: string;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
type Service = { code: string; enabled: string; available: string; unavailable_reason: string; sort: number; icon: string };
const services = async (token: string): Promise<Record<string, Service>> =>
  Object.fromEntries((ok(await s.call('applylist', {}, token)).items as Service[]).map((a) => [a.code, a]));
const regionOf = (info: { regions: Array<{ title: string }> }, title: string) => info.regions.find((r) => r.title === title);
const edit = (code: string, more: Record<string, unknown> = {}) => ({
  code,
  icon: 'AppstoreOutlined',
  sort: 50,
  region_scope: 'all',
  ...more,
});

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin, admin2] = await s.logins('leader', 'admin', 'admin2');
  outsider = await otherGroupLeader(s);
});
afterAll(() => s?.close());

describe('集团应用目录', () => {
  it('lists every service of the catalogue with its icon, module, order and the demo group’s choices', async () => {
    const { items } = ok(await group('applyslist', {}));
    expect(items).toHaveLength(12);
    expect(items[0]).toMatchObject({
      code: 'payment',
      sort: 5,
      icon: 'WalletOutlined',
      module: 'fees',
      module_ch: '收费管理',
      allow_hide: 'N',
      allow_hide_ch: '不允许',
      allow_reorder: 'N',
      region_scope: 'all',
      regions_text: '全部小区',
    });
    const meter = items.find((i: { code: string }) => i.code === 'meter');
    expect(meter).toMatchObject({ region_scope: 'some', rids: [1], regions_text: '阳光花园', module_ch: '智能仪表', available_count: 1 });
    const repair = items.find((i: { code: string }) => i.code === 'repair');
    expect(repair).toMatchObject({ icon: 'ToolOutlined', default_icon: 'ToolOutlined', allow_hide: 'Y', region_scope: 'all' });
    expect(repair.region_count).toBeGreaterThanOrEqual(2);
    // another group starts from the catalogue's defaults
    const theirs = ok(await group('applyslist', {}, outsider)).items;
    expect(theirs.find((i: { code: string }) => i.code === 'meter')).toMatchObject({ region_scope: 'all', region_count: 0 });
  });

  it('shows per community whether a service may be offered, why not, and whether it shows', async () => {
    const meter = ok(await group('applysinfo', { code: 'meter' }));
    expect(regionOf(meter, '阳光花园')).toMatchObject({ available: 'Y' });
    expect(regionOf(meter, '翠湖苑')).toMatchObject({ available: 'N', reason: '集团未开放', enabled: 'N' });
    // 阳光花园 switches 社区活动 off: available, not shown
    ok(await s.call('applyedit', { code: 'activity', enabled: 'N', title: '社区活动' }, admin));
    const activity = ok(await group('applysinfo', { code: 'activity' }));
    expect(regionOf(activity, '阳光花园')).toMatchObject({ available: 'Y', reason: '本小区已停用', enabled: 'N', enabled_ch: '未开通' });
    expect(regionOf(activity, '翠湖苑')).toMatchObject({ available: 'Y', reason: '', enabled: 'Y' });
    refused(await group('applysinfo', { code: 'casino' }), '应用不存在');
  });

  it('keeps a community from a service the group does not open to it', async () => {
    const mine = await services(admin2);
    expect(mine.meter).toMatchObject({ available: 'N', enabled: 'N', unavailable_reason: '集团未开放' });
    refused(
      await s.call('applyedit', { code: 'meter', enabled: 'Y', title: '智能电表' }, admin2),
      '集团未向本小区开放“智能电表”，不能开通',
    );
    // saving it off (its words) is still allowed
    ok(await s.call('applyedit', { code: 'meter', enabled: 'N', title: '电表', hours: '全天' }, admin2));
    // opened to 翠湖苑 as well: now it may be switched on there
    ok(await group('applysedit', edit('meter', { icon: 'ThunderboltOutlined', region_scope: 'some', rids: [1, 2, 2] })));
    expect(ok(await group('applysinfo', { code: 'meter' })).rids).toEqual([1, 2]);
    ok(await s.call('applyedit', { code: 'meter', enabled: 'Y', title: '电表' }, admin2));
    expect((await services(admin2)).meter).toMatchObject({ available: 'Y', enabled: 'Y', icon: 'ThunderboltOutlined' });
    // closed to everyone: off everywhere, whatever the community chose
    ok(await group('applysedit', edit('meter', { region_scope: 'none' })));
    expect((await services(admin2)).meter).toMatchObject({ available: 'N', enabled: 'N', unavailable_reason: '集团未开放' });
    expect(await availableServices(s.database.db, 2)).not.toContain('meter');
  });

  it('keeps a service off where the community lacks its module', async () => {
    const modules = COMMUNITY_MODULE_KEYS.filter((m) => m !== 'steward');
    ok(await group('leaderregionmodules', { rid: 2, modules }));
    try {
      const token = await s.login('admin2');
      expect((await services(token)).repair).toMatchObject({
        available: 'N',
        enabled: 'N',
        unavailable_reason: '本小区未开通“管家服务”模块',
      });
      refused(
        await s.call('applyedit', { code: 'repair', enabled: 'Y', title: '在线报修' }, token),
        '本小区未开通“管家服务”模块，不能开通“在线报修”',
      );
      expect(regionOf(ok(await group('applysinfo', { code: 'repair' })), '翠湖苑')).toMatchObject({
        available: 'N',
        reason: '本小区未开通“管家服务”模块',
      });
      const shown = await availableServices(s.database.db, 2);
      expect(shown).not.toContain('repair');
      expect(shown).toContain('payment');
    } finally {
      ok(await group('leaderregionmodules', { rid: 2, modules: [...COMMUNITY_MODULE_KEYS] }));
    }
  });

  it('keeps a service on where the group forbids hiding it, and the group’s order where it forbids reordering', async () => {
    refused(
      await s.call('applyedit', { code: 'payment', enabled: 'N', title: '物业缴费' }, admin),
      '集团要求各小区展示“物业缴费”，不能停用',
    );
    ok(await s.call('applyedit', { code: 'payment', enabled: 'Y', title: '交物业费', sort: 999 }, admin));
    const list = ok(await s.call('applylist', {}, admin)).items as Service[];
    expect(list.filter((a) => a.enabled === 'Y')[0]).toMatchObject({ code: 'payment', sort: 5, enabled: 'Y' });
    expect((await availableServices(s.database.db, 1))[0]).toBe('payment');
    // where reordering is allowed, the community's order
    ok(await s.call('applyedit', { code: 'complaint', enabled: 'Y', title: '投诉建议', sort: 1 }, admin));
    expect((await services(admin)).complaint!.sort).toBe(1);
    // the group lets communities hide it: now it may be switched off
    ok(await group('applysedit', edit('payment', { icon: 'WalletOutlined', sort: 5, allow_hide: 'Y', allow_reorder: 'Y' })));
    ok(await s.call('applyedit', { code: 'payment', enabled: 'N', title: '交物业费', sort: 999 }, admin));
    expect((await services(admin)).payment).toMatchObject({ enabled: 'N', sort: 999 });
    expect(await availableServices(s.database.db, 1)).not.toContain('payment');
  });

  it("refuses bad payloads, another group's communities and community accounts", async () => {
    refused(await group('applysedit', edit('casino')), '应用不存在');
    refused(await group('applysedit', edit('card', { icon: 'Nope' })), '请选择图标');
    refused(await group('applysedit', edit('card', { region_scope: 'few' })), '开放范围取值不正确');
    refused(await group('applysedit', edit('card', { allow_hide: 'X' })), /allow_hide|取值/);
    refused(await group('applysedit', edit('card', { region_scope: 'some', rids: [] })), '请选择开放的小区');
    refused(
      await group('applysedit', edit('card', { region_scope: 'some', rids: [1, 999999] })),
      '所选小区不存在或不属于本集团（ID：999999）',
    );
    refused(
      await group('applysedit', edit('card', { region_scope: 'some', rids: [1] }), outsider),
      '所选小区不存在或不属于本集团（ID：1）',
    );
    for (const [method, payload] of [
      ['applyslist', {}],
      ['applysinfo', { code: 'card' }],
      ['applysedit', edit('card')],
    ] as const) {
      expect((await group(method, payload, admin)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call(method, payload, admin)).return_code).toBe(RC.FAIL);
    }
    // nothing changed
    expect(ok(await group('applysinfo', { code: 'card' })).update_time).toBe('');
    // another group's choice is its own
    ok(await group('applysedit', edit('card', { region_scope: 'none' }), outsider));
    expect((await services(admin)).card!.available).toBe('Y');
  });
});
