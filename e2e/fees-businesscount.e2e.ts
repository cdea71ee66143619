import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import type { BusinessCountAnswer } from '@wuye/contract/fees/businesscount';
import { api, apiLogin, grouped, journey, signIn } from './support.js';
import { settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';

/** 'YYYY-MM-DD' of today plus `days` in the business calendar (Asia/Shanghai), whatever the machine's zone. */
function businessDay(days = 0): string {
  return new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** The business month of today: its first and last days (本月). */
function businessMonth(): [string, string] {
  const first = `${businessDay().slice(0, 8)}01`;
  const d = new Date(`${first}T00:00:00Z`);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  return [first, last];
}

journey('fees: 营业统计 (/feecounts/businesscount) from the report home', ({ page: newPage }) => {
  it('admin follows the 营业统计 tile, reads the per-cashier table as the server counts it, picks 本月 and exports', async () => {
    const token = await apiLogin('admin');
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/feecounts');
    await page.waitForURL((u) => u.pathname === '/feecounts/pannelindex');
    await page.getByTestId('pannelindex-page').waitFor();
    await page.getByTestId('pannel-tile-/feecounts/businesscount').click();
    await page.waitForURL((u) => u.pathname === '/feecounts/businesscount');
    await page.getByTestId('businesscount-page').waitFor();

    // today, as the server counts it
    const day = businessDay();
    const todays = await api('businesscount', {}, token);
    expect(todays.return_code, todays.return_msg).toBe('SUCCESS');
    await expect.poll(() => page.getByTestId('businesscount-range-text').textContent()).toBe(day);
    const totals = page.getByTestId('businesscount-totals');
    await expect.poll(() => totals.textContent()).toContain(grouped(todays.data.totals.receipts_amount));
    if (todays.data.payees.length) await page.getByTestId('businesscount-total').waitFor();

    // 本月: the cashiers of the month, each with their pay methods and subtotal, and the days
    const [first, last] = businessMonth();
    const month = await api('businesscount', { start_date: first, end_date: last }, token);
    expect(month.return_code, month.return_msg).toBe('SUCCESS');
    expect(month.data.payees.length).toBeGreaterThan(0);
    await page.getByTestId('businesscount-preset').getByText('本月', { exact: true }).click();
    await expect.poll(() => page.getByTestId('businesscount-range-text').textContent()).toBe(`${first} 至 ${last}`);
    await expect.poll(() => totals.textContent()).toContain(grouped(month.data.totals.receipts_amount));
    await expect.poll(() => totals.textContent()).toContain(grouped(month.data.totals.net));
    const payees = page.getByTestId('businesscount-payees');
    const top = month.data.payees[0]!;
    await expect.poll(() => payees.textContent()).toContain(top.cashier_name);
    await expect.poll(() => payees.textContent()).toContain(grouped(top.receipts_amount));
    await page.getByTestId('businesscount-total').waitFor();
    // the demo's front-desk POS took part of a cashier's 银行卡: its own line under it
    const pos = (month.data as BusinessCountAnswer).payees.flatMap((p) => p.methods.flatMap((m) => m.ways))[0]!;
    expect(pos.name).toBe('POS机-工行');
    await expect.poll(() => payees.textContent()).toContain(`其中：POS机-工行${pos.receipts}${grouped(pos.receipts_amount)}`);
    const days = page.getByTestId('businesscount-days');
    await expect.poll(() => days.textContent()).toContain(month.data.days[0]!.day);
    await settle(page);
    await screenshot(page, 'fees-businesscount-1440');

    // the export downloads the same figures
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    expect(download.suggestedFilename()).toBe(`营业统计_${first}_${last}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync(await download.path()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows = Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1));
    expect(rows[0]).toEqual(['收款人', '支付方式', '收款笔数', '收款金额', '退款笔数', '退款金额', '作废笔数', '作废金额', '净收款']);
    expect(rows.find((r) => r[1] === '其中：POS机-工行')?.slice(2, 4)).toEqual([pos.receipts, pos.receipts_amount]);
    const total = rows.find((r) => r[0] === '合计')!;
    expect(total.slice(2, 4)).toEqual([month.data.totals.receipts, month.data.totals.receipts_amount]);
  });
});
