/**
 * npm run bench:mixed -- [--rps 200] [--seconds 60] [--warmup 5] [--schema NAME] [--keep] [--hostile]
 *
 * A mixed workload at a fixed rate against the real server on the PostgreSQL server of
 * DATABASE_URL: owner searches, the owner drawer's header (houseinfoplus), a room's bills
 * (feebilllist), its cars (housecarlist), and one write in ten (a bill's check flag toggled,
 * a transaction with its audit row). Requests go out on a fixed schedule whatever the answers
 * do (open loop), and each latency counts from the moment its request was due, so a stalled
 * server shows in the figures instead of slowing the load down.
 *
 * --schema: an existing schema (e.g. bench_scale from `npm run bench:data`); without it a fresh
 * schema is made, seeded with the demo by the server, and dropped afterwards (--keep keeps it).
 * --hostile: beside the load, once a second, an attacker sends in turn an Excel upload bomb (a
 * cashier's feebillimport, 200 KB that inflate to 200 MB), a 100,000-deep nested JSON body and a
 * 10 MB body, the last two without signing in. Each must be refused; the load must hold its rate.
 *
 * Prints errors and p50/p95/p99 (overall and per method); exits 1 on any error of the load, or
 * on a hostile request that was not refused.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { adminQuery } from '../../server/src/db/adminQuery.js';
import { memoryText, startServerProcess, type ServerProcess } from './server-process.js';

const { values: flags } = parseArgs({
  options: {
    rps: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    schema: { type: 'string' },
    keep: { type: 'boolean', default: false },
    hostile: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (flags.help) {
  process.stdout.write(
    'npm run bench:mixed -- [--rps 200] [--seconds 60] [--warmup 5] [--schema NAME] [--keep] [--hostile]   (needs DATABASE_URL)\n',
  );
  process.exit(0);
}
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench:mixed runs against a PostgreSQL server: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)\n');
  process.exit(2);
}
const RPS = Number(flags.rps);
const SECONDS = Number(flags.seconds);
const WARMUP = Number(flags.warmup);
const TIMEOUT_MS = 10_000;

const fresh = !flags.schema;
const schema = flags.schema ?? `bench_mixed_${crypto.randomBytes(4).toString('hex')}`;
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`--schema must be a plain lower-case name: ${schema}`);
if (fresh) await adminQuery(databaseUrl, `CREATE SCHEMA ${schema}`);
const log = (line: string) => process.stderr.write(`${line}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
let target: URL;

interface Answer {
  return_code: string;
  return_msg: string;
  data: any;
}

function call(method: string, payload: Record<string, unknown>, token?: string): Promise<Answer> {
  const body = JSON.stringify({ method, ...payload });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        timeout: TIMEOUT_MS,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(token ? { 'x-token': token } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            if ((res.statusCode ?? 500) >= 400) reject(new Error(`HTTP ${res.statusCode}`));
            else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer);
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw body posted to /webapi: answers the HTTP status and the answer's return_code, or how the connection ended. */
function post(body: Buffer, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        timeout: TIMEOUT_MS,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let code = '';
          try {
            code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer).return_code;
          } catch {
            code = 'not JSON';
          }
          resolve(`HTTP ${res.statusCode} ${code}`);
        });
        res.on('error', (err) => resolve(`ended: ${err.message}`));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve(`ended: ${err.message}`));
    req.end(body);
  });
}

async function must(method: string, payload: Record<string, unknown>, token?: string): Promise<any> {
  const res = await call(method, payload, token);
  if (res.return_code !== 'SUCCESS') throw new Error(`${method}: ${res.return_code} ${res.return_msg}`);
  return res.data;
}

let exitCode = 0;
let server: ServerProcess | undefined;
try {
  log(`bench:mixed: ${fresh ? 'fresh demo schema' : 'schema'} ${schema}, starting the server…`);
  server = await startServerProcess({ DB_SCHEMA: schema });
  log(`server up in ${Math.round(server.startMs)} ms at ${server.url}`);
  target = new URL(`${server.url}/webapi`);
  // ---- what the workload works on, found through the API as an operator would
  const tokens = await Promise.all(
    Array.from({ length: 4 }, () => must('login', { username: 'admin', password: 'demo123456' }).then((d) => d.token as string)),
  );
  const KEYWORDS = ['138', '139', '137', '186', '135', '陈', '王', '李', '张', '建国', '秀英', '1380013'];
  const houses = new Map<number, { rid: number; bid: number; tid: number; hid: number }>();
  for (const keywords of KEYWORDS) {
    const found = await must('getkeywordtohouses', { keywords }, tokens[0]);
    for (const h of found.items as Array<{ rid: number; bid: number; tid: number; hid: number }>)
      houses.set(h.hid, { rid: h.rid, bid: h.bid, tid: h.tid, hid: h.hid });
    if (houses.size >= 300) break;
  }
  const housePool = [...houses.values()];
  if (!housePool.length) throw new Error('no owner found by the search keywords: is this schema seeded?');
  const bills: number[] = [];
  for (const h of housePool.slice(0, 60)) {
    const list = await must('feebilllist', { ...h, limit: 20 }, tokens[0]);
    bills.push(...(list.items as Array<{ id: number }>).map((b) => b.id));
  }
  if (!bills.length) throw new Error("no bills found for the owners' rooms");
  log(`pools: ${housePool.length} rooms, ${bills.length} bills, ${KEYWORDS.length} search keywords`);

  // ---- the mix: nine reads, one write, in a fixed rotation
  let n = 0;
  const checked = new Map<number, 'Y' | 'N'>();
  const pick = <T>(arr: T[]) => arr[Math.floor(Math.random() * arr.length)]!;
  const requests: Array<[string, () => Record<string, unknown>]> = [
    ['getkeywordtohouses', () => ({ keywords: pick(KEYWORDS) })],
    ['houseinfoplus', () => ({ ...pick(housePool) })],
    ['feebilllist', () => ({ ...pick(housePool), page: 1, limit: 10, sort: 'desc' })],
    ['housecarlist', () => ({ ...pick(housePool), page: 1, limit: 10 })],
    ['getkeywordtohouses', () => ({ keywords: pick(KEYWORDS) })],
    ['houseinfoplus', () => ({ ...pick(housePool) })],
    ['feebilllist', () => ({ ...pick(housePool), page: 1, limit: 10 })],
    ['housecarlist', () => ({ ...pick(housePool), page: 1, limit: 10 })],
    ['getkeywordtohouses', () => ({ keywords: pick(KEYWORDS) })],
    [
      'feebillcheck',
      () => {
        const id = pick(bills);
        const next = checked.get(id) === 'Y' ? 'N' : 'Y';
        checked.set(id, next);
        return { ids: [id], is_check: next };
      },
    ],
  ];

  interface Sample {
    method: string;
    ms: number;
    ok: boolean;
    error?: string;
  }
  const samples: Sample[] = [];

  // ---- the attacker beside the load (--hostile): each request must be refused, never served
  const hostile: Array<{ kind: string; outcome: string; ms: number }> = [];
  let attacking = false;
  // built before the load starts: zipping the bomb takes the client's own event loop for seconds
  const bodies: Array<[string, Buffer, Record<string, string>]> = [];
  if (flags.hostile) {
    const { hostileXlsx } = await import('../../server/src/test/hostile-files.js');
    const cashier = (await must('login', { username: 'cashier', password: 'demo123456' })).token as string;
    const bomb = (await hostileXlsx('bomb')).toString('base64');
    // the bomb as the web sends an upload (X-Method), so it reaches the Excel reader
    bodies.push(
      [
        'upload bomb',
        Buffer.from(JSON.stringify({ method: 'feebillimport', filename: 'bills.xlsx', file_base64: bomb })),
        { 'x-token': cashier, 'x-method': 'feebillimport' },
      ],
      ['nested body', Buffer.from('['.repeat(100_000) + ']'.repeat(100_000)), {}],
      ['10 MB body', Buffer.alloc(10 * 1024 * 1024, 0x20), {}],
    );
  }
  const attacker = async () => {
    for (let i = 0; attacking; i++) {
      const [kind, body, headers] = bodies[i % bodies.length]!;
      const start = performance.now();
      const outcome = await post(body, headers);
      hostile.push({ kind, outcome, ms: performance.now() - start });
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - start))));
    }
  };
  const inflight = new Set<Promise<void>>();
  const fire = (due: number, record: boolean) => {
    const [method, payload] = requests[n % requests.length]!;
    const token = tokens[n % tokens.length]!;
    n++;
    const p = call(method, payload(), token)
      .then(
        (res) => {
          if (record)
            samples.push({
              method,
              ms: performance.now() - due,
              ok: res.return_code === 'SUCCESS',
              error: res.return_code === 'SUCCESS' ? undefined : `${res.return_code} ${res.return_msg}`,
            });
        },
        (err: Error) => {
          if (record) samples.push({ method, ms: performance.now() - due, ok: false, error: err.message });
        },
      )
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  /** Fires `seconds` × RPS requests on a fixed schedule; answers how late the scheduler itself ran at worst. */
  const run = async (seconds: number, record: boolean) => {
    const interval = 1000 / RPS;
    const total = Math.round(seconds * RPS);
    const start = performance.now();
    let worstLag = 0;
    for (let i = 0; i < total; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      worstLag = Math.max(worstLag, performance.now() - due);
      fire(due, record);
    }
    await Promise.all([...inflight]);
    return { elapsed: (performance.now() - start) / 1000, worstLag };
  };

  if (WARMUP > 0) {
    log(`warm-up: ${WARMUP} s at ${RPS} req/s`);
    await run(WARMUP, false);
  }
  log(`measuring: ${SECONDS} s at ${RPS} req/s (one write in ten)${flags.hostile ? ', an attacker beside it' : ''}…`);
  attacking = flags.hostile;
  const attack = flags.hostile ? attacker() : Promise.resolve();
  const { elapsed, worstLag } = await run(SECONDS, true);
  attacking = false;
  await attack;
  // refused: an answer that is not SUCCESS, or the connection ended by the server
  const served = hostile.filter((h) => / SUCCESS$/.test(h.outcome));

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 10) / 10;
  };
  const summarize = (xs: Sample[]) => ({
    requests: xs.length,
    errors: xs.filter((x) => !x.ok).length,
    p50: pct(
      xs.map((x) => x.ms),
      50,
    ),
    p95: pct(
      xs.map((x) => x.ms),
      95,
    ),
    p99: pct(
      xs.map((x) => x.ms),
      99,
    ),
    max: pct(
      xs.map((x) => x.ms),
      100,
    ),
  });
  const overall = summarize(samples);
  const byMethod = Object.fromEntries(
    [...new Set(samples.map((x) => x.method))].sort().map((m) => [m, summarize(samples.filter((x) => x.method === m))]),
  );
  const errors = [...new Set(samples.filter((x) => !x.ok).map((x) => `${x.method}: ${x.error}`))].slice(0, 10);

  const lines = [
    '',
    `mixed workload: ${overall.requests} requests in ${elapsed.toFixed(1)} s (${(overall.requests / elapsed).toFixed(1)} req/s, target ${RPS}), schema ${schema}`,
    `  errors ${overall.errors}   p50 ${overall.p50} ms   p95 ${overall.p95} ms   p99 ${overall.p99} ms   max ${overall.max} ms   (from the due time; scheduler lag at worst ${worstLag.toFixed(1)} ms)`,
    ...Object.entries(byMethod).map(
      ([m, r]) =>
        `  ${m.padEnd(20)} ${String(r.requests).padStart(6)} req  errors ${r.errors}  p50 ${r.p50}  p95 ${r.p95}  p99 ${r.p99} ms`,
    ),
    ...(errors.length ? ['  errors seen:', ...errors.map((e) => `    ${e}`)] : []),
    ...(flags.hostile
      ? [
          `  beside it: ${hostile.length} hostile requests, ${hostile.length - served.length} refused`,
          ...[...new Set(hostile.map((h) => h.kind))].map((kind) => {
            const of = hostile.filter((h) => h.kind === kind);
            return `    ${kind.padEnd(12)} ${of.length}×  ${[...new Set(of.map((h) => h.outcome))].join(' / ')}  (slowest ${Math.round(Math.max(...of.map((h) => h.ms)))} ms)`;
          }),
        ]
      : []),
    `  server resident memory ${memoryText(await server.memory())}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  process.stdout.write(`${JSON.stringify({ rps: RPS, seconds: SECONDS, schema: fresh ? 'demo' : schema, ...overall, byMethod })}\n`);
  if (overall.errors > 0 || overall.requests === 0 || served.length > 0) exitCode = 1;
} catch (err) {
  log(`bench:mixed failed: ${(err as Error).stack ?? String(err)}`);
  exitCode = 1;
} finally {
  agent.destroy();
  await server?.stop();
  if (fresh && !flags.keep) await adminQuery(databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
process.exit(exitCode);
