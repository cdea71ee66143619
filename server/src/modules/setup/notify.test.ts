import { RC, zoneOffsetMinutes } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessTimeZone } from '../../config.js';
import { today } from '../../lib/wire.js';
import { ok, refused } from '../../test/answers.js';
import { otherGroupLeader } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let leader: string;
let outsider: string;
let admin: string;
let steward: string;
let tech: string;
let cashier: string;
let guard: string;
let techId: number;
let stewardId: number;
let typeId: number;
let room: number;
let mobileSeq = 0;

const db = () => s.database.db;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
type Cell = { event: string; recipient: string; channel: string; enabled: 'Y' | 'N' };
const save = (cells: Cell[], settings: Record<string, unknown> = {}, token = leader) =>
  group('messagesetedit', { cells, quiet_enabled: 'N', quiet_from: 21, quiet_to: 8, daily_cap: 5, ...settings }, token);
const on = (event: string, recipient: string, channel: string): Cell => ({ event, recipient, channel, enabled: 'Y' });
const notes = (ref: string | number, channel?: 'inbox' | 'sms' | 'wechat') => {
  let q = db().selectFrom('notifications').selectAll().where('ref_id', '=', String(ref));
  if (channel) q = q.where('channel', '=', channel);
  return q.orderBy('id').execute();
};
/** A mobile no test has used, so the daily cap starts at zero. */
const freshMobile = () => `1390000${String(1000 + ++mobileSeq).slice(-4)}`;
/** A ticket registered by the administrator: the desk (the steward) is told of it, not being who did it. */
const ticket = async (phone = freshMobile()) =>
  ok(await s.call('repairadd', { source: 'D', type_id: typeId, hid: room, reporter: '张三', phone, content: '卫生间漏水' }, admin))
    .id as number;

/** A living member of community 1 with a mobile, who invites the visitors. */
const host = () =>
  db()
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['rm.hid', 'rm.member_id', 'm.realname', 'm.mobile'])
    .where('rm.rid', '=', 1)
    .where('rm.status', '=', 'Y')
    .where('m.mobile', '<>', '')
    .orderBy('rm.id')
    .executeTakeFirstOrThrow();
/** Community 1's visitor settings: whether visits wait for review; no cars reserved. */
const visitorReview = async (review: 'Y' | 'N') => {
  const lot = await db().selectFrom('parking_lots').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
  return ok(
    await s.call(
      'visitorsetedit',
      { review, push_face: 'N', reserve_car: 'N', lot_id: Number(lot.id), free_minutes: 120, daily_car_limit: 0 },
      admin,
    ),
  );
};
/** A visit of today to the host's room, registered at the gate. */
const visit = async (h: { hid: number; member_id: number }, realname: string, mobile: string) =>
  ok(
    await s.call(
      'visitoradd',
      {
        realname,
        gender: 'F',
        mobile,
        hid: h.hid,
        member_id: h.member_id,
        visit_cause: '亲友拜访',
        visit_time: `${today()} 00:00:00`,
        leave_time: `${today()} 23:59:00`,
        companions: 0,
      },
      guard,
    ),
  ).id as number;

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin, steward, tech, cashier, guard] = await s.logins('leader', 'admin', 'steward', 'tech', 'cashier', 'guard');
  outsider = await otherGroupLeader(s);
  const account = async (username: string) =>
    Number((await db().selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);
  techId = await account('tech');
  stewardId = await account('steward');
  room = Number(
    (await db().selectFrom('rooms').select('id').where('rid', '=', 1).where('address', '=', '1号楼1单元1101').executeTakeFirstOrThrow()).id,
  );
  typeId = ok(
    await s.call(
      'repairtypeadd',
      { title: '通知测试', mode: 'A', area: 'H', paid: 'N', visit_policy: 'U', staff_ids: [techId], accept_hours: 2, finish_hours: 24 },
      steward,
    ),
  ).id as number;
  ok(await s.call('repairsettingsedit', { max_open: 99, auto_rate_hours: 48, reopen_days: 7 }, steward));
});
afterAll(() => s?.close());

describe('messagesetinfo and messagesetedit', () => {
  it('shows a group that never saved the defaults: the inbox on for staff, no SMS, owners by SMS only; quiet 21–8, 5 a day', async () => {
    const info = ok(await group('messagesetinfo', {}, outsider));
    expect(info).toMatchObject({ quiet_enabled: 'Y', quiet_from: 21, quiet_to: 8, daily_cap: 5, update_time: '' });
    const cells = info.cells as Cell[];
    expect(cells.filter((c) => c.channel === 'inbox').every((c) => c.enabled === 'Y')).toBe(true);
    expect(cells.filter((c) => c.channel !== 'inbox').every((c) => c.enabled === 'N')).toBe(true);
    expect(cells.some((c) => ['owner', 'visitor', 'party'].includes(c.recipient) && c.channel === 'inbox')).toBe(false);
    // 微信 is the owners' alone: no follower is bound to a visitor, a contract party or staff
    expect(new Set(cells.filter((c) => c.channel === 'wechat').map((c) => c.recipient))).toEqual(new Set(['owner']));
    expect(cells).toContainEqual({ event: 'repair_dispatch', recipient: 'handler', channel: 'inbox', enabled: 'Y' });
  });

  it('shows the demo group’s saved matrix: owners texted on 派单, 完工, 缴费成功, 访客到访, 投诉受理 and 投诉办结, and told 缴费成功 on WeChat', async () => {
    const info = ok(await group('messagesetinfo', {}));
    expect(info.update_time).not.toBe('');
    const ownerOn = (info.cells as Cell[]).filter((c) => c.recipient === 'owner' && c.enabled === 'Y');
    expect(ownerOn.filter((c) => c.channel === 'wechat').map((c) => c.event)).toEqual(['pay_success']);
    const owner = ownerOn.filter((c) => c.channel === 'sms').map((c) => c.event);
    expect(owner.sort()).toEqual([
      'complaint_accept',
      'complaint_finish',
      'pay_success',
      'repair_dispatch',
      'repair_finish',
      'visitor_arrive',
    ]);
    expect((info.cells as Cell[]).find((c) => c.recipient === 'visitor')).toEqual({
      event: 'visitor_pass',
      recipient: 'visitor',
      channel: 'sms',
      enabled: 'Y',
    });
  });

  it('is the head office’s: a community account and another group see nothing of it', async () => {
    expect((await group('messagesetinfo', {}, admin)).return_code).toBe(RC.NO_PERMISSION);
    expect((await save([], {}, admin)).return_code).toBe(RC.NO_PERMISSION);
    ok(await save([on('repair_submit', 'owner', 'sms')], {}, outsider));
    const cell = (ok(await group('messagesetinfo', {})).cells as Cell[]).find(
      (c) => c.event === 'repair_submit' && c.recipient === 'owner',
    );
    expect(cell?.enabled).toBe('N');
    expect(ok(await group('messageloglist', { limit: 50 }, outsider)).total).toBe(0);
    ok(await save([{ ...on('repair_submit', 'owner', 'sms'), enabled: 'N' }], {}, outsider));
  });

  it('refuses a cell that cannot be, equal quiet hours and a cap out of range, changing nothing', async () => {
    const mine = await db().selectFrom('regions').select('group_id').where('id', '=', 1).executeTakeFirstOrThrow();
    const stored = () =>
      Promise.all([
        db()
          .selectFrom('notify_rules')
          .selectAll()
          .where('group_id', '=', mine.group_id)
          .orderBy(['event', 'recipient', 'channel'])
          .execute(),
        db().selectFrom('notify_settings').selectAll().where('group_id', '=', mine.group_id).execute(),
      ]);
    const before = await stored();
    refused(await save([on('repair_submit', 'owner', 'inbox')]), '“报修提交”不能经站内消息通知业主');
    refused(await save([on('visitor_arrive', 'handler', 'sms')]), '“访客到访”不能经短信通知处理人');
    refused(await save([on('visitor_pass', 'visitor', 'wechat')]), '“访客通行码”不能经微信通知访客');
    refused(await save([on('repair_dispatch', 'handler', 'wechat')]), '“报修派单”不能经微信通知处理人');
    refused(await save([], { quiet_enabled: 'Y', quiet_from: 8, quiet_to: 8 }), '免打扰开始与结束时间不能相同');
    expect((await save([], { daily_cap: 0 })).return_code).toBe(RC.FAIL);
    expect((await save([], { quiet_from: 24 })).return_code).toBe(RC.FAIL);
    expect((await save([on('repair_submit', 'owner', 'sms'), on('repair_submit', 'owner', 'sms')])).return_msg).toBe('设置项重复');
    expect(await stored()).toEqual(before);
  });
});

describe('the repair events', () => {
  it('tells the desk and the technician in their inbox, and the reporter by SMS once the group turns it on', async () => {
    ok(await save([on('repair_dispatch', 'owner', 'sms'), { ...on('repair_submit', 'staff', 'inbox'), enabled: 'Y' }]));
    const phone = freshMobile();
    const id = await ticket(phone);
    const submitted = await notes(id, 'inbox');
    expect(submitted.some((n) => Number(n.account_id) === stewardId && n.event === 'repair_submit' && n.status === 'U')).toBe(true);
    expect(submitted.every((n) => n.link === `/steward/repairs?id=${id}`)).toBe(true);
    // staff read what to do, not the owner's receipt
    expect(submitted[0]!.content).toBe(`通知测试：卫生间漏水（报修人 张三 ${phone}）`);
    expect(await notes(id, 'sms')).toEqual([]);

    const before = ok(await s.call('inboxcount', {}, tech)).unread as number;
    ok(await s.call('repairdispatch', { id, handler_id: techId }, steward));
    expect(ok(await s.call('inboxcount', {}, tech)).unread).toBe(before + 1);
    const [sms] = await notes(id, 'sms');
    expect(sms).toMatchObject({ event: 'repair_dispatch', recipient: 'owner', mobile: phone, status: 'W', send_after: null });
    expect(sms!.content).toContain('已派给');
    await s.runJobs();
    const [sent] = await notes(id, 'sms');
    expect(sent!.status).toBe('Y');
    const outbox = await db().selectFrom('sms_sandbox_outbox').selectAll().where('out_id', '=', `notify-${sent!.id}`).execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.mobile).toBe(phone);

    // the group's log shows both channels, the mobile masked
    const log = ok(await group('messageloglist', { event: 'repair_dispatch', channel: 'sms', limit: 50 }));
    const row = (log.items as Array<Record<string, unknown>>).find((r) => r.id === Number(sent!.id));
    expect(row).toMatchObject({
      event_ch: '报修派单',
      recipient_ch: '业主',
      channel_ch: '短信',
      status_ch: '已发送',
      region_title: expect.any(String),
    });
    expect(row!.mobile).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    refused(await group('messageloglist', { rid: 2_000_000_000 }), '小区不存在或不属于本集团');
  });

  it('tells a technician nothing of a ticket they took themselves, and the owner all the same', async () => {
    ok(await save([on('repair_dispatch', 'owner', 'sms'), on('repair_dispatch', 'handler', 'inbox')]));
    const grabType = ok(
      await s.call(
        'repairtypeadd',
        { title: '抢单测试', mode: 'G', area: 'H', paid: 'N', visit_policy: 'U', staff_ids: [techId], accept_hours: 2, finish_hours: 24 },
        steward,
      ),
    ).id as number;
    const phone = freshMobile();
    const id = ok(
      await s.call('repairadd', { source: 'D', type_id: grabType, hid: room, reporter: '李四', phone, content: '门锁坏了' }, steward),
    ).id as number;
    ok(await s.call('repairgrab', { id }, tech));
    expect((await notes(id, 'inbox')).filter((n) => n.event === 'repair_dispatch')).toEqual([]);
    expect(await notes(id, 'sms')).toMatchObject([{ event: 'repair_dispatch', recipient: 'owner', mobile: phone }]);
  });

  it('holds an SMS past the quiet hours and stops at the daily cap', async () => {
    const h = new Date(Date.now() + zoneOffsetMinutes(businessTimeZone()) * 60_000).getUTCHours();
    ok(await save([on('repair_submit', 'owner', 'sms')], { quiet_enabled: 'Y', quiet_from: h, quiet_to: (h + 1) % 24, daily_cap: 2 }));
    const phone = freshMobile();
    const first = await ticket(phone);
    const [held] = await notes(first, 'sms');
    expect(held!.status).toBe('W');
    expect(held!.send_after).not.toBeNull();
    expect(held!.send_after!.getTime()).toBeGreaterThan(Date.now());
    await s.runJobs();
    expect((await notes(first, 'sms'))[0]!.status).toBe('W');

    ok(await save([on('repair_submit', 'owner', 'sms')], { quiet_enabled: 'N', daily_cap: 2 }));
    await ticket(phone);
    const third = await ticket(phone);
    expect((await notes(third, 'sms'))[0]).toMatchObject({ status: 'S', reason: '超出每日上限（同一手机号每天最多 2 条）' });
    const skipped = ok(await group('messageloglist', { status: 'S', keyword: phone, limit: 50 }));
    expect(skipped.total).toBe(1);
    ok(await save([{ ...on('repair_submit', 'owner', 'sms'), enabled: 'N' }], { daily_cap: 5 }));
  });
});

describe('the complaint events', () => {
  it('tells the desk of a new complaint and the handler once accepted, and texts the contact on 受理, 回复 and 办结', async () => {
    const cells = [on('complaint_accept', 'owner', 'sms'), on('complaint_reply', 'owner', 'sms'), on('complaint_finish', 'owner', 'sms')];
    ok(await save(cells));
    const category = await db()
      .selectFrom('complaint_categories')
      .select(['id', 'name'])
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const phone = freshMobile();
    const added = ok(
      await s.call(
        'complaintadd',
        { kind: 'C', category_id: Number(category.id), hid: room, contact: '王五', phone, content: '楼上夜间装修噪音', anonymous: true },
        admin,
      ),
    );
    const id = added.id as number;
    const of = (event: string) =>
      db().selectFrom('notifications').selectAll().where('event', '=', event).where('ref_id', '=', String(id)).orderBy('id').execute();
    const submitted = await of('complaint_submit');
    const desk = submitted.find((n) => Number(n.account_id) === stewardId && n.channel === 'inbox');
    // an anonymous complainant's name and phone stay off the staff's text
    expect(desk).toMatchObject({ title: `新投诉待受理：${added.no} ${category.name}`, link: `/steward/complaintlist?id=${id}` });
    expect(desk!.content).toBe(`${category.name}：楼上夜间装修噪音（匿名）`);
    expect(submitted.filter((n) => n.channel === 'sms')).toEqual([]);

    ok(await s.call('complaintaccept', { id, handler_id: techId }, steward));
    const accepted = await of('complaint_accept');
    expect(accepted.find((n) => n.channel === 'inbox')).toMatchObject({ account_id: techId, status: 'U' });
    const techName = (await db().selectFrom('accounts').select('name').where('id', '=', techId).executeTakeFirstOrThrow()).name;
    expect(accepted.find((n) => n.channel === 'sms')).toMatchObject({
      recipient: 'owner',
      mobile: phone,
      content: `您的投诉（编号 ${added.no}）已受理，由 ${techName} 负责处理。`,
    });

    ok(await s.call('complaintreply', { id, content: '已联系楼上住户，晚间停工' }, tech));
    expect((await of('complaint_reply'))[0]!.content).toBe(`关于您的投诉（编号 ${added.no}）：已联系楼上住户，晚间停工`);
    ok(await s.call('complaintfinish', { id, note: '噪音已停止' }, tech));
    const finished = await of('complaint_finish');
    expect(finished.find((n) => n.channel === 'sms')!.content).toContain('已办结：噪音已停止');
    // a refused step tells nobody
    refused(await s.call('complaintfinish', { id, note: '再次办结' }, tech), '该投诉已处理');
    expect(await of('complaint_finish')).toHaveLength(finished.length);

    await s.runJobs();
    const texts = await db().selectFrom('notifications').select('status').where('mobile', '=', phone).execute();
    expect(texts.map((t) => t.status)).toEqual(['Y', 'Y', 'Y']);
    ok(await save(cells.map((c) => ({ ...c, enabled: 'N' as const }))));
  });
});

describe('the SMS job', () => {
  it('claims a message before sending it; one found claimed after a crash is asked of the provider, never sent again', async () => {
    ok(await save([on('repair_dispatch', 'owner', 'sms')], { quiet_enabled: 'N' }));
    const id = await ticket();
    ok(await s.call('repairdispatch', { id, handler_id: techId }, steward));
    const [queued] = await notes(id, 'sms');
    // the process died after the claim: the row is C, and the provider never got it
    await db().updateTable('notifications').set({ status: 'C', claimed_at: new Date() }).where('id', '=', queued!.id).execute();
    await s.runJobs();
    const [after] = await notes(id, 'sms');
    expect(after).toMatchObject({ status: 'F', reason: '发送中断，未发出' });
    const outbox = await db().selectFrom('sms_sandbox_outbox').select('id').where('out_id', '=', `notify-${queued!.id}`).execute();
    expect(outbox).toEqual([]);
  });
});

describe('微信', () => {
  it('sends the owner a template message through each following follower bound to them; unbound: 未绑定微信; the platform’s refusal and a crash are recorded, nothing sent twice', async () => {
    const smsOff = { ...on('repair_dispatch', 'owner', 'sms'), enabled: 'N' as const };
    ok(await save([on('repair_dispatch', 'owner', 'wechat'), smsOff], { quiet_enabled: 'Y', quiet_from: 0, quiet_to: 23 }));
    // an owner of community 1 whom the demo's followers are bound to
    const bound = await db()
      .selectFrom('wx_followers as f')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'f.rid').onRef('m.id', '=', 'f.member_id'))
      .select(['m.id', 'm.mobile', 'f.openid'])
      .where('f.rid', '=', 1)
      .where('f.subscribed', '=', 'Y')
      .orderBy('f.id')
      .executeTakeFirstOrThrow();
    // a second follower bound to them, whom our list thinks following but the platform knows has left (the sandbox's 7th)
    const left = await db()
      .selectFrom('wx_followers')
      .select(['id', 'member_id', 'subscribed'])
      .where('rid', '=', 1)
      .where('openid', 'like', '%000007wuyeSandbox000')
      .executeTakeFirstOrThrow();
    await db().updateTable('wx_followers').set({ subscribed: 'Y', member_id: bound.id }).where('id', '=', left.id).execute();
    try {
      const id = await ticket(bound.mobile);
      ok(await s.call('repairdispatch', { id, handler_id: techId }, steward));
      const queued = await notes(id, 'wechat');
      expect(queued).toHaveLength(2);
      expect(queued.map((n) => n.status)).toEqual(['W', 'W']);
      expect(queued[0]).toMatchObject({ event: 'repair_dispatch', recipient: 'owner', openid: bound.openid, mobile: bound.mobile });
      // quiet hours hold the SMS only; the SMS cell is off
      expect(queued.every((n) => n.send_after === null)).toBe(true);
      expect(await notes(id, 'sms')).toEqual([]);
      await s.runJobs();
      const sent = await notes(id, 'wechat');
      expect(sent.map((n) => [n.status, n.reason])).toEqual([
        ['Y', ''],
        ['F', '接收者未关注公众号（43004）'],
      ]);
      const log = ok(await group('messageloglist', { channel: 'wechat', limit: 10 })).items as Array<Record<string, string>>;
      expect(log.find((r) => Number(r.id) === Number(sent[0]!.id))).toMatchObject({
        channel_ch: '微信',
        status_ch: '已发送',
        openid: `${bound.openid.slice(0, 6)}****${bound.openid.slice(-4)}`,
      });

      // a reporter no follower is bound to
      const stranger = await ticket();
      ok(await s.call('repairdispatch', { id: stranger, handler_id: techId }, steward));
      expect(await notes(stranger, 'wechat')).toMatchObject([{ status: 'S', reason: '未绑定微信', openid: '' }]);

      // the process died after the claim: the platform keeps nothing to ask, so it is not sent again
      const again = await ticket(bound.mobile);
      ok(await s.call('repairdispatch', { id: again, handler_id: techId }, steward));
      const [first] = await notes(again, 'wechat');
      await db().updateTable('notifications').set({ status: 'C', claimed_at: new Date() }).where('id', '=', first!.id).execute();
      await s.runJobs();
      expect((await notes(again, 'wechat'))[0]).toMatchObject({ status: 'F', reason: '发送中断，未确认送达（不重发）' });
    } finally {
      await db()
        .updateTable('wx_followers')
        .set({ subscribed: left.subscribed, member_id: left.member_id })
        .where('id', '=', left.id)
        .execute();
      // the demo's matrix again: owners texted on 派单
      ok(await save([{ ...on('repair_dispatch', 'owner', 'wechat'), enabled: 'N' }, on('repair_dispatch', 'owner', 'sms')]));
    }
  });
});

describe('the inbox', () => {
  it('lists the member’s own messages of the community, newest first, and marks them read', async () => {
    const id = await ticket();
    ok(await s.call('repairdispatch', { id, handler_id: techId }, steward));
    const list = ok(await s.call('inboxlist', { limit: 5 }, tech));
    expect(list.items[0]).toMatchObject({ event_ch: '报修派单', read: false, link: `/steward/repairs?id=${id}` });
    const first = list.items[0].id as number;
    // someone else's message is not theirs to mark
    ok(await s.call('inboxread', { ids: [first] }, steward));
    expect(ok(await s.call('inboxlist', { limit: 5 }, tech)).items[0].read).toBe(false);
    const after = ok(await s.call('inboxread', { ids: [first] }, tech));
    expect(after.unread).toBe(list.unread - 1);
    expect(ok(await s.call('inboxlist', { unread: 'Y', limit: 50 }, tech)).items.some((m: { id: number }) => m.id === first)).toBe(false);
    refused(await s.call('inboxread', {}, tech), '请选择消息');
    ok(await s.call('inboxread', { all: 'Y' }, tech));
    expect(ok(await s.call('inboxcount', {}, tech)).unread).toBe(0);
    // community 2's inbox of an account in both shows none of community 1's
    const admin2 = (await s.logins('admin2'))[0]!;
    expect(ok(await s.call('inboxlist', { limit: 50 }, admin2)).items.every((m: { link: string }) => !m.link.includes(`id=${id}`))).toBe(
      true,
    );
  });
});

describe('访客通行码', () => {
  it('texts the visitor the pass code once the visit is approved: at registration, or on 审核通过', async () => {
    ok(await save([on('visitor_pass', 'visitor', 'sms')]));
    const member = await host();
    await visitorReview('N');
    const direct = freshMobile();
    const first = await visit(member, '周访客', direct);
    const code = ok(await s.call('visitorinfo', { id: first }, admin)).pass_code as string;
    const [sms] = await notes(first, 'sms');
    expect(sms).toMatchObject({ event: 'visitor_pass', recipient: 'visitor', mobile: direct, status: 'W' });
    expect(sms!.content).toContain(`业主${member.realname}邀请您`);
    expect(sms!.content).toContain(`通行码 ${code}`);

    await visitorReview('Y');
    const second = await visit(member, '周访客', freshMobile());
    expect(await notes(second, 'sms')).toEqual([]);
    ok(await s.call('visitorapprove', { id: second, approve: true, remark: '' }, admin));
    expect((await notes(second, 'sms'))[0]).toMatchObject({ event: 'visitor_pass', status: 'W' });
    await visitorReview('N');
    ok(await save([{ ...on('visitor_pass', 'visitor', 'sms'), enabled: 'N' }]));
  });
});

describe('缴费成功 and 访客到访', () => {
  it('texts the owner on a payment at the counter and on their visitor’s arrival', async () => {
    ok(await save([on('pay_success', 'owner', 'sms'), on('visitor_arrive', 'owner', 'sms')]));
    const bill = await db()
      .selectFrom('fee_bills as b')
      .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'b.rid').onRef('rm.hid', '=', 'b.hid'))
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['b.hid', 'm.mobile'])
      .where('b.rid', '=', 1)
      .where('b.status', '<>', 'Y')
      .where('rm.relation', '=', 'owner')
      .where('rm.status', '=', 'Y')
      .orderBy('b.id', 'desc')
      .executeTakeFirstOrThrow();
    const bills = ok(await s.call('cashierbills', { hid: bill.hid }, cashier)).items as Array<{ id: number; total: string }>;
    const paid = ok(
      await s.call(
        'cashierpay',
        {
          hid: bill.hid,
          bill_ids: [bills[0]!.id],
          pay_type: 'cash',
          paid_amount: bills[0]!.total,
          idempotency_key: `notify-${Date.now()}`,
        },
        cashier,
      ),
    );
    const [sms] = await notes(paid.receipt_no as string, 'sms');
    expect(sms).toMatchObject({ event: 'pay_success', recipient: 'owner', status: 'W' });
    expect(sms!.content).toContain(`收据号 ${paid.receipt_no as string}`);

    const member = await host();
    await visitorReview('N');
    const visitor = await visit(member, '李访客', '13912340000');
    const code = ok(await s.call('visitorinfo', { id: visitor }, admin)).pass_code as string;
    const door = Number(
      (
        await db()
          .selectFrom('devices')
          .select('id')
          .where('rid', '=', 1)
          .where('family', '=', 'door')
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect(ok(await s.call('visitorpasscheck', { device_id: door, code }, guard)).open).toBe(true);
    const arrival = (await notes(visitor, 'sms')).find((n) => n.event === 'visitor_arrive');
    expect(arrival).toMatchObject({ event: 'visitor_arrive', mobile: member.mobile });
    expect(arrival!.content).toContain('李访客');
    ok(
      await save([
        { ...on('pay_success', 'owner', 'sms'), enabled: 'N' },
        { ...on('visitor_arrive', 'owner', 'sms'), enabled: 'N' },
      ]),
    );
  });
});
