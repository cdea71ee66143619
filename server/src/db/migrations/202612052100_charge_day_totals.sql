-- 充电报表 (chargereportlist, chargereportexport): a year grouped every settled session of the
-- community, 175,000 at the scale data (270-500 ms on a quiet machine, bench/README.md#charging).
-- The sessions, energy and income are kept per end day and pile by charge_orders' own statement
-- triggers, in the same transaction (docs/adr/0004-kept-totals.md): rows only added, folded daily
-- (modules/fees/totals.ts). A settled session is done, 待核对 or 已核对 with its end time.
CREATE TABLE charge_day_totals (
  rid         int NOT NULL,
  day         date NOT NULL,
  charger_id  bigint NOT NULL,
  sessions    int NOT NULL,
  wh          bigint NOT NULL,
  income      numeric(14,2) NOT NULL
);
CREATE INDEX charge_day_totals_day ON charge_day_totals (rid, day);

-- the rows of the moved sessions (n = +1 / -1) summed into their days and piles
CREATE FUNCTION charge_day_totals_statement(moved text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    INSERT INTO charge_day_totals (rid, day, charger_id, sessions, wh, income)
    SELECT rid, end_at::date, charger_id, sum(n), sum(n * coalesce(end_wh - start_wh, 0)), sum(n * coalesce(amount, 0))
    FROM (%s) t
    WHERE state IN ('done', 'check', 'checked') AND end_at IS NOT NULL
    GROUP BY 1, 2, 3
    HAVING (sum(n), sum(n * coalesce(end_wh - start_wh, 0)), sum(n * coalesce(amount, 0))) <> (0, 0, 0)$q$, moved)
$$;

CREATE FUNCTION charge_day_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a trigger with transition tables fires on one event, so each event has its trigger and branch;
  -- an update counts only the sessions whose counted figures, day or pile it changed
  IF TG_OP = 'INSERT' THEN
    EXECUTE charge_day_totals_statement($m$SELECT *, 1 AS n FROM new_orders$m$);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE charge_day_totals_statement($m$SELECT *, -1 AS n FROM old_orders$m$);
  ELSE
    EXECUTE charge_day_totals_statement($m$
      SELECT nt.*, 1 AS n FROM new_orders nt JOIN old_orders ot ON ot.rid = nt.rid AND ot.id = nt.id
      WHERE (nt.state, nt.end_at, nt.charger_id, nt.start_wh, nt.end_wh, nt.amount)
        IS DISTINCT FROM (ot.state, ot.end_at, ot.charger_id, ot.start_wh, ot.end_wh, ot.amount)
      UNION ALL
      SELECT ot.*, -1 AS n FROM old_orders ot JOIN new_orders nt ON nt.rid = ot.rid AND nt.id = ot.id
      WHERE (nt.state, nt.end_at, nt.charger_id, nt.start_wh, nt.end_wh, nt.amount)
        IS DISTINCT FROM (ot.state, ot.end_at, ot.charger_id, ot.start_wh, ot.end_wh, ot.amount)$m$);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER charge_orders_day_totals_insert AFTER INSERT ON charge_orders
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION charge_day_totals_change();
CREATE TRIGGER charge_orders_day_totals_update AFTER UPDATE ON charge_orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION charge_day_totals_change();
CREATE TRIGGER charge_orders_day_totals_delete AFTER DELETE ON charge_orders
  REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION charge_day_totals_change();

-- counted anew from the sessions: after a bulk load that ran without the triggers (bench:data)
CREATE FUNCTION charge_day_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM charge_day_totals;
  EXECUTE charge_day_totals_statement('SELECT *, 1 AS n FROM charge_orders');
END $$;

CREATE FUNCTION charge_day_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM charge_day_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER charge_orders_day_totals_truncate AFTER TRUNCATE ON charge_orders
  FOR EACH STATEMENT EXECUTE FUNCTION charge_day_totals_truncate();

SELECT charge_day_totals_rebuild();
