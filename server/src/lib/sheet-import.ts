import { enqueueJob } from '../jobs/queue.js';
import { fail } from '../http/errors.js';
import { reply, type CommunityCtx } from '../http/registry.js';
import { readXlsx } from './excel.js';

/**
 * The first half of every Excel import: check the upload (type, headers, row count) and queue
 * the job that checks each row and imports all or nothing, with the import's `options` in its
 * payload. Answers the job id for the progress bar.
 */
export async function enqueueSheetImport(
  ctx: CommunityCtx,
  upload: { file_base64: string; filename: string },
  spec: { kind: string; requiredHeaders: readonly string[]; maxRows: number; options?: Record<string, unknown> },
) {
  if (!/\.xlsx$/i.test(upload.filename)) fail('请上传 .xlsx 格式的 Excel 文件');
  let sheet: Awaited<ReturnType<typeof readXlsx>>;
  try {
    sheet = await readXlsx(upload.file_base64);
  } catch (err) {
    return fail((err as Error).message);
  }
  const missing = spec.requiredHeaders.filter((h) => !sheet.headers.includes(h));
  if (missing.length) fail(`表头不正确，缺少列：${missing.join('、')}，请下载模板后填写`);
  if (sheet.rows.length === 0) fail('文件中没有数据行');
  if (sheet.rows.length > spec.maxRows) fail(`一次最多导入 ${spec.maxRows} 行，请分批导入`);
  const jobId = await enqueueJob(ctx.db, {
    rid: ctx.rid,
    kind: spec.kind,
    payload: { ...spec.options, filename: upload.filename, rows: sheet.rows },
    createdBy: ctx.session.accountId,
    total: sheet.rows.length,
  });
  return reply({ job_id: jobId }, `已开始导入 ${sheet.rows.length} 行，请稍候`);
}
