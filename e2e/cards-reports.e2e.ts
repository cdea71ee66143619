import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chartsStill, chooseOption, rowsOf, settle, stable } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { journey, signIn } from './support.js';

/** 1,234.50 → 1234.5 */
const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
const cellsOf = async (table: Locator, column: number) =>
  (await rowsOf(table).all()).length ? rowsOf(table).locator(`td:nth-child(${column})`).allInnerTexts() : [];

/** Picks a preset (本月, 上月, 本年…) of the report's date range. */
async function pickPreset(page: Page, label: string) {
  await page.getByTestId('card-report-range').first().click();
  const preset = page.locator('.ant-picker-dropdown:visible .ant-picker-presets li').filter({ hasText: label });
  await stable(page, preset);
  await preset.click();
  await expect.poll(() => page.locator('.ant-picker-dropdown:visible').count()).toBe(0);
}

/** Clicks the report's export and reads the workbook it downloads: its name, headers and rows. */
async function exported(page: Page, button: Locator) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync(await download.path()) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows = Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1));
  return { name: download.suggestedFilename(), headers: rows[0]!, rows: rows.slice(1) };
}

/** The page does not scroll sideways: only its tables do, inside themselves. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

journey('member card reports: 会员卡流水 with what the members hold, 优惠券核销, at 1440 and 390', ({ page: newPage }) => {
  let page: Page;

  it('会员卡流水 shows the liability figures and this month’s recharges and purchases by day, store and operator; exports them', async () => {
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts/cardlog');
    const liability = page.getByTestId('card-liability');
    await liability.waitFor();
    // the demo's members hold balances, points and coupons
    const sums = liability.getByTestId('card-liability-sums');
    await sums.waitFor();
    const figures = await sums.locator('td').allInnerTexts();
    expect(yuan(figures[2]!)).toBeGreaterThan(0);
    expect(yuan(figures[5]!)).toBeGreaterThan(0);
    expect(yuan(figures[7]!)).toBeGreaterThan(0);
    expect(await rowsOf(liability).allInnerTexts()).toContainEqual(expect.stringContaining('阳光花园会员卡'));

    // this month by day: the demo recharges and sells every day, today too
    const table = page.getByTestId('cardlog-table');
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
    const totals = page.getByTestId('cardlog-totals');
    await expect.poll(async () => yuan(await totals.locator('.ant-statistic').nth(4).textContent())).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid=cardlog-chart] canvas').count()).toBeGreaterThan(0);

    await page.getByTestId('cardlog-group').getByText('按商户').click();
    await expect.poll(() => cellsOf(table, 1)).toContain('物业服务中心');
    expect(await cellsOf(table, 1)).toContain('阳光便利店');
    // the recharges are the property counter's, the stores' rows are purchases
    const property = rowsOf(table).filter({ hasText: '物业服务中心' });
    expect(Number(await property.locator('td:nth-child(2)').innerText())).toBeGreaterThan(0);

    await page.getByTestId('cardlog-group').getByText('按操作人').click();
    await expect.poll(() => cellsOf(table, 1)).toContain('便利店老板');
    await chartsStill(page);
    await settle(page);
    await screenshot(page, 'cards-reports-cardlog-1440');
    await table.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'cards-reports-cardlog-table-1440');

    const file = await exported(page, page.getByTestId('report-export'));
    expect(file.name).toMatch(/^会员卡流水_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(file.headers.slice(0, 4)).toEqual(['操作人', '充值笔数', '充值实付', '充值赠送']);
    expect(file.rows.at(-1)![0]).toBe('合计');
    expect(file.rows.map((r) => r[0])).toContain('便利店老板');
  });

  it('优惠券核销 shows last month’s redemptions by day, coupon and store, each with its order; filters and exports', async () => {
    await page.goto('/feecounts/card_verification');
    await page.getByTestId('card-verification-page').waitFor();
    // the demo's coupons were used over the last 80 days
    await pickPreset(page, '上月');
    const totals = page.getByTestId('card-verification-totals');
    await expect.poll(async () => Number(await totals.locator('.ant-statistic-content').first().innerText())).toBeGreaterThan(0);
    const table = page.getByTestId('card-verification-table');
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
    const uses = page.getByTestId('card-verification-uses');
    await expect.poll(() => rowsOf(uses).count()).toBeGreaterThan(0);
    const link = rowsOf(uses).first().locator('a[href*="/carpark/orderinfo?order_no="]');
    expect(await link.count()).toBe(1);
    await chartsStill(page);
    await settle(page);
    await screenshot(page, 'cards-reports-verification-1440');
    await uses.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'cards-reports-verification-uses-1440');

    // one coupon: every row is that coupon's
    await page.getByTestId('card-verification-template').click();
    await chooseOption(
      page,
      page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '满100减10购物券' }).first(),
    );
    await expect.poll(async () => [...new Set(await cellsOf(table, 1))]).toEqual(['满100减10购物券']);
    await expect.poll(async () => [...new Set(await cellsOf(uses, 2))]).toEqual(['满100减10购物券']);

    const summary = await exported(page, page.getByTestId('report-export'));
    expect(summary.name).toMatch(/^优惠券核销汇总_/);
    expect(summary.headers).toEqual(['优惠券', '类型', '商户', '核销张数', '已退回', '订单金额', '优惠金额']);
    expect(summary.rows.at(-1)![0]).toBe('合计');
    const detail = await exported(page, page.getByTestId('card-verification-export-detail'));
    expect(detail.name).toMatch(/^优惠券核销明细_/);
    expect(detail.rows.length).toBe(Number(await totals.locator('.ant-statistic-content').first().innerText()));
    expect(new Set(detail.rows.map((r) => r[1]))).toEqual(new Set(['满100减10购物券']));
  });

  it('fits both reports on a phone', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/feecounts/cardlog');
    await phone.getByTestId('card-liability-sums').waitFor();
    await expect.poll(() => rowsOf(phone.getByTestId('cardlog-table')).count()).toBeGreaterThan(0);
    await phone.getByTestId('cardlog-group').getByText('按商户').click();
    await expect.poll(() => cellsOf(phone.getByTestId('cardlog-table'), 1)).toContain('物业服务中心');
    await chartsStill(phone);
    await settle(phone);
    expect(await fitsWidth(phone)).toBe(true);
    await screenshot(phone, 'cards-reports-cardlog-390');

    await phone.goto('/feecounts/card_verification');
    await phone.getByTestId('card-verification-page').waitFor();
    await pickPreset(phone, '上月');
    await expect.poll(() => rowsOf(phone.getByTestId('card-verification-uses')).count()).toBeGreaterThan(0);
    await chartsStill(phone);
    await settle(phone);
    expect(await fitsWidth(phone)).toBe(true);
    await screenshot(phone, 'cards-reports-verification-390');
  });
});
