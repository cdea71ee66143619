/**
 * npm run bench:sweep -- [--schema bench_scale] [--calls 5] [--slow 300] [--filters] [--methods a,b]
 *
 * Every read method of the catalogue (/api-docs.json), the group side's as its head office (leader),
 * called one at a time as a page opens it
 * (page 1 of 10, no filters, the demo owner's room where a room is asked for), on the scale data:
 * median and slowest of a few calls each, slowest first. The API benchmarks measure the hot calls
 * under load; this finds the page nobody benchmarked that a user at 50,000 rooms would wait on.
 * Exports are timed as the user waits for one: queued, written by the job, downloaded.
 * With --filters each list (exports aside) is called again with each of its optional filters alone (a room number
 * for a keyword, a surname for a name, a choice's first value), the way a user narrows it.
 * --methods calls only the methods named (e.g. `--methods getkeywordtohouses --filters`: the owner
 * search with each kind of keyword it takes).
 * Exits 1 if a median is over --slow ms (default 300, the target of bench/README.md#targets), exports
 * (whole lists as Excel, seconds at this size) aside. An answer other than SUCCESS is printed with
 * its message: a value the sweep guessed may be refused for a reason (an item not read by meter).
 * Needs DATABASE_URL and bench:data's schema; prints, and deletes the exports it made (their audit rows stay).
 */
import { parseArgs } from 'node:util';
import { post, signIn, type Answer } from './api.js';
import { DEMO_OWNER_MOBILE } from './cases.js';
import { DEFAULT_SCHEMA } from './scale-data.js';
import { exportWorker, type ExportWorker } from './export-worker.js';
import { startServerProcess } from './server-process.js';
import { filterPayloads, sweepPayload, type SweepContext, type SweepMethod } from './sweep-payload.js';

const { values: flags } = parseArgs({
  options: {
    schema: { type: 'string', default: DEFAULT_SCHEMA },
    calls: { type: 'string', default: '5' },
    slow: { type: 'string', default: '300' },
    filters: { type: 'boolean', default: false },
    methods: { type: 'string', default: '' },
  },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench:sweep runs against a PostgreSQL server: set DATABASE_URL\n');
  process.exit(2);
}

/** an Excel export (memberexport, exportfees, feereportexport…): a whole list, seconds at this size */
const isExport = (method: string) => method.includes('export');
/** the export methods proper: they queue a job (a write) whose workbook the page then downloads */
const queuesExport = (m: SweepMethod) => m.writes && isExport(m.method) && m.side === 'community';

interface Timed {
  method: string;
  payload: Record<string, unknown>;
  median: number;
  max: number;
  answer: Answer;
}

async function timeCalls(
  url: string,
  token: string,
  body: Record<string, unknown>,
  calls: number,
  side: 'community' | 'group' = 'community',
) {
  return timeRuns(() => post(url, body, token, side), calls);
}

/**
 * An export as the user waits for it: the call that queues it, the job that writes it (run here by
 * a worker of this process's own, which the server of the sweep leaves them to) and the download.
 */
async function timeExport(url: string, token: string, worker: ExportWorker, body: Record<string, unknown>, calls: number) {
  const jobs: number[] = [];
  const timed = await timeRuns(async () => {
    const queued = await post(url, body, token);
    if (queued.return_code !== 'SUCCESS') return queued;
    jobs.push(queued.data.job_id);
    await worker.drain();
    return post(url, { method: 'exportfile', id: queued.data.job_id }, token);
  }, calls);
  // the sweep leaves the data as it found it: its exports go from the download centre, files and all
  for (const id of jobs) await post(url, { method: 'exportdel', id }, token);
  return timed;
}

async function timeRuns(run: () => Promise<Answer>, calls: number) {
  const times: number[] = [];
  let answer: Answer | undefined;
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    answer = await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times[times.length - 1]!, answer: answer! };
}

/** ids the detail methods ask for, read from the lists' first rows */
async function contextOf(url: string, token: string): Promise<SweepContext> {
  const first = async (method: string, payload: Record<string, unknown> = {}) =>
    ((await post(url, { method, page: 1, limit: 1, ...payload }, token)).data?.items?.[0] ?? {}) as Record<string, any>;
  const room = await first('getkeywordtohouses', { keywords: DEMO_OWNER_MOBILE });
  if (!room.hid) throw new Error(`no demo owner in schema ${flags.schema}: run npm run bench:data`);
  const hid = Number(room.hid);
  const item = await first('feeitemlist');
  // the newest SMS job (a draft to the whole community in the scale data) and the first roster
  const smsJob = (await first('smsjoblist')).id;
  // the steward desk: the newest ticket, complaint and order, the pinned notice (the whole community's), the first steward
  const repair = (await first('repairlist')).id;
  const complaint = (await first('complaintlist')).id;
  const order = (await first('internalorderlist')).id;
  const notice = (await first('noticelist')).id;
  const steward = (await first('stewardlist')).id;
  // the latest cost (成本登记)
  const cost = (await first('costdetaillist')).id;
  return {
    room: { rid: Number(room.rid), bid: Number(room.bid), tid: Number(room.tid), hid },
    ids: {
      memberinfo: (await first('memberlist')).id,
      feebillinfo: (await first('feebilllist', { hid })).id,
      paymentinfo: (await first('paymentlist')).id,
      feeiteminfo: item.id,
      roominfo: hid,
      smsjobinfo: smsJob,
      smsjobpreview: smsJob,
      smsjobflowlog: smsJob,
      scheduleinfo: (await first('schedulelist')).id,
      repairinfo: repair,
      repairlog: repair,
      complaintinfo: complaint,
      complaintlog: complaint,
      internalorderinfo: order,
      internalorderlog: order,
      noticeinfo: notice,
      noticepreview: notice,
      noticereadlist: notice,
      noticereadexport: notice,
      noticeresendpreview: notice,
      stewardinfo: steward,
      stewardhouses: steward,
      costinfo: cost,
      costlog: cost,
      // the first pile and the newest charging session
      chargerinfo: (await first('chargerlist')).id,
      chargeorderinfo: (await first('chargeorderlist')).id,
    },
    itemId: item.id,
  };
}

const server = await startServerProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: flags.schema, RUN_JOBS: '0', SEED_DEMO: '0' });
const worker = await exportWorker(databaseUrl, flags.schema);
let failed = false;
try {
  const token = await signIn(server.url);
  // the group side's reads, as the head office's pages make them
  const leader = await signIn(server.url, 'leader');
  const ctx = await contextOf(server.url, token);
  const docs = (await (await fetch(`${server.url}/api-docs.json`)).json()) as { methods: SweepMethod[] };
  const timed: Timed[] = [];
  const skipped: string[] = [];
  const only = new Set(flags.methods.split(',').filter(Boolean));
  for (const m of docs.methods) {
    if ((m.writes && !queuesExport(m)) || m.side === 'public') continue;
    if (only.size && !only.has(m.method)) continue;
    const payload = sweepPayload(m, ctx);
    if (!payload) {
      skipped.push(m.method);
      continue;
    }
    if (queuesExport(m)) {
      timed.push({
        method: m.method,
        payload,
        ...(await timeExport(server.url, token, worker, { method: m.method, ...payload }, Number(flags.calls))),
      });
      continue;
    }
    const side = m.side === 'group' ? 'group' : 'community';
    for (const p of [payload, ...(flags.filters && !isExport(m.method) ? filterPayloads(m, payload, ctx) : [])]) {
      timed.push({
        method: m.method,
        payload: p,
        ...(await timeCalls(server.url, side === 'group' ? leader : token, { method: m.method, ...p }, Number(flags.calls), side)),
      });
    }
  }
  timed.sort((a, b) => b.median - a.median);
  console.log(`| method | payload | median / slowest ms | answer |\n|---|---|---|---|`);
  for (const t of timed) {
    const ok = t.answer.return_code === 'SUCCESS';
    const slow = !isExport(t.method) && t.median > Number(flags.slow);
    if (slow) failed = true;
    const what = ok
      ? t.answer.data?.total !== undefined
        ? `${t.answer.data.total} rows`
        : 'SUCCESS'
      : `${t.answer.return_code} ${t.answer.return_msg}`;
    console.log(
      `| ${t.method}${slow ? ' ✗' : ''} | \`${JSON.stringify(t.payload)}\` | ${t.median.toFixed(1)} / ${t.max.toFixed(1)} | ${what} |`,
    );
  }
  if (skipped.length) console.log(`\nnot called (asks for values a page gets elsewhere): ${skipped.join(', ')}`);
} finally {
  await server.stop();
  await worker.close();
}
process.exit(failed ? 1 : 0);
