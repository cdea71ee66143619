import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatSimulators } from '../devices/access.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { HOME_TOP_ARREARS, HOME_WORDS } from '@wuye/contract';
import { renderCardData, renderCards } from './first-screen-cards.js';
import { parseCookies, renderFirstScreen, withFirstScreen } from './first-screen.js';

const INDEX =
  '<!doctype html><head><script type="module" crossorigin src="/assets/index-1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-1.js"><link rel="preload" as="style" href="/assets/a.css">' +
  '</head><body><div id="root"><div class="boot"></div></div></body>';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const screenOf = (html: string) => html.match(/<div id="first-screen"[\s\S]*?(?=<div id="root">)/)?.[0] ?? null;

/** The home page drawn by the server from the session (docs/adr/0007-first-screen.md: the first paint on a phone). */
describe('first screen of the home page', () => {
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    server = await startTestServer({ webDist: dist });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const page = (url: string, cookie?: string) => server.app.fastify.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it("draws the signed-in user's welcome card and community, with the console's assets started after it", async () => {
    const token = await server.login('admin');
    for (const url of ['/dashboard', '/', '/dashboard?from=bookmark']) {
      const res = await page(url, `Admin-Token=${token}; sidebarStatus=1`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(String(res.headers.vary)).toMatch(/cookie/i);
      const screen = screenOf(res.body);
      expect(screen).not.toBeNull();
      expect(textOf(screen!)).toContain('欢迎，张经理');
      // the days left are on their card only; the welcome card tells the day
      expect(textOf(screen!)).toMatch(/当前小区 阳光花园 到期时间 \d{4}-\d{2}-\d{2} 今天 \d{4}-\d{2}-\d{2} 星期[日一二三四五六]/);
      expect(textOf(screen!).match(/剩余天数/g)).toHaveLength(1);
      // the scripts and preloads wait in a template for the loader, which the policy allows by its hash
      expect(res.body).toContain('<head></head>');
      expect(res.body).toContain(
        '<template id="console-assets"><script type="module" crossorigin src="/assets/index-1.js"></script>' +
          '<link rel="modulepreload" crossorigin href="/assets/react-1.js"><link rel="preload" as="style" href="/assets/a.css"></template><script>',
      );
      const loader = /<script>(.*?)<\/script><\/body>/.exec(res.body)![1]!;
      const hash = createHash('sha256').update(loader).digest('base64');
      expect(String(res.headers['content-security-policy'])).toContain(`script-src 'self' 'sha256-${hash}';`);
      // the console's own root stays, with its spinner, for the scripts to take over
      expect(res.body).toContain('<div id="root"><div class="boot"></div></div>');
    }
  });

  it('speaks the language of the language cookie and keeps a closed sidebar closed', async () => {
    const token = await server.login('cashier2');
    const en = screenOf((await page('/dashboard', `Admin-Token=${token}; language=en; sidebarStatus=0`)).body)!;
    expect(textOf(en)).toMatch(
      /^翠湖苑\S* Dashboard Dashboard Welcome, 孙收银 Community 翠湖苑 Service ends \d{4}-\d{2}-\d{2} Today \d{4}-\d{2}-\d{2} [A-Z][a-z]+day/,
    );
    expect(en).toContain('class="fs fs-closed"');
    const es = screenOf((await page('/dashboard', `Admin-Token=${token}; language=es`)).body)!;
    expect(textOf(es)).toContain('Bienvenido, 孙收银');
    // an unknown language is the default one
    expect(textOf(screenOf((await page('/', `Admin-Token=${token}; language=fr`)).body)!)).toContain('欢迎，孙收银');
  });

  it('shows an expired community as expired, and the group side without a subscription', async () => {
    const expired = await server.login('expired');
    expect(textOf(screenOf((await page('/dashboard', `Admin-Token=${expired}`)).body)!)).toContain('剩余天数 已到期 点击续费');
    const leader = await server.login('leader');
    const group = textOf(screenOf((await page('/dashboard', `Admin-Token=${leader}; Admin-Side=group`)).body)!);
    expect(group).toContain('欢迎，');
    // the group's home page speaks of the group, not of a community
    expect(group).toMatch(/所属集团 幸福里物业集团 今天 \d{4}-\d{2}-\d{2}/);
    expect(group).not.toContain('小区');
    expect(group).not.toContain('到期时间');
  });

  const dataOf = (html: string) => {
    const json = html.match(/<script type="application\/json" id="first-screen-data">(.*?)<\/script>/)?.[1];
    return json === undefined ? null : (JSON.parse(json) as Record<string, unknown>);
  };
  const cardTitles = (screen: string) =>
    [
      ...screen.matchAll(
        /class="fs-(?:figure-title|panel-title)">(?:<span class="fs-head-icon">[\s\S]*?<\/svg><\/span><\/span>)?([^<]*)</g,
      ),
    ].map((m) => m[1]);

  it('draws the figure cards the user sees, with the figures the console would ask for, and hands them over', async () => {
    const token = await server.login('admin');
    // the door simulators beat as the worker makes them do; the seed's beats may be older than the online window
    await beatSimulators(server.database.db);
    const res = await page('/dashboard', `Admin-Token=${token}`);
    const screen = screenOf(res.body)!;
    const fees = (await server.call('feedashboard', {}, token)).data;
    const backlog = (await server.call('backlog_list', { page: 1, limit: 1, status: 'E' }, token)).data.total as number;
    const repairs = (await server.call('repairdashboard', {}, token)).data;
    const parking = (await server.call('parkingdashboard', {}, token)).data;
    const patrol = (await server.call('patroldashboard', {}, token)).data;
    const activities = (await server.call('activitydashboard', {}, token)).data;
    const access = (await server.call('accessdashboard', {}, token)).data;
    const meters = (await server.call('meterdashboard', {}, token)).data;
    expect(cardTitles(screen)).toEqual([
      '待办事项',
      `本月实收（${fees.month}）`,
      '欠费最多的楼栋',
      '未完成报修',
      '场内车辆',
      '离线门禁设备',
      '关阀中的表计',
      '今日巡更',
      '报名中的活动',
      '剩余天数',
    ]);
    const text = textOf(screen);
    expect(text).toContain(`待办事项 ${backlog} `);
    expect(Number(fees.received)).toBeGreaterThan(0);
    const grouped = (v: string) => v.replace(/\B(?=(\d{3})+\.)/g, ',');
    expect(text).toContain(`¥${grouped(fees.received)} 应收 ¥${grouped(fees.receivable)}，收缴率 ${fees.rate}%`);
    // the card lists the first three of the five the method answers
    expect(fees.top_arrears.length).toBeGreaterThan(HOME_TOP_ARREARS);
    for (const [i, b] of fees.top_arrears.entries()) {
      expect(text.includes(`${b.building_title}（${b.rooms} 户） ¥${grouped(b.arrears)}`)).toBe(i < HOME_TOP_ARREARS);
    }
    expect(repairs.open).toBeGreaterThan(0);
    expect(text).toContain(`未完成报修 ${repairs.open} 超时 ${repairs.overdue} · 今日新增 ${repairs.today}`);
    expect(parking.inside).toBeGreaterThan(0);
    expect(text).toContain(`场内车辆 ${parking.inside} / ${parking.total_spaces} 今日停车收入 ¥${grouped(parking.total)}`);
    const backlogPending = (await server.call('backlog_list', { page: 1, limit: 5, status: 'E', sort: 'desc' }, token)).data;
    expect(text).toContain(
      `今日巡更 ${patrol.points_done} / ${patrol.points_due} 完成率 ${patrol.rate}% · 未完成任务 ${patrol.missed_tasks}`,
    );
    // the demo's two activities open for sign-up (中秋游园会, 亲子烘焙课)
    expect(activities.open).toBe(2);
    expect(text).toContain(`报名中的活动 ${activities.open} 已报名 ${activities.signed} 人 · 待审核 ${activities.reviewing}`);
    // the demo's door devices, one of them set offline
    expect(access.total).toBeGreaterThan(access.offline);
    expect(access.offline).toBeGreaterThan(0);
    expect(text).toContain(`离线门禁设备 ${access.offline} / ${access.total} 今日预约访客 ${access.expected} · 已到访 ${access.arrived}`);
    // the demo's meters: one closed for arrears; its two charging piles
    expect(meters.closed).toBeGreaterThan(0);
    expect(meters.piles).toBe(2);
    expect(text).toContain(
      `关阀中的表计 ${meters.closed} 离线表 ${meters.offline_meters} · 余额不足 ${meters.low} 户 · 离线充电桩 ${meters.offline_piles}`,
    );
    expect(dataOf(res.body)).toEqual({
      backlog,
      backlogPending,
      feedashboard: fees,
      repairdashboard: repairs,
      parkingdashboard: parking,
      patroldashboard: patrol,
      activitydashboard: activities,
      accessdashboard: access,
      meterdashboard: meters,
    });
  });

  it("draws each community its own figures, and only the cards of the user's roles", async () => {
    const cashier2 = await server.login('cashier2');
    const res = await page('/dashboard', `Admin-Token=${cashier2}`);
    expect(dataOf(res.body)!.feedashboard).toEqual((await server.call('feedashboard', {}, cashier2)).data);
    expect(dataOf(res.body)!.feedashboard).not.toEqual((await server.call('feedashboard', {}, await server.login('admin'))).data);
    // a steward sees no fee figures (none are drawn or handed over), but the repair desk's
    const steward = await page('/dashboard', `Admin-Token=${await server.login('steward')}`);
    expect(cardTitles(screenOf(steward.body)!)).toEqual(['待办事项', '未完成报修', '剩余天数']);
    expect(Object.keys(dataOf(steward.body)!)).toEqual(['backlog', 'backlogPending', 'repairdashboard']);
    // a cashier sees no repair card: nothing of it drawn or handed over
    expect(cardTitles(screenOf(res.body)!)).not.toContain('未完成报修');
    expect(Object.keys(dataOf(res.body)!)).not.toContain('repairdashboard');
    // the parking staff: cars inside and today's parking income
    const parker = await page('/dashboard', `Admin-Token=${await server.login('parking')}`);
    // the parking staff run the meters too: valves closed, meters and piles offline
    expect(cardTitles(screenOf(parker.body)!)).toEqual(['待办事项', '场内车辆', '关阀中的表计', '剩余天数']);
    expect(Object.keys(dataOf(parker.body)!)).toEqual(['backlog', 'backlogPending', 'parkingdashboard', 'meterdashboard']);
    expect(Object.keys(dataOf(res.body)!)).not.toContain('parkingdashboard');
    // the guard: the door devices and today's visitors, and today's patrols
    const guard = await page('/dashboard', `Admin-Token=${await server.login('guard')}`);
    expect(cardTitles(screenOf(guard.body)!)).toEqual(['待办事项', '离线门禁设备', '今日巡更', '剩余天数']);
    expect(Object.keys(dataOf(guard.body)!)).toEqual(['backlog', 'backlogPending', 'patroldashboard', 'accessdashboard']);
    // the activities officer: the activities open for sign-up
    const service = await page('/dashboard', `Admin-Token=${await server.login('service')}`);
    expect(cardTitles(screenOf(service.body)!)).toEqual(['待办事项', '报名中的活动', '剩余天数']);
    expect(Object.keys(dataOf(service.body)!)).toEqual(['backlog', 'backlogPending', 'activitydashboard']);
    // a merchant has no to-do card; the group side has no cards at all
    const merchant = await page('/dashboard', `Admin-Token=${await server.login('merchant')}`);
    expect(cardTitles(screenOf(merchant.body)!)).toEqual(['剩余天数']);
    expect(dataOf(merchant.body)).toBeNull();
    const group = await page('/dashboard', `Admin-Token=${await server.login('leader')}; Admin-Side=group`);
    expect(screenOf(group.body)).not.toContain('fs-cards');
    expect(dataOf(group.body)).toBeNull();
  });

  it('gives a community whose subscription ended its cards without figures, as its calls answer AUTH_END', async () => {
    const token = await server.login('expired');
    expect((await server.call('feedashboard', {}, token)).return_code).toBe('AUTH_END');
    const res = await page('/dashboard', `Admin-Token=${token}`);
    const screen = screenOf(res.body)!;
    expect(cardTitles(screen)).toEqual(['待办事项', '本月实收（）', '欠费最多的楼栋', '剩余天数']);
    expect(textOf(screen)).toContain('待办事项 0 本月实收（） - 欠费最多的楼栋 暂无欠费 剩余天数 已到期 点击续费');
    expect(dataOf(res.body)).toBeNull();
  });

  it('sends the plain page without a live session, and on every other route', async () => {
    const token = await server.login('admin');
    const plain = async (url: string, cookie?: string) => {
      const res = await page(url, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
    };
    await plain('/dashboard');
    await plain('/dashboard', 'Admin-Token=not-a-token');
    await plain('/dashboard', 'language=en');
    await plain('/basismembers/index', `Admin-Token=${token}`);
    await plain('/login', `Admin-Token=${token}`);
    expect((await page('/basismembers/index', `Admin-Token=${token}`)).headers['cache-control']).toBe('no-cache');
    // after logging out the token is dead: the page no longer carries the user's data
    await server.call('logout', {}, token);
    server.app.sessions.clear();
    await plain('/dashboard', `Admin-Token=${token}`);
  });
});

describe('first screen markup', () => {
  const info = { region_title: '阳光<花园>', sub_title: '', logo_url: '', end_time: '2027-01-31 00:00:00', days_left: 12 };

  it('escapes what users typed (names, community titles)', () => {
    const html = renderFirstScreen({ name: '<img src=x onerror=alert(1)>&"', info, side: 'community', today: '2026-11-27' }, {});
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&amp;&quot;');
    expect(html).toContain('阳光&lt;花园&gt;');
  });

  it('lays the items out for a wide screen (one row) and a narrow one (a row each)', () => {
    const html = renderFirstScreen({ name: '张三', info, side: 'community', today: '2026-11-27' }, {});
    const wide = html.match(/<table class="fs-wide">.*?<\/table>/)![0];
    const narrow = html.match(/<table class="fs-narrow">.*?<\/table>/)![0];
    expect(wide.match(/<tr>/g)).toHaveLength(1);
    expect(narrow.match(/<tr>/g)).toHaveLength(3);
    expect(textOf(wide)).toBe('当前小区 阳光&lt;花园&gt; 到期时间 2027-01-31 今天 2026-11-27 星期五');
  });

  it("shows the community's logo in the sidebar, or the home icon without one", () => {
    expect(renderFirstScreen({ name: '张三', info, side: 'community', today: '2026-11-27' }, {})).toContain('<svg class="fs-logo-icon"');
    const withLogo = renderFirstScreen(
      { name: '张三', info: { ...info, logo_url: 'https://cdn.example.com/l.png?a=1&b="2"' }, side: 'community', today: '2026-11-27' },
      {},
    );
    expect(withLogo).toContain(
      '<img class="fs-logo-img" src="https://cdn.example.com/l.png?a=1&amp;b=&quot;2&quot;" alt=""><span>阳光&lt;花园&gt;</span>',
    );
  });

  it('follows the layout the user set: a closed sidebar, no tag strip, no logo, a theme colour', () => {
    const html = renderFirstScreen(
      { name: '张三', info, side: 'community', today: '2026-11-27' },
      { sidebarStatus: '0', layout: 'tags=0&logo=0&theme=13c2c2' },
    );
    expect(html).toContain('<div id="first-screen" class="fs fs-closed fs-notags fs-nologo" style="--fs-theme:#13c2c2" aria-busy="true">');
    // only a colour reaches the style attribute
    const odd = renderFirstScreen(
      { name: '张三', info, side: 'community', today: '2026-11-27' },
      { layout: 'theme=red;background:url(x)' },
    );
    expect(odd).toContain('<div id="first-screen" class="fs" aria-busy="true">');
  });

  it('reads cookies as the browser sends them', () => {
    expect(parseCookies('a=1; Admin-Token=abc%3D; language=en;bad; x=%E0%A4')).toEqual({ a: '1', 'Admin-Token': 'abc=', language: 'en' });
    expect(parseCookies(undefined)).toEqual({});
  });

  it('hands the figures over as JSON that no title can end early', () => {
    const feedashboard = {
      month: '2026-11',
      receivable: '1.00',
      received: '0.00',
      rate: '0.00',
      top_arrears: [{ bid: 1, building_title: '</script><script>alert(1)</script>', arrears: '1.00', rooms: 1 }],
    };
    const html = renderCardData({ keys: ['feesArrears'], data: { feedashboard } });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, ''))).toEqual({ feedashboard });
    const cards = renderCards({ keys: ['feesArrears'], data: { feedashboard } }, HOME_WORDS['zh-CN'], { end_time: '', days_left: 0 });
    expect(cards).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;（1 户）');
  });

  it('inserts the screen before the root only', () => {
    const out = withFirstScreen(INDEX, '<div id="first-screen"></div>');
    expect(out).toContain('<body><div id="first-screen"></div><div id="root">');
  });
});
