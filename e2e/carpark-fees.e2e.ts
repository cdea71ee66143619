import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openFilters, pick, rowsOf, settle } from './antd.js';
import { PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// a lot of this run's own: the demo lots' standards priced the demo's stays and stay as they are
const RUN = String(Date.now() % 100000).padStart(5, '0');
const LOT = `收费旅程停车场${RUN}`;
const COUPON = '旅程减30分钟';
const PLATE = '沪K24680';

/** Tomorrow (a stay the new standard prices whatever the clock says now) as YYYY-MM-DD. */
const tomorrow = () => {
  const d = new Date(Date.now() + 8 * 3600_000 + 86400_000);
  return d.toISOString().slice(0, 10);
};

const modal = (page: Page) => page.locator('.ant-modal:visible').last();

/** Types a time into the DatePicker of a form item labelled `label` and confirms it. */
async function typeTime(page: Page, scope: ReturnType<Page['getByTestId']>, label: string, value: string) {
  const input = scope.locator('.ant-form-item').filter({ hasText: label }).locator('input').first();
  await input.click();
  await input.fill(value);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(value);
  await page.keyboard.press('Escape');
}

journey('carpark fees: a standard, the calculator, and a merchant’s coupons', ({ page: newPage }) => {
  let page: Page;

  it('adds a minutes-off coupon kind for the lot', async () => {
    const admin = await apiLogin('admin');
    const lot = await api('carparkadd', { code: `F${RUN}`, title: LOT, ground: 'U', total_spaces: 50 }, admin);
    expect(lot.return_code, lot.return_msg).toBe('SUCCESS');
    page = await newPage();
    await signIn(page, 'admin', undefined, '/carpark/parkcardlist');
    await page.getByTestId('parkcoupon-table').waitFor();
    await page.getByTestId('parkcoupon-add').click();
    const form = page.getByTestId('parkcoupon-form');
    await form.waitFor();
    await form.getByTestId('parkcoupon-title').fill(COUPON);
    await pick(page, 'parkcoupon-lot_id', LOT);
    await form.getByTestId('parkcoupon-kind').getByText('减时', { exact: true }).click();
    await form.getByTestId('parkcoupon-minutes').fill('30');
    await form.getByTestId('parkcoupon-price').fill('1.5');
    await form.getByTestId('parkcoupon-save').click();
    await form.waitFor({ state: 'hidden' });
    const row = rowsOf(page.getByTestId('parkcoupon-table')).filter({ hasText: COUPON });
    await expect.poll(() => row.textContent()).toContain('减30分钟');
  });

  it('adds the lot’s small-car standard: free 15 min, first hour ¥5, then ¥2 per 30 min, cap ¥30', async () => {
    await page.goto('/carpark/tempfee');
    const list = page.getByTestId('tempfee-list');
    await list.waitFor();
    const row = () => rowsOf(list).filter({ hasText: LOT }).filter({ hasText: '小型车' });
    expect(await row().count()).toBe(0);

    await page.getByTestId('tempfee-add').click();
    const form = page.getByTestId('tempfee-form');
    await form.waitFor();
    await pick(page, 'tempfee-lot', LOT);
    await pick(page, 'tempfee-car-type', '小型车');
    await form.getByTestId('tempfee-free').fill('15');
    await form.getByTestId('tempfee-first-minutes').fill('60');
    await form.getByTestId('tempfee-first-price').fill('5');
    await form.getByTestId('tempfee-step-minutes').fill('30');
    await form.getByTestId('tempfee-step-price').fill('2');
    await form.getByTestId('tempfee-cap').fill('30');
    await page.getByTestId('tempfee-save').click();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => row().textContent()).toContain('每30分钟 2.00 元');
    expect(await row().textContent()).toContain('1 个版本');
  });

  it('prices a 2 h 10 min weekday stay in the calculator, and less with a 30-minutes-off coupon', async () => {
    const calc = page.getByTestId('tempfee-calc');
    await pick(page, 'tempfee-calc-lot', LOT);
    await pick(page, 'tempfee-calc-car-type', '小型车');
    // the exit first: Enter in a field runs the calculator, and an exit before the entry is refused
    await typeTime(page, calc, '出场', `${tomorrow()} 11:10:00`);
    await typeTime(page, calc, '入场', `${tomorrow()} 09:00:00`);
    await calc.getByTestId('tempfee-calc-run').click();
    const due = page.getByTestId('tempfee-calc-due');
    await expect.poll(() => due.textContent()).toBe('¥11.00');
    expect(await page.getByTestId('tempfee-calc-normal').textContent()).toBe('5.00');
    expect(await page.getByTestId('tempfee-calc-over').textContent()).toBe('6.00');
    await settle(page);
    await screenshot(page, 'carpark-tempfee-calc-1440');

    await pick(page, 'tempfee-calc-coupons', `${COUPON}（减30分钟）`);
    await page.keyboard.press('Escape');
    await calc.getByTestId('tempfee-calc-run').click();
    await expect.poll(() => due.textContent()).toBe('¥9.00');
    expect(await page.getByTestId('tempfee-calc-coupons-off').textContent()).toContain('2.00');
  });

  it('a merchant buys 10 coupons and gives one to a plate; stock 9; another with none is told to buy', async () => {
    await page.goto('/carpark/parkcardlist');
    await page.getByTestId('parkcard-tab-stock').click();
    await page.getByTestId('coupon-buy').click();
    await pick(page, 'coupon-dialog-merchant', '邻里洗衣店');
    await pick(page, 'coupon-dialog-coupon', `${COUPON}（减30分钟）`);
    await modal(page).getByTestId('coupon-dialog-quantity').fill('10');
    await expect.poll(() => page.getByTestId('coupon-dialog-amount').textContent()).toContain('15.00 元');
    await page.getByTestId('coupon-dialog-ok').click();
    await modal(page).waitFor({ state: 'hidden' });
    const stock = rowsOf(page.getByTestId('coupon-stock')).filter({ hasText: '邻里洗衣店' }).filter({ hasText: COUPON });
    await expect.poll(() => stock.locator('[data-testid^="coupon-stock-left-"]').textContent()).toBe('10');

    await stock.locator('[data-testid^="coupon-stock-give-"]').click();
    await modal(page).getByTestId('coupon-dialog-plate').fill(PLATE);
    await page.getByTestId('coupon-dialog-ok').click();
    await modal(page).waitFor({ state: 'hidden' });
    await expect.poll(() => stock.locator('[data-testid^="coupon-stock-left-"]').textContent()).toBe('9');

    await page.getByTestId('coupon-give').click();
    await pick(page, 'coupon-dialog-merchant', '康乐大药房');
    await pick(page, 'coupon-dialog-coupon', `${COUPON}（减30分钟）`);
    await modal(page).getByTestId('coupon-dialog-plate').fill(PLATE);
    await page.getByTestId('coupon-dialog-ok').click();
    await page.locator('.ant-message-notice', { hasText: '停车劵不足，请购买' }).waitFor();
    await settle(page);
    await screenshot(page, 'carpark-parkcard-out-of-stock-1440');
    await page.keyboard.press('Escape');

    await page.getByTestId('parkcard-tab-orders').click();
    const order = rowsOf(page.getByTestId('coupon-orders')).filter({ hasText: '邻里洗衣店' }).filter({ hasText: COUPON });
    await expect.poll(() => order.textContent()).toContain('15.00');
  });

  it('the receivelist shows the plate’s coupon 已领取', async () => {
    await page.goto('/carpark/receivelist');
    const list = page.getByTestId('receive-page');
    await page.getByTestId('receive-plate').fill(PLATE);
    await page.getByTestId('table-page-search').click();
    const row = rowsOf(list).filter({ hasText: PLATE });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('已领取');
    expect(await row.textContent()).toContain('邻里洗衣店');
    const token = await apiLogin('admin');
    const res = await api<{ items: Array<{ state_ch: string }> }>('receivelist', { carlicense: PLATE }, token);
    expect(res.data.items.map((g) => g.state_ch)).toEqual(['已领取']);
  });

  it('a phone reads the receivelist', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/carpark/receivelist');
    await openFilters(phone);
    await phone.getByTestId('receive-plate').fill(PLATE);
    await phone.getByTestId('table-page-search').click();
    const row = rowsOf(phone.getByTestId('receive-page')).filter({ hasText: PLATE });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.isVisible()).toBe(true);
    await settle(phone);
    await screenshot(phone, 'carpark-receivelist-390');
  });
});
