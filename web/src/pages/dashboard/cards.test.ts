import { describe, expect, it } from 'vitest';
import { dashboardCards, visibleCards } from './cards';

describe('dashboard cards', () => {
  it('hides the to-do card for leader_admin, merchants and the group side', () => {
    const keys = (side: 'community' | 'group', roles: string[], sysType?: string) =>
      visibleCards(dashboardCards, { side, roles, sysType }).map((c) => c.key);
    expect(keys('community', ['admin'])).toContain('backlog');
    expect(keys('community', ['admin'], 'merchant')).not.toContain('backlog');
    expect(keys('group', ['leader_admin'])).not.toContain('backlog');
    expect(keys('group', ['leader_admin'])).not.toContain('daysLeft');
    expect(keys('community', ['cashier'])).toEqual(['backlog', 'feesMonth', 'daysLeft']);
  });

  it('shows the fee figures to fee roles only', () => {
    const keys = (roles: string[]) => visibleCards(dashboardCards, { side: 'community', roles }).map((c) => c.key);
    expect(keys(['steward'])).toEqual(['backlog', 'daysLeft']);
    expect(keys(['fees'])).toEqual(['backlog', 'feesMonth', 'feesArrears', 'daysLeft']);
  });
});
