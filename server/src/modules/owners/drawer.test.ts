import {
  ACTIVITY_STATUS,
  CAR_STATUS,
  FACE_STATUS,
  LEDGER_PAY_STATUS,
  RC,
  SPACE_STATUS,
  VISITOR_STATUS,
  type ValueEnum,
} from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { keywordCondition } from './search.js';

let s: TestServer;
let admin = '';
let admin2 = '';
let merchant = '';
let cashier = '';
/** 陈建国's home (1号楼1单元1101) and second room (2号楼1单元801) in community 1 */
let home: { rid: number; bid: number; tid: number; hid: number };
let second: { rid: number; bid: number; tid: number; hid: number };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
  admin2 = await s.login('admin2');
  merchant = await s.login('merchant');
  cashier = await s.login('cashier');
  const found = await s.call('getkeywordtohouses', { keywords: '13800138000' }, admin);
  const pick = (address: string) => {
    const h = found.data.items.find((i: { address: string }) => i.address === address);
    return { rid: h.rid, bid: h.bid, tid: h.tid, hid: h.hid };
  };
  home = pick('1号楼1单元1101');
  second = pick('2号楼1单元801');
}, 120000);
afterAll(() => s.close());

describe('getkeywordtohouses (spec 2.4)', () => {
  it('finds houses by a mobile prefix', async () => {
    const res = await s.call('getkeywordtohouses', { keywords: '1380013' }, admin);
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data.items.length).toBeGreaterThanOrEqual(2);
    for (const item of res.data.items) expect(item.mobile.startsWith('1380013')).toBe(true);
    expect(res.data.items[0]).toMatchObject({ rid: 1, mobile: '13800138000', realname: '陈建国', address: '1号楼1单元1101' });
    expect(Object.keys(res.data.items[0])).toEqual(
      expect.arrayContaining(['id', 'rid', 'bid', 'tid', 'hid', 'mobile', 'address', 'realname']),
    );
  });

  it('finds houses by any part of a name', async () => {
    for (const keywords of ['陈建国', '建国', '陈建', '建']) {
      const res = await s.call('getkeywordtohouses', { keywords }, admin);
      expect(
        res.data.items.some((i: { realname: string }) => i.realname === '陈建国'),
        keywords,
      ).toBe(true);
      for (const item of res.data.items) expect(item.realname).toContain(keywords);
    }
    const family = await s.call('getkeywordtohouses', { keywords: '秀英' }, admin);
    expect(family.data.items.some((i: { realname: string; relation: string }) => i.realname === '李秀英' && i.relation === 'family')).toBe(
      true,
    );
  });

  it('orders owners first, then by name and address, as the joined query would', async () => {
    for (const keywords of ['1', '王', '138']) {
      const res = await s.call('getkeywordtohouses', { keywords }, admin);
      expect(res.data.items.length).toBeGreaterThan(1);
      const { rows } = await sql<{ id: number }>`
        SELECT rm.id FROM room_members rm
        JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
        JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
        JOIN buildings b ON b.rid = r.rid AND b.id = r.bid
        JOIN units u ON u.rid = r.rid AND u.id = r.tid
        WHERE rm.rid = 1 AND rm.status = 'Y' AND ${keywordCondition(1, keywords)}
        ORDER BY rm.relation <> 'owner', m.realname, b.sort, b.id, u.sort, u.id, r.floor, r.title`.execute(s.database.db);
      const expected = rows.map((r) => r.id).filter((id) => res.data.items.some((i: { id: number }) => i.id === id));
      expect(res.data.items.map((i: { id: number }) => i.id)).toEqual(expected);
    }
  });

  it('shows a building or unit renamed or re-sorted at once, in the search and in the drawer', async () => {
    const db = s.database.db;
    const building = async (bid: number) =>
      (
        await sql<{ id: number; title: string; floors: number; sort: number; remark: string }>`
        SELECT id, title, floors, sort, remark FROM buildings WHERE rid = 1 AND id = ${bid}`.execute(db)
      ).rows[0]!;
    const unit = async (tid: number) =>
      (
        await sql<{
          id: number;
          bid: number;
          title: string;
          sort: number;
        }>`SELECT id, bid, title, sort FROM units WHERE rid = 1 AND id = ${tid}`.execute(db)
      ).rows[0]!;
    const [first, other, secondUnit] = [await building(home.bid), await building(second.bid), await unit(second.tid)];
    const addresses = async () =>
      (await s.call('getkeywordtohouses', { keywords: '13800138000' }, admin)).data.items.map((i: { address: string }) => i.address);
    expect(await addresses()).toEqual(['1号楼1单元1101', '2号楼1单元801']);
    try {
      expect((await s.call('buildingedit', { ...first, title: '9号楼', sort: other.sort + 1 }, admin)).return_code).toBe(RC.SUCCESS);
      expect(await addresses()).toEqual(['2号楼1单元801', '9号楼1单元1101']);
      expect((await s.call('unitedit', { ...secondUnit, title: '东单元' }, admin)).return_code).toBe(RC.SUCCESS);
      expect(await addresses()).toEqual(['2号楼东单元801', '9号楼1单元1101']);
      const drawer = await s.call('houseinfoplus', second, admin);
      expect(drawer.data.items.address).toBe('2号楼东单元801');
      expect(drawer.data.items.houses.map((h: { address: string }) => h.address).sort()).toEqual(['2号楼东单元801', '9号楼1单元1101']);
      // an address or sort set by hand is worked out again by the database
      await sql`UPDATE rooms SET address = 'x', building_sort = -1 WHERE rid = 1 AND id = ${home.hid}`.execute(db);
      expect(await addresses()).toEqual(['2号楼东单元801', '9号楼1单元1101']);
    } finally {
      await s.call('buildingedit', first, admin);
      await s.call('unitedit', secondUnit, admin);
    }
    expect(await addresses()).toEqual(['1号楼1单元1101', '2号楼1单元801']);
  });

  it('answers at most 50 houses, all of people living in or owning a room now', async () => {
    const res = await s.call('getkeywordtohouses', { keywords: '1' }, admin);
    const {
      rows: [all],
    } = await s.database.pool.query(`SELECT count(*)::int AS n FROM room_members WHERE rid = 1 AND status = 'Y'`);
    expect((all as { n: number }).n).toBeGreaterThan(50);
    expect(res.data.items).toHaveLength(50);
    const ids = res.data.items.map((i: { id: number }) => i.id);
    const { rows } = await s.database.pool.query('SELECT status FROM room_members WHERE rid = 1 AND id = ANY($1)', [ids]);
    expect(rows.map((r) => (r as { status: string }).status)).toEqual(ids.map(() => 'Y'));
  });

  it('refuses an empty keyword with the spec text and more than 11 characters', async () => {
    expect(await s.call('getkeywordtohouses', { keywords: '' }, admin)).toMatchObject({
      return_code: RC.FAIL,
      return_msg: '请输入手机号码或业主姓名',
    });
    expect(await s.call('getkeywordtohouses', { keywords: '   ' }, admin)).toMatchObject({ return_msg: '请输入手机号码或业主姓名' });
    expect(await s.call('getkeywordtohouses', {}, admin)).toMatchObject({ return_msg: '请输入手机号码或业主姓名' });
    const long = await s.call('getkeywordtohouses', { keywords: '138001380001' }, admin);
    expect(long.return_code).toBe(RC.FAIL);
    expect(long.return_msg).toContain('keywords');
    expect((await s.call('getkeywordtohouses', { keywords: '13800138000' }, admin)).return_code).toBe(RC.SUCCESS);
  });

  it('stays within the session community', async () => {
    const res = await s.call('getkeywordtohouses', { keywords: '13800138000' }, admin2);
    expect(res.data.items).toEqual([]);
    const other = await s.call('getkeywordtohouses', { keywords: '1' }, admin2);
    for (const item of other.data.items) expect(item.rid).toBe(2);
  });

  it('matches Latin names in any case, lower-cased as the name index was', async () => {
    const added = await s.call(
      'memberadd',
      { realname: 'İlker MÜLLER', mobile: '13977770001', rooms: [{ hid: second.hid, relation: 'tenant' }] },
      admin,
    );
    expect(added.return_code).toBe(RC.SUCCESS);
    // JavaScript lower-cases İ to two characters (i + a dot), the database to one: the key must be the database's
    let link = 0;
    for (const keywords of ['İlker', 'ilker', 'müller', 'MÜLLER', 'r mü']) {
      const res = await s.call('getkeywordtohouses', { keywords }, admin);
      const found = res.data.items.find((i: { realname: string }) => i.realname === 'İlker MÜLLER');
      expect(found, keywords).toBeDefined();
      link = found.id;
    }
    // moved out again, so the room's head counts below stay the demo's
    expect((await s.call('membermoveout', { id: link }, admin)).return_code).toBe(RC.SUCCESS);
  });

  it('treats LIKE characters literally', async () => {
    expect((await s.call('getkeywordtohouses', { keywords: '%' }, admin)).data.items).toEqual([]);
    expect((await s.call('getkeywordtohouses', { keywords: '_' }, admin)).data.items).toEqual([]);
  });

  it('finds by the last four digits of a mobile, a room number and an address, as a counter asks (issue 34)', async () => {
    type Item = { id: number; hid: number; mobile: string; address: string; realname: string };
    const search = async (keywords: string) =>
      ((await s.call('getkeywordtohouses', { keywords }, cashier)).data.items as Item[]).map((i) => `${i.realname} ${i.address}`);
    // 陈建国 by the tail of 13800138000, beside everyone whose number starts with 8000 (nobody: mobiles start with 1)
    const tail = await s.call('getkeywordtohouses', { keywords: '8000' }, cashier);
    expect(tail.data.items.map((i: Item) => i.address)).toEqual(expect.arrayContaining(['1号楼1单元1101', '2号楼1单元801']));
    for (const i of tail.data.items as Item[]) expect(i.mobile.endsWith('8000') || i.mobile.startsWith('8000')).toBe(true);
    const { rows: tails } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM members m
      JOIN room_members rm ON rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y'
      WHERE m.rid = 1 AND (m.mobile LIKE '%8000' OR m.mobile LIKE '8000%')`.execute(s.database.db);
    expect(tail.data.items).toHaveLength(Math.min(50, tails[0]!.n));
    // the people of every room numbered 1101, whatever its building; and a room number finds only itself
    const { rows: rooms } = await sql<{ id: number }>`SELECT rm.id FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      WHERE rm.rid = 1 AND rm.status = 'Y' AND r.title = '1101'`.execute(s.database.db);
    const byRoom = await s.call('getkeywordtohouses', { keywords: '1101' }, cashier);
    expect(byRoom.data.items.map((i: Item) => i.address)).toContain('1号楼1单元1101');
    for (const id of rooms.map((r) => r.id).slice(0, 10)) expect(byRoom.data.items.map((i: Item) => i.id)).toContain(id);
    for (const i of byRoom.data.items as Item[]) expect(i.address.endsWith('1101') || i.mobile.endsWith('1101')).toBe(true);
    expect(await search('801')).toContain('陈建国 2号楼1单元801');
    expect(await search('1号楼1单元1101')).toContain('陈建国 1号楼1单元1101');
    expect(await search('2号楼1单元801')).toEqual(expect.arrayContaining(['陈建国 2号楼1单元801', '王磊 2号楼1单元801']));
    // a person found by two arms (the head and the tail of one number) is answered once
    const both = await s.call(
      'memberadd',
      { realname: '头尾同号', mobile: '13913913913', rooms: [{ hid: second.hid, relation: 'tenant' }] },
      admin,
    );
    expect(both.return_code).toBe(RC.SUCCESS);
    const found = ((await s.call('getkeywordtohouses', { keywords: '3913' }, cashier)).data.items as Item[]).filter(
      (i) => i.realname === '头尾同号',
    );
    expect(found).toHaveLength(1);
    expect((await s.call('membermoveout', { id: found[0]!.id }, admin)).return_code).toBe(RC.SUCCESS);
    // other communities' rooms and people stay out
    expect((await s.call('getkeywordtohouses', { keywords: '8000' }, admin2)).data.items.every((i: { rid: number }) => i.rid === 2)).toBe(
      true,
    );
    expect(await search('9999')).toEqual([]);
  });

  it('is refused to a merchant account', async () => {
    expect((await s.call('getkeywordtohouses', { keywords: '138' }, merchant)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('houseinfoplus (spec 2.5 header)', () => {
  it("answers the room owner's info and rooms", async () => {
    const res = await s.call('houseinfoplus', { ...home, keyword: '', building_cate_id: '' }, cashier);
    expect(res.return_code).toBe(RC.SUCCESS);
    const info = res.data.items;
    expect(info).toMatchObject({
      owner_name: '陈建国',
      mobile: '13800138000',
      wx_isbind: 'Y',
      app_isbind: 'Y',
      member_num: 3,
      hid: home.hid,
    });
    expect(info.owner_balance).toMatch(/^\d+\.\d{2}$/);
    expect(info.gel_fee).toMatch(/^\d+\.\d{2}$/);
    expect(info.owner_bonus).toBeGreaterThan(0);
    expect(info.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(info.houses.map((h: { address: string }) => h.address)).toEqual(['1号楼1单元1101', '2号楼1单元801']);
    const rented = await s.call('houseinfoplus', second, admin);
    expect(rented.data.items).toMatchObject({ owner_name: '陈建国', member_num: 2 });
  });

  it('answers a room nobody lives in with the room alone', async () => {
    const { rows } = await s.database.pool.query(
      `SELECT r.id, r.bid, r.tid FROM rooms r WHERE r.rid = 1
       AND NOT EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y') ORDER BY r.id LIMIT 1`,
    );
    const empty = rows[0] as { id: number; bid: number; tid: number } | undefined;
    const res = await s.call('houseinfoplus', { rid: 1, bid: empty!.bid, tid: empty!.tid, hid: empty!.id }, admin);
    expect(res.data.items).toMatchObject({
      member_id: null,
      owner_name: '',
      mobile: '',
      owner_balance: '0.00',
      member_num: 0,
      owner_bonus: 0,
      create_time: '',
      hid: empty!.id,
    });
    expect(res.data.items.houses).toEqual([{ id: empty!.id, rid: 1, bid: empty!.bid, tid: empty!.tid, address: res.data.items.address }]);
  });

  it('answers as arrears the unpaid and overdue bills with their late fees today, as the cashier sums them', async () => {
    const { rows } = await s.database.pool.query(
      `SELECT coalesce(sum(fee), 0)::numeric(14,2)::text AS fee, count(*)::int AS n FROM fee_bills WHERE rid = 1 AND hid = $1 AND status IN ('E', 'N')`,
      [home.hid],
    );
    const info = (await s.call('houseinfoplus', home, admin)).data.items;
    const desk = (await s.call('cashierbills', { hid: home.hid }, cashier)).data.totals;
    expect(info.arrears).toEqual({ bill_count: rows[0]!.n, fee: rows[0]!.fee, late_fee: desk.late_fee, total: desk.total });
    expect(info.gel_fee).toBe(desk.total);
  });

  it("never answers another community's room", async () => {
    expect((await s.call('houseinfoplus', home, admin2)).return_code).toBe(RC.FAIL);
    expect((await s.call('houseinfoplus', { ...home, rid: 2 }, admin)).return_code).toBe(RC.FAIL);
    expect((await s.call('houseinfoplus', { ...home, bid: second.bid }, admin)).return_code).toBe(RC.FAIL);
  });

  it('refuses bad payloads and merchants', async () => {
    const res = await s.call('houseinfoplus', { rid: 1, bid: 1, tid: 1 }, admin);
    expect(res.return_code).toBe(RC.FAIL);
    expect(res.return_msg).toContain('hid');
    expect((await s.call('houseinfoplus', { ...home, hid: 'abc' }, admin)).return_msg).toContain('hid');
    expect((await s.call('houseinfoplus', home, merchant)).return_code).toBe(RC.NO_PERMISSION);
  });
});

/** Every tab's list: method, extra filters that must narrow the rows, and the fields docs/product.md#owner-drawer lists. */
const TABS: Array<{ method: string; fields: string[] }> = [
  { method: 'housecarlist', fields: ['id', 'realname', 'mobile', 'carlicense', 'status_ch', 'create_time'] },
  { method: 'member_otherhouse_list', fields: ['id', 'ownername', 'mobile', 'building_cate_name', 'address', 'last_login_time'] },
  { method: 'housecarportlist', fields: ['id', 'parktitle', 'title', 'carlicense', 'status_ch'] },
  { method: 'visitorapplylist', fields: ['address', 'realname', 'mobile', 'visit_cause', 'status', 'status_ch', 'visit_time'] },
  {
    method: 'homebonuslist',
    fields: ['merchant', 'orderid', 'name', 'code', 'user_code', 'num', 'pay_cate', 'cate', 'source', 'create_time', 'action_user'],
  },
  {
    method: 'homeconsumelist',
    fields: ['merchant', 'orderid', 'feetype_ch', 'paytype_ch', 'total_fee', 'status', 'create_user', 'create_time'],
  },
  {
    method: 'housecarinoutlist',
    fields: ['id', 'parktitle', 'carno', 'inlane', 'intime', 'outlane', 'outtime', 'total_fee', 'pay_fee', 'car_type', 'reason'],
  },
  {
    method: 'housesignuplist',
    fields: [
      'id',
      'title',
      'limit_num',
      'totle_num',
      'join_type_ch',
      'is_pay_ch',
      'status',
      'status_ch',
      'start_time',
      'end_time',
      'event_start_time',
      'event_end_time',
      'create_user',
      'create_time',
    ],
  },
  { method: 'housecurrentlist', fields: ['room_name', 'address', 'rec_time'] },
  {
    method: 'housefacelist',
    fields: ['id', 'area_title', 'door_start_time', 'door_end_time', 'status', 'status_ch', 'create_user', 'create_time'],
  },
];

describe('the drawer tabs', () => {
  for (const tab of TABS) {
    describe(tab.method, () => {
      it('lists the room rows with the spec fields, 10 a page, sorted by id', async () => {
        const asc = await s.call(tab.method, { ...home, page: 1, limit: 10, sort: 'asc' }, admin);
        expect(asc.return_code).toBe(RC.SUCCESS);
        expect(asc.data.total).toBeGreaterThan(0);
        expect(asc.data.items.length).toBe(Math.min(10, asc.data.total));
        expect(Object.keys(asc.data.items[0])).toEqual(expect.arrayContaining(tab.fields));
        const desc = await s.call(tab.method, { ...home, sort: 'desc' }, admin);
        expect(desc.data.total).toBe(asc.data.total);
        if (asc.data.total > 1) expect(desc.data.items[0]).not.toEqual(asc.data.items[0]);
      });

      it("answers nothing for another community's room", async () => {
        const res = await s.call(tab.method, home, admin2);
        expect(res).toMatchObject({ return_code: RC.SUCCESS, data: { items: [], total: 0 } });
        expect((await s.call(tab.method, { ...home, rid: 2 }, admin)).data.total).toBe(0);
        // the room's id with another building or unit names no room
        expect((await s.call(tab.method, { ...home, bid: second.bid }, admin)).data).toEqual({ items: [], total: 0 });
        expect((await s.call(tab.method, { ...home, tid: home.tid + 1000 }, admin)).data).toEqual({ items: [], total: 0 });
      });

      it('answers the same total on a full page, the last page and past the end', async () => {
        const all = (await s.call(tab.method, { ...home, limit: 100 }, admin)).data;
        if (all.total < 2) return;
        const limit = all.total - 1;
        const pages = await Promise.all([1, 2, 3].map((page) => s.call(tab.method, { ...home, page, limit }, admin)));
        expect(pages.map((p) => p.data.total)).toEqual([all.total, all.total, all.total]);
        expect(pages.map((p) => p.data.items.length)).toEqual([limit, 1, 0]);
        expect([...pages[0]!.data.items, ...pages[1]!.data.items]).toEqual(all.items);
      });

      it('refuses merchants and bad payloads', async () => {
        expect((await s.call(tab.method, home, merchant)).return_code).toBe(RC.NO_PERMISSION);
        const bad = await s.call(tab.method, { ...home, page: 0 }, admin);
        expect(bad.return_code).toBe(RC.FAIL);
        expect(bad.return_msg).toContain('page');
        expect((await s.call(tab.method, { rid: 1 }, admin)).return_msg).toContain('hid');
      });
    });
  }

  it("says each tab's status in the words of its enum, an empty one where the enum names it", async () => {
    const enums: Record<string, ValueEnum> = {
      housecarlist: CAR_STATUS,
      housecarportlist: SPACE_STATUS,
      visitorapplylist: VISITOR_STATUS,
      homeconsumelist: LEDGER_PAY_STATUS,
      housesignuplist: ACTIVITY_STATUS,
      housefacelist: FACE_STATUS,
    };
    for (const [method, e] of Object.entries(enums)) {
      const items: Array<{ status: string; status_ch: string }> = (await s.call(method, { ...home, limit: 100 }, admin)).data.items;
      expect(items.length, method).toBeGreaterThan(0);
      for (const r of items) expect(r.status_ch, `${method} ${r.status}`).toBe(e[r.status]!.text);
    }
    const visitors = (await s.call('visitorapplylist', { ...home, limit: 100 }, admin)).data.items;
    expect(visitors.find((v: { status: string }) => v.status === '')?.status_ch).toBe('待审核');
  });

  it('pages 10 at a time', async () => {
    const p1 = await s.call('housecurrentlist', { ...home, page: 1 }, admin);
    const p2 = await s.call('housecurrentlist', { ...home, page: 2 }, admin);
    expect(p1.data.items).toHaveLength(10);
    expect(p2.data.items[0].id).toBeGreaterThan(p1.data.items[9].id);
  });

  it('filters cars by plate, with or without the dot', async () => {
    expect(
      (await s.call('housecarlist', { ...home, carlicense: '沪AD' }, admin)).data.items.map((c: { carlicense: string }) => c.carlicense),
    ).toEqual(['沪AD12345']);
    expect((await s.call('housecarlist', { ...home, carlicense: '沪a·123' }, admin)).data.items[0].carlicense).toBe('沪A12345');
    expect((await s.call('housecarlist', { ...home, carlicense: '12345' }, admin)).data.total).toBe(2);
    expect((await s.call('housecarlist', { ...home, carlicense: '粤' }, admin)).data.total).toBe(0);
  });

  it('shows the other rooms of the room members, filtered by keyword', async () => {
    const res = await s.call('member_otherhouse_list', { ...home, keyword: '801' }, admin);
    expect(res.data.items.map((i: { address: string }) => i.address)).toEqual(['2号楼1单元801']);
    expect((await s.call('member_otherhouse_list', { ...home, keyword: '不存在' }, admin)).data.total).toBe(0);
  });

  it('covers every visitor status', async () => {
    const res = await s.call('visitorapplylist', { ...home, limit: 50 }, admin);
    expect(new Set(res.data.items.map((v: { status: string }) => v.status))).toEqual(new Set(['', 'Y', 'D', 'C', '3']));
  });

  it('filters points and balance by store, and balance by io_type', async () => {
    const stores = (await s.call('merchant_auth_small_list', {}, admin)).data.items;
    expect(stores.length).toBeGreaterThan(1);
    expect(Object.keys(stores[0])).toEqual(['id', 'merchant']);
    const all = await s.call('homebonuslist', { ...home, limit: 50 }, admin);
    const one = await s.call('homebonuslist', { ...home, limit: 50, mid: stores[0].id }, admin);
    expect(one.data.total).toBeGreaterThan(0);
    expect(one.data.total).toBeLessThan(all.data.total);
    for (const row of one.data.items) expect(row.merchant).toBe(stores[0].merchant);
    const consume = await s.call('homeconsumelist', { ...home, io_type: 2, limit: 50 }, admin);
    for (const row of consume.data.items) expect(row.io_type).toBe(2);
    const income = await s.call('homeconsumelist', { ...home, io_type: 1 }, admin);
    expect(income.data.items[0]).toMatchObject({ io_type: 1, feetype_ch: '余额充值' });
    expect((await s.call('homeconsumelist', { ...home, io_type: 3 }, admin)).return_msg).toContain('io_type');
    expect((await s.call('merchant_auth_small_list', {}, admin2)).data.items.map((m: { merchant: string }) => m.merchant)).not.toContain(
      stores[0].merchant,
    );
  });

  it("lists the room's own balance movements and its people's that name no room, and nobody else's", async () => {
    for (const io_type of [1, 2]) {
      const res = await s.call('homeconsumelist', { ...home, io_type, limit: 200 }, admin);
      const { rows } = await sql<{ id: number }>`
        SELECT l.id FROM balance_ledger l
        WHERE l.rid = ${home.rid} AND l.io_type = ${io_type} AND (l.hid = ${home.hid} OR (l.hid IS NULL AND l.member_id IN (
          SELECT member_id FROM room_members WHERE rid = ${home.rid} AND hid = ${home.hid} AND status = 'Y')))
        ORDER BY l.id`.execute(s.database.db);
      expect(rows.length).toBeGreaterThan(0);
      expect(res.data.items.map((i: { id: number }) => i.id)).toEqual(rows.map((r) => r.id));
      expect(res.data.total).toBe(rows.length);
    }
  });

  it('filters vehicle in/out by lot and plate', async () => {
    const lots = (await s.call('car_parking_small_list', { rid: 1 }, admin)).data.items;
    expect(lots.length).toBe(2);
    expect((await s.call('car_parking_small_list', { rid: 1 }, admin2)).data.items).toEqual([]);
    const inLot = await s.call('housecarinoutlist', { ...home, parkid: lots[0].id }, admin);
    expect(inLot.data.total).toBeGreaterThan(0);
    expect((await s.call('housecarinoutlist', { ...home, parkid: lots[1].id }, admin)).data.total).toBe(0);
    const plate = await s.call('housecarinoutlist', { ...home, carno: '沪AD', limit: 50 }, admin);
    expect(plate.data.total).toBeGreaterThan(0);
    for (const row of plate.data.items) expect(row.carno).toBe('沪AD12345');
  });

  it('filters sign-ups by title, access records by device and face permissions by date', async () => {
    expect(
      (await s.call('housesignuplist', { ...home, title: '中秋' }, admin)).data.items.every(
        (a: { title: string }) => a.title === '中秋游园会',
      ),
    ).toBe(true);
    expect((await s.call('housesignuplist', { ...home, title: '不存在的活动' }, admin)).data.total).toBe(0);
    const all = await s.call('housecurrentlist', { ...home, limit: 100 }, admin);
    const device = all.data.items[0];
    const devices = (await s.call('access_device_small_list', {}, admin)).data.items;
    expect((await s.call('access_device_small_list', {}, admin2)).data.items.map((d: { title: string }) => d.title)).not.toContain(
      devices[0].title,
    );
    const deviceId = devices.find((d: { title: string }) => d.title === device.room_name).id;
    const one = await s.call('housecurrentlist', { ...home, device: deviceId, limit: 100 }, admin);
    expect(one.data.total).toBeLessThan(all.data.total);
    for (const row of one.data.items) expect(row.room_name).toBe(device.room_name);
    const faces = await s.call('housefacelist', { ...home, limit: 50 }, admin);
    const day = faces.data.items[0].create_time.slice(0, 10);
    const sameDay = await s.call('housefacelist', { ...home, start_date: day, end_date: day, limit: 50 }, admin);
    expect(sameDay.data.total).toBeGreaterThan(0);
    for (const row of sameDay.data.items) expect(row.create_time.slice(0, 10)).toBe(day);
    expect((await s.call('housefacelist', { ...home, start_date: '2000-01-01', end_date: '2000-01-02' }, admin)).data.total).toBe(0);
    expect((await s.call('housefacelist', { ...home, start_date: '2024/01/01' }, admin)).return_msg).toContain('start_date');
  });

  it('refuses the small lists to accounts without any owner role', async () => {
    const steward = await s.login('steward');
    expect((await s.call('merchant_auth_small_list', {}, steward)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('car_parking_small_list', {}, merchant)).return_code).toBe(RC.SUCCESS);
    const expired = await s.login('expired');
    expect((await s.call('car_parking_small_list', {}, expired)).return_code).toBe(RC.AUTH_END);
  });
});
