/**
 * Who may do what in parking (智能物联 /carpark; docs/product.md#carpark). The parking staff hold
 * `carpark`; admin always passes. Cars bound to rooms are also owner management's (CAR_MANAGERS).
 */
export const CARPARK_ROLES = {
  /** lots, booths, lanes, gate texts, spaces, lists, monthly renewals and their history */
  staff: ['carpark'],
} as const;
