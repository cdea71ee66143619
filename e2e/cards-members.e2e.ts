import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chooseOption, pick, pickCascader, pickRoom, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, businessMonth, grouped, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const CARD = `V${RUN}`;
const ADDRESS = '1号楼1单元1101';
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const refusal = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });
/** 1,234.50 → 1234.5 */
const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

journey(
  'member cards: a card for 1101’s owner, a recharge with a bonus at the desk, a bill paid from it, its refund refused',
  ({ page: newPage }) => {
    let page: Page;
    let before = 0;

    it('opens a card for 1101’s owner from 开卡: the card shows in 会员列表', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/carpark/creatcardus');
      const form = page.getByTestId('membercard-form');
      await form.waitFor();
      await form.getByTestId('membercard-card_no').fill(CARD);
      await page.getByTestId('membercard-template_id').click();
      await chooseOption(
        page,
        page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: /小区会员卡|会员卡$/ })
          .first(),
      );
      await pickCascader(page, form.getByTestId('membercard-hid'), ['1号楼', '1单元', '1101']);
      await page.getByTestId('membercard-member_id').click();
      await chooseOption(page, page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '陈建国' }).first());
      await pick(page, 'membercard-level', '金卡会员');
      await settle(page);
      await screenshot(page, 'cards-open-1440');
      await page.getByTestId('membercard-save').click();
      await notice(page, '添加成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      await expect.poll(() => page.url()).toContain('/carpark/carduslist');
      const table = page.getByTestId('membercard-table');
      await page.getByTestId('membercard-filter-card_no').fill(CARD);
      await page.getByTestId('membercard-filter-card_no').press('Enter');
      await expect.poll(() => rowsOf(table).count()).toBe(1);
      const row = rowsOf(table).first();
      for (const text of ['陈建国', '1101', '正常', '金卡会员']) expect(await row.textContent()).toContain(text);
      before = yuan(await row.locator('[data-testid^="card-balance-"]').textContent());
      await settle(page);
      await screenshot(page, 'cards-list-1440');
    });

    it('recharges ¥500 with the ¥50 bonus at the cashier: the owner drawer’s header and balance tab show it', async () => {
      await page.goto('/desktop/cashier');
      await page.getByTestId('cashier-page').waitFor();
      await pickRoom(page, 'cashier-room', '1号楼', '1单元', '1101');
      await expect.poll(() => page.getByTestId('cashier-card').textContent()).toContain(CARD);
      await page.getByTestId('cashier-topup').click();
      await page.getByTestId('recharge-package').click();
      await chooseOption(
        page,
        page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '充500送50（' }).first(),
      );
      await expect.poll(() => page.getByTestId('recharge-summary').textContent()).toContain('实收 500.00 元，到账 550.00 元');
      await page.getByTestId('recharge-pay-type').getByText('微信支付').click();
      await page.getByTestId('recharge-reference').fill(`WX${RUN}`);
      await settle(page);
      await screenshot(page, 'cards-recharge-1440');
      await page.getByTestId('recharge-save').click();
      const after = (before + 550).toFixed(2);
      await notice(page, `充值成功，当前余额 ${after} 元`).waitFor();
      await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(grouped(after));

      await page.getByTestId('navbar-owner-search').click();
      await page.getByTestId('owner-search-input').fill('13800138000');
      await page.getByTestId('owner-search-button').click();
      await page.getByTestId('owner-search-result').filter({ hasText: ADDRESS }).click();
      await page.getByTestId('owner-search-ok').click();
      const drawer = page.getByTestId('owner-drawer');
      await drawer.waitFor();
      await expect.poll(() => drawer.textContent()).toContain(grouped(after));
      await drawer.getByTestId('owner-tab-balance').click();
      const tab = drawer.getByTestId('tab-balance');
      await rowsOf(tab).first().waitFor();
      await pick(page, 'tab-balance-filter-io_type', '收入（充值、赠送、退回）');
      await expect.poll(async () => (await rowsOf(tab).allTextContents()).join('|')).toMatch(/充值赠送[\s\S]*50\.00/);
      expect((await rowsOf(tab).allTextContents()).join('|')).toMatch(/余额充值[\s\S]*500\.00/);
      await settle(page);
      await screenshot(page, 'cards-drawer-balance-1440');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
    });

    it('pays a property bill of more than the balance held before from the balance', async () => {
      // a bill of this month for 1101 costing more than what was there before the recharge
      const token = await apiLogin('admin');
      const hid = (await api<{ items: Array<{ id: number; address: string }> }>('carduslist', { card_no: CARD }, token)).data
        .items[0] as unknown as {
        hids: number[];
      };
      const cost = (
        await api<{ items: Array<{ cost_type: string; title: string }> }>('feeitemcatelist', { limit: 50 }, token)
      ).data.items.find((c) => c.title.includes('物业'))!;
      const title = `物业服务费补缴${RUN}`;
      const item = await api<{ id: number }>(
        'feeitemadd',
        { cost_type: cost.cost_type, title, pricing: 'fixed', unit_price: (before + 100).toFixed(2), cycle_months: 1, balance_pay: 'Y' },
        token,
      );
      expect(item.return_code, item.return_msg).toBe('SUCCESS');
      const itemId = (await api<{ items: Array<{ id: number; title: string }> }>('feeitemlist', { keyword: title }, token)).data.items[0]!
        .id;
      expect((await api('bindfeeadd', { item_id: itemId, scope: 'room', ref_ids: hid.hids.slice(0, 1) }, token)).return_code).toBe(
        'SUCCESS',
      );
      const gen = await api('feebillgenerate', { period: businessMonth(), item_ids: [itemId], hids: hid.hids.slice(0, 1) }, token);
      expect(gen.return_code, gen.return_msg).toBe('SUCCESS');

      await page.goto('/desktop/cashier');
      await page.getByTestId('cashier-page').waitFor();
      await pickRoom(page, 'cashier-room', '1号楼', '1单元', '1101');
      const bills = page.getByTestId('cashier-bills');
      const bill = rowOf(bills, title);
      await expect.poll(() => bill.count()).toBe(1);
      await bills.locator('thead .ant-checkbox-input').click();
      if ((await bills.locator('tbody .ant-checkbox-checked').count()) > 0) await bills.locator('thead .ant-checkbox-input').click();
      await bill.locator('.ant-checkbox-input').click();
      await page.getByTestId('cashier-pay-type').getByText('余额').click();
      await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
      await settle(page);
      await screenshot(page, 'cards-pay-balance-1440');
      await page.getByTestId('cashier-confirm').click();
      await page.getByTestId('cashier-summary-ok').click();
      await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
      await page.getByTestId('receipt').waitFor();
    });

    it('refuses the recharge’s refund while part of it is spent', async () => {
      await page.goto('/carpark/storagegl?tab=records');
      const list = page.getByTestId('cardrecharge-page');
      await list.waitFor();
      await page.getByTestId('cardrecharge-keyword').fill(CARD);
      await page.getByTestId('cardrecharge-keyword').press('Enter');
      await expect.poll(() => rowsOf(list).count()).toBe(1);
      const row = rowsOf(list).first();
      expect(await row.textContent()).toMatch(/充500送50[\s\S]*500\.00[\s\S]*50\.00[\s\S]*微信支付[\s\S]*已充值/);
      await row.locator('[data-testid^="cardrecharge-apply-"]').click();
      await page.getByTestId('cardrecharge-apply-reason').fill('业主要求退款');
      await page.getByTestId('cardrecharge-apply-ok').click();
      await refusal(page, /该充值已部分使用（当前余额 \d+\.\d{2} 元，须不少于充值与赠送合计 550\.00 元），不能退款/).waitFor();
      await settle(page);
      await screenshot(page, 'cards-storage-1440');
    });

    it('the merchant redeems a coupon and takes points at its counter; orderinfo shows each part', async () => {
      // a 满20减5 coupon given to 1101's owner by the property
      const token = await apiLogin('admin');
      const card = (await api<{ items: Array<{ member_id: number }> }>('carduslist', { card_no: CARD }, token)).data.items[0]!;
      const t = await api<{ id: number }>(
        'cardsadd',
        {
          name: `满20减5-${RUN}`,
          kind: 'amount',
          purpose: 'shopping',
          face_value: '5.00',
          min_spend: '20.00',
          per_person: 1,
          give_mode: 'staff',
          validity: 'days',
          valid_days: 30,
          status: 'Y',
        },
        token,
      );
      expect(t.return_code, t.return_msg).toBe('SUCCESS');
      const given = await api(
        'cardgive',
        { template_id: t.data.id, member_ids: [card.member_id], idempotency_key: `e2e-give-${RUN}` },
        token,
      );
      expect(given.return_code, given.return_msg).toBe('SUCCESS');
      const coupons = await api<{ items: Array<{ code: string }> }>('cardgetlists', { template_id: t.data.id }, token);
      const code = coupons.data.items[0]!.code;

      const counter = await newPage(DESKTOP);
      await signIn(counter, 'merchant', undefined, '/carpark/carduscon');
      await counter.getByTestId('counter-page').waitFor();
      const search = counter.locator('input[data-testid="counter-code"], [data-testid="counter-code"] input').first();
      await search.fill(code);
      await search.press('Enter');
      await expect.poll(() => counter.getByTestId('counter-member').textContent()).toContain(CARD);
      expect(await counter.getByTestId('counter-coupon').inputValue()).toBe(code);
      await counter.getByTestId('counter-amount').fill('100');
      await counter.getByTestId('counter-points').fill('200');
      // 100 × 98 % = 98, the coupon 5, 200 points 2 yuan, then the balance
      await expect
        .poll(() => counter.getByTestId('counter-parts').textContent())
        .toMatch(/-2\.00 元[\s\S]*-5\.00 元[\s\S]*-2\.00 元（200 积分）/);
      await settle(counter);
      await screenshot(counter, 'cards-counter-1440');
      await counter.getByTestId('counter-confirm').click();
      const receipt = counter.getByTestId('counter-receipt');
      await receipt.waitFor();
      expect(await receipt.textContent()).toContain('阳光便利店');
      const orderNo = /XF\d{14}/.exec((await receipt.textContent()) ?? '')![0];
      await settle(counter);
      await screenshot(counter, 'cards-counter-receipt-1440');
      await counter.getByTestId('counter-done').click();
      await expect.poll(() => rowsOf(counter.getByTestId('counter-orders')).first().textContent()).toContain(orderNo);

      await counter.goto(`/carpark/orderinfo?order_no=${orderNo}`);
      const payments = counter.getByTestId('orderinfo-payments');
      await expect.poll(() => payments.textContent()).toContain('积分抵扣');
      expect(await payments.textContent()).toMatch(/会员折扣[\s\S]*优惠券[\s\S]*积分抵扣[\s\S]*余额支付/);
      await settle(counter);
      await screenshot(counter, 'cards-orderinfo-1440');
    });

    it('at 390×844 the member list does not scroll sideways', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/carpark/carduslist');
      await rowsOf(phone.getByTestId('membercard-table')).first().waitFor();
      await settle(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(phone, 'cards-list-390');
    });
  },
);
