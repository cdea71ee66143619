import { expect, it } from 'vitest';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's name: a journey may run again on the same database
const TITLE = `集团文章${String(Date.now() % 100000).padStart(5, '0')}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGN4kaWDFTEMLQkAf/NfgaZ1GiMAAAAASUVORK5CYII=', 'base64');

/**
 * The head office writes an article for 阳光花园 alone (图文管理, /mobile/graphiclist on the group
 * side) with a cover, publishes it and finds it in its list; 阳光花园's admin then sees it among the
 * news of the owner app's 首页预览.
 */
journey('group articles: one article for 阳光花园 published and shown on its home preview', ({ page: newPage }) => {
  let id = 0;

  it('adds an article for 阳光花园 only with a cover and publishes it', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'leader', undefined, '/mobile/graphiclist');
    await page.getByTestId('leadergraphic-add').click();
    await page.getByTestId('leadergraphic-form').waitFor();
    await page.getByTestId('leadergraphic-title').fill(TITLE);
    await pick(page, 'leadergraphic-category', '集团资讯');
    await page.getByTestId('leadergraphic-cover-file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('leadergraphic-cover').locator('img').waitFor();
    await page.getByTestId('leadergraphic-summary').fill('阳光花园的集团资讯');
    await page.getByTestId('notice-editor-area').click();
    await page.keyboard.type('集团为阳光花园业主准备的资讯正文。');
    await page.getByTestId('leadergraphic-region_scope').getByText('指定小区').click();
    await pick(page, 'leadergraphic-rids', '阳光花园');
    await page.keyboard.press('Escape');
    await page.getByTestId('leadergraphic-save').click();
    await page.getByTestId('leadergraphic-form').waitFor({ state: 'hidden' });

    const row = rowsOf(page.getByTestId('leadergraphic-table')).filter({ hasText: TITLE });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('草稿');
    expect(await row.innerText()).toContain('阳光花园');
    id = Number(await row.getAttribute('data-row-key'));
    expect(id).toBeGreaterThan(0);

    await page.getByTestId(`leadergraphic-publish-${id}`).click();
    await page.getByTestId('leadergraphic-act-ok').click();
    await page.locator('.ant-notification').getByText('发布成功').first().waitFor();
    await expect.poll(() => row.innerText()).toContain('已发布');
    expect(await row.locator('img').count()).toBeGreaterThan(0);

    // 预览 at a phone's width
    await page.getByTestId(`leadergraphic-preview-${id}`).click();
    const preview = page.getByTestId('leadergraphic-preview');
    await preview.waitFor();
    expect(await preview.innerText()).toContain('集团为阳光花园业主准备的资讯正文');
    expect((await preview.boundingBox())!.width).toBeLessThanOrEqual(420);
    await settle(page);
    await screenshot(page, 'leader-graphics-1440');
  });

  it("shows it on 阳光花园's home preview, and not on another community's", async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/mobilesys/apppreview');
    const item = page.getByTestId(`apppreview-groupnews-${id}`);
    await item.waitFor();
    expect(await item.innerText()).toContain(TITLE);
    expect(await item.innerText()).toContain('集团');
    await settle(page);
    await screenshot(page, 'leader-graphics-apppreview-1440');

    const other = await api<{ news: Array<{ id: number; source: string }> }>('apphome', {}, await apiLogin('admin2'));
    expect(other.data.news.some((n) => n.source === 'group' && n.id === id)).toBe(false);
  });
});
