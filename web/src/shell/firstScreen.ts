import { useLayoutEffect } from 'react';

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
