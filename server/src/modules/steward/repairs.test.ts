import { RC, repairType } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/queue.js';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { ok, refused, type Answer } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { REPAIR_CLOCK } from './repairsClock.js';

let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let tech: string;
let tech2: string;
let guard: string;
let cashier: string;
let techId: number;
let tech2Id: number;
let room1101: number;
let otherRoom: number;
const types: Record<'paid' | 'free' | 'grab' | 'pub' | 'rr', number> = { paid: 0, free: 0, grab: 0, pub: 0, rr: 0 };

const denied = (a: Answer) => expect(a.return_code).toBe(RC.NO_PERMISSION);
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  tech2Id = await s.addAccount('tech2', { roles: ['repairs'], regions: [1], name: '周师傅' });
  [admin, admin2, steward, tech, tech2, guard, cashier] = await s.logins('admin', 'admin2', 'steward', 'tech', 'tech2', 'guard', 'cashier');
  techId = (await db().selectFrom('accounts').select('id').where('username', '=', 'tech').executeTakeFirstOrThrow()).id;
  room1101 = (
    await db().selectFrom('rooms').select('id').where('rid', '=', 1).where('address', '=', '1号楼1单元1101').executeTakeFirstOrThrow()
  ).id;
  otherRoom = (await db().selectFrom('rooms').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow()).id;
  const type = async (v: Record<string, unknown>) =>
    ok(await s.call('repairtypeadd', { accept_hours: 2, finish_hours: 24, ...v }, steward)).id as number;
  types.paid = await type({ title: '测试有偿', mode: 'A', area: 'H', paid: 'Y', visit_policy: 'A', staff_ids: [techId, tech2Id] });
  types.free = await type({ title: '测试无偿', mode: 'A', area: 'H', paid: 'N', visit_policy: 'U', staff_ids: [] });
  types.grab = await type({ title: '测试抢单', mode: 'G', area: 'H', paid: 'N', staff_ids: [techId] });
  types.pub = await type({ title: '测试公区', mode: 'A', area: 'P', paid: 'N', visit_policy: 'N', staff_ids: [] });
  types.rr = await type({ title: '测试轮派', mode: 'R', area: 'P', paid: 'N', visit_policy: 'N', staff_ids: [tech2Id] });
  // the demo's technician holds tickets already; these tests hand out many more
  ok(await s.call('repairsettingsedit', { max_open: 99, auto_rate_hours: 48, reopen_days: 7 }, steward));
});
afterAll(() => s?.close());

const ticket = async (more: Record<string, unknown> = {}, token = steward) =>
  ok(
    await s.call(
      'repairadd',
      { source: 'D', type_id: types.paid, hid: room1101, reporter: '张三', phone: '13912345678', content: '厨房水管漏水', ...more },
      token,
    ),
  ).id as number;
const info = async (id: number, token = steward) => ok(await s.call('repairinfo', { id }, token));
const dispatched = async (more: Record<string, unknown> = {}, handler = techId) => {
  const id = await ticket(more);
  ok(await s.call('repairdispatch', { id, handler_id: handler }, steward));
  return id;
};
const inProgress = async (more: Record<string, unknown> = {}) => {
  const id = await dispatched(more);
  ok(await s.call('repairaccept', { id }, tech));
  return id;
};
const runClock = async () => {
  await enqueueJob(db(), { rid: null, kind: REPAIR_CLOCK, payload: {}, createdBy: null });
  await s.runJobs();
};
const backlog = (sourceId: string, kind = 'repair') =>
  db().selectFrom('backlog').selectAll().where('rid', '=', 1).where('kind', '=', kind).where('source_id', '=', sourceId).executeTakeFirst();

describeResource(repairType, {
  server: () => s,
  sample: {
    title: '资源测试类型',
    mode: 'A',
    area: 'H',
    paid: 'N',
    accept_hours: 2,
    finish_hours: 24,
    warn_minutes: 30,
    visit_policy: 'A',
    status: 'Y',
  },
  edit: { title: '资源测试类型二', mode: 'A', paid: 'Y' },
  filters: { title: '资源测试', mode: 'A' },
  deniedWriter: 'tech',
});

describe('repair types', () => {
  it('keep two levels, bind only the community technicians, and need technicians for grab and round robin', async () => {
    const child = ok(await s.call('repairtypeadd', { title: '子类', parent_id: types.paid, mode: 'A' }, steward)).id;
    refused(await s.call('repairtypeadd', { title: '孙类', parent_id: child }, steward), '最多两级');
    refused(await s.call('repairtypeadd', { title: '抢单无人', mode: 'G', staff_ids: [] }, steward), '须绑定至少一名维修师傅');
    const guardId = (await db().selectFrom('accounts').select('id').where('username', '=', 'guard').executeTakeFirstOrThrow()).id;
    refused(await s.call('repairtypeadd', { title: '保安修', staff_ids: [guardId] }, steward), '持有维修权限');
    refused(await s.call('repairtypedel', { id: types.paid }, steward), '二级类型');
    const tree = ok(await s.call('repairtypetree', {}, tech)).items as Array<{ id: number; children: Array<{ id: number }> }>;
    expect(tree.find((t) => t.id === types.paid)!.children.map((c) => c.id)).toContain(child);
    const techs = ok(await s.call('repair_tech_small_list', { type_id: types.paid }, steward)).items as Array<{ id: number }>;
    expect(techs.map((t) => t.id).sort()).toEqual([techId, tech2Id].sort());
    refused(await s.call('repair_tech_small_list', { type_id: types.paid }, admin2), '报修类型不存在');
    ok(await s.call('repairtypedel', { id: child }, steward));
  });

  it('the desk keeps its settings; others read them', async () => {
    expect(ok(await s.call('repairsettings', {}, tech))).toEqual({ max_open: 99, auto_rate_hours: 48, reopen_days: 7 });
    denied(await s.call('repairsettingsedit', { max_open: 3, auto_rate_hours: 24, reopen_days: 7 }, tech));
    refused(await s.call('repairsettingsedit', { max_open: 0, auto_rate_hours: 24, reopen_days: 7 }, steward), /.+/);
    ok(await s.call('repairsettingsedit', { max_open: 99, auto_rate_hours: 48, reopen_days: 7 }, steward));
  });
});

describe('registering a ticket', () => {
  it('a desk registers one into 待派单 with its finish deadline and a to-do for the dispatcher', async () => {
    const id = await ticket({ appointment_time: '2030-01-01 09:00', photos: [], urgent: true });
    const t = await info(id);
    expect(t).toMatchObject({
      status: 'W',
      status_ch: '待派单',
      urgent: true,
      location: '1号楼1单元1101',
      appointment_time: '2030-01-01 09:00:00',
    });
    expect(t.no).toMatch(/^BX\d{8}\d{4}$/);
    // the deadline: the appointment plus the type's 24 hours
    expect(t.finish_by).toBe('2030-01-02 09:00:00');
    expect((await backlog(String(id)))?.status).toBe('E');
    const log = ok(await s.call('repairlog', { id }, tech)).items;
    expect(log.map((l: { transition: string }) => l.transition)).toEqual(['create']);
  });

  it('refuses bad input, the wrong place, another community room and other roles', async () => {
    const base = { source: 'D', type_id: types.paid, hid: room1101, reporter: '张三', phone: '13912345678', content: '漏水' };
    refused(await s.call('repairadd', { ...base, phone: '1391234567' }, steward), '11位手机号');
    refused(await s.call('repairadd', { ...base, content: 'x'.repeat(701) }, steward), /700/);
    refused(
      await s.call('repairadd', { ...base, photos: Array(10).fill('/files/1/0123456789abcdef0123456789abcdef.png') }, steward),
      '最多上传9张',
    );
    refused(await s.call('repairadd', { ...base, hid: undefined, place: '大堂' }, steward), '房屋报修，请选择报修房屋');
    refused(await s.call('repairadd', { ...base, type_id: types.pub }, steward), '公共区域报修');
    refused(await s.call('repairadd', { ...base, hid: otherRoom }, steward), '不属于当前小区');
    refused(await s.call('repairadd', { ...base, hid: undefined, place: '' }, steward), '请选择报修房屋，或填写公共区域位置');
    refused(await s.call('repairadd', base, admin2), '报修类型不存在');
    denied(await s.call('repairadd', base, tech));
    denied(await s.call('repairadd', base, guard));
    denied(await s.call('repairlist', {}, guard));
    const before = await db()
      .selectFrom('repair_tickets')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    refused(await s.call('repairadd', { ...base, phone: 'x' }, steward), /.+/);
    const after = await db()
      .selectFrom('repair_tickets')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe('the repair workflow', () => {
  it('a paid repair: dispatch, accept, pause, resume, finish with a fee line, paid at the cashier, rated, visited; each step in the timeline', async () => {
    const id = await ticket();
    // only the desk dispatches; only the handler steps
    denied(await s.call('repairdispatch', { id, handler_id: techId }, tech));
    ok(await s.call('repairdispatch', { id, handler_id: techId, note: '尽快' }, steward));
    expect((await backlog(String(id)))?.status).toBe('Y');
    expect((await backlog(String(id), 'repairwork'))?.status).toBe('E');
    refused(await s.call('repairaccept', { id }, tech2), '该工单不是您负责的');
    refused(await s.call('repairaccept', { id }, steward), '该工单不是您负责的');
    denied(await s.call('repairaccept', { id }, guard));
    refused(await s.call('repairaccept', { id }, admin2), '报修工单不存在');
    expect(ok(await s.call('repairaccept', { id }, tech)).status).toBe('P');
    expect((await backlog(String(id), 'repairwork'))?.status).toBe('Y');
    expect(Number((await info(id)).accept_by.slice(0, 4))).toBeGreaterThan(2000);

    refused(await s.call('repairpause', { id, reason: '', resume_date: today() }, tech), '请填写暂停原因');
    expect(ok(await s.call('repairpause', { id, reason: '等配件', resume_date: today() }, tech)).status).toBe('S');
    refused(await s.call('repairpause', { id, reason: '再停', resume_date: today() }, tech), '该报修工单已处理');
    refused(await s.call('repairfinish', { id, note: '好了' }, tech), '该报修工单已处理');
    await sql`UPDATE repair_tickets SET paused_at = now() - interval '2 hours' WHERE rid = 1 AND id = ${id}`.execute(db());
    expect(ok(await s.call('repairresume', { id }, tech)).status).toBe('P');
    expect((await info(id)).paused_seconds).toBeGreaterThanOrEqual(7190);

    refused(await s.call('repairfinish', { id, note: '' }, tech), '请填写处理说明');
    refused(await s.call('repairfinish', { id, note: '好了', fee_lines: [{ name: '换阀门', amount: '-1' }] }, tech), /金额/);
    const photo = (n: number) => `/files/1/${String(n).repeat(32).slice(0, 32)}.png`;
    const done = ok(
      await s.call(
        'repairfinish',
        {
          id,
          note: '更换阀门',
          materials: '阀门1个',
          before_photos: [photo(1)],
          after_photos: [photo(2)],
          fee_lines: [
            { name: '换阀门', amount: '50.50' },
            { name: '人工', amount: 30 },
          ],
        },
        tech,
      ),
    );
    expect(done.status).toBe('F');
    const t = await info(id);
    expect(t).toMatchObject({ fee_total: '80.50', bill_status: 'E', before_photos: [photo(1)], after_photos: [photo(2)] });
    const bill = await db().selectFrom('fee_bills').selectAll().where('rid', '=', 1).where('id', '=', t.bill_id).executeTakeFirstOrThrow();
    expect(bill).toMatchObject({ hid: room1101, status: 'E', cost_type: 'repair', title: `维修费-${t.no}` });
    expect(Number(bill.fee)).toBe(80.5);
    const costType = await db()
      .selectFrom('fee_cost_types')
      .select('title')
      .where('rid', '=', 1)
      .where('cost_type', '=', 'repair')
      .executeTakeFirstOrThrow();
    expect(costType.title).toBe('维修费');
    // the cashier sees and takes it; the ticket moves on to the rating
    const bills = ok(await s.call('cashierbills', { hid: room1101 }, cashier)).items as Array<{ id: number; total: string }>;
    const mine = bills.find((b) => b.id === t.bill_id)!;
    expect(mine).toBeTruthy();
    ok(
      await s.call(
        'cashierpay',
        { hid: room1101, bill_ids: [t.bill_id], pay_type: 'cash', paid_amount: mine.total, idempotency_key: `repair-${id}` },
        cashier,
      ),
    );
    expect((await info(id)).status).toBe('R');
    refused(await s.call('repairclose', { id, reason: '不修了' }, steward), '退款请走退款流程');
    denied(await s.call('repairrate', { id, overall: 5, speed: 5, service: 5 }, tech));
    refused(await s.call('repairrate', { id, overall: 6, speed: 5, service: 5 }, steward), /.+/);
    expect(ok(await s.call('repairrate', { id, overall: 5, speed: 4, service: 5, text: '好' }, steward)).status).toBe('V');
    refused(await s.call('repairvisit', { id, satisfied: 'Y' }, admin2), '报修工单不存在');
    expect(ok(await s.call('repairvisit', { id, satisfied: 'Y', note: '满意' }, steward)).status).toBe('D');
    const r = await info(id);
    expect(r).toMatchObject({ rate_overall: 5, rate_speed: 4, rate_service: 5, rate_auto: false, visit_satisfied: 'Y' });
    expect(r.complete_time).not.toBe('');
    const log = ok(await s.call('repairlog', { id }, steward)).items as Array<{ transition: string; to_state: string; operator: string }>;
    expect(log.map((l) => l.transition)).toEqual(['create', 'dispatch', 'accept', 'pause', 'resume', 'finish', 'pay', 'rate', 'visit']);
    expect(log.find((l) => l.transition === 'pay')!.operator).not.toBe('');
    // reopened within the window: back to dispatch, counted
    expect(ok(await s.call('repairreopen', { id, reason: '又漏了' }, steward)).status).toBe('W');
    expect((await info(id)).reopen_count).toBe(1);
  });

  it('a free household repair waits for the rating; a rating skips the visit when the type visits unrated only; a public one with no follow-up completes at finish', async () => {
    const id = await inProgress({ type_id: types.free });
    refused(await s.call('repairfinish', { id, note: '好了', fee_lines: [{ name: '换灯', amount: '5' }] }, tech), '无偿维修');
    expect(ok(await s.call('repairfinish', { id, note: '好了' }, tech)).status).toBe('R');
    expect(ok(await s.call('repairrate', { id, overall: 4, speed: 4, service: 4 }, steward)).status).toBe('D');
    const pub = await inProgress({ type_id: types.pub, hid: undefined, place: '1号楼大堂' });
    expect((await info(pub)).location).toBe('1号楼大堂');
    expect(ok(await s.call('repairfinish', { id: pub, note: '换了灯泡' }, tech)).status).toBe('D');
  });

  it("a rating counts in the technician's repair-rating columns of scorelist; a re-rating after a reopen replaces it", async () => {
    const month = { period_type: 'month', period: today().slice(0, 7) };
    const techRow = async () =>
      (ok(await s.call('scorelist', month, steward)).items as Array<{ name: string; repair_avg: string; repair_count: number }>).find(
        (r) => r.name === '孙师傅',
      )!;
    const ratings = async () =>
      db()
        .selectFrom('service_ratings')
        .select(['score'])
        .where('rid', '=', 1)
        .where('source', '=', 'repair')
        .where('account_id', '=', techId)
        .where('rated_at', '>=', sql<Date>`${`${month.period}-01`}::date::timestamp AT TIME ZONE current_setting('TimeZone')`)
        .execute();
    const before = await ratings();
    const sum = (rs: Array<{ score: number }>) => rs.reduce((t, r) => t + r.score, 0);
    expect((await techRow()).repair_count).toBe(before.length);
    const id = await inProgress({ type_id: types.free });
    ok(await s.call('repairfinish', { id, note: '好了' }, tech));
    ok(await s.call('repairrate', { id, overall: 2, speed: 3, service: 3 }, steward));
    const row = await techRow();
    expect(row.repair_count).toBe(before.length + 1);
    expect(row.repair_avg).toBe(((sum(before) + 2) / (before.length + 1)).toFixed(2));
    const mine = await db().selectFrom('service_ratings').selectAll().where('rid', '=', 1).where('source_id', '=', id).execute();
    expect(mine.map((r) => [r.account_id, r.source, r.score])).toEqual([[techId, 'repair', 2]]);
    // reopened and done again by the other technician: the new rating replaces the old one, for them
    ok(await s.call('repairreopen', { id, reason: '又坏了' }, steward));
    ok(await s.call('repairdispatch', { id, handler_id: tech2Id }, steward));
    ok(await s.call('repairaccept', { id }, tech2));
    ok(await s.call('repairfinish', { id, note: '换了新的' }, tech2));
    ok(await s.call('repairrate', { id, overall: 5, speed: 5, service: 5 }, steward));
    const again = await db().selectFrom('service_ratings').selectAll().where('rid', '=', 1).where('source_id', '=', id).execute();
    expect(again.map((r) => [r.account_id, r.score])).toEqual([[tech2Id, 5]]);
    expect((await techRow()).repair_count).toBe(before.length);
  });

  it('refuses steps from the wrong state, of the wrong role and on another community ids', async () => {
    const id = await ticket();
    await sql`UPDATE repair_tickets SET handler_id = ${techId} WHERE rid = 1 AND id = ${id}`.execute(db());
    refused(await s.call('repairaccept', { id }, tech), '该报修工单已处理');
    refused(await s.call('repairfinish', { id, note: 'x' }, tech), '该报修工单已处理');
    refused(await s.call('repairvisit', { id, satisfied: 'Y' }, steward), '该报修工单已处理');
    refused(await s.call('repairreopen', { id, reason: '再修' }, steward), '该报修工单已处理');
    await sql`UPDATE repair_tickets SET handler_id = NULL WHERE rid = 1 AND id = ${id}`.execute(db());
    for (const [method, payload] of [
      ['repairdispatch', { handler_id: techId }],
      ['repairclose', { reason: '重复' }],
      ['repairurge', {}],
      ['repairinfo', {}],
      ['repairlog', {}],
    ] as const) {
      refused(await s.call(method, { id, ...payload }, admin2), '报修工单不存在');
    }
    denied(await s.call('repairclose', { id, reason: '重复' }, tech));
    denied(await s.call('repairreopen', { id, reason: '重复' }, tech));
    denied(await s.call('repairgrab', { id }, guard));
    refused(await s.call('repairdispatch', { id, handler_id: 999999 }, steward), '维修师傅不存在');
    const guardId = (await db().selectFrom('accounts').select('id').where('username', '=', 'guard').executeTakeFirstOrThrow()).id;
    refused(await s.call('repairdispatch', { id, handler_id: guardId }, steward), '持有维修权限');
    expect(ok(await s.call('repairclose', { id, reason: '重复报修' }, steward)).status).toBe('C');
    refused(await s.call('repairclose', { id, reason: '重复报修' }, steward), '该报修工单已处理');
    expect((await info(id)).close_reason).toBe('重复报修');
  });

  it('closing a finished paid repair voids its unpaid bill; returning puts it back in the pool', async () => {
    const id = await inProgress();
    ok(await s.call('repairfinish', { id, note: '好了', fee_lines: [{ name: '人工', amount: '20' }] }, tech));
    const billId = (await info(id)).bill_id as number;
    ok(await s.call('repairclose', { id, reason: '业主不认可费用' }, steward));
    expect(
      await db().selectFrom('fee_bills').select('id').where('rid', '=', 1).where('id', '=', billId).executeTakeFirst(),
    ).toBeUndefined();
    expect((await info(id)).bill_id).toBe(0);

    const back = await inProgress();
    refused(await s.call('repairreturn', { id: back, reason: '' }, tech), '请填写退单原因');
    refused(await s.call('repairreturn', { id: back, reason: '不会修' }, tech2), '该工单不是您负责的');
    expect(ok(await s.call('repairreturn', { id: back, reason: '不会修' }, tech)).status).toBe('W');
    expect((await info(back)).handler_id).toBe(0);
    expect((await backlog(String(back)))?.status).toBe('E');
  });

  it('a technician transfers to another; the maximum of open tickets holds on dispatch, transfer and batch', async () => {
    const id = await inProgress();
    refused(await s.call('repairtransfer', { id, handler_id: techId, reason: '忙' }, tech), '不能转给自己');
    const moved = ok(await s.call('repairtransfer', { id, handler_id: tech2Id, reason: '我请假' }, tech));
    expect(moved).toMatchObject({ status: 'A', handler_id: tech2Id, handler_name: '周师傅' });
    refused(await s.call('repairaccept', { id }, tech), '该工单不是您负责的');
    ok(await s.call('repairaccept', { id }, tech2));

    const held = await db()
      .selectFrom('repair_tickets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('handler_id', '=', tech2Id)
      .where('status', 'in', ['A', 'P', 'S'])
      .executeTakeFirstOrThrow();
    ok(await s.call('repairsettingsedit', { max_open: held.n, auto_rate_hours: 48, reopen_days: 7 }, steward));
    const waiting = await ticket();
    refused(await s.call('repairdispatch', { id: waiting, handler_id: tech2Id }, steward), '上限');
    refused(await s.call('repairbatchdispatch', { ids: [waiting], handler_id: tech2Id }, steward), '上限');
    ok(await s.call('repairsettingsedit', { max_open: 99, auto_rate_hours: 48, reopen_days: 7 }, steward));
  });

  it('batch dispatch moves every chosen waiting ticket, or none', async () => {
    const a = await ticket();
    const b = await ticket();
    const c = await dispatched();
    refused(await s.call('repairbatchdispatch', { ids: [a, b, c], handler_id: techId }, steward), '不是待派单状态');
    expect((await info(a)).status).toBe('W');
    denied(await s.call('repairbatchdispatch', { ids: [a, b], handler_id: techId }, tech));
    refused(await s.call('repairbatchdispatch', { ids: [a, b], handler_id: techId }, admin2), '报修工单不存在');
    expect(ok(await s.call('repairbatchdispatch', { ids: [a, b], handler_id: techId, note: '一起' }, steward)).count).toBe(2);
    for (const id of [a, b]) expect(await info(id)).toMatchObject({ status: 'A', handler_id: techId });
    const log = ok(await s.call('repairlog', { id: a }, steward)).items as Array<{ transition_ch: string }>;
    expect(log.at(-1)!.transition_ch).toBe('派单');
  });

  it('grab: only in grab mode, only by a technician bound to the type', async () => {
    const id = await ticket({ type_id: types.grab });
    refused(await s.call('repairgrab', { id }, tech2), '未绑定该报修类型');
    denied(await s.call('repairgrab', { id }, cashier));
    expect(ok(await s.call('repairgrab', { id }, tech))).toMatchObject({ status: 'A', handler_id: techId });
    refused(await s.call('repairgrab', { id }, tech), '该报修工单已处理');
    const assigned = await ticket();
    refused(await s.call('repairgrab', { id: assigned }, tech), '不是抢单方式');
  });

  it('urging counts and logs without changing the state', async () => {
    const id = await ticket();
    ok(await s.call('repairurge', { id, note: '业主催' }, steward));
    const t = ok(await s.call('repairurge', { id }, steward));
    expect(t).toMatchObject({ status: 'W', urge_count: 2 });
    denied(await s.call('repairurge', { id }, guard));
    const log = ok(await s.call('repairlog', { id }, steward)).items as Array<{ transition_ch: string }>;
    expect(log.filter((l) => l.transition_ch === '催单')).toHaveLength(2);
  });

  it('reopening is refused past the window', async () => {
    const id = await inProgress({ type_id: types.free });
    ok(await s.call('repairfinish', { id, note: '好了' }, tech));
    ok(await s.call('repairrate', { id, overall: 5, speed: 5, service: 5 }, steward));
    await sql`UPDATE repair_tickets SET completed_at = now() - interval '8 days' WHERE rid = 1 AND id = ${id}`.execute(db());
    refused(await s.call('repairreopen', { id, reason: '又坏了' }, steward), '超过 7 天');
  });
});

describe('the repair clock', () => {
  it('marks a breach once with a to-do for the dispatcher, warns the technician, keeps a paused clock still', async () => {
    const late = await dispatched();
    await sql`UPDATE repair_tickets SET accept_by = now() - interval '1 minute' WHERE rid = 1 AND id = ${late}`.execute(db());
    const paused = await inProgress();
    ok(await s.call('repairpause', { id: paused, reason: '等配件', resume_date: today() }, tech));
    // paused before its deadline came: the stopped clock has not run out
    await sql`UPDATE repair_tickets SET finish_by = now() - interval '1 hour', paused_at = now() - interval '2 hours' WHERE rid = 1 AND id = ${paused}`.execute(
      db(),
    );
    const near = await inProgress();
    await sql`UPDATE repair_tickets SET finish_by = now() + interval '10 minutes' WHERE rid = 1 AND id = ${near}`.execute(db());
    await runClock();
    const t = await info(late);
    expect(t.overdue).toBe(true);
    const todo = await backlog(`${late}-overdue`);
    expect(todo).toMatchObject({ status: 'E', roles: ['steward'] });
    expect((await info(paused)).overdue).toBe(false);
    expect((await backlog(`${near}-warn`, 'repairwork'))?.title).toMatch(/即将超时/);
    // once: the dispatcher settles it and the next run does not raise it again
    await db().updateTable('backlog').set({ status: 'Y' }).where('id', '=', todo!.id).execute();
    await runClock();
    expect((await backlog(`${late}-overdue`))?.status).toBe('Y');
    const list = ok(await s.call('repairlist', { overdue: 'Y', limit: 200 }, steward));
    expect(list.items.map((i: { id: number }) => i.id)).toContain(late);
    expect(list.counts.overdue).toBeGreaterThan(0);
  });

  it('rates a ticket left 待评价 past the hours, automatically', async () => {
    const id = await inProgress({ type_id: types.free });
    ok(await s.call('repairfinish', { id, note: '好了' }, tech));
    await sql`UPDATE repair_tickets SET rate_since = now() - interval '49 hours' WHERE rid = 1 AND id = ${id}`.execute(db());
    await runClock();
    expect(await info(id)).toMatchObject({ status: 'V', rate_auto: true, rate_overall: 5 });
    const rated = await db().selectFrom('service_ratings').selectAll().where('rid', '=', 1).where('source_id', '=', id).execute();
    expect(rated.map((r) => [r.account_id, r.source, r.score])).toEqual([[techId, 'repair', 5]]);
    const log = ok(await s.call('repairlog', { id }, steward)).items as Array<{ transition_ch: string; operator: string }>;
    expect(log.at(-1)).toMatchObject({ transition_ch: '自动评价', operator: '系统' });
  });

  it('hands round-robin tickets to a bound technician on duty', async () => {
    const shift = ok(await s.call('dutyshiftadd', { name: '全天班', times: '00:00-23:59' }, admin)).id;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    ok(
      await s.call(
        'scheduleadd',
        { name: '全天排班', kind: 'D', cycle: 1, start_date: yesterday, days: [shift], staff_ids: [tech2Id] },
        admin,
      ),
    );
    const id = await ticket({ type_id: types.rr, hid: undefined, place: '地库' });
    await runClock();
    expect(await info(id)).toMatchObject({ status: 'A', handler_id: tech2Id });
    const log = ok(await s.call('repairlog', { id }, steward)).items as Array<{ transition_ch: string }>;
    expect(log.at(-1)!.transition_ch).toBe('轮派');
  });
});

describe('the repair list', () => {
  it('filters, counts per state, shows my tickets and exports', async () => {
    const id = await dispatched({ reporter: '列表测试人', phone: '13700001111' });
    const all = ok(await s.call('repairlist', { limit: 200 }, steward));
    expect(all.counts.all).toBe(all.total);
    const w = ok(await s.call('repairlist', { status: 'A', limit: 200 }, steward));
    expect(w.total).toBe(all.counts.A);
    expect(
      ok(await s.call('repairlist', { reporter: '列表测试', phone: '0001111' }, steward)).items.map((i: { id: number }) => i.id),
    ).toEqual([id]);
    const mine = ok(await s.call('repairlist', { mine: 'todo', limit: 200 }, tech));
    expect(mine.items.every((i: { mine: boolean }) => i.mine)).toBe(true);
    expect(mine.items.map((i: { id: number }) => i.id)).toContain(id);
    expect(ok(await s.call('repairlist', { mine: 'todo' }, tech2)).items.map((i: { id: number }) => i.id)).not.toContain(id);
    expect(
      ok(await s.call('repairlist', { type_id: types.grab, limit: 200 }, steward)).items.every(
        (i: { type_id: number }) => i.type_id === types.grab,
      ),
    ).toBe(true);
    expect(ok(await s.call('repairlist', {}, admin2)).items.every((i: { id: number }) => i.id !== id)).toBe(true);
    const file = await s.exportFile('repairexport', { reporter: '列表测试' }, steward);
    const sheet = await readXlsx(ok(file).content_base64);
    expect(sheet.headers).toContain('工单号');
    expect(sheet.rows).toHaveLength(1);
  });
});
