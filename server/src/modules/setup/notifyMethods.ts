/**
 * 消息设置 and 站内消息 (docs/product.md#notifications): the group's matrix with its quiet hours and
 * daily cap, the log of what its communities gave out, and a staff member's own inbox.
 */
import {
  enumText,
  maskMobile,
  NOTIFY_CHANNEL,
  NOTIFY_EVENT,
  NOTIFY_RECIPIENT,
  NOTIFY_ROLES,
  NOTIFY_STATUS,
  notifyCells,
  type InboxItem,
  type MessageLogItem,
  type MessageSetInfo,
  type NotifyChannel,
  type NotifyEvent,
  type NotifyRecipient,
  type NotifyStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type MethodDef } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { groupRegion } from '../structure/groupRegion.js';
import { cellOn, notifySettingsOf } from './notify.js';

async function messageSet(db: Kysely<DB>, groupId: number): Promise<MessageSetInfo> {
  const rows = await db.selectFrom('notify_rules').selectAll().where('group_id', '=', groupId).execute();
  const { updated_at, ...settings } = await notifySettingsOf(db, groupId);
  const cells = notifyCells().map((c) => ({ ...c, enabled: cellOn(rows, c) ? ('Y' as const) : ('N' as const) }));
  return { ...settings, cells, update_time: updated_at ? wireTime(updated_at) : '' };
}

const messagesetinfo = defineMethod('messagesetinfo', {
  side: 'group',
  roles: NOTIFY_ROLES,
  writes: false,
  summary:
    '消息设置：各事件（报修提交、派单、完工、缴费成功、访客到访）通知哪些接收人（业主、处理人、管家、有权限的员工）、经哪些渠道（站内消息、短信、微信），以及短信免打扰时段与每个手机号每天的上限',
  async handler(ctx) {
    return messageSet(ctx.db, ctx.session.groupId);
  },
});

const messagesetedit = defineMethod('messagesetedit', {
  side: 'group',
  roles: NOTIFY_ROLES,
  writes: true,
  summary: '保存消息设置：整张通知矩阵与免打扰时段、每日上限一起保存；不适用的组合（如业主的站内消息）被拒绝',
  async handler(ctx, input) {
    const groupId = ctx.session.groupId;
    const valid = notifyCells();
    const seen = new Set<string>();
    for (const c of input.cells) {
      if (!valid.some((v) => v.event === c.event && v.recipient === c.recipient && v.channel === c.channel))
        fail(
          `“${enumText(NOTIFY_EVENT, c.event)}”不能经${enumText(NOTIFY_CHANNEL, c.channel)}通知${enumText(NOTIFY_RECIPIENT, c.recipient)}`,
        );
      const key = `${c.event}:${c.recipient}:${c.channel}`;
      if (seen.has(key)) fail('设置项重复');
      seen.add(key);
    }
    if (input.cells.length)
      await ctx.db
        .insertInto('notify_rules')
        .values(input.cells.map((c) => ({ group_id: groupId, ...c })))
        .onConflict((oc) => oc.columns(['group_id', 'event', 'recipient', 'channel']).doUpdateSet({ enabled: sql.ref('excluded.enabled') }))
        .execute();
    const settings = {
      quiet_enabled: input.quiet_enabled,
      quiet_from: input.quiet_from,
      quiet_to: input.quiet_to,
      daily_cap: input.daily_cap,
      updated_at: sql<Date>`now()`,
      updated_by: ctx.session.accountId,
    };
    await ctx.db
      .insertInto('notify_settings')
      .values({ group_id: groupId, ...settings })
      .onConflict((oc) => oc.column('group_id').doUpdateSet(settings))
      .execute();
    return reply(await messageSet(ctx.db, groupId), '保存成功');
  },
});

const messageloglist = defineMethod('messageloglist', {
  side: 'group',
  roles: NOTIFY_ROLES,
  writes: false,
  summary:
    '消息发送记录：集团各小区发出的站内消息、短信与微信（事件、接收人、渠道、状态及原因），可按小区、事件、渠道、状态、接收人或内容、日期筛选',
  async handler(ctx, input) {
    if (input.rid) await groupRegion(ctx.db, ctx.session.groupId, input.rid);
    if (input.date_from && input.date_to && input.date_from > input.date_to) fail('开始日期不能晚于结束日期');
    let qb = ctx.db
      .selectFrom('notifications as n')
      .innerJoin('regions as g', 'g.id', 'n.rid')
      .select([
        'n.id',
        'n.rid',
        'g.title as region_title',
        'n.event',
        'n.recipient',
        'n.channel',
        'n.name',
        'n.mobile',
        'n.openid',
        'n.title',
        'n.content',
        'n.status',
        'n.reason',
        'n.send_after',
        'n.created_at',
      ])
      .where('g.group_id', '=', ctx.session.groupId);
    if (input.rid) qb = qb.where('n.rid', '=', input.rid);
    if (input.event) qb = qb.where('n.event', '=', input.event);
    if (input.channel) qb = qb.where('n.channel', '=', input.channel);
    if (input.status) qb = qb.where('n.status', '=', input.status);
    if (input.keyword) {
      const like = likePattern(input.keyword);
      qb = qb.where((eb) => eb.or([eb('n.name', 'like', like), eb('n.mobile', 'like', like), eb('n.content', 'like', like)]));
    }
    if (input.date_from) qb = qb.where('n.created_at', '>=', sql<Date>`${input.date_from}::date`);
    if (input.date_to) qb = qb.where('n.created_at', '<', sql<Date>`${input.date_to}::date + 1`);
    const page = await listPage(qb, input, 'n.id');
    const items: MessageLogItem[] = page.items.map((r) => ({
      id: Number(r.id),
      rid: r.rid,
      region_title: r.region_title,
      event: r.event as NotifyEvent,
      event_ch: enumText(NOTIFY_EVENT, r.event as NotifyEvent),
      recipient: r.recipient as NotifyRecipient,
      recipient_ch: enumText(NOTIFY_RECIPIENT, r.recipient as NotifyRecipient),
      channel: r.channel as NotifyChannel,
      channel_ch: enumText(NOTIFY_CHANNEL, r.channel as NotifyChannel),
      name: r.name,
      mobile: maskMobile(r.mobile),
      // enough to tell two followers apart, not enough to write to one
      openid: r.openid ? `${r.openid.slice(0, 6)}****${r.openid.slice(-4)}` : '',
      title: r.title,
      content: r.content,
      status: r.status as NotifyStatus,
      status_ch: enumText(NOTIFY_STATUS, r.status as NotifyStatus),
      reason: r.reason,
      send_after: r.send_after ? wireTime(r.send_after) : '',
      create_time: wireTime(r.created_at),
    }));
    return { total: page.total, items };
  },
});

/** The member's unread 站内消息 in the session's community. */
async function unreadOf(db: Kysely<DB>, rid: number, accountId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM notifications
    WHERE account_id = ${accountId} AND channel = 'inbox' AND status = 'U' AND rid = ${rid}`.execute(db);
  return rows[0]?.n ?? 0;
}

const inboxlist = defineMethod('inboxlist', {
  side: 'community',
  roles: 'staff',
  writes: false,
  summary: '我的站内消息（当前小区）：标题、内容、相关页面、是否已读、时间，最新的在前；可只看未读',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('notifications')
      .select(['id', 'event', 'title', 'content', 'link', 'status', 'created_at'])
      .where('account_id', '=', ctx.session.accountId)
      .where('channel', '=', 'inbox')
      .where('rid', '=', ctx.rid);
    if (input.unread === 'Y') qb = qb.where('status', '=', 'U');
    if (input.unread === 'N') qb = qb.where('status', '=', 'R');
    const page = await listPage(qb, input, 'id');
    const items: InboxItem[] = page.items.map((r) => ({
      id: Number(r.id),
      event: r.event as NotifyEvent,
      event_ch: enumText(NOTIFY_EVENT, r.event as NotifyEvent),
      title: r.title,
      content: r.content,
      link: r.link,
      read: r.status === 'R',
      create_time: wireTime(r.created_at),
    }));
    return { total: page.total, unread: await unreadOf(ctx.db, ctx.rid, ctx.session.accountId), items };
  },
});

const inboxread = defineMethod('inboxread', {
  side: 'community',
  roles: 'staff',
  writes: true,
  summary: '把站内消息标为已读：选中的几条，或当前小区的全部',
  async handler(ctx, input) {
    let qb = ctx.db
      .updateTable('notifications')
      .set({ status: 'R', read_at: sql<Date>`now()` })
      .where('account_id', '=', ctx.session.accountId)
      .where('channel', '=', 'inbox')
      .where('rid', '=', ctx.rid)
      .where('status', '=', 'U');
    if (input.all !== 'Y') qb = qb.where('id', 'in', input.ids);
    const res = await qb.executeTakeFirst();
    const unread = await unreadOf(ctx.db, ctx.rid, ctx.session.accountId);
    const n = Number(res.numUpdatedRows);
    return reply({ unread }, n ? `已将 ${n} 条消息标为已读` : '没有未读消息');
  },
});

const inboxcount = defineMethod('inboxcount', {
  side: 'community',
  roles: 'staff',
  writes: false,
  summary: '我在当前小区的未读站内消息数（顶栏的角标）',
  async handler(ctx) {
    return { unread: await unreadOf(ctx.db, ctx.rid, ctx.session.accountId) };
  },
});

/** The group's message settings and log; the staff's inbox. */
export const notifyModule: MethodDef[] = [messagesetinfo, messagesetedit, messageloglist, inboxlist, inboxread, inboxcount];
