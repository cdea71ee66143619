-- Visitors (访客, /carpark/visitorlist; docs/product.md#visitors): the drawer's stand-in table grows the
-- register form, the pass code (QR) and its uses, the visitor's car with its reserved space and white-list
-- entry; each community's visitor settings.
--
-- status: '' 待审核 (review needed), Y 已通过 (approved, expected), D 已到访 (the pass code opened a door),
--         C 已取消, 3 已拒绝 (as in 004_owners.sql)
ALTER TABLE visitors
  -- '' unknown | M | F
  ADD COLUMN gender       text NOT NULL DEFAULT '' CHECK (gender IN ('', 'M', 'F')),
  -- visit_cause holds the reason type (a visitor_reason item of the dictionary); this is its text
  ADD COLUMN visit_note   text NOT NULL DEFAULT '',
  ADD COLUMN leave_time   timestamptz,
  ADD COLUMN carlicense   text NOT NULL DEFAULT '',
  ADD COLUMN companions   int NOT NULL DEFAULT 0 CHECK (companions BETWEEN 0 AND 50),
  ADD COLUMN photo        text NOT NULL DEFAULT '',
  -- the pass code the QR carries: valid from 30 minutes before visit_time to leave_time, 2 uses (in, out)
  ADD COLUMN pass_code    text,
  ADD COLUMN pass_uses    int NOT NULL DEFAULT 0 CHECK (pass_uses BETWEEN 0 AND 2),
  ADD COLUMN pass_revoked char(1) NOT NULL DEFAULT 'N' CHECK (pass_revoked IN ('Y', 'N')),
  ADD COLUMN last_pass_at timestamptz,
  -- the car: '' no car | P waiting for the review | R reserved (space held, on the lot's white list)
  --          | E ended (free time over: list entry ended, space freed) | X released (cancelled, refused,
  --          revoked) | N not reserved (the setting is off, no free space, black list: car_remark says)
  ADD COLUMN car_status   text NOT NULL DEFAULT '' CHECK (car_status IN ('', 'P', 'R', 'E', 'X', 'N')),
  ADD COLUMN car_remark   text NOT NULL DEFAULT '',
  ADD COLUMN lot_id       bigint,
  -- the reserved space while R (then cleared, its title kept)
  ADD COLUMN space_id     bigint,
  ADD COLUMN space_title  text NOT NULL DEFAULT '',
  -- the white-list entry this visit made (parking_lists.id; not a reference: the parking staff may delete it)
  ADD COLUMN list_id      bigint,
  ADD COLUMN free_until   timestamptz,
  ADD COLUMN review_remark text NOT NULL DEFAULT '',
  ADD COLUMN created_by   bigint,
  ADD FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id),
  ADD FOREIGN KEY (rid, space_id) REFERENCES parking_spaces (rid, id);

UPDATE visitors SET leave_time = visit_time + interval '4 hours' WHERE leave_time IS NULL;
UPDATE visitors SET pass_code = upper(substr(md5(rid::text || '-' || id::text || random()::text), 1, 12)) WHERE pass_code IS NULL;
ALTER TABLE visitors
  ALTER COLUMN leave_time SET NOT NULL,
  ALTER COLUMN pass_code SET NOT NULL,
  ADD CHECK (leave_time > visit_time);

CREATE UNIQUE INDEX visitors_pass_code ON visitors (rid, pass_code);
-- a space is held by one visit at a time
CREATE UNIQUE INDEX visitors_reserved_space ON visitors (rid, space_id) WHERE car_status = 'R';
-- the release job's scan
CREATE INDEX visitors_reserved_until ON visitors (free_until) WHERE car_status = 'R';
CREATE INDEX visitors_visit_time ON visitors (rid, visit_time);
CREATE INDEX visitors_member_day ON visitors (rid, member_id, visit_time) WHERE carlicense <> '';

-- A community's visitor settings (visitorsetinfo / visitorsetedit); a community without a row has the defaults.
CREATE TABLE visitor_settings (
  rid              int NOT NULL REFERENCES regions (id),
  -- a registration waits for a manager's approval (status '') before its pass opens
  review           char(1) NOT NULL DEFAULT 'N' CHECK (review IN ('Y', 'N')),
  -- a visitor's photo is granted to the doors (person type other, the visit's window)
  push_face        char(1) NOT NULL DEFAULT 'N' CHECK (push_face IN ('Y', 'N')),
  -- a visitor's car gets a space of lot_id and the lot's white list for free_minutes from the visit time
  reserve_car      char(1) NOT NULL DEFAULT 'N' CHECK (reserve_car IN ('Y', 'N')),
  lot_id           bigint,
  free_minutes     int NOT NULL DEFAULT 120 CHECK (free_minutes BETWEEN 10 AND 1440),
  -- visitor cars an owner may register a day (0: no limit)
  daily_car_limit  int NOT NULL DEFAULT 0 CHECK (daily_car_limit BETWEEN 0 AND 50),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       bigint,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id),
  CHECK (reserve_car = 'N' OR lot_id IS NOT NULL)
);
