import { describe, expect, it } from 'vitest';
import { AREA_NAMES, RELEASES } from './releases';

describe('the update log (changelog.json)', () => {
  it('lists releases newest first, each dated, titled and with what changed', () => {
    expect(RELEASES.length).toBeGreaterThan(1);
    const dates = RELEASES.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const r of RELEASES) {
      expect(r.version).toMatch(/^v\d+\.\d+\.\d+$/);
      expect(r.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.title).not.toBe('');
      expect(r.changes.length).toBeGreaterThan(0);
      for (const c of r.changes) {
        expect(Object.keys(AREA_NAMES)).toContain(c.area);
        expect(c.items.length).toBeGreaterThan(0);
      }
    }
    expect(new Set(RELEASES.map((r) => r.version)).size).toBe(RELEASES.length);
  });

  it('covers the areas the product has: shell, structure and owners, fees and the cashier, renewal, refunds, imports, lists', () => {
    const areas = new Set(RELEASES.flatMap((r) => r.changes.map((c) => c.area)));
    for (const area of ['shell', 'structure', 'owners', 'fees', 'renewal', 'refunds', 'imports', 'lists'] as const)
      expect(areas).toContain(area);
    const words = RELEASES.flatMap((r) => r.changes.flatMap((c) => c.items)).join('\n');
    expect(words).toContain('收银台');
  });
});
