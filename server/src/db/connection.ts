import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { runTemplatesOn } from './compiled.js';
import { PGlitePool } from './pglite-pool.js';
import { PipelinedConnections } from './pipeline.js';
import { PreparingClient } from './prepared.js';
import type { DB } from './schema.js';

/** The driver-level pool both kinds answer to: `query` and `connect`. */
export interface SqlPool {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  connect(): Promise<{ query: SqlPool['query']; release(): void }>;
  end(): Promise<void>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Kysely<DB>;
  pool: SqlPool;
  close(): Promise<void>;
}

// Same JavaScript types from both drivers: int8 -> number, int8[] -> number[] (pg answered
// strings, PGlite numbers), numeric -> string, date -> 'YYYY-MM-DD', timestamptz -> Date.
// db/types.generated.ts types the columns so.
const INT8 = 20;
type TypeId = Parameters<typeof pg.types.getTypeParser>[0]; // an enum of the scalar types only
const INT8_ARRAY = 1016 as TypeId;
const INT4_ARRAY = 1007 as TypeId;
const DATE = 1082;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(INT8_ARRAY, pg.types.getTypeParser(INT4_ARRAY));
pg.types.setTypeParser(DATE, (v) => v);

export interface OpenOptions {
  memory?: boolean;
  /** the embedded database starts as this saved data directory (PGlite's dumpDataDir), not empty */
  loadDataDir?: Blob;
  /** sees every statement Kysely runs (the benchmarks replay a method's SQL with it) */
  onQuery?: (sql: string, params: readonly unknown[]) => void;
}

export async function openDatabase(config: Config, opts: OpenOptions = {}): Promise<Database> {
  const pool = config.databaseUrl ? openPostgres(config) : await openPglite(config, opts.memory ?? false, opts.loadDataDir);
  // light statements of templates go to pipelined connections on a PostgreSQL server (db/pipeline.ts)
  const lanes =
    config.databaseUrl && config.pipelineConnections > 0
      ? new PipelinedConnections(config.pipelineConnections, postgresClientConfig(config), config.prepareStatements, pool)
      : undefined;
  if (config.databaseUrl && config.dbSchema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(config.dbSchema)) throw new Error(`DB_SCHEMA must be a plain lower-case name: ${config.dbSchema}`);
    // two processes starting together can both pass IF NOT EXISTS; the loser's unique violation means the schema is there
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${config.dbSchema}`).catch((e: unknown) => {
      const code = (e as { code?: string }).code;
      if (code !== '23505' && code !== '42P06') throw e;
    });
  }
  const onQuery = opts.onQuery;
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }),
    log: onQuery
      ? (event) => {
          if (event.level === 'query') onQuery(event.query.sql, event.query.parameters);
        }
      : undefined,
  });
  runTemplatesOn(db, async (text, parameters) => {
    const result = await (lanes ?? pool).query(text, parameters);
    onQuery?.(text, parameters);
    return result;
  });
  return {
    kind: config.databaseUrl ? 'postgres' : 'pglite',
    db,
    pool,
    close: async () => {
      await lanes?.end();
      await db.destroy();
    },
  };
}

/** Where a connection to the PostgreSQL server goes and the session it starts with. */
function postgresClientConfig(config: Config): pg.ClientConfig {
  // session settings travel in the startup packet, so no extra round trip per connection. JIT
  // off: compiling a report's or a whole community's count cost 30-100 ms more than it saved
  // on the console's statements, which read at most a community's rows (bench/README.md#steward-desk)
  const options = [`-c TimeZone=${config.timeZone}`, '-c jit=off', config.dbSchema ? `-c search_path=${config.dbSchema}` : '']
    .join(' ')
    .trim();
  return { connectionString: config.databaseUrl, options };
}

function openPostgres(config: Config): SqlPool {
  const pool = new pg.Pool({
    // statements are prepared on each connection (db/prepared.ts) unless turned off
    Client: config.prepareStatements ? PreparingClient : pg.Client,
    ...postgresClientConfig(config),
    max: config.poolMax,
  });
  return pool as unknown as SqlPool;
}

async function openPglite(config: Config, memory: boolean, loadDataDir?: Blob): Promise<SqlPool> {
  if (!memory) fs.mkdirSync(config.dataDir, { recursive: true });
  const pglite = await PGlite.create(memory ? undefined : config.dataDir, {
    parsers: { [DATE]: (v: string) => v },
    loadDataDir,
  });
  await pglite.exec(`SET TIME ZONE '${config.timeZone}'`);
  return new PGlitePool(pglite, { queueMax: config.pgliteQueueMax, waitMs: config.pgliteWaitMs }) as unknown as SqlPool;
}
