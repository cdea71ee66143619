-- The owner app's content and entries (docs/product.md#owner-app): articles and banners, the
-- home's menu entries, and which services the app offers in each community.

-- 图文: an article, a banner or a notice board post; D draft, P published, W withdrawn (a published
-- one outside its online window reads as 待上线 or 已下线)
CREATE TABLE app_graphics (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  title         text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('article', 'banner', 'notice')),
  cover         text NOT NULL DEFAULT '',
  summary       text NOT NULL DEFAULT '',
  -- sanitised HTML (the notices' allow-list)
  body          text NOT NULL DEFAULT '',
  link_type     text NOT NULL DEFAULT 'none' CHECK (link_type IN ('none', 'service', 'article', 'h5', 'mini')),
  link          text NOT NULL DEFAULT '',
  placement     text NOT NULL DEFAULT 'home' CHECK (placement IN ('home', 'service', 'mine', 'launch')),
  sort          int NOT NULL DEFAULT 0,
  -- shown from online_date to offline_date, both included (business time zone); no offline_date: until withdrawn
  online_date   date NOT NULL,
  offline_date  date,
  status        text NOT NULL DEFAULT 'D' CHECK (status IN ('D', 'P', 'W')),
  views         int NOT NULL DEFAULT 0 CHECK (views >= 0),
  published_at  timestamptz,
  published_by  bigint REFERENCES accounts(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint REFERENCES accounts(id),
  PRIMARY KEY (rid, id),
  CHECK (offline_date IS NULL OR offline_date >= online_date)
);
CREATE INDEX app_graphics_list ON app_graphics (rid, kind, status, sort, id);

-- 菜单: an icon of the owner app's home grid, service page, "mine" page or bottom bar
CREATE TABLE app_menus (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  title       text NOT NULL,
  icon        text NOT NULL,
  position    text NOT NULL DEFAULT 'grid' CHECK (position IN ('grid', 'service', 'mine', 'tabbar')),
  link_type   text NOT NULL CHECK (link_type IN ('service', 'article', 'h5', 'mini')),
  target      text NOT NULL,
  badge       text NOT NULL DEFAULT '' CHECK (badge IN ('', 'new', 'hot')),
  audience    text NOT NULL DEFAULT 'all' CHECK (audience IN ('all', 'owner', 'tenant')),
  sort        int NOT NULL DEFAULT 0,
  status      text NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint REFERENCES accounts(id),
  PRIMARY KEY (rid, id)
);

-- 应用: a service of the owner app (code from the catalogue in contract/src/mobilesys/apply.ts) as
-- one community offers it; no row: the catalogue's default
CREATE TABLE app_services (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  code        text NOT NULL,
  enabled     text NOT NULL CHECK (enabled IN ('Y', 'N')),
  title       text NOT NULL,
  intro       text NOT NULL DEFAULT '',
  hours       text NOT NULL DEFAULT '',
  phone       text NOT NULL DEFAULT '',
  sort        int NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint REFERENCES accounts(id),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  bigint REFERENCES accounts(id),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code)
);

-- every change of a service's settings: who, when, what it was and became
CREATE TABLE app_service_logs (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  code        text NOT NULL,
  before      jsonb,
  after       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint REFERENCES accounts(id),
  PRIMARY KEY (rid, id)
);
CREATE INDEX app_service_logs_code ON app_service_logs (rid, code, id);
