import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, apiLogin, journey, signIn, topBar } from './support.js';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

const COPYRIGHT = '© 2026 幸福里物业服务有限公司 · 设置测试';
/** The mini-program QR code, uploaded as a file: a 1×1 PNG. */
const QR_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

journey('setup: 系统设置, 日常设置 and 常用链接', ({ page: newPage }) => {
  let page: Page;
  let token: string;
  let before: Record<string, string>;
  /** where the uploaded QR code is served */
  let QR = '';

  it('sets the copyright and the mini-program QR code on 系统设置; the shell shows them at once', async () => {
    token = await apiLogin('admin');
    before = (await api('sysinfo', {}, token)).data;
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/setup/setsys');
    await page.getByTestId('setsys-page').waitFor();
    const copyright = page.getByTestId('setsys-copyright');
    await expect.poll(() => copyright.inputValue()).toBe(before.copyright);
    await settle(page);
    await screenshot(page, 'setup-setsys-1440');

    await copyright.fill(COPYRIGHT);
    await page.getByTestId('setsys-save-brand').click();
    await expect.poll(() => page.getByTestId('footer').innerText()).toBe(COPYRIGHT);

    await page.getByTestId('setsys-tab-download').click();
    const qr = page.getByTestId('setsys-wxapp_qrcodes');
    await qr.waitFor();
    // uploaded from a file: the address it is served at fills the field, its preview shows under it
    await page.getByTestId('setsys-wxapp_qrcodes-upload-file').setInputFiles({ name: 'wxapp.png', mimeType: 'image/png', buffer: QR_PNG });
    await expect.poll(() => qr.inputValue()).toMatch(/^\/files\/\d+\/[0-9a-f]{32}\.png$/);
    QR = await qr.inputValue();
    await page.getByTestId('setsys-wxapp_qrcodes-preview').waitFor();
    const served = await page.request.get(QR);
    expect(served.headers()['content-type']).toBe('image/png');
    await settle(page);
    await screenshot(page, 'setup-setsys-download-1440');
    await page.getByTestId('setsys-save-download').click();
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: `小程序二维码：（空） → ${QR}` })
      .waitFor();

    // the operation log keeps what changed, old → new
    const log = await api('operationloglist', { page: 1, limit: 2, action: 'setsysinfo', sort: 'desc' }, token);
    const messages = log.data.items.map((i: { message: string }) => i.message);
    expect(messages[0]).toContain(`小程序二维码：（空） → ${QR}`);
    expect(messages[1]).toContain(`版权信息：${before.copyright} → ${COPYRIGHT}`);
  });

  it('shows every user of the community the new footer and the QR code in the download tooltip', async () => {
    const cashier = await newPage(DESKTOP);
    await signIn(cashier, 'cashier');
    await expect.poll(() => cashier.getByTestId('footer').innerText()).toBe(COPYRIGHT);
    await topBar(cashier, 'app-download');
    const panel = cashier.locator('[data-testid="app-download-panel"]:visible');
    await panel.waitFor();
    expect(await panel.locator(`img[src="${QR}"]`).count()).toBe(1);
    // the demo's property app and one-card PC addresses are set too; the one-card mobile app's is not, so it is left out
    const text = await panel.innerText();
    expect(text).toContain('小程序码');
    expect(text).toContain('物业 APP');
    expect(text).not.toContain('一卡通手机');
    await settle(cashier);
    await screenshot(cashier, 'setup-setsys-tooltip-cashier-1440');
  });

  it('changes a daily switch, then puts it back to its default', async () => {
    await page.goto('/setup/setdaily');
    await page.getByTestId('setdaily-page').waitFor();
    const hours = page.getByTestId('setdaily-repair_finish_hours');
    // the demo community set 48 hours
    await expect.poll(() => hours.inputValue()).toBe('48');
    await hours.fill('36');
    await page.getByTestId('setdaily-save').click();
    await page.locator('.ant-notification-notice').filter({ hasText: '处理时限：48小时 → 36小时' }).waitFor();
    const value = async (key: string) =>
      (await api('setdailylist', {}, token)).data.items.find((i: { key: string }) => i.key === key).value;
    expect(await value('repair_finish_hours')).toBe(36);
    await settle(page);
    await screenshot(page, 'setup-setdaily-1440');
    await page.getByTestId('setdaily-reset-repair_finish_hours').click();
    await expect.poll(() => hours.inputValue()).toBe('24');
    expect(await value('repair_finish_hours')).toBe(24);
  });

  let linkId = 0;
  it('adds a common link to a page of the console; the top bar offers it and it opens the page', async () => {
    await page.goto('/setup/linklist');
    await page.getByTestId('link-page').waitFor();
    // the group's links, inherited, read only
    await expect.poll(() => page.getByTestId('grouplink-inherited').innerText()).toContain('集团门户');
    await page.getByTestId('link-add').click();
    await page.getByTestId('link-form').waitFor();
    await page.getByTestId('link-title').fill('每日待办');
    await page.getByTestId('link-kind').getByText('系统页面').click();
    await pick(page, 'link-url', '待办事项（/setup/backlog）', true);
    await page.getByTestId('link-target').getByText('当前页').click();
    await page.getByTestId('link-save').click();
    const table = page.getByTestId('link-table');
    await expect
      .poll(async () => (await rowsOf(table).allInnerTexts()).some((t) => t.includes('每日待办') && t.includes('待办事项')))
      .toBe(true);
    await settle(page);
    await screenshot(page, 'setup-linklist-1440');

    const links = await api('get_common_links', {}, token);
    linkId = links.data.items.find((l: { title: string }) => l.title === '每日待办').id;
    await page.getByTestId('navbar-links').click();
    const entry = page.getByTestId(`common-link-community-${linkId}`);
    await entry.waitFor();
    expect(await page.locator('.ant-dropdown:visible').innerText()).toContain('集团门户');
    await entry.click();
    await page.waitForURL((url) => url.pathname === '/setup/backlog');
  });

  it('fits a phone: the settings tabs and the links without a sideways scroll', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/setup/setsys');
    await phone.getByTestId('setsys-page').waitFor();
    await phone.getByTestId('setsys-copyright').waitFor();
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(phone, 'setup-setsys-390');
    await phone.goto('/setup/setdaily');
    await phone.getByTestId('setdaily-repair_finish_hours').waitFor();
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(phone, 'setup-setdaily-390');
    await phone.goto('/setup/linklist');
    await phone.getByTestId('link-page').waitFor();
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(phone, 'setup-linklist-390');
  });

  it('sets a lockout on the 安全 tab: the wrong passwords it allows lock the account, the right one included', async () => {
    await page.goto('/setup/setsys');
    await page.getByTestId('setsys-tab-security').click();
    await page.getByTestId('security-tab').waitFor();
    await page.getByTestId('security-own').click();
    const attempts = page.getByTestId('security-lockout_attempts');
    await attempts.waitFor();
    await attempts.fill('3');
    await settle(page);
    await screenshot(page, 'setup-setsys-security-1440');
    await page.getByTestId('setsys-save-security').click();
    await page.locator('.ant-notification-notice').filter({ hasText: '锁定前允许的错误次数：不启用 → 3' }).waitFor();

    const login = await newPage(DESKTOP);
    await login.goto('/login');
    const attempt = async (password: string) => {
      await login.getByTestId('login-username').fill('guard');
      await login.getByTestId('login-password').fill(password);
      const answered = login.waitForResponse((r) => r.url().endsWith('/webapi') && (r.request().postData() ?? '').includes('"login"'));
      await login.getByTestId('login-submit').click();
      return (await (await answered).json()) as { return_code: string; return_msg: string };
    };
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-password')).return_msg).toBe('用户名或密码错误');
    const locked = await attempt('demo123456');
    expect(locked.return_msg).toMatch(/^登录尝试过于频繁，请 .*分钟后再试$/);
    await login.getByText(locked.return_msg).first().waitFor();
    expect(new URL(login.url()).pathname).toBe('/login');
  });

  it('puts the settings back for the journeys after this one', async () => {
    expect((await api('setsecurity', { inherit: 'Y' }, token)).return_code).toBe('SUCCESS');
    const restored = await api('setsysinfo', { copyright: before.copyright, wxapp_qrcodes: before.wxapp_qrcodes }, token);
    expect(restored.return_code, restored.return_msg).toBe('SUCCESS');
    if (linkId) expect((await api('linkdel', { id: linkId }, token)).return_code).toBe('SUCCESS');
  });
});
