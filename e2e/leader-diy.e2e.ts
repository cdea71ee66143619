import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pick, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGN4kaWDFTEMLQkAf/NfgaZ1GiMAAAAASUVORK5CYII=', 'base64');
const COMMUNITY = '翠湖苑';

const notice = (page: Page, text: string) => page.locator('.ant-notification').getByText(text).first().waitFor();

/** The blocks of the page being edited, in order: each one's type. */
const canvasTypes = (page: Page) =>
  page
    .getByTestId('diy-canvas')
    .locator('[data-testid^="diy-block-"][data-type]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));

/**
 * The head office lays out a community's owner-app home in the DIY editor (/setdiy/homeDIY on the
 * group side): a banner with an uploaded picture and an icon grid of services, published, then
 * previewed at a phone's width as that community's owners see it.
 */
journey('DIY pages: a community home with a banner and an icon grid, published and previewed', ({ page: newPage }) => {
  let page: Page;

  let token: string;
  let rid: number;

  it('builds the page from a banner and an icon grid and publishes it', async () => {
    token = await apiLogin('leader');
    const list = await api<{ regions: Array<{ rid: number; title: string }> }>('diypagelist', { kind: 'homeDIY' }, token, 'group');
    rid = list.data.regions.find((r) => r.title === COMMUNITY)!.rid;
    // a run before this one left the community a page of its own: back to the template (refused when there is none)
    await api('diypagedel', { kind: 'homeDIY', rid }, token, 'group');
    page = await newPage(DESKTOP);
    await signIn(page, 'leader', undefined, '/setdiy/homeDIY');
    await page.getByTestId('diy-canvas').waitFor();
    await pick(page, 'diy-scope', COMMUNITY);
    // a community without a page of its own shows the group's template, to start from
    await page.getByTestId('diy-inherits').waitFor();
    // start from an empty page
    while ((await canvasTypes(page)).length > 0) {
      await page.getByTestId('diy-block-0').click();
      await page.getByTestId('diy-block-0-remove').click();
    }

    await page.getByTestId('diy-add-banner').click();
    await expect.poll(() => canvasTypes(page)).toEqual(['banner']);
    await page.getByTestId('diy-block-0').click();
    // a new banner comes with its first picture's place
    if ((await page.getByTestId('diy-slide-0-image-file').count()) === 0) await page.getByTestId('diy-slide-add').click();
    await page.getByTestId('diy-slide-0-image-file').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    // the picture is on the canvas once uploaded
    await page.getByTestId('diy-block-0').locator('img').waitFor();

    await page.getByTestId('diy-add-grid').click();
    await expect.poll(() => canvasTypes(page)).toEqual(['banner', 'grid']);
    await page.getByTestId('diy-block-1').click();
    for (let n = 0; n < 3; n++) await page.getByTestId('diy-grid-add').click();
    await expect.poll(() => page.getByTestId('diy-block-1').textContent()).toContain('在线报修');
    const grid = (await page.getByTestId('diy-block-1').textContent()) ?? '';
    expect(grid).toContain('投诉建议');
    expect(grid).toContain('物业缴费');

    await page.getByTestId('diy-publish').click();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '发布后业主端立即显示新页面' });
    await confirm.waitFor();
    await confirm.locator('.ant-modal-confirm-btns button').last().click();
    await notice(page, '发布成功');
    await expect.poll(() => page.getByTestId('diy-status').textContent()).toContain('已发布版本');
    expect(await page.getByTestId('diy-inherits').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'leader-diy-editor-1440');
  });

  it('previews the published page at a phone width as the community owners see it', async () => {
    await page.getByTestId('diy-preview').click();
    await page.getByTestId('diy-preview-source').waitFor();
    const draft = page.getByTestId('diy-preview-draft');
    if ((await draft.getAttribute('aria-checked')) === 'true') await draft.click();
    await expect.poll(() => page.getByTestId('diy-preview-source').textContent()).toContain('已发布');
    expect(await page.getByTestId('diy-preview-source').textContent()).toContain('小区自己的页面');
    const phone = page.getByTestId('diy-preview-phone');
    await phone.getByTestId('diy-preview-phone-block-0').locator('img').waitFor();
    expect(await phone.getByTestId('diy-preview-phone-block-1').textContent()).toContain('在线报修');
    const box = await phone.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(400);
    await settle(page);
    await screenshot(page, 'leader-diy-preview-1440');

    // what the owner app reads is the same published page
    const shown = await api<{ blocks: Array<{ type: string }> }>('diypagepreview', { kind: 'homeDIY', rid }, token, 'group');
    expect(shown.data.blocks.map((b) => b.type)).toEqual(['banner', 'grid']);
  });

  it('fits a phone: the palette, canvas and properties stack', async () => {
    const small = await newPage(PHONE);
    await signIn(small, 'leader', undefined, '/setdiy/homeDIY');
    const canvas = small.getByTestId('diy-canvas');
    await canvas.waitFor();
    const palette = await small.getByTestId('diy-palette').boundingBox();
    const phone = await canvas.boundingBox();
    expect(phone!.y).toBeGreaterThan(palette!.y + palette!.height - 1);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await settle(small);
    await screenshot(small, 'leader-diy-390');
  });
});
