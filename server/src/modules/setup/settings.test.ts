import { RC, DAILY_SETTINGS, type DailySettingItem } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { dailySetting } from './daily.js';
import { otherGroupLeader } from '../../test/describeResource.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier] = await Promise.all([s.login('admin'), s.login('admin2'), s.login('cashier')]);
});
afterAll(() => s.close());

const lastAudit = async (method: string, token: string, side?: 'group') => {
  const res = await s.call('operationloglist', { action: method, limit: 1, sort: 'desc' }, token, side);
  return res.data.items[0] as { message: string; result: string } | undefined;
};

describe('setsys', () => {
  it('answers the stored settings to a setup holder only', async () => {
    const res = await s.call('sysinfo', {}, admin);
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data).toMatchObject({ title: '阳光花园' });
    expect(typeof res.data.area).toBe('string');
    expect((await s.call('sysinfo', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    // a staff member holding 系统设置 (setup) alone reads and saves it
    await s.addAccount('setup1', { roles: ['setup'] });
    const setup = await s.login('setup1');
    expect((await s.call('sysinfo', {}, setup)).data.title).toBe('阳光花园');
    expect((await s.call('setdailylist', {}, setup)).return_code).toBe(RC.SUCCESS);
  });

  it('saves a tab, answers the new system info and logs each change as old → new', async () => {
    const before = (await s.call('sysinfo', {}, admin)).data;
    const res = await s.call(
      'setsysinfo',
      { system_title: '幸福里物业云', copyright: '© 2026 幸福里物业', short_title: '幸福里', company_name: before.company_name },
      admin,
    );
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.return_msg).toContain(`系统标题：${before.system_title} → 幸福里物业云`);
    expect(res.return_msg).toContain(`版权信息：${before.copyright || '（空）'} → © 2026 幸福里物业`);
    // a field sent unchanged is not listed
    expect(res.return_msg).not.toContain('公司名称');
    expect(res.data.items).toMatchObject({ system_title: '幸福里物业云', copyright: '© 2026 幸福里物业', short_title: '幸福里' });
    const log = await lastAudit('setsysinfo', admin);
    expect(log?.message).toContain(`系统标题：${before.system_title} → 幸福里物业云`);
    // every user of the community reads it through get_system_info
    expect((await s.call('get_system_info', {}, cashier)).data.items).toMatchObject({ copyright: '© 2026 幸福里物业' });
    // the other community is untouched
    expect((await s.call('get_system_info', {}, admin2)).data.items.copyright).not.toBe('© 2026 幸福里物业');
  });

  it('saves the download addresses and the community details', async () => {
    const res = await s.call(
      'setsysinfo',
      { wxapp_qrcodes: '/img/wxapp.png', map_point: '120.15507,30.274084', area: '52000.5', phone: '0571-88886666' },
      admin,
    );
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data.items.wxapp_qrcodes).toBe('/img/wxapp.png');
    const stored = (await s.call('sysinfo', {}, admin)).data;
    expect(stored).toMatchObject({ map_point: '120.15507,30.274084', area: '52000.50', phone: '0571-88886666' });
    // 52000.5 and 52000.50 are the same area: nothing changed
    expect((await s.call('setsysinfo', { area: '52000.50' }, admin)).return_msg).toBe('保存成功（没有改动）');
  });

  it('refuses bad values, a taken community name and other roles, changing nothing', async () => {
    const before = (await s.call('sysinfo', {}, admin)).data;
    const bad = [
      { map_point: '200,10' },
      { map_point: '北京' },
      { area: '-1' },
      { phone: 'abc' },
      { service_qr: 'javascript:alert(1)' },
      { title: '' },
      { system_title: 'x'.repeat(65) },
    ];
    for (const payload of bad) {
      const res = await s.call('setsysinfo', payload, admin);
      expect(res.return_code, JSON.stringify(payload)).toBe(RC.FAIL);
    }
    const other = (await s.call('sysinfo', {}, admin2)).data.title;
    const dup = await s.call('setsysinfo', { title: other, copyright: 'changed' }, admin);
    expect(dup).toMatchObject({ return_code: RC.FAIL, return_msg: `小区名称“${other}”已存在` });
    expect((await s.call('setsysinfo', { copyright: 'x' }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('sysinfo', {}, admin)).data).toEqual(before);
  });
});

describe('the group defaults of setsys', () => {
  const info = async (token: string, side?: 'group') =>
    (await s.call('get_system_info', {}, token, side)).data.items as Record<string, string>;

  it('the group sets them, a community that sets nothing follows them, one with its own keeps it', async () => {
    const leader = await s.login('leader');
    const before = (await s.call('groupsysinfo', {}, leader, 'group')).data as Record<string, string>;
    const res = await s.call(
      'setgroupsysinfo',
      { system_title: '幸福里集团物业云', logo_url: '/img/group-logo.png', help_work_url: 'https://help.example.com/wuye' },
      leader,
      'group',
    );
    expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
    expect(res.return_msg).toContain(`系统标题：${before.system_title || '（空）'} → 幸福里集团物业云`);
    expect(res.data).toMatchObject({ system_title: '幸福里集团物业云', logo_url: '/img/group-logo.png' });
    expect((await lastAudit('setgroupsysinfo', leader, 'group'))?.message).toContain('帮助文档地址');
    // 翠湖苑 has no title, logo or help of its own: it shows the group's, to every user
    expect(await info(admin2)).toMatchObject({
      system_title: '幸福里集团物业云',
      logo_url: '/img/group-logo.png',
      help_work_url: 'https://help.example.com/wuye',
    });
    // 阳光花园 keeps its own title and help, and takes the logo it lacks
    const stored = (await s.call('sysinfo', {}, admin)).data as Record<string, string>;
    expect(stored.system_title).not.toBe('');
    const own = await info(cashier);
    expect(own).toMatchObject({
      system_title: stored.system_title,
      help_work_url: '/updatelog/updatelog',
      logo_url: '/img/group-logo.png',
    });
    // the sidebar's subtitle and the floor plan are each community's own
    expect((await info(admin2)).sub_title).toBe('翠湖苑物业管理平台');
    // the group side's shell shows them too
    expect(await info(leader, 'group')).toMatchObject({ system_title: '幸福里集团物业云' });
    // the community's page reads the group's defaults, to explain its empty fields
    expect((await s.call('groupsysinfo', {}, admin)).data.system_title).toBe('幸福里集团物业云');
    // clearing its own returns the community to the group's
    await s.call('setsysinfo', { system_title: '' }, admin);
    expect((await info(cashier)).system_title).toBe('幸福里集团物业云');
    await s.call('setsysinfo', { system_title: own.system_title }, admin);
    // saving the same again changes nothing
    expect((await s.call('setgroupsysinfo', { system_title: '幸福里集团物业云' }, leader, 'group')).return_msg).toBe(
      '保存成功（没有改动）',
    );
  });

  it('refuses bad values, an empty save, the community side and other groups, changing nothing', async () => {
    const leader = await s.login('leader');
    const before = (await s.call('groupsysinfo', {}, leader, 'group')).data;
    for (const payload of [{ logo_url: 'javascript:alert(1)' }, { system_title: 'x'.repeat(65) }, {}]) {
      const res = await s.call('setgroupsysinfo', payload, leader, 'group');
      expect(res.return_code, JSON.stringify(payload)).toBe(RC.FAIL);
    }
    expect((await s.call('setgroupsysinfo', {}, leader, 'group')).return_msg).toBe('没有需要保存的内容');
    // a community's admin sets its own, not the group's; a cashier reads neither
    expect((await s.call('setgroupsysinfo', { copyright: 'x' }, admin)).return_code).not.toBe(RC.SUCCESS);
    expect((await s.call('groupsysinfo', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    // another group's head office has its own defaults and cannot touch these
    const other = await otherGroupLeader(s);
    expect((await s.call('groupsysinfo', {}, other, 'group')).data.system_title).toBe('');
    expect((await s.call('setgroupsysinfo', { system_title: '别家物业' }, other, 'group')).return_code).toBe(RC.SUCCESS);
    expect((await s.call('groupsysinfo', {}, leader, 'group')).data).toEqual(before);
    expect((await info(admin2)).system_title).not.toBe('别家物业');
  });
});

describe('setdaily', () => {
  const item = (items: DailySettingItem[], key: string) => items.find((i) => i.key === key)!;

  it('lists every switch of the catalogue with its default', async () => {
    const res = await s.call('setdailylist', {}, admin);
    expect(res.data.items.map((i: DailySettingItem) => i.key)).toEqual(Object.keys(DAILY_SETTINGS));
    // the demo community changed a few (seed.ts)
    expect(item(res.data.items, 'visitor_review')).toMatchObject({
      type: 'boolean',
      value: true,
      default: false,
      changed: 'Y',
      area: '访客',
    });
    expect(item(res.data.items, 'visitor_daily_max')).toMatchObject({ type: 'number', value: 10, default: 10, changed: 'N', unit: '人' });
    expect(item(res.data.items, 'repair_dispatch_mode').options).toContainEqual({ value: 'grab', label: '抢单' });
    expect((await s.call('setdailylist', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('saves typed values per community, read by the typed accessor, and logs the change', async () => {
    const res = await s.call(
      'setdailyedit',
      { values: { visitor_review: false, repair_finish_hours: 72, repair_dispatch_mode: 'round', fees_receipt_note: '开户行：工商银行' } },
      admin,
    );
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.return_msg).toContain('访客登记需审核：开 → 关');
    expect(res.return_msg).toContain('处理时限：48小时 → 72小时');
    expect(res.return_msg).toContain('派单方式：指派 → 轮询');
    // back to its default: the community's own row is gone
    expect(item(res.data.items, 'visitor_review')).toMatchObject({ value: false, changed: 'N' });
    expect(item(res.data.items, 'repair_finish_hours')).toMatchObject({ value: 72, changed: 'Y' });
    expect((await lastAudit('setdailyedit', admin))?.message).toContain('派单方式：指派 → 轮询');

    const visitor: boolean = await dailySetting(s.database.db, 1, 'visitor_review');
    const hours: number = await dailySetting(s.database.db, 1, 'repair_finish_hours');
    const mode: 'grab' | 'assign' | 'round' = await dailySetting(s.database.db, 1, 'repair_dispatch_mode');
    expect([visitor, hours, mode]).toEqual([false, 72, 'round']);
    // the other community keeps its own (the demo's 抢单) and the defaults
    expect(await dailySetting(s.database.db, 2, 'repair_dispatch_mode')).toBe('grab');
    expect(await dailySetting(s.database.db, 2, 'repair_finish_hours')).toBe(24);
    expect(item((await s.call('setdailylist', {}, admin2)).data.items, 'repair_finish_hours').value).toBe(24);
  });

  it('a value equal to the default, or a reset, goes back to the default', async () => {
    await s.call('setdailyedit', { values: { visitor_daily_max: 5, notice_read_receipt: false } }, admin);
    const back = await s.call('setdailyedit', { values: { visitor_daily_max: 10 } }, admin);
    expect(item(back.data.items, 'visitor_daily_max')).toMatchObject({ value: 10, changed: 'N' });
    const reset = await s.call('setdailyreset', { keys: ['notice_read_receipt'] }, admin);
    expect(reset.return_msg).toContain('新公告默认需要回执：关 → 开');
    expect(item(reset.data.items, 'notice_read_receipt')).toMatchObject({ value: true, changed: 'N' });
    expect(await dailySetting(s.database.db, 1, 'notice_read_receipt')).toBe(true);
  });

  it('refuses unknown keys, wrong types, out-of-range values and other roles, changing nothing', async () => {
    const before = (await s.call('setdailylist', {}, admin)).data.items;
    const bad = [
      { values: {} },
      { values: { no_such_key: true } },
      { values: { visitor_review: 'Y' } },
      { values: { repair_finish_hours: 0 } },
      { values: { repair_finish_hours: 1.5 } },
      { values: { repair_dispatch_mode: 'random' } },
      { values: { fees_receipt_note: 'x'.repeat(201) } },
      { values: { visitor_review: false, repair_finish_hours: 9999 } },
    ];
    for (const payload of bad) {
      const res = await s.call('setdailyedit', payload, admin);
      expect(res.return_code, JSON.stringify(payload)).toBe(RC.FAIL);
    }
    expect((await s.call('setdailyedit', { values: { repair_finish_hours: 0 } }, admin)).return_msg).toContain('处理时限不能小于1');
    expect((await s.call('setdailyreset', { keys: [] }, admin)).return_code).toBe(RC.FAIL);
    expect((await s.call('setdailyreset', { keys: ['nope'] }, admin)).return_code).toBe(RC.FAIL);
    expect((await s.call('setdailyedit', { values: { visitor_review: false } }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('setdailylist', {}, admin)).data.items).toEqual(before);
  });
});
