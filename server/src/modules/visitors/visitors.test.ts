import { addDays, visitor } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { VISITOR_CAR_RELEASE } from './jobs.js';

let s: TestServer;
let admin: string;
let admin2: string;
let guard: string;
let parking: string;
let door = 0;
let door2 = 0;
let lot = 0;
/** rooms of community 1 with a person living there: [hid, member_id] */
let homes: Array<[number, number]> = [];

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const refused = (res: { return_code: string; return_msg: string }, msg: RegExp | string) => {
  expect(res.return_code).toBe('FAIL');
  if (typeof msg === 'string') expect(res.return_msg).toBe(msg);
  else expect(res.return_msg).toMatch(msg);
};

/** A day past the demo's week of visitors, so an owner's day starts empty. */
const day = (n = 5) => addDays(today(), n);

async function lived(rid: number, n: number): Promise<Array<[number, number]>> {
  const rows = await s.database.db
    .selectFrom('room_members')
    .select(['hid', 'member_id'])
    .where('rid', '=', rid)
    .where('status', '=', 'Y')
    .orderBy('id')
    .limit(n)
    .execute();
  return rows.map((r) => [Number(r.hid), Number(r.member_id)]);
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, guard, parking] = await s.logins('admin', 'admin2', 'guard', 'parking');
  const db = s.database.db;
  door = Number(
    (await db.selectFrom('devices').select('id').where('rid', '=', 1).where('family', '=', 'door').orderBy('id').executeTakeFirstOrThrow())
      .id,
  );
  door2 = Number(
    (await db.selectFrom('devices').select('id').where('rid', '=', 2).where('family', '=', 'door').orderBy('id').executeTakeFirstOrThrow())
      .id,
  );
  // the lot with idle spaces (the demo's above-ground one)
  lot = Number((await db.selectFrom('parking_lots').select('id').where('rid', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
  homes = await lived(1, 40);
});
afterAll(() => s.close());

let nextHome = 10;
const sample = (extra: Record<string, unknown> = {}) => {
  const [hid, member_id] = homes[nextHome++ % homes.length]!;
  return {
    realname: '王访客',
    gender: 'M',
    mobile: '13912345678',
    hid,
    member_id,
    visit_cause: '亲友拜访',
    visit_note: '看望父母',
    visit_time: `${day()} 10:00:00`,
    leave_time: `${day()} 14:00:00`,
    carlicense: '',
    companions: 1,
    photo: '',
    ...extra,
  };
};

async function register(extra: Record<string, unknown> = {}, token = admin): Promise<number> {
  const res = await s.call('visitoradd', sample(extra), token);
  ok(res);
  return res.data.id as number;
}
const info = async (id: number, token = admin) => {
  const res = await s.call('visitorinfo', { id }, token);
  ok(res);
  return res.data;
};
const settings = async (values: Record<string, unknown>, token = admin) => {
  const res = await s.call(
    'visitorsetedit',
    { review: 'N', push_face: 'N', reserve_car: 'Y', lot_id: lot, free_minutes: 120, daily_car_limit: 0, ...values },
    token,
  );
  ok(res);
  return res.data;
};
const check = (code: string, time: string, device = door, token = admin) =>
  s.call('visitorpasscheck', { device_id: device, code, time }, token);

describeResource(visitor, {
  server: () => s,
  sample: () => sample({ visit_time: `${day(6)} 10:00:00`, leave_time: `${day(6)} 12:00:00`, realname: '李资源' }),
  edit: { realname: '李资源改', companions: 3 },
  deniedWriter: 'tech',
  filters: { keyword: '李资源', status: 'Y', visit_day: [day(6), day(6)] },
});

describe('settings', () => {
  it('answers the defaults, saves, and refuses a lot of another community or reserving without a lot', async () => {
    const saved = await settings({ free_minutes: 90, daily_car_limit: 2 });
    expect(saved).toMatchObject({ reserve_car: 'Y', lot_id: lot, free_minutes: 90, daily_car_limit: 2 });
    expect(saved.lot_title).not.toBe('');
    const read = await s.call('visitorsetinfo', {}, guard);
    ok(read);
    expect(read.data.free_minutes).toBe(90);
    const otherLot = Number(
      (await s.database.db.selectFrom('parking_lots').select('id').where('rid', '=', 2).orderBy('id').executeTakeFirstOrThrow()).id,
    );
    refused(
      await s.call(
        'visitorsetedit',
        { review: 'N', push_face: 'N', reserve_car: 'Y', lot_id: otherLot, free_minutes: 120, daily_car_limit: 0 },
        admin,
      ),
      '所选停车场不存在',
    );
    const noLot = await s.call(
      'visitorsetedit',
      { review: 'N', push_face: 'N', reserve_car: 'Y', lot_id: '', free_minutes: 120, daily_car_limit: 0 },
      admin,
    );
    expect(noLot.return_code).toBe('FAIL');
    expect(noLot.return_msg).toContain('停车场');
    // the guard registers and checks but does not change the settings
    expect(
      (
        await s.call(
          'visitorsetedit',
          { review: 'Y', push_face: 'N', reserve_car: 'N', lot_id: '', free_minutes: 120, daily_car_limit: 0 },
          guard,
        )
      ).return_code,
    ).toBe('NO_PERMISSION');
    expect((await s.call('visitorsetinfo', {}, admin)).data.free_minutes).toBe(90);
  });
});

describe('registration', () => {
  it('without review: approved at once, with a pass code', async () => {
    await settings({ review: 'N' });
    const id = await register({}, guard);
    const v = await info(id);
    expect(v).toMatchObject({ status: 'Y', status_ch: '已通过', pass_uses: 0, pass_valid: true, car_status: '', creator: '周保安' });
    expect(v.pass_code).toMatch(/^[A-Z2-9]{12}$/);
  });

  it('with review: waits (no pass code shown, the scan is refused); approve makes it Y, refuse needs a reason and makes it 3', async () => {
    await settings({ review: 'Y' });
    const id = await register();
    const v = await info(id);
    expect(v).toMatchObject({ status: '', status_ch: '待审核', pass_code: '', pass_valid: false });
    const code = (await s.database.db.selectFrom('visitors').select('pass_code').where('id', '=', id).executeTakeFirstOrThrow()).pass_code;
    expect((await check(code, `${day()} 10:00:00`)).data).toMatchObject({ open: false, reason: '访客登记待审核，暂不能通行' });
    // the guard may not approve
    expect((await s.call('visitorapprove', { id, approve: true }, guard)).return_code).toBe('NO_PERMISSION');
    const approved = await s.call('visitorapprove', { id, approve: true, remark: '同意' }, admin);
    ok(approved);
    expect(approved.data).toMatchObject({ status: 'Y', review_remark: '同意' });
    expect(approved.data.pass_code).toBe(code);
    refused(await s.call('visitorapprove', { id, approve: false, remark: '重复' }, admin), '该访客登记已处理');

    const other = await register();
    const noReason = await s.call('visitorapprove', { id: other, approve: false, remark: '' }, admin);
    expect(noReason.return_code).toBe('FAIL');
    expect(noReason.return_msg).toContain('拒绝原因');
    const no = await s.call('visitorapprove', { id: other, approve: false, remark: '业主不认识此人' }, admin);
    ok(no);
    expect(no.data.status).toBe('3');
    const log = await s.call('visitorlog', { id: other }, guard);
    ok(log);
    expect(log.data.items.map((r: { transition: string }) => r.transition)).toEqual(['create', 'refuse']);
    await settings({ review: 'N' });
  });

  it('refuses bad payloads with a clear message and writes nothing', async () => {
    const before = (await s.call('visitorlist', { limit: 1 }, admin)).data.total;
    const bad = async (extra: Record<string, unknown>, msg: RegExp) => {
      const res = await s.call('visitoradd', sample(extra), admin);
      expect(res.return_code).toBe('FAIL');
      expect(res.return_msg).toMatch(msg);
    };
    await bad({ realname: '' }, /访客姓名/);
    await bad({ mobile: '123' }, /手机号/);
    await bad({ carlicense: 'ABC' }, /车牌/);
    await bad({ leave_time: `${day()} 09:00:00` }, /离开时间须晚于来访时间/);
    await bad({ visit_time: `${day()} 10:00:00`, leave_time: `${day(15)} 10:00:00` }, /不能超过7天/);
    await bad({ visit_time: `${day(-3)} 08:00:00`, leave_time: `${day(-3)} 09:00:00` }, /离开时间已过/);
    await bad({ visit_cause: '不存在的事由' }, /来访事由不存在/);
    await bad({ visit_time: '2026-13-01 10:00:00' }, /时间/);
    await bad({ photo: 'http://evil.example/x.png' }, /图片地址无效/);
    await bad({ member_id: homes[0]![1], hid: homes[30]![0] }, /被访业主必须是该访问房屋的在住住户/);
    expect((await s.call('visitorlist', { limit: 1 }, admin)).data.total).toBe(before);
  });

  it("answers 不存在 for another community's visitor and refuses its room", async () => {
    const id = await register();
    refused(await s.call('visitorinfo', { id }, admin2), '访客不存在');
    refused(await s.call('visitorcancel', { id }, admin2), '访客登记不存在');
    refused(await s.call('visitorrevoke', { id }, admin2), '访客不存在');
    refused(await s.call('visitorapprove', { id, approve: true }, admin2), '访客登记不存在');
    const [hid2, member2] = (await lived(2, 1))[0]!;
    refused(await s.call('visitoradd', sample({ hid: hid2, member_id: member2 }), admin), /所选访问房屋不存在或不属于当前小区/);
    // a device of another community is not this community's
    const code = (await info(id)).pass_code as string;
    refused(await check(code, `${day()} 10:00:00`, door2), '门禁设备不存在');
    expect((await info(id)).pass_uses).toBe(0);
  });

  it('refuses roles without access to visitors', async () => {
    expect((await s.call('visitorlist', { limit: 10 }, parking)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('visitoradd', sample(), parking)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('visitorpasscheck', { device_id: door, code: 'X' }, parking)).return_code).toBe('NO_PERMISSION');
  });
});

describe('the pass code', () => {
  it('opens from 30 minutes before the visit to its leave time, twice, marks the visit D and logs each scan', async () => {
    const id = await register();
    const code = (await info(id)).pass_code as string;
    const early = (await check(code, `${day()} 09:29:00`)).data;
    expect(early).toMatchObject({ open: false });
    expect(early.reason).toContain('未到通行时间');
    const first = await check(code.toLowerCase(), `${day()} 09:31:00`);
    ok(first);
    expect(first.data).toMatchObject({ open: true, reason: '欢迎光临', uses: 1, visitor_id: id });
    expect((await info(id)).status).toBe('D');
    expect((await check(code, `${day()} 13:00:00`)).data).toMatchObject({ open: true, reason: '一路顺风', uses: 2 });
    const third = (await check(code, `${day()} 13:10:00`)).data;
    expect(third).toMatchObject({ open: false, uses: 2 });
    expect(third.reason).toBe('通行码已使用2次，不能再次使用');
    const passes = await s.database.db
      .selectFrom('access_passes')
      .select(['method', 'result', 'person_name', 'device_id'])
      .where('rid', '=', 1)
      .where('visitor_id', '=', id)
      .orderBy('id')
      .execute();
    expect(passes.map((p) => p.result)).toEqual(['refused', 'open', 'open', 'refused']);
    expect(passes.every((p) => p.method === 'qr' && p.person_name === '王访客' && Number(p.device_id) === door)).toBe(true);
    expect((await info(id)).pass_valid).toBe(false);
    // the drawer's visitor tab shows it with the spec's columns
    const drawer = await s.call('visitorapplylist', { page: 1, limit: 50, rid: 1, hid: (await info(id)).hid, sort: 'desc' }, admin);
    ok(drawer);
    expect(drawer.data.items.find((r: { id: number }) => r.id === id)).toMatchObject({
      realname: '王访客',
      status: 'D',
      status_ch: '已到访',
    });
  });

  it('refuses after the leave time, an unknown code, a revoked or cancelled pass', async () => {
    const id = await register();
    const code = (await info(id)).pass_code as string;
    expect((await check(code, `${day()} 14:00:01`)).data.reason).toContain('通行码已过期');
    expect((await check('NOSUCHCODE00', `${day()} 10:00:00`)).data).toMatchObject({ open: false, reason: '通行码无效', visitor_id: null });
    const revoked = await s.call('visitorrevoke', { id, remark: '业主取消' }, guard);
    ok(revoked);
    expect(revoked.data).toMatchObject({ pass_revoked: 'Y', pass_code: '', pass_valid: false });
    expect((await check(code, `${day()} 10:00:00`)).data).toMatchObject({ open: false, reason: '通行码已作废' });
    refused(await s.call('visitorrevoke', { id }, guard), '该通行码已作废');

    const other = await register();
    const otherCode = (await info(other)).pass_code as string;
    ok(await s.call('visitorcancel', { id: other, remark: '改天再来' }, guard));
    expect((await info(other)).status).toBe('C');
    expect((await check(otherCode, `${day()} 10:00:00`)).data).toMatchObject({ open: false, reason: '访客已取消' });
    refused(await s.call('visitoredit', { ...sample(), id: other }, guard), '该访客已取消，不能修改');
    refused(await s.call('visitorpasscheck', { device_id: 2_000_000_000, code: otherCode }, guard), '门禁设备不存在');
    const blank = await s.call('visitorpasscheck', { device_id: door, code: '' }, guard);
    expect(blank.return_code).toBe('FAIL');
    expect(blank.return_msg).toContain('通行码');
  });
});

describe("a visitor's car", () => {
  const spaceState = async (spaceTitle: string) =>
    (
      await s.database.db
        .selectFrom('parking_spaces')
        .select('status')
        .where('rid', '=', 1)
        .where('lot_id', '=', lot)
        .where('title', '=', spaceTitle)
        .executeTakeFirstOrThrow()
    ).status;
  const white = (plate: string) =>
    s.database.db
      .selectFrom('parking_lists')
      .selectAll()
      .where('rid', '=', 1)
      .where('lot_id', '=', lot)
      .where('carlicense', '=', plate)
      .executeTakeFirst();

  it('reserves a space and white-lists the plate; the release at the end of the free time frees both (simulated clock)', async () => {
    await settings({ review: 'N', reserve_car: 'Y', free_minutes: 120, daily_car_limit: 0 });
    const id = await register({ carlicense: '沪A9V001' });
    const v = await info(id);
    expect(v).toMatchObject({ car_status: 'R', car_status_ch: '已预留', lot_id: lot, free_until: `${day()} 12:00:00` });
    expect(v.space_title).not.toBe('');
    expect(await spaceState(v.space_title)).toBe('idle');
    const entry = await white('沪A9V001');
    expect(entry).toMatchObject({ kind: 'W', start_date: day(), end_date: day() });
    // the gate's decision reads the list: the plate enters as a white-listed car
    // a second visit cannot take the same space
    const other = await register({ carlicense: '沪A9V002' });
    expect((await info(other)).space_title).not.toBe(v.space_title);

    // before the free time ends nothing is released
    const early = await s.call('visitorcarrelease', { time: `${day()} 11:59:00` }, guard);
    ok(early);
    expect((await info(id)).car_status).toBe('R');
    const due = await s.call('visitorcarrelease', { time: `${day()} 12:00:30` }, guard);
    ok(due);
    expect(due.data.released).toBeGreaterThanOrEqual(2);
    const after = await info(id);
    expect(after).toMatchObject({ car_status: 'E', car_status_ch: '已到期', space_title: v.space_title });
    expect(await white('沪A9V001')).toBeUndefined();
    const held = await s.database.db.selectFrom('visitors').select('space_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(held.space_id).toBeNull();
    expect(await spaceState(v.space_title)).toBe('idle');
  });

  it('the job ends a hold whose free time is over', async () => {
    const id = await register({ carlicense: '沪A9V003' });
    expect((await info(id)).car_status).toBe('R');
    // the free time ended: the clock moved past it
    await sql`UPDATE visitors SET free_until = now() - interval '1 minute' WHERE id = ${id}`.execute(s.database.db);
    await enqueueJob(s.database.db, { rid: null, kind: VISITOR_CAR_RELEASE, payload: {}, createdBy: null });
    await s.runJobs();
    expect((await info(id)).car_status).toBe('E');
    expect(await white('沪A9V003')).toBeUndefined();
  });

  it('cancel and revoke release the space and the list at once; review keeps the car waiting', async () => {
    const id = await register({ carlicense: '沪A9V004' });
    expect((await info(id)).car_status).toBe('R');
    ok(await s.call('visitorcancel', { id }, admin));
    expect((await info(id)).car_status).toBe('X');
    expect(await white('沪A9V004')).toBeUndefined();

    const r = await register({ carlicense: '沪A9V005' });
    ok(await s.call('visitorrevoke', { id: r }, admin));
    expect((await info(r)).car_status).toBe('X');
    expect(await white('沪A9V005')).toBeUndefined();

    await settings({ review: 'Y' });
    const w = await register({ carlicense: '沪A9V006' });
    expect((await info(w)).car_status).toBe('P');
    expect(await white('沪A9V006')).toBeUndefined();
    ok(await s.call('visitorapprove', { id: w, approve: true }, admin));
    expect((await info(w)).car_status).toBe('R');
    expect(await white('沪A9V006')).toBeDefined();
    await settings({ review: 'N' });
  });

  it('without the reserve setting the car is registered but holds nothing', async () => {
    await settings({ reserve_car: 'N', lot_id: '' });
    const id = await register({ carlicense: '沪A9V007' });
    expect((await info(id)).car_status).toBe('N');
    expect((await info(id)).car_remark).toBe('未开启访客车位预留');
    expect(await white('沪A9V007')).toBeUndefined();
    await settings({});
  });

  it("enforces the owner's daily limit of visitor cars with a clear message; cancelled ones do not count", async () => {
    await settings({ daily_car_limit: 2 });
    const [hid, member_id] = homes[3]!;
    const on = (plate: string, extra: Record<string, unknown> = {}) =>
      s.call(
        'visitoradd',
        sample({ hid, member_id, carlicense: plate, visit_time: `${day(4)} 10:00:00`, leave_time: `${day(4)} 11:00:00`, ...extra }),
        admin,
      );
    ok(await on('沪B9L001'));
    const second = await on('沪B9L002');
    ok(second);
    const third = await on('沪B9L003');
    refused(third, `该业主 ${day(4)} 已登记 2 辆访客车辆，已达每日上限（2 辆），不能再登记车辆`);
    // without a car the visitor registers
    ok(await on(''));
    // another day is another count
    ok(await on('沪B9L003', { visit_time: `${day(3)} 10:00:00`, leave_time: `${day(3)} 11:00:00` }));
    ok(await s.call('visitorcancel', { id: second.data.id }, admin));
    ok(await on('沪B9L004'));
    await settings({ daily_car_limit: 0 });
  });
});

describe('the list', () => {
  it('filters 待审核 (sent as pending), the car status and the keyword on the plate', async () => {
    const pending = await s.call('visitorlist', { limit: 50, status: 'pending' }, admin);
    ok(pending);
    expect(pending.data.total).toBeGreaterThan(0);
    expect(pending.data.items.every((r: { status: string }) => r.status === '')).toBe(true);
    const cars = await s.call('visitorlist', { limit: 50, car_status: 'R' }, admin);
    expect(cars.data.items.every((r: { car_status: string }) => r.car_status === 'R')).toBe(true);
    const plate = await s.call('visitorlist', { limit: 50, keyword: '9V00' }, admin);
    expect(plate.data.items.length).toBeGreaterThan(0);
    expect(plate.data.items.every((r: { carlicense: string }) => r.carlicense.includes('9V00'))).toBe(true);
  });

  it("answers today's figures and exports the list", async () => {
    const t = await s.call('visitor_today', {}, guard);
    ok(t);
    expect(t.data.expected).toBeGreaterThan(0);
    const file = await s.exportFile('visitorexport', { keyword: '王访客' }, admin);
    ok(file);
    expect(file.data.filename).toMatch(/^访客列表_/);
  });
});

describe("the visitor's face on the doors (setting 人脸下发)", () => {
  const PHOTO = '/files/1/0123456789abcdef0123456789abcdef.jpg';
  const faceGrant = (visitorId: number) =>
    s.database.db.selectFrom('access_grants').selectAll().where('rid', '=', 1).where('visitor_id', '=', visitorId).executeTakeFirst();
  let at = { hid: 0, member_id: 0 };
  let region = 0;

  beforeAll(async () => {
    const db = s.database.db;
    // a room of a unit with its door region (the demo's unit door with the community gates)
    const r = await db
      .selectFrom('access_regions')
      .select(['id', 'tid'])
      .where('rid', '=', 1)
      .where('auto', '=', 'Y')
      .where('enabled', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    region = Number(r.id);
    const home = await db
      .selectFrom('room_members as rm')
      .innerJoin('rooms as h', (j) => j.onRef('h.rid', '=', 'rm.rid').onRef('h.id', '=', 'rm.hid'))
      .select(['rm.hid', 'rm.member_id'])
      .where('rm.rid', '=', 1)
      .where('rm.status', '=', 'Y')
      .where('h.tid', '=', r.tid)
      .orderBy('rm.id')
      .executeTakeFirstOrThrow();
    at = { hid: Number(home.hid), member_id: Number(home.member_id) };
  });
  afterAll(() => settings({ push_face: 'N' }));

  it('pushes an approved visit with a photo to its unit region as a visitor grant; not when off or without a photo', async () => {
    await settings({ push_face: 'N' });
    expect(await faceGrant(await register({ ...at, photo: PHOTO, realname: '赵人脸' }))).toBeUndefined();
    await settings({ push_face: 'Y' });
    expect(await faceGrant(await register({ ...at, realname: '孙无照' }))).toBeUndefined();
    const id = await register({ ...at, photo: PHOTO, realname: '钱人脸' });
    const g = (await faceGrant(id))!;
    expect(g).toMatchObject({ person_kind: 'visitor', person_name: '钱人脸', face_image: PHOTO, hid: at.hid, revoked_at: null });
    // from 30 minutes before the visit to its leave time
    expect(g.door_start_time!.getTime()).toBe(new Date(`${day()}T09:30:00+08:00`).getTime());
    expect(g.door_end_time!.getTime()).toBe(new Date(`${day()}T14:00:00+08:00`).getTime());
    const listed = await s.call('accessgrantlist', { person_kind: 'visitor', keyword: '钱人脸' }, admin);
    ok(listed);
    expect(listed.data.items).toHaveLength(1);
    expect(listed.data.items[0]).toMatchObject({ person_kind_ch: '访客', region_ids: [region] });
    expect(['P', 'Y', 'N']).toContain(listed.data.items[0].status);
    const commands = await s.database.db
      .selectFrom('device_commands')
      .select('kind')
      .where('rid', '=', 1)
      .where('subject', '=', `grant:${g.id}`)
      .execute();
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.every((c) => c.kind === 'person_add')).toBe(true);
    // the grant pages leave it to the visit
    refused(
      await s.call(
        'accessgrantedit',
        { id: Number(g.id), region_ids: [region], door_start_time: day(), door_end_time: day(), face_image: PHOTO },
        admin,
      ),
      '访客的人脸授权随访客登记变化，请在访客管理中修改',
    );
    // a new photo is pushed again; a cancel revokes it and the doors are told to delete it
    const NEW = '/files/1/fedcba9876543210fedcba9876543210.jpg';
    ok(await s.call('visitoredit', { id, ...sample({ ...at, photo: NEW, realname: '钱人脸' }) }, admin));
    expect((await faceGrant(id))!.face_image).toBe(NEW);
    ok(await s.call('visitorcancel', { id, remark: '不来了' }, admin));
    expect(await faceGrant(id)).toMatchObject({ revoked_at: expect.any(Date), reason: '访客已取消', status: '' });
  });

  it('waits for the review when review is on; a refused visit pushes nothing', async () => {
    await settings({ push_face: 'Y', review: 'Y' });
    const id = await register({ ...at, photo: PHOTO, realname: '吴待审' });
    expect(await faceGrant(id)).toBeUndefined();
    ok(await s.call('visitorapprove', { id, approve: true }, admin));
    expect(await faceGrant(id)).toMatchObject({ person_kind: 'visitor', revoked_at: null });
    const refusedVisit = await register({ ...at, photo: PHOTO, realname: '郑拒绝' });
    ok(await s.call('visitorapprove', { id: refusedVisit, approve: false, remark: '业主不认识' }, admin));
    expect(await faceGrant(refusedVisit)).toBeUndefined();
    await settings({ push_face: 'Y', review: 'N' });
  });

  it('the job revokes the face of a visit that has ended', async () => {
    await settings({ push_face: 'Y' });
    const id = await register({ ...at, photo: PHOTO, realname: '冯结束' });
    expect((await faceGrant(id))!.revoked_at).toBeNull();
    await sql`UPDATE visitors SET visit_time = now() - interval '3 hours', leave_time = now() - interval '1 minute' WHERE id = ${id}`.execute(
      s.database.db,
    );
    await enqueueJob(s.database.db, { rid: null, kind: VISITOR_CAR_RELEASE, payload: {}, createdBy: null });
    await s.runJobs();
    expect(await faceGrant(id)).toMatchObject({ revoked_at: expect.any(Date), reason: '来访已结束' });
  });
});
