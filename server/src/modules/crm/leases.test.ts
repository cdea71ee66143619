import { addDays, addMonths, fenToYuan, leaseSchedule, monthEnd, RC, toFen } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyJobs } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { backlogSources } from '../setup/backlog.js';
import { LEASE_BILLS_JOB, LEASE_EXPIRING_JOB } from './leasesBilling.js';
import { termsOf } from './leasesCore.js';

let s: TestServer;
let admin: string;
let admin2: string;
let leasing: string;
let sales: string;
let cashier: string;
let finance: string;
/** rooms of 3号楼2单元 no lease of the demo holds */
let rooms: Array<{ id: number; address: string; built_area: string }> = [];
let seq = 0;
const key = () => `lease-test-${Date.now()}-${++seq}`;
const ok = <T = any>(res: { return_code: string; return_msg: string; data: T }) => {
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return res.data;
};
const refused = (res: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(res.return_code).toBe('FAIL');
  if (typeof msg === 'string') expect(res.return_msg).toBe(msg);
  else expect(res.return_msg).toMatch(msg);
};

/** The first day of the month `n` months from now. */
const monthStart = (n: number) => `${addMonths(today(), n).slice(0, 7)}-01`;

/** A lease payload: one room, a year from next month, 5000 a month, monthly, 15 days ahead. */
const lease = (over: Record<string, unknown> = {}) => ({
  tenant_kind: 'P',
  tenant_name: `测试租户${++seq}`,
  contact: '',
  mobile: `139${String(10000000 + seq * 7919).slice(-8)}`,
  id_card: '',
  hids: [rooms[0]!.id],
  start_date: monthStart(1),
  end_date: addDays(monthStart(13), -1),
  rent_mode: 'M',
  rent_price: '5000.00',
  deposit: '10000.00',
  cycle_months: 1,
  bill_ahead_days: 15,
  free_periods: [],
  escalation_kind: 'none',
  escalation_value: '0',
  escalation_years: 1,
  charges: [],
  remark: '',
  ...over,
});

const db = () => s.database.db;
const leaseRow = (id: number) => db().selectFrom('leases').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();
const billsOf = (id: number) =>
  db()
    .selectFrom('lease_bills as lb')
    .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'lb.rid').onRef('b.id', '=', 'lb.bill_id'))
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .select([
      'lb.seq',
      'lb.kind',
      'lb.name',
      'b.id',
      'b.hid',
      'b.title',
      'b.period',
      'b.daterange',
      'b.fee',
      'b.status',
      'b.due_date',
      'b.cost_type',
      'i.title as item',
    ])
    .where('lb.rid', '=', 1)
    .where('lb.lease_id', '=', id)
    .orderBy('b.id')
    .execute();

/** Adds a lease as `leasing`, submits it and has admin approve it; answers its id. */
async function liveLease(over: Record<string, unknown> = {}): Promise<number> {
  const { id } = ok(await s.call('leaseadd', lease(over), leasing));
  ok(await s.call('leasesubmit', { id }, leasing));
  ok(await s.call('leaseapprove', { id, approve: true, remark: '同意' }, admin));
  return id;
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, leasing, sales, cashier, finance] = await s.logins('admin', 'admin2', 'leasing', 'sales', 'cashier', 'finance');
  rooms = (
    await db()
      .selectFrom('rooms')
      .select(['id', 'address', 'built_area'])
      .where('rid', '=', 1)
      .where('address', 'like', '3号楼2单元%')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('lease_rooms')
              .select('id')
              .whereRef('lease_rooms.rid', '=', 'rooms.rid')
              .whereRef('lease_rooms.hid', '=', 'rooms.id'),
          ),
        ),
      )
      .orderBy('id')
      .limit(20)
      .execute()
  ).map((r) => ({ id: Number(r.id), address: r.address, built_area: r.built_area }));
});
afterAll(() => s?.close());

describe('the demo', () => {
  it('has a dozen leases on the shops and 6号楼 in every state, escalating, rent-free, ending this month, in approval', async () => {
    const all = ok(await s.call('leaselist', { limit: 200, sort: 'asc' }, leasing)).items.filter(
      (l: { tenant_name: string }) => !l.tenant_name.startsWith('测试'),
    );
    expect(all.length).toBeGreaterThanOrEqual(12);
    const states = new Set(all.map((l: { status: string; approval_status: string }) => `${l.status}${l.approval_status}`));
    for (const st of ['YY', 'XY', 'DP', 'DN', 'DB', 'CN', 'FY', 'RY', 'OY']) expect(states, st).toContain(st);
    expect(all.some((l: { address: string }) => l.address.includes('S01'))).toBe(true);
    expect(all.some((l: { address: string }) => l.address.includes('S02'))).toBe(true);
    const month = today().slice(0, 7);
    expect(all.some((l: { end_date: string; status: string }) => l.end_date.startsWith(month) && l.status === 'X')).toBe(true);
    const details = await Promise.all(all.map((l: { id: number }) => s.call('leaseinfo', { id: l.id }, leasing)));
    expect(details.some((d) => d.data.escalation_kind !== 'none' && ['Y', 'X'].includes(d.data.status))).toBe(true);
    expect(details.some((d) => d.data.free_periods.length > 0 && d.data.status === 'Y')).toBe(true);
    const out = details.find((d) => d.data.status === 'F')!.data;
    expect(out.signout).toMatchObject({ kind_ch: '提前退租', deposit: { kept: '4000.00', refund: '4000.00' } });
    expect(ok(await s.call('leaseoverduelist', {}, leasing)).total).toBeGreaterThan(0);
    const todo = await db()
      .selectFrom('backlog')
      .select('kind')
      .where('rid', '=', 1)
      .where('kind', 'in', ['leaseaudit', 'leaseexpiring'])
      .where('status', '=', 'E')
      .execute();
    expect(new Set(todo.map((t) => t.kind))).toEqual(new Set(['leaseaudit', 'leaseexpiring']));
  });
});

describe('a lease drafted', () => {
  it('gets a number from the prefix and the sequence, and is listed with its rooms and rent', async () => {
    const settings = ok(await s.call('leasesettings', {}, leasing));
    const add = ok(await s.call('leaseadd', lease({ hids: [rooms[1]!.id] }), leasing));
    expect(add.lease_no).toBe(settings.next_no);
    const list = ok(await s.call('leaselist', { keyword: add.lease_no }, leasing));
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: add.id,
      status: 'D',
      status_ch: '未生效',
      approval_status: 'N',
      approval_status_ch: '草稿',
      monthly_rent: '5000.00',
      cycle_months_ch: '月付',
      address: rooms[1]!.address,
      total_amount: '60000.00',
      mine: true,
    });
    // the sequence moved on
    expect(ok(await s.call('leasesettings', {}, leasing)).next_seq).toBe(settings.next_seq + 1);
    // each filter narrows
    for (const f of [{ status: 'D' }, { approval_status: 'N' }, { hid: rooms[1]!.id }, { view: 'mine' }]) {
      const found = ok(await s.call('leaselist', { ...f, limit: 200 }, leasing));
      expect(found.items.map((r: { id: number }) => r.id)).toContain(add.id);
    }
    for (const f of [{ status: 'Y' }, { approval_status: 'P' }, { hid: rooms[2]!.id }, { expiring: 30 }]) {
      const found = ok(await s.call('leaselist', { ...f, limit: 200 }, leasing));
      expect(found.items.map((r: { id: number }) => r.id)).not.toContain(add.id);
    }
    ok(await s.call('leasevoid', { id: add.id, reason: '测试完毕' }, leasing));
  });

  it('prices per m² a month by the rooms’ built area', async () => {
    const hids = [rooms[2]!.id, rooms[3]!.id];
    const area = toFen(rooms[2]!.built_area) + toFen(rooms[3]!.built_area);
    const { id } = ok(await s.call('leaseadd', lease({ hids, rent_mode: 'A', rent_price: '80.00' }), leasing));
    const info = ok(await s.call('leaseinfo', { id }, leasing));
    expect(toFen(info.rent_area)).toBe(area);
    expect(toFen(info.monthly_rent)).toBe(area * 80n);
    expect(info.rooms.map((r: { hid: number }) => r.hid)).toEqual(hids);
    ok(await s.call('leasevoid', { id, reason: '测试完毕' }, leasing));
  });

  it('refuses a term overlapping another lease of a room, naming it; a void lease no longer counts', async () => {
    const first = ok(await s.call('leaseadd', lease({ hids: [rooms[4]!.id] }), leasing));
    const before = await db().selectFrom('leases').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow();
    const clash = await s.call(
      'leaseadd',
      lease({ hids: [rooms[5]!.id, rooms[4]!.id], start_date: monthStart(6), end_date: addDays(monthStart(18), -1) }),
      leasing,
    );
    refused(
      clash,
      `房屋 ${rooms[4]!.address} 在 ${monthStart(1)} 至 ${addDays(monthStart(13), -1)} 已有租约 ${first.lease_no}（草稿），租期不能重叠`,
    );
    expect((await db().selectFrom('leases').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toBe(before.n);
    // right after it ends: no overlap
    const next = ok(
      await s.call('leaseadd', lease({ hids: [rooms[4]!.id], start_date: monthStart(13), end_date: addDays(monthStart(25), -1) }), leasing),
    );
    ok(await s.call('leasevoid', { id: first.id, reason: '改签' }, leasing));
    ok(
      await s.call(
        'leaseedit',
        { id: next.id, ...lease({ hids: [rooms[4]!.id], start_date: monthStart(2), end_date: addDays(monthStart(14), -1) }) },
        leasing,
      ),
    );
    ok(await s.call('leasevoid', { id: next.id, reason: '测试完毕' }, leasing));
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['an end before the start', { end_date: addDays(monthStart(1), -1) }, '租约结束日期不能早于开始日期'],
    [
      'a rent-free range outside the term',
      { free_periods: [{ start: monthStart(0), end: monthStart(1) }] },
      `免租期 ${monthStart(0)} 至 ${monthStart(1)} 须在租期内`,
    ],
    ['a zero rent', { rent_price: '0' }, '租金须大于0'],
    ['no room', { hids: [] }, '请至少选择一个房屋'],
    ['a room twice', { hids: [1, 1] }, '同一房屋不能重复选择'],
    ['a bad mobile', { mobile: '12345' }, '手机号码格式不正确，应为11位手机号'],
    ['a bad ID number', { id_card: '110101199003077770' }, '身份证号码不正确'],
    ['a company with a bad credit code', { tenant_kind: 'C', id_card: '91310115MA1K3YJ73X' }, '统一社会信用代码不正确（18位，核对校验位）'],
    ['a quarterly cycle of two months', { cycle_months: 2 }, '付款周期取值不正确'],
    ['a rise of nothing', { escalation_kind: 'percent', escalation_value: '0' }, '每次递增比例须大于0'],
    [
      'a charge twice',
      {
        charges: [
          { name: '物业费', monthly: '100' },
          { name: '物业费', monthly: '200' },
        ],
      },
      '其他费用「物业费」重复',
    ],
    ['a picked resident of nobody', { member_id: 99999999 }, '所选住户不存在'],
  ];
  it.each(bad)('refuses %s, in Chinese, writing nothing', async (_what, over, message) => {
    const before = await db().selectFrom('leases').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await s.call('leaseadd', lease({ hids: [rooms[6]!.id], ...over }), leasing);
    expect(res.return_code).toBe('FAIL');
    expect(res.return_msg).toContain(message);
    expect((await db().selectFrom('leases').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toBe(before.n);
  });

  it('keeps the leases to their community: another community’s rooms and leases are 不存在', async () => {
    const { id } = ok(await s.call('leaseadd', lease({ hids: [rooms[7]!.id] }), leasing));
    refused(await s.call('leaseinfo', { id }, admin2), '租约不存在');
    refused(await s.call('leaseedit', { id, ...lease({ hids: [rooms[7]!.id] }) }, admin2), '租约不存在');
    refused(await s.call('leasesubmit', { id }, admin2), '租约不存在');
    refused(await s.call('leasevoid', { id, reason: 'x' }, admin2), '租约不存在');
    refused(await s.call('leaseschedule', { id }, admin2), '租约不存在');
    refused(await s.call('leaselog', { id }, admin2), '租约不存在');
    refused(await s.call('leaseadd', lease({ hids: [rooms[7]!.id] }), admin2), '所选房屋不存在或不属于当前小区');
    expect(ok(await s.call('leaselist', { keyword: 'ZL' }, admin2)).items.map((r: { id: number }) => r.id)).not.toContain(id);
    ok(await s.call('leasevoid', { id, reason: '测试完毕' }, leasing));
  });

  it('refuses those without the tenant role', async () => {
    for (const m of ['leaselist', 'leaseadd', 'leaseschedule', 'leasesettingsedit', 'signout']) {
      const res = await s.call(m, m === 'leaseadd' ? lease() : { id: 1 }, sales);
      expect(res.return_code, m).toBe(RC.NO_PERMISSION);
    }
    expect((await s.call('leasebillrun', { as_of: today() }, leasing)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('leaseexpirerun', { as_of: today() }, leasing)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('the approval', () => {
  it('submits to the approvers’ to-do list; a returned lease needs a reason and can be changed and submitted again', async () => {
    const { id, lease_no } = ok(await s.call('leaseadd', lease({ hids: [rooms[8]!.id] }), leasing));
    const submitted = ok(await s.call('leasesubmit', { id }, leasing));
    expect(submitted).toMatchObject({ approval_status: 'P', approval_status_ch: '审批中', status: 'D' });
    const todo = await db()
      .selectFrom('backlog')
      .selectAll()
      .where('rid', '=', 1)
      .where('kind', '=', 'leaseaudit')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(todo).toMatchObject({ status: 'E', link: `/crm/lease_approval_info?id=${id}` });
    expect(todo.title).toContain(lease_no);
    // in approval: no change, no second submission
    refused(await s.call('leaseedit', { id, ...lease({ hids: [rooms[8]!.id] }) }, leasing), '该租约正在审批中，不能修改');
    refused(await s.call('leasesubmit', { id }, leasing), '该租约已处理');
    // the leasing officer cannot approve; the approvers see it as theirs to do
    expect((await s.call('leaseapprove', { id, approve: true }, leasing)).return_code).toBe(RC.NO_PERMISSION);
    expect(ok(await s.call('leaselist', { view: 'todo', limit: 200 }, admin)).items.map((r: { id: number }) => r.id)).toContain(id);
    refused(await s.call('leaseapprove', { id, approve: false, remark: '' }, admin), '请填写退回原因');
    const back = ok(await s.call('leaseapprove', { id, approve: false, remark: '押金偏低' }, admin));
    expect(back).toMatchObject({ approval_status: 'B', approval_status_ch: '已退回', approve_remark: '押金偏低', approver: '张经理' });
    expect(
      (
        await db()
          .selectFrom('backlog')
          .select('status')
          .where('kind', '=', 'leaseaudit')
          .where('source_id', '=', String(id))
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('Y');
    ok(await s.call('leaseedit', { id, ...lease({ hids: [rooms[8]!.id], deposit: '15000.00' }) }, leasing));
    ok(await s.call('leasesubmit', { id }, leasing));
    const log = ok(await s.call('leaselog', { id }, leasing)).items.map((i: { transition_ch: string }) => i.transition_ch);
    expect(log).toEqual(['起草', '提交审批', '退回', '提交审批']);
    ok(await s.call('leasevoid', { id, reason: '客户放弃' }, leasing));
    expect((await leaseRow(id)).status).toBe('C');
  });

  it('never lets one approve a lease they drafted', async () => {
    const { id } = ok(await s.call('leaseadd', lease({ hids: [rooms[9]!.id] }), admin));
    ok(await s.call('leasesubmit', { id }, admin));
    refused(await s.call('leaseapprove', { id, approve: true }, admin), '不能审批自己起草或提交的租约，请由其他有审批权限的人员处理');
    ok(await s.call('leasevoid', { id, reason: '测试完毕' }, admin));
  });

  it('approved, the lease is in force: its tenant lives in its rooms as a tenant, its deposit and what is due are billed', async () => {
    const start = addDays(today(), -20);
    const end = addDays(addMonths(start, 12), -1);
    const over = {
      hids: [rooms[10]!.id, rooms[11]!.id],
      start_date: start,
      end_date: end,
      charges: [{ name: '物业费', monthly: '300.00' }],
    };
    const id = await liveLease(over);
    const l = await leaseRow(id);
    expect(l).toMatchObject({ status: 'Y', approval_status: 'Y', approver: '张经理', approve_remark: '同意' });
    const links = await db()
      .selectFrom('room_members')
      .select(['hid', 'relation', 'status', 'move_in_date'])
      .where('rid', '=', 1)
      .where('member_id', '=', l.member_id!)
      .orderBy('hid')
      .execute();
    expect(links).toEqual([
      { hid: rooms[10]!.id, relation: 'tenant', status: 'Y', move_in_date: start },
      { hid: rooms[11]!.id, relation: 'tenant', status: 'Y', move_in_date: start },
    ]);
    const member = await db()
      .selectFrom('members')
      .selectAll()
      .where('rid', '=', 1)
      .where('id', '=', l.member_id!)
      .executeTakeFirstOrThrow();
    expect(member).toMatchObject({ realname: l.tenant_name, mobile: l.mobile });
    const bills = await billsOf(id);
    // on the first room only: the deposit, the first period's rent and charge (due 20 days ago), the second's (billed 15 days ahead)
    expect(new Set(bills.map((b) => b.hid))).toEqual(new Set([rooms[10]!.id]));
    const dep = bills.find((b) => b.kind === 'deposit')!;
    expect(dep).toMatchObject({ fee: '10000.00', item: '租赁押金', cost_type: 'deposit', status: 'E' });
    const schedule = leaseSchedule(termsOf(l));
    const due = schedule.periods.filter((p) => p.bill_date <= today());
    expect(bills.filter((b) => b.kind === 'rent').map((b) => [b.seq, b.fee, b.daterange, b.due_date])).toEqual(
      due.map((p) => [p.seq, p.rent, `${p.start} ~ ${p.end}`, p.start]),
    );
    expect(bills.filter((b) => b.kind === 'charge').map((b) => [b.seq, b.fee, b.item])).toEqual(
      due.map((p) => [p.seq, p.charges[0]!.amount, '物业费（租赁）']),
    );
    const rent = bills.find((b) => b.kind === 'rent')!;
    // the community has no cost type titled 租赁收入: the built-in one coded rent
    expect(rent.cost_type).toBe('rent');
    expect(rent.item).toBe('租金');
    // the list shows what is overdue: the periods billed that began before today (the first, due 20
    // days ago, and the second too once it has begun: a first period prorated to the month's end)
    const row = ok(await s.call('leaselist', { keyword: l.lease_no }, leasing)).items[0];
    const overdue = due.filter((p) => p.start < today()).reduce((n, p) => n + toFen(p.rent) + toFen(p.charges[0]!.amount), 0n);
    expect(overdue).toBeGreaterThanOrEqual(toFen(due[0]!.rent) + toFen(due[0]!.charges[0]!.amount));
    expect(toFen(row.overdue)).toBe(overdue);
    expect(row.deposit_state_ch).toBe('未收');
    // in force: no edit, no void
    refused(await s.call('leaseedit', { id, ...lease(over) }, leasing), '该租约已生效，不能修改');
    refused(await s.call('leasevoid', { id, reason: 'x' }, leasing), '该租约已生效，不能作废，请办理退租');
  });

  it('refuses an owner of a room as its tenant', async () => {
    const owner = await db()
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['rm.hid', 'm.id', 'm.mobile', 'm.realname'])
      .where('rm.rid', '=', 1)
      .where('rm.relation', '=', 'owner')
      .where('rm.status', '=', 'Y')
      .where('rm.hid', '=', rooms[12]!.id)
      .executeTakeFirst();
    if (!owner) return;
    const { id } = ok(await s.call('leaseadd', lease({ hids: [rooms[12]!.id], member_id: owner.id, mobile: owner.mobile }), leasing));
    ok(await s.call('leasesubmit', { id }, leasing));
    refused(
      await s.call('leaseapprove', { id, approve: true }, admin),
      new RegExp(`${owner.realname} 已是房屋 .* 的业主，不能作为该房屋的租户`),
    );
    ok(await s.call('leaseapprove', { id, approve: false, remark: '换人' }, admin));
    ok(await s.call('leasevoid', { id, reason: '测试完毕' }, leasing));
  });
});

describe('the bills as the clock moves', () => {
  it('a shop for two years, a month free, 5 % more after the first year: month by month, never twice', async () => {
    const start = monthStart(1);
    const end = addDays(addMonths(start, 24), -1);
    const id = await liveLease({
      hids: [rooms[13]!.id],
      start_date: start,
      end_date: end,
      free_periods: [{ start, end: monthEnd(start) }],
      escalation_kind: 'percent',
      escalation_value: '5',
      escalation_years: 1,
    });
    const rents = async () => (await billsOf(id)).filter((b) => b.kind === 'rent').map((b) => [b.period, b.fee]);
    // the free month bills nothing; the second month is billed 15 days before it starts
    expect(await rents()).toEqual([]);
    const run = (asOf: string) => s.call('leasebillrun', { as_of: asOf }, admin);
    ok(await run(addDays(addMonths(start, 1), -16)));
    expect(await rents()).toEqual([]);
    ok(await run(addDays(addMonths(start, 1), -15)));
    expect(await rents()).toEqual([[addMonths(start, 1).slice(0, 7), '5000.00']]);
    expect(ok(await run(addDays(addMonths(start, 1), -15))).bills).toBe(0);
    ok(await run(addMonths(start, 11)));
    expect((await rents()).length).toBe(11);
    ok(await run(addMonths(start, 13)));
    const all = await rents();
    expect(all.length).toBe(13);
    expect(all[10]).toEqual([addMonths(start, 11).slice(0, 7), '5000.00']);
    expect(all[11]).toEqual([addMonths(start, 12).slice(0, 7), '5250.00']);
    ok(await run(end));
    const total = (await rents()).reduce((sum, [, fee]) => sum + toFen(fee!), 0n);
    expect(total).toBe(11n * 500000n + 12n * 525000n);
    expect((await leaseRow(id)).next_bill_date).toBeNull();
    // the schedule shows each period's bills and states
    const sched = ok(await s.call('leaseschedule', { id }, leasing));
    expect(sched.periods[0]).toMatchObject({ free_days: 31 - 31 + sched.periods[0].days, rent: '0.00', state: '无需缴费' });
    expect(sched.periods[1].bills[0]).toMatchObject({ kind: 'rent', fee: '5000.00', status: 'E' });
    expect(sched.periods[1].state).toBe('已出账');
  });

  it('the daily jobs are registered', () => {
    expect(dailyJobs().has(LEASE_BILLS_JOB)).toBe(true);
    expect(dailyJobs().has(LEASE_EXPIRING_JOB)).toBe(true);
    expect(backlogSources().get('leaseaudit')?.spec.link('7')).toBe('/crm/lease_approval_info?id=7');
    expect(backlogSources().get('leaseexpiring')).toBeDefined();
  });
});

describe('expiry, renewal and check-out', () => {
  it('即将到期 N days before the end, with a to-do; renewed, the old one ends without anyone moving out', async () => {
    const start = addDays(today(), -300);
    const end = addDays(today(), 90);
    const id = await liveLease({ hids: [rooms[14]!.id], start_date: start, end_date: end, deposit: '8000.00' });
    const l = await leaseRow(id);
    expect(l.status).toBe('Y');
    const r = ok(await s.call('leaseexpirerun', { as_of: addDays(end, -60) }, admin));
    // the demo's leases move too: at least this one
    expect(r.expiring).toBeGreaterThanOrEqual(1);
    expect((await leaseRow(id)).status).toBe('X');
    const todo = await db()
      .selectFrom('backlog')
      .selectAll()
      .where('kind', '=', 'leaseexpiring')
      .where('source_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('E');
    // 租约到期提醒 (the demo group texts the tenant and tells the leasing staff's inbox): once, with the days left
    const told = await db()
      .selectFrom('notifications')
      .select(['recipient', 'channel', 'mobile', 'content', 'link'])
      .where('event', '=', 'lease_expiring')
      .where('ref_id', '=', String(id))
      .orderBy('id')
      .execute();
    const room = rooms[14]!;
    expect(told.find((n) => n.channel === 'sms')).toMatchObject({
      recipient: 'party',
      mobile: l.mobile,
      content: `您租用的${room.address}（租约 ${l.lease_no}）将于 ${end} 到期，如需续租请联系物业服务中心。`,
    });
    expect(told.find((n) => n.channel === 'inbox')).toMatchObject({
      recipient: 'staff',
      link: `/crm/leaselist?id=${id}`,
      content: `${room.address} 的租约（租户 ${l.tenant_name} ${l.mobile}）将于 ${end} 到期，还有 60 天，请办理续租或退租`,
    });
    ok(await s.call('leaseexpirerun', { as_of: addDays(end, -59) }, admin));
    expect(
      await db().selectFrom('notifications').select('id').where('event', '=', 'lease_expiring').where('ref_id', '=', String(id)).execute(),
    ).toHaveLength(told.length);
    expect(ok(await s.call('leaselist', { expiring: 90, limit: 200 }, leasing)).items.map((x: { id: number }) => x.id)).toContain(id);
    // the renewal: from the day after, the same tenant and rooms, the deposit carried over
    refused(
      await s.call('rerent', { id, ...lease({ start_date: end, end_date: addMonths(end, 12) }) }, leasing),
      `续租租约须从原租约到期次日 ${addDays(end, 1)} 开始`,
    );
    const renewal = ok(
      await s.call(
        'rerent',
        {
          id,
          ...lease({
            hids: [rooms[15]!.id],
            tenant_name: '别人',
            deposit: '1.00',
            start_date: addDays(end, 1),
            end_date: addMonths(end, 12),
            rent_price: '5200',
          }),
        },
        leasing,
      ),
    );
    refused(
      await s.call('rerent', { id, ...lease({ start_date: addDays(end, 1), end_date: addMonths(end, 12) }) }, leasing),
      `该租约已有续租租约 ${renewal.lease_no}，请在其上修改或先作废`,
    );
    const info = ok(await s.call('leaseinfo', { id: renewal.id }, leasing));
    expect(info).toMatchObject({
      tenant_name: l.tenant_name,
      renew_of: id,
      renew_of_no: l.lease_no,
      deposit: '8000.00',
      monthly_rent: '5200.00',
    });
    expect(info.rooms.map((x: { hid: number }) => x.hid)).toEqual([rooms[14]!.id]);
    ok(await s.call('leasesubmit', { id: renewal.id }, leasing));
    ok(await s.call('leaseapprove', { id: renewal.id, approve: true }, admin));
    expect((await leaseRow(id)).status).toBe('R');
    expect((await leaseRow(renewal.id)).deposit_bill_id).toBe(l.deposit_bill_id);
    expect(
      (
        await db()
          .selectFrom('backlog')
          .select('status')
          .where('kind', '=', 'leaseexpiring')
          .where('source_id', '=', String(id))
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('Y');
    refused(await s.call('signout', { id, kind: 'N', date: end }, leasing), '该租约已续租，请对续租后的租约办理退租');
    const ended = ok(await s.call('leaseexpirerun', { as_of: addDays(end, 1) }, admin));
    expect(ended.ended).toBeGreaterThanOrEqual(1);
    expect((await leaseRow(id)).status).toBe('F');
    const link = await db()
      .selectFrom('room_members')
      .select('status')
      .where('member_id', '=', l.member_id!)
      .where('hid', '=', rooms[14]!.id)
      .executeTakeFirstOrThrow();
    expect(link.status).toBe('Y');
  });

  it('past its end without a check-out, a lease reads 已到期', async () => {
    const id = await liveLease({ hids: [rooms[16]!.id], start_date: addDays(today(), -200), end_date: addDays(today(), -1), deposit: '0' });
    expect((await leaseRow(id)).status).toBe('O');
  });

  it('a check-out one month early: the last days billed, the later bills gone, part of the deposit kept, the rest refunded, the tenant moved out', async () => {
    const start = addDays(today(), -40);
    const end = addDays(addMonths(start, 12), -1);
    const id = await liveLease({
      hids: [rooms[17]!.id],
      start_date: start,
      end_date: end,
      charges: [{ name: '停车费', monthly: '310.00' }],
    });
    const l = await leaseRow(id);
    // the cashier takes the deposit and the first month's rent
    const bills = await billsOf(id);
    const dep = bills.find((b) => b.kind === 'deposit')!;
    const firstRent = bills.find((b) => b.kind === 'rent' && b.seq === 1)!;
    ok(
      await s.call(
        'cashierpay',
        {
          hid: rooms[17]!.id,
          bill_ids: [dep.id, firstRent.id],
          pay_type: 'cash',
          paid_amount: fenToYuan(toFen(dep.fee) + toFen(firstRent.fee)),
          idempotency_key: key(),
        },
        cashier,
      ),
    );
    // the clock moves to a month before the end
    ok(await s.call('leasebillrun', { as_of: addMonths(end, -1) }, admin));
    const exit = addDays(addMonths(end, -1), -10);
    const payload = {
      id,
      kind: 'E',
      date: exit,
      reason: '经营调整',
      readings: [{ name: '电表', reading: '1234.50' }],
      damages: [{ name: '门锁损坏', amount: '300.00' }],
      penalties: [{ name: '提前退租违约金', amount: '2000.00' }],
      deposit_kept: '3000.00',
      kept_reason: '抵扣违约',
    };
    refused(
      await s.call('signoutpreview', { ...payload, kind: 'N' }, leasing),
      `正常退租的退租日期应为租约到期日 ${end}，否则请选择提前或逾期退租`,
    );
    refused(await s.call('signoutpreview', { ...payload, deposit_kept: '10000.01' }, leasing), '扣留押金不能超过已缴押金 10000.00 元');
    refused(await s.call('signoutpreview', { ...payload, kept_reason: '' }, leasing), '请填写扣留押金的原因');
    refused(await s.call('signoutpreview', { ...payload, date: addDays(start, -1) }, leasing), `退租日期不能早于租约开始日期 ${start}`);
    const preview = ok(await s.call('signoutpreview', payload, leasing));
    const schedule = leaseSchedule(termsOf(l));
    const cutPeriod = schedule.periods.find((p) => p.start <= exit && exit <= p.end)!;
    const lastRent = preview.last.find((x: { kind: string }) => x.kind === 'rent');
    expect(lastRent).toMatchObject({ daterange: `${cutPeriod.start} ~ ${exit}` });
    // days up to the exit at 5000 over the month's days (the period is one month from its first)
    const dim = Number(monthEnd(cutPeriod.start).slice(8));
    const days = Number(exit.slice(8)) - Number(cutPeriod.start.slice(8)) + 1;
    expect(toFen(lastRent.amount)).toBe((500000n * BigInt(days) * 2n + BigInt(dim)) / (2n * BigInt(dim)));
    expect(preview.deposit).toMatchObject({ amount: '10000.00', paid: true, kept: '3000.00', refund: '7000.00' });
    expect(preview.cancelled.length).toBeGreaterThan(0);
    expect(preview.cancelled.every((b: { period: string }) => b.period >= cutPeriod.start.slice(0, 7))).toBe(true);
    expect(preview.damages).toEqual([{ kind: 'damage', kind_ch: '损坏赔偿', title: '门锁损坏', daterange: '', amount: '300.00' }]);
    expect(toFen(preview.sums.net)).toBe(toFen(preview.sums.owed) - toFen(preview.sums.refund));
    // the preview wrote nothing
    expect((await leaseRow(id)).status).toBe('Y');
    const done = await s.call('signout', payload, leasing);
    const settlement = ok(done);
    expect(settlement).toMatchObject({ kind_ch: '提前退租', date: exit, sums: preview.sums });
    expect(settlement.refund_ids).toHaveLength(1);
    const after = await leaseRow(id);
    expect(after).toMatchObject({ status: 'F', ended_on: exit, deposit_kept: '3000.00', next_bill_date: null });
    const left = await billsOf(id);
    // nothing billed after the exit; the last days, the damages and the penalty billed
    expect(left.filter((b) => b.kind === 'rent' || b.kind === 'charge').every((b) => b.daterange.slice(0, 10) <= exit)).toBe(true);
    expect(left.find((b) => b.kind === 'rent' && b.seq === cutPeriod.seq)).toMatchObject({
      fee: lastRent.amount,
      daterange: `${cutPeriod.start} ~ ${exit}`,
    });
    expect(left.find((b) => b.kind === 'damage')).toMatchObject({ fee: '300.00', item: '租赁损坏赔偿' });
    expect(left.find((b) => b.kind === 'penalty')).toMatchObject({ fee: '2000.00', item: '租赁违约金' });
    for (const b of preview.cancelled)
      expect(await db().selectFrom('fee_bills').select('id').where('id', '=', b.bill_id).executeTakeFirst()).toBeUndefined();
    // the deposit's refund waits for finance: 7000 of the 10000 paid
    const refund = await db().selectFrom('fee_refunds').selectAll().where('id', '=', settlement.refund_ids[0]).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ amount: '7000.00', status: 'E' });
    expect(refund.bill_ids.map(Number)).toEqual([dep.id]);
    // the tenant left the room on the exit day
    const link = await db()
      .selectFrom('room_members')
      .select(['status', 'move_out_date'])
      .where('member_id', '=', l.member_id!)
      .where('hid', '=', rooms[17]!.id)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ status: 'N', move_out_date: exit });
    refused(await s.call('signout', payload, leasing), '该租约已退租');
    // finance approves: the deposit bill stays paid, its receipt line refunded
    ok(await s.call('refundapprove', { id: refund.id, approve: true, remark: '同意' }, finance));
    expect((await db().selectFrom('fee_bills').select('status').where('id', '=', dep.id).executeTakeFirstOrThrow()).status).toBe('Y');
    const info = ok(await s.call('leaseinfo', { id }, leasing));
    expect(info.deposit_state_ch).toBe('已退还');
    expect(info.signout.deposit.refund).toBe('7000.00');
  });

  it('an unpaid deposit is neither kept nor refunded: its bill is deleted', async () => {
    const id = await liveLease({ hids: [rooms[18]!.id], start_date: addDays(today(), -10), end_date: addDays(today(), 300) });
    const dep = (await billsOf(id)).find((b) => b.kind === 'deposit')!;
    refused(
      await s.call('signoutpreview', { id, kind: 'E', date: today(), deposit_kept: '100', kept_reason: '赔偿' }, leasing),
      '押金未缴，不能扣留',
    );
    const done = ok(await s.call('signout', { id, kind: 'E', date: today() }, leasing));
    expect(done.deposit).toMatchObject({ paid: false, refund: '0.00' });
    expect(done.refund_ids).toEqual([]);
    expect(done.cancelled.map((b: { bill_id: number }) => b.bill_id)).toContain(dep.id);
    expect(await db().selectFrom('fee_bills').select('id').where('id', '=', dep.id).executeTakeFirst()).toBeUndefined();
  });

  it('an overstay bills the days after the end at the last rent', async () => {
    const start = addDays(today(), -400);
    const end = addDays(today(), -35);
    const id = await liveLease({ hids: [rooms[19]!.id], start_date: start, end_date: end, deposit: '0' });
    refused(await s.call('signoutpreview', { id, kind: 'O', date: end }, leasing), `逾期退租的退租日期应晚于租约到期日 ${end}`);
    const exit = addDays(end, 20);
    const p = ok(await s.call('signoutpreview', { id, kind: 'O', date: exit }, leasing));
    const over = p.last.find((x: { daterange: string }) => x.daterange === `${addDays(end, 1)} ~ ${exit}`);
    expect(over).toMatchObject({ kind: 'rent' });
    expect(toFen(over.amount)).toBeGreaterThan(0n);
    ok(await s.call('signout', { id, kind: 'O', date: exit }, leasing));
  });
});

describe('the settings, pickers and reports', () => {
  it('saves the settings; a number already used is refused', async () => {
    const cur = ok(await s.call('leasesettings', {}, leasing));
    refused(await s.call('leasesettingsedit', { ...cur, next_seq: 1 }, leasing), /编号 ZL00001 已被使用/);
    const saved = ok(
      await s.call(
        'leasesettingsedit',
        { number_prefix: 'zl-', next_seq: 500, expiring_days: 45, deposit_months: 3, bill_ahead_days: 10, cycle_months: 3 },
        leasing,
      ),
    );
    expect(saved).toMatchObject({ number_prefix: 'ZL-', next_no: 'ZL-00500', expiring_days: 45 });
    refused(
      await s.call('leasesettingsedit', { ...saved, number_prefix: '租约' }, leasing),
      /编号前缀只能包含大写字母、数字和 -，最多10位/,
    );
    ok(await s.call('leasesettingsedit', { ...cur }, leasing));
  });

  it('finds residents and rooms for the form', async () => {
    const m = await db()
      .selectFrom('members')
      .select(['id', 'realname', 'mobile'])
      .where('rid', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const found = ok(await s.call('lease_member_small_list', { keyword: m.mobile.slice(0, 7) }, leasing));
    expect(found.items.map((x: { id: number }) => x.id)).toContain(Number(m.id));
    const shops = ok(await s.call('lease_room_small_list', {}, leasing));
    expect(shops.items.length).toBeGreaterThan(0);
    const some = ok(await s.call('lease_room_small_list', { hids: [rooms[0]!.id] }, leasing));
    expect(some.items).toEqual([expect.objectContaining({ id: rooms[0]!.id, title: rooms[0]!.address })]);
  });

  it('reports the expiring leases, the occupancy of rentable rooms and the overdue rent', async () => {
    const r = ok(await s.call('leasereport', {}, leasing));
    expect(r.expiring.map((x: { days: number }) => x.days)).toEqual([30, 60, 90]);
    expect(r.occupancy.rooms).toBeGreaterThan(0);
    expect(r.overdue.bills).toBeGreaterThan(0);
    const occ = ok(await s.call('leaseoccupancylist', { limit: 200 }, leasing));
    expect(occ.total).toBe(r.occupancy.rooms);
    expect(occ.items.filter((x: { state: string }) => x.state === 'leased').length).toBe(r.occupancy.leased);
    // a room marked rentable by hand counts, vacant
    const spare = rooms[6]!;
    ok(await s.call('leaserentableset', { hid: spare.id, rentable: 'Y' }, leasing));
    const marked = ok(await s.call('leaseoccupancylist', { keyword: spare.address }, leasing)).items[0];
    expect(marked).toMatchObject({ hid: spare.id, state: 'vacant', marked: true });
    ok(await s.call('leaserentableset', { hid: spare.id, rentable: 'N' }, leasing));
    refused(await s.call('leaserentableset', { hid: spare.id, rentable: 'Y' }, admin2), '房屋不存在');
    const owed = ok(await s.call('leaseoverduelist', { limit: 200 }, leasing));
    expect(owed.total).toBe(r.overdue.bills);
    expect(owed.sum).toBe(r.overdue.amount);
    expect(owed.items.every((x: { due_date: string; days_overdue: number }) => x.due_date < today() && x.days_overdue > 0)).toBe(true);
    expect(ok(await s.call('leaseoverduelist', {}, admin2)).total).toBe(0);
  });

  it('exports the leases and the overdue rent', async () => {
    const file = ok(await s.exportFile('leaseexport', { status: 'Y' }, leasing));
    expect(file.filename).toMatch(/^租约列表_/);
    const owed = ok(await s.exportFile('leaseoverdueexport', {}, leasing));
    expect(owed.filename).toMatch(/^欠租明细_/);
  });
});
