/**
 * Who may do what in access control (智能物联 /carpark 门禁; docs/product.md#access-control). The
 * access staff hold `currents`; admin always passes.
 */
export const ACCESS_ROLES = {
  /** devices, regions, grants and their approval, sync, pass records, the simulator */
  staff: ['currents'],
} as const;
