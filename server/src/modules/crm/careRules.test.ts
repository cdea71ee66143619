import { addDays, affairRule, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyJobs, enqueueJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { CARE_AFFAIRS_JOB, calendarOccurrences } from './careRules.js';

let s: TestServer;
let admin: string;
let admin2: string;
let sales: string;
let cashier: string;
let salesId = 0;
let adminId = 0;
let cashierId = 0;
let seq = 0;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const db = () => s.database.db;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, sales, cashier] = await s.logins('admin', 'admin2', 'sales', 'cashier');
  const accounts = await db()
    .selectFrom('accounts')
    .select(['id', 'username'])
    .where('username', 'in', ['admin', 'sales', 'cashier'])
    .execute();
  salesId = accounts.find((a) => a.username === 'sales')!.id;
  adminId = accounts.find((a) => a.username === 'admin')!.id;
  cashierId = accounts.find((a) => a.username === 'cashier')!.id;
});
afterAll(() => s?.close());

describeResource(affairRule, {
  server: () => s,
  sample: () => ({
    name: '测试规则',
    cycle: 'monthly',
    affair_kind: 'visit',
    day_of_month: 5,
    days_before: 3,
    tag: '',
    assign_mode: 'fixed',
    assignee_id: salesId,
    content: '',
    status: 'Y',
  }),
  edit: { name: '测试规则二', days_before: 5 },
  filters: { name: '测试规则', cycle: 'monthly', status: 'Y', scope: 'calendar' },
  deniedWriter: 'leasing',
  unique: ['name'],
});

/** A customer in care with a tag of their own (so only the test's rules reach them). */
async function customer(v: { birthday?: string; move_in_date?: string; steward_id?: number | null; status?: 'Y' | 'N' } = {}) {
  const tag = `规则测试${++seq}`;
  const row = await db()
    .insertInto('care_customers')
    .values({ rid: 1, kind: 'other', realname: `规则客户${seq}`, mobile: `1340000${String(seq).padStart(4, '0')}`, tags: [tag], ...v })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, tag, name: `规则客户${seq}` };
}

async function addRule(v: Record<string, unknown>): Promise<number> {
  const res = await s.call(
    'affairruleadd',
    { name: `规则${++seq}`, affair_kind: 'other', days_before: 7, assign_mode: 'steward', assignee_id: adminId, status: 'Y', ...v },
    admin,
  );
  ok(res);
  return res.data.id;
}

/** A customer's affairs made by a rule (the demo's rules cover every customer too). */
const affairsOf = (customerId: number, ruleId: number) =>
  db()
    .selectFrom('care_affairs')
    .selectAll()
    .where('rid', '=', 1)
    .where('customer_id', '=', customerId)
    .where('rule_id', '=', ruleId)
    .orderBy('id')
    .execute();

const run = async (asOf: string, ruleId?: number) => {
  const res = await s.call('affairrulerun', { as_of: asOf, ...(ruleId ? { rule_id: ruleId } : {}) }, admin);
  ok(res);
  return res.data.made as number;
};

describe('the occurrences of calendar rules', () => {
  it('finds the months, quarters and festivals due within the days ahead, across the year end, on the last day of short months', () => {
    const monthly = { cycle: 'monthly' as const, days_before: 10, day_of_month: 5, festival_date: null };
    expect(calendarOccurrences(monthly, '2026-11-28')).toEqual([{ occurrence: '2026-12', due: '2026-12-05' }]);
    expect(calendarOccurrences(monthly, '2026-12-05')).toEqual([{ occurrence: '2026-12', due: '2026-12-05' }]);
    expect(calendarOccurrences(monthly, '2026-12-06')).toEqual([]);
    expect(calendarOccurrences({ ...monthly, days_before: 60 }, '2026-12-10')).toEqual([
      { occurrence: '2027-01', due: '2027-01-05' },
      { occurrence: '2027-02', due: '2027-02-05' },
    ]);
    const quarterly = { cycle: 'quarterly' as const, days_before: 15, day_of_month: 10, festival_date: null };
    expect(calendarOccurrences(quarterly, '2026-12-28')).toEqual([{ occurrence: '2027-Q1', due: '2027-01-10' }]);
    expect(calendarOccurrences(quarterly, '2026-05-01')).toEqual([]);
    expect(calendarOccurrences(quarterly, '2026-04-01')).toEqual([{ occurrence: '2026-Q2', due: '2026-04-10' }]);
    const newYear = { cycle: 'festival' as const, days_before: 5, day_of_month: null, festival_date: '01-01' };
    expect(calendarOccurrences(newYear, '2026-12-28')).toEqual([{ occurrence: '2027', due: '2027-01-01' }]);
    const leap = { cycle: 'festival' as const, days_before: 0, day_of_month: null, festival_date: '02-29' };
    expect(calendarOccurrences(leap, '2027-02-28')).toEqual([{ occurrence: '2027', due: '2027-02-28' }]);
    expect(calendarOccurrences(leap, '2028-02-28')).toEqual([]);
    expect(calendarOccurrences(leap, '2028-02-29')).toEqual([{ occurrence: '2028', due: '2028-02-29' }]);
  });
});

describe('the daily job', () => {
  it('is queued every day', () => {
    expect(dailyJobs().has(CARE_AFFAIRS_JOB)).toBe(true);
  });

  it('makes a birthday affair the days ahead, for the steward, once: never again however often it runs', async () => {
    const c = await customer({ birthday: '1950-03-20', steward_id: salesId });
    const rule = await addRule({ cycle: 'birthday', affair_kind: 'birthday', days_before: 7, tag: c.tag, content: '{姓名}生日快乐' });
    expect(await run('2030-03-12', rule)).toBe(0);
    expect(await run('2030-03-13', rule)).toBe(1);
    const [a] = await affairsOf(c.id, rule);
    expect(a).toMatchObject({
      kind: 'birthday',
      due_date: '2030-03-20',
      assignee_id: salesId,
      rule_id: rule,
      occurrence: '2030',
      status: 'P',
    });
    expect(a!.content).toBe(`${c.name}生日快乐`);
    expect(a!.created_by).toBeNull();
    // every later day of the window, and the job itself, make nothing more
    for (const day of ['2030-03-13', '2030-03-14', '2030-03-20']) expect(await run(day, rule)).toBe(0);
    await enqueueJob(db(), { rid: null, kind: CARE_AFFAIRS_JOB, payload: { as_of: '2030-03-15' }, createdBy: null });
    await s.runJobs();
    expect((await affairsOf(c.id, rule)).length).toBe(1);
    // its to-do is the steward's, settled once it is done
    const todo = () =>
      db()
        .selectFrom('backlog')
        .select(['status', 'account_id', 'title'])
        .where('rid', '=', 1)
        .where('kind', '=', 'careaffair')
        .where('source_id', '=', String(a!.id))
        .executeTakeFirstOrThrow();
    expect(await todo()).toMatchObject({ status: 'E', account_id: salesId, title: `生日祝福：${c.name}` });
    const info = (await s.call('affairinfo', { id: a!.id }, sales)).data;
    expect(info).toMatchObject({ source: 'rule', source_ch: '规则生成', rule_name: expect.stringMatching(/^规则/), creator: '系统' });
    ok(await s.call('affairdone', { id: a!.id, result: '已送上祝福' }, sales));
    expect((await todo()).status).toBe('Y');
    // the next year is the next occurrence
    expect(await run('2031-03-15', rule)).toBe(1);
    expect((await affairsOf(c.id, rule)).map((x) => x.occurrence)).toEqual(['2030', '2031']);
  });

  it('reaches across the year end, and falls on 02-28 for a 02-29 birthday', async () => {
    const early = await customer({ birthday: '1960-01-02' });
    const leap = await customer({ birthday: '1960-02-29' });
    const r1 = await addRule({ cycle: 'birthday', affair_kind: 'birthday', days_before: 7, tag: early.tag });
    const r2 = await addRule({ cycle: 'birthday', affair_kind: 'birthday', days_before: 0, tag: leap.tag });
    expect(await run('2030-12-28', r1)).toBe(1);
    expect((await affairsOf(early.id, r1))[0]).toMatchObject({ due_date: '2031-01-02', occurrence: '2031' });
    expect(await run('2031-02-28', r2)).toBe(1);
    expect((await affairsOf(leap.id, r2))[0]).toMatchObject({ due_date: '2031-02-28', occurrence: '2031' });
  });

  it('makes anniversaries from the first year on, with the years in the content', async () => {
    const c = await customer({ move_in_date: '2027-06-10' });
    const rule = await addRule({
      cycle: 'anniversary',
      affair_kind: 'anniversary',
      days_before: 3,
      tag: c.tag,
      content: '{姓名}入住{周年}周年',
    });
    expect(await run('2027-06-08', rule)).toBe(0);
    expect(await run('2029-06-08', rule)).toBe(1);
    expect((await affairsOf(c.id, rule))[0]).toMatchObject({ due_date: '2029-06-10', occurrence: '2029', content: `${c.name}入住2周年` });
  });

  it('makes monthly visits for the tag, the fixed assignee when asked, and festivals once a year', async () => {
    const c = await customer({ steward_id: salesId });
    const monthly = await addRule({
      cycle: 'monthly',
      affair_kind: 'visit',
      day_of_month: 15,
      days_before: 5,
      tag: c.tag,
      assign_mode: 'fixed',
    });
    expect(await run('2030-05-09', monthly)).toBe(0);
    expect(await run('2030-05-10', monthly)).toBe(1);
    expect(await run('2030-05-12', monthly)).toBe(0);
    expect(await run('2030-06-11', monthly)).toBe(1);
    const made = await affairsOf(c.id, monthly);
    expect(made.map((a) => [a.occurrence, a.due_date, a.assignee_id])).toEqual([
      ['2030-05', '2030-05-15', adminId],
      ['2030-06', '2030-06-15', adminId],
    ]);
    const festival = await addRule({ cycle: 'festival', affair_kind: 'festival', festival_date: '10-01', days_before: 5, tag: c.tag });
    expect(await run('2030-09-27', festival)).toBe(1);
    expect(await run('2030-09-30', festival)).toBe(0);
    expect((await affairsOf(c.id, festival)).at(-1)).toMatchObject({
      occurrence: '2030',
      due_date: '2030-10-01',
      kind: 'festival',
      assignee_id: salesId,
    });
  });

  it('leaves out customers no longer in care and stopped rules', async () => {
    const c = await customer({ birthday: '1970-07-07', status: 'N' });
    const rule = await addRule({ cycle: 'birthday', affair_kind: 'birthday', tag: c.tag });
    expect(await run('2030-07-05', rule)).toBe(0);
    await db().updateTable('care_customers').set({ status: 'Y' }).where('id', '=', c.id).execute();
    const row = (await s.call('affairrulelist', { limit: 200 }, admin)).data.items.find((r: { id: number }) => r.id === rule);
    ok(await s.call('affairruleedit', { ...row, id: rule, status: 'N' }, admin));
    expect((await s.call('affairrulerun', { as_of: '2030-07-05', rule_id: rule }, admin)).return_msg).toBe('该关怀规则已停用');
    // the whole job as of that day: the stopped rule makes nothing
    await run('2030-07-05');
    expect((await affairsOf(c.id, rule)).length).toBe(0);
  });

  it('runs only today for a non-admin, only the community’s rules, and only for care holders', async () => {
    const rule = await addRule({ cycle: 'monthly', day_of_month: 1, affair_kind: 'visit', tag: '无人有此标签' });
    expect((await s.call('affairrulerun', { as_of: addDays(today(), 1) }, sales)).return_msg).toBe('只有管理员可以按指定日期运行关怀规则');
    ok(await s.call('affairrulerun', {}, sales));
    expect((await s.call('affairrulerun', { rule_id: rule }, admin2)).return_msg).toBe('关怀规则不存在');
    expect((await s.call('affairrulerun', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('affairrulelist', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('rule refusals', () => {
  it('refuses what a rule cannot be, in Chinese, and keeps a rule with affairs', async () => {
    const base = { name: '坏规则', affair_kind: 'visit', days_before: 3, assign_mode: 'steward', assignee_id: adminId };
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ cycle: 'monthly' }, '请填写每月几号（1 到 28）'],
      [{ cycle: 'monthly', day_of_month: 31 }, /28/],
      [{ cycle: 'festival' }, '请填写节日日期（MM-DD）'],
      [{ cycle: 'festival', festival_date: '02-30' }, '节日日期不存在'],
      [{ cycle: 'festival', festival_date: '10/01' }, /节日日期格式应为 MM-DD/],
      [{ cycle: 'birthday', days_before: 61 }, /60/],
      [{ cycle: 'weekly' }, /周期取值不正确/],
      [{ cycle: 'birthday', assignee_id: cashierId }, '负责人须为本小区有客户关怀权限的在职员工'],
    ];
    const before = (await s.call('affairrulelist', {}, admin)).data.total;
    for (const [v, message] of cases) {
      const res = await s.call('affairruleadd', { ...base, ...v }, admin);
      expect(res.return_code, JSON.stringify(v)).toBe('FAIL');
      expect(res.return_msg).toMatch(message);
    }
    expect((await s.call('affairrulelist', {}, admin)).data.total).toBe(before);
    // a festival rule keeps only its own day; a monthly one only its day of the month
    const id = await addRule({ cycle: 'festival', festival_date: '05-01', day_of_month: 9 });
    const row = (await s.call('affairrulelist', { limit: 200 }, admin)).data.items.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({
      day_of_month: null,
      festival_date: '05-01',
      schedule_text: '每年 5 月 1 日，提前 7 天生成',
      cycle_ch: '节日（每年固定日期）',
    });
    const used = await db()
      .selectFrom('care_affairs')
      .select('rule_id')
      .where('rid', '=', 1)
      .where('rule_id', 'is not', null)
      .executeTakeFirstOrThrow();
    expect((await s.call('affairruledel', { id: used.rule_id }, admin)).return_msg).toBe(
      '该规则已生成关怀事务，不能删除；不再需要时请停用',
    );
    const scoped = (await s.call('affairrulelist', { scope: 'personal', limit: 200 }, admin)).data.items;
    for (const r of scoped) expect(['birthday', 'anniversary']).toContain(r.cycle);
  });
});

describe('the demo', () => {
  it('has rules, open and done affairs of them, and customers with a birthday this month', async () => {
    const rows = await sql<{ rules: number; open: number; done: number; born: number; alone: number }>`SELECT
      (SELECT count(*)::int FROM care_affair_rules WHERE rid = 1) AS rules,
      (SELECT count(*)::int FROM care_affairs WHERE rid = 1 AND status = 'P') AS open,
      (SELECT count(*)::int FROM care_affairs WHERE rid = 1 AND status = 'Y' AND rule_id IS NOT NULL) AS done,
      (SELECT count(*)::int FROM care_customers WHERE rid = 1 AND birth_month = extract(month FROM current_date)) AS born,
      (SELECT count(*)::int FROM care_customers WHERE rid = 1 AND attention @> '{独居老人}') AS alone`.execute(db());
    const d = rows.rows[0]!;
    expect(d.rules).toBeGreaterThanOrEqual(5);
    expect(d.open).toBeGreaterThan(0);
    expect(d.done).toBeGreaterThan(0);
    expect(d.born).toBeGreaterThan(0);
    expect(d.alone).toBeGreaterThan(0);
  });
});
