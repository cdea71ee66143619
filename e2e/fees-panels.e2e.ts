import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, apiLogin, businessMonth, grouped, journey, signIn } from './support.js';
import { pick, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

journey('fees: the property fee panels (物业费收缴统计, 物业费欠费统计), 月度收缴明细 and 合并账单', ({ page: newPage }) => {
  let token: string;

  it('物业费收缴统计 shows the range by building and unit, totals as the server, and filters by building', async () => {
    token = await apiLogin('admin');
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts/propertypaycount');
    const card = page.getByTestId('propertypaycount-page');
    await card.waitFor();
    const all = await api('propertypaycount', { start_period: businessMonth(-2), end_period: businessMonth(0) }, token);
    expect(all.return_code).toBe('SUCCESS');
    expect(Number(all.data.totals.receivable)).toBeGreaterThan(0);
    const totals = page.getByTestId('paycount-totals');
    await expect.poll(() => totals.textContent()).toContain(grouped(all.data.totals.receivable));
    await settle(page);
    await screenshot(page, 'fees-propertypaycount-1440');

    await pick(page, 'paycount-building', '1号楼');
    const one = all.data.items.find((r: { tid: number; building_title: string }) => r.tid === 0 && r.building_title === '1号楼');
    await expect.poll(() => totals.textContent()).toContain(grouped(one.receivable));
    // the building's row unfolds into its units
    const rows = page.getByTestId('propertypaycount-table').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await expect.poll(() => rows.nth(1).textContent()).toContain('单元');
  });

  it('物业费欠费统计 ages the arrears, totals as the server, and a building opens its bills', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts/propertynopaycount');
    await page.getByTestId('propertynopaycount-page').waitFor();
    const res = await api('propertynopaycount', {}, token);
    expect(Number(res.data.totals.arrears)).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('nopaycount-totals').textContent()).toContain(grouped(res.data.totals.total));
    await settle(page);
    await screenshot(page, 'fees-propertynopaycount-1440');
    const first = res.data.items[0] as { bid: number };
    await page.getByTestId(`nopaycount-place-b${first.bid}`).click();
    await page.waitForURL((u) => u.pathname === '/fees/feebilllist' && u.searchParams.get('bid') === String(first.bid));
  });

  it('月度收缴明细 lists this month by room and item, totals as the server, and filters by status', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts/month_linting');
    const card = page.getByTestId('month-linting-page');
    await card.waitFor();
    const res = await api('month_linting', { period: businessMonth(0) }, token);
    expect(res.data.total).toBeGreaterThan(10);
    const totals = page.getByTestId('linting-totals');
    await expect.poll(() => totals.textContent()).toContain(grouped(res.data.totals.receivable));
    const rows = page.getByTestId('month-linting-table').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(10);
    await settle(page);
    await screenshot(page, 'fees-month-linting-1440');
    await pick(page, 'linting-item', '物业服务费');
    await pick(page, 'linting-status', '已缴');
    const things = await api('feethinglist', {}, token);
    const itemid = things.data.items.find((i: { title: string }) => i.title === '物业服务费').id;
    const paid = await api('month_linting', { period: businessMonth(0), itemid, status: 'Y' }, token);
    expect(paid.data.total).toBeGreaterThan(0);
    await expect.poll(() => totals.textContent()).toContain(grouped(paid.data.totals.received));
    expect(await rows.first().textContent()).toContain('物业服务费');
    await expect.poll(() => rows.first().textContent()).toContain('已缴');
  });

  it("合并账单 combines the demo owner's rooms with subtotals, and leads to the cashier desk", async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/fees/conbill');
    await page.getByTestId('conbill-page').waitFor();
    await page.getByTestId('conbill-search-input').fill('13800138000');
    await page.getByTestId('conbill-search').click();
    const result = page.getByTestId('conbill-search-result').filter({ hasText: '1号楼1单元1101' });
    await result.first().click();
    const hid = await result.first().getAttribute('data-hid');
    const res = await api('conbill', { hid: Number(hid) }, token);
    expect(res.data.rooms.length).toBe(2);
    await expect.poll(() => page.getByTestId('conbill-room').count()).toBe(2);
    await expect.poll(() => page.getByTestId('conbill-total').textContent()).toContain(grouped(res.data.totals.total));
    expect(await page.getByTestId('conbill-subtotal').first().textContent()).toBe(grouped(res.data.rooms[0].subtotal.total));
    await settle(page);
    await screenshot(page, 'fees-conbill-1440');
    await page.getByTestId('conbill-pay').click();
    await page.waitForURL((u) => u.pathname === '/desktop/cashier' && u.searchParams.get('hid') === String(res.data.hid));
  });

  it('both panels fit a phone without sideways scrolling', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'admin', undefined, '/feecounts/propertypaycount');
    await page.getByTestId('paycount-totals').waitFor();
    await settle(page);
    expect(await noSidewaysScroll(page)).toBe(true);
    await screenshot(page, 'fees-propertypaycount-390');
    await page.goto('/feecounts/propertynopaycount');
    await page.getByTestId('nopaycount-totals').waitFor();
    await settle(page);
    expect(await noSidewaysScroll(page)).toBe(true);
    await screenshot(page, 'fees-propertynopaycount-390');
    await page.goto('/feecounts/month_linting');
    await page.getByTestId('linting-totals').waitFor();
    await settle(page);
    expect(await noSidewaysScroll(page)).toBe(true);
    await screenshot(page, 'fees-month-linting-390');
    await page.goto('/fees/conbill');
    await page.getByTestId('conbill-search-input').fill('13800138000');
    await page.getByTestId('conbill-search').click();
    await page.getByTestId('conbill-search-result').first().click();
    await page.getByTestId('conbill-total').waitFor();
    await settle(page);
    expect(await noSidewaysScroll(page)).toBe(true);
    await screenshot(page, 'fees-conbill-390');
  });
});
