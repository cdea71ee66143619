import { useCallback, type ReactNode } from 'react';
import { useUser } from '../stores/user';
import { assertRoles, checkPermission } from '../utils/permission';

/**
 * The role check as a hook (docs/product.md#role-directive): `can(['admin','editor'])` is true when the user holds one
 * of the roles; without a non-empty array it logs the product's message and denies.
 */
export function usePermission(): (roles: unknown) => boolean {
  const roles = useUser((s) => s.roles);
  return useCallback((value: unknown) => checkPermission(roles, value), [roles]);
}

/**
 * The role directive as a component: renders its children only for holders of one of `roles`
 * (docs/product.md#roles: the element is removed otherwise). Throws `need roles!` without roles (docs/product.md#role-directive).
 */
export default function Permission({
  roles,
  children,
  fallback = null,
}: {
  roles: readonly string[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  assertRoles(roles);
  const userRoles = useUser((s) => s.roles);
  return <>{checkPermission(userRoles, roles) ? children : fallback}</>;
}
