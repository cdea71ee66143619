import {
  DEFAULT_SECURITY,
  PASSWORD_COMPLEXITY,
  SETTINGS_ROLES,
  enumText,
  securityPolicy,
  type SecurityInfo,
  type SecurityPolicy,
} from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';

/**
 * The security policy (/setup/setsys 安全; docs/product.md#setup-settings): the group's default
 * (groups.security), a community's own (regions.security) where the group allows it
 * (groups.security_override). Enforced at sign-in (lockout, expiry, idle timeout: auth/methods.ts,
 * auth/sessions.ts, http/authenticate.ts) and wherever a password is set (passwordProblem).
 */

/** The valid keys of a stored policy over the defaults: a key stored wrong reads its default. */
function readPolicy(stored: unknown, base: SecurityPolicy): SecurityPolicy {
  const out = { ...base };
  if (!stored || typeof stored !== 'object') return out;
  const shape = securityPolicy.shape;
  for (const key of Object.keys(shape) as Array<keyof SecurityPolicy>) {
    const parsed = shape[key].safeParse((stored as Record<string, unknown>)[key]);
    if (parsed.success) (out as Record<string, unknown>)[key] = parsed.data;
  }
  return out;
}

interface Scope {
  groupId: number;
  /** the community, or null for the group's own default */
  rid: number | null;
}

async function loadPolicies(db: Kysely<DB>, scope: Scope) {
  const group = await db
    .selectFrom('groups')
    .select(['security', 'security_override'])
    .where('id', '=', scope.groupId)
    .executeTakeFirstOrThrow();
  const groupPolicy = readPolicy(group.security, DEFAULT_SECURITY);
  const allow = group.security_override === 'N' ? 'N' : 'Y';
  let own: SecurityPolicy | null = null;
  if (scope.rid !== null) {
    const region = await db
      .selectFrom('regions')
      .select('security')
      .where('id', '=', scope.rid)
      .where('group_id', '=', scope.groupId)
      .executeTakeFirst();
    if (region?.security) own = readPolicy(region.security, groupPolicy);
  }
  const effective = own && allow === 'Y' ? own : groupPolicy;
  return { group: groupPolicy, allow_override: allow, own, effective } as const;
}

/** The policy in force for a community (or, rid null, the group's default). */
export async function securityPolicyOf(db: Kysely<DB>, scope: Scope): Promise<SecurityPolicy> {
  return (await loadPolicies(db, scope)).effective;
}

/** The policy of a session: its community's, or on the group side the group's. */
export const sessionPolicy = (db: Kysely<DB>, session: Pick<Session, 'groupId' | 'rid'>) =>
  securityPolicyOf(db, { groupId: session.groupId, rid: session.rid });

/** The policy of an account before it signs in: its group's, with its first community's own where allowed. */
export async function accountPolicy(db: Kysely<DB>, accountId: number, groupId: number): Promise<SecurityPolicy> {
  const first = await db
    .selectFrom('account_regions')
    .select('rid')
    .where('account_id', '=', accountId)
    .orderBy('sort')
    .orderBy('rid')
    .executeTakeFirst();
  return securityPolicyOf(db, { groupId, rid: first?.rid ?? null });
}

const LABELS: Record<keyof SecurityPolicy, string> = {
  min_length: '密码最小长度',
  complexity: '密码复杂度',
  expire_days: '密码有效期（天）',
  lockout_attempts: '锁定前允许的错误次数',
  lockout_minutes: '锁定时长（分钟）',
  idle_minutes: '空闲超时（分钟）',
};
const shown = (key: keyof SecurityPolicy, v: unknown) =>
  key === 'complexity' ? enumText(PASSWORD_COMPLEXITY, String(v)) : v === 0 && key !== 'lockout_minutes' ? '不启用' : String(v);
const diffOf = (before: SecurityPolicy, after: SecurityPolicy) =>
  (Object.keys(LABELS) as Array<keyof SecurityPolicy>)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${LABELS[k]}：${shown(k, before[k])} → ${shown(k, after[k])}`);

async function infoOf(db: Kysely<DB>, session: Session): Promise<SecurityInfo> {
  const p = await loadPolicies(db, { groupId: session.groupId, rid: session.side === 'group' ? null : session.rid });
  return { side: session.side, ...p };
}

const ROLES = [...SETTINGS_ROLES, 'leader_admin'] as const;

const securityinfo = defineMethod('securityinfo', {
  side: 'both',
  roles: ROLES,
  writes: false,
  summary: '安全策略：集团默认、本小区自定义（集团允许时）与生效的策略（密码长度与复杂度、有效期、登录锁定、空闲超时）',
  async handler(ctx) {
    return infoOf(ctx.db, ctx.session);
  },
});

const setsecurity = defineMethod('setsecurity', {
  side: 'both',
  roles: ROLES,
  writes: true,
  summary: '保存安全策略：集团端为集团默认及是否允许小区自定义；小区端为本小区的策略（集团允许时）或恢复跟随集团',
  async handler(ctx: Ctx & { session: Session }, input) {
    const session = ctx.session;
    const before = await infoOf(ctx.db, session);
    if (session.side === 'group') {
      if (!input.policy && !input.allow_override) fail('没有需要保存的内容');
      const changes = input.policy ? diffOf(before.group, input.policy) : [];
      if (input.allow_override && input.allow_override !== before.allow_override) {
        changes.push(
          `允许小区自定义：${before.allow_override === 'Y' ? '允许' : '不允许'} → ${input.allow_override === 'Y' ? '允许' : '不允许'}`,
        );
      }
      await ctx.db
        .updateTable('groups')
        .set({
          ...(input.policy ? { security: JSON.stringify(input.policy) } : {}),
          ...(input.allow_override ? { security_override: input.allow_override } : {}),
        })
        .where('id', '=', session.groupId)
        .execute();
      return reply(await infoOf(ctx.db, session), changes.length ? `保存成功。${changes.join('；')}` : '保存成功（没有改动）');
    }
    if (session.rid === null) return fail('请先选择小区');
    if (input.allow_override) fail('是否允许小区自定义由集团总部设置');
    if (input.inherit === 'Y') {
      await ctx.db.updateTable('regions').set({ security: null }).where('id', '=', session.rid).execute();
      const after = await infoOf(ctx.db, session);
      const changes = diffOf(before.effective, after.effective);
      return reply(after, `已恢复跟随集团的安全策略${changes.length ? `。${changes.join('；')}` : ''}`);
    }
    if (!input.policy) return fail('请填写安全策略');
    if (before.allow_override === 'N') fail('集团不允许小区单独设置安全策略，请联系集团总部');
    await ctx.db
      .updateTable('regions')
      .set({ security: JSON.stringify(input.policy) })
      .where('id', '=', session.rid)
      .execute();
    const changes = diffOf(before.effective, input.policy);
    return reply(await infoOf(ctx.db, session), changes.length ? `保存成功。${changes.join('；')}` : '保存成功（没有改动）');
  },
});

export const securityMethods = [securityinfo, setsecurity];
