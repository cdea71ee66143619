import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import type { FileAnswer, MethodName } from '@wuye/contract';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import { DEMO_PASSWORD, seedDemo } from '../db/seed.js';
import { buildApp, type App } from '../http/app.js';
import { today } from '../lib/wire.js';
import type { Side } from '../http/registry.js';
import { assertKeptData } from './keptData.js';
import { adminQuery } from '../db/adminQuery.js';
import { databaseUrlOf, dropDatabase } from './demo-template.js';

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
 * A server on a database of its own, the demo as the tests' global setup made it once
 * (demo-template.ts): a PGlite in memory started from the saved demo data directory, or on the
 * PostgreSQL server (DATABASE_URL) a database copied from the demo template database. A PGlite
 * without the saved directory (a test run outside the server project), or any test server once the
 * day the demo was seeded on has passed, is migrated and seeded here.
 */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  // the demo's configuration (the sandbox on, as `npm start` has it, on either database); every call
  // of a test comes from one address, so the per-address limit of callers without a session is off
  // unless a test asks for it
  const base = loadConfig(process.env, { logLevel: 'silent', sandbox: true, anonRatePerMinute: 0, ...overrides });
  // the run's demo copied while its day is the community's today; after midnight (Asia/Shanghai)
  // its relative dates would be a day off, so this server seeds its own
  const templateFresh = inject('demoDay') === today();
  // on the PostgreSQL server a database of its own, copied from the run's demo template
  const ownDatabase = base.databaseUrl ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  const pgTemplate = templateFresh ? inject('pgTemplate') : '';
  if (ownDatabase) await adminQuery(base.databaseUrl!, `CREATE DATABASE ${ownDatabase}${pgTemplate ? ` TEMPLATE ${pgTemplate}` : ''}`);
  const config = { ...base, dbSchema: undefined, ...(ownDatabase ? { databaseUrl: databaseUrlOf(base.databaseUrl!, ownDatabase) } : {}) };
  const pgliteTemplate = base.databaseUrl || !templateFresh ? '' : inject('pgliteTemplate');
  const database = await openDatabase(config, {
    memory: true,
    loadDataDir: pgliteTemplate ? new Blob([fs.readFileSync(pgliteTemplate)]) : undefined,
  });
  // on a copy of the demo this finds every migration applied
  await migrate(database.pool);
  if (!pgliteTemplate && !pgTemplate) await seedDemo(database.db);
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
      if (ownDatabase) await dropDatabase(base.databaseUrl!, ownDatabase);
      if (wrong) throw wrong;
    },
  };
}
