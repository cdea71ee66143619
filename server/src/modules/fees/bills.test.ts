import ExcelJS from 'exceljs';
import { addMonths, feesMethods } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { applyBillFilters, billBase, billLookups, selectBillRow, toBillRow } from './billQuery.js';
import { enqueueJob } from '../../jobs/queue.js';
import { ARREARS_NOTIFY, BILL_NOTIFY } from './billNotify.js';
import { markOverdue } from './jobs.js';

let t: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let cashier: string;
let itemId = 0;
let bid = 0;
const nextPeriod = addMonths(`${today().slice(0, 7)}-01`, 1).slice(0, 7);

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, steward, cashier] = await t.logins('admin', 'admin2', 'steward', 'cashier');
  const add = await t.call(
    'feeitemadd',
    {
      cost_type: 'property',
      title: '电梯费',
      pricing: 'area_built',
      unit_price: '0.3333',
      cycle_months: 3,
      due_day: 10,
    },
    admin,
  );
  itemId = add.data.id;
  bid = (
    await t.database.db.selectFrom('buildings').select('id').where('rid', '=', 1).where('title', '=', '2号楼').executeTakeFirstOrThrow()
  ).id;
  await t.call('bindfeeadd', { item_id: itemId, scope: 'building', ref_ids: [bid] }, admin);
});
afterAll(() => t.close());

describe('feebillgenerate', () => {
  it('previews count and total without writing, then generates through the job', async () => {
    const rooms = await t.database.db
      .selectFrom('rooms')
      .select(['id', 'built_area'])
      .where('rid', '=', 1)
      .where('bid', '=', bid)
      .execute();
    const preview = await t.call('feebillgenerate', { period: nextPeriod, item_ids: [itemId], preview: true }, admin);
    expect(preview.return_code).toBe('SUCCESS');
    expect(preview.data.count).toBe(rooms.length);
    const before = await t.database.db
      .selectFrom('fee_bills')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('item_id', '=', itemId)
      .executeTakeFirstOrThrow();
    expect(Number(before.n)).toBe(0);

    const go = await t.call('feebillgenerate', { period: nextPeriod, item_ids: [itemId] }, admin);
    expect(go.return_code).toBe('SUCCESS');
    expect(go.data).toMatchObject({ preview: false, count: rooms.length, total_fee: preview.data.total_fee });
    expect(await t.runJobs()).toBeGreaterThan(0);
    const job = await t.call('jobinfo', { id: go.data.job_id }, admin);
    expect(job.data).toMatchObject({ status: 'done', percent: 100, progress: rooms.length, total: rooms.length });

    const list = await t.call('feebilllist', { itemid: itemId, limit: 200 }, admin);
    expect(list.data.total).toBe(rooms.length);
    const bill = list.data.items[0];
    expect(bill).toMatchObject({
      status: 'E',
      status_ch: '待缴',
      region_title: '阳光花园',
      building_title: '2号楼',
      unit_price: '0.3333',
      late_fee: '0.00',
    });
    expect(bill.daterange).toMatch(new RegExp(`^${nextPeriod}-01 ~ \\d{4}-\\d{2}-\\d{2}$`));
    expect(bill.due_date).toBe(`${nextPeriod}-10`);
    // 3 months x area x 0.3333, rounded half up to the fen
    const area = rooms.find((r) => r.id === bill.hid)!.built_area;
    const exact = Math.round(Number(area) * 3333 * 3) / 10000; // integer*integer is exact in a double at this size
    expect(bill.fee).toBe((Math.round(exact * 100) / 100).toFixed(2));
  });

  it('never issues the same bill twice', async () => {
    const again = await t.call('feebillgenerate', { period: nextPeriod, item_ids: [itemId], preview: true }, admin);
    expect(again.data.count).toBe(0);
    const go = await t.call('feebillgenerate', { period: nextPeriod, item_ids: [itemId] }, admin);
    expect(go.return_msg).toContain('没有需要生成的账单');
  });

  it('账单生成 tells the fee staff the batch and, when the group texts owners of it, each room’s owner what the room owes; once', async () => {
    const period = addMonths(`${nextPeriod}-01`, 1).slice(0, 7);
    const db = t.database.db;
    const { group_id } = await db.selectFrom('regions').select('group_id').where('id', '=', 1).executeTakeFirstOrThrow();
    await db
      .insertInto('notify_rules')
      .values({ group_id, event: 'bill_generated', recipient: 'owner', channel: 'sms', enabled: 'Y' })
      .onConflict((oc) => oc.columns(['group_id', 'event', 'recipient', 'channel']).doUpdateSet({ enabled: 'Y' }))
      .execute();
    let batch = 0;
    try {
      const go = await t.call('feebillgenerate', { period, item_ids: [itemId] }, admin);
      expect(go.return_code).toBe('SUCCESS');
      batch = go.data.batch_id;
      await t.runJobs();
      const batchId = String(go.data.batch_id);
      const told = () =>
        db
          .selectFrom('notifications')
          .select(['recipient', 'channel', 'name', 'mobile', 'content', 'ref_id', 'link'])
          .where('event', '=', 'bill_generated')
          .where((eb) => eb.or([eb('ref_id', '=', batchId), eb('ref_id', 'like', `${batchId}-%`)]))
          .orderBy('id')
          .execute();
      const rows = await told();
      const staff = rows.filter((r) => r.recipient === 'staff');
      expect(staff.length).toBeGreaterThan(0);
      expect(staff[0]).toMatchObject({
        channel: 'inbox',
        link: '/fees/feebillworkadd',
        content: `${period} 电梯费账单已生成 ${go.data.count} 张，合计 ${go.data.total_fee} 元`,
      });
      // one SMS per billed room that has an owner, naming the room's amount and due day
      const billed = await sql<{ hid: number; address: string; fee: string; mobile: string }>`
        SELECT b.hid, r.address, b.fee::text AS fee, o.mobile FROM fee_bills b JOIN rooms r ON r.rid = b.rid AND r.id = b.hid
        JOIN LATERAL (SELECT m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
          WHERE rm.rid = b.rid AND rm.hid = b.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1) o ON true
        WHERE b.rid = 1 AND b.batch_id = ${go.data.batch_id} ORDER BY b.hid`.execute(db);
      const owners = rows.filter((r) => r.recipient === 'owner');
      expect(billed.rows.length).toBeGreaterThan(0);
      expect(owners).toHaveLength(billed.rows.length);
      const first = billed.rows[0]!;
      expect(owners.find((o) => o.ref_id === `${batchId}-${first.hid}`)).toMatchObject({
        channel: 'sms',
        mobile: first.mobile,
        content: `您的${first.address} ${period} 电梯费账单已生成，金额 ${first.fee} 元，请于 ${period}-10 前缴纳。`,
      });
      // the job run again (a crash after it told them) tells nobody twice
      await enqueueJob(db, { rid: 1, kind: BILL_NOTIFY, payload: { rid: 1, batch_id: go.data.batch_id }, createdBy: null });
      await t.runJobs();
      expect(await told()).toHaveLength(rows.length);
    } finally {
      await db.deleteFrom('notify_rules').where('group_id', '=', group_id).where('event', '=', 'bill_generated').execute();
      // the batch goes again: the tests below count the item's bills of nextPeriod's batch alone
      if (batch) expect((await t.call('feebatchcancel', { id: batch }, admin)).return_code).toBe('SUCCESS');
    }
  });

  it('validates payloads, communities and roles', async () => {
    expect((await t.call('feebillgenerate', { period: '2026-13', item_ids: [itemId] }, admin)).return_msg).toContain('账期格式不正确');
    expect((await t.call('feebillgenerate', { period: nextPeriod, item_ids: [] }, admin)).return_msg).toContain('item_ids');
    expect((await t.call('feebillgenerate', { period: nextPeriod, item_ids: [itemId], preview: true }, admin2)).return_msg).toBe(
      '收费项目不存在',
    );
    expect((await t.call('feebillgenerate', { period: nextPeriod, item_ids: [itemId], preview: true }, steward)).return_code).toBe(
      'NO_PERMISSION',
    );
  });

  it('editing an item leaves issued bills alone', async () => {
    const before = await t.call('feebilllist', { itemid: itemId, limit: 1 }, admin);
    const info = await t.call('feeiteminfo', { id: itemId }, admin);
    await t.call('feeitemedit', { ...info.data, id: itemId, unit_price: '9.9' }, admin);
    const after = await t.call('feebilllist', { itemid: itemId, limit: 1 }, admin);
    expect(after.data.items[0].fee).toBe(before.data.items[0].fee);
    expect(after.data.items[0].unit_price).toBe('0.3333');
    await t.call('feeitemedit', { ...info.data, id: itemId }, admin);
  });

  it('starts one generation of a period and item at a time, so none ends as an empty batch', async () => {
    const period = addMonths(`${nextPeriod}-01`, 1).slice(0, 7);
    const newItem = async (title: string) => {
      const id = (await t.call('feeitemadd', { cost_type: 'property', title, pricing: 'fixed', unit_price: '20', due_day: 15 }, admin)).data
        .id as number;
      await t.call('bindfeeadd', { item_id: id, scope: 'building', ref_ids: [bid] }, admin);
      return id;
    };
    const [cleaning, rubbish] = [await newItem('测试保洁费'), await newItem('测试垃圾清运费')];
    const starts = await Promise.all(Array.from({ length: 5 }, () => t.call('feebillgenerate', { period, item_ids: [cleaning] }, admin)));
    const started = starts.filter((r) => r.return_code === 'SUCCESS');
    expect(started).toHaveLength(1);
    for (const r of starts.filter((x) => x.return_code !== 'SUCCESS')) {
      expect(r.return_msg).toBe(`该账期所选收费项目的账单正在生成（批次 ${started[0]!.data.batch_id}），请等待完成后再生成`);
    }
    // another item of the period may start beside it; one that shares an item may not
    expect((await t.call('feebillgenerate', { period, item_ids: [rubbish, cleaning] }, admin)).return_msg).toContain('正在生成');
    expect((await t.call('feebillgenerate', { period, item_ids: [rubbish] }, admin)).return_code).toBe('SUCCESS');
    await t.runJobs();
    // this test's items' batches (the demo prepays a room's next twelve months: batches of its own)
    const batches = await t.database.db
      .selectFrom('fee_batches')
      .select(['status', 'bill_count'])
      .where('rid', '=', 1)
      .where('period', '=', period)
      .where(sql<boolean>`item_ids && ${sql.val([cleaning, rubbish])}::bigint[]`)
      .execute();
    const rooms = started[0]!.data.count as number;
    expect(batches).toEqual([
      { status: 'done', bill_count: rooms },
      { status: 'done', bill_count: rooms },
    ]);
    expect((await t.call('feebillgenerate', { period, item_ids: [cleaning] }, admin)).return_msg).toContain('没有需要生成的账单');
  });
});

describe('feebilllist filters', () => {
  it('answers spec 3 fields and filters by status, fee range, cost type, check flag, keyword', async () => {
    const all = await t.call('feebilllist', {}, admin);
    expect(all.data.items).toHaveLength(10);
    for (const k of [
      'id',
      'title',
      'region_title',
      'building_title',
      'unit_title',
      'house_title',
      'daterange',
      'measure',
      'status',
      'status_ch',
      'fee',
      'create_time',
    ]) {
      expect(all.data.items[0]).toHaveProperty(k);
    }
    const paid = await t.call('feebilllist', { status: 'Y' }, admin);
    expect(paid.data.total).toBeGreaterThan(0);
    expect(paid.data.items.every((b: { status_ch: string }) => b.status_ch === '已缴')).toBe(true);
    const overdue = await t.call('feebilllist', { status: 'N' }, admin);
    expect(overdue.data.items.every((b: { status_ch: string }) => b.status_ch === '已逾期')).toBe(true);
    const range = await t.call('feebilllist', { min_fee: '250', max_fee: '300.00', limit: 200 }, admin);
    expect(range.data.items.every((b: { fee: string }) => Number(b.fee) >= 250 && Number(b.fee) <= 300)).toBe(true);
    expect((await t.call('feebilllist', { cost_types: ['gas'] }, admin)).data.total).toBe(0);
    const water = (await t.call('feebilllist', { cost_types: ['water'] }, admin)).data.total;
    expect(water).toBeGreaterThan(0);
    // and the demo's repair bill (维修费, steward/repairs.ts) and its paid activities' sign-ups (活动费, activities/money.ts)
    const repair = (await t.call('feebilllist', { cost_types: ['repair'] }, admin)).data.total;
    const activity = (await t.call('feebilllist', { cost_types: ['activity'] }, admin)).data.total;
    expect(activity).toBeGreaterThan(0);
    // and the demo's leases' rent and deposits (租金, 押金: crm/leasesBilling.ts)
    const lease = (await t.call('feebilllist', { cost_types: ['rent', 'deposit'] }, admin)).data.total;
    expect(lease).toBeGreaterThan(0);
    expect([water, repair, activity, lease].every((n) => n >= 0)).toBe(true);
    // every cost type the demo bills under (the areas' own: 认筹金, 房款… too) adds up to the whole list
    const types = (await t.database.db.selectFrom('fee_bills').select('cost_type').distinct().where('rid', '=', 1).execute()).map(
      (r) => r.cost_type,
    );
    expect(types).toEqual(expect.arrayContaining(['property', 'water', 'parking', 'repair', 'activity', 'rent', 'deposit']));
    expect((await t.call('feebilllist', { cost_types: types.join(',') }, admin)).data.total).toBe(all.data.total);
    let others = 0;
    for (const type of types.filter((x) => x !== 'property' && x !== 'parking'))
      others += (await t.call('feebilllist', { cost_types: [type] }, admin)).data.total as number;
    expect((await t.call('feebilllist', { cost_types: 'property,parking' }, admin)).data.total).toBe(all.data.total - others);
    const kw = await t.call('feebilllist', { keyword: '2号楼1单元' }, admin);
    expect(
      kw.data.items.every((b: { building_title: string; unit_title: string }) => b.building_title === '2号楼' && b.unit_title === '1单元'),
    ).toBe(true);
    const owner = await t.database.db
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['rm.hid', 'm.realname'])
      .where('rm.rid', '=', 1)
      .where('rm.status', '=', 'Y')
      .orderBy('rm.id')
      .executeTakeFirst();
    if (owner) {
      const byName = await t.call('feebilllist', { keyword: owner.realname, limit: 200 }, admin);
      expect(byName.data.items.some((b: { hid: number }) => b.hid === owner.hid)).toBe(true);
      // a person's name or mobile prefix selects exactly the bills of the rooms they live in (this community's)
      const mobile = (
        await sql<{ mobile: string }>`SELECT mobile FROM members WHERE rid = 1 AND realname = ${owner.realname}`.execute(t.database.db)
      ).rows[0]!.mobile;
      for (const keyword of [owner.realname, mobile.slice(0, 7)]) {
        const expected = await sql<{
          n: number;
        }>`SELECT count(*)::int n FROM fee_bills b WHERE b.rid = 1 AND EXISTS (SELECT 1 FROM room_members rm
          JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id WHERE rm.rid = b.rid AND rm.hid = b.hid AND rm.status = 'Y'
          AND (m.realname ILIKE ${`%${keyword}%`} OR m.mobile LIKE ${`${keyword}%`}))`.execute(t.database.db);
        expect((await t.call('feebilllist', { keyword }, admin)).data.total, keyword).toBe(expected.rows[0]!.n);
        expect(expected.rows[0]!.n).toBeGreaterThan(0);
      }
    }
    const desc = await t.call('feebilllist', { sort: 'desc' }, admin);
    expect(desc.data.items[0].id).toBeGreaterThan(desc.data.items[1].id);
    expect((await t.call('feebilllist', { bid, title: '电梯' }, cashier)).data.total).toBeGreaterThan(0);
    // a title or keyword is matched as written: LIKE's own characters match only themselves
    for (const text of ['%', '_', '不存在的项目']) {
      expect((await t.call('feebilllist', { title: text }, admin)).data, text).toEqual({ items: [], total: 0 });
      expect((await t.call('feebilllist', { keyword: text }, admin)).data, text).toEqual({ items: [], total: 0 });
    }
  });

  it('finds by keyword the bills whose room, people, title, period or parking label match, as the joined text does', async () => {
    const db = t.database.db;
    const label = (
      await sql<{ measure: string }>`SELECT measure FROM fee_bills WHERE rid = 1 AND space_id <> 0 ORDER BY id LIMIT 1`.execute(db)
    ).rows[0]!.measure;
    const person = (
      await sql<{
        realname: string;
        id: string;
      }>`SELECT m.realname, m.id FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = 1 AND rm.status = 'Y' ORDER BY rm.id DESC LIMIT 1`.execute(db)
    ).rows[0]!;
    // a second person with a name longer than a name key (11 characters): longer keywords are matched whole
    const other = (
      await sql<{ id: string }>`SELECT m.id FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = 1 AND rm.status = 'Y' AND m.id <> ${person.id} ORDER BY rm.id LIMIT 1`.execute(db)
    ).rows[0]!;
    await db
      .updateTable('members')
      .set({ realname: 'Maximilian Alexander' })
      .where('rid', '=', 1)
      .where('id', '=', Number(other.id))
      .execute();
    const month = today().slice(0, 7);
    const none = ['不存在的词', 'Maximilian Alexandra'];
    for (const keyword of [
      '2号楼1单元',
      '801',
      person.realname,
      '物业',
      '用水',
      label.slice(-4),
      month,
      'XIMILIAN ALEXAN',
      'lian',
      ...none,
    ]) {
      const like = `%${keyword}%`;
      const expected = await sql<{
        n: number;
        ids: string[] | null;
      }>`SELECT count(*)::int n, (array_agg(b.id::text ORDER BY b.id DESC))[1:10] ids
        FROM fee_bills b JOIN rooms r ON r.rid = b.rid AND r.id = b.hid JOIN units u ON u.rid = b.rid AND u.id = b.tid
        JOIN buildings bd ON bd.rid = b.rid AND bd.id = b.bid
        WHERE b.rid = 1 AND (b.title ILIKE ${like} OR concat(bd.title, u.title, r.title) ILIKE ${like} OR b.period = ${keyword}
          OR ((b.space_id <> 0 OR b.car_id <> 0) AND b.measure ILIKE ${like})
          OR EXISTS (SELECT 1 FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id WHERE rm.rid = b.rid
            AND rm.hid = b.hid AND rm.status = 'Y' AND (m.realname ILIKE ${like} OR m.mobile LIKE ${`${keyword}%`})))`.execute(db);
      const listed = await t.call('feebilllist', { keyword, sort: 'desc' }, admin);
      expect(listed.data.total, keyword).toBe(expected.rows[0]!.n);
      expect(
        listed.data.items.map((b: { id: number }) => String(b.id)),
        keyword,
      ).toEqual(expected.rows[0]!.ids ?? []);
      if (!none.includes(keyword)) expect(expected.rows[0]!.n, keyword).toBeGreaterThan(0);
    }
    // another community's session finds none of community 1's bills by their keywords
    expect((await t.call('feebilllist', { keyword: '801' }, admin2)).data.items.every((b: { rid: number }) => b.rid === 2)).toBe(true);
  });

  it('picks a page exactly as the joined query would, with or without a keyword', async () => {
    const month = today().slice(0, 7);
    const label = (
      await sql<{ measure: string }>`SELECT measure FROM fee_bills WHERE rid = 1 AND space_id <> 0 ORDER BY id LIMIT 1`.execute(
        t.database.db,
      )
    ).rows[0]!.measure;
    const cases = [
      {},
      { status: 'N', page: 2 },
      { status: 'Y', sort: 'asc', page: 3 },
      { bid, sort: 'desc', limit: 20 },
      { cost_types: ['water'], min_fee: '10', page: 2, sort: 'asc' },
      { itemid: itemId, page: 2 },
      { cost_types: ['property', 'parking'], max_fee: '100000', is_check: 'N', sort: 'desc' },
      { title: '费', status: 'N', bid },
      { period: month, page: 2 },
      { period: addMonths(today(), -1).slice(0, 7), sort: 'desc' },
      // a keyword's page is the union of its parts' first rows (keywordPage): rooms, titles, a period, mixed, deep pages
      { keyword: '801', page: 2 },
      { keyword: '801', page: 2, sort: 'desc', status: 'N' },
      { keyword: '物业', page: 4, sort: 'asc' },
      { keyword: month, page: 2, sort: 'desc' },
      { keyword: '1', page: 5, limit: 20, cost_types: ['property', 'water'] },
      { keyword: '2号楼', bid, page: 2, is_check: 'N' },
      { keyword: label.slice(-5, -2), page: 2, sort: 'desc' },
    ];
    for (const payload of cases) {
      // the reference matches a title as text, where the list looks its titles up first; a keyword's
      // matches it reads as one OR (applyBillFilters)
      const { title, ...input } = feesMethods.feebilllist.parse(payload);
      const lookups = await billLookups(t.database.db, 1, input);
      const joined = await selectBillRow(applyBillFilters(billBase(t.database.db, 1), input, 1, lookups)!)
        .$if(Boolean(title), (q) => q.where('b.title', 'ilike', `%${title}%`))
        .orderBy('b.id', input.sort)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute();
      const listed = await t.call('feebilllist', payload, admin);
      expect(joined.length, JSON.stringify(payload)).toBeGreaterThan(0);
      expect(listed.data.items, JSON.stringify(payload)).toEqual(joined.map((b) => toBillRow(b)));
    }
  });

  it('answers each status with its own statement, one after the other on the same filters', async () => {
    // an unpaid status is also written as a literal: the paid page must not reuse the unpaid one's statement
    for (const status of ['N', 'Y', 'E', 'Y', 'N'] as const) {
      const page = await t.call('feebilllist', { status, bid }, admin);
      expect(page.data.items.length, status).toBeGreaterThan(0);
      expect(new Set(page.data.items.map((b: { status: string }) => b.status)), status).toEqual(new Set([status]));
    }
  });

  it('gives nothing across communities and checks payloads and roles', async () => {
    // 翠湖苑's own bills (its activities' sign-ups), none of 阳光花园's
    const theirs = (await t.call('feebilllist', { limit: 200 }, admin2)).data.items as Array<{ region_title: string }>;
    expect(theirs.every((b) => b.region_title === '翠湖苑')).toBe(true);
    const ours = (await t.call('feebilllist', { rid: 2, limit: 200 }, admin)).data.items as Array<{ region_title: string }>;
    expect(ours.every((b) => b.region_title === '阳光花园')).toBe(true);
    expect((await t.call('feebilllist', { min_fee: '1.005' }, admin)).return_msg).toContain('min_fee');
    expect((await t.call('feebilllist', { status: 'X' }, admin)).return_msg).toContain('status');
    expect((await t.call('feebilllist', {}, steward)).return_code).toBe('NO_PERMISSION');
  });
});

describe('feeedit, feebillcheck, feebilldel', () => {
  it('adjusts an unpaid bill with a reason and keeps the trail', async () => {
    const bill = (await t.call('feebilllist', { itemid: itemId }, admin)).data.items[0];
    expect((await t.call('feeedit', { id: bill.id, fee: '100.005', reason: 'x' }, admin)).return_msg).toContain('fee');
    expect((await t.call('feeedit', { id: bill.id, fee: '100', reason: '' }, admin)).return_msg).toContain('请填写调整原因');
    expect((await t.call('feeedit', { id: bill.id, fee: '100', reason: '面积复测' }, admin2)).return_msg).toBe('账单不存在');
    expect((await t.call('feeedit', { id: bill.id, fee: '100', reason: '面积复测' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feeedit', { id: bill.id, fee: '100', reason: '面积复测' }, admin)).return_code).toBe('SUCCESS');
    const info = await t.call('feebillinfo', { id: bill.id }, admin);
    expect(info.data.fee).toBe('100.00');
    expect(info.data.adjustments).toEqual([
      expect.objectContaining({ old_fee: bill.fee, new_fee: '100.00', reason: '面积复测', create_user: '张经理' }),
    ]);
    expect((await t.call('feebillinfo', { id: bill.id }, admin2)).return_msg).toBe('账单不存在');
  });

  it('refuses to change or delete a paid bill', async () => {
    const paid = (await t.call('feebilllist', { status: 'Y' }, admin)).data.items[0];
    expect((await t.call('feeedit', { id: paid.id, fee: '1', reason: 'x' }, admin)).return_msg).toBe('账单已缴费，不能修改或删除');
    expect((await t.call('feebilldel', { id: paid.id }, admin)).return_msg).toBe('账单已缴费，不能修改或删除');
  });

  it('sets the check flag in bulk, only in its own community', async () => {
    const bills = (await t.call('feebilllist', { itemid: itemId }, admin)).data.items.slice(0, 3).map((b: { id: number }) => b.id);
    expect((await t.call('feebillcheck', { ids: bills, is_check: 'Y' }, admin2)).return_msg).toBe('账单不存在');
    expect((await t.call('feebillcheck', { ids: bills, is_check: 'Y' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feebillcheck', { ids: bills, is_check: 'maybe' }, admin)).return_msg).toContain('is_check');
    expect((await t.call('feebillcheck', { ids: bills, is_check: 'Y' }, admin)).data.updated).toBe(3);
    expect((await t.call('feebilllist', { itemid: itemId, is_check: 'Y' }, admin)).data.total).toBe(3);
  });

  it('deletes an unpaid bill, audited', async () => {
    const bill = (await t.call('feebilllist', { itemid: itemId, sort: 'desc' }, admin)).data.items[0];
    expect((await t.call('feebilldel', { id: bill.id }, admin2)).return_msg).toBe('账单不存在');
    expect((await t.call('feebilldel', { id: bill.id }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await t.call('feebilldel', { id: 'abc' }, admin)).return_msg).toContain('id');
    expect((await t.call('feebilldel', { id: bill.id }, admin)).return_code).toBe('SUCCESS');
    expect((await t.call('feebillinfo', { id: bill.id }, admin)).return_msg).toBe('账单不存在');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['outcome'])
      .where('method', '=', 'feebilldel')
      .where('outcome', '=', 'SUCCESS')
      .execute();
    expect(audit.length).toBe(1);
  });
});

describe('exportfees', () => {
  it('exports the filtered list as a workbook', async () => {
    const res = await t.exportFile('exportfees', { itemid: itemId }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect(res.data.filename).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const count = (await t.call('feebilllist', { itemid: itemId }, admin)).data.total;
    expect(ws.rowCount).toBe(count + 1);
    expect(ws.getRow(1).getCell(5).value).toBe('收费项目');
    expect((await t.exportFile('exportfees', { itemid: itemId }, steward)).return_code).toBe('NO_PERMISSION');
    const other = await t.exportFile('exportfees', { itemid: itemId }, admin2);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(other.data.content_base64, 'base64') as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.rowCount).toBe(1);
  });
});

describe('batches and overdue', () => {
  it('cancels a batch while none of its bills is paid', async () => {
    const batches = await t.call('feebatchlist', {}, admin);
    const mine = batches.data.items.find(
      (b: { period: string; item_titles: string }) => b.period === nextPeriod && b.item_titles === '电梯费',
    );
    expect(mine).toMatchObject({ status: 'done', paid_count: 0 });
    const seeded = batches.data.items.find((b: { paid_count: number }) => b.paid_count > 0);
    expect((await t.call('feebatchcancel', { id: seeded.id }, admin)).return_msg).toBe('该批次已有账单缴费，不能撤销');
    expect((await t.call('feebatchcancel', { id: mine.id }, admin2)).return_msg).toBe('批次不存在');
    expect((await t.call('feebatchcancel', { id: mine.id }, steward)).return_code).toBe('NO_PERMISSION');
    const res = await t.call('feebatchcancel', { id: mine.id }, admin);
    expect(res.return_code).toBe('SUCCESS');
    expect((await t.call('feebilllist', { itemid: itemId }, admin)).data.total).toBe(0);
    expect((await t.call('feebatchcancel', { id: mine.id }, admin)).return_msg).toBe('该批次已撤销');
  });

  it('marks pending bills past due as overdue (admins only)', async () => {
    const db = t.database.db;
    const bill = await db.selectFrom('fee_bills').select('id').where('rid', '=', 1).where('status', '=', 'E').executeTakeFirstOrThrow();
    await db.updateTable('fee_bills').set({ due_date: '2020-01-01' }).where('id', '=', bill.id).execute();
    expect((await t.call('feebilloverdue', {}, cashier)).return_code).toBe('NO_PERMISSION');
    const res = await t.call('feebilloverdue', {}, admin);
    expect(res.return_code).toBe('SUCCESS');
    await t.runJobs();
    const after = await db.selectFrom('fee_bills').select('status').where('id', '=', bill.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('N');
    expect((await t.call('jobinfo', { id: res.data.job_id }, admin)).data.status).toBe('done');
  });

  it('欠费提醒: the owner of a room whose bill went overdue is texted what the room owes now, once', async () => {
    const db = t.database.db;
    const { group_id } = await db.selectFrom('regions').select('group_id').where('id', '=', 1).executeTakeFirstOrThrow();
    await db
      .insertInto('notify_rules')
      .values({ group_id, event: 'bill_overdue', recipient: 'owner', channel: 'sms', enabled: 'Y' })
      .onConflict((oc) => oc.columns(['group_id', 'event', 'recipient', 'channel']).doUpdateSet({ enabled: 'Y' }))
      .execute();
    try {
      const { rows } = await sql<{ id: number; hid: number; address: string; mobile: string }>`
        SELECT b.id, b.hid, r.address, m.mobile FROM fee_bills b JOIN rooms r ON r.rid = b.rid AND r.id = b.hid
        JOIN room_members rm ON rm.rid = b.rid AND rm.hid = b.hid AND rm.relation = 'owner' AND rm.status = 'Y'
        JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
        WHERE b.rid = 1 AND b.status = 'E' ORDER BY b.id DESC LIMIT 1`.execute(db);
      const bill = rows[0]!;
      await db.updateTable('fee_bills').set({ due_date: '2020-02-01' }).where('id', '=', bill.id).execute();
      expect((await t.call('feebilloverdue', {}, admin)).return_code).toBe('SUCCESS');
      await t.runJobs();
      const arrears = await sql<{ n: number; amount: string }>`
        SELECT bill_count AS n, (fee + late_fee)::numeric(14,2)::text AS amount FROM room_arrears(1, ${bill.hid}, current_date)`.execute(
        db,
      );
      const told = () =>
        db
          .selectFrom('notifications')
          .select(['recipient', 'channel', 'mobile', 'content', 'ref_id'])
          .where('event', '=', 'bill_overdue')
          .where('ref_id', 'like', `%-${bill.hid}`)
          .execute();
      const sms = await told();
      expect(sms).toHaveLength(1);
      expect(sms[0]).toMatchObject({
        recipient: 'owner',
        channel: 'sms',
        mobile: bill.mobile,
        content: `您的${bill.address}有账单已逾期，目前欠费 ${arrears.rows[0]!.amount} 元（${arrears.rows[0]!.n} 张账单，含滞纳金），请尽快缴纳。`,
      });
      // run again (a second marking the same day, a job run twice): nobody is told twice
      await enqueueJob(db, { rid: 1, kind: ARREARS_NOTIFY, payload: { rid: 1 }, createdBy: null });
      await t.runJobs();
      expect(await told()).toHaveLength(1);
    } finally {
      await db.deleteFrom('notify_rules').where('group_id', '=', group_id).where('event', '=', 'bill_overdue').execute();
    }
  });

  it('marks them in short statements, a few bills at a time, walking every community, nothing not yet due', async () => {
    const db = t.database.db;
    const pending = async (rid: number) =>
      db.selectFrom('fee_bills').select('id').where('rid', '=', rid).where('status', '=', 'E').orderBy('id').execute();
    const one = await pending(1);
    expect(one.length).toBeGreaterThanOrEqual(4);
    const due = one.slice(0, 3).map((b) => [1, b.id] as const);
    for (const [rid, id] of due)
      await db.updateTable('fee_bills').set({ due_date: '2020-02-01' }).where('rid', '=', rid).where('id', '=', id).execute();
    const notDue = one[3]!.id;
    await db.updateTable('fee_bills').set({ due_date: '2099-01-01' }).where('rid', '=', 1).where('id', '=', notDue).execute();
    // one bill a statement: the keyset walks past bills not due without stopping
    expect(await markOverdue(db, undefined, 1)).toBeGreaterThanOrEqual(3);
    for (const [rid, id] of due) {
      expect(
        (await db.selectFrom('fee_bills').select('status').where('rid', '=', rid).where('id', '=', id).executeTakeFirstOrThrow()).status,
      ).toBe('N');
    }
    expect(
      (await db.selectFrom('fee_bills').select('status').where('rid', '=', 1).where('id', '=', notDue).executeTakeFirstOrThrow()).status,
    ).toBe('E');
    expect(await markOverdue(db, undefined, 1)).toBe(0);
  });
});
