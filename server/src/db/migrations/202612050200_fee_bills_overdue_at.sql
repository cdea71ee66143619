-- 欠费提醒 (docs/product.md#notifications): when the daily marking turned a bill overdue (E → N), so
-- the reminder job finds the rooms whose bills went overdue lately and tells each owner once
ALTER TABLE fee_bills ADD COLUMN overdue_at timestamptz;
CREATE INDEX fee_bills_overdue_at ON fee_bills (rid, overdue_at) WHERE overdue_at IS NOT NULL;
