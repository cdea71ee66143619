import ExcelJS from 'exceljs';
import {
  hasAnyRole,
  jobInProgress,
  RC,
  type FileAnswer,
  type ImportRowError,
  type JobStatus,
  type MethodName,
  type Paging,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.js';
import { BizError, fail, MESSAGES } from '../http/errors.js';
import {
  defineMethod,
  reply,
  type CommunityCtx,
  type HandlerInput,
  type MethodDef,
  type MethodSpec,
  type Roles as MethodRoles,
} from '../http/registry.js';
import { errorReport } from '../lib/excel.js';
import { listPage } from '../lib/paging.js';
import { readUpload } from '../lib/uploads.js';
import { wireTime } from '../lib/wire.js';
import { cellText } from '../lib/xlsxWriter.js';
import { UploadRefused, type ReadSheet, type SheetRow } from '../lib/xlsxReader.js';
import { undoJobWrites, type RunBatch } from './batches.js';
import { enqueueJob, registerJobKind, type JobRow } from './queue.js';

/** An import's roles name role lists (or every account): the job's viewers are those roles. */
type Roles = Exclude<MethodRoles, 'staff'>;

/** What an import's check and write are given: the community's database, the job and the upload's options. */
export interface ImportScope {
  db: Kysely<DB>;
  rid: number;
  job: JobRow;
  /** the upload's options (e.g. skip_existing), as the upload's `options` gave them */
  options: Record<string, unknown>;
  log: FastifyBaseLogger;
  /** progress after a batch (JobContext.step) */
  step(done: number, total?: number): Promise<void>;
  /** one batch of the write in its own short transaction; its inserts, noted, are undone if the import fails */
  batch: RunBatch;
}

/** The template workbook: the data sheet (headers, example or prefilled rows) and its instructions. */
export interface ImportTemplate {
  filename: string;
  sheet: string;
  headers: readonly string[];
  /** column width by header (default 12) */
  widths?: Record<string, number>;
  rows: Array<Array<string | number>>;
  help: { sheet: string; lines: Array<[string, string]> };
}

interface ImportSpec<M extends MethodName, T extends MethodName, Plan, R extends { errors: ImportRowError[] }> {
  kind: string;
  /** what is imported, in the user's words: 房屋, 住户, 历史账单, 抄表 */
  label: string;
  methods: { template: T; upload: M; errors: MethodName };
  summaries: { template: string; upload: string };
  /** who uploads */
  roles: Roles;
  /** who reads the import log, the error reports and the jobs of this kind (default: roles) */
  readRoles?: Roles;
  /** who downloads the template (default: readRoles) */
  templateRoles?: Roles;
  /** headers the file must have */
  required: readonly string[];
  maxRows: number;
  /** row errors a result keeps at most (the page and the report stay usable) */
  maxErrors: number;
  /** what the job needs of the upload's fields besides the file */
  /** checks the upload's other fields against the community in the call (a password against its policy) */
  accept?: (ctx: CommunityCtx, input: HandlerInput<M>) => Promise<void>;
  /** may be slow (a password's hash): it runs with the upload's reading, before the call's transaction */
  options?: (input: HandlerInput<M>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  template(ctx: CommunityCtx, input: HandlerInput<T>): Promise<ImportTemplate>;
  /** checks every row against the community's data; nothing is written when any row has an error */
  check(scope: ImportScope, rows: SheetRow[]): Promise<{ errors: ImportRowError[]; plan: Plan }>;
  /** the result of a file with bad rows: nothing imported, the rows to fix */
  rejected(errors: ImportRowError[]): R;
  /**
   * writes the checked plan in batches (scope.batch) and answers the result; what the batches
   * inserted is deleted again when the write fails or the job starts over after its process died
   */
  write(scope: ImportScope, plan: Plan): Promise<R>;
  /** the message when another user wrote the same rows meanwhile (a unique violation undid the write) */
  raced: string;
}

interface KindInfo {
  label: string;
  /** who uploads, and so who may delete a record */
  roles: Roles;
  readRoles: Roles;
}

const kinds = new Map<string, KindInfo>();

/** Uploads read before the transaction (the method's prepare), for its handler. */
const readUploads = new WeakMap<object, ReadSheet>();
/** The job options the prepare worked out of the upload's fields, for its handler. */
const preparedOptions = new WeakMap<object, Record<string, unknown>>();

/** The import kinds, each with its label and who reads its log. */
export const importKinds = (): ReadonlyMap<string, KindInfo> => kinds;

/**
 * Declares an Excel import, the sibling of defineExport: answers its three methods, the template
 * download, the upload and the error report. The upload is read in a worker thread before the
 * call's transaction opens (every size bounded, lib/xlsxReader.ts), its headers and row count are
 * checked in the call, and a job keeps the file (import_files), not its rows: the job reads it
 * again, checks every row and writes in short batches, undone together if the write fails. Every import's jobs form the one import log
 * (importLog), which an operator can prune (importdel).
 */
export function defineImport<M extends MethodName, T extends MethodName, Plan, R extends { errors: ImportRowError[] }>(
  spec: ImportSpec<M, T, Plan, R>,
): MethodDef[] {
  const readRoles = spec.readRoles ?? spec.roles;
  kinds.set(spec.kind, { label: spec.label, roles: spec.roles, readRoles });

  const template = defineMethod(spec.methods.template, {
    side: 'community',
    roles: spec.templateRoles ?? readRoles,
    writes: false,
    summary: spec.summaries.template,
    handler: async (ctx: CommunityCtx, input: HandlerInput<T>) => templateFile(await spec.template(ctx, input)),
  } as unknown as MethodSpec<T>);

  const upload = defineMethod(spec.methods.upload, {
    side: 'community',
    roles: spec.roles,
    writes: true,
    summary: spec.summaries.upload,
    async prepare(input: { file_base64: string; filename: string }) {
      if (!/\.xlsx$/i.test(input.filename)) fail('请上传 .xlsx 格式的 Excel 文件');
      try {
        readUploads.set(input, await readUpload(Buffer.from(input.file_base64, 'base64'), { rows: spec.maxRows }));
      } catch (err) {
        if (err instanceof UploadRefused) fail(err.message);
        throw err;
      }
      preparedOptions.set(input, (await spec.options?.(input as unknown as HandlerInput<M>)) ?? {});
    },
    async handler(ctx: CommunityCtx, input: HandlerInput<M> & { file_base64: string; filename: string }) {
      const sheet = readUploads.get(input);
      if (!sheet) throw new Error('the upload was not read before its call');
      const missing = spec.required.filter((h) => !sheet.headers.includes(h));
      if (missing.length) fail(`表头不正确，缺少列：${missing.join('、')}，请下载模板后填写`);
      if (sheet.rows.length === 0) fail('文件中没有数据行');
      await spec.accept?.(ctx, input);
      const jobId = await enqueueJob(ctx.db, {
        rid: ctx.rid,
        kind: spec.kind,
        payload: preparedOptions.get(input) ?? {},
        createdBy: ctx.session.accountId,
        total: sheet.rows.length,
      });
      await ctx.db
        .insertInto('import_files')
        .values({ rid: ctx.rid, job_id: jobId, filename: input.filename, content: Buffer.from(input.file_base64, 'base64') })
        .execute();
      return reply({ job_id: jobId }, `已开始导入 ${sheet.rows.length} 行，请稍候`);
    },
  } as unknown as MethodSpec<M>);

  const errors = defineMethod(spec.methods.errors, {
    side: 'community',
    roles: readRoles,
    writes: false,
    summary: `下载一次${spec.label}导入的错误报告（行号、列、原因）`,
    async handler(ctx: CommunityCtx, input: { job_id: number }): Promise<FileAnswer> {
      const job = await ctx.db
        .selectFrom('jobs')
        .select(['status', 'result'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.job_id)
        .where('kind', '=', spec.kind)
        .executeTakeFirst();
      if (!job) return fail('导入记录不存在');
      if (job.status !== 'done') fail('导入尚未完成');
      const rows = (job.result as { errors?: ImportRowError[] } | null)?.errors ?? [];
      if (!rows.length) fail('该次导入没有错误行');
      return errorReport(`${spec.label}导入错误报告_${input.job_id}.xlsx`, rows);
    },
  } as unknown as MethodSpec<MethodName>);

  registerJobKind(
    spec.kind,
    async (ctx): Promise<R> => {
      const rid = ctx.job.rid;
      if (rid === null) throw new Error('导入任务缺少小区');
      // an earlier attempt whose process died: what its batches wrote goes, then the file is checked afresh
      await undoJobWrites(ctx.db, ctx.job.id);
      const rows = await uploadedRows(ctx.db, rid, ctx.job, spec.maxRows);
      await ctx.progress(0, rows.length);
      const scope: ImportScope = { db: ctx.db, rid, job: ctx.job, options: ctx.payload, log: ctx.log, step: ctx.step, batch: ctx.batch };
      const checked = await spec.check(scope, rows);
      // any bad row: nothing is imported, the rows to fix are reported
      if (checked.errors.length) return spec.rejected(checked.errors.slice(0, spec.maxErrors));
      if (await ctx.cancelled()) throw new Error('任务已取消');
      const result = await spec.write(scope, checked.plan).catch(async (err: unknown) => {
        const failure = (err as { code?: string }).code === '23505' ? new Error(spec.raced) : (err as Error);
        // all or nothing: the batches written so far are deleted before the job reports its failure
        await undoJobWrites(ctx.db, ctx.job.id).catch((undoErr: unknown) => {
          ctx.log.error({ err: undoErr, job: ctx.job.id }, 'import undo failed');
          throw new Error(`${failure.message}；已写入的部分数据已被其他业务使用，未能全部撤销，请联系管理员`);
        });
        throw failure;
      });
      await ctx.progress(rows.length, rows.length);
      return result;
    },
    { viewers: readRoles === 'any' ? 'any' : readRoles },
  );
  return [template, upload, errors];
}

/** The rows of the job's upload, read again off the main thread (imports queued before import_files kept their rows in the payload). */
async function uploadedRows(db: Kysely<DB>, rid: number, job: JobRow, maxRows: number): Promise<SheetRow[]> {
  const file = await db.selectFrom('import_files').select('content').where('rid', '=', rid).where('job_id', '=', job.id).executeTakeFirst();
  if (file && file.content.length) {
    try {
      return (await readUpload(Buffer.from(file.content), { rows: maxRows })).rows;
    } catch (err) {
      if (err instanceof UploadRefused) throw new Error(err.message);
      throw err;
    }
  }
  const legacy = (job.payload as { rows?: SheetRow[] } | null)?.rows;
  if (legacy) return legacy;
  throw new Error('导入的文件已不存在，请重新导入');
}

/** The template workbook: headers in bold, the example rows, and a sheet of instructions. */
async function templateFile(t: ImportTemplate): Promise<FileAnswer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(t.sheet);
  ws.columns = t.headers.map((header) => ({ header, width: t.widths?.[header] ?? 12 }));
  ws.getRow(1).font = { bold: true };
  // prefilled rows carry the community's own texts (a building's name): kept text in any spreadsheet
  for (const row of t.rows) ws.addRow(row.map((v) => (typeof v === 'string' ? cellText(v) : v)));
  const help = wb.addWorksheet(t.help.sheet);
  help.columns = [
    { header: '列', width: 14 },
    { header: '说明', width: 80 },
  ];
  help.getRow(1).font = { bold: true };
  for (const line of t.help.lines) help.addRow(line);
  const buffer = await wb.xlsx.writeBuffer();
  return { filename: t.filename, content_base64: Buffer.from(buffer).toString('base64') };
}

/** A row of the one import log, before each log page shapes it. */
export interface ImportLogRow {
  id: number;
  kind: string;
  status: JobStatus;
  total: number;
  progress: number;
  error: string;
  created_at: Date;
  finished_at: Date | null;
  create_user: string | null;
  filename: string;
  /** the job's result without its row errors */
  summary: Record<string, unknown> | null;
  error_count: number;
}

const IMPORT_STATUS_CH = { queued: '等待中', running: '导入中', done: '导入成功', failed: '导入失败', cancelled: '已取消' } as const;

/**
 * What every import log shows of an import, as the wire has it. An import that ended with row
 * errors reads 校验未通过 when nothing went in (the file was refused whole) and 部分导入 when
 * `imported` rows did (rows that went wrong while writing, the others kept).
 */
export function importLogFields(j: ImportLogRow, imported: number) {
  return {
    id: j.id,
    filename: j.filename,
    status: j.status,
    status_ch: j.status === 'done' && j.error_count > 0 ? (imported > 0 ? '部分导入' : '校验未通过') : IMPORT_STATUS_CH[j.status],
    total: j.total,
    error_count: j.error_count,
    error: j.error,
    create_user: j.create_user ?? '',
    create_time: wireTime(j.created_at),
  };
}

/**
 * The import log of one kind: the jobs with their file's name, the result's counts and the number
 * of row errors. Reads neither the payload nor the file, nor the row errors themselves.
 */
export async function importLog(ctx: CommunityCtx, kind: string, paging: Paging) {
  const qb = ctx.db
    .selectFrom('jobs')
    .leftJoin('accounts as a', 'a.id', 'jobs.created_by')
    .leftJoin('import_files as f', (j) => j.onRef('f.rid', '=', 'jobs.rid').onRef('f.job_id', '=', 'jobs.id'))
    .select([
      'jobs.id',
      'jobs.kind',
      'jobs.status',
      'jobs.total',
      'jobs.progress',
      'jobs.error',
      'jobs.created_at',
      'jobs.finished_at',
      'a.name as create_user',
      sql<string>`coalesce(f.filename, '')`.as('filename'),
      sql<Record<string, unknown> | null>`jobs.result - 'errors'`.as('summary'),
      sql<number>`CASE WHEN jsonb_typeof(jobs.result->'errors') = 'array' THEN jsonb_array_length(jobs.result->'errors') ELSE 0 END`.as(
        'error_count',
      ),
    ])
    .where('jobs.rid', '=', ctx.rid)
    .where('jobs.kind', '=', kind);
  const page = await listPage(qb, paging, 'jobs.id');
  return { total: page.total, items: page.items as ImportLogRow[] };
}

const importdel = defineMethod('importdel', {
  side: 'community',
  roles: 'staff',
  writes: true,
  summary: '删除一条导入记录（连同上传的文件）；进行中的不能删除；可上传该类导入的角色才能删除',
  async handler(ctx, input) {
    const job = await ctx.db
      .selectFrom('jobs')
      .select(['kind', 'status', 'created_by'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    const kind = job && kinds.get(job.kind);
    const holds = (roles: Roles) => roles === 'any' || hasAnyRole(ctx.session.roles, roles);
    if (!job || !kind || !holds(kind.readRoles)) return fail('导入记录不存在');
    // those who may upload this kind delete its records
    if (!holds(kind.roles)) throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
    if (jobInProgress(job.status)) throw new BizError('导入进行中，完成后才能删除');
    await ctx.db.deleteFrom('jobs').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply({ id: input.id }, '删除成功');
  },
});

export const importMethods = [importdel];
