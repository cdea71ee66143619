-- What 收费统计 (fees_count), 月度收费 and the home page's collection card add up: the bills and
-- their fees per community, period, fee item, cost type and status. Reading a year of a
-- community's bills took 280-460 ms at 50,000 rooms on a slow machine
-- (docs/adr/0004-kept-totals.md); these rows take a millisecond or two.
--
-- Every statement that changes fee_bills adds, in its own transaction, one row per group it
-- changed: the count and fees it added (an insert), took away (a delete) or moved (a status
-- paid, a fee edited). Rows are only ever added, so two cashiers paying bills of the same period
-- wait on no shared row; the daily job (modules/fees/totals.ts) folds a community's rows into
-- one per group.
CREATE TABLE fee_bill_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  period text NOT NULL,
  item_id bigint NOT NULL,
  cost_type text NOT NULL,
  status char(1) NOT NULL,
  bills bigint NOT NULL,
  fee numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_bill_totals_period ON fee_bill_totals (rid, period, item_id, status) INCLUDE (cost_type, bills, fee);

CREATE FUNCTION fee_bill_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a trigger with transition tables fires on one event, so each event has its trigger and branch
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
    SELECT rid, period, item_id, cost_type, status, count(*), sum(fee) FROM new_bills GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
    SELECT rid, period, item_id, cost_type, status, -count(*), -sum(fee) FROM old_bills GROUP BY 1, 2, 3, 4, 5;
  ELSE
    -- an update that changes none of the grouped columns nor the fee (a check flag, a remark) adds nothing
    INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
    SELECT rid, period, item_id, cost_type, status, sum(n), sum(f) FROM (
      SELECT rid, period, item_id, cost_type, status, 1 AS n, fee AS f FROM new_bills
      UNION ALL
      SELECT rid, period, item_id, cost_type, status, -1, -fee FROM old_bills
    ) moved GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(f) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER fee_bills_totals_insert AFTER INSERT ON fee_bills
  REFERENCING NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_bill_totals_change();
CREATE TRIGGER fee_bills_totals_update AFTER UPDATE ON fee_bills
  REFERENCING OLD TABLE AS old_bills NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_bill_totals_change();
CREATE TRIGGER fee_bills_totals_delete AFTER DELETE ON fee_bills
  REFERENCING OLD TABLE AS old_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_bill_totals_change();

CREATE FUNCTION fee_bill_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fee_bill_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_bills_totals_truncate AFTER TRUNCATE ON fee_bills
  FOR EACH STATEMENT EXECUTE FUNCTION fee_bill_totals_truncate();

-- The totals counted again from the bills: for the bills already there, and for a bulk load that
-- ran with triggers off (bench/src/scale-data.ts).
CREATE FUNCTION fee_bill_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_bill_totals;
  INSERT INTO fee_bill_totals (rid, period, item_id, cost_type, status, bills, fee)
  SELECT rid, period, item_id, cost_type, status, count(*), sum(fee) FROM fee_bills GROUP BY 1, 2, 3, 4, 5;
$$;
SELECT fee_bill_totals_rebuild();
