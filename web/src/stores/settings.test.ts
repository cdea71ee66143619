import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, layoutCookieOf } from './settings';

describe('layout cookie of the settings', () => {
  it('is empty for the defaults, so most browsers send nothing more', () => {
    expect(layoutCookieOf(DEFAULT_SETTINGS)).toBe('');
    expect(layoutCookieOf({ ...DEFAULT_SETTINGS, fixedHeader: false, showSettings: false })).toBe('');
  });

  it('names what changes the first screen: tag strip, logo, theme colour', () => {
    expect(layoutCookieOf({ ...DEFAULT_SETTINGS, tagsView: false, sidebarLogo: false, theme: '#13C2C2' })).toBe(
      'tags=0&logo=0&theme=13C2C2',
    );
    expect(layoutCookieOf({ ...DEFAULT_SETTINGS, theme: DEFAULT_SETTINGS.theme.toUpperCase() })).toBe('');
  });
});
