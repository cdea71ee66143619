import { RC, accessDevice, accessRegion } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatSimulators, runDeviceQueue, setSimulatorAckDelay } from '../../devices/access.js';
import { ok, refused } from '../../test/answers.js';
import { countUpTo } from '../../lib/paging.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

type Row = Record<string, unknown>;

let s: TestServer;
let access: string;
let admin: string;
let admin2: string;
let parking: string;
let bid: number;
let tid: number;
let hid: number;
let memberId: number;
let linkId: number;
let gate: number;
let door: number;
let region: number;

const db = () => s.database.db;
const PHOTO = '/files/1/0123456789abcdef0123456789abcdef.jpg';
/** The queue at a clock `seconds` from now (the simulator answers at once: delay 0). */
const queue = (seconds = 0) => runDeviceQueue(db(), new Date(Date.now() + seconds * 1000));
async function settle(seconds = 0) {
  // send, then the simulator's answers
  await queue(seconds);
  await queue(seconds);
}

beforeAll(async () => {
  setSimulatorAckDelay(0);
  s = await startTestServer();
  [access, admin, admin2, parking] = await s.logins('access', 'admin', 'admin2', 'parking');
  const owner = await db()
    .selectFrom('room_members as rm')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
    .select(['rm.id', 'rm.hid', 'rm.member_id', 'r.bid', 'r.tid'])
    .where('rm.rid', '=', 1)
    .where('rm.status', '=', 'Y')
    .where('rm.relation', '=', 'owner')
    .orderBy('rm.id')
    .executeTakeFirstOrThrow();
  [linkId, hid, memberId, bid, tid] = [owner.id, owner.hid, owner.member_id, owner.bid, owner.tid].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
});
afterAll(() => s.close());

describeResource(accessDevice, {
  server: () => s,
  writer: 'access',
  deniedWriter: 'parking',
  // switched off: an enabled community gate joins every unit's region and takes its grants
  sample: { code: 'RT-01', title: '资源测试门禁', location: 'community', direction: 'both', vendor: 'simulator', enabled: 'N' },
  edit: { title: '资源测试门禁（改）' },
  filters: { code: 'RT-01', title: '资源测试门禁', direction: 'both', location: 'community', enabled: 'N' },
  unique: ['code'],
});

describeResource(accessRegion, {
  server: () => s,
  writer: 'access',
  deniedWriter: 'parking',
  sample: { title: '资源测试区域', scope: 'community', weekdays: '12345', windows: '06:00-12:00,14:00-22:00' },
  edit: { title: '资源测试区域（改）' },
  filters: { title: '资源测试区域', scope: 'community', enabled: 'Y' },
  unique: ['title'],
});

describe('devices', () => {
  it('adds a community gate and a unit door; a unit door gets its unit region with the gates', async () => {
    gate = ok(await s.call('accessdeviceadd', { code: 'T-GATE', title: '测试大门', location: 'community', direction: 'both' }, access)).id;
    door = ok(
      await s.call(
        'accessdeviceadd',
        { code: 'T-DOOR', title: '测试单元门', location: 'unit', bid, tid, ip: '10.0.0.8', mac: 'AA:BB:CC:DD:EE:01' },
        access,
      ),
    ).id;
    const regions = ok(await s.call('accessregionlist', { limit: 200 }, access)).items;
    const auto = regions.find((r: Row) => r.tid === tid && r.auto === 'Y');
    expect(auto).toBeDefined();
    expect(auto!.device_ids).toEqual(expect.arrayContaining([gate, door]));
    expect(auto!.device_titles).toContain('测试单元门');
    // the grants below use a region of these two devices alone (the demo's gates are offline)
    region = ok(await s.call('accessregionadd', { title: '测试区域', scope: 'unit', bid, tid, device_ids: [gate, door] }, access)).id;
    refused(
      await s.call('accessregionadd', { title: '测试区域2', scope: 'community', device_ids: [999999] }, access),
      '所选门禁设备不存在',
    );
    refused(await s.call('accessregionadd', { title: '测试区域3', scope: 'community', windows: '12:00-08:00' }, access), /时段格式/);
  });

  it('refuses bad places, bad addresses and other communities', async () => {
    refused(await s.call('accessdeviceadd', { code: 'T-X', title: 'x', location: 'unit', bid }, access), '请选择单元');
    refused(
      await s.call('accessdeviceadd', { code: 'T-X', title: 'x', location: 'community', ip: '300.1.1.1' }, access),
      'IP 地址格式不正确',
    );
    refused(await s.call('accessdeviceadd', { code: 'T-X', title: 'x', location: 'building', bid: 999999 }, access), '所选楼栋不存在');
    refused(await s.call('accessdeviceinfo', { id: door }, admin2), '门禁设备不存在');
    refused(await s.call('accessdeviceopen', { id: door }, admin2), '门禁设备不存在');
    expect((await s.call('accessdevicelist', {}, parking)).return_code).toBe(RC.NO_PERMISSION);
  });

  it('goes online with a heartbeat; open and restart go through the queue and their answers show', async () => {
    // a simulated terminal beats as it is added; ten minutes without a beat, it is offline
    expect(ok(await s.call('accessdevicelist', { code: 'T-DOOR' }, access)).items[0].online).toBe('Y');
    await db()
      .updateTable('devices')
      .set({ last_heartbeat: new Date(Date.now() - 600_000) })
      .where('rid', '=', 1)
      .where('id', 'in', [door, gate])
      .execute();
    refused(await s.call('accessdeviceopen', { id: door }, access), '设备离线，无法下发指令');
    // the home card counts them offline, and its link's filter lists them
    const offlineNow = ok(await s.call('accessdevicelist', { online: 'N', limit: 100 }, access));
    expect(offlineNow.items.map((d: Row) => d.id)).toEqual(expect.arrayContaining([door, gate]));
    expect(offlineNow.items.every((d: Row) => d.online === 'N')).toBe(true);
    const onlineNow = ok(await s.call('accessdevicelist', { online: 'Y', limit: 100 }, access)).items;
    expect(onlineNow.every((d: Row) => d.online === 'Y')).toBe(true);
    const card = ok(await s.call('accessdashboard', {}, access));
    const enabled = await db()
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rid', '=', 1)
      .where('family', '=', 'door')
      .where('enabled', '=', 'Y')
      .executeTakeFirstOrThrow();
    expect(card.total).toBe(Number(enabled.n));
    expect(card.offline).toBe(offlineNow.items.filter((d: Row) => d.enabled === 'Y').length);
    const visitors = ok(await s.call('visitor_today', {}, access));
    expect(card).toMatchObject({ expected: visitors.expected, arrived: visitors.arrived });
    refused(await s.call('accessdevicelist', { online: 'X' }, access), '在线取值不正确');
    // the guards see the card too; the parking staff do not
    ok(await s.call('accessdashboard', {}, await s.login('guard')));
    expect((await s.call('accessdashboard', {}, parking)).return_code).toBe(RC.NO_PERMISSION);
    expect(ok(await s.call('accessdeviceheartbeat', { code: 'T-DOOR' }, access))).toMatchObject({ device_id: door, online: 'Y' });
    ok(await s.call('accessdeviceheartbeat', { code: 'T-GATE' }, access));
    refused(await s.call('accessdeviceheartbeat', { code: 'NOPE' }, access), '设备不存在');
    const listed = ok(await s.call('accessdevicelist', { code: 'T-DOOR' }, access)).items[0]!;
    expect(listed).toMatchObject({ online: 'Y', online_ch: '在线', location: 'unit', place: expect.stringContaining('/') });
    const open = ok(await s.call('accessdeviceopen', { id: door }, access)).command_id;
    ok(await s.call('accessdevicerestart', { id: door }, access));
    let cmds = ok(await s.call('accesscommandlist', { device_id: door }, access)).items;
    expect(cmds.find((c: Row) => c.id === open)).toMatchObject({ state: 'pending', kind: 'open' });
    await settle();
    cmds = ok(await s.call('accesscommandlist', { device_id: door }, access)).items;
    expect(cmds.filter((c: Row) => c.kind === 'open' || c.kind === 'restart').map((c: Row) => c.state)).toEqual(['done', 'done']);
    const passes = ok(await s.call('accesspasslist', { device_id: door, mode: 'remote' }, access)).items;
    expect(passes).toHaveLength(1);
  });
});

describe('grants', () => {
  let grant: number;
  let other: number;

  it('adds a grant waiting for review, checks the person and the credentials', async () => {
    const base = {
      person_kind: 'owner',
      hid,
      member_id: memberId,
      region_ids: [region],
      door_start_time: '2020-01-01',
      door_end_time: '2099-12-31',
    };
    refused(await s.call('accessgrantadd', { ...base }, access), '请至少提供人脸照片、卡号或二维码之一');
    refused(await s.call('accessgrantadd', { ...base, face_image: 'http://x/a.jpg' }, access), '图片地址无效，请重新上传');
    refused(await s.call('accessgrantadd', { ...base, face_image: PHOTO, member_id: 999999 }, access), '人员必须是该房屋的在住住户');
    refused(await s.call('accessgrantadd', { ...base, face_image: PHOTO, region_ids: [999999] }, access), '所选门禁区域不存在');
    refused(
      await s.call('accessgrantadd', { ...base, face_image: PHOTO, door_end_time: '2019-01-01' }, access),
      '结束日期不能早于开始日期',
    );
    refused(
      await s.call('accessgrantadd', { ...base, person_kind: 'staff', hid: undefined, member_id: undefined, face_image: PHOTO }, access),
      '请填写姓名',
    );
    grant = ok(await s.call('accessgrantadd', { ...base, face_image: PHOTO, card_no: 'C1001' }, access)).id;
    refused(
      await s.call('accessgrantadd', { ...base, person_kind: 'staff', person_name: '保洁王', card_no: 'C1001' }, access),
      /卡号 C1001 已授权给/,
    );
    other = ok(await s.call('accessgrantadd', { ...base, person_kind: 'staff', person_name: '保洁王', card_no: 'C2002' }, access)).id;
    const g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g).toMatchObject({ status: 'W', status_ch: '待审核', person_kind: 'owner', hid, region_ids: [region] });
    const todo = await db()
      .selectFrom('backlog')
      .select(['status', 'link'])
      .where('rid', '=', 1)
      .where('kind', '=', 'accessgrant')
      .where('source_id', '=', String(grant))
      .executeTakeFirstOrThrow();
    expect(todo).toMatchObject({ status: 'E', link: `/carpark/currentexamine_info?id=${grant}` });
    expect(g.log.map((l: Row) => l.transition)).toEqual(['create']);
    refused(await s.call('accessgrantinfo', { id: grant }, admin2), '门禁授权不存在');
    refused(await s.call('accessgrantapprove', { id: grant, approve: true }, admin2), '门禁授权不存在');
  });

  it('refuses a reject without a reason, rejects with one', async () => {
    refused(await s.call('accessgrantapprove', { id: other, approve: false, reason: ' ' }, access), '请填写驳回原因');
    const r = ok(await s.call('accessgrantapprove', { id: other, approve: false, reason: '照片模糊' }, access));
    expect(r).toMatchObject({ status: 'N', reason: '照片模糊' });
    refused(await s.call('accessgrantapprove', { id: other, approve: true }, access), '该门禁授权已处理');
  });

  it('approved: P, then Y on every online device; an offline device fails and completes when it returns', async () => {
    // the unit door goes offline (the simulator stops answering)
    ok(await s.call('accesssimset', { device_id: door, offline: 'Y' }, access));
    const approved = ok(await s.call('accessgrantapprove', { id: grant, approve: true, reason: '' }, access));
    expect(approved.status).toBe('P');
    await settle();
    let g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g.status).toBe('N');
    expect(g.devices.find((d: Row) => d.device_id === gate)).toMatchObject({ state: 'held' });
    expect(g.devices.find((d: Row) => d.device_id === door)).toMatchObject({ state: 'failed', last_error: '设备无响应' });
    // the review's to-do done; the door's one to-do counts the grants failing on it
    const todo = () =>
      db()
        .selectFrom('backlog')
        .select(['kind', 'status', 'title'])
        .where('rid', '=', 1)
        .where((eb) =>
          eb.or([
            eb.and([eb('kind', '=', 'accessgrant'), eb('source_id', '=', String(grant))]),
            eb.and([eb('kind', '=', 'accesssync'), eb('source_id', '=', String(door))]),
          ]),
        )
        .orderBy('kind')
        .execute();
    const [review, sync] = await todo();
    expect(review).toMatchObject({ kind: 'accessgrant', status: 'Y' });
    expect(sync).toMatchObject({ kind: 'accesssync', status: 'E' });
    expect(sync!.title).toMatch(/^门禁下发失败：.+（\d+ 人）$/);
    const grid = ok(await s.call('accesssynclist', { state: 'failed', limit: 200 }, access));
    expect(grid.items.map((i: Row) => i.grant_id)).toContain(grant);
    // before the backoff nothing is tried again; the device's return pushes at once
    await settle(5);
    g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g.devices.find((d: Row) => d.device_id === door)).toMatchObject({ state: 'failed' });
    ok(await s.call('accesssimset', { device_id: door, offline: 'N' }, access));
    await settle();
    g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g.status).toBe('Y');
    expect(g.devices.every((d: Row) => d.state === 'held')).toBe(true);
    expect((await todo()).map((t) => t.status)).toEqual(['Y', 'Y']);
    const sim = ok(await s.call('accesssiminfo', { device_id: door }, access));
    expect(sim.persons.map((p: Row) => p.subject)).toContain(`grant:${grant}`);
  });

  it('finds a grant by a part of the name, of the mobile or of the room’s address, in the list and in the sync grid', async () => {
    const g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    const address = String(g.address);
    // the page shows the mobile masked: the whole number is the grant's own
    const { mobile } = await db()
      .selectFrom('access_grants')
      .select('mobile')
      .where('rid', '=', 1)
      .where('id', '=', grant)
      .executeTakeFirstOrThrow();
    expect(address).toMatch(/^.+号楼.+单元.+$/);
    const found = async (method: 'accessgrantlist' | 'accesssynclist', keyword: string) =>
      ok(await s.call(method, { keyword, limit: 200 }, access)).items.map((i: Row) => i.id ?? i.grant_id);
    // the whole address, one across the building and the unit, one across the unit and the room, a name's part, a mobile's middle
    expect(mobile).toMatch(/^1\d{10}$/);
    const unitEnd = address.indexOf('单元') + 2;
    for (const keyword of [
      address,
      address.slice(1, unitEnd - 1),
      address.slice(unitEnd - 3, unitEnd + 2),
      String(g.person_name).slice(1),
      mobile.slice(3, 8),
    ]) {
      expect(await found('accessgrantlist', keyword), keyword).toContain(grant);
      expect(await found('accesssynclist', keyword), keyword).toContain(grant);
    }
    expect(await found('accessgrantlist', '9号楼9单元9909')).toEqual([]);
    expect(await found('accesssynclist', '%')).toEqual([]);
  });

  it('retries a refused photo with a backoff, and "retry all failed" at once', async () => {
    ok(await s.call('accesssimset', { device_id: gate, reject_photos: 'Y' }, access));
    const PHOTO2 = '/files/2/fedcba9876543210fedcba9876543210.png';
    const edited = ok(
      await s.call(
        'accessgrantedit',
        {
          id: grant,
          region_ids: [region],
          door_start_time: '2020-01-01',
          door_end_time: '2099-12-31',
          face_image: PHOTO2,
          card_no: 'C1001',
          qr_code: '',
          person_name: '',
          mobile: '',
        },
        access,
      ),
    );
    expect(edited.status).toBe('W');
    await settle();
    ok(await s.call('accessgrantapprove', { id: grant, approve: true, reason: '' }, access));
    await settle();
    let g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g.devices.find((d: Row) => d.device_id === gate)).toMatchObject({ state: 'failed', last_error: '照片不合格：未检测到人脸' });
    expect(g.status).toBe('N');
    ok(await s.call('accesssimset', { device_id: gate, reject_photos: 'N' }, access));
    await settle(10);
    expect(ok(await s.call('accessgrantinfo', { id: grant }, access)).status).toBe('N');
    // 30 s later the retry goes by itself
    await settle(31);
    g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g.status).toBe('Y');
    const r = ok(await s.call('accesssyncretry', { grant_id: grant }, access));
    expect(r.retried).toBe(0);
    refused(await s.call('accesssyncretry', { grant_id: grant }, admin2), '门禁授权不存在');
  });

  it('a change of validity alone is pushed at once without review', async () => {
    const e = ok(
      await s.call(
        'accessgrantedit',
        {
          id: grant,
          region_ids: [region],
          door_start_time: '2020-01-01',
          door_end_time: '2098-12-31',
          face_image: '/files/2/fedcba9876543210fedcba9876543210.png',
          card_no: 'C1001',
          qr_code: '',
          person_name: '',
          mobile: '',
        },
        access,
      ),
    );
    expect(e.status).toBe('P');
    await settle();
    expect(ok(await s.call('accessgrantinfo', { id: grant }, access)).status).toBe('Y');
  });

  it('simulates passes: the person held opens, an unknown face is refused; both logged', async () => {
    const pass = ok(await s.call('accesssimpass', { device_id: door, grant_id: grant, mode: 'face' }, access));
    expect(pass.result).toBe('open');
    const card = ok(await s.call('accesssimpass', { device_id: door, grant_id: grant, mode: 'card' }, access));
    expect(card.result).toBe('open');
    const unknown = ok(await s.call('accesssimpass', { device_id: door, mode: 'face' }, access));
    expect(unknown).toMatchObject({ result: 'refused', reason: '陌生人脸，未识别' });
    const rows = ok(await s.call('accesspasslist', { device_id: door, mode: 'face', sort: 'desc' }, access)).items;
    expect(rows.slice(0, 2).map((p: Row) => p.result)).toEqual(['refused', 'open']);
    // a search by name takes a range of at most 31 days; the total is counted up to a cap
    refused(await s.call('accesspasslist', { keyword: '陈' }, access), '按人员查询时，请选择不超过 31 天的日期范围');
    refused(
      await s.call('accesspasslist', { keyword: '陈', start_date: '2026-01-01', end_date: '2026-03-01' }, access),
      '按人员查询时，请选择不超过 31 天的日期范围',
    );
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const named = ok(await s.call('accesspasslist', { keyword: rows[1].person_name, start_date: day, end_date: day }, access));
    expect(named.items.length).toBeGreaterThan(0);
    expect(named.more).toBe(false);
    const all = ok(await s.call('accesspasslist', { limit: 10 }, access));
    expect(all.total).toBeGreaterThan(3);
    expect(await countUpTo(db(), db().selectFrom('access_passes').where('rid', '=', 1), 3)).toEqual({ total: 3, more: true });
    expect(await countUpTo(db(), db().selectFrom('access_passes').where('rid', '=', 1), 1_000_000)).toEqual({
      total: all.total,
      more: false,
    });
    // the owner drawer's 门禁通行 tab: the room's passes with how they were made and what the door did
    const drawer = ok(await s.call('housecurrentlist', { rid: 1, hid, page: 1, limit: 10, sort: 'desc' }, admin));
    expect(drawer.items.slice(0, 2)).toEqual([
      expect.objectContaining({ method: 'card', method_ch: '刷卡', result: 'open', realname: expect.any(String) }),
      expect.objectContaining({ method: 'face', method_ch: '人脸', result: 'open' }),
    ]);
    expect(drawer.items[0].realname).not.toBe('');
  });

  it('refuses deleting a region or a device with grants', async () => {
    refused(await s.call('accessregiondel', { id: region }, access), /该门禁区域下还有 \d+ 个授权/);
    refused(await s.call('accessdevicedel', { id: gate }, access), /该设备上还有.*授权/);
    refused(await s.call('accessdevicedel', { id: door }, access), /该设备/);
  });

  it('moving the owner out revokes the grant on every device', async () => {
    ok(await s.call('membermoveout', { id: linkId }, admin));
    let g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g).toMatchObject({ revoked: 'Y', status_ch: '已注销', reason: '迁出注销' });
    expect(g.devices.every((d: Row) => d.state === 'deleting')).toBe(true);
    await settle();
    g = ok(await s.call('accessgrantinfo', { id: grant }, access));
    expect(g.devices).toEqual([]);
    const sim = ok(await s.call('accesssiminfo', { device_id: door }, access));
    expect(sim.persons.map((p: Row) => p.subject)).not.toContain(`grant:${grant}`);
    const pass = ok(await s.call('accesssimpass', { device_id: door, grant_id: grant, mode: 'face' }, access));
    expect(pass).toMatchObject({ result: 'refused', reason: '设备中无此人脸' });
  });

  it('simulators beat their hearts unless offline', async () => {
    ok(await s.call('accesssimset', { device_id: gate, offline: 'Y' }, access));
    const before = await db()
      .selectFrom('devices')
      .select('last_heartbeat')
      .where('rid', '=', 1)
      .where('id', '=', gate)
      .executeTakeFirstOrThrow();
    await beatSimulators(db(), new Date(Date.now() + 60_000));
    const after = await db()
      .selectFrom('devices')
      .select(['id', 'last_heartbeat'])
      .where('rid', '=', 1)
      .where('id', 'in', [gate, door])
      .execute();
    expect(after.find((d: Row) => Number(d.id) === gate)!.last_heartbeat).toEqual(before.last_heartbeat);
    expect(after.find((d: Row) => Number(d.id) === door)!.last_heartbeat!.getTime()).toBeGreaterThan(Date.now());
  });
});
