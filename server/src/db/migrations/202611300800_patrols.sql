-- Security patrols (安保巡更 /security; docs/product.md#patrols): points with their check-in codes
-- and checklist, plans (a route of ordered points, a cycle, shift windows, guards), the tasks a job
-- makes per plan, guard and window, each task's points, every check-in upload (matched or not) and
-- the supervisors' corrections.

-- A point: where a guard checks in, and how (QR, NFC tag, wand button, GPS within a radius).
CREATE TABLE patrol_points (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  -- printed on the QR label, typed on the check-in page
  number         text NOT NULL CHECK (length(number) BETWEEN 1 AND 20),
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 30),
  -- S 安防 | E 设备 | V 环境 | F 消防
  kind           char(1) NOT NULL CHECK (kind IN ('S', 'E', 'V', 'F')),
  bid            bigint,
  tid            bigint,
  place          text NOT NULL DEFAULT '',
  -- an asset of the equipment ledger (no foreign key: that area is its own)
  asset_id       bigint,
  -- the QR's content: a random token, so a typed number is not the printed code
  qr_code        text NOT NULL,
  -- upper case without separators ('04:a1' and '04A1' are one tag)
  nfc_uid        text NOT NULL DEFAULT '',
  wand_no        text NOT NULL DEFAULT '',
  lat            numeric(10,7),
  lng            numeric(10,7),
  radius         int NOT NULL DEFAULT 50 CHECK (radius BETWEEN 5 AND 5000),
  -- [{ title, type: single|multiple|text|normal, options: [...] }]
  checklist      jsonb NOT NULL DEFAULT '[]',
  photo_required char(1) NOT NULL DEFAULT 'N' CHECK (photo_required IN ('Y', 'N')),
  status         char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id)
);
CREATE UNIQUE INDEX patrol_points_name ON patrol_points (rid, name);
CREATE UNIQUE INDEX patrol_points_number ON patrol_points (rid, number);
CREATE UNIQUE INDEX patrol_points_qr ON patrol_points (rid, qr_code);
CREATE UNIQUE INDEX patrol_points_nfc ON patrol_points (rid, nfc_uid) WHERE nfc_uid <> '';
CREATE UNIQUE INDEX patrol_points_wand ON patrol_points (rid, wand_no) WHERE wand_no <> '';

-- A plan: route, cycle, validity, shift windows, guards and the rules of its tasks.
CREATE TABLE patrol_plans (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 30),
  -- Y the points in route order | N any order
  in_order       char(1) NOT NULL DEFAULT 'N' CHECK (in_order IN ('Y', 'N')),
  -- D daily | W chosen weekdays | M chosen days of the month | A every other day from start_date
  cycle          char(1) NOT NULL CHECK (cycle IN ('D', 'W', 'M', 'A')),
  -- weekdays 1 (Monday) … 7, or days 1 … 31
  cycle_days     int[] NOT NULL DEFAULT '{}',
  start_date     date NOT NULL,
  end_date       date NOT NULL CHECK (end_date >= start_date),
  -- [{ start: 'HH:MM', end: 'HH:MM' }], an end at or before the start is the next day
  shifts         jsonb NOT NULL,
  ahead_minutes  int NOT NULL DEFAULT 30 CHECK (ahead_minutes BETWEEN 0 AND 1440),
  makeup_hours   int NOT NULL DEFAULT 0 CHECK (makeup_hours BETWEEN 0 AND 72),
  abnormal_order char(1) NOT NULL DEFAULT 'N' CHECK (abnormal_order IN ('Y', 'N')),
  -- who handles the internal work order an abnormal result opens
  order_handler_id bigint,
  status         char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id)
);
CREATE UNIQUE INDEX patrol_plans_name ON patrol_plans (rid, name);

CREATE TABLE patrol_plan_points (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  plan_id      bigint NOT NULL,
  point_id     bigint NOT NULL,
  sort         int NOT NULL,
  -- the point's window: from … to minutes after the shift window starts
  offset_from  int NOT NULL DEFAULT 0,
  offset_to    int NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, plan_id) REFERENCES patrol_plans (rid, id) ON DELETE CASCADE,
  FOREIGN KEY (rid, point_id) REFERENCES patrol_points (rid, id),
  UNIQUE (rid, plan_id, point_id)
);
CREATE INDEX patrol_plan_points_point ON patrol_plan_points (rid, point_id);

CREATE TABLE patrol_plan_guards (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  plan_id      bigint NOT NULL,
  account_id   bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, plan_id) REFERENCES patrol_plans (rid, id) ON DELETE CASCADE,
  UNIQUE (rid, plan_id, account_id)
);

-- A task: one plan, one guard (as planned), one shift window; never made twice (the unique key
-- holds the planned guard, so a transferred task is not made again for them).
CREATE TABLE patrol_tasks (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  plan_id        bigint NOT NULL,
  plan_name      text NOT NULL,
  guard_id       bigint NOT NULL,
  -- who does it now (another guard after a transfer)
  current_guard_id bigint NOT NULL,
  day            date NOT NULL,
  window_start   timestamptz NOT NULL,
  window_end     timestamptz NOT NULL,
  -- the end of the window plus the make-up time: the closing job's moment
  close_at       timestamptz NOT NULL,
  in_order       char(1) NOT NULL,
  -- W 未开始 | D 巡检中 | Y 已完成 | P 部分完成 | X 未巡
  status         char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'D', 'Y', 'P', 'X')),
  points_total   int NOT NULL,
  points_done    int NOT NULL DEFAULT 0,
  abnormal_count int NOT NULL DEFAULT 0,
  late_count     int NOT NULL DEFAULT 0,
  -- the missed points' names, joined by 、 (set when the task closes)
  missed_names   text NOT NULL DEFAULT '',
  transfer_reason text NOT NULL DEFAULT '',
  transferred_at timestamptz,
  started_at     timestamptz,
  closed_at      timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, plan_id) REFERENCES patrol_plans (rid, id),
  UNIQUE (rid, plan_id, guard_id, window_start)
);
CREATE INDEX patrol_tasks_open ON patrol_tasks (rid, current_guard_id, status, window_start);
CREATE INDEX patrol_tasks_day ON patrol_tasks (rid, day, plan_id);
CREATE INDEX patrol_tasks_closing ON patrol_tasks (close_at) WHERE status IN ('W', 'D');

-- A task's point: its window, and what became of it (the check-in it counts, corrections).
CREATE TABLE patrol_task_points (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  task_id      bigint NOT NULL,
  point_id     bigint NOT NULL,
  point_name   text NOT NULL,
  sort         int NOT NULL,
  due_from     timestamptz NOT NULL,
  due_to       timestamptz NOT NULL,
  -- W 待巡 | Y 已巡 | M 漏巡 | B 补检 (a supervisor's make-up)
  status       char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'Y', 'M', 'B')),
  checkin_id   bigint,
  -- N 正常 | A 异常 ('' not checked): the check-in's, or a supervisor's correction
  result       char(1) NOT NULL DEFAULT '' CHECK (result IN ('', 'N', 'A')),
  remark       text NOT NULL DEFAULT '',
  order_id     bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, task_id) REFERENCES patrol_tasks (rid, id) ON DELETE CASCADE,
  UNIQUE (rid, task_id, point_id)
);
CREATE INDEX patrol_task_points_point ON patrol_task_points (rid, point_id, status);

-- Every check-in upload, matched or not, as it arrived (never changed afterwards).
CREATE TABLE patrol_checkins (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  account_id   bigint NOT NULL,
  guard_name   text NOT NULL DEFAULT '',
  code         text NOT NULL,
  -- qr | nfc | wand | gps
  method       text NOT NULL CHECK (method IN ('qr', 'nfc', 'wand', 'gps')),
  device_time  timestamptz,
  server_time  timestamptz NOT NULL DEFAULT now(),
  lat          numeric(10,7),
  lng          numeric(10,7),
  -- ok 已匹配 | unknown 未知点位 | no_task 无当前任务 | duplicate 重复
  outcome      text NOT NULL CHECK (outcome IN ('ok', 'unknown', 'no_task', 'duplicate')),
  reason       text NOT NULL DEFAULT '',
  point_id     bigint,
  point_name   text NOT NULL DEFAULT '',
  task_id      bigint,
  task_point_id bigint,
  distance_m   int,
  outside      boolean NOT NULL DEFAULT false,
  -- E 早到 | O 准时 | L 迟到
  timing       char(1) NOT NULL DEFAULT '' CHECK (timing IN ('', 'E', 'O', 'L')),
  out_of_order boolean NOT NULL DEFAULT false,
  result       char(1) NOT NULL DEFAULT '' CHECK (result IN ('', 'N', 'A')),
  -- [{ title, value }]
  answers      jsonb NOT NULL DEFAULT '[]',
  photos       text[] NOT NULL DEFAULT '{}',
  note         text NOT NULL DEFAULT '',
  order_id     bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id)
);
CREATE INDEX patrol_checkins_task ON patrol_checkins (rid, task_id);
CREATE INDEX patrol_checkins_time ON patrol_checkins (rid, server_time);

-- A supervisor's correction of a task's point: who, when, what changed, why.
CREATE TABLE patrol_edits (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  task_id      bigint NOT NULL,
  task_point_id bigint,
  -- makeup 补检 | result 正常/异常 | remark 备注 | transfer 流转
  action       text NOT NULL,
  old_value    text NOT NULL DEFAULT '',
  new_value    text NOT NULL DEFAULT '',
  reason       text NOT NULL DEFAULT '',
  operator     text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id)
);
CREATE INDEX patrol_edits_task ON patrol_edits (rid, task_id);
