import { RC } from '@wuye/contract';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStartConfig, loadConfig } from '../config.js';
import { demoActivationCodes, DEMO_PASSWORD } from '../db/seed.js';
import { hashToken } from '../http/tokens.js';
import { BAD_ACT_CODE } from '../modules/renewal/methods.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { prepareProcessDatabase, spawnServer, type ProcessDatabase } from '../test/process.js';

/**
 * The sign-in, session and renewal attacks of issue 33, replayed against the server: each was
 * possible before and must stay refused (items 1, 5, 6, 7, 8 and 9; the body, role and input
 * attacks are in attacks-input.test.ts).
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

/** A call from another address, as a client elsewhere on the network makes it. */
async function callFrom(
  server: TestServer,
  ip: string,
  method: string,
  payload: Record<string, unknown> = {},
  token?: string,
  extra: Record<string, string> = {},
) {
  const res = await server.app.fastify.inject({
    method: 'POST',
    url: '/webapi',
    remoteAddress: ip,
    headers: { 'x-method': method, ...(token ? { 'x-token': token } : {}), ...extra },
    payload: { method, ...payload },
  } as InjectOptions);
  return res.json() as { return_code: string; return_msg: string; data: any };
}
const endOf = async (server: TestServer, rid: number) =>
  (await server.database.db.selectFrom('regions').select('end_time').where('id', '=', rid).executeTakeFirstOrThrow()).end_time;

describe('1. renewal without paying', () => {
  it('has no sandbox unless configured: no pay page, no scan-to-pay, and a production start with it on refuses', async () => {
    // on for the embedded demo, off with DATABASE_URL, on or off when SANDBOX says so
    expect(loadConfig({}).sandbox).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/wuye' }).sandbox).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/wuye', SANDBOX: '1' }).sandbox).toBe(true);
    expect(loadConfig({ SANDBOX: '0' }).sandbox).toBe(false);
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://wy.example.com', DATABASE_URL: 'postgres://db/wuye' };
    expect(() => checkStartConfig(loadConfig(production))).not.toThrow();
    expect(() => checkStartConfig(loadConfig({ ...production, SANDBOX: '1' }))).toThrow(/SANDBOX_IN_PRODUCTION/);
    expect(() => checkStartConfig(loadConfig({ ...production, SANDBOX: '1', SANDBOX_IN_PRODUCTION: '1' }))).not.toThrow();

    const off = await startTestServer({ sandbox: false });
    try {
      const endBefore = await endOf(off, 3);
      expect(off.app.fastify.printRoutes({ commonPrefix: false })).not.toMatch(/sandbox/);
      const expired = await off.login('expired');
      const order = await off.call('get_region_delay_pay', { years: 5 }, expired);
      // the demo group chose the sandbox for 续费 (支付渠道), which this server does not run
      expect(order).toMatchObject({
        return_code: RC.FAIL,
        return_msg: '“续费”选用的沙箱（测试）渠道尚未开通，请使用激活码续费或联系集团总部',
      });
      // and without a choice, there is no provider at all
      await off.database.db.deleteFrom('pay_channels').where('scene', '=', 'renewal').execute();
      const none = await off.call('get_region_delay_pay', { years: 5 }, expired);
      expect(none).toMatchObject({ return_code: RC.FAIL, return_msg: expect.stringMatching(/扫码支付未开通/) });
      for (const method of ['GET', 'POST'] as const) {
        const res = await off.app.fastify.inject({
          method,
          url: '/sandbox-pay/RD20260101000000123456',
          payload: method === 'POST' ? '' : undefined,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        // the route is not there: a POST finds nothing, a GET the console's own page (with its 404)
        if (method === 'POST') expect(res.statusCode).toBe(404);
        expect(res.body, method).not.toMatch(/确认支付|沙箱/);
      }
      // an order made while a sandbox was on is not settled by a server without it
      const made = (await s.call('get_region_delay_pay', { years: 1 }, await s.login('expired2'))).data.items;
      await off.database.db
        .insertInto('renewal_orders')
        .values({ rid: 3, orderid: made.orderid, years: 1, total_fee: '1200.00', provider: 'sandbox', code_url: made.payparam.code_url })
        .execute();
      expect((await off.call('pay_query', { orderid: made.orderid, pay_type: '1' }, expired)).return_msg).toMatch(/支付渠道已停用/);
      expect(await endOf(off, 3)).toBe(endBefore);
    } finally {
      await off.close();
    }
  });

  it('settles only what the provider received for the order: a bare POST to the order gives nothing, another amount nothing', async () => {
    const expired = await s.login('expired');
    const before = await endOf(s, 3);
    const order = (await s.call('get_region_delay_pay', { years: 5 }, expired)).data.items;
    expect(order.total_fee).toBe('6000.00');
    // the attack: the pay page's form posted by hand to the order's id, no session, no amount
    const bare = await s.app.fastify.inject({
      method: 'POST',
      url: `/sandbox-pay/${order.orderid}`,
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bare.statusCode).toBe(404);
    expect((await s.call('pay_query', { orderid: order.orderid, pay_type: '1' }, expired)).return_msg).toBe('订单尚未支付，请扫码完成支付');
    // the provider's page, paid with another amount than the order's: recorded there, settled nowhere
    const payPath = new URL(order.payparam.code_url).pathname;
    const cheap = await s.app.fastify.inject({
      method: 'POST',
      url: payPath,
      payload: 'amount=0.01',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(cheap.statusCode).toBe(200);
    const query = await s.call('pay_query', { orderid: order.orderid, pay_type: '1' }, expired);
    expect(query).toMatchObject({ return_code: RC.FAIL, return_msg: expect.stringMatching(/0\.01 元.*6000\.00 元.*不符/) });
    expect(await endOf(s, 3)).toBe(before);
    expect(await s.database.db.selectFrom('region_delay_log').select('id').where('ref', '=', order.orderid).execute()).toEqual([]);
    expect(
      await s.database.db.selectFrom('renewal_orders').select('status').where('orderid', '=', order.orderid).executeTakeFirst(),
    ).toEqual({
      status: 'E',
    });
  });

  describe('the real server', () => {
    let pdb: ProcessDatabase;
    beforeAll(async () => {
      pdb = await prepareProcessDatabase({ seed: false });
    });
    afterAll(() => pdb?.dispose());

    it('refuses a production start with the sandbox on, or without its public address, and says why', async () => {
      const sandbox = spawnServer(pdb, { NODE_ENV: 'production', SANDBOX: '1', PUBLIC_URL: 'https://wy.example.com' });
      await expect(sandbox).rejects.toThrow(
        /exited during start[\s\S]*无法启动: SANDBOX=1 with NODE_ENV=production[\s\S]*SANDBOX_IN_PRODUCTION=1/,
      );
      const address = spawnServer(pdb, { NODE_ENV: 'production', SANDBOX: '0' });
      await expect(address).rejects.toThrow(/无法启动: NODE_ENV=production needs PUBLIC_URL/);
    }, 120_000);
  });
});

describe('5. a stolen token taking the account over', () => {
  it('needs the current password to change it, except for the first change after an administrator reset it', async () => {
    const token = await s.login('cashier2');
    const change = { username: 'cashier2', password: 'Taken#Over-1', password2: 'Taken#Over-1' };
    expect((await s.call('sysusereditpassword', change, token)).return_msg).toBe('请输入原密码');
    expect((await s.call('sysusereditpassword', { ...change, oldpassword: 'guess-1' }, token)).return_msg).toBe('原密码不正确');
    expect((await s.call('login', { username: 'cashier2', password: DEMO_PASSWORD })).return_code).toBe(RC.SUCCESS);
    // guessing it through the change waits as signing in does
    for (let i = 0; i < 5; i++) await s.call('sysusereditpassword', { ...change, oldpassword: `guess-${i}` }, token);
    expect((await s.call('sysusereditpassword', { ...change, oldpassword: DEMO_PASSWORD }, token)).return_msg).toMatch(
      /原密码错误次数过多/,
    );
    await s.database.db.deleteFrom('login_throttle').execute();

    // an administrator's reset: the next change alone may skip it
    await s.database.db.updateTable('accounts').set({ password_reset_at: new Date() }).where('username', '=', 'cashier2').execute();
    expect((await s.call('sysuserinfo', {}, token)).data.items.password_reset).toBe('Y');
    expect(
      (await s.call('sysusereditpassword', { ...change, password: 'After#Reset-1', password2: 'After#Reset-1' }, token)).return_code,
    ).toBe(RC.SUCCESS);
    expect((await s.call('sysuserinfo', {}, token)).data.items.password_reset).toBe('N');
    expect((await s.call('sysusereditpassword', change, token)).return_msg).toBe('请输入原密码');
  });

  it("an administrator resets a staff account of the community: a one-time password, the account's sessions end, one change without the current one", async () => {
    const idOf = async (username: string) =>
      (await s.database.db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const cashier = await idOf('cashier');
    const before = await s.login('cashier');
    // not by the account's own role, not from another community, not for a group account or oneself
    expect((await s.call('staffresetpassword', { id: cashier }, before)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('staffresetpassword', { id: cashier }, await s.login('admin2'))).return_msg).toBe('员工账号不存在');
    const admin = await s.login('admin');
    expect((await s.call('staffresetpassword', { id: await idOf('leader') }, admin)).return_msg).toBe('员工账号不存在');
    expect((await s.call('staffresetpassword', { id: await idOf('admin') }, admin)).return_msg).toMatch(/不能重置本人的密码/);
    expect((await s.call('staffresetpassword', { id: true }, admin)).return_code).toBe(RC.FAIL);

    const reset = await s.call('staffresetpassword', { id: cashier }, admin);
    expect(reset.return_code).toBe(RC.SUCCESS);
    const temporary = reset.data.password as string;
    expect(temporary).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{10}$/);
    // stored hashed, never in the audit log
    const audit = await s.database.db.selectFrom('audit_log').selectAll().where('method', '=', 'staffresetpassword').execute();
    expect(JSON.stringify(audit)).not.toContain(temporary);
    // the stolen session is over; the old password no longer opens the account
    expect((await s.call('sysuserinfo', {}, before)).return_code).not.toBe(RC.SUCCESS);
    expect((await s.call('login', { username: 'cashier', password: DEMO_PASSWORD })).return_code).not.toBe(RC.SUCCESS);
    const token = (await s.call('login', { username: 'cashier', password: temporary })).data.token as string;
    expect((await s.call('sysuserinfo', {}, token)).data.items).toMatchObject({ password_reset: 'Y', password_status: 'N' });
    const change = { username: 'cashier', password: DEMO_PASSWORD, password2: DEMO_PASSWORD };
    expect((await s.call('sysusereditpassword', change, token)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('login', { username: 'cashier', password: temporary })).return_code).not.toBe(RC.SUCCESS);
    expect((await s.call('sysusereditpassword', change, token)).return_msg).toBe('请输入原密码');
  });
});

describe('6. locking the owner out, spraying, racing and timing sign-ins', () => {
  it('lets the owner in while an attacker guesses from other addresses: at once from an address it signed in from, within a minute from a new one', async () => {
    const office = '10.6.0.1';
    expect((await callFrom(s, office, 'login', { username: 'leader', password: DEMO_PASSWORD })).return_code).toBe(RC.SUCCESS);
    // the attack of the issue, far beyond five wrong passwords, from many addresses
    for (let i = 0; i < 40; i++) await callFrom(s, `10.66.${i}.1`, 'login', { username: 'leader', password: `wrong-${i}` });
    expect((await callFrom(s, office, 'login', { username: 'leader', password: DEMO_PASSWORD })).return_code).toBe(RC.SUCCESS);
    const elsewhere = await callFrom(s, '10.6.0.2', 'login', { username: 'leader', password: DEMO_PASSWORD });
    if (elsewhere.return_code !== RC.SUCCESS) expect(elsewhere.return_msg).toMatch(/请 ([1-5]?\d|60) 秒后再试/);
  });

  it('holds one address guessing across usernames after twenty wrong guesses, and nobody else', async () => {
    const sprayer = '10.67.0.1';
    const answers: string[] = [];
    for (let i = 0; i < 24; i++)
      answers.push((await callFrom(s, sprayer, 'login', { username: `user${i}`, password: 'Spring2026' })).return_msg);
    expect(answers.slice(0, 20)).toEqual(Array(20).fill('用户名或密码错误'));
    expect(answers.slice(20).every((m) => /过于频繁/.test(m))).toBe(true);
    expect((await callFrom(s, '10.67.0.2', 'login', { username: 'admin', password: DEMO_PASSWORD })).return_code).toBe(RC.SUCCESS);
  });

  it('counts guesses made at once: thirty concurrent wrong passwords get five checks, not thirty', async () => {
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => callFrom(s, '10.68.0.1', 'login', { username: 'admin2', password: `race-${i}` })),
    );
    const seconds = (performance.now() - started) / 1000;
    const checked = answers.filter((a) => a.return_msg === '用户名或密码错误').length;
    // five free guesses; after them the waits double from 1 s, so a burst that a loaded machine
    // spreads over `seconds` may earn k more checks where 1 + 2 + ... + 2^(k-1) <= seconds
    expect(checked).toBeLessThanOrEqual(5 + Math.floor(Math.log2(seconds + 1)));
    expect(answers.filter((a) => /过于频繁/.test(a.return_msg)).length).toBe(30 - checked);
  });

  it('spends the same time on a username that does not exist', async () => {
    const time = async (username: string, i: number) => {
      const t = performance.now();
      const res = await callFrom(s, `10.69.${i}.${username.length}`, 'login', { username, password: 'not-the-password' });
      expect(res.return_msg).toBe('用户名或密码错误');
      return performance.now() - t;
    };
    // each pair is taken back to back, so a burst of other work slows both of it alike; the
    // median of the pairs' ratios is the work itself (the minimum of each side was thrown off by
    // bursts the other side missed: 0.57 and 1.8 on a 2-core machine running another test file)
    // (before: 303 ms against 132 ms, a ratio of 0.44; the same work now)
    const ratios: number[] = [];
    // nine pairs: a tenth wrong password for the account from new addresses would be throttled
    for (let i = 0; i < 9; i++) {
      const known = await time('steward', i);
      ratios.push((await time('nobody-here', i)) / known);
    }
    const ratio = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });
});

describe('7. tokens in addresses', () => {
  it('opens the board with a one-time code for a read-only board session, never with the session token', async () => {
    const admin = await s.login('admin');
    const issued = await s.call('boardcode', {}, admin);
    expect(issued.return_code).toBe(RC.SUCCESS);
    expect(issued.data.url).toBe(`/spectaculars?code=${issued.data.code}`);
    expect(issued.data.url).not.toContain(admin);
    const board = await s.call('boardlogin', { code: issued.data.code });
    expect(board.return_code).toBe(RC.SUCCESS);
    // once only
    expect((await s.call('boardlogin', { code: issued.data.code })).return_msg).toMatch(/链接无效或已过期/);
    // a session token is no code
    expect((await s.call('boardlogin', { code: admin })).return_code).toBe(RC.FAIL);
    const token = board.data.token as string;
    expect((await s.call('get_system_info', {}, token)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('backlog_list', { status: 'E' }, token)).return_code).toBe(RC.SUCCESS);
    // walks the registry: the board session may call the board's reads and nothing else
    const wrong: string[] = [];
    for (const def of s.app.registry.all()) {
      if (def.spec.side === 'public' || def.spec.side === 'group' || def.spec.board) continue;
      const res = await s.call(def.name, {}, token);
      if (res.return_code !== RC.NO_PERMISSION) wrong.push(`${def.name}: ${res.return_code} ${res.return_msg}`);
    }
    expect(wrong).toEqual([]);
    const row = await s.database.db
      .selectFrom('sessions')
      .select(['kind', sql<number>`extract(epoch from (max_expires_at - created_at))::float8`.as('life')])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'board', life: 12 * 3600 });
    // a merchant has no board (spec 2.3)
    expect((await s.call('boardcode', {}, await s.login('merchant'))).return_code).toBe(RC.NO_PERMISSION);
  });

  it('hands a sign-in over only with a one-time code, once', async () => {
    const admin2 = await s.login('admin2');
    const { code, url } = (await s.call('authcode', {}, admin2)).data;
    expect(url).toBe(`/auth-redirect?code=${code}`);
    const handed = await s.call('authcodelogin', { code });
    expect(handed.data).toMatchObject({ username: 'admin2', side: 'community', rid: 2 });
    expect((await s.call('userinfo', {}, handed.data.token)).data.name).toBe('李经理');
    expect((await s.call('authcodelogin', { code })).return_code).toBe(RC.FAIL);
    // a board code is no hand-over code, nor the reverse
    const boardCode = (await s.call('boardcode', {}, admin2)).data.code;
    expect((await s.call('authcodelogin', { code: boardCode })).return_code).toBe(RC.FAIL);
    // nor does an expired one work
    const late = (await s.call('authcode', {}, admin2)).data.code;
    await s.database.db
      .updateTable('login_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code_hash', '=', hashToken(late))
      .execute();
    expect((await s.call('authcodelogin', { code: late })).return_code).toBe(RC.FAIL);
  });

  it('ends a session at its absolute end however active it stays', async () => {
    const token = await s.login('cashier');
    // in use all along: the sliding expiry is moved on, but never past the absolute end
    await s.database.db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '2 minutes'`, max_expires_at: sql`now() + interval '1 second'` })
      .where('token_hash', '=', hashToken(token))
      .execute();
    s.app.sessions.clear();
    expect((await s.call('userinfo', {}, token)).return_code).toBe(RC.SUCCESS);
    await new Promise((r) => setTimeout(r, 1300));
    s.app.sessions.clear();
    expect((await s.call('userinfo', {}, token)).return_code).toBe(RC.TOKEN_EXPIRED);
    // a new session gets SESSION_MAX_HOURS from its start
    const fresh = await s.login('cashier');
    const row = await s.database.db
      .selectFrom('sessions')
      .select(sql<number>`extract(epoch from (max_expires_at - created_at))::float8`.as('life'))
      .where('token_hash', '=', hashToken(fresh))
      .executeTakeFirstOrThrow();
    expect(row.life).toBe(s.config.sessionMaxHours * 3600);
  });

  it("lists an account's open sessions and ends one, or all others, and never another account's", async () => {
    const mine = await s.login('steward');
    const other = await s.login('steward');
    const board = (await s.call('boardlogin', { code: (await s.call('boardcode', {}, mine)).data.code })).data.token as string;
    const list = (await s.call('sessionlist', {}, mine)).data.items as Array<{ id: number; kind: string; current: boolean; ip: string }>;
    expect(list.filter((x) => x.current)).toHaveLength(1);
    expect(list.map((x) => x.kind).sort()).toEqual(expect.arrayContaining(['board', 'console', 'console']));
    const otherId = list.find((x) => !x.current && x.kind === 'console')!.id;
    expect((await s.call('sessiondel', { id: otherId }, mine)).data.ended).toBe(1);
    s.app.sessions.clear();
    expect(await s.call('userinfo', {}, other)).toMatchObject({ return_code: RC.ILLEGAL_TOKEN, return_msg: '该登录已被结束，请重新登录' });
    // another account's session is not this account's to end
    const admin = await s.login('admin');
    const adminId = (await s.call('sessionlist', {}, admin)).data.items.find((x: { current: boolean }) => x.current).id;
    expect((await s.call('sessiondel', { id: adminId }, mine)).return_code).toBe(RC.FAIL);
    expect((await s.call('userinfo', {}, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('sessiondel', { others: 'Y' }, mine)).return_code).toBe(RC.SUCCESS);
    s.app.sessions.clear();
    expect((await s.call('get_system_info', {}, board)).return_code).toBe(RC.ILLEGAL_TOKEN);
    expect((await s.call('userinfo', {}, mine)).return_code).toBe(RC.SUCCESS);
  });

  describe('the real server', () => {
    let pdb: ProcessDatabase;
    beforeAll(async () => {
      pdb = await prepareProcessDatabase();
    });
    afterAll(() => pdb?.dispose());

    it('writes no query value of any address to its log', async () => {
      const server = await spawnServer(pdb, { LOG_LEVEL: 'info', LOG_REQUESTS: '1' });
      try {
        const secret = 'f'.repeat(64);
        for (const path of [
          `/spectaculars?code=${secret}`,
          `/auth-redirect?token=${secret}&redirect=/dashboard`,
          `/healthz?code=${secret}`,
        ]) {
          await fetch(`${server.url}${path}`);
        }
        await fetch(`${server.url}/webapi?token=${secret}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"method":"userinfo"}',
        });
      } finally {
        await server.stop();
      }
      const out = server.output();
      expect(out).toMatch(/"url":"\/spectaculars\?code=\*\*\*"/);
      expect(out).toMatch(/"url":"\/auth-redirect\?token=\*\*\*&redirect=\*\*\*"/);
      expect(out.includes('fffffffff')).toBe(false);
    }, 120_000);
  });
});

describe('8. forged addresses', () => {
  it('believes X-Forwarded-For and X-Forwarded-Host only from configured proxies, and builds links from PUBLIC_URL', async () => {
    const forged = { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const lastIp = async (server: TestServer) =>
      (await server.database.db.selectFrom('audit_log').select('ip').orderBy('id', 'desc').executeTakeFirstOrThrow()).ip;
    // by default no proxy is believed: the audit row has the socket's address, the QR code the request's host
    await callFrom(s, '203.0.113.9', 'login', { username: 'admin', password: 'wrong-one' }, undefined, forged);
    expect(await lastIp(s)).toBe('203.0.113.9');
    const cashier = await s.login('cashier');
    const order = await callFrom(s, '203.0.113.9', 'get_region_delay_pay', {}, cashier, forged);
    expect(new URL(order.data.items.payparam.code_url).host).not.toBe('evil.example');

    const proxied = await startTestServer({ trustProxy: ['127.0.0.1'] });
    try {
      await callFrom(proxied, '127.0.0.1', 'login', { username: 'admin', password: 'wrong-two' }, undefined, forged);
      expect(await lastIp(proxied)).toBe('1.2.3.4');
      // not from anyone else
      await callFrom(proxied, '203.0.113.10', 'login', { username: 'admin', password: 'wrong-three' }, undefined, forged);
      expect(await lastIp(proxied)).toBe('203.0.113.10');
    } finally {
      await proxied.close();
    }

    const published = await startTestServer({ publicUrl: 'https://wy.example.com' });
    try {
      const token = await published.login('cashier');
      const made = await callFrom(published, '127.0.0.1', 'get_region_delay_pay', {}, token, { ...forged, host: 'evil.example' });
      expect(made.data.items.payparam.code_url).toMatch(/^https:\/\/wy\.example\.com\/sandbox-pay\//);
    } finally {
      await published.close();
    }
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(() => checkStartConfig(loadConfig({ NODE_ENV: 'production', SANDBOX: '0' }))).toThrow(/PUBLIC_URL/);
  });
});

describe('9. guessing activation codes', () => {
  it('has random demo codes, binds codes to their group, answers used and invalid alike, and makes guesses wait', async () => {
    const codes = await demoActivationCodes(s.database.db);
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
    for (const code of codes) expect(code).toMatch(/^WY(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);

    const db = s.database.db;
    const { id: otherGroup } = await db.insertInto('groups').values({ title: '别家物业' }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('activation_codes')
      .values([
        { code: 'WY-OTHER-GROUP', group_id: otherGroup, months: 60 },
        { code: 'WY-NO-GROUP', group_id: null, months: 60 },
      ])
      .execute();
    const admin = await s.login('admin');
    const before = await endOf(s, 1);
    const answers = [];
    for (const code of ['WY-OTHER-GROUP', 'WY-NO-GROUP', 'WY-NOT-A-CODE'])
      answers.push((await s.call('regiondelay_foractcode', { act_code: code }, admin)).return_msg);
    expect((await s.call('regiondelay_foractcode', { act_code: codes[0] }, admin)).return_code).toBe(RC.SUCCESS);
    answers.push((await s.call('regiondelay_foractcode', { act_code: codes[0] }, admin)).return_msg);
    expect(answers).toEqual(Array(4).fill(BAD_ACT_CODE));
    // guessing: after five wrong codes in a row (the used one was the first) the community waits
    const guesses: string[] = [];
    for (let i = 0; i < 6; i++) guesses.push((await s.call('regiondelay_foractcode', { act_code: `WY-GUESS-${i}` }, admin)).return_msg);
    expect(guesses.slice(0, 4)).toEqual(Array(4).fill(BAD_ACT_CODE));
    expect(guesses.slice(4).every((m) => /激活码输错次数过多，请 \d+ 秒后再试/.test(m))).toBe(true);
    // the one good code extended the community once
    const log = await db.selectFrom('region_delay_log').select('ref').where('rid', '=', 1).where('kind', '=', 'code').execute();
    expect(log.map((l) => l.ref)).toEqual([codes[0]]);
    expect(await endOf(s, 1)).not.toBe(before);
  });
});
