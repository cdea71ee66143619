import { expect, it } from 'vitest';
import { pick, rowsOf } from './antd.js';
import { PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const POINTS = [`东门岗${RUN}`, `地库入口${RUN}`, `水泵房${RUN}`, `北门${RUN}`];
const PLAN = `验收夜巡${RUN}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The round's day: tomorrow, or the day after when tomorrow is a Sunday (the demo guard rests on Sundays). */
function roundDay(): string {
  const local = (d: Date) => new Date(d.getTime() + 8 * 3600_000);
  let d = new Date(Date.now() + 86_400_000);
  if (local(d).getUTCDay() === 0) d = new Date(d.getTime() + 86_400_000);
  return local(d).toISOString().slice(0, 10);
}
const DAY = roundDay();

let admin = '';
const ok = async <T = any>(method: string, payload: Record<string, unknown>) => {
  const a = await api<T>(method, payload, admin);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};

journey(
  'security patrols: four points and a night plan, the task made, three check-ins at phone width, the window closed, 3 of 4',
  ({ page: newPage }) => {
    let numbers: string[] = [];

    it('creates four points and a plan for the guard with a 20:00 to 22:00 shift, in the browser', async () => {
      admin = await apiLogin('admin');
      // an earlier run's plan would book the guard twice in the same window
      const old = await ok<{ items: Array<{ id: number; name: string; status: string }> }>('patrolplanlist', {
        name: '验收夜巡',
        limit: 200,
      });
      for (const p of old.items.filter((x) => x.status === 'Y')) {
        const info = await ok<Record<string, unknown>>('patrolplaninfo', { id: p.id });
        await ok('patrolplanedit', { ...info, status: 'N' });
      }
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/security/patrolpointlist');
      for (const name of POINTS) {
        await page.goto('/security/patrolpointadd');
        await page.getByTestId('point-name').fill(name);
        await page.getByTestId('point-place').fill(`${name}位置`);
        await page.getByTestId('patrolpoint-save').click();
        await page.waitForURL(/\/security\/patrolpointlist/);
        await expect.poll(() => page.getByText(name).count()).toBeGreaterThan(0);
      }
      const list = await ok<{ items: Array<{ name: string; number: string }> }>('patrolpointlist', { name: RUN, limit: 50 });
      numbers = POINTS.map((n) => list.items.find((p) => p.name === n)!.number);
      expect(numbers.every((n) => /^XG\d+$/.test(n))).toBe(true);

      await page.goto('/security/patrol_plan_add');
      await page.getByTestId('plan-name').fill(PLAN);
      for (const [i, name] of POINTS.entries()) {
        await pick(page, 'route-point', `${numbers[i]} ${name}`, true);
        await page.getByTestId('route-add').click();
        await expect.poll(() => page.getByTestId(`route-row-${i}`).count()).toBe(1);
      }
      // the default shift is 20:00 to 22:00
      await expect.poll(() => page.getByTestId('shift-0').locator('input').nth(0).inputValue()).toBe('20:00');
      await expect.poll(() => page.getByTestId('shift-0').locator('input').nth(1).inputValue()).toBe('22:00');
      await pick(page, 'plan-guards', '周保安');
      await page.keyboard.press('Escape');
      await page.getByTestId('plan-abnormal').getByText('自动生成内部工单').click();
      await pick(page, 'plan-handler', '孙师傅');
      await page.getByTestId('patrolplan-save').click();
      await page.waitForURL(/\/security\/patrol_plan$/);
      await expect.poll(() => page.getByText(PLAN).count()).toBeGreaterThan(0);
      await screenshot(page, 'patrols-plan');
    });

    it('the job makes the task at the minutes ahead (simulated clock) and the records list it at 0 of 4', async () => {
      const made = await ok<{ made: number }>('patroljobrun', { at: `${DAY} 19:45:00` });
      expect(made.made).toBeGreaterThanOrEqual(1);
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/security/patrolrecordlist');
      const row = rowsOf(page.getByTestId('patrolrecord-page')).filter({ hasText: PLAN });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getByTestId('task-completion').textContent()).toBe('0/4');
    });

    it('at phone width the guard checks in at three points, one abnormal with a photo', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'guard', undefined, '/security/patrolcheckin');
      const task = phone.locator('[data-testid^=mytask-]').filter({ hasText: PLAN });
      await expect.poll(() => task.count()).toBe(1);
      for (const i of [0, 1]) {
        await phone.getByTestId('checkin-code').fill(numbers[i]!);
        await expect.poll(() => phone.getByTestId('checkin-point').count()).toBe(1);
        await phone.getByTestId('checkin-submit').click();
        await expect.poll(() => phone.getByTestId('checkin-answer').textContent()).toContain(`签到成功：${POINTS[i]}`);
      }
      // the pump room: abnormal, with a photo
      await phone.getByTestId('checkin-code').fill(numbers[2]!.toLowerCase());
      await expect.poll(() => phone.getByTestId('checkin-point').count()).toBe(1);
      await phone.getByTestId('checkin-result').getByText('异常').click();
      await phone.getByTestId('checkin-photos-file').setInputFiles({ name: 'leak.png', mimeType: 'image/png', buffer: PNG });
      await expect.poll(() => phone.locator('[data-testid=checkin-photos] img').count()).toBe(1);
      await phone.getByTestId('checkin-note').fill('水泵漏水');
      await phone.getByTestId('checkin-submit').click();
      await expect.poll(() => phone.getByTestId('checkin-answer').textContent()).toMatch(/签到成功.*已生成工单 GD\d{6}/);
      await expect.poll(() => task.textContent()).toContain('3/4');
      // a code that is no point: kept, and said so
      await phone.getByTestId('checkin-code').fill(`NOPE${RUN}`);
      await phone.getByTestId('checkin-submit').click();
      await expect.poll(() => phone.getByTestId('checkin-answer').textContent()).toContain('不是本小区的巡更点');
      await screenshot(phone, 'patrols-checkin-phone');
    });

    it('the window closes (simulated clock): 3 of 4 with the missed point named, the work order, the report', async () => {
      const closed = await ok<{ closed: number }>('patroljobrun', { at: `${DAY} 22:00:00` });
      expect(closed.closed).toBeGreaterThanOrEqual(1);
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/security/patrolrecordlist');
      const row = rowsOf(page.getByTestId('patrolrecord-page')).filter({ hasText: PLAN });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getByTestId('task-completion').textContent()).toBe('3/4');
      expect(await row.textContent()).toContain(POINTS[3]);
      expect(await row.textContent()).toContain('部分完成');
      await row.locator('[data-testid^=task-detail-]').click();
      await expect.poll(() => page.getByTestId('detail-missed').textContent()).toContain(POINTS[3]);
      const pump = page.getByTestId(`taskpoint-${POINTS[2]}`);
      expect(await pump.textContent()).toMatch(/工单GD\d{6}/);
      expect(await pump.locator('img').count()).toBe(1);
      // the work order is the steward desk's
      const orders = await ok<{ items: Array<{ title: string; handler_names: string }> }>('internalorderlist', {
        title: POINTS[2],
        limit: 10,
      });
      expect(orders.items.map((o) => o.title)).toContain(`巡更异常：${POINTS[2]}`);

      await page.goto(`/security/patrolplanreport?day=${DAY}`);
      await pick(page, 'report-plan', PLAN, true);
      await expect.poll(() => page.getByTestId('report-partial').textContent()).toContain('1');
      expect(await page.getByTestId('report-points-done').textContent()).toContain('3');
      expect(await page.getByTestId('report-abnormal').textContent()).toContain('1');
      await screenshot(page, 'patrols-report');
      // the raw log keeps the unknown code
      await page.goto('/security/patrolrecordlist_log');
      await expect.poll(() => page.getByText(`NOPE${RUN}`).count()).toBeGreaterThan(0);
    });
  },
);
