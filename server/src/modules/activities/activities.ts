/**
 * 社区活动 (signuplist, signup_add, signup_edit; docs/product.md#activities): the activities with
 * their windows, seats, join rules, price, refund rule, waiting list, review, visibility and form;
 * 上架/下架, delete (none signed up), cancel (every sign-up cancelled and refunded in full, SMS).
 */
import { ACTIVITY_ROLES, enumText, ACTIVITY_PHASE, type ActivityDashboard, type ActivityField } from '@wuye/contract';
import { toFen } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today } from '../../lib/wire.js';
import { noticeText, sanitizeNoticeHtml } from '../steward/noticeHtml.js';
import { approvedTemplate, startNoticeSms, wireToDate } from '../steward/noticeScope.js';
import { activityItem, activityQuery, HOLDING, lockActivity, minimumBacklog, phaseSql, toActivityItems } from './core.js';
import { cancelSignupRow } from './money.js';

type Fields = HandlerInput<'signupadd'>;
type Filters = Omit<HandlerInput<'signuplist'>, 'page' | 'limit' | 'sort'>;

/** Field ids are f + base 36; a new field gets the next free one, a kept field its own. */
function formWithIds(form: Fields['form'], before: ActivityField[]): ActivityField[] {
  const known = new Map(before.map((f) => [f.id, f]));
  const used = new Set<string>();
  let next = before.reduce((m, f) => Math.max(m, parseInt(f.id.slice(1), 36) || 0), 0) + 1;
  return form.map((f) => {
    let fid = f.id;
    if (fid && !known.has(fid)) fail(`表单项「${f.label}」的编号不属于本活动，请刷新后重试`);
    if (fid && used.has(fid)) fail(`表单项编号 ${fid} 重复`);
    if (!fid) fid = `f${(next++).toString(36)}`;
    used.add(fid);
    const choice = f.type === 'radio' || f.type === 'checkbox';
    const options = choice ? [...new Set(f.options)] : [];
    if (choice && options.length < 2) fail(`表单项「${f.label}」至少需要两个不同的选项`);
    return { id: fid, label: f.label, type: f.type, required: f.required, options };
  });
}

async function checkedFields(ctx: CommunityCtx, input: Fields, before?: Awaited<ReturnType<typeof lockActivity>>) {
  const body = sanitizeNoticeHtml(input.body);
  if (!noticeText(body) && !/<img /.test(body)) fail('请输入活动详情');
  const start = await wireToDate(ctx.db, input.start_time);
  const end = await wireToDate(ctx.db, input.end_time);
  const evStart = await wireToDate(ctx.db, input.event_start_time);
  const evEnd = await wireToDate(ctx.db, input.event_end_time);
  if (start >= end) fail('报名截止时间须晚于报名开始时间');
  if (evStart >= evEnd) fail('活动结束时间须晚于活动开始时间');
  if (end > evStart) fail('报名截止时间不能晚于活动开始时间');
  if (input.min_num > 0 && input.limit_num > 0 && input.min_num > input.limit_num) fail('最少成团人数不能大于人数上限');
  if (input.join_mode === 'person' && input.companions_max > 0) fail('按人报名时不能携带同行人，请改为按户报名或将携带人数设为 0');
  const paid = input.is_pay === 'Y';
  const price = paid ? input.price : '0.00';
  if (paid && toFen(price) <= 0n) fail('收费活动请填写大于 0 的单价');
  if (paid && input.refund_fee_type === 'percent' && toFen(input.refund_fee) > 10000n) fail('手续费比例不能超过 100%');
  if (paid && input.refund_fee_type === 'fixed' && toFen(input.refund_fee) > toFen(price)) fail('退款手续费不能超过单价');
  if (paid && input.refund_rule === 'hours' && input.refund_hours < 1) fail('请填写活动开始前可退款的小时数');
  let scopeBids: number[] = [];
  if (input.scope === 'building') {
    scopeBids = [...new Set(input.scope_bids)].sort((a, b) => a - b);
    if (!scopeBids.length) fail('请选择可见的楼栋');
    const found = await ctx.db.selectFrom('buildings').select('id').where('rid', '=', ctx.rid).where('id', 'in', scopeBids).execute();
    if (found.length !== scopeBids.length) fail('所选楼栋不存在或不属于当前小区');
  }
  const form = formWithIds(input.form, (before?.form as unknown as ActivityField[]) ?? []);
  return {
    title: input.title,
    cover: input.cover,
    body,
    place: input.place,
    start_time: start,
    end_time: end,
    event_start_time: evStart,
    event_end_time: evEnd,
    limit_num: input.limit_num,
    min_num: input.min_num,
    join_type: input.join_type,
    join_mode: input.join_mode,
    companions_max: input.join_mode === 'household' ? input.companions_max : 0,
    household_limit: input.household_limit,
    is_pay: input.is_pay,
    price,
    pay_minutes: input.pay_minutes,
    refund_rule: paid ? input.refund_rule : 'none',
    refund_hours: paid && input.refund_rule === 'hours' ? input.refund_hours : 0,
    refund_fee_type: input.refund_fee_type,
    refund_fee: paid ? input.refund_fee : '0.00',
    waitlist: input.waitlist,
    confirm_hours: input.confirm_hours,
    review: input.review,
    scope: input.scope,
    scope_bids: scopeBids,
    form: JSON.stringify(form),
    status: input.status,
  };
}

function filtered(ctx: { db: CommunityCtx['db']; rid: number }, f: Filters) {
  let qb = activityQuery(ctx.db, ctx.rid);
  if (f.title) qb = qb.where('a.title', 'like', `%${f.title.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
  if (f.phase) qb = qb.where(phaseSql(), '=', f.phase);
  if (f.is_pay) qb = qb.where('a.is_pay', '=', f.is_pay);
  if (f.status) qb = qb.where('a.status', '=', f.status);
  if (f.event_from) qb = qb.where(sql<boolean>`a.event_end_time >= ${f.event_from}::date`);
  if (f.event_to) qb = qb.where(sql<boolean>`a.event_start_time < ${f.event_to}::date + 1`);
  return qb;
}

const signuplist = defineMethod('signuplist', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: false,
  summary: '活动列表：人数上限、已报名、候补、签到、收费、上架/下架、阶段（按报名与活动时间计算）；按标题、阶段、收费、状态、活动时间筛选',
  async handler(ctx, input) {
    const qb = filtered(ctx, input);
    const page = await listPage(qb, input, 'a.id', qb);
    return { total: page.total, items: await toActivityItems(ctx.db, ctx.rid, page.items) };
  },
});

const signupinfo = defineMethod('signupinfo', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: false,
  summary: '活动详情（含详情、表单、退款规则、可见楼栋）',
  handler: (ctx, input) => activityItem(ctx.db, ctx.rid, input.id),
});

const signupadd = defineMethod('signupadd', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '新增活动：报名截止不晚于活动开始；人数上限 0 为不限；收费活动单价大于 0；详情按白名单净化；表单项编号由服务端分配',
  async handler(ctx, input) {
    const values = await checkedFields(ctx, input);
    const row = await ctx.db
      .insertInto('activities')
      .values({ rid: ctx.rid, ...values, create_user: ctx.session.name, created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id: Number(row.id) }, '添加成功');
  },
});

const signupedit = defineMethod('signupedit', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '修改活动：人数上限不低于已占名额；有人付款后单价不能改；已取消的活动不能修改；表单项保留原编号（改名不影响已填答案）',
  async handler(ctx, input) {
    const before = await lockActivity(ctx.db, ctx.rid, input.id);
    if (before.cancelled_at) fail('活动已取消，不能修改');
    const values = await checkedFields(ctx, input, before);
    const held = await ctx.db
      .selectFrom('activity_signups')
      .select([
        sql<number>`count(*) FILTER (WHERE status IN ('P', 'R', 'Y', 'S', 'A') OR (status = 'W' AND offer_expires_at IS NOT NULL))::int`.as(
          'held',
        ),
        sql<number>`count(*) FILTER (WHERE pay_status IN ('Y', 'R', 'F'))::int`.as('paid'),
        sql<number>`count(*) FILTER (WHERE status <> 'C')::int`.as('live'),
      ])
      .where('rid', '=', ctx.rid)
      .where('activity_id', '=', input.id)
      .executeTakeFirstOrThrow();
    if (values.limit_num > 0 && values.limit_num < held.held) fail(`人数上限不能低于已报名的 ${held.held} 人`);
    if (held.paid > 0 && (values.is_pay !== before.is_pay || toFen(values.price) !== toFen(before.price)))
      fail(`已有 ${held.paid} 人付款，收费方式和单价不能修改`);
    if (held.live > 0 && values.is_pay !== before.is_pay) fail('已有人报名，不能修改是否收费');
    await ctx.db
      .updateTable('activities')
      .set({ ...values, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    return reply(null, '保存成功');
  },
});

const signupdel = defineMethod('signupdel', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '删除活动：已有报名记录（含已取消）的活动不能删除，请改为取消活动或下架',
  async handler(ctx, input) {
    await lockActivity(ctx.db, ctx.rid, input.id);
    const n = await ctx.db
      .selectFrom('activity_signups')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('activity_id', '=', input.id)
      .executeTakeFirstOrThrow();
    if (n.n > 0) fail(`该活动已有 ${n.n} 条报名记录，不能删除；请下架或取消活动`);
    await ctx.db.deleteFrom('activities').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

const signupstatus = defineMethod('signupstatus', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '上架（Y）或下架（N）活动；下架后不能报名，已报名的不受影响',
  async handler(ctx, input) {
    const a = await lockActivity(ctx.db, ctx.rid, input.id);
    if (a.cancelled_at) fail('活动已取消，不能上架或下架');
    await ctx.db.updateTable('activities').set({ status: input.status }).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, input.status === 'Y' ? '已上架' : '已下架');
  },
});

const signupcancelactivity = defineMethod('signupcancelactivity', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '取消活动：所有未取消的报名一并取消，已付款的全额退款（走退款流程），未付款的账单作废；可选短信模板通知报名人',
  async handler(ctx, input) {
    const a = await lockActivity(ctx.db, ctx.rid, input.id);
    if (a.cancelled_at) fail('活动已取消');
    if (a.phase === 'ended') fail('活动已结束，不能取消');
    const templateId = input.sms_template_id ? (await approvedTemplate(ctx.db, ctx.rid, input.sms_template_id)).id : null;
    const live = await ctx.db
      .selectFrom('activity_signups')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('activity_id', '=', a.id)
      .where('status', '<>', 'C')
      .orderBy('id')
      .forUpdate()
      .execute();
    let refunded = 0;
    for (const s of live) {
      const r = await cancelSignupRow(ctx, a, s, { reason: `活动取消：${input.reason}`, full: true, promote: false });
      if (r.refunded) refunded++;
    }
    await ctx.db
      .updateTable('activities')
      .set({ cancelled_at: sql`now()`, cancel_reason: input.reason, status: 'N', updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', a.id)
      .execute();
    await minimumBacklog.settle(ctx.db, ctx.rid, Number(a.id), ctx.session.accountId);
    let smsJobId: number | null = null;
    const memberIds = [...new Set(live.map((s) => Number(s.member_id)))];
    if (templateId && memberIds.length)
      smsJobId = await startNoticeSms(ctx.db, ctx.rid, {
        name: `活动取消通知：${a.title}`,
        title: a.title,
        templateId,
        memberIds,
        urgent: true,
        createdBy: ctx.session.accountId,
        operator: ctx.session.name,
      });
    return reply(
      { cancelled: live.length, refunded, sms_job_id: smsJobId },
      `活动已取消：${live.length} 条报名已取消${refunded ? `，${refunded} 笔已付款的全额退款` : ''}${smsJobId ? '，已发送短信通知' : ''}`,
    );
  },
});

const signup_activity_small_list = defineMethod('signup_activity_small_list', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: false,
  summary: '活动下拉：未取消的活动，新的在前',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('activities')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('cancelled_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
    return { items: rows.map((r) => ({ id: Number(r.id), title: r.title })) };
  },
});

/**
 * The home card's figures: activities on sale and open for sign-up now, the seats taken in them,
 * and the sign-ups of any live activity waiting for review.
 */
export async function activityDashboard(db: Kysely<DB>, rid: number): Promise<ActivityDashboard> {
  const { rows } = await sql<ActivityDashboard>`
    SELECT
      count(*) FILTER (WHERE a.status = 'Y' AND ${phaseSql()} = 'open')::int AS open,
      coalesce(sum(h.held) FILTER (WHERE a.status = 'Y' AND ${phaseSql()} = 'open'), 0)::int AS signed,
      coalesce(sum(h.reviewing) FILTER (WHERE a.cancelled_at IS NULL), 0)::int AS reviewing
    FROM activities a
    LEFT JOIN LATERAL (
      SELECT count(*) FILTER (WHERE x.status IN (${sql.join(HOLDING)}))::int AS held, count(*) FILTER (WHERE x.status = 'R')::int AS reviewing
      FROM activity_signups x WHERE x.rid = a.rid AND x.activity_id = a.id
    ) h ON true
    WHERE a.rid = ${rid} AND a.cancelled_at IS NULL AND a.event_end_time > now()`.execute(db);
  return rows[0] ?? { open: 0, signed: 0, reviewing: 0 };
}

const activitydashboard = defineMethod('activitydashboard', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: false,
  summary: '首页活动卡片：报名中的活动数、其已报名人数、待审核的报名数',
  handler: (ctx) => activityDashboard(ctx.db, ctx.rid),
});

const signupexport = defineExport('signupexport', {
  roles: ACTIVITY_ROLES,
  summary: '按当前筛选条件导出活动列表（Excel）',
  filename: () => `社区活动_${today()}.xlsx`,
  async check({ db, rid }, input) {
    const n = await filtered({ db, rid }, input)
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    if (n.n > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    const rows = await toActivityItems(db, rid, await filtered({ db, rid }, input).orderBy('a.id', 'desc').execute());
    return sheetOf(
      '社区活动',
      [
        { header: 'ID', value: (r) => r.id },
        { header: '标题', value: (r) => r.title, width: 24 },
        { header: '地点', value: (r) => r.place, width: 16 },
        { header: '人数上限', value: (r) => (r.limit_num ? r.limit_num : '不限') },
        { header: '已报名', value: (r) => r.totle_num },
        { header: '候补', value: (r) => r.waiting_num },
        { header: '签到', value: (r) => r.checked_num },
        { header: '参与方式', value: (r) => `${r.join_mode_ch}·${r.join_type_ch}` },
        { header: '是否收费', value: (r) => r.is_pay_ch },
        { header: '单价', value: (r) => r.price },
        { header: '已收', value: (r) => r.paid_amount },
        { header: '已退', value: (r) => r.refunded_amount },
        { header: '状态', value: (r) => r.status_ch },
        { header: '阶段', value: (r) => enumText(ACTIVITY_PHASE, r.phase) },
        { header: '报名时间', value: (r) => `${r.start_time} 至 ${r.end_time}`, width: 40 },
        { header: '活动时间', value: (r) => `${r.event_start_time} 至 ${r.event_end_time}`, width: 40 },
        { header: '创建人', value: (r) => r.create_user },
        { header: '创建时间', value: (r) => r.create_time, width: 20 },
      ],
      rows,
    );
  },
});

export const activityMethods = [
  signuplist,
  signupinfo,
  signupadd,
  signupedit,
  signupdel,
  signupstatus,
  signupcancelactivity,
  signup_activity_small_list,
  activitydashboard,
  signupexport,
];
