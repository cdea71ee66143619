import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import type { DB } from '../db/schema.js';
import { DEMO_PASSWORD, seedDemo } from '../db/seed.js';
import { buildApp } from '../http/app.js';
import { repoRoot, serverRoot } from '../paths.js';
import type { TestAnswer } from './harness.js';
import { today } from '../lib/wire.js';

/**
 * The real server as a child process (`server/dist/main.mjs`, what `npm start` builds and runs),
 * for the tests that kill it, restart it or run two of them on one database.
 */

const builtServer = path.join(serverRoot, 'dist/main.mjs');

let built: Promise<void> | undefined;
/**
 * Builds the server as `npm start` does (scripts/build-server.mjs), once per test process. Not
 * through the start script itself: with no web/dist yet (the unit tests run before the console is
 * built) it would build the console too, in every test file at once.
 */
function buildServer(): Promise<void> {
  built ??= new Promise((resolve, reject) => {
    const build = spawn(process.execPath, [path.join(repoRoot, 'scripts/build-server.mjs')], { cwd: repoRoot, stdio: 'inherit' });
    build.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the server build failed (exit ${code})`))));
  });
  return built;
}

/** A database the server processes open: a PGlite folder, or a schema of its own on DATABASE_URL. */
export interface ProcessDatabase {
  kind: 'pglite' | 'postgres';
  /** DATA_DIR / DB_SCHEMA for the child */
  env: Record<string, string>;
  /** opens it from the test (PGlite: only while no server process has the folder open) */
  open(): Promise<Database>;
  /** runs `fn` on a connection of the test's own, then closes it */
  with<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** the API in this process (no port, no job runner), e.g. to queue work while no server runs */
  api<T>(fn: (api: InProcessApi) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

export interface InProcessApi {
  db: Kysely<DB>;
  call<T = any>(method: string, payload?: Record<string, unknown>, token?: string, side?: 'community' | 'group'): Promise<TestAnswer<T>>;
  login(username: string, password?: string): Promise<string>;
}

/**
 * Creates, migrates and seeds (demo, then `setup`) a database for server processes: a schema of its
 * own on the PostgreSQL server, a data folder on PGlite. On PGlite the demo is the run's saved one
 * (demo-template.ts) while its day is today, loaded into the folder (seeding anew took 20 to 60 s a
 * file there).
 */
export async function prepareProcessDatabase(
  opts: { seed?: boolean; setup?: (db: Kysely<DB>) => Promise<void> } = {},
): Promise<ProcessDatabase> {
  const base = loadConfig(process.env, { logLevel: 'silent', sandbox: true, anonRatePerMinute: 0 });
  const seed = opts.seed !== false;
  const templateFresh = seed && inject('demoDay') === today();
  const pgliteTemplate = templateFresh && !base.databaseUrl ? inject('pgliteTemplate') : '';
  const schema = base.databaseUrl ? `p_${crypto.randomBytes(6).toString('hex')}` : undefined;
  const dataDir = base.databaseUrl ? '' : fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-proc-'));
  const config: Config = { ...base, dbSchema: schema, dataDir: dataDir || base.dataDir };
  const open = () => openDatabase(config);
  const withDb: ProcessDatabase['with'] = async (fn) => {
    const database = await open();
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  };
  if (seed || opts.setup) {
    // PGlite writes the saved directory into the folder as it opens it
    const database = await openDatabase(config, { loadDataDir: pgliteTemplate ? new Blob([fs.readFileSync(pgliteTemplate)]) : undefined });
    try {
      // on a copy of the demo this finds every migration applied
      await migrate(database.pool);
      if (seed && !pgliteTemplate) await seedDemo(database.db);
      await opts.setup?.(database.db);
    } finally {
      await database.close();
    }
  }
  const api: ProcessDatabase['api'] = async (fn) => {
    const database = await open();
    const app = await buildApp(config, database, { logger: false });
    try {
      await app.fastify.ready();
      const call: InProcessApi['call'] = async (method, payload = {}, token, side = 'community') => {
        const res = await app.fastify.inject({
          method: 'POST',
          url: side === 'group' ? '/webapi_leader' : '/webapi',
          headers: { 'x-method': method, ...(token ? { 'x-token': token } : {}) },
          payload: { method, ...payload },
        });
        return res.json();
      };
      const login: InProcessApi['login'] = async (username, password = DEMO_PASSWORD) => {
        const res = await call<{ token: string }>('login', { username, password });
        if (res.return_code !== 'SUCCESS') throw new Error(`login ${username}: ${res.return_msg}`);
        return res.data.token;
      };
      return await fn({ db: database.db, call, login });
    } finally {
      await app.fastify.close();
      await database.close();
    }
  };
  return {
    kind: schema ? 'postgres' : 'pglite',
    env: schema ? { DB_SCHEMA: schema } : { DATA_DIR: dataDir },
    open,
    with: withDb,
    api,
    async dispose() {
      if (schema) {
        const pg = (await import('pg')).default;
        const client = new pg.Client({ connectionString: base.databaseUrl });
        await client.connect();
        // a killed server's backend runs its last statement to the end before it notices; don't wait for it
        await client.query(
          `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
          JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND l.pid <> pg_backend_pid()`,
          [schema],
        );
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      } else {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** everything the process wrote (pino's JSON lines, the banner), stdout and stderr */
  output(): string;
  call<T = any>(method: string, payload?: Record<string, unknown>, token?: string, side?: 'community' | 'group'): Promise<TestAnswer<T>>;
  login(username: string, password?: string): Promise<string>;
  /** SIGKILL: no shutdown hook runs, as when the machine or the container dies */
  kill(): Promise<void>;
  /** SIGTERM and wait: the normal shutdown */
  stop(): Promise<void>;
}

/** Servers still running when the test process ends (a failed hook, a timeout) die with it. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** the first words of the start-up banner (server.ts) */
const BANNER = '物业管理控制台已启动';

/**
 * Starts the server on `database` and waits for its first answered /healthz, or (`ready: 'started'`)
 * only for its start-up banner, printed once it listens and its job runner has started: on PGlite
 * a job claimed at start keeps the process busy until it ends, so /healthz would wait for it.
 */
export async function spawnServer(
  database: ProcessDatabase,
  env: Record<string, string> = {},
  /** startMs: how long the start may take (120 s; a first start seeds the whole demo) */
  opts: { ready?: 'health' | 'started'; startMs?: number } = {},
): Promise<ServerProcess> {
  await buildServer();
  // node itself runs the built server (no npm wrapper), so a signal reaches it; PORT=0 lets the
  // system pick a free port (read back from the banner), so no other process can take it meanwhile
  const child = spawn(process.execPath, ['--enable-source-maps', builtServer], {
    cwd: repoRoot,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      SANDBOX: '1',
      ANON_RATE_PER_MINUTE: '0',
      ...database.env,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const startMs = opts.startMs ?? 120_000;
  const deadline = Date.now() + startMs;
  let url = '';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during start:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in ${startMs / 1000} s:\n${output}`);
    }
    const port = new RegExp(`${BANNER}: https?://[^\\s:/]+:(\\d+)`).exec(output)?.[1];
    if (port && !url) url = `http://127.0.0.1:${port}`;
    if (url && opts.ready === 'started') break;
    if (url) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        // not answering yet
      }
    }
    await new Promise((r) => setTimeout(r, url ? 50 : 5));
  }
  const call: ServerProcess['call'] = async (method, payload = {}, token, side = 'community') => {
    const res = await fetch(`${url}/${side === 'group' ? 'webapi_leader' : 'webapi'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-method': method, ...(token ? { 'x-token': token } : {}) },
      body: JSON.stringify({ method, ...payload }),
    });
    return (await res.json()) as TestAnswer;
  };
  return {
    url,
    child,
    call,
    output: () => output,
    async login(username, password = DEMO_PASSWORD) {
      const res = await call<{ token: string }>('login', { username, password });
      if (res.return_code !== 'SUCCESS') throw new Error(`login ${username}: ${res.return_msg}`);
      return res.data.token;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `probe` until it answers something truthy; fails with `what` after `ms`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 60_000, every = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
