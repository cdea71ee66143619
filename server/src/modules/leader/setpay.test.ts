import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret, secretsKey } from '../../lib/secrets.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { appliedFor, keyLastFour } from './setpay.js';

process.env.SECRETS_KEY ??= crypto.randomBytes(32).toString('hex');

let s: TestServer;
let leader: string;
let admin: string;
let outsider: string;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_B64 = rsa.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const API_V3 = 'Zx9kQ2mW7pLr4Tn8Vb3Hc6Jd1Fs5Ga0E';

const wechat = {
  fee_kind: 'parking',
  provider: 'wechat',
  title: '阳光花园停车费',
  mch_id: '1230000109',
  app_id: 'wxd678efh567hg6787',
  serial_no: '444F4864EA9B34415E7F9A5D5A2C4E5F7B8C9D10',
  api_v3_secret: API_V3,
  private_key_secret: PRIVATE_PEM,
};

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin] = [await s.login('leader'), await s.login('admin')];
  const other = await s.database.db.insertInto('groups').values({ title: '另一家物业' }).returning('id').executeTakeFirstOrThrow();
  await s.addAccount('setpay_leader2', { roles: ['leader_admin'], sysType: 'leader', groupId: other.id, regions: [] });
  outsider = await s.login('setpay_leader2');
});
afterAll(() => s?.close());

const merchantRow = (id: number) => s.database.db.selectFrom('pay_merchants').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const tableCount = async () =>
  (await s.database.db.selectFrom('pay_merchants').select(s.database.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

describe('setpay', () => {
  it('shows the demo merchants and which one applies to each community', async () => {
    const info = ok(await group('setpayinfo', {}));
    expect(info.merchants.map((m: any) => m.title)).toEqual(['集团统一收款（微信支付）', '阳光花园物业费（支付宝）']);
    const sunshine = info.regions.find((r: any) => r.title === '阳光花园');
    const applies = Object.fromEntries(sunshine.applies.map((a: any) => [a.fee_kind, a]));
    expect(applies.property).toMatchObject({ source: 'own', merchant_title: '阳光花园物业费（支付宝）', provider_ch: '支付宝' });
    expect(applies.parking).toMatchObject({
      source: 'group_all',
      source_ch: '集团默认（全部费用）',
      merchant_title: '集团统一收款（微信支付）',
    });
    const other = info.regions.find((r: any) => r.title === '翠湖苑');
    expect(other.applies.every((a: any) => a.source === 'group_all' || a.source === 'group')).toBe(true);
  });

  it('adds, lists, edits and deletes a WeChat merchant; keys sealed, never answered', async () => {
    const { id } = ok(await group('setpayadd', { ...wechat, rid: 1 }));
    const row = await merchantRow(id);
    expect(row.api_v3_blob).toMatch(/^v1:/);
    expect(row.private_key_blob).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(API_V3);
    expect(JSON.stringify(row)).not.toContain('BEGIN PRIVATE KEY');
    expect(decryptSecret(row.api_v3_blob!, secretsKey(s.config.dataDir))).toBe(API_V3);
    expect(decryptSecret(row.private_key_blob!, secretsKey(s.config.dataDir))).toBe(PRIVATE_PEM.trim());

    const list = await group('setpaylist', { rid: 1, fee_kind: 'parking' });
    const item = ok(list).items[0];
    expect(ok(list).total).toBe(1);
    expect(item).toMatchObject({
      id,
      rid: 1,
      region_title: '阳光花园',
      provider_ch: '微信支付',
      fee_kind_ch: '停车费（月租/车位）',
      api_v3_masked: `已设置 ****${API_V3.slice(-4)}`,
      private_key_masked: `已设置 ****${keyLastFour(PRIVATE_PEM)}`,
      public_key_masked: '',
    });
    const info = await group('setpayinfo', {});
    for (const answer of [list, info]) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain(API_V3);
      expect(text).not.toContain(PRIVATE_PEM.split('\n')[1]);
      expect(text).not.toContain('_blob');
    }
    expect(ok(info).regions[0].applies.find((a: any) => a.fee_kind === 'parking')).toMatchObject({ source: 'own', merchant_id: id });

    // blank keys keep the stored ones
    const before = await merchantRow(id);
    const edit = await group('setpayedit', { ...wechat, id, rid: 1, title: '停车费商户', api_v3_secret: '', private_key_secret: '' });
    expect(edit.return_msg).toBe('保存成功');
    const after = await merchantRow(id);
    expect(after.title).toBe('停车费商户');
    expect(after.api_v3_blob).toBe(before.api_v3_blob);
    expect(after.private_key_blob).toBe(before.private_key_blob);
    // a new key replaces the old
    ok(await group('setpayedit', { ...wechat, id, rid: 1, api_v3_secret: 'A'.repeat(32), private_key_secret: '' }));
    expect(decryptSecret((await merchantRow(id)).api_v3_blob!, secretsKey(s.config.dataDir))).toBe('A'.repeat(32));

    // one per (community, kind)
    const dup = await group('setpayadd', { ...wechat, rid: 1, title: '重复' });
    expect(dup.return_code).toBe('FAIL');
    expect(dup.return_msg).toContain('已有「停车费（月租/车位）」的支付商户');

    expect((await group('setpaydel', { id })).return_msg).toBe('删除成功');
    expect((await group('setpaydel', { id })).return_msg).toBe('支付商户不存在');
    const applied = ok(await group('setpayinfo', {})).regions[0].applies.find((a: any) => a.fee_kind === 'parking');
    expect(applied.source).toBe('group_all');
  });

  it('tests a merchant in the sandbox: complete passes, missing or malformed fails with the reason', async () => {
    const { id } = ok(await group('setpayadd', { ...wechat, rid: 2, fee_kind: 'property', title: '翠湖苑物业费' }));
    const pass = ok(await group('setpaytest', { id }));
    expect(pass.ok).toBe(true);
    expect(pass.message).toContain('微信支付测试通过');
    expect(await merchantRow(id)).toMatchObject({ last_test_ok: 'Y' });

    // a key that is no private key
    ok(await group('setpayedit', { ...wechat, id, rid: 2, fee_kind: 'property', title: '翠湖苑物业费', private_key_secret: 'not-a-key' }));
    const fail = await group('setpaytest', { id });
    expect(fail.return_code).toBe('SUCCESS');
    expect(fail.data.ok).toBe(false);
    expect(fail.return_msg).toContain('商户私钥无法读取');
    expect(await merchantRow(id)).toMatchObject({ last_test_ok: 'N' });

    // the demo's group default has no keys yet
    const demo = ok(await group('setpaylist', { scope: 'group' })).items[0];
    const missing = ok(await group('setpaytest', { id: demo.id }));
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain('未设置APIv3密钥');

    // an Alipay merchant with its keys
    const ali = ok(
      await group('setpayadd', {
        fee_kind: 'charging',
        provider: 'alipay',
        title: '充电费支付宝',
        app_id: '2021000123450001',
        private_key_secret: PRIVATE_PEM,
        public_key_secret: PUBLIC_B64,
      }),
    );
    expect(ok(await group('setpaytest', { id: ali.id })).ok).toBe(true);
    const item = ok(await group('setpaylist', { provider: 'alipay', scope: 'group' })).items[0];
    expect(item).toMatchObject({ region_title: '集团默认', public_key_masked: `已设置 ****${PUBLIC_B64.slice(-4)}`, last_test_ok: 'Y' });
    expect(JSON.stringify(item)).not.toContain(PUBLIC_B64);
  });

  it('refuses bad payloads and changes nothing', async () => {
    const n = await tableCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...wechat, title: '' }, '请输入商户名称'],
      [{ ...wechat, mch_id: '12ab' }, '商户号应为8至12位数字'],
      [{ ...wechat, app_id: 'abc' }, 'AppID应以wx开头'],
      [{ ...wechat, serial_no: '' }, '请输入商户API证书序列号'],
      [{ ...wechat, api_v3_secret: '' }, '请输入APIv3密钥'],
      [{ ...wechat, private_key_secret: '' }, '请输入商户私钥'],
      [{ ...wechat, provider: 'paypal' }, '支付渠道取值不正确'],
      [{ ...wechat, fee_kind: 'renewal' }, '费用类型取值不正确'],
      [{ fee_kind: 'meter', provider: 'alipay', title: 'x', app_id: '123' }, '支付宝AppID应为16位数字'],
      [
        { fee_kind: 'meter', provider: 'alipay', title: 'x', app_id: '2021000123450002', private_key_secret: PRIVATE_PEM },
        '请输入支付宝公钥',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await group('setpayadd', { ...payload, rid: 1 });
      expect(res.return_code, message).toBe('FAIL');
      expect(res.return_msg).toContain(message);
    }
    expect((await group('setpayedit', { ...wechat, id: 999999 })).return_msg).toBe('支付商户不存在');
    expect(await tableCount()).toBe(n);
  });

  it("refuses another group's community and merchants, and community accounts", async () => {
    const n = await tableCount();
    const res = await group('setpayadd', { ...wechat, fee_kind: 'utility', rid: 1 }, outsider);
    expect(res.return_code).toBe('FAIL');
    expect(res.return_msg).toBe('小区不存在或不属于本集团');
    const mine = ok(await group('setpayinfo', {}));
    const theirs = ok(await group('setpayinfo', {}, outsider));
    expect(theirs.merchants).toEqual([]);
    expect(theirs.regions).toEqual([]);
    const id = mine.merchants[0].id;
    expect((await group('setpaytest', { id }, outsider)).return_msg).toBe('支付商户不存在');
    expect((await group('setpaydel', { id }, outsider)).return_msg).toBe('支付商户不存在');
    expect((await group('setpayedit', { ...wechat, id }, outsider)).return_msg).toBe('支付商户不存在');
    expect(ok(await group('setpaylist', {}, outsider)).total).toBe(0);
    // a community's administrator holds every code of its side, not the group's methods
    expect((await group('setpayinfo', {}, admin)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('setpayinfo', {}, admin)).return_msg).toBe('未知的操作');
    expect((await s.call('setpayadd', { ...wechat }, admin)).return_msg).toBe('未知的操作');
    expect(await tableCount()).toBe(n);
  });

  it('falls back in order: own kind, own 全部费用, group kind, group 全部费用', () => {
    const m = (id: number, rid: number | null, fee_kind: string, status = 'Y') =>
      ({ id, rid, fee_kind, status, title: `m${id}`, provider_ch: '微信支付' }) as any;
    const applied = (ms: any[], kind: string) => appliedFor(1, ms).find((a) => a.fee_kind === kind)!;
    expect(applied([m(1, null, 'all'), m(2, null, 'parking'), m(3, 1, 'all'), m(4, 1, 'parking')], 'parking').merchant_id).toBe(4);
    expect(applied([m(1, null, 'all'), m(2, null, 'parking'), m(3, 1, 'all')], 'parking').source).toBe('own_all');
    expect(applied([m(1, null, 'all'), m(2, null, 'parking'), m(3, 1, 'all', 'N')], 'parking').source).toBe('group');
    expect(applied([m(1, null, 'all')], 'parking').source).toBe('group_all');
    expect(applied([m(1, null, 'all', 'N')], 'parking').source).toBe('none');
    expect(applied([m(1, 2, 'all')], 'all').source).toBe('none');
  });
});
