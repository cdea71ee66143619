-- The bill list's filters at scale (docs/perf/history.md#round-14; 50,000 rooms):
-- a period, oldest first as lists open: the page walked the community's bills from the oldest,
-- skipping every earlier period's, to reach the month asked (this month: 900,000 bills passed,
-- 0.2 s); from this index the page reads its ten entries in either order.
CREATE INDEX fee_bills_period_order ON fee_bills (rid, period, id);
-- a keyword (billQuery.ts, keywordMatches): the community's distinct bill titles are read by
-- skipping through this index, and the bills of the matching titles found in it;
CREATE INDEX fee_bills_title ON fee_bills (rid, title, id);
-- and the parking bills' labels (space or plate) are matched among the parking bills alone.
CREATE INDEX fee_bills_parking ON fee_bills (rid, id) WHERE space_id <> 0 OR car_id <> 0;
