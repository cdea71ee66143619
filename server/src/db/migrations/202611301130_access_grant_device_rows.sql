-- How many device rows (access_grant_devices) each grant has, kept by those rows' triggers: the sync
-- grid (accesssynclist) lists and counts the grants that have any from the grants alone, without a
-- semi join over every device row (180 of its 200 ms at scale; bench/README.md#access-and-visitors).
-- A device row never moves to another grant (the sync only changes its state), so inserts and
-- deletes are all that change the count.
ALTER TABLE access_grants ADD COLUMN device_rows int NOT NULL DEFAULT 0;

CREATE FUNCTION access_grant_device_rows_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE access_grants g SET device_rows = g.device_rows + n.rows
    FROM (SELECT rid, grant_id, count(*)::int AS rows FROM new_rows GROUP BY 1, 2) n
    WHERE g.rid = n.rid AND g.id = n.grant_id;
  ELSE
    UPDATE access_grants g SET device_rows = g.device_rows - o.rows
    FROM (SELECT rid, grant_id, count(*)::int AS rows FROM old_rows GROUP BY 1, 2) o
    WHERE g.rid = o.rid AND g.id = o.grant_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER access_grant_devices_rows_insert AFTER INSERT ON access_grant_devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION access_grant_device_rows_change();
CREATE TRIGGER access_grant_devices_rows_delete AFTER DELETE ON access_grant_devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION access_grant_device_rows_change();

-- The counts again from the device rows: for the rows already there, and for a bulk load that ran
-- with triggers off (bench/src/scale-data.ts).
CREATE FUNCTION access_grant_device_rows_rebuild() RETURNS void LANGUAGE sql AS $$
  UPDATE access_grants g SET device_rows = coalesce(s.rows, 0)
  FROM access_grants g2
  LEFT JOIN (SELECT rid, grant_id, count(*)::int AS rows FROM access_grant_devices GROUP BY 1, 2) s
    ON s.rid = g2.rid AND s.grant_id = g2.id
  WHERE g.rid = g2.rid AND g.id = g2.id AND g.device_rows <> coalesce(s.rows, 0);
$$;
SELECT access_grant_device_rows_rebuild();

CREATE INDEX access_grants_with_devices ON access_grants (rid, id) WHERE device_rows > 0;
