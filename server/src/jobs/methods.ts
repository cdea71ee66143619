import { jobPercent, type JobInfo } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { fail } from '../http/errors.js';
import { defineMethod, type Session } from '../http/registry.js';
import { listPage } from '../lib/paging.js';
import { wireTime } from '../lib/wire.js';
import { kindsSeenBy, type JobRow } from './queue.js';
import { exportMethods } from './exports.js';
import { importMethods } from './imports.js';

type JobListed = Pick<JobRow, 'id' | 'kind' | 'status' | 'progress' | 'total' | 'result' | 'error' | 'created_at' | 'finished_at'>;

const toInfo = (j: JobListed & { create_user: string | null }): JobInfo => ({
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

/**
 * The community's jobs this account may see: its own, and those of the kinds its roles see
 * (registerJobKind's viewers): a merchant or a steward no longer reads the import messages of the
 * owners' staff or another account's exports. The payload (an export's filters) is never read.
 */
function visibleJobs(db: Kysely<DB>, rid: number, session: Session) {
  const kinds = kindsSeenBy(session.roles);
  return db
    .selectFrom('jobs')
    .leftJoin('accounts as a', 'a.id', 'jobs.created_by')
    .select([
      'jobs.id',
      'jobs.kind',
      'jobs.status',
      'jobs.progress',
      'jobs.total',
      'jobs.result',
      'jobs.error',
      'jobs.created_at',
      'jobs.finished_at',
      'a.name as create_user',
    ])
    .where('jobs.rid', '=', rid)
    .where((eb) =>
      kinds.length
        ? eb.or([eb('jobs.created_by', '=', session.accountId), eb('jobs.kind', 'in', kinds)])
        : eb('jobs.created_by', '=', session.accountId),
    );
}

const jobinfo = defineMethod('jobinfo', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '任务进度：状态、已处理/总数、百分比、结果或错误（本人发起的，或本人角色可见的任务类型）',
  async handler(ctx, input) {
    const job = await visibleJobs(ctx.db, ctx.rid, ctx.session).where('jobs.id', '=', input.id).executeTakeFirst();
    if (!job) return fail('任务不存在');
    return toInfo(job);
  },
});

const joblist = defineMethod('joblist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '本小区的后台任务（导入、生成账单、导出），可按类型筛选；只列本人发起的和本人角色可见类型的任务',
  async handler(ctx, input) {
    let qb = visibleJobs(ctx.db, ctx.rid, ctx.session);
    if (input.kind) qb = qb.where('jobs.kind', '=', input.kind);
    const page = await listPage(qb, input, 'jobs.id');
    return { total: page.total, items: page.items.map(toInfo) };
  },
});

export const jobsModule = [jobinfo, joblist, ...exportMethods, ...importMethods];
