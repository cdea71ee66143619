import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pick, rowsOf, settle } from './antd.js';
import { PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const LOT = `闸口停车场${RUN}`;
const BOOTH = `${LOT} / 闸口岗亭`;
const MONTHLY = `沪J${RUN}`;
const TEMP = `沪K${RUN}`;
const COUPON_PLATE = `沪L${RUN}`;
const WIRE = (d: Date) => {
  // the business time zone is Asia/Shanghai (UTC+8), as the console shows times
  const t = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
};
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();

let admin = '';
let couponId = 0;
const ok = async <T = any>(method: string, payload: Record<string, unknown>) => {
  const a = await api<T>(method, payload, admin);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};

/** At the booth console: a plate seen at a lane, at a time (empty: now); answers when the decision shows. */
async function seen(page: Page, lane: string, plate: string, at = '') {
  await pick(page, 'booth-lane', lane);
  await page.getByTestId('booth-plate').fill(plate);
  const picker = page.getByTestId('booth-at');
  await picker.click();
  await picker.press('Control+a');
  await picker.press('Backspace');
  if (at) {
    await picker.pressSequentially(at);
    // 确定 takes the typed time (Enter would also submit the form: a second event)
    await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
  } else {
    await page.keyboard.press('Escape');
  }
  // each decision is a new logged event: wait for the one this plate makes
  const before = await page.getByTestId('booth-decision').getAttribute('data-event');
  await page.getByTestId('booth-send').click();
  await expect.poll(() => page.getByTestId('booth-decision').getAttribute('data-event')).not.toBe(before);
  expect(await page.getByTestId('booth-decision').textContent()).toContain(plate);
}
const decision = (page: Page) => page.getByTestId('booth-decision').textContent();
const display = (page: Page) => page.getByTestId('booth-display').textContent();

journey(
  'parking gates: monthly, temporary and expired cars at the booth console, paid by QR and at the cashier, with a coupon',
  ({ page: newPage }) => {
    let expired = { plate: '', hid: 0 };

    it('sets up a lot with a booth, an in and an out lane, a fee standard, a monthly car on a rented space and a merchant coupon', async () => {
      admin = await apiLogin('admin');
      const lot = await ok<{ id: number }>('carparkadd', {
        code: `G${RUN}`,
        title: LOT,
        ground: 'A',
        total_spaces: 20,
        grace_days: 0,
        price_small: '200',
      });
      const booth = await ok<{ id: number }>('parkingboothadd', { lot_id: lot.id, title: '闸口岗亭' });
      await ok('parkinglaneadd', { booth_id: booth.id, code: `G${RUN}-IN`, title: '闸口入口', direction: 'I' });
      await ok('parkinglaneadd', { booth_id: booth.id, code: `G${RUN}-OUT`, title: '闸口出口', direction: 'O' });
      // free 15 minutes; the first hour 5 yuan, then every 30 minutes 2 yuan
      await ok('tempfeeconfigadd', {
        lot_id: lot.id,
        car_type: 'small',
        free_minutes: 15,
        first_minutes: 60,
        first_price: '5',
        step_minutes: 30,
        step_price: '2',
      });
      await ok('parkingspaceadd', { lot_id: lot.id, title: `G-${RUN}`, kind: 'ordinary' });
      const space = (await ok<{ items: Array<{ id: number }> }>('parkingspace_small_list', { lot_id: lot.id })).items[0]!;
      const home = (await ok<{ items: Array<{ hid: number; address: string }> }>('getkeywordtohouses', { keywords: '陈建国' })).items.find(
        (h) => h.address === '1号楼1单元1101',
      )!;
      // the room's owner living there now
      const owner = (await ok<{ items: Array<{ id: number }> }>('memberlist', { hid: home.hid, living: 'Y', relation: 'owner', limit: 50 }))
        .items[0]!;
      const end = WIRE(new Date(Date.now() + 60 * 86_400_000)).slice(0, 10);
      await ok('caradd', {
        hid: home.hid,
        member_id: owner.id,
        carlicense: MONTHLY,
        lot_id: lot.id,
        lease_type: 'M',
        space_id: space.id,
        end_date: end,
      });
      const coupon = await ok<{ id: number }>('parkcouponadd', {
        lot_id: lot.id,
        title: `减30分钟${RUN}`,
        kind: 'minutes',
        minutes: 30,
        price: '1',
      });
      await ok('parkcouponorderadd', { merchant_id: 1, coupon_id: coupon.id, quantity: 5, pay_type: 'cash' });
      couponId = coupon.id;

      // a demo monthly car of 地下停车场A区 expired beyond its grace days, whose parking bill is unpaid
      const cars = await ok<{ items: Array<{ carlicense: string; days_left: number; lot_title: string }> }>('moncarlist', {
        expired: 'Y',
        limit: 100,
      });
      for (const c of cars.items.filter((x) => x.lot_title === '地下停车场A区' && x.days_left < -3)) {
        const car = (await ok<{ items: Array<{ hid: number }> }>('carlist', { carlicense: c.carlicense })).items[0]!;
        const bills = await ok<{ items: Array<{ cost_type: string }> }>('cashierbills', { hid: car.hid });
        if (bills.items.some((b) => b.cost_type === 'parking')) {
          expired = { plate: c.carlicense, hid: car.hid };
          break;
        }
      }
      if (!expired.plate) {
        // early in a month the demo's expired cars held their spaces last month only, so no bill of
        // this month reaches them: the cashier's office bills last month for one of them
        const c = cars.items.find((x) => x.lot_title === '地下停车场A区' && x.days_left < -3 && x.days_left > -25)!;
        const car = (await ok<{ items: Array<{ hid: number }> }>('carlist', { carlicense: c.carlicense })).items[0]!;
        const items = await ok<{ items: Array<{ id: number; title: string }> }>('feeitemlist', { limit: 100 });
        const item = items.items.find((i) => i.title === '地下车位管理费')!;
        const [y, m] = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date()).split('-').map(Number) as [
          number,
          number,
        ];
        const period = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
        const go = await ok<{ job_id: number }>('feebillgenerate', { period, item_ids: [item.id], hids: [car.hid] });
        await expect
          .poll(async () => (await ok<{ status: string }>('jobinfo', { id: go.job_id })).status, { timeout: 30_000 })
          .toBe('done');
        const bills = await ok<{ items: Array<{ cost_type: string }> }>('cashierbills', { hid: car.hid });
        if (bills.items.some((b) => b.cost_type === 'parking')) expired = { plate: c.carlicense, hid: car.hid };
      }
      expect(expired.plate).not.toBe('');
    });

    it('lets the monthly car in and out free', async () => {
      const page = await newPage();
      await signIn(page, 'parking', undefined, '/carpark/booth');
      await page.getByTestId('booth-page').waitFor();
      await pick(page, 'booth-select', BOOTH);
      await expect.poll(() => page.getByTestId('booth-lane').textContent()).toContain('闸口入口');
      await seen(page, '闸口入口（入口）', MONTHLY);
      expect(await decision(page)).toMatch(/开闸[\s\S]*月租车/);
      expect(await display(page)).toContain('欢迎回家');
      await seen(page, '闸口出口（出口）', MONTHLY);
      expect(await decision(page)).toMatch(/开闸[\s\S]*月租车/);
      expect(await display(page)).toContain('一路顺风');
    });

    it('prices a temporary car after 2 h 10 min with its breakdown, takes the fee by QR in the sandbox, and opens', async () => {
      const page = await newPage();
      await signIn(page, 'parking', undefined, '/carpark/booth');
      await pick(page, 'booth-select', BOOTH);
      await expect.poll(() => page.getByTestId('booth-lane').textContent()).toContain('闸口入口');
      const exitAt = new Date(Date.now() + 60_000);
      await seen(page, '闸口入口（入口）', TEMP, WIRE(new Date(exitAt.getTime() - 130 * 60_000)));
      expect(await decision(page)).toMatch(/开闸[\s\S]*临时车/);
      await seen(page, '闸口出口（出口）', TEMP, WIRE(exitAt));
      // the first hour 5, then 70 minutes: three started steps of 2
      expect(await decision(page)).toMatch(/待缴费[\s\S]*未缴费/);
      expect(await display(page)).toContain('请缴纳停车费 11.00 元');
      expect(await page.getByTestId('booth-fee-due').textContent()).toContain('11.00');
      expect(await page.getByTestId('booth-fee-normal').textContent()).toContain('5.00');
      expect(await page.getByTestId('booth-fee-over').textContent()).toContain('6.00');
      await settle(page);
      await screenshot(page, 'carpark-booth-pay-1440');

      await page.getByTestId('booth-qr-pay').click();
      const link = page.getByTestId('booth-qr-link');
      await link.waitFor();
      // the owner pays on the sandbox's pay page, as a phone would after scanning
      const payer = await newPage(PHONE);
      await payer.goto((await link.getAttribute('href'))!);
      await payer.getByTestId('sandbox-pay').click();
      await payer.getByTestId('sandbox-paid').waitFor();
      // the console asks the provider, records the receipt and opens the gate
      await notice(page, '扫码支付成功').waitFor({ timeout: 20_000 });
      await expect.poll(() => decision(page)).toMatch(/开闸[\s\S]*已缴费/);
      expect(await display(page)).toContain('一路顺风');
    });

    it('lets an expired monthly car in, refuses it at the exit, and opens once the cashier took its parking bill', async () => {
      const page = await newPage();
      await signIn(page, 'parking', undefined, '/carpark/booth');
      await pick(page, 'booth-select', '地下停车场A区 / 地库岗亭');
      await expect.poll(() => page.getByTestId('booth-lane').textContent()).toContain('地库入口');
      await seen(page, '地库入口（入口）', expired.plate);
      expect(await decision(page)).toMatch(/开闸[\s\S]*月租车已过期/);
      expect(await display(page)).toContain('月租已过期');
      await seen(page, '地库出口（出口）', expired.plate);
      expect(await decision(page)).toMatch(/拒绝[\s\S]*月租车已过期/);

      const desk = await newPage();
      await signIn(desk, 'cashier', undefined, `/desktop/cashier?hid=${expired.hid}`);
      const bills = desk.getByTestId('cashier-bills');
      const parking = rowsOf(bills).filter({ hasText: '车位管理费' }).first();
      await parking.waitFor();
      await bills.locator('thead .ant-checkbox-input').click();
      await expect.poll(() => bills.locator('tbody .ant-checkbox-checked').count()).toBe(0);
      await parking.locator('.ant-checkbox-input').click();
      await desk.getByTestId('cashier-pay-type').getByText('现金').click();
      await desk.getByTestId('cashier-confirm').click();
      await desk.getByTestId('cashier-summary-ok').click();
      await desk.waitForURL(/\/fees\/print\/receipt\/\d+/);

      await seen(page, '地库出口（出口）', expired.plate);
      expect(await decision(page)).toMatch(/开闸[\s\S]*月租车/);
    });

    it('takes 30 minutes off with a merchant’s coupon, takes cash and opens', async () => {
      const page = await newPage();
      await signIn(page, 'parking', undefined, '/carpark/booth');
      await pick(page, 'booth-select', BOOTH);
      await expect.poll(() => page.getByTestId('booth-lane').textContent()).toContain('闸口入口');
      const exitAt = new Date(Date.now() + 120_000);
      await seen(page, '闸口入口（入口）', COUPON_PLATE, WIRE(new Date(exitAt.getTime() - 130 * 60_000)));
      // the merchant gives the coupon while the car is inside
      await ok('parkcoupongive', { merchant_id: 1, coupon_id: couponId, carlicense: COUPON_PLATE });
      await seen(page, '闸口出口（出口）', COUPON_PLATE, WIRE(exitAt));
      // 100 minutes billed: 5 and two steps
      expect(await display(page)).toContain('请缴纳停车费 9.00 元');
      expect(await page.getByTestId('booth-decision').textContent()).toContain('减30分钟');
      await page.getByTestId('booth-cash').click();
      await notice(page, /收费成功，收据/).waitFor();
      await expect.poll(() => decision(page)).toMatch(/开闸[\s\S]*已缴费/);
    });

    it('lists the stays with what they paid, and opens one with its breakdown; the console reads on a phone', async () => {
      const page = await newPage();
      await signIn(page, 'parking', undefined, '/carpark/carInout');
      await page.getByTestId('inout-page').waitFor();
      await page.getByTestId('inout-plate').fill(TEMP);
      await page.getByTestId('table-page-search').click();
      const rows = rowsOf(page.getByTestId('inout-page'));
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().innerText()).toMatch(/已离场[\s\S]*临时车[\s\S]*2小时10分钟[\s\S]*11\.00[\s\S]*11\.00/);
      await rows.first().locator('[data-testid^="inout-info-"]').click();
      const info = page.getByTestId('stay-info');
      await info.waitFor();
      await expect.poll(() => info.textContent()).toMatch(/计费明细[\s\S]*收据[\s\S]*11\.00[\s\S]*微信/);
      await settle(page);
      await screenshot(page, 'carpark-inout-1440');

      const phone = await newPage(PHONE);
      await signIn(phone, 'parking', undefined, '/carpark/booth');
      await phone.getByTestId('booth-figures').waitFor();
      await settle(phone);
      await screenshot(phone, 'carpark-booth-390');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width + 1);
    });

    it('counts the lot’s takings in the parking income report and shows it empty in the occupancy', async () => {
      const page = await newPage();
      await signIn(page, 'parking', undefined, '/carpark/parkingincome');
      await page.getByTestId('parkingincome-figures').waitFor();
      await pick(page, 'parkingincome-lot', LOT, true);
      // this run's lot: the QR's 11 yuan and the coupon car's 9 in cash, and the merchant's five coupons at 1 yuan
      const totals = page.getByTestId('parkingincome-totals');
      await expect.poll(() => totals.innerText()).toMatch(/合计\s+2 笔\s+¥?20\.00\s+\d+ 笔\s+¥?[\d.,]+\s+1 \/ 5\s+¥?5\.00/);

      await page.goto(page.url().replace('/carpark/parkingincome', '/carpark/parkingoccupancy'));
      const row = rowsOf(page.getByTestId('parkingoccupancy-table')).filter({ hasText: LOT });
      await expect.poll(() => row.count()).toBe(1);
      // every car of the journey has left: none of the lot's twenty spaces is taken by a car inside
      expect(await row.innerText()).toMatch(new RegExp(`${LOT}\\s+20\\s+0\\s+0\\s`));
    });
  },
);
