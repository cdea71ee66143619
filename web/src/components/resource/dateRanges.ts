import dayjs, { type Dayjs } from 'dayjs';
import { addDays, addMonths, formatWireDate } from '@wuye/contract/dates';

/** A day range [from, to] as YYYY-MM-DD, both days included. */
export type DayRange = [string, string];

/**
 * The ranges of the date-range presets (今天, 昨天, 本周, 本月, 上月, 本年), counted in the
 * business time zone: a browser elsewhere still means the community's today. Weeks start on Monday.
 */
export function dayRangePresets(now: Date = new Date(), zone?: string): Array<{ label: string; range: DayRange }> {
  const today = formatWireDate(now, zone);
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const monthStart = `${today.slice(0, 8)}01`;
  const monthEnd = addDays(addMonths(monthStart, 1), -1);
  const lastMonthStart = addMonths(monthStart, -1);
  return [
    { label: '今天', range: [today, today] },
    { label: '昨天', range: [addDays(today, -1), addDays(today, -1)] },
    { label: '本周', range: [addDays(today, -weekday), addDays(today, 6 - weekday)] },
    { label: '本月', range: [monthStart, monthEnd] },
    { label: '上月', range: [lastMonthStart, addDays(monthStart, -1)] },
    { label: '本年', range: [`${today.slice(0, 4)}-01-01`, `${today.slice(0, 4)}-12-31`] },
  ];
}

/** The presets in the shape antd's RangePicker takes. */
export function rangePickerPresets(zone?: string): Array<{ label: string; value: [Dayjs, Dayjs] }> {
  return dayRangePresets(new Date(), zone).map(({ label, range }) => ({ label, value: [dayjs(range[0]), dayjs(range[1])] }));
}
