/**
 * The public pool (公海; docs/product.md#crm-sales): its rules (the 公海规则 tab of /crm/setcrmsys),
 * the daily job that takes due customers back from their consultants (with the to-do warning K days
 * before), and the sales funnel (销售漏斗 /crm/intention).
 */
import {
  CRM_STAGE,
  HELD_STAGES,
  PIPELINE,
  SALES_ROLES,
  enumText,
  type CrmFunnelRow,
  type CrmFunnelStage,
  type CrmPoolSettings,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { sheetOf } from '../../lib/excel.js';
import { today, wireTime } from '../../lib/wire.js';
import {
  logCustomer,
  poolBacklog,
  poolRules,
  SYSTEM,
  stampViewer,
  viewerOf,
  viewerOfInput,
  type PoolRules,
  type Viewer,
  type ViewerInput,
} from './salesCore.js';

/* ---------- the rules ---------- */

async function settingsOf(db: Kysely<DB>, rid: number): Promise<CrmPoolSettings> {
  const rules = await poolRules(db, rid);
  const row = await db
    .selectFrom('crm_sales_settings as s')
    .leftJoin('accounts as a', 'a.id', 's.updated_by')
    .select(['s.queue_last', 's.updated_at', 'a.name'])
    .where('s.rid', '=', rid)
    .executeTakeFirst();
  return {
    ...rules,
    queue_last: row?.queue_last ?? 0,
    update_time: row && row.name ? wireTime(row.updated_at) : '',
    updated_by: row?.name ?? '',
  };
}

const crmpoolinfo = defineMethod('crmpoolinfo', {
  side: 'community',
  roles: SALES_ROLES.settingsRead,
  writes: false,
  summary: '公海规则：是否启用、未跟进回收天数、未成交回收天数、提前提醒天数、每位顾问持有上限；已用到的排号',
  handler: (ctx) => settingsOf(ctx.db, ctx.rid),
});

const crmpoolset = defineMethod('crmpoolset', {
  side: 'community',
  roles: SALES_ROLES.managers,
  writes: true,
  summary: '保存公海规则（销售经理）：N 天未跟进或 M 天未成交的客户由每日任务回收公海，提前 K 天提醒其置业顾问；持有上限（0 为不限）',
  async handler(ctx, input) {
    const values = { ...input, updated_at: sql<Date>`now()`, updated_by: ctx.session.accountId };
    await ctx.db
      .insertInto('crm_sales_settings')
      .values({ rid: ctx.rid, ...values, created_by: ctx.session.accountId })
      .onConflict((oc) => oc.column('rid').doUpdateSet(values))
      .execute();
    return reply(await settingsOf(ctx.db, ctx.rid), '公海规则已保存');
  },
});

/* ---------- the daily job ---------- */

export const POOL_RECLAIM = 'crm_pool_reclaim';

/**
 * The pool as of `day` (a business day): every held customer whose day has come goes back to the
 * pool (consultant cleared, logged with the reason, the warning settled); one whose day comes within
 * the warning days raises its consultant's to-do once for that day. Each community in a transaction.
 */
export async function reclaimPool(db: Kysely<DB>, day = today()): Promise<{ reclaimed: number; warned: number }> {
  const rids = await db
    .selectFrom('crm_customers')
    .select('rid')
    .distinct()
    .where('consultant_id', 'is not', null)
    .where('stage', 'in', [...HELD_STAGES])
    .execute();
  let reclaimed = 0;
  let warned = 0;
  for (const { rid } of rids) {
    const rules = await poolRules(db, rid);
    if (rules.pool_enabled !== 'Y') continue;
    const done = await db.transaction().execute((trx) => reclaimCommunity(trx, rid, rules, day));
    reclaimed += done.reclaimed;
    warned += done.warned;
  }
  return { reclaimed, warned };
}

export async function reclaimCommunity(db: Kysely<DB>, rid: number, rules: PoolRules, day: string) {
  const follow =
    rules.pool_follow_days > 0
      ? sql`greatest(c.last_follow_at, c.assigned_at)::date + ${sql.lit(rules.pool_follow_days)}`
      : sql`NULL::date`;
  const deal = rules.pool_deal_days > 0 ? sql`c.assigned_at::date + ${sql.lit(rules.pool_deal_days)}` : sql`NULL::date`;
  const { rows } = await sql<{
    id: string;
    name: string;
    stage: string;
    consultant_id: string;
    consultant_name: string | null;
    follow_due: string | null;
    deal_due: string | null;
    due: string;
    due_at: Date;
    warned_for: string | null;
  }>`
    SELECT x.*, x.due::timestamptz AS due_at FROM (
      SELECT c.id, c.name, c.stage, c.consultant_id, a.name AS consultant_name, c.pool_warned_for::text AS warned_for,
             (${follow})::text AS follow_due, (${deal})::text AS deal_due, least(${follow}, ${deal})::text AS due
      FROM crm_customers c LEFT JOIN accounts a ON a.id = c.consultant_id
      WHERE c.rid = ${rid} AND c.consultant_id IS NOT NULL AND c.stage IN (${sql.join(HELD_STAGES.map((s) => sql.lit(s)))})
      FOR UPDATE OF c) x
    WHERE x.due IS NOT NULL AND x.due::date <= ${day}::date + ${sql.lit(rules.pool_warn_days)}
    ORDER BY x.id`.execute(db);
  let reclaimed = 0;
  let warned = 0;
  for (const c of rows) {
    const id = Number(c.id);
    if (c.due <= day) {
      const why =
        c.follow_due !== null && c.follow_due === c.due
          ? `超过 ${rules.pool_follow_days} 天未跟进`
          : `领取后 ${rules.pool_deal_days} 天未成交`;
      await db
        .updateTable('crm_customers')
        .set({ consultant_id: null, assigned_at: sql`now()`, pool_warned_for: null, updated_at: sql`now()` })
        .where('rid', '=', rid)
        .where('id', '=', id)
        .execute();
      await poolBacklog.settle(db, rid, id);
      await logCustomer(
        db,
        rid,
        id,
        {
          transition: 'pool',
          from: c.stage,
          to: c.stage,
          input: { from_consultant: c.consultant_name ?? '', consultant: '公海', reason: why },
        },
        SYSTEM,
      );
      reclaimed++;
    } else if (rules.pool_warn_days > 0 && c.warned_for !== c.due) {
      await poolBacklog.raise(db, rid, {
        sourceId: id,
        title: `客户即将掉入公海：${c.name}`,
        content: `客户「${c.name}」（${enumText(CRM_STAGE, c.stage)}）将于 ${c.due} 回收公海，请及时跟进`,
        deadline: c.due_at,
        account: Number(c.consultant_id),
      });
      await db.updateTable('crm_customers').set({ pool_warned_for: c.due }).where('rid', '=', rid).where('id', '=', id).execute();
      warned++;
    }
  }
  return { reclaimed, warned };
}

registerJobKind(POOL_RECLAIM, async (ctx) => reclaimPool(ctx.db, typeof ctx.payload.as_of === 'string' ? ctx.payload.as_of : today()));
registerDailyJob(POOL_RECLAIM, {});

/* ---------- the funnel ---------- */

type FunnelInput = HandlerInput<'crmfunnelexport'> & ViewerInput;

const percent = (part: number, whole: number) => (whole > 0 ? ((part * 100) / whole).toFixed(1) : '');

/**
 * The customers entered (报备) in the period by consultant, and how many of them reached each stage
 * or went further (their furthest stage, kept on the customer by a trigger); a consultant sees their
 * own row, a manager everyone's.
 */
export async function funnel(db: Kysely<DB>, rid: number, f: FunnelInput, viewer: Viewer) {
  const consultant = viewer.manager ? (f.consultant_id ?? null) : viewer.accountId;
  const { rows } = await sql<{ consultant_id: string | null; consultant_name: string | null } & Record<string, number>>`
    SELECT t.consultant_id, a.name AS consultant_name, count(*)::int AS report,
      ${sql.join(
        PIPELINE.slice(1).map((s, i) => sql`count(*) FILTER (WHERE t.furthest >= ${sql.lit(i + 2)})::int AS ${sql.ref(s)}`),
        sql`, `,
      )},
      count(*) FILTER (WHERE t.stage = 'invalid')::int AS invalid
    FROM crm_customers t LEFT JOIN accounts a ON a.id = t.consultant_id
    WHERE t.rid = ${rid} AND t.created_at >= ${f.start_date}::date AND t.created_at < ${f.end_date}::date + 1
      ${consultant === null ? sql`` : sql`AND t.consultant_id = ${consultant}`}
    GROUP BY t.consultant_id, a.name
    ORDER BY count(*) DESC, t.consultant_id NULLS LAST`.execute(db);
  const toRow = (r: Record<string, unknown>, id: number | null, name: string): CrmFunnelRow => {
    const n = (k: string) => Number(r[k] ?? 0);
    return {
      consultant_id: id,
      consultant_name: name,
      report: n('report'),
      valid: n('valid'),
      visit: n('visit'),
      pledge: n('pledge'),
      subscribe: n('subscribe'),
      sign: n('sign'),
      invalid: n('invalid'),
      conversion: percent(n('sign'), n('report')),
    };
  };
  const list = rows.map((r) => toRow(r, r.consultant_id === null ? null : Number(r.consultant_id), r.consultant_name ?? '公海'));
  const sums: Record<string, number> = {};
  for (const key of [...PIPELINE, 'invalid']) sums[key] = list.reduce((s, r) => s + (r[key as keyof CrmFunnelRow] as number), 0);
  const total = toRow(sums, null, '合计');
  const stages: CrmFunnelStage[] = PIPELINE.map((s, i) => ({
    stage: s,
    stage_ch: enumText(CRM_STAGE, s),
    count: sums[s]!,
    rate: i === 0 ? (sums[s]! > 0 ? '100.0' : '') : percent(sums[s]!, sums[PIPELINE[i - 1]!]!),
  }));
  return { stages, rows: list, total };
}

const crmfunnel = defineMethod('crmfunnel', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary: '销售漏斗：期间内录入的客户按置业顾问统计到达各阶段（含更靠后的）的人数、无效数与签约转化率；置业顾问只看自己',
  handler: (ctx, input) => funnel(ctx.db, ctx.rid, input, viewerOf(ctx.session)),
});

const crmfunnelexport = defineExport('crmfunnelexport', {
  roles: SALES_ROLES.staff,
  summary: '导出销售漏斗（按置业顾问，含合计）',
  filename: (input) => `销售漏斗_${input.start_date}_${input.end_date}.xlsx`,
  check: async (scope, input) => stampViewer(scope as CommunityCtx, input),
  async sheet({ db, rid }, input) {
    const f = input as FunnelInput;
    const { rows, total } = await funnel(db, rid, f, viewerOfInput(f));
    return sheetOf(
      '销售漏斗',
      [
        { header: '置业顾问', value: (r: CrmFunnelRow) => r.consultant_name },
        ...PIPELINE.map((s) => ({ header: enumText(CRM_STAGE, s), value: (r: CrmFunnelRow) => r[s as keyof CrmFunnelRow] as number })),
        { header: '无效', value: (r: CrmFunnelRow) => r.invalid },
        { header: '签约转化率（%）', value: (r: CrmFunnelRow) => r.conversion },
      ],
      [...rows, total],
    );
  },
});

export const salesPoolMethods = [crmpoolinfo, crmpoolset, crmfunnel, crmfunnelexport];
