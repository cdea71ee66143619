-- What 收款统计 (paymentstatis), 财务报表 and 月度收费's money taken add up: the payments per
-- community, business day, pay type and cashier, kept the way fee_bill_totals are (024): each
-- statement that changes fee_payments adds a row per group it changed, and the daily job folds
-- them. A year of a community's 483,000 payments took 245-335 ms to sum on a slow machine; a
-- year of these rows is a few thousand (docs/adr/0004-kept-totals.md).
--
-- The day is the payment's date in the session's time zone, which the server sets to the
-- business time zone (TZ_BUSINESS) on every connection, as the reports' date ranges are read.
CREATE TABLE fee_payment_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  day date NOT NULL,
  pay_type text NOT NULL,
  cashier_name text NOT NULL,
  payments bigint NOT NULL,
  paid_amount numeric NOT NULL,
  balance_used numeric NOT NULL,
  discount numeric NOT NULL,
  late_fee numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_payment_totals_day ON fee_payment_totals (rid, day)
  INCLUDE (pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee);

CREATE FUNCTION fee_payment_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- one trigger and branch an event, as for fee_bill_totals
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
    SELECT rid, created_at::date, pay_type, cashier_name, count(*), sum(paid_amount), sum(balance_used), sum(discount), sum(late_fee)
    FROM new_payments GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
    SELECT rid, created_at::date, pay_type, cashier_name, -count(*), -sum(paid_amount), -sum(balance_used), -sum(discount), -sum(late_fee)
    FROM old_payments GROUP BY 1, 2, 3, 4;
  ELSE
    -- a refund's status, a reprint, a room moved: nothing summed changes, nothing is added
    INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
    SELECT rid, day, pay_type, cashier_name, sum(n), sum(paid), sum(balance), sum(off), sum(late) FROM (
      SELECT rid, created_at::date AS day, pay_type, cashier_name, 1 AS n, paid_amount AS paid, balance_used AS balance, discount AS off, late_fee AS late
      FROM new_payments
      UNION ALL
      SELECT rid, created_at::date, pay_type, cashier_name, -1, -paid_amount, -balance_used, -discount, -late_fee FROM old_payments
    ) moved GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(paid) <> 0 OR sum(balance) <> 0 OR sum(off) <> 0 OR sum(late) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER fee_payments_totals_insert AFTER INSERT ON fee_payments
  REFERENCING NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_totals_change();
CREATE TRIGGER fee_payments_totals_update AFTER UPDATE ON fee_payments
  REFERENCING OLD TABLE AS old_payments NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_totals_change();
CREATE TRIGGER fee_payments_totals_delete AFTER DELETE ON fee_payments
  REFERENCING OLD TABLE AS old_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_totals_change();

CREATE FUNCTION fee_payment_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fee_payment_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payments_totals_truncate AFTER TRUNCATE ON fee_payments
  FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_totals_truncate();

-- counted again from the payments: those already there, and a bulk load run without triggers
CREATE FUNCTION fee_payment_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_payment_totals;
  INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
  SELECT rid, created_at::date, pay_type, cashier_name, count(*), sum(paid_amount), sum(balance_used), sum(discount), sum(late_fee)
  FROM fee_payments GROUP BY 1, 2, 3, 4;
$$;
SELECT fee_payment_totals_rebuild();
