import { merchant } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { maskAccountNo } from './merchants.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

/** no login account (or, on an edit, the one there kept as it is) */
const NO_LOGIN = { login_username: '', login_password: '' };

const SAMPLE = {
  merchant: '测试便利店',
  kind: 'pharmacy',
  logo: '',
  contact: '张店长',
  phone: '021-58881234',
  hours: '08:00-22:00',
  address: '阳光花园南门12号',
  lng: '121.541200',
  lat: '31.221300',
  bank_name: '招商银行上海分行',
  bank_holder: '测试便利店',
  bank_account_no: '6222 0212 3456 7890',
  login_username: 'shop_resource',
  login_password: 'Shop#2026',
  status: 'Y',
  remark: '',
};

describeResource(merchant, {
  server: () => s,
  sample: SAMPLE,
  edit: { merchant: '测试便利店二', kind: 'food', status: 'N', login_password: '' },
  filters: { merchant: '测试便利', kind: 'pharmacy', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['merchant'],
});

/** Signs a new merchant account in and changes the password it was given, as its first sign-in asks. */
async function signInMerchant(username: string, password: string): Promise<string> {
  const token = await s.login(username, password);
  refused(await s.call('cardtemplatelist', {}, token), '请先修改管理员设置的临时密码');
  ok(await s.call('sysusereditpassword', { username, password: 'Mine#2026', password2: 'Mine#2026' }, token));
  return token;
}

describe('merchants: the login account, the settlement account, the rules', () => {
  let admin: string;
  beforeAll(async () => {
    admin = await s.login('admin');
  });
  const add = (v: Record<string, unknown>, token = admin) => s.call('merchantadd', { ...SAMPLE, ...v }, token);
  const rowOf = async (name: string, token = admin) =>
    ((await s.call('merchantlist', { merchant: name, limit: 50 }, token)).data.items as Array<Record<string, any>>).find(
      (r) => r.merchant === name,
    )!;

  it('makes a merchant login account that signs in as a merchant holding the card pages only', async () => {
    ok(await add({ merchant: '登录测试店', login_username: 'shop_login' }));
    const row = await rowOf('登录测试店');
    expect(row).toMatchObject({ login_username: 'shop_login', login_status: 'Y', phone: '021-58881234', kind_ch: '药房' });
    const account = await s.database.db
      .selectFrom('accounts')
      .select(['sys_type', 'roles', 'name', 'status'])
      .where('username', '=', 'shop_login')
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ sys_type: 'merchant', roles: ['card'], name: '登录测试店', status: 'Y' });
    const token = await signInMerchant('shop_login', 'Shop#2026');
    const info = await s.call('sysuserinfo', {}, token);
    ok(info);
    expect(info.data.items).toMatchObject({ username: 'shop_login', sys_type: 'merchant', rid: 1 });
    // it reads the card pages, and neither the merchants nor the followers, nor changes them
    ok(await s.call('cardtemplatelist', {}, token));
    for (const [method, payload] of [
      ['merchantlist', {}],
      ['merchantadd', { ...SAMPLE, merchant: '商户自建', ...NO_LOGIN }],
      ['merchantedit', { ...SAMPLE, id: row.id, ...NO_LOGIN }],
      ['merchantdel', { id: row.id }],
      ['merchantexport', {}],
      ['merchantservicelist', {}],
      ['merchantserviceadd', { merchant_id: row.id, rid: 2, valid_from: '2026-01-01', valid_to: '2026-12-31' }],
      ['wxfanslist', {}],
      ['wxfanssync', {}],
      ['wxfansbind', { id: 1, member_id: 1 }],
    ] as const) {
      expect((await s.call(method, payload, token)).return_code, method).toBe('NO_PERMISSION');
    }
  });

  it('resets the login password from the form, ends its sessions, keeps the username, and stops it with the store', async () => {
    ok(await add({ merchant: '重置测试店', login_username: 'shop_reset' }));
    const row = await rowOf('重置测试店');
    const token = await signInMerchant('shop_reset', 'Shop#2026');
    refused(
      await s.call(
        'merchantedit',
        { ...SAMPLE, merchant: '重置测试店', id: row.id, login_username: 'shop_other', login_password: '' },
        admin,
      ),
      '登录账号创建后不能修改',
    );
    ok(
      await s.call(
        'merchantedit',
        { ...SAMPLE, merchant: '重置测试店', id: row.id, login_username: 'shop_reset', login_password: 'Again#2026' },
        admin,
      ),
    );
    expect((await s.call('cardtemplatelist', {}, token)).return_code).not.toBe('SUCCESS');
    const again = await signInMerchant('shop_reset', 'Again#2026');
    ok(await s.call('cardtemplatelist', {}, again));
    // stopping the store stops its account at once
    ok(await s.call('merchantedit', { ...SAMPLE, merchant: '重置测试店', id: row.id, ...NO_LOGIN, status: 'N' }, admin));
    expect((await rowOf('重置测试店')).login_status).toBe('N');
    expect((await s.call('cardtemplatelist', {}, again)).return_code).not.toBe('SUCCESS');
    await expect(s.login('shop_reset', 'Mine#2026')).rejects.toThrow();
    ok(await s.call('merchantedit', { ...SAMPLE, merchant: '重置测试店', id: row.id, ...NO_LOGIN, status: 'Y' }, admin));
    ok(await s.call('cardtemplatelist', {}, await s.login('shop_reset', 'Mine#2026')));
  });

  it('refuses a username taken, a login without a password, a weak or short password, the same name', async () => {
    refused(await add({ merchant: '账号重复店', login_username: 'cashier' }), '登录账号 cashier 已存在');
    refused(await add({ merchant: '无密码店', login_username: 'shop_nopass', login_password: '' }), '新建登录账号须设置登录密码');
    refused(await add({ merchant: '短密码店', login_username: 'shop_short', login_password: '123' }), '密码长度');
    refused(await add({ merchant: '只有密码店', login_username: '', login_password: 'Shop#2026' }), '请先填写登录账号');
    refused(await add({ merchant: '坏账号店', login_username: '中文账号' }), '登录账号为4到30位字母、数字或下划线');
    ok(await add({ merchant: '同名测试店', ...NO_LOGIN }));
    refused(await add({ merchant: '同名测试店', ...NO_LOGIN }), '商户「同名测试店」已存在');
    const none = await s.database.db.selectFrom('accounts').select('id').where('username', 'in', ['shop_nopass', 'shop_short']).execute();
    expect(none).toEqual([]);
  });

  it('refuses bad payloads in the form words', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ merchant: '' }, '请输入商户名称'],
      [{ merchant: '电话店', phone: '12345' }, '联系电话应为手机号或带区号的固定电话'],
      [{ merchant: '类型店', kind: 'bank' }, '商户类型'],
      [{ merchant: '账号店', bank_account_no: '6222-abc' }, '银行账号应为8到30位数字'],
      [{ merchant: '经纬店', lng: '121.5', lat: '' }, '经度和纬度须同时填写'],
      [{ merchant: '纬度店', lng: '121.5', lat: '95' }, '纬度超出范围'],
      [{ merchant: 'Logo店', logo: 'http://evil.example/x.png' }, '图片地址无效'],
    ];
    for (const [v, msg] of cases) refused(await add({ ...NO_LOGIN, ...v }), msg);
  });

  it('writes the settlement account number only: sealed in the table, answered as its mask, kept when left blank', async () => {
    ok(await add({ merchant: '结算测试店', ...NO_LOGIN, bank_account_no: '6222 0212 3456 7890' }));
    const row = await rowOf('结算测试店');
    expect(row.bank_account_mask).toBe('6222 **** **** 7890');
    expect(maskAccountNo('6217001234567890123')).toBe('6217 **** **** 0123');
    const stored = await s.database.db
      .selectFrom('merchants')
      .select(['bank_account_blob', 'bank_account_mask'])
      .where('rid', '=', 1)
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.bank_account_blob).toMatch(/^v1:/);
    expect(stored.bank_account_blob).not.toContain('6222021234567890');
    // no answer carries the number or the sealed text
    const listed = JSON.stringify(await s.call('merchantlist', { limit: 200 }, admin));
    expect(listed).not.toContain('6222021234567890');
    expect(listed).not.toContain('bank_account_blob');
    expect(listed).not.toContain('bank_account_no');
    // an edit leaving it blank keeps it; a new one replaces it
    ok(await s.call('merchantedit', { ...SAMPLE, merchant: '结算测试店', id: row.id, ...NO_LOGIN, bank_account_no: '' }, admin));
    expect((await rowOf('结算测试店')).bank_account_mask).toBe('6222 **** **** 7890');
    ok(
      await s.call(
        'merchantedit',
        { ...SAMPLE, merchant: '结算测试店', id: row.id, ...NO_LOGIN, bank_account_no: '6217001234567890123' },
        admin,
      ),
    );
    expect((await rowOf('结算测试店')).bank_account_mask).toBe('6217 **** **** 0123');
  });

  it('keeps a store with ledgers or parking coupons: stop it instead; its dependents say why', async () => {
    const stores = (await s.call('merchantlist', { limit: 50 }, admin)).data.items as Array<{ id: number; merchant: string }>;
    const sunny = stores.find((r) => r.merchant === '阳光便利店')!;
    const res = await s.call('merchantdel', { id: sunny.id }, admin);
    expect(res.return_code).toBe('FAIL');
    expect(res.return_msg).toMatch(/不能删除，可将其停用/);
    expect((await s.call('merchantlist', { merchant: '阳光便利店' }, admin)).data.total).toBe(1);
    // and the demo merchant account still signs in
    ok(await s.call('cardtemplatelist', {}, await s.login('merchant')));
  });

  it("answers 不存在 for another community's merchant, to read, change, delete or serve", async () => {
    const admin2 = await s.login('admin2');
    const theirs = (await s.call('merchantlist', { limit: 50 }, admin2)).data.items as Array<{ id: number; merchant: string }>;
    expect(theirs.length).toBeGreaterThan(0);
    const id = theirs[0]!.id;
    refused(await s.call('merchantedit', { ...SAMPLE, id, ...NO_LOGIN }, admin), '商户不存在');
    refused(await s.call('merchantdel', { id }, admin), '商户不存在');
    refused(await s.call('merchantservicelist', { merchant_id: id }, admin), '商户不存在');
    refused(
      await s.call('merchantserviceadd', { merchant_id: id, rid: 2, valid_from: '2026-01-01', valid_to: '2026-12-31' }, admin),
      '商户不存在',
    );
    const mine = (await s.call('merchantlist', { limit: 50 }, admin)).data.items as Array<{ id: number }>;
    expect(mine.some((r) => r.id === id)).toBe(false);
  });

  it('the demo: kinds, addresses and the merchant account on 阳光便利店', async () => {
    const row = await rowOf('阳光便利店');
    expect(row).toMatchObject({ kind: 'store', kind_ch: '便利店', login_username: 'merchant', hours: '07:00-23:00' });
    expect(row.address).toContain('东门商业街');
    expect((await rowOf('幸福里超市')).services_text).toMatch(/已通过，至\d{4}-\d{2}-\d{2}/);
  });
});

describe('merchants: the communities they serve, decided there', () => {
  let admin: string;
  let admin2: string;
  let storeId: number;
  beforeAll(async () => {
    [admin, admin2] = await s.logins('admin', 'admin2');
    ok(await s.call('merchantadd', { ...SAMPLE, merchant: '服务测试店', ...NO_LOGIN }, admin));
    const rows = (await s.call('merchantlist', { merchant: '服务测试店' }, admin)).data.items as Array<{ id: number }>;
    storeId = rows[0]!.id;
  });
  const ask = (v: Record<string, unknown> = {}) =>
    s.call(
      'merchantserviceadd',
      { merchant_id: storeId, rid: 2, valid_from: '2026-12-01', valid_to: '2027-11-30', remark: '送货上门', ...v },
      admin,
    );

  it('lists the other communities of the group; refuses its own, another group’s, a range ending first', async () => {
    const regions = (await s.call('merchant_region_small_list', {}, admin)).data.items as Array<{ id: number }>;
    expect(regions.map((r) => r.id)).toContain(2);
    expect(regions.map((r) => r.id)).not.toContain(1);
    refused(await ask({ rid: 1 }), '商户本就服务所在小区');
    refused(await ask({ rid: 999 }), '小区不存在');
    refused(await ask({ valid_from: '2027-01-01', valid_to: '2026-01-01' }), '结束日期不能早于开始日期');
  });

  it('asks; the served community sees it pending and decides it; the asking side cannot decide it', async () => {
    const asked = await ask();
    ok(asked);
    expect(asked.return_msg).toContain('等待翠湖苑审核');
    const id = asked.data.id as number;
    refused(await ask(), '已有待审核的服务申请');
    const mine = await s.call('merchantservicelist', { merchant_id: storeId }, admin);
    expect(mine.data.items[0]).toMatchObject({ id, status: 'E', status_ch: '待审核', region_title: '翠湖苑', decides: false });
    // the asking community cannot approve its own request: the row is the served community's
    refused(await s.call('merchantserviceapprove', { id }, admin), '服务申请不存在');
    const inbox = await s.call('merchantservicelist', { status: 'E' }, admin2);
    const row = (inbox.data.items as Array<{ id: number; decides: boolean; merchant: string }>).find((r) => r.id === id)!;
    expect(row).toMatchObject({ merchant: '服务测试店', decides: true });
    // a refusal needs its reason
    refused(await s.call('merchantservicerefuse', { id, reason: '' }, admin2), '请填写驳回原因');
    const approved = await s.call('merchantserviceapprove', { id }, admin2);
    ok(approved);
    expect(approved.data).toMatchObject({ status: 'Y', status_ch: '已通过', decided_by: '李经理' });
    refused(await s.call('merchantservicerefuse', { id, reason: '晚了' }, admin2), '该服务申请已处理');
    expect((await s.call('merchantlist', { merchant: '服务测试店' }, admin)).data.items[0].services_text).toBe(
      '翠湖苑（已通过，至2027-11-30）',
    );
    // the asking side ends it
    refused(await s.call('merchantservicedel', { id }, admin2), '服务申请不存在');
    ok(await s.call('merchantservicedel', { id }, admin));
  });

  it('a refused request stays as history with its reason, and a new one may be asked', async () => {
    const asked = await ask();
    ok(asked);
    const refusedRow = await s.call('merchantservicerefuse', { id: asked.data.id, reason: '该小区已有同类商户' }, admin2);
    ok(refusedRow);
    expect(refusedRow.data).toMatchObject({ status: 'N', reason: '该小区已有同类商户' });
    ok(await ask());
    const all = (await s.call('merchantservicelist', { merchant_id: storeId }, admin)).data.items as Array<{ status: string }>;
    expect(all.map((r) => r.status).sort()).toEqual(['E', 'N']);
  });

  it("keeps to the rows naming its community: another's merchant serving a third community is not its to see, end or decide", async () => {
    const db = s.database.db;
    const theirs = await db.selectFrom('merchants').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('merchant_services')
      .values({ rid: 3, merchant_rid: 2, merchant_id: theirs.id, valid_from: '2026-01-01', valid_to: '2026-12-31' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const n = Number(id);
    refused(await s.call('merchantservicedel', { id: n }, admin), '服务申请不存在');
    refused(await s.call('merchantserviceapprove', { id: n }, admin), '服务申请不存在');
    refused(await s.call('merchantservicerefuse', { id: n, reason: '不行' }, admin), '服务申请不存在');
    const inbox = (await s.call('merchantservicelist', { limit: 100 }, admin)).data.items as Array<{ id: number; rid: number }>;
    expect(inbox.some((r) => r.id === n)).toBe(false);
    expect(inbox.every((r) => r.rid === 1)).toBe(true);
    const row = await db.selectFrom('merchant_services').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('E');
    // what the served community reads of the asking one: the merchant's name and kind, the community's title
    const admin2Inbox = (await s.call('merchantservicelist', { status: 'E' }, admin2)).data.items as Array<Record<string, unknown>>;
    expect(Object.keys(admin2Inbox[0] ?? {}).sort()).toEqual(
      [
        'create_time',
        'decided_by',
        'decided_time',
        'decides',
        'id',
        'kind',
        'kind_ch',
        'merchant',
        'merchant_id',
        'merchant_region_title',
        'merchant_rid',
        'reason',
        'region_title',
        'remark',
        'rid',
        'status',
        'status_ch',
        'valid_from',
        'valid_to',
      ].sort(),
    );
  });

  it('needs merchantset to ask or decide; card staff only read', async () => {
    await s.addAccount('card_clerk', { roles: ['card'] });
    const clerk = await s.login('card_clerk');
    ok(await s.call('merchantlist', {}, clerk));
    ok(await s.call('merchantservicelist', { merchant_id: storeId }, clerk));
    expect(
      (await s.call('merchantserviceadd', { merchant_id: storeId, rid: 2, valid_from: '2026-12-01', valid_to: '2027-11-30' }, clerk))
        .return_code,
    ).toBe('NO_PERMISSION');
    expect((await s.call('merchantadd', { ...SAMPLE, merchant: '店员加的', ...NO_LOGIN }, clerk)).return_code).toBe('NO_PERMISSION');
    const steward = await s.login('steward');
    expect((await s.call('merchantlist', {}, steward)).return_code).toBe('NO_PERMISSION');
  });
});
