import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { animationsDone, pickCascader, pickText, settle, stable } from './antd.js';
import { xlsxUpload } from './files.js';
import { api, apiLogin, grouped, journey, signIn } from './support.js';

/** Opens the global owner search from the top bar, searches and waits for the results. */
async function searchOwner(page: Page, keyword: string, expected: string) {
  const input = page.getByTestId('owner-search-input');
  const button = page.getByTestId('owner-search-button');
  // a click while the dialog still zooms in can land beside the button: wait until it stands still
  await stable(page, button);
  await input.fill(keyword);
  await button.click();
  // the previous results stay until the answer comes
  await expect.poll(() => page.getByTestId('owner-search-results').textContent()).toContain(expected);
}

/** Rows of the antd table inside a drawer tab (the placeholder row of an empty table is not a row). */
const rows = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"] .ant-table-tbody tr.ant-table-row`);

const DRAWER_TABS = ['bill', 'cars', 'house', 'carhouse', 'visitor', 'bonus', 'balance', 'carInout', 'signup', 'current', 'face'] as const;
const tabTestId = (key: (typeof DRAWER_TABS)[number]) => `tab-${key.toLowerCase()}`;

journey('owners: members, cars, global owner search and the owner drawer', ({ page: newPage }) => {
  it('adds an owner with two rooms, then registers a car for one of them', async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/basismembers/index');
    await page.waitForURL('**/basismembers/index');
    await page.getByTestId('member-list').waitFor();
    await expect.poll(() => page.locator('[data-testid="member-list"] .ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'owners-memberlist-1440');

    await page.getByTestId('member-add').click();
    const form = page.getByTestId('member-form');
    await form.waitFor();
    await page.getByTestId('member-realname').fill('林晓梅');
    await page.getByTestId('member-mobile').fill('13912345678');
    await page.getByTestId('member-idcard').fill('11010519491231002X');
    await pickCascader(page, form.getByTestId('member-room').nth(0), ['3号楼', '1单元', '301']);
    await page.getByTestId('member-add-room').click();
    await pickCascader(page, form.getByTestId('member-room').nth(1), ['3号楼', '2单元', '302']);
    await pickText(page, form.getByTestId('member-relation').nth(1), '租户');
    await screenshot(page, 'owners-memberform-1440');
    await page.getByTestId('member-form-save').click();
    await form.waitFor({ state: 'hidden' });

    await page.getByTestId('member-filter-mobile').fill('13912345678');
    await page.getByTestId('table-page-search').click();
    const list = page.getByTestId('member-list');
    await expect.poll(() => list.locator('.ant-table-row').count()).toBe(1);
    await expect.poll(() => list.locator('.ant-table-row').first().textContent()).toContain('3号楼1单元301');
    expect(await list.locator('.ant-table-row').first().textContent()).toContain('3号楼2单元302');

    // the export takes the list's filter: one owner, her two rooms in one cell, the ID number as text
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('table-page-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^住户_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync(await download.path()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(2);
    expect((ws.getRow(1).values as unknown[]).slice(1, 6)).toEqual(['姓名', '手机号', '身份证号', '性别', '房屋（身份）']);
    expect((ws.getRow(2).values as unknown[]).slice(1, 6)).toEqual([
      '林晓梅',
      '13912345678',
      '11010519491231002X',
      '女',
      '3号楼1单元301（业主），3号楼2单元302（租户）',
    ]);
    await expect.poll(() => page.getByTestId('export-progress').last().getAttribute('data-status')).toBe('success');

    // the export ran as a job: its notification links to the download centre, which keeps the
    // file to download again, then deletes it
    await page.getByTestId('export-open-downloads').last().click();
    await page.waitForURL('**/setup/download');
    const exports = page.getByTestId('download-page');
    const exported = exports.locator('.ant-table-row', { hasText: download.suggestedFilename() }).first();
    await expect.poll(() => exported.textContent()).toContain('可下载');
    const [again] = await Promise.all([page.waitForEvent('download'), exported.getByRole('button', { name: /下载/ }).click()]);
    expect(again.suggestedFilename()).toBe(download.suggestedFilename());
    expect(fs.readFileSync(await again.path()).equals(fs.readFileSync(await download.path()))).toBe(true);
    const rowsBefore = await exports.locator('.ant-table-row').count();
    await exported.getByRole('button', { name: '删除' }).click();
    await page.getByTestId('confirm-delete-ok').click();
    await expect.poll(() => exports.locator('.ant-table-row').count()).toBe(rowsBefore - 1);

    const token = await apiLogin('admin');
    const members = await api('memberlist', { mobile: '13912345678' }, token);
    expect(members.data.items[0].rooms.map((r: { address: string; relation: string }) => `${r.address}/${r.relation}`).sort()).toEqual([
      '3号楼1单元301/owner',
      '3号楼2单元302/tenant',
    ]);

    await page.goto('/basismembers/cars');
    await page.getByTestId('car-table').waitFor();
    await page.getByTestId('car-add').click();
    const carForm = page.getByTestId('car-form');
    await carForm.waitFor();
    // a building whose units fail to load stops spinning, and opening it again loads them
    await page.route('**/webapi', (route) =>
      (route.request().postData() ?? '').includes('unit_small_list') ? route.abort() : route.fallback(),
    );
    await carForm.getByTestId('car-hid').click();
    const buildings = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu').first();
    await buildings
      .locator('.ant-cascader-menu-item')
      .filter({ hasText: /^3号楼$/ })
      .click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item-loading-icon').waitFor({ state: 'detached' });
    await page.unroute('**/webapi');
    await page.keyboard.press('Escape');
    await pickCascader(page, carForm.getByTestId('car-hid'), ['3号楼', '1单元', '301']);
    await pickText(page, page.getByTestId('car-member_id'), '林晓梅 13912345678');
    await page.getByTestId('car-carlicense').fill('浙ad90517');
    await page.getByTestId('car-save').click();
    await carForm.waitFor({ state: 'hidden' });
    await page.getByTestId('car-filter-carlicense').fill('浙AD90517');
    await page.getByTestId('car-filter-carlicense').press('Enter');
    const cars = page.getByTestId('car-table');
    await expect.poll(() => cars.locator('.ant-table-row').count()).toBe(1);
    const row = await cars.locator('.ant-table-row').first().textContent();
    expect(row).toContain('3号楼1单元301');
    expect(row).toContain('林晓梅');
    expect(row).toContain('新能源');

    // 登记时间 with the 今天 preset keeps the car registered now, in the address too
    await page.getByTestId('car-filter-fold').click();
    await page.getByTestId('car-filter-create_time').first().click();
    await page.locator('.ant-picker-dropdown:visible .ant-picker-presets li').filter({ hasText: '今天' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('create_time')).toMatch(/^(\d{4}-\d{2}-\d{2})~\1$/);
    await expect.poll(() => cars.locator('.ant-table-row').count()).toBe(1);

    // printing shows the list alone: the title and the table, without the filters, selection, pagination and row actions
    await page.evaluate(() => {
      window.print = () => document.body.setAttribute('data-printed', 'yes');
    });
    await page.getByTestId('car-print').click();
    expect(await page.locator('body').getAttribute('data-printed')).toBe('yes');
    await page.emulateMedia({ media: 'print' });
    // polled: the inputs fade (a transition of all their styles, visibility too)
    await expect.poll(() => page.locator('.resource-print-title').isVisible()).toBe(true);
    expect(await page.locator('.resource-print-title').textContent()).toBe('住户车辆');
    await expect.poll(() => cars.locator('.ant-table-row').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('car-filter-carlicense').isVisible()).toBe(false);
    await expect.poll(() => page.getByTestId('car-add').isVisible()).toBe(false);
    await expect.poll(() => cars.locator('[data-testid^="car-edit-"]').first().isVisible()).toBe(false);
    await expect.poll(() => page.locator('.resource-print-area .ant-pagination').isVisible()).toBe(false);
    // from the top left of the paper, not where the page's frames put it on the screen
    await expect.poll(async () => (await page.locator('.resource-print-area').boundingBox())?.y).toBe(0);
    expect((await page.locator('.resource-print-area').boundingBox())?.x).toBe(0);
    await screenshot(page, 'owners-carlist-print');
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await page.emulateMedia({ media: 'screen' });
    expect(await page.evaluate(() => document.body.classList.contains('printing-list'))).toBe(false);
    await expect.poll(() => page.getByTestId('car-filter-carlicense').isVisible()).toBe(true);
  });

  it('searches the owner by mobile and by name and opens the drawer', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.getByTestId('navbar-owner-search').click();
    const dialog = page.getByTestId('owner-search-dialog');
    await dialog.waitFor();
    await page.getByTestId('owner-search-empty').waitFor();
    await animationsDone(page);

    // an empty keyword is refused with the product's notice (docs/product.md#owner-search)
    await page.getByTestId('owner-search-button').click();
    const notice = page.locator('.ant-notification-notice').filter({ hasText: '请输入手机号码或业主姓名' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('错误');

    // the new owner by mobile
    await searchOwner(page, '13912345678', '林晓梅');
    const byMobile = await page.getByTestId('owner-search-results').textContent();
    expect(byMobile).toContain('3号楼1单元301');
    expect(byMobile).toContain('林晓梅');
    expect(await page.getByTestId('owner-search-more').count()).toBe(0);

    // a broad keyword shows the first 50 houses and asks for more of it
    await searchOwner(page, '13', '13');
    await page.getByTestId('owner-search-more').waitFor();
    expect(await page.getByTestId('owner-search-result').count()).toBe(50);
    expect(await page.getByTestId('owner-search-more').textContent()).toContain('请输入更完整的手机号或姓名');

    // the demo owner by a part of the name: both rooms, each with address, name and mobile
    await searchOwner(page, '建国', '陈建国');
    const results = page.getByTestId('owner-search-result');
    const texts = await results.allTextContents();
    const home = texts.findIndex((t) => t.includes('1号楼1单元1101'));
    expect(home).toBeGreaterThanOrEqual(0);
    expect(texts[home]).toContain('陈建国');
    expect(texts[home]).toContain('13800138000');
    expect(texts.some((t) => t.includes('2号楼1单元801'))).toBe(true);
    await results.nth(home).click();
    await screenshot(page, 'owners-search-1440');

    await page.getByTestId('owner-search-ok').click();
    const drawer = page.getByTestId('owner-drawer');
    await drawer.waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('.ant-drawer-title').textContent()).toBe('用户信息');
    await expect.poll(() => page.getByTestId('owner-name').textContent()).toBe('陈建国');
    await expect.poll(() => page.locator('.ant-tabs-tab-active [data-testid="owner-tab-bill"]').count()).toBe(1);
  });

  it('shows the header, switches rooms and walks all eleven tabs with rows', async () => {
    const page = await newPage();
    await signIn(page, 'admin');
    await page.getByTestId('navbar-owner-search').click();
    await searchOwner(page, '13800138000', '陈建国');
    const texts = await page.getByTestId('owner-search-result').allTextContents();
    await page
      .getByTestId('owner-search-result')
      .nth(texts.findIndex((t) => t.includes('1101')))
      .click();
    await page.getByTestId('owner-search-ok').click();
    await page.getByTestId('owner-drawer').waitFor();

    // header from houseinfoplus
    const token = await apiLogin('admin');
    const found = await api('getkeywordtohouses', { keywords: '13800138000' }, token);
    const home = found.data.items.find((i: { address: string }) => i.address.endsWith('1101'));
    const rented = found.data.items.find((i: { address: string }) => i.address.endsWith('801'));
    const info = await api('houseinfoplus', { rid: home.rid, bid: home.bid, tid: home.tid, hid: home.hid }, token);
    const header = page.getByTestId('owner-header');
    await expect.poll(() => page.getByTestId('owner-name').textContent()).toBe('陈建国');
    await expect.poll(() => header.textContent()).toContain('13800138000');
    expect(await page.getByTestId('owner-gel-fee').textContent()).toBe(`¥${grouped(info.data.items.gel_fee)}`);
    expect(await page.getByTestId('owner-balance').textContent()).toBe(`¥${grouped(info.data.items.owner_balance)}`);
    expect(await page.getByTestId('owner-bonus').textContent()).toBe(String(info.data.items.owner_bonus));
    expect(await page.getByTestId('owner-wx').getAttribute('data-bound')).toBe('Y');

    // the owner's rooms as tabs; switching reloads the header
    const houseTabs = page.getByTestId('owner-house-tab');
    await expect.poll(() => houseTabs.count()).toBe(2);
    const other = await api('houseinfoplus', { rid: rented.rid, bid: rented.bid, tid: rented.tid, hid: rented.hid }, token);
    await houseTabs.filter({ hasText: '801' }).click();
    await expect.poll(() => page.getByTestId('owner-member-num').textContent()).toBe(String(other.data.items.member_num));
    await expect.poll(() => page.getByTestId('owner-gel-fee').textContent()).toBe(`¥${grouped(other.data.items.gel_fee)}`);
    await houseTabs.filter({ hasText: '1101' }).click();
    await expect.poll(() => page.getByTestId('owner-member-num').textContent()).toBe(String(info.data.items.member_num));
    await expect.poll(() => page.getByTestId('owner-gel-fee').textContent()).toBe(`¥${grouped(info.data.items.gel_fee)}`);
    await expect.poll(() => rows(page, 'tab-bill').count()).toBeGreaterThan(0);
    await screenshot(page, 'owners-drawer-1440');

    for (const key of DRAWER_TABS) {
      await page.getByTestId(`owner-tab-${key}`).click();
      await page.getByTestId(tabTestId(key)).waitFor();
      await expect.poll(() => rows(page, tabTestId(key)).count(), { message: `tab ${key} has rows` }).toBeGreaterThan(0);
    }

    // the cars tab filters by plate on Enter
    await page.getByTestId('owner-tab-cars').click();
    const plate = page.getByTestId('tab-cars-filter-carlicense');
    const before = await rows(page, 'tab-cars').count();
    await plate.fill('沪A12345');
    await plate.press('Enter');
    await expect.poll(() => rows(page, 'tab-cars').allTextContents()).toEqual([expect.stringContaining('沪A12345')]);
    await plate.fill('沪Z99999');
    await plate.press('Enter');
    await expect.poll(() => rows(page, 'tab-cars').count()).toBe(0);
    await plate.fill('');
    await expect.poll(() => rows(page, 'tab-cars').count()).toBe(before);

    // a bill row opens the cashier for the room, and the drawer gives way
    await page.getByTestId('owner-tab-bill').click();
    await page.getByTestId('bill-cashier').first().click();
    await page.waitForURL('**/desktop/cashier?**');
    const query = new URL(page.url()).searchParams;
    expect([query.get('rid'), query.get('bid'), query.get('tid'), query.get('hid')]).toEqual(
      [home.rid, home.bid, home.tid, home.hid].map(String),
    );
    await page.getByTestId('owner-drawer').waitFor({ state: 'hidden' });
  });

  it('is usable on a phone: the search dialog and a full-width drawer', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'admin', undefined, '/basismembers/index');
    await page.getByTestId('member-list').waitFor();
    await expect.poll(() => page.locator('[data-testid="member-list"] .ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'owners-memberlist-390');
    await page.getByTestId('member-add').click();
    await stable(page, page.getByTestId('member-form'));
    await screenshot(page, 'owners-memberform-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('member-form').waitFor({ state: 'hidden' });

    await page.getByTestId('navbar-owner-search').click();
    await searchOwner(page, '陈建国', '陈建国');
    await expect.poll(() => page.getByTestId('owner-search-ok').isEnabled()).toBe(true);
    await stable(page, page.getByTestId('owner-search-ok')); // the OK button's colour transition
    await screenshot(page, 'owners-search-390');
    await page.getByTestId('owner-search-ok').click();
    await page.getByTestId('owner-drawer').waitFor();
    await expect.poll(() => page.getByTestId('owner-name').textContent()).toBe('陈建国');
    await expect.poll(() => rows(page, 'tab-bill').count()).toBeGreaterThan(0);
    const width = await page.getByTestId('owner-drawer').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThanOrEqual(PHONE.width - 1);
    await stable(page, page.getByTestId('owner-drawer'));
    await screenshot(page, 'owners-drawer-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  });

  it('keeps the desktop drawer at its width', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'admin');
    await page.getByTestId('navbar-owner-search').click();
    await searchOwner(page, '13800138000', '陈建国');
    await page.getByTestId('owner-search-ok').click();
    await page.getByTestId('owner-drawer').waitFor();
    const width = await page.getByTestId('owner-drawer').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThan(DESKTOP.width);
  });
});

journey('owners: import from Excel', ({ page: newPage }) => {
  it('imports an owner, follows the job to success and finds them in the refreshed list', async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/basismembers/index');
    await page.waitForURL('**/basismembers/index');
    await page.getByTestId('member-list').waitFor();
    await page.getByTestId('member-import-open').click();
    await page.getByTestId('member-import').waitFor();
    await page
      .getByTestId('member-import-file')
      .setInputFiles(
        await xlsxUpload(
          'members.xlsx',
          ['楼栋', '单元', '房号', '姓名', '手机号', '身份', '身份证号', '性别', '入住日期'],
          [['6号楼', '2单元', '1501', '上官婉儿', '13911110001', '业主', '', '女', '2024-03-01']],
        ),
      );
    const success = page.getByTestId('member-import-success');
    await success.waitFor({ timeout: 30_000 });
    expect(await success.textContent()).toContain('新增住户 1 人，关联房屋 1 条');
    expect(await page.getByTestId('member-import-progress').getAttribute('class')).toContain('ant-progress-status-success');
    await settle(page);
    await screenshot(page, 'owners-import-1440');
    await page.keyboard.press('Escape');
    await page.getByTestId('member-filter-name').fill('上官婉儿');
    await page.getByTestId('table-page-search').click();
    const list = page.getByTestId('member-list');
    await expect.poll(() => list.locator('.ant-table-row').count()).toBe(1);
    expect(await list.locator('.ant-table-row').first().textContent()).toContain('6号楼2单元1501');
  });
});
