import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, pick, pickCascader, pickToday, rowsOf, settle } from './antd.js';
import { PHONE, screenshot } from './browser.js';
import { journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const LOT = `东区停车场${RUN}`;
const PLATE = `沪E${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const modal = (page: Page) => page.locator('.ant-modal:visible').last();

/** Narrows a resource list by a text filter and waits for its rows to be the ones asked for. */
async function filterBy(page: Page, name: string, field: string, value: string, rows: number) {
  const table = page.getByTestId(`${name}-table`);
  const input = page.getByTestId(`${name}-filter-${field}`);
  // the first page must be in before typing: a list still loading may redraw its filters empty
  await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
  await settle(page);
  await input.fill(value);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(value);
  await expect.poll(() => rowsOf(table).count()).toBe(rows);
}

journey('parking: a lot with its booth and lanes, spaces, a monthly car rented, renewed and released', ({ page: newPage }) => {
  let lotId = 0;

  it('adds a lot, a booth and an in and an out lane (offline until a heartbeat comes)', async () => {
    const page = await newPage();
    await signIn(page, 'parking', undefined, '/carpark/carparklist');
    await page.getByTestId('carpark-table').waitFor();
    await page.getByTestId('carpark-add').click();
    const form = page.getByTestId('carpark-form');
    await form.waitFor();
    await page.getByTestId('carpark-code').fill(`E${RUN}`);
    await page.getByTestId('carpark-title').fill(LOT);
    await page.getByTestId('carpark-price_small').fill('150');
    await page.getByTestId('carpark-save').click();
    await form.waitFor({ state: 'hidden' });
    await filterBy(page, 'carpark', 'title', LOT, 1);
    const row = rowsOf(page.getByTestId('carpark-table')).first();
    const detail = row.locator('[data-testid^="carpark-detail-"]');
    lotId = Number((await detail.getAttribute('data-testid'))!.replace('carpark-detail-', ''));
    await detail.click();
    const drawer = page.getByTestId('lot-detail');
    await drawer.waitFor();

    await page.getByTestId('parkingbooth-add').click();
    await page.getByTestId('parkingbooth-form').waitFor();
    await page.getByTestId('parkingbooth-title').fill('东区岗亭');
    await page.getByTestId('parkingbooth-save').click();
    await page.getByTestId('parkingbooth-form').waitFor({ state: 'hidden' });
    await expect.poll(() => rowsOf(page.getByTestId('parkingbooth-table')).count()).toBe(1);

    await drawer.locator('.ant-tabs-tab').filter({ hasText: '车道' }).click();
    for (const [code, title, dir] of [
      [`E${RUN}-IN`, '东区入口', '入口'],
      [`E${RUN}-OUT`, '东区出口', '出口'],
    ] as const) {
      await page.getByTestId('parkinglane-add').click();
      await page.getByTestId('parkinglane-form').waitFor();
      await pick(page, 'parkinglane-booth_id', `${LOT} / 东区岗亭`);
      await page.getByTestId('parkinglane-code').fill(code);
      await page.getByTestId('parkinglane-title').fill(title);
      await modal(page).getByText(dir, { exact: true }).click();
      await page.getByTestId('parkinglane-save').click();
      await page.getByTestId('parkinglane-form').waitFor({ state: 'hidden' });
    }
    const lanes = page.getByTestId('parkinglane-table');
    await expect.poll(() => rowsOf(lanes).count()).toBe(2);
    expect(await rowsOf(lanes).allInnerTexts()).toEqual([expect.stringContaining('离线'), expect.stringContaining('离线')]);
    await settle(page);
    await screenshot(page, 'carpark-lot-lanes-1440');
  });

  it('adds ten spaces in one batch', async () => {
    const page = await newPage();
    await signIn(page, 'parking', undefined, '/carpark/cdlist');
    await page.getByTestId('parkingspace-table').waitFor();
    await page.getByTestId('parkingspace-batch').click();
    await pick(page, 'parkingspace-batch-lot', LOT);
    await page.getByTestId('parkingspace-batch-prefix').fill('E-');
    await page.getByTestId('parkingspace-batch-from').fill('1');
    await page.getByTestId('parkingspace-batch-to').fill('10');
    await page.getByTestId('parkingspace-batch-save').click();
    await notice(page, '已添加 10 个车位').waitFor();
    await pick(page, 'parkingspace-filter-lot_id', LOT);
    await page.getByTestId('parkingspace-search').click();
    await expect.poll(() => rowsOf(page.getByTestId('parkingspace-table')).count()).toBe(10);
  });

  it('adds a monthly car for 1101’s owner on a free space: the space is rented', async () => {
    const page = await newPage();
    await signIn(page, 'parking', undefined, '/carpark/caradd');
    const form = page.getByTestId('car-form');
    await form.waitFor();
    await pickCascader(page, form.getByTestId('car-hid'), ['1号楼', '1单元', '1101']);
    // the parking staff see owners' mobiles masked: the owner is picked by name
    await page.getByTestId('car-member_id').click();
    const owner = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '陈建国' }).first();
    await chooseOption(page, owner);
    await page.getByTestId('car-carlicense').fill(PLATE);
    await pick(page, 'car-lot_id', LOT);
    await pick(page, 'car-lease_type', '月租');
    await pick(page, 'car-space_id', 'E-001');
    await pickToday(page, page.getByTestId('car-end_date'));
    await settle(page);
    await screenshot(page, 'carpark-caradd-1440');
    await page.getByTestId('car-save').click();
    await form.waitFor({ state: 'hidden' });
    // back on the list, the car holds its space
    await expect.poll(() => page.url()).toContain('/carpark/carlist');
    await filterBy(page, 'car', 'carlicense', PLATE, 1);
    expect(await rowsOf(page.getByTestId('car-table')).first().innerText()).toMatch(/月租[\s\S]*E-001/);

    await page.goto('/carpark/cdlist');
    await filterBy(page, 'parkingspace', 'title', 'E-001', 1);
    expect(await rowsOf(page.getByTestId('parkingspace-table')).first().innerText()).toContain('出租');
  });

  it('renews it three months by the group’s POS机-工行 with its reference: the new end shows, and the order is in the monthly log', async () => {
    const page = await newPage();
    await signIn(page, 'parking', undefined, '/carpark/moncarlist');
    await page.getByTestId('moncar-page').waitFor();
    await page.getByTestId('moncar-filter-carlicense').fill(PLATE);
    await page.getByTestId('table-page-search').click();
    const rows = rowsOf(page.getByTestId('moncar-page'));
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().locator('[data-testid^="moncar-renew-"]').click();
    await page.getByTestId('moncar-renew-months').fill('3');
    await expect.poll(() => page.getByTestId('moncar-renew-amount').textContent()).toContain('应收 450.00 元');
    // the group's own way asks for the terminal's reference before it takes the money
    await page.getByTestId('moncar-renew-paytype').getByText('POS机-工行').click();
    await expect.poll(() => page.getByTestId('moncar-renew-problem').textContent()).toContain('凭证号');
    expect(await page.getByTestId('moncar-renew-save').isDisabled()).toBe(true);
    await page.getByTestId('moncar-renew-paytype-ref').fill('POS-E2E-1');
    await expect.poll(() => page.getByTestId('moncar-renew-amount').textContent()).toContain('POS机-工行（银行卡）');
    await settle(page);
    await screenshot(page, 'carpark-renew-pos-1440');
    await page.getByTestId('moncar-renew-save').click();
    const done = notice(page, /续费成功，新到期日 \d{4}-\d{2}-\d{2}/);
    await done.waitFor();
    const newEnd = (await done.textContent())!.match(/\d{4}-\d{2}-\d{2}/)![0];
    await expect.poll(() => rows.first().innerText()).toContain(newEnd);

    await page.goto('/carpark/monthcarlog');
    const orders = page.getByTestId('carorder-page');
    await orders.waitFor();
    await orders.getByTestId('carorder-filter-carlicense').fill(PLATE);
    await orders.getByTestId('table-page-search').click();
    await expect.poll(() => rowsOf(orders).count()).toBe(1);
    expect(await rowsOf(orders).first().innerText()).toMatch(
      new RegExp(`${PLATE}[\\s\\S]*3[\\s\\S]*450\\.00[\\s\\S]*${newEnd}[\\s\\S]*停车管理[\\s\\S]*POS机-工行（银行卡）[\\s\\S]*POS-E2E-1`),
    );
    await settle(page);
    await screenshot(page, 'carpark-monthcarlog-1440');
  });

  it('releases it: the space is free again', async () => {
    const page = await newPage();
    await signIn(page, 'parking', undefined, '/carpark/carlist');
    await page.getByTestId('car-table').waitFor();
    await filterBy(page, 'car', 'carlicense', PLATE, 1);
    await rowsOf(page.getByTestId('car-table')).first().locator('[data-testid^="car-release-"]').click();
    await page.getByTestId('car-release-confirm').click();
    await notice(page, '已释放车位').waitFor();
    await expect.poll(() => rowsOf(page.getByTestId('car-table')).first().locator('[data-testid^="car-assign-"]').count()).toBe(1);
    await page.goto('/carpark/cdlist');
    await filterBy(page, 'parkingspace', 'title', 'E-001', 1);
    expect(await rowsOf(page.getByTestId('parkingspace-table')).first().innerText()).toContain('空闲');
    expect(lotId).toBeGreaterThan(0);
  });

  it('finds a demo car expiring within 7 days', async () => {
    const page = await newPage();
    await signIn(page, 'parking', undefined, '/carpark/moncarlist');
    await page.getByTestId('moncar-page').waitFor();
    await pick(page, 'moncar-filter-expiring', '7 天内到期');
    await page.getByTestId('table-page-search').click();
    const rows = rowsOf(page.getByTestId('moncar-page'));
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const days = await rows.locator('.ant-tag').allInnerTexts();
    expect(days.length).toBeGreaterThan(0);
    expect(days.every((d) => d === '今天到期' || Number(d.replace(/\D/g, '')) <= 7)).toBe(true);
  });

  it('reads the car list on a phone', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'parking', undefined, '/carpark/carlist');
    const table = page.getByTestId('car-table');
    await table.waitFor();
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'carpark-carlist-390');
    // the page fits the phone's width: no sideways scroll of the whole page
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width + 1);
  });
});
