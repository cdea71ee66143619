/** Role names (docs/product.md#roles). */
export const ROLE_NAMES = [
  'admin',
  'leader_admin',
  'feecount',
  'propertypaystatis',
  'fees_count',
  'businesscounts',
  'financecount',
  'apply',
  'memberbasis',
  'steward',
  'notices',
  'repairs',
  'security',
  'service',
  'team',
  'crm',
  'care',
  'rentroom',
  'tenant',
  'carpark',
  'card',
  'currents',
  'parkcard',
  'charginglist',
  'devicelist',
  'setup',
  'setfees',
  'invoicelist',
  'fees',
  'payment',
  'cashier',
  'preprint',
  'printbill',
  'call',
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** Leader-side flags and the update-log permission (docs/product.md#roles). */
export const PERMISSION_FLAGS = ['is_diyhome_auth', 'is_smsset_auth', 'is_microapp_auth', 'is_wechatset_auth', 'updatelog'] as const;

/** Account types (sys_type). */
export const SYS_TYPES = ['property', 'merchant', 'leader'] as const;
export type SysType = (typeof SYS_TYPES)[number];

/** True when the user holds at least one of the roles; admin holds all (docs/product.md#roles). */
export function hasAnyRole(userRoles: readonly string[], needed: readonly string[] | undefined): boolean {
  if (!needed || needed.length === 0) return true;
  if (userRoles.includes('admin')) return true;
  return needed.some((r) => userRoles.includes(r));
}
