import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_KIND, type ExportItem } from '@wuye/contract';
import { readXlsx } from '../lib/excel.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { enqueueJob } from './queue.js';
import { EXPORT_PURGE } from './exports.js';

let s: TestServer;
let admin: string;
let merchant: string;
let admin2: string;

beforeAll(async () => {
  s = await startTestServer();
  [admin, merchant, admin2] = await Promise.all([s.login('admin'), s.login('merchant'), s.login('admin2')]);
});
afterAll(() => s.close());

const listOf = async (token: string): Promise<ExportItem[]> => {
  const res = await s.call<{ items: ExportItem[] }>('exportlist', {}, token);
  expect(res.return_code).toBe('SUCCESS');
  return res.data.items;
};

const fileRows = (db: TestServer['database']['db'], jobId: number) =>
  db
    .selectFrom('export_files')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();

describe('an export as a job (the download centre)', () => {
  let jobId: number;

  it('is queued by the call, written by the worker with progress, and downloadable from the download centre', async () => {
    const rooms = await s.call('roomlist', { limit: 1 }, admin);
    const queued = await s.call<{ job_id: number; filename: string }>('roomexport', {}, admin);
    expect(queued.return_code).toBe('SUCCESS');
    expect(queued.return_msg).toBe('已提交导出，完成后自动下载，也可在下载中心下载');
    expect(queued.data.filename).toMatch(/^房屋列表_\d{4}-\d{2}-\d{2}\.xlsx$/);
    jobId = queued.data.job_id;

    const waiting = (await listOf(admin)).find((e) => e.id === jobId)!;
    expect(waiting).toMatchObject({ status: 'queued', status_ch: '排队中', percent: 0, downloadable: 'N', filename: queued.data.filename });
    expect((await s.call('exportfile', { id: jobId }, admin)).return_msg).toBe('导出尚未完成，请稍候');

    await s.runJobs();
    const info = await s.call('jobinfo', { id: jobId }, admin);
    expect(info.data).toMatchObject({ status: 'done', percent: 100, progress: rooms.data.total, total: rooms.data.total });
    const done = (await listOf(admin)).find((e) => e.id === jobId)!;
    expect(done).toMatchObject({ status: 'done', status_ch: '可下载', percent: 100, rows: rooms.data.total, downloadable: 'Y' });
    expect(done.size).toBeGreaterThan(1000);
    expect(done.expire_time > done.finish_time).toBe(true);

    const file = await s.call('exportfile', { id: jobId }, admin);
    expect(file.data.filename).toBe(queued.data.filename);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.rows).toHaveLength(rooms.data.total);
    expect(Buffer.from(file.data.content_base64, 'base64').length).toBe(done.size);
  });

  it("is the exporter's own: another account of the community and another community see and get nothing of it", async () => {
    expect((await listOf(merchant)).some((e) => e.id === jobId)).toBe(false);
    expect((await s.call('exportfile', { id: jobId }, merchant)).return_msg).toBe('导出记录不存在');
    expect((await s.call('exportfile', { id: jobId }, admin2)).return_msg).toBe('导出记录不存在');
    expect((await s.call('exportdel', { id: jobId }, admin2)).return_msg).toBe('导出记录不存在');
    expect(await fileRows(s.database.db, jobId)).toEqual({ n: 1 });
  });

  it('refuses bad payloads and callers without a token, naming the field', async () => {
    const bad = await s.call('exportfile', { id: 'x' }, admin);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toContain('id');
    expect((await s.call('exportlist', { page: 0 }, admin)).return_code).toBe('FAIL');
    expect((await s.call('exportlist', {})).return_code).toBe('50008');
    // an export the caller may not make queues nothing
    const before = await s.database.db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect((await s.call('memberexport', {}, merchant)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('roomexport', { bid: 'x' }, admin)).return_code).toBe('FAIL');
    const after = await s.database.db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('writes one file when a worker died after writing it and the job runs again', async () => {
    const queued = await s.call<{ job_id: number }>('roomexport', { floor: 3 }, admin);
    await s.runJobs();
    const first = await s.call('exportfile', { id: queued.data.job_id }, admin);
    // as the runner requeues a job whose worker stopped answering (runner.ts requeueStale)
    await s.database.db.updateTable('jobs').set({ status: 'queued', locked_by: null }).where('id', '=', queued.data.job_id).execute();
    await s.runJobs();
    expect(await fileRows(s.database.db, queued.data.job_id)).toEqual({ n: 1 });
    const again = await s.call('exportfile', { id: queued.data.job_id }, admin);
    expect((await readXlsx(again.data.content_base64)).rows).toEqual((await readXlsx(first.data.content_base64)).rows);
  });

  it('tells why an export failed', async () => {
    const mine = await s.database.db.selectFrom('jobs').select(['rid', 'created_by']).where('id', '=', jobId).executeTakeFirstOrThrow();
    const broken = await enqueueJob(s.database.db, {
      rid: mine.rid,
      kind: EXPORT_KIND,
      createdBy: mine.created_by,
      payload: { method: 'nosuchexport', input: {}, filename: '坏.xlsx' },
    });
    await s.runJobs();
    expect((await listOf(admin)).find((e) => e.id === broken)).toMatchObject({
      status: 'failed',
      status_ch: '失败',
      error: '未知的导出 nosuchexport',
    });
    expect((await s.call('exportfile', { id: broken }, admin)).return_msg).toBe('导出失败：未知的导出 nosuchexport');
  });

  it(`keeps a file ${7} days: the daily purge removes older ones and the list shows them expired`, async () => {
    await s.database.db
      .updateTable('export_files')
      .set({ created_at: sql`now() - interval '8 days'` })
      .where('job_id', '=', jobId)
      .execute();
    await enqueueJob(s.database.db, { rid: null, kind: EXPORT_PURGE, payload: {}, createdBy: null });
    await s.runJobs();
    expect(await fileRows(s.database.db, jobId)).toEqual({ n: 0 });
    expect((await listOf(admin)).find((e) => e.id === jobId)).toMatchObject({
      status: 'done',
      status_ch: '已过期',
      downloadable: 'N',
      expire_time: '',
    });
    expect((await s.call('exportfile', { id: jobId }, admin)).return_msg).toBe('导出文件已过期（保留 7 天），请重新导出');
  });

  it('is removed from the download centre with its file, but not while it runs', async () => {
    const queued = await s.call<{ job_id: number }>('memberexport', { name: '欧阳' }, admin);
    expect((await s.call('exportdel', { id: queued.data.job_id }, admin)).return_msg).toBe('导出进行中，完成后才能删除');
    await s.runJobs();
    expect(await fileRows(s.database.db, queued.data.job_id)).toEqual({ n: 1 });
    const del = await s.call('exportdel', { id: queued.data.job_id }, admin);
    expect(del.return_msg).toBe('已删除');
    expect(await fileRows(s.database.db, queued.data.job_id)).toEqual({ n: 0 });
    expect((await listOf(admin)).some((e) => e.id === queued.data.job_id)).toBe(false);
    expect((await s.call('exportfile', { id: queued.data.job_id }, admin)).return_msg).toBe('导出记录不存在');
  });
});
