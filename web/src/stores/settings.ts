import Cookies from 'js-cookie';
import { create } from 'zustand';
import { COOKIES } from '@wuye/contract/home';
import { DEFAULT_THEME } from '../theme';
import { readJson, writeJson } from './storage';

export { DEFAULT_THEME, THEME_PRESETS } from '../theme';

export interface Settings {
  theme: string;
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  theme: DEFAULT_THEME,
  showSettings: true,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
};

export const SETTINGS_KEY = 'settings';

/** Reads stored settings, keeping only known keys with the right types. */
export function normalizeSettings(raw: unknown): Settings {
  const out: Settings = { ...DEFAULT_SETTINGS };
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  if (typeof r.theme === 'string' && /^#[0-9a-fA-F]{6}$/.test(r.theme)) out.theme = r.theme;
  for (const k of ['showSettings', 'tagsView', 'fixedHeader', 'sidebarLogo'] as const) {
    if (typeof r[k] === 'boolean') out[k] = r[k];
  }
  return out;
}

interface SettingsState extends Settings {
  drawerOpen: boolean;
  change: <K extends keyof Settings>(key: K, value: Settings[K]) => void;
  setDrawerOpen: (open: boolean) => void;
}

/**
 * The settings that change how the home page's first screen looks, as the cookie the server reads
 * when it draws that screen (server/src/http/first-screen.ts): `tags=0&logo=0&theme=13c2c2`, only
 * what differs from the defaults; empty when nothing does.
 */
export function layoutCookieOf(s: Settings): string {
  const out = new URLSearchParams();
  if (!s.tagsView) out.set('tags', '0');
  if (!s.sidebarLogo) out.set('logo', '0');
  if (s.theme.toLowerCase() !== DEFAULT_THEME.toLowerCase()) out.set('theme', s.theme.slice(1));
  return out.toString();
}

function writeLayoutCookie(s: Settings): void {
  const value = layoutCookieOf(s);
  if (value) Cookies.set(COOKIES.layout, value, { sameSite: 'Lax', expires: 3650 });
  else Cookies.remove(COOKIES.layout);
}

const stored = normalizeSettings(readJson<unknown>('local', SETTINGS_KEY, null));
// settings kept before the cookie existed reach the server from the next page load on
writeLayoutCookie(stored);

export const useSettings = create<SettingsState>()((set, get) => ({
  ...stored,
  drawerOpen: false,
  change: (key, value) => {
    set({ [key]: value } as Partial<SettingsState>);
    const { theme, showSettings, tagsView, fixedHeader, sidebarLogo } = get();
    const settings: Settings = { theme, showSettings, tagsView, fixedHeader, sidebarLogo };
    writeJson('local', SETTINGS_KEY, settings);
    writeLayoutCookie(settings);
  },
  setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
}));
