import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { openFilters, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

interface Owing {
  hid: number;
  address: string;
  bill_count: number;
}

/**
 * The cashier's day: a room paid at the desk, its receipt voided with a reason (from the receipt on
 * a desk, from 收费记录 on a phone) and its bills unpaid again, then 交班: the shift by method, the
 * hand-over, the history; finance sees the hand-over.
 */
async function cashierDay(page: Page, room: Owing, admin: string, width: number, from: 'receipt' | 'list') {
  await page.goto(`/desktop/cashier?hid=${room.hid}`);
  await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(room.address);
  await page.getByTestId('cashier-pay-type').getByText('微信支付').click();
  await page.getByTestId('cashier-confirm').click();
  await page.getByTestId('cashier-summary').waitFor();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
  await page.getByTestId('receipt').waitFor();
  const paymentId = Number(/receipt\/(\d+)/.exec(page.url())![1]);
  const info = await api<{ receipt_no: string }>('paymentinfo', { id: paymentId }, admin);
  const receiptNo = info.data.receipt_no;

  if (from === 'receipt') {
    await page.getByTestId('receipt-void-open').click();
  } else {
    await page.goto('/fees/payment');
    await page.getByTestId('payment-page').waitFor();
    await openFilters(page);
    await page.getByTestId('payment-receipt-no').fill(receiptNo);
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => rowsOf(page.getByTestId('payment-page')).count()).toBe(1);
    await page.getByTestId(`payment-void-${paymentId}`).click();
  }
  const reason = page.getByTestId('payment-void-reason');
  await reason.waitFor();
  expect(await page.getByTestId('payment-void-save').isDisabled()).toBe(true);
  await reason.fill('收错房屋，已退还');
  await settle(page);
  await screenshot(page, `fees-shift-void-${width}`);
  await page.getByTestId('payment-void-save').click();
  if (from === 'receipt') {
    await expect.poll(() => page.getByTestId('receipt-void').textContent()).toContain('已作废：收错房屋，已退还');
    expect(await page.getByTestId('receipt-void-open').count()).toBe(0);
  } else {
    await expect.poll(() => page.getByTestId(`payment-status-${paymentId}`).textContent()).toBe('已作废');
    expect(await page.getByTestId(`payment-void-${paymentId}`).count()).toBe(0);
  }
  // the room owes what it owed
  const desk = await api<{ items: unknown[] }>('cashierbills', { hid: room.hid }, admin);
  expect(desk.data.items).toHaveLength(room.bill_count);

  // 交班: the shift lists the voided receipt and sums by method
  await page.goto('/fees/shift');
  const current = page.getByTestId('shift-current');
  await expect.poll(() => current.getByTestId('shift-items').textContent()).toContain(receiptNo);
  expect(await current.getByTestId('shift-voided').textContent()).toMatch(/^[1-9]\d* 笔/);
  await settle(page);
  await screenshot(page, `fees-shift-current-${width}`);
  if (width < 992) expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const before = await api<{ total: number }>('shiftlist', {}, admin);
  await page.getByTestId('shift-remark').fill(`交班 ${width}`);
  await page.getByTestId('shift-handover').click();
  await page.getByTestId('shift-handover-confirm').click();
  await expect.poll(() => current.textContent()).toContain('无需交班');
  await expect.poll(() => page.locator('.ant-modal-confirm:visible').count()).toBe(0);
  const history = rowsOf(page.getByTestId('shift-list'));
  await expect.poll(() => history.first().textContent()).toContain(`交班 ${width}`);
  expect((await api<{ total: number }>('shiftlist', {}, admin)).data.total).toBe(before.data.total + 1);
  await settle(page);
  await screenshot(page, `fees-shift-history-${width}`);
  // the printed 交班单
  await history.first().locator('[data-testid^="shift-print-"]').click();
  await page.getByTestId('shift-sheet').waitFor();
  expect(await page.getByTestId('shift-sheet').textContent()).toContain(receiptNo);
  await settle(page);
  await screenshot(page, `fees-shift-print-${width}`);
}

journey("fees: the cashier's day, a receipt voided, the shift handed over and seen by finance", ({ page: newPage }) => {
  let rooms: Owing[] = [];
  let admin = '';

  it('finds rooms in arrears for the walk, away from the other journeys', async () => {
    admin = await apiLogin('admin');
    const owing = (await api<{ items: Owing[] }>('fees_count_nopay', { limit: 100 }, admin)).data.items.filter(
      (r) => r.bill_count >= 1 && !/^[12]号楼/.test(r.address),
    );
    rooms = owing.slice(-2);
    expect(rooms).toHaveLength(2);
  });

  it('at 1440×900: pays, voids from the receipt, hands over the shift', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'cashier', undefined, '/desktop/cashier');
    await cashierDay(page, rooms[0]!, admin, 1440, 'receipt');
  });

  it('at 390×844: pays, voids from 收费记录, hands over the shift', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'cashier', undefined, '/desktop/cashier');
    await cashierDay(phone, rooms[1]!, admin, 390, 'list');
  });

  it("finance sees the cashier's hand-overs and prints one", async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'finance', undefined, '/fees/shift');
    const list = page.getByTestId('shift-list');
    await page.getByTestId('shift-filter-cashier').fill('赵收银');
    await page.getByTestId('table-page-search').click();
    await expect.poll(() => rowsOf(list).first().textContent()).toContain('交班 390');
    expect(await page.getByTestId('shift-current').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'fees-shift-finance-1440');
  });
});
