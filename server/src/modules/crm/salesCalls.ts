/**
 * Follow-ups (跟进记录 /crm/salescall) and visit invitations (邀约到访 /crm/invitelist) of the sales
 * customers (docs/product.md#crm-sales). The customer's last follow-up and next contact time are
 * those of its latest follow-up; a follow-up restarts the pool's clock and settles its warning. An
 * invitation recorded 已到访 counts a visit, writes a 到访 follow-up and moves the customer to 来访.
 */
import {
  CRM_STAGE,
  FOLLOW_KIND,
  INVITE_OUTCOME,
  INVITE_PURPOSE,
  SALES_ROLES,
  enumText,
  invite,
  salesCall,
  type InviteItem,
  type InviteOutcome,
  type SalesCallItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import {
  actorOf,
  consultantOf,
  lockCustomer,
  moveStage,
  poolBacklog,
  refuseNotWorking,
  stampViewer,
  viewerOf,
  viewerOfInput,
  type Viewer,
  type ViewerInput,
} from './salesCore.js';

type SalesCallKind = 'phone' | 'wechat' | 'visit' | 'sms' | 'other';

/** How long the author may still change a follow-up. */
const EDIT_HOURS = 24;

/* ---------- follow-ups ---------- */

const callQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('crm_followups as f')
    .innerJoin('crm_customers as c', (j) => j.onRef('c.rid', '=', 'f.rid').onRef('c.id', '=', 'f.customer_id'))
    .selectAll('f')
    .select(['c.name as customer_name', 'c.mobile', 'c.stage', 'c.consultant_id'])
    .select(sql<boolean>`f.created_at > now() - ${sql.lit(`${EDIT_HOURS} hours`)}::interval`.as('recent'))
    .where('f.rid', '=', rid);
type CallRaw = Awaited<ReturnType<ReturnType<typeof callQuery>['executeTakeFirstOrThrow']>>;

/** A consultant reads the follow-ups of their customers, of the pool's and their own; a manager all. */
function callsVisible(viewer: Viewer) {
  if (viewer.manager) return sql<boolean>`true`;
  return sql<boolean>`(c.consultant_id = ${viewer.accountId} OR c.consultant_id IS NULL OR f.created_by = ${viewer.accountId})`;
}

const callEditable = (viewer: Viewer, f: { created_by: number | string | null; recent: boolean }) =>
  viewer.manager || (Number(f.created_by) === viewer.accountId && f.recent);

const toCallRow = (f: CallRaw, viewer: Viewer): SalesCallItem => ({
  id: Number(f.id),
  customer_id: Number(f.customer_id),
  customer_name: f.customer_name,
  mobile: f.mobile,
  stage: f.stage,
  stage_ch: enumText(CRM_STAGE, f.stage),
  kind: f.kind,
  kind_ch: enumText(FOLLOW_KIND, f.kind),
  content: f.content,
  next_contact_at: wireTime(f.next_contact_at),
  operator: f.operator,
  editable: callEditable(viewer, f),
  create_time: wireTime(f.created_at),
});

type CallFilters = HandlerInput<'salescallexport'> & ViewerInput;

function callsFiltered(db: Kysely<DB>, rid: number, f: CallFilters, viewer: Viewer) {
  let qb = callQuery(db, rid).where(callsVisible(viewer));
  if (f.customer_id) qb = qb.where('f.customer_id', '=', Number(f.customer_id));
  if (f.kind) qb = qb.where('f.kind', '=', f.kind as SalesCallKind);
  if (f.operator_id) qb = qb.where('f.created_by', '=', Number(f.operator_id));
  if (f.keyword) {
    const k = String(f.keyword);
    qb = qb.where((eb) => eb.or([eb('c.name', containsOperator(k), likePattern(k)), eb('c.mobile', 'like', likePattern(k))]));
  }
  if (f.create_time) qb = qb.where(withinDays('f.created_at', f.create_time as [string, string]));
  return qb;
}

/**
 * The same rows for their count, without the customers' join when no condition reads it (a
 * manager's list without a keyword): the follow-ups outnumber the customers three to one.
 */
function callsCounted(db: Kysely<DB>, rid: number, f: CallFilters, viewer: Viewer) {
  if (!viewer.manager || f.keyword) return callsFiltered(db, rid, f, viewer);
  let qb = db.selectFrom('crm_followups as f').select('f.id').where('f.rid', '=', rid);
  if (f.customer_id) qb = qb.where('f.customer_id', '=', Number(f.customer_id));
  if (f.kind) qb = qb.where('f.kind', '=', f.kind as SalesCallKind);
  if (f.operator_id) qb = qb.where('f.created_by', '=', Number(f.operator_id));
  if (f.create_time) qb = qb.where(withinDays('f.created_at', f.create_time as [string, string]));
  return qb;
}

/** The customer's last follow-up and next contact time: its latest follow-up's. */
export async function refreshLastFollow(db: Kysely<DB>, rid: number, customerId: number): Promise<void> {
  await sql`
    UPDATE crm_customers c SET last_follow_at = l.created_at, last_follow_text = coalesce(l.text, ''),
      next_contact_at = l.next_contact_at, updated_at = now()
    FROM (SELECT max(created_at) AS created_at,
                 (array_agg(left(content, 100) ORDER BY created_at DESC, id DESC))[1] AS text,
                 (array_agg(next_contact_at ORDER BY created_at DESC, id DESC))[1] AS next_contact_at
          FROM crm_followups WHERE rid = ${rid} AND customer_id = ${customerId}) l
    WHERE c.rid = ${rid} AND c.id = ${customerId}`.execute(db);
}

/** Writes a follow-up of a customer the caller works (locked by the caller) and restarts the pool's clock. */
export async function addFollowUp(
  ctx: CommunityCtx,
  customerId: number,
  f: { kind: SalesCallKind; content: string; next_contact_at: string | null },
): Promise<number> {
  const row = await ctx.db
    .insertInto('crm_followups')
    .values({
      rid: ctx.rid,
      customer_id: customerId,
      kind: f.kind,
      content: f.content,
      next_contact_at: f.next_contact_at,
      operator: ctx.session.name,
      created_by: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await refreshLastFollow(ctx.db, ctx.rid, customerId);
  await ctx.db
    .updateTable('crm_customers')
    .set({ pool_warned_for: null })
    .where('rid', '=', ctx.rid)
    .where('id', '=', customerId)
    .execute();
  await poolBacklog.settle(ctx.db, ctx.rid, customerId, ctx.session.accountId);
  return Number(row.id);
}

async function refuseNextInPast(db: Kysely<DB>, next: unknown): Promise<void> {
  if (!next) return;
  const r = await sql<{ ok: boolean }>`SELECT ${String(next)}::timestamptz > now() AS ok`.execute(db);
  if (!r.rows[0]?.ok) fail('下次联系时间须晚于现在');
}

/** A follow-up its reader may still change: its author within 24 hours, or a sales manager. */
async function changeableCall(ctx: CommunityCtx, id: number): Promise<CallRaw> {
  const f = await callQuery(ctx.db, ctx.rid).where('f.id', '=', id).executeTakeFirst();
  if (!f) return fail('跟进记录不存在');
  if (!callEditable(viewerOf(ctx.session), f)) fail(`跟进记录只能由跟进人在 ${EDIT_HOURS} 小时内修改或删除`);
  return f;
}

const callMethods = defineResource(salesCall, {
  table: 'crm_followups',
  async values(input, ctx, before) {
    if (before) return { ...input, updated_at: sql`now()` };
    const c = await lockCustomer(ctx, Number(input.customer_id));
    refuseNotWorking(viewerOf(ctx.session), c);
    return { ...input, operator: ctx.session.name, created_by: ctx.session.accountId };
  },
  async check(ctx, values, before) {
    if (before) await changeableCall(ctx, Number(before.id));
    await refuseNextInPast(ctx.db, values.next_contact_at);
  },
  async after(ctx, _id, values, before) {
    const customerId = Number(before?.customer_id ?? values.customer_id);
    await refreshLastFollow(ctx.db, ctx.rid, customerId);
    if (before) return;
    await ctx.db
      .updateTable('crm_customers')
      .set({ pool_warned_for: null })
      .where('rid', '=', ctx.rid)
      .where('id', '=', customerId)
      .execute();
    await poolBacklog.settle(ctx.db, ctx.rid, customerId, ctx.session.accountId);
  },
  replace: {
    list: defineMethod('salescalllist', {
      side: 'community',
      roles: SALES_ROLES.staff,
      writes: false,
      summary: '跟进记录：客户、方式、内容、下次联系时间、跟进人；置业顾问看到自己客户、公海客户和自己写的跟进',
      async handler(ctx, input) {
        const viewer = viewerOf(ctx.session);
        const page = await listPage(
          callsFiltered(ctx.db, ctx.rid, input, viewer),
          input,
          'f.id',
          callsCounted(ctx.db, ctx.rid, input, viewer),
        );
        return { total: page.total, items: page.items.map((f) => toCallRow(f, viewer)) };
      },
    }),
    del: defineMethod('salescalldel', {
      side: 'community',
      roles: SALES_ROLES.staff,
      writes: true,
      summary: `删除跟进记录（跟进人 ${EDIT_HOURS} 小时内，或销售经理）；客户的最近跟进随之更新`,
      async handler(ctx, input) {
        const f = await changeableCall(ctx, input.id);
        await ctx.db.deleteFrom('crm_followups').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
        await refreshLastFollow(ctx.db, ctx.rid, Number(f.customer_id));
        return reply({ id: input.id }, '删除成功');
      },
    }),
    export: defineExport('salescallexport', {
      roles: SALES_ROLES.staff,
      summary: '按筛选条件导出跟进记录',
      filename: () => `跟进记录_${today()}.xlsx`,
      async check(scope, input) {
        stampViewer(scope as CommunityCtx, input);
        await refuseOversizedExport(
          scope.db,
          callsFiltered(scope.db, scope.rid, input as CallFilters, viewerOfInput(input as CallFilters)),
        );
      },
      async sheet({ db, rid }, input) {
        const f = input as CallFilters;
        const viewer = viewerOfInput(f);
        const rows = (await callsFiltered(db, rid, f, viewer).orderBy('f.id', f.sort).limit(EXPORT_MAX).execute()).map((r) =>
          toCallRow(r, viewer),
        );
        return sheetOf(
          '跟进记录',
          [
            { header: 'ID', value: (r: SalesCallItem) => r.id, width: 8 },
            { header: '客户', value: (r) => r.customer_name },
            { header: '手机号', value: (r) => r.mobile, width: 14, contact: 'mobile' },
            { header: '阶段', value: (r) => r.stage_ch },
            { header: '跟进方式', value: (r) => r.kind_ch },
            { header: '跟进内容', value: (r) => r.content, width: 40 },
            { header: '下次联系时间', value: (r) => r.next_contact_at, width: 20 },
            { header: '跟进人', value: (r) => r.operator },
            { header: '跟进时间', value: (r) => r.create_time, width: 20 },
          ],
          rows,
        );
      },
    }),
  },
  summaries: {
    add: '写跟进（本人客户或销售经理；公海客户先领取）：方式、内容、下次联系时间（须晚于现在）；更新客户的最近跟进，公海回收重新计时',
    edit: `修改跟进（跟进人 ${EDIT_HOURS} 小时内，或销售经理）`,
  },
});

/* ---------- invitations ---------- */

const inviteQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('crm_invites as i')
    .innerJoin('crm_customers as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.customer_id'))
    .leftJoin('accounts as a', 'a.id', 'i.consultant_id')
    .leftJoin('accounts as cr', 'cr.id', 'i.created_by')
    .selectAll('i')
    .select(['c.name as customer_name', 'c.mobile', 'c.consultant_id as owner_id', 'a.name as consultant_name', 'cr.name as creator'])
    .where('i.rid', '=', rid);
type InviteRaw = Awaited<ReturnType<ReturnType<typeof inviteQuery>['executeTakeFirstOrThrow']>>;

function invitesVisible(viewer: Viewer) {
  if (viewer.manager) return sql<boolean>`true`;
  const me = viewer.accountId;
  return sql<boolean>`(c.consultant_id = ${me} OR c.consultant_id IS NULL OR i.consultant_id = ${me} OR i.created_by = ${me})`;
}

const toInviteRow = (i: InviteRaw): InviteItem => ({
  id: Number(i.id),
  customer_id: Number(i.customer_id),
  customer_name: i.customer_name,
  mobile: i.mobile,
  invite_at: wireTime(i.invite_at).slice(0, 16),
  consultant_id: Number(i.consultant_id),
  consultant_name: i.consultant_name ?? '',
  visitors: i.visitors,
  purpose: i.purpose,
  purpose_ch: enumText(INVITE_PURPOSE, i.purpose),
  outcome: i.outcome as InviteOutcome,
  outcome_ch: enumText(INVITE_OUTCOME, i.outcome),
  arrived_at: wireTime(i.arrived_at),
  result: i.result,
  creator: i.creator ?? '',
  create_time: wireTime(i.created_at),
});

type InviteFilters = HandlerInput<'inviteexport'> & ViewerInput;

function invitesFiltered(db: Kysely<DB>, rid: number, f: InviteFilters, viewer: Viewer) {
  let qb = inviteQuery(db, rid).where(invitesVisible(viewer));
  if (f.customer_id) qb = qb.where('i.customer_id', '=', Number(f.customer_id));
  if (f.outcome) qb = qb.where('i.outcome', '=', f.outcome as InviteOutcome);
  if (f.consultant_id) qb = qb.where('i.consultant_id', '=', Number(f.consultant_id));
  if (f.keyword) {
    const k = String(f.keyword);
    qb = qb.where((eb) => eb.or([eb('c.name', containsOperator(k), likePattern(k)), eb('c.mobile', 'like', likePattern(k))]));
  }
  if (f.invite_date) qb = qb.where(withinDays('i.invite_at', f.invite_date as [string, string]));
  return qb;
}

/** Who may change an invitation: its receiving consultant, the customer's, or a sales manager. */
function refuseInviteChange(ctx: CommunityCtx, i: Record<string, unknown>, customer: { consultant_id: number | null; name: string }) {
  const viewer = viewerOf(ctx.session);
  if (viewer.manager || Number(i.consultant_id) === viewer.accountId) return;
  refuseNotWorking(viewer, customer);
}

/**
 * The customer came (an invitation recorded 已到访): one more visit, a 到访 follow-up (which
 * restarts the pool's clock) and, from 报备 or 有效, the stage 来访.
 */
async function recordVisit(ctx: CommunityCtx, customerId: number, inviteId: number, result: string): Promise<void> {
  await ctx.db
    .updateTable('crm_customers')
    .set((eb) => ({ visit_count: eb('visit_count', '+', 1) }))
    .where('rid', '=', ctx.rid)
    .where('id', '=', customerId)
    .execute();
  await addFollowUp(ctx, customerId, {
    kind: 'visit',
    content: `到访（邀约 #${inviteId}）${result ? `：${result}` : ''}`.slice(0, 500),
    next_contact_at: null,
  });
  await moveStage(
    ctx.db,
    ctx.rid,
    customerId,
    { from: ['report', 'valid'], to: 'visit', step: 'visit', input: { invite: `#${inviteId}` } },
    actorOf(ctx),
  );
}

const inviteMethods = defineResource(invite, {
  table: 'crm_invites',
  async values(input, ctx, before) {
    const v = { ...input } as Record<string, unknown>;
    const customerId = Number(before?.customer_id ?? v.customer_id);
    const c = await lockCustomer(ctx, customerId);
    if (before) refuseInviteChange(ctx, before, c);
    else {
      refuseNotWorking(viewerOf(ctx.session), c);
      if (c.stage === 'invalid') fail(`客户「${c.name}」已标记无效，请先重新激活`);
    }
    const chosen = v.consultant_id ?? before?.consultant_id ?? ctx.session.accountId;
    const consultant = await consultantOf(ctx.db, ctx.rid, Number(chosen));
    v.consultant_id = consultant.id;
    const was = (before?.outcome as InviteOutcome | undefined) ?? null;
    if (was === 'V' && v.outcome !== 'V') fail('已到访的邀约不能改为其他结果');
    v.arrived_at = v.outcome === 'V' ? (was === 'V' ? before!.arrived_at : sql`now()`) : null;
    if (before) return { ...v, updated_at: sql`now()` };
    return { ...v, created_by: ctx.session.accountId };
  },
  async after(ctx, id, values, before) {
    if (values.outcome === 'V' && before?.outcome !== 'V')
      await recordVisit(ctx, Number(before?.customer_id ?? values.customer_id), id, String(values.result ?? ''));
  },
  async beforeDelete(ctx, row) {
    if (row.outcome === 'V') fail('已到访的邀约不能删除');
    const c = await lockCustomer(ctx, Number(row.customer_id));
    refuseInviteChange(ctx, row, c);
  },
  replace: {
    list: defineMethod('invitelist', {
      side: 'community',
      roles: SALES_ROLES.staff,
      writes: false,
      summary: '邀约到访：客户、到访时间、接待顾问、人数、目的、结果（待到访、已到访、未到访、取消）、到达时间',
      async handler(ctx, input) {
        const page = await listPage(invitesFiltered(ctx.db, ctx.rid, input, viewerOf(ctx.session)), input, 'i.id');
        return { total: page.total, items: page.items.map(toInviteRow) };
      },
    }),
    export: defineExport('inviteexport', {
      roles: SALES_ROLES.staff,
      summary: '按筛选条件导出邀约到访',
      filename: () => `邀约到访_${today()}.xlsx`,
      async check(scope, input) {
        stampViewer(scope as CommunityCtx, input);
        await refuseOversizedExport(
          scope.db,
          invitesFiltered(scope.db, scope.rid, input as InviteFilters, viewerOfInput(input as InviteFilters)),
        );
      },
      async sheet({ db, rid }, input) {
        const f = input as InviteFilters;
        const rows = (await invitesFiltered(db, rid, f, viewerOfInput(f)).orderBy('i.id', f.sort).limit(EXPORT_MAX).execute()).map(
          toInviteRow,
        );
        return sheetOf(
          '邀约到访',
          [
            { header: 'ID', value: (r: InviteItem) => r.id, width: 8 },
            { header: '客户', value: (r) => r.customer_name },
            { header: '手机号', value: (r) => r.mobile, width: 14, contact: 'mobile' },
            { header: '到访时间', value: (r) => r.invite_at, width: 18 },
            { header: '接待顾问', value: (r) => r.consultant_name },
            { header: '到访人数', value: (r) => r.visitors },
            { header: '目的', value: (r) => r.purpose_ch },
            { header: '结果', value: (r) => r.outcome_ch },
            { header: '到达时间', value: (r) => r.arrived_at, width: 20 },
            { header: '到访情况', value: (r) => r.result, width: 30 },
            { header: '登记人', value: (r) => r.creator },
            { header: '登记时间', value: (r) => r.create_time, width: 20 },
          ],
          rows,
        );
      },
    }),
  },
  summaries: {
    add: '预约到访（本人客户或销售经理）：时间、接待顾问（默认自己）、人数、目的；直接登记“已到访”即为到访登记',
    edit: '修改邀约或登记结果：已到访的计入来访次数、写一条到访跟进，报备/有效的客户进入来访；已到访不能改回',
    del: '删除邀约（已到访的不能删除）',
  },
});

export const salesCallMethods = [...callMethods, ...inviteMethods];
