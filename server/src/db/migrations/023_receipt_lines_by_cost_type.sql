-- A receipt's lines with their cost type, read from the index alone: 物业费缴费明细 takes the
-- property lines of the receipts a date range or keyword selects, one receipt at a time. Without
-- the cost type in the index PostgreSQL read every line of the table instead (135 ms for a month
-- at scale; through this index 38 ms, docs/perf/history.md#round-19).
DROP INDEX fee_payment_items_payment;
CREATE INDEX fee_payment_items_payment ON fee_payment_items (rid, payment_id) INCLUDE (cost_type);
