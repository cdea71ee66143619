-- Parking reports (docs/product.md#parking-reports): the income per business day and lot kept from
-- its tables by their own statement triggers (docs/adr/0004-kept-totals.md): temporary fees (the
-- receipts that pay a stay, not voided), monthly renewals, coupons sold. Rows only added, one per
-- group a statement changed, folded daily (modules/fees/totals.ts), so a month or a year of income
-- is a few hundred rows however many cars came and went. And the stays' spans, so the cars inside
-- at each hour of a day are read from the stays overlapping it.

CREATE TABLE parking_income_temp (
  rid       int NOT NULL,
  day       date NOT NULL,
  lot_id    bigint NOT NULL,
  receipts  int NOT NULL,
  amount    numeric(14,2) NOT NULL
);
CREATE INDEX parking_income_temp_day ON parking_income_temp (rid, day);

CREATE TABLE parking_income_renewals (
  rid       int NOT NULL,
  day       date NOT NULL,
  lot_id    bigint NOT NULL,
  renewals  int NOT NULL,
  amount    numeric(14,2) NOT NULL
);
CREATE INDEX parking_income_renewals_day ON parking_income_renewals (rid, day);

CREATE TABLE parking_income_coupons (
  rid       int NOT NULL,
  day       date NOT NULL,
  lot_id    bigint NOT NULL,
  orders    int NOT NULL,
  quantity  int NOT NULL,
  amount    numeric(14,2) NOT NULL
);
CREATE INDEX parking_income_coupons_day ON parking_income_coupons (rid, day);

-- a receipt that pays a stay: its day (the session's zone is the business one) and the stay's lot
CREATE FUNCTION parking_income_temp_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO parking_income_temp (rid, day, lot_id, receipts, amount)
    SELECT p.rid, p.created_at::date, s.lot_id, count(*), sum(p.paid_amount)
    FROM new_payments p JOIN parking_records s ON s.rid = p.rid AND s.id = p.stay_id
    WHERE p.stay_id IS NOT NULL AND p.status <> 'V' GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO parking_income_temp (rid, day, lot_id, receipts, amount)
    SELECT p.rid, p.created_at::date, s.lot_id, -count(*), -sum(p.paid_amount)
    FROM old_payments p JOIN parking_records s ON s.rid = p.rid AND s.id = p.stay_id
    WHERE p.stay_id IS NOT NULL AND p.status <> 'V' GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO parking_income_temp (rid, day, lot_id, receipts, amount)
    SELECT rid, day, lot_id, sum(n), sum(a) FROM (
      SELECT p.rid, p.created_at::date AS day, s.lot_id, 1 AS n, p.paid_amount AS a
      FROM new_payments p JOIN parking_records s ON s.rid = p.rid AND s.id = p.stay_id
      WHERE p.stay_id IS NOT NULL AND p.status <> 'V'
      UNION ALL
      SELECT p.rid, p.created_at::date, s.lot_id, -1, -p.paid_amount
      FROM old_payments p JOIN parking_records s ON s.rid = p.rid AND s.id = p.stay_id
      WHERE p.stay_id IS NOT NULL AND p.status <> 'V'
    ) moved GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(a) <> 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payments_parking_income_insert AFTER INSERT ON fee_payments
  REFERENCING NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION parking_income_temp_change();
CREATE TRIGGER fee_payments_parking_income_update AFTER UPDATE ON fee_payments
  REFERENCING OLD TABLE AS old_payments NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION parking_income_temp_change();
CREATE TRIGGER fee_payments_parking_income_delete AFTER DELETE ON fee_payments
  REFERENCING OLD TABLE AS old_payments FOR EACH STATEMENT EXECUTE FUNCTION parking_income_temp_change();

-- renewal orders and coupon orders never change (their own triggers refuse it): inserts only
CREATE FUNCTION parking_income_renewals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO parking_income_renewals (rid, day, lot_id, renewals, amount)
  SELECT rid, created_at::date, lot_id, count(*), sum(amount) FROM new_renewals GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER parking_renewals_income AFTER INSERT ON parking_renewals
  REFERENCING NEW TABLE AS new_renewals FOR EACH STATEMENT EXECUTE FUNCTION parking_income_renewals_change();

CREATE FUNCTION parking_income_coupons_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO parking_income_coupons (rid, day, lot_id, orders, quantity, amount)
  SELECT o.rid, o.created_at::date, c.lot_id, count(*), sum(o.quantity), sum(o.amount)
  FROM new_orders o JOIN parking_coupons c ON c.rid = o.rid AND c.id = o.coupon_id GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER parking_coupon_orders_income AFTER INSERT ON parking_coupon_orders
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION parking_income_coupons_change();

-- Counted again from the tables: for the rows already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-parking.ts).
CREATE FUNCTION parking_income_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM parking_income_temp;
  INSERT INTO parking_income_temp (rid, day, lot_id, receipts, amount)
  SELECT p.rid, p.created_at::date, s.lot_id, count(*), sum(p.paid_amount)
  FROM fee_payments p JOIN parking_records s ON s.rid = p.rid AND s.id = p.stay_id
  WHERE p.stay_id IS NOT NULL AND p.status <> 'V' GROUP BY 1, 2, 3;
  DELETE FROM parking_income_renewals;
  INSERT INTO parking_income_renewals (rid, day, lot_id, renewals, amount)
  SELECT rid, created_at::date, lot_id, count(*), sum(amount) FROM parking_renewals GROUP BY 1, 2, 3;
  DELETE FROM parking_income_coupons;
  INSERT INTO parking_income_coupons (rid, day, lot_id, orders, quantity, amount)
  SELECT o.rid, o.created_at::date, c.lot_id, count(*), sum(o.quantity), sum(o.amount)
  FROM parking_coupon_orders o JOIN parking_coupons c ON c.rid = o.rid AND c.id = o.coupon_id GROUP BY 1, 2, 3;
$$;
SELECT parking_income_rebuild();

-- a stay's span [entry, exit), open while the car is inside: the stays overlapping a day, whatever
-- their length, for the cars inside at each hour (parkinghourly)
CREATE INDEX parking_records_span ON parking_records USING gist (tstzrange(intime, outtime, '[)'));
