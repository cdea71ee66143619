import { crmCustomer } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { markCustomerSigned } from './sales.js';

let s: TestServer;
let admin: string;
let sales: string;
let leasing: string;
let cashier: string;
let admin2: string;
let mobileSeq = 0;
const newMobile = () => `1370101${String(++mobileSeq).padStart(4, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, sales, leasing, cashier, admin2] = await s.logins('admin', 'sales', 'leasing', 'cashier', 'admin2');
});
afterAll(() => s?.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const accountId = async (username: string) =>
  Number((await s.database.db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);

/** Adds a customer as `token` and answers its id. */
async function addCustomer(token: string, v: Record<string, unknown> = {}): Promise<number> {
  const res = await s.call('addcrm', { name: '测试客户', mobile: newMobile(), source: 'call', ...v }, token);
  ok(res);
  return res.data.id as number;
}

describeResource(crmCustomer, {
  server: () => s,
  sample: {
    name: '资源测试',
    mobile: '13701019999',
    source: 'walkin',
    channel: 'agency',
    grade: 'A',
    product: 'shop',
    area_min: '50',
    area_max: '80',
    budget_min: '100',
    budget_max: '120.5',
    tags: ['测试'],
    remark: '',
  },
  edit: { name: '资源测试二', grade: 'C', remark: '改了等级' },
  filters: { keyword: '资源测试', view: 'mine', stage: 'report' },
  deniedWriter: 'cashier',
  unique: ['mobile'],
});

describe('the demo', () => {
  it('has 60 customers of 阳光花园 across the pipeline, with follow-ups, invitations and deposits', async () => {
    const db = s.database.db;
    const stages = await db
      .selectFrom('crm_customers')
      .select(['stage', sql<number>`count(*)::int`.as('n')])
      .where('rid', '=', 1)
      .groupBy('stage')
      .execute();
    const total = stages.reduce((n, r) => n + r.n, 0);
    expect(total).toBeGreaterThanOrEqual(60);
    for (const stage of ['report', 'valid', 'visit', 'pledge', 'subscribe', 'sign', 'invalid'])
      expect(stages.find((r) => r.stage === stage)?.n ?? 0, stage).toBeGreaterThan(0);
    const pool = await db
      .selectFrom('crm_customers')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('consultant_id', 'is', null)
      .executeTakeFirstOrThrow();
    expect(pool.n).toBeGreaterThanOrEqual(6);
    const chips = (await s.call('crmchips', { view: 'mine' }, sales)).data;
    expect(chips.mine).toBeGreaterThan(10);
    expect(chips.today).toBeGreaterThan(0);
    expect(chips.overdue).toBeGreaterThan(0);
    expect(chips.falling).toBeGreaterThan(0);
    expect(chips.team).toBeNull();
    const deposits = (await s.call('intentionlist', { limit: 50 }, admin)).data.items as Array<{ status: string }>;
    for (const st of ['P', 'Y', 'R', 'T', 'C'])
      expect(
        deposits.some((d) => d.status === st),
        st,
      ).toBe(true);
    // the pool's run took back the two left unfollowed, with the reason on their timelines
    const reclaimed = await db
      .selectFrom('workflow_logs')
      .select(['row_id', 'input'])
      .where('rid', '=', 1)
      .where('flow', '=', 'crmcustomer')
      .where('transition', '=', 'pool')
      .execute();
    expect(reclaimed.length).toBeGreaterThanOrEqual(2);
  });
});

describe('a customer’s mobile', () => {
  it('is the key in the community: a second one is refused naming the customer and its consultant, and the check offers it', async () => {
    const mobile = newMobile();
    const id = await addCustomer(leasing, { name: '陈重复', mobile });
    const again = await s.call('addcrm', { name: '别人', mobile, source: 'walkin' }, sales);
    expect(again.return_code).toBe('FAIL');
    expect(again.return_msg).toBe('该手机号已登记为客户「陈重复」（置业顾问：陈招商，阶段：报备），不能重复录入');
    // the add form's look-up: it names the customer; a consultant may not open another's
    const hit = (await s.call('crmcheckmobile', { mobile }, sales)).data.hit;
    expect(hit).toMatchObject({ id, name: '陈重复', consultant_name: '陈招商', stage_ch: '报备', can_open: false, in_pool: false });
    expect((await s.call('crmcheckmobile', { mobile }, leasing)).data.hit.can_open).toBe(true);
    expect((await s.call('crmcheckmobile', { mobile }, admin)).data.hit.can_open).toBe(true);
    expect((await s.call('crmcheckmobile', { mobile, except_id: id }, leasing)).data.hit).toBeNull();
    expect((await s.call('crmcheckmobile', { mobile: newMobile() }, sales)).data.hit).toBeNull();
    // another community's customers are not its: the same mobile is free there
    ok(await s.call('addcrm', { name: '翠湖苑客户', mobile, source: 'call' }, admin2));
    expect((await s.call('crmcheckmobile', { mobile: '12345' }, sales)).return_msg).toContain('手机号码格式不正确');
  });

  it('shows masked to a consultant without contact_whole; sent back masked it keeps the stored one', async () => {
    const mobile = newMobile();
    const id = await addCustomer(sales, { name: '脱敏客户', mobile, id_card: '110101199003071233', phones: ['021-58881234'] });
    const mine = (await s.call('crminfo', { id }, sales)).data;
    expect(mine.mobile).toBe(`${mobile.slice(0, 3)}****${mobile.slice(-4)}`);
    expect(mine.id_card).toBe('1101**********1233');
    expect(mine.phones[0]).toContain('****');
    const listed = (await s.call('crmlist', { keyword: '脱敏客户' }, sales)).data.items[0];
    expect(listed.mobile).toBe(mine.mobile);
    expect((await s.call('crminfo', { id }, admin)).data.mobile).toBe(mobile);
    // the form sends what it showed: everything stays whole in the database
    ok(await s.call('editcrm', { ...mine, id, name: '脱敏客户改', source: mine.source, remark: '改名' }, sales));
    const row = await s.database.db.selectFrom('crm_customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '脱敏客户改', mobile, id_card: '110101199003071233', phones: ['021-58881234'] });
    // masked text that is not the stored one's mask is refused
    const wrong = await s.call('editcrm', { ...mine, id, mobile: '139****0000' }, sales);
    expect(wrong.return_msg).toBe('手机号码格式不正确，应为11位手机号');
    expect((await s.call('addcrm', { name: 'x', mobile: '138****8000', source: 'call' }, sales)).return_msg).toBe(
      '手机号码格式不正确，应为11位手机号',
    );
  });

  it('refuses bad payloads in Chinese and changes nothing', async () => {
    const before = (await s.call('crmlist', { view: 'mine' }, sales)).data.total;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '', mobile: newMobile(), source: 'call' }, '请输入客户姓名'],
      [{ name: '坏', mobile: '1234', source: 'call' }, '手机号码格式不正确'],
      [{ name: '坏', mobile: newMobile(), source: 'nowhere' }, '来源取值不正确'],
      [{ name: '坏', mobile: newMobile(), source: 'call', area_min: '120', area_max: '90' }, '面积上限不能小于下限'],
      [{ name: '坏', mobile: newMobile(), source: 'call', budget_min: '300', budget_max: '100' }, '预算上限不能小于下限'],
      [{ name: '坏', mobile: newMobile(), source: 'call', id_card: '110101199003071234' }, '身份证号码不正确'],
      [{ name: '坏', mobile: newMobile(), source: 'call', hid: 999999 }, '所选意向房源不存在或不属于当前小区'],
    ];
    for (const [payload, msg] of cases) {
      const res = await s.call('addcrm', payload, sales);
      expect(res.return_code, JSON.stringify(payload)).toBe('FAIL');
      expect(res.return_msg).toContain(msg);
    }
    expect((await s.call('crmlist', { view: 'mine' }, sales)).data.total).toBe(before);
  });
});

describe('who sees and works a customer', () => {
  it('gives a new customer to its creator; only a manager gives it to another consultant', async () => {
    const salesId = await accountId('sales');
    const refused = await s.call(
      'addcrm',
      { name: '分给别人', mobile: newMobile(), source: 'call', consultant_id: await accountId('leasing') },
      sales,
    );
    expect(refused.return_msg).toBe('只有销售经理可以把新客户分给其他置业顾问');
    const id = await addCustomer(admin, { name: '经理分配', consultant_id: salesId });
    expect((await s.call('crminfo', { id }, sales)).data).toMatchObject({
      consultant_id: salesId,
      consultant_name: '冯顾问',
      mine: true,
      stage: 'report',
    });
    // a cashier is not a consultant
    const cashierId = await accountId('cashier');
    expect((await s.call('addcrm', { name: 'x', mobile: newMobile(), source: 'call', consultant_id: cashierId }, admin)).return_msg).toBe(
      '所选置业顾问不存在，或不是本小区有销售客户权限的员工',
    );
  });

  it('shows a consultant their own and the pool; the team’s only to a manager', async () => {
    const theirs = await addCustomer(leasing, { name: '陈的客户' });
    expect((await s.call('crminfo', { id: theirs }, sales)).return_msg).toBe('该客户由其他置业顾问负责，不能查看或操作');
    expect((await s.call('editcrm', { id: theirs, name: '改', mobile: newMobile(), source: 'call' }, sales)).return_msg).toBe(
      '该客户由其他置业顾问负责，不能查看或操作',
    );
    expect((await s.call('crmlist', { view: 'team' }, sales)).return_msg).toBe('只有销售经理或管理员可以查看团队客户');
    const team = (await s.call('crmlist', { view: 'team', limit: 200, keyword: '陈的客户' }, admin)).data;
    expect(team.items.map((r: { id: number }) => r.id)).toContain(theirs);
    const mine = (await s.call('crmlist', { view: 'mine', limit: 200 }, sales)).data.items as Array<{
      consultant_name: string;
      mine: boolean;
    }>;
    expect(mine.every((r) => r.consultant_name === '冯顾问' && r.mine)).toBe(true);
    const pool = (await s.call('crmlist', { view: 'pool', limit: 200 }, sales)).data.items as Array<{
      id: number;
      consultant_id: number | null;
    }>;
    expect(pool.length).toBeGreaterThan(0);
    expect(pool.every((r) => r.consultant_id === null)).toBe(true);
    ok(await s.call('crminfo', { id: pool[0]!.id }, sales));
    // another community's account reads none of it
    expect((await s.call('crminfo', { id: theirs }, admin2)).return_msg).toBe('客户不存在');
    expect((await s.call('crmclaim', { ids: [pool[0]!.id] }, admin2)).return_msg).toBe('客户不存在');
    expect((await s.call('crmlog', { id: theirs }, admin2)).return_msg).toBe('客户不存在');
    // not a consultant at all
    expect((await s.call('crmlist', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });

  it('claims from the pool within the holding limit, releases with a reason, assigns by a manager: each on the timeline', async () => {
    const db = s.database.db;
    const salesId = await accountId('sales');
    const id = await addCustomer(sales, { name: '公海客户' });
    expect((await s.call('crmrelease', { ids: [id], reason: '' }, sales)).return_msg).toContain('请填写放入公海的原因');
    ok(await s.call('crmrelease', { ids: [id], reason: '客户长期不接电话' }, sales));
    expect((await s.call('crminfo', { id }, sales)).data).toMatchObject({ consultant_id: null, consultant_name: '' });
    // the limit: sales holds as many as the rules allow
    const held = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM crm_customers WHERE rid = 1 AND consultant_id = ${salesId}
      AND stage IN ('report', 'valid', 'visit', 'pledge')`.execute(db)
    ).rows[0]!.n;
    ok(
      await s.call(
        'crmpoolset',
        { pool_enabled: 'Y', pool_follow_days: 15, pool_deal_days: 90, pool_warn_days: 3, hold_limit: held },
        admin,
      ),
    );
    const full = await s.call('crmclaim', { ids: [id] }, sales);
    expect(full.return_msg).toBe(`冯顾问已持有 ${held} 位客户，上限 ${held} 位，不能再增加（可在公海规则中调整上限）`);
    expect((await s.call('crminfo', { id }, sales)).data.consultant_id).toBeNull();
    ok(
      await s.call(
        'crmpoolset',
        { pool_enabled: 'Y', pool_follow_days: 15, pool_deal_days: 90, pool_warn_days: 3, hold_limit: 200 },
        admin,
      ),
    );
    const claimed = await s.call('crmclaim', { ids: [id] }, sales);
    ok(claimed);
    expect(claimed.return_msg).toBe('已领取 1 位客户');
    expect((await s.call('crmclaim', { ids: [id] }, leasing)).return_msg).toBe('客户「公海客户」已有置业顾问，不在公海中，不能领取');
    // assigning is a manager's
    const leasingId = await accountId('leasing');
    expect((await s.call('crmassign', { ids: [id], consultant_id: leasingId }, sales)).return_code).toBe('NO_PERMISSION');
    const assigned = await s.call('crmassign', { ids: [id], consultant_id: leasingId, reason: '陈招商熟悉商铺' }, admin);
    ok(assigned);
    expect(assigned.return_msg).toBe('已将 1 位客户分配给陈招商');
    expect((await s.call('crmassign', { ids: [id], consultant_id: leasingId }, admin)).return_msg).toBe('所选客户已由陈招商负责');
    const log = (await s.call('crmlog', { id }, leasing)).data.items as Array<{
      transition: string;
      transition_ch: string;
      input: Record<string, unknown>;
    }>;
    expect(log.map((l) => l.transition)).toEqual(['create', 'release', 'claim', 'assign']);
    expect(log.map((l) => l.transition_ch)).toEqual(['录入（报备）', '放入公海', '领取', '分配/转移']);
    expect(log[3]!.input).toEqual({ from_consultant: '冯顾问', consultant: '陈招商', reason: '陈招商熟悉商铺' });
  });
});

describe('the pipeline', () => {
  it('goes 报备 → 有效 → 认购 → 签约 with its inputs, each step on the timeline', async () => {
    const id = await addCustomer(sales, { name: '流程客户' });
    expect((await s.call('crmvalid', { id }, leasing)).return_msg).toBe('该客户由其他置业顾问负责，不能查看或操作');
    const valid = await s.call('crmvalid', { id }, sales);
    ok(valid);
    expect(valid.data).toMatchObject({ stage: 'valid', stage_ch: '有效' });
    expect((await s.call('crmvalid', { id }, sales)).return_msg).toBe('该客户已处理');
    expect((await s.call('crmsign', { id, contract_no: 'X1' }, sales)).return_msg).toBe('该客户已处理');
    expect((await s.call('crmsubscribe', { id, remark: '' }, sales)).return_msg).toContain('请填写认购说明');
    ok(await s.call('crmsubscribe', { id, remark: '5号楼1单元1501，总价 230 万，定金 5 万' }, sales));
    const signed = await s.call('crmsign', { id, contract_no: 'XS20260001' }, sales);
    ok(signed);
    expect(signed.data).toMatchObject({ stage: 'sign', contract_no: 'XS20260001', pool_due: '' });
    const log = (await s.call('crmlog', { id }, sales)).data.items as Array<{
      transition: string;
      to_state_ch: string;
      input: Record<string, unknown>;
    }>;
    expect(log.map((l) => [l.transition, l.to_state_ch])).toEqual([
      ['create', '报备'],
      ['valid', '有效'],
      ['subscribe', '认购'],
      ['sign', '签约'],
    ]);
    expect(log[3]!.input).toEqual({ contract_no: 'XS20260001' });
    // a dealt customer is not deleted, nor put into the pool
    expect((await s.call('crmdel', { id }, sales)).return_msg).toBe('客户「流程客户」已签约，不能删除');
    expect((await s.call('crmrelease', { ids: [id], reason: '测试' }, sales)).return_msg).toBe('客户「流程客户」已签约，不能放入公海');
  });

  it('marks invalid with a reason from an open stage; a manager alone reopens it', async () => {
    const id = await addCustomer(sales, { name: '无效客户' });
    expect((await s.call('crminvalid', { id, reason: '' }, sales)).return_msg).toContain('请填写无效原因');
    ok(await s.call('crminvalid', { id, reason: '预算不足' }, sales));
    expect((await s.call('crminfo', { id }, sales)).data).toMatchObject({ stage: 'invalid', invalid_reason: '预算不足', pool_due: '' });
    expect((await s.call('crmreopen', { id }, sales)).return_code).toBe('NO_PERMISSION');
    const reopened = await s.call('crmreopen', { id, reason: '客户重新来电' }, admin);
    ok(reopened);
    expect(reopened.data).toMatchObject({ stage: 'report', invalid_reason: '' });
  });

  it('is signed by a contract through markCustomerSigned, from any stage, once', async () => {
    const id = await addCustomer(sales, { name: '合同客户' });
    expect(await markCustomerSigned(s.database.db, 1, id, 'HT-001')).toBe(true);
    expect(await markCustomerSigned(s.database.db, 1, id, 'HT-001')).toBe(false);
    expect(await markCustomerSigned(s.database.db, 2, id, 'HT-001')).toBe(false);
    const row = (await s.call('crminfo', { id }, sales)).data;
    expect(row).toMatchObject({ stage: 'sign', contract_no: 'HT-001' });
    const last = ((await s.call('crmlog', { id }, sales)).data.items as Array<{ transition_ch: string; operator: string }>).at(-1)!;
    expect(last).toMatchObject({ transition_ch: '合同签约', operator: '合同签约' });
  });
});
