import { meterGateway, meterPlan, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeviceQueue, setSimSettings, setSimulatorAckDelay } from '../../devices/access.js';
import { ok, refused } from '../../test/answers.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { moveBalance } from '../cards/ledger.js';
import { billReadMeters, closeArrears } from './core.js';
import { usedBetween } from './simulator.js';

type Row = Record<string, any>;

let s: TestServer;
let staff: string;
let admin: string;
let admin2: string;
let cashier: string;
let outsider: string;
let hid: number;
let bid: number;
let memberId: number;
let gatewayId: number;
let planId: number;
let meterId: number;

const db = () => s.database.db;
/** The queue a few seconds on (the simulator answers at once: delay 0): send, then the answers. */
async function settle() {
  await runDeviceQueue(db(), new Date(Date.now() + 1000));
  await runDeviceQueue(db(), new Date(Date.now() + 2000));
}
const meter = async (id = meterId) => ok(await s.call('meterinfo', { id }, staff)) as Row;
const alerts = async (kind: 'low' | 'closed' | 'opened') =>
  (
    await db()
      .selectFrom('meter_alerts')
      .selectAll()
      .where('rid', '=', 1)
      .where('meter_id', '=', meterId)
      .where('kind', '=', kind)
      .execute()
  ).length;

beforeAll(async () => {
  setSimulatorAckDelay(0);
  s = await startTestServer();
  [staff, admin, admin2, cashier, outsider] = await s.logins('parking', 'admin', 'admin2', 'cashier', 'access');
  const owner = await db()
    .selectFrom('room_members as rm')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
    .select(['rm.hid', 'rm.member_id', 'r.bid'])
    .where('rm.rid', '=', 1)
    .where('rm.status', '=', 'Y')
    .where('rm.relation', '=', 'owner')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('meters as m').select('m.id').whereRef('m.rid', '=', 'rm.rid').whereRef('m.hid', '=', 'rm.hid'))),
    )
    .orderBy('rm.id')
    .executeTakeFirstOrThrow();
  [hid, memberId, bid] = [owner.hid, owner.member_id, owner.bid].map(Number) as [number, number, number];
  // valves may close at any hour in these tests (the default window is 8 to 20 o'clock)
  ok(await s.call('metersettingsset', { close_from: 0, close_to: 24 }, staff));
  gatewayId = ok(await s.call('metergatewayadd', { code: 'T-DTU-1', title: '测试采集器', protocol: '4G' }, staff)).id;
  planId = ok(
    await s.call(
      'meterplanadd',
      {
        title: '测试电价',
        kind: 'power',
        tiers: [
          { upto: 50, price: '1.0000' },
          { upto: null, price: '2.0000' },
        ],
      },
      staff,
    ),
  ).id;
});
afterAll(() => s.close());

describeResource(meterGateway, {
  server: () => s,
  writer: 'parking',
  deniedWriter: 'access',
  sample: { code: 'RT-DTU', title: '资源测试采集器', protocol: 'NB', vendor: 'simulator', enabled: 'N' },
  edit: { title: '资源测试采集器（改）' },
  filters: { code: 'RT-DTU', title: '资源测试采集器', protocol: 'NB', enabled: 'N' },
  unique: ['code'],
});

describeResource(meterPlan, {
  server: () => s,
  writer: 'parking',
  deniedWriter: 'access',
  sample: { title: '资源测试水价', kind: 'water', tiers: [{ upto: null, price: '4.2' }] },
  edit: { title: '资源测试水价（改）' },
  filters: { title: '资源测试水价', kind: 'water' },
  unique: ['title'],
});

describe('a prepaid power meter', () => {
  it('is added for a room; its plan must be of its kind', async () => {
    const bad = await s.call(
      'meteradd',
      { meter_no: 'E-1', kind: 'water', mode: 'prepaid', gateway_id: gatewayId, hid, plan_id: planId },
      staff,
    );
    refused(bad, /^单价方案的表类型与表计不一致$/);
    meterId = ok(
      await s.call('meteradd', { meter_no: 'E-1', kind: 'power', mode: 'prepaid', gateway_id: gatewayId, hid, plan_id: planId }, staff),
    ).id;
    expect(await meter()).toMatchObject({ meter_no: 'E-1', balance: '0.00', valve: 'open', online: 'Y', valve_command: '' });
    ok(await s.call('meterhouseedit', { hid, alarm_threshold: '20', overdraft: '0', protected: 'N' }, staff));
    ok(await s.call('metersimset', { meter_id: meterId, per_hour: '10' }, admin));
  });

  it('takes a recharge at the cashier: 待下发 until the meter confirms it', async () => {
    const found = ok(await s.call('meterpick', { keyword: 'E-1' }, cashier)).items as Row[];
    expect(found.map((m) => m.meter_no)).toContain('E-1');
    expect(found.find((m) => m.meter_no === 'E-1')).toMatchObject({ kind_ch: '电表', valve_ch: '开启', hid });
    const r = ok(await s.call('meterrecharge', { meter_id: meterId, amount: '30', paytype: 'cash' }, cashier));
    expect(r.status).toBe('W');
    expect((await meter()).balance).toBe('0.00');
    await settle();
    const list = ok(await s.call('meterrechargelist', { order_no: r.order_no }, cashier));
    expect(list.items[0]).toMatchObject({ status: 'S', amount: '30.00', paytype_ch: '现金' });
    expect((await meter()).balance).toBe('30.00');
  });

  it('runs down on the simulated clock: the owner is told once at the alarm, the valve closes at zero', async () => {
    // 10 kWh an hour at 1 元 (the first 50 kWh of the month): 10 元 an hour
    ok(await s.call('metersimrun', { gateway_id: gatewayId, hours: 1 }, admin));
    expect((await meter()).balance).toBe('20.00');
    expect(await alerts('low')).toBe(1);
    ok(await s.call('metersimrun', { gateway_id: gatewayId, hours: 1 }, admin));
    expect((await meter()).balance).toBe('10.00');
    expect(await alerts('low')).toBe(1);
    ok(await s.call('metersimrun', { gateway_id: gatewayId, hours: 2 }, admin));
    const m = await meter();
    expect(m).toMatchObject({ valve: 'closed', valve_reason: 'arrears', reading: '30.00' });
    // the valve closed after the third hour: the fourth used nothing
    expect(m.balance).toBe('0.00');
    expect(await alerts('closed')).toBe(1);
    const logs = ok(await s.call('meterbillloglist', { meter_no: 'E-1', kind: 'deduct' }, staff));
    expect(logs.items.map((l: Row) => l.amount)).toEqual(['10.00', '10.00', '10.00']);
    const day = ok(await s.call('meterdaybilllist', { meter_no: 'E-1' }, staff)).items[0];
    expect(day).toMatchObject({ opening: '0.00', closing: '30.00', usage: '30.00', amount: '30.00', balance_after: '0.00' });
  });

  it('a ¥100 recharge opens the valve it closed for arrears', async () => {
    const r = ok(await s.call('meterrecharge', { meter_id: meterId, amount: '100', paytype: 'wechat' }, cashier));
    await settle();
    expect((await meter()).balance).toBe('100.00');
    // the open command was queued by the confirmation: the next run sends it
    expect((await meter()).valve_command).toBe('pending');
    await settle();
    expect(await meter()).toMatchObject({ valve: 'open', valve_reason: '', valve_command: '' });
    expect(await alerts('opened')).toBe(1);
    const hw = ok(await s.call('meterloglist', { meter_no: 'E-1' }, staff)).items as Row[];
    expect(hw.map((h) => h.kind)).toEqual(expect.arrayContaining(['meter_recharge', 'valve_close', 'valve_open']));
    expect(hw.every((h) => h.state === 'done' && h.latency_ms !== null)).toBe(true);
    expect(r.order_no).toMatch(/^MR\d{18}$/);
  });

  it('keeps every reading; one below the last is refused unless it is a swap', async () => {
    const low = await s.call('meterrecordadd', { meter_id: meterId, value: '3' }, staff);
    expect(low.return_code).toBe(RC.FAIL);
    refused(low, /小于上次读数/);
    const swap = ok(await s.call('meterrecordadd', { meter_id: meterId, value: '3', swap: true }, staff));
    expect(swap).toMatchObject({ usage: '0.00', amount: '0.00', balance: '100.00' });
    // 30 kWh used this month, the tier ends at 50: 40 more cost 20 × 1 + 20 × 2
    const used = ok(await s.call('meterrecordadd', { meter_id: meterId, value: '43', source: 'estimated' }, staff));
    expect(used).toMatchObject({ usage: '40.00', amount: '60.00', balance: '40.00' });
    const readings = ok(await s.call('meterrecordlist', { meter_id: meterId }, staff)).items as Row[];
    expect(readings[0]).toMatchObject({ value: '43.00', source: 'estimated', usage: '40.00' });
    expect(readings[1]).toMatchObject({ value: '3.00', swap: true });
    expect(readings.some((r) => r.source === 'auto')).toBe(true);
  });

  it('never closes a protected room, nor outside the hours allowed', async () => {
    ok(await s.call('meterhouseedit', { hid, alarm_threshold: '20', overdraft: '10', protected: 'Y' }, staff));
    ok(await s.call('meterrecordadd', { meter_id: meterId, value: '80' }, staff));
    expect(Number((await meter()).balance)).toBeLessThan(-10);
    expect(await closeArrears(db())).toBe(0);
    refused(await s.call('metervalve', { id: meterId, action: 'close' }, staff), /^该房屋已设为保护（不断供），不能关阀$/);
    ok(await s.call('meterhouseedit', { hid, alarm_threshold: '20', overdraft: '10', protected: 'N' }, staff));
    ok(await s.call('metersettingsset', { close_from: 8, close_to: 20 }, staff));
    const night = new Date('2026-12-01T15:30:00Z'); // 23:30 in Shanghai
    expect(await closeArrears(db(), night)).toBe(0);
    const noon = new Date('2026-12-01T04:00:00Z');
    expect(await closeArrears(db(), noon)).toBe(1);
    expect((await meter()).valve_command).toBe('pending');
    ok(await s.call('metersettingsset', { close_from: 0, close_to: 24 }, staff));
  });
});

describe('the usage report', () => {
  it('adds every reading and every recharge credited to its month, kind and building', async () => {
    const month = (await meter()).read_at.slice(0, 7);
    const r = ok(await s.call('meterreport', { from: month, to: month, kind: 'power' }, staff));
    const row = r.items.find((x: Row) => x.bid === bid);
    // 30 kWh run down, 40 after the swap, 37 past the overdraft: 30 + 60 + 74 元; 30 + 100 元 credited
    expect(row).toMatchObject({ month, kind: 'power', meters: 1, usage: '107.00', amount: '164.00', recharged: '130.00' });
    refused(await s.call('meterreport', { from: month, to: '2020-01' }, staff), /^开始月份不能晚于结束月份$/);
  });
});

describe('a failed push', () => {
  it('is 下发失败 while the gateway is offline, then retried or refunded to the balance', async () => {
    await setSimSettings(db(), 1, gatewayId, { offline: 'Y' });
    const before = Number(
      (await db().selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
        .balance,
    );
    await moveBalance(db(), {
      rid: 1,
      memberId,
      fen: 500_00n,
      ioType: 1,
      feetype: 'recharge',
      paytype: 'cash',
      orderid: 'T-METER-1',
      remark: '测试充值',
      createUser: '测试',
    });
    const r = ok(await s.call('meterrecharge', { meter_id: meterId, amount: '50', paytype: 'balance', member_id: memberId }, cashier));
    await settle();
    let row = ok(await s.call('meterrechargelist', { order_no: r.order_no }, cashier)).items[0];
    expect(row).toMatchObject({ status: 'F', error: '设备无响应' });
    refused(await s.call('meterrechargerefund', { id: r.id, remark: '' }, cashier), /请填写退款说明/);
    ok(await s.call('meterrechargerefund', { id: r.id, remark: '表计故障，退回余额' }, cashier));
    row = ok(await s.call('meterrechargelist', { order_no: r.order_no }, cashier)).items[0];
    expect(row.status).toBe('R');
    const after = Number(
      (await db().selectFrom('members').select('balance').where('rid', '=', 1).where('id', '=', memberId).executeTakeFirstOrThrow())
        .balance,
    );
    expect(after).toBe(before + 500);
    // the called-off push is never sent again, even with the gateway back
    await setSimSettings(db(), 1, gatewayId, { offline: 'N' });
    await db()
      .updateTable('device_commands')
      .set({ next_try_at: new Date(0) })
      .where('id', '=', r.command_id)
      .execute();
    await settle();
    refused(await s.call('meterrechargeretry', { id: r.id }, cashier), /^只有下发失败的充值可以重新下发$/);
    const cmd = await db().selectFrom('device_commands').select('state').where('id', '=', r.command_id).executeTakeFirstOrThrow();
    expect(cmd.state).toBe('cancelled');
  });

  it('refuses a balance payer not living in the room, and amounts outside the limits', async () => {
    refused(await s.call('meterrecharge', { meter_id: meterId, amount: '50', paytype: 'balance' }, cashier), /^余额支付请选择付款的住户$/);
    refused(
      await s.call('meterrecharge', { meter_id: meterId, amount: '5', paytype: 'cash' }, cashier),
      /^充值金额须在 10\.00 至 2000\.00 元之间$/,
    );
    ok(await s.call('meteramountset', { kind: 'power', amounts: ['50', '100'], custom: 'N', min_amount: '50', max_amount: '500' }, staff));
    refused(
      await s.call('meterrecharge', { meter_id: meterId, amount: '60', paytype: 'cash' }, cashier),
      /^请选择预设金额：50\.00、100\.00 元$/,
    );
    const bad = await s.call(
      'meteramountset',
      { kind: 'power', amounts: ['600'], custom: 'N', min_amount: '50', max_amount: '500' },
      staff,
    );
    expect(bad.return_code).toBe(RC.FAIL);
  });
});

describe('a read-and-bill water meter', () => {
  it('bills its month on its read day, once', async () => {
    const item = await db()
      .selectFrom('fee_items')
      .select(['id', 'unit_price'])
      .where('rid', '=', 1)
      .where('pricing', '=', 'meter')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const plan = ok(await s.call('meterplanadd', { title: '测试水价', kind: 'water', tiers: [{ upto: null, price: '4.2' }] }, staff)).id;
    const noItem = await s.call(
      'meteradd',
      { meter_no: 'W-1', kind: 'water', mode: 'read', gateway_id: gatewayId, hid, plan_id: plan },
      staff,
    );
    expect(noItem.return_code).toBe(RC.FAIL);
    const id = ok(
      await s.call(
        'meteradd',
        {
          meter_no: 'W-1',
          kind: 'water',
          mode: 'read',
          gateway_id: gatewayId,
          hid,
          plan_id: plan,
          item_id: Number(item.id),
          read_day: 1,
          read_hour: 0,
        },
        staff,
      ),
    ).id;
    // the reading at (or after) the read day and hour makes the month's bill; the job finds none left
    ok(await s.call('meterrecordadd', { meter_id: id, value: '12.5' }, staff));
    expect(await billReadMeters(db(), new Date(), 1)).toBe(0);
    ok(await s.call('meterrecordadd', { meter_id: id, value: '20' }, staff));
    const period = (await meter(id)).read_at.slice(0, 7);
    const bill = await db()
      .selectFrom('fee_bills')
      .select(['fee', 'measure', 'source', 'period'])
      .where('rid', '=', 1)
      .where('hid', '=', hid)
      .where('item_id', '=', item.id)
      .where('period', '=', period)
      .executeTakeFirstOrThrow();
    expect(bill).toMatchObject({ fee: '52.50', source: 'meter' });
    expect(Number(bill.measure)).toBe(12.5);
    const reading = await db()
      .selectFrom('fee_meter_readings')
      .select(['source', 'this_reading'])
      .where('rid', '=', 1)
      .where('hid', '=', hid)
      .where('item_id', '=', item.id)
      .where('period', '=', period)
      .executeTakeFirstOrThrow();
    expect(reading.source).toBe('auto');
    const logs = ok(await s.call('meterbillloglist', { meter_no: 'W-1', kind: 'bill' }, staff)).items;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ usage: '12.50', amount: '52.50' });
  });
});

describe('who may', () => {
  it('refuses staff without the meter roles, and another community’s meters', async () => {
    expect((await s.call('meterlist', {}, outsider)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('meterrecharge', { meter_id: meterId, amount: '50', paytype: 'cash' }, outsider)).return_code).toBe(
      RC.NO_PERMISSION,
    );
    expect((await s.call('metersimrun', { gateway_id: gatewayId, hours: 1 }, staff)).return_code).toBe(RC.NO_PERMISSION);
    refused(await s.call('meterinfo', { id: meterId }, admin2), /^表计不存在$/);
    refused(await s.call('meterrecharge', { meter_id: meterId, amount: '50', paytype: 'cash' }, admin2), /^表计不存在$/);
    refused(await s.call('metervalve', { id: meterId, action: 'close' }, admin2), /^表计不存在$/);
    refused(await s.call('meterhouseedit', { hid, alarm_threshold: '1', overdraft: '0', protected: 'N' }, admin2), /^房屋不存在$/);
  });

  it('refuses bad payloads', async () => {
    const tiers = await s.call('meterplanadd', { title: 'x', kind: 'power', tiers: [{ upto: 10, price: '1' }] }, staff);
    expect(tiers.return_code).toBe(RC.FAIL);
    expect((await s.call('meterrecharge', { meter_id: meterId, amount: '-1', paytype: 'cash' }, cashier)).return_code).toBe(RC.FAIL);
    expect((await s.call('meterrecordadd', { meter_id: meterId, value: '1.234' }, staff)).return_code).toBe(RC.FAIL);
    expect((await s.call('metersettingsset', { close_from: 20, close_to: 8 }, staff)).return_code).toBe(RC.FAIL);
  });

  it('sets the rooms with meters of a building at once', async () => {
    const r = ok(await s.call('meterhousebatch', { bid, alarm_threshold: '15', overdraft: '5', protected: 'N' }, staff));
    expect(r.rooms).toBeGreaterThanOrEqual(1);
    const house = ok(await s.call('meterhouselist', { bid }, staff)).items.find((h: Row) => h.hid === hid);
    expect(house).toMatchObject({ alarm_threshold: '15.00', overdraft: '5.00', protected: 'N' });
    refused(await s.call('meterhousebatch', { bid, alarm_threshold: '15', overdraft: '5', protected: 'N' }, admin2), /^所选楼栋不存在$/);
  });

  it('deletes a meter only while it has no money and no history', async () => {
    refused(await s.call('meterdel', { id: meterId }, staff), /不能删除/);
    refused(await s.call('metergatewaydel', { id: gatewayId }, staff), /^该采集器下还有表计，请先删除或移走表计$/);
  });
});

describe('binding by building and unit', () => {
  it('previews and binds the kind’s unbound meters, in number order, to the rooms without one', async () => {
    const gasPlan = ok(await s.call('meterplanadd', { title: '测试气价', kind: 'gas', tiers: [{ upto: null, price: '3' }] }, staff)).id;
    await db()
      .insertInto('meters')
      .values(['G-2', 'G-1'].map((no) => ({ rid: 1, meter_no: no, kind: 'gas', mode: 'prepaid', gateway_id: gatewayId, plan_id: gasPlan })))
      .execute();
    const preview = ok(await s.call('meterhousepreview', { bid, kind: 'gas' }, staff));
    expect(preview.unbound_meters).toBe(2);
    expect(preview.free_rooms).toBeGreaterThanOrEqual(2);
    expect(preview.to_bind).toBe(2);
    expect(preview.with_meters).toBeGreaterThanOrEqual(1);
    const r = await s.call('meterhousebind', { bid, kind: 'gas' }, staff);
    expect(r.return_msg).toBe('已绑定 2 块燃气表');
    const bound = (ok(await s.call('meterlist', { kind: 'gas' }, staff)).items as Row[]).filter((m) => /^G-\d$/.test(m.meter_no));
    expect(bound.every((m) => m.bid === bid && m.hid !== null)).toBe(true);
    expect(new Set(bound.map((m) => m.hid)).size).toBe(2);
    // the rooms' order: the first room without a gas meter got G-1
    const [g1, g2] = ['G-1', 'G-2'].map((no) => bound.find((m) => m.meter_no === no)!);
    const order = await db()
      .selectFrom('rooms')
      .select(['id', 'title'])
      .where('rid', '=', 1)
      .where('id', 'in', [g1!.hid, g2!.hid])
      .execute();
    const title = (hid: number) => order.find((o) => Number(o.id) === hid)!.title;
    expect(parseInt(title(g1!.hid), 10) <= parseInt(title(g2!.hid), 10)).toBe(true);
    expect(ok(await s.call('meterhousepreview', { bid, kind: 'gas' }, staff)).unbound_meters).toBe(0);
    refused(await s.call('meterhousebind', { bid, kind: 'gas' }, staff), /^没有未绑定房屋的此类表$/);
  });

  it('refuses another community’s building, a unit of another building, and staff without the meter roles', async () => {
    refused(await s.call('meterhousebind', { bid, kind: 'gas' }, admin2), /^所选楼栋不存在$/);
    refused(await s.call('meterhousepreview', { bid, kind: 'gas' }, admin2), /^所选楼栋不存在$/);
    const foreignUnit = await db().selectFrom('units').select('id').where('rid', '=', 1).where('bid', '<>', bid).executeTakeFirstOrThrow();
    refused(await s.call('meterhousepreview', { bid, tid: Number(foreignUnit.id), kind: 'gas' }, staff), /^所选单元不存在$/);
    expect((await s.call('meterhousebind', { bid, kind: 'gas' }, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('the simulator', () => {
  let simGateway: number;
  let simMeter: number;
  beforeAll(async () => {
    simGateway = ok(await s.call('metergatewayadd', { code: 'T-SIM-1', title: '模拟测试采集器', protocol: '4G' }, staff)).id;
    const free = ok(await s.call('meterplanadd', { title: '测试零价', kind: 'power', tiers: [{ upto: null, price: '0' }] }, staff)).id;
    simMeter = ok(
      await s.call('meteradd', { meter_no: 'S-1', kind: 'power', mode: 'prepaid', gateway_id: simGateway, hid, plan_id: free }, staff),
    ).id;
  });

  it('runs a meter by its hourly profile', async () => {
    const profile = Array.from({ length: 24 }, () => '2.5');
    const set = ok(await s.call('metersimset', { meter_id: simMeter, per_hour: '1', profile }, admin));
    expect(set.profile).toHaveLength(24);
    const listed = (ok(await s.call('metersimlist', { gateway_id: simGateway }, admin)).items as Row[])[0];
    expect(listed).toMatchObject({ meter_no: 'S-1', per_hour: '1', per_day: '60', register: '0.00', valve: 'open' });
    expect(listed!.profile[0]).toBe('2.5');
    ok(await s.call('metersimrun', { gateway_id: simGateway, hours: 2 }, admin));
    expect((await meter(simMeter)).reading).toBe('5.00');
    // no profile: per_hour all day
    ok(await s.call('metersimset', { meter_id: simMeter, per_hour: '1', profile: null }, admin));
    ok(await s.call('metersimrun', { gateway_id: simGateway, hours: 1 }, admin));
    expect((await meter(simMeter)).reading).toBe('6.00');
    refused(await s.call('metersimset', { meter_id: simMeter, per_hour: '1', profile: ['1'] }, admin), /24 个小时/);
  });

  it('uses each hour of the day at its own usage', () => {
    const profile = Array.from({ length: 24 }, (_v, h) => String(h));
    // 09:30 to 11:30 in Shanghai: half of hour 9, all of 10, half of 11
    const from = Date.parse('2026-12-01T01:30:00Z');
    expect(usedBetween({ per_hour: '0', profile }, from, from + 2 * 3_600_000)).toBe(2000n);
    expect(usedBetween({ per_hour: '0.5', profile: null }, from, from + 60_000)).toBe(0n);
    expect(usedBetween({ per_hour: '0.5', profile: null }, from, from + 3 * 60_000)).toBe(2n);
  });

  it('swaps a meter: the new register starts again, recorded as a swap reading', async () => {
    const r = ok(await s.call('metersimswap', { meter_id: simMeter, value: '1.5' }, admin));
    expect(r).toMatchObject({ meter_id: simMeter, value: '1.50' });
    const readings = ok(await s.call('meterrecordlist', { meter_id: simMeter }, staff)).items as Row[];
    expect(readings[0]).toMatchObject({ value: '1.50', swap: true, usage: '0.00', source: 'auto', remark: '换表（模拟器）' });
    ok(await s.call('metersimrun', { gateway_id: simGateway, hours: 1 }, admin));
    const after = ok(await s.call('meterrecordlist', { meter_id: simMeter }, staff)).items as Row[];
    expect(after[0]).toMatchObject({ value: '2.50', usage: '1.00', swap: false });
    expect((await s.call('metersimswap', { meter_id: simMeter }, staff)).return_code).toBe(RC.NO_PERMISSION);
    refused(await s.call('metersimswap', { meter_id: simMeter }, admin2), /^表计不存在$/);
    refused(await s.call('metersimlist', { gateway_id: simGateway }, admin2), /^采集器不存在$/);
  });
});

describe('the home page’s card', () => {
  it('counts the valves closed, the meters behind an offline gateway and the piles offline', async () => {
    const enabledHere = (ok(await s.call('meterlist', { gateway_id: gatewayId, enabled: 'Y' }, staff)) as Row).total;
    await db().updateTable('devices').set({ last_heartbeat: new Date() }).where('id', '=', gatewayId).execute();
    const before = ok(await s.call('meterdashboard', {}, staff));
    await db()
      .updateTable('devices')
      .set({ last_heartbeat: new Date(Date.now() - 3_600_000) })
      .where('id', '=', gatewayId)
      .execute();
    const pile = await db()
      .selectFrom('devices')
      .select('id')
      .where('rid', '=', 1)
      .where('family', '=', 'pile')
      .where('enabled', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('devices').set({ last_heartbeat: new Date() }).where('id', '=', pile.id).execute();
    const online = ok(await s.call('meterdashboard', {}, staff));
    await db()
      .updateTable('devices')
      .set({ last_heartbeat: new Date(Date.now() - 3_600_000) })
      .where('id', '=', pile.id)
      .execute();
    const after = ok(await s.call('meterdashboard', {}, staff));
    expect(after.offline_piles).toBe(online.offline_piles + 1);
    expect(after.piles).toBeGreaterThanOrEqual(2);
    expect(after.offline_meters - before.offline_meters).toBe(enabledHere);
    const closed = (ok(await s.call('meterlist', { valve: 'closed' }, staff)) as Row).total;
    expect(after.closed).toBe(closed);
    expect((await s.call('meterdashboard', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe("by the group's payment ways", () => {
  it('refuses a disabled way, a missing reference and an own way of another base, changing nothing; an own way is printed with its base and its reference kept', async () => {
    const leader = await s.login('leader');
    const group = (method: string, payload: Record<string, unknown>) => s.call(method, payload, leader, 'group');
    const rule = (pay_type: string, patch: Record<string, unknown> = {}) =>
      group('paytypeedit', { pay_type, enabled: 'Y', counted: 'Y', ref_required: 'N', sort: 10, ...patch });
    // the demo group's front-desk POS on 银行卡, which asks for the terminal's reference
    const pos = (ok(await group('paytypelist', {})).methods as Row[]).find((m) => m.name === 'POS机-工行')!;
    expect((ok(await s.call('paytypeoptions', {}, cashier)).items as Row[]).map((o) => o.method_id)).toContain(pos.id);
    const recharge = (extra: Record<string, unknown>) =>
      s.call('meterrecharge', { meter_id: meterId, amount: '100', paytype: 'cash', ...extra }, cashier);
    const count = async () =>
      Number(
        (await db().selectFrom('meter_recharges').select(db().fn.countAll<number>().as('n')).where('rid', '=', 1).executeTakeFirstOrThrow())
          .n,
      );
    const before = await count();
    ok(await rule('wechat', { enabled: 'N' }));
    ok(await rule('transfer', { ref_required: 'Y' }));
    try {
      refused(await recharge({ paytype: 'wechat' }), '支付方式“微信支付”已停用，请选择其他支付方式');
      refused(await recharge({ paytype: 'transfer' }), '支付方式“银行转账”须填写凭证号（如银行流水号）');
      refused(await recharge({ paytype: 'bankcard', pay_method_id: pos.id }), '支付方式“POS机-工行”须填写凭证号（如银行流水号）');
      refused(await recharge({ paytype: 'cash', pay_method_id: pos.id, pay_ref: 'P1' }), '支付方式“POS机-工行”属于银行卡，与所选方式不符');
      expect(await count()).toBe(before);
    } finally {
      ok(await rule('wechat'));
      ok(await rule('transfer'));
    }
    const r = ok(await recharge({ paytype: 'bankcard', pay_method_id: pos.id, pay_ref: 'POS-301' }));
    const listed = ok(await s.call('meterrechargelist', { order_no: r.order_no }, cashier)).items[0];
    expect(listed).toMatchObject({ paytype: 'bankcard', paytype_ch: 'POS机-工行（银行卡）', pay_ref: 'POS-301' });
  });
});
