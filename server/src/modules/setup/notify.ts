/**
 * The notification dispatcher (docs/product.md#notifications). An area tells `notify` that an event
 * happened in a community, with whom it concerns; the group's matrix (消息设置) decides who of them
 * hears of it and how: a staff member's 站内消息 is written at once, an SMS is queued (held past the
 * group's quiet hours, refused beyond its daily cap per mobile) and sent by a job through the
 * community's SMS provider and the group's quota. It runs in the caller's transaction: a write that
 * rolls back tells nobody.
 */
import {
  NOTIFY_RECIPIENTS_OF,
  NOTIFY_SETTINGS_DEFAULT,
  notifyChannelsOf,
  notifyDefault,
  notifyOutsider,
  type NotifyChannel,
  type NotifyEvent,
  type NotifyRecipient,
  type NotifySettings,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { loadConfig } from '../../config.js';
import { accountCodes } from '../../http/authenticate.js';
import { enqueueJob, registerJobKind } from '../../jobs/queue.js';
import { servedRoom } from '../steward/profiles.js';
import { wechatProviderFor } from '../cards/wechatProvider.js';
import { afterQuietHours, inQuietHours } from './smsSend.js';
import { smsProviderFor } from './smsProvider.js';

export const NOTIFY_SMS_KIND = 'notify_sms';
export const NOTIFY_WECHAT_KIND = 'notify_wechat';

const MOBILE = /^1\d{10}$/;

/** Whom an event concerns; the matrix picks who of them is told. */
export interface NotifyTargets {
  /** 业主: the owner (or the reporter) with the mobile an SMS goes to */
  owner?: { name: string; mobile: string } | null;
  /** 访客: the visitor, with their mobile */
  visitor?: { name: string; mobile: string } | null;
  /** 合同乙方: a contract's party, with the contract's mobile */
  party?: { name: string; mobile: string } | null;
  /** 处理人: the staff account handling the record */
  handler?: number | null;
  /** 管家: the room whose unit's steward is told */
  hid?: number | null;
  /** 有权限的员工: the codes whose holders in the community are told */
  staffCodes?: readonly string[];
  /** the staff account that did what the event tells: not told of its own doing, whatever its kinds */
  actor?: number | null;
}

export interface NotifyMessage {
  /** the inbox's heading */
  title: string;
  /** the body told to the owner or the visitor (their SMS) */
  content: string;
  /** the body told to staff (their inbox and SMS); unsaid: the owner's */
  staffContent?: string;
  /** the console page the message is about */
  link?: string;
  /** the record it is about in its area */
  refId: string | number;
}

/** The group's settings, or the defaults. */
export async function notifySettingsOf(db: Kysely<DB>, groupId: number): Promise<NotifySettings & { updated_at: Date | null }> {
  const row = await db.selectFrom('notify_settings').selectAll().where('group_id', '=', groupId).executeTakeFirst();
  if (!row) return { quiet_enabled: 'Y', ...NOTIFY_SETTINGS_DEFAULT, updated_at: null };
  return {
    quiet_enabled: row.quiet_enabled === 'N' ? 'N' : 'Y',
    quiet_from: row.quiet_from,
    quiet_to: row.quiet_to,
    daily_cap: row.daily_cap,
    updated_at: row.updated_at,
  };
}

type CellKey = { event: string; recipient: string; channel: string };

/** Whether a cell is on: the group's row for it, or the cell's default. */
export function cellOn(rows: ReadonlyArray<CellKey & { enabled: string }>, c: CellKey): boolean {
  const r = rows.find((x) => x.event === c.event && x.recipient === c.recipient && x.channel === c.channel);
  return r ? r.enabled === 'Y' : notifyDefault(c.channel as NotifyChannel);
}

/** The switched-on cells of one event in a group: recipient → channels. */
async function enabledCells(db: Kysely<DB>, groupId: number, event: NotifyEvent): Promise<Map<NotifyRecipient, NotifyChannel[]>> {
  const rows = await db
    .selectFrom('notify_rules')
    .select(['event', 'recipient', 'channel', 'enabled'])
    .where('group_id', '=', groupId)
    .where('event', '=', event)
    .execute();
  const out = new Map<NotifyRecipient, NotifyChannel[]>();
  for (const recipient of NOTIFY_RECIPIENTS_OF[event]) {
    const on = notifyChannelsOf(recipient).filter((channel) => cellOn(rows, { event, recipient, channel }));
    if (on.length) out.set(recipient, on);
  }
  return out;
}

/** Whether the group's matrix tells `recipient` of `event` in community `rid` (a caller with many to tell checks once first). */
export async function notifyReaches(db: Kysely<DB>, rid: number, event: NotifyEvent, recipient: NotifyRecipient): Promise<boolean> {
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirst();
  return !!region && (await enabledCells(db, region.group_id, event)).has(recipient);
}

interface StaffTarget {
  id: number;
  name: string;
  mobile: string;
}

const staffQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name', 'a.mobile'])
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y');

/** The staff accounts a recipient kind names in this event. */
async function staffOf(db: Kysely<DB>, rid: number, recipient: NotifyRecipient, t: NotifyTargets): Promise<StaffTarget[]> {
  if (recipient === 'handler') {
    if (!t.handler) return [];
    return staffQuery(db, rid).where('a.id', '=', t.handler).execute();
  }
  if (recipient === 'steward') {
    if (!t.hid) return [];
    // the enabled 管家 profiles serving the room's unit (one per unit and post; docs/product.md#steward-profiles)
    const { rows } = await sql<StaffTarget & { phone: string }>`
      SELECT a.id, a.name, a.mobile, p.phone FROM steward_profiles p JOIN accounts a ON a.id = p.account_id
      WHERE p.rid = ${rid} AND p.post = 'GJ' AND p.status = 'Y' AND a.status = 'Y'
        AND EXISTS (SELECT 1 FROM rooms r WHERE r.rid = ${rid} AND r.id = ${t.hid} AND ${servedRoom(sql.ref('p.id'))})`.execute(db);
    return rows.map((r) => ({ id: Number(r.id), name: r.name, mobile: MOBILE.test(r.mobile) ? r.mobile : r.phone }));
  }
  if (recipient === 'staff') {
    if (!t.staffCodes?.length) return [];
    return staffQuery(db, rid)
      .where(sql<boolean>`${accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`)} && ${sql.val([...t.staffCodes])}::text[]`)
      .orderBy('a.id')
      .execute();
  }
  return [];
}

type NotificationBase = {
  rid: number;
  event: NotifyEvent;
  title: string;
  link: string;
  ref_id: string;
  content: string;
  recipient: NotifyRecipient;
};

/**
 * Queues an owner's 微信: one template message to each follower of the official account who is
 * following and bound (公众号粉丝) to the community's owner with this mobile; none bound: 未发送 with
 * 未绑定微信, so the log says why. Not held by quiet hours nor counted in the daily cap: those are the SMS's.
 */
async function queueWechat(db: Kysely<DB>, base: NotificationBase, person: { name: string; mobile: string }): Promise<void> {
  const mobile = person.mobile.trim();
  const followers = MOBILE.test(mobile)
    ? await db
        .selectFrom('members as m')
        .innerJoin('wx_followers as f', (j) => j.onRef('f.rid', '=', 'm.rid').onRef('f.member_id', '=', 'm.id'))
        .select('f.openid')
        .where('m.rid', '=', base.rid)
        .where('m.mobile', '=', mobile)
        .where('f.subscribed', '=', 'Y')
        .orderBy('f.id')
        .execute()
    : [];
  const row = { ...base, channel: 'wechat' as const, account_id: null, name: person.name, mobile };
  if (followers.length === 0) {
    await db
      .insertInto('notifications')
      .values({ ...row, status: 'S', reason: '未绑定微信' })
      .execute();
    return;
  }
  for (const f of followers) {
    const queued = await db
      .insertInto('notifications')
      .values({ ...row, openid: f.openid, status: 'W' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueJob(db, { rid: base.rid, kind: NOTIFY_WECHAT_KIND, payload: { id: Number(queued.id) }, createdBy: null });
  }
}

/**
 * Tells whom the group's matrix names that `event` happened in community `rid`. In the caller's
 * transaction; one staff member hears of an event once per channel however many of its recipient
 * kinds they are (a steward who also dispatches), and none of what they did themselves (`actor`).
 */
export async function notify(db: Kysely<DB>, rid: number, event: NotifyEvent, targets: NotifyTargets, msg: NotifyMessage): Promise<void> {
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirst();
  if (!region) return;
  const cells = await enabledCells(db, region.group_id, event);
  if (cells.size === 0) return;
  const base = { rid, event, title: msg.title.slice(0, 100), link: msg.link ?? '', ref_id: String(msg.refId) };
  const contentFor = (recipient: NotifyRecipient) =>
    (notifyOutsider(recipient) ? msg.content : (msg.staffContent ?? msg.content)).slice(0, 300);
  const told = new Set<string>();
  const sms: Array<{ recipient: NotifyRecipient; account_id: number | null; name: string; mobile: string }> = [];
  for (const [recipient, channels] of cells) {
    if (notifyOutsider(recipient)) {
      const person = targets[recipient as 'owner' | 'visitor' | 'party'];
      if (!person) continue;
      if (channels.includes('sms')) sms.push({ recipient, account_id: null, name: person.name, mobile: person.mobile });
      if (channels.includes('wechat')) await queueWechat(db, { ...base, content: contentFor(recipient), recipient }, person);
      continue;
    }
    for (const s of await staffOf(db, rid, recipient, targets)) {
      if (s.id === targets.actor) continue;
      for (const channel of channels) {
        const key = `${channel}:${s.id}`;
        if (told.has(key)) continue;
        told.add(key);
        if (channel === 'inbox')
          await db
            .insertInto('notifications')
            .values({ ...base, content: contentFor(recipient), recipient, channel, account_id: s.id, name: s.name, status: 'U' })
            .execute();
        else sms.push({ recipient, account_id: s.id, name: s.name, mobile: s.mobile });
      }
    }
  }
  if (sms.length === 0) return;
  const settings = await notifySettingsOf(db, region.group_id);
  const now = new Date();
  const quiet = settings.quiet_enabled === 'Y' ? { from: settings.quiet_from, to: settings.quiet_to } : null;
  const sendAfter = quiet && inQuietHours(now, quiet) ? afterQuietHours(now, quiet) : null;
  for (const s of sms) {
    const mobile = s.mobile.trim();
    let status: 'W' | 'S' = 'W';
    let reason = '';
    if (!MOBILE.test(mobile)) {
      status = 'S';
      reason = '未登记手机号';
    } else {
      // one count at a time per mobile, so two events at once cannot both pass the cap
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`notify-sms:${mobile}`}))`.execute(db);
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM notifications
        WHERE channel = 'sms' AND mobile = ${mobile} AND status IN ('W', 'C', 'Y', 'F')
          AND created_at >= current_date::timestamptz`.execute(db);
      if ((rows[0]?.n ?? 0) >= settings.daily_cap) {
        status = 'S';
        reason = `超出每日上限（同一手机号每天最多 ${settings.daily_cap} 条）`;
      }
    }
    const row = await db
      .insertInto('notifications')
      .values({
        ...base,
        content: contentFor(s.recipient),
        recipient: s.recipient,
        channel: 'sms',
        account_id: s.account_id,
        name: s.name,
        mobile,
        status,
        reason,
        send_after: status === 'W' ? sendAfter : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (status === 'W')
      await enqueueJob(db, { rid, kind: NOTIFY_SMS_KIND, payload: { id: Number(row.id) }, createdBy: null, runAfter: sendAfter });
  }
}

/** Claims a queued notification for its job (W → C, committed before the provider is called); false: another run has it. */
async function claimNotification(db: Kysely<DB>, id: number): Promise<boolean> {
  const claimed = await db
    .updateTable('notifications')
    .set({ status: 'C', claimed_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'W')
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Records a claimed notification's outcome: 已发送, or 发送失败 with the reason. */
async function settleNotification(db: Kysely<DB>, id: number, ok: boolean, reason: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set(ok ? { status: 'Y', reason: '' } : { status: 'F', reason: reason.slice(0, 200) })
    .where('id', '=', id)
    .where('status', '=', 'C')
    .execute();
}

/**
 * Sends one queued SMS notification through the community's provider (and the group's quota). The
 * row is claimed before the provider is called; a job run again after a crash finds it claimed and
 * asks the provider whether it got it (已发送) or not (发送失败: 发送中断), never sending it twice, as
 * the SMS jobs do (smsSend.ts).
 */
registerJobKind(NOTIFY_SMS_KIND, async ({ db, payload }) => {
  const id = Number(payload.id);
  const n = await db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
  if (!n || (n.status !== 'W' && n.status !== 'C')) return { sent: false };
  const { provider, signName } = await smsProviderFor(db, n.rid, loadConfig(process.env).dataDir);
  const outId = `notify-${n.id}`;
  if (n.status === 'C') {
    const found = await provider.lookup({ outId, mobile: n.mobile, claimedAt: n.claimed_at ?? n.created_at });
    await settleNotification(db, id, !!found, '发送中断，未发出');
    return { sent: !!found, recovered: true };
  }
  if (!(await claimNotification(db, id))) return { sent: false };
  const result = await provider.send({
    mobile: n.mobile,
    signName,
    templateCode: 'NOTIFY',
    params: { content: n.content },
    content: n.content,
    outId,
  });
  await settleNotification(db, id, result.ok, result.ok ? '' : result.reason);
  return { sent: result.ok };
});

/**
 * Sends one queued 微信 notification, the official account's template message to the follower's open
 * id. Claimed before the platform is called; the platform keeps no record to ask, so a run again
 * after a crash does not send it a second time but says it may not have gone (发送失败).
 */
registerJobKind(NOTIFY_WECHAT_KIND, async ({ db, payload }) => {
  const id = Number(payload.id);
  const n = await db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
  if (!n || (n.status !== 'W' && n.status !== 'C')) return { sent: false };
  if (n.status === 'C') {
    await settleNotification(db, id, false, '发送中断，未确认送达（不重发）');
    return { sent: false, recovered: true };
  }
  if (!(await claimNotification(db, id))) return { sent: false };
  const result = await wechatProviderFor(n.rid).sendTemplate({ openid: n.openid, event: n.event, title: n.title, content: n.content });
  await settleNotification(db, id, result.ok, result.ok ? '' : result.reason);
  return { sent: result.ok };
});
