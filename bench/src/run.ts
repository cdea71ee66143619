/**
 * npm run bench [-- --quick]: measures what issue-level targets name and rewrites the
 * figures block of bench/README.md. Ratios are measured side by side in one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { runLoad, round, type LoadResult } from './load.js';
import { repoRoot, startServerProcess } from './server-process.js';
import { apiCases, DEMO_OWNER_MOBILE, type CaseContext } from './cases.js';
import { captureSql } from './capture.js';

const quick = process.argv.includes('--quick');
const seconds = quick ? 2 : 10;
const concurrency = 50;
const lines: string[] = [];
const log = (s: string) => { console.log(s); lines.push(s); };

async function coldStart() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-bench-'));
  const first = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
  await first.stop();
  const times: number[] = [];
  for (let i = 0; i < (quick ? 2 : 3); i++) {
    const s = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    times.push(s.startMs);
    await s.stop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  log(`| embedded start, existing ./data, to first answered request | ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s (median of ${times.length}; first start with demo seeding ${(first.startMs / 1000).toFixed(2)} s) | under 5 s |`);
}

async function apiOverhead(databaseUrl: string) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const server = await startServerProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: schema, RUN_JOBS: '0' });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20, options: `-c search_path=${schema}` });
  const capture = await captureSql(databaseUrl, schema);
  try {
    const login = await post(server.url, { method: 'login', username: 'admin', password: 'demo123456' });
    const token = (login.data as { token: string }).token;
    const found = await capture.call('getkeywordtohouses', { keywords: DEMO_OWNER_MOBILE }, token);
    const first = found.answer.data.items[0];
    const ctx: CaseContext = { room: { rid: first.rid, bid: first.bid, tid: first.tid, hid: first.hid } };
    for (const c of apiCases) {
      const payload = c.payload(ctx);
      const { answer, sql: statements } = await capture.call(c.method, payload, token);
      if (answer.return_code !== 'SUCCESS') throw new Error(`${c.method}: ${answer.return_msg}`);
      const api = await runLoad(async () => {
        const res = await post(server.url, { method: c.method, ...payload }, token);
        return res.return_code === 'SUCCESS';
      }, concurrency, seconds);
      const raw = await runLoad(async () => {
        await Promise.all(statements.map((q) => pool.query(q.text, q.values)));
        return true;
      }, concurrency, seconds);
      log(row(`${c.method} ${JSON.stringify(payload)}`, api, raw));
    }
    log(`| server resident memory after the API runs | ${server.rssMb()} MB | under 300 MB |`);
  } finally {
    await capture.close();
    await server.stop();
    await pool.end();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

const row = (name: string, api: LoadResult, raw: LoadResult) =>
  `| \`${name}\` via /webapi vs same SQL via pg, ${concurrency} clients | API ${api.rps} req/s (p50 ${api.p50} / p95 ${api.p95} / p99 ${api.p99} ms, ${api.errors} errors); raw ${raw.rps} req/s (p95 ${raw.p95} ms); ratio ${round(api.rps / raw.rps, 2)} | ratio ≥ 0.5, p95 < 50 ms |`;

async function post(url: string, body: Record<string, unknown>, token?: string) {
  const res = await fetch(`${url}/webapi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { return_code: string; data: unknown };
}

function writeReadme() {
  const file = path.join(repoRoot, 'bench/README.md');
  const text = fs.readFileSync(file, 'utf8');
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}${quick ? ', quick mode' : ''}.`;
  const block = ['<!-- figures:start -->', stamp, '', '| what | figure | target |', '|---|---|---|', ...lines, '<!-- figures:end -->'].join('\n');
  fs.writeFileSync(file, text.replace(/<!-- figures:start -->[\s\S]*<!-- figures:end -->/, block));
}

await coldStart();
const databaseUrl = process.env.DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
if (databaseUrl) await apiOverhead(databaseUrl);
else log('| API overhead | skipped: set DATABASE_URL to a PostgreSQL server | |');
// quick runs in CI check that the benchmarks work; only full runs rewrite the recorded figures
if (!quick) writeReadme();
