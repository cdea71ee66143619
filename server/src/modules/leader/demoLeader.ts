import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The demo head office account (`leader`), given the account permissions a seeded page needs
 * (is_diyhome_auth, is_smsset_auth, …) beside those it holds; undefined when the demo has no leader.
 */
export async function demoLeaderWith(db: Kysely<DB>, flags: readonly string[]): Promise<{ id: number; group_id: number } | undefined> {
  const leader = await db
    .selectFrom('accounts')
    .select(['id', 'group_id', 'permissions'])
    .where('username', '=', 'leader')
    .executeTakeFirst();
  if (!leader) return undefined;
  const missing = flags.filter((f) => !leader.permissions.includes(f));
  if (missing.length)
    await db
      .updateTable('accounts')
      .set({ permissions: [...leader.permissions, ...missing] })
      .where('id', '=', leader.id)
      .execute();
  return { id: leader.id, group_id: leader.group_id };
}
