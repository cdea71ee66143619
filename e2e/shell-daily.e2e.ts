import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pagesFor } from '../web/src/routeManifest.js';
import { animationsDone, frames, pick, stable } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn, topBar } from './support.js';

/**
 * The shell in daily use: the product's addresses, the top bar at office widths, the tab strip,
 * to-dos that lead to the work, the community's details in the shell, forms and messages.
 */

/** The breadcrumb's words, once the page has drawn it. */
async function crumbs(page: Page): Promise<string> {
  const crumb = page.getByTestId('breadcrumb');
  await crumb.waitFor();
  return (await crumb.innerText()).replace(/\s+/g, '');
}

/** Goes to an address inside the console, as its links do (no reload). */
async function goInApp(page: Page, address: string) {
  await page.evaluate((url) => {
    window.history.pushState(null, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, address);
}

/** Where the strip shows a tab: its box and the strip's, and how far the strip has scrolled. */
function tabInStrip(page: Page, path: string) {
  return page.evaluate((p) => {
    const strip = document.querySelector<HTMLElement>('.tags-view-wrapper')!;
    const tab = strip.querySelector<HTMLElement>(`[data-path="${p}"]`);
    if (!tab) return null;
    const s = strip.getBoundingClientRect();
    const t = tab.getBoundingClientRect();
    return { whole: t.left >= s.left - 1 && t.right <= s.right + 1, active: tab.classList.contains('active'), scrolled: strip.scrollLeft };
  }, path);
}

/** The areas of the admin's top menu, in order. */
/** Every area of the community side, with the short words it shows where the full ones do not all fit. */
const AREAS: Array<[string, string]> = [
  ['首页', '首页'],
  ['小区桌面', '桌面'],
  ['房产管理', '房产'],
  ['业主管理', '业主'],
  ['收费管理', '收费'],
  ['收费报表', '报表'],
  ['发票', '发票'],
  ['管家服务', '管家'],
  ['智能物联', '物联'],
  ['客户合同', '客户'],
  ['业主App', '业主App'],
  ['团队管理', '团队'],
  ['系统设置', '设置'],
];

journey('the shell in daily use', ({ page: newPage }) => {
  it('shows every area in the top menu on an office screen, the other icons in a "more" menu', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1366, height: 768 },
      { width: 1280, height: 800 },
    ]) {
      const page = await newPage(viewport);
      await signIn(page, 'admin');
      const menu = page.getByTestId('top-menu');
      await expect.poll(() => menu.innerText()).toMatch(/系统设置|设置/);
      // with every area, the full words fit no office screen: each area shows its short words, and the full ones as its tooltip
      if (viewport.width < 1440) expect(await menu.getAttribute('data-short')).toBe('1');
      const short = (await menu.getAttribute('data-short')) === '1';
      for (const [full, brief] of AREAS) {
        const words = short ? brief : full;
        const words$ = page.locator('span[data-testid^="top-menu-item-"]').filter({ hasText: new RegExp(`^${words}$`) });
        const item = menu.locator('.ant-menu-item').filter({ has: words$ });
        const label = item.locator('span[data-testid^="top-menu-item-"]');
        const box = await item.boundingBox();
        expect(await item.isVisible(), `${full} at ${viewport.width}`).toBe(true);
        expect(box!.x + box!.width, `${full} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
        if (words !== full) expect(await label.getAttribute('title'), full).toBe(full);
      }
      await screenshot(page, `shell-top-menu-${viewport.width}`);
      // nothing folded under the menu's own "…"
      expect(await menu.locator('.ant-menu-overflow-item-rest:visible').count()).toBe(0);
      const right = await page.locator('.right-menu').boundingBox();
      expect(right!.x + right!.width).toBeLessThanOrEqual(viewport.width);
      // the icons that gave way are one click further, with their words
      await page.getByTestId('navbar-more').click();
      for (const entry of ['管理看板', '更新日志', '全屏', '布局大小', '语言', '系统布局配置']) {
        await page.locator('.ant-dropdown:visible').getByText(entry, { exact: true }).waitFor();
      }
      await topBar(page, 'navbar-updatelog');
      await page.waitForURL(/\/updatelog\/updatelog$/);
    }
  });

  it('opens the pages at the addresses of the route table, old addresses keep their query, the other side gets 401', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    const pages: [string, string][] = [
      ['/buildinglist', '楼栋管理'],
      ['/unitlist', '单元管理'],
      ['/roomlist', '房屋管理'],
      ['/addroom', '新增房屋'],
      ['/editroom', '编辑房屋'],
      ['/roominfo', '房屋详情'],
      ['/house_show', '房态图'],
      ['/regions/index', '小区资料'],
      ['/category', '房屋类型'],
      ['/importlog', '导入记录'],
      ['/buildingimport', '批量导入'],
    ];
    for (const [path, title] of pages) {
      await page.goto(path);
      await expect.poll(() => crumbs(page)).toBe(`首页/房产管理/${title}`);
      expect(new URL(page.url()).pathname).toBe(path);
    }
    // a room's pages by the room, and the structure menu entry lit on them
    await page.goto('/editroom?id=1');
    await page.getByTestId('room-form').waitFor();
    await expect.poll(() => page.getByTestId('room-title').inputValue()).not.toBe('');
    expect(await page.locator('.top-menu .ant-menu-item-selected').innerText()).toMatch(/^房产(管理)?$/);
    await page.goto('/roominfo?id=1');
    await page.getByTestId('room-info').waitFor();
    // the update log's group address opens the log
    await page.goto('/updatelog');
    await page.waitForURL(/\/updatelog\/updatelog$/);
    await page.getByTestId('updatelog-page').waitFor();
    // addresses from before keep their query
    await page.goto('/basis/roomlist?bid=2');
    await page.waitForURL((url) => url.pathname === '/roomlist' && url.searchParams.get('bid') === '2');
    await page.goto('/basis/editroom/1');
    await page.waitForURL((url) => url.pathname === '/editroom' && url.searchParams.get('id') === '1');

    // the group's account typing a community page may not open it: 401, not 404
    const leader = await newPage();
    await signIn(leader, 'leader');
    for (const path of ['/roomlist', '/basis/buildinglist', '/fees/feebilllist']) {
      await leader.goto(path);
      await leader.waitForURL(/\/401$/);
    }
    await leader.goto('/no/such/page');
    await leader.waitForURL(/\/404$/);
  });

  it('reaches the property fee payments from 物业费收缴 and from the route search', async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/feecounts/propertypaystatis');
    await page.getByTestId('propertypaylog-link').click();
    await page.waitForURL(/\/feecounts\/propertypaylog$/);
    await page.getByTestId('propertypaylog-page').waitFor();
    await page.goto('/dashboard');
    await page.getByTestId('route-search-toggle').click();
    const search = page.locator('[data-testid="route-search"] input:visible').first();
    await search.pressSequentially('物业费缴费明细');
    await page.locator('.ant-select-dropdown').filter({ hasText: '物业费缴费明细' }).waitFor({ state: 'attached' });
    await search.press('Enter');
    await page.waitForURL(/\/feecounts\/propertypaylog$/);
  });

  it('keeps the active tab in view after many pages, and scrolls the tabs with the wheel', async () => {
    const page = await newPage({ width: 1280, height: 800 });
    await signIn(page, 'admin');
    const pages = pagesFor('community', ['admin'])
      .filter((p) => !p.hidden && !p.path.includes(':') && p.path !== '/dashboard')
      .slice(0, 18);
    for (const p of pages) {
      await goInApp(page, p.path);
      await expect.poll(() => tabInStrip(page, p.path), { message: p.path }).toMatchObject({ active: true, whole: true });
    }
    const last = pages.at(-1)!.path;
    expect((await tabInStrip(page, last))!.scrolled).toBeGreaterThan(0);
    // going back to an early page brings its tab back into view
    await goInApp(page, pages[1]!.path);
    await expect.poll(() => tabInStrip(page, pages[1]!.path)).toMatchObject({ active: true, whole: true });
    // the wheel over the strip moves it sideways, the page stays where it is
    await page.getByTestId('tags-view').hover();
    const before = (await tabInStrip(page, pages[1]!.path))!.scrolled;
    await page.mouse.wheel(0, 600);
    await expect.poll(async () => (await tabInStrip(page, pages[1]!.path))!.scrolled).toBeGreaterThan(before);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.mouse.wheel(0, -5000);
    await expect.poll(async () => (await tabInStrip(page, '/dashboard'))!.whole).toBe(true);
  });

  it('leads each to-do to where its work is done and names its kind in Chinese, on the to-do page and on the board', async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/setup/backlog');
    const table = page.getByTestId('backlog-page');
    const row = (title: string) => table.locator('.ant-table-row').filter({ hasText: title });
    // oldest first: the demo's reminders, then what the desk raised
    await row('消防设施').waitFor();
    const kinds = await table.locator('.ant-table-row .ant-tag').allInnerTexts();
    for (const kind of ['退款', '收费', '其他', '投诉']) expect(kinds).toContain(kind);
    expect((await table.innerText()).match(/\b(repair|refund|fees|complaint|internalorder|other)\b/)).toBeNull();

    // a reminder with no page of its own: its details open, with 标记完成, and the page stays
    const detail = page.getByTestId('backlog-detail');
    await row('消防设施').getByRole('button', { name: '去处理' }).click();
    await detail.waitFor();
    expect(await detail.innerText()).toContain('其他');
    // the dialog done zooming in, or the click lands where 关闭 was a frame before
    await animationsDone(page);
    await page.getByRole('button', { name: '关闭' }).click();
    await detail.waitFor({ state: 'hidden' });

    // a refund to the refunds, the month's bills to their generation
    await row('审核退款申请').getByRole('button', { name: '去处理' }).click();
    await page.waitForURL(/\/fees\/refundlist$/);
    await page.goBack();
    await row('账单待生成').getByRole('button', { name: '去处理' }).click();
    await page.waitForURL(/\/fees\/feebillworkadd$/);
    await page.goBack();

    // the repairs alone; one leads to its ticket on the repair desk
    await pick(page, 'backlog-kind', '报修');
    await table.getByTestId('table-page-search').click();
    await row('报修待派单').first().waitFor();
    const shown = await table.locator('.ant-table-row .ant-tag').allInnerTexts();
    for (const other of ['退款', '收费', '其他', '投诉', '内部工单']) expect(shown).not.toContain(other);
    await row('报修待派单').first().getByRole('button', { name: '去处理' }).click();
    await page.waitForURL(/\/steward\/repairs\?id=\d+$/);
    await page.getByTestId('repair-detail').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('repair-detail').waitFor({ state: 'hidden' });

    // the board names the kinds the same way
    const opened = page.context().waitForEvent('page');
    await topBar(page, 'navbar-board');
    const board = await opened;
    await board.getByTestId('spectaculars').waitFor();
    await expect.poll(() => board.locator('.board-table').innerText()).toContain('报修');
    const boardKinds = await board.locator('.board-table tbody td .ant-tag').allInnerTexts();
    expect(boardKinds.length).toBeGreaterThan(0);
    for (const k of boardKinds) expect(['报修', '维修待办', '退款', '收费', '投诉', '内部工单', '停车', '开票申请', '其他']).toContain(k);
    await board.close();
  });

  it("shows the community's new logo, floor plan and copyright in the shell at once and after a reload", async () => {
    const token = await apiLogin('admin');
    const before = (await api('regioninfo', {}, token)).data;
    const page = await newPage({ width: 1366, height: 768 });
    await signIn(page, 'admin', undefined, '/regions/index');
    await page.getByTestId('region-info').waitFor();
    await page.getByTestId('region-edit').click();
    const form = page.getByTestId('region-form');
    await form.waitFor();
    const field = (label: string) => form.locator('.ant-form-item').filter({ hasText: label }).locator('input');
    await field('Logo 地址').fill('/favicon.svg?logo');
    await field('小区平面图地址').fill('/favicon.svg?plan');
    await field('版权信息').fill('© 2026 阳光花园物业服务中心');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await form.waitFor({ state: 'hidden' });
    const shell = async () => ({
      footer: await page.getByTestId('footer').innerText(),
      logo: await page.locator('[data-testid=sidebar-logo] img').getAttribute('src'),
    });
    await expect.poll(shell).toEqual({ footer: '© 2026 阳光花园物业服务中心', logo: '/favicon.svg?logo' });
    await topBar(page, 'navbar-floorplan');
    await expect.poll(() => page.getByTestId('floorplan-image').getAttribute('src')).toBe('/favicon.svg?plan');
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('region-info').waitFor();
    await expect.poll(shell).toEqual({ footer: '© 2026 阳光花园物业服务中心', logo: '/favicon.svg?logo' });
    // as it was, for the journeys after this one
    const { title, address, phone, area, logo_url, region_img, copyright } = before;
    expect((await api('regionedit', { title, address, phone, area, logo_url, region_img, copyright }, token)).return_code).toBe('SUCCESS');
  });

  it('answers a form left with an empty required field with its inline messages and nothing else', async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/addroom');
    const form = page.getByTestId('room-form');
    await form.waitFor();
    await page.getByTestId('room-title').fill('');
    await page.getByTestId('room-save').click();
    await form.getByText('请选择楼栋').waitFor();
    await form.getByText('请输入房号').waitFor();
    // no toast, no notice, nothing in the error log (the production build keeps one: its icon stays away)
    const nothingElse = async () => {
      await frames(page, 5);
      expect(await page.locator('.ant-message-notice, .ant-notification-notice').count()).toBe(0);
      expect(await page.getByTestId('error-log').count()).toBe(0);
    };
    await nothingElse();
    // a dialog's form too: the community's name emptied (reached in the page: the log lives in it)
    await page.getByTestId('top-menu-item-basis').click();
    await page.getByTestId('sidebar').getByText('小区资料').click();
    await page.getByTestId('region-edit').click();
    const dialog = page.getByTestId('region-form');
    await dialog.waitFor();
    await page.getByTestId('region-title').fill('');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.getByText('请输入小区名称').waitFor();
    await nothingElse();
  });

  it('speaks Chinese in the settings drawer and the default footer, its colours in one row', async () => {
    const page = await newPage();
    await signIn(page, 'leader');
    // the group's own copyright (系统设置 on the group side), or the default footer without one
    const { copyright } = (await api<{ copyright: string }>('groupsysinfo', {}, await apiLogin('leader'), 'group')).data;
    await expect.poll(() => page.getByTestId('footer').innerText()).toBe(copyright || '版权所有 © 物业管理平台');
    await topBar(page, 'settings-toggle');
    const drawer = page.getByTestId('settings-drawer');
    await stable(page, drawer);
    const words = await drawer.innerText();
    for (const label of ['主题色', '显示标签页', '固定顶栏', '侧边栏显示标志', '布局大小']) expect(words).toContain(label);
    expect(words).not.toMatch(/[A-Za-z]/);
    // the eight colours side by side, at equal steps
    const boxes = await page.getByTestId('theme-swatch').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
    expect(boxes).toHaveLength(8);
    expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
    const steps = new Set(boxes.slice(1).map((b, i) => Math.round(b.left - boxes[i]!.left)));
    expect(steps.size).toBe(1);
  });

  it("keeps the size selector's tooltip off its list on a wide screen, where the icons stay in the bar", async () => {
    const page = await newPage({ width: 1700, height: 900 });
    await signIn(page, 'admin');
    const size = page.locator('.right-menu [data-testid="size-select"]');
    // the bar lays its icons out once the session is known: an icon that came in under a still
    // mouse was never entered, so the pointer comes in afresh until the tooltip answers
    const tooltip = page.locator('.ant-tooltip:visible').filter({ hasText: '布局大小' });
    await stable(page, size);
    await expect
      .poll(async () => {
        await page.mouse.move(0, 0);
        await size.hover();
        return tooltip.waitFor({ timeout: 3000 }).then(
          () => true,
          () => false,
        );
      })
      .toBe(true);
    await size.click();
    const first = page.locator('[data-testid="size-option-default"]:visible');
    await stable(page, first);
    await expect.poll(() => page.locator('.ant-tooltip:visible').filter({ hasText: '布局大小' }).count()).toBe(0);
    // the option is the topmost thing where it is drawn: a click reaches it
    await first.click();
    await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'size')?.value).toBe('default');
  });

  it("names the page in the browser tab, gives the update log one crumb, and fills the home page with the day's work", async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/fees/feebilllist');
    await expect.poll(() => page.title()).toBe('账单列表 - 物业管理后台');
    await page.goto('/updatelog/updatelog');
    await expect.poll(() => crumbs(page)).toBe('首页/更新日志');
    await expect.poll(() => page.title()).toBe('更新日志 - 物业管理后台');
    // the log tells what the product does, release by release
    await expect.poll(() => page.getByTestId('release').count()).toBeGreaterThan(3);
    const log = await page.getByTestId('updatelog-page').innerText();
    for (const words of ['收银台', '房产管理', '业主管理', '续费', '退款', '导入', '列表页']) expect(log).toContain(words);

    await page.goto('/dashboard');
    const home = page.getByTestId('dashboard');
    await page.getByTestId('panel-todos').getByText('去处理').first().waitFor();
    await expect.poll(() => page.title()).toBe('首页 - 物业管理后台');
    // the days left once, on their card
    expect((await home.innerText()).match(/剩余天数/g)).toHaveLength(1);
    await expect.poll(() => page.getByTestId('dashboard-today').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} 星期[日一二三四五六]$/);
    // the first screen holds the pending to-dos and the shortcuts, and is filled by them
    for (const panel of ['panel-todos', 'panel-shortcuts']) {
      const box = (await page.getByTestId(panel).boundingBox())!;
      expect(box.y + box.height, panel).toBeLessThanOrEqual(900);
    }
    // the newest to-dos: the repair desk's (报修, or a technician's 维修待办 from the deadline clock)
    expect(
      (await page.getByTestId('panel-todos').locator('li .ant-tag').allInnerTexts()).some((k) => ['报修', '维修待办'].includes(k)),
    ).toBe(true);
    await page.getByTestId('panel-shortcuts').getByRole('button', { name: '账单列表' }).click();
    await page.waitForURL(/\/fees\/feebilllist$/);

    // the sidebar's title whole: no line of it cut, and in a tooltip too
    await page.goto('/dashboard');
    const title = page.getByTestId('sidebar-title');
    expect(await title.innerText()).toBe('阳光花园物业管理平台');
    expect(await title.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await page.getByTestId('sidebar-logo').hover();
    await page.locator('.ant-tooltip:visible').filter({ hasText: '阳光花园物业管理平台' }).waitFor();

    // the group's home page speaks of the group and its communities
    const leader = await newPage();
    await signIn(leader, 'leader');
    const welcome = leader.getByTestId('dashboard').locator('.ant-card').first();
    await expect.poll(() => welcome.innerText()).toMatch(/所属集团[:：]?\s*幸福里物业集团/);
    expect(await welcome.innerText()).not.toContain('小区');
    await expect.poll(() => leader.getByTestId('group-summary').innerText()).toMatch(/共 4 个小区/);
  });
});
