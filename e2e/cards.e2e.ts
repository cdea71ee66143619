import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const NAME = `业主卡${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

journey('member cards: a card template with points, as the property sets it and a merchant reads it', ({ page: newPage }) => {
  let page: Page;

  it('the manager adds a card valid a year after it is opened, earning 2 points a yuan, 100 points for ¥1.50', async () => {
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/carpark/cardinfo');
    const table = page.getByTestId('cardtemplate-table');
    await rowOf(table, '促销卡').waitFor();
    await page.getByTestId('cardtemplate-add').click();
    const form = page.getByTestId('cardtemplate-form');
    await form.waitFor();
    await form.getByTestId('cardtemplate-name').fill(NAME);
    await form.getByTestId('cardtemplate-notice').fill('结账时出示');
    await form.getByTestId('cardtemplate-validity').getByText('领取后N天').click();
    await form.getByTestId('cardtemplate-valid_days').fill('365');
    await form.getByTestId('cardtemplate-activation').getByText('生日').click();
    await form.getByTestId('cardtemplate-discount').fill('95');
    await form.getByTestId('cardtemplate-earn_per_yuan').fill('2');
    await form.getByTestId('cardtemplate-redeem_money').fill('1.50');
    await form.getByTestId('cardtemplate-expiry').getByText('滚动N个月').click();
    await form.getByTestId('cardtemplate-expiry_months').fill('12');
    await settle(page);
    await screenshot(page, 'cards-template-form-1440');
    await page.getByTestId('cardtemplate-save').click();
    await notice(page, '添加成功').waitFor();
    const row = rowOf(table, NAME);
    await row.waitFor();
    expect(await row.textContent()).toContain('开卡后 365 天');
    expect(await row.textContent()).toContain('每消费1元得2分；100分抵1.50元；12个月后过期');
    await settle(page);
    await screenshot(page, 'cards-templates-1440');
    const token = await apiLogin('admin');
    const listed = await api<{ items: Array<{ activation: string[]; discount: number }> }>('cardtemplatelist', { name: NAME }, token);
    expect(listed.data.items[0]).toMatchObject({ activation: ['mobile', 'name', 'birthday'], discount: 95 });
  });

  it('a second card of the same name is refused, and the form says why', async () => {
    await page.getByTestId('cardtemplate-add').click();
    const form = page.getByTestId('cardtemplate-form');
    await form.getByTestId('cardtemplate-name').fill(NAME);
    await page.getByTestId('cardtemplate-save').click();
    await page.locator('.ant-message-notice', { hasText: `会员卡「${NAME}」已存在` }).waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
  });

  it('the merchant reads the cards without 新增, 编辑 or 删除; at 390×844 the page does not scroll sideways', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'merchant', undefined, '/carpark/cardinfo');
    const table = phone.getByTestId('cardtemplate-table');
    await rowOf(table, NAME).waitFor();
    expect(await phone.getByTestId('cardtemplate-add').count()).toBe(0);
    expect(await table.getByText('编辑').count()).toBe(0);
    await settle(phone);
    await screenshot(phone, 'cards-templates-merchant-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
