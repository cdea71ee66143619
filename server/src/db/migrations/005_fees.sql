-- Fees: cost types, fee items, bindings, bill batches, bills, adjustments, payments, receipts.
-- Money is numeric(14,2); unit prices numeric(14,4). Every table is keyed by (rid, ...).

CREATE TABLE fee_cost_types (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  -- property | parking | water | electricity | gas | rent | deposit | other | a custom code
  cost_type   text NOT NULL,
  title       text NOT NULL,
  sort        int NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, cost_type),
  UNIQUE (rid, title)
);

CREATE TABLE fee_items (
  rid                   int NOT NULL REFERENCES regions(id),
  id                    bigserial,
  cost_type             text NOT NULL,
  title                 text NOT NULL,
  pricing               text NOT NULL CHECK (pricing IN ('area_built', 'area_indoor', 'fixed', 'meter', 'quantity')),
  unit_price            numeric(14,4) NOT NULL CHECK (unit_price >= 0),
  -- the measure used by meter/quantity pricing when no reading is given
  default_quantity      numeric(14,2) NOT NULL DEFAULT 0 CHECK (default_quantity >= 0),
  cycle_months          int NOT NULL DEFAULT 1 CHECK (cycle_months BETWEEN 1 AND 12),
  due_day               int NOT NULL DEFAULT 15 CHECK (due_day BETWEEN 1 AND 28),
  late_fee_rule         text NOT NULL DEFAULT 'none' CHECK (late_fee_rule IN ('none', 'daily')),
  -- per mille of the bill per day overdue, after the grace days
  late_fee_rate         numeric(8,4) NOT NULL DEFAULT 0 CHECK (late_fee_rate >= 0),
  late_fee_grace_days   int NOT NULL DEFAULT 0 CHECK (late_fee_grace_days >= 0),
  -- late fee never above this percent of the bill; 0 = no cap
  late_fee_cap_percent  int NOT NULL DEFAULT 0 CHECK (late_fee_cap_percent BETWEEN 0 AND 1000),
  status                char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark                text NOT NULL DEFAULT '',
  created_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title),
  FOREIGN KEY (rid, cost_type) REFERENCES fee_cost_types (rid, cost_type) ON UPDATE CASCADE
);

-- which rooms an item bills: the whole community, a building, a unit, a room category or one room
CREATE TABLE fee_bindings (
  rid         int NOT NULL,
  id          bigserial,
  item_id     bigint NOT NULL,
  scope       text NOT NULL CHECK (scope IN ('region', 'building', 'unit', 'category', 'room')),
  -- the building / unit / category / room id; 0 for the whole community
  ref_id      bigint NOT NULL DEFAULT 0,
  created_by  text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, item_id, scope, ref_id),
  FOREIGN KEY (rid, item_id) REFERENCES fee_items (rid, id) ON DELETE CASCADE
);

CREATE TABLE fee_batches (
  rid         int NOT NULL,
  id          bigserial,
  period      text NOT NULL,
  item_ids    bigint[] NOT NULL,
  filters     jsonb NOT NULL DEFAULT '{}',
  job_id      bigint,
  -- running | done | failed | cancelled
  status      text NOT NULL DEFAULT 'running',
  bill_count  int NOT NULL DEFAULT 0,
  total_fee   numeric(14,2) NOT NULL DEFAULT 0,
  created_by  text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);

CREATE TABLE fee_receipt_counters (
  rid       int PRIMARY KEY REFERENCES regions(id),
  last_no   bigint NOT NULL DEFAULT 0
);

CREATE TABLE fee_payments (
  rid              int NOT NULL,
  id               bigserial,
  receipt_no       text NOT NULL,
  hid              bigint NOT NULL,
  bid              bigint NOT NULL,
  tid              bigint NOT NULL,
  member_id        bigint,
  payer_name       text NOT NULL DEFAULT '',
  -- sum of the bills' fees
  receivable       numeric(14,2) NOT NULL,
  late_fee         numeric(14,2) NOT NULL DEFAULT 0,
  discount         numeric(14,2) NOT NULL DEFAULT 0,
  balance_used     numeric(14,2) NOT NULL DEFAULT 0,
  -- receivable + late_fee - discount - balance_used
  due              numeric(14,2) NOT NULL,
  paid_amount      numeric(14,2) NOT NULL,
  -- paid_amount - due, credited to the owner's balance
  to_balance       numeric(14,2) NOT NULL DEFAULT 0,
  pay_type         text NOT NULL CHECK (pay_type IN ('cash', 'wechat', 'alipay', 'bankcard', 'transfer', 'balance')),
  cashier_id       int,
  cashier_name     text NOT NULL DEFAULT '',
  idempotency_key  text NOT NULL,
  remark           text NOT NULL DEFAULT '',
  -- Y paid | R refunded in full | P partly refunded
  status           char(1) NOT NULL DEFAULT 'Y',
  refunded_amount  numeric(14,2) NOT NULL DEFAULT 0,
  print_count      int NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, receipt_no),
  UNIQUE (rid, idempotency_key),
  CHECK (receivable >= 0 AND late_fee >= 0 AND discount >= 0 AND balance_used >= 0 AND due >= 0 AND paid_amount >= 0 AND to_balance >= 0)
);
CREATE INDEX fee_payments_time ON fee_payments (rid, created_at);
CREATE INDEX fee_payments_hid ON fee_payments (rid, hid);

CREATE TABLE fee_bills (
  rid          int NOT NULL,
  id           bigserial,
  hid          bigint NOT NULL,
  bid          bigint NOT NULL,
  tid          bigint NOT NULL,
  item_id      bigint NOT NULL,
  cost_type    text NOT NULL,
  title        text NOT NULL,
  -- YYYY-MM: the first month the bill covers
  period       text NOT NULL,
  daterange    text NOT NULL DEFAULT '',
  measure      text NOT NULL DEFAULT '',
  unit_price   numeric(14,4) NOT NULL DEFAULT 0,
  fee          numeric(14,2) NOT NULL CHECK (fee >= 0),
  -- E pending | Y paid | N overdue
  status       char(1) NOT NULL DEFAULT 'E' CHECK (status IN ('E', 'Y', 'N')),
  is_check     char(1) NOT NULL DEFAULT 'N' CHECK (is_check IN ('Y', 'N')),
  batch_id     bigint,
  -- generate | import
  source       text NOT NULL DEFAULT 'generate',
  due_date     date NOT NULL,
  late_fee     numeric(14,2) NOT NULL DEFAULT 0,
  paid_at      timestamptz,
  payment_id   bigint,
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, hid, item_id, period),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, item_id) REFERENCES fee_items (rid, id),
  FOREIGN KEY (rid, payment_id) REFERENCES fee_payments (rid, id)
);
CREATE INDEX fee_bills_status ON fee_bills (rid, status, due_date);
CREATE INDEX fee_bills_building ON fee_bills (rid, bid, tid, hid);
CREATE INDEX fee_bills_batch ON fee_bills (rid, batch_id);
CREATE INDEX fee_bills_item_period ON fee_bills (rid, item_id, period);
CREATE INDEX fee_bills_payment ON fee_bills (rid, payment_id);

CREATE TABLE fee_payment_items (
  rid         int NOT NULL,
  id          bigserial,
  payment_id  bigint NOT NULL,
  bill_id     bigint NOT NULL,
  title       text NOT NULL,
  period      text NOT NULL,
  daterange   text NOT NULL DEFAULT '',
  fee         numeric(14,2) NOT NULL,
  late_fee    numeric(14,2) NOT NULL DEFAULT 0,
  -- Y once refunded
  refunded    char(1) NOT NULL DEFAULT 'N',
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, payment_id) REFERENCES fee_payments (rid, id),
  FOREIGN KEY (rid, bill_id) REFERENCES fee_bills (rid, id)
);
CREATE INDEX fee_payment_items_payment ON fee_payment_items (rid, payment_id);
CREATE INDEX fee_payment_items_bill ON fee_payment_items (rid, bill_id);

-- the audit trail of amount changes on unpaid bills (feeedit)
CREATE TABLE fee_bill_adjustments (
  rid         int NOT NULL,
  id          bigserial,
  bill_id     bigint NOT NULL,
  old_fee     numeric(14,2) NOT NULL,
  new_fee     numeric(14,2) NOT NULL,
  reason      text NOT NULL,
  created_by  text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
CREATE INDEX fee_bill_adjustments_bill ON fee_bill_adjustments (rid, bill_id);

-- refund requests: approved by a role with permission, then reversed exactly
CREATE TABLE fee_refunds (
  rid             int NOT NULL,
  id              bigserial,
  payment_id      bigint NOT NULL,
  bill_ids        bigint[] NOT NULL,
  amount          numeric(14,2) NOT NULL CHECK (amount >= 0),
  -- filled at approval: back through the original pay type / back to the owner's balance
  cash_amount     numeric(14,2) NOT NULL DEFAULT 0,
  balance_amount  numeric(14,2) NOT NULL DEFAULT 0,
  reason          text NOT NULL,
  -- E waiting | Y approved | N rejected
  status          char(1) NOT NULL DEFAULT 'E' CHECK (status IN ('E', 'Y', 'N')),
  applicant       text NOT NULL DEFAULT '',
  approver        text NOT NULL DEFAULT '',
  approve_remark  text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  approved_at     timestamptz,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, payment_id) REFERENCES fee_payments (rid, id)
);
CREATE INDEX fee_refunds_payment ON fee_refunds (rid, payment_id);
