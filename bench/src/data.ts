/**
 * npm run bench:data -- [--communities N] [--rooms-per-community M] [--data-dir DIR] [--schema NAME] [--fees-only]
 *
 * Fills a database with scale data (see scale-data.ts): the PostgreSQL server of DATABASE_URL
 * (schema --schema, default bench_scale, dropped and made anew), or else PGlite in --data-dir
 * (default ./bench-data, emptied first). --fees-only stops after the bills and receipts and their kept
 * totals (the group shape's summary, bench/README.md#group-shape). Progress goes to stderr.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SCALE, DEFAULT_SCHEMA, makeScaleData } from './scale-data.js';

const { values } = parseArgs({
  options: {
    communities: { type: 'string', default: String(DEFAULT_SCALE.communities) },
    'rooms-per-community': { type: 'string', default: String(DEFAULT_SCALE.roomsPerCommunity) },
    'data-dir': { type: 'string', default: 'bench-data' },
    schema: { type: 'string', default: DEFAULT_SCHEMA },
    'fees-only': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  process.stdout
    .write(`npm run bench:data -- [--communities ${DEFAULT_SCALE.communities}] [--rooms-per-community ${DEFAULT_SCALE.roomsPerCommunity}] [--data-dir ./bench-data] [--schema ${DEFAULT_SCHEMA}] [--fees-only]
  With DATABASE_URL: fills that PostgreSQL server's schema (dropped first); otherwise PGlite in --data-dir (emptied first).
  --fees-only: the communities, rooms, owners, bills and receipts with their kept totals, no other area.
  Sign in as admin / demo123456 (community 1; switch to 2). The benchmarks use the schema with \`npm run bench -- --scale\`.
`);
  process.exit(0);
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const info = await makeScaleData(
  { databaseUrl, schema: values.schema, dataDir: values['data-dir'] },
  { communities: Number(values.communities), roomsPerCommunity: Number(values['rooms-per-community']) },
  { feesOnly: values['fees-only'] },
);
process.stdout.write(`${JSON.stringify(info.counts)}\n`);
process.stdout.write(
  databaseUrl
    ? `Try it: DATABASE_URL=${databaseUrl} DB_SCHEMA=${values.schema} npm start   (admin / demo123456)\n`
    : `Try it: DATA_DIR=${values['data-dir']} npm start   (admin / demo123456)\n`,
);
