import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const STORE = `街角面馆${RUN}`;
const USERNAME = `shop${RUN}`;
const FIRST_PASSWORD = 'Shop#2026';
const PASSWORD = 'Mine#2026';
const ACCOUNT_NO = '6222021234567890';
// an 8×8 orange square: the store's logo
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGN4kaWDFTEMLQkAf/NfgaZ1GiMAAAAASUVORK5CYII=', 'base64');
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

journey(
  'merchants and followers: a store with its settlement and login accounts, its owner signed in; followers synced and bound',
  ({ page: newPage }) => {
    let page: Page;

    it('the manager adds a store with a logo, a settlement account (shown masked once saved) and a login account', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/carpark/merchantlist');
      const table = page.getByTestId('merchant-table');
      await rowOf(table, '阳光便利店').waitFor();
      await page.getByTestId('merchant-add').click();
      const form = page.getByTestId('merchant-form');
      await form.waitFor();
      await page.getByTestId('merchant-logo-file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      await form.locator('.photos-tile img').waitFor();
      await form.getByTestId('merchant-merchant').fill(STORE);
      await pick(page, 'merchant-kind', '餐饮');
      await form.getByTestId('merchant-contact').fill('赵师傅');
      await form.getByTestId('merchant-phone').fill('021-58886688');
      await form.getByTestId('merchant-hours').fill('10:00-21:00');
      await form.getByTestId('merchant-address').fill('阳光花园东门商业街20号');
      await form.getByTestId('merchant-bank_name').fill('招商银行上海浦东支行');
      await form.getByTestId('merchant-bank_holder').fill(STORE);
      await form.getByTestId('merchant-bank_account_no').fill('6222 0212 3456 7890');
      await form.getByTestId('merchant-login_username').fill(USERNAME);
      await form.getByTestId('merchant-login_password').fill(FIRST_PASSWORD);
      await settle(page);
      await screenshot(page, 'cards-merchant-form-1440');
      await page.getByTestId('merchant-save').click();
      await notice(page, '添加成功').waitFor();
      const row = rowOf(table, STORE);
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('6222 **** **** 7890');
      expect(text).not.toContain(ACCOUNT_NO);
      expect(text).toContain(USERNAME);
      expect(text).toContain('餐饮');
      await settle(page);
      await screenshot(page, 'cards-merchants-1440');
      // the number never comes back, not even to the form
      await row.locator('[data-testid^=merchant-edit-]').click();
      await form.waitFor();
      expect(await form.getByTestId('merchant-bank_account_no').inputValue()).toBe('');
      expect(await form.getByTestId('merchant-bank_account_no').getAttribute('placeholder')).toContain('6222 **** **** 7890');
      expect(await form.getByTestId('merchant-login_username').isDisabled()).toBe(true);
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'hidden' });
      const listed = JSON.stringify(await api('merchantlist', { merchant: STORE }, await apiLogin('admin')));
      expect(listed).not.toContain(ACCOUNT_NO);
    });

    it('the requests of other communities’ stores wait in 服务申请; the store’s own served communities in 服务小区', async () => {
      await page.getByTestId('merchant-requests-open').click();
      const requests = page.getByTestId('merchant-requests-table');
      await requests.locator('.ant-list-item').filter({ hasText: '湖畔咖啡' }).filter({ hasText: '待审核' }).first().waitFor();
      await settle(page);
      await screenshot(page, 'cards-merchant-requests-1440');
      await page.keyboard.press('Escape');
      await page.getByTestId('merchant-requests').waitFor({ state: 'hidden' });
      const supermarket = rowOf(page.getByTestId('merchant-table'), '幸福里超市');
      await supermarket.locator('[data-testid^=merchant-services-]').click();
      await page
        .getByTestId('merchant-services-table')
        .locator('.ant-list-item')
        .filter({ hasText: '翠湖苑' })
        .filter({ hasText: '已通过' })
        .first()
        .waitFor();
      await settle(page);
      await screenshot(page, 'cards-merchant-services-1440');
      await page.keyboard.press('Escape');
      await page.getByTestId('merchant-services').waitFor({ state: 'hidden' });
    });

    it('the store’s account signs in, changes its first password, and sees the card pages only', async () => {
      const shop = await newPage(DESKTOP);
      await signIn(shop, USERNAME, FIRST_PASSWORD);
      await shop.getByTestId('change-password-dialog').waitFor();
      await shop.getByTestId('change-password-new').fill(PASSWORD);
      await shop.getByTestId('change-password-confirm').fill(PASSWORD);
      await shop.getByTestId('change-password-submit').click();
      await notice(shop, '成功').waitFor();
      await shop.goto('/carpark/cardinfo');
      await shop.getByTestId('cardtemplate-table').waitFor();
      const sidebar = shop.getByTestId('sidebar');
      await expect.poll(() => sidebar.innerText()).toContain('会员卡设置');
      const side = await sidebar.innerText();
      for (const hidden of ['商户管理', '公众号粉丝']) expect(side, hidden).not.toContain(hidden);
      const menu = await shop.getByTestId('top-menu').innerText();
      for (const hidden of ['收费管理', '业主管理', '团队管理']) expect(menu, hidden).not.toContain(hidden);
      await settle(shop);
      await screenshot(shop, 'cards-merchant-account-1440');
      await shop.goto('/carpark/merchantlist');
      await shop.waitForURL(/\/(401|404)$/);
      const token = await apiLogin(USERNAME, PASSWORD);
      expect((await api('merchantlist', {}, token)).return_code).toBe('NO_PERMISSION');
      expect((await api('wxfanslist', {}, token)).return_code).toBe('NO_PERMISSION');
    });

    it('syncs the followers from the sandbox and binds one to 陈建国 of 1101; 未授权 where there is no nickname', async () => {
      await page.goto('/carpark/wxfanslist');
      const table = page.getByTestId('wxfan-table');
      await rowsOf(table).first().waitFor();
      await page.getByTestId('wxfan-sync').click();
      await notice(page, /同步完成（沙箱）：共 36 位关注者/).waitFor();
      await expect.poll(() => table.locator('[data-testid^=wxfan-unauthorized-]').count()).toBeGreaterThan(0);
      const bind = table.locator('[data-testid^=wxfan-bind-]').first();
      const id = (await bind.getAttribute('data-testid'))!.replace('wxfan-bind-', '');
      await bind.click();
      const dialog = page.getByTestId('wxfan-bind-dialog');
      await dialog.waitFor();
      await page.getByTestId('wxfan-owner-search-input').fill('陈建国');
      await page.getByTestId('wxfan-owner-search').click();
      // he owns 1101 and 801: his home is picked, and he is the person chosen there
      await page.getByTestId('wxfan-owner-search-result').filter({ hasText: '1101' }).click();
      await dialog.getByTestId('wxfan-bind-member').filter({ hasText: '陈建国' }).waitFor();
      await settle(page);
      await screenshot(page, 'cards-wxfans-bind-1440');
      await page.getByTestId('wxfan-bind-ok').click();
      await notice(page, '已绑定业主陈建国').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const bound = table.locator('tr', { has: page.getByTestId(`wxfan-unbind-${id}`) });
      await bound.waitFor();
      expect(await bound.textContent()).toContain('1101');
      await settle(page);
      await screenshot(page, 'cards-wxfans-1440');
      // the owner's drawer shows his WeChat bound: the member says so
      const admin = await apiLogin('admin');
      const owners = await api<{ items: Array<{ realname: string; wx_isbind: string }> }>('memberlist', { name: '陈建国' }, admin);
      expect(owners.data.items.find((m) => m.realname === '陈建国')?.wx_isbind).toBe('Y');
      // a remark, then unbinding asks first
      await page.getByTestId(`wxfan-remark-${id}`).click();
      await page.getByTestId('wxfan-remark-text').fill('陈建国本人');
      await page.getByTestId('wxfan-remark-ok').click();
      await notice(page, '备注已保存').waitFor();
      await bound.filter({ hasText: '陈建国本人' }).waitFor();
      await page.getByTestId(`wxfan-unbind-${id}`).click();
      await page.locator('.ant-modal-confirm').filter({ hasText: '解除该粉丝与业主陈建国的绑定' }).waitFor();
      await page.getByTestId('wxfan-unbind-ok').click();
      await notice(page, '已解除与陈建国的绑定').waitFor();
      await table.getByTestId(`wxfan-bind-${id}`).waitFor();
    });

    it('at 390×844 the merchants and the followers do not scroll sideways', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/carpark/merchantlist');
      await rowOf(phone.getByTestId('merchant-table'), STORE).waitFor();
      await settle(phone);
      await screenshot(phone, 'cards-merchants-390');
      expect(await noSidewaysScroll(phone)).toBeLessThanOrEqual(0);
      await phone.goto('/carpark/wxfanslist');
      await rowsOf(phone.getByTestId('wxfan-table')).first().waitFor();
      await settle(phone);
      await screenshot(phone, 'cards-wxfans-390');
      expect(await noSidewaysScroll(phone)).toBeLessThanOrEqual(0);
    });
  },
);
