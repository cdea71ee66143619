import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { settle } from './antd.js';
import { PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const CODE = `QR${RUN}`;
const TITLE = `扫码旅程桩${RUN}`;
const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

journey(
  "charging from the owner's phone: the pile's QR address, an SMS code from the sandbox, a session started, stopped and settled with the refund",
  ({ page: newPage }) => {
    let page: Page;
    let qrPath = '';
    let pileId = 0;
    let token = '';
    let member = { realname: '', mobile: '' };

    it('opens the QR address of a pile at 390 px and proves the mobile with the code the SMS sandbox shows', async () => {
      token = await apiLogin('admin');
      const added = await api(
        'chargeradd',
        {
          title: TITLE,
          code: CODE,
          kind: 'car',
          ports: 2,
          power_kw: '7.00',
          tou: [{ start: '00:00', end: '24:00', tier: 'flat', price: '1.00' }],
          service_fee: '0.40',
          bands: [],
        },
        token,
      );
      expect(added.return_code, added.return_msg).toBe('SUCCESS');
      pileId = added.data.id as number;
      expect((await api('chargerheartbeat', { code: CODE }, token)).return_code).toBe('SUCCESS');
      const info = await api<{ qr_url: string }>('chargerinfo', { id: pileId }, token);
      qrPath = new URL(info.data.qr_url, 'http://x').pathname + new URL(info.data.qr_url, 'http://x').search;
      expect(qrPath).toMatch(/^\/h5\/charge\?rid=\d+&code=/);
      // an owner of the demo with enough on the balance for two hours (2 × 7 kW × 1.40 = 19.60)
      const found = await api<{ items: Array<{ realname: string; mobile: string; balance: string }> }>(
        'chargemembers',
        { keyword: '13' },
        token,
      );
      const rich = found.data.items.filter((m) => Number(m.balance) >= 25 && /^\d{11}$/.test(m.mobile));
      expect(rich.length).toBeGreaterThan(0);
      member = rich[rich.length - 1]!;

      page = await newPage(PHONE);
      await page.goto(qrPath);
      await page.getByTestId('charge-phone-verify').waitFor();
      await page.getByTestId('charge-phone-mobile').fill(member.mobile);
      await page.getByTestId('charge-phone-send').click();
      await page.getByTestId('charge-phone-sent').waitFor();
      await expect.poll(() => page.getByTestId('charge-phone-send').textContent()).toMatch(/秒后重发/);
      // the sandbox's page of the message: what a tester reads instead of a real SMS
      const link = page.getByTestId('charge-phone-sandbox');
      const href = await link.getAttribute('href');
      expect(href).toMatch(/^\/sandbox-sms\/charge-[0-9a-f]{32}$/);
      const sms = await newPage(PHONE);
      await sms.goto(href!);
      const code = ((await sms.getByTestId('sandbox-sms-code').textContent()) ?? '').trim();
      expect(code).toMatch(/^\d{6}$/);
      expect(await sms.getByTestId('sandbox-sms-content').textContent()).toContain(`您的充电验证码为 ${code}`);
      await sms.close();
      await settle(page);
      await screenshot(page, 'charging-phone-verify-390');
      // a wrong code first: refused in the spec's words
      await page.getByTestId('charge-phone-code').fill(code === '000000' ? '111111' : '000000');
      await page.getByTestId('charge-phone-login').click();
      await expect.poll(() => page.getByTestId('charge-phone-error').textContent()).toContain('验证码不正确，还可再试 4 次');
      await page.getByTestId('charge-phone-code').fill(code);
      await page.getByTestId('charge-phone-login').click();
      await page.getByTestId('charge-phone-pile').waitFor();
      expect(await page.getByTestId('charge-phone-pile').textContent()).toContain(TITLE);
      expect(await page.getByTestId('charge-phone-pile').textContent()).toContain('服务费0.40 元/kWh');
      expect(await page.getByTestId('charge-phone-member').textContent()).toContain(member.realname);
    });

    it('starts a two-hour session on port 1 with the prepayment from the balance and follows it as the pile runs', async () => {
      const before = yuan(await page.getByTestId('charge-phone-balance').textContent());
      await page.getByTestId('charge-phone-port').getByText('1号', { exact: true }).click();
      await expect.poll(() => page.getByTestId('charge-phone-prepay').textContent()).toContain('19.60');
      await settle(page);
      await screenshot(page, 'charging-phone-start-390');
      await page.getByTestId('charge-phone-start').click();
      const order = page.getByTestId('charge-phone-order');
      await order.waitFor();
      // the simulated pile answers the queued start
      await expect.poll(() => order.getAttribute('data-state'), { timeout: 30_000 }).toBe('charging');
      expect(yuan(await page.getByTestId('charge-phone-order-balance').textContent())).toBeCloseTo(before - 19.6, 2);
      // the simulator runs the pile on 30 minutes: the page, refreshing, shows the energy and the money so far
      expect((await api('chargersim', { charger_id: pileId, action: 'advance', minutes: 30 }, token)).return_code).toBe('SUCCESS');
      await expect
        .poll(async () => yuan(await page.getByTestId('charge-phone-energy').textContent()), { timeout: 15_000 })
        .toBeGreaterThan(3);
      await expect.poll(async () => yuan(await page.getByTestId('charge-phone-amount').textContent())).toBeGreaterThan(0);
      await settle(page);
      await screenshot(page, 'charging-phone-running-390');
    });

    it('stops the session from the phone and sees the settlement: the amount, 手机停止 and the rest back to the balance', async () => {
      await page.getByTestId('charge-phone-stop').click();
      const order = page.getByTestId('charge-phone-order');
      await expect.poll(() => order.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
      expect(await order.textContent()).toContain('手机停止');
      const amount = yuan(await page.getByTestId('charge-phone-amount').textContent());
      const refund = yuan(await page.getByTestId('charge-phone-refund').textContent());
      // half an hour at 7 kW and 1.40 a kWh, a little more for the seconds the journey took
      expect(amount).toBeGreaterThanOrEqual(4.9);
      expect(Math.round((amount + refund) * 100)).toBe(1960);
      await settle(page);
      await screenshot(page, 'charging-phone-settled-390');
      // the console's list has the same session, stopped from the phone
      const listed = await api<{ items: Array<{ end_reason_ch: string; refund: string }> }>(
        'chargeorderlist',
        { charger_id: pileId, state: 'done' },
        token,
      );
      expect(listed.data.items[0]).toMatchObject({ end_reason_ch: '手机停止', refund: refund.toFixed(2) });
    });
  },
);
