-- A receipt voided (作废) on the day it was made (modules/fees/void.ts): its bills are unpaid again,
-- its balance moves undone, and it stays on the lists as 已作废 with who voided it, when and why.
ALTER TABLE fee_payments
  ADD COLUMN void_reason text NOT NULL DEFAULT '',
  ADD COLUMN voided_by bigint,
  ADD COLUMN voided_by_name text NOT NULL DEFAULT '',
  ADD COLUMN voided_at timestamptz;
-- Y paid | R refunded in full | P partly refunded | V voided
ALTER TABLE fee_payments DROP CONSTRAINT fee_payments_status_check;
ALTER TABLE fee_payments ADD CONSTRAINT fee_payments_status_check CHECK (status IN ('Y', 'R', 'P', 'V'));

-- A voided receipt took no money: the kept totals (025) count only the receipts not voided, so
-- voiding one takes it out of 收款统计, 财务报表 and 月度收费.
CREATE OR REPLACE FUNCTION fee_payment_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
    SELECT rid, created_at::date, pay_type, cashier_name, count(*), sum(paid_amount), sum(balance_used), sum(discount), sum(late_fee)
    FROM new_payments WHERE status <> 'V' GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
    SELECT rid, created_at::date, pay_type, cashier_name, -count(*), -sum(paid_amount), -sum(balance_used), -sum(discount), -sum(late_fee)
    FROM old_payments WHERE status <> 'V' GROUP BY 1, 2, 3, 4;
  ELSE
    INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
    SELECT rid, day, pay_type, cashier_name, sum(n), sum(paid), sum(balance), sum(off), sum(late) FROM (
      SELECT rid, created_at::date AS day, pay_type, cashier_name, 1 AS n, paid_amount AS paid, balance_used AS balance, discount AS off, late_fee AS late
      FROM new_payments WHERE status <> 'V'
      UNION ALL
      SELECT rid, created_at::date, pay_type, cashier_name, -1, -paid_amount, -balance_used, -discount, -late_fee
      FROM old_payments WHERE status <> 'V'
    ) moved GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(paid) <> 0 OR sum(balance) <> 0 OR sum(off) <> 0 OR sum(late) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION fee_payment_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_payment_totals;
  INSERT INTO fee_payment_totals (rid, day, pay_type, cashier_name, payments, paid_amount, balance_used, discount, late_fee)
  SELECT rid, created_at::date, pay_type, cashier_name, count(*), sum(paid_amount), sum(balance_used), sum(discount), sum(late_fee)
  FROM fee_payments WHERE status <> 'V' GROUP BY 1, 2, 3, 4;
$$;
