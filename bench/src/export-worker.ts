import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/connection.js';
import { buildApp } from '../../server/src/http/app.js';
import { JobRunner } from '../../server/src/jobs/runner.js';

export interface ExportWorker {
  /** runs the queued jobs (an export just asked for) and answers when they are done */
  drain(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A job worker in the benchmark's own process on the benchmark database, for the server started
 * with RUN_JOBS=0: it runs what a call queued, and no daily job (they would mark the scale data's
 * bills overdue).
 */
export async function exportWorker(databaseUrl: string, schema: string): Promise<ExportWorker> {
  const config = loadConfig(process.env, { databaseUrl, dbSchema: schema, logLevel: 'silent', seedDemo: false, runJobs: false });
  const database = await openDatabase(config);
  // building the app registers every job kind, as in the server
  const app = await buildApp(config, database, { logger: false });
  const runner = new JobRunner(database.db, app.fastify.log, { daily: false });
  return {
    drain: () => runner.drain(),
    close: async () => {
      await app.fastify.close();
      await database.close();
    },
  };
}
