-- 营业统计 (businesscount, modules/fees/businesscount.ts): a range of business days' receipts, voids
-- and refunds per cashier and pay method, each read by its time from an index that holds what is
-- summed, so a month of a community's 40,000 receipts is read from the index alone.
-- the receipts of a time range by cashier (an account; none: paid online), pay method and status
CREATE INDEX fee_payments_business ON fee_payments (rid, created_at) INCLUDE (cashier_id, cashier_name, pay_type, status, paid_amount);
-- the receipts voided (作废) in a time range: few
CREATE INDEX fee_payments_voided ON fee_payments (rid, voided_at) INCLUDE (cashier_id, cashier_name, pay_type, paid_amount)
  WHERE status = 'V';
-- the refunds approved in a time range: few
CREATE INDEX fee_refunds_approved ON fee_refunds (rid, approved_at) INCLUDE (payment_id, applicant_id, applicant, cash_amount)
  WHERE status = 'Y';
