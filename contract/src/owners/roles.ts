/** Owner management (/basismembers): members, move-outs, imports, cars. */
export const MEMBER_MANAGERS = ['memberbasis'] as const;
/** Car management also belongs to the parking staff. */
export const CAR_MANAGERS = ['memberbasis', 'carpark'] as const;
/**
 * The global owner search and the owner drawer serve every front-line role that deals with
 * residents (cashier, stewards, parking, access, activities); merchants are not among them.
 */
export const OWNER_LOOKUP = [
  'memberbasis',
  'cashier',
  'fees',
  'payment',
  'steward',
  'repairs',
  'notices',
  'carpark',
  'currents',
  'service',
  'crm',
  'care',
] as const;
/** Small lists for the drawer's filters; stores are also shown to card staff. */
export const SMALL_LIST_READERS = [...OWNER_LOOKUP, 'card', 'parkcard'] as const;
