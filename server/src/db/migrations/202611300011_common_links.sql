-- Common links (/setup/linklist, issue 36): a community's own links gain their kind, icon, how
-- they open, who sees them and a status; the group's links, inherited by every community, get
-- a table of their own (kept by the head office).

ALTER TABLE common_links ADD COLUMN kind text NOT NULL DEFAULT 'external' CHECK (kind IN ('internal', 'external'));
ALTER TABLE common_links ADD COLUMN icon text NOT NULL DEFAULT 'LinkOutlined';
ALTER TABLE common_links ADD COLUMN target text NOT NULL DEFAULT 'blank' CHECK (target IN ('self', 'blank'));
-- permission codes that see the link; empty: everyone
ALTER TABLE common_links ADD COLUMN roles text[] NOT NULL DEFAULT '{}';
ALTER TABLE common_links ADD COLUMN status char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N'));
ALTER TABLE common_links ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE common_links ADD COLUMN created_by bigint;
UPDATE common_links SET kind = 'internal', target = 'self' WHERE url LIKE '/%';

CREATE TABLE group_links (
  id          serial PRIMARY KEY,
  group_id    int NOT NULL REFERENCES groups(id),
  title       text NOT NULL,
  url         text NOT NULL,
  kind        text NOT NULL DEFAULT 'external' CHECK (kind IN ('internal', 'external')),
  icon        text NOT NULL DEFAULT 'LinkOutlined',
  target      text NOT NULL DEFAULT 'blank' CHECK (target IN ('self', 'blank')),
  roles       text[] NOT NULL DEFAULT '{}',
  sort        int NOT NULL DEFAULT 0,
  status      char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint
);
CREATE INDEX group_links_group ON group_links (group_id, sort, id);
