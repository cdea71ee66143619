import { addDays, centiToUnits as units, fenToYuan, tieredCharge, type MeterTier } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';

/**
 * Demo data of the smart meters (server/src/db/OWNERS.md), in 阳光花园 (community 1): a simulated
 * gateway with 40 meters (30 prepaid power, 10 read-and-bill water) in the rooms of 2号楼 onwards
 * (1号楼1单元1101, the demo owner's, is left for adding one), ninety days of readings, day bills
 * and deductions computed by the same tiers as the live path, the recharges that paid for them,
 * one meter near zero (its owner told), one closed for arrears, one protected room, one failed
 * push, the recharge amounts and the vendor platform; in 翠湖苑 (community 2) six prepaid meters.
 */
const POWER: MeterTier[] = [
  { upto: 260, price: '0.6170' },
  { upto: 400, price: '0.6670' },
  { upto: null, price: '0.9170' },
];
const WATER: MeterTier[] = [{ upto: null, price: '4.2000' }];
const DAYS = 90;

/** A small deterministic generator: the demo is the same on every start. */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

export async function seedMeters(db: Kysely<DB>): Promise<void> {
  await seedMetersOf(db, 1, 40);
  // 翠湖苑: a gateway and a few prepaid meters
  await seedMetersOf(db, 2, 6);
}

async function seedMetersOf(db: Kysely<DB>, rid: number, count: number): Promise<void> {
  const rooms = await db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .select(['r.id', 'r.bid'])
    .where('r.rid', '=', rid)
    .where('b.title', '<>', '1号楼')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('room_members as rm')
          .select('rm.id')
          .whereRef('rm.rid', '=', 'r.rid')
          .whereRef('rm.hid', '=', 'r.id')
          .where('rm.status', '=', 'Y'),
      ),
    )
    .orderBy('r.id')
    .limit(count)
    .execute();
  if (rooms.length < count) return;
  const water = await db
    .selectFrom('fee_items')
    .select('id')
    .where('rid', '=', rid)
    .where('pricing', '=', 'meter')
    .orderBy('id')
    .executeTakeFirst();
  if (!water) return;

  const gw = await db
    .insertInto('devices')
    .values({
      rid,
      family: 'meter',
      code: 'DTU-01',
      title: '2号楼配电间集中器',
      vendor: 'simulator',
      protocol: '4G',
      sim_no: '1064912345678',
      address: '2号楼地下一层配电间',
      last_heartbeat: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // (阳光花园) a second concentrator that lost its link an hour ago (its SIM card ran out): its meters' pushes fail
  const gw2 =
    count > 25
      ? await db
          .insertInto('devices')
          .values({
            rid,
            family: 'meter',
            code: 'DTU-02',
            title: '3号楼配电间集中器',
            vendor: 'simulator',
            protocol: 'NB',
            sim_no: '1064912345679',
            address: '3号楼地下一层配电间',
            last_heartbeat: new Date(Date.now() - 3600_000),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      : undefined;
  if (gw2)
    await db.insertInto('device_sims').values({ rid, device_id: gw2.id, capacity: 1000, reject_photos: 'N', offline: 'Y' }).execute();
  const [power, waterPlan] = (await Promise.all(
    [
      {
        title: '居民阶梯电价',
        kind: 'power',
        tiers: POWER,
        version: 2,
        remark: '每月 260 度以内 0.617 元，260–400 度 0.667 元，以上 0.917 元',
      },
      { title: '居民生活用水', kind: 'water', tiers: WATER, version: 1, remark: '' },
    ].map((p) =>
      db
        .insertInto('meter_price_plans')
        .values({
          rid,
          title: p.title,
          kind: p.kind as 'power' | 'water',
          tiers: JSON.stringify(p.tiers),
          version: p.version,
          remark: p.remark,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  )) as [{ id: number }, { id: number }];
  await db
    .insertInto('meter_vendors')
    .values({
      rid,
      vendor: 'simulator',
      title: '模拟表计平台',
      endpoint: 'https://sim.meters.local/api',
      app_id: 'demo-app',
      callback_url: 'https://wuye.local/callback/meter',
    })
    .execute();
  await db
    .insertInto('meter_recharge_amounts')
    .values([
      {
        rid,
        kind: 'power',
        amounts: JSON.stringify(['50.00', '100.00', '200.00', '500.00']),
        custom: 'Y',
        min_amount: '10.00',
        max_amount: '2000.00',
      },
      {
        rid,
        kind: 'water',
        amounts: JSON.stringify(['30.00', '50.00', '100.00']),
        custom: 'Y',
        min_amount: '10.00',
        max_amount: '1000.00',
      },
    ])
    .execute();
  await db.insertInto('meter_settings').values({ rid, close_from: 8, close_to: 20 }).execute();

  const day0 = today();
  const first = addDays(day0, -DAYS);
  const rand = rng(20261201);
  for (let i = 0; i < count; i++) {
    const hid = Number(rooms[i]!.id);
    const isPower = i < 30;
    const perDay = isPower ? 4 + Math.floor(rand() * 8) : 0.2 + Math.floor(rand() * 5) / 10;
    const m = await db
      .insertInto('meters')
      .values({
        rid,
        meter_no: isPower ? `E2026${String(1001 + i)}` : `W2026${String(2001 + i)}`,
        title: isPower ? '户内电表' : '户内水表',
        kind: isPower ? 'power' : 'water',
        mode: isPower ? 'prepaid' : 'read',
        gateway_id: i >= 25 && gw2 ? gw2.id : gw.id,
        hid,
        bid: rooms[i]!.bid,
        plan_id: isPower ? power.id : waterPlan.id,
        item_id: isPower ? null : water.id,
        read_day: 25,
        read_hour: 8,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('meter_houses')
      .values({
        rid,
        hid,
        alarm_threshold: isPower ? '20.00' : '0.00',
        overdraft: '0.00',
        protected: i === 7 ? 'Y' : 'N',
        remark: i === 7 ? '家中有制氧机，不断电' : '',
      })
      .execute();

    // ninety days: a reading at 8 o'clock each day, a recharge whenever the money ran low
    let reading = 0n;
    let balance = isPower ? 10000n : 0n;
    let monthUsage = 0n;
    let month = '';
    const readings: Array<Record<string, unknown>> = [];
    const days: Array<Record<string, unknown>> = [];
    const logs: Array<Record<string, unknown>> = [];
    const recharges: Array<Record<string, unknown>> = [];
    // the last days of two meters: one near zero, one run past it (closed for arrears)
    const lowEnd = i === 3;
    const closedEnd = i === 5;
    for (let d = 0; d <= DAYS; d++) {
      const day = addDays(first, d);
      const at = new Date(`${day}T08:00:00+08:00`);
      if (day.slice(0, 7) !== month) {
        month = day.slice(0, 7);
        monthUsage = 0n;
      }
      const usage = d === 0 ? 0n : BigInt(Math.round(perDay * (0.7 + rand() * 0.6) * 100));
      const charge = tieredCharge(isPower ? POWER : WATER, monthUsage, monthUsage + usage);
      const opening = reading;
      reading += usage;
      monthUsage += usage;
      if (isPower) {
        const stopTopping = (lowEnd || closedEnd) && d > DAYS - 12;
        if (!stopTopping && balance - charge.fen < 3000n) {
          const amount = [5000n, 10000n, 20000n][Math.floor(rand() * 3)]!;
          balance += amount;
          recharges.push({ amount, at: new Date(at.getTime() - 3600_000), balance });
        }
        balance -= charge.fen;
        if (lowEnd && d === DAYS && balance > 1500n) balance = 1350n;
        if (closedEnd && d === DAYS) balance = balance > -230n ? -230n : balance;
      }
      readings.push({
        rid,
        meter_id: m.id,
        value: units(reading),
        read_at: at,
        source: 'auto',
        usage: units(usage),
        amount: fenToYuan(charge.fen),
        created_at: at,
      });
      days.push({
        rid,
        meter_id: m.id,
        day,
        opening: units(opening),
        closing: units(reading),
        usage: units(usage),
        price: charge.lastPrice,
        amount: fenToYuan(charge.fen),
        balance_after: fenToYuan(balance),
        source: 'auto',
      });
      if (isPower && charge.fen > 0n) {
        logs.push({
          rid,
          meter_id: m.id,
          hid,
          kind: 'deduct',
          usage: units(usage),
          amount: fenToYuan(charge.fen),
          balance_after: fenToYuan(balance),
          breakdown: JSON.stringify(charge.parts),
          plan_version: 2,
          created_at: at,
        });
      }
    }
    await db
      .insertInto('meter_readings')
      .values(readings as never)
      .execute();
    await db
      .insertInto('meter_day_bills')
      .values(days as never)
      .execute();
    if (logs.length)
      await db
        .insertInto('meter_bill_logs')
        .values(logs as never)
        .execute();
    for (const [k, r] of recharges.entries()) {
      // as the live orders read: MR, the time (UTC, to the second), four digits
      const stamp = (r.at as Date)
        .toISOString()
        .replace(/[-:TZ.]/g, '')
        .slice(0, 14);
      const no = `MR${stamp}${String(i).padStart(2, '0')}${String(k).padStart(2, '0')}`;
      const pushed = new Date((r.at as Date).getTime() + 200);
      const cmd = await db
        .insertInto('device_commands')
        .values({
          rid,
          device_id: i >= 25 && gw2 ? gw2.id : gw.id,
          kind: 'meter_recharge',
          subject: `meter:${m.id}`,
          payload: JSON.stringify({ meter_no: `E2026${1001 + i}`, amount: fenToYuan(r.amount as bigint) }),
          state: 'done',
          attempts: 1,
          created_at: r.at as Date,
          sent_at: pushed,
          acked_at: new Date(pushed.getTime() + 1500 + Math.floor(rand() * 900)),
          priority: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const rc = await db
        .insertInto('meter_recharges')
        .values({
          rid,
          command_id: cmd.id,
          order_no: no,
          meter_id: m.id,
          hid,
          amount: fenToYuan(r.amount as bigint),
          paytype: k % 3 === 0 ? 'cash' : 'wechat',
          status: 'S',
          operator: '刘收银',
          created_at: r.at as Date,
          confirmed_at: new Date((r.at as Date).getTime() + 2000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('meter_bill_logs')
        .values({
          rid,
          meter_id: m.id,
          hid,
          kind: 'recharge',
          amount: fenToYuan(r.amount as bigint),
          balance_after: fenToYuan(r.balance as bigint),
          recharge_id: rc.id,
          created_at: new Date((r.at as Date).getTime() + 2000),
        })
        .execute();
    }
    const lastAt = new Date(`${day0}T08:00:00+08:00`);
    // the water meters' month is billed (the fees area's own 生活用水 bills cover the demo): nothing bills in the background
    const billedPeriod = day0.slice(0, 7);
    await db
      .updateTable('meters')
      .set({
        reading: units(reading),
        read_at: lastAt,
        usage_month: month,
        month_usage: units(monthUsage),
        balance: fenToYuan(balance),
        valve: closedEnd ? 'closed' : 'open',
        valve_reason: closedEnd ? 'arrears' : '',
        alarm_sent: isPower && balance <= 2000n,
        billed_period: isPower ? '' : billedPeriod,
        billed_reading: isPower ? '0' : units(reading),
      })
      .where('rid', '=', rid)
      .where('id', '=', m.id)
      .execute();
    await db
      .insertInto('meter_sims')
      .values({ rid, meter_id: m.id, register: units(reading), per_hour: (perDay / 24).toFixed(3), valve_open: !closedEnd })
      .execute();
    const owner = await db
      .selectFrom('room_members as rm')
      .innerJoin('members as mb', (j) => j.onRef('mb.rid', '=', 'rm.rid').onRef('mb.id', '=', 'rm.member_id'))
      .select('mb.mobile')
      .where('rm.rid', '=', rid)
      .where('rm.hid', '=', hid)
      .where('rm.status', '=', 'Y')
      .orderBy(sql`rm.relation = 'owner'`, 'desc')
      .executeTakeFirst();
    if (isPower && balance <= 2000n) {
      await db
        .insertInto('meter_alerts')
        .values({
          rid,
          meter_id: m.id,
          hid,
          kind: 'low',
          mobile: owner?.mobile ?? '',
          content: `您的电表（表号 E2026${1001 + i}）余额已低于预警金额，请及时充值。`,
          balance: fenToYuan(balance),
          sent: 'Y',
          created_at: lastAt,
        })
        .execute();
    }
    if (closedEnd) {
      await db
        .insertInto('meter_alerts')
        .values({
          rid,
          meter_id: m.id,
          hid,
          kind: 'closed',
          mobile: owner?.mobile ?? '',
          content: `您的电表（表号 E2026${1001 + i}）已欠费 ${fenToYuan(balance)} 元，已关阀停用，充值后自动恢复。`,
          balance: fenToYuan(balance),
          sent: 'Y',
          created_at: lastAt,
        })
        .execute();
      await db
        .insertInto('device_commands')
        .values({
          rid,
          device_id: gw.id,
          kind: 'valve_close',
          subject: `meter:${m.id}`,
          payload: JSON.stringify({ meter_id: Number(m.id), reason: 'arrears' }),
          state: 'done',
          attempts: 1,
          created_at: lastAt,
          sent_at: lastAt,
          acked_at: new Date(lastAt.getTime() + 1800),
          priority: 0,
        })
        .execute();
    }
    if (i === 26) {
      // a push that failed: its concentrator is offline; the cashier may retry (once it is back) or refund it
      const at = new Date(Date.now() - 40 * 60_000);
      const cmd = await db
        .insertInto('device_commands')
        .values({
          rid,
          device_id: gw.id,
          kind: 'meter_recharge',
          subject: `meter:${m.id}`,
          payload: JSON.stringify({ meter_no: `E2026${1001 + i}`, amount: '100.00' }),
          state: 'failed',
          attempts: 3,
          last_error: '应答超时',
          created_at: at,
          sent_at: at,
          acked_at: new Date(at.getTime() + 120_000),
          next_try_at: new Date(Date.now() + 365 * 86400_000),
          priority: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const rc = await db
        .insertInto('meter_recharges')
        .values({
          rid,
          order_no: `MR${day0.replace(/-/g, '')}100009`,
          meter_id: m.id,
          hid,
          amount: '100.00',
          paytype: 'wechat',
          status: 'F',
          error: '应答超时',
          command_id: cmd.id,
          operator: '刘收银',
          created_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('device_commands')
        .set({ payload: JSON.stringify({ recharge_id: Number(rc.id), meter_no: `E2026${1001 + i}`, amount: '100.00' }) })
        .where('rid', '=', rid)
        .where('id', '=', cmd.id)
        .execute();
    }
  }
  // the usage report's kept totals, as the readings and recharges above would have added them
  await sql`
    INSERT INTO meter_month_totals (rid, month, kind, bid, usage, amount, recharged)
    SELECT rid, month, kind, bid, sum(usage), sum(amount), sum(recharged) FROM (
      SELECT d.rid, to_char(d.day, 'YYYY-MM') AS month, m.kind, coalesce(r.bid, 0) AS bid, d.usage, d.amount, 0 AS recharged
      FROM meter_day_bills d JOIN meters m ON m.rid = d.rid AND m.id = d.meter_id LEFT JOIN rooms r ON r.rid = m.rid AND r.id = m.hid
      WHERE d.rid = ${rid}
      UNION ALL
      SELECT c.rid, to_char(c.confirmed_at AT TIME ZONE current_setting('TimeZone'), 'YYYY-MM'), m.kind, coalesce(r.bid, 0), 0, 0, c.amount
      FROM meter_recharges c JOIN meters m ON m.rid = c.rid AND m.id = c.meter_id LEFT JOIN rooms r ON r.rid = m.rid AND r.id = m.hid
      WHERE c.rid = ${rid} AND c.status = 'S') x
    GROUP BY 1, 2, 3, 4`.execute(db);
}
