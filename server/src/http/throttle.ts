import net from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Growing waits after wrong guesses (passwords, activation codes), kept in the database so every
 * server process counts toward the same limit (login_throttle, migration 202611261614_harden_auth).
 *
 * A key counts the guesses of one streak: an account from one address, an address, an account
 * from anywhere. Its first `free` guesses cost nothing; from then on each guess must wait twice as
 * long as the one before (1 s, 2 s, 4 s, ...) up to `maxDelaySeconds`. Nothing is ever locked for
 * good: the owner waits at most the longest delay, and a day without a guess forgets the streak.
 *
 * A guess is counted before it is checked, in one short transaction that locks the keys' rows:
 * concurrent guesses each see the others (the count-then-insert of old let a burst through on
 * PostgreSQL), and a guess refused for waiting counts toward nothing, so a flood from one address
 * cannot push other keys (an account's) further out. A right guess then clears its account's keys
 * and takes its own count back from the address's.
 */
export interface ThrottleKey {
  key: string;
  /** guesses of a streak that cost no wait */
  free: number;
  /** the longest wait */
  maxDelaySeconds: number;
  /**
   * a lockout instead of growing waits (the security policy's, modules/setup/security.ts): from the
   * `free`th guess of a streak on, each wrong one locks the key this long
   */
  lockSeconds?: number;
}

export type Reservation = { ok: true } | { ok: false; waitSeconds: number };

/** A day without a guess ends a streak. */
const FORGET_AFTER_MS = 24 * 3600_000;

/** The wait after the `n`th guess of a streak. */
export function delaySeconds(n: number, free: number, maxDelaySeconds: number): number {
  if (n < free) return 0;
  return Math.min(maxDelaySeconds, 2 ** Math.min(n - free, 30));
}

/**
 * Counts one guess on every key, unless one of them must still wait: then nothing is counted and
 * the answer says how long. Runs in a transaction of its own; pass the pool, not a transaction.
 */
export async function reserveGuess(db: Kysely<DB>, keys: readonly ThrottleKey[]): Promise<Reservation> {
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const names = sorted.map((k) => k.key);
  return db.transaction().execute(async (trx) => {
    // rows are created and then locked in key order, so two guesses never wait on each other in a cycle
    await trx
      .insertInto('login_throttle')
      .values(names.map((key) => ({ key })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    // times compared in the database's clock, which every process shares
    const rows = await trx
      .selectFrom('login_throttle')
      .select([
        'key',
        'failures',
        sql<number>`extract(epoch from (blocked_until - now()))::float8`.as('wait'),
        sql<number>`extract(epoch from (now() - last_at))::float8`.as('quiet'),
      ])
      .where('key', 'in', names)
      .orderBy('key')
      .forUpdate()
      .execute();
    const wait = Math.max(0, ...rows.map((r) => Number(r.wait)));
    if (wait > 0) return { ok: false, waitSeconds: Math.ceil(wait) };
    for (const k of sorted) {
      const row = rows.find((r) => r.key === k.key)!;
      const n = Number(row.quiet) * 1000 > FORGET_AFTER_MS ? 1 : row.failures + 1;
      const delay = k.lockSeconds ? (n >= k.free ? k.lockSeconds : 0) : delaySeconds(n, k.free, k.maxDelaySeconds);
      await trx
        .updateTable('login_throttle')
        .set({
          failures: n,
          last_at: sql`now()`,
          blocked_until: delay > 0 ? sql`now() + make_interval(secs => ${delay})` : sql`'epoch'::timestamptz`,
        })
        .where('key', '=', k.key)
        .execute();
    }
    return { ok: true };
  });
}

/**
 * After a right guess: `clear` keys start over (the account's); `undo` keys take back the guess
 * counted for it (an address many people share), with the wait their remaining count calls for.
 */
export async function guessWasRight(db: Kysely<DB>, keys: { clear: readonly string[]; undo: readonly ThrottleKey[] }): Promise<void> {
  if (keys.clear.length)
    await db
      .deleteFrom('login_throttle')
      .where('key', 'in', [...keys.clear])
      .execute();
  for (const k of keys.undo) {
    // the wait of the count before this guess, from the last guess's time
    await db
      .updateTable('login_throttle')
      .set({
        failures: sql`greatest(failures - 1, 0)`,
        blocked_until: sql`CASE WHEN failures - 1 >= ${k.free}::int
          THEN last_at + make_interval(secs => least(${k.maxDelaySeconds}::double precision, power(2, least(failures - 1 - ${k.free}::int, 30))))
          ELSE 'epoch'::timestamptz END`,
      })
      .where('key', '=', k.key)
      .execute();
  }
}

/** Whether `key` was written (by markKnown) within `days`. */
export async function isKnown(db: Kysely<DB>, key: string, days: number): Promise<boolean> {
  const row = await db
    .selectFrom('login_throttle')
    .select('key')
    .where('key', '=', key)
    .where('last_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Boolean(row);
}

/** Remembers `key` as of now (e.g. an address an account signed in from). */
export async function markKnown(db: Kysely<DB>, key: string): Promise<void> {
  await db
    .insertInto('login_throttle')
    .values({ key, failures: 0 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ last_at: sql`now()` }))
    .execute();
}

/** Streaks and marks nobody has touched for longer than they matter. */
export async function pruneThrottle(db: Kysely<DB>): Promise<void> {
  await db
    .deleteFrom('login_throttle')
    .where('last_at', '<', sql<Date>`now() - interval '31 days'`)
    .execute();
}

/**
 * The address a limit counts by: an IPv4 address as it is (also when written IPv4-mapped), an IPv6
 * address by its /64 network, which one subscriber usually holds whole.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(ip)) return ipv6Network(ip);
  return ip;
}

function ipv6Network(ip: string): string {
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** Human text of a wait: 秒 under two minutes, else 分钟. */
export function waitText(seconds: number): string {
  return seconds < 120 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`;
}
