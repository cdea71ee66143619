/**
 * Who may do what with the charging piles (/carpark/charging; docs/product.md#charging-piles): the
 * spec role `charginglist` reads and manages the piles, the sessions, the month cards and the
 * reports. admin always passes.
 */
export const CHARGING_ROLES = {
  /** the piles, their ports and prices, the sessions (start, stop, check), month cards, reports */
  staff: ['charginglist'],
} as const;
