import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMUNITY_MODULE_KEYS } from '@wuye/contract';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Communities and their modules (docs/product.md#community-modules): a new community with its
 * first administrator, modules closed per community, and what a closed module's methods answer.
 */

let s: TestServer;
let leader: string;
let admin: string;
let admin2: string;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
const newRegion = (title: string, extra: Record<string, unknown> = {}) =>
  group('leaderregionadd', { title, end_time: '2030-12-31', price_per_year: '3600', ...extra });

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin, admin2] = (await Promise.all(['leader', 'admin', 'admin2'].map((u) => s.login(u)))) as [string, string, string];
});
afterAll(() => s.close());

describe('a new community with its administrator and modules', () => {
  let rid: number;
  let token: string;

  it('adds the community with fees and steward only, and its administrator with a one-time password', async () => {
    const res = await newRegion('春江花月', {
      province: '浙江省',
      city: '杭州市',
      district: '上城区',
      modules: ['steward', 'fees'],
      admin: { username: 'cjhy_admin', name: '江管理', mobile: '13900001111' },
    });
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.admin.username).toBe('cjhy_admin');
    expect(res.data.admin.password).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(res.return_msg).toContain(res.data.admin.password);
    rid = res.data.id;
    const list = await group('leaderregionlist', { title: '春江花月' });
    expect(list.data.items[0]).toMatchObject({
      id: rid,
      province: '浙江省',
      city: '杭州市',
      district: '上城区',
      modules: ['fees', 'steward'],
    });

    // the administrator signs in to the new community, changes the one-time password first
    token = await s.login('cjhy_admin', res.data.admin.password);
    expect((await s.call('noticelist', {}, token)).return_msg).toBe('请先修改管理员设置的临时密码');
    const changed = await s.call('sysusereditpassword', { username: 'cjhy_admin', password: 'Cjhy#2026', password2: 'Cjhy#2026' }, token);
    expect(changed.return_code).toBe('SUCCESS');
    token = await s.login('cjhy_admin', 'Cjhy#2026');
    const info = await s.call('userinfo', {}, token);
    expect(info.data.roles).toContain('admin');
    expect(info.data.modules_off).toEqual(COMMUNITY_MODULE_KEYS.filter((m) => m !== 'fees' && m !== 'steward'));
    expect((await s.call('regioninfo', {}, token)).data).toMatchObject({ id: rid, title: '春江花月' });
  });

  it('closes the other modules’ methods in it, reads and writes alike, and keeps the open ones', async () => {
    for (const [method, payload] of [
      ['carlist', {}],
      ['caradd', { plate: '浙A12345' }],
      ['accessdevicelist', {}],
      ['chargerlist', {}],
    ] as const) {
      const res = await s.call(method, payload, token);
      expect(res.return_code, method).toBe('NO_PERMISSION');
      expect(res.return_msg, method).toMatch(/^本小区未开通“.+”模块，请联系集团开通$/);
    }
    expect((await s.call('carlist', {}, token)).return_msg).toBe('本小区未开通“停车管理”模块，请联系集团开通');
    expect((await s.call('noticelist', {}, token)).return_code).toBe('SUCCESS');
    expect((await s.call('feebilllist', {}, token)).return_code).toBe('SUCCESS');
    // the always-open areas
    expect((await s.call('roomlist', {}, token)).return_code).toBe('SUCCESS');
    // another community keeps every module
    expect((await s.call('carlist', {}, admin)).return_code).toBe('SUCCESS');
  });

  it('opens and closes modules later; the session sees it at its next call', async () => {
    const res = await group('leaderregionmodules', { rid, modules: ['parking', 'fees', 'steward', 'parking'] });
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.modules).toEqual(['fees', 'parking', 'steward']);
    expect(res.return_msg).toBe('已保存，开通模块：收费管理、停车管理、管家服务');
    expect((await s.call('carlist', {}, token)).return_code).toBe('SUCCESS');
    ok(await group('leaderregionmodules', { rid, modules: [] }));
    expect((await s.call('noticelist', {}, token)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('userinfo', {}, token)).data.modules_off).toEqual([...COMMUNITY_MODULE_KEYS]);
    ok(await group('leaderregionmodules', { rid, modules: ['fees', 'steward'] }));
  });

  it('refuses bad payloads, other groups’ communities and community accounts, changing nothing', async () => {
    expect((await group('leaderregionmodules', { rid, modules: ['casino'] })).return_msg).toContain('功能模块取值不正确');
    expect((await group('leaderregionmodules', { rid: 999999, modules: [] })).return_msg).toBe('小区不存在');
    expect((await s.call('leaderregionmodules', { rid, modules: [] }, admin)).return_code).not.toBe('SUCCESS');
    // a taken username leaves no community behind
    const taken = await newRegion('重名账号小区', { admin: { username: 'admin', name: '重复' } });
    expect(taken.return_msg).toBe('账号已存在');
    expect((await group('leaderregionlist', { title: '重名账号小区' })).data.total).toBe(0);
    const badAdmin = await newRegion('坏账号小区', { admin: { username: 'a b', name: '王' } });
    expect(badAdmin.return_code).toBe('FAIL');
    expect(badAdmin.return_msg).toContain('账号为4到30位字母、数字或下划线');
    // without an administrator and modules: every module open, no account made
    const plain = await newRegion('无管理员小区');
    expect(plain.data.admin).toBeNull();
    const row = (await group('leaderregionlist', { title: '无管理员小区' })).data.items[0];
    expect(row.modules).toEqual([...COMMUNITY_MODULE_KEYS]);
    expect((await s.call('carlist', {}, admin2)).return_code).toBe('SUCCESS');
  });
});

describe('the head office enters one of its communities', () => {
  it('trades a one-time code for the community’s administrator session, audited under the leader’s name', async () => {
    const res = await group('leaderregionenter', { rid: 2, redirect: '/fees/feebilllist' });
    ok(res);
    expect(res.return_msg).toBe('正在进入翠湖苑');
    expect(res.data.url).toBe(`/auth-redirect?code=${res.data.code}&redirect=%2Ffees%2Ffeebilllist`);
    const entered = await s.call('authcodelogin', { code: res.data.code }, undefined);
    ok(entered);
    expect(entered.data).toMatchObject({ side: 'community', rid: 2, username: 'leader' });
    const token = entered.data.token as string;
    expect((await s.call('userinfo', {}, token)).data.roles).toEqual(['admin']);
    expect((await s.call('regioninfo', {}, token)).data.title).toBe('翠湖苑');
    // an administrator's write, on the operation log as the leader's
    ok(await s.call('regionedit', { title: '翠湖苑', address: '集团代为修改' }, token));
    const log = await s.call('operationloglist', { action: 'regionedit', operator: 'leader' }, admin2);
    expect(log.data.items.length).toBeGreaterThan(0);
    // the group side stays closed to it, and the code was for one use
    expect((await s.call('leaderregionlist', {}, token, 'group')).return_code).toBe('NO_PERMISSION');
    expect((await s.call('authcodelogin', { code: res.data.code }, undefined)).return_msg).toBe('链接无效或已过期，请从控制台重新打开');
    // 返回集团: the entered session says so, and trades a code for the group side without a password
    expect((await s.call('sysuserinfo', {}, token)).data.items.entered).toBe('Y');
    const back = await s.call('leaderreturn', {}, token);
    ok(back);
    expect(back.data.url).toBe(`/auth-redirect?code=${back.data.code}&redirect=%2Fleader%2Fregions%2Findex`);
    const returned = await s.call('authcodelogin', { code: back.data.code }, undefined);
    ok(returned);
    expect(returned.data).toMatchObject({ side: 'group', rid: null, username: 'leader' });
    ok(await s.call('leaderregionlist', {}, returned.data.token as string, 'group'));
    expect((await s.call('sysuserinfo', {}, returned.data.token as string, 'group')).data.items.entered).toBe('N');
  });

  it('returns to the group only from an entered session', async () => {
    const res = await s.call('leaderreturn', {}, admin);
    expect(res).toMatchObject({ return_code: 'FAIL', return_msg: '当前会话不是从集团进入的小区，无法返回集团' });
    expect((await s.call('leaderreturn', {}, await s.login('merchant'))).return_code).toBe('NO_PERMISSION');
    expect((await s.call('sysuserinfo', {}, admin)).data.items.entered).toBe('N');
    expect((await s.call('leaderreturn', {}, leader, 'group')).return_code).not.toBe('SUCCESS');
  });

  it('refuses another group’s community, a community account, and an address outside the console', async () => {
    expect((await group('leaderregionenter', { rid: 999999 })).return_msg).toBe('小区不存在');
    expect((await s.call('leaderregionenter', { rid: 1 }, admin)).return_code).not.toBe('SUCCESS');
    const outside = await group('leaderregionenter', { rid: 1, redirect: '//evil.example/x' });
    expect(outside.data.url).toMatch(/redirect=%2Fdashboard$/);
  });
});

function ok(res: { return_code: string; return_msg: string }) {
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
}
