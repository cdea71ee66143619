import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const PARTY = `测试买家${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const money = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

interface Unit {
  unit_id: number;
  bid: number;
  title: string;
  list_price: string;
}

/** The business day in Shanghai (the console's calendar). */
const shanghaiDay = (offsetDays = 0) => new Date(Date.now() + 8 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

journey(
  'room-sales contracts: a sale drafted with a plan, approved, its deposit billed by the job and paid at the cashier; the sales table shows it signed',
  ({ page: newPage }) => {
    let unit: Unit;
    let contractId = 0;
    let contractNo = '';

    it('drafts a sale of a room for sale with a deposit and a final payment, and submits it', async () => {
      const token = await apiLogin('leasing');
      const free = await api<{ items: Unit[] }>('rentroomlist', { unit_kind: 'room', state: 'available', limit: 200 }, token);
      unit = free.data.items.find((u) => u.list_price)!;
      expect(unit, 'a room for sale with a list price').toBeDefined();
      const page = await newPage(DESKTOP);
      await signIn(page, 'leasing', undefined, '/crm/addroomsales');
      const form = page.getByTestId('contract-form');
      await form.waitFor();
      await page.getByTestId('contract-type').click();
      await chooseOption(
        page,
        page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '商品房买卖合同' }).first(),
      );
      await page.getByTestId('contract-name').fill('商品房买卖合同');
      await page.getByTestId('contract-party').fill(PARTY);
      await page.getByTestId('contract-mobile').fill('13966660001');
      // the room by a part of its address: its list price fills the price and the total
      const picker = page.getByTestId('unit-picker');
      await picker.click();
      await picker.locator('input').fill(unit.title);
      await chooseOption(
        page,
        page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: unit.title }).first(),
      );
      await expect.poll(() => page.getByTestId('unit-row-0').count()).toBe(1);
      await expect.poll(() => page.getByTestId('contract-total').inputValue()).toBe(unit.list_price);
      // a deposit of 20,000 today, the rest next month on the 28th
      await page.getByTestId('plan-add').click();
      await page.getByTestId('plan-amount-0').fill('20000');
      await page.getByTestId('plan-add').click();
      await expect.poll(() => page.getByTestId('plan-amount-1').inputValue()).toBe((Number(unit.list_price) - 20000).toFixed(2));
      await pick(page, 'plan-name-1', '尾款');
      await page.getByTestId('plan-date-1').click();
      await page.locator('.ant-picker-dropdown:visible .ant-picker-header-next-btn').click();
      const next = new Date(`${shanghaiDay()}T00:00:00Z`);
      const due = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 28)).toISOString().slice(0, 10);
      await page.locator(`.ant-picker-dropdown:visible td[title="${due}"]`).click();
      await expect.poll(() => page.getByTestId('plan-diff').count()).toBe(0);
      await pick(page, 'custom-f1', '商业按揭');
      await settle(page);
      await screenshot(page, 'crm-contracts-form-1440');
      await page.getByTestId('contract-save-submit').click();
      await notice(page, '已提交审批').waitFor();
      await page.waitForURL(/\/crm\/roomshow\?id=\d+/);
      contractId = Number(new URL(page.url()).searchParams.get('id'));
      await expect.poll(() => page.getByTestId('roomshow-status').textContent()).toBe('审批中');
      contractNo = (await page.getByTestId('roomshow-no').textContent()) ?? '';
      expect(contractNo).toMatch(/^HT\d{11}$/);
      // leasing cannot approve: no 审批 button for them
      expect(await page.getByTestId('roomshow-audit').count()).toBe(0);
    });

    it('admin approves it from 合同审批 with an opinion', async () => {
      const page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/crm/contract_audit_list');
      const table = page.getByTestId('contract-audit-page');
      await page.getByTestId(`audit-open-contract-${contractId}`).waitFor();
      expect(await rowsOf(table).filter({ hasText: contractNo }).textContent()).toContain(PARTY);
      await settle(page);
      await screenshot(page, 'crm-contracts-audit-list-1440');
      await page.getByTestId(`audit-open-contract-${contractId}`).click();
      await page.getByTestId('contract-decide-page').waitFor();
      await page.getByTestId('audit-opinion').fill('价格符合销售政策，同意');
      await page.getByTestId('audit-approve').click();
      await notice(page, '审批通过，合同已生效').waitFor();
      await page.goto(`/crm/contract_audit_info?id=${contractId}`);
      const trail = page.getByTestId('contract-audit-info');
      await expect.poll(() => trail.textContent()).toContain('价格符合销售政策，同意');
      expect(await trail.textContent()).toContain('提交审批');
    });

    it('the job bills the deposit (the final payment not yet); the cashier takes it; 回款进度 shows it paid', async () => {
      const admin = await apiLogin('admin');
      const ran = await api<{ billed: number }>('contractjobrun', { as_of: shanghaiDay() }, admin);
      expect(ran.return_code, ran.return_msg).toBe('SUCCESS');
      expect(ran.data.billed).toBeGreaterThanOrEqual(1);
      const detail = await api<{ hid: number; instalments: Array<{ state: string; bill_id: number | null }> }>(
        'roomsalesinfo',
        { id: contractId },
        admin,
      );
      expect(detail.data.instalments.map((i) => i.state)).toEqual(['billed', 'planned']);

      const page = await newPage(DESKTOP);
      await signIn(page, 'cashier', undefined, `/desktop/cashier?hid=${detail.data.hid}`);
      const bills = page.getByTestId('cashier-bills');
      const mine = rowsOf(bills).filter({ hasText: contractNo });
      await expect.poll(() => mine.count()).toBe(1);
      // only the contract's bill: every bill unticked, then its own
      await bills.locator('thead .ant-checkbox-input').click();
      await mine.locator('.ant-checkbox-input').click();
      await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
      expect(money(await page.getByTestId('cashier-due').locator('.ant-statistic-content-value').textContent())).toBeCloseTo(20000, 2);
      await page.getByTestId('cashier-pay-type').getByText('银行转账').click();
      await page.getByTestId('cashier-confirm').click();
      await page.getByTestId('cashier-summary').waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/fees\/print\/receipt\/\d+/);

      const progress = await newPage(DESKTOP);
      await signIn(progress, 'leasing', undefined, '/crm/contractcolprogress');
      await progress.getByTestId('colprogress-keyword').fill(contractNo);
      await progress.getByTestId('colprogress-keyword').press('Enter');
      const table = progress.getByTestId('colprogress-page');
      const row = rowsOf(table).filter({ hasText: contractNo });
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.textContent()).toContain('20,000.00');
      await row.locator('.ant-table-row-expand-icon').click();
      await expect.poll(() => progress.getByTestId('instalment-1').textContent()).toContain('已收款');
      await settle(progress);
      await screenshot(progress, 'crm-contracts-progress-1440');

      // 签约回款月报: the year's figures are the server's; this month's count opens the contracts signed in it
      const month = Number(shanghaiDay().slice(5, 7));
      const figures = await api<{ totals: { collected_amount: string } }>('contractmonthly', {}, await apiLogin('leasing'));
      const monthly = await newPage(DESKTOP);
      await signIn(monthly, 'leasing', undefined, '/crm/contractmonthly');
      await expect
        .poll(async () => money(await monthly.getByTestId('contractmonthly-collected-total').textContent()))
        .toBeCloseTo(Number(figures.data.totals.collected_amount), 2);
      expect(Number(figures.data.totals.collected_amount)).toBeGreaterThanOrEqual(20000);
      await settle(monthly);
      await screenshot(monthly, 'crm-contracts-monthly-1440');
      await monthly.getByTestId(`contractmonthly-signed-${month}`).click();
      await monthly.waitForURL(/\/crm\/roomsaleslist\?signed=/);
      await expect.poll(() => rowsOf(monthly.locator('.ant-table')).count()).toBeGreaterThan(0);
    });

    it('the sales table shows the room as 已签约 with its price; a cell opens the contract', async () => {
      const page = await newPage(DESKTOP);
      await signIn(page, 'leasing', undefined, `/salestable?bid=${unit.bid}`);
      const cell = page.getByTestId(`salestable-cell-${unit.unit_id}`);
      await expect.poll(() => cell.getAttribute('data-state')).toBe('signed');
      expect(await cell.textContent()).toContain('已签约');
      await settle(page);
      await screenshot(page, 'crm-contracts-salestable-1440');
      await cell.click();
      await page.waitForURL(new RegExp(`/crm/roomshow\\?id=${contractId}$`));
      await expect.poll(() => page.getByTestId('roomshow-status').textContent()).toBe('生效');
      await expect.poll(() => page.getByTestId('roomshow-paid').textContent()).toContain('20,000.00');
      await settle(page);
      await screenshot(page, 'crm-contracts-show-1440');
    });

    it('on a phone the contract, the units and the sales table fit the width', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'leasing', undefined, `/crm/roomshow?id=${contractId}`);
      await expect.poll(() => phone.getByTestId('roomshow-status').textContent()).toBe('生效');
      await settle(phone);
      await screenshot(phone, 'crm-contracts-show-390');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await phone.goto(`/salestable?bid=${unit.bid}`);
      await expect.poll(() => phone.getByTestId(`salestable-cell-${unit.unit_id}`).getAttribute('data-state')).toBe('signed');
      await settle(phone);
      await screenshot(phone, 'crm-contracts-salestable-390');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await phone.goto('/crm/rentroom');
      await phone.getByTestId('rentroom-page').waitFor();
      await expect.poll(() => rowsOf(phone.getByTestId('rentroom-page')).count()).toBeGreaterThan(0);
      await settle(phone);
      await screenshot(phone, 'crm-contracts-rentroom-390');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    });
  },
);
