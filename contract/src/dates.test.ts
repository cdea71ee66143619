import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween, formatWireTime, parseTime, relativeTime, shortNumber, timeAgo } from './dates.js';

describe('dates', () => {
  it('formats wire times in Asia/Shanghai', () => {
    expect(formatWireTime(new Date('2026-01-01T16:30:05Z'))).toBe('2026-01-02 00:30:05');
  });
  it('counts days left and adds months clamping the day', () => {
    expect(daysBetween('2026-11-22', '2026-12-12')).toBe(20);
    expect(daysBetween('2026-11-22', '2026-11-17')).toBe(-5);
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-22', 24)).toBe('2028-11-22');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
  it('reads a 10-digit timestamp as seconds', () => {
    expect(parseTime('1700000000').getTime()).toBe(1700000000000);
  });
  it('words relative times as spec 9 says', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(relativeTime(new Date(now.getTime() - 10_000), now)).toBe('just now');
    expect(relativeTime(new Date(now.getTime() - 5 * 60_000), now)).toBe('5 minutes ago');
    expect(relativeTime(new Date(now.getTime() - 3 * 3600_000), now)).toBe('3 hours ago');
    expect(relativeTime(new Date(now.getTime() - 30 * 3600_000), now)).toBe('1 day ago');
    expect(timeAgo(0, 2 * 86400)).toBe('2 days');
    expect(timeAgo(0, 60)).toBe('1 minute');
  });
  it('shortens numbers', () => {
    expect(shortNumber(1500)).toBe('1.5k');
    expect(shortNumber(2_000_000)).toBe('2M');
    expect(shortNumber(999)).toBe('999');
  });
});
