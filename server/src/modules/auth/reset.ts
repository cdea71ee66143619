import crypto from 'node:crypto';
import { RC } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { recordAudit } from '../../http/dispatcher.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { hashPassword } from './password.js';
import { sessionPolicy } from '../setup/security.js';

/** Letters and digits that cannot be misread when the password is read out (no 0/O, 1/l/I). */
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/**
 * Ten characters (or the security policy's minimum length, if longer), at least one lower-case
 * letter, one capital and one digit, from the system's random source.
 */
export function temporaryPassword(minLength = 10): string {
  const pick = (set: string) => set[crypto.randomInt(set.length)]!;
  const all = LOWER + UPPER + DIGITS;
  const length = Math.max(10, minLength);
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), ...Array.from({ length: length - 3 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/**
 * Gives an account a password an administrator set (hashed): the account changes it at its next
 * sign-in, before anything else, and its sessions end now (staffresetpassword; a merchant's login
 * account reset from the merchant's form, modules/cards/merchants.ts).
 */
export async function resetPassword(db: Kysely<DB>, accountId: number, passwordHash: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ password_hash: passwordHash, password_status: 'N', password_reset_at: sql`now()`, password_changed_at: sql`now()` })
    .where('id', '=', accountId)
    .execute();
  await db
    .updateTable('sessions')
    .set({ ended_at: sql`now()`, end_reason: 'password' })
    .where('account_id', '=', accountId)
    .where('ended_at', 'is', null)
    .execute();
}

/**
 * An administrator resets the password of a staff account of the community (the team page's
 * 重置密码): a temporary password, shown once in the answer and stored only hashed; the account's
 * sessions end, and its first change may skip the current password (sysusereditpassword), after
 * which the temporary one no longer works. Group accounts and one's own are not reset here.
 */
const staffresetpassword = defineMethod('staffresetpassword', {
  side: 'community',
  roles: ['admin'],
  // the slow hash first, outside any transaction; then one transaction with its audit row
  writes: 'own',
  summary: '管理员重置本小区员工账号的密码：返回一次性显示的临时密码，结束该账号的所有会话；该账号下次修改密码时可不填原密码',
  async handler(ctx, input) {
    const target = await ctx.db
      .selectFrom('accounts as a')
      .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
      .select(['a.id', 'a.username', 'a.name', 'a.sys_type'])
      .where('a.id', '=', input.id)
      .where('ar.rid', '=', ctx.rid)
      .executeTakeFirst();
    if (!target || target.sys_type === 'leader') return fail('员工账号不存在');
    if (target.id === ctx.session.accountId) return fail('不能重置本人的密码，请在“修改密码”中修改');
    const password = temporaryPassword((await sessionPolicy(ctx.db, ctx.session)).min_length);
    const passwordHash = await hashPassword(password);
    await ctx.db.transaction().execute(async (trx) => {
      await resetPassword(trx, target.id, passwordHash);
      await recordAudit(trx, {
        session: ctx.session,
        side: ctx.session.side,
        method: 'staffresetpassword',
        input: { id: target.id },
        outcome: RC.SUCCESS,
        message: `重置了 ${target.username} 的密码`,
        ip: ctx.ip,
      });
    });
    ctx.services.sessions.clear();
    return reply(
      { id: target.id, username: target.username, password },
      `已重置 ${target.name}（${target.username}）的密码，临时密码只显示这一次，请告知本人登录后立即修改`,
    );
  },
});

export const resetMethods = [staffresetpassword];
