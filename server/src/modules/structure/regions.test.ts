import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';
import { readXlsx } from '../../lib/excel.js';

let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let leader: string;
const group = (method: string, payload: Record<string, unknown>, token: string) => s.call(method, payload, token, 'group');

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, steward, leader] = (await Promise.all(['admin', 'admin2', 'steward', 'leader'].map((u) => s.login(u)))) as [
    string,
    string,
    string,
    string,
  ];
});
afterAll(() => s.close());

describe('regioninfo / regionedit', () => {
  it('answers the session community with days left', async () => {
    const res = await s.call('regioninfo', {}, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data).toMatchObject({ id: 1, title: '阳光花园', phone: '021-58881234', area: '128000.00' });
    expect(res.data.days_left).toBeGreaterThan(290);
    const other = await s.call('regioninfo', {}, admin2);
    expect(other.data).toMatchObject({ id: 2, title: '翠湖苑' });
    expect(other.data.days_left).toBe(20);
  });

  it('lets the admin edit its own community only', async () => {
    const res = await s.call(
      'regionedit',
      { title: '阳光花园', address: '上海市浦东新区张杨路 1290 号', phone: '021-58880000', area: '130000.5', copyright: '© 阳光' },
      admin,
    );
    expect(res.return_code).toBe('SUCCESS');
    expect(res.return_msg).toBe('保存成功');
    expect(res.data).toMatchObject({ id: 1, address: '上海市浦东新区张杨路 1290 号', area: '130000.50' });
    // a payload rid never moves the write to another community
    await s.call('regionedit', { id: 1, rid: 1, title: '翠湖苑新', address: 'x' }, admin2);
    const one = await s.call('regioninfo', {}, admin);
    expect(one.data.title).toBe('阳光花园');
    const two = await s.call('regioninfo', {}, admin2);
    expect(two.data.title).toBe('翠湖苑新');
  });

  it('refuses roles without access and bad payloads', async () => {
    expect((await s.call('regionedit', { title: 'x' }, steward)).return_code).toBe('NO_PERMISSION');
    const noTitle = await s.call('regionedit', { title: '' }, admin);
    expect(noTitle.return_code).toBe('FAIL');
    expect(noTitle.return_msg).toContain('请输入小区名称');
    const badArea = await s.call('regionedit', { title: 'a', area: '12.345' }, admin);
    expect(badArea.return_msg).toMatch(/area.*面积格式不正确/);
    expect((await s.call('regionedit', { title: '老城小区' }, admin)).return_msg).toBe('小区名称“老城小区”已存在');
    const badUrl = await s.call('regionedit', { title: 'a', logo_url: 'ftp://x' }, admin);
    expect(badUrl.return_msg).toMatch(/logo_url/);
  });
});

describe('leader communities', () => {
  it('lists the group communities with end dates and counts, filtered by title', async () => {
    const res = await group('leaderregionlist', {}, leader);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.total).toBeGreaterThanOrEqual(3);
    const first = res.data.items[0];
    expect(first).toMatchObject({ id: 1, room_count: 722, building_count: 6, price_per_year: '3600.00', status: 'Y' });
    const filtered = await group('leaderregionlist', { title: '老城' }, leader);
    expect(filtered.data.items.map((r: { id: number }) => r.id)).toEqual([3]);
    expect(filtered.data.items[0].days_left).toBe(-5);
    const ids = res.data.items.map((r: { id: number }) => r.id);
    const paged = await group('leaderregionlist', { limit: 2, page: 2, sort: 'desc' }, leader);
    expect(paged.data.items.map((r: { id: number }) => r.id)).toEqual([...ids].reverse().slice(2, 4));
  });

  it('filters by place, state and where the service period stands, and exports what it keeps', async () => {
    type Row = { id: number; title: string; address: string; status: string; days_left: number };
    const all = (await group('leaderregionlist', { limit: 200 }, leader)).data.items as Row[];
    const ids = async (f: Record<string, unknown>) =>
      ((await group('leaderregionlist', { limit: 200, ...f }, leader)).data.items as Row[]).map((r) => r.id);
    expect(await ids({ expiry: 'expired' })).toEqual(all.filter((r) => r.days_left < 0).map((r) => r.id));
    expect(await ids({ expiry: 'soon' })).toEqual(all.filter((r) => r.days_left >= 0 && r.days_left < 30).map((r) => r.id));
    expect(await ids({ expiry: 'ok' })).toEqual(all.filter((r) => r.days_left >= 30).map((r) => r.id));
    expect(await ids({ expiry: 'expired' })).toContain(3);
    expect(await ids({ status: 'Y' })).toEqual(all.filter((r) => r.status === 'Y').map((r) => r.id));
    expect(await ids({ status: 'N' })).toEqual(all.filter((r) => r.status === 'N').map((r) => r.id));
    // a part of the address finds its community
    const placed = all.find((r) => r.address.length >= 4)!;
    expect(await ids({ title: placed.address.slice(-4) })).toContain(placed.id);

    // the export: the same communities, one row each, with the list's figures
    const file = await group('leaderregionexport', { expiry: 'expired' }, leader);
    expect(file.return_code, file.return_msg).toBe('SUCCESS');
    expect(file.data.filename).toMatch(/^小区列表_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers.slice(0, 2)).toEqual(['ID', '小区名称']);
    expect(sheet.headers).toContain('剩余天数');
    expect(sheet.rows.map((r) => Number(r.values.ID))).toEqual(await ids({ expiry: 'expired' }));
    const whole = await readXlsx((await group('leaderregionexport', {}, leader)).data.content_base64);
    expect(whole.rows).toHaveLength(all.length);

    // a bad filter in Chinese; a community account is not the group
    const bad = await group('leaderregionlist', { expiry: 'later' }, leader);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toContain('到期状态');
    expect((await group('leaderregionexport', {}, admin)).return_code).toBe('NO_PERMISSION');
  });

  it('is group-side only', async () => {
    expect((await group('leaderregionlist', {}, admin)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('leaderregionlist', {}, admin)).return_msg).toBe('未知的操作');
  });

  it('adds a community with the default room categories, refuses a duplicate name', async () => {
    const res = await group(
      'leaderregionadd',
      { title: '星河湾', address: '广州市番禺区', phone: '020-12345678', area: '56000', end_time: '2027-12-31', price_per_year: '1800' },
      leader,
    );
    expect(res.return_code).toBe('SUCCESS');
    const id = res.data.id;
    const cats = await s.database.db.selectFrom('room_categories').select('title').where('rid', '=', id).orderBy('sort').execute();
    expect(cats.map((c) => c.title)).toEqual(['住宅', '商铺', '写字楼', '车位', '储藏室']);
    const dup = await group('leaderregionadd', { title: '星河湾', end_time: '2027-12-31', price_per_year: '1800' }, leader);
    expect(dup.return_msg).toBe('小区名称“星河湾”已存在');
    const bad = await group('leaderregionadd', { title: '新', end_time: '2027/12/31', price_per_year: '1800' }, leader);
    expect(bad.return_msg).toMatch(/end_time/);
    const badMoney = await group('leaderregionadd', { title: '新', end_time: '2027-12-31', price_per_year: '-1' }, leader);
    expect(badMoney.return_msg).toMatch(/price_per_year/);
  });

  it('keeps a community’s map point and service QR code, refusing a point that is not one', async () => {
    const base = { title: '云栖里', phone: '0571-8888666', end_time: '2027-12-31', price_per_year: '1800' };
    const made = await group('leaderregionadd', { ...base, map_point: '120.15507,30.274084', service_qr: '/uploads/qr.png' }, leader);
    expect(made.return_code, made.return_msg).toBe('SUCCESS');
    const list = await group('leaderregionlist', { title: '云栖里' }, leader);
    expect(list.data.items[0]).toMatchObject({ phone: '0571-8888666', map_point: '120.15507,30.274084', service_qr: '/uploads/qr.png' });
    // the community's own 系统设置 reads the same point
    const row = await s.database.db
      .selectFrom('regions')
      .select(['map_point', 'service_qr'])
      .where('id', '=', made.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ map_point: '120.15507,30.274084', service_qr: '/uploads/qr.png' });
    for (const map_point of ['30.27,120.15,1', '200.1,30.2', '东经120度']) {
      const bad = await group('leaderregionedit', { id: made.data.id, ...base, map_point }, leader);
      expect(bad.return_msg).toBe('map_point：地图坐标格式应为“经度,纬度”，如 116.397428,39.90923');
    }
    const qr = await group('leaderregionedit', { id: made.data.id, ...base, service_qr: 'javascript:alert(1)' }, leader);
    expect(qr.return_code).not.toBe('SUCCESS');
    expect(await s.database.db.selectFrom('regions').select('map_point').where('id', '=', made.data.id).executeTakeFirstOrThrow()).toEqual({
      map_point: '120.15507,30.274084',
    });
  });

  it('edits end date and price, logging the change', async () => {
    const res = await group('leaderregionedit', { id: 3, title: '老城小区', end_time: '2027-06-30', price_per_year: '1500.00' }, leader);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data).toMatchObject({ id: 3, end_time: '2027-06-30', price_per_year: '1500.00' });
    const log = await group('regiondelaylog', { rid: 3 }, leader);
    expect(log.data.items[0]).toMatchObject({
      rid: 3,
      kind: 'manual',
      new_end: '2027-06-30',
      operator: 'leader',
      region_title: '老城小区',
    });
    const missing = await group('leaderregionedit', { id: 9999, title: 'x', end_time: '2027-06-30', price_per_year: '1' }, leader);
    expect(missing.return_msg).toBe('小区不存在');
  });

  it('extends by months and writes the renewal log', async () => {
    const before = await group('leaderregionlist', { title: '翠湖苑' }, leader);
    const res = await group('leaderregiondelay', { rid: 2, months: 12, remark: '年度续约' }, leader);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.return_msg).toContain('延期成功');
    expect(res.data.end_time > before.data.items[0].end_time).toBe(true);
    const log = await group('regiondelaylog', { rid: 2 }, leader);
    expect(log.data.items[0]).toMatchObject({ kind: 'manual', kind_ch: '手动延期', ref: '年度续约' });
    expect((await group('leaderregiondelay', { rid: 2, months: 0 }, leader)).return_msg).toContain('延期月数至少为1');
    expect((await group('leaderregiondelay', { rid: 99, months: 1 }, leader)).return_msg).toBe('小区不存在');
  });

  it('extends several communities at once, all or none, and sums the renewals per month', async () => {
    const year = Number(today().slice(0, 4));
    const monthly = async () => (await group('regiondelaymonthly', { year }, leader)).data;
    const ends = async () => {
      const list = (await group('leaderregionlist', { limit: 200 }, leader)).data.items as Array<{ id: number; end_time: string }>;
      return new Map(list.map((r) => [r.id, r.end_time]));
    };
    const before = await ends();
    const sumsBefore = await monthly();
    // one community not of the group: nothing is extended
    const refused = await group('leaderregiondelaybatch', { rids: [1, 2, 9999], months: 6 }, leader);
    expect(refused.return_msg).toBe('所选小区不存在或不属于本集团');
    expect(await ends()).toEqual(before);
    expect((await group('leaderregiondelaybatch', { rids: [], months: 6 }, leader)).return_msg).toBe('rids：请选择小区');
    const res = await group('leaderregiondelaybatch', { rids: [2, 1, 2], months: 6, remark: '集团统一续约' }, leader);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.return_msg).toBe('已为 2 个小区延期 6 个月');
    expect(res.data.items.map((i: { rid: number }) => i.rid)).toEqual([1, 2]);
    const after = await ends();
    for (const rid of [1, 2]) expect(after.get(rid)! > before.get(rid)!).toBe(true);
    const log = (await group('regiondelaylog', { limit: 2 }, leader)).data.items as Array<{ ref: string; rid: number }>;
    expect(log.map((l) => l.ref)).toEqual(['集团统一续约', '集团统一续约']);
    // this month's row and the year's totals grew by the two renewals and their days
    const sums = await monthly();
    expect(sums.items).toHaveLength(12);
    const month = today().slice(0, 7);
    const row = (m: typeof sums) => m.items.find((i: { month: string }) => i.month === month);
    expect(row(sums).count).toBe(row(sumsBefore).count + 2);
    expect(sums.totals.count).toBe(sumsBefore.totals.count + 2);
    expect(sums.totals.days).toBe(sums.items.reduce((n: number, i: { days: number }) => n + i.days, 0));
    expect(sums.totals.days).toBeGreaterThan(sumsBefore.totals.days + 300);
    expect((await group('leaderregiondelaybatch', { rids: [1], months: 1 }, admin)).return_code).toBe('NO_PERMISSION');
  });

  it('shows a community only its own renewal log', async () => {
    const mine = await s.call('regiondelaylog', { rid: 2 }, admin);
    expect(mine.return_code).toBe('SUCCESS');
    expect(mine.data.items.every((l: { rid: number }) => l.rid === 1)).toBe(true);
    const two = await s.call('regiondelaylog', {}, admin2);
    expect(two.data.items.length).toBeGreaterThan(0);
    expect(two.data.items.every((l: { rid: number }) => l.rid === 2)).toBe(true);
    expect((await s.call('regiondelaylog', {}, steward)).return_code).toBe('NO_PERMISSION');
  });
});
