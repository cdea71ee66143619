import { expect, it } from 'vitest';
import { rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, grouped, journey, signIn } from './support.js';

/**
 * The group head office reads this year's fee summary of its communities: 阳光花园's row as 阳光花园's
 * own 物业费收缴统计 counts it, the group total, a community's trend and its drill-down
 * (docs/product.md#group-fee-summary).
 */
journey('the group fee summary', ({ page: newPage }) => {
  it("shows each community's row and the group total, then a community's trend and report", async () => {
    const year = new Date(Date.now() + 8 * 3_600_000).getUTCFullYear();
    const range = { start_period: `${year}-01`, end_period: `${year}-12` };
    const own = await api('propertypaycount', range, await apiLogin('admin'));
    expect(own.return_code).toBe('SUCCESS');

    const page = await newPage();
    await signIn(page, 'leader', undefined, '/leader/feecount');
    const table = page.getByTestId('feesummary-table');
    const sunny = rowsOf(table).filter({ hasText: '阳光花园' });
    await expect.poll(() => sunny.count()).toBe(1);
    // 阳光花园's 当期应收 as its own report gives it for the year
    await expect.poll(() => sunny.textContent()).toContain(grouped(own.data.totals.receivable));
    const totals = page.getByTestId('feesummary-totals');
    await expect.poll(() => totals.textContent()).toContain('集团合计');
    // the formula of 收费率 on its header
    await table.locator('thead').getByTestId('feesummary-head-rate').hover();
    await expect.poll(() => page.locator('.ant-tooltip', { hasText: '收费率 = 当期实收 ÷ 当期应收' }).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'leader-feesummary-1440');

    // the trend of 阳光花园, month by month
    await sunny.locator('[data-testid^="feesummary-trend-"]').click();
    const drawer = page.locator('.ant-drawer-open').last();
    await expect.poll(() => drawer.locator('.ant-drawer-title').textContent()).toContain('阳光花园');
    const trend = drawer.getByTestId('feesummary-trend-table');
    await expect.poll(() => rowsOf(trend).count()).toBe(12);
    await expect.poll(() => rowsOf(trend).first().textContent()).toContain(`${year}-01`);
    await settle(page);
    await screenshot(page, 'leader-feesummary-trend-1440');

    // the drill-down: 阳光花园's 物业费收缴统计, totals as its own report's
    await drawer.getByRole('tab', { name: '物业费收缴统计' }).click();
    const detailTotals = drawer.getByTestId('feesummary-detail-totals');
    await expect.poll(() => detailTotals.textContent()).toContain(grouped(own.data.totals.received));
    expect(await rowsOf(drawer.getByTestId('feesummary-detail-table')).count()).toBeGreaterThan(0);
  });
});
