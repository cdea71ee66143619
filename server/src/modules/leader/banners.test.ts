import { RC, addDays } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../../test/answers.js';
import { otherGroupLeader } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';

let s: TestServer;
let leader: string;
let admin: string;
let admin2: string;
let outsider: string;
const IMG = '/files/1/0123456789abcdef0123456789abcdef.png';
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
const day = today();
const sample = {
  title: '集团测试横幅',
  image: IMG,
  position: 'home',
  link_type: 'h5',
  target: 'https://www.example.com/a',
  region_scope: 'some',
  rids: [2, 2],
  start_date: day,
  end_date: addDays(day, 10),
  sort: 0,
  enabled: 'Y',
};

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin, admin2] = await s.logins('leader', 'admin', 'admin2');
  outsider = await otherGroupLeader(s);
});
afterAll(() => s?.close());

const listAll = async (filters: Record<string, unknown> = {}, token = leader) =>
  ok(await group('bannerlist', { limit: 200, ...filters }, token)) as { total: number; items: Array<Record<string, any>> };

describe('集团轮播图', () => {
  it("lists the demo group's banners with their computed status and communities", async () => {
    const { items } = await listAll();
    const byTitle = Object.fromEntries(items.map((b) => [b.title, b]));
    expect(byTitle['幸福里物业服务月：线上缴费享好礼']).toMatchObject({
      status: 'P',
      status_ch: '展示中',
      position_ch: '首页顶部',
      regions_text: '集团全部小区',
      clicks: 36,
    });
    expect(byTitle['阳光花园业主开放日']).toMatchObject({ region_scope: 'some', rids: [1], regions_text: '阳光花园' });
    expect(byTitle['智慧停车即将上线']).toMatchObject({ status: 'S', status_ch: '未开始', position: 'service' });
    expect(byTitle['幸福里物业服务月：线上缴费享好礼'].image).toMatch(/^\/files\/\d+\/[0-9a-f]{32}\.png$/);
  });

  it('adds, filters, edits and deletes a banner; clicks are not the form’s', async () => {
    const { id } = ok(await group('banneradd', sample));
    const row = ok(await group('bannerinfo', { id }));
    expect(row).toMatchObject({ rids: [2], regions_text: '翠湖苑', status: 'P', clicks: 0, link_type_ch: 'H5链接' });
    expect(row).not.toHaveProperty('group_id');
    const has = async (f: Record<string, unknown>) => (await listAll(f)).items.some((b) => b.id === id);
    expect(await has({ title: '集团测试' })).toBe(true);
    expect(await has({ position: 'home' })).toBe(true);
    expect(await has({ position: 'mine' })).toBe(false);
    expect(await has({ status: 'P' })).toBe(true);
    expect(await has({ status: 'S' })).toBe(false);
    expect(await has({ region_id: 2 })).toBe(true);
    expect(await has({ region_id: 1 })).toBe(false);
    // a banner for the whole group shows under every community
    expect((await listAll({ region_id: 1 })).items.map((b) => b.title)).toContain('幸福里物业服务月：线上缴费享好礼');

    await s.database.db.updateTable('group_banners').set({ clicks: 5 }).where('id', '=', id).execute();
    ok(await group('banneredit', { ...sample, id, title: '改过的横幅', enabled: 'N', region_scope: 'all', rids: [2], link_type: 'none' }));
    const edited = ok(await group('bannerinfo', { id }));
    expect(edited).toMatchObject({ title: '改过的横幅', status: 'N', status_ch: '停用', rids: [], target: '', clicks: 5 });
    expect(await has({ status: 'N' })).toBe(true);

    const del = await group('bannerdel', { id });
    expect(del.return_msg).toBe('删除成功');
    refused(await group('bannerinfo', { id }), '轮播图不存在');
  });

  it('refuses bad payloads with their reasons', async () => {
    refused(await group('banneradd', { ...sample, image: '' }), '请上传图片');
    refused(await group('banneradd', { ...sample, image: 'https://evil.example/x.png' }), '图片地址无效');
    refused(await group('banneradd', { ...sample, end_date: addDays(day, -1) }), '结束日期不能早于开始日期');
    refused(await group('banneradd', { ...sample, start_date: '2026-02-30' }), '日期不存在');
    refused(await group('banneradd', { ...sample, position: 'launch' }), '位置取值不正确');
    refused(await group('banneradd', { ...sample, link_type: 'article', target: '1' }), '跳转类型取值不正确');
    refused(await group('banneradd', { ...sample, target: 'http://www.example.com' }), /跳转目标不正确|https/);
    refused(await group('banneradd', { ...sample, link_type: 'service', target: 'nope' }), /跳转目标不正确|内置功能/);
    refused(await group('banneradd', { ...sample, rids: [] }), '请选择适用的小区');
    refused(await group('banneradd', { ...sample, title: '' }), '请输入标题');
  });

  it("refuses another group's communities, and keeps the banner from another group's head office", async () => {
    const { id: otherRegion } = await s.database.db
      .insertInto('regions')
      .values({
        title: '别家小区',
        end_time: '2099-12-31',
        group_id: (await s.database.db.insertInto('groups').values({ title: '第三家物业' }).returning('id').executeTakeFirstOrThrow()).id,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    refused(await group('banneradd', { ...sample, rids: [1, otherRegion] }), `所选小区不存在或不属于本集团（ID：${otherRegion}）`);
    refused(await group('banneradd', { ...sample, rids: [1], title: '别家' }, outsider), '所选小区不存在或不属于本集团（ID：1）');
    const { id } = ok(await group('banneradd', sample));
    expect((await listAll({}, outsider)).items.some((b) => b.id === id)).toBe(false);
    refused(await group('bannerinfo', { id }, outsider), '轮播图不存在');
    refused(await group('banneredit', { ...sample, id, region_scope: 'all' }, outsider), '轮播图不存在');
    refused(await group('bannerdel', { id }, outsider), '轮播图不存在');
    expect(ok(await group('bannerinfo', { id })).title).toBe(sample.title);
    ok(await group('bannerdel', { id }));
  });

  it("is the head office's: a community's account, even its admin, is refused", async () => {
    const before = (await listAll()).total;
    expect((await group('bannerlist', {}, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect((await group('banneradd', sample, admin)).return_code).toBe(RC.NO_PERMISSION);
    // the group's methods do not exist on the community side
    expect((await s.call('banneradd', sample, admin)).return_code).toBe(RC.FAIL);
    expect((await s.call('bannerlist', {}, admin)).return_code).toBe(RC.FAIL);
    expect((await group('bannerregion_small_list', {}, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect((await listAll()).total).toBe(before);
    const regions = ok(await group('bannerregion_small_list', {})).items.map((r: { title: string }) => r.title);
    expect(regions).toEqual(expect.arrayContaining(['阳光花园', '翠湖苑']));
    expect(ok(await group('bannerregion_small_list', {}, outsider)).items).toEqual([]);
  });
});

describe('集团轮播图 in the owner app', () => {
  const ids = async () => Object.fromEntries((await listAll()).items.map((b) => [b.title, b.id as number]));

  it("shows the group's home banners for the community first, before its own", async () => {
    const t = await ids();
    const home = ok(await s.call('apphome', {}, admin));
    const groupFirst = home.banners.filter((b: { source: string }) => b.source === 'group').map((b: { id: number }) => b.id);
    expect(groupFirst).toEqual([t['幸福里物业服务月：线上缴费享好礼'], t['阳光花园业主开放日']]);
    const firstOwn = home.banners.findIndex((b: { source: string }) => b.source === 'community');
    expect(firstOwn === -1 || firstOwn >= groupFirst.length).toBe(true);
    expect(home.banners[0]).toMatchObject({ source: 'group', link_type: 'service', link: 'payment' });
    // 翠湖苑 is not among the open day's communities; the service page's banner is not the home's
    const other = ok(await s.call('apphome', {}, admin2));
    expect(other.banners.filter((b: { source: string }) => b.source === 'group').map((b: { id: number }) => b.id)).toEqual([
      t['幸福里物业服务月：线上缴费享好礼'],
    ]);
    // after the open day's window, only the month's campaign
    const later = ok(await s.call('apphome', { date: addDays(day, 20) }, admin));
    expect(later.banners.filter((b: { source: string }) => b.source === 'group').map((b: { id: number }) => b.id)).toEqual([
      t['幸福里物业服务月：线上缴费享好礼'],
    ]);
    // switched off: gone
    const { id } = ok(await group('banneradd', { ...sample, title: '停用的横幅', region_scope: 'all', enabled: 'N' }));
    expect(ok(await s.call('apphome', {}, admin)).banners.map((b: { id: number; source: string }) => `${b.source}${b.id}`)).not.toContain(
      `group${id}`,
    );
    ok(await group('bannerdel', { id }));
  });

  it('counts a tap on a banner the community shows, and refuses any other', async () => {
    const t = await ids();
    const month = t['幸福里物业服务月：线上缴费享好礼']!;
    const tapped = ok(await s.call('bannerclick', { id: month }, admin));
    expect(tapped).toMatchObject({ id: month, clicks: 37, link_type: 'service', target: 'payment' });
    ok(await s.call('bannerclick', { id: month }, admin2));
    expect(ok(await group('bannerinfo', { id: month })).clicks).toBe(38);
    // the open day is 阳光花园's alone; the parking banner has not started
    ok(await s.call('bannerclick', { id: t['阳光花园业主开放日'] }, admin));
    refused(await s.call('bannerclick', { id: t['阳光花园业主开放日'] }, admin2), '该轮播图不存在或不在本小区展示');
    refused(await s.call('bannerclick', { id: t['智慧停车即将上线'] }, admin), '该轮播图不存在或不在本小区展示');
    refused(await s.call('bannerclick', { id: 2_000_000_000 }, admin), '该轮播图不存在或不在本小区展示');
    // another group's banner
    const { id: theirs } = ok(await group('banneradd', { ...sample, region_scope: 'all', title: '别家的横幅' }, outsider));
    refused(await s.call('bannerclick', { id: theirs }, admin), '该轮播图不存在或不在本小区展示');
    expect(ok(await group('bannerinfo', { id: theirs }, outsider)).clicks).toBe(0);
    // the owner app's gateway: not a cashier's
    expect((await s.call('bannerclick', { id: month }, await s.login('cashier'))).return_code).toBe(RC.NO_PERMISSION);
    expect((await group('bannerclick', { id: month })).return_code).toBe(RC.FAIL);
  });
});
