import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { refundDue, runSignupClock } from './money.js';

let s: TestServer;
let service: string;
let admin2: string;
let cashier: string;
let tech: string;
let finance: string;
beforeAll(async () => {
  s = await startTestServer();
  [service, admin2, cashier, tech, finance] = await s.logins('service', 'admin2', 'cashier', 'tech', 'finance');
});
afterAll(() => s?.close());

const db = () => s.database.db;
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(a.return_code, a.return_msg).toBe('FAIL');
  if (typeof msg === 'string') expect(a.return_msg).toBe(msg);
  else expect(a.return_msg).toMatch(msg);
};
/** YYYY-MM-DD HH:mm in the business time zone (UTC+8), `m` minutes from now. */
const at = (m: number) => new Date(Date.now() + m * 60_000 + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
const COVER = `/files/1/${'a'.repeat(32)}.png`;
let key = 0;
const newKey = () => `act-key-${Date.now()}-${++key}`;

const base = (extra: Record<string, unknown> = {}) => ({
  title: '测试活动',
  cover: COVER,
  body: '<p>活动详情</p><script>alert(1)</script>',
  place: '会所',
  start_time: at(-60),
  end_time: at(24 * 60),
  event_start_time: at(48 * 60),
  event_end_time: at(50 * 60),
  limit_num: 10,
  join_type: 'all',
  ...extra,
});

async function addActivity(extra: Record<string, unknown> = {}, token = service): Promise<number> {
  return ok(await s.call('signupadd', base(extra), token)).id as number;
}

/** Distinct residents (hid, member, relation) of community `rid`, `n` of them, each of another room. */
async function residents(n: number, rid = 1, relation?: string) {
  const { rows } = await sql<{ hid: number; member_id: number; relation: string }>`
    SELECT DISTINCT ON (rm.hid) rm.hid::int AS hid, rm.member_id::int AS member_id, rm.relation FROM room_members rm
    WHERE rm.rid = ${rid} AND rm.status = 'Y' ${relation ? sql`AND rm.relation = ${relation}` : sql``}
      AND NOT EXISTS (SELECT 1 FROM room_members o WHERE o.rid = rm.rid AND o.member_id = rm.member_id AND o.status = 'Y' AND o.hid <> rm.hid)
    ORDER BY rm.hid, rm.id LIMIT ${n}`.execute(db());
  return rows;
}
let pool: Array<{ hid: number; member_id: number; relation: string }> = [];
let poolAt = 0;
/** A resident not used by an earlier test. */
async function nextResidents(n: number) {
  if (!pool.length) pool = await residents(400);
  const out = pool.slice(poolAt, poolAt + n);
  poolAt += n;
  expect(out).toHaveLength(n);
  return out;
}

const join = (activity_id: number, p: { hid: number; member_id: number }, extra: Record<string, unknown> = {}, token = service) =>
  s.call('signupjoin', { activity_id, hid: p.hid, member_id: p.member_id, ...extra }, token);

async function payBill(hid: number, billId: number) {
  const bill = await db().selectFrom('fee_bills').select(['fee']).where('rid', '=', 1).where('id', '=', billId).executeTakeFirstOrThrow();
  return s.call(
    'cashierpay',
    { hid, bill_ids: [billId], pay_type: 'cash', paid_amount: String(bill.fee), idempotency_key: newKey() },
    cashier,
  );
}

describe('the demo', () => {
  it('has three activities in each demo community, the paid one full with a waiting list', async () => {
    const list = ok(await s.call('signuplist', { page: 1, limit: 10 }, service));
    const titles = list.items.map((a: any) => a.title);
    expect(titles).toEqual(expect.arrayContaining(['中秋游园会', '亲子烘焙课', '业主羽毛球友谊赛']));
    const baking = list.items.find((a: any) => a.title === '亲子烘焙课');
    expect(baking).toMatchObject({
      limit_num: 6,
      totle_num: 6,
      waiting_num: 2,
      is_pay: 'Y',
      price: '68.00',
      phase: 'open',
      phase_ch: '报名中',
    });
    const badminton = list.items.find((a: any) => a.title === '业主羽毛球友谊赛');
    expect(badminton).toMatchObject({ phase: 'ended', status: 'N', status_ch: '下架' });
    expect(badminton.checked_num).toBeGreaterThan(0);
    const other = ok(await s.call('signuplist', { page: 1, limit: 10 }, admin2));
    expect(other.items.map((a: any) => a.title)).toEqual(expect.arrayContaining(['中秋游园会', '亲子烘焙课', '业主羽毛球友谊赛']));
    // the baking class's seats wait at the cashier as 活动费 bills of their rooms
    const users = ok(await s.call('signupuserlist', { id: baking.id, page: 1, limit: 20 }, service));
    expect(users.counts).toMatchObject({ P: 6, W: 2 });
    const bill = await db()
      .selectFrom('fee_bills as b')
      .innerJoin('fee_cost_types as c', (j) => j.onRef('c.rid', '=', 'b.rid').onRef('c.cost_type', '=', 'b.cost_type'))
      .select(['b.status', 'c.title', 'b.fee'])
      .where('b.rid', '=', 1)
      .where('b.id', '=', users.items[0].bill_id)
      .executeTakeFirstOrThrow();
    expect(bill).toMatchObject({ status: 'E', title: '活动费', fee: '68.00' });
    expect(users.items.filter((u: any) => u.status === 'W').map((u: any) => u.status_ch)).toEqual(['候补 #1', '候补 #2']);
  });

  it('the phase filter and the export', async () => {
    const open = ok(await s.call('signuplist', { page: 1, limit: 50, phase: 'open' }, service));
    expect(open.items.length).toBeGreaterThan(0);
    expect(open.items.every((a: any) => a.phase === 'open')).toBe(true);
    const ended = ok(await s.call('signuplist', { page: 1, limit: 50, phase: 'ended', title: '羽毛球' }, service));
    expect(ended.items.map((a: any) => a.title)).toEqual(['业主羽毛球友谊赛']);
  });
});

describe('an activity', () => {
  it('is added with a sanitised body and form ids the server gives, read back by signupinfo', async () => {
    const id = await addActivity({
      form: [
        { label: '姓名拼音', type: 'text', required: 'Y' },
        { label: 'T恤尺码', type: 'radio', options: ['S', 'M', 'L'], required: 'Y' },
      ],
    });
    const a = ok(await s.call('signupinfo', { id }, service));
    expect(a.body).toBe('<p>活动详情</p>');
    expect(a.form.map((f: any) => f.id)).toEqual(['f1', 'f2']);
    expect(a).toMatchObject({ phase: 'open', status: 'Y', create_user: '何专员', limit_num: 10, totle_num: 0 });
    // renaming a field keeps its id; a new one gets the next
    ok(
      await s.call(
        'signupedit',
        {
          id,
          ...base({
            form: [
              { id: 'f2', label: '尺码', type: 'radio', options: ['S', 'M', 'L'], required: 'Y' },
              { label: '备注', type: 'textarea' },
            ],
          }),
        },
        service,
      ),
    );
    expect(ok(await s.call('signupinfo', { id }, service)).form.map((f: any) => `${f.id}:${f.label}`)).toEqual(['f2:尺码', 'f3:备注']);
    refused(await s.call('signupedit', { id, ...base({ form: [{ id: 'f9', label: 'x', type: 'text' }] }) }, service), /编号不属于本活动/);
  });

  it('refuses windows in the wrong order and bad settings, changing nothing', async () => {
    const before = ok(await s.call('signuplist', { page: 1, limit: 1 }, service)).total;
    refused(await s.call('signupadd', base({ end_time: at(49 * 60) }), service), '报名截止时间不能晚于活动开始时间');
    refused(await s.call('signupadd', base({ start_time: at(30), end_time: at(10) }), service), '报名截止时间须晚于报名开始时间');
    refused(await s.call('signupadd', base({ event_end_time: at(47 * 60) }), service), '活动结束时间须晚于活动开始时间');
    refused(await s.call('signupadd', base({ is_pay: 'Y', price: '0' }), service), '收费活动请填写大于 0 的单价');
    refused(await s.call('signupadd', base({ companions_max: 2 }), service), /按人报名时不能携带同行人/);
    refused(await s.call('signupadd', base({ min_num: 20 }), service), '最少成团人数不能大于人数上限');
    refused(
      await s.call('signupadd', base({ form: [{ label: '单选', type: 'radio', options: ['A'] }] }), service),
      /至少需要两个不同的选项/,
    );
    refused(await s.call('signupadd', base({ body: '<script>x</script>' }), service), '请输入活动详情');
    refused(await s.call('signupadd', base({ cover: 'http://evil/x.png' }), service), /图片地址无效/);
    refused(await s.call('signupadd', base({ scope: 'building', scope_bids: [] }), service), '请选择可见的楼栋');
    const b2 = await db().selectFrom('buildings').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    refused(await s.call('signupadd', base({ scope: 'building', scope_bids: [Number(b2.id)] }), service), '所选楼栋不存在或不属于当前小区');
    expect(ok(await s.call('signuplist', { page: 1, limit: 1 }, service)).total).toBe(before);
  });

  it('capacity on edit never below the seats taken; price locked once someone paid', async () => {
    const id = await addActivity({ limit_num: 5, is_pay: 'Y', price: '20.00' });
    const [p1, p2] = await nextResidents(2);
    const a = ok(await join(id, p1!));
    ok(await join(id, p2!));
    refused(
      await s.call('signupedit', { id, ...base({ limit_num: 1, is_pay: 'Y', price: '20.00' }) }, service),
      '人数上限不能低于已报名的 2 人',
    );
    ok(await s.call('signupedit', { id, ...base({ limit_num: 2, is_pay: 'Y', price: '25.00' }) }, service));
    refused(await s.call('signupedit', { id, ...base({ limit_num: 2, is_pay: 'N' }) }, service), '已有人报名，不能修改是否收费');
    // the first sign-up's bill was made at 20.00 and is paid at the cashier
    ok(await payBill(a.hid, a.bill_id));
    refused(
      await s.call('signupedit', { id, ...base({ limit_num: 2, is_pay: 'Y', price: '30.00' }) }, service),
      '已有 1 人付款，收费方式和单价不能修改',
    );
    expect(ok(await s.call('signupinfo', { id }, service))).toMatchObject({ price: '25.00', price_locked: true });
    expect(ok(await s.call('signupuserlist', { id, page: 1, limit: 10 }, service)).items[0]).toMatchObject({
      status: 'Y',
      pay_status: 'Y',
    });
  });

  it('is deleted only without sign-ups; 下架 stops new sign-ups', async () => {
    const empty = await addActivity();
    ok(await s.call('signupdel', { id: empty }, service));
    refused(await s.call('signupinfo', { id: empty }, service), '活动不存在');
    const id = await addActivity();
    const [p] = await nextResidents(1);
    ok(await join(id, p!));
    refused(await s.call('signupdel', { id }, service), /已有 1 条报名记录，不能删除/);
    ok(await s.call('signupstatus', { id, status: 'N' }, service));
    const [q] = await nextResidents(1);
    refused(await join(id, q!), '活动已下架，不能报名');
  });
});

describe('signupjoin', () => {
  it('never exceeds the capacity with 50 sign-ups at once; the rest wait in order', async () => {
    const id = await addActivity({ limit_num: 7, waitlist: 'Y' });
    const people = await nextResidents(50);
    const answers = await Promise.all(people.map((p) => join(id, p)));
    expect(answers.every((a) => a.return_code === 'SUCCESS')).toBe(true);
    const list = ok(await s.call('signupuserlist', { id, page: 1, limit: 100 }, service));
    expect(list.counts).toMatchObject({ Y: 7, W: 43 });
    const waits = list.items.filter((u: any) => u.status === 'W').map((u: any) => u.wait_pos);
    expect([...waits].sort((x: number, y: number) => x - y)).toEqual(Array.from({ length: 43 }, (_, i) => i + 1));
    expect(ok(await s.call('signupinfo', { id }, service))).toMatchObject({ totle_num: 7, waiting_num: 43 });
  });

  it('without a waiting list a full activity refuses, 50 at once', async () => {
    const id = await addActivity({ limit_num: 5 });
    const people = await nextResidents(50);
    const answers = await Promise.all(people.map((p) => join(id, p)));
    expect(answers.filter((a) => a.return_code === 'SUCCESS')).toHaveLength(5);
    expect(answers.filter((a) => a.return_msg === '名额已满')).toHaveLength(45);
  });

  it('enforces the window, join type, household limit, companions and the form', async () => {
    const early = await addActivity({ start_time: at(60), end_time: at(120) });
    const [p] = await nextResidents(1);
    refused(await join(early, p!), '报名尚未开始');
    const id = await addActivity({
      join_type: 'owner',
      form: [
        { label: '手机', type: 'mobile', required: 'Y' },
        { label: '人数', type: 'number' },
        { label: '项目', type: 'checkbox', options: ['A', 'B'] },
      ],
    });
    const [tenant] = await residents(1, 1, 'tenant');
    refused(await join(id, tenant!, { answers: { f1: '13800000000' } }), '该活动仅限业主报名');
    const [owner] = (await nextResidents(20)).filter((r) => r.relation === 'owner');
    refused(await join(id, owner!, {}), '请填写「手机」');
    refused(await join(id, owner!, { answers: { f1: '123' } }), '「手机」须为 11 位手机号');
    refused(await join(id, owner!, { answers: { f1: '13800000000', f2: 'abc' } }), '「人数」须为数字');
    refused(await join(id, owner!, { answers: { f1: '13800000000', f3: ['C'] } }), /选项不存在/);
    refused(await join(id, owner!, { answers: { f1: '13800000000', zz: 'x' } }), /表单中没有的问题/);
    refused(await join(id, owner!, { answers: { f1: '13800000000' }, companions: 1 }), '该活动按人报名，不能携带同行人');
    const a = ok(await join(id, owner!, { answers: { f1: '13800000000', f2: '3', f3: ['A', 'B'] } }));
    expect(a.answers).toEqual({ f1: '13800000000', f2: 3, f3: ['A', 'B'] });
    refused(await join(id, owner!, { answers: { f1: '13800000000' } }), '该住户已报名此活动');
    // a room's second person: the household limit (1 by default)
    const mate = await db()
      .selectFrom('room_members')
      .select(['hid', 'member_id'])
      .where('rid', '=', 1)
      .where('hid', '=', owner!.hid)
      .where('status', '=', 'Y')
      .where('member_id', '<>', owner!.member_id)
      .where('relation', '=', 'owner')
      .executeTakeFirst();
    if (mate)
      refused(
        await join(id, { hid: Number(mate.hid), member_id: Number(mate.member_id) }, { answers: { f1: '13800000000' } }),
        /每户限报 1 人/,
      );
    // households: companions up to N
    const hh = await addActivity({ join_mode: 'household', companions_max: 2 });
    const [h] = await nextResidents(1);
    refused(await join(hh, h!, { companions: 3 }), '每户最多携带 2 名同行人');
    expect(ok(await join(hh, h!, { companions: 2 }))).toMatchObject({ companions: 2, people: 3, status: 'Y' });
    // someone not living in the room
    const [x, y] = await nextResidents(2);
    refused(await join(hh, { hid: x!.hid, member_id: y!.member_id }), '报名人必须是该房屋的在住住户');
  });

  it('visible to chosen buildings only', async () => {
    const [p] = await nextResidents(1);
    const room = await db().selectFrom('rooms').select('bid').where('rid', '=', 1).where('id', '=', p!.hid).executeTakeFirstOrThrow();
    const other = await db()
      .selectFrom('buildings')
      .select('id')
      .where('rid', '=', 1)
      .where('id', '<>', room.bid)
      .executeTakeFirstOrThrow();
    const id = await addActivity({ scope: 'building', scope_bids: [Number(other.id)] });
    refused(await join(id, p!), /仅对指定楼栋的住户开放/);
    const ok2 = await addActivity({ scope: 'building', scope_bids: [Number(room.bid)] });
    ok(await join(ok2, p!));
  });

  it('review: a sign-up waits for approval; refusing frees the seat for the waiting one', async () => {
    const id = await addActivity({ limit_num: 1, review: 'Y', waitlist: 'Y' });
    const [p, q] = await nextResidents(2);
    const a = ok(await join(id, p!));
    expect(a.status).toBe('R');
    const w = ok(await join(id, q!));
    expect(w).toMatchObject({ status: 'W', status_ch: '候补 #1' });
    // a to-do for the reviewers, settled once decided
    const todo = () =>
      db()
        .selectFrom('backlog')
        .select(['status', 'title', 'link'])
        .where('rid', '=', 1)
        .where('kind', '=', 'activity')
        .where('source_id', '=', `${id}-${a.id}`)
        .executeTakeFirst();
    expect(await todo()).toMatchObject({
      status: 'E',
      title: '审核活动报名：测试活动',
      link: `/service/signup_userlist?id=${id}&status=R`,
    });
    const refusedOne = ok(await s.call('signupapprove', { id: a.id, approve: 'N', remark: '不符合条件' }, service));
    expect((await todo())?.status).toBe('Y');
    expect(refusedOne).toMatchObject({ status: 'C', cancel_reason: '审核未通过：不符合条件' });
    // the waiting one is offered the seat (free activity: to confirm) and confirms
    const offered = ok(await s.call('signupinfo', { id }, service));
    expect(offered.totle_num).toBe(1);
    const c = ok(await s.call('signupconfirm', { id: w.id }, service));
    expect(c.status).toBe('R');
    expect(ok(await s.call('signupapprove', { id: w.id, approve: 'Y' }, service)).status).toBe('Y');
    refused(await s.call('signupapprove', { id: w.id, approve: 'Y' }, service), '该报名已报名，不在待审核状态');
  });

  it('check-in by QR code; twice refused; another activity’s code refused', async () => {
    const id = await addActivity({ start_time: at(-120), end_time: at(-30), event_start_time: at(-20), event_end_time: at(100) });
    const [p] = await nextResidents(1);
    // sign-ups taken before the deadline (written as the join would)
    await db()
      .updateTable('activities')
      .set({ end_time: sql`now() + interval '1 hour'` })
      .where('rid', '=', 1)
      .where('id', '=', id)
      .execute();
    const a = ok(await join(id, p!));
    refused(await s.call('signupcheckin', { activity_id: id + 100000, code: a.no }, service), '报名码无效：不是本活动的报名');
    const c = ok(await s.call('signupcheckin', { activity_id: id, code: a.no.toLowerCase() }, service));
    expect(c.status).toBe('S');
    refused(await s.call('signupcheckin', { activity_id: id, code: a.no }, service), `${a.no} 已签到，请勿重复签到`);
    refused(await s.call('signupcheckin', { activity_id: id }, service), '请扫描或输入报名码');
  });
});

describe('money', () => {
  it('an unpaid seat is released by the clock (its bill deleted) and the first waiting promoted with N hours to pay', async () => {
    const id = await addActivity({ limit_num: 2, is_pay: 'Y', price: '50.00', pay_minutes: 15, waitlist: 'Y', confirm_hours: 6 });
    const [p1, p2, p3] = await nextResidents(3);
    const a1 = ok(await join(id, p1!));
    const a2 = ok(await join(id, p2!));
    const a3 = ok(await join(id, p3!));
    expect([a1.status, a2.status, a3.status]).toEqual(['P', 'P', 'W']);
    expect(a1).toMatchObject({ pay_status: 'U', amount: '50.00' });
    // one pays at the cashier: 已报名
    ok(await payBill(p1!.hid, a1.bill_id));
    expect(ok(await s.call('signupuserlist', { id, page: 1, limit: 10, status: 'Y' }, service)).items.map((u: any) => u.id)).toEqual([
      a1.id,
    ]);
    // the other lets the time run out: 16 minutes later the clock releases the seat
    const out = await runSignupClock(db(), new Date(Date.now() + 16 * 60_000));
    expect(out.released).toBeGreaterThanOrEqual(1);
    const rows = ok(await s.call('signupuserlist', { id, page: 1, limit: 10 }, service)).items;
    const byId = new Map(rows.map((r: any) => [r.id, r]));
    expect(byId.get(a2.id)).toMatchObject({ status: 'C', cancel_reason: '超时未支付，名额已释放', bill_id: null });
    expect(
      await db().selectFrom('fee_bills').select('id').where('rid', '=', 1).where('id', '=', a2.bill_id).executeTakeFirst(),
    ).toBeUndefined();
    const promoted = byId.get(a3.id) as any;
    expect(promoted).toMatchObject({ status: 'P', pay_status: 'U' });
    expect(promoted.bill_id).toBeTruthy();
    // the promoted one's bill is paid at the cashier
    ok(await payBill(p3!.hid, promoted.bill_id));
    expect(ok(await s.call('signupinfo', { id }, service))).toMatchObject({ totle_num: 2, waiting_num: 0, paid_amount: '100.00' });
  });

  it('a sign-up closed short of the minimum raises one to-do for the organisers, settled when the activity is cancelled', async () => {
    const id = await addActivity({ limit_num: 10, min_num: 3 });
    const [p] = await nextResidents(1);
    ok(await join(id, p!));
    const todo = () =>
      db()
        .selectFrom('backlog')
        .select(['status', 'title', 'content', 'link'])
        .where('rid', '=', 1)
        .where('kind', '=', 'activitymin')
        .where('source_id', '=', String(id))
        .execute();
    // still open: nothing yet
    await runSignupClock(db(), new Date());
    expect(await todo()).toEqual([]);
    // a day later the sign-up has closed (the event is the day after)
    const later = new Date(Date.now() + 25 * 3600_000);
    expect((await runSignupClock(db(), later)).short).toBeGreaterThanOrEqual(1);
    expect(await todo()).toEqual([
      {
        status: 'E',
        title: '活动未成团：测试活动',
        content: '报名已截止，已报名 1 人，少于最少成团人数 3 人：请在活动开始前决定取消活动（已付款的全额退款）或照常举办',
        link: `/service/signup_userlist?id=${id}`,
      },
    ]);
    // raised once: the next run leaves it as it is
    await runSignupClock(db(), new Date(later.getTime() + 60_000));
    expect(await todo()).toHaveLength(1);
    ok(await s.call('signupcancelactivity', { id, reason: '人数不足' }, service));
    expect((await todo())[0]?.status).toBe('Y');
  });

  it('the refund rule: none, until the deadline, up to N hours before; a fee fixed or in percent', () => {
    const a = {
      refund_rule: 'hours',
      refund_hours: 24,
      refund_fee_type: 'percent',
      refund_fee: '10',
      end_time: new Date('2026-12-01T00:00:00Z'),
      event_start_time: new Date('2026-12-10T00:00:00Z'),
    } as any;
    expect(refundDue(a, '68.00', new Date('2026-12-08T00:00:00Z'))).toBe(6120n);
    expect(refundDue(a, '68.00', new Date('2026-12-09T12:00:00Z'))).toBeNull();
    expect(refundDue({ ...a, refund_rule: 'none' }, '68.00', new Date('2026-11-01T00:00:00Z'))).toBeNull();
    expect(
      refundDue({ ...a, refund_rule: 'deadline', refund_fee_type: 'fixed', refund_fee: '5' }, '68.00', new Date('2026-11-30T00:00:00Z')),
    ).toBe(6300n);
    expect(refundDue({ ...a, refund_rule: 'deadline' }, '68.00', new Date('2026-12-02T00:00:00Z'))).toBeNull();
  });

  it('cancelling a paid sign-up within the rule asks a refund through the refund workflow; past the rule it is refused', async () => {
    const id = await addActivity({ is_pay: 'Y', price: '80.00', refund_rule: 'deadline', refund_fee_type: 'fixed', refund_fee: '8' });
    const [p] = await nextResidents(1);
    const a = ok(await join(id, p!));
    ok(await payBill(p!.hid, a.bill_id));
    const c = await s.call('signupcancel', { id: a.id, reason: '临时有事' }, service);
    expect(c.return_msg).toBe('已取消，已提交退款申请 72.00 元，待财务审核');
    expect(c.data).toMatchObject({ status: 'C', pay_status: 'R', refund_amount: '72.00' });
    const refund = await db()
      .selectFrom('fee_refunds')
      .select(['id', 'amount', 'status', 'bill_ids'])
      .where('rid', '=', 1)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ amount: '72.00', status: 'E' });
    expect(refund.bill_ids.map(Number)).toEqual([a.bill_id]);
    // finance approves: 已退款; the bill stays paid (nothing is owed for a cancelled seat), its line refunded
    const approved = await s.call('refundapprove', { id: Number(refund.id), approve: true }, finance);
    expect(approved.return_code, approved.return_msg).toBe('SUCCESS');
    const after = ok(await s.call('signupuserlist', { id, page: 1, limit: 10 }, service)).items.find((u: any) => u.id === a.id);
    expect(after).toMatchObject({ status: 'C', pay_status: 'F' });
    const bill = await db()
      .selectFrom('fee_bills')
      .select(['status', 'payment_id'])
      .where('rid', '=', 1)
      .where('id', '=', a.bill_id)
      .executeTakeFirstOrThrow();
    expect(bill.status).toBe('Y');
    const line = await db()
      .selectFrom('fee_payment_items')
      .select('refunded')
      .where('rid', '=', 1)
      .where('bill_id', '=', a.bill_id)
      .executeTakeFirstOrThrow();
    expect(line.refunded).toBe('Y');
    const desk = ok(await s.call('cashierbills', { hid: p!.hid }, cashier));
    expect(desk.items.map((b: any) => b.id)).not.toContain(a.bill_id);
    const none = await addActivity({ is_pay: 'Y', price: '10.00', refund_rule: 'none' });
    const [q] = await nextResidents(1);
    const b = ok(await join(none, q!));
    ok(await payBill(q!.hid, b.bill_id));
    refused(await s.call('signupcancel', { id: b.id }, service), /不可退/);
    expect(ok(await s.call('signupcancel', { id: b.id, force_full: 'Y' }, service))).toMatchObject({
      refund_amount: '10.00',
      pay_status: 'R',
    });
  });

  it('cancelling the activity cancels every sign-up, refunds the paid in full and voids the unpaid bills', async () => {
    const id = await addActivity({ is_pay: 'Y', price: '30.00', refund_rule: 'none', limit_num: 2, waitlist: 'Y' });
    const [p1, p2, p3] = await nextResidents(3);
    const a1 = ok(await join(id, p1!));
    const a2 = ok(await join(id, p2!));
    ok(await join(id, p3!));
    ok(await payBill(p1!.hid, a1.bill_id));
    const r = await s.call('signupcancelactivity', { id, reason: '天气原因' }, service);
    expect(r.return_code, r.return_msg).toBe('SUCCESS');
    expect(r.data).toMatchObject({ cancelled: 3, refunded: 1, sms_job_id: null });
    const info = ok(await s.call('signupinfo', { id }, service));
    expect(info).toMatchObject({ phase: 'cancelled', phase_ch: '已取消', totle_num: 0, cancel_reason: '天气原因' });
    const users = ok(await s.call('signupuserlist', { id, page: 1, limit: 10 }, service)).items;
    expect(users.every((u: any) => u.status === 'C')).toBe(true);
    expect(users.find((u: any) => u.id === a1.id)).toMatchObject({ pay_status: 'R', refund_amount: '30.00' });
    expect(
      await db().selectFrom('fee_bills').select('id').where('rid', '=', 1).where('id', '=', a2.bill_id).executeTakeFirst(),
    ).toBeUndefined();
    refused(await s.call('signupcancelactivity', { id, reason: '再取消' }, service), '活动已取消');
    refused(await s.call('signupedit', { id, ...base() }, service), '活动已取消，不能修改');
  });
});

describe('the form data', () => {
  it('answers per person and per-question totals; the export has a column a question', async () => {
    const id = await addActivity({
      form: [
        { label: '人数', type: 'number', required: 'Y' },
        { label: '口味', type: 'radio', options: ['甜', '咸'] },
      ],
    });
    const people = await nextResidents(3);
    ok(await join(id, people[0]!, { answers: { f1: 2, f2: '甜' } }));
    ok(await join(id, people[1]!, { answers: { f1: 3, f2: '咸' } }));
    ok(await join(id, people[2]!, { answers: { f1: 1, f2: '甜' } }));
    const f = ok(await s.call('signupformshow', { id, page: 1, limit: 10 }, service));
    expect(f.total).toBe(3);
    expect(f.questions[0]).toMatchObject({ label: '人数', answered: 3, sum: '6.00', avg: '2.00' });
    expect(f.questions[1].choices).toEqual([
      { option: '甜', count: 2 },
      { option: '咸', count: 1 },
    ]);
    const file = ok(await s.exportFile('signupformexport', { id }, service));
    const sheet = await readXlsx(file.content_base64);
    expect(sheet.headers).toEqual(expect.arrayContaining(['报名号', '人数', '口味']));
    expect(sheet.rows).toHaveLength(3);
  });
});

describe('access', () => {
  it('another community’s ids answer 不存在; a role without service is refused', async () => {
    const id = await addActivity();
    refused(await s.call('signupinfo', { id }, admin2), '活动不存在');
    refused(await s.call('signupedit', { id, ...base() }, admin2), '活动不存在');
    refused(await s.call('signupdel', { id }, admin2), '活动不存在');
    const [p] = await nextResidents(1);
    refused(await join(id, p!, {}, admin2), '活动不存在');
    const a = ok(await join(id, p!));
    refused(await s.call('signupcancel', { id: a.id }, admin2), '报名记录不存在');
    refused(await s.call('signupcheckin', { activity_id: id, id: a.id }, admin2), '报名记录不存在');
    // a room of community 2 for an activity of community 1's operator
    const [r2] = await residents(1, 2);
    refused(await join(id, r2!), '所选房屋不存在或不属于当前小区');
    const denied = await s.call('signuplist', { page: 1, limit: 10 }, tech);
    expect(denied.return_code).toBe('NO_PERMISSION');
    expect((await s.call('signupadd', base(), cashier)).return_code).toBe('NO_PERMISSION');
  });

  it('bad payloads are refused with a message naming the field', async () => {
    const r = await s.call('signupadd', { ...base(), limit_num: -1 }, service);
    expect(r.return_code).toBe('FAIL');
    const r2 = await s.call('signupadd', { ...base(), start_time: '明天' }, service);
    expect(r2.return_msg).toMatch(/时间格式/);
    const r3 = await s.call('signupjoin', { activity_id: 'x', hid: 1, member_id: 1 }, service);
    expect(r3.return_code).toBe('FAIL');
  });
});
