-- Repairs (报修, /steward/repairs; docs/product.md#repairs): the repair types (a two-level tree with
-- their handling settings and bound technicians), the desk's repair settings, and the tickets with
-- their deadlines, ratings, follow-up and fee bill. The timeline is the repair workflow's rows of
-- workflow_logs (flow 'repair').

-- The desk's settings of a community (one row; absent: the defaults).
CREATE TABLE repair_settings (
  rid              int PRIMARY KEY,
  -- a technician holds at most this many open tickets (待接单, 处理中, 已暂停)
  max_open         int NOT NULL DEFAULT 5 CHECK (max_open BETWEEN 1 AND 99),
  -- a ticket waiting for its rating this long is rated 5/5/5 automatically
  auto_rate_hours  int NOT NULL DEFAULT 48 CHECK (auto_rate_hours BETWEEN 1 AND 720),
  -- a completed ticket may be reopened (返修) within this many days
  reopen_days      int NOT NULL DEFAULT 7 CHECK (reopen_days BETWEEN 0 AND 90),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE repair_types (
  rid              int NOT NULL,
  id               bigserial,
  -- 0 for a top-level type; a child's parent is a top-level type (two levels)
  parent_id        bigint NOT NULL DEFAULT 0,
  title            text NOT NULL,
  -- A assign (指派) | G grab (抢单) | R round robin among the bound technicians on duty (轮派)
  mode             char(1) NOT NULL DEFAULT 'A' CHECK (mode IN ('A', 'G', 'R')),
  -- H household (房屋) | P public area (公共区域)
  area             char(1) NOT NULL DEFAULT 'H' CHECK (area IN ('H', 'P')),
  -- Y paid (有偿) | N free
  paid             char(1) NOT NULL DEFAULT 'N' CHECK (paid IN ('Y', 'N')),
  accept_hours     int NOT NULL DEFAULT 2 CHECK (accept_hours BETWEEN 1 AND 720),
  finish_hours     int NOT NULL DEFAULT 24 CHECK (finish_hours BETWEEN 1 AND 2160),
  -- warn the technician this many minutes before a deadline
  warn_minutes     int NOT NULL DEFAULT 30 CHECK (warn_minutes BETWEEN 0 AND 1440),
  -- A visit every ticket | U visit only those not rated by a person | N no follow-up
  visit_policy     char(1) NOT NULL DEFAULT 'A' CHECK (visit_policy IN ('A', 'U', 'N')),
  -- the technicians bound to it (staff accounts holding repairs)
  staff_ids        bigint[] NOT NULL DEFAULT '{}',
  sort             int NOT NULL DEFAULT 0,
  status           char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id)
);
CREATE UNIQUE INDEX repair_types_title ON repair_types (rid, parent_id, title);

CREATE TABLE repair_tickets (
  rid              int NOT NULL,
  id               bigserial,
  -- BX + yyyymmdd + 4 digits, unique in the community
  no               text NOT NULL,
  -- D staff for the owner (代客) | T phone (电话) | N internal (内部)
  source           char(1) NOT NULL CHECK (source IN ('D', 'T', 'N')),
  type_id          bigint NOT NULL,
  -- a room, or a public place of a building (bid) or of the community (neither)
  hid              bigint,
  bid              bigint,
  place            text NOT NULL DEFAULT '',
  reporter         text NOT NULL,
  phone            text NOT NULL,
  appointment_at   timestamptz,
  content          text NOT NULL,
  photos           text[] NOT NULL DEFAULT '{}',
  urgent           boolean NOT NULL DEFAULT false,
  -- W 待派单 A 待接单 P 处理中 S 已暂停 F 待支付 R 待评价 V 待回访 D 已完成 C 已关闭
  status           char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'A', 'P', 'S', 'F', 'R', 'V', 'D', 'C')),
  handler_id       bigint,
  handler_name     text NOT NULL DEFAULT '',
  -- the deadlines: accept-by set at the first dispatch, finish-by at creation; never rewritten
  accept_by        timestamptz,
  finish_by        timestamptz NOT NULL,
  dispatched_at    timestamptz,
  accepted_at      timestamptz,
  -- the clock stops while paused: paused_at while 已暂停, paused_seconds summed over resumed pauses
  paused_at        timestamptz,
  paused_seconds   int NOT NULL DEFAULT 0,
  pause_reason     text NOT NULL DEFAULT '',
  resume_date      date,
  -- breaches and the warning, each marked once by the clock job
  overdue          boolean NOT NULL DEFAULT false,
  accept_breached_at timestamptz,
  finish_breached_at timestamptz,
  warned_at        timestamptz,
  finished_at      timestamptz,
  finish_note      text NOT NULL DEFAULT '',
  materials        text NOT NULL DEFAULT '',
  before_photos    text[] NOT NULL DEFAULT '{}',
  after_photos     text[] NOT NULL DEFAULT '{}',
  -- [{ "name": "更换水龙头", "amount": "80.00" }]
  fee_lines        jsonb NOT NULL DEFAULT '[]',
  fee_total        numeric(14,2) NOT NULL DEFAULT 0,
  bill_id          bigint,
  paid_at          timestamptz,
  -- waiting for the rating since (the auto-rating counts from here)
  rate_since       timestamptz,
  rate_overall     smallint CHECK (rate_overall BETWEEN 1 AND 5),
  rate_speed       smallint CHECK (rate_speed BETWEEN 1 AND 5),
  rate_service     smallint CHECK (rate_service BETWEEN 1 AND 5),
  rate_text        text NOT NULL DEFAULT '',
  rated_at         timestamptz,
  rate_auto        boolean NOT NULL DEFAULT false,
  visit_satisfied  char(1) CHECK (visit_satisfied IN ('Y', 'N')),
  visit_note       text NOT NULL DEFAULT '',
  visited_at       timestamptz,
  completed_at     timestamptz,
  closed_at        timestamptz,
  close_reason     text NOT NULL DEFAULT '',
  reopen_count     int NOT NULL DEFAULT 0,
  urge_count       int NOT NULL DEFAULT 0,
  -- a complaint turned into this repair (linked by the complaints area)
  complaint_id     bigint,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, type_id) REFERENCES repair_types (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, bill_id) REFERENCES fee_bills (rid, id) ON DELETE SET NULL (bill_id)
);
CREATE UNIQUE INDEX repair_tickets_no ON repair_tickets (rid, no);
CREATE INDEX repair_tickets_status ON repair_tickets (rid, status, id);
CREATE INDEX repair_tickets_handler ON repair_tickets (rid, handler_id, status);
CREATE INDEX repair_tickets_hid ON repair_tickets (rid, hid);
CREATE INDEX repair_tickets_bill ON repair_tickets (rid, bill_id) WHERE bill_id IS NOT NULL;
