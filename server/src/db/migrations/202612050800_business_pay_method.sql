-- 营业统计 splits a pay method by the group's own ways (docs/product.md#businesscount): the indexes it
-- reads its receipts and voids from hold the own way too, so the report still reads them alone.
DROP INDEX fee_payments_business;
CREATE INDEX fee_payments_business ON fee_payments (rid, created_at)
  INCLUDE (cashier_id, cashier_name, pay_type, status, paid_amount, pay_method_id);
DROP INDEX fee_payments_voided;
CREATE INDEX fee_payments_voided ON fee_payments (rid, voided_at) INCLUDE (cashier_id, cashier_name, pay_type, paid_amount, pay_method_id)
  WHERE status = 'V';
