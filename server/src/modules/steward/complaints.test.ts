import { complaintCategory } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { enqueueJob } from '../../jobs/queue.js';
import { COMPLAINT_CLOCK } from './complaintsJobs.js';
import { readXlsx } from '../../lib/excel.js';

let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let tech: string;
let cashier: string;
let techId: number;
let stewardId: number;
let categoryId: number;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, steward, tech, cashier] = await s.logins('admin', 'admin2', 'steward', 'tech', 'cashier');
  const accounts = await s.database.db
    .selectFrom('accounts')
    .select(['id', 'username'])
    .where('username', 'in', ['tech', 'steward'])
    .execute();
  techId = accounts.find((a) => a.username === 'tech')!.id;
  stewardId = accounts.find((a) => a.username === 'steward')!.id;
  const cats = (await s.call('complaintcategory_small_list', {}, steward)).data.items as Array<{ id: number; title: string }>;
  categoryId = cats.find((c) => c.title === '环境卫生')!.id;
});
afterAll(() => s.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

describeResource(complaintCategory, {
  server: () => s,
  sample: { name: '测试分类', respond_hours: 3, close_hours: 24, sort: 9, status: 'Y', remark: '试用' },
  edit: { name: '测试分类二', respond_hours: 4, close_hours: 30, status: 'N' },
  filters: { name: '测试', status: 'Y' },
  deniedWriter: 'tech',
  unique: ['name'],
});

async function register(token = steward, extra: Record<string, unknown> = {}) {
  const room = await s.database.db.selectFrom('rooms').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
  const res = await s.call(
    'complaintadd',
    {
      kind: 'C',
      category_id: categoryId,
      hid: room.id,
      contact: '张女士',
      phone: '13912345678',
      content: '垃圾桶满了没人清理',
      photos: [],
      ...extra,
    },
    token,
  );
  ok(res);
  return res.data.id as number;
}

const row = async (id: number, token = steward) => (await s.call('complaintinfo', { id }, token)).data;

describe('complaint categories', () => {
  it('refuses a close deadline shorter than the first response, and deleting a category in use', async () => {
    const res = await s.call('complaintcategoryadd', { name: '时限测试', respond_hours: 10, close_hours: 5 }, steward);
    expect(res.return_msg).toContain('办结时限不能短于首次响应时限');
    expect((await s.call('complaintcategorydel', { id: categoryId }, steward)).return_msg).toBe('该分类下已有投诉，不能删除，可改为停用');
  });
  it('another community does not see the category', async () => {
    expect(
      (await s.call('complaintcategoryedit', { id: categoryId, name: 'x', respond_hours: 1, close_hours: 2 }, admin2)).return_msg,
    ).toBe('投诉分类不存在');
  });
});

describe('complaint registration', () => {
  it('registers with deadlines from the category, waits 待受理 and raises a to-do for the desk', async () => {
    const id = await register();
    const r = await row(id);
    expect(r.status).toBe('W');
    expect(r.status_ch).toBe('待受理');
    expect(r.no).toBe(`TS${String(id).padStart(6, '0')}`);
    const created = new Date(`${r.create_time.replace(' ', 'T')}+08:00`).getTime();
    expect(new Date(`${r.respond_deadline.replace(' ', 'T')}+08:00`).getTime() - created).toBe(2 * 3600_000);
    expect(new Date(`${r.close_deadline.replace(' ', 'T')}+08:00`).getTime() - created).toBe(48 * 3600_000);
    const todo = await s.database.db
      .selectFrom('backlog')
      .selectAll()
      .where('rid', '=', 1)
      .where('kind', '=', 'complaint')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('E');
    expect(todo.roles).toEqual(['steward']);
    expect(r.log.map((l: { transition_ch: string }) => l.transition_ch)).toEqual(['提交']);
  });

  it('refuses bad payloads, a disabled or another community category, another community room, and the wrong role', async () => {
    const base = { kind: 'C', category_id: categoryId, contact: '张', phone: '13912345678', content: '内容' };
    expect((await s.call('complaintadd', { ...base, phone: '123' }, steward)).return_msg).toContain('请输入正确的联系电话');
    expect((await s.call('complaintadd', { ...base, content: '' }, steward)).return_msg).toContain('请输入内容');
    expect((await s.call('complaintadd', { ...base, kind: 'Z' }, steward)).return_code).toBe('FAIL');
    expect((await s.call('complaintadd', { ...base, photos: ['http://evil/x.png'] }, steward)).return_msg).toContain('图片地址无效');
    const other = await s.database.db.selectFrom('complaint_categories').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    expect((await s.call('complaintadd', { ...base, category_id: other.id }, steward)).return_msg).toBe('投诉分类不存在');
    const room2 = await s.database.db.selectFrom('rooms').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    expect((await s.call('complaintadd', { ...base, hid: room2.id }, steward)).return_msg).toBe('所选房屋不存在或不属于当前小区');
    const off = await s.call('complaintcategoryadd', { name: '停用分类', respond_hours: 1, close_hours: 2, status: 'N' }, steward);
    expect((await s.call('complaintadd', { ...base, category_id: off.data.id }, steward)).return_msg).toBe(
      '投诉分类“停用分类”已停用，请选择其他分类',
    );
    expect((await s.call('complaintadd', base, tech)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complaintadd', base, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complaintlist', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });
});

describe('the complaint workflow', () => {
  it('accept with a handler → reply and note (events) → finish with a note → rate → 已完成, each on the timeline', async () => {
    const id = await register();
    // the tech sees nothing until it is handed to them
    expect((await s.call('complaintinfo', { id }, tech)).return_msg).toBe('投诉不存在');
    expect((await s.call('complaintaccept', { id, handler_id: 999999 }, steward)).return_msg).toBe(
      '所选处理人不存在、已停用或没有处理投诉的权限',
    );
    const cashierId = (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'cashier').executeTakeFirstOrThrow())
      .id;
    expect((await s.call('complaintaccept', { id, handler_id: cashierId }, steward)).return_msg).toBe(
      '所选处理人不存在、已停用或没有处理投诉的权限',
    );
    expect((await s.call('complaintaccept', { id, handler_id: techId }, tech)).return_code).toBe('NO_PERMISSION');
    // not before it is accepted
    expect((await s.call('complaintfinish', { id, note: '好了' }, steward)).return_msg).toBe('该投诉已处理');
    const accepted = await s.call('complaintaccept', { id, handler_id: techId, remark: '请尽快处理' }, steward);
    ok(accepted);
    expect(accepted.data.status).toBe('D');
    expect(accepted.data.handler_name).toBe('孙师傅');
    expect(
      (
        await s.database.db
          .selectFrom('backlog')
          .select('status')
          .where('kind', '=', 'complaint')
          .where('source_id', '=', String(id))
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('Y');
    expect((await s.call('complaintaccept', { id, handler_id: techId }, steward)).return_msg).toBe('该投诉已处理');
    // now the tech sees it, among theirs only
    expect((await row(id, tech)).handler_id).toBe(techId);
    const techList = (await s.call('complaintlist', { limit: 200 }, tech)).data;
    expect(techList.items.every((c: { handler_id: number }) => c.handler_id === techId)).toBe(true);
    ok(await s.call('complaintreply', { id, content: '已安排保洁今天清运' }, tech));
    ok(await s.call('complaintnote', { id, content: '保洁班长已确认' }, tech));
    expect((await s.call('complaintreply', { id, content: '' }, tech)).return_msg).toContain('请填写回复内容');
    expect((await s.call('complaintfinish', { id, note: '' }, tech)).return_msg).toContain('请填写办结说明');
    expect((await row(id)).status).toBe('D');
    const finished = await s.call('complaintfinish', { id, note: '已清运并消毒' }, tech);
    ok(finished);
    expect(finished.data.status).toBe('E');
    // the rating is the desk's
    expect((await s.call('complaintrate', { id, rating: 5 }, tech)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complaintrate', { id, rating: 6 }, steward)).return_code).toBe('FAIL');
    expect((await s.call('complaintclose', { id, reason: 'invalid' }, steward)).return_msg).toBe('该投诉已处理');
    const rated = await s.call('complaintrate', { id, rating: 4, rating_text: '还不错' }, steward);
    ok(rated);
    expect(rated.data).toMatchObject({ status: 'Y', status_ch: '已完成', rating: 4, rating_text: '还不错', rated_auto: false });
    const log = (await s.call('complaintlog', { id }, steward)).data.items as Array<{
      transition_ch: string;
      input: Record<string, unknown>;
    }>;
    expect(log.map((l) => l.transition_ch)).toEqual(['提交', '受理', '回复业主', '内部备注', '办结', '评价']);
    expect(log[1]!.input.handler_id).toBe('孙师傅');
    expect(log[2]!.input.content).toBe('已安排保洁今天清运');
  });

  it('another handler may not act on a complaint that is not theirs; another community answers 不存在', async () => {
    const id = await register();
    ok(await s.call('complaintaccept', { id, handler_id: stewardId }, steward));
    expect((await s.call('complaintreply', { id, content: 'x' }, tech)).return_msg).toBe('只有该投诉的处理人或管家可以处理');
    for (const [method, payload] of [
      ['complaintinfo', { id }],
      ['complaintreply', { id, content: 'x' }],
      ['complaintfinish', { id, note: 'x' }],
      ['complaintclose', { id, reason: 'invalid' }],
      ['complaintlog', { id }],
    ] as const) {
      expect((await s.call(method, payload, admin2)).return_msg, method).toBe('投诉不存在');
    }
    expect((await row(id)).status).toBe('D');
  });

  it('closes as invalid or duplicate from 待受理 and 处理中, never afterwards; a cashier may not', async () => {
    const a = await register();
    expect((await s.call('complaintclose', { id: a, reason: 'other' }, steward)).return_code).toBe('FAIL');
    expect((await s.call('complaintclose', { id: a, reason: 'invalid' }, cashier)).return_code).toBe('NO_PERMISSION');
    const closed = await s.call('complaintclose', { id: a, reason: 'duplicate', note: '同 TS000001' }, steward);
    ok(closed);
    expect(closed.data).toMatchObject({ status: 'X', close_reason: 'duplicate', close_reason_ch: '重复' });
    expect((await s.call('complaintclose', { id: a, reason: 'invalid' }, steward)).return_msg).toBe('该投诉已处理');
    const b = await register();
    ok(await s.call('complaintaccept', { id: b, handler_id: techId }, steward));
    ok(await s.call('complaintclose', { id: b, reason: 'invalid' }, admin));
  });

  it('anonymous: the handler without the desk rights sees 匿名; the desk and admin see the name', async () => {
    const id = await register(steward, { anonymous: true, contact: '秘密先生', phone: '13700000001' });
    ok(await s.call('complaintaccept', { id, handler_id: techId }, steward));
    expect(await row(id, tech)).toMatchObject({ contact: '匿名', phone: '', anonymous: true });
    expect(await row(id, steward)).toMatchObject({ contact: '秘密先生', phone: '13700000001' });
    expect((await row(id, admin)).contact).toBe('秘密先生');
    // nor can the handler find it by phone
    expect((await s.call('complaintlist', { phone: '13700000001' }, tech)).data.total).toBe(0);
    expect((await s.call('complaintlist', { phone: '13700000001' }, steward)).data.total).toBe(1);
  });
});

describe('the list', () => {
  it('filters narrow, and counts per state and 超时 come with it', async () => {
    const id = await register(steward, { kind: 'S', phone: '13611112222' });
    const find = async (f: Record<string, unknown>) =>
      ((await s.call('complaintlist', { limit: 200, ...f }, steward)).data.items as Array<{ id: number }>).some((c) => c.id === id);
    expect(await find({ no: `TS${String(id).padStart(6, '0')}` })).toBe(true);
    expect(await find({ no: String(id + 100000) })).toBe(false);
    expect(await find({ no: 'abc' })).toBe(false);
    expect(await find({ kind: 'S' })).toBe(true);
    expect(await find({ kind: 'C' })).toBe(false);
    expect(await find({ category_id: categoryId })).toBe(true);
    expect(await find({ status: 'W' })).toBe(true);
    expect(await find({ status: 'D' })).toBe(false);
    expect(await find({ phone: '1111222' })).toBe(true);
    expect(await find({ overdue: 'Y' })).toBe(false);
    expect(await find({ overdue: 'N' })).toBe(true);
    expect(await find({ handler_id: techId })).toBe(false);
    const day = (await row(id)).create_time.slice(0, 10);
    expect(await find({ created: [day, day] })).toBe(true);
    expect(await find({ created: ['2020-01-01', '2020-01-02'] })).toBe(false);
    const list = (await s.call('complaintlist', {}, steward)).data;
    const c = list.counts;
    expect(c.all).toBe(c.W + c.D + c.E + c.Y + c.X);
    expect(c.all).toBe(list.total);
    expect(c.overdue).toBeGreaterThan(0); // the demo's
    expect((await s.call('complaintlist', { created: ['2026-13-01', '2026-13-02'] }, steward)).return_code).toBe('FAIL');
  });

  it('exports with the filters (the desk only)', async () => {
    const res = await s.exportFile('complaintexport', { status: 'Y' }, steward);
    ok(res);
    expect((await s.call('complaintexport', {}, tech)).return_code).toBe('NO_PERMISSION');
  });
});

describe('the clock', () => {
  it('marks each missed deadline once, logs it, puts it on the to-do list; rates silent ones after 48 h', async () => {
    const late = await register();
    const rating = await register();
    ok(await s.call('complaintaccept', { id: rating, handler_id: techId }, steward));
    ok(await s.call('complaintfinish', { id: rating, note: '处理好了' }, tech));
    const db = s.database.db;
    await db
      .updateTable('complaints')
      .set({ respond_deadline: sql<Date>`now() - interval '1 minute'`, close_deadline: sql<Date>`now() - interval '1 minute'` })
      .where('rid', '=', 1)
      .where('id', '=', late)
      .execute();
    await db
      .updateTable('complaints')
      .set({ finished_at: sql<Date>`now() - interval '49 hours'` })
      .where('rid', '=', 1)
      .where('id', '=', rating)
      .execute();
    // a complaint accepted in time and still within its close deadline is not late
    for (let i = 0; i < 2; i++) {
      await enqueueJob(db, { rid: null, kind: COMPLAINT_CLOCK, payload: {}, createdBy: null });
      await s.runJobs();
    }
    const r = await row(late);
    expect(r).toMatchObject({ overdue: true, respond_overdue: true, close_overdue: true, status: 'W' });
    const steps = r.log.map((l: { transition: string }) => l.transition);
    expect(steps.filter((t: string) => t === 'respond_overdue')).toHaveLength(1);
    expect(steps.filter((t: string) => t === 'close_overdue')).toHaveLength(1);
    const todo = await db
      .selectFrom('backlog')
      .selectAll()
      .where('kind', '=', 'complaint')
      .where('source_id', '=', String(late))
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('E');
    expect(todo.title).toContain('超时');
    expect(
      (await s.call('complaintlist', { overdue: 'Y', limit: 200 }, steward)).data.items.some((c: { id: number }) => c.id === late),
    ).toBe(true);
    const auto = await row(rating);
    expect(auto).toMatchObject({ status: 'Y', rating: 5, rated_auto: true });
    expect(auto.log.at(-1).transition_ch).toBe('系统默认好评');
  });
});

describe('turning a complaint into a repair ticket', () => {
  async function repairInput() {
    const db = s.database.db;
    const type = await db
      .selectFrom('repair_types')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .where('area', '=', 'H')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const room = await db.selectFrom('rooms').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    return { source: 'D', type_id: Number(type.id), hid: Number(room.id), reporter: '张女士', phone: '13912345678', content: '楼道灯坏了' };
  }

  it('from 待受理: makes the ticket once, both linked, accepts the complaint, logs it; a second time is refused', async () => {
    const id = await register();
    const repair = await repairInput();
    const res = await s.call('complainttorepair', { id, repair }, steward);
    ok(res);
    expect(res.return_msg).toBe(`已转为报修单 ${res.data.repair_no}`);
    expect(res.data).toMatchObject({ status: 'D', handler_id: stewardId, handler_name: '钱管家' });
    const repairId = res.data.repair_id as number;
    expect(repairId).toBeGreaterThan(0);
    const ticket = await s.database.db
      .selectFrom('repair_tickets')
      .select(['complaint_id', 'no', 'content', 'status'])
      .where('rid', '=', 1)
      .where('id', '=', repairId)
      .executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({ complaint_id: id, no: res.data.repair_no, content: '楼道灯坏了' });
    expect((await s.call('repairinfo', { id: repairId }, steward)).data.complaint_id).toBe(id);
    const r = await row(id);
    expect(r.repair_id).toBe(repairId);
    expect(r.log.at(-1)).toMatchObject({ transition_ch: '转为报修单', from_state: 'W', to_state: 'D', input: { repair_no: ticket.no } });
    // its to-do is settled as by an acceptance
    expect(
      (
        await s.database.db
          .selectFrom('backlog')
          .select('status')
          .where('kind', '=', 'complaint')
          .where('source_id', '=', String(id))
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('Y');
    const again = await s.call('complainttorepair', { id, repair }, steward);
    expect(again.return_msg).toBe(`该投诉已转为报修单 ${ticket.no}，不能重复转`);
    const count = await s.database.db
      .selectFrom('repair_tickets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('complaint_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it('from 处理中 keeps the handler; refused when finished or closed, for a wrong role, another community, a bad payload', async () => {
    const repair = await repairInput();
    const doing = await register();
    ok(await s.call('complaintaccept', { id: doing, handler_id: techId }, steward));
    const res = await s.call('complainttorepair', { id: doing, repair }, steward);
    ok(res);
    expect(res.data).toMatchObject({ status: 'D', handler_id: techId });

    const finished = await register();
    ok(await s.call('complaintaccept', { id: finished, handler_id: techId }, steward));
    ok(await s.call('complaintfinish', { id: finished, note: '已处理' }, tech));
    expect((await s.call('complainttorepair', { id: finished, repair }, steward)).return_msg).toBe(
      '投诉待评价，只有待受理或处理中的投诉可以转为报修单',
    );
    const closed = await register();
    ok(await s.call('complaintclose', { id: closed, reason: 'duplicate' }, steward));
    expect((await s.call('complainttorepair', { id: closed, repair }, steward)).return_msg).toBe(
      '投诉已关闭，只有待受理或处理中的投诉可以转为报修单',
    );

    const waiting = await register();
    expect((await s.call('complainttorepair', { id: waiting, repair }, tech)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complainttorepair', { id: waiting, repair }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complainttorepair', { id: waiting, repair }, admin2)).return_msg).toBe('投诉不存在');
    expect((await s.call('complainttorepair', { id: waiting, repair: { ...repair, phone: '123' } }, steward)).return_msg).toContain(
      '11位手机号',
    );
    expect((await s.call('complainttorepair', { id: waiting, repair: { ...repair, type_id: 999999 } }, steward)).return_msg).toBe(
      '报修类型不存在',
    );
    const before = await s.database.db
      .selectFrom('repair_tickets')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(await row(waiting)).toMatchObject({ status: 'W', repair_id: null });
    expect(before.n).toBeGreaterThan(0);
  });
});

describe('ratings feed the handler’s service score', () => {
  it('complaintrate and the automatic rating record a complaint rating for the handler', async () => {
    const db = s.database.db;
    const rated = await register();
    ok(await s.call('complaintaccept', { id: rated, handler_id: techId }, steward));
    ok(await s.call('complaintfinish', { id: rated, note: '已处理' }, tech));
    ok(await s.call('complaintrate', { id: rated, rating: 3, rating_text: '一般' }, steward));
    const silent = await register();
    ok(await s.call('complaintaccept', { id: silent, handler_id: stewardId }, steward));
    ok(await s.call('complaintfinish', { id: silent, note: '已处理' }, steward));
    await db
      .updateTable('complaints')
      .set({ finished_at: sql<Date>`now() - interval '49 hours'` })
      .where('rid', '=', 1)
      .where('id', '=', silent)
      .execute();
    await enqueueJob(db, { rid: null, kind: COMPLAINT_CLOCK, payload: {}, createdBy: null });
    await s.runJobs();
    const ratings = await db
      .selectFrom('service_ratings')
      .select(['source_id', 'account_id', 'score'])
      .where('rid', '=', 1)
      .where('source', '=', 'complaint')
      .where('source_id', 'in', [rated, silent])
      .orderBy('source_id')
      .execute();
    expect(ratings.map((r) => [Number(r.source_id), Number(r.account_id), r.score])).toEqual([
      [rated, techId, 3],
      [silent, stewardId, 5],
    ]);
  });
});

describe('投诉统计 (complaintcount)', () => {
  const period = { start_date: '2020-03-01', end_date: '2020-03-31' };
  /** moves a registered complaint into March 2020 with its handling, hours after `at` (UTC) */
  async function placed(
    id: number,
    at: string,
    v: { accepted?: number; finished?: number; handler?: number; rating?: number; respondLate?: boolean; closeLate?: boolean },
  ) {
    const h = (n: number) => sql<Date>`${at}::timestamptz + make_interval(hours => ${n})`;
    const status = v.rating ? 'Y' : v.finished !== undefined ? 'E' : v.accepted !== undefined ? 'D' : 'W';
    await s.database.db
      .updateTable('complaints')
      .set({
        created_at: h(0),
        respond_deadline: h(2),
        close_deadline: h(72),
        status,
        handler_id: v.handler ?? null,
        handler_name: v.handler === techId ? '孙师傅' : v.handler === stewardId ? '钱管家' : '',
        accepted_at: v.accepted !== undefined ? h(v.accepted) : null,
        finished_at: v.finished !== undefined ? h(v.finished) : null,
        rating: v.rating ?? null,
        rated_at: v.rating ? h(80) : null,
        respond_overdue_at: v.respondLate ? h(2) : null,
        close_overdue_at: v.closeLate ? h(72) : null,
      })
      .where('rid', '=', 1)
      .where('id', '=', id)
      .execute();
  }

  it('counts a period by type, category and handler with exact figures, in the business time zone', async () => {
    const cats = (await s.call('complaintcategory_small_list', {}, steward)).data.items as Array<{ id: number; title: string }>;
    const other = cats.find((c) => c.id !== categoryId)!;
    const a = await register();
    const b = await register();
    const c = await register(steward, { kind: 'S', category_id: other.id });
    const d = await register(steward, { kind: 'Q', category_id: other.id });
    const before = await register();
    const after = await register();
    // 2020-03-01 00:10 in Shanghai is still February in UTC: counted; 2020-02-29 23:30 there is not
    await placed(a, '2020-02-29T16:10:00Z', { accepted: 1, finished: 10, handler: techId, rating: 5 });
    await placed(b, '2020-03-10T02:00:00Z', { accepted: 3, finished: 20, handler: techId, rating: 3, respondLate: true });
    await placed(c, '2020-03-15T02:00:00Z', { accepted: 2, handler: stewardId });
    await placed(d, '2020-03-31T15:00:00Z', { closeLate: true, respondLate: true });
    await placed(before, '2020-02-29T15:30:00Z', { accepted: 1, finished: 2, handler: techId, rating: 1 });
    await placed(after, '2020-03-31T16:00:00Z', {});

    const res = await s.call('complaintcount', period, steward);
    ok(res);
    const r = res.data;
    expect(r.totals).toEqual({
      key: 'all',
      label: '合计',
      created: 4,
      finished: 2,
      on_time: 1,
      overdue: 2,
      avg_response_hours: '2.0',
      avg_close_hours: '15.0',
      rated: 2,
      avg_rating: '4.00',
      satisfaction_rate: '50.0',
    });
    const brief = (rows: Array<Record<string, unknown>>) =>
      rows.map((x) => [
        x.label,
        x.created,
        x.finished,
        x.on_time,
        x.overdue,
        x.avg_response_hours,
        x.avg_close_hours,
        x.avg_rating,
        x.satisfaction_rate,
      ]);
    expect(brief(r.by_kind)).toEqual([
      ['投诉', 2, 2, 1, 1, '2.0', '15.0', '4.00', '50.0'],
      ['建议', 1, 0, 0, 0, '2.0', null, null, null],
      ['咨询', 1, 0, 0, 1, null, null, null, null],
    ]);
    const byLabel = (x: unknown[], y: unknown[]) => String(x[0]).localeCompare(String(y[0]));
    expect(brief(r.by_category).sort(byLabel)).toEqual(
      [
        ['环境卫生', 2, 2, 1, 1, '2.0', '15.0', '4.00', '50.0'],
        [other.title, 2, 0, 0, 1, '2.0', null, null, null],
      ].sort(byLabel),
    );
    expect(brief(r.by_handler)).toEqual([
      ['孙师傅', 2, 2, 1, 1, '2.0', '15.0', '4.00', '50.0'],
      ['钱管家', 1, 0, 0, 0, '2.0', null, null, null],
      ['未受理', 1, 0, 0, 1, null, null, null, null],
    ]);
    // the same figures in the export
    const file = await s.exportFile('complaintcountexport', period, steward);
    ok(file);
    expect(file.data.filename).toBe('投诉统计_2020-03-01_2020-03-31.xlsx');
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers.slice(0, 4)).toEqual(['维度', '名称', '登记', '办结']);
    expect(sheet.rows.at(-1)!.values).toMatchObject({
      维度: '合计',
      登记: '4',
      办结: '2',
      按时办结: '1',
      超时: '2',
      '满意率（%）': '50.0',
    });
  });

  it('refuses the wrong roles, a reversed or too long period; another community counts its own', async () => {
    expect((await s.call('complaintcount', period, tech)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complaintcount', period, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complaintcountexport', period, tech)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('complaintcount', { start_date: '2020-03-31', end_date: '2020-03-01' }, steward)).return_msg).toContain(
      '开始日期不能晚于结束日期',
    );
    expect((await s.call('complaintcount', { start_date: '2019-01-01', end_date: '2020-03-31' }, steward)).return_msg).toBe(
      '统计区间不能超过 366 天',
    );
    const theirs = await s.call('complaintcount', period, admin2);
    ok(theirs);
    expect(theirs.data.totals.created).toBe(0);
    expect(theirs.data.by_handler).toEqual([]);
  });
});
