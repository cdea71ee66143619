/**
 * Wire times are 'YYYY-MM-DD HH:mm:ss' in the business time zone (Asia/Shanghai by default).
 * These helpers are pure so both the server and the browser use them.
 */
export const WIRE_TIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const WIRE_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const FIXED_OFFSETS: Readonly<Record<string, number>> = { 'Asia/Shanghai': 480, 'Asia/Hong_Kong': 480, 'Asia/Taipei': 480, UTC: 0 };

/** The business time zones wire times can be in: fixed offsets (China has no daylight saving). */
export const BUSINESS_TIME_ZONES: readonly string[] = Object.keys(FIXED_OFFSETS);
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** Offset in minutes of a fixed-offset zone name (one of BUSINESS_TIME_ZONES; the server refuses others at start). */
export function zoneOffsetMinutes(zone: string): number {
  return FIXED_OFFSETS[zone] ?? 480;
}

/** Date -> 'YYYY-MM-DD HH:mm:ss' in the zone. */
export function formatWireTime(d: Date | null | undefined, zone = 'Asia/Shanghai'): string {
  if (!d) return '';
  const t = new Date(d.getTime() + zoneOffsetMinutes(zone) * 60000);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

/** Date -> 'YYYY-MM-DD' (the calendar day in the zone). */
export function formatWireDate(d: Date, zone = 'Asia/Shanghai'): string {
  return formatWireTime(d, zone).slice(0, 10);
}

/** Whole days from `from` (YYYY-MM-DD) to `to` (YYYY-MM-DD): "days left" of docs/product.md#community-expiry. */
export function daysBetween(from: string, to: string): number {
  const a = Date.UTC(+from.slice(0, 4), +from.slice(5, 7) - 1, +from.slice(8, 10));
  const b = Date.UTC(+to.slice(0, 4), +to.slice(5, 7) - 1, +to.slice(8, 10));
  return Math.round((b - a) / 86400000);
}

/** Adds calendar months to YYYY-MM-DD, clamping to the month's last day. */
export function addMonths(day: string, months: number): string {
  const y = +day.slice(0, 4);
  const m = +day.slice(5, 7) - 1 + months;
  const d = +day.slice(8, 10);
  const first = new Date(Date.UTC(y, m, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return `${first.getUTCFullYear()}-${pad(first.getUTCMonth() + 1)}-${pad(Math.min(d, last))}`;
}

/** Adds days to YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  const t = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) + days * 86400000;
  const d = new Date(t);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Reads a time: a 10-digit number is seconds, a longer one milliseconds, else a date text (docs/product.md#formats). */
export function parseTime(value: string | number | Date): Date {
  if (value instanceof Date) return value;
  const s = String(value);
  if (/^\d{10}$/.test(s)) return new Date(Number(s) * 1000);
  if (/^\d+$/.test(s)) return new Date(Number(s));
  return new Date(s.replace(' ', 'T'));
}

const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

/** Formats with tokens {y} {m} {d} {h} {i} {s} {a}; default 'year-month-day hour:minute:second' (docs/product.md#formats). */
export function formatTime(value: string | number | Date, pattern = '{y}-{m}-{d} {h}:{i}:{s}'): string {
  const d = parseTime(value);
  const parts: Record<string, string> = {
    y: String(d.getFullYear()),
    m: pad(d.getMonth() + 1),
    d: pad(d.getDate()),
    h: pad(d.getHours()),
    i: pad(d.getMinutes()),
    s: pad(d.getSeconds()),
    a: WEEKDAYS[d.getDay()]!,
  };
  return pattern.replace(/\{([ymdhisa])\}/g, (_, k: string) => parts[k]!);
}

/** Relative wording (docs/product.md#formats): just now, minutes ago, hours ago, 1 day ago, else the date. */
export function relativeTime(value: string | number | Date, now: Date = new Date()): string {
  const d = parseTime(value);
  const diff = (now.getTime() - d.getTime()) / 1000;
  if (diff < 30) return 'just now';
  if (diff < 3600) return `${Math.ceil(diff / 60)} minutes ago`;
  if (diff < 86400) return `${Math.ceil(diff / 3600)} hours ago`;
  if (diff < 172800) return '1 day ago';
  return formatTime(d, '{m}-{d} {h}:{i}');
}

/** Time-ago list filter (docs/product.md#formats): minutes under an hour, hours under a day, then days. */
export function timeAgo(seconds: number, now: number = Date.now() / 1000): string {
  const between = now - seconds;
  const plural = (n: number, label: string) => `${n} ${label}${n === 1 ? '' : 's'}`;
  if (between < 3600) return plural(Math.floor(between / 60), 'minute');
  if (between < 86400) return plural(Math.floor(between / 3600), 'hour');
  return plural(Math.floor(between / 86400), 'day');
}

/** Shortened numbers with k, M, G, T, P, E (docs/product.md#formats). */
export function shortNumber(num: number, digits = 1): string {
  const units = [
    { v: 1e18, s: 'E' },
    { v: 1e15, s: 'P' },
    { v: 1e12, s: 'T' },
    { v: 1e9, s: 'G' },
    { v: 1e6, s: 'M' },
    { v: 1e3, s: 'k' },
  ];
  for (const u of units) {
    if (num >= u.v) return (num / u.v).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1') + u.s;
  }
  return String(num);
}
