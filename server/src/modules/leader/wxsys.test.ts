import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret, secretsKey } from '../../lib/secrets.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { refused } from '../../test/answers.js';
import { checkWxCredentials } from './wxsys.js';

process.env.SECRETS_KEY ??= crypto.randomBytes(32).toString('hex');

let s: TestServer;
let leader: string;
let admin: string;
let oaOnly: string;
let noFlags: string;
let outsider: string;
const group = (method: string, payload: Record<string, unknown>, token = leader) => s.call(method, payload, token, 'group');
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};

const APP_SECRET = 'Qm7Lk2Xp9Wr4Tz8Nv3Hb6Jd1Fs5Ga0Ey';
const TOKEN = 'wuyeToken2026x';
const AES_KEY = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const MINI_SECRET = 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';

const oa = {
  kind: 'oa',
  app_id: 'wxd678efh567hg6787',
  name: '阳光物业服务号',
  original_id: 'gh_123456abcdef',
  qrcode_url: 'https://example.com/qr.png',
  app_secret: APP_SECRET,
  token_secret: TOKEN,
  aes_key_secret: AES_KEY,
};
const mini = { kind: 'mini', app_id: 'wx1234567890abcdef', name: '阳光业主', original_id: '', app_secret: MINI_SECRET };

async function withFlags(username: string, permissions: string[], groupId = 1) {
  const id = await s.addAccount(username, { roles: ['leader_admin'], sysType: 'leader', groupId, regions: [] });
  await s.database.db.updateTable('accounts').set({ permissions }).where('id', '=', id).execute();
  return s.login(username);
}

beforeAll(async () => {
  s = await startTestServer();
  [leader, admin] = [await s.login('leader'), await s.login('admin')];
  oaOnly = await withFlags('wx_oa_only', ['is_wechatset_auth']);
  noFlags = await withFlags('wx_no_flags', []);
  const other = await s.database.db.insertInto('groups').values({ title: '另一家物业' }).returning('id').executeTakeFirstOrThrow();
  outsider = await withFlags('wx_leader2', ['is_wechatset_auth', 'is_microapp_auth'], other.id);
});
afterAll(() => s?.close());

const row = (kind: 'oa' | 'mini', groupId = 1) =>
  s.database.db.selectFrom('wx_accounts').selectAll().where('group_id', '=', groupId).where('kind', '=', kind).executeTakeFirst();
const snapshot = async () => JSON.stringify(await s.database.db.selectFrom('wx_accounts').selectAll().orderBy('id').execute());

describe('setwxsys', () => {
  it('shows the demo settings: ids and names, no secrets yet', async () => {
    const info = ok(await group('setwxsysinfo', {}));
    expect(info.oa).toMatchObject({ saved: true, app_id: 'wx5d3f8a1b2c4e6f70', name: '阳光物业服务', app_secret_masked: '' });
    expect(info.mini).toMatchObject({ saved: true, kind_ch: '小程序', name: '阳光物业业主端' });
  });

  it('saves each half with its secrets sealed, never answered; a blank keeps the old one', async () => {
    expect((await group('setwxsysedit', oa)).return_msg).toBe('保存成功');
    ok(await group('setwxsysedit', mini));
    const stored = (await row('oa'))!;
    expect(stored.app_secret_blob).toMatch(/^v1:/);
    expect(stored.token_blob).toMatch(/^v1:/);
    expect(stored.aes_key_blob).toMatch(/^v1:/);
    const key = secretsKey(s.config.dataDir);
    expect(decryptSecret(stored.app_secret_blob!, key)).toBe(APP_SECRET);
    expect(decryptSecret(stored.token_blob!, key)).toBe(TOKEN);
    expect(decryptSecret(stored.aes_key_blob!, key)).toBe(AES_KEY);
    for (const secret of [APP_SECRET, TOKEN, AES_KEY]) expect(JSON.stringify(stored)).not.toContain(secret);
    // the mini-program keeps no Token nor EncodingAESKey
    expect(await row('mini')).toMatchObject({ token_blob: null, aes_key_blob: null, qrcode_url: '' });

    const info = await group('setwxsysinfo', {});
    const text = JSON.stringify(info);
    for (const secret of [APP_SECRET, TOKEN, AES_KEY, MINI_SECRET]) expect(text).not.toContain(secret);
    expect(text).not.toContain('_blob');
    expect(ok(info).oa).toMatchObject({
      app_id: oa.app_id,
      original_id: oa.original_id,
      qrcode_url: oa.qrcode_url,
      app_secret_masked: `已设置 ****${APP_SECRET.slice(-4)}`,
      token_masked: `已设置 ****${TOKEN.slice(-4)}`,
      aes_key_masked: `已设置 ****${AES_KEY.slice(-4)}`,
      update_by: '王总',
    });
    expect(ok(info).mini.app_secret_masked).toBe(`已设置 ****${MINI_SECRET.slice(-4)}`);

    // blank secrets keep the stored ones
    ok(await group('setwxsysedit', { ...oa, name: '改名的服务号', app_secret: '', token_secret: '', aes_key_secret: '' }));
    const after = (await row('oa'))!;
    expect(after.name).toBe('改名的服务号');
    expect(after.app_secret_blob).toBe(stored.app_secret_blob);
    expect(after.token_blob).toBe(stored.token_blob);
    expect(after.aes_key_blob).toBe(stored.aes_key_blob);
    // a new one replaces the old
    ok(await group('setwxsysedit', { ...oa, app_secret: 'B'.repeat(32), token_secret: '', aes_key_secret: '' }));
    expect(decryptSecret((await row('oa'))!.app_secret_blob!, key)).toBe('B'.repeat(32));
    ok(await group('setwxsysedit', oa));
  });

  it('tests a half in the sandbox: complete passes, missing or malformed fails with the reason; the result is kept', async () => {
    ok(await group('setwxsysedit', oa));
    const pass = await group('setwxsystest', { kind: 'oa' });
    expect(pass.return_msg).toContain('公众号测试通过');
    expect(ok(pass).ok).toBe(true);
    expect(await row('oa')).toMatchObject({ last_test_ok: 'Y' });
    expect(ok(await group('setwxsysinfo', {})).oa).toMatchObject({ last_test_ok: 'Y', last_test_result: pass.return_msg });

    // an edit forgets the last test
    ok(await group('setwxsysedit', { ...oa, app_secret: '' }));
    expect(await row('oa')).toMatchObject({ last_test_ok: null, last_test_result: '' });

    // the key sealed with another key (the data directory moved without it): as good as missing
    await s.database.db
      .updateTable('wx_accounts')
      .set({ token_blob: 'v1:AAAA' })
      .where('kind', '=', 'oa')
      .where('group_id', '=', 1)
      .execute();
    const fail = await group('setwxsystest', { kind: 'oa' });
    expect(fail.return_code).toBe('SUCCESS');
    expect(fail.data.ok).toBe(false);
    expect(fail.return_msg).toContain('未设置令牌（Token）');
    expect(await row('oa')).toMatchObject({ last_test_ok: 'N' });
    ok(await group('setwxsysedit', oa));

    expect(ok(await group('setwxsystest', { kind: 'mini' })).ok).toBe(true);

    // the well-formedness rules themselves
    const good = { kind: 'oa' as const, appId: oa.app_id, originalId: '', appSecret: APP_SECRET, token: TOKEN, aesKey: AES_KEY };
    expect(checkWxCredentials(good).ok).toBe(true);
    expect(checkWxCredentials({ ...good, appId: 'wx123' }).message).toContain('AppID格式不正确');
    expect(checkWxCredentials({ ...good, appSecret: 'short' }).message).toContain('AppSecret应为32位字母或数字');
    expect(checkWxCredentials({ ...good, aesKey: 'x'.repeat(42) }).message).toContain('EncodingAESKey应为43位字母或数字');
    expect(checkWxCredentials({ ...good, appSecret: '', token: '' }).message).toBe(
      '公众号测试未通过：未设置AppSecret；未设置令牌（Token）',
    );
    expect(checkWxCredentials({ ...good, kind: 'mini', token: '', aesKey: '' }).ok).toBe(true);
  });

  it('gates each half by its account permission', async () => {
    const info = ok(await group('setwxsysinfo', {}, oaOnly));
    expect(info.oa.app_id).toBe(oa.app_id);
    expect(info.mini).toBeNull();
    expect(JSON.stringify(info)).not.toContain(mini.app_id);
    const before = await snapshot();
    expect((await group('setwxsysedit', { ...mini, name: '越权' }, oaOnly)).return_code).toBe('NO_PERMISSION');
    expect((await group('setwxsystest', { kind: 'mini' }, oaOnly)).return_code).toBe('NO_PERMISSION');
    expect((await group('setwxsysinfo', {}, noFlags)).return_code).toBe('NO_PERMISSION');
    expect((await group('setwxsysedit', oa, noFlags)).return_code).toBe('NO_PERMISSION');
    expect(await snapshot()).toBe(before);
    // the half it holds it may save
    ok(await group('setwxsysedit', { ...oa, app_secret: '' }, oaOnly));
  });

  it('refuses bad payloads with the reason and changes nothing', async () => {
    const before = await snapshot();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...oa, kind: 'app' }, '类型取值不正确'],
      [{ ...oa, app_id: '' }, '请输入AppID'],
      [{ ...oa, app_id: 'wx12345' }, 'AppID应以wx开头，共18位字母或数字'],
      [{ ...oa, name: '' }, '请输入名称'],
      [{ ...oa, original_id: 'abc' }, '原始ID应以gh_开头'],
      [{ ...oa, qrcode_url: 'javascript:alert(1)' }, '二维码图片地址应以 http:// 或 https:// 开头'],
      [{ ...oa, app_secret: 'short' }, 'AppSecret应为32位字母或数字'],
      [{ ...oa, token_secret: 'a b' }, '令牌（Token）应为3至32位字母或数字'],
      [{ ...oa, aes_key_secret: 'x'.repeat(42) }, 'EncodingAESKey）应为43位字母或数字'],
      [{ ...oa, app_secret: `${'a'.repeat(31)}\u0000` }, '不能包含控制字符'],
    ];
    for (const [payload, message] of cases) {
      const res = await group('setwxsysedit', payload);
      expect(res.return_code, message).toBe('FAIL');
      expect(res.return_msg).toContain(message);
    }
    expect(await snapshot()).toBe(before);
    // another group has nothing saved: its first save needs the AppSecret
    const first = await group('setwxsysedit', { ...oa, app_secret: '' }, outsider);
    expect(first.return_msg).toBe('请输入AppSecret');
    expect((await group('setwxsystest', { kind: 'oa' }, outsider)).return_msg).toBe('请先保存公众号设置');
  });

  it('keeps groups apart and refuses community accounts', async () => {
    const theirs = ok(await group('setwxsysinfo', {}, outsider));
    expect(theirs.oa).toMatchObject({ saved: false, app_id: '' });
    ok(await group('setwxsysedit', { ...oa, app_id: 'wxaaaaaaaaaaaaaaaa' }, outsider));
    expect((await row('oa'))!.app_id).toBe(oa.app_id);
    expect(
      (await row(
        'oa',
        (await s.database.db.selectFrom('groups').select('id').where('title', '=', '另一家物业').executeTakeFirstOrThrow()).id,
      ))!.app_id,
    ).toBe('wxaaaaaaaaaaaaaaaa');
    for (const m of ['setwxsysinfo', 'setwxsysedit', 'setwxsystest', 'setchannellist', 'setchanneledit']) {
      expect((await group(m, {}, admin)).return_code, m).toBe('NO_PERMISSION');
      expect((await s.call(m, {}, admin)).return_msg, m).toBe('未知的操作');
    }
  });
});

describe('setchannel', () => {
  it('lists every scene with the choice and what pays it today', async () => {
    const { items } = ok(await group('setchannellist', {}));
    expect(items.map((i: any) => i.scene_ch)).toEqual(['业主端缴费', '收银台扫码', '付款码', '续费']);
    expect(items[0]).toMatchObject({
      scene: 'owner_app',
      provider: 'wechat',
      provider_ch: '微信支付',
      enabled: 'Y',
      in_use: '尚未接入在线支付',
    });
    // no choice: the server's provider (the sandbox here) pays the booth's QR codes
    expect(items[1]).toMatchObject({
      scene: 'cashier_qr',
      provider: '',
      provider_ch: '未选择',
      enabled: 'N',
      in_use: '临时车扫码缴费：沙箱（测试）',
    });
    expect(items[3]).toMatchObject({ scene: 'renewal', provider: 'sandbox', in_use: '续费扫码支付：沙箱（测试）' });
  });

  it('saves a scene; WeChat Pay or Alipay needs an enabled merchant of its own', async () => {
    expect((await group('setchanneledit', { scene: 'cashier_qr', provider: 'wechat', enabled: 'Y' })).return_msg).toBe('保存成功');
    ok(await group('setchanneledit', { scene: 'cashier_qr', provider: 'alipay', enabled: 'Y', remark: '支付宝扫码' }));
    const item = ok(await group('setchannellist', {})).items.find((i: any) => i.scene === 'cashier_qr');
    expect(item).toMatchObject({ provider: 'alipay', remark: '支付宝扫码', enabled: 'Y' });

    // the other group has no merchant: WeChat Pay cannot be turned on, a disabled choice may be kept
    const res = await group('setchanneledit', { scene: 'pay_code', provider: 'wechat', enabled: 'Y' }, outsider);
    expect(res.return_code).toBe('FAIL');
    expect(res.return_msg).toBe('请先在“支付商户设置”中添加并启用微信支付商户');
    ok(await group('setchanneledit', { scene: 'pay_code', provider: 'wechat', enabled: 'N' }, outsider));
    // renewal is paid to the platform, not to the group's merchant
    ok(await group('setchanneledit', { scene: 'renewal', provider: 'alipay', enabled: 'Y' }, outsider));
    expect(ok(await group('setchannellist', {})).items.find((i: any) => i.scene === 'pay_code').provider).toBe('');
  });

  it('renewal reads its channel: off or on a provider not running refuses a new order; an order made before still settles', async () => {
    const orders = async () =>
      (await s.database.db.selectFrom('renewal_orders').select(s.database.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const made = ok(await s.call('get_region_delay_pay', { years: 1 }, admin)).items;
    const count = await orders();
    try {
      ok(await group('setchanneledit', { scene: 'renewal', provider: 'sandbox', enabled: 'N' }));
      refused(await s.call('get_region_delay_pay', { years: 1 }, admin), '集团已停用“续费”的在线支付，请使用激活码续费或联系集团总部');
      ok(await group('setchanneledit', { scene: 'renewal', provider: 'alipay', enabled: 'Y' }));
      refused(await s.call('get_region_delay_pay', { years: 1 }, admin), '“续费”选用的支付宝渠道尚未开通，请使用激活码续费或联系集团总部');
      expect(ok(await group('setchannellist', {})).items.find((i: any) => i.scene === 'renewal').in_use).toBe(
        '续费扫码支付：“续费”选用的支付宝渠道尚未开通',
      );
      expect(await orders()).toBe(count);
      // the provider that took the order still settles it
      await s.services().sandbox!.settle(made.orderid);
      expect((await s.call('pay_query', { orderid: made.orderid, pay_type: '1' }, admin)).return_code).toBe('SUCCESS');
    } finally {
      ok(await group('setchanneledit', { scene: 'renewal', provider: 'sandbox', enabled: 'Y', remark: '演示数据' }));
    }
  });

  it('refuses bad payloads and changes nothing', async () => {
    const before = JSON.stringify(await s.database.db.selectFrom('pay_channels').selectAll().orderBy('id').execute());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scene: 'mall', provider: 'wechat' }, '支付场景取值不正确'],
      [{ scene: 'owner_app', provider: 'paypal' }, '支付渠道取值不正确'],
      [{ scene: 'owner_app', provider: 'wechat', enabled: 'X' }, 'enabled'],
    ];
    for (const [payload, message] of cases) {
      const res = await group('setchanneledit', payload);
      expect(res.return_code).toBe('FAIL');
      expect(res.return_msg).toContain(message);
      expect(res.return_msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(JSON.stringify(await s.database.db.selectFrom('pay_channels').selectAll().orderBy('id').execute())).toBe(before);
  });
});
