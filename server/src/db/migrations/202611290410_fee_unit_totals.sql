-- What 物业费收缴统计 (propertypaycount) adds up per building and unit: the bills of the range and the
-- unpaid ones before it, and the receipt lines taken since the range's first day. It read every
-- receipt line from that day on and every unpaid bill before it (a year: 1,000,000 rows, 2.5-3.5 s
-- at 100,000 rooms, docs/adr/0004-kept-totals.md). These rows are kept as fee_bill_totals are (024):
-- each statement that changes the bills, the receipt lines, or what a line is counted by (its
-- receipt's time, its bill's building and unit) adds, in its own transaction, one row per group it
-- changed; the daily job (and each bill generation) folds them (modules/fees/totals.ts).

-- The bills per unit, cost type, period and status.
CREATE TABLE fee_unit_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  bid bigint NOT NULL,
  tid bigint NOT NULL,
  cost_type text NOT NULL,
  period text NOT NULL,
  status char(1) NOT NULL,
  bills bigint NOT NULL,
  fee numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_unit_totals_unit ON fee_unit_totals (rid, cost_type, period) INCLUDE (bid, tid, status, bills, fee);

CREATE FUNCTION fee_unit_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- one trigger and branch an event, as for fee_bill_totals
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_unit_totals (rid, bid, tid, cost_type, period, status, bills, fee)
    SELECT rid, bid, tid, cost_type, period, status, count(*), sum(fee) FROM new_bills GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_unit_totals (rid, bid, tid, cost_type, period, status, bills, fee)
    SELECT rid, bid, tid, cost_type, period, status, -count(*), -sum(fee) FROM old_bills GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    INSERT INTO fee_unit_totals (rid, bid, tid, cost_type, period, status, bills, fee)
    SELECT rid, bid, tid, cost_type, period, status, sum(n), sum(f) FROM (
      SELECT rid, bid, tid, cost_type, period, status, 1 AS n, fee AS f FROM new_bills
      UNION ALL
      SELECT rid, bid, tid, cost_type, period, status, -1, -fee FROM old_bills
    ) moved GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 OR sum(f) <> 0;
    -- a bill moved to another building or unit moves its receipt lines with it
    INSERT INTO fee_line_totals (rid, bid, tid, cost_type, month, period, lines, fee)
    SELECT rid, bid, tid, cost_type, month, period, sum(n), sum(f) FROM (
      SELECT nb.rid, nb.bid, nb.tid, pi.cost_type, date_trunc('month', p.created_at)::date AS month, pi.period, 1 AS n, pi.fee AS f
      FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id AND (ob.bid, ob.tid) <> (nb.bid, nb.tid)
      JOIN fee_payment_items pi ON pi.rid = nb.rid AND pi.bill_id = nb.id AND pi.refunded = 'N'
      JOIN fee_payments p ON p.rid = pi.rid AND p.id = pi.payment_id
      UNION ALL
      SELECT ob.rid, ob.bid, ob.tid, pi.cost_type, date_trunc('month', p.created_at)::date, pi.period, -1, -pi.fee
      FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id AND (ob.bid, ob.tid) <> (nb.bid, nb.tid)
      JOIN fee_payment_items pi ON pi.rid = nb.rid AND pi.bill_id = nb.id AND pi.refunded = 'N'
      JOIN fee_payments p ON p.rid = pi.rid AND p.id = pi.payment_id
    ) moved GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 OR sum(f) <> 0;
  END IF;
  RETURN NULL;
END $$;

-- The receipt lines not refunded, per their bill's unit, cost type, the month their receipt was
-- taken (in the session's time zone, the business one, as migration 025 keeps days) and the
-- line's period. A voided receipt's lines stay counted, as propertypaycount counted them.
CREATE TABLE fee_line_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  bid bigint NOT NULL,
  tid bigint NOT NULL,
  cost_type text NOT NULL,
  month date NOT NULL,
  period text NOT NULL,
  lines bigint NOT NULL,
  fee numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_line_totals_month ON fee_line_totals (rid, cost_type, month) INCLUDE (bid, tid, period, lines, fee);

CREATE TRIGGER fee_bills_unit_totals_insert AFTER INSERT ON fee_bills
  REFERENCING NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_unit_totals_change();
CREATE TRIGGER fee_bills_unit_totals_update AFTER UPDATE ON fee_bills
  REFERENCING OLD TABLE AS old_bills NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_unit_totals_change();
CREATE TRIGGER fee_bills_unit_totals_delete AFTER DELETE ON fee_bills
  REFERENCING OLD TABLE AS old_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_unit_totals_change();

-- A line's bill and receipt are there whenever the line is (foreign keys): a line is inserted after
-- them and deleted before them.
CREATE FUNCTION fee_line_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_line_totals (rid, bid, tid, cost_type, month, period, lines, fee)
    SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', p.created_at)::date, l.period, count(*), sum(l.fee)
    FROM new_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    WHERE l.refunded = 'N' GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_line_totals (rid, bid, tid, cost_type, month, period, lines, fee)
    SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', p.created_at)::date, l.period, -count(*), -sum(l.fee)
    FROM old_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    WHERE l.refunded = 'N' GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    -- a refund (refunded to 'Y') takes a line away; a change to none of the kept columns adds nothing
    INSERT INTO fee_line_totals (rid, bid, tid, cost_type, month, period, lines, fee)
    SELECT rid, bid, tid, cost_type, month, period, sum(n), sum(f) FROM (
      SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', p.created_at)::date AS month, l.period, 1 AS n, l.fee AS f
      FROM new_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
      WHERE l.refunded = 'N'
      UNION ALL
      SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', p.created_at)::date, l.period, -1, -l.fee
      FROM old_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
      WHERE l.refunded = 'N'
    ) moved GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 OR sum(f) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER fee_payment_items_totals_insert AFTER INSERT ON fee_payment_items
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION fee_line_totals_change();
CREATE TRIGGER fee_payment_items_totals_update AFTER UPDATE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION fee_line_totals_change();
CREATE TRIGGER fee_payment_items_totals_delete AFTER DELETE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION fee_line_totals_change();

-- A receipt whose time moves to another month moves its lines.
CREATE FUNCTION fee_line_totals_payment_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO fee_line_totals (rid, bid, tid, cost_type, month, period, lines, fee)
  SELECT rid, bid, tid, cost_type, month, period, sum(n), sum(f) FROM (
    SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', np.created_at)::date AS month, l.period, 1 AS n, l.fee AS f
    FROM new_payments np JOIN old_payments op ON op.rid = np.rid AND op.id = np.id
      AND date_trunc('month', op.created_at) <> date_trunc('month', np.created_at)
    JOIN fee_payment_items l ON l.rid = np.rid AND l.payment_id = np.id AND l.refunded = 'N'
    JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    UNION ALL
    SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', op.created_at)::date, l.period, -1, -l.fee
    FROM new_payments np JOIN old_payments op ON op.rid = np.rid AND op.id = np.id
      AND date_trunc('month', op.created_at) <> date_trunc('month', np.created_at)
    JOIN fee_payment_items l ON l.rid = np.rid AND l.payment_id = np.id AND l.refunded = 'N'
    JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
  ) moved GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 OR sum(f) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payments_line_totals_update AFTER UPDATE ON fee_payments
  REFERENCING OLD TABLE AS old_payments NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_line_totals_payment_moved();

CREATE FUNCTION fee_unit_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'fee_bills' THEN
    DELETE FROM fee_unit_totals;
  END IF;
  DELETE FROM fee_line_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_bills_unit_totals_truncate AFTER TRUNCATE ON fee_bills
  FOR EACH STATEMENT EXECUTE FUNCTION fee_unit_totals_truncate();
CREATE TRIGGER fee_payment_items_totals_truncate AFTER TRUNCATE ON fee_payment_items
  FOR EACH STATEMENT EXECUTE FUNCTION fee_unit_totals_truncate();

-- Counted again from the tables: for the rows already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION fee_unit_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_unit_totals;
  INSERT INTO fee_unit_totals (rid, bid, tid, cost_type, period, status, bills, fee)
  SELECT rid, bid, tid, cost_type, period, status, count(*), sum(fee) FROM fee_bills GROUP BY 1, 2, 3, 4, 5, 6;
  DELETE FROM fee_line_totals;
  INSERT INTO fee_line_totals (rid, bid, tid, cost_type, month, period, lines, fee)
  SELECT b.rid, b.bid, b.tid, l.cost_type, date_trunc('month', p.created_at)::date, l.period, count(*), sum(l.fee)
  FROM fee_payment_items l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
  WHERE l.refunded = 'N' GROUP BY 1, 2, 3, 4, 5, 6;
$$;
SELECT fee_unit_totals_rebuild();
