import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { openFilters, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

interface LogRow {
  id: number;
  method: string;
  action: string;
  operator_name: string;
  payload: string;
}

journey('setup: 操作日志, who did what, read only', ({ page: newPage }) => {
  let page: Page;
  let token: string;
  let table: Locator;
  let written: LogRow;

  it('shows a write the admin just made, found by operator and action, with its readable action', async () => {
    token = await apiLogin('admin');
    // a write: the community's subtitle saved again as it is (nothing else on screen changes)
    const info = await api<{ items: { sub_title: string } }>('get_system_info', {}, token);
    const saved = await api('setsysinfo', { sub_title: info.data.items.sub_title }, token);
    expect(saved.return_code, saved.return_msg).toBe('SUCCESS');
    const rows = await api<{ items: LogRow[] }>(
      'operationloglist',
      { page: 1, limit: 10, action: 'setsysinfo', operator: '张经理' },
      token,
    );
    written = rows.data.items[0]!;
    expect(written.action).toBe('设置本小区的系统信息');

    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/setup/operationlog');
    table = page.getByTestId('oplog-page');
    await table.waitFor();
    // the demo's log: three weeks of the counter's payments and the rest, newest first
    await expect.poll(() => rowsOf(table).count()).toBe(10);
    await expect.poll(() => table.locator('.ant-pagination-total-text').textContent()).toMatch(/^共 \d+ 条$/);
    await settle(page);
    await screenshot(page, 'setup-operationlog-1440');

    await page.getByTestId('oplog-operator').fill('张经理');
    await pick(page, 'oplog-action', '设置本小区的系统信息', true);
    await page.getByTestId('table-page-search').click();
    // the page shows the filtered rows (the unfiltered first page held the write too): each is the admin's and that action
    const only = async () =>
      (await rowsOf(table).allTextContents()).every(
        (t) => t.includes('张经理（admin）') && t.includes('设置本小区的系统信息') && t.includes('成功'),
      );
    await expect.poll(only).toBe(true);
    expect(await page.getByTestId(`oplog-action-${written.id}`).textContent()).toBe('设置本小区的系统信息');
  });

  it('opens the row’s detail with the whole payload', async () => {
    await page.getByTestId(`oplog-detail-${written.id}`).click();
    const payload = page.getByTestId('oplog-payload');
    await payload.waitFor();
    await expect.poll(() => payload.textContent()).toContain('"sub_title"');
    await page.getByText('（setsysinfo）').waitFor();
    await settle(page);
    await screenshot(page, 'setup-operationlog-detail-1440');
    await page.locator('.ant-drawer-open .ant-drawer-close').click();
    await expect.poll(() => payload.isVisible()).toBe(false);
  });

  it('exports what the filters show', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('table-page-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^操作日志_\d{4}-\d{2}-\d{2}\.xlsx$/);
  });

  it('fits a phone: the list first, its filters behind 筛选', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/setup/operationlog');
    const list = phone.getByTestId('oplog-page');
    await list.waitFor();
    await expect.poll(() => rowsOf(list).count()).toBe(10);
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect(await phone.getByTestId('table-page-filters').isVisible()).toBe(false);
    await screenshot(phone, 'setup-operationlog-390');
    await openFilters(phone);
    await phone.getByTestId('oplog-operator').fill('cashier');
    await phone.getByTestId('table-page-search').click();
    await expect.poll(async () => (await rowsOf(list).allTextContents()).every((t) => t.includes('赵收银（cashier）'))).toBe(true);
    await settle(phone);
    await screenshot(phone, 'setup-operationlog-filtered-390');
  });

  it('shows the group side its communities, one at a time by the 小区 filter, without an export', async () => {
    const leader = await newPage(DESKTOP);
    await signIn(leader, 'leader', undefined, '/setup/operationlog');
    const list = leader.getByTestId('oplog-page');
    await list.waitFor();
    await expect.poll(() => rowsOf(list).count()).toBe(10);
    expect(await leader.getByTestId('table-page-export').count()).toBe(0);
    await pick(leader, 'oplog-region', '阳光花园');
    await leader.getByTestId('table-page-search').click();
    await expect.poll(async () => (await rowsOf(list).allTextContents()).every((t) => t.includes('阳光花园'))).toBe(true);
    await settle(leader);
    await screenshot(leader, 'setup-operationlog-group-1440');

    // 登录日志: the sign-ins alone, a refused one among them with its reason
    const refused = await api('login', { username: 'leader', password: 'not-the-password' });
    expect(refused.return_code).not.toBe('SUCCESS');
    // the group accounts' sign-ins belong to no community: the 小区 filter is cleared first
    await list.getByRole('button', { name: /重\s*置/ }).click();
    await leader.getByTestId('oplog-tab').getByText('登录日志').click();
    await expect.poll(() => leader.getByTestId('oplog-action').isVisible()).toBe(false);
    await expect
      .poll(async () => (await rowsOf(list).allTextContents()).some((t) => t.includes('leader') && t.includes('失败')))
      .toBe(true);
    // nothing but sign-ins: the action column is gone and every row's detail names the method login
    expect(await list.locator('th').allTextContents()).not.toContain('对象/摘要');
    const ids = await rowsOf(list).evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-row-key'))));
    const logins = await api<{ items: LogRow[] }>(
      'operationloglist',
      { page: 1, limit: 50, action: 'login' },
      await apiLogin('leader'),
      'group',
    );
    const loginIds = new Set(logins.data.items.map((r) => r.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id) => !loginIds.has(id))).toEqual([]);
    await settle(leader);
    await screenshot(leader, 'setup-operationlog-logins-1440');
  });
});
