import net from 'node:net';
import { CONTROL_CHARS_MSG, fenToYuan, id as idSchema, RC, text, toFen } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaFields, type MethodDef } from '../http/registry.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * The body, role and input attacks of issue 33, replayed against the server (items 3, 4, 11, 12
 * and 15; the sign-in, session and renewal ones are in attacks-auth.test.ts). Where an attack
 * applies to every method, the test walks the method registry, so a method added later is held
 * to the same rule.
 */
let s: TestServer;
let admin: string;
let leader: string;
beforeAll(async () => {
  s = await startTestServer();
  [admin, leader] = [await s.login('admin'), await s.login('leader')];
});
afterAll(() => s?.close());

const sideOf = (def: MethodDef) => (def.spec.side === 'group' ? 'group' : 'community');
const tokenFor = (def: MethodDef) => (def.spec.side === 'public' ? undefined : sideOf(def) === 'group' ? leader : admin);
/** Methods whose call would end the caller's own session. */
const ENDS_SESSION = new Set(['logout', 'sessiondel']);

/** A raw HTTP exchange on a socket: sends the head and `first` bytes of the body, answers what comes back. */
async function rawPost(
  port: number,
  head: Record<string, string>,
  first: string,
): Promise<{ status: number; text: string; closed: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), text, closed, ms: performance.now() - started });
      socket.destroy();
    };
    socket.on('data', (d) => {
      text += d.toString();
      // the answer is in: wait briefly to see whether the server also ends the connection
      if (/\r\n\r\n/.test(text)) setTimeout(() => done(socket.readableEnded), 300);
    });
    socket.on('end', () => done(true));
    socket.on('error', (err) => (settled ? undefined : reject(err)));
    socket.on('connect', () => {
      const lines = Object.entries({ host: 'localhost', ...head }).map(([k, v]) => `${k}: ${v}`);
      socket.write(`POST /webapi HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${first}`);
    });
    setTimeout(() => done(false), 10_000);
  });
}

describe('3. unauthenticated bodies', () => {
  let port: number;
  beforeAll(async () => {
    await s.app.fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (s.app.fastify.server.address() as net.AddressInfo).port;
  });

  it('refuses a deeply nested body at once while signed-in users are served', async () => {
    const nested = '['.repeat(100_000) + ']'.repeat(100_000);
    const started = performance.now();
    const [deep, other] = await Promise.all([
      s.app.fastify.inject({ method: 'POST', url: '/webapi', headers: { 'content-type': 'application/json' }, payload: nested }),
      s.call('userinfo', {}, admin),
    ]);
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ return_code: RC.FAIL, return_msg: '请求格式错误：JSON 嵌套层级过深' });
    expect(other.return_code).toBe(RC.SUCCESS);
    expect(performance.now() - started).toBeLessThan(2000);
    // 64 levels are still a body, 65 are not
    const at = (n: number) => `{"method":"login","a":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    const post = (payload: string) =>
      s.app.fastify.inject({ method: 'POST', url: '/webapi', headers: { 'content-type': 'application/json' }, payload });
    expect((await post(at(64))).statusCode).toBe(200);
    expect((await post(at(65))).statusCode).toBe(400);
    // brackets inside strings are text, not depth
    expect((await post(`{"method":"login","username":"${'['.repeat(1000)}"}`)).statusCode).toBe(200);
  });

  it('refuses a 10 MB body without a session before reading it, and ends the connection', async () => {
    const res = await rawPost(port, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }, '[[[[[[[[');
    expect(res.status).toBe(413);
    expect(res.text).toContain('请求内容过大');
    expect(res.closed).toBe(true);
    // a body that says nothing of its length is cut off at the byte that crosses the limit
    const chunked = await rawPost(
      port,
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      `${(300 * 1024).toString(16)}\r\n${'x'.repeat(300 * 1024)}\r\n`,
    );
    expect(chunked.status).toBe(413);
  });

  it('gives the large limit only to an upload method named in X-Method by a session allowed to call it: walks the registry', async () => {
    const big = 'x'.repeat(300 * 1024);
    const post = (method: string, payload: Record<string, unknown>, headers: Record<string, string>) =>
      s.app.fastify.inject({ method: 'POST', url: '/webapi', headers, payload: { method, ...payload } });
    const wrong: string[] = [];
    // the parking attendant (停车 only) may call no upload
    const guard = await s.login('parking');
    for (const def of s.app.registry.all()) {
      const token = tokenFor(def);
      const url = sideOf(def) === 'group' ? '/webapi_leader' : '/webapi';
      const headers = { 'x-method': def.name, ...(token ? { 'x-token': token } : {}) };
      if (!s.app.registry.uploads.has(def.name)) {
        const res = await s.app.fastify.inject({ method: 'POST', url, headers, payload: { method: def.name, filler: big } });
        if (res.statusCode !== 413) wrong.push(`${def.name}: ${res.statusCode} for 300 KB`);
        continue;
      }
      const file = { filename: 'big.xlsx', file_base64: Buffer.alloc(1024 * 1024, 7).toString('base64') };
      const allowed = await post(def.name, file, headers);
      if (allowed.statusCode === 413 || allowed.statusCode >= 500) wrong.push(`${def.name}: ${allowed.statusCode} for its upload`);
      if ((await post(def.name, file, { 'x-token': admin })).statusCode !== 413) wrong.push(`${def.name}: large without X-Method`);
      if ((await post(def.name, file, { 'x-method': def.name })).statusCode !== 413) wrong.push(`${def.name}: large without a session`);
      if ((await post(def.name, file, { 'x-method': def.name, 'x-token': guard })).statusCode !== 413) {
        wrong.push(`${def.name}: large for a role that may not call it`);
      }
      const other = await post('roomlist', file, headers);
      if (other.json().return_msg !== '请求头 X-Method 与正文中的 method 不一致') wrong.push(`${def.name}: carried another method`);
    }
    expect(s.app.registry.uploads.size).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});

describe('3. callers without a session, by address', () => {
  let limited: TestServer;
  let port: number;
  beforeAll(async () => {
    // the per-address limit as it is by default
    limited = await startTestServer({ anonRatePerMinute: 120 });
    await limited.app.fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (limited.app.fastify.server.address() as net.AddressInfo).port;
  });
  afterAll(() => limited?.close());

  it('holds an address without a session to its rate before reading the body; signed-in calls go on', async () => {
    const token = await limited.login('admin');
    const answers = [];
    for (let i = 0; i < 140; i++) {
      const res = await limited.app.fastify.inject({
        method: 'POST',
        url: '/webapi',
        remoteAddress: '198.51.100.7',
        payload: { method: 'login' },
      });
      answers.push(res.statusCode);
    }
    const first = answers.indexOf(429);
    expect(first).toBeGreaterThanOrEqual(120);
    expect(answers.filter((c) => c === 429).length).toBeGreaterThanOrEqual(15);
    const signedIn = await limited.app.fastify.inject({
      method: 'POST',
      url: '/webapi',
      remoteAddress: '198.51.100.7',
      headers: { 'x-token': token },
      payload: { method: 'userinfo' },
    });
    expect(signedIn.statusCode).toBe(200);
    // another address is not held
    expect(
      (await limited.app.fastify.inject({ method: 'POST', url: '/webapi', remoteAddress: '198.51.100.8', payload: { method: 'login' } }))
        .statusCode,
    ).toBe(200);
    // over the rate, a large body is answered before it is sent (the socket's address: 127.0.0.1);
    // the bucket refills two calls a second, so the large body follows the first held call at once,
    // and a slow machine that let a call's allowance back in between tries again
    const small = () =>
      fetch(`http://127.0.0.1:${port}/webapi`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    let held = { status: 0, text: '' };
    for (let attempt = 0; attempt < 5 && held.status !== 429; attempt++) {
      for (let i = 0; i < 200 && (await small()).status !== 429; i++);
      held = await rawPost(port, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }, '{');
    }
    expect(held.status).toBe(429);
    expect(held.text).toMatch(/retry-after: \d+/i);
  });
});

/** What the merchant account may call (spec 2.3 and its role `card`): its own account, the shell, small lists its pages pick from. */
const MERCHANT_MAY = new Set([
  // its own account and sessions
  'userinfo',
  'sysuserinfo',
  'sysusereditpassword',
  'logout',
  'authcode',
  'sessionlist',
  'sessiondel',
  // the shell
  'get_system_info',
  'get_system_extendinfo',
  'get_file_set',
  'get_common_links',
  'get_resources_list',
  // the group's renamed labels, which every page shows (setup/dict_list)
  'dictlabels',
  'regionlist',
  'regionswitch',
  // the small lists of its role's pages (member cards, coupons)
  'merchant_auth_small_list',
  'access_device_small_list',
  'car_parking_small_list',
  // the card templates, read (setting them up takes cardset, which a merchant does not hold)
  'cardtemplatelist',
  'cardtemplate_small_list',
  'cardtemplateexport',
  // a member's coupon code checked at its counter: only coupons valid at its own store, never changed
  'cardverify',
  // the points mall, read (managing it and its orders takes cardmall, which a merchant does not hold)
  'shopmallinfo',
  'catelist',
  'cate_small_list',
  'goodslist',
  'goods_small_list',
  'goodsexport',
  // the community's structure as its pickers read it
  'regioninfo',
  'buildinglist',
  'building_small_list',
  'unitlist',
  'unit_small_list',
  'roomlist',
  'roominfo',
  'room_small_list',
  'roommap',
  'roomcatelist',
  'roomcate_small_list',
  // its own downloads and jobs (who may see which job: jobs/)
  'exportlist',
  'exportfile',
  'exportdel',
  'jobinfo',
  'joblist',
  'importloglist',
  'roomimporttemplate',
  'roomimporterrors',
  // its counter (会员收银): a member by code, the purchase, its own store's orders and their refunds
  'carduslookup',
  'cardconsumepreview',
  'cardconsume',
  'cardconsumelist',
  'cardconsumerefund',
  'orderinfo',
]);

describe('4. the merchant account', () => {
  it('may not mark to-dos done, read them or the collection figures, export every room or renew', async () => {
    const merchant = await s.login('merchant');
    for (const [method, payload] of [
      ['backlog_done', { id: 1 }],
      ['backlog_list', {}],
      ['feedashboard', {}],
      ['roomexport', {}],
      ['get_region_delay_pay', { years: 5 }],
      ['pay_query', { orderid: 'RD1', pay_type: '1' }],
      ['regiondelay_foractcode', { act_code: 'WY-X' }],
      ['boardcode', {}],
    ] as const) {
      expect((await s.call(method, payload, merchant)).return_code, method).toBe(RC.NO_PERMISSION);
    }
    const todo = await s.database.db
      .selectFrom('backlog')
      .select('status')
      .where('rid', '=', 1)
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('E');
  });

  it('reaches nothing beyond what its role needs: walks the registry', async () => {
    const merchant = await s.login('merchant');
    const reachable: string[] = [];
    for (const def of s.app.registry.all()) {
      if (def.spec.side === 'public' || def.spec.side === 'group' || ENDS_SESSION.has(def.name)) continue;
      const res = await s.call(def.name, {}, merchant);
      if (res.return_code !== RC.NO_PERMISSION) reachable.push(def.name);
    }
    expect(reachable.filter((m) => !MERCHANT_MAY.has(m))).toEqual([]);
  });
});

describe('11. control characters and loose ids', () => {
  it('refuses a NUL or another control character in any field of any method with a clear message: walks the registry', async () => {
    const wrong: string[] = [];
    for (const def of s.app.registry.all()) {
      for (const field of [...schemaFields(def.schema), 'extra_field']) {
        for (const bad of ['a\u0000b', 'x\u001by']) {
          const res = await s.call(def.name, { [field]: bad }, tokenFor(def), sideOf(def));
          if (res.return_code !== RC.FAIL || !res.return_msg.includes(CONTROL_CHARS_MSG)) {
            wrong.push(`${def.name}.${field}: ${res.return_code} ${res.return_msg}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // the forms say the same, from the contract's text helper
    expect(text(20).safeParse('a\u0000b').error?.issues[0]?.message).toBe(CONTROL_CHARS_MSG);
    expect(text(20).safeParse('一行\n另一行\t制表').success).toBe(true);
  });

  it('takes ids strictly: true and [1] are not id 1: walks the registry', async () => {
    for (const v of [true, [1], '1e0', ' ', {}]) expect(idSchema.safeParse(v).success, JSON.stringify(v)).toBe(false);
    expect(idSchema.safeParse('12').data).toBe(12);
    const wrong: string[] = [];
    for (const def of s.app.registry.all()) {
      if (!schemaFields(def.schema).includes('id')) continue;
      for (const loose of [true, [1]]) {
        const parsed = def.schema.safeParse({ id: loose });
        if (parsed.success || !parsed.error.issues.some((i) => i.path[0] === 'id'))
          wrong.push(`${def.name} took id ${JSON.stringify(loose)}`);
      }
    }
    expect(wrong).toEqual([]);
    // the attack: to-do 1 marked done with id: true
    expect((await s.call('backlog_done', { id: true }, admin)).return_msg).toMatch(/^id/);
    expect((await s.call('backlog_done', { id: [1] }, admin)).return_code).toBe(RC.FAIL);
    const todo = await s.database.db
      .selectFrom('backlog')
      .select('status')
      .where('rid', '=', 1)
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(todo.status).toBe('E');
  });
});

describe('12. discounts, amounts and periods', () => {
  async function unpaidRooms(n: number) {
    const rows = await s.database.db
      .selectFrom('fee_bills')
      .select('hid')
      .where('rid', '=', 1)
      .where('status', '<>', 'Y')
      .where('space_id', '=', 0)
      .groupBy('hid')
      .orderBy('hid')
      .limit(n)
      .execute();
    return rows.map((r) => r.hid);
  }
  const payWithDiscount = async (hid: number, percent: bigint, token: string, key: string) => {
    const bills = (await s.call('cashierbills', { hid }, token)).data.items as Array<{ id: number; total: string }>;
    const total = bills.reduce((sum, b) => sum + toFen(b.total), 0n);
    const discount = (total * percent) / 100n;
    return s.call(
      'cashierpay',
      {
        hid,
        bill_ids: bills.map((b) => b.id),
        pay_type: 'cash',
        discount: fenToYuan(discount),
        paid_amount: fenToYuan(total - discount),
        idempotency_key: key,
      },
      token,
    );
  };

  it('keeps a cashier within the cap (20 % by default); above it only a manager may discount', async () => {
    const cashier = await s.login('cashier');
    expect((await s.call('feesettinginfo', {}, cashier)).data.max_discount_percent).toBe(20);
    const [a, b, c] = await unpaidRooms(3);
    const zero = await payWithDiscount(a!, 100n, cashier, 'discount-attack-1');
    expect(zero).toMatchObject({
      return_code: RC.FAIL,
      return_msg: expect.stringMatching(/^优惠超过本小区收银员上限.*20%.*须由管理员或收费主管/),
    });
    expect((await payWithDiscount(a!, 21n, cashier, 'discount-attack-2')).return_code).toBe(RC.FAIL);
    expect((await payWithDiscount(b!, 20n, cashier, 'discount-ok-1')).return_code).toBe(RC.SUCCESS);
    expect((await payWithDiscount(c!, 60n, admin, 'discount-manager-1')).return_code).toBe(RC.SUCCESS);
    // the cap is the fee settings' to lower or raise
    expect((await s.call('feesettingedit', { max_discount_percent: 5 }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('feesettinginfo', {}, cashier)).data.max_discount_percent).toBe(5);
    await s.call('feesettingedit', {}, admin);
  });

  it('refuses an amount no bill could be paid with and periods no one bills: walks the registry', async () => {
    const bill = await s.database.db
      .selectFrom('fee_bills')
      .select(['id', 'fee'])
      .where('rid', '=', 1)
      .where('status', '<>', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const huge = await s.call('feeedit', { id: bill.id, fee: '999999999999.99', reason: '测试' }, admin);
    expect(huge).toMatchObject({ return_code: RC.FAIL, return_msg: expect.stringMatching(/金额不能超过 10000000\.00 元/) });
    const after = await s.database.db.selectFrom('fee_bills').select('fee').where('id', '=', bill.id).executeTakeFirstOrThrow();
    expect(after.fee).toBe(bill.fee);
    const wrong: string[] = [];
    for (const def of s.app.registry.all()) {
      for (const field of schemaFields(def.schema).filter((f) => /period/.test(f))) {
        for (const p of ['9999-12', '1900-01', '0000-01']) {
          const parsed = def.schema.safeParse({ [field]: p });
          if (parsed.success || !parsed.error.issues.some((i) => i.path[0] === field)) wrong.push(`${def.name}.${field} took ${p}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    const item = await s.database.db.selectFrom('fee_items').select('id').where('rid', '=', 1).executeTakeFirstOrThrow();
    for (const period of ['9999-12', '1900-01']) {
      expect((await s.call('feebillgenerate', { period, item_ids: [item.id] }, admin)).return_msg).toMatch(/账期格式不正确/);
    }
  });
});

describe('15. answers kept by caches', () => {
  it('sends every /webapi answer with Cache-Control: no-store, refusals too: walks the registry', async () => {
    const wrong: string[] = [];
    for (const def of s.app.registry.all()) {
      if (ENDS_SESSION.has(def.name)) continue;
      const token = tokenFor(def);
      const res = await s.app.fastify.inject({
        method: 'POST',
        url: sideOf(def) === 'group' ? '/webapi_leader' : '/webapi',
        headers: { 'x-method': def.name, ...(token ? { 'x-token': token } : {}) },
        payload: { method: def.name },
      });
      if (res.headers['cache-control'] !== 'no-store') wrong.push(`${def.name}: ${String(res.headers['cache-control'])}`);
    }
    for (const payload of ['{"method":', '['.repeat(100) + ']'.repeat(100)]) {
      const res = await s.app.fastify.inject({ method: 'POST', url: '/webapi', headers: { 'content-type': 'application/json' }, payload });
      if (res.headers['cache-control'] !== 'no-store') wrong.push(`refusal ${res.statusCode}: ${String(res.headers['cache-control'])}`);
    }
    expect(wrong).toEqual([]);
  });
});
