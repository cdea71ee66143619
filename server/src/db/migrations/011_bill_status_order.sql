-- The bill list filtered by status (the cashier's pending or overdue bills), oldest or newest
-- first: read in id order from the status's own entries. Before, the page walked the community's
-- bills in id order looking for the status, and pending bills are the newest, so the first page
-- of them oldest-first read ~880,000 bills (280 ms at 100,000 rooms, docs/perf/history.md#round-4). Counting
-- by status still reads the (rid, status) prefix alone; the overdue marking finds due dates in it.
DROP INDEX fee_bills_status;
CREATE INDEX fee_bills_status ON fee_bills (rid, status, id) INCLUDE (due_date);
