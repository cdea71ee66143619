import type { Config } from './config.js';
import { openDatabase, type Database } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { DEMO_ACCOUNTS, DEMO_ACTIVATION_CODES, DEMO_PASSWORD, seedDemo } from './db/seed.js';
import { buildApp, type App } from './http/app.js';

export interface RunningServer {
  app: App;
  database: Database;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds an empty one, then listens. */
export async function startServer(config: Config, opts: { quiet?: boolean } = {}): Promise<RunningServer> {
  const started = Date.now();
  const database = await openDatabase(config);
  await migrate(database.pool);
  const seeded = config.seedDemo ? await seedDemo(database.db) : false;
  const app = await buildApp(config, database, { logger: !opts.quiet });
  await app.fastify.listen({ port: config.port, host: config.host });
  if (config.runJobs) app.jobs.start();
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  if (!opts.quiet) printBanner(url, database.kind, seeded, Date.now() - started);
  return {
    app,
    database,
    url,
    async stop() {
      await app.jobs.stop();
      await app.fastify.close();
      await database.close();
    },
  };
}

function printBanner(url: string, kind: string, seeded: boolean, ms: number) {
  const lines = [
    '',
    `  物业管理控制台已启动: ${url}   (数据库: ${kind}${seeded ? '，已创建演示数据' : ''}，${ms} ms)`,
    `  接口目录: ${url}/api-docs`,
    `  演示账号（密码均为 ${DEMO_PASSWORD}）:`,
    ...DEMO_ACCOUNTS.map((a) => `    ${a.username.padEnd(10)} ${a.note}`),
    `  续费激活码（演示）: ${DEMO_ACTIVATION_CODES.join(', ')}`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
