import { RC, schedule, shift } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { isOnDuty, whoIsOnDuty } from './duty.js';

let s: TestServer;
let admin: string;
let admin2: string;
let guard: string;
let guardId: number;
let techId: number;

const ok = (a: { return_code: string; return_msg: string }) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(a.return_code).toBe(RC.FAIL);
  expect(a.return_msg).toMatch(msg);
};
const accountId = async (username: string) =>
  (await s.database.db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, guard] = await s.logins('admin', 'admin2', 'guard');
  guardId = await accountId('guard');
  techId = await accountId('tech');
  // the demo's rosters (seed-roster.ts) take effect this month: these tests build and read their own
  await s.database.db.deleteFrom('schedules').where('rid', '=', 1).execute();
});
afterAll(() => s?.close());

let n = 0;
async function addShift(name: string, times: string, token = admin): Promise<number> {
  const res = await s.call('dutyshiftadd', { name, times }, token);
  ok(res);
  return res.data.id;
}
/** Monday to Saturday on `shiftId`, Sunday rest. */
const sundayRest = (shiftId: number) => [shiftId, shiftId, shiftId, shiftId, shiftId, shiftId, null];
const weekly = (staff: number[], days: Array<number | null>, more: Record<string, unknown> = {}) => ({
  name: `周排班${++n}`,
  kind: 'W',
  cycle: 1,
  start_date: '2026-11-02',
  days,
  staff_ids: staff,
  ...more,
});
/** An instant of the business time zone (Asia/Shanghai). */
const cst = (wire: string) => new Date(`${wire.replace(' ', 'T')}+08:00`);

describeResource(shift, {
  server: () => s,
  sample: { name: '测试班', times: '8:00-12:00，14:00-18:00', status: 'Y', remark: '试用' },
  edit: { name: '测试班二', times: '09:00-17:00', status: 'N' },
  filters: { name: '测试', status: 'Y' },
  deniedWriter: 'guard',
  unique: ['name'],
});

describeResource(schedule, {
  server: () => s,
  async sample(srv, token) {
    const res = await srv.call('dutyshiftadd', { name: '资源测试班', times: '08:00-18:00' }, token);
    ok(res);
    const staff = (await srv.call('schedule_staff_small_list', {}, token)).data.items as Array<{ id: number }>;
    return {
      name: '资源测试排班',
      kind: 'D',
      cycle: 2,
      start_date: '2026-12-01',
      days: [res.data.id, null],
      staff_ids: [staff[0]!.id],
      status: 'Y',
      remark: '',
    };
  },
  edit: { name: '资源测试排班二', status: 'N', remark: '改为停用' },
  filters: { name: '资源测试', kind: 'D', status: 'Y' },
  deniedWriter: 'guard',
  unique: ['name'],
});

describe('the demo', () => {
  it('has two rosters and three shifts in 阳光花园', async () => {
    const fresh = await startTestServer();
    try {
      const token = await fresh.login('admin');
      const rosters = (await fresh.call('schedulelist', {}, token)).data;
      expect(rosters.items.map((r: { name: string }) => r.name).sort()).toEqual(['保安周排班', '工程值班轮班']);
      expect((await fresh.call('dutyshiftlist', {}, token)).data.total).toBe(3);
      const grid = (await fresh.call('schedulegrid', { month: today().slice(0, 7) }, token)).data;
      expect(grid.items.map((r: { name: string }) => r.name).sort()).toEqual(['周保安', '孙师傅', '钱管家'].sort());
    } finally {
      await fresh.close();
    }
  });
});

describe('shifts', () => {
  it('writes the times canonically and refuses bad ones in Chinese, changing nothing', async () => {
    const id = await addShift('早班', '7:00~15:00');
    const row = (await s.call('dutyshiftlist', { name: '早班' }, admin)).data.items[0];
    expect(row).toMatchObject({ id, times: '07:00-15:00', roster_count: 0 });
    const before = (await s.call('dutyshiftlist', { limit: 200 }, admin)).data.total;
    refused(await s.call('dutyshiftadd', { name: '坏班', times: '8点到18点' }, admin), '格式不正确');
    refused(await s.call('dutyshiftadd', { name: '坏班', times: '08:00-12:00,11:00-13:00' }, admin), '不能重叠');
    refused(await s.call('dutyshiftadd', { name: '', times: '08:00-12:00' }, admin), '请输入班次名称');
    expect((await s.call('dutyshiftlist', { limit: 200 }, admin)).data.total).toBe(before);
  });

  it('the guard (security) reads shifts and rosters but cannot change them', async () => {
    ok(await s.call('dutyshiftlist', {}, guard));
    ok(await s.call('schedulelist', {}, guard));
    ok(await s.call('schedulegrid', { month: '2026-11' }, guard));
    expect((await s.call('dutyshiftadd', { name: '保安自建', times: '08:00-18:00' }, guard)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('scheduleadd', weekly([guardId], [null, null, null, null, null, null, null]), guard)).return_code).toBe(
      'NO_PERMISSION',
    );
  });
});

describe('rosters: the guard rests on Sundays', () => {
  let dayShift: number;
  let rosterId: number;

  it('builds a weekly roster for the guard and answers its details', async () => {
    dayShift = await addShift('保安白班', '08:00-20:00');
    const res = await s.call('scheduleadd', weekly([guardId], sundayRest(dayShift), { name: '保安周排班' }), admin);
    ok(res);
    rosterId = res.data.id;
    const info = await s.call('scheduleinfo', { id: rosterId }, admin);
    ok(info);
    expect(info.data).toMatchObject({ name: '保安周排班', kind: 'W', kind_ch: '按周', cycle: 1, start_date: '2026-11-02', staff_count: 1 });
    expect(info.data.days).toEqual(sundayRest(dayShift));
    expect(info.data.staff_ids).toEqual([guardId]);
    expect(info.data.staff_names).toBe('周保安');
    const listed = (await s.call('schedulelist', { name: '保安周排班' }, admin)).data.items[0];
    expect(listed).toMatchObject({ id: rosterId, staff_count: 1, kind_ch: '按周' });
    expect((await s.call('dutyshiftlist', { name: '保安白班' }, admin)).data.items[0].roster_count).toBe(1);
  });

  it('isOnDuty: on a Saturday morning yes, on Sunday no, after the shift no', async () => {
    const db = s.database.db;
    expect(await isOnDuty(db, 1, guardId, cst('2026-11-28 09:00:00'))).toBe(true);
    expect(await isOnDuty(db, 1, guardId, cst('2026-11-29 09:00:00'))).toBe(false);
    expect(await isOnDuty(db, 1, guardId, cst('2026-11-30 08:00:00'))).toBe(true);
    expect(await isOnDuty(db, 1, guardId, cst('2026-11-30 20:00:00'))).toBe(false);
    // before the effective date, and in another community
    expect(await isOnDuty(db, 1, guardId, cst('2026-11-01 09:00:00'))).toBe(false);
    expect(await isOnDuty(db, 2, guardId, cst('2026-11-28 09:00:00'))).toBe(false);
    const saturday = await whoIsOnDuty(db, 1, cst('2026-11-28 09:00:00'));
    expect(saturday.find((d) => d.account_id === guardId)).toMatchObject({ shift_name: '保安白班', day: '2026-11-28' });
    expect((await whoIsOnDuty(db, 1, cst('2026-11-29 09:00:00'))).some((d) => d.account_id === guardId)).toBe(false);
  });

  it('the month grid shows 休 on every Sunday and the shift on other days', async () => {
    const grid = await s.call('schedulegrid', { month: '2026-11', account_id: guardId }, admin);
    ok(grid);
    expect(grid.data.days).toHaveLength(30);
    const row = grid.data.items.find((r: { account_id: number }) => r.account_id === guardId);
    expect(row.name).toBe('周保安');
    expect(row.schedules).toBe('保安周排班');
    grid.data.days.forEach((d: { weekday: number; date: string }, i: number) => {
      const cell = row.cells[i];
      if (d.date < '2026-11-02') expect(cell.state, d.date).toBe('none');
      else if (d.weekday === 6) expect(cell, d.date).toMatchObject({ state: 'rest', text: '休' });
      else expect(cell, d.date).toMatchObject({ state: 'work', text: '保安白班', times: '08:00-20:00' });
    });
    expect(row.rest_days).toBe(4);
    expect(row.work_days).toBe(25);
    expect(grid.data.shifts).toEqual([{ id: dayShift, name: '保安白班', times: '08:00-20:00' }]);
    // filters: another roster's id leaves the guard out
    const other = await s.call('schedulegrid', { month: '2026-11', schedule_id: rosterId + 1000 }, admin);
    expect(other.data.items).toEqual([]);
    refused(await s.call('schedulegrid', { month: '2026-13' }, admin), '月份格式');
  });

  it('exports the month as a job: one row per staff member, 休 on Sundays', async () => {
    const file = await s.exportFile('scheduleexport', { month: '2026-11', account_id: guardId }, admin);
    ok(file);
    expect(file.data.filename).toBe('排班表_2026-11.xlsx');
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers.slice(0, 3)).toEqual(['姓名', '部门', '1(日)']);
    const guardRow = sheet.rows.find((r) => r.values['姓名'] === '周保安')!.values;
    expect(guardRow['29(日)']).toBe('休');
    expect(guardRow['28(六)']).toBe('保安白班');
    expect(guardRow['休息天数']).toBe('4');
  });

  it('a later roster takes over from its effective date', async () => {
    const night = await addShift('保安夜班', '20:00-08:00');
    const res = await s.call(
      'scheduleadd',
      weekly([guardId], [night, night, night, night, night, null, null], { name: '保安十二月', start_date: '2026-12-01' }),
      admin,
    );
    ok(res);
    const db = s.database.db;
    // Tuesday 1 December 23:00 on the night shift, Wednesday 07:00 still that night, 10:00 off
    expect(await isOnDuty(db, 1, guardId, cst('2026-12-01 23:00:00'))).toBe(true);
    expect(await isOnDuty(db, 1, guardId, cst('2026-12-02 07:00:00'))).toBe(true);
    expect(await isOnDuty(db, 1, guardId, cst('2026-12-02 10:00:00'))).toBe(false);
    // Saturday 5 December 07:00 ends Friday's night; Sunday 6 December 07:00 follows a rest
    expect(await isOnDuty(db, 1, guardId, cst('2026-12-05 07:00:00'))).toBe(true);
    expect(await isOnDuty(db, 1, guardId, cst('2026-12-06 07:00:00'))).toBe(false);
    // the November grid is unchanged; disabling the December roster brings the old one back
    ok(
      await s.call(
        'scheduleedit',
        {
          id: res.data.id,
          ...weekly([guardId], [night, night, night, night, night, null, null], {
            name: '保安十二月',
            start_date: '2026-12-01',
            status: 'N',
          }),
        },
        admin,
      ),
    );
    expect(await isOnDuty(db, 1, guardId, cst('2026-12-02 10:00:00'))).toBe(true);
    ok(await s.call('scheduledel', { id: res.data.id }, admin));
  });

  it('refuses a shift in use, and deletes it once no roster names it', async () => {
    refused(await s.call('dutyshiftdel', { id: dayShift }, admin), '该班次已用在排班中');
    ok(await s.call('scheduledel', { id: rosterId }, admin));
    expect(await isOnDuty(s.database.db, 1, guardId, cst('2026-11-28 09:00:00'))).toBe(false);
    ok(await s.call('dutyshiftdel', { id: dayShift }, admin));
  });
});

describe('rosters: what is refused', () => {
  let shiftId: number;
  let theirShift: number;
  let theirStaff: number;

  beforeAll(async () => {
    shiftId = await addShift('校验班', '08:00-17:00');
    theirShift = await addShift('别的小区班次', '08:00-17:00', admin2);
    theirStaff = await accountId('admin2');
  });

  const count = async () => (await s.call('schedulelist', { limit: 200 }, admin)).data.total as number;

  it('refuses bad payloads with a clear message and changes nothing', async () => {
    const before = await count();
    refused(await s.call('scheduleadd', weekly([guardId], [shiftId, null]), admin), '天数与排班类型和周期不一致');
    refused(await s.call('scheduleadd', weekly([guardId], [null, null, null, null, null, null, null]), admin), '至少要有一天上班');
    refused(await s.call('scheduleadd', weekly([], sundayRest(shiftId)), admin), '请选择排班人员');
    refused(
      await s.call('scheduleadd', weekly([guardId], sundayRest(shiftId), { cycle: 5, days: Array(35).fill(shiftId) }), admin),
      '1 到 4 周',
    );
    refused(await s.call('scheduleadd', weekly([guardId], sundayRest(shiftId), { start_date: '2026-02-30' }), admin), '日期不存在');
    refused(await s.call('scheduleadd', weekly([guardId], sundayRest(shiftId), { kind: 'X' }), admin), '请选择排班类型');
    // a monthly roster has 31 days whatever its cycle says
    ok(await s.call('scheduleadd', { ...weekly([guardId], Array(31).fill(shiftId)), kind: 'M', cycle: 7 }, admin));
    expect(await count()).toBe(before + 1);
    const monthly = (await s.call('schedulelist', { kind: 'M' }, admin)).data.items[0];
    ok(await s.call('scheduledel', { id: monthly.id }, admin));
    expect(await count()).toBe(before);
  });

  it("refuses another community's shift or staff, and a disabled shift", async () => {
    const before = await count();
    refused(await s.call('scheduleadd', weekly([guardId], sundayRest(theirShift)), admin), '所选班次不存在或不属于当前小区');
    refused(await s.call('scheduleadd', weekly([theirStaff], sundayRest(shiftId)), admin), '所选人员不存在、已停用或不在当前小区');
    const off = await addShift('停用的班', '08:00-17:00');
    ok(await s.call('dutyshiftedit', { id: off, name: '停用的班', times: '08:00-17:00', status: 'N', remark: '' }, admin));
    refused(await s.call('scheduleadd', weekly([guardId], sundayRest(off)), admin), '已停用');
    expect(await count()).toBe(before);
  });

  it('refuses the same staff member on two enabled rosters taking effect the same day', async () => {
    const first = await s.call('scheduleadd', weekly([techId], sundayRest(shiftId), { name: '维修排班' }), admin);
    ok(first);
    refused(
      await s.call('scheduleadd', weekly([techId, guardId], sundayRest(shiftId), { name: '维修排班二' }), admin),
      '孙师傅已在排班“维修排班”中',
    );
    refused(
      await s.call('scheduleadd', weekly([techId], sundayRest(shiftId), { name: '维修排班', start_date: '2026-12-07' }), admin),
      '已存在',
    );
    // disabled, or from another day, it may
    ok(await s.call('scheduleadd', weekly([techId], sundayRest(shiftId), { name: '维修排班三', status: 'N' }), admin));
    ok(await s.call('scheduleadd', weekly([techId], sundayRest(shiftId), { name: '维修排班四', start_date: '2026-12-07' }), admin));
  });

  it("keeps another community's roster out of reach", async () => {
    const theirs = await s.call('scheduleadd', weekly([theirStaff], sundayRest(theirShift), { name: '别的小区排班' }), admin2);
    ok(theirs);
    refused(await s.call('scheduleinfo', { id: theirs.data.id }, admin), '排班不存在');
    refused(await s.call('scheduleedit', { id: theirs.data.id, ...weekly([guardId], sundayRest(shiftId)) }, admin), '排班不存在');
    refused(await s.call('scheduledel', { id: theirs.data.id }, admin), '排班不存在');
    refused(await s.call('dutyshiftdel', { id: theirShift }, admin), '班次不存在');
    expect(
      (await s.call('schedulegrid', { month: '2026-11' }, admin)).data.items.some(
        (r: { account_id: number }) => r.account_id === theirStaff,
      ),
    ).toBe(false);
    ok(await s.call('scheduleinfo', { id: theirs.data.id }, admin2));
  });
});
