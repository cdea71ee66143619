import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's name: a journey may run again on the same database
const TITLE = `集团横幅${String(Date.now() % 100000).padStart(5, '0')}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGN4kaWDFTEMLQkAf/NfgaZ1GiMAAAAASUVORK5CYII=', 'base64');

/** A date field set to today from its picker's footer. */
async function today(page: Page, testId: string) {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-picker-dropdown:visible .ant-picker-now-btn, .ant-picker-dropdown:visible .ant-picker-today-btn')
    .first()
    .click();
}

/**
 * The head office puts a banner on every community's owner-app home for today (轮播图,
 * /apply/bannerlist on the group side); a community's 首页预览 shows it first, and the app's taps
 * are counted.
 */
journey('group banners: one banner for every community home, shown and its taps counted', ({ page: newPage }) => {
  let id = 0;

  it('adds a banner for all communities today from the list form', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'leader', undefined, '/apply/bannerlist');
    await page.getByTestId('banner-add').click();
    await page.getByTestId('banner-form').waitFor();
    await page.getByTestId('banner-title').fill(TITLE);
    await page.getByTestId('banner-image-file').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('banner-image').locator('img').waitFor();
    await today(page, 'banner-start_date');
    await today(page, 'banner-end_date');
    await page.getByTestId('banner-save').click();
    await page.getByTestId('banner-form').waitFor({ state: 'hidden' });
    const row = rowsOf(page.getByTestId('banner-table')).filter({ hasText: TITLE });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('展示中');
    expect(await row.innerText()).toContain('首页顶部');
    id = Number(await row.getAttribute('data-row-key'));
    expect(id).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'leader-banners-1440');
  });

  it("shows it on a community's home preview, before its own banners, and counts a tap", async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/mobilesys/apppreview');
    // the carousel draws copies of its slides at both ends for its loop: the slides themselves are read
    const slides = page.getByTestId('apppreview-phone').locator('.slick-slide:not(.slick-cloned) [data-testid^="apppreview-"]');
    await page.getByTestId(`apppreview-groupbanner-${id}`).first().waitFor({ state: 'attached' });
    const first = await slides.first().getAttribute('data-testid');
    expect(first).toMatch(/^apppreview-groupbanner-/);

    const admin = await apiLogin('admin');
    const tap = await api('bannerclick', { id }, admin);
    expect(tap.return_code, tap.return_msg).toBe('SUCCESS');
    const info = await api<{ clicks: number }>('bannerinfo', { id }, await apiLogin('leader'), 'group');
    expect(info.data.clicks).toBe(1);
  });
});
