import { addMonths, type FeeThingRow, type ThingKind } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let finance: string;
let steward: string;
/** a building of its own in community 1: unit 1 with rooms A and B, unit 2 with room C */
let bid: number;
let rooms: { A: number; B: number; C: number };
const items = {} as Record<'building' | 'room' | 'region' | 'space' | 'car' | 'allCars' | 'off', number>;

const db = () => t.database.db;
// next month: no demo bill yet but the year one owner prepaid (cards/seedCoupons.ts), and the rented spaces' leases still running
const nextMonth = addMonths(`${today().slice(0, 7)}-01`, 1).slice(0, 7);
const list = (payload: Record<string, unknown>, token = admin) =>
  t.call<{ items: FeeThingRow[]; total: number }>('feethingpagelist', payload, token);
const roomCount = async () =>
  (
    await db()
      .selectFrom('rooms')
      .where('rid', '=', 1)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const titlesOf = (row: FeeThingRow | undefined) => (row?.items ?? []).map((i) => i.item_title).sort();
const viaOf = (row: FeeThingRow | undefined, title: string) => row?.items.find((i) => i.item_title === title);

async function insertId(query: ReturnType<typeof sql<{ id: string }>>): Promise<number> {
  return Number((await query.execute(db())).rows[0]!.id);
}

async function newItem(title: string, costType: string, price: string, status = 'Y') {
  return insertId(sql<{ id: string }>`INSERT INTO fee_items (rid, cost_type, title, pricing, unit_price, status)
    VALUES (1, ${costType}, ${title}, 'fixed', ${price}, ${status}) RETURNING id`);
}

async function bind(item: number, scope: string, refIds: number[] = []) {
  const res = await t.call('bindfeeadd', { item_id: item, scope, ref_ids: refIds }, admin);
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
}

/** How many bills a generation of `item` for next month would make: the generation's own figure. */
async function generationCount(item: number): Promise<number> {
  const preview = await t.call('feebillgenerate', { period: nextMonth, item_ids: [item], preview: true }, admin);
  expect(preview.return_code, preview.return_msg).toBe('SUCCESS');
  return preview.data.count;
}

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier, finance, steward] = await t.logins('admin', 'admin2', 'cashier', 'finance', 'steward');
  bid = await insertId(sql<{ id: string }>`INSERT INTO buildings (rid, title, sort) VALUES (1, '对象测试楼', 998) RETURNING id`);
  const unit = (title: string) =>
    insertId(sql<{ id: string }>`INSERT INTO units (rid, bid, title) VALUES (1, ${bid}, ${title}) RETURNING id`);
  const [u1, u2] = [await unit('1单元'), await unit('2单元')];
  const room = (tid: number, title: string) =>
    insertId(
      sql<{ id: string }>`INSERT INTO rooms (rid, bid, tid, title, built_area) VALUES (1, ${bid}, ${tid}, ${title}, 88.5) RETURNING id`,
    );
  rooms = { A: await room(u1, 'A01'), B: await room(u1, 'B01'), C: await room(u2, 'C01') };
  items.building = await newItem('对象测试楼栋费', 'other', '1.0000');
  items.room = await newItem('对象测试房屋费', 'other', '2.5000');
  items.region = await newItem('对象测试全区费', 'other', '3.0000');
  items.space = await newItem('对象测试车位费', 'parking', '40.0000');
  items.car = await newItem('对象测试车辆费', 'parking', '5.0000');
  items.allCars = await newItem('对象测试全车费', 'parking', '6.0000');
  items.off = await newItem('对象测试停用费', 'other', '9.0000', 'N');
  await bind(items.building, 'building', [bid]);
  await bind(items.room, 'room', [rooms.A]);
  // A gets the room item twice over: by room and by its building, and shows the narrower binding
  await bind(items.room, 'building', [bid]);
  await bind(items.off, 'room', [rooms.C]);
});
afterAll(() => t.close());

describe('feethingpagelist: rooms', () => {
  it("lists a building's rooms with every item in use that applies and how it is bound", async () => {
    await bind(items.region, 'region');
    const res = await list({ building_id: bid });
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.data.total).toBe(3);
    const [a, b, c] = [rooms.A, rooms.B, rooms.C].map((id) => res.data.items.find((r) => r.id === id));
    expect(a).toMatchObject({
      kind: 'room',
      kind_ch: '房屋',
      title: '对象测试楼1单元A01',
      address: '对象测试楼1单元A01',
      hid: rooms.A,
      bid,
      area: '88.50',
    });
    // the demo's community-wide item reaches them too; the stopped item never shows
    expect(titlesOf(a)).toEqual(['公共能耗分摊', '对象测试全区费', '对象测试房屋费', '对象测试楼栋费']);
    expect(titlesOf(b)).toEqual(['公共能耗分摊', '对象测试全区费', '对象测试房屋费', '对象测试楼栋费']);
    expect(titlesOf(c)).toEqual(titlesOf(b));
    expect(viaOf(a, '对象测试房屋费')).toMatchObject({
      via_scope: 'room',
      via_scope_ch: '单个房屋',
      via_title: '对象测试楼1单元A01',
      unit_price: '2.5000',
      pricing: 'fixed',
      pricing_ch: '固定金额',
    });
    expect(viaOf(b, '对象测试房屋费')).toMatchObject({ via_scope: 'building', via_scope_ch: '楼栋', via_title: '对象测试楼' });
    expect(viaOf(c, '对象测试全区费')).toMatchObject({ via_scope: 'region', via_scope_ch: '全小区', via_title: '阳光花园' });
  });

  it("shows the demo owner's room with its owner, area and the demo's category, building and community bindings", async () => {
    const res = await list({ keywords: '1号楼1单元1101' });
    expect(res.data.total).toBe(1);
    const row = res.data.items[0]!;
    expect(row).toMatchObject({ title: '1号楼1单元1101', owner_name: '陈建国' });
    expect(Number(row.area)).toBeGreaterThan(0);
    expect(viaOf(row, '物业服务费')).toMatchObject({ via_scope_ch: '房屋类别', via_title: '住宅', pricing: 'area_built' });
    expect(viaOf(row, '生活用水')).toMatchObject({ via_scope_ch: '楼栋', via_title: '1号楼' });
    expect(viaOf(row, '公共能耗分摊')).toMatchObject({ via_scope_ch: '全小区' });
  });

  it('narrows to the rooms an item applies to, exactly those a generation of it would bill', async () => {
    const byRoom = await list({ item_id: items.room, limit: 50 });
    expect(byRoom.data.items.map((r) => r.id).sort()).toEqual([rooms.A, rooms.B, rooms.C].sort());
    expect(byRoom.data.total).toBe(await generationCount(items.room));
    const region = await list({ item_id: items.region, limit: 1 });
    expect(region.data.total).toBe(await roomCount());
    expect(region.data.total).toBe(await generationCount(items.region));
    // the demo's water, bound to 1号楼, and the property fee, bound by category
    for (const title of ['生活用水', '物业服务费']) {
      const item = await db()
        .selectFrom('fee_items')
        .select('id')
        .where('rid', '=', 1)
        .where('title', '=', title)
        .executeTakeFirstOrThrow();
      // a room billed for the month already (the prepaid year) still has the item; a generation skips it
      const billed = await db()
        .selectFrom('fee_bills')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', 1)
        .where('item_id', '=', item.id)
        .where('period', '=', nextMonth)
        .executeTakeFirstOrThrow();
      expect((await list({ item_id: item.id })).data.total, title).toBe((await generationCount(item.id)) + billed.n);
    }
    // a stopped item applies to nothing
    expect((await list({ item_id: items.off })).data.total).toBe(0);
  });

  it('pages in the database: ten by default, any page and size, either order', async () => {
    const first = await list({ building_id: bid, limit: 2 });
    expect(first.data.items.map((r) => r.id)).toEqual([rooms.A, rooms.B]);
    expect(first.data.total).toBe(3);
    const second = await list({ building_id: bid, limit: 2, page: 2 });
    expect(second.data.items.map((r) => r.id)).toEqual([rooms.C]);
    expect(second.data.total).toBe(3);
    expect((await list({ building_id: bid, sort: 'desc', limit: 1 })).data.items[0]!.id).toBe(rooms.C);
    const whole = await list({});
    expect(whole.data.items).toHaveLength(10);
    expect(whole.data.total).toBe(await roomCount());
  });

  it('shows only the rooms no item applies to, or those one item does not apply to', async () => {
    // every room has the community-wide items
    expect((await list({ unbound: true })).data.total).toBe(0);
    expect((await list({ unbound: true, building_id: bid })).data.items).toEqual([]);
    // without the room item: none of the building; without the building item: the rest of the community
    expect((await list({ unbound: true, item_id: items.room, building_id: bid })).data.total).toBe(0);
    const notBuilding = await list({ unbound: true, item_id: items.building });
    expect(notBuilding.data.total).toBe((await roomCount()) - 3);
    expect(notBuilding.data.items.some((r) => r.bid === bid)).toBe(false);
    // with the community-wide items stopped and the building's binding gone, B and C have nothing
    await sql`UPDATE fee_items SET status = 'N' WHERE rid = 1 AND title IN ('公共能耗分摊', '对象测试全区费')`.execute(db());
    await sql`DELETE FROM fee_bindings WHERE rid = 1 AND item_id = ${items.room} AND scope = 'building'`.execute(db());
    try {
      const unbound = await list({ unbound: true, item_id: items.room, building_id: bid });
      expect(unbound.data.items.map((r) => r.id)).toEqual([rooms.B, rooms.C]);
      expect(unbound.data.items.every((r) => r.items.every((i) => i.item_title === '对象测试楼栋费'))).toBe(true);
      await sql`DELETE FROM fee_bindings WHERE rid = 1 AND item_id = ${items.building}`.execute(db());
      const bare = await list({ unbound: true, building_id: bid });
      expect(bare.data.items.map((r) => [r.id, r.items.length])).toEqual([
        [rooms.B, 0],
        [rooms.C, 0],
      ]);
      // the whole community: the shops and residences keep the property fee, so only the test building's two
      expect((await list({ unbound: true })).data.total).toBe(2);
    } finally {
      await sql`UPDATE fee_items SET status = 'Y' WHERE rid = 1 AND title IN ('公共能耗分摊', '对象测试全区费')`.execute(db());
      await bind(items.room, 'building', [bid]);
      await bind(items.building, 'building', [bid]);
    }
  });
});

describe('feethingpagelist: spaces and cars', () => {
  it("lists the billed spaces with their lot's and their own bindings, not the idle ones", async () => {
    const space = await db()
      .selectFrom('parking_spaces')
      .select(['id', 'hid'])
      .where('rid', '=', 1)
      .where('carlicense', '=', '沪A12345')
      .executeTakeFirstOrThrow();
    await bind(items.space, 'space', [space.id]);
    const res = await list({ kind: 'space', keywords: '沪A12345' });
    expect(res.data.total).toBe(1);
    const row = res.data.items[0]!;
    expect(row).toMatchObject({ id: space.id, kind: 'space', kind_ch: '车位', hid: space.hid, area: null });
    expect(row.title).toMatch(/^地下停车场A区 A-\d{3}$/);
    expect(row.address).toBe('1号楼1单元1101');
    expect(row.owner_name).toBe('陈建国');
    expect(viaOf(row, '地下车位管理费')).toMatchObject({ via_scope: 'lot', via_scope_ch: '停车场', via_title: '地下停车场A区' });
    expect(viaOf(row, '对象测试车位费')).toMatchObject({ via_scope: 'space', via_scope_ch: '单个车位', unit_price: '40.0000' });
    // room items stay with the rooms
    expect(viaOf(row, '公共能耗分摊')).toBeUndefined();
    // the demo's charging space: its own binding and the lot's
    const charging = (await list({ kind: 'space', keywords: '沪AD12345' })).data.items[0];
    expect(titlesOf(charging)).toEqual(['充电车位服务费', '地下车位管理费']);
    // idle spaces of the second lot are billed nothing and are not listed
    expect((await list({ kind: 'space', keywords: 'B-001' })).data.total).toBe(0);
    const billed = await db()
      .selectFrom('parking_spaces')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('status', 'in', ['sold', 'rented'])
      .where('hid', 'is not', null)
      // a space whose holding ended before this month is billed no more (spaceBillable)
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', `${today().slice(0, 7)}-01`)]))
      .executeTakeFirstOrThrow();
    const all = await list({ kind: 'space' });
    expect(all.data.total).toBe(billed.n);
    // those a generation of the space item would bill
    expect((await list({ kind: 'space', item_id: items.space })).data.total).toBe(await generationCount(items.space));
    expect((await list({ kind: 'space', unbound: true })).data.total).toBe(0);
    expect((await list({ kind: 'space', unbound: true, item_id: items.space })).data.total).toBe(billed.n - 1);
  });

  it('lists the cars in use with their own and the all-cars bindings', async () => {
    const car = await db()
      .selectFrom('cars')
      .select(['id', 'hid'])
      .where('rid', '=', 1)
      .where('carlicense', '=', '沪AD12345')
      .executeTakeFirstOrThrow();
    await bind(items.car, 'car', [car.id]);
    const inUse = await db()
      .selectFrom('cars')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .executeTakeFirstOrThrow();
    // the demo binds 车辆管理费 to 沪A12345, this test the car item to 沪AD12345: the other cars have nothing
    const unbound = await list({ kind: 'car', unbound: true });
    expect(unbound.data.total).toBe(inUse.n - 2);
    expect(unbound.data.items.every((r) => r.items.length === 0)).toBe(true);

    await bind(items.allCars, 'car');
    const res = await list({ kind: 'car', keywords: '沪ad12345' });
    expect(res.data.total).toBe(1);
    const row = res.data.items[0]!;
    expect(row).toMatchObject({
      id: car.id,
      kind: 'car',
      kind_ch: '车辆',
      title: '沪AD12345',
      hid: car.hid,
      owner_name: '李秀英',
      area: null,
    });
    expect(viaOf(row, '对象测试车辆费')).toMatchObject({ via_scope: 'car', via_scope_ch: '车辆', via_title: '沪AD12345' });
    expect(viaOf(row, '对象测试全车费')).toMatchObject({ via_scope: 'car', via_scope_ch: '车辆', via_title: '全部车辆' });
    expect((await list({ kind: 'car', unbound: true })).data.total).toBe(0);
    expect((await list({ kind: 'car', item_id: items.allCars })).data.total).toBe(inUse.n);
    expect((await list({ kind: 'car', item_id: items.car })).data.items.map((r) => r.id)).toEqual([car.id]);
    expect(inUse.n).toBe(await generationCount(items.allCars));
    // the building filter is the charged room's
    const building = await db().selectFrom('rooms').select('bid').where('rid', '=', 1).where('id', '=', car.hid).executeTakeFirstOrThrow();
    const inBuilding = await list({ kind: 'car', building_id: building.bid, limit: 200 });
    expect(inBuilding.data.items.some((r) => r.id === car.id)).toBe(true);
    expect(inBuilding.data.items.every((r) => r.bid === building.bid)).toBe(true);
    expect((await list({ kind: 'car', building_id: bid })).data.total).toBe(0);
  });
});

describe('feethingpagelist: who and what', () => {
  it('is read by the roles that read the bindings and refused to the others', async () => {
    for (const token of [cashier, finance]) expect((await list({ building_id: bid }, token)).data.total).toBe(3);
    const refused = await list({}, steward);
    expect(refused.return_code).toBe('NO_PERMISSION');
    expect((await t.call('feethingpageexport', {}, steward)).return_code).toBe('NO_PERMISSION');
  });

  it("answers nothing of another community's building, and nothing of ours to it", async () => {
    const theirs = await db().selectFrom('buildings').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow();
    for (const kind of ['room', 'space', 'car'] as ThingKind[]) {
      const res = await list({ kind, building_id: theirs.id });
      expect(res.return_code).toBe('SUCCESS');
      expect(res.data).toEqual({ items: [], total: 0 });
    }
    expect((await list({ building_id: bid }, admin2)).data).toEqual({ items: [], total: 0 });
    expect((await list({ item_id: items.building }, admin2)).data.total).toBe(0);
  });

  it('refuses a bad payload with a Chinese message naming the field', async () => {
    const bad = await list({ kind: 'x' });
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toContain('收费对象类型取值不正确');
    for (const payload of [{ building_id: 'x' }, { limit: 500 }, { unbound: 'maybe' }, { keywords: 'a'.repeat(51) }]) {
      const res = await list(payload);
      expect(res.return_code, JSON.stringify(payload)).toBe('FAIL');
      expect(res.return_msg).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await list({ building_id: '', item_id: null, unbound: '' })).return_code).toBe('SUCCESS');
  });

  it('exports the filtered things with their items and bindings', async () => {
    const file = await t.exportFile('feethingpageexport', { building_id: bid }, admin);
    expect(file.return_code, file.return_msg).toBe('SUCCESS');
    expect(file.data.filename).toMatch(/^收费对象_房屋_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(['房屋', '计费房屋', '业主', '建筑面积(㎡)', '收费项目数', '收费项目（绑定方式，单价）']);
    expect(sheet.rows.map((r) => r.values['房屋'])).toEqual(['对象测试楼1单元A01', '对象测试楼1单元B01', '对象测试楼2单元C01']);
    const a = sheet.rows[0]!.values;
    expect(a['收费项目数']).toBe('4');
    expect(a['收费项目（绑定方式，单价）']).toContain('对象测试房屋费（单个房屋 对象测试楼1单元A01，2.5000 固定金额）');
    const cars = await t.exportFile('feethingpageexport', { kind: 'car', keywords: '沪AD12345' }, admin);
    const carSheet = await readXlsx(cars.data.content_base64);
    expect(carSheet.headers[0]).toBe('车牌');
    expect(carSheet.rows.map((r) => r.values['车牌'])).toEqual(['沪AD12345']);
    expect((await t.call('feethingpageexport', { kind: 'x' }, admin)).return_msg).toContain('收费对象类型取值不正确');
  });
});
