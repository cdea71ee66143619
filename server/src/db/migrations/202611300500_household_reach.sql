-- Who a notice would reach (noticereach, noticepreview, noticeresendpreview; modules/steward/
-- noticeScope.ts): the households with someone living there now, as a whole, by owners and by
-- tenants, and those with someone bound to the app or WeChat. Counting them aggregated the
-- community's residents on every call (75,000 at 50,000 rooms: 200-280 ms a call,
-- bench/README.md#steward-desk). They are kept by the residents' own triggers, in the same
-- transaction as the change, as the fee totals are (docs/adr/0004-kept-totals.md):
--
-- household_reach: one row a room (made with the room, gone with it), counted in place under the
--   row's lock: its current residents by relation and how many of each are bound (app_isbind or
--   wx_isbind). Every room having its row, the rooms without an owner are found through a small
--   index (the re-send preview's unread households without an owner).
-- household_reach_counts: the community's rooms, its households (any resident, an owner, a
--   tenant) and those of them reachable in the app, only added to: a statement that takes a room's
--   count from 0 or to 0 adds +1 / -1; folded by the daily job (modules/fees/totals.ts).
--
-- A resident's bound state is read under the member's row lock (FOR NO KEY UPDATE, which a
-- member's update also takes), so a link written while the member is bound or unbound is counted
-- with the state that commits, whichever of the two transactions waits.
CREATE TABLE household_reach (
  rid integer NOT NULL,
  hid bigint NOT NULL,
  owners integer NOT NULL DEFAULT 0,
  owners_app integer NOT NULL DEFAULT 0,
  family integer NOT NULL DEFAULT 0,
  family_app integer NOT NULL DEFAULT 0,
  tenants integer NOT NULL DEFAULT 0,
  tenants_app integer NOT NULL DEFAULT 0,
  PRIMARY KEY (rid, hid),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id) ON DELETE CASCADE
);
CREATE INDEX household_reach_no_owner ON household_reach (rid, hid) WHERE owners = 0;

CREATE TABLE household_reach_counts (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  rooms bigint NOT NULL DEFAULT 0,
  households bigint NOT NULL DEFAULT 0,
  app bigint NOT NULL DEFAULT 0,
  owners bigint NOT NULL DEFAULT 0,
  owners_app bigint NOT NULL DEFAULT 0,
  tenants bigint NOT NULL DEFAULT 0,
  tenants_app bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (rid, id)
);

-- The statement that adds the moved links (rid, hid, member_id, relation, n = +1 / -1: a query
-- over the trigger's transition tables, which only the trigger function's own statements see) to
-- the rooms' counts and the community's.
CREATE FUNCTION household_reach_statement(moved text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    WITH m AS MATERIALIZED (SELECT rid, hid, member_id, relation, n FROM (%s) s),
    -- the members' bound state as it is once they are locked (a locking read sees the committed row)
    b AS MATERIALIZED (
      SELECT mb.rid, mb.id, (mb.app_isbind = 'Y' OR mb.wx_isbind = 'Y')::int AS bound FROM members mb
      WHERE (mb.rid, mb.id) IN (SELECT rid, member_id FROM m) ORDER BY mb.rid, mb.id FOR NO KEY UPDATE),
    d AS (
      SELECT m.rid, m.hid,
        coalesce(sum(m.n) FILTER (WHERE m.relation = 'owner'), 0)::int AS owners,
        coalesce(sum(m.n * b.bound) FILTER (WHERE m.relation = 'owner'), 0)::int AS owners_app,
        coalesce(sum(m.n) FILTER (WHERE m.relation = 'family'), 0)::int AS family,
        coalesce(sum(m.n * b.bound) FILTER (WHERE m.relation = 'family'), 0)::int AS family_app,
        coalesce(sum(m.n) FILTER (WHERE m.relation = 'tenant'), 0)::int AS tenants,
        coalesce(sum(m.n * b.bound) FILTER (WHERE m.relation = 'tenant'), 0)::int AS tenants_app
      FROM m JOIN b ON b.rid = m.rid AND b.id = m.member_id
      GROUP BY 1, 2),
    dd AS (SELECT * FROM d WHERE (owners, owners_app, family, family_app, tenants, tenants_app) <> (0, 0, 0, 0, 0, 0)),
    up AS (
      INSERT INTO household_reach AS h (rid, hid, owners, owners_app, family, family_app, tenants, tenants_app)
      SELECT * FROM dd ORDER BY rid, hid
      ON CONFLICT (rid, hid) DO UPDATE SET owners = h.owners + excluded.owners, owners_app = h.owners_app + excluded.owners_app,
        family = h.family + excluded.family, family_app = h.family_app + excluded.family_app,
        tenants = h.tenants + excluded.tenants, tenants_app = h.tenants_app + excluded.tenants_app
      RETURNING h.*),
    -- each room's counts after the statement beside its change (before = after - change), side by
    -- side by grouping rather than by a join, whose estimate the planner cannot know here
    ad AS (
      SELECT rid, hid, sum(a_all) AS a_all, sum(d_all) AS d_all, sum(a_app) AS a_app, sum(d_app) AS d_app,
        sum(a_o) AS a_o, sum(d_o) AS d_o, sum(a_oa) AS a_oa, sum(d_oa) AS d_oa, sum(a_t) AS a_t, sum(d_t) AS d_t,
        sum(a_ta) AS a_ta, sum(d_ta) AS d_ta
      FROM (
        SELECT rid, hid, owners + family + tenants AS a_all, 0 AS d_all, owners_app + family_app + tenants_app AS a_app,
          0 AS d_app, owners AS a_o, 0 AS d_o, owners_app AS a_oa, 0 AS d_oa, tenants AS a_t, 0 AS d_t, tenants_app AS a_ta, 0 AS d_ta
        FROM up
        UNION ALL
        SELECT rid, hid, 0, owners + family + tenants, 0, owners_app + family_app + tenants_app, 0, owners, 0, owners_app,
          0, tenants, 0, tenants_app
        FROM dd) x
      GROUP BY 1, 2),
    t AS (
      SELECT rid,
        sum((a_all > 0)::int - (a_all - d_all > 0)::int) AS households,
        sum((a_app > 0)::int - (a_app - d_app > 0)::int) AS app,
        sum((a_o > 0)::int - (a_o - d_o > 0)::int) AS owners,
        sum((a_oa > 0)::int - (a_oa - d_oa > 0)::int) AS owners_app,
        sum((a_t > 0)::int - (a_t - d_t > 0)::int) AS tenants,
        sum((a_ta > 0)::int - (a_ta - d_ta > 0)::int) AS tenants_app
      FROM ad GROUP BY 1)
    INSERT INTO household_reach_counts (rid, households, app, owners, owners_app, tenants, tenants_app)
    SELECT * FROM t WHERE (households, app, owners, owners_app, tenants, tenants_app) <> (0, 0, 0, 0, 0, 0)$q$, moved)
$$;

CREATE FUNCTION household_reach_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a trigger with transition tables fires on one event, so each event has its trigger and branch;
  -- an update counts only the links whose room, member, relation or state it changed
  IF TG_OP = 'INSERT' THEN
    EXECUTE household_reach_statement($m$SELECT rid, hid, member_id, relation, 1 AS n FROM new_links WHERE status = 'Y'$m$);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE household_reach_statement($m$SELECT rid, hid, member_id, relation, -1 AS n FROM old_links WHERE status = 'Y'$m$);
  ELSE
    EXECUTE household_reach_statement($m$
      WITH c AS (
        SELECT nl.rid, nl.hid, nl.member_id, nl.relation, nl.status,
          ol.hid AS o_hid, ol.member_id AS o_member_id, ol.relation AS o_relation, ol.status AS o_status
        FROM new_links nl JOIN old_links ol ON ol.rid = nl.rid AND ol.id = nl.id
        WHERE (nl.hid, nl.member_id, nl.relation, nl.status) IS DISTINCT FROM (ol.hid, ol.member_id, ol.relation, ol.status))
      SELECT rid, hid, member_id, relation, 1 AS n FROM c WHERE status = 'Y'
      UNION ALL
      SELECT rid, o_hid, o_member_id, o_relation, -1 FROM c WHERE o_status = 'Y'$m$);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER room_members_reach_insert AFTER INSERT ON room_members
  REFERENCING NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION household_reach_change();
CREATE TRIGGER room_members_reach_update AFTER UPDATE ON room_members
  REFERENCING OLD TABLE AS old_links NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION household_reach_change();
CREATE TRIGGER room_members_reach_delete AFTER DELETE ON room_members
  REFERENCING OLD TABLE AS old_links FOR EACH STATEMENT EXECUTE FUNCTION household_reach_change();

-- A room comes with its row of zeros and leaves with it (the foreign key's cascade).
CREATE FUNCTION household_reach_rooms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO household_reach (rid, hid) SELECT rid, id FROM new_rooms ORDER BY rid, id ON CONFLICT DO NOTHING;
    INSERT INTO household_reach_counts (rid, rooms) SELECT rid, count(*) FROM new_rooms GROUP BY 1;
  ELSE
    INSERT INTO household_reach_counts (rid, rooms) SELECT rid, -count(*) FROM old_rooms GROUP BY 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER rooms_reach_insert AFTER INSERT ON rooms
  REFERENCING NEW TABLE AS new_rooms FOR EACH STATEMENT EXECUTE FUNCTION household_reach_rooms();
CREATE TRIGGER rooms_reach_delete AFTER DELETE ON rooms
  REFERENCING OLD TABLE AS old_rooms FOR EACH STATEMENT EXECUTE FUNCTION household_reach_rooms();

-- A member bound or unbound: the rooms they live in now gain or lose a bound resident. Rare, so a
-- row trigger that fires only when the bound state changes (a balance or points update does not).
CREATE FUNCTION household_reach_bound() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n int := CASE WHEN NEW.app_isbind = 'Y' OR NEW.wx_isbind = 'Y' THEN 1 ELSE -1 END;
BEGIN
  WITH d AS (
    SELECT rid, hid,
      (count(*) FILTER (WHERE relation = 'owner') * n)::int AS owners_app,
      (count(*) FILTER (WHERE relation = 'family') * n)::int AS family_app,
      (count(*) FILTER (WHERE relation = 'tenant') * n)::int AS tenants_app
    FROM room_members WHERE rid = NEW.rid AND member_id = NEW.id AND status = 'Y' GROUP BY 1, 2),
  up AS (
    UPDATE household_reach h SET owners_app = h.owners_app + d.owners_app, family_app = h.family_app + d.family_app,
      tenants_app = h.tenants_app + d.tenants_app
    FROM d WHERE h.rid = d.rid AND h.hid = d.hid
    RETURNING h.rid, h.owners_app, h.family_app, h.tenants_app,
      d.owners_app AS d_owners, d.family_app AS d_family, d.tenants_app AS d_tenants),
  t AS (
    SELECT rid,
      sum((owners_app + family_app + tenants_app > 0)::int
        - (owners_app + family_app + tenants_app - d_owners - d_family - d_tenants > 0)::int) AS app,
      sum((owners_app > 0)::int - (owners_app - d_owners > 0)::int) AS owners_app,
      sum((tenants_app > 0)::int - (tenants_app - d_tenants > 0)::int) AS tenants_app
    FROM up GROUP BY 1)
  INSERT INTO household_reach_counts (rid, app, owners_app, tenants_app)
  SELECT * FROM t WHERE (app, owners_app, tenants_app) <> (0, 0, 0);
  RETURN NULL;
END $$;

CREATE TRIGGER members_reach_bound AFTER UPDATE OF app_isbind, wx_isbind ON members FOR EACH ROW
  WHEN ((OLD.app_isbind = 'Y' OR OLD.wx_isbind = 'Y') <> (NEW.app_isbind = 'Y' OR NEW.wx_isbind = 'Y'))
  EXECUTE FUNCTION household_reach_bound();

-- Counted again from the residents: for those already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION household_reach_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM household_reach;
  DELETE FROM household_reach_counts;
  INSERT INTO household_reach (rid, hid, owners, owners_app, family, family_app, tenants, tenants_app)
  SELECT r.rid, r.id,
    count(rm.id) FILTER (WHERE rm.relation = 'owner'),
    count(rm.id) FILTER (WHERE rm.relation = 'owner' AND (m.app_isbind = 'Y' OR m.wx_isbind = 'Y')),
    count(rm.id) FILTER (WHERE rm.relation = 'family'),
    count(rm.id) FILTER (WHERE rm.relation = 'family' AND (m.app_isbind = 'Y' OR m.wx_isbind = 'Y')),
    count(rm.id) FILTER (WHERE rm.relation = 'tenant'),
    count(rm.id) FILTER (WHERE rm.relation = 'tenant' AND (m.app_isbind = 'Y' OR m.wx_isbind = 'Y'))
  FROM rooms r
  LEFT JOIN room_members rm ON rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y'
  LEFT JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
  GROUP BY 1, 2;
  INSERT INTO household_reach_counts (rid, rooms, households, app, owners, owners_app, tenants, tenants_app)
  SELECT rid, count(*), count(*) FILTER (WHERE owners + family + tenants > 0),
    count(*) FILTER (WHERE owners_app + family_app + tenants_app > 0),
    count(*) FILTER (WHERE owners > 0), count(*) FILTER (WHERE owners_app > 0),
    count(*) FILTER (WHERE tenants > 0), count(*) FILTER (WHERE tenants_app > 0)
  FROM household_reach GROUP BY 1;
$$;

-- the rooms stay: counted again, every room with no resident
CREATE FUNCTION household_reach_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM household_reach_rebuild();
  RETURN NULL;
END $$;
CREATE TRIGGER room_members_reach_truncate AFTER TRUNCATE ON room_members
  FOR EACH STATEMENT EXECUTE FUNCTION household_reach_truncate();

SELECT household_reach_rebuild();
