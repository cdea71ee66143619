import { JobRunner } from '../../server/src/jobs/runner.js';
import { benchApp } from './capture.js';

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
  const { app, database, close } = await benchApp(databaseUrl, schema);
  const runner = new JobRunner(database.db, app.fastify.log, { daily: false });
  return { drain: () => runner.drain(), close };
}
