/**
 * Sending an SMS job, as a queued job (server/src/jobs): the run's messages are written first (one
 * transaction, with the job's move to 发送中), then each message is **claimed** (its own committed
 * update, W → C) before the provider is called, and its outcome recorded after. A process killed
 * anywhere in between leaves at most the claimed messages unsettled: when the job is picked up
 * again, each is looked up at the provider by our out id (found: submitted; not found: failed as
 * 中断, never sent again by itself; 重发 sends it on the operator's word). Nothing is sent twice.
 *
 * Quiet hours (21:00–08:00, the business time zone) pause a job that is not urgent: it is queued
 * again for 08:00 and carries on there.
 */
import crypto from 'node:crypto';
import { enumText, SMS_JOB_STATUS, SMS_QUIET, zoneOffsetMinutes } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { businessTimeZone, loadConfig } from '../../config.js';
import { enqueueJob, registerJobKind, type JobContext } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { audienceRecipients, readsArrears, renderMessage, screenRecipients, type VarMap } from './smsAudience.js';
import { SANDBOX_DELIVERY_MS, smsProviderFor, type SmsProvider } from './smsProvider.js';

export const SMS_SEND_KIND = 'sms_send';
export const SMS_RECEIPTS_KIND = 'sms_receipts';
/** Who sees an SMS job's progress besides its starter (jobinfo). */
export const SMS_JOB_VIEWERS = ['setup', 'smssend'] as const;

// fault injection for the crash test (sms-crash.test.ts): a pause between a message's claim and its
// sending, so a SIGKILL lands mid-job however fast the machine
const SEND_DELAY_MS = Number(process.env.SMS_SEND_DELAY_MS ?? 0);

const ZONE_OFFSET_MS = zoneOffsetMinutes(businessTimeZone()) * 60_000;

/** Hours of the business day when SMS wait: from `from` o'clock up to `to` (over midnight when from > to). */
export interface QuietWindow {
  from: number;
  to: number;
}

/** True in quiet hours (by default 21:00–08:00 business time). */
export function inQuietHours(at: Date = new Date(), window: QuietWindow = SMS_QUIET): boolean {
  const h = new Date(at.getTime() + ZONE_OFFSET_MS).getUTCHours();
  return window.from > window.to ? h >= window.from || h < window.to : h >= window.from && h < window.to;
}

/** The first moment at or after `at` outside quiet hours (the window's end, business time, when inside them). */
export function afterQuietHours(at: Date, window: QuietWindow = SMS_QUIET): Date {
  if (!inQuietHours(at, window)) return at;
  const local = new Date(at.getTime() + ZONE_OFFSET_MS);
  const end = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), window.to);
  return new Date((end > local.getTime() ? end : end + 86_400_000) - ZONE_OFFSET_MS);
}

/** The next monthly run after `after`: day `day` at `hhmm`, business time. */
export function nextMonthlyRun(after: Date, day: number, hhmm: string): Date {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const local = new Date(after.getTime() + ZONE_OFFSET_MS);
  for (let k = 0; k < 3; k++) {
    const t = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + k, day, h, m) - ZONE_OFFSET_MS;
    if (t > after.getTime()) return new Date(t);
  }
  throw new Error('unreachable');
}

/** A step of a job's life outside its transition methods, in its timeline (operator: 系统). */
async function logStep(
  db: Kysely<DB>,
  rid: number,
  id: number,
  transition: string,
  from: string,
  to: string,
  input: Record<string, unknown> = {},
) {
  await db
    .insertInto('workflow_logs')
    .values({
      rid,
      flow: 'smsjob',
      row_id: id,
      transition,
      from_state: from,
      to_state: to,
      input: JSON.stringify(input),
      operator: '系统',
      created_by: null,
    })
    .execute();
}

/** Writes the messages of a run: the recipients now, screened, each rendered. Answers how many. */
export async function writeRunMessages(
  db: Kysely<DB>,
  rid: number,
  jobId: number,
  runNo: number,
  createdBy: number | null,
): Promise<number> {
  const job = await db
    .selectFrom('sms_jobs as j')
    .innerJoin('sms_templates as t', (j) => j.onRef('t.rid', '=', 'j.rid').onRef('t.id', '=', 'j.template_id'))
    .innerJoin('regions as g', 'g.id', 'j.rid')
    .select(['j.audience', 'j.var_map', 'j.dedupe_days', 't.content', 'g.title as community'])
    .where('j.rid', '=', rid)
    .where('j.id', '=', jobId)
    .executeTakeFirstOrThrow();
  const settings = await db.selectFrom('sms_settings').select('sign_name').where('rid', '=', rid).executeTakeFirst();
  const all = await audienceRecipients(db, rid, job.audience as never, { arrears: readsArrears(job.var_map as VarMap) });
  const { keep } = await screenRecipients(db, rid, all, job.dedupe_days);
  const ctx = { signName: settings?.sign_name || '物业服务', community: job.community, date: today() };
  for (let i = 0; i < keep.length; i += 500) {
    const chunk = keep.slice(i, i + 500);
    await db
      .insertInto('sms_messages')
      .values(
        chunk.map((r) => {
          const m = renderMessage(job.content, job.var_map as VarMap, r, ctx);
          return {
            rid,
            sms_job_id: jobId,
            run_no: runNo,
            member_id: r.member_id,
            mobile: r.mobile,
            name: r.name,
            address: r.address,
            content: m.content,
            params: JSON.stringify(m.params),
            segments: m.segments,
            out_id: `${rid}-${jobId}-${runNo}-${crypto.randomBytes(6).toString('hex')}`,
            created_by: createdBy,
          };
        }),
      )
      .execute();
  }
  return keep.length;
}

/** Failed messages not resent since, and submitted ones, of a job: its counts. */
async function recount(db: Kysely<DB>, rid: number, jobId: number) {
  const c = await db
    .selectFrom('sms_messages as m')
    .select([
      sql<number>`count(*) FILTER (WHERE m.submit_status = 'S')::int`.as('sent'),
      sql<number>`count(*) FILTER (WHERE m.submit_status = 'F' AND NOT EXISTS (
        SELECT 1 FROM sms_messages r WHERE r.rid = m.rid AND r.resend_of = m.id))::int`.as('failed'),
      sql<number>`count(*) FILTER (WHERE m.submit_status IN ('W', 'C'))::int`.as('waiting'),
    ])
    .where('m.rid', '=', rid)
    .where('m.sms_job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  await db.updateTable('sms_jobs').set({ sent: c.sent, failed: c.failed }).where('rid', '=', rid).where('id', '=', jobId).execute();
  return c;
}

/** Claimed messages a dead worker left: submitted if the provider has them, else failed as interrupted. */
async function settleClaimed(db: Kysely<DB>, rid: number, jobId: number, provider: SmsProvider): Promise<void> {
  const claimed = await db
    .selectFrom('sms_messages')
    .select(['id', 'out_id', 'mobile', 'claimed_at'])
    .where('rid', '=', rid)
    .where('sms_job_id', '=', jobId)
    .where('submit_status', '=', 'C')
    .execute();
  for (const m of claimed) {
    const found = await provider.lookup({ outId: m.out_id, mobile: m.mobile, claimedAt: m.claimed_at ?? new Date() });
    await db
      .updateTable('sms_messages')
      .set(
        found
          ? { submit_status: 'S', receipt_status: 'W', biz_id: found.bizId, submitted_at: sql`coalesce(claimed_at, now())` }
          : {
              submit_status: 'F',
              code: 'INTERRUPTED',
              reason: '发送中断：服务商没有这条短信的记录，为免重复未自动重发，可手动重发',
              submitted_at: sql`now()`,
            },
      )
      .where('rid', '=', rid)
      .where('id', '=', m.id)
      .where('submit_status', '=', 'C')
      .execute();
  }
}

/** Claims the next waiting message of a job: committed before the provider is called. */
async function claimNext(db: Kysely<DB>, rid: number, jobId: number) {
  return db
    .updateTable('sms_messages')
    .set({ submit_status: 'C', claimed_at: sql`now()` })
    .where('rid', '=', rid)
    .where(
      'id',
      '=',
      sql<number>`(SELECT id FROM sms_messages WHERE rid = ${rid} AND sms_job_id = ${jobId} AND submit_status = 'W'
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)`,
    )
    .where('submit_status', '=', 'W')
    .returning(['id', 'mobile', 'content', 'params', 'out_id', 'sms_job_id'])
    .executeTakeFirst();
}

export interface SendDeps {
  provider: SmsProvider;
  signName: string;
  /** the queue job doing the work */
  queueJobId: number;
  progress?: (done: number, total?: number) => Promise<void>;
  now?: () => Date;
}

/**
 * One go at a job: starts its run (待发送 → 发送中, messages written) or resumes it, sends what
 * waits, and ends it (已完成 / 部分失败; a monthly job goes back to 待发送 for its next run).
 */
export async function runSmsJob(db: Kysely<DB>, rid: number, jobId: number, deps: SendDeps): Promise<Record<string, unknown>> {
  const now = deps.now ?? (() => new Date());
  const started = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sms_jobs')
      .select(['status', 'run_no', 'created_by', 'urgent'])
      .where('rid', '=', rid)
      .where('id', '=', jobId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.status === 'D' || row.status === 'C') return null;
    if (row.status === 'P') {
      const runNo = row.run_no + 1;
      await trx
        .updateTable('sms_jobs')
        .set({ status: 'S', run_no: runNo, started_at: sql`now()`, finished_at: null, job_id: deps.queueJobId, next_run_at: null })
        .where('rid', '=', rid)
        .where('id', '=', jobId)
        .execute();
      const n = await writeRunMessages(trx, rid, jobId, runNo, row.created_by);
      await trx.updateTable('sms_jobs').set({ recipients: n }).where('rid', '=', rid).where('id', '=', jobId).execute();
      await logStep(trx, rid, jobId, 'sending', 'P', 'S', { recipients: n });
    }
    return row;
  });
  if (!started) return { skipped: true };
  await settleClaimed(db, rid, jobId, deps.provider);
  const total = Number(
    (
      await db
        .selectFrom('sms_messages')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', rid)
        .where('sms_job_id', '=', jobId)
        .where('submit_status', '=', 'W')
        .executeTakeFirstOrThrow()
    ).n,
  );
  let done = 0;
  await deps.progress?.(0, total);
  for (;;) {
    const state = await db
      .selectFrom('sms_jobs')
      .select(['status', 'urgent'])
      .where('rid', '=', rid)
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!state || state.status === 'C') return { cancelled: true, sent: done };
    if (state.urgent !== 'Y' && inQuietHours(now())) {
      // paused until 08:00: a new queue job carries on then
      const at = afterQuietHours(now());
      const next = await enqueueJob(db, { rid, kind: SMS_SEND_KIND, payload: { sms_job_id: jobId }, createdBy: null, runAfter: at });
      await db.updateTable('sms_jobs').set({ job_id: next, next_run_at: at }).where('rid', '=', rid).where('id', '=', jobId).execute();
      await logStep(db, rid, jobId, 'paused', 'S', 'S', { until: at.toISOString() });
      return { paused: true, sent: done };
    }
    const msg = await claimNext(db, rid, jobId);
    if (!msg) break;
    if (SEND_DELAY_MS > 0) await new Promise((r) => setTimeout(r, SEND_DELAY_MS));
    const params = (typeof msg.params === 'string' ? JSON.parse(msg.params) : msg.params) as Record<string, string>;
    const template = await db
      .selectFrom('sms_jobs as j')
      .innerJoin('sms_templates as t', (j) => j.onRef('t.rid', '=', 'j.rid').onRef('t.id', '=', 'j.template_id'))
      .select('t.code')
      .where('j.rid', '=', rid)
      .where('j.id', '=', jobId)
      .executeTakeFirstOrThrow();
    const res = await deps.provider.send({
      mobile: msg.mobile,
      signName: deps.signName,
      templateCode: template.code,
      params,
      content: msg.content,
      outId: msg.out_id,
    });
    await db
      .updateTable('sms_messages')
      .set(
        res.ok
          ? { submit_status: 'S', receipt_status: 'W', biz_id: res.bizId, submitted_at: sql`now()`, code: '', reason: '' }
          : { submit_status: 'F', code: res.code.slice(0, 100), reason: res.reason.slice(0, 500), submitted_at: sql`now()` },
      )
      .where('rid', '=', rid)
      .where('id', '=', msg.id)
      .where('submit_status', '=', 'C')
      .execute();
    done++;
    if (done % 10 === 0 || done === total) await deps.progress?.(done, total);
  }
  const c = await recount(db, rid, jobId);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sms_jobs')
      .select(['status', 'schedule', 'month_day', 'month_time'])
      .where('rid', '=', rid)
      .where('id', '=', jobId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.status === 'C') return;
    const to = c.failed > 0 ? 'F' : 'Y';
    if (row.schedule === 'monthly') {
      const at = nextMonthlyRun(now(), row.month_day, row.month_time);
      const next = await enqueueJob(trx, { rid, kind: SMS_SEND_KIND, payload: { sms_job_id: jobId }, createdBy: null, runAfter: at });
      await trx
        .updateTable('sms_jobs')
        .set({ status: 'P', finished_at: sql`now()`, job_id: next, next_run_at: at })
        .where('rid', '=', rid)
        .where('id', '=', jobId)
        .execute();
      await logStep(trx, rid, jobId, 'done', row.status, 'P', { sent: c.sent, failed: c.failed, result: enumText(SMS_JOB_STATUS, to) });
    } else {
      await trx
        .updateTable('sms_jobs')
        .set({ status: to, finished_at: sql`now()` })
        .where('rid', '=', rid)
        .where('id', '=', jobId)
        .execute();
      if (row.status !== to) await logStep(trx, rid, jobId, 'done', row.status, to, { sent: c.sent, failed: c.failed });
    }
  });
  await queueReceipts(db, rid, deps.provider.name === 'sandbox' ? SANDBOX_DELIVERY_MS + 500 : 60_000);
  return { sent: c.sent, failed: c.failed };
}

/** Asks for receipts a little later (once per community while one is queued). */
export async function queueReceipts(db: Kysely<DB>, rid: number, afterMs: number, tries = 0): Promise<void> {
  const queued = await db
    .selectFrom('jobs')
    .select('id')
    .where('rid', '=', rid)
    .where('kind', '=', SMS_RECEIPTS_KIND)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (queued) return;
  await enqueueJob(db, { rid, kind: SMS_RECEIPTS_KIND, payload: { tries }, createdBy: null, runAfter: new Date(Date.now() + afterMs) });
}

/** Records the receipts the provider has for the community's awaited messages (at most 500 a go); answers how many changed. */
export async function pollReceipts(
  db: Kysely<DB>,
  rid: number,
  provider: SmsProvider,
): Promise<{ checked: number; updated: number; waiting: number }> {
  const waiting = await db
    .selectFrom('sms_messages')
    .select(['id', 'out_id', 'mobile', 'biz_id', 'submitted_at'])
    .where('rid', '=', rid)
    .where('submit_status', '=', 'S')
    .where('receipt_status', '=', 'W')
    .orderBy('id')
    .limit(500)
    .execute();
  const receipts = await provider.receipts(
    waiting.map((m) => ({ outId: m.out_id, mobile: m.mobile, bizId: m.biz_id, submittedAt: m.submitted_at ?? new Date() })),
  );
  let updated = 0;
  for (const r of receipts) {
    if (r.status === 'W') continue;
    const res = await db
      .updateTable('sms_messages')
      .set({
        receipt_status: r.status,
        receipt_at: r.at ?? new Date(),
        ...(r.status === 'N' ? { code: r.code ?? '', reason: r.reason ?? '' } : {}),
      })
      .where('rid', '=', rid)
      .where('out_id', '=', r.outId)
      .where('receipt_status', '=', 'W')
      .executeTakeFirst();
    updated += Number(res.numUpdatedRows);
  }
  return { checked: waiting.length, updated, waiting: waiting.length - updated };
}

const dataDir = () => loadConfig(process.env).dataDir;

registerJobKind(
  SMS_SEND_KIND,
  async (ctx: JobContext) => {
    const rid = ctx.job.rid;
    const jobId = Number(ctx.payload.sms_job_id);
    if (rid === null || !jobId) throw new Error('短信任务参数不正确');
    const { provider, signName } = await smsProviderFor(ctx.db, rid, dataDir());
    try {
      return await runSmsJob(ctx.db, rid, jobId, { provider, signName, queueJobId: ctx.job.id, progress: ctx.progress });
    } catch (err) {
      // the job ends failed: what was sent stays sent; what waits is sent by 重发 (smsresend)
      await recount(ctx.db, rid, jobId);
      await ctx.db
        .updateTable('sms_jobs')
        .set({ status: 'F', finished_at: sql`now()` })
        .where('rid', '=', rid)
        .where('id', '=', jobId)
        .where('status', '=', 'S')
        .execute();
      throw err;
    }
  },
  {
    viewers: SMS_JOB_VIEWERS,
    async abandoned(db, job) {
      if (job.rid === null) return;
      await db
        .updateTable('sms_jobs')
        .set({ status: 'F', finished_at: sql`now()` })
        .where('rid', '=', job.rid)
        .where('job_id', '=', job.id)
        .where('status', '=', 'S')
        .execute();
    },
  },
);

registerJobKind(
  SMS_RECEIPTS_KIND,
  async (ctx) => {
    const rid = ctx.job.rid;
    if (rid === null) return null;
    const { provider } = await smsProviderFor(ctx.db, rid, dataDir());
    const res = await pollReceipts(ctx.db, rid, provider);
    const tries = Number(ctx.payload.tries ?? 0);
    // receipts still awaited: asked again, less often, for about a day
    if (res.waiting > 0 && tries < 30) await queueReceipts(ctx.db, rid, Math.min(60_000 * 2 ** Math.min(tries, 6), 3_600_000), tries + 1);
    return res;
  },
  { viewers: SMS_JOB_VIEWERS },
);
