import path from 'node:path';
import { BUSINESS_TIME_ZONES, DEFAULT_TIME_ZONE } from '@wuye/contract';
import { repoRoot } from './paths.js';

/** Everything the server reads from the environment, read once. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** schema for the PostgreSQL server; tests give each file its own */
  dbSchema: string | undefined;
  /** the business time zone (TZ_BUSINESS): of wire times, business days and the database session */
  timeZone: string;
  tokenTtlHours: number;
  /** how long a process may remember a live session (0 = ask the database on every call) */
  sessionCacheMs: number;
  /** how long a list's exact total is remembered at most (lib/countCache.ts); 0 turns it off */
  countCacheMs: number;
  lockoutAttempts: number;
  lockoutMinutes: number;
  bodyLimitBytes: number;
  /** address the sandbox pay QR code points to; defaults to the request's own host */
  publicUrl: string | undefined;
  mapKey: string;
  logLevel: string;
  seedDemo: boolean;
  webDist: string;
  runJobs: boolean;
  /**
   * prepare statements on each PostgreSQL connection (db/prepared.ts); off for a pooler in
   * transaction mode that cannot keep them, or to rule generic plans out
   */
  prepareStatements: boolean;
  /**
   * connections this process keeps to a PostgreSQL server: a few per database core serve best; at
   * 20 on two cores the database spent twice the CPU per call (docs/perf/history.md#round-8)
   */
  poolMax: number;
  /**
   * connections in pipeline mode for the light statements clicked most (db/pipeline.ts), beside
   * the pool; 0 sends them through the pool (e.g. behind a pooler that cannot take pipelines)
   */
  pipelineConnections: number;
  /** on the embedded database, calls that may wait for its one connection at once; more are answered 系统繁忙 */
  pgliteQueueMax: number;
  /** on the embedded database, how long a call waits for the connection before it is answered 系统繁忙 */
  pgliteWaitMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    dbSchema: env.DB_SCHEMA || undefined,
    timeZone: businessTimeZone(env),
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS ?? 12),
    sessionCacheMs: Number(env.SESSION_CACHE_MS ?? 5000),
    countCacheMs: Number(env.COUNT_CACHE_MS ?? 60000),
    lockoutAttempts: Number(env.LOCKOUT_ATTEMPTS ?? 5),
    lockoutMinutes: Number(env.LOCKOUT_MINUTES ?? 15),
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 10 * 1024 * 1024),
    publicUrl: env.PUBLIC_URL || undefined,
    mapKey: env.MAP_KEY ?? '',
    logLevel: env.LOG_LEVEL ?? 'info',
    seedDemo: env.SEED_DEMO !== '0',
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'web/dist')),
    runJobs: env.RUN_JOBS !== '0',
    prepareStatements: env.PG_PREPARE !== '0',
    poolMax: Number(env.PG_POOL_MAX ?? 10),
    pipelineConnections: Number(env.PG_PIPELINE ?? 2),
    pgliteQueueMax: Number(env.PGLITE_QUEUE_MAX ?? 64),
    pgliteWaitMs: Number(env.PGLITE_WAIT_MS ?? 10000),
    ...overrides,
  };
}

/**
 * TZ_BUSINESS, one of the zones wire times can be written in. Any other would set the database
 * session's zone apart from the answers' (contract/dates.ts knows fixed offsets only), so the
 * server refuses to start with it rather than mix two clocks.
 */
export function businessTimeZone(env: NodeJS.ProcessEnv = process.env): string {
  const zone = env.TZ_BUSINESS || DEFAULT_TIME_ZONE;
  if (!BUSINESS_TIME_ZONES.includes(zone)) {
    throw new Error(`TZ_BUSINESS must be one of ${BUSINESS_TIME_ZONES.join(', ')}: ${zone}`);
  }
  return zone;
}
