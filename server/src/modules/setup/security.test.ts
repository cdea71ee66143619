import { DEFAULT_SECURITY, RC, type SecurityPolicy } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
let leader: string;
beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2] = await Promise.all([s.login('admin'), s.login('admin2')]);
  leader = await s.login('leader');
});
afterAll(() => s.close());

const policy = (over: Partial<SecurityPolicy> = {}): SecurityPolicy => ({ ...DEFAULT_SECURITY, ...over });
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
const db = () => s.database.db;

describe('the policy: group default, community override where allowed', () => {
  it('answers the defaults, then a community own policy in force for it alone, logged as old → new', async () => {
    const info = (await s.call('securityinfo', {}, admin)).data;
    expect(info).toMatchObject({ side: 'community', group: DEFAULT_SECURITY, allow_override: 'Y', own: null, effective: DEFAULT_SECURITY });
    const saved = await s.call('setsecurity', { policy: policy({ min_length: 8, complexity: 'letter_digit' }) }, admin);
    ok(saved);
    expect(saved.return_msg).toContain('密码最小长度：6 → 8');
    expect(saved.return_msg).toContain('密码复杂度：不限 → 须含字母和数字');
    expect(saved.data.effective).toMatchObject({ min_length: 8, complexity: 'letter_digit' });
    const log = (await s.call('operationloglist', { action: 'setsecurity', limit: 1, sort: 'desc' }, admin)).data.items[0];
    expect(log.message).toContain('密码最小长度：6 → 8');
    // the other community keeps the group's
    expect((await s.call('securityinfo', {}, admin2)).data.effective).toEqual(DEFAULT_SECURITY);
    // back to the group's
    const back = await s.call('setsecurity', { inherit: 'Y' }, admin);
    ok(back);
    expect(back.data).toMatchObject({ own: null, effective: DEFAULT_SECURITY });
  });

  it('the head office sets the default for every community and may forbid their own', async () => {
    const g = await s.call(
      'setsecurity',
      { policy: policy({ lockout_attempts: 4, lockout_minutes: 15 }), allow_override: 'N' },
      leader,
      'group',
    );
    ok(g);
    expect(g.return_msg).toContain('允许小区自定义：允许 → 不允许');
    expect((await s.call('securityinfo', {}, admin2)).data.effective).toMatchObject({ lockout_attempts: 4, lockout_minutes: 15 });
    const refused = await s.call('setsecurity', { policy: policy({ min_length: 12 }) }, admin);
    expect(refused).toMatchObject({ return_code: RC.FAIL, return_msg: '集团不允许小区单独设置安全策略，请联系集团总部' });
    expect((await s.call('setsecurity', { allow_override: 'Y' }, admin)).return_msg).toBe('是否允许小区自定义由集团总部设置');
    ok(await s.call('setsecurity', { policy: DEFAULT_SECURITY, allow_override: 'Y' }, leader, 'group'));
  });

  it('refuses bad payloads and other roles, changing nothing', async () => {
    const bad = [
      { policy: policy({ min_length: 5 }) },
      { policy: policy({ min_length: 19 }) },
      { policy: policy({ expire_days: 3 }) },
      { policy: policy({ lockout_attempts: 2 }) },
      { policy: policy({ lockout_minutes: 0 }) },
      { policy: policy({ idle_minutes: 1 }) },
      { policy: { ...policy(), complexity: 'strong' } },
      { policy: { min_length: 8 } },
      {},
    ];
    for (const payload of bad) expect((await s.call('setsecurity', payload, admin)).return_code, JSON.stringify(payload)).toBe(RC.FAIL);
    const cashier = await s.login('cashier');
    expect((await s.call('securityinfo', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('setsecurity', { policy: policy() }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('securityinfo', {}, admin)).data.effective).toEqual(DEFAULT_SECURITY);
  });
});

describe('enforced', () => {
  it('password length and complexity on a change, a new staff account and a reset', async () => {
    ok(await s.call('setsecurity', { policy: policy({ min_length: 12, complexity: 'three' }) }, admin));
    const steward = await s.login('steward');
    const change = (password: string, token = steward) =>
      s.call('sysusereditpassword', { username: 'steward', oldpassword: 'demo123456', password, password2: password }, token);
    expect((await change('abc123')).return_msg).toBe('密码长度为12 - 18个字符');
    expect((await change('abcdefgh12345')).return_msg).toBe('密码须包含大写字母、小写字母、数字、符号中的至少三种');
    ok(await change('Abcdefgh12345'));

    const roles = (await s.call('role_small_list', { app: 'web' }, admin)).data.items as Array<{ id: number; title: string }>;
    const assignments = [{ rid: 1, role_ids: [roles.find((r) => r.title === '维修工')!.id] }];
    const added = await s.call('staffadd', { username: 'policy01', name: '策略测试', password: 'short12', assignments }, admin);
    expect(added).toMatchObject({ return_code: RC.FAIL, return_msg: '密码长度为12 - 18个字符' });
    const temp = await s.call('staffadd', { username: 'policy02', name: '策略测试', assignments }, admin);
    ok(temp);
    expect(temp.data.password.length).toBe(12);
    const reset = await s.call('staffresetpassword', { id: temp.data.id }, admin);
    ok(reset);
    expect(reset.data.password.length).toBe(12);
    ok(await s.call('setsecurity', { inherit: 'Y' }, admin));
  });

  it('locks an account after N wrong passwords for M minutes, whatever the right password, and no other account', async () => {
    ok(await s.call('setsecurity', { policy: policy({ lockout_attempts: 3, lockout_minutes: 10 }) }, admin));
    const wrong = () => s.call('login', { username: 'guard', password: 'wrong-password' });
    for (let i = 0; i < 3; i++) expect((await wrong()).return_msg).toBe('用户名或密码错误');
    const locked = await s.call('login', { username: 'guard', password: 'demo123456' });
    expect(locked.return_code).toBe(RC.FAIL);
    expect(locked.return_msg).toMatch(/^登录尝试过于频繁，请 (9|10) ?分钟后再试$/);
    // another account of the community signs in
    expect((await s.call('login', { username: 'tech', password: 'demo123456' })).return_code).toBe(RC.SUCCESS);
    // the lock ends after its minutes (moved back here instead of waited)
    await db()
      .updateTable('login_throttle')
      .set({ blocked_until: sql`now() - interval '1 second'` })
      .where('key', '=', 'l:guard')
      .execute();
    expect((await s.call('login', { username: 'guard', password: 'demo123456' })).return_code).toBe(RC.SUCCESS);
    ok(await s.call('setsecurity', { inherit: 'Y' }, admin));
  });

  it('a password past its days must be changed, with the current one, before anything else', async () => {
    ok(await s.call('setsecurity', { policy: policy({ expire_days: 30 }) }, admin));
    await db()
      .updateTable('accounts')
      .set({ password_changed_at: sql`now() - interval '31 days'` })
      .where('username', '=', 'tech')
      .execute();
    const token = await s.login('tech');
    expect((await s.call('backlog_list', {}, token)).return_msg).toBe('密码已过期，请先修改密码');
    expect((await s.call('sysuserinfo', {}, token)).data.items).toMatchObject({ password_expired: 'Y', password_reset: 'N' });
    const change = (extra: Record<string, unknown>) =>
      s.call('sysusereditpassword', { username: 'tech', password: 'Tech#20261', password2: 'Tech#20261', ...extra }, token);
    expect((await change({})).return_msg).toBe('请输入原密码');
    ok(await change({ oldpassword: 'demo123456' }));
    // the same session goes on
    expect((await s.call('backlog_list', {}, token)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('sysuserinfo', {}, token)).data.items.password_expired).toBe('N');
    // a password within its days is not asked for
    const admin2Token = await s.login('admin2');
    expect((await s.call('backlog_list', {}, admin2Token)).return_code).toBe(RC.SUCCESS);
    ok(await s.call('setsecurity', { inherit: 'Y' }, admin));
  });

  it('ends a session idle for longer than the idle timeout', async () => {
    ok(await s.call('setsecurity', { policy: policy({ idle_minutes: 15 }) }, admin));
    const token = await s.login('cashier');
    const row = await db()
      .selectFrom('sessions')
      .select(['idle_seconds', sql<number>`extract(epoch from expires_at - now())::float8`.as('left')])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.idle_seconds).toBe(900);
    expect(Number(row.left)).toBeLessThanOrEqual(900);
    expect(Number(row.left)).toBeGreaterThan(880);
    ok(await s.call('backlog_list', {}, token));
    // a call after a while slides it on by the idle timeout, not the server's hours
    await db()
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '10 minutes'` })
      .where('idle_seconds', '=', 900)
      .execute();
    s.services().sessions.clear();
    ok(await s.call('backlog_list', {}, token));
    const slid = await db()
      .selectFrom('sessions')
      .select(sql<number>`extract(epoch from expires_at - now())::float8`.as('left'))
      .where('idle_seconds', '=', 900)
      .executeTakeFirstOrThrow();
    expect(Number(slid.left)).toBeLessThanOrEqual(900);
    expect(Number(slid.left)).toBeGreaterThan(880);
    // idle past it: the session has expired
    await db()
      .updateTable('sessions')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('idle_seconds', '=', 900)
      .execute();
    s.services().sessions.clear();
    expect((await s.call('backlog_list', {}, token)).return_code).toBe(RC.TOKEN_EXPIRED);
    // with no idle timeout a session lasts the server's hours
    ok(await s.call('setsecurity', { inherit: 'Y' }, admin));
    await s.login('cashier');
    const plain = await db().selectFrom('sessions').select('idle_seconds').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(plain.idle_seconds).toBeNull();
  });
});
