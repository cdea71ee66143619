import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chooseOption, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { xlsxUpload } from './files.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const CHANNEL = `测试海报${RUN}`;
const MEMBER = `领卡${RUN}`;
const MOBILE = `136${RUN}001`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
/** 1,234.50 → 1234.5 */
const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
/** The text box of an antd input marked with a test id (an AutoComplete marks its wrapper). */
const textBox = async (field: Locator) => ((await field.evaluate((e) => e.tagName)) === 'INPUT' ? field : field.locator('input'));

journey(
  'claim links: a card link with its QR, 代领 at the desk counts per channel; the card import with opening balances',
  ({ page: newPage }) => {
    let page: Page;
    let linkId = 0;
    let cardName = '';

    it('adds a card link for a poster channel and shows its QR code', async () => {
      const token = await apiLogin('admin');
      // a new tenant of some room, to claim the card for
      const rooms = await api<{ items: Array<{ id: number }> }>('roomlist', { page: 40, limit: 1 }, token);
      const added = await api(
        'memberadd',
        { realname: MEMBER, mobile: MOBILE, rooms: [{ hid: rooms.data.items[0]!.id, relation: 'tenant' }] },
        token,
      );
      expect(added.return_code, added.return_msg).toBe('SUCCESS');
      const templates = await api<{ items: Array<{ name: string; status: string }> }>('cardtemplatelist', { limit: 50 }, token);
      cardName = templates.data.items.find((t) => t.status === 'Y')!.name;

      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/carpark/cardslink');
      await page.getByTestId('cardslink-page').waitFor();
      await page.getByTestId('cardslink-channels').waitFor();
      await page.getByTestId('cardslink-add').click();
      const form = page.getByTestId('cardslink-form');
      await form.waitFor();
      await form.getByTestId('cardslink-card_template_id').click();
      await chooseOption(page, page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: cardName }).first());
      await (await textBox(form.getByTestId('cardslink-channel'))).fill(CHANNEL);
      await settle(page);
      await screenshot(page, 'cards-links-add-1440');
      await page.getByTestId('cardslink-save').click();
      await notice(page, '添加成功').waitFor();
      await form.waitFor({ state: 'hidden' });

      await (await textBox(page.getByTestId('cardslink-filter-channel'))).fill(CHANNEL);
      await page.getByTestId('cardslink-search').click();
      const table = page.getByTestId('cardslink-table');
      await expect.poll(() => rowsOf(table).count()).toBe(1);
      const row = rowsOf(table).first();
      for (const text of [cardName, CHANNEL, '投放中', '会员卡']) expect(await row.textContent()).toContain(text);
      linkId = Number(await row.getAttribute('data-row-key'));
      expect(await page.getByTestId(`cardslink-claims-${linkId}`).textContent()).toBe('0');
      await page.getByTestId(`cardslink-showqr-${linkId}`).click();
      const qr = page.getByTestId(`cardslink-qr-image-${linkId}`).locator('img');
      await qr.waitFor();
      expect(await page.getByTestId(`cardslink-qr-${linkId}`).textContent()).toMatch(/\/claim\/[A-Za-z0-9_-]{22}/);
      await settle(page);
      await screenshot(page, 'cards-links-qr-1440');
      await page.keyboard.press('Escape');
    });

    it('claims the card for the member at the desk (代领): the link and its channel count it', async () => {
      await page.getByTestId(`cardslink-claim-${linkId}`).click();
      const dialog = page.getByTestId('cardslink-claim');
      await dialog.waitFor();
      await page.getByTestId('cardslink-claim-search-input').fill(MOBILE);
      await page.getByTestId('cardslink-claim-search').click();
      await page.getByTestId('cardslink-claim-house').waitFor();
      await page.getByTestId('cardslink-claim-member').click();
      await chooseOption(page, page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: MEMBER }).first());
      await settle(page);
      await screenshot(page, 'cards-links-claim-1440');
      await page.getByTestId('cardslink-claim-ok').click();
      await notice(page, new RegExp(`已为 ${MEMBER} 领取会员卡`)).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByTestId(`cardslink-claims-${linkId}`).textContent()).toBe('1');
      expect(await page.getByTestId(`cardslink-today-${linkId}`).textContent()).toBe('1');
      const channel = page.getByTestId('cardslink-channel').filter({ hasText: CHANNEL });
      await expect.poll(() => channel.textContent()).toContain('领取 1');
      await settle(page);
      await screenshot(page, 'cards-links-1440');
    });

    it('imports two cards with opening balances: 会员列表 shows them with their balances', async () => {
      await page.goto('/carpark/carduslist');
      await page.getByTestId('membercard-page').waitFor();
      await page.getByTestId('card-import-open').click();
      await page.getByTestId('card-import').waitFor();
      await page.getByTestId('card-import-file').setInputFiles(
        await xlsxUpload(
          'cards.xlsx',
          ['卡号', '会员卡', '姓名', '手机号', '会员等级', '标签', '期初余额', '期初积分'],
          [
            [`IM${RUN}1`, cardName, '导入甲', `137${RUN}001`, '银卡会员', '老会员', '120.50', 200],
            [`IM${RUN}2`, cardName, '导入乙', `137${RUN}002`, '', '', '80', ''],
          ],
        ),
      );
      const success = page.getByTestId('card-import-success');
      await success.waitFor({ timeout: 30_000 });
      expect(await success.textContent()).toContain('开卡 2 张（新增会员 2 人），期初余额合计 200.50 元，期初积分合计 200');
      await settle(page);
      await screenshot(page, 'cards-import-1440');
      await page.keyboard.press('Escape');
      await page.getByTestId('card-import').waitFor({ state: 'hidden' });
      await page.getByTestId('membercard-filter-card_no').fill(`IM${RUN}`);
      await page.getByTestId('membercard-filter-card_no').press('Enter');
      const table = page.getByTestId('membercard-table');
      await expect.poll(() => rowsOf(table).count()).toBe(2);
      const balanceOf = async (name: string) =>
        yuan(await rowsOf(table).filter({ hasText: name }).locator('[data-testid^="card-balance-"]').textContent());
      expect(await balanceOf('导入甲')).toBe(120.5);
      expect(await balanceOf('导入乙')).toBe(80);
      expect(await rowsOf(table).filter({ hasText: '导入甲' }).textContent()).toContain('银卡会员');
      await settle(page);
      await screenshot(page, 'cards-import-list-1440');
    });

    it('reads on a phone', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/carpark/cardslink');
      await phone.getByTestId('cardslink-table').waitFor();
      await phone.getByTestId('cardslink-channels').waitFor();
      await settle(phone);
      await screenshot(phone, 'cards-links-390');
      await phone.getByTestId('cardslink-table').locator('[data-testid^="cardslink-showqr-"]').first().click();
      await phone.locator('[data-testid^="cardslink-qr-image-"] img').first().waitFor();
      await settle(phone);
      await screenshot(phone, 'cards-links-qr-390');
    });
  },
);
