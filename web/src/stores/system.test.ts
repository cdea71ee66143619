import { describe, expect, it } from 'vitest';
import { daysLeftOf, expiryAction } from './system';
import { normalizeSettings, DEFAULT_SETTINGS, THEME_PRESETS } from './settings';
import { parseSize, parseLanguage } from './app';

describe('expiry (spec 4)', () => {
  const today = new Date(2025, 0, 10, 15, 30);
  it('days left = end date minus today', () => {
    expect(daysLeftOf({ end_time: '2025-01-10 23:59:59', days_left: 99 }, today)).toBe(0);
    expect(daysLeftOf({ end_time: '2025-02-08 00:00:00', days_left: 99 }, today)).toBe(29);
    expect(daysLeftOf({ end_time: '2025-01-09', days_left: 99 }, today)).toBe(-1);
    expect(daysLeftOf({ end_time: '', days_left: 12 }, today)).toBe(12);
    expect(daysLeftOf(null, today)).toBeNull();
  });
  it("counts from today's date in the community's time zone, not the browser's", () => {
    // 20:00 UTC on the 10th is 04:00 on the 11th in Shanghai
    const evening = new Date(Date.UTC(2025, 0, 10, 20, 0));
    expect(daysLeftOf({ end_time: '2025-01-31 23:59:59', days_left: 99, time_zone: 'Asia/Shanghai' }, evening)).toBe(20);
    expect(daysLeftOf({ end_time: '2025-01-31 23:59:59', days_left: 99, time_zone: 'UTC' }, evening)).toBe(21);
  });
  it('reminds from 0 to 29 days, forces below 0', () => {
    expect(expiryAction(-1)).toBe('force');
    expect(expiryAction(0)).toBe('remind');
    expect(expiryAction(29)).toBe('remind');
    expect(expiryAction(30)).toBe('none');
    expect(expiryAction(null)).toBe('none');
  });
});

describe('settings and app settings (spec 3, 9)', () => {
  it('has 8 presets with #1890ff first', () => {
    expect(THEME_PRESETS).toHaveLength(8);
    expect(DEFAULT_SETTINGS.theme).toBe('#1890ff');
  });
  it('keeps only valid stored settings', () => {
    expect(normalizeSettings({ theme: '#13c2c2', tagsView: false, fixedHeader: 'x', extra: 1 })).toEqual({
      ...DEFAULT_SETTINGS,
      theme: '#13c2c2',
      tagsView: false,
    });
    expect(normalizeSettings({ theme: 'red' }).theme).toBe('#1890ff');
    expect(normalizeSettings(null)).toEqual(DEFAULT_SETTINGS);
  });
  it('size defaults to medium, language to zh-CN', () => {
    expect(parseSize(undefined)).toBe('medium');
    expect(parseSize('mini')).toBe('mini');
    expect(parseSize('huge')).toBe('medium');
    expect(parseLanguage('es')).toBe('es');
    expect(parseLanguage('fr')).toBe('zh-CN');
  });
});
