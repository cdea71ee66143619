import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatSimulators, runDeviceQueue, setSimulatorAckDelay } from '../../devices/access.js';
import { readXlsx } from '../../lib/excel.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

type Row = Record<string, any>;

let s: TestServer;
let access: string;
let admin2: string;
let steward: string;

const db = () => s.database.db;
/** Sends, then the simulator's answers (it answers at once: delay 0); the simulators beat first, as the worker makes them. */
async function settle() {
  const now = new Date(Date.now() + 1000);
  await beatSimulators(db(), now);
  await runDeviceQueue(db(), now);
  await runDeviceQueue(db(), now);
}
const list = async (payload: Row) =>
  ok(await s.call('roomcodelist', { limit: 200, ...payload }, access)) as { items: Row[]; total: number };
const roomByAddress = async (address: string) =>
  db().selectFrom('rooms').select(['id', 'bid', 'tid']).where('rid', '=', 1).where('address', '=', address).executeTakeFirstOrThrow();
/** The doors serving a room of 1号楼1单元: the two gates, the garage's and the unit's door. */
const doors = async () =>
  db().selectFrom('devices').select(['id', 'title']).where('rid', '=', 1).where('family', '=', 'door').orderBy('id').execute();

beforeAll(async () => {
  setSimulatorAckDelay(0);
  s = await startTestServer();
  [access, admin2, steward] = await s.logins('access', 'admin2', 'steward');
  // the seed's heartbeats are minutes old when a long suite reaches this file: as old here, always
  await db()
    .updateTable('devices')
    .set({ last_heartbeat: new Date(Date.now() - 600_000) })
    .execute();
});
afterAll(() => s.close());

describe('room codes (/carpark/roomcode)', () => {
  it('the demo: every home coded from the default templates; the shops left to set by hand; three rooms failing on the door that is off', async () => {
    const all = await list({ bid: (await roomByAddress('1号楼1单元101')).bid, tid: (await roomByAddress('1号楼1单元101')).tid });
    const first = all.items[0]!;
    expect(first).toMatchObject({ address: '1号楼1单元101', floor: 1, code: '1-1-0101', call_no: '01010101' });
    const shops = await list({ coded: 'N' });
    expect(shops.items.map((r) => r.address)).toEqual(['1号楼1单元S01', '1号楼1单元S02']);
    expect(shops.items[0]).toMatchObject({ code: '', sync_state: '', sync_state_ch: '未生成' });
    const failed = await list({ sync_state: 'failed' });
    expect(failed.total).toBe(3);
    expect(failed.items[0]).toMatchObject({ sync_state_ch: '同步失败', sync_error: expect.stringMatching(/设备/) });
    expect((await list({ sync_state: 'done' })).total).toBe(722 - 2 - 3);
    expect((await list({ keyword: '6-2-1504' })).items.map((r) => r.address)).toEqual(['6号楼2单元1504']);
    refused(await s.call('roomcodelist', { sync_state: 'x' }, access), '同步状态取值不正确');
    expect((await s.call('roomcodelist', {}, steward)).return_code).toBe('NO_PERMISSION');
  });

  it('sets one room by hand: unique in the community, pushed to the doors serving it, the state kept as they answer', async () => {
    const shop = await roomByAddress('1号楼1单元S01');
    refused(
      await s.call('roomcodeedit', { hid: shop.id, code: '1-1-0101', call_no: '' }, access),
      '房号编码 1-1-0101 已被 1号楼1单元101 使用',
    );
    refused(
      await s.call('roomcodeedit', { hid: shop.id, code: 'S01', call_no: '01010101' }, access),
      '呼叫号 01010101 已被 1号楼1单元101 使用',
    );
    refused(await s.call('roomcodeedit', { hid: shop.id, code: '1 1', call_no: '' }, access), '房号编码只能是字母、数字或横线');
    refused(await s.call('roomcodeedit', { hid: shop.id, code: 'S01', call_no: '12a' }, access), '呼叫号只能是数字');
    // another community's room
    const other = await db().selectFrom('rooms').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    refused(await s.call('roomcodeedit', { hid: other.id, code: 'X1', call_no: '' }, access), '房屋不存在');
    const answer = ok(await s.call('roomcodeedit', { hid: shop.id, code: '1-1-S01', call_no: '0101901' }, access));
    // the gates, the garage's door and the unit's: the offline gate (南门) among them
    expect(answer.pushed).toBe((await doors()).length);
    // sent now (the server's own job runner may already have had the answers)
    const sent = (await list({ keyword: '1-1-S01' })).items[0]!;
    expect(sent.operator).not.toBe('');
    expect(['syncing', 'failed']).toContain(sent.sync_state);
    await settle();
    const after = (await list({ keyword: '1-1-S01' })).items[0]!;
    expect(after).toMatchObject({ sync_state: 'failed', sync_error: '设备离线' });
    // the log: one command a door, the offline one failed
    const log = ok(await s.call('roomsynclist', { keyword: '1-1-S01' }, access));
    expect(log.items).toHaveLength((await doors()).length);
    expect(log.items.filter((c: Row) => c.state === 'failed').map((c: Row) => c.device_title)).toEqual(['南门人行闸机']);
    expect(log.items[0]).toMatchObject({
      action: 'set',
      action_ch: '下发编码',
      code: '1-1-S01',
      call_no: '0101901',
      address: '1号楼1单元S01',
    });
    // the door comes back: its heartbeat sends what failed again, and the room is synced
    const south = (await doors()).find((d) => d.title === '南门人行闸机')!;
    ok(await s.call('accesssimset', { device_id: south.id, offline: 'N' }, access));
    const code = await db().selectFrom('devices').select('code').where('id', '=', south.id).executeTakeFirstOrThrow();
    ok(await s.call('accessdeviceheartbeat', { code: code.code }, access));
    await settle();
    expect((await list({ keyword: '1-1-S01' })).items[0]).toMatchObject({ sync_state: 'done', sync_error: '' });
    refused(await s.call('roomcodeedit', { hid: shop.id, code: '1-1-S01', call_no: '0101901' }, access), '编码没有变化');
  });

  it('retries failed pushes one by one or all at once; deletes a code and tells the doors', async () => {
    // the south gate stops answering while a room is pushed
    const south = (await doors()).find((d) => d.title === '南门人行闸机')!;
    ok(await s.call('accesssimset', { device_id: south.id, offline: 'Y' }, access));
    const room = await roomByAddress('2号楼1单元101');
    ok(await s.call('roomcodesync', { hid: room.id }, access));
    await settle();
    expect((await list({ keyword: '2号楼1单元101' })).items[0]).toMatchObject({ sync_state: 'failed', sync_error: '设备无响应' });
    const failed = ok(await s.call('roomsynclist', { state: 'failed' }, access));
    expect(failed.total).toBe(1);
    ok(await s.call('accesssimset', { device_id: south.id, offline: 'N' }, access));
    const done = ok(await s.call('roomsynclist', { state: 'done', limit: 1 }, access)).items[0];
    refused(await s.call('roomsyncretry', { id: done.id }, access), '只有失败的记录可以重新同步');
    refused(await s.call('roomsyncretry', { id: 99999999 }, access), '同步记录不存在');
    const retried = ok(await s.call('roomsyncretry', {}, access));
    expect(retried.retried).toBe(failed.total);
    await settle();
    // the door is back: what was retried is done
    expect(ok(await s.call('roomsynclist', { state: 'failed' }, access)).total).toBe(0);
    expect((await list({ sync_state: 'failed' })).total).toBe(0);

    const shop = await roomByAddress('1号楼1单元S01');
    ok(await s.call('roomcodedel', { hid: shop.id }, access));
    refused(await s.call('roomcodedel', { hid: shop.id }, access), '该房屋还没有房号编码');
    expect((await list({ keyword: 'S01' })).items[0]).toMatchObject({ code: '', sync_state_ch: '未生成' });
    // the code is gone: the log finds the room by its address, a delete for each door
    const log = ok(await s.call('roomsynclist', { keyword: '1号楼1单元S01', limit: 50 }, access));
    expect(log.items.filter((c: Row) => c.action === 'del').map((c: Row) => c.code)).toEqual((await doors()).map(() => '1-1-S01'));
  });

  it('generates from templates: only rooms without a code unless told; clashes reported and left alone; bad templates refused', async () => {
    refused(await s.call('roomcodegenerate', { code_template: '{x}', call_template: '' }, access), '不认识的占位符');
    refused(await s.call('roomcodegenerate', { code_template: 'A', call_template: '' }, access), '至少要有一个');
    refused(
      await s.call('roomcodegenerate', { code_template: '{b}-{n}', call_template: '9{b}#{n}' }, access),
      '呼叫号模板中的固定字符只能是数字',
    );
    const none = ok(await s.call('roomcodegenerate', {}, access));
    expect(none).toMatchObject({ generated: 0, skipped: 720, clashed: 2 });
    const b6 = (await roomByAddress('6号楼1单元101')).bid;
    // a template without the unit gives the two units' rooms one code: the second unit's are left alone
    const clash = await s.call('roomcodegenerate', { code_template: 'B{b}-{n}', call_template: '', bid: b6, overwrite: 'Y' }, access);
    ok(clash);
    expect(clash.data).toMatchObject({ generated: 60, skipped: 0, clashed: 60 });
    expect(clash.return_msg).toMatch(/^已生成 60 户的编码，60 户编码重复未生成（6号楼2单元101的房号编码 B6-101 与6号楼1单元101重复；/);
    expect((await list({ keyword: '6号楼1单元1504' })).items[0]).toMatchObject({ code: 'B6-1504', call_no: '' });
    expect((await list({ keyword: '6号楼2单元1504' })).items[0]).toMatchObject({ code: '6-2-1504' });
    const back = ok(await s.call('roomcodegenerate', { bid: b6, overwrite: 'Y' }, access));
    expect(back).toMatchObject({ generated: 120, clashed: 0 });
    expect((await list({ keyword: '6号楼1单元1504' })).items[0]).toMatchObject({ code: '6-1-1504', call_no: '06011504' });
    refused(await s.call('roomcodegenerate', { bid: 99999999 }, access), '所选楼栋不存在');
  });

  it('a door added later gets the codes of the rooms it serves', async () => {
    const r = await roomByAddress('2号楼2单元101');
    const coded = (await list({ bid: r.bid, tid: r.tid, coded: 'Y' })).total;
    const added = ok(
      await s.call(
        'accessdeviceadd',
        { code: 'T-ROOMS', title: '2号楼2单元门禁', location: 'unit', bid: r.bid, tid: r.tid, direction: 'both' },
        access,
      ),
    );
    const log = ok(await s.call('roomsynclist', { device_id: added.id, limit: 1 }, access));
    expect(log.total).toBe(coded);
  });

  it('a gate added gets every coded room, after what a person waits on: a remote open and a code just edited go first', async () => {
    const gate = ok(
      await s.call('accessdeviceadd', { code: 'T-GATE-ROOMS', title: '测试西门', location: 'community', direction: 'both' }, access),
    );
    const bulk = ok(await s.call('roomsynclist', { device_id: gate.id, state: 'pending', limit: 1 }, access)).total;
    expect(bulk).toBeGreaterThan(500);
    const open = ok(await s.call('accessdeviceopen', { id: gate.id }, access)).command_id;
    const room = await roomByAddress('4号楼1单元101');
    ok(await s.call('roomcodeedit', { hid: room.id, code: '4-1-0101A', call_no: '' }, access));
    // one run hands out 500 commands: the open and the edited room's are among them, many bulk ones wait
    await runDeviceQueue(db(), new Date(Date.now() + 1000));
    const cmds = ok(await s.call('accesscommandlist', { device_id: gate.id, limit: 200 }, access)).items as Row[];
    expect(cmds.find((c) => c.id === open)).toMatchObject({ state: 'sent' });
    const edited = ok(await s.call('roomsynclist', { device_id: gate.id, keyword: '4-1-0101A' }, access)).items[0];
    expect(edited.state).not.toBe('pending');
    expect(ok(await s.call('roomsynclist', { device_id: gate.id, state: 'pending', limit: 1 }, access)).total).toBeGreaterThan(0);
  });

  it('imports codes from Excel (rooms may swap codes); a file with a bad row imports nothing', async () => {
    const template = ok(await s.call('roomcodetemplate', { bid: (await roomByAddress('3号楼1单元101')).bid }, access));
    const sheet = await readXlsx(template.content_base64);
    expect(sheet.headers).toEqual(['楼栋', '单元', '房号', '房号编码', '呼叫号']);
    expect(sheet.rows[0]!.values).toMatchObject({ 楼栋: '3号楼', 单元: '1单元', 房号: '101', 房号编码: '3-1-0101', 呼叫号: '03010101' });
    const file = async (rows: string[][]) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('房号编码');
      ws.addRow(['楼栋', '单元', '房号', '房号编码', '呼叫号']);
      for (const r of rows) ws.addRow(r);
      return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    };
    const upload = async (rows: string[][]) => {
      const res = await s.call('roomcodeimport', { filename: '房号编码.xlsx', file_base64: await file(rows) }, access);
      ok(res);
      await s.runJobs();
      const job = ok(await s.call('jobinfo', { id: res.data.job_id }, access));
      expect(job.status).toBe('done');
      return job.result as { imported: number; errors: Array<{ row: number; column: string; reason: string }> };
    };
    const bad = await upload([
      ['3号楼', '1单元', '101', '3-1-0102', ''],
      ['3号楼', '1单元', '9999', 'X', ''],
      ['3号楼', '1单元', '103', 'a b', ''],
      ['3号楼', '1单元', '101', 'Y', ''],
      ['3号楼', '1单元', '104', '3-1-0102', ''],
    ]);
    expect(bad.imported).toBe(0);
    expect(bad.errors.map((e) => [e.row, e.column])).toEqual([
      [3, '房号'],
      [4, '房号编码'],
      [5, '房号'],
    ]);
    const clash = await upload([
      ['3号楼', '1单元', '101', '3-1-0201', ''],
      ['3号楼', '1单元', '104', '3-1-0201', ''],
    ]);
    expect(clash.errors).toEqual([
      { row: 3, column: '房号编码', reason: '第 3 行的房号编码 3-1-0201 与第 2 行重复' },
      { row: 2, column: '房号编码', reason: '第 2 行的房号编码 3-1-0201 已被 3号楼1单元201 使用' },
    ]);
    expect((await list({ keyword: '3号楼1单元101' })).items[0]).toMatchObject({ code: '3-1-0101' });
    // two rooms swap their codes and call numbers
    const good = await upload([
      ['3号楼', '1单元', '101', '3-1-0102', '03010102'],
      ['3号楼', '1单元', '102', '3-1-0101', '03010101'],
    ]);
    expect(good).toEqual({ imported: 2, errors: [] });
    // pushed to the doors (the jobs just run answered them too)
    expect((await list({ keyword: '3号楼1单元10' })).items.slice(0, 2).map((r) => [r.address, r.code, r.call_no])).toEqual([
      ['3号楼1单元101', '3-1-0102', '03010102'],
      ['3号楼1单元102', '3-1-0101', '03010101'],
    ]);
    expect(ok(await s.call('roomsynclist', { keyword: '3号楼1单元101', limit: 1 }, access)).items[0]).toMatchObject({ code: '3-1-0102' });
    expect((await s.call('roomcodeimport', { filename: 'x.xlsx', file_base64: await file([]) }, steward)).return_code).toBe(
      'NO_PERMISSION',
    );
  });

  it('exports what the list shows, and the sync log', async () => {
    const b1 = await roomByAddress('1号楼1单元101');
    const file = await s.exportFile('roomcodeexport', { bid: b1.bid, tid: b1.tid }, access);
    ok(file);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(['楼栋', '单元', '房号', '房号编码', '呼叫号', '同步状态', '同步错误']);
    expect(sheet.rows).toHaveLength(62);
    expect(sheet.rows[0]!.values).toMatchObject({ 房号: '101', 房号编码: '1-1-0101' });
    const log = await s.exportFile('roomsyncexport', { keyword: '3-1-0102' }, access);
    ok(log);
    expect((await readXlsx(log.data.content_base64)).rows.length).toBeGreaterThan(0);
  });

  it("never shows or changes another community's codes", async () => {
    const mine = await roomByAddress('1号楼1单元101');
    refused(await s.call('roomcodesync', { hid: mine.id }, admin2), '房屋不存在');
    refused(await s.call('roomcodedel', { hid: mine.id }, admin2), '房屋不存在');
    const theirs = ok(await s.call('roomcodelist', { keyword: '1号楼1单元101' }, admin2));
    expect(theirs.items.every((r: Row) => r.hid !== mine.id)).toBe(true);
    const synced = ok(await s.call('roomcodesync', { hid: mine.id }, access));
    expect(synced.pushed).toBeGreaterThan(0);
  });
});
