import ExcelJS from 'exceljs';
import { addMonths, fenToYuan, mulDivRoundHalfUp, toFen, type GroupFeeFigures, type GroupFeeRow } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/** leaderfeesummary (/leader/feecount): each community of the group, as its own 物业费收缴统计 counts it. */
let t: TestServer;
let leader: string;
let admin: string;
let admin2: string;
const month = today().slice(0, 7);
const year = month.slice(0, 4);
const range = { start_period: `${year}-01`, end_period: `${year}-12` };

beforeAll(async () => {
  t = await startTestServer();
  [leader, admin, admin2] = await t.logins('leader', 'admin', 'admin2');
});
afterAll(() => t.close());

type Summary = { items: GroupFeeRow[]; totals: GroupFeeFigures; start_period: string; end_period: string };
const summary = async (payload: Record<string, unknown>) => {
  const res = await t.call<Summary>('leaderfeesummary', payload, leader, 'group');
  expect(res.return_code).toBe('SUCCESS');
  return res.data;
};

/** The figures propertypaycount answers the community's admin for the same range. */
const ownReport = async (token: string, r: { start_period: string; end_period: string }) => {
  const res = await t.call('propertypaycount', r, token);
  expect(res.return_code).toBe('SUCCESS');
  return res.data.totals as Record<string, string>;
};

const MONEY = ['arrears_before', 'receivable', 'received', 'received_current', 'recovered', 'prepaid'] as const;

describe('leaderfeesummary', () => {
  it('answers a row per community of the group and a total that adds them up, in fen', async () => {
    const d = await summary(range);
    const regions = await sql<{ id: number; title: string }>`
      SELECT r.id, r.title FROM regions r JOIN accounts a ON a.group_id = r.group_id WHERE a.username = 'leader' ORDER BY r.id`.execute(
      t.database.db,
    );
    expect(d.items.map((r) => r.rid).sort((a, b) => a - b)).toEqual(regions.rows.map((r) => Number(r.id)));
    expect(d.items.find((r) => r.title === '阳光花园')).toBeDefined();
    for (const k of [...MONEY]) {
      const sum = d.items.reduce((s, r) => s + toFen(r[k]), 0n);
      expect(d.totals[k]).toBe(fenToYuan(sum));
    }
    expect(d.totals.households).toBe(d.items.reduce((s, r) => s + r.households, 0));
    for (const r of [...d.items, d.totals]) {
      expect(r.paying_households + r.owing_households).toBe(r.households);
      for (const k of MONEY) expect(r[k]).toMatch(/^-?\d+\.\d{2}$/);
      for (const k of ['rate', 'household_rate', 'clear_rate'] as const) expect(r[k]).toMatch(/^\d+\.\d{2}$/);
      expect(toFen(r.received)).toBe(toFen(r.received_current) + toFen(r.recovered) + toFen(r.prepaid));
    }
    // ranked by 收费率, best first, equal rates sharing a rank
    const rates = d.items.map((r) => toFen(r.rate));
    expect(rates).toEqual([...rates].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(d.items[0]!.rank).toBe(1);
    d.items.forEach((r, i) => {
      if (i > 0) expect(r.rank).toBe(r.rate === d.items[i - 1]!.rate ? d.items[i - 1]!.rank : i + 1);
    });
    const sunny = d.items.find((r) => r.title === '阳光花园')!;
    expect(toFen(sunny.receivable)).toBeGreaterThan(0n);
    expect(sunny.households).toBeGreaterThan(0);
  });

  it("gives 阳光花园's row exactly what 阳光花园's own report gives its admin, for several ranges", async () => {
    const ranges = [
      range,
      { start_period: month, end_period: month },
      { start_period: addMonths(`${month}-01`, -2).slice(0, 7), end_period: month },
      { start_period: addMonths(`${month}-01`, -13).slice(0, 7), end_period: addMonths(`${month}-01`, -1).slice(0, 7) },
    ];
    for (const r of ranges) {
      const d = await summary(r);
      const own = await ownReport(admin, r);
      const row = d.items.find((x) => x.rid === 1)!;
      expect(row.title).toBe('阳光花园');
      for (const k of MONEY) expect([k, row[k]]).toEqual([k, own[k]]);
      expect(row.rate).toBe(own.rate);
      // the second community against its own admin's report too
      const own2 = await ownReport(admin2, r);
      const row2 = d.items.find((x) => x.rid === 2)!;
      for (const k of MONEY) expect([k, row2[k]]).toEqual([k, own2[k]]);
    }
  });

  it('counts the households of the range from the property bills: charged, and owing while any is unpaid', async () => {
    const d = await summary(range);
    const row = d.items.find((x) => x.rid === 1)!;
    const counts = await sql<{ households: number; owing: number }>`
      SELECT count(DISTINCT hid)::int AS households, count(DISTINCT hid) FILTER (WHERE status <> 'Y')::int AS owing
      FROM fee_bills WHERE rid = 1 AND cost_type = 'property' AND period BETWEEN ${range.start_period} AND ${range.end_period}`.execute(
      t.database.db,
    );
    expect(row.households).toBe(counts.rows[0]!.households);
    expect(row.owing_households).toBe(counts.rows[0]!.owing);
    expect(row.household_rate).toBe(fenToYuan(mulDivRoundHalfUp(BigInt(row.paying_households), 10_000n, BigInt(row.households))));
  });

  it('ranks by another figure when asked', async () => {
    const d = await summary({ ...range, rank_by: 'receivable' });
    const v = d.items.map((r) => toFen(r.receivable));
    expect(v).toEqual([...v].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  });

  it("follows a community's months in the trend, and the drill-down is its own report", async () => {
    const r = { start_period: addMonths(`${month}-01`, -2).slice(0, 7), end_period: month };
    const trend = await t.call('leaderfeetrend', { ...r, rid: 1 }, leader, 'group');
    expect(trend.return_code).toBe('SUCCESS');
    expect(trend.data.title).toBe('阳光花园');
    const items = trend.data.items as Array<{ month: string; receivable: string; received_current: string; rate: string }>;
    expect(items.map((i) => i.month)).toEqual([r.start_period, addMonths(`${month}-01`, -1).slice(0, 7), month]);
    for (const i of items) {
      const own = await ownReport(admin, { start_period: i.month, end_period: i.month });
      expect([i.month, i.receivable, i.received_current, i.rate]).toEqual([i.month, own.receivable, own.received_current, own.rate]);
    }
    const group = await t.call('leaderfeetrend', r, leader, 'group');
    expect(group.return_code).toBe('SUCCESS');
    expect(group.data.title).toBe('全集团');

    const detail = await t.call('leaderfeedetail', { ...r, rid: 1 }, leader, 'group');
    expect(detail.return_code).toBe('SUCCESS');
    const own = await t.call('propertypaycount', r, admin);
    expect(detail.data.items).toEqual(own.data.items);
    expect(detail.data.totals).toEqual(own.data.totals);
  });

  it('exports the rows and the total as a workbook in the call', async () => {
    const res = await t.call('leaderfeesummaryexport', range, leader, 'group');
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.filename).toBe(`集团收费汇总_${range.start_period}_${range.end_period}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const d = await summary(range);
    expect(ws.rowCount).toBe(d.items.length + 2);
    expect(ws.getRow(1).getCell(2).value).toBe('小区');
    expect(ws.getRow(ws.rowCount).getCell(2).value).toBe('集团合计');
    expect(ws.getRow(ws.rowCount).getCell(8).value).toBe(d.totals.receivable);
  });

  it('refuses the community side and a community that is not of the group', async () => {
    // a community account on the group endpoint, and the method on the community endpoint
    for (const token of [admin, admin2]) {
      for (const m of ['leaderfeesummary', 'leaderfeesummaryexport', 'leaderfeetrend', 'leaderfeedetail'])
        expect((await t.call(m, { ...range, rid: 1 }, token, 'group')).return_code).toBe('NO_PERMISSION');
    }
    const onCommunity = await t.call('leaderfeesummary', range, admin);
    expect(onCommunity.return_code).not.toBe('SUCCESS');
    const other = await t.call('leaderfeedetail', { ...range, rid: 999_999 }, leader, 'group');
    expect(other).toMatchObject({ return_code: 'FAIL', return_msg: '小区不存在或不属于本集团' });
    const otherTrend = await t.call('leaderfeetrend', { ...range, rid: 999_999 }, leader, 'group');
    expect(otherTrend.return_code).toBe('FAIL');
  });

  it('refuses an impossible period with a Chinese message', async () => {
    const bad = [
      { start_period: `${year}-13`, end_period: `${year}-12` },
      { start_period: `${year}-06`, end_period: `${year}-01` },
      { start_period: '2020-01', end_period: '2026-12' },
      { start_period: '', end_period: `${year}-12` },
      { ...range, rank_by: 'nothing' },
    ];
    for (const p of bad) {
      const res = await t.call('leaderfeesummary', p, leader, 'group');
      expect(res.return_code).toBe('FAIL');
      expect(res.return_msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const reversed = await t.call('leaderfeesummary', { start_period: `${year}-06`, end_period: `${year}-01` }, leader, 'group');
    expect(reversed.return_msg).toContain('开始账期不能晚于结束账期');
    const long = await t.call('leaderfeesummary', { start_period: '2020-01', end_period: '2026-12' }, leader, 'group');
    expect(long.return_msg).toContain('不能超过 36 个月');
  });
});
