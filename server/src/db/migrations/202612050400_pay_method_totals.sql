-- 财务报表 by the group's own payment ways (docs/product.md#paytypelist): the receipts taken by an
-- own way (not voided) per business day and way, kept from fee_payments by its own statement
-- triggers (docs/adr/0004-kept-totals.md): rows only added, folded daily (modules/fees/totals.ts).
CREATE TABLE fee_payment_method_totals (
  rid            int NOT NULL,
  day            date NOT NULL,
  pay_method_id  bigint NOT NULL,
  payments       int NOT NULL,
  paid_amount    numeric(14,2) NOT NULL
);
CREATE INDEX fee_payment_method_totals_day ON fee_payment_method_totals (rid, day);

CREATE FUNCTION fee_payment_method_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_payment_method_totals (rid, day, pay_method_id, payments, paid_amount)
    SELECT rid, created_at::date, pay_method_id, count(*), sum(paid_amount)
    FROM new_payments WHERE pay_method_id IS NOT NULL AND status <> 'V' GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_payment_method_totals (rid, day, pay_method_id, payments, paid_amount)
    SELECT rid, created_at::date, pay_method_id, -count(*), -sum(paid_amount)
    FROM old_payments WHERE pay_method_id IS NOT NULL AND status <> 'V' GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO fee_payment_method_totals (rid, day, pay_method_id, payments, paid_amount)
    SELECT rid, day, pay_method_id, sum(n), sum(a) FROM (
      SELECT rid, created_at::date AS day, pay_method_id, 1 AS n, paid_amount AS a
      FROM new_payments WHERE pay_method_id IS NOT NULL AND status <> 'V'
      UNION ALL
      SELECT rid, created_at::date, pay_method_id, -1, -paid_amount
      FROM old_payments WHERE pay_method_id IS NOT NULL AND status <> 'V'
    ) moved GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(a) <> 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payments_method_totals_insert AFTER INSERT ON fee_payments
  REFERENCING NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_method_totals_change();
CREATE TRIGGER fee_payments_method_totals_update AFTER UPDATE ON fee_payments
  REFERENCING OLD TABLE AS old_payments NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_method_totals_change();
CREATE TRIGGER fee_payments_method_totals_delete AFTER DELETE ON fee_payments
  REFERENCING OLD TABLE AS old_payments FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_method_totals_change();

INSERT INTO fee_payment_method_totals (rid, day, pay_method_id, payments, paid_amount)
SELECT rid, created_at::date, pay_method_id, count(*), sum(paid_amount)
FROM fee_payments WHERE pay_method_id IS NOT NULL AND status <> 'V' GROUP BY 1, 2, 3;
