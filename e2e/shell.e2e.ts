import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { frames, stable } from './antd.js';
import { journey, journeyServer, signIn, topBar } from './support.js';

journey('console shell', ({ page: newPage }) => {
  it('sends a signed-out visitor to login with the full path kept, and back after signing in', async () => {
    const page = await newPage();
    await page.goto('/setup/backlog?status=E');
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirect') ?? '')).toBe('/setup/backlog?status=E');
    await page.getByTestId('login-form').waitFor();
    await screenshot(page, 'login-1440');
    await page.getByTestId('login-username').fill('  admin ');
    await page.getByTestId('login-password').fill('demo123456');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/setup\/backlog\?status=E/);
    // signed in, /login goes home
    await page.goto('/login');
    await page.waitForURL(/\/dashboard/);
    await page.goto('/no/such/page');
    await page.waitForURL(/\/404/);
  });

  it('signs in, shows the dashboard with the community, and signs out to login with redirect', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.waitForURL(/\/dashboard/);
    await expect.poll(() => page.getByTestId('dashboard-region').textContent()).toContain('阳光花园');
    await screenshot(page, 'dashboard-1440');
    await expect.poll(() => page.getByTestId('card-fees-month').textContent()).toMatch(/¥[\d,]+\.\d{2}/);
    const adminMonth = await page.getByTestId('card-fees-month').textContent();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-logout').click();
    await page.waitForURL(/\/login\?redirect=/);
    // another operator signing in in the same tab sees his own community's figures, not what the
    // previous session left in the page's memory
    await page.getByTestId('login-username').fill('cashier2');
    await page.getByTestId('login-password').fill('demo123456');
    await page.getByTestId('login-submit').click();
    // 翠湖苑 ends in 20 days: cashier2 is reminded once the session is known (the user menu is
    // behind it, however early or late it comes), and dismissing it offers the renewal
    await page.getByTestId('expiry-reminder').waitFor();
    await page.getByTestId('expiry-renew').click();
    const renewal = page.getByTestId('renewal-dialog');
    await stable(page, renewal);
    await page.keyboard.press('Escape');
    await renewal.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('dashboard-region').textContent()).toContain('翠湖苑');
    await expect.poll(() => page.getByTestId('card-fees-month').textContent()).toMatch(/¥[\d,]+\.\d{2}/);
    expect(await page.getByTestId('card-fees-month').textContent()).not.toBe(adminMonth);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-logout').click();
    await page.waitForURL(/\/login\?redirect=/);
    await page.goto('/dashboard');
    await page.waitForURL(/\/login/);
  });

  it('opens pages from the top menu and sidebar and keeps visited tabs', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.getByTestId('top-menu-item-basis').click();
    await page.waitForURL(/\/roomlist$/);
    await expect.poll(() => page.getByTestId('sidebar').textContent()).toContain('楼栋管理');
    await page.getByTestId('sidebar').getByText('楼栋管理').click();
    await page.waitForURL(/\/buildinglist$/);
    await page.goto('/setup/backlog');
    await page.getByTestId('backlog-status').waitFor();
    await page.goto('/updatelog/updatelog');
    await page.getByTestId('updatelog-page').waitFor();
    const tags = page.getByTestId('tag');
    await expect.poll(() => tags.count()).toBeGreaterThanOrEqual(3);
    // refresh one tab keeps the others
    await page.locator('[data-testid="tag"][data-path="/setup/backlog"]').click({ button: 'right' });
    await page.getByTestId('tag-menu-refresh').click();
    await page.waitForURL(/\/setup\/backlog/);
    await expect.poll(() => tags.count()).toBeGreaterThanOrEqual(3);
    // close others keeps the affix dashboard
    await page.locator('[data-testid="tag"][data-path="/setup/backlog"]').click({ button: 'right' });
    await page.getByTestId('tag-menu-close-others').click();
    await expect.poll(() => tags.count()).toBe(2);
    expect(await page.locator('[data-testid="tag"][data-affix="1"]').count()).toBe(1);
    // the list survives a reload
    await page.reload();
    await page.getByTestId('tags-view').waitFor();
    await expect.poll(() => tags.count()).toBe(2);
    // close all keeps the affix tab
    await page.locator('[data-testid="tag"][data-path="/setup/backlog"]').click({ button: 'right' });
    await page.getByTestId('tag-menu-close-all').click();
    await expect.poll(() => tags.count()).toBe(1);
    await page.waitForURL(/\/dashboard/);
  });

  it('draws a page whose menu entry the pointer reached without the loading spinner', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.getByTestId('top-menu-item-feecounts').click();
    await page.waitForURL(/\/feecounts\//);
    // the area's first page drawn: a spinner of its own, still loading (and kept hidden once
    // another tab shows), is not the one this looks for; the home page stays mounted, hidden
    // (keep-alive), with card titles of its own
    await page.locator('.ant-card-head-title:visible').first().waitFor();
    await expect.poll(() => page.locator('.page-loading').count()).toBe(0);
    const entry = page.getByTestId('sidebar').getByText('月度收费', { exact: true });
    // the pointer on the entry starts its page loading (router/lazyPage.tsx)
    const chunk = page.waitForResponse((r) => /\/assets\/MonthFees-[^/]+\.js$/.test(r.url()));
    await entry.hover();
    // the page's chunk imports others (the charts), so its module is there only once they all came
    // and ran, which on a busy machine can be well after its own file (one CI run clicked before):
    // importing the same file in the page resolves at that moment
    const url = (await chunk).url();
    await page.evaluate(`import(${JSON.stringify(url)}).then(() => true)`);
    // and the console's own loader (Vite's, which first fetches what the chunk needs) has had
    // every file it asked for and handed the module over: nothing left on the wire, a frame drawn
    await page.waitForLoadState('networkidle');
    await frames(page);
    await page.evaluate(`(() => {
      window.spinnerSeen = false;
      new MutationObserver(() => { if (document.querySelector('.page-loading')) window.spinnerSeen = true; })
        .observe(document.body, { childList: true, subtree: true });
    })()`);
    await entry.click();
    await page.waitForURL(/\/feecounts\/month_fees/);
    await page.locator('.ant-card-head-title', { hasText: '月度收费' }).waitFor();
    expect(await page.evaluate('window.spinnerSeen')).toBe(false);
  });

  it('keeps the size and settings after a reload, searches routes and switches language', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await topBar(page, 'size-select', 'size-option-small');
    await page.reload();
    await page.getByTestId('layout').waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'size')?.value).toBe('small');

    await topBar(page, 'settings-toggle');
    await page.getByTestId('settings-drawer').waitFor();
    await page.getByTestId('settings-tagsview').click();
    await expect.poll(() => page.getByTestId('tags-view').count()).toBe(0);
    await page.reload();
    await page.getByTestId('layout').waitFor();
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    await topBar(page, 'settings-toggle');
    await page.getByTestId('settings-tagsview').click();
    await page.keyboard.press('Escape');
    // the closing drawer hands focus back when its animation ends: a search opened before then loses it and closes
    await page.getByTestId('settings-drawer').waitFor({ state: 'hidden' });

    await page.getByTestId('route-search-toggle').click();
    const search = page.locator('[data-testid="route-search"] input:visible').first();
    await search.pressSequentially('待办');
    await page.locator('.ant-select-dropdown').filter({ hasText: '待办事项' }).waitFor({ state: 'attached' });
    await search.press('Enter');
    await page.waitForURL(/\/setup\/backlog/);

    await topBar(page, 'lang-select', 'lang-option-en');
    await expect.poll(() => page.getByTestId('top-menu').textContent()).toMatch(/Dashboard/i);
    await screenshot(page, 'dashboard-en-1440');
    await topBar(page, 'lang-select', 'lang-option-zh-CN');
    await expect.poll(() => page.getByTestId('top-menu').textContent()).toContain('首页');
  });

  it('prompts a weak password and changes it with the spec rules', async () => {
    const page = await newPage();
    await signIn(page, 'steward');
    await page.getByTestId('weak-password-dialog').waitFor();
    await screenshot(page, 'weak-password-1440');
    await page.getByTestId('weak-password-change').click();
    await page.getByTestId('change-password-dialog').waitFor();
    await page.getByTestId('change-password-new').fill('123');
    await page.getByTestId('change-password-confirm').fill('124');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => page.getByTestId('change-password-dialog').textContent()).toContain('密码长度为6 - 18个字符');
    await page.getByTestId('change-password-new').fill('Steward#2026');
    await page.getByTestId('change-password-confirm').fill('Steward#2027');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => page.getByTestId('change-password-dialog').textContent()).toContain('两次输入密码不一致!');
    await page.getByTestId('change-password-confirm').fill('Steward#2026');
    const old = page.getByTestId('change-password-old');
    if (await old.count()) await old.fill('demo123456');
    await page.getByTestId('change-password-submit').click();
    await page.locator('.ant-notification-notice').filter({ hasText: '成功' }).waitFor();
  });

  it('reminds of an expiry within 30 days once, and dismissing opens renewal', async () => {
    const page = await newPage();
    await signIn(page, 'cashier2');
    await page.getByTestId('expiry-reminder').waitFor();
    expect(await page.getByTestId('expiry-days').textContent()).toContain('20');
    await screenshot(page, 'expiry-reminder-1440');
    await page.getByTestId('expiry-renew').click();
    await page.getByTestId('renewal-dialog').waitFor();
    await page.getByTestId('renewal-price').waitFor();
    expect(await page.getByTestId('renewal-price').textContent()).toContain('2,400');
  });

  it('forces renewal on an ended community and completes it through the sandbox payment', async () => {
    const page = await newPage();
    await signIn(page, 'expired');
    const dialog = page.getByTestId('renewal-dialog');
    await dialog.waitFor();
    await page.getByTestId('renewal-forced-notice').waitFor();
    await page.keyboard.press('Escape');
    // a dialog that gave way to Escape would be leaving by the next frames: it stays, still
    await frames(page);
    await stable(page, dialog);
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.locator('.ant-modal-close').count()).toBe(0);
    await screenshot(page, 'renewal-forced-1440');
    const link = page.getByTestId('renewal-pay-link');
    await link.waitFor();
    const href = await link.getAttribute('href');
    const payPage = await page.context().newPage();
    await payPage.goto(href!);
    await payPage.getByTestId('sandbox-pay').click();
    await payPage.getByTestId('sandbox-paid').waitFor();
    await page.getByTestId('renewal-result').waitFor();
    expect(await page.getByTestId('renewal-result').textContent()).toContain('支付成功');
  });

  it('forces renewal and completes it with an activation code', async () => {
    const page = await newPage();
    await signIn(page, 'expired2');
    await page.getByTestId('renewal-dialog').waitFor();
    await page.getByTestId('renewal-mode-code').click();
    await page.getByTestId('renewal-actcode-submit').click();
    await expect.poll(() => page.getByTestId('renewal-dialog').textContent()).toContain('请填写激活码');
    // the demo's codes are random: the start-up banner printed them (e2e/global-setup.ts)
    const code = journeyServer().demoActivationCodes.at(-1);
    expect(code).toMatch(/^WY-/);
    await page.getByTestId('renewal-actcode-input').fill(code!);
    await page.getByTestId('renewal-actcode-submit').click();
    await page.getByTestId('renewal-result').waitFor();
    expect(await page.getByTestId('renewal-result').textContent()).toContain('激活成功');
  });

  it('works on a phone: the sidebar is a drawer and the top menu collapses', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'admin');
    await page.getByTestId('dashboard').waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await screenshot(page, 'dashboard-390');
    await page.getByTestId('hamburger').click();
    await stable(page, page.getByTestId('sidebar-mobile'));
    await screenshot(page, 'sidebar-390');
    const widthOk = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    expect(widthOk).toBe(true);
  });

  it('draws the home page on a reload before any script runs, where the console then draws it', async () => {
    const noTags = { tagsView: false, theme: '#13c2c2', showSettings: true, fixedHeader: true, sidebarLogo: true };
    for (const [viewport, settings] of [
      [DESKTOP, null],
      [PHONE, null],
      [DESKTOP, noTags],
    ] as const) {
      const page = await newPage(viewport);
      await signIn(page, 'admin');
      await page.waitForURL(/\/dashboard/);
      if (settings) {
        // settings kept in the browser reach the server from the next load on (the layout cookie)
        await page.evaluate((s) => localStorage.setItem('settings', JSON.stringify(s)), settings);
        await page.reload();
        await page.getByTestId('dashboard').waitFor();
      }
      // the scripts held back: what the page alone shows (server/src/http/first-screen.ts)
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.reload();
      await page.locator('#first-screen h2').waitFor();
      expect(await page.locator('#first-screen').innerText()).toMatch(/欢迎，张经理[\s\S]*当前小区[:：]?\s*阳光花园/);
      const drawn = await textBoxes(page, '#first-screen h2, #first-screen .fs-label, #first-screen .fs-crumb');
      const cards = await textBoxes(
        page,
        '#first-screen .fs-figure-title, #first-screen .fs-figure-value, #first-screen .fs-figure-footer, ' +
          '#first-screen .fs-panel-title, #first-screen .fs-arrears li, #first-screen .fs-panel',
      );
      expect(cards.join('\n')).toMatch(/本月实收（\d{4}-\d{2}） @[\s\S]*¥[\d,]+\.\d{2} @/);
      expect(await page.locator('#first-screen .fs-tags').isVisible()).toBe(!settings);
      await screenshot(page, `first-screen-${viewport.width}${settings ? '-no-tags' : ''}`);
      await page.unroute(/\/assets\/.*\.js$/);
      // the console draws its cards from the figures the page brought: it does not ask again
      const asked: string[] = [];
      page.on('request', (r) => {
        const method = r.method() === 'POST' ? (r.postDataJSON() as { method?: string } | null)?.method : undefined;
        if (method) asked.push(method);
      });
      await page.reload();
      await expect.poll(() => page.getByTestId('dashboard-region').textContent()).toBe('阳光花园');
      expect(await page.locator('#first-screen').count()).toBe(0);
      // the same words in the same places: nothing jumps when the console takes over
      expect(await textBoxes(page, '.dashboard h2, .dashboard .ant-descriptions-item-label, .app-breadcrumb')).toEqual(drawn);
      expect(
        await textBoxes(
          page,
          '.dashboard .ant-statistic-title, .dashboard .ant-statistic-content, [data-testid=dashboard-cards] .ant-card-body > div > div:nth-child(2), ' +
            '[data-testid=dashboard-cards] .ant-card-head-title, .dashboard-arrears li, [data-testid=dashboard-cards] .ant-card',
        ),
      ).toEqual(cards);
      expect(asked).not.toContain('feedashboard');
      expect(asked).not.toContain('backlog_list');
    }
  });
});

/** Text and rounded position of the visible elements matching a selector. */
function textBoxes(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((els) =>
    els
      .map((e) => ({ text: e.textContent, box: e.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0)
      .map(({ text, box }) => `${text} @${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
}
