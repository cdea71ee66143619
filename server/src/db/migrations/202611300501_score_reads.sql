-- 评分统计 and 评分明细 (scorelist, scoredetail; modules/steward/scores.ts) read a period's scores: the
-- summary sums them per staff member and item, the details page them newest first. Both read
-- them from this index alone (a month is 25,000 scores at 50,000 rooms), and the details walk it in
-- page order and stop at the page instead of sorting the period (bench/README.md#steward-desk). It
-- serves what score_entries_period (rid, period) served.
CREATE INDEX score_entries_recent ON score_entries (rid, period, updated_at, id) INCLUDE (account_id, item_id, hid, score);
DROP INDEX score_entries_period;
