/**
 * Who works the smart meters (docs/product.md#smart-meters). The spec lists no roles for the meter
 * pages; the IoT staff (`carpark`, `devicelist`) run the devices and the rooms' settings, and the
 * cashiers take recharges and see the recharge orders. Admin always passes.
 */
export const METER_ROLES = {
  staff: ['carpark', 'devicelist'],
  /** bulk work on the device ledger (the Excel import): the device administrators, not the parking attendants */
  devices: ['devicelist'],
  recharge: ['carpark', 'devicelist', 'cashier', 'fees', 'payment'],
} as const;
