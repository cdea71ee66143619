/**
 * npm run bench:cpu -- [--schema bench_scale] [--seconds 8] [--cases 0,6]
 *
 * The scale API cases (cases.ts) through /webapi at 50 clients, each with the CPU time it cost
 * per request: the server process's, all PostgreSQL processes' on this machine, and autocannon's
 * (this process), from /proc. On two shared cores the throughput follows the sum, so this shows
 * where a call's time goes. To compare two versions, run it in a worktree of each, in turns.
 * Needs DATABASE_URL and the schema bench:data filled; prints, writes nothing.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { post, signIn } from './api.js';
import { DEMO_OWNER_MOBILE, scaleApiCases, type ScaleContext } from './cases.js';
import { runHttpLoad } from './load.js';
import { DEFAULT_SCHEMA } from './scale-data.js';
import { startServerProcess } from './server-process.js';

const { values: flags } = parseArgs({
  options: { schema: { type: 'string', default: DEFAULT_SCHEMA }, seconds: { type: 'string', default: '8' }, cases: { type: 'string' } },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench:cpu runs against a PostgreSQL server: set DATABASE_URL\n');
  process.exit(2);
}
const CLOCK_TICKS_PER_S = 100;
const CONCURRENCY = 50;

/** user + system clock ticks of a process (0 once it is gone) */
function ticks(pid: number | string): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function postgresTicks(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += ticks(pid);
    } catch {
      /* ended meanwhile */
    }
  }
  return total;
}

const only = flags.cases?.split(',').map(Number);
const server = await startServerProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: flags.schema, RUN_JOBS: '1', SEED_DEMO: '0' });
try {
  const token = await signIn(server.url);
  const first = (await post(server.url, { method: 'getkeywordtohouses', keywords: DEMO_OWNER_MOBILE }, token)).data?.items?.[0];
  if (!first) throw new Error(`no demo owner in schema ${flags.schema}: run npm run bench:data`);
  const ctx = { room: { rid: first.rid, bid: first.bid, tid: first.tid, hid: first.hid } } as ScaleContext;
  console.log('| case | req/s | p50 / p95 ms | CPU ms per request: server / PostgreSQL / autocannon |\n|---|---|---|---|');
  for (const [i, c] of scaleApiCases.entries()) {
    if (only && !only.includes(i)) continue;
    const body = JSON.stringify({ method: c.method, ...c.payload(ctx) });
    const load = (seconds: number) =>
      runHttpLoad({
        url: `${server.url}/webapi`,
        body,
        headers: { 'x-token': token },
        concurrency: CONCURRENCY,
        seconds,
        verify: (b) => b.includes('"SUCCESS"'),
      });
    await load(2); // warm: caches, plans, connections
    const server0 = ticks(server.child.pid!);
    const pg0 = postgresTicks();
    const self0 = process.cpuUsage();
    const r = await load(Number(flags.seconds));
    const self = process.cpuUsage(self0);
    const perRequest = (clockTicks: number) => (((clockTicks / CLOCK_TICKS_PER_S) * 1000) / r.requests).toFixed(2);
    console.log(
      `| ${i} \`${body}\` | ${r.rps} | ${r.p50} / ${r.p95} | ${perRequest(ticks(server.child.pid!) - server0)} / ${perRequest(postgresTicks() - pg0)} / ${((self.user + self.system) / 1000 / r.requests).toFixed(2)} |${r.errors ? ` ${r.errors} errors` : ''}`,
    );
  }
} finally {
  await server.stop();
}
