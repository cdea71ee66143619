import type { ComplaintKind } from '@wuye/contract';
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { NotificationsTable } from '../../db/types.generated.js';
import { demoLeaderWith } from '../leader/demoLeader.js';
import { notifyText } from './notifyTexts.js';

type Row = Insertable<NotificationsTable>;
const DAY = 86_400_000;

/** a demo SMS went out, unless there was no mobile to send it to (a complaint's landline) */
const smsOutcome = (mobile: string) =>
  /^1\d{10}$/.test(mobile) ? ({ status: 'Y', reason: '' } as const) : ({ status: 'S', reason: '未登记手机号' } as const);

/**
 * The demo's message settings and what they sent (docs/product.md#notifications): the group texts
 * owners on 派单, 完工, 缴费成功, 访客到访, 投诉受理 and 投诉办结, visitors their pass code, and contract and
 * lease parties their end (the leases' reminders are written live, as the demo's leases reach 即将到期); the inbox rows
 * and SMS of 阳光花园's recent repair tickets, complaints, payments and arrivals, as the dispatcher would have written them at their times (the older ones
 * read). Direct rows: the seeded tickets, payments and visits were written before the matrix.
 */
export async function seedNotifications(db: Kysely<DB>): Promise<void> {
  const leader = await demoLeaderWith(db, []);
  if (!leader) return;
  const sms = ['repair_dispatch', 'repair_finish', 'pay_success', 'visitor_arrive', 'complaint_accept', 'complaint_finish'] as const;
  await db
    .insertInto('notify_rules')
    .values([
      ...sms.map((event) => ({
        group_id: leader.group_id,
        event,
        recipient: 'owner' as const,
        channel: 'sms' as const,
        enabled: 'Y' as const,
      })),
      { group_id: leader.group_id, event: 'visitor_pass', recipient: 'visitor' as const, channel: 'sms' as const, enabled: 'Y' as const },
      { group_id: leader.group_id, event: 'pay_success', recipient: 'owner' as const, channel: 'wechat' as const, enabled: 'Y' as const },
      ...(['contract_expiring', 'lease_expiring'] as const).map((event) => ({
        group_id: leader.group_id,
        event,
        recipient: 'party' as const,
        channel: 'sms' as const,
        enabled: 'Y' as const,
      })),
    ])
    .execute();
  await db
    .insertInto('notify_settings')
    .values({ group_id: leader.group_id, quiet_enabled: 'Y', quiet_from: 21, quiet_to: 8, daily_cap: 5, updated_by: leader.id })
    .execute();

  const rid = 1;
  const now = Date.now();
  const readIf = (at: Date) => (now - at.getTime() > 2 * DAY ? ({ status: 'R', read_at: at } as const) : ({ status: 'U' } as const));
  const rows: Row[] = [];
  const desk = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'steward').executeTakeFirst();
  const tickets = await db
    .selectFrom('repair_tickets as t')
    .innerJoin('repair_types as y', (j) => j.onRef('y.rid', '=', 't.rid').onRef('y.id', '=', 't.type_id'))
    .select([
      't.id',
      't.no',
      't.reporter',
      't.phone',
      't.content',
      't.handler_id',
      't.handler_name',
      't.created_at',
      't.dispatched_at',
      't.finished_at',
      't.finish_note',
      't.bill_id',
      't.fee_total',
    ])
    .select('y.title as type_title')
    .where('t.rid', '=', rid)
    .orderBy('t.created_at', 'desc')
    .limit(30)
    .execute();
  for (const t of tickets) {
    const link = `/steward/repairs?id=${t.id}`;
    const base = { rid, link, ref_id: String(t.id) };
    const submit = notifyText.repair_submit({ no: t.no, type: t.type_title, content: t.content, reporter: t.reporter, phone: t.phone });
    if (desk)
      rows.push({
        ...base,
        event: 'repair_submit',
        recipient: 'staff',
        channel: 'inbox',
        account_id: desk.id,
        name: desk.name,
        title: submit.title,
        content: submit.staffContent,
        created_at: t.created_at,
        ...readIf(t.created_at),
      });
    if (t.dispatched_at && t.handler_id) {
      const text = notifyText.repair_dispatch({
        no: t.no,
        handler: t.handler_name,
        content: t.content,
        reporter: t.reporter,
        phone: t.phone,
      });
      const common = { ...base, event: 'repair_dispatch', title: text.title, created_at: t.dispatched_at };
      rows.push({
        ...common,
        recipient: 'handler',
        channel: 'inbox',
        account_id: t.handler_id,
        name: t.handler_name,
        content: text.staffContent,
        ...readIf(t.dispatched_at),
      });
      rows.push({
        ...common,
        recipient: 'owner',
        channel: 'sms',
        name: t.reporter,
        mobile: t.phone,
        content: text.content,
        status: 'Y',
      });
    }
    if (t.finished_at) {
      const finish = notifyText.repair_finish({ no: t.no, by: t.handler_name, note: t.finish_note, fee: t.bill_id ? t.fee_total : null });
      rows.push({
        ...base,
        event: 'repair_finish',
        recipient: 'owner',
        channel: 'sms',
        name: t.reporter,
        mobile: t.phone,
        title: finish.title,
        content: finish.content,
        status: 'Y',
        created_at: t.finished_at,
      });
    }
  }

  const payments = await db
    .selectFrom('fee_payments as p')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'p.rid').onRef('m.id', '=', 'p.member_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'p.rid').onRef('r.id', '=', 'p.hid'))
    .select(['p.receipt_no', 'p.paid_amount', 'p.created_at', 'm.id as member_id', 'm.realname', 'm.mobile', 'r.address'])
    .where('p.rid', '=', rid)
    .where('p.created_at', '>', new Date(now - 7 * DAY))
    .orderBy('p.created_at', 'desc')
    .limit(40)
    .execute();
  // the followers bound to owners (公众号粉丝): a payer among them had the 微信 as well
  const followers = await db
    .selectFrom('wx_followers')
    .select(['member_id', 'openid'])
    .where('rid', '=', rid)
    .where('subscribed', '=', 'Y')
    .where('member_id', 'is not', null)
    .execute();
  for (const p of payments) {
    const text = notifyText.pay_success({ address: p.address, amount: p.paid_amount, receipt: p.receipt_no, payer: p.realname });
    const owner = {
      rid,
      event: 'pay_success',
      recipient: 'owner' as const,
      name: p.realname,
      mobile: p.mobile,
      title: text.title,
      content: text.content,
    };
    rows.push({ ...owner, channel: 'sms', ref_id: p.receipt_no, ...smsOutcome(p.mobile), created_at: p.created_at });
    const openids = followers.filter((f) => Number(f.member_id) === Number(p.member_id)).map((f) => f.openid);
    for (const openid of openids)
      rows.push({ ...owner, channel: 'wechat', openid, ref_id: p.receipt_no, status: 'Y', created_at: p.created_at });
    if (!openids.length)
      rows.push({ ...owner, channel: 'wechat', ref_id: p.receipt_no, status: 'S', reason: '未绑定微信', created_at: p.created_at });
  }

  const visits = await db
    .selectFrom('visitors as v')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'v.rid').onRef('m.id', '=', 'v.member_id'))
    .innerJoin('regions as g', 'g.id', 'v.rid')
    .select([
      'v.id',
      'v.realname',
      'v.mobile as visitor_mobile',
      'v.pass_code',
      'v.status',
      'v.create_time',
      'v.last_pass_at',
      'v.visit_time',
      'm.realname as owner',
      'm.mobile',
      'g.title as region',
    ])
    .where('v.rid', '=', rid)
    .where('v.status', 'in', ['Y', 'D'])
    .orderBy('v.id', 'desc')
    .limit(20)
    .execute();
  for (const v of visits) {
    rows.push({
      rid,
      event: 'visitor_pass',
      recipient: 'visitor',
      channel: 'sms',
      name: v.realname,
      mobile: v.visitor_mobile,
      ...notifyText.visitor_pass({ visitor: v.realname, owner: v.owner, region: v.region, visitTime: v.visit_time, passCode: v.pass_code }),
      created_at: v.create_time,
      ref_id: String(v.id),
      ...smsOutcome(v.visitor_mobile),
    });
    if (v.status !== 'D') continue;
    rows.push({
      rid,
      event: 'visitor_arrive',
      recipient: 'owner',
      channel: 'sms',
      name: v.owner,
      mobile: v.mobile,
      ...notifyText.visitor_arrive({ visitor: v.realname, at: v.last_pass_at ?? v.visit_time, gate: null }),
      ref_id: String(v.id),
      status: 'Y',
      created_at: v.last_pass_at ?? v.visit_time,
    });
  }
  const complaints = await db
    .selectFrom('complaints as c')
    .innerJoin('complaint_categories as k', (j) => j.onRef('k.rid', '=', 'c.rid').onRef('k.id', '=', 'c.category_id'))
    .select([
      'c.id',
      'c.kind',
      'c.content',
      'c.contact',
      'c.phone',
      'c.anonymous',
      'c.handler_id',
      'c.handler_name',
      'c.created_at',
      'c.accepted_at',
      'c.finished_at',
      'c.finish_note',
      'k.name as category',
    ])
    .where('c.rid', '=', rid)
    .orderBy('c.created_at', 'desc')
    .limit(20)
    .execute();
  for (const c of complaints) {
    const facts = {
      id: Number(c.id),
      kind: c.kind as ComplaintKind,
      category: c.category,
      content: c.content,
      contact: c.contact,
      phone: c.phone,
      anonymous: c.anonymous,
    };
    const base = { rid, link: `/steward/complaintlist?id=${c.id}`, ref_id: String(c.id) };
    const owner = { recipient: 'owner', channel: 'sms', name: c.contact, mobile: c.phone, ...smsOutcome(c.phone) } as const;
    if (desk) {
      const text = notifyText.complaint_submit(facts);
      rows.push({
        ...base,
        event: 'complaint_submit',
        recipient: 'staff',
        channel: 'inbox',
        account_id: desk.id,
        name: desk.name,
        title: text.title,
        content: text.staffContent,
        created_at: c.created_at,
        ...readIf(c.created_at),
      });
    }
    if (c.accepted_at && c.handler_id) {
      const text = notifyText.complaint_accept({ ...facts, handler: c.handler_name });
      const common = { ...base, event: 'complaint_accept', title: text.title, created_at: c.accepted_at };
      rows.push({
        ...common,
        recipient: 'handler',
        channel: 'inbox',
        account_id: c.handler_id,
        name: c.handler_name,
        content: text.staffContent,
        ...readIf(c.accepted_at),
      });
      rows.push({ ...common, ...owner, content: text.content });
    }
    if (c.finished_at) {
      const text = notifyText.complaint_finish({ ...facts, by: c.handler_name, note: c.finish_note });
      rows.push({ ...base, ...owner, event: 'complaint_finish', title: text.title, content: text.content, created_at: c.finished_at });
    }
  }

  rows.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('notifications')
      .values(rows.slice(i, i + 200))
      .execute();
}
