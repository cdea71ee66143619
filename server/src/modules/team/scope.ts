/**
 * The communities an account may enter (docs/product.md#team): those it is assigned to, in their
 * order, then, when it holds an enabled group-wide role, every other community of its group.
 * Sign-in, the community list and the switch all read this one query.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function accountRegionIds(db: Kysely<DB>, accountId: number): Promise<number[]> {
  const { rows } = await sql<{ rid: number }>`
    SELECT rid FROM (
      SELECT ar.rid, ar.sort, 0 AS wide FROM account_regions ar WHERE ar.account_id = ${accountId}
      UNION ALL
      SELECT g.id, 0, 1 FROM accounts a JOIN regions g ON g.group_id = a.group_id
      WHERE a.id = ${accountId} AND EXISTS (
        SELECT 1 FROM account_roles x JOIN staff_roles sr ON sr.id = x.role_id AND sr.status = 'Y' AND sr.scope = 'group'
        WHERE x.account_id = a.id)
        AND NOT EXISTS (SELECT 1 FROM account_regions ar WHERE ar.account_id = a.id AND ar.rid = g.id)
    ) t ORDER BY wide, sort, rid`.execute(db);
  return rows.map((r) => r.rid);
}

/** True when the account may enter the community. */
export async function mayEnterRegion(db: Kysely<DB>, accountId: number, rid: number): Promise<boolean> {
  return (await accountRegionIds(db, accountId)).includes(rid);
}

/**
 * Ends the open community sessions of these accounts in communities they may no longer enter (a
 * group-wide role disabled, narrowed, deleted or taken away): refused on their next call.
 */
export async function revokeUnenterableSessions(db: Kysely<DB>, accountIds: readonly number[]): Promise<void> {
  if (accountIds.length === 0) return;
  await sql`
    UPDATE sessions s SET ended_at = now(), end_reason = 'revoked'
    WHERE s.account_id IN (${sql.join(accountIds)}) AND s.ended_at IS NULL AND s.side = 'community' AND s.rid IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM account_regions ar WHERE ar.account_id = s.account_id AND ar.rid = s.rid)
      AND NOT EXISTS (
        SELECT 1 FROM account_roles x JOIN staff_roles sr ON sr.id = x.role_id AND sr.status = 'Y' AND sr.scope = 'group'
        WHERE x.account_id = s.account_id)`.execute(db);
}
