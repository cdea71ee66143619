import { describe, expect, it } from 'vitest';
import { dashboardCards } from './cards';

describe('dashboard cards', () => {
  it('draws the cards the contract gives the user, in its order', () => {
    const keys = (side: 'community' | 'group', roles: string[], sysType?: string) =>
      dashboardCards({ side, roles, sysType }).map((c) => c.key);
    expect(keys('community', ['admin'])).toEqual([
      'backlog',
      'feesMonth',
      'feesArrears',
      'repairs',
      'parking',
      'access',
      'meters',
      'patrol',
      'activities',
      'daysLeft',
    ]);
    expect(keys('community', ['carpark'])).toEqual(['backlog', 'parking', 'meters', 'daysLeft']);
    expect(keys('community', ['devicelist'])).toEqual(['backlog', 'meters', 'daysLeft']);
    expect(keys('community', ['admin'], 'merchant')).not.toContain('backlog');
    expect(keys('group', ['leader_admin'])).toEqual([]);
    expect(keys('community', ['cashier'])).toEqual(['backlog', 'feesMonth', 'daysLeft']);
    expect(keys('community', ['steward'])).toEqual(['backlog', 'repairs', 'daysLeft']);
    expect(keys('community', ['repairs'])).toEqual(['backlog', 'repairs', 'daysLeft']);
  });

  it('has a component for every card', () => {
    for (const c of dashboardCards({ side: 'community', roles: ['admin'] })) expect(typeof c.Component).toBe('function');
  });
});
