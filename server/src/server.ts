import { checkStartConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoActivationCodes, seedDemo } from './db/seed.js';
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
  // before anything opens: a production start without its public address, or with a sandbox, stops here
  checkStartConfig(config);
  const database = await openDatabase(config);
  await migrate(database.pool);
  const seeded = config.seedDemo ? await seedDemo(database.db) : false;
  const app = await buildApp(config, database, { logger: !opts.quiet });
  await app.fastify.listen({ port: config.port, host: config.host });
  if (config.runJobs) app.jobs.start();
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  if (!opts.quiet) {
    const codes = config.seedDemo ? await demoActivationCodes(database.db) : [];
    printBanner({ url, kind: database.kind, seeded, ms: Date.now() - started, config, codes });
  }
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

function printBanner(b: { url: string; kind: string; seeded: boolean; ms: number; config: Config; codes: string[] }) {
  const { url, config } = b;
  const lines = [
    '',
    `  物业管理控制台已启动: ${url}   (数据库: ${b.kind}${b.seeded ? '，已创建演示数据' : ''}，${b.ms} ms)`,
    `  接口目录: ${url}/api-docs`,
    config.sandbox
      ? `  沙箱: 已开启（演示用：续费二维码指向 ${config.publicUrl ?? url}/sandbox-pay/…，不经真实支付即可续费；SANDBOX=0 关闭）`
      : '  沙箱: 未开启（扫码续费需接入真实支付渠道；激活码续费可用）',
    ...(config.seedDemo
      ? [`  演示账号（密码均为 ${DEMO_PASSWORD}）:`, ...DEMO_ACCOUNTS.map((a) => `    ${a.username.padEnd(10)} ${a.note}`)]
      : []),
    ...(b.codes.length ? [`  续费激活码（演示，各 12 个月）: ${b.codes.join(', ')}`] : []),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
