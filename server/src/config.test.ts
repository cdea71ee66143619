import { describe, expect, it } from 'vitest';
import { businessTimeZone, checkStartConfig, loadConfig, publicUrlOf, trustedProxies } from './config.js';

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

describe('the settings of issue 33', () => {
  it('reads PUBLIC_URL as an origin (and path) without its trailing slash, refusing anything else', () => {
    expect(publicUrlOf('https://wy.example.com/')).toBe('https://wy.example.com');
    expect(publicUrlOf('http://10.0.0.5:8080/wuye/')).toBe('http://10.0.0.5:8080/wuye');
    expect(publicUrlOf(undefined)).toBeUndefined();
    expect(() => publicUrlOf('wy.example.com')).toThrow(/PUBLIC_URL/);
    expect(() => publicUrlOf('javascript:alert(1)')).toThrow(/PUBLIC_URL/);
  });

  it('trusts no proxy by default, and the listed ones with TRUST_PROXY', () => {
    expect(trustedProxies(undefined)).toBe(false);
    expect(trustedProxies(' ')).toBe(false);
    expect(trustedProxies('127.0.0.1,10.0.0.0/8 , loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', 'loopback']);
  });

  it('has the small body limit, the sandbox and the production checks as documented', () => {
    const c = loadConfig({});
    expect([c.bodyLimitBytes, c.uploadBodyLimitBytes, c.anonRatePerMinute, c.sessionMaxHours]).toEqual([262144, 15728640, 120, 24]);
    expect(c.sandbox).toBe(true);
    expect(() => checkStartConfig(c)).not.toThrow();
    expect(() => checkStartConfig(loadConfig({ NODE_ENV: 'production', SANDBOX: '0' }))).toThrow(/PUBLIC_URL/);
  });
});
