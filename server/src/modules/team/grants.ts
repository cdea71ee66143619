/**
 * Who may hand out which codes (docs/product.md#team): an administrator (admin in a community,
 * leader_admin on the group side) any; anyone else with the team code only codes they hold
 * themselves, so managing staff never lifts anyone, oneself included, above the manager.
 */
import { permissionTitle } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import type { Ctx, Session } from '../../http/registry.js';
import { accountCodes } from '../../http/authenticate.js';

type Caller = Ctx & { session: Session };

const isAdministrator = (ctx: Caller) => ctx.session.roles.includes('admin') || ctx.session.roles.includes('leader_admin');

/** Refuses codes the caller may not hand out. */
export function refuseUngrantable(ctx: Caller, codes: readonly string[]): void {
  if (isAdministrator(ctx)) return;
  const beyond = codes.filter((c) => !ctx.session.roles.includes(c));
  if (beyond.length) fail(`不能授予本人没有的权限：${beyond.slice(0, 3).map(permissionTitle).join('、')}`);
}

/** The codes an account holds in each of the communities given (its own and its enabled roles'). */
export async function codesByRegion(db: Kysely<DB>, accountId: number, rids: readonly number[]): Promise<Map<number, string[]>> {
  if (rids.length === 0) return new Map();
  const rows = await sql<{ rid: number; codes: string[] }>`
    SELECT g.id AS rid, ${accountCodes(sql.ref('a.id'), sql.ref('a.roles'), sql.ref('g.id'))} AS codes
    FROM accounts a JOIN regions g ON g.group_id = a.group_id
    WHERE a.id = ${accountId} AND g.id IN (${sql.join(rids)})`.execute(db);
  return new Map(rows.rows.map((r) => [r.rid, r.codes]));
}

/** Refuses to act on an account that holds, in the caller's community, codes the caller lacks. */
export async function refuseHigherAccount(ctx: Caller, accountId: number, rids: readonly number[]): Promise<void> {
  if (isAdministrator(ctx)) return;
  const held = await codesByRegion(ctx.db, accountId, rids);
  for (const codes of held.values()) {
    if (codes.includes('admin') || codes.some((c) => !ctx.session.roles.includes(c))) fail('该账号的权限高于本人，不能操作');
  }
}

/**
 * Refuses when one of the communities would be left without an enabled administrator (an account
 * holding admin there, directly or through a role). Run after the change, in its transaction.
 */
export async function refuseNoAdminLeft(db: Kysely<DB>, rids: readonly number[]): Promise<void> {
  if (rids.length === 0) return;
  const orphan = await sql<{ title: string }>`
    SELECT g.title FROM regions g WHERE g.id IN (${sql.join(rids)}) AND NOT EXISTS (
      SELECT 1 FROM account_regions ar JOIN accounts a ON a.id = ar.account_id AND a.status = 'Y'
      WHERE ar.rid = g.id AND 'admin' = ANY (${accountCodes(sql.ref('a.id'), sql.ref('a.roles'), sql.ref('g.id'))}))
    ORDER BY g.id LIMIT 1`.execute(db);
  if (orphan.rows[0]) fail(`${orphan.rows[0].title}至少需要一个启用的管理员`);
}
