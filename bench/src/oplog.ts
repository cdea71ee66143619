/**
 * The operation log at scale (bench/README.md, 操作日志): `DATABASE_URL=… npx tsx bench/src/oplog.ts`
 * migrates and seeds the demo into schema bench_oplog (--schema), adds a year of audit rows
 * (ROWS, default 1,000,000: 45 % to each of the two communities, 10 % sign-ins), and times a page
 * of operationloglist (logPage, page and total as the handler runs them) for each filter: median and
 * slowest of 7 calls.
 */
import { sql } from 'kysely';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/connection.js';
import { migrate } from '../../server/src/db/migrate.js';
import { seedDemo } from '../../server/src/db/seed.js';
import { logPage, type LogScope } from '../../server/src/modules/system/operationlog.js';

const schemaArg = process.argv.indexOf('--schema');
const schema = schemaArg > 0 ? process.argv[schemaArg + 1]! : 'bench_oplog';
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
const base = loadConfig(process.env, { logLevel: 'silent' });
if (!base.databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL server');
const setup = await openDatabase(base, {});
await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(setup.db);
await setup.close();
const config = { ...base, dbSchema: schema };
const database = await openDatabase(config, {});
await migrate(database.pool);
await seedDemo(database.db);
const db = database.db;
const N = Number(process.env.ROWS ?? 1_000_000);
const have = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log`.execute(db);
if (have.rows[0]!.n < N) {
  console.time('fill');
  // a year of writes: 45 % each to communities 1 and 2, 10 % sign-ins (no community)
  await sql`
    INSERT INTO audit_log (rid, account_id, username, side, method, payload, outcome, message, ip, created_at)
    SELECT CASE WHEN i % 20 < 9 THEN 1 WHEN i % 20 < 18 THEN 2 ELSE NULL END,
           CASE WHEN i % 20 < 18 THEN (SELECT id FROM accounts WHERE username = (ARRAY['admin','cashier','admin2','cashier2'])[1 + i % 4]) END,
           (ARRAY['admin','cashier','admin2','cashier2'])[1 + i % 4], 'community',
           (ARRAY['cashierpay','cashierpay','cashierpay','memberedit','meterreadingadd','feebillgenerate','caradd','feeedit','login','quickpay'])[1 + (i / 7) % 10],
           jsonb_build_object('hid', i % 50000, 'pay_type', 'cash', 'paid_amount', (i % 900)::text || '.00', 'remark', 'r' || i),
           CASE WHEN i % 97 = 0 THEN 'FAIL' ELSE 'SUCCESS' END, CASE WHEN i % 97 = 0 THEN '所选账单已缴费' ELSE '收费成功' END,
           '10.0.0.' || (i % 200), now() - make_interval(secs => (${N} - i) * (365.0 * 86400 / ${N}))
    FROM generate_series(1, ${N}) i`.execute(db);
  await sql`VACUUM ANALYZE audit_log`.execute(db);
  console.timeEnd('fill');
}
const day = (d: number) => new Date(Date.now() - d * 86400e3).toISOString().slice(0, 10);
const cases: Array<[string, LogScope, Record<string, unknown>]> = [
  ['community p1', { rid: 1 }, {}],
  ['community p50', { rid: 1 }, { page: 50 }],
  ['community month', { rid: 1 }, { create_time: [day(30), day(0)] }],
  ['community operator 张', { rid: 1 }, { operator: '张经' }],
  ['community operator cashier', { rid: 1 }, { operator: 'cashier' }],
  ['community action feeedit', { rid: 1 }, { action: 'feeedit' }],
  ['community action rare (setsysinfo)', { rid: 1 }, { action: 'setsysinfo' }],
  ['community failed', { rid: 1 }, { result: 'N' }],
  ['community keyword + week', { rid: 1 }, { keyword: 'r12345', create_time: [day(7), day(0)] }],
  ['community keyword + month', { rid: 1 }, { keyword: 'r12345', create_time: [day(30), day(0)] }],
];
const users = (await sql<{ username: string }>`SELECT username FROM accounts WHERE group_id = 1`.execute(db)).rows.map((r) => r.username);
const rids = (await sql<{ id: number }>`SELECT id FROM regions WHERE group_id = 1`.execute(db)).rows.map((r) => r.id);
cases.push(
  ['group p1', { groupId: 1, rids, usernames: users }, {}],
  ['group failed', { groupId: 1, rids, usernames: users }, { result: 'N' }],
);
for (const [name, scope, f] of cases) {
  const times: number[] = [];
  let total = 0;
  for (let k = 0; k < 7; k++) {
    const t = performance.now();
    const r = await logPage(db, scope, 1, f as never, { page: (f.page as number) ?? 1, limit: 10, sort: 'desc' });
    times.push(performance.now() - t);
    total = r.total;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(36)} median ${times[3]!.toFixed(1).padStart(7)} ms  max ${times[6]!.toFixed(1).padStart(7)} ms  total ${total}`,
  );
}
await database.close();
