import Cookies from 'js-cookie';
import { create } from 'zustand';
import { LIMITS } from '@wuye/contract/codes';
import { COOKIES, parseLanguage, type Language } from '@wuye/contract/home';

export { LANGUAGES, parseLanguage, type Language } from '@wuye/contract/home';

/** Size options (docs/product.md#shell-size, #constants): four, default medium, kept in a cookie. */
export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
export type Device = 'desktop' | 'mobile';

export function parseSize(raw: string | undefined): Size {
  return (SIZES as readonly string[]).includes(raw ?? '') ? (raw as Size) : 'medium';
}

interface AppState {
  /** sidebar open flag: cookie sidebarStatus, 1 open or 0 closed, default open */
  sidebarOpened: boolean;
  withoutAnimation: boolean;
  device: Device;
  /** the mobile sidebar drawer */
  mobileSidebarOpen: boolean;
  language: Language;
  size: Size;
  toggleSidebar: () => void;
  closeSidebar: (withoutAnimation?: boolean) => void;
  setMobileSidebarOpen: (open: boolean) => void;
  setDevice: (device: Device) => void;
  setLanguage: (language: Language) => void;
  setSize: (size: Size) => void;
}

/** The media query of the mobile layout: narrower than the 992 px breakpoint (docs/product.md#constants). */
export const MOBILE_MEDIA_QUERY = `(max-width: ${LIMITS.mobileBreakpointPx - 1}px)`;

/** Desktop or mobile by the breakpoint, as the window is now. */
export function deviceOfWindow(): Device {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 'desktop';
  return window.matchMedia(MOBILE_MEDIA_QUERY).matches ? 'mobile' : 'desktop';
}

export const useAppStore = create<AppState>()((set, get) => ({
  sidebarOpened: Cookies.get(COOKIES.sidebar) !== '0',
  withoutAnimation: false,
  // known from the start: a phone's first render is the mobile shell, not the desktop one redone
  device: deviceOfWindow(),
  mobileSidebarOpen: false,
  language: parseLanguage(Cookies.get(COOKIES.language)),
  size: parseSize(Cookies.get('size')),
  toggleSidebar: () => {
    if (get().device === 'mobile') {
      set({ mobileSidebarOpen: !get().mobileSidebarOpen });
      return;
    }
    const sidebarOpened = !get().sidebarOpened;
    Cookies.set(COOKIES.sidebar, sidebarOpened ? '1' : '0');
    set({ sidebarOpened, withoutAnimation: false });
  },
  closeSidebar: (withoutAnimation = false) => {
    Cookies.set(COOKIES.sidebar, '0');
    set({ sidebarOpened: false, withoutAnimation, mobileSidebarOpen: false });
  },
  setMobileSidebarOpen: (mobileSidebarOpen) => set({ mobileSidebarOpen }),
  setDevice: (device) => set({ device, mobileSidebarOpen: false }),
  setLanguage: (language) => {
    Cookies.set(COOKIES.language, language);
    set({ language });
  },
  setSize: (size) => {
    Cookies.set('size', size);
    set({ size });
  },
}));
