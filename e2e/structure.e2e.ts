import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { api, apiLogin, journey, signIn } from './support.js';
import { pick } from './antd.js';
import { screenshot } from './browser.js';
import { xlsxUpload } from './files.js';

const importFile = (rows: Array<Array<string | number>>) =>
  xlsxUpload('rooms.xlsx', ['楼栋', '单元', '房号', '楼层', '建筑面积', '套内面积', '房屋类型', '状态', '备注'], rows);

/** Signs in on the room import page, chooses a workbook of `rows` and starts its import. */
async function startImport(newPage: () => Promise<Page>, rows: Array<Array<string | number>>): Promise<Page> {
  const page = await newPage();
  await signIn(page, 'admin', undefined, '/buildingimport');
  await page.waitForURL('**/buildingimport');
  await page.getByTestId('import-file').setInputFiles(await importFile(rows));
  await page.getByTestId('import-start').click();
  return page;
}

journey('community structure: build a building, add a room, import with a bad row', ({ page: newPage }) => {
  it('builds 9号楼 with a unit and a room through the pages', async () => {
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/buildinglist');
    await page.waitForURL('**/buildinglist');

    await page.getByTestId('building-add').click();
    await page.getByTestId('building-title').fill('9号楼');
    await page.getByTestId('building-save').click();
    await expect.poll(() => page.getByTestId('building-table').getByText('9号楼').count()).toBeGreaterThan(0);

    await page.goto('/unitlist');
    await pick(page, 'unit-filter-bid', '9号楼');
    // the list narrowed to the new building (no units yet) before a new unit starts there
    await page.waitForURL(/[?&]bid=\d+/);
    await page.getByTestId('unit-table').locator('.ant-empty').waitFor();
    await page.getByTestId('unit-add').click();
    await page.getByTestId('unit-title').fill('1单元');
    await page.getByTestId('unit-save').click();
    await expect.poll(() => page.getByTestId('unit-table').getByText('9号楼').count()).toBeGreaterThan(0);

    await page.goto('/addroom');
    await pick(page, 'room-bid', '9号楼');
    await pick(page, 'room-tid', '1单元');
    await page.getByTestId('room-title').fill('901');
    await page.locator('input[data-testid="room-floor"], [data-testid="room-floor"] input').first().fill('9');
    await page.getByTestId('room-built-area').fill('118.60');
    await page.getByTestId('room-indoor-area').fill('95.20');
    await page.getByTestId('room-save').click();
    await page.waitForURL('**/roomlist');

    await pick(page, 'room-filter-bid', '9号楼');
    await page.getByTestId('room-filter-keyword').fill('901');
    await page.getByTestId('room-filter-keyword').press('Enter');
    await expect.poll(() => page.getByTestId('room-table').getByText('118.60').count()).toBeGreaterThan(0);
    await screenshot(page, 'structure-roomlist');

    const token = await apiLogin('admin');
    const rooms = await api('roomlist', { keyword: '901', limit: 100 }, token);
    expect(rooms.data.items.some((r: { address: string }) => r.address === '9号楼1单元901')).toBe(true);
  });

  it('imports nothing from a file with one bad row and gives the error report', async () => {
    const page = await startImport(newPage, [
      ['12号楼', '1单元', '101', 1, '88.50', '70.80', '住宅', '已入住', ''],
      ['12号楼', '1单元', '102', 1, '88.555', '70.80', '住宅', '已入住', ''],
    ]);
    await page.getByTestId('import-errors').waitFor();
    await expect.poll(() => page.getByTestId('import-error-table').getByText('建筑面积必须是不小于0且最多两位小数的数字').count()).toBe(1);
    await screenshot(page, 'structure-import-errors');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-error-report').click()]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(await download.path());
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, '行号', '列', '原因']);
    expect(ws.getRow(2).getCell(1).value).toBe(3);
    expect(ws.getRow(2).getCell(2).value).toBe('建筑面积');

    const token = await apiLogin('admin');
    expect((await api('buildinglist', { title: '12号楼' }, token)).data.total).toBe(0);
    await page.goto('/importlog');
    await expect.poll(() => page.getByTestId('importlog-table').getByText('校验未通过').count()).toBeGreaterThan(0);
  });

  it('re-imports a file with an existing room: refused with a hint, then imported skipping it', async () => {
    const page = await startImport(newPage, [
      ['1号楼', '1单元', '101', 1, '89.50', '70.00', '住宅', '已入住', ''],
      ['13号楼', '1单元', '101', 1, '88.50', '70.80', '住宅', '空置', ''],
    ]);
    const refused = page.getByTestId('import-errors');
    await refused.waitFor();
    await expect.poll(() => refused.textContent()).toContain('跳过已存在的房屋');
    await screenshot(page, 'structure-import-existing');
    expect(await page.getByTestId('import-error-table').textContent()).toContain('1号楼1单元101 已存在');

    await page.getByTestId('import-skip-existing').click();
    await page.getByTestId('import-start').click();
    const done = page.getByTestId('import-success');
    await done.waitFor();
    expect(await done.textContent()).toContain('房屋 1 套，跳过已存在的房屋 1 套');
    await screenshot(page, 'structure-import-skipped');
    const token = await apiLogin('admin');
    const building = (await api('buildinglist', { title: '13号楼' }, token)).data.items[0];
    expect(building).toMatchObject({ unit_count: 1, room_count: 1 });
    await page.goto('/importlog');
    const latest = page.getByTestId('importlog-table').locator('.ant-table-row').first();
    await expect.poll(() => latest.textContent()).toContain('导入成功');
  });
});
