import ExcelJS from 'exceljs';
import { capitalAmount, fenToYuan, toFen } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward] = await t.logins('admin', 'admin2', 'steward');
});
afterAll(() => t.close());

async function xlsx(rows: string[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('账单');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}
const HEAD = ['楼栋', '单元', '房号', '收费项目', '账期', '金额', '状态', '缴费日期'];

describe('dunning', () => {
  it('lists rooms in arrears and prints summary and detailed notices', async () => {
    const list = await t.call('feebillcall', { limit: 3 }, admin);
    expect(list.return_code).toBe('SUCCESS');
    expect(list.data.total).toBeGreaterThan(0);
    const hids = list.data.items.map((r: { hid: number }) => r.hid);
    const summary = await t.call('print_billcall', { hids }, admin);
    expect(summary.data.region_title).toBe('阳光花园');
    expect(summary.data.notices).toHaveLength(3);
    const n = summary.data.notices[0];
    expect(toFen(n.total)).toBe(toFen(n.arrears) + toFen(n.late_fee));
    expect(n.capital_amount).toBe(capitalAmount(n.total));
    expect(n.bills).toBeUndefined();
    const detail = await t.call('print_billcallmx', { hids }, admin);
    const d = detail.data.notices[0];
    expect(d.bills.length).toBe(d.bill_count);
    expect(fenToYuan(d.bills.reduce((s: bigint, b: { fee: string }) => s + toFen(b.fee), 0n))).toBe(d.arrears);
    // another community's rooms print nothing
    expect((await t.call('print_billcall', { hids }, admin2)).data.notices).toEqual([]);
    // 翠湖苑's own rooms in arrears (its activities' unpaid sign-ups), none of 阳光花园's
    const theirs = (await t.call('feebillcall', { limit: 200 }, admin2)).data.items as Array<{ hid: number }>;
    expect(theirs.filter((r) => hids.includes(r.hid))).toEqual([]);
    expect((await t.call('print_billcall', { hids }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('print_billcall', { hids: [] }, admin)).return_msg).toContain('hids');
  });
});

describe('historical bill import', () => {
  it('gives a template', async () => {
    const res = await t.call('feeimporttemplate', {}, admin);
    expect(res.data.filename).toMatch(/\.xlsx$/);
    expect((await t.call('feeimporttemplate', {}, steward)).return_code).toBe('NO_PERMISSION');
  });

  it('imports nothing when a row is bad, and reports the rows', async () => {
    const file = await xlsx([
      HEAD,
      ['1号楼', '1单元', '101', '物业服务费', '2024-01', '223.75', '已缴', '2024-01-20'],
      ['1号楼', '1单元', '9999', '物业服务费', '2024-01', '1.00', '', ''],
      ['1号楼', '1单元', '102', '物业服务费', '2024-13', '1.005', '坏', ''],
    ]);
    const res = await t.call('feebillimport', { filename: 'old.xlsx', file_base64: file }, admin);
    expect(res.return_code).toBe('SUCCESS');
    await t.runJobs();
    const job = await t.call('jobinfo', { id: res.data.job_id }, admin);
    expect(job.data.status).toBe('done');
    expect((job.data.result as { imported: number }).imported).toBe(0);
    const list = await t.call('feeimportlist', {}, admin);
    expect(list.data.items[0]).toMatchObject({ filename: 'old.xlsx', imported: 0, error_count: 4 });
    const report = await t.call('feeimporterrors', { job_id: res.data.job_id }, admin);
    expect(report.data.filename).toMatch(/错误报告/);
    expect((await t.call('feebilllist', { period: '2024-01' }, admin)).data.total).toBe(0);
  });

  it('imports good rows as bills; a second import of the same bills is refused per row', async () => {
    const rows = [
      HEAD,
      ['1号楼', '1单元', '101', '物业服务费', '2024-02', '223.75', '已缴', '2024-02-20'],
      ['1号楼', '1单元', '102', '物业服务费', '2024-02', '263.00', '', ''],
    ];
    const res = await t.call('feebillimport', { filename: 'ok.xlsx', file_base64: await xlsx(rows) }, admin);
    await t.runJobs();
    expect(((await t.call('jobinfo', { id: res.data.job_id }, admin)).data.result as { imported: number }).imported).toBe(2);
    const bills = await t.call('feebilllist', { period: '2024-02', sort: 'asc' }, admin);
    expect(bills.data.items.map((b: { status: string; fee: string }) => [b.status, b.fee])).toEqual([
      ['Y', '223.75'],
      ['N', '263.00'],
    ]);
    const again = await t.call('feebillimport', { filename: 'ok.xlsx', file_base64: await xlsx(rows) }, admin);
    await t.runJobs();
    expect(((await t.call('jobinfo', { id: again.data.job_id }, admin)).data.result as { errors: unknown[] }).errors).toHaveLength(2);
  });

  it('checks the file, the community and roles', async () => {
    expect((await t.call('feebillimport', { filename: 'a.csv', file_base64: 'eA==' }, admin)).return_msg).toContain('.xlsx');
    expect((await t.call('feebillimport', { filename: 'a.xlsx', file_base64: await xlsx([['x']]) }, admin)).return_msg).toContain(
      '表头不正确',
    );
    expect((await t.call('feebillimport', { filename: 'a.xlsx', file_base64: await xlsx([HEAD]) }, admin)).return_msg).toBe(
      '文件中没有数据行',
    );
    expect((await t.call('feebillimport', { filename: 'a.xlsx', file_base64: '' }, admin)).return_msg).toContain('请选择文件');
    expect((await t.call('feebillimport', { filename: 'a.xlsx', file_base64: 'eA==' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feeimportlist', {}, admin2)).data.total).toBe(0);
    const mine = (await t.call('feeimportlist', {}, admin)).data.items[0];
    expect((await t.call('feeimporterrors', { job_id: mine.id }, admin2)).return_msg).toBe('导入记录不存在');
  });
});
