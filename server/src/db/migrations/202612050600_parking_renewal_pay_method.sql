-- 月租续费 by the group's payment ways (docs/product.md#paytypelist): a renewal at the parking desk
-- follows the group's rules and may be taken by one of its own ways with its reference (凭证号),
-- kept with the name it printed; a renewal paid at the cashier keeps its receipt's way.
ALTER TABLE parking_renewals ADD COLUMN pay_method_id bigint;
ALTER TABLE parking_renewals ADD COLUMN pay_method text NOT NULL DEFAULT '';
ALTER TABLE parking_renewals ADD COLUMN pay_ref text NOT NULL DEFAULT '';
