import { MSG, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('login', () => {
  it('trims the username and answers a token for the community side', async () => {
    const res = await s.call('login', { username: '  admin  ', password: 'demo123456' });
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data).toMatchObject({ rid: 1, side: 'community' });
    expect(res.data.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores only the hash of the token', async () => {
    const token = await s.login('admin');
    const rows = await s.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it('picks the asked community when the account has several and refuses one it has not', async () => {
    const two = await s.call('login', { username: 'admin', password: 'demo123456', rid: 2 });
    expect(two.data.rid).toBe(2);
    const three = await s.call('login', { username: 'admin', password: 'demo123456', rid: 3 });
    expect(three.return_code).toBe(RC.FAIL);
  });

  it('signs the leader in on the group side', async () => {
    const res = await s.call('login', { username: 'leader', password: 'demo123456' });
    expect(res.data).toMatchObject({ side: 'group', rid: null });
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const a = await s.call('login', { username: 'cashier', password: 'nope' });
    const b = await s.call('login', { username: 'ghost', password: 'nope' });
    expect(a).toMatchObject({ return_code: RC.FAIL, return_msg: '用户名或密码错误' });
    expect(b.return_msg).toBe(a.return_msg);
  });

  it('makes a username wait after five wrong passwords from one address, and lets the owner in once the wait is over', async () => {
    for (let i = 0; i < 5; i++) await s.call('login', { username: 'steward', password: 'wrong' });
    const waiting = await s.call('login', { username: 'steward', password: 'demo123456' });
    expect(waiting.return_code).toBe(RC.FAIL);
    expect(waiting.return_msg).toMatch(/登录尝试过于频繁，请 \d+ 秒后再试/);
    // a wait, not a lock: once it is over the right password signs in and the streak starts over
    await s.database.db
      .updateTable('login_throttle')
      .set({ blocked_until: new Date(0) })
      .execute();
    expect((await s.call('login', { username: 'steward', password: 'demo123456' })).return_code).toBe(RC.SUCCESS);
    const rows = await s.database.db.selectFrom('login_throttle').select(['key', 'failures']).where('key', 'like', '%steward%').execute();
    expect(rows.filter((r) => r.failures > 0)).toEqual([]);
  });

  it('requires username and password with the spec texts', async () => {
    expect((await s.call('login', { password: 'x' })).return_msg).toBe(MSG.usernameRequired);
    expect((await s.call('login', { username: 'admin' })).return_msg).toBe(MSG.enterPassword);
  });
});

describe('user info', () => {
  it('answers name and a non-empty roles array', async () => {
    const token = await s.login('cashier');
    const res = await s.call('userinfo', { token }, token);
    expect(res.data).toMatchObject({ name: '赵收银', roles: ['cashier', 'contact_whole', 'fees', 'payment', 'refund'] });
  });

  it('answers sysuserinfo with the weak-password flag', async () => {
    const token = await s.login('merchant');
    const res = await s.call('sysuserinfo', {}, token);
    expect(res.data.items).toMatchObject({ username: 'merchant', sys_type: 'merchant', rid: 1, password_status: 'Y' });
  });
});

describe('logout and password change', () => {
  it('revokes the token at logout', async () => {
    const token = await s.login('cashier');
    expect((await s.call('userinfo', {}, token)).return_code).toBe(RC.SUCCESS); // now remembered by the session cache
    expect((await s.call('logout', {}, token)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('userinfo', {}, token)).return_code).toBe(RC.ILLEGAL_TOKEN);
  });

  it('applies the spec rules and messages', async () => {
    const token = await s.login('admin2');
    const base = { username: 'admin2' };
    expect((await s.call('sysusereditpassword', { ...base, password: '123', password2: '123' }, token)).return_msg).toBe(
      MSG.passwordLength,
    );
    expect((await s.call('sysusereditpassword', { ...base, password: 'a'.repeat(19), password2: 'a'.repeat(19) }, token)).return_msg).toBe(
      MSG.passwordLength,
    );
    expect((await s.call('sysusereditpassword', { ...base, password: 'abcdef12', password2: 'abcdef13' }, token)).return_msg).toBe(
      MSG.passwordMismatch,
    );
    expect((await s.call('sysusereditpassword', { ...base, password: 'abcdef12' }, token)).return_msg).toBe(MSG.enterConfirm);
    expect((await s.call('sysusereditpassword', { password: 'abcdef12', password2: 'abcdef12' }, token)).return_msg).toBe(
      MSG.usernameRequired,
    );
    expect(
      (await s.call('sysusereditpassword', { username: 'admin', password: 'abcdef12', password2: 'abcdef12' }, token)).return_code,
    ).toBe(RC.FAIL);
  });

  it('changes the password, ends the other sessions with 50012 and keeps this one', async () => {
    const other = await s.login('admin2');
    const mine = await s.login('admin2');
    expect((await s.call('userinfo', {}, other)).return_code).toBe(RC.SUCCESS);
    const res = await s.call(
      'sysusereditpassword',
      { username: 'admin2', oldpassword: 'demo123456', password: 'Better#2026', password2: 'Better#2026' },
      mine,
    );
    expect(res).toMatchObject({ return_code: RC.SUCCESS });
    expect((await s.call('userinfo', {}, other)).return_code).toBe(RC.OTHER_CLIENT);
    expect((await s.call('userinfo', {}, mine)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('login', { username: 'admin2', password: 'demo123456' })).return_code).toBe(RC.FAIL);
    expect((await s.call('login', { username: 'admin2', password: 'Better#2026' })).return_code).toBe(RC.SUCCESS);
  });

  it('never logs or returns a password hash', async () => {
    const token = await s.login('admin');
    for (const m of ['userinfo', 'sysuserinfo']) {
      expect(JSON.stringify((await s.call(m, {}, token)).data)).not.toMatch(/scrypt|password_hash/);
    }
  });
});
