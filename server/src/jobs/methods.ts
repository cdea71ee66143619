import { jobPercent, type JobInfo } from '@wuye/contract';
import { fail } from '../http/errors.js';
import { defineMethod } from '../http/registry.js';
import { listPage } from '../lib/paging.js';
import { wireTime } from '../lib/wire.js';
import type { JobRow } from './queue.js';
import { exportMethods } from './exports.js';

const toInfo = (j: JobRow & { create_user: string | null }): JobInfo => ({
  id: j.id,
  kind: j.kind,
  status: j.status,
  progress: j.progress,
  total: j.total,
  percent: jobPercent(j),
  result: j.result,
  error: j.error,
  create_user: j.create_user ?? '',
  create_time: wireTime(j.created_at),
  finish_time: wireTime(j.finished_at),
});

const jobinfo = defineMethod('jobinfo', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '任务进度：状态、已处理/总数、百分比、结果或错误',
  async handler(ctx, input) {
    const job = await ctx.db
      .selectFrom('jobs')
      .leftJoin('accounts as a', 'a.id', 'jobs.created_by')
      .selectAll('jobs')
      .select('a.name as create_user')
      .where('jobs.rid', '=', ctx.rid)
      .where('jobs.id', '=', input.id)
      .executeTakeFirst();
    if (!job) fail('任务不存在');
    return toInfo(job!);
  },
});

const joblist = defineMethod('joblist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '本小区的后台任务（导入、生成账单、导出），可按类型筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('jobs')
      .leftJoin('accounts as a', 'a.id', 'jobs.created_by')
      .selectAll('jobs')
      .select('a.name as create_user')
      .where('jobs.rid', '=', ctx.rid);
    if (input.kind) qb = qb.where('jobs.kind', '=', input.kind);
    const page = await listPage(qb, input, 'jobs.id');
    return { total: page.total, items: page.items.map(toInfo) };
  },
});

export const jobsModule = [jobinfo, joblist, ...exportMethods];
