import type { WxFanItem } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { DEMO_MOBILE } from '../owners/seed.js';
import { SandboxWechatProvider, sandboxOpenid, USER_INFO_BATCH } from './wechatProvider.js';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s?.close());

const list = async (filters: Record<string, unknown> = {}, token = admin) => {
  const res = await s.call('wxfanslist', { limit: 200, ...filters }, token);
  ok(res);
  return res.data as { total: number; items: WxFanItem[] };
};
/** The community's followers as the table holds them, without the times a sync sets. */
const snapshot = async (rid = 1) =>
  s.database.db
    .selectFrom('wx_followers')
    .select(['id', 'openid', 'unionid', 'subscribed', 'subscribe_time', 'scene', 'channel', 'remark', 'tags', 'member_id', 'synced_at'])
    .where('rid', '=', rid)
    .orderBy('id')
    .execute();
const wxBound = async (memberId: number) =>
  (await s.database.db.selectFrom('members').select('wx_isbind').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
    .wx_isbind;

describe('the WeChat sandbox', () => {
  it('pages its followers by next_openid, lists only those following, answers info 100 at most', async () => {
    const p = new SandboxWechatProvider(1, 10);
    const seen: string[] = [];
    let next = '';
    do {
      const page = await p.followers(next);
      seen.push(...page.openids);
      next = page.nextOpenid;
    } while (next);
    expect(seen.length).toBe(36);
    expect(new Set(seen).size).toBe(36);
    expect(seen).not.toContain(sandboxOpenid(1, 7));
    const info = await p.userInfo([sandboxOpenid(1, 7), sandboxOpenid(1, 8), sandboxOpenid(2, 8), 'nobody'].slice(0, 3));
    expect(info.map((u) => [u.openid, u.subscribe])).toEqual([
      [sandboxOpenid(1, 7), 0],
      [sandboxOpenid(1, 8), 1],
    ]);
    await expect(p.userInfo(Array.from({ length: USER_INFO_BATCH + 1 }, (_, i) => sandboxOpenid(1, i)))).rejects.toThrow();
    expect(sandboxOpenid(1, 1)).toHaveLength(28);
  });
});

describe('followers: the list, the sync, binding to owners', () => {
  it('lists the demo followers: 未授权 where the platform gave no nickname, some left, some bound', async () => {
    const all = await list();
    expect(all.total).toBe(42);
    expect(all.items.every((f) => f.nickname === null)).toBe(true);
    expect((await list({ subscribed: 'N' })).total).toBe(6);
    const bound = await list({ bound: 'Y' });
    expect(bound.total).toBe(8);
    expect(bound.items.every((f) => f.realname !== '' && f.bound_ch === '已绑定')).toBe(true);
    expect(bound.items[0]!.mobile).toMatch(/^1\d{10}$/);
    // an owner's mobile shows masked to whom lacks contact_whole, as everywhere
    await s.addAccount('fans_reader', { roles: ['card'] });
    const reader = await list({ bound: 'Y' }, await s.login('fans_reader'));
    expect(reader.items[0]!.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
    expect((await list({ bound: 'N' })).total).toBe(34);
    const qr = all.items.find((f) => f.channel !== '')!;
    expect(qr).toMatchObject({ scene: 'ADD_SCENE_QR_CODE', scene_ch: '扫描二维码', subscribed_ch: '已关注' });
    const byChannel = await list({ channel: qr.channel });
    expect(byChannel.items.every((f) => f.channel === qr.channel)).toBe(true);
    expect((await list({ openid: qr.openid.slice(4, 14) })).items.map((f) => f.id)).toEqual([qr.id]);
    const day = qr.subscribe_time.slice(0, 10);
    expect((await list({ subscribe_time: [day, day] })).items.map((f) => f.id)).toContain(qr.id);
    expect((await list({ subscribe_time: ['2001-01-01', '2001-01-02'] })).total).toBe(0);
    refused(await s.call('wxfanslist', { subscribed: 'X' }, admin), '关注状态');
    const file = await s.exportFile('wxfansexport', { subscribed: 'Y' }, admin);
    ok(file);
  });

  it('syncs from the sandbox: a second sync changes nothing; a follower who left is marked; a new one is added', async () => {
    const first = await s.call('wxfanssync', {}, admin);
    ok(first);
    expect(first.data).toMatchObject({ provider: 'sandbox', total: 36, added: 0, updated: 0, unsubscribed: 0 });
    const before = await snapshot();
    const again = await s.call('wxfanssync', {}, admin);
    ok(again);
    expect(again.return_msg).toBe('同步完成（沙箱）：共 36 位关注者，新增 0，更新 0，取消关注 0');
    expect(await snapshot()).toEqual(before);
    // a follower we lost, one we think left but follows, one the platform does not know
    const db = s.database.db;
    await db.deleteFrom('wx_followers').where('rid', '=', 1).where('openid', '=', sandboxOpenid(1, 5)).execute();
    await db.updateTable('wx_followers').set({ subscribed: 'N' }).where('rid', '=', 1).where('openid', '=', sandboxOpenid(1, 6)).execute();
    await db.insertInto('wx_followers').values({ rid: 1, openid: 'oGONE000000000000000000000001', subscribed: 'Y' }).execute();
    const third = await s.call('wxfanssync', {}, admin);
    ok(third);
    expect(third.data).toMatchObject({ total: 36, added: 1, updated: 1, unsubscribed: 1 });
    const gone = await db
      .selectFrom('wx_followers')
      .select('subscribed')
      .where('openid', '=', 'oGONE000000000000000000000001')
      .executeTakeFirstOrThrow();
    expect(gone.subscribed).toBe('N');
    const fourth = await s.call('wxfanssync', {}, admin);
    expect(fourth.data).toMatchObject({ added: 0, updated: 0, unsubscribed: 0 });
    // the other community's followers are its own
    const admin2 = await s.login('admin2');
    expect((await list({}, admin2)).items.every((f) => f.openid.startsWith('oSBX0002'))).toBe(true);
    const syncs = await db.selectFrom('wx_follower_syncs').select('id').where('rid', '=', 1).execute();
    expect(syncs.length).toBe(4);
  });

  it('binds a follower to the demo owner: his wx_isbind is set; unbinding the last one clears it', async () => {
    const db = s.database.db;
    const owner = await db
      .selectFrom('members')
      .select(['id', 'realname'])
      .where('rid', '=', 1)
      .where('mobile', '=', DEMO_MOBILE)
      .executeTakeFirstOrThrow();
    await db.updateTable('members').set({ wx_isbind: 'N' }).where('rid', '=', 1).where('id', '=', owner.id).execute();
    const free = (await list({ bound: 'N', subscribed: 'Y' })).items;
    const [a, b] = [free[0]!, free[1]!];
    const bound = await s.call('wxfansbind', { id: a.id, member_id: owner.id }, admin);
    ok(bound);
    expect(bound.return_msg).toBe('已绑定业主陈建国');
    expect(bound.data).toMatchObject({ member_id: owner.id, realname: '陈建国', bound: 'Y' });
    expect(bound.data.address).toContain('1101');
    expect(await wxBound(owner.id)).toBe('Y');
    ok(await s.call('wxfansbind', { id: b.id, member_id: owner.id }, admin));
    // bound to him already; to another, it must be unbound first
    const other = await db
      .selectFrom('members')
      .select('id')
      .where('rid', '=', 1)
      .where('id', '<>', owner.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    refused(await s.call('wxfansbind', { id: a.id, member_id: other.id }, admin), '该粉丝已绑定陈建国，请先解绑');
    // one of his two followers goes: he is still bound
    ok(await s.call('wxfansunbind', { id: a.id }, admin));
    expect(await wxBound(owner.id)).toBe('Y');
    refused(await s.call('wxfansunbind', { id: a.id }, admin), '该粉丝未绑定业主');
    const last = await s.call('wxfansunbind', { id: b.id }, admin);
    ok(last);
    expect(last.return_msg).toBe('已解除与陈建国的绑定');
    expect(last.data).toMatchObject({ member_id: null, realname: '', bound: 'N' });
    expect(await wxBound(owner.id)).toBe('N');
  });

  it('refuses to bind one who left, an owner or a follower of another community; keeps a remark', async () => {
    const left = (await list({ subscribed: 'N' })).items[0]!;
    const owner = await s.database.db
      .selectFrom('members')
      .select('id')
      .where('rid', '=', 1)
      .where('mobile', '=', DEMO_MOBILE)
      .executeTakeFirstOrThrow();
    refused(await s.call('wxfansbind', { id: left.id, member_id: owner.id }, admin), '该粉丝已取消关注，不能绑定');
    const fan = (await list({ bound: 'N', subscribed: 'Y' })).items[0]!;
    const theirMember = await s.database.db.selectFrom('members').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow();
    refused(await s.call('wxfansbind', { id: fan.id, member_id: theirMember.id }, admin), '业主不存在');
    const admin2 = await s.login('admin2');
    refused(await s.call('wxfansbind', { id: fan.id, member_id: theirMember.id }, admin2), '粉丝不存在');
    refused(await s.call('wxfansunbind', { id: fan.id }, admin2), '粉丝不存在');
    refused(await s.call('wxfansremark', { id: fan.id, remark: 'x' }, admin2), '粉丝不存在');
    const remarked = await s.call('wxfansremark', { id: fan.id, remark: '1号楼业主的家属' }, admin);
    ok(remarked);
    expect(remarked.data.remark).toBe('1号楼业主的家属');
    // a sync keeps our remark (the platform has it too)
    ok(await s.call('wxfanssync', {}, admin));
    expect((await list({ openid: fan.openid })).items[0]!.remark).toBe('1号楼业主的家属');
    refused(await s.call('wxfansremark', { id: fan.id, remark: 'x'.repeat(31) }, admin), '30');
    refused(await s.call('wxfansbind', { id: 'abc', member_id: owner.id }, admin), 'id');
  });

  it('is card staff’s: others and the merchant account are refused', async () => {
    await s.addAccount('fans_clerk', { roles: ['card'] });
    const clerk = await s.login('fans_clerk');
    ok(await s.call('wxfanslist', {}, clerk));
    ok(await s.call('wxfanssync', {}, clerk));
    const [merchant, cashier] = await s.logins('merchant', 'cashier');
    for (const token of [merchant, cashier]) {
      for (const [method, payload] of [
        ['wxfanslist', {}],
        ['wxfansexport', {}],
        ['wxfanssync', {}],
        ['wxfansbind', { id: 1, member_id: 1 }],
        ['wxfansunbind', { id: 1 }],
        ['wxfansremark', { id: 1, remark: '' }],
      ] as const) {
        expect((await s.call(method, payload, token)).return_code, method).toBe('NO_PERMISSION');
      }
    }
  });
});
