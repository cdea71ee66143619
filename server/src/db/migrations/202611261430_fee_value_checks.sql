-- The coded values the fees code relies on, now kept by the database as the other coded columns
-- already are (found when the Kysely types became generated from the SQL, db/types.generated.ts):
-- a payment's status, a receipt line's refund mark, a batch's status, and the kept totals' status
-- and pay type (copied by triggers from fee_bills and fee_payments, which check theirs).
ALTER TABLE fee_payments ADD CONSTRAINT fee_payments_status_check CHECK (status IN ('Y', 'R', 'P'));
ALTER TABLE fee_payment_items ADD CONSTRAINT fee_payment_items_refunded_check CHECK (refunded IN ('Y', 'N'));
ALTER TABLE fee_batches ADD CONSTRAINT fee_batches_status_check CHECK (status IN ('running', 'done', 'failed', 'cancelled'));
ALTER TABLE fee_bill_totals ADD CONSTRAINT fee_bill_totals_status_check CHECK (status IN ('E', 'Y', 'N'));
ALTER TABLE fee_payment_totals ADD CONSTRAINT fee_payment_totals_pay_type_check
  CHECK (pay_type IN ('cash', 'wechat', 'alipay', 'bankcard', 'transfer', 'balance'));

-- a reading's quantity (this_reading - last_reading, both NOT NULL) is never null; say so
ALTER TABLE fee_meter_readings ALTER COLUMN quantity SET NOT NULL;
