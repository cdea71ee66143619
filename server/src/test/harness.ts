import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import type { FileAnswer, MethodName } from '@wuye/contract';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import { DEMO_PASSWORD, seedDemo } from '../db/seed.js';
import { buildApp, type App } from '../http/app.js';
import type { Side } from '../http/registry.js';
import { assertKeptData } from './keptData.js';

export interface TestAnswer<T = any> {
  return_code: string;
  return_msg: string;
  data: T;
}

export interface TestServer {
  app: App;
  database: Database;
  config: Config;
  /** POST /webapi (or /webapi_leader) through the real HTTP stack, in process */
  call<T = any>(method: MethodName | string, payload?: Record<string, unknown>, token?: string, side?: Side): Promise<TestAnswer<T>>;
  services(): App['services'];
  /** runs queued jobs now, as the worker would */
  runJobs(): Promise<number>;
  /**
   * An export as the page makes it: queues it, runs the job and fetches the workbook
   * (exportfile); a refused call (permission, payload, too many rows) answers as it is.
   */
  exportFile(method: MethodName, payload: Record<string, unknown>, token: string): Promise<TestAnswer<FileAnswer>>;
  /** signs a demo account in and answers its token */
  login(username: string, password?: string): Promise<string>;
  /**
   * An account written straight into the database with the demo password and these codes (no
   * roles of the team area), working in `regions`: for a test that needs an account the demo lacks
   */
  addAccount(
    username: string,
    values: { roles: string[]; regions?: number[]; sysType?: 'property' | 'merchant' | 'leader'; groupId?: number; name?: string },
  ): Promise<number>;
  /** signs several demo accounts in at once: their tokens, in the order of the names */
  logins<const U extends readonly string[]>(...usernames: U): Promise<{ -readonly [K in keyof U]: string }>;
  close(): Promise<void>;
}

/**
 * A server on a database of its own: PGlite in memory, or a fresh schema on the PostgreSQL
 * server when DATABASE_URL is set, migrated and seeded with the demo. PGlite starts as the demo
 * database the tests' global setup saved (pglite-template.ts), where there is one.
 */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  // the demo's configuration (the sandbox on, as `npm start` has it, on either database); every call
  // of a test comes from one address, so the per-address limit of callers without a session is off
  // unless a test asks for it
  const base = loadConfig(process.env, { logLevel: 'silent', sandbox: true, anonRatePerMinute: 0, ...overrides });
  const schema = base.databaseUrl ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  if (schema) await createSchema(base, schema);
  const config = { ...base, dbSchema: schema };
  const template = base.databaseUrl ? '' : inject('pgliteTemplate');
  const database = await openDatabase(config, { memory: true, loadDataDir: template ? new Blob([fs.readFileSync(template)]) : undefined });
  // on the saved demo database this finds every migration applied
  await migrate(database.pool);
  if (!template) await seedDemo(database.db);
  const app = await buildApp(config, database, { logger: false });
  await app.fastify.ready();

  const call: TestServer['call'] = async (method, payload = {}, token, side = 'community') => {
    const res = await app.fastify.inject({
      method: 'POST',
      url: side === 'group' ? '/webapi_leader' : '/webapi',
      // as the console sends it: the method also in X-Method, which lets an upload's body be large
      headers: { 'x-method': method, ...(token ? { 'x-token': token } : {}) },
      payload: { method, ...payload },
    });
    return res.json();
  };
  const login = async (username: string, password = DEMO_PASSWORD) => {
    const res = await call<{ token: string }>('login', { username, password });
    if (res.return_code !== 'SUCCESS') throw new Error(`login ${username}: ${res.return_msg}`);
    return res.data.token;
  };
  return {
    app,
    database,
    config,
    call,
    runJobs: () => app.jobs.drain(),
    async exportFile(method, payload, token) {
      const queued = await call<{ job_id: number }>(method, payload, token);
      if (queued.return_code !== 'SUCCESS') return queued as unknown as TestAnswer<FileAnswer>;
      await app.jobs.drain();
      return call<FileAnswer>('exportfile', { id: queued.data.job_id }, token);
    },
    services: () => app.services,
    login,
    async addAccount(username, { roles, regions = [1], sysType = 'property', groupId = 1, name = `测试${username}` }) {
      const db = database.db;
      const { password_hash } = await db
        .selectFrom('accounts')
        .select('password_hash')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow();
      const { id } = await db
        .insertInto('accounts')
        .values({ username, password_hash, name, roles, sys_type: sysType, group_id: groupId })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (regions.length)
        await db
          .insertInto('account_regions')
          .values(regions.map((rid, sort) => ({ account_id: id, rid, sort })))
          .execute();
      return id;
    },
    async logins(...usernames) {
      return (await Promise.all(usernames.map((u) => login(u)))) as never;
    },
    async close() {
      // whatever the file did, what the database keeps for reading (bill totals, room addresses) must still agree with its tables
      const wrong = await assertKeptData(database.db).then(
        () => undefined,
        (err: unknown) => err,
      );
      await app.fastify.close();
      await database.close();
      if (schema) await dropSchema(base, schema);
      if (wrong) throw wrong;
    },
  };
}

async function createSchema(config: Config, schema: string) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
}

async function dropSchema(config: Config, schema: string) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
