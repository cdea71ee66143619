import { expect, it } from 'vitest';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';
import { api, apiLogin, grouped, journey, signIn } from './support.js';

journey('fees: 营收报表 and 订单报表 (/feecounts/salesreports, /feecounts/orderlistreport)', ({ page: newPage }) => {
  it('admin opens 营收报表 from the report home, reads the lines and total, switches to 月; filters 订单报表 and exports it', async () => {
    const token = await apiLogin('admin');
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts/pannelindex');
    await page.getByTestId('pannelindex-page').waitFor();

    // the tile of the financecount group opens the report on this month
    await page.getByTestId('pannel-tile-/feecounts/salesreports').click();
    await page.waitForURL((u) => u.pathname === '/feecounts/salesreports');
    const report = page.getByTestId('salesreports-page');
    await report.waitFor();
    const sales = await api('salesreports', {}, token);
    expect(sales.return_code, sales.return_msg).toBe('SUCCESS');
    expect(Number(sales.data.total.received)).toBeGreaterThan(0);
    const lines = page.getByTestId('sales-lines');
    for (const l of sales.data.lines as Array<{ label: string }>) await lines.getByText(l.label, { exact: true }).waitFor();
    await expect.poll(() => rowsOf(lines).last().textContent()).toContain(grouped(sales.data.total.net));
    await expect.poll(() => rowsOf(lines).first().textContent()).toContain(grouped(sales.data.lines[0].received));
    // 计入实收 beside the net: the part paid by methods the group counts (余额 is not)
    await expect.poll(() => report.textContent()).toContain(grouped(sales.data.total.counted_net));
    await page.getByTestId('salesreports-chart').waitFor();
    await settle(page);
    await screenshot(page, 'fees-salesreports-1440');

    // by month: one row of this month and the total
    await page.getByTestId('sales-grain').getByText('月', { exact: true }).click();
    const grid = page.getByTestId('sales-grid');
    await grid.locator('thead').getByText('月份', { exact: true }).first().waitFor();
    await expect.poll(() => rowsOf(grid).count()).toBe(2);
    await expect.poll(() => rowsOf(grid).first().textContent()).toContain(sales.data.start_date.slice(0, 7));

    // 订单报表, filtered by 业务 and a receipt number: the summary follows the filters
    await page.goto(page.url().replace('/feecounts/salesreports', '/feecounts/pannelindex'));
    await page.getByTestId('pannel-tile-/feecounts/orderlistreport').click();
    await page.waitForURL((u) => u.pathname === '/feecounts/orderlistreport');
    await page.getByTestId('orderlistreport-page').waitFor();
    const all = await api('orderlistreport', {}, token);
    const summary = page.getByTestId('orderlist-summary');
    await expect.poll(() => summary.textContent()).toContain(grouped(all.data.summary.amount));
    // 计入实收: the orders paid by the methods the group counts, and their net; back to 全部
    const counted = await api('orderlistreport', { counted: 'Y' }, token);
    expect(counted.data.summary.count).toBeGreaterThan(0);
    await pick(page, 'orderlist-counted', '计入实收');
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => summary.textContent()).toContain(`笔数${(counted.data.summary.count as number).toLocaleString('en-US')}`);
    await expect.poll(() => summary.textContent()).toContain(grouped(counted.data.summary.counted_net));
    await pick(page, 'orderlist-counted', '全部');
    const fees = await api('orderlistreport', { line: 'fee' }, token);
    const receipt = fees.data.items[0] as { order_no: string; amount: string };
    const found = await api('orderlistreport', { line: 'fee', keyword: receipt.order_no }, token);
    expect(found.data.summary.count).toBeLessThan(all.data.summary.count);
    await pick(page, 'orderlist-line', '物业收费');
    await page.getByTestId('orderlist-keyword').fill(receipt.order_no);
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => summary.textContent()).toContain(grouped(found.data.summary.amount));
    await expect.poll(() => rowsOf(page.getByTestId('orderlistreport-page')).count()).toBe(found.data.items.length);
    await expect.poll(() => rowsOf(page.getByTestId('orderlistreport-page')).first().textContent()).toContain(receipt.order_no);

    // the export runs in the download centre's jobs, and stays there
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('table-page-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^订单报表_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    await expect.poll(() => page.getByTestId('export-progress').last().getAttribute('data-status')).toBe('success');
    await page.getByTestId('export-open-downloads').last().click();
    await page.waitForURL('**/setup/download');
    const exported = page.getByTestId('download-page').locator('.ant-table-row', { hasText: download.suggestedFilename() }).first();
    await expect.poll(() => exported.textContent()).toContain('可下载');
  });
});
