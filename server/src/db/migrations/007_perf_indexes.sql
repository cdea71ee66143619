-- Indexes for large communities, found with the scale benchmarks (bench/: 100,000 rooms,
-- 2,000,000 bills). Each lets a report read its rows from the index alone (an index-only scan)
-- instead of visiting the bills or payments table.

-- fees_count, month_fees and the dashboard's month: a community's bills of a period range,
-- counted and summed per item and status
CREATE INDEX fee_bills_period_totals ON fee_bills (rid, period, item_id, status) INCLUDE (fee, cost_type);

-- arrears (fees_count_nopay, dunning, the dashboard's buildings, the owner drawer's and the
-- cashier's unpaid bills): the unpaid bills alone, about one in five
CREATE INDEX fee_bills_unpaid ON fee_bills (rid, hid) INCLUDE (bid, tid, fee, due_date) WHERE status <> 'Y';

-- paymentstatis and financereport: a date range of payments summed by pay type, cashier or day
DROP INDEX fee_payments_time;
CREATE INDEX fee_payments_time ON fee_payments (rid, created_at)
  INCLUDE (pay_type, cashier_name, paid_amount, balance_used, discount, late_fee);
