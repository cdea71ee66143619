/**
 * 报名 (signupjoin, signup_userlist, signup_form_show; docs/product.md#activities): a sign-up taken
 * for a resident of a room, its seat counted under the activity's lock; the list with approve or
 * refuse, cancel (refund by the rule), check-in (by the sign-up's QR code too), promotion from the
 * waiting list; each person's answers and the per-question totals; their exports.
 */
import {
  ACTIVITY_FIELD_TYPE,
  ACTIVITY_ROLES,
  CONTROL_CHARS,
  SIGNUP_STATUS,
  enumKeys,
  enumText,
  fenToYuan,
  toFen,
  type ActivityField,
  type SignupFormQuestion,
  type SignupItem,
  type SignupStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today } from '../../lib/wire.js';
import { householdIdsMatching } from '../owners/search.js';
import {
  activityItem,
  lockActivity,
  lockSignup,
  payStateSql,
  raiseReview,
  seatsHeld,
  settleReview,
  signupItem,
  signupQuery,
  toSignupItem,
} from './core.js';
import { cancelSignupRow, createSignupBill, offerSeat } from './money.js';

type Answers = HandlerInput<'signupjoin'>['answers'];
type Answer = Answers[string];

const MOBILE_RE = /^1[3-9]\d{9}$/;
const ID_CARD_RE = /^\d{17}[\dXx]$/;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const IMAGE_RE = /^\/files\/\d{1,15}\/[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

/** The answers checked against the activity's form: kept under each field's id, unknown ids refused. */
export function checkAnswers(form: ActivityField[], answers: Answers): Record<string, Answer> {
  const byId = new Map(form.map((f) => [f.id, f]));
  for (const key of Object.keys(answers)) if (!byId.has(key)) fail('回答了表单中没有的问题，请刷新后重试');
  const kept: Record<string, Answer> = {};
  for (const f of form) {
    const v = answers[f.id];
    const empty = v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (f.required === 'Y') fail(`请填写「${f.label}」`);
      continue;
    }
    const bad = (why: string): never => fail(`「${f.label}」${why}`);
    switch (f.type) {
      case 'checkbox': {
        if (!Array.isArray(v)) bad('请选择选项');
        const list = [...new Set(v as string[])];
        if (list.some((o) => !f.options.includes(o))) bad('的选项不存在，请刷新后重试');
        kept[f.id] = list;
        break;
      }
      case 'radio':
        if (typeof v !== 'string' || !f.options.includes(v)) bad('的选项不存在，请刷新后重试');
        kept[f.id] = v;
        break;
      case 'number': {
        const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
        if (!Number.isFinite(n) || Math.abs(n) > 1e9) bad('须为数字');
        kept[f.id] = n;
        break;
      }
      default: {
        if (typeof v !== 'string') bad('格式不正确');
        const t = (v as string).trim();
        if (f.type === 'mobile' && !MOBILE_RE.test(t)) bad('须为 11 位手机号');
        if (f.type === 'idcard' && !ID_CARD_RE.test(t)) bad('须为 18 位身份证号');
        if (f.type === 'date' && (!DAY_RE.test(t) || Number.isNaN(Date.parse(t)))) bad('须为日期（YYYY-MM-DD）');
        if (f.type === 'image' && !IMAGE_RE.test(t)) bad('的图片地址无效，请重新上传');
        if (f.type === 'text' && t.length > 100) bad('不能超过100个字');
        if (CONTROL_CHARS.test(t)) bad('不能包含控制字符');
        kept[f.id] = f.type === 'idcard' ? t.toUpperCase() : t;
      }
    }
  }
  return kept;
}

const JOIN_RELATIONS: Record<string, readonly string[]> = {
  owner: ['owner'],
  resident: ['owner', 'tenant'],
  all: ['owner', 'tenant', 'family'],
};
const JOIN_REFUSAL: Record<string, string> = {
  owner: '该活动仅限业主报名',
  resident: '该活动仅限业主和租户报名',
  all: '报名人必须是该房屋的在住住户',
};

/** A new sign-up's number: BM and the id, eight digits. */
const signupNo = (id: number) => `BM${String(id).padStart(8, '0')}`;

async function join(ctx: CommunityCtx, input: HandlerInput<'signupjoin'>): Promise<SignupItem> {
  const a = await lockActivity(ctx.db, ctx.rid, input.activity_id);
  if (a.cancelled_at) fail('活动已取消，不能报名');
  if (a.status !== 'Y') fail('活动已下架，不能报名');
  if (a.phase === 'pre') fail('报名尚未开始');
  if (a.phase !== 'open') fail('报名已截止');
  const room = await ctx.db
    .selectFrom('rooms')
    .select(['id', 'bid', 'address'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.hid)
    .executeTakeFirst();
  if (!room) return fail('所选房屋不存在或不属于当前小区');
  if (a.scope === 'building' && !a.scope_bids.map(Number).includes(Number(room.bid)))
    fail('该活动仅对指定楼栋的住户开放，所选房屋不在范围内');
  const living = await ctx.db
    .selectFrom('room_members')
    .select('relation')
    .where('rid', '=', ctx.rid)
    .where('hid', '=', input.hid)
    .where('member_id', '=', input.member_id)
    .where('status', '=', 'Y')
    .executeTakeFirst();
  if (!living) fail('报名人必须是该房屋的在住住户');
  if (!JOIN_RELATIONS[a.join_type]!.includes(living.relation)) fail(JOIN_REFUSAL[a.join_type]!);
  if (a.join_mode === 'person' && input.companions > 0) fail('该活动按人报名，不能携带同行人');
  if (input.companions > a.companions_max) fail(`每户最多携带 ${a.companions_max} 名同行人`);
  const mine = await ctx.db
    .selectFrom('activity_signups')
    .select(['member_id', 'status'])
    .where('rid', '=', ctx.rid)
    .where('activity_id', '=', a.id)
    .where('hid', '=', input.hid)
    .where('status', '<>', 'C')
    .execute();
  if (mine.some((m) => Number(m.member_id) === input.member_id)) fail('该住户已报名此活动');
  const limit = a.join_mode === 'household' ? 1 : a.household_limit;
  if (mine.length >= limit)
    fail(
      `每户限报 ${limit} ${a.join_mode === 'household' ? '次' : '人'}，该房屋已报 ${mine.length} ${a.join_mode === 'household' ? '次' : '人'}`,
    );
  const answers = checkAnswers(a.form as unknown as ActivityField[], input.answers);
  const full = a.limit_num > 0 && (await seatsHeld(ctx.db, ctx.rid, Number(a.id))) >= a.limit_num;
  if (full && a.waitlist !== 'Y') fail('名额已满');
  // others waiting come first: a free seat is theirs while anyone waits
  const paid = a.is_pay === 'Y';
  const status: SignupStatus = full ? 'W' : paid ? 'P' : a.review === 'Y' ? 'R' : 'Y';
  const { rows } = await sql<{ id: string }>`SELECT nextval('activity_signups_id_seq')::text AS id`.execute(ctx.db);
  const id = Number(rows[0]!.id);
  const no = signupNo(id);
  const billId =
    status === 'P' ? await createSignupBill(ctx.db, ctx.rid, { title: a.title, price: String(a.price) }, { hid: input.hid }) : null;
  await ctx.db
    .insertInto('activity_signups')
    .values({
      rid: ctx.rid,
      id,
      no,
      activity_id: a.id,
      member_id: input.member_id,
      hid: input.hid,
      companions: input.companions,
      answers: JSON.stringify(answers),
      status,
      pay_status: paid ? 'U' : 'N',
      amount: paid ? String(a.price) : '0',
      bill_id: billId,
      pay_deadline: status === 'P' ? sql`now() + make_interval(mins => ${a.pay_minutes})` : null,
      waited_at: status === 'W' ? sql`now()` : null,
      cancel_reason: '',
      created_by: ctx.session.accountId,
    })
    .execute();
  const item = await signupItem(ctx.db, ctx.rid, id);
  if (status === 'R')
    await raiseReview(ctx.db, ctx.rid, { id, activity_id: Number(a.id), no }, a.title, `${item.realname} ${item.address}`);
  return item;
}

const JOIN_MSG: Record<string, string> = {
  P: '报名成功，请在支付时限内到收银台缴纳活动费',
  R: '报名成功，等待审核',
  Y: '报名成功',
};

const signupjoin = defineMethod('signupjoin', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary:
    '代住户报名（前台或业主端）：在活动行锁下计算名额，满员时进入候补（开启候补时）否则拒绝；核对参与对象、可见楼栋、每户限报、同行人数、报名时间与表单；收费活动生成房屋的活动费账单，超时未付释放名额',
  async handler(ctx, input) {
    const item = await join(ctx, input);
    return reply(item, item.status === 'W' ? `名额已满，已进入候补（第 ${item.wait_pos} 位）` : JOIN_MSG[item.status]!);
  },
});

type UserFilters = Omit<HandlerInput<'signupuserlist'>, 'page' | 'limit' | 'sort'>;

async function userRows(db: Kysely<DB>, rid: number, f: UserFilters) {
  let qb = signupQuery(db, rid).where('s.activity_id', '=', f.id);
  if (f.status) qb = qb.where('s.status', '=', f.status);
  if (f.pay_status) qb = qb.where(payStateSql, '=', f.pay_status);
  if (f.hid) qb = qb.where('s.hid', '=', f.hid);
  if (f.keyword) {
    const k = f.keyword;
    const hids = await householdIdsMatching(db, rid, k);
    qb = qb.where((eb) =>
      eb.or([
        eb('s.no', '=', k.toUpperCase()),
        eb('m.realname', 'like', `%${k.replace(/[\\%_]/g, (c) => '\\' + c)}%`),
        eb('m.mobile', 'like', `${k.replace(/[\\%_]/g, (c) => '\\' + c)}%`),
        ...(hids.length ? [eb('s.hid', 'in', hids.map(Number))] : []),
      ]),
    );
  }
  return qb;
}

const signupuserlist = defineMethod('signupuserlist', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: false,
  summary: '报名名单：报名号、姓名、手机、房屋、人数、状态（候补带位次）、支付、金额；按状态、支付、房屋、关键字筛选；各状态人数',
  async handler(ctx, input) {
    const activity = await activityItem(ctx.db, ctx.rid, input.id);
    const qb = await userRows(ctx.db, ctx.rid, input);
    const page = await listPage(qb, input, 's.id', qb);
    const counts = Object.fromEntries(enumKeys(SIGNUP_STATUS).map((k) => [k, 0])) as Record<SignupStatus, number>;
    const byStatus = await ctx.db
      .selectFrom('activity_signups')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .where('rid', '=', ctx.rid)
      .where('activity_id', '=', input.id)
      .groupBy('status')
      .execute();
    for (const r of byStatus) counts[r.status as SignupStatus] = r.n;
    return { total: page.total, items: page.items.map(toSignupItem), activity, counts };
  },
});

const signupapprove = defineMethod('signupapprove', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '审核报名：通过 → 已报名；拒绝 → 已取消（已付款的全额退款），空出的名额给候补',
  async handler(ctx, input) {
    const { activity, signup } = await lockSignup(ctx, input.id);
    if (signup.status !== 'R') fail(`该报名${enumText(SIGNUP_STATUS, signup.status)}，不在待审核状态`);
    await settleReview(ctx.db, ctx.rid, { id: Number(signup.id), activity_id: Number(signup.activity_id) }, ctx.session.accountId);
    if (input.approve === 'Y') {
      await ctx.db
        .updateTable('activity_signups')
        .set({ status: 'Y', updated_at: sql`now()` })
        .where('rid', '=', ctx.rid)
        .where('id', '=', signup.id)
        .execute();
      return reply(await signupItem(ctx.db, ctx.rid, input.id), '已通过');
    }
    await cancelSignupRow(ctx, activity, signup, {
      reason: `审核未通过${input.remark ? `：${input.remark}` : ''}`,
      full: true,
      promote: true,
    });
    return reply(await signupItem(ctx.db, ctx.rid, input.id), signup.pay_status === 'Y' ? '已拒绝，报名费将全额退款' : '已拒绝');
  },
});

const signupcancel = defineMethod('signupcancel', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '取消报名：未付款的账单作废；已付款的按活动的退款规则（扣手续费）提交退款申请，或选择全额退款；空出的名额给候补',
  async handler(ctx, input) {
    const { activity, signup } = await lockSignup(ctx, input.id);
    const r = await cancelSignupRow(ctx, activity, signup, {
      reason: input.reason || '工作人员取消',
      full: input.force_full === 'Y',
      promote: true,
    });
    return reply(await signupItem(ctx.db, ctx.rid, input.id), r.refunded ? `已取消，已提交退款申请 ${r.refund} 元，待财务审核` : '已取消');
  },
});

const signupcheckin = defineMethod('signupcheckin', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '签到：按报名记录，或扫描/输入报名二维码（报名号）；只有已报名的可签到，活动开始前 2 小时起至活动结束',
  async handler(ctx, input) {
    if (!input.id && !input.code) fail('请扫描或输入报名码');
    const found = await ctx.db
      .selectFrom('activity_signups')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('activity_id', '=', input.activity_id)
      .where((eb) => (input.id ? eb('id', '=', input.id) : eb('no', '=', input.code!.trim().toUpperCase())))
      .executeTakeFirst();
    if (!found) return fail(input.id ? '报名记录不存在' : '报名码无效：不是本活动的报名');
    const { activity, signup } = await lockSignup(ctx, Number(found.id));
    if (signup.status === 'S') fail(`${signup.no} 已签到，请勿重复签到`);
    if (signup.status !== 'Y' && signup.status !== 'A') fail(`该报名${enumText(SIGNUP_STATUS, signup.status)}，不能签到`);
    const now = Date.now();
    if (activity.event_start_time && now < new Date(activity.event_start_time).getTime() - 2 * 3600_000) fail('活动开始前 2 小时才能签到');
    if (activity.event_end_time && now > new Date(activity.event_end_time).getTime() + 24 * 3600_000) fail('活动已结束超过一天，不能签到');
    await ctx.db
      .updateTable('activity_signups')
      .set({ status: 'S', checked_in_at: sql`now()`, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', signup.id)
      .execute();
    const item = await signupItem(ctx.db, ctx.rid, Number(signup.id));
    return reply(item, `签到成功：${item.realname}（${item.people} 人）`);
  },
});

const signuppromote = defineMethod('signuppromote', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '递补：有空余名额时把这位候补提前（收费活动生成账单，须在确认时限内付款）',
  async handler(ctx, input) {
    const { activity, signup } = await lockSignup(ctx, input.id);
    if (signup.status !== 'W' || signup.offer_expires_at) fail('只有排队中的候补可以递补');
    if (activity.cancelled_at) fail('活动已取消');
    if (activity.event_start_time && new Date(activity.event_start_time).getTime() <= Date.now()) fail('活动已开始，不能递补');
    if (activity.limit_num > 0 && (await seatsHeld(ctx.db, ctx.rid, Number(activity.id))) >= activity.limit_num)
      fail('没有空余名额，不能递补');
    await offerSeat(ctx.db, ctx.rid, activity, signup, new Date());
    return reply(
      await signupItem(ctx.db, ctx.rid, input.id),
      activity.is_pay === 'Y' ? `已递补，请在 ${activity.confirm_hours} 小时内缴费` : `已递补，请在 ${activity.confirm_hours} 小时内确认`,
    );
  },
});

const signupconfirm = defineMethod('signupconfirm', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: true,
  summary: '候补确认：免费活动的候补获得名额后在确认时限内确认 → 已报名（需审核时为待审核）',
  async handler(ctx, input) {
    const { activity, signup } = await lockSignup(ctx, input.id);
    if (signup.status !== 'W' || !signup.offer_expires_at) fail('该报名没有待确认的名额');
    if (new Date(signup.offer_expires_at).getTime() < Date.now()) fail('确认时限已过');
    await ctx.db
      .updateTable('activity_signups')
      .set({ status: activity.review === 'Y' ? 'R' : 'Y', offer_expires_at: null, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', signup.id)
      .execute();
    const item = await signupItem(ctx.db, ctx.rid, input.id);
    if (activity.review === 'Y')
      await raiseReview(
        ctx.db,
        ctx.rid,
        { id: item.id, activity_id: item.activity_id, no: item.no },
        activity.title,
        `${item.realname} ${item.address}`,
      );
    return reply(item, '已确认');
  },
});

// ------------------------------------------------------------------------------- the form's answers

async function formOf(db: Kysely<DB>, rid: number, id: number): Promise<ActivityField[]> {
  const a = await db.selectFrom('activities').select('form').where('rid', '=', rid).where('id', '=', id).executeTakeFirst();
  if (!a) return fail('活动不存在');
  return a.form as unknown as ActivityField[];
}

/** Per question: how many answered, each choice's count, a number field's sum and average (of sign-ups not cancelled). */
async function questions(db: Kysely<DB>, rid: number, id: number, fields: ActivityField[]): Promise<SignupFormQuestion[]> {
  const rows = await db
    .selectFrom('activity_signups')
    .select('answers')
    .where('rid', '=', rid)
    .where('activity_id', '=', id)
    .where('status', '<>', 'C')
    .execute();
  return fields.map((f) => {
    const vals = rows.map((r) => (r.answers as Record<string, unknown>)[f.id]).filter((v) => v !== undefined && v !== '');
    const choices = f.options.map((o) => ({
      option: o,
      count: vals.filter((v) => (Array.isArray(v) ? v.includes(o) : v === o)).length,
    }));
    let sum = 0n;
    if (f.type === 'number') for (const v of vals) sum += toFen(Math.round(Number(v) * 100) / 100 || 0);
    return {
      id: f.id,
      label: f.label,
      type: f.type,
      type_ch: enumText(ACTIVITY_FIELD_TYPE, f.type),
      answered: vals.length,
      choices: f.type === 'radio' || f.type === 'checkbox' ? choices : [],
      sum: f.type === 'number' ? fenToYuan(sum) : '',
      avg: f.type === 'number' && vals.length ? fenToYuan(sum / BigInt(vals.length)) : '',
    };
  });
}

const signupformshow = defineMethod('signupformshow', {
  side: 'community',
  roles: ACTIVITY_ROLES,
  writes: false,
  summary: '表单数据：每位报名人的回答（按表单项编号保存，改名不影响），每题的作答人数、选项计数、数字合计与平均',
  async handler(ctx, input) {
    const fields = await formOf(ctx.db, ctx.rid, input.id);
    const qb = signupQuery(ctx.db, ctx.rid).where('s.activity_id', '=', input.id).where('s.status', '<>', 'C');
    const page = await listPage(qb, { ...input, sort: 'asc' }, 's.id', qb);
    return {
      total: page.total,
      items: page.items.map(toSignupItem),
      fields,
      questions: await questions(ctx.db, ctx.rid, input.id, fields),
    };
  },
});

const answerText = (f: ActivityField, v: unknown) => (v === undefined ? '' : Array.isArray(v) ? v.join('、') : String(v));

const baseColumns: SheetColumn<SignupItem>[] = [
  { header: '报名号', value: (r) => r.no, width: 14 },
  { header: '姓名', value: (r) => r.realname },
  { header: '手机', value: (r) => r.mobile, width: 14, contact: 'mobile' },
  { header: '房屋', value: (r) => r.address, width: 24 },
  { header: '人数', value: (r) => r.people },
];

const signupuserexport = defineExport('signupuserexport', {
  roles: ACTIVITY_ROLES,
  summary: '按当前筛选条件导出报名名单（Excel）',
  filename: () => `报名名单_${today()}.xlsx`,
  async check({ db, rid }, input) {
    await activityItem(db, rid, input.id);
    const n = await (
      await userRows(db, rid, input)
    )
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    if (n.n > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    const rows = (await (await userRows(db, rid, input)).orderBy('s.id').execute()).map(toSignupItem);
    return sheetOf(
      '报名名单',
      [
        ...baseColumns,
        { header: '报名时间', value: (r) => r.create_time, width: 20 },
        { header: '状态', value: (r) => r.status_ch },
        { header: '支付', value: (r) => r.pay_status_ch },
        { header: '金额', value: (r) => r.amount },
        { header: '退款', value: (r) => r.refund_amount },
        { header: '签到时间', value: (r) => r.checked_in_at, width: 20 },
        { header: '取消原因', value: (r) => r.cancel_reason, width: 24 },
      ],
      rows,
    );
  },
});

const signupformexport = defineExport('signupformexport', {
  roles: ACTIVITY_ROLES,
  summary: '导出活动的表单数据：每位报名人一行，每个表单项一列（Excel）',
  filename: () => `报名表单_${today()}.xlsx`,
  async check({ db, rid }, input) {
    await formOf(db, rid, input.id);
  },
  async sheet({ db, rid }, input) {
    const fields = await formOf(db, rid, input.id);
    const rows = (
      await signupQuery(db, rid)
        .where('s.activity_id', '=', input.id)
        .where('s.status', '<>', 'C')
        .orderBy('s.id')
        .limit(EXPORT_MAX)
        .execute()
    ).map(toSignupItem);
    return sheetOf(
      '表单数据',
      [
        ...baseColumns,
        { header: '状态', value: (r) => r.status_ch },
        ...fields.map((f): SheetColumn<SignupItem> => ({ header: f.label, value: (r) => answerText(f, r.answers[f.id]), width: 18 })),
      ],
      rows,
    );
  },
});

export const signupMethods = [
  signupjoin,
  signupuserlist,
  signupapprove,
  signupcancel,
  signupcheckin,
  signuppromote,
  signupconfirm,
  signupformshow,
  signupuserexport,
  signupformexport,
];
