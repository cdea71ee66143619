import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/connection.js';
import { buildApp } from '../../server/src/http/app.js';

export interface CapturedCall {
  answer: { return_code: string; return_msg: string; data: any };
  /** the statements the method itself ran (the session lookup left out) */
  sql: Array<{ text: string; values: unknown[] }>;
}

/**
 * Runs a method once in process against the benchmark database and records the SQL it issues,
 * so the raw side of a benchmark replays exactly what the handler does.
 */
export async function captureSql(databaseUrl: string, schema: string) {
  let recording: CapturedCall['sql'] | null = null;
  const { app, close } = await benchApp(databaseUrl, schema, (text, values) => {
    if (recording && !/"sessions"/.test(text)) recording.push({ text, values: [...values] });
  });
  return {
    async call(method: string, payload: Record<string, unknown>, token: string): Promise<CapturedCall> {
      recording = [];
      const res = await app.fastify.inject({
        method: 'POST',
        url: '/webapi',
        headers: { 'x-token': token },
        payload: { method, ...payload },
      });
      const sql = recording;
      recording = null;
      return { answer: res.json(), sql };
    },
    close,
  };
}

/**
 * The server's app in this process on the benchmark database, without its jobs or demo data:
 * every method and job kind registered, as in the server. `onQuery` sees each statement it runs.
 */
export async function benchApp(databaseUrl: string, schema: string, onQuery?: (text: string, values: readonly unknown[]) => void) {
  const config = loadConfig(process.env, { databaseUrl, dbSchema: schema, logLevel: 'silent', seedDemo: false, runJobs: false });
  const database = await openDatabase(config, onQuery ? { onQuery } : {});
  const app = await buildApp(config, database, { logger: false });
  return {
    app,
    database,
    close: async () => {
      await app.fastify.close();
      await database.close();
    },
  };
}
