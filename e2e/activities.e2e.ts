import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const TITLE = `亲子陶艺课${RUN}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** YYYY-MM-DD HH:mm in the business time zone (UTC+8), `m` minutes from now. */
const at = (m: number) => new Date(Date.now() + m * 60_000 + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');

/** Types a time range into a RangePicker with a time: the start, 确定, the end, 确定. */
async function typeRange(page: Page, label: string, from: string, to: string) {
  const inputs = page.getByTestId('activity-form').locator('.ant-form-item').filter({ hasText: label }).locator('.ant-picker input');
  for (const [i, v] of [from, to].entries()) {
    await inputs.nth(i).click();
    await inputs.nth(i).press('Control+a');
    await inputs.nth(i).pressSequentially(v);
    await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
  }
}

/** An InputNumber's input, wherever antd puts the test id (the input or its wrapper). */
const numberInput = (page: Page, testId: string) => page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

const ok = async <T = any>(method: string, payload: Record<string, unknown>, token: string) => {
  const a = await api<T>(method, payload, token);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a;
};

journey(
  'activities: a paid activity with 2 seats and a waiting list; one pays at the cashier, one runs out of time, the waiting one is promoted',
  ({ page: newPage }) => {
    let page: Page;
    let activityId = 0;
    const people: Array<{ hid: number; member_id: number; name: string }> = [];

    it('the activities officer creates the activity in the form', async () => {
      page = await newPage();
      await signIn(page, 'service', 'demo123456', '/service/signuplist');
      await page.getByTestId('activity-page').waitFor();
      await page.getByTestId('activity-add').click();
      await page.waitForURL(/\/service\/signup_add$/);
      await page.getByTestId('activity-form').waitFor();
      await page.getByTestId('activity-title').fill(TITLE);
      await page.getByTestId('activity-cover-file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
      await page.getByTestId('activity-cover-remove-0').waitFor();
      await page.getByTestId('notice-editor-area').click();
      await page.keyboard.type('陶艺老师带孩子们做一只杯子，材料费含在报名费内。');
      await page.getByTestId('activity-place').fill('会所二楼');
      await typeRange(page, '报名时间', at(-60), at(24 * 60));
      await typeRange(page, '活动时间', at(48 * 60), at(50 * 60));
      await numberInput(page, 'activity-limit').fill('2');
      await page.getByTestId('activity-is-pay').click();
      await page.getByTestId('activity-price').fill('35.00');
      await numberInput(page, 'activity-pay-minutes').fill('1');
      await page.getByTestId('activity-waitlist').click();
      await numberInput(page, 'activity-confirm-hours').fill('2');
      await settle(page);
      await screenshot(page, 'service-signup_add-1440');
      await page.getByTestId('activity-save').click();
      await page.waitForURL(/\/service\/signuplist$/);
      const row = rowsOf(page.getByTestId('activity-page')).filter({ hasText: TITLE });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('报名中');
      const service = await apiLogin('service');
      const list = await ok<{ items: Array<{ id: number; title: string; limit_num: number; price: string; pay_minutes: number }> }>(
        'signuplist',
        { title: TITLE },
        service,
      );
      expect(list.data.items[0]).toMatchObject({ limit_num: 2, price: '35.00', pay_minutes: 1 });
      activityId = list.data.items[0]!.id;
    });

    it('three owners sign up (the owner app calls signupjoin); the third waits', async () => {
      const service = await apiLogin('service');
      const admin = await apiLogin('admin');
      // owners of the last building: the cashier and fee journeys walk 1号楼 and 2号楼
      const buildings = await ok<{ items: Array<{ id: number }> }>('building_small_list', {}, admin);
      const members = await ok<{
        items: Array<{ id: number; realname: string; rooms: Array<{ hid: number; relation: string; status: string }> }>;
      }>('memberlist', { bid: buildings.data.items.at(-1)!.id, limit: 50 }, admin);
      const seen = new Set<number>();
      for (const m of members.data.items) {
        const room = m.rooms.find((r) => r.status === 'Y' && r.relation === 'owner');
        if (!room || seen.has(room.hid) || m.rooms.filter((r) => r.status === 'Y').length !== 1) continue;
        seen.add(room.hid);
        people.push({ hid: room.hid, member_id: m.id, name: m.realname });
        if (people.length === 3) break;
      }
      expect(people).toHaveLength(3);
      for (const p of people) await ok('signupjoin', { activity_id: activityId, hid: p.hid, member_id: p.member_id }, service);
      await page.goto(`/service/signup_userlist?id=${activityId}`);
      await page.getByTestId('signup-page').waitFor();
      await expect.poll(() => page.getByTestId('signup-seats').textContent()).toBe('2/2，候补 1');
      const rows = rowsOf(page.getByTestId('signup-page'));
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.filter({ hasText: people[2]!.name }).textContent()).toContain('#1');
      expect(await rows.filter({ hasText: '待支付' }).count()).toBe(2);
    });

    it('the first pays at the cashier: only the activity fee ticked, one receipt; the sign-up is 已报名', async () => {
      const first = people[0]!;
      const desk = await newPage();
      await signIn(desk, 'cashier', undefined, `/desktop/cashier?hid=${first.hid}`);
      const bills = desk.getByTestId('cashier-bills');
      const fee = rowsOf(bills).filter({ hasText: TITLE });
      await fee.waitFor();
      // the room's other bills stay for another day: untick all, tick the activity's
      await bills.locator('thead .ant-checkbox-input').click();
      await expect.poll(() => desk.getByTestId('cashier-problem').textContent()).toBe('请选择要缴的账单');
      await fee.locator('.ant-checkbox-input').click();
      await expect.poll(() => desk.getByTestId('cashier-problem').count()).toBe(0);
      expect(await desk.getByTestId('cashier-due').textContent()).toContain('35.00');
      await desk.getByTestId('cashier-pay-type').getByText('微信支付').click();
      await desk.getByTestId('cashier-confirm').click();
      await expect.poll(() => desk.getByTestId('cashier-summary').textContent()).toContain('账单（1 张）');
      await desk.keyboard.press('Enter');
      await desk.waitForURL(/\/fees\/print\/receipt\/\d+/);
      await expect.poll(() => desk.getByTestId('receipt').textContent()).toContain(TITLE);

      await page.reload();
      const row = rowsOf(page.getByTestId('signup-page')).filter({ hasText: first.name });
      await expect.poll(() => row.textContent()).toContain('已报名');
      expect(await row.textContent()).toContain('已支付');
    });

    it('the second lets the minute to pay run out: the clock releases the seat and offers it to the waiting one', async () => {
      const rows = rowsOf(page.getByTestId('signup-page'));
      // the clock job runs every minute on the server: the page, reloaded as a user would, shows it
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByTestId('signup-seats').waitFor();
            return (await rows.filter({ hasText: people[1]!.name }).textContent()) ?? '';
          },
          { timeout: 180_000, interval: 5_000 },
        )
        .toContain('已取消');
      const promoted = rows.filter({ hasText: people[2]!.name });
      await expect.poll(() => promoted.textContent()).toContain('待支付');
      expect(await promoted.textContent()).not.toContain('#1');
      expect(await page.getByTestId('signup-seats').textContent()).toBe('2/2');
      await settle(page);
      await screenshot(page, 'service-signup_userlist-promoted-1440');
      // the released seat's bill is gone from the room; the promoted one's is at the cashier
      const cashier = await apiLogin('cashier');
      const left = await ok<{ items: Array<{ title: string }> }>('cashierbills', { hid: people[1]!.hid }, cashier);
      expect(left.data.items.some((b) => b.title.includes(TITLE))).toBe(false);
      const offered = await ok<{ items: Array<{ title: string }> }>('cashierbills', { hid: people[2]!.hid }, cashier);
      expect(offered.data.items.some((b) => b.title.includes(TITLE))).toBe(true);
    });
  },
);
