import { RC, SMS_QUOTA_EMPTY, smsSegments } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceHeartbeat } from '../../devices/access.js';
import { enqueueJob } from '../../jobs/queue.js';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { memberWithBalance } from '../charging/testMembers.js';
import { METER_ALERT_JOB } from '../meters/core.js';
import { smsProviderFor, type SmsProvider } from '../setup/smsProvider.js';
import { quotaProvider } from './smsQuota.js';
import { DEMO_SMS_QUOTA } from './smsQuotaSeed.js';

/** 短信额度 (issue 45 "Group settings"): the group's SMS quota package, its ledger, and every send paying from it. */
let s: TestServer;
let leader: string;
let admin: string;
let noFlag: string;
let outsider: string;
let otherRid: number;
const db = () => s.database.db;
const group = (method: string, payload: Record<string, unknown> = {}, token = leader) => s.call(method, payload, token, 'group');
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(a.return_code).toBe(RC.FAIL);
  if (typeof msg === 'string') expect(a.return_msg).toBe(msg);
  else expect(a.return_msg).toMatch(msg);
};
const balance = async () =>
  (await db().selectFrom('sms_quotas').select('balance').where('group_id', '=', 1).executeTakeFirstOrThrow()).balance;
const ledgerCount = async () =>
  Number((await db().selectFrom('sms_quota_ledger').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
/** Sets the demo group's balance through the group's own method. */
async function setBalance(n: number) {
  const diff = n - (await balance());
  if (diff !== 0) ok(await group('smsquotaadjust', { count: diff, note: '测试：设定余量' }));
}

async function withFlags(username: string, permissions: string[], groupId = 1) {
  const id = await s.addAccount(username, { roles: ['leader_admin'], sysType: 'leader', groupId, regions: [] });
  await db().updateTable('accounts').set({ permissions }).where('id', '=', id).execute();
  return s.login(username);
}

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin] = [await s.login('leader'), await s.login('admin')];
  noFlag = await withFlags('quota_no_flag', []);
  const other = await db().insertInto('groups').values({ title: '另一家物业' }).returning('id').executeTakeFirstOrThrow();
  outsider = await withFlags('quota_leader2', ['is_smsset_auth'], other.id);
  const r = await db()
    .insertInto('regions')
    .values({ group_id: other.id, title: '别家小区', sub_title: '别家小区', end_time: new Date(Date.now() + 365 * 864e5) } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  otherRid = r.id;
});
afterAll(() => s?.close());

describe('smsquota: the package and its ledger', () => {
  it('the demo group has a package: 5,000 topped up, the demo jobs sent from it, the sandbox refusals given back', async () => {
    const info = ok(await group('smsquotainfo'));
    expect(info.enabled).toBe(true);
    expect(info.low_threshold).toBe(500);
    const sends = ok(await group('smsquotaledger', { kind: 'send', limit: 200 }));
    const refunds = ok(await group('smsquotaledger', { kind: 'refund', limit: 200 }));
    expect(sends.total).toBeGreaterThan(0);
    expect(refunds.total).toBeGreaterThan(0);
    const net = await db()
      .selectFrom('sms_quota_ledger')
      .select(sql<number>`sum(count)::int`.as('n'))
      .where('group_id', '=', 1)
      .where('kind', 'in', ['send', 'refund'])
      .executeTakeFirstOrThrow();
    expect(net.n).toBeLessThan(0);
    expect(info.balance).toBe(DEMO_SMS_QUOTA + net.n);
    expect(sends.items[0]).toMatchObject({ kind_ch: '发送', purpose: 'sms_job', purpose_ch: '短信任务', creator: '系统' });
    expect(sends.items[0].ref_id).toBeGreaterThan(0);
    const topup = ok(await group('smsquotaledger', { kind: 'topup' }));
    expect(topup.items.at(-1)).toMatchObject({ count: DEMO_SMS_QUOTA, kind_ch: '充值' });
    expect(info.regions.map((r: any) => r.title)).toEqual(expect.arrayContaining(['阳光花园', '翠湖苑']));
  });

  it('tops up, adjusts (never below 0, a reason required), sets the threshold; each change a ledger row with the balance after', async () => {
    const before = await balance();
    const top = await group('smsquotatopup', { count: 1000, note: '购买套餐' });
    expect(top.return_msg).toBe(`已充值 1000 条，当前余量 ${before + 1000} 条`);
    expect(top.data.balance).toBe(before + 1000);
    const adj = ok(await group('smsquotaadjust', { count: -300, note: '冲正误充' }));
    expect(adj.balance).toBe(before + 700);
    const [last, prev] = ok(await group('smsquotaledger', { limit: 2 })).items;
    expect(last).toMatchObject({ kind: 'adjust', count: -300, balance_after: before + 700, note: '冲正误充', creator: expect.any(String) });
    expect(last.creator).not.toBe('');
    expect(prev).toMatchObject({ kind: 'topup', count: 1000, balance_after: before + 1000, note: '购买套餐' });

    // never below 0: refused, nothing changes
    const rows = await ledgerCount();
    refused(await group('smsquotaadjust', { count: -(before + 701), note: '过多' }), `调整后余量不能小于 0（当前余量 ${before + 700} 条）`);
    expect(await balance()).toBe(before + 700);
    expect(await ledgerCount()).toBe(rows);

    const set = ok(await group('smsquotaset', { low_threshold: 100000 }));
    expect(set).toMatchObject({ low_threshold: 100000, low: true });
    ok(await group('smsquotaset', { low_threshold: 500 }));
  });

  it('refuses bad payloads by field', async () => {
    for (const count of [0, -5, 1_000_001, 'abc', 1.5, null]) expect((await group('smsquotatopup', { count })).return_code).toBe(RC.FAIL);
    expect((await group('smsquotatopup', { count: 10, note: 'x'.repeat(101) })).return_code).toBe(RC.FAIL);
    refused(await group('smsquotaadjust', { count: 5 }), /原因|note/);
    refused(await group('smsquotaadjust', { count: 5, note: '' }), /请填写调整原因/);
    refused(await group('smsquotaadjust', { count: 0, note: '零' }), /调整条数不能为 0/);
    refused(await group('smsquotaset', { low_threshold: -1 }), /./);
    refused(await group('smsquotaledger', { kind: 'gift' }), /./);
    refused(await group('smsquotaledger', { date_from: '2026/01/01' }), /日期格式/);
    refused(await group('smsquotaledger', { date_from: '2026-12-31', date_to: '2026-01-01' }), '开始日期不能晚于结束日期');
  });

  it('refuses a leader without is_smsset_auth (NO_PERMISSION), a community account, and another group’s community', async () => {
    for (const [m, p] of [
      ['smsquotainfo', {}],
      ['smsquotatopup', { count: 10 }],
      ['smsquotaadjust', { count: 1, note: '试' }],
      ['smsquotaset', { low_threshold: 1 }],
      ['smsquotaledger', {}],
      ['smsquotaledgerexport', {}],
    ] as const) {
      const res = await group(m, p, noFlag);
      expect(res.return_code, m).toBe(RC.NO_PERMISSION);
    }
    // group-only methods do not exist on the community side
    expect((await s.call('smsquotatopup', { count: 10 }, admin)).return_code).not.toBe('SUCCESS');
    refused(await group('smsquotaledger', { rid: otherRid }), '小区不存在或不属于本集团');
    refused(await group('smsquotaledger', { rid: 1 }, outsider), '小区不存在或不属于本集团');
    // the other group has no package: its info says so and adjusting or setting asks for a top-up first
    const theirs = ok(await group('smsquotainfo', {}, outsider));
    expect(theirs).toMatchObject({ enabled: false, balance: 0 });
    expect(theirs.regions.map((r: any) => r.title)).toEqual(['别家小区']);
    refused(await group('smsquotaadjust', { count: 5, note: '试' }, outsider), '集团尚未启用短信额度，请先充值');
    refused(await group('smsquotaset', { low_threshold: 5 }, outsider), '集团尚未启用短信额度，请先充值');
    expect(ok(await group('smsquotaledger', {}, outsider)).total).toBe(0);
  });

  it('filters the ledger by kind, community and dates, and exports what it shows', async () => {
    const mine = ok(await group('smsquotaledger', { rid: 1, limit: 200 }));
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((l: any) => l.rid === 1 && l.region_title === '阳光花园')).toBe(true);
    const none = ok(await group('smsquotaledger', { date_from: '2020-01-01', date_to: '2020-01-31' }));
    expect(none.total).toBe(0);
    const adjusts = ok(await group('smsquotaledger', { kind: 'adjust' }));
    const file = ok(await group('smsquotaledgerexport', { kind: 'adjust' }));
    expect(file.filename).toMatch(/^短信额度明细_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readXlsx(file.content_base64);
    expect(sheet.headers).toContain('变动后余量');
    expect(sheet.rows.length).toBe(adjusts.total);
  });
});

describe('smsquota: sending pays from the balance', () => {
  it('a send takes its billed segments (70 in one, 67 a segment beyond, the signature counted); the ledger names what it was for', async () => {
    const { provider, signName } = await smsProviderFor(db(), 1, s.config.dataDir);
    const short = `【${signName}】${'好'.repeat(70 - signName.length - 2)}`;
    const long = `【${signName}】${'好'.repeat(71 - signName.length - 2)}`;
    expect(smsSegments(short)).toBe(1);
    expect(smsSegments(long)).toBe(2);
    const before = await balance();
    const a = await provider.send({ mobile: '13900001111', signName, templateCode: 'T', params: {}, content: short, outId: 'charge-q1' });
    const b = await provider.send({
      mobile: '13900001111',
      signName,
      templateCode: 'T',
      params: {},
      content: long,
      outId: 'meter-alert-1-9',
    });
    expect(a.ok && b.ok).toBe(true);
    expect(await balance()).toBe(before - 3);
    const [second, first] = ok(await group('smsquotaledger', { kind: 'send', limit: 2 })).items;
    expect(first).toMatchObject({ count: -1, balance_after: before - 1, rid: 1, purpose: 'charging_code', purpose_ch: '充电验证码' });
    expect(second).toMatchObject({ count: -2, balance_after: before - 3, purpose: 'meter_alert' });
    // a text without its signature is billed with it
    const bare = '好'.repeat(70 - signName.length - 2 + 1);
    await provider.send({ mobile: '13900001111', signName, templateCode: 'T', params: {}, content: bare, outId: 'x-1' });
    expect(await balance()).toBe(before - 5);
    const info = ok(await group('smsquotainfo'));
    expect(info.regions.find((r: any) => r.rid === 1).used).toBeGreaterThanOrEqual(5);
  });

  it('gives back a refusal the provider certainly gave; keeps a network failure (it may have been sent)', async () => {
    await db().updateTable('sms_settings').set({ sandbox_fail_suffix: '9' }).where('rid', '=', 1).execute();
    try {
      const { provider, signName } = await smsProviderFor(db(), 1, s.config.dataDir);
      const before = await balance();
      const res = await provider.send({
        mobile: '13900001119',
        signName,
        templateCode: 'T',
        params: {},
        content: `【${signName}】测试`,
        outId: 'r-1',
      });
      expect(res.ok).toBe(false);
      expect(await balance()).toBe(before);
      const [refund, send] = ok(await group('smsquotaledger', { limit: 2 })).items;
      expect(send).toMatchObject({ kind: 'send', count: -1, balance_after: before - 1 });
      expect(refund).toMatchObject({
        kind: 'refund',
        kind_ch: '退回',
        count: 1,
        balance_after: before,
        note: expect.stringContaining('isv.BUSINESS_LIMIT_CONTROL'),
      });
    } finally {
      await db().updateTable('sms_settings').set({ sandbox_fail_suffix: '' }).where('rid', '=', 1).execute();
    }
    const network: SmsProvider = {
      name: 'aliyun',
      send: async () => ({ ok: false, code: 'NETWORK', reason: '连接服务商失败：timeout' }),
      receipts: async () => [],
      lookup: async () => null,
      test: async () => ({ ok: true, message: '' }),
    };
    const before = await balance();
    const res = await quotaProvider(db(), 1, network).send({
      mobile: '13900001111',
      signName: '阳光物业',
      templateCode: 'T',
      params: {},
      content: '【阳光物业】测试',
      outId: 'n-1',
    });
    expect(res.ok).toBe(false);
    expect(await balance()).toBe(before - 1);
  });

  it('a group without a package sends without limit and writes no ledger', async () => {
    const rows = await ledgerCount();
    const { provider, signName } = await smsProviderFor(db(), otherRid, s.config.dataDir);
    for (let i = 0; i < 3; i++) {
      const res = await provider.send({
        mobile: '13900002222',
        signName,
        templateCode: 'T',
        params: {},
        content: 'x'.repeat(300),
        outId: `other-${i}`,
      });
      expect(res.ok).toBe(true);
    }
    expect(await ledgerCount()).toBe(rows);
    expect(await db().selectFrom('sms_quotas').select('group_id').where('group_id', '!=', 1).execute()).toEqual([]);
  });

  it('a community reads its group’s balance and a warning when low', async () => {
    const q = ok(await s.call('smsquota', {}, admin));
    expect(q).toMatchObject({ enabled: true, balance: await balance(), low_threshold: 500 });
    await setBalance(10);
    const low = ok(await s.call('smsquota', {}, admin));
    expect(low).toMatchObject({ low: true, balance: 10, message: '集团短信余量 10 条，已低于提醒线 500 条，请联系集团充值' });
  });

  it('at zero: starting a job it cannot pay for is refused; a job already queued fails its messages with the reason; the balance stays 0', async () => {
    // a job of 2 recipients (an uploaded list) while there is enough
    await setBalance(1000);
    const tpl = ok(
      await s.call(
        'smstemplateadd',
        { code: 'SMS_QUOTA1', title: '额度测试', content: '您好，物业通知测试。', kind: 'notice', approved: 'Y' },
        admin,
      ),
    ).id;
    const add = (name: string) =>
      s.call(
        'smsjobadd',
        {
          name,
          kind: 'custom',
          template_id: tpl,
          audience: { type: 'list', list: [{ mobile: '13911110001' }, { mobile: '13911110002' }] },
          schedule: 'now',
          urgent: 'Y',
          dedupe_days: 0,
        },
        admin,
      );
    const id = ok(await add('额度测试任务')).id;
    const p = ok(await s.call('smsjobpreview', { id }, admin));
    expect(p.messages).toBe(2);

    // not enough for the job: refused with how many it needs, nothing changes
    await setBalance(1);
    const res = await s.call('smsjobstart', { id, confirm_count: p.messages }, admin);
    refused(res, '短信余量不足：本任务预计 2 条，集团剩余 1 条，请联系集团充值后再开始');
    expect((await db().selectFrom('sms_jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('D');

    // started with enough, then the balance runs out before it is sent
    await setBalance(2);
    ok(await s.call('smsjobstart', { id, confirm_count: p.messages }, admin));
    await setBalance(0);
    const rows = await ledgerCount();
    await s.runJobs();
    const msgs = await db()
      .selectFrom('sms_messages')
      .select(['submit_status', 'code', 'reason'])
      .where('rid', '=', 1)
      .where('sms_job_id', '=', id)
      .execute();
    expect(msgs).toHaveLength(2);
    expect(msgs.every((m) => m.submit_status === 'F' && m.code === 'QUOTA' && m.reason === SMS_QUOTA_EMPTY)).toBe(true);
    const job = await db().selectFrom('sms_jobs').select(['status', 'failed']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'F', failed: 2 });
    expect(await balance()).toBe(0);
    expect(await ledgerCount()).toBe(rows);
    const log = ok(await s.call('smsjoblog', { sms_job_id: id }, admin));
    expect(log.items[0].reason).toBe(SMS_QUOTA_EMPTY);

    // topped up, a resend goes through and pays
    ok(await group('smsquotatopup', { count: 10 }));
    ok(await s.call('smsresend', { sms_job_id: id }, admin));
    await s.runJobs();
    expect(await balance()).toBe(8);
  });

  it('at zero: a charging code is refused to the owner with the reason; a meter alert records it', async () => {
    await setBalance(0);
    const code = `PQ${Date.now() % 100000}`;
    const pile = ok(
      await s.call(
        'chargeradd',
        {
          title: '额度测试桩',
          code,
          kind: 'car',
          ports: 1,
          power_kw: '7.00',
          tou: [{ start: '00:00', end: '24:00', tier: 'flat', price: '1.00' }],
          service_fee: '0.40',
          bands: [],
        },
        admin,
      ),
    );
    expect(pile.id).toBeGreaterThan(0);
    await deviceHeartbeat(db(), 1, code, new Date(), 'pile');
    const m = await memberWithBalance(db(), 70, '10.00');
    const sent = await s.call('chargephonecode', { rid: 1, charger_code: code, mobile: m.mobile });
    refused(sent, `验证码发送失败：${SMS_QUOTA_EMPTY}`);

    const meter = await db().selectFrom('meters').select('id').where('rid', '=', 1).executeTakeFirstOrThrow();
    const alert = await db()
      .insertInto('meter_alerts')
      .values({
        rid: 1,
        meter_id: meter.id,
        kind: 'low',
        mobile: '13900003333',
        content: '【阳光物业】您的电表余额不足 10 元，请及时充值。',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueJob(db(), { rid: 1, kind: METER_ALERT_JOB, payload: { alert_id: Number(alert.id) }, createdBy: null });
    await s.runJobs();
    const row = await db()
      .selectFrom('meter_alerts')
      .select(['sent', 'error'])
      .where('rid', '=', 1)
      .where('id', '=', alert.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sent: 'F', error: SMS_QUOTA_EMPTY });
    expect(await balance()).toBe(0);
  });
});
