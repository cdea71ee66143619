import { describe, expect, it } from 'vitest';
import { groupedAmount, groupedInt, visibleHomeCards } from './home.js';

describe('groupedInt', () => {
  it('writes thousands separators as antd Statistic does, the first screen and the console alike', () => {
    expect([0, 999, 1000, 12345, 1234567].map(groupedInt)).toEqual(['0', '999', '1,000', '12,345', '1,234,567']);
  });
});

describe('groupedAmount', () => {
  it('groups the whole yuan by thousands and shows two decimals', () => {
    expect(groupedAmount('0')).toBe('0.00');
    expect(groupedAmount('999.9')).toBe('999.90');
    expect(groupedAmount('1000')).toBe('1,000.00');
    expect(groupedAmount('39827.50')).toBe('39,827.50');
    expect(groupedAmount('-1234567.05')).toBe('-1,234,567.05');
    expect(groupedAmount('000123.4')).toBe('123.40');
  });

  it('leaves anything that is not a decimal amount as it came', () => {
    expect(groupedAmount('')).toBe('');
    expect(groupedAmount('1e5')).toBe('1e5');
    expect(groupedAmount('12.345')).toBe('12.345');
  });
});

describe('visibleHomeCards', () => {
  it('leaves out the cards of modules closed in the community', () => {
    const keys = visibleHomeCards({ side: 'community', roles: ['admin'], modulesOff: ['parking', 'fees'] });
    expect(keys).not.toContain('parking');
    expect(keys).not.toContain('feesMonth');
    expect(keys).not.toContain('feesArrears');
    expect(keys).toContain('repairs');
  });
  const community = 'community' as const;
  it('gives admin every community card and the group side none', () => {
    expect(visibleHomeCards({ side: community, roles: ['admin'] })).toEqual([
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
    expect(visibleHomeCards({ side: 'group', roles: ['admin', 'leader_admin'] })).toEqual([]);
  });

  it('shows the fee cards by role, and hides the to-do card from merchants and leader_admin', () => {
    expect(visibleHomeCards({ side: community, roles: ['cashier'] })).toEqual(['backlog', 'feesMonth', 'daysLeft']);
    expect(visibleHomeCards({ side: community, roles: ['steward'] })).toEqual(['backlog', 'repairs', 'daysLeft']);
    // a technician: the open tickets too
    expect(visibleHomeCards({ side: community, roles: ['repairs'] })).toEqual(['backlog', 'repairs', 'daysLeft']);
    // the car park staff run the meters too: the meters card beside the parking one; the device staff the meters card alone
    expect(visibleHomeCards({ side: community, roles: ['carpark'] })).toEqual(['backlog', 'parking', 'meters', 'daysLeft']);
    expect(visibleHomeCards({ side: community, roles: ['devicelist'] })).toEqual(['backlog', 'meters', 'daysLeft']);
    // a guard: the door devices and today's visitors beside the patrols; the access staff the access card alone
    expect(visibleHomeCards({ side: community, roles: ['security'] })).toEqual(['backlog', 'access', 'patrol', 'daysLeft']);
    expect(visibleHomeCards({ side: community, roles: ['currents'] })).toEqual(['backlog', 'access', 'daysLeft']);
    expect(visibleHomeCards({ side: community, roles: ['service'] })).toEqual(['backlog', 'activities', 'daysLeft']);
    expect(visibleHomeCards({ side: community, roles: ['card'], sysType: 'merchant' })).toEqual(['daysLeft']);
    expect(visibleHomeCards({ side: community, roles: ['leader_admin', 'fees'] })).toEqual(['feesMonth', 'feesArrears', 'daysLeft']);
  });
});
