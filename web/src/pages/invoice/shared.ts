import { useMemo } from 'react';
import type { Dayjs } from 'dayjs';
import { toFen } from '@wuye/contract/money';
import { rangePickerPresets } from '../../components/resource';
import { useSystem } from '../../stores/system';

/** The date-range presets (今天 … 本年) in the community's calendar. */
export function useDayPresets() {
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  return useMemo(() => rangePickerPresets(zone), [zone]);
}

/** A RangePicker's value as the wire's day range, or '' for none. */
export function wireRange(v: [Dayjs | null, Dayjs | null] | null | undefined): [string, string] | '' {
  return v?.[0] && v[1] ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : '';
}

/**
 * What is wrong with an amount typed for a line of at most `max` (a decimal string), or '' when
 * it will do: more than nothing and no more than what is left.
 */
export function amountProblem(value: string | undefined, max: string): string {
  if (!value || !/^\d+(\.\d{1,2})?$/.test(value)) return '请输入金额';
  const fen = toFen(value);
  if (fen <= 0n) return '金额须大于0';
  if (fen > toFen(max)) return `不能超过 ${max}`;
  return '';
}

/** The distinct ids, nulls left out, in their first order. */
export const distinct = (ids: Array<number | null | undefined>): number[] => [
  ...new Set(ids.filter((i): i is number => typeof i === 'number')),
];
