import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const CATEGORY = `礼品${RUN}`;
const GOODS = `纪念马克杯${RUN}`;
const SPEC = `${GOODS} / 标准装`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

/** The goods' row in the goods list, once it shows `stock` (库存 N of its one specification). */
async function goodsStock(page: Page, stock: number) {
  await page.goto('/carpark/goods');
  const row = rowOf(page.getByTestId('goods-table'), GOODS);
  await row.filter({ hasText: `标准装：100 积分 / 库存 ${stock}` }).waitFor();
}

/** Redeems the mall's new goods for 陈建国 of 1101 from the order list; answers the points he had before. */
async function redeemFor陈建国(page: Page, mode: '到物业自提' | '配送'): Promise<{ before: number; orderNo: string }> {
  await page.getByTestId('mallorder-redeem').click();
  const dialog = page.getByTestId('mallredeem');
  await dialog.waitFor();
  await page.getByTestId('mallredeem-search-input').fill('陈建国');
  await page.getByTestId('mallredeem-search').click();
  // he owns 1101 and 801: the search lists both, the counter picks his home
  await page.getByTestId('mallredeem-search-result').filter({ hasText: '1101' }).click();
  await expect.poll(() => dialog.getByTestId('mallredeem-house').textContent()).toContain('1101');
  await dialog.locator('[data-testid="mallredeem-member"]').filter({ hasText: '陈建国' }).waitFor();
  await pick(page, 'mallredeem-spec', `${SPEC} · 100 积分 · 库存 ${mode === '配送' ? 3 : 2}`, true);
  if (mode === '配送') {
    await dialog.getByTestId('mallredeem-mode').getByText('配送').click();
    await expect.poll(() => dialog.getByTestId('mallredeem-address').inputValue()).toContain('1101');
  }
  const summary = dialog.getByTestId('mallredeem-summary');
  await summary.waitFor();
  const text = (await summary.textContent()) ?? '';
  const before = Number(/现有 (\d+) 积分/.exec(text)?.[1]);
  expect(text).toContain(`兑换后剩 ${before - 100} 积分`);
  await settle(page);
  if (mode === '配送') await screenshot(page, 'cards-mall-redeem-1440');
  await page.getByTestId('mallredeem-ok').click();
  await notice(page, '兑换成功，扣除 100 积分').waitFor();
  await dialog.waitFor({ state: 'hidden' });
  // the new order opens in its drawer: its lines, its points, its timeline
  const detail = page.getByTestId('mallorder-detail');
  await detail.waitFor();
  expect(await detail.getByTestId('mallorder-detail-points').textContent()).toBe('100 积分');
  await page.getByTestId('mallorder-timeline').getByText('兑换', { exact: true }).waitFor();
  const title = (await page.locator('.ant-drawer-open .ant-drawer-title').last().textContent()) ?? '';
  const orderNo = /DH\d+/.exec(title)?.[0] ?? '';
  expect(orderNo).not.toBe('');
  return { before, orderNo };
}

journey('points mall: goods with a specification, redeemed for an owner, shipped, and one cancelled', ({ page: newPage }) => {
  let page: Page;
  let shippedNo = '';

  it('the manager adds a category and goods of one specification: 100 points, 3 in stock', async () => {
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/carpark/catelist');
    const cates = page.getByTestId('mallcate-table');
    await rowOf(cates, '生活用品').waitFor();
    await page.getByTestId('mallcate-add').click();
    const cateForm = page.getByTestId('mallcate-form');
    await cateForm.waitFor();
    await cateForm.getByTestId('mallcate-name').fill(CATEGORY);
    await page.getByTestId('mallcate-save').click();
    await notice(page, '添加成功').waitFor();
    await rowOf(cates, CATEGORY).waitFor();
    await settle(page);
    await screenshot(page, 'cards-mall-categories-1440');

    await page.goto('/carpark/goods');
    await rowOf(page.getByTestId('goods-table'), '维达抽纸').waitFor();
    await page.getByTestId('goods-add').click();
    const form = page.getByTestId('goods-form');
    await form.waitFor();
    await page.getByTestId('goods-images-file').setInputFiles({ name: 'mug.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('goods-images-remove-0').waitFor();
    await form.getByTestId('goods-name').fill(GOODS);
    await pick(page, 'goods-category_id', CATEGORY, true);
    await form.getByTestId('goods-specs-name-0').fill('标准装');
    await form.getByTestId('goods-specs-price-0').fill('25.00');
    await form.getByTestId('goods-specs-points-0').fill('100');
    await form.getByTestId('goods-specs-stock-0').fill('3');
    await form.getByTestId('goods-limit_per_member').fill('5');
    await settle(page);
    await screenshot(page, 'cards-mall-goods-form-1440');
    await page.getByTestId('goods-save').click();
    await notice(page, '添加成功').waitFor();
    const row = rowOf(page.getByTestId('goods-table'), GOODS);
    await row.waitFor();
    expect(await row.textContent()).toContain('100 积分');
    expect(await row.textContent()).toContain(CATEGORY);
    await goodsStock(page, 3);
    await settle(page);
    await screenshot(page, 'cards-mall-goods-1440');
  });

  it('redeems it for 陈建国 of 1101 to be delivered: his points drop by 100, the stock to 2; then it is shipped', async () => {
    await page.goto('/carpark/mallorderlist');
    const orders = page.getByTestId('mallorder-table');
    await rowsOf(orders).first().waitFor();
    const { before, orderNo } = await redeemFor陈建国(page, '配送');
    shippedNo = orderNo;
    const drawer = page.locator('.ant-drawer-open').last();
    expect(await drawer.textContent()).toContain('1号楼1单元1101');
    // 发货: the express company and number, then the order says 已发货 and its timeline 发货
    await drawer.locator('[data-testid^="mallorder-ship-"]').click();
    await page.getByTestId('mallorder-ship-express_company').fill('顺丰速运');
    await page.getByTestId('mallorder-ship-express_no').fill(`SF${RUN}0001`);
    await page.getByTestId('mallorder-ship-ok').click();
    await notice(page, '已发货').waitFor();
    await drawer.getByTestId('mallorder-timeline').getByText('发货', { exact: true }).waitFor();
    await drawer.getByTestId('mallorder-status').filter({ hasText: '已发货' }).waitFor();
    expect(await drawer.textContent()).toContain(`顺丰速运 SF${RUN}0001`);
    await settle(page);
    await screenshot(page, 'cards-mall-order-detail-1440');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    const row = rowOf(orders, orderNo);
    await row.filter({ hasText: '已发货' }).waitFor();
    expect(await row.textContent()).toContain(GOODS);
    // his points as the next redemption shows them: 100 fewer
    await page.getByTestId('mallorder-redeem').click();
    await page.getByTestId('mallredeem-search-input').fill('陈建国');
    await page.getByTestId('mallredeem-search').click();
    await page.getByTestId('mallredeem-search-result').filter({ hasText: '1101' }).click();
    await page
      .getByTestId('mallredeem')
      .locator('[data-testid="mallredeem-member"]')
      .filter({ hasText: `积分 ${before - 100}` })
      .waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('mallredeem').waitFor({ state: 'hidden' });
    await goodsStock(page, 2);
  });

  it('cancels a second order from the list: the stock comes back to 2', async () => {
    await page.goto('/carpark/mallorderlist');
    await rowOf(page.getByTestId('mallorder-table'), shippedNo).waitFor();
    const { orderNo } = await redeemFor陈建国(page, '到物业自提');
    await page.keyboard.press('Escape');
    await page.getByTestId('mallorder-detail').waitFor({ state: 'hidden' });
    await goodsStock(page, 1);
    await page.goto('/carpark/mallorderlist');
    const row = rowOf(page.getByTestId('mallorder-table'), orderNo);
    await row.filter({ hasText: '待自提' }).waitFor();
    // a shipped order offers no 取消
    expect(await rowOf(page.getByTestId('mallorder-table'), shippedNo).locator('[data-testid^="mallorder-cancel-"]').count()).toBe(0);
    await row.locator('[data-testid^="mallorder-cancel-"]').click();
    await page.getByTestId('mallorder-cancel-reason').fill('会员改选其他商品');
    await page.getByTestId('mallorder-cancel-ok').click();
    await notice(page, '订单已取消，积分和库存已退回').waitFor();
    await row.filter({ hasText: '已取消' }).waitFor();
    await settle(page);
    await screenshot(page, 'cards-mall-orders-1440');
    await goodsStock(page, 2);
  });

  it('at 390×844 the order list, the goods and the settings fit the phone', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/carpark/mallorderlist');
    await rowOf(phone.getByTestId('mallorder-table'), shippedNo).waitFor();
    await settle(phone);
    await screenshot(phone, 'cards-mall-orders-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await rowOf(phone.getByTestId('mallorder-table'), shippedNo).getByText('详情').click();
    await phone.getByTestId('mallorder-detail').waitFor();
    await phone.getByTestId('mallorder-timeline').getByText('发货', { exact: true }).waitFor();
    await settle(phone);
    await screenshot(phone, 'cards-mall-order-detail-390');
    await phone.keyboard.press('Escape');
    await phone.goto('/carpark/goods');
    await rowOf(phone.getByTestId('goods-table'), GOODS).waitFor();
    await phone.getByTestId('goods-add').click();
    await phone.getByTestId('goods-form').waitFor();
    await settle(phone);
    await screenshot(phone, 'cards-mall-goods-form-390');
    await phone.keyboard.press('Escape');
    await phone.goto('/carpark/shopmall');
    await phone.getByTestId('shopmall-form').waitFor();
    await expect.poll(() => phone.getByTestId('shopmall-address').inputValue()).not.toBe('');
    await settle(phone);
    await screenshot(phone, 'cards-mall-settings-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
