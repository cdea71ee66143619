import { sql } from 'kysely';
import { daysBetween, formatWireDate, formatWireTime } from '@wuye/contract';
import { businessTimeZone } from '../config.js';

// read once, as config.ts reads its settings: every read of process.env calls into Node's C++
// side, and this runs for every time in an answer
const ZONE = businessTimeZone();

/** timestamptz -> 'YYYY-MM-DD HH:mm:ss' in the business time zone ('' for null). */
export const wireTime = (d: Date | null | undefined): string => formatWireTime(d ?? null, ZONE);

/** Today's date in the business time zone. */
export const today = (): string => formatWireDate(new Date(), ZONE);

/** Days from today to `day` (negative once past). */
export const daysLeft = (day: string): number => daysBetween(today(), day);

/**
 * "`column` falls on business days [from, to]": a half-open range of instants, compared in the
 * database's zone (the session's TimeZone is the business zone, db/connection.ts), so an index on
 * the column serves it.
 */
export const withinDays = (column: string, [from, to]: readonly [string, string]) =>
  sql<boolean>`${sql.ref(column)} >= ${from}::date AND ${sql.ref(column)} < ${to}::date + 1`;

/** The instant business day `day` begins, for comparing a timestamptz column with an index. */
export const dayStart = (day: string) => sql<Date>`${day}::date::timestamp AT TIME ZONE current_setting('TimeZone')`;
