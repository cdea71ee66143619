import { fenToYuan, RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../db/seed.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { prepareProcessDatabase, spawnServer, type ProcessDatabase, type ServerProcess } from '../test/process.js';

/**
 * Every write leaves exactly one audit row naming the method, the user and the community (a
 * sample from each area), and no password ever reaches an answer, an audit row or a log line
 * (the real server's pino output, captured from a child process at the most verbose level).
 */

describe('audit log', () => {
  let s: TestServer;
  let admin: string;
  let cashier: string;
  beforeAll(async () => {
    s = await startTestServer();
    [admin, cashier] = await Promise.all([s.login('admin'), s.login('cashier')]);
  });
  afterAll(() => s?.close());

  const auditCount = async () =>
    (
      await s.database.db
        .selectFrom('audit_log')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  /** Makes one successful write and answers its data, checking the one audit row it left. */
  async function audited(method: string, payload: Record<string, unknown>, token: string, username: string) {
    const before = await auditCount();
    const lastId = (
      await s.database.db
        .selectFrom('audit_log')
        .select(sql<number>`coalesce(max(id), 0)::int`.as('id'))
        .executeTakeFirstOrThrow()
    ).id;
    const res = await s.call(method, payload, token);
    expect(res.return_code, `${method}: ${res.return_msg}`).toBe(RC.SUCCESS);
    expect(await auditCount(), `${method} leaves one audit row`).toBe(before + 1);
    const row = await s.database.db.selectFrom('audit_log').selectAll().where('id', '>', lastId).executeTakeFirstOrThrow();
    expect(row, method).toMatchObject({ method, username, rid: 1, side: 'community', outcome: RC.SUCCESS });
    expect(row.account_id, method).toBeGreaterThan(0);
    return res.data;
  }

  it('structure, owners and fees writes each leave exactly one row with method, user and community', async () => {
    const db = s.database.db;
    // structure
    const building = await audited('buildingadd', { title: '审计楼', floors: 3 }, admin, 'admin');
    const unit = await audited('unitadd', { bid: building.id, title: '1单元' }, admin, 'admin');
    const room = await audited('roomadd', { bid: building.id, tid: unit.id, title: '101', built_area: '88.20' }, admin, 'admin');
    await audited('roomedit', { id: room.id, bid: building.id, tid: unit.id, title: '102', built_area: '88.20' }, admin, 'admin');
    // owners
    await audited(
      'memberadd',
      { realname: '审计业主', mobile: '13655550001', rooms: [{ hid: room.id, relation: 'owner' }] },
      admin,
      'admin',
    );
    await audited('caradd', { hid: room.id, carlicense: '沪C55501' }, admin, 'admin');
    // fees
    const item = await db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('pricing', '=', 'area_built')
      .executeTakeFirstOrThrow();
    await audited('bindfeeadd', { item_id: item.id, scope: 'room', ref_ids: [room.id] }, admin, 'admin');
    const unpaid = await db
      .selectFrom('fee_bills')
      .select('hid')
      .where('rid', '=', 1)
      .where('status', '<>', 'Y')
      .orderBy('hid')
      .executeTakeFirstOrThrow();
    const bills = (await s.call('cashierbills', { hid: unpaid.hid }, cashier)).data.items as Array<{ id: number; total: string }>;
    await audited('feebillcheck', { ids: [bills[0]!.id], is_check: 'Y' }, admin, 'admin');
    await audited(
      'cashierpay',
      {
        hid: unpaid.hid,
        bill_ids: bills.map((b) => b.id),
        pay_type: 'cash',
        idempotency_key: 'audit-sample-1',
        paid_amount: fenToYuan(bills.reduce((sum, b) => sum + toFen(b.total), 0n)),
      },
      cashier,
      'cashier',
    );
    // account: the password is not in the row
    await audited(
      'sysusereditpassword',
      { username: 'cashier', oldpassword: DEMO_PASSWORD, password: 'Audit#Secret-31', password2: 'Audit#Secret-31' },
      cashier,
      'cashier',
    );
    const leaked = await db
      .selectFrom('audit_log')
      .select('method')
      .where(
        sql<boolean>`payload::text LIKE '%Audit#Secret-31%' OR message LIKE '%Audit#Secret-31%' OR payload::text LIKE ${'%' + DEMO_PASSWORD + '%'}`,
      )
      .execute();
    expect(leaked).toEqual([]);
  });

  it('sets the security headers on every kind of answer: API, errors, the console page, the catalogue', async () => {
    const f = s.app.fastify;
    const answers = {
      'a call': await f.inject({ method: 'POST', url: '/webapi', headers: { 'x-token': admin }, payload: { method: 'userinfo' } }),
      'no token': await f.inject({ method: 'POST', url: '/webapi', payload: { method: 'userinfo' } }),
      'bad JSON': await f.inject({
        method: 'POST',
        url: '/webapi',
        headers: { 'content-type': 'application/json' },
        payload: '{"method":',
      }),
      'too large': await f.inject({
        method: 'POST',
        url: '/webapi',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ method: 'login', username: 'x'.repeat(s.config.bodyLimitBytes) }),
      }),
      'group side': await f.inject({ method: 'POST', url: '/webapi_leader', payload: { method: 'userinfo' } }),
      'console page': await f.inject({ method: 'GET', url: '/basismembers/index' }),
      catalogue: await f.inject({ method: 'GET', url: '/api-docs' }),
      health: await f.inject({ method: 'GET', url: '/healthz' }),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.statusCode, what).toBeLessThan(500);
      expect(res.headers['x-content-type-options'], what).toBe('nosniff');
      expect(res.headers['x-frame-options'], what).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], what).toBe('same-origin');
      expect(String(res.headers['content-security-policy']), what).toMatch(
        /script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';.*frame-ancestors 'self'/,
      );
    }
    expect(answers['too large'].statusCode).toBe(413);
  });

  it('a refused write leaves one row with its outcome and changes nothing', async () => {
    const before = await auditCount();
    const res = await s.call('buildingadd', { title: '审计楼' }, admin);
    expect(res.return_code).toBe(RC.FAIL);
    expect(await auditCount()).toBe(before + 1);
    const row = await s.database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ method: 'buildingadd', username: 'admin', rid: 1, outcome: RC.FAIL, message: res.return_msg });
  });
});

describe('passwords in the running server', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess | undefined;
  // an empty database: the server migrates and seeds the demo itself, as on a first `npm start`
  beforeAll(async () => {
    pdb = await prepareProcessDatabase({ seed: false });
  });
  afterAll(async () => {
    await server?.kill();
    await pdb?.dispose();
  });

  it('never appear in answers, audit rows or log lines', async () => {
    // every request logged, at the most verbose level
    // it migrates and seeds the whole demo at the trace level first: up to a minute on a quiet CI machine
    server = await spawnServer(pdb, { LOG_LEVEL: 'trace', LOG_REQUESTS: '1', SEED_DEMO: '1' }, { startMs: 240_000 });
    const secrets = [
      'Wr0ng#Secret-7',
      'Gh0st#Secret-8',
      'Mism#Secret-A1',
      'Mism#Secret-B2',
      'N3w#Secret-2026',
      'Br0ken#Secret-9',
      'Old#Secret-55',
    ];
    const answers: unknown[] = [];
    const call = async (method: string, payload: Record<string, unknown>, token?: string) => {
      const res = await server!.call(method, payload, token);
      answers.push(res);
      return res;
    };
    expect((await call('login', { username: 'admin2', password: 'Wr0ng#Secret-7' })).return_code).toBe(RC.FAIL);
    expect((await call('login', { username: 'ghost', password: 'Gh0st#Secret-8' })).return_code).toBe(RC.FAIL);
    const token = (await call('login', { username: 'cashier2', password: DEMO_PASSWORD })).data.token as string;
    for (const m of ['userinfo', 'sysuserinfo']) await call(m, {}, token);
    expect(
      (
        await call(
          'sysusereditpassword',
          { username: 'cashier2', oldpassword: DEMO_PASSWORD, password: 'Mism#Secret-A1', password2: 'Mism#Secret-B2' },
          token,
        )
      ).return_code,
    ).toBe(RC.FAIL);
    const change = { username: 'cashier2', password: 'N3w#Secret-2026', password2: 'N3w#Secret-2026' };
    expect((await call('sysusereditpassword', { ...change, oldpassword: 'Old#Secret-55' }, token)).return_code).toBe(RC.FAIL);
    expect((await call('sysusereditpassword', { ...change, oldpassword: DEMO_PASSWORD }, token)).return_code).toBe(RC.SUCCESS);
    const fresh = (await call('login', { username: 'cashier2', password: 'N3w#Secret-2026' })).data.token as string;
    await call('sysuserinfo', {}, fresh);
    // a broken body carrying a password
    const broken = await fetch(`${server.url}/webapi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"method":"login","username":"admin","password":"Br0ken#Secret-9"',
    });
    expect(broken.status).toBeLessThan(500);
    const proc = server;
    await proc.stop();
    server = undefined;

    const output = proc.output();
    const logLines = output.split('\n').filter((l) => l.startsWith('{'));
    // the test sees the request log (it can fail)
    expect(logLines.filter((l) => l.includes('"url":"/webapi"')).length).toBeGreaterThanOrEqual(10);
    // (a token is answered by login, by design, but never logged)
    for (const secret of [...secrets, token, fresh]) expect(output.includes(secret), `output holds ${secret.slice(0, 12)}`).toBe(false);
    for (const secret of secrets) expect(JSON.stringify(answers).includes(secret), `an answer holds ${secret}`).toBe(false);
    expect(logLines.filter((l) => l.includes(DEMO_PASSWORD) || l.includes('scrypt$'))).toEqual([]);
    expect(JSON.stringify(answers)).not.toMatch(/scrypt|password_hash/);
    await pdb.with(async (db) => {
      const rows = await db.selectFrom('audit_log').select(['method', 'payload', 'message']).execute();
      expect(rows.length).toBeGreaterThanOrEqual(5);
      const text = JSON.stringify(rows);
      for (const secret of [...secrets, DEMO_PASSWORD]) expect(text.includes(secret), `audit holds ${secret}`).toBe(false);
    });
  }, 300_000);
});
