-- A room moved to another building or unit (a correction of where it was entered) takes its bills
-- and receipts along. The lists join a bill or receipt to its building and unit by its own bid and
-- tid, and count them from fee_bills or fee_payments alone on the grounds that these are its
-- room's; a bill left under the old unit vanished from the lists once that unit was deleted.
CREATE FUNCTION room_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE fee_bills SET bid = NEW.bid, tid = NEW.tid WHERE rid = NEW.rid AND hid = NEW.id;
  UPDATE fee_payments SET bid = NEW.bid, tid = NEW.tid WHERE rid = NEW.rid AND hid = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER room_moved AFTER UPDATE OF bid, tid ON rooms FOR EACH ROW
  WHEN (OLD.bid IS DISTINCT FROM NEW.bid OR OLD.tid IS DISTINCT FROM NEW.tid) EXECUTE FUNCTION room_moved();

-- rooms moved before now
UPDATE fee_bills b SET bid = r.bid, tid = r.tid FROM rooms r WHERE r.rid = b.rid AND r.id = b.hid AND (b.bid <> r.bid OR b.tid <> r.tid);
UPDATE fee_payments p SET bid = r.bid, tid = r.tid FROM rooms r WHERE r.rid = p.rid AND r.id = p.hid AND (p.bid <> r.bid OR p.tid <> r.tid);
