import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { NotificationsTable } from '../../db/types.generated.js';
import { demoLeaderWith } from '../leader/demoLeader.js';

type Row = Insertable<NotificationsTable>;
const DAY = 86_400_000;

/**
 * The demo's message settings and what they sent (docs/product.md#notifications): the group texts
 * owners on 派单, 完工, 缴费成功 and 访客到访, and visitors their pass code; the inbox rows and SMS of 阳光花园's recent repair tickets,
 * payments and arrivals, as the dispatcher would have written them at their times (the older ones
 * read). Direct rows: the seeded tickets, payments and visits were written before the matrix.
 */
export async function seedNotifications(db: Kysely<DB>): Promise<void> {
  const leader = await demoLeaderWith(db, []);
  if (!leader) return;
  const sms = ['repair_dispatch', 'repair_finish', 'pay_success', 'visitor_arrive'] as const;
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
    ])
    .select('y.title as type_title')
    .where('t.rid', '=', rid)
    .orderBy('t.created_at', 'desc')
    .limit(30)
    .execute();
  for (const t of tickets) {
    const link = `/steward/repairs?id=${t.id}`;
    const base = { rid, link, ref_id: String(t.id) };
    if (desk)
      rows.push({
        ...base,
        event: 'repair_submit',
        recipient: 'staff',
        channel: 'inbox',
        account_id: desk.id,
        name: desk.name,
        title: `新报修待派单：${t.no}`,
        content: `${t.type_title}：${t.content.slice(0, 60)}（报修人 ${t.reporter} ${t.phone}）`,
        created_at: t.created_at,
        ...readIf(t.created_at),
      });
    if (t.dispatched_at && t.handler_id) {
      const common = { ...base, event: 'repair_dispatch', title: `报修派单：${t.no}`, created_at: t.dispatched_at };
      rows.push({
        ...common,
        recipient: 'handler',
        channel: 'inbox',
        account_id: t.handler_id,
        name: t.handler_name,
        content: `${t.content.slice(0, 60)}（报修人 ${t.reporter} ${t.phone}），请及时接单`,
        ...readIf(t.dispatched_at),
      });
      rows.push({
        ...common,
        recipient: 'owner',
        channel: 'sms',
        name: t.reporter,
        mobile: t.phone,
        content: `您的报修（工单号 ${t.no}）已派给 ${t.handler_name} 处理，请保持电话畅通。`,
        status: 'Y',
      });
    }
    if (t.finished_at)
      rows.push({
        ...base,
        event: 'repair_finish',
        recipient: 'owner',
        channel: 'sms',
        name: t.reporter,
        mobile: t.phone,
        title: `报修完工：${t.no}`,
        content: `您的报修（工单号 ${t.no}）已完工，请评价本次服务。`,
        status: 'Y',
        created_at: t.finished_at,
      });
  }

  const payments = await db
    .selectFrom('fee_payments as p')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'p.rid').onRef('m.id', '=', 'p.member_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'p.rid').onRef('r.id', '=', 'p.hid'))
    .select(['p.receipt_no', 'p.paid_amount', 'p.created_at', 'm.realname', 'm.mobile', 'r.address'])
    .where('p.rid', '=', rid)
    .where('p.created_at', '>', new Date(now - 7 * DAY))
    .orderBy('p.created_at', 'desc')
    .limit(40)
    .execute();
  for (const p of payments) {
    const where = p.address ? ` ${p.address} 的` : '';
    rows.push({
      rid,
      event: 'pay_success',
      recipient: 'owner',
      channel: 'sms',
      name: p.realname,
      mobile: p.mobile,
      title: `缴费成功：${p.address ? `${p.address} ` : ''}${p.paid_amount} 元`,
      content: `您已成功缴纳${where}费用 ${p.paid_amount} 元，收据号 ${p.receipt_no}，感谢您的支持。`,
      ref_id: p.receipt_no,
      status: /^1\d{10}$/.test(p.mobile) ? 'Y' : 'S',
      reason: /^1\d{10}$/.test(p.mobile) ? '' : '未登记手机号',
      created_at: p.created_at,
    });
  }

  const visits = await db
    .selectFrom('visitors as v')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'v.rid').onRef('m.id', '=', 'v.member_id'))
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
      title: `访客通行码：${v.realname}`,
      content: `业主${v.owner}邀请您到访阳光花园，通行码 ${v.pass_code}，来访前30分钟起可用。`,
      ref_id: String(v.id),
      status: /^1\d{10}$/.test(v.visitor_mobile) ? 'Y' : 'S',
      reason: /^1\d{10}$/.test(v.visitor_mobile) ? '' : '未登记手机号',
      created_at: v.create_time,
    });
    if (v.status !== 'D') continue;
    rows.push({
      rid,
      event: 'visitor_arrive',
      recipient: 'owner',
      channel: 'sms',
      name: v.owner,
      mobile: v.mobile,
      title: `访客到访：${v.realname}`,
      content: `您的访客 ${v.realname} 已进入小区。`,
      ref_id: String(v.id),
      status: 'Y',
      created_at: v.last_pass_at ?? v.visit_time,
    });
  }
  rows.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('notifications')
      .values(rows.slice(i, i + 200))
      .execute();
}
