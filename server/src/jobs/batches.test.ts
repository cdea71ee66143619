import ExcelJS from 'exceljs';
import { ROOM_IMPORT_HEADERS } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * Long jobs write in short batches (jobs/batches.ts): other calls are answered between them, a
 * failed write deletes what its batches wrote, and a job started over after its process died
 * undoes its earlier attempt (imports) or carries on (bill generation), never writing twice.
 */
let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s.close());

/** A room file of `n` rows in the given building: a thousand rooms a unit, ten a floor. */
async function roomFile(building: string, n: number) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('房屋');
  ws.addRow([...ROOM_IMPORT_HEADERS]);
  for (let i = 0; i < n; i++) {
    const k = i % 1000;
    const floor = Math.floor(k / 10) + 1;
    ws.addRow([building, `${Math.floor(i / 1000) + 1}单元`, `${floor * 100 + (k % 10) + 1}`, floor, '90.00', '75.00', '住宅', '空置', '']);
  }
  return { filename: 'rooms.xlsx', file_base64: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64') };
}

const roomsOf = async (building: string) =>
  await s.database.db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .where('r.rid', '=', 1)
    .where('b.title', '=', building)
    .select([sql<number>`count(*)::int`.as('n'), sql<number>`count(DISTINCT (r.tid, r.title))::int`.as('distinct')])
    .executeTakeFirstOrThrow();

const jobRow = (id: number) =>
  s.database.db
    .selectFrom('jobs')
    .select(['status', 'progress', 'total', 'error', 'result'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function queueImport(building: string, n: number): Promise<number> {
  const res = await s.call('roomimport', await roomFile(building, n), admin);
  expect(res.return_code).toBe('SUCCESS');
  return res.data.job_id as number;
}

describe('a long import', () => {
  it('lets other calls through between its batches', async () => {
    const jobId = await queueImport('批次楼', 3000);
    const running = s.runJobs();
    // the job is half way: it has committed some batches and has more to write
    for (;;) {
      const j = await jobRow(jobId);
      expect(j.status, 'the job ended before it was seen half way').not.toMatch(/done|failed/);
      if (j.status === 'running' && j.progress > 0) break;
      // a macrotask between looks: the embedded database answers without one, and the job's file is read in a worker
      await new Promise((r) => setTimeout(r, 5));
    }
    const answered = await s.call('buildinglist', {}, admin);
    expect(answered.return_code).toBe('SUCCESS');
    // answered while the job still had batches to write, not after it
    expect((await jobRow(jobId)).status).toBe('running');
    await running;
    expect(await jobRow(jobId)).toMatchObject({ status: 'done', result: { created_rooms: 3000 } });
    expect(await roomsOf('批次楼')).toEqual({ n: 3000, distinct: 3000 });
    // a finished job's notes are gone
    expect(await s.database.db.selectFrom('job_writes').select('seq').where('job_id', '=', jobId).execute()).toEqual([]);
  });

  it('deletes what its batches wrote when a later batch fails, and reports the failure', async () => {
    // the 693rd room of the file is refused by the database, in its third batch
    await sql`CREATE FUNCTION refuse_room() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.title = '7003' THEN RAISE EXCEPTION '该房屋被拒绝'; END IF; RETURN NEW; END $$`.execute(s.database.db);
    await sql`CREATE TRIGGER refuse_room BEFORE INSERT ON rooms FOR EACH ROW EXECUTE FUNCTION refuse_room()`.execute(s.database.db);
    try {
      const jobId = await queueImport('失败楼', 800);
      await s.runJobs();
      expect(await jobRow(jobId)).toMatchObject({ status: 'failed', error: expect.stringContaining('该房屋被拒绝') });
      expect(await roomsOf('失败楼')).toEqual({ n: 0, distinct: 0 });
      expect(await s.database.db.selectFrom('buildings').select('id').where('rid', '=', 1).where('title', '=', '失败楼').execute()).toEqual(
        [],
      );
      expect(await s.database.db.selectFrom('job_writes').select('seq').where('job_id', '=', jobId).execute()).toEqual([]);
    } finally {
      await sql`DROP TRIGGER refuse_room ON rooms`.execute(s.database.db);
      await sql`DROP FUNCTION refuse_room()`.execute(s.database.db);
    }
  });

  it('started over after its process died: undoes the earlier attempt, then imports the file once', async () => {
    const jobId = await queueImport('续传楼', 600);
    // what a first attempt had committed before its process died: the building, a unit and rooms, noted
    const attempt = await s.database.db.transaction().execute(async (trx) => {
      const b = await trx.insertInto('buildings').values({ rid: 1, title: '续传楼', floors: 1 }).returning('id').executeTakeFirstOrThrow();
      const u = await trx.insertInto('units').values({ rid: 1, bid: b.id, title: '1单元' }).returning('id').executeTakeFirstOrThrow();
      const rooms = await trx
        .insertInto('rooms')
        .values(['101', '102', '103'].map((title) => ({ rid: 1, bid: b.id, tid: u.id, title, floor: 1 })))
        .returning('id')
        .execute();
      await trx
        .insertInto('job_writes')
        .values([
          { job_id: jobId, rid: 1, tbl: 'buildings', ids: [b.id] },
          { job_id: jobId, rid: 1, tbl: 'units', ids: [u.id] },
          { job_id: jobId, rid: 1, tbl: 'rooms', ids: rooms.map((r) => r.id) },
        ])
        .execute();
      await trx
        .updateTable('jobs')
        .set({ status: 'running', locked_by: 'dead-worker', attempts: 1, heartbeat_at: sql`now() - interval '5 minutes'` })
        .where('id', '=', jobId)
        .execute();
      return b.id;
    });
    await s.runJobs();
    // the file's rows were not reported as existing: the earlier attempt's rows went first
    expect(await jobRow(jobId)).toMatchObject({ status: 'done', result: { created_rooms: 600, created_buildings: 1, errors: [] } });
    expect(await roomsOf('续传楼')).toEqual({ n: 600, distinct: 600 });
    expect(await s.database.db.selectFrom('buildings').select('id').where('id', '=', attempt).execute()).toEqual([]);
  });
});

describe('bill generation started over after its process died', () => {
  it('carries on from the buildings done and bills each room once', async () => {
    const item = await s.database.db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('pricing', '=', 'area_built')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const res = await s.call('feebillgenerate', { period: '2033-03', item_ids: [item.id] }, admin);
    expect(res.return_code).toBe('SUCCESS');
    const { job_id: jobId, batch_id: batchId, count } = res.data as { job_id: number; batch_id: number; count: number };
    // the first attempt billed one building, then died
    const { insertBills } = await import('../modules/fees/generate.js');
    const first = await s.database.db
      .selectFrom('rooms')
      .select('bid')
      .where('rid', '=', 1)
      .orderBy('bid')
      .limit(1)
      .executeTakeFirstOrThrow();
    const ids = await insertBills(s.database.db, 1, { period: '2033-03', item_ids: [item.id] }, batchId, first.bid);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(count);
    await s.database.db.insertInto('job_writes').values({ job_id: jobId, rid: 1, tbl: 'fee_bills', ids }).execute();
    await s.database.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead-worker', attempts: 1, heartbeat_at: sql`now() - interval '5 minutes'` })
      .where('id', '=', jobId)
      .execute();
    await s.runJobs();
    expect(await jobRow(jobId)).toMatchObject({ status: 'done', result: { count } });
    const bills = await s.database.db
      .selectFrom('fee_bills')
      .where('rid', '=', 1)
      .where('batch_id', '=', batchId)
      .select([sql<number>`count(*)::int`.as('n'), sql<number>`count(DISTINCT hid)::int`.as('rooms')])
      .executeTakeFirstOrThrow();
    expect(bills).toEqual({ n: count, rooms: count });
    // the bills of the first attempt stayed: the job carried on rather than starting over
    expect(await s.database.db.selectFrom('fee_bills').select('id').where('id', 'in', ids).execute()).toHaveLength(ids.length);
  });
});
