/**
 * Who may do what with the charging piles (/carpark/charging; docs/product.md#charging-piles): the
 * spec role `charginglist` reads and manages the piles, the sessions, the month cards and the
 * reports. admin always passes.
 */
export const CHARGING_ROLES = {
  /** the piles, their ports and prices, the sessions (start, stop, check), month cards, reports */
  staff: ['charginglist'],
  /**
   * the owner's phone at a pile (扫码充电): held only by a charge session, which an owner gets with an
   * SMS code and which may call nothing else (server/src/modules/charging/phone.ts)
   */
  phone: ['chargephone'],
} as const;
