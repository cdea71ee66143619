import { create } from 'zustand';
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

export const useSettings = create<SettingsState>()((set, get) => ({
  ...normalizeSettings(readJson<unknown>('local', SETTINGS_KEY, null)),
  drawerOpen: false,
  change: (key, value) => {
    set({ [key]: value } as Partial<SettingsState>);
    const { theme, showSettings, tagsView, fixedHeader, sidebarLogo } = get();
    writeJson('local', SETTINGS_KEY, { theme, showSettings, tagsView, fixedHeader, sidebarLogo });
  },
  setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
}));
