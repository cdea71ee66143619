import type { ReactNode } from 'react';
import { Progress } from 'antd';
import { Link } from 'react-router';
import type { MethodName, MethodOutput } from '@wuye/contract';
import { jobInProgress, type ExportQueued, type JobInfo } from '@wuye/contract/jobs';
import { LIMITS } from '@wuye/contract/codes';
import { saveFile } from '../utils/files';
import { call, type CallArgs } from './client';
import { feedback } from './feedback';
import { followJob } from './useJob';

/** The methods that queue an export (server: jobs/exports.ts defineExport). */
export type ExportMethod = { [M in MethodName]: MethodOutput<M> extends ExportQueued ? M : never }[MethodName];

/** The download centre, where every export stays for EXPORT_KEEP_DAYS (pages/setup/Download.tsx). */
const downloads = (
  <Link to="/setup/download" data-testid="export-open-downloads">
    下载中心
  </Link>
);

/** The export's progress notification, kept open (duration 0) until the job ends. */
function showProgress(queued: ExportQueued, percent: number, status: 'active' | 'success' | 'exception', text: ReactNode): void {
  feedback()?.notification.open({
    key: `export-${queued.job_id}`,
    title: queued.filename,
    description: (
      <div data-testid="export-progress" data-status={status}>
        <Progress percent={percent} status={status} size="small" />
        <div>{text}</div>
      </div>
    ),
    // a finished export's notice stays as long as a failure's: it links to the download centre
    duration: status === 'active' ? 0 : 5,
    placement: 'bottomRight',
  });
}

/** Where a running export is: waiting for a worker, reading its rows, then writing them (the total is known once read). */
const stageText = (job: JobInfo) =>
  job.status === 'queued'
    ? '排队中…'
    : job.total > 0
      ? `写入中… ${job.progress.toLocaleString('zh-CN')} / ${job.total.toLocaleString('zh-CN')} 行`
      : '读取数据…';

/** A running export's line: its stage, and where it can be fetched later without waiting here. */
const runningText = (stage: string) => (
  <>
    {stage}
    <span style={{ float: 'right' }}>{downloads}</span>
  </>
);

/** Follows a queued export until it ends, showing its progress; answers the finished job, or undefined when it lost track or gave up. */
async function follow(queued: ExportQueued): Promise<JobInfo | undefined> {
  const progress = (job: JobInfo) => {
    if (jobInProgress(job.status)) showProgress(queued, job.percent, 'active', runningText(stageText(job)));
  };
  // first asked after half a second: most exports are written within the worker's first turn (it
  // looks for jobs every 0.5 s); followed no longer than a call may take (docs/product.md#constants), the download
  // centre has it after that
  return followJob(queued.job_id, progress, { delay: LIMITS.payPollMs / 2, until: Date.now() + LIMITS.requestTimeoutMs, maxMisses: 5 });
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
  showProgress(queued, 0, 'active', runningText('排队中…'));
  const job = await follow(queued);
  if (!job) {
    showProgress(queued, 0, 'exception', <>暂时查不到导出进度，可稍后在{downloads}查看</>);
    return;
  }
  if (job.status !== 'done') {
    showProgress(queued, job.percent, 'exception', <>导出失败：{job.error || job.status}</>);
    return;
  }
  try {
    saveFile(await call('exportfile', { id: queued.job_id }));
    showProgress(queued, 100, 'success', <>已下载，也可在{downloads}再次下载</>);
  } catch {
    showProgress(queued, 100, 'exception', <>下载失败，可在{downloads}重新下载</>);
  }
}
