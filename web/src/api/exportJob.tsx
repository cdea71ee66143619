import { Progress } from 'antd';
import type { MethodName, MethodOutput } from '@wuye/contract';
import { jobInProgress, type ExportQueued, type JobInfo } from '@wuye/contract/jobs';
import { LIMITS } from '@wuye/contract/codes';
import { saveFile } from '../utils/files';
import { call, type CallArgs } from './client';
import { feedback } from './feedback';
import { followJob } from './useJob';

/** The methods that queue an export (server: jobs/exports.ts defineExport). */
export type ExportMethod = { [M in MethodName]: MethodOutput<M> extends ExportQueued ? M : never }[MethodName];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The export's progress notification, kept open (duration 0) until the job ends. */
function showProgress(queued: ExportQueued, percent: number, status: 'active' | 'success' | 'exception', text: string): void {
  feedback()?.notification.open({
    key: `export-${queued.job_id}`,
    title: queued.filename,
    description: (
      <div data-testid="export-progress" data-status={status}>
        <Progress percent={percent} status={status} size="small" />
        <div>{text}</div>
      </div>
    ),
    duration: status === 'active' ? 0 : status === 'success' ? 2 : 5,
    placement: 'bottomRight',
  });
}

/** Where a running export is: waiting for a worker, reading its rows, then writing them (the total is known once read). */
const stageText = (job: JobInfo) => (job.status === 'queued' ? '排队中…'
  : job.total > 0 ? `写入中… ${job.progress.toLocaleString('zh-CN')} / ${job.total.toLocaleString('zh-CN')} 行` : '读取数据…');

/** Follows a queued export until it ends, showing its progress; answers the finished job, or undefined when it lost track or gave up. */
async function follow(queued: ExportQueued): Promise<JobInfo | undefined> {
  // most exports are written within the worker's first turn (it looks for jobs every 0.5 s)
  await sleep(LIMITS.payPollMs / 2);
  const progress = (job: JobInfo) => {
    if (jobInProgress(job.status)) showProgress(queued, job.percent, 'active', stageText(job));
  };
  // followed no longer than a call may take (spec 9); the download centre has it after that
  return followJob(queued.job_id, progress, { until: Date.now() + LIMITS.requestTimeoutMs, maxMisses: 5 });
}

/**
 * Runs an export the way every export button does: the call queues it as a job (the server
 * answers at once), a notification shows its progress, and the finished workbook is saved.
 * The file also stays in the download centre (/setup/download). Resolves when it has ended.
 */
export async function runExport<M extends ExportMethod>(method: M, ...args: CallArgs<M>): Promise<void> {
  let queued: ExportQueued;
  try {
    queued = (await call(method, ...args)) as ExportQueued;
  } catch {
    return; // the client toasted why it was refused
  }
  showProgress(queued, 0, 'active', '排队中…');
  const job = await follow(queued);
  if (!job) {
    showProgress(queued, 0, 'exception', '暂时查不到导出进度，可稍后在下载中心查看');
    return;
  }
  if (job.status !== 'done') {
    showProgress(queued, job.percent, 'exception', `导出失败：${job.error || job.status}`);
    return;
  }
  try {
    saveFile(await call('exportfile', { id: queued.job_id }));
    showProgress(queued, 100, 'success', '已下载，也可在下载中心再次下载');
  } catch {
    showProgress(queued, 100, 'exception', '下载失败，可在下载中心重新下载');
  }
}
