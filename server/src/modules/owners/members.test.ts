import ExcelJS from 'exceljs';
import { genderOfIdCard, RC, RELATION_CH, isValidIdCard, PLATE_RE, normalizePlate, MEMBER_IMPORT_HEADERS } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { workbookBase64 } from '../../test/workbook.js';

let s: TestServer;
let admin = '';
let admin2 = '';
let cashier = '';
/** two vacant-ish rooms of community 1 and one of community 2 */
let roomA = 0;
let roomB = 0;
let roomC = 0;
let otherRoom = 0;
/** addresses of roomA, roomB, roomC */
let addr: string[] = [];

async function roomId(rid: number, building: string, unit: string, title: string): Promise<number> {
  const { rows } = await s.database.pool.query(
    `SELECT r.id FROM rooms r JOIN buildings b ON b.rid = r.rid AND b.id = r.bid JOIN units u ON u.rid = r.rid AND u.id = r.tid
     WHERE r.rid = $1 AND b.title = $2 AND u.title = $3 AND r.title = $4`,
    [rid, building, unit, title],
  );
  return Number(rows[0]!.id);
}

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  admin2 = await s.login('admin2');
  cashier = await s.login('cashier');
  // three new rooms nobody is linked to
  await s.database.pool.query(
    `INSERT INTO rooms (rid, bid, tid, title, floor) SELECT u.rid, u.bid, u.id, t, 16 FROM units u
     JOIN buildings b ON b.rid = u.rid AND b.id = u.bid AND b.title = '6号楼' CROSS JOIN unnest(ARRAY['1601', '1602', '1603']) t
     WHERE u.rid = 1 AND u.title = '1单元'`,
  );
  const { rows } = await s.database.pool.query(
    `SELECT r.id, concat(b.title, u.title, r.title) AS address FROM rooms r
     JOIN buildings b ON b.rid = r.rid AND b.id = r.bid JOIN units u ON u.rid = r.rid AND u.id = r.tid
     WHERE r.rid = 1 AND NOT EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = r.rid AND rm.hid = r.id) AND r.floor = 16 ORDER BY r.id LIMIT 3`,
  );
  [roomA, roomB, roomC] = rows.map((r) => Number(r.id)) as [number, number, number];
  addr = rows.map((r) => String(r.address));
  otherRoom = await roomId(2, '1号楼', '1单元', '101');
}, 120000);
afterAll(() => s.close());

describe('validation rules', () => {
  it('checks ID numbers and plates', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false);
    expect(isValidIdCard('110105194902300028')).toBe(false);
    // the 17th digit: odd for men, even for women; nothing from an invalid number
    expect(['110105198001010016', '11010519491231002X', '110105194912310021', ''].map(genderOfIdCard)).toEqual(['M', 'F', '', '']);
    for (const p of ['沪A·12345', '沪AD12345', '粤B12345D', '京AF1234', '苏E1234挂', '浙A1B2C3'])
      expect(PLATE_RE.test(normalizePlate(p)), p).toBe(true);
    for (const p of ['沪I12345', '沪A1234', '沪AD123456', 'AA12345', '沪A12O45', '港A12345'])
      expect(PLATE_RE.test(normalizePlate(p)), p).toBe(false);
  });
});

describe('members', () => {
  let memberId = 0;

  it('adds a person with two rooms and finds them', async () => {
    const res = await s.call(
      'memberadd',
      {
        realname: '欧阳娜娜',
        mobile: '13912345678',
        id_card: '11010519491231002x',
        gender: 'F',
        wx_isbind: 'Y',
        rooms: [
          { hid: roomA, relation: 'owner', move_in_date: '2024-03-01' },
          { hid: roomB, relation: 'tenant' },
        ],
      },
      admin,
    );
    expect(res).toMatchObject({ return_code: RC.SUCCESS, return_msg: '添加成功' });
    memberId = res.data.id;
    const info = await s.call('memberinfo', { id: memberId }, admin);
    expect(info.data).toMatchObject({
      realname: '欧阳娜娜',
      id_card: '11010519491231002X',
      gender_ch: '女',
      wx_isbind: 'Y',
      app_isbind: 'N',
      balance: '0.00',
    });
    expect(info.data.rooms.map((r: { address: string; relation_ch: string }) => `${r.address}${r.relation_ch}`)).toEqual([
      `${addr[0]}业主`,
      `${addr[1]}租户`,
    ]);
    const byMobile = await s.call('getkeywordtohouses', { keywords: '1391234' }, admin);
    expect(byMobile.data.items.filter((i: { realname: string }) => i.realname === '欧阳娜娜')).toHaveLength(2);
    const byName = await s.call('getkeywordtohouses', { keywords: '阳娜' }, admin);
    expect(byName.data.items.map((i: { address: string }) => i.address)).toEqual([addr[0], addr[1]].sort());
    const header = await s.call('houseinfoplus', { hid: roomA }, admin);
    expect(header.data.items.owner_name).toBe('欧阳娜娜');
  });

  it('answers the owner search in the dialog order: owners first, then by name, each with its relation', async () => {
    // neither the order they are added in nor their mobiles' order (either way round) is the dialog's
    const people = [
      ['张伟', '13777700001', 'owner'],
      ['艾琳', '13777700002', 'family'],
      ['包拯', '13777700003', 'owner'],
    ] as const;
    for (const [realname, mobile, relation] of people) {
      expect((await s.call('memberadd', { realname, mobile, rooms: [{ hid: roomC, relation }] }, admin)).return_code).toBe(RC.SUCCESS);
    }
    const found = await s.call('getkeywordtohouses', { keywords: '1377770' }, admin);
    expect(
      found.data.items.map((i: { realname: string; relation_ch: string; address: string }) => `${i.realname}${i.relation_ch}${i.address}`),
    ).toEqual([`包拯${RELATION_CH.owner}${addr[2]}`, `张伟${RELATION_CH.owner}${addr[2]}`, `艾琳${RELATION_CH.family}${addr[2]}`]);
  });

  it('takes a gender left blank from the ID number, and keeps one chosen', async () => {
    const rooms = [{ hid: roomA, relation: 'family' }];
    const blank = await s.call('memberadd', { realname: '岳云', mobile: '13912340001', id_card: '110105198001010016', rooms }, admin);
    expect((await s.call('memberinfo', { id: blank.data.id }, admin)).data).toMatchObject({ gender: 'M', gender_ch: '男' });
    const chosen = await s.call(
      'memberadd',
      { realname: '岳银瓶', mobile: '13912340002', id_card: '110105198001010016', gender: 'F', rooms },
      admin,
    );
    expect((await s.call('memberinfo', { id: chosen.data.id }, admin)).data.gender).toBe('F');
    const none = await s.call('memberadd', { realname: '岳雷', mobile: '13912340003', rooms }, admin);
    expect((await s.call('memberinfo', { id: none.data.id }, admin)).data.gender).toBe('');
    await s.call(
      'memberedit',
      { id: none.data.id, realname: '岳雷', mobile: '13912340003', id_card: '320102198511110025', rooms: [] },
      admin,
    );
    expect((await s.call('memberinfo', { id: none.data.id }, admin)).data.gender_ch).toBe('女');
  });

  it('refuses a taken mobile, unknown or foreign rooms and bad fields', async () => {
    const base = { realname: '张三', mobile: '13912345679', rooms: [{ hid: roomA, relation: 'family' }] };
    expect((await s.call('memberadd', { ...base, mobile: '13912345678' }, admin)).return_msg).toContain('已登记为住户“欧阳娜娜”');
    expect((await s.call('memberadd', { ...base, rooms: [{ hid: otherRoom, relation: 'owner' }] }, admin)).return_msg).toBe(
      '所选房屋不存在或不属于当前小区',
    );
    expect(
      (
        await s.call(
          'memberadd',
          {
            ...base,
            rooms: [
              { hid: roomA, relation: 'owner' },
              { hid: roomA, relation: 'family' },
            ],
          },
          admin,
        )
      ).return_msg,
    ).toBe('同一房屋不能重复选择');
    expect((await s.call('memberadd', { ...base, rooms: [] }, admin)).return_msg).toContain('请至少选择一个房屋');
    expect((await s.call('memberadd', { ...base, mobile: '1391234567' }, admin)).return_msg).toContain('手机号码格式不正确');
    expect((await s.call('memberadd', { ...base, id_card: '110105194912310021' }, admin)).return_msg).toContain('身份证号码不正确');
    expect((await s.call('memberadd', { ...base, realname: '' }, admin)).return_msg).toContain('请输入姓名');
    expect((await s.call('memberadd', { ...base, rooms: [{ hid: roomA, relation: 'boss' }] }, admin)).return_msg).toContain('relation');
    expect((await s.call('memberadd', base, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('lists with filters and paging', async () => {
    const byName = await s.call('memberlist', { name: '欧阳' }, admin);
    expect(byName.data.items.map((m: { realname: string }) => m.realname)).toEqual(['欧阳娜娜']);
    expect(byName.data.items[0].houses).toBe(`${addr[0]}（业主），${addr[1]}（租户）`);
    expect((await s.call('memberlist', { mobile: '1391234567' }, admin)).data.total).toBe(1);
    const { rows } = await s.database.pool.query(`SELECT bid FROM rooms WHERE rid = 1 AND id = $1`, [roomB]);
    const inBuilding = await s.call('memberlist', { bid: rows[0]!.bid, relation: 'tenant', limit: 200 }, admin);
    expect(inBuilding.data.items.some((m: { id: number }) => m.id === memberId)).toBe(true);
    const bound = await s.call('memberlist', { wx_isbind: 'N', limit: 200 }, admin);
    for (const m of bound.data.items) expect(m.wx_isbind).toBe('N');
    const page = await s.call('memberlist', {}, admin);
    expect(page.data.items).toHaveLength(10);
    expect(page.data.total).toBeGreaterThan(100);
    const desc = await s.call('memberlist', { sort: 'desc' }, admin);
    expect(desc.data.items[0].id).toBeGreaterThan(page.data.items[0].id);
    expect((await s.call('memberlist', { name: '欧阳' }, admin2)).data.total).toBe(0);
    expect((await s.call('memberlist', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('memberlist', { relation: 'boss' }, admin)).return_msg).toContain('relation');
  });

  it('edits a person, adds a room and changes a relation', async () => {
    const res = await s.call(
      'memberedit',
      {
        id: memberId,
        realname: '欧阳娜娜',
        mobile: '13912345670',
        gender: 'F',
        app_isbind: 'Y',
        rooms: [
          { hid: roomB, relation: 'family' },
          { hid: roomC, relation: 'owner' },
        ],
      },
      admin,
    );
    expect(res).toMatchObject({ return_code: RC.SUCCESS, return_msg: '保存成功' });
    const info = await s.call('memberinfo', { id: memberId }, admin);
    expect(info.data).toMatchObject({ mobile: '13912345670', app_isbind: 'Y' });
    expect(info.data.rooms.map((r: { relation: string }) => r.relation)).toEqual(['owner', 'family', 'owner']);
    const taken = (await s.database.pool.query(`SELECT mobile FROM members WHERE rid = 1 AND id <> $1 LIMIT 1`, [memberId])).rows[0]!
      .mobile;
    expect((await s.call('memberedit', { id: memberId, realname: 'x', mobile: taken }, admin)).return_msg).toContain('已登记为住户');
    expect((await s.call('memberedit', { id: memberId, realname: 'x', mobile: '13912345670' }, admin2)).return_msg).toBe('住户不存在');
    expect((await s.call('memberinfo', { id: memberId }, admin2)).return_msg).toBe('住户不存在');
    expect((await s.call('memberedit', { id: memberId, realname: 'x', mobile: '13912345670' }, cashier)).return_code).toBe(
      RC.NO_PERMISSION,
    );
    expect((await s.call('memberinfo', { id: 'x' }, admin)).return_msg).toContain('id');
  });

  it('moves a person out of one room, keeping the history', async () => {
    const info = await s.call('memberinfo', { id: memberId }, admin);
    const link = info.data.rooms.find((r: { hid: number }) => r.hid === roomB);
    expect((await s.call('membermoveout', { id: link.id, date: '2020-01-01' }, admin)).return_msg).toContain('迁出日期不能早于入住日期');
    expect((await s.call('membermoveout', { id: link.id }, admin2)).return_msg).toBe('住户房屋关系不存在');
    expect((await s.call('membermoveout', { id: link.id }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('membermoveout', { id: link.id, date: '2026/01/01' }, admin)).return_msg).toContain('date');
    const res = await s.call('membermoveout', { id: link.id }, admin);
    expect(res).toMatchObject({ return_code: RC.SUCCESS, return_msg: '迁出成功' });
    expect((await s.call('membermoveout', { id: link.id }, admin)).return_msg).toBe('该住户已从此房屋迁出');
    const after = await s.call('memberinfo', { id: memberId }, admin);
    const moved = after.data.rooms.find((r: { id: number }) => r.id === link.id);
    expect(moved).toMatchObject({ status: 'N', move_out_date: res.data.move_out_date });
    expect(after.data.houses).not.toContain(addr[1]);
    const search = await s.call('getkeywordtohouses', { keywords: '13912345670' }, admin);
    expect(search.data.items.map((i: { hid: number }) => i.hid)).not.toContain(roomB);
    expect((await s.call('memberlist', { hid: roomB, name: '欧阳' }, admin)).data.total).toBe(0);
  });

  it('exports the filtered members as Excel', async () => {
    const res = await s.exportFile('memberexport', { name: '欧阳' }, admin);
    expect(res.data.filename).toMatch(/^住户_.*\.xlsx$/);
    const sheet = await readXlsx(res.data.content_base64);
    expect(sheet.headers).toContain('房屋（身份）');
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0]!.values['姓名']).toBe('欧阳娜娜');
    expect((await s.exportFile('memberexport', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
    const other = await readXlsx((await s.exportFile('memberexport', { name: '欧阳' }, admin2)).data.content_base64);
    expect(other.rows).toHaveLength(0);
  });
});

const workbook = (rows: string[][]) => workbookBase64(MEMBER_IMPORT_HEADERS, rows, '住户');

describe('member import', () => {
  it('answers a template', async () => {
    const res = await s.call('memberimporttemplate', {}, admin);
    const sheet = await readXlsx(res.data.content_base64);
    expect(sheet.headers).toEqual(['楼栋', '单元', '房号', '姓名', '手机号', '身份', '身份证号', '性别', '入住日期']);
  });

  it('imports nothing when a row is bad and reports the rows', async () => {
    const file = await workbook([
      ['6号楼', '2单元', '1501', '司马光', '13611112222', '业主', '', '男', '2023-01-01'],
      ['6号楼', '2单元', '9999', '司马迁', '1361111222', '老板', '123', '未知', '2023/01/01'],
    ]);
    const res = await s.call('memberimport', { filename: 'members.xlsx', file_base64: file }, admin);
    expect(res.return_code).toBe(RC.SUCCESS);
    await s.runJobs();
    const job = await s.call('jobinfo', { id: res.data.job_id }, admin);
    expect(job.data.status).toBe('done');
    const columns = job.data.result.errors.map((e: { row: number; column: string }) => `${e.row}:${e.column}`);
    expect(columns).toEqual(['3:房号', '3:手机号', '3:身份', '3:身份证号', '3:性别', '3:入住日期']);
    expect((await s.call('memberlist', { name: '司马' }, admin)).data.total).toBe(0);
    const report = await s.call('memberimporterrors', { job_id: res.data.job_id }, admin);
    const sheet = await readXlsx(report.data.content_base64);
    expect(sheet.rows[0]!.values).toMatchObject({ 行号: '3', 列: '房号' });
    expect((await s.call('memberimporterrors', { job_id: res.data.job_id }, admin2)).return_msg).toBe('导入记录不存在');
  });

  it('imports good rows in one go, linking a known mobile to another room', async () => {
    const file = await workbook([
      ['6号楼', '2单元', '1501', '司马光', '13611112222', '业主', '', '男', '2023-01-01'],
      ['6号楼', '2单元', '1502', '司马光', '13611112222', '租户', '', '', ''],
      ['6号楼', '2单元', '1501', '司马迁', '13611113333', '家属', '110105199002020034', '', ''],
    ]);
    const res = await s.call('memberimport', { filename: 'members.xlsx', file_base64: file }, admin);
    await s.runJobs();
    const job = await s.call('jobinfo', { id: res.data.job_id }, admin);
    expect(job.data.result).toMatchObject({ created_members: 2, linked_rooms: 3, errors: [] });
    const list = await s.call('memberlist', { name: '司马' }, admin);
    expect(list.data.total).toBe(2);
    // a row without 性别 takes it from the ID number
    expect(list.data.items.find((m: { realname: string }) => m.realname === '司马迁').gender_ch).toBe('男');
    expect((await s.call('getkeywordtohouses', { keywords: '司马光' }, admin)).data.items).toHaveLength(2);
  });

  it('refuses wrong files and other roles', async () => {
    expect((await s.call('memberimport', { filename: 'a.csv', file_base64: 'eA==' }, admin)).return_msg).toContain('.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('x').addRow(['姓名']);
    const noHeaders = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    expect((await s.call('memberimport', { filename: 'a.xlsx', file_base64: noHeaders }, admin)).return_msg).toContain('缺少列');
    expect((await s.call('memberimport', { filename: 'a.xlsx' }, admin)).return_msg).toContain('file_base64');
    expect((await s.call('memberimport', { filename: 'a.xlsx', file_base64: noHeaders }, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('cars', () => {
  let carId = 0;

  it('adds a car to a room with a normalised plate', async () => {
    const res = await s.call('caradd', { hid: roomA, carlicense: '沪a·d88888', color: '蓝色' }, admin);
    expect(res).toMatchObject({ return_code: RC.SUCCESS, return_msg: '添加成功' });
    carId = res.data.id;
    const list = await s.call('carlist', { carlicense: 'D88888' }, admin);
    expect(list.data.items[0]).toMatchObject({
      carlicense: '沪AD88888',
      car_type: 'new_energy',
      car_type_ch: '新能源车',
      address: addr[0],
      status_ch: '正常',
    });
    const tab = await s.call('housecarlist', { hid: roomA }, admin);
    expect(tab.data.items.map((c: { carlicense: string }) => c.carlicense)).toContain('沪AD88888');
  });

  it('refuses bad plates, taken plates, foreign rooms and owners not in the room', async () => {
    expect((await s.call('caradd', { hid: roomA, carlicense: '沪I12345' }, admin)).return_msg).toContain('车牌号格式不正确');
    expect((await s.call('caradd', { hid: roomA, carlicense: '沪AD88888' }, admin)).return_msg).toBe('车牌 沪AD88888 已登记');
    expect((await s.call('caradd', { hid: otherRoom, carlicense: '沪A77777' }, admin)).return_msg).toBe('所选房屋不存在或不属于当前小区');
    const stranger = (await s.database.pool.query(`SELECT id FROM members WHERE rid = 1 AND mobile = '13800138000'`)).rows[0]!.id;
    expect((await s.call('caradd', { hid: roomA, member_id: stranger, carlicense: '沪A77777' }, admin)).return_msg).toBe(
      '车主必须是该房屋的在住住户',
    );
    expect((await s.call('caradd', { hid: roomA, carlicense: '沪A77777' }, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('edits and deletes, within the community only', async () => {
    expect((await s.call('caredit', { id: carId, hid: roomA, carlicense: '沪B66666', status: 'N' }, admin)).return_msg).toBe('保存成功');
    expect((await s.call('carlist', { carlicense: '沪B66666' }, admin)).data.items[0]).toMatchObject({
      car_type: 'small',
      status_ch: '停用',
    });
    expect((await s.call('caredit', { id: carId, hid: roomA, carlicense: '沪B66666' }, admin2)).return_msg).toBe('车辆不存在');
    expect((await s.call('carlist', { carlicense: '沪B66666' }, admin2)).data.total).toBe(0);
    expect((await s.call('cardel', { id: carId }, admin2)).return_msg).toBe('车辆不存在');
    expect((await s.call('cardel', { id: carId }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('cardel', { id: carId }, admin)).return_msg).toBe('删除成功');
    expect((await s.call('carlist', { carlicense: '沪B66666' }, admin)).data.total).toBe(0);
  });

  it('refuses to delete a car whose parking fee is unpaid (docs/product.md#carpark)', async () => {
    const car = (await s.call('carlist', { carlicense: '沪A12345' }, admin)).data.items[0];
    expect((await s.call('cardel', { id: car.id }, admin)).return_msg).toBe('车辆 沪A12345 还有 1 笔停车费未缴，不能删除');
  });
});
