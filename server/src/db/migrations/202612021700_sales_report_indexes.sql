-- 营收报表 and 订单报表 (docs/product.md#sales-reports): each source of money received is read by
-- (rid, time) for a range of business days, newest first. fee_payments (fee_payments_time) and
-- card_recharges (card_recharges_created) have theirs; the top-ups, the parking desk's renewals and
-- the parking coupons sold get one.
CREATE INDEX balance_ledger_time ON balance_ledger (rid, create_time);
CREATE INDEX parking_renewals_time ON parking_renewals (rid, created_at);
CREATE INDEX parking_coupon_orders_time ON parking_coupon_orders (rid, created_at);
