import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

const server = await Promise.resolve()
  .then(() => startServer(loadConfig()))
  .catch((err: unknown) => {
    if (!(err instanceof ConfigError)) throw err;
    // a setting the server refuses (config.ts): the reason, without a stack
    process.stderr.write(`\n  无法启动: ${err.message}\n\n`);
    process.exit(1);
  });
const shutdown = async (signal: string) => {
  server.app.fastify.log.info({ signal }, 'shutting down');
  await server.stop();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
