import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { animationsDone, pick, rowsOf, settle, stable } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

interface Thing {
  id: number;
  title: string;
  items: Array<{ item_title: string; via_scope_ch: string; via_title: string; unit_price: string }>;
}

/** What the server answers for the filters the page shows (the page's own call, page 1 of 10). */
async function serverList(token: string, filters: Record<string, unknown>) {
  const res = await api<{ items: Thing[]; total: number }>('feethingpagelist', { page: 1, limit: 10, ...filters }, token);
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return res.data;
}

/** The titles of the rows the user sees, and the total under the table. */
async function shown(table: Locator) {
  const titles = await table.getByTestId('thing-title').allTextContents();
  const total =
    (await table
      .locator('.ant-pagination-total-text')
      .textContent()
      .catch(() => '')) ?? '';
  return { titles, total };
}

/** Waits until the table shows exactly the server's page and total. */
async function showsServer(table: Locator, expected: { items: Thing[]; total: number }) {
  await expect
    .poll(async () => shown(table))
    .toEqual({ titles: expected.items.map((t) => t.title), total: expected.total ? `共 ${expected.total} 条` : '' });
}

const kindTab = (page: Page, label: string) => page.getByTestId('thing-kind').getByText(label, { exact: true });

journey('fees: 收费对象, what each room, space and car is charged', ({ page: newPage }) => {
  let page: Page;
  let token: string;
  let table: Locator;
  let water: number;

  it('lists the rooms with their items as the server has them', async () => {
    token = await apiLogin('admin');
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/fees/feethinglist');
    table = page.getByTestId('feethinglist-page');
    await table.waitFor();
    const rooms = await serverList(token, { kind: 'room' });
    expect(rooms.total).toBeGreaterThan(700);
    await showsServer(table, rooms);
    // each row's tags are the items the server resolved for it
    const firstRow = rowsOf(table).first();
    const tags = await firstRow.getByTestId('thing-items').locator('.ant-tag').allTextContents();
    expect(tags).toEqual(rooms.items[0]!.items.map((i) => i.item_title));
    expect(tags).toContain('物业服务费');
    expect(tags).toContain('公共能耗分摊');
    await settle(page);
    await screenshot(page, 'fees-feethinglist-1440');
  });

  it('filters by an item, and tells how it is bound in the tag', async () => {
    const things = await api<{ items: Array<{ id: number; title: string }> }>('feethinglist', {}, token);
    water = things.data.items.find((i) => i.title === '生活用水')!.id;
    await pick(page, 'thing-item', '生活用水');
    await page.getByTestId('table-page-search').click();
    const bound = await serverList(token, { kind: 'room', item_id: water });
    // the demo binds the water to 1号楼: its rooms and shops
    expect(bound.total).toBeGreaterThan(100);
    expect(bound.total).toBeLessThan(200);
    await showsServer(table, bound);
    const tag = rowsOf(table).first().locator('.ant-tag', { hasText: '生活用水' });
    await stable(page, tag);
    await tag.hover();
    const tip = page.locator('.ant-tooltip:visible');
    await expect.poll(() => tip.textContent()).toContain('楼栋「1号楼」绑定');
    expect(await tip.textContent()).toContain('4.2000');
    await page.mouse.move(0, 0);
  });

  it('shows only the rooms the item does not reach, then those no item reaches', async () => {
    await page.getByText('只看未绑定', { exact: true }).click();
    const notBound = await serverList(token, { kind: 'room', item_id: water, unbound: true });
    await showsServer(table, notBound);
    const all = await serverList(token, { kind: 'room' });
    const bound = await serverList(token, { kind: 'room', item_id: water });
    expect(notBound.total + bound.total).toBe(all.total);
    expect(await rowsOf(table).first().textContent()).not.toContain('生活用水');

    // without the item: every room has the community-wide item, so none is left, and the page says so
    await table.getByRole('button', { name: /重\s*置/ }).click();
    await page.getByText('只看未绑定', { exact: true }).click();
    const none = await serverList(token, { kind: 'room', unbound: true });
    expect(none.total).toBe(0);
    await expect.poll(() => page.getByTestId('thing-empty').textContent()).toBe('所有房屋都已绑定收费项目');
    await settle(page);
    await screenshot(page, 'fees-feethinglist-unbound-1440');
  });

  it('switches to the spaces: the lot and the single-space bindings', async () => {
    await page.getByText('只看未绑定', { exact: true }).click();
    await kindTab(page, '车位').click();
    const spaces = await serverList(token, { kind: 'space' });
    expect(spaces.total).toBeGreaterThan(0);
    await showsServer(table, spaces);
    await page.getByTestId('thing-keywords').fill('沪AD12345');
    await page.getByTestId('table-page-search').click();
    const charging = await serverList(token, { kind: 'space', keywords: '沪AD12345' });
    expect(charging.total).toBe(1);
    await showsServer(table, charging);
    const tags = await rowsOf(table).first().getByTestId('thing-items').locator('.ant-tag').allTextContents();
    expect(tags.sort()).toEqual(['充电车位服务费', '地下车位管理费']);
    await settle(page);
    await screenshot(page, 'fees-feethinglist-space-1440');
  });

  it("opens 收费绑定 for a car, with the car chosen, and a room's bills", async () => {
    await page.getByTestId('thing-keywords').fill('沪A12345');
    await kindTab(page, '车辆').click();
    const cars = await serverList(token, { kind: 'car', keywords: '沪A12345' });
    expect(cars.total).toBe(1);
    await showsServer(table, cars);
    expect(await rowsOf(table).first().textContent()).toContain('车辆管理费');
    await page.getByTestId(`thing-bind-${cars.items[0]!.id}`).click();
    await page.waitForURL(/\/fees\/bindfee\?scope=car&ref_id=\d+/);
    const modal = page.locator('.ant-modal:visible');
    await expect.poll(() => modal.locator('.ant-radio-wrapper-checked').textContent()).toBe('车辆');
    await expect.poll(() => modal.getByTestId('bind-targets').textContent()).toContain('沪A12345');
    await animationsDone(page);
    await screenshot(page, 'fees-feethinglist-bindfee-1440');
    await modal.getByRole('button', { name: /取\s*消/ }).click();
    await modal.waitFor({ state: 'hidden' });

    await page.goto('/fees/feethinglist');
    await table.waitFor();
    const rooms = await serverList(token, { kind: 'room' });
    await showsServer(table, rooms);
    const room = rooms.items[0]!;
    await page.getByTestId(`thing-bills-${room.id}`).click();
    await page.waitForURL(/\/fees\/feebilllist\?bid=\d+&tid=\d+&hid=\d+/);
    const bills = page.getByTestId('feebilllist-page');
    await bills.waitFor();
    await expect.poll(() => rowsOf(bills).count()).toBeGreaterThan(0);
    for (const text of await rowsOf(bills).allTextContents()) expect(text).toContain(room.title);
  });

  it('fits a phone: no sideways scrolling, on the rooms and the spaces', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/fees/feethinglist');
    const list = phone.getByTestId('feethinglist-page');
    await list.waitFor();
    const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await showsServer(list, await serverList(token, { kind: 'room' }));
    await settle(phone);
    expect(await overflow()).toBe(0);
    // the list comes first: its filters wait behind 筛选
    expect(await phone.getByTestId('table-page-filters').isVisible()).toBe(false);
    const firstRow = await rowsOf(list).first().boundingBox();
    expect(firstRow!.y + firstRow!.height).toBeLessThan(844);
    await screenshot(phone, 'fees-feethinglist-390');
    await kindTab(phone, '车位').click();
    await showsServer(list, await serverList(token, { kind: 'space' }));
    await settle(phone);
    expect(await overflow()).toBe(0);
    await screenshot(phone, 'fees-feethinglist-space-390');
  });
});
