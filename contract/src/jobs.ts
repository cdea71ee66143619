import { z } from 'zod';
import { id, paging } from './common.js';
import type { ListAnswer } from './codes.js';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const jobsMethods = {
  /** one job's progress, for progress bars */
  jobinfo: z.object({ id }),
  /** the community's jobs, newest first by default; kind filters (e.g. room_import) */
  joblist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), kind: z.string().max(40).optional() }),
} as const;

export interface JobInfo {
  id: number;
  kind: string;
  status: JobStatus;
  progress: number;
  total: number;
  /** 0-100 */
  percent: number;
  result: unknown;
  error: string;
  create_user: string;
  create_time: string;
  finish_time: string;
}

export interface JobsOutputs {
  jobinfo: JobInfo;
  joblist: ListAnswer<JobInfo>;
}
