import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Picks an option of the antd Select marked with `testId` (the open dropdown is the last one). */
export async function pick(page: Page, testId: string, option: string, search = false) {
  await page.getByTestId(testId).click();
  // long option lists are virtual: type to bring the option into view
  if (search) await page.keyboard.type(option);
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).last().click();
}

/** Picks building / unit / room of a RoomSelects group marked with `testId`. */
export async function pickRoom(page: Page, testId: string, building: string, unit: string, room?: string) {
  await pick(page, `${testId}-building`, building);
  await pick(page, `${testId}-unit`, unit);
  if (room) await pick(page, `${testId}-room`, room, true);
}

/** Picks a month ('YYYY-MM') in the antd month picker marked with `testId`, paging years forward or back. */
export async function pickMonth(page: Page, testId: string, month: string) {
  await page.getByTestId(testId).click();
  const panel = page.locator('.ant-picker-dropdown:visible').last();
  const year = Number(month.slice(0, 4));
  for (let i = 0; i < 5; i++) {
    const cell = panel.locator(`td[title="${month}"]`);
    if (await cell.count()) {
      await cell.click();
      return;
    }
    const shown = Number((await panel.locator('.ant-picker-year-btn').textContent())?.replace(/\D/g, ''));
    await panel.locator(shown < year ? '.ant-picker-header-super-next-btn' : '.ant-picker-header-super-prev-btn').click();
  }
  throw new Error(`month ${month} not found in the picker`);
}

/** Waits for open dropdowns, loading tables and animations to finish before a screenshot. */
export async function settle(page: Page) {
  await expect.poll(() => page.locator('.ant-select-dropdown:visible, .ant-spin-blur').count()).toBe(0);
  await page.waitForTimeout(400);
}

export const rowsOf = (table: Locator) => table.locator('tbody tr.ant-table-row');
