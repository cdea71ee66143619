import { RC, booth, car, lane, lot, parkingList, space } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { raiseExpiring } from './monthly.js';

let s: TestServer;
let admin2: string;
let parking: string;
let guard: string;

const db = () => s.database.db;
const lotId = async (title: string, rid = 1) =>
  Number(
    (await db().selectFrom('parking_lots').select('id').where('rid', '=', rid).where('title', '=', title).executeTakeFirstOrThrow()).id,
  );
/** 1号楼1单元1101 and its owner 陈建国. */
const home = async () => {
  const r = await db()
    .selectFrom('rooms as r')
    .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'r.rid').onRef('rm.hid', '=', 'r.id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['r.id as hid', 'm.id as member_id'])
    .where('r.rid', '=', 1)
    .where('r.address', 'like', '%1号楼1单元1101%')
    .where('m.realname', '=', '陈建国')
    .executeTakeFirstOrThrow();
  return { hid: Number(r.hid), member_id: Number(r.member_id) };
};
const today = async () => (await sql<{ d: string }>`SELECT current_date::text AS d`.execute(db())).rows[0]!.d;
const plusDays = async (n: number) => (await sql<{ d: string }>`SELECT (current_date + ${n}::int)::text AS d`.execute(db())).rows[0]!.d;

beforeAll(async () => {
  s = await startTestServer();
  [admin2, parking, guard] = await s.logins('admin2', 'parking', 'guard');
});
afterAll(() => s?.close());

describeResource(lot, {
  server: () => s,
  sample: { code: 'T9', title: '测试停车场', ground: 'A', total_spaces: 50, leave_minutes: 20, price_small: '180.00' },
  edit: { title: '测试停车场二', grace_days: 5, price_large: '260.50' },
  filters: { code: 'T9', title: '测试停车场', ground: 'A' },
  writer: 'parking',
  deniedWriter: 'guard',
  unique: ['code'],
});

describeResource(booth, {
  server: () => s,
  sample: async () => ({ lot_id: await lotId('地面停车场'), title: '西门岗亭', allow_temp: 'Y', temp_confirm: 'Y' }),
  edit: { title: '西门岗亭二', collects_fee: 'N' },
  filters: { title: '西门岗亭' },
  writer: 'parking',
  deniedWriter: 'guard',
  unique: ['lot_id', 'title'],
});

describeResource(lane, {
  server: () => s,
  sample: async () => {
    const b = await db().selectFrom('parking_booths').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    return { booth_id: Number(b.id), code: 'WEST-IN', title: '西门入口', direction: 'I' };
  },
  edit: { title: '西门入口二', direction: 'O' },
  filters: { code: 'WEST-IN', direction: 'I' },
  writer: 'parking',
  deniedWriter: 'guard',
  unique: ['code'],
});

describeResource(space, {
  server: () => s,
  sample: async () => ({ lot_id: await lotId('地面停车场'), title: 'T-001', kind: 'parent', area: '15.5' }),
  edit: { title: 'T-002', kind: 'virtual', remark: '靠柱' },
  filters: { title: 'T-001', kind: 'parent', status: 'idle' },
  writer: 'parking',
  deniedWriter: 'guard',
  unique: ['lot_id', 'title'],
});

describeResource(parkingList, {
  server: () => s,
  sample: async () => ({
    lot_id: await lotId('地面停车场'),
    carlicense: '浙B12345',
    kind: 'B',
    start_date: '2026-01-01',
    end_date: '2027-01-01',
    reason: '逃费',
  }),
  edit: { kind: 'W', reason: '访客长租' },
  filters: { carlicense: '浙B12345', kind: 'B' },
  writer: 'parking',
  deniedWriter: 'guard',
  unique: ['lot_id', 'carlicense'],
});

describeResource(car, {
  server: () => s,
  sample: async () => ({ ...(await home()), carlicense: '沪C24680', brand: '丰田', color: '灰色' }),
  edit: { brand: '本田', status: 'N' },
  filters: { carlicense: '沪C24680', status: 'Y', bound: 'N' },
  writer: 'parking',
  deniedWriter: 'guard',
  unique: ['carlicense'],
});

describe('lots, booths and lanes', () => {
  it('shows a lane offline with its last heartbeat, online within 2 minutes', async () => {
    const lanes = ok(await s.call('parkinglanelist', { code: 'P01-IN' }, parking));
    expect(lanes.items[0]).toMatchObject({ code: 'P01-IN', direction_ch: '入口', online: 'N', online_ch: '离线', last_heartbeat: '' });
    await db()
      .updateTable('devices')
      .set({ last_heartbeat: sql<Date>`now() - interval '30 seconds'` })
      .where('code', '=', 'P01-IN')
      .where('rid', '=', 1)
      .execute();
    expect(ok(await s.call('parkinglanelist', { code: 'P01-IN' }, parking)).items[0]).toMatchObject({ online: 'Y', online_ch: '在线' });
    await db()
      .updateTable('devices')
      .set({ last_heartbeat: sql<Date>`now() - interval '3 minutes'` })
      .where('code', '=', 'P01-IN')
      .where('rid', '=', 1)
      .execute();
    const off = ok(await s.call('parkinglanelist', { code: 'P01-IN' }, parking)).items[0];
    expect(off.online).toBe('N');
    expect(off.last_heartbeat).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses a lane of another community’s booth and a duplicate code', async () => {
    const other = await db().selectFrom('parking_booths').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    refused(
      await s.call('parkinglaneadd', { booth_id: Number(other.id), code: 'X1', title: '错', direction: 'I' }, parking),
      '所选岗亭不存在',
    );
    const mine = await db().selectFrom('parking_booths').select('id').where('rid', '=', 1).executeTakeFirstOrThrow();
    refused(
      await s.call('parkinglaneadd', { booth_id: Number(mine.id), code: 'P01-OUT', title: '重复', direction: 'O' }, parking),
      '设备编号 P01-OUT 已存在',
    );
    refused(
      await s.call('parkinglaneadd', { booth_id: Number(mine.id), code: 'A B', title: '空格', direction: 'O' }, parking),
      '车道编号只能是',
    );
  });

  it('keeps lanes and doors apart in the one devices table', async () => {
    const access = await s.login('access');
    const gate = await db()
      .selectFrom('devices')
      .select(['id', 'code', 'family', 'direction'])
      .where('rid', '=', 1)
      .where('code', '=', 'P01-IN')
      .executeTakeFirstOrThrow();
    expect(gate).toMatchObject({ family: 'gate', direction: 'in' });
    const door = await db()
      .selectFrom('devices')
      .select(['id', 'code'])
      .where('rid', '=', 1)
      .where('family', '=', 'door')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // neither list shows the other family, nor do their edits and deletes reach it
    const lanes = ok(await s.call('parkinglanelist', { limit: 100 }, parking)).items as Array<{ id: number }>;
    expect(lanes.map((l) => l.id)).not.toContain(Number(door.id));
    const doors = ok(await s.call('accessdevicelist', { limit: 100 }, access)).items as Array<{ id: number }>;
    expect(doors.map((d) => d.id)).not.toContain(Number(gate.id));
    refused(await s.call('parkinglanedel', { id: Number(door.id) }, parking), '车道不存在');
    refused(await s.call('accessdevicedel', { id: Number(gate.id) }, access), '门禁设备不存在');
    refused(await s.call('accessdeviceheartbeat', { code: 'P01-IN' }, access), '设备不存在');
    refused(await s.call('gateheartbeat', { code: door.code }, parking), '车道不存在');
    // one code per device of the community, whichever its family
    const mine = await db().selectFrom('parking_booths').select('id').where('rid', '=', 1).executeTakeFirstOrThrow();
    refused(
      await s.call('parkinglaneadd', { booth_id: Number(mine.id), code: door.code, title: '撞号', direction: 'I' }, parking),
      `设备编号 ${door.code} 已存在`,
    );
    // a new lane is a gate of its booth, looking the way asked
    const added = ok(
      await s.call('parkinglaneadd', { booth_id: Number(mine.id), code: 'P01-OUT2', title: '地库出口二', direction: 'O' }, parking),
    );
    const row = await db().selectFrom('devices').selectAll().where('rid', '=', 1).where('id', '=', added.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ family: 'gate', direction: 'out', location: 'community', booth_id: Number(mine.id) });
    const listed = ok(await s.call('parkinglanelist', { code: 'P01-OUT2', direction: 'O' }, parking)).items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ direction: 'O', direction_ch: '出口', booth_id: Number(mine.id) });
    expect(ok(await s.call('parkinglanelist', { code: 'P01-OUT2', direction: 'I' }, parking)).items).toHaveLength(0);
    ok(await s.call('parkinglanedel', { id: added.id }, parking));
  });

  it('refuses to delete a lot with spaces, a booth with lanes', async () => {
    refused(await s.call('carparkdel', { id: await lotId('地面停车场') }, parking), /该停车场下还有 \d+ 个车位，不能删除/);
    const b = await db().selectFrom('parking_booths').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    refused(await s.call('parkingboothdel', { id: Number(b.id) }, parking), '该岗亭下还有车道，请先删除车道');
  });

  it('keeps the gate texts per lot: defaults, edited, restored', async () => {
    const id = await lotId('地面停车场');
    const texts = ok(await s.call('gatetextlist', { lot_id: id }, parking)).items;
    expect(texts).toHaveLength(7);
    expect(texts.find((t: { event: string }) => t.event === 'temp_unpaid')).toMatchObject({ event_ch: '临时车未缴费', is_default: true });
    const edited = ok(await s.call('gatetextedit', { lot_id: id, event: 'temp_unpaid', content: '{plate} 请先缴费' }, parking)).items;
    expect(edited.find((t: { event: string }) => t.event === 'temp_unpaid')).toMatchObject({
      content: '{plate} 请先缴费',
      is_default: false,
    });
    const back = ok(await s.call('gatetextedit', { lot_id: id, event: 'temp_unpaid', content: '' }, parking)).items;
    expect(back.find((t: { event: string }) => t.event === 'temp_unpaid').is_default).toBe(true);
    refused(await s.call('gatetextlist', { lot_id: await lotId('翠湖地下车库', 2) }, parking), '所选停车场不存在');
    expect((await s.call('gatetextedit', { lot_id: id, event: 'temp_in', content: 'x' }, guard)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('spaces', () => {
  it('adds a batch, refusing a clash with the numbers that clash and adding nothing', async () => {
    const id = await lotId('地面停车场');
    const added = await s.call('parkingspacebatchadd', { lot_id: id, prefix: 'C-', from: 1, to: 20 }, parking);
    expect(added.return_msg).toBe('已添加 20 个车位');
    const clash = await s.call('parkingspacebatchadd', { lot_id: id, prefix: 'C-', from: 15, to: 30 }, parking);
    refused(clash, '以下车位号已存在：C-015、C-016、C-017、C-018、C-019、C-020，未添加任何车位');
    expect(ok(await s.call('parkingspacelist', { lot_id: id, title: 'C-0' }, parking)).total).toBe(20);
    refused(await s.call('parkingspacebatchadd', { lot_id: id, prefix: 'D-', from: 5, to: 1 }, parking), '结束编号不能小于起始编号');
    refused(
      await s.call('parkingspacebatchadd', { lot_id: await lotId('访客停车场', 2), prefix: 'D-', from: 1, to: 2 }, parking),
      '所选停车场不存在',
    );
  });

  it('never changes a space’s state by an edit, and refuses to delete a held space', async () => {
    const held = await db()
      .selectFrom('parking_spaces')
      .selectAll()
      .where('rid', '=', 1)
      .where('status', '=', 'sold')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ok(
      await s.call(
        'parkingspaceedit',
        { id: Number(held.id), lot_id: Number(held.lot_id), title: held.title, kind: 'ordinary', area: '14', status: 'idle' } as never,
        parking,
      ),
    );
    const after = await db()
      .selectFrom('parking_spaces')
      .select('status')
      .where('rid', '=', 1)
      .where('id', '=', held.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe('sold');
    refused(
      await s.call('parkingspacedel', { id: Number(held.id) }, parking),
      `车位 ${held.title} 已绑定车辆 ${held.carlicense}，请先释放车位`,
    );
  });

  it('filters by state and room', async () => {
    const rented = ok(await s.call('parkingspacelist', { status: 'rented', limit: 100 }, parking));
    expect(rented.total).toBeGreaterThan(0);
    expect(rented.items.every((r: { status_ch: string }) => r.status_ch === '出租')).toBe(true);
    const room = ok(await s.call('parkingspacelist', { room: '1号楼1单元1101' }, parking));
    expect(room.items.map((r: { carlicense: string }) => r.carlicense).sort()).toEqual(['沪A12345', '沪AD12345']);
  });
});

describe('cars: bind, release, assign, delete', () => {
  const freeSpace = async (lot: string) => {
    const id = await lotId(lot);
    return ok(await s.call('parkingspace_small_list', { lot_id: id }, parking)).items[0] as { id: number; title: string };
  };

  it('rents a space to a monthly car, releases it, assigns another, and writes the history', async () => {
    const lot = await lotId('地面停车场');
    const sp = await freeSpace('地面停车场');
    const end = await plusDays(30);
    const added = await s.call(
      'caradd',
      {
        ...(await home()),
        carlicense: '沪A·9Z876',
        lot_id: lot,
        lease_type: 'M',
        space_id: sp.id,
        start_date: await today(),
        end_date: end,
      },
      parking,
    );
    const id = ok(added).id as number;
    const info = ok(await s.call('carinfo', { id }, parking));
    expect(info).toMatchObject({
      carlicense: '沪A9Z876',
      lease_type_ch: '月租',
      lot_title: '地面停车场',
      space_title: sp.title,
      bound: 'Y',
      end_date: end,
    });
    const rented = ok(await s.call('parkingspacelist', { lot_id: lot, title: sp.title }, parking)).items[0];
    expect(rented).toMatchObject({ status: 'rented', status_ch: '出租', carlicense: '沪A9Z876', end_date: end });

    // the space is taken now
    refused(
      await s.call('caradd', { ...(await home()), carlicense: '沪A9Z877', lot_id: lot, lease_type: 'S', space_id: sp.id }, parking),
      `车位 ${sp.title} 已被车辆 沪A9Z876 占用`,
    );
    // a bound car does not move by an edit, nor its monthly end
    refused(
      await s.call(
        'caredit',
        { id, ...(await home()), carlicense: '沪A9Z876', lot_id: lot, lease_type: 'S', space_id: sp.id, end_date: end },
        parking,
      ),
      '请先释放车位再分配',
    );
    refused(
      await s.call(
        'caredit',
        { id, ...(await home()), carlicense: '沪A9Z876', lot_id: lot, lease_type: 'M', space_id: sp.id, end_date: await plusDays(90) },
        parking,
      ),
      '月租车的结束日期请通过续费调整',
    );

    expect((await s.call('carrelease', { id }, parking)).return_msg).toBe(`已释放车位 地面停车场 ${sp.title}`);
    const freed = ok(await s.call('parkingspacelist', { lot_id: lot, title: sp.title }, parking)).items[0];
    expect(freed).toMatchObject({ status: 'idle', carlicense: '', hid: null });
    refused(await s.call('carrelease', { id }, parking), '没有绑定车位');

    const other = await freeSpace('地面停车场');
    const assigned = await s.call('carassign', { id, space_id: other.id, lease_type: 'S' }, parking);
    expect(assigned.return_msg).toBe(`已分配车位 地面停车场 ${other.title}`);
    expect(ok(await s.call('parkingspacelist', { lot_id: lot, title: other.title }, parking)).items[0].status).toBe('sold');
    refused(await s.call('carassign', { id, space_id: sp.id, lease_type: 'S' }, parking), '已绑定车位，请先释放');

    const log = ok(await s.call('monthcarlog', { car_id: id }, parking)).items.map((l: { action: string }) => l.action);
    expect(log).toEqual(['assign', 'release', 'add']);

    // deleting the main car frees its space
    ok(await s.call('cardel', { id }, parking));
    expect(ok(await s.call('parkingspacelist', { lot_id: lot, title: other.title }, parking)).items[0].status).toBe('idle');
    expect(ok(await s.call('monthcarlog', { car_id: id }, parking)).items[0].action).toBe('delete');
  });

  it('asks for the lot, the space and the end where the lease needs them', async () => {
    const lot = await lotId('地面停车场');
    const h = await home();
    refused(await s.call('caradd', { ...h, carlicense: '沪A55501', lease_type: 'M' }, parking), '请选择停车场');
    refused(await s.call('caradd', { ...h, carlicense: '沪A55501', lot_id: lot }, parking), '请选择租售类型');
    refused(await s.call('caradd', { ...h, carlicense: '沪A55501', lot_id: lot, lease_type: 'M' }, parking), '月租、出售车辆须选择车位');
    const sp = await freeSpace('地面停车场');
    refused(
      await s.call('caradd', { ...h, carlicense: '沪A55501', lot_id: lot, lease_type: 'M', space_id: sp.id }, parking),
      '月租车须填写结束日期',
    );
    const under = await lotId('地下停车场A区');
    refused(
      await s.call('caradd', { ...h, carlicense: '沪A55501', lot_id: under, lease_type: 'S', space_id: sp.id }, parking),
      `车位 ${sp.title} 不在所选停车场`,
    );
    refused(await s.call('caradd', { ...h, carlicense: '沪I55501' }, parking), '车牌号格式不正确');
    // an internal car may pass without a space
    ok(await s.call('caradd', { ...h, carlicense: '沪A55501', lot_id: lot, lease_type: 'I' }, parking));
  });

  it('shares a space with member cars: release and delete of the main car wait for them', async () => {
    const lot = await lotId('地面停车场');
    const h = await home();
    const sp = await freeSpace('地面停车场');
    const main = ok(await s.call('caradd', { ...h, carlicense: '沪A66601', lot_id: lot, lease_type: 'S', space_id: sp.id }, parking)).id;
    const member = ok(await s.call('caradd', { ...h, carlicense: '沪A66602', main_car_id: main }, parking)).id;
    expect(ok(await s.call('carinfo', { id: member }, parking))).toMatchObject({
      space_title: sp.title,
      lease_type: 'S',
      main_carlicense: '沪A66601',
    });
    refused(await s.call('carrelease', { id: main }, parking), `车位 地面停车场 ${sp.title} 还有 1 辆成员车辆共用，请先释放成员车辆`);
    refused(await s.call('cardel', { id: main }, parking), '还有成员车辆共用车位');
    ok(await s.call('carrelease', { id: member }, parking));
    // the member left; the space stays the main car's
    expect(ok(await s.call('parkingspacelist', { lot_id: lot, title: sp.title }, parking)).items[0].status).toBe('sold');
    ok(await s.call('carrelease', { id: main }, parking));
    expect(ok(await s.call('parkingspacelist', { lot_id: lot, title: sp.title }, parking)).items[0].status).toBe('idle');
  });

  it('refuses to delete a car whose parking fee is unpaid', async () => {
    const c = await db()
      .selectFrom('cars')
      .select(['id', 'hid', 'carlicense'])
      .where('rid', '=', 1)
      .where('lease_type', '=', 'S')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const room = await db()
      .selectFrom('rooms')
      .select(['bid', 'tid'])
      .where('rid', '=', 1)
      .where('id', '=', c.hid)
      .executeTakeFirstOrThrow();
    const item = await db()
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('cost_type', '=', 'parking')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('fee_bills')
      .values({
        rid: 1,
        hid: c.hid,
        bid: room.bid,
        tid: room.tid,
        item_id: item.id,
        cost_type: 'parking',
        title: '车辆管理费',
        period: '2098-01',
        fee: '10.00',
        due_date: await today(),
        car_id: c.id,
        measure: c.carlicense,
      })
      .execute();
    refused(await s.call('cardel', { id: Number(c.id) }, parking), `车辆 ${c.carlicense} 还有 1 笔停车费未缴，不能删除`);
  });

  it('keeps another community’s ids out', async () => {
    const theirs = await db()
      .selectFrom('cars')
      .select('id')
      .where('rid', '=', 2)
      .where('space_id', 'is not', null)
      .executeTakeFirstOrThrow();
    refused(await s.call('carrelease', { id: Number(theirs.id) }, parking), '车辆不存在');
    refused(await s.call('moncarrenew', { id: Number(theirs.id), months: 1, pay_type: 'cash', amount: '1' }, parking), '车辆不存在');
    const space2 = await db()
      .selectFrom('parking_spaces')
      .select('id')
      .where('rid', '=', 2)
      .where('status', '=', 'idle')
      .executeTakeFirstOrThrow();
    const mine = await db().selectFrom('cars').select('id').where('rid', '=', 1).where('space_id', 'is', null).executeTakeFirst();
    if (mine)
      refused(await s.call('carassign', { id: Number(mine.id), space_id: Number(space2.id), lease_type: 'S' }, parking), '所选车位不存在');
    expect((await s.call('carrelease', { id: Number(theirs.id) }, admin2)).return_code).toBe(RC.SUCCESS);
  });
});

describe('monthly cars', () => {
  const monthly = async (filter: Record<string, unknown>) => ok(await s.call('moncarlist', { limit: 100, ...filter }, parking));

  it('lists days left, the expiring and the expired', async () => {
    const soon = await monthly({ expiring: 7 });
    expect(soon.total).toBeGreaterThan(0);
    expect(soon.items.every((c: { days_left: number }) => c.days_left >= 0 && c.days_left <= 7)).toBe(true);
    const expired = await monthly({ expired: 'Y' });
    expect(expired.total).toBeGreaterThan(0);
    expect(expired.items.every((c: { days_left: number }) => c.days_left < 0)).toBe(true);
    expect(expired.items[0].month_price).toMatch(/^\d+\.\d{2}$/);
  });

  it('renews from max(old end, today): never shortens, never back-charges; the order never changes', async () => {
    const lapsed = (await monthly({ expired: 'Y' })).items[0];
    const price = lapsed.month_price as string;
    const amount = (Number(price) * 3).toFixed(2);
    refused(
      await s.call('moncarrenew', { id: lapsed.id, months: 3, pay_type: 'cash', amount: '1.00' }, parking),
      `金额与应收不符：应收 ${amount} 元`,
    );
    const renewed = await s.call('moncarrenew', { id: lapsed.id, months: 3, pay_type: 'cash', amount }, parking);
    const expectEnd = (await sql<{ d: string }>`SELECT (current_date + interval '3 months')::date::text AS d`.execute(db())).rows[0]!.d;
    expect(renewed.return_msg).toBe(`续费成功，新到期日 ${expectEnd}`);
    expect(ok(renewed)).toMatchObject({
      months: 3,
      amount,
      old_end: lapsed.end_date,
      new_end: expectEnd,
      source_ch: '停车管理',
      pay_type_ch: '现金',
      cashier_name: '吴停车',
    });
    // a running lease extends from its end
    const again = ok(await s.call('moncarrenew', { id: lapsed.id, months: 1, pay_type: 'wechat', amount: price }, parking));
    const expectEnd2 = (await sql<{ d: string }>`SELECT (${expectEnd}::date + interval '1 month')::date::text AS d`.execute(db())).rows[0]!
      .d;
    expect(again).toMatchObject({ old_end: expectEnd, new_end: expectEnd2 });
    const spaceEnd = await db()
      .selectFrom('cars as c')
      .innerJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 'c.rid').onRef('s.id', '=', 'c.space_id'))
      .select('s.end_date')
      .where('c.id', '=', lapsed.id)
      .executeTakeFirstOrThrow();
    expect(spaceEnd.end_date).toBe(expectEnd2);
    const orders = ok(await s.call('monthcarorderlist', { car_id: lapsed.id }, parking)).items;
    expect(orders.slice(0, 2).map((o: { months: number }) => o.months)).toEqual([1, 3]);
    await expect(sql`UPDATE parking_renewals SET amount = 0 WHERE car_id = ${lapsed.id}`.execute(db())).rejects.toThrow(/never change/);
    expect(ok(await s.call('monthcarlog', { car_id: lapsed.id, action: 'renew' }, parking)).items[0].content).toContain('续费 1 个月');
  });

  it('refuses a car that is not monthly, a lot without a price, and other roles', async () => {
    const sold = await db().selectFrom('cars').select('id').where('rid', '=', 1).where('lease_type', '=', 'S').executeTakeFirstOrThrow();
    refused(await s.call('moncarrenew', { id: Number(sold.id), months: 1, pay_type: 'cash', amount: '1' }, parking), '不是月租车');
    const c = (await monthly({})).items[0];
    expect((await s.call('moncarrenew', { id: c.id, months: 1, pay_type: 'cash', amount: c.month_price }, guard)).return_code).toBe(
      RC.NO_PERMISSION,
    );
    await db()
      .updateTable('parking_lots')
      .set({ price_small: '0', price_large: '0', price_new_energy: '0' })
      .where('id', '=', c.lot_id)
      .execute();
    refused(await s.call('moncarrenew', { id: c.id, months: 1, pay_type: 'cash', amount: '0' }, parking), '该停车场未设置此车型的月租价');
    await db()
      .updateTable('parking_lots')
      .set({ price_small: '300', price_large: '450', price_new_energy: '240' })
      .where('id', '=', c.lot_id)
      .execute();
  });

  /** A parking bill of the car's room (of the car, or of the space it rents) paid at the cashier (in cash unless told). */
  const payParkingBill = async (
    carId: number,
    of: { car_id: number } | { space_id: number },
    period: string,
    pay: Record<string, unknown> = { pay_type: 'cash' },
  ) => {
    const car = await db().selectFrom('cars').select(['hid', 'end_date']).where('id', '=', carId).executeTakeFirstOrThrow();
    const item = await db()
      .selectFrom('fee_items')
      .select(['id', 'cycle_months'])
      .where('rid', '=', 1)
      .where('cost_type', '=', 'parking')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const room = await db()
      .selectFrom('rooms')
      .select(['bid', 'tid'])
      .where('rid', '=', 1)
      .where('id', '=', car.hid)
      .executeTakeFirstOrThrow();
    const bill = await db()
      .insertInto('fee_bills')
      .values({
        rid: 1,
        hid: car.hid,
        bid: room.bid,
        tid: room.tid,
        item_id: item.id,
        cost_type: 'parking',
        title: '车位管理费',
        period,
        fee: '300.00',
        due_date: await today(),
        ...of,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cashier = await s.login('cashier');
    const bills = ok(await s.call('cashierbills', { hid: Number(car.hid) }, cashier)).items as Array<{ id: number; total: string }>;
    const mine = bills.find((b) => b.id === Number(bill.id))!;
    const paid = await s.call(
      'cashierpay',
      {
        hid: Number(car.hid),
        bill_ids: [Number(bill.id)],
        ...pay,
        paid_amount: mine.total,
        idempotency_key: `carpark-${carId}-${period}`,
      },
      cashier,
    );
    expect(paid.return_code, paid.return_msg).toBe(RC.SUCCESS);
    return { old_end: car.end_date, months: item.cycle_months, amount: mine.total };
  };

  it('renews a monthly car when its parking bill is paid at the cashier', async () => {
    const c = (await monthly({ expiring: 7 })).items[0];
    const paid = await payParkingBill(c.id, { car_id: c.id }, '2099-01');
    const order = ok(await s.call('monthcarorderlist', { car_id: c.id, source: 'C' }, parking)).items[0];
    expect(order).toMatchObject({ ...paid, source_ch: '收银台', cashier_name: '赵收银' });
    expect(order.receipt_no).not.toBe('');
  });

  it('renews a monthly car when the bill of the space it rents is paid at the cashier', async () => {
    const c = (await monthly({ expiring: 7 })).items[1];
    const { space_id } = await db().selectFrom('cars').select('space_id').where('id', '=', c.id).executeTakeFirstOrThrow();
    const paid = await payParkingBill(c.id, { space_id: Number(space_id) }, '2099-02');
    const order = ok(await s.call('monthcarorderlist', { car_id: c.id, source: 'C' }, parking)).items[0];
    expect(order).toMatchObject({ ...paid, source_ch: '收银台' });
  });

  describe("by the group's payment ways", () => {
    let leader = '';
    let pos = 0;
    const group = (method: string, payload: Record<string, unknown>) => s.call(method, payload, leader, 'group');
    const rule = (pay_type: string, patch: Record<string, unknown>) =>
      group('paytypeedit', { pay_type, enabled: 'Y', counted: 'Y', ref_required: 'N', sort: 10, ...patch });
    beforeAll(async () => {
      leader = await s.login('leader');
      pos = ok(await group('paymethodadd', { name: 'POS机-停车', base: 'bankcard', enabled: 'Y', ref_required: 'Y', sort: 2 })).id;
    });
    afterAll(async () => {
      ok(await group('paymethodedit', { id: pos, name: 'POS机-停车', base: 'bankcard', enabled: 'N', ref_required: 'Y', sort: 2 }));
    });

    it('at the parking desk: a disabled way, a missing reference and an own way of another base are refused, changing nothing', async () => {
      const c = (await monthly({})).items[3];
      const renew = (extra: Record<string, unknown>) =>
        s.call('moncarrenew', { id: c.id, months: 1, amount: c.month_price, pay_type: 'cash', ...extra }, parking);
      const orders = async () => ok(await s.call('monthcarorderlist', { car_id: c.id }, parking)).total as number;
      const before = await orders();
      // the parking desk is offered the group's ways, its own among them
      expect((ok(await s.call('paytypeoptions', {}, parking)).items as Array<{ method_id: number }>).map((o) => o.method_id)).toContain(
        pos,
      );
      ok(await rule('wechat', { enabled: 'N' }));
      ok(await rule('transfer', { ref_required: 'Y' }));
      try {
        refused(await renew({ pay_type: 'wechat' }), '支付方式“微信支付”已停用，请选择其他支付方式');
        refused(await renew({ pay_type: 'transfer' }), '支付方式“银行转账”须填写凭证号（如银行流水号）');
        refused(await renew({ pay_type: 'bankcard', pay_method_id: pos }), '支付方式“POS机-停车”须填写凭证号（如银行流水号）');
        refused(await renew({ pay_type: 'cash', pay_method_id: pos, pay_ref: 'P-1' }), '支付方式“POS机-停车”属于银行卡，与所选方式不符');
        refused(await renew({ pay_type: 'bankcard', pay_ref: 'P 1' }), '凭证号只能包含字母、数字和 - _ /');
        expect(await orders()).toBe(before);
        const car = await db().selectFrom('cars').select('end_date').where('id', '=', c.id).executeTakeFirstOrThrow();
        expect(car.end_date).toBe(c.end_date || null);
      } finally {
        ok(await rule('wechat', {}));
        ok(await rule('transfer', {}));
      }
    });

    it('at the parking desk by an own way: the order prints it with its base and keeps the reference', async () => {
      const c = (await monthly({})).items[3];
      const order = ok(
        await s.call(
          'moncarrenew',
          { id: c.id, months: 1, amount: c.month_price, pay_type: 'bankcard', pay_method_id: pos, pay_ref: 'POS-77' },
          parking,
        ),
      );
      expect(order).toMatchObject({ source: 'D', pay_type: 'bankcard', pay_type_ch: 'POS机-停车（银行卡）', pay_ref: 'POS-77' });
      const listed = ok(await s.call('monthcarorderlist', { car_id: c.id }, parking)).items[0];
      expect(listed).toMatchObject({ id: order.id, pay_type_ch: 'POS机-停车（银行卡）', pay_ref: 'POS-77' });
    });

    it("at the cashier: the renewal takes the receipt's way", async () => {
      const c = (await monthly({ expiring: 7 })).items[2] ?? (await monthly({})).items[4];
      await payParkingBill(c.id, { car_id: c.id }, '2099-03', { pay_type: 'bankcard', pay_method_id: pos, pay_ref: 'POS-88' });
      const order = ok(await s.call('monthcarorderlist', { car_id: c.id, source: 'C' }, parking)).items[0];
      expect(order).toMatchObject({ source_ch: '收银台', pay_type: 'bankcard', pay_type_ch: 'POS机-停车（银行卡）', pay_ref: 'POS-88' });
    });
  });

  it('puts a car ending within the warning days on the to-do list once per end day', async () => {
    const c = (await monthly({ expiring: 7 })).items[0];
    await raiseExpiring(db(), 1);
    const rows = await db().selectFrom('backlog').selectAll().where('rid', '=', 1).where('kind', '=', 'carpark').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.title.startsWith('月租车 ') && r.link.startsWith('/carpark/moncarlist'))).toBe(true);
    await db().updateTable('backlog').set({ status: 'Y' }).where('rid', '=', 1).where('kind', '=', 'carpark').execute();
    expect(await raiseExpiring(db(), 1)).toBe(0);
    const todo = ok(await s.call('backlog_list', { kind: 'carpark' } as never, parking));
    expect(todo.total).toBeGreaterThanOrEqual(0);
    expect(c.days_left).toBeLessThanOrEqual(7);
  });
});
