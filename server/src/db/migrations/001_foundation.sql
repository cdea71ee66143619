-- Foundation: the group, its communities, accounts, sessions, audit, to-dos, renewal, jobs.
-- Community-scoped tables carry rid in their primary key (the shard key, docs/architecture.md#data-rules).

CREATE TABLE groups (
  id            serial PRIMARY KEY,
  title         text NOT NULL,
  website_url   text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE regions (
  id                      serial PRIMARY KEY,
  group_id                int NOT NULL REFERENCES groups(id),
  title                   text NOT NULL,
  address                 text NOT NULL DEFAULT '',
  phone                   text NOT NULL DEFAULT '',
  area                    numeric(14,2) NOT NULL DEFAULT 0,
  sub_title               text NOT NULL DEFAULT '',
  logo_url                text NOT NULL DEFAULT '',
  region_img              text NOT NULL DEFAULT '',
  copyright               text NOT NULL DEFAULT '',
  property_app_url        text NOT NULL DEFAULT '',
  wxapp_qrcodes           text NOT NULL DEFAULT '',
  consume_mobile_app_url  text NOT NULL DEFAULT '',
  consume_app_url         text NOT NULL DEFAULT '',
  help_work_url           text NOT NULL DEFAULT '',
  end_time                date NOT NULL,
  price_per_year          numeric(14,2) NOT NULL DEFAULT 3600.00 CHECK (price_per_year >= 0),
  status                  char(1) NOT NULL DEFAULT 'Y',
  created_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX regions_group ON regions (group_id);

CREATE TABLE accounts (
  id                  serial PRIMARY KEY,
  username            text NOT NULL UNIQUE,
  password_hash       text NOT NULL,
  name                text NOT NULL,
  avatar              text NOT NULL DEFAULT '',
  introduction        text NOT NULL DEFAULT '',
  mobile              text NOT NULL DEFAULT '',
  sys_type            text NOT NULL CHECK (sys_type IN ('property', 'merchant', 'leader')),
  group_id            int NOT NULL REFERENCES groups(id),
  roles               text[] NOT NULL CHECK (cardinality(roles) > 0),
  permissions         text[] NOT NULL DEFAULT '{}',
  password_status     char(1) NOT NULL DEFAULT 'Y' CHECK (password_status IN ('Y', 'N')),
  -- Y: a new sign-in ends the account's other sessions (they answer 50012)
  single_login        char(1) NOT NULL DEFAULT 'N' CHECK (single_login IN ('Y', 'N')),
  status              char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_at          timestamptz NOT NULL DEFAULT now()
);

-- the communities a property or merchant account works in; the first is its default
CREATE TABLE account_regions (
  account_id  int NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  rid         int NOT NULL REFERENCES regions(id),
  sort        int NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, rid)
);
CREATE INDEX account_regions_rid ON account_regions (rid);

CREATE TABLE sessions (
  token_hash    text PRIMARY KEY,
  account_id    int NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  side          text NOT NULL CHECK (side IN ('community', 'group')),
  rid           int REFERENCES regions(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  ended_at      timestamptz,
  -- logout | elsewhere | password
  end_reason    text
);
CREATE INDEX sessions_account ON sessions (account_id) WHERE ended_at IS NULL;

CREATE TABLE login_failures (
  id         bigserial PRIMARY KEY,
  username   text NOT NULL,
  ip         text NOT NULL DEFAULT '',
  at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_user_at ON login_failures (username, at);

CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  rid         int,
  account_id  int,
  username    text NOT NULL DEFAULT '',
  side        text NOT NULL DEFAULT 'community',
  method      text NOT NULL,
  payload     jsonb NOT NULL DEFAULT '{}',
  outcome     text NOT NULL,
  message     text NOT NULL DEFAULT '',
  ip          text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_rid_time ON audit_log (rid, created_at DESC);

CREATE TABLE backlog (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  title       text NOT NULL,
  content     text NOT NULL DEFAULT '',
  kind        text NOT NULL DEFAULT 'other',
  link        text NOT NULL DEFAULT '',
  status      char(1) NOT NULL DEFAULT 'E' CHECK (status IN ('E', 'Y')),
  done_by     int,
  done_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
CREATE INDEX backlog_status ON backlog (rid, status, id);

CREATE TABLE common_links (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  title       text NOT NULL,
  url         text NOT NULL,
  sort        int NOT NULL DEFAULT 0,
  PRIMARY KEY (rid, id)
);

CREATE TABLE resources (
  id          serial PRIMARY KEY,
  group_id    int NOT NULL REFERENCES groups(id),
  title       text NOT NULL,
  url         text NOT NULL,
  kind        text NOT NULL DEFAULT 'doc',
  remark      text NOT NULL DEFAULT '',
  sort        int NOT NULL DEFAULT 0
);

CREATE TABLE renewal_orders (
  rid         int NOT NULL REFERENCES regions(id),
  orderid     text NOT NULL UNIQUE,
  years       int NOT NULL CHECK (years > 0),
  total_fee   numeric(14,2) NOT NULL CHECK (total_fee >= 0),
  status      char(1) NOT NULL DEFAULT 'E' CHECK (status IN ('E', 'Y', 'C')),
  provider    text NOT NULL,
  code_url    text NOT NULL,
  created_by  int,
  created_at  timestamptz NOT NULL DEFAULT now(),
  paid_at     timestamptz,
  PRIMARY KEY (rid, orderid)
);

CREATE TABLE activation_codes (
  code        text PRIMARY KEY,
  group_id    int REFERENCES groups(id),
  months      int NOT NULL CHECK (months > 0),
  used_rid    int REFERENCES regions(id),
  used_by     int,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE region_delay_log (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  kind        text NOT NULL CHECK (kind IN ('pay', 'code', 'manual')),
  ref         text NOT NULL DEFAULT '',
  old_end     date NOT NULL,
  new_end     date NOT NULL,
  amount      numeric(14,2) NOT NULL DEFAULT 0,
  operator    text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);

-- long work (bill generation, imports, exports); workers claim rows with FOR UPDATE SKIP LOCKED
CREATE TABLE jobs (
  id            bigserial PRIMARY KEY,
  rid           int REFERENCES regions(id),
  kind          text NOT NULL,
  status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  payload       jsonb NOT NULL DEFAULT '{}',
  result        jsonb,
  error         text NOT NULL DEFAULT '',
  progress      int NOT NULL DEFAULT 0,
  total         int NOT NULL DEFAULT 0,
  attempts      int NOT NULL DEFAULT 0,
  created_by    int,
  locked_by     text,
  heartbeat_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz
);
CREATE INDEX jobs_queue ON jobs (status, id) WHERE status IN ('queued', 'running');
CREATE INDEX jobs_rid ON jobs (rid, id DESC);

-- the sandbox payment provider's own ledger: what its pay page has settled
CREATE TABLE sandbox_payments (
  orderid     text PRIMARY KEY,
  total_fee   numeric(14,2) NOT NULL,
  paid_at     timestamptz NOT NULL DEFAULT now()
);
