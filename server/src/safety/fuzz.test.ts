import fc from 'fast-check';
import { RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodDef } from '../http/registry.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { changedTables, tableSums, touchedTables, trackTouchedTables } from '../test/tableSums.js';

/**
 * Bad input for every method in the registry: payloads built from each schema's field names
 * with hostile values. Every answer must be a clean refusal or success (never a 500), and a
 * refused write must leave the database exactly as it was.
 */
// npm test runs the quick form; FUZZ_RUNS=200 (npm run test:safety) is the full one. The payloads
// come from one seed, so every run sends the same: 40 a method on the PostgreSQL server, and on PGlite
// their first 10, since what a hostile payload tries is the validation and the handlers' SQL, the same
// on both engines (docs/architecture.md#the-safety-suite)
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.DATABASE_URL ? 40 : 10));
const ANSWER_CODES: string[] = [RC.SUCCESS, RC.FAIL, RC.NO_PERMISSION, RC.AUTH_END, RC.ILLEGAL_TOKEN, RC.OTHER_CLIENT, RC.TOKEN_EXPIRED];
// sign-in outcomes change state by design (failure counter, sessions); they are fuzzed without the checksum
const STATEFUL_BY_DESIGN = new Set(['login', 'logout', 'sysusereditpassword', 'regionswitch']);

let s: TestServer;
let tokens: { community: string; group: string };
beforeAll(async () => {
  s = await startTestServer();
  tokens = { community: await s.login('admin'), group: await s.login('leader') };
});
afterAll(() => s.close());

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    "'; DROP TABLE accounts; --",
    '<img src=x onerror=alert(1)>',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '𠮷野家🏠',
    '\u202Eevil',
    'null',
    'undefined',
    'NaN',
    '-1',
    '1.234',
    '99999999999999999999',
    '2026-13-45',
    '1e309',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ minLength: 5000, maxLength: 20000 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, -0.001, 1.005, 2 ** 31, 2 ** 53 + 1, -1e308, 1e308),
  fc.double(),
  fc.integer(),
  fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

function fieldNames(def: MethodDef): string[] {
  const shape = def.schema as unknown as { shape?: Record<string, unknown>; def?: { in?: { shape?: Record<string, unknown> } } };
  const keys = Object.keys(shape.shape ?? shape.def?.in?.shape ?? {});
  return [...keys, 'rid', 'id', 'extra_field'];
}

describe('bad input', () => {
  it(`never breaks any method (${RUNS} payloads each) and refused writes change nothing`, async () => {
    const problems: string[] = [];
    const db = s.database.db;
    // every table's sum once; then, around each write, those of the tables a statement touched
    await trackTouchedTables(db);
    await touchedTables(db);
    const sums = await tableSums(db);
    for (const def of s.app.registry.all()) {
      const side = def.spec.side === 'group' ? 'group' : 'community';
      const token = def.spec.side === 'public' ? undefined : tokens[side];
      const payloads = fc.sample(fc.dictionary(fc.constantFrom(...fieldNames(def)), hostileValue, { maxKeys: 6 }), {
        numRuns: RUNS,
        seed: 42,
      });
      const watched = def.spec.writes && !STATEFUL_BY_DESIGN.has(def.name);
      // the sums of the tables changed since the last look (by the reads and the writes that succeeded)
      if (watched) for (const [t, c] of await tableSums(db, { tables: await touchedTables(db) })) sums.set(t, c);
      let succeeded = 0;
      for (const payload of payloads) {
        const res = await s.app.fastify.inject({
          method: 'POST',
          url: side === 'group' ? '/webapi_leader' : '/webapi',
          headers: token ? { 'x-token': token } : {},
          payload: { ...payload, method: def.name },
        });
        const body = res.json();
        if (res.statusCode >= 500 || !ANSWER_CODES.includes(body.return_code) || typeof body.return_msg !== 'string') {
          problems.push(`${def.name} ${JSON.stringify(payload).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
        } else if (body.return_code === RC.FAIL && /系统繁忙/.test(body.return_msg)) {
          problems.push(`${def.name} internal error for ${JSON.stringify(payload).slice(0, 200)}`);
        }
        if (body.return_code === RC.SUCCESS) succeeded++;
      }
      if (watched && succeeded === 0) {
        const after = await tableSums(db, { tables: await touchedTables(db) });
        const changed = changedTables(sums, after);
        if (changed.length) problems.push(`${def.name}: refused writes changed the database (${changed.join(', ')})`);
        for (const [t, c] of after) sums.set(t, c);
      }
    }
    expect(problems).toEqual([]);
  }, 1_800_000);
});
