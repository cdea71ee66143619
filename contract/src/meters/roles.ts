/**
 * Who works the smart meters (docs/product.md#smart-meters). The spec lists no roles for the meter
 * pages; the IoT staff (`carpark`, `devicelist`) run the devices and the rooms' settings, and the
 * cashiers take recharges and see the recharge orders. Admin always passes.
 */
export const METER_ROLES = {
  staff: ['carpark', 'devicelist'],
  recharge: ['carpark', 'devicelist', 'cashier', 'fees', 'payment'],
} as const;
