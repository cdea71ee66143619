import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { animationsDone, pick, pickMonth, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

/** The business calendar (Asia/Shanghai): the first day of the month after this one, and its YYYY-MM. */
const shanghai = new Date(Date.now() + 8 * 3_600_000);
const nextMonth = new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth() + 1, 1));
const MONTH = nextMonth.toISOString().slice(0, 7);
const FIRST = `${MONTH}-01`;
const monthDays = new Date(Date.UTC(nextMonth.getUTCFullYear(), nextMonth.getUTCMonth() + 1, 0)).getUTCDate();
const days = Array.from({ length: monthDays }, (_, i) => `${MONTH}-${String(i + 1).padStart(2, '0')}`);
const isSunday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 0;

// names of this run: the journey may run again on the same database
const RUN = Date.now().toString(36).slice(-4);
const SHIFT = `巡逻班${RUN}`;
const ROSTER = `保安巡逻${RUN}`;

journey('setup: 排班管理, a shift and a weekly roster where the guard rests on Sundays', ({ page: newPage }) => {
  let page: Page;
  let guardId = 0;

  it('shows the month grid of the demo rosters', async () => {
    const token = await apiLogin('admin');
    const staff = await api<{ items: Array<{ id: number; name: string }> }>('schedule_staff_small_list', {}, token);
    guardId = staff.data.items.find((s) => s.name === '周保安')!.id;
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/setup/schedulelist');
    const grid = page.getByTestId('schedule-grid');
    await grid.waitFor();
    // the demo's two rosters: the guard, the repairman and the steward
    await expect.poll(() => rowsOf(grid).count()).toBe(3);
    await settle(page);
    await screenshot(page, 'setup-schedulelist-1440');
  });

  it('adds a shift on the 班次 tab', async () => {
    await page.getByRole('tab', { name: '班次' }).click();
    await page.getByTestId('dutyshift-add').click();
    await page.getByTestId('dutyshift-form').waitFor();
    await animationsDone(page);
    await page.getByTestId('dutyshift-name').fill(SHIFT);
    await page.getByTestId('dutyshift-times').fill('7:00-19:00');
    await page.getByTestId('dutyshift-save').click();
    await page.getByTestId('dutyshift-form').waitFor({ state: 'hidden' });
    const row = rowsOf(page.getByTestId('dutyshift-page')).filter({ hasText: SHIFT });
    await expect.poll(() => row.count()).toBe(1);
    // written back canonically
    expect(await row.textContent()).toContain('07:00-19:00');
  });

  it('builds a weekly roster for the guard from next month: the shift Monday to Saturday, Sunday rest', async () => {
    await page.getByRole('tab', { name: '排班', exact: true }).click();
    await page.getByTestId('schedule-add').click();
    await page.waitForURL(/\/setup\/scheduleedit$/);
    const form = page.getByTestId('schedule-form');
    await form.waitFor();
    await page.getByTestId('schedule-name').fill(ROSTER);
    // 按周 and a cycle of one week are the form's defaults
    const start = page.getByTestId('schedule-start');
    const startInput = (await start.evaluate((e) => e.tagName)) === 'INPUT' ? start : start.locator('input');
    await startInput.click();
    await startInput.fill(FIRST);
    await startInput.press('Enter');
    await expect.poll(() => startInput.inputValue()).toBe(FIRST);
    for (let i = 0; i < 6; i++) await pick(page, `day-${i}`, SHIFT);
    // Sunday stays 休息
    expect(await page.getByTestId('day-6').textContent()).toContain('休息');
    await pick(page, 'schedule-staff', '周保安（秩序部）', true);
    await page.keyboard.press('Escape');
    await settle(page);
    await screenshot(page, 'setup-scheduleedit-1440');
    await page.getByTestId('schedule-save').click();
    await page.waitForURL(/\/setup\/schedulelist/);
    const row = rowsOf(page.getByTestId('schedule-page')).filter({ hasText: ROSTER });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('周保安');
    expect(await row.textContent()).toContain('按周');
  });

  it('opens the roster again with its days and staff, and saves it unchanged', async () => {
    const row = rowsOf(page.getByTestId('schedule-page')).filter({ hasText: ROSTER });
    const id = await row.getAttribute('data-row-key');
    await page.getByTestId(`schedule-edit-${id}`).click();
    await page.waitForURL(/\/setup\/scheduleedit\?id=\d+$/);
    await expect.poll(() => page.getByTestId('schedule-name').inputValue()).toBe(ROSTER);
    await expect.poll(() => page.getByTestId('day-0').textContent()).toContain(SHIFT);
    expect(await page.getByTestId('day-6').textContent()).toContain('休息');
    expect(await page.getByTestId('schedule-staff').textContent()).toContain('周保安');
    await page.getByTestId('schedule-save').click();
    await page.waitForURL(/\/setup\/schedulelist/);
  });

  it('the month grid shows 休 on every Sunday of next month and the shift on the other days', async () => {
    await page.getByRole('tab', { name: '排班表' }).click();
    const grid = page.getByTestId('schedule-grid');
    await grid.waitFor();
    await pickMonth(page, 'grid-month', MONTH);
    await pick(page, 'grid-staff', '周保安', true);
    await expect.poll(() => rowsOf(grid).count()).toBe(1);
    const cell = (day: string): Locator => page.getByTestId(`grid-${guardId}-${day}`);
    await expect.poll(() => cell(days[0]!).textContent()).toBe(isSunday(days[0]!) ? '休' : SHIFT);
    for (const day of days) expect(await cell(day).textContent(), day).toBe(isSunday(day) ? '休' : SHIFT);
    await settle(page);
    await screenshot(page, 'setup-schedulegrid-1440');
  });

  it('exports the month as a job and downloads the workbook', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('grid-export').click()]);
    expect(download.suggestedFilename()).toBe(`排班表_${MONTH}.xlsx`);
    await page.getByTestId('export-progress').first().waitFor();
  });

  it('fits a phone: the grid scrolls inside its card', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/setup/schedulelist');
    const grid = phone.getByTestId('schedule-grid');
    await grid.waitFor();
    await expect.poll(() => rowsOf(grid).count()).toBeGreaterThan(0);
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(phone, 'setup-schedulelist-390');
  });

  it('the to-do list exports as a job', async () => {
    await page.goto('/setup/backlog');
    const table = page.getByTestId('backlog-page');
    await table.waitFor();
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'setup-backlog-1440');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('table-page-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^待办事项_\d{4}-\d{2}-\d{2}\.xlsx$/);
    // the job's notification, not a page of rows written in the browser
    await page.getByTestId('export-progress').first().waitFor();
  });
});
