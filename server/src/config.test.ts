import { describe, expect, it } from 'vitest';
import { businessTimeZone, loadConfig } from './config.js';

describe('the business time zone', () => {
  it('is Asia/Shanghai unless TZ_BUSINESS names another zone the wire format knows', () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TZ_BUSINESS: '' }).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TZ_BUSINESS: 'UTC' }).timeZone).toBe('UTC');
    expect(businessTimeZone({ TZ_BUSINESS: 'Asia/Hong_Kong' })).toBe('Asia/Hong_Kong');
  });

  it('refuses a zone whose offset the answers would not follow, naming the ones it takes', () => {
    expect(() => loadConfig({ TZ_BUSINESS: 'Asia/Urumqi' })).toThrow(/TZ_BUSINESS must be one of Asia\/Shanghai, .*UTC: Asia\/Urumqi/);
    expect(() => businessTimeZone({ TZ_BUSINESS: 'Europe/Berlin' })).toThrow('Europe/Berlin');
  });
});
