import { addDays } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { INTERNAL_ORDER_RECUR } from './internalOrdersJobs.js';

let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let tech: string;
let cashier: string;
let techId: number;
let stewardId: number;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, steward, tech, cashier] = await s.logins('admin', 'admin2', 'steward', 'tech', 'cashier');
  const staff = (await s.call('internal_order_staff_small_list', {}, steward)).data.items as Array<{ id: number; name: string }>;
  techId = staff.find((a) => a.name === '孙师傅')!.id;
  stewardId = staff.find((a) => a.name === '钱管家')!.id;
});
afterAll(() => s.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

const sample = (extra: Record<string, unknown> = {}) => ({
  title: '更换路灯',
  kind: 'E',
  location: '南门',
  content: '两盏路灯不亮',
  handler_ids: [techId],
  cc_ids: [],
  items: ['更换灯泡', '测试亮灯'],
  due_hours: 4,
  photos: [],
  ...extra,
});

async function raise(extra: Record<string, unknown> = {}) {
  const res = await s.call('internalorderadd', sample(extra), steward);
  ok(res);
  return res.data.id as number;
}

const info = async (id: number, token = steward) => (await s.call('internalorderinfo', { id }, token)).data;

describe('one-off internal orders', () => {
  it('raises an order 待处理, due in N hours, with its checklist and a to-do', async () => {
    const id = await raise();
    const o = await info(id);
    expect(o).toMatchObject({
      status: 'P',
      status_ch: '待处理',
      handler_names: '孙师傅',
      item_total: 2,
      item_done: 0,
      recurrence: 'O',
      mine: true,
    });
    expect(o.items.map((i: { title: string }) => i.title)).toEqual(['更换灯泡', '测试亮灯']);
    const created = new Date(`${o.create_time.replace(' ', 'T')}+08:00`).getTime();
    expect(new Date(`${o.due_time.replace(' ', 'T')}+08:00`).getTime() - created).toBe(4 * 3600_000);
    const todo = await s.database.db
      .selectFrom('backlog')
      .selectAll()
      .where('kind', '=', 'internalorder')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('E');
  });

  it("puts its to-dos on the list of whom they are for: the only handler's, the creator's to accept; several handlers share one", async () => {
    const todo = async (id: number) =>
      s.database.db
        .selectFrom('backlog')
        .select(['account_id', 'status', 'title'])
        .where('kind', '=', 'internalorder')
        .where('source_id', '=', String(id))
        .executeTakeFirstOrThrow();
    const listed = async (token: string, id: number) =>
      (
        (await s.call('backlog_list', { status: 'E', kind: 'internalorder', limit: 200 }, token)).data.items as Array<{ source_id: string }>
      ).some((b) => b.source_id === String(id));
    const id = await raise({ items: [] });
    expect((await todo(id)).account_id).toBe(techId);
    expect(await listed(tech, id)).toBe(true);
    expect(await listed(steward, id)).toBe(false);
    expect(await listed(admin, id)).toBe(true);
    // edited to two handlers: for both (the desk's codes)
    ok(await s.call('internalorderedit', { ...sample({ items: [] }), id, handler_ids: [techId, stewardId] }, steward));
    expect((await todo(id)).account_id).toBeNull();
    expect(await listed(steward, id)).toBe(true);
    ok(await s.call('internalorderedit', { ...sample({ items: [] }), id }, steward));
    ok(await s.call('internalorderstart', { id }, tech));
    ok(await s.call('internalordersubmit', { id }, tech));
    // to accept: the creator's
    expect(await todo(id)).toMatchObject({ status: 'E', account_id: stewardId });
    expect(await listed(steward, id)).toBe(true);
    expect(await listed(tech, id)).toBe(false);
    ok(await s.call('internalorderreject', { id, note: '再看看' }, steward));
    expect((await todo(id)).account_id).toBe(techId);
  });

  it('refuses bad payloads, staff of another community, and the wrong role', async () => {
    expect((await s.call('internalorderadd', sample({ title: '' }), steward)).return_msg).toContain('请输入标题');
    expect((await s.call('internalorderadd', sample({ handler_ids: [] }), steward)).return_msg).toContain('请选择处理人');
    expect((await s.call('internalorderadd', sample({ due_hours: 0 }), steward)).return_code).toBe('FAIL');
    expect((await s.call('internalorderadd', sample({ items: [''] }), steward)).return_msg).toContain('检查项不能为空');
    const cashierId = (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'cashier').executeTakeFirstOrThrow())
      .id;
    expect((await s.call('internalorderadd', sample({ handler_ids: [cashierId] }), steward)).return_msg).toBe(
      '所选处理人不存在、已停用或没有内部工单权限',
    );
    const other = (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'admin2').executeTakeFirstOrThrow()).id;
    expect((await s.call('internalorderadd', sample({ cc_ids: [other] }), steward)).return_msg).toBe(
      '所选抄送人不存在、已停用或没有内部工单权限',
    );
    expect((await s.call('internalorderadd', sample(), cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('internalorderlist', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });

  it('待处理 → 处理中 → (tick every item) 待验收 → sent back → 待验收 → 已完成 with a score, each on the timeline', async () => {
    const id = await raise();
    // only a handler starts it
    expect((await s.call('internalorderstart', { id }, steward)).return_msg).toBe('只有该工单的处理人可以处理');
    expect((await s.call('internalordersubmit', { id }, tech)).return_msg).toBe('该工单已处理');
    const o0 = await info(id, tech);
    expect((await s.call('internalordercheck', { id, item_id: o0.items[0].id, done: true }, tech)).return_msg).toBe('请先开始处理工单');
    ok(await s.call('internalorderstart', { id }, tech));
    expect(
      (
        await s.database.db
          .selectFrom('backlog')
          .select('status')
          .where('kind', '=', 'internalorder')
          .where('source_id', '=', String(id))
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('Y');
    // not while an item is open
    expect((await s.call('internalordersubmit', { id }, tech)).return_msg).toBe('还有 2 个检查项未完成：更换灯泡、测试亮灯');
    const photo = '/files/1/0123456789abcdef0123456789abcdef.png';
    const c1 = await s.call('internalordercheck', { id, item_id: o0.items[0].id, done: true, photo }, tech);
    ok(c1);
    expect(c1.data.items[0]).toMatchObject({ done: true, photo, done_by: '孙师傅' });
    expect(
      (await s.call('internalordercheck', { id, item_id: o0.items[1].id, done: true, photo: 'http://x/y.png' }, tech)).return_msg,
    ).toContain('图片地址无效');
    expect((await s.call('internalordercheck', { id, item_id: 99999999, done: true }, tech)).return_msg).toBe('检查项不存在');
    expect((await s.call('internalordercheck', { id, item_id: o0.items[1].id, done: true }, steward)).return_msg).toBe(
      '只有该工单的处理人可以处理',
    );
    ok(await s.call('internalordercheck', { id, item_id: o0.items[1].id, done: true }, tech));
    const submitted = await s.call('internalordersubmit', { id, note: '已更换' }, tech);
    ok(submitted);
    expect(submitted.data.status).toBe('C');
    // only the creator accepts or sends back
    expect((await s.call('internalorderaccept', { id, score: 5 }, tech)).return_msg).toBe('只有发起人可以验收工单');
    expect((await s.call('internalorderreject', { id, note: '' }, steward)).return_msg).toContain('请填写退回原因');
    const back = await s.call('internalorderreject', { id, note: '第二盏还是不亮' }, steward);
    ok(back);
    expect(back.data).toMatchObject({ status: 'D', accept_note: '第二盏还是不亮' });
    expect(
      (
        await s.database.db
          .selectFrom('backlog')
          .select('status')
          .where('kind', '=', 'internalorder')
          .where('source_id', '=', String(id))
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('E');
    ok(await s.call('internalordersubmit', { id, note: '换了镇流器' }, tech));
    expect((await s.call('internalorderaccept', { id, score: 6 }, steward)).return_code).toBe('FAIL');
    const done = await s.call('internalorderaccept', { id, score: 4, note: '可以' }, steward);
    ok(done);
    expect(done.data).toMatchObject({ status: 'Y', status_ch: '已完成', score: 4 });
    expect((await s.call('internalorderclose', { id, note: 'x' }, steward)).return_msg).toBe('该工单已处理');
    const log = (await s.call('internalorderlog', { id }, tech)).data.items as Array<{ transition_ch: string }>;
    expect(log.map((l) => l.transition_ch)).toEqual([
      '提交',
      '开始处理',
      '勾选检查项',
      '勾选检查项',
      '提交验收',
      '退回',
      '提交验收',
      '验收通过',
    ]);
  });

  it('edits only while 待处理 and only by its creator; closes with a reason', async () => {
    const id = await raise();
    expect((await s.call('internalorderedit', { id, ...sample({ title: '改' }) }, tech)).return_msg).toBe('只有发起人可以修改工单');
    const edited = await s.call(
      'internalorderedit',
      { id, ...sample({ title: '更换南门路灯', items: ['一', '二', '三'], handler_ids: [techId, stewardId] }) },
      steward,
    );
    ok(edited);
    expect(edited.data).toMatchObject({ title: '更换南门路灯', item_total: 3, handler_names: '钱管家、孙师傅' });
    ok(await s.call('internalorderstart', { id }, tech));
    expect((await s.call('internalorderedit', { id, ...sample() }, steward)).return_msg).toBe('工单已开始处理，不能修改');
    expect((await s.call('internalorderclose', { id, note: '' }, steward)).return_msg).toContain('请填写关闭原因');
    expect((await s.call('internalorderclose', { id, note: '重复' }, tech)).return_msg).toBe('只有发起人可以关闭工单');
    const closed = await s.call('internalorderclose', { id, note: '重复工单' }, steward);
    ok(closed);
    expect(closed.data.status).toBe('X');
  });

  it('another community answers 不存在 for every method', async () => {
    const id = await raise();
    for (const [method, payload] of [
      ['internalorderinfo', { id }],
      ['internalorderedit', { id, ...sample() }],
      ['internalorderstart', { id }],
      ['internalordercheck', { id, item_id: 1, done: true }],
      ['internalorderclose', { id, note: 'x' }],
      ['internalorderlog', { id }],
    ] as const) {
      expect((await s.call(method, payload, admin2)).return_msg, method).toBe('工单不存在');
    }
    expect((await info(id)).status).toBe('P');
  });

  it('lists with filters, my orders, overdue and counts; exports', async () => {
    const id = await raise({ title: '独特标题九九' });
    const find = async (f: Record<string, unknown>, token = steward) =>
      ((await s.call('internalorderlist', { limit: 200, ...f }, token)).data.items as Array<{ id: number }>).some((o) => o.id === id);
    expect(await find({ title: '独特标题' })).toBe(true);
    expect(await find({ kind: 'E' })).toBe(true);
    expect(await find({ kind: 'C' })).toBe(false);
    expect(await find({ status: 'P' })).toBe(true);
    expect(await find({ handler_id: techId })).toBe(true);
    expect(await find({ handler_id: stewardId })).toBe(false);
    expect(await find({ mine: 'handle' }, tech)).toBe(true);
    expect(await find({ mine: 'handle' }, steward)).toBe(false);
    expect(await find({ mine: 'created' }, steward)).toBe(true);
    expect(await find({ overdue: 'Y' })).toBe(false);
    await s.database.db
      .updateTable('internal_orders')
      .set({ due_at: sql<Date>`now() - interval '1 minute'` })
      .where('rid', '=', 1)
      .where('id', '=', id)
      .execute();
    expect(await find({ overdue: 'Y' })).toBe(true);
    expect((await info(id)).overdue).toBe(true);
    const list = (await s.call('internalorderlist', {}, steward)).data;
    expect(list.counts.all).toBe(list.total);
    expect(list.counts.overdue).toBeGreaterThan(0);
    ok(await s.exportFile('internalorderexport', { status: 'P' }, steward));
    expect((await s.call('internalorderexport', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });
});

describe('recurring internal orders', () => {
  it("a daily template makes today's order at once and each later day once, never twice; stopping ends it", async () => {
    const res = await s.call('internalorderadd', sample({ title: '每日巡检测试', recurrence: 'D' }), steward);
    ok(res);
    const templateId = res.data.template_id as number;
    expect(res.data.id).toBeGreaterThan(0);
    const db = s.database.db;
    const occurrences = async () =>
      (
        await db
          .selectFrom('internal_orders')
          .select(sql<string>`to_char(occurs_on, 'YYYY-MM-DD')`.as('day'))
          .where('template_id', '=', templateId)
          .orderBy('occurs_on')
          .execute()
      ).map((r) => r.day);
    expect(await occurrences()).toEqual([today()]);
    // the job run again today makes nothing
    await enqueueJob(db, { rid: null, kind: INTERNAL_ORDER_RECUR, payload: {}, createdBy: null });
    await s.runJobs();
    expect(await occurrences()).toEqual([today()]);
    // two days later (the template's next day moved back): yesterday's and today's, once each
    await db
      .updateTable('internal_order_templates')
      .set({ next_on: addDays(today(), -1) })
      .where('id', '=', templateId)
      .execute();
    await db.deleteFrom('internal_orders').where('template_id', '=', templateId).where('occurs_on', '=', today()).execute();
    for (let i = 0; i < 2; i++) {
      await enqueueJob(db, { rid: null, kind: INTERNAL_ORDER_RECUR, payload: {}, createdBy: null });
      await s.runJobs();
    }
    expect(await occurrences()).toEqual([addDays(today(), -1), today()]);
    const tpl = (await s.call('internalordertemplatelist', { limit: 200 }, steward)).data.items.find(
      (t: { id: number }) => t.id === templateId,
    );
    expect(tpl).toMatchObject({ recurrence: 'D', recurrence_ch: '每天', next_on: addDays(today(), 1), status: 'Y', occurrences: 2 });
    const made = (await s.call('internalorderlist', { template_id: templateId }, tech)).data.items as Array<{
      item_total: number;
      handler_names: string;
      status: string;
    }>;
    expect(made.every((o) => o.item_total === 2 && o.handler_names === '孙师傅' && o.status === 'P')).toBe(true);
    // stop: by its creator only
    expect((await s.call('internalordertemplatestop', { id: templateId }, tech)).return_msg).toBe('只有发起人可以停止周期工单');
    expect((await s.call('internalordertemplatestop', { id: templateId }, admin2)).return_msg).toBe('周期工单不存在');
    const stopped = await s.call('internalordertemplatestop', { id: templateId }, steward);
    ok(stopped);
    expect(stopped.data.status).toBe('N');
    expect((await s.call('internalordertemplatestop', { id: templateId }, steward)).return_msg).toBe('该周期工单已停止');
    await db.updateTable('internal_order_templates').set({ next_on: today() }).where('id', '=', templateId).execute();
    await db.deleteFrom('internal_orders').where('template_id', '=', templateId).where('occurs_on', '=', today()).execute();
    await enqueueJob(db, { rid: null, kind: INTERNAL_ORDER_RECUR, payload: {}, createdBy: null });
    await s.runJobs();
    expect(await occurrences()).toEqual([addDays(today(), -1)]);
  });

  it('a weekly template starting later waits; a start in the past is refused', async () => {
    const later = addDays(today(), 3);
    const res = await s.call('internalorderadd', sample({ title: '周检测试', recurrence: 'W', start_date: later }), admin);
    ok(res);
    expect(res.data.id).toBe(0);
    expect(res.return_msg).toContain(`将于 ${later} 起生成`);
    expect((await s.call('internalorderadd', sample({ recurrence: 'M', start_date: addDays(today(), -1) }), steward)).return_msg).toBe(
      '开始日期不能早于今天',
    );
    expect((await s.call('internalorderadd', sample({ recurrence: 'O', start_date: later }), steward)).return_msg).toContain(
      '一次性工单不需要开始日期',
    );
  });
});
