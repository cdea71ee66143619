import {
  GATE_REASON,
  enumText,
  fenToYuan,
  priceTempFee,
  toFen,
  type CarType,
  type GateReason,
  type StayBreakdown,
  type TempFeeCoupon,
  type TempFeeRule,
} from '@wuye/contract';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today, wireTime } from '../../lib/wire.js';
import { peopledCommunities } from '../owners/seed.js';
import { parseWire, toRule, versionColumns } from './tempFee.js';

/**
 * A month of stays at the demo's two lots (docs/product.md#parking-reports): the lots' registered
 * cars (monthly, sold, internal, free) coming and going with their reasons, temporary plates priced
 * by the lot's fee standard (the version in force at entry) and paid at the booth with a receipt
 * (临时停车费, cashier 吴停车), the coupons given and used paying their stays, cars inside now, manual
 * openings and refused decisions; every decision in the gate log. Runs before the fees' seed, which
 * numbers the bills' receipts after these.
 */
export async function seedParkingStays(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunityStays(db, rid);
  await sql`ANALYZE parking_records, parking_gate_events`.execute(db);
}

const DAYS = 30;
const MINUTE = 60_000;

/** A small deterministic generator: the demo is the same every time it is made. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type StayRow = Insertable<DB['parking_records']>;
type EventRow = Insertable<DB['parking_gate_events']>;

interface Lane {
  id: number;
  title: string;
}
interface LotLanes {
  id: number;
  in: Lane;
  out: Lane;
  confirm: boolean;
}

interface Planned {
  stay: StayRow;
  events: Array<Omit<EventRow, 'stay_id'>>;
  /** a temporary stay paid at the booth: the payment's time and what it paid */
  pay?: { at: Date; amount: string; payType: 'cash' | 'wechat' };
  /** the coupon given to the plate and used on this stay, with what it took off */
  given?: { id: number; effect: string; at: Date };
}

const LEASE: Record<string, { carType: string; reason: GateReason }> = {
  M: { carType: '月租车', reason: 'monthly' },
  S: { carType: '产权车', reason: 'sold' },
  I: { carType: '内部车', reason: 'internal' },
  F: { carType: '免费车', reason: 'free' },
};
const words = (reason: GateReason, note = '') => enumText(GATE_REASON, reason) + (note ? `：${note}` : '');

async function seedCommunityStays(db: Kysely<DB>, rid: number): Promise<void> {
  const lots = await lanesOf(db, rid);
  if (lots.length < 2) return;
  const [under, above] = lots as [LotLanes, LotLanes];
  const cashier = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'parking').executeTakeFirst();
  const guard = { id: cashier ? Number(cashier.id) : null, name: cashier?.name ?? '吴停车' };
  const versions = await versionsOf(db, rid);
  const rand = random(rid * 7919);
  const now = Date.now();
  const day0 = parseWire(`${today()} 00:00:00`).getTime();
  const dayOf = (d: number) => day0 - d * 1440 * MINUTE;
  const planned: Planned[] = [];

  const enter = (lot: LotLanes, plate: string, at: number, kind: CarType, carType: string, reason: GateReason): Planned => {
    const events: Planned['events'] = [];
    if (reason === 'temp' && lot.confirm)
      events.push(event(rid, lot, 'I', plate, at - 20_000, 'wait', 'temp_confirm', `${plate} 临时车，请岗亭确认`));
    events.push(event(rid, lot, 'I', plate, at, 'open', reason, `${plate} ${words(reason)}`));
    return {
      stay: {
        rid,
        lot_id: lot.id,
        carno: plate,
        inlane: lot.in.title,
        intime: new Date(at),
        entry_lane_id: lot.in.id,
        entry_reason: reason,
        car_type: carType,
        car_kind: kind,
        state: 'I',
        reason: words(reason),
        created_at: new Date(at),
      },
      events,
    };
  };
  const leave = (p: Planned, lot: LotLanes, at: number, reason: GateReason, note = '') => {
    p.stay.outtime = new Date(at);
    p.stay.outlane = lot.out.title;
    p.stay.exit_lane_id = lot.out.id;
    p.stay.exit_reason = reason;
    p.stay.reason = words(reason, note);
    p.stay.state = 'O';
    p.events.push({
      ...event(rid, lot, 'O', p.stay.carno, at, 'open', reason, `${p.stay.carno} ${words(reason)}`),
      operator: reason === 'manual' ? guard.name : '',
    });
    if (reason === 'manual') {
      p.stay.manual_by = guard.id;
      p.stay.manual_by_name = guard.name;
      p.stay.manual_note = note;
    }
  };

  // the registered cars come and go at their own lot: the demo owner's every other day, the others
  // every few days; a monthly car only while its lease runs, and an expired one is inside now
  const cars = await db
    .selectFrom('cars')
    .select(['id', 'carlicense', 'lot_id', 'lease_type', 'car_type', 'end_date'])
    .where('rid', '=', rid)
    .where('lot_id', 'is not', null)
    .where('lease_type', 'in', ['M', 'S', 'I', 'F'])
    .orderBy('id')
    .execute();
  const registered = new Set(cars.map((c) => c.carlicense));
  const todayText = today();
  let insideRegistered = 0;
  for (const c of cars) {
    const lot = lots.find((l) => l.id === Number(c.lot_id));
    if (!lot) continue;
    const lease = LEASE[c.lease_type]!;
    const demo = c.carlicense === '沪A12345' || c.carlicense === '沪AD12345';
    const every = demo ? 2 : 4 + (Number(c.id) % 4);
    const expired = c.lease_type === 'M' && c.end_date !== null && c.end_date < todayText;
    for (let d = DAYS - 1 - (Number(c.id) % every); d >= 1; d -= every) {
      const start = dayOf(d);
      if (c.lease_type === 'M' && c.end_date !== null && wireTime(new Date(start)).slice(0, 10) > c.end_date) break;
      const inAt = start + (7 * 60 + Math.floor(rand() * 12 * 60)) * MINUTE;
      const p = enter(lot, c.carlicense, inAt, c.car_type, lease.carType, lease.reason);
      leave(p, lot, inAt + (30 + Math.floor(rand() * 9 * 60)) * MINUTE, lease.reason);
      planned.push(p);
    }
    // some inside now: an expired monthly car let in (refused at the exit until renewed), a few others
    if ((expired && insideRegistered < 2) || (!expired && Number(c.id) % 9 === 0 && insideRegistered < 8) || demo) {
      if (demo && c.carlicense === '沪AD12345') continue;
      const inAt = Math.min(now - 40 * MINUTE, day0 + (6 * 60 + (Number(c.id) % 180)) * MINUTE);
      planned.push(enter(lot, c.carlicense, inAt, c.car_type, lease.carType, expired ? 'monthly_expired' : lease.reason));
      insideRegistered += 1;
    }
  }
  // the white list's car
  for (let d = DAYS - 2; d >= 1; d -= 6) {
    const inAt = dayOf(d) + 9 * 60 * MINUTE;
    const p = enter(under, '沪A88888', inAt, 'large', '白名单车', 'white');
    leave(p, under, inAt + 150 * MINUTE, 'white');
    planned.push(p);
  }

  // temporary plates: priced by the standard in force at entry, paid at the booth before leaving
  const plates = new Set<string>();
  const letters = 'CDEFGHJKLMN';
  const plateOf = () => {
    for (;;) {
      const p = `沪${letters[Math.floor(rand() * letters.length)]}${String(10000 + Math.floor(rand() * 89999))}`;
      if (!registered.has(p) && !plates.has(p)) {
        plates.add(p);
        return p;
      }
    }
  };
  const kindOf = (n: number): CarType => (n % 13 === 0 ? 'large' : n % 9 === 0 ? 'new_energy' : 'small');
  const STAYS = [8, 12, 25, 45, 70, 95, 130, 180, 240, 330, 480, 600, 1500];
  let n = 0;
  let manual = 0;
  for (let d = DAYS - 1; d >= 0; d--) {
    for (const [lot, count] of [
      [under, 9],
      [above, 7],
    ] as const) {
      for (let i = 0; i < count; i++) {
        n += 1;
        const plate = plateOf();
        const kind = kindOf(n);
        const inAt = dayOf(d) + (7 * 60 + Math.floor(rand() * 14 * 60)) * MINUTE + Math.floor(rand() * 60) * 1000;
        const minutes = STAYS[Math.floor(rand() * STAYS.length)]!;
        const outAt = inAt + minutes * MINUTE + Math.floor(rand() * 50) * 1000;
        if (inAt > now - 10 * MINUTE) continue;
        const p = enter(lot, plate, inAt, kind, '临时车', 'temp');
        if (outAt > now - 5 * MINUTE) {
          // still inside: priced when it leaves
          planned.push(p);
          continue;
        }
        const version = versionFor(versions, lot.id, kind, inAt);
        if (!version) continue;
        if (manual < 3 && d % 9 === 4 && minutes > 60) {
          // the guard opened by hand: what it owed stays owed
          const b = price(version, inAt, outAt, []);
          p.stay.total_fee = b.due;
          p.stay.version_id = version.id;
          p.stay.breakdown = JSON.stringify(b);
          leave(p, lot, outAt, 'manual', manual % 2 ? '车主现金不足，登记车牌后放行' : '道闸识别故障，人工抬杆');
          manual += 1;
          planned.push(p);
          continue;
        }
        // most pay by QR code (recorded as WeChat), one in four in cash
        settle(p, lot, version, inAt, outAt, [], n % 4 ? 'wechat' : 'cash');
        planned.push(p);
      }
    }
  }

  // the coupons merchants gave and the cars used at the underground lot's exit (feesSeed.ts)
  const used = await db
    .selectFrom('parking_coupon_given as g')
    .innerJoin('parking_coupons as c', (j) => j.onRef('c.rid', '=', 'g.rid').onRef('c.id', '=', 'g.coupon_id'))
    .select([
      'g.id',
      'g.carlicense',
      'g.used_at',
      'c.lot_id',
      'c.kind',
      'c.minutes',
      'c.title',
      sql<string>`c.amount::text`.as('amount'),
      sql<string>`c.rate::text`.as('rate'),
    ])
    .where('g.rid', '=', rid)
    .where('g.state', '=', 'U')
    .orderBy('g.id')
    .execute();
  for (const g of used) {
    const lot = lots.find((l) => l.id === Number(g.lot_id));
    if (!lot || !g.used_at) continue;
    const outAt = g.used_at.getTime();
    const inAt = outAt - 130 * MINUTE;
    const version = versionFor(versions, lot.id, 'small', inAt);
    if (!version) continue;
    const coupon: TempFeeCoupon = { id: Number(g.id), title: g.title, kind: g.kind, minutes: g.minutes, amount: g.amount, rate: g.rate };
    const p = enter(lot, g.carlicense, inAt, 'small', '临时车', 'temp');
    settle(p, lot, version, inAt, outAt, [coupon], 'wechat');
    planned.push(p);
  }

  // a car paid inside the lot a few minutes ago, on its way out (已支付)
  {
    const inAt = now - 95 * MINUTE;
    const version = versionFor(versions, under.id, 'small', inAt);
    if (version) {
      const p = enter(under, plateOf(), inAt, 'small', '临时车', 'temp');
      const paidAt = now - 4 * MINUTE;
      const b = price(version, inAt, paidAt, []);
      p.stay.state = 'P';
      p.stay.total_fee = b.due;
      p.stay.pay_fee = b.due;
      p.stay.paid_at = new Date(paidAt);
      p.stay.version_id = version.id;
      p.stay.breakdown = JSON.stringify({ ...b, paid: b.due, due: '0.00' });
      p.pay = { at: new Date(paidAt), amount: b.due, payType: 'wechat' };
      planned.push(p);
    }
  }

  /** Prices the stay when it pays (just before it leaves), records the payment and the exit. */
  function settle(
    p: Planned,
    lot: LotLanes,
    version: Version,
    inAt: number,
    outAt: number,
    coupons: TempFeeCoupon[],
    payType: 'cash' | 'wechat',
  ) {
    const paidAt = outAt - 2 * MINUTE;
    const b = price(version, inAt, paidAt, coupons);
    p.stay.version_id = version.id;
    if (coupons.length) p.given = { id: coupons[0]!.id!, effect: b.coupons[0]?.effect ?? '0.00', at: new Date(paidAt) };
    if (toFen(b.due) === 0n) {
      p.stay.breakdown = JSON.stringify(b);
      leave(p, lot, outAt, coupons.length ? 'coupon' : 'free_minutes');
      return;
    }
    p.events.push(event(rid, lot, 'O', p.stay.carno, paidAt, 'pay', 'unpaid', `${p.stay.carno} 请缴费 ${b.due} 元`, b.due));
    p.stay.total_fee = b.due;
    p.stay.pay_fee = b.due;
    p.stay.paid_at = new Date(paidAt);
    p.stay.breakdown = JSON.stringify({ ...b, paid: b.due, due: '0.00' });
    p.pay = { at: new Date(paidAt), amount: b.due, payType };
    leave(p, lot, outAt, 'paid');
  }

  await writeStays(db, rid, planned, guard);

  // refused at the gate: the black list's car, and a temporary car at the above-ground lot that owed and turned back
  const refused: EventRow[] = [];
  for (const d of [12, 5, 1]) {
    const at = dayOf(d) + (8 * 60 + d * 7) * MINUTE;
    refused.push(event(rid, under, 'I', '沪B44444', at, 'refuse', 'black', '沪B44444 黑名单车辆，禁止通行'));
  }
  await db.insertInto('parking_gate_events').values(refused).execute();
}

function event(
  rid: number,
  lot: LotLanes,
  direction: 'I' | 'O',
  plate: string,
  at: number,
  decision: 'open' | 'refuse' | 'wait' | 'pay',
  reason: GateReason,
  content: string,
  due = '0.00',
): EventRow {
  const lane = direction === 'I' ? lot.in : lot.out;
  return {
    rid,
    lane_id: lane.id,
    lot_id: lot.id,
    plate,
    direction,
    event_at: new Date(at),
    decision,
    reason,
    content,
    due,
    created_at: new Date(at),
  };
}

async function lanesOf(db: Kysely<DB>, rid: number): Promise<LotLanes[]> {
  const rows = await db
    .selectFrom('devices as n')
    .innerJoin('parking_booths as b', (j) => j.onRef('b.rid', '=', 'n.rid').onRef('b.id', '=', 'n.booth_id'))
    .select(['n.id', 'n.title', 'n.direction', 'b.lot_id', 'b.temp_confirm'])
    .where('n.rid', '=', rid)
    .orderBy('b.lot_id')
    .orderBy('n.id')
    .execute();
  const lots = new Map<number, Partial<LotLanes>>();
  for (const r of rows) {
    const lot = lots.get(Number(r.lot_id)) ?? { id: Number(r.lot_id), confirm: r.temp_confirm === 'Y' };
    lot[r.direction === 'in' ? 'in' : 'out'] ??= { id: Number(r.id), title: r.title };
    lots.set(Number(r.lot_id), lot);
  }
  return [...lots.values()].filter((l): l is LotLanes => !!l.in && !!l.out);
}

interface Version {
  id: number;
  lot_id: number;
  car_type: CarType;
  from: number;
  effective_from: Date;
  rule: TempFeeRule;
}

async function versionsOf(db: Kysely<DB>, rid: number): Promise<Version[]> {
  const rows = await versionColumns(db)
    .innerJoin('parking_fee_standards as s', (j) => j.onRef('s.rid', '=', 'v.rid').onRef('s.id', '=', 'v.standard_id'))
    .select(['s.lot_id', 's.car_type'])
    .where('v.rid', '=', rid)
    .orderBy('v.effective_from')
    .execute();
  return rows.map((v) => ({
    id: Number(v.id),
    lot_id: Number(v.lot_id),
    car_type: v.car_type as CarType,
    from: v.effective_from.getTime(),
    effective_from: v.effective_from,
    rule: toRule(v),
  }));
}

/** The version in force at entry, as priceStay picks it: the latest started, else the first. */
function versionFor(versions: Version[], lotId: number, kind: CarType, at: number): Version | undefined {
  const mine = versions.filter((v) => v.lot_id === lotId && v.car_type === kind);
  return mine.filter((v) => v.from <= at).at(-1) ?? mine[0];
}

function price(v: Version, inAt: number, outAt: number, coupons: TempFeeCoupon[]): StayBreakdown {
  const b = priceTempFee(v.rule, wireTime(new Date(inAt)), wireTime(new Date(outAt)), coupons);
  return {
    ...b,
    version_id: v.id,
    version_from: wireTime(v.effective_from),
    given_ids: coupons.map((c) => c.id!),
    from: wireTime(new Date(inAt)),
  };
}

/** Inserts the stays, their events, the payments' receipts (numbered in time order) and the coupons' use. */
async function writeStays(db: Kysely<DB>, rid: number, planned: Planned[], cashier: { id: number | null; name: string }) {
  planned.sort((a, b) => (a.stay.intime as Date).getTime() - (b.stay.intime as Date).getTime());
  const ids: number[] = [];
  for (let i = 0; i < planned.length; i += 500) {
    const rows = await db
      .insertInto('parking_records')
      .values(planned.slice(i, i + 500).map((p) => p.stay))
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => Number(r.id)));
  }
  const events: EventRow[] = planned.flatMap((p, i) => p.events.map((e) => ({ ...e, stay_id: ids[i]! })));
  events.sort((a, b) => (a.event_at as Date).getTime() - (b.event_at as Date).getTime());
  for (let i = 0; i < events.length; i += 1000)
    await db
      .insertInto('parking_gate_events')
      .values(events.slice(i, i + 1000))
      .execute();

  const paying = planned.map((p, i) => ({ p, id: ids[i]! })).filter((x) => x.p.pay);
  paying.sort((a, b) => a.p.pay!.at.getTime() - b.p.pay!.at.getTime());
  if (paying.length) {
    const settings = await db.selectFrom('fee_settings').select('receipt_prefix').where('rid', '=', rid).executeTakeFirst();
    const prefix = settings?.receipt_prefix ?? '';
    const counter = await db.selectFrom('fee_receipt_counters').select('last_no').where('rid', '=', rid).executeTakeFirst();
    let last = Number(counter?.last_no ?? 0);
    const lotTitles = new Map(
      (await db.selectFrom('parking_lots').select(['id', 'title']).where('rid', '=', rid).execute()).map((l) => [Number(l.id), l.title]),
    );
    for (let i = 0; i < paying.length; i += 500) {
      const batch = paying.slice(i, i + 500);
      const payments = await db
        .insertInto('fee_payments')
        .values(
          batch.map(({ p, id }) => ({
            rid,
            receipt_no: prefix + String(++last).padStart(8, '0'),
            hid: null,
            bid: null,
            tid: null,
            stay_id: id,
            payer_name: p.stay.carno,
            receivable: p.pay!.amount,
            due: p.pay!.amount,
            paid_amount: p.pay!.amount,
            pay_type: p.pay!.payType,
            cashier_id: cashier.id,
            cashier_name: cashier.name,
            idempotency_key: `seed-stay-${id}`,
            remark: `${lotTitles.get(Number(p.stay.lot_id)) ?? ''} ${p.stay.carno} 临时停车费`,
            created_at: p.pay!.at,
          })),
        )
        .returning('id')
        .execute();
      await db
        .insertInto('fee_payment_items')
        .values(
          batch.map(({ p }, k) => ({
            rid,
            payment_id: payments[k]!.id,
            bill_id: null,
            cost_type: 'temp_parking',
            title: '临时停车费',
            period: wireTime(p.pay!.at).slice(0, 7),
            daterange: `${wireTime(p.stay.intime as Date)} 至 ${wireTime(p.pay!.at)}`,
            fee: p.pay!.amount,
          })),
        )
        .execute();
    }
    await sql`
      INSERT INTO fee_receipt_counters (rid, last_no) VALUES (${rid}, ${last})
      ON CONFLICT (rid) DO UPDATE SET last_no = excluded.last_no`.execute(db);
  }
  for (const [i, p] of planned.entries()) {
    if (!p.given) continue;
    await db
      .updateTable('parking_coupon_given')
      .set({ used_ref: `stay:${ids[i]}`, used_amount: fenToYuan(toFen(p.given.effect)), used_at: p.given.at })
      .where('rid', '=', rid)
      .where('id', '=', p.given.id)
      .execute();
  }
}
