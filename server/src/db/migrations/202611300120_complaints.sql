-- 投诉建议 (docs/product.md#complaints): the settable categories with their first-response and close
-- deadlines in hours, and the complaints as a workflow (待受理 → 处理中 → 待评价 → 已完成, or 已关闭).
-- The deadlines are computed when a complaint is registered and never rewritten; a periodic job marks
-- each breach once (respond_overdue_at, close_overdue_at). repair_id links a complaint turned into a
-- repair ticket (no foreign key: the repair tables are another area's).
CREATE TABLE complaint_categories (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  name          text NOT NULL,
  respond_hours int NOT NULL DEFAULT 2 CHECK (respond_hours BETWEEN 1 AND 720),
  close_hours   int NOT NULL DEFAULT 72 CHECK (close_hours BETWEEN 1 AND 2160),
  sort          int NOT NULL DEFAULT 0,
  status        char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark        text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id)
);
CREATE UNIQUE INDEX complaint_categories_name ON complaint_categories (rid, name);

CREATE TABLE complaints (
  rid                 int NOT NULL REFERENCES regions(id),
  id                  bigserial,
  kind                char(1) NOT NULL CHECK (kind IN ('C', 'S', 'Q')),
  category_id         bigint NOT NULL,
  hid                 bigint,
  contact             text NOT NULL,
  phone               text NOT NULL,
  content             text NOT NULL,
  photos              text[] NOT NULL DEFAULT '{}',
  anonymous           boolean NOT NULL DEFAULT false,
  status              char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'D', 'E', 'Y', 'X')),
  handler_id          bigint,
  handler_name        text NOT NULL DEFAULT '',
  respond_deadline    timestamptz NOT NULL,
  close_deadline      timestamptz NOT NULL,
  accepted_at         timestamptz,
  finished_at         timestamptz,
  finish_note         text NOT NULL DEFAULT '',
  rating              int CHECK (rating BETWEEN 1 AND 5),
  rating_text         text NOT NULL DEFAULT '',
  rated_at            timestamptz,
  rated_auto          boolean NOT NULL DEFAULT false,
  close_reason        text NOT NULL DEFAULT '' CHECK (close_reason IN ('', 'invalid', 'duplicate')),
  close_note          text NOT NULL DEFAULT '',
  closed_at           timestamptz,
  respond_overdue_at  timestamptz,
  close_overdue_at    timestamptz,
  repair_id           bigint,
  creator             text NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  created_by          bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, category_id) REFERENCES complaint_categories (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
CREATE INDEX complaints_status ON complaints (rid, status, id);
CREATE INDEX complaints_handler ON complaints (rid, handler_id, id);
-- the deadline job's scan: open complaints not yet marked
CREATE INDEX complaints_open_deadlines ON complaints (respond_deadline) WHERE status IN ('W', 'D');
