import { useLayoutEffect } from 'react';
import { FIRST_SCREEN_DATA_ID, type FirstScreenData } from '@wuye/contract/home';

/**
 * The server draws the home page's first screen (#first-screen, server/src/http/first-screen.ts)
 * over the console while its scripts load. It goes once the console shows something of its own:
 * a page, a page's error, or the sign-in page.
 */
export function dismissFirstScreen(): void {
  document.getElementById('first-screen')?.remove();
}

/** Removes the first screen in the commit that puts the element rendering it on the screen. */
export function FirstScreenDone(): null {
  useLayoutEffect(dismissFirstScreen, []);
  return null;
}

/**
 * The figures the server drew in the first screen (a JSON script beside it), read once: the
 * dashboard's cards start from them instead of asking again. Empty without a first screen.
 */
export function takeFirstScreenData(): FirstScreenData {
  const el = document.getElementById(FIRST_SCREEN_DATA_ID);
  if (!el) return {};
  el.remove();
  try {
    return JSON.parse(el.textContent ?? '') as FirstScreenData;
  } catch {
    return {};
  }
}
