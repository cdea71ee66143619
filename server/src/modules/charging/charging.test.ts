import { addDays, charger, toFen, fenToYuan, type ChargeReportRow } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatSimulators, deviceHeartbeat, runDeviceQueue, setSimulatorAckDelay } from '../../devices/access.js';
import { readXlsx } from '../../lib/excel.js';
import { today, wireTime } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { memberWithBalance } from './testMembers.js';
import { sweepChargeOrders } from './sessions.js';
import { advancePiles } from './sim.js';

/** The report's default range (this month to today), reaching to the business day of `end` when a simulated session ends after today. */
const rangeTo = (end: Date) => ({ start_date: `${today().slice(0, 8)}01`, end_date: wireTime(end).slice(0, 10) });

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let seq = 0;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const MIN = 60_000;
const HOUR = 60 * MIN;

/** all day at one price, so the sums below do not depend on the hour the test runs */
const FLAT = [{ start: '00:00', end: '24:00', tier: 'flat', price: '1.00' }];
const carPile = (v: Record<string, unknown> = {}) => ({
  title: `测试汽车桩${++seq}`,
  code: `TCP${Date.now() % 100000}${seq}`,
  kind: 'car',
  ports: 2,
  power_kw: '7.00',
  tou: FLAT,
  service_fee: '0.40',
  bands: [],
  ...v,
});

beforeAll(async () => {
  setSimulatorAckDelay(0);
  s = await startTestServer();
  [admin, admin2, cashier] = await s.logins('admin', 'admin2', 'cashier');
});
afterAll(() => s?.close());

describeResource(charger, {
  server: () => s,
  sample: () => carPile({ title: '描述测试桩', code: 'DESC01' }),
  edit: { title: '描述测试桩二', service_fee: '0.50' },
  filters: { title: '描述测试', code: 'DESC01', kind: 'car', enabled: 'Y' },
  deniedWriter: 'cashier',
  unique: ['code'],
});

/** A pile added by admin, online now: its id and its ports' ids. */
async function addPile(v: Record<string, unknown> = {}) {
  const payload = carPile(v);
  const res = await s.call('chargeradd', payload, admin);
  ok(res);
  const id = res.data.id as number;
  await deviceHeartbeat(s.database.db, 1, String(payload.code), new Date(), 'pile');
  const ports = await s.call('chargerportlist', { charger_id: id }, admin);
  ok(ports);
  return { id, ports: (ports.data.items as Array<{ id: number }>).map((p) => p.id) };
}

/** A member of community 1 with `yuan` added to the balance (through the ledger); answers the id. */
const memberWith = async (yuan: string, index = 0): Promise<number> => (await memberWithBalance(s.database.db, 40 + index, yuan)).id;
const balanceOf = async (memberId: number) =>
  toFen(
    String(
      (
        await s.database.db
          .selectFrom('members')
          .select('balance')
          .where('rid', '=', 1)
          .where('id', '=', memberId)
          .executeTakeFirstOrThrow()
      ).balance,
    ),
  );

/** the queue hands the command to the simulator, then the simulator answers it */
async function pump(at: Date) {
  // the simulated piles beat at that moment, as their job would: online for the queue
  await beatSimulators(s.database.db, at);
  await runDeviceQueue(s.database.db, at);
  await runDeviceQueue(s.database.db, at);
}
const order = async (id: number) => {
  const res = await s.call('chargeorderinfo', { id }, admin);
  ok(res);
  return res.data as Record<string, unknown> & { slots: Array<{ free: string; amount: string }>; frames: unknown[] };
};

describe('charging sessions', () => {
  it('a 2-hour session at 7 kW with one coupon hour is settled from the final value, the rest refunded to the fen', async () => {
    const pile = await addPile();
    const member = await memberWith('100.00');
    // a charging coupon worth ¥10: it pays the first hour (7 kWh × 1.40 = 9.80)
    const tpl = await s.call(
      'cardsadd',
      {
        name: `充电券${++seq}`,
        kind: 'amount',
        purpose: 'charging',
        face_value: '10.00',
        min_spend: '0',
        per_person: 1,
        validity: 'days',
        valid_days: 30,
      },
      admin,
    );
    ok(tpl);
    ok(await s.call('cardgive', { template_id: tpl.data.id, member_ids: [member], idempotency_key: `charging-test-${++seq}` }, admin));
    const coupon = await s.database.db
      .selectFrom('member_coupons')
      .select(['code', 'status'])
      .where('rid', '=', 1)
      .where('template_id', '=', tpl.data.id as number)
      .executeTakeFirstOrThrow();
    const before = await balanceOf(member);
    const start = await s.call(
      'chargestart',
      { charger_id: pile.id, port_id: pile.ports[0], member_id: member, mode: 'hours', value: '2', coupon_code: coupon.code },
      admin,
    );
    ok(start);
    expect(start.data.prepaid).toBe('19.60'); // 2 h × 7 kW × (1.00 + 0.40)
    const id = start.data.id as number;
    expect(await balanceOf(member)).toBe(before - 1960n);
    expect((await order(id)).state).toBe('starting');
    const t0 = new Date();
    await pump(t0);
    expect((await order(id)).state).toBe('charging');
    const ports = await s.call('chargerportlist', { charger_id: pile.id }, admin);
    expect(ports.data.items[0]).toMatchObject({ state: 'charging', order_id: id });
    // an hour on: meter values, still charging
    await advancePiles(s.database.db, new Date(t0.getTime() + HOUR));
    expect((await order(id)).state).toBe('charging');
    // two hours: the pile ends the session itself (时长到) with its final value
    await advancePiles(s.database.db, new Date(t0.getTime() + 2 * HOUR + 5 * MIN));
    const done = await order(id);
    expect(done).toMatchObject({
      state: 'done',
      end_reason: 'time',
      energy_kwh: '14.000',
      hours: 2,
      coupon_hours: 1,
      amount: '9.80',
      refund: '9.80',
    });
    expect(done.slots.map((x) => [x.amount, x.free])).toEqual([
      ['9.80', 'coupon'],
      ['9.80', ''],
    ]);
    expect(done.frames.length).toBe(25);
    expect(await balanceOf(member)).toBe(before - 980n);
    const used = await s.database.db
      .selectFrom('member_coupons')
      .select(['status', 'used_order_no', 'discount'])
      .where('code', '=', coupon.code)
      .executeTakeFirstOrThrow();
    expect(used).toMatchObject({ status: 'Y', used_order_no: done.order_no });
    expect(fenToYuan(toFen(String(used.discount)))).toBe('9.80');
    // the port is free again; the report counts the session
    expect((await s.call('chargerportlist', { charger_id: pile.id }, admin)).data.items[0].state).toBe('free');
    // the session ends two hours on: the next day after 22:00 (business time), so the range reaches its end day
    const report = await s.call(
      'chargereportlist',
      { charger_id: pile.id, ...rangeTo(new Date(t0.getTime() + 2 * HOUR + 5 * MIN)) },
      admin,
    );
    ok(report);
    expect(report.data).toMatchObject({ sessions: 1, energy_kwh: '14.000', income: '9.80' });
  });

  it('a lost final frame: the session is closed by the time-out from its last value and flagged 待核对', async () => {
    const pile = await addPile();
    const member = await memberWith('50.00', 1);
    const before = await balanceOf(member);
    ok(await s.call('chargersim', { charger_id: pile.id, action: 'lose_final' }, admin));
    const start = await s.call(
      'chargestart',
      { charger_id: pile.id, port_id: pile.ports[1], member_id: member, mode: 'hours', value: '1' },
      admin,
    );
    ok(start);
    const id = start.data.id as number;
    const t0 = new Date();
    await pump(t0);
    await advancePiles(s.database.db, new Date(t0.getTime() + HOUR));
    // the pile stopped and freed its port, but the final value never came
    expect((await order(id)).state).toBe('charging');
    const recon = await s.call('chargereconlist', {}, admin);
    expect(recon.data.items).toContainEqual(expect.objectContaining({ kind: 'idle_order', order_id: id }));
    // the last value was at 55 minutes: not yet 10 minutes old at 1:05
    expect(await sweepChargeOrders(s.database.db, new Date(t0.getTime() + 65 * MIN))).toBe(0);
    expect(await sweepChargeOrders(s.database.db, new Date(t0.getTime() + 66 * MIN))).toBe(1);
    const closed = await order(id);
    // 55 minutes at 7 kW = 6.417 kWh: 6.42 of electricity and 2.57 of service fee, each rounded to the fen
    expect(closed).toMatchObject({
      state: 'check',
      end_reason: 'timeout',
      energy_kwh: '6.417',
      amount: '8.99',
      refund: '0.81',
      prepaid: '9.80',
    });
    expect(await balanceOf(member)).toBe(before - 899n);
    expect((await s.call('chargereconlist', {}, admin)).data.items).not.toContainEqual(expect.objectContaining({ order_id: id }));
    expect((await s.call('chargecheck', { id, note: '' }, admin)).return_msg).toContain('请填写核对说明');
    ok(await s.call('chargecheck', { id, note: '桩断网，按最后读数结算' }, admin));
    expect(await order(id)).toMatchObject({ state: 'checked', check_note: '桩断网，按最后读数结算' });
    expect((await s.call('chargecheck', { id, note: '再次' }, admin)).return_msg).toBe('该订单已核对，无需核对');
  });

  it('the console stops a session: pile_stop, the final value, settled 后台停止', async () => {
    const pile = await addPile();
    const member = await memberWith('80.00', 2);
    const before = await balanceOf(member);
    const start = await s.call(
      'chargestart',
      { charger_id: pile.id, port_id: pile.ports[0], member_id: member, mode: 'energy', value: '10' },
      admin,
    );
    ok(start);
    expect(start.data.prepaid).toBe('14.00');
    const id = start.data.id as number;
    const t0 = new Date();
    await pump(t0);
    await advancePiles(s.database.db, new Date(t0.getTime() + 20 * MIN));
    ok(await s.call('chargestop', { id }, admin));
    expect((await order(id)).state).toBe('stopping');
    expect((await s.call('chargestop', { id }, admin)).return_msg).toBe('已下发停止指令，等待充电桩应答');
    await pump(new Date(t0.getTime() + 30 * MIN));
    const done = await order(id);
    // 30 minutes at 7 kW = 3.5 kWh × 1.40 = 4.90
    expect(done).toMatchObject({ state: 'done', end_reason: 'console', energy_kwh: '3.500', amount: '4.90', refund: '9.10' });
    expect(await balanceOf(member)).toBe(before - 490n);
    expect((await s.call('chargestop', { id }, admin)).return_msg).toBe('该订单已完成，不能停止');
  });

  it('an e-bike session is billed by the hour at its power band, the month card hour free', async () => {
    const pile = await addPile({
      kind: 'ebike',
      power_kw: '0.40',
      tou: [],
      service_fee: '0',
      bands: [
        { min_w: 0, max_w: 300, price: '0.50' },
        { min_w: 300, max_w: 1000, price: '0.80' },
      ],
    });
    const member = await memberWith('60.00', 3);
    const card = await s.call('chargecardadd', { title: `月卡${++seq}`, months: 1, price: '30.00', hours_per_day: 1, status: 'Y' }, admin);
    ok(card);
    const bought = await s.call('chargecardbuy', { card_id: card.data.id, member_id: member, start_date: '' }, admin);
    ok(bought);
    const before = await balanceOf(member);
    const start = await s.call(
      'chargestart',
      { charger_id: pile.id, port_id: pile.ports[0], member_id: member, mode: 'hours', value: '3' },
      admin,
    );
    ok(start);
    expect(start.data.prepaid).toBe('2.40'); // 3 h at the top band
    const t0 = new Date();
    await pump(t0);
    await advancePiles(s.database.db, new Date(t0.getTime() + 3 * HOUR));
    const done = await order(start.data.id as number);
    expect(done.state).toBe('done');
    // the battery (0.4 to 1.2 kWh) fills within the hours; the first hour is the card's
    expect(done.slots[0]!.free).toBe('card');
    expect(toFen(String(done.amount)) + toFen(String(done.refund))).toBe(240n);
    expect(await balanceOf(member)).toBe(before - toFen(String(done.amount)));
  });

  it('refuses what it must', async () => {
    const pile = await addPile();
    const poor = await memberWith('1.00', 4);
    const base = { charger_id: pile.id, port_id: pile.ports[0], member_id: poor };
    const more = fenToYuan((await balanceOf(poor)) + 1n);
    expect((await s.call('chargestart', { ...base, mode: 'amount', value: more }, admin)).return_msg).toMatch(/^业主余额不足/);
    expect((await s.call('chargestart', { ...base, mode: 'hours', value: '1.5' }, admin)).return_msg).toContain('整数小时');
    expect((await s.call('chargestart', { ...base, mode: 'fast', value: '1' }, admin)).return_msg).toContain('充电方式取值不正确');
    expect((await s.call('chargestart', { ...base, mode: 'amount', value: '-1' }, admin)).return_code).not.toBe('SUCCESS');
    expect((await s.call('chargestart', { ...base, port_id: 999999, mode: 'amount', value: '1' }, admin)).return_msg).toBe('插座不存在');
    expect((await s.call('chargestart', { ...base, mode: 'amount', value: '1', coupon_code: 'NOPE' }, admin)).return_msg).toBe(
      '券码不存在',
    );
    ok(await s.call('chargersim', { charger_id: pile.id, action: 'fault', port_id: pile.ports[0] }, admin));
    expect((await s.call('chargestart', { ...base, mode: 'amount', value: '1' }, admin)).return_msg).toBe('该插座故障，不能充电');
    ok(await s.call('chargersim', { charger_id: pile.id, action: 'repair', port_id: pile.ports[0] }, admin));
    // prices that leave a gap in the day
    const gap = await s.call('chargeradd', carPile({ tou: [{ start: '00:00', end: '08:00', tier: 'valley', price: '0.30' }] }), admin);
    expect(gap.return_msg).toBe('分时电价须覆盖到 24:00');
    const flat = await s.call('chargeradd', carPile({ kind: 'ebike', tou: [], bands: [] }), admin);
    expect(flat.return_msg).toBe('请设置功率档位');
    // a role without charginglist, another community's account
    expect((await s.call('chargerlist', {}, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('chargestart', { ...base, mode: 'amount', value: '1' }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('chargerinfo', { id: pile.id }, admin2)).return_msg).toBe('充电桩不存在');
    expect((await s.call('chargerportlist', { charger_id: pile.id }, admin2)).return_msg).toBe('充电桩不存在');
    expect((await s.call('chargestart', { ...base, mode: 'amount', value: '1' }, admin2)).return_msg).toBe('充电桩不存在');
    const any = await s.database.db.selectFrom('charge_orders').select('id').where('rid', '=', 1).executeTakeFirstOrThrow();
    expect((await s.call('chargeorderinfo', { id: any.id }, admin2)).return_msg).toBe('充电订单不存在');
    expect((await s.call('chargestop', { id: any.id }, admin2)).return_msg).toBe('充电订单不存在');
  });

  it('a price change bumps the version; a pile with sessions cannot be deleted', async () => {
    const pile = await addPile();
    const info = async () => {
      const res = await s.call('chargerinfo', { id: pile.id }, admin);
      ok(res);
      return res.data as { price_version: number; tou: unknown };
    };
    expect((await info()).price_version).toBe(1);
    const edit = {
      id: pile.id,
      title: '改名',
      code: `E${Date.now() % 100000}`,
      vendor: 'simulator',
      power_kw: '7.00',
      tou: FLAT,
      service_fee: '0.40',
      bands: [],
      enabled: 'Y',
      remark: '',
    };
    ok(await s.call('chargeredit', edit, admin));
    expect((await info()).price_version).toBe(1);
    ok(await s.call('chargeredit', { ...edit, service_fee: '0.60' }, admin));
    expect((await info()).price_version).toBe(2);
    const member = await memberWith('20.00', 5);
    ok(await s.call('chargestart', { charger_id: pile.id, port_id: pile.ports[0], member_id: member, mode: 'amount', value: '5' }, admin));
    expect((await s.call('chargerdel', { id: pile.id }, admin)).return_msg).toBe('该充电桩已有充电订单，不能删除（可停用）');
  });

  it('a month card is paid from the balance; a second one starts after the first; members are found by mobile', async () => {
    const member = await memberWith('200.00', 6);
    const before = await balanceOf(member);
    const card = await s.call('chargecardadd', { title: `季卡${++seq}`, months: 3, price: '60.00', hours_per_day: 2, status: 'Y' }, admin);
    ok(card);
    const first = await s.call('chargecardbuy', { card_id: card.data.id, member_id: member, start_date: '' }, admin);
    ok(first);
    expect(await balanceOf(member)).toBe(before - 6000n);
    const second = await s.call('chargecardbuy', { card_id: card.data.id, member_id: member, start_date: '' }, admin);
    ok(second);
    const rows = await s.database.db
      .selectFrom('charge_card_orders')
      .select(['start_date', 'end_date'])
      .where('rid', '=', 1)
      .where('member_id', '=', member)
      .orderBy('id')
      .execute();
    // the renewal starts the day after the first card ends
    expect(rows.length).toBe(2);
    expect(String(rows[1]!.start_date) > String(rows[0]!.end_date)).toBe(true);
    const clash = await s.call('chargecardbuy', { card_id: card.data.id, member_id: member, start_date: String(rows[0]!.end_date) }, admin);
    expect(clash.return_msg).toContain('新月卡应从之后开始');
    expect((await s.call('chargecarddel', { id: card.data.id }, admin)).return_msg).toBe('该充电月卡已有会员购买，不能删除（可停售）');
    const m = await s.database.db.selectFrom('members').select(['mobile', 'realname']).where('id', '=', member).executeTakeFirstOrThrow();
    const found = await s.call('chargemembers', { keyword: m.mobile }, admin);
    ok(found);
    expect(found.data.items).toContainEqual(expect.objectContaining({ id: member, month_card: expect.stringContaining('每日 2 小时') }));
    expect((await s.call('chargecardbuy', { card_id: card.data.id, member_id: member, start_date: '' }, admin2)).return_msg).toBe(
      '充电月卡不存在',
    );
  });
});

describe('charging exports', () => {
  it('chargeorderexport writes the filtered sessions as an export job, the mobile masked without whole contacts', async () => {
    const pile = await addPile();
    const member = await memberWith('60.00', 5);
    const start = await s.call(
      'chargestart',
      { charger_id: pile.id, port_id: pile.ports[0], member_id: member, mode: 'hours', value: '1' },
      admin,
    );
    ok(start);
    const t0 = new Date();
    await pump(t0);
    await advancePiles(s.database.db, new Date(t0.getTime() + HOUR + 5 * MIN));
    const settled = await order(start.data.id as number);
    expect(settled).toMatchObject({ state: 'done', amount: '9.80', refund: '0.00' });
    const file = await s.exportFile('chargeorderexport', { charger_id: pile.id, state: 'done' }, admin);
    ok(file);
    expect(file.data.filename).toMatch(/^充电订单_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual([
      '订单号',
      '姓名',
      '手机号',
      '充电桩',
      '插座',
      '方式',
      '数值',
      '电量(kWh)',
      '计费小时',
      '月卡小时',
      '券抵小时',
      '预付(元)',
      '实收(元)',
      '退回(元)',
      '状态',
      '结束原因',
      '开始时间',
      '结束时间',
      '价格版本',
      '核对说明',
    ]);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0]!.values).toMatchObject({
      订单号: settled.order_no,
      插座: '1',
      方式: '按时长',
      '电量(kWh)': '7.000',
      计费小时: '1',
      '预付(元)': '9.80',
      '实收(元)': '9.80',
      '退回(元)': '0.00',
      状态: '已完成',
      结束原因: '时长到',
    });
    expect(sheet.rows[0]!.values['手机号']).toBe(settled.mobile);
    // the filters narrow it; a clerk without the charging code may not export
    const none = await readXlsx(
      (await s.exportFile('chargeorderexport', { charger_id: pile.id, state: 'failed' }, admin)).data.content_base64,
    );
    expect(none.rows).toHaveLength(0);
    expect((await s.call('chargeorderexport', {}, cashier)).return_code).toBe('NO_PERMISSION');
  });

  it('chargereportexport writes the report of the range and pile with a total row; a range over a year is refused in the call', async () => {
    const pile = await addPile();
    const member = await memberWith('60.00', 9);
    for (const port of pile.ports) {
      const start = await s.call(
        'chargestart',
        { charger_id: pile.id, port_id: port, member_id: member, mode: 'hours', value: '1' },
        admin,
      );
      ok(start);
    }
    const t0 = new Date();
    await pump(t0);
    await advancePiles(s.database.db, new Date(t0.getTime() + HOUR + 5 * MIN));
    const range = rangeTo(new Date(t0.getTime() + HOUR + 5 * MIN));
    const report = await s.call('chargereportlist', { charger_id: pile.id, ...range }, admin);
    ok(report);
    expect(report.data).toMatchObject({ sessions: 2, energy_kwh: '14.000' });
    const file = await s.exportFile('chargereportexport', { charger_id: pile.id, ...range }, admin);
    ok(file);
    expect(file.data.filename).toMatch(/^充电报表_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(['日期', '充电桩', '订单数', '电量(kWh)', '收入(元)']);
    const rows = sheet.rows.map((r) => r.values);
    expect(rows.at(-1)).toMatchObject({ 日期: '合计', 订单数: '2', '电量(kWh)': '14.000', '收入(元)': report.data.income });
    expect(rows.slice(0, -1)).toEqual(
      report.data.items.map((r: { day: string; charger_title: string }) =>
        expect.objectContaining({ 日期: r.day, 充电桩: r.charger_title }),
      ),
    );
    const refused = await s.call('chargereportexport', { start_date: '2024-01-01', end_date: '2025-06-01' }, admin);
    expect(refused).toMatchObject({ return_code: 'FAIL', return_msg: '日期范围不能超过一年' });
  });

  it('chargereportlist reads the kept day totals, which agree with the settled sessions row for row', async () => {
    // one session checked back (待核对 → 已核对 at another amount) and one failed after it ran: the totals follow
    const [a, b] = await s.database.db
      .selectFrom('charge_orders')
      .select(['id', 'amount'])
      .where('rid', '=', 1)
      .where('state', '=', 'done')
      .orderBy('id')
      .limit(2)
      .execute();
    await s.database.db
      .updateTable('charge_orders')
      .set({ state: 'checked', amount: '0.01' })
      .where('rid', '=', 1)
      .where('id', '=', a!.id)
      .execute();
    await s.database.db.updateTable('charge_orders').set({ state: 'failed' }).where('rid', '=', 1).where('id', '=', b!.id).execute();
    const range = { start_date: addDays(today(), -364), end_date: addDays(today(), 1) };
    const report = await s.call('chargereportlist', range, admin);
    ok(report);
    const direct = await sql<{ day: string; charger_id: string; sessions: number; wh: string; income: string }>`
      SELECT to_char(end_at, 'YYYY-MM-DD') AS day, charger_id, count(*)::int AS sessions,
        coalesce(sum(end_wh - start_wh), 0)::bigint AS wh, coalesce(sum(amount), 0)::numeric(14,2)::text AS income
      FROM charge_orders WHERE rid = 1 AND state IN ('done', 'check', 'checked')
        AND end_at >= ${range.start_date}::date AND end_at < ${range.end_date}::date + 1
      GROUP BY 1, 2 ORDER BY 1 DESC, 2`.execute(s.database.db);
    expect(direct.rows.length).toBeGreaterThan(0);
    expect((report.data.items as ChargeReportRow[]).map((r) => [r.day, r.charger_id, r.sessions, r.energy_kwh, r.income])).toEqual(
      direct.rows.map((r) => [r.day, Number(r.charger_id), r.sessions, (Number(r.wh) / 1000).toFixed(3), r.income]),
    );
  });
});
