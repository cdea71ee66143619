-- 轮播图 of the group (/apply/bannerlist on the group side, issue 45 "Owner app layout and content"):
-- banners the head office shows in the owner app of all its communities or of a chosen few, at a
-- position, within a window of days, in an order. The owner app's taps count in clicks (bannerclick).

CREATE TABLE group_banners (
  id            serial PRIMARY KEY,
  group_id      int NOT NULL REFERENCES groups(id),
  title         text NOT NULL,
  image         text NOT NULL,
  position      text NOT NULL DEFAULT 'home' CHECK (position IN ('home', 'service', 'app', 'mine')),
  link_type     text NOT NULL DEFAULT 'none' CHECK (link_type IN ('none', 'service', 'h5', 'mini')),
  target        text NOT NULL DEFAULT '',
  -- all: every community of the group; some: those of rids (communities of the group, checked on write)
  region_scope  text NOT NULL DEFAULT 'all' CHECK (region_scope IN ('all', 'some')),
  rids          int[] NOT NULL DEFAULT '{}',
  -- shown from start_date to end_date, both included (business time zone)
  start_date    date NOT NULL,
  end_date      date NOT NULL,
  sort          int NOT NULL DEFAULT 0,
  enabled       text NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  clicks        int NOT NULL DEFAULT 0 CHECK (clicks >= 0),
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint REFERENCES accounts(id),
  CHECK (end_date >= start_date)
);
CREATE INDEX group_banners_group ON group_banners (group_id, position, sort, id);
