/**
 * Demo data of the charging piles (server/src/db/OWNERS.md) in 阳光花园 (community 1): a car pile
 * with time-of-use prices and an e-bike pile with power bands, a month card and a member's card, a
 * month of finished sessions (a few meter values each, priced and settled as the module does, the
 * prepayment and its refund in the members' ledgers), one session charging now and one 待核对.
 */
import { chargeBill, fenToYuan, type ChargeFrame, type ChargeMode } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { moveBalance } from '../cards/ledger.js';
import type { SessionPricing } from './sessions.js';

const RID = 1;
const HOUR = 3_600_000;

const CAR: SessionPricing = {
  kind: 'car',
  tou: [
    { start: '00:00', end: '08:00', tier: 'valley', price: '0.35' },
    { start: '08:00', end: '11:00', tier: 'peak', price: '1.05' },
    { start: '11:00', end: '13:00', tier: 'sharp', price: '1.30' },
    { start: '13:00', end: '19:00', tier: 'flat', price: '0.70' },
    { start: '19:00', end: '22:00', tier: 'peak', price: '1.05' },
    { start: '22:00', end: '24:00', tier: 'valley', price: '0.35' },
  ],
  service_fee: '0.40',
  bands: [],
  power_kw: '7.00',
};
const EBIKE: SessionPricing = {
  kind: 'ebike',
  tou: [],
  service_fee: '0.00',
  bands: [
    { min_w: 0, max_w: 300, price: '0.50' },
    { min_w: 300, max_w: 600, price: '0.80' },
    { min_w: 600, max_w: 1200, price: '1.20' },
  ],
  power_kw: '0.50',
};

async function addPile(
  db: Kysely<DB>,
  code: string,
  title: string,
  p: SessionPricing,
  ports: number,
  rid = RID,
): Promise<{ id: number; ports: number[] }> {
  const d = await db
    .insertInto('devices')
    .values({ rid, family: 'pile', code, title, vendor: 'simulator', last_heartbeat: new Date(), address: '地下车库 B1' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(d.id);
  await db
    .insertInto('chargers')
    .values({
      rid,
      id,
      kind: p.kind,
      ports,
      power_kw: p.power_kw,
      tou: JSON.stringify(p.tou),
      bands: JSON.stringify(p.bands),
      service_fee: p.service_fee,
    })
    .execute();
  const rows = await db
    .insertInto('charger_ports')
    .values(Array.from({ length: ports }, (_, i) => ({ rid, charger_id: id, no: i + 1, title: `${i + 1}号插座` })))
    .returning('id')
    .execute();
  return { id, ports: rows.map((r) => Number(r.id)) };
}

/** Meter values every `stepMin` minutes at `w` watts from `start`, for `minutes`, from register `wh`. */
function curve(start: number, minutes: number, w: number, wh: number, stepMin: number): ChargeFrame[] {
  const out: ChargeFrame[] = [{ at: start, wh }];
  for (let m = stepMin; m <= minutes; m += stepMin) out.push({ at: start + m * 60_000, wh: wh + Math.round((w * m) / 60) });
  if (minutes % stepMin) out.push({ at: start + minutes * 60_000, wh: wh + Math.round((w * minutes) / 60) });
  return out;
}

export async function seedCharging(db: Kysely<DB>): Promise<void> {
  const region = await db.selectFrom('regions').select('id').where('id', '=', RID).executeTakeFirst();
  // members whose card does not refuse a payment from the balance (a frozen card does)
  const people = await db
    .selectFrom('members as m')
    .select(['m.id', 'm.realname'])
    .where('m.rid', '=', RID)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('member_cards as c')
            .select('c.id')
            .whereRef('c.rid', '=', 'm.rid')
            .whereRef('c.member_id', '=', 'm.id')
            .where('c.status', '=', 'F'),
        ),
      ),
    )
    .orderBy('m.id')
    .limit(8)
    .execute();
  if (!region || people.length < 3) return;
  // 翠湖苑 has a pile of its own (and a month card), so every community's charging rows exist
  if (await db.selectFrom('regions').select('id').where('id', '=', 2).executeTakeFirst()) {
    await addPile(db, 'CP201', '翠湖苑汽车充电桩', CAR, 2, 2);
    await db.insertInto('charge_cards').values({ rid: 2, title: '汽车包月卡', months: 1, price: '99.00', hours_per_day: 2 }).execute();
  }
  const car = await addPile(db, 'CP001', '1号汽车充电桩', CAR, 2);
  const bike = await addPile(db, 'EB001', '电动车充电桩', EBIKE, 4);
  // each demo member starts with enough on the balance for a month of charging
  let n = 0;
  for (const m of people) {
    await moveBalance(db, {
      rid: RID,
      memberId: m.id,
      fen: 500_00n,
      ioType: 1,
      feetype: 'recharge',
      paytype: 'cash',
      orderid: `CDR${m.id}`,
      remark: '充电演示充值',
      createUser: '系统',
    });
  }
  const card = await db
    .insertInto('charge_cards')
    .values({ rid: RID, title: '电动车包月卡', months: 1, price: '30.00', hours_per_day: 2 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const day = today();
  const cardOrder = await db
    .insertInto('charge_card_orders')
    .values({
      rid: RID,
      card_id: card.id,
      member_id: people[2]!.id,
      paid: '30.00',
      hours_per_day: 2,
      start_date: sql<string>`${day}::date - 10`,
      end_date: sql<string>`${day}::date + 19`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await moveBalance(db, {
    rid: RID,
    memberId: people[2]!.id,
    fen: 30_00n,
    ioType: 2,
    feetype: 'charging_card',
    paytype: 'balance',
    orderid: `CM${cardOrder.id}`,
    remark: '购买充电月卡「电动车包月卡」',
    createUser: '系统',
  });

  const now = Date.now();
  const meters = new Map<number, number>();
  const session = async (o: {
    pile: { id: number; ports: number[] };
    port: number;
    p: SessionPricing;
    member: number;
    mode: ChargeMode;
    value: string;
    prepaid: bigint;
    frames: ChargeFrame[];
    state: 'done' | 'check' | 'charging';
    reason: '' | 'full' | 'time' | 'amount' | 'unplug' | 'timeout';
    cardHours?: number;
  }) => {
    const orderNo = `CD${String(++n).padStart(4, '0')}${o.frames[0]!.at}`;
    const live = o.state === 'charging';
    const bill = chargeBill(o.p, o.frames, o.cardHours ?? 0);
    const amount = bill.total_fen < o.prepaid ? bill.total_fen : o.prepaid;
    const first = o.frames[0]!;
    const last = o.frames[o.frames.length - 1]!;
    const row = await db
      .insertInto('charge_orders')
      .values({
        rid: RID,
        order_no: orderNo,
        charger_id: o.pile.id,
        port_id: o.port,
        member_id: o.member,
        mode: o.mode,
        mode_value: o.value,
        prepaid: fenToYuan(o.prepaid),
        pricing: JSON.stringify(o.p),
        price_version: 1,
        card_order_id: o.cardHours ? Number(cardOrder.id) : null,
        card_hours: o.cardHours ?? 0,
        state: o.state,
        end_reason: o.reason,
        start_at: new Date(first.at),
        start_wh: first.wh,
        last_frame_at: new Date(last.at),
        end_at: live ? null : new Date(last.at),
        end_wh: live ? null : last.wh,
        hours: live ? 0 : bill.hours,
        amount: live ? null : fenToYuan(amount),
        refund: live ? null : fenToYuan(o.prepaid - amount),
        breakdown: live
          ? null
          : JSON.stringify({
              slots: bill.slots,
              gross: fenToYuan(bill.gross_fen),
              card_free: fenToYuan(bill.free_fen),
              coupon_free: '0.00',
              capped: false,
            }),
        created_at: new Date(first.at - 30_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('charge_frames')
      .values(
        o.frames.map((f, i) => ({
          rid: RID,
          order_id: row.id,
          at: new Date(f.at),
          meter_wh: f.wh,
          power_w: i === 0 || i === o.frames.length - 1 ? 0 : Math.round(Number(o.p.power_kw) * 1000),
        })),
      )
      .execute();
    await moveBalance(db, {
      rid: RID,
      memberId: o.member,
      fen: o.prepaid,
      ioType: 2,
      feetype: 'charging',
      paytype: 'balance',
      orderid: orderNo,
      remark: '充电预付',
      createUser: '系统',
    });
    if (!live)
      await moveBalance(db, {
        rid: RID,
        memberId: o.member,
        fen: o.prepaid - amount,
        ioType: 1,
        feetype: 'charging',
        paytype: 'balance',
        orderid: orderNo,
        remark: '充电结算退回预付余额',
        createUser: '系统',
      });
    meters.set(o.port, last.wh);
    return Number(row.id);
  };

  // a month of finished sessions: an evening car session most days, e-bike sessions every day
  for (let d = 30; d >= 1; d--) {
    const dayStart = now - d * 24 * HOUR;
    const base = dayStart - (dayStart % (24 * HOUR)) - 8 * HOUR; // the business day's midnight
    if (d % 3 !== 0) {
      const port = car.ports[d % 2]!;
      const wh = meters.get(port) ?? 120_000;
      const hours = 1 + (d % 3);
      await session({
        pile: car,
        port,
        p: CAR,
        member: people[d % people.length]!.id,
        mode: 'hours',
        value: String(hours),
        prepaid: BigInt(hours) * 1190n,
        frames: curve(base + (19 + (d % 3)) * HOUR, hours * 60, 7000, wh, 20),
        state: 'done',
        reason: 'time',
      });
    }
    for (let k = 0; k < 2; k++) {
      const port = bike.ports[(d + k) % bike.ports.length]!;
      const wh = meters.get(port) ?? 8_000;
      const minutes = 90 + ((d * 37 + k * 53) % 150);
      const w = 250 + ((d * 91 + k * 17) % 350);
      const member = k === 0 && d <= 10 ? people[2]! : people[(d + k + 3) % people.length]!;
      await session({
        pile: bike,
        port,
        p: EBIKE,
        member: member.id,
        mode: 'full',
        value: '5.00',
        prepaid: 500n,
        frames: curve(base + (7 + k * 11) * HOUR, minutes, w, wh, 30),
        state: 'done',
        reason: k ? 'full' : 'unplug',
        cardHours: member === people[2] ? 2 : 0,
      });
    }
  }
  // yesterday's car session whose final value never came: closed by the time-out, 待核对
  const lostAt = now - 26 * HOUR;
  await session({
    pile: car,
    port: car.ports[1]!,
    p: CAR,
    member: people[1]!.id,
    mode: 'amount',
    value: '30.00',
    prepaid: 30_00n,
    frames: curve(lostAt, 70, 7000, meters.get(car.ports[1]!) ?? 150_000, 10),
    state: 'check',
    reason: 'timeout',
  });

  // no session is left charging: the simulator and the time-out would settle it in the background, moving a
  // member's balance under whoever reads the ledgers then (a session is started in the console or the journey)
  for (const [p, wh] of meters)
    await db.updateTable('charger_ports').set({ meter_wh: wh }).where('rid', '=', RID).where('id', '=', p).execute();
}
