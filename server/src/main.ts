import { loadConfig } from './config.js';
import { startServer } from './server.js';

const server = await startServer(loadConfig());
const shutdown = async (signal: string) => {
  server.app.fastify.log.info({ signal }, 'shutting down');
  await server.stop();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
