import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Picks an option of the antd Select marked with `testId` (the open dropdown is the last one). */
export async function pick(page: Page, testId: string, option: string, search = false) {
  await page.getByTestId(testId).click();
  // long option lists are virtual: type to bring the option into view
  if (search) await page.keyboard.type(option);
  await chooseOption(page, page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).last());
}

/**
 * Clicks an option of an open list once it stops moving: a click while the list still slides open
 * is aimed where the option was a frame before. A chosen option closes the list (or, in a list
 * of many choices, shows as chosen); one whose click went astray anyway is clicked again, as a
 * user would.
 */
export async function chooseOption(page: Page, item: Locator) {
  await stable(page, item);
  await item.click();
  // an option that goes between the count and the read is not waited for (30 s): the next poll counts it gone
  const chosen = async () =>
    (await item.count()) === 0 ||
    /\bant-select-item-option-selected\b/.test((await item.getAttribute('class', { timeout: 200 }).catch(() => '')) ?? '');
  const settled = () =>
    expect
      .poll(chosen, { timeout: 5000 })
      .toBe(true)
      .then(
        () => true,
        () => false,
      );
  if (!(await settled())) {
    await item.click();
    await expect.poll(chosen).toBe(true);
  }
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
  await chooseOption(page, item);
}

/** Picks a month ('YYYY-MM') in the antd month picker marked with `testId`, paging years forward or back. */
export async function pickMonth(page: Page, testId: string, month: string) {
  const field = page.getByTestId(testId);
  const input = (await field.evaluate((e) => e.tagName)) === 'INPUT' ? field : field.locator('input');
  // a click while the panel still slides in can land on the neighbouring month: check what the
  // field shows and pick again if it is not the month asked for
  for (let attempt = 0; attempt < 3; attempt++) {
    await field.click();
    const panel = page.locator('.ant-picker-dropdown:visible').last();
    await panel.waitFor();
    await animationsDone(page);
    const year = Number(month.slice(0, 4));
    let picked = false;
    for (let i = 0; i < 5 && !picked; i++) {
      const cell = panel.locator(`td[title="${month}"]`);
      if (await cell.count()) {
        await cell.click();
        picked = true;
        break;
      }
      const shown = Number((await panel.locator('.ant-picker-year-btn').textContent())?.replace(/\D/g, ''));
      await panel.locator(shown < year ? '.ant-picker-header-super-next-btn' : '.ant-picker-header-super-prev-btn').click();
    }
    if (!picked) throw new Error(`month ${month} not found in the picker`);
    await panel.waitFor({ state: 'hidden' });
    if ((await input.inputValue()) === month) return;
  }
  throw new Error(`the month picker ${testId} does not show ${month}`);
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

/** antd's motion classes (rc-motion): an element with one is still appearing, entering or leaving. */
const MOTION = /(^|\s)ant-[\w-]+-(appear|enter|leave)(-start|-active)?(\s|$)/.source;

/** Waits until no dropdown menu is opening or closing (one that is closing still shows its entries). */
export async function menusStill(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        (motion) => Array.from(document.querySelectorAll('.ant-dropdown')).filter((e) => new RegExp(motion).test(e.className)).length,
        MOTION,
      ),
    )
    .toBe(0);
  await animationsDone(page);
}

/** Lets the page draw `n` frames: what a key press or click set off has then started. */
export async function frames(page: Page, n = 2) {
  await page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(count);
      }),
    n,
  );
}

/**
 * Waits until an element is where it will stay: visible, no antd motion class on it or above it,
 * the page's finite animations and transitions ended, and its box the same over two frames.
 */
export async function stable(page: Page, locator: Locator) {
  await locator.waitFor();
  await expect
    .poll(async () => {
      await animationsDone(page);
      return locator.evaluate(
        (el, motion) =>
          new Promise<boolean>((resolve) => {
            const box = () => JSON.stringify(el.getBoundingClientRect());
            const before = box();
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                let moving = false;
                for (let e: Element | null = el; e; e = e.parentElement)
                  if (new RegExp(motion).test(e.getAttribute('class') ?? '')) moving = true;
                resolve(!moving && box() === before);
              }),
            );
          }),
        MOTION,
      );
    })
    .toBe(true);
}

/** Waits until every chart (canvas) of the page draws the same picture over a few frames: its animation is over. */
export async function chartsStill(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const picture = () => Array.from(document.querySelectorAll('canvas'), (c) => c.toDataURL()).join();
            const before = picture();
            let left = 5;
            const step = () => (--left === 0 ? resolve(picture() === before) : requestAnimationFrame(step));
            requestAnimationFrame(step);
          }),
      ),
    )
    .toBe(true);
}

/** Waits for open dropdowns, loading tables and animations to finish before a screenshot. */
export async function settle(page: Page) {
  await expect.poll(() => page.locator('.ant-select-dropdown:visible, .ant-spin-blur').count()).toBe(0);
  await expect
    .poll(() =>
      page.evaluate(
        (motion) =>
          // a motion left on nothing to see (a button's loading icon whose leave never got its
          // transitionend once the button was disabled) changes no picture
          Array.from(document.querySelectorAll('[class*="ant-"]')).filter((e) => {
            if (!new RegExp(motion).test(e.getAttribute('class') ?? '')) return false;
            const box = e.getBoundingClientRect();
            return box.width > 0.5 && box.height > 0.5;
          }).length,
        MOTION,
      ),
    )
    .toBe(0);
  await animationsDone(page);
  await frames(page);
}

export const rowsOf = (table: Locator) => table.locator('tbody tr.ant-table-row');

/**
 * Opens a list's filters where they wait behind 筛选 (a phone: TablePage's bottom drawer); on a
 * wider screen they are already in the toolbar and this does nothing.
 */
export async function openFilters(page: Page) {
  const open = page.getByTestId('table-page-filter-open');
  await page.locator('[data-testid=table-page-filter-open]:visible, [data-testid=table-page-filters]:visible').first().waitFor();
  if (!(await open.isVisible())) return;
  await open.click();
  const drawer = page.locator('.ant-drawer-content-wrapper:visible', { has: page.getByTestId('table-page-filters') });
  await drawer.waitFor();
  await animationsDone(page);
}

/** Opens the date picker `field` and picks the day it shows as today; waits for the panel to close. */
export async function pickToday(page: Page, field: Locator) {
  await stable(page, field);
  await field.click();
  const today = page.locator('.ant-picker-dropdown:visible .ant-picker-cell-today').last();
  await stable(page, today);
  await today.click();
  await expect.poll(() => page.locator('.ant-picker-dropdown:visible').count()).toBe(0);
}
