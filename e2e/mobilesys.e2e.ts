import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn, signInSteward, stewardToken } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const BANNER = `横幅${RUN}`;
const ARTICLE = `文章${RUN}`;
// a 1×1 PNG: the cover an upload sends
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The form's online date: today, from the picker's footer. */
async function today(page: Page, testId: string) {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-picker-dropdown:visible .ant-picker-now-btn, .ant-picker-dropdown:visible .ant-picker-today-btn')
    .first()
    .click();
}

/** Publishes a row of the list by its title, through the confirmation; answers its id. */
async function publish(page: Page, title: string): Promise<number> {
  // the list narrowed to the title, as its address keeps the filters
  await page.goto(`/mobilesys/graphiclist?title=${encodeURIComponent(title)}`);
  const row = rowsOf(page.getByTestId('graphic-table')).filter({ hasText: title });
  await expect.poll(() => row.count()).toBe(1);
  expect(await row.innerText()).toContain('草稿');
  const button = row.locator('[data-testid^="graphic-publish-"]');
  const id = Number((await button.getAttribute('data-testid'))!.replace('graphic-publish-', ''));
  await button.click();
  await page.getByTestId('graphic-act-ok').click();
  await expect.poll(() => row.innerText()).toContain('已上线');
  return id;
}

journey('owner app: a banner and an article published to the home, a service switched off hides its menu', ({ page: newPage }) => {
  let page: Page;
  let bannerId = 0;
  let articleId = 0;

  it('adds a banner with its cover from the add address, opening 社区活动, and publishes it', async () => {
    page = await newPage(DESKTOP);
    // signed in at the list (the weak-password reminder comes first), then the spec's add address opens the form
    await signInSteward(page, '/mobilesys/graphiclist');
    await page.getByTestId('graphic-page').waitFor();
    await page.goto('/mobilesys/graphicadd');
    await page.getByTestId('graphic-form').waitFor();
    await page.getByTestId('graphic-title').fill(BANNER);
    await page.getByTestId('graphic-kind').getByText('轮播图').click();
    await page.getByTestId('graphic-cover-file').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('graphic-cover').locator('img').waitFor();
    await pick(page, 'graphic-link_type', '内置功能');
    await pick(page, 'graphic-link', '社区活动');
    await pick(page, 'graphic-placement', '首页顶部');
    await today(page, 'graphic-online_date');
    await screenshot(page, 'mobilesys-graphicadd-1440');
    await page.getByTestId('graphic-save').click();
    // saved, the add address gives way to the list
    await page.waitForURL(/\/mobilesys\/graphiclist$/);
    bannerId = await publish(page, BANNER);
  });

  it('writes an article in the editor and publishes it; 预览 shows it as the app does', async () => {
    await page.getByTestId('graphic-add').click();
    await page.getByTestId('graphic-form').waitFor();
    await page.getByTestId('graphic-title').fill(ARTICLE);
    await page.getByTestId('graphic-kind').getByText('文章').click();
    await page.getByTestId('notice-editor-area').click();
    await page.keyboard.type('本周六上午在小区广场举办义诊活动，欢迎业主参加。');
    await today(page, 'graphic-online_date');
    await page.getByTestId('graphic-save').click();
    await page.getByTestId('graphic-form').waitFor({ state: 'hidden' });
    articleId = await publish(page, ARTICLE);
    await page.getByTestId(`graphic-preview-${articleId}`).click();
    await expect.poll(() => page.getByTestId('graphic-preview').innerText()).toContain('义诊活动');
    await settle(page);
    await screenshot(page, 'mobilesys-graphic-preview-1440');
    await page.keyboard.press('Escape');
  });

  it('shows both on the home preview: the banner at the top, the article in the news, 社区活动 in the grid', async () => {
    await page.goto('/mobilesys/apppreview');
    await page.getByTestId(`apppreview-banner-${bannerId}`).first().waitFor({ state: 'attached' });
    await expect.poll(() => page.getByTestId(`apppreview-news-${articleId}`).innerText()).toContain(ARTICLE);
    expect(await page.getByTestId('apppreview-grid').innerText()).toContain('社区活动');
    await settle(page);
    await screenshot(page, 'mobilesys-apppreview-1440');
  });

  it('switches 社区活动 off at /apply: its menu hides on the home and is marked in the menu list; then on again', async () => {
    const admin = await newPage(DESKTOP);
    await signIn(admin, 'admin', undefined, '/apply/apply');
    await admin.getByTestId('apply-activity').waitFor();
    await admin.getByTestId('apply-switch-activity').click();
    // menus open it: asked first
    await admin.getByTestId('apply-off-ok').click();
    await expect.poll(() => admin.getByTestId('apply-activity').innerText()).toContain('未开通');
    await settle(admin);
    await screenshot(admin, 'apply-apply-1440');

    await admin.goto('/mobilesys/apppreview');
    // the warning comes with the home's data: an empty grid before it loads proves nothing
    await expect.poll(() => admin.getByTestId('apppreview-page').innerText()).toContain('指向未开通的应用，已隐藏');
    expect(await admin.getByTestId('apppreview-grid').innerText()).not.toContain('社区活动');

    await admin.goto('/mobilesys/menulist');
    const row = rowsOf(admin.getByTestId('appmenu-table')).filter({ hasText: '社区活动' }).first();
    await expect.poll(() => row.innerText()).toContain('已隐藏');

    await admin.goto('/apply/apply_info?code=activity');
    await admin.getByTestId('applyinfo-enabled').click();
    await admin.getByTestId('applyinfo-hours').fill('每天 9:00-21:00');
    await admin.getByTestId('applyinfo-save').click();
    await expect.poll(() => admin.getByTestId('applyinfo-logs').innerText()).toMatch(/开通；修改：服务时间[\s\S]*停用/);
    await settle(admin);
    await screenshot(admin, 'apply-apply_info-1440');
    const token = await apiLogin('admin');
    const home = await api<{ grid: Array<{ title: string }> }>('apphome', {}, token);
    expect(home.data.grid.map((m) => m.title)).toContain('社区活动');
  });

  it('reads the home preview and the list on a phone without a sideways scroll; withdraws the banner', async () => {
    const phone = await newPage(PHONE);
    await signInSteward(phone, '/mobilesys/apppreview');
    await phone.getByTestId('apppreview-phone').waitFor();
    await settle(phone);
    await screenshot(phone, 'mobilesys-apppreview-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width + 1);
    const withdrawn = await api('graphicwithdraw', { id: bannerId }, await stewardToken());
    expect(withdrawn.return_code).toBe('SUCCESS');
  });
});
