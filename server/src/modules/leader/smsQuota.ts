/**
 * The group's SMS quota (短信额度, issue 45 "Group settings"): the one place a balance changes.
 *
 * A group without a row in sms_quotas has no package (未启用额度) and its communities send without
 * limit, as before. Once it has one, every message of its communities goes through `quotaProvider`
 * (wrapped around the provider by `smsProviderFor`, so SMS jobs, meter alerts and charging codes all
 * pay the same way): before the provider is called the message's billed segments are taken from the
 * balance in one statement (UPDATE … WHERE balance >= n, the ledger row written by the same
 * statement); when the balance cannot pay, the send answers a failure SMS_QUOTA_EMPTY (code QUOTA)
 * without calling the provider, which each sender records as any refusal. A refusal the provider
 * certainly gave (it answered, the message was not taken) gives the segments back (退回); a network
 * failure may have been submitted, so it is kept as sent.
 */
import { SMS_QUOTA_CODE, SMS_QUOTA_DEFAULT_LOW, SMS_QUOTA_EMPTY, smsSegments, type SmsQuotaPurpose } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { SendResult, SmsMessage, SmsProvider } from '../setup/smsProvider.js';

export interface QuotaState {
  enabled: boolean;
  balance: number;
  low_threshold: number;
  low: boolean;
}

/** The group's package: enabled false (no row) means no limit. */
export async function quotaOfGroup(db: Kysely<DB>, groupId: number): Promise<QuotaState & { updated_at: Date | null }> {
  const row = await db
    .selectFrom('sms_quotas')
    .select(['balance', 'low_threshold', 'updated_at'])
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!row) return { enabled: false, balance: 0, low_threshold: SMS_QUOTA_DEFAULT_LOW, low: false, updated_at: null };
  return {
    enabled: true,
    balance: row.balance,
    low_threshold: row.low_threshold,
    low: row.balance < row.low_threshold,
    updated_at: row.updated_at,
  };
}

/** The package of the group a community belongs to. */
export async function quotaOfRegion(db: Kysely<DB>, rid: number): Promise<QuotaState> {
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirst();
  if (!region) return { enabled: false, balance: 0, low_threshold: SMS_QUOTA_DEFAULT_LOW, low: false };
  const { updated_at: _, ...q } = await quotaOfGroup(db, region.group_id);
  return q;
}

/** The text a community's SMS pages show of the group's balance. */
export function quotaMessage(q: QuotaState): string {
  if (!q.enabled) return '集团未启用短信额度，发送不限条数';
  if (q.balance <= 0) return `集团短信余量为 0，${SMS_QUOTA_EMPTY}`;
  if (q.low) return `集团短信余量 ${q.balance} 条，已低于提醒线 ${q.low_threshold} 条，请联系集团充值`;
  return `集团短信余量 ${q.balance} 条`;
}

export interface SendMeta {
  rid: number;
  purpose: SmsQuotaPurpose;
  refId: number | null;
  outId: string;
}

/** What a message was for, read from its out id (each sender's own form) unless the message says. */
export function sendMetaOf(rid: number, msg: Pick<SmsMessage, 'outId'> & { purpose?: SmsQuotaPurpose; refId?: number }): SendMeta {
  const base = { rid, outId: msg.outId.slice(0, 100) };
  if (msg.purpose) return { ...base, purpose: msg.purpose, refId: msg.refId ?? null };
  if (msg.outId.startsWith('charge-')) return { ...base, purpose: 'charging_code', refId: null };
  if (msg.outId.startsWith('meter-alert-')) return { ...base, purpose: 'meter_alert', refId: null };
  const notification = /^notify-(\d+)$/.exec(msg.outId);
  if (notification) return { ...base, purpose: 'notify', refId: Number(notification[1]) };
  const job = /^\d+-(\d+)-\d+-/.exec(msg.outId);
  if (job) return { ...base, purpose: 'sms_job', refId: Number(job[1]) };
  return { ...base, purpose: 'other', refId: null };
}

/**
 * Takes `n` segments for a message of community `rid`: the balance and its ledger row in one
 * statement. Answers 'unlimited' when the group has no package, 'taken' or 'short'.
 */
export async function takeQuota(db: Kysely<DB>, n: number, meta: SendMeta): Promise<'unlimited' | 'taken' | 'short'> {
  const { rows } = await sql<{ taken: boolean; enabled: boolean }>`
    WITH g AS (SELECT group_id FROM regions WHERE id = ${meta.rid}),
    u AS (
      UPDATE sms_quotas q SET balance = q.balance - ${n}, updated_at = now()
      FROM g WHERE q.group_id = g.group_id AND q.balance >= ${n}
      RETURNING q.group_id, q.balance
    ),
    l AS (
      INSERT INTO sms_quota_ledger (group_id, kind, count, balance_after, rid, purpose, ref_id, out_id)
      SELECT u.group_id, 'send', ${-n}, u.balance, ${meta.rid}, ${meta.purpose}, ${meta.refId}, ${meta.outId} FROM u
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM l) AS taken,
      EXISTS (SELECT 1 FROM sms_quotas q JOIN g ON q.group_id = g.group_id) AS enabled`.execute(db);
  const r = rows[0]!;
  return r.taken ? 'taken' : r.enabled ? 'short' : 'unlimited';
}

/** Gives back `n` segments a certain refusal did not use (退回), with its ledger row, in one statement. */
export async function refundQuota(db: Kysely<DB>, n: number, meta: SendMeta, note: string): Promise<void> {
  await sql`
    WITH g AS (SELECT group_id FROM regions WHERE id = ${meta.rid}),
    u AS (
      UPDATE sms_quotas q SET balance = q.balance + ${n}, updated_at = now()
      FROM g WHERE q.group_id = g.group_id
      RETURNING q.group_id, q.balance
    )
    INSERT INTO sms_quota_ledger (group_id, kind, count, balance_after, rid, purpose, ref_id, out_id, note)
    SELECT u.group_id, 'refund', ${n}, u.balance, ${meta.rid}, ${meta.purpose}, ${meta.refId}, ${meta.outId}, ${note.slice(0, 100)} FROM u`.execute(
    db,
  );
}

/**
 * True when a failed send certainly did not reach the carrier: the provider answered and refused.
 * A network failure or a server error of the provider may have been submitted: not given back.
 */
export const certainRefusal = (res: SendResult): boolean =>
  !res.ok && res.code !== SMS_QUOTA_CODE && res.code !== 'NETWORK' && !/^HTTP_5/.test(res.code);

/** The billed segments of a message: its text with the signature, as the carriers count. */
export function billedSegments(msg: Pick<SmsMessage, 'content' | 'signName'>): number {
  const content = msg.content.startsWith('【') ? msg.content : `【${msg.signName}】${msg.content}`;
  return Math.max(1, smsSegments(content));
}

/** The provider of community `rid`, each send paid from its group's quota first. */
export function quotaProvider(db: Kysely<DB>, rid: number, inner: SmsProvider): SmsProvider {
  return {
    name: inner.name,
    receipts: (items) => inner.receipts(items),
    lookup: (item) => inner.lookup(item),
    test: () => inner.test(),
    async send(msg) {
      const n = billedSegments(msg);
      const meta = sendMetaOf(rid, msg);
      const taken = await takeQuota(db, n, meta);
      if (taken === 'short') return { ok: false, code: SMS_QUOTA_CODE, reason: SMS_QUOTA_EMPTY };
      const res = await inner.send(msg);
      if (taken === 'taken' && certainRefusal(res)) await refundQuota(db, n, meta, res.ok ? '' : `${res.code}：${res.reason}`);
      return res;
    },
  };
}
