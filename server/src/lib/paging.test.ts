import { describe, expect, it } from 'vitest';
import { lastPageTotal } from './paging.js';

describe('lastPageTotal', () => {
  const paging = (page: number, limit = 10) => ({ page, limit, sort: 'asc' as const });
  it('knows the total from a page with fewer rows than asked for', () => {
    expect(lastPageTotal(3, paging(1))).toBe(3);
    expect(lastPageTotal(9, paging(4))).toBe(39);
    expect(lastPageTotal(1, paging(2, 1 + 1))).toBe(3);
    expect(lastPageTotal(0, paging(1))).toBe(0);
  });
  it('leaves the total to a count for a full page or an empty one past the first', () => {
    expect(lastPageTotal(10, paging(1))).toBeUndefined();
    expect(lastPageTotal(10, paging(3))).toBeUndefined();
    expect(lastPageTotal(0, paging(7))).toBeUndefined();
  });
});
