-- What 缴费明细 (feebillpaydata) adds up of the receipt lines it lists: their count, 应收, 优惠 and
-- 滞纳金 per business day of their receipt (the session's time zone, the business one, as migration
-- 025 keeps days), its pay type and cashier, the line's cost type, its bill's item (0: a line
-- without a bill) and whether the receipt is voided. Summed from the lines, a year of a 50,000-room
-- community was 790,000 lines joined to their receipts, 730 ms (bench/README.md#group-settings).
-- Kept as fee_line_totals is (202611290410): each statement that changes the lines, or what a line
-- is counted by (its receipt's day, pay type, cashier, voiding), adds one row per group it changed,
-- in its own transaction; the daily job folds them (modules/fees/totals.ts, PAYDATA_TOTALS).
CREATE TABLE fee_paydata_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  day date NOT NULL,
  pay_type text NOT NULL,
  cashier_name text NOT NULL,
  cost_type text NOT NULL,
  item_id bigint NOT NULL,
  voided boolean NOT NULL,
  lines bigint NOT NULL,
  fee numeric NOT NULL,
  discount numeric NOT NULL,
  late_fee numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_paydata_totals_day ON fee_paydata_totals (rid, day)
  INCLUDE (pay_type, cashier_name, cost_type, item_id, voided, lines, fee, discount, late_fee);

-- A line's receipt is there whenever the line is (foreign key: a line is inserted after its receipt
-- and deleted before it); its bill, when it has one, likewise.
CREATE FUNCTION fee_paydata_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_paydata_totals (rid, day, pay_type, cashier_name, cost_type, item_id, voided, lines, fee, discount, late_fee)
    SELECT l.rid, p.created_at::date, p.pay_type, p.cashier_name, l.cost_type, coalesce(b.item_id, 0), p.status = 'V',
      count(*), sum(l.fee), sum(l.discount), sum(l.late_fee)
    FROM new_lines l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_paydata_totals (rid, day, pay_type, cashier_name, cost_type, item_id, voided, lines, fee, discount, late_fee)
    SELECT l.rid, p.created_at::date, p.pay_type, p.cashier_name, l.cost_type, coalesce(b.item_id, 0), p.status = 'V',
      -count(*), -sum(l.fee), -sum(l.discount), -sum(l.late_fee)
    FROM old_lines l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    -- a change to none of the kept columns (refunded, invoiced) adds nothing
    INSERT INTO fee_paydata_totals (rid, day, pay_type, cashier_name, cost_type, item_id, voided, lines, fee, discount, late_fee)
    SELECT rid, day, pay_type, cashier_name, cost_type, item_id, voided, sum(n), sum(f), sum(d), sum(lf) FROM (
      SELECT l.rid, p.created_at::date AS day, p.pay_type, p.cashier_name, l.cost_type, coalesce(b.item_id, 0) AS item_id,
        p.status = 'V' AS voided, 1 AS n, l.fee AS f, l.discount AS d, l.late_fee AS lf
      FROM new_lines l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
      LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
      UNION ALL
      SELECT l.rid, p.created_at::date, p.pay_type, p.cashier_name, l.cost_type, coalesce(b.item_id, 0), p.status = 'V',
        -1, -l.fee, -l.discount, -l.late_fee
      FROM old_lines l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
      LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    ) moved GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(n) <> 0 OR sum(f) <> 0 OR sum(d) <> 0 OR sum(lf) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER fee_payment_items_paydata_insert AFTER INSERT ON fee_payment_items
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION fee_paydata_totals_change();
CREATE TRIGGER fee_payment_items_paydata_update AFTER UPDATE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION fee_paydata_totals_change();
CREATE TRIGGER fee_payment_items_paydata_delete AFTER DELETE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION fee_paydata_totals_change();

-- A receipt voided, or whose day, pay type or cashier changes, moves its lines.
CREATE FUNCTION fee_paydata_totals_payment_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO fee_paydata_totals (rid, day, pay_type, cashier_name, cost_type, item_id, voided, lines, fee, discount, late_fee)
  SELECT rid, day, pay_type, cashier_name, cost_type, item_id, voided, sum(n), sum(f), sum(d), sum(lf) FROM (
    SELECT np.rid, np.created_at::date AS day, np.pay_type, np.cashier_name, l.cost_type, coalesce(b.item_id, 0) AS item_id,
      np.status = 'V' AS voided, 1 AS n, l.fee AS f, l.discount AS d, l.late_fee AS lf
    FROM new_payments np JOIN old_payments op ON op.rid = np.rid AND op.id = np.id
      AND (op.created_at::date, op.pay_type, op.cashier_name, op.status = 'V') IS DISTINCT FROM
          (np.created_at::date, np.pay_type, np.cashier_name, np.status = 'V')
    JOIN fee_payment_items l ON l.rid = np.rid AND l.payment_id = np.id
    LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    UNION ALL
    SELECT op.rid, op.created_at::date, op.pay_type, op.cashier_name, l.cost_type, coalesce(b.item_id, 0),
      op.status = 'V', -1, -l.fee, -l.discount, -l.late_fee
    FROM new_payments np JOIN old_payments op ON op.rid = np.rid AND op.id = np.id
      AND (op.created_at::date, op.pay_type, op.cashier_name, op.status = 'V') IS DISTINCT FROM
          (np.created_at::date, np.pay_type, np.cashier_name, np.status = 'V')
    JOIN fee_payment_items l ON l.rid = np.rid AND l.payment_id = np.id
    LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
  ) moved GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(n) <> 0 OR sum(f) <> 0 OR sum(d) <> 0 OR sum(lf) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payments_paydata_update AFTER UPDATE ON fee_payments
  REFERENCING OLD TABLE AS old_payments NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_paydata_totals_payment_moved();

-- A bill's item is what it was billed for and never changes (no code sets it): the lines' kept
-- item holds only while that stays so.
CREATE FUNCTION fee_bills_item_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a bill''s item cannot change (fee_bills % of community %)', OLD.id, OLD.rid;
END $$;
CREATE TRIGGER fee_bills_item_fixed BEFORE UPDATE OF item_id ON fee_bills
  FOR EACH ROW WHEN (OLD.item_id IS DISTINCT FROM NEW.item_id) EXECUTE FUNCTION fee_bills_item_fixed();

CREATE FUNCTION fee_paydata_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fee_paydata_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payment_items_paydata_truncate AFTER TRUNCATE ON fee_payment_items
  FOR EACH STATEMENT EXECUTE FUNCTION fee_paydata_totals_truncate();

-- Counted again from the tables: for the rows already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION fee_paydata_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_paydata_totals;
  INSERT INTO fee_paydata_totals (rid, day, pay_type, cashier_name, cost_type, item_id, voided, lines, fee, discount, late_fee)
  SELECT l.rid, p.created_at::date, p.pay_type, p.cashier_name, l.cost_type, coalesce(b.item_id, 0), p.status = 'V',
    count(*), sum(l.fee), sum(l.discount), sum(l.late_fee)
  FROM fee_payment_items l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
  LEFT JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
$$;
SELECT fee_paydata_totals_rebuild();
