-- The group's 集团收费汇总 (leaderfeesummary) counts, per community, the rooms with property bills
-- of the range (收费户) and those still owing any of them (欠费户). It grouped every property bill
-- of the range by room: at 200 communities of 500 rooms, 1,200,000 bills a year, 3 s
-- (bench/README.md#group-shape). A room counts once however many months it owes, so kept sums
-- cannot give it; this keeps, per room and year, which months have property bills and which of
-- them are still unpaid, as two 12-bit masks (bit m-1 for month m). The summary reads one row a
-- room and year with a mask test (docs/adr/0004-kept-totals.md).
CREATE TABLE fee_room_months (
  rid integer NOT NULL,
  hid bigint NOT NULL,
  year integer NOT NULL,
  billed integer NOT NULL,
  unpaid integer NOT NULL,
  PRIMARY KEY (rid, year, hid)
);
CREATE INDEX fee_room_months_room ON fee_room_months (rid, hid);

-- A period 'YYYY-MM' as its month's bit.
CREATE FUNCTION fee_period_bit(period text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 1 << (substr(period, 6, 2)::int - 1)
$$;

-- The rows of the given rooms (rid, bid, tid, hid, as arrays of one length) counted again from
-- their property bills, found through fee_bills_building (rid, bid, tid, hid). A year left
-- without bills keeps a row with empty masks, which no range counts. Written as one statement,
-- an upsert: a concurrent statement on the same room that committed first is overwritten with
-- what this one sees after it.
CREATE FUNCTION fee_room_months_recount(rids integer[], bids bigint[], tids bigint[], hids bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH a AS (SELECT DISTINCT * FROM unnest(rids, bids, tids, hids) AS a(rid, bid, tid, hid)),
  counted AS (
    SELECT b.rid, b.hid, left(b.period, 4)::int AS year, bit_or(fee_period_bit(b.period)) AS billed,
      coalesce(bit_or(fee_period_bit(b.period)) FILTER (WHERE b.status <> 'Y'), 0) AS unpaid
    FROM a JOIN fee_bills b ON b.rid = a.rid AND b.bid = a.bid AND b.tid = a.tid AND b.hid = a.hid
    WHERE b.cost_type = 'property'
    GROUP BY 1, 2, 3
  ),
  emptied AS (
    SELECT k.rid, k.hid, k.year, 0 AS billed, 0 AS unpaid
    FROM fee_room_months k JOIN (SELECT DISTINCT rid, hid FROM a) r ON k.rid = r.rid AND k.hid = r.hid
    WHERE NOT EXISTS (SELECT 1 FROM counted c WHERE c.rid = k.rid AND c.hid = k.hid AND c.year = k.year)
  )
  INSERT INTO fee_room_months (rid, hid, year, billed, unpaid)
  SELECT * FROM counted UNION ALL SELECT * FROM emptied
  ON CONFLICT (rid, year, hid) DO UPDATE SET billed = excluded.billed, unpaid = excluded.unpaid;
$$;

CREATE FUNCTION fee_room_months_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rooms record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- new bills only add months, billed and perhaps unpaid
    INSERT INTO fee_room_months AS k (rid, hid, year, billed, unpaid)
    SELECT rid, hid, left(period, 4)::int, bit_or(fee_period_bit(period)),
      coalesce(bit_or(fee_period_bit(period)) FILTER (WHERE status <> 'Y'), 0)
    FROM new_bills WHERE cost_type = 'property'
    GROUP BY 1, 2, 3
    ON CONFLICT (rid, year, hid) DO UPDATE SET billed = k.billed | excluded.billed, unpaid = k.unpaid | excluded.unpaid;
    RETURN NULL;
  END IF;
  -- a bill paid, reopened, deleted or moved: its rooms (before and after) counted again. Changes
  -- that keep a bill's room, period, kind and paid-or-not (overdue marks, late fees) touch nothing.
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(rid) AS rids, array_agg(bid) AS bids, array_agg(tid) AS tids, array_agg(hid) AS hids INTO rooms
    FROM old_bills WHERE cost_type = 'property';
  ELSE
    SELECT array_agg(x.rid) AS rids, array_agg(x.bid) AS bids, array_agg(x.tid) AS tids, array_agg(x.hid) AS hids INTO rooms
    FROM new_bills nb JOIN old_bills ob ON ob.rid = nb.rid AND ob.id = nb.id
    CROSS JOIN LATERAL (VALUES (ob.rid, ob.bid, ob.tid, ob.hid, ob.cost_type), (nb.rid, nb.bid, nb.tid, nb.hid, nb.cost_type)) x(rid, bid, tid, hid, cost_type)
    WHERE x.cost_type = 'property'
      AND ((ob.status <> 'Y') IS DISTINCT FROM (nb.status <> 'Y')
        OR (ob.hid, ob.bid, ob.tid, ob.period, ob.cost_type) IS DISTINCT FROM (nb.hid, nb.bid, nb.tid, nb.period, nb.cost_type));
  END IF;
  IF rooms.rids IS NOT NULL THEN
    PERFORM fee_room_months_recount(rooms.rids, rooms.bids, rooms.tids, rooms.hids);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER fee_bills_room_months_insert AFTER INSERT ON fee_bills
  REFERENCING NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_room_months_change();
CREATE TRIGGER fee_bills_room_months_update AFTER UPDATE ON fee_bills
  REFERENCING OLD TABLE AS old_bills NEW TABLE AS new_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_room_months_change();
CREATE TRIGGER fee_bills_room_months_delete AFTER DELETE ON fee_bills
  REFERENCING OLD TABLE AS old_bills FOR EACH STATEMENT EXECUTE FUNCTION fee_room_months_change();

CREATE FUNCTION fee_room_months_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fee_room_months;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_bills_room_months_truncate AFTER TRUNCATE ON fee_bills
  FOR EACH STATEMENT EXECUTE FUNCTION fee_room_months_truncate();

-- Counted again from the bills: for the rows already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION fee_room_months_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fee_room_months;
  INSERT INTO fee_room_months (rid, hid, year, billed, unpaid)
  SELECT rid, hid, left(period, 4)::int, bit_or(fee_period_bit(period)),
    coalesce(bit_or(fee_period_bit(period)) FILTER (WHERE status <> 'Y'), 0)
  FROM fee_bills WHERE cost_type = 'property'
  GROUP BY 1, 2, 3;
$$;
SELECT fee_room_months_rebuild();
