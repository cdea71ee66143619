/**
 * npm run bench [-- --quick | --scale] [-- --schema NAME]: measures what the issues' targets name.
 *
 * - no flag: embedded start, API against raw SQL on demo data, and, when bench:data has filled
 *   the scale schema (default bench_scale) on DATABASE_URL, the scale benchmarks; then rewrites
 *   the figures block of bench/README.md.
 * - --quick (CI): proves every benchmark still runs, not what it measures: half-second runs, one
 *   embedded restart, the scale path on a small scale set made for the run (2 × 1,000 rooms, schema
 *   bench_scale_quick, dropped afterwards); prints only. Each run saturates the machine while it
 *   lasts, beside CI's server tests, so it is kept short.
 * - --scale: only the scale benchmarks, on the existing scale schema; prints only.
 *
 * Ratios are measured side by side in one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { apiRow, rawLanes, rawPool, sideBySide, signIn } from './api.js';
import { memoryText, repoRoot, startServerProcess } from './server-process.js';
import { apiCases, DEMO_OWNER_MOBILE, type CaseContext } from './cases.js';
import { captureSql } from './capture.js';
import { DEFAULT_SCHEMA, makeScaleData, readScaleInfo } from './scale-data.js';
import { scaleBenchmarks } from './scale.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/connection.js';
import { assertKeptData } from '../../server/src/test/keptData.js';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    schema: { type: 'string', default: DEFAULT_SCHEMA },
  },
});
const quick = flags.quick;
const seconds = quick ? 0.5 : 10;
const concurrency = 50;
const QUICK_SCALE = { schema: 'bench_scale_quick', communities: 2, roomsPerCommunity: 1_000 };
const lines: string[] = [];
const loadAtStart = os.loadavg();
const log = (s: string) => {
  console.log(s);
  lines.push(s);
};

async function coldStart() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-bench-'));
  const first = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
  await first.stop();
  const times: number[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const s = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    times.push(s.startMs);
    await s.stop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  log(
    `| embedded start, existing ./data, to first answered request | ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s (median of ${times.length}; first start with demo seeding ${(first.startMs / 1000).toFixed(2)} s) | under 5 s |`,
  );
}

/** API against raw SQL on the demo data, in a fresh schema the server seeds. */
async function apiOverhead(databaseUrl: string) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const server = await startServerProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: schema, RUN_JOBS: '0' });
  const pool = rawPool(databaseUrl, schema);
  const plainPool = rawPool(databaseUrl, schema, { prepare: false });
  const lanes = rawLanes(databaseUrl, schema, pool);
  const capture = await captureSql(databaseUrl, schema);
  try {
    const token = await signIn(server.url);
    const found = await capture.call('getkeywordtohouses', { keywords: DEMO_OWNER_MOBILE }, token);
    const first = found.answer.data.items[0];
    const ctx: CaseContext = { room: { rid: first.rid, bid: first.bid, tid: first.tid, hid: first.hid } };
    const run = { server, capture, pool, plainPool, lanes, token, concurrency, seconds };
    for (const c of apiCases) log(apiRow(await sideBySide(run, c.method, c.payload(ctx)), concurrency));
    log(`| server resident memory after the API runs | ${memoryText(await server.memory())} | under 300 MB |`);
  } finally {
    await capture.close();
    await server.stop();
    await lanes.end();
    await pool.end();
    await plainPool.end();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

/**
 * What the database keeps for reading still agrees with its tables after the scale set's bulk load
 * and the generation benchmark's bills: the kept totals of bills and payments (migrations 024,
 * 025) and the rooms' addresses (026). CI's quick run fails if not.
 */
async function checkKeptData(databaseUrl: string, schema: string) {
  const database = await openDatabase(loadConfig(process.env, { databaseUrl, dbSchema: schema }));
  try {
    await assertKeptData(database.db);
  } finally {
    await database.close();
  }
}

/** The scale benchmarks: on the schema bench:data filled, or (quick) on a small set made now. */
async function scale(databaseUrl: string) {
  if (quick) {
    const t = performance.now();
    const info = await makeScaleData({ databaseUrl, schema: QUICK_SCALE.schema }, QUICK_SCALE, { quiet: true });
    console.log(
      `(quick scale set: ${info.counts.rooms} rooms, ${info.counts.fee_bills} bills in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );
    try {
      await scaleBenchmarks({ databaseUrl, schema: QUICK_SCALE.schema, info, seconds, reportSeconds: seconds, concurrency, log });
      await checkKeptData(databaseUrl, QUICK_SCALE.schema);
    } finally {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${QUICK_SCALE.schema} CASCADE`);
      await admin.end();
    }
    return;
  }
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const info = await readScaleInfo(admin, flags.schema).finally(() => admin.end());
  if (!info) {
    if (flags.scale) throw new Error(`no scale data in schema ${flags.schema}: run DATABASE_URL=… npm run bench:data first`);
    log(
      `| scale benchmarks | skipped: no scale data in schema \`${flags.schema}\` (run \`npm run bench:data\` with DATABASE_URL first) | |`,
    );
    return;
  }
  await scaleBenchmarks({ databaseUrl, schema: flags.schema, info, seconds, reportSeconds: seconds, concurrency, log });
}

function writeReadme() {
  const file = path.join(repoRoot, 'bench/README.md');
  const text = fs.readFileSync(file, 'utf8');
  const pgVersion = serverVersion ? `, PostgreSQL ${serverVersion} on the same machine` : '';
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}${pgVersion}; load average (1 / 5 / 15 min) ${load(loadAtStart)} at the start, ${load(os.loadavg())} at the end (above 2 the machine was shared with other work).`;
  const block = ['<!-- figures:start -->', stamp, '', '| what | figure | target |', '|---|---|---|', ...lines, '<!-- figures:end -->'].join(
    '\n',
  );
  fs.writeFileSync(file, text.replace(/<!-- figures:start -->[\s\S]*<!-- figures:end -->/, block));
}

const databaseUrl = process.env.DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
let serverVersion = '';
if (databaseUrl) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  serverVersion = String((await admin.query('SHOW server_version')).rows[0]?.server_version ?? '').split(' ')[0]!;
  await admin.end();
}
if (flags.scale) {
  if (!databaseUrl) throw new Error('--scale needs DATABASE_URL (the PostgreSQL server bench:data filled)');
  await scale(databaseUrl);
} else {
  await coldStart();
  if (databaseUrl) {
    await apiOverhead(databaseUrl);
    await scale(databaseUrl);
  } else {
    log('| API overhead and scale benchmarks | skipped: set DATABASE_URL to a PostgreSQL server | |');
  }
  // quick runs in CI check that the benchmarks work; only full runs rewrite the recorded figures
  if (!quick) writeReadme();
}
