import Cookies from 'js-cookie';
import { create } from 'zustand';
import type { SystemInfo } from '@wuye/contract/system';
import { LIMITS } from '@wuye/contract/codes';
import { daysBetween, formatWireDate } from '@wuye/contract/dates';
import { readJson, writeJson } from './storage';
import { sessionCookieAttributes } from '../utils/auth';

export const SYSTEM_INFO_KEY = 'systemInfo';

/** The small part of the system info that also goes into a cookie (docs/product.md#system-info). */
function toCookie(info: SystemInfo): string {
  const { rid, region_title, sub_title, end_time, logo_url } = info;
  return JSON.stringify({ rid, region_title, sub_title, end_time, logo_url });
}

interface SystemState {
  info: SystemInfo | null;
  setInfo: (info: SystemInfo | null) => void;
}

export const useSystem = create<SystemState>()((set) => ({
  info: readJson<SystemInfo | null>('session', SYSTEM_INFO_KEY, null),
  setInfo: (info) => {
    writeJson('session', SYSTEM_INFO_KEY, info);
    if (info) Cookies.set(SYSTEM_INFO_KEY, toCookie(info), sessionCookieAttributes());
    else Cookies.remove(SYSTEM_INFO_KEY);
    set({ info });
  },
}));

/**
 * Days left = end date minus today (docs/product.md#community-expiry), from the end date when present. "Today" is the
 * calendar day in the community's time zone, as the server counts it, not the browser's: between
 * midnight in China and midnight where the browser is, they differ by one.
 */
export function daysLeftOf(
  info: (Pick<SystemInfo, 'end_time' | 'days_left'> & Partial<Pick<SystemInfo, 'time_zone'>>) | null,
  now: Date = new Date(),
): number | null {
  if (!info) return null;
  const end = (info.end_time || '').slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(end)) return daysBetween(formatWireDate(now, info.time_zone || undefined), end);
  return typeof info.days_left === 'number' ? info.days_left : null;
}

/** What the expiry check (docs/product.md#community-expiry) does for a number of days left. */
export function expiryAction(daysLeft: number | null): 'force' | 'remind' | 'none' {
  if (daysLeft === null) return 'none';
  if (daysLeft < 0) return 'force';
  if (daysLeft < LIMITS.expiryWarnDays) return 'remind';
  return 'none';
}
