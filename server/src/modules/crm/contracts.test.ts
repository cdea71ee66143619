import { addDays, contractType, RC, roomSales } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';
import { billDueInstalments, expireContracts } from './contractsMoney.js';

let s: TestServer;
let admin: string;
let admin2: string;
let leasing: string;
let cashier: string;
let finance: string;
let sales: string;
let saleType = 0;
let leaseType = 0;
let otherType = 0;

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
/** The data of a call that must succeed. */
async function got(method: string, payload: Record<string, unknown>, token: string) {
  const res = await s.call(method, payload, token);
  ok(res);
  return res.data;
}
const day = today();

/** Rooms of community 1 no contract holds, one at a time. */
const taken = new Set<number>();
async function freeRoom(): Promise<{ id: number; bid: number; built_area: string }> {
  const r = await s.database.db
    .selectFrom('rooms')
    .select(['id', 'bid', 'built_area'])
    .where('rid', '=', 1)
    .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM contract_units u WHERE u.rid = rooms.rid AND u.hid = rooms.id)`)
    .$if(taken.size > 0, (q) => q.where('id', 'not in', [...taken]))
    .orderBy('id')
    .executeTakeFirstOrThrow();
  taken.add(Number(r.id));
  return { id: Number(r.id), bid: Number(r.bid), built_area: r.built_area };
}

let seq = 0;
/** A sale draft's payload on a free room: 1,000,000.00 in a deposit and a down payment. */
async function salePayload(v: Record<string, unknown> = {}) {
  const room = await freeRoom();
  return {
    contract_no: `T-${Date.now() % 1e7}-${++seq}`,
    name: '测试买卖合同',
    type_id: saleType,
    party_name: '测试乙方',
    party_mobile: '13700001111',
    party_id_card: '',
    units: [{ unit_kind: 'room', unit_id: room.id, area: room.built_area, price: '1000000.00' }],
    total_amount: '1000000.00',
    instalments: [
      { name: '定金', amount: '100000.00', due_date: day },
      { name: '首付', amount: '900000.00', due_date: addDays(day, 30) },
    ],
    sign_date: day,
    start_date: day,
    end_date: '',
    custom: { f1: '一次性付款' },
    remark: '',
    ...v,
  };
}

async function draft(v: Record<string, unknown> = {}, token = leasing): Promise<number> {
  const res = await s.call('addroomsales', await salePayload(v), token);
  ok(res);
  return res.data.id as number;
}

const info = async (id: number, token = admin) => (await s.call('roomsalesinfo', { id }, token)).data;

/** A draft submitted by leasing and approved by admin: in effect. */
async function effective(v: Record<string, unknown> = {}): Promise<number> {
  const id = await draft(v);
  ok(await s.call('contractsubmit', { id }, leasing));
  ok(await s.call('contractaudit', { id, approve: true, opinion: '同意' }, admin));
  return id;
}

const counts = async () => {
  const db = s.database.db;
  const n = async (t: 'contracts' | 'contract_instalments' | 'contract_units') =>
    Number(
      (
        await db
          .selectFrom(t)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { contracts: await n('contracts'), instalments: await n('contract_instalments'), units: await n('contract_units') };
};

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, leasing, cashier, finance, sales] = await s.logins('admin', 'admin2', 'leasing', 'cashier', 'finance', 'sales');
  const types = await s.database.db.selectFrom('contract_types').select(['id', 'kind']).where('rid', '=', 1).execute();
  saleType = Number(types.find((t) => t.kind === 'sale')!.id);
  leaseType = Number(types.find((t) => t.kind === 'lease')!.id);
  otherType = Number(types.find((t) => t.kind === 'other')!.id);
});
afterAll(() => s?.close());

describeResource(contractType, {
  server: () => s,
  sample: {
    name: '测试合同类型',
    kind: 'sale',
    prefix: 'TS',
    date_format: 'YYYYMMDD',
    seq_len: 3,
    need_audit: 'Y',
    fields: [{ label: '付款方式', type: 'select', required: true, options: ['一次性'] }],
    status: 'Y',
    sort: 9,
    remark: '',
  },
  edit: { name: '测试合同类型二', prefix: 'TT' },
  filters: { name: '测试合同', kind: 'sale', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['name'],
});

describeResource(roomSales, {
  server: () => s,
  writer: 'leasing',
  sample: async () => ({ ...(await salePayload()), contract_no: 'DESC-0001', party_name: '描述乙方' }),
  edit: { name: '测试买卖合同（改）', party_name: '描述乙方二' },
  filters: { contract_no: 'DESC-0001', keyword: '描述乙方', kind: 'sale', status: 'D', section: 'units', signed: [day, day] },
  deniedWriter: 'cashier',
  unique: ['contract_no'],
});

describe('contract types', () => {
  it('numbers by the rule and keys the custom fields for good', async () => {
    const t = await s.call(
      'contracttypeadd',
      { name: '储藏室买卖', kind: 'sale', prefix: 'CC', date_format: 'YYYYMM', seq_len: 4, fields: [{ label: '层高', type: 'number' }] },
      leasing,
    );
    ok(t);
    const listed = (await got('contracttypelist', { name: '储藏室买卖' }, leasing)).items[0];
    expect(listed.example_no).toBe(`CC${day.replace(/-/g, '').slice(0, 6)}0001`);
    expect(listed.fields).toEqual([{ key: 'f1', label: '层高', type: 'number', required: false, options: [] }]);
    // a field added keeps the first one's key; a key the type never had is refused
    ok(
      await s.call(
        'contracttypeedit',
        {
          id: t.data.id,
          name: '储藏室买卖',
          kind: 'sale',
          prefix: 'CC',
          date_format: 'YYYYMM',
          seq_len: 4,
          fields: [
            { key: 'f1', label: '层高（米）', type: 'number' },
            { label: '朝向', type: 'select', options: ['南', '北'] },
          ],
        },
        leasing,
      ),
    );
    const again = (await got('contracttypelist', { name: '储藏室买卖' }, leasing)).items[0];
    expect(again.fields.map((f: { key: string }) => f.key)).toEqual(['f1', 'f2']);
    const forged = await s.call(
      'contracttypeedit',
      { id: t.data.id, name: '储藏室买卖', kind: 'sale', prefix: 'CC', fields: [{ key: 'f9', label: 'x', type: 'text' }] },
      leasing,
    );
    expect(forged.return_msg).toBe('自定义字段不正确，请刷新后重试');
    expect((await s.call('contracttypeadd', { name: '坏', kind: 'sale', prefix: '前缀' }, leasing)).return_msg).toContain('编号前缀');
    expect(
      (await s.call('contracttypeadd', { name: '坏', kind: 'sale', prefix: 'B', fields: [{ label: 'x', type: 'select' }] }, leasing))
        .return_msg,
    ).toContain('选项类字段须至少填写一个选项');
    // a type with contracts is not deleted
    expect((await s.call('contracttypedel', { id: saleType }, admin)).return_msg).toBe('该合同类型下已有合同，不能删除，可改为停用');
  });
});

describe('drafting a contract', () => {
  it('numbers an empty number by the type rule and reserves the room', async () => {
    const id = await draft({ contract_no: '' });
    const c = await info(id);
    expect(c.contract_no).toMatch(new RegExp(`^HT${day.replace(/-/g, '')}\\d{3}$`));
    expect(c.status_ch).toBe('草稿');
    expect(c.units).toHaveLength(1);
    expect(c.instalments.map((i: { name: string }) => i.name)).toEqual(['定金', '首付']);
    const unit = (await got('rentroomlist', { unit_kind: 'room', state: 'reserved', limit: 200 }, leasing)).items;
    expect(unit.some((u: { unit_id: number }) => u.unit_id === c.units[0].unit_id)).toBe(true);
  });

  it('refuses a plan that does not add up to the total, to the fen, and changes nothing', async () => {
    const before = await counts();
    const res = await s.call(
      'addroomsales',
      await salePayload({
        instalments: [
          { name: '定金', amount: '100000.00', due_date: day },
          { name: '首付', amount: '899999.99', due_date: addDays(day, 30) },
        ],
      }),
      leasing,
    );
    expect(res.return_msg).toBe('收款计划合计 999999.99 元，须等于合同总额 1000000.00 元');
    const none = await s.call('addroomsales', await salePayload({ instalments: [] }), leasing);
    expect(none.return_msg).toBe('请填写收款计划');
    const twice = await s.call(
      'addroomsales',
      await salePayload({
        instalments: [
          { name: '定金', amount: '500000.00', due_date: day },
          { name: '定金', amount: '500000.00', due_date: day },
        ],
      }),
      leasing,
    );
    expect(twice.return_msg).toContain('有两期，请合并为一期');
    expect(await counts()).toEqual(before);
  });

  it('refuses a number taken, a room another contract holds, a missing custom field and bad payloads', async () => {
    const payload = await salePayload();
    ok(await s.call('addroomsales', payload, leasing));
    expect((await s.call('addroomsales', { ...payload, units: [] }, leasing)).return_msg).toBe(`合同编号 ${payload.contract_no} 已存在`);
    const same = await s.call('addroomsales', { ...payload, contract_no: '' }, leasing);
    expect(same.return_msg).toMatch(/已在合同 T-.*（草稿）中，不能重复签约/);
    const before = await counts();
    expect((await s.call('addroomsales', await salePayload({ custom: {} }), leasing)).return_msg).toBe('付款方式不能为空');
    expect((await s.call('addroomsales', await salePayload({ custom: { f1: '分期' } }), leasing)).return_msg).toBe(
      '付款方式的取值不在选项中',
    );
    expect((await s.call('addroomsales', await salePayload({ party_mobile: '12345' }), leasing)).return_msg).toContain(
      '联系电话格式不正确',
    );
    expect((await s.call('addroomsales', await salePayload({ total_amount: '-1' }), leasing)).return_msg).toContain('金额格式不正确');
    expect((await s.call('addroomsales', await salePayload({ end_date: addDays(day, -1) }), leasing)).return_msg).toContain(
      '结束日期不能早于生效日期',
    );
    expect((await s.call('addroomsales', await salePayload({ name: '' }), leasing)).return_msg).toContain('合同名称不能为空');
    expect((await s.call('addroomsales', await salePayload({ units: [] }), leasing)).return_msg).toBe('请选择房源');
    expect(await counts()).toEqual(before);
  });

  it("reads another community's ids as 不存在", async () => {
    const id = await draft();
    for (const [method, payload] of [
      ['roomsalesinfo', { id }],
      ['roomsalesdel', { id }],
      ['contractsubmit', { id }],
      ['contractaudit', { id, approve: true }],
      ['contractlog', { id }],
      ['contractauditinfo', { id }],
      ['contractrenew', { id }],
    ] as const) {
      const res = await s.call(method, payload, admin2);
      expect(res.return_code, method).toBe('FAIL');
      expect(res.return_msg, method).toBe('合同不存在');
    }
    const room = await s.database.db.selectFrom('rooms').select(['id', 'built_area']).where('rid', '=', 2).executeTakeFirstOrThrow();
    const t2 = await s.call('contracttypeadd', { name: '买卖', kind: 'sale', prefix: 'B' }, admin2);
    ok(t2);
    const theirs = await s.call(
      'addroomsales',
      { ...(await salePayload()), type_id: t2.data.id, custom: {}, units: [{ unit_kind: 'room', unit_id: 1, price: '1000000.00' }] },
      admin2,
    );
    expect(theirs.return_msg).toBe('所选房屋不存在或不属于当前小区');
    // their own room works, and community 1 reads it as 不存在
    const mine2 = await s.call(
      'addroomsales',
      {
        ...(await salePayload()),
        type_id: t2.data.id,
        custom: {},
        units: [{ unit_kind: 'room', unit_id: Number(room.id), price: '1000000.00' }],
      },
      admin2,
    );
    ok(mine2);
    expect((await s.call('roomsalesinfo', { id: mine2.data.id }, admin)).return_msg).toBe('合同不存在');
    expect((await s.call('addroomsales', await salePayload({ type_id: t2.data.id }), admin)).return_msg).toBe('合同类型不存在');
  });
});

describe('approval', () => {
  it('submits into approval with a to-do, refuses the submitter and a non-approver, returns with an opinion, approves', async () => {
    const id = await draft();
    const submitted = await s.call('contractsubmit', { id }, leasing);
    ok(submitted);
    expect(submitted.data.status_ch).toBe('审批中');
    const todo = await s.database.db
      .selectFrom('backlog')
      .select(['status', 'link'])
      .where('rid', '=', 1)
      .where('kind', '=', 'contractaudit')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(todo).toEqual({ status: 'E', link: `/crm/contract_audit?id=${id}` });
    // leasing holds rentroom, not contractaudit
    expect((await s.call('contractaudit', { id, approve: true }, leasing)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('contractaudit', { id, approve: true }, sales)).return_code).toBe(RC.NO_PERMISSION);
    // an approver who submitted it may not decide it
    const own = await draft({}, admin);
    ok(await s.call('contractsubmit', { id: own }, admin));
    expect((await s.call('contractaudit', { id: own, approve: true }, admin)).return_msg).toBe(
      '不能审批自己提交的合同，请由其他有审批权限的人员处理',
    );
    // a draft in approval is not edited
    expect((await s.call('editroomsales', { ...(await salePayload()), id }, leasing)).return_msg).toBe(
      '只有草稿可以修改；生效后的修改请提交变更申请',
    );
    expect((await s.call('contractaudit', { id, approve: false, opinion: '' }, admin)).return_msg).toBe('请填写退回意见');
    const back = await s.call('contractaudit', { id, approve: false, opinion: '首付比例不符合政策' }, admin);
    ok(back);
    expect(back.data.status_ch).toBe('草稿');
    const settled = await s.database.db
      .selectFrom('backlog')
      .select('status')
      .where('kind', '=', 'contractaudit')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(settled.status).toBe('Y');
    ok(await s.call('contractsubmit', { id }, leasing));
    const pass = await s.call('contractaudit', { id, approve: true, opinion: '同意' }, admin);
    ok(pass);
    expect(pass.return_msg).toBe('审批通过，合同已生效');
    expect((await s.call('contractaudit', { id, approve: true }, admin)).return_msg).toBe('该合同已处理');
    // the trail: 起草, 提交, 退回 (with its opinion), 提交, 通过
    const trail = (await got('contractauditinfo', { id }, leasing)).trail as Array<{ transition_ch: string; opinion: string }>;
    expect(trail.map((t) => t.transition_ch)).toEqual(['起草', '提交审批', '退回', '提交审批', '通过']);
    expect(trail[2]!.opinion).toBe('首付比例不符合政策');
    // the audit list: admin decided it; leasing submitted it
    const done = (await got('contractauditlist', { tab: 'done', limit: 200 }, admin)).items as Array<{ key: string }>;
    expect(done.some((r) => r.key === `contract-${id}`)).toBe(true);
    const mine = (await got('contractauditlist', { tab: 'mine', limit: 200 }, leasing)).items as Array<{ key: string }>;
    expect(mine.some((r) => r.key === `contract-${id}`)).toBe(true);
    // an approved contract is neither deleted nor voided
    expect((await s.call('roomsalesdel', { id }, leasing)).return_msg).toBe('只有草稿可以删除；审批中或生效的合同请作废或终止');
    expect((await s.call('contractvoid', { id, reason: 'x' }, leasing)).return_msg).toBe('该合同已处理');
  });

  it('takes effect at once for a type without approval; voids a draft and frees its room', async () => {
    const res = await s.call(
      'addroomsales',
      { ...(await salePayload()), type_id: otherType, custom: { f1: '绿化养护' }, units: [], instalments: [] },
      leasing,
    );
    ok(res);
    const auto = await s.call('contractsubmit', { id: res.data.id }, leasing);
    ok(auto);
    expect(auto.data.status_ch).toBe('生效');
    const id = await draft();
    const room = (await info(id)).units[0].unit_id;
    ok(await s.call('contractvoid', { id, reason: '客户放弃购买' }, leasing));
    const states = await got('rentroomlist', { unit_kind: 'room', state: 'available', keyword: '', limit: 200, page: 1 }, leasing);
    expect(states.counts.available).toBeGreaterThan(0);
    const row = await s.database.db
      .selectFrom('contract_unit_states')
      .select('state')
      .where('rid', '=', 1)
      .where('unit_kind', '=', 'room')
      .where('unit_id', '=', room)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('money', () => {
  it('bills instalments as they fall due, never twice; the cashier takes one; progress shows it paid and the rest', async () => {
    const id = await effective({
      instalments: [
        { name: '定金', amount: '100000.00', due_date: addDays(day, 3) },
        { name: '首付', amount: '300000.00', due_date: addDays(day, 20) },
        { name: '按揭', amount: '600000.00', due_date: addDays(day, 90) },
      ],
    });
    const first = await s.call('contractjobrun', { as_of: day }, admin);
    ok(first);
    expect(first.data.billed).toBeGreaterThanOrEqual(1);
    let c = await info(id);
    expect(c.instalments.map((i: { state: string }) => i.state)).toEqual(['billed', 'planned', 'planned']);
    const billId = c.instalments[0].bill_id as number;
    const bill = await s.database.db
      .selectFrom('fee_bills as b')
      .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
      .innerJoin('fee_cost_types as t', (j) => j.onRef('t.rid', '=', 'b.rid').onRef('t.cost_type', '=', 'b.cost_type'))
      .select(['b.fee', 'b.hid', 'b.source', 'i.title as item', 't.title as cost', sql<string>`b.due_date::text`.as('due')])
      .where('b.rid', '=', 1)
      .where('b.id', '=', billId)
      .executeTakeFirstOrThrow();
    expect(bill).toMatchObject({
      fee: '100000.00',
      hid: c.hid,
      source: 'contract',
      item: '合同定金',
      cost: '销售收入',
      due: addDays(day, 3),
    });
    // again on the same day, and by the daily job's function: nothing twice
    expect((await s.call('contractjobrun', { as_of: day }, admin)).data.billed).toBe(0);
    expect(await billDueInstalments(s.database.db, day)).toBe(0);
    const bills = await s.database.db
      .selectFrom('fee_bills')
      .select('id')
      .where('rid', '=', 1)
      .where('hid', '=', c.hid)
      .where('source', '=', 'contract')
      .execute();
    expect(bills).toHaveLength(1);
    // only admin runs the jobs at a given day
    expect((await s.call('contractjobrun', { as_of: day }, leasing)).return_code).toBe(RC.NO_PERMISSION);
    // the cashier takes the deposit
    const pay = await s.call(
      'cashierpay',
      { hid: c.hid, bill_ids: [billId], pay_type: 'cash', idempotency_key: `contract-pay-${id}`, paid_amount: '100000.00' },
      cashier,
    );
    ok(pay);
    c = await info(id);
    expect(c.instalments[0]).toMatchObject({ state: 'paid', receipt_no: pay.data.receipt_no });
    expect(c.paid_amount).toBe('100000.00');
    const progress = await got('contractcolprogress', { keyword: c.contract_no }, leasing);
    expect(progress.items[0]).toMatchObject({
      paid_amount: '100000.00',
      outstanding: '900000.00',
      paid_percent: '10.0',
      overdue_amount: '0.00',
    });
    // 21 days on, the down payment is billed; 30 days on, it is overdue
    expect((await s.call('contractjobrun', { as_of: addDays(day, 14) }, admin)).data.billed).toBeGreaterThanOrEqual(1);
    c = await info(id);
    expect(c.instalments[1].state).toBe('billed');
    // the refund of the deposit goes through the fees' refund flow and is listed per contract
    ok(await s.call('refundapply', { payment_id: pay.data.id, reason: '客户申请退定金' }, cashier));
    const refunds = await got('contractrefundlist', { contract_id: id }, leasing);
    expect(refunds.items).toHaveLength(1);
    expect(refunds.items[0]).toMatchObject({ contract_id: id, instalments: '定金', status_ch: '待审核', amount: '100000.00' });
    const refundId = refunds.items[0].id as number;
    ok(await s.call('refundapprove', { id: refundId, approve: true, remark: '同意' }, finance));
    // the contract runs: the deposit is owed again
    c = await info(id);
    expect(c.instalments[0].state).toBe('billed');
    expect((await got('contractrefundlist', { contract_id: id }, leasing)).items[0].status_ch).toBe('已退款');
  });

  it('contractmonthly counts a month’s signed contracts, its plan and what was paid, by month and for the year', async () => {
    const year = Number(day.slice(0, 4));
    const month = Number(day.slice(5, 7));
    const report = async (token = leasing) => got('contractmonthly', { year }, token);
    const before = await report();
    const otherBefore = await report(admin2);
    // a draft is not signed; the approved one is, with its plan due this month
    await draft();
    const id = await effective({
      instalments: [
        { name: '定金', amount: '100000.00', due_date: day },
        { name: '首付', amount: '900000.00', due_date: day },
      ],
    });
    ok(await s.call('contractjobrun', { as_of: day }, admin));
    const c = await info(id);
    const pay = await s.call(
      'cashierpay',
      {
        hid: c.hid,
        bill_ids: [c.instalments[0].bill_id],
        pay_type: 'cash',
        idempotency_key: `monthly-pay-${id}`,
        paid_amount: '100000.00',
      },
      cashier,
    );
    ok(pay);
    const after = await report();
    const row = (r: typeof after) => r.rows[month - 1];
    const plus = (a: string, b: string) => (Number(a) + Number(b)).toFixed(2);
    expect(after.rows).toHaveLength(12);
    expect(row(after)).toMatchObject({
      month,
      signed_count: row(before).signed_count + 1,
      signed_amount: plus(row(before).signed_amount, '1000000.00'),
      kinds: { ...row(before).kinds, sale: row(before).kinds.sale + 1 },
      planned_amount: plus(row(before).planned_amount, '1000000.00'),
      planned_paid: plus(row(before).planned_paid, '100000.00'),
      collected_amount: plus(row(before).collected_amount, '100000.00'),
      collected_count: row(before).collected_count + 1,
    });
    expect(after.totals.signed_count).toBe(before.totals.signed_count + 1);
    expect(after.totals.collected_amount).toBe(plus(before.totals.collected_amount, '100000.00'));
    // the year's totals are the months' sums
    expect(after.totals.signed_count).toBe(after.rows.reduce((n: number, r: { signed_count: number }) => n + r.signed_count, 0));
    const rate = (Math.round((Number(row(after).planned_paid) / Number(row(after).planned_amount)) * 1000) / 10).toFixed(1);
    expect(row(after).collection_rate).toBe(rate);
    // another community's report is its own; a cashier may not read it; a bad year changes nothing
    expect(await report(admin2)).toEqual(otherBefore);
    expect((await s.call('contractmonthly', { year }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    const bad = await s.call('contractmonthly', { year: 1999 }, leasing);
    expect(bad.return_code).toBe(RC.FAIL);
    expect(bad.return_msg).toBeTruthy();
    const exported = await s.call('contractmonthlyexport', { year }, leasing);
    ok(exported);
    expect(exported.data.job_id).toBeGreaterThan(0);
  });

  it('marks unpaid instalments past due as overdue and filters them', async () => {
    const id = await effective({
      sign_date: addDays(day, -40),
      start_date: addDays(day, -40),
      instalments: [
        { name: '定金', amount: '100000.00', due_date: addDays(day, -40) },
        { name: '首付', amount: '900000.00', due_date: addDays(day, -10) },
      ],
    });
    await billDueInstalments(s.database.db, day, 1);
    const c = await info(id);
    expect(c.instalments.map((i: { state: string }) => i.state)).toEqual(['overdue', 'overdue']);
    expect(c.instalments[1].overdue_days).toBe(10);
    const rows = (await got('contractcolprogress', { collection: 'overdue', limit: 200 }, leasing)).items as Array<{
      id: number;
      overdue_amount: string;
      overdue_days: number;
    }>;
    expect(rows.find((r) => r.id === id)).toMatchObject({ overdue_amount: '1000000.00', overdue_days: 40 });
    const listed = (await got('roomsaleslist', { overdue: 'Y', limit: 200 }, leasing)).items as Array<{ id: number }>;
    expect(listed.some((r) => r.id === id)).toBe(true);
  });
});

describe('changes after approval', () => {
  it('applies a change only once approved; keeps billed instalments; returns one unchanged', async () => {
    const id = await effective();
    await billDueInstalments(s.database.db, day, 1);
    const c = await info(id);
    const [deposit, down] = c.instalments as Array<{ id: number; name: string; amount: string; due_date: string }>;
    const change = {
      id,
      reason: '客户申请优惠 2 万元',
      party_name: c.party_name,
      party_mobile: c.party_mobile,
      party_id_card: '',
      total_amount: '980000.00',
      sign_date: c.sign_date,
      start_date: c.start_date,
      end_date: '',
      instalments: [deposit, { ...down, amount: '880000.00' }],
    };
    // the billed deposit may not change
    expect(
      (
        await s.call(
          'contractchangeadd',
          {
            ...change,
            instalments: [
              { ...deposit, amount: '80000.00' },
              { ...down, amount: '900000.00' },
            ],
          },
          leasing,
        )
      ).return_msg,
    ).toBe('第 1 期（定金）已出账，不能修改或删除');
    expect((await s.call('contractchangeadd', { ...change, total_amount: '990000.00' }, leasing)).return_msg).toBe(
      '收款计划合计 980000.00 元，须等于合同总额 990000.00 元',
    );
    const made = await s.call('contractchangeadd', change, leasing);
    ok(made);
    expect((await s.call('contractchangeadd', change, leasing)).return_msg).toBe('该合同已有待审批的变更申请');
    // nothing changed yet
    expect((await info(id)).total_amount).toBe('1000000.00');
    expect((await info(id)).pending_change).toBe(true);
    const listed = (await got('contractauditlist', { tab: 'todo', kind: 'change', limit: 200 }, admin)).items as Array<{ key: string }>;
    expect(listed.some((r) => r.key === `change-${made.data.id}`)).toBe(true);
    expect((await s.call('contractchangeaudit', { id: made.data.id, approve: true }, leasing)).return_code).toBe(RC.NO_PERMISSION);
    const back = await s.call('contractchangeaudit', { id: made.data.id, approve: false, opinion: '优惠未经批准' }, admin);
    ok(back);
    expect((await info(id)).total_amount).toBe('1000000.00');
    // submitted again and approved: applied
    const again = await s.call('contractchangeadd', change, leasing);
    ok(again);
    const pass = await s.call('contractchangeaudit', { id: again.data.id, approve: true, opinion: '同意' }, admin);
    ok(pass);
    expect(pass.data.diff.map((d: { label: string }) => d.label)).toEqual(['合同总额', '收款计划']);
    const after = await info(id);
    expect(after.total_amount).toBe('980000.00');
    expect(after.instalments.map((i: { amount: string }) => i.amount)).toEqual(['100000.00', '880000.00']);
    expect(after.instalments[0].bill_id).toBe(c.instalments[0].bill_id);
    const trail = (await got('contractauditinfo', { id }, leasing)).trail as Array<{ transition_ch: string }>;
    expect(trail.map((t) => t.transition_ch)).toContain('变更生效');
    expect(trail.map((t) => t.transition_ch)).toContain('变更：退回');
  });
});

describe('end of a contract', () => {
  it('expires a lease past its end (as of a day), renews it, and the renewal in effect makes it 已续签', async () => {
    const room = await freeRoom();
    const res = await s.call(
      'addroomsales',
      {
        ...(await salePayload()),
        type_id: leaseType,
        custom: {},
        units: [{ unit_kind: 'room', unit_id: room.id, area: room.built_area, price: '36000.00' }],
        total_amount: '36000.00',
        instalments: [{ name: '其他', amount: '36000.00', due_date: day }],
        end_date: addDays(day, 100),
      },
      leasing,
    );
    ok(res);
    const id = res.data.id as number;
    ok(await s.call('contractsubmit', { id }, leasing));
    ok(await s.call('contractaudit', { id, approve: true }, admin));
    expect(
      (await got('rentroomlist', { unit_kind: 'room', state: 'rented', limit: 200 }, leasing)).items.some(
        (u: { unit_id: number }) => u.unit_id === room.id,
      ),
    ).toBe(true);
    // without a filter the counts come from the units' keys and the held states: the same as rooms and spaces apart
    const all = await got('rentroomlist', {}, leasing);
    const rooms = await got('rentroomlist', { unit_kind: 'room' }, leasing);
    const spaces = await got('rentroomlist', { unit_kind: 'space' }, leasing);
    for (const k of Object.keys(all.counts)) expect(all.counts[k], k).toBe(rooms.counts[k] + spaces.counts[k]);
    expect(all.total).toBe(rooms.total + spaces.total);
    expect(all.counts.rented).toBeGreaterThanOrEqual(1);
    expect((await got('rentroomlist', { state: 'rented' }, leasing)).total).toBe(all.counts.rented);
    // the pages run through the rooms, then the spaces: the page across the border holds the last rooms and the first spaces
    const size = 7;
    const border = Math.floor((rooms.total - 1) / size) + 1;
    const keys = async (page: number) =>
      ((await got('rentroomlist', { limit: size, page }, leasing)).items as Array<{ key: string }>).map((u) => u.key);
    const lastRooms = (await got('rentroomlist', { unit_kind: 'room', limit: size, page: border }, leasing)).items as Array<{
      key: string;
    }>;
    const firstSpaces = (await got('rentroomlist', { unit_kind: 'space', limit: size, page: 1 }, leasing)).items as Array<{ key: string }>;
    const across = [...lastRooms, ...firstSpaces].map((u) => u.key);
    expect(await keys(border)).toEqual(across.slice(0, size));
    expect(spaces.total).toBeGreaterThan(size);
    expect((await keys(border + 1))[0]).toBe(across[size]);
    const last = await got('rentroomlist', { limit: size, page: Math.ceil(all.total / size) }, leasing);
    expect(last.total).toBe(all.total);
    const lastSpace = await got('rentroomlist', { unit_kind: 'space', limit: size, page: Math.ceil(spaces.total / size) }, leasing);
    expect(last.items.at(-1).key).toBe(lastSpace.items.at(-1).key);
    // its last day is still in effect (other contracts of the demo may end before it)
    await expireContracts(s.database.db, addDays(day, 100), 1);
    expect((await info(id)).status_ch).toBe('生效');
    expect(await expireContracts(s.database.db, addDays(day, 101), 1)).toBeGreaterThanOrEqual(1);
    expect((await info(id)).status_ch).toBe('到期');
    const renewal = await s.call('contractrenew', { id }, leasing);
    ok(renewal);
    expect((await s.call('contractrenew', { id }, leasing)).return_msg).toBe(`该合同已有续签合同 ${renewal.data.contract_no}`);
    const child = await info(renewal.data.id);
    expect(child).toMatchObject({ parent_id: id, start_date: addDays(day, 101), status: 'D' });
    ok(await s.call('contractsubmit', { id: renewal.data.id }, leasing));
    ok(await s.call('contractaudit', { id: renewal.data.id, approve: true }, admin));
    expect((await info(id)).status_ch).toBe('已续签');
    expect((await info(id)).renewal_no).toBe(renewal.data.contract_no);
  });

  it('reminds a contract entering the 即将到期 window once: its party by SMS, the contract staff in their inbox', async () => {
    const [leader] = await s.logins('leader');
    const cells = [{ event: 'contract_expiring', recipient: 'party', channel: 'sms', enabled: 'Y' }];
    ok(await s.call('messagesetedit', { cells, quiet_enabled: 'N', quiet_from: 21, quiet_to: 8, daily_cap: 5 }, leader, 'group'));
    const id = await effective({ end_date: addDays(day, 45), party_mobile: '13700002222' });
    const notes = () =>
      s.database.db
        .selectFrom('notifications')
        .selectAll()
        .where('event', '=', 'contract_expiring')
        .where('ref_id', '=', String(id))
        .execute();
    // 45 days ahead is outside the default 30 days
    ok(await s.call('contractjobrun', { as_of: day }, admin));
    expect(await notes()).toEqual([]);
    const run = await s.call('contractjobrun', { as_of: addDays(day, 15) }, admin);
    ok(run);
    expect(run.data.reminded).toBeGreaterThanOrEqual(1);
    const c = await info(id);
    const told = await notes();
    expect(told.find((n) => n.channel === 'sms')).toMatchObject({
      recipient: 'party',
      mobile: '13700002222',
      content: `您的合同《${c.name}》（编号 ${c.contract_no}）将于 ${addDays(day, 45)} 到期，如需续签请联系物业服务中心。`,
    });
    const leasingId = (await s.database.db.selectFrom('accounts').select('id').where('username', '=', 'leasing').executeTakeFirstOrThrow())
      .id;
    const inbox = told.filter((n) => n.channel === 'inbox');
    expect(inbox.some((n) => Number(n.account_id) === Number(leasingId))).toBe(true);
    expect(inbox[0]!.content).toContain('还有 30 天');
    expect(inbox[0]!.link).toBe(`/crm/roomshow?id=${id}`);
    // once a contract
    ok(await s.call('contractjobrun', { as_of: addDays(day, 16) }, admin));
    expect(await notes()).toHaveLength(told.length);
  });

  it('terminates with a reason and a date; the job bills no more of it', async () => {
    const id = await effective({
      instalments: [
        { name: '定金', amount: '100000.00', due_date: addDays(day, 40) },
        { name: '首付', amount: '900000.00', due_date: addDays(day, 60) },
      ],
    });
    expect((await s.call('contractterminate', { id, reason: '', date: day }, leasing)).return_msg).toContain('请填写终止原因');
    expect((await s.call('contractterminate', { id, reason: '客户违约', date: addDays(day, -1) }, leasing)).return_msg).toBe(
      `终止日期不能早于生效日期 ${day}`,
    );
    ok(await s.call('contractterminate', { id, reason: '客户违约', date: day }, leasing));
    expect((await s.call('contractjobrun', { as_of: addDays(day, 60) }, admin)).return_code).toBe('SUCCESS');
    const c = await info(id);
    expect(c.status_ch).toBe('终止');
    expect(c.instalments.every((i: { bill_id: number | null }) => i.bill_id === null)).toBe(true);
    expect(c.end_reason).toBe('客户违约');
  });
});

describe('attachments, units and the sales table', () => {
  it('keeps an uploaded image of the community against a contract; another community’s is refused', async () => {
    const id = await draft();
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
    const up = await s.call('imageupload', { file_base64: png, filename: '签字页.png' }, leasing);
    ok(up);
    const added = await s.call('contractfileadd', { contract_id: id, url: up.data.url, name: '签字页.png', category: '签字页' }, leasing);
    ok(added);
    expect((await got('contractfilelist', { contract_id: id }, leasing)).items).toHaveLength(1);
    const theirs = await s.call('imageupload', { file_base64: png, filename: 'x.png' }, admin2);
    expect((await s.call('contractfileadd', { contract_id: id, url: theirs.data.url, name: 'x.png' }, leasing)).return_msg).toBe(
      '图片不存在，请重新上传',
    );
    expect((await s.call('contractfileadd', { contract_id: id, url: up.data.url, name: 'x.png' }, admin2)).return_msg).toBe('合同不存在');
    // after approval only an approver deletes a file
    ok(await s.call('contractsubmit', { id }, leasing));
    ok(await s.call('contractaudit', { id, approve: true }, admin));
    expect((await s.call('contractfiledel', { id: added.data.id }, leasing)).return_msg).toBe('合同生效后附件只能由审批人删除');
    ok(await s.call('contractfiledel', { id: added.data.id }, admin));
  });

  it('shows a building as a grid of states with prices, and sets list prices', async () => {
    const id = await effective();
    const c = await info(id);
    const bid = c.units[0].bid as number;
    const table = await got('salestable', { bid }, leasing);
    const cell = table.cells.find((x: { hid: number }) => x.hid === c.units[0].unit_id);
    expect(cell).toMatchObject({ state: 'signed', state_ch: '已签约', price: '1000000.00', price_kind: 'contract', contract_id: id });
    expect(table.counts.signed).toBeGreaterThanOrEqual(1);
    const free = table.cells.find((x: { state: string }) => x.state === 'available');
    ok(await s.call('rentroompriceset', { units: [{ unit_kind: 'room', unit_id: free.hid }], per_m2: '10000' }, leasing));
    const again = (await got('salestable', { bid }, leasing)).cells.find((x: { hid: number }) => x.hid === free.hid);
    expect(again.price_kind).toBe('list');
    expect((await s.call('salestable', { bid }, admin2)).return_msg).toBe('楼栋不存在');
    expect((await s.call('rentroompriceset', { units: [{ unit_kind: 'room', unit_id: free.hid }], price: '1' }, admin2)).return_msg).toBe(
      '所选房屋不存在或不属于当前小区',
    );
    expect((await s.call('salestable', { bid }, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('the demo has five sale contracts, two other contracts, one in approval, one paid, one overdue', async () => {
    const list = (await got('roomsaleslist', { section: 'units', kind: 'sale', limit: 200, sort: 'asc' }, admin)).items as Array<{
      status: string;
      party_mobile: string;
      paid_amount: string;
      overdue_amount: string;
    }>;
    const demo = list.filter((c) => c.party_mobile.startsWith('139123400'));
    expect(demo).toHaveLength(5);
    expect(demo.filter((c) => c.status === 'A')).toHaveLength(1);
    expect(demo.some((c) => c.overdue_amount !== '0.00')).toBe(true);
    expect(demo.filter((c) => c.paid_amount !== '0.00').length).toBeGreaterThanOrEqual(2);
    const others = (await got('roomsaleslist', { section: 'other', limit: 200 }, admin)).items;
    expect(others.length).toBeGreaterThanOrEqual(2);
  });
});

describe('the sales customer', () => {
  it('a sale taking effect links the customer of the party’s mobile and moves them to 签约', async () => {
    const customer = await s.database.db
      .selectFrom('crm_customers')
      .select(['id', 'name', 'mobile'])
      .where('rid', '=', 1)
      .where('stage', '<>', 'sign')
      .where('stage', '<>', 'invalid')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const id = await effective({ party_name: customer.name, party_mobile: customer.mobile });
    const c = await info(id);
    expect(c).toMatchObject({ customer_id: Number(customer.id), customer_name: customer.name });
    const after = await s.database.db
      .selectFrom('crm_customers')
      .select(['stage', 'contract_no'])
      .where('rid', '=', 1)
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ stage: 'sign', contract_no: c.contract_no });
    // a customer of another community is refused
    const theirs = await s.database.db.selectFrom('crm_customers').select('id').where('rid', '=', 2).executeTakeFirst();
    if (theirs)
      expect((await s.call('addroomsales', await salePayload({ customer_id: theirs.id }), leasing)).return_msg).toBe(
        '所选客户不存在或不属于当前小区',
      );
    expect((await s.call('addroomsales', await salePayload({ customer_id: 2_000_000_000 }), leasing)).return_msg).toBe(
      '所选客户不存在或不属于当前小区',
    );
  });
});
