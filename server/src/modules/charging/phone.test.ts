import { RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatSimulators, deviceHeartbeat, runDeviceQueue, setSimulatorAckDelay } from '../../devices/access.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { memberWithBalance } from './testMembers.js';
import { advancePiles } from './sim.js';

/** 扫码充电 (docs/product.md#charging-piles): the owner's phone at a pile, from the SMS code to the settlement. */
let s: TestServer;
let admin: string;
let seq = 0;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const MIN = 60_000;
const HOUR = 60 * MIN;
const FLAT = [{ start: '00:00', end: '24:00', tier: 'flat', price: '1.00' }];

beforeAll(async () => {
  setSimulatorAckDelay(0);
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s?.close());

/** A car pile of community 1, online: its code and its ports' ids. */
async function addPile() {
  const code = `PH${Date.now() % 100000}${++seq}`;
  const res = await s.call(
    'chargeradd',
    { title: `扫码测试桩${seq}`, code, kind: 'car', ports: 2, power_kw: '7.00', tou: FLAT, service_fee: '0.40', bands: [] },
    admin,
  );
  ok(res);
  await deviceHeartbeat(s.database.db, 1, code, new Date(), 'pile');
  const ports = await s.call('chargerportlist', { charger_id: res.data.id }, admin);
  return { id: res.data.id as number, code, ports: (ports.data.items as Array<{ id: number }>).map((p) => p.id) };
}

/** A member of community 1 (its mobile) with `yuan` added to the balance. */
const member = (index: number, yuan = '100.00') => memberWithBalance(s.database.db, 60 + index, yuan);

/** The code the sandbox sent: read from its page, as a tester does. */
async function sandboxCode(url: string): Promise<string> {
  const page = await s.app.fastify.inject({ method: 'GET', url });
  expect(page.statusCode).toBe(200);
  const code = /data-testid="sandbox-sms-code">(\d{6})</.exec(page.body)?.[1];
  expect(code).toBeDefined();
  return code!;
}

/** A charge session for the member's mobile at the pile. */
async function phoneLogin(code: string, mobile: string): Promise<string> {
  const sent = await s.call('chargephonecode', { rid: 1, charger_code: code, mobile });
  ok(sent);
  const login = await s.call('chargephonelogin', { rid: 1, mobile, code: await sandboxCode(sent.data.sandbox_url) });
  ok(login);
  return login.data.token as string;
}

describe('扫码充电: the SMS code', () => {
  it('sends a code through the SMS sandbox, shows it on the sandbox page, refuses a resend within a minute and a wrong code, and trades the right one once', async () => {
    const pile = await addPile();
    // the pile's QR code carries the phone page's address
    const info = await s.call('chargerinfo', { id: pile.id }, admin);
    expect(info.data.qr_url).toBe(`/h5/charge?rid=1&code=${pile.code}`);
    const m = await member(0);
    const sent = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile });
    ok(sent);
    expect(sent.data).toMatchObject({ expires_in: 300, resend_in: 60, charger_title: expect.stringContaining('扫码测试桩') });
    expect(sent.data.sandbox_url).toMatch(/^\/sandbox-sms\/charge-[0-9a-f]{32}$/);
    // the sandbox kept the message: the code and the text
    const out = await s.database.db
      .selectFrom('sms_sandbox_outbox')
      .select(['mobile', 'content', 'template_code'])
      .where('out_id', '=', String(sent.data.sandbox_url).split('/').pop()!)
      .executeTakeFirstOrThrow();
    const code = await sandboxCode(sent.data.sandbox_url);
    expect(out).toMatchObject({ mobile: m.mobile, template_code: 'CHARGE_CODE' });
    expect(out.content).toContain(`您的充电验证码为 ${code}`);
    // only a hash of the code is kept
    const row = await s.database.db
      .selectFrom('charge_sms_codes')
      .select('code_hash')
      .where('mobile', '=', m.mobile)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).not.toContain(code);
    // one code a minute
    const again = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile });
    expect(again.return_code).toBe(RC.FAIL);
    expect(again.return_msg).toMatch(/^验证码已发送，请 \d+ 秒后再试$/);
    // a wrong code is refused and counted
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code: wrong });
    expect(refused).toMatchObject({ return_code: RC.FAIL, return_msg: '验证码不正确，还可再试 4 次' });
    expect((await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code: '12a' })).return_msg).toContain('请输入 6 位数字验证码');
    const login = await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code });
    ok(login);
    expect(login.data.token).toMatch(/^[0-9a-f]{64}$/);
    // a charge session of the member: not sliding, 12 hours
    const session = await s.database.db
      .selectFrom('sessions')
      .select(['kind', 'member_id', 'account_id', 'rid', sql<number>`extract(epoch from max_expires_at - created_at)::int`.as('life')])
      .where('member_id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ kind: 'charge', member_id: m.id, account_id: null, rid: 1, life: 12 * 3600 });
    // used once
    expect((await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code })).return_msg).toBe('请先获取短信验证码');
    // the audit keeps no code
    const audit = await s.database.db
      .selectFrom('audit_log')
      .select('payload')
      .where('method', '=', 'chargephonelogin')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.payload)).not.toContain(code);
  });

  it('refuses an expired code, and a code after five wrong tries', async () => {
    const pile = await addPile();
    const m = await member(1);
    const sent = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile });
    ok(sent);
    const code = await sandboxCode(sent.data.sandbox_url);
    await s.database.db
      .updateTable('charge_sms_codes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('mobile', '=', m.mobile)
      .execute();
    expect(await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code })).toMatchObject({
      return_code: RC.FAIL,
      return_msg: '验证码已过期，请重新获取',
    });
    // a new code (the minute has passed), tried wrong five times: void even for the right code
    await s.database.db
      .updateTable('charge_sms_codes')
      .set({ created_at: sql<Date>`now() - interval '2 minutes'` })
      .where('mobile', '=', m.mobile)
      .execute();
    const next = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile });
    ok(next);
    const right = await sandboxCode(next.data.sandbox_url);
    const wrong = right === '000000' ? '111111' : '000000';
    const msgs: string[] = [];
    for (let i = 0; i < 5; i++) msgs.push((await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code: wrong })).return_msg);
    expect(msgs).toEqual([
      '验证码不正确，还可再试 4 次',
      '验证码不正确，还可再试 3 次',
      '验证码不正确，还可再试 2 次',
      '验证码不正确，还可再试 1 次',
      '验证码错误次数过多，请重新获取',
    ]);
    expect((await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code: right })).return_msg).toBe('验证码错误次数过多，请重新获取');
  });

  it('refuses a mobile that is no member of the community, another community, and a pile that is not there', async () => {
    const pile = await addPile();
    const db = s.database.db;
    const taken = new Set((await db.selectFrom('members').select('mobile').execute()).map((r) => r.mobile));
    let stranger = 13_900_000_000;
    while (taken.has(String(stranger))) stranger++;
    const refused = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: String(stranger) });
    expect(refused).toMatchObject({ return_code: RC.FAIL, return_msg: '该手机号不是本小区登记的业主或会员，请联系物业登记后再扫码充电' });
    // a member of community 2 only
    const ones = new Set((await db.selectFrom('members').select('mobile').where('rid', '=', 1).execute()).map((r) => r.mobile));
    const other = (await db.selectFrom('members').select('mobile').where('rid', '=', 2).execute()).find((r) => !ones.has(r.mobile));
    expect(other).toBeDefined();
    expect((await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: other!.mobile })).return_msg).toContain(
      '不是本小区登记的业主或会员',
    );
    expect((await s.call('chargephonecode', { rid: 2, charger_code: pile.code, mobile: other!.mobile })).return_msg).toBe(
      '充电桩不存在，请重新扫描充电桩上的二维码',
    );
    expect((await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: '12345' })).return_msg).toContain(
      '请输入正确的手机号',
    );
    // nothing was sent
    expect(
      await db
        .selectFrom('charge_sms_codes')
        .select('id')
        .where('mobile', 'in', [String(stranger), other!.mobile])
        .execute(),
    ).toEqual([]);
  });
});

describe('扫码充电: sending the code', () => {
  it('withdraws the code of a message the provider refused, keeps the refusal on record, and lets another be asked for at once', async () => {
    const pile = await addPile();
    const db = s.database.db;
    const m = await member(6);
    const audits = async () =>
      (await db.selectFrom('audit_log').select(['outcome', 'message']).where('method', '=', 'chargephonecode').orderBy('id').execute()).map(
        (r) => `${r.outcome} ${r.message}`,
      );
    const before = (await audits()).length;
    // the sandbox refuses mobiles ending in this digit, as a provider's number limit would
    await db
      .insertInto('sms_settings')
      .values({ rid: 1, provider: 'sandbox', sandbox_fail_suffix: m.mobile.slice(-1) })
      .onConflict((oc) => oc.column('rid').doUpdateSet({ sandbox_fail_suffix: m.mobile.slice(-1) }))
      .execute();
    try {
      const refused = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile });
      expect(refused).toMatchObject({ return_code: RC.FAIL, return_msg: '验证码发送失败：沙箱：该尾号按设置模拟发送失败（触发号码频控）' });
      expect(await db.selectFrom('charge_sms_codes').select('id').where('mobile', '=', m.mobile).execute()).toEqual([]);
      expect((await audits()).slice(before)).toEqual(['FAIL 验证码发送失败：沙箱：该尾号按设置模拟发送失败（触发号码频控）']);
    } finally {
      await db.updateTable('sms_settings').set({ sandbox_fail_suffix: '' }).where('rid', '=', 1).execute();
    }
    // no wait for a message never sent
    const sent = await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile });
    ok(sent);
    const kept = await db.selectFrom('charge_sms_codes').select('out_id').where('mobile', '=', m.mobile).execute();
    expect(kept.map((r) => `/sandbox-sms/${r.out_id}`)).toEqual([sent.data.sandbox_url]);
    expect((await audits()).slice(before + 1)).toEqual(['SUCCESS 验证码已发送，请查看短信']);
    // a refusal before any message is on record too
    expect((await s.call('chargephonecode', { rid: 1, charger_code: pile.code, mobile: m.mobile })).return_msg).toMatch(
      /^验证码已发送，请 \d+ 秒后再试$/,
    );
    expect((await audits()).slice(before + 2)).toEqual([expect.stringMatching(/^FAIL 验证码已发送，请 \d+ 秒后再试$/)]);
    ok(await s.call('chargephonelogin', { rid: 1, mobile: m.mobile, code: await sandboxCode(sent.data.sandbox_url) }));
  });
});

describe('扫码充电: the charge session', () => {
  it('may call the phone methods only; a console session may not act as an owner', async () => {
    const pile = await addPile();
    const m = await member(2);
    const phone = await phoneLogin(pile.code, m.mobile);
    ok(await s.call('chargephoneinfo', { charger_code: pile.code }, phone));
    const wrong: string[] = [];
    for (const def of s.app.registry.all()) {
      if (def.spec.side === 'public' || def.spec.side === 'group' || def.spec.chargePhone) continue;
      const res = await s.call(def.name, {}, phone);
      if (res.return_code !== RC.NO_PERMISSION) wrong.push(`${def.name}: ${res.return_code} ${res.return_msg}`);
    }
    expect(wrong).toEqual([]);
    expect((await s.call('chargeorderlist', {}, phone)).return_msg).toBe('扫码充电的会话只能用于手机充电');
    // the console's own session is no owner's
    expect(await s.call('chargephoneinfo', { charger_code: pile.code }, admin)).toMatchObject({
      return_code: RC.FAIL,
      return_msg: '请用手机扫描充电桩上的二维码，验证手机号后再使用',
    });
    // an expired charge session answers 50014
    await s.database.db
      .updateTable('sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('member_id', '=', m.id)
      .execute();
    s.app.services.sessions.clear();
    expect((await s.call('chargephoneinfo', { charger_code: pile.code }, phone)).return_code).toBe(RC.TOKEN_EXPIRED);
  });

  it('starts a session from the phone with the prepayment held from the balance, follows it, stops it and shows the settlement', async () => {
    const pile = await addPile();
    const m = await member(3, '50.00');
    const phone = await phoneLogin(pile.code, m.mobile);
    const info = await s.call('chargephoneinfo', { charger_code: pile.code }, phone);
    ok(info);
    const balance = toFen(info.data.member.balance as string);
    expect(info.data.charger).toMatchObject({ code: pile.code, kind: 'car', online: 'Y', service_fee: '0.40' });
    expect(info.data.charger.price_text).toContain('服务费 0.40 元/kWh');
    expect(info.data.ports.map((p: { state: string }) => p.state)).toEqual(['free', 'free']);
    expect(info.data.member.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
    expect(info.data.live).toEqual([]);
    // more than the balance holds is refused in the spec's words
    const short = await s.call(
      'chargephonestart',
      { charger_code: pile.code, port_id: pile.ports[0], mode: 'amount', value: '99999.00' },
      phone,
    );
    expect(short.return_msg).toMatch(/^业主余额不足：本次需预付 99999.00 元/);
    const start = await s.call('chargephonestart', { charger_code: pile.code, port_id: pile.ports[0], mode: 'hours', value: '3' }, phone);
    ok(start);
    expect(start.data.prepaid).toBe('29.40'); // 3 h × 7 kW × 1.40
    const id = start.data.id as number;
    const t0 = new Date();
    await beatSimulators(s.database.db, t0);
    await runDeviceQueue(s.database.db, t0);
    await runDeviceQueue(s.database.db, t0);
    const running = await s.call('chargephoneorder', { id }, phone);
    ok(running);
    expect(running.data).toMatchObject({ state: 'charging', prepaid: '29.40', refund: '' });
    expect(toFen(running.data.balance as string)).toBe(balance - 2940n);
    // an hour on: 7 kWh so far, ¥9.80 so far
    await advancePiles(s.database.db, new Date(t0.getTime() + HOUR));
    const hour = await s.call('chargephoneorder', { id }, phone);
    expect(hour.data).toMatchObject({ state: 'charging', energy_kwh: '7.000', amount: '9.80' });
    expect((await s.call('chargephoneinfo', { charger_code: pile.code }, phone)).data.live).toEqual([expect.objectContaining({ id })]);
    // stopped from the phone: the pile's final value settles it, 手机停止, the rest back to the balance
    const stop = await s.call('chargephonestop', { id }, phone);
    ok(stop);
    expect((await s.call('chargephonestop', { id }, phone)).return_msg).toBe('已下发停止指令，等待充电桩应答');
    const t1 = new Date(t0.getTime() + HOUR + 2 * MIN);
    await beatSimulators(s.database.db, t1);
    await runDeviceQueue(s.database.db, t1);
    await runDeviceQueue(s.database.db, t1);
    const settled = await s.call('chargephoneorder', { id }, phone);
    ok(settled);
    expect(settled.data).toMatchObject({ state: 'done', state_ch: '已完成', end_reason_ch: '手机停止' });
    const amount = toFen(settled.data.amount as string);
    expect(amount).toBeGreaterThanOrEqual(980n);
    expect(toFen(settled.data.refund as string)).toBe(2940n - amount);
    expect(toFen(settled.data.balance as string)).toBe(balance - amount);
    // the console sees the same session settled the same way
    const detail = await s.call('chargeorderinfo', { id }, admin);
    expect(detail.data).toMatchObject({ end_reason: 'phone', amount: settled.data.amount, refund: settled.data.refund, member_id: m.id });
  });

  it("keeps an owner to their own sessions: another member's session is not there", async () => {
    const pile = await addPile();
    const a = await member(4);
    const b = await member(5);
    const phoneA = await phoneLogin(pile.code, a.mobile);
    const phoneB = await phoneLogin(pile.code, b.mobile);
    const start = await s.call('chargephonestart', { charger_code: pile.code, port_id: pile.ports[1], mode: 'hours', value: '1' }, phoneA);
    ok(start);
    expect((await s.call('chargephoneorder', { id: start.data.id }, phoneB)).return_msg).toBe('充电订单不存在');
    expect((await s.call('chargephonestop', { id: start.data.id }, phoneB)).return_msg).toBe('充电订单不存在');
    // a port in use is refused to the other owner
    expect(
      (await s.call('chargephonestart', { charger_code: pile.code, port_id: pile.ports[1], mode: 'hours', value: '1' }, phoneB)).return_msg,
    ).toBe('该插座正在使用中');
  });
});
