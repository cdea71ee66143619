import { expect, it } from 'vitest';
import { pick, rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

/**
 * The group head office renews several communities at once and sees its renewals summed per month
 * (docs/product.md#leader-regions).
 */
journey('the group’s communities and their renewals', ({ page: newPage }) => {
  it('extends two communities at once and finds both in the log and the month’s totals', async () => {
    const page = await newPage();
    await signIn(page, 'leader', undefined, '/leader/regions/regiondelaylog');
    const monthly = page.getByTestId('delaylog-monthly');
    await expect.poll(() => monthly.textContent()).toContain('全年合计');
    const yearCount = async () => Number(await rowsOf(monthly).last().locator('td').nth(1).textContent());
    const before = await yearCount();

    await page.goto('/leader/regions');
    const table = page.getByTestId('leader-region-table');
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(3);

    // 到期状态: only the communities in that state (whichever the server's earlier journeys left some in,
    // as a renewal journey may have renewed the expired ones); 导出 writes what the list keeps
    const token = await apiLogin('leader');
    const states = [
      ['expired', '已过期'],
      ['soon', '30天内到期'],
      ['ok', '正常'],
    ] as const;
    let shown: { total: number; items: Array<{ title: string }> } | undefined;
    let label = '';
    for (const [expiry, text] of states) {
      const res = await api('leaderregionlist', { expiry }, token, 'group');
      if (res.data.total > 0) {
        shown = res.data;
        label = text;
        break;
      }
    }
    expect(shown, 'no community in any 到期状态').toBeDefined();
    await pick(page, 'leader-region-expiry', label);
    await page.getByTestId('leader-region-search').click();
    await expect.poll(() => rowsOf(table).count()).toBe(Math.min(shown!.total, 10));
    await expect.poll(() => rowsOf(table).first().textContent()).toContain(shown!.items[0]!.title);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('leader-region-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^小区列表_\d{4}-\d{2}-\d{2}\.xlsx$/);
    await pick(page, 'leader-region-expiry', '全部到期状态');
    await page.getByTestId('leader-region-search').click();
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(3);
    expect(await page.getByTestId('leader-region-delay-batch').isDisabled()).toBe(true);
    for (const title of ['老城小区', '东湖小区']) {
      await rowsOf(table).filter({ hasText: title }).locator('.ant-checkbox-input').check();
    }
    await page.getByTestId('leader-region-delay-batch').click();
    const dialog = page.getByRole('dialog', { name: '批量延期：2 个小区' });
    await expect.poll(() => dialog.getByTestId('leader-region-delay-list').textContent()).toMatch(/老城小区.*东湖小区|东湖小区.*老城小区/);
    await dialog.getByLabel('备注').fill('集团统一续约');
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    await page.locator('.ant-notification-notice', { hasText: '已为 2 个小区延期 12 个月' }).waitFor();
    await settle(page);
    await screenshot(page, 'leader-regions-1440');

    await page.goto('/leader/regions/regiondelaylog');
    const log = page.getByTestId('delaylog-table');
    await expect.poll(() => rowsOf(log).first().textContent()).toContain('集团统一续约');
    await expect.poll(yearCount).toBe(before + 2);
    await settle(page);
    await screenshot(page, 'leader-delaylog-1440');
  });

  it('adds a community with its administrator and only fees and steward open: parking is closed there', async () => {
    const page = await newPage();
    await signIn(page, 'leader', undefined, '/leader/regions');
    await page.getByTestId('leader-region-add').click();
    const dialog = page.getByRole('dialog', { name: '新增小区' });
    await dialog.getByLabel('小区名称').fill('钱塘江畔');
    await dialog.getByLabel('市', { exact: true }).fill('杭州市');
    // every module is ticked for a new community: untick all but 收费管理 and 管家服务
    const modules = dialog.getByTestId('leader-region-add-modules');
    for (const label of [
      '停车管理',
      '门禁通行',
      '访客管理',
      '安保巡更',
      '社区活动',
      '设备台账',
      '会员卡与商城',
      '客户与合同',
      '智能仪表',
      '充电桩',
      '电子发票',
      '业主端内容',
    ]) {
      await modules.getByLabel(label).uncheck();
    }
    await dialog.getByTestId('leader-region-admin-username').fill('qtjp_admin');
    await dialog.getByTestId('leader-region-admin-name').fill('钱管理员');
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    const password = (await page.getByTestId('leader-region-admin-password').textContent())!.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{8,}$/);
    await page.getByRole('button', { name: '我已记下' }).click();
    const table = page.getByTestId('leader-region-table');
    await page.getByPlaceholder('小区名称').fill('钱塘江畔');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await expect.poll(() => rowsOf(table).first().textContent()).toContain('开通 2/14');
    await settle(page);
    await screenshot(page, 'leader-region-modules-1440');

    // its administrator changes the one-time password, then signs in: no parking anywhere
    const first = await apiLogin('qtjp_admin', password);
    const changed = await api('sysusereditpassword', { username: 'qtjp_admin', password: 'Qtjp#2026', password2: 'Qtjp#2026' }, first);
    expect(changed.return_code).toBe('SUCCESS');
    const admin = await newPage();
    await signIn(admin, 'qtjp_admin', 'Qtjp#2026');
    const menu = admin.getByTestId('top-menu');
    await expect.poll(() => menu.textContent()).toContain('管家');
    expect(await menu.textContent()).not.toMatch(/物联|客户/);
    expect(await admin.getByTestId('top-menu-item-carpark').count()).toBe(0);
    await admin.goto('/carpark/carlist');
    await admin.waitForURL(/\/401$/);
    const closed = await api('carlist', {}, await apiLogin('qtjp_admin', 'Qtjp#2026'));
    expect(closed).toMatchObject({ return_code: 'NO_PERMISSION', return_msg: '本小区未开通“停车管理”模块，请联系集团开通' });
    await admin.goto('/steward/notices');
    // an open module's page opens: its list is drawn where it was asked for
    await admin.locator('.ant-table').first().waitFor();
    expect(new URL(admin.url()).pathname).toBe('/steward/notices');
  });

  it('enters a community from its row: the console opens it as its administrator, the code used once', async () => {
    const page = await newPage();
    await signIn(page, 'leader', undefined, '/leader/regions');
    const table = page.getByTestId('leader-region-table');
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(3);
    await page.getByTestId('leader-region-enter-2').click();
    await page.getByTestId('leader-region-enter-ok').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect.poll(() => page.getByTestId('top-menu').textContent()).toContain('收费');
    await expect.poll(() => page.locator('body').textContent()).toContain('翠湖苑');
    // the address never held a session token, and the code is gone from it
    expect(page.url()).not.toContain('code=');
    // 返回集团 from the user menu: back on the group's community list, no password asked
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-return').click();
    await page.waitForURL((url) => url.pathname === '/leader/regions/index');
    await expect.poll(() => rowsOf(page.getByTestId('leader-region-table')).count()).toBeGreaterThan(3);
    expect(page.url()).not.toContain('code=');
  });
});
