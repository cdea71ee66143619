import { useEffect, useRef, useState } from 'react';
import { jobInProgress, type JobInfo, type JobStatus } from '@wuye/contract/jobs';
import { LIMITS } from '@wuye/contract/codes';
import { call } from './client';

/** The tag colour of each job status (antd's preset colours), on every page that lists jobs. */
export const JOB_STATUS_COLOR: Record<JobStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** An import's colour: a finished one with row errors is turned away (error) or partly in (warning). */
export function importStatusColor(row: { status: JobStatus; error_count: number; imported: number }): string {
  if (row.status === 'done' && row.error_count > 0) return row.imported > 0 ? 'warning' : 'error';
  return JOB_STATUS_COLOR[row.status];
}

/** A job no longer queued or running. */
export const jobFinished = (job: JobInfo | undefined): job is JobInfo => job !== undefined && !jobInProgress(job.status);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls a job (jobinfo) every second (docs/product.md#constants) until it is finished, the first time after `delay`
 * ms (none by default), telling `onState` each state it reads. A failed poll is tried again, at
 * most `maxMisses` times in a row. Answers the finished job, or undefined once `stopped()` says
 * so, `until` (a time) has passed or the tries are used up.
 */
export async function followJob(
  jobId: number,
  onState: (job: JobInfo) => void,
  o: { stopped?: () => boolean; until?: number; maxMisses?: number; delay?: number } = {},
): Promise<JobInfo | undefined> {
  const stopped = o.stopped ?? (() => false);
  if (o.delay) await sleep(o.delay);
  for (let misses = 0; misses < (o.maxMisses ?? Infinity) && Date.now() < (o.until ?? Infinity) && !stopped();) {
    try {
      const job = await call('jobinfo', { id: jobId }, { silent: true });
      if (stopped()) return undefined;
      onState(job);
      if (jobFinished(job)) return job;
      misses = 0;
    } catch {
      misses++;
    }
    await sleep(LIMITS.payPollMs);
  }
  return undefined;
}

/**
 * A job's state as it is polled (followJob) until it is finished. Answers the job asked for
 * only, never an earlier one's last state while a new one starts; a failed poll is tried again.
 */
export function useJob(jobId: number | null | undefined): JobInfo | undefined {
  const [job, setJob] = useState<JobInfo>();
  useEffect(() => {
    if (!jobId) return undefined;
    let stop = false;
    void followJob(jobId, setJob, { stopped: () => stop });
    return () => {
      stop = true;
    };
  }, [jobId]);
  return job && job.id === jobId ? job : undefined;
}

/** Calls `onFinished` once when the job asked for finishes (a list to reload, a dialog to close). */
export function useJobFinished(job: JobInfo | undefined, onFinished: (job: JobInfo) => void): void {
  const told = useRef<number>(undefined);
  useEffect(() => {
    if (!jobFinished(job) || told.current === job.id) return;
    told.current = job.id;
    onFinished(job);
  }, [job, onFinished]);
}
