/**
 * 短信 (issue 36, messaging): provider settings (smssetting, smssettingset, smstest), templates
 * (a resource), the unsubscribe list (a resource), jobs (smsjob*: a workflow 草稿 → 待发送 →
 * 发送中 → 已完成 / 部分失败 / 已取消, sent as a queued job: smsSend.ts) and their messages
 * (smsjoblog, smsresend, smsjoblogexport, smsreceipts).
 */
import {
  enumText,
  jobPercent,
  maskMobile,
  SMS_AUDIENCE,
  SMS_JOB_KIND,
  SMS_JOB_STATUS,
  SMS_PROVIDER,
  SMS_READERS,
  SMS_RECEIPT_STATUS,
  SMS_SCHEDULE,
  SMS_SENDERS,
  SMS_SUBMIT_STATUS,
  smsJobFlow,
  smsTemplate,
  smsUnsub,
  templateVars,
  type SmsAudience,
  type SmsJobItem,
  type SmsMessageItem,
  type SmsSettingAnswer,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { enqueueJob } from '../../jobs/queue.js';
import { EXPORT_MAX, sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { decryptSecret, encryptSecret, lastFour, maskSecret, secretsKey } from '../../lib/secrets.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { today, wireTime } from '../../lib/wire.js';
import { audienceRecipients, readsArrears, renderMessage, screenRecipients, unmappedVars, type VarMap } from './smsAudience.js';
import { aliyunConfigured, AliyunSmsProvider, smsProviderFor, smsSettingsOf } from './smsProvider.js';
import { quotaOfRegion } from '../leader/smsQuota.js';
import { afterQuietHours, inQuietHours, nextMonthlyRun, pollReceipts, SMS_SEND_KIND } from './smsSend.js';

// ------------------------------------------------------------------------------------ templates

export const smsTemplateMethods = defineResource(smsTemplate, {
  table: 'sms_templates',
  row: (r: Record<string, unknown>) => ({ ...r, vars: templateVars(String(r.content)) }),
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  unique: [{ on: ['code'], message: (v) => `模板编码“${String(v.code)}”已存在` }],
  dependents: { sms_jobs: '该模板已被短信任务使用，不能删除（可改为未审核停止使用）' },
  summaries: {
    list: '短信模板列表（编码、内容与变量、类型、审核状态）',
    add: '新增短信模板（编码为服务商审核通过的模板CODE，小区内唯一）',
    del: '删除短信模板（已被短信任务使用时拒绝）',
  },
});

export const smsUnsubMethods = defineResource(smsUnsub, {
  table: 'sms_unsubscribes',
  values: (input, ctx) => ({ ...input, created_by: ctx.session.accountId }),
  unique: [{ on: ['mobile'], message: (v) => `退订名单中已有 ${String(v.mobile)}` }],
  summaries: { list: '短信退订名单（名单中的号码不再收到任务短信）', add: '加入退订名单', del: '移出退订名单' },
});

// ------------------------------------------------------------------------------------ settings

async function settingAnswer(db: Kysely<DB>, rid: number): Promise<SmsSettingAnswer> {
  const row = await db.selectFrom('sms_settings').selectAll().where('rid', '=', rid).executeTakeFirst();
  const provider = row?.provider ?? 'sandbox';
  const active = aliyunConfigured(row) ? 'aliyun' : 'sandbox';
  return {
    provider,
    provider_ch: enumText(SMS_PROVIDER, provider),
    active,
    active_ch: enumText(SMS_PROVIDER, active),
    access_key_id: row?.access_key_id ?? '',
    secret_masked: maskSecret(row?.secret_last4 ?? ''),
    sign_name: row?.sign_name ?? '',
    region: row?.region ?? 'cn-hangzhou',
    sandbox_fail_suffix: row?.sandbox_fail_suffix ?? '',
    last_test_time: wireTime(row?.last_test_at ?? null),
    last_test_result: row?.last_test_result ?? '',
    update_time: wireTime(row?.updated_at ?? null),
  };
}

const smssetting = defineMethod('smssetting', {
  side: 'community',
  roles: SMS_READERS,
  writes: false,
  summary: '短信设置（服务商、AccessKey ID、签名；密钥只显示后四位，从不返回）',
  handler: (ctx) => settingAnswer(ctx.db, ctx.rid),
});

const smssettingset = defineMethod('smssettingset', {
  side: 'community',
  roles: SMS_READERS,
  writes: true,
  summary: '保存短信设置（密钥只写：留空则不修改，加密保存）',
  async handler(ctx, input) {
    const before = await smsSettingsOf(ctx.db, ctx.rid);
    const secret = input.access_key_secret;
    if (input.provider === 'aliyun') {
      if (!input.access_key_id) fail('请输入 AccessKey ID');
      if (!secret && !before?.secret_blob) fail('请输入 AccessKey Secret');
      if (!input.sign_name) fail('请输入短信签名（须已在服务商审核通过）');
    }
    const sealed = secret ? { secret_blob: encryptSecret(secret, secretsKey(ctx.config.dataDir)), secret_last4: lastFour(secret) } : {};
    const values = {
      provider: input.provider,
      access_key_id: input.access_key_id,
      sign_name: input.sign_name,
      region: input.region || 'cn-hangzhou',
      sandbox_fail_suffix: input.sandbox_fail_suffix,
      updated_by: ctx.session.accountId,
      updated_at: sql<Date>`now()`,
      ...sealed,
    };
    await ctx.db
      .insertInto('sms_settings')
      .values({ rid: ctx.rid, created_by: ctx.session.accountId, ...values })
      .onConflict((oc) => oc.column('rid').doUpdateSet(values))
      .execute();
    return reply(await settingAnswer(ctx.db, ctx.rid), '保存成功');
  },
});

const smstest = defineMethod('smstest', {
  side: 'community',
  roles: SMS_READERS,
  writes: true,
  summary: '测试短信服务商连接（阿里云：查询签名，密钥或签名有误时原样显示服务商的错误；沙箱：总是可用）',
  async handler(ctx) {
    const s = await smsSettingsOf(ctx.db, ctx.rid);
    let result: { ok: boolean; message: string };
    let providerCh: string;
    if (s?.provider === 'aliyun') {
      providerCh = enumText(SMS_PROVIDER, 'aliyun');
      if (!aliyunConfigured(s)) result = { ok: false, message: '阿里云短信未配置完整（AccessKey ID、Secret、签名）' };
      else {
        const secret = decryptSecret(s.secret_blob, secretsKey(ctx.config.dataDir));
        result = await new AliyunSmsProvider({
          accessKeyId: s.access_key_id,
          accessKeySecret: secret,
          signName: s.sign_name,
          region: s.region,
        }).test();
      }
    } else {
      providerCh = enumText(SMS_PROVIDER, 'sandbox');
      result = await (await smsProviderFor(ctx.db, ctx.rid, ctx.config.dataDir)).provider.test();
    }
    await ctx.db
      .insertInto('sms_settings')
      .values({ rid: ctx.rid, created_by: ctx.session.accountId, last_test_at: sql`now()`, last_test_result: result.message })
      .onConflict((oc) => oc.column('rid').doUpdateSet({ last_test_at: sql`now()`, last_test_result: result.message }))
      .execute();
    return reply({ ...result, provider_ch: providerCh }, result.ok ? '连接成功' : '连接失败');
  },
});

// ------------------------------------------------------------------------------------ jobs

type JobInput = HandlerInput<'smsjobadd'>;

function audienceText(a: SmsAudience): string {
  const base = enumText(SMS_AUDIENCE, a.type);
  const parts: string[] = [];
  if (a.bids.length) parts.push(`${a.bids.length}个楼栋`);
  if (a.tids.length) parts.push(`${a.tids.length}个单元`);
  if (a.type === 'arrears') parts.push(`欠费≥${a.min_amount}元且超过${a.months}个月`);
  if (a.type === 'members') parts.push(`${a.member_ids.length}人`);
  if (a.type === 'list') parts.push(`${a.list.length}个号码`);
  return parts.length ? `${base}（${parts.join('，')}）` : base;
}

/** Parses a wire time 'YYYY-MM-DD HH:mm(:ss)' of the business time zone into a Date, in the database's own zone. */
async function wireToDate(db: Kysely<DB>, text: string): Promise<Date> {
  const t = text.length === 16 ? `${text}:00` : text;
  const { rows } = await sql<{ at: Date }>`SELECT ${t}::timestamp AT TIME ZONE current_setting('TimeZone') AS at`.execute(db);
  return new Date(rows[0]!.at);
}

/** The checks of a job's fields; answers the columns to write. */
async function checkedJob(ctx: CommunityCtx, input: JobInput) {
  const tpl = await ctx.db
    .selectFrom('sms_templates')
    .select(['content', 'approved'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.template_id)
    .executeTakeFirst();
  if (!tpl) fail('短信模板不存在');
  if (tpl.approved !== 'Y') fail('只能选择已审核的短信模板');
  const vars = templateVars(tpl.content);
  const map: VarMap = {};
  for (const v of vars) {
    const m = input.var_map[v];
    if (!m) fail(`模板变量 \${${v}} 还没有设置取值`);
    if (m.source === 'text' && !m.text) fail(`模板变量 \${${v}} 选了固定文字，请填写文字`);
    map[v] = { source: m.source, text: m.source === 'text' ? m.text : '' };
  }
  const a = input.audience;
  const audience: SmsAudience = {
    type: a.type,
    bids: ['all', 'places', 'arrears'].includes(a.type) ? a.bids : [],
    tids: ['all', 'places', 'arrears'].includes(a.type) ? a.tids : [],
    min_amount: a.type === 'arrears' ? a.min_amount : '0',
    months: a.type === 'arrears' ? a.months : 0,
    member_ids: a.type === 'members' ? a.member_ids : [],
    list: a.type === 'list' ? a.list : [],
  };
  if (a.type === 'places' && !audience.bids.length && !audience.tids.length) fail('请选择楼栋或单元');
  if (audience.bids.length) {
    const n = await ctx.db
      .selectFrom('buildings')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('id', 'in', audience.bids)
      .executeTakeFirstOrThrow();
    if (n.n !== new Set(audience.bids).size) fail('所选楼栋不存在或不属于当前小区');
  }
  if (audience.tids.length) {
    const n = await ctx.db
      .selectFrom('units')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('id', 'in', audience.tids)
      .executeTakeFirstOrThrow();
    if (n.n !== new Set(audience.tids).size) fail('所选单元不存在或不属于当前小区');
  }
  if (a.type === 'members') {
    if (!audience.member_ids.length) fail('请选择业主');
    const n = await ctx.db
      .selectFrom('members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('id', 'in', audience.member_ids)
      .executeTakeFirstOrThrow();
    if (n.n !== new Set(audience.member_ids).size) fail('所选业主不存在或不属于当前小区');
  }
  if (a.type === 'list' && !audience.list.length) fail('请上传或填写发送名单');
  if (input.schedule === 'at' && !input.run_at) fail('请选择定时发送的时间');
  return {
    name: input.name,
    kind: input.kind,
    template_id: input.template_id,
    var_map: JSON.stringify(map),
    audience: JSON.stringify(audience),
    schedule: input.schedule,
    run_at: input.schedule === 'at' && input.run_at ? await wireToDate(ctx.db, input.run_at) : null,
    month_day: input.month_day,
    month_time: input.month_time,
    urgent: input.urgent,
    dedupe_days: input.dedupe_days,
    remark: input.remark,
  };
}

const jobQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('sms_jobs as j')
    .innerJoin('sms_templates as t', (j) => j.onRef('t.rid', '=', 'j.rid').onRef('t.id', '=', 'j.template_id'))
    .leftJoin('accounts as a', 'a.id', 'j.created_by')
    .leftJoin('jobs as q', (j) => j.onRef('q.id', '=', 'j.job_id').onRef('q.rid', '=', 'j.rid'))
    .where('j.rid', '=', rid)
    .selectAll('j')
    .select([
      't.title as template_title',
      't.code as template_code',
      't.content as template_content',
      sql<string>`coalesce(a.name, '')`.as('creator'),
    ])
    .select(['q.progress as q_progress', 'q.total as q_total', 'q.status as q_status']);

type JobRow = Awaited<ReturnType<ReturnType<typeof jobQuery>['executeTakeFirstOrThrow']>>;

function toJobItem(r: JobRow): SmsJobItem {
  const audience = (typeof r.audience === 'string' ? JSON.parse(r.audience) : r.audience) as SmsAudience;
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    kind_ch: enumText(SMS_JOB_KIND, r.kind),
    template_id: r.template_id,
    template_title: r.template_title,
    template_code: r.template_code,
    template_content: r.template_content,
    var_map: (typeof r.var_map === 'string' ? JSON.parse(r.var_map) : r.var_map) as SmsJobItem['var_map'],
    audience,
    audience_ch: audienceText(audience),
    schedule: r.schedule,
    schedule_ch:
      r.schedule === 'at'
        ? `定时 ${wireTime(r.run_at).slice(0, 16)}`
        : r.schedule === 'monthly'
          ? `每月${r.month_day}日 ${r.month_time}`
          : enumText(SMS_SCHEDULE, r.schedule),
    run_at: wireTime(r.run_at),
    month_day: r.month_day,
    month_time: r.month_time,
    urgent: r.urgent,
    dedupe_days: r.dedupe_days,
    status: r.status,
    status_ch: enumText(SMS_JOB_STATUS, r.status),
    remark: r.remark,
    recipients: r.recipients,
    sent: r.sent,
    failed: r.failed,
    job_id: r.job_id === null ? 0 : Number(r.job_id),
    percent:
      r.status === 'S' && r.q_status
        ? jobPercent({ status: r.q_status, progress: r.q_progress ?? 0, total: r.q_total ?? 0 })
        : r.status === 'Y' || r.status === 'F'
          ? 100
          : 0,
    next_run_time: wireTime(r.next_run_at),
    start_time: wireTime(r.started_at),
    finish_time: wireTime(r.finished_at),
    creator: r.creator,
    create_time: wireTime(r.created_at),
  };
}

async function jobItem(db: Kysely<DB>, rid: number, id: number): Promise<SmsJobItem> {
  const row = await jobQuery(db, rid).where('j.id', '=', id).executeTakeFirst();
  if (!row) return fail('短信任务不存在');
  return toJobItem(row);
}

const smsjoblist = defineMethod('smsjoblist', {
  side: 'community',
  roles: SMS_READERS,
  writes: false,
  summary: '短信任务列表（类型、模板、对象、计划、状态、成功/失败、进度），新的在前',
  async handler(ctx, input) {
    let qb = jobQuery(ctx.db, ctx.rid);
    if (input.name) qb = qb.where('j.name', 'like', `%${input.name.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    if (input.kind) qb = qb.where('j.kind', '=', input.kind);
    if (input.status) qb = qb.where('j.status', '=', input.status);
    const page = await listPage(qb, { ...input, sort: input.sort === 'asc' ? 'desc' : 'asc' }, 'j.id');
    return { total: page.total, items: page.items.map(toJobItem) };
  },
});

const smsjobinfo = defineMethod('smsjobinfo', {
  side: 'community',
  roles: SMS_READERS,
  writes: false,
  summary: '短信任务详情',
  handler: (ctx, input) => jobItem(ctx.db, ctx.rid, input.id),
});

const smsjobadd = defineMethod('smsjobadd', {
  side: 'community',
  roles: SMS_SENDERS,
  writes: true,
  summary: '新建短信任务（草稿）：模板须已审核，变量都设置了取值；开始前可预览接收人数与预计条数',
  async handler(ctx, input) {
    const values = await checkedJob(ctx, input);
    const row = await ctx.db
      .insertInto('sms_jobs')
      .values({ rid: ctx.rid, ...values, status: 'D', created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeFlowLog(ctx, smsJobFlow.def, row.id, { transition: 'create', from: '', to: 'D' });
    return reply({ id: row.id }, '添加成功');
  },
});

/** The job, locked, when still a draft. */
async function draft(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('sms_jobs')
    .select(['id', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return fail('短信任务不存在');
  if (row.status !== 'D') fail('只有草稿状态的短信任务可以修改或删除');
  return row;
}

const smsjobedit = defineMethod('smsjobedit', {
  side: 'community',
  roles: SMS_SENDERS,
  writes: true,
  summary: '修改短信任务（仅草稿）',
  async handler(ctx, input) {
    await draft(ctx, input.id);
    const values = await checkedJob(ctx, input);
    await ctx.db.updateTable('sms_jobs').set(values).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '保存成功');
  },
});

const smsjobdel = defineMethod('smsjobdel', {
  side: 'community',
  roles: SMS_SENDERS,
  writes: true,
  summary: '删除短信任务（仅草稿）',
  async handler(ctx, input) {
    await draft(ctx, input.id);
    await ctx.db
      .deleteFrom('workflow_logs')
      .where('rid', '=', ctx.rid)
      .where('flow', '=', 'smsjob')
      .where('row_id', '=', input.id)
      .execute();
    await ctx.db.deleteFrom('sms_jobs').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

/** Recipients and the estimate of a job as it would start now. */
async function preview(ctx: CommunityCtx, id: number) {
  const job = await ctx.db
    .selectFrom('sms_jobs as j')
    .innerJoin('sms_templates as t', (j) => j.onRef('t.rid', '=', 'j.rid').onRef('t.id', '=', 'j.template_id'))
    .innerJoin('regions as g', 'g.id', 'j.rid')
    .select(['j.audience', 'j.var_map', 'j.dedupe_days', 't.content', 't.approved', 'g.title as community'])
    .where('j.rid', '=', ctx.rid)
    .where('j.id', '=', id)
    .executeTakeFirst();
  if (!job) return fail('短信任务不存在');
  const all = await audienceRecipients(ctx.db, ctx.rid, job.audience as SmsAudience, { arrears: readsArrears(job.var_map as VarMap) });
  const screened = await screenRecipients(ctx.db, ctx.rid, all, job.dedupe_days);
  const settings = await smsSettingsOf(ctx.db, ctx.rid);
  const rctx = { signName: settings?.sign_name || '物业服务', community: job.community, date: today() };
  const map = job.var_map as VarMap;
  let messages = 0;
  let longest = 0;
  for (const r of screened.keep) {
    const m = renderMessage(job.content, map, r, rctx);
    messages += m.segments;
    longest = Math.max(longest, m.segments);
  }
  const first = screened.keep[0];
  return {
    recipients: screened.keep.length,
    skipped_unsub: screened.unsub,
    skipped_dedupe: screened.dedupe,
    segments: longest,
    messages,
    sample: first ? renderMessage(job.content, map, first, rctx).content : '',
    sample_mobile: first ? maskMobile(first.mobile) : '',
    unmapped: unmappedVars(job.content, map),
    provider_ch: enumText(SMS_PROVIDER, aliyunConfigured(settings) ? 'aliyun' : 'sandbox'),
    quiet_now: inQuietHours(),
    approved: job.approved,
  };
}

const smsjobpreview = defineMethod('smsjobpreview', {
  side: 'community',
  roles: SMS_READERS,
  writes: false,
  summary: '开始前预览：接收人数（去掉退订和近期已提醒的）、每条计费条数（70字一条，超过按67字一条）、预计总条数、示例内容',
  async handler(ctx, input) {
    const { approved: _approved, ...p } = await preview(ctx, input.id);
    return p;
  },
});

export const smsJobFlowMethods = defineWorkflow(smsJobFlow, {
  table: 'sms_jobs',
  answer: (ctx, id) => jobItem(ctx.db, ctx.rid, id),
  summaries: {
    smsjobstart:
      '开始短信任务（草稿 → 待发送）：confirm_count 须等于当前预览的预计条数；立即、定时或每月发送，静默时段（21:00–08:00）非紧急任务顺延到 08:00',
    smsjobcancel: '取消短信任务：未发出的短信不再发送',
    smsjobflowlog: '短信任务的处理记录（时间线）',
  },
  logRoles: SMS_READERS,
  transitions: {
    start: {
      message: '任务已开始',
      async run(ctx, row, input) {
        const p = await preview(ctx, row.id as number);
        if (p.approved !== 'Y') fail('该任务的短信模板已改为未审核，不能发送');
        if (p.unmapped.length) fail(`模板变量 ${p.unmapped.map((v) => `\${${v}}`).join('、')} 还没有设置取值`);
        if (p.recipients === 0) fail('没有符合条件的接收人');
        if (Number(input.confirm_count) !== p.messages) fail(`预计条数已变为 ${p.messages} 条，请重新预览后再开始`);
        // the group's SMS quota (modules/leader/smsQuota.ts): a job it cannot pay for does not start
        const quota = await quotaOfRegion(ctx.db, ctx.rid);
        if (quota.enabled && p.messages > quota.balance)
          fail(`短信余量不足：本任务预计 ${p.messages} 条，集团剩余 ${quota.balance} 条，请联系集团充值后再开始`);
        const now = new Date();
        let at: Date =
          row.schedule === 'at'
            ? new Date(row.run_at as Date)
            : row.schedule === 'monthly'
              ? nextMonthlyRun(now, row.month_day as number, row.month_time as string)
              : now;
        if (row.schedule === 'at' && at.getTime() <= now.getTime()) fail('定时发送的时间已过，请修改任务的发送时间');
        if (row.urgent !== 'Y') at = afterQuietHours(at);
        const jobId = await enqueueJob(ctx.db, {
          rid: ctx.rid,
          kind: SMS_SEND_KIND,
          payload: { sms_job_id: row.id },
          createdBy: ctx.session.accountId,
          total: p.recipients,
          runAfter: at.getTime() > now.getTime() ? at : null,
        });
        await ctx.db
          .updateTable('sms_jobs')
          .set({ job_id: jobId, next_run_at: at, recipients: p.recipients })
          .where('rid', '=', ctx.rid)
          .where('id', '=', row.id)
          .execute();
      },
    },
    cancel: {
      message: '任务已取消',
      async run(ctx, row) {
        if (row.job_id !== null)
          await ctx.db
            .updateTable('jobs')
            .set({ status: 'cancelled', finished_at: sql`now()` })
            .where('rid', '=', ctx.rid)
            .where('id', '=', row.job_id as number)
            .where('status', '=', 'queued')
            .execute();
      },
      set: () => ({ finished_at: sql`now()`, next_run_at: null }),
    },
  },
});

// ------------------------------------------------------------------------------------ the log

type LogFilters = Omit<HandlerInput<'smsjoblog'>, 'page' | 'limit' | 'sort'>;

/** The community's messages meeting the filters (each has its job: a foreign key). */
function logRows(db: Kysely<DB>, rid: number, f: LogFilters) {
  let qb = db.selectFrom('sms_messages as m').where('m.rid', '=', rid);
  if (f.sms_job_id) qb = qb.where('m.sms_job_id', '=', f.sms_job_id as number);
  if (f.submit_status) qb = qb.where('m.submit_status', '=', f.submit_status);
  if (f.receipt_status) qb = qb.where('m.receipt_status', '=', f.receipt_status);
  if (f.mobile) qb = qb.where('m.mobile', 'like', `%${f.mobile}%`);
  if (f.code) qb = qb.where('m.code', '=', f.code);
  if (f.date_from) qb = qb.where('m.created_at', '>=', sql<Date>`${f.date_from}::date::timestamp AT TIME ZONE current_setting('TimeZone')`);
  if (f.date_to)
    qb = qb.where('m.created_at', '<', sql<Date>`(${f.date_to}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')`);
  return qb;
}

/** The filtered messages with their jobs (the log's rows). */
const logQuery = (db: Kysely<DB>, rid: number, f: LogFilters) =>
  logRows(db, rid, f).innerJoin('sms_jobs as j', (j) => j.onRef('j.rid', '=', 'm.rid').onRef('j.id', '=', 'm.sms_job_id'));

const logColumns = (qb: ReturnType<typeof logQuery>) =>
  qb.select([
    'm.id',
    'm.sms_job_id',
    'j.name as job_name',
    'm.mobile',
    'm.name',
    'm.address',
    'm.content',
    'm.segments',
    'm.submit_status',
    'm.receipt_status',
    'm.code',
    'm.reason',
    'm.submitted_at',
    'm.receipt_at',
    sql<boolean>`m.resend_of IS NOT NULL`.as('resend'),
  ]);

type LogRow = Awaited<ReturnType<ReturnType<typeof logColumns>['execute']>>[number];

const toLogItem = (r: LogRow): SmsMessageItem => ({
  id: Number(r.id),
  sms_job_id: r.sms_job_id,
  job_name: r.job_name,
  mobile: maskMobile(r.mobile),
  name: r.name,
  address: r.address,
  content: r.content,
  segments: r.segments,
  submit_status: r.submit_status,
  submit_status_ch: enumText(SMS_SUBMIT_STATUS, r.submit_status),
  receipt_status: r.receipt_status,
  receipt_status_ch: enumText(SMS_RECEIPT_STATUS, r.receipt_status),
  code: r.code,
  reason: r.reason,
  submit_time: wireTime(r.submitted_at),
  receipt_time: wireTime(r.receipt_at),
  resend: r.resend ? 'Y' : 'N',
});

const smsjoblog = defineMethod('smsjoblog', {
  side: 'community',
  roles: SMS_READERS,
  writes: false,
  summary: '短信发送日志：每条短信（任务、脱敏手机号、业主与房屋、内容、计费条数、提交与回执状态、失败码与原因、时间），新的在前',
  async handler(ctx, input) {
    const page = await listPage(
      logColumns(logQuery(ctx.db, ctx.rid, input)),
      { ...input, sort: input.sort === 'asc' ? 'desc' : 'asc' },
      'm.id',
      // counted without the jobs, which every message has: a filter on the mobile then reads the
      // index (rid, mobile, submitted_at) alone, half the time at 465,000 messages a community
      logRows(ctx.db, ctx.rid, input),
    );
    return { total: page.total, items: page.items.map(toLogItem) };
  },
});

const smsjoblogexport = defineExport('smsjoblogexport', {
  roles: SMS_READERS,
  summary: '按当前筛选条件导出短信发送日志（Excel，最多 10 万行）',
  filename: () => `短信发送日志_${today()}.xlsx`,
  async check({ db, rid }, input) {
    const n = await logQuery(db, rid, input)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    if (n.n > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    const rows = (
      await logColumns(logQuery(db, rid, input))
        .orderBy('m.id', 'desc')
        .limit(EXPORT_MAX)
        .execute()
    ).map(toLogItem);
    return sheetOf(
      '短信发送日志',
      [
        { header: '任务', value: (r) => r.job_name, width: 20 },
        { header: '手机号', value: (r) => r.mobile, width: 14 },
        { header: '业主', value: (r) => r.name },
        { header: '房屋', value: (r) => r.address, width: 24 },
        { header: '内容', value: (r) => r.content, width: 60 },
        { header: '计费条数', value: (r) => r.segments },
        { header: '提交状态', value: (r) => r.submit_status_ch },
        { header: '回执状态', value: (r) => r.receipt_status_ch },
        { header: '失败码', value: (r) => r.code, width: 24 },
        { header: '失败原因', value: (r) => r.reason, width: 40 },
        { header: '提交时间', value: (r) => r.submit_time, width: 20 },
        { header: '回执时间', value: (r) => r.receipt_time, width: 20 },
      ],
      rows,
    );
  },
});

const smsresend = defineMethod('smsresend', {
  side: 'community',
  roles: SMS_SENDERS,
  writes: true,
  summary: '重发失败的短信：勾选的几条，或一个任务的全部失败短信（每条只重发一次：已重发的不再重发）',
  async handler(ctx, input) {
    if (!input.ids.length && !input.sms_job_id) fail('请选择要重发的短信');
    let qb = ctx.db
      .selectFrom('sms_messages as m')
      .innerJoin('sms_jobs as j', (j) => j.onRef('j.rid', '=', 'm.rid').onRef('j.id', '=', 'm.sms_job_id'))
      .select([
        'm.id',
        'm.sms_job_id',
        'm.run_no',
        'm.member_id',
        'm.mobile',
        'm.name',
        'm.address',
        'm.content',
        'm.params',
        'm.segments',
        'j.status',
      ])
      .where('m.rid', '=', ctx.rid)
      .where('m.submit_status', '=', 'F')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('sms_messages as r').select('r.id').whereRef('r.rid', '=', 'm.rid').whereRef('r.resend_of', '=', 'm.id'))),
      )
      .forUpdate('m');
    if (input.ids.length) qb = qb.where('m.id', 'in', input.ids);
    if (input.sms_job_id) qb = qb.where('m.sms_job_id', '=', input.sms_job_id);
    const failed = await qb.execute();
    if (input.ids.length && failed.length !== new Set(input.ids).size) fail('所选短信不存在、不是发送失败的，或已经重发过');
    if (!failed.length) fail('没有可重发的失败短信');
    if (failed.some((m) => m.status === 'C')) fail('任务已取消，不能重发');
    if (failed.some((m) => m.status === 'S' || m.status === 'P')) fail('任务还在发送中，结束后再重发');
    const unsub = new Set(
      (
        await ctx.db
          .selectFrom('sms_unsubscribes')
          .select('mobile')
          .where('rid', '=', ctx.rid)
          .where(
            'mobile',
            'in',
            failed.map((m) => m.mobile),
          )
          .execute()
      ).map((r) => r.mobile),
    );
    const resend = failed.filter((m) => !unsub.has(m.mobile));
    if (!resend.length) fail('所选号码都已退订，不能重发');
    const { randomBytes } = await import('node:crypto');
    await ctx.db
      .insertInto('sms_messages')
      .values(
        resend.map((m) => ({
          rid: ctx.rid,
          sms_job_id: m.sms_job_id,
          run_no: m.run_no,
          member_id: m.member_id,
          mobile: m.mobile,
          name: m.name,
          address: m.address,
          content: m.content,
          params: JSON.stringify(m.params),
          segments: m.segments,
          resend_of: m.id,
          out_id: `${ctx.rid}-${m.sms_job_id}-${m.run_no}-${randomBytes(6).toString('hex')}`,
          created_by: ctx.session.accountId,
        })),
      )
      .execute();
    const jobIds = [...new Set(resend.map((m) => m.sms_job_id))];
    let queued = 0;
    for (const id of jobIds) {
      await ctx.db.updateTable('sms_jobs').set({ status: 'S' }).where('rid', '=', ctx.rid).where('id', '=', id).execute();
      queued = await enqueueJob(ctx.db, {
        rid: ctx.rid,
        kind: SMS_SEND_KIND,
        payload: { sms_job_id: id },
        createdBy: ctx.session.accountId,
        total: resend.length,
      });
      await ctx.db.updateTable('sms_jobs').set({ job_id: queued }).where('rid', '=', ctx.rid).where('id', '=', id).execute();
      await writeFlowLog(ctx, smsJobFlow.def, id, {
        transition: 'resend',
        from: 'F',
        to: 'S',
        input: { count: resend.filter((m) => m.sms_job_id === id).length },
      });
    }
    return reply(
      { count: resend.length, job_id: queued },
      `已提交重发 ${resend.length} 条${unsub.size ? `（${unsub.size} 个号码已退订，未重发）` : ''}`,
    );
  },
});

const smsreceipts = defineMethod('smsreceipts', {
  side: 'community',
  roles: SMS_READERS,
  writes: true,
  summary: '刷新回执：向服务商查询等待回执的短信（每次最多 500 条）',
  async handler(ctx) {
    const { provider } = await smsProviderFor(ctx.db, ctx.rid, ctx.config.dataDir);
    const r = await pollReceipts(ctx.db, ctx.rid, provider);
    return reply(
      { checked: r.checked, updated: r.updated },
      r.checked ? `已查询 ${r.checked} 条，更新 ${r.updated} 条回执` : '没有等待回执的短信',
    );
  },
});

export const smsJobMethods = [
  smssetting,
  smssettingset,
  smstest,
  smsjoblist,
  smsjobinfo,
  smsjobadd,
  smsjobedit,
  smsjobdel,
  smsjobpreview,
  ...smsJobFlowMethods,
  smsjoblog,
  smsjoblogexport,
  smsresend,
  smsreceipts,
];
