import { RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BizError } from '../../http/errors.js';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { recordServiceRating } from './scores.js';

let s: TestServer;
let admin: string;
let admin2: string;
let stewardToken: string;
let tech: string;

const ok = (a: { return_code: string; return_msg: string }) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(a.return_code).toBe(RC.FAIL);
  expect(a.return_msg).toMatch(msg);
};
const accountId = async (username: string) =>
  (await s.database.db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
const roomsOf = async (building: string, rid = 1) =>
  (
    await s.database.db
      .selectFrom('rooms as r')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
      .select('r.id')
      .where('r.rid', '=', rid)
      .where('b.title', '=', building)
      .orderBy('r.id')
      .limit(5)
      .execute()
  ).map((r) => Number(r.id));

let financeId: number;
let profileId: number;
let demoProfileId: number;
let itemA: number;
let itemB: number;
let h1: number;
let h2: number;
let h3: number;

const month = (period: string, more: Record<string, unknown> = {}) => ({ period_type: 'month', period, ...more });
const rowOf = async (input: Record<string, unknown>, name = '郑会计') => {
  const res = await s.call('scorelist', input, stewardToken);
  ok(res);
  return res.data.items.find((r: { name: string }) => r.name === name);
};

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, stewardToken, tech] = await s.logins('admin', 'admin2', 'steward', 'tech');
  financeId = await accountId('finance');
  const a = await s.call('scoreitemadd', { name: '评分甲' }, admin);
  const b = await s.call('scoreitemadd', { name: '评分乙' }, admin);
  ok(a);
  ok(b);
  itemA = a.data.id;
  itemB = b.data.id;
  const bid = Number(
    (await s.database.db.selectFrom('buildings').select('id').where('rid', '=', 1).where('title', '=', '5号楼').executeTakeFirstOrThrow())
      .id,
  );
  const added = await s.call(
    'stewardadd',
    {
      account_id: financeId,
      post: 'BJ',
      areas: [{ bid }],
      items: [
        { item_id: itemA, weight: 60 },
        { item_id: itemB, weight: 40 },
      ],
    },
    admin,
  );
  ok(added);
  profileId = added.data.id;
  demoProfileId = (await s.call('stewardlist', { keyword: '钱管家' }, admin)).data.items[0].id;
  [h1, h2, h3] = (await roomsOf('5号楼')) as [number, number, number];
});
afterAll(() => s?.close());

const score = (hid: number, period: string, a: number, b: number, content = '') =>
  s.call(
    'scoreadd',
    {
      profile_id: profileId,
      hid,
      period,
      scores: [
        { item_id: itemA, score: a },
        { item_id: itemB, score: b },
      ],
      content,
    },
    stewardToken,
  );

describe('scoreadd', () => {
  it('stores a household’s scores and replaces them on a re-score', async () => {
    ok(await score(h1, '2025-01', 5, 4, '很满意'));
    ok(await score(h2, '2025-01', 3, 2, '楼道没人打扫'));
    ok(await score(h1, '2025-02', 4, 4));
    ok(await score(h3, '2025-03', 1, 5));
    const again = await score(h2, '2025-01', 3, 2);
    ok(again);
    expect(again.data).toEqual({ replaced: 2, added: 0 });
    expect(again.return_msg).toMatch(/覆盖/);
    const rows = await s.database.db
      .selectFrom('score_entries')
      .select(['score'])
      .where('rid', '=', 1)
      .where('account_id', '=', financeId)
      .where('period', 'like', '2025-%')
      .execute();
    expect(rows).toHaveLength(8);
  });

  it('refuses a future month, a house outside the profile, an item not on it, a disabled profile', async () => {
    refused(await score(h1, '2099-01', 5, 5), /不能为以后的月份评分/);
    const outside = (await roomsOf('1号楼'))[0]!;
    refused(await score(outside, '2025-01', 5, 5), /不在郑会计的负责范围内/);
    const other = await s.call('scoreitemadd', { name: '评分丙' }, admin);
    refused(
      await s.call(
        'scoreadd',
        { profile_id: profileId, hid: h1, period: '2025-01', scores: [{ item_id: other.data.id, score: 3 }] },
        stewardToken,
      ),
      /不在郑会计的档案中/,
    );
    refused(
      await s.call('scoreadd', { profile_id: profileId, hid: h1, period: '2025-01', scores: [{ item_id: itemA, score: 6 }] }, stewardToken),
      /./,
    );
    refused(
      await s.call('scoreadd', { profile_id: profileId, hid: h1, period: '2025-1', scores: [{ item_id: itemA, score: 3 }] }, stewardToken),
      /月份格式/,
    );
    refused(await s.call('scoreadd', { profile_id: profileId, hid: h1, period: '2025-01', scores: [] }, stewardToken), /至少一个/);
    await s.database.db.updateTable('steward_profiles').set({ status: 'N' }).where('id', '=', profileId).execute();
    refused(await score(h1, '2025-01', 5, 5), /档案已停用/);
    await s.database.db.updateTable('steward_profiles').set({ status: 'Y' }).where('id', '=', profileId).execute();
  });

  it('refuses another community’s profile and house, and roles other than the desk', async () => {
    refused(
      await s.call('scoreadd', { profile_id: profileId, hid: h1, period: '2025-01', scores: [{ item_id: itemA, score: 3 }] }, admin2),
      /管家档案不存在/,
    );
    const cuihu = (await roomsOf('1号楼', 2))[0]!;
    refused(await score(cuihu, '2025-01', 3, 3), /房屋不存在/);
    expect((await s.call('scorelist', month('2025-01'), tech)).return_code).toBe(RC.NO_PERMISSION);
    expect(
      (await s.call('scoreadd', { profile_id: profileId, hid: h1, period: '2025-01', scores: [{ item_id: itemA, score: 3 }] }, tech))
        .return_code,
    ).toBe(RC.NO_PERMISSION);
  });
});

describe('scorelist', () => {
  it('a month: item averages, the weighted total, households rated against served, low scores', async () => {
    const r = await rowOf(month('2025-01'));
    expect(r.items.map((i: { avg: string; weight: string }) => [i.weight, i.avg])).toEqual([
      ['60', '4.00'],
      ['40', '3.00'],
    ]);
    expect(r.weighted_total).toBe('3.60');
    expect(r.rated_households).toBe(2);
    expect(r.served_households).toBe(120);
    expect(r.coverage).toBe('1.7');
    expect(r.low_count).toBe(1);
    expect(r.overall).toBe('3.60');
    expect(r.rank).toBe(1);
  });

  it('a quarter and a year take every month of it', async () => {
    const q = await rowOf({ period_type: 'quarter', period: '2025-Q1' });
    expect(q.items.map((i: { avg: string }) => i.avg)).toEqual(['3.25', '3.75']);
    expect(q.weighted_total).toBe('3.45');
    expect(q.rated_households).toBe(3);
    expect(q.low_count).toBe(2);
    const y = await rowOf({ period_type: 'year', period: '2025' });
    expect(y.weighted_total).toBe('3.45');
    const res = await s.call('scorelist', { period_type: 'quarter', period: '2025-Q1' }, stewardToken);
    expect(res.data.period_label).toBe('2025年第1季度');
    expect(res.data.columns.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['评分甲', '评分乙']));
    const empty = await rowOf({ period_type: 'quarter', period: '2025-Q2' });
    expect(empty.weighted_total).toBe('');
    expect(empty.rank).toBeNull();
  });

  it('ranks by the overall figure, ties sharing a rank; filters by post', async () => {
    const house = (await roomsOf('1号楼'))[1]!;
    const items = (await s.call('stewardinfo', { id: demoProfileId }, stewardToken)).data.items as Array<{ item_id: number }>;
    ok(
      await s.call(
        'scoreadd',
        { profile_id: demoProfileId, hid: house, period: '2025-01', scores: items.map((i) => ({ item_id: i.item_id, score: 5 })) },
        stewardToken,
      ),
    );
    const res = (await s.call('scorelist', month('2025-01'), stewardToken)).data;
    expect(res.items.slice(0, 2).map((r: { name: string; rank: number }) => [r.name, r.rank])).toEqual([
      ['钱管家', 1],
      ['郑会计', 2],
    ]);
    expect(res.items.slice(2).every((r: { rank: number | null }) => r.rank === null)).toBe(true);
    const onlyBJ = (await s.call('scorelist', month('2025-01', { post: 'BJ' }), stewardToken)).data;
    expect(onlyBJ.items.map((r: { name: string }) => r.name)).toEqual(['郑会计']);
    refused(await s.call('scorelist', { period_type: 'quarter', period: '2025-Q5' }, stewardToken), /季度格式/);
    refused(await s.call('scorelist', { period_type: 'year', period: '25' }, stewardToken), /年份格式/);
  });

  it('repair and complaint ratings show in their columns, fold into the overall figure, and a re-rating replaces', async () => {
    const db = s.database.db;
    await recordServiceRating(db, {
      rid: 1,
      staffId: financeId,
      source: 'repair',
      sourceId: 9001,
      score: 5,
      ratedAt: new Date('2025-01-15T10:00:00+08:00'),
    });
    await recordServiceRating(db, {
      rid: 1,
      staffId: financeId,
      source: 'repair',
      sourceId: 9002,
      score: 3,
      ratedAt: new Date('2025-01-20T10:00:00+08:00'),
    });
    // 00:30 on February 1st in the business time zone is still January in UTC: it counts for February
    await recordServiceRating(db, {
      rid: 1,
      staffId: financeId,
      source: 'complaint',
      sourceId: 77,
      score: 4,
      ratedAt: new Date('2025-02-01T00:30:00+08:00'),
    });
    let jan = await rowOf(month('2025-01'));
    expect([jan.repair_avg, jan.repair_count, jan.complaint_count]).toEqual(['4.00', 2, 0]);
    // (3.60 × 2 households + 5 + 3) / (2 + 2)
    expect(jan.overall).toBe('3.80');
    const feb = await rowOf(month('2025-02'));
    expect([feb.complaint_avg, feb.complaint_count]).toEqual(['4.00', 1]);
    await recordServiceRating(db, {
      rid: 1,
      staffId: financeId,
      source: 'repair',
      sourceId: 9001,
      score: 1,
      ratedAt: new Date('2025-01-16T10:00:00+08:00'),
    });
    jan = await rowOf(month('2025-01'));
    expect([jan.repair_avg, jan.repair_count]).toEqual(['2.00', 2]);
    expect(jan.overall).toBe('2.80');
    // another community's ratings stay there
    expect(await db.selectFrom('service_ratings').select('id').where('rid', '=', 2).where('account_id', '=', financeId).execute()).toEqual(
      [],
    );
  });

  it('recordServiceRating refuses a score out of 1–5 and staff of another community', async () => {
    const db = s.database.db;
    const base = { rid: 1, staffId: financeId, source: 'repair' as const, sourceId: 9100, ratedAt: new Date() };
    await expect(recordServiceRating(db, { ...base, score: 0 })).rejects.toThrow(BizError);
    await expect(recordServiceRating(db, { ...base, score: 3.5 })).rejects.toThrow(/1 到 5/);
    await expect(recordServiceRating(db, { ...base, score: 4, staffId: await accountId('cashier2') })).rejects.toThrow(/不在当前小区/);
    expect(await db.selectFrom('service_ratings').select('id').where('source_id', '=', 9100).execute()).toEqual([]);
  });
});

describe('scoredetail and scoreexport', () => {
  it('lists the scores with house, masked owner, item, text and who entered them; filters', async () => {
    const res = await s.call('scoredetail', { period_type: 'quarter', period: '2025-Q1', profile_id: profileId, limit: 50 }, stewardToken);
    ok(res);
    expect(res.data.total).toBe(8);
    const row = res.data.items.find(
      (r: { hid: number; item_id: number; period: string }) => r.hid === h1 && r.item_id === itemA && r.period === '2025-01',
    );
    expect(row).toMatchObject({ score: 5, content: '很满意', item_name: '评分甲', staff_name: '郑会计', entered_by: '钱管家' });
    expect(row.address).toMatch(/^5号楼/);
    const low = await s.call(
      'scoredetail',
      { period_type: 'quarter', period: '2025-Q1', profile_id: profileId, low_only: true },
      stewardToken,
    );
    expect(low.data.items.map((r: { score: number }) => r.score).sort()).toEqual([1, 2]);
    const byItem = await s.call(
      'scoredetail',
      { period_type: 'month', period: '2025-01', profile_id: profileId, item_id: itemB },
      stewardToken,
    );
    expect(byItem.data.total).toBe(2);
    refused(await s.call('scoredetail', { period_type: 'month', period: '2025-01', profile_id: profileId }, admin2), /管家档案不存在/);
    expect((await s.call('scoredetail', month('2025-01'), tech)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('masks owners’ names', async () => {
    const { maskName } = await import('./scores.js');
    expect([maskName('王小明'), maskName('李四'), maskName('欧阳娜娜'), maskName('')]).toEqual(['王*明', '李*', '欧**娜', '']);
  });

  it('exports the summary as a workbook', async () => {
    const file = await s.exportFile('scoreexport', month('2025-01'), stewardToken);
    ok(file);
    expect(file.data.filename).toBe('管家评分_2025-01.xlsx');
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(expect.arrayContaining(['排名', '姓名', '评分甲', '加权总分', '维修评价', '综合得分']));
    const r = sheet.rows.find((x) => x.values['姓名'] === '郑会计')!.values;
    expect([r['排名'], r['加权总分'], r['评分户数'], r['服务户数'], r['差评数']]).toEqual(['2', '3.60', '2', '120', '1']);
    expect((await s.call('scoreexport', month('2025-01'), tech)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('the demo', () => {
  it('has profiles and three months of scores in 阳光花园, ranked this month', async () => {
    const list = (await s.call('stewardlist', { limit: 50 }, stewardToken)).data.items as Array<{
      name: string;
      post_ch: string;
      areas_text: string;
    }>;
    expect(list.find((r) => r.name === '钱管家')).toMatchObject({ post_ch: '管家', areas_text: '1号楼、2号楼' });
    const res = (await s.call('scorelist', { period_type: 'quarter', period: currentQuarter() }, stewardToken)).data;
    expect(res.items.filter((r: { rank: number | null }) => r.rank !== null).length).toBeGreaterThanOrEqual(3);
  });
});

function currentQuarter(): string {
  const d = new Date(Date.now() + 8 * 3600_000);
  return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
}
