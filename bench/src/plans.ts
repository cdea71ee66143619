/**
 * npm run bench:plans -- [--schema bench_scale] [--runs 20]
 *
 * Prepared statements (server/src/db/prepared.ts) settle on one plan per connection after five
 * runs, a generic plan where PostgreSQL estimates it no dearer than planning for the values. That
 * plan must suit every value, not only the first ones a connection meets. For each method that
 * prepares statements, this runs every prepared statement of many payloads on one connection in
 * turn (the first payload settles the plan), and times each against the same statement planned
 * for its own values (unnamed), on the scale data. A prepared run slower than 1.5 times the
 * re-planned one plus 0.5 ms is reported, and makes the command exit 1.
 * Needs DATABASE_URL and the schema bench:data filled; prints, writes nothing.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PREPARE_TAG } from '../../server/src/db/prepared.js';
import { rawSessionOptions } from './api.js';
import { captureSql } from './capture.js';
import { DEMO_OWNER_MOBILE } from './cases.js';
import { DEFAULT_SCHEMA } from './scale-data.js';

const { values: flags } = parseArgs({
  options: { schema: { type: 'string', default: DEFAULT_SCHEMA }, runs: { type: 'string', default: '20' } },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench:plans runs against a PostgreSQL server: set DATABASE_URL\n');
  process.exit(2);
}
const RUNS = Number(flags.runs);
const SLOWER = 1.5;
const SLACK_MS = 0.5;

type Room = { rid: number; bid: number; tid: number; hid: number };

/** Payloads of each method, the common ones first: a connection meets them in this order. */
const variants = (home: Room, other: Room): Array<[string, Record<string, unknown>]> => [
  ...['1380', '13800138000', '1', '139', '1860', '秀英', '陈', '陈建国', '王芳', '无此人'].map(
    (keywords) => ['getkeywordtohouses', { keywords }] as [string, Record<string, unknown>],
  ),
  ['houseinfoplus', home],
  ['houseinfoplus', other],
  ...['housecarlist', 'member_otherhouse_list', 'visitorapplylist', 'homeconsumelist', 'housecarinoutlist', 'housefacelist'].flatMap(
    (method) =>
      [
        [method, { ...home, page: 1, limit: 10 }],
        [method, { ...other, page: 1, limit: 10 }],
        [method, { ...home, page: 2, limit: 10 }],
      ] as Array<[string, Record<string, unknown>]>,
  ),
  ['feebilllist', { ...home, page: 1, limit: 10, sort: 'desc' }],
  ['feebilllist', { ...other, page: 1, limit: 10, sort: 'desc' }],
  ...(['N', 'E', 'Y'] as const).map((status) => ['feebilllist', { page: 1, limit: 10, status }] as [string, Record<string, unknown>]),
  ...(['N', 'E', 'Y'] as const).flatMap(
    (status) =>
      [
        ['feebilllist', { bid: home.bid, cost_types: ['property'], status, page: 1, limit: 10, sort: 'desc' }],
        ['feebilllist', { bid: other.bid, cost_types: ['parking'], status, page: 1, limit: 10, sort: 'desc' }],
        ['feebilllist', { bid: other.bid, status, page: 1, limit: 10 }],
      ] as Array<[string, Record<string, unknown>]>,
  ),
  ['feebilllist', { page: 1, limit: 10, is_check: 'Y' }],
  ['feebilllist', { page: 1, limit: 10, itemid: 1 }],
  ['feebilllist', { page: 1, limit: 10 }],
];

const capture = await captureSql(databaseUrl, flags.schema);
const client = new pg.Client({ connectionString: databaseUrl, options: rawSessionOptions(flags.schema) });
await client.connect();
let bad = 0;
try {
  const login = await capture.call('login', { username: 'admin', password: 'demo123456' }, '');
  const token = login.answer.data?.token as string;
  const found = (await capture.call('getkeywordtohouses', { keywords: DEMO_OWNER_MOBILE }, token)).answer.data?.items ?? [];
  const anyone = (await capture.call('getkeywordtohouses', { keywords: '1860' }, token)).answer.data?.items ?? [];
  if (!found[0] || !anyone[0]) throw new Error(`no demo owner in schema ${flags.schema}: run npm run bench:data`);
  const room = (h: Room): Room => ({ rid: h.rid, bid: h.bid, tid: h.tid, hid: h.hid });
  const names = new Map<string, string>();
  const time = async (run: () => Promise<unknown>) => {
    const t = performance.now();
    for (let i = 0; i < RUNS; i++) await run();
    return (performance.now() - t) / RUNS;
  };
  console.log('| method, payload | statement | prepared ms | planned per call ms | plan |\n|---|---|---|---|---|');
  for (const [method, payload] of variants(room(found[0]), room(anyone[anyone.length - 1]))) {
    const { answer, sql } = await capture.call(method, payload, token);
    if (answer.return_code !== 'SUCCESS') throw new Error(`${method} ${JSON.stringify(payload)}: ${answer.return_msg}`);
    for (const q of sql.filter((s) => s.text.includes(PREPARE_TAG))) {
      let name = names.get(q.text);
      if (!name) {
        name = `p${names.size}`;
        names.set(q.text, name);
        // the first payload to meet a statement settles its plan, as on a server's connection
        for (let i = 0; i < 6; i++) await client.query({ name, text: q.text, values: q.values });
      }
      const preparedMs = await time(() => client.query({ name, text: q.text, values: q.values }));
      const plannedMs = await time(() => client.query(q.text, q.values));
      const explain = await client.query(
        `EXPLAIN EXECUTE ${name}(${q.values.map((v) => pg.escapeLiteral(Array.isArray(v) ? `{${v.join(',')}}` : String(v))).join(', ')})`,
      );
      const generic = explain.rows.some((r: Record<string, string>) => /\$\d/.test(r['QUERY PLAN']!));
      const slow = preparedMs > plannedMs * SLOWER + SLACK_MS;
      if (slow) bad++;
      console.log(
        `| ${method} \`${JSON.stringify(payload)}\` | ${name} | ${preparedMs.toFixed(2)}${slow ? ' ✗' : ''} | ${plannedMs.toFixed(2)} | ${generic ? 'generic' : 'custom'} |`,
      );
    }
  }
} finally {
  await client.end();
  await capture.close();
}
console.log(
  bad
    ? `\n${bad} prepared runs slower than ${SLOWER}× their re-planned time + ${SLACK_MS} ms`
    : `\nno prepared run slower than ${SLOWER}× its re-planned time + ${SLACK_MS} ms`,
);
process.exit(bad ? 1 : 0);
