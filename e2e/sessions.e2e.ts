import { expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, baseUrl, journey, signIn, topBar } from './support.js';

/**
 * No session token ever travels in an address (issue 33, item 7): the board window opens with a
 * one-time code traded for a read-only board session, /auth-redirect takes one-time codes and asks
 * before it replaces a signed-in account, and an account sees its sessions and ends them.
 */
journey('sessions, the board and the sign-in hand-over', ({ page: newPage }) => {
  it('opens the board with a one-time code for a read-only session of its own, never the session token', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.getByTestId('dashboard').waitFor();
    const token = (await page.context().cookies()).find((c) => c.name === 'Admin-Token')!.value;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const addresses: string[] = [];
    page.context().on('request', (r: Request) => addresses.push(r.url()));
    const opened = page.context().waitForEvent('page');
    await topBar(page, 'navbar-board');
    const board = await opened;
    await board.getByTestId('spectaculars').waitFor();
    await expect.poll(() => board.locator('.board-days').textContent()).toMatch(/剩余服务天数 \d+ 天/);
    await expect.poll(() => board.locator('.board-header h1').textContent()).toContain('阳光花园');
    // every widget reads its own figures and says when they are from; the month's money is the home card's
    for (const w of ['board-assets', 'board-money', 'board-orders', 'board-alerts', 'board-patrols', 'board-feed']) {
      await expect
        .poll(() => board.getByTestId(w).locator('.board-as-of').textContent(), { message: w })
        .toMatch(/数据时间 \d\d:\d\d:\d\d/);
    }
    const home = (await api('feedashboard', {}, token)).data;
    await expect.poll(() => board.getByTestId('board-money').textContent()).toContain(`${home.received}元`);
    await expect.poll(() => board.getByTestId('board-feed').locator('li').count()).toBeGreaterThan(0);
    // the code is gone from the address as soon as it was used
    expect(new URL(board.url()).pathname + new URL(board.url()).search).toBe('/spectaculars');
    expect(addresses.some((u) => u.includes(token))).toBe(false);
    const withCode = addresses.find((u) => /\/spectaculars\?code=[0-9a-f]{64}$/.test(u));
    expect(withCode).toBeTruthy();
    await screenshot(board, 'board-1440');
    // the window keeps its board session over a reload; the console's cookie is not the board's
    await board.reload();
    await board.getByTestId('spectaculars').waitFor();
    // the code works once: a copied address opens nothing
    const again = await newPage();
    await again.goto(withCode!);
    await expect.poll(() => again.getByTestId('spectaculars-closed').textContent()).toMatch(/链接无效或已过期/);
  });

  it('shows a group head office the ranking of its communities on its board', async () => {
    const leader = await apiLogin('leader');
    const { code } = (await api('boardcode', {}, leader, 'group')).data;
    const page = await newPage();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/spectaculars?code=${code}`);
    const ranking = page.getByTestId('board-ranking');
    await expect.poll(() => ranking.locator('tbody tr').count()).toBeGreaterThan(1);
    await expect.poll(() => ranking.textContent()).toContain('阳光花园');
    await expect.poll(() => page.getByTestId('board-group').textContent()).toMatch(/收费率\d+\.\d\d%/);
    await screenshot(page, 'board-group-1920');
  });

  it('hands a sign-in over only with a one-time code, and asks before replacing the signed-in account', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.getByTestId('dashboard').waitFor();
    const cashier = await apiLogin('cashier');
    const code = async () => (await api('authcode', {}, cashier)).data.code as string;
    const signedInAs = async () => {
      await page.getByTestId('user-menu').click();
      const name = await page.getByTestId('user-menu-name').textContent();
      await page.keyboard.press('Escape');
      return name;
    };
    // keeping the current account
    await page.goto(`/auth-redirect?code=${await code()}&redirect=/setup/backlog`);
    await page.getByTestId('auth-redirect-keep').click();
    await page.waitForURL(/\/dashboard/);
    expect(await signedInAs()).toBe('张经理');
    // switching, after being asked
    await page.goto(`/auth-redirect?code=${await code()}&redirect=/setup/backlog`);
    await page.getByTestId('auth-redirect-switch').waitFor();
    await settle(page);
    await screenshot(page, 'auth-redirect-ask-1440');
    await page.getByTestId('auth-redirect-switch').click();
    await page.waitForURL(/\/setup\/backlog/);
    expect(await signedInAs()).toBe('赵收银');
    // an address with a session token in it changes nothing
    await page.goto(`/auth-redirect?token=${await apiLogin('admin2')}&redirect=/setup/backlog`);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(await signedInAs()).toBe('赵收银');
    // a browser signed in nowhere takes the code without asking
    const fresh = await newPage();
    await fresh.goto(`/auth-redirect?code=${await code()}&redirect=/setup/backlog`);
    await fresh.waitForURL(/\/setup\/backlog/);
  });

  it("lists the account's sessions in 登录设备 and ends one of them", async () => {
    const elsewhere = await apiLogin('admin2');
    const page = await newPage();
    await signIn(page, 'admin2');
    await page.getByTestId('dashboard').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-sessions').click();
    const dialog = page.getByTestId('sessions-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    await settle(page);
    await screenshot(page, 'sessions-1440');
    const list = (await api('sessionlist', {}, elsewhere)).data.items as Array<{ id: number; current: boolean }>;
    const target = list.find((x) => x.current)!.id;
    await page.getByTestId(`session-end-${target}`).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /结\s*束/ })
      .click();
    await expect.poll(async () => (await api('userinfo', {}, elsewhere)).return_code).toBe('50008');
    // this browser goes on
    expect((await fetch(`${baseUrl()}/healthz`)).ok).toBe(true);
    await page.getByTestId('sessions-end-others').waitFor();
  });
});
