import pg from 'pg';
import { loadConfig } from '../../server/src/config.js';
import { PREPARE_TAG, PreparingClient } from '../../server/src/db/prepared.js';
import { captureSql } from './capture.js';
import { round, runHttpLoad, runLoad, runRps, summarize, type LoadResult, type LoadRun } from './load.js';
import type { ServerProcess } from './server-process.js';

export interface Answer {
  return_code: string;
  return_msg: string;
  data: any;
}

/** One call through /webapi, as the console makes it. */
export async function post(url: string, body: Record<string, unknown>, token?: string): Promise<Answer> {
  const res = await fetch(`${url}/webapi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Answer;
}

export async function signIn(url: string, username = 'admin', password = 'demo123456'): Promise<string> {
  const login = await post(url, { method: 'login', username, password });
  if (login.return_code !== 'SUCCESS') throw new Error(`login ${username}: ${login.return_msg}`);
  return (login.data as { token: string }).token;
}

/** Session settings of a raw-side connection: the API's schema and business time zone. */
export const rawSessionOptions = (schema: string) =>
  `-c search_path=${schema} -c TimeZone=${process.env.TZ_BUSINESS ?? 'Asia/Shanghai'}`;

/**
 * The raw side's pool: same server, schema and time zone as the API's own pool, and the same
 * driver use: statements the server prepares (server/src/db/prepared.ts) are prepared here too,
 * so both sides ask the database for the same work. `prepare: false` plans every statement per
 * call, as pg does by default (shown beside, for what preparing gains).
 */
export function rawPool(databaseUrl: string, schema: string, o: { prepare?: boolean } = {}): pg.Pool {
  const pool = new pg.Pool({
    Client: o.prepare === false ? pg.Client : PreparingClient,
    // as many connections as the server's own pool (PG_POOL_MAX): both sides ask with the same parallelism
    connectionString: databaseUrl, max: loadConfig().poolMax, options: rawSessionOptions(schema),
  });
  // an idle connection ended by the server (e.g. terminated by an administrator) is replaced on next use
  pool.on('error', (err) => console.error(`raw pool: ${err.message}`));
  return pool;
}

export interface SideBySide {
  name: string;
  api: LoadResult;
  raw: LoadResult;
  /** the raw side with every statement planned per call, where the method prepares any */
  planned?: LoadResult;
  /** API against raw, round by round */
  roundRatios: number[];
}

/**
 * Seconds of one side in one round: ten seconds a side are five rounds. Whole seconds, as
 * autocannon ends a run on a one-second tick.
 */
const ROUND_SECONDS = 2;

/**
 * A method through /webapi (autocannon, 50 keep-alive connections) against the SQL its handler
 * issued (captured in process, replayed through pg with the same concurrency and the same
 * parallelism of statements). The sides take turns in rounds, the first side changing every
 * round, so work elsewhere on a shared machine meets both sides alike rather than the one that
 * happened to run while it lasted; each side's figures are over all its rounds.
 */
export async function sideBySide(
  o: {
    server: ServerProcess; capture: Awaited<ReturnType<typeof captureSql>>; pool: pg.Pool; plainPool?: pg.Pool;
    token: string; concurrency: number; seconds: number;
  },
  method: string,
  payload: Record<string, unknown>,
): Promise<SideBySide> {
  const { answer, sql: statements } = await o.capture.call(method, payload, o.token);
  if (answer.return_code !== 'SUCCESS') throw new Error(`${method}: ${answer.return_msg}`);
  const rounds = Math.max(1, Math.round(o.seconds / ROUND_SECONDS));
  const seconds = o.seconds / rounds;
  const viaApi = () => runHttpLoad({
    url: `${o.server.url}/webapi`,
    body: JSON.stringify({ method, ...payload }),
    headers: { 'x-token': o.token },
    concurrency: o.concurrency,
    seconds,
    verify: (body) => (JSON.parse(body) as Answer).return_code === 'SUCCESS',
  });
  const replay = (pool: pg.Pool) => runLoad(async () => {
    await Promise.all(statements.map((q) => pool.query(q.text, q.values)));
    return true;
  }, o.concurrency, seconds);
  const prepares = statements.some((q) => q.text.includes(PREPARE_TAG));
  const api: LoadRun[] = [];
  const raw: LoadRun[] = [];
  const planned: LoadRun[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) api.push(await viaApi());
    raw.push(await replay(o.pool));
    if (round % 2 === 1) api.push(await viaApi());
    if (o.plainPool && prepares) planned.push(await replay(o.plainPool));
  }
  return {
    name: `${method} ${JSON.stringify(payload)}`,
    api: summarize(api),
    raw: summarize(raw),
    planned: planned.length ? summarize(planned) : undefined,
    roundRatios: api.map((run, i) => runRps(run) / runRps(raw[i]!)),
  };
}

export const ratio = (r: SideBySide) => round(r.api.rps / r.raw.rps, 2);

/** ' (rounds 0.35–0.41)': how far the rounds' ratios spread, when there were several */
const roundSpread = (r: SideBySide) => {
  if (r.roundRatios.length < 2) return '';
  return ` (rounds ${round(Math.min(...r.roundRatios), 2)}–${round(Math.max(...r.roundRatios), 2)})`;
};

export const apiRow = (r: SideBySide, concurrency: number, target = 'ratio ≥ 0.5, p95 < 50 ms') => {
  const planned = r.planned ? `; raw planned per call ${r.planned.rps} req/s (ratio ${round(r.api.rps / r.planned.rps, 2)})` : '';
  return `| \`${r.name}\` via /webapi vs same SQL via pg, ${concurrency} clients | API ${r.api.rps} req/s (p50 ${r.api.p50} / p95 ${r.api.p95} / p99 ${r.api.p99} ms, ${r.api.errors} errors); raw ${r.raw.rps} req/s (p95 ${r.raw.p95} ms); ratio ${ratio(r)}${roundSpread(r)}${planned} | ${target} |`;
};
