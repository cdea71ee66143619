-- 会员卡充值 by the group's payment ways (docs/product.md#paytypelist): a recharge follows the group's
-- rules and may be taken by one of its own ways, kept with the name it printed, as a fee receipt is.
ALTER TABLE card_recharges ADD COLUMN pay_method_id bigint;
ALTER TABLE card_recharges ADD COLUMN pay_method text NOT NULL DEFAULT '';
