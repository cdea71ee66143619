import { addDays, careAffair, GROUP_AFFAIR_MAX, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
let sales: string;
let cashier: string;
let leasing: string;
let salesId = 0;
let adminId = 0;
let cashierId = 0;
/** a customer in care of 阳光花园 */
let customerId = 0;
let customerName = '';
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const db = () => s.database.db;

const toDo = (id: number) =>
  db()
    .selectFrom('backlog')
    .selectAll()
    .where('rid', '=', 1)
    .where('kind', '=', 'careaffair')
    .where('source_id', '=', String(id))
    .executeTakeFirst();

const affairCount = async () =>
  Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM care_affairs WHERE rid = 1`.execute(db())).rows[0]!.n);

async function addAffair(v: Record<string, unknown> = {}, token = admin): Promise<number> {
  const res = await s.call(
    'affairadd',
    { customer_id: customerId, kind: 'call', due_date: addDays(today(), 2), assignee_id: salesId, content: '回访', ...v },
    token,
  );
  ok(res);
  return res.data.id;
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, sales, cashier, leasing] = await s.logins('admin', 'admin2', 'sales', 'cashier', 'leasing');
  const accounts = await db()
    .selectFrom('accounts')
    .select(['id', 'username'])
    .where('username', 'in', ['admin', 'sales', 'cashier'])
    .execute();
  salesId = accounts.find((a) => a.username === 'sales')!.id;
  adminId = accounts.find((a) => a.username === 'admin')!.id;
  cashierId = accounts.find((a) => a.username === 'cashier')!.id;
  const c = await db()
    .selectFrom('care_customers')
    .select(['id', 'realname'])
    .where('rid', '=', 1)
    .where('status', '=', 'Y')
    .where('member_id', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  customerId = c.id;
  customerName = c.realname;
});
afterAll(() => s?.close());

describeResource(careAffair, {
  server: () => s,
  sample: () => ({ customer_id: customerId, kind: 'call', due_date: addDays(today(), 3), assignee_id: salesId, content: '测试回访电话' }),
  edit: { kind: 'visit', content: '改为上门探访' },
  filters: {
    get keyword() {
      return customerName;
    },
    status: 'P',
    late: 'N',
    due_range: [addDays(today(), 3), addDays(today(), 3)],
  },
  deniedWriter: 'leasing',
});

describe('an affair and its to-do', () => {
  it('raises the to-do for the assignee, moves it with the assignee, and settles it when done', async () => {
    const id = await addAffair();
    let item = await toDo(id);
    expect(item).toMatchObject({ status: 'E', account_id: salesId, link: `/crm/affair?id=${id}`, title: `回访电话：${customerName}` });
    // the assignee sees it on the to-do list, another care holder only when it is theirs
    const mine = await s.call('backlog_list', { limit: 200 }, sales);
    ok(mine);
    expect(mine.data.items.some((b: { source_id: string; kind: string }) => b.kind === 'careaffair' && b.source_id === String(id))).toBe(
      true,
    );
    ok(await s.call('affairedit', { id, kind: 'call', due_date: addDays(today(), 5), assignee_id: adminId, content: '回访' }, admin));
    item = await toDo(id);
    expect(item).toMatchObject({ status: 'E', account_id: adminId });
    const mineNow = await s.call('backlog_list', { limit: 200 }, sales);
    expect(mineNow.data.items.some((b: { source_id: string; kind: string }) => b.kind === 'careaffair' && b.source_id === String(id))).toBe(
      false,
    );
    const done = await s.call('affairdone', { id, result: '已回访，满意' }, sales);
    ok(done);
    expect(done.return_msg).toBe('已完成');
    expect(done.data).toMatchObject({ status: 'Y', status_ch: '已完成', result: '已回访，满意', done_by_name: '冯顾问', overdue: false });
    expect(done.data.done_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await toDo(id))!.status).toBe('Y');
    const log = (await s.call('affairlog', { id }, admin)).data.items.map((l: { transition_ch: string }) => l.transition_ch);
    expect(log).toEqual(['创建', '修改', '完成']);
    // done is done: not again, not edited, not deleted
    expect((await s.call('affairdone', { id, result: '再次' }, sales)).return_msg).toBe('该关怀事务已处理');
    expect((await s.call('affaircancel', { id, reason: '不要了' }, sales)).return_msg).toBe('该关怀事务已处理');
    expect(
      (await s.call('affairedit', { id, kind: 'call', due_date: today(), assignee_id: salesId, content: 'x' }, admin)).return_msg,
    ).toBe('该关怀事务已完成或已取消，不能修改');
    expect((await s.call('affairdel', { id }, admin)).return_msg).toBe('只有待办的关怀事务可以删除，已完成或已取消的事务留作记录');
  });

  it('records the time it was done when given, never in the future', async () => {
    const id = await addAffair();
    const future = await s.call('affairdone', { id, result: '好', done_time: '2999-01-01 10:00:00' }, sales);
    expect(future.return_msg).toBe('完成时间不能晚于现在');
    expect((await toDo(id))!.status).toBe('E');
    const at = `${addDays(today(), -1)} 15:30:00`;
    const res = await s.call('affairdone', { id, result: '昨天已上门', done_time: at }, sales);
    ok(res);
    expect(res.data.done_time).toBe(at);
  });

  it('cancels with a reason and settles the to-do; a deleted one leaves the list too', async () => {
    const id = await addAffair();
    expect((await s.call('affaircancel', { id, reason: '' }, sales)).return_msg).toMatch(/请填写取消原因/);
    const res = await s.call('affaircancel', { id, reason: '业主外出旅游' }, sales);
    ok(res);
    expect(res.data).toMatchObject({ status: 'C', cancel_reason: '业主外出旅游' });
    expect((await toDo(id))!.status).toBe('Y');
    const other = await addAffair();
    ok(await s.call('affairdel', { id: other }, admin));
    expect((await toDo(other))!.status).toBe('Y');
  });

  it('marks an open affair past its day overdue and counts it in the status bar', async () => {
    const id = await addAffair({ due_date: addDays(today(), -2), content: '逾期测试' });
    const row = (await s.call('affairinfo', { id }, admin)).data;
    expect(row).toMatchObject({ overdue: true, days_left: -2, source: 'manual', source_ch: '手动新增' });
    const late = (await s.call('affairlist', { late: 'Y', limit: 200 }, admin)).data;
    expect(late.items.some((r: { id: number }) => r.id === id)).toBe(true);
    for (const r of late.items) expect(r.overdue).toBe(true);
    const counts = (await s.call('affaircounts', { customer_id: customerId }, admin)).data;
    const all = (await s.call('affairlist', { customer_id: customerId, limit: 200 }, admin)).data;
    expect(counts.all).toBe(all.total);
    expect(counts.P + counts.Y + counts.C).toBe(counts.all);
    expect(counts.overdue).toBe(all.items.filter((r: { overdue: boolean }) => r.overdue).length);
    expect(counts.overdue).toBeGreaterThan(0);
  });

  it('refuses bad payloads, other staff and other communities, changing nothing', async () => {
    const before = await affairCount();
    const cases: Array<[Record<string, unknown>, string | RegExp, string?]> = [
      [{ kind: 'party' }, /事务类型取值不正确/],
      [{ due_date: '2026-02-30' }, /日期不存在/],
      [{ assignee_id: cashierId }, '负责人须为本小区有客户关怀权限的在职员工'],
      [{ customer_id: 2_000_000_000 }, '关怀客户不存在'],
      // 翠湖苑's admin with 阳光花园's customer and staff
      [{}, /关怀客户不存在|负责人须为本小区/, 'admin2'],
    ];
    for (const [v, message, who] of cases) {
      const res = await s.call(
        'affairadd',
        { customer_id: customerId, kind: 'call', due_date: today(), assignee_id: salesId, ...v },
        who === 'admin2' ? admin2 : admin,
      );
      expect(res.return_code, JSON.stringify(v)).toBe('FAIL');
      expect(res.return_msg).toMatch(message);
    }
    const stopped = await db()
      .insertInto('care_customers')
      .values({ rid: 1, kind: 'other', realname: '已停止', mobile: '13600007777', status: 'N' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      (await s.call('affairadd', { customer_id: stopped.id, kind: 'call', due_date: today(), assignee_id: salesId }, admin)).return_msg,
    ).toBe('该客户已停止关怀，不能新增事务');
    const id = await addAffair();
    for (const [method, payload] of [
      ['affairdone', { id, result: '外人' }],
      ['affaircancel', { id, reason: '外人' }],
      ['affairlog', { id }],
      ['affairinfo', { id }],
    ] as const) {
      const res = await s.call(method, payload, admin2);
      expect(res.return_msg, method).toBe('关怀事务不存在');
    }
    expect(await affairCount()).toBe(before + 1);
    expect((await toDo(id))!.status).toBe('E');
  });

  it('refuses accounts without the care code', async () => {
    const id = await addAffair();
    for (const token of [cashier, leasing]) {
      for (const [method, payload] of [
        ['affairlist', {}],
        ['affairdone', { id, result: 'x' }],
        ['affaircounts', {}],
        ['groupaffairpreview', {}],
        ['groupaffairlist', {}],
      ] as const)
        expect((await s.call(method, payload, token)).return_code, method).toBe(RC.NO_PERMISSION);
    }
  });
});

describe('group affairs', () => {
  it('previews by building and creates one affair a customer, each on its assignee’s to-do list', async () => {
    const b = await db().selectFrom('buildings').select('id').where('rid', '=', 1).where('title', '=', '2号楼').executeTakeFirstOrThrow();
    const pre = await s.call('groupaffairpreview', { bid: b.id }, sales);
    ok(pre);
    expect(pre.data.total).toBeGreaterThan(1);
    expect(pre.data.criteria_text).toBe('2号楼');
    expect(pre.data.limit).toBe(GROUP_AFFAIR_MAX);
    expect(pre.data.names.length).toBe(Math.min(10, pre.data.total));
    const before = await affairCount();
    const res = await s.call(
      'groupaffairadds',
      {
        bid: b.id,
        title: '中秋慰问（2号楼）',
        affair_kind: 'festival',
        content: '送月饼',
        due_date: addDays(today(), 5),
        assignee_id: adminId,
      },
      sales,
    );
    ok(res);
    expect(res.return_msg).toBe(`已为 ${pre.data.total} 位客户新增事务`);
    expect(await affairCount()).toBe(before + pre.data.total);
    const made = await db()
      .selectFrom('care_affairs as a')
      .innerJoin('care_customers as c', (j) => j.onRef('c.rid', '=', 'a.rid').onRef('c.id', '=', 'a.customer_id'))
      .select(['a.id', 'a.assignee_id', 'c.steward_id'])
      .where('a.rid', '=', 1)
      .where('a.batch_id', '=', res.data.id)
      .execute();
    expect(made.length).toBe(pre.data.total);
    // the customer's steward takes it (the default), or the one named
    for (const a of made) expect(a.assignee_id).toBe(a.steward_id ?? adminId);
    const items = await db()
      .selectFrom('backlog')
      .select(['source_id', 'account_id', 'status'])
      .where('rid', '=', 1)
      .where('kind', '=', 'careaffair')
      .where(
        'source_id',
        'in',
        made.map((m) => String(m.id)),
      )
      .execute();
    expect(items.length).toBe(made.length);
    for (const i of items) expect(i.status).toBe('E');
    const listed = (await s.call('groupaffairlist', { title: '中秋慰问' }, sales)).data.items[0];
    expect(listed).toMatchObject({
      total: pre.data.total,
      open: pre.data.total,
      done: 0,
      criteria_text: '2号楼',
      affair_kind_ch: '节日慰问',
    });
    const byBatch = (await s.call('affairlist', { batch_id: res.data.id, limit: 1 }, sales)).data;
    expect(byBatch.total).toBe(pre.data.total);
    expect(byBatch.items[0]).toMatchObject({ source: 'group', batch_title: '中秋慰问（2号楼）' });

    // one done, the rest handed to another and then cancelled at once
    ok(await s.call('affairdone', { id: made[0]!.id, result: '已送达' }, admin));
    const assigned = await s.call('groupaffairassign', { id: res.data.id, assignee_id: salesId }, admin);
    ok(assigned);
    expect(assigned.data.assigned).toBe(pre.data.total - 1);
    expect((await toDo(made[1]!.id))!.account_id).toBe(salesId);
    const cancelled = await s.call('groupaffaircancel', { id: res.data.id, reason: '活动取消' }, admin);
    ok(cancelled);
    expect(cancelled.data.cancelled).toBe(pre.data.total - 1);
    expect((await toDo(made[1]!.id))!.status).toBe('Y');
    const after = (await s.call('groupaffairlist', { title: '中秋慰问' }, sales)).data.items[0];
    expect(after).toMatchObject({ done: 1, open: 0, cancelled: pre.data.total - 1 });
    expect((await s.call('groupaffaircancel', { id: res.data.id, reason: '再来' }, admin)).return_msg).toBe('该批量事务已没有待办的事务');
  });

  it('chooses by tag, special attention and birthday month together', async () => {
    const month = String(new Date(Date.now() + 8 * 3_600_000).getUTCMonth() + 1);
    const pre = (await s.call('groupaffairpreview', { birth_month: month, attention: '' }, admin)).data;
    const counted = await sql<{ n: number }>`SELECT count(*)::int AS n FROM care_customers
      WHERE rid = 1 AND status = 'Y' AND birth_month = ${Number(month)}`.execute(db());
    expect(pre.total).toBe(counted.rows[0]!.n);
    expect(pre.criteria_text).toBe(`${month}月生日`);
    const alone = (await s.call('groupaffairpreview', { attention: '独居老人', tag: '重点客户' }, admin)).data;
    const both = await sql<{ n: number }>`SELECT count(*)::int AS n FROM care_customers
      WHERE rid = 1 AND status = 'Y' AND attention @> '{独居老人}' AND tags @> '{重点客户}'`.execute(db());
    expect(alone.total).toBe(both.rows[0]!.n);
    expect(alone.criteria_text).toBe('标签「重点客户」、特别关注「独居老人」');
  });

  it('creates all or nothing: one failure leaves no batch, no affair and no to-do', async () => {
    const b = await db().selectFrom('buildings').select('id').where('rid', '=', 1).where('title', '=', '3号楼').executeTakeFirstOrThrow();
    const pre = (await s.call('groupaffairpreview', { bid: b.id }, admin)).data;
    expect(pre.total).toBeGreaterThan(1);
    const last = pre.names[pre.names.length - 1];
    // the to-do of the last customer cannot be written (a stand-in for any failure half way)
    await sql`CREATE FUNCTION care_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.kind = 'careaffair' AND NEW.title LIKE ${sql.lit(`%：${last}`)} THEN RAISE EXCEPTION 'refused for the test'; END IF;
      RETURN NEW; END $$`.execute(db());
    await sql`CREATE TRIGGER care_test_refuse BEFORE INSERT ON backlog FOR EACH ROW EXECUTE FUNCTION care_test_refuse()`.execute(db());
    const before = await affairCount();
    const batches = (await s.call('groupaffairlist', {}, admin)).data.total;
    const backlog = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM backlog WHERE rid = 1`.execute(db())).rows[0]!.n);
    try {
      const res = await s.call(
        'groupaffairadds',
        { bid: b.id, title: '不会成功', affair_kind: 'visit', due_date: today(), assignee_id: adminId, assign_mode: 'fixed' },
        admin,
      );
      expect(res.return_code).toBe('FAIL');
    } finally {
      await sql`DROP TRIGGER care_test_refuse ON backlog`.execute(db());
      await sql`DROP FUNCTION care_test_refuse()`.execute(db());
    }
    expect(await affairCount()).toBe(before);
    expect((await s.call('groupaffairlist', {}, admin)).data.total).toBe(batches);
    expect(Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM backlog WHERE rid = 1`.execute(db())).rows[0]!.n)).toBe(backlog);
  });

  it(`refuses more than ${GROUP_AFFAIR_MAX} customers, none, a past day and another community's building`, async () => {
    await sql`INSERT INTO care_customers (rid, kind, realname, mobile, tags)
      SELECT 1, 'other', '批量' || g, '135' || lpad(g::text, 8, '0'), ARRAY['超限测试'] FROM generate_series(1, ${GROUP_AFFAIR_MAX + 1}) g`.execute(
      db(),
    );
    const base = { title: '超限', affair_kind: 'call', due_date: today(), assignee_id: adminId };
    const before = await affairCount();
    expect((await s.call('groupaffairpreview', { tag: '超限测试' }, admin)).data.total).toBe(GROUP_AFFAIR_MAX + 1);
    expect((await s.call('groupaffairadds', { ...base, tag: '超限测试' }, admin)).return_msg).toBe(
      `一次最多为 ${GROUP_AFFAIR_MAX} 位客户新增事务，当前条件选出 ${GROUP_AFFAIR_MAX + 1} 位，请缩小范围`,
    );
    expect((await s.call('groupaffairadds', { ...base, tag: '没有这个标签' }, admin)).return_msg).toBe('没有符合条件的关怀中客户');
    expect((await s.call('groupaffairadds', { ...base, tag: '超限测试', due_date: addDays(today(), -1) }, admin)).return_msg).toBe(
      '计划日期不能早于今天',
    );
    expect((await s.call('groupaffairadds', { ...base, title: '' }, admin)).return_msg).toMatch(/请输入批量事务名称/);
    const b = await db().selectFrom('buildings').select('id').where('rid', '=', 1).limit(1).executeTakeFirstOrThrow();
    expect((await s.call('groupaffairpreview', { bid: b.id }, admin2)).return_msg).toBe('所选楼栋不存在或不属于当前小区');
    expect(await affairCount()).toBe(before);
    const someBatch = await db().selectFrom('care_affair_batches').select('id').where('rid', '=', 1).executeTakeFirstOrThrow();
    expect((await s.call('groupaffaircancel', { id: someBatch.id, reason: '外人' }, admin2)).return_msg).toBe('批量事务不存在');
    expect((await s.call('groupaffairassign', { id: someBatch.id, assignee_id: salesId }, admin2)).return_code).toBe('FAIL');
  });
});
