import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, pickCascader, pickToday, rowsOf, settle, stable } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { journey, signIn, signInSteward } from './support.js';

const PNG_A = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PNG_B = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const CONTENT = `厨房水槽下水管漏水，橱柜底板泡坏（${Date.now() % 100000}）`;

/** The drawer on top (the detail), where a step's button is the one to press. */
const drawer = (page: Page) => page.locator('.ant-drawer-open').last();
const modal = (page: Page) => page.locator('.ant-modal:visible').last();

async function pickOption(page: Page, testId: string, text: string) {
  await modal(page).getByTestId(testId).click();
  const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
  await chooseOption(page, item);
  // the list closes before the dialog's buttons under it are pressed
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

async function statusIs(page: Page, text: string) {
  await expect.poll(() => drawer(page).locator('.ant-tag').first().textContent(), { timeout: 20_000 }).toBe(text);
}

journey('steward desk: a paid repair from registration to its follow-up', ({ page: newPage }) => {
  let id = 0;
  let no = '';

  it('a steward registers a paid repair for 1号楼1单元1101 (the owner filled in) and dispatches it', async () => {
    const page = await newPage();
    await signInSteward(page, '/steward/repairs');
    await page.getByTestId('repairs-page').waitFor();
    await expect.poll(() => page.getByTestId('repair-tab-all').textContent()).toMatch(/全部\s*\d+/);
    await page.getByTestId('repair-add').click();
    await modal(page).locator('.ant-form-item').filter({ hasText: '报修类型' }).locator('.ant-select').click();
    const leaf = page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper[title="水管漏水"]');
    await stable(page, leaf);
    await leaf.click();
    await pickCascader(page, modal(page).getByTestId('repair-add-room'), ['1号楼', '1单元', '1101']);
    // picking the room fills the owner and the phone
    await expect.poll(() => modal(page).getByTestId('repair-add-reporter').inputValue()).toBe('陈建国');
    expect(await modal(page).getByTestId('repair-add-phone').inputValue()).toBe('13800138000');
    await modal(page).getByTestId('repair-add-content').fill(CONTENT);
    await settle(page);
    await screenshot(page, 'steward-repairs-add-1440');
    await page.getByTestId('repair-add-save').click();
    // the new ticket opens in its detail
    await expect.poll(() => drawer(page).getByTestId('repair-detail-content').textContent()).toBe(CONTENT);
    await statusIs(page, '待派单');
    const shown = drawer(page).getByTestId('repair-detail-content');
    [id, no] = [Number(await shown.getAttribute('data-id')), (await shown.getAttribute('data-no'))!];
    await drawer(page).getByTestId(`repair-dispatch-${id}`).click();
    await pickOption(page, 'repair-dispatch-handler', '孙师傅');
    await page.getByTestId('repair-dispatch-ok').click();
    await statusIs(page, '待接单');
    await expect.poll(() => drawer(page).getByTestId('repair-timeline').textContent()).toContain('派单');
  });

  it('the technician accepts, pauses, resumes and finishes it with two photos and a fee line', async () => {
    const page = await newPage();
    await signIn(page, 'tech', undefined, '/steward/myrepairs');
    const todo = page.getByTestId('myrepairs-todo');
    await todo.waitFor();
    const row = rowsOf(todo).filter({ hasText: no });
    await expect.poll(() => row.count()).toBe(1);
    await settle(page);
    await screenshot(page, 'steward-repairs-mine-1440');

    await row.getByTestId(`repair-accept-${id}`).click();
    await page.getByTestId('repair-accept-confirm').click();
    await row.getByTestId(`repair-pause-${id}`).click();
    await modal(page).getByTestId('repair-pause-reason').fill('业主白天不在家，约晚上再来');
    await pickToday(page, modal(page).getByTestId('repair-pause-resume-date'));
    await page.getByTestId('repair-pause-ok').click();
    await expect.poll(() => row.textContent()).toContain('已暂停');
    await row.getByTestId(`repair-resume-${id}`).click();
    await page.getByTestId('repair-resume-confirm').click();
    await expect.poll(() => row.textContent()).toContain('处理中');

    await row.getByTestId(`repair-finish-${id}`).click();
    const form = modal(page);
    await form.getByTestId('repair-finish-note').fill('更换下水管和密封圈，试水无渗漏');
    await form.getByTestId('repair-finish-before-file').setInputFiles({ name: 'before.png', mimeType: 'image/png', buffer: PNG_A });
    await form.getByTestId('repair-finish-after-file').setInputFiles({ name: 'after.png', mimeType: 'image/png', buffer: PNG_B });
    await expect.poll(() => form.locator('.photos-input img').count()).toBe(2);
    await form.getByTestId('repair-finish-fee-add').click();
    await form.getByTestId('repair-finish-fee-name-0').fill('更换下水管');
    await form.getByTestId('repair-finish-fee-amount-0').fill('85');
    await settle(page);
    await screenshot(page, 'steward-repairs-finish-1440');
    await page.getByTestId('repair-finish-ok').click();
    // done with it: off the to-do tab, on the done one
    await expect.poll(() => row.count()).toBe(0);
    await page.getByTestId('myrepairs-tab-done').click();
    await expect.poll(() => rowsOf(page.getByTestId('myrepairs-done')).filter({ hasText: no }).count()).toBe(1);
    expect(await rowsOf(page.getByTestId('myrepairs-done')).filter({ hasText: no }).textContent()).toContain('待支付');
  });

  it('the bill shows in the owner drawer and the cashier takes it', async () => {
    const page = await newPage();
    await signIn(page, 'cashier');
    await page.getByTestId('navbar-owner-search').click();
    const button = page.getByTestId('owner-search-button');
    await stable(page, button);
    await page.getByTestId('owner-search-input').fill('13800138000');
    await button.click();
    await expect.poll(() => page.getByTestId('owner-search-results').textContent()).toContain('1101');
    const result = page.getByTestId('owner-search-result').filter({ hasText: '1号楼1单元1101' });
    await result.first().click();
    await page.getByTestId('owner-search-ok').click();
    await page.getByTestId('owner-drawer').waitFor();
    // the room's bills run to more than a page as other journeys bill it: the title finds this one
    const title = page.getByTestId('tab-bill').getByPlaceholder('账单标题');
    await title.fill(`维修费-${no}`);
    await title.press('Enter');
    const bill = page
      .getByTestId('tab-bill')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: `维修费-${no}` });
    await expect.poll(() => bill.count()).toBe(1);
    expect(await bill.textContent()).toContain('85.00');
    await settle(page);
    await screenshot(page, 'steward-repairs-owner-bill-1440');
    await bill.getByTestId('bill-cashier').click();
    await page.waitForURL('**/desktop/cashier?**');
    const bills = page.getByTestId('cashier-bills');
    const repair = rowsOf(bills).filter({ hasText: `维修费-${no}` });
    await expect.poll(() => repair.count()).toBe(1);
    await bills.locator('thead .ant-checkbox-input').click();
    await expect.poll(() => bills.locator('tbody .ant-checkbox-checked').count()).toBe(0);
    await repair.locator('.ant-checkbox-input').click();
    await page.getByTestId('cashier-pay-type').getByText('现金').click();
    await page.getByTestId('cashier-confirm').click();
    await page.getByTestId('cashier-summary-ok').click();
    await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
    await expect.poll(() => page.getByTestId('receipt').textContent()).toContain(`维修费-${no}`);
  });

  it('the ticket waits for the rating; a rating moves it on; the follow-up completes it; the timeline shows every step', async () => {
    const page = await newPage();
    await signInSteward(page, '/steward/repairs');
    await page.getByTestId('repair-filter-no').fill(no);
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => rowsOf(page.getByTestId('repairs-page')).count()).toBe(1);
    expect(await rowsOf(page.getByTestId('repairs-page')).textContent()).toContain('待评价');
    await page.getByTestId(`repair-open-${id}`).click();
    await statusIs(page, '待评价');
    await drawer(page).getByTestId(`repair-rate-${id}`).click();
    for (const k of ['overall', 'speed', 'service'])
      await modal(page).getByTestId(`repair-rate-${k}`).locator('.ant-rate-star').nth(4).click();
    await modal(page).getByTestId('repair-rate-text').fill('师傅来得快，修得干净');
    await page.getByTestId('repair-rate-ok').click();
    await statusIs(page, '待回访');
    await drawer(page).getByTestId(`repair-visit-${id}`).click();
    await modal(page).getByText('满意', { exact: true }).click();
    await modal(page).getByTestId('repair-visit-note').fill('电话回访，业主满意');
    await page.getByTestId('repair-visit-ok').click();
    await statusIs(page, '已完成');
    const timeline = drawer(page).getByTestId('repair-timeline');
    for (const step of ['登记', '派单', '接单', '暂停', '恢复', '完工', '缴费', '评价', '回访']) {
      await expect.poll(() => timeline.textContent()).toContain(step);
    }
    expect(await timeline.textContent()).toContain('孙师傅');
    expect(await drawer(page).getByTestId('repair-rating').textContent()).toContain('师傅来得快');
    expect(await drawer(page).locator('[data-testid=repair-after-photos] img').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'steward-repairs-detail-1440');
  });

  it('the repair figures (报修统计) count the ticket under its type and its technician', async () => {
    const page = await newPage();
    await signInSteward(page, '/feecounts/repaircount');
    await page.getByTestId('repaircount-page').waitFor();
    // this month by type by default: the journey's ticket under 水管漏水
    const row = rowsOf(page.getByTestId('repaircount-table')).filter({ hasText: '水管漏水' });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
    // 登记, 完工 and 评价数 at least this ticket; its five stars
    expect(Number(cells[1])).toBeGreaterThanOrEqual(1);
    expect(Number(cells[2])).toBeGreaterThanOrEqual(1);
    expect(Number(cells[7])).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('repaircount-totals').textContent()).toContain('合计');
    await page.getByTestId('repaircount-group').getByText('按处理人').click();
    await expect.poll(() => rowsOf(page.getByTestId('repaircount-table')).filter({ hasText: '孙师傅' }).count()).toBe(1);
    await settle(page);
    await screenshot(page, 'steward-repaircount-1440');
  });

  it('a ticket left past its deadline shows 超时 and a to-do for the dispatcher', async () => {
    const page = await newPage();
    await signInSteward(page, '/steward/repairs');
    await page.getByTestId('repairs-page').waitFor();
    // the demo's elevator ticket ran out of time; the clock job marks it on its first run
    await page.getByTestId('repair-tab-overdue').click();
    const late = rowsOf(page.getByTestId('repairs-page')).filter({ hasText: '2号楼1单元电梯' });
    await expect
      .poll(
        async () => {
          if ((await late.count()) === 0) await page.getByTestId('table-page-search').click();
          return late.count();
        },
        { timeout: 60_000, interval: 2000 },
      )
      .toBe(1);
    expect(await late.locator('.ant-tag').allTextContents()).toContain('超时');
    await settle(page);
    await screenshot(page, 'steward-repairs-overdue-1440');
    await page.goto('/setup/backlog');
    // the list holds every area's to-dos: the repair ones picked
    await page.getByTestId('backlog-kind').click();
    await chooseOption(page, page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^报修$/ }));
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => page.locator('body').textContent()).toContain('报修超时');
  });

  it('is usable on a phone', async () => {
    const page = await newPage(PHONE);
    await signInSteward(page, '/steward/repairs');
    await page.getByTestId('repairs-page').waitFor();
    await expect.poll(() => rowsOf(page.getByTestId('repairs-page')).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'steward-repairs-390');
    expect(DESKTOP.width).toBeGreaterThan(PHONE.width);
  });
});
