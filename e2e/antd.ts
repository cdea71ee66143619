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

/** Picks a path (building > unit > room, say) in an antd Cascader whose levels load on demand. */
export async function pickCascader(page: Page, picker: Locator, path: string[]) {
  await picker.click();
  const item = (level: number, label: string) =>
    page
      .locator('.ant-cascader-dropdown:visible .ant-cascader-menu')
      .nth(level)
      .locator('.ant-cascader-menu-item')
      .filter({ hasText: new RegExp(`^${label}$`) });
  for (const [level, label] of path.entries()) {
    // a level loads when its parent is clicked; a click that lands before the parent settles loads nothing, so click it again
    for (let attempt = 0; level > 0 && attempt < 3; attempt++) {
      if (
        await item(level, label)
          .waitFor({ timeout: 5000 })
          .then(
            () => true,
            () => false,
          )
      )
        break;
      await item(level - 1, path[level - 1]!).click();
    }
    await item(level, label).click();
  }
  await page.locator('.ant-cascader-dropdown:visible').waitFor({ state: 'hidden' });
}

/** Picks an option of the antd Select `select` by its whole visible text (`pick` goes by test id and title). */
export async function pickText(page: Page, select: Locator, option: string) {
  await select.click();
  const item = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .first();
  await item.click();
  // a chosen option closes the list; one clicked while the list was still opening is clicked again, as a user would
  await page.waitForTimeout(300);
  if (await item.isVisible()) await item.click();
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

/**
 * Waits for the page's finite animations (a dialog's zoom as it opens) to end: a click during one
 * is aimed where the target was a frame before and can land beside it. Spinners, which turn for
 * ever, are not waited for.
 */
export async function animationsDone(page: Page) {
  await page.evaluate(() =>
    Promise.allSettled(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished),
    ),
  );
}

/** Waits for open dropdowns, loading tables and animations to finish before a screenshot. */
export async function settle(page: Page) {
  await expect.poll(() => page.locator('.ant-select-dropdown:visible, .ant-spin-blur').count()).toBe(0);
  await page.waitForTimeout(400);
}

export const rowsOf = (table: Locator) => table.locator('tbody tr.ant-table-row');
