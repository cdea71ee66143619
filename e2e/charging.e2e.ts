import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chooseOption, rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const CODE = `CP${RUN}`;
const TITLE = `旅程汽车桩${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });
const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

journey(
  'charging piles: a pile added in the browser, a session started for a member, run on by the simulator, stopped and settled',
  ({ page: newPage }) => {
    let page: Page;
    let pileId = 0;
    let member = { realname: '', mobile: '' };

    it('adds a car pile with an all-day price and a service fee at /carpark/charging_add', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/carpark/charging_add');
      const form = page.getByTestId('charger-form');
      await form.waitFor();
      await form.getByTestId('charger-title').fill(TITLE);
      await form.getByTestId('charger-code').fill(CODE);
      await form.getByTestId('charger-ports').fill('2');
      await form.getByTestId('charger-power_kw').fill('7');
      await form.getByTestId('charger-tou-add').click();
      await form.getByTestId('tou-0-start').fill('00:00');
      await form.getByTestId('tou-0-end').fill('24:00');
      await form.getByTestId('tou-0-price').fill('1.00');
      await form.getByTestId('charger-service_fee').fill('0.40');
      await settle(page);
      await screenshot(page, 'charging-add-1440');
      await page.getByTestId('charger-save').click();
      await notice(page, '添加成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      await expect.poll(() => page.url()).toContain('/carpark/charging');
      const table = page.getByTestId('charger-table');
      await page.getByTestId('charger-filter-code').fill(CODE);
      await page.getByTestId('charger-filter-code').press('Enter');
      await expect.poll(() => rowOf(table, CODE).count()).toBe(1);
      const text = await rowOf(table, CODE).textContent();
      for (const t of [TITLE, '电动汽车', '平 1.00', '空闲 2']) expect(text).toContain(t);
      const token = await apiLogin('admin');
      const listed = await api<{ items: Array<{ id: number; code: string }> }>('chargerlist', { code: CODE }, token);
      pileId = listed.data.items[0]!.id;
      // the pile comes online with its first heartbeat
      expect((await api('chargerheartbeat', { code: CODE }, token)).return_code).toBe('SUCCESS');
      // a member of the demo with enough on the balance for an hour (7 kW × 1.40 = 9.80)
      const found = await api<{ items: Array<{ realname: string; mobile: string; balance: string }> }>(
        'chargemembers',
        { keyword: '13' },
        token,
      );
      const rich = found.data.items.filter((m) => Number(m.balance) >= 20 && /^\d{11}$/.test(m.mobile));
      expect(rich.length).toBeGreaterThan(0);
      member = rich[0]!;
    });

    it('starts a one-hour session on port 1 from the ports drawer: the pile acks and the port charges', async () => {
      await page.getByTestId('charger-refresh').click();
      await page.getByTestId(`charger-ports-${pileId}`).click();
      const ports = page.getByTestId('chargeport-table');
      await ports.waitFor();
      await page.getByTestId('chargeport-start-1').click();
      const dialog = page.getByTestId('chargestart-form');
      await dialog.waitFor();
      await page.getByTestId('chargestart-member').click();
      await page.keyboard.type(member.mobile);
      await chooseOption(
        page,
        page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: member.mobile }).first(),
      );
      await settle(page);
      await screenshot(page, 'charging-start-1440');
      await page.getByTestId('chargestart-save').click();
      await notice(page, '已下发启动指令，预付 9.80 元').waitFor();
      // the simulated pile answers the queued start: its port goes 充电中
      await expect.poll(() => rowsOf(ports).first().textContent(), { timeout: 30_000 }).toContain('充电中');
      await expect.poll(() => rowsOf(ports).first().textContent()).toContain(member.realname);
    });

    it('runs the simulator on 30 minutes, stops the session from 充电订单 and sees it settled', async () => {
      await page.getByTestId('chargesim-minutes').fill('30');
      await page.getByTestId('chargesim-advance').click();
      await notice(page, '已快进 30 分钟').waitFor();
      await expect
        .poll(async () => yuan(await rowsOf(page.getByTestId('chargeport-table')).first().locator('td').nth(3).textContent()))
        .toBeGreaterThan(0);
      await page.keyboard.press('Escape');
      await page.goto('/carpark/chargeorders');
      const table = page.getByTestId('chargeorder-table');
      await page.getByTestId('chargeorder-filter-keyword').fill(member.mobile);
      await page.getByTestId('chargeorder-search').click();
      const row = rowOf(table, TITLE).first();
      await expect.poll(() => row.textContent()).toContain('充电中');
      await row.getByRole('button', { name: '停止充电' }).click();
      await page.getByTestId('chargestop-confirm').click();
      // the page was opened afresh: the one notice is the stop's answer, and its text says what went wrong if it did
      const answer = page.locator('.ant-notification-notice').last();
      await answer.waitFor();
      expect(await answer.textContent()).toContain('已下发停止指令');
      // the pile answers the stop with its final meter value: the session is settled
      await expect
        .poll(
          async () => {
            await page.getByTestId('chargeorder-refresh').click();
            return row.textContent();
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toContain('已完成');
      expect(await row.textContent()).toContain('后台停止');
      await row.getByRole('button', { name: '详情' }).click();
      const detail = page.getByTestId('chargeorder-detail');
      await detail.waitFor();
      // half an hour at 7 kW and 1.40 a kWh, a little more for the seconds the journey took; the rest back to the balance
      const amount = yuan(await page.getByTestId('chargeorder-amount').textContent());
      const refund = yuan(await page.getByTestId('chargeorder-refund').textContent());
      expect(amount).toBeGreaterThanOrEqual(4.9);
      expect(amount).toBeLessThan(6);
      expect(Math.round((amount + refund) * 100)).toBe(980);
      await expect.poll(() => rowsOf(page.getByTestId('chargeorder-slots')).count()).toBe(1);
      await settle(page);
      await screenshot(page, 'charging-settled-1440');
    });
  },
);
