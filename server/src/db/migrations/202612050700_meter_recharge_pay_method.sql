-- 表计充值 by the group's payment ways (docs/product.md#paytypelist): a recharge at the desk follows
-- the group's rules and may be taken by one of its own ways with its reference (凭证号), kept with
-- the name it printed, as a fee receipt is.
ALTER TABLE meter_recharges ADD COLUMN pay_method_id bigint;
ALTER TABLE meter_recharges ADD COLUMN pay_method text NOT NULL DEFAULT '';
ALTER TABLE meter_recharges ADD COLUMN pay_ref text NOT NULL DEFAULT '';
