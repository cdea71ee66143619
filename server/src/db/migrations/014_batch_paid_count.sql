-- The generation batches page shows each batch's paid bills (a batch with any cannot be undone).
-- Counted from (rid, batch_id) they were read from the table, 73,000 bills a batch at 50,000
-- rooms: 0.35 s for a page of ten batches. With the status in the index the count reads it alone.
DROP INDEX IF EXISTS fee_bills_batch;
CREATE INDEX fee_bills_batch ON fee_bills (rid, batch_id, status);
