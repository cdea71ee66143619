-- 图文 of the group (/mobile/graphiclist on the group side; SPEC "/mobile (graphic list/add/edit)"):
-- articles the head office publishes in the owner app of all its communities or of a chosen few,
-- beside each community's own (app_graphics). The owner app's reads count in views (groupgraphicview).

CREATE TABLE group_graphics (
  id            serial PRIMARY KEY,
  group_id      int NOT NULL REFERENCES groups(id),
  title         text NOT NULL,
  category      text NOT NULL DEFAULT 'news',
  cover         text NOT NULL DEFAULT '',
  summary       text NOT NULL DEFAULT '',
  -- through the notices' allow-list on write (modules/steward/noticeHtml.ts)
  body          text NOT NULL DEFAULT '',
  -- an https address the app opens instead of the body ('' none)
  link          text NOT NULL DEFAULT '',
  -- all: every community of the group; some: those of rids (communities of the group, checked on write)
  region_scope  text NOT NULL DEFAULT 'all' CHECK (region_scope IN ('all', 'some')),
  rids          int[] NOT NULL DEFAULT '{}',
  -- D draft, P published, X taken off (下线); a published one shows from online_date (null: at once)
  status        text NOT NULL DEFAULT 'D' CHECK (status IN ('D', 'P', 'X')),
  online_date   date,
  pinned        text NOT NULL DEFAULT 'N' CHECK (pinned IN ('Y', 'N')),
  sort          int NOT NULL DEFAULT 0,
  views         int NOT NULL DEFAULT 0 CHECK (views >= 0),
  published_at  timestamptz,
  published_by  bigint REFERENCES accounts(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint REFERENCES accounts(id)
);
-- the head office's list (pinned first, then by sort) and a community's published ones
CREATE INDEX group_graphics_group ON group_graphics (group_id, pinned DESC, sort, id);
CREATE INDEX group_graphics_published ON group_graphics (group_id, status) WHERE status = 'P';
