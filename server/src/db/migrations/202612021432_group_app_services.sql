-- 应用目录 of the group (/applys/applyslist on the group side, issue 45): for each service of the
-- owner app's catalogue (APP_SERVICES in contract/src/mobilesys/apply.ts) the group's icon, order,
-- which communities may offer it, and whether a community may hide it or reorder it. No row: the
-- catalogue's default (every community, its default icon and order, hiding and reordering allowed).

CREATE TABLE group_app_services (
  id             serial PRIMARY KEY,
  group_id       int NOT NULL REFERENCES groups(id),
  code           text NOT NULL,
  icon           text NOT NULL,
  sort           int NOT NULL DEFAULT 0,
  -- all: every community; some: those of rids; none: the group does not offer it
  region_scope   text NOT NULL DEFAULT 'all' CHECK (region_scope IN ('all', 'some', 'none')),
  rids           int[] NOT NULL DEFAULT '{}',
  allow_hide     text NOT NULL DEFAULT 'Y' CHECK (allow_hide IN ('Y', 'N')),
  allow_reorder  text NOT NULL DEFAULT 'Y' CHECK (allow_reorder IN ('Y', 'N')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint REFERENCES accounts(id),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     bigint REFERENCES accounts(id),
  UNIQUE (group_id, code)
);
