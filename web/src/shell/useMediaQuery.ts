import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, following the window as it is resized. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * A window wide enough for every top-bar icon beside every area of the top menu; narrower, the
 * icons other than the searches, the to-dos and the user fold into the "more" menu (an office's
 * 1280–1440 px screens show all the areas).
 */
export const WIDE_NAVBAR_QUERY = '(min-width: 1600px)';
