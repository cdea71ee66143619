import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, screenshot } from './browser.js';
import { pick, pickCascader, rowsOf, settle } from './antd.js';
import { xlsxUpload } from './files.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const DTU = `DTU${RUN}`;
const DTU_TITLE = `测试集中器${RUN}`;
const POWER = `EJ${RUN}`;
const WATER = `WJ${RUN}`;
const ROOM = ['1号楼', '1单元', '1101'];

let admin = '';
const ok = async <T = any>(method: string, payload: Record<string, unknown>, as = admin) => {
  const a = await api<T>(method, payload, as);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};
const modal = (page: Page) => page.locator('.ant-modal:visible').last();
const meterRow = async (meterNo: string) => (await ok<{ items: any[] }>('meterlist', { meter_no: meterNo })).items[0];
/** Today in the business calendar (Asia/Shanghai), whatever the machine's zone. */
const shanghaiDay = () => new Date(Date.now() + 8 * 3_600_000).getUTCDate();

/** Adds a meter through the list's form. */
async function addMeter(page: Page, m: { no: string; kind: string; mode: string; plan: string; item?: string; readDay?: number }) {
  await page.getByTestId('meter-add').click();
  const form = page.getByTestId('meter-form');
  await form.waitFor();
  await page.getByTestId('meter-meter_no').fill(m.no);
  await page.getByTestId('meter-kind').getByText(m.kind, { exact: true }).click();
  await page.getByTestId('meter-mode').getByText(m.mode, { exact: true }).click();
  await pick(page, 'meter-gateway_id', `${DTU} ${DTU_TITLE}`);
  await pickCascader(page, form.getByTestId('meter-hid'), ROOM);
  await pick(page, 'meter-plan_id', m.plan);
  if (m.item) await pick(page, 'meter-item_id', m.item);
  if (m.readDay) {
    await page.getByTestId('meter-read_day').fill(String(m.readDay));
    await page.getByTestId('meter-read_hour').fill('0');
  }
  await page.getByTestId('meter-save').click();
  await form.waitFor({ state: 'hidden' });
  await rowsOf(page.getByTestId('meter-table')).filter({ hasText: m.no }).waitFor();
}

/** Runs the gateway's meters `hours` hours on the simulator's clock, from the gateway's row. */
async function simulate(page: Page, gatewayId: number, hours: number) {
  await page.getByTestId(`metergateway-sim-${gatewayId}`).click();
  await page.getByTestId('metersim-hours').fill(String(hours));
  await page.getByTestId('metersim-ok').click();
  await modal(page).waitFor({ state: 'hidden' });
}

journey(
  'smart meters: a gateway and a prepaid meter run down on the simulator, told once, closed at zero, a recharge opens it; a read-and-bill meter bills on its day',
  ({ page: newPage }) => {
    let gatewayId = 0;
    it('adds a gateway and a prepaid power meter for 1101 with a ¥20 alarm', async () => {
      admin = await apiLogin('admin');
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/carpark/meterdtu');
      await page.getByTestId('metergateway-add').click();
      await page.getByTestId('metergateway-form').waitFor();
      await page.getByTestId('metergateway-code').fill(DTU);
      await page.getByTestId('metergateway-title').fill(DTU_TITLE);
      await page.getByTestId('metergateway-save').click();
      await page.getByTestId('metergateway-form').waitFor({ state: 'hidden' });
      const row = rowsOf(page.getByTestId('metergateway-table')).filter({ hasText: DTU });
      await row.waitFor();
      // a simulated gateway connects as it is added
      expect(await row.textContent()).toContain('在线');
      gatewayId = Number(
        ((await row.locator('[data-testid^="metergateway-sim-"]').getAttribute('data-testid')) ?? '').replace('metergateway-sim-', ''),
      );

      await page.goto('/carpark/meterlist');
      await addMeter(page, { no: POWER, kind: '电表', mode: '预付费', plan: '居民阶梯电价（电表）' });
      const meter = await meterRow(POWER);
      expect(meter).toMatchObject({ address: '1号楼1单元1101', balance: '0.00', valve: 'open' });

      await page.goto('/carpark/meterhouse');
      await page.getByTestId('meterhouse-page').waitFor();
      await page.locator('[data-testid="table-page-filters"] input').first().fill('1号楼1单元1101');
      await page.getByTestId('table-page-search').click();
      await page.getByTestId(`meterhouse-edit-${meter.hid}`).click();
      await page.getByTestId('meterhouse-alarm').fill('20');
      await page.getByTestId('meterhouse-ok').click();
      await modal(page).waitFor({ state: 'hidden' });
      await expect
        .poll(async () => (await ok<{ items: any[] }>('meterhouselist', { keyword: '1号楼1单元1101' })).items[0]?.alarm_threshold)
        .toBe('20.00');

      // the opening credit, bought at the meter's row: pushed and confirmed by the meter
      await page.goto('/carpark/meterlist');
      await page.getByTestId(`meter-recharge-${meter.id}`).click();
      await page.getByTestId('meterrecharge-amount').fill('30');
      await page.getByTestId('meterrecharge-ok').click();
      await expect.poll(async () => (await meterRow(POWER)).balance, { timeout: 20_000 }).toBe('30.00');
    });

    it('runs it down on the simulated clock: told once at ¥20, the valve closed at zero', async () => {
      const page = await newPage();
      // valves may close at any hour (by default only from 8 to 20 o'clock, and a journey may run at night)
      await signIn(page, 'admin', undefined, '/carpark/meterplatform');
      await page.getByTestId('metersettings').waitFor();
      await page.getByTestId('metersettings-from').fill('0');
      await page.getByTestId('metersettings-to').fill('24');
      await page.getByTestId('metersettings-save').click();
      await expect.poll(async () => (await ok<{ close_from: number; close_to: number }>('metersettings', {})).close_to).toBe(24);
      await page.goto('/carpark/meterdtu');
      await rowsOf(page.getByTestId('metergateway-table')).filter({ hasText: DTU }).waitFor();
      // 0.5 kWh an hour at 0.617 元: 40 hours take 12.34 元 (and the real minutes since, a few fen), below the alarm
      await simulate(page, gatewayId, 40);
      const after40 = Number((await meterRow(POWER)).balance);
      expect(after40).toBeLessThanOrEqual(17.66);
      expect(after40).toBeGreaterThan(17);
      const low = async () =>
        (await ok<{ items: any[] }>('meteralertlist', { kind: 'low', limit: 50 })).items.filter((a) => a.meter_no === POWER);
      expect(await low()).toHaveLength(1);
      // sixty more: the money runs out, the valve is closed for arrears and the owner told
      await simulate(page, gatewayId, 60);
      const closed = await meterRow(POWER);
      expect(closed).toMatchObject({ valve: 'closed', valve_reason: 'arrears' });
      expect(Number(closed.balance)).toBeLessThanOrEqual(0);
      expect(await low()).toHaveLength(1);

      await page.goto('/carpark/meteralert');
      const alerts = rowsOf(page.getByTestId('meteralert-page')).filter({ hasText: POWER });
      await expect.poll(() => alerts.count()).toBe(2);
      expect(await alerts.allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining('欠费关阀'), expect.stringContaining('余额预警')]),
      );
      await page.goto('/carpark/metervalve');
      await page.locator('[data-testid="table-page-filters"] input').first().fill(POWER);
      await page.getByTestId('table-page-search').click();
      const valve = rowsOf(page.getByTestId('metervalve-page')).filter({ hasText: POWER });
      await expect.poll(() => valve.textContent()).toContain('欠费关阀');
      await screenshot(page, 'meters-valve-closed-1440');
    });

    it('the cashier takes a ¥100 recharge by the group’s POS机-工行 with its reference: the push is confirmed and the valve opens', async () => {
      const page = await newPage();
      await signIn(page, 'cashier', undefined, '/carpark/meterpayment');
      await page.getByTestId('meterpayment-add').click();
      await page.getByTestId('meterrecharge-meter').click();
      await page.keyboard.type(POWER);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: POWER }).first().click();
      await expect.poll(() => page.getByTestId('meterrecharge-meterinfo').textContent()).toContain('1号楼1单元1101');
      await page.getByTestId('meterrecharge-preset-100.00').click();
      // the group's own way asks for the terminal's reference before it takes the money
      await page.getByTestId('meterrecharge-paytype').getByText('POS机-工行').click();
      await expect.poll(() => page.getByTestId('meterrecharge-pay-problem').textContent()).toContain('凭证号');
      expect(await page.getByTestId('meterrecharge-ok').isDisabled()).toBe(true);
      await page.getByTestId('meterrecharge-paytype-ref').fill('POS-M-100');
      await page.getByTestId('meterrecharge-ok').click();
      await page.getByTestId('meterrecharge-form').waitFor({ state: 'hidden' });
      const order = rowsOf(page.getByTestId('meterpayment-page')).filter({ hasText: POWER }).filter({ hasText: '100.00' }).first();
      expect(await order.textContent()).toMatch(/POS机-工行（银行卡）[\s\S]*POS-M-100/);
      // 待下发 until the meter confirms; the list asks again while an order waits
      await expect.poll(() => order.textContent(), { timeout: 20_000 }).toContain('已下发');
      await screenshot(page, 'meters-payment-1440');
      await expect.poll(async () => (await meterRow(POWER)).valve, { timeout: 20_000 }).toBe('open');
      const m = await meterRow(POWER);
      expect(Number(m.balance)).toBeGreaterThan(90);
    });

    it('a read-and-bill water meter makes its month’s bill on its day', async () => {
      // a fee item of its own, billed by reading and bound to no room: only the meter bills it
      const cost = (await ok<{ items: Array<{ cost_type: string; title: string }> }>('feeitemcatelist', { limit: 50 })).items.find((c) =>
        c.title.includes('水'),
      )!;
      const itemTitle = `远传水费${RUN}`;
      await ok('feeitemadd', { cost_type: cost.cost_type, title: itemTitle, pricing: 'meter', unit_price: '4.20', cycle_months: 1 });
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/carpark/meterlist');
      await page.getByTestId('meter-page').waitFor();
      await addMeter(page, {
        no: WATER,
        kind: '水表',
        mode: '抄表计费',
        plan: '居民生活用水（水表）',
        item: itemTitle,
        readDay: shanghaiDay(),
      });
      const meter = await meterRow(WATER);
      await page.getByTestId(`meter-detail-${meter.id}`).click();
      await page.getByTestId('meter-detail').waitFor();
      await page.getByTestId('meterreading-value').fill('8');
      await page.getByTestId('meterreading-add').click();
      await rowsOf(page.getByTestId('meterreading-table')).filter({ hasText: '8.00' }).waitFor();
      await screenshot(page, 'meters-detail-1440');

      await page.goto('/carpark/meterbilllog');
      await page.locator('[data-testid="table-page-filters"] input').first().fill(WATER);
      await page.getByTestId('table-page-search').click();
      const bill = rowsOf(page.getByTestId('meterbilllog-page')).filter({ hasText: '出账' });
      await expect.poll(() => bill.count()).toBe(1);
      // 8 m³ at 4.20 元
      expect(await bill.textContent()).toContain('33.60');
      const bills = await ok<{ items: Array<{ fee: string; title: string }> }>('feebilllist', { keyword: '1101', limit: 50 });
      expect(bills.items.filter((b) => b.title === itemTitle).map((b) => b.fee)).toEqual(['33.60']);
    });
  },
);

const IMPORT_HEADERS = [
  '表号',
  '表类型',
  '计费模式',
  '楼栋',
  '单元',
  '房号',
  '采集器编号',
  '单价方案',
  '厂商',
  '初始读数',
  '预警金额',
  '收费项目',
];
const IMPORTED = `IM${RUN}A`;
const UNBOUND = `IM${RUN}B`;

journey(
  'smart meters: an Excel import refused for a bad row then taken whole, its unbound meter bound by building, and the home card of closed valves and offline piles',
  ({ page: newPage }) => {
    it('imports meters from Excel: a row naming a room that does not exist refuses the file, the fixed file adds them', async () => {
      admin = await apiLogin('admin');
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/carpark/meterlist');
      await page.getByTestId('meter-page').waitFor();
      await page.getByTestId('meter-import-open').click();
      await page.getByTestId('meter-import').waitFor();
      const row = (no: string, room: string[], alarm = '') => [
        no,
        '电表',
        '预付费',
        ...room,
        'DTU-01',
        '居民阶梯电价',
        '模拟表计平台',
        '120.5',
        alarm,
        '',
      ];
      await page
        .getByTestId('meter-import-file')
        .setInputFiles(
          await xlsxUpload('meters-bad.xlsx', IMPORT_HEADERS, [
            row(IMPORTED, ['1号楼', '1单元', '1102'], '15'),
            row(UNBOUND, ['1号楼', '9单元', '101']),
          ]),
        );
      await page.getByTestId('meter-import-errors').waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('meter-import').textContent()).toContain('房屋 1号楼9单元101 不存在');
      await settle(page);
      await screenshot(page, 'meters-import-errors-1440');
      expect((await ok<{ total: number }>('meterlist', { meter_no: `IM${RUN}` })).total).toBe(0);
      await page
        .getByTestId('meter-import-file')
        .setInputFiles(
          await xlsxUpload('meters.xlsx', IMPORT_HEADERS, [row(IMPORTED, ['1号楼', '1单元', '1102'], '15'), row(UNBOUND, ['', '', ''])]),
        );
      const success = page.getByTestId('meter-import-success');
      await success.waitFor({ timeout: 30_000 });
      expect(await success.textContent()).toContain('新增表计 2 块，其中绑定房屋 1 块，设置预警金额的房屋 1 户');
      await page.keyboard.press('Escape');
      await page.getByTestId('meter-import').waitFor({ state: 'hidden' });
      await page.getByTestId('meter-filter-meter_no').fill(`IM${RUN}`);
      await page.getByTestId('meter-filter-meter_no').press('Enter');
      const table = page.getByTestId('meter-table');
      await expect.poll(() => rowsOf(table).count()).toBe(2);
      expect(await rowsOf(table).filter({ hasText: IMPORTED }).textContent()).toContain('1号楼1单元1102');
      expect(await rowsOf(table).filter({ hasText: IMPORTED }).textContent()).toContain('120.50');
      await settle(page);
      await screenshot(page, 'meters-imported-1440');
    });

    it('binds the unbound meter to a room of 1号楼 after a confirmation that counts it', async () => {
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/carpark/meterhouse');
      await page.getByTestId('meterhouse-page').waitFor();
      await page.getByTestId('meterhouse-batch').click();
      await pick(page, 'meterhouse-batch-bid', '1号楼');
      // the counts come first: the dialog grows by them before anything is ticked
      const preview = page.getByTestId('meterhouse-preview');
      await expect.poll(() => preview.textContent()).toMatch(/未绑定房屋的电表 [1-9]\d* 块/);
      await settle(page);
      await page.getByTestId('meterhouse-batch-settings').click();
      await expect.poll(() => page.getByTestId('meterhouse-alarm').count()).toBe(0);
      await page.getByTestId('meterhouse-batch-bind').click();
      await page.getByTestId('meterhouse-batch-kind').waitFor();
      await settle(page);
      await screenshot(page, 'meters-house-batch-1440');
      await page.getByTestId('meterhouse-ok').click();
      const summary = page.getByTestId('meterhouse-batch-summary');
      await expect.poll(() => summary.textContent()).toMatch(/把 [1-9]\d* 块未绑定的电表按表号顺序绑定到 [1-9]\d* 户还没有电表的房屋/);
      expect(await summary.textContent()).not.toContain('设置');
      await page.getByTestId('meterhouse-batch-confirm').click();
      await summary.waitFor({ state: 'hidden' });
      await expect.poll(async () => (await meterRow(UNBOUND)).address).toMatch(/^1号楼/);
    });

    it('the simulator: the imported meter runs by a household’s day, then is swapped and starts again', async () => {
      const gateway = (await ok<{ items: any[] }>('metergatewaylist', { code: 'DTU-01' })).items[0];
      const meter = await meterRow(IMPORTED);
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/carpark/meterdtu');
      await page.getByTestId(`metergateway-simmeters-${gateway.id}`).click();
      const drawer = page.getByTestId('metersim-drawer');
      await rowsOf(drawer.getByTestId('metersim-table')).filter({ hasText: IMPORTED }).waitFor();
      await page.getByTestId(`metersim-profile-${meter.id}`).click();
      await page.getByTestId('metersimprofile-perhour').fill('0.5');
      await page.getByTestId('metersimprofile-byhour').click();
      await page.getByTestId('metersimprofile-preset').click();
      await expect.poll(() => page.getByTestId('metersimprofile-h19').inputValue()).toBe('1.05');
      // the household's day keeps the day's usage: 24 × 0.5
      await expect.poll(() => page.getByTestId('metersimprofile-day').textContent()).toContain('每天用量约 12 kWh');
      await settle(page);
      await screenshot(page, 'meters-sim-profile-1440');
      await page.getByTestId('metersimprofile-ok').click();
      const row = rowsOf(drawer.getByTestId('metersim-table')).filter({ hasText: IMPORTED });
      await expect.poll(() => row.textContent()).toContain('按小时曲线 · 每天 12');
      await page.getByTestId(`metersim-swap-${meter.id}`).click();
      await page.getByTestId('metersimswap-value').fill('3');
      await page.getByTestId('metersimswap-ok').click();
      await expect.poll(() => row.textContent()).toContain('3.00 kWh');
      const readings = await ok<{ items: any[] }>('meterrecordlist', { meter_id: meter.id });
      expect(readings.items[0]).toMatchObject({ value: '3.00', swap: true, usage: '0.00' });
      await settle(page);
      await screenshot(page, 'meters-sim-drawer-1440');

      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/carpark/meterdtu');
      await phone.getByTestId(`metergateway-simmeters-${gateway.id}`).click();
      await rowsOf(phone.getByTestId('metersim-table')).filter({ hasText: IMPORTED }).waitFor();
      await phone.getByTestId(`metersim-profile-${meter.id}`).click();
      await phone.getByTestId('metersimprofile-h23').waitFor();
      await settle(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(phone, 'meters-sim-profile-390');
    });

    it('the home card shows the valves closed and the piles offline, and opens the closed valves', async () => {
      const page = await newPage();
      await signIn(page, 'admin', undefined, '/dashboard');
      const card = page.getByTestId('card-meters');
      const figures = await ok<{ closed: number; offline_piles: number; offline_meters: number; low: number }>('meterdashboard', {});
      expect(figures.closed).toBeGreaterThan(0);
      await expect.poll(() => card.textContent()).toContain('关阀中的表计');
      await expect.poll(() => card.textContent()).toContain('离线充电桩');
      expect(await card.textContent()).toContain(`余额不足 ${figures.low} 户`);
      await settle(page);
      await screenshot(page, 'meters-home-card-1440');
      await card.click();
      await page.waitForURL(/\/carpark\/metervalve\?valve=closed/);
      const rows = rowsOf(page.getByTestId('metervalve-page'));
      await rows.first().waitFor();
      await expect.poll(async () => (await rows.allTextContents()).every((t) => t.includes('关闭'))).toBe(true);

      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/dashboard');
      await phone.getByTestId('card-meters').waitFor();
      await expect.poll(() => phone.getByTestId('card-meters').textContent()).toContain('离线充电桩');
      await settle(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.getByTestId('card-meters').scrollIntoViewIfNeeded();
      await screenshot(phone, 'meters-home-card-390');
    });
  },
);
