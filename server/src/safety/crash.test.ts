import ExcelJS from 'exceljs';
import { fenToYuan, RC, ROOM_IMPORT_HEADERS, toFen } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/connection.js';
import type { DB } from '../db/schema.js';
import { startTestServer } from '../test/harness.js';
import {
  prepareProcessDatabase,
  spawnServer,
  waitFor,
  type InProcessApi,
  type ProcessDatabase,
  type ServerProcess,
} from '../test/process.js';

/**
 * The real server (a child process on a PGlite folder, or on a PostgreSQL schema with
 * DATABASE_URL) is killed with SIGKILL in the middle of a bill-generation job and of an Excel
 * room import, then started again: the job's short batches are whole and noted (jobs/batches.ts),
 * the job is picked up again and finishes (the generation carries on, the import undoes its
 * batches and starts over), running the work again adds nothing twice, and every payment
 * committed before the kill is still there.
 *
 * Quick form in `npm test`. Long form (five times the rooms, a full 20,000-row import), also part
 * of `npm run test:safety`:
 *   SAFETY_LONG=1 npx vitest run --project server server/src/safety/crash.test.ts
 */
const LONG = process.env.SAFETY_LONG === '1';
/** extra buildings of 240 rooms each (2 units × 30 floors × 4), so generation takes seconds */
const EXTRA_BUILDINGS = LONG ? 200 : 25;
const IMPORT_ROWS = LONG ? 20_000 : 8_000;
const PERIOD = '2032-01';

let pdb: ProcessDatabase;
/** PostgreSQL only: the test's own connection, to watch a job's progress while the server runs */
let watcher: Database | undefined;
let server: ServerProcess | undefined;

async function addRooms(db: Kysely<DB>) {
  await sql`INSERT INTO buildings (rid, title, floors, sort) SELECT 1, '扩建' || g || '号楼', 30, 100 + g FROM generate_series(1, ${EXTRA_BUILDINGS}) g`.execute(
    db,
  );
  await sql`INSERT INTO units (rid, bid, title, sort) SELECT b.rid, b.id, u || '单元', u FROM buildings b CROSS JOIN generate_series(1, 2) u
    WHERE b.rid = 1 AND b.title LIKE '扩建%'`.execute(db);
  await sql`INSERT INTO rooms (rid, bid, tid, title, floor, category_id, built_area, indoor_area, state)
    SELECT u.rid, u.bid, u.id, (f * 100 + n)::text, f,
      (SELECT id FROM room_categories WHERE rid = 1 AND kind = 'residence' ORDER BY sort, id LIMIT 1),
      80 + (f * 4 + n) % 60 + 0.35, 64 + (f * 4 + n) % 48 + 0.28, 'occupied'
    FROM units u JOIN buildings b ON b.rid = u.rid AND b.id = u.bid AND b.title LIKE '扩建%'
    CROSS JOIN generate_series(1, 30) f CROSS JOIN generate_series(1, 4) n WHERE u.rid = 1`.execute(db);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the server (its runner claims the queued job at once), waits until the job is in the
 * middle of its work and kills the process. PostgreSQL: until the job has reported progress
 * (through another connection than its transaction's). PGlite (its folder is the server's
 * alone, so nothing else can watch it): a moment after start; if the kill came before the claim, again, a little later each time.
 */
async function killMidJob(jobId: number, meanwhile?: (s: ServerProcess) => Promise<void>): Promise<{ status: string; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    // a pause at each step of the job's transaction: 150 ms a building (28 buildings, ~4 s a job) or
    // a hundred rows of the import; the work alone took under 2 s on a fast machine, and the job was
    // done before the payment made meanwhile
    server = await spawnServer(pdb, { JOB_STEP_DELAY_MS: '150' }, { ready: 'started' });
    if (watcher) {
      const halfWay = () =>
        waitFor(
          'the job to be half way',
          async () => {
            const j = await watcher!.db
              .selectFrom('jobs')
              .select(['status', 'progress', 'total'])
              .where('id', '=', jobId)
              .executeTakeFirstOrThrow();
            if (j.status === 'done' || j.status === 'failed')
              throw new Error(`job ${jobId} ended (${j.status}) before the kill: make it bigger`);
            return j.status === 'running' && j.progress > 0 && j.progress < j.total;
          },
          120_000,
          10,
        );
      await halfWay();
      // PostgreSQL serves other calls while the job runs: what they commit must survive the kill
      if (meanwhile) {
        await meanwhile(server);
        await halfWay();
      }
    } else {
      // the runner claims the job after the server's start-up and the day's other jobs (a dozen areas
      // have one): later on a slower or busier machine, so each attempt waits 400 ms longer, a step
      // shorter than the job's ~4 s, so an attempt lands inside it before one could come after it
      await sleep(400 * attempt);
    }
    await server.kill();
    server = undefined;
    const job = await pdb.with((db) =>
      db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', jobId).executeTakeFirstOrThrow(),
    );
    if (job.status === 'queued' && attempt < 16) continue;
    expect(job.status, 'the kill landed while the job was running').toBe('running');
    return job;
  }
}

/** What a minute without heartbeat does: the next runner queues the dead worker's job again. */
const ageHeartbeat = (jobId: number) =>
  pdb.with((db) =>
    db
      .updateTable('jobs')
      .set({ heartbeat_at: sql`now() - interval '5 minutes'` })
      .where('id', '=', jobId)
      .execute(),
  );

async function waitForJob(s: ServerProcess, token: string, jobId: number) {
  return waitFor(
    `job ${jobId} to end`,
    async () => {
      const res = await s.call('jobinfo', { id: jobId }, token);
      return ['done', 'failed'].includes(res.data?.status) ? res.data : undefined;
    },
    LONG ? 1_800_000 : 180_000,
    200,
  );
}

/** Pays all unpaid bills of `n` rooms of community 1, answering the payments made. */
async function payRooms(api: Pick<InProcessApi, 'call' | 'login'>, db: Kysely<DB>, n: number, skip: Set<number>) {
  const cashier = await api.login('cashier');
  const rooms = await db
    .selectFrom('fee_bills')
    .select('hid')
    .where('rid', '=', 1)
    .where('status', '<>', 'Y')
    .groupBy('hid')
    .orderBy('hid')
    .limit(n + skip.size)
    .execute();
  const paid: Array<{ id: number; receipt_no: string; paid_amount: string; bill_ids: number[] }> = [];
  for (const { hid } of rooms.filter((r) => !skip.has(r.hid)).slice(0, n)) {
    skip.add(hid);
    const bills = (await api.call('cashierbills', { hid }, cashier)).data.items as Array<{ id: number; total: string }>;
    const amount = fenToYuan(bills.reduce((s, b) => s + toFen(b.total), 0n));
    const res = await api.call(
      'cashierpay',
      { hid, bill_ids: bills.map((b) => b.id), pay_type: 'cash', paid_amount: amount, idempotency_key: `crash-${hid}-pay` },
      cashier,
    );
    expect(res.return_code).toBe(RC.SUCCESS);
    paid.push({ id: res.data.id, receipt_no: res.data.receipt_no, paid_amount: amount, bill_ids: bills.map((b) => b.id) });
  }
  return paid;
}

async function expectPaymentsKept(db: Kysely<DB>, paid: Awaited<ReturnType<typeof payRooms>>) {
  for (const p of paid) {
    const row = await db
      .selectFrom('fee_payments')
      .select(['receipt_no', 'paid_amount'])
      .where('rid', '=', 1)
      .where('id', '=', p.id)
      .executeTakeFirst();
    expect(row, `payment ${p.receipt_no}`).toEqual({ receipt_no: p.receipt_no, paid_amount: p.paid_amount });
    const bills = await db
      .selectFrom('fee_bills')
      .select(['status', 'payment_id'])
      .where('rid', '=', 1)
      .where('id', 'in', p.bill_ids)
      .execute();
    expect(
      bills.every((b) => b.status === 'Y' && b.payment_id === p.id),
      `bills of payment ${p.receipt_no}`,
    ).toBe(true);
  }
}

const batchBills = (db: Kysely<DB>, batchId: number) =>
  db
    .selectFrom('fee_bills')
    .where('rid', '=', 1)
    .where('batch_id', '=', batchId)
    .select([
      sql<number>`count(*)::int`.as('n'),
      sql<number>`count(DISTINCT hid)::int`.as('rooms'),
      sql<string>`coalesce(sum(fee), 0)::numeric(14,2)::text`.as('total'),
    ])
    .executeTakeFirstOrThrow();

describe(`the server killed with SIGKILL mid-job (${EXTRA_BUILDINGS * 240} extra rooms)`, () => {
  beforeAll(async () => {
    pdb = await prepareProcessDatabase({ setup: addRooms });
    if (pdb.kind === 'postgres') watcher = await pdb.open();
  }, 300_000);
  // a test that failed half way leaves no server behind for the next one
  afterEach(async () => {
    await server?.kill();
    server = undefined;
  });
  afterAll(async () => {
    await watcher?.close();
    await pdb?.dispose();
  });

  it(
    'bill generation: whole buildings after the kill, the job carries on after restart, nothing twice, payments kept',
    async () => {
      // payments before the job, and on PostgreSQL one more while it runs
      const used = new Set<number>();
      const { paid, job } = await pdb.api(async (api) => {
        const paid = await payRooms(api, api.db, 3, used);
        const admin = await api.login('admin');
        const item = await api.db
          .selectFrom('fee_items')
          .select('id')
          .where('rid', '=', 1)
          .where('pricing', '=', 'area_built')
          .orderBy('id')
          .executeTakeFirstOrThrow();
        const res = await api.call('feebillgenerate', { period: PERIOD, item_ids: [item.id] }, admin);
        expect(res.return_code).toBe(RC.SUCCESS);
        expect(res.data.count).toBeGreaterThan(EXTRA_BUILDINGS * 240);
        return { paid, job: { ...(res.data as { job_id: number; batch_id: number; count: number; total_fee: string }), item_id: item.id } };
      });

      const killed = await killMidJob(job.job_id, async (s) => {
        paid.push(...(await payRooms(s, watcher!.db, 1, used)));
      });
      expect(killed.attempts).toBe(1);
      await pdb.with(async (db) => {
        // the batch is not done; the buildings whose short transaction committed have their bills, each room once
        const half = await batchBills(db, job.batch_id);
        expect(half.n).toBeLessThan(job.count);
        expect(half.rooms).toBe(half.n);
        expect((await db.selectFrom('fee_batches').select('status').where('id', '=', job.batch_id).executeTakeFirstOrThrow()).status).toBe(
          'running',
        );
        await expectPaymentsKept(db, paid);
      });

      await ageHeartbeat(job.job_id);
      server = await spawnServer(pdb);
      const admin = await server.login('admin');
      const info = await waitForJob(server, admin, job.job_id);
      expect(info).toMatchObject({ status: 'done', result: { count: job.count, total_fee: job.total_fee } });
      const batches = await server.call('feebatchlist', { limit: 50 }, admin);
      expect(batches.data.items.find((b: { id: number }) => b.id === job.batch_id)).toMatchObject({
        status: 'done',
        bill_count: job.count,
        total_fee: job.total_fee,
      });
      // running it again finds nothing to do
      const again = await server.call('feebillgenerate', { period: PERIOD, item_ids: [job.item_id] }, admin);
      expect(again.return_msg).toContain('没有需要生成的账单');
      await server.stop();
      server = undefined;

      await pdb.with(async (db) => {
        expect(await batchBills(db, job.batch_id)).toEqual({ n: job.count, rooms: job.count, total: job.total_fee });
        const attempts = await db.selectFrom('jobs').select('attempts').where('id', '=', job.job_id).executeTakeFirstOrThrow();
        expect(attempts.attempts).toBe(2);
        await expectPaymentsKept(db, paid);
      });
    },
    LONG ? 3_600_000 : 600_000,
  );

  it('room import: whole batches after the kill, all of it once after restart, a second import of the file adds nothing', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('房屋');
    ws.addRow([...ROOM_IMPORT_HEADERS]);
    for (let i = 0; i < IMPORT_ROWS; i++) {
      const b = Math.floor(i / 200) + 1;
      const u = Math.floor((i % 200) / 100) + 1;
      const floor = Math.floor((i % 100) / 4) + 1;
      ws.addRow([`导入${b}号楼`, `${u}单元`, String(floor * 100 + (i % 4) + 1), floor, '98.50', '80.10', '住宅', '空置', '']);
    }
    const file = { filename: 'rooms.xlsx', file_base64: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64') };
    const importedRooms = (db: Kysely<DB>) =>
      db
        .selectFrom('rooms as r')
        .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
        .where('r.rid', '=', 1)
        .where('b.title', 'like', '导入%')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();

    const jobId = await pdb.api(async (api) => {
      const res = await api.call('roomimport', file, await api.login('admin'));
      expect(res.return_code).toBe(RC.SUCCESS);
      return res.data.job_id as number;
    });
    await killMidJob(jobId);
    await pdb.with(async (db) => {
      // the batches committed before the kill, and nothing else: each noted for the undo
      const half = await importedRooms(db);
      expect(half.n).toBeLessThan(IMPORT_ROWS);
      const noted = await db
        .selectFrom('job_writes')
        .where('job_id', '=', jobId)
        .where('tbl', '=', 'rooms')
        .select(sql<number>`coalesce(sum(cardinality(ids)), 0)::int`.as('n'))
        .executeTakeFirstOrThrow();
      expect(noted.n).toBe(half.n);
    });

    await ageHeartbeat(jobId);
    server = await spawnServer(pdb);
    const admin = await server.login('admin');
    const info = await waitForJob(server, admin, jobId);
    expect(info).toMatchObject({
      status: 'done',
      result: { created_rooms: IMPORT_ROWS, created_buildings: Math.ceil(IMPORT_ROWS / 200), errors: [] },
    });
    // the same file again: every row is reported as existing, nothing is added
    const again = await server.call('roomimport', file, admin);
    const second = await waitForJob(server, admin, again.data.job_id);
    expect(second).toMatchObject({ status: 'done', result: { created_rooms: 0 } });
    // (the result keeps at most 5,000 row errors)
    expect(second.result.errors).toHaveLength(Math.min(IMPORT_ROWS, 5000));
    expect(second.result.errors.every((e: { reason: string }) => e.reason.endsWith('已存在'))).toBe(true);
    await server.stop();
    server = undefined;
    await pdb.with(async (db) => expect(await importedRooms(db)).toEqual({ n: IMPORT_ROWS }));
  }, 600_000);
});

describe('a job whose workers keep dying', () => {
  it('is failed cleanly after three attempts: its batch shows failed, and generating again works without duplicates', async () => {
    const s = await startTestServer();
    try {
      const admin = await s.login('admin');
      const item = await s.database.db
        .selectFrom('fee_items')
        .select('id')
        .where('rid', '=', 1)
        .where('pricing', '=', 'area_built')
        .executeTakeFirstOrThrow();
      const scope = { period: '2032-02', item_ids: [item.id] };
      const first = await s.call('feebillgenerate', scope, admin);
      expect(first.return_code).toBe(RC.SUCCESS);
      // the third worker to claim it died too
      await s.database.db
        .updateTable('jobs')
        .set({ status: 'running', locked_by: 'dead-worker', attempts: 3, heartbeat_at: sql`now() - interval '5 minutes'` })
        .where('id', '=', first.data.job_id)
        .execute();
      await s.runJobs();
      const job = await s.call('jobinfo', { id: first.data.job_id }, admin);
      expect(job.data).toMatchObject({ status: 'failed' });
      const batches = await s.call('feebatchlist', {}, admin);
      expect(batches.data.items.find((b: { id: number }) => b.id === first.data.batch_id)).toMatchObject({
        status: 'failed',
        bill_count: 0,
      });

      const second = await s.call('feebillgenerate', scope, admin);
      expect(second.data.count).toBe(first.data.count);
      await s.runJobs();
      expect((await s.call('jobinfo', { id: second.data.job_id }, admin)).data.status).toBe('done');
      const bills = await s.database.db
        .selectFrom('fee_bills')
        .where('rid', '=', 1)
        .where('period', '=', scope.period)
        .where('item_id', '=', item.id)
        .select([sql<number>`count(*)::int`.as('n'), sql<number>`count(DISTINCT hid)::int`.as('rooms')])
        .executeTakeFirstOrThrow();
      expect(bills).toEqual({ n: first.data.count, rooms: first.data.count });
    } finally {
      await s.close();
    }
  });
});
