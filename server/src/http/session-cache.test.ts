import { RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { buildApp, type App } from './app.js';
import { SessionCache, type SessionRow } from './session-cache.js';

const row = { token_hash: 'h', status: 'Y' } as SessionRow;

describe('SessionCache', () => {
  it('forgets entries after its time to live', async () => {
    const cache = new SessionCache(30);
    cache.set('h', row);
    expect(cache.get('h')).toBe(row);
    await new Promise((r) => setTimeout(r, 40));
    expect(cache.get('h')).toBeUndefined();
  });

  it('remembers nothing when off', () => {
    const cache = new SessionCache(0);
    cache.set('h', row);
    expect(cache.get('h')).toBeUndefined();
    const on = new SessionCache(1000);
    on.set('h', row);
    on.setEnabled(false);
    expect(on.get('h')).toBeUndefined();
  });
});

describe('remembered sessions through the API', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('sees a region switch at once', async () => {
    const token = await s.login('admin');
    expect((await s.call('sysuserinfo', {}, token)).data.items.rid).toBe(1);
    expect((await s.call('regionswitch', { rid: 2 }, token)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('sysuserinfo', {}, token)).data.items.rid).toBe(2);
  });

  it.runIf(process.env.DATABASE_URL)('hears a logout made by another server process on the same database', async () => {
    const other: App = await buildApp(s.config, s.database, { logger: false });
    await other.fastify.ready();
    try {
      const callOther = async (token: string) =>
        (
          await other.fastify.inject({ method: 'POST', url: '/webapi', headers: { 'x-token': token }, payload: { method: 'userinfo' } })
        ).json();
      const token = await s.login('cashier');
      // wait for the other process to listen, so its cache is on and this session gets remembered there
      for (let i = 0; i < 50 && !(await cacheIsOn(other)); i++) await new Promise((r) => setTimeout(r, 50));
      expect((await callOther(token)).return_code).toBe(RC.SUCCESS);
      expect((await s.call('logout', {}, token)).return_code).toBe(RC.SUCCESS);
      let code = '';
      for (let i = 0; i < 40 && code !== RC.ILLEGAL_TOKEN; i++) {
        code = (await callOther(token)).return_code;
        if (code !== RC.ILLEGAL_TOKEN) await new Promise((r) => setTimeout(r, 25));
      }
      expect(code).toBe(RC.ILLEGAL_TOKEN);
    } finally {
      await other.fastify.close();
    }
  });
});

async function cacheIsOn(app: App): Promise<boolean> {
  app.sessions.set('probe', row);
  const on = app.sessions.get('probe') !== undefined;
  app.sessions.clear();
  return on;
}
