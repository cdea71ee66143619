-- Room counts per category (roomcatelist) and the delete check of a category stay index-only
-- on large communities.
CREATE INDEX rooms_category ON rooms (rid, category_id);
