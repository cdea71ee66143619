import { describe, expect, it } from 'vitest';
import { createClickGuard } from './clickGuard';

describe('prevent double click (spec 9)', () => {
  it('locks for 3000 ms by default', () => {
    let now = 1000;
    const g = createClickGuard(undefined, () => now);
    expect(g.tryClick()).toBe(true);
    now += 2999;
    expect(g.tryClick()).toBe(false);
    expect(g.isLocked()).toBe(true);
    now += 1;
    expect(g.tryClick()).toBe(true);
  });
  it('takes another delay and can be released', () => {
    let now = 0;
    const g = createClickGuard(500, () => now);
    expect(g.tryClick()).toBe(true);
    now = 499;
    expect(g.tryClick()).toBe(false);
    g.release();
    expect(g.tryClick()).toBe(true);
  });
});
