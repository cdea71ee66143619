import { expect, it } from 'vitest';
import { api, apiLogin, journey, signIn } from './support.js';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';

/** 'YYYY-MM-DD' of today plus `days` in the business calendar (Asia/Shanghai), whatever the machine's zone. */
function businessDay(days = 0): string {
  return new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

journey('fees: 缴费明细 and 优惠记录 (/feecounts/feebillpaydata, /feecounts/discountlog)', ({ page: newPage }) => {
  it('admin follows the 缴费明细 tile, filters by a fee item and a receipt, exports, then opens an application of 优惠记录', async () => {
    const token = await apiLogin('admin');
    const range = { start_date: `${businessDay().slice(0, 8)}01`, end_date: businessDay() };
    // a property line of this month that counts (another journey may have voided the newest receipt),
    // with its item and receipt, as the server lists them
    const lines = await api('feebillpaydata', { ...range, cost_type: 'property', limit: 50 }, token);
    expect(lines.return_code, lines.return_msg).toBe('SUCCESS');
    const line = (lines.data.items as Array<{ status: string; receipt_no: string; title: string }>).find((l) => l.status === 'normal')!;
    const bill = await api('feebillpaydata', { ...range, keyword: line.receipt_no }, token);
    const items = await api('feethinglist', {}, token);
    const item = (items.data.items as Array<{ id: number; title: string }>).find((i) => i.title === line.title)!;
    const byItem = await api('feebillpaydata', { ...range, item_id: item.id }, token);
    const byBoth = await api('feebillpaydata', { ...range, item_id: item.id, keyword: line.receipt_no }, token);
    expect(byBoth.data.totals.count).toBeGreaterThan(0);
    expect(bill.data.total).toBeGreaterThan(0);

    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts');
    await page.waitForURL((u) => u.pathname === '/feecounts/pannelindex');
    await page.getByTestId('pannel-tile-/feecounts/discountlog').waitFor();
    await page.getByTestId('pannel-tile-/feecounts/feebillpaydata').click();
    await page.waitForURL((u) => u.pathname === '/feecounts/feebillpaydata');
    await page.getByTestId('feebillpaydata-page').waitFor();
    const count = page.getByTestId('paydata-count');
    const all = await api('feebillpaydata', range, token);
    await expect.poll(() => count.textContent()).toContain(String(all.data.totals.count));

    // a fee item: the totals follow the server's for it
    await pick(page, 'paydata-item', item.title);
    await expect.poll(() => count.textContent()).toContain(String(byItem.data.totals.count));
    // and a receipt number: its lines alone
    const keyword = page.getByTestId('paydata-keyword').locator('xpath=descendant-or-self::input');
    await keyword.fill(line.receipt_no);
    await keyword.press('Enter');
    await expect.poll(() => count.textContent()).toContain(String(byBoth.data.totals.count));
    const table = page.getByTestId('feebillpaydata-table');
    await expect.poll(() => rowsOf(table).count()).toBe(byBoth.data.items.length);
    for (const row of await rowsOf(table).all()) expect(await row.textContent()).toContain(line.receipt_no);
    await settle(page);
    await screenshot(page, 'fees-paydata-1440');

    // the filtered lines go to the download centre and come back as a workbook
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^缴费明细_.*\.xlsx$/);

    // 优惠记录: the demo's rejected application, its log in a drawer
    const rejected = await api('discountrecordlist', { ...range, status: 'rejected' }, token);
    const row = rejected.data.items[0];
    expect(row?.request_id).toBeGreaterThan(0);
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/feecounts/pannelindex');
    await page.getByTestId('pannel-tile-/feecounts/discountlog').click();
    await page.waitForURL((u) => u.pathname === '/feecounts/discountlog');
    await page.getByTestId('discountlog-page').waitFor();
    await page.getByTestId('discountlog-totals').waitFor();
    const open = page.getByTestId(`discountlog-open-${row.request_id}`);
    await open.waitFor();
    await expect.poll(() => page.getByTestId('discountlog-table').textContent()).toContain('已驳回');
    await open.click();
    const drawer = page.getByRole('dialog');
    await expect.poll(() => drawer.textContent()).toContain(`优惠申请 #${row.request_id}`);
    await expect.poll(() => drawer.textContent()).toContain('郑会计');
    await settle(page);
    await screenshot(page, 'fees-discountlog-1440');
  });
});
