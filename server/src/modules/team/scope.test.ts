import { RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let leader: string;
let wideRole = 0;
let staffId = 0;

beforeAll(async () => {
  t = await startTestServer();
  [admin, leader] = await t.logins('admin', 'leader');
}, 120000);
afterAll(() => t.close());

const ok = (a: { return_code: string; return_msg: string }) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);

describe('a role for every community of the group', () => {
  it('is set by the group side only', async () => {
    const role = { title: '区域巡查', app: 'web', remark: '各小区巡更', codes: ['security'], scope: 'group' };
    const byCommunity = await t.call('roleadd', role, admin);
    expect(byCommunity.return_msg).toBe('“集团全部小区”的角色只能由集团管理员设置');
    const added = await t.call('roleadd', role, leader, 'group');
    ok(added);
    wideRole = added.data.id;
    const listed = await t.call('rolelist', { keyword: '区域巡查' }, admin);
    expect(listed.data.items[0]).toMatchObject({ scope: 'group', scope_ch: '集团全部小区' });
    // a community may not widen a role either, nor edit a group-wide one
    const own = await t.call('roleadd', { ...role, title: '本小区巡查', scope: 'own' }, admin);
    ok(own);
    const widened = await t.call('roleedit', { ...role, id: own.data.id, title: '本小区巡查' }, admin);
    expect(widened.return_msg).toBe('“集团全部小区”的角色只能由集团管理员设置');
    expect((await t.call('roleedit', { ...role, id: wideRole, remark: '改' }, admin)).return_code).toBe(RC.FAIL);
  });

  it('is handed out by the group side only; a community keeps what the account holds', async () => {
    staffId = await t.addAccount('wide_guard', { roles: [], regions: [1] });
    const assign = (roleIds: number[]) => ({
      id: staffId,
      name: '巡查员',
      mobile: '',
      sys_type: 'property',
      assignments: [{ rid: 1, role_ids: roleIds }],
    });
    const byCommunity = await t.call('staffedit', assign([wideRole]), admin);
    expect(byCommunity.return_msg).toBe('“集团全部小区”的角色只能由集团管理员分配');
    ok(await t.call('staffedit', assign([wideRole]), leader, 'group'));
    // the community's manager edits the account and sends the role back as it was: kept
    ok(await t.call('staffedit', assign([wideRole]), admin));
    const held = await t.database.pool.query(`SELECT rid, role_id FROM account_roles WHERE account_id = $1`, [staffId]);
    expect(held.rows).toEqual([{ rid: 1, role_id: wideRole }]);
  });

  it('lets its holder enter every community of the group, with the role there', async () => {
    const token = await t.login('wide_guard');
    const regions = await t.call('regionlist', {}, token);
    const rids = (regions.data.items as Array<{ rid: number }>).map((r) => r.rid);
    const { rows } = await t.database.pool.query(`SELECT id FROM regions WHERE group_id = 1 ORDER BY id`);
    expect([...rids].sort((a, b) => a - b)).toEqual(rows.map((r) => Number(r.id)));
    // its assigned community first
    expect(rids[0]).toBe(1);
    ok(await t.call('regionswitch', { rid: 2 }, token));
    const info = await t.call('userinfo', {}, token);
    expect(info.data.roles).toContain('security');
    const access = await t.call('staffaccess', { id: staffId }, leader, 'group');
    const second = (access.data.regions as Array<{ rid: number; pages: Array<{ code: string; via: string[] }> }>).find((r) => r.rid === 2);
    expect(second?.pages.find((p) => p.code === 'security')?.via).toEqual(['区域巡查（集团全部小区）']);
  });

  it('ends with the role: disabled, its holder is back to its own communities', async () => {
    const open = await t.login('wide_guard');
    ok(await t.call('regionswitch', { rid: 2 }, open));
    ok(
      await t.call(
        'roleedit',
        { id: wideRole, title: '区域巡查', app: 'web', remark: '', codes: ['security'], scope: 'group', status: 'N' },
        leader,
        'group',
      ),
    );
    const token = await t.login('wide_guard');
    const regions = await t.call('regionlist', {}, token);
    expect((regions.data.items as Array<{ rid: number }>).map((r) => r.rid)).toEqual([1]);
    expect((await t.call('regionswitch', { rid: 2 }, token)).return_msg).toBe('无权进入该小区');
    // the session open in the community it lost is refused on its next call
    expect((await t.call('regionlist', {}, open)).return_code).toBe(RC.ILLEGAL_TOKEN);
  });
});
