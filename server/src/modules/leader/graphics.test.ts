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
  title: '集团测试文章',
  category: 'news',
  cover: IMG,
  summary: '测试摘要',
  body: '<p onclick="x()">正文<script>alert(1)</script></p>',
  link: '',
  region_scope: 'some',
  rids: [2, 2],
  online_date: '',
  pinned: 'N',
  sort: 0,
};

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin, admin2] = await s.logins('leader', 'admin', 'admin2');
  outsider = await otherGroupLeader(s);
});
afterAll(() => s?.close());

const listAll = async (filters: Record<string, unknown> = {}, token = leader) =>
  ok(await group('leadergraphiclist', { limit: 200, ...filters }, token)) as { total: number; items: Array<Record<string, any>> };
const titles = async () => Object.fromEntries((await listAll()).items.map((b) => [b.title, b.id as number]));
const rowCount = async () =>
  Number(
    (
      await s.database.db
        .selectFrom('group_graphics')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('集团图文', () => {
  it("lists the demo group's articles, pinned first, with their status and communities", async () => {
    const { items } = await listAll();
    expect(items[0]).toMatchObject({ title: '幸福里物业2026年度服务承诺', pinned: 'Y', pinned_ch: '置顶' });
    const byTitle = Object.fromEntries(items.map((b) => [b.title, b]));
    expect(byTitle['幸福里物业2026年度服务承诺']).toMatchObject({
      status: 'P',
      status_ch: '已发布',
      category_ch: '物业公告',
      regions_text: '全部小区',
      views: 128,
      publisher: expect.any(String),
    });
    expect(byTitle['幸福里物业2026年度服务承诺'].publish_time).toMatch(/^\d{4}-\d{2}-\d{2} 09:30:00$/);
    expect(byTitle['阳光花园地下车库照明改造完工']).toMatchObject({ region_scope: 'some', rids: [1], regions_text: '阳光花园' });
    expect(byTitle['2027年春节社区活动预告（草稿）']).toMatchObject({ status: 'D', status_ch: '草稿', publish_time: '', views: 0 });
    expect(byTitle['冬季用电用气安全指南']).toMatchObject({ link: 'https://www.example.com/winter-safety', body: '' });
    expect(byTitle['幸福里物业2026年度服务承诺'].cover).toMatch(/^\/files\/\d+\/[0-9a-f]{32}\.png$/);
    expect(items[0]).not.toHaveProperty('group_id');
  });

  it('adds (sanitised), filters, edits, publishes, takes off and deletes an article', async () => {
    const { id } = ok(await group('leadergraphicadd', sample));
    const row = ok(await group('leadergraphicinfo', { id }));
    expect(row).toMatchObject({ rids: [2], regions_text: '翠湖苑', status: 'D', views: 0, category_ch: '集团资讯', online_date: '' });
    expect(row.body).toContain('正文');
    expect(row.body).not.toMatch(/script|onclick/);
    const has = async (f: Record<string, unknown>) => (await listAll(f)).items.some((b) => b.id === id);
    expect(await has({ keyword: '测试摘' })).toBe(true);
    expect(await has({ keyword: '测试文章' })).toBe(true);
    expect(await has({ keyword: '没有的词' })).toBe(false);
    expect(await has({ category: 'news' })).toBe(true);
    expect(await has({ category: 'policy' })).toBe(false);
    expect(await has({ status: 'D' })).toBe(true);
    expect(await has({ status: 'P' })).toBe(false);
    expect(await has({ region_id: 2 })).toBe(true);
    expect(await has({ region_id: 1 })).toBe(false);
    expect((await listAll({ region_id: 2 })).items.map((b) => b.title)).toContain('幸福里物业2026年度服务承诺');

    const published = await group('leadergraphicpublish', { id, action: 'publish' });
    expect(published.return_msg).toBe('发布成功');
    expect(ok(published)).toEqual({ id, status: 'P' });
    expect(ok(await group('leadergraphicinfo', { id }))).toMatchObject({ status: 'P', publisher: expect.any(String) });
    refused(await group('leadergraphicpublish', { id, action: 'publish' }), '该文章已发布');
    refused(await group('leadergraphicdel', { id }), '已发布的文章请先下线，再删除');

    await s.database.db.updateTable('group_graphics').set({ views: 5 }).where('id', '=', id).execute();
    ok(await group('leadergraphicedit', { ...sample, id, title: '改过的文章', region_scope: 'all', rids: [2], pinned: 'Y', sort: 3 }));
    expect(ok(await group('leadergraphicinfo', { id }))).toMatchObject({
      title: '改过的文章',
      status: 'P',
      rids: [],
      regions_text: '全部小区',
      pinned: 'Y',
      sort: 3,
      views: 5,
    });

    const off = await group('leadergraphicpublish', { id, action: 'withdraw' });
    expect(off.return_msg).toBe('已下线');
    expect(ok(await group('leadergraphicinfo', { id }))).toMatchObject({ status: 'X', status_ch: '已下线' });
    refused(await group('leadergraphicpublish', { id, action: 'withdraw' }), '只能下线已发布的文章');

    // 定时发布: published before its day, it waits
    ok(await group('leadergraphicedit', { ...sample, id, online_date: addDays(day, 3) }));
    const later = await group('leadergraphicpublish', { id, action: 'publish' });
    expect(later.return_msg).toBe(`已发布，将于${addDays(day, 3)}起展示`);
    expect(ok(await group('leadergraphicinfo', { id }))).toMatchObject({ status: 'S', status_ch: '待发布' });
    ok(await group('leadergraphicpublish', { id, action: 'withdraw' }));

    const del = await group('leadergraphicdel', { id });
    expect(del.return_msg).toBe('删除成功');
    refused(await group('leadergraphicinfo', { id }), '文章不存在');
  });

  it('refuses bad payloads with their reasons, and writes nothing', async () => {
    const before = await rowCount();
    refused(await group('leadergraphicadd', { ...sample, title: '' }), '请输入标题');
    refused(await group('leadergraphicadd', { ...sample, title: '长'.repeat(65) }), '标题不能超过64个字');
    refused(await group('leadergraphicadd', { ...sample, summary: '长'.repeat(121) }), /120/);
    refused(await group('leadergraphicadd', { ...sample, category: 'other' }), '请选择分类');
    refused(await group('leadergraphicadd', { ...sample, cover: 'https://evil.example/x.png' }), '图片地址无效');
    refused(await group('leadergraphicadd', { ...sample, rids: [] }), '请选择发布的小区');
    refused(await group('leadergraphicadd', { ...sample, body: '' }), '请填写正文，或填写外链');
    refused(await group('leadergraphicadd', { ...sample, body: '<script>alert(1)</script>' }), '请填写正文，或填写外链');
    refused(await group('leadergraphicadd', { ...sample, link: 'http://www.example.com' }), '外链须以 https:// 开头');
    refused(await group('leadergraphicadd', { ...sample, online_date: '2026-02-30' }), '日期不存在');
    refused(await group('leadergraphicadd', { ...sample, sort: -1 }), /排序|不能小于|0/);
    refused(await group('leadergraphicpublish', { id: 1, action: 'nope' }), '操作取值不正确');
    expect(await rowCount()).toBe(before);
    // a link instead of a body is enough
    const { id } = ok(await group('leadergraphicadd', { ...sample, body: '', link: 'https://www.example.com/a' }));
    ok(await group('leadergraphicdel', { id }));
  });

  it("refuses another group's communities, and keeps the article from another group's head office", async () => {
    const { id: otherRegion } = await s.database.db
      .insertInto('regions')
      .values({
        title: '别家小区',
        end_time: '2099-12-31',
        group_id: (await s.database.db.insertInto('groups').values({ title: '第三家物业' }).returning('id').executeTakeFirstOrThrow()).id,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await rowCount();
    refused(await group('leadergraphicadd', { ...sample, rids: [1, otherRegion] }), `所选小区不存在或不属于本集团（ID：${otherRegion}）`);
    refused(await group('leadergraphicadd', { ...sample, rids: [1], title: '别家' }, outsider), '所选小区不存在或不属于本集团（ID：1）');
    expect(await rowCount()).toBe(before);
    const { id } = ok(await group('leadergraphicadd', sample));
    expect((await listAll({}, outsider)).items.some((b) => b.id === id)).toBe(false);
    refused(await group('leadergraphicinfo', { id }, outsider), '文章不存在');
    refused(await group('leadergraphicedit', { ...sample, id, region_scope: 'all' }, outsider), '文章不存在');
    refused(await group('leadergraphicpublish', { id, action: 'publish' }, outsider), '文章不存在');
    refused(await group('leadergraphicdel', { id }, outsider), '文章不存在');
    expect(ok(await group('leadergraphicinfo', { id }))).toMatchObject({ title: sample.title, status: 'D' });
    ok(await group('leadergraphicdel', { id }));
  });

  it("is the head office's: a community's account, even its admin, is refused", async () => {
    const before = (await listAll()).total;
    expect((await group('leadergraphiclist', {}, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect((await group('leadergraphicadd', sample, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect((await group('leadergraphicpublish', { id: 1, action: 'withdraw' }, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect((await group('leadergraphicdel', { id: 1 }, admin)).return_code).toBe(RC.NO_PERMISSION);
    // the group's methods do not exist on the community side
    expect((await s.call('leadergraphicadd', sample, admin)).return_code).toBe(RC.FAIL);
    expect((await s.call('leadergraphiclist', {}, admin)).return_code).toBe(RC.FAIL);
    expect((await listAll()).total).toBe(before);
  });
});

describe('集团图文 in the owner app', () => {
  type News = { id: number; source: string; title: string };
  const groupNews = (home: { news: News[] }) => home.news.filter((n) => n.source === 'group').map((n) => n.title);

  it("shows the group's published articles for the community beside its own, pinned first", async () => {
    const home = ok(await s.call('apphome', {}, admin));
    expect(home.news[0]).toMatchObject({ source: 'group', title: '幸福里物业2026年度服务承诺', kind: 'article', kind_ch: '物业公告' });
    expect(groupNews(home)).toEqual(['幸福里物业2026年度服务承诺', '冬季用电用气安全指南', '阳光花园地下车库照明改造完工']);
    // 翠湖苑 is not among the garage article's communities; the draft shows nowhere
    const other = ok(await s.call('apphome', {}, admin2));
    expect(groupNews(other)).toEqual(['幸福里物业2026年度服务承诺', '冬季用电用气安全指南']);
    // taken off: gone
    const t = await titles();
    ok(await group('leadergraphicpublish', { id: t['冬季用电用气安全指南'], action: 'withdraw' }));
    expect(groupNews(ok(await s.call('apphome', {}, admin)))).not.toContain('冬季用电用气安全指南');
    ok(await group('leadergraphicpublish', { id: t['冬季用电用气安全指南'], action: 'publish' }));
    // another group's article for all its communities is not this one's
    const { id: theirs } = ok(await group('leadergraphicadd', { ...sample, region_scope: 'all', title: '别家的文章' }, outsider));
    ok(await group('leadergraphicpublish', { id: theirs, action: 'publish' }, outsider));
    expect(groupNews(ok(await s.call('apphome', {}, admin)))).not.toContain('别家的文章');
  });

  it("lists them in the DIY pages' article block preview of the community", async () => {
    const { groupArticlesFor } = await import('./graphics.js');
    const sunshine = (await groupArticlesFor(s.database.db, 1, day, 10)).map((a) => a.title);
    expect(sunshine).toEqual(['幸福里物业2026年度服务承诺', '冬季用电用气安全指南', '阳光花园地下车库照明改造完工']);
    const cuihu = (await groupArticlesFor(s.database.db, 2, day, 10)).map((a) => a.title);
    expect(cuihu).not.toContain('阳光花园地下车库照明改造完工');
  });

  it('counts an owner’s read of an article the community shows, and refuses any other', async () => {
    const t = await titles();
    const promise = t['幸福里物业2026年度服务承诺']!;
    const read = ok(await s.call('groupgraphicview', { id: promise }, admin));
    expect(read).toMatchObject({ id: promise, views: 129, title: '幸福里物业2026年度服务承诺' });
    ok(await s.call('groupgraphicview', { id: promise }, admin2));
    expect(ok(await group('leadergraphicinfo', { id: promise })).views).toBe(130);
    ok(await s.call('groupgraphicview', { id: t['阳光花园地下车库照明改造完工'] }, admin));
    refused(await s.call('groupgraphicview', { id: t['阳光花园地下车库照明改造完工'] }, admin2), '该文章不存在或不在本小区展示');
    refused(await s.call('groupgraphicview', { id: t['2027年春节社区活动预告（草稿）'] }, admin), '该文章不存在或不在本小区展示');
    refused(await s.call('groupgraphicview', { id: 2_000_000_000 }, admin), '该文章不存在或不在本小区展示');
    expect((await s.call('groupgraphicview', { id: promise }, await s.login('cashier'))).return_code).toBe(RC.NO_PERMISSION);
    expect((await group('groupgraphicview', { id: promise })).return_code).toBe(RC.FAIL);
  });
});
