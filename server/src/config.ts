import path from 'node:path';
import { BUSINESS_TIME_ZONES, DEFAULT_TIME_ZONE } from '@wuye/contract';
import { repoRoot } from './paths.js';

/** A setting the server refuses to start with; main.ts prints its message alone. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
  /** absolute lifetime of a console session, however active it stays (the sliding expiry is tokenTtlHours) */
  sessionMaxHours: number;
  /** how long a process may remember a live session (0 = ask the database on every call) */
  sessionCacheMs: number;
  /** how long a list's exact total is remembered at most (lib/countCache.ts); 0 turns it off */
  countCacheMs: number;
  /** wrong passwords for one account from one address before sign-in waits grow (modules/auth/throttle.ts) */
  loginFreeAttempts: number;
  /** the longest wait a run of wrong passwords can impose, in minutes */
  loginMaxDelayMinutes: number;
  /** largest request body, except on upload methods */
  bodyLimitBytes: number;
  /** largest body of an upload method's call (a schema with file_base64), from a live session allowed to call it */
  uploadBodyLimitBytes: number;
  /** calls a minute one address may make without a live session (sign-in, codes, junk), counted before the body is read */
  anonRatePerMinute: number;
  /**
   * the proxies whose X-Forwarded-For / -Proto / -Host are believed (TRUST_PROXY: addresses, CIDR
   * ranges or proxy-addr's names such as loopback); false: none, the socket's address is the client's
   */
  trustProxy: string[] | false;
  /** the console's public address (https://wy.example.com): pay QR codes and links; required in production */
  publicUrl: string | undefined;
  /** NODE_ENV=production: refuses to start without PUBLIC_URL, and with a sandbox unless forced */
  production: boolean;
  /**
   * sandbox providers (the sandbox pay page now; sandbox SMS, e-invoices and WeChat as they come): on
   * for the embedded demo, off with DATABASE_URL unless SANDBOX=1
   */
  sandbox: boolean;
  /** SANDBOX_IN_PRODUCTION=1: a production start with the sandbox on is allowed (a staging server) */
  sandboxInProduction: boolean;
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
    sessionMaxHours: Number(env.SESSION_MAX_HOURS ?? 24),
    sessionCacheMs: Number(env.SESSION_CACHE_MS ?? 5000),
    countCacheMs: Number(env.COUNT_CACHE_MS ?? 60000),
    loginFreeAttempts: Number(env.LOGIN_FREE_ATTEMPTS ?? 5),
    loginMaxDelayMinutes: Number(env.LOGIN_MAX_DELAY_MINUTES ?? 15),
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 256 * 1024),
    uploadBodyLimitBytes: Number(env.UPLOAD_BODY_LIMIT_BYTES ?? 15 * 1024 * 1024),
    anonRatePerMinute: Number(env.ANON_RATE_PER_MINUTE ?? 120),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    production: env.NODE_ENV === 'production',
    sandbox: env.SANDBOX ? env.SANDBOX === '1' : !env.DATABASE_URL,
    sandboxInProduction: env.SANDBOX_IN_PRODUCTION === '1',
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
    throw new ConfigError(`TZ_BUSINESS must be one of ${BUSINESS_TIME_ZONES.join(', ')}: ${zone}`);
  }
  return zone;
}

/** TRUST_PROXY: a comma-separated list of addresses, CIDR ranges or loopback / linklocal / uniquelocal; none by default. */
export function trustedProxies(value: string | undefined): string[] | false {
  const list = (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return list.length ? list : false;
}

/** PUBLIC_URL without its trailing slash; anything but an http(s) origin is refused at start. */
export function publicUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an address such as https://wy.example.com: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`PUBLIC_URL must start with https:// or http://: ${value}`);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * What a production start (NODE_ENV=production) must have: its public address, since no request's
 * Host header may build a pay or sign-in link, and no sandbox provider unless it is forced (a staging
 * server), since a sandbox settles payments nobody made. Throws with the reason; main.ts exits with it.
 */
export function checkStartConfig(config: Config): void {
  if (!config.production) return;
  if (!config.publicUrl)
    throw new ConfigError('NODE_ENV=production needs PUBLIC_URL (e.g. https://wy.example.com): pay QR codes and links are built from it');
  if (config.sandbox && !config.sandboxInProduction) {
    throw new ConfigError(
      'SANDBOX=1 with NODE_ENV=production: the sandbox pay page settles renewals nobody paid. Turn it off, or set SANDBOX_IN_PRODUCTION=1 on a staging server',
    );
  }
}
