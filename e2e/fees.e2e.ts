import { expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { api, apiLogin, grouped, journey, signIn } from './support.js';
import { chartsStill, pick, pickRoom, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

const ITEM = '电梯费';
const BUILDING = '2号楼';
const UNIT = '1单元';
const ROOM = '801'; // 陈建国's second home (demo seed)
const ADDRESS = `${BUILDING}${UNIT}${ROOM}`;

journey('fees: item, binding, bills, cashier, receipt, refund, export', ({ page: newPage }) => {
  let page: Page;
  let paymentId = 0;
  let receiptNo = '';
  let paidTotal = '';
  let propertyRange = ''; // the 物业服务费 bill paid along with 电梯费

  it('sets up 电梯费 as a fixed monthly amount and binds it to 2号楼', async () => {
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/fees/feeitemlist');
    await page.waitForURL('**/fees/feeitemlist');
    await page.getByTestId('feeitem-add').click();
    await page.getByTestId('feeitem-form').waitFor();
    await pick(page, 'item-cost-type', '其他');
    await page.getByTestId('item-title').fill(ITEM);
    await page.getByTestId('item-pricing').getByText('固定金额').click();
    await page.getByTestId('item-price').fill('30');
    await settle(page);
    await screenshot(page, 'fees-item-form-1440');
    await page.getByTestId('item-save').click();
    await page.waitForURL('**/fees/feeitemlist');
    await expect.poll(() => page.getByTestId('feeitem-page').getByText(ITEM).count()).toBeGreaterThan(0);

    await page.goto('/fees/bindfee');
    await page.getByTestId('bind-add').click();
    await pick(page, 'bind-item', ITEM);
    await page.getByTestId('bind-scope').getByText('楼栋', { exact: true }).click();
    await pick(page, 'bind-targets', BUILDING);
    await page.keyboard.press('Escape');
    await page.getByTestId('bind-save').click();
    const bindRow = rowsOf(page.getByTestId('bindfee-page')).filter({ hasText: ITEM });
    await expect.poll(() => bindRow.count()).toBe(1);
    expect(await bindRow.textContent()).toContain(BUILDING);
    await settle(page);
    await screenshot(page, 'fees-bindfee-1440');
  });

  it('previews a month of bills for the 120 rooms of 2号楼, confirms and watches the progress reach done', async () => {
    await page.goto('/fees/feebillworkadd');
    await page.getByTestId('feebillworkadd-page').waitFor();
    await pick(page, 'gen-items', ITEM);
    await page.keyboard.press('Escape');
    await page.getByTestId('gen-preview').click();
    const preview = page.getByTestId('gen-preview-result');
    await expect.poll(() => preview.textContent()).toMatch(/120/);
    expect((await preview.textContent())?.replace(/,/g, '')).toContain('3600.00');
    await page.getByTestId('gen-confirm').click();
    const progress = page.getByTestId('gen-progress');
    await progress.waitFor();
    await expect.poll(() => progress.textContent(), { timeout: 30_000 }).toContain('已生成 120 张账单');
    expect(await progress.locator('.ant-progress-status-success').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'fees-generate-1440');
  });

  it('pays two unpaid bills of 2号楼1单元801 in cash at the cashier and prints the receipt in capitals', async () => {
    await page.goto('/desktop/cashier');
    await page.getByTestId('cashier-page').waitFor();
    await pickRoom(page, 'cashier-room', BUILDING, UNIT, ROOM);
    await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(ADDRESS);
    const bills = page.getByTestId('cashier-bills');
    const elevator = rowsOf(bills).filter({ hasText: ITEM });
    await expect.poll(() => elevator.count()).toBe(1);
    const property = rowsOf(bills).filter({ hasText: '物业服务费' }).first();
    // every bill starts selected: clear them, then pick the two
    await bills.locator('thead .ant-checkbox-input').click();
    expect(await bills.locator('tbody .ant-checkbox-checked').count()).toBe(0);
    await elevator.locator('.ant-checkbox-input').click();
    await property.locator('.ant-checkbox-input').click();
    propertyRange = /\d{4}-\d{2}-\d{2} ~ \d{4}-\d{2}-\d{2}/.exec((await property.textContent()) ?? '')![0];
    expect(await bills.locator('tbody .ant-checkbox-checked').count()).toBe(2);

    await page.getByTestId('cashier-pay-type').getByText('现金').click();
    // the figure reads ¥1,234.50
    const due = (await page.getByTestId('cashier-due').locator('.ant-statistic-content-value').textContent())?.replace(/[^\d.]/g, '') ?? '';
    expect(Number(due)).toBeGreaterThan(30);
    await settle(page);
    await screenshot(page, 'fees-cashier-1440');
    await page.getByTestId('cashier-confirm').click();
    // the summary to read before the money is taken
    const summary = page.getByTestId('cashier-summary');
    await expect.poll(() => summary.getByTestId('cashier-summary-rooms').textContent()).toBe(ADDRESS);
    expect(await summary.getByTestId('cashier-summary-pay-type').textContent()).toBe('现金');
    expect(await summary.getByTestId('cashier-summary-bills').textContent()).toContain(ITEM);
    await page.getByTestId('cashier-summary-ok').click();
    await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
    paymentId = Number(/receipt\/(\d+)/.exec(page.url())![1]);
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    await expect.poll(() => page.getByTestId('receipt-capital').textContent()).toMatch(/^[零壹贰叁肆伍陆柒捌玖拾佰仟万圆元角分整]+$/);
    expect(await receipt.textContent()).toContain(ADDRESS);
    receiptNo = /收据号：(\d+)/.exec((await receipt.textContent()) ?? '')![1]!;
    paidTotal = due;
    expect(await receipt.textContent()).toContain(`合计 ${due}`);
    await settle(page);
    await screenshot(page, 'fees-receipt-1440');
    await page.getByTestId('receipt-layout').getByText('80mm 小票').click();
    await expect.poll(() => page.getByTestId('receipt').textContent()).toContain('大写：');
    await page.getByTestId('receipt-layout').getByText('A5 收据').click();
  });

  it('shows the two bills paid in the bill list and in the owner drawer', async () => {
    await page.goto('/fees/feebilllist');
    await page.getByTestId('feebilllist-page').waitFor();
    await pickRoom(page, 'bill-place', BUILDING, UNIT, ROOM);
    await pick(page, 'bill-status', '已缴');
    await page.getByTestId('table-page-search').click();
    const table = page.getByTestId('feebilllist-page');
    const paid = rowsOf(table);
    const paidRow = async (title: string, range = '') =>
      (await paid.allTextContents()).filter((t) => t.includes(title) && t.includes(range) && t.includes('已缴')).length;
    await expect.poll(() => paidRow(ITEM)).toBe(1);
    await expect.poll(() => paidRow('物业服务费', propertyRange)).toBe(1);
    await settle(page);
    await screenshot(page, 'fees-billlist-1440');

    const token = await apiLogin('admin');
    const info = await api<{ items: Array<{ bill_id: number; title: string }> }>('paymentinfo', { id: paymentId }, token);
    expect(info.data.items.map((i) => i.title).sort()).toEqual([ITEM, '物业服务费'].sort());

    await page.getByTestId('navbar-owner-search').click();
    await page.getByTestId('owner-search-input').fill('13800138000');
    await page.getByTestId('owner-search-button').click();
    await page.getByTestId('owner-search-result').filter({ hasText: ADDRESS }).click();
    await page.getByTestId('owner-search-ok').click();
    const drawer = page.getByTestId('owner-drawer');
    await drawer.waitFor();
    await drawer.getByTestId('owner-house-tab').filter({ hasText: ADDRESS }).click();
    await drawer.getByTestId('owner-tab-bill').click();
    const tab = drawer.getByTestId('tab-bill');
    await expect.poll(async () => (await rowsOf(tab).allTextContents()).some((t) => t.includes(ITEM) && t.includes('已缴'))).toBe(true);
    await screenshot(page, 'fees-owner-drawer-bills-1440');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('refunds the payment after approval and the bills are unpaid again', async () => {
    await page.goto('/fees/payment');
    await page.getByTestId('payment-page').waitFor();
    await page.getByTestId('payment-receipt-no').fill(receiptNo);
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => rowsOf(page.getByTestId('payment-page')).count()).toBe(1);
    await page.getByTestId(`payment-refund-${paymentId}`).click();
    await expect.poll(() => page.getByTestId('refund-apply-bills').locator('.ant-checkbox-checked').count()).toBe(2);
    await page.getByTestId('refund-apply-reason').fill('业主重复缴费，申请退回');
    await settle(page);
    await screenshot(page, 'fees-refund-apply-1440');
    await page.getByTestId('refund-apply-save').click();
    await page.getByTestId('refund-apply-save').waitFor({ state: 'hidden' });
    // the receipt says where it stands, and offers no second request
    await expect.poll(() => page.getByTestId(`payment-status-${paymentId}`).textContent()).toBe('退款中');
    expect(await page.getByTestId(`payment-refund-${paymentId}`).count()).toBe(0);
    await settle(page);
    await screenshot(page, 'fees-payment-refunding-1440');

    // the one who asked sees the request as theirs, without the buttons to decide it
    await page.goto('/fees/refundlist');
    const own = rowsOf(page.getByTestId('refundlist-page')).filter({ hasText: receiptNo });
    await expect.poll(() => own.locator('[data-testid^="refund-mine-"]').textContent()).toBe('本人申请');
    expect(await own.locator('[data-testid^="refund-approve-"]').count()).toBe(0);

    // a second person decides it: the finance manager
    const finance = await newPage(DESKTOP);
    await signIn(finance, 'finance', undefined, '/fees/refundlist');
    const refunds = finance.getByTestId('refundlist-page');
    const mine = rowsOf(refunds).filter({ hasText: receiptNo });
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.textContent()).toContain(grouped(paidTotal));
    await mine.locator('[data-testid^="refund-approve-"]').click();
    await finance.getByTestId('refund-approve-remark').fill('核实无误');
    await finance.getByTestId('refund-approve-ok').click();
    await expect.poll(() => mine.textContent()).toContain('已退款');
    // the workflow's timeline: submitted, then approved with the remark
    await mine.locator('[data-testid^="refund-log-"]').click();
    const timeline = finance.getByTestId('refund-timeline');
    await expect.poll(() => timeline.textContent()).toContain('审核意见：核实无误');
    expect(await timeline.textContent()).toContain('提交');
    expect(await timeline.textContent()).toContain('同意退款');
    await settle(finance);
    await screenshot(finance, 'fees-refund-timeline-1440');
    await finance.keyboard.press('Escape');
    await timeline.waitFor({ state: 'hidden' });
    await settle(finance);
    await screenshot(finance, 'fees-refundlist-1440');

    const token = await apiLogin('admin');
    const info = await api<{ status: string }>('paymentinfo', { id: paymentId }, token);
    expect(info.data.status).toBe('R');
    await page.goto('/fees/feebilllist');
    await page.getByTestId('feebilllist-page').waitFor();
    await pickRoom(page, 'bill-place', BUILDING, UNIT, ROOM);
    await page.getByTestId('table-page-search').click();
    const rows = rowsOf(page.getByTestId('feebilllist-page'));
    await expect.poll(async () => (await rows.allTextContents()).find((t) => t.includes(ITEM))).toMatch(/待缴|已逾期/);
    expect((await rows.allTextContents()).find((t) => t.includes('物业服务费') && t.includes(propertyRange))).toMatch(/待缴|已逾期/);
  });

  it('exports the bill list of 801 and the workbook has the header and its rows', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('table-page-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^账单_.*\.xlsx$/);
    const file = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 6)).toEqual(['账单ID', '楼栋', '单元', '房号', '收费项目', '账期']);
    expect(header).toContain('状态');
    const rows: string[][] = [];
    ws.eachRow((row, n) => {
      if (n > 1) rows.push((row.values as unknown[]).slice(1).map(String));
    });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r[1] === BUILDING && r[2] === UNIT && r[3] === ROOM)).toBe(true);
    const elevator = rows.find((r) => r[4] === ITEM)!;
    expect(elevator[header.indexOf('金额')]).toBe('30.00');
    expect(elevator[header.indexOf('状态')]).toMatch(/待缴|已逾期/);
  });

  it('draws the fees report chart', async () => {
    await page.goto('/feecounts/fees_count');
    await expect.poll(() => page.locator('canvas').count()).toBeGreaterThan(0);
    await chartsStill(page); // the chart's animation over, for the screenshot
    await screenshot(page, 'fees-report-1440');

    // the report's export runs as a job too: the workbook has the report's columns and its total row
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^收费统计_\d{4}-\d{2}_\d{4}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync(await download.path()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
      '收费项目',
      '账期',
      '账单数',
      '应收',
      '实收',
      '欠费',
      '收缴率%',
      '已开票',
      '未开票',
    ]);
    expect(ws.rowCount).toBeGreaterThan(2);
    expect(ws.getRow(ws.rowCount).getCell(1).value).toBe('合计');
  });

  it('fits the cashier and the fee pages on a phone', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/desktop/cashier');
    await phone.getByTestId('cashier-page').waitFor();
    await pickRoom(phone, 'cashier-room', BUILDING, UNIT, ROOM);
    await phone.getByTestId('cashier-totals').waitFor();
    await settle(phone);
    const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(phone, 'fees-cashier-390');
    const pages: Array<[string, string]> = [
      ['/fees/feebilllist', 'feebilllist-page'],
      ['/fees/feebillworkadd', 'feebillworkadd-page'],
      ['/fees/payment', 'payment-page'],
      ['/fees/refundlist', 'refundlist-page'],
      ['/fees/feeitemlist', 'feeitem-page'],
      [`/fees/print/receipt/${paymentId}`, 'receipt'],
    ];
    const overflows: Record<string, number> = {};
    for (const [url, testId] of pages) {
      await phone.goto(url);
      await phone.getByTestId(testId).waitFor();
      await settle(phone);
      overflows[url] = await overflow();
      await screenshot(phone, `fees-390-${testId}`);
    }
    await phone.goto('/feecounts/fees_count');
    await expect.poll(() => phone.locator('canvas').count()).toBeGreaterThan(0);
    await settle(phone);
    overflows.report = await overflow();
    await screenshot(phone, 'fees-390-report');
    expect(Object.entries(overflows).filter(([, px]) => px > 0)).toEqual([]);
  });
});
