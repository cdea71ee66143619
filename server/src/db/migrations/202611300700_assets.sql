-- 设备台账 (docs/product.md#equipment-ledger): the community's equipment as a category tree and
-- assets, every change of an asset's state or place logged; door devices, gates, meters and
-- chargers reference their asset by asset_id on their own device row.
CREATE TABLE asset_categories (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  parent_id   bigint,
  name        text NOT NULL,
  code        text NOT NULL,
  importance  char(1) NOT NULL DEFAULT 'B' CHECK (importance IN ('A', 'B', 'C')),
  unit        text NOT NULL DEFAULT '台',
  sort        int NOT NULL DEFAULT 0,
  remark      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code),
  FOREIGN KEY (rid, parent_id) REFERENCES asset_categories (rid, id)
);
CREATE INDEX asset_categories_parent ON asset_categories (rid, parent_id);

CREATE TABLE assets (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  category_id    bigint NOT NULL,
  name           text NOT NULL,
  code           text NOT NULL,
  brand          text NOT NULL DEFAULT '',
  model          text NOT NULL DEFAULT '',
  location       text NOT NULL DEFAULT '',
  first_use      date,
  warranty_end   date,
  service_years  int NOT NULL DEFAULT 0 CHECK (service_years BETWEEN 0 AND 100),
  importance     char(1) NOT NULL DEFAULT 'B' CHECK (importance IN ('A', 'B', 'C')),
  -- U 在用, S 停用, I 闲置, X 报废 (final)
  state          char(1) NOT NULL DEFAULT 'U' CHECK (state IN ('U', 'S', 'I', 'X')),
  price          numeric(14, 2) NOT NULL DEFAULT 0 CHECK (price >= 0),
  staff_ids      bigint[] NOT NULL DEFAULT '{}',
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code),
  FOREIGN KEY (rid, category_id) REFERENCES asset_categories (rid, id)
);
CREATE INDEX assets_category ON assets (rid, category_id, id);
CREATE INDEX assets_state ON assets (rid, state, id);

-- every state change and move (and the asset's registration), newest last
CREATE TABLE asset_logs (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  asset_id       bigint NOT NULL,
  action         text NOT NULL CHECK (action IN ('add', 'state', 'move')),
  from_state     char(1) NOT NULL DEFAULT '',
  to_state       char(1) NOT NULL DEFAULT '',
  from_location  text NOT NULL DEFAULT '',
  to_location    text NOT NULL DEFAULT '',
  remark         text NOT NULL DEFAULT '',
  operator       text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, asset_id) REFERENCES assets (rid, id) ON DELETE CASCADE
);
CREATE INDEX asset_logs_asset ON asset_logs (rid, asset_id, id);

-- 维保 (maintenance): standards (check items), plans (assets, staff, cycle), tasks generated on
-- their days by a job, one per plan, asset and day ((plan_id, asset_id, due_on) unique: a second run
-- never makes it twice).
CREATE TABLE maintain_standards (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  name         text NOT NULL,
  category_id  bigint,
  items        text[] NOT NULL DEFAULT '{}',
  remark       text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  FOREIGN KEY (rid, category_id) REFERENCES asset_categories (rid, id)
);

CREATE TABLE maintain_plans (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  name             text NOT NULL,
  standard_id      bigint NOT NULL,
  asset_ids        bigint[] NOT NULL,
  staff_ids        bigint[] NOT NULL,
  -- M days of the month (cycle_days 1–31), W weekdays (cycle_days 1 Monday – 7 Sunday), N every N days from start_date
  cycle            char(1) NOT NULL CHECK (cycle IN ('M', 'W', 'N')),
  cycle_days       int[] NOT NULL DEFAULT '{}',
  every_days       int NOT NULL DEFAULT 1 CHECK (every_days BETWEEN 1 AND 366),
  start_date       date NOT NULL,
  enabled          char(1) NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  -- the last day the job generated tasks for (the day before start_date at first)
  generated_until  date NOT NULL,
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  FOREIGN KEY (rid, standard_id) REFERENCES maintain_standards (rid, id)
);
CREATE INDEX maintain_plans_due ON maintain_plans (generated_until) WHERE enabled = 'Y';

CREATE TABLE maintain_tasks (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  plan_id      bigint NOT NULL,
  asset_id     bigint NOT NULL,
  due_on       date NOT NULL,
  staff_ids    bigint[] NOT NULL,
  -- P 待执行 (overdue when due_on has passed), Y 已完成 (all items passed), F 已完成有异常
  status       char(1) NOT NULL DEFAULT 'P' CHECK (status IN ('P', 'Y', 'F')),
  -- the check items: [{ title, passed (null until done), note }]
  items        jsonb NOT NULL DEFAULT '[]',
  notes        text NOT NULL DEFAULT '',
  photos       text[] NOT NULL DEFAULT '{}',
  done_at      timestamptz,
  done_by      bigint,
  done_name    text NOT NULL DEFAULT '',
  order_id     bigint,
  -- its overdue to-do was raised (the job raises it once)
  overdue_noted boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, plan_id, asset_id, due_on),
  FOREIGN KEY (rid, plan_id) REFERENCES maintain_plans (rid, id),
  FOREIGN KEY (rid, asset_id) REFERENCES assets (rid, id),
  FOREIGN KEY (rid, order_id) REFERENCES internal_orders (rid, id)
);
CREATE INDEX maintain_tasks_due ON maintain_tasks (rid, status, due_on);
CREATE INDEX maintain_tasks_asset ON maintain_tasks (rid, asset_id, due_on);
