import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { hashToken, newToken } from '../../http/tokens.js';
import { wireTime } from '../../lib/wire.js';
import { mayEnterRegion } from '../team/scope.js';
import { securityPolicyOf } from '../setup/security.js';

/** A board window's session lasts this long at most, and does not slide. */
export const BOARD_SESSION_HOURS = 12;
/**
 * An owner's phone session at a charging pile lasts this long at most, and does not slide: as long as
 * the longest session (10 hours) and its settlement, no longer.
 */
export const CHARGE_SESSION_HOURS = 12;
/** A one-time code (board, sign-in hand-over) must be used within this many seconds. */
export const CODE_TTL_SECONDS = 60;

/**
 * A new session and its token. A console session slides (TOKEN_TTL_HOURS from its last call) up
 * to its absolute end (SESSION_MAX_HOURS); a board session simply ends after BOARD_SESSION_HOURS.
 */
export async function createSession(
  db: Kysely<DB>,
  ctx: Pick<Ctx, 'config' | 'ip' | 'userAgent'>,
  s: {
    accountId: number;
    side: 'community' | 'group';
    rid: number | null;
    kind: 'console' | 'board';
    /** a head office entering one of its communities: the session holds the administrator's codes there */
    asAdmin?: boolean;
  },
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const max = s.kind === 'board' ? BOARD_SESSION_HOURS : ctx.config.sessionMaxHours;
  let sliding = s.kind === 'board' ? BOARD_SESSION_HOURS : Math.min(ctx.config.tokenTtlHours, max);
  // the security policy (/setup/setsys 安全) of a console session: its idle timeout, and whether the
  // password has outlived its days (the session may then only change it)
  let idleSeconds: number | null = null;
  let mustChange = false;
  if (s.kind === 'console') {
    const account = await db
      .selectFrom('accounts')
      .select(['group_id', sql<number>`extract(epoch from now() - password_changed_at)::float8`.as('age')])
      .where('id', '=', s.accountId)
      .executeTakeFirstOrThrow();
    const policy = await securityPolicyOf(db, { groupId: account.group_id, rid: s.rid });
    if (policy.idle_minutes > 0) {
      idleSeconds = policy.idle_minutes * 60;
      sliding = Math.min(sliding, idleSeconds / 3600);
    }
    mustChange = policy.expire_days > 0 && Number(account.age) > policy.expire_days * 86400;
  }
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: hash,
      account_id: s.accountId,
      side: s.side,
      rid: s.rid,
      kind: s.kind,
      ip: ctx.ip,
      user_agent: ctx.userAgent.slice(0, 300),
      expires_at: sql`now() + make_interval(secs => ${sliding * 3600})`,
      max_expires_at: sql`now() + make_interval(secs => ${max * 3600})`,
      idle_seconds: idleSeconds,
      must_change: mustChange,
      as_admin: s.asAdmin ?? false,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { token, expiresAt: row.expires_at };
}

/**
 * A new charge session and its token: an owner's phone at a pile (docs/product.md#charging-piles),
 * the member's and the community's, for the phone's charging methods only (the dispatcher keeps it
 * to them as it keeps a board session to the board). Only the token's hash is kept.
 */
export async function createChargeSession(
  db: Kysely<DB>,
  ctx: Pick<Ctx, 'ip' | 'userAgent'>,
  s: { rid: number; memberId: number },
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const life = sql<Date>`now() + make_interval(secs => ${CHARGE_SESSION_HOURS * 3600})`;
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: hash,
      account_id: null,
      member_id: s.memberId,
      side: 'community',
      rid: s.rid,
      kind: 'charge',
      ip: ctx.ip,
      user_agent: ctx.userAgent.slice(0, 300),
      expires_at: life,
      max_expires_at: life,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { token, expiresAt: row.expires_at };
}

/** A one-time code for the caller's own account, side and community; only its hash is kept. */
export async function issueCode(
  db: Kysely<DB>,
  session: Session,
  purpose: 'board' | 'handover' | 'enter',
  /** where the code's session goes: the caller's own side and community unless said (enter: a community of the group) */
  to: { side: 'community' | 'group'; rid: number | null } = session,
): Promise<string> {
  const { token: code, hash } = newToken();
  await db
    .insertInto('login_codes')
    .values({
      code_hash: hash,
      purpose,
      account_id: session.accountId,
      side: to.side,
      rid: to.rid,
      expires_at: sql`now() + make_interval(secs => ${CODE_TTL_SECONDS})`,
    })
    .execute();
  // used codes and expired ones are no use to anybody
  await db
    .deleteFrom('login_codes')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  return code;
}

const BAD_CODE = '链接无效或已过期，请从控制台重新打开';

/**
 * Uses a code up, once: an unknown, used or expired code, or one whose account has since been
 * stopped or lost the community, answers the same refusal.
 */
async function redeemCode(db: Kysely<DB>, code: string, purposes: ReadonlyArray<'board' | 'handover' | 'enter'>) {
  const used = await db
    .updateTable('login_codes')
    .set({ used_at: sql`now()` })
    .where('code_hash', '=', hashToken(code))
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['account_id', 'side', 'rid', 'purpose'])
    .executeTakeFirst();
  if (!used) return fail(BAD_CODE);
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'name', 'status', 'sys_type', 'group_id', 'roles'])
    .where('id', '=', used.account_id)
    .executeTakeFirst();
  if (!account || account.status !== 'Y') return fail(BAD_CODE);
  if (used.purpose === 'enter') {
    // a head office still, and the community still its group's
    const own = await db
      .selectFrom('regions')
      .select('id')
      .where('id', '=', used.rid ?? 0)
      .where('group_id', '=', account.group_id)
      .executeTakeFirst();
    if (account.sys_type !== 'leader' || !account.roles.includes('leader_admin') || !own) return fail(BAD_CODE);
  } else if (used.rid !== null) {
    if (!(await mayEnterRegion(db, account.id, used.rid))) return fail(BAD_CODE);
  }
  return { ...used, account };
}

const boardcode = defineMethod('boardcode', {
  side: 'both',
  roles: 'staff',
  writes: true,
  summary: `管理看板：取一次性代码（${CODE_TTL_SECONDS} 秒内有效），新窗口以 /spectaculars?code= 打开，换得只读看板会话（不再在地址中带登录令牌）`,
  async handler(ctx) {
    const code = await issueCode(ctx.db, ctx.session, 'board');
    return { code, expires_in: CODE_TTL_SECONDS, url: `/spectaculars?code=${code}` };
  },
});

const boardlogin = defineMethod('boardlogin', {
  side: 'public',
  writes: true,
  summary: `用看板一次性代码换取只读看板会话（${BOARD_SESSION_HOURS} 小时，只能调用看板读取的接口，可在“登录设备”中结束）`,
  async handler(ctx, input) {
    const used = await redeemCode(ctx.db, input.code, ['board']);
    if (used.account.sys_type === 'merchant') fail(BAD_CODE);
    const { token, expiresAt } = await createSession(ctx.db, ctx, {
      accountId: used.account_id,
      side: used.side,
      rid: used.rid,
      kind: 'board',
    });
    return reply({ token, side: used.side, rid: used.rid, expires_time: wireTime(expiresAt) }, '看板已打开');
  },
});

const authcode = defineMethod('authcode', {
  side: 'both',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: `登录交接：取本账号的一次性代码（${CODE_TTL_SECONDS} 秒内有效），以 /auth-redirect?code=…&redirect=/路径 交给另一个窗口或系统；地址中从不带登录令牌`,
  async handler(ctx) {
    const code = await issueCode(ctx.db, ctx.session, 'handover');
    return { code, expires_in: CODE_TTL_SECONDS, url: `/auth-redirect?code=${code}` };
  },
});

const leaderreturn = defineMethod('leaderreturn', {
  side: 'community',
  roles: 'staff',
  writes: true,
  summary: `返回集团：从集团进入的小区会话取集团端的一次性代码（${CODE_TTL_SECONDS} 秒内有效），以 /auth-redirect 换得集团会话并结束本会话，无需重新登录`,
  async handler(ctx) {
    // a community's own staff has nothing to return to (a merchant may not call it at all)
    if (!ctx.session.entered) fail('当前会话不是从集团进入的小区，无法返回集团');
    // the account is the head office's own (an entered session holds the leader's account)
    const code = await issueCode(ctx.db, ctx.session, 'handover', { side: 'group', rid: null });
    return {
      code,
      expires_in: CODE_TTL_SECONDS,
      url: `/auth-redirect?code=${code}&redirect=${encodeURIComponent('/leader/regions/index')}`,
    };
  },
});

const authcodelogin = defineMethod('authcodelogin', {
  side: 'public',
  writes: true,
  summary: '用登录交接的一次性代码换取该账号的新会话（/auth-redirect 页面调用；已登录时页面先询问是否切换账号）',
  async handler(ctx, input) {
    // a hand-over of the same account's session, or a head office entering one of its communities
    const used = await redeemCode(ctx.db, input.code, ['handover', 'enter']);
    const { token } = await createSession(ctx.db, ctx, {
      accountId: used.account_id,
      side: used.side,
      rid: used.rid,
      kind: 'console',
      asAdmin: used.purpose === 'enter',
    });
    return reply({ token, side: used.side, rid: used.rid, username: used.account.username, name: used.account.name }, '登录成功');
  },
});

const sessionlist = defineMethod('sessionlist', {
  side: 'both',
  roles: 'any',
  writes: false,
  allowExpired: true,
  summary: '本账号仍有效的会话（控制台与看板）：登录地址、浏览器、登录时间、最近使用、到期时间；current 为当前会话',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('sessions')
      .select(['id', 'kind', 'side', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
      .where('account_id', '=', ctx.session.accountId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('last_seen_at', 'desc')
      .limit(200)
      .execute();
    return {
      items: rows.map((r) => ({
        id: r.id,
        // an account's sessions: a charge session is a member's, never an account's
        kind: r.kind as 'console' | 'board',
        side: r.side,
        ip: r.ip,
        user_agent: r.user_agent,
        create_time: wireTime(r.created_at),
        last_seen_time: wireTime(r.last_seen_at),
        expires_time: wireTime(r.expires_at),
        current: r.id === ctx.session.sessionId,
      })),
    };
  },
});

const sessiondel = defineMethod('sessiondel', {
  side: 'both',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: '结束本账号的会话：id 结束一个（也可以是看板），others=Y 结束当前以外的全部；被结束的会话再调用时答 50008',
  async handler(ctx, input) {
    let q = ctx.db
      .updateTable('sessions')
      .set({ ended_at: sql`now()`, end_reason: 'revoked' })
      .where('account_id', '=', ctx.session.accountId)
      .where('ended_at', 'is', null);
    q = input.id !== undefined ? q.where('id', '=', input.id) : q.where('token_hash', '!=', ctx.session.tokenHash);
    const res = await q.executeTakeFirst();
    const ended = Number(res.numUpdatedRows);
    if (input.id !== undefined && ended === 0) fail('会话不存在或已结束');
    return reply({ ended }, ended ? `已结束 ${ended} 个会话` : '没有其他会话');
  },
});

export const sessionMethods = [boardcode, boardlogin, authcode, leaderreturn, authcodelogin, sessionlist, sessiondel];
