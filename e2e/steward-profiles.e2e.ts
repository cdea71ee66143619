import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, apiLogin, journey, signInSteward } from './support.js';
import { animationsDone, pick, rowsOf, settle, stable } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

/** This month and quarter of the business calendar (Asia/Shanghai). */
const shanghai = new Date(Date.now() + 8 * 3_600_000);
const MONTH = shanghai.toISOString().slice(0, 7);
const QUARTER = `${shanghai.getUTCFullYear()}-Q${Math.floor(shanghai.getUTCMonth() / 3) + 1}`;

/** The <input> of a field marked with `testId` (antd puts the mark on the input or on its wrapper). */
async function inputOf(page: Page, testId: string) {
  const field = page.getByTestId(testId);
  return (await field.evaluate((e) => e.tagName)) === 'INPUT' ? field : field.locator('input');
}

journey(
  'steward: 管家档案 and 管家评分, a profile with weights, a score, the month and quarter ranking, details, export',
  ({ page: newPage }) => {
    let page: Page;
    let profileId = 0;

    it('lists the demo profiles', async () => {
      // the journey may run again on the same database: 郑会计's profile is made here
      const token = await apiLogin('admin');
      const old = await api<{ items: Array<{ id: number }> }>('stewardlist', { keyword: '郑会计' }, token);
      for (const r of old.data.items) await api('stewarddel', { id: r.id }, token);
      page = await newPage(DESKTOP);
      await signInSteward(page, '/steward/stewardlist');
      const table = page.getByTestId('steward-page');
      await table.waitFor();
      await expect.poll(() => rowsOf(table).filter({ hasText: '钱管家' }).count()).toBe(1);
      expect(await rowsOf(table).filter({ hasText: '钱管家' }).textContent()).toContain('1号楼、2号楼');
      await settle(page);
      await screenshot(page, 'steward-stewardlist-1440');
    });

    it('creates a profile: weights that do not total 100 % are refused, then saved', async () => {
      await page.getByTestId('steward-add').click();
      await page.waitForURL(/\/steward\/steadd$/);
      await page.getByTestId('steward-form').waitFor();
      await pick(page, 'steward-account', '郑会计（finance）', true);
      await page.getByTestId('steward-post').getByText('保洁').click();
      await page.getByTestId('steward-areas').click();
      const node = page.locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: /^6号楼$/ });
      await stable(page, node);
      await node.click();
      await page.keyboard.press('Escape');
      await page.getByTestId('steward-phone').fill('13912345678');
      await pick(page, 'steward-item-0', '服务态度');
      await (await inputOf(page, 'steward-weight-0')).fill('60');
      await page.getByTestId('steward-item-add').click();
      await pick(page, 'steward-item-1', '响应及时');
      await (await inputOf(page, 'steward-weight-1')).fill('30');
      await page.getByTestId('steward-intro').click();
      await expect.poll(() => page.getByTestId('steward-weight-total').textContent()).toContain('90%（须为 100%）');
      await page.getByTestId('steward-save').click();
      await page.getByText('考核项目的权重合计应为 100%，现为 90%').first().waitFor();
      expect(page.url()).toMatch(/\/steward\/steadd$/);
      await (await inputOf(page, 'steward-weight-1')).fill('40');
      await page.getByTestId('steward-intro').click();
      await expect.poll(() => page.getByTestId('steward-weight-total').textContent()).toBe('权重合计 100%');
      await settle(page);
      await screenshot(page, 'steward-steadd-1440');
      await page.getByTestId('steward-save').click();
      await page.waitForURL(/\/steward\/stewardlist/);
      const row = rowsOf(page.getByTestId('steward-page')).filter({ hasText: '郑会计' });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('6号楼');
      expect(await row.textContent()).toContain('服务态度 60%、响应及时 40%');
      profileId = Number(await row.getAttribute('data-row-key'));
    });

    it('edits it: the service phone', async () => {
      await page.getByTestId(`steward-edit-${profileId}`).click();
      await page.waitForURL(/\/steward\/steedit\?id=\d+$/);
      await expect.poll(() => page.getByTestId('steward-phone').inputValue()).toBe('13912345678');
      await expect.poll(() => page.getByTestId('steward-weight-total').textContent()).toBe('权重合计 100%');
      await page.getByTestId('steward-phone').fill('021-58881234');
      await page.getByTestId('steward-save').click();
      await page.waitForURL(/\/steward\/stewardlist/);
      const row = rowsOf(page.getByTestId('steward-page')).filter({ hasText: '郑会计' });
      await expect.poll(() => row.textContent()).toContain('021-58881234');
    });

    it('enters a household’s scores on the score page', async () => {
      await page.getByTestId(`steward-scores-${profileId}`).click();
      await page.waitForURL(/\/steward\/scorelist/);
      const table = page.getByTestId('score-table');
      await table.waitFor();
      // 查看评分 opens the profile's details: none yet this month
      await page.getByTestId('score-detail').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('score-detail').waitFor({ state: 'hidden' });
      await page.getByTestId('score-entry-open').click();
      await page.getByTestId('score-entry').waitFor();
      await animationsDone(page);
      await pick(page, 'score-entry-profile', '郑会计（保洁）', true);
      await page.getByTestId('score-entry-house').click();
      await page.keyboard.type('6号楼1单元');
      const house = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
      await stable(page, house);
      await house.click();
      const rates = page.locator('[data-testid^="score-entry-rate-"]');
      await expect.poll(() => rates.count()).toBe(2);
      // 服务态度 5 stars, 响应及时 2 stars: a low score
      await rates.nth(0).locator('li').nth(4).click();
      await rates.nth(1).locator('li').nth(1).click();
      await page.getByTestId('score-entry-content').fill('电话回访：保洁及时，但周末垃圾清运慢');
      await page.getByTestId('score-entry-save').click();
      await page.getByTestId('score-entry').waitFor({ state: 'hidden' });
      const row = rowsOf(table).filter({ hasText: '郑会计' });
      // 5 × 60 % + 2 × 40 % = 3.80; one household of the 6号楼's 120; one low score
      await expect.poll(() => row.textContent()).toContain('3.80');
      expect(await row.textContent()).toContain('1 / 120');
      await page.getByTestId(`score-low-${profileId}`).waitFor();
      // ranked among the demo's staff
      expect(await row.locator('td').first().textContent()).toMatch(/^\d+$/);
      await page.getByTestId('score-chart').waitFor();
      await settle(page);
      await screenshot(page, 'steward-scorelist-1440');
    });

    it('by quarter: the same weighted total, ranked; the details show the score and its text', async () => {
      await page.getByTestId('score-period-type').getByText('按季').click();
      await page.getByText(`管家评分 · ${QUARTER.slice(0, 4)}年第${QUARTER.slice(6)}季度`).waitFor();
      const row = rowsOf(page.getByTestId('score-table')).filter({ hasText: '郑会计' });
      await expect.poll(() => row.textContent()).toContain('3.80');
      const ranks = await rowsOf(page.getByTestId('score-table')).locator('td:first-child').allTextContents();
      expect(ranks.filter((r) => /^\d+$/.test(r)).length).toBeGreaterThanOrEqual(4);
      await page.getByTestId(`score-detail-${profileId}`).click();
      const detail = page.getByTestId('score-detail-table');
      await detail.waitFor();
      await expect.poll(() => rowsOf(detail).count()).toBe(2);
      expect(await detail.textContent()).toContain('电话回访：保洁及时');
      await page.getByTestId('score-detail-low').click();
      await expect.poll(() => rowsOf(detail).count()).toBe(1);
      expect(await rowsOf(detail).first().textContent()).toContain('响应及时');
      await settle(page);
      await screenshot(page, 'steward-scoredetail-1440');
      await page.keyboard.press('Escape');
      await page.getByTestId('score-detail').waitFor({ state: 'hidden' });
    });

    it('exports the quarter', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('score-export').click()]);
      expect(download.suggestedFilename()).toBe(`管家评分_${QUARTER}.xlsx`);
    });

    it('fits a phone', async () => {
      const phone = await newPage(PHONE);
      await signInSteward(phone, '/steward/scorelist');
      await phone.getByTestId('score-table').waitFor();
      await expect.poll(() => rowsOf(phone.getByTestId('score-table')).count()).toBeGreaterThan(0);
      await settle(phone);
      await screenshot(phone, 'steward-scorelist-390');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(MONTH).toMatch(/^\d{4}-\d{2}$/);
    });
  },
);
