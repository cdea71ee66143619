/**
 * The decision a lane makes for a plate (docs/product.md#parking-gates), as one pure function of
 * what the database knows about the lane, the plate and the day: no I/O, so its order is tested
 * on its own and the gate handler only reads the facts and writes what it says.
 *
 * Entry: black list → white list → already inside (reenter closes the old stay, or refuse) →
 * sold / internal / free lease → monthly (valid, within grace, or expired: let in with the expired
 * text, refused at the exit until renewed) → temporary (the booth may refuse them or make them
 * wait for the guard).
 * Exit: white list → sold / internal / free → monthly valid → monthly expired (refused) → no entry
 * (the booth may let it go) → paid within the leave window → a booth that collects no fee → price
 * it (the handler: no standard opens free, a zero fee opens, else the car waits to pay).
 */
import { daysBetween, type GateEvent, type GateReason } from '@wuye/contract';

export interface LaneFacts {
  direction: 'I' | 'O';
  allow_temp: 'Y' | 'N';
  temp_confirm: 'Y' | 'N';
  collects_fee: 'Y' | 'N';
  reenter: 'Y' | 'N';
  exit_no_entry: 'Y' | 'N';
  grace_days: number;
  warn_days: number;
  leave_minutes: number;
  /** the plate's black or white entry of the lot valid on the event's day */
  list: 'B' | 'W' | null;
  /** the plate's car when it holds a lease at this lot */
  lease: { lease: 'M' | 'S' | 'I' | 'F'; end_date: string | null } | null;
  /** the plate's open stay at the lot */
  stay: { state: 'I' | 'P'; paid_at: Date | null } | null;
}

export type Verdict =
  | {
      decision: 'open';
      reason: GateReason;
      /** the text event shown at the gate (null: none of the lot's texts fits; the reason's words are shown) */
      text: GateEvent | null;
      car_type: string;
      days_left: number | null;
    }
  | { decision: 'refuse' | 'wait'; reason: GateReason; text: GateEvent | null; car_type: string; days_left: number | null }
  /** a temporary car at the exit: the handler prices the stay (from the entry, or from the last payment) */
  | { decision: 'price'; from_payment: boolean; car_type: string; days_left: null };

const LEASE: Record<'S' | 'I' | 'F', { reason: GateReason; car_type: string }> = {
  S: { reason: 'sold', car_type: '产权车' },
  I: { reason: 'internal', car_type: '内部车' },
  F: { reason: 'free', car_type: '免费车' },
};

/** What lane `f` decides for its plate on business day `day` at `at`. */
export function decideAtLane(f: LaneFacts, day: string, at: Date): Verdict {
  const open = (reason: GateReason, car_type: string, text: GateEvent | null = null, days_left: number | null = null): Verdict => ({
    decision: 'open',
    reason,
    text,
    car_type,
    days_left,
  });
  const stop = (
    decision: 'refuse' | 'wait',
    reason: GateReason,
    car_type: string,
    text: GateEvent | null = null,
    days_left: number | null = null,
  ): Verdict => ({
    decision,
    reason,
    text,
    car_type,
    days_left,
  });
  const entry = f.direction === 'I';
  const lease = f.lease;
  const monthly = lease?.lease === 'M';
  const carType = lease ? (monthly ? '月租车' : LEASE[lease.lease as 'S' | 'I' | 'F'].car_type) : '临时车';

  // a black-listed car is kept out; one already inside is not kept in (the guard deals with it)
  if (entry && f.list === 'B') return stop('refuse', 'black', carType);
  if (f.list === 'W') return open('white', '白名单车', entry ? 'temp_in' : 'temp_out');
  if (entry && f.stay && f.reenter === 'N') return stop('refuse', 'inside', carType);

  if (lease && !monthly) return open(LEASE[lease.lease as 'S' | 'I' | 'F'].reason, carType, entry ? 'temp_in' : 'temp_out');
  if (lease && monthly) {
    const left = lease.end_date ? daysBetween(day, lease.end_date) : -1;
    if (left >= 0) return open('monthly', carType, entry ? (left <= f.warn_days ? 'monthly_expiring' : 'monthly_in') : 'monthly_out', left);
    // within its grace days an expired monthly car still passes as monthly
    if (-left <= f.grace_days) return open('monthly', carType, entry ? 'monthly_expired' : 'monthly_out', left);
    if (entry) return open('monthly_expired', carType, 'monthly_expired', left);
    return stop('refuse', 'monthly_expired', carType, 'monthly_expired', left);
  }

  if (entry) {
    if (f.allow_temp === 'N') return stop('refuse', 'temp_denied', carType);
    if (f.temp_confirm === 'Y') return stop('wait', 'temp_confirm', carType, 'temp_in');
    return open('temp', carType, 'temp_in');
  }
  if (!f.stay) return f.exit_no_entry === 'Y' ? open('no_entry', carType, 'temp_out') : stop('refuse', 'no_entry', carType);
  if (f.stay.state === 'P' && f.stay.paid_at && at.getTime() <= f.stay.paid_at.getTime() + f.leave_minutes * 60_000) {
    return open('paid', carType, 'temp_out');
  }
  if (f.collects_fee === 'N') return open('no_fee_booth', carType, 'temp_out');
  return { decision: 'price', from_payment: f.stay.state === 'P', car_type: carType, days_left: null };
}
