import { invite, salesCall } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let sales: string;
let leasing: string;
let admin2: string;
let mobileSeq = 0;
const newMobile = () => `1370202${String(++mobileSeq).padStart(4, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, sales, leasing, admin2] = await s.logins('admin', 'sales', 'leasing', 'admin2');
});
afterAll(() => s?.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const wireMinute = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  // the business time zone is UTC+8 in the tests' configuration
  const z = new Date(d.getTime() + 8 * 3600_000);
  return `${z.getUTCFullYear()}-${p(z.getUTCMonth() + 1)}-${p(z.getUTCDate())} ${p(z.getUTCHours())}:${p(z.getUTCMinutes())}`;
};
const tomorrow = () => wireMinute(new Date(Date.now() + 24 * 3600_000));

async function addCustomer(token: string, v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call('addcrm', { name: '跟进客户', mobile: newMobile(), source: 'call', ...v }, token);
  ok(res);
  return res.data.id as number;
}

describeResource(salesCall, {
  server: () => s,
  sample: async (srv, token) => {
    const res = await srv.call('addcrm', { name: '资源跟进', mobile: '13702029999', source: 'walkin' }, token);
    return { customer_id: res.data.id, kind: 'wechat', content: '发送了户型图', next_contact_at: '' };
  },
  edit: { kind: 'phone', content: '电话回访，客户周末来看房' },
  filters: { keyword: '资源跟进', kind: 'wechat' },
  deniedWriter: 'cashier',
});

describeResource(invite, {
  server: () => s,
  sample: async (srv, token) => {
    const res = await srv.call('addcrm', { name: '资源邀约', mobile: '13702029998', source: 'walkin' }, token);
    return { customer_id: res.data.id, invite_at: '2031-01-01 14:30', visitors: 2, purpose: 'view', outcome: 'P', result: '' };
  },
  edit: { visitors: 3, outcome: 'C', result: '客户改期' },
  filters: { keyword: '资源邀约', outcome: 'P', invite_date: ['2031-01-01', '2031-01-01'] },
  deniedWriter: 'cashier',
});

describe('follow-ups', () => {
  it('set the customer’s last follow-up and next contact, which the chips count; the pool’s warning settles', async () => {
    const id = await addCustomer(sales, { name: '今日联系' });
    const next = wireMinute(new Date(Date.now() + 60_000 * 5));
    const added = await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '客户说下午再打', next_contact_at: next }, sales);
    ok(added);
    const row = (await s.call('crminfo', { id }, sales)).data;
    expect(row.last_follow_text).toBe('客户说下午再打');
    expect(row.next_contact_at.slice(0, 16)).toBe(next);
    expect(row.last_follow_at).not.toBe('');
    // 今日待联系 holds it unless the call is due tomorrow
    const today = (await s.call('crmlist', { view: 'mine', chip: 'today', limit: 200 }, sales)).data.items as Array<{ id: number }>;
    if (next.slice(0, 10) === row.last_follow_at.slice(0, 10)) expect(today.map((r) => r.id)).toContain(id);
    // an earlier date is 已逾期
    await sql`UPDATE crm_customers SET next_contact_at = now() - interval '3 days' WHERE id = ${id}`.execute(s.database.db);
    const overdue = (await s.call('crmlist', { view: 'mine', chip: 'overdue', limit: 200 }, sales)).data.items as Array<{ id: number }>;
    expect(overdue.map((r) => r.id)).toContain(id);
    // a warning on the consultant's to-do list is settled by a follow-up
    await sql`INSERT INTO backlog (rid, kind, source_id, title, link, roles) VALUES (1, 'crmpool', ${String(id)}, '客户即将掉入公海', '/crm/crm_show?id=1', '{crm}')`.execute(
      s.database.db,
    );
    ok(await s.call('salescalladd', { customer_id: id, kind: 'wechat', content: '微信发了价格单' }, sales));
    const todo = await s.database.db
      .selectFrom('backlog')
      .select('status')
      .where('kind', '=', 'crmpool')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('Y');
    const after = (await s.call('crminfo', { id }, sales)).data;
    expect(after).toMatchObject({ last_follow_text: '微信发了价格单', next_contact_at: '' });
  });

  it('are written by the customer’s consultant (or a manager), with a next contact in the future', async () => {
    const id = await addCustomer(sales, { name: '跟进权限' });
    expect((await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '代为跟进' }, leasing)).return_msg).toBe(
      '该客户由其他置业顾问负责，不能查看或操作',
    );
    ok(await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '经理代为跟进' }, admin));
    const past = await s.call(
      'salescalladd',
      { customer_id: id, kind: 'phone', content: '时间在过去', next_contact_at: '2020-01-01 10:00' },
      sales,
    );
    expect(past.return_msg).toBe('下次联系时间须晚于现在');
    expect((await s.call('salescalladd', { customer_id: id, kind: 'fax', content: '方式不对' }, sales)).return_msg).toContain(
      '跟进方式取值不正确',
    );
    expect((await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '' }, sales)).return_msg).toContain('请填写跟进内容');
    // a pool customer is claimed first
    ok(await s.call('crmrelease', { ids: [id], reason: '测试' }, sales));
    expect((await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '公海客户' }, sales)).return_msg).toBe(
      '客户「跟进权限」在公海中，请先领取',
    );
    // another community's customer
    expect((await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '跨区' }, admin2)).return_msg).toBe('客户不存在');
  });

  it('are changed by their author within 24 hours only (a manager any time); deleting one updates the customer', async () => {
    const id = await addCustomer(sales, { name: '改跟进' });
    const first = (
      await s.call('salescalladd', { customer_id: id, kind: 'phone', content: '第一次电话', next_contact_at: tomorrow() }, sales)
    ).data.id;
    const second = (await s.call('salescalladd', { customer_id: id, kind: 'wechat', content: '第二次微信' }, sales)).data.id;
    ok(await s.call('salescalledit', { id: second, kind: 'wechat', content: '第二次微信（已发资料）' }, sales));
    expect((await s.call('crminfo', { id }, sales)).data.last_follow_text).toBe('第二次微信（已发资料）');
    await sql`UPDATE crm_followups SET created_at = now() - interval '25 hours' WHERE id = ${second}`.execute(s.database.db);
    expect((await s.call('salescalledit', { id: second, kind: 'wechat', content: '再改' }, sales)).return_msg).toBe(
      '跟进记录只能由跟进人在 24 小时内修改或删除',
    );
    expect((await s.call('salescalldel', { id: second }, sales)).return_msg).toBe('跟进记录只能由跟进人在 24 小时内修改或删除');
    const listed = (await s.call('salescalllist', { customer_id: id }, sales)).data.items as Array<{ id: number; editable: boolean }>;
    expect(listed.find((r) => r.id === second)!.editable).toBe(false);
    expect(listed.find((r) => r.id === first)!.editable).toBe(true);
    // the manager removes the old one: the customer's last follow-up is the first one again
    ok(await s.call('salescalldel', { id: second }, admin));
    expect((await s.call('crminfo', { id }, sales)).data.last_follow_text).toBe('第一次电话');
    expect((await s.call('salescalldel', { id: first }, admin2)).return_msg).toBe('跟进记录不存在');
  });

  it('show a consultant those of their customers, the pool’s and their own', async () => {
    const theirs = await addCustomer(leasing, { name: '陈的跟进' });
    ok(await s.call('salescalladd', { customer_id: theirs, kind: 'phone', content: '陈招商的跟进' }, leasing));
    const seen = (await s.call('salescalllist', { keyword: '陈的跟进' }, sales)).data;
    expect(seen.total).toBe(0);
    expect((await s.call('salescalllist', { keyword: '陈的跟进' }, admin)).data.total).toBe(1);
  });
});

describe('invitations', () => {
  it('recorded 已到访 count a visit, write a 到访 follow-up and move the customer to 来访; a visit stays a visit', async () => {
    const id = await addCustomer(sales, { name: '到访客户' });
    ok(await s.call('crmvalid', { id }, sales));
    const res = await s.call('inviteadd', { customer_id: id, invite_at: tomorrow(), visitors: 2, purpose: 'view' }, sales);
    ok(res);
    const inviteId = res.data.id as number;
    const pending = (await s.call('invitelist', { customer_id: id }, sales)).data.items[0];
    expect(pending).toMatchObject({ outcome: 'P', outcome_ch: '待到访', consultant_name: '冯顾问', arrived_at: '' });
    ok(
      await s.call(
        'inviteedit',
        { id: inviteId, invite_at: pending.invite_at, visitors: 3, purpose: 'view', outcome: 'V', result: '看了三房样板间' },
        sales,
      ),
    );
    const customer = (await s.call('crminfo', { id }, sales)).data;
    expect(customer).toMatchObject({ stage: 'visit', stage_ch: '来访', visit_count: 1 });
    expect(customer.last_follow_text).toContain('看了三房样板间');
    const calls = (await s.call('salescalllist', { customer_id: id }, sales)).data.items as Array<{ kind: string }>;
    expect(calls.map((c) => c.kind)).toContain('visit');
    const log = (await s.call('crmlog', { id }, sales)).data.items as Array<{ transition_ch: string; to_state_ch: string }>;
    expect(log.at(-1)).toMatchObject({ transition_ch: '到访', to_state_ch: '来访' });
    const visited = (await s.call('invitelist', { customer_id: id }, sales)).data.items[0];
    expect(visited.arrived_at).not.toBe('');
    expect((await s.call('inviteedit', { id: inviteId, invite_at: visited.invite_at, outcome: 'M' }, sales)).return_msg).toBe(
      '已到访的邀约不能改为其他结果',
    );
    expect((await s.call('invitedel', { id: inviteId }, sales)).return_msg).toBe('已到访的邀约不能删除');
    // a walk-in is an invitation recorded 已到访 at once: a second visit
    ok(await s.call('inviteadd', { customer_id: id, invite_at: wireMinute(new Date()), outcome: 'V', result: '再次到访' }, sales));
    expect((await s.call('crminfo', { id }, sales)).data.visit_count).toBe(2);
  });

  it('are for a consultant of the community, not for an invalid customer, nor another’s', async () => {
    const id = await addCustomer(sales, { name: '邀约规则' });
    const cashierId = Number(
      (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'cashier').executeTakeFirstOrThrow()).id,
    );
    expect((await s.call('inviteadd', { customer_id: id, invite_at: tomorrow(), consultant_id: cashierId }, sales)).return_msg).toBe(
      '所选置业顾问不存在，或不是本小区有销售客户权限的员工',
    );
    expect((await s.call('inviteadd', { customer_id: id, invite_at: '明天下午' }, sales)).return_msg).toContain(
      '时间格式为 YYYY-MM-DD HH:mm',
    );
    expect((await s.call('inviteadd', { customer_id: id, invite_at: tomorrow() }, leasing)).return_msg).toBe(
      '该客户由其他置业顾问负责，不能查看或操作',
    );
    ok(await s.call('crminvalid', { id, reason: '无意向' }, sales));
    expect((await s.call('inviteadd', { customer_id: id, invite_at: tomorrow() }, sales)).return_msg).toBe(
      '客户「邀约规则」已标记无效，请先重新激活',
    );
    // the receiving consultant sees and records an invitation to another's customer
    const other = await addCustomer(admin, { name: '接待客户' });
    const leasingId = Number(
      (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'leasing').executeTakeFirstOrThrow()).id,
    );
    const inv = (await s.call('inviteadd', { customer_id: other, invite_at: tomorrow(), consultant_id: leasingId }, admin)).data.id;
    const seen = (await s.call('invitelist', { customer_id: other }, leasing)).data.items[0];
    expect(seen.id).toBe(inv);
    ok(await s.call('inviteedit', { id: inv, invite_at: seen.invite_at, consultant_id: leasingId, outcome: 'M', result: '未到' }, leasing));
    expect((await s.call('inviteedit', { id: inv, invite_at: seen.invite_at, outcome: 'C' }, sales)).return_msg).toBe(
      '该客户由其他置业顾问负责，不能查看或操作',
    );
  });
});
