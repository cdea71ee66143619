import { MSG } from '@wuye/contract';
import { sql } from 'kysely';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx } from '../../http/registry.js';
import { newToken } from '../../http/tokens.js';
import { hashPassword, isWeakPassword, verifyPassword } from './password.js';

const WRONG_LOGIN = '用户名或密码错误';

const login = defineMethod('login', {
  side: 'public',
  writes: true,
  summary: '账号登录：用户名会去掉首尾空格；rid 选择账号所属的多个小区之一',
  async handler(ctx, input) {
    await refuseWhileLocked(ctx, input.username);
    const account = await ctx.db.selectFrom('accounts').selectAll().where('username', '=', input.username).executeTakeFirst();
    if (!account || !(await verifyPassword(input.password, account.password_hash))) {
      await ctx.db.insertInto('login_failures').values({ username: input.username, ip: ctx.ip }).execute();
      throw new BizError(WRONG_LOGIN, 'FAIL', true);
    }
    if (account.status !== 'Y') fail('账号已停用，请联系管理员');
    const side = account.sys_type === 'leader' ? 'group' : 'community';
    const rid = side === 'community' ? await pickRegion(ctx, account.id, input.rid) : null;
    if (account.single_login === 'Y') {
      await ctx.db
        .updateTable('sessions')
        .set({ ended_at: sql`now()`, end_reason: 'elsewhere' })
        .where('account_id', '=', account.id)
        .where('ended_at', 'is', null)
        .execute();
    }
    const { token, hash } = newToken();
    await ctx.db
      .insertInto('sessions')
      .values({
        token_hash: hash,
        account_id: account.id,
        side,
        rid,
        expires_at: sql`now() + make_interval(hours => ${ctx.config.tokenTtlHours})`,
      })
      .execute();
    await ctx.db.deleteFrom('login_failures').where('username', '=', input.username).execute();
    return reply({ token, rid, side }, '登录成功');
  },
});

async function refuseWhileLocked(ctx: Ctx, username: string) {
  const { lockoutAttempts, lockoutMinutes } = ctx.config;
  const row = await ctx.db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('at').as('last')])
    .where('username', '=', username)
    .where('at', '>', sql<Date>`now() - make_interval(mins => ${lockoutMinutes})`)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= lockoutAttempts) {
    const last = row.last ? new Date(row.last).getTime() : Date.now();
    const minutes = Math.max(1, Math.ceil((last + lockoutMinutes * 60000 - Date.now()) / 60000));
    fail(`密码错误次数过多，账号已锁定，请${minutes}分钟后再试`);
  }
}

/** The community to sign in to: the asked one if the account has it, else its first. */
async function pickRegion(ctx: Ctx, accountId: number, wanted: number | undefined): Promise<number> {
  const rows = await ctx.db
    .selectFrom('account_regions')
    .select('rid')
    .where('account_id', '=', accountId)
    .orderBy('sort')
    .orderBy('rid')
    .execute();
  if (rows.length === 0) fail('该账号未分配小区，请联系管理员');
  if (wanted === undefined) return rows[0]!.rid;
  if (!rows.some((r) => r.rid === wanted)) fail('该账号无权登录所选小区');
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
      .select(['name', 'roles', 'avatar', 'introduction', 'permissions'])
      .where('id', '=', ctx.session.accountId)
      .executeTakeFirstOrThrow();
    return { name: a.name, roles: a.roles, avatar: a.avatar, introduction: a.introduction, permissions: a.permissions };
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
  summary: '当前账号：username, name, sysid, rid, sys_type, password_status（N 为弱密码）',
  async handler(ctx) {
    const a = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'name', 'sys_type', 'password_status'])
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
      },
    };
  },
});

const sysusereditpassword = defineMethod('sysusereditpassword', {
  side: 'both',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: '修改本人密码（6-18 位，两次一致）；结束该账号的其他会话',
  async handler(ctx, input) {
    const account = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'username', 'password_hash'])
      .where('id', '=', ctx.session.accountId)
      .executeTakeFirstOrThrow();
    if (input.id !== undefined && input.id !== account.id) fail('只能修改本人的密码');
    if (input.username !== account.username) fail('用户名与当前账号不一致');
    if (input.oldpassword !== undefined && !(await verifyPassword(input.oldpassword, account.password_hash))) {
      fail('原密码不正确');
    }
    if (input.password !== input.password2) fail(MSG.passwordMismatch);
    await ctx.db
      .updateTable('accounts')
      .set({
        password_hash: await hashPassword(input.password),
        password_status: isWeakPassword(input.password) ? 'N' : 'Y',
      })
      .where('id', '=', account.id)
      .execute();
    await ctx.db
      .updateTable('sessions')
      .set({ ended_at: sql`now()`, end_reason: 'password' })
      .where('account_id', '=', account.id)
      .where('ended_at', 'is', null)
      .where('token_hash', '!=', ctx.session.tokenHash)
      .execute();
    return reply(null, '密码修改成功');
  },
});

export const authModule = [login, userinfo, logout, sysuserinfo, sysusereditpassword];
