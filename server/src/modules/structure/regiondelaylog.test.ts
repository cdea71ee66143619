import { addDays, daysBetween } from '@wuye/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/** regiondelaylog on the community side (/setup/regiondelaylog): the signed-in community's own extensions. */
let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;

interface LogRow {
  id: number;
  rid: number;
  kind: string;
  kind_ch: string;
  ref: string;
  old_end: string;
  new_end: string;
  days: number;
  amount: string;
  operator: string;
  create_time: string;
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, steward, cashier] = (await Promise.all(['admin', 'admin2', 'steward', 'cashier'].map((u) => s.login(u)))) as [
    string,
    string,
    string,
    string,
  ];
});
afterAll(() => s.close());

describe('regiondelaylog (community side)', () => {
  it("lists the community's extensions newest first, with the days each added", async () => {
    const res = await s.call('regiondelaylog', { page: 1, limit: 10 }, admin);
    expect(res.return_code).toBe('SUCCESS');
    const items = res.data.items as LogRow[];
    expect(res.data.total).toBeGreaterThanOrEqual(2);
    expect(items.every((l) => l.rid === 1)).toBe(true);
    expect(items.map((l) => l.id)).toEqual([...items.map((l) => l.id)].sort((a, b) => b - a));
    const paid = items.find((l) => l.kind === 'pay')!;
    expect(paid).toMatchObject({ kind_ch: '扫码续费', amount: '3600.00' });
    for (const l of items) expect(l.days).toBe(daysBetween(l.old_end, l.new_end));
    expect(paid.days).toBeGreaterThanOrEqual(365);
  });

  it('filters by the day the extension was made, both days included', async () => {
    const day = today();
    const recent = await s.call('regiondelaylog', { create_time: [addDays(day, -70), addDays(day, -60)] }, admin);
    expect((recent.data.items as LogRow[]).map((l) => l.kind)).toEqual(['pay']);
    const none = await s.call('regiondelaylog', { create_time: [addDays(day, -10), day] }, admin);
    expect(none.data).toEqual({ items: [], total: 0 });
    const all = await s.call('regiondelaylog', { create_time: '' }, admin);
    expect(all.data.total).toBeGreaterThanOrEqual(2);
  });

  it("never shows another community's rows, whatever rid the payload names", async () => {
    const mine = await s.call('regiondelaylog', { rid: 2 }, admin);
    expect((mine.data.items as LogRow[]).every((l) => l.rid === 1)).toBe(true);
    const other = await s.call('regiondelaylog', {}, admin2);
    expect(other.return_code).toBe('SUCCESS');
    expect((other.data.items as LogRow[]).every((l) => l.rid === 2)).toBe(true);
    expect((other.data.items as LogRow[]).some((l) => l.ref === 'RD202609210001')).toBe(false);
  });

  it('refuses the roles that do not manage the subscription', async () => {
    expect((await s.call('regiondelaylog', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('regiondelaylog', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });

  it("exports the community's own log with the list's filter", async () => {
    const day = today();
    const res = await s.exportFile('regiondelaylogexport', { create_time: [addDays(day, -70), addDays(day, -60)] }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.filename).toMatch(/^续费记录_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toContain('延长天数');
    expect(ws.rowCount).toBe(2);
    expect(ws.getRow(2).getCell(2).value).toBe('扫码续费');
    const other = await s.exportFile('regiondelaylogexport', {}, admin2);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(other.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const refs = wb2.worksheets[0]!.getColumn(7).values as unknown[];
    expect(refs).not.toContain('RD202609210001');
    expect((await s.call('regiondelaylogexport', {}, steward)).return_code).toBe('NO_PERMISSION');
  });

  it('refuses a bad payload, naming the field', async () => {
    const bad = await s.call('regiondelaylog', { create_time: ['2026/01/01', '2026-01-31'] }, admin);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toMatch(/create_time/);
    const half = await s.call('regiondelaylog', { create_time: ['2026-01-01'] }, admin);
    expect(half.return_code).toBe('FAIL');
    expect((await s.call('regiondelaylog', { limit: 1000 }, admin)).return_code).toBe('FAIL');
  });
});

describe('leaderregiondelaylogexport (group side)', () => {
  it('answers the group’s renewal log as a workbook naming each community, filtered like the list', async () => {
    const leader = await s.login('leader');
    const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
    const list = await group('regiondelaylog', { limit: 100 });
    const res = await group('leaderregiondelaylogexport', {});
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.data.filename).toMatch(/^集团续费记录_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).getCell(2).value).toBe('小区');
    expect(sheet.rowCount - 1).toBe(list.data.total);
    // one community's: its rows only, as many as the list shows for it
    const rid = list.data.items[0].rid;
    const title = list.data.items[0].region_title;
    const one = await group('leaderregiondelaylogexport', { rid });
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(one.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const mine: unknown[] = [];
    wb2.worksheets[0]!.eachRow((row, n) => n > 1 && mine.push(row.getCell(2).value));
    expect(new Set(mine)).toEqual(new Set([title]));
    expect(mine.length).toBe((await group('regiondelaylog', { rid, limit: 100 })).data.total);

    // another group's community, a community account and a bad range change nothing and answer plainly
    expect((await group('leaderregiondelaylogexport', { rid: 999999 })).return_msg).toBe('小区不存在');
    expect((await s.call('leaderregiondelaylogexport', {}, admin, 'group')).return_code).toBe('NO_PERMISSION');
    expect((await group('leaderregiondelaylogexport', { create_time: ['2026-01-01'] })).return_code).toBe('FAIL');
  });
});
