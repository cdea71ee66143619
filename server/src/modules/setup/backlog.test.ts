import { RC, type BacklogItem } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { backlogSources, registerBacklogSource } from './backlog.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let finance: string;
let guard: string;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, finance, guard] = await s.logins('admin', 'admin2', 'cashier', 'finance', 'guard');
});
afterAll(() => s?.close());

const ok = (a: { return_code: string; return_msg: string }) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
const pending = async (token: string, kind = '') =>
  (await s.call<{ items: BacklogItem[]; total: number }>('backlog_list', { status: 'E', kind, limit: 100 }, token)).data;

// a source of the test's own, as an area registers one: the items only holders of `security` handle
const patrol = registerBacklogSource({ kind: 'other', roles: ['security'], link: (id) => `/setup/schedulelist?id=${id}`, hours: 24 });

describe('the registry', () => {
  it('a kind registers once; the refunds of the fees area are registered', () => {
    expect(backlogSources().get('refund')?.spec.roles).toEqual(['financecount']);
    expect(() => registerBacklogSource({ kind: 'other', roles: 'any', link: () => '' })).toThrow('已登记');
  });

  it('raises an item with its source, submitter and deadline, seen only by the codes that handle it', async () => {
    const guardBefore = (await pending(guard)).total;
    const cashierBefore = (await pending(cashier)).total;
    await patrol.raise(s.database.db, 1, {
      sourceId: 7001,
      title: '夜班巡更漏打卡：3 号岗',
      content: '02:00 的点位未打卡',
      submitter: { accountId: 1, name: '张管理' },
    });
    const mine = await pending(guard);
    expect(mine.total).toBe(guardBefore + 1);
    const item = mine.items.find((b) => b.source_id === '7001')!;
    expect(item).toMatchObject({
      kind: 'other',
      kind_ch: '其他',
      title: '夜班巡更漏打卡：3 号岗',
      submitter_name: '张管理',
      link: '/setup/schedulelist?id=7001',
      overdue: false,
    });
    // the deadline is a day later
    expect(Date.parse(item.deadline.replace(' ', 'T') + '+08:00') - Date.parse(item.create_time.replace(' ', 'T') + '+08:00')).toBe(
      86_400_000,
    );
    // a cashier does not handle it: not on their list, not in their badge, not theirs to mark done
    expect((await pending(cashier)).total).toBe(cashierBefore);
    expect((await s.call('backlog_done', { id: item.id }, cashier)).return_msg).toBe('待办不存在或已处理');
    // the administrator sees everything; another community nothing of it
    expect((await pending(admin)).items.some((b) => b.id === item.id)).toBe(true);
    expect((await pending(admin2)).items.some((b) => b.id === item.id)).toBe(false);
  });

  it("an item of one account is that account's alone among the holders of its codes; the administrator sees it", async () => {
    const tech = await s.login('tech');
    const steward = await s.login('steward');
    const work =
      backlogSources().get('repairwork') ??
      registerBacklogSource({ kind: 'repairwork', roles: ['repairs'], link: (id) => `/steward/repairs?id=${id}` });
    const techId = (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'tech').executeTakeFirstOrThrow()).id;
    await work.raise(s.database.db, 1, { sourceId: 'acct-1', title: '请接单：水管漏水', account: Number(techId) });
    const techItem = (await pending(tech, 'repairwork')).items.find((b) => b.source_id === 'acct-1');
    expect(techItem).toBeDefined();
    // the steward holds `repairs` too, but the item is the technician's
    expect((await pending(steward, 'repairwork')).items.some((b) => b.source_id === 'acct-1')).toBe(false);
    expect((await s.call('backlog_done', { id: techItem!.id }, steward)).return_msg).toBe('待办不存在或已处理');
    expect((await pending(admin, 'repairwork')).items.some((b) => b.source_id === 'acct-1')).toBe(true);
    ok(await s.call('backlog_done', { id: techItem!.id }, tech));
  });

  it('raising the same record again updates its one item; settling it marks it done; raising it again reopens it', async () => {
    const before = (await pending(admin)).total;
    await patrol.raise(s.database.db, 1, {
      sourceId: 7001,
      title: '夜班巡更漏打卡：3 号岗（第二次）',
      deadline: new Date(Date.now() - 60_000),
    });
    expect((await pending(admin)).total).toBe(before);
    const item = (await pending(guard)).items.find((b) => b.source_id === '7001')!;
    expect(item).toMatchObject({ title: '夜班巡更漏打卡：3 号岗（第二次）', overdue: true });
    await patrol.settle(s.database.db, 1, 7001);
    expect((await pending(guard)).items.some((b) => b.source_id === '7001')).toBe(false);
    const done = (await s.call('backlog_list', { status: 'Y', kind: 'other' }, guard)).data.items as BacklogItem[];
    expect(done.find((b) => b.id === item.id)).toMatchObject({ status: 'Y', overdue: false });
    await patrol.raise(s.database.db, 1, { sourceId: 7001, title: '又漏打卡' });
    expect((await pending(guard)).items.find((b) => b.id === item.id)).toMatchObject({ status: 'E', title: '又漏打卡' });
    ok(await s.call('backlog_done', { id: item.id }, guard));
  });

  it('filters by kind and refuses a kind that is not a code', async () => {
    const refunds = await pending(admin, 'refund');
    expect(refunds.items.every((b) => b.kind === 'refund')).toBe(true);
    expect((await s.call('backlog_list', { kind: 'DROP TABLE' }, admin)).return_msg).toMatch('类型不正确');
  });
});

describe('the refunds feed', () => {
  it("a refund request waits on the approvers' list until it is decided", async () => {
    const { rows } = await s.database.db
      .selectFrom('fee_payments as p')
      .select('p.id')
      .where('p.rid', '=', 1)
      .where('p.status', '=', 'Y')
      // a room's receipt: a temporary stay's (临时停车费) is not refunded at the counter
      .where('p.hid', 'is not', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('fee_refunds as f').select('f.id').whereRef('f.payment_id', '=', 'p.id'))))
      .limit(1)
      .execute()
      .then((r) => ({ rows: r }));
    const paymentId = rows[0]!.id;
    const financeBefore = (await pending(finance, 'refund')).total;
    const applied = await s.call('refundapply', { payment_id: paymentId, reason: '重复缴费' }, cashier);
    ok(applied);
    const item = (await pending(finance, 'refund')).items.find((b) => b.source_id === String(applied.data.id))!;
    expect(item).toMatchObject({ kind_ch: '退款', submitter_name: expect.any(String), link: `/fees/refundlist?id=${applied.data.id}` });
    expect(item.title).toMatch(new RegExp(`^审核退款申请：.+ ${applied.data.amount} 元$`));
    expect(item.submitter_name).not.toBe('');
    expect(item.deadline).not.toBe('');
    expect((await pending(finance, 'refund')).total).toBe(financeBefore + 1);
    // the cashier who asked does not approve refunds: not on the cashier's list
    expect((await pending(cashier, 'refund')).items.some((b) => b.id === item.id)).toBe(false);
    ok(await s.call('refundapprove', { id: applied.data.id, approve: false, remark: '已核实，不重复' }, finance));
    expect((await pending(finance, 'refund')).items.some((b) => b.id === item.id)).toBe(false);
  });
});

describe('the export', () => {
  it('is a job of the items the account handles, with the list filters', async () => {
    await patrol.raise(s.database.db, 1, { sourceId: 7002, title: '巡更点位损坏：东门', submitter: { accountId: 1, name: '张管理' } });
    const file = await s.exportFile('backlogexport', { status: 'E' }, guard);
    ok(file);
    expect(file.data.filename).toMatch(/^待办事项_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(['ID', '类型', '标题', '内容', '来源单号', '提交人', '创建时间', '截止时间', '状态', '处理时间']);
    const titles = sheet.rows.map((r) => r.values['标题']);
    expect(titles).toContain('巡更点位损坏：东门');
    expect(sheet.rows.find((r) => r.values['标题'] === '巡更点位损坏：东门')!.values).toMatchObject({
      来源单号: '7002',
      提交人: '张管理',
      状态: '待办',
    });
    // the guard's export holds exactly the guard's list
    expect(sheet.rows.length).toBe((await pending(guard)).total);
    expect(sheet.rows.some((r) => r.values['类型'] === '退款')).toBe(false);
    // the administrator's holds the refunds too; a kind narrows it
    const all = await readXlsx((await s.exportFile('backlogexport', { status: '' }, admin)).data.content_base64);
    expect(all.rows.length).toBe((await s.call('backlog_list', { status: '', limit: 1 }, admin)).data.total);
    const others = await readXlsx((await s.exportFile('backlogexport', { status: '', kind: 'other' }, admin)).data.content_base64);
    expect(others.rows.every((r) => r.values['类型'] === '其他')).toBe(true);
    // a caller cannot widen it by sending codes
    const sneaky = await readXlsx(
      (await s.exportFile('backlogexport', { status: 'E', codes: ['financecount'] }, guard)).data.content_base64,
    );
    expect(sneaky.rows.length).toBe(sheet.rows.length);
    expect((await s.call('backlogexport', {}, await s.login('merchant'))).return_code).toBe('NO_PERMISSION');
  });
});
