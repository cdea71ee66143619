-- Who asked for a refund, as an account (its name may change and is not unique): nobody approves or
-- rejects a request of their own (issue 34), and the list says which requests are the reader's.
-- Requests made before stay without one.
ALTER TABLE fee_refunds ADD COLUMN applicant_id bigint;
-- a receipt's refund waiting for approval (退款中), looked up for each row of the receipt list
CREATE INDEX fee_refunds_waiting ON fee_refunds (rid, payment_id) WHERE status = 'E';
