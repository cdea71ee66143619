import { MSG } from '@wuye/contract/messages';

/** What the role directive throws when used without roles (docs/product.md#role-directive). */
export const NEED_ROLES = 'need roles!';

/**
 * The role check (docs/product.md#role-directive): needs a non-empty array of role names, else it logs the product's
 * message and denies. True when the user holds at least one of the listed roles.
 */
export function checkPermission(userRoles: readonly string[], value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) {
    console.error(MSG.needRoles);
    return false;
  }
  const needed = value as unknown[];
  return userRoles.some((role) => needed.includes(role));
}

/** The directive form: throws `need roles!` when no roles are given. */
export function assertRoles(value: unknown): asserts value is string[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error(NEED_ROLES);
}
