import { describe, expect, it } from 'vitest';
import { addVisited, cachedOf, delAllVisited, delOthersVisited, delVisited, nextAfterClose, type TagView } from './tags';

const dash: TagView = { path: '/dashboard', fullPath: '/dashboard', title: 'route.dashboard', affix: true, cache: true };
const backlog: TagView = { path: '/setup/backlog', fullPath: '/setup/backlog', title: 'route.backlog', cache: true };
const log: TagView = { path: '/updatelog/updatelog', fullPath: '/updatelog/updatelog', title: 'route.updatelog' };

describe('visited tabs (spec 4)', () => {
  it('adds by path without duplicates, keeping the place and taking the new query', () => {
    let list = addVisited([], dash);
    list = addVisited(list, backlog);
    list = addVisited(list, log);
    list = addVisited(list, { ...backlog, fullPath: '/setup/backlog?status=Y' });
    expect(list.map((v) => v.path)).toEqual(['/dashboard', '/setup/backlog', '/updatelog/updatelog']);
    expect(list[1]!.fullPath).toBe('/setup/backlog?status=Y');
  });
  it('returns the same list when nothing changes', () => {
    const list = [dash, backlog];
    expect(addVisited(list, backlog)).toBe(list);
  });
  it('never closes affix tabs', () => {
    const list = [dash, backlog, log];
    expect(delVisited(list, '/dashboard')).toEqual(list);
    expect(delVisited(list, '/setup/backlog')).toEqual([dash, log]);
    expect(delOthersVisited(list, '/updatelog/updatelog')).toEqual([dash, log]);
    expect(delAllVisited(list)).toEqual([dash]);
  });
  it('caches only tabs marked to be kept alive', () => {
    expect(cachedOf([dash, backlog, log])).toEqual(['/dashboard', '/setup/backlog']);
  });
  it('goes to the last tab after closing the active one', () => {
    expect(nextAfterClose([dash, backlog])).toBe('/setup/backlog');
    expect(nextAfterClose([])).toBe('/');
  });
});
