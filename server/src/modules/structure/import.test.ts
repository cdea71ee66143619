import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ROOM_IMPORT_HEADERS } from '@wuye/contract';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { workbookBase64 } from '../../test/workbook.js';

let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, steward] = (await Promise.all(['admin', 'admin2', 'steward'].map((u) => s.login(u)))) as [string, string, string];
});
afterAll(() => s.close());

const workbook = (rows: Array<Array<string | number>>, headers: readonly string[] = ROOM_IMPORT_HEADERS) =>
  workbookBase64(headers, rows, '房屋');

const readSheet = async (base64: string, index = 0) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  const ws = wb.worksheets[index]!;
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { rows, names: wb.worksheets.map((w) => w.name) };
};

/** 10号楼: 2 units × 60 floors × 2 rooms = 240 rows, enough for several progress reports. */
function goodRows(): Array<Array<string | number>> {
  const rows: Array<Array<string | number>> = [];
  for (const unit of ['1单元', '2单元']) {
    for (let floor = 1; floor <= 60; floor++) {
      for (const n of [1, 2]) rows.push(['10号楼', unit, `${floor}0${n}`, floor, '95.55', 76.44, '住宅', '已入住', '']);
    }
  }
  rows.push(['1号楼', '3单元', 'S03', 1, '40', '35', '商铺', 'vacant', '新增商铺']);
  return rows;
}

describe('roomimporttemplate', () => {
  it('answers a workbook with the headers, two example rows and instructions', async () => {
    const res = await s.call('roomimporttemplate', {}, steward);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.filename).toBe('房屋导入模板.xlsx');
    const { rows, names } = await readSheet(res.data.content_base64);
    expect(rows[0]).toEqual([...ROOM_IMPORT_HEADERS]);
    expect(rows).toHaveLength(3);
    expect(names).toEqual(['房屋', '填写说明']);
  });
});

describe('roomimport', () => {
  it('imports a good file in one job: creates the missing building, units and rooms', async () => {
    const before = await s.call('roomlist', {}, admin);
    const res = await s.call('roomimport', { file_base64: await workbook(goodRows()), filename: '10号楼.xlsx' }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    const jobId = res.data.job_id;
    const queued = await s.call('jobinfo', { id: jobId }, admin);
    expect(queued.data).toMatchObject({ status: 'queued', total: 241 });
    await s.runJobs();
    const job = await s.call('jobinfo', { id: jobId }, admin);
    expect(job.data).toMatchObject({ status: 'done', percent: 100, progress: 241 });
    expect(job.data.result).toEqual({ created_buildings: 1, created_units: 3, created_rooms: 241, skipped_rooms: 0, errors: [] });
    const after = await s.call('roomlist', {}, admin);
    expect(after.data.total).toBe(before.data.total + 241);
    const b = await s.call('buildinglist', { title: '10号楼' }, admin);
    expect(b.data.items[0]).toMatchObject({ unit_count: 2, room_count: 240, floors: 60 });
    const room = await s.call('roomlist', { bid: b.data.items[0].id, keyword: '3502' }, admin);
    expect(room.data.items[0]).toMatchObject({
      floor: 35,
      built_area: '95.55',
      indoor_area: '76.44',
      state: 'occupied',
      category_title: '住宅',
    });
    const shop = await s.call('roomlist', { keyword: 'S03' }, admin);
    expect(shop.data.items[0]).toMatchObject({
      building_title: '1号楼',
      unit_title: '3单元',
      category_title: '商铺',
      state: 'vacant',
      remark: '新增商铺',
    });
    // nothing of this reached community 2
    expect((await s.call('buildinglist', { title: '10号楼' }, admin2)).data.total).toBe(0);
    expect((await s.call('roomimporterrors', { job_id: jobId }, admin)).return_msg).toBe('该次导入没有错误行');
  });

  it('imports nothing when one row is bad and reports row, column and reason', async () => {
    const rows: Array<Array<string | number>> = [
      ['11号楼', '1单元', '101', 1, '88.5', '70', '住宅', '空置', ''],
      ['11号楼', '1单元', '102', 1, '88.555', '70', '住宅', '空置', ''],
      ['11号楼', '', '103', 1, '88', '70', '别墅', '已售', ''],
      ['11号楼', '1单元', '101', 'abc', '88', '90', '住宅', '出租', ''],
      ['1号楼', '1单元', '101', 1, '89.5', '70', '', '', '已存在'],
    ];
    const before = await s.call('roomlist', {}, admin);
    const res = await s.call('roomimport', { file_base64: await workbook(rows), filename: 'bad.xlsx' }, admin);
    expect(res.return_code).toBe('SUCCESS');
    await s.runJobs();
    const job = await s.call('jobinfo', { id: res.data.job_id }, admin);
    expect(job.data.status).toBe('done');
    const errors = job.data.result.errors as Array<{ row: number; column: string; reason: string }>;
    expect(job.data.result.created_rooms).toBe(0);
    expect(errors).toEqual(
      expect.arrayContaining([
        { row: 3, column: '建筑面积', reason: '建筑面积必须是不小于0且最多两位小数的数字' },
        { row: 4, column: '单元', reason: '单元不能为空' },
        { row: 4, column: '房屋类型', reason: '房屋类型“别墅”不存在，请先在房屋类型中添加' },
        expect.objectContaining({ row: 4, column: '状态' }),
        expect.objectContaining({ row: 5, column: '楼层' }),
        { row: 5, column: '套内面积', reason: '套内面积不能大于建筑面积' },
        { row: 5, column: '房号', reason: '与第 2 行重复（同一楼栋单元下房号相同）' },
        { row: 6, column: '房号', reason: '1号楼1单元101 已存在' },
      ]),
    );
    expect(errors.some((e) => e.row === 2)).toBe(false);
    expect((await s.call('roomlist', {}, admin)).data.total).toBe(before.data.total);
    expect((await s.call('buildinglist', { title: '11号楼' }, admin)).data.total).toBe(0);

    const report = await s.call('roomimporterrors', { job_id: res.data.job_id }, admin);
    expect(report.return_code).toBe('SUCCESS');
    const { rows: lines } = await readSheet(report.data.content_base64);
    expect(lines[0]).toEqual(['行号', '列', '原因']);
    expect(lines).toContainEqual([3, '建筑面积', '建筑面积必须是不小于0且最多两位小数的数字']);
    expect(lines).toHaveLength(errors.length + 1);
    // another community cannot read this report
    expect((await s.call('roomimporterrors', { job_id: res.data.job_id }, admin2)).return_msg).toBe('导入记录不存在');
  });

  it('refuses bad files before queueing', async () => {
    const good = await workbook(goodRows());
    expect((await s.call('roomimport', { file_base64: good, filename: 'x.xls' }, admin)).return_msg).toBe('请上传 .xlsx 格式的 Excel 文件');
    expect((await s.call('roomimport', { file_base64: 'bm90IGEgZmlsZQ==', filename: 'x.xlsx' }, admin)).return_msg).toBe(
      '文件不是有效的 Excel（.xlsx）文件',
    );
    expect((await s.call('roomimport', { file_base64: await workbook([['a']], ['名称']), filename: 'x.xlsx' }, admin)).return_msg).toBe(
      '表头不正确，缺少列：楼栋、单元、房号，请下载模板后填写',
    );
    expect((await s.call('roomimport', { file_base64: await workbook([]), filename: 'x.xlsx' }, admin)).return_msg).toBe(
      '文件中没有数据行',
    );
    expect((await s.call('roomimport', { file_base64: '', filename: 'x.xlsx' }, admin)).return_msg).toContain('请选择文件');
    expect((await s.call('roomimport', { file_base64: good, filename: 'x.xlsx' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('roomimporterrors', { job_id: 'x' }, admin)).return_msg).toContain('job_id');
    expect((await s.call('roomimport', { file_base64: good, filename: 'x.xlsx', skip_existing: 'yes' }, admin)).return_msg).toContain(
      'skip_existing',
    );
  });
});

describe('importloglist', () => {
  it('lists the community imports newest first with counts and creator', async () => {
    const res = await s.call('importloglist', {}, steward);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.total).toBe(2);
    const [bad, good] = res.data.items;
    expect(bad).toMatchObject({ filename: 'bad.xlsx', status: 'done', status_ch: '校验未通过', created_rooms: 0, create_user: '张经理' });
    expect(bad.error_count).toBeGreaterThanOrEqual(8);
    expect(good).toMatchObject({
      filename: '10号楼.xlsx',
      status_ch: '导入成功',
      created_buildings: 1,
      created_units: 3,
      created_rooms: 241,
      error_count: 0,
      total: 241,
    });
    expect((await s.call('importloglist', {}, admin2)).data.total).toBe(0);
    const asc = await s.call('importloglist', { sort: 'asc', limit: 1 }, admin);
    expect(asc.data.items[0].filename).toBe('10号楼.xlsx');
  });
});

describe('roomimport skip_existing', () => {
  const importJob = async (rows: Array<Array<string | number>>, payload: Record<string, unknown>) => {
    const res = await s.call('roomimport', { file_base64: await workbook(rows), filename: '10号楼补录.xlsx', ...payload }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    await s.runJobs();
    return (await s.call('jobinfo', { id: res.data.job_id }, admin)).data;
  };

  it('reports each existing room as an error unless asked to skip them; then adds only the new rows', async () => {
    // the file imported above, again: without the option every row is an error and nothing changes
    const again = await importJob(goodRows(), {});
    expect(again.result.errors).toHaveLength(241);
    expect(again.result.errors[0]).toEqual({ row: 2, column: '房号', reason: '10号楼1单元101 已存在' });

    // with it, the same file plus two new rooms (one in a new unit): the two are added, the rest counted
    const before = (await s.call('roomlist', {}, admin)).data.total;
    const rows = [
      ...goodRows(),
      ['10号楼', '1单元', '6101', 61, '95.55', '76.44', '住宅', '空置', ''],
      ['10号楼', '3单元', '101', 1, '80', '60', '', '', ''],
    ];
    const job = await importJob(rows, { skip_existing: 'Y' });
    expect(job).toMatchObject({ status: 'done', percent: 100 });
    expect(job.result).toEqual({ created_buildings: 0, created_units: 1, created_rooms: 2, skipped_rooms: 241, errors: [] });
    expect((await s.call('roomlist', {}, admin)).data.total).toBe(before + 2);
    const log = (await s.call('importloglist', { limit: 1 }, admin)).data.items[0];
    expect(log).toMatchObject({ status_ch: '导入成功', created_rooms: 2, skipped_rooms: 241, error_count: 0 });

    // a bad row still stops the whole file, skipped rooms or not; an existing room's own bad cell is reported
    const bad = await importJob(
      [
        ['10号楼', '1单元', '102', 1, '95.55', '76.44', '住宅', '已入住', ''],
        ['10号楼', '1单元', '101', 1, 'x', '0', '', '', ''],
        ['10号楼', '1单元', '6201', 62, '95', '76', '住宅', '空置', ''],
      ],
      { skip_existing: 'Y' },
    );
    expect(bad.result).toMatchObject({ created_rooms: 0, skipped_rooms: 0 });
    expect(bad.result.errors).toEqual([{ row: 3, column: '建筑面积', reason: '建筑面积必须是不小于0且最多两位小数的数字' }]);
    expect((await s.call('roomlist', {}, admin)).data.total).toBe(before + 2);

    // a file of existing rooms only: done, nothing added
    const none = await importJob(goodRows().slice(0, 5), { skip_existing: 'Y' });
    expect(none.result).toEqual({ created_buildings: 0, created_units: 0, created_rooms: 0, skipped_rooms: 5, errors: [] });
    // another community's rooms of the same names are not "existing" here
    const other = await s.call(
      'roomimport',
      { file_base64: await workbook(goodRows().slice(0, 2)), filename: 'x.xlsx', skip_existing: 'Y' },
      admin2,
    );
    await s.runJobs();
    expect((await s.call('jobinfo', { id: other.data.job_id }, admin2)).data.result).toMatchObject({ created_rooms: 2, skipped_rooms: 0 });
  });
});
