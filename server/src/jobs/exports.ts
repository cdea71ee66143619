import { sql, type Kysely } from 'kysely';
import {
  EXPORT_KEEP_DAYS,
  EXPORT_KIND,
  jobInProgress,
  jobPercent,
  type ExportItem,
  type ExportQueued,
  type JobStatus,
  type MethodName,
  RC,
} from '@wuye/contract';
import { maskContact, seesWholeContact } from '@wuye/contract/team/contact';
import type { DB } from '../db/schema.js';
import { recordAudit } from '../http/dispatcher.js';
import { fail } from '../http/errors.js';
import {
  defineMethod,
  reply,
  type CommunityCtx,
  type HandlerInput,
  type MethodDef,
  type MethodSpec,
  type Roles,
} from '../http/registry.js';
import { writeSheet, type Sheet } from '../lib/excel.js';
import { listPage } from '../lib/paging.js';
import { wireTime } from '../lib/wire.js';
import { enqueueJob, registerDailyJob, registerJobKind } from './queue.js';
import { withRegionDictLabels } from '../modules/setup/dictLabels.js';

/** What an export reads: the community's database, as a handler's ctx.db and ctx.rid. */
export interface ExportScope {
  db: Kysely<DB>;
  rid: number;
}

interface ExportSpec<M extends MethodName> {
  roles: Roles;
  summary: string;
  /** the workbook's name, shown in the download centre from the moment the export is queued */
  filename: (input: HandlerInput<M>) => string;
  /** runs in the call, before anything is queued: refuses an export that would not be written (too many rows) */
  check?: (scope: ExportScope, input: HandlerInput<M>) => Promise<void>;
  /** runs in the job: reads the rows into the sheet */
  sheet: (scope: ExportScope, input: HandlerInput<M>) => Promise<Sheet>;
}

interface ExportPayload {
  method: string;
  input: unknown;
  filename: string;
  /** the requester saw owners' contact data whole when it asked (CONTACT_WHOLE); absent: masked */
  whole_contact?: boolean;
}

const exportsByMethod = new Map<string, ExportSpec<MethodName>>();

/**
 * Declares an export method. The call checks and queues it as a job (docs/architecture.md#jobs: long
 * work runs as a job with progress) and answers the job's id; a worker reads the rows, writes the
 * workbook with progress and keeps it in export_files, where the page fetches it when the job is
 * done (exportfile) and the download centre (exportlist) offers it again for EXPORT_KEEP_DAYS days.
 */
export function defineExport<M extends MethodName>(name: M, spec: ExportSpec<M>): MethodDef {
  exportsByMethod.set(name, spec as unknown as ExportSpec<MethodName>);
  const handler = async (ctx: CommunityCtx, input: HandlerInput<M>) => {
    await spec.check?.(ctx, input);
    const filename = spec.filename(input);
    const payload: ExportPayload = { method: name, input, filename, whole_contact: seesWholeContact(ctx.session.roles) };
    const jobId = await enqueueJob(ctx.db, { rid: ctx.rid, kind: EXPORT_KIND, createdBy: ctx.session.accountId, payload: { ...payload } });
    return reply<ExportQueued>({ job_id: jobId, filename }, '已提交导出，完成后自动下载，也可在下载中心下载');
  };
  const summary = `${spec.summary}。排队为导出任务，返回 job_id 与文件名：jobinfo 查看进度，完成后 exportfile 下载（下载中心保留 ${EXPORT_KEEP_DAYS} 天）`;
  return defineMethod(name, { side: 'community', roles: spec.roles, writes: true, summary, handler } as unknown as MethodSpec<M>);
}

registerJobKind(
  EXPORT_KIND,
  async (ctx) => {
    const { method, input, filename, whole_contact: whole } = ctx.payload as unknown as ExportPayload;
    const spec = exportsByMethod.get(method);
    const rid = ctx.job.rid;
    if (!spec || rid === null) throw new Error(`未知的导出 ${method}`);
    // the sheet's texts in the words of the community's group (the dictionary's labels)
    // (the cells are written from the rows as the workbook is, so the writing runs with them too)
    const { sheet, content } = await withRegionDictLabels(ctx.db, rid, async () => {
      const written = await spec.sheet({ db: ctx.db, rid }, input as HandlerInput<MethodName>);
      const holdsContact = written.contact?.some(Boolean) ?? false;
      const sheet = holdsContact && !whole ? maskedSheet(written) : written;
      if (holdsContact && whole) await auditWholeContact(ctx.db, rid, ctx.job.created_by, method, written.rows);
      await ctx.progress(0, sheet.rows);
      return { sheet, content: await writeSheet(sheet, (done) => ctx.progress(done)) };
    });
    // a worker that died after this line runs the job again: the second file replaces the first
    await ctx.db
      .insertInto('export_files')
      .values({ rid, job_id: ctx.job.id, filename, content, rows: sheet.rows })
      .onConflict((oc) => oc.columns(['rid', 'job_id']).doUpdateSet({ content, rows: sheet.rows, created_at: sql`now()` }))
      .execute();
    await ctx.progress(sheet.rows);
    return { filename, rows: sheet.rows, size: content.length };
  },
  { viewers: 'creator' },
);

/** The sheet with its owners' contact columns masked (docs/product.md#contact-masking). */
function maskedSheet(sheet: Sheet): Sheet {
  const kinds = sheet.contact ?? [];
  return {
    ...sheet,
    *cells() {
      for (const row of sheet.cells()) yield row.map((v, i) => (kinds[i] && typeof v === 'string' ? maskContact(kinds[i], v) : v));
    },
  };
}

/** Who exported owners' contact data whole, and how many rows, goes on the operation log. */
async function auditWholeContact(db: Kysely<DB>, rid: number, accountId: number | null, method: string, rows: number): Promise<void> {
  const who =
    accountId === null ? undefined : await db.selectFrom('accounts').select('username').where('id', '=', accountId).executeTakeFirst();
  await recordAudit(db, {
    session: accountId === null ? null : { rid, accountId, username: who?.username ?? '' },
    side: 'community',
    method,
    input: { rows },
    outcome: RC.SUCCESS,
    message: `导出含业主完整手机号/证件号 ${rows} 行`,
    ip: '',
  });
}

export const EXPORT_PURGE = 'export_purge';

// files older than EXPORT_KEEP_DAYS go once a day; their jobs stay in the list as 已过期
registerDailyJob(EXPORT_PURGE, {});
registerJobKind(EXPORT_PURGE, async (ctx) => {
  const res = await ctx.db
    .deleteFrom('export_files')
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${EXPORT_KEEP_DAYS})`)
    .executeTakeFirst();
  return { deleted: Number(res.numDeletedRows) };
});

const STATUS_CH: Record<JobStatus, string> = { queued: '排队中', running: '生成中', done: '可下载', failed: '失败', cancelled: '已取消' };

/** The signed-in account's own export jobs of the community: exports hold owners' personal data. */
const ownExports = (db: Kysely<DB>, rid: number, accountId: number) =>
  db.selectFrom('jobs as j').where('j.rid', '=', rid).where('j.kind', '=', EXPORT_KIND).where('j.created_by', '=', accountId);

/** Those exports with their file (f), where it is kept: none until written or after EXPORT_KEEP_DAYS. */
const ownExportsWithFiles = (db: Kysely<DB>, rid: number, accountId: number) =>
  ownExports(db, rid, accountId).leftJoin('export_files as f', (j) => j.onRef('f.rid', '=', 'j.rid').onRef('f.job_id', '=', 'j.id'));

const exportlist = defineMethod('exportlist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '下载中心：本人的导出任务（文件名、状态、进度、行数、大小、过期时间），新的在前',
  async handler(ctx, input) {
    const qb = ownExportsWithFiles(ctx.db, ctx.rid, ctx.session.accountId).select([
      'j.id',
      'j.status',
      'j.progress',
      'j.total',
      'j.error',
      'j.created_at',
      'j.finished_at',
      sql<string>`j.payload->>'filename'`.as('filename'),
      'f.rows',
      'f.created_at as file_at',
      sql<number | null>`octet_length(f.content)`.as('size'),
    ]);
    const page = await listPage(qb, input, 'j.id', ownExports(ctx.db, ctx.rid, ctx.session.accountId));
    return { total: page.total, items: page.items.map(toExportItem) };
  },
});

interface ExportRow {
  id: number;
  status: JobStatus;
  progress: number;
  total: number;
  error: string;
  filename: string;
  created_at: Date;
  finished_at: Date | null;
  rows: number | null;
  file_at: Date | null;
  size: number | null;
}

function toExportItem(r: ExportRow): ExportItem {
  const kept = r.file_at !== null;
  const expired = r.status === 'done' && !kept;
  return {
    id: r.id,
    filename: r.filename,
    status: r.status,
    status_ch: expired ? '已过期' : STATUS_CH[r.status],
    percent: jobPercent(r),
    rows: r.rows ?? 0,
    size: Number(r.size ?? 0),
    error: r.error,
    create_time: wireTime(r.created_at),
    finish_time: wireTime(r.finished_at),
    expire_time: kept ? wireTime(new Date(r.file_at!.getTime() + EXPORT_KEEP_DAYS * 86_400_000)) : '',
    downloadable: kept ? 'Y' : 'N',
  };
}

const exportfile = defineMethod('exportfile', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '下载一个已完成的导出文件（仅本人的导出）',
  async handler(ctx, input) {
    const job = await ownExportsWithFiles(ctx.db, ctx.rid, ctx.session.accountId)
      .where('j.id', '=', input.id)
      .select(['j.status', 'j.error', 'f.filename', 'f.content'])
      .executeTakeFirst();
    if (!job) return fail('导出记录不存在');
    if (jobInProgress(job.status)) return fail('导出尚未完成，请稍候');
    if (job.status !== 'done') return fail(`导出失败：${job.error || '未知原因'}`);
    if (!job.content || !job.filename) return fail(`导出文件已过期（保留 ${EXPORT_KEEP_DAYS} 天），请重新导出`);
    return { filename: job.filename, content_base64: Buffer.from(job.content).toString('base64') };
  },
});

const exportdel = defineMethod('exportdel', {
  side: 'community',
  roles: 'any',
  writes: true,
  summary: '从下载中心删除一个导出（连同文件，仅本人的导出；进行中的不能删除）',
  async handler(ctx, input) {
    const job = await ownExports(ctx.db, ctx.rid, ctx.session.accountId)
      .where('j.id', '=', input.id)
      .select('j.status')
      .forUpdate()
      .executeTakeFirst();
    if (!job) return fail('导出记录不存在');
    if (jobInProgress(job.status)) return fail('导出进行中，完成后才能删除');
    await ctx.db.deleteFrom('jobs').where('id', '=', input.id).where('rid', '=', ctx.rid).execute();
    return reply({ id: input.id }, '已删除');
  },
});

export const exportMethods = [exportlist, exportfile, exportdel];

/** True for a method declared with defineExport (it answers a job id, not the file). */
export const isExportMethod = (name: string): boolean => exportsByMethod.has(name);
