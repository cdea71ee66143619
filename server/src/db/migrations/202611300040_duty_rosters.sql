-- 班次与排班 (issue 36; modules/setup/roster.ts, docs/product.md#duty-rosters): a community's shifts
-- (one or more time ranges, a range may cross midnight), its rosters (by day in a cycle of N days,
-- by week, or by month per day, from an effective date) and the staff on each roster. isOnDuty
-- reads them; patrol task generation and repair round-robin ask it who works at a time.
CREATE TABLE duty_shifts (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  name         text NOT NULL,
  -- canonical 'HH:MM-HH:MM' ranges joined by ','; an end at or before its start ends the next day
  times        text NOT NULL,
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name)
);

CREATE TABLE schedules (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  name         text NOT NULL,
  -- D: a cycle of `cycle` days from start_date; W: `cycle` weeks from start_date's Monday; M: by day of the month
  kind         char(1) NOT NULL CHECK (kind IN ('D', 'W', 'M')),
  cycle        int NOT NULL CHECK (cycle BETWEEN 1 AND 31),
  start_date   date NOT NULL,
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name)
);

-- the roster's days: day_no 0.. of the cycle (W: week * 7 + Monday 0 .. Sunday 6; M: day of month - 1); no shift = rest
CREATE TABLE schedule_days (
  rid          int NOT NULL,
  schedule_id  bigint NOT NULL,
  day_no       int NOT NULL CHECK (day_no BETWEEN 0 AND 216),
  shift_id     bigint,
  PRIMARY KEY (rid, schedule_id, day_no),
  FOREIGN KEY (rid, schedule_id) REFERENCES schedules(rid, id) ON DELETE CASCADE,
  FOREIGN KEY (rid, shift_id) REFERENCES duty_shifts(rid, id)
);
CREATE INDEX schedule_days_shift ON schedule_days (rid, shift_id) WHERE shift_id IS NOT NULL;

CREATE TABLE schedule_staff (
  rid          int NOT NULL,
  schedule_id  bigint NOT NULL,
  account_id   int NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  PRIMARY KEY (rid, schedule_id, account_id),
  FOREIGN KEY (rid, schedule_id) REFERENCES schedules(rid, id) ON DELETE CASCADE
);
CREATE INDEX schedule_staff_account ON schedule_staff (rid, account_id);
