/**
 * Who may do what in the equipment ledger and its maintenance (设备台账, /carpark/device…;
 * docs/product.md#equipment-ledger). The spec role `devicelist` gates all of it; admin always
 * passes. The demo technician (维修工) holds it too, so a technician does the maintenance tasks.
 */
export const ASSET_ROLES = {
  /** categories, assets, labels, state changes and moves, standards, plans and tasks */
  staff: ['devicelist'],
} as const;
