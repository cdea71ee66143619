-- Customer care (客户关怀 /crm/customerlist, affair, groupaffairadds, setaffair, setgroupaffair;
-- modules/crm/care*.ts; docs/product.md#crm-care): the care records of owners and tenants (linked
-- to the owners area's person where there is one), the care affairs staff carry out for them, the
-- group affairs that made many at once, and the recurring rules a daily job turns into affairs.

CREATE TABLE care_customers (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  -- the owners area's person the record follows; null: someone outside the owners' directory
  member_id     bigint,
  -- owner 业主 | family 家属 | tenant 租户 | other 其他
  kind          text NOT NULL CHECK (kind IN ('owner', 'family', 'tenant', 'other')),
  realname      text NOT NULL CHECK (char_length(realname) BETWEEN 1 AND 30),
  mobile        text NOT NULL CHECK (mobile ~ '^1[3-9][0-9]{9}$'),
  -- M male | F female | '' unknown
  gender        text NOT NULL DEFAULT '' CHECK (gender IN ('', 'M', 'F')),
  birthday      date,
  -- the birthday's month, for the list's filter and the group affairs' 生日月份
  birth_month   smallint GENERATED ALWAYS AS (extract(month FROM birthday)::smallint) STORED,
  id_card       text NOT NULL DEFAULT '',
  -- the rooms: a linked person's rooms when the record was saved, else the one chosen
  hids          bigint[] NOT NULL DEFAULT '{}',
  move_in_date  date,
  family_notes  text NOT NULL DEFAULT '',
  preferences   text NOT NULL DEFAULT '',
  tags          text[] NOT NULL DEFAULT '{}',
  -- 特别关注: 独居老人, 行动不便… (contract CARE_ATTENTION)
  attention     text[] NOT NULL DEFAULT '{}',
  -- the staff member who looks after the customer (负责管家)
  steward_id    bigint REFERENCES accounts(id),
  -- Y 关怀中 | N 已停止 (no recurring affairs, not in group affairs; kept with its history)
  status        char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark        text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
-- one record a person: 该住户已建档
CREATE UNIQUE INDEX care_customers_member ON care_customers (rid, member_id) WHERE member_id IS NOT NULL;
CREATE INDEX care_customers_mobile ON care_customers (rid, mobile text_pattern_ops);
CREATE INDEX care_customers_name ON care_customers (rid, realname text_pattern_ops);
CREATE INDEX care_customers_birth_month ON care_customers (rid, birth_month, id);
CREATE INDEX care_customers_steward ON care_customers (rid, steward_id, id);
CREATE INDEX care_customers_kind ON care_customers (rid, kind, id);
CREATE INDEX care_customers_status ON care_customers (rid, status, id);
-- rooms' ids are unique across communities: the building filter finds the rows by their rooms.
-- Records are added seldom and read often: no pending list (fastupdate), whose unmerged entries
-- each scan reads through until a vacuum (130 ms instead of 6 for a building after a bulk import)
CREATE INDEX care_customers_hids ON care_customers USING gin (hids) WITH (fastupdate = off);
CREATE INDEX care_customers_tags ON care_customers USING gin (tags) WITH (fastupdate = off);
CREATE INDEX care_customers_attention ON care_customers USING gin (attention) WITH (fastupdate = off);

-- recurring rules: the daily job care_affairs makes each occurrence's affair once per customer
CREATE TABLE care_affair_rules (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 30),
  -- birthday 每年生日 | anniversary 入住周年 | monthly 每月 | quarterly 每季 | festival 节日（每年固定日期）
  cycle          text NOT NULL CHECK (cycle IN ('birthday', 'anniversary', 'monthly', 'quarterly', 'festival')),
  -- the affairs' kind (contract AFFAIR_KIND)
  affair_kind    text NOT NULL CHECK (affair_kind IN ('birthday', 'festival', 'anniversary', 'call', 'visit', 'other')),
  -- made this many days before the day it is due
  days_before    int NOT NULL DEFAULT 0 CHECK (days_before BETWEEN 0 AND 60),
  -- monthly and quarterly: the day of the month (of the quarter's first month) it is due
  day_of_month   int CHECK (day_of_month BETWEEN 1 AND 28),
  -- festival: the day each year, MM-DD
  festival_date  text CHECK (festival_date ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'),
  -- only the customers with this tag or special attention; '' every customer in care
  tag            text NOT NULL DEFAULT '',
  -- steward: the customer's 负责管家 where there is one, else assignee_id | fixed: assignee_id always
  assign_mode    text NOT NULL DEFAULT 'steward' CHECK (assign_mode IN ('steward', 'fixed')),
  assignee_id    bigint NOT NULL REFERENCES accounts(id),
  content        text NOT NULL DEFAULT '',
  -- Y 启用 | N 停用
  status         char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  CHECK ((cycle IN ('monthly', 'quarterly')) = (day_of_month IS NOT NULL)),
  CHECK ((cycle = 'festival') = (festival_date IS NOT NULL))
);
CREATE UNIQUE INDEX care_affair_rules_name ON care_affair_rules (rid, name);
CREATE INDEX care_affair_rules_status ON care_affair_rules (status, rid);

-- a group affair: one affair for each customer chosen, made at once (all or nothing)
CREATE TABLE care_affair_batches (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  title          text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 40),
  affair_kind    text NOT NULL CHECK (affair_kind IN ('birthday', 'festival', 'anniversary', 'call', 'visit', 'other')),
  content        text NOT NULL DEFAULT '',
  due_date       date NOT NULL,
  assign_mode    text NOT NULL CHECK (assign_mode IN ('steward', 'fixed')),
  assignee_id    bigint NOT NULL REFERENCES accounts(id),
  -- what chose the customers, as the preview showed it: the values and their words
  criteria       jsonb NOT NULL DEFAULT '{}',
  criteria_text  text NOT NULL DEFAULT '',
  total          int NOT NULL CHECK (total > 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id)
);
CREATE INDEX care_affair_batches_created ON care_affair_batches (rid, created_at);

CREATE TABLE care_affairs (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  customer_id    bigint NOT NULL,
  -- birthday 生日祝福 | festival 节日慰问 | anniversary 入住周年 | call 回访电话 | visit 上门探访 | other 其他
  kind           text NOT NULL CHECK (kind IN ('birthday', 'festival', 'anniversary', 'call', 'visit', 'other')),
  content        text NOT NULL DEFAULT '',
  assignee_id    bigint NOT NULL REFERENCES accounts(id),
  due_date       date NOT NULL,
  -- P 待办 | Y 已完成 | C 已取消
  status         char(1) NOT NULL DEFAULT 'P' CHECK (status IN ('P', 'Y', 'C')),
  result         text NOT NULL DEFAULT '',
  done_at        timestamptz,
  done_by        bigint,
  cancel_reason  text NOT NULL DEFAULT '',
  cancelled_at   timestamptz,
  -- where it came from: a group affair, or a rule's occurrence (2026, 2026-12, 2026-Q4)
  batch_id       bigint,
  rule_id        bigint,
  occurrence     text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  -- null: made by the daily job
  created_by     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, customer_id) REFERENCES care_customers (rid, id),
  FOREIGN KEY (rid, batch_id) REFERENCES care_affair_batches (rid, id),
  FOREIGN KEY (rid, rule_id) REFERENCES care_affair_rules (rid, id),
  CHECK ((status = 'Y') = (done_at IS NOT NULL)),
  CHECK ((status = 'C') = (cancelled_at IS NOT NULL)),
  CHECK ((rule_id IS NULL) = (occurrence IS NULL)),
  -- a rule's occurrence is made once for a customer, however often the job runs
  UNIQUE (rid, rule_id, customer_id, occurrence)
);
CREATE INDEX care_affairs_status_due ON care_affairs (rid, status, due_date);
CREATE INDEX care_affairs_due ON care_affairs (rid, due_date, id);
CREATE INDEX care_affairs_assignee ON care_affairs (rid, assignee_id, status, id);
CREATE INDEX care_affairs_customer ON care_affairs (rid, customer_id, status, id);
CREATE INDEX care_affairs_kind ON care_affairs (rid, kind, id);
CREATE INDEX care_affairs_batch ON care_affairs (rid, batch_id, status) WHERE batch_id IS NOT NULL;
CREATE INDEX care_affairs_rule ON care_affairs (rid, rule_id, status) WHERE rule_id IS NOT NULL;
