/**
 * The benchmarks at scale (bench/README.md#scale-benchmarks), on a schema filled by bench:data: API against raw SQL at
 * 50 clients, the reports one at a time, and bill generation through the real job path against
 * a bare INSERT ... SELECT of the same rows. Generation writes bills for a far-off period and
 * removes them afterwards, so the data stays as bench:data left it.
 */
import { addDays, addMonths } from '@wuye/contract';
import type pg from 'pg';
import { today } from '../../server/src/lib/wire.js';
import { apiRow, rawLanes, post, rawPool, sideBySide, signIn, type SideBySide } from './api.js';
import { captureSql } from './capture.js';
import { DEMO_OWNER_MOBILE, scaleApiCases, scaleReportCases, type ScaleContext } from './cases.js';
import { round } from './load.js';
import type { ScaleInfo } from './scale-data.js';
import { memoryText, startServerProcess, type ServerProcess } from './server-process.js';

export interface ScaleRun {
  databaseUrl: string;
  schema: string;
  info: ScaleInfo;
  /** seconds per side of an API case and of a report */
  seconds: number;
  reportSeconds: number;
  concurrency: number;
  log: (row: string) => void;
}

const REPORT_CLIENTS = 1;

export async function scaleBenchmarks(o: ScaleRun): Promise<void> {
  const { info } = o;
  const rooms = info.rooms_per_community * info.communities.length;
  const billsText = `${info.counts.fee_bills?.toLocaleString('en')} bills`;
  o.log(
    `| **scale data** (schema \`${o.schema}\`) | ${info.communities.length} communities × ${info.rooms_per_community.toLocaleString('en')} rooms, ${info.counts.members?.toLocaleString('en')} members, ${billsText} (E ${info.counts.fee_bills_E} / N ${info.counts.fee_bills_N} / Y ${info.counts.fee_bills_Y}), ${info.counts.fee_payments?.toLocaleString('en')} payments; made by bench:data in ${info.seconds} s | minutes |`,
  );
  const server = await startServerProcess({ DATABASE_URL: o.databaseUrl, DB_SCHEMA: o.schema, RUN_JOBS: '1', SEED_DEMO: '0' });
  const pool = rawPool(o.databaseUrl, o.schema);
  const plainPool = rawPool(o.databaseUrl, o.schema, { prepare: false });
  const lanes = rawLanes(o.databaseUrl, o.schema, pool);
  await steadyState(pool, o.log);
  const capture = await captureSql(o.databaseUrl, o.schema);
  try {
    const token = await signIn(server.url);
    const found = await post(server.url, { method: 'getkeywordtohouses', keywords: DEMO_OWNER_MOBILE }, token);
    const first = found.data?.items?.[0];
    if (!first) throw new Error('scale data without the demo owner: run npm run bench:data again');
    const day = today();
    const month = day.slice(0, 7);
    const ctx: ScaleContext = {
      room: { rid: first.rid, bid: first.bid, tid: first.tid, hid: first.hid },
      month,
      day,
      firstMonth: addMonths(`${month}-01`, -11).slice(0, 7),
      yearAgo: addDays(addMonths(day, -12), 1),
    };
    const run = { server, capture, pool, plainPool, lanes, token, concurrency: o.concurrency, seconds: o.seconds };
    for (const c of scaleApiCases)
      o.log(
        apiRow(
          await sideBySide(run, c.method, c.payload(ctx)),
          o.concurrency,
          `ratio ≥ 0.5, p95 < 50 ms (${rooms.toLocaleString('en')} rooms)`,
        ),
      );
    o.log(`| server resident memory after the scale API runs | ${memoryText(await server.memory())} | under 300 MB |`);
    for (const c of scaleReportCases) {
      const r = await sideBySide({ ...run, concurrency: REPORT_CLIENTS, seconds: o.reportSeconds }, c.method, c.payload(ctx));
      o.log(reportRow(r, info.counts.fee_bills ?? 0));
    }
    o.log(await generation(o, server, pool));
    o.log(`| server resident memory after reports and generation | ${memoryText(await server.memory())} | under 300 MB |`);
  } finally {
    await capture.close();
    await server.stop();
    await lanes.end();
    await pool.end();
    await plainPool.end();
  }
}

/**
 * The state a busy database keeps by itself (autovacuum): the visibility map set, so counts and
 * reports read indexes alone. A transaction left open elsewhere keeps VACUUM from setting it, and
 * the figures then measure the heap instead; such a transaction is named in the output.
 */
async function steadyState(pool: pg.Pool, log: (row: string) => void) {
  for (const table of ['fee_bills', 'fee_payments', 'rooms', 'members', 'room_members']) await pool.query(`VACUUM ANALYZE ${table}`);
  const old = await pool.query<{ pid: number; secs: number; query: string }>(`
    SELECT pid, extract(epoch FROM now() - xact_start)::int AS secs, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query
    FROM pg_stat_activity
    WHERE datname = current_database() AND backend_xmin IS NOT NULL AND pid <> pg_backend_pid() AND now() - xact_start > interval '1 minute'
    ORDER BY xact_start LIMIT 1`);
  const t = old.rows[0];
  if (t)
    log(
      `| warning | a transaction open for ${t.secs} s elsewhere on this server (pid ${t.pid}: \`${t.query}\`) keeps VACUUM from marking new rows visible to all: index-only scans visit the table, so the figures below are pessimistic | |`,
    );
}

const reportRow = (r: SideBySide, bills: number) =>
  `| \`${r.name}\` over ${bills.toLocaleString('en')} bills, ${REPORT_CLIENTS} client | API p50 ${r.api.p50} / p95 ${r.api.p95} / p99 ${r.api.p99} ms (${r.api.rps} req/s); raw p95 ${r.raw.p95} ms (${r.raw.rps} req/s); ratio ${round(r.api.rps / r.raw.rps, 2)} | p95 < 300 ms |`;

/**
 * The property fee of every room of every scale community: through `feebillgenerate` and the
 * job runner (the work is the call plus the job's own started → finished time; the wait for
 * the runner's next poll is shown apart), against one bare INSERT ... SELECT of the same rows.
 * Two rounds in opposite order (bare then jobs, jobs then bare), each on periods of its own, so
 * neither side always runs on the warmer cache or into the checkpoint the other one started.
 */
async function generation(o: ScaleRun, server: ServerProcess, pool: pg.Pool): Promise<string> {
  const { info } = o;
  const year = Number(today().slice(0, 4)) + 5;
  const periods = ['01', '02', '03', '04'].map((m) => `${year}-${m}`);
  const rids = info.communities;
  const items = rids.map((rid) => info.property_items[rid]!);
  const cleanup = async () => {
    await pool.query('DELETE FROM fee_bills WHERE rid = ANY($1) AND period = ANY($2)', [rids, periods]);
    await pool.query('DELETE FROM fee_batches WHERE rid = ANY($1) AND period = ANY($2)', [rids, periods]);
  };
  const token = await signIn(server.url);

  // the same rows (room, item, period, fee, dates) in one statement
  const bare = async (period: string) => {
    const t = performance.now();
    const res = await pool.query(
      `
      INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, daterange, measure, unit_price, fee, due_date)
      SELECT r.rid, r.id, r.bid, r.tid, i.id, i.cost_type, i.title, $3::text,
        $4::text || ' ~ ' || to_char($4::date + make_interval(months => i.cycle_months) - interval '1 day', 'YYYY-MM-DD'),
        r.built_area::text, i.unit_price, round(r.built_area * i.unit_price * i.cycle_months, 2), $4::date + (i.due_day - 1)
      FROM rooms r JOIN fee_items i ON i.rid = r.rid AND i.id = ANY($2::bigint[])
      WHERE r.rid = ANY($1::int[])`,
      [rids, items, period, `${period}-01`],
    );
    return { ms: performance.now() - t, rows: res.rowCount ?? 0 };
  };

  // the product: one job per community, as an administrator would start them
  const jobs = async (period: string) => {
    let ms = 0;
    let waitMs = 0;
    let rows = 0;
    for (const rid of rids) {
      const sw = await post(server.url, { method: 'regionswitch', rid }, token);
      if (sw.return_code !== 'SUCCESS') throw new Error(`regionswitch ${rid}: ${sw.return_msg}`);
      const t = performance.now();
      const go = await post(server.url, { method: 'feebillgenerate', period, item_ids: [info.property_items[rid]] }, token);
      if (go.return_code !== 'SUCCESS') throw new Error(`feebillgenerate: ${go.return_msg}`);
      const callMs = performance.now() - t;
      for (;;) {
        const job = await post(server.url, { method: 'jobinfo', id: go.data.job_id }, token);
        if (job.data?.status === 'done') break;
        if (job.data?.status === 'failed' || job.data?.status === 'cancelled')
          throw new Error(`bill job ${job.data.status}: ${job.data.error}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      waitMs += performance.now() - t;
      const row = await pool.query<{ ms: number; n: number }>(
        `
        SELECT extract(epoch FROM finished_at - started_at) * 1000 AS ms, (result->>'count')::int AS n FROM jobs WHERE id = $1`,
        [go.data.job_id],
      );
      ms += callMs + Number(row.rows[0]!.ms);
      rows += Number(row.rows[0]!.n);
    }
    return { ms, waitMs, rows };
  };

  await cleanup();
  try {
    const b1 = await bare(periods[0]!);
    const j1 = await jobs(periods[1]!);
    const j2 = await jobs(periods[2]!);
    const b2 = await bare(periods[3]!);
    for (const r of [b1, j1, j2, b2])
      if (r.rows !== b1.rows) throw new Error(`generation made ${r.rows} bills where the bare insert made ${b1.rows}`);
    const [jobMs, bareMs] = [j1.ms + j2.ms, b1.ms + b2.ms];
    const s = (ms: number) => (ms / 1000).toFixed(2);
    return `| bill generation, property fee for ${b1.rows.toLocaleString('en')} rooms (${rids.length} jobs) vs one bare \`INSERT ... SELECT\` of the same rows, twice in opposite order | job path ${s(j1.ms)} + ${s(j2.ms)} s (call + job start→finish; ${s(j1.waitMs)} + ${s(j2.waitMs)} s with the runner's poll wait); bare ${s(b1.ms)} + ${s(b2.ms)} s; ×${round(jobMs / bareMs, 2)} | within 3x${b1.rows < 100_000 ? ' (at 100,000 rooms; fixed costs weigh more on a small set)' : ''} |`;
  } finally {
    await cleanup();
    // the deleted rows would otherwise slow index-only counts until autovacuum comes by
    await pool.query('VACUUM ANALYZE fee_bills');
    await pool.query('VACUUM ANALYZE fee_batches');
  }
}
