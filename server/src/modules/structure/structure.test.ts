import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { waitFor } from '../../test/process.js';

let s: TestServer;
let admin: string;
let admin2: string;
let steward: string;
let merchant: string;
/** a building, unit and room of community 1 (for isolation checks from community 2) */
let c1: { bid: number; tid: number; hid: number };

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, steward, merchant] = (await Promise.all(['admin', 'admin2', 'steward', 'merchant'].map((u) => s.login(u)))) as [
    string,
    string,
    string,
    string,
  ];
  const room = await s.call('roomlist', { limit: 1 }, admin);
  const r = room.data.items[0];
  c1 = { bid: r.bid, tid: r.tid, hid: r.id };
});
afterAll(() => s.close());

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');

describe('room categories', () => {
  it('lists the seeded defaults with room counts', async () => {
    const res = await s.call('roomcatelist', {}, steward);
    ok(res);
    expect(res.data.items.map((c: { title: string }) => c.title)).toEqual(['住宅', '商铺', '写字楼', '车位', '储藏室']);
    expect(res.data.items[0]).toMatchObject({ kind: 'residence', kind_ch: '住宅', room_count: 720 });
    expect(res.data.items[1].room_count).toBe(2);
    const small = await s.call('roomcate_small_list', {}, admin);
    expect(small.data.items).toHaveLength(5);
    const filtered = await s.call('roomcatelist', { title: '车' }, admin);
    expect(filtered.data.items.map((c: { title: string }) => c.title)).toEqual(['车位']);
  });

  it('adds, edits and deletes; refuses duplicates, unknown kinds, used categories', async () => {
    const add = await s.call('roomcateadd', { title: '公寓', kind: 'residence', sort: 6 }, admin);
    ok(add);
    expect((await s.call('roomcateadd', { title: '公寓' }, admin)).return_msg).toBe('房屋类型“公寓”已存在');
    expect((await s.call('roomcateadd', { title: '' }, admin)).return_msg).toContain('请输入类型名称');
    expect((await s.call('roomcateadd', { title: 'x', kind: 'castle' }, admin)).return_msg).toContain('kind');
    ok(await s.call('roomcateedit', { id: add.data.id, title: '酒店式公寓', kind: 'other' }, admin));
    expect((await s.call('roomcateedit', { id: add.data.id, title: '住宅' }, admin)).return_msg).toBe('房屋类型“住宅”已存在');
    const used = await s.call('roomcatelist', { title: '住宅' }, admin);
    expect((await s.call('roomcatedel', { id: used.data.items[0].id }, admin)).return_msg).toBe('还有 720 套房屋使用该类型，不能删除');
    ok(await s.call('roomcatedel', { id: add.data.id }, admin));
    expect((await s.call('roomcatedel', { id: add.data.id }, admin)).return_msg).toBe('房屋类型不存在');
  });

  it('refuses writes without the role and keeps communities apart', async () => {
    expect((await s.call('roomcateadd', { title: '仓库' }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('roomcateadd', { title: '仓库' }, merchant)).return_code).toBe('NO_PERMISSION');
    const one = await s.call('roomcatelist', {}, admin);
    const cat = one.data.items.find((c: { title: string }) => c.title === '储藏室');
    expect((await s.call('roomcateedit', { id: cat.id, title: '改名' }, admin2)).return_msg).toBe('房屋类型不存在');
    expect((await s.call('roomcatedel', { id: cat.id }, admin2)).return_msg).toBe('房屋类型不存在');
    const two = await s.call('roomcatelist', {}, admin2);
    expect(two.data.items.every((c: { id: number }) => c.id !== cat.id)).toBe(true);
  });
});

describe('buildings and units', () => {
  it('lists buildings with unit and room counts, filters and pages', async () => {
    const res = await s.call('buildinglist', {}, admin);
    ok(res);
    expect(res.data.total).toBe(6);
    expect(res.data.items).toHaveLength(6);
    expect(res.data.items[1]).toMatchObject({ title: '2号楼', unit_count: 2, room_count: 120, floors: 15 });
    const filtered = await s.call('buildinglist', { title: '3号' }, admin);
    expect(filtered.data.items.map((b: { title: string }) => b.title)).toEqual(['3号楼']);
    const desc = await s.call('buildinglist', { limit: 2, sort: 'desc' }, admin);
    expect(desc.data.items.map((b: { title: string }) => b.title)).toEqual(['6号楼', '5号楼']);
    const small = await s.call('building_small_list', {}, merchant);
    expect(small.data.items[0]).toEqual({ id: c1.bid, title: '1号楼' });
    const two = await s.call('buildinglist', {}, admin2);
    expect(two.data.total).toBe(3);
  });

  it('adds a building with units and rooms, then refuses deletes while something hangs on them', async () => {
    const b = await s.call('buildingadd', { title: '7号楼', floors: 18, remark: '新交付' }, admin);
    ok(b);
    expect((await s.call('buildingadd', { title: '7号楼' }, admin)).return_msg).toBe('楼栋“7号楼”已存在');
    expect((await s.call('buildingadd', { title: 'x', floors: -1 }, admin)).return_msg).toContain('floors');
    const u = await s.call('unitadd', { bid: b.data.id, title: '1单元' }, admin);
    ok(u);
    expect((await s.call('unitadd', { bid: b.data.id, title: '1单元' }, admin)).return_msg).toBe('该楼栋下已有单元“1单元”');
    const r = await s.call(
      'roomadd',
      { bid: b.data.id, tid: u.data.id, title: '1801', floor: 18, built_area: '120.5', indoor_area: '96.40' },
      admin,
    );
    ok(r);
    expect((await s.call('buildingdel', { id: b.data.id }, admin)).return_msg).toBe('该楼栋下还有单元或房屋，不能删除');
    expect((await s.call('unitdel', { id: u.data.id }, admin)).return_msg).toBe('该单元下还有房屋，不能删除');
    ok(await s.call('roomdel', { id: r.data.id }, admin));
    ok(await s.call('unitdel', { id: u.data.id }, admin));
    ok(await s.call('buildingedit', { id: b.data.id, title: '7号楼A', floors: 20 }, admin));
    ok(await s.call('buildingdel', { id: b.data.id }, admin));
    expect((await s.call('buildingdel', { id: b.data.id }, admin)).return_msg).toBe('楼栋不存在');
  });

  it('lists units by building and gives the dropdowns', async () => {
    const res = await s.call('unitlist', { bid: c1.bid }, admin);
    ok(res);
    expect(res.data.items.map((u: { title: string }) => u.title)).toEqual(['1单元', '2单元']);
    expect(res.data.items[0]).toMatchObject({ building_title: '1号楼', room_count: 62 });
    const byTitle = await s.call('unitlist', { title: '2单元' }, admin);
    expect(byTitle.data.total).toBe(6);
    const small = await s.call('unit_small_list', { bid: c1.bid }, admin);
    expect(small.data.items).toHaveLength(2);
    expect((await s.call('unit_small_list', {}, admin)).return_msg).toContain('bid');
    const rooms = await s.call('room_small_list', { tid: c1.tid }, admin);
    expect(rooms.data.items).toHaveLength(62);
  });

  it('edits units; moving a unit with rooms is refused', async () => {
    const units = await s.call('unitlist', { bid: c1.bid }, admin);
    const unit = units.data.items[1];
    ok(await s.call('unitedit', { id: unit.id, bid: c1.bid, title: '二单元', sort: 2 }, admin));
    const buildings = await s.call('building_small_list', {}, admin);
    expect((await s.call('unitedit', { id: unit.id, bid: buildings.data.items[1].id, title: '二单元' }, admin)).return_msg).toBe(
      '该单元下还有房屋，不能更换楼栋',
    );
    expect((await s.call('unitedit', { id: unit.id, bid: c1.bid, title: '1单元' }, admin)).return_msg).toBe('该楼栋下已有单元“1单元”');
    ok(await s.call('unitedit', { id: unit.id, bid: c1.bid, title: '2单元', sort: 2 }, admin));
  });

  it('refuses writes without the role', async () => {
    for (const [method, payload] of [
      ['buildingadd', { title: 'x' }],
      ['buildingedit', { id: c1.bid, title: 'x' }],
      ['buildingdel', { id: c1.bid }],
      ['unitadd', { bid: c1.bid, title: 'x' }],
      ['unitedit', { id: c1.tid, bid: c1.bid, title: 'x' }],
      ['unitdel', { id: c1.tid }],
    ] as const) {
      expect((await s.call(method, payload, steward)).return_code, method).toBe('NO_PERMISSION');
      expect((await s.call(method, payload, merchant)).return_code, method).toBe('NO_PERMISSION');
    }
  });

  it('keeps another community out of community 1 buildings and units', async () => {
    expect((await s.call('buildingedit', { id: c1.bid, title: '被改' }, admin2)).return_msg).toBe('楼栋不存在');
    expect((await s.call('buildingdel', { id: c1.bid }, admin2)).return_msg).toBe('楼栋不存在');
    expect((await s.call('unitadd', { bid: c1.bid, title: '9单元' }, admin2)).return_msg).toBe('所选楼栋不存在');
    expect((await s.call('unitedit', { id: c1.tid, bid: c1.bid, title: '被改' }, admin2)).return_msg).toBe('单元不存在');
    expect((await s.call('unitdel', { id: c1.tid }, admin2)).return_msg).toBe('单元不存在');
    expect((await s.call('unitlist', { bid: c1.bid }, admin2)).data.total).toBe(0);
    expect((await s.call('unit_small_list', { bid: c1.bid }, admin2)).data.items).toEqual([]);
    expect((await s.call('room_small_list', { tid: c1.tid }, admin2)).data.items).toEqual([]);
    const still = await s.call('buildinglist', { title: '1号楼' }, admin);
    expect(still.data.items[0].title).toBe('1号楼');
  });
});

describe('rooms', () => {
  it('lists with every filter, names and state text', async () => {
    const all = await s.call('roomlist', {}, admin);
    ok(all);
    expect(all.data.total).toBe(722);
    expect(all.data.items).toHaveLength(10);
    expect(all.data.items[0]).toMatchObject({
      building_title: '1号楼',
      unit_title: '1单元',
      category_title: '住宅',
      title: '101',
      address: '1号楼1单元101',
    });
    const byUnit = await s.call('roomlist', { bid: c1.bid, tid: c1.tid, floor: 11 }, admin);
    expect(byUnit.data.items.map((r: { title: string }) => r.title)).toEqual(['1101', '1102', '1103', '1104']);
    const shops = await s.call(
      'roomlist',
      { category_id: (await s.call('roomcatelist', { title: '商铺' }, admin)).data.items[0].id },
      admin,
    );
    expect(shops.data.items.map((r: { title: string }) => r.title)).toEqual(['S01', 'S02']);
    const vacant = await s.call('roomlist', { state: 'vacant', limit: 200 }, admin);
    expect(vacant.data.total).toBeGreaterThan(0);
    expect(vacant.data.items.every((r: { state_ch: string }) => r.state_ch === '空置')).toBe(true);
    const occupied = await s.call('roomlist', { state: 'occupied' }, admin);
    expect(occupied.data.total).toBeGreaterThan(all.data.total / 2);
    const keyword = await s.call('roomlist', { keyword: '150', bid: c1.bid }, admin);
    expect(keyword.data.items.map((r: { title: string }) => r.title)).toEqual([
      '1501',
      '1502',
      '1503',
      '1504',
      '1501',
      '1502',
      '1503',
      '1504',
    ]);
    const empty = await s.call('roomlist', { bid: '', tid: '', state: '', floor: '' }, admin);
    expect(empty.data.total).toBe(722);
    expect((await s.call('roomlist', { state: 'sold' }, admin)).return_msg).toContain('state');
    expect((await s.call('roomlist', { page: 0 }, admin)).return_msg).toContain('page');
  });

  it('shows one room and keeps other communities out', async () => {
    const res = await s.call('roominfo', { id: c1.hid }, steward);
    ok(res);
    expect(res.data).toMatchObject({ id: c1.hid, rid: 1, bid: c1.bid, tid: c1.tid, state_ch: expect.any(String) });
    expect((await s.call('roominfo', { id: c1.hid }, admin2)).return_msg).toBe('房屋不存在');
    expect((await s.call('roominfo', { id: 'abc' }, admin)).return_msg).toContain('id');
  });

  it('adds and edits with checks on unit, building, category, areas and duplicates', async () => {
    const cat = (await s.call('roomcatelist', { title: '储藏室' }, admin)).data.items[0].id;
    const add = await s.call(
      'roomadd',
      {
        bid: c1.bid,
        tid: c1.tid,
        title: 'B-01',
        floor: -1,
        category_id: cat,
        built_area: 12.5,
        indoor_area: '10',
        state: 'vacant',
        remark: '地下储藏室',
      },
      admin,
    );
    ok(add);
    const info = await s.call('roominfo', { id: add.data.id }, admin);
    expect(info.data).toMatchObject({
      title: 'B-01',
      floor: -1,
      built_area: '12.50',
      indoor_area: '10.00',
      category_title: '储藏室',
      state_ch: '空置',
    });
    expect((await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: 'B-01' }, admin)).return_msg).toBe('该单元下已有房号“B-01”');
    expect(
      (await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: 'B-02', built_area: '10', indoor_area: '11' }, admin)).return_msg,
    ).toBe('套内面积不能大于建筑面积');
    expect((await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: 'B-02', built_area: '10.123' }, admin)).return_msg).toMatch(
      /built_area.*面积格式不正确/,
    );
    expect((await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: '' }, admin)).return_msg).toContain('请输入房号');
    expect((await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: 'B-02', state: 'sold' }, admin)).return_msg).toContain(
      '房屋状态取值不正确',
    );
    const otherBuilding = (await s.call('building_small_list', {}, admin)).data.items[1].id;
    expect((await s.call('roomadd', { bid: otherBuilding, tid: c1.tid, title: 'B-02' }, admin)).return_msg).toBe('所选单元不属于所选楼栋');
    ok(
      await s.call(
        'roomedit',
        {
          id: add.data.id,
          bid: c1.bid,
          tid: c1.tid,
          title: 'B-01',
          floor: -1,
          category_id: cat,
          built_area: '13',
          indoor_area: '11',
          state: 'rented',
        },
        admin,
      ),
    );
    expect((await s.call('roominfo', { id: add.data.id }, admin)).data).toMatchObject({
      built_area: '13.00',
      state: 'rented',
      state_ch: '出租',
    });
    expect((await s.call('roomedit', { id: add.data.id, bid: c1.bid, tid: c1.tid, title: '101' }, admin)).return_msg).toBe(
      '该单元下已有房号“101”',
    );
    ok(await s.call('roomdel', { id: add.data.id }, admin));
  });

  it('moves a room to another unit with its bills and receipts, which stay listed after the unit it left goes', async () => {
    const db = s.database.db;
    // a room with bills and a receipt (not in the building the other tests count)
    const paid = (
      await sql<{ hid: number; title: string }>`SELECT r.id hid, r.title FROM rooms r WHERE r.rid = 1 AND r.bid <> ${c1.bid}
      AND EXISTS (SELECT 1 FROM fee_payments p WHERE p.rid = 1 AND p.hid = r.id) ORDER BY r.id DESC LIMIT 1`.execute(db)
    ).rows[0]!;
    const bills = (await s.call('feebilllist', { hid: paid.hid }, admin)).data.total;
    const receipts = (await s.call('paymentlist', { hid: paid.hid }, admin)).data.total;
    expect(bills).toBeGreaterThan(0);
    expect(receipts).toBeGreaterThan(0);
    const newUnit = async (title: string) => {
      const building = await s.call('buildingadd', { title }, admin);
      ok(building);
      const unit = await s.call('unitadd', { bid: building.data.id, title: '1单元' }, admin);
      ok(unit);
      return { title, unit: { bid: building.data.id as number, tid: unit.data.id as number } };
    };
    const first = await newUnit('迁入楼');
    const second = await newUnit('再迁楼');
    for (const { title, unit: to } of [first, second]) {
      ok(await s.call('roomedit', { id: paid.hid, ...to, title: paid.title }, admin));
      const listed = await s.call('feebilllist', { bid: to.bid, limit: 100 }, admin);
      expect(listed.data.total).toBe(bills);
      expect(listed.data.items.every((b: { tid: number; hid: number }) => b.tid === to.tid && b.hid === paid.hid)).toBe(true);
      const moved = await s.call('paymentlist', { hid: paid.hid }, admin);
      expect(moved.data.total).toBe(receipts);
      expect(moved.data.items.every((p: { address: string }) => p.address.startsWith(title))).toBe(true);
    }
    // the unit it left holds nothing now, and deleting it takes none of the room's bills or receipts from the lists
    ok(await s.call('unitdel', { id: first.unit.tid }, admin));
    expect((await s.call('feebilllist', { hid: paid.hid }, admin)).data.total).toBe(bills);
    expect((await s.call('feebilllist', { hid: paid.hid }, admin)).data.items).toHaveLength(Math.min(bills, 10));
    expect((await s.call('paymentlist', { hid: paid.hid }, admin)).data.items).toHaveLength(Math.min(receipts, 10));
  });

  it.runIf(process.env.DATABASE_URL)(
    'edits a room or a unit while their building is renamed: each waits its turn, none is aborted (PostgreSQL)',
    async () => {
      const db = s.database.db;
      const buildingTitle = async () =>
        (await sql<{ title: string }>`SELECT title FROM buildings WHERE rid = 1 AND id = ${c1.bid}`.execute(db)).rows[0]!.title;
      const roomRow = async () =>
        (await sql<{ address: string; remark: string }>`SELECT address, remark FROM rooms WHERE rid = 1 AND id = ${c1.hid}`.execute(db))
          .rows[0]!;
      const title = await buildingTitle();
      const room = (await s.call('roominfo', { id: c1.hid }, admin)).data;
      const unit = (await s.call('unitlist', { bid: c1.bid, limit: 100 }, admin)).data.items.find((u: { id: number }) => u.id === c1.tid);
      const roomEdit = (remark: string) => ({
        id: c1.hid,
        bid: room.bid,
        tid: room.tid,
        title: room.title,
        floor: room.floor,
        category_id: room.category_id,
        built_area: room.built_area,
        indoor_area: room.indoor_area,
        state: room.state,
        remark,
      });
      /** A rename of the building that has taken its building, then lets `edit` start and rewrites the rooms. */
      const renameWhile = async (suffix: string, edit: () => Promise<{ return_code: string; return_msg: string }>) => {
        const renamer = await s.database.pool.connect();
        try {
          await renamer.query('BEGIN');
          const pid = Number((await renamer.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
          await renamer.query('SELECT 1 FROM buildings WHERE rid = 1 AND id = $1 FOR UPDATE', [c1.bid]);
          const edited = edit();
          // the edit is waiting on the rename (the edit used to hold the room by now, and the rename's rewrite of it deadlocked)
          await waitFor(
            'the edit to wait for the rename',
            async () =>
              Number(
                (await s.database.pool.query('SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]))
                  .rows[0]!.n,
              ) > 0,
            10_000,
          );
          await renamer.query('UPDATE buildings SET title = title || $2 WHERE rid = 1 AND id = $1', [c1.bid, suffix]);
          await renamer.query('COMMIT');
          ok(await edited);
        } finally {
          renamer.release();
        }
      };
      try {
        await renameWhile('东', () => s.call('roomedit', roomEdit('改于更名时'), admin));
        expect(await roomRow()).toEqual({ address: `${title}东${unit.title}${room.title}`, remark: '改于更名时' });
        await renameWhile('区', () => s.call('unitedit', { id: unit.id, bid: c1.bid, title: `${unit.title}甲`, sort: unit.sort }, admin));
        expect((await roomRow()).address).toBe(`${title}东区${unit.title}甲${room.title}`);
      } finally {
        ok(await s.call('unitedit', { id: unit.id, bid: c1.bid, title: unit.title, sort: unit.sort }, admin));
        await sql`UPDATE buildings SET title = ${title} WHERE rid = 1 AND id = ${c1.bid}`.execute(db);
        ok(await s.call('roomedit', roomEdit(room.remark), admin));
      }
      expect((await roomRow()).address).toBe(`${title}${unit.title}${room.title}`);
    },
  );

  it('keeps community 2 out of community 1 rooms', async () => {
    expect((await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: '9999' }, admin2)).return_msg).toBe('所选单元不存在');
    expect((await s.call('roomedit', { id: c1.hid, bid: c1.bid, tid: c1.tid, title: '被改' }, admin2)).return_msg).toBe('房屋不存在');
    expect((await s.call('roomdel', { id: c1.hid }, admin2)).return_msg).toBe('房屋不存在');
    const oneCat = (await s.call('roomcatelist', {}, admin)).data.items[0].id;
    const twoRoom = (await s.call('roomlist', { limit: 1 }, admin2)).data.items[0];
    // a category of community 1 cannot be given to a room of community 2
    expect(
      (await s.call('roomedit', { id: twoRoom.id, bid: twoRoom.bid, tid: twoRoom.tid, title: twoRoom.title, category_id: oneCat }, admin2))
        .return_msg,
    ).toBe('所选房屋类型不存在');
    expect((await s.call('roomlist', { bid: c1.bid }, admin2)).data.total).toBe(0);
    expect((await s.call('roominfo', { id: c1.hid }, admin)).data.title).toBe('101');
  });

  it('refuses writes without the role', async () => {
    const base = { bid: c1.bid, tid: c1.tid, title: 'Z1' };
    expect((await s.call('roomadd', base, steward)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('roomedit', { id: c1.hid, ...base }, merchant)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('roomdel', { id: c1.hid }, steward)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('roomlist', {})).return_code).toBe('50008');
  });

  it('refuses to delete a room that members or bills hang on', async () => {
    const db = s.database.db;
    const room = (await s.call('roomadd', { bid: c1.bid, tid: c1.tid, title: 'P-01' }, admin)).data.id;
    // any table with a foreign key to rooms blocks the delete, named in the message
    await sql`CREATE TABLE room_probe (rid int NOT NULL, id bigserial, hid bigint NOT NULL,
      PRIMARY KEY (rid, id), FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id))`.execute(db);
    await sql`INSERT INTO room_probe (rid, hid) VALUES (1, ${room})`.execute(db);
    const res = await s.call('roomdel', { id: room }, admin);
    expect(res.return_code).toBe('FAIL');
    expect(res.return_msg).toBe('该房屋下还有room_probe，不能删除');
    await sql`DROP TABLE room_probe`.execute(db);
    ok(await s.call('roomdel', { id: room }, admin));
    // the owners and fees areas' demo rows (when those areas are present)
    const exists = async (t: string) => (await sql<{ t: string | null }>`SELECT to_regclass(${t})::text AS t`.execute(db)).rows[0]?.t;
    if (await exists('room_members')) {
      const withMember = await sql<{ hid: number }>`SELECT hid FROM room_members WHERE rid = 1 LIMIT 1`.execute(db);
      if (withMember.rows[0]) {
        expect((await s.call('roomdel', { id: withMember.rows[0].hid }, admin)).return_msg).toBe('该房屋下还有业主或住户记录，不能删除');
      }
    }
    if (await exists('fee_bills')) {
      const billOnly = await sql<{ hid: number }>`SELECT b.hid FROM fee_bills b WHERE b.rid = 1
        AND NOT EXISTS (SELECT 1 FROM room_members m WHERE m.rid = b.rid AND m.hid = b.hid) LIMIT 1`
        .execute(db)
        .catch(() => ({ rows: [] as { hid: number }[] }));
      if (billOnly.rows[0])
        expect((await s.call('roomdel', { id: billOnly.rows[0].hid }, admin)).return_msg).toBe('该房屋还有账单，不能删除');
    }
  });

  it('gives the room-state board of one building, highest floor first', async () => {
    const res = await s.call('roommap', { bid: c1.bid }, steward);
    ok(res);
    expect(res.data.items).toHaveLength(122);
    expect(res.data.items[0]).toMatchObject({ unit_title: '1单元', floor: 15, title: '1501', state_ch: expect.any(String) });
    expect((await s.call('roommap', { bid: c1.bid }, admin2)).data.items).toEqual([]);
    expect((await s.call('roommap', {}, admin)).return_msg).toContain('bid');
  });

  it('exports the filtered rooms as a readable workbook', async () => {
    // the property company's accounts export; the merchant account does not (spec 2.3, issue 33)
    expect((await s.call('roomexport', { bid: c1.bid }, merchant)).return_code).toBe('NO_PERMISSION');
    const res = await s.exportFile('roomexport', { bid: c1.bid, tid: c1.tid, floor: 2 }, steward);
    ok(res);
    expect(res.data.filename).toMatch(/^房屋列表_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toContain('房号');
    expect(ws.rowCount).toBe(5);
    expect(ws.getRow(2).getCell(4).value).toBe('201');
    expect(ws.getRow(2).getCell(2).value).toBe('1号楼');
    const other = await s.exportFile('roomexport', { bid: c1.bid }, admin2);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(other.data.content_base64, 'base64') as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.rowCount).toBe(1);
  });
});
