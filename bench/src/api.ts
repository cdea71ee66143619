import pg from 'pg';
import { businessTimeZone, loadConfig } from '../../server/src/config.js';
import { PipelinedConnections } from '../../server/src/db/pipeline.js';
import { LIGHT_TAG, PREPARE_TAG, PreparingClient } from '../../server/src/db/prepared.js';
import { captureSql } from './capture.js';
import { round, sampleHttpLoad, sampleLoad, summarize, type LoadResult, type LoadSample } from './load.js';
import type { ServerProcess } from './server-process.js';

export interface Answer {
  return_code: string;
  return_msg: string;
  data: any;
}

/** One call through /webapi (the group side's through /webapi_leader), as the console makes it. */
export async function post(
  url: string,
  body: Record<string, unknown>,
  token?: string,
  side: 'community' | 'group' = 'community',
): Promise<Answer> {
  const res = await fetch(`${url}/${side === 'group' ? 'webapi_leader' : 'webapi'}`, {
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
export const rawSessionOptions = (schema: string) => `-c search_path=${schema} -c TimeZone=${businessTimeZone()}`;

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
    connectionString: databaseUrl,
    max: loadConfig().poolMax,
    options: rawSessionOptions(schema),
  });
  // an idle connection ended by the server (e.g. terminated by an administrator) is replaced on next use
  pool.on('error', (err) => console.error(`raw pool: ${err.message}`));
  return pool;
}

/**
 * The raw side pipelined as the server's own light statements are (server/src/db/pipeline.ts):
 * as many connections in pipeline mode, the pool taking what they pass over. Shown beside the
 * pool's figure: what the database gives the same statements when it is asked the server's way.
 */
export function rawLanes(databaseUrl: string, schema: string, pool: pg.Pool): PipelinedConnections {
  return new PipelinedConnections(
    loadConfig().pipelineConnections || 2,
    { connectionString: databaseUrl, options: rawSessionOptions(schema) },
    true,
    pool,
  );
}

/** seconds each side of a comparison runs before it is measured */
const WARM_SECONDS = 1;
/**
 * A side's measured seconds come in slices of at least this many, the two sides' slices taking
 * turns (API, raw, raw, API, API, raw, …): work that other tenants of a shared machine start or
 * stop in the middle of a comparison then falls on both sides alike instead of on one.
 */
const SLICE_SECONDS = 2.5;

export interface SideBySide {
  name: string;
  api: LoadResult;
  raw: LoadResult;
  /** the raw side with every statement planned per call, where the method prepares any */
  planned?: LoadResult;
  /** the raw side pipelined as the server's light statements are, where the method has any */
  pipelined?: LoadResult;
}

/**
 * `seconds` of each of two loads, in alternating slices (SLICE_SECONDS) in the order A B B A A B
 * …, so that neither side always runs first in a pair; each side's slices summed into one result.
 */
export async function alternating(
  a: (seconds: number) => Promise<LoadSample>,
  b: (seconds: number) => Promise<LoadSample>,
  seconds: number,
): Promise<[LoadResult, LoadResult]> {
  const slices = Math.max(1, Math.floor(seconds / SLICE_SECONDS));
  const slice = seconds / slices;
  const as: LoadSample[] = [];
  const bs: LoadSample[] = [];
  for (let i = 0; i < slices; i++) {
    if (i % 2 === 0) {
      as.push(await a(slice));
      bs.push(await b(slice));
    } else {
      bs.push(await b(slice));
      as.push(await a(slice));
    }
  }
  return [summarize(as), summarize(bs)];
}

/**
 * A method through /webapi (autocannon, 50 keep-alive connections) against the SQL its handler
 * issued (captured in process, replayed through pg with the same concurrency and the same
 * parallelism of statements), in alternating slices.
 */
export async function sideBySide(
  o: {
    server: ServerProcess;
    capture: Awaited<ReturnType<typeof captureSql>>;
    pool: pg.Pool;
    plainPool?: pg.Pool;
    lanes?: PipelinedConnections;
    token: string;
    concurrency: number;
    seconds: number;
  },
  method: string,
  payload: Record<string, unknown>,
): Promise<SideBySide> {
  const { answer, sql: statements } = await o.capture.call(method, payload, o.token);
  if (answer.return_code !== 'SUCCESS') throw new Error(`${method}: ${answer.return_msg}`);
  const load = (seconds: number) =>
    sampleHttpLoad({
      url: `${o.server.url}/webapi`,
      body: JSON.stringify({ method, ...payload }),
      headers: { 'x-token': o.token },
      concurrency: o.concurrency,
      seconds,
      verify: (body) => (JSON.parse(body) as Answer).return_code === 'SUCCESS',
    });
  const replay = (to: { query(text: string, values: unknown[]): Promise<unknown> }) => (seconds: number) =>
    sampleLoad(
      async () => {
        await Promise.all(statements.map((q) => to.query(q.text, q.values)));
        return true;
      },
      o.concurrency,
      seconds,
    );
  // each side runs unmeasured first: a fresh server's first seconds answer about 13 % fewer
  // requests (docs/perf/history.md#round-12), and every connection plans its statements anew
  const warm = Math.min(WARM_SECONDS, o.seconds);
  await load(warm);
  await replay(o.pool)(warm);
  const [api, raw] = await alternating(load, replay(o.pool), o.seconds);
  /** a raw variant shown beside, for what it would give: warmed, then measured in one run */
  const variant = async (to: Parameters<typeof replay>[0]) => {
    await replay(to)(warm);
    return summarize([await replay(to)(o.seconds)]);
  };
  const planned = o.plainPool && statements.some((q) => q.text.includes(PREPARE_TAG)) ? await variant(o.plainPool) : undefined;
  const pipelined = o.lanes && statements.some((q) => q.text.includes(LIGHT_TAG)) ? await variant(o.lanes) : undefined;
  return { name: `${method} ${JSON.stringify(payload)}`, api, raw, planned, pipelined };
}

export const ratio = (r: SideBySide) => round(r.api.rps / r.raw.rps, 2);

export const apiRow = (r: SideBySide, concurrency: number, target = 'ratio ≥ 0.5, p95 < 50 ms') => {
  const planned = r.planned ? `; raw planned per call ${r.planned.rps} req/s (ratio ${round(r.api.rps / r.planned.rps, 2)})` : '';
  const pipelined = r.pipelined ? `; raw pipelined ${r.pipelined.rps} req/s (ratio ${round(r.api.rps / r.pipelined.rps, 2)})` : '';
  return `| \`${r.name}\` via /webapi vs same SQL via pg, ${concurrency} clients | API ${r.api.rps} req/s (p50 ${r.api.p50} / p95 ${r.api.p95} / p99 ${r.api.p99} ms, ${r.api.errors} errors); raw ${r.raw.rps} req/s (p95 ${r.raw.p95} ms); ratio ${ratio(r)}${planned}${pipelined} | ${target} |`;
};
