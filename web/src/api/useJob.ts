import { useEffect, useRef, useState } from 'react';
import { jobInProgress, type JobInfo, type JobStatus } from '@wuye/contract/jobs';
import { LIMITS } from '@wuye/contract/codes';
import { call } from './client';

/** The tag colour of each job status (antd's preset colours), on every page that lists jobs. */
export const JOB_STATUS_COLOR: Record<JobStatus, string> = { queued: 'default', running: 'processing', done: 'success', failed: 'error', cancelled: 'default' };

/** A job no longer queued or running. */
export const jobFinished = (job: JobInfo | undefined): job is JobInfo => job !== undefined && !jobInProgress(job.status);

/**
 * Polls a job (jobinfo) every second (spec 9) until it is finished. Answers the job asked for
 * only, never an earlier one's last state while a new one starts; a failed poll is tried again.
 */
export function useJob(jobId: number | null | undefined): JobInfo | undefined {
  const [job, setJob] = useState<JobInfo>();
  useEffect(() => {
    if (!jobId) return undefined;
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const info = await call('jobinfo', { id: jobId }, { silent: true });
        if (stop) return;
        setJob(info);
        if (jobFinished(info)) return;
      } catch { /* polled again below */ }
      if (!stop) timer = setTimeout(() => void tick(), LIMITS.payPollMs);
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
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
