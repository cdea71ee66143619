import { describe, expect, it } from 'vitest';
import { groupedAmount } from './amount';

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
