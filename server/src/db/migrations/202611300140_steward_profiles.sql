-- 管家档案与评分 (modules/steward/profiles.ts, scores.ts; docs/product.md#steward-profiles): a
-- community's assessment items, a profile per staff account (post, the buildings and units served,
-- the items that apply with weights summing to 100 %), the households' scores per month, and the
-- ratings owners give repair and complaint tickets (recordServiceRating), folded into the figures.
CREATE TABLE assessment_items (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  sort         int NOT NULL DEFAULT 0,
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name)
);

CREATE TABLE steward_profiles (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  account_id   int NOT NULL REFERENCES accounts(id),
  -- GJ 管家, KF 客服, GC 工程, ZX 秩序, BJ 保洁
  post         text NOT NULL CHECK (post IN ('GJ', 'KF', 'GC', 'ZX', 'BJ')),
  photo        text NOT NULL DEFAULT '',
  phone        text NOT NULL DEFAULT '',
  introduction text NOT NULL DEFAULT '',
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  sort         int NOT NULL DEFAULT 0,
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, account_id)
);

-- what a profile serves: a whole building (tid null, its future units too) or one unit of it
CREATE TABLE steward_profile_areas (
  rid          int NOT NULL,
  profile_id   bigint NOT NULL,
  bid          bigint NOT NULL,
  tid          bigint,
  FOREIGN KEY (rid, profile_id) REFERENCES steward_profiles(rid, id) ON DELETE CASCADE,
  FOREIGN KEY (rid, bid) REFERENCES buildings(rid, id),
  FOREIGN KEY (rid, tid) REFERENCES units(rid, id)
);
CREATE UNIQUE INDEX steward_profile_areas_key ON steward_profile_areas (rid, profile_id, bid, coalesce(tid, 0));
CREATE INDEX steward_profile_areas_bid ON steward_profile_areas (rid, bid);

-- the items that apply to a profile, weight in hundredths of a percent (10000 = 100 %)
CREATE TABLE steward_profile_items (
  rid          int NOT NULL,
  profile_id   bigint NOT NULL,
  item_id      bigint NOT NULL,
  weight       int NOT NULL CHECK (weight BETWEEN 1 AND 10000),
  PRIMARY KEY (rid, profile_id, item_id),
  FOREIGN KEY (rid, profile_id) REFERENCES steward_profiles(rid, id) ON DELETE CASCADE,
  FOREIGN KEY (rid, item_id) REFERENCES assessment_items(rid, id)
);
CREATE INDEX steward_profile_items_item ON steward_profile_items (rid, item_id);

-- a household's (room's) score of a staff member on an item for a month; a re-score replaces it
CREATE TABLE score_entries (
  rid          int NOT NULL,
  id           bigserial,
  hid          bigint NOT NULL,
  account_id   int NOT NULL REFERENCES accounts(id),
  item_id      bigint NOT NULL,
  period       char(7) NOT NULL CHECK (period ~ '^\d{4}-(0[1-9]|1[0-2])$'),
  score        smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  content      text NOT NULL DEFAULT '',
  -- staff: entered by a staff member on the household's behalf (a phone survey, a visit)
  source       text NOT NULL DEFAULT 'staff' CHECK (source IN ('staff', 'owner')),
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, hid, account_id, item_id, period),
  FOREIGN KEY (rid, hid) REFERENCES rooms(rid, id),
  FOREIGN KEY (rid, item_id) REFERENCES assessment_items(rid, id)
);
CREATE INDEX score_entries_staff ON score_entries (rid, account_id, period);
CREATE INDEX score_entries_period ON score_entries (rid, period);

-- an owner's rating of a repair or complaint ticket, credited to its technician or handler; a
-- re-rating of the same ticket replaces it
CREATE TABLE service_ratings (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  account_id   int NOT NULL REFERENCES accounts(id),
  source       text NOT NULL CHECK (source IN ('repair', 'complaint')),
  source_id    bigint NOT NULL,
  score        smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  rated_at     timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, source, source_id)
);
CREATE INDEX service_ratings_staff ON service_ratings (rid, account_id, rated_at);
