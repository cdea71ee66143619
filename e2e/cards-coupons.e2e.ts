import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chooseOption, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const NAME = `到店满50减8-${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

/** Types into a resource list's text filter and applies it. */
async function filterBy(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).fill(text);
  await page.getByTestId(testId).press('Enter');
}

journey(
  'member coupons: a template added, given to 1101’s owner, its code checked unchanged, another voided, its figures',
  ({ page: newPage }) => {
    let page: Page;
    let code = '';

    it('adds a 满50减8 template at 新增优惠券 and lists it', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/carpark/cardsadd');
      const form = page.getByTestId('membercoupon-form');
      await form.waitFor();
      await form.getByTestId('membercoupon-name').fill(NAME);
      await form.getByTestId('membercoupon-face_value').fill('8');
      await form.getByTestId('membercoupon-min_spend').fill('50');
      await form.getByTestId('membercoupon-valid_days').fill('30');
      await form.getByTestId('membercoupon-description').fill('到店消费满 50 元减 8 元');
      await settle(page);
      await screenshot(page, 'cards-coupon-form-1440');
      await page.getByTestId('membercoupon-save').click();
      await notice(page, '添加成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      await expect.poll(() => page.url()).toContain('/carpark/cardslist');
      const table = page.getByTestId('membercoupon-table');
      await filterBy(page, 'membercoupon-filter-name', NAME);
      await expect.poll(() => rowsOf(table).count()).toBe(1);
      const row = rowsOf(table).first();
      for (const text of ['满50减8', '满减券', '购物', '全部商户', '领取后 30 天', '不限', '启用'])
        expect(await row.textContent()).toContain(text);
      await settle(page);
      await screenshot(page, 'cards-coupons-1440');
    });

    it('gives it to 陈建国, 1101’s owner, found by his mobile', async () => {
      const row = rowOf(page.getByTestId('membercoupon-table'), NAME);
      await row.locator('[data-testid^="membercoupon-give-"]').click();
      const dialog = page.getByTestId('coupongive');
      await dialog.waitFor();
      await dialog.getByTestId('coupongive-members').click();
      await page.keyboard.type('13800138000');
      await chooseOption(page, page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '陈建国' }).first());
      // the list closes when the dialog's title is clicked, as a user leaves a dropdown
      await dialog.locator('.ant-modal-title').click();
      await expect.poll(() => dialog.getByTestId('coupongive-ok').textContent()).toContain('1 人');
      await settle(page);
      await screenshot(page, 'cards-coupon-give-1440');
      await dialog.getByTestId('coupongive-ok').click();
      await notice(page, '已发放 1 张').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => row.textContent()).toMatch(/已发放/);
    });

    it('shows it in 领券记录; checking its code says usable and changes nothing', async () => {
      await page.goto('/carpark/cardgetlists');
      const table = page.getByTestId('membercoupongiven-table');
      await rowsOf(table).first().waitFor();
      await filterBy(page, 'membercoupongiven-filter-keyword', '陈建国');
      const mine = rowOf(table, NAME);
      await expect.poll(() => mine.count()).toBe(1);
      expect(await mine.textContent()).toMatch(/未使用[\s\S]*后台发放|后台发放[\s\S]*未使用/);
      code = /[A-HJ-NP-Z2-9]{12}/.exec((await mine.textContent()) ?? '')![0];
      await page.getByTestId('couponverify-code').fill(code.toLowerCase());
      await page.getByTestId('couponverify-amount').fill('60');
      await page.getByTestId('couponverify-check').click();
      const result = page.getByTestId('couponverify-result');
      await expect.poll(() => result.textContent()).toContain('可以使用');
      expect(await result.textContent()).toContain('本单可优惠 8.00 元');
      expect(await result.textContent()).toContain('陈建国');
      await settle(page);
      await screenshot(page, 'cards-coupon-verify-1440');
      // checked, not used: still 未使用 after the list is read again
      await page.getByTestId('membercoupongiven-refresh').click();
      await expect.poll(() => mine.textContent()).toContain('未使用');
      // too small an order is refused in words
      await page.getByTestId('couponverify-amount').fill('49.99');
      await page.getByTestId('couponverify-check').click();
      await expect.poll(() => result.textContent()).toContain('不能使用：订单满 50.00 元才能使用该优惠券');
    });

    it('voids another of his unused coupons with a reason', async () => {
      const table = page.getByTestId('membercoupongiven-table');
      const other = rowsOf(table).filter({ hasText: '未使用' }).filter({ hasNotText: NAME }).first();
      await other.waitFor();
      const otherCode = /[A-HJ-NP-Z2-9]{12}/.exec((await other.textContent()) ?? '')![0];
      await other.locator('[data-testid^="membercoupongiven-void-"]').click();
      await page.getByTestId('couponvoid-ok').click();
      await page.getByText('请填写作废原因').waitFor();
      await page.getByTestId('couponvoid-reason').fill('业主要求作废');
      await page.getByTestId('couponvoid-ok').click();
      await notice(page, '已作废').waitFor();
      const voided = rowOf(table, otherCode);
      await expect.poll(() => voided.textContent()).toContain('已作废');
      expect(await voided.textContent()).toContain('业主要求作废');
      await settle(page);
      await screenshot(page, 'cards-coupon-given-1440');
    });

    it('shows the template’s figures and its coupon at 数据', async () => {
      await page.goto('/carpark/cardslist');
      const table = page.getByTestId('membercoupon-table');
      await filterBy(page, 'membercoupon-filter-name', NAME);
      await expect.poll(() => rowsOf(table).count()).toBe(1);
      await rowsOf(table).first().locator('[data-testid^="membercoupon-show-"]').click();
      await page.waitForURL(/\/carpark\/carshow\?id=\d+/);
      const figures = page.getByTestId('carshow-figures');
      await expect.poll(() => figures.textContent()).toMatch(/已发放1张[\s\S]*未使用1张[\s\S]*已使用0张/);
      const coupons = page.getByTestId('carshow-coupons');
      await expect.poll(() => rowsOf(coupons).count()).toBe(1);
      expect(await rowsOf(coupons).first().textContent()).toContain(code);
      await settle(page);
      await screenshot(page, 'cards-coupon-show-1440');
    });

    it('shows the overview report with its totals', async () => {
      await page.goto('/carpark/reportcardgenerallist');
      const report = page.getByTestId('couponreport-page');
      await rowsOf(report).first().waitFor();
      // the latest day comes first
      const days = (await rowsOf(report).allTextContents()).map((t) => t.slice(0, 10));
      expect(days).toEqual([...days].sort().reverse());
      await pick(page, 'couponreport-template', NAME, true);
      await report.getByTestId('table-page-search').click();
      await expect
        .poll(async () => (await rowsOf(report).allTextContents()).join('|'))
        .toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}${NAME}1`));
      await expect.poll(() => rowsOf(report).count()).toBe(1);
      await page.getByTestId('couponreport-figures').waitFor();
      await settle(page);
      await screenshot(page, 'cards-coupon-report-1440');
    });

    it('at 390×844 the coupon pages do not scroll sideways', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/carpark/cardslist');
      for (const [path, table, shot] of [
        ['/carpark/cardslist', 'membercoupon-table', 'cards-coupons-390'],
        ['/carpark/cardgetlists', 'membercoupongiven-table', 'cards-coupon-given-390'],
      ] as const) {
        await phone.goto(path);
        await rowsOf(phone.getByTestId(table)).first().waitFor();
        await settle(phone);
        expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
        await screenshot(phone, shot);
      }
    });
  },
);
