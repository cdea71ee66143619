-- The sales CRM (销售客户 /crm/crm, salescall, invitelist, intentions, intention; docs/product.md#crm-sales):
-- customers with their pipeline stage (the workflow crmcustomer, logged in workflow_logs), their
-- follow-ups and visit invitations, intention deposits (认筹金) billed on a room as ordinary fee
-- bills, and the public pool's rules (公海规则) with the deposits' queue counter.

-- pool rules and the queue counter of a community; a community without a row has the defaults
CREATE TABLE crm_sales_settings (
  rid              int PRIMARY KEY REFERENCES regions(id),
  pool_enabled     char(1) NOT NULL DEFAULT 'Y' CHECK (pool_enabled IN ('Y', 'N')),
  -- days without a follow-up before a customer goes back to the pool (0: this rule is off)
  pool_follow_days int NOT NULL DEFAULT 15 CHECK (pool_follow_days BETWEEN 0 AND 3650),
  -- days a consultant holds a customer without a deal (认购 or 签约) before it goes back (0: off)
  pool_deal_days   int NOT NULL DEFAULT 90 CHECK (pool_deal_days BETWEEN 0 AND 3650),
  -- the consultant's to-do is raised this many days before (0: no warning)
  pool_warn_days   int NOT NULL DEFAULT 3 CHECK (pool_warn_days BETWEEN 0 AND 365),
  -- how many open customers (not dealt, not invalid) a consultant may hold (0: no limit)
  hold_limit       int NOT NULL DEFAULT 200 CHECK (hold_limit BETWEEN 0 AND 100000),
  -- the last queue number (排号) given: numbers go on from it and are never given again
  queue_last       int NOT NULL DEFAULT 0 CHECK (queue_last >= 0),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       bigint,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint
);

CREATE TABLE crm_customers (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 30),
  gender           text NOT NULL DEFAULT '' CHECK (gender IN ('', 'M', 'F')),
  -- the duplicate key within the community
  mobile           text NOT NULL CHECK (mobile ~ '^1[3-9][0-9]{9}$'),
  phones           text[] NOT NULL DEFAULT '{}' CHECK (cardinality(phones) <= 3),
  wechat           text NOT NULL DEFAULT '',
  id_card          text NOT NULL DEFAULT '',
  -- what they want
  product          text NOT NULL DEFAULT 'house' CHECK (product IN ('house', 'shop', 'parking', 'office', 'other')),
  area_min         numeric(10,2) CHECK (area_min >= 0),
  area_max         numeric(10,2) CHECK (area_max >= 0),
  layout           text NOT NULL DEFAULT '',
  -- 万元
  budget_min       numeric(12,2) CHECK (budget_min >= 0),
  budget_max       numeric(12,2) CHECK (budget_max >= 0),
  purpose          text NOT NULL DEFAULT '' CHECK (purpose IN ('', 'self', 'invest', 'upgrade', 'office', 'business', 'other')),
  source           text NOT NULL CHECK (source IN ('walkin', 'call', 'channel', 'referral', 'online', 'event', 'other')),
  channel          text NOT NULL DEFAULT '' CHECK (channel IN ('', 'agency', 'broker', 'platform', 'outdoor', 'social', 'other')),
  grade            char(1) NOT NULL DEFAULT 'B' CHECK (grade IN ('A', 'B', 'C', 'D')),
  -- the unit wanted (意向房源): a room of the community, where an intention deposit is billed by default
  hid              bigint,
  tags             text[] NOT NULL DEFAULT '{}',
  remark           text NOT NULL DEFAULT '',
  -- the pipeline (workflow crmcustomer): 报备 有效 来访 认筹 认购 签约 | 无效
  stage            text NOT NULL DEFAULT 'report'
                     CHECK (stage IN ('report', 'valid', 'visit', 'pledge', 'subscribe', 'sign', 'invalid')),
  invalid_reason   text NOT NULL DEFAULT '',
  -- the furthest stage of the pipeline ever reached (1 报备 … 6 签约), kept by the trigger below: the funnel's
  furthest          smallint NOT NULL DEFAULT 1 CHECK (furthest BETWEEN 1 AND 6),
  contract_no      text NOT NULL DEFAULT '',
  -- the consultant (置业顾问), a staff account of the community; null: in the public pool
  consultant_id    bigint REFERENCES accounts(id),
  -- when the consultant took the customer: the pool's clocks start here
  assigned_at      timestamptz NOT NULL DEFAULT now(),
  visit_count      int NOT NULL DEFAULT 0 CHECK (visit_count >= 0),
  last_follow_at   timestamptz,
  last_follow_text text NOT NULL DEFAULT '',
  next_contact_at  timestamptz,
  -- the day the pool warning was raised for the present holding (never twice for one due day)
  pool_warned_for  date,
  stage_at         timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, mobile),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  CHECK (area_min IS NULL OR area_max IS NULL OR area_min <= area_max),
  CHECK (budget_min IS NULL OR budget_max IS NULL OR budget_min <= budget_max)
);
CREATE INDEX crm_customers_consultant ON crm_customers (rid, consultant_id, id);
CREATE INDEX crm_customers_pool ON crm_customers (rid, id) WHERE consultant_id IS NULL;
CREATE INDEX crm_customers_stage ON crm_customers (rid, stage, id);
CREATE INDEX crm_customers_next_contact ON crm_customers (rid, consultant_id, next_contact_at) WHERE next_contact_at IS NOT NULL;
CREATE INDEX crm_customers_created ON crm_customers (rid, created_at);
CREATE INDEX crm_customers_name ON crm_customers (rid, name text_pattern_ops);
CREATE INDEX crm_customers_mobile_like ON crm_customers (rid, mobile text_pattern_ops);
CREATE INDEX crm_customers_source ON crm_customers (rid, source, id);
CREATE INDEX crm_customers_grade ON crm_customers (rid, grade, id);
CREATE INDEX crm_customers_product ON crm_customers (rid, product, id);
-- the daily pool job: every held customer not dealt
CREATE INDEX crm_customers_held ON crm_customers (consultant_id) WHERE consultant_id IS NOT NULL AND stage IN ('report', 'valid', 'visit', 'pledge');

-- a customer's furthest stage follows every move of its stage, whoever makes it (a transition, a
-- visit, a deposit paid, a contract signed, the demo, a bulk load with triggers on)
CREATE FUNCTION crm_stage_order(stage text) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE stage WHEN 'report' THEN 1 WHEN 'valid' THEN 2 WHEN 'visit' THEN 3 WHEN 'pledge' THEN 4
    WHEN 'subscribe' THEN 5 WHEN 'sign' THEN 6 ELSE 1 END)::smallint $$;
CREATE FUNCTION crm_customers_furthest() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.furthest := greatest(CASE WHEN TG_OP = 'UPDATE' THEN OLD.furthest ELSE NEW.furthest END, crm_stage_order(NEW.stage));
  RETURN NEW;
END $$;
CREATE TRIGGER crm_customers_furthest BEFORE INSERT OR UPDATE OF stage ON crm_customers
  FOR EACH ROW EXECUTE FUNCTION crm_customers_furthest();

-- follow-ups (跟进记录 /crm/salescall); they go with their customer
CREATE TABLE crm_followups (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  customer_id      bigint NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('phone', 'wechat', 'visit', 'sms', 'other')),
  content          text NOT NULL CHECK (length(content) BETWEEN 1 AND 500),
  next_contact_at  timestamptz,
  -- the consultant who followed up (the author)
  operator         text NOT NULL DEFAULT '',
  updated_at       timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, customer_id) REFERENCES crm_customers (rid, id) ON DELETE CASCADE
);
CREATE INDEX crm_followups_customer ON crm_followups (rid, customer_id, id);
CREATE INDEX crm_followups_author ON crm_followups (rid, created_by, id);
CREATE INDEX crm_followups_created ON crm_followups (rid, created_at);
CREATE INDEX crm_followups_kind ON crm_followups (rid, kind, id);

-- visit invitations (邀约到访 /crm/invitelist); 已到访 moves the customer to 来访
CREATE TABLE crm_invites (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  customer_id      bigint NOT NULL,
  invite_at        timestamptz NOT NULL,
  -- the consultant who receives them
  consultant_id    bigint NOT NULL REFERENCES accounts(id),
  visitors         int NOT NULL DEFAULT 1 CHECK (visitors BETWEEN 1 AND 99),
  purpose          text NOT NULL DEFAULT 'view' CHECK (purpose IN ('view', 'sign', 'deposit', 'other')),
  -- P 待到访 | V 已到访 | M 未到访 | C 取消
  outcome          char(1) NOT NULL DEFAULT 'P' CHECK (outcome IN ('P', 'V', 'M', 'C')),
  arrived_at       timestamptz,
  result           text NOT NULL DEFAULT '',
  updated_at       timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, customer_id) REFERENCES crm_customers (rid, id) ON DELETE CASCADE,
  CHECK ((outcome = 'V') = (arrived_at IS NOT NULL))
);
CREATE INDEX crm_invites_customer ON crm_invites (rid, customer_id, id);
CREATE INDEX crm_invites_consultant ON crm_invites (rid, consultant_id, id);
CREATE INDEX crm_invites_time ON crm_invites (rid, invite_at);
CREATE INDEX crm_invites_outcome ON crm_invites (rid, outcome, id);

-- intention deposits (认筹 /crm/intentions): a queue number and a fee bill of the room chosen
-- (item 认筹金, cost type 销售收入). Stored P (registered; paid or not is the bill's), R (a refund
-- asked through the refund workflow: refund_id; a rejected one reads as paid again), T 已退款
-- (the refund approved: the bill stays paid, its receipt line refunded), C 已取消 (unpaid, bill deleted)
CREATE TABLE crm_intentions (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  customer_id      bigint NOT NULL,
  queue_no         int NOT NULL CHECK (queue_no > 0),
  amount           numeric(14,2) NOT NULL CHECK (amount > 0),
  hid              bigint NOT NULL,
  bill_id          bigint,
  status           char(1) NOT NULL DEFAULT 'P' CHECK (status IN ('P', 'R', 'T', 'C')),
  paid_at          timestamptz,
  refund_id        bigint,
  reason           text NOT NULL DEFAULT '',
  remark           text NOT NULL DEFAULT '',
  updated_at       timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, queue_no),
  FOREIGN KEY (rid, customer_id) REFERENCES crm_customers (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, bill_id) REFERENCES fee_bills (rid, id),
  FOREIGN KEY (rid, refund_id) REFERENCES fee_refunds (rid, id),
  CHECK (status = 'C' OR bill_id IS NOT NULL)
);
CREATE INDEX crm_intentions_customer ON crm_intentions (rid, customer_id, id);
CREATE INDEX crm_intentions_bill ON crm_intentions (rid, bill_id);
CREATE INDEX crm_intentions_status ON crm_intentions (rid, status, id);
CREATE INDEX crm_intentions_created ON crm_intentions (rid, created_at);
