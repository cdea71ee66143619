import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, addMonths } from '@wuye/contract/dates';
import { chooseOption, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, businessMonth, grouped, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const SHOP = `S${RUN}`;
const ADDRESS = `1号楼1单元${SHOP}`;
const TENANT = `租户${RUN}`;
const MOBILE = `1390${RUN}01`;
/** the lease: two years from the first of next month, the first month free, 5 % more after the first year */
const START = `${businessMonth(1)}-01`;
const END = addDays(addMonths(START, 24), -1);
/** the check-out: some forty days before the end, inside the second-last month */
const EXIT = addDays(END, -40);

const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
/** A DatePicker's or InputNumber's input, wherever antd puts the test id (the input or its wrapper). */
const inputOf = (page: Page, testId: string) => page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
/** Types a day into a DatePicker and commits it. */
async function typeDay(page: Page, testId: string, day: string) {
  const input = inputOf(page, testId);
  await input.click();
  await input.press('Control+a');
  await input.pressSequentially(day);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(day);
}
const ok = async <T = any>(method: string, payload: Record<string, unknown>, token: string) => {
  const a = await api<T>(method, payload, token);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};

journey(
  'tenant leases: a shop for two years with a month free and 5 % more after a year, approved, billed month by month, a month paid, checked out early',
  ({ page: newPage }) => {
    let page: Page;
    let leaseId = 0;
    let hid = 0;
    let admin = '';

    it('a new shop of 1号楼 is leased by 陈招商: the schedule is drawn as the form is filled, and the lease goes for approval', async () => {
      admin = await apiLogin('admin');
      // the property company's new street shop (the demo's two are leased)
      const building = (await ok<{ items: Array<{ id: number; title: string }> }>('building_small_list', {}, admin)).items.find(
        (b) => b.title === '1号楼',
      )!;
      const unit = (await ok<{ items: Array<{ id: number; title: string }> }>('unit_small_list', { bid: building.id }, admin)).items.find(
        (u) => u.title === '1单元',
      )!;
      const shop = (await ok<{ items: Array<{ id: number; title: string }> }>('roomcate_small_list', {}, admin)).items.find(
        (c) => c.title === '商铺',
      )!;
      hid = (
        await ok<{ id: number }>(
          'roomadd',
          { bid: building.id, tid: unit.id, title: SHOP, floor: 1, category_id: shop.id, built_area: '80.00', indoor_area: '68.00' },
          admin,
        )
      ).id;

      page = await newPage(DESKTOP);
      await signIn(page, 'leasing', undefined, '/crm/leaseadd');
      const form = page.getByTestId('lease-form');
      await form.waitFor();
      await page.getByTestId('lease-tenant_name').fill(TENANT);
      await page.getByTestId('lease-mobile').fill(MOBILE);
      // the rooms: searched by the shop's number, chosen from the list
      await page.getByTestId('lease-hids').click();
      await page.keyboard.type(SHOP);
      await chooseOption(page, page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${ADDRESS}"]`).last());
      await page.keyboard.press('Escape');
      await typeDay(page, 'lease-start', START);
      await page.getByTestId('lease-years-2').click();
      await expect.poll(() => inputOf(page, 'lease-end').inputValue()).toBe(END);
      await page.getByTestId('lease-rent_price').fill('5000');
      await page.getByTestId('lease-deposit-months').click();
      await expect.poll(() => page.getByTestId('lease-deposit').inputValue()).toBe('10000.00');
      await page.getByTestId('lease-free-add').click();
      await typeDay(page, 'lease-free-start-0', START);
      await typeDay(page, 'lease-free-end-0', addDays(addMonths(START, 1), -1));
      await pick(page, 'lease-esc-kind', '按比例递增');
      await page.getByTestId('lease-esc-value').fill('5');
      // the preview: 24 periods, the first free, eleven at 5,000 and twelve at 5,250
      const totals = page.getByTestId('lease-schedule-totals');
      await expect.poll(() => totals.textContent()).toContain(grouped('118000.00'));
      expect(await totals.textContent()).toContain('24');
      const table = page.getByTestId('lease-preview-table');
      expect(await rowsOf(table).first().textContent()).toContain('0.00');
      await page.getByTestId('lease-preview').scrollIntoViewIfNeeded();
      await settle(page);
      await screenshot(page, 'crm-lease-form-1440');
      await page.getByTestId('lease-save-submit').click();
      await notice(page, '已提交审批').waitFor();
      await expect.poll(() => page.url()).toContain('/crm/leaselist');
      const list = await ok<{ items: Array<{ id: number; approval_status: string }> }>('leaselist', { keyword: TENANT }, admin);
      leaseId = list.items[0]!.id;
      expect(list.items[0]!.approval_status).toBe('P');
    });

    it('张经理 approves it from 租赁审批 with an opinion: the lease is in force, the tenant lives in the shop', async () => {
      // the approver on a browser of their own
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/crm/lease_approval');
      const todo = page.getByTestId('lease-approval-todo');
      await todo.waitFor();
      await rowsOf(todo).filter({ hasText: TENANT }).waitFor();
      await settle(page);
      await screenshot(page, 'crm-lease-approval-1440');
      await page.getByTestId(`lease-approval-open-${leaseId}`).click();
      await page.getByTestId('lease-approval-info').waitFor();
      // the schedule's totals as the approver sees them: 24 periods, 118,000 of rent
      await expect.poll(() => page.getByTestId('lease-approval-info').textContent()).toContain(grouped('118000.00'));
      expect(await rowsOf(page.getByTestId('lease-approval-schedule')).first().textContent()).toContain('31');
      await page.getByTestId(`lease-approve-${leaseId}`).click();
      await page.getByTestId('lease-approve-remark').fill('同意，按合同执行');
      await page.getByTestId('lease-approve-ok').click();
      await notice(page, '审批通过，租约已生效').waitFor();
      await expect
        .poll(() => page.getByTestId('lease-approval-info').getByTestId(`lease-status-${leaseId}`).textContent())
        .toContain('生效');
      await expect.poll(() => page.getByTestId('lease-approval-info').textContent()).toContain('同意，按合同执行');
      await settle(page);
      await screenshot(page, 'crm-lease-approved-1440');
      const living = await ok<{ items: Array<{ realname: string }> }>('memberlist', { hid, living: 'Y' }, admin);
      expect(living.items.map((m) => m.realname)).toContain(TENANT);
    });

    it('its bills appear month by month as the clock moves: none for the free month, 5,000 after it, 5,250 in the second year', async () => {
      const rents = async () =>
        (
          await ok<{ items: Array<{ title: string; fee: string; period: string; status: string }> }>(
            'cashierbills',
            { hid },
            await apiLogin('cashier'),
          )
        ).items
          .filter((b) => b.title.startsWith('租金'))
          .map((b) => `${b.period} ${b.fee}`);
      expect(await rents()).toEqual([]);
      // the second month is billed fifteen days before it starts
      await ok('leasebillrun', { as_of: addDays(addMonths(START, 1), -15) }, admin);
      expect(await rents()).toEqual([`${addMonths(START, 1).slice(0, 7)} 5000.00`]);
      await ok('leasebillrun', { as_of: addDays(addMonths(START, 2), -15) }, admin);
      expect(await rents()).toEqual([`${addMonths(START, 1).slice(0, 7)} 5000.00`, `${addMonths(START, 2).slice(0, 7)} 5000.00`]);
      // the list's detail shows them against the schedule
      await page.goto(`/crm/leaselist?id=${leaseId}`);
      const drawer = page.getByTestId('lease-drawer');
      await drawer.waitFor();
      await drawer.getByText('租金计划').click();
      const schedule = drawer.getByTestId('lease-schedule-table');
      await expect.poll(() => rowsOf(schedule).nth(1).textContent()).toContain('已出账');
      expect(await rowsOf(schedule).nth(0).textContent()).toContain('无需缴费');
      expect(await rowsOf(schedule).nth(3).textContent()).toContain('未出账');
      await settle(page);
      await screenshot(page, 'crm-lease-schedule-1440');
      await page.keyboard.press('Escape');
      // a year on, the rise
      await ok('leasebillrun', { as_of: addDays(addMonths(START, 12), -15) }, admin);
      const year = await rents();
      expect(year).toHaveLength(12);
      expect(year.at(-1)).toBe(`${addMonths(START, 12).slice(0, 7)} 5250.00`);
    });

    it('the cashier takes the deposit and a month’s rent', async () => {
      const desk = await newPage(DESKTOP);
      await signIn(desk, 'cashier', undefined, `/desktop/cashier?hid=${hid}`);
      const bills = desk.getByTestId('cashier-bills');
      const rent = rowsOf(bills)
        .filter({ hasText: addMonths(START, 1).slice(0, 7) })
        .filter({ hasText: '租金' });
      await rent.waitFor();
      await bills.locator('thead .ant-checkbox-input').click();
      await expect.poll(() => desk.getByTestId('cashier-problem').textContent()).toBe('请选择要缴的账单');
      await rent.locator('.ant-checkbox-input').click();
      await rowsOf(bills).filter({ hasText: '租赁押金' }).locator('.ant-checkbox-input').click();
      await expect.poll(() => desk.getByTestId('cashier-due').textContent()).toContain(grouped('15000.00'));
      await desk.getByTestId('cashier-pay-type').getByText('微信支付').click();
      await settle(desk);
      await screenshot(desk, 'crm-lease-cashier-1440');
      await desk.getByTestId('cashier-confirm').click();
      await expect.poll(() => desk.getByTestId('cashier-summary').textContent()).toContain('账单（2 张）');
      await desk.keyboard.press('Enter');
      await desk.waitForURL(/\/fees\/print\/receipt\/\d+/);
      await expect.poll(() => desk.getByTestId('receipt').textContent()).toContain('租金');
      await desk.close();
    });

    it('checked out forty days early: the last days billed, the later bills gone, 3,000 of the deposit kept and the rest refunded, the tenant moved out', async () => {
      // the clock at the check-out: everything up to the last month billed
      await ok('leasebillrun', { as_of: addDays(addMonths(START, 23), -15) }, admin);
      page = await newPage(DESKTOP);
      await signIn(page, 'leasing', undefined, `/crm/signout?id=${leaseId}`);
      await page.getByTestId('signout-form').waitFor();
      await typeDay(page, 'signout-date', EXIT);
      await expect.poll(() => page.getByTestId('signout-kind').locator('.ant-radio-wrapper-checked').textContent()).toBe('提前退租');
      await page.getByTestId('signout-reason').fill('经营调整，提前退租');
      await page.getByTestId('signout-reading-add').click();
      await page.getByTestId('signout-reading-name-0').fill('电表');
      await page.getByTestId('signout-reading-value-0').fill('2210.5');
      await page.getByTestId('signout-damage-add').click();
      await page.getByTestId('signout-damage-name-0').fill('卷帘门损坏');
      await page.getByTestId('signout-damage-value-0').fill('600');
      await page.getByTestId('signout-kept').fill('3000');
      await page.getByTestId('signout-kept-reason').fill('提前退租违约，扣留部分押金');
      const preview = page.getByTestId('signout-preview');
      // the last days: the second-last month up to the exit day, at 5,250 over its days
      const month = EXIT.slice(0, 7);
      await expect.poll(() => preview.getByTestId('settlement-last').textContent()).toContain(`${month}-01 ~ ${EXIT}`);
      await expect.poll(() => preview.getByTestId('settlement-deposit').textContent()).toContain(grouped('7000.00'));
      // the last month, billed and unpaid, is deleted
      expect(await preview.getByTestId('settlement-cancelled').textContent()).toContain(`${END.slice(0, 7)}-01 ~ ${END}`);
      expect(await preview.getByTestId('settlement-charges').textContent()).toContain('卷帘门损坏');
      await settle(page);
      await screenshot(page, 'crm-lease-signout-1440');
      await page.getByTestId('signout-submit').click();
      await page.getByTestId('signout-confirm-ok').click();
      await notice(page, '退租完成').waitFor();
      await page.getByTestId('signout-back').waitFor();
      await settle(page);
      await screenshot(page, 'crm-lease-signout-done-1440');

      const info = await ok<{
        status: string;
        ended_on: string;
        signout: { deposit: { refund: string; kept: string }; refund_ids: number[] };
      }>('leaseinfo', { id: leaseId }, admin);
      expect(info).toMatchObject({ status: 'F', ended_on: EXIT, signout: { deposit: { refund: '7000.00', kept: '3000.00' } } });
      expect(info.signout.refund_ids).toHaveLength(1);
      const refunds = await ok<{ items: Array<{ id: number; amount: string; status: string }> }>('refund_list', { status: 'E' }, admin);
      expect(refunds.items.find((r) => r.id === info.signout.refund_ids[0])).toMatchObject({ amount: '7000.00' });
      // the tenant no longer lives in the shop
      const living = await ok<{ items: Array<{ realname: string }> }>('memberlist', { hid, living: 'Y' }, admin);
      expect(living.items.map((m) => m.realname)).not.toContain(TENANT);
      const left = await ok<{ items: Array<{ title: string; daterange: string; fee: string }> }>(
        'cashierbills',
        { hid },
        await apiLogin('cashier'),
      );
      expect(left.items.some((b) => b.daterange.startsWith(`${END.slice(0, 7)}-01`))).toBe(false);
      expect(left.items.some((b) => b.daterange === `${month}-01 ~ ${EXIT}`)).toBe(true);
    });

    it('on a phone: the list, the form and the report fit the screen', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'leasing', undefined, '/crm/leaselist');
      await phone.getByTestId('lease-page').waitFor();
      await expect.poll(() => rowsOf(phone.getByTestId('lease-page')).count()).toBeGreaterThan(0);
      const wide = () => phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      expect(await wide()).toBe(false);
      await settle(phone);
      await screenshot(phone, 'crm-lease-list-390');
      await phone.goto('/crm/leaseadd');
      await phone.getByTestId('lease-form').waitFor();
      expect(await wide()).toBe(false);
      await settle(phone);
      await screenshot(phone, 'crm-lease-form-390');
      await phone.goto('/crm/leasereport?tab=occupancy');
      await phone.getByTestId('lease-occupancy-figures').waitFor();
      expect(await wide()).toBe(false);
      await settle(phone);
      await screenshot(phone, 'crm-lease-report-390');
      await phone.close();
    });
  },
);
