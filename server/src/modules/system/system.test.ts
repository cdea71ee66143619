import { BACKLOG_KIND, enumText, RC, type BacklogItem } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2] = await Promise.all([s.login('admin'), s.login('admin2')]);
});
afterAll(() => s.close());

describe('system info', () => {
  it('answers the community info with days left', async () => {
    const res = await s.call('get_system_info', {}, admin2);
    expect(res.data.items).toMatchObject({
      rid: 2,
      region_title: '翠湖苑',
      days_left: 20,
      time_zone: 'Asia/Shanghai',
      price_per_year: '2400.00',
    });
    expect(res.data.end_time).toBe(res.data.items.end_time);
  });

  it('answers group info on the group side', async () => {
    const leader = await s.login('leader');
    const res = await s.call('get_system_info', {}, leader, 'group');
    expect(res.data.items.region_title).toBe('幸福里物业集团');
  });

  it('lets an admin set its own community info only', async () => {
    const res = await s.call('setsysinfo', { region_img: '/img/plan.png', sub_title: '阳光花园平台' }, admin);
    expect(res).toMatchObject({ return_code: RC.SUCCESS, return_msg: expect.stringMatching(/^保存成功/) });
    expect(res.data.items.region_img).toBe('/img/plan.png');
    const other = await s.call('get_system_info', {}, admin2);
    expect(other.data.items.region_img).toBe('');
  });

  it('refuses bad addresses and empty saves', async () => {
    expect((await s.call('setsysinfo', { logo_url: 'javascript:alert(1)' }, admin)).return_msg).toContain('logo_url');
    expect((await s.call('setsysinfo', {}, admin)).return_msg).toBe('没有需要保存的内容');
  });

  it('answers links, resources and file settings', async () => {
    expect((await s.call('get_common_links', {}, admin)).data.items.length).toBeGreaterThan(0);
    // the other community has none of its own: the group's alone (modules/setup/links.test.ts)
    expect((await s.call('get_common_links', {}, admin2)).data.items.every((i: { scope: string }) => i.scope === 'group')).toBe(true);
    expect((await s.call('get_resources_list', {}, admin)).data.total).toBeGreaterThan(0);
    expect((await s.call('get_file_set', {}, admin)).data.type).toBe('local');
  });
});

describe('backlog', () => {
  // the demo's to-dos: its reminders and what the desk's demo records raised (db/seed.ts)
  const openIn = async (rid: number) =>
    Number(
      (
        await s.database.db
          .selectFrom('backlog')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('rid', '=', rid)
          .where('status', '=', 'E')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("counts the community's open to-dos and marks one done", async () => {
    const open = await openIn(1);
    expect(open).toBeGreaterThan(4);
    const list = await s.call('backlog_list', { status: 'E' }, admin);
    expect(list.data.total).toBe(open);
    const id = list.data.items[0].id;
    expect((await s.call('backlog_done', { id }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('backlog_list', { status: 'E' }, admin)).data.total).toBe(open - 1);
    expect((await s.call('backlog_done', { id }, admin)).return_msg).toBe('待办不存在或已处理');
  });

  it('says what each to-do is about in Chinese, and leads to a page that exists or to none', async () => {
    const items = (await s.call('backlog_list', { status: '', sort: 'asc', limit: 100 }, admin)).data.items as BacklogItem[];
    for (const b of items) expect(b.kind_ch, b.kind).toBe(enumText(BACKLOG_KIND, b.kind));
    // the demo's reminders first, as seeded
    expect(items.slice(0, 3).map((b) => [b.kind_ch, b.link])).toEqual([
      ['退款', '/fees/refundlist'],
      ['收费', '/fees/feebillworkadd'],
      ['其他', ''],
    ]);
    // each of the desk's to-dos opens its record on the desk; an overdue maintenance task, the task
    const kinds = new Set(items.map((b) => b.kind));
    for (const kind of ['repair', 'repairwork', 'complaint', 'internalorder', 'maintain']) expect(kinds).toContain(kind);
    for (const b of items.slice(3))
      expect(b.link).toMatch(
        /^\/(steward\/(repairs|complaintlist|internalorder)|carpark\/(maintaintask|currentexamine_info)|security\/(patrolrecordedit|patrolrecordlist))\?id=\d+$|^\/service\/signup_userlist\?id=\d+&status=R$|^\/carpark\/face_user_synclog$|^\/invoice\/invoicewaitlist\?tab=apply&id=\d+$|^\/crm\/(leaselist|lease_approval_info|crm_show|contract_audit_info|contract_audit|customshow|affair)\?id=\d+$|^\/fees\/refundlist\?id=\d+$/,
      );
  });

  it("cannot see or close another community's to-dos", async () => {
    const ids = (await s.call('backlog_list', { status: '' }, admin)).data.items.map((b: { id: number }) => b.id);
    expect((await s.call('backlog_list', { status: '' }, admin2)).data.total).toBe(await openIn(2));
    expect((await s.call('backlog_done', { id: ids[1] }, admin2)).return_code).toBe(RC.FAIL);
  });

  it('pages 10 at a time sorted by id', async () => {
    const asc = await s.call('backlog_list', { status: '', sort: 'asc' }, admin);
    const desc = await s.call('backlog_list', { status: '', sort: 'desc' }, admin);
    expect(asc.data.items).toHaveLength(10);
    expect(asc.data.items[0].id).toBeLessThan(asc.data.items[9].id);
    expect(desc.data.items[0].id).toBeGreaterThan(desc.data.items[9].id);
    expect(asc.data.items.map((b: { id: number }) => b.id)).not.toContain(desc.data.items[0].id);
    expect((await s.call('backlog_list', { sort: 'sideways' }, admin)).return_code).toBe(RC.FAIL);
  });
});

describe('communities of an account', () => {
  it('lists the communities and switches the session', async () => {
    const list = await s.call('regionlist', {}, admin);
    expect(list.data.items.map((r: { rid: number }) => r.rid)).toEqual([1, 2]);
    expect((await s.call('regionswitch', { rid: 2 }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('get_system_info', {}, admin)).data.items.rid).toBe(2);
    expect((await s.call('regionswitch', { rid: 3 }, admin)).return_msg).toBe('无权进入该小区');
    await s.call('regionswitch', { rid: 1 }, admin);
  });
});
