/**
 * npm run bench:gates -- [--seconds 10] [--concurrency 16] [--keep]   (needs DATABASE_URL)
 *
 * The lane decision (docs/product.md#parking-gates) through the gate simulator's way in, `gateevent`
 * on /webapi, side by side with the same SQL replayed raw through pg, each call with its own plate:
 * an entry of a car already inside (the booth lets it in again: the old stay closed, a new one
 * opened, the decision logged) and the exit of a temporary car that owes (its fee priced with the
 * version in force at its entry and its coupons, the quote kept on the stay, the decision logged).
 * The target: at least 500 decisions a second on this machine, p95 under 50 ms.
 *
 * A fresh schema is made, seeded with the demo by the server, and dropped afterwards (--keep keeps it).
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { rawPool, signIn, post } from './api.js';
import { sampleLoad, summarize } from './load.js';
import { captureSql } from './capture.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    keep: { type: 'boolean', default: false },
  },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench:gates runs against a PostgreSQL server: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)\n');
  process.exit(2);
}
const seconds = Number(flags.seconds);
const concurrency = Number(flags.concurrency);
const schema = `bench_gates_${crypto.randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);

/** A wire time of the business time zone (Asia/Shanghai, UTC+8) `minutes` from now. */
const wire = (minutes: number) => {
  const t = new Date(Date.now() + minutes * 60_000 + 8 * 3600_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
};

let server: ServerProcess | undefined;
let exitCode = 0;
try {
  server = await startServerProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: schema });
  const token = await signIn(server.url, 'parking');
  const lanes = await post(server.url, { method: 'parkinglanelist', limit: 50 }, token);
  const laneOf = (title: string) => (lanes.data.items as Array<{ id: number; title: string }>).find((l) => l.title === title)!.id;
  const laneIn = laneOf('地库入口');
  const laneOut = laneOf('地库出口');
  // many plates, so that clients do not queue on one stay's row as no two cars at a gate do
  const PLATES = 2000;
  const plate = (i: number) => `沪Z${String(100000 + (i % PLATES)).slice(1)}`;
  for (let i = 0; i < PLATES; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, k) =>
        post(server!.url, { method: 'gateevent', lane_id: laneIn, plate: plate(i + k), at: wire(-120) }, token),
      ),
    );
  }
  const capture = await captureSql(databaseUrl, schema);
  const pool = rawPool(databaseUrl, schema);
  const rows: string[] = [];
  try {
    for (const [name, lane] of [
      ['entry of a car inside (re-entry: the old stay closed, a new one opened)', laneIn],
      ['exit of a temporary car that owes (priced with its version and coupons)', laneOut],
    ] as const) {
      // the statements one decision runs, captured in process; the raw side replays them in order
      // in one transaction, as the handler does, with each call's own plate
      const probe = plate(PLATES - 1);
      const { answer, sql: statements } = await capture.call('gateevent', { lane_id: lane, plate: probe }, token);
      if (answer.return_code !== 'SUCCESS') throw new Error(`${name}: ${answer.return_msg}`);
      let n = 0;
      const api = () =>
        sampleLoad(
          async () => (await post(server!.url, { method: 'gateevent', lane_id: lane, plate: plate(n++) }, token)).return_code === 'SUCCESS',
          concurrency,
          seconds,
        );
      let m = 0;
      const raw = () =>
        sampleLoad(
          async () => {
            const p = plate(m++);
            const client = await pool.connect();
            try {
              await client.query('BEGIN');
              for (const q of statements) {
                if (/^(begin|commit|rollback)/i.test(q.text.trim())) continue;
                await client.query(
                  q.text,
                  q.values.map((v) => (v === probe ? p : v)),
                );
              }
              await client.query('COMMIT');
              return true;
            } catch {
              await client.query('ROLLBACK').catch(() => undefined);
              return false;
            } finally {
              client.release();
            }
          },
          concurrency,
          seconds,
        );
      await api();
      const apiResult = summarize([await api()]);
      await raw();
      const rawResult = summarize([await raw()]);
      console.log(
        `${name}: API ${apiResult.rps}/s p95 ${apiResult.p95} ms; raw ${rawResult.rps}/s p95 ${rawResult.p95} ms (${statements.length} statements)`,
      );
      rows.push(
        `| ${name}, ${concurrency} clients, ${PLATES} plates | API ${apiResult.rps} decisions/s (p50 ${apiResult.p50} / p95 ${apiResult.p95} / p99 ${apiResult.p99} ms, ${apiResult.errors} errors); raw ${rawResult.rps}/s (p95 ${rawResult.p95} ms, ${rawResult.errors} errors) | ≥ 500/s, p95 < 50 ms |`,
      );
      if (apiResult.rps < 500 || apiResult.p95 >= 50) exitCode = 1;
    }
  } finally {
    await pool.end();
    await capture.close();
  }
  console.log(['', '| case | measured | target |', '|---|---|---|', ...rows].join('\n'));
} finally {
  await server?.stop();
  if (!flags.keep) await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
}
process.exit(exitCode);
