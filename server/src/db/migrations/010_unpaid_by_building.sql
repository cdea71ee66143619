-- The bill list's pending or overdue bills of a building, newest first (a steward's dunning round):
-- read in id order from the unpaid bills of the building instead of all its bills, sorted
-- (100,000 rooms: 2.2 ms and 2,850 pages -> 0.08 ms and 18 pages, docs/perf/history.md#round-3).
CREATE INDEX fee_bills_unpaid_building ON fee_bills (rid, bid, id) WHERE status <> 'Y';
