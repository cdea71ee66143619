import { RC, addDays, formatWireTime } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';
import { decideAtLane, type LaneFacts } from './gateDecision.js';

let s: TestServer;
let parking: string;
let guard: string;
let steward: string;
let lot: number;
let booth: number;
let laneIn: number;
let laneOut: number;
let hid: number;

const db = () => s.database.db;
/** Wire time of now plus `minutes` (the gate simulator's clock). */
const at = (minutes: number, base = Date.now()) => formatWireTime(new Date(base + minutes * 60_000));
let seq = 0;
const key = () => `gate-test-${Date.now()}-${++seq}`;

beforeAll(async () => {
  s = await startTestServer();
  [parking, guard, steward] = await s.logins('parking', 'guard', 'steward');
  lot = ok(
    await s.call(
      'carparkadd',
      {
        code: 'T9',
        title: '道闸测试停车场',
        ground: 'U',
        total_spaces: 50,
        grace_days: 2,
        leave_minutes: 15,
        warn_days: 7,
        price_small: '300',
      },
      parking,
    ),
  ).id;
  booth = ok(await s.call('parkingboothadd', { lot_id: lot, title: '测试岗亭', reenter: 'Y', exit_no_entry: 'N' }, parking)).id;
  laneIn = ok(await s.call('parkinglaneadd', { booth_id: booth, code: 'T9-IN', title: '测试入口', direction: 'I' }, parking)).id;
  laneOut = ok(await s.call('parkinglaneadd', { booth_id: booth, code: 'T9-OUT', title: '测试出口', direction: 'O' }, parking)).id;
  // free 15 minutes; the first hour 5 yuan, then every 30 minutes 2 yuan; 30 yuan a day at most
  ok(
    await s.call(
      'tempfeeconfigadd',
      {
        lot_id: lot,
        car_type: 'small',
        free_minutes: 15,
        first_minutes: 60,
        first_price: '5',
        step_minutes: 30,
        step_price: '2',
        cap_amount: '30',
      },
      parking,
    ),
  );
  hid = (await db().selectFrom('rooms').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => s?.close());

const monthlyCar = async (plate: string, endDate: string) =>
  db()
    .insertInto('cars')
    .values({ rid: 1, hid, carlicense: plate, lot_id: lot, lease_type: 'M', start_date: addDays(today(), -60), end_date: endDate })
    .execute();

const event = (lane: number, plate: string, when?: string, token = guard) => s.call('gateevent', { lane_id: lane, plate, at: when }, token);

describe('the lane decision order (pure)', () => {
  const base: LaneFacts = {
    direction: 'I',
    allow_temp: 'Y',
    temp_confirm: 'N',
    collects_fee: 'Y',
    reenter: 'Y',
    exit_no_entry: 'N',
    grace_days: 2,
    warn_days: 7,
    leave_minutes: 15,
    list: null,
    lease: null,
    stay: null,
  };
  const now = new Date('2026-11-29T04:00:00Z');
  const day = '2026-11-29';
  it('puts the black list first and the white list before everything else', () => {
    expect(decideAtLane({ ...base, list: 'B', lease: { lease: 'M', end_date: '2027-01-01' } }, day, now)).toMatchObject({
      decision: 'refuse',
      reason: 'black',
    });
    expect(decideAtLane({ ...base, list: 'W', stay: { state: 'I', paid_at: null }, reenter: 'N' }, day, now)).toMatchObject({
      decision: 'open',
      reason: 'white',
    });
    expect(decideAtLane({ ...base, direction: 'O', list: 'B', stay: { state: 'I', paid_at: null } }, day, now)).toMatchObject({
      decision: 'price',
    });
  });
  it('refuses a car already inside unless the booth lets it enter again', () => {
    const inside = { ...base, stay: { state: 'I' as const, paid_at: null } };
    expect(decideAtLane({ ...inside, reenter: 'N' }, day, now)).toMatchObject({ decision: 'refuse', reason: 'inside' });
    expect(decideAtLane(inside, day, now)).toMatchObject({ decision: 'open', reason: 'temp' });
  });
  it('lets monthly cars through while valid or within grace, lets an expired one in and keeps it in', () => {
    const m = (end: string, direction: 'I' | 'O' = 'I') =>
      decideAtLane({ ...base, direction, lease: { lease: 'M', end_date: end } }, day, now);
    expect(m('2027-01-30')).toMatchObject({ decision: 'open', reason: 'monthly', text: 'monthly_in', days_left: 62 });
    expect(m('2026-12-03')).toMatchObject({ decision: 'open', reason: 'monthly', text: 'monthly_expiring', days_left: 4 });
    expect(m('2026-11-27', 'O')).toMatchObject({ decision: 'open', reason: 'monthly', days_left: -2 });
    expect(m('2026-11-26')).toMatchObject({ decision: 'open', reason: 'monthly_expired', text: 'monthly_expired' });
    expect(m('2026-11-26', 'O')).toMatchObject({ decision: 'refuse', reason: 'monthly_expired' });
  });
  it('applies the booth rules to temporary cars', () => {
    expect(decideAtLane({ ...base, allow_temp: 'N' }, day, now)).toMatchObject({ decision: 'refuse', reason: 'temp_denied' });
    expect(decideAtLane({ ...base, temp_confirm: 'Y' }, day, now)).toMatchObject({ decision: 'wait', reason: 'temp_confirm' });
    const out = { ...base, direction: 'O' as const };
    expect(decideAtLane(out, day, now)).toMatchObject({ decision: 'refuse', reason: 'no_entry' });
    expect(decideAtLane({ ...out, exit_no_entry: 'Y' }, day, now)).toMatchObject({ decision: 'open', reason: 'no_entry' });
    const paid = { ...out, stay: { state: 'P' as const, paid_at: new Date(now.getTime() - 10 * 60_000) } };
    expect(decideAtLane(paid, day, now)).toMatchObject({ decision: 'open', reason: 'paid' });
    expect(decideAtLane({ ...paid, leave_minutes: 5 }, day, now)).toMatchObject({ decision: 'price', from_payment: true });
    expect(decideAtLane({ ...out, stay: { state: 'I', paid_at: null }, collects_fee: 'N' }, day, now)).toMatchObject({
      decision: 'open',
      reason: 'no_fee_booth',
    });
  });
});

describe('entries and exits through the simulator', () => {
  it('lets a monthly car in and out free, with the lot texts', async () => {
    await monthlyCar('沪G10001', addDays(today(), 90));
    const inn = ok(await event(laneIn, '沪G10001'));
    expect(inn).toMatchObject({ decision: 'open', reason: 'monthly', car_type: '月租车', days_left: 90 });
    expect(inn.content).toContain('剩余 90 天');
    const out = ok(await event(laneOut, '沪G10001', at(30)));
    expect(out).toMatchObject({ decision: 'open', reason: 'monthly', stay_id: inn.stay_id, due: '0.00' });
    const row = await db().selectFrom('parking_records').selectAll().where('id', '=', inn.stay_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'O', entry_reason: 'monthly', exit_reason: 'monthly', outlane: '测试出口', car_type: '月租车' });
  });

  it('prices a temporary stay of 2 h 10 min by the standard, takes cash at the exit and opens', async () => {
    const start = Date.now() - 130 * 60_000;
    const inn = ok(await event(laneIn, '沪G20002', at(0, start)));
    expect(inn).toMatchObject({ decision: 'open', reason: 'temp', car_type: '临时车' });
    const out = ok(await event(laneOut, '沪G20002', at(130, start)));
    // 5 for the first hour, then 70 minutes: three started steps of 2
    expect(out).toMatchObject({ decision: 'pay', reason: 'unpaid', due: '11.00', stay_id: inn.stay_id });
    expect(out.content).toContain('11.00');
    expect(out.breakdown).toMatchObject({ duration_minutes: 130, normal: '5.00', over: '6.00', due: '11.00' });
    refused(
      await s.call('staypay', { id: inn.stay_id, at: at(130, start), amount: '10.00', lane_id: laneOut, idempotency_key: key() }, guard),
      '停车费已变为 11.00 元',
    );
    const k = key();
    const paid = ok(
      await s.call('staypay', { id: inn.stay_id, at: at(130, start), amount: '11.00', lane_id: laneOut, idempotency_key: k }, guard),
    );
    expect(paid).toMatchObject({ amount: '11.00', state: 'O', exit: { decision: 'open', reason: 'paid' } });
    // a retry of the same payment answers it again and takes nothing more
    expect(ok(await s.call('staypay', { id: inn.stay_id, at: at(130, start), amount: '11.00', idempotency_key: k }, guard))).toMatchObject({
      payment_id: paid.payment_id,
    });
    const admin = await s.login('admin');
    const receipt = ok(await s.call('paymentinfo', { id: paid.payment_id }, admin));
    expect(receipt).toMatchObject({
      hid: null,
      payer_name: '沪G20002',
      paid_amount: '11.00',
      pay_type: 'cash',
      address: '临时停车 沪G20002',
    });
    expect(receipt.items).toEqual([expect.objectContaining({ bill_id: null, title: '临时停车费', fee: '11.00' })]);
    const line = await db()
      .selectFrom('fee_payment_items')
      .select('cost_type')
      .where('payment_id', '=', paid.payment_id)
      .executeTakeFirstOrThrow();
    expect(line.cost_type).toBe('temp_parking');
    const stay = ok(await s.call('carinoutinfo', { id: inn.stay_id }, parking));
    expect(stay).toMatchObject({ state: 'O', total_fee: '11.00', pay_fee: '11.00', exit_reason: 'paid', minutes: 130 });
    expect(stay.breakdown).toMatchObject({ paid: '11.00', due: '0.00' });
    expect(stay.receipts).toHaveLength(1);
    expect(stay.events.map((e: { decision: string }) => e.decision)).toEqual(['open', 'pay', 'open']);
    // the receipt may be neither voided nor refunded at the counter
    refused(await s.call('paymentvoid', { id: paid.payment_id, reason: '测试' }, admin), '临时停车费收据不能作废或退款');
  });

  it('lets a stay paid inside leave within the window, and bills it again from the payment after it', async () => {
    const start = Date.now() - 200 * 60_000;
    const inn = ok(await event(laneIn, '沪G30003', at(0, start)));
    const quote = ok(await s.call('stayquote', { id: inn.stay_id, at: at(100, start) }, guard));
    expect(quote).toMatchObject({ due: '9.00', reason: 'unpaid' });
    ok(await s.call('staypay', { id: inn.stay_id, at: at(100, start), amount: '9.00', idempotency_key: key() }, guard));
    refused(await s.call('staypay', { id: inn.stay_id, at: at(105, start), amount: '9.00', idempotency_key: key() }, guard), '已缴费');
    expect(ok(await event(laneOut, '沪G30003', at(110, start)))).toMatchObject({ decision: 'open', reason: 'paid' });

    const again = ok(await event(laneIn, '沪G30004', at(0, start)));
    ok(await s.call('staypay', { id: again.stay_id, at: at(100, start), amount: '9.00', idempotency_key: key() }, guard));
    // 90 minutes after paying: billed from the payment, 5 for the first hour and one step
    const late = ok(await event(laneOut, '沪G30004', at(190, start)));
    expect(late).toMatchObject({ decision: 'pay', due: '7.00' });
    expect(late.breakdown.from).toBe(at(100, start));
  });

  it('lets an expired monthly car in with the text and refuses it at the exit until renewed', async () => {
    await monthlyCar('沪G40005', addDays(today(), -10));
    const inn = ok(await event(laneIn, '沪G40005'));
    expect(inn).toMatchObject({ decision: 'open', reason: 'monthly_expired', days_left: -10 });
    expect(inn.content).toContain('月租已过期');
    const out = ok(await event(laneOut, '沪G40005', at(5)));
    expect(out).toMatchObject({ decision: 'refuse', reason: 'monthly_expired' });
    const car = await db().selectFrom('cars').select('id').where('carlicense', '=', '沪G40005').executeTakeFirstOrThrow();
    ok(await s.call('moncarrenew', { id: car.id, months: 1, pay_type: 'cash', amount: '300.00' }, parking));
    expect(ok(await event(laneOut, '沪G40005', at(6)))).toMatchObject({ decision: 'open', reason: 'monthly' });
  });

  it('takes a merchant coupon of 30 minutes off at the exit and uses it up', async () => {
    const admin = await s.login('admin');
    const coupon = ok(
      await s.call('parkcouponadd', { lot_id: lot, title: '道闸减30分钟', kind: 'minutes', minutes: 30, price: '1' }, admin),
    ).id;
    const shop = (await db().insertInto('merchants').values({ rid: 1, merchant: '道闸测试商户' }).returning('id').executeTakeFirstOrThrow())
      .id;
    ok(await s.call('parkcouponorderadd', { merchant_id: shop, coupon_id: coupon, quantity: 2, pay_type: 'cash' }, admin));
    const start = Date.now() - 130 * 60_000;
    const inn = ok(await event(laneIn, '沪G50006', at(0, start)));
    const given = ok(await s.call('parkcoupongive', { merchant_id: shop, coupon_id: coupon, carlicense: '沪G50006' }, admin));
    // the exit comes after the giving (a coupon is valid from when it is given)
    const out = ok(await event(laneOut, '沪G50006', at(131, start)));
    // 100 minutes billed: 5 and two steps
    expect(out).toMatchObject({ decision: 'pay', due: '9.00' });
    expect(out.breakdown).toMatchObject({ coupon_minutes: 30, billed_minutes: 101, given_ids: [given.id] });
    ok(await s.call('staypay', { id: inn.stay_id, at: at(131, start), amount: '9.00', lane_id: laneOut, idempotency_key: key() }, guard));
    const used = await db().selectFrom('parking_coupon_given').selectAll().where('id', '=', given.id).executeTakeFirstOrThrow();
    expect(used).toMatchObject({ state: 'U', used_ref: `stay:${inn.stay_id}` });
  });

  it('opens free within the free minutes and for a lot kind without a standard', async () => {
    const start = Date.now() - 20 * 60_000;
    ok(await event(laneIn, '沪G60007', at(0, start)));
    expect(ok(await event(laneOut, '沪G60007', at(15, start)))).toMatchObject({ decision: 'open', reason: 'free_minutes' });
    // a new-energy plate: the lot has no standard for its kind
    ok(await event(laneIn, '沪GD12345', at(0, start)));
    expect(ok(await event(laneOut, '沪GD12345', at(20, start)))).toMatchObject({ decision: 'open', reason: 'no_standard' });
  });

  it('prices a yellow plate as a large car by the colour the camera read, kept from entry to exit', async () => {
    const admin = await s.login('admin');
    const lotL = ok(await s.call('carparkadd', { code: 'T8', title: '大车测试停车场', ground: 'A', total_spaces: 10 }, admin)).id;
    const boothL = ok(await s.call('parkingboothadd', { lot_id: lotL, title: '大车岗亭' }, admin)).id;
    const inL = ok(await s.call('parkinglaneadd', { booth_id: boothL, code: 'T8-IN', title: '大车入口', direction: 'I' }, admin)).id;
    const outL = ok(await s.call('parkinglaneadd', { booth_id: boothL, code: 'T8-OUT', title: '大车出口', direction: 'O' }, admin)).id;
    const standard = { lot_id: lotL, free_minutes: 0, first_minutes: 60, step_minutes: 60, cap_amount: '100' };
    ok(await s.call('tempfeeconfigadd', { ...standard, car_type: 'small', first_price: '5', step_price: '5' }, admin));
    ok(await s.call('tempfeeconfigadd', { ...standard, car_type: 'large', first_price: '10', step_price: '10' }, admin));
    const start = Date.now() - 90 * 60_000;
    const seen = (lane: number, plate: string, plate_color: string, minutes: number) =>
      s.call('gateevent', { lane_id: lane, plate, plate_color, at: at(minutes, start) }, guard);
    ok(await seen(inL, '沪G70008', 'yellow', 0));
    // the exit camera reads no colour: the stay keeps the kind it entered with
    expect(ok(await seen(outL, '沪G70008', '', 90))).toMatchObject({ decision: 'pay', due: '20.00' });
    ok(await seen(inL, '沪G70009', 'blue', 0));
    expect(ok(await seen(outL, '沪G70009', '', 90))).toMatchObject({ decision: 'pay', due: '10.00' });
    const kinds = await db()
      .selectFrom('parking_records')
      .select(['carno', 'car_kind'])
      .where('lot_id', '=', lotL)
      .orderBy('carno')
      .execute();
    expect(kinds).toEqual([
      { carno: '沪G70008', car_kind: 'large' },
      { carno: '沪G70009', car_kind: 'small' },
    ]);
    refused(await seen(inL, '沪G70010', 'purple', 0), '车牌颜色取值不正确');
  });

  it('pays by QR in the sandbox, and the gate opens once the provider says so', async () => {
    const start = Date.now() - 70 * 60_000;
    const inn = ok(await event(laneIn, '沪G70008', at(0, start)));
    const out = ok(await event(laneOut, '沪G70008', at(70, start)));
    expect(out.due).toBe('7.00');
    const qr = ok(await s.call('staypayqr', { id: inn.stay_id, at: at(70, start), amount: '7.00', lane_id: laneOut }, guard));
    expect(ok(await s.call('staypayquery', { orderid: qr.orderid }, guard))).toMatchObject({ status: 'W', paid: null });
    const payPath = new URL(qr.code_url).pathname;
    await s.app.fastify.inject({
      method: 'POST',
      url: payPath,
      payload: 'amount=7.00',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const done = ok(await s.call('staypayquery', { orderid: qr.orderid }, guard));
    expect(done).toMatchObject({ status: 'Y', paid: { amount: '7.00', state: 'O', exit: { decision: 'open', reason: 'paid' } } });
    expect(ok(await s.call('staypayquery', { orderid: qr.orderid }, guard))).toMatchObject({ status: 'Y' });
    const receipts = await db()
      .selectFrom('fee_payments')
      .select(['pay_type', 'cashier_name'])
      .where('stay_id', '=', inn.stay_id)
      .execute();
    expect(receipts).toEqual([{ pay_type: 'wechat', cashier_name: '周保安' }]);
  });

  it("takes the QR code through the group's 收银台扫码 channel (支付渠道): off or on a provider not running, it says why and makes no order", async () => {
    const leader = await s.login('leader');
    const channel = async (payload: Record<string, unknown>) =>
      ok(await s.call('setchanneledit', { scene: 'cashier_qr', ...payload }, leader, 'group'));
    const start = Date.now() - 70 * 60_000;
    const inn = ok(await event(laneIn, '沪G70018', at(0, start)));
    const orders = () => db().selectFrom('parking_pay_orders').select('orderid').where('stay_id', '=', inn.stay_id).execute();
    const qr = (payload = {}) => s.call('staypayqr', { id: inn.stay_id, at: at(70, start), amount: '7.00', ...payload }, guard);
    // an order made while the server's provider (the sandbox) pays the scene
    const made = ok(await qr());
    try {
      await channel({ provider: 'sandbox', enabled: 'N' });
      refused(await qr(), '集团已停用“收银台扫码”的在线支付，请收取现金');
      // 支付宝 chosen (the group has its merchant) but this server runs no Alipay provider
      await channel({ provider: 'alipay', enabled: 'Y' });
      refused(await qr(), '“收银台扫码”选用的支付宝渠道尚未开通，请收取现金');
      expect(await orders()).toEqual([{ orderid: made.orderid }]);
      // the order made before settles through the provider that took it
      await s.services().sandbox!.settle(made.orderid);
      expect(ok(await s.call('staypayquery', { orderid: made.orderid }, guard))).toMatchObject({ status: 'Y' });
    } finally {
      await s.database.db.deleteFrom('pay_channels').where('scene', '=', 'cashier_qr').execute();
    }
  });

  it('refuses black-listed cars, lets white-listed ones pass, and handles re-entry by the booth rule', async () => {
    const d = today();
    await db()
      .insertInto('parking_lists')
      .values([
        { rid: 1, lot_id: lot, carlicense: '沪G80009', kind: 'B', start_date: d, end_date: d },
        { rid: 1, lot_id: lot, carlicense: '沪G80010', kind: 'W', start_date: d, end_date: d },
      ])
      .execute();
    expect(ok(await event(laneIn, '沪G80009'))).toMatchObject({ decision: 'refuse', reason: 'black' });
    expect(await db().selectFrom('parking_records').select('id').where('carno', '=', '沪G80009').execute()).toEqual([]);
    expect(ok(await event(laneIn, '沪G80010'))).toMatchObject({ decision: 'open', reason: 'white', car_type: '白名单车' });
    expect(ok(await event(laneOut, '沪G80010', at(1)))).toMatchObject({ decision: 'open', reason: 'white', due: '0.00' });

    const first = ok(await event(laneIn, '沪G80011'));
    const second = ok(await event(laneIn, '沪G80011', at(1)));
    expect(second.stay_id).not.toBe(first.stay_id);
    const old = await db()
      .selectFrom('parking_records')
      .select(['state', 'exit_reason'])
      .where('id', '=', first.stay_id)
      .executeTakeFirstOrThrow();
    expect(old).toEqual({ state: 'O', exit_reason: 'reenter' });
    ok(await s.call('parkingboothedit', { id: booth, lot_id: lot, title: '测试岗亭', reenter: 'N', exit_no_entry: 'N' }, parking));
    expect(ok(await event(laneIn, '沪G80011', at(2)))).toMatchObject({ decision: 'refuse', reason: 'inside' });
    ok(await s.call('parkingboothedit', { id: booth, lot_id: lot, title: '测试岗亭', reenter: 'Y', exit_no_entry: 'N' }, parking));
  });

  it('opens by hand with a note, keeps what the stay owed, and counts it on the console', async () => {
    const start = Date.now() - 90 * 60_000;
    const inn = ok(await event(laneIn, '沪G90012', at(0, start)));
    refused(await s.call('gatemanualopen', { lane_id: laneOut, plate: '沪G90012', note: '' }, guard), '请填写人工放行原因');
    const open = ok(
      await s.call('gatemanualopen', { lane_id: laneOut, plate: '沪G90012', at: at(90, start), note: '车主忘带手机，次日补缴' }, guard),
    );
    expect(open).toMatchObject({ decision: 'open', reason: 'manual', due: '7.00', stay_id: inn.stay_id });
    const row = await db().selectFrom('parking_records').selectAll().where('id', '=', inn.stay_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      state: 'O',
      exit_reason: 'manual',
      manual_by_name: '周保安',
      manual_note: '车主忘带手机，次日补缴',
      total_fee: '7.00',
      pay_fee: '0.00',
    });
    const console = ok(await s.call('boothconsole', { booth_id: booth }, guard));
    expect(console.manual_today).toBeGreaterThanOrEqual(1);
    expect(console.lanes.map((l: { title: string }) => l.title)).toEqual(['测试入口', '测试出口']);
    const manual = ok(await s.call('gateeventlist', { booth_id: booth, reason: 'manual' }, guard));
    expect(manual.items[0]).toMatchObject({ plate: '沪G90012', operator: '周保安', decision: 'open' });
  });

  it('corrects a misread plate on a stay inside, keeping what the camera read', async () => {
    const inn = ok(await event(laneIn, '沪G00013'));
    await monthlyCar('沪G00014', addDays(today(), 30));
    refused(await s.call('stayplatefix', { id: inn.stay_id, plate: '沪G00013' }, guard), '车牌未改变');
    ok(await s.call('stayplatefix', { id: inn.stay_id, plate: '沪G00014' }, guard));
    const row = await db().selectFrom('parking_records').selectAll().where('id', '=', inn.stay_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ carno: '沪G00014', read_plate: '沪G00013', car_type: '月租车', entry_reason: 'monthly' });
    expect(ok(await event(laneOut, '沪G00014', at(200)))).toMatchObject({ decision: 'open', reason: 'monthly', stay_id: inn.stay_id });
  });

  it('lists stays and the cars inside with their filters, and the console figures', async () => {
    const inside = ok(await s.call('parkinginsidelist', { lot_id: lot }, guard));
    expect(inside.items.every((r: { state: string }) => r.state !== 'O')).toBe(true);
    const all = ok(await s.call('carinoutlist', { lot_id: lot, page: 1, limit: 100 }, parking));
    expect(all.total).toBeGreaterThan(10);
    const paid = ok(await s.call('carinoutlist', { lot_id: lot, reason: 'paid' }, parking));
    expect(paid.items.length).toBeGreaterThan(0);
    expect(
      paid.items.every((r: { exit_reason: string; entry_reason: string }) => r.exit_reason === 'paid' || r.entry_reason === 'paid'),
    ).toBe(true);
    const plate = ok(await s.call('carinoutlist', { carno: 'g20002' }, parking));
    expect(plate.items).toEqual([expect.objectContaining({ carno: '沪G20002', state_ch: '已离场', pay_fee: '11.00' })]);
    const monthly = ok(await s.call('carinoutlist', { lot_id: lot, car_type: '月租车', state: 'O' }, parking));
    expect(monthly.items.length).toBeGreaterThan(0);
    const console = ok(await s.call('boothconsole', { booth_id: booth }, guard));
    expect(console).toMatchObject({ lot_title: '道闸测试停车场', total_spaces: 50, inside: inside.total });
    // 11 + 9 + 9 (paid inside) + 9 (with the coupon) + 7 (by QR) + 7 (by QR, under the 支付渠道 test)
    expect(console).toMatchObject({ today_count: 6, today_amount: '52.00' });
    const file = await s.exportFile('carinoutexport', { lot_id: lot }, parking);
    expect(file.return_code).toBe(RC.SUCCESS);
  });

  it('beats the heart of a lane by its code', async () => {
    expect(ok(await s.call('gateheartbeat', { code: 'T9-IN' }, guard))).toMatchObject({ lane_id: laneIn, online: 'Y' });
    const console = ok(await s.call('boothconsole', { booth_id: booth }, guard));
    expect(console.lanes[0]).toMatchObject({ online: 'Y' });
    refused(await s.call('gateheartbeat', { code: 'NOPE' }, guard), '车道不存在');
  });
});

describe('what the gates refuse', () => {
  it('refuses callers without the parking or guard role', async () => {
    const a = await s.call('gateevent', { lane_id: laneIn, plate: '沪G11111' }, steward);
    expect(a.return_code).not.toBe(RC.SUCCESS);
    expect((await s.call('carinoutlist', {}, steward)).return_code).not.toBe(RC.SUCCESS);
  });
  it("refuses another community's lane and stay", async () => {
    const other = await db().selectFrom('parking_lots').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    const b = await db()
      .insertInto('parking_booths')
      .values({ rid: 2, lot_id: other.id, title: '别处岗亭' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const n = await db()
      .insertInto('devices')
      .values({ rid: 2, family: 'gate', booth_id: b.id, code: 'ELSE-IN', title: '别处入口', direction: 'in' })
      .returning('id')
      .executeTakeFirstOrThrow();
    refused(await event(n.id, '沪G11112'), '车道不存在');
    const stay = await db()
      .insertInto('parking_records')
      .values({ rid: 2, lot_id: other.id, carno: '沪G11113', intime: new Date(), state: 'I' })
      .returning('id')
      .executeTakeFirstOrThrow();
    refused(await s.call('stayquote', { id: stay.id }, guard), '停车记录不存在');
    refused(await s.call('staypay', { id: stay.id, amount: '1.00', idempotency_key: key() }, guard), '停车记录不存在');
    refused(await s.call('carinoutinfo', { id: stay.id }, parking), '停车记录不存在');
    refused(await s.call('boothconsole', { booth_id: b.id }, guard), '岗亭不存在');
  });
  it('refuses bad plates, times and amounts, changing nothing', async () => {
    const before = await db()
      .selectFrom('parking_gate_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    refused(await event(laneIn, 'ABC123'), '车牌号格式不正确');
    refused(await event(laneIn, '沪G22222', '2026-13-01 00:00:00'), /时间/);
    refused(await event(laneIn, '沪G22222', at(-8 * 1440)), '事件时间');
    const after = await db()
      .selectFrom('parking_gate_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const inn = ok(await event(laneIn, '沪G22223'));
    refused(await event(laneOut, '沪G22223', at(-60)), '出场时间早于入场时间');
    refused(await s.call('staypay', { id: inn.stay_id, amount: '-1', idempotency_key: key() }, guard), /金额/);
  });
});
