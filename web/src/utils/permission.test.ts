import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@wuye/contract/messages';
import { assertRoles, checkPermission, NEED_ROLES } from './permission';

afterEach(() => vi.restoreAllMocks());

describe('role check (spec 5, 6)', () => {
  it('allows holders of one of the roles', () => {
    expect(checkPermission(['cashier', 'fees'], ['fees', 'admin'])).toBe(true);
    expect(checkPermission(['cashier'], ['admin', 'editor'])).toBe(false);
  });
  it('logs the spec message and denies without roles', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(checkPermission(['admin'], [])).toBe(false);
    expect(checkPermission(['admin'], 'admin')).toBe(false);
    expect(spy).toHaveBeenCalledWith(MSG.needRoles);
  });
  it('the directive form throws need roles!', () => {
    expect(() => assertRoles([])).toThrow(NEED_ROLES);
    expect(() => assertRoles(undefined)).toThrow('need roles!');
    expect(() => assertRoles(['admin'])).not.toThrow();
  });
});
