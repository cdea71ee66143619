import { LIMITS } from '@wuye/contract/codes';

/**
 * Prevent-double-click (docs/product.md#double-click): after a click the action is locked for `ms` (3000 by default).
 * Pure, clock injected, so it is unit-testable and reused by the hook and the button.
 */
export function createClickGuard(ms: number = LIMITS.preventDoubleClickMs, now: () => number = Date.now) {
  let lockedUntil = 0;
  return {
    /** true when the click may run (and locks the guard) */
    tryClick(): boolean {
      const t = now();
      if (t < lockedUntil) return false;
      lockedUntil = t + ms;
      return true;
    },
    isLocked(): boolean {
      return now() < lockedUntil;
    },
    release(): void {
      lockedUntil = 0;
    },
  };
}
