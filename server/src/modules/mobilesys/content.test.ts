import { RC, appMenu, graphic } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../../test/answers.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { addDays } from '@wuye/contract';
import { today } from '../../lib/wire.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s?.close());

const IMG = '/files/1/0123456789abcdef0123456789abcdef.png';

describeResource(graphic, {
  server: () => s,
  sample: { title: '测试文章', kind: 'article', body: '<p>正文</p>', online_date: '2026-11-01', sort: 3 },
  edit: { title: '测试文章二', summary: '摘要', offline_date: '2099-12-31' },
  filters: { title: '测试文章', kind: 'article', status: 'D' },
  deniedWriter: 'cashier',
});

describeResource(appMenu, {
  server: () => s,
  sample: { title: '测试报修', icon: 'ToolOutlined', position: 'grid', link_type: 'service', target: 'repair', sort: 1 },
  edit: { title: '测试投诉', target: 'complaint', badge: 'hot' },
  filters: { title: '测试报修', position: 'grid', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['position', 'title'],
});

describe('图文: the rules', () => {
  it('keeps the body to the allow-list and refuses what cannot show', async () => {
    const added = ok(
      await s.call(
        'graphicadd',
        { title: '清洗', kind: 'article', body: '<p onclick="x()">好<script>alert(1)</script></p>', online_date: today() },
        admin,
      ),
    );
    const info = ok(await s.call('graphicinfo', { id: added.id }, admin));
    expect(info.body).toBe('<p>好</p>');
    expect(info.status).toBe('D');
    const before = (await s.call('graphiclist', { limit: 1 }, admin)).data.total;
    refused(await s.call('graphicadd', { title: '无正文', kind: 'article', body: '', online_date: today() }, admin), '文章请填写正文');
    refused(await s.call('graphicadd', { title: '无封面', kind: 'banner', online_date: today() }, admin), '轮播图请上传封面');
    refused(
      await s.call(
        'graphicadd',
        { title: '外链', kind: 'banner', cover: IMG, link_type: 'h5', link: 'http://x.cn', online_date: today() },
        admin,
      ),
      'H5链接须以 https:// 开头',
    );
    refused(
      await s.call(
        'graphicadd',
        { title: '功能', kind: 'banner', cover: IMG, link_type: 'service', link: 'nope', online_date: today() },
        admin,
      ),
      '请选择内置功能',
    );
    refused(
      await s.call(
        'graphicadd',
        { title: '小程序', kind: 'banner', cover: IMG, link_type: 'mini', link: 'pages/index', online_date: today() },
        admin,
      ),
      '小程序地址格式为',
    );
    refused(
      await s.call(
        'graphicadd',
        { title: '图文', kind: 'banner', cover: IMG, link_type: 'article', link: '999999', online_date: today() },
        admin,
      ),
      '跳转的图文不存在',
    );
    refused(
      await s.call(
        'graphicadd',
        { title: '倒序', kind: 'article', body: 'x', online_date: '2026-12-02', offline_date: '2026-12-01' },
        admin,
      ),
      '下线日期不能早于上线日期',
    );
    refused(
      await s.call('graphicadd', { title: 'x'.repeat(41), kind: 'article', body: 'x', online_date: today() }, admin),
      '标题不能超过40个字',
    );
    expect((await s.call('graphiclist', { limit: 1 }, admin)).data.total).toBe(before);
  });

  it('publishes into its window: 待上线 before, 已上线 within, 已下线 after; withdraws; refuses deleting a published one', async () => {
    const day = today();
    const later = ok(
      await s.call('graphicadd', { title: '明天上线', kind: 'notice', body: '<p>公示</p>', online_date: addDays(day, 1) }, admin),
    ).id;
    const now = ok(await s.call('graphicadd', { title: '今天上线', kind: 'notice', body: '<p>公示</p>', online_date: day }, admin)).id;
    const past = ok(
      await s.call(
        'graphicadd',
        { title: '已过期', kind: 'notice', body: '<p>公示</p>', online_date: addDays(day, -5), offline_date: addDays(day, -1) },
        admin,
      ),
    ).id;
    const pub = await s.call('graphicpublish', { id: later }, admin);
    expect(pub.return_msg).toBe(`已发布，将于${addDays(day, 1)}上线`);
    expect(pub.data.status).toBe('S');
    expect(ok(await s.call('graphicpublish', { id: now }, admin)).status).toBe('P');
    expect(ok(await s.call('graphicpublish', { id: past }, admin)).status).toBe('X');
    refused(await s.call('graphicpublish', { id: now }, admin), '该图文已发布');
    const listed = (await s.call('graphiclist', { status: 'P', limit: 100 }, admin)).data.items.map((i: { id: number }) => i.id);
    expect(listed).toContain(now);
    expect(listed).not.toContain(later);
    refused(await s.call('graphicdel', { id: now }, admin), '已发布的图文请先撤回，再删除');
    // the owner app reads it: one view more; one not online is refused
    expect(ok(await s.call('graphicview', { id: now }, admin)).views).toBe(1);
    refused(await s.call('graphicview', { id: later }, admin), '该图文未上线');
    expect(ok(await s.call('graphicwithdraw', { id: now }, admin))).toEqual({ id: now });
    refused(await s.call('graphicwithdraw', { id: now }, admin), '只能撤回已发布的图文');
    expect(ok(await s.call('graphicinfo', { id: now }, admin)).status).toBe('W');
    expect((await s.call('graphicdel', { id: now }, admin)).return_code).toBe(RC.SUCCESS);
    refused(await s.call('graphicpublish', { id: now }, await s.login('admin2')), '图文不存在');
  });
});

describe('菜单 and the home', () => {
  it('keeps the bottom bar to five enabled entries and names a menu whose service is off', async () => {
    // the demo may hold bottom-bar entries already: fill up to five
    const have = (await s.call('appmenulist', { position: 'tabbar', status: 'Y', limit: 50 }, admin)).data.total;
    for (let i = have; i < 5; i++) {
      ok(
        await s.call(
          'appmenuadd',
          { title: `底栏${i}`, icon: 'HomeOutlined', position: 'tabbar', link_type: 'service', target: 'notice' },
          admin,
        ),
      );
    }
    refused(
      await s.call(
        'appmenuadd',
        { title: '第六个', icon: 'HomeOutlined', position: 'tabbar', link_type: 'service', target: 'notice' },
        admin,
      ),
      '底部导航最多5个启用的菜单',
    );
    // a stopped one may be kept
    ok(
      await s.call(
        'appmenuadd',
        { title: '停用的', icon: 'HomeOutlined', position: 'tabbar', link_type: 'service', target: 'notice', status: 'N' },
        admin,
      ),
    );
    refused(
      await s.call('appmenuadd', { title: '七个字的菜单名', icon: 'HomeOutlined', link_type: 'service', target: 'notice' }, admin),
      '不超过6个字',
    );
    refused(
      await s.call('appmenuadd', { title: '坏图标', icon: 'EvilOutlined', link_type: 'service', target: 'notice' }, admin),
      '请选择图标',
    );

    const door = ok(await s.call('appmenuadd', { title: '开门', icon: 'KeyOutlined', link_type: 'service', target: 'access' }, admin)).id;
    const row = (await s.call('appmenulist', { title: '开门', limit: 10 }, admin)).data.items.find((m: { id: number }) => m.id === door);
    // 扫码开门 is off by default
    expect(row.hidden_reason).toBe('应用“扫码开门”未开通');
    const home = ok(await s.call('apphome', {}, admin));
    expect(home.grid.map((m: { id: number }) => m.id)).not.toContain(door);
    expect(home.warnings.join()).toContain('指向未开通的应用，已隐藏');
    ok(await s.call('applyedit', { code: 'access', enabled: 'Y', title: '手机开门', hours: '全天', sort: 5 }, admin));
    const shown = ok(await s.call('apphome', {}, admin));
    expect(shown.grid.map((m: { id: number }) => m.id)).toContain(door);
    const row2 = (await s.call('appmenulist', { title: '开门', limit: 10 }, admin)).data.items.find((m: { id: number }) => m.id === door);
    expect(row2.hidden_reason).toBe('');
  });

  it("hides an entry whose service the group's catalogue does not offer the community, in the list, its details and the app", async () => {
    const leader = await s.login('leader');
    const entry = ok(
      await s.call('appmenuadd', { title: '去缴费', icon: 'WalletOutlined', link_type: 'service', target: 'payment' }, admin),
    ).id;
    const reasonOf = async () =>
      (await s.call('appmenulist', { title: '去缴费', limit: 10 }, admin)).data.items.find((m: { id: number }) => m.id === entry)
        .hidden_reason;
    expect(await reasonOf()).toBe('');
    // the head office offers 物业缴费 to community 2 only
    ok(await s.call('applysedit', { code: 'payment', icon: 'WalletOutlined', sort: 3, region_scope: 'some', rids: [2] }, leader, 'group'));
    try {
      expect(await reasonOf()).toBe('应用“物业缴费”未开通');
      expect(ok(await s.call('apphome', {}, admin)).grid.map((m: { id: number }) => m.id)).not.toContain(entry);
      expect(ok(await s.call('appmenuinfo', { id: entry }, admin)).hidden_reason).toBe('应用“物业缴费”未开通');
    } finally {
      ok(await s.call('applysedit', { code: 'payment', icon: 'WalletOutlined', sort: 3, region_scope: 'all' }, leader, 'group'));
    }
    expect(await reasonOf()).toBe('');
  });

  it('shows on the home the banners online at the top, by their order, and the latest posts', async () => {
    const day = today();
    const b1 = ok(await s.call('graphicadd', { title: '首页横幅二', kind: 'banner', cover: IMG, sort: 2, online_date: day }, admin)).id;
    const b2 = ok(await s.call('graphicadd', { title: '首页横幅一', kind: 'banner', cover: IMG, sort: 1, online_date: day }, admin)).id;
    const elsewhere = ok(
      await s.call('graphicadd', { title: '服务页横幅', kind: 'banner', cover: IMG, placement: 'service', online_date: day }, admin),
    ).id;
    for (const id of [b1, b2, elsewhere]) ok(await s.call('graphicpublish', { id }, admin));
    const home = ok(await s.call('apphome', { date: day }, admin));
    // the community's own (the group's come first, with ids of their own: server/src/modules/leader/banners.test.ts)
    const ids = home.banners.filter((b: { source: string }) => b.source === 'community').map((b: { id: number }) => b.id);
    expect(ids.indexOf(b2)).toBeLessThan(ids.indexOf(b1));
    expect(ids).not.toContain(elsewhere);
    // before they go online they do not show
    expect(ok(await s.call('apphome', { date: addDays(day, -400) }, admin)).banners.map((b: { id: number }) => b.id)).not.toContain(b1);
    refused(await s.call('apphome', { date: '2026-02-30' }, admin), '日期不存在');
    expect((await s.call('apphome', {}, await s.login('cashier'))).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('应用', () => {
  it('lists the catalogue as the community offers it and logs each change', async () => {
    const list = ok(await s.call('applylist', {}, admin)).items;
    expect(list.find((a: { code: string }) => a.code === 'repair')).toMatchObject({
      enabled: 'Y',
      title: '在线报修',
      console: '/steward/repairs',
    });
    ok(
      await s.call(
        'applyedit',
        { code: 'meter', enabled: 'Y', title: '会员中心', intro: '积分与权益', phone: '400-800-1234', sort: 1 },
        admin,
      ),
    );
    const edited = await s.call(
      'applyedit',
      { code: 'meter', enabled: 'N', title: '会员中心', intro: '积分与权益', phone: '400-800-1234', sort: 1 },
      admin,
    );
    expect(edited.return_msg).toBe('已停用会员中心');
    const info = ok(await s.call('applyinfo', { code: 'meter' }, admin));
    expect(info).toMatchObject({ enabled: 'N', title: '会员中心', default_title: '智能电表', phone: '400-800-1234' });
    expect(info.logs.map((l: { change: string }) => l.change)).toEqual(['停用', '开通；修改：名称、简介、服务电话、排序']);
    expect(ok(await s.call('applylist', { enabled: 'N' }, admin)).items.map((a: { code: string }) => a.code)).toContain('meter');
    // another community keeps its own
    expect(ok(await s.call('applyinfo', { code: 'meter' }, await s.login('admin2'))).title).toBe('智能电表');
    refused(await s.call('applyedit', { code: 'nope', enabled: 'Y', title: 'x' }, admin), '应用不存在');
    refused(await s.call('applyedit', { code: 'meter', enabled: 'Y', title: '' }, admin), '请输入应用名称');
    refused(await s.call('applyedit', { code: 'meter', enabled: 'Y', title: 'x', phone: 'abc' }, admin), '服务电话格式不正确');
    expect((await s.call('applyedit', { code: 'meter', enabled: 'Y', title: 'x' }, await s.login('steward'))).return_code).toBe(
      RC.NO_PERMISSION,
    );
    expect(ok(await s.call('applyinfo', { code: 'meter' }, admin)).logs).toHaveLength(2);
  });
});
