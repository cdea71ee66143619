import ExcelJS from 'exceljs';
import { RC, type OperationLogItem } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';
import { labelOf, summaryOf } from './operationlog.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let leader: string;
const MARK = `日志标记${Date.now() % 100000}`;
const MARK2 = `翠湖标记${Date.now() % 100000}`;

const day = (): [string, string] => [today(), today()];
const list = (payload: Record<string, unknown>, token = admin, side: 'community' | 'group' = 'community') =>
  s.call<{ items: OperationLogItem[]; total: number; more: boolean }>('operationloglist', payload, token, side);

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, leader] = await s.logins('admin', 'admin2', 'cashier', 'leader');
  // a write in each community, and a refused one in the first
  expect((await s.call('setsysinfo', { sub_title: MARK }, admin)).return_code).toBe(RC.SUCCESS);
  expect((await s.call('setsysinfo', { sub_title: MARK2 }, admin2)).return_code).toBe(RC.SUCCESS);
  expect((await s.call('backlog_done', { id: 987654 }, admin)).return_code).toBe(RC.FAIL);
});
afterAll(() => s.close());

describe('operationloglist', () => {
  it('lists the community’s writes newest first, with who, the readable action and a summary', async () => {
    const res = await list({});
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data.items.length).toBe(10);
    expect(res.data.total).toBeGreaterThan(10);
    expect(res.data.more).toBe(false);
    const [refused, saved] = res.data.items;
    expect(refused).toMatchObject({ method: 'backlog_done', result: 'N', result_ch: '失败', message: '待办不存在或已处理' });
    expect(refused!.action).toBe('将一条待办标记为已办');
    expect(saved).toMatchObject({
      method: 'setsysinfo',
      action: '设置本小区的系统信息',
      username: 'admin',
      operator_name: '张经理',
      region_title: '阳光花园',
      result: 'Y',
      result_ch: '成功',
    });
    expect(JSON.parse(saved!.payload)).toEqual({ sub_title: MARK });
    const times = res.data.items.map((i) => i.create_time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('never shows another community’s rows, whatever the payload says', async () => {
    const mine = await list({ keyword: MARK2, rid: 2, create_time: day() });
    expect(mine.data.total).toBe(0);
    const theirs = await list({ keyword: MARK2, create_time: day() }, admin2);
    expect(theirs.data.items.map((i) => i.region_title)).toEqual(['翠湖苑']);
    const all = await list({ limit: 200 }, admin2);
    expect(all.data.items.every((i) => i.rid === 2)).toBe(true);
  });

  it('narrows by each filter', async () => {
    const all = (await list({})).data.total;
    const d = today();
    const byDay = await list({ create_time: [d, d] });
    expect(byDay.data.total).toBeGreaterThanOrEqual(2);
    expect(byDay.data.total).toBeLessThanOrEqual(all);
    expect((await list({ create_time: ['2001-01-01', '2001-01-31'] })).data.total).toBe(0);

    const byName = await list({ operator: '张经' });
    expect(byName.data.items.length).toBeGreaterThan(0);
    expect(byName.data.items.every((i) => i.operator_name === '张经理')).toBe(true);
    const byUser = await list({ operator: 'admin' });
    expect(byUser.data.items.every((i) => i.username.includes('admin'))).toBe(true);

    const byMethod = await list({ action: 'setsysinfo' });
    expect(byMethod.data.items.length).toBeGreaterThan(0);
    expect(byMethod.data.items.every((i) => i.method === 'setsysinfo')).toBe(true);

    const failed = await list({ result: 'N' });
    expect(failed.data.items.every((i) => i.result === 'N')).toBe(true);
    expect(failed.data.total).toBeLessThan(all);
    const ok = await list({ result: 'Y' });
    expect(ok.data.total + failed.data.total).toBe(all);

    const byKeyword = await list({ keyword: MARK, create_time: day() });
    expect(byKeyword.data.total).toBe(1);
    expect(byKeyword.data.items[0]!.summary).toBe('');
  });

  it('pages 10 at a time', async () => {
    const p1 = await list({ page: 1 });
    const p2 = await list({ page: 2 });
    expect(p2.data.items.length).toBeGreaterThan(0);
    expect(p2.data.items.some((i) => p1.data.items.some((j) => j.id === i.id))).toBe(false);
    expect(p2.data.items[0]!.create_time <= p1.data.items[9]!.create_time).toBe(true);
  });

  it('shows the group side every community and the group accounts’ own rows, with a community filter', async () => {
    const all = await list({ limit: 200, create_time: [today(), today()] }, leader, 'group');
    expect(all.return_code).toBe(RC.SUCCESS);
    const titles = new Set(all.data.items.map((i) => i.region_title));
    expect(titles.has('阳光花园')).toBe(true);
    expect(titles.has('翠湖苑')).toBe(true);
    // sign-ins carry no community: the group sees its accounts'
    expect(all.data.items.some((i) => i.method === 'login' && i.username === 'leader' && i.region_title === '集团')).toBe(true);
    // a sign-in to a community is that community's row
    const signIns = await s.call<{ items: Array<{ username: string; outcome: string }> }>('operationloglist', { action: 'login' }, admin);
    expect(signIns.data.items.some((i) => i.username === 'cashier' && i.outcome === 'SUCCESS')).toBe(true);
    const elsewhere = await s.call<{ items: Array<{ username: string }> }>('operationloglist', { action: 'login' }, admin2);
    expect(elsewhere.data.items.some((i) => i.username === 'cashier')).toBe(false);
    const one = await list({ rid: 2, limit: 200 }, leader, 'group');
    expect(one.data.items.length).toBeGreaterThan(0);
    expect(one.data.items.every((i) => i.rid === 2)).toBe(true);
    const grouped = await list({ rid: 2 }, leader, 'group');
    const community = await list({}, admin2);
    expect(grouped.data.total).toBe(community.data.total);
    expect((await list({ rid: 99999 }, leader, 'group')).return_msg).toBe('小区不存在');
  });

  it('refuses a cashier and a bad payload', async () => {
    expect((await list({}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('operationlogexport', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    const backwards = await list({ create_time: ['2026-03-02', '2026-03-01'] });
    expect(backwards).toMatchObject({ return_code: RC.FAIL, return_msg: expect.stringContaining('开始日期不能晚于结束日期') });
    const badDay = await list({ create_time: ['2026-13-01', '2026-12-31'] });
    expect(badDay.return_code).toBe(RC.FAIL);
    expect(badDay.return_msg).toMatch(/日期/);
    expect((await list({ result: 'X' })).return_code).toBe(RC.FAIL);
    // a keyword reads every payload: only within a month
    expect((await list({ keyword: MARK })).return_msg).toBe('按关键字查询时，请选择不超过 31 天的时间范围');
    expect((await list({ keyword: MARK, create_time: ['2026-01-01', '2026-03-01'] })).return_code).toBe(RC.FAIL);
    expect((await s.call('operationlogexport', { keyword: MARK }, admin)).return_code).toBe(RC.FAIL);
    expect((await list({ action: "x' or 1=1" })).return_code).toBe(RC.FAIL);
  });

  it('offers the write methods with their labels', async () => {
    const res = await s.call<{ items: Array<{ value: string; label: string }> }>('operationlog_small_list', {}, admin);
    expect(res.data.items).toContainEqual({ value: 'setsysinfo', label: '设置本小区的系统信息' });
    expect(res.data.items).toContainEqual({ value: 'login', label: '账号登录' });
    expect(res.data.items.some((i) => i.value === 'operationloglist')).toBe(false);
  });
});

describe('operationlogexport', () => {
  it('exports the filtered rows of the community as a workbook', async () => {
    const res = await s.exportFile('operationlogexport', { operator: '张经理', action: 'setsysinfo' }, admin);
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data.filename).toMatch(/^操作日志_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual(expect.arrayContaining(['时间', '操作人', '操作', '对象/摘要', '结果', 'IP']));
    expect(ws.rowCount).toBeGreaterThanOrEqual(2);
    expect(ws.getRow(2).getCell(4).value).toBe('设置本小区的系统信息');
    const other = await s.exportFile('operationlogexport', { keyword: MARK, create_time: day() }, admin2);
    expect(other.return_code).toBe(RC.SUCCESS);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(other.data.content_base64, 'base64') as unknown as ArrayBuffer);
    // only the export's own row (its payload carries the keyword), never community 1's write
    const methods = (wb2.worksheets[0]!.getColumn(5).values as unknown[]).slice(2);
    expect(methods).toEqual(['operationlogexport']);
  });
});

describe('labels and summaries', () => {
  it('reads the action off the summary', () => {
    expect(labelOf({ name: 'meteradd', spec: { summary: '录入一条抄表读数（按账期）' } } as never)).toBe('录入一条抄表读数');
    expect(labelOf({ name: 'x', spec: { summary: '' } } as never)).toBe('x');
  });
  it('summarises well-known keys and never a secret', () => {
    expect(summaryOf({ title: '1号楼', id: 7, password: '***' })).toBe('1号楼；ID 7');
    expect(summaryOf({ username: 'zhang', password: '***' })).toBe('账号 zhang');
    expect(summaryOf({ ids: [1, 2, 3, 4, 5, 6] })).toBe('ID 1,2,3,4,5 等 6 个');
    expect(summaryOf({})).toBe('');
  });
});
