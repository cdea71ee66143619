import { hasAnyRole } from '@wuye/contract/roles';
import type { Roles } from '@wuye/contract/kit/resource';
import { useUser } from '../../stores/user';

/** True when the user holds one of `roles` ('any': every signed-in account; admin holds all). */
export function rolesAllow(userRoles: readonly string[], roles: Roles): boolean {
  return roles === 'any' || hasAnyRole(userRoles, roles);
}

/** The role check of a resource's or a transition's roles, for the signed-in user. */
export function useRoles(): (roles: Roles) => boolean {
  const userRoles = useUser((s) => s.roles);
  return (roles) => rolesAllow(userRoles, roles);
}

/** True when the user may write what `roles` guards (write buttons show only then). */
export function useCanWrite(roles: Roles): boolean {
  const userRoles = useUser((s) => s.roles);
  return rolesAllow(userRoles, roles);
}
