import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

/**
 * Text with HTML in it shows as text everywhere an owner appears: an owner named with an
 * <img onerror> (names are at most 30 characters, so the shortest form that still runs script),
 * the full `window.__xss` form in a remark and a car brand, and a name with <b>. No element is
 * injected and no script runs.
 */
const IMG_NAME = '<img src=x onerror=__xss=1>';
const IMG_FULL = '<img src=x onerror=window.__xss=1>';
const BOLD_NAME = '<b>粗体</b>王';
const MOBILE_IMG = '13566660101';
const MOBILE_BOLD = '13566660102';
const PLATE = '沪X66601';

/** Nothing injected: no script ran, no <img src=x>, no onerror attribute, no <b> from the data. */
async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"], [onerror]').count()).toBe(0);
  expect(await page.locator('b', { hasText: '粗体' }).count()).toBe(0);
}

/** A room of 5号楼 2单元 on the 15th floor (rooms no other journey uses). */
async function room(token: string, title: string): Promise<number> {
  const buildings = (await api('building_small_list', {}, token)).data.items as Array<{ id: number; title: string }>;
  const bid = buildings.find((b) => b.title === '5号楼')!.id;
  const units = (await api('unit_small_list', { bid }, token)).data.items as Array<{ id: number; title: string }>;
  const tid = units.find((u) => u.title === '2单元')!.id;
  const rooms = (await api('room_small_list', { tid }, token)).data.items as Array<{ id: number; title: string }>;
  return rooms.find((r) => r.title === title)!.id;
}

journey('safety: HTML in owner data renders as text', ({ page: newPage }) => {
  it('shows the names literally in the owner list, the owner search and the drawer, and runs nothing', async () => {
    const token = await apiLogin('admin');
    const [hidImg, hidBold] = [await room(token, '1501'), await room(token, '1502')];
    const tooLong = await api(
      'memberadd',
      { realname: IMG_FULL, mobile: '13566660100', rooms: [{ hid: hidImg, relation: 'owner' }] },
      token,
    );
    // the full form is longer than a name may be; refused for its length, not for its characters
    expect(tooLong.return_msg).toMatch(/realname.*30/);
    const img = await api(
      'memberadd',
      { realname: IMG_NAME, mobile: MOBILE_IMG, remark: IMG_FULL, rooms: [{ hid: hidImg, relation: 'owner' }] },
      token,
    );
    expect(img.return_code, img.return_msg).toBe('SUCCESS');
    const bold = await api('memberadd', { realname: BOLD_NAME, mobile: MOBILE_BOLD, rooms: [{ hid: hidBold, relation: 'owner' }] }, token);
    expect(bold.return_code, bold.return_msg).toBe('SUCCESS');
    const car = await api('caradd', { hid: hidImg, member_id: img.data.id, carlicense: PLATE, brand: IMG_FULL }, token);
    expect(car.return_code, car.return_msg).toBe('SUCCESS');

    const page = await newPage();
    await signIn(page, 'admin', undefined, '/basismembers/index');
    const list = page.getByTestId('member-list');
    await list.waitFor();
    for (const [mobile, name] of [
      [MOBILE_IMG, IMG_NAME],
      [MOBILE_BOLD, BOLD_NAME],
    ] as const) {
      await page.getByTestId('member-filter-mobile').fill(mobile);
      await page.getByTestId('table-page-search').click();
      await expect.poll(() => list.locator('.ant-table-row').count()).toBe(1);
      await expect.poll(() => list.locator('.ant-table-row td').nth(1).textContent()).toBe(name);
      await expectInert(page);
    }
    await screenshot(page, 'safety-memberlist-1440');

    // the car list shows the brand as typed
    await page.goto('/basismembers/cars');
    await page.getByTestId('car-filter-carlicense').fill(PLATE);
    await page.getByTestId('car-filter-carlicense').press('Enter');
    const cars = page.getByTestId('car-table');
    await expect.poll(() => cars.locator('.ant-table-row').count()).toBe(1);
    const carRow = await cars.locator('.ant-table-row').first().textContent();
    expect(carRow).toContain(IMG_FULL);
    expect(carRow).toContain(IMG_NAME);
    await expectInert(page);

    // the owner search dialog and the drawer
    await page.getByTestId('navbar-owner-search').click();
    await page.getByTestId('owner-search-dialog').waitFor();
    await page.getByTestId('owner-search-input').fill(MOBILE_BOLD);
    await page.getByTestId('owner-search-button').click();
    await expect.poll(() => page.getByTestId('owner-search-results').textContent()).toContain(BOLD_NAME);
    await expectInert(page);
    await page.getByTestId('owner-search-input').fill(MOBILE_IMG);
    await page.getByTestId('owner-search-button').click();
    await expect.poll(() => page.getByTestId('owner-search-results').textContent()).toContain(IMG_NAME);
    await expectInert(page);
    await page.getByTestId('owner-search-result').first().click();
    await screenshot(page, 'safety-search-1440');
    await page.getByTestId('owner-search-ok').click();
    await page.getByTestId('owner-drawer').waitFor();
    await expect.poll(() => page.getByTestId('owner-name').textContent()).toBe(IMG_NAME);
    await page.getByTestId('owner-tab-cars').click();
    await page.getByTestId('tab-cars').waitFor();
    await expect.poll(() => page.locator('[data-testid="tab-cars"] .ant-table-row').first().textContent()).toContain(IMG_NAME);
    await screenshot(page, 'safety-drawer-1440');
    await expectInert(page);
  });
});
