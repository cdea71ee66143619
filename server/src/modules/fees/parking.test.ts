import { addMonths } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
let key = 0;
const newKey = () => `parking-key-${Date.now()}-${++key}`;
const thisMonth = today().slice(0, 7);
const nextMonth = addMonths(`${thisMonth}-01`, 1).slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
});
afterAll(() => t.close());

const db = () => t.database.db;
const count = async (table: 'fee_bills' | 'fee_bindings' | 'fee_items', rid = 1) =>
  (
    await db()
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', rid)
      .executeTakeFirstOrThrow()
  ).n;

async function addItem(title: string, over: Record<string, unknown> = {}) {
  const res = await t.call('feeitemadd', { cost_type: 'parking', title, pricing: 'fixed', unit_price: '100', ...over }, admin);
  expect(res.return_code).toBe('SUCCESS');
  return res.data.id as number;
}

async function generate(payload: Record<string, unknown>) {
  const go = await t.call('feebillgenerate', payload, admin);
  expect(go.return_code).toBe('SUCCESS');
  await t.runJobs();
  expect((await t.call('jobinfo', { id: go.data.job_id }, admin)).data.status).toBe('done');
  return go.data as { count: number; total_fee: string; batch_id: number };
}

const lot1 = () => db().selectFrom('parking_lots').select(['id', 'title']).where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();

describe('parking bills in the demo', () => {
  it('bills every sold or rented space of the bound lot once, charged to its room, showing the space', async () => {
    const lot = await lot1();
    const spaces = await db()
      .selectFrom('parking_spaces')
      .select(['id', 'hid', 'title'])
      .where('rid', '=', 1)
      .where('lot_id', '=', lot.id)
      .where('status', '<>', 'idle')
      .where('hid', 'is not', null)
      // a space whose holding ended before this month is billed no more (spaceBillable)
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', `${thisMonth}-01`)]))
      .execute();
    const bills = await db()
      .selectFrom('fee_bills')
      .select(['hid', 'space_id', 'car_id', 'measure', 'fee', 'title'])
      .where('rid', '=', 1)
      .where('cost_type', '=', 'parking')
      .where('period', '=', thisMonth)
      .execute();
    expect(spaces.length).toBeGreaterThan(10);
    expect(bills).toHaveLength(spaces.length);
    for (const s of spaces) {
      const bill = bills.find((b) => b.space_id === s.id);
      expect(bill).toMatchObject({ hid: s.hid, car_id: 0, measure: `${lot.title} ${s.title}`, fee: '300.00', title: '地下车位管理费' });
    }
  });
});

describe('bindfeetargets', () => {
  it("lists lots, spaces (by lot, title or plate) and cars of the session's community only", async () => {
    const lot = await lot1();
    const lots = await t.call('bindfeetargets', { scope: 'lot' }, admin);
    expect(lots.return_code).toBe('SUCCESS');
    expect(lots.data.items.map((l: { title: string }) => l.title)).toEqual(['地下停车场A区', '地面停车场']);
    const spaces = await t.call('bindfeetargets', { scope: 'space', lot_id: lot.id, keyword: 'A-001' }, admin);
    expect(spaces.data.items).toHaveLength(1);
    expect(spaces.data.items[0].title).toBe('地下停车场A区 A-001');
    expect(spaces.data.items[0].address).toMatch(/已(售|租) · \d+号楼\d单元\d+/);
    const car = await db().selectFrom('cars').select(['id', 'carlicense']).where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const cars = await t.call('bindfeetargets', { scope: 'car', keyword: car.carlicense }, admin);
    expect(cars.data.items.map((c: { id: number }) => c.id)).toEqual([car.id]);
    // another community sees its own lots, never community 1's spaces or cars
    const other = await t.call('bindfeetargets', { scope: 'lot' }, admin2);
    expect(other.data.items.map((l: { title: string }) => l.title)).toEqual(['翠湖地下车库', '访客停车场']);
    expect((await t.call('bindfeetargets', { scope: 'space', lot_id: lot.id }, admin2)).data.items).toEqual([]);
    expect((await t.call('bindfeetargets', { scope: 'car', keyword: car.carlicense }, admin2)).data.items).toEqual([]);
    expect((await t.call('bindfeetargets', { scope: 'lot' }, steward)).return_code).toBe('NO_PERMISSION');
    const bad = await t.call('bindfeetargets', { scope: 'garage' }, admin);
    expect(bad.return_code).toBe('FAIL');
    expect(bad.return_msg).toContain('scope');
  });
});

describe('binding parking items', () => {
  it('one bill per space of a room, idempotent; idle and ended leases are not billed', async () => {
    const lot = await lot1();
    const itemId = await addItem('测试月租车位费', { unit_price: '150.5', cycle_months: 2 });
    // a room with an A space gets a second, sold space in the other lot, bound on its own
    const a = await db()
      .selectFrom('parking_spaces')
      .select(['id', 'hid', 'member_id'])
      .where('rid', '=', 1)
      .where('lot_id', '=', lot.id)
      .where('status', '=', 'sold')
      .where(sql<boolean>`(SELECT count(*) FROM parking_spaces x WHERE x.rid = parking_spaces.rid AND x.hid = parking_spaces.hid) = 1`)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const b = await db()
      .selectFrom('parking_spaces')
      .select(['id', 'title'])
      .where('rid', '=', 1)
      .where('status', '=', 'idle')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('parking_spaces')
      .set({ status: 'sold', hid: a.hid, member_id: a.member_id })
      .where('rid', '=', 1)
      .where('id', '=', b.id)
      .execute();
    expect((await t.call('bindfeeadd', { item_id: itemId, scope: 'lot', ref_ids: [lot.id] }, admin)).data.added).toBe(1);
    expect((await t.call('bindfeeadd', { item_id: itemId, scope: 'space', ref_ids: [b.id] }, admin)).data.added).toBe(1);
    const list = await t.call('bindfeelist', { item_id: itemId }, admin);
    expect(list.data.items.map((r: { scope_ch: string; target_title: string }) => `${r.scope_ch}:${r.target_title}`).sort()).toEqual(
      ['停车场:地下停车场A区', `单个车位:地面停车场 ${b.title}`].sort(),
    );

    const preview = await t.call('feebillgenerate', { period: nextMonth, item_ids: [itemId], hids: [a.hid!], preview: true }, admin);
    expect(preview.data).toMatchObject({ count: 2, total_fee: '602.00' });
    await generate({ period: nextMonth, item_ids: [itemId], hids: [a.hid!] });
    const bills = await t.call('feebilllist', { hid: a.hid, itemid: itemId }, admin);
    expect(bills.data.total).toBe(2);
    expect(bills.data.items.map((x: { space_id: number; fee: string }) => [x.space_id, x.fee]).sort()).toEqual(
      [
        [a.id, '301.00'],
        [b.id, '301.00'],
      ].sort(),
    );
    expect(
      bills.data.items.every((x: { car_id: number; daterange: string }) => x.car_id === 0 && x.daterange.startsWith(`${nextMonth}-01 ~ `)),
    ).toBe(true);
    // running it again creates nothing
    const again = await t.call('feebillgenerate', { period: nextMonth, item_ids: [itemId], hids: [a.hid!], preview: true }, admin);
    expect(again.data.count).toBe(0);
    expect((await t.call('feebillgenerate', { period: nextMonth, item_ids: [itemId], hids: [a.hid!] }, admin)).return_msg).toContain(
      '没有需要生成的账单',
    );

    // an idle space and a rented space whose lease ended before the period are left out
    const rented = await db()
      .selectFrom('parking_spaces')
      .select(['id', 'hid'])
      .where('rid', '=', 1)
      .where('lot_id', '=', lot.id)
      .where('status', '=', 'rented')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('parking_spaces')
      .set({ end_date: `${thisMonth}-01` })
      .where('rid', '=', 1)
      .where('id', '=', rented.id)
      .execute();
    const ended = await t.call('feebillgenerate', { period: nextMonth, item_ids: [itemId], hids: [rented.hid!], preview: true }, admin);
    expect(ended.data.count).toBe(0);
  });

  it('binds all cars (ref 0) or one car: a bill per car showing its plate', async () => {
    const itemId = await addItem('测试车辆管理费', { unit_price: '20' });
    const all = await t.call('bindfeeadd', { item_id: itemId, scope: 'car', ref_ids: [] }, admin);
    expect(all.return_code).toBe('SUCCESS');
    const list = await t.call('bindfeelist', { item_id: itemId }, admin);
    expect(list.data.items[0]).toMatchObject({ scope: 'car', scope_ch: '车辆', ref_id: 0, target_title: '全部车辆' });
    const inUse = (
      await db()
        .selectFrom('cars')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', 1)
        .where('status', '=', 'Y')
        .executeTakeFirstOrThrow()
    ).n;
    const preview = await t.call('feebillgenerate', { period: nextMonth, item_ids: [itemId], preview: true }, admin);
    expect(preview.data.count).toBe(inUse);
    const car = await db()
      .selectFrom('cars')
      .select(['id', 'hid', 'carlicense'])
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await generate({ period: nextMonth, item_ids: [itemId], hids: [car.hid] });
    const bills = await t.call('feebilllist', { itemid: itemId, keyword: car.carlicense }, admin);
    expect(bills.data.total).toBe(1);
    expect(bills.data.items[0]).toMatchObject({ hid: car.hid, car_id: car.id, space_id: 0, measure: car.carlicense, fee: '20.00' });

    // the cashier tells the parking bills apart and the receipt names the plate
    const desk = await t.call('cashierbills', { hid: car.hid }, cashier);
    const line = desk.data.items.find((x: { car_id: number }) => x.car_id === car.id);
    expect(line).toMatchObject({ measure: car.carlicense, title: '测试车辆管理费' });
    const paid = await t.call(
      'cashierpay',
      { hid: car.hid, bill_ids: [line.id], pay_type: 'cash', paid_amount: line.total, idempotency_key: newKey() },
      cashier,
    );
    expect(paid.return_code).toBe('SUCCESS');
    expect(paid.data.items[0].title).toBe(`测试车辆管理费（${car.carlicense}）`);

    // one car on its own
    const one = await addItem('测试单车费', { unit_price: '5' });
    expect((await t.call('bindfeeadd', { item_id: one, scope: 'car', ref_ids: [car.id] }, admin)).data.added).toBe(1);
    expect((await t.call('feebillgenerate', { period: nextMonth, item_ids: [one], preview: true }, admin)).data).toMatchObject({
      count: 1,
      total_fee: '5.00',
    });
  });

  it("refuses area pricing for parking, other communities' targets, bad payloads and other roles", async () => {
    const lot = await lot1();
    const area = await addItem('测试按面积停车', { pricing: 'area_built', unit_price: '1' });
    expect((await t.call('bindfeeadd', { item_id: area, scope: 'lot', ref_ids: [lot.id] }, admin)).return_msg).toContain(
      '按面积计费的收费项目不能绑定',
    );
    const fixed = await addItem('测试固定停车', { unit_price: '1' });
    expect((await t.call('bindfeeadd', { item_id: fixed, scope: 'lot', ref_ids: [lot.id] }, admin)).return_code).toBe('SUCCESS');
    const edit = await t.call(
      'feeitemedit',
      { id: fixed, cost_type: 'parking', title: '测试固定停车', pricing: 'area_indoor', unit_price: '1' },
      admin,
    );
    expect(edit.return_msg).toContain('按面积计费的收费项目不能绑定');

    const before = await count('fee_bindings', 2);
    const space = await db().selectFrom('parking_spaces').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const otherItem = await db()
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 2)
      .where('cost_type', '=', 'parking')
      .executeTakeFirstOrThrow();
    for (const [scope, ref] of [
      ['lot', lot.id],
      ['space', space.id],
      ['car', (await db().selectFrom('cars').select('id').where('rid', '=', 1).executeTakeFirstOrThrow()).id],
    ] as const) {
      expect((await t.call('bindfeeadd', { item_id: otherItem.id, scope, ref_ids: [ref] }, admin2)).return_msg).toBe(
        '所选的绑定对象不存在',
      );
    }
    expect(await count('fee_bindings', 2)).toBe(before);
    expect((await t.call('bindfeeadd', { item_id: fixed, scope: 'space', ref_ids: [] }, admin)).return_msg).toBe('请选择要绑定的对象');
    expect((await t.call('bindfeeadd', { item_id: fixed, scope: 'car', ref_ids: [-3] }, admin)).return_code).toBe('FAIL');
    expect((await t.call('bindfeeadd', { item_id: fixed, scope: 'lot', ref_ids: [lot.id] }, steward)).return_code).toBe('NO_PERMISSION');
  });
});

describe('meter readings', () => {
  const water = () =>
    db()
      .selectFrom('fee_items')
      .select(['id', 'unit_price', 'default_quantity'])
      .where('rid', '=', 1)
      .where('cost_type', '=', 'water')
      .executeTakeFirstOrThrow();
  const lastMonth = addMonths(`${thisMonth}-01`, -1).slice(0, 7);
  /** rooms of 1号楼 (bound to 生活用水 in the demo), a different one per call */
  let roomIndex = 0;
  const room = async () => {
    const rows = await db()
      .selectFrom('rooms as r')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
      .select(['r.id', 'r.bid'])
      .where('r.rid', '=', 1)
      .where('b.title', '=', '1号楼')
      .orderBy('r.id')
      .execute();
    return rows[roomIndex++ * 3 + 1]!;
  };

  it('pre-fills the previous reading, bills quantity x price, and the default quantity without a reading', async () => {
    const w = await water();
    const r = await room();
    const seeded = await db()
      .selectFrom('fee_meter_readings')
      .select(['this_reading'])
      .where('rid', '=', 1)
      .where('hid', '=', r.id)
      .where('period', '=', lastMonth)
      .executeTakeFirstOrThrow();
    const prev = await t.call('meterreadingprev', { hid: r.id, item_id: w.id, period: nextMonth }, admin);
    expect(prev.data).toEqual({ last_reading: seeded.this_reading, last_period: lastMonth });
    const add = await t.call(
      'meterreadingadd',
      { hid: r.id, item_id: w.id, period: nextMonth, this_reading: (Number(seeded.this_reading) + 17.35).toFixed(2) },
      cashier,
    );
    expect(add.return_code).toBe('SUCCESS');
    expect(add.data.bill_updated).toBe(false);
    const list = await t.call('meterreadinglist', { item_id: w.id, period: nextMonth, bid: r.bid }, admin);
    expect(list.data.total).toBe(1);
    expect(list.data.items[0]).toMatchObject({
      hid: r.id,
      last_reading: seeded.this_reading,
      quantity: '17.35',
      amount: '72.87',
      bill_status: '',
      create_user: '赵收银',
    });
    expect(list.data.items[0].address).toMatch(/^1号楼\d单元\d+$/);

    // another room of 1号楼 without a reading: the default quantity, times the cycle
    const other = await room();
    await generate({ period: nextMonth, item_ids: [w.id], hids: [r.id, other.id] });
    const bills = await t.call('feebilllist', { itemid: w.id, period: nextMonth }, admin);
    const of = (hid: number) => bills.data.items.find((b: { hid: number }) => b.hid === hid);
    expect(of(r.id)).toMatchObject({ measure: '17.35', fee: '72.87', unit_price: '4.2000' });
    expect(of(other.id)).toMatchObject({ measure: w.default_quantity, fee: '50.40' });
    const listed = await t.call('meterreadinglist', { item_id: w.id, period: nextMonth, keyword: '1号楼' }, admin);
    expect(listed.data.items.find((m: { hid: number }) => m.hid === r.id)).toMatchObject({ bill_status: 'E', bill_fee: '72.87' });
  });

  it("an edit re-prices the unpaid bill with an adjustment; a paid bill's reading cannot change", async () => {
    const w = await water();
    const r = await room();
    const add = await t.call(
      'meterreadingadd',
      { hid: r.id, item_id: w.id, period: nextMonth, last_reading: '10', this_reading: '20' },
      admin,
    );
    expect(add.return_code).toBe('SUCCESS');
    await generate({ period: nextMonth, item_ids: [w.id], hids: [r.id] });
    const edit = await t.call('meterreadingedit', { id: add.data.id, last_reading: '10', this_reading: '25.5' }, admin);
    expect(edit.return_code).toBe('SUCCESS');
    expect(edit.data.bill_updated).toBe(true);
    const bill = await db()
      .selectFrom('fee_bills')
      .select(['id', 'fee', 'measure'])
      .where('rid', '=', 1)
      .where('hid', '=', r.id)
      .where('item_id', '=', w.id)
      .where('period', '=', nextMonth)
      .executeTakeFirstOrThrow();
    expect(bill).toMatchObject({ fee: '65.10', measure: '15.50' });
    const info = await t.call('feebillinfo', { id: bill.id }, admin);
    expect(info.data.adjustments).toEqual([expect.objectContaining({ old_fee: '42.00', new_fee: '65.10', reason: '抄表读数修改' })]);
    expect((await t.call('meterreadingdel', { id: add.data.id }, admin)).return_msg).toContain('不能删除');
    // the seeded bills of last month: even rooms are paid
    const paid = await db()
      .selectFrom('fee_bills as b')
      .innerJoin('fee_meter_readings as m', (j) =>
        j.onRef('m.rid', '=', 'b.rid').onRef('m.hid', '=', 'b.hid').onRef('m.item_id', '=', 'b.item_id').onRef('m.period', '=', 'b.period'),
      )
      .select(['m.id', 'm.this_reading', 'b.hid', 'b.fee'])
      .where('b.rid', '=', 1)
      .where('b.status', '=', 'Y')
      .where('b.item_id', '=', w.id)
      .executeTakeFirstOrThrow();
    const refused = await t.call('meterreadingedit', { id: paid.id, this_reading: '99999' }, admin);
    expect(refused.return_msg).toBe('该房屋该账期的账单已缴费，不能再录入或修改读数');
    expect(
      (
        await db()
          .selectFrom('fee_meter_readings')
          .select('this_reading')
          .where('rid', '=', 1)
          .where('id', '=', paid.id)
          .executeTakeFirstOrThrow()
      ).this_reading,
    ).toBe(paid.this_reading);
    // the seeded bill was priced from the reading
    expect(
      (await t.call('meterreadinglist', { item_id: w.id, period: lastMonth, keyword: '' }, admin)).data.items.every(
        (m: { bill_fee: string; amount: string }) => m.bill_fee === m.amount,
      ),
    ).toBe(true);
  });

  it('refuses duplicates, backwards readings, non-meter items, other communities, bad payloads and other roles', async () => {
    const w = await water();
    const r = await room();
    expect(
      (await t.call('meterreadingadd', { hid: r.id, item_id: w.id, period: nextMonth, last_reading: '5', this_reading: '4' }, admin))
        .return_msg,
    ).toBe('本次读数不能小于上次读数（上次读数 5.00）');
    const ok = await t.call(
      'meterreadingadd',
      { hid: r.id, item_id: w.id, period: nextMonth, last_reading: '5', this_reading: '6' },
      admin,
    );
    expect(ok.return_code).toBe('SUCCESS');
    expect((await t.call('meterreadingadd', { hid: r.id, item_id: w.id, period: nextMonth, this_reading: '7' }, admin)).return_msg).toBe(
      '该房屋该账期已录入读数，请直接修改',
    );
    const property = await db()
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', 1)
      .where('cost_type', '=', 'property')
      .executeTakeFirstOrThrow();
    expect(
      (await t.call('meterreadingadd', { hid: r.id, item_id: property.id, period: nextMonth, this_reading: '7' }, admin)).return_msg,
    ).toBe('只有按抄表读数计费的收费项目才能录入读数');

    // community 2 reaches nothing of community 1
    expect((await t.call('meterreadingadd', { hid: r.id, item_id: w.id, period: nextMonth, this_reading: '7' }, admin2)).return_msg).toBe(
      '房屋不存在',
    );
    expect((await t.call('meterreadingedit', { id: ok.data.id, this_reading: '100' }, admin2)).return_msg).toBe('抄表记录不存在');
    expect((await t.call('meterreadingdel', { id: ok.data.id }, admin2)).return_msg).toBe('抄表记录不存在');
    expect((await t.call('meterreadingprev', { hid: r.id, item_id: w.id, period: nextMonth }, admin2)).return_msg).toBe('房屋不存在');
    expect((await t.call('meterreadinglist', {}, admin2)).data.total).toBe(0);
    const kept = await db()
      .selectFrom('fee_meter_readings')
      .select('this_reading')
      .where('rid', '=', 1)
      .where('id', '=', ok.data.id)
      .executeTakeFirstOrThrow();
    expect(kept.this_reading).toBe('6.00');

    for (const bad of [
      { hid: r.id, item_id: w.id, period: '2025-13', this_reading: '1' },
      { hid: r.id, item_id: w.id, period: nextMonth, this_reading: '-1' },
      { hid: r.id, item_id: w.id, period: nextMonth, this_reading: '1.234' },
      { hid: 'x', item_id: w.id, period: nextMonth, this_reading: '1' },
    ]) {
      expect((await t.call('meterreadingadd', bad, admin)).return_code).toBe('FAIL');
    }
    for (const [method, payload] of [
      ['meterreadinglist', {}],
      ['meterreadingadd', { hid: r.id, item_id: w.id, period: nextMonth, this_reading: '1' }],
      ['meterreadingedit', { id: ok.data.id, this_reading: '9' }],
      ['meterreadingdel', { id: ok.data.id }],
      ['meterreadingtemplate', {}],
      ['meterreadingprev', { hid: r.id, item_id: w.id, period: nextMonth }],
    ] as const) {
      expect((await t.call(method, payload, steward)).return_code).toBe('NO_PERMISSION');
    }
    // a reading without a bill can be deleted
    expect((await t.call('meterreadingdel', { id: ok.data.id }, admin)).return_code).toBe('SUCCESS');
    expect((await t.call('meterreadingdel', { id: ok.data.id }, admin)).return_msg).toBe('抄表记录不存在');
  });

  it('downloads a template pre-filled with the bound rooms and their previous readings', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const w = await water();
    const building = await db()
      .selectFrom('buildings')
      .select('id')
      .where('rid', '=', 1)
      .where('title', '=', '1号楼')
      .executeTakeFirstOrThrow();
    const res = await t.call('meterreadingtemplate', { item_id: w.id, period: thisMonth, bid: building.id }, admin);
    expect(res.return_code).toBe('SUCCESS');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1, 9)).toEqual([
      '楼栋',
      '单元',
      '房号',
      '收费项目',
      '账期',
      '本次读数',
      '上次读数',
      '备注',
    ]);
    const rooms = (
      await db()
        .selectFrom('rooms')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', 1)
        .where('bid', '=', building.id)
        .executeTakeFirstOrThrow()
    ).n;
    expect(ws.rowCount).toBe(rooms + 1);
    const first = ws.getRow(2).values as unknown[];
    expect(first[1]).toBe('1号楼');
    expect(first[4]).toBe('生活用水');
    expect(first[7]).toMatch(/^\d+\.\d{2}$/);
    expect(first[7]).not.toBe('0.00');
    const blank = await t.call('meterreadingtemplate', {}, admin);
    expect(blank.data.filename).toBe('抄表导入模板.xlsx');
  });

  it('imports all or nothing, with a per-row error report; a re-import updates; consecutive periods chain', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const w = await water();
    const rows = await db()
      .selectFrom('rooms as r')
      .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
      .select(['r.id', 'r.title', 'u.title as unit', 'b.title as building'])
      .where('r.rid', '=', 1)
      .where('b.title', '=', '2号楼')
      .orderBy('r.id')
      .limit(3)
      .execute();
    const future = addMonths(`${thisMonth}-01`, 3).slice(0, 7);
    const after = addMonths(`${thisMonth}-01`, 4).slice(0, 7);
    const file = async (data: unknown[][]) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('抄表');
      ws.addRow(['楼栋', '单元', '房号', '收费项目', '账期', '本次读数', '上次读数', '备注']);
      for (const d of data) ws.addRow(d);
      return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    };
    const upload = async (data: unknown[][]) => {
      const res = await t.call('meterreadingimport', { filename: '抄表.xlsx', file_base64: await file(data) }, admin);
      expect(res.return_code).toBe('SUCCESS');
      await t.runJobs();
      const job = await t.call('jobinfo', { id: res.data.job_id }, admin);
      expect(job.data.status).toBe('done');
      return {
        id: res.data.job_id as number,
        result: job.data.result as { imported: number; updated: number; errors: Array<{ row: number; column: string; reason: string }> },
      };
    };
    const [r1, r2, r3] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    const readings = async () =>
      (
        await db()
          .selectFrom('fee_meter_readings')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('rid', '=', 1)
          .executeTakeFirstOrThrow()
      ).n;
    const before = await readings();
    const bad = await upload([
      [r1.building, r1.unit, r1.title, '生活用水', future, '30', '10', ''],
      [r2.building, r2.unit, '9999', '生活用水', future, '30', '', ''],
      [r3.building, r3.unit, r3.title, '物业服务费', future, '30', '', ''],
      [r1.building, r1.unit, r1.title, '生活用水', future, '31', '', ''],
      [r3.building, r3.unit, r3.title, '生活用水', future, '5', '8', ''],
    ]);
    expect(bad.result.imported).toBe(0);
    expect(bad.result.errors.map((e) => [e.row, e.column])).toEqual([
      [3, '房号'],
      [4, '收费项目'],
      [5, '账期'],
      [6, '本次读数'],
    ]);
    expect(await readings()).toBe(before);
    const report = await t.call('meterreadingerrors', { job_id: bad.id }, admin);
    expect(report.data.filename).toContain('抄表导入错误报告');
    expect((await t.call('meterreadingerrors', { job_id: bad.id }, admin2)).return_msg).toBe('导入记录不存在');

    const good = await upload([
      [r1.building, r1.unit, r1.title, '生活用水', future, '30', '10', '首次'],
      [r1.building, r1.unit, r1.title, '生活用水', after, '42.5', '', ''],
      [r2.building, r2.unit, r2.title, '生活用水', future, '12', '', ''],
    ]);
    expect(good.result).toEqual({ imported: 3, updated: 0, errors: [] });
    const list = await t.call('meterreadinglist', { item_id: w.id, keyword: '2号楼', sort: 'asc' }, admin);
    const of = (hid: number, p: string) => list.data.items.find((m: { hid: number; period: string }) => m.hid === hid && m.period === p);
    expect(of(r1.id, future)).toMatchObject({
      last_reading: '10.00',
      this_reading: '30.00',
      quantity: '20.00',
      remark: '首次',
      create_user: '张经理',
    });
    // the later period starts from the earlier row of the same file
    expect(of(r1.id, after)).toMatchObject({ last_reading: '30.00', quantity: '12.50' });
    expect(of(r2.id, future)).toMatchObject({ last_reading: '0.00', quantity: '12.00' });

    const again = await upload([[r2.building, r2.unit, r2.title, '生活用水', future, '14', '', '']]);
    expect(again.result).toEqual({ imported: 0, updated: 1, errors: [] });
    expect((await t.call('meterreadingimport', { filename: 'x.csv', file_base64: 'eA==' }, admin)).return_msg).toBe(
      '请上传 .xlsx 格式的 Excel 文件',
    );
    expect((await t.call('meterreadingimport', { filename: 'x.xlsx', file_base64: await file([]) }, steward)).return_code).toBe(
      'NO_PERMISSION',
    );

    // the import log (/fees/upload-excels): newest first, rows imported counting updates, the refused file's error rows
    const log = await t.call('meterimportlist', { page: 1, limit: 10 }, admin);
    expect(log.return_code).toBe('SUCCESS');
    expect(
      log.data.items.slice(0, 3).map((j: { id: number; imported: number; error_count: number }) => [j.id, j.imported, j.error_count]),
    ).toEqual([
      [again.id, 1, 0],
      [good.id, 3, 0],
      [bad.id, 0, 4],
    ]);
    expect(log.data.items[0]).toMatchObject({ filename: '抄表.xlsx', status: 'done', status_ch: '导入成功', create_user: '张经理' });
    // a file refused whole for its bad rows says so, not 导入成功
    expect(log.data.items[2]).toMatchObject({ status: 'done', status_ch: '校验未通过', imported: 0, error_count: 4 });
    // not the bill import's log, nor another community's, nor a role outside fees
    expect((await t.call('feeimportlist', {}, admin)).data.items.some((j: { id: number }) => j.id === good.id)).toBe(false);
    expect((await t.call('meterimportlist', {}, admin2)).data.items.some((j: { id: number }) => j.id === good.id)).toBe(false);
    expect((await t.call('meterimportlist', {}, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('meterimportlist', { limit: 1000 }, admin)).return_code).toBe('FAIL');
  });
});
