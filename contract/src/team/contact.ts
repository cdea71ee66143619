/**
 * Owners' contact data on the wire (docs/product.md#contact-masking): an owner's mobile and ID
 * number show masked (138****8000) to an account whose codes lack CONTACT_WHOLE, in every answer
 * and every export; the server masks them, so no page can forget to.
 */
import { hasAnyRole } from '../roles.js';

/** The action code that shows owners' mobiles and ID numbers whole. */
export const CONTACT_WHOLE = 'contact_whole';

/** The wire fields that hold an owner's contact data, and how each is masked. */
export const CONTACT_FIELDS = { mobile: 'mobile', id_card: 'id_card' } as const;
export type ContactKind = keyof typeof CONTACT_FIELDS;

/** The contact kind a wire field holds (its key), if any. */
export function contactKindOf(key: string): ContactKind | undefined {
  return Object.hasOwn(CONTACT_FIELDS, key) ? (key as ContactKind) : undefined;
}

/** True when the codes show contact data whole: the code itself, or an administrator of either side. */
export function seesWholeContact(codes: readonly string[]): boolean {
  return codes.includes('leader_admin') || hasAnyRole(codes, [CONTACT_WHOLE]);
}

/** 13800138000 → 138****8000; a shorter number keeps its last two digits only. */
export function maskMobile(value: string): string {
  if (value.length >= 11) return `${value.slice(0, 3)}****${value.slice(-4)}`;
  if (value.length >= 7) return `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
  return value === '' ? '' : `${'*'.repeat(Math.max(0, value.length - 2))}${value.slice(-2)}`;
}

/** 110101199003077777 → 1101**********7777: the region's first four digits and the last four. */
export function maskIdCard(value: string): string {
  if (value.length <= 8) return value === '' ? '' : '*'.repeat(value.length);
  return `${value.slice(0, 4)}${'*'.repeat(value.length - 8)}${value.slice(-4)}`;
}

export function maskContact(kind: ContactKind, value: string): string {
  return kind === 'mobile' ? maskMobile(value) : maskIdCard(value);
}

/** True when a value is masked text (what a page without CONTACT_WHOLE sends back unchanged). */
export function isMasked(value: string): boolean {
  return value.includes('*');
}
