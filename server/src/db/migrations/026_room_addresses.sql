-- A room's address as the product shows it (1号楼 + 1单元 + 1101) and the sort orders of its building
-- and unit, kept on the room. The owner search lists up to 50 houses by address order, and
-- looking up each one's building and unit was a third of its statement's time at 100,000 rooms
-- (docs/adr/0005-kept-addresses.md); the drawer's header shows the owner's rooms the same way.
--
-- The room's own trigger fills them from its building and unit; renaming or re-sorting a
-- building or unit rewrites its rooms in the same transaction. The building and unit are read
-- FOR SHARE, so a room added while its building is renamed waits for the rename and takes the
-- new title (a foreign key's check alone takes a lock a rename does not wait for).
ALTER TABLE rooms
  ADD COLUMN address text NOT NULL DEFAULT '',
  ADD COLUMN building_sort int NOT NULL DEFAULT 0,
  ADD COLUMN unit_sort int NOT NULL DEFAULT 0;

CREATE FUNCTION rooms_place() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  building_title text;
  unit_title text;
BEGIN
  SELECT title, sort INTO building_title, NEW.building_sort FROM buildings WHERE rid = NEW.rid AND id = NEW.bid FOR SHARE;
  SELECT title, sort INTO unit_title, NEW.unit_sort FROM units WHERE rid = NEW.rid AND id = NEW.tid FOR SHARE;
  -- a missing building or unit is the foreign keys' to refuse, after this trigger
  NEW.building_sort := coalesce(NEW.building_sort, 0);
  NEW.unit_sort := coalesce(NEW.unit_sort, 0);
  NEW.address := concat(building_title, unit_title, NEW.title);
  RETURN NEW;
END $$;
CREATE TRIGGER rooms_place BEFORE INSERT OR UPDATE OF title, bid, tid, address, building_sort, unit_sort ON rooms
  FOR EACH ROW EXECUTE FUNCTION rooms_place();

CREATE FUNCTION place_rooms_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- setting title rewrites each room through rooms_place, which reads the building's or unit's new row
  IF TG_TABLE_NAME = 'buildings' THEN
    UPDATE rooms SET title = title WHERE rid = NEW.rid AND bid = NEW.id;
  ELSE
    UPDATE rooms SET title = title WHERE rid = NEW.rid AND tid = NEW.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER buildings_place_rooms AFTER UPDATE OF title, sort ON buildings FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.sort IS DISTINCT FROM NEW.sort) EXECUTE FUNCTION place_rooms_rewrite();
CREATE TRIGGER units_place_rooms AFTER UPDATE OF title, sort ON units FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.sort IS DISTINCT FROM NEW.sort) EXECUTE FUNCTION place_rooms_rewrite();

-- Every room's address and sort orders worked out again: for the rooms already here, and after a
-- bulk load that ran without triggers (bench:data). Answers how many rooms changed.
CREATE FUNCTION rooms_place_rebuild() RETURNS bigint LANGUAGE sql AS $$
  WITH placed AS (
    UPDATE rooms r SET address = concat(b.title, u.title, r.title), building_sort = b.sort, unit_sort = u.sort
    FROM buildings b, units u
    WHERE b.rid = r.rid AND b.id = r.bid AND u.rid = r.rid AND u.id = r.tid
      AND (r.address, r.building_sort, r.unit_sort) IS DISTINCT FROM (concat(b.title, u.title, r.title), b.sort, u.sort)
    RETURNING 1)
  SELECT count(*) FROM placed
$$;
SELECT rooms_place_rebuild();
