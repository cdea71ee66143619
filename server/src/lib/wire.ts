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
