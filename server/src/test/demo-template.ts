/**
 * Vitest global setup of the server tests: one database migrated and seeded with the demo, which
 * every test server then starts from (harness.ts), the same database each time.
 * - PGlite: saved as a data directory file. Migrating and seeding took 5.4 s a test server; starting
 *   from the saved directory takes 0.6 s.
 * - A PostgreSQL server (DATABASE_URL): a template database, which each test server copies with
 *   CREATE DATABASE … TEMPLATE instead of migrating and seeding a schema of its own.
 * The demo's dates count from the day it was seeded (a community's 20 days left, today's stays); a
 * test server started once the community's day has turned seeds a demo of its own (harness.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config.js';
import { adminQuery } from '../db/adminQuery.js';
import { openDatabase } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import type { PGlitePool } from '../db/pglite-pool.js';
import { seedDemo } from '../db/seed.js';
import { today } from '../lib/wire.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** the saved demo database's file, or '' on a PostgreSQL server */
    pgliteTemplate: string;
    /** the demo template database on the PostgreSQL server, or '' on PGlite */
    pgTemplate: string;
    /** the community day (wire.ts `today`) the demo was seeded on: its dates count from it */
    demoDay: string;
  }
}

export async function setup(project: TestProject) {
  const config = loadConfig(process.env, { logLevel: 'silent' });
  project.provide('demoDay', today());
  if (config.databaseUrl) {
    const name = `wuye_demo_${crypto.randomBytes(4).toString('hex')}`;
    await adminQuery(config.databaseUrl, `CREATE DATABASE ${name}`);
    const database = await openDatabase({ ...config, databaseUrl: databaseUrlOf(config.databaseUrl, name), dbSchema: undefined });
    try {
      await migrate(database.pool);
      await seedDemo(database.db);
    } finally {
      await database.close();
    }
    project.provide('pgliteTemplate', '');
    project.provide('pgTemplate', name);
    return () => dropDatabase(config.databaseUrl!, name);
  }
  const database = await openDatabase(config, { memory: true });
  const file = path.join(os.tmpdir(), `wuye-test-demo-${process.pid}.tar`);
  try {
    await migrate(database.pool);
    await seedDemo(database.db);
    const saved = await (database.pool as unknown as PGlitePool).pglite.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await saved.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', '');
  return () => fs.rmSync(file, { force: true });
}

/**
 * Drops a test server's database once its connections have gone. A plain DROP DATABASE waits up
 * to 5 s for connections still closing (a pool's clients end a moment after it resolves); one
 * still open after that was left behind, and is cut.
 */
export async function dropDatabase(url: string, name: string): Promise<void> {
  await adminQuery(url, `DROP DATABASE IF EXISTS ${name}`).catch(() => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** `url` with its database name replaced by `name`. */
export function databaseUrlOf(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
