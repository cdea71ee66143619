import { RC, link } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { describeResource, otherGroupLeader } from '../../test/describeResource.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

type Link = { id: number; title: string; url: string; kind: string; target: string; scope: string };
const titles = (items: Link[]) => items.map((i) => i.title);

describeResource(link, {
  server: () => s,
  sample: {
    title: '测试链接',
    kind: 'external',
    url: 'https://example.org/a',
    icon: 'BookOutlined',
    target: 'blank',
    roles: ['fees'],
    sort: 5,
    status: 'Y',
  },
  edit: { title: '测试链接二', kind: 'internal', url: '/setup/backlog', target: 'self', roles: [] },
  filters: { title: '测试链接', kind: 'external', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['title'],
});

describe('common links: the rules', () => {
  it('refuses an external address that fails the external-link test, and an internal one that is no page path', async () => {
    const admin = await s.login('admin');
    const bad = [
      { title: 'x1', kind: 'external', url: 'javascript:alert(1)' },
      { title: 'x2', kind: 'external', url: 'www.example.com' },
      { title: 'x3', kind: 'external', url: '/setup/backlog' },
      { title: 'x4', kind: 'internal', url: 'https://example.org' },
      { title: 'x5', kind: 'internal', url: '/a b' },
      { title: 'x6', kind: 'external', url: 'https://example.org', roles: ['no_such_code'] },
      { title: '', kind: 'external', url: 'https://example.org' },
      { title: 'x'.repeat(21), kind: 'external', url: 'https://example.org' },
      { title: 'x7', kind: 'external', url: 'https://example.org', icon: 'EvilOutlined' },
      { title: 'x8', kind: 'external', url: 'https://example.org', target: '_top' },
    ];
    const before = (await s.call('linklist', { limit: 200 }, admin)).data.total;
    for (const payload of bad) {
      const res = await s.call('linkadd', payload, admin);
      expect(res.return_code, JSON.stringify(payload)).toBe(RC.FAIL);
    }
    expect((await s.call('linkadd', bad[0]!, admin)).return_msg).toContain('外部链接须以 http://、https://、mailto: 或 tel: 开头');
    expect((await s.call('linklist', { limit: 200 }, admin)).data.total).toBe(before);
    for (const url of ['mailto:service@example.com', 'tel:400-800-1234', 'http://example.org']) {
      expect((await s.call('linkadd', { title: url.slice(0, 10), kind: 'external', url }, admin)).return_code, url).toBe(RC.SUCCESS);
    }
  });

  it('answers the group links first, then the community own, enabled ones only, by the caller codes', async () => {
    const [admin, cashier, steward, admin2] = await s.logins('admin', 'cashier', 'steward', 'admin2');
    const mine = await s.call('get_common_links', {}, admin);
    expect(mine.data.website_url).toBe('https://www.example.com');
    const items: Link[] = mine.data.items;
    // the demo: the group's two, then the community's (收银台 only for the cashier's code; admin sees all)
    expect(titles(items).slice(0, 2)).toEqual(['集团门户', '客服热线']);
    expect(items.slice(0, 2).every((i) => i.scope === 'group')).toBe(true);
    expect(titles(items)).toContain('收银台');
    expect(items.find((i) => i.title === '收银台')).toMatchObject({
      kind: 'internal',
      url: '/desktop/cashier',
      target: 'self',
      scope: 'community',
    });
    expect(titles((await s.call('get_common_links', {}, cashier)).data.items)).toContain('收银台');
    expect(titles((await s.call('get_common_links', {}, steward)).data.items)).not.toContain('收银台');
    // the other community inherits the group's and has none of the first one's own
    expect(titles((await s.call('get_common_links', {}, admin2)).data.items)).toEqual(['集团门户', '客服热线']);

    // a link turned off is no longer answered
    const row = (await s.call('linklist', { title: '收银台' }, admin)).data.items[0];
    expect((await s.call('linkedit', { ...row, status: 'N' }, admin)).return_code).toBe(RC.SUCCESS);
    expect(titles((await s.call('get_common_links', {}, cashier)).data.items)).not.toContain('收银台');
  });
});

describe('group links: kept by the head office, read by the communities', () => {
  it('the head office adds one on the group side and every community answers it', async () => {
    const [leader, admin, admin2] = await Promise.all([s.login('leader'), s.login('admin'), s.login('admin2')]);
    const added = await s.call(
      'grouplinkadd',
      { title: '集团公告', kind: 'external', url: 'https://example.org/news', sort: 9 },
      leader,
      'group',
    );
    expect(added.return_code, added.return_msg).toBe(RC.SUCCESS);
    for (const token of [admin, admin2]) expect(titles((await s.call('get_common_links', {}, token)).data.items)).toContain('集团公告');
    const listed = await s.call('grouplinklist', { title: '集团公告' }, leader, 'group');
    expect(listed.data.items[0]).toMatchObject({ title: '集团公告', kind_ch: '外部链接', target_ch: '新窗口', status_ch: '启用' });
    // a community reads them, read only: even its admin is refused a write
    const row = (await s.call('grouplinklist', { title: '集团公告' }, admin)).data.items[0];
    expect(row.title).toBe('集团公告');
    expect((await s.call('grouplinkedit', { ...row, title: '改名' }, admin)).return_msg).toBe('集团常用链接由集团总部维护，小区只能查看');
    expect((await s.call('grouplinkdel', { id: row.id }, admin)).return_msg).toBe('集团常用链接由集团总部维护，小区只能查看');
    expect((await s.call('grouplinkadd', { title: '小区加的', kind: 'external', url: 'https://example.org' }, admin)).return_code).toBe(
      RC.FAIL,
    );
    expect((await s.call('grouplinklist', { title: '小区加的' }, leader, 'group')).data.total).toBe(0);
    // a cashier reads no settings
    expect((await s.call('grouplinklist', {}, await s.login('cashier'))).return_code).toBe(RC.NO_PERMISSION);
    // another company's head office neither sees nor changes it
    const other = await otherGroupLeader(s);
    expect((await s.call('grouplinklist', { limit: 200 }, other, 'group')).data.items).toEqual([]);
    expect((await s.call('grouplinkedit', { ...row, title: '别家改' }, other, 'group')).return_msg).toBe('集团常用链接不存在');
    expect((await s.call('grouplinkdel', { id: row.id }, other, 'group')).return_msg).toBe('集团常用链接不存在');
    // the head office edits and deletes it
    expect((await s.call('grouplinkedit', { ...row, status: 'N' }, leader, 'group')).return_code).toBe(RC.SUCCESS);
    expect(titles((await s.call('get_common_links', {}, admin2)).data.items)).not.toContain('集团公告');
    expect((await s.call('grouplinkdel', { id: row.id }, leader, 'group')).return_code).toBe(RC.SUCCESS);
    expect((await s.call('grouplinklist', { title: '集团公告' }, leader, 'group')).data.total).toBe(0);
  });
});
