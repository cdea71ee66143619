import { addDays, patrolPoint, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';

// the days the tasks are made on, within the demo's duty roster (from the first of this month;
// 周保安 works Monday to Saturday): its first Sunday, the Tuesday and Wednesday after it
const MONTH_START = `${today().slice(0, 7)}-01`;
const SUNDAY = [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(MONTH_START, i)).find((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 0)!;
const DAY = addDays(SUNDAY, 2);
const NEXT_DAY = addDays(SUNDAY, 3);

let s: TestServer;
let admin: string;
let admin2: string;
let guard: string;
let guard2: string;
let guardId: number;
let guard2Id: number;
let techId: number;

type Answer = { return_code: string; return_msg: string };
const ok = (a: Answer) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
const refused = (a: Answer, msg: string | RegExp) => {
  expect(a.return_code, a.return_msg).toBe(RC.FAIL);
  expect(a.return_msg).toMatch(msg);
};
const db = () => s.database.db;
const accountId = async (username: string) =>
  Number((await db().selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);

beforeAll(async () => {
  s = await startTestServer();
  // the demo's patrol data: these tests build and read their own
  for (const t of [
    'patrol_checkins',
    'patrol_edits',
    'patrol_task_points',
    'patrol_tasks',
    'patrol_plan_guards',
    'patrol_plan_points',
    'patrol_plans',
    'patrol_points',
  ] as const)
    await db().deleteFrom(t).where('rid', '=', 1).execute();
  guard2Id = await s.addAccount('guard2', { roles: ['security'], name: '吴保安' });
  [admin, admin2, guard, guard2] = await s.logins('admin', 'admin2', 'guard', 'guard2');
  guardId = await accountId('guard');
  techId = await accountId('tech');
});
afterAll(() => s?.close());

describeResource(patrolPoint, {
  server: () => s,
  sample: { number: 'T01', name: '测试巡更点', kind: 'S', place: '东门', checklist: [{ title: '门锁', type: 'normal' }] },
  edit: { name: '测试巡更点二', kind: 'F', place: '西门' },
  filters: { number: 'T01', name: '测试巡更点', kind: 'S' },
  writer: 'guard',
  deniedWriter: 'tech',
  unique: ['name'],
});

let seq = 0;
async function addPoint(more: Record<string, unknown> = {}): Promise<number> {
  seq++;
  const res = await s.call('patrolpointadd', { name: `点${seq}`, kind: 'S', place: `位置${seq}`, ...more }, admin);
  ok(res);
  return res.data.id;
}
const plan = (points: number[], more: Record<string, unknown> = {}) => ({
  name: `计划${++seq}`,
  points: points.map((point_id, i) => ({ point_id, offset_from: i * 10, offset_to: i * 10 + 30 })),
  cycle: 'D',
  start_date: addDays(MONTH_START, -30),
  end_date: addDays(MONTH_START, 400),
  shifts: [{ start: '20:00', end: '22:00' }],
  guard_ids: [guardId],
  ahead_minutes: 30,
  makeup_hours: 0,
  ...more,
});
const run = async (at: string, token = admin) => {
  const res = await s.call('patroljobrun', { at }, token);
  ok(res);
  return res.data;
};
const taskOf = async (planId: number, guard = guardId) =>
  db().selectFrom('patrol_tasks').selectAll().where('rid', '=', 1).where('plan_id', '=', planId).where('guard_id', '=', guard).execute();

describe('points', () => {
  it('numbers a point, normalises its NFC tag and keeps the checklist', async () => {
    const id = await addPoint({ nfc_uid: '04:a1-b2:c3', checklist: [{ title: '消防栓', type: 'single', options: ['完好', '损坏'] }] });
    const info = await s.call('patrolpointinfo', { id }, admin);
    ok(info);
    expect(info.data.number).toMatch(/^XG\d{3}$/);
    expect(info.data.nfc_uid).toBe('04A1B2C3');
    expect(info.data.qr_code).toMatch(/^PT[0-9A-Z]{12}$/);
    expect(info.data.checklist).toEqual([{ title: '消防栓', type: 'single', options: ['完好', '损坏'] }]);
    refused(
      await s.call('patrolpointadd', { name: '另一点', kind: 'S', place: 'x', nfc_uid: '04a1b2c3' }, admin),
      /NFC标签 04A1B2C3 已绑定/,
    );
  });

  it('refuses bad payloads: a choice without options, no location, one coordinate', async () => {
    refused(
      await s.call(
        'patrolpointadd',
        { name: '坏点', kind: 'S', place: 'x', checklist: [{ title: 'a', type: 'single', options: ['1'] }] },
        admin,
      ),
      /至少要 2 个选项/,
    );
    refused(await s.call('patrolpointadd', { name: '坏点', kind: 'S' }, admin), /请选择楼栋、设备或填写区域位置/);
    refused(await s.call('patrolpointadd', { name: '坏点', kind: 'S', place: 'x', lat: 30.1 }, admin), /经度和纬度要同时填写/);
    refused(await s.call('patrolpointadd', { name: '坏点', kind: 'Q', place: 'x' }, admin), /类型/);
  });

  it('stands a point at an asset of the ledger, picked by the guard; never at another community’s', async () => {
    const picker = await s.call('asset_small_list', {}, guard);
    ok(picker);
    const mine = (picker.data.items as Array<{ id: number; title: string }>)[0]!;
    const added = await s.call('patrolpointadd', { name: `设备点${Date.now()}`, kind: 'E', asset_id: mine.id }, guard);
    ok(added);
    const info = await s.call('patrolpointinfo', { id: added.data.id }, guard);
    expect(info.data).toMatchObject({ asset_id: mine.id, location: mine.title });
    const theirs = ((await s.call('asset_small_list', {}, admin2)).data.items as Array<{ id: number }>)[0]!;
    refused(await s.call('patrolpointadd', { name: `设备点${Date.now()}x`, kind: 'E', asset_id: theirs.id }, guard), /所选设备不存在/);
  });

  it('refuses deleting a point of an enabled plan; a stopped plan lets it go', async () => {
    const a = await addPoint();
    const b = await addPoint();
    const res = await s.call('patrolplanadd', plan([a, b], { shifts: [{ start: '01:00', end: '02:00' }] }), admin);
    ok(res);
    refused(await s.call('patrolpointdel', { id: a }, admin), /启用的巡更计划/);
    const info = await s.call('patrolplaninfo', { id: res.data.id }, admin);
    ok(await s.call('patrolplanedit', { ...plan([a, b]), ...info.data, id: res.data.id, status: 'N' }, admin));
    ok(await s.call('patrolpointdel', { id: a }, admin));
    const after = await s.call('patrolplaninfo', { id: res.data.id }, admin);
    expect(after.data.points.map((p: any) => p.point_id)).toEqual([b]);
  });
});

describe('plans', () => {
  it('refuses a guard booked twice in overlapping windows, and a duplicate name', async () => {
    const a = await addPoint();
    const first = plan([a], { shifts: [{ start: '06:00', end: '07:00' }] });
    ok(await s.call('patrolplanadd', first, admin));
    refused(await s.call('patrolplanadd', { ...plan([a]), name: first.name, shifts: [{ start: '08:00', end: '09:00' }] }, admin), /已存在/);
    refused(await s.call('patrolplanadd', plan([a], { shifts: [{ start: '06:30', end: '07:30' }] }), admin), /周保安 已在巡更计划.*重叠/);
    // a window crossing midnight overlaps the small hours
    ok(await s.call('patrolplanadd', plan([a], { shifts: [{ start: '23:00', end: '02:00' }], guard_ids: [guard2Id] }), admin));
    refused(
      await s.call('patrolplanadd', plan([a], { shifts: [{ start: '01:30', end: '03:00' }], guard_ids: [guard2Id] }), admin),
      /吴保安 已在巡更计划/,
    );
    // another guard, the same window: fine
    ok(await s.call('patrolplanadd', plan([a], { shifts: [{ start: '06:00', end: '07:00' }], guard_ids: [guard2Id] }), admin));
  });

  it('refuses staff without the security role, no points, a weekday cycle without days', async () => {
    const a = await addPoint();
    refused(
      await s.call('patrolplanadd', plan([a], { guard_ids: [techId], shifts: [{ start: '03:00', end: '04:00' }] }), admin),
      /没有安保巡更权限/,
    );
    refused(await s.call('patrolplanadd', plan([]), admin), /至少选择 1 个巡更点/);
    refused(await s.call('patrolplanadd', plan([a], { cycle: 'W', cycle_days: [] }), admin), /请选择星期或日期/);
    refused(await s.call('patrolplanadd', plan([a], { shifts: [{ start: '25:00', end: '02:00' }] }), admin), /HH:MM/);
  });
});

describe('tasks, check-in, closing, corrections', () => {
  let planId: number;
  let pts: number[];
  let taskId: number;

  beforeAll(async () => {
    // the demo plans of this file's earlier tests would double-book the guard
    await db().updateTable('patrol_plans').set({ status: 'N' }).where('rid', '=', 1).execute();
    pts = [
      await addPoint({ name: '东门', lat: 30.25, lng: 120.15, radius: 50 }),
      await addPoint({ name: '西门' }),
      await addPoint({ name: '车库', photo_required: 'Y' }),
      await addPoint({ name: '水泵房', checklist: [{ title: '水压', type: 'normal' }] }),
    ];
    const res = await s.call(
      'patrolplanadd',
      plan(pts, { name: '夜巡', in_order: 'Y', abnormal_order: 'Y', order_handler_id: techId }),
      admin,
    );
    ok(res);
    planId = res.data.id;
  });

  it('makes one task per window at the minutes ahead, never twice, and skips a rest day', async () => {
    expect((await run(`${DAY} 19:00:00`)).made).toBe(0);
    expect((await run(`${DAY} 19:35:00`)).made).toBe(1);
    expect((await run(`${DAY} 19:40:00`)).made).toBe(0);
    const [task] = await taskOf(planId);
    taskId = Number(task!.id);
    expect(task!.points_total).toBe(4);
    // 周保安 rests on Sundays (the demo roster)
    expect((await run(`${SUNDAY} 19:45:00`)).made).toBe(0);
    // 吴保安 has no roster: the plan decides
    await db().insertInto('patrol_plan_guards').values({ rid: 1, plan_id: planId, account_id: guard2Id }).execute();
    expect((await run(`${SUNDAY} 19:45:00`)).made).toBe(1);
    await db().deleteFrom('patrol_tasks').where('rid', '=', 1).where('guard_id', '=', guard2Id).execute();
    await db()
      .deleteFrom('patrol_plan_guards')
      .where('rid', '=', 1)
      .where('account_id', '=', guard2Id)
      .where('plan_id', '=', planId)
      .execute();
    // the patrol job's own run (every 5 minutes) finds it made too
    expect((await taskOf(planId)).length).toBe(1);
  });

  it('keeps an unknown code in the raw log, and refuses a missing photo', async () => {
    const res = await s.call('patrolcheckin', { code: 'NOPE-1', check_method: 'qr' }, guard);
    ok(res);
    expect(res.data.matched).toBe(false);
    expect(res.data.outcome).toBe('unknown');
    const log = await s.call('patrolrecordlog', { outcome: 'unknown' }, admin);
    expect(log.data.items.some((c: any) => c.code === 'NOPE-1' && c.reason.includes('不是本小区'))).toBe(true);
    const car = await s.call('patrolpointinfo', { id: pts[2]! }, admin);
    refused(await s.call('patrolcheckin', { code: car.data.number, check_method: 'qr' }, guard), /要求拍照/);
  });

  it('flags distance, timing and out-of-order scans; an abnormal result opens a work order', async () => {
    const west = await s.call('patrolpointinfo', { id: pts[1]! }, admin);
    // west before east on a plan in route order
    const a = await s.call('patrolcheckin', { code: west.data.qr_code, check_method: 'qr', device_time: `${DAY} 20:05:00` }, guard);
    ok(a);
    expect(a.data, a.return_msg).toEqual(expect.objectContaining({ matched: true }));
    expect(a.data.out_of_order).toBe(true);
    expect(a.data.timing_ch).toBe('早到');
    // the same point again: kept as a duplicate
    const again = await s.call('patrolcheckin', { code: west.data.number, check_method: 'qr' }, guard);
    expect(again.data.outcome).toBe('duplicate');
    // east, about 1.1 km away, and its window already over
    const east = await s.call('patrolpointinfo', { id: pts[0]! }, admin);
    await db()
      .updateTable('patrol_task_points')
      .set({ due_from: new Date(Date.now() - 7_200_000), due_to: new Date(Date.now() - 3_600_000) })
      .where('rid', '=', 1)
      .where('task_id', '=', taskId)
      .where('point_id', '=', pts[0]!)
      .execute();
    const b = await s.call('patrolcheckin', { code: east.data.qr_code, check_method: 'gps', lat: 30.26, lng: 120.15 }, guard);
    ok(b);
    expect(b.data.outside).toBe(true);
    expect(b.data.distance_m).toBeGreaterThan(1000);
    expect(b.data.timing_ch).toBe('迟到');
    // the pump room abnormal: a work order for the technician
    const pump = await s.call('patrolpointinfo', { id: pts[3]! }, admin);
    const c = await s.call(
      'patrolcheckin',
      { code: pump.data.number, check_method: 'qr', answers: [{ title: '水压', value: '异常' }], note: '水压低' },
      guard,
    );
    ok(c);
    expect(c.data.order_no).toMatch(/^GD\d{6}$/);
    expect(c.data.completion).toBe('3/4');
    const order = await db()
      .selectFrom('internal_orders')
      .selectAll()
      .where('rid', '=', 1)
      .where('title', '=', '巡更异常：水泵房')
      .executeTakeFirstOrThrow();
    expect(order.handler_ids.map(Number)).toEqual([techId]);
    expect(order.content).toContain('水压：异常');
  });

  it('closes the task at the end of the window: 3 of 4, the missed point named', async () => {
    expect((await run(`${DAY} 21:59:00`)).closed).toBe(0);
    expect((await run(`${DAY} 22:00:00`)).closed).toBe(1);
    expect((await run(`${DAY} 22:05:00`)).closed).toBe(0);
    const info = await s.call('patroltaskinfo', { id: taskId }, admin);
    ok(info);
    expect(info.data.status).toBe('P');
    expect(info.data.completion).toBe('3/4');
    expect(info.data.missed_names).toBe('车库');
    expect(info.data.abnormal_count).toBe(1);
    const list = await s.call('patroltasklist', { flag: 'missed', plan_id: planId }, admin);
    expect(list.data.items.map((t: any) => t.id)).toEqual([taskId]);
    const report = await s.call('patrolplanreport', { day: [DAY, DAY], plan_id: planId }, admin);
    ok(report);
    expect(report.data.plans).toEqual([expect.objectContaining({ due: 1, partial: 1, done: 0 })]);
    expect(report.data.guards[0]).toEqual(
      expect.objectContaining({ points_due: 4, points_done: 3, points_missed: 1, late: 1, abnormal: 1 }),
    );
    expect(report.data.points[0]).toEqual(expect.objectContaining({ point_name: '车库', missed: 1 }));
    // the task not complete waits on the supervisors' to-do list
    const todo = await db()
      .selectFrom('backlog')
      .selectAll()
      .where('rid', '=', 1)
      .where('kind', '=', 'patroltask')
      .where('source_id', '=', String(taskId))
      .executeTakeFirstOrThrow();
    expect(todo.title).toContain('漏巡 车库');
    const file = await s.exportFile('patrolplanreportexport', { day: [DAY, DAY], plan_id: planId }, admin);
    ok(file);
    expect((await readXlsx(file.data.content_base64)).rows.length).toBe(1);
  });

  it('a supervisor corrects: logged, the original check-in kept; the guard may not correct their own', async () => {
    const info = await s.call('patroltaskinfo', { id: taskId }, admin);
    const pump = info.data.points.find((p: any) => p.point_name === '水泵房')!;
    const car = info.data.points.find((p: any) => p.point_name === '车库')!;
    refused(
      await s.call('patrolrecordedit', { task_point_id: pump.id, action: 'result', result: 'N', reason: '复核正常' }, guard),
      /不能修正自己的/,
    );
    ok(await s.call('patrolrecordedit', { task_point_id: pump.id, action: 'result', result: 'N', reason: '复核正常' }, admin));
    ok(await s.call('patrolrecordedit', { task_point_id: car.id, action: 'makeup', reason: '对讲机确认已巡' }, admin));
    refused(await s.call('patrolrecordedit', { task_point_id: pump.id, action: 'result', result: 'N', reason: 'x' }, admin), /已是正常/);
    const after = await s.call('patroltaskinfo', { id: taskId }, admin);
    expect(after.data.points.find((p: any) => p.id === pump.id)!.result).toBe('N');
    // the check-in as it was uploaded
    expect(after.data.points.find((p: any) => p.id === pump.id)!.checkin!.result).toBe('A');
    expect(after.data.status).toBe('Y');
    expect(after.data.missed_names).toBe('');
    // the report counts the make-up as done, and the corrected point as normal
    const corrected = await s.call('patrolplanreport', { day: [DAY, DAY], plan_id: planId }, admin);
    ok(corrected);
    const report = corrected.data;
    expect(report.guards[0]).toEqual(
      expect.objectContaining({ tasks: 1, points_due: 4, points_done: 4, points_missed: 0, late: 1, abnormal: 0, makeup: 1 }),
    );
    expect(report.plans).toEqual([expect.objectContaining({ due: 1, done: 1, partial: 0 })]);
    expect(report.points).toEqual([]);
    // the three check-ins counted in their hours (the make-up is no check-in)
    expect(report.hours.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    const log = await s.call('patroleditlog', { task_id: taskId }, admin);
    expect(log.data.items.map((e: any) => [e.action, e.old_value, e.new_value])).toEqual(
      expect.arrayContaining([
        ['result', '异常', '正常'],
        ['makeup', '漏巡', '补检'],
      ]),
    );
  });

  it('transfers a task with a reason and never makes it again for the planned guard', async () => {
    await run(`${NEXT_DAY} 19:45:00`);
    const [, second] = await taskOf(planId);
    const id = Number(second!.id);
    refused(await s.call('patroltasktransfer', { id, account_id: guard2Id, reason: '病假' }, guard), /不能流转自己的/);
    refused(await s.call('patroltasktransfer', { id, account_id: techId, reason: '病假' }, admin), /没有安保巡更权限/);
    refused(await s.call('patroltasktransfer', { id, account_id: guard2Id, reason: '' }, admin), /流转原因/);
    ok(await s.call('patroltasktransfer', { id, account_id: guard2Id, reason: '病假' }, admin));
    expect((await run(`${NEXT_DAY} 19:50:00`)).made).toBe(0);
    const mine = await s.call('patrolmytasks', {}, guard2);
    expect(mine.data.items.map((t: any) => t.id)).toContain(id);
    const info = await s.call('patroltaskinfo', { id }, admin);
    expect(info.data.current_guard_name).toBe('吴保安');
    expect(info.data.transfer_reason).toBe('病假');
  });

  it("answers 不存在 for another community's ids, and exports", async () => {
    refused(await s.call('patroltaskinfo', { id: taskId }, admin2), /不存在/);
    refused(await s.call('patrolpointinfo', { id: pts[0]! }, admin2), /不存在/);
    refused(await s.call('patrolplaninfo', { id: planId }, admin2), /不存在/);
    refused(await s.call('patroltasktransfer', { id: taskId, account_id: guard2Id, reason: 'x' }, admin2), /不存在/);
    const list = await s.call('patroltasklist', {}, admin2);
    expect(list.data.items.some((t: any) => t.id === taskId)).toBe(false);
    const file = await s.exportFile('patroltaskexport', { plan_id: planId }, admin);
    ok(file);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toContain('漏巡点');
    expect(sheet.rows.length).toBeGreaterThanOrEqual(2);
  });

  it("answers the home card's figures of today", async () => {
    const res = await s.call('patroldashboard', {}, guard);
    ok(res);
    expect(res.data).toEqual(
      expect.objectContaining({ tasks: expect.any(Number), points_due: expect.any(Number), rate: expect.any(String) }),
    );
  });

  it('refuses the job run to a non-admin and the records to staff without the role', async () => {
    expect((await s.call('patroljobrun', { at: `${DAY} 19:45:00` }, guard)).return_code).toBe(RC.NO_PERMISSION);
    const tech = await s.login('tech');
    expect((await s.call('patroltasklist', {}, tech)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('patrolcheckin', { code: 'x', check_method: 'qr' }, tech)).return_code).toBe(RC.NO_PERMISSION);
    refused(await s.call('patrolcheckin', { code: '', check_method: 'qr' }, guard), /请输入或扫描/);
    refused(await s.call('patrolcheckin', { code: 'x', check_method: 'gps' }, guard), /GPS 签到需要定位/);
    expect((await s.call('patrolcheckin', { code: 'x', check_method: 'bluetooth' }, guard)).return_code).toBe(RC.FAIL);
  });
});
