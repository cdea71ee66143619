import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { pick, rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const CATE = `测试设备类${RUN}`;
const CODE = `E2E-${RUN}`;
const NAME = `测试空调机组${RUN}`;
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

let tech = '';
const ok = async <T = any>(method: string, payload: Record<string, unknown>) => {
  const a = await api<T>(method, payload, tech);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};

journey(
  'equipment ledger: a category, an asset and its label, a plan’s task with a failed check opening a work order',
  ({ page: newPage }) => {
    let page: Page;
    let assetId = 0;

    it('the technician adds a category in the tree', async () => {
      tech = await apiLogin('tech');
      page = await newPage(DESKTOP);
      await signIn(page, 'tech', undefined, '/carpark/device_cate');
      const table = page.getByTestId('assetcate-table');
      await rowOf(table, '门禁设备').waitFor();
      await page.getByTestId('assetcate-add').click();
      const form = page.getByTestId('assetcate-form');
      await form.waitFor();
      await form.getByTestId('assetcate-name').fill(CATE);
      await form.getByTestId('assetcate-code').fill(`C${RUN}`);
      await form.getByTestId('assetcate-importance').getByText('A 级').click();
      await page.getByTestId('assetcate-save').click();
      await notice(page, '添加成功').waitFor();
      await rowOf(table, CATE).waitFor();
    });

    it('adds an asset on its own page and sees it in the ledger with its net value', async () => {
      await page.goto(page.url().replace(/\/carpark\/.*$/, '/carpark/device'));
      await page.getByTestId('asset-table').waitFor();
      await page.getByTestId('asset-add').click();
      await page.waitForURL(/\/carpark\/device_add/);
      await page.getByTestId('asset-name').fill(NAME);
      await page.getByTestId('asset-code').fill(CODE);
      await pick(page, 'asset-category_id', CATE);
      await page.getByTestId('asset-brand').fill('格力');
      await page.getByTestId('asset-location').fill('物业楼屋顶');
      await page.getByTestId('asset-importance').getByText('B 级').click();
      await page.getByTestId('asset-price').fill('8800.50');
      await page.getByTestId('asset-save').click();
      await page.waitForURL(/\/carpark\/device(\?|$)/);
      await notice(page, '添加成功').waitFor();
      const list = await ok<{ items: Array<{ id: number; net_value: string; state_ch: string }> }>('assetlist', { keyword: CODE });
      expect(list.items).toHaveLength(1);
      expect(list.items[0]).toMatchObject({ net_value: '8800.50', state_ch: '在用' });
      assetId = list.items[0]!.id;
      await page.getByTestId('asset-table').getByText(NAME).waitFor();
    });

    it('prints its QR label', async () => {
      await page.getByTestId(`asset-print-${assetId}`).click();
      await page.waitForURL(/\/carpark\/device_print\?ids=/);
      const label = page.getByTestId(`asset-label-${CODE}`);
      await label.waitFor();
      expect(await label.textContent()).toContain(NAME);
      await page.getByTestId(`asset-label-qr-${CODE}`).locator('img').waitFor();
      await settle(page);
      await screenshot(page, 'assets-labels-1440');
    });

    it('a plan makes today’s task; 执行 with a failed check opens an internal work order', async () => {
      const techId = (await ok<{ items: Array<{ id: number; title: string }> }>('asset_staff_small_list', {})).items.find(
        (s) => s.title === '孙师傅',
      )!.id;
      const std = await ok<{ id: number }>('maintainstandardadd', { name: `空调保养${RUN}`, items: ['滤网清洁', '制冷正常'] });
      const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
      await ok('maintainplanadd', {
        name: `空调每周检${RUN}`,
        standard_id: std.id,
        asset_ids: [assetId],
        staff_ids: [techId],
        cycle: 'N',
        every_days: 7,
        start_date: today,
      });
      await page.goto(page.url().replace(/\/carpark\/.*$/, '/carpark/maintaintask'));
      const table = page.getByTestId('maintaintask-page');
      await table.waitFor();
      // the job's own method: today's task is there already, a second run makes none
      await page.getByTestId('maintaintask-generate').click();
      await notice(page, '没有需要生成的维保任务').waitFor();
      await page.getByTestId('maintaintask-filter-keyword').fill(CODE);
      await page.getByTestId('maintaintask-filter-keyword').press('Enter');
      const row = rowOf(table, CODE);
      await row.waitFor();
      expect(await row.textContent()).toContain('待执行');
      const task = (await ok<{ items: Array<{ id: number }> }>('maintaintasklist', { keyword: CODE })).items[0]!;
      await page.getByTestId(`maintaintask-do-${task.id}`).click();
      await page.getByTestId('maintaintask-check-1').getByText('不合格').click();
      await page.getByTestId('maintaintask-note-1').fill('出风口温度过高');
      await page.getByTestId('maintaintask-notes').fill('已通知维修');
      await page.getByTestId('maintaintask-done-save').click();
      await notice(page, /已生成内部工单 GD\d+/).waitFor();
      await expect.poll(() => row.textContent()).toContain('完成有异常');
      const done = await ok<{ order_id: number; order_no: string; status: string }>('maintaintaskinfo', { id: task.id });
      expect(done.status).toBe('F');
      const order = await ok<{ kind: string; status: string; items: Array<{ title: string }>; content: string }>('internalorderinfo', {
        id: done.order_id,
      });
      expect(order).toMatchObject({ kind: 'E', status: 'P' });
      expect(order.items.map((i) => i.title)).toEqual(['制冷正常']);
      expect(order.content).toContain('出风口温度过高');
      // the task's detail links the order
      await page.getByTestId(`maintaintask-detail-${task.id}`).click();
      const link = page.getByTestId('maintaintask-order');
      await link.waitFor();
      expect(await link.textContent()).toBe(done.order_no);
      await settle(page);
      await screenshot(page, 'assets-task-failed-1440');
    });

    it('moves the asset and scraps it: logged, and a scrapped asset is not moved again', async () => {
      await ok('assetmove', { id: assetId, location: '设备仓库', remark: '检修' });
      await page.goto(page.url().replace(/\/carpark\/.*$/, `/carpark/device?id=${assetId}`));
      const drawer = page.getByTestId('asset-drawer');
      await drawer.waitFor();
      await expect.poll(() => drawer.getByTestId('asset-drawer-location').textContent()).toBe('设备仓库');
      await drawer.getByText('设备日志').click();
      await expect.poll(() => drawer.getByTestId('asset-drawer-log').textContent()).toContain('物业楼屋顶 → 设备仓库');
      const scrap = await api('assetstate', { id: assetId, state: 'X', remark: '压缩机损坏' }, tech);
      expect(scrap.return_code).toBe('SUCCESS');
      const again = await api('assetstate', { id: assetId, state: 'U' }, tech);
      expect(again.return_msg).toContain('设备已报废，不能再改变状态');
    });
  },
);
