-- The waiting list's count and sums (待开票, modules/invoice/issue.ts) kept by trigger: at 700,000
-- waiting lines a community, counting them took seconds (bench/README.md#invoices).
--
-- A line waits (the partial index fee_payment_items_invoiceable, and its receipt paid or partly
-- refunded) when not refunded, of a bill, not a deposit and with something left to invoice. The
-- totals are kept per its bill's building and item, its cost type and its receipt's payment
-- method: the filters the list answers from them. Rows of changes, only ever added and folded
-- daily (modules/fees/totals.ts, INVOICE_WAIT_TOTALS).
CREATE TABLE invoice_wait_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  bid bigint NOT NULL,
  item_id bigint NOT NULL,
  cost_type text NOT NULL,
  pay_type text NOT NULL,
  lines bigint NOT NULL,
  received numeric NOT NULL,
  invoiced numeric NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX invoice_wait_totals_rid ON invoice_wait_totals (rid) INCLUDE (bid, item_id, cost_type, pay_type, lines, received, invoiced);

-- Lines of the receipts of one owner (待开票's owner filter).
CREATE INDEX fee_payments_member ON fee_payments (rid, member_id) WHERE member_id IS NOT NULL;

CREATE FUNCTION invoice_line_waits(l fee_payment_items, payment_status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT l.refunded = 'N' AND l.bill_id IS NOT NULL AND l.cost_type <> 'deposit'
    AND l.fee + l.late_fee - l.discount - l.invoiced > 0 AND payment_status IN ('Y', 'P')
$$;

-- The lines' changes (inserted, refunded, invoiced, their discount shared, deleted): what they add
-- less what they take. A statement's trigger names only the transition tables its event has.
CREATE FUNCTION invoice_wait_totals_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_wait_totals (rid, bid, item_id, cost_type, pay_type, lines, received, invoiced)
  SELECT b.rid, b.bid, b.item_id, l.cost_type, p.pay_type::text, count(*), sum(l.fee + l.late_fee - l.discount), sum(l.invoiced)
  FROM new_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
  WHERE invoice_line_waits(l, p.status::text) GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;
CREATE FUNCTION invoice_wait_totals_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_wait_totals (rid, bid, item_id, cost_type, pay_type, lines, received, invoiced)
  SELECT b.rid, b.bid, b.item_id, l.cost_type, p.pay_type::text, -count(*), -sum(l.fee + l.late_fee - l.discount), -sum(l.invoiced)
  FROM old_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
  WHERE invoice_line_waits(l, p.status::text) GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;
CREATE FUNCTION invoice_wait_totals_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_wait_totals (rid, bid, item_id, cost_type, pay_type, lines, received, invoiced)
  SELECT rid, bid, item_id, cost_type, pay_type, sum(n), sum(r), sum(i) FROM (
    SELECT b.rid, b.bid, b.item_id, l.cost_type, p.pay_type::text AS pay_type, 1 AS n, l.fee + l.late_fee - l.discount AS r, l.invoiced AS i
    FROM new_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    WHERE invoice_line_waits(l, p.status::text)
    UNION ALL
    SELECT b.rid, b.bid, b.item_id, l.cost_type, p.pay_type::text, -1, -(l.fee + l.late_fee - l.discount), -l.invoiced
    FROM old_lines l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    WHERE invoice_line_waits(l, p.status::text)
  ) moved GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(r) <> 0 OR sum(i) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER fee_payment_items_wait_totals_insert AFTER INSERT ON fee_payment_items
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_wait_totals_inserted();
CREATE TRIGGER fee_payment_items_wait_totals_update AFTER UPDATE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_wait_totals_updated();
CREATE TRIGGER fee_payment_items_wait_totals_delete AFTER DELETE ON fee_payment_items
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_wait_totals_deleted();

-- A receipt voided or refunded in full takes its lines away (and back, were it ever undone); one
-- whose payment method changes moves them.
CREATE FUNCTION invoice_wait_totals_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_wait_totals (rid, bid, item_id, cost_type, pay_type, lines, received, invoiced)
  SELECT rid, bid, item_id, cost_type, pay_type, sum(n), sum(r), sum(i) FROM (
    SELECT b.rid, b.bid, b.item_id, l.cost_type, np.pay_type::text AS pay_type, 1 AS n, l.fee + l.late_fee - l.discount AS r, l.invoiced AS i
    FROM new_payments np JOIN old_payments op ON op.rid = np.rid AND op.id = np.id
      AND (op.status IN ('Y', 'P'), op.pay_type) IS DISTINCT FROM (np.status IN ('Y', 'P'), np.pay_type)
    JOIN fee_payment_items l ON l.rid = np.rid AND l.payment_id = np.id
    JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    WHERE invoice_line_waits(l, np.status::text)
    UNION ALL
    SELECT b.rid, b.bid, b.item_id, l.cost_type, op.pay_type::text, -1, -(l.fee + l.late_fee - l.discount), -l.invoiced
    FROM new_payments np JOIN old_payments op ON op.rid = np.rid AND op.id = np.id
      AND (op.status IN ('Y', 'P'), op.pay_type) IS DISTINCT FROM (np.status IN ('Y', 'P'), np.pay_type)
    JOIN fee_payment_items l ON l.rid = np.rid AND l.payment_id = np.id
    JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id
    WHERE invoice_line_waits(l, op.status::text)
  ) moved GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(r) <> 0 OR sum(i) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payments_wait_totals_update AFTER UPDATE ON fee_payments
  REFERENCING OLD TABLE AS old_payments NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION invoice_wait_totals_payments();

-- A bill moved to another building or item moves its waiting lines.
CREATE FUNCTION invoice_wait_totals_bills() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_wait_totals (rid, bid, item_id, cost_type, pay_type, lines, received, invoiced)
  SELECT rid, bid, item_id, cost_type, pay_type, sum(n), sum(r), sum(i) FROM (
    SELECT nb.rid, nb.bid, nb.item_id, l.cost_type, p.pay_type::text AS pay_type, 1 AS n, l.fee + l.late_fee - l.discount AS r, l.invoiced AS i
    FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id AND (ob.bid, ob.item_id) <> (nb.bid, nb.item_id)
    JOIN fee_payment_items l ON l.rid = nb.rid AND l.bill_id = nb.id
    JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    WHERE invoice_line_waits(l, p.status::text)
    UNION ALL
    SELECT ob.rid, ob.bid, ob.item_id, l.cost_type, p.pay_type::text, -1, -(l.fee + l.late_fee - l.discount), -l.invoiced
    FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id AND (ob.bid, ob.item_id) <> (nb.bid, nb.item_id)
    JOIN fee_payment_items l ON l.rid = nb.rid AND l.bill_id = nb.id
    JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
    WHERE invoice_line_waits(l, p.status::text)
  ) moved GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(r) <> 0 OR sum(i) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_bills_wait_totals_update AFTER UPDATE ON fee_bills
  REFERENCING OLD TABLE AS old_bills NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION invoice_wait_totals_bills();

CREATE FUNCTION invoice_wait_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_wait_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payment_items_wait_totals_truncate AFTER TRUNCATE ON fee_payment_items
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_wait_totals_truncate();

-- Counted again from the tables: for the lines already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION invoice_wait_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM invoice_wait_totals;
  INSERT INTO invoice_wait_totals (rid, bid, item_id, cost_type, pay_type, lines, received, invoiced)
  SELECT b.rid, b.bid, b.item_id, l.cost_type, p.pay_type::text, count(*), sum(l.fee + l.late_fee - l.discount), sum(l.invoiced)
  FROM fee_payment_items l JOIN fee_bills b ON b.rid = l.rid AND b.id = l.bill_id JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
  WHERE invoice_line_waits(l, p.status::text) GROUP BY 1, 2, 3, 4, 5;
$$;
SELECT invoice_wait_totals_rebuild();
