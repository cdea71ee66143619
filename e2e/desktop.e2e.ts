import { expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

const yuan = (v: string) => `¥${Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

journey('the community desktop', ({ page: newPage }) => {
  it("shows the community's day on the first screen: takings, collection, arrears with late fees, rooms, to-dos, shortcuts, recent receipts", async () => {
    const token = await apiLogin('admin');
    const figures = (await api('regiondesktop', {}, token)).data;
    const month = (await api('feedashboard', {}, token)).data;
    const recent = (await api('paymentlist', { page: 1, limit: 10, sort: 'desc' }, token)).data;
    const page = await newPage(DESKTOP);
    const errors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    await signIn(page, 'admin', undefined, '/desktop/regiondesktop');
    await page.getByTestId('region-desktop').waitFor();
    // the one arrears figure of the server, late fees included
    await expect.poll(() => page.getByTestId('desktop-arrears').innerText()).toContain(yuan(figures.arrears.total));
    expect(Number(figures.arrears.total)).toBeGreaterThan(0);
    // the month's card reads a call of its own (feedashboard), which may answer after the desktop's
    await expect.poll(() => page.getByTestId('desktop-month').innerText()).toContain(yuan(month.received));
    expect(await page.getByTestId('desktop-month').innerText()).toContain(`${month.rate}%`);
    expect(await page.getByTestId('desktop-today').innerText()).toContain(yuan(figures.today.amount));
    const rooms = await page.getByTestId('desktop-rooms').innerText();
    expect(rooms).toContain(`${figures.rooms.total} 套`);
    expect(rooms).toContain(`空置 ${figures.rooms.vacant}`);
    expect(rooms).toContain(`业主 ${figures.owners} 人`);
    // the open to-dos with 去处理, and the daily pages
    await page.getByTestId('panel-todos').waitFor();
    for (const path of [
      '/desktop/cashier',
      '/fees/feebilllist',
      '/fees/payment',
      '/basismembers/index',
      '/roomlist',
      '/fees/feebillworkadd',
    ]) {
      expect(await page.getByTestId(`shortcut-${path}`).count(), path).toBe(1);
    }
    // the last ten receipts, newest first
    const rows = page.locator('[data-testid="desktop-recent"] tbody tr');
    await expect.poll(() => rows.count()).toBe(Math.min(10, recent.items.length));
    expect(await rows.first().innerText()).toContain(recent.items[0].receipt_no);
    // the first screen is the day's work: figures and the to-dos inside 900 px
    const todos = await page.getByTestId('panel-todos').boundingBox();
    expect(todos!.y).toBeLessThan(900);
    const figuresBox = await page.getByTestId('desktop-figures').boundingBox();
    expect(figuresBox!.y + figuresBox!.height).toBeLessThan(900);
    await screenshot(page, 'desktop-regiondesktop-1440');
    expect(errors).toEqual([]);
    // a shortcut leads to its page
    await page.getByTestId('shortcut-/fees/payment').click();
    await page.waitForURL((u) => u.pathname === '/fees/payment');
  });

  it('stacks on a phone without sideways scrolling of the page', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'admin', undefined, '/desktop/regiondesktop');
    await page.getByTestId('region-desktop').waitFor();
    await page.locator('[data-testid="desktop-recent"] tbody tr').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // the cards stack: one above the other, each the page's width
    const a = await page.getByTestId('desktop-today').boundingBox();
    const b = await page.getByTestId('desktop-month').boundingBox();
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    await screenshot(page, 'desktop-regiondesktop-390');
  });

  it('is kept from a role the counter is not theirs', async () => {
    // the merchant account: the steward's demo password is changed by the shell's journey
    const merchant = await apiLogin('merchant');
    expect((await api('regiondesktop', {}, merchant)).return_code).toBe('NO_PERMISSION');
  });

  it('picks a room from its building: a board by unit and floor, owing rooms marked, a panel that leads to the cashier', async () => {
    const token = await apiLogin('admin');
    const buildings = (await api('building_small_list', {}, token)).data;
    const bid = buildings.items[0].id;
    const board = (await api('roomboard', { bid }, token)).data;
    const owing = board.items.find(
      (r: { arrears: { bill_count: number }; owners: unknown[] }) => r.arrears.bill_count > 0 && r.owners.length > 0,
    );
    expect(owing).toBeTruthy();
    const page = await newPage(DESKTOP);
    const errors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    await signIn(page, 'admin', undefined, '/desktop/frombuilding');
    await page.getByTestId('room-board').waitFor();
    const tiles = page.locator('[data-testid^="room-tile-"]');
    await expect.poll(() => tiles.count()).toBe(board.items.length);
    // an owing room carries its arrears, late fees included, in its tile
    const tile = page.getByTestId(`room-tile-${owing.id}`);
    expect(await tile.getAttribute('data-owing')).toBe(owing.arrears.total);
    expect(await tile.innerText()).toContain(yuan(owing.arrears.total));
    await screenshot(page, 'desktop-frombuilding-1440');
    await tile.click();
    const panel = page.getByTestId('room-panel-bills');
    await panel.waitFor();
    expect(await panel.innerText()).toContain(yuan(owing.arrears.total));
    expect(await page.getByTestId('room-panel-owners').innerText()).toContain(owing.owners[0].name);
    await screenshot(page, 'desktop-frombuilding-panel-1440');
    expect(errors).toEqual([]);
    // 业主信息: the owner drawer of the room
    await page.getByTestId('room-panel-owner').click();
    await expect.poll(() => page.locator('.ant-drawer-open').count()).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-drawer-open').count()).toBeLessThanOrEqual(1);
    // 去收银: the cashier desk on that room
    await page.getByTestId('room-panel-cashier').click();
    await page.waitForURL((u) => u.pathname === '/desktop/cashier' && u.searchParams.get('hid') === String(owing.id));
  });

  it('shows the board on a phone without sideways scrolling of the page', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'admin', undefined, '/desktop/frombuilding');
    await page.locator('[data-testid^="room-tile-"]').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'desktop-frombuilding-390');
    await page.locator('[data-testid^="room-tile-"]').first().click();
    await page.getByTestId('room-panel-cashier').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'desktop-frombuilding-panel-390');
  });
});
