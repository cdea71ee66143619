import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, pick, pickCascader, rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const LOT = `访客停车场${RUN}`;
const SPACE = `V-${RUN}`;
const NAME = `访客${RUN}`;
const PLATE = `沪M${RUN}`;
const WIRE = (d: Date) => {
  // the business time zone is Asia/Shanghai (UTC+8), as the console shows times
  const t = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
};
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();

let admin = '';
const ok = async <T = any>(method: string, payload: Record<string, unknown>) => {
  const a = await api<T>(method, payload, admin);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};

/** Types a time into one of the page's time pickers and takes it with 确定. */
async function typeTime(page: Page, testId: string, time: string) {
  const picker = page.getByTestId(testId);
  await picker.click();
  await picker.press('Control+a');
  await picker.press('Backspace');
  await picker.pressSequentially(time);
  await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
}

/** Scans a code at a door on the page's 验证通行码 form; answers the result's text. */
async function scan(page: Page, code: string): Promise<string> {
  await page.getByTestId('visitor-check').click();
  await pick(page, 'visitor-check-device', '1号楼1单元门禁（1号楼1单元大堂）');
  await page.getByTestId('visitor-check-code').fill(code);
  await page.getByTestId('visitor-check-submit').click();
  const result = page.getByTestId('visitor-check-result');
  await result.waitFor();
  const text = (await result.textContent()) ?? '';
  await page.locator('.ant-modal:visible .ant-modal-close').last().click();
  await result.waitFor({ state: 'hidden' });
  return text;
}

/** The visitor's row of the list, found by the run's name. */
async function rowOf(page: Page) {
  await page.getByTestId('visitor-refresh').click();
  const row = rowsOf(page.getByTestId('visitor-table')).filter({ hasText: NAME }).first();
  await row.waitFor();
  return row;
}

journey(
  'visitors: a guard registers a visitor with a car, the pass opens twice and not a third time, the space is freed after its free time',
  ({ page: newPage }) => {
    const visitAt = new Date(Date.now() + 5 * 60_000);

    it('sets up a lot with one free space as the visitors’ lot (settings: no review, 120 free minutes)', async () => {
      admin = await apiLogin('admin');
      const lot = await ok<{ id: number }>('carparkadd', { code: `V${RUN}`, title: LOT, ground: 'A', total_spaces: 5, grace_days: 0 });
      await ok('parkingspaceadd', { lot_id: lot.id, title: SPACE, kind: 'ordinary' });
      await ok('visitorsetedit', { review: 'N', push_face: 'N', reserve_car: 'Y', lot_id: lot.id, free_minutes: 120, daily_car_limit: 0 });
    });

    it('registers the visitor at the gate: approved at once, the car holds the space', async () => {
      const page = await newPage();
      await signIn(page, 'guard', undefined, '/carpark/visitorlist');
      await page.getByTestId('visitor-page').waitFor();
      await page.getByTestId('visitor-add').click();
      const form = page.getByTestId('visitor-form');
      await form.waitFor();
      await page.getByTestId('visitor-realname').fill(NAME);
      await page.getByTestId('visitor-mobile').fill('13912340000');
      await pickCascader(page, form.getByTestId('visitor-hid'), ['1号楼', '1单元', '1101']);
      await page.getByTestId('visitor-member_id').click();
      const owner = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '陈建国' }).first();
      await chooseOption(page, owner);
      await pick(page, 'visitor-visit_cause', '亲友拜访');
      await typeTime(page, 'visitor-visit_time', WIRE(visitAt));
      await typeTime(page, 'visitor-leave_time', WIRE(new Date(visitAt.getTime() + 3 * 3600_000)));
      await page.getByTestId('visitor-carlicense').fill(PLATE);
      await settle(page);
      await screenshot(page, 'visitors-add-1440');
      await page.getByTestId('visitor-save').click();
      await form.waitFor({ state: 'hidden' });
      const row = await rowOf(page);
      await expect.poll(() => row.innerText()).toMatch(new RegExp(`${PLATE}[\\s\\S]*已通过[\\s\\S]*已预留[\\s\\S]*${SPACE}`));
    });

    it('opens the door twice with the pass code (in and out), and not a third time', async () => {
      const page = await newPage();
      await signIn(page, 'guard', undefined, '/carpark/visitorlist');
      const row = await rowOf(page);
      await row.getByText('通行码').first().click();
      const code = page.getByTestId('visitor-pass-code');
      await code.waitFor();
      await page.getByTestId('visitor-pass-qr').locator('img').waitFor();
      const text = ((await code.textContent()) ?? '').trim();
      expect(text).toMatch(/^[A-Z2-9]{12}$/);
      await page.locator('.ant-modal:visible .ant-modal-close').last().click();

      expect(await scan(page, text)).toContain('开门：欢迎光临');
      expect(await scan(page, text)).toContain('开门：一路顺风');
      expect(await scan(page, text)).toContain('不开门：通行码已使用2次，不能再次使用');
      await expect.poll(async () => (await rowOf(page)).innerText()).toContain('已到访');
    });

    it('frees the reserved space when the free time is over (simulated clock)', async () => {
      const page = await newPage();
      await signIn(page, 'guard', undefined, '/carpark/visitorlist');
      await rowOf(page);
      await page.getByTestId('visitor-release').click();
      await typeTime(page, 'visitor-release-time', WIRE(new Date(visitAt.getTime() + 121 * 60_000)));
      await page.getByTestId('visitor-release-submit').click();
      await notice(page, /已释放 \d+ 个访客车位/).waitFor();
      await expect.poll(async () => (await rowOf(page)).innerText()).toContain('已到期');
      // the lot's white list no longer holds the plate
      const lists = await ok<{ items: Array<{ carlicense: string }> }>('parkinglistlist', { carlicense: PLATE, limit: 10 });
      expect(lists.items.length).toBe(0);
    });
  },
);
