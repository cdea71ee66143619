-- DIY pages (/setdiy on the group side, issue 45; contract/src/setdiy/pages.ts): the owner app's
-- home, service page, bottom bar, "mine" page and app page as versioned JSON of typed blocks. A
-- group's template of a kind has rid null; a community's own page (an override) has its rid.

CREATE TABLE diy_pages (
  id          serial PRIMARY KEY,
  group_id    int NOT NULL REFERENCES groups(id),
  -- null: the group's template; else the community's own page
  rid         int REFERENCES regions(id),
  kind        text NOT NULL CHECK (kind IN ('homeDIY', 'serviceDIY', 'navbar', 'personalDIY', 'apply')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  bigint
);
-- one page of a kind per scope (the template's rid taken as 0)
CREATE UNIQUE INDEX diy_pages_scope ON diy_pages (group_id, kind, coalesce(rid, 0));

-- a page's versions: D the draft (at most one), P the published one (at most one), H published
-- before; numbered from 1 per page, never renumbered. blocks: the page's JSON (format 1).
CREATE TABLE diy_page_versions (
  id            serial PRIMARY KEY,
  page_id       int NOT NULL REFERENCES diy_pages(id) ON DELETE CASCADE,
  version       int NOT NULL CHECK (version >= 1),
  status        char(1) NOT NULL CHECK (status IN ('D', 'P', 'H')),
  format        smallint NOT NULL DEFAULT 1,
  blocks        jsonb NOT NULL DEFAULT '[]',
  -- 回滚自版本N, 复制自集团模板 …
  note          text NOT NULL DEFAULT '',
  published_at  timestamptz,
  published_by  bigint,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  updated_by    bigint,
  UNIQUE (page_id, version)
);
CREATE UNIQUE INDEX diy_page_versions_draft ON diy_page_versions (page_id) WHERE status = 'D';
CREATE UNIQUE INDEX diy_page_versions_published ON diy_page_versions (page_id) WHERE status = 'P';
