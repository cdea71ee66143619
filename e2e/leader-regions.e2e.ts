import { expect, it } from 'vitest';
import { rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { journey, signIn } from './support.js';

/**
 * The group head office renews several communities at once and sees its renewals summed per month
 * (docs/product.md#leader-regions).
 */
journey('the group’s communities and their renewals', ({ page: newPage }) => {
  it('extends two communities at once and finds both in the log and the month’s totals', async () => {
    const page = await newPage();
    await signIn(page, 'leader', undefined, '/leader/regions/regiondelaylog');
    const monthly = page.getByTestId('delaylog-monthly');
    await expect.poll(() => monthly.textContent()).toContain('全年合计');
    const yearCount = async () => Number(await rowsOf(monthly).last().locator('td').nth(1).textContent());
    const before = await yearCount();

    await page.goto('/leader/regions');
    const table = page.getByTestId('leader-region-table');
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(3);
    expect(await page.getByTestId('leader-region-delay-batch').isDisabled()).toBe(true);
    for (const title of ['老城小区', '东湖小区']) {
      await rowsOf(table).filter({ hasText: title }).locator('.ant-checkbox-input').check();
    }
    await page.getByTestId('leader-region-delay-batch').click();
    const dialog = page.getByRole('dialog', { name: '批量延期：2 个小区' });
    await expect.poll(() => dialog.getByTestId('leader-region-delay-list').textContent()).toMatch(/老城小区.*东湖小区|东湖小区.*老城小区/);
    await dialog.getByLabel('备注').fill('集团统一续约');
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    await page.locator('.ant-notification-notice', { hasText: '已为 2 个小区延期 12 个月' }).waitFor();
    await settle(page);
    await screenshot(page, 'leader-regions-1440');

    await page.goto('/leader/regions/regiondelaylog');
    const log = page.getByTestId('delaylog-table');
    await expect.poll(() => rowsOf(log).first().textContent()).toContain('集团统一续约');
    await expect.poll(yearCount).toBe(before + 2);
    await settle(page);
    await screenshot(page, 'leader-delaylog-1440');
  });
});
