import { MSG, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { hashToken } from './tokens.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s.close());

const post = (url: string, payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  s.app.fastify.inject({ method: 'POST', url, payload, headers });

describe('dispatcher', () => {
  it('answers 50008 without a token and for an unknown token', async () => {
    expect((await s.call('userinfo')).return_code).toBe(RC.ILLEGAL_TOKEN);
    expect((await s.call('userinfo', {}, 'f'.repeat(64))).return_code).toBe(RC.ILLEGAL_TOKEN);
  });

  it('answers 50014 for an expired token', async () => {
    const token = await s.login('cashier');
    await s.database.db
      .updateTable('sessions')
      .set({ expires_at: sql`now() - interval '1 minute'` })
      .where('token_hash', '=', hashToken(token))
      .execute();
    s.app.sessions.clear(); // changed behind the API
    const res = await s.call('userinfo', {}, token);
    expect(res.return_code).toBe(RC.TOKEN_EXPIRED);
  });

  it('answers 50012 when the account signed in elsewhere with single sign-in', async () => {
    await s.database.db.updateTable('accounts').set({ single_login: 'Y' }).where('username', '=', 'merchant').execute();
    const first = await s.login('merchant');
    const second = await s.login('merchant');
    expect((await s.call('userinfo', {}, first)).return_code).toBe(RC.OTHER_CLIENT);
    expect((await s.call('userinfo', {}, second)).return_code).toBe(RC.SUCCESS);
  });

  it('refuses roles not allowed with NO_PERMISSION', async () => {
    const steward = await s.login('steward');
    const res = await s.call('setsysinfo', { sub_title: 'x' }, steward);
    expect(res.return_code).toBe(RC.NO_PERMISSION);
  });

  it('keeps the sides apart: a community token cannot call the group side and the reverse', async () => {
    const leader = await s.login('leader');
    expect((await s.call('userinfo', {}, admin, 'group')).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('userinfo', {}, leader, 'group')).return_code).toBe(RC.SUCCESS);
    expect((await s.call('backlog_list', {}, leader, 'community')).return_code).toBe(RC.NO_PERMISSION);
  });

  it('rejects a bad field with a Chinese message naming it', async () => {
    const res = await s.call('backlog_list', { page: 'abc' }, admin);
    expect(res.return_code).toBe(RC.FAIL);
    expect(res.return_msg).toContain('page');
    const big = await s.call('backlog_list', { limit: 100000 }, admin);
    expect(big.return_msg).toMatch(/limit.*不能大于/);
  });

  it('answers malformed JSON, a wrong content type and an oversized body with FAIL, never a 500', async () => {
    const bad = await post('/webapi', '{"method":');
    expect(bad.statusCode).toBeLessThan(500);
    expect(bad.json()).toMatchObject({ return_code: RC.FAIL, return_msg: MSG.badJson });
    const wrongType = await post('/webapi', 'method=login', { 'content-type': 'text/csv' });
    expect(wrongType.statusCode).toBeLessThan(500);
    expect(wrongType.json().return_code).toBe(RC.FAIL);
    const array = await post('/webapi', '[1,2]');
    expect(array.json().return_code).toBe(RC.FAIL);
    const huge = await post('/webapi', JSON.stringify({ method: 'login', username: 'x'.repeat(s.config.bodyLimitBytes) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().return_code).toBe(RC.FAIL);
  });

  it('answers unknown methods with 未知的操作', async () => {
    const res = await s.call('no_such_method', {}, admin);
    expect(res).toMatchObject({ return_code: RC.FAIL, return_msg: MSG.unknownMethod });
  });

  it('answers AUTH_END on an expired community except for the renewal and info methods', async () => {
    const expired = await s.login('expired');
    expect((await s.call('backlog_list', {}, expired)).return_code).toBe(RC.AUTH_END);
    for (const m of ['userinfo', 'sysuserinfo', 'get_system_info', 'get_region_delay_pay']) {
      expect((await s.call(m, {}, expired)).return_code, m).toBe(RC.SUCCESS);
    }
    expect((await s.call('logout', {}, expired)).return_code).toBe(RC.SUCCESS);
  });

  it('writes one audit row per write, passwords removed, and a row for a refused write', async () => {
    const before = await s.database.db
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    await s.call('setsysinfo', { copyright: '版权所有' }, admin);
    await s.call('login', { username: 'admin', password: 'wrong-password' });
    const rows = await s.database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(2).execute();
    const after = await s.database.db
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n - before.n).toBe(2);
    const [login, setsys] = rows;
    expect(setsys).toMatchObject({ method: 'setsysinfo', outcome: 'SUCCESS', rid: 1, username: 'admin' });
    expect(login).toMatchObject({ method: 'login', outcome: 'FAIL', username: 'admin' });
    expect(JSON.stringify(login!.payload)).not.toContain('wrong-password');
  });

  it('rolls back a refused write so it leaves nothing behind', async () => {
    const steward = await s.login('steward');
    const before = await s.database.db.selectFrom('regions').select('copyright').where('id', '=', 1).executeTakeFirstOrThrow();
    const res = await s.call('setsysinfo', { copyright: 'https://' + 'x'.repeat(600) }, admin);
    expect(res.return_code).toBe(RC.FAIL);
    expect((await s.call('setsysinfo', { copyright: 'nope' }, steward)).return_code).toBe(RC.NO_PERMISSION);
    const after = await s.database.db.selectFrom('regions').select('copyright').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(after.copyright).toBe(before.copyright);
  });

  it('serves the method catalogue from the registry and a health check', async () => {
    const json = (await s.app.fastify.inject({ url: '/api-docs.json' })).json();
    const login = json.methods.find((m: { method: string }) => m.method === 'login');
    expect(login).toMatchObject({ side: 'public', writes: true });
    expect(login.input.properties.username.maxLength).toBe(50);
    const html = await s.app.fastify.inject({ url: '/api-docs' });
    expect(html.body).toContain('sysusereditpassword');
    expect((await s.app.fastify.inject({ url: '/healthz' })).json().status).toBe('ok');
  });

  it('serves /get_system_extendinfo with data.data.items', async () => {
    const res = await s.app.fastify.inject({ method: 'POST', url: '/get_system_extendinfo', headers: { 'x-token': admin }, payload: {} });
    expect(res.json().data.data.items).toHaveProperty('map_key');
  });

  it('sets security headers', async () => {
    const res = await s.app.fastify.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('has a handler for every method schema of the contract', async () => {
    const { methodSchemas } = await import('@wuye/contract');
    const missing = Object.keys(methodSchemas).filter((m) => !s.app.registry.byName.has(m));
    expect(missing).toEqual([]);
  });
});
