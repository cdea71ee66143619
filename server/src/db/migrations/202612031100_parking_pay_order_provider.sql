-- The provider that took a temporary car's scan-to-pay order (支付渠道 收银台扫码): the order is
-- settled by it whatever the group chooses since. '' for orders made before it was recorded (the
-- server's provider then). docs/product.md#setwxsys-and-setchannel
ALTER TABLE parking_pay_orders ADD COLUMN provider text NOT NULL DEFAULT '';
