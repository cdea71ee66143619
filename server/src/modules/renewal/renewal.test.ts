import { addMonths, MSG, RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today } from '../../lib/wire.js';
import { demoActivationCodes } from '../../db/seed.js';
import { BAD_ACT_CODE } from './methods.js';

let s: TestServer;
let expired: string;
beforeAll(async () => {
  s = await startTestServer();
  expired = await s.login('expired');
});
afterAll(() => s.close());

const endOf = async (rid: number) =>
  (await s.database.db.selectFrom('regions').select('end_time').where('id', '=', rid).executeTakeFirstOrThrow()).end_time;

describe('renewal by QR payment', () => {
  it('creates an order at the price per year and reports it unpaid until the sandbox settles it', async () => {
    const order = await s.call('get_region_delay_pay', { years: 2 }, expired);
    expect(order.return_code).toBe(RC.SUCCESS);
    const { orderid, total_fee, payparam } = order.data.items;
    expect(total_fee).toBe('2400.00');
    // the provider's pay page, by its own key: never by our order id
    const payPath = new URL(payparam.code_url).pathname;
    expect(payPath).toMatch(/^\/sandbox-pay\/[A-Za-z0-9_-]{32}$/);
    expect(payPath).not.toContain(orderid);

    const unpaid = await s.call('pay_query', { orderid, pay_type: '1' }, expired);
    expect(unpaid).toMatchObject({ return_code: RC.FAIL, return_msg: '订单尚未支付，请扫码完成支付' });

    const page = await s.app.fastify.inject({ url: payPath });
    expect(page.body).toContain('¥2400.00');
    const paid = await s.app.fastify.inject({
      method: 'POST',
      url: payPath,
      payload: 'amount=2400.00',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.body).toContain('支付成功');

    const expected = addMonths(today(), 24);
    const done = await s.call('pay_query', { orderid, pay_type: '1' }, expired);
    expect(done.return_code).toBe(RC.SUCCESS);
    expect(done.return_msg).toContain(expected);
    expect(await endOf(3)).toBe(expected);
    // the community works again
    expect((await s.call('backlog_list', {}, expired)).return_code).toBe(RC.SUCCESS);
  });

  it('extends only once however often the paid order is queried', async () => {
    const token = await s.login('cashier2');
    const before = await endOf(2);
    const { orderid } = (await s.call('get_region_delay_pay', { years: 1 }, token)).data.items;
    await s.services().sandbox!.settle(orderid);
    const answers = await Promise.all([1, 2, 3].map(() => s.call('pay_query', { orderid, pay_type: '1' }, token)));
    expect(answers.every((a) => a.return_code === RC.SUCCESS)).toBe(true);
    expect(await endOf(2)).toBe(addMonths(before, 12));
    const log = await s.database.db.selectFrom('region_delay_log').selectAll().where('ref', '=', orderid).execute();
    expect(log).toHaveLength(1);
  });

  it("cannot query another community's order", async () => {
    const admin = await s.login('admin');
    const cashier2 = await s.login('cashier2');
    const { orderid } = (await s.call('get_region_delay_pay', { years: 1 }, admin)).data.items;
    const res = await s.call('pay_query', { orderid, pay_type: '1' }, cashier2);
    expect(res).toMatchObject({ return_code: RC.FAIL, return_msg: '订单不存在' });
  });

  it('validates years and pay_type', async () => {
    expect((await s.call('get_region_delay_pay', { years: 0 }, expired)).return_code).toBe(RC.FAIL);
    expect((await s.call('pay_query', { orderid: 'x', pay_type: '2' }, expired)).return_msg).toContain('pay_type');
  });
});

describe('renewal by activation code', () => {
  it('extends by the code length, once per code', async () => {
    const token = await s.login('admin');
    const [code] = await demoActivationCodes(s.database.db);
    const before = await endOf(1);
    const res = await s.call('regiondelay_foractcode', { act_code: code }, token);
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(res.data.end_time).toBe(addMonths(before, 12));
    const again = await s.call('regiondelay_foractcode', { act_code: code }, token);
    expect(again).toMatchObject({ return_code: RC.FAIL, return_msg: BAD_ACT_CODE });
    expect(await endOf(1)).toBe(addMonths(before, 12));
  });

  it('refuses an unknown code and asks for a missing one with the spec text', async () => {
    const token = await s.login('admin');
    expect((await s.call('regiondelay_foractcode', { act_code: 'NOPE' }, token)).return_msg).toBe(BAD_ACT_CODE);
    expect((await s.call('regiondelay_foractcode', { act_code: '' }, token)).return_msg).toBe(MSG.actCodeRequired);
    expect((await s.call('regiondelay_foractcode', {}, token)).return_msg).toBe(MSG.actCodeRequired);
  });
});
