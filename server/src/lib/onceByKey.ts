import { sql } from 'kysely';
import { Reply, type CommunityCtx } from '../http/registry.js';

/**
 * Runs a write once per community, method and idempotency key (docs/architecture.md#call-conventions):
 * a retry or a double click with the same key answers what the first call answered, without
 * running it again. The key is claimed in the write's own transaction (request_keys), so a call
 * that fails leaves it free, and a second call with the key waits for the first to commit.
 * Without a key the write runs as it is.
 */
export async function onceByKey<T>(
  ctx: CommunityCtx,
  method: string,
  key: string | undefined,
  run: () => Promise<T | Reply<T>>,
): Promise<T | Reply<T>> {
  if (!key) return run();
  const claimed = await sql`
    INSERT INTO request_keys (rid, method, key) VALUES (${ctx.rid}, ${method}, ${key})
    ON CONFLICT DO NOTHING RETURNING 1`.execute(ctx.db);
  if (!claimed.rows.length) {
    const first = await ctx.db
      .selectFrom('request_keys')
      .select(['answer', 'msg'])
      .where('rid', '=', ctx.rid)
      .where('method', '=', method)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    return first.msg === null ? (first.answer as T) : new Reply(first.answer as T, first.msg);
  }
  const answer = await run();
  const [data, msg] = answer instanceof Reply ? [answer.data, answer.msg] : [answer, null];
  await ctx.db
    .updateTable('request_keys')
    .set({ answer: JSON.stringify(data ?? null), msg })
    .where('rid', '=', ctx.rid)
    .where('method', '=', method)
    .where('key', '=', key)
    .execute();
  return answer;
}
