import { formatWireTime, METER_IMPORT_HEADERS, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { ok } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { workbookBase64 } from '../../test/workbook.js';

type Row = Record<string, any>;

let s: TestServer;
let staff: string;
/** the device administrator (devicelist), who imports */
let importer: string;
let admin2: string;
let cashier: string;
let room: { hid: number; building: string; unit: string; title: string };
let other: { building: string; unit: string; title: string };
let waterItem: string;

beforeAll(async () => {
  s = await startTestServer();
  [staff, importer, admin2, cashier] = await s.logins('parking', 'tech', 'admin2', 'cashier');
  const rooms = await s.database.db
    .selectFrom('rooms as r')
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .select(['r.id', 'r.title', 'u.title as unit', 'b.title as building'])
    .where('r.rid', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('meters as m').select('m.id').whereRef('m.rid', '=', 'r.rid').whereRef('m.hid', '=', 'r.id'))),
    )
    .orderBy('r.id', 'desc')
    .limit(2)
    .execute();
  room = { hid: Number(rooms[0]!.id), building: rooms[0]!.building, unit: rooms[0]!.unit, title: rooms[0]!.title };
  other = { building: rooms[1]!.building, unit: rooms[1]!.unit, title: rooms[1]!.title };
  waterItem = (
    await s.database.db
      .selectFrom('fee_items')
      .select('title')
      .where('rid', '=', 1)
      .where('pricing', '=', 'meter')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).title;
  ok(await s.call('metergatewayadd', { code: 'IMP-DTU', title: '导入测试采集器', protocol: '4G' }, staff));
  ok(await s.call('meterplanadd', { title: '导入测试电价', kind: 'power', tiers: [{ upto: null, price: '0.6' }] }, staff));
  ok(await s.call('meterplanadd', { title: '导入测试水价', kind: 'water', tiers: [{ upto: null, price: '4.2' }] }, staff));
  // the meters imported at zero credit keep their valves open whatever the hour: the arrears duty,
  // which a drain of the jobs may run, closes valves only in the hours the settings allow
  const hour = Number(formatWireTime(new Date()).slice(11, 13));
  ok(await s.call('metersettingsset', hour < 12 ? { close_from: 22, close_to: 23 } : { close_from: 2, close_to: 3 }, staff));
  // community 2's own gateway: its code means nothing in community 1
  ok(await s.call('metergatewayadd', { code: 'OTHER-DTU', title: '别的小区采集器', protocol: '4G' }, admin2));
});
afterAll(() => s?.close());

const workbook = (rows: Array<Array<string | number>>) => workbookBase64(METER_IMPORT_HEADERS, rows, '表计');

async function importRows(rows: Array<Array<string | number>>, token = importer) {
  const res = await s.call('meterimport', { filename: 'meters.xlsx', file_base64: await workbook(rows) }, token);
  expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
  await s.runJobs();
  const job = ok(await s.call('jobinfo', { id: res.data.job_id }, token)) as Row;
  return { jobId: res.data.job_id as number, job };
}

const meterCount = async () =>
  Number(
    (
      await s.database.db
        .selectFrom('meters')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('rid', '=', 1)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the meters’ import', () => {
  it('answers the template with the community’s gateway and plan as the example', async () => {
    const res = ok(await s.call('meterimporttemplate', {}, importer)) as Row;
    const sheet = await readXlsx(res.content_base64);
    expect(sheet.headers).toEqual([...METER_IMPORT_HEADERS]);
    expect(res.filename).toBe('表计导入模板.xlsx');
  });

  it('imports meters for rooms and unbound ones, with the room’s alarm threshold, in one go', async () => {
    const before = await meterCount();
    const { job } = await importRows([
      ['IMP-E-1', '电表', '预付费', room.building, room.unit, room.title, 'IMP-DTU', '导入测试电价', '模拟表计平台', '12.5', '25', ''],
      ['IMP-W-1', '水表', '抄表计费', room.building, room.unit, room.title, 'IMP-DTU', '导入测试水价', '', '3', '25', waterItem],
      ['IMP-E-2', '电表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '', '', ''],
    ]);
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({ meters: 3, bound: 2, alarms: 1, errors: [] });
    expect(await meterCount()).toBe(before + 3);
    const list = ok(await s.call('meterlist', { meter_no: 'IMP-' }, staff)).items as Row[];
    const e1 = list.find((m) => m.meter_no === 'IMP-E-1')!;
    expect(e1).toMatchObject({ kind: 'power', mode: 'prepaid', hid: room.hid, reading: '12.50', balance: '0.00', valve: 'open' });
    expect(list.find((m) => m.meter_no === 'IMP-W-1')).toMatchObject({ mode: 'read', item_title: waterItem, reading: '3.00' });
    expect(list.find((m) => m.meter_no === 'IMP-E-2')).toMatchObject({ hid: null, address: '' });
    const house = (ok(await s.call('meterhouselist', { keyword: room.title }, staff)).items as Row[]).find((h) => h.hid === room.hid);
    expect(house).toMatchObject({ alarm_threshold: '25.00', meters: 2 });
    // the first reading after it counts from the initial reading
    const r = ok(await s.call('meterrecordadd', { meter_id: e1.id, value: '20' }, staff)) as Row;
    expect(r).toMatchObject({ usage: '7.50', amount: '4.50' });
  });

  it('refuses the whole file for any bad row, with each row’s reason in Chinese', async () => {
    const before = await meterCount();
    const { job, jobId } = await importRows([
      ['IMP-OK-1', '电表', '预付费', other.building, other.unit, other.title, 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-E-1', '电表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-DUP', '电表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-DUP', '电表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-R', '电表', '预付费', '99号楼', '1单元', '101', 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-G', '电表', '预付费', '', '', '', 'NO-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-P', '电表', '预付费', '', '', '', 'IMP-DTU', '没有的方案', '', '0', '', ''],
      ['IMP-K', '水表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-N', '电表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '-3', '', ''],
      ['IMP-A', '电表', '预付费', '', '', '', 'IMP-DTU', '导入测试电价', '', '0', 'abc', ''],
      ['IMP-M', '电表', '月结', '', '', '', 'IMP-DTU', '导入测试电价', '', '0', '', ''],
      ['IMP-I', '水表', '抄表计费', '', '', '', 'IMP-DTU', '导入测试水价', '', '0', '', ''],
    ]);
    expect(job.status).toBe('done');
    const errors = (job.result as { errors: Row[] }).errors;
    const reason = (row: number) => errors.filter((e) => e.row === row).map((e) => e.reason);
    expect(errors.some((e) => e.row === 2)).toBe(false);
    expect(reason(3)).toEqual(['表号 IMP-E-1 已存在']);
    expect(reason(5)).toEqual(['与第 4 行的表号重复']);
    expect(reason(6)).toEqual(['房屋 99号楼1单元101 不存在']);
    expect(reason(7)).toEqual(['采集器 NO-DTU 不存在']);
    expect(reason(8)).toEqual(['单价方案“没有的方案”不存在']);
    expect(reason(9)).toEqual(['单价方案“导入测试电价”是电表的方案，与表类型不一致']);
    expect(reason(10)).toEqual(['初始读数应为不小于 0、最多两位小数的数字']);
    expect(reason(11)).toEqual(['预警金额应为 0 到 100000 的金额，最多两位小数']);
    expect(reason(12)).toEqual(['计费模式应为 预付费 或 抄表计费']);
    expect(reason(13)).toEqual(['抄表计费的表请填写收费项目（按抄表读数计费的项目）']);
    // nothing of the file went in, the good row neither
    expect(await meterCount()).toBe(before);
    const report = ok(await s.call('meterimporterrors', { job_id: jobId }, importer)) as Row;
    expect(report.filename).toMatch(/表计导入错误报告/);
  });

  it('knows no gateway of another community', async () => {
    const { job } = await importRows([['IMP-X', '电表', '预付费', '', '', '', 'OTHER-DTU', '导入测试电价', '', '0', '', '']]);
    expect((job.result as { errors: Row[] }).errors).toEqual([{ row: 2, column: '采集器编号', reason: '采集器 OTHER-DTU 不存在' }]);
    expect(ok(await s.call('meterlist', { meter_no: 'IMP-X' }, staff)).total).toBe(0);
  });

  it('is the device administrators’ alone: not the cashier’s, nor the parking attendant’s', async () => {
    expect((await s.call('meterimporttemplate', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('meterimporttemplate', {}, staff)).return_code).toBe(RC.NO_PERMISSION);
    const res = await s.call('meterimport', { filename: 'm.xlsx', file_base64: await workbook([]) }, cashier);
    expect(res.return_code).toBe(RC.NO_PERMISSION);
  });
});
