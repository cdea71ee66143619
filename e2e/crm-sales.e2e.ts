import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { pick, pickCascader, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const NAME = `周${RUN}`;
const MOBILE = `1396${RUN}00`.slice(0, 11);
const OFFICE = `售楼处${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

/** Picks now in the minute picker (its 此刻), which closes it. */
async function pickNow(page: Page, field: Locator) {
  await field.click();
  await page.locator('.ant-picker-dropdown:visible .ant-picker-now-btn').click();
  const ok = page.locator('.ant-picker-dropdown:visible .ant-picker-ok button');
  if ((await ok.count()) > 0 && (await ok.isEnabled())) await ok.click();
  await expect.poll(() => page.locator('.ant-picker-dropdown:visible').count()).toBe(0);
}

/** Closes the success notices, which stand over the page's top right, before a picture (one may still be coming). */
async function closeNotices(page: Page) {
  await expect
    .poll(
      async () => {
        for (const close of await page.locator('.ant-notification-notice-close:visible').all())
          await close.click({ timeout: 1000 }).catch(() => undefined);
        return page.locator('.ant-notification-notice:visible').count();
      },
      { timeout: 15_000 },
    )
    .toBe(0);
}

journey('sales CRM: a customer from 报备 to 签约, with a follow-up, a visit and a deposit paid at the cashier', ({ page: newPage }) => {
  let page: Page;
  let customerId = 0;

  it('opens the sales office as a room of 5号楼 (the deposit is billed there)', async () => {
    const admin = await apiLogin('admin');
    const building = (await api<{ items: Array<{ id: number; title: string }> }>('building_small_list', {}, admin)).data.items.find(
      (b) => b.title === '5号楼',
    )!;
    const unit = (await api<{ items: Array<{ id: number; title: string }> }>('unit_small_list', { bid: building.id }, admin)).data
      .items[0]!;
    const room = await api(
      'roomadd',
      { bid: building.id, tid: unit.id, title: OFFICE, floor: 1, state: 'vacant', remark: '销售客户旅程的售楼处' },
      admin,
    );
    expect(room.return_code, room.return_msg).toBe('SUCCESS');
  });

  it('adds a customer: a known mobile is named and offered, a new one saved into 报备', async () => {
    page = await newPage(DESKTOP);
    await signIn(page, 'sales', undefined, '/crm/addcrm');
    const form = page.getByTestId('crmcustomer-form');
    await form.waitFor();
    // a mobile of 冯顾问's own demo customer: the form names it and offers to open it
    await page.getByTestId('crmcustomer-mobile').fill('13901231000');
    const known = page.getByTestId('crm-known-mobile');
    await expect.poll(() => known.textContent()).toMatch(/该手机号已登记为客户「.+」（置业顾问：冯顾问/);
    await expect.poll(() => page.getByTestId('crm-known-open').count()).toBe(1);
    await page.getByTestId('crmcustomer-mobile').fill(MOBILE);
    await expect.poll(() => known.count()).toBe(0);
    await page.getByTestId('crmcustomer-name').fill(NAME);
    await pick(page, 'crmcustomer-product', '住宅');
    await page.getByTestId('crmcustomer-area_min').fill('90');
    await page.getByTestId('crmcustomer-area_max').fill('120');
    await page.getByTestId('crmcustomer-layout').fill('三室两厅');
    await page.getByTestId('crmcustomer-budget_max').fill('260');
    await pick(page, 'crmcustomer-source', '来电');
    await page.getByTestId('crmcustomer-grade').getByText('A 重点').click();
    await settle(page);
    await screenshot(page, 'crm-sales-add-1440');
    await page.getByTestId('crmcustomer-save').click();
    await notice(page, '添加成功').waitFor();
    await page.waitForURL(/\/crm\/crm_show\?id=\d+/);
    customerId = Number(new URL(page.url()).searchParams.get('id'));
    await expect.poll(() => page.getByTestId('crm-show-name').textContent()).toBe(NAME);
    expect(await page.getByTestId('crm-show-info').textContent()).toMatch(/住宅 · 90-120㎡ · 三室两厅 · 260万以内/);
    expect(await page.locator('.ant-steps-item-process').textContent()).toContain('报备');
  });

  it('confirms it 有效 and writes a follow-up: the customer’s last follow-up shows it', async () => {
    await page.getByTestId(`crmcustomer-valid-${customerId}`).click();
    await notice(page, '已确认为有效客户').waitFor();
    await expect.poll(() => page.locator('.ant-steps-item-process').textContent()).toContain('有效');
    await page.getByTestId('crm-show-follow').click();
    const form = page.getByTestId('salescall-form');
    await form.waitFor();
    await form.getByTestId('salescall-kind').getByText('电话').click();
    await form.getByTestId('salescall-content').fill('电话沟通：客户想看 5 号楼三房，约周末来售楼处');
    await page.getByTestId('salescall-save').click();
    await notice(page, '添加成功').waitFor();
    await expect.poll(() => page.getByTestId('crm-show-info').textContent()).toContain('电话沟通：客户想看 5 号楼三房');
    const calls = page.getByTestId('salescall-table');
    await expect.poll(() => rowOf(calls, '约周末来售楼处').count()).toBe(1);
  });

  it('books a visit and records it 已到访: the customer is 来访', async () => {
    await page.getByTestId('crm-show-invite').click();
    const form = page.getByTestId('invite-form');
    await form.waitFor();
    await pickNow(page, form.getByTestId('invite-invite_at'));
    await form.getByTestId('invite-visitors').fill('2');
    await page.getByTestId('invite-save').click();
    await notice(page, '添加成功').waitFor();
    await page.getByTestId('crm-tab-invites').click();
    const invites = page.getByTestId('invite-table');
    const row = rowOf(invites, '待到访');
    await expect.poll(() => row.count()).toBe(1);
    await row.locator('[data-testid^="invite-edit-"]').click();
    const edit = page.getByTestId('invite-form');
    await edit.getByTestId('invite-outcome').getByText('已到访').click();
    await edit.getByTestId('invite-result').fill('看了三房样板间，很满意');
    await page.getByTestId('invite-save').click();
    await notice(page, '保存成功').waitFor();
    await expect.poll(() => page.locator('.ant-steps-item-process').textContent()).toContain('来访');
    await expect.poll(() => rowOf(invites, '已到访').count()).toBe(1);
    expect(await page.getByTestId('crm-show-info').textContent()).toContain('来访次数1');
  });

  it('registers a deposit on the sales office with the next queue number; paid at the cashier, the customer is 认筹', async () => {
    await page.getByTestId('crm-show-deposit').click();
    const form = page.getByTestId('intention-form');
    await form.waitFor();
    await form.getByTestId('intention-amount').fill('20000');
    await pickCascader(page, form.getByTestId('intention-hid'), ['5号楼', '1单元', OFFICE]);
    await settle(page);
    await screenshot(page, 'crm-sales-deposit-1440');
    await page.getByTestId('intention-save').click();
    await notice(page, '添加成功').waitFor();
    await page.getByTestId('crm-tab-deposits').click();
    const deposits = page.getByTestId('intention-table');
    await expect.poll(() => rowOf(deposits, '待缴费').count()).toBe(1);
    const queue = ((await rowOf(deposits, '待缴费').textContent()) ?? '').match(/第 \d{3,} 号/)![0];

    const desk = await newPage(DESKTOP);
    const admin = await apiLogin('admin');
    const office = (await api<{ items: Array<{ id: number; title: string }> }>('roomlist', { keyword: OFFICE, limit: 5 }, admin)).data
      .items[0]!;
    await signIn(desk, 'cashier', undefined, `/desktop/cashier?hid=${office.id}`);
    const bills = desk.getByTestId('cashier-bills');
    const bill = rowOf(bills, `认筹金-${NAME}（${queue}）`);
    await bill.waitFor();
    await desk.getByTestId('cashier-pay-type').getByText('现金').click();
    await expect.poll(() => desk.getByTestId('cashier-problem').count()).toBe(0);
    expect(await desk.getByTestId('cashier-due').textContent()).toContain('20,000.00');
    await settle(desk);
    await screenshot(desk, 'crm-sales-cashier-1440');
    await desk.getByTestId('cashier-confirm').click();
    await expect.poll(() => desk.getByTestId('cashier-summary').textContent()).toContain('账单（1 张）');
    await desk.keyboard.press('Enter');
    await desk.waitForURL(/\/fees\/print\/receipt\/\d+/);
    await expect.poll(() => desk.getByTestId('receipt').textContent()).toContain('认筹金');

    await page.reload();
    await page.getByTestId('crm-show').waitFor();
    await expect.poll(() => page.locator('.ant-steps-item-process').textContent()).toContain('认筹');
    await page.getByTestId('crm-tab-deposits').click();
    await expect.poll(() => rowOf(page.getByTestId('intention-table'), '已缴费').count()).toBe(1);
  });

  it('goes on to 认购 and 签约 (the contract’s number, as the contracts part would): the timeline holds every step', async () => {
    await page.getByTestId(`crmcustomer-subscribe-${customerId}`).click();
    await page.getByTestId('crmcustomer-subscribe-remark').fill(`${OFFICE}意向：5号楼三房，总价 250 万，定金 5 万`);
    await page.getByTestId('crmcustomer-subscribe-ok').click();
    await notice(page, '已转为认购').waitFor();
    await expect.poll(() => page.locator('.ant-steps-item-process').textContent()).toContain('认购');
    await page.getByTestId(`crmcustomer-sign-${customerId}`).click();
    await page.getByTestId('crmcustomer-sign-contract_no').fill(`XS${RUN}`);
    await page.getByTestId('crmcustomer-sign-ok').click();
    await notice(page, '已签约').waitFor();
    await expect.poll(() => page.locator('.ant-steps-item-finish').count()).toBe(6);
    await page.getByTestId('crm-tab-log').click();
    const timeline = page.getByTestId('crmcustomer-timeline');
    await expect.poll(() => timeline.textContent()).toContain(`合同编号：XS${RUN}`);
    const text = (await timeline.textContent()) ?? '';
    for (const step of ['录入（报备）', '确认有效', '到访', '缴纳认筹金', '转认购', '签约']) expect(text).toContain(step);
    await closeNotices(page);
    await settle(page);
    await screenshot(page, 'crm-sales-show-1440');
  });

  it('lists it among 冯顾问’s customers with the chips, and claims one from the pool', async () => {
    await page.goto('/crm/crm');
    const table = page.getByTestId('crmcustomer-table');
    await page.getByTestId('crmcustomer-filter-keyword').fill(NAME);
    await page.getByTestId('crmcustomer-filter-keyword').press('Enter');
    await expect.poll(() => rowsOf(table).count()).toBe(1);
    expect(await rowsOf(table).first().textContent()).toMatch(/签约[\s\S]*冯顾问/);
    await page.getByTestId('crmcustomer-reset').click();
    // the chips and the views build on the address the reset wrote: wait until it has no name in it
    await expect.poll(() => new URL(page.url()).searchParams.get('keyword')).toBeNull();
    await expect.poll(() => page.getByTestId('crmcustomer-filter-keyword').inputValue()).toBe('');
    // a chip toggles on what it shows: each click waits until the chip is drawn as the last one left it
    const today = page.getByTestId('crm-chip-today');
    await today.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('chip')).toBe('today');
    await expect.poll(() => today.getAttribute('class')).toContain('ant-tag-checkable-checked');
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
    await today.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('chip')).toBeNull();
    await expect.poll(() => today.getAttribute('class')).not.toContain('ant-tag-checkable-checked');
    await closeNotices(page);
    await settle(page);
    await screenshot(page, 'crm-sales-list-1440');
    await page.getByTestId('crm-view-pool').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('pool');
    await expect.poll(() => table.getByTestId(/^crm-claim-/).count()).toBeGreaterThan(0);
    const first = rowsOf(table).first();
    await first.locator('[data-testid^="crm-claim-"]').click();
    await notice(page, '已领取 1 位客户').waitFor();
  });

  it('shows the funnel and the pool’s rules (a consultant reads them)', async () => {
    await page.goto('/crm/intention');
    await expect.poll(() => page.getByTestId('crm-funnel-report').textContent()).toMatch(/报备\s*\d+/);
    await expect.poll(() => rowsOf(page.getByTestId('crm-funnel-page')).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'crm-sales-funnel-1440');
    await page.goto('/crm/setcrmsys');
    await page.getByTestId('pool-rules').waitFor();
    await expect.poll(() => page.getByTestId('pool-pool_follow_days').inputValue()).toBe('15');
    expect(await page.getByTestId('pool-save').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'crm-sales-setcrmsys-1440');
  });

  it('fits a phone: the list, the customer and the add form', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'sales', undefined, '/crm/crm');
    await rowsOf(phone.getByTestId('crmcustomer-table')).first().waitFor();
    const wide = () => phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    expect(await wide()).toBe(false);
    await settle(phone);
    await screenshot(phone, 'crm-sales-list-390');
    await phone.goto(`/crm/crm_show?id=${customerId}`);
    await expect.poll(() => phone.getByTestId('crm-show-name').textContent()).toBe(NAME);
    expect(await wide()).toBe(false);
    await settle(phone);
    await screenshot(phone, 'crm-sales-show-390');
    await phone.goto('/crm/addcrm');
    await phone.getByTestId('crmcustomer-form').waitFor();
    expect(await wide()).toBe(false);
    await settle(phone);
    await screenshot(phone, 'crm-sales-add-390');
  });
});
