/**
 * What the sales CRM's methods share (docs/product.md#crm-sales): who reads (a consultant sees their
 * own customers and the pool, a sales manager everyone's), the pool's rules of a community, the
 * customers' query with the day each falls back into the pool, the stage moves and their log, and
 * the holding limit.
 */
import { CRM_STAGE, HELD_STAGES, hasAnyRole, POOL_DEFAULTS, SALES_ROLES, crmPipeline, enumText, type CrmStage } from '@wuye/contract';
import { seesWholeContact } from '@wuye/contract/team/contact';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { accountCodes } from '../../http/authenticate.js';
import type { CommunityCtx, Session } from '../../http/registry.js';
import { registerBacklogSource } from '../setup/backlog.js';

/**
 * The pool's warning (客户回收预警) on the consultant's to-do list: the customer falls back into the
 * pool on the deadline unless followed up (or dealt); a follow-up, a transfer or the reclaim settles it.
 */
export const poolBacklog = registerBacklogSource({
  kind: 'crmpool',
  roles: SALES_ROLES.staff,
  link: (id) => `/crm/crm_show?id=${id}`,
});

/** Who reads a list: a consultant, or a sales manager (an administrator is one). */
export interface Viewer {
  accountId: number;
  manager: boolean;
}

export const isSalesManager = (roles: readonly string[]): boolean => hasAnyRole(roles, SALES_ROLES.managers);
export const viewerOf = (session: Pick<Session, 'accountId' | 'roles'>): Viewer => ({
  accountId: session.accountId,
  manager: isSalesManager(session.roles),
});

/**
 * An export runs as a job without the session: the call's check writes its reader into the input
 * the job is queued with (the schema strips any a caller sends), as backlogexport does.
 */
export interface ViewerInput {
  viewer_id?: number;
  viewer_manager?: boolean;
  /** the reader sees contact data whole (CONTACT_WHOLE): the customers' other phones are masked otherwise */
  viewer_whole?: boolean;
}
export function stampViewer(ctx: { session?: Session | null }, input: object): void {
  const session = ctx.session;
  if (!session) return;
  Object.assign(input, {
    viewer_id: session.accountId,
    viewer_manager: isSalesManager(session.roles),
    viewer_whole: seesWholeContact(session.roles),
  });
}
export const viewerOfInput = (input: ViewerInput): Viewer => ({ accountId: Number(input.viewer_id ?? 0), manager: !!input.viewer_manager });

export interface PoolRules {
  pool_enabled: 'Y' | 'N';
  pool_follow_days: number;
  pool_deal_days: number;
  pool_warn_days: number;
  hold_limit: number;
}

/** The community's pool rules, its saved ones or the defaults. */
export async function poolRules(db: Kysely<DB>, rid: number): Promise<PoolRules> {
  const row = await db
    .selectFrom('crm_sales_settings')
    .select(['pool_enabled', 'pool_follow_days', 'pool_deal_days', 'pool_warn_days', 'hold_limit'])
    .where('rid', '=', rid)
    .executeTakeFirst();
  return row ? { ...row, pool_enabled: row.pool_enabled as 'Y' | 'N' } : { ...POOL_DEFAULTS };
}

const HELD = sql.join(HELD_STAGES.map((s) => sql.lit(s)));

/**
 * The day a held customer goes back to the pool under the rules: N days after the later of its last
 * follow-up and its taking, or M days after its taking without a deal, whichever comes first; null
 * when the pool is off, the customer is in the pool, dealt or invalid. `t` is the customers' alias.
 */
export function poolDueSql(rules: PoolRules): RawBuilder<string | null> {
  if (rules.pool_enabled !== 'Y' || (rules.pool_follow_days <= 0 && rules.pool_deal_days <= 0)) return sql<null>`NULL::date`;
  const follow =
    rules.pool_follow_days > 0
      ? sql`greatest(t.last_follow_at, t.assigned_at)::date + ${sql.lit(rules.pool_follow_days)}`
      : sql`NULL::date`;
  const deal = rules.pool_deal_days > 0 ? sql`t.assigned_at::date + ${sql.lit(rules.pool_deal_days)}` : sql`NULL::date`;
  return sql<string | null>`(CASE WHEN t.consultant_id IS NOT NULL AND t.stage IN (${HELD}) THEN least(${follow}, ${deal}) END)`;
}

/** The customers with their consultant's, creator's and room's words and their pool day (as text) of `day`. */
export function customerQuery(db: Kysely<DB>, rid: number, rules: PoolRules, day: string) {
  const due = poolDueSql(rules);
  return db
    .selectFrom('crm_customers as t')
    .leftJoin('accounts as a', 'a.id', 't.consultant_id')
    .leftJoin('accounts as cr', 'cr.id', 't.created_by')
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
    .selectAll('t')
    .select(['a.name as consultant_name', 'cr.name as creator', 'r.address', 'r.bid', 'r.tid'])
    .select(sql<string | null>`(${due})::text`.as('pool_due'))
    .select(sql<number | null>`(${due}) - ${day}::date`.as('pool_days_left'))
    .where('t.rid', '=', rid);
}

/** Only the customers a viewer may read: a manager all, a consultant their own and the pool's. */
export function visibleSql(viewer: Viewer, alias = 't'): RawBuilder<boolean> {
  if (viewer.manager) return sql<boolean>`true`;
  const col = sql.ref(`${alias}.consultant_id`);
  return sql<boolean>`(${col} = ${viewer.accountId} OR ${col} IS NULL)`;
}

export interface CustomerRow {
  id: number;
  name: string;
  stage: string;
  consultant_id: number | null;
  hid: number | null;
}

/** Locks a customer for a change; 客户不存在 for another community's id. */
export async function lockCustomer(ctx: Pick<CommunityCtx, 'db' | 'rid'>, id: number): Promise<CustomerRow> {
  const row = await ctx.db
    .selectFrom('crm_customers')
    .select(['id', 'name', 'stage', 'consultant_id', 'hid'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return fail('客户不存在');
  return {
    ...row,
    id: Number(row.id),
    consultant_id: row.consultant_id === null ? null : Number(row.consultant_id),
    hid: row.hid === null ? null : Number(row.hid),
  };
}

/**
 * Refuses a reader who may not read the customer: a consultant reads their own and the pool's.
 * The refusal names no one.
 */
export function refuseUnseen(viewer: Viewer, c: { consultant_id: number | null }): void {
  if (!viewer.manager && c.consultant_id !== null && c.consultant_id !== viewer.accountId) fail('该客户由其他置业顾问负责，不能查看或操作');
}

/** Refuses work on a customer by anyone but its consultant or a sales manager (a pool customer is claimed first). */
export function refuseNotWorking(viewer: Viewer, c: { consultant_id: number | null; name: string }): void {
  if (viewer.manager) return;
  if (c.consultant_id === null) fail(`客户「${c.name}」在公海中，请先领取`);
  if (c.consultant_id !== viewer.accountId) fail('该客户由其他置业顾问负责，不能查看或操作');
}

/** Who writes a log row: a call's account, or the system (the daily pool job). */
export interface Actor {
  accountId: number | null;
  name: string;
}
export const actorOf = (ctx: { session: Pick<Session, 'accountId' | 'name'> }): Actor => ({
  accountId: ctx.session.accountId,
  name: ctx.session.name,
});
export const SYSTEM: Actor = { accountId: null, name: '系统' };

/** One row of a customer's timeline (the crmcustomer workflow's log). */
export async function logCustomer(
  db: Kysely<DB>,
  rid: number,
  customerId: number,
  step: { transition: string; from: string; to: string; input?: Record<string, unknown> },
  by: Actor,
): Promise<void> {
  await db
    .insertInto('workflow_logs')
    .values({
      rid,
      flow: crmPipeline.def.name,
      row_id: customerId,
      transition: step.transition,
      from_state: step.from,
      to_state: step.to,
      input: JSON.stringify(step.input ?? {}),
      operator: by.name,
      created_by: by.accountId,
    })
    .execute();
}

/**
 * Moves a customer along the pipeline by other work (a visit, a deposit paid or refunded, a
 * contract signed), logged as `step`: only from the stages given, else nothing. Answers whether it moved.
 */
export async function moveStage(
  db: Kysely<DB>,
  rid: number,
  customerId: number,
  move: { from: readonly CrmStage[]; to: CrmStage; step: string; input?: Record<string, unknown>; set?: Record<string, unknown> },
  by: Actor,
): Promise<boolean> {
  const row = await db
    .selectFrom('crm_customers')
    .select('stage')
    .where('rid', '=', rid)
    .where('id', '=', customerId)
    .forUpdate()
    .executeTakeFirst();
  if (!row || !move.from.includes(row.stage as CrmStage)) return false;
  await db
    .updateTable('crm_customers')
    .set({ ...move.set, stage: move.to, stage_at: sql`now()`, updated_at: sql`now()` })
    .where('rid', '=', rid)
    .where('id', '=', customerId)
    .execute();
  await logCustomer(db, rid, customerId, { transition: move.step, from: row.stage, to: move.to, input: move.input }, by);
  return true;
}

export const stageText = (stage: string): string => enumText(CRM_STAGE, stage);

/** Open customers (not dealt, not invalid) a consultant holds now. */
export async function holding(db: Kysely<DB>, rid: number, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('crm_customers')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', rid)
    .where('consultant_id', '=', accountId)
    .where('stage', 'in', [...HELD_STAGES])
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Refuses giving `adding` more open customers to a consultant past the community's holding limit. */
export async function refuseOverLimit(
  db: Kysely<DB>,
  rid: number,
  consultant: { id: number; name: string },
  adding: number,
): Promise<void> {
  const { hold_limit: limit } = await poolRules(db, rid);
  if (limit <= 0 || adding <= 0) return;
  const held = await holding(db, rid, consultant.id);
  if (held + adding > limit)
    fail(
      `${consultant.name}已持有 ${held} 位客户，上限 ${limit} 位，${adding > 1 ? `不能再增加 ${adding} 位` : '不能再增加'}（可在公海规则中调整上限）`,
    );
}

/**
 * The staff a customer may be given to: enabled property staff of the community holding `crm` (or
 * administrators). `accountId` narrows to one.
 */
export async function consultants(db: Kysely<DB>, rid: number, accountId?: number): Promise<Array<{ id: number; name: string }>> {
  let qb = db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y')
    .where(
      sql<boolean>`${accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`)} && ${sql.lit(`{admin,${SALES_ROLES.staff.join(',')}}`)}::text[]`,
    );
  if (accountId !== undefined) qb = qb.where('a.id', '=', accountId);
  const rows = await qb.orderBy('a.id').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

/** The consultant a customer may be given to, or a refusal. */
export async function consultantOf(db: Kysely<DB>, rid: number, accountId: number): Promise<{ id: number; name: string }> {
  const [found] = await consultants(db, rid, accountId);
  return found ?? fail('所选置业顾问不存在，或不是本小区有销售客户权限的员工');
}
