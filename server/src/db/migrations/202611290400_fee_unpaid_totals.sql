-- What a community owes today (小区桌面 regiondesktop, 物业费欠费统计 propertynopaycount): the unpaid
-- bills (status <> 'Y') with their fees and late fees, and the rooms that owe, per unit and over the
-- community. Summing them read every unpaid bill of the community on every call (about 200,000 at
-- 50,000 rooms: 480-860 ms a call, docs/adr/0004-kept-totals.md). These rows are kept by the bills'
-- own statement triggers, in the same transaction as the change, as fee_bill_totals are (024).
--
-- Late fees: a late fee is rounded per bill (fee_late_fee), so it cannot be computed from a group's
-- total fee. But bills of one item with the same due date and fee have the same late fee on any
-- day, so the money is kept per item, due date and fee (and per unit and period for the panel): a
-- group's late fee today is its count times one bill's, exact, computed when it is read.
--
-- Rooms that owe (count(DISTINCT hid)) are not a sum: each room's unpaid bills are counted in
-- place (fee_unpaid_rooms, fee_unpaid_property_rooms, one row a room, updated under the row's lock),
-- and a statement that takes a room's count from 0 or to 0 adds +1 / -1 to the community's
-- (fee_unpaid_owing) or the unit's (fee_unpaid_units) count of rooms.
--
-- The money and room counts are only added to, a row per group a statement changed, and folded by
-- the daily job and after each bill generation (modules/fees/totals.ts).
CREATE TABLE fee_unpaid_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  bid bigint NOT NULL,
  tid bigint NOT NULL,
  cost_type text NOT NULL,
  period text NOT NULL,
  item_id bigint NOT NULL,
  due_date date NOT NULL,
  fee numeric(14,2) NOT NULL,
  bills bigint NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_unpaid_totals_unit ON fee_unpaid_totals (rid, cost_type, bid, tid)
  INCLUDE (period, item_id, due_date, fee, bills);

CREATE TABLE fee_unpaid_fees (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  item_id bigint NOT NULL,
  due_date date NOT NULL,
  fee numeric(14,2) NOT NULL,
  bills bigint NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_unpaid_fees_rid ON fee_unpaid_fees (rid) INCLUDE (item_id, due_date, fee, bills);

CREATE TABLE fee_unpaid_rooms (
  rid integer NOT NULL,
  hid bigint NOT NULL,
  bills bigint NOT NULL,
  PRIMARY KEY (rid, hid)
);

CREATE TABLE fee_unpaid_property_rooms (
  rid integer NOT NULL,
  hid bigint NOT NULL,
  bid bigint NOT NULL,
  tid bigint NOT NULL,
  bills bigint NOT NULL,
  PRIMARY KEY (rid, hid, bid, tid)
);

CREATE TABLE fee_unpaid_owing (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  rooms bigint NOT NULL,
  PRIMARY KEY (rid, id)
);

CREATE TABLE fee_unpaid_units (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  bid bigint NOT NULL,
  tid bigint NOT NULL,
  rooms bigint NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_unpaid_units_unit ON fee_unpaid_units (rid, bid, tid) INCLUDE (rooms);

CREATE FUNCTION fee_unpaid_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- the unpaid bills the statement added (n = 1) and took away (n = -1), over its transition tables
  -- (seen only by this function's own statements). An update counts only the bills whose kept
  -- columns or paid state it changed: their old rows taken away, their new ones added, so a bill
  -- paid leaves its groups, a bill reopened (a void, a refund) comes back, an edited fee moves, and
  -- an update of nothing kept (a check flag, a remark, pending to overdue) adds no row.
  moved text;
BEGIN
  -- a trigger with transition tables fires on one event, so each event has its trigger and branch
  IF TG_OP = 'INSERT' THEN
    moved := $m$SELECT *, 1 AS n FROM new_bills WHERE status <> 'Y'$m$;
  ELSIF TG_OP = 'DELETE' THEN
    moved := $m$SELECT *, -1 AS n FROM old_bills WHERE status <> 'Y'$m$;
  ELSE
    moved := $m$
      WITH c AS (
        SELECT nb.rid, nb.bid, nb.tid, nb.hid, nb.cost_type, nb.period, nb.item_id, nb.due_date, nb.fee, nb.status,
          ob.bid AS o_bid, ob.tid AS o_tid, ob.hid AS o_hid, ob.cost_type AS o_cost_type, ob.period AS o_period,
          ob.item_id AS o_item_id, ob.due_date AS o_due_date, ob.fee AS o_fee, ob.status AS o_status
        FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id
        WHERE (nb.status = 'Y') <> (ob.status = 'Y')
          OR (nb.bid, nb.tid, nb.hid, nb.cost_type, nb.period, nb.item_id, nb.due_date, nb.fee)
            IS DISTINCT FROM (ob.bid, ob.tid, ob.hid, ob.cost_type, ob.period, ob.item_id, ob.due_date, ob.fee))
      SELECT rid, bid, tid, hid, cost_type, period, item_id, due_date, fee, 1 AS n FROM c WHERE status <> 'Y'
      UNION ALL
      SELECT rid, o_bid, o_tid, o_hid, o_cost_type, o_period, o_item_id, o_due_date, o_fee, -1 FROM c WHERE o_status <> 'Y'$m$;
  END IF;
  -- one statement, the moved rows read once; rooms in key order, so two statements lock shared
  -- rooms in the same order
  EXECUTE format($q$
    WITH m AS MATERIALIZED (SELECT rid, bid, tid, hid, cost_type, period, item_id, due_date, fee, n FROM (%s) s),
    totals AS (
      INSERT INTO fee_unpaid_totals (rid, bid, tid, cost_type, period, item_id, due_date, fee, bills)
      SELECT rid, bid, tid, cost_type, period, item_id, due_date, fee, sum(n) FROM m
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(n) <> 0),
    fees AS (
      INSERT INTO fee_unpaid_fees (rid, item_id, due_date, fee, bills)
      SELECT rid, item_id, due_date, fee, sum(n) FROM m GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0),
    d AS (SELECT rid, hid, sum(n) AS dn FROM m GROUP BY 1, 2 HAVING sum(n) <> 0),
    up AS (
      INSERT INTO fee_unpaid_rooms AS r (rid, hid, bills) SELECT rid, hid, dn FROM d ORDER BY rid, hid
      ON CONFLICT (rid, hid) DO UPDATE SET bills = r.bills + excluded.bills
      RETURNING r.rid, r.hid, r.bills),
    owing AS (
      INSERT INTO fee_unpaid_owing (rid, rooms)
      SELECT up.rid, sum((up.bills > 0)::int - (up.bills - d.dn > 0)::int) FROM up JOIN d ON d.rid = up.rid AND d.hid = up.hid
      GROUP BY 1 HAVING sum((up.bills > 0)::int - (up.bills - d.dn > 0)::int) <> 0),
    dp AS (SELECT rid, hid, bid, tid, sum(n) AS dn FROM m WHERE cost_type = 'property' GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0),
    upp AS (
      INSERT INTO fee_unpaid_property_rooms AS r (rid, hid, bid, tid, bills) SELECT rid, hid, bid, tid, dn FROM dp ORDER BY rid, hid, bid, tid
      ON CONFLICT (rid, hid, bid, tid) DO UPDATE SET bills = r.bills + excluded.bills
      RETURNING r.rid, r.hid, r.bid, r.tid, r.bills)
    INSERT INTO fee_unpaid_units (rid, bid, tid, rooms)
    SELECT upp.rid, upp.bid, upp.tid, sum((upp.bills > 0)::int - (upp.bills - dp.dn > 0)::int)
    FROM upp JOIN dp ON dp.rid = upp.rid AND dp.hid = upp.hid AND dp.bid = upp.bid AND dp.tid = upp.tid
    GROUP BY 1, 2, 3 HAVING sum((upp.bills > 0)::int - (upp.bills - dp.dn > 0)::int) <> 0$q$, moved);
  RETURN NULL;
END $$;

CREATE TRIGGER fee_bills_unpaid_insert AFTER INSERT ON fee_bills
  REFERENCING NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_unpaid_change();
CREATE TRIGGER fee_bills_unpaid_update AFTER UPDATE ON fee_bills
  REFERENCING OLD TABLE AS old_bills NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_unpaid_change();
CREATE TRIGGER fee_bills_unpaid_delete AFTER DELETE ON fee_bills
  REFERENCING OLD TABLE AS old_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_unpaid_change();

-- Counted again from the bills: for the bills already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION fee_unpaid_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_unpaid_totals;
  DELETE FROM fee_unpaid_fees;
  DELETE FROM fee_unpaid_rooms;
  DELETE FROM fee_unpaid_property_rooms;
  DELETE FROM fee_unpaid_owing;
  DELETE FROM fee_unpaid_units;
  INSERT INTO fee_unpaid_totals (rid, bid, tid, cost_type, period, item_id, due_date, fee, bills)
  SELECT rid, bid, tid, cost_type, period, item_id, due_date, fee, count(*) FROM fee_bills WHERE status <> 'Y'
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
  INSERT INTO fee_unpaid_fees (rid, item_id, due_date, fee, bills)
  SELECT rid, item_id, due_date, fee, count(*) FROM fee_bills WHERE status <> 'Y' GROUP BY 1, 2, 3, 4;
  INSERT INTO fee_unpaid_rooms (rid, hid, bills)
  SELECT rid, hid, count(*) FROM fee_bills WHERE status <> 'Y' GROUP BY 1, 2;
  INSERT INTO fee_unpaid_property_rooms (rid, hid, bid, tid, bills)
  SELECT rid, hid, bid, tid, count(*) FROM fee_bills WHERE status <> 'Y' AND cost_type = 'property' GROUP BY 1, 2, 3, 4;
  INSERT INTO fee_unpaid_owing (rid, rooms) SELECT rid, count(*) FROM fee_unpaid_rooms GROUP BY 1;
  INSERT INTO fee_unpaid_units (rid, bid, tid, rooms) SELECT rid, bid, tid, count(*) FROM fee_unpaid_property_rooms GROUP BY 1, 2, 3;
$$;

CREATE FUNCTION fee_unpaid_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fee_unpaid_totals;
  DELETE FROM fee_unpaid_fees;
  DELETE FROM fee_unpaid_rooms;
  DELETE FROM fee_unpaid_property_rooms;
  DELETE FROM fee_unpaid_owing;
  DELETE FROM fee_unpaid_units;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_bills_unpaid_truncate AFTER TRUNCATE ON fee_bills
  FOR EACH STATEMENT EXECUTE FUNCTION fee_unpaid_truncate();

SELECT fee_unpaid_rebuild();
