-- 业务分类 (issue 36; modules/setup): a community's categories of business objects by module
-- (notice types, activity types, graphic categories, repair and complaint types). A name is once
-- in its module; the areas whose rows carry a category id register their uses
-- (modules/setup/categoryUses.ts), which a delete checks and moves.
CREATE TABLE categories (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  module       text NOT NULL CHECK (module IN ('notice', 'activity', 'graphic', 'repair', 'complaint')),
  title        text NOT NULL,
  icon         text NOT NULL DEFAULT '',
  sort         int NOT NULL DEFAULT 0,
  show_owner   char(1) NOT NULL DEFAULT 'Y' CHECK (show_owner IN ('Y', 'N')),
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, module, title)
);

-- the first registered use: a community activity's type (社区活动 categories). The activities area
-- picks it in its form when it starts; the demo's activities carry one.
ALTER TABLE activities ADD COLUMN category_id bigint;
ALTER TABLE activities ADD FOREIGN KEY (rid, category_id) REFERENCES categories (rid, id);
CREATE INDEX activities_category ON activities (rid, category_id) WHERE category_id IS NOT NULL;

-- 数据字典 (issue 36; modules/setup). Two tables of the property company (group_id):
-- dict_labels: the group's new words for the code's coded values (the contract's governed enums:
--   bill status, payment method…); their values stay the code's. Every list and export reads them.
-- dict_items: the editable lists (visitor reasons, car brands, owner tags): rid null is the group's
--   item, shared by its communities; a rid is one community's own. A value is once in its type
--   within the group.
CREATE TABLE dict_labels (
  group_id     int NOT NULL REFERENCES groups(id),
  type         text NOT NULL,
  value        text NOT NULL,
  label        text NOT NULL CHECK (label <> ''),
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, type, value)
);

CREATE TABLE dict_items (
  id           serial PRIMARY KEY,
  group_id     int NOT NULL REFERENCES groups(id),
  rid          int REFERENCES regions(id),
  type         text NOT NULL,
  value        text NOT NULL,
  label        text NOT NULL,
  sort         int NOT NULL DEFAULT 0,
  tone         text NOT NULL DEFAULT 'default' CHECK (tone IN ('default', 'success', 'processing', 'warning', 'error')),
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, type, value)
);
CREATE INDEX dict_items_rid ON dict_items (rid) WHERE rid IS NOT NULL;
