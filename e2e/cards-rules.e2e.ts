import { addMonths } from '@wuye/contract/dates';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { pick, pickRoom, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, businessMonth, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const ITEM = `预缴测试费${RUN}`;
const RULE = `预缴三个月送停车券${RUN}`;
const ROOM = ['4号楼', '1单元', '902'] as const;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

journey(
  'coupon rules: the demo’s prepaid year and its coupons; a rule added, three months prepaid at the cashier give three monthly coupons',
  ({ page: newPage }) => {
    let page: Page;
    let receipt = '';

    it('shows the demo’s rule with the year an owner prepaid, and that give’s 12 coupons', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/carpark/cardsrule');
      const table = page.getByTestId('couponrule-table');
      const demo = rowOf(table, '预缴一年物业费送停车券');
      await expect.poll(() => demo.count()).toBe(1);
      const demoText = await demo.textContent();
      for (const part of ['预缴物业服务费满12个月，赠「月度停车券」12张（每月1张，共12个月）', '每月一张', '长期'])
        expect(demoText).toContain(part);
      await settle(page);
      await screenshot(page, 'cards-rules-1440');
      await demo.locator('[data-testid^="couponrule-gives-"]').click();
      const gives = page.getByTestId('couponrule-gives');
      await expect.poll(() => rowsOf(gives).count()).toBe(1);
      expect(await rowsOf(gives).first().textContent()).toMatch(/预缴一年物业费送停车券[\s\S]*6号楼[\s\S]*12[\s\S]*12/);
    });

    it('adds a rule for three months of a fee item, giving one parking coupon a month', async () => {
      // the item, bound to the room and billed for the next three months (as 收费项目 and 账单生成 do)
      const token = await apiLogin('admin');
      const cost = (
        await api<{ items: Array<{ cost_type: string; title: string }> }>('feeitemcatelist', { limit: 50 }, token)
      ).data.items.find((c) => c.title.includes('物业'))!;
      const added = await api(
        'feeitemadd',
        { cost_type: cost.cost_type, title: ITEM, pricing: 'fixed', unit_price: '80.00', cycle_months: 1 },
        token,
      );
      expect(added.return_code, added.return_msg).toBe('SUCCESS');
      const itemId = (await api<{ items: Array<{ id: number }> }>('feeitemlist', { keyword: ITEM }, token)).data.items[0]!.id;

      await page.goto('/carpark/cardsrule');
      await page.getByTestId('couponrule-add').click();
      const form = page.getByTestId('couponrule-form');
      await form.waitFor();
      await form.getByTestId('couponrule-name').fill(RULE);
      await pick(page, 'couponrule-item_id', ITEM, true);
      await form.getByTestId('couponrule-min_months').fill('3');
      await pick(page, 'couponrule-template_id', '月度停车券', true);
      await form.getByTestId('couponrule-quantity').fill('3');
      await form.getByTestId('couponrule-frequency').getByText('每月一张').click();
      await settle(page);
      await screenshot(page, 'cards-rule-form-1440');
      await page.getByTestId('couponrule-save').click();
      await notice(page, '添加成功').waitFor();
      const row = rowOf(page.getByTestId('couponrule-table'), RULE);
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain(`预缴${ITEM}满3个月，赠「月度停车券」3张（每月1张，共3个月）`);

      const hid = await roomId(token);
      expect((await api('bindfeeadd', { item_id: itemId, scope: 'room', ref_ids: [hid] }, token)).return_code).toBe('SUCCESS');
      for (let k = 1; k <= 3; k++) {
        const period = addMonths(`${businessMonth()}-01`, k).slice(0, 7);
        const gen = await api('feebillgenerate', { period, item_ids: [itemId], hids: [hid] }, token);
        expect(gen.return_code, gen.return_msg).toBe('SUCCESS');
      }
    });

    it('the cashier takes the three months ahead for 4号楼1单元902: the receipt prints', async () => {
      const cashier = await newPage(DESKTOP);
      await signIn(cashier, 'cashier', undefined, '/desktop/cashier');
      await cashier.getByTestId('cashier-page').waitFor();
      await pickRoom(cashier, 'cashier-room', ...ROOM);
      const bills = cashier.getByTestId('cashier-bills');
      const mine = rowOf(bills, ITEM);
      await expect.poll(() => mine.count()).toBe(3);
      // only this item's three bills
      await bills.locator('thead .ant-checkbox-input').click();
      if ((await bills.locator('tbody .ant-checkbox-checked').count()) > 0) await bills.locator('thead .ant-checkbox-input').click();
      for (let i = 0; i < 3; i++) await mine.nth(i).locator('.ant-checkbox-input').click();
      await cashier.getByTestId('cashier-pay-type').getByText('现金').click();
      await expect.poll(() => cashier.getByTestId('cashier-problem').count()).toBe(0);
      await cashier.getByTestId('cashier-confirm').click();
      await cashier.getByTestId('cashier-summary-ok').click();
      await cashier.waitForURL(/\/fees\/print\/receipt\/\d+/);
      await cashier.getByTestId('receipt').waitFor();
      receipt = (await cashier.getByTestId('receipt').textContent())?.match(/\d{8,}/)?.[0] ?? '';
      expect(receipt).not.toBe('');
    });

    it('the rule’s gives show the receipt and three coupons; 领券记录 shows them valid one month each', async () => {
      await page.goto('/carpark/cardsrule');
      const row = rowOf(page.getByTestId('couponrule-table'), RULE);
      // 触发笔数 1, 已赠张数 3, 已收回 0
      await expect.poll(() => row.textContent()).toMatch(/长期130\d{4}-/);
      await row.locator('[data-testid^="couponrule-gives-"]').click();
      const gives = page.getByTestId('couponrule-gives');
      await expect.poll(() => rowsOf(gives).count()).toBe(1);
      expect(await rowsOf(gives).first().textContent()).toContain(receipt);
      await settle(page);
      await screenshot(page, 'cards-rule-gives-1440');

      await page.goto('/carpark/cardgetlists');
      const given = page.getByTestId('membercoupongiven-table');
      await page.getByTestId('membercoupongiven-filter-code').waitFor();
      await page.getByTestId('membercoupongiven-filter-keyword').fill(await ownerName());
      await page.getByTestId('membercoupongiven-filter-keyword').press('Enter');
      const fromReceipt = rowOf(given, receipt);
      await expect.poll(() => fromReceipt.count()).toBe(3);
      const texts = (await fromReceipt.allTextContents()).join('|');
      const month = businessMonth();
      expect(texts).toContain(`${month}-01`);
      expect(texts).toContain(`${addMonths(`${month}-01`, 2).slice(0, 7)}-01`);
      expect(texts).toContain('规则赠送');
    });

    it('at 390×844 the rules and their gives do not scroll sideways', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/carpark/cardsrule');
      await rowsOf(phone.getByTestId('couponrule-table')).first().waitFor();
      await settle(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(phone, 'cards-rules-390');
      await phone.goto('/carpark/cardsrule?tab=gives');
      await rowsOf(phone.getByTestId('couponrule-gives')).first().waitFor();
      await settle(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(phone, 'cards-rule-gives-390');
    });
  },
);

/** 4号楼1单元902's id. */
async function roomId(token: string): Promise<number> {
  const rooms = await api<{ items: Array<{ id: number; address: string }> }>('roomlist', { page: 1, limit: 50, keyword: '902' }, token);
  const room = rooms.data.items.find((r) => r.address === ROOM.join(''));
  if (!room) throw new Error(`${ROOM.join('')} not found`);
  return room.id;
}

/** The owner of 4号楼1单元902. */
async function ownerName(): Promise<string> {
  const token = await apiLogin('admin');
  const desk = await api<{ owner_name: string }>('housebalance', { hid: await roomId(token) }, token);
  return desk.data.owner_name;
}
