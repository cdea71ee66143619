import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let leader: string;
let admin: string;
let noFlag: string;
let outsider: string;
let otherRid: number;
let image: string;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};

async function withFlags(username: string, permissions: string[], groupId = 1) {
  const id = await s.addAccount(username, { roles: ['leader_admin'], sysType: 'leader', groupId, regions: [] });
  await s.database.db.updateTable('accounts').set({ permissions }).where('id', '=', id).execute();
  return s.login(username);
}

const grid = (services: string[]) => ({ type: 'grid', columns: 4, items: services.map((service) => ({ service })) });
const banner = () => ({
  type: 'banner',
  slides: [
    { image, link_type: 'service', target: 'parking' },
    { image, link_type: 'none', target: '' },
  ],
});

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin] = [await s.login('leader'), await s.login('admin')];
  noFlag = await withFlags('diy_no_flag', []);
  const other = await s.database.db.insertInto('groups').values({ title: '另一家物业' }).returning('id').executeTakeFirstOrThrow();
  outsider = await withFlags('diy_leader2', ['is_diyhome_auth'], other.id);
  const r = await s.database.db
    .insertInto('regions')
    .values({ group_id: other.id, title: '别家小区', sub_title: '别家小区', end_time: new Date(Date.now() + 365 * 864e5) } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  otherRid = r.id;
  const img = await s.database.db
    .selectFrom('uploaded_images')
    .select(['id', 'key'])
    .where('name', '=', 'diy-banner-1.png')
    .executeTakeFirstOrThrow();
  image = `/files/${img.id}/${img.key}.png`;
});
afterAll(() => s?.close());

describe('setdiy: the demo', () => {
  it('the demo leader holds is_diyhome_auth; the home template is published (1) with a draft (2)', async () => {
    const list = ok(await group('diypagelist', { kind: 'homeDIY', rid: 'template' }));
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      kind: 'homeDIY',
      rid: null,
      scope_ch: '集团模板',
      status: 'M',
      status_ch: '有未发布修改',
      version: 1,
      draft_version: 2,
      updated_by: '王总',
    });
    expect(list.regions.map((r: { rid: number }) => r.rid)).toEqual(expect.arrayContaining([1, 2]));
    const info = ok(await group('diypageinfo', { kind: 'homeDIY', rid: null }));
    expect(info.published.blocks.map((b: { type: string }) => b.type)).toEqual(['banner', 'grid', 'notices', 'articles']);
    expect(info.draft.version).toBe(2);
    expect(info.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [2, 'D'],
      [1, 'P'],
    ]);
    // the other kinds list as templates not made yet
    const all = ok(await group('diypagelist', { kind: '', rid: '' }));
    expect(all.items.filter((i: { rid: number | null }) => i.rid === null)).toHaveLength(5);
  });
});

describe('setdiy: save, publish, roll back, copy, delete', () => {
  it('numbers versions: a save updates the draft, a publish makes it the published one, the old one goes to the history', async () => {
    const first = await group('diypagesave', { kind: 'serviceDIY', rid: null, blocks: [grid(['repair', 'payment'])] });
    expect(ok(first).version).toBe(1);
    expect(first.return_msg).toBe('草稿已保存（版本1）');
    // the draft is updated in place
    expect(ok(await group('diypagesave', { kind: 'serviceDIY', rid: null, blocks: [grid(['repair'])] })).version).toBe(1);
    expect((await group('diypagelist', { kind: 'serviceDIY', rid: 'template' })).data.items[0]).toMatchObject({
      status: 'N',
      status_ch: '未发布',
    });
    const pub = await group('diypagepublish', { kind: 'serviceDIY', rid: null });
    expect(pub.return_msg).toBe('发布成功（版本1）');
    expect((await group('diypagelist', { kind: 'serviceDIY', rid: 'template' })).data.items[0]).toMatchObject({
      status: 'P',
      version: 1,
      draft_version: 0,
    });
    // nothing to publish now
    expect((await group('diypagepublish', { kind: 'serviceDIY', rid: null })).return_msg).toBe('没有未发布的草稿，请先保存草稿');
    // a new draft after the highest version
    expect(
      ok(await group('diypagesave', { kind: 'serviceDIY', rid: null, blocks: [grid(['repair', 'visitor', 'payment'])] })).version,
    ).toBe(2);
    expect((await group('diypagelist', { kind: 'serviceDIY', rid: 'template' })).data.items[0]).toMatchObject({
      status: 'M',
      version: 1,
      draft_version: 2,
    });
    ok(await group('diypagepublish', { kind: 'serviceDIY', rid: null }));
    const info = ok(await group('diypageinfo', { kind: 'serviceDIY', rid: null }));
    expect(info.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [2, 'P'],
      [1, 'H'],
    ]);
    expect(info.published.blocks[0].items).toHaveLength(3);
    expect(info.published.published_by).toBe('王总');
  });

  it('rolls back: an older version published again as a new version, the draft kept', async () => {
    ok(await group('diypagesave', { kind: 'serviceDIY', rid: null, blocks: [grid(['card'])] }));
    const back = await group('diypagerollback', { kind: 'serviceDIY', rid: null, version: 1 });
    expect(back.return_msg).toBe('已回滚到版本1的内容（新版本4）');
    const info = ok(await group('diypageinfo', { kind: 'serviceDIY', rid: null }));
    expect(info.published).toMatchObject({ version: 4, note: '回滚自版本1' });
    expect(info.published.blocks[0].items.map((i: { service: string }) => i.service)).toEqual(['repair']);
    expect(info.draft.version).toBe(3);
    expect(info.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [4, 'P'],
      [3, 'D'],
      [2, 'H'],
      [1, 'H'],
    ]);
    expect((await group('diypagerollback', { kind: 'serviceDIY', rid: null, version: 3 })).return_msg).toBe('草稿不能回滚，请直接发布');
    expect((await group('diypagerollback', { kind: 'serviceDIY', rid: null, version: 4 })).return_msg).toBe('版本4就是当前发布的版本');
    expect((await group('diypagerollback', { kind: 'serviceDIY', rid: null, version: 9 })).return_msg).toBe('版本9不存在');
  });

  it('a community without its own page uses the template; copy makes its own, delete falls back', async () => {
    const inherited = ok(await group('diypageinfo', { kind: 'homeDIY', rid: 2 }));
    expect(inherited).toMatchObject({ exists: false, inherits: true, scope_ch: '翠湖苑', draft: null, versions: [] });
    expect(inherited.published.version).toBe(1);
    expect(ok(await group('diypagepreview', { kind: 'homeDIY', rid: 2 })).source).toBe('template');

    const copied = await group('diypagecopy', { kind: 'homeDIY', from_rid: null, to_rids: [2], publish: 'Y' });
    expect(copied.return_msg).toBe('已复制到1个小区并发布');
    const own = ok(await group('diypageinfo', { kind: 'homeDIY', rid: 2 }));
    expect(own).toMatchObject({ exists: true, inherits: false, status: 'P' });
    expect(own.published).toMatchObject({ version: 1, note: '复制自集团模板版本1' });
    expect(ok(await group('diypagepreview', { kind: 'homeDIY', rid: 2 })).source).toBe('community');
    expect((await group('diypagelist', { kind: 'homeDIY', rid: 2 })).data.items[0]).toMatchObject({
      rid: 2,
      scope_ch: '翠湖苑',
      status: 'P',
    });

    // a community's page to another, as a draft; the source may not be a target
    ok(await group('diypagesave', { kind: 'homeDIY', rid: 2, blocks: [grid(['repair'])] }));
    expect((await group('diypagecopy', { kind: 'homeDIY', from_rid: 2, to_rids: [2] })).return_msg).toBe('目标小区不能包含来源小区');
    expect((await group('diypagecopy', { kind: 'homeDIY', from_rid: 2, to_rids: [1] })).return_msg).toBe('已复制到1个小区（草稿）');
    const one = ok(await group('diypageinfo', { kind: 'homeDIY', rid: 1 }));
    // the published version of 2 is copied (its draft is not)
    expect(one).toMatchObject({ exists: true, status: 'N' });
    expect(one.draft.blocks.map((b: { type: string }) => b.type)).toEqual(['banner', 'grid', 'notices', 'articles']);
    // a kind with nothing to copy
    expect((await group('diypagecopy', { kind: 'personalDIY', from_rid: null, to_rids: [1] })).return_msg).toBe(
      '集团模板的我的还没有内容，不能复制',
    );

    const del = await group('diypagedel', { kind: 'homeDIY', rid: 2 });
    expect(del.return_msg).toBe('删除成功，翠湖苑恢复使用集团模板');
    expect(ok(await group('diypageinfo', { kind: 'homeDIY', rid: 2 })).inherits).toBe(true);
    expect(await s.database.db.selectFrom('diy_pages').select('id').where('rid', '=', 2).execute()).toEqual([]);
    expect((await group('diypagedel', { kind: 'homeDIY', rid: 2 })).return_msg).toBe('翠湖苑没有自己的首页，已在使用集团模板');
    ok(await group('diypagedel', { kind: 'homeDIY', rid: 1 }));
  });
});

describe('setdiy: the preview', () => {
  it("leaves out what a community's closed modules serve and fills the lists with its latest items", async () => {
    ok(
      await group('diypagesave', {
        kind: 'homeDIY',
        rid: 2,
        blocks: [
          banner(),
          grid(['payment', 'parking', 'activity', 'repair']),
          { type: 'shortcut', image, title: '停车缴费', link_type: 'service', target: 'parking' },
          { type: 'notices', title: '公告', count: 2 },
          { type: 'activities', title: '活动', count: 2 },
          { type: 'articles', title: '资讯', count: 5 },
          { type: 'spacer', height: 10 },
        ],
      }),
    );
    ok(await group('diypagepublish', { kind: 'homeDIY', rid: 2 }));
    await s.database.db
      .updateTable('regions')
      .set({ modules_off: ['parking', 'activities'] })
      .where('id', '=', 2)
      .execute();
    try {
      const p = ok(await group('diypagepreview', { kind: 'homeDIY', rid: 2 }));
      expect(p).toMatchObject({ source: 'community', version: 1, version_status: 'P', scope_ch: '翠湖苑' });
      expect(p.blocks.map((b: { type: string }) => b.type)).toEqual(['banner', 'grid', 'notices', 'articles', 'spacer']);
      expect(p.blocks[0].slides).toHaveLength(1);
      expect(p.blocks[1].items.map((i: { service: string }) => i.service)).toEqual(['payment', 'repair']);
      expect(p.blocks[1].items[0]).toMatchObject({ title: '物业缴费', icon: 'WalletOutlined' });
      expect(p.hidden).toEqual(
        expect.arrayContaining([
          '轮播图第1张：未开通“停车管理”模块',
          '图标导航“停车服务”：未开通“停车管理”模块',
          '图标导航“社区活动”：未开通“社区活动”模块',
          '快捷入口“停车缴费”：未开通“停车管理”模块',
          '社区活动：未开通“社区活动”模块',
        ]),
      );
      // the community's own latest notices and articles, none of another community
      const notices = await s.database.db
        .selectFrom('notices')
        .select(['id'])
        .where('rid', '=', 2)
        .where('status', '=', 'P')
        .where('scope', '=', 'all')
        .execute();
      expect(p.blocks[2].list.length).toBe(Math.min(2, notices.length));
      for (const n of p.blocks[2].list) expect(notices.map((x) => Number(x.id))).toContain(n.id);
      const articles = await s.database.db
        .selectFrom('app_graphics')
        .select('id')
        .where('rid', '=', 2)
        .where('kind', '=', 'article')
        .execute();
      // the community's own, and the group's for it (/mobile/graphiclist), the group's pinned first
      const own = p.blocks[3].list.filter((a: { source?: string }) => a.source !== 'group');
      for (const a of own) expect(articles.map((x) => Number(x.id))).toContain(a.id);
      expect(p.blocks[3].list[0]).toMatchObject({ source: 'group', title: '幸福里物业2026年度服务承诺' });
    } finally {
      await s.database.db.updateTable('regions').set({ modules_off: [] }).where('id', '=', 2).execute();
    }
    // with the modules open everything shows; 阳光花园's lists hold its real items
    const open = ok(await group('diypagepreview', { kind: 'homeDIY', rid: 2 }));
    expect(open.hidden).toEqual([]);
    expect(open.blocks).toHaveLength(7);
    const sunny = ok(await group('diypagepreview', { kind: 'homeDIY', rid: 1 }));
    expect(sunny.source).toBe('template');
    const latest = await s.database.db
      .selectFrom('notices')
      .select('title')
      .where('rid', '=', 1)
      .where('status', '=', 'P')
      .where('scope', '=', 'all')
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', new Date())]))
      .orderBy('pinned', 'desc')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(3)
      .execute();
    expect(sunny.blocks.find((b: { type: string }) => b.type === 'notices').list.map((n: { title: string }) => n.title)).toEqual(
      latest.map((n) => n.title),
    );
  });

  it('previews the draft or a version; the template alone carries no community data', async () => {
    const draft = ok(await group('diypagepreview', { kind: 'homeDIY', rid: null, draft: 'Y' }));
    expect(draft).toMatchObject({ version: 2, version_status: 'D', source: 'template' });
    expect(draft.blocks.map((b: { type: string }) => b.type)).toContain('activities');
    expect(draft.blocks.find((b: { type: string }) => b.type === 'notices').list).toEqual([]);
    expect(draft.warnings[0]).toContain('集团模板的预览不含小区数据');
    expect(ok(await group('diypagepreview', { kind: 'homeDIY', rid: null, version: 1 })).version).toBe(1);
    expect((await group('diypagepreview', { kind: 'homeDIY', rid: null, version: 7 })).return_msg).toBe('版本7不存在');
    expect((await group('diypagepreview', { kind: 'personalDIY', rid: null })).return_msg).toBe('我的还没有内容');
  });
});

describe('setdiy: refusals', () => {
  it('refuses bad blocks with their reasons', async () => {
    const save = (blocks: unknown[], kind = 'homeDIY') => group('diypagesave', { kind, rid: null, blocks });
    const cases: Array<[unknown[], string, string?]> = [
      [[{ type: 'banner', slides: Array.from({ length: 6 }, () => ({ image })) }], '轮播图最多5张'],
      [
        [
          grid([
            'repair',
            'payment',
            'notice',
            'visitor',
            'activity',
            'steward',
            'parking',
            'access',
            'card',
            'meter',
            'charging',
            'complaint',
            'repair',
            'payment',
            'notice',
            'visitor',
          ]),
        ],
        '图标导航最多15个应用',
      ],
      [[grid(['repair', 'repair'])], '图标导航中的应用不能重复'],
      [[grid(['nosuch'])], '应用不存在'],
      [Array.from({ length: 31 }, () => ({ type: 'spacer', height: 10 })), '页面最多30个模块'],
      [[{ type: 'banner', slides: [{ image, link_type: 'h5', target: 'http://x.cn' }] }], 'H5链接须以 https:// 开头'],
      [[{ type: 'banner', slides: [{ image: 'https://evil.example/x.png' }] }], '图片地址无效，请重新上传'],
      [[{ type: 'shortcut', image, title: '入口', link_type: 'service', target: 'nosuch' }], '请选择内置功能'],
      [[{ type: 'notices', count: 11 }], '显示条数不能超过10'],
      [[{ type: 'spacer', height: 1 }], '高度至少4像素'],
      [[{ type: 'video' }], '模块类型不正确'],
      [
        [
          {
            type: 'tabbar',
            tabs: [
              { title: '首页', icon: 'HomeOutlined' },
              { title: '我的', icon: 'HomeOutlined' },
            ],
          },
        ],
        '底部导航只能在“底部导航”页面中设置',
      ],
      [[{ type: 'tabbar', tabs: [{ title: '首页', icon: 'HomeOutlined' }] }], '底部导航至少需要2个菜单', 'navbar'],
      [[{ type: 'spacer', height: 10 }], '底部导航页面只能包含一个“底部导航”模块', 'navbar'],
    ];
    for (const [blocks, message, kind] of cases) {
      const a = await save(blocks, kind);
      expect(a.return_code, message).toBe('FAIL');
      expect(a.return_msg).toContain(message);
    }
    // a good bottom bar
    ok(
      await save(
        [
          {
            type: 'tabbar',
            tabs: [
              { title: '首页', icon: 'HomeOutlined', link_type: 'none', target: '' },
              { title: '缴费', icon: 'WalletOutlined', link_type: 'service', target: 'payment' },
            ],
          },
        ],
        'navbar',
      ),
    );
  });

  it('refuses an account without is_diyhome_auth, a community account and another group', async () => {
    const before = await s.database.db.selectFrom('diy_page_versions').select(['id', 'status', 'version']).orderBy('id').execute();
    for (const [method, payload] of [
      ['diypagelist', {}],
      ['diypageinfo', { kind: 'homeDIY' }],
      ['diypagesave', { kind: 'homeDIY', blocks: [] }],
      ['diypagepublish', { kind: 'homeDIY' }],
      ['diypagerollback', { kind: 'serviceDIY', version: 1 }],
      ['diypagecopy', { kind: 'homeDIY', to_rids: [2] }],
      ['diypagedel', { kind: 'homeDIY', rid: 2 }],
      ['diypagepreview', { kind: 'homeDIY' }],
    ] as const) {
      expect((await group(method, payload, noFlag)).return_code, method).toBe('NO_PERMISSION');
      // a community account: the group side's methods are not there for it
      expect((await group(method, payload, admin)).return_code, method).not.toBe('SUCCESS');
      expect((await s.call(method, payload, admin)).return_code, method).not.toBe('SUCCESS');
    }
    // another group: the first group's communities are not its own; its template is its own (empty)
    for (const [method, payload] of [
      ['diypageinfo', { kind: 'homeDIY', rid: 1 }],
      ['diypagesave', { kind: 'homeDIY', rid: 1, blocks: [] }],
      ['diypagecopy', { kind: 'homeDIY', to_rids: [1] }],
      ['diypagedel', { kind: 'homeDIY', rid: 2 }],
      ['diypagepreview', { kind: 'homeDIY', rid: 1 }],
      ['diypagelist', { rid: 1 }],
    ] as const)
      expect((await group(method, payload, outsider)).return_msg, method).toBe('小区不存在');
    expect(ok(await group('diypageinfo', { kind: 'homeDIY' }, outsider))).toMatchObject({ exists: false, published: null });
    expect((await group('diypagecopy', { kind: 'homeDIY', to_rids: [1] }, leader)).return_code).toBe('SUCCESS');
    // the first group cannot reach the other group's community either
    expect((await group('diypagesave', { kind: 'homeDIY', rid: otherRid, blocks: [] })).return_msg).toBe('小区不存在');
    const after = await s.database.db.selectFrom('diy_page_versions').select(['id', 'status', 'version']).orderBy('id').execute();
    // only the leader's own copy above added a version
    expect(after.length).toBe(before.length + 1);
  });
});
