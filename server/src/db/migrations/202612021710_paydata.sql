-- 优惠记录 (docs/product.md#pay-data): the receipts with a discount by their day, and the
-- applications a receipt used, so the report finds a range's discounts without reading every receipt.
CREATE INDEX fee_payments_discounted ON fee_payments (rid, created_at) WHERE discount > 0;
CREATE INDEX fee_discount_requests_payment ON fee_discount_requests (rid, payment_id) WHERE payment_id IS NOT NULL;
