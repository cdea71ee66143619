-- 收费统计's 已开票 (fees_count, modules/fees/reports.ts) kept by trigger: what invoices cover of the
-- receipt lines, per their bill's item, cost type and period. Summing a year's invoiced lines with
-- their bills took 0.3-0.5 s at 100,000 invoiced lines a community (bench/README.md#invoices).
-- Rows of changes, only ever added and folded daily (modules/fees/totals.ts, INVOICE_PERIOD_TOTALS).
CREATE TABLE invoice_period_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  item_id bigint NOT NULL,
  cost_type text NOT NULL,
  period text NOT NULL,
  lines bigint NOT NULL,
  invoiced numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX invoice_period_totals_period ON invoice_period_totals (rid, period) INCLUDE (item_id, cost_type, lines, invoiced);

-- The lines' changes: what they add less what they take (lines with nothing invoiced add nothing).
CREATE FUNCTION invoice_period_totals_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO invoice_period_totals (rid, item_id, cost_type, period, lines, invoiced)
    SELECT b.rid, b.item_id, b.cost_type, b.period, count(*), sum(l.invoiced)
    FROM new_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    WHERE l.invoiced <> 0 GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO invoice_period_totals (rid, item_id, cost_type, period, lines, invoiced)
    SELECT b.rid, b.item_id, b.cost_type, b.period, -count(*), -sum(l.invoiced)
    FROM old_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    WHERE l.invoiced <> 0 GROUP BY 1, 2, 3, 4;
  ELSE
    INSERT INTO invoice_period_totals (rid, item_id, cost_type, period, lines, invoiced)
    SELECT rid, item_id, cost_type, period, sum(n), sum(i) FROM (
      SELECT b.rid, b.item_id, b.cost_type, b.period, 1 AS n, l.invoiced AS i
      FROM new_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id WHERE l.invoiced <> 0
      UNION ALL
      SELECT b.rid, b.item_id, b.cost_type, b.period, -1, -l.invoiced
      FROM old_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id WHERE l.invoiced <> 0
    ) moved GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(i) <> 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payment_items_period_totals_insert AFTER INSERT ON fee_payment_items
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_period_totals_lines();
CREATE TRIGGER fee_payment_items_period_totals_update AFTER UPDATE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_period_totals_lines();
CREATE TRIGGER fee_payment_items_period_totals_delete AFTER DELETE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_period_totals_lines();

-- A bill moved to another item, cost type or period moves its lines' invoiced amounts.
CREATE FUNCTION invoice_period_totals_bills() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_period_totals (rid, item_id, cost_type, period, lines, invoiced)
  SELECT rid, item_id, cost_type, period, sum(n), sum(i) FROM (
    SELECT nb.rid, nb.item_id, nb.cost_type, nb.period, 1 AS n, l.invoiced AS i
    FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id
      AND (ob.item_id, ob.cost_type, ob.period) <> (nb.item_id, nb.cost_type, nb.period)
    JOIN fee_payment_items l ON l.rid = nb.rid AND l.bill_id = nb.id AND l.invoiced <> 0
    UNION ALL
    SELECT ob.rid, ob.item_id, ob.cost_type, ob.period, -1, -l.invoiced
    FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id
      AND (ob.item_id, ob.cost_type, ob.period) <> (nb.item_id, nb.cost_type, nb.period)
    JOIN fee_payment_items l ON l.rid = nb.rid AND l.bill_id = nb.id AND l.invoiced <> 0
  ) moved GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(i) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_bills_period_totals_update AFTER UPDATE ON fee_bills
  REFERENCING OLD TABLE AS old_bills NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION invoice_period_totals_bills();

CREATE FUNCTION invoice_period_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_period_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payment_items_period_totals_truncate AFTER TRUNCATE ON fee_payment_items
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_period_totals_truncate();

-- Counted again from the tables: for the lines already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-invoices.ts).
CREATE FUNCTION invoice_period_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM invoice_period_totals;
  INSERT INTO invoice_period_totals (rid, item_id, cost_type, period, lines, invoiced)
  SELECT b.rid, b.item_id, b.cost_type, b.period, count(*), sum(l.invoiced)
  FROM fee_payment_items l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
  WHERE l.invoiced <> 0 GROUP BY 1, 2, 3, 4;
$$;
SELECT invoice_period_totals_rebuild();
