import { addDays } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/queue.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';
import { POOL_RECLAIM, reclaimPool } from './salesPool.js';

let s: TestServer;
let admin: string;
let sales: string;
let leasing: string;
let admin2: string;
let salesId = 0;
let mobileSeq = 0;
const newMobile = () => `1370404${String(++mobileSeq).padStart(4, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, sales, leasing, admin2] = await s.logins('admin', 'sales', 'leasing', 'admin2');
  salesId = Number((await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'sales').executeTakeFirstOrThrow()).id);
});
afterAll(() => s?.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const RULES = { pool_enabled: 'Y', pool_follow_days: 15, pool_deal_days: 90, pool_warn_days: 3, hold_limit: 200 };

async function addCustomer(token: string, v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call('addcrm', { name: '公海测试', mobile: newMobile(), source: 'call', ...v }, token);
  ok(res);
  return res.data.id as number;
}

/** Puts a customer's taking and last follow-up `days` before today. */
const heldSince = (id: number, taken: number, followed: number | null) =>
  sql`UPDATE crm_customers SET assigned_at = current_date - ${taken}::int + time '09:00',
    last_follow_at = ${followed === null ? null : sql`current_date - ${followed}::int + time '10:00'`} WHERE id = ${id}`.execute(
    s.database.db,
  );

const todo = (id: number) =>
  s.database.db
    .selectFrom('backlog')
    .selectAll()
    .where('rid', '=', 1)
    .where('kind', '=', 'crmpool')
    .where('source_id', '=', String(id))
    .executeTakeFirst();

describe('the pool’s rules', () => {
  it('are read by the consultants and saved by a manager, checked in Chinese', async () => {
    const info = (await s.call('crmpoolinfo', {}, sales)).data;
    expect(info).toMatchObject({ pool_enabled: 'Y', pool_follow_days: 15, pool_deal_days: 90, pool_warn_days: 3, hold_limit: 200 });
    expect((await s.call('crmpoolset', RULES, sales)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('crmpoolset', { ...RULES, pool_warn_days: 15 }, admin)).return_msg).toContain('提前提醒天数须小于回收天数');
    expect((await s.call('crmpoolset', { ...RULES, pool_follow_days: 0, pool_deal_days: 0 }, admin)).return_msg).toContain('至少填一项');
    expect((await s.call('crmpoolset', { ...RULES, hold_limit: -1 }, admin)).return_code).toBe('FAIL');
    const saved = await s.call('crmpoolset', { ...RULES, pool_follow_days: 20 }, admin);
    ok(saved);
    expect(saved.return_msg).toBe('公海规则已保存');
    expect(saved.data).toMatchObject({ pool_follow_days: 20, updated_by: '张经理' });
    // another community keeps its own (the defaults)
    expect((await s.call('crmpoolinfo', {}, admin2)).data.pool_follow_days).toBe(15);
    ok(await s.call('crmpoolset', RULES, admin));
  });
});

describe('the daily pool job', () => {
  it('warns the consultant K days before and takes the customer back on the day, logged with the reason', async () => {
    const id = await addCustomer(sales, { name: '回收客户' });
    // followed 13 days ago: due in 2 days, inside the 3 days' warning
    await heldSince(id, 30, 13);
    const due = addDays(today(), 2);
    expect((await s.call('crminfo', { id }, sales)).data).toMatchObject({ pool_due: due, pool_days_left: 2 });
    const falling = (await s.call('crmlist', { view: 'mine', chip: 'falling', limit: 200 }, sales)).data.items as Array<{ id: number }>;
    expect(falling.map((r) => r.id)).toContain(id);

    await reclaimPool(s.database.db, today());
    const warning = await todo(id);
    expect(warning).toMatchObject({ status: 'E', account_id: salesId, link: `/crm/crm_show?id=${id}` });
    expect(warning!.content).toContain(`将于 ${due} 回收公海`);
    // once for that day: a second run raises nothing again
    await sql`UPDATE backlog SET title = '已读' WHERE id = ${warning!.id}`.execute(s.database.db);
    await reclaimPool(s.database.db, addDays(today(), 1));
    expect((await todo(id))!.title).toBe('已读');
    // the to-do is the consultant's alone
    const theirs = await s.call('backlog_list', { kind: 'crmpool', limit: 200 }, leasing);
    ok(theirs);
    expect(theirs.data.items.some((b: { source_id: string }) => b.source_id === String(id))).toBe(false);
    const mine = await s.call('backlog_list', { kind: 'crmpool', limit: 200 }, sales);
    expect(
      mine.data.items.some((b: { source_id: string; kind_ch: string }) => b.source_id === String(id) && b.kind_ch === '客户回收预警'),
    ).toBe(true);

    // on the day it goes back to the pool
    const result = await reclaimPool(s.database.db, due);
    expect(result.reclaimed).toBeGreaterThanOrEqual(1);
    const row = (await s.call('crminfo', { id }, sales)).data;
    expect(row).toMatchObject({ consultant_id: null, pool_due: '' });
    expect((await todo(id))!.status).toBe('Y');
    const last = (
      (await s.call('crmlog', { id }, sales)).data.items as Array<{
        transition_ch: string;
        operator: string;
        input: Record<string, unknown>;
      }>
    ).at(-1)!;
    expect(last).toMatchObject({
      transition_ch: '回收公海',
      operator: '系统',
      input: { from_consultant: '冯顾问', consultant: '公海', reason: '超过 15 天未跟进' },
    });
  });

  it('takes back one held too long without a deal, never a dealt or invalid one, nor anything while the pool is off', async () => {
    const undealt = await addCustomer(sales, { name: '未成交' });
    const dealt = await addCustomer(sales, { name: '已认购' });
    const invalid = await addCustomer(sales, { name: '已无效' });
    const off = await addCustomer(sales, { name: '规则关闭' });
    ok(await s.call('crmvalid', { id: dealt }, sales));
    ok(await s.call('crmsubscribe', { id: dealt, remark: '认购一套' }, sales));
    ok(await s.call('crminvalid', { id: invalid, reason: '无意向' }, sales));
    for (const id of [undealt, dealt, invalid]) await heldSince(id, 91, 1);
    await heldSince(off, 100, 100);
    ok(await s.call('crmpoolset', { ...RULES, pool_enabled: 'N' }, admin));
    await reclaimPool(s.database.db, today());
    expect((await s.call('crminfo', { id: off }, sales)).data.consultant_id).toBe(salesId);
    ok(await s.call('crmpoolset', RULES, admin));
    // the job as the runner queues it, with its as-of day
    await enqueueJob(s.database.db, { rid: null, kind: POOL_RECLAIM, payload: { as_of: today() }, createdBy: null });
    await s.runJobs();
    expect((await s.call('crminfo', { id: undealt }, admin)).data.consultant_id).toBeNull();
    const why = ((await s.call('crmlog', { id: undealt }, admin)).data.items as Array<{ input: Record<string, unknown> }>).at(-1)!;
    expect(why.input.reason).toBe('领取后 90 天未成交');
    expect((await s.call('crminfo', { id: off }, admin)).data.consultant_id).toBeNull();
    expect((await s.call('crminfo', { id: dealt }, admin)).data.consultant_id).toBe(salesId);
    expect((await s.call('crminfo', { id: invalid }, admin)).data.consultant_id).toBe(salesId);
  });

  it('restarts the clock with a follow-up, a claim or a transfer', async () => {
    const id = await addCustomer(sales, { name: '重新计时' });
    await heldSince(id, 40, 14);
    expect((await s.call('crminfo', { id }, sales)).data.pool_days_left).toBe(1);
    ok(await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '客户回电' }, sales));
    expect((await s.call('crminfo', { id }, sales)).data.pool_days_left).toBe(15);
    await heldSince(id, 40, 14);
    const leasingId = Number(
      (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'leasing').executeTakeFirstOrThrow()).id,
    );
    ok(await s.call('crmassign', { ids: [id], consultant_id: leasingId }, admin));
    expect((await s.call('crminfo', { id }, leasing)).data.pool_days_left).toBe(15);
  });
});

describe('the funnel', () => {
  it('counts the customers entered in the period by consultant and how far they got', async () => {
    const day = today();
    const before = (await s.call('crmfunnel', { start_date: day, end_date: day }, admin)).data;
    const a = await addCustomer(sales, { name: '漏斗一' });
    const b = await addCustomer(sales, { name: '漏斗二' });
    await addCustomer(leasing, { name: '漏斗三' });
    ok(await s.call('crmvalid', { id: a }, sales));
    ok(await s.call('crmsubscribe', { id: a, remark: '认购' }, sales));
    // b got as far as 有效 before it was marked invalid: it still counts there
    ok(await s.call('crmvalid', { id: b }, sales));
    ok(await s.call('crminvalid', { id: b, reason: '无意向' }, sales));
    const after = (await s.call('crmfunnel', { start_date: day, end_date: day }, admin)).data;
    const diff = (k: string) => after.total[k] - before.total[k];
    expect([diff('report'), diff('valid'), diff('visit'), diff('pledge'), diff('subscribe'), diff('sign'), diff('invalid')]).toEqual([
      3, 2, 1, 1, 1, 0, 1,
    ]);
    expect(after.stages[0]).toMatchObject({ stage: 'report', stage_ch: '报备', rate: '100.0' });
    const fengs = after.rows.find((r: { consultant_name: string }) => r.consultant_name === '冯顾问');
    expect(fengs.report).toBeGreaterThanOrEqual(2);
    // a consultant sees their own row alone, whatever they ask
    const own = (await s.call('crmfunnel', { start_date: day, end_date: day, consultant_id: fengs.consultant_id + 1 }, sales)).data;
    expect(own.rows.map((r: { consultant_name: string }) => r.consultant_name)).toEqual(['冯顾问']);
    expect((await s.call('crmfunnel', { start_date: day, end_date: addDays(day, -1) }, admin)).return_msg).toContain(
      '结束日期不能早于开始日期',
    );
    const file = await s.exportFile('crmfunnelexport', { start_date: day, end_date: day }, admin);
    ok(file);
    expect(file.data.filename).toBe(`销售漏斗_${day}_${day}.xlsx`);
  });
});
