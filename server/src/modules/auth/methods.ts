import { DEFAULT_SECURITY, MSG, RC, passwordProblem } from '@wuye/contract';
import { sql } from 'kysely';
import { recordAudit } from '../../http/dispatcher.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx } from '../../http/registry.js';
import {
  addressKey,
  guessWasRight,
  isKnown,
  markKnown,
  pruneThrottle,
  reserveGuess,
  waitText,
  type ThrottleKey,
} from '../../http/throttle.js';
import { hashPassword, isWeakPassword, verifyPassword, verifyNobody } from './password.js';
import { resetMethods } from './reset.js';
import { createSession, sessionMethods } from './sessions.js';
import { accountRegionIds } from '../team/scope.js';
import { accountPolicy, sessionPolicy } from '../setup/security.js';

const WRONG_LOGIN = '用户名或密码错误';
/** An address an account signed in from within this many days is its own: the account-wide wait spares it. */
const KNOWN_ADDRESS_DAYS = 30;
/** The account-wide wait stays short: an attacker spraying from many addresses must not keep the owner out. */
const ACCOUNT_MAX_DELAY_SECONDS = 60;

/**
 * The keys a sign-in counts toward (http/throttle.ts): the account from this address (strict), the
 * address whatever the account (against spraying), and the account from any address (against many
 * addresses; short waits, and not for the account's own known addresses). Unknown usernames are
 * counted exactly like real ones, so the answers never tell which exist.
 */
function loginKeys(ctx: Ctx, username: string, known: boolean) {
  const { loginFreeAttempts: free, loginMaxDelayMinutes } = ctx.config;
  const max = loginMaxDelayMinutes * 60;
  const ip = addressKey(ctx.ip);
  const pair: ThrottleKey = { key: `p:${username}|${ip}`, free, maxDelaySeconds: max };
  const address: ThrottleKey = { key: `a:${ip}`, free: free * 4, maxDelaySeconds: max };
  const account: ThrottleKey = { key: `u:${username}`, free: free * 2, maxDelaySeconds: Math.min(ACCOUNT_MAX_DELAY_SECONDS, max) };
  return { pair, address, account, all: known ? [pair, address] : [pair, address, account], knownKey: `k:${username}|${ip}` };
}

/**
 * The lockout of the account's security policy (/setup/setsys 安全), or none when it is off. A
 * username that does not exist is counted under the default policy, so the answers tell nothing.
 */
async function lockoutKey(ctx: Ctx, username: string): Promise<ThrottleKey | undefined> {
  const account = await ctx.db.selectFrom('accounts').select(['id', 'group_id']).where('username', '=', username).executeTakeFirst();
  const policy = account ? await accountPolicy(ctx.db, account.id, account.group_id) : DEFAULT_SECURITY;
  if (policy.lockout_attempts === 0) return undefined;
  const seconds = policy.lockout_minutes * 60;
  return { key: `l:${username}`, free: policy.lockout_attempts, maxDelaySeconds: seconds, lockSeconds: seconds };
}

let lastPrune = 0;

const login = defineMethod('login', {
  side: 'public',
  // its own short transactions: the attempt is counted before the password is checked, and the
  // slow check holds no lock (the audit row is written here, for success and refusal alike)
  writes: 'own',
  summary: '账号登录：用户名会去掉首尾空格；rid 选择账号所属的多个小区之一。连续输错后需等待的时间逐次加倍（按账号与地址计）',
  async handler(ctx, input) {
    const audit = (outcome: string, message: string, session: Parameters<typeof recordAudit>[1]['session'] = null) =>
      recordAudit(ctx.db, { session, side: 'community', method: 'login', input, outcome, message, ip: ctx.ip }).catch((err: unknown) =>
        ctx.log.error({ err }, 'audit write failed'),
      );
    if (Date.now() - lastPrune > 3600_000) {
      lastPrune = Date.now();
      void pruneThrottle(ctx.db).catch((err: unknown) => ctx.log.warn({ err }, 'pruning sign-in counters failed'));
    }
    const keys = loginKeys(ctx, input.username, await isKnown(ctx.db, `k:${input.username}|${addressKey(ctx.ip)}`, KNOWN_ADDRESS_DAYS));
    // the security policy's lockout: N wrong passwords in a row lock the account for M minutes, from any address
    const lock = await lockoutKey(ctx, input.username);
    const reserved = await reserveGuess(ctx.db, lock ? [...keys.all, lock] : keys.all);
    if (!reserved.ok) {
      const msg = `登录尝试过于频繁，请 ${waitText(reserved.waitSeconds)}后再试`;
      await audit(RC.FAIL, msg);
      fail(msg);
    }
    const account = await ctx.db.selectFrom('accounts').selectAll().where('username', '=', input.username).executeTakeFirst();
    // the same work for a username that does not exist: its time tells nothing
    const right = account ? await verifyPassword(input.password, account.password_hash) : await verifyNobody(input.password);
    if (!account || !right) {
      await audit(RC.FAIL, WRONG_LOGIN);
      fail(WRONG_LOGIN);
    }
    const found = account!;
    if (found.status !== 'Y') {
      await audit(RC.FAIL, '账号已停用');
      fail('账号已停用，请联系管理员');
    }
    const side = found.sys_type === 'leader' ? 'group' : 'community';
    const rid = side === 'community' ? await pickRegion(ctx, found.id, input.rid) : null;
    const token = await ctx.db.transaction().execute(async (trx) => {
      if (found.single_login === 'Y') {
        await trx
          .updateTable('sessions')
          .set({ ended_at: sql`now()`, end_reason: 'elsewhere' })
          .where('account_id', '=', found.id)
          .where('ended_at', 'is', null)
          .execute();
      }
      const created = await createSession(trx, ctx, { accountId: found.id, side, rid, kind: 'console' });
      await guessWasRight(trx, { clear: [keys.pair.key, keys.account.key, ...(lock ? [lock.key] : [])], undo: [keys.address] });
      await markKnown(trx, keys.knownKey);
      // the community signed in to keeps the row: its operation log shows who signed in
      await recordAudit(trx, {
        session: { rid, accountId: found.id, username: found.username },
        side,
        method: 'login',
        input,
        outcome: RC.SUCCESS,
        message: '登录成功',
        ip: ctx.ip,
      });
      return created.token;
    });
    // a single-login account's other sessions have ended
    ctx.services.sessions.clear();
    return reply({ token, rid, side }, '登录成功');
  },
});

/** The community to sign in to: the asked one if the account has it, else its first. */
async function pickRegion(ctx: Ctx, accountId: number, wanted: number | undefined): Promise<number> {
  const rids = await accountRegionIds(ctx.db, accountId);
  if (rids.length === 0) fail('该账号未分配小区，请联系管理员');
  if (wanted === undefined) return rids[0]!;
  if (!rids.includes(wanted)) fail('该账号无权登录所选小区');
  return wanted;
}

const userinfo = defineMethod('userinfo', {
  side: 'both',
  roles: 'any',
  writes: false,
  allowExpired: true,
  summary: '当前用户：姓名、角色（非空）、头像、简介、权限标记',
  async handler(ctx) {
    const a = await ctx.db
      .selectFrom('accounts')
      .select(['name', 'avatar', 'introduction', 'permissions'])
      .where('id', '=', ctx.session.accountId)
      .executeTakeFirstOrThrow();
    // the session's codes: the account's own and its roles' in the session's community
    return {
      name: a.name,
      roles: ctx.session.roles,
      avatar: a.avatar,
      introduction: a.introduction,
      permissions: a.permissions,
      modules_off: [...ctx.session.modulesOff],
    };
  },
});

const logout = defineMethod('logout', {
  side: 'both',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: '退出登录：令牌立即失效',
  async handler(ctx) {
    await ctx.db
      .updateTable('sessions')
      .set({ ended_at: sql`now()`, end_reason: 'logout' })
      .where('token_hash', '=', ctx.session.tokenHash)
      .execute();
    return reply(null, '已退出登录');
  },
});

const sysuserinfo = defineMethod('sysuserinfo', {
  side: 'both',
  roles: 'any',
  writes: false,
  allowExpired: true,
  summary:
    '当前账号：username, name, sysid, rid, sys_type, password_status（N 为弱密码）, password_reset（Y：管理员重置后尚未修改，修改时可不填原密码）',
  async handler(ctx) {
    const a = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'name', 'sys_type', 'password_status', 'password_reset_at'])
      .where('id', '=', ctx.session.accountId)
      .executeTakeFirstOrThrow();
    return {
      items: {
        username: a.username,
        name: a.name,
        sysid: a.id,
        rid: ctx.session.rid ?? 0,
        sys_type: a.sys_type,
        password_status: a.password_status,
        password_reset: a.password_reset_at ? ('Y' as const) : ('N' as const),
        // the security policy's expiry: the session may only change the password (with the current one)
        password_expired: ctx.session.passwordReset && !a.password_reset_at ? ('Y' as const) : ('N' as const),
        entered: ctx.session.entered ? ('Y' as const) : ('N' as const),
      },
    };
  },
});

const sysusereditpassword = defineMethod('sysusereditpassword', {
  side: 'both',
  roles: 'any',
  // its own transaction, after the current password is checked outside one (a counted guess, then a slow hash)
  writes: 'own',
  allowExpired: true,
  summary:
    '修改本人密码（6-18 位，两次一致），须填原密码 oldpassword（管理员重置后的第一次修改除外）；结束该账号的其他会话。原密码连续输错与登录一样需等待',
  async handler(ctx, input) {
    const audit = (db: typeof ctx.db, outcome: string, message: string) =>
      recordAudit(db, { session: ctx.session, side: ctx.session.side, method: 'sysusereditpassword', input, outcome, message, ip: ctx.ip });
    const refuse = async (message: string): Promise<never> => {
      await audit(ctx.db, RC.FAIL, message);
      return fail(message);
    };
    const account = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'password_hash', 'password_reset_at'])
      .where('id', '=', ctx.session.accountId)
      .executeTakeFirstOrThrow();
    if (input.id !== undefined && input.id !== account.id) await refuse('只能修改本人的密码');
    if (input.username !== account.username) await refuse('用户名与当前账号不一致');
    if (input.password !== input.password2) await refuse(MSG.passwordMismatch);
    // the security policy of the session's community (or the group's): length and complexity
    const problem = passwordProblem(await sessionPolicy(ctx.db, ctx.session), input.password);
    if (problem) await refuse(problem);
    // the current password, unless an administrator has just reset it (and only until it is changed):
    // a stolen token alone cannot take the account over for good
    const guess = { ...loginKeys(ctx, account.username, true).pair, key: `o:${account.id}` };
    if (!account.password_reset_at) {
      if (!input.oldpassword) await refuse('请输入原密码');
      // nor guess it: wrong ones wait as at sign-in
      const reserved = await reserveGuess(ctx.db, [guess]);
      if (!reserved.ok) await refuse(`原密码错误次数过多，请 ${waitText(reserved.waitSeconds)}后再试`);
      if (!(await verifyPassword(input.oldpassword!, account.password_hash))) await refuse('原密码不正确');
    }
    const passwordHash = await hashPassword(input.password);
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set({
          password_hash: passwordHash,
          password_status: isWeakPassword(input.password) ? 'N' : 'Y',
          password_reset_at: null,
          password_changed_at: sql`now()`,
        })
        .where('id', '=', account.id)
        .execute();
      // an expired password is changed: this session is free again
      await trx.updateTable('sessions').set({ must_change: false }).where('token_hash', '=', ctx.session.tokenHash).execute();
      await trx
        .updateTable('sessions')
        .set({ ended_at: sql`now()`, end_reason: 'password' })
        .where('account_id', '=', account.id)
        .where('ended_at', 'is', null)
        .where('token_hash', '!=', ctx.session.tokenHash)
        .execute();
      await guessWasRight(trx, { clear: [guess.key], undo: [] });
      await audit(trx, RC.SUCCESS, '密码修改成功');
    });
    // the account's other sessions have ended
    ctx.services.sessions.clear();
    return reply(null, '密码修改成功');
  },
});

export const authModule = [login, userinfo, logout, sysuserinfo, sysusereditpassword, ...sessionMethods, ...resetMethods];
