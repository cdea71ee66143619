import { addDays, asset, assetCategory, assetNetValue, isCycleDay, maintainPlan, maintainStandard } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { createAssetFor } from './ledger.js';
import { MAINTAIN_TASKS_JOB } from './maintainJobs.js';

let s: TestServer;
let admin: string;
let admin2: string;
let tech: string;
let guard: string;
let techId: number;

const db = () => s.database.db;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const refused = (res: { return_code: string; return_msg: string }, msg: string) => {
  expect(res.return_code).not.toBe('SUCCESS');
  expect(res.return_msg).toContain(msg);
};

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, tech, guard] = await s.logins('admin', 'admin2', 'tech', 'guard');
  techId = (await db().selectFrom('accounts').select('id').where('username', '=', 'tech').executeTakeFirstOrThrow()).id;
});
afterAll(() => s.close());

const cateId = async (code: string, rid = 1) =>
  Number(
    (await db().selectFrom('asset_categories').select('id').where('rid', '=', rid).where('code', '=', code).executeTakeFirstOrThrow()).id,
  );

describeResource(assetCategory, {
  server: () => s,
  sample: { name: '测试分类', code: 'TEST-CATE', importance: 'A', unit: '套' },
  edit: { name: '测试分类二', unit: '个' },
  filters: { name: '测试分类', code: 'TEST-CATE', importance: 'A' },
  writer: 'tech',
  deniedWriter: 'guard',
  unique: ['code'],
});

describeResource(asset, {
  server: () => s,
  sample: async () => ({
    name: '测试水泵',
    code: 'TEST-PUMP-1',
    category_id: await cateId('WATER-P'),
    brand: '格兰富',
    model: 'CR10',
    location: '二号泵房',
    first_use: '2025-01-01',
    warranty_end: '2027-01-01',
    service_years: 10,
    importance: 'A',
    state: 'U',
    price: '12000.50',
    staff_ids: [techId],
  }),
  edit: { name: '测试水泵二', brand: '威乐', price: '13000.00' },
  filters: { keyword: 'TEST-PUMP', importance: 'A', state: 'U' },
  writer: 'tech',
  deniedWriter: 'guard',
  unique: ['code'],
});

describeResource(maintainStandard, {
  server: () => s,
  sample: { name: '测试标准', items: ['外观完好', '运行无异响'] },
  edit: { name: '测试标准二', items: ['外观完好'] },
  filters: { name: '测试标准' },
  writer: 'tech',
  deniedWriter: 'guard',
  unique: ['name'],
});

describeResource(maintainPlan, {
  server: () => s,
  sample: async () => {
    const standard = await db().selectFrom('maintain_standards').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const a = await db()
      .selectFrom('assets')
      .select('id')
      .where('rid', '=', 1)
      .where('state', '=', 'U')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // a day of the month that is never today: no task made, so the plan can be deleted
    const dom = (new Date(`${today()}T00:00:00Z`).getUTCDate() % 28) + 1;
    return {
      name: '测试计划',
      standard_id: Number(standard.id),
      asset_ids: [Number(a.id)],
      staff_ids: [techId],
      cycle: 'M',
      cycle_days: [dom],
      start_date: addDays(today(), 1),
      enabled: 'Y',
    };
  },
  edit: { name: '测试计划二', enabled: 'N' },
  filters: { name: '测试计划', cycle: 'M', enabled: 'Y' },
  writer: 'tech',
  deniedWriter: 'guard',
  unique: ['name'],
});

describe('net value', () => {
  it('is straight-line by whole months, the price before first use or without a life, zero when scrapped or used up', () => {
    expect(assetNetValue('1200.00', 10, '2020-01-15', 'U', '2025-01-15')).toBe('600.00');
    expect(assetNetValue('1200.00', 10, '2020-01-15', 'U', '2025-01-14')).toBe('610.00');
    expect(assetNetValue('100.00', 3, '2025-01-01', 'U', '2025-02-01')).toBe('97.22');
    expect(assetNetValue('1200.00', 0, '2020-01-15', 'U', '2025-01-15')).toBe('1200.00');
    expect(assetNetValue('1200.00', 10, null, 'U', '2025-01-15')).toBe('1200.00');
    expect(assetNetValue('1200.00', 10, '2026-01-01', 'U', '2025-01-15')).toBe('1200.00');
    expect(assetNetValue('1200.00', 1, '2020-01-15', 'U', '2025-01-15')).toBe('0.00');
    expect(assetNetValue('1200.00', 10, '2020-01-15', 'X', '2025-01-15')).toBe('0.00');
  });
  it('cycle days: days of the month, ISO weekdays, every N days from the start', () => {
    expect(isCycleDay('M', [1, 15], 1, '2026-01-01', '2026-03-15')).toBe(true);
    expect(isCycleDay('M', [1, 15], 1, '2026-01-01', '2026-03-16')).toBe(false);
    expect(isCycleDay('W', [1], 1, '2026-01-01', '2026-11-30')).toBe(true); // a Monday
    expect(isCycleDay('W', [7], 1, '2026-01-01', '2026-11-29')).toBe(true); // a Sunday
    expect(isCycleDay('N', [], 7, '2026-11-01', '2026-11-15')).toBe(true);
    expect(isCycleDay('N', [], 7, '2026-11-01', '2026-11-16')).toBe(false);
    expect(isCycleDay('N', [], 7, '2026-11-01', '2026-10-25')).toBe(false);
  });
});

describe('the ledger', () => {
  it('the demo fills both communities: categories, assets in every state, a plan with tasks', async () => {
    for (const token of [admin, admin2]) {
      const list = (await s.call('assetlist', { limit: 200 }, token)).data;
      expect(list.total).toBeGreaterThanOrEqual(20);
      expect(new Set(list.items.map((a: { state: string }) => a.state))).toEqual(new Set(['U', 'S', 'I', 'X']));
      const tasks = (await s.call('maintaintasklist', {}, token)).data;
      expect(tasks.counts.Y).toBeGreaterThan(0);
      expect(tasks.counts.F).toBe(1);
      expect(tasks.counts.O).toBeGreaterThan(0);
    }
  });

  it('lists a category with its subtree, answers net value and warranty days', async () => {
    const elevators = (await s.call('assetlist', { category_id: await cateId('ELEVATOR'), limit: 50 }, tech)).data;
    expect(elevators.items.map((a: { category_name: string }) => a.category_name).sort()).toEqual(['客梯', '客梯', '客梯', '货梯']);
    const a = elevators.items[0];
    expect(a.net_value).toBe(assetNetValue(a.price, a.service_years, a.first_use, a.state, today()));
    expect(typeof a.warranty_days).toBe('number');
    const scrapped = (await s.call('assetlist', { state: 'X' }, tech)).data.items;
    expect(scrapped.every((r: { net_value: string }) => r.net_value === '0.00')).toBe(true);
    const over = (await s.call('assetlist', { warranty: 'over', limit: 100 }, tech)).data.items as Array<{ warranty_days: number }>;
    expect(over.length).toBeGreaterThan(0);
    expect(over.every((r) => r.warranty_days < 0)).toBe(true);
    const soon = (await s.call('assetlist', { warranty: 'soon', limit: 100 }, tech)).data.items as Array<{ warranty_days: number }>;
    expect(soon.length).toBeGreaterThan(0);
    expect(soon.every((r) => r.warranty_days >= 0 && r.warranty_days <= 30)).toBe(true);
  });

  it('refuses deleting a category with children or assets, and a parent below itself', async () => {
    refused(await s.call('assetcatedel', { id: await cateId('ELEVATOR') }, tech), '该分类下还有 2 个下级分类');
    refused(await s.call('assetcatedel', { id: await cateId('ELEV-P') }, tech), '该分类下还有 3 台设备');
    refused(
      await s.call(
        'assetcateedit',
        { id: await cateId('ELEVATOR'), name: '电梯', code: 'ELEVATOR', parent_id: await cateId('ELEV-P'), importance: 'A', unit: '部' },
        tech,
      ),
      '上级分类不能是自己的下级分类',
    );
    refused(
      await s.call('assetcateadd', { name: '越界', code: 'X-1', parent_id: await cateId('ELEVATOR', 2) }, tech),
      '所选设备分类不存在',
    );
  });

  it('state changes and moves are logged; a scrapped asset stays scrapped', async () => {
    const add = await s.call(
      'assetadd',
      { name: '测试摄像机', code: 'TEST-CAM-1', category_id: await cateId('CCTV-C'), importance: 'B', location: '东门', price: '999.99' },
      tech,
    );
    ok(add);
    const id = add.data.id as number;
    ok(await s.call('assetmove', { id, location: '西门', remark: '调整覆盖' }, tech));
    refused(await s.call('assetmove', { id, location: '西门' }, tech), '新位置与当前位置相同');
    ok(await s.call('assetstate', { id, state: 'S', remark: '镜头损坏' }, tech));
    refused(await s.call('assetstate', { id, state: 'S' }, tech), '设备已是「停用」状态');
    const scrap = await s.call('assetstate', { id, state: 'X', remark: '无法修复' }, tech);
    ok(scrap);
    expect(scrap.data).toMatchObject({ state: 'X', state_ch: '报废', location: '西门', net_value: '0.00' });
    expect(scrap.data.logs.map((l: { action: string }) => l.action)).toEqual(['state', 'state', 'move', 'add']);
    expect(scrap.data.logs[2]).toMatchObject({ from_location: '东门', to_location: '西门', remark: '调整覆盖', operator: '孙师傅' });
    refused(await s.call('assetstate', { id, state: 'U' }, tech), '设备已报废，不能再改变状态');
    refused(await s.call('assetmove', { id, location: '仓库' }, tech), '设备已报废，不能移动');
    // an edit keeps the place and state: they change only through their own methods
    ok(
      await s.call(
        'assetedit',
        { id, name: '测试摄像机二', code: 'TEST-CAM-1', category_id: await cateId('CCTV-C'), importance: 'C' },
        tech,
      ),
    );
    const info = (await s.call('assetinfo', { id }, tech)).data;
    expect(info).toMatchObject({ name: '测试摄像机二', state: 'X', location: '西门' });
    // another community's admin sees nothing of it
    refused(await s.call('assetstate', { id, state: 'U' }, admin2), '设备不存在');
    refused(await s.call('assetmove', { id, location: '别处' }, admin2), '设备不存在');
    refused(await s.call('assetlog', { id }, admin2), '设备不存在');
    refused(await s.call('assetlabels', { ids: [id] }, admin2), '设备不存在');
    expect((await s.call('assetstate', { id, state: 'U' }, guard)).return_code).not.toBe('SUCCESS');
  });

  it('a new asset cannot start scrapped; staff must hold the ledger role; dates in order', async () => {
    const base = { name: '测试', code: 'TEST-BAD-1', category_id: await cateId('CCTV-C'), importance: 'B' };
    refused(await s.call('assetadd', { ...base, state: 'X' }, tech), '新登记的设备不能是报废');
    const guardId = (await db().selectFrom('accounts').select('id').where('username', '=', 'guard').executeTakeFirstOrThrow()).id;
    refused(await s.call('assetadd', { ...base, staff_ids: [guardId] }, tech), '没有设备台账权限');
    refused(
      await s.call('assetadd', { ...base, first_use: '2026-01-01', warranty_end: '2025-01-01' }, tech),
      '保修截止日期不能早于首次启用日期',
    );
    refused(await s.call('assetadd', { ...base, category_id: await cateId('CCTV-C', 2) }, tech), '所选设备分类不存在');
    refused(await s.call('assetadd', { ...base, price: '-1' }, tech), '');
  });

  it('labels: one or a batch, with the community name; the export is queued', async () => {
    const ids = (await s.call('assetlist', { limit: 3 }, tech)).data.items.map((a: { id: number }) => a.id);
    const labels = await s.call('assetlabels', { ids }, tech);
    ok(labels);
    expect(labels.data.community).toBe('阳光花园');
    expect(labels.data.items).toHaveLength(3);
    ok(await s.call('assetexport', { state: 'U' }, tech));
  });

  it('createAssetFor registers a device asset in a built-in category, logged, and refuses a taken code', async () => {
    const id = await db()
      .transaction()
      .execute((trx) => createAssetFor(trx, 2, { title: '东门门禁', code: 'DEV-ACC-01', categoryCode: 'ACCESS', location: '东门' }));
    const row = await db().selectFrom('assets').selectAll().where('rid', '=', 2).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '东门门禁', state: 'U', location: '东门', importance: 'A' });
    const logs = await db().selectFrom('asset_logs').selectAll().where('rid', '=', 2).where('asset_id', '=', id).execute();
    expect(logs).toHaveLength(1);
    await expect(
      db()
        .transaction()
        .execute((trx) => createAssetFor(trx, 2, { title: '重复', code: 'DEV-ACC-01', categoryCode: 'ACCESS', location: '' })),
    ).rejects.toThrow('设备编码 DEV-ACC-01 已存在');
    // a community without the built-in categories gets them
    const other = await db().selectFrom('regions').select('id').where('id', 'not in', [1, 2]).orderBy('id').executeTakeFirstOrThrow();
    const pile = await db()
      .transaction()
      .execute((trx) => createAssetFor(trx, other.id, { title: '一号桩', code: 'PILE-1', categoryCode: 'PILE', location: 'B区' }));
    expect(pile).toBeGreaterThan(0);
  });

  it('puts every device in the ledger: the demo doors and gates, a door or a lane added, an asset registered first', async () => {
    const unlinked = await db().selectFrom('devices').select('id').where('rid', 'in', [1, 2]).where('asset_id', 'is', null).execute();
    expect(unlinked).toEqual([]);
    const [access, parking] = await s.logins('access', 'parking');
    const assetOf = async (deviceId: number) => {
      const d = await db()
        .selectFrom('devices')
        .select('asset_id')
        .where('rid', '=', 1)
        .where('id', '=', deviceId)
        .executeTakeFirstOrThrow();
      return db()
        .selectFrom('assets as a')
        .innerJoin('asset_categories as c', (j) => j.onRef('c.rid', '=', 'a.rid').onRef('c.id', '=', 'a.category_id'))
        .select(['a.id', 'a.name', 'a.code', 'a.location', 'a.state', 'c.code as category'])
        .where('a.rid', '=', 1)
        .where('a.id', '=', Number(d.asset_id))
        .executeTakeFirstOrThrow();
    };
    const door = await s.call<{ id: number }>(
      'accessdeviceadd',
      { code: 'LEDGER-D1', title: '台账门禁', location: 'community', address: '西门' },
      access,
    );
    expect(await assetOf(door.data.id)).toMatchObject({
      name: '台账门禁',
      code: 'LEDGER-D1',
      location: '西门',
      state: 'U',
      category: 'ACCESS',
    });
    const booth = await db().selectFrom('parking_booths').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const lane = await s.call<{ id: number }>(
      'parkinglaneadd',
      { booth_id: Number(booth.id), code: 'LEDGER-G1', title: '台账道闸', direction: 'I' },
      parking,
    );
    const gateAsset = await assetOf(lane.data.id);
    expect(gateAsset).toMatchObject({ name: '台账道闸', code: 'LEDGER-G1', category: 'GATE' });
    expect(gateAsset.location).toMatch(/ 地库岗亭$/);
    // registered in the ledger first, then added as a device of the same code: the one asset
    const first = await s.call<{ id: number }>(
      'assetadd',
      { name: '先登记的门禁', code: 'LEDGER-D2', category_id: await cateId('ACCESS'), importance: 'A', state: 'U', staff_ids: [techId] },
      admin,
    );
    expect(first.return_code).toBe('SUCCESS');
    const later = await s.call<{ id: number }>(
      'accessdeviceadd',
      { code: 'LEDGER-D2', title: '后接入的门禁', location: 'community' },
      access,
    );
    expect((await assetOf(later.data.id)).id).toBe(first.data.id);
  });
});

describe('maintenance', () => {
  let planId: number;
  let assetIds: number[];
  const checks = ['外观', '运转', '润滑'];

  it('a plan due today makes its tasks at once, one per in-use asset; the job makes no second', async () => {
    const std = await s.call('maintainstandardadd', { name: '水泵保养', items: checks }, tech);
    ok(std);
    const pumps = (await s.call('assetlist', { keyword: '水泵', limit: 20 }, tech)).data.items as Array<{ id: number; state: string }>;
    assetIds = pumps.filter((p) => p.state !== 'X').map((p) => p.id);
    expect(assetIds.length).toBe(2); // one in use, one idle: only the one in use gets tasks
    const add = await s.call(
      'maintainplanadd',
      {
        name: '水泵每日检',
        standard_id: std.data.id,
        asset_ids: assetIds,
        staff_ids: [techId],
        cycle: 'N',
        every_days: 1,
        start_date: today(),
      },
      tech,
    );
    ok(add);
    planId = add.data.id;
    const list = async () => (await s.call('maintaintasklist', { plan_id: planId, limit: 50 }, tech)).data;
    expect((await list()).total).toBe(1);
    await enqueueJob(db(), { rid: null, kind: MAINTAIN_TASKS_JOB, payload: {}, createdBy: null });
    await s.runJobs();
    expect((await list()).total).toBe(1);
    // three days without a run: the job makes up the days missed, once each
    await db()
      .updateTable('maintain_plans')
      .set({ generated_until: addDays(today(), -3), start_date: addDays(today(), -2) })
      .where('id', '=', planId)
      .execute();
    await enqueueJob(db(), { rid: null, kind: MAINTAIN_TASKS_JOB, payload: {}, createdBy: null });
    await s.runJobs();
    const after = await list();
    expect(after.items.map((t: { due_on: string }) => t.due_on).sort()).toEqual([addDays(today(), -2), addDays(today(), -1), today()]);
    expect(after.counts).toMatchObject({ all: 3, O: 2, P: 1 });
    // the overdue ones are on the to-do list
    const backlog = await db()
      .selectFrom('backlog')
      .select(['source_id', 'title'])
      .where('rid', '=', 1)
      .where('kind', '=', 'maintain')
      .execute();
    const overdueIds = after.items.filter((t: { status: string }) => t.status === 'O').map((t: { id: number }) => String(t.id));
    expect(backlog.map((b) => b.source_id)).toEqual(expect.arrayContaining(overdueIds));
    // generating by hand now makes nothing more
    const gen = await s.call('maintaintaskgenerate', {}, tech);
    ok(gen);
    expect(gen.data.tasks).toBe(0);
  });

  it('a task done with every check passed; a failed check opens an internal work order in the same call', async () => {
    const tasks = (await s.call('maintaintasklist', { plan_id: planId, sort: 'asc' }, tech)).data.items as Array<{
      id: number;
      status: string;
    }>;
    const [first, second, third] = tasks;
    refused(await s.call('maintaintaskdone', { id: first!.id, results: [{ passed: true }] }, tech), '请逐项填写检查结果（共 3 项）');
    refused(
      await s.call('maintaintaskdone', { id: first!.id, results: checks.map((_, i) => ({ passed: i !== 1 })) }, tech),
      '不合格的检查项「运转」请填写说明',
    );
    refused(await s.call('maintaintaskdone', { id: first!.id, results: checks.map(() => ({ passed: true })) }, admin2), '维保任务不存在');
    refused(await s.call('maintaintaskdone', { id: first!.id, results: checks.map(() => ({ passed: true })) }, guard), '');
    const done = await s.call('maintaintaskdone', { id: first!.id, results: checks.map(() => ({ passed: true })), notes: '正常' }, tech);
    ok(done);
    expect(done.data).toMatchObject({ status: 'Y', status_ch: '已完成', failed_count: 0, order_id: null, done_name: '孙师傅' });
    refused(await s.call('maintaintaskdone', { id: first!.id, results: checks.map(() => ({ passed: true })) }, tech), '该维保任务已完成');
    const backlogDone = await db()
      .selectFrom('backlog')
      .select('status')
      .where('kind', '=', 'maintain')
      .where('source_id', '=', String(first!.id))
      .executeTakeFirst();
    if (backlogDone) expect(backlogDone.status).not.toBe('P');

    const failed = await s.call(
      'maintaintaskdone',
      {
        id: second!.id,
        results: [{ passed: true }, { passed: false, note: '轴承异响' }, { passed: false, note: '缺油' }],
        notes: '已停机',
        photos: [],
      },
      tech,
    );
    ok(failed);
    expect(failed.return_msg).toContain('2 项不合格，已生成内部工单 GD');
    expect(failed.data).toMatchObject({ status: 'F', failed_count: 2 });
    const order = (await s.call('internalorderinfo', { id: failed.data.order_id }, tech)).data;
    expect(order).toMatchObject({ kind: 'E', status: 'P', handler_names: '孙师傅', item_total: 2 });
    expect(order.content).toContain(`维保任务 #${second!.id}`);
    expect(order.items.map((i: { title: string }) => i.title)).toEqual(['运转', '润滑']);
    const info = (await s.call('maintaintaskinfo', { id: second!.id }, tech)).data;
    expect(info.items[1]).toEqual({ title: '运转', passed: false, note: '轴承异响' });
    expect(info.order_no).toBe(order.no);

    // a failure nobody of the plan may handle as a work order is refused, and nothing changes
    const guardless = await db()
      .selectFrom('internal_orders')
      .select(sql`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const adminId = (await db().selectFrom('accounts').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    await db()
      .updateTable('maintain_tasks')
      .set({ staff_ids: [adminId] })
      .where('id', '=', third!.id)
      .execute();
    ok(
      await s.call(
        'maintaintaskdone',
        { id: third!.id, results: [{ passed: false, note: '漏水' }, { passed: true }, { passed: true }] },
        admin,
      ),
    );
    expect(
      Number(
        (
          await db()
            .selectFrom('internal_orders')
            .select(sql`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(Number(guardless.n) + 1);
  });

  it('a future task cannot be done yet; a plan with tasks cannot be deleted; another community sees none of it', async () => {
    const std = (await s.call('maintainstandardlist', { name: '水泵保养' }, tech)).data.items[0];
    refused(await s.call('maintainstandarddel', { id: std.id }, tech), '该维保标准已被维保计划使用');
    refused(await s.call('maintainplandel', { id: planId }, tech), '该维保计划已生成维保任务，不能删除');
    refused(await s.call('assetdel', { id: assetIds[0] }, tech), '该设备在维保计划「水泵每日检」中');
    refused(
      await s.call('maintaintaskinfo', { id: (await s.call('maintaintasklist', { plan_id: planId }, tech)).data.items[0].id }, admin2),
      '维保任务不存在',
    );
    expect((await s.call('maintaintasklist', { plan_id: planId }, admin2)).data.total).toBe(0);
    const future = await db()
      .insertInto('maintain_tasks')
      .values({
        rid: 1,
        plan_id: planId,
        asset_id: assetIds[0]!,
        due_on: addDays(today(), 2),
        staff_ids: [techId],
        items: JSON.stringify([{ title: '外观', passed: null, note: '' }]),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    refused(await s.call('maintaintaskdone', { id: future.id, results: [{ passed: true }] }, tech), '还未到执行日期');
    refused(
      await s.call(
        'maintainplanadd',
        {
          name: '过去的计划',
          standard_id: std.id,
          asset_ids: assetIds,
          staff_ids: [techId],
          cycle: 'W',
          cycle_days: [1],
          start_date: addDays(today(), -1),
        },
        tech,
      ),
      '开始日期不能早于今天',
    );
    refused(
      await s.call(
        'maintainplanadd',
        { name: '无日期', standard_id: std.id, asset_ids: assetIds, staff_ids: [techId], cycle: 'W', cycle_days: [], start_date: today() },
        tech,
      ),
      '请选择周期的日期',
    );
    const scrapped = (await s.call('assetlist', { state: 'X' }, tech)).data.items[0];
    refused(
      await s.call(
        'maintainplanadd',
        {
          name: '报废的',
          standard_id: std.id,
          asset_ids: [scrapped.id],
          staff_ids: [techId],
          cycle: 'N',
          every_days: 2,
          start_date: today(),
        },
        tech,
      ),
      '已报废，不能加入维保计划',
    );
  });
});
