/**
 * Sales customers (销售客户 /crm/crm; docs/product.md#crm-sales): the resource with its views (mine,
 * the team's, the pool) and chips, the duplicate mobile, the pipeline's transitions, the pool's
 * claim, release and assignment (each logged on the customer's timeline), and the contracts part's
 * way to mark a customer signed.
 */
import {
  CRM_CHANNEL,
  CRM_GENDER,
  CRM_GRADE,
  CRM_PRODUCT,
  CRM_PURPOSE,
  CRM_SOURCE,
  CRM_STAGE,
  DEALT_STAGES,
  HELD_STAGES,
  SALES_ROLES,
  crmCustomer,
  crmPipeline,
  enumText,
  type CrmCustomerItem,
  type CrmStage,
  type FilterValue,
} from '@wuye/contract';
import { isMasked, maskContact, seesWholeContact } from '@wuye/contract/team/contact';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput, type MethodDef } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDependents } from '../../lib/dependents.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { defineWorkflow } from '../../lib/workflow.js';
import {
  actorOf,
  consultantOf,
  consultants,
  customerQuery,
  holding,
  lockCustomer,
  logCustomer,
  moveStage,
  poolBacklog,
  poolDueSql,
  poolRules,
  refuseNotWorking,
  refuseOverLimit,
  refuseUnseen,
  stampViewer,
  viewerOf,
  viewerOfInput,
  visibleSql,
  type Actor,
  type PoolRules,
  type Viewer,
  type ViewerInput,
} from './salesCore.js';

registerDependents({
  crm_customers: '销售客户',
  crm_intentions: '认筹记录',
  crm_followups: '跟进记录',
  crm_invites: '邀约记录',
});

type Raw = Awaited<ReturnType<ReturnType<typeof customerQuery>['executeTakeFirstOrThrow']>>;

const num = (v: unknown): string | null => (v === null || v === undefined ? null : String(Number(v)));
const range = (min: unknown, max: unknown, unit: string): string => {
  const [a, b] = [num(min), num(max)];
  if (a && b) return a === b ? `${a}${unit}` : `${a}-${b}${unit}`;
  if (a) return `${a}${unit}以上`;
  if (b) return `${b}${unit}以内`;
  return '';
};

/** 住宅 · 90-120㎡ · 三室两厅 · 150-200万 */
export function wantText(r: {
  product: string;
  area_min: unknown;
  area_max: unknown;
  layout: string;
  budget_min: unknown;
  budget_max: unknown;
}) {
  return [enumText(CRM_PRODUCT, r.product), range(r.area_min, r.area_max, '㎡'), r.layout, range(r.budget_min, r.budget_max, '万')]
    .filter(Boolean)
    .join(' · ');
}

const maskPhones = (phones: string[], whole: boolean) => (whole ? phones : phones.map((p) => maskContact('mobile', p)));
const decimal = (v: unknown): string | null => (v === null || v === undefined ? null : Number(v).toFixed(2));

/** A customer as the list, the detail and the export have it; other phones masked for a reader without CONTACT_WHOLE. */
export function toCustomerRow(r: Raw, viewer: Viewer, whole: boolean): CrmCustomerItem {
  const consultantId = r.consultant_id === null ? null : Number(r.consultant_id);
  return {
    id: Number(r.id),
    name: r.name,
    gender: r.gender as CrmCustomerItem['gender'],
    gender_ch: r.gender ? enumText(CRM_GENDER, r.gender) : '',
    mobile: r.mobile,
    phones: maskPhones(r.phones, whole),
    wechat: r.wechat,
    id_card: r.id_card,
    product: r.product,
    product_ch: enumText(CRM_PRODUCT, r.product),
    area_min: decimal(r.area_min),
    area_max: decimal(r.area_max),
    layout: r.layout,
    budget_min: decimal(r.budget_min),
    budget_max: decimal(r.budget_max),
    purpose: r.purpose,
    purpose_ch: r.purpose ? enumText(CRM_PURPOSE, r.purpose) : '',
    want_text: wantText(r),
    source: r.source,
    source_ch: enumText(CRM_SOURCE, r.source),
    channel: r.channel,
    channel_ch: r.channel ? enumText(CRM_CHANNEL, r.channel) : '',
    grade: r.grade,
    grade_ch: enumText(CRM_GRADE, r.grade),
    hid: r.hid === null ? null : Number(r.hid),
    bid: r.bid === null ? null : Number(r.bid),
    tid: r.tid === null ? null : Number(r.tid),
    address: r.address ?? '',
    tags: r.tags,
    remark: r.remark,
    stage: r.stage as CrmStage,
    stage_ch: enumText(CRM_STAGE, r.stage),
    invalid_reason: r.invalid_reason,
    contract_no: r.contract_no,
    consultant_id: consultantId,
    consultant_name: r.consultant_name ?? '',
    assigned_at: wireTime(r.assigned_at),
    visit_count: r.visit_count,
    last_follow_at: wireTime(r.last_follow_at),
    last_follow_text: r.last_follow_text,
    next_contact_at: wireTime(r.next_contact_at),
    pool_due: r.pool_due ?? '',
    pool_days_left: r.pool_days_left === null ? null : Number(r.pool_days_left),
    mine: consultantId !== null && consultantId === viewer.accountId,
    creator: r.creator ?? '',
    create_time: wireTime(r.created_at),
  };
}

type ListInput = HandlerInput<'crmexport'> & ViewerInput;

/** The list's filters, its view and its chip, for a viewer on `day`. */
function filtered(db: Kysely<DB>, rid: number, input: ListInput, viewer: Viewer, rules: PoolRules, day: string) {
  let qb = customerQuery(db, rid, rules, day).where(visibleSql(viewer));
  const view = input.view || 'mine';
  if (view === 'team' && !viewer.manager) fail('只有销售经理或管理员可以查看团队客户');
  if (view === 'mine') qb = qb.where('t.consultant_id', '=', viewer.accountId);
  else if (view === 'team') qb = qb.where('t.consultant_id', 'is not', null);
  else qb = qb.where('t.consultant_id', 'is', null);
  if (input.chip === 'today') qb = qb.where(withinDays('t.next_contact_at', [day, day]));
  else if (input.chip === 'overdue') qb = qb.where('t.next_contact_at', '<', sql<Date>`${day}::date`);
  else if (input.chip === 'falling') qb = qb.where(sql<boolean>`(${poolDueSql(rules)}) <= ${day}::date + ${sql.lit(rules.pool_warn_days)}`);
  if (input.keyword) {
    const k = String(input.keyword);
    qb = qb.where((eb) => eb.or([eb('t.name', containsOperator(k), likePattern(k)), eb('t.mobile', 'like', likePattern(k))]));
  }
  for (const key of ['product', 'source', 'channel', 'grade', 'stage'] as const) {
    const v = input[key] as FilterValue;
    if (v) qb = qb.where(sql.ref(`t.${key}`), '=', String(v));
  }
  if (input.consultant_id) qb = qb.where('t.consultant_id', '=', Number(input.consultant_id));
  if (input.create_time) qb = qb.where(withinDays('t.created_at', input.create_time as [string, string]));
  return qb;
}

/** A customer as its list shows it to the caller; 客户不存在 / refused for one they may not read. */
export async function customerRow(ctx: CommunityCtx, id: number): Promise<CrmCustomerItem> {
  const viewer = viewerOf(ctx.session);
  const r = await customerQuery(ctx.db, ctx.rid, await poolRules(ctx.db, ctx.rid), today())
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!r) return fail('客户不存在');
  refuseUnseen(viewer, { consultant_id: r.consultant_id === null ? null : Number(r.consultant_id) });
  return toCustomerRow(r, viewer, seesWholeContact(ctx.session.roles));
}

/** A value sent back as shown masked keeps the stored one; other masked text is refused. */
function unmasked(sent: string, stored: string | undefined, kind: 'mobile' | 'id_card', message: string): string {
  if (!isMasked(sent)) return sent;
  if (stored === undefined || maskContact(kind, stored) !== sent) fail(message);
  return stored;
}

const crmlist = defineMethod('crmlist', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary:
    '销售客户列表：view 我的客户(mine，默认)/团队客户(team，销售经理)/公海(pool)；chip 今日待联系/已逾期/即将掉入公海；姓名或手机号、业态、来源、渠道、等级、阶段、置业顾问、录入时间',
  async handler(ctx, input) {
    const viewer = viewerOf(ctx.session);
    const rules = await poolRules(ctx.db, ctx.rid);
    const day = today();
    const qb = filtered(ctx.db, ctx.rid, input, viewer, rules, day);
    const page = await listPage(qb, input, 't.id');
    const whole = seesWholeContact(ctx.session.roles);
    return { total: page.total, items: page.items.map((r) => toCustomerRow(r, viewer, whole)) };
  },
});

const crminfo = defineMethod('crminfo', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary: '客户详情（置业顾问只能看自己的客户和公海客户）',
  handler: (ctx, input) => customerRow(ctx, input.id),
});

const crmexport = defineExport('crmexport', {
  roles: SALES_ROLES.staff,
  summary: '按当前视图和筛选条件导出销售客户（手机号、证件号按权限脱敏）',
  filename: () => `销售客户_${today()}.xlsx`,
  async check(scope, input) {
    stampViewer(scope as CommunityCtx, input);
    const f = input as ListInput;
    const rules = await poolRules(scope.db, scope.rid);
    await refuseOversizedExport(scope.db, filtered(scope.db, scope.rid, f, viewerOfInput(f), rules, today()));
  },
  async sheet({ db, rid }, input) {
    const f = input as ListInput;
    const viewer = viewerOfInput(f);
    const rules = await poolRules(db, rid);
    const rows = (await filtered(db, rid, f, viewer, rules, today()).orderBy('t.id', f.sort).limit(EXPORT_MAX).execute()).map((r) =>
      toCustomerRow(r, viewer, !!f.viewer_whole),
    );
    return sheetOf(
      '销售客户',
      [
        { header: 'ID', value: (r: CrmCustomerItem) => r.id, width: 8 },
        { header: '姓名', value: (r) => r.name },
        { header: '性别', value: (r) => r.gender_ch },
        { header: '手机号', value: (r) => r.mobile, width: 14, contact: 'mobile' },
        { header: '其他电话', value: (r) => r.phones.join('、'), width: 20 },
        { header: '微信', value: (r) => r.wechat },
        { header: '身份证号', value: (r) => r.id_card, width: 20, contact: 'id_card' },
        { header: '意向', value: (r) => r.want_text, width: 30 },
        { header: '购买用途', value: (r) => r.purpose_ch },
        { header: '来源', value: (r) => r.source_ch },
        { header: '渠道', value: (r) => r.channel_ch },
        { header: '等级', value: (r) => r.grade_ch },
        { header: '阶段', value: (r) => r.stage_ch },
        { header: '无效原因', value: (r) => r.invalid_reason, width: 20 },
        { header: '置业顾问', value: (r) => r.consultant_name || '公海' },
        { header: '意向房源', value: (r) => r.address, width: 18 },
        { header: '来访次数', value: (r) => r.visit_count },
        { header: '最近跟进', value: (r) => r.last_follow_at, width: 20 },
        { header: '跟进内容', value: (r) => r.last_follow_text, width: 30 },
        { header: '下次联系', value: (r) => r.next_contact_at, width: 20 },
        { header: '掉入公海', value: (r) => r.pool_due, width: 12 },
        { header: '标签', value: (r) => r.tags.join('、') },
        { header: '备注', value: (r) => r.remark, width: 20 },
        { header: '录入人', value: (r) => r.creator },
        { header: '录入时间', value: (r) => r.create_time, width: 20 },
      ],
      rows,
    );
  },
});

/** The caller's own customers for a form's dropdown (a follow-up, an invitation, a deposit), the latest worked first. */
const crmcustomerSmall = defineMethod('crmcustomer_small_list', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary: '我的客户下拉（id、title：姓名与手机尾号），最近跟进的在前，最多 500 位',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('crm_customers')
      .select(['id', 'name', 'mobile', 'stage'])
      .where('rid', '=', ctx.rid)
      .where('consultant_id', '=', ctx.session.accountId)
      .orderBy(sql`coalesce(last_follow_at, created_at)`, 'desc')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    return {
      items: rows.map((r) => ({ id: Number(r.id), title: `${r.name}（尾号${r.mobile.slice(-4)}，${enumText(CRM_STAGE, r.stage)}）` })),
    };
  },
});

/** The customer holding a mobile, other than `except`. */
async function holderOf(db: Kysely<DB>, rid: number, mobile: string, except?: number) {
  let qb = db
    .selectFrom('crm_customers as t')
    .leftJoin('accounts as a', 'a.id', 't.consultant_id')
    .select(['t.id', 't.name', 't.stage', 't.consultant_id', 'a.name as consultant_name'])
    .where('t.rid', '=', rid)
    .where('t.mobile', '=', mobile);
  if (except) qb = qb.where('t.id', '<>', except);
  return qb.executeTakeFirst();
}

const resourceMethods = defineResource(crmCustomer, {
  table: 'crm_customers',
  async values(input, ctx, before) {
    const v = { ...input } as Record<string, unknown>;
    const stored = before as { mobile?: string; id_card?: string; phones?: string[] } | undefined;
    v.mobile = unmasked(String(v.mobile), stored?.mobile, 'mobile', '手机号码格式不正确，应为11位手机号');
    v.id_card = v.id_card ? unmasked(String(v.id_card), stored?.id_card, 'id_card', '身份证号码不正确') : '';
    // an other phone shown masked is the stored one it masks
    v.phones = (v.phones as string[]).map((p) => {
      if (!isMasked(p)) return p;
      const kept = stored?.phones?.find((s) => maskContact('mobile', s) === p);
      return kept ?? fail('其他电话格式不正确（手机号或带区号的座机）');
    });
    if (before) return { ...v, updated_at: sql`now()` };
    const me = ctx.session.accountId;
    const chosen = v.consultant_id === undefined ? me : Number(v.consultant_id);
    if (chosen !== me && !viewerOf(ctx.session).manager) fail('只有销售经理可以把新客户分给其他置业顾问');
    const consultant = await consultantOf(ctx.db, ctx.rid, chosen);
    await refuseOverLimit(ctx.db, ctx.rid, consultant, 1);
    return { ...v, consultant_id: consultant.id, assigned_at: sql`now()`, stage: 'report', created_by: me };
  },
  async check(ctx, values, before) {
    if (before)
      refuseNotWorking(viewerOf(ctx.session), { consultant_id: before.consultant_id as number | null, name: String(before.name) });
    const other = await holderOf(ctx.db, ctx.rid, String(values.mobile), before ? Number(before.id) : undefined);
    if (other)
      fail(
        `该手机号已登记为客户「${other.name}」（置业顾问：${other.consultant_name ?? '公海'}，阶段：${enumText(CRM_STAGE, other.stage)}），不能重复录入`,
      );
  },
  async after(ctx, id, values, before) {
    if (before) return;
    const consultant = await consultantOf(ctx.db, ctx.rid, Number(values.consultant_id));
    await logCustomer(
      ctx.db,
      ctx.rid,
      id,
      { transition: 'create', from: '', to: 'report', input: { consultant: consultant.name } },
      actorOf(ctx),
    );
  },
  async beforeDelete(ctx, row) {
    refuseNotWorking(viewerOf(ctx.session), { consultant_id: row.consultant_id as number | null, name: String(row.name) });
    if ((DEALT_STAGES as readonly string[]).includes(String(row.stage)))
      fail(`客户「${String(row.name)}」已${enumText(CRM_STAGE, String(row.stage))}，不能删除`);
    await poolBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
  },
  dependents: { crm_intentions: '该客户已有认筹记录（认筹金），不能删除；无意向请标记为无效' },
  replace: { list: crmlist, info: crminfo, export: crmexport, small: crmcustomerSmall },
  summaries: {
    add: '录入客户：手机号在本小区唯一（已登记的提示其客户和置业顾问）；置业顾问默认录入人（销售经理可分给他人），受持有上限限制；进入“报备”阶段',
    edit: '修改客户资料（本人客户或销售经理）；脱敏显示的手机号、证件号原样提交则保留原值；置业顾问的变更用 crmassign',
    del: '删除客户（本人客户或销售经理）：已认购、签约或有认筹记录的不能删除',
  },
});

/** Refuses marking a customer invalid while a deposit of theirs is live: it is cancelled or refunded first. */
async function refuseLiveDeposit(ctx: CommunityCtx, customerId: number, name: string): Promise<void> {
  const live = await ctx.db
    .selectFrom('crm_intentions as i')
    .leftJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'i.rid').onRef('b.id', '=', 'i.bill_id'))
    .select(['i.queue_no', 'i.status', 'b.status as bill_status'])
    .where('i.rid', '=', ctx.rid)
    .where('i.customer_id', '=', customerId)
    .where('i.status', 'in', ['P', 'R'])
    .orderBy('i.id')
    .executeTakeFirst();
  if (!live) return;
  const paid = live.bill_status === 'Y';
  fail(`客户「${name}」还有${paid ? '未退的' : '未缴的'}认筹（排号 ${live.queue_no}），请先${paid ? '办理退款' : '取消认筹'}`);
}

const working = async (ctx: CommunityCtx, row: Record<string, unknown>) =>
  refuseNotWorking(viewerOf(ctx.session), {
    consultant_id: row.consultant_id === null ? null : Number(row.consultant_id),
    name: String(row.name),
  });
const touched = () => ({ stage_at: sql`now()`, updated_at: sql`now()` });

const pipelineMethods = defineWorkflow(crmPipeline, {
  table: 'crm_customers',
  answer: (ctx, id) => customerRow(ctx, id),
  transitions: {
    valid: { run: working, set: touched, message: '已确认为有效客户' },
    subscribe: {
      run: async (ctx, row) => {
        await working(ctx, row);
        // a deal: the pool no longer takes the customer back
        await poolBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: touched,
      message: '已转为认购',
    },
    sign: { run: working, set: (_ctx, input) => ({ ...touched(), contract_no: String(input.contract_no) }), message: '已签约' },
    invalid: {
      run: async (ctx, row) => {
        await working(ctx, row);
        await refuseLiveDeposit(ctx, Number(row.id), String(row.name));
        await poolBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: (_ctx, input) => ({ ...touched(), invalid_reason: String(input.reason) }),
      message: '已标记为无效客户',
    },
    // the clocks start again for the consultant who keeps it
    reopen: {
      set: () => ({ ...touched(), invalid_reason: '', assigned_at: sql`now()`, pool_warned_for: null }),
      message: '客户已重新激活，回到报备阶段',
    },
  },
  logRoles: SALES_ROLES.staff,
  summaries: {
    crmvalid: '报备 → 有效（本人客户或销售经理）',
    crmsubscribe: '有效/来访/认筹 → 认购，填写认购说明；认购后不再回收公海',
    crmsign: '认购 → 签约，填写合同编号（合同模块签约时也会调用 markCustomerSigned）',
    crminvalid: '标记无效（任一未成交阶段或认购），须填写原因；有未退或未缴的认筹金时拒绝',
    crmreopen: '无效 → 报备（销售经理），回收公海的计时重新开始',
    crmlog: '客户的阶段与归属记录（时间线）：录入、各阶段变更、到访、认筹、领取、分配、回收公海',
  },
});

/** Locks the customers in id order (the order every writer of several takes them in). */
async function lockAll(ctx: CommunityCtx, ids: readonly number[]) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const rows = [];
  for (const id of sorted) rows.push(await lockCustomer(ctx, id));
  return rows;
}

/** Gives customers to a consultant: the clocks start, the warning settles, the timeline says who from whom. */
async function handOver(
  ctx: CommunityCtx,
  rows: Awaited<ReturnType<typeof lockAll>>,
  to: { id: number; name: string } | null,
  step: 'claim' | 'assign' | 'release',
  reason: string,
): Promise<void> {
  const names = new Map((await consultants(ctx.db, ctx.rid)).map((c) => [c.id, c.name]));
  for (const c of rows) {
    await ctx.db
      .updateTable('crm_customers')
      .set({ consultant_id: to?.id ?? null, assigned_at: sql`now()`, pool_warned_for: null, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', c.id)
      .execute();
    await poolBacklog.settle(ctx.db, ctx.rid, c.id, ctx.session.accountId);
    const from = c.consultant_id === null ? '公海' : (names.get(c.consultant_id) ?? `#${c.consultant_id}`);
    const input: Record<string, unknown> = { from_consultant: from, consultant: to?.name ?? '公海' };
    if (reason) input.reason = reason;
    await logCustomer(ctx.db, ctx.rid, c.id, { transition: step, from: c.stage, to: c.stage, input }, actorOf(ctx));
  }
}

const heldAmong = (rows: Array<{ stage: string }>) => rows.filter((r) => (HELD_STAGES as readonly string[]).includes(r.stage)).length;

const crmclaim = defineMethod('crmclaim', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: true,
  summary: '从公海领取客户（可多选，最多 50 位）：受持有上限限制；记入客户时间线',
  async handler(ctx, input) {
    const rows = await lockAll(ctx, input.ids);
    const taken = rows.find((r) => r.consultant_id !== null);
    if (taken) fail(`客户「${taken.name}」已有置业顾问，不在公海中，不能领取`);
    const me = await consultantOf(ctx.db, ctx.rid, ctx.session.accountId);
    await refuseOverLimit(ctx.db, ctx.rid, me, heldAmong(rows));
    await handOver(ctx, rows, me, 'claim', '');
    return reply({ claimed: rows.length }, `已领取 ${rows.length} 位客户`);
  },
});

const crmrelease = defineMethod('crmrelease', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: true,
  summary: '放入公海（本人客户或销售经理）：须填写原因；已认购、签约的不能放入；记入客户时间线',
  async handler(ctx, input) {
    const viewer = viewerOf(ctx.session);
    const rows = await lockAll(ctx, input.ids);
    for (const r of rows) {
      if (r.consultant_id === null) fail(`客户「${r.name}」已在公海中`);
      refuseNotWorking(viewer, r);
      if ((DEALT_STAGES as readonly string[]).includes(r.stage)) fail(`客户「${r.name}」已${enumText(CRM_STAGE, r.stage)}，不能放入公海`);
    }
    await handOver(ctx, rows, null, 'release', input.reason);
    return reply({ released: rows.length }, `已将 ${rows.length} 位客户放入公海`);
  },
});

const crmassign = defineMethod('crmassign', {
  side: 'community',
  roles: SALES_ROLES.managers,
  writes: true,
  summary: '分配/转移客户给置业顾问（销售经理；公海客户或他人客户，最多 50 位）：受持有上限限制；记入客户时间线',
  async handler(ctx, input) {
    const to = await consultantOf(ctx.db, ctx.rid, input.consultant_id);
    const rows = (await lockAll(ctx, input.ids)).filter((r) => r.consultant_id !== to.id);
    if (rows.length === 0) fail(`所选客户已由${to.name}负责`);
    await refuseOverLimit(ctx.db, ctx.rid, to, heldAmong(rows));
    await handOver(ctx, rows, to, 'assign', input.reason);
    return reply({ assigned: rows.length }, `已将 ${rows.length} 位客户分配给${to.name}`);
  },
});

const crmcheckmobile = defineMethod('crmcheckmobile', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary: '录入客户时查手机号是否已登记：已登记的客户姓名、置业顾问、阶段，以及当前账号能否打开它',
  async handler(ctx, input) {
    const found = await holderOf(ctx.db, ctx.rid, input.mobile, input.except_id || undefined);
    if (!found) return { hit: null };
    const viewer = viewerOf(ctx.session);
    const consultant = found.consultant_id === null ? null : Number(found.consultant_id);
    return {
      hit: {
        id: Number(found.id),
        name: found.name,
        consultant_name: found.consultant_name ?? '',
        stage_ch: enumText(CRM_STAGE, found.stage),
        can_open: viewer.manager || consultant === null || consultant === viewer.accountId,
        in_pool: consultant === null,
      },
    };
  },
});

const crmchips = defineMethod('crmchips', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary: '客户列表的视图与提醒计数：我的、团队（销售经理）、公海；当前视图的今日待联系、已逾期、即将掉入公海',
  async handler(ctx, input) {
    const viewer = viewerOf(ctx.session);
    const rules = await poolRules(ctx.db, ctx.rid);
    const day = today();
    const view = input.view || 'mine';
    const count = async (f: Partial<ListInput>) => {
      const qb = filtered(ctx.db, ctx.rid, { sort: 'desc', ...f } as ListInput, viewer, rules, day);
      const row = await ctx.db
        .selectFrom(qb.clearSelect().select('t.id').as('x'))
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    };
    const [mine, team, pool, todayN, overdue, falling] = await Promise.all([
      count({ view: 'mine' }),
      viewer.manager ? count({ view: 'team' }) : Promise.resolve(null),
      count({ view: 'pool' }),
      count({ view, chip: 'today' }),
      count({ view, chip: 'overdue' }),
      view === 'pool' ? Promise.resolve(0) : count({ view, chip: 'falling' }),
    ]);
    return { mine, team, pool, today: todayN, overdue, falling };
  },
});

const crmconsultantSmall = defineMethod('crmconsultant_small_list', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  contact: 'staff',
  summary: '置业顾问下拉：本小区有销售客户权限的员工（id、title），含当前持有的未成交客户数',
  async handler(ctx) {
    const list = await consultants(ctx.db, ctx.rid);
    const items = [];
    for (const c of list) {
      const held = await holding(ctx.db, ctx.rid, c.id);
      items.push({ id: c.id, title: `${c.name}（持有 ${held}）`, holding: held });
    }
    return { items };
  },
});

/**
 * A contract signed for a customer (the contracts part calls it when a sale contract takes effect):
 * the customer moves to 签约 from any stage before it, the contract number kept, the timeline says
 * so. Answers whether it moved (false: unknown or signed already).
 */
export async function markCustomerSigned(
  db: Kysely<DB>,
  rid: number,
  customerId: number,
  contractNo: string,
  by: Actor = { accountId: null, name: '合同签约' },
): Promise<boolean> {
  const from = Object.keys(CRM_STAGE).filter((s) => s !== 'sign') as CrmStage[];
  const moved = await moveStage(
    db,
    rid,
    customerId,
    { from, to: 'sign', step: 'signed', input: { contract_no: contractNo }, set: { contract_no: contractNo, invalid_reason: '' } },
    by,
  );
  if (moved) await poolBacklog.settle(db, rid, customerId, by.accountId);
  return moved;
}

export const salesCustomerMethods: MethodDef[] = [
  ...resourceMethods,
  ...pipelineMethods,
  crmclaim,
  crmrelease,
  crmassign,
  crmcheckmobile,
  crmchips,
  crmconsultantSmall,
];
