import { addDays, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../lib/wire.js';
import { ok, refused } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { parseWire, priceStay } from './tempFee.js';

let s: TestServer;
let admin: string;
let admin2: string;
let parker: string;
let steward: string;
let lot: number;
let otherLot: number;

const db = () => s.database.db;

/** The journey's standard: free 15 min, first hour ¥5, then ¥2 per 30 min, cap ¥30 per 24 h. */
const RULE = { free_minutes: 15, first_minutes: 60, first_price: '5', step_minutes: 30, step_price: '2', cap_amount: '30' };

beforeAll(async () => {
  s = await startTestServer();
  await s.addAccount('parker', { roles: ['carpark'], regions: [1], name: '停车管理员' });
  [admin, admin2, parker, steward] = await s.logins('admin', 'admin2', 'parker', 'steward');
  lot = (await db().insertInto('parking_lots').values({ rid: 1, title: '测试收费停车场' }).returning('id').executeTakeFirstOrThrow()).id;
  otherLot = (await db().insertInto('parking_lots').values({ rid: 2, title: '别的小区停车场' }).returning('id').executeTakeFirstOrThrow())
    .id;
});
afterAll(() => s?.close());

describe('temporary-car fee standards', () => {
  let id = 0;

  it('adds a standard per lot and car kind, refusing a second one and another community’s lot', async () => {
    id = ok(await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'small', ...RULE }, parker)).id;
    refused(await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'small', ...RULE }, parker), '已有小型车的收费标准');
    refused(await s.call('tempfeeconfigadd', { lot_id: otherLot, car_type: 'small', ...RULE }, parker), '停车场不存在');
    const list = ok(await s.call('tempfeeconfiglist', { lot_id: lot }, parker));
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id,
      lot_title: '测试收费停车场',
      car_type_ch: '小型车',
      first_price: '5.00',
      step_price: '2.00',
      cap_amount: '30.00',
      // with bands off the off-peak prices are the day's
      off_first_price: '5.00',
      version_count: 1,
      summary: '免费15分钟；首60分钟5.00元，之后每30分钟2.00元；24小时封顶30.00元',
    });
    expect(ok(await s.call('tempfeeconfiglist', { car_type: 'large', lot_id: lot }, parker)).total).toBe(0);
  });

  it('refuses bad payloads with a clear message', async () => {
    refused(await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'large', ...RULE, first_price: '-1' }, parker), '金额格式不正确');
    refused(await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'large', ...RULE, first_minutes: 0 }, parker), 'first_minutes');
    refused(
      await s.call(
        'tempfeeconfigadd',
        { lot_id: lot, car_type: 'large', ...RULE, band: 'Y', peak_start: '08:00', peak_end: '08:00' },
        parker,
      ),
      '开始和结束不能相同',
    );
    refused(await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'large', ...RULE, peak_start: '25:00' }, parker), 'HH:mm');
    refused(await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'bus', ...RULE }, parker), '车辆类型');
    expect(ok(await s.call('tempfeeconfiglist', { lot_id: lot }, parker)).total).toBe(1);
  });

  it('an edit adds a version; old versions stay readable and a stay keeps the version in force at its entry', async () => {
    // make the first version start yesterday, so a stay that entered before the edit has one in force
    await sql`UPDATE parking_fee_versions SET effective_from = now() - interval '1 day' WHERE rid = 1 AND standard_id = ${id}`.execute(
      db(),
    );
    const before = new Date(Date.now() - 3 * 3600_000);
    const edited = ok(await s.call('tempfeeconfigedit', { id, ...RULE, first_price: '8', remark: '涨价' }, parker));
    expect(edited.id).toBe(id);
    const info = ok(await s.call('tempfeeconfiginfo', { id }, parker));
    expect(info.versions).toHaveLength(2);
    expect(info.versions[0]).toMatchObject({ id: edited.version_id, first_price: '8.00', current: true, remark: '涨价' });
    expect(info.versions[1]).toMatchObject({ first_price: '5.00', current: false });
    expect(info.first_price).toBe('8.00');

    // a stay that entered 3 hours ago is priced with the first version, one entering now with the new one
    const old = await priceStay(db(), {
      rid: 1,
      lotId: lot,
      carType: 'small',
      entry: before,
      exit: new Date(before.getTime() + 130 * 60_000),
    });
    expect(old).toMatchObject({ version_id: info.versions[1].id, due: '11.00', normal: '5.00', over: '6.00' });
    const now = new Date();
    const fresh = await priceStay(db(), { rid: 1, lotId: lot, carType: 'small', entry: now, exit: new Date(now.getTime() + 130 * 60_000) });
    expect(fresh).toMatchObject({ version_id: edited.version_id, due: '14.00' });
    // a second payment of a stay owes only the rest
    const again = await priceStay(db(), {
      rid: 1,
      lotId: lot,
      carType: 'small',
      entry: now,
      exit: new Date(now.getTime() + 130 * 60_000),
      paidBefore: '10.00',
    });
    expect(again).toMatchObject({ due: '4.00', paid: '10.00' });
  });

  it('a version may start later but never in the past nor before the latest', async () => {
    refused(await s.call('tempfeeconfigedit', { id, ...RULE, effective_from: '2020-01-01 00:00:00' }, parker), '生效时间不能早于现在');
    const later = ok(await s.call('tempfeeconfigedit', { id, ...RULE, first_price: '9', effective_from: '2099-01-01 00:00:00' }, parker));
    refused(await s.call('tempfeeconfigedit', { id, ...RULE, effective_from: '2098-01-01 00:00:00' }, parker), '须晚于最新版本');
    const item = ok(await s.call('tempfeeconfiglist', { lot_id: lot }, parker)).items[0];
    expect(item).toMatchObject({ first_price: '8.00', version_count: 3, next_from: '2099-01-01 00:00:00' });
    const stay = await priceStay(db(), {
      rid: 1,
      lotId: lot,
      carType: 'small',
      entry: parseWire('2099-01-02 09:00:00'),
      exit: parseWire('2099-01-02 09:30:00'),
    });
    expect(stay).toMatchObject({ version_id: later.version_id, due: '9.00', version_from: '2099-01-01 00:00:00' });
  });

  it('the calculator prices with the version in force at the entry, with the lot’s coupons', async () => {
    const c30 = ok(
      await s.call('parkcouponadd', { lot_id: lot, title: '试算减30分钟', kind: 'minutes', minutes: 30, price: '1' }, admin),
    ).id;
    const day = addDays(today(), 1);
    const calc = (more: Record<string, unknown> = {}) =>
      s.call(
        'tempfeecalc',
        { lot_id: lot, car_type: 'small', entry_time: `${day} 09:00:00`, exit_time: `${day} 11:10:00`, ...more },
        parker,
      );
    // tomorrow the version made today is in force (first hour ¥8); yesterday the first (¥5)
    expect(ok(await calc())).toMatchObject({ due: '14.00', normal: '8.00', over: '6.00', free_minutes: 0, duration_minutes: 130 });
    const yesterday = addDays(today(), -1);
    expect(ok(await calc({ entry_time: `${yesterday} 09:00:00`, exit_time: `${yesterday} 11:10:00` })).due).toBe('11.00');
    const withCoupon = ok(await calc({ coupon_ids: [c30] }));
    expect(withCoupon).toMatchObject({ due: '12.00', coupon_minutes: 30, coupon_titles: ['试算减30分钟'] });
    expect(withCoupon.coupons[0]).toMatchObject({ kind: 'minutes', effect: '2.00', minutes: 30 });
    refused(await calc({ exit_time: `${day} 08:00:00` }), '出场时间不能早于入场时间');
    refused(await calc({ car_type: 'large' }), '未配置大型车');
    refused(await calc({ entry_time: '2026-02-30 09:00:00' }), '时间不存在');
    const otherCoupon = (
      await db()
        .insertInto('parking_coupons')
        .values({ rid: 2, lot_id: otherLot, title: '别处的券', kind: 'free', price: '1' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    refused(await calc({ coupon_ids: [otherCoupon] }), '不属于该停车场');
  });

  it('is refused to roles without carpark and to another community', async () => {
    expect((await s.call('tempfeeconfiglist', {}, steward)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('tempfeeconfigadd', { lot_id: lot, car_type: 'large', ...RULE }, steward)).return_code).toBe(RC.NO_PERMISSION);
    refused(await s.call('tempfeeconfiginfo', { id }, admin2), '不存在');
    refused(await s.call('tempfeeconfigedit', { id, ...RULE }, admin2), '不存在');
    refused(await s.call('tempfeeconfigdel', { id }, admin2), '不存在');
    refused(
      await s.call(
        'tempfeecalc',
        { lot_id: lot, car_type: 'small', entry_time: '2026-12-01 09:00:00', exit_time: '2026-12-01 11:10:00' },
        admin2,
      ),
      '停车场不存在',
    );
    expect(ok(await s.call('tempfeeconfiglist', { lot_id: lot }, admin2)).total).toBe(0);
  });

  it('deletes a standard with its versions', async () => {
    ok(await s.call('tempfeeconfigdel', { id }, admin));
    refused(await s.call('tempfeeconfiginfo', { id }, admin), '不存在');
    const left = await db().selectFrom('parking_fee_versions').select('id').where('standard_id', '=', id).execute();
    expect(left).toHaveLength(0);
  });
});

describe('the demo', () => {
  it('has a standard per kind on the first two lots, each with an old version and the current one', async () => {
    const lots = await db().selectFrom('parking_lots').select('id').where('rid', '=', 1).orderBy('id').limit(2).execute();
    const items = ok(await s.call('tempfeeconfiglist', { limit: 50 }, admin)).items.filter((r: { lot_id: number }) =>
      lots.some((l) => l.id === r.lot_id),
    );
    expect(items).toHaveLength(6);
    for (const r of items) expect(r.version_count).toBe(2);
    expect(items.some((r: { band: string }) => r.band === 'Y')).toBe(true);
    const given = ok(await s.call('receivelist', { limit: 50 }, admin)).items as Array<{ state: string }>;
    expect(new Set(given.map((g) => g.state))).toEqual(new Set(['G', 'U', 'V', 'E']));
  });
});
