import { z } from 'zod';
import { id, paging } from './common.js';
import type { ListAnswer } from './codes.js';
import type { FileAnswer } from './files.js';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Waiting for a worker or being worked on: not finished either way. */
export const jobInProgress = (status: JobStatus): boolean => status === 'queued' || status === 'running';

/** A job's progress bar: 100 once done, else the share of its total done so far, at most 99. */
export const jobPercent = (j: { status: JobStatus; progress: number; total: number }): number =>
  j.status === 'done' ? 100 : j.total > 0 ? Math.min(99, Math.floor((j.progress * 100) / j.total)) : 0;

export const jobsMethods = {
  /** one job's progress, for progress bars */
  jobinfo: z.object({ id }),
  /** the community's jobs, newest first by default; kind filters (e.g. room_import) */
  joblist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), kind: z.string().max(40).optional() }),
  /** the download centre: the signed-in account's own exports, newest first */
  exportlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc') }),
  /** one finished export's workbook */
  exportfile: z.object({ id }),
  /** removes an export (and its file) from the download centre */
  exportdel: z.object({ id }),
  /** removes an import (and its uploaded file) from its import log */
  importdel: z.object({ id }),
} as const;

/** The job kind of every export: its payload names the export method and the filters it was given. */
export const EXPORT_KIND = 'export';

/** How long an export's file is kept for download. */
export const EXPORT_KEEP_DAYS = 7;

/** What an export method answers: the job that writes the workbook (the page follows it with jobinfo). */
export interface ExportQueued {
  job_id: number;
  filename: string;
}

/** A row of the download centre. */
export interface ExportItem {
  id: number;
  filename: string;
  status: JobStatus;
  /** 排队中 / 生成中 / 可下载 / 失败 / 已过期 */
  status_ch: string;
  /** 0-100 */
  percent: number;
  /** data rows in the workbook, once written */
  rows: number;
  /** bytes of the workbook, once written */
  size: number;
  error: string;
  create_time: string;
  finish_time: string;
  /** when the file is deleted ('' until written) */
  expire_time: string;
  /** Y: the file can be downloaded */
  downloadable: 'Y' | 'N';
}

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
  exportlist: ListAnswer<ExportItem>;
  exportfile: FileAnswer;
  exportdel: { id: number };
  importdel: { id: number };
}
