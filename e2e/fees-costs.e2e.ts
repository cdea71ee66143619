import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chartsStill, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const ITEM = `水箱清洗${RUN}`;
const PAYEE = `清源水务${RUN}`;
const AMOUNT = '2345.67';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
/** ¥12,345.60 or 12,345.60 as a number of fen */
const fenOf = (text: string | null) => Math.round(Number((text ?? '').replace(/[¥,\s元]/g, '')) * 100);

let finance = '';
const ok = async <T = any>(method: string, payload: Record<string, unknown>) => {
  const a = await api<T>(method, payload, finance);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};

journey('costs: an item, a cost with its receipt on the list and in 成本统计, voided and out of the sums', ({ page: newPage }) => {
  let page: Page;
  let itemId = 0;
  let costId = 0;
  const month = () => Number(new Date(Date.now() + 8 * 3600_000).toISOString().slice(5, 7));

  it('finance adds an item under 维修维护 in the cost item tree', async () => {
    finance = await apiLogin('finance');
    const nodes = await ok<{ items: Array<{ id: number; name: string; parent_id: number | null }> }>('costitem_small_list', {});
    const category = nodes.items.find((n) => n.parent_id === null && n.name === '维修维护')!;
    page = await newPage(DESKTOP);
    await signIn(page, 'finance', undefined, '/fees/costitemlist');
    const table = page.getByTestId('costitem-table');
    await rowOf(table, '电梯维保').waitFor();
    await page.getByTestId(`costitem-addsub-${category.id}`).click();
    const form = page.getByTestId('costitem-form');
    await form.waitFor();
    await form.getByTestId('costitem-name').fill(ITEM);
    await page.getByTestId('costitem-save').click();
    await notice(page, '添加成功').waitFor();
    await rowOf(table, ITEM).waitFor();
    itemId = (await ok<{ items: Array<{ id: number; name: string }> }>('costitem_small_list', {})).items.find((n) => n.name === ITEM)!.id;
    await settle(page);
    await screenshot(page, 'fees-costs-items-1440');
  });

  it('registers a cost on it with a photo of the receipt and sees it on the list with the sums', async () => {
    await page.goto('/fees/costdetaillist');
    await page.getByTestId('cost-table').waitFor();
    await page.getByTestId('cost-add').click();
    await page.waitForURL(/\/fees\/costadd/);
    await pick(page, 'cost-item_id', ITEM, true);
    await page.getByTestId('cost-amount').fill(AMOUNT);
    await page.getByTestId('cost-payee').fill(PAYEE);
    await page.getByTestId('cost-pay_method').getByText('支票').click();
    await page.getByTestId('cost-invoice_no').fill(`FP${RUN}`);
    await page.getByTestId('cost-attachments-file').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('cost-attachments').locator('img').first().waitFor();
    await settle(page);
    await screenshot(page, 'fees-costs-add-1440');
    await page.getByTestId('cost-save').click();
    await page.waitForURL(/\/fees\/costdetaillist/);
    await notice(page, '添加成功').waitFor();
    const table = page.getByTestId('cost-table');
    await rowOf(table, PAYEE).waitFor();
    const list = await ok<{ items: Array<{ id: number; handler: string; attachments: string[] }> }>('costdetaillist', { keyword: PAYEE });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ handler: '郑会计' });
    expect(list.items[0]!.attachments).toHaveLength(1);
    costId = list.items[0]!.id;
    // the item's costs: the sums are this one
    await page.goto(`/fees/costdetaillist?item_id=${itemId}`);
    await rowOf(table, PAYEE).waitFor();
    await expect
      .poll(async () => fenOf(await page.getByTestId('cost-sum-amount').locator('.ant-statistic-content').textContent()))
      .toBe(234567);
    await settle(page);
    await screenshot(page, 'fees-costs-list-1440');
  });

  let totalBefore = 0;
  it('成本统计 shows it in this month of its item, and the month opens the cost', async () => {
    await page.goto('/feecounts/costcount');
    const cell = page.getByTestId(`costcount-cell-i${itemId}-${month()}`);
    await cell.waitFor();
    expect(fenOf(await cell.textContent())).toBe(234567);
    totalBefore = fenOf(await page.getByTestId('costcount-total').textContent());
    const report = await ok<{ totals: { total: string } }>('costcount', {});
    expect(totalBefore).toBe(fenOf(report.totals.total));
    await page.getByTestId('costcount-donut').locator('canvas').waitFor();
    await settle(page);
    await chartsStill(page);
    await screenshot(page, 'fees-costs-count-1440');
    await cell.click();
    await page.waitForURL(/\/fees\/costdetaillist\?item_id=/);
    await rowOf(page.getByTestId('cost-table'), PAYEE).waitFor();
    expect(await rowsOf(page.getByTestId('cost-table')).count()).toBe(1);
  });

  it('voids it with a reason: it stays listed as 已作废, the sums and 成本统计 drop by its amount', async () => {
    await page.getByTestId(`cost-void-${costId}`).click();
    await page.getByTestId('cost-void-reason').fill('收款方发票抬头有误');
    await page.getByTestId('cost-void-ok').click();
    await notice(page, '已作废').waitFor();
    const table = page.getByTestId('cost-table');
    await rowOf(table, PAYEE).filter({ hasText: '已作废' }).waitFor();
    await expect.poll(async () => fenOf(await page.getByTestId('cost-sum-amount').locator('.ant-statistic-content').textContent())).toBe(0);
    await page.getByTestId('cost-sums').getByText('另有 1 笔已作废，不计入合计').waitFor();
    // 编辑 and 删除 are gone with 作废
    expect(await page.getByTestId(`cost-edit-${costId}`).count()).toBe(0);
    await page.getByTestId(`cost-info-${costId}`).click();
    await page.waitForURL(/\/fees\/costinfo\?id=/);
    await page.getByTestId('cost-void-alert').getByText('已作废：收款方发票抬头有误').waitFor();
    await page.getByTestId('cost-detail-photos').locator('img').first().waitFor();
    await page.getByTestId('cost-timeline').getByText('作废', { exact: true }).first().waitFor();
    await settle(page);
    await screenshot(page, 'fees-costs-info-1440');
    await page.goto('/feecounts/costcount');
    await page.getByTestId('costcount-table').waitFor();
    await expect.poll(async () => fenOf(await page.getByTestId('costcount-total').textContent())).toBe(totalBefore - 234567);
    expect(await page.getByTestId(`costcount-cell-i${itemId}-${month()}`).count()).toBe(0);
  });

  it('at 390×844 the pages fit the phone without sideways scrolling', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'finance', undefined, '/fees/costdetaillist');
    await phone.getByTestId('cost-table').waitFor();
    for (const [path, testId, name] of [
      ['/fees/costdetaillist', 'cost-table', 'list'],
      [`/fees/costinfo?id=${costId}`, 'cost-detail', 'info'],
      ['/fees/costadd', 'cost-form', 'add'],
      ['/fees/costitemlist', 'costitem-table', 'items'],
      ['/feecounts/costcount', 'costcount-table', 'count'],
    ] as const) {
      await phone.goto(path);
      await phone.getByTestId(testId).waitFor();
      await settle(phone);
      if (name === 'count') await chartsStill(phone);
      await screenshot(phone, `fees-costs-${name}-390`);
      expect(await noSidewaysScroll(phone), path).toBeLessThanOrEqual(0);
    }
  });
});
