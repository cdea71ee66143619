-- The bill list's amount range (min_fee / max_fee): without an index a range that few or no bills
-- fall in walked a community's 1,000,000 bills in id order looking for a page, 130 ms at scale for
-- none; through this index such a page takes 2 ms (docs/perf/history.md#round-18). A range
-- most bills fall in still walks the bills in id order, which finds a page at once.
CREATE INDEX fee_bills_fee ON fee_bills (rid, fee);
