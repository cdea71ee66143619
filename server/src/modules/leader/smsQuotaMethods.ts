/**
 * 短信额度 (/setup/smsquota on the group side, issue 45 "Group settings"): the group's SMS quota
 * package. smsquotainfo, smsquotatopup (the first top-up turns the package on), smsquotaadjust
 * (signed, with a reason, never below 0), smsquotaset (the low-balance threshold), smsquotaledger and
 * smsquotaledgerexport: the head office (leader_admin) with the account permission is_smsset_auth;
 * without it NO_PERMISSION. smsquota: the community side's read of its group's balance, for its
 * SMS pages. What a send takes and gives back is in smsQuota.ts.
 */
import {
  enumText,
  RC,
  SMS_QUOTA_KIND,
  SMS_QUOTA_MAX_TOPUP,
  SMS_QUOTA_PURPOSE,
  SMS_READERS,
  SMS_SENDERS,
  SMSQUOTA_FLAG,
  SMSQUOTA_ROLES,
  type SmsQuotaInfo,
  type SmsQuotaKind,
  type SmsQuotaLedgerItem,
  type SmsQuotaPurpose,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BizError, fail, MESSAGES } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type HandlerInput, type Session } from '../../http/registry.js';
import { xlsxFile, type SheetColumn } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { groupRegion } from '../structure/groupRegion.js';
import { quotaMessage, quotaOfGroup, quotaOfRegion } from './smsQuota.js';

type GroupCall = Ctx & { session: Session };

/** Refuses a caller without is_smsset_auth. */
function requireFlag(session: Session): void {
  if (!session.permissions.includes(SMSQUOTA_FLAG)) throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
}

async function info(db: Kysely<DB>, groupId: number): Promise<SmsQuotaInfo> {
  const [q, regions, month] = await Promise.all([
    quotaOfGroup(db, groupId),
    db
      .selectFrom('regions as g')
      .leftJoin('sms_quota_ledger as l', (j) =>
        j
          .onRef('l.rid', '=', 'g.id')
          .on('l.group_id', '=', groupId)
          .on('l.kind', 'in', ['send', 'refund'])
          .on('l.created_at', '>=', sql<Date>`date_trunc('month', now())`),
      )
      .select([
        'g.id as rid',
        'g.title',
        sql<number>`coalesce(-sum(l.count), 0)::int`.as('used'),
        sql<number>`count(*) FILTER (WHERE l.kind = 'send')::int`.as('sends'),
      ])
      .where('g.group_id', '=', groupId)
      .groupBy(['g.id', 'g.title'])
      .orderBy('g.id')
      .execute(),
    db
      .selectFrom('sms_quota_ledger')
      .select([
        sql<number>`coalesce(-sum(count) FILTER (WHERE kind IN ('send', 'refund')), 0)::int`.as('used'),
        sql<number>`coalesce(sum(count) FILTER (WHERE kind = 'topup'), 0)::int`.as('topup'),
        sql<string>`to_char(now(), 'YYYY-MM')`.as('month'),
      ])
      .where('group_id', '=', groupId)
      .where('created_at', '>=', sql<Date>`date_trunc('month', now())`)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    enabled: q.enabled,
    balance: q.balance,
    low_threshold: q.low_threshold,
    low: q.low,
    month: month.month,
    month_used: month.used,
    month_topup: month.topup,
    regions: regions.map((r) => ({ rid: r.rid, title: r.title, used: r.used, sends: r.sends })),
    update_time: wireTime(q.updated_at),
  };
}

const smsquotainfo = defineMethod('smsquotainfo', {
  side: 'group',
  roles: SMSQUOTA_ROLES,
  writes: false,
  summary: '集团短信额度：余量、是否启用（未充值过为未启用，不限条数）、余量提醒线、本月各小区用量（需 is_smsset_auth）',
  async handler(ctx) {
    requireFlag(ctx.session);
    return info(ctx.db, ctx.session.groupId);
  },
});

const smsquotatopup = defineMethod('smsquotatopup', {
  side: 'group',
  roles: SMSQUOTA_ROLES,
  writes: true,
  summary: `充值短信额度（1 至 ${SMS_QUOTA_MAX_TOPUP} 条，可备注；首次充值即启用额度，此后各小区发送按计费条数扣减，余量为 0 时停止发送；需 is_smsset_auth）`,
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const before = await quotaOfGroup(ctx.db, ctx.session.groupId);
    if (before.balance + input.count > 2_000_000_000) fail('充值后余量过大，请联系管理员');
    await sql`
      WITH u AS (
        INSERT INTO sms_quotas (group_id, balance, created_by, updated_by) VALUES (${ctx.session.groupId}, ${input.count}, ${ctx.session.accountId}, ${ctx.session.accountId})
        ON CONFLICT (group_id) DO UPDATE SET balance = sms_quotas.balance + EXCLUDED.balance, updated_at = now(), updated_by = EXCLUDED.updated_by
        RETURNING group_id, balance
      )
      INSERT INTO sms_quota_ledger (group_id, kind, count, balance_after, note, created_by)
      SELECT group_id, 'topup', ${input.count}, balance, ${input.note}, ${ctx.session.accountId} FROM u`.execute(ctx.db);
    const after = await info(ctx.db, ctx.session.groupId);
    return reply(after, `已充值 ${input.count} 条${before.enabled ? '' : '，短信额度已启用'}，当前余量 ${after.balance} 条`);
  },
});

const smsquotaadjust = defineMethod('smsquotaadjust', {
  side: 'group',
  roles: SMSQUOTA_ROLES,
  writes: true,
  summary: '调整短信余量（正数增加、负数扣减，须填写原因；调整后不能小于 0；未启用额度时先充值；需 is_smsset_auth）',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const before = await quotaOfGroup(ctx.db, ctx.session.groupId);
    if (!before.enabled) fail('集团尚未启用短信额度，请先充值');
    const { rows } = await sql<{ balance: number }>`
      WITH u AS (
        UPDATE sms_quotas SET balance = balance + ${input.count}, updated_at = now(), updated_by = ${ctx.session.accountId}
        WHERE group_id = ${ctx.session.groupId} AND balance + ${input.count} >= 0 AND balance + ${input.count} <= 2000000000
        RETURNING group_id, balance
      )
      INSERT INTO sms_quota_ledger (group_id, kind, count, balance_after, note, created_by)
      SELECT group_id, 'adjust', ${input.count}, balance, ${input.note}, ${ctx.session.accountId} FROM u
      RETURNING balance_after AS balance`.execute(ctx.db);
    if (!rows[0]) fail(`调整后余量不能小于 0（当前余量 ${before.balance} 条）`);
    const after = await info(ctx.db, ctx.session.groupId);
    return reply(after, `已调整 ${input.count > 0 ? '+' : ''}${input.count} 条，当前余量 ${after.balance} 条`);
  },
});

const smsquotaset = defineMethod('smsquotaset', {
  side: 'group',
  roles: SMSQUOTA_ROLES,
  writes: true,
  summary: '设置短信余量提醒线：余量低于它时集团与各小区的短信页面提醒（未启用额度时先充值；需 is_smsset_auth）',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const res = await ctx.db
      .updateTable('sms_quotas')
      .set({ low_threshold: input.low_threshold, updated_at: sql`now()`, updated_by: ctx.session.accountId })
      .where('group_id', '=', ctx.session.groupId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) fail('集团尚未启用短信额度，请先充值');
    return reply(await info(ctx.db, ctx.session.groupId), '保存成功');
  },
});

type LedgerInput = HandlerInput<'smsquotaledgerexport'>;

async function ledgerQuery(ctx: GroupCall, input: LedgerInput) {
  if (input.rid) await groupRegion(ctx.db, ctx.session.groupId, input.rid);
  if (input.date_from && input.date_to && input.date_from > input.date_to) fail('开始日期不能晚于结束日期');
  let qb = ctx.db
    .selectFrom('sms_quota_ledger as l')
    .leftJoin('regions as g', 'g.id', 'l.rid')
    .leftJoin('accounts as a', 'a.id', 'l.created_by')
    .select([
      'l.id',
      'l.kind',
      'l.count',
      'l.balance_after',
      'l.rid',
      'l.purpose',
      'l.ref_id',
      'l.note',
      'l.created_at',
      'g.title as region_title',
      'a.name as creator',
    ])
    .where('l.group_id', '=', ctx.session.groupId);
  if (input.kind) qb = qb.where('l.kind', '=', input.kind);
  if (input.rid) qb = qb.where('l.rid', '=', input.rid);
  if (input.date_from) qb = qb.where('l.created_at', '>=', sql<Date>`${input.date_from}::date`);
  if (input.date_to) qb = qb.where('l.created_at', '<', sql<Date>`${input.date_to}::date + 1`);
  return qb;
}

type LedgerRow = Awaited<ReturnType<Awaited<ReturnType<typeof ledgerQuery>>['execute']>>[number];

const toItem = (r: LedgerRow): SmsQuotaLedgerItem => ({
  id: Number(r.id),
  kind: r.kind as SmsQuotaKind,
  kind_ch: enumText(SMS_QUOTA_KIND, r.kind as SmsQuotaKind),
  count: r.count,
  balance_after: r.balance_after,
  rid: r.rid,
  region_title: r.region_title ?? '',
  purpose: r.purpose as SmsQuotaPurpose,
  purpose_ch: r.purpose ? enumText(SMS_QUOTA_PURPOSE, r.purpose as SmsQuotaPurpose) : '',
  ref_id: r.ref_id === null ? null : Number(r.ref_id),
  note: r.note,
  creator: r.creator ?? (r.kind === 'send' || r.kind === 'refund' ? '系统' : ''),
  create_time: wireTime(r.created_at),
});

const smsquotaledger = defineMethod('smsquotaledger', {
  side: 'group',
  roles: SMSQUOTA_ROLES,
  writes: false,
  summary:
    '短信额度明细：充值、发送（按计费条数扣减）、退回（服务商确定拒收）、调整，每行记变动后余量；按类型、小区、日期筛选（需 is_smsset_auth）',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const page = await listPage(await ledgerQuery(ctx, input), input, 'l.id');
    return { total: page.total, items: page.items.map(toItem) };
  },
});

const LEDGER_EXPORT_MAX = 20_000;

const ledgerColumns: SheetColumn<SmsQuotaLedgerItem>[] = [
  { header: 'ID', value: (l) => l.id, width: 10 },
  { header: '时间', value: (l) => l.create_time, width: 20 },
  { header: '类型', value: (l) => l.kind_ch },
  { header: '条数', value: (l) => l.count },
  { header: '变动后余量', value: (l) => l.balance_after, width: 12 },
  { header: '小区', value: (l) => l.region_title, width: 18 },
  { header: '用途', value: (l) => l.purpose_ch, width: 12 },
  { header: '短信任务ID', value: (l) => l.ref_id ?? '', width: 12 },
  { header: '备注/原因', value: (l) => l.note, width: 30 },
  { header: '操作人', value: (l) => l.creator },
];

// a page's worth of filters narrows it: the workbook is made in the call, as the group's renewal log's
const smsquotaledgerexport = defineMethod('smsquotaledgerexport', {
  side: 'group',
  roles: SMSQUOTA_ROLES,
  writes: false,
  summary: `按当前筛选条件导出短信额度明细（Excel，最多 ${LEDGER_EXPORT_MAX} 条），在本次调用中返回文件（需 is_smsset_auth）`,
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const rows = await (
      await ledgerQuery(ctx, input)
    )
      .orderBy('l.id', input.sort)
      .limit(LEDGER_EXPORT_MAX + 1)
      .execute();
    if (rows.length > LEDGER_EXPORT_MAX) fail(`明细超过 ${LEDGER_EXPORT_MAX} 条，请缩小日期范围后再导出`);
    return xlsxFile(`短信额度明细_${today()}.xlsx`, '短信额度明细', ledgerColumns, rows.map(toItem));
  },
});

const smsquota = defineMethod('smsquota', {
  side: 'community',
  roles: [...SMS_READERS, ...SMS_SENDERS],
  writes: false,
  summary: '本小区所属集团的短信余量（未启用额度时不限条数），供短信页面显示并在余量不足时提醒',
  async handler(ctx) {
    const q = await quotaOfRegion(ctx.db, ctx.rid);
    return { ...q, message: quotaMessage(q) };
  },
});

export const smsQuotaModule = [smsquotainfo, smsquotatopup, smsquotaadjust, smsquotaset, smsquotaledger, smsquotaledgerexport, smsquota];
