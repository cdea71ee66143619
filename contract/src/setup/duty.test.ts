import { describe, expect, it } from 'vitest';
import { dutyAt, formatShiftTimes, parseShiftTimes, planOn, shiftOn, slotOn, weekdayOf, type RosterPlan, type ShiftRange } from './duty.js';

const ranges = (s: string): ShiftRange[] => {
  const r = parseShiftTimes(s);
  if (typeof r === 'string') throw new Error(r);
  return r;
};
const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

// shifts: 1 白班 08:00-18:00, 2 夜班 20:00-08:00 (crosses midnight), 3 两头班 07:00-11:00,17:00-21:00
const SHIFTS = new Map<number, ShiftRange[]>([
  [1, ranges('08:00-18:00')],
  [2, ranges('20:00-08:00')],
  [3, ranges('07:00-11:00,17:00-21:00')],
]);
const week = (days: Array<number | null>, start_date = '2026-11-02', id = 1): RosterPlan => ({
  id,
  kind: 'W',
  cycle: days.length / 7,
  start_date,
  days,
});
// Monday to Saturday 白班, Sunday rest
const SUNDAY_REST = week([1, 1, 1, 1, 1, 1, null]);

describe('shift times', () => {
  it('reads one or several ranges and writes them back canonically', () => {
    expect(formatShiftTimes(ranges('8:00-18:00'))).toBe('08:00-18:00');
    expect(formatShiftTimes(ranges('07:00～11:00，17:00-21:00'))).toBe('07:00-11:00,17:00-21:00');
    expect(formatShiftTimes(ranges('22:00-06:00'))).toBe('22:00-06:00');
    expect(formatShiftTimes(ranges('00:00-24:00'))).toBe('00:00-00:00');
  });
  it('refuses what is not a time range, equal ends and overlaps', () => {
    expect(parseShiftTimes('')).toMatch('请填写上班时间');
    expect(parseShiftTimes('8点到18点')).toMatch('格式不正确');
    expect(parseShiftTimes('25:00-26:00')).toMatch('格式不正确');
    expect(parseShiftTimes('08:00-08:00')).toMatch('开始与结束相同');
    expect(parseShiftTimes('08:00-12:00,11:00-14:00')).toMatch('不能重叠');
    // a night range running into the next morning's range of the same shift
    expect(parseShiftTimes('06:00-10:00,22:00-07:00')).toMatch('不能重叠');
    expect(parseShiftTimes('01:00-02:00,02:00-03:00,03:00-04:00,04:00-05:00,05:00-06:00,06:00-07:00,07:00-08:00')).toMatch('最多 6 个');
  });
});

describe('roster days', () => {
  it('counts weekdays from Monday', () => {
    expect(weekdayOf('2026-11-29')).toBe(6); // a Sunday
    expect(weekdayOf('2026-11-30')).toBe(0);
  });

  it('a cycle of N days runs from its effective date', () => {
    // work, work, rest
    const plan: RosterPlan = { id: 1, kind: 'D', cycle: 3, start_date: '2026-11-10', days: [1, 2, null] };
    expect(slotOn(plan, '2026-11-09')).toBeNull();
    expect(['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13', '2026-12-31'].map((d) => shiftOn([plan], d))).toEqual([
      1,
      2,
      null,
      1,
      1,
    ]);
    // 51 days after the effective date: 51 % 3 = 0
    expect(slotOn(plan, '2026-12-31')).toBe(0);
    expect(shiftOn([plan], '2026-11-09')).toBeUndefined();
  });

  it('a weekly roster rests on Sundays, whatever its effective weekday', () => {
    const fromWednesday = week([1, 1, 1, 1, 1, 1, null], '2026-11-04');
    for (const day of ['2026-11-08', '2026-11-15', '2026-11-29', '2027-02-28']) expect(shiftOn([fromWednesday], day)).toBeNull();
    expect(shiftOn([fromWednesday], '2026-11-09')).toBe(1);
    expect(shiftOn([fromWednesday], '2026-11-03')).toBeUndefined();
  });

  it('a two-week cycle alternates from the Monday of its effective week', () => {
    // week A: Monday to Friday 白班; week B: Monday to Friday 夜班; weekends rest
    const plan = week([1, 1, 1, 1, 1, null, null, 2, 2, 2, 2, 2, null, null], '2026-11-04');
    expect(shiftOn([plan], '2026-11-06')).toBe(1); // Friday of week A
    expect(shiftOn([plan], '2026-11-09')).toBe(2); // Monday of week B
    expect(shiftOn([plan], '2026-11-16')).toBe(1); // week A again
    expect(shiftOn([plan], '2026-11-14')).toBeNull();
  });

  it('a monthly roster reads the day of the month; day 31 only in long months', () => {
    const days: Array<number | null> = Array.from({ length: 31 }, (_, i) => (i % 2 === 0 ? 1 : null));
    days[30] = 3;
    const plan: RosterPlan = { id: 1, kind: 'M', cycle: 1, start_date: '2026-11-01', days };
    expect(shiftOn([plan], '2026-11-01')).toBe(1);
    expect(shiftOn([plan], '2026-11-02')).toBeNull();
    expect(shiftOn([plan], '2026-12-31')).toBe(3);
    expect(shiftOn([plan], '2026-11-30')).toBeNull();
  });

  it('a later roster replaces the earlier from its effective date', () => {
    const old = week([1, 1, 1, 1, 1, 1, null], '2026-11-02', 1);
    const next = week([2, 2, 2, 2, 2, null, null], '2026-12-01', 2);
    expect(planOn([old, next], '2026-11-30')?.id).toBe(1);
    expect(planOn([old, next], '2026-12-01')?.id).toBe(2);
    expect(shiftOn([next, old], '2026-12-05')).toBeNull(); // a Saturday: rest under the new one
    expect(shiftOn([next, old], '2026-11-28')).toBe(1); // a Saturday: 白班 under the old one
  });
});

describe('on duty at a time', () => {
  it('the guard of a Sunday-rest roster is on duty on weekdays, not on Sunday', () => {
    expect(dutyAt([SUNDAY_REST], SHIFTS, '2026-11-27', at('10:00'))).toEqual({ shift_id: 1, day: '2026-11-27' });
    expect(dutyAt([SUNDAY_REST], SHIFTS, '2026-11-29', at('10:00'))).toBeNull();
    expect(dutyAt([SUNDAY_REST], SHIFTS, '2026-11-28', at('18:00'))).toBeNull(); // the end is not in the range
    expect(dutyAt([SUNDAY_REST], SHIFTS, '2026-11-28', at('07:59'))).toBeNull();
    expect(dutyAt([SUNDAY_REST], SHIFTS, '2026-11-28', at('08:00'))).not.toBeNull();
  });

  it('a night shift runs into the next morning, even into a rest day', () => {
    // nights Monday to Saturday, Sunday rest
    const nights = week([2, 2, 2, 2, 2, 2, null]);
    // Saturday 23:00 and Sunday 07:59 are Saturday's night; Sunday 20:00 is rest
    expect(dutyAt([nights], SHIFTS, '2026-11-28', at('23:00'))).toEqual({ shift_id: 2, day: '2026-11-28' });
    expect(dutyAt([nights], SHIFTS, '2026-11-29', at('07:59'))).toEqual({ shift_id: 2, day: '2026-11-28' });
    expect(dutyAt([nights], SHIFTS, '2026-11-29', at('08:00'))).toBeNull();
    expect(dutyAt([nights], SHIFTS, '2026-11-29', at('20:00'))).toBeNull();
    // Monday 03:00 follows Sunday's rest: off
    expect(dutyAt([nights], SHIFTS, '2026-11-30', at('03:00'))).toBeNull();
    expect(dutyAt([nights], SHIFTS, '2026-11-30', at('20:00'))).toEqual({ shift_id: 2, day: '2026-11-30' });
  });

  it('a split shift is off between its ranges', () => {
    const split = week([3, 3, 3, 3, 3, 3, 3]);
    expect(dutyAt([split], SHIFTS, '2026-11-27', at('09:00'))).not.toBeNull();
    expect(dutyAt([split], SHIFTS, '2026-11-27', at('13:00'))).toBeNull();
    expect(dutyAt([split], SHIFTS, '2026-11-27', at('20:59'))).not.toBeNull();
  });

  it('nothing before the effective date, and the night before the effective date does not count', () => {
    const nights: RosterPlan = { id: 1, kind: 'D', cycle: 1, start_date: '2026-12-01', days: [2] };
    expect(dutyAt([nights], SHIFTS, '2026-12-01', at('03:00'))).toBeNull();
    expect(dutyAt([nights], SHIFTS, '2026-12-01', at('21:00'))).not.toBeNull();
    expect(dutyAt([nights], SHIFTS, '2026-12-02', at('03:00'))).toEqual({ shift_id: 2, day: '2026-12-01' });
    expect(dutyAt([], SHIFTS, '2026-12-02', at('03:00'))).toBeNull();
  });
});
