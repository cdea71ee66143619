-- 内部工单 (docs/product.md#internal-orders): orders staff raise for public areas, equipment or tasks,
-- with several handlers, people copied, checklist items (done or not, one photo each) and a due time;
-- 待处理 → 处理中 → 待验收 → 已完成 (the creator accepts with a score, or sends it back), or 已关闭.
-- A recurring order is a template; a periodic job creates each occurrence once: (template_id,
-- occurs_on) is unique, so a second run, or a second process, never makes it twice.
CREATE TABLE internal_order_templates (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  title        text NOT NULL,
  kind         char(1) NOT NULL,
  location     text NOT NULL DEFAULT '',
  content      text NOT NULL DEFAULT '',
  handler_ids  bigint[] NOT NULL,
  cc_ids       bigint[] NOT NULL DEFAULT '{}',
  items        text[] NOT NULL DEFAULT '{}',
  photos       text[] NOT NULL DEFAULT '{}',
  due_hours    int NOT NULL CHECK (due_hours BETWEEN 1 AND 720),
  recurrence   char(1) NOT NULL CHECK (recurrence IN ('D', 'W', 'M')),
  start_date   date NOT NULL,
  next_on      date NOT NULL,
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  creator      text NOT NULL DEFAULT '',
  stopped_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id)
);
CREATE INDEX internal_order_templates_due ON internal_order_templates (next_on) WHERE status = 'Y';

CREATE TABLE internal_orders (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  template_id   bigint,
  occurs_on     date,
  title         text NOT NULL,
  kind          char(1) NOT NULL,
  location      text NOT NULL DEFAULT '',
  content       text NOT NULL DEFAULT '',
  handler_ids   bigint[] NOT NULL,
  cc_ids        bigint[] NOT NULL DEFAULT '{}',
  photos        text[] NOT NULL DEFAULT '{}',
  due_hours     int NOT NULL,
  due_at        timestamptz NOT NULL,
  status        char(1) NOT NULL DEFAULT 'P' CHECK (status IN ('P', 'D', 'C', 'Y', 'X')),
  score         int CHECK (score BETWEEN 1 AND 5),
  accept_note   text NOT NULL DEFAULT '',
  started_at    timestamptz,
  submitted_at  timestamptz,
  accepted_at   timestamptz,
  closed_at     timestamptz,
  close_note    text NOT NULL DEFAULT '',
  creator       text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, template_id) REFERENCES internal_order_templates (rid, id)
);
CREATE UNIQUE INDEX internal_orders_occurrence ON internal_orders (rid, template_id, occurs_on) WHERE template_id IS NOT NULL;
CREATE INDEX internal_orders_status ON internal_orders (rid, status, id);

CREATE TABLE internal_order_items (
  rid        int NOT NULL REFERENCES regions(id),
  id         bigserial,
  order_id   bigint NOT NULL,
  sort       int NOT NULL,
  title      text NOT NULL,
  done       boolean NOT NULL DEFAULT false,
  photo      text NOT NULL DEFAULT '',
  done_at    timestamptz,
  done_by    text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, order_id) REFERENCES internal_orders (rid, id) ON DELETE CASCADE
);
CREATE INDEX internal_order_items_order ON internal_order_items (rid, order_id, sort);
